"""read_tool_result: bounded paging that rebuilds any payload exactly, and never fails a run (TOL-7, OBS)."""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from pydantic_ai import Agent, RunContext
from pydantic_ai.capabilities import PrefixTools
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage
from tests.agents import Script, call, done, handle_in, read_back, rebuild, respond, text_of, tool_returns
from tests.doubles import BrokenStore
from tests.otel import OTelHarness

from observable_harness import ToolOutputLimits
from observable_harness._text.paging import (
    MAX_LIMIT,
    MAX_OUTPUT_CHARS,
    MAX_PATTERN_CHARS,
    READ_TOOL_NAME,
    ROW_WIDTH,
    Page,
    Row,
    paginate,
)
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import LocalFileStore, UnknownHandle, build_read_toolset
from observable_harness.tool_output_limits._layouts import LayoutCache
from observable_harness.tool_output_limits._read_tool import (
    READ_TOOL_METADATA,
    is_read_tool,
    read_stored,
    read_tool_name_in_run,
)

CANARY = 'CANARY-7f3a-payload-text'
LAYOUTS = LayoutCache()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture
def store(tmp_path: Path) -> LocalFileStore:
    return LocalFileStore(base_dir=tmp_path / 'root')


def put(store: LocalFileStore, text: str | bytes, key: str = 'run-1/call_a.0') -> str:
    data = text.encode() if isinstance(text, str) else text
    return run(store.write(key, data))


def read(store: Any, handle: str, **kwargs: Any) -> str:
    return run(read_stored(store, handle, layouts=LAYOUTS, **kwargs))


# --- paging rebuilds the payload exactly -----------------------------------------------------------

PAYLOADS = [
    pytest.param('', id='empty'),
    pytest.param('a', id='one-char-no-newline'),
    pytest.param('a\n', id='one-line'),
    pytest.param('\n', id='only-newline'),
    pytest.param('\n\n\n', id='only-newlines'),
    pytest.param('a\n\nb\n\n', id='empty-lines'),
    pytest.param('first\nlast without newline', id='no-final-newline'),
    pytest.param('crlf line\r\nanother\r\n', id='crlf'),
    pytest.param('line\u2028sep\u2029para\x85nel\x0bvt\x0cff\x1cfs\rcr only\n', id='unicode-separators'),
    pytest.param('ünïcödé 漢字 🙂🙂🙂 e\u0301\n' * 7, id='unicode'),
    pytest.param('x' * 9, id='exactly-three-rows'),
    pytest.param('x' * 10, id='three-rows-and-one-char'),
    pytest.param('abc\n' + 'y' * 7 + '\n\n' + 'z' * 6, id='mixed-long-and-short'),
    pytest.param('\ttab\tstarts\n0\t1\n[bracket\n', id='tabs-digits-brackets'),
]


def page_through(text: str, **kwargs: Any) -> list[Page]:
    pages = [paginate(text, **kwargs)]
    while (offset := pages[-1].next_offset) is not None:
        pages.append(paginate(text, **kwargs, offset=offset))
    return pages


@pytest.mark.parametrize('text', PAYLOADS)
@pytest.mark.parametrize(('width', 'limit', 'max_chars'), [(3, 2, 10_000), (4, 500, 12), (ROW_WIDTH, 200, 20_000)])
def test_paging_forward_from_zero_rebuilds_the_payload_byte_for_byte(
    text: str, width: int, limit: int, max_chars: int
) -> None:
    pages = page_through(text, width=width, limit=limit, max_chars=max_chars)
    rows = [row for page in pages for row in page.rows]
    assert ''.join(row.raw for row in rows).encode() == text.encode()
    assert [row.index for row in rows] == list(range(pages[0].total_rows))
    assert all(len(row.text) <= width and '\n' not in row.text for row in rows)


@pytest.mark.parametrize('text', PAYLOADS)
def test_paging_back_from_the_end_rebuilds_the_payload(text: str) -> None:
    pages = page_through(text, width=3, limit=2, from_end=True)
    rows = [row for page in reversed(pages) for row in page.rows]
    assert ''.join(row.raw for row in rows) == text


@pytest.mark.parametrize('text', PAYLOADS)
def test_the_rendered_pages_alone_rebuild_the_payload(store: LocalFileStore, text: str) -> None:
    """What the model sees is unambiguous: rows, continuation marks and the final-newline note suffice."""
    assert read_all_rendered(store, put(store, text), limit=3) == text


