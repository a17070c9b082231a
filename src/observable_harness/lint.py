"""The static check behind `observable-harness lint`.

An unbounded tool return is a silent defect: no error, no exception, nothing in a log; it surfaces
later as a full context window or a wrong decision. It shows in the shape of the code, though, so it
can be checked: a tool function (pydantic-ai `@agent.tool`, `@agent.tool_plain`, `Tool(...)`, a
toolset's function) that returns a subprocess's output or a whole file's contents with no bound
before the return. Separately, because a cap without a marker closes the first part of the contract
and leaves exactly the defect it exists for: a bounded return (a slice, a sized read) whose function
never tells the model that the output was cut.

Codes: `BTO001` unbounded subprocess output, `BTO002` unbounded whole-file read, `BTO003` bounded
return without a truncation marker, `BTO000` a file that cannot be parsed. A `# noqa` or
`# noqa: BTO001` comment on the return line silences a finding.

```python
from observable_harness.lint import lint_source

source = '''
import subprocess
from pydantic_ai import Agent

agent = Agent('test')

@agent.tool_plain
def run_tests() -> str:
    return subprocess.run(['pytest'], capture_output=True, text=True).stdout
'''
[finding] = lint_source(source, 'tools.py')
assert str(finding).startswith('tools.py:9: BTO001')
```
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

__all__ = ['CODES', 'Finding', 'lint_paths', 'lint_source']

CODES = {
    'BTO000': 'cannot parse',
    'BTO001': "tool returns a subprocess's output without a bound",
    'BTO002': 'tool returns a whole file read without a bound',
    'BTO003': 'tool returns a bounded output without a truncation marker',
}

_SUBPROCESS_CALLS = frozenset(
    {
        'subprocess.run',
        'subprocess.check_output',
        'subprocess.getoutput',
        'subprocess.getstatusoutput',
        'subprocess.Popen',
        'os.popen',
        'asyncio.create_subprocess_exec',
        'asyncio.create_subprocess_shell',
        'anyio.run_process',
    }
)
_OPENERS = frozenset({'open', 'io.open', 'codecs.open', 'aiofiles.open', 'gzip.open', 'bz2.open', 'lzma.open'})
_WHOLE_READ_METHODS = frozenset({'read_text', 'read_bytes'})
_PASS_THROUGH_METHODS = frozenset(
    {
        'decode',
        'encode',
        'strip',
        'rstrip',
        'lstrip',
        'splitlines',
        'split',
        'replace',
        'upper',
        'lower',
        'expandtabs',
        'format',
        'communicate',
        'wait',
        'join',
    }
)
_PASS_THROUGH_CALLS = frozenset({'str', 'bytes', 'list', 'tuple', 'dict', 'repr', 'ToolReturn', 'CommandOutput'})
_BOUNDING_NAME = re.compile(
    r'truncat|bound|limit|clip|shorten|condense|excerpt|summar|offload|spill|preview|paginat|cap_|_cap\b|^cap$',
    re.IGNORECASE,
)
_MARKER_TEXT = re.compile(
    r'truncat|omitted|elided|\bcut\b|\bmore\b|remaining|not shown|\bshowing\b|\bshown\b|\blimit|…|\[\.\.\.\]|'
    r'\bof \{|\bof \d|\bfirst \{|\blast \{',
    re.IGNORECASE,
)
_TOOL_DECORATORS = frozenset({'tool', 'tool_plain'})
_TOOL_CONTAINERS = frozenset({'Tool', 'FunctionToolset', 'Agent'})
_SKIPPED_DIRS = frozenset(
    {'.venv', 'venv', '.git', '__pycache__', 'node_modules', '.tox', '.mypy_cache', 'build', 'dist'}
)
_NOQA = re.compile(r'#\s*noqa(?::\s*(?P<codes>[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*))?', re.IGNORECASE)


@dataclass(frozen=True, slots=True, order=True)
class Finding:
    """One finding, printed as `path:line: CODE message`."""

    path: str
    line: int
    code: str
    message: str

    def __str__(self) -> str:
        return f'{self.path}:{self.line}: {self.code} {self.message}'


_Resolver = Callable[[str], '_Taint | None']
"""A helper's summary by its qualified name (`pkg.shell.run`), from the other modules linted."""


