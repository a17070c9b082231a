"""Read-back of spilled tool output: the bounded `read_tool_result` tool and the paging under it.

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
catastrophic backtracking). `read_stored` never raises: a bad call or a failing store becomes a
message to the model, and every call is recorded as a `tool_output.read` span.
"""

from __future__ import annotations

import threading
import time
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

import xxhash
from pydantic_ai import RunContext
from pydantic_ai.toolsets import FunctionToolset

from ..telemetry.storage import ReadOutcome, ReadRecord, handle_attribute, record_read
from .store import ForbiddenHandle, InvalidHandle, OverflowStore, UnknownHandle, UnsafeStoreRoot

__all__ = [
    'DEFAULT_LIMIT',
    'MAX_LIMIT',
    'MAX_OUTPUT_CHARS',
    'MAX_PATTERN_CHARS',
    'READ_TOOL_METADATA',
    'READ_TOOL_NAME',
    'ROW_WIDTH',
    'Page',
    'Row',
    'build_read_toolset',
    'is_read_tool',
    'paginate',
    'read_stored',
    'read_tool_name_in_run',
    'render_page',
]

READ_TOOL_NAME = 'read_tool_result'
READ_TOOL_METADATA: tuple[str, str] = ('observable_harness', 'read_tool_result')
"""The `(key, value)` tool-metadata entry that marks the read tool, so a capability recognises it (and
leaves its returns alone) even under a prefixed or renamed toolset."""

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
_CONTINUES = '↩'


def is_read_tool(metadata: Mapping[str, Any] | None) -> bool:
    """Whether a tool's metadata marks it as this library's read tool (whose returns are never reduced)."""
    key, value = READ_TOOL_METADATA
    return metadata is not None and metadata.get(key) == value


def read_tool_name_in_run(ctx: RunContext[Any], called: str | None = None) -> str:
    """The name the model knows the read tool by in this run, which `PrefixTools` or a rename may change.

    Found by the tool's metadata among the run's tools. Inside the read tool itself, `called` is the
    name the toolset registered (a prefixing wrapper hands its tools the unprefixed one): where several
    read tools are present, the one that ends with it.
    """
    try:
        names = [name for name, tool_def in ctx.tools.items() if is_read_tool(tool_def.metadata)]
    except Exception:  # a context without its tools (a durable-execution activity, say) still gets a name
        names = []
    if called is None or called in names:
        return called or (names[0] if names else READ_TOOL_NAME)
    ending = [name for name in names if name.endswith(called)]
    return ending[0] if len(ending) == 1 else called


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


class _Grid:
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
    return _page(
        _Grid(text, width),
        len(text),
        offset=offset,
        limit=limit,
        from_end=from_end,
        pattern=pattern,
        max_chars=max_chars,
        max_limit=max_limit,
    )