def read_all_rendered(store: LocalFileStore, handle: str, limit: int = MAX_LIMIT) -> str:
    rendered: list[str] = []
    offset: int | None = 0
    while offset is not None:
        output = read(store, handle, offset=offset, limit=limit)
        rendered.append(output)
        footer = output.rsplit('\n', 1)[-1]
        found = re.search(r'offset=(\d+)', footer) if footer.startswith('[') else None
        offset = int(found.group(1)) if found else None
    return rebuild(rendered)


def test_a_large_payload_pages_the_same_from_its_cached_layout(store: LocalFileStore) -> None:
    """Pages of a large payload after the first come from its cached layout, and rebuild it just the same."""
    lines = [f'{i:06d} ' + ('wide ' * 900 if i % 97 == 0 else f'entry {i} ü') for i in range(40_000)]
    text = '\n'.join(lines) + '\n'
    assert len(text.encode()) > 1_000_000
    handle = put(store, text)
    hits = LAYOUTS.hits
    assert read_all_rendered(store, handle) == text
    assert LAYOUTS.hits > hits
    assert read_all_rendered(store, handle) == text
    # The layout is found by content: the same handle holding something else reads as that.
    changed = text.replace('entry 39999', 'entry CHANGED')
    assert put(store, changed) == handle
    assert read_all_rendered(store, handle) == changed


def test_the_layout_cache_keeps_a_few_recent_payloads_within_its_bytes() -> None:
    layouts = LayoutCache(min_bytes=5, max_bytes=2_000, max_entries=2)
    per_line = LayoutCache.LINE_OVERHEAD
    small, a, b, c, huge = b'tiny', b'a\n' * 10, b'b\n' * 10, b'c\n' * 10, b'h\n' * 40
    for data in (small, huge):  # under min_bytes; over max_bytes with its lines (80 + 40 * 64)
        layouts.layout(data, ROW_WIDTH)
    assert len(layouts) == 0
    first = layouts.layout(a, ROW_WIDTH)
    assert first.memory == 20 + 10 * per_line
    layouts.layout(b, ROW_WIDTH)
    assert layouts.layout(a, ROW_WIDTH) is first and layouts.hits == 1
    layouts.layout(c, ROW_WIDTH)  # b is the least recently read: dropped
    assert len(layouts) == 2 and layouts.cached_bytes == 2 * first.memory
    assert layouts.layout(a, ROW_WIDTH) is first and layouts.layout(b, ROW_WIDTH) is not first
    assert layouts.layout(a, 5) is not first  # another width is another layout
    wide = [bytes([letter]) * 900 for letter in b'xy']  # one line each: 900 + 64
    for data in wide:
        layouts.layout(data, ROW_WIDTH)
    assert layouts.cached_bytes <= 2_000 and len(layouts) == 2


def test_one_enormous_line_of_compact_json_pages_completely(store: LocalFileStore) -> None:
    value = {'records': [{'id': i, 'name': f'item-{i}', 'tags': ['a', 'b']} for i in range(3_000)]}
    text = json.dumps(value, separators=(',', ':'))
    assert '\n' not in text
    assert len(text) > 30 * ROW_WIDTH
    handle = put(store, text)
    first = read(store, handle)
    assert '↩' in first
    assert 'cut at 20,000 characters' in first
    pages = page_through(text)
    assert len(pages) > 1
    assert json.loads(''.join(row.raw for page in pages for row in page.rows)) == value


def test_lines_split_on_newline_only_never_on_unicode_separators() -> None:
    text = 'a\u2028b\x85c\u2029d\x0be\x0cf\x1cg\x1dh\x1ei\rj\nsecond'
    page = paginate(text)
    assert [row.text for row in page.rows] == ['a\u2028b\x85c\u2029d\x0be\x0cf\x1cg\x1dh\x1ei\rj', 'second']
    assert (page.total_lines, page.total_rows) == (2, 2)


def test_rows_carry_line_numbers_and_continuation() -> None:
    page = paginate('ab\n' + 'c' * 7 + '\nd', width=3)
    assert page.rows == (
        Row(0, 1, 'ab', continues=False, newline=True),
        Row(1, 2, 'ccc', continues=True, newline=False),
        Row(2, 2, 'ccc', continues=True, newline=False),
        Row(3, 2, 'c', continues=False, newline=True),
        Row(4, 3, 'd', continues=False, newline=False),
    )
    assert not page.final_newline


