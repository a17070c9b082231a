"""Follows output through one function body: from its sources, through assignments, calls and branches, to returns.

A small abstract interpreter over `ast`. Each variable holds a `Value`: the origins of the output it may carry
(a command, a file, or a parameter of the function being summarised) and what happened to its size on the way
(cut to a fixed size, to a size the model chose, or shown to be small). Branches are followed separately and
joined; a guard such as `if len(out) > LIMIT: return ...` makes `out` small on the path that falls through.
"""

from __future__ import annotations

import ast
import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from ._config import LintConfig
from ._project import ClassInfo, FunctionInfo, FunctionNode, Module, dotted_name
from ._sources import (
    ACCUMULATORS,
    CALLS,
    ERROR_TYPES,
    EXCLUDED_CALLS,
    FACTORY_CALLS,
    FACTORY_DATA_METHODS,
    HANDOFF_CALLS,
    HTTP_CALLS,
    HTTP_CLIENTS,
    HTTP_METHODS,
    MEDIA_TYPES,
    OPENERS,
    PARSERS,
    PASSTHROUGH_MODULES,
    PROCESS_DATA_ATTRIBUTES,
    PROCESS_DATA_METHODS,
    PROJECT_BOUNDS,
    READERS,
    RESPONSE_DATA_ATTRIBUTES,
    RESPONSE_DATA_METHODS,
    SAFE_METHODS,
    TRANSFORM_METHODS,
)
from ._values import EMPTY, Origin, Value, bound_rank, join, marker_text


class Summaries(Protocol):
    """What an evaluation needs from the analysis of the whole linted code (kept apart to avoid a cycle)."""

    @property
    def config(self) -> LintConfig: ...

    def aliases_of(self, function: FunctionInfo) -> dict[str, str]: ...

    def resolve(self, module: Module, qualified: str, aliases: dict[str, str]) -> FunctionInfo | ClassInfo | None: ...

    def class_by_key(self, key: str) -> ClassInfo | None: ...

    def mro(self, info: ClassInfo) -> list[ClassInfo]: ...

    def find_method(self, class_key: str, name: str) -> FunctionInfo | None: ...

    def attribute(self, info: ClassInfo, name: str) -> Value: ...

    def may_be_none(self, info: ClassInfo, name: str) -> bool: ...

    def record_attribute(self, info: ClassInfo, name: str, value: Value) -> None: ...

    def apply(
        self, target: FunctionInfo, arguments: dict[str, Value], sizing: dict[str, Sizing] | None = None
    ) -> Value: ...


__all__ = ['Evaluator', 'Sizing', 'State', 'Summaries']

_BOUNDING_NAME = re.compile(
    r'(?:^|_)(?:truncat|clip|shorten|condens|excerpt|summar|abbreviat|ellipsi)|(?:^|_)(?:cap|cut|limit)(?:_|$)',
    re.IGNORECASE,
)
"""Names of helpers outside the linted paths that are taken at their word (their bodies cannot be read)."""

_STRINGIFY = frozenset({'str', 'repr', 'format', 'ascii'})
_PIPED_CAP = re.compile(r'(?:^|[|;&]\s*)(?:head|tail)\s+(?:-[nc]\s*|-)(?P<count>\d+|\{\})')
"""A shell command whose last stage keeps a number of lines or bytes."""
_COUNT_FLAG = re.compile(r'-[nc]?\d+')
_MAX_INLINE_DEPTH = 3


@dataclass(frozen=True, slots=True)
class Sizing:
    """What a call passes for one parameter of a helper."""

    limit: str
    """The value itself, for a cut by the parameter itself and a path where it is absent: `none` (None, 0),
    `fixed`, `param` (the model's choice), `limit:n`/`param:n` (the caller's own parameter `n`, itself or
    known to be given); see `Evaluator.limit_kind`."""
    size: str
    """Who chose it, for a cut sized by an expression over it: `fixed`, `param`, `param:n`."""
    url: str
    """Who chose it, as a URL: `fixed` (the code names the host), `param`, `param:n`."""


@dataclass
class State:
    env: dict[str, Value] = field(default_factory=dict[str, Value])
    size_checked: bool = False
    """A guard on a file's size (`stat().st_size > max`) has been passed: files read from here on are small."""
    capped: dict[str, str] = field(default_factory=dict[str, str])
    """Accumulators guarded by their length (`if len(found) < limit: found.append(...)`) and how."""
    unlimited: dict[str, str] = field(default_factory=dict[str, str])
    """Limits known to be absent on this path (`if limit is None:`), each with what whole output counts as here."""
    present: frozenset[str] = frozenset()
    """Names known to hold a value on this path (`if limit:`, `if limit is not None:`)."""

    def copy(self) -> State:
        return State(dict(self.env), self.size_checked, dict(self.capped), dict(self.unlimited), self.present)


def join_states(states: Sequence[State | None]) -> State | None:
    live = [state for state in states if state is not None]
    if not live:
        return None
    if len(live) == 1:
        return live[0].copy()
    names = {name for state in live for name in state.env}
    env = {name: join(state.env.get(name, EMPTY) for state in live) for name in names}
    capped_names: set[str] = set(live[0].capped).intersection(*(state.capped for state in live[1:]))
    capped = {name: min((state.capped[name] for state in live), key=_bound_rank) for name in capped_names}
    unlimited = {
        name: bound
        for name, bound in live[0].unlimited.items()
        if all(state.unlimited.get(name) == bound for state in live[1:])
    }
    present = live[0].present.intersection(*(state.present for state in live[1:]))
    return State(env, all(state.size_checked for state in live), capped, unlimited, present)


def _together(values: Iterable[Value]) -> Value:
    """Values put into one thing (a text, a dict, a call's arguments): a tuple among them is no longer one."""
    return join(value.whole() for value in values)


def _bound_rank(bound: str) -> int:
    return bound_rank(bound)


def _terminates(body: Sequence[ast.stmt]) -> bool:
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.Return | ast.Raise | ast.Continue | ast.Break):
        return True
    if isinstance(last, ast.If):
        return _terminates(last.body) and _terminates(last.orelse)
    return False


_NAMES: weakref.WeakKeyDictionary[ast.AST, frozenset[str]] = weakref.WeakKeyDictionary()
_FACTS: weakref.WeakKeyDictionary[ast.AST, tuple[frozenset[str], frozenset[str]]] = weakref.WeakKeyDictionary()


def _names(node: ast.AST) -> frozenset[str]:
    # cached by node: the same expressions are looked at in every round, and gone with their tree
    cached = _NAMES.get(node)
    if cached is None:
        cached = _NAMES[node] = frozenset(child.id for child in ast.walk(node) if isinstance(child, ast.Name))
    return cached


def _facts(node: ast.AST) -> tuple[frozenset[str], frozenset[str]]:
    """A function's collections built item by item, and its limits: read once per function, not per pass."""
    cached = _FACTS.get(node)
    if cached is None:
        cached = _FACTS[node] = (_accumulated(node), _limits(node))
    return cached


_READ_METHODS = PROCESS_DATA_METHODS | RESPONSE_DATA_METHODS | {'readline'}


def _is_property(node: FunctionNode) -> bool:
    return any(dotted_name(d).rsplit('.', 1)[-1] in ('property', 'cached_property') for d in node.decorator_list)


def _names_of(nodes: Sequence[ast.AST]) -> frozenset[str]:
    return frozenset[str]().union(*map(_names, nodes))


def _identity(origin: Origin) -> tuple[str, str, int, str]:
    return origin.kind, origin.source, origin.line, origin.path


def _root_name(node: ast.AST) -> str:
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ''


def _accumulated(node: ast.AST) -> frozenset[str]:
    """Collections a function builds up item by item (`found.append(x)`, `parts[k] = x`): their length is a
    count. (Text built with `out += x` is not among them: its length is its size.)"""
    names: set[str] = set()
    for child in ast.walk(node):
        if (
            isinstance(child, ast.Call)
            and isinstance(child.func, ast.Attribute)
            and child.func.attr in ('append', 'extend', 'insert', 'add', 'appendleft')
            and isinstance(child.func.value, ast.Name)
        ):
            names.add(child.func.value.id)
        elif isinstance(child, ast.Assign):
            names.update(
                t.value.id for t in child.targets if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
            )
    return frozenset(names)


_CONTEXT_ANNOTATION = re.compile(r'\b(?:RunContext|Context|CancellationToken|ToolContext)\b')
"""Parameters the framework fills in (a run context, a cancellation token): never chosen by the model."""


