"""Every example in the bounded package's docstrings and in docs/bounded.md runs as written."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from types import ModuleType

import pytest

# By module path: `bounded.condense` and `bounded.offload` are also the names of re-exported functions.
MODULES: tuple[ModuleType, ...] = tuple(
    importlib.import_module(f'observable_harness.bounded{suffix}')
    for suffix in ('', '.condense', '.guard', '.levels', '.lines', '.lint', '.offload', '.retention', '.secrets')
)
DOC = Path(__file__).resolve().parents[2] / 'docs' / 'bounded.md'
_BLOCK = re.compile(r'```python\n(.*?)```', re.DOTALL)


def _examples() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for module in MODULES:
        owners: list[tuple[str, object]] = [(module.__name__, module)]
        owners += [
            (f'{module.__name__}.{name}', obj)
            for name, obj in vars(module).items()
            if inspect.isclass(obj) and obj.__module__ == module.__name__
        ]
        for where, owner in owners:
            doc = inspect.getdoc(owner) or ''
            found += [(f'{where}[{i}]', block) for i, block in enumerate(_BLOCK.findall(doc))]
    found += [(f'docs/bounded.md[{i}]', block) for i, block in enumerate(_BLOCK.findall(DOC.read_text()))]
    return found


EXAMPLES = _examples()


def test_there_are_examples_to_run() -> None:
    assert len(EXAMPLES) >= 15


@pytest.mark.parametrize(('where', 'code'), EXAMPLES, ids=[where for where, _ in EXAMPLES])
def test_example_runs(where: str, code: str) -> None:
    exec(compile(code, where, 'exec'), {'__name__': f'example_{where}'})
