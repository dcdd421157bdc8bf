"""The plain-Python policy: no honest code refused, every way past it refused before it runs, and its
docs page and its code saying the same.

Honest code is every solution, correct alternative, bug-corpus entry and shipped notebook, and the
samples in ``submissions/student_samples/``, written by someone who had not read the policy. A refusal found there is
a fix of the policy, never of the sample. The attacks (``policy_attacks``) each earned points on a grader
without the policy; here each is graded through the real CLI and must earn nothing for its part.
"""

from __future__ import annotations

import ast
import re
import shutil
import time
from pathlib import Path

import pytest
from bug_corpus import BUGS
from classroom import SOLUTIONS
from commands import grade, run_batch
from policy_attacks import ATTACKS, BUILT_CODE, MISREAD_CODINGS, PACKED_PART, TARGET, write_attack
from results import function_scores, gradebook_rows

from autograder.authoring import notebooks as exercises
from autograder.course import course_file
from autograder.hand_in import loading, policy, policy_parts
from autograder.hand_in.cells import Cell
from autograder.hand_in.loaded import LoadedHandIn
from autograder.hand_in.policy_check import Source, check_file, check_source, readable_dunder
from autograder.kit_root import KIT_ROOT
from autograder.parts import MODULES, PARTS
from autograder.scoring.points import SuitePoints

SAMPLES = Path(__file__).parents[1] / "support" / "submissions" / "student_samples"
CORRECT = Path(__file__).parents[1] / "support" / "submissions" / "correct"
POLICY_PAGE = KIT_ROOT / "docs" / "security" / "policy.md"


def refusal_lines(loaded: LoadedHandIn) -> list[str]:
    """Every refusal of a hand-in (or of each of a release's folders), as a student reads it."""
    return [
        refusal.line_text()
        for each in (loaded.halves or (loaded,))
        for _, refusals in each.refused
        for refusal in refusals
    ]


def honest_hand_ins() -> list[tuple[str, Path]]:
    """Every honest hand-in the kit ships or keeps, as a path to grade: folders, notebooks, one-file samples."""
    found = [("solutions", SOLUTIONS), ("student_template", KIT_ROOT / "student_template")]
    found += [(f"correct/{folder.name}", folder) for folder in sorted(CORRECT.iterdir()) if folder.is_dir()]
    found += [(f"exercises/{path.name}", path) for path in sorted((KIT_ROOT / "exercises").glob("*.ipynb"))]
    nbgrader = KIT_ROOT / "exercises" / "nbgrader" / "source"
    found += [(f"nbgrader/{path.name}", path) for path in sorted(nbgrader.rglob("*.ipynb"))]
    found += [
        (f"sample/{path.name}", path) for path in sorted(SAMPLES.iterdir()) if path.suffix == ".py" or path.is_dir()
    ]
    return found


@pytest.mark.unit
def test_there_are_at_least_forty_samples_of_student_code_written_blind():
    samples = [path for path in SAMPLES.iterdir() if path.suffix == ".py" or path.is_dir()]
    assert len(samples) >= 40, sorted(path.name for path in samples)


@pytest.mark.unit
@pytest.mark.parametrize(("name", "path"), honest_hand_ins(), ids=[name for name, _ in honest_hand_ins()])
def test_no_honest_hand_in_is_refused(name: str, path: Path):
    """Read as the grader reads it (the notebook cells the worker runs), nothing of it is refused."""
    assert refusal_lines(loading.load(path)) == []


@pytest.mark.unit
@pytest.mark.parametrize("name", sorted(BUGS))
def test_no_mistake_of_the_bug_corpus_is_refused(name: str):
    module, _, change = BUGS[name]
    source = (SOLUTIONS / f"{module}.py").read_text(encoding="utf-8") + "\n\n" + change
    assert [
        refusal.line_text() for refusal in check_source(source, Source(f"{module}.py", frozenset(MODULES))).refusals
    ] == []