_SIZE_KEYS = frozenset({'size', 'file_size', 'filesize', 'content-length', 'content_length', 'bytes'})


def _declared_size(node: ast.AST) -> bool:
    """A size a listing or a response's headers declare before the content is read: `info['size']`,
    `meta.get('size', 0)`, `response.headers['Content-Length']`."""
    key: ast.expr | None = None
    if isinstance(node, ast.Subscript):
        key = node.slice
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == 'get' and node.args:
        key = node.args[0]
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ('int', 'float')
        and node.args
    ):
        return _declared_size(node.args[0])
    return isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.lower() in _SIZE_KEYS


def _measures(node: ast.AST) -> bool:
    """Whether an expression measures a size on its face: `len(x)`, `path.stat().st_size`, `getsize(p)`."""
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == 'len':
            return True
        if isinstance(child, ast.Attribute) and child.attr in ('st_size', 'size'):
            return True
        if isinstance(child, ast.Call) and dotted_name(child.func).endswith('getsize'):
            return True
        if _declared_size(child):
            return True
    return False


def _dotted_in(node: ast.AST) -> Iterator[str]:
    """Names and attribute chains inside an expression (`limit`, `self.max_length`)."""
    for child in ast.walk(node):
        if isinstance(child, ast.Name | ast.Attribute):
            dotted = dotted_name(child)
            if dotted:
                yield dotted


def _limits(node: ast.AST) -> frozenset[str]:
    """What a function uses as a size limit: compared with a length, a slice bound, or beside a length in
    `min`/`max`. Only these are limits whose absence (`if limit is None:`) means output is left whole."""
    found: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Compare):
            sides = [child.left, *child.comparators]
            if any(_measures(side) for side in sides):
                for side in sides:
                    if not _measures(side):
                        found.update(_dotted_in(side))
        elif isinstance(child, ast.Slice):
            for bound in (child.lower, child.upper):
                if bound is not None:
                    found.update(_dotted_in(bound))
        elif (
            isinstance(child, ast.Call)
            and isinstance(child.func, ast.Name)
            and child.func.id in ('min', 'max')
            and any(_measures(argument) for argument in child.args)
        ):
            for argument in child.args:
                if not _measures(argument):
                    found.update(_dotted_in(argument))
    return frozenset(found)


