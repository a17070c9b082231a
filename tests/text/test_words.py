"""Lines cut by their middle: the cut is stated, and with `snap` it does not split a word near its edge."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from observable_harness._text.words import SNAP_CHARS, shorten_middle

_CUT = re.compile(r' …\[([\d,]+) chars cut\]… ')


def test_a_snapped_cut_keeps_the_version_and_the_file_name_it_would_split() -> None:
    row = 'mocha    11.8.0    11.8.0   12.0.3  node_modules/mocha    body-parser    ' + ' ' * 40 + 'x' * 40
    plain, _ = shorten_middle(row, 64, head_share=0.75)
    snapped, _ = shorten_middle(row, 64, head_share=0.75, snap=True)
    assert '12.0. ' in plain
    assert '12.0.3 …[' in snapped
    command = ' 5618 app  0.2  7.5 1855780 Wed Dec  2 19:59:37 2026  python /srv/app/jobs/report_builder.py'
    command += ' --budget-mb 1800'
    assert shorten_middle(command, 72, head_share=0.5)[0].endswith('… builder.py --budget-mb 1800')
    assert shorten_middle(command, 72, head_share=0.5, snap=True)[0] == (
        ' 5618 app  0.2  7.5 1855780 …[48 chars cut]… report_builder.py --budget-mb 1800'
    )


@given(st.text(alphabet=st.sampled_from('ab/. \t0123456789é'), max_size=400), st.integers(min_value=0, max_value=300))
def test_a_cut_states_what_it_cut_and_a_snapped_one_runs_at_most_a_few_words_over(line: str, limit: int) -> None:
    for snap in (False, True):
        shown, kept = shorten_middle(line, limit, head_share=0.75, snap=snap)
        cut = _CUT.search(shown)
        if cut is None:
            assert shown == line and kept == len(line)
            continue
        assert kept + int(cut.group(1).replace(',', '')) == len(line)
        assert line.startswith(shown[: cut.start()]) and line.endswith(shown[cut.end() :])
        assert len(shown) <= max(limit, len(cut.group(0)) + 2) + (2 * SNAP_CHARS if snap else 0)