@pytest.mark.unit
@pytest.mark.parametrize("part", PARTS, ids=[part.module for part in PARTS])
def test_no_solved_notebook_is_refused(part, tmp_path: Path):
    """The notebooks as a student who finished them hands them in: solved, plots and checks included."""
    from results import hidden_points

    points: SuitePoints = hidden_points()
    notebook = tmp_path / f"{part.module}.ipynb"
    notebook.write_text(exercises.render(exercises.build(part, "solved", points=points)), encoding="utf-8")
    assert refusal_lines(loading.load(notebook)) == []


@pytest.mark.unit
def test_the_policy_reads_every_honest_hand_in_in_well_under_a_second_each():
    """The check runs for every hand-in: its cost, printed, over everything honest (loading included)."""
    loaded = [loading.load(path) for _, path in honest_hand_ins()]
    started = time.process_time()
    for each in loaded:
        for half in each.halves or (each,):
            half.__dict__.pop("refused", None)  # a cached answer would time nothing
            assert half.refused == ()
    spent = time.process_time() - started
    print(f"policy: {len(loaded)} hand-ins in {spent:.3f} s of CPU, {1000 * spent / len(loaded):.1f} ms each")


# Each construct outside the policy, with a word the refusal's line must hold.
REFUSED_CONSTRUCTS = {
    "import importlib": "importlib is not a module",
    "import subprocess": "subprocess is not a module",
    "import threading": "threading is not a module",
    "import signal": "signal is not a module",
    "import inspect": "inspect is not a module",
    "import types": "types is not a module",
    "import code": "code is not a module",
    "import runpy": "runpy is not a module",
    "import os\nos.system('true')": "of os, only",
    "import os\nos.fork()": "of os, only",
    "import sys\nsys.modules": "of sys, only",
    "import sys\nsys._getframe()": "private to sys",
    "from sys import modules": "of sys, only",
    "from os import *": "only some of os",
    "import collections\ncollections._sys": "private to collections",
    "from collections import _sys": "private to collections",
    "import dataclasses\ndataclasses.x = 1": "assigning another module's attribute",
    "import regex\nregex.findall = len": "assigning another module's attribute",
    "import re\ndel re.compile": "assigning another module's attribute",
    "import re\npatterns = re": "used as a value",
    "import re\nprint(re)": "used as a value",
    "import re\ndef f():\n    return re": "used as a value",
    "import re\nkept = [re]": "used as a value",
    "import typing\ntyping.sys.modules": "of sys, only",
    "from dataclasses import inspect": "inspect is not a module",
    "getattr(object, name)": "computed at run time",
    "setattr(thing, name, 1)": "computed at run time",
    "delattr(thing, name)": "computed at run time",
    "read = getattr": "computed at run time",
    "getattr(thing, '__globals__')": "__globals__",
    "import operator\noperator.attrgetter(name)": "computed at run time",
    "from operator import attrgetter\nattrgetter('__class__')": "__class__",
    "exec('x = 1')": "exec()",
    "eval('1')": "eval()",
    "compile('1', 'x', 'eval')": "compile()",
    "__import__('os')": "__import__",
    "globals()": "globals()",
    "vars()": "vars()",
    "locals()": "locals()",
    "breakpoint()": "breakpoint()",
    "try:\n    pass\nexcept Exception as error:\n    error.__traceback__": "__traceback__",
    "frame = trace.tb_frame": "tb_frame",
    "frame.f_globals": "f_globals",
    "frame.f_back": "f_back",
    "generator.gi_frame": "gi_frame",
    "coroutine.cr_frame": "cr_frame",
    "function.__code__.co_consts": "co_consts",
    "object.__subclasses__()": "__subclasses__",
    "thing.__class__": "__class__",
    "thing.__dict__": "__dict__",
    "thing.__reduce__()": "__reduce__",
    "thing.__reduce_ex__(2)": "__reduce_ex__",
    "type(thing).__mro__": "__mro__",
    "function.__globals__": "__globals__",
    "function.__closure__": "__closure__",
    "method.__self__": "__self__",
    "method.__func__": "__func__",
    "__builtins__": "__builtins__",
    "__loader__": "__loader__",
    "__spec__": "__spec__",
    "object.__getattribute__(thing, 'x')": "__getattribute__",
    "__name__ = '__main__'": "binding __name__",
    "function.__defaults__ = (1,)": "setting __defaults__",
    "match thing:\n    case object(__class__=kind):\n        pass": "__class__",
    "def f(x: \"eval('1')\"):\n    pass": "eval()",
    "import typing\ntyping.ForwardRef('x')": "typing.ForwardRef",
    "import string\nstring.Formatter().get_field('0.x', [1], {})": "string.Formatter",
    "import logging\nlogging.currentframe()": "logging.currentframe",
    # doctest.testmod runs a docstring's examples: code, checked as code, and no docstring set at run time.
    'import doctest\ndef f():\n    """\n    >>> eval("1")\n    1\n    """': "eval()",
    'import doctest\ndef f():\n    pass\nf.__doc__ = ">>> 1"': "setting __doc__",
}


