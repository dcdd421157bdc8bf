"""Every mistake of the bug corpus differs from the reference on its written input (corpus_witnesses).

Both calls run here, in this process: the corpus is the kit's own code, as trusted as the reference. Each
side gets a module of its own, built as corpus_grading builds a hand-in (the reference's text with the
entry's source after it), so a mistake that keeps state starts from none.
"""

from __future__ import annotations

import copy
import inspect
import re
import sys
import tracemalloc
import types
from collections.abc import Callable, Iterator
from functools import cache
from itertools import count, islice
from pathlib import Path
from typing import Any

import pytest
from bug_corpus import BUGS
from corpus_grading import hand_in_text
from corpus_witnesses import FOLDER, PEAK_MEMORY, TIMED, WITNESSES, Costs, Differs, Named

from autograder.kit_root import KIT_ROOT

# Far more steps (traced calls and lines) than any witness takes on the reference: a mistake that loops
# forever is stopped here and counts as unfinished, and a broken witness fails instead of hanging the run.
STEPS = 200_000
SHOWS = ("answer", "exception", "message", "arguments", "files", "unfinished")

_built = count()


class _OutOfSteps(BaseException):  # not an Exception: the mistake's own except clauses must not swallow it
    pass


@cache
def compiled(module: str, source: str) -> types.CodeType:
    return compile(hand_in_text(module, source), f"{module}.py", "exec")


def module_of(module: str, source: str = "") -> types.ModuleType:
    """A fresh module: the reference of ``module``, with ``source`` (a corpus entry) run over it."""
    name = f"corpus_witness_{module}_{next(_built)}"
    built = types.ModuleType(name)
    built.__file__ = f"{module}.py"
    sys.modules[name] = built  # dataclasses look their module up there
    try:
        exec(compiled(module, source), built.__dict__)
    finally:
        del sys.modules[name]
    return built


def within_steps(call: Callable[[], Any]) -> Any:
    steps = 0

    def trace(frame: Any, event: str, arg: Any) -> Any:
        nonlocal steps
        steps += 1
        if steps > STEPS:
            raise _OutOfSteps
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        return call()
    finally:
        sys.settrace(previous)


def placed(module: types.ModuleType, arguments: dict[str, Any], folder: Path) -> dict[str, Any]:
    """The witness's arguments as the call takes them: FOLDER made ``folder``, Named made the constant."""
    made = {}
    for key, value in arguments.items():
        if isinstance(value, Named):
            value = getattr(module, value.name)
        elif isinstance(value, str) and value.startswith(FOLDER):
            value = str(folder) + value[len(FOLDER) :]
        made[key] = copy.deepcopy(value)
    return made


def quoted(message: str) -> set[str]:
    """The values a message names, each as its repr shows it ('<|end|>'): what it says, not its words."""
    return set(re.findall(r"'(?:[^'\\]|\\.)*'", message))