# --- bounds ----------------------------------------------------------------------------------------


def numbered(count: int, width: int = 10) -> str:
    return ''.join(f'line {i:0{width}d}\n' for i in range(count))


def test_a_negative_offset_gets_a_clear_message(store: LocalFileStore, otel: OTelHarness) -> None:
    handle = put(store, numbered(10))
    output = read(store, handle, offset=-5)
    assert output == (
        '[read_tool_result: offset must be 0 or more, got -5. To read the last rows, pass from_end=True with offset=0.]'
    )
    assert otel.delta(names.READS.name, outcome='invalid') == 1
    with pytest.raises(ValueError, match='offset'):
        paginate('x', offset=-1)


def test_a_huge_limit_is_clamped_and_says_so(store: LocalFileStore) -> None:
    handle = put(store, numbered(2_000))
    output = read(store, handle, limit=10**9)
    rows = [line for line in output.split('\n') if re.match(r'\d+\t', line)]
    assert len(rows) == MAX_LIMIT
    assert f'limit 1,000,000,000 was lowered to {MAX_LIMIT}' in output
    assert f'offset={MAX_LIMIT})' in output


@pytest.mark.parametrize('limit', [0, -3])
def test_a_limit_below_one_reads_one_row(store: LocalFileStore, limit: int) -> None:
    output = read(store, put(store, numbered(5)), limit=limit)
    assert [line for line in output.split('\n') if re.match(r'\d+\t', line)] == ['0\tline 0000000000']
    assert f'limit {limit} was raised to 1' in output


def test_output_is_capped_in_characters_with_a_marker_saying_how_to_continue(store: LocalFileStore) -> None:
    handle = put(store, ''.join(f'{i:04d} ' + 'w' * 995 + '\n' for i in range(500)))
    output = read(store, handle, limit=500)
    rows = [line for line in output.split('\n') if re.match(r'\d+\t', line)]
    assert 0 < len(rows) < 500
    assert sum(len(row) + 1 for row in rows) <= MAX_OUTPUT_CHARS
    assert len(output) < MAX_OUTPUT_CHARS + 1_000
    assert (
        f'[cut at 20,000 characters; {500 - len(rows)} more rows: call read_tool_result('
        f"handle='{handle}', offset={len(rows)}) to continue]"
    ) in output


def test_from_end_reads_the_last_rows_and_points_further_back(store: LocalFileStore) -> None:
    handle = put(store, numbered(100))
    output = read(store, handle, from_end=True, limit=3)
    assert output.split('\n')[1:4] == ['97\tline 0000000097', '98\tline 0000000098', '99\tline 0000000099']
    assert f"97 earlier rows: call read_tool_result(handle='{handle}', offset=3, from_end=True)" in output
    back = read(store, handle, from_end=True, offset=98, limit=5)
    assert back.split('\n')[1:3] == ['0\tline 0000000000', '1\tline 0000000001']
    assert back.endswith('[start of output]')


def test_an_offset_past_the_end_says_how_many_rows_there_are(store: LocalFileStore) -> None:
    handle = put(store, numbered(5))
    assert 'offset 9 is past the end: there are 5 rows. Use an offset below 5' in read(store, handle, offset=9)


def test_an_empty_payload_says_so(store: LocalFileStore) -> None:
    assert read(store, put(store, '')) == "['run-1/call_a.0' holds an empty output]"


# --- pattern: literal, bounded ---------------------------------------------------------------------


def test_pattern_is_a_literal_substring_never_a_regex(store: LocalFileStore) -> None:
    text = 'a' * 40 + 'X\n' + 'the regex .*(a+)+$ literally\n' + 'plain\n'
    handle = put(store, text)
    output = read(store, handle, pattern='.*(a+)+$')
    assert output.split('\n')[1:] == ['1\tthe regex .*(a+)+$ literally']
    assert output.startswith("['run-1/call_a.0': 1 row in 1 of 3 lines contains '.*(a+)+$'; showing matches 1–1")
    assert 'no line contains' in read(store, handle, pattern='A+')