@dataclass(frozen=True, slots=True)
class _Taint:
    kind: str
    """`subprocess`, `file` (contents), `handle` (an open file) or `process` (a process object)."""
    bounded: bool = False
    marked: bool = False


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f'{inner}.{node.attr}' if inner else node.attr
    return ''


def _has_marker_text(node: ast.AST) -> bool:
    for child in ast.walk(node):
        if isinstance(child, ast.Constant) and isinstance(child.value, str) and _MARKER_TEXT.search(child.value):
            return True
    return False


def _combine(taints: Iterable[_Taint | None]) -> _Taint | None:
    found = [taint for taint in taints if taint is not None and taint.kind in ('subprocess', 'file')]
    if not found:
        return None
    unbounded = [taint for taint in found if not taint.bounded]
    first = unbounded[0] if unbounded else found[0]
    return _Taint(first.kind, bounded=not unbounded, marked=any(taint.marked for taint in found))


class _FunctionScan:
    """Follows tainted values through one function body, in statement order."""

    def __init__(
        self, aliases: dict[str, str], summaries: dict[str, _Taint], external: _Resolver = lambda name: None
    ) -> None:
        self.aliases = aliases
        self.summaries = summaries
        self.external = external
        self.names: dict[str, _Taint] = {}
        self.returns: list[tuple[ast.Return, _Taint]] = []

    def qualified(self, func: ast.AST) -> str:
        dotted = _dotted(func)
        head, _, rest = dotted.partition('.')
        resolved = self.aliases.get(head, head)
        return f'{resolved}.{rest}' if rest else resolved

    def taint(self, node: ast.AST | None) -> _Taint | None:
        if node is None:
            return None
        if isinstance(node, ast.Name):
            return self.names.get(node.id)
        if isinstance(node, ast.Await):
            return self.taint(node.value)
        if isinstance(node, ast.Attribute):
            inner = self.taint(node.value)
            if inner is not None and inner.kind == 'process' and node.attr in ('stdout', 'stderr', 'output'):
                return _Taint('subprocess')
            return inner
        if isinstance(node, ast.Subscript):
            inner = self.taint(node.value)
            if inner is None:
                return None
            if isinstance(node.slice, ast.Slice):
                return replace(inner, bounded=True)
            if inner.kind == 'process':
                return _Taint('subprocess')
            return inner
        if isinstance(node, ast.Call):
            return self.call_taint(node)
        if isinstance(node, ast.JoinedStr):
            found = _combine(self.taint(value.value) for value in node.values if isinstance(value, ast.FormattedValue))
            return replace(found, marked=True) if found is not None and _has_marker_text(node) else found
        if isinstance(node, ast.BinOp):
            found = _combine((self.taint(node.left), self.taint(node.right)))
            return replace(found, marked=True) if found is not None and _has_marker_text(node) else found
        if isinstance(node, ast.IfExp):
            return _combine((self.taint(node.body), self.taint(node.orelse)))
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return _combine(self.taint(element) for element in node.elts)
        if isinstance(node, ast.Dict):
            return _combine(self.taint(value) for value in node.values)
        return None

    def call_taint(self, node: ast.Call) -> _Taint | None:
        name = self.qualified(node.func)
        short = name.rsplit('.', 1)[-1]
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
        if name in _SUBPROCESS_CALLS:
            return _Taint('subprocess' if short in ('check_output', 'getoutput', 'getstatusoutput') else 'process')
        if name in _OPENERS:
            return _Taint('handle')
        if isinstance(node.func, ast.Attribute):
            receiver = self.taint(node.func.value)
            method = node.func.attr
            if method in _WHOLE_READ_METHODS and not arguments:
                return _Taint('file')
            if receiver is not None and receiver.kind == 'handle':
                if method in ('read', 'readlines'):
                    return _Taint('file', bounded=bool(arguments))
                return None
            if receiver is not None and receiver.kind == 'process':
                if method == 'communicate':
                    return _Taint('subprocess')
                if method == 'read':
                    return _Taint('subprocess', bounded=bool(arguments))
                return receiver
            if receiver is not None and method in _PASS_THROUGH_METHODS:
                return receiver
            if method == 'join' and arguments:
                return self.taint(arguments[0])
        found = _combine(self.taint(argument) for argument in arguments)
        if _BOUNDING_NAME.search(short):
            # A helper named for bounding is trusted to cap and mark (e.g. `truncate(out)`, `condense(log)`).
            return replace(found, bounded=True, marked=True) if found is not None else None
        if short in _PASS_THROUGH_CALLS or name in ('json.loads', 'json.dumps'):
            return found
        local = self.summaries.get(short)
        return local if local is not None or name == short else self.external(name)

    def assign(self, target: ast.AST, taint: _Taint | None) -> None:
        if isinstance(target, ast.Name):
            if taint is None:
                self.names.pop(target.id, None)
            else:
                self.names[target.id] = taint
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                element_taint = taint
                if taint is not None and taint.kind == 'process':
                    element_taint = _Taint('subprocess')
                self.assign(element, element_taint)

    def run(self, body: Sequence[ast.stmt]) -> None:
        for statement in body:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            return
        if isinstance(node, ast.Assign):
            taint = self.taint(node.value)
            for target in node.targets:
                self.assign(target, taint)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self.assign(node.target, self.taint(node.value))
        elif isinstance(node, ast.AugAssign):
            self.assign(node.target, _combine((self.taint(node.target), self.taint(node.value))))
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, self.taint(item.context_expr))
            self.run(node.body)
        elif isinstance(node, ast.Return):
            taint = self.taint(node.value)
            if taint is not None and taint.kind in ('subprocess', 'file'):
                self.returns.append((node, taint))
        else:
            for field_name in ('body', 'orelse', 'finalbody', 'handlers'):
                children = getattr(node, field_name, None)
                if isinstance(children, list):
                    for child in children:  # pyright: ignore[reportUnknownVariableType]
                        if isinstance(child, ast.ExceptHandler):
                            self.run(child.body)
                        elif isinstance(child, ast.stmt):
                            self.statement(child)
            if isinstance(node, ast.Match):
                for case in node.cases:
                    self.run(case.body)


