"""`read_tool_result` and the store under attack: any handle, arguments, payload (issue 8; TOL-7, TOL-16, TOL-17).

The store's root sits next to an `outside/` directory holding a canary, and the root itself has links
planted in it (to the canary, to a sibling directory sharing the root's name as a prefix, to
`/etc/passwd`, a loop, a FIFO). Hypothesis then throws handles at it: traversal in every spelling
(`..`, URL-encoded, backslashes, full-width dots), absolute paths including the root's own, NUL
bytes, unicode, 10 KB strings; offsets and limits at and past their bounds; regex-looking and huge
patterns; both reading directions. Whatever comes in, a read

- never raises (`read_stored`, and a real `Agent` run for a sample),
- never returns a byte from outside the store,
- never shows the store's root path (beyond what the caller typed itself),
- never exceeds its caps (rows per call, characters per call, echo lengths),
- records one span whose attributes are all exportable,

and paging from offset 0 to the end, following only what the rendered pages say, gives back the
stored payload exactly. The number of examples follows the hypothesis profile (`tests/conftest.py`).
"""

from __future__ import annotations

import asyncio
import errno
import os
import re
import shutil
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from observable_harness import ToolOutputLimits
from observable_harness._text.paging import MAX_LIMIT, MAX_OUTPUT_CHARS, ROW_WIDTH, paginate
from observable_harness.storage import MAX_HANDLE_CHARS
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import (
    ForbiddenHandle,
    InvalidHandle,
    LocalFileStore,
    UnknownHandle,
)
from observable_harness.tool_output_limits._layouts import LayoutCache
from observable_harness.tool_output_limits._read_tool import read_stored
from tests.otel import install_otel

CANARY = 'CANARY-outside-the-store-5d1e'
PASSWD_LINE = 'root:x:0:0'
_T = TypeVar('_T')


@dataclass(repr=False)
class Planted:
    """A store whose root has traps planted in and around it, and one event loop to drive it."""

    base: Path
    store: LocalFileStore
    loop: asyncio.AbstractEventLoop
    traps: dict[str, Path] = field(default_factory=dict[str, Path])
    """Links planted in the root: name relative to the root -> target."""
    texts: dict[str, str] = field(default_factory=dict[str, str])
    """What the store legitimately holds, by handle, as a read decodes it."""
    handles_by_key: dict[tuple[str, ...], str] = field(default_factory=dict[tuple[str, ...], str])

    def __repr__(self) -> str:
        return f'Planted(root={self.store.root}, {len(self.texts)} stored payloads)'

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))

    def run(self, coro: Coroutine[Any, Any, _T]) -> _T:
        return self.loop.run_until_complete(coro)

    def write(self, key: str, data: bytes) -> str:
        handle = self.run(self.store.write(key, data))
        self.texts[handle] = data.decode('utf-8', 'replace')
        return handle

    def replant(self) -> None:
        """Put back any trap a write replaced (a rename over a link replaces the link), so every read meets them all."""
        root = self.store.root
        for name, target in self.traps.items():
            path = root / name
            if not path.is_symlink():
                path.parent.mkdir(parents=True, exist_ok=True)
                if path.is_dir():
                    shutil.rmtree(path)
                else:
                    path.unlink(missing_ok=True)
                os.symlink(target, path)
        fifo = root / 'run-1' / 'fifo'
        if not fifo.is_fifo():
            fifo.unlink(missing_ok=True)
            os.mkfifo(fifo)

    def resolve(self, handle: str) -> str:
        """Placeholders stand for paths only known at run time, so strategies can aim at them."""
        root = str(self.store.root)
        return (
            handle.replace('{ROOT}', root)
            .replace('{OUTSIDE}', str(self.base / 'outside'))
            .replace('{BASE}', str(self.base))
        )


LAYOUTS = LayoutCache(min_bytes=0, max_entries=3)
"""Reads here are small; a cache that keeps even those (and only three) puts every read, hit or miss,
through the cached-layout path that large payloads take."""