def test_pattern_header_counts_matches_and_pages_over_them(store: LocalFileStore) -> None:
    text = ''.join(f'{"ERROR" if i % 10 == 0 else "ok"} {i}\n' for i in range(100))
    handle = put(store, text)
    output = read(store, handle, pattern='ERROR', limit=4)
    lines = output.split('\n')
    assert lines[0].startswith("['run-1/call_a.0': 10 rows in 10 of 100 lines contain 'ERROR'; showing matches 1–4")
    assert lines[1:5] == ['0\tERROR 0', '10\tERROR 10', '20\tERROR 20', '30\tERROR 30']
    assert f"6 more matching rows: call read_tool_result(handle='{handle}', offset=4, pattern='ERROR')" in lines[5]
    last = read(store, handle, pattern='ERROR', offset=8)
    assert last.split('\n')[1:] == ['80\tERROR 80', '90\tERROR 90']


def test_a_match_inside_a_long_line_selects_only_the_rows_it_touches() -> None:
    line = 'a' * 10 + 'NEEDLE' + 'b' * 20 + 'NEE' + 'DLE' + 'c' * 10
    page = paginate(line + '\nNEEDLE on its own\n', width=12, pattern='NEEDLE')
    # Line 1 is rows 0-4: a*10 + 'NE' | 'EDLE' + b*8 | b*12 | 'NEEDLE' + c*6 | c*4. Line 2 is row 5.
    assert [row.index for row in page.rows] == [0, 1, 3, 5]
    assert page.matched_lines == 2
    straddling = paginate('x' * 10 + 'NEEDLE', width=12, pattern='NEEDLE')
    assert [row.text for row in straddling.rows] == ['x' * 10 + 'NE', 'EDLE']


def test_a_pathological_pattern_over_a_huge_line_stays_linear() -> None:
    text = 'a' * 400_000
    page = paginate(text, pattern='a', limit=MAX_LIMIT)
    assert page.selected == 200
    assert page.matched_lines == 1


@pytest.mark.parametrize(
    ('pattern', 'message'),
    [
        ('p' * (MAX_PATTERN_CHARS + 1), f'pattern is 201 characters long; at most {MAX_PATTERN_CHARS} are accepted'),
        ('two\nlines', 'pattern cannot contain a line break'),
    ],
)
def test_unusable_patterns_get_a_clear_message(
    store: LocalFileStore, otel: OTelHarness, pattern: str, message: str
) -> None:
    output = read(store, put(store, numbered(3)), pattern=pattern)
    assert message in output
    assert otel.delta(names.READS.name, outcome='invalid') == 1


def test_an_empty_pattern_means_no_filter(store: LocalFileStore) -> None:
    handle = put(store, numbered(3))
    assert read(store, handle, pattern='') == read(store, handle)


# --- handles ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ('handle', 'outcome', 'says'),
    [
        ('run-1/nope.0', 'miss', 'nothing is stored under handle'),
        ('%2e%2e/%2e%2e/secret', 'miss', 'nothing is stored under handle'),
        ('../secret', 'denied', "climbs out with '..'"),
        ('run-1/../../secret', 'denied', "climbs out with '..'"),
        ('/etc/passwd', 'denied', 'absolute path'),
        ('run-1/outward', 'denied', 'outside the store'),
        ('', 'invalid', 'the handle is empty'),
        ('run-1/call\x00.0', 'invalid', 'NUL byte'),
        ('h' * 10_240, 'invalid', '10,240 characters long'),
    ],
)
def test_unknown_and_forged_handles_get_guidance_and_reveal_nothing(
    store: LocalFileStore, tmp_path: Path, otel: OTelHarness, handle: str, outcome: str, says: str
) -> None:
    (tmp_path / 'secret').write_text(CANARY)
    put(store, 'inside')
    os.symlink(tmp_path / 'secret', store.root / 'run-1' / 'outward')
    output = read(store, handle)
    assert says in output
    guidance = (
        'Copy the handle exactly as printed in the notice of the stored tool result you want to read, '
        "e.g. read_tool_result(handle='<run-id>/<tool-call-id>.0')"
    )
    assert guidance in output
    assert CANARY not in output
    assert str(tmp_path) not in output
    assert len(output) < 600
    assert otel.delta(names.READS.name, outcome=outcome) == 1
    [span] = otel.spans(names.SPAN_READ)
    assert span.attributes is not None
    assert span.attributes[names.TOOL_OUTPUT_READ_OUTCOME] == outcome
    assert len(str(span.attributes[names.TOOL_OUTPUT_HANDLE])) <= 256