def _statements(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements of a body and its blocks, not descending into loops, functions or classes."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.If | ast.With | ast.AsyncWith | ast.Try):
            yield from _statements(statement.body)
            yield from _statements(getattr(statement, 'orelse', []))
            if isinstance(statement, ast.Try):
                yield from _statements(statement.finalbody)
                for handler in statement.handlers:
                    yield from _statements(handler.body)


class Evaluator:
    """One function's body, evaluated against the summaries of everything it calls."""

    def __init__(
        self,
        analysis: Summaries,
        function: FunctionInfo,
        arguments: dict[str, Value] | None = None,
        *,
        closure: State | None = None,
        depth: int = 0,
        node: FunctionNode | ast.Lambda | None = None,
        param_names: set[str] | None = None,
        tool: bool = False,
        roots: dict[str, frozenset[str]] | None = None,
    ) -> None:
        self.analysis = analysis
        self.function = function
        self.module = function.module
        self.node: FunctionNode | ast.Lambda = node if node is not None else function.node
        self.depth = depth
        self.aliases = analysis.aliases_of(function) if node is None else dict(self.module.aliases)
        self.returns: dict[ast.Return, Value] = {}
        """What each return gives, joined over every pass that reached it (a loop body runs twice)."""
        self.local_functions: dict[str, FunctionNode] = {}
        self.param_names: set[str] = set(param_names or ())
        self.tool = tool
        """Evaluating a tool itself: a cut sized by its parameters is the model's request."""
        self.roots: dict[str, frozenset[str]] = dict(roots or {})
        """For each name derived from parameters, the parameters it comes from."""
        self.loop_caps: list[str] = []
        self.loop_exits: list[list[State]] = []
        self.size_names: dict[str, ast.expr] = {}
        self.full_lengths: set[str] = set()
        """Names that may hold a whole length (`end = limit if limit else len(lines)`): no cap as a slice end."""
        self.accumulators, self.limits = _facts(self.node)
        self.guards: dict[str, ast.expr] = {}
        """Names holding a size test (`too_big = len(out) > LIMIT`), refined like the test itself."""
        self.fixed_hosts: set[str] = set()
        """Names holding a URL whose host the code sets (`url = f'{API}/search?q={query}'`)."""
        self.definitions: dict[str, ast.expr] = {}
        """What each local name was last set to, for the limit it may hold."""
        self.state = closure.copy() if closure is not None else State()
        arguments_node = self.node.args
        every = [*arguments_node.posonlyargs, *arguments_node.args, *arguments_node.kwonlyargs]
        every += [a for a in (arguments_node.vararg, arguments_node.kwarg) if a is not None]
        positional = [*arguments_node.posonlyargs, *arguments_node.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments_node.defaults))
        defaults += arguments_node.defaults
        self.defaults: dict[str, ast.expr | None] = {a.arg: d for a, d in zip(positional, defaults, strict=True)}
        self.defaults.update(
            {a.arg: d for a, d in zip(arguments_node.kwonlyargs, arguments_node.kw_defaults, strict=True)}
        )
        context = {
            a.arg for a in every if a.annotation is not None and _CONTEXT_ANNOTATION.search(ast.unparse(a.annotation))
        }
        if node is None and function.is_method and positional:
            context.add(positional[0].arg)  # `self`: the developer's configuration, not the model's choice
        for argument in every:
            self.state.env[argument.arg] = (arguments or {}).get(argument.arg, EMPTY)
            if argument.arg in context:
                self.param_names.discard(argument.arg)
                self.roots.pop(argument.arg, None)
                continue
            self.param_names.add(argument.arg)
            self.roots[argument.arg] = frozenset({argument.arg})

    # ------------------------------------------------------------------------------------------- running

    def run(self) -> Value:
        """Evaluate the body; the join of everything it returns."""
        if isinstance(self.node, ast.Lambda):
            return self.expression(self.node.body, self.state)
        self.block(self.node.body, self.state)
        return join(self.returns.values())

    def block(self, body: Sequence[ast.stmt], state: State | None) -> State | None:
        for statement in body:
            if state is None:
                return None
            state = self.statement(statement, state)
        return state

    def statement(self, node: ast.stmt, state: State) -> State | None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self.local_functions[node.name] = node
            state.env.pop(node.name, None)
            return state
        if isinstance(node, ast.ClassDef | ast.Import | ast.ImportFrom | ast.Pass | ast.Global | ast.Nonlocal):
            return state
        if isinstance(node, ast.Return):
            value = self.expression(node.value, state) if node.value is not None else EMPTY
            for bound in state.unlimited.values():
                value = value.map(lambda origin, bound=bound: origin.whole_unless(bound))
            self.returns[node] = join((self.returns.get(node, EMPTY), value))
            return None
        if isinstance(node, ast.Raise):
            return None
        if isinstance(node, ast.Break | ast.Continue):
            if self.loop_exits:
                self.loop_exits[-1].append(state.copy())
            return None
        if isinstance(node, ast.Expr):
            self.expression(node.value, state)
            return state
        if isinstance(node, ast.Assign):
            value = self.expression(node.value, state)
            derived = self._derived(node.value, value)
            for target in node.targets:
                self.assign(target, value, state, node.value, derived=derived)
            return state
        if isinstance(node, ast.AnnAssign):
            if node.value is not None:
                value = self.expression(node.value, state)
                self.assign(node.target, value, state, node.value, derived=self._derived(node.value, value))
            return state
        if isinstance(node, ast.AugAssign):
            return self.augmented(node, state)
        if isinstance(node, ast.If):
            return self.branch(node, state)
        if isinstance(node, ast.For | ast.AsyncFor | ast.While):
            return self.loop(node, state)
        if isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                value = self.expression(item.context_expr, state)
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, value, state, item.context_expr)
            return self.block(node.body, state)
        if isinstance(node, ast.Try):
            return self.try_statement(node, state)
        if isinstance(node, ast.Match):
            self.expression(node.subject, state)
            ends = [self.block(case.body, state.copy()) for case in node.cases]
            return join_states([*ends, state])
        if isinstance(node, ast.Delete | ast.Assert):
            return state
        return state

    def assign(
        self, target: ast.expr, value: Value, state: State, source: ast.expr | None = None, *, derived: bool = False
    ) -> None:
        if isinstance(target, ast.Name):
            state.env[target.id] = value
            state.capped.pop(target.id, None)
            if derived and source is not None:
                self.param_names.add(target.id)
                self.roots[target.id] = self._roots_of(_names(source))
            if source is not None and self._is_size(source):
                self.size_names[target.id] = source
            else:
                self.size_names.pop(target.id, None)
            if source is not None and self._may_be_whole(source):
                self.full_lengths.add(target.id)
            else:
                self.full_lengths.discard(target.id)
            if source is not None:
                self.definitions[target.id] = source
            else:
                self.definitions.pop(target.id, None)
            if source is not None and self.fixed_host(source):
                self.fixed_hosts.add(target.id)
            else:
                self.fixed_hosts.discard(target.id)
            if source is not None and isinstance(source, ast.Compare | ast.BoolOp | ast.UnaryOp) and _measures(source):
                self.guards[target.id] = source
            else:
                self.guards.pop(target.id, None)
        elif isinstance(target, ast.Tuple | ast.List):
            if isinstance(source, ast.Tuple | ast.List) and len(source.elts) == len(target.elts):
                for element, part in zip(target.elts, source.elts, strict=True):
                    self.assign(element, self.expression(part, state), state, part, derived=derived)
                return
            starred = any(isinstance(element, ast.Starred) for element in target.elts)
            if value.parts is not None and len(value.parts) == len(target.elts) and not starred:
                for element, item in zip(target.elts, value.parts, strict=True):
                    self.assign(element, item, state, derived=derived)
                return
            element_value = self.element(value)
            status = Value(frozenset(o for o in element_value.origins if o.line in self._status_lines(value)))
            for index, element in enumerate(target.elts):
                part = element_value
                if index == 0 and status.tainted and len(target.elts) == 2:
                    # (exit status, output): the status carries none of the output
                    part = Value(element_value.origins - status.origins, element_value.marker, element_value.classes)
                self.assign(element.value if isinstance(element, ast.Starred) else element, part, state)
        elif isinstance(target, ast.Attribute):
            if isinstance(target.value, ast.Name) and target.value.id in ('self', 'cls') and self.function.owner:
                self.analysis.record_attribute(self.function.owner, target.attr, value)
            else:
                self.accumulate(target.value, value, state)
        elif isinstance(target, ast.Subscript):
            self.accumulate(target.value, value, state)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, value, state, derived=derived)

    def _derived(self, expression: ast.expr, value: Value) -> bool:
        """Whether an assigned value is a parameter's choice (`end = start + limit`). Output read because of a
        parameter (`lines = Path(path).read_text().splitlines()`) is not: sizes taken from it are the output's."""
        return bool(_names(expression) & self.param_names) and all(o.kind == 'param' for o in value.origins)

    def _roots_of(self, names: frozenset[str]) -> frozenset[str]:
        return frozenset[str]().union(*(self.roots.get(name, frozenset({name})) for name in names & self.param_names))

    def size_kind(self, names: frozenset[str]) -> str:
        """How a cut sized by an expression over `names` counts: by a parameter, or fixed."""
        roots = self._roots_of(names)
        if not roots:
            return 'fixed'
        return 'param' if self.tool else f'param:{min(roots)}'

    def passed(self, argument: ast.expr, state: State) -> Sizing:
        return Sizing(self.limit_kind(argument, state), self.size_kind(_names(argument)), self.chooser(argument))

    def limit_kind(self, node: ast.expr, state: State, seen: frozenset[str] = frozenset()) -> str:
        """What a limit's value is: `none` (no limit: `None`, `0`), `fixed`, `param` (the model's choice),
        `limit:n` (a helper's parameter `n` itself, which a call may pass as None) or `param:n` (made from it)."""
        if isinstance(node, ast.Constant):
            return 'none' if node.value is None or node.value is False or node.value == 0 else 'fixed'
        if (
            isinstance(node, ast.Name)
            and node.id in self.param_names
            and self.roots.get(node.id) == frozenset({node.id})
        ):
            present = node.id in state.present
            if not self.tool:
                return f'param:{node.id}' if present else f'limit:{node.id}'
            default = self.defaults.get(node.id)
            # a tool's limit that defaults to None leaves output whole unless the model asks for less
            if not present and isinstance(default, ast.Constant) and default.value is None:
                return 'none'
            return 'param'
        dotted = dotted_name(node)
        if dotted and dotted in state.present:
            return self.size_kind(_names(node))
        if isinstance(node, ast.Name) and node.id in self.definitions and node.id not in seen:
            # a local limit is what it was made from: `limit = row_limit or self.row_limit`
            return self.limit_kind(self.definitions[node.id], state, seen | {node.id})
        if isinstance(node, ast.Name) and node.id not in state.env:
            constant = self.module.constants.get(node.id)
            if isinstance(constant, ast.Constant) and constant.value is None:
                return 'none'
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ('self', 'cls')
            and self.function.owner is not None
            and self.analysis.may_be_none(self.function.owner, node.attr)
        ):
            return 'none'  # a setting that defaults to None (`self.max_chars = max_chars` with `max_chars=None`)
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            # `a or b` is b wherever a is absent: the first that is not absent by default decides
            kinds = [self.limit_kind(value, state, seen) for value in node.values]
            return next((kind for kind in kinds if kind != 'none'), 'none')
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == 'get'
            and 1 <= len(node.args) <= 2
            and isinstance(node.args[0], ast.Constant)
        ):
            # `arguments.get('limit')` is absent unless given; `.get('limit', 100)` falls back to the default
            if len(node.args) == 1:
                return 'none'
            fallback = self.limit_kind(node.args[1], state, seen)
            given_by = self.size_kind(_names(node.func.value))  # `arguments.get(...)`: the model's, if it passes one
            return given_by if fallback == 'fixed' and given_by != 'fixed' else fallback
        return self.size_kind(_names(node))

    @staticmethod
    def _status_lines(value: Value) -> set[int]:
        return {origin.line for origin in value.origins if origin.shape == 'status'}

    def accumulate(self, receiver: ast.expr, value: Value, state: State) -> None:
        """`found.append(x)`, `parts[k] = x`, `buffer.write(x)`: the receiver now holds `value` too."""
        name = _root_name(receiver)
        if not name or not (value.tainted or value.marker or value.classes):
            return
        if name in state.capped:
            value = value.capped(state.capped[name])
        if self.loop_caps:
            value = value.capped(self.loop_caps[-1])
        if name in ('self', 'cls') and isinstance(receiver, ast.Attribute) and self.function.owner:
            self.analysis.record_attribute(self.function.owner, receiver.attr, value)
            return
        current = state.env.get(name, EMPTY)
        combined = _together((current, value))
        if (value.marker and current.tainted) or (current.marker and value.tainted):
            combined = replace(combined, origins=combined.marked().origins)
        state.env[name] = combined

    def augmented(self, node: ast.AugAssign, state: State) -> State:
        value = self.expression(node.value, state)
        if isinstance(node.target, ast.Name):
            current = state.env.get(node.target.id, EMPTY)
            combined = _together((current, value))
            if (value.marker and current.tainted) or (current.marker and value.tainted):
                combined = combined.marked()
            if node.target.id in state.capped and value.tainted:
                combined = _together((current, value.capped(state.capped[node.target.id])))
            if self.loop_caps and value.tainted:
                combined = _together((current, value.capped(self.loop_caps[-1])))
                if value.marker or current.marker:
                    combined = combined.marked()
            state.env[node.target.id] = combined
        else:
            self.accumulate(node.target, value, state)
        return state

    def branch(self, node: ast.If, state: State) -> State | None:
        self.expression(node.test, state)
        # a guard whose other branch leaves (`if len(found) >= 100: ...; return`) means nothing is cut yet here
        yes = self.block(
            node.body, self.refine(node.test, state.copy(), truth=True, other_exits=_terminates(node.orelse))
        )
        no = self.block(
            node.orelse, self.refine(node.test, state.copy(), truth=False, other_exits=_terminates(node.body))
        )
        return join_states([yes, no])

    def loop(self, node: ast.For | ast.AsyncFor | ast.While, state: State) -> State | None:
        cap = self._loop_cap(node)
        iterated = self.expression(node.iter, state) if isinstance(node, ast.For | ast.AsyncFor) else EMPTY
        if isinstance(node, ast.While):
            self.expression(node.test, state)
        element = self.element(iterated)
        if cap:
            element = element.capped(cap)
            self.loop_caps.append(cap)
        self.loop_exits.append([])
        current: State | None = state.copy()
        for _ in range(2):  # a second pass sees what the first accumulated, when it accumulated anything
            if current is None:
                break
            entry = current.copy()
            if isinstance(node, ast.For | ast.AsyncFor):
                self.assign(node.target, element, entry)
            end = self.block(node.body, entry)
            joined = join_states([current, end, *self.loop_exits[-1]])
            settled = joined is not None and joined.env == current.env
            current = joined
            if settled:
                break
        self.loop_exits.pop()
        if cap:
            self.loop_caps.pop()
        after = join_states([state, current])
        if after is None:
            return None
        return self.block(node.orelse, after) if node.orelse else after

    def _loop_cap(self, node: ast.For | ast.AsyncFor | ast.While) -> str:
        """A loop that stops at a count (`if n >= limit: break`, `while len(out) < limit`) caps what it collects.
        A count is a length, a name the loop adds to (`n += 1`), or its own index (`for i, line in
        enumerate(f)`); a loop that stops on a membership test or a clock is no cap on size."""
        tests: list[ast.expr] = []
        if isinstance(node, ast.While) and isinstance(node.test, ast.Compare):
            tests.append(node.test)
        tests.extend(
            statement.test
            for statement in _statements(node.body)
            if isinstance(statement, ast.If)
            and any(isinstance(inner, ast.Break) for inner in _statements(statement.body))
        )
        counters = {
            child.target.id
            for child in ast.walk(node)
            if isinstance(child, ast.AugAssign) and isinstance(child.target, ast.Name) and isinstance(child.op, ast.Add)
        }
        if (
            isinstance(node, ast.For | ast.AsyncFor)
            and isinstance(node.iter, ast.Call)
            and dotted_name(node.iter.func) in ('enumerate', 'range')
        ):
            counters |= _names(node.target)

        def counts(compare: ast.Compare) -> bool:
            if any(isinstance(op, ast.In | ast.NotIn | ast.Is | ast.IsNot) for op in compare.ops):
                return False
            sides = [compare.left, *compare.comparators]
            return any(_measures(side) or bool(_names(side) & counters) for side in sides)

        compares = [test for test in tests if any(isinstance(c, ast.Compare) and counts(c) for c in ast.walk(test))]
        if not compares:
            return ''
        return self.size_kind(frozenset[str]().union(*(_names(test) for test in compares)))

    def try_statement(self, node: ast.Try, state: State) -> State | None:
        body_end = self.block(node.body, state.copy())
        start = join_states([state, body_end]) or state
        ends: list[State | None] = [self.block(node.orelse, body_end.copy()) if body_end is not None else None]
        for handler in node.handlers:
            handler_state = start.copy()
            if handler.name:
                handler_state.env[handler.name] = self._exception(handler)
            ends.append(self.block(handler.body, handler_state))
        after = join_states(ends)
        if node.finalbody:
            final = self.block(node.finalbody, (after or start).copy())
            return final if after is not None else None
        return after

    def _exception(self, handler: ast.ExceptHandler) -> Value:
        if handler.type is None:
            return EMPTY
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        for exception_type in types:
            qualified = self.qualified(exception_type)
            if qualified in ERROR_TYPES or qualified.rsplit('.', 1)[-1] in ERROR_TYPES:
                return self.origin('command', qualified or 'CalledProcessError', handler, shape='error')
        return EMPTY

    # ------------------------------------------------------------------------------------------- guards

    def _is_size(self, node: ast.expr) -> bool:
        if isinstance(node, ast.NamedExpr):
            return self._is_size(node.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ('int', 'float'):
            return bool(node.args) and self._is_size(node.args[0])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'len':
            return True
        if isinstance(node, ast.Attribute) and node.attr in ('st_size', 'size'):
            return True
        if isinstance(node, ast.Call) and dotted_name(node.func).endswith(('getsize', 'path.getsize')):
            return True
        if _declared_size(node):
            return True
        if isinstance(node, ast.Name) and node.id in self.size_names:
            return True
        return isinstance(node, ast.BinOp) and (self._is_size(node.left) or self._is_size(node.right))

    def _size_subject(self, node: ast.expr, seen: frozenset[str] = frozenset()) -> tuple[str, bool]:
        """What a size expression measures: (variable name or '', whether it measures a file on disk)."""
        if isinstance(node, ast.NamedExpr):
            return self._size_subject(node.value, seen)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ('int', 'float'):
            return self._size_subject(node.args[0], seen) if node.args else ('', False)
        if isinstance(node, ast.Name) and node.id in self.size_names and node.id not in seen:
            return self._size_subject(self.size_names[node.id], seen | {node.id})
        if isinstance(node, ast.BinOp):
            left = self._size_subject(node.left, seen)
            return left if left != ('', False) else self._size_subject(node.right, seen)
        if (isinstance(node, ast.Attribute) and node.attr in ('st_size', 'size')) or _declared_size(node):
            return '', True
        if isinstance(node, ast.Call) and dotted_name(node.func).endswith('getsize'):
            return '', True
        if isinstance(node, ast.Call) and node.args:
            return _root_name(node.args[0]), False
        return '', False

    def refine(self, test: ast.expr, state: State, *, truth: bool, other_exits: bool = False) -> State:
        """The state on the branch where `test` is `truth`: sizes it bounds are known there.

        `len(out) <= LIMIT` shows output small on its side. For a list built up in the function
        (`found.append(...)`), the length is a count: below it, what is collected is bounded by the count
        (nothing is cut yet when the other side leaves the loop or the function); at or above it, the
        collection has been cut there. `limit is None` (or `not limit`) for a limit the function cuts with
        means output is whole on that side: see `absent`. Tests joined by `and`/`or` are followed path by
        path: `not limit or len(out) <= limit` is true where the limit is absent or where output is small.
        """
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.refine(test.operand, state, truth=not truth, other_exits=other_exits)
        if isinstance(test, ast.NamedExpr):
            return self.refine(test.value, state, truth=truth, other_exits=other_exits)
        if isinstance(test, ast.BoolOp):
            every = isinstance(test.op, ast.And) == truth  # all values take `truth`; else any one may
            if every:
                for value in test.values:
                    state = self.refine(value, state, truth=truth, other_exits=other_exits)
                return state
            paths: list[State | None] = []
            rest = state
            for value in test.values:
                # this value decides, every one before it went the other way
                paths.append(self.refine(value, rest.copy(), truth=truth, other_exits=other_exits))
                rest = self.refine(value, rest, truth=not truth, other_exits=other_exits)
            return join_states(paths) or state
        if isinstance(test, ast.Name) and test.id in self.guards:
            return self.refine(self.guards[test.id], state, truth=truth, other_exits=other_exits)
        if isinstance(test, ast.Name | ast.Attribute) and dotted_name(test):
            if truth:
                state.present = state.present | {dotted_name(test)}
                return state
            if dotted_name(test) in self.limits:
                return self.absent(test, state)
            if isinstance(test, ast.Name) and test.id in state.env:
                state.env[test.id] = state.env[test.id].capped('small')  # `if not out:` output that is empty
            return state
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is | ast.IsNot):
            subject, other = test.left, test.comparators[0]
            if isinstance(subject, ast.Constant):
                subject, other = other, subject
            if not (isinstance(other, ast.Constant) and other.value is None and dotted_name(subject)):
                return state
            if truth != isinstance(test.ops[0], ast.Is):
                state.present = state.present | {dotted_name(subject)}
                return state
            return self.absent(subject, state) if dotted_name(subject) in self.limits else state
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
            return state
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if self._is_size(left):
            size, limit, small_when_true = left, right, isinstance(op, ast.Lt | ast.LtE)
            big_when_true = isinstance(op, ast.Gt | ast.GtE)
        elif self._is_size(right):
            size, limit, small_when_true = right, left, isinstance(op, ast.Gt | ast.GtE)
            big_when_true = isinstance(op, ast.Lt | ast.LtE)
        else:
            return state
        small_side = (truth and small_when_true) or (not truth and big_when_true)
        big_side = (truth and big_when_true) or (not truth and small_when_true)
        name, on_disk = self._size_subject(size)
        counted = name in self.accumulators
        if big_side and counted and name in state.env:
            kind = self.size_kind(_names(limit))
            state.env[name] = state.env[name].map(
                lambda o: replace(o, bound=kind) if o.kind != 'param' and o.bound in ('', 'small') else o
            )
        if not small_side:
            return state
        if on_disk:
            state.size_checked = True
        if not name:
            return state
        if counted:
            bound = 'small' if other_exits else self.size_kind(_names(limit))
            if name in state.env:
                state.env[name] = state.env[name].capped(bound)
            state.capped[name] = bound
            return state
        if name in state.env:
            measured = {_identity(o) for o in state.env[name].origins if not o.bound and o.kind != 'param'}
            state.env[name] = state.env[name].capped('small')
            if measured:
                # the whole output is small, so is everything made from it (`shown` cut from `lines`)
                for other, value in state.env.items():
                    state.env[other] = value.map(lambda o: o.capped('small') if _identity(o) in measured else o)
        state.capped[name] = self.size_kind(_names(limit))
        return state

    def absent(self, limit: ast.expr, state: State) -> State:
        """The path where a size limit is absent (`if limit is None: return out`): what is whole here is whole,
        the model's request, whole only when a call passes no limit, or never returned (a configured limit)."""
        kind = self.limit_kind(limit, state)
        if kind == 'none':
            return state
        bound = {'fixed': 'small', 'param': 'param'}.get(kind, 'ifnone:' + kind.partition(':')[2])
        state.unlimited[dotted_name(limit)] = bound
        for name, value in state.env.items():
            state.env[name] = value.map(lambda origin: origin.whole_unless(bound))
        return state

    # ------------------------------------------------------------------------------------------- expressions

    def expression(self, node: ast.expr | None, state: State) -> Value:
        if node is None:
            return EMPTY
        method: Callable[[ast.expr, State], Value] | None = getattr(self, f'_{type(node).__name__}', None)
        if method is None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expression(child, state)
            return EMPTY
        return method(node, state)

    def _Constant(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.Constant)
        return Value(marker=True) if isinstance(node.value, str) and marker_text(node.value) else EMPTY

    def _JoinedStr(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.JoinedStr)
        pieces: list[str] = []
        values: list[Value] = []
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                pieces.append(part.value)
            elif isinstance(part, ast.FormattedValue):
                pieces.append('{}')
                values.append(self.stringify(self.expression(part.value, state)))
        inner = join(values)
        return self.combine(inner, Value(marker=marker_text(''.join(pieces))))

    def combine(self, *values: Value) -> Value:
        """Values put together into one text: output next to a marker is marked."""
        combined = _together(values)
        if combined.tainted and combined.marker:
            combined = combined.marked()
        return combined

    def stringify(self, value: Value) -> Value:
        """`str(x)` / `f'{x}'`: a finished process shows its output; a running one, a handle or an error does not."""
        kept = frozenset(
            replace(origin, shape='data') if origin.shape in ('result', 'status') else origin
            for origin in value.origins
            if origin.shape in ('data', 'result', 'status')
        )
        return Value(kept, value.marker)

    def _Name(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.Name)
        if node.id in state.env:
            return state.env[node.id]
        constant = self.module.constants.get(node.id)
        if constant is not None and isinstance(constant, ast.Constant | ast.JoinedStr | ast.BinOp):
            return self.constant_marker(constant)
        if isinstance(constant, ast.Call):
            # a module-level instance (`shell = Shell()`): its methods are followed
            target = self.analysis.resolve(self.module, self.qualified(constant.func), self.aliases)
            if isinstance(target, ClassInfo):
                return Value(classes=frozenset({target.key}))
        return EMPTY

    def constant_marker(self, node: ast.expr) -> Value:
        texts = [c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        return Value(marker=any(marker_text(text) for text in texts))

    def _Attribute(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.Attribute)
        if isinstance(node.value, ast.Name) and node.value.id in ('self', 'cls') and self.function.owner:
            owner = self.function.owner
            if node.value.id not in state.env or not state.env[node.value.id].classes:
                return self.instance_attribute([owner], node.attr)
        base = self.expression(node.value, state)
        if base.classes:
            classes = [self.analysis.class_by_key(key) for key in base.classes]
            found = self.instance_attribute([c for c in classes if c is not None], node.attr)
            if found.tainted or found.marker or found.classes:
                return join((found, Value(base.origins, base.marker)) if base.tainted else (found,))
        if isinstance(node.value, ast.Name) and node.value.id in self.module.classes:
            constant = self.module.classes[node.value.id].constants.get(node.attr)
            if constant is not None:
                return self.constant_marker(constant)
        return self.attribute_of(base, node.attr)

    def instance_attribute(self, classes: list[ClassInfo], name: str) -> Value:
        values: list[Value] = []
        for info in classes:
            for cls in self.analysis.mro(info):
                if name in cls.constants and isinstance(cls.constants[name], ast.Constant | ast.JoinedStr):
                    values.append(self.constant_marker(cls.constants[name]))
                method = cls.methods.get(name)
                if method is not None and _is_property(method.node):
                    # `self.requests` read through `@property def requests(self)`: what the getter returns
                    names = method.parameters()
                    bound = {names[0]: Value(classes=frozenset({info.key}))} if names else {}
                    values.append(self.analysis.apply(method, bound))
                values.append(self.analysis.attribute(cls, name))
        return join(values)

    def attribute_of(self, base: Value, name: str) -> Value:
        kept: set[Origin] = set()
        for origin in base.origins:
            if origin.kind == 'param':
                read = name in PROCESS_DATA_ATTRIBUTES or name in RESPONSE_DATA_ATTRIBUTES
                kept.add(replace(origin, read=True) if read else origin)
            elif origin.shape in ('result', 'status', 'error', 'process'):
                if name in PROCESS_DATA_ATTRIBUTES:
                    kept.add(replace(origin, shape='data'))
            elif origin.shape == 'response':
                if name in RESPONSE_DATA_ATTRIBUTES:
                    kept.add(replace(origin, shape='data'))
            elif origin.shape in ('handle', 'client'):
                continue
            elif origin.shape == 'factory' or name not in SAFE_METHODS:
                kept.add(origin)
        if not kept:
            return Value(marker=base.marker) if base.marker else EMPTY
        return Value(frozenset(kept), base.marker)

    def _Subscript(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.Subscript)
        base = self.expression(node.value, state)
        if not isinstance(node.slice, ast.Slice):
            self.expression(node.slice, state)
            position = node.slice
            if isinstance(position, ast.UnaryOp) and isinstance(position.op, ast.USub):
                position = position.operand
            if (
                isinstance(node.slice, ast.Constant)
                and isinstance(node.slice.value, int)
                and base.parts is not None
                and -len(base.parts) <= node.slice.value < len(base.parts)
            ):
                return base.parts[node.slice.value]  # one item of a tuple (`run(cmd)[1]`)
            if isinstance(position, ast.Constant) and isinstance(position.value, int | str):
                # one line of many (`out.splitlines()[-1]`) or one field of parsed JSON (`data['version']`) is
                # small; one element of a tuple of outputs (`communicate()[0]`) is not
                return base.map(lambda o: o.capped('small') if o.pieces else self._as_data(o))
            return base.map(self._as_data)
        bound = self.slice_bound(node.slice, node.value, state)
        return base.capped(bound) if bound else base

    @staticmethod
    def _as_data(origin: Origin) -> Origin:
        return replace(origin, shape='data') if origin.shape in ('result', 'status') else origin

    def _may_be_whole(self, node: ast.expr) -> bool:
        """Whether a slice end may be the whole length: `len(lines)`, `limit or len(lines)`, `max(n, total)`."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == 'len':
                return True
            if node.func.id == 'min':
                return bool(node.args) and all(self._may_be_whole(a) for a in node.args)
            if node.func.id == 'max':
                return any(self._may_be_whole(a) for a in node.args)
        if isinstance(node, ast.Name):
            return node.id in self.full_lengths or node.id in self.size_names
        if isinstance(node, ast.IfExp):
            return self._may_be_whole(node.body) or self._may_be_whole(node.orelse)
        if isinstance(node, ast.BoolOp):
            return any(self._may_be_whole(value) for value in node.values)
        if isinstance(node, ast.Constant):
            return node.value is None
        return False

    def slice_bound(self, piece: ast.Slice, base: ast.expr, state: State) -> str:
        """How a slice caps what it slices: '' when it does not (`[1:]`, `[:-1]`, `[:out.index(x)]`)."""
        lower, upper = piece.lower, piece.upper
        base_name = _root_name(base)

        def negative(expression: ast.expr) -> bool:
            if isinstance(expression, ast.UnaryOp) and isinstance(expression.op, ast.USub):
                return True
            return isinstance(expression, ast.Constant) and isinstance(expression.value, int) and expression.value < 0

        def positional(expression: ast.expr) -> bool:
            """A position found in the sliced value itself (`out.index(marker)`), not a size."""
            return any(
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Attribute)
                and bool(base_name)
                and _root_name(child.func.value) == base_name
                for child in ast.walk(expression)
            )

        if upper is not None and self._may_be_whole(upper):
            return ''  # `lines[start:end]` where `end` may be `len(lines)` keeps everything after `start`
        if upper is not None and lower is None:
            if negative(upper) or positional(upper):
                return ''
            defining: list[ast.expr] = [upper]
        elif lower is not None and upper is None:
            if not negative(lower) or positional(lower):
                return ''
            defining = [lower]
        elif lower is not None and upper is not None:
            if positional(upper) or (negative(upper) and not negative(lower)):
                return ''
            defining = [lower, upper]
        else:
            return ''
        if lower is None and isinstance(upper, ast.Name):
            # `out[:limit]`: a limit of None cuts nothing
            kind = self.limit_kind(upper, state)
            return '' if kind == 'none' else kind
        names = frozenset[str]().union(*(_names(expression) for expression in defining))
        return self.size_kind(names)

    def _BinOp(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.BinOp)
        left = self.expression(node.left, state)
        right = self.expression(node.right, state)
        if isinstance(node.op, ast.Mod):
            right = self.stringify(right)
        return self.combine(left, right)

    def _BoolOp(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.BoolOp)
        return join(self.expression(value, state) for value in node.values)

    def _IfExp(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.IfExp)
        self.expression(node.test, state)
        yes = self.expression(node.body, self.refine(node.test, state.copy(), truth=True))
        no = self.expression(node.orelse, self.refine(node.test, state.copy(), truth=False))
        return join((yes, no))

    def _Compare(self, node: ast.expr, state: State) -> Value:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expression(child, state)
        return EMPTY

    def _UnaryOp(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.UnaryOp)
        self.expression(node.operand, state)
        return EMPTY

    def _Await(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.Await)
        return self.expression(node.value, state)

    def _Starred(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.Starred)
        return self.expression(node.value, state)

    def _NamedExpr(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.NamedExpr)
        value = self.expression(node.value, state)
        self.assign(node.target, value, state, node.value)
        return value

    def _Tuple(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.Tuple | ast.List | ast.Set)
        items = [self.expression(element, state) for element in node.elts]
        joined = join(item.whole() for item in items)
        if isinstance(node, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in node.elts):
            return Value(joined.origins, joined.marker, joined.classes, tuple(items))
        return joined

    _List = _Tuple
    _Set = _Tuple

    def _Dict(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.Dict)
        keys = [self.expression(key, state) for key in node.keys if key is not None]
        return _together([*keys, *(self.expression(value, state) for value in node.values)])

    def _Lambda(self, node: ast.expr, state: State) -> Value:
        return EMPTY

    def _ListComp(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp)
        inner = state.copy()
        for generator in node.generators:
            iterated = self.expression(generator.iter, inner)
            self.assign(generator.target, self.element(iterated), inner)
            for condition in generator.ifs:
                inner = self.refine(condition, inner, truth=True)
        if isinstance(node, ast.DictComp):
            return _together((self.expression(node.key, inner), self.expression(node.value, inner)))
        return self.expression(node.elt, inner).whole()

    _SetComp = _ListComp
    _GeneratorExp = _ListComp
    _DictComp = _ListComp

    def element(self, value: Value) -> Value:
        """What iterating a value gives: lines of a file, items of a list, pages of a document."""
        kept: set[Origin] = set()
        for origin in value.origins:
            if origin.kind == 'param':
                kept.add(replace(origin, read=True))
            elif origin.shape in ('handle', 'process', 'result', 'status', 'response'):
                kept.add(replace(origin, shape='data'))
            elif origin.shape not in ('error', 'client'):
                kept.add(origin)
        return Value(frozenset(kept), value.marker, value.classes)

    # ------------------------------------------------------------------------------------------- calls

    def qualified(self, node: ast.expr) -> str:
        dotted = dotted_name(node)
        if not dotted:
            return ''
        head, _, rest = dotted.partition('.')
        if head in self.state.env and head not in self.aliases:
            return ''
        resolved = self.aliases.get(head)
        if resolved is None:
            return dotted if '.' not in dotted else ''
        return f'{resolved}.{rest}' if rest else resolved

    def _command_cap(self, node: ast.Call) -> str:
        """A command that cuts its own output: `... | tail -n 50`, `['head', '-c', '4000', path]`."""
        command = node.args[0] if node.args else None
        if isinstance(command, ast.List | ast.Tuple):
            first = command.elts[0] if command.elts else None
            if not (isinstance(first, ast.Constant) and first.value in ('head', 'tail')):
                return ''
            rest = command.elts[1:]
            for index, element in enumerate(rest):
                text = element.value if isinstance(element, ast.Constant) else None
                if text in ('-n', '-c') and index + 1 < len(rest):
                    return self.size_kind(_names(rest[index + 1]))
                if isinstance(text, str) and _COUNT_FLAG.fullmatch(text):
                    return 'fixed'
            return 'fixed'  # head and tail keep ten lines by default
        if not isinstance(command, ast.Constant | ast.JoinedStr):
            return ''
        text, spans = '', list[tuple[int, ast.expr]]()
        for part in command.values if isinstance(command, ast.JoinedStr) else [command]:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                text += part.value
            elif isinstance(part, ast.FormattedValue):
                spans.append((len(text), part.value))
                text += '{}'
        match = _PIPED_CAP.search(text)
        if match is None:
            return ''
        sized = [value for at, value in spans if match.start('count') <= at < match.end('count')]
        return self.size_kind(frozenset[str]().union(*map(_names, sized))) if sized else 'fixed'

    def fetched(self, source: str, verb: str, node: ast.Call) -> Value:
        """An HTTP response: a source of a whole page when the URL is the tool caller's choice (see `chooser`)."""
        # `request(method, url)` and `stream(method, url)` name the method first
        urls: list[ast.expr] = list(node.args[1:2] if verb in ('request', 'stream') else node.args[:1])
        urls += [k.value for k in node.keywords if k.arg in ('url', 'uri')]
        if not urls:  # `session.request(**request_kwargs)`: the URL is somewhere in there
            urls = [k.value for k in node.keywords if k.arg is None]
        choosers = {self.chooser(url) for url in urls} - {'fixed'}
        if not choosers:
            return EMPTY
        chooser = 'param' if 'param' in choosers else min(choosers)
        needs = chooser.removeprefix('param:') if chooser.startswith('param:') else ''
        return Value(frozenset({Origin('web', source, node.lineno, self.module.path, 'response', needs=needs)}))

    def chooser(self, node: ast.expr) -> str:
        """Who picks a URL: `fixed` (the code names its host), `param` (the model, through a tool parameter),
        or `param:n` (a helper's parameter `n`, known at each call)."""
        if self.fixed_host(node):
            return 'fixed'
        return self.size_kind(_names(node))

    def fixed_host(self, node: ast.expr) -> bool:
        """Whether a URL's host is set by the code, whatever the model fills in after it."""
        derived = bool(self._roots_of(_names(node)))
        if isinstance(node, ast.Constant) or not derived:
            return True
        if isinstance(node, ast.Name):
            return node.id in self.fixed_hosts
        if isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            if isinstance(head, ast.Constant):
                return '://' in str(head.value) or str(head.value).startswith('/')
            return isinstance(head, ast.FormattedValue) and self.fixed_host(head.value)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
            return self.fixed_host(node.left)
        if isinstance(node, ast.IfExp):
            return self.fixed_host(node.body) and self.fixed_host(node.orelse)
        if isinstance(node, ast.BoolOp):
            return all(self.fixed_host(value) for value in node.values)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == 'format':
                return self.fixed_host(func.value)
            if dotted_name(func).endswith('urljoin') and node.args:
                return self.fixed_host(node.args[0])
            host = next((k.value for k in node.keywords if k.arg in ('host', 'netloc', 'base_url')), None)
            return host is not None and self.fixed_host(host)
        return False

    def origin(self, kind: str, source: str, node: ast.AST, *, shape: str = 'data', bound: str = '') -> Value:
        line = getattr(node, 'lineno', 0)
        return Value(frozenset({Origin(kind, source, line, self.module.path, shape, bound)}))

    def _Call(self, node: ast.expr, state: State) -> Value:
        assert isinstance(node, ast.Call)
        func = node.func
        if isinstance(func, ast.Lambda):
            return self.inline(func, node, state)
        qualified = self.qualified(func)
        name = qualified.rsplit('.', 1)[-1] if qualified else (func.attr if isinstance(func, ast.Attribute) else '')
        arguments = [self.expression(a, state) for a in node.args]
        keywords = {k.arg: self.expression(k.value, state) for k in node.keywords}
        every = _together([*arguments, *keywords.values()])
        config = self.analysis.config

        if isinstance(func, ast.Name) and func.id in self.local_functions and func.id not in state.env:
            return self.inline(self.local_functions[func.id], node, state)
        if name in MEDIA_TYPES:
            return EMPTY  # an image, audio or video part: sent as media, not as text in the context
        handoff = self._handoff(qualified, func)
        if handoff is not None and len(node.args) > handoff:
            return self._call_elsewhere(node.args[handoff], node.args[handoff + 1 :], node, state)
        if qualified:
            if qualified in config.bounds or qualified in PROJECT_BOUNDS:
                return self.combine(every.capped('small'), Value(marker=True))
            if qualified in config.command_sources:
                return self.origin('command', qualified, node)
            if qualified in config.file_sources:
                return self.origin('file', qualified, node)
            if qualified in CALLS:
                kind, shape = CALLS[qualified]
                return self.origin(kind, qualified, node, shape=shape, bound=self._command_cap(node))
            if qualified in HTTP_CALLS:
                fetched = self.fetched(qualified, qualified.rsplit('.', 1)[-1], node)
                return fetched.capped('small') if state.size_checked else fetched
            if qualified in HTTP_CLIENTS:
                return self.origin('web', qualified, node, shape='client')
            if qualified == 'getattr' and len(arguments) >= 2 and isinstance(node.args[1], ast.Constant):
                found = self.attribute_of(arguments[0], str(node.args[1].value))
                return _together((found, *arguments[2:]))
            if qualified == 'next' and arguments:
                return self.element(arguments[0]).capped('small')  # one item: a header row, a first line
            if qualified in READERS and arguments:
                return arguments[0].map(lambda o: replace(o, shape='handle') if o.shape in ('handle', 'data') else o)
            if qualified in PARSERS:
                return self.wrapped(every).map(lambda o: replace(o, pieces=True))
            if qualified == 'itertools.islice' and node.args:
                sized = frozenset[str]().union(*(_names(a) for a in node.args[1:]))
                return self.wrapped(self.element(arguments[0])).capped(self.size_kind(sized))
            if qualified in OPENERS:
                return self.file_opened(qualified, node, state)
            if qualified == 'os.read' and arguments:
                # a chunk of a pipe or a terminal: read in a loop until it ends, its size is no cap
                return self.element(arguments[0])
            if qualified in FACTORY_CALLS:
                return self.origin(FACTORY_CALLS[qualified], qualified, node, shape='factory')
            if qualified in EXCLUDED_CALLS or qualified.startswith(('logging.', 'logger.')):
                return EMPTY
            if qualified in _STRINGIFY:
                return self.stringify(every)
            target = self.analysis.resolve(self.module, qualified, self.aliases)
            if target is not None:
                return self.call_target(target, node, arguments, keywords, None, state)
        if isinstance(func, ast.Attribute):
            found = self._method(func, node, arguments, keywords, every, state)
            if found is not None:
                return found
        if name in EXCLUDED_CALLS:
            return EMPTY
        if isinstance(func, ast.Name):
            callee = self.expression(func, state)
            calls = [self.analysis.find_method(key, '__call__') for key in callee.classes]
            if any(calls):
                return join(
                    self.call_target(c, node, arguments, keywords, callee, state) for c in calls if c is not None
                )
        if name and _BOUNDING_NAME.search(name):
            # a helper we cannot read, named for bounding (`truncate_output(out)`): taken at its word
            return self.combine(every.capped('small'), Value(marker=True))
        if not self._passes_through(func, qualified):
            # a method of some object, or a library's function, given output (`client.audio.transcriptions
            # .create(file=f)`, `requests.post(files=...)`): what it returns is its own answer
            return EMPTY
        return self.wrapped(every)

    def _passes_through(self, func: ast.expr, qualified: str) -> bool:
        """Whether a call we cannot read returns what it is given: a builtin or a class (a wrapper such as
        `TextContent(text=out)`), a function of a module that transforms text (`json.dumps`, `html.escape`),
        or a known transforming method (`ANSI.sub('', out)`)."""
        if isinstance(func, ast.Attribute) and func.attr in TRANSFORM_METHODS:
            return True
        if not qualified:
            return not isinstance(func, ast.Attribute)  # a local callable; a method of an object is not
        last = qualified.rsplit('.', 1)[-1]
        if '.' not in qualified or last[:1].isupper():
            return True
        return qualified.split('.', 1)[0] in PASSTHROUGH_MODULES

    def wrapped(self, every: Value) -> Value:
        """An unknown call given output: its result carries it (a wrapper, a parser); reading a handle reads it."""
        return every.map(
            lambda o: (
                replace(o, read=True)
                if o.kind == 'param'
                else replace(o, shape='data')
                if o.shape in ('handle', 'process')
                else o
            )
        )

    def _handoff(self, qualified: str, func: ast.expr) -> int | None:
        if qualified in HANDOFF_CALLS:
            return HANDOFF_CALLS[qualified]
        if isinstance(func, ast.Attribute) and f'.{func.attr}' in HANDOFF_CALLS:
            return HANDOFF_CALLS[f'.{func.attr}']
        return None

    def _call_elsewhere(self, callee: ast.expr, arguments: Sequence[ast.expr], node: ast.Call, state: State) -> Value:
        """`asyncio.to_thread(f, x)`, `loop.run_in_executor(None, f, x)`: what `f(x)` returns."""
        call = ast.Call(func=callee, args=list(arguments), keywords=[])
        ast.copy_location(call, node)
        return self._Call(call, state)

    def file_opened(self, qualified: str, node: ast.Call, state: State) -> Value:
        value = self.origin('file', qualified, node, shape='handle')
        return value.capped('small') if state.size_checked else value

    def _method(
        self,
        func: ast.Attribute,
        node: ast.Call,
        arguments: list[Value],
        keywords: dict[str | None, Value],
        every: Value,
        state: State,
    ) -> Value | None:
        method = func.attr
        config = self.analysis.config
        if f'.{method}' in config.command_sources:
            return self.origin('command', f'.{method}', node)
        if f'.{method}' in config.file_sources:
            return self.origin('file', f'.{method}', node)
        if f'.{method}' in config.bounds:
            return self.combine(every.capped('small'), Value(marker=True))
        receiver_node = func.value
        if isinstance(receiver_node, ast.Attribute) and receiver_node.attr == 'git' and method not in SAFE_METHODS:
            return self.origin('command', f'git {method} (GitPython)', node)
        if method == 'diff' and any(
            k.arg == 'create_patch' and isinstance(k.value, ast.Constant) and k.value.value for k in node.keywords
        ):
            return self.origin('command', 'diff(create_patch=True) (GitPython)', node)
        if method == 'exec_run':
            return self.origin('command', 'exec_run', node, shape='status')
        if method == 'build' and isinstance(receiver_node, ast.Attribute) and receiver_node.attr == 'images':
            return self.origin('command', 'images.build', node, shape='status')  # (image, build log)
        if isinstance(receiver_node, ast.Attribute) and receiver_node.attr == 'containers':
            if method == 'run' and not any(
                k.arg == 'detach' and isinstance(k.value, ast.Constant) and k.value.value for k in node.keywords
            ):
                return self.origin('command', 'containers.run', node)
            if method in ('run', 'get', 'create'):
                return self.origin('command', f'containers.{method}', node, shape='factory')
        if method in ('read_text', 'read_bytes'):
            value = self.origin('file', method, node)
            return value.capped('small') if state.size_checked else value
        if method == 'open' and not (isinstance(receiver_node, ast.Name) and receiver_node.id in self.aliases):
            return self.file_opened(method, node, state)
        owner = self.function.owner
        if (
            isinstance(receiver_node, ast.Call)
            and isinstance(receiver_node.func, ast.Name)
            and receiver_node.func.id == 'super'
            and owner is not None
        ):
            itself = Value(classes=frozenset({owner.key}))
            for base in self.analysis.mro(owner)[1:]:
                if method in base.methods:
                    return self.call_target(base.methods[method], node, arguments, keywords, itself, state)
            return None
        receiver = self.expression(receiver_node, state)
        if (
            isinstance(receiver_node, ast.Name)
            and receiver_node.id in ('self', 'cls')
            and owner
            and not receiver.classes
        ):
            receiver = Value(receiver.origins, receiver.marker, frozenset({owner.key}))
        if receiver.classes:
            targets = [self.analysis.find_method(key, method) for key in receiver.classes]
            resolved = [target for target in targets if target is not None]
            if resolved:
                return join(self.call_target(t, node, arguments, keywords, receiver, state) for t in resolved)
        if method in ACCUMULATORS and isinstance(receiver_node, ast.Name | ast.Attribute | ast.Subscript):
            if every.tainted or every.marker or every.classes:
                self.accumulate(receiver_node, every, state)
            if not receiver.tainted or method != 'write':
                return EMPTY
        if receiver.tainted:
            result = self.tainted_method(receiver, method, node, every)
            if state.size_checked and any(o.shape == 'client' for o in receiver.origins):
                result = result.capped('small')  # fetched after its declared size was checked
            return result
        if method == 'join':
            return self.combine(self.element(arguments[0]) if arguments else EMPTY, receiver)
        if method == 'format':
            return self.combine(self.stringify(every), receiver)
        if method in SAFE_METHODS:
            return EMPTY
        return None

    def tainted_method(self, receiver: Value, method: str, node: ast.Call, every: Value) -> Value:
        kept: set[Origin] = set()
        for origin in receiver.origins:
            if origin.kind == 'param' and method in _READ_METHODS:
                kept.add(replace(origin, read=True))  # reads what it is given: see `Origin.read`
            elif origin.kind == 'param' or origin.shape == 'data':
                if method in ('group', 'groups', 'groupdict'):
                    kept.add(origin.capped('small'))  # a match's group: the part a pattern picked out
                elif method in ('splitlines', 'split', 'rsplit', 'json'):
                    kept.add(replace(origin, pieces=True))
                elif (
                    method in ('get', 'pop') and origin.pieces and node.args and isinstance(node.args[0], ast.Constant)
                ):
                    kept.add(origin.capped('small'))  # one field of a parsed structure
                elif method not in SAFE_METHODS:
                    kept.add(origin)
            elif origin.shape == 'handle':
                if method in ('read', 'readlines', 'read_text'):
                    sized = bool(node.args or node.keywords)
                    data = replace(origin, shape='data', pieces=method == 'readlines')
                    if sized:
                        kept.add(data.capped(self.size_kind(frozenset[str]().union(*map(_names, node.args)))))
                    else:
                        kept.add(data)
                elif method == 'readline':
                    kept.add(replace(origin, shape='data').capped('param'))
            elif origin.shape in ('process', 'result', 'status', 'error'):
                if method in PROCESS_DATA_METHODS:
                    kept.add(replace(origin, shape='data'))
                elif method == 'readline':
                    kept.add(replace(origin, shape='data').capped('param'))
            elif origin.shape == 'response':
                if method in RESPONSE_DATA_METHODS:
                    data = replace(origin, shape='data')
                    sized = method in ('read', 'aread') and bool(node.args or node.keywords)
                    kept.add(data.capped(self.size_kind(_names_of(node.args))) if sized else data)
            elif origin.shape == 'client':
                if method in HTTP_METHODS:
                    kept.update(self.fetched(f'{origin.source}.{method}', method, node).origins)
            elif origin.shape == 'factory':
                if method == 'exec_run':
                    kept.add(replace(origin, source=f'{origin.source}.exec_run', line=node.lineno, shape='status'))
                elif method == 'logs' and (tail := next((k.value for k in node.keywords if k.arg == 'tail'), None)):
                    bound = self.size_kind(_names(tail))
                    kept.add(replace(origin, source='logs', line=node.lineno, shape='data', bound=bound))
                elif method in FACTORY_DATA_METHODS:
                    kept.add(replace(origin, source=f'{origin.source}.{method}', line=node.lineno, shape='data'))
        result = Value(frozenset(kept), receiver.marker)
        if method in ('format', 'join', 'replace'):
            result = self.combine(result, self.stringify(every))
        return result

    def call_target(
        self,
        target: FunctionInfo | ClassInfo,
        node: ast.Call,
        arguments: list[Value],
        keywords: dict[str | None, Value],
        receiver: Value | None,
        state: State,
    ) -> Value:
        if isinstance(target, ClassInfo):
            # a wrapper object (`ReadPageOutput(content=text)`) carries what it was given
            every = _together([*arguments, *keywords.values()])
            return Value(every.origins, every.marker, frozenset({target.key}))
        bound = self.bind(target, arguments, keywords, receiver)
        return self.analysis.apply(target, bound, self.sizing(target, node, receiver is not None, state))

    def sizing(self, target: FunctionInfo, node: ast.Call, has_receiver: bool, state: State) -> dict[str, Sizing]:
        """For each parameter of `target`, what the call passes for it (see `Sizing`). A parameter left out takes
        its default, read where it is defined."""
        names = target.parameters()
        if target.is_method and names and (has_receiver or target.owner is not None):
            names = names[1:]
        sizes: dict[str, Sizing] = {}
        for name, argument in zip(names, node.args, strict=False):
            if isinstance(argument, ast.Starred):
                break
            sizes[name] = self.passed(argument, state)
        for keyword in node.keywords:
            if keyword.arg is not None:
                sizes[keyword.arg] = self.passed(keyword.value, state)
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return sizes  # `f(*args, **kwargs)`: what is left out is not known to take its default
        arguments = target.node.args
        positional = [*arguments.posonlyargs, *arguments.args]
        given = positional[len(positional) - len(arguments.defaults) :]
        defaults = {a.arg: d for a, d in zip(given, arguments.defaults, strict=True)}
        defaults.update({a.arg: d for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d})
        for name, default in defaults.items():
            if name not in sizes:
                none = isinstance(default, ast.Constant) and default.value is None
                if isinstance(default, ast.Name) and default.id not in target.module.classes:
                    constant = target.module.constants.get(default.id)
                    none = isinstance(constant, ast.Constant) and constant.value is None
                sizes[name] = Sizing('none' if none else 'fixed', 'fixed', 'fixed')
        return sizes

    def bind(
        self,
        target: FunctionInfo,
        arguments: list[Value],
        keywords: dict[str | None, Value],
        receiver: Value | None,
    ) -> dict[str, Value]:
        names = target.parameters()
        bound: dict[str, Value] = {}
        if target.is_method and names:
            self_name = names[0]
            if receiver is not None:
                bound[self_name] = receiver
                names = names[1:]
            elif target.owner is not None:
                bound[self_name] = Value(classes=frozenset({target.owner.key}))
        extra: list[Value] = []
        for index, value in enumerate(arguments):
            if index < len(names):
                bound[names[index]] = value
            else:
                extra.append(value)
        every_name = target.all_parameters()
        for key, value in keywords.items():
            if key is not None and key in every_name:
                bound[key] = value
            else:
                extra.append(value)
        arguments_node = target.node.args
        if extra:
            spill = _together(extra)
            for holder in (arguments_node.vararg, arguments_node.kwarg):
                if holder is not None:
                    bound[holder.arg] = spill
        return bound

    def inline(self, definition: FunctionNode | ast.Lambda, node: ast.Call, state: State) -> Value:
        """A nested function or lambda called where it is defined: evaluated with what it closes over."""
        if self.depth >= _MAX_INLINE_DEPTH:
            return EMPTY
        arguments = [self.expression(a, state) for a in node.args]
        names = [a.arg for a in (*definition.args.posonlyargs, *definition.args.args)]
        bound = {name: value for name, value in zip(names, arguments, strict=False)}
        for keyword in node.keywords:
            if keyword.arg is not None:
                bound[keyword.arg] = self.expression(keyword.value, state)
        inner = Evaluator(
            self.analysis,
            self.function,
            bound,
            closure=state,
            depth=self.depth + 1,
            node=definition,
            param_names=self.param_names,
            tool=self.tool,
            roots=self.roots,
        )
        inner.aliases = self.aliases
        inner.local_functions = dict(self.local_functions)
        inner.size_names = dict(self.size_names)
        return inner.run()