@pytest.fixture(scope='module')
def planted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Planted]:
    base = tmp_path_factory.mktemp('attack')
    outside = base / 'outside'
    (outside / 'dir').mkdir(parents=True)
    (outside / 'secret.txt').write_text(f'{CANARY}\n')
    (outside / 'dir' / 'call_a.0').write_text(CANARY)
    # Shares the root's name as a prefix: a string-prefix containment check would let it in.
    (base / 'root2').mkdir()
    (base / 'root2' / 'secret').write_text(CANARY)
    store = LocalFileStore(base_dir=base / 'root')
    loop = asyncio.new_event_loop()
    state = Planted(base, store, loop)
    legit = {
        'run-1/call_a.0': b'inside payload\nsecond line\n',
        'run-1/call_a.0.content': 'ünïcödé \u2028 content\n'.encode(),
        'run-2/big.0': b''.join(b'row %05d of a long stored log\n' % i for i in range(3_000)),
        'run-2/wide.0': b'w' * (ROW_WIDTH * 3 + 7),
    }
    for key, data in legit.items():
        state.write(key, data)
    state.traps = {
        'run-1/outward': outside / 'secret.txt',
        'run-1/rel': Path('../../outside/secret.txt'),
        'run-1/dirlink': outside / 'dir',
        'run-1/prefix': Path('../../root2/secret'),
        'run-1/etc': Path('/etc/passwd'),
        'run-1/loop': Path('loop'),
        'run-1/inner': Path('call_a.0'),  # stays inside: followed
        'escape': outside,
    }
    state.replant()
    try:
        yield state
    finally:
        loop.close()


# --- strategies ----------------------------------------------------------------------------------

VOCABULARY = [
    *('run-1', 'run-2', 'call_a.0', 'call_a.0.content', 'big.0', 'wide.0'),
    *('outward', 'rel', 'dirlink', 'prefix', 'etc', 'loop', 'inner', 'fifo', 'escape'),
    *('outside', 'secret.txt', 'secret', 'dir', 'root', 'root2', 'passwd', 'self', 'fd', '0'),
    *('..', '.', '', '...', '....', ' ..', '.. ', '..\x00', '%2e%2e', '%2E%2E', '..%2f', '%2e%2e%2f', '%252e%252e'),
    *('..;', '.%00.', '\x00', '~', '~root', '$HOME', '${HOME}', 'C:', 'c:\\', '\\\\server', 'NUL', 'con', '*', '?'),
    *('ü', '\u202e', '\u2025', '\uff0e\uff0e', '．．', '\u0000', 'ﬀ', '🙂', 'e\u0301', '\u200b..'),
    *('{ROOT}', '{OUTSIDE}', '{BASE}'),
]
SEPARATORS = ['/', '\\', '//', '/./', '%2f', '%5c', '\x00', '\u2215', '\uff0f']
LEADS = ['', '/', '\\', '//', '{ROOT}/', '{OUTSIDE}/', '{BASE}/', 'file://', '/proc/self/root/', './', '~/']

TRAP_PATHS = [
    'run-1',
    'escape',
    'dirlink',
    'outward',
    'rel',
    'prefix',
    'loop',
    'fifo',
    'inner',
    'etc',
    '..',
    'x',
    'call_a.0',
]
segments = st.one_of(st.sampled_from(VOCABULARY), st.text(max_size=12))
# Plain slash paths through the planted links: the shape most likely to reach one.
trap_paths = st.builds(
    lambda lead, parts: lead + '/'.join(parts),
    st.sampled_from(['', '', '', '/', '{ROOT}/', './']),
    st.lists(st.sampled_from(TRAP_PATHS), min_size=1, max_size=5),
)
composed_handles = st.builds(
    lambda lead, parts, separator: lead + separator.join(parts),
    st.sampled_from(LEADS),
    st.lists(segments, max_size=10),
    st.sampled_from(SEPARATORS),
)
huge_handles = st.builds(
    lambda chunk, count: (chunk * count)[:10_240],
    st.sampled_from(['../', 'a', '%2e%2e/', 'ü', '/', '\x00', 'run-1/', 'run-1/call_a.0/']),
    st.integers(1, 10_240),
)
HANDLES = st.one_of(trap_paths, composed_handles, st.text(), huge_handles)

OFFSETS = st.one_of(
    st.integers(-3, 3_100), st.sampled_from([-(2**63), -1, 0, 2**31, 2**63 - 1, 2**63, 10**30, -(10**30)])
)
LIMITS = st.one_of(
    st.integers(-3, MAX_LIMIT + 100), st.sampled_from([-(10**9), 0, 1, MAX_LIMIT, MAX_LIMIT + 1, 10**30])
)
PATTERNS = st.one_of(
    st.none(),
    st.just(''),
    st.text(max_size=24),
    st.sampled_from(['.*', '(a+)+$', '[', '\\', '^', '$', 'row', 'payload', '0', 'w' * 40, '\n', 'a\nb', '\x00']),
    st.builds(lambda chunk, count: chunk * count, st.sampled_from(['a', '.*', '(', 'w']), st.integers(150, 10_240)),
)