def test_an_unsafe_root_is_denied_without_showing_the_path(tmp_path: Path, otel: OTelHarness) -> None:
    real = tmp_path / 'real'
    real.mkdir()
    (tmp_path / 'root').symlink_to(real)
    output = read(LocalFileStore(base_dir=tmp_path / 'root'), 'run/call.0')
    assert 'refusing every read' in output
    assert str(tmp_path) not in output
    assert otel.delta(names.READS.name, outcome='denied') == 1


def test_a_failing_store_becomes_a_message_without_its_details(otel: OTelHarness) -> None:
    output = read(BrokenStore(OSError(5, 'I/O error', '/secret/mount/point')), 'run/call.0')
    assert output.startswith("[read_tool_result: the overflow store could not read handle 'run/call.0' (OSError).")
    assert '/secret' not in output
    assert otel.delta(names.READS.name, outcome='miss') == 1


def test_a_store_following_the_protocol_errors_is_understood(otel: OTelHarness) -> None:
    assert 'nothing is stored under handle' in read(BrokenStore(UnknownHandle('x')), 'run/call.0')


def test_bytes_that_are_not_utf8_are_shown_with_replacement_and_said_so(store: LocalFileStore) -> None:
    output = read(store, put(store, b'ok\n\xff\xfe bad\n'))
    assert '1\t\ufffd\ufffd bad' in output
    assert 'not valid UTF-8' in output


def test_a_custom_tool_name_is_used_in_every_hint(store: LocalFileStore) -> None:
    handle = put(store, numbered(10))
    assert 'call fetch_stored(handle=' in read(store, handle, limit=2, read_tool_name='fetch_stored')
    assert read(store, handle, offset=-1, read_tool_name='fetch_stored').startswith('[fetch_stored:')


# --- telemetry ----------------------------------------------------------------------------------------


def test_read_span_attributes_and_counter(store: LocalFileStore, otel: OTelHarness) -> None:
    handle = put(store, numbered(50))
    read(store, handle, offset=5, limit=10, from_end=True, pattern='line')
    [span] = otel.spans(names.SPAN_READ)
    assert span.attributes is not None
    assert dict(span.attributes) == {
        names.TOOL_OUTPUT_HANDLE: handle,
        names.TOOL_OUTPUT_READ_OFFSET: 5,
        names.TOOL_OUTPUT_READ_LIMIT: 10,
        names.TOOL_OUTPUT_READ_FROM_END: True,
        names.TOOL_OUTPUT_READ_LINES: 10,
        names.TOOL_OUTPUT_READ_OUTCOME: 'hit',
        names.TOOL_OUTPUT_READ_PATTERN_CHARS: 4,
        names.LOGFIRE_MSG: f"read '{handle}': hit, 10 rows at from the end, offset 5, literal pattern of 4 chars",
    }
    assert span.instrumentation_scope is not None
    assert span.instrumentation_scope.name == names.INSTRUMENTATION_SCOPE
    assert otel.delta(names.READS.name, outcome='hit') == 1


def test_no_payload_text_or_pattern_reaches_telemetry(store: LocalFileStore, otel: OTelHarness) -> None:
    handle = put(store, f'{CANARY} line one\nsecond {CANARY}\n' * 50)
    for kwargs in ({}, {'pattern': CANARY}, {'pattern': f'{CANARY} line'}, {'from_end': True, 'pattern': 'missing'}):
        read(store, handle, **kwargs)
    read(store, f'{CANARY}/../x')  # a forged handle made of payload text is model text too
    read(store, CANARY * 20)
    spans = otel.spans()
    assert len(otel.spans(names.SPAN_READ)) == 6
    for span in spans:
        for value in (span.attributes or {}).values():
            assert CANARY not in str(value)
        for event in span.events:
            assert all(CANARY not in str(v) for v in (event.attributes or {}).values())
    for point in otel.points():
        assert all(CANARY not in str(v) for v in point.attributes.values())


@pytest.mark.parametrize('offset', [10**30, 2**63, -(2**63) - 1, -(10**30)])
def test_an_offset_beyond_int64_is_recorded_at_the_int64_bound(
    store: LocalFileStore, otel: OTelHarness, offset: int
) -> None:
    """OTLP carries int64: an exporter drops an attribute outside it and logs an error for every such span."""
    read(store, put(store, numbered(3)), offset=offset)
    [span] = otel.spans(names.SPAN_READ)
    assert span.attributes is not None
    recorded = span.attributes[names.TOOL_OUTPUT_READ_OFFSET]
    assert recorded == (2**63 - 1 if offset > 0 else -(2**63))


