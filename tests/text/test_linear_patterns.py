"""Patterns read along a line answer what their plain forms did, in time linear in the line.

Tool output holds long runs of one character (padding spaces, rules of dashes, rows of colons). A pattern whose
quantifiers can split such a run many ways tries every split before it fails: the cost grows with the square or
the cube of the run. Each test pins a form kept linear to the plain form it replaced, on generated text, and
reads a run long enough that the plain form would not finish in minutes.
"""

from __future__ import annotations

import math
import re

from hypothesis import given
from hypothesis import strategies as st

from observable_harness._text.preview import select_preview
from observable_harness._text.shapes import (
    _CODE_STYLES,
    _SIZE_UNITS,
    TextView,
    _aligned_columns,
    _code_style,
    _column_reader,
    _number,
    _pytest_line,
    is_rule,
    row_fields,
)

_PLAIN_RULE = re.compile(r'\s*[-=+|: ]*[-=]{3,}[-=+|: ]*\s*$')
_PLAIN_PYTEST = re.compile(
    r'\S+::\S+ (?:PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)|=+ test session starts =+|^[\w./-]+\.py::\w'
)


@given(st.text(alphabet='-=+|: \t\n\u00a0xQ', max_size=24))
def test_a_rule_is_what_the_plain_pattern_called_one(line: str) -> None:
    assert is_rule(line) == (_PLAIN_RULE.match(line) is not None)


def test_a_padded_title_and_a_rule_ending_in_a_word_are_read_in_one_pass() -> None:
    # The plain pattern took 0.13 ms for a 268-character title padded with spaces (psql's `QUERY PLAN` header) and
    # 69 ms for 260 dashes and a word; these runs would take it hours.
    assert not is_rule(' ' * 20_000 + 'QUERY PLAN' + ' ' * 20_000)
    assert not is_rule('-' * 20_000 + ' x')
    assert is_rule('-' * 20_000 + '+' + '-' * 20_000)


_TEST_LINE_PARTS = st.sampled_from(
    [':', '::', 'a', ' ', 'PASSED', 'FAILED', '.py', '=', ' test session starts ', '\n', '[1-2]', 'tests/t']
)


@given(st.lists(_TEST_LINE_PARTS, max_size=12).map(''.join))
def test_a_pytest_line_is_what_the_plain_pattern_found(line: str) -> None:
    if '::' in line or ' test session starts ' in line:
        assert _pytest_line(line) == (_PLAIN_PYTEST.search(line) is not None)


def test_a_long_run_of_colons_is_no_pytest_line_and_costs_one_pass() -> None:
    assert not _pytest_line(':' * 20_000 + ' x')
    assert _pytest_line('tests/test_app.py::test_login[' + 'x' * 20_000 + '] PASSED [ 10%]')


def _plain_number(field: str) -> float | None:
    try:
        return float(field)
    except ValueError:
        pass
    tokens = field.split()
    scale = 1.0
    if len(tokens) >= 2 and (unit := _SIZE_UNITS.get(tokens[-1])) is not None:
        scale = unit
        tokens = tokens[:-1]
    field = tokens[-1].rstrip('%').split('/')[0].replace(',', '') if tokens else ''
    if not field:
        return None
    sized = re.fullmatch(r'(\d+(?:\.\d+)?)([A-Za-z]+)', field)
    if scale == 1.0 and sized is not None and sized.group(2) in _SIZE_UNITS and sized.group(2) != 'bytes':
        return float(sized.group(1)) * _SIZE_UNITS[sized.group(2)]  # a size written with its unit: `64.00M`
    try:
        return float(field) * scale
    except ValueError:
        return None


_CELL_PARTS = st.sampled_from(
    [
        *'0123456789.,-+%/ eE(x\t',
        'kB',
        ' MB',
        'nan',
        'NaN ',
        'inf',
        'Infinity',
        '1_000',
        '\u0661',
        '\u00a0',
        'Sort',
        'import time:',
    ]
)


@given(st.lists(_CELL_PARTS, max_size=8).map(''.join))
def test_a_cell_reads_as_the_number_it_did_when_every_cell_was_tried(field: str) -> None:
    # Cells that cannot open a number are no longer handed to `float` (a failed try raises, which costs more than
    # reading the cell): what a cell reads as is unchanged.
    expected, found = _plain_number(field), _number(field)
    if expected is None or found is None:
        assert expected is found
    else:
        assert found == expected or (math.isnan(found) and math.isnan(expected))


@given(
    st.lists(st.lists(st.sampled_from(['12', ' 3.5 ', 'x y', '', '7 kB', ' ']), max_size=6), min_size=1, max_size=6),
    st.sampled_from([' ', '|', ',', '\t']),
    st.integers(min_value=0, max_value=5),
)
def test_a_column_is_read_as_from_every_field_of_a_row(cells: list[list[str]], delimiter: str, column: int) -> None:
    rows = [delimiter.join(row) for row in cells]
    split = [row_fields(row, delimiter) for row in rows]
    expected = [_number(fields[column]) if len(fields) > column else None for fields in split]
    assert _column_reader(delimiter, column)(rows) == expected


