"""What the student-loop workflow checks after each step, in one place every runner's Python can run.

    python student_loop.py score REPORT.json none|full   the score of a `grade --format json` report
    python student_loop.py check-cells NOTEBOOK          a notebook run in its kernel; its check cells' output

Only the standard library and what the release's notebooks extra installs (nbformat, nbclient).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

# A test timed against the reference in the same run, known by its doc's words (the kit's tests know it by
# the same pattern: tests/kit/support/results.py's TIMED, which a kit test holds equal to this). A hosted runner is
# shared and slow by turns, so such a test's verdict says more about the runner than about the kit: "full"
# leaves it out, and says which it left out.
TIMED = re.compile(r"times faster than|the reference's time|timed in this run")


def timed(test: dict) -> bool:
    """Whether a report's test is timed against the reference in the same run."""
    return bool(TIMED.search(str(test.get("extra_data", {}).get("doc", ""))))


def score(report: Path, expected: str) -> str | None:
    """Why ``report`` is not the expected score, or None: "none" is 0 points, "full" is no test below its most
    but those timed against the reference (TIMED) (a bonus test's points come on top of its most, so a full
    report may earn more than the sum of them)."""
    document = json.loads(report.read_text(encoding="utf-8"))
    tests = document["tests"]
    if not tests:
        return f"{report}: no tests graded"
    earned = sum(test["score"] for test in tests)
    below = [test for test in tests if test["score"] < test["max_score"] - 1e-9]
    short = [test["name"] for test in below if not timed(test)]
    if expected == "full":
        for test in below:
            if timed(test):
                print(f"{report}: {test['name']} is timed against the reference; below its most here, not counted")
    if expected == "none" and earned > 1e-9:
        return f"{report}: the stubs earned {earned:g} points; expected 0"
    if expected == "full" and short:
        return f"{report}: the reference lost points on {len(short)} tests, first {short[0]}; expected none"
    return None


def check_cells(notebook: Path) -> str | None:
    """Run ``notebook`` as Jupyter would (a demo cell's error does not stop it); why its check cells fail, or None."""
    import nbformat
    from nbclient import NotebookClient

    document = nbformat.read(notebook, as_version=4)
    client = NotebookClient(document, timeout=300, kernel_name="python3", allow_errors=True)
    client.execute(cwd=str(notebook.parent))
    checks = [cell for cell in document.cells if cell.cell_type == "code" and cell.source.startswith("check(")]
    if not checks:
        return f"{notebook}: no check cell"
    for cell in checks:
        texts = (output.get("text", "") or output.get("data", {}).get("text/plain", "") for output in cell.outputs)
        shown = "".join(texts)
        print(f"--- {cell.source.strip()}\n{shown}")
        if any(output.get("output_type") == "error" for output in cell.outputs):
            return f"{notebook}: `{cell.source.strip()}` raised instead of reporting"
        if "not started" not in shown or "Public checks: 0 of " not in shown:
            return f"{notebook}: `{cell.source.strip()}` did not report the stub as not started"
    return None


def main(arguments: list[str]) -> int:
    if len(arguments) == 3 and arguments[0] == "score" and arguments[2] in ("none", "full"):
        problem = score(Path(arguments[1]), arguments[2])
    elif len(arguments) == 2 and arguments[0] == "check-cells":
        problem = check_cells(Path(arguments[1]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if problem:
        print(f"student_loop.py: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
