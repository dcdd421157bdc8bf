"""The benchmarks' measuring parts still measure what they say (the suite does not run the benchmarks)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from autograder.kit_root import KIT_ROOT


@pytest.mark.slow  # the whole hidden suite, for a benchmark's instrument
def test_the_throughput_limit_is_a_full_marks_grading_of_the_reference():
    """batch_throughput's limit stands an in-process worker in for the cage: it must give the reference
    full marks (it stops the benchmark otherwise), whatever the grading session asks of its worker."""
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(KIT_ROOT / 'benchmarks')!r})\n"
        "import batch_throughput\n"
        "print(batch_throughput.in_process_seconds(rounds=1) > 0)\n"
    )
    process = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert process.returncode == 0, process.stderr[-2000:]
    assert process.stdout.strip() == "True"


def test_hand_in_cpu_reads_each_worker_tree_and_each_spare_it_grades_with():
    """hand_in_cpu samples where the grader takes a spare and discards a worker: renamed, those hooks
    would measure nothing (and the benchmark would stop). A tree's CPU holds its boot's."""
    process = run_benchmark("hand_in_cpu.py", "--hand-ins", "2", "--part", "bpe")  # one part has both hooks
    tree = float(re.findall(r"worker tree +([\d.]+) ms", process.stdout)[0])
    boots = [float(boot) for boot in re.findall(r"of which ([\d.]+) ms booting as a spare", process.stdout)]
    assert tree > 0 and all(tree > boot > 0 for boot in boots), process.stdout  # spares: the sandbox only
    assert "x the limit" in process.stdout


def test_worker_start_times_a_worker_in_each_cage_that_runs_student_code():
    """worker_start times a worker in the cage this machine builds and in the process cage; where the process
    cage runs no student code (the grader is root), it says so rather than stop."""
    process = run_benchmark("worker_start.py", "--runs", "1")
    timed = re.findall(r"^(.+): median (\d+) ms to start a worker", process.stdout, re.MULTILINE)
    skipped = re.findall(r"^(.+): no worker starts here", process.stdout, re.MULTILINE)
    assert len(timed) + len(skipped) == 2 and timed, process.stdout
    assert all(int(ms) > 0 for _, ms in timed)


def run_benchmark(script: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run a benchmark of ``benchmarks/`` with ``arguments``; it must end well."""
    command = [sys.executable, str(KIT_ROOT / "benchmarks" / script), *arguments]
    process = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert process.returncode == 0, process.stderr[-2000:]
    return process


@pytest.mark.slow  # the whole hidden suite, for a benchmark's instrument
def test_grade_latencys_plain_pytest_baseline_passes_the_hidden_suite(tmp_path):
    """grade_latency compares the cage with plain pytest running the same hidden tests on the reference: a
    fixture the graded tests ask for that the baseline lacks fails the baseline, and stops the benchmark."""
    sys.path.insert(0, str(KIT_ROOT / "benchmarks"))
    import grade_latency

    before = _kit_root_names()
    command = grade_latency.plain_pytest(tmp_path)
    process = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=KIT_ROOT)
    assert process.returncode == 0, process.stdout[-2000:]
    assert _kit_root_names() == before, "the baseline's call folders go in its scratch, not the kit's root"


def _kit_root_names() -> set[str]:
    """What the kit's root holds, but for the hidden folders tools make in the working folder (.hypothesis)."""
    return {path.name for path in KIT_ROOT.iterdir() if not path.name.startswith(".")}


@pytest.mark.unit
def test_the_nbgrader_comparison_hands_in_each_mistake_in_the_cell_that_defines_it(tmp_path):
    """against_nbgrader writes its buggy and slow hand-ins into the course's notebooks: every mistake it
    draws lands in the solution cell of its function (a renamed cell would stop the benchmark), and the
    correct hand-ins are the course's solved notebooks as they are."""
    sys.path.insert(0, str(KIT_ROOT / "benchmarks"))
    import against_nbgrader

    from autograder.authoring.notebooks import NBGRADER_ASSIGNMENT, NBGRADER_COURSE

    drawn = {name for name, (module, _, _) in against_nbgrader.BUGS.items() if module != "fast_bpe"}
    kinds = against_nbgrader.write_class(tmp_path / "course", 1 + 2 * len(drawn), slow=1)
    source = NBGRADER_COURSE / "source" / NBGRADER_ASSIGNMENT
    found = set()
    for student, kind in kinds.items():
        handed_in = tmp_path / "course" / "submitted" / student / NBGRADER_ASSIGNMENT
        assert (handed_in / "data").is_dir(), "the notebooks read the course's data"
        changed = [
            path.name
            for path in sorted(source.glob("*.ipynb"))
            if (handed_in / path.name).read_bytes() != path.read_bytes()
        ]
        assert len(changed) == (0 if kind == "correct" else 1), (student, kind, changed)
        for name in changed:
            cells = json.loads((handed_in / name).read_text(encoding="utf-8"))["cells"]
            defining = {cell["metadata"].get("nbgrader", {}).get("grade_id"): "".join(cell["source"]) for cell in cells}
            found |= {
                bug
                for bug, (module, function, code) in against_nbgrader.BUGS.items()
                if name == f"{module}.ipynb" and defining.get(function, "").endswith(code.strip() + "\n")
            }
    assert found == drawn | {"fast trainer is the naive recount (right, but slow)"}, "each mistake, in its cell"


@pytest.mark.unit
def test_the_notebook_timings_naive_trainer_is_correct_and_lands_in_the_train_bytes_cell():
    """notebook_time's slow trainer must be correct, slow only: the reference's merges, special tokens and
    ties included; and it is swapped into the solved notebook's train_bytes cell."""
    sys.path.insert(0, str(KIT_ROOT / "benchmarks"))
    try:
        import notebook_time
    finally:
        sys.path.remove(str(KIT_ROOT / "benchmarks"))
    from autograder.testing.reference import reference

    real_tokenizer = reference("real_tokenizer")
    namespace = dict(vars(real_tokenizer))
    exec(compile(notebook_time.NAIVE_TRAIN_BYTES, "naive", "exec"), namespace)
    shakespeare = (KIT_ROOT / "exercises" / "data" / "shakespeare.txt").read_text(encoding="utf-8")
    text = "<|endoftext|>".join([shakespeare[:4000], "aaaa bbbb aaaa bbbb", shakespeare[4000:8000]])
    for vocab_size in (300, 420):
        assert namespace["train_bytes"](text, vocab_size, ["<|endoftext|>"]) == real_tokenizer.train_bytes(
            text, vocab_size, ["<|endoftext|>"]
        )
    notebook = notebook_time.solved_notebook("real_tokenizer", "naive")
    assert sum(notebook_time.NAIVE_TRAIN_BYTES in cell.source for cell in notebook.cells) == 1
