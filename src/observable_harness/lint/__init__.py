"""`observable-harness lint`: tool functions that return unbounded or unmarked output, found by following values.

An unbounded tool return is a silent defect: no error, nothing in a log; it surfaces later as a full
context window or a wrong decision. It shows in the code, though. The linter follows output from where
it is produced (a subprocess or other process, a file read in any spelling, a container's `exec_run`,
GitPython, a document converter, a web page from a URL the model chose, or a source you configure)
through assignments, attributes, conditional expressions, comprehensions, tuples, wrapper objects, thread
and executor hand-offs, and the helpers, methods and modules it calls within the paths linted, to every
return of every tool function.

- `BTO001` a command's output returned without a bound; `BTO002` a whole file's (document's, web page's)
  contents returned without a bound; `BTO003` output cut to a fixed size with nothing telling the model
  it was cut; `BTO000` a file that cannot be parsed. `explain(code)` says what each means and how to fix it.
- A bound is a cap on size on the path to the return: a slice with a size, a sized read, a loop that
  stops at a count, a guard that compares the length (or a file's size) to a limit, this project's
  `condense`/`offload`, or `ToolOutputLimits()` on the agent the tool is registered with.
- A marker is text that reaches the model on the cut path and says it was cut (f-strings included).
- `# noqa: BTO001` on the return line silences one finding.

```python
from observable_harness.lint import lint_source

source = '''
import subprocess
from pydantic_ai import Agent

agent = Agent('test')

@agent.tool_plain
def run_tests() -> str:
    proc = subprocess.run(['pytest'], capture_output=True, text=True)
    return proc.stdout
'''
[finding] = lint_source(source, 'tools.py')
assert str(finding) == (
    'tools.py:10: BTO001 run_tests(): output of subprocess.run (line 9) returned without a bound'
)
```
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from ._analysis import Finding, lint_modules, tools_of
from ._codes import CODES, Code, explain
from ._config import ConfigError, LintConfig, find_config, load_config
from ._project import FunctionInfo, Module

__all__ = [
    'CODES',
    'Code',
    'ConfigError',
    'Finding',
    'LintConfig',
    'explain',
    'find_config',
    'lint_paths',
    'lint_source',
    'load_config',
]

_SKIPPED_DIRS = frozenset(
    {'.venv', 'venv', '.git', '__pycache__', 'node_modules', '.tox', '.mypy_cache', 'build', 'dist'}
)


def _parse(source: str, path: str) -> Module | Finding:
    try:
        return Module.parse(source, path)
    except SyntaxError as error:
        return Finding(path, error.lineno or 1, 'BTO000', f'cannot parse: {error.msg}')
    except ValueError as error:  # null bytes in the source
        return Finding(path, 1, 'BTO000', f'cannot parse: {error}')


def lint_source(source: str, path: str, config: LintConfig | None = None) -> list[Finding]:
    """Findings in one module's source (`path` is only what findings print)."""
    parsed = _parse(source, path)
    if isinstance(parsed, Finding):
        return [parsed]
    return sorted(lint_modules([parsed], config or LintConfig()))


def _python_files(root: Path) -> Iterator[Path]:
    if root.is_file():
        yield root
        return
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if d not in _SKIPPED_DIRS and not d.startswith('.'))
        for name in sorted(files):
            if name.endswith('.py'):
                yield Path(directory) / name


def lint_paths(paths: Iterable[str | Path], config: LintConfig | None = None) -> list[Finding]:
    """Findings in every `.py` file under `paths` (files or directories), linted together so that a tool's
    helpers in other modules are followed; a missing path is a `FileNotFoundError`."""
    by_file: dict[str, list[Finding]] = {}  # in the order the files were found
    modules: list[Module] = []
    tools: dict[str, list[FunctionInfo]] = {}
    for raw in paths:
        root = Path(raw)
        if not root.exists():
            raise FileNotFoundError(f'{raw}: no such file or directory')
        for file in _python_files(root):
            try:
                source = file.read_text(encoding='utf-8')
            except (OSError, UnicodeDecodeError) as error:
                by_file[str(file)] = [Finding(str(file), 1, 'BTO000', f'cannot read: {error}')]
                continue
            parsed = _parse(source, str(file))
            by_file[str(file)] = [parsed] if isinstance(parsed, Finding) else []
            if not isinstance(parsed, Finding):
                modules.append(parsed)
                tools[parsed.path] = tools_of(parsed)
                if not tools[parsed.path]:
                    parsed.release()  # read again only if a tool's helper lives here: most files of a large tree
    for finding in lint_modules(modules, config or LintConfig(), tools):
        by_file[finding.path].append(finding)
    return [finding for found in by_file.values() for finding in sorted(found)]