def test_only_a_handle_that_was_found_is_recorded_verbatim(store: LocalFileStore, otel: OTelHarness) -> None:
    handle = put(store, 'x')
    for forged in ('h' * 10_240, 'run/with space.0', 'run-1/not-there.0', '../x'):
        read(store, forged)
    read(store, handle)
    recorded = [s.attributes[names.TOOL_OUTPUT_HANDLE] for s in otel.spans(names.SPAN_READ) if s.attributes]
    assert [str(value)[:9] for value in recorded[:4]] == ['xxh3_128:'] * 4
    assert recorded[4] == handle


# --- the tool inside a real agent run ----------------------------------------------------------------


def test_under_prefix_tools_every_hint_names_the_read_tool_as_the_model_knows_it(tmp_path: Path) -> None:
    """`PrefixTools` renames the read tool: the stand-in and the read's own continuation hints say the new name."""
    limits = ToolOutputLimits[None](store=LocalFileStore(base_dir=tmp_path / 'root'))
    prefixed = PrefixTools[None](wrapped=limits, prefix='lim')

    def read_three_rows(messages: list[ModelMessage]) -> ModelResponse:
        handle = handle_in(text_of(tool_returns(messages)[-1]))
        return respond(call('lim_read_tool_result', {'handle': handle, 'limit': 3}))

    script = Script([respond(call('fetch_logs')), read_three_rows, done()])
    agent = Agent(script.model(), deps_type=type(None), capabilities=[prefixed])

    @agent.tool_plain
    def fetch_logs() -> str:
        return '\n'.join(f'line {i}' for i in range(5_000))

    agent.run_sync('read the logs')
    [stand_in] = tool_returns(script.received[1], 'fetch_logs')
    [page] = tool_returns(script.received[2], 'lim_read_tool_result')
    assert 'lim_read_tool_result(handle=' in text_of(stand_in)
    assert text_of(page).splitlines()[1:4] == ['0\tline 0', '1\tline 1', '2\tline 2']  # read whole, not reduced
    footer = text_of(page).rsplit('\n', 1)[-1]
    assert 'call lim_read_tool_result(handle=' in footer and 'offset=3' in footer


def test_the_read_tool_name_falls_back_when_the_run_cannot_list_its_tools() -> None:
    class Unlisted:
        @property
        def tools(self) -> dict[str, Any]:
            raise RuntimeError('no tools here')

    ctx = RunContext[None](deps=None, model=TestModel(), usage=RunUsage(), tool_manager=cast('Any', Unlisted()))
    assert read_tool_name_in_run(ctx) == READ_TOOL_NAME
    assert read_tool_name_in_run(ctx, 'lim_read_tool_result') == 'lim_read_tool_result'


def test_the_toolset_exposes_one_marked_tool_with_a_model_facing_schema(store: LocalFileStore) -> None:
    toolset = build_read_toolset(lambda: store)
    [tool] = toolset.tools.values()
    assert tool.name == READ_TOOL_NAME
    assert tool.metadata == {'observable_harness': 'read_tool_result'}
    assert is_read_tool(tool.metadata)
    assert not is_read_tool({'observable_harness': 'other'})
    assert not is_read_tool(None)
    assert READ_TOOL_METADATA == ('observable_harness', 'read_tool_result')
    definition = tool.tool_def
    assert f'At most {MAX_LIMIT} rows and 20,000 characters' in (definition.description or '')
    properties = definition.parameters_json_schema['properties']
    assert set(properties) == {'handle', 'offset', 'limit', 'from_end', 'pattern'}
    assert definition.parameters_json_schema['required'] == ['handle']
    assert 'not a regex' in properties['pattern']['description']
    assert 'at most 500' in properties['limit']['description']


Args = dict[str, Any]


