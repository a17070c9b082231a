"""Paging a stored payload: rows, pages, and the text a read shows the model.

The stored payload is decoded as UTF-8 and split on `\\n` only (never `str.splitlines`, which also
breaks on U+2028, U+0085 and friends and would shift every offset a serializer promised). A physical
line longer than `ROW_WIDTH` characters is cut into several *rows*, so a payload that is one
enormous line (compact JSON) still pages. `offset` and `limit` count rows.

`paginate` returns a structured `Page`; `render_page` turns it into the text the model sees, where
each row is `<offset>\\t<text>` and `<offset>↩\\t<text>` marks a row whose line continues on the
next row. Paging from offset 0 until `Page.next_offset` is `None` and joining `Row.raw` gives the
stored text back exactly, and the rendering carries the same information, so a reader of the tool's
output can do the same.

Every call is bounded whatever the model passes: `offset >= 0`, `limit` clamped to `MAX_LIMIT` rows,
the page cut at `MAX_OUTPUT_CHARS` characters (with a marker saying how to continue), `pattern` a
literal, case-sensitive substring of at most `MAX_PATTERN_CHARS` characters (never a regex, so no
catastrophic backtracking).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from .words import plural

__all__ = [
    'CONTINUES',
    'DEFAULT_LIMIT',
    'MAX_LIMIT',
    'MAX_OUTPUT_CHARS',
    'MAX_PATTERN_CHARS',
    'READ_TOOL_NAME',
    'ROW_WIDTH',
    'Grid',
    'Page',
    'Row',
    'decode',
    'echo_handle',
    'page_of',
    'paginate',
    'render_page',
]

READ_TOOL_NAME = 'read_tool_result'
"""The read tool's default name."""

DEFAULT_LIMIT = 200
MAX_LIMIT = 500
"""Rows per call, whatever `limit` asks for."""
MAX_OUTPUT_CHARS = 20_000
"""Characters of rows (labels included) per call; a page stops early, with a marker, to stay under."""
ROW_WIDTH = 2_000
"""Longest row: a longer line is cut into several rows, so no single row blows the character cap."""
MAX_PATTERN_CHARS = 200

_ECHO_CHARS = 80
_REASON_CHARS = 200
CONTINUES = '↩'
"""After a row number: the line goes on in the next row."""


# --- paging --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a stored payload: a whole line, or one piece of a line longer than the row width."""

    index: int
    """0-based position among all rows: the `offset` that starts a page at this row."""
    line: int
    """1-based physical line (`\\n`-separated) the row belongs to."""
    text: str
    """The row's characters, without any `\\n`."""
    continues: bool
    """The next row continues the same line (no line break between the two)."""
    newline: bool
    """A `\\n` follows this row in the payload (false for a continued row and for a last line without one)."""

    @property
    def raw(self) -> str:
        """The payload characters this row stands for: joining `raw` over all rows rebuilds the payload."""
        return self.text + '\n' if self.newline else self.text


@dataclass(frozen=True, slots=True)
class Page:
    """The rows one read returns, and where they sit in the whole payload."""

    rows: tuple[Row, ...]
    """In payload order, also when reading from the end."""
    offset: int
    limit: int
    """Effective limit, after clamping."""
    from_end: bool
    selected: int
    """Rows the offset counts over: all rows, or with a pattern the matching ones."""
    total_rows: int
    total_lines: int
    total_chars: int
    matched_lines: int | None
    """With a pattern: lines that contain it (`None` without one)."""
    next_offset: int | None
    """The offset that continues in the same direction, `None` when nothing is left that way."""
    capped: bool
    """The character cap ended the page before `limit` rows."""
    final_newline: bool
    """The payload ends with `\\n`."""

    @property
    def remaining(self) -> int:
        """Selected rows beyond this page, in the reading direction."""
        return max(0, self.selected - self.offset - len(self.rows))


