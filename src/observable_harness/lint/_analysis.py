"""Which functions are tools, what every function returns (its summary), and the findings on each tool's returns."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from ._config import LintConfig
from ._flow import Evaluator, Sizing
from ._project import ClassInfo, FunctionInfo, Module, Project, dotted_name, function_imports, member
from ._values import EMPTY, Origin, Value, join
from ._values import unbounded as is_unbounded

__all__ = ['Analysis', 'Finding', 'lint_modules', 'tools_of']

_SUMMARY_ROUNDS = 40
"""Rounds of summaries at most: each round also reaches one call deeper from the tools."""
_TOOL_DECORATORS = frozenset({'tool', 'tool_plain', 'function_tool', 'call_tool'})
"""`@agent.tool`, `@mcp.tool()`, `@function_tool`, and an MCP low-level server's `@server.call_tool()`."""
_REGISTRARS = frozenset({'Tool', 'FunctionTool', 'FunctionToolset', 'StructuredTool', 'from_function'})
_ADDERS = frozenset({'add_function', 'add_tool', 'register_tool'})
_TOOL_BASES = frozenset({'BaseTool'})
_TOOL_BASE_METHODS = frozenset({'_run', '_arun'})
_NOQA = re.compile(r'#\s*noqa(?::\s*(?P<codes>[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*))?', re.IGNORECASE)


@dataclass(frozen=True, slots=True, order=True)
class Finding:
    """One finding, printed as `path:line: CODE message`."""

    path: str
    line: int
    code: str
    message: str
    function: str = ''
    """The tool function (`Class.method` for a method)."""
    source: str = ''
    """What produced the output (`subprocess.run`, `read_text`), '' for a file that cannot be parsed."""
    source_line: int = 0
    source_path: str = ''

    def __str__(self) -> str:
        return f'{self.path}:{self.line}: {self.code} {self.message}'

    def as_dict(self) -> dict[str, str | int]:
        return {
            'path': self.path,
            'line': self.line,
            'code': self.code,
            'message': self.message,
            'function': self.function,
            'source': self.source,
            'source_line': self.source_line,
            'source_path': self.source_path,
        }


