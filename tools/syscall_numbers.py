"""Write the kit's table of system call numbers (autograder/cage/syscall_numbers.json) from the kernel's headers.

The seccomp filter (autograder/cage/seccomp.py) matches calls by number, and
the numbers differ by architecture. They come from the headers Debian's
``linux-libc-dev`` installs, read through the C preprocessor so that the
headers' own conditions decide which calls an architecture has:

- x86-64: ``asm/unistd_64.h``, a plain list of ``#define __NR_<name> <number>``;
- arm64: ``asm-generic/unistd.h`` with the switches arm64's own ``asm/unistd.h``
  sets before including it (only x86's is installed on an x86 machine).

Run it again when the headers are newer; the kit's tests check that the committed table is what it writes::

    python tools/syscall_numbers.py            # rewrites the table
    python tools/syscall_numbers.py --check    # exits 1 when the table differs
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

TABLE = Path(__file__).resolve().parent.parent / "autograder" / "cage" / "syscall_numbers.json"
INCLUDE = Path("/usr/include")
X86_64_HEADER = "x86_64-linux-gnu/asm/unistd_64.h"
GENERIC_HEADER = "asm-generic/unistd.h"
# What arch/arm64/include/uapi/asm/unistd.h defines before it includes the generic list (Linux 6.1).
ARM64_SWITCHES = (
    "__ARCH_WANT_RENAMEAT",
    "__ARCH_WANT_NEW_STAT",
    "__ARCH_WANT_SET_GET_RLIMIT",
    "__ARCH_WANT_TIME32_SYSCALLS",
    "__ARCH_WANT_SYS_CLONE3",
    "__ARCH_WANT_MEMFD_SECRET",
)
DEFINE = re.compile(r"^#define __NR_(\w+) (\w+)$")


def defines(header: str, switches: tuple[str, ...] = ()) -> dict[str, str]:
    """Every macro the header leaves defined, as the preprocessor sees it for a 64-bit target."""
    command = ["cpp", "-dM", "-nostdinc", "-I", str(INCLUDE), "-I", str(INCLUDE / "x86_64-linux-gnu")]
    command += ["-D__BITS_PER_LONG=64", *(f"-D{switch}" for switch in switches), "-include", header, "/dev/null"]
    text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    found: dict[str, str] = {}
    for line in text.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[0] == "#define":
            found[parts[1]] = parts[2]
    return found


def numbers(macros: dict[str, str]) -> dict[str, int]:
    """``{name: number}`` for each ``__NR_<name>``, following aliases (``__NR_fcntl`` is ``__NR3264_fcntl``)."""
    table: dict[str, int] = {}
    for macro, value in macros.items():
        if not macro.startswith("__NR_") or macro in ("__NR_syscalls", "__NR_arch_specific_syscall"):
            continue
        for _ in range(8):  # an alias names another macro: follow it to the number
            if value.isdigit():
                break
            value = macros.get(value.strip("()"), "")
        if value.isdigit():
            table[macro.removeprefix("__NR_")] = int(value)
    return dict(sorted(table.items(), key=lambda item: (item[1], item[0])))


def version() -> str:
    """The headers' package and version, for the table's record of where it came from."""
    try:
        asked = ["dpkg-query", "-W", "-f=${Package} ${Version}", "linux-libc-dev"]
        return subprocess.run(asked, check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def table() -> dict[str, object]:
    return {
        "comment": "Written by tools/syscall_numbers.py from the kernel's headers: do not edit by hand.",
        "headers": version(),
        "architectures": {
            "x86_64": numbers(defines(X86_64_HEADER)),
            "aarch64": numbers(defines(GENERIC_HEADER, ARM64_SWITCHES)),
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the committed table differs")
    written = json.dumps(table(), indent=1) + "\n"
    if parser.parse_args().check:
        kept = TABLE.read_text(encoding="utf-8")
        same = json.loads(kept)["architectures"] == json.loads(written)["architectures"]
        print("the table is what the headers give" if same else f"{TABLE} differs from the headers: rerun this")
        return 0 if same else 1
    TABLE.write_text(written, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
