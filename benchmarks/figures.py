"""What a benchmark prints, and with ``--docs`` the same lines on the Performance page, stamped.

The page (docs/performance.md) holds one block per benchmark, between ``<!-- figures: NAME -->`` and
``<!-- end figures: NAME -->``. ``--docs`` replaces that block with this run's lines, the command that
printed them, the date and the machine, so the page quotes only what a benchmark measured, as ``grade
points --update`` writes the points table. A kit test fails when a benchmark has no block there.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import resource
import sys
from pathlib import Path

KIT = Path(__file__).resolve().parent.parent
PAGE = KIT / "docs" / "performance.md"


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--docs", action="store_true", help=f"also write these figures into {PAGE.name}")


class Figures:
    """The lines one benchmark run prints, kept to be written into its block on the page."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[str] = []
        # What else the machine was doing as the run began: the one sign of a noisy run that a reader gets.
        self.load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    def say(self, line: str = "") -> None:
        print(line, flush=True)
        self.lines.append(line)

    def write(self, page: Path = PAGE) -> None:
        text = page.read_text(encoding="utf-8")
        when = stamp() + (f", load average {self.load:.1f} at the start" if self.load is not None else "")
        page.write_text(replace_block(text, self.name, block_body(self.lines, command(), when)), encoding="utf-8")
        print(f"written into {page}")


def load_now() -> str:
    """The machine's load average now, for a line of a run that the machine's other work may have slowed."""
    return f"load {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "load unknown"


def children_cpu() -> float:
    """CPU seconds of this process's ended children and of what they waited for (graders, workers, kernels):
    on a machine that others share, the steady figure beside the wall clock's."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command() -> str:
    """The command that ran, as a reader would type it again from the kit's folder, without ``--docs``."""
    words = [f"benchmarks/{Path(sys.argv[0]).name}", *(kit_relative(word) for word in sys.argv[1:] if word != "--docs")]
    return "python " + " ".join(words)


def kit_relative(word: str) -> str:
    """``word``, with a path in it (``PATH`` or ``--option=PATH``) written from the kit's folder: this
    machine's absolute paths mean nothing to a reader, ``../shared/corpora/...`` does."""
    option, equals, value = word.rpartition("=") if word.startswith("--") else ("", "", word)
    if not value.startswith("/"):
        return word
    return option + equals + os.path.relpath(Path(value).resolve(), KIT)


def stamp() -> str:
    """The date and the machine, as a block's reader needs them to weigh its figures."""
    model = platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = re.findall(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(encoding="utf-8", errors="replace"), re.M)
        model = names[0].strip() if names else model
    cores = os.cpu_count()  # the machine's, not this process's: a benchmark may keep itself to one
    when = datetime.date.today().isoformat()
    return f"{when}, {model}, {cores} cores, Python {platform.python_version()}, {platform.system()}"


def block_body(lines: list[str], command: str, stamp: str) -> str:
    return f"`{command}` on {stamp}:\n\n```text\n" + "\n".join(lines) + "\n```\n"


def markers(name: str) -> tuple[str, str]:
    return f"<!-- figures: {name} -->", f"<!-- end figures: {name} -->"


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with the block of benchmark ``name`` holding ``body``; ValueError unless it has one block."""
    start, end = markers(name)
    pattern = re.compile(re.escape(start) + r"\n.*?" + re.escape(end), flags=re.DOTALL)
    if len(pattern.findall(text)) != 1:
        raise ValueError(f"{PAGE.name} needs one {start!r} line and one {end!r} line after it")
    return pattern.sub(lambda _: f"{start}\n{body}{end}", text)


def blocks(text: str) -> dict[str, str]:
    """Each benchmark's block on the page, by name."""
    return dict(re.findall(r"<!-- figures: (\w+) -->\n(.*?)<!-- end figures: \1 -->", text, flags=re.DOTALL))