def scripted_model(calls: list[Args | Callable[[str], Args]], seen: list[list[ModelMessage]]) -> FunctionModel:
    """Calls `read_tool_result` with each args dict in turn (a callable builds args from the last return)."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        step = len(seen) - 1
        if step < len(calls):
            call = calls[step]
            args = call(last_return(messages)) if callable(call) else call
            return ModelResponse(parts=[ToolCallPart(READ_TOOL_NAME, args, tool_call_id=f'read-{step}')])
        return ModelResponse(parts=[TextPart('done')])

    return FunctionModel(respond)


def last_return(messages: list[ModelMessage]) -> str:
    request = messages[-1]
    assert isinstance(request, ModelRequest)
    [part] = [p for p in request.parts if isinstance(p, ToolReturnPart)]
    assert isinstance(part.content, str)
    return part.content


def test_an_agent_pages_a_stored_payload_through_the_tool(store: LocalFileStore, otel: OTelHarness) -> None:
    text = numbered(1_000)
    handle = put(store, text)
    seen: list[list[ModelMessage]] = []

    def continue_from(previous: str) -> dict[str, Any]:
        found = re.search(r'offset=(\d+)', previous.rsplit('\n', 1)[-1])
        assert found
        return {'handle': handle, 'offset': int(found.group(1)), 'limit': 2}

    model = scripted_model(
        [
            {'handle': handle, 'limit': 2},
            continue_from,
            {'handle': handle, 'pattern': 'line 0000000777'},
            {'handle': '../../etc/passwd'},
            {'handle': handle, 'offset': -1},
        ],
        seen,
    )
    agent = Agent(model, toolsets=[build_read_toolset(lambda: store)])
    result = agent.run_sync('read it')

    assert result.output == 'done'
    returns = [last_return(messages) for messages in seen[1:]]
    assert returns[0].split('\n')[1:3] == ['0\tline 0000000000', '1\tline 0000000001']
    assert returns[1].split('\n')[1:3] == ['2\tline 0000000002', '3\tline 0000000003']
    assert returns[2].split('\n')[1:] == ['777\tline 0000000777']
    assert "climbs out with '..'" in returns[3]
    assert 'offset must be 0 or more' in returns[4]
    kept = [p.content for m in result.all_messages() for p in getattr(m, 'parts', []) if isinstance(p, ToolReturnPart)]
    assert kept == returns
    outcomes = [s.attributes[names.TOOL_OUTPUT_READ_OUTCOME] for s in otel.spans(names.SPAN_READ) if s.attributes]
    assert outcomes == ['hit', 'hit', 'hit', 'denied', 'invalid']


def test_the_read_span_nests_under_the_tool_execution_span(store: LocalFileStore, otel: OTelHarness) -> None:
    handle = put(store, numbered(3))
    agent = Agent(scripted_model([{'handle': handle}], []), toolsets=[build_read_toolset(lambda: store)])
    Agent.instrument_all()
    try:
        agent.run_sync('read it')
    finally:
        Agent.instrument_all(False)
    [read_span] = otel.spans(names.SPAN_READ)
    [tool_span] = [s for s in otel.spans() if s.name.startswith('execute_tool')]
    assert read_span.parent is not None
    assert tool_span.context is not None
    assert read_span.parent.span_id == tool_span.context.span_id


def test_a_store_getter_that_raises_reaches_the_model_as_a_message(otel: OTelHarness) -> None:
    def no_store() -> Any:
        raise RuntimeError('store not configured')

    seen: list[list[ModelMessage]] = []
    agent = Agent(scripted_model([{'handle': 'run/call.0'}], seen), toolsets=[build_read_toolset(no_store)])
    assert agent.run_sync('read it').output == 'done'
    assert '(RuntimeError)' in last_return(seen[1])
    assert otel.delta(names.READS.name, outcome='miss') == 1


# --- through ToolOutputLimits in a real agent run ------------------------------------------------------


def page_until_done(tool: str, **first_args: Any) -> Callable[[list[ModelMessage]], ModelResponse]:
    """A model step that reads back the stand-in's handle, then follows each page's footer to the end."""

    def step(messages: list[ModelMessage]) -> ModelResponse:
        [*_, last] = tool_returns(messages)
        latest = text_of(last)
        if last.tool_name == tool:
            return respond(call(READ_TOOL_NAME, {'handle': handle_in(latest), **first_args}, 'read-0'))
        found = re.search(r"call read_tool_result\(handle='([^']+)', offset=(\d+)", latest.rsplit('\n', 1)[-1])
        if found is None:
            return done()
        args = {**first_args, 'handle': found.group(1), 'offset': int(found.group(2))}
        return respond(call(READ_TOOL_NAME, args, f'read-{found.group(2)}'))

    return step


def run_and_page(tmp_path: Path, value: Any, **first_args: Any) -> tuple[Any, list[str], str]:
    script = Script([respond(call('fetch_logs', call_id='big')), *[page_until_done('fetch_logs', **first_args)] * 60])
    agent = Agent(script.model(), capabilities=[ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path / 'spill'))])
    agent.tool_plain(name='fetch_logs')(lambda: value)
    result = agent.run_sync('summarize the logs')
    [stand_in] = [text_of(p) for p in tool_returns(result.all_messages(), 'fetch_logs')]
    pages = [text_of(p) for p in tool_returns(result.all_messages(), READ_TOOL_NAME)]
    received = [text_of(p) for p in tool_returns(script.received[-1], READ_TOOL_NAME)]
    assert received == pages  # what history kept is exactly what the model was sent
    assert result.output == 'done'
    return result, pages, stand_in


def test_an_agent_reads_a_50k_spill_back_page_by_page_and_gets_every_byte(tmp_path: Path, otel: OTelHarness) -> None:
    line = '2026-11-29T10:{:02d}:{:02d} INFO worker-{} batch {:06d}\n'
    log = ''.join(line.format(i // 60 % 60, i % 60, i % 7, i) for i in range(1_100))[:50_000]
    assert len(log) == 50_000
    _, pages, stand_in = run_and_page(tmp_path, log)

    handle = handle_in(stand_in)
    assert 'stored whole: 50,000 chars' in stand_in
    assert re.fullmatch(r'[^/]+/big\.0', handle)
    assert len(pages) == 6  # 1,064 rows, 200 per page
    # 200 rows of ~55 chars is over the default 10,000-char band: only read-back's exemption keeps pages whole.
    assert all(len(page) > 10_000 for page in pages[:-1])
    assert all('stored whole' not in page for page in pages)
    assert pages[0].split('\n')[1] == '0\t' + log.split('\n')[0]
    assert pages[-1].endswith('[end of output; it has no final newline]')
    assert rebuild(pages) == log

    reads = otel.spans(names.SPAN_READ)
    assert len(reads) == 6
    assert [s.attributes[names.TOOL_OUTPUT_HANDLE] for s in reads if s.attributes] == [handle] * 6
    assert otel.delta(names.READS.name, outcome='hit') == 6
    assert len([s for s in otel.spans(names.SPAN_REDUCE)]) == 1  # the 50 KB return; no read page was reduced


def test_an_agent_rebuilds_a_one_line_json_spill_exactly(tmp_path: Path) -> None:
    value = {'items': [{'id': i, 'path': f'/srv/data/{i:05d}.bin', 'ok': i % 3 != 0} for i in range(1_200)]}
    _, pages, stand_in = run_and_page(tmp_path, value, limit=MAX_LIMIT)
    assert 'Shape:' in stand_in
    assert len(pages) > 1
    assert all('cut at 20,000 characters' in page for page in pages[:-1])
    assert json.loads(rebuild(pages)) == value


def test_the_model_can_grep_and_read_around_a_match_through_the_agent(tmp_path: Path) -> None:
    log = ''.join(f'INFO step {i}\n' if i != 4321 else 'ERROR disk quota exceeded on /srv\n' for i in range(6_000))
    script = Script(
        [
            respond(call('fetch_logs', call_id='big')),
            lambda m: read_back(m, 'fetch_logs', pattern='ERROR'),
            lambda m: read_back(m, 'fetch_logs', offset=4319, limit=5),
            lambda m: read_back(m, 'fetch_logs', pattern='.*ERROR.*'),
        ]
    )
    agent = Agent(script.model(), capabilities=[ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path))])
    agent.tool_plain(name='fetch_logs')(lambda: log)
    grep, around, regex = [
        text_of(p) for p in tool_returns(agent.run_sync('why did it fail?').all_messages(), READ_TOOL_NAME)
    ]
    assert grep.split('\n')[1:] == ['4321\tERROR disk quota exceeded on /srv']
    assert around.split('\n')[1:6] == [
        '4319\tINFO step 4319',
        '4320\tINFO step 4320',
        '4321\tERROR disk quota exceeded on /srv',
        '4322\tINFO step 4322',
        '4323\tINFO step 4323',
    ]
    assert "no line contains '.*ERROR.*'" in regex and 'literal text' in regex