def test_a_plan_whose_title_is_padded_to_the_width_of_its_lines_is_previewed_in_one_pass() -> None:
    # psql pads `QUERY PLAN` to the plan's widest line: forty such headers in the lines read, each tried as a rule.
    width = 4_000
    plan = [' QUERY PLAN '.center(width), '-' * width]
    node = '   ->  Seq Scan on events_{0}  (cost=0.00..{0}.00 rows={0} width=8) (actual rows={0} loops=1)'
    plan += [node.format(i) for i in range(3000)]
    text = '\n'.join(plan) + '\n'
    preview = select_preview(text, 1_000)
    assert 'QUERY PLAN' in preview.text
    assert preview.kept_chars + preview.cut_chars == len(text)


_DIAGNOSTIC_PIECES = st.sampled_from(
    [
        *(' ', '\n', '\t', 'x', 'a.b', ':12:', ':3:4: ', 'E501', 'TS2322', 'error', 'warning', 'error ', 'warning '),
        *(' [', '[', ']', '  [', 'ref.doc', 'nullPointer', '-Wall', 'error[E0308]', 'warning[E0599]', 'F401 '),
        *('^-- ', '^--^ ', 'SC2086 (info): ', '>> Issue: [B101:', ' ==> ', 'a.b.c', '\n\n'),
    ]
)


@given(st.lists(_DIAGNOSTIC_PIECES, max_size=30).map(''.join))
def test_a_census_of_codes_finds_what_each_styles_plain_pattern_finds(text: str) -> None:
    # The census runs a form opening with a literal over the whole text (the regex engine skips to it), where the
    # plain pattern opens with `^`, `\s*` or a look-behind and is tried at every character.
    for style in _CODE_STYLES:
        assert style.census(text) == style.pattern.findall(text), style.token


@given(st.lists(_DIAGNOSTIC_PIECES.filter(lambda piece: '\n' not in piece), max_size=12).map(''.join))
def test_a_line_holds_a_code_where_each_styles_plain_pattern_finds_one(line: str) -> None:
    for style in _CODE_STYLES:
        assert style.holds(line) == (style.pattern.search(line) is not None), style.token


def _plain_columns(lines: list[str]) -> list[tuple[int, int]]:
    width = max(map(len, lines))
    used = 0
    for line in lines:
        used |= int(re.sub(r'\s', '0', re.sub(r'\S', '1', line)).ljust(width, '0'), 2)
    columns = [found.span() for found in re.finditer('1+', format(used, f'0{width}b'))]
    if columns:
        columns[-1] = (columns[-1][0], 1 << 30)
    return columns


@given(st.lists(st.text(alphabet=' \t\x0b\x1c\x1fab1\u00e9|', min_size=1, max_size=14), min_size=1, max_size=5))
def test_an_aligned_tables_columns_are_where_the_plain_marks_put_them(lines: list[str]) -> None:
    # ASCII rows are marked with one `bytes.translate` each, rows outside ASCII as before, by two substitutions.
    assert _aligned_columns(lines) == _plain_columns(lines)


_FINDINGS = st.sampled_from(
    [
        'src/app.py:12: error: Name "x" is not defined  [name-defined]',
        'src/app.py:3:1: F401 `os` imported but unused',
        "pl/compat.lua:24:24: (W113) accessing undefined variable 'loadstring'",
        'lib/x.rb:76:13: W: Lint/EnsureReturn: Do not return from an ensure block.',
        '/usr/share/perl5/Dpkg/Lock.pm:40:5: [BuiltinFunctions::ProhibitStringyEval] Expression form of "eval"',
        'conf/base.yml:207:16: [error] too many spaces after colon (colons)',
        'pkg/x_test.go:135:18: call of assert.Equal copies lock value',
        '    ^-- SC2086 (info): Double quote to prevent globbing and word splitting.',
        'plain text between findings',
        '',
    ]
)


@given(lines=st.lists(_FINDINGS, min_size=1, max_size=60))
def test_the_code_style_read_with_early_stops_is_the_style_most_lines_hold(lines: list[str]) -> None:
    # The style whose codes most lines read show (the first in order among equals): each style stops reading once it
    # cannot pass the best so far, which must not change which style that is.
    view = TextView('\n'.join(lines))
    spans: list[tuple[int, int]] = []
    start = 0
    for line in lines:
        spans.append((start, start + len(line)))
        start += len(line) + 1
    counts = [sum(1 for line in lines if style.holds(line)) for style in _CODE_STYLES]
    best = max(range(len(counts)), key=lambda index: (counts[index], -index))
    chosen = _code_style(view, spans)
    if counts[best] == 0:
        assert chosen is None
    elif chosen is not None:  # a style on too few of the findings read is no style of the tool's (None)
        assert chosen is _CODE_STYLES[best]