@pytest.mark.unit
@pytest.mark.parametrize("code", sorted(REFUSED_CONSTRUCTS))
def test_a_construct_outside_the_policy_is_refused_with_its_line(code: str):
    refusals = check_source(code, Source("bpe.py")).refusals
    assert refusals, code
    said = "\n".join(refusal.line_text() for refusal in refusals)
    assert REFUSED_CONSTRUCTS[code] in said, said
    assert all(refusal.file == "bpe.py" and refusal.line >= 1 and refusal.instead for refusal in refusals)


# What the policy lets through that looks close to what it refuses.
ALLOWED_CONSTRUCTS = (
    "import string\ndef f(string):\n    return string.upper()",  # a parameter named like a module
    "try:\n    import regex\nexcept ImportError:\n    regex = None\nif regex is None:\n    pass",
    "import regex as re\nre.compile('x')",
    "from collections import *",
    "import os.path\nos.path.join('a', 'b')",
    "from os import path\npath.join('a')",
    "getattr(thing, 'name', None)",
    "from operator import attrgetter\nattrgetter('count')",
    "class Vocab:\n    __slots__ = ('ids',)\n    def __eq__(self, other):\n        return str.__gt__(self, other)",
    "class Node:\n    def __reduce__(self):\n        return (Node, ())",
    "if __name__ == '__main__':\n    print(__doc__)",
    "__all__ = ['encode']",
    "import sys\nprint('x', file=sys.stderr)\nsys.setrecursionlimit(10_000)",
    "import functools\n@functools.lru_cache(maxsize=None)\ndef f(x):\n    return x",
    "from dataclasses import dataclass, field\n@dataclass(frozen=True)\nclass Pair:\n    left: str = field(default='')",
    "import typing\ntyping.get_type_hints(len)",
    "match thing:\n    case [first, *rest]:\n        pass",
    "def counts():\n    yield from range(3)",
    "self._cache = {}",
    "from autograder.notebook.jupyter import checker\ncheck = checker('bpe')\ncheck(merge_pair)",
    "import autograder.course.token_view\nautograder.course.token_view.show_rows(['a'])",
    "def wraps(f):\n    def inner():\n        return f()\n    inner.__doc__ = f.__doc__\n    return inner",
)


@pytest.mark.unit
@pytest.mark.parametrize("code", ALLOWED_CONSTRUCTS)
def test_code_close_to_a_refused_construct_is_allowed(code: str):
    assert [refusal.line_text() for refusal in check_source(code, Source("bpe.py")).refusals] == []


@pytest.mark.unit
@pytest.mark.parametrize("coding", ["latin-1", "utf-7", "bpe_x", "ascii"])
def test_a_file_declaring_a_coding_other_than_utf_8_is_refused(coding: str):
    content = f"# -*- coding: {coding} -*-\nx = 1\n".encode("ascii")
    refusals = check_file(content, Source("bpe.py")).refusals
    assert len(refusals) == 1 and refusals[0].line == 1 and coding in refusals[0].why


@pytest.mark.unit
@pytest.mark.parametrize("way", sorted(BUILT_CODE))
def test_code_built_at_run_time_is_refused_before_it_runs(way: str):
    """Each of the runtime tripwire's attacks (test_built_code), those it no longer catches alone included."""
    refusals = check_file(BUILT_CODE[way].encode("utf-8"), Source("simple_tokenizers.py")).refusals
    assert refusals, way


