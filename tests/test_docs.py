"""Documentation cannot rot: every example in the README, in docs/, and in every docstring runs as written.

`>>>` examples run as doctests; fenced ```python blocks run as scripts. Examples that install global
OpenTelemetry providers (`configure(`) run in a child process, so they cannot fight the in-memory
harness this test session holds. Examples naming a real provider get a dummy key (they only build
agents; none sends a request).
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import os
import pkgutil
import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

import observable_harness

ROOT = Path(__file__).resolve().parents[1]
_BLOCK = re.compile(r'```python\n(.*?)```', re.DOTALL)


def _modules() -> list[ModuleType]:
    names = [observable_harness.__name__] + [
        info.name
        for info in pkgutil.walk_packages(observable_harness.__path__, prefix=f'{observable_harness.__name__}.')
        if not info.name.endswith('__main__')
    ]
    return [importlib.import_module(name) for name in sorted(names)]


MODULES = _modules()


def _docstring_blocks() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for module in MODULES:
        owners: list[tuple[str, object]] = [(module.__name__, module)]
        for name, obj in vars(module).items():
            if (inspect.isclass(obj) or inspect.isfunction(obj)) and getattr(
                obj, '__module__', None
            ) == module.__name__:
                owners.append((f'{module.__name__}.{name}', obj))
        for where, owner in owners:
            doc = inspect.getdoc(owner) or ''
            found += [(f'{where}[{i}]', textwrap.dedent(block)) for i, block in enumerate(_BLOCK.findall(doc))]
    return found


def _document_blocks() -> list[tuple[str, str]]:
    documents = [ROOT / 'README.md', *sorted((ROOT / 'docs').glob('*.md'))]
    return [
        (f'{path.relative_to(ROOT)}[{i}]', block)
        for path in documents
        for i, block in enumerate(_BLOCK.findall(path.read_text(encoding='utf-8')))
    ]


BLOCKS = _document_blocks() + _docstring_blocks()
DOCTESTS = [
    test for module in MODULES for test in doctest.DocTestFinder(exclude_empty=True).find(module) if test.examples
]


@pytest.fixture
def provider_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ('OPENAI_API_KEY', 'ANTHROPIC_API_KEY'):
        monkeypatch.setenv(variable, 'sk-dummy-for-construction-only')


def test_the_public_surface_carries_examples() -> None:
    documented = {where.rsplit('[', 1)[0] for where, _ in BLOCKS}
    for public in (
        'README.md',
        'observable_harness.tool_output_limits._capability.ToolOutputLimits',
        'observable_harness.tool_output_limits._bands.Band',
        'observable_harness.tool_output_limits._spill.Spill',
        'observable_harness.tool_output_limits._truncate.Truncate',
        'observable_harness.tool_output_limits._summarize.Summarize',
        'observable_harness.storage._local.LocalFileStore',
        'observable_harness.storage._object.ObjectStore',
        'observable_harness.system_reminders._capability.SystemReminders',
        'observable_harness.system_reminders._reminders.Reminder',
        'observable_harness.telemetry._instruments.Instrumentation',
        'observable_harness.otel_setup.Telemetry',
    ):
        assert public in documented, public


@pytest.mark.usefixtures('provider_keys')
@pytest.mark.parametrize(('where', 'code'), BLOCKS, ids=[where for where, _ in BLOCKS])
def test_example_runs(where: str, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Examples make their stores with tempfile.mkdtemp(); keep those under this test's own directory.
    monkeypatch.setattr(tempfile, 'tempdir', str(tmp_path))
    if 'configure(' in code:
        completed = subprocess.run(
            [sys.executable, '-c', code],
            cwd=tmp_path,
            env={**os.environ, 'TMPDIR': str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert completed.returncode == 0, completed.stderr[-2000:]
        return
    exec(compile(code, where, 'exec'), {'__name__': f'example_{where}'})


@pytest.mark.parametrize('test', DOCTESTS, ids=[test.name for test in DOCTESTS])
def test_doctest(test: doctest.DocTest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, 'tempdir', str(tmp_path))
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f'{test.name}: {runner.failures} failing example(s); run with -s to see them'