def _aliases(tree: ast.Module) -> dict[str, str]:
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f'{node.module}.{alias.name}'
    return aliases


def _functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _is_tool_decorator(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Attribute) and target.attr in _TOOL_DECORATORS


def _registered_names(tree: ast.Module) -> set[str]:
    """Functions passed to `Tool(...)`, `FunctionToolset([...])`, `Agent(tools=[...])` or `add_function`."""
    found: set[str] = set()

    def collect(node: ast.AST) -> None:
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.List | ast.Tuple | ast.Set):
            for element in node.elts:
                collect(element)
        elif isinstance(node, ast.Call) and _dotted(node.func).rsplit('.', 1)[-1] == 'Tool' and node.args:
            collect(node.args[0])

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func).rsplit('.', 1)[-1]
        if name == 'Tool':
            if node.args:
                collect(node.args[0])
            for keyword in node.keywords:
                if keyword.arg == 'function':
                    collect(keyword.value)
        elif name in _TOOL_CONTAINERS or name in ('add_function', 'add_tool'):
            if name == 'FunctionToolset' and node.args:
                collect(node.args[0])
            if name in ('add_function', 'add_tool') and node.args:
                collect(node.args[0])
            for keyword in node.keywords:
                if keyword.arg == 'tools':
                    collect(keyword.value)
    return found


def _suppressed(lines: Sequence[str], line: int, code: str) -> bool:
    if not 0 < line <= len(lines):
        return False
    match = _NOQA.search(lines[line - 1])
    if match is None:
        return False
    codes = match.group('codes')
    return codes is None or code in {c.strip().upper() for c in codes.split(',')}


