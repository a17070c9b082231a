"""The README's system-reminders example and every public class's docstring example run as written."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from observable_harness.system_reminders import GoalReanchor, LLMReminder, Reminder, SystemReminders

_FENCE = re.compile(r'```python\n(.*?)```', re.DOTALL)
_README = Path(__file__).resolve().parents[2] / 'README.md'


def _readme_section() -> str:
    text = _README.read_text()
    start = text.index('## System reminders')
    end = text.find('\n## ', start + 1)
    return text[start : end if end != -1 else None]


SOURCES: list[tuple[str, str]] = [('README', _readme_section())] + [
    (cls.__name__, inspect.getdoc(cls) or '') for cls in (SystemReminders, Reminder, GoalReanchor, LLMReminder)
]
EXAMPLES = [
    pytest.param(code, id=f'{source}-{index}')
    for source, text in SOURCES
    for index, code in enumerate(_FENCE.findall(text))
]


def test_every_public_class_and_the_readme_carry_an_example() -> None:
    assert all(_FENCE.search(text) for _, text in SOURCES), [
        source for source, text in SOURCES if not _FENCE.search(text)
    ]


@pytest.mark.parametrize('code', EXAMPLES)
def test_example_runs(code: str) -> None:
    exec(compile(code, '<example>', 'exec'), {'__name__': '__example__'})
