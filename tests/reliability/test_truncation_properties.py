"""Truncation of any text to any budget: it fits, keeps what it promises, its marker adds up (issue 8; TOL-5, BTO-1).

For every strategy (`head`, `tail`, `head_tail`, `salient`) and every `max_chars` a `Truncate` accepts:

- the result is at most `max_chars` characters, marker included, and never raises;
- a text that fits comes back unchanged;
- positional cuts keep exactly the prefix and/or suffix the marker names, and use the budget;
- a salient cut keeps the last non-blank line whenever it fits, and shows only the original's own text
  between its markers;
- the marker's numbers add up: cut + kept = total = the text's length; for a salient cut the
  `[… N lines …]` (or `[… N records …]`) gaps plus the kept lines are all the lines, and every place
  text was left out, a run of lines or a cut inside one (`…[N chars cut]…`), is counted.

The number of examples follows the hypothesis profile (`tests/conftest.py`).
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from observable_harness._text.cut import Cut, cut_text
from observable_harness._text.preview import FINAL_LINE_CHARS
from observable_harness.tool_output_limits import Truncate, TruncationStrategy
from observable_harness.tool_output_limits._truncate import MIN_TRUNCATE_CHARS

LOG_LINES = [
    '$ make test',
    'collected 812 items',
    'tests/test_api.py::test_login PASSED [ 12%]',
    'E   AssertionError: expected 200, got 500',
    'Traceback (most recent call last):',
    '  File "app/views.py", line 42, in handler',
    'ValueError: bad request',
    'FAILED tests/test_api.py::test_logout - KeyError: 1',
    'warning: unused variable `x`',
    '=== 2 failed, 810 passed in 12.3s ===',
    'exit status 2',
    '',
    '   ',
    'Downloading package 3/17 ...',
    'x' * 500,
]
NO_NEWLINE = st.characters(blacklist_characters='\n', blacklist_categories=['Cs'])
LINE = st.one_of(
    st.sampled_from(LOG_LINES),
    st.text(alphabet=NO_NEWLINE, max_size=60),
    st.builds(
        lambda chunk, count: chunk * count, st.text(alphabet=NO_NEWLINE, min_size=1, max_size=2), st.integers(0, 900)
    ),
)
LOGS = st.builds(
    lambda lines, final: '\n'.join(lines) + final, st.lists(LINE, max_size=400), st.sampled_from(['', '\n', '\n\n'])
)
LARGE = st.builds(lambda chunk, count: chunk * count, st.text(min_size=1, max_size=8), st.integers(1_000, 250_000))
TEXTS = st.one_of(st.text(), LOGS, LARGE)
BUDGETS = st.one_of(st.integers(MIN_TRUNCATE_CHARS, 600), st.integers(MIN_TRUNCATE_CHARS, 20_000))
POSITIONAL = [TruncationStrategy.head, TruncationStrategy.tail, TruncationStrategy.head_tail]

POSITIONAL_MARKER = re.compile(
    r'\[… truncated: ([\d,]+) of ([\d,]+) chars cut, kept (?:the first ([\d,]+))?(?: and )?(?:the last ([\d,]+))?\.'
)
SALIENT_MARKER = re.compile(
    r'\[… truncated by selection: ([\d,]+) of ([\d,]+) chars cut in ([\d,]+) places?, '
    r'kept ([\d,]+) chars in ([\d,]+) of ([\d,]+) (line|record)s'
)
POSITIONAL_LINE = re.compile(r'\[… truncated: [^\n]*…\]')
GAP = re.compile(r'\[… ([\d,]+) lines? …\]')
RECORD_GAP = re.compile(r'\[… ([\d,]+) records? …\]')


def number(text: str | None) -> int:
    return int(text.replace(',', '')) if text else 0


def line_count(text: str) -> int:
    if not text:
        return 0
    return text.count('\n') + (0 if text.endswith('\n') else 1)


@given(text=TEXTS, max_chars=BUDGETS, strategy=st.sampled_from(POSITIONAL))
def test_a_positional_cut_fits_keeps_the_ends_it_names_and_adds_up(
    text: str, max_chars: int, strategy: TruncationStrategy
) -> None:
    Truncate(strategy=strategy, max_chars=max_chars)  # a budget the action accepts
    cut = cut_text(text, max_chars, strategy)
    assert len(cut.text) <= max_chars
    assert cut.kept_chars + cut.cut_chars == cut.total_chars == len(text)
    if len(text) <= max_chars:
        assert cut.text == text
        return
    assert_positional_cut(cut, text, max_chars, strategy)


def assert_positional_cut(cut: Cut, text: str, max_chars: int, strategy: TruncationStrategy) -> None:
    [marker] = POSITIONAL_MARKER.findall(cut.text)
    cut_chars, total, head, tail = (number(group) for group in marker)
    assert (cut_chars, total, head, tail) == (cut.cut_chars, len(text), cut.head_chars, cut.tail_chars)
    assert head + tail + cut_chars == total
    assert cut.text.startswith(text[:head])
    if tail:
        assert cut.text.endswith(text[len(text) - tail :])
    if strategy is TruncationStrategy.head:
        assert tail == 0
    if strategy is TruncationStrategy.tail:
        assert head == 0
    # The room the marker leaves (sized at its widest numbers) goes to text; only moving a cut to a line
    # break may give back up to a fifth of it.
    marker_line = POSITIONAL_LINE.search(cut.text)
    assert marker_line is not None
    widest = re.sub(r'\d[\d,]*', f'{total:,}', marker_line.group(0))
    room = max_chars - len(widest) - 2
    assert head + tail >= room * 4 // 5 - 2


def last_nonblank(lines: list[str]) -> tuple[int, str] | None:
    for index in range(len(lines) - 1, -1, -1):
        if lines[index].strip():
            return index, lines[index]
    return None


_WIDEST_GAP = len('[… 1,000,000,000 lines …]')


IN_LINE_CUT = re.compile(r' ?…\[([\d,]+) chars cut\]… ?|(?<=":)…(?=[,}])')
"""A cut inside a line, stated: `…[N chars cut]…`, or a record's value left out (`"email":…`)."""