def _page(
    grid: _Grid,
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
        cost = len(row.text) + len(str(row.index)) + len(_CONTINUES) + 2
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


def _n(count: int, noun: str) -> str:
    return f'{count:,} {noun}{"" if count == 1 else "s"}'


def _echo(handle: str) -> str:
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
        notes.append(f'"{_CONTINUES}" after a row number: the line continues on the next row')
    note = f'; {"; ".join(notes)}' if notes else ''
    kind = 'matching rows' if pattern else 'rows'
    size = f'{_n(page.total_lines, "line")}, {_n(page.total_chars, "char")}'

    if page.total_rows == 0:
        return f'[{handle!r} holds an empty output{note}]'
    if pattern and page.selected == 0:
        return (
            f'[{handle!r}: no line contains {pattern!r} ({_n(page.total_lines, "line")} searched; the pattern is '
            f'literal text and case-sensitive){note}]'
        )
    if not page.rows:
        return (
            f'[{handle!r}: offset {page.offset:,} is past the end: there {"is" if page.selected == 1 else "are"} '
            f'{_n(page.selected, kind[:-1])}'
            f'{" counted from the end" if page.from_end else ""}. Use an offset below {page.selected:,}{note}]'
        )

    first, last = page.rows[0].index, page.rows[-1].index
    if pattern:
        start = page.selected - page.offset - len(page.rows) if page.from_end else page.offset
        header = (
            f'[{handle!r}: {_n(page.selected, "row")} in {page.matched_lines:,} of {_n(page.total_lines, "line")} '
            f'{"contains" if page.selected == 1 else "contain"} '
            f'{pattern!r}; showing matches {start + 1:,}–{start + len(page.rows):,}, numbered by their row offset '
            f'among all {page.total_rows:,} rows ({size}){note}]'
        )
    else:
        span = f'rows {first:,}–{last:,} of {page.total_rows:,}'
        header = f'[{handle!r}: {span} ({size}); each row starts with its offset{note}]'

    body = [f'{row.index}{_CONTINUES if row.continues else ""}\t{row.text}' for row in page.rows]

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


# --- the read ------------------------------------------------------------------------------------


def _argument_problem(handle: object, offset: int, pattern: str | None, tool: str) -> str | None:
    if not isinstance(handle, str):
        return f'[{tool}: handle must be a string: the handle printed in the notice of a stored tool result]'
    if offset < 0:
        return (
            f'[{tool}: offset must be 0 or more, got {offset}. '
            'To read the last rows, pass from_end=True with offset=0.]'
        )
    if pattern is not None and len(pattern) > MAX_PATTERN_CHARS:
        return (
            f'[{tool}: pattern is {len(pattern):,} characters long; at most {MAX_PATTERN_CHARS} are accepted. '
            'Search for a shorter, distinctive piece of one line.]'
        )
    if pattern is not None and '\n' in pattern:
        return (
            f'[{tool}: pattern cannot contain a line break: lines are searched one at a time. '
            'Search for text within one line.]'
        )
    return None


def _store_refusal(error: Exception, handle: str, tool: str) -> tuple[str, ReadOutcome]:
    how = (
        f'Copy the handle exactly as printed in the notice of the stored tool result you want to read, '
        f"e.g. {tool}(handle='<run-id>/<tool-call-id>.0'); handles are keys, not file paths."
    )
    # Store messages for these two are written for the model and carry no paths; others are not shown.
    reason = str(error)[:_REASON_CHARS]
    if isinstance(error, InvalidHandle):
        return f'[{tool}: that handle is malformed ({reason}). {how}]', 'invalid'
    if isinstance(error, ForbiddenHandle):
        return f'[{tool}: handle {_echo(handle)} was refused ({reason}). {how}]', 'denied'
    if isinstance(error, UnsafeStoreRoot):
        return (
            f'[{tool}: the overflow store is refusing every read because its directory failed a safety check. '
            'Stored results cannot be read in this run; tell the user the overflow store needs attention.]',
            'denied',
        )
    if isinstance(error, UnknownHandle):
        return (
            f'[{tool}: nothing is stored under handle {_echo(handle)}. {how} Stored results from an earlier '
            'session may have been cleaned up.]',
            'miss',
        )
    return (
        f'[{tool}: the overflow store could not read handle {_echo(handle)} ({type(error).__name__}). '
        'Try again later, or carry on without it.]',
        'miss',
    )


def _decode(data: bytes) -> tuple[str, bool]:
    try:
        return data.decode('utf-8'), False
    except UnicodeDecodeError:
        return data.decode('utf-8', 'replace'), True


@dataclass(frozen=True, slots=True)
class _Layout:
    grid: _Grid
    total_chars: int
    lossy: bool
    memory: int
    """Estimated bytes held: the text and its line objects."""


class _Layouts:
    """The row layouts of the last few large payloads read, by content.

    A model pages through a large spill one call at a time, and the store hands back the whole payload
    on every call: decoding and splitting 10 MB into lines costs ~40 ms, hashing it ~1 ms. Payloads
    under `min_bytes` are laid out afresh (it costs less than hashing them); at most `max_entries`
    layouts are kept, taking at most `max_bytes` of memory in all by estimate (the text, and ~64 bytes
    per line for its string object), the least recently read dropped first.
    """

    LINE_OVERHEAD = 64

    def __init__(self, *, min_bytes: int = 256 * 1024, max_bytes: int = 64 * 1024 * 1024, max_entries: int = 4) -> None:
        self.min_bytes, self.max_bytes, self.max_entries = min_bytes, max_bytes, max_entries
        self._entries: OrderedDict[tuple[bytes, int, int], _Layout] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0

    def layout(self, data: bytes, width: int) -> _Layout:
        if len(data) < self.min_bytes or len(data) > self.max_bytes:
            return self._build(data, width)
        key = (xxhash.xxh3_128_digest(data), len(data), width)
        with self._lock:
            cached = self._entries.get(key)
            if cached is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return cached
        built = self._build(data, width)
        if built.memory > self.max_bytes:
            return built
        with self._lock:
            if key not in self._entries:
                self._entries[key] = built
                self._bytes += built.memory
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= dropped.memory
        return built

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def cached_bytes(self) -> int:
        """Estimated memory the kept layouts hold."""
        return self._bytes

    @classmethod
    def _build(cls, data: bytes, width: int) -> _Layout:
        text, lossy = _decode(data)
        grid = _Grid(text, width)
        return _Layout(grid, len(text), lossy, len(data) + cls.LINE_OVERHEAD * len(grid.lines))


_LAYOUTS = _Layouts()


async def read_stored(
    store: OverflowStore,
    handle: str,
    *,
    offset: int = 0,
    limit: int = DEFAULT_LIMIT,
    from_end: bool = False,
    pattern: str | None = None,
    read_tool_name: str = READ_TOOL_NAME,
) -> str:
    """Read one page of a stored payload and render it for the model. Never raises (cancellation aside).

    Unknown, forged and malformed handles, bad arguments and failing stores all come back as a
    bracketed message telling the model what to do instead; none reveals a path.
    """
    start_ns = time.time_ns()
    pattern = pattern or None
    effective_limit = min(max(limit, 1), MAX_LIMIT)
    rows = 0
    outcome: ReadOutcome = 'invalid'
    try:
        problem = _argument_problem(handle, offset, pattern, read_tool_name)
        if problem is not None:
            text = problem
        else:
            try:
                data = await store.read(handle)
            except Exception as error:
                text, outcome = _store_refusal(error, handle, read_tool_name)
            else:
                layout = _LAYOUTS.layout(data, ROW_WIDTH)
                page = _page(
                    layout.grid,
                    layout.total_chars,
                    offset=offset,
                    limit=limit,
                    from_end=from_end,
                    pattern=pattern,
                    max_chars=MAX_OUTPUT_CHARS,
                    max_limit=MAX_LIMIT,
                )
                text = render_page(
                    page,
                    handle=handle,
                    pattern=pattern,
                    requested_limit=limit,
                    read_tool_name=read_tool_name,
                    lossy_decode=layout.lossy,
                )
                rows, outcome = len(page.rows), 'hit'
    except Exception as error:  # a bug of ours must still not fail the run
        text = f'[{read_tool_name}: the read failed unexpectedly ({type(error).__name__}). Try a smaller limit.]'
        outcome = 'miss'
    try:
        found = outcome == 'hit'
        attribute = handle_attribute(handle, found=found) if isinstance(handle, str) else ''  # pyright: ignore[reportUnnecessaryIsInstance]
        record_read(
            ReadRecord(attribute, offset, effective_limit, from_end, len(pattern or ''), rows, outcome),
            start_ns,
        )
    except Exception:  # noqa: S110 - telemetry never fails a read
        pass
    return text


# --- the tool ------------------------------------------------------------------------------------

_DESCRIPTION = (
    'Read part of a tool result that was too large to show in full and was stored instead; its notice '
    'printed the handle to use. Output is a header, then numbered rows: the number before the tab is '
    f"the row's offset, and {_CONTINUES} after it means the line continues on the next row. At most "
    f'{MAX_LIMIT} rows and {MAX_OUTPUT_CHARS:,} characters come back per call; the footer says how to '
    'continue.'
)


def build_read_toolset(get_store: Callable[[], OverflowStore], *, name: str = READ_TOOL_NAME) -> FunctionToolset[Any]:
    """A toolset with the one read-back tool, reading from whatever store `get_store()` returns at call time.

    The tool carries `READ_TOOL_METADATA`, so a capability recognises it (and leaves its returns
    alone) even when a user prefixes or renames tools.

    ```python
    import tempfile

    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    from observable_harness.tool_output_limits import LocalFileStore
    from observable_harness.tool_output_limits.read_back import build_read_toolset

    store = LocalFileStore(base_dir=tempfile.mkdtemp())
    agent = Agent(TestModel(call_tools=[]), toolsets=[build_read_toolset(lambda: store)])
    ```
    """

    async def read_tool_result(
        ctx: RunContext[Any],
        handle: str,
        offset: int = 0,
        limit: int = DEFAULT_LIMIT,
        from_end: bool = False,
        pattern: str | None = None,
    ) -> str:
        """Read a stored tool result.

        Args:
            handle: The handle printed in the stored result's notice, copied exactly.
            offset: First row to return, 0-based; with from_end, how many rows to skip back from the end.
            limit: How many rows to return (at most 500).
            from_end: Read the last rows first, e.g. where a log's errors are.
            pattern: Only return rows of lines that contain this exact text (literal and case-sensitive, not a regex).
        """
        try:
            store = get_store()
        except Exception as error:
            store = _UnavailableStore(error)
        return await read_stored(
            store,
            handle,
            offset=offset,
            limit=limit,
            from_end=from_end,
            pattern=pattern,
            read_tool_name=read_tool_name_in_run(ctx, ctx.tool_name or name),
        )

    toolset = FunctionToolset[Any](id=f'observable_harness_{name}')
    toolset.add_function(
        read_tool_result,
        name=name,
        description=_DESCRIPTION,
        docstring_format='google',
        metadata={READ_TOOL_METADATA[0]: READ_TOOL_METADATA[1]},
    )
    return toolset


@dataclass(frozen=True, slots=True)
class _UnavailableStore:
    """Stands in when `get_store()` itself failed, so the failure takes the usual road to the model."""

    error: Exception

    async def write(self, key: str, data: bytes) -> str:
        raise self.error

    async def read(self, handle: str) -> bytes:
        raise self.error