@pytest.mark.unit
@pytest.mark.parametrize("content", [PACKED_PART, *MISREAD_CODINGS.values()])
def test_a_coding_of_the_hand_ins_own_is_refused_however_it_is_declared(content: str):
    assert check_file(content.encode("utf-8"), Source("packed_part.py")).refusals, content[:80]


@pytest.mark.unit
def test_a_file_in_utf_8_with_its_coding_or_a_byte_order_mark_is_allowed():
    for content in (b"# -*- coding: utf-8 -*-\nx = 1\n", b"\xef\xbb\xbfx = 1\n", "x = 'é'\n".encode()):
        assert check_file(content, Source("bpe.py")).refusals == []
    assert check_file(b"x = '\xff'\n", Source("bpe.py")).refusals[0].why.endswith("is not UTF-8")


@pytest.mark.unit
def test_a_file_imported_by_two_parts_costs_both_and_no_other(tmp_path: Path):
    for reference in SOLUTIONS.glob("*.py"):
        shutil.copy(reference, tmp_path / reference.name)
    (tmp_path / "helpers.py").write_text("import pickle\n", encoding="utf-8")
    for module in ("bpe", "word_bpe"):
        (tmp_path / f"{module}.py").write_text(
            "import helpers\n" + (SOLUTIONS / f"{module}.py").read_text(encoding="utf-8"), encoding="utf-8"
        )
    refused = dict(loading.load(tmp_path).refused)
    assert sorted(refused) == ["bpe", "word_bpe"]
    assert [refusal.file for refusal in refused["bpe"]] == ["helpers.py"]


@pytest.mark.unit
def test_a_notebook_may_plot_where_no_graded_function_reaches_but_not_where_one_does(tmp_path: Path):
    cells = [
        "import matplotlib.pyplot as plt\nfrom autograder.notebook.jupyter import checker",
        "def merge_pair(tokens, pair):\n    return list(tokens)",
        "def show(counts):\n    import numpy\n    plt.bar(range(3), numpy.arange(3))",
        "plt.show()",
    ]
    notebook = tmp_path / "bpe.ipynb"
    notebook.write_text(_notebook(cells), encoding="utf-8")
    assert refusal_lines(loading.load(notebook)) == []
    cells[1] = "def merge_pair(tokens, pair):\n    show(tokens)\n    return list(tokens)"
    notebook.write_text(_notebook(cells), encoding="utf-8")
    said = "\n".join(refusal_lines(loading.load(notebook)))  # show() is reached now: its plt and numpy too
    assert "numpy is not a module" in said and "matplotlib.pyplot is not a module" in said, said


@pytest.mark.unit
def test_a_check_cell_grades_the_kernels_cells_with_a_module_taken_from_a_package_by_name():
    """``check(...)`` in a notebook grades every cell the kernel ran, uncut: Part 6's comparison with Hugging
    Face (``from tokenizers import decoders``, a module) is the notebook's, not a refusal of the part."""
    cells = (
        Cell(1, "def merge_pair(tokens, pair):\n    return list(tokens)"),
        Cell(2, "from tokenizers import Tokenizer, decoders\nprint(Tokenizer, decoders.ByteLevel())"),
    )
    assert policy_parts.refused_parts({}, kind="modules", module_cells=(("bpe", cells),)) == ()
    reached = (Cell(1, "from tokenizers import decoders\ndef merge_pair(tokens, pair):\n    return decoders"),)
    assert policy_parts.refused_parts({}, kind="modules", module_cells=(("bpe", reached),)) != ()


def _notebook(cells: list[str]) -> str:
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    return nbformat.writes(notebook)


@pytest.mark.unit
def test_a_course_file_can_widen_the_modules(tmp_path: Path):
    (tmp_path / "course.toml").write_text('[policy]\nallow_modules = ["numpy"]\n', encoding="utf-8")
    course = course_file.read(tmp_path / "course.toml")
    limits = course.limits_with({})
    assert limits.hand_in.allow_modules == frozenset({"numpy"})
    (tmp_path / "bpe.py").write_text("import numpy\nimport pickle\n", encoding="utf-8")
    said = refusal_lines(loading.load(tmp_path / "bpe.py", limits.hand_in))
    assert len(said) == 1 and "pickle" in said[0]