@dataclass
class _Module:
    """One parsed module: its imports, its functions, and what each of its helpers returns."""

    path: str
    source: str
    tree: ast.Module
    dotted: tuple[str, ...]
    """Its path as module parts (`src/pkg/shell.py` is `src`, `pkg`, `shell`), matched from the end."""
    aliases: dict[str, str]
    functions: list[ast.FunctionDef | ast.AsyncFunctionDef]
    summaries: dict[str, _Taint]

    @classmethod
    def parse(cls, source: str, path: str) -> _Module | Finding:
        try:
            tree = ast.parse(source, filename=path)
        except SyntaxError as error:
            return Finding(path, error.lineno or 1, 'BTO000', f'{CODES["BTO000"]}: {error.msg}')
        parts = Path(path).with_suffix('').parts
        dotted = parts[:-1] if parts and parts[-1] == '__init__' else parts
        return cls(path, source, tree, tuple(dotted), _aliases(tree), list(_functions(tree)), {})

    def summarize(self, external: _Resolver) -> bool:
        """Recompute what each function returns, seeing the summaries so far; whether anything changed."""
        before = dict(self.summaries)
        for function in self.functions:
            scan = _FunctionScan(self.aliases, self.summaries, external)
            scan.run(function.body)
            combined = _combine(taint for _, taint in scan.returns)
            if combined is not None:
                self.summaries[function.name] = replace(combined, marked=combined.marked or _has_marker_text(function))
        return self.summaries != before

    def findings(self, external: _Resolver) -> list[Finding]:
        registered = _registered_names(self.tree)
        lines = self.source.splitlines()
        findings: list[Finding] = []
        for function in self.functions:
            if not (any(_is_tool_decorator(d) for d in function.decorator_list) or function.name in registered):
                continue
            scan = _FunctionScan(self.aliases, self.summaries, external)
            scan.run(function.body)
            marked = _has_marker_text(function)
            for node, taint in scan.returns:
                if not taint.bounded:
                    code = 'BTO001' if taint.kind == 'subprocess' else 'BTO002'
                    message = f'{CODES[code]} in {function.name}(): cap it and say how much was cut'
                elif not (taint.marked or marked):
                    code = 'BTO003'
                    message = (
                        f'{CODES[code]} in {function.name}(): tell the model it was cut, by how much, how to get more'
                    )
                else:
                    continue
                if not _suppressed(lines, node.lineno, code):
                    findings.append(Finding(self.path, node.lineno, code, message))
        return findings


_SUMMARY_ROUNDS = 8


def _lint_modules(modules: Sequence[_Module]) -> list[Finding]:
    """Findings in `modules`, each seeing through the helpers of the others (`from .shell import run`)."""

    def external(name: str) -> _Taint | None:
        *module, function = name.split('.')
        if not module:
            return None
        wanted = tuple(part for part in module if part)  # a relative import's dots leave empty parts
        for candidate in modules:
            if wanted and candidate.dotted[-len(wanted) :] == wanted and function in candidate.summaries:
                return candidate.summaries[function]
        return None

    # Helpers that call helpers (in this module or another) settle in a few rounds, one level of calls per
    # round; the bound keeps cycles finite.
    for _ in range(_SUMMARY_ROUNDS):
        if not any([module.summarize(external) for module in modules]):
            break
    return [finding for module in modules for finding in module.findings(external)]


def lint_source(source: str, path: str) -> list[Finding]:
    """Findings in one module's source (`path` is only what findings print)."""
    parsed = _Module.parse(source, path)
    if isinstance(parsed, Finding):
        return [parsed]
    return sorted(_lint_modules([parsed]))


def _python_files(root: Path) -> Iterator[Path]:
    if root.is_file():
        yield root
        return
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if d not in _SKIPPED_DIRS and not d.startswith('.'))
        for name in sorted(files):
            if name.endswith('.py'):
                yield Path(directory) / name


def lint_paths(paths: Iterable[str | Path]) -> list[Finding]:
    """Findings in every `.py` file under `paths` (files or directories); a missing path is a `FileNotFoundError`."""
    by_file: dict[str, list[Finding]] = {}  # in the order the files were found
    modules: list[_Module] = []
    for raw in paths:
        root = Path(raw)
        if not root.exists():
            raise FileNotFoundError(f'{raw}: no such file or directory')
        for file in _python_files(root):
            try:
                source = file.read_text(encoding='utf-8')
            except (OSError, UnicodeDecodeError) as error:
                by_file[str(file)] = [Finding(str(file), 1, 'BTO000', f'{CODES["BTO000"]}: {error}')]
                continue
            parsed = _Module.parse(source, str(file))
            by_file[str(file)] = [parsed] if isinstance(parsed, Finding) else []
            if not isinstance(parsed, Finding):
                modules.append(parsed)
    for finding in _lint_modules(modules):
        by_file[finding.path].append(finding)
    return [finding for found in by_file.values() for finding in sorted(found)]