class Analysis:
    """Summaries of every function of the linted modules, computed together until they settle."""

    def __init__(self, modules: Sequence[Module], config: LintConfig) -> None:
        self.project = Project(list(modules))
        self.config = config
        self.summaries: dict[str, Value] = {}
        self.attributes: dict[str, dict[str, Value]] = {}
        self._pending_attributes: dict[str, dict[str, Value]] = {}
        self._modules = {module.path: module for module in modules}
        self._aliases: dict[str, dict[str, str]] = {}
        self._mro: dict[str, list[ClassInfo]] = {}
        self._reader: str | None = None
        self._dependencies: dict[str, set[str]] = {}
        self._scheduled: dict[str, FunctionInfo] = {}
        """Functions some tool may reach, in the order they were found: only these are summarised."""
        self._new: set[str] = set()
        self._scheduled_classes: dict[str, ClassInfo] = {}
        self._new_classes = False
        self._none_settings: dict[str, bool] = {}

    def aliases_of(self, function: FunctionInfo) -> dict[str, str]:
        """The module's imports and those inside the function (`from .shell import run` in a method)."""
        key = function.key
        if key not in self._aliases:
            module = function.module
            if module.nested_imports:
                inner = function_imports(function.node, module.package, module.nested_imports)
                self._aliases[key] = {**module.aliases, **inner}
            else:
                self._aliases[key] = module.aliases
        return dict(self._aliases[key])

    def _depends(self, key: str) -> None:
        if self._reader is not None:
            self._dependencies.setdefault(self._reader, set()).add(key)

    def schedule(self, function: FunctionInfo) -> None:
        """A function a tool may reach: summarised from the next round on."""
        if function.key not in self._scheduled:
            self._scheduled[function.key] = function
            self._new.add(function.key)

    def _schedule_class(self, info: ClassInfo) -> None:
        """A class whose attributes are read: every method may set them, so each is summarised."""
        if info.key not in self._scheduled_classes:
            self._scheduled_classes[info.key] = info
            self._new_classes = True
            for method in info.methods.values():
                self.schedule(method)

    @property
    def unsettled(self) -> bool:
        """Functions or classes reached since the summaries last settled."""
        return bool(self._new) or self._new_classes

    # -------------------------------------------------------------------------------------- resolution

    def class_by_key(self, key: str) -> ClassInfo | None:
        path, _, name = key.rpartition(':')
        module = self._modules.get(path)
        return module.classes.get(name) if module is not None else None

    def resolve(self, module: Module, qualified: str, aliases: dict[str, str]) -> FunctionInfo | ClassInfo | None:
        """A call's target among the linted modules: a local name, an imported one, or a module's member."""
        parts = tuple(qualified.split('.'))
        local = member(module, parts)
        if local is not None and parts[0] not in aliases:
            return local
        return self.project.lookup(qualified)

    def mro(self, info: ClassInfo) -> list[ClassInfo]:
        """The class and its bases that are defined in the linted modules, nearest first."""
        if info.key not in self._mro:
            self._mro[info.key] = self._bases(info)
        return self._mro[info.key]

    def _bases(self, info: ClassInfo) -> list[ClassInfo]:
        order: list[ClassInfo] = []
        pending = [info]
        while pending:
            current = pending.pop(0)
            if current in order:
                continue
            order.append(current)
            for base in current.node.bases:
                name = dotted_name(base)
                if not name:
                    continue
                found = self.resolve(current.module, self._qualify(current.module, name), current.module.aliases)
                if isinstance(found, ClassInfo):
                    pending.append(found)
        return order

    @staticmethod
    def _qualify(module: Module, dotted: str) -> str:
        head, _, rest = dotted.partition('.')
        resolved = module.aliases.get(head, head)
        return f'{resolved}.{rest}' if rest else resolved

    def find_method(self, class_key: str, name: str) -> FunctionInfo | None:
        info = self.class_by_key(class_key)
        if info is None:
            return None
        for cls in self.mro(info):
            if name in cls.methods:
                return cls.methods[name]
        return None

    # -------------------------------------------------------------------------------------- attributes

    def attribute(self, info: ClassInfo, name: str) -> Value:
        self._depends(f'{info.key}.{name}')
        self._schedule_class(info)
        return self.attributes.get(info.key, {}).get(name, EMPTY)

    def may_be_none(self, info: ClassInfo, name: str) -> bool:
        """Whether an instance setting may be None as the class leaves it: a class-level `x = None` default, or
        `self.x = None` / `self.x = x` from a parameter that defaults to None, in the class or a base."""
        key = f'{info.key}.{name}'
        if key not in self._none_settings:
            self._none_settings[key] = any(_sets_none(cls, name) for cls in self.mro(info))
        return self._none_settings[key]

    def record_attribute(self, info: ClassInfo, name: str, value: Value) -> None:
        kept = Value(value.data().origins, value.marker, value.classes)
        table = self._pending_attributes.setdefault(info.key, {})
        table[name] = join((table.get(name, EMPTY), kept))

    def _class_level(self, info: ClassInfo) -> None:
        """Class-body defaults: `process: Any = Field(default_factory=make)`, `session: Session`."""
        anchor = next(iter(info.methods.values()), None)
        for name, annotation in info.annotations.items():
            target = self.resolve(info.module, self._qualify(info.module, dotted_name(annotation)), info.module.aliases)
            if isinstance(target, ClassInfo):
                self.record_attribute(info, name, Value(classes=frozenset({target.key})))
        if anchor is None:
            return
        for name, expression in info.constants.items():
            call = expression
            if isinstance(call, ast.Call) and dotted_name(call.func).rsplit('.', 1)[-1] in ('Field', 'field'):
                factory = next((k.value for k in call.keywords if k.arg == 'default_factory'), None)
                if factory is None:
                    continue
                call = ast.copy_location(ast.Call(func=factory, args=[], keywords=[]), expression)
            evaluator = Evaluator(self, anchor)
            self.record_attribute(info, name, evaluator.expression(call, evaluator.state))

    # -------------------------------------------------------------------------------------- summaries

    def apply(
        self, target: FunctionInfo, arguments: dict[str, Value], sizing: dict[str, Sizing] | None = None
    ) -> Value:
        """What a call returns: the target's summary, its parameters replaced by the arguments, each cut sized
        by a parameter judged by what the call passed for it (`sizing`), and each path that depends on a
        limit's absence or a URL's chooser kept or dropped by what the call passed."""
        self._depends(target.key)
        self.schedule(target)
        return _substitute(self.summaries.get(target.key, EMPTY), arguments, sizing or {})

    def _parameters_as_origins(self, function: FunctionInfo) -> dict[str, Value]:
        values: dict[str, Value] = {}
        names = function.parameters()
        for index, name in enumerate(sorted(function.all_parameters(), key=lambda n: (n not in names, n))):
            if function.is_method and names and name == names[0]:
                values[name] = Value(classes=frozenset({function.owner.key})) if function.owner else EMPTY
                continue
            values[name] = Value(frozenset({Origin('param', name, index, function.module.path)}))
        return values

    def settle(self, roots: Iterable[FunctionInfo] = ()) -> None:
        """Summarise the functions the tools reach, found as they are called: each round summarises those
        reached since the last one and again those that read a summary or attribute that changed. Code no
        tool reaches is never summarised."""
        for root in roots:
            self.schedule(root)
        due = set(self._new)
        for _ in range(_SUMMARY_ROUNDS):
            self._new.clear()
            self._new_classes = False
            self._pending_attributes = {name: dict(table) for name, table in self.attributes.items()}
            for info in list(self._scheduled_classes.values()):
                self._class_level(info)
            changed: set[str] = set()
            for function in list(self._scheduled.values()):
                if function.key not in due:
                    continue
                self._reader = function.key
                self._dependencies[function.key] = set()
                value = Evaluator(self, function, self._parameters_as_origins(function)).run()
                if self.summaries.get(function.key, EMPTY) != value:
                    self.summaries[function.key] = value
                    changed.add(function.key)
            self._reader = None
            for key, table in self._pending_attributes.items():
                for name, value in table.items():
                    if self.attributes.get(key, {}).get(name, EMPTY) != value:
                        changed.add(f'{key}.{name}')
            self.attributes = self._pending_attributes
            if not changed and not self._new and not self._new_classes:
                break
            # class bodies are read every round: a change may show there even when no summary reads it
            due = {reader for reader, read in self._dependencies.items() if read & changed} | self._new

    # -------------------------------------------------------------------------------------- tools

    def findings(self, module: Module, tools: Sequence[FunctionInfo]) -> list[Finding]:
        lines = module.source.splitlines()
        covered = _limited_tools(module)
        found: list[Finding] = []
        for function in tools:
            if function.key in covered:
                continue
            evaluator = Evaluator(self, function, {}, param_names=function.all_parameters(), tool=True)
            if function.owner is not None and function.is_method:
                names = function.parameters()
                if names:
                    evaluator.state.env[names[0]] = Value(classes=frozenset({function.owner.key}))
            evaluator.run()
            found.extend(
                finding
                for node, value in evaluator.returns.items()
                for finding in _judge(module, function, node, value)
                if not _suppressed(lines, finding.line, finding.code)
            )
        return found