@pytest.mark.unit
def test_the_policy_page_lists_what_the_code_holds():
    """docs/security/policy.md names every module, attribute and builtin of hand_in/policy.py, and no other."""
    page = POLICY_PAGE.read_text(encoding="utf-8")

    def listed(heading: str) -> set[str]:
        section = page.split(f"<!-- {heading} -->", 1)[1].split("<!-- end -->", 1)[0]
        return set(re.findall(r"`([^`]+)`", section))

    assert listed("modules") == set(policy.ALLOWED_MODULES)
    for module, names in policy.ALLOWED_ATTRIBUTES.items():
        assert listed(f"attributes of {module}") == set(names), module
    assert listed("refused builtins") == set(policy.REFUSED_BUILTINS) | set(policy.NAMED_ATTRIBUTE_BUILTINS)
    assert listed("refused dunders") == set(policy.REFUSED_DUNDERS)
    assert listed("notebook modules") == set(policy.NOTEBOOK_MODULES)
    assert listed("stand-in modules") == set(policy.STAND_IN_MODULES)
    assert listed("refused module attributes") == {
        f"{module}.{name}" for module, names in policy.REFUSED_MODULE_ATTRIBUTES.items() for name in names
    }


@pytest.mark.unit
def test_the_worker_stands_in_for_every_notebook_helper_the_policy_allows():
    """A notebook exported as a module keeps its imports of the kit's helpers; the worker, which cannot import
    the kit, must answer each of them, or the hand-in prints a ModuleNotFoundError for every cell that does."""
    tree = ast.parse((KIT_ROOT / "autograder" / "cage" / "inside" / "bootstrap.py").read_text(encoding="utf-8"))
    named = next(
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(getattr(target, "id", "") == "NOTEBOOK_HELPERS" for target in node.targets)
    )
    assert set(ast.literal_eval(named)) == set(policy.NOTEBOOK_HELPERS) >= {"jupyter", "token_view", "training_cost"}


@pytest.mark.unit
def test_no_dunder_the_policy_refuses_to_read_is_readable():
    assert [name for name in policy.REFUSED_DUNDERS if readable_dunder(name)] == []


FAST = ("--limit", "call_seconds=2", "--limit", "test_seconds=10", "--limit", "submission_seconds=120")


@pytest.mark.attack
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_an_attack_past_plain_python_earns_nothing_for_its_part_and_says_why(name: str, tmp_path: Path):
    """Graded through the real CLI: the part the attack is in scores 0, every test of it refused with the
    line of the construct; the worker never ran it."""
    target = TARGET[name]
    hand_in = write_attack(tmp_path / "hand_in", name)
    process, document = grade(hand_in, "--no-cache", "--part", target, *FAST)
    assert process.returncode in (0, 1), process.stderr[-2000:]
    scores = function_scores(document)
    assert scores and all(score == 0 for score, _ in scores.values()), scores
    said = [test["output"] for test in document["tests"]]
    assert all("outside the plain-Python policy" in output for output in said), said[0][:2000]
    assert all(re.search(rf"{target}\.py, line \d+: `", output) for output in said), said[0][:2000]


def test_a_refused_hand_in_costs_only_its_part_and_its_classmates_grade_as_usual(tmp_path: Path):
    """A batch: one hand-in whose Part 1 runs a classmate's file through importlib, beside two honest ones."""
    submissions = tmp_path / "class"
    write_attack(submissions / "cheat", "importlib with a name built from pieces")
    for student in ("ada", "bo"):
        shutil.copytree(SOLUTIONS, submissions / student, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path / "out"
    process = run_batch(submissions, out, "--part", "simple_tokenizers", "--part", "bpe", "--jobs", "1", *FAST)
    assert process.returncode == 0, process.stderr[-2000:]
    rows = gradebook_rows(out)
    assert rows["ada"]["total"] == rows["bo"]["total"] and float(rows["ada"]["total"]) > 0
    cheat_part_2 = float(rows["cheat"]["total"])
    assert 0 < cheat_part_2 < float(rows["ada"]["total"])  # Part 2 graded as usual, Part 1 nothing
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "| cheat |" in summary.split("## Code built at run time")[1].split("\n## ")[0]
