"""Every real capture the tests hold is previewed without an error, within its budget, its numbers adding up.

A digest that raises on a shape it was not written for would show up in a spill as a cut by position (the spill
falls back) and nowhere else: here it fails. Each capture is previewed at two budgets, without intent and with a
request whose words are common in tool output, so the digests a request brings run too.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from observable_harness._text.intent import Intent
from observable_harness._text.preview import select_preview

_DATA = Path(__file__).resolve().parents[1] / 'data'
_CAPTURES = sorted(
    path for path in _DATA.rglob('*') if path.is_file() and path.suffix in ('.txt', '.gz', '.log', '.csv', '.out')
)
_REQUEST = Intent.gather(
    args={'command': 'make test 2>&1 | tee build.log'},
    text='I will run the build and its tests and look at what failed.',
    prompt='Why does the build fail, and which file takes the most time? Show me the largest ones and the errors.',
)


def _text(path: Path) -> str:
    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == '.gz' else data).decode('utf-8', 'surrogateescape')


@pytest.mark.parametrize('path', _CAPTURES, ids=lambda path: path.name)
def test_every_capture_is_previewed_within_its_budget(path: Path) -> None:
    text = _text(path)
    for budget in (600, 1_000):
        for intent in (None, _REQUEST):
            preview = select_preview(text, budget, intent=intent)
            assert len(preview.text) <= budget
            assert preview.kept_chars + preview.cut_chars == len(text)


def test_the_captures_are_found() -> None:
    assert len(_CAPTURES) >= 60