def _sets_none(info: ClassInfo, name: str) -> bool:
    constant = info.constants.get(name)
    if isinstance(constant, ast.Constant) and constant.value is None:
        return True
    for method in info.methods.values():
        arguments = method.node.args
        positional = [*arguments.posonlyargs, *arguments.args]
        given = positional[len(positional) - len(arguments.defaults) :]
        defaults = {a.arg: d for a, d in zip(given, arguments.defaults, strict=True)}
        defaults.update({a.arg: d for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d})
        for node in ast.walk(method.node):
            if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if not any(dotted_name(target) in (f'self.{name}', f'cls.{name}') for target in targets):
                continue
            value = node.value
            if isinstance(value, ast.Constant) and value.value is None:
                return True
            default = defaults.get(value.id) if isinstance(value, ast.Name) else None
            if isinstance(default, ast.Constant) and default.value is None:
                return True
    return False


_READABLE = frozenset({'handle', 'process', 'result', 'status', 'response', 'error'})
"""What a helper that reads its parameter (`Origin.read`) turns into output."""

_UNKNOWN = Sizing('fixed', 'fixed', 'fixed')
"""A parameter the call gives no sizing for (the receiver, `*args`): a fixed limit, a URL not the model's."""


def _resolve(origin: Origin, sizes: dict[str, Sizing]) -> Origin | None:
    """One origin of a summary at a call: its helper-relative bound and URL resolved, or None on a path the
    call cannot take (output whole only without a limit, where the call passes one)."""
    bound = origin.bound
    head, _, name = bound.partition(':')
    passed = sizes.get(name, _UNKNOWN)
    if not name:
        pass
    elif head == 'param':
        bound = passed.size
    elif head == 'limit':
        bound = '' if passed.limit == 'none' else passed.limit
    elif head == 'ifnone':
        if passed.limit in ('fixed', 'small') or passed.limit.startswith('param:'):
            return None  # the call passes a limit: the path without one is not taken
        bound = {'none': '', 'param': 'param'}.get(passed.limit, 'ifnone:' + passed.limit.partition(':')[2])
    needs = origin.needs
    if needs:
        chooser = sizes.get(needs, _UNKNOWN).url
        if chooser == 'fixed':
            return None
        needs = chooser.removeprefix('param:') if chooser.startswith('param:') else ''
    if bound == origin.bound and needs == origin.needs:
        return origin
    return replace(origin, bound=bound, needs=needs)


