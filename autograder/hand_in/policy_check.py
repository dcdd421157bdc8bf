"""Hold one source (a file, or a notebook's cell as the worker runs it) to the plain-Python policy.

The check reads the syntax tree in the trusted grader; nothing of the hand-in runs. It is one walk over
the tree, with what the walk needs to know beforehand: which names are bound to modules (imports), and,
in a function, which names are its own locals (a parameter called ``string`` is not the module).

>>> [refusal.why for refusal in check_source("import pickle", Source("bpe.py"))]
['pickle is not a module the exercises use']
"""

from __future__ import annotations

import ast
import doctest
import importlib
import re
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from autograder.hand_in import policy
from autograder.hand_in.policy import Refusal

# PEP 263: the tokenizer reads a coding declaration on either of the first two lines.
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
# Python's tokenizer reads a source no longer than this for the policy too (student_syntax's limit).
MOST_CHARACTERS = 1_000_000
_CUT = 60  # characters of the construct quoted in a refusal
# What to write instead of the dunders honest code reaches for most.
_INSTEAD = {
    "__class__": "write type(obj) instead (type(self).__name__ in a __repr__)",
    "__dict__": "name the attributes, or use dataclasses.asdict for a dataclass",
    "__annotations__": "name the fields, or use dataclasses.fields for a dataclass",
    "__wrapped__": "keep a reference to the function you wrapped",
}


@dataclass(frozen=True)
class Source:
    """Where a source comes from and what it may import, for the checks of one file or cell."""

    label: str  # as a student reads it: bpe.py, or bpe.ipynb cell 3 (def merge...)
    own_modules: frozenset[str] = frozenset()  # top-level names of the hand-in's own modules
    allow_modules: frozenset[str] = frozenset()  # what the course file adds
    # A notebook's cell: the top-level definitions no graded function reaches, by name, which may use the
    # notebook's own modules (policy.NOTEBOOK_MODULES).
    unreached: frozenset[str] = frozenset()
    # The names the graded functions (and the definitions they use) read: a notebook module bound to none
    # of them is an exploration's, which no graded call reaches.
    reached_uses: frozenset[str] = frozenset()
    notebook: bool = False


@dataclass
class Checked:
    """What a check found: the refusals, and the hand-in's own modules the source imports (dotted)."""

    refusals: list[Refusal] = field(default_factory=list)
    imports: set[str] = field(default_factory=set)


def check_file(content: bytes, source: Source) -> Checked:
    """A file as the worker's import compiles it: its bytes, declared coding included."""
    for line in content.split(b"\n", 2)[:2]:
        declared = _CODING.match(line)
        if declared is not None and declared.group(1).decode("ascii", "replace").lower().replace("_", "-") not in (
            policy.UTF8_CODINGS
        ):
            name = declared.group(1).decode("ascii", "replace")
            return Checked(
                [
                    Refusal(
                        source.label,
                        content.count(b"\n", 0, content.find(line)) + 1,
                        _cut(line.decode("utf-8", "replace")),
                        f"the file declares the coding {name}, and its text could then run as other code than "
                        "the one read",
                        "save the file as UTF-8 and delete the coding line",
                    )
                ]
            )
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return Checked([Refusal(source.label, 1, "", f"byte {error.start} is not UTF-8", "save the file as UTF-8")])
    return check_source(text, source)


def check_source(text: str, source: Source) -> Checked:
    """``text``'s refusals under the policy, and the own modules it imports. A text Python cannot parse
    runs nowhere (the worker's compile fails the same way): it is left to the worker to say so."""
    if len(text) > MOST_CHARACTERS:
        return Checked(
            [Refusal(source.label, 1, "", "it is too long for the grader to check", "hand in a shorter file")]
        )
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return Checked()
    except (RecursionError, MemoryError):
        return Checked([Refusal(source.label, 1, "", "it nests too deep for the grader to check", "write it flatter")])
    walk = _Walk(source, text)
    walk.check(tree)
    return Checked(walk.refusals, walk.imports)


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def readable_dunder(name: str) -> bool:
    """Whether a dunder may be read: a data-model method that reads nothing of the interpreter, or a fact."""
    special = name in policy.SPECIAL_METHODS and name not in policy.UNREADABLE_METHODS
    return special or name in policy.READABLE_DUNDERS


