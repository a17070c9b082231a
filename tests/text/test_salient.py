"""Salient excerpts account for every line they leave out, blank ones included (BTO-1, BTO-5)."""

from __future__ import annotations

import re

import pytest

from observable_harness._text.salient import salient_excerpt

GAP = re.compile(r'\[… ([\d,]+) lines? …\]')


@pytest.mark.parametrize(
    'text',
    [
        pytest.param('x' * 300 + '\nresult: ok\n\n', id='blank-last-line'),
        pytest.param('$ make\n\nok\n' + 'x' * 300 + '\nexit status 1', id='blank-line-after-the-first-line'),
        pytest.param('ERROR: one\n\nERROR: two\n' + 'y' * 300, id='blank-line-between-kept-lines'),
    ],
)
def test_a_blank_line_left_out_is_counted_in_a_gap(text: str) -> None:
    excerpt = salient_excerpt(text, 200)
    lines = excerpt.text.split('\n')
    gaps = [int(m.group(1).replace(',', '')) for line in lines if (m := GAP.fullmatch(line))]
    assert sum(gaps) + excerpt.kept_lines == excerpt.total_lines
    assert len(lines) - len(gaps) == excerpt.kept_lines