def _substitute(summary: Value, arguments: dict[str, Value], sizes: dict[str, Sizing]) -> Value:
    origins: set[Origin] = set()
    classes = set(summary.classes)
    for raw in summary.origins:
        origin = _resolve(raw, sizes)
        if origin is None:
            continue
        if origin.kind != 'param':
            origins.add(origin)
            continue
        argument = arguments.get(origin.source, EMPTY)
        for given in argument.origins:
            if origin.read and given.shape in _READABLE:
                given = replace(given, shape='data')
            changed = given.capped(origin.bound) if origin.bound else given
            origins.add(replace(changed, marked=True) if origin.marked else changed)
        classes |= argument.classes
    parts = None if summary.parts is None else tuple(_substitute(p, arguments, sizes) for p in summary.parts)
    return Value(frozenset(origins), summary.marker, frozenset(classes), parts)


def _judge(module: Module, function: FunctionInfo, node: ast.Return, value: Value) -> Iterator[Finding]:
    groups: dict[tuple[str, str, int, str], list[Origin]] = {}
    for origin in value.origins:
        if origin.kind == 'param' or origin.needs or origin.shape not in ('data', 'result', 'status'):
            continue
        groups.setdefault((origin.kind, origin.source, origin.line, origin.path), []).append(origin)
    unbounded: dict[str, list[Origin]] = {}
    unmarked: list[Origin] = []
    for variants in groups.values():
        if any(is_unbounded(variant.bound) for variant in variants):
            kind = variants[0].kind
            unbounded.setdefault('BTO001' if kind == 'command' else 'BTO002', []).append(variants[0])
        elif any(v.bound == 'fixed' for v in variants) and not any(v.marked for v in variants):
            unmarked.append(variants[0])
    name = f'{function.qualname}()'
    for code, origins in sorted(unbounded.items()):
        first = min(origins, key=lambda o: (o.path != module.path, o.line))
        what = 'output of' if code == 'BTO001' else 'contents from'
        message = f'{name}: {what} {first.source} ({_where(first, module)}) returned without a bound'
        if len(origins) > 1:
            message += f' (and {len(origins) - 1} more source{"s" if len(origins) > 2 else ""})'
        yield Finding(module.path, node.lineno, code, message, function.qualname, first.source, first.line, first.path)
    if unmarked and not unbounded:
        first = min(unmarked, key=lambda o: (o.path != module.path, o.line))
        what = 'output of' if first.kind == 'command' else 'contents from'
        message = (
            f'{name}: {what} {first.source} ({_where(first, module)}) cut to a fixed size '
            'with nothing telling the model it was cut'
        )
        yield Finding(
            module.path, node.lineno, 'BTO003', message, function.qualname, first.source, first.line, first.path
        )