@given(text=TEXTS, max_chars=BUDGETS)
def test_a_salient_cut_fits_keeps_the_last_line_and_adds_up(text: str, max_chars: int) -> None:
    Truncate(strategy=TruncationStrategy.salient, max_chars=max_chars)
    cut = cut_text(text, max_chars, TruncationStrategy.salient)
    assert len(cut.text) <= max_chars
    assert cut.kept_chars + cut.cut_chars == cut.total_chars == len(text)
    if len(text) <= max_chars:
        assert cut.text == text
        return
    if not SALIENT_MARKER.search(cut.text):
        # Too little room to choose lines among: the cut falls back to both ends, by position.
        assert_positional_cut(cut, text, max_chars, TruncationStrategy.head_tail)
        return
    marker_line, _, excerpt = cut.text.partition('\n')
    [marker] = SALIENT_MARKER.findall(marker_line)
    cut_chars, total, places, kept, kept_units, total_units = (number(group) for group in marker[:6])
    unit = marker[6]
    assert cut_chars + kept == total == len(text)
    excerpt_lines = excerpt.split('\n') if excerpt else []
    gap = GAP if unit == 'line' else RECORD_GAP
    gap_counts = [number(m.group(1)) for line in excerpt_lines if (m := gap.fullmatch(line))]
    shown_lines = [line for line in excerpt_lines if not gap.fullmatch(line)]
    in_line_cuts = sum(len(IN_LINE_CUT.findall(line)) for line in shown_lines)
    # Every place text was left out is stated: a run of lines (records) or a cut inside one.
    assert len(gap_counts) + in_line_cuts == places
    assert sum(gap_counts) + kept_units == total_units
    assert all(count > 0 for count in gap_counts)
    # What is shown is the original's own text, between the cut markers.
    for line in shown_lines:
        assert all(piece in text for piece in IN_LINE_CUT.split(line)[::2])
    if unit == 'line':
        assert total_units == line_count(text)
        assert len(shown_lines) == kept_units

    lines = text.split('\n')
    if text.endswith('\n'):
        lines.pop()
    last = last_nonblank(lines)
    if unit != 'line' or last is None:
        return
    # The last line (a result, an exit status) is kept whenever there is room for it and its gap markers,
    # cut in the middle if it is long.
    widest = re.sub(r'\d[\d,]*', f'{total:,}', marker_line)
    room = max_chars - len(widest) - 1
    if room - 2 * (_WIDEST_GAP + 1) >= min(len(last[1]), FINAL_LINE_CHARS):
        head = last[1][: min(len(last[1]), 20)]
        assert any(line.startswith(head) for line in shown_lines)


@given(
    size=st.integers(1, 12_000_000),
    chunk=st.sampled_from(['x', 'error: disk full\n', 'ok\n', 'ü漢🙂']),
    max_chars=st.integers(MIN_TRUNCATE_CHARS, 1_000),
    strategy=st.sampled_from(list(TruncationStrategy)),
)
def test_the_marker_fits_the_smallest_budget_whatever_size_it_states(
    size: int, chunk: str, max_chars: int, strategy: TruncationStrategy
) -> None:
    """A huge output states huge numbers; the marker must still fit the smallest budget a Truncate accepts."""
    text = (chunk * (size // len(chunk) + 1))[:size]
    cut = cut_text(text, max_chars, strategy)
    assert len(cut.text) <= max_chars
    assert cut.kept_chars + cut.cut_chars == size
