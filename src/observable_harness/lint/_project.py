"""The linted code as a whole: modules, their imports, classes and functions, and how names resolve across them."""

from __future__ import annotations

import ast
import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

__all__ = [
    'ClassInfo',
    'FunctionInfo',
    'FunctionNode',
    'Module',
    'Project',
    'dotted_name',
    'function_imports',
    'member',
]

FunctionNode: TypeAlias = ast.FunctionDef | ast.AsyncFunctionDef


def dotted_name(node: ast.AST) -> str:
    """`a.b.c` for a chain of names and attributes, '' for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted_name(node.value)
        return f'{inner}.{node.attr}' if inner else ''
    return ''


@dataclass(eq=False)
class FunctionInfo:
    module: Module
    node: FunctionNode
    qualname: str
    owner: ClassInfo | None = None

    @property
    def key(self) -> str:
        return f'{self.module.path}:{self.qualname}'

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def is_method(self) -> bool:
        decorators = {dotted_name(d) for d in self.node.decorator_list}
        return self.owner is not None and 'staticmethod' not in decorators

    def parameters(self) -> list[str]:
        arguments = self.node.args
        return [a.arg for a in (*arguments.posonlyargs, *arguments.args)]

    def all_parameters(self) -> set[str]:
        arguments = self.node.args
        names = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
        names |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
        return names


@dataclass(eq=False)
class ClassInfo:
    module: Module
    node: ast.ClassDef
    methods: dict[str, FunctionInfo] = field(default_factory=dict[str, FunctionInfo])
    constants: dict[str, ast.expr] = field(default_factory=dict[str, ast.expr])
    annotations: dict[str, ast.expr] = field(default_factory=dict[str, ast.expr])

    @property
    def key(self) -> str:
        return f'{self.module.path}:{self.node.name}'

    @property
    def name(self) -> str:
        return self.node.name


class Module:
    """One linted file. Its tree and what is read from it are kept only while needed: `release()` drops them
    (a module with no tools, until a tool's helper is looked up in it), and they are read again on demand."""

    def __init__(self, path: str, source: str, tree: ast.Module) -> None:
        self.path = path
        self.source = source
        parts = Path(path).with_suffix('').parts
        is_package = bool(parts) and parts[-1] == '__init__'
        self.dotted: tuple[str, ...] = tuple(parts[:-1] if is_package else parts)
        """The module's path as parts (`src/pkg/shell.py` is `src`, `pkg`, `shell`), matched from the end."""
        self.package: tuple[str, ...] = self.dotted if is_package else self.dotted[:-1]
        self.aliases: dict[str, str] = imports_of(tree.body, self.package)
        self.star_imports: list[str] = [
            _absolute(node, self.package)
            for node in tree.body
            if isinstance(node, ast.ImportFrom) and any(alias.name == '*' for alias in node.names)
        ]
        """Modules whose names this one re-exports with `from .x import *`."""
        self._tree: ast.Module | None = None
        self._functions: dict[str, FunctionInfo] = {}
        self._classes: dict[str, ClassInfo] = {}
        self._constants: dict[str, ast.expr] = {}
        self._every_function: list[FunctionInfo] = []
        self._nodes: list[ast.AST] = []
        self._nested_imports: list[int] = []
        self._load(tree)

    @classmethod
    def parse(cls, source: str, path: str) -> Module:
        """Raises `SyntaxError` (or `ValueError` for null bytes) when the source is not Python."""
        return cls(path, source, ast.parse(source, filename=path))

    def release(self) -> None:
        """Drop the tree and what was read from it; the next look at them parses the source again."""
        self._tree = None
        self._functions, self._classes, self._constants = {}, {}, {}
        self._every_function, self._nodes = [], []

    def _load(self, tree: ast.Module | None = None) -> ast.Module:
        if self._tree is not None:
            return self._tree
        self._tree = tree if tree is not None else ast.parse(self.source, filename=self.path)
        self._nodes = list(ast.walk(self._tree))
        self._nested_imports = sorted(
            node.lineno for node in self._nodes if isinstance(node, ast.Import | ast.ImportFrom) and node.col_offset
        )
        self._collect(self._tree)
        return self._tree

    @property
    def tree(self) -> ast.Module:
        return self._load()

    @property
    def nodes(self) -> list[ast.AST]:
        """Every node of the tree, walked once."""
        self._load()
        return self._nodes

    @property
    def functions(self) -> dict[str, FunctionInfo]:
        self._load()
        return self._functions

    @property
    def classes(self) -> dict[str, ClassInfo]:
        self._load()
        return self._classes

    @property
    def constants(self) -> dict[str, ast.expr]:
        self._load()
        return self._constants

    @property
    def every_function(self) -> list[FunctionInfo]:
        self._load()
        return self._every_function

    @property
    def nested_imports(self) -> list[int]:
        """Lines of imports inside functions, in order: most functions have none, and need not be walked for them."""
        self._load()
        return self._nested_imports

    def _collect(self, tree: ast.Module) -> None:
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self._functions[node.name] = FunctionInfo(self, node, node.name)
            elif isinstance(node, ast.ClassDef):
                self._classes[node.name] = self._class(node)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self._constants[target.id] = node.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                self._constants[node.target.id] = node.value
        self._every_function = [
            *self._functions.values(),
            *(method for info in self._classes.values() for method in info.methods.values()),
        ]

    def _class(self, node: ast.ClassDef) -> ClassInfo:
        info = ClassInfo(self, node)
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                info.methods[item.name] = FunctionInfo(self, item, f'{node.name}.{item.name}', info)
            elif isinstance(item, ast.Assign):
                for target in item.targets:
                    if isinstance(target, ast.Name):
                        info.constants[target.id] = item.value
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                info.annotations[item.target.id] = item.annotation
                if item.value is not None:
                    info.constants[item.target.id] = item.value
        return info


def imports_of(body: Sequence[ast.stmt], package: tuple[str, ...]) -> dict[str, str]:
    """Local name -> qualified name for the imports in `body` (not descending into functions or classes)."""
    aliases: dict[str, str] = {}
    pending: list[ast.stmt] = list(body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    head = alias.name.split('.', 1)[0]
                    aliases[head] = head
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                if alias.name != '*':
                    aliases[alias.asname or alias.name] = f'{base}.{alias.name}' if base else alias.name
        elif isinstance(node, ast.If | ast.Try | ast.With):
            # imports guarded by TYPE_CHECKING, try/except ImportError or a context manager still bind the name
            for name in ('body', 'orelse', 'finalbody'):
                pending.extend(getattr(node, name, []))
            if isinstance(node, ast.Try):
                for handler in node.handlers:
                    pending.extend(handler.body)
    return aliases


def function_imports(node: FunctionNode, package: tuple[str, ...], nested: Sequence[int] = ()) -> dict[str, str]:
    """The imports inside a function body (`from .local_exec import local_exec` in a method). `nested`, the
    lines of the module's imports inside functions, spares walking a function that has none."""
    if nested:
        first = bisect.bisect_left(nested, node.lineno)
        if first == len(nested) or nested[first] > (node.end_lineno or node.lineno):
            return {}
    statements = [child for child in ast.walk(node) if isinstance(child, ast.Import | ast.ImportFrom)]
    return imports_of(statements, package)


def _absolute(node: ast.ImportFrom, package: tuple[str, ...]) -> str:
    if not node.level:
        return node.module or ''
    keep = len(package) - (node.level - 1)
    base = list(package[: max(keep, 0)])
    if node.module:
        base.extend(node.module.split('.'))
    return '.'.join(base)


class Project:
    """Every module linted together, so that a tool's helpers in other modules can be followed."""

    def __init__(self, modules: list[Module]) -> None:
        self.modules = modules
        self._module_cache: dict[tuple[str, ...], Module | None] = {}

    def module_for(self, parts: tuple[str, ...]) -> Module | None:
        """The linted module whose path ends with `parts`, if exactly one does (the longest match wins)."""
        if parts in self._module_cache:
            return self._module_cache[parts]
        matches = [m for m in self.modules if len(m.dotted) >= len(parts) and m.dotted[-len(parts) :] == parts]
        found = matches[0] if len(matches) == 1 else None
        self._module_cache[parts] = found
        return found

    def lookup(self, qualified: str) -> FunctionInfo | ClassInfo | None:
        """A function, class or method by qualified name (`pkg.shell.run`, `pkg.tools.Shell.run`)."""
        parts = tuple(part for part in qualified.split('.') if part)
        for split in range(len(parts) - 1, 0, -1):
            module = self.module_for(parts[:split])
            if module is not None:
                found = self._member(module, parts[split:], depth=0)
                if found is not None:
                    return found
        return None

    def _member(self, module: Module, names: tuple[str, ...], depth: int) -> FunctionInfo | ClassInfo | None:
        found = member(module, names)
        if found is not None or depth > 3:
            return found
        for star in module.star_imports:  # `from .tools_base import *` in a package's __init__
            source = self.module_for(tuple(part for part in star.split('.') if part))
            if source is not None and source is not module:
                found = self._member(source, names, depth + 1)
                if found is not None:
                    return found
        return None


def member(module: Module, names: tuple[str, ...]) -> FunctionInfo | ClassInfo | None:
    if len(names) == 1:
        return module.functions.get(names[0]) or module.classes.get(names[0])
    if len(names) == 2 and names[0] in module.classes:
        return module.classes[names[0]].methods.get(names[1])
    return None