def _where(origin: Origin, module: Module) -> str:
    return f'line {origin.line}' if origin.path == module.path else f'{origin.path}:{origin.line}'


def _suppressed(lines: Sequence[str], line: int, code: str) -> bool:
    if not 0 < line <= len(lines):
        return False
    match = _NOQA.search(lines[line - 1])
    if match is None:
        return False
    codes = match.group('codes')
    return codes is None or code in {c.strip().upper() for c in codes.split(',')}


# ------------------------------------------------------------------------------------------ discovery


def _decorator_target(decorator: ast.expr) -> ast.expr:
    return decorator.func if isinstance(decorator, ast.Call) else decorator


def _is_tool_decorator(decorator: ast.expr) -> bool:
    target = _decorator_target(decorator)
    if isinstance(target, ast.Attribute):
        return target.attr in _TOOL_DECORATORS
    return isinstance(target, ast.Name) and target.id in _TOOL_DECORATORS


def _all_functions(module: Module) -> Iterator[FunctionInfo]:
    """Every function and method, and functions nested in them (a tool defined inside `register()`)."""
    yield from module.every_function
    known = {id(function.node) for function in module.every_function}
    nested = [n for n in module.nodes if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and id(n) not in known]
    if not nested:
        return
    for function in list(module.every_function):
        for node in ast.walk(function.node):
            if node is not function.node and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield FunctionInfo(module, node, f'{function.qualname}.{node.name}', None)


def _registered(module: Module) -> tuple[set[str], set[tuple[str, str]], set[str]]:
    """Names handed to a registration: functions by name, methods as (class or '', method), and toolsets."""
    functions: set[str] = set()
    methods: set[tuple[str, str]] = set()
    toolsets: set[str] = set()

    def collect(node: ast.AST) -> None:
        if isinstance(node, ast.Name):
            functions.add(node.id)
        elif isinstance(node, ast.Attribute):
            owner = node.value
            methods.add((owner.id if isinstance(owner, ast.Name) and owner.id in module.classes else '', node.attr))
        elif isinstance(node, ast.List | ast.Tuple | ast.Set):
            for element in node.elts:
                collect(element)
        elif isinstance(node, ast.Starred):
            collect(node.value)
        elif isinstance(node, ast.Call):
            # a wrapped tool: `Tool(notify(fn))`, `FunctionToolset([retry(fn)])`
            for argument in node.args:
                collect(argument)

    for node in module.nodes:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            callee = dotted_name(node.value.func).rsplit('.', 1)[-1]
            if callee in ('FunctionToolset', 'Toolset'):
                toolsets.update(t.id for t in node.targets if isinstance(t, ast.Name))
        if not isinstance(node, ast.Call):
            continue
        callee = dotted_name(node.func).rsplit('.', 1)[-1]
        if callee in _REGISTRARS and node.args:
            collect(node.args[0])
        if callee in _ADDERS and node.args:
            collect(node.args[0])
        if callee in ('append', 'extend') and dotted_name(node.func).rsplit('.', 1)[0].endswith('tools') and node.args:
            collect(node.args[0])
        for keyword in node.keywords:
            if keyword.arg in ('tools', 'function', 'func', 'coroutine'):
                collect(keyword.value)
    return functions, methods, toolsets