def outcome(module: types.ModuleType, function: str, witness: Differs, folder: Path) -> dict[str, Any]:
    """What the call gives: its answer or the type of what it raised, its arguments after it, its folder's files."""
    if witness.files is not None:
        folder.mkdir(parents=True)
        for name, content in witness.files.items():
            (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    for earlier in witness.before:
        getattr(module, function)(**placed(module, earlier, folder))
    arguments = placed(module, witness.arguments, folder)
    given, read = dict(arguments), [0]
    if witness.fed:
        given[witness.fed] = fed(arguments[witness.fed], witness.endless, read)
    message: set[str] = set()
    try:
        answer = within_steps(lambda: items(getattr(module, function)(**given), witness, read))
        # A dict's order too: a rule may say how the answer lists its entries (add_tokens: vocab's first).
        gave: tuple[Any, ...] = ("answer", answer, list(answer.items()) if isinstance(answer, dict) else None)
    except _OutOfSteps:
        gave = ("unfinished",)
    except Exception as error:  # the mistake's own exception is part of what it gives
        gave = ("exception", type(error))
        message = quoted(str(error))  # a rule may say what the message names (encode_checked's refused token)
    files = {}
    if folder.exists():
        files = {str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*") if path.is_file()}
    after = {
        key: value
        for key, value in arguments.items()
        if not str(witness.arguments[key]).startswith(FOLDER) and key != witness.fed
    }
    return {"gave": gave, "message": message, "arguments": after, "files": files}


def fed(pieces: list[Any], endless: bool, read: list[int]) -> Iterator[Any]:
    """The pieces one at a time, counted in ``read`` (repeated without end where ``endless``)."""
    while True:
        for piece in pieces:
            read[0] += 1
            yield piece
        if not endless or not pieces:
            return


def items(answer: Any, witness: Differs, read: list[int]) -> Any:
    """The answer, or where it is an iterator its first ``take`` items (all where None), each with how many
    pieces had been read when it came where an argument is fed: two generators never compare equal."""
    if not isinstance(answer, Iterator):
        return answer
    taken = []
    for item in islice(answer, witness.take):
        taken.append((item, read[0]) if witness.fed else item)
    return taken


def differences(mistake: dict[str, Any], reference: dict[str, Any]) -> set[str]:
    found = {key for key in ("arguments", "files") if mistake[key] != reference[key]}
    if mistake["gave"] == reference["gave"] and mistake["message"] != reference["message"]:
        found.add("message")  # the same type raised, naming other values
    if mistake["gave"] != reference["gave"]:
        kinds = {mistake["gave"][0], reference["gave"][0]}
        found.add("unfinished" if "unfinished" in kinds else "exception" if "exception" in kinds else "answer")
    return found


@pytest.mark.unit
def test_every_mistake_of_the_corpus_has_a_witness():
    assert sorted(set(BUGS) - set(WITNESSES)) == [], "add their inputs to corpus_witnesses.WITNESSES"
    assert sorted(set(WITNESSES) - set(BUGS)) == [], "these witnesses name no entry of bug_corpus.BUGS"


@pytest.mark.unit
@pytest.mark.parametrize("name", sorted(WITNESSES))
def test_every_witness_has_the_arguments_its_function_takes(name, tmp_path):
    module, function, _ = BUGS[name]
    reference = module_of(module)
    witness = WITNESSES[name]
    signature = inspect.signature(getattr(reference, function))
    calls = [witness.arguments, *(witness.before if isinstance(witness, Differs) else ())]
    for arguments in calls:
        signature.bind(**placed(reference, arguments, tmp_path))  # raises TypeError on a missing or unknown one


DIFFERING = sorted(name for name, witness in WITNESSES.items() if isinstance(witness, Differs))
COSTLY = sorted(name for name, witness in WITNESSES.items() if isinstance(witness, Costs))


@pytest.mark.unit
@pytest.mark.parametrize("name", DIFFERING)
def test_on_its_witness_a_mistake_differs_from_the_reference(name, tmp_path):
    module, function, source = BUGS[name]
    witness = WITNESSES[name]
    assert isinstance(witness, Differs) and witness.shows in SHOWS
    mistake = outcome(module_of(module, source), function, witness, tmp_path / "mistake")
    reference = outcome(module_of(module), function, witness, tmp_path / "reference")
    assert reference["gave"][0] != "unfinished", "the witness must be one the reference finishes"
    found = differences(mistake, reference)
    assert witness.shows in found, f"{name}: they differ in {sorted(found) or 'nothing'}, not in {witness.shows}"


def counted_calls(module: types.ModuleType, helper: str) -> list[int]:
    """Counts each call of the module's ``helper``, as the module's own functions look it up."""
    calls = [0]
    inner = getattr(module, helper)

    def counting(*arguments: Any, **keywords: Any) -> Any:
        calls[0] += 1
        return inner(*arguments, **keywords)

    setattr(module, helper, counting)
    return calls


def cost(module: types.ModuleType, function: str, witness: Costs) -> tuple[Any, float]:
    """The call's answer and what it cost: the helper's calls, or the peak memory it allocated."""
    arguments = copy.deepcopy(witness.arguments)
    if witness.counted == PEAK_MEMORY:
        tracemalloc.start()
        try:
            answer = getattr(module, function)(**arguments)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        return answer, peak
    calls = counted_calls(module, witness.counted)
    return getattr(module, function)(**arguments), calls[0]


@pytest.mark.unit
@pytest.mark.parametrize("name", COSTLY)
def test_a_costly_mistake_gives_the_references_answer_at_a_cost_on_its_witness(name):
    module, function, source = BUGS[name]
    witness = WITNESSES[name]
    assert isinstance(witness, Costs)
    if witness.counted == TIMED:
        # Only its time differs, which a unit test does not measure: the graded test named times it.
        path, _, test = witness.timed_by.partition("::")
        assert f"def {test}(" in (KIT_ROOT / path).read_text(encoding="utf-8"), witness.timed_by
        mistake, reference = (
            getattr(each, function)(**copy.deepcopy(witness.arguments))
            for each in (module_of(module, source), module_of(module))
        )
        assert mistake == reference
        return
    mistake_answer, mistake_cost = cost(module_of(module, source), function, witness)
    reference_answer, reference_cost = cost(module_of(module), function, witness)
    assert mistake_answer == reference_answer, f"{name} answers otherwise: a Differs witness, not a Costs one"
    assert reference_cost > 0, f"the reference never calls {witness.counted}: nothing is compared"
    assert mistake_cost >= witness.at_least * reference_cost, (
        f"{name}: {mistake_cost} against the reference's {reference_cost}, less than {witness.at_least} times"
    )


@pytest.mark.unit
def test_every_rule_is_the_fix_of_a_corpus_mistake_or_says_why_none_can_break_it():
    from bug_corpus import RECORDS, UNNEGATABLE

    from autograder.testing.rules import CONTRACTS

    every = {f"{contract.module}.{contract.function}.{rule.id}" for contract in CONTRACTS for rule in contract.rules}
    fixed = {record.fix for record in RECORDS.values()}
    assert sorted(every - fixed - set(UNNEGATABLE)) == [], "negate these rules in the bug corpus, or list them"
    assert sorted(set(UNNEGATABLE) - every) == [], "UNNEGATABLE names rules the contracts do not have"
    assert sorted(set(UNNEGATABLE) & fixed) == [], "a mistake negates these: they are not unnegatable"
