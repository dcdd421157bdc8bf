"""The memory bonus's bound (Part 6's ``train_bytes``), derived from what the kernel measures.

A call's memory is measured as the grader measures it: how far a process forked for that one call grows
past what it held at birth, its peak read by its parent from ``wait4`` (``autograder/testing/memory_growth.py``,
with the functions the worker measures a student's call with). For each of ``--draws`` hand-ins' draws of
the memory test's text (a window of ``training_text.txt``), the reference is measured ``--runs`` times: its
least growth, and the run-to-run noise (the largest spread of one draw's runs). The text is big enough when
the reference's least growth is at least 10 times the noise. The reference is then graded as a hand-in, in
a real worker, on each draw: its figure there over the grader's measure of it, the ratio an honest hand-in
is held to. Then the kit's correct alternatives and the
bug corpus's memory mistakes are measured on each draw, as ratios to the reference's growth on it (a
correct one's largest over the reference's least, a mistake's least over the reference's largest): the
bound (``MEMORY_RATIO``) must lie above every correct one and below every mistake.

    python benchmarks/memory_bound.py [--draws 3] [--runs 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from figures import Figures, add_option

from autograder.kit_root import KIT_ROOT
from autograder.testing.memory_growth import growth_of

sys.path.insert(0, str(KIT_ROOT / "tests" / "kit" / "support"))
from bug_corpus import BUGS

FIGURES = Figures("memory_bound")
MIB = 2**20
REFERENCE = KIT_ROOT / "solutions" / "real_tokenizer.py"
ALTERNATIVES = KIT_ROOT / "tests" / "kit" / "support" / "submissions" / "correct"
NOISE_TIMES = 10  # the reference's growth at least this many times the noise


def hidden_test() -> ModuleType:
    """The memory test's module, for its text, its vocabulary and its bound."""
    path = KIT_ROOT / "tests" / "hidden" / "real_tokenizer" / "test_train_bytes.py"
    spec = importlib.util.spec_from_file_location("test_train_bytes", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def trainers(folder: Path) -> dict[str, Path]:
    """The correct alternatives' and the memory mistakes' modules, by name (a mistake's, written out)."""
    found = {
        f"correct: {path.parent.name}": path
        for path in sorted(ALTERNATIVES.glob("*/real_tokenizer.py"))
        if "def train_bytes" in path.read_text(encoding="utf-8")
    }
    for number, (name, (module, function, source)) in enumerate(sorted(BUGS.items())):
        if (module, function) == ("real_tokenizer", "train_bytes") and "memory" in name:
            path = folder / f"mistake{number}.py"
            path.write_text(REFERENCE.read_text(encoding="utf-8") + "\n\n" + source, encoding="utf-8")
            found[f"mistake: {name}"] = path
    return found


def measured(path: Path, text: str, test: ModuleType) -> int:
    grown = growth_of(path, "train_bytes", text, test.SPEED_VOCAB, [test.END_OF_TEXT])
    if grown is None:
        raise SystemExit(f"{path}: not measured on this platform (no fork, or no peak from the kernel)")
    return grown


def in_a_worker(texts: list[str], test: ModuleType) -> list[int]:
    """The reference's growth on each text as the worker measures a hand-in's (``Worker.measured_request``)."""
    from autograder.cage.cage_limits import CageLimits
    from autograder.cage.starting import start_worker
    from autograder.hand_in import loading
    from autograder.testing.proxy import GradingSession

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "real_tokenizer.py").write_text(REFERENCE.read_text(encoding="utf-8"), encoding="utf-8")
        started = start_worker(loading.load(Path(folder)), CageLimits())
        try:
            session = GradingSession(started.worker, CageLimits())
            grown = []
            for text in texts:
                arguments = (text, test.SPEED_VOCAB, [test.END_OF_TEXT])
                record = session.call("real_tokenizer", "train_bytes", arguments, {}, memory_growth=True)
                if record.grown_bytes is None:
                    raise SystemExit("the worker measured no growth: no peak from the kernel on this platform")
                grown.append(record.grown_bytes)
            return grown
        finally:
            started.worker.stop()
            started.cage.remove()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--draws", type=int, default=3, help="hand-ins' draws of the text [default: 3]")
    parser.add_argument("--runs", type=int, default=5, help="runs of the reference on each draw [default: 5]")
    add_option(parser)
    arguments = parser.parse_args()
    test = hidden_test()
    texts = [test.speed_text(draw) for draw in range(arguments.draws)]
    FIGURES.say(
        f"text: {len(texts[0]):,} characters of training_text.txt a draw, vocabulary {test.SPEED_VOCAB:,}; "
        f"the reference {arguments.runs} times on each of {arguments.draws} draws"
    )
    reference = [[measured(REFERENCE, text, test) for _ in range(arguments.runs)] for text in texts]
    for draw, runs in enumerate(reference):
        FIGURES.say(f"  draw {draw}: grew {', '.join(f'{grown / MIB:.1f}' for grown in runs)} MiB")
    noise = max(max(runs) - min(runs) for runs in reference)
    least = min(min(runs) for runs in reference)
    times = least / noise if noise else float("inf")
    FIGURES.say(
        f"run-to-run noise (largest spread of a draw): {noise / MIB:.2f} MiB; the reference's least growth "
        f"{least / MIB:.1f} MiB, {times:.1f}x the noise (target >= {NOISE_TIMES})"
    )
    worker = in_a_worker(texts, test)
    honest = max(each / min(runs) for each, runs in zip(worker, reference, strict=True))
    FIGURES.say(
        f"the reference as a hand-in, in a worker: grew {', '.join(f'{grown / MIB:.1f}' for grown in worker)} MiB, "
        f"at most {honest:.2f}x the grader's measure of it"
    )
    correct, mistakes = [honest], []
    with tempfile.TemporaryDirectory() as folder:
        for name, path in trainers(Path(folder)).items():
            grown = [measured(path, text, test) for text in texts]
            if name.startswith("correct"):
                ratio = max(each / min(runs) for each, runs in zip(grown, reference, strict=True))
                correct.append(ratio)
            else:
                ratio = min(each / max(runs) for each, runs in zip(grown, reference, strict=True))
                mistakes.append(ratio)
            FIGURES.say(f"  {name}: {max(grown) / MIB:.1f} MiB at most, {ratio:.1f}x the reference's")
    bound = test.MEMORY_RATIO
    holds = all(ratio <= bound for ratio in correct) and all(ratio > bound for ratio in mistakes)
    FIGURES.say(
        f"bound {bound:g}x: correct alternatives at most {max(correct, default=0):.1f}x, memory mistakes at "
        f"least {min(mistakes, default=float('inf')):.1f}x: {'holds' if holds else 'DOES NOT HOLD'}"
    )
    if arguments.docs:
        FIGURES.write()
    if not holds or times < NOISE_TIMES:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