def _tools(module: Module) -> Iterator[FunctionInfo]:
    functions, methods, _ = _registered(module)
    seen: set[str] = set()
    for function in _all_functions(module):
        node = function.node
        is_tool = any(_is_tool_decorator(decorator) for decorator in node.decorator_list)
        if function.owner is None and function.qualname == node.name and node.name in functions:
            is_tool = True
        if function.owner is not None:
            owner = function.owner.name
            if (owner, node.name) in methods or ('', node.name) in methods:
                is_tool = True
            bases = {dotted_name(base).rsplit('.', 1)[-1] for base in function.owner.node.bases}
            if bases & _TOOL_BASES and node.name in _TOOL_BASE_METHODS:
                is_tool = True
        if is_tool and function.key not in seen:
            seen.add(function.key)
            yield function


def _limited_agents(module: Module) -> tuple[set[str], list[ast.Call]]:
    """Agents built with `ToolOutputLimits(...)` among their capabilities: variables and the calls themselves."""
    names: set[str] = set()
    calls: list[ast.Call] = []
    for node in module.nodes:
        if not (isinstance(node, ast.Call) and dotted_name(node.func).rsplit('.', 1)[-1] == 'Agent'):
            continue
        limited = any(
            isinstance(inner, ast.Call) and dotted_name(inner.func).rsplit('.', 1)[-1] == 'ToolOutputLimits'
            for argument in (*node.args, *(k.value for k in node.keywords))
            for inner in ast.walk(argument)
        )
        if limited:
            calls.append(node)
    if not calls:
        return names, calls
    for node in module.nodes:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value in calls:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names, calls


def _limited_tools(module: Module) -> set[str]:
    """Tools of an agent that has ToolOutputLimits: the capability bounds and marks what they return."""
    agents, calls = _limited_agents(module)
    if not calls:
        return set()
    covered_names: set[str] = set()
    covered_toolsets: set[str] = set()
    for call in calls:
        for keyword in call.keywords:
            if keyword.arg == 'tools':
                covered_names.update(_names_in(keyword.value))
            if keyword.arg == 'toolsets':
                covered_toolsets.update(_names_in(keyword.value))
    covered: set[str] = set()
    toolset_members: set[str] = set()
    for node in module.nodes:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and node.value.args
            and any(isinstance(t, ast.Name) and t.id in covered_toolsets for t in node.targets)
        ):
            toolset_members.update(_names_in(node.value.args[0]))
    for function in _all_functions(module):
        owners = {
            _root(_decorator_target(decorator))
            for decorator in function.node.decorator_list
            if _is_tool_decorator(decorator)
        }
        if owners & (agents | covered_toolsets) or function.name in covered_names | toolset_members:
            covered.add(function.key)
    return covered


def _names_in(node: ast.AST) -> set[str]:
    found: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            found.add(child.id)
        elif isinstance(child, ast.Attribute):
            found.add(child.attr)
    return found


def _root(node: ast.expr) -> str:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ''


def tools_of(module: Module) -> list[FunctionInfo]:
    """The tool functions a module defines or registers."""
    return list(_tools(module))


def lint_modules(
    modules: Iterable[Module], config: LintConfig, tools: dict[str, list[FunctionInfo]] | None = None
) -> list[Finding]:
    """Findings in the tools of `modules`, linted together. `tools` (by module path) is what `tools_of` found,
    when the caller has already looked (and released the modules that have none)."""
    ordered = list(modules)
    analysis = Analysis(ordered, config)
    if tools is None:
        tools = {module.path: tools_of(module) for module in ordered}
    analysis.settle(tool for found in tools.values() for tool in found)
    with_tools = [module for module in ordered if tools.get(module.path)]
    findings = [finding for module in with_tools for finding in analysis.findings(module, tools[module.path])]
    for _ in range(_SUMMARY_ROUNDS):
        if not analysis.unsettled:
            break
        analysis.settle()  # a tool's own pass reached a function no summary had
        findings = [finding for module in with_tools for finding in analysis.findings(module, tools[module.path])]
    return findings