def lines_of(alphabet: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Texts of lines, some longer than a row, with or without a final newline."""
    line = st.one_of(
        st.text(alphabet=alphabet, max_size=30),
        st.builds(
            lambda chunk, count: chunk * count,
            st.text(alphabet=alphabet, min_size=1, max_size=3),
            st.integers(0, 2 * ROW_WIDTH + 50),
        ),
    )
    return st.builds(
        lambda lines, final: '\n'.join(lines) + final, st.lists(line, max_size=30), st.sampled_from(['', '\n'])
    )


NO_NEWLINE = st.characters(blacklist_characters='\n', blacklist_categories=['Cs'])
TEXTS = st.one_of(st.text(), lines_of(NO_NEWLINE), lines_of(st.sampled_from('ab\r\t ↩\u2028[]0')))


# --- what every read must satisfy -------------------------------------------------------------------

ROW = re.compile(r'(\d+)(↩?)\t(.*)', re.DOTALL)
INT64 = range(-(2**63), 2**63)


def assert_safe_and_bounded(output: str, handle: str, pattern: str | None, limit: int, planted: Planted) -> list[str]:
    """The properties of any rendered read; returns the row lines."""
    assert isinstance(output, str)
    assert output.startswith('['), output[:200]
    assert CANARY not in output
    assert PASSWD_LINE not in output
    # The caller's own words may come back (the handle and pattern it typed); nothing else may name a path.
    said_by_us = output
    for echo in (repr(handle), repr(handle[:80] + '…'), repr(pattern)):
        said_by_us = said_by_us.replace(echo, '')
    assert str(planted.base) not in said_by_us
    lines = output.split('\n')
    rows = [line for line in lines[1:] if ROW.fullmatch(line)]
    assert len(rows) <= min(max(limit, 1), MAX_LIMIT)
    assert sum(len(row) + 1 for row in rows) <= MAX_OUTPUT_CHARS
    echoes = 2 * len(repr(handle)) + 2 * len(repr(pattern))
    assert len(output) <= MAX_OUTPUT_CHARS + echoes + 700
    return rows


def read_once(planted: Planted, handle: str, **kwargs: Any) -> str:
    harness = install_otel()
    harness.spans_exporter.clear()
    output = planted.run(read_stored(planted.store, handle, layouts=LAYOUTS, **kwargs))
    [span] = harness.spans(names.SPAN_READ)
    attributes = dict(span.attributes or {})
    assert attributes[names.TOOL_OUTPUT_READ_OUTCOME] in {'hit', 'miss', 'denied', 'invalid'}
    assert len(str(attributes[names.TOOL_OUTPUT_HANDLE])) <= 256
    # OTLP carries ints as int64: a value out of that range is dropped by the exporter with an error log.
    assert all(value in INT64 for value in attributes.values() if type(value) is int)
    assert not any(CANARY in str(value) for value in attributes.values())
    return output


@given(handle=HANDLES, offset=OFFSETS, limit=LIMITS, from_end=st.booleans(), pattern=PATTERNS)
def test_any_read_stays_inside_the_store_reveals_no_path_and_keeps_its_caps(
    planted: Planted, handle: str, offset: int, limit: int, from_end: bool, pattern: str | None
) -> None:
    planted.replant()
    handle = planted.resolve(handle)
    output = read_once(planted, handle, offset=offset, limit=limit, from_end=from_end, pattern=pattern)
    rows = assert_safe_and_bounded(output, handle, pattern, limit, planted)
    if rows:
        # Rows come only from what the store legitimately holds.
        texts = list(planted.texts.values())
        for row in rows:
            match = ROW.fullmatch(row)
            assert match is not None
            assert any(match.group(3) in text for text in texts), row


@given(key=HANDLES, data=st.binary(max_size=2_000))
def test_any_key_is_written_inside_the_root_and_reads_back_exactly(planted: Planted, key: str, data: bytes) -> None:
    planted.replant()
    key = planted.resolve(key)
    outside_before = sorted(os.listdir(planted.base / 'outside'))
    handle: str | None = None
    failed_with: int | None = None
    try:
        handle = planted.run(planted.store.write(key, data))
    except InvalidHandle:
        parts = [part for part in key.split('/') if part]
        assert not key.strip() or len(key) > MAX_HANDLE_CHARS or not parts or len(parts) > 16
        return
    except ForbiddenHandle:
        # A planted directory link on the key's path: refused, and nothing was made on the far side of it.
        outward = ('escape', 'dirlink', 'outward', 'rel', 'prefix', 'etc')
        assert any(link in key.split('/')[:-1] for link in outward)
        assert sorted(os.listdir(planted.base / 'outside')) == outside_before
        assert sorted(os.listdir(planted.base / 'outside' / 'dir')) == ['call_a.0']
        return
    except OSError as error:
        failed_with = error.errno
    if handle is None:
        # A key colliding with a planted file, link or FIFO on its way: the write fails, nothing else moves.
        assert failed_with in {errno.ENOTDIR, errno.EEXIST, errno.EISDIR, errno.ELOOP, errno.ENAMETOOLONG}
        assert sorted(os.listdir(planted.base / 'outside')) == outside_before
        return
    assert not os.path.isabs(handle)
    assert '..' not in handle.split('/')
    written = os.path.realpath(planted.store.root / handle)
    assert os.path.commonpath([written, os.path.realpath(planted.store.root)]) == os.path.realpath(planted.store.root)
    assert planted.run(planted.store.read(handle)) == data
    assert sorted(os.listdir(planted.base / 'outside')) == outside_before
    assert (planted.base / 'outside' / 'secret.txt').read_text() == f'{CANARY}\n'
    # Sanitizing never merges two keys: one handle, one key (up to repeated slashes).
    normalized = tuple(part for part in key.split('/') if part)
    assert planted.handles_by_key.setdefault(normalized, handle) == handle
    owners = [k for k, h in planted.handles_by_key.items() if h == handle]
    assert owners == [normalized]
    planted.texts[handle] = data.decode('utf-8', 'replace')


# --- paging gives the payload back exactly -------------------------------------------------------------

FOOTER = re.compile(r'offset=(\d+)(?:, from_end=True)?(?:, pattern=.*)?\) to (?:continue|read further back)\]')
TOTALS = re.compile(r'\(([\d,]+) lines?, ([\d,]+) chars?\)')


def oracle_rows(text: str, width: int) -> list[tuple[int, str, bool]]:
    """Every row of `text` as (line number, text, continues), computed the plain way."""
    lines = text.split('\n') if text else []
    if lines and lines[-1] == '':
        lines.pop()
    rows: list[tuple[int, str, bool]] = []
    for number, line in enumerate(lines):
        pieces = [line[i : i + width] for i in range(0, len(line), width)] or ['']
        rows.extend((number, piece, i < len(pieces) - 1) for i, piece in enumerate(pieces))
    return rows


def oracle_matches(text: str, width: int, pattern: str) -> list[int]:
    """Indices of rows overlapping any occurrence of `pattern` (overlapping occurrences included)."""
    lines = text.split('\n') if text else []
    if lines and lines[-1] == '':
        lines.pop()
    selected: list[int] = []
    base = 0
    for line in lines:
        count = max(1, -(-len(line) // width))
        touched: set[int] = set()
        position = line.find(pattern)
        while position != -1:
            touched.update(range(position // width, (position + len(pattern) - 1) // width + 1))
            position = line.find(pattern, position + 1)
        selected.extend(base + piece for piece in sorted(touched))
        base += count
    return selected


def page_rendered(planted: Planted, handle: str, **kwargs: Any) -> tuple[list[list[tuple[int, str, bool]]], int | None]:
    """Follow the footers from offset 0; each page's rows as (index, text, continues), and the stated total chars."""
    pages: list[list[tuple[int, str, bool]]] = []
    total_chars: int | None = None
    offset: int | None = 0
    limit = kwargs.get('limit', 200)
    while offset is not None:
        assert len(pages) < 20_000, 'paging does not end'
        output = planted.run(read_stored(planted.store, handle, offset=offset, layouts=LAYOUTS, **kwargs))
        rows = assert_safe_and_bounded(output, handle, kwargs.get('pattern'), limit, planted)
        header, footer = output.split('\n', 1)[0], output.rsplit('\n', 1)[-1]
        totals = TOTALS.findall(header)
        if totals:
            total_chars = int(totals[-1][1].replace(',', ''))
        parsed: list[tuple[int, str, bool]] = []
        for row in rows:
            match = ROW.fullmatch(row)
            assert match is not None
            parsed.append((int(match.group(1)), match.group(3), bool(match.group(2))))
        pages.append(parsed)
        found = FOOTER.search(footer) if rows else None
        offset = int(found.group(1)) if found else None
        if found:
            assert offset == sum(len(page) for page in pages)
    return pages, total_chars


@given(
    text=TEXTS,
    # No '/': a key that is another key's directory cannot be written, which is not what this test is about.
    key=st.text(alphabet=st.characters(blacklist_characters='/', blacklist_categories=['Cs']), min_size=1, max_size=40),
    limit=st.integers(-2, MAX_LIMIT + 50),
    from_end=st.booleans(),
)
def test_paging_the_rendered_pages_rebuilds_any_stored_text_exactly(
    planted: Planted, text: str, key: str, limit: int, from_end: bool
) -> None:
    handle = planted.write(f'paging/{key}', text.encode())
    pages, total_chars = page_rendered(planted, handle, limit=limit, from_end=from_end)
    rows = [row for page in (reversed(pages) if from_end else pages) for row in page]
    assert [index for index, _, _ in rows] == list(range(len(oracle_rows(text, ROW_WIDTH))))
    rebuilt = ''.join(row_text + ('' if continues else '\n') for _, row_text, continues in rows)
    if total_chars is not None and len(rebuilt) == total_chars + 1:
        rebuilt = rebuilt[:-1]  # the header's character count says there is no final newline
    assert rebuilt == text


@given(data=st.binary(max_size=600), from_end=st.booleans())
def test_paging_any_bytes_gives_their_utf8_decoding_with_replacement(
    planted: Planted, data: bytes, from_end: bool
) -> None:
    handle = planted.write('bytes/payload.0', data)
    pages, total_chars = page_rendered(planted, handle, limit=7, from_end=from_end)
    rows = [row for page in (reversed(pages) if from_end else pages) for row in page]
    rebuilt = ''.join(row_text + ('' if continues else '\n') for _, row_text, continues in rows)
    if total_chars is not None and len(rebuilt) == total_chars + 1:
        rebuilt = rebuilt[:-1]
    assert rebuilt == data.decode('utf-8', 'replace')


@given(data=st.data(), text=TEXTS, limit=st.integers(1, 40), from_end=st.booleans())
def test_paging_a_pattern_returns_exactly_the_rows_that_touch_a_match(
    planted: Planted, data: st.DataObject, text: str, limit: int, from_end: bool
) -> None:
    # A pattern taken from the text (so it matches), or any short text (so it mostly does not).
    if text and data.draw(st.booleans()):
        start = data.draw(st.integers(0, len(text) - 1))
        pattern = text[start : start + data.draw(st.integers(1, 12))].split('\n')[0] or 'x'
    else:
        pattern = data.draw(st.text(alphabet=NO_NEWLINE, min_size=1, max_size=6))
    handle = planted.write('pattern/payload.0', text.encode())
    pages, _ = page_rendered(planted, handle, limit=limit, from_end=from_end, pattern=pattern)
    rows = [row for page in (reversed(pages) if from_end else pages) for row in page]
    expected = oracle_matches(text, ROW_WIDTH, pattern)
    assert [index for index, _, _ in rows] == expected
    every_row = oracle_rows(text, ROW_WIDTH)
    assert [(row_text, continues) for _, row_text, continues in rows] == [every_row[i][1:] for i in expected]


@given(
    text=TEXTS,
    width=st.integers(1, 40),
    limit=st.integers(-2, 60),
    max_chars=st.integers(1, 400),
    from_end=st.booleans(),
    pattern=st.one_of(st.none(), st.text(alphabet=NO_NEWLINE, min_size=1, max_size=4)),
)
def test_paginate_at_any_width_and_cap_rebuilds_exactly_and_selects_exactly(
    text: str, width: int, limit: int, max_chars: int, from_end: bool, pattern: str | None
) -> None:
    """The pure pager under narrow rows and tiny character caps: every page makes progress and nothing is lost."""
    pages = [paginate(text, width=width, limit=limit, max_chars=max_chars, from_end=from_end, pattern=pattern)]
    while (offset := pages[-1].next_offset) is not None:
        assert len(pages) < 100_000
        page = paginate(
            text, width=width, limit=limit, max_chars=max_chars, from_end=from_end, pattern=pattern, offset=offset
        )
        assert page.rows, 'a page that continues must return something'
        pages.append(page)
    for page in pages:
        assert len(page.rows) <= max(limit, 1)
        assert all(len(row.text) <= width and '\n' not in row.text for row in page.rows)
    rows = [row for page in (reversed(pages) if from_end else pages) for row in page.rows]
    if pattern is None:
        assert ''.join(row.raw for row in rows) == text
        assert [row.index for row in rows] == list(range(pages[0].total_rows))
    else:
        assert [row.index for row in rows] == oracle_matches(text, width, pattern)


# --- a misbehaving store ---------------------------------------------------------------------------------

FAILURES: list[type[BaseException]] = [
    OSError,
    PermissionError,
    TimeoutError,
    ConnectionResetError,
    RuntimeError,
    ValueError,
    KeyError,
    MemoryError,
    RecursionError,
    UnknownHandle,
    NotImplementedError,
]


@dataclass
class Misbehaving:
    """A store that raises with a message full of paths and secrets, or hands back something that is not bytes."""

    failure: type[BaseException] | None
    returned: Any

    async def write(self, key: str, data: bytes) -> str:
        return key

    async def read(self, handle: str) -> bytes:
        if self.failure is not None:
            raise self.failure(f'{CANARY} at /srv/secret/mount/{handle}')
        return self.returned


@given(
    failure=st.one_of(st.none(), st.sampled_from(FAILURES)),
    returned=st.one_of(
        st.binary(max_size=50), st.text(max_size=20), st.none(), st.integers(), st.just(memoryview(b'x\ny'))
    ),
    handle=HANDLES,
    offset=OFFSETS,
    pattern=PATTERNS,
)
def test_a_misbehaving_store_never_breaks_a_read_or_leaks_its_message(
    planted: Planted, failure: type[BaseException] | None, returned: Any, handle: str, offset: int, pattern: str | None
) -> None:
    store = Misbehaving(failure, returned)
    output = planted.run(read_stored(store, handle, offset=offset, pattern=pattern, layouts=LAYOUTS))
    assert output.startswith('[')
    assert '/srv/secret' not in output.replace(repr(handle), '').replace(repr(handle[:80] + '…'), '')
    if failure is not None:
        assert CANARY not in output


# --- through a real agent run ----------------------------------------------------------------------------


@dataclass
class OneRead:
    """A model that makes one `read_tool_result` call with the arguments of the current example, then stops."""

    args: dict[str, Any] = field(default_factory=dict[str, Any])

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        if isinstance(last, ModelRequest) and any(isinstance(p, ToolReturnPart) for p in last.parts):
            return ModelResponse(parts=[TextPart('done')])
        return ModelResponse(parts=[ToolCallPart('read_tool_result', dict(self.args), tool_call_id='read')])


AGENT_EXAMPLES = max(10, settings().max_examples // 10)


@settings(max_examples=AGENT_EXAMPLES)
@given(handle=HANDLES, offset=OFFSETS, limit=LIMITS, from_end=st.booleans(), pattern=PATTERNS)
def test_read_tool_result_never_fails_an_agent_run(
    planted: Planted, handle: str, offset: int, limit: int, from_end: bool, pattern: str | None
) -> None:
    planted.replant()
    handle = planted.resolve(handle)
    model = OneRead({'handle': handle, 'offset': offset, 'limit': limit, 'from_end': from_end, 'pattern': pattern})
    agent = Agent(FunctionModel(model.respond), capabilities=[ToolOutputLimits(store=planted.store)])
    result = planted.run(agent.run('read it'))
    assert result.output == 'done'
    returns = [
        part
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]
    [answer] = returns
    assert answer.outcome != 'retried'
    assert isinstance(answer.content, str)
    assert_safe_and_bounded(answer.content, handle, pattern, limit, planted)
    # The model gets exactly what a direct read renders: the capability neither reduces nor rewrites it.
    direct = planted.run(
        read_stored(
            planted.store, handle, offset=offset, limit=limit, from_end=from_end, pattern=pattern, layouts=LAYOUTS
        )
    )
    assert answer.content == direct