@cache
def _module(name: str) -> types.ModuleType | None:
    """The standard library's (or an allowed package's) module ``name``, imported in the grader: trusted code,
    read to learn which of its attributes are modules. None where it cannot be imported here."""
    try:
        return importlib.import_module(name)
    except Exception:  # an allowed module missing on this machine: its attributes are plain names then
        return None


@cache
def _module_attribute(module: str, name: str) -> str | None:
    """The module that ``module.name`` is, by its dotted name as written where that is allowed, else its own
    name (``typing.sys`` is sys); None when it is not a module."""
    dotted = f"{module}.{name}"
    found = _module(module)
    inner = getattr(found, name, None) if found is not None else None
    if isinstance(inner, types.ModuleType):
        return dotted if dotted in policy.ALLOWED_MODULES else inner.__name__
    return None


class _Walk(ast.NodeVisitor):
    """One walk over a source's tree, collecting refusals."""

    def __init__(self, source: Source, text: str) -> None:
        self.source = source
        self.lines = text.splitlines()
        self.refusals: list[Refusal] = []
        self.imports: set[str] = set()
        self.module_names: dict[str, str] = {}  # a name bound by an import at any level: the module's name
        self.locals: list[frozenset[str]] = []  # the functions' own names, innermost last
        self.in_class = 0  # depth of class bodies directly around (a method's body is not one)
        self.unreached = 0  # inside a notebook's definition no graded function reaches
        self.spared: set[int] = set()  # nodes an enclosing check already judged (a literal getattr's name)
        self.quoted = 0  # inside an annotation written as a string: its nodes' columns are the string's

    # -- the walk ---------------------------------------------------------
    def check(self, tree: ast.Module) -> None:
        self._bind_imports(tree)
        for statement in tree.body:
            reached = not self._is_unreached(statement)
            self.unreached += not reached
            self.visit(statement)
            self.unreached -= not reached
        if "doctest" in self.module_names.values() or _imports_from_doctest(tree):
            self._doctests(tree)

    def _bind_imports(self, tree: ast.Module) -> None:
        """Note every name an import binds to a module, wherever it is: the walk judges their use."""
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self.module_names[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0]
                    )
            elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
                for alias in node.names:
                    inner = self._submodule(node.module, alias.name)
                    if inner is not None:
                        self.module_names[alias.asname or alias.name] = inner
            elif isinstance(node, ast.ImportFrom) and node.level > 0:
                for alias in node.names:
                    if node.module is None:  # from . import helpers: a module of the hand-in's own
                        self.module_names[alias.asname or alias.name] = alias.name

    def _doctests(self, tree: ast.Module) -> None:
        """doctest.testmod runs the examples in the file's docstrings: they are code, checked as code."""
        parser = doctest.DocTestParser()
        for node in [tree, *ast.walk(tree)]:
            if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            first = node.body[0] if node.body else None
            if not (isinstance(first, ast.Expr) and _is_text(first.value)):
                continue
            try:
                examples = parser.get_examples(str(first.value.value))  # type: ignore[attr-defined]
            except ValueError:
                continue  # not examples doctest can read: it runs none of them
            for example in examples:
                try:
                    code = ast.parse(example.source)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    continue
                ast.increment_lineno(code, first.lineno + example.lineno - 1)
                self._bind_imports(code)
                self.quoted += 1
                for statement in code.body:
                    self.visit(statement)
                self.quoted -= 1

    def _is_unreached(self, statement: ast.stmt) -> bool:
        definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        return isinstance(statement, definition) and statement.name in self.source.unreached

    def _submodule(self, module: str, name: str) -> str | None:
        """The module ``from module import name`` binds, or None where it binds a plain name."""
        if module.split(".")[0] in self.source.own_modules:
            return None  # checked as that module's own file
        if self._allowed(module):
            return _module_attribute(module, name)
        return None

    def _allowed(self, module: str) -> bool:
        allowed = policy.ALLOWED_MODULES | self.source.allow_modules
        return module in allowed or any(module.startswith(f"{name}.") for name in self.source.allow_modules)

    def refuse(self, node: ast.AST, why: str, instead: str) -> None:
        line = getattr(node, "lineno", 1)
        segment = isinstance(node, ast.expr | ast.stmt) and not self.quoted
        code = ast.get_source_segment("\n".join(self.lines), node) if segment else None
        text = (code or (self.lines[line - 1] if 0 < line <= len(self.lines) else "")).strip()
        if any(said.line == line and said.construct.startswith(_cut(text)) for said in self.refusals):
            return  # a part of a construct already refused (e.tb_frame of e.tb_frame.f_back): one line for it
        self.refusals.append(Refusal(self.source.label, line, _cut(text), why, instead))

    # -- imports ----------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._import(node, alias.name, [alias.asname or alias.name.split(".")[0]])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level > 0:  # the hand-in's own package: its files are checked as they are
            own = node.module or ""
            for alias in node.names if not own else [ast.alias(name=own)]:
                self.imports.add(alias.name)
            return
        module = node.module or ""
        if not self._import(node, module, [alias.asname or alias.name for alias in node.names]):
            return
        if module.split(".")[0] in self.source.own_modules:
            return
        if not self._allowed(module):
            return  # a stand-in, or a notebook's exploration: whatever it names is not the exercises' code
        listed = policy.ALLOWED_ATTRIBUTES.get(module)
        for alias in node.names:
            if alias.name == "*":
                if listed is not None:
                    self.refuse(node, f"only some of {module}'s names may be used", f"import {module} and name each")
                continue
            if self._module_name(node, module, alias.name, importing=True):
                inner = _module_attribute(module, alias.name)
                if inner is not None and not self._allowed(inner):
                    self.refuse(node, f"{inner} is not a module the exercises use", "write it with the listed modules")

    def _import(self, node: ast.stmt, module: str, bound: list[str]) -> bool:
        """Whether ``module`` may be imported (refused here where not); notes the hand-in's own."""
        top = module.split(".")[0]
        if top in self.source.own_modules:
            self.imports.add(module)
            return True
        if self._allowed(module):
            return True
        if module in policy.STAND_IN_MODULES:
            return True
        if top in policy.NOTEBOOK_MODULES and all(self._exploration(name) for name in bound):
            return True
        self.refuse(
            node,
            f"{module} is not a module the exercises use",
            f"write it with the modules the policy lists ({policy.POLICY_PAGE})",
        )
        return False

    # -- scopes -----------------------------------------------------------
    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        arguments = node.args
        names = {arg.arg for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
        names |= {arg.arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None}
        body = node.body if isinstance(node.body, list) else [node.body]
        declared: set[str] = set()
        for statement in body:
            for inner in _own_scope(statement):
                if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                    names.add(inner.id)
                elif isinstance(inner, ast.Global | ast.Nonlocal):
                    declared.update(inner.names)
                elif isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(inner.name)
        # Defaults and decorators run where the function is defined: outside its scope.
        for outside in [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]:
            self.visit(outside)
        if not isinstance(node, ast.Lambda):
            for decorator in node.decorator_list:
                self.visit(decorator)
            if node.returns is not None:
                self._annotation(node.returns)
            for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg]:
                if arg is not None:
                    self.visit_arg(arg)
        self.locals.append(frozenset(names - declared))
        classes, self.in_class = self.in_class, 0
        for statement in body:
            self.visit(statement)
        self.in_class = classes
        self.locals.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._bound_name(node, node.name)
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._bound_name(node, node.name)
        self._function(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._function(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._bound_name(node, node.name)
        for outside in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(outside)
        self.in_class += 1
        for statement in node.body:
            self.visit(statement)
        self.in_class -= 1

    def _local(self, name: str) -> bool:
        return any(name in scope for scope in self.locals)

    def _bound_name(self, node: ast.AST, name: str) -> None:
        """A name the code binds: a dunder only where the policy lets it (``__name__`` never)."""
        if not is_dunder(name) or (self.locals and not self.in_class):
            return  # a function's own local is its own
        allowed = policy.CLASS_BINDABLE_DUNDERS if self.in_class else policy.BINDABLE_DUNDERS
        if name not in allowed:
            self.refuse(node, f"binding {name} changes what the interpreter believes", "give it another name")

    # -- names ------------------------------------------------------------
    def visit_Name(self, node: ast.Name) -> None:
        name = node.id
        if isinstance(node.ctx, ast.Store | ast.Del):
            self._bound_name(node, name)
            return
        if id(node) in self.spared or self._local(name):
            return
        if name in policy.REFUSED_BUILTINS:
            self.refuse(node, f"{name}() is refused: {policy.REFUSED_BUILTINS[name]}", "write the code itself")
        elif name in policy.NAMED_ATTRIBUTE_BUILTINS:
            self.refuse(node, f"{name} with a name computed at run time is refused", "write the attribute: obj.name")
        elif name in policy.NAMED_ATTRIBUTE_HELPERS:
            self.refuse(node, f"{name} used as a value reads attributes by computed names", "call it with a literal")
        elif is_dunder(name) and not readable_dunder(name):
            self.refuse(node, f"{name} reaches the interpreter's own state", "leave it out")
        elif name in self.module_names and not self._notebook_module(name):
            self.refuse(
                node,
                f"the module {self.module_names[name]} is used as a value (assigned, passed, stored or returned)",
                f"use its functions by name: {name}.function(...)",
            )

    def _notebook_module(self, name: str) -> bool:
        module = self.module_names[name]
        if any(f"{stand_in}.".startswith(f"{module}.") for stand_in in policy.STAND_IN_MODULES):
            return True  # the worker's stand-in, or a package on the way to one: nothing of it runs
        return module.split(".")[0] in policy.NOTEBOOK_MODULES and self._exploration(name)

    def _exploration(self, name: str) -> bool:
        """Whether ``name`` belongs to a notebook's exploration: used inside a definition no graded function
        reaches, or bound to nothing a graded function reads (a plot's ``plt``)."""
        if not self.source.notebook or name == "*":
            return False
        return bool(self.unreached) or name not in self.source.reached_uses

    # A module's name may be tested (``if regex is None``) without being handed anywhere.
    def visit_Compare(self, node: ast.Compare) -> None:
        for operand in [node.left, *node.comparators]:
            self._tested(operand)

    def visit_If(self, node: ast.If) -> None:
        self._tested(node.test)
        for statement in [*node.body, *node.orelse]:
            self.visit(statement)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._tested(node.test)
        self.visit(node.body)
        self.visit(node.orelse)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            self._tested(node.operand)
        else:
            self.visit(node.operand)

    def _tested(self, node: ast.expr) -> None:
        if isinstance(node, ast.Name) and node.id in self.module_names and not self._local(node.id):
            return
        self.visit(node)

    # -- attributes -------------------------------------------------------
    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain, root = _chain(node)
        if isinstance(root, ast.Name) and root.id in self.module_names and not self._local(root.id):
            self._module_chain(node, root.id, chain)
        else:
            self._attribute(node, node.attr, node.ctx)
            self.visit(node.value)

    def _module_chain(self, node: ast.Attribute, root: str, chain: list[ast.Attribute]) -> None:
        """``root.a.b...`` where ``root`` names a module: each name held to that module's lists, and a
        name that is itself a module (``typing.sys``) to that one's."""
        if isinstance(node.ctx, ast.Store | ast.Del):
            self.refuse(node, "assigning another module's attribute changes it for everyone", "keep your own names")
        module: str | None = self.module_names[root]
        if self._notebook_module(root):
            module = None  # a notebook's exploration, which the grader never runs: its own names
        for link in chain:
            name = link.attr
            if module is None:
                self._attribute(link, name, ast.Load())
                continue
            if not self._module_name(link, module, name):
                return
            module = _module_attribute(module, name) if not self._own(module) else None
            if module is not None and not self._allowed(module) and not self._own(module):
                self.refuse(link, f"{module} is not a module the exercises use", "write it with the listed modules")
                return

    def _own(self, module: str) -> bool:
        return module.split(".")[0] in self.source.own_modules

    def _module_name(self, node: ast.AST, module: str, name: str, *, importing: bool = False) -> bool:
        """Whether ``module.name`` (or ``from module import name``) may be used; refused here where not."""
        if self._own(module):  # the hand-in's own module: its private names are the student's own too
            if is_dunder(name):
                self._attribute(node, name, ast.Load())
            return True
        if name in policy.NAMED_ATTRIBUTE_HELPERS and not importing and id(node) not in self.spared:
            self.refuse(node, f"{name} used as a value reads attributes by computed names", "call it with a literal")
            return False
        listed = policy.ALLOWED_ATTRIBUTES.get(module)
        refused = policy.REFUSED_MODULE_ATTRIBUTES.get(module, frozenset())
        if name.startswith("_") and not (is_dunder(name) and readable_dunder(name)):
            self.refuse(node, f"{module}.{name} is private to {module}", "use the module's public names")
        elif listed is not None and name not in listed:
            shown = ", ".join(sorted(listed))
            self.refuse(node, f"of {module}, only {shown} may be used", "write it with those")
        elif name in refused or name in policy.INTERPRETER_ATTRIBUTES:
            self.refuse(
                node, f"{module}.{name} reaches the interpreter (it runs text or hands out frames)", "leave it out"
            )
        else:
            return True
        return False

    def _attribute(self, node: ast.AST, name: str, context: ast.expr_context) -> None:
        """An attribute of anything: no frame, code or traceback internals, and dunders by the lists."""
        if name in policy.INTERPRETER_ATTRIBUTES:
            self.refuse(node, f".{name} reaches the interpreter's frames or code", "leave it out")
        elif is_dunder(name):
            writing = isinstance(context, ast.Store | ast.Del)
            doctests = name == "__doc__" and "doctest" in self.module_names.values()
            if writing and (name not in policy.SETTABLE_DUNDERS or doctests):
                self.refuse(node, f"setting {name} changes how the interpreter runs the object", "leave it out")
            elif not writing and not readable_dunder(name):
                self.refuse(node, f".{name} reaches the interpreter's own state", _INSTEAD.get(name, "leave it out"))

    # -- calls ------------------------------------------------------------
    def visit_Call(self, node: ast.Call) -> None:
        function = node.func
        literal = isinstance(function, ast.Name) and function.id in policy.NAMED_ATTRIBUTE_BUILTINS
        if literal and not self._local(_name_of(function)) and self._literal_name(node, _name_of(function)):
            self.spared.add(id(function))
        named = isinstance(function, ast.Name | ast.Attribute) and _name_of(function) in policy.NAMED_ATTRIBUTE_HELPERS
        if named:
            if all(_is_text(arg) for arg in node.args) and not node.keywords:
                for arg in node.args:
                    for part in str(arg.value).split("."):  # type: ignore[attr-defined]
                        self._attribute(arg, part, ast.Load())
                self.spared.add(id(function))
            else:
                self.refuse(node, f"{_name_of(function)} with a name computed at run time is refused", "name it")
        if isinstance(function, ast.Attribute) and function.attr in ("__setattr__", "__getattr__", "__delattr__"):
            for arg in node.args[:2]:
                if _is_text(arg):
                    self._attribute(arg, str(arg.value), ast.Load())  # type: ignore[attr-defined]
        self.generic_visit(node)

    def _literal_name(self, node: ast.Call, builtin: str) -> bool:
        """Whether ``getattr(obj, "name", ...)`` (or setattr, delattr) names a literal attribute, held to the
        attribute rules as ``obj.name`` would be."""
        if len(node.args) < 2 or not _is_text(node.args[1]) or node.keywords:
            return False
        name = str(node.args[1].value)  # type: ignore[attr-defined]
        target = node.args[0]
        context: ast.expr_context = ast.Load() if builtin == "getattr" else ast.Store()
        if isinstance(target, ast.Name) and target.id in self.module_names and not self._local(target.id):
            return True  # the module passed as a value is refused as such
        self._attribute(node, name, context)
        return True

    # An annotation written as a string is code that typing.get_type_hints evaluates: checked as code.
    def visit_arg(self, node: ast.arg) -> None:
        if node.annotation is not None:
            self._annotation(node.annotation)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._annotation(node.annotation)
        self.visit(node.target)
        if node.value is not None:
            self.visit(node.value)

    def _annotation(self, node: ast.expr) -> None:
        if not _is_text(node):
            self.visit(node)
            return
        try:
            text = str(node.value).strip()  # type: ignore[attr-defined]
            expression = ast.parse(text, mode="eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return  # not an expression: typing cannot evaluate it either
        ast.increment_lineno(expression, node.lineno - 1)
        self.quoted += 1
        self.visit(expression.body if isinstance(expression, ast.Expression) else expression)
        self.quoted -= 1

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        for name in node.kwd_attrs:  # case Point(x=0) reads the attribute x
            self._attribute(node, name, ast.Load())
        self.generic_visit(node)


def _imports_from_doctest(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.ImportFrom) and node.module == "doctest" for node in ast.walk(tree))


def _own_scope(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body in its own scope: not inside a nested function or class body."""
    yield node
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
        return
    for child in ast.iter_child_nodes(node):
        yield from _own_scope(child)


def _chain(node: ast.Attribute) -> tuple[list[ast.Attribute], ast.expr]:
    """``a.b.c``'s links from the root out (``a.b``, then ``a.b.c``), and its root ``a``."""
    links = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        links.append(current)
        current = current.value
    links.reverse()
    return links, current


def _name_of(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _CUT else text[: _CUT - 1] + "…"