class Grid:
    """The row layout of one payload: lines, and the index of each line's first row."""

    __slots__ = ('final_newline', 'lines', 'starts', 'width')

    def __init__(self, text: str, width: int) -> None:
        self.width = width
        lines = text.split('\n') if text else []
        self.final_newline = bool(lines) and lines[-1] == ''
        if self.final_newline:
            lines.pop()
        self.lines = lines
        lengths = list(map(len, lines))
        self.starts: Sequence[int]
        if not lengths or max(lengths) <= width:
            # The usual case, one row per line: a range indexes and bisects like the list, for free.
            self.starts = range(len(lines) + 1)
        else:
            self.starts = list(accumulate((-(-length // width) or 1 for length in lengths), initial=0))

    @property
    def total(self) -> int:
        return self.starts[-1]

    def row(self, index: int) -> Row:
        number = bisect_right(self.starts, index) - 1
        piece = index - self.starts[number]
        last_piece = index == self.starts[number + 1] - 1
        is_last_line = number == len(self.lines) - 1
        return Row(
            index=index,
            line=number + 1,
            text=self.lines[number][piece * self.width : (piece + 1) * self.width],
            continues=not last_piece,
            newline=last_piece and (not is_last_line or self.final_newline),
        )

    def matches(self, pattern: str) -> tuple[list[int], int]:
        """Indices of rows overlapping an occurrence of `pattern` (whole-line search), and matching lines."""
        rows: list[int] = []
        lines = 0
        width, size = self.width, len(pattern)
        for number, line in enumerate(self.lines):
            if pattern not in line:
                continue
            lines += 1
            base = self.starts[number]
            if self.starts[number + 1] - base == 1:
                rows.append(base)
                continue
            position = line.find(pattern)
            while position != -1:
                first, last = position // width, (position + size - 1) // width
                for piece in range(first, last + 1):
                    if not rows or rows[-1] < base + piece:
                        rows.append(base + piece)
                # The next occurrence worth finding is the first that reaches past the last marked piece.
                position = line.find(pattern, max(position + 1, (last + 1) * width - size + 1))
        return rows, lines


def paginate(
    text: str,
    *,
    offset: int = 0,
    limit: int = DEFAULT_LIMIT,
    from_end: bool = False,
    pattern: str | None = None,
    width: int = ROW_WIDTH,
    max_chars: int = MAX_OUTPUT_CHARS,
    max_limit: int = MAX_LIMIT,
) -> Page:
    """The page of `text` a read with these arguments returns. Pure; `ValueError` on a negative offset.

    `limit` is clamped to `1..max_limit`. With `from_end`, `offset` counts back from the last row and
    the page keeps the rows nearest that end when the character cap bites. With `pattern`, only rows
    overlapping a literal occurrence count (the search runs over whole lines, so a match that straddles
    two rows selects both).
    """
    if width < 1:
        raise ValueError(f'width must be >= 1, got {width}')
    return page_of(
        Grid(text, width),
        len(text),
        offset=offset,
        limit=limit,
        from_end=from_end,
        pattern=pattern,
        max_chars=max_chars,
        max_limit=max_limit,
    )


def page_of(
    grid: Grid,
    total_chars: int,
    *,
    offset: int,
    limit: int,
    from_end: bool,
    pattern: str | None,
    max_chars: int,
    max_limit: int,
) -> Page:
    if offset < 0:
        raise ValueError(f'offset must be >= 0, got {offset}')
    limit = min(max(limit, 1), max_limit)
    selection: Sequence[int]
    matched_lines: int | None = None
    if pattern:
        selection, matched_lines = grid.matches(pattern)
    else:
        selection = range(grid.total)
    count = len(selection)
    if from_end:
        high = count - offset
        positions = range(high - 1, max(0, high - limit) - 1, -1)
    else:
        positions = range(offset, min(count, offset + limit))
    rows: list[Row] = []
    budget = max_chars
    capped = False
    for position in positions:
        row = grid.row(selection[position])
        cost = len(row.text) + len(str(row.index)) + len(CONTINUES) + 2
        if rows and cost > budget:
            capped = True
            break
        budget -= cost
        rows.append(row)
    if from_end:
        rows.reverse()
    consumed = offset + len(rows)
    return Page(
        rows=tuple(rows),
        offset=offset,
        limit=limit,
        from_end=from_end,
        selected=count,
        total_rows=grid.total,
        total_lines=len(grid.lines),
        total_chars=total_chars,
        matched_lines=matched_lines,
        next_offset=consumed if rows and consumed < count else None,
        capped=capped,
        final_newline=grid.final_newline,
    )


# --- rendering -----------------------------------------------------------------------------------


def echo_handle(handle: str) -> str:
    """A handle quoted back to the model, cut short if it is long (it may be text pasted by mistake)."""
    return repr(handle if len(handle) <= _ECHO_CHARS else handle[:_ECHO_CHARS] + '…')


def render_page(
    page: Page,
    *,
    handle: str,
    pattern: str | None = None,
    requested_limit: int | None = None,
    read_tool_name: str = READ_TOOL_NAME,
    lossy_decode: bool = False,
) -> str:
    """The text the model receives for `page`: a header, one line per row, and a footer on how to go on."""

    def call(offset: int) -> str:
        extra = (', from_end=True' if page.from_end else '') + (f', pattern={pattern!r}' if pattern else '')
        return f'{read_tool_name}(handle={handle!r}, offset={offset}{extra})'

    notes: list[str] = []
    if requested_limit is not None and requested_limit != page.limit:
        notes.append(
            f'limit {requested_limit:,} was {"lowered" if requested_limit > page.limit else "raised"} to {page.limit}'
        )
    if lossy_decode:
        notes.append('the stored bytes are not valid UTF-8; undecodable bytes are shown as U+FFFD')
    if any(row.continues for row in page.rows):
        notes.append(f'"{CONTINUES}" after a row number: the line continues on the next row')
    note = f'; {"; ".join(notes)}' if notes else ''
    kind = 'matching rows' if pattern else 'rows'
    size = f'{plural(page.total_lines, "line")}, {plural(page.total_chars, "char")}'

    if page.total_rows == 0:
        return f'[{handle!r} holds an empty output{note}]'
    if pattern and page.selected == 0:
        return (
            f'[{handle!r}: no line contains {pattern!r} ({plural(page.total_lines, "line")} searched; the pattern is '
            f'literal text and case-sensitive){note}]'
        )
    if not page.rows:
        return (
            f'[{handle!r}: offset {page.offset:,} is past the end: there {"is" if page.selected == 1 else "are"} '
            f'{plural(page.selected, kind[:-1])}'
            f'{" counted from the end" if page.from_end else ""}. Use an offset below {page.selected:,}{note}]'
        )

    first, last = page.rows[0].index, page.rows[-1].index
    if pattern:
        start = page.selected - page.offset - len(page.rows) if page.from_end else page.offset
        header = (
            f'[{handle!r}: {plural(page.selected, "row")} in {page.matched_lines:,} of '
            f'{plural(page.total_lines, "line")} '
            f'{"contains" if page.selected == 1 else "contain"} '
            f'{pattern!r}; showing matches {start + 1:,}–{start + len(page.rows):,}, numbered by their row offset '
            f'among all {page.total_rows:,} rows ({size}){note}]'
        )
    else:
        span = f'rows {first:,}–{last:,} of {page.total_rows:,}'
        header = f'[{handle!r}: {span} ({size}); each row starts with its offset{note}]'

    body = [f'{row.index}{CONTINUES if row.continues else ""}\t{row.text}' for row in page.rows]

    footer: str | None = None
    if page.next_offset is not None:
        more = (
            f'{page.remaining:,} {"earlier" if page.from_end else "more"} {kind if page.remaining != 1 else kind[:-1]}'
        )
        verb = 'read further back' if page.from_end else 'continue'
        cap = f'cut at {MAX_OUTPUT_CHARS:,} characters; ' if page.capped else ''
        footer = f'[{cap}{more}: call {call(page.next_offset)} to {verb}]'
    elif not pattern and page.from_end and first == 0 and last != page.total_rows - 1:
        footer = '[start of output]'
    elif not pattern and last == page.total_rows - 1:
        footer = '[end of output]' if page.final_newline else '[end of output; it has no final newline]'
    return '\n'.join([header, *body, *([footer] if footer else [])])


def decode(data: bytes) -> tuple[str, bool]:
    """The stored bytes as text, and whether any were not UTF-8 (shown as U+FFFD)."""
    try:
        return data.decode('utf-8'), False
    except UnicodeDecodeError:
        return data.decode('utf-8', 'replace'), True
