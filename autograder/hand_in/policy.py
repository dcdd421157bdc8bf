"""The plain-Python policy, written once as data: what a hand-in's code may import and reach.

The trusted grader holds every file and notebook cell the worker would run to these lists before any of
it runs (``policy_check`` reads the code, ``policy_parts`` says which part each refusal costs). The docs
page ``docs/security/policy.md`` shows these very lists, and a kit test fails when the two disagree.

What the lists are for: the exercises are computation over strings, lists and dicts, with files and
paths for Part 6. Everything else a module could reach (the interpreter's frames, code objects and
import machinery, other processes) is outside the exercise, and is how a hand-in could run code that is
not its source or change what the worker reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# The page that shows these lists, at this path in the kit and in the student release (which copies it), so a
# refusal can name it.
POLICY_PAGE = "docs/security/policy.md"

# The standard library's computation modules, by their full dotted name; ``regex`` from PyPI.
ALLOWED_MODULES = frozenset(
    {
        "__future__",
        "abc",
        "array",
        "base64",
        "bisect",
        "collections",
        "collections.abc",
        "contextlib",
        "copy",
        "dataclasses",
        "doctest",
        "enum",
        "functools",
        "heapq",
        "io",
        "itertools",
        "json",
        "logging",
        "math",
        "operator",
        "os",
        "os.path",
        "pathlib",
        "random",
        "re",
        "regex",
        "statistics",
        "string",
        "struct",
        "sys",
        "tempfile",
        "textwrap",
        "time",
        "typing",
        "unicodedata",
        "warnings",
    }
)
# Modules of which only these names may be used: the rest of them runs or inspects processes and the
# interpreter (os.system, sys.modules, sys._getframe, doctest.run_docstring_examples of built text).
ALLOWED_ATTRIBUTES: dict[str, frozenset[str]] = {
    "os": frozenset({"makedirs", "path", "fspath", "PathLike", "replace", "listdir", "remove", "sep", "linesep"}),
    # byteorder: a plain fact, which array-based code needs to write little-endian ids (Part 6's write_ids).
    "sys": frozenset(
        {"setrecursionlimit", "getrecursionlimit", "stdout", "stderr", "maxsize", "getsizeof", "byteorder"}
    ),
    "doctest": frozenset({"testmod", "ELLIPSIS", "NORMALIZE_WHITESPACE"}),
}
# In a notebook, what a cell may import in code no graded function reaches (a plot, a comparison with a
# real tokenizer, the kit's own helpers): the grader never calls it.
# tracemalloc is there for an exploration that measures a training's memory, which the grader measures
# itself, from outside the process.
NOTEBOOK_MODULES = frozenset(
    {"matplotlib", "numpy", "pandas", "tokenizers", "tiktoken", "IPython", "autograder", "tracemalloc"}
)

# Names of allowed modules that are refused all the same: each hands out what the rest of the policy keeps
# out of reach (text evaluated as code, an attribute read by a name computed at run time, a frame).
REFUSED_MODULE_ATTRIBUTES: dict[str, frozenset[str]] = {
    # A forward reference evaluates any text it is given (an annotation written as a string is checked
    # here as code, so typing.get_type_hints may evaluate those).
    "typing": frozenset({"ForwardRef", "evaluate_forward_ref"}),
    "string": frozenset({"Formatter"}),  # Formatter().get_field reads attributes by a computed name
    "logging": frozenset({"currentframe"}),  # a frame
}
# The kit's notebook helpers, which the worker stands in for with modules whose every name does nothing
# (bootstrap's stand-ins): a notebook exported as a module keeps its check cells, from this release's
# package or an older one's. Allowed in every file.
# Every module of autograder/notebook/ (bootstrap's NOTEBOOK_HELPERS names the same; a kit test checks both).
NOTEBOOK_HELPERS = frozenset(
    path.stem for path in (Path(__file__).parents[1] / "notebook").glob("*.py") if path.stem != "__init__"
)
STAND_IN_MODULES = frozenset(
    f"autograder.{folder}.{name}" for folder in ("notebook", "course") for name in NOTEBOOK_HELPERS
)
# Builtins that run text as code, or hand out the interpreter's namespaces: refused wherever they are named.
# ``locals()`` is among them: at a module's top level it is the module's globals, ``__builtins__`` included.
REFUSED_BUILTINS: dict[str, str] = {
    "exec": "it runs text as code",
    "eval": "it runs text as code",
    "compile": "it turns text into code",
    "__import__": "it imports a module by a name computed at run time",
    "globals": "it hands out the module's namespace, the interpreter's builtins with it",
    "locals": "at a module's top level it is the module's namespace, the interpreter's builtins with it",
    "vars": "it hands out an object's or a module's namespace",
    "breakpoint": "it starts a debugger, which can run any code",
}
# Builtins whose second argument is an attribute's name: allowed only with a literal name, which is then
# held to the attribute rules below as if it were written ``obj.name``.
NAMED_ATTRIBUTE_BUILTINS = frozenset({"getattr", "setattr", "delattr"})
# operator's helpers that read attributes or call methods by name: the same, for every string argument.
NAMED_ATTRIBUTE_HELPERS = frozenset({"attrgetter", "methodcaller"})

# The special method names of the language reference (and the standard library's protocols a class may
# take part in): any of them may be defined in a class body, and read where it is a data-model method.
SPECIAL_METHODS = frozenset(
    {
        "__new__", "__init__", "__del__", "__repr__", "__str__", "__bytes__", "__format__",
        "__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__", "__hash__", "__bool__",
        "__getattr__", "__setattr__", "__delattr__", "__dir__", "__get__", "__set__", "__delete__",
        "__set_name__", "__init_subclass__", "__class_getitem__", "__call__", "__len__", "__length_hint__",
        "__getitem__", "__setitem__", "__delitem__", "__missing__", "__iter__", "__reversed__", "__contains__",
        "__add__", "__sub__", "__mul__", "__matmul__", "__truediv__", "__floordiv__", "__mod__", "__divmod__",
        "__pow__", "__lshift__", "__rshift__", "__and__", "__xor__", "__or__",
        "__radd__", "__rsub__", "__rmul__", "__rmatmul__", "__rtruediv__", "__rfloordiv__", "__rmod__",
        "__rdivmod__", "__rpow__", "__rlshift__", "__rrshift__", "__rand__", "__rxor__", "__ror__",
        "__iadd__", "__isub__", "__imul__", "__imatmul__", "__itruediv__", "__ifloordiv__", "__imod__",
        "__ipow__", "__ilshift__", "__irshift__", "__iand__", "__ixor__", "__ior__",
        "__neg__", "__pos__", "__abs__", "__invert__", "__complex__", "__int__", "__float__", "__index__",
        "__round__", "__trunc__", "__floor__", "__ceil__", "__enter__", "__exit__",
        "__await__", "__aiter__", "__anext__", "__aenter__", "__aexit__", "__buffer__", "__release_buffer__",
        "__instancecheck__", "__subclasscheck__", "__subclasshook__", "__mro_entries__", "__prepare__",
        "__fspath__", "__sizeof__", "__copy__", "__deepcopy__", "__post_init__",
        "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__", "__getnewargs__", "__getnewargs_ex__",
    }
)  # fmt: skip
# Special methods that may be defined but never read: reading them reaches the interpreter (a class's
# attribute lookup itself, pickle's recipe of an object, which names a callable and its arguments).
UNREADABLE_METHODS = frozenset(
    {"__getattribute__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__", "__getnewargs__",
     "__getnewargs_ex__", "__subclasshook__", "__prepare__", "__mro_entries__"}
)  # fmt: skip
# Other dunder names a hand-in may read: plain facts about its own objects.
READABLE_DUNDERS = frozenset(
    {"__name__", "__qualname__", "__doc__", "__module__", "__file__", "__slots__", "__match_args__",
     "__members__", "__all__", "__version__", "__debug__", "__dataclass_fields__"}
)  # fmt: skip
# What decisions.md names as refused to read anywhere (every dunder outside the two lists above is too):
# kept as data so that the docs page and its test can say so by name.
REFUSED_DUNDERS = frozenset(
    {"__class__", "__dict__", "__globals__", "__code__", "__subclasses__", "__builtins__", "__mro__",
     "__closure__", "__self__", "__func__", "__loader__", "__spec__", "__getattribute__", "__traceback__",
     "__defaults__", "__kwdefaults__", "__annotations__", "__wrapped__", "__bases__", "__base__",
     "__import__", "__reduce__", "__reduce_ex__", "__weakref__", "__context__", "__cause__", "__objclass__"}
)  # fmt: skip
# Dunder names a module's top level may bind (everything else, ``__name__`` above all, would change what
# the interpreter or the grader believes of the module); a class body may bind any special method too.
BINDABLE_DUNDERS = frozenset({"__all__", "__version__", "__author__"})
CLASS_BINDABLE_DUNDERS = SPECIAL_METHODS | {"__slots__", "__match_args__", "__doc__"}
# Dunder attributes a hand-in may set on its own objects (a hand-written decorator's wrapper).
SETTABLE_DUNDERS = frozenset({"__doc__", "__name__", "__qualname__"})
# The attributes of frames, tracebacks, generators, coroutines and code objects: from any of them, code
# reaches the worker's own frames and globals (``e.__traceback__.tb_frame.f_back.f_globals``).
INTERPRETER_ATTRIBUTES = frozenset(
    {"tb_frame", "tb_next", "tb_lasti", "tb_lineno",
     "f_back", "f_globals", "f_locals", "f_builtins", "f_code", "f_trace", "f_trace_lines", "f_trace_opcodes",
     "f_lasti", "gi_frame", "gi_code", "gi_yieldfrom", "cr_frame", "cr_code", "cr_await", "cr_origin",
     "ag_frame", "ag_code", "ag_await", "co_code", "co_consts", "co_names", "co_varnames", "co_cellvars",
     "co_freevars", "co_filename", "co_lines", "co_positions", "co_qualname", "co_exceptiontable",
     "co_linetable", "co_lnotab", "co_flags", "co_stacksize", "co_nlocals", "co_argcount",
     "ctypes", "ctypeslib", "pythonapi"}
)  # fmt: skip
# The source encodings a file may declare (PEP 263), normalised as Python's tokenizer reads them: any
# other lets a registered codec turn the file's text into other code than the one read here.
UTF8_CODINGS = frozenset({"utf-8", "utf8", "utf-8-sig"})


@dataclass(frozen=True)
class Refusal:
    """One construct outside the policy: where it is, what it is, why it is refused, what to write instead."""

    file: str  # as the hand-in names it: bpe.py, bpe.ipynb cell 3 (def ...)
    line: int
    construct: str  # the code, cut short (the student's own text)
    why: str
    instead: str

    def line_text(self) -> str:
        """The one line a student reads."""
        return f"{self.file}, line {self.line}: `{self.construct}`: {self.why}; {self.instead}"

    def summary(self) -> str:
        """The same in the kit's words alone (no code of the student's): for feedback that shows none."""
        return f"{self.file}, line {self.line}: {self.why}; {self.instead}"
