"""ToolOutputLimits through real agent runs: what the model received, and what history kept (SPEC TOL)."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent, ModelRetry
from pydantic_ai.messages import BinaryContent, ModelMessage, ModelRequest, ModelResponse, ToolReturn, UserPromptPart
from pydantic_ai.usage import UsageLimits
from tests.agents import (
    Script,
    call,
    done,
    handle_in,
    read_back,
    respond,
    retry_texts,
    run_usage,
    text_of,
    tool_returns,
)
from tests.doubles import BrokenStore, MemoryStore
from tests.otel import OTelHarness

from observable_harness import ToolOutputLimits
from observable_harness._text.cut import cut_text
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import (
    Band,
    LocalFileStore,
    OverflowStore,
    Passthrough,
    Spill,
    Summarize,
    Truncate,
    TruncationStrategy,
    indented_json,
    json_lines,
)

LOG = '\n'.join(
    f'2026-11-29T10:{i // 60:02d}:{i % 60:02d} INFO worker-{i % 7} processed batch {i}' for i in range(2000)
)


def make_agent(script: Script, capability: ToolOutputLimits[Any], **tools: Any) -> Agent[None, str]:
    agent = Agent(script.model(), capabilities=[capability])
    for name, func in tools.items():
        agent.tool_plain(name=name)(func)
    return agent


def returns_of(result_messages: list[ModelMessage], tool: str) -> list[str]:
    return [text_of(part) for part in tool_returns(result_messages, tool)]


# --- TOL-1, TOL-2: bands and the default -----------------------------------------------------


def test_default_spills_large_returns_and_passes_small_ones_untouched(tmp_path: Path) -> None:
    script = Script([respond(call('logs', call_id='c1'), call('status', call_id='c2')), done()])
    agent = make_agent(
        script,
        ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path)),
        logs=lambda: LOG,
        status=lambda: 'ok: 3 running',
    )
    result = agent.run_sync('check the workers')

    [stand_in] = returns_of(result.all_messages(), 'logs')
    assert returns_of(result.all_messages(), 'status') == ['ok: 3 running']
    assert len(stand_in) < 2_500 < len(LOG)
    assert f'{len(LOG):,} chars' in stand_in
    assert 'read_tool_result(handle=' in stand_in
    assert 'processed batch 0' in stand_in and 'processed batch 1999' in stand_in  # head and tail preview
    # What the model received on the next request is the stand-in, not the payload.
    assert returns_of(script.received[1], 'logs') == [stand_in]


def test_reduction_persists_and_is_not_recomputed(tmp_path: Path) -> None:
    calls: list[int] = []

    def logs() -> str:
        calls.append(1)
        return LOG

    script = Script([respond(call('logs')), respond(call('status')), respond(call('status', call_id='s2')), done()])
    agent = make_agent(
        script, ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path)), logs=logs, status=lambda: 'ok'
    )
    agent.run_sync('go')
    stand_ins = [returns_of(received, 'logs') for received in script.received[1:]]
    assert len(calls) == 1
    assert stand_ins[0] == stand_ins[1] == stand_ins[2]  # byte-identical on every later request
    assert len(stand_ins[0][0]) < len(LOG)


def test_largest_reached_threshold_wins_and_below_smallest_passes() -> None:
    bands = [
        Band(over=1_000, action=Truncate(max_chars=500)),
        Band(over=100_000, action=Spill()),
        Band(over=5_000, action=Truncate(max_chars=2_000)),
    ]
    store = MemoryStore()
    texts = {'tiny': 'x' * 999, 'small': 'y' * 3_000, 'medium': 'z' * 50_000, 'huge': 'w' * 200_000}
    script = Script([respond(*(call(name, call_id=name) for name in texts)), done()])
    agent = make_agent(
        script, ToolOutputLimits(bands=bands, store=store), **{k: (lambda v=v: v) for k, v in texts.items()}
    )
    result = agent.run_sync('go')
    out = {part.tool_name: text_of(part) for part in tool_returns(result.all_messages())}
    assert out['tiny'] == texts['tiny']
    assert len(out['small']) <= 500 and 'truncated' in out['small']
    assert len(out['medium']) <= 2_000 and 'truncated' in out['medium']
    assert 'stored whole' in out['huge'] and len(store.data) == 1


def test_negative_threshold_is_rejected() -> None:
    with pytest.raises(ValueError, match='Band.over must be >= 0'):
        Band(over=-1, action=Truncate())


def test_band_action_must_be_an_action() -> None:
    with pytest.raises(TypeError, match='Band.action must be an action'):
        Band(over=1, action='spill')  # pyright: ignore[reportArgumentType]


def test_explicit_passthrough_leaves_return_whole() -> None:
    script = Script([respond(call('logs')), done()])
    agent = make_agent(script, ToolOutputLimits(bands=[Band(over=0, action=Passthrough())]), logs=lambda: LOG)
    result = agent.run_sync('go')
    assert returns_of(result.all_messages(), 'logs') == [LOG]


# --- TOL-3..5: truncation and its marker -------------------------------------------------------

_MARKER = re.compile(
    r'\[… truncated: ([\d,]+) of ([\d,]+) chars cut, kept (?:the first ([\d,]+))?(?: and )?(?:the last ([\d,]+))?\.'
)


def _marker_numbers(text: str) -> tuple[int, int, int, int]:
    match = _MARKER.search(text)
    assert match, text[:400]
    cut, total, head, tail = (int((g or '0').replace(',', '')) for g in match.groups())
    return cut, total, head, tail


@pytest.mark.parametrize('strategy', [TruncationStrategy.head, TruncationStrategy.tail, TruncationStrategy.head_tail])
def test_truncate_keeps_promised_ends_and_states_cut_and_total(strategy: TruncationStrategy) -> None:
    script = Script([respond(call('logs')), done()])
    capability = ToolOutputLimits(bands=[Band(over=5_000, action=Truncate(strategy=strategy, max_chars=3_000))])
    result = make_agent(script, capability, logs=lambda: LOG).run_sync('go')
    [out] = returns_of(result.all_messages(), 'logs')
    assert len(out) <= 3_000
    cut, total, head, tail = _marker_numbers(out)
    assert total == len(LOG) and head + tail + cut == total
    assert 'call the tool again with a narrower request' in out  # how to get the rest
    if strategy is not TruncationStrategy.tail:
        assert out.startswith(LOG[:head]) and head > 0
    if strategy is not TruncationStrategy.head:
        assert out.endswith(LOG[len(LOG) - tail :]) and tail > 0
        assert 'processed batch 1999' in out
    if strategy is TruncationStrategy.head:
        assert tail == 0 and 'processed batch 0' in out


def test_truncate_max_chars_is_characters_even_when_measuring_tokens() -> None:
    script = Script([respond(call('logs')), done()])
    capability = ToolOutputLimits(bands=[Band(over=1_000, action=Truncate(max_chars=1_200))], over_tokens=True)
    result = make_agent(script, capability, logs=lambda: LOG).run_sync('go')
    [out] = returns_of(result.all_messages(), 'logs')
    assert len(out) <= 1_200


def test_truncate_too_small_for_its_marker_is_rejected() -> None:
    with pytest.raises(ValueError, match='max_chars must be at least'):
        Truncate(max_chars=50)


@pytest.mark.parametrize('strategy', list(TruncationStrategy))
def test_the_smallest_accepted_max_chars_still_cuts_a_huge_return(strategy: TruncationStrategy) -> None:
    """At the smallest budget Truncate accepts, the marker drops its advice before it gives up the cut."""
    huge = LOG * 60  # 4 MB: the marker states 8-digit numbers
    script = Script([respond(call('logs')), done()])
    capability = ToolOutputLimits(bands=[Band(over=5_000, action=Truncate(strategy=strategy, max_chars=200))])
    result = make_agent(script, capability, logs=lambda: huge).run_sync('go')
    [out] = returns_of(result.all_messages(), 'logs')
    assert len(out) <= 200
    assert f'of {len(huge):,} chars cut' in out
    # 12,000,000 chars in 4,000,000 lines: the salient marker has room for its numbers only.
    assert len(cut_text('ok\n' * 4_000_000, 200, strategy).text) <= 200


# --- TOL-4: then fallbacks ---------------------------------------------------------------------


def test_spill_whose_store_raises_falls_back_to_truncate() -> None:
    store = BrokenStore()
    script = Script([respond(call('logs')), done()])
    agent = make_agent(script, ToolOutputLimits(store=store), logs=lambda: LOG)
    result = agent.run_sync('go')
    [out] = returns_of(result.all_messages(), 'logs')
    assert store.writes == 1
    assert 'truncated' in out and len(out) <= 4_000
    assert result.output == 'done'


def test_a_chain_that_fails_whole_ends_in_a_last_resort_cut_that_says_so(
    otel: OTelHarness, caplog: pytest.LogCaptureFixture
) -> None:
    script = Script([respond(call('logs', call_id='a'), call('logs', call_id='b')), done()])
    agent = make_agent(
        script, ToolOutputLimits(bands=[Band(over=10, action=Spill())], store=BrokenStore()), logs=lambda: LOG
    )
    with caplog.at_level(logging.WARNING, logger='observable_harness'):
        result = agent.run_sync('go')
    assert result.output == 'done'
    for seen in returns_of(result.all_messages(), 'logs'):
        assert len(seen) <= 4_000 < len(LOG)  # never the whole output, the flood the capability exists to stop
        assert 'Every action configured for this output failed (spill)' in seen
        assert LOG.splitlines()[0] in seen and LOG.splitlines()[-1] in seen
    spans = otel.spans(names.SPAN_REDUCE)
    assert [dict(span.attributes or {})[names.TOOL_OUTPUT_FALLBACK_CHAIN] for span in spans] == [
        'spill>last_resort'
    ] * 2
    assert [dict(span.attributes or {})[names.TOOL_OUTPUT_OUTCOME] for span in spans] == ['truncate', 'truncate']
    assert otel.delta(names.FALLBACKS.name, from_action='spill', to_action='last_resort', reason='OSError') == 2
    # Logged once for the run and cause, naming the tool, the action, the exception and what to check.
    [warning] = [r.getMessage() for r in caplog.records if r.name == 'observable_harness']
    assert "spill failed on the output of tool 'logs' (OSError" in warning
    assert 'last resort' in warning and 'Check the overflow store' in warning


def test_binary_output_whose_chain_fails_stays_verbatim() -> None:
    png = BinaryContent(data=b'\x89PNG' + bytes(20_000), media_type='image/png')
    script = Script([respond(call('shot')), done()])
    agent = make_agent(
        script, ToolOutputLimits(bands=[Band(over=10, action=Spill())], store=BrokenStore()), shot=lambda: png
    )
    [part] = tool_returns(agent.run_sync('go').all_messages(), 'shot')
    assert part.content == png


def test_chains_nest_summarize_then_spill_then_truncate() -> None:
    def failing_summary(tool_name: str, text: str) -> str:
        raise RuntimeError('summarizer down')

    action = Summarize(summarize=failing_summary, then=Spill(then=Truncate(max_chars=1_000)))
    script = Script([respond(call('logs')), done()])
    agent = make_agent(
        script, ToolOutputLimits(bands=[Band(over=100, action=action)], store=BrokenStore()), logs=lambda: LOG
    )
    [out] = returns_of(agent.run_sync('go').all_messages(), 'logs')
    assert len(out) <= 1_000 and 'truncated' in out


# --- TOL-6, TOL-7: spill stand-in and read-back ------------------------------------------------


def test_spill_stand_in_names_read_tool_and_read_back_returns_the_payload(tmp_path: Path) -> None:
    script = Script([respond(call('logs')), lambda m: read_back(m, 'logs', offset=0, limit=5), done()])
    agent = make_agent(script, ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path)), logs=lambda: LOG)
    result = agent.run_sync('go')
    [stand_in] = returns_of(result.all_messages(), 'logs')
    [page] = returns_of(result.all_messages(), 'read_tool_result')
    assert handle_in(stand_in) in stand_in
    for line in LOG.split('\n')[:5]:
        assert line in page
    assert LOG.split('\n')[5] not in page


def test_read_tool_returns_are_never_reduced(tmp_path: Path) -> None:
    # A band of 10 chars would cut any read-back page if read-back were not exempt.
    capability = ToolOutputLimits(
        bands=[Band(over=10, action=Spill(then=Truncate()))], store=LocalFileStore(base_dir=tmp_path)
    )
    script = Script([respond(call('logs')), lambda m: read_back(m, 'logs', limit=100), done()])
    result = make_agent(script, capability, logs=lambda: LOG).run_sync('go')
    [page] = returns_of(result.all_messages(), 'read_tool_result')
    assert 'stored whole' not in page and 'truncated' not in page
    assert LOG.split('\n')[99] in page


def test_structured_spill_has_a_shape_sketch() -> None:
    records = [{'id': i, 'name': f'item-{i}', 'tags': ['a', 'b']} for i in range(2_000)]
    script = Script([respond(call('listing')), done()])
    store = MemoryStore()
    result = make_agent(script, ToolOutputLimits(store=store), listing=lambda: records).run_sync('go')
    [stand_in] = returns_of(result.all_messages(), 'listing')
    assert 'Shape: list of 2,000 items of dict (keys: id, name, tags)' in stand_in
    [stored] = store.data.values()
    assert json.loads(stored) == records
    assert b'\n' not in stored  # compact JSON by default: one line


SCHEMA = {
    'definitions': {
        f'job_{index}': {
            'type': 'object',
            'properties': {
                'retry': {'type': 'integer', 'maximum': 2, 'description': f'Retries of job {index}, at most two.'},
                'cache': {'type': 'string', 'default': 'pull-push', 'enum': ['pull', 'push', 'pull-push']},
            },
        }
        for index in range(300)
    },
    'version': 3,
}


def test_a_large_object_is_stored_and_previewed_a_member_a_line(otel: OTelHarness) -> None:
    store = MemoryStore()
    script = Script(
        [
            respond(call('schema')),
            lambda m: read_back(m, 'schema', pattern='"job_150":{'),
            done(),
        ]
    )
    result = make_agent(script, ToolOutputLimits(store=store), schema=lambda: SCHEMA).run_sync('go')
    [stored] = store.data.values()
    text = stored.decode()
    assert json.loads(text) == SCHEMA
    assert '\n  "job_150":{\n' in text  # the member's own line, not a slice of one long line
    assert '\n    "cache":{"type":"string","default":"pull-push","enum":["pull","push","pull-push"]}\n' in text
    [stand_in] = returns_of(result.all_messages(), 'schema')
    assert 'Shape: dict with 2 keys: definitions: dict, version: int' in stand_in
    assert '"version":3' in stand_in  # the object's last member closes the preview on a line of its own
    [page] = returns_of(result.all_messages(), 'read_tool_result')
    assert '"job_150":{' in page and '"job_1500"' not in page
    # What the model would have seen, and what is reported as the original, is the compact text.
    [span] = otel.spans(names.SPAN_REDUCE)
    compact = json.dumps(SCHEMA, separators=(',', ':'))
    assert dict(span.attributes or {})[names.TOOL_OUTPUT_ORIGINAL_BYTES] == len(compact)


# --- TOL-8: per_tool and tool_filter -----------------------------------------------------------


def test_per_tool_replaces_bands_for_named_tools() -> None:
    capability = ToolOutputLimits(
        per_tool={
            'read_file': [Band(over=8_000, action=Truncate(strategy=TruncationStrategy.head, max_chars=1_000))],
            'run_shell': [Band(over=8_000, action=Truncate(strategy=TruncationStrategy.tail, max_chars=1_000))],
        },
        store=MemoryStore(),
    )
    script = Script(
        [respond(call('read_file', call_id='a'), call('run_shell', call_id='b'), call('other', call_id='c')), done()]
    )
    result = make_agent(script, capability, read_file=lambda: LOG, run_shell=lambda: LOG, other=lambda: LOG).run_sync(
        'go'
    )
    out = {p.tool_name: text_of(p) for p in tool_returns(result.all_messages())}
    assert out['read_file'].startswith(LOG[:100]) and 'batch 1999' not in out['read_file']
    assert out['run_shell'].endswith(LOG[-100:]) and 'batch 0\n' not in out['run_shell']
    assert 'stored whole' in out['other']  # default bands still apply elsewhere


@pytest.mark.parametrize('selector', ['list', 'callable'])
def test_tool_filter_scopes_the_capability(selector: str) -> None:
    tool_filter: Any = ['logs'] if selector == 'list' else (lambda ctx, tool_def: tool_def.name == 'logs')
    capability = ToolOutputLimits(bands=[Band(over=100, action=Truncate(max_chars=500))], tool_filter=tool_filter)
    script = Script([respond(call('logs', call_id='a'), call('dump', call_id='b')), done()])
    result = make_agent(script, capability, logs=lambda: LOG, dump=lambda: LOG).run_sync('go')
    out = {p.tool_name: text_of(p) for p in tool_returns(result.all_messages())}
    assert len(out['logs']) <= 500
    assert out['dump'] == LOG


# --- TOL-9: ToolReturn value and content ---------------------------------------------------------


def test_tool_return_value_and_content_are_reduced_to_distinct_handles() -> None:
    store = MemoryStore()
    script = Script([respond(call('report')), done()])
    capability = ToolOutputLimits(store=store)
    result = make_agent(script, capability, report=lambda: ToolReturn(return_value=LOG, content=LOG.upper())).run_sync(
        'go'
    )
    [value] = returns_of(result.all_messages(), 'report')
    content_parts = [
        p for m in result.all_messages() for p in getattr(m, 'parts', []) if isinstance(p, UserPromptPart)
    ][1:]
    assert 'stored whole' in value
    assert any('stored whole' in str(p.content) for p in content_parts)
    assert len(store.data) == 2
    keys = sorted(store.data)
    assert keys[0] != keys[1] and keys[1].endswith('.content')
    assert store.data[keys[1]] == LOG.upper().encode()


def test_multimodal_content_is_never_cut_and_warns_when_left_whole() -> None:
    image = BinaryContent(b'\x89PNG' + b'\x00' * 20_000, media_type='image/png')
    capability = ToolOutputLimits(bands=[Band(over=1_000, action=Truncate())])
    script = Script([respond(call('shot')), done()])
    agent = make_agent(script, capability, shot=lambda: ToolReturn(return_value='ok', content=['caption', image]))
    with pytest.warns(UserWarning, match='non-text content item'):
        result = agent.run_sync('go')
    kept = [
        c
        for m in result.all_messages()
        for p in getattr(m, 'parts', [])
        if isinstance(p, UserPromptPart) and not isinstance(p.content, str)
        for c in p.content
        if isinstance(c, BinaryContent)
    ]
    assert kept and kept[0].data == image.data


# --- TOL-10: size unit, tokenizer, ANSI ----------------------------------------------------------


def test_over_tokens_measures_estimated_tokens() -> None:
    text = 'a' * 30_000  # 7,500 estimated tokens: over 5,000 tokens, under 10,000
    capability = ToolOutputLimits(
        bands=[Band(over=5_000, action=Truncate()), Band(over=10_000, action=Spill())], over_tokens=True
    )
    script = Script([respond(call('t')), done()])
    [out] = returns_of(make_agent(script, capability, t=lambda: text).run_sync('go').all_messages(), 't')
    assert 'truncated' in out


def test_tokenizer_callable_is_used() -> None:
    seen: list[int] = []

    def tokenizer(text: str) -> int:
        seen.append(len(text))
        return len(text.split())

    capability = ToolOutputLimits(bands=[Band(over=100, action=Truncate())], tokenizer=tokenizer)
    script = Script([respond(call('words', call_id='a'), call('blob', call_id='b')), done()])
    result = make_agent(script, capability, words=lambda: 'word ' * 150, blob=lambda: 'x' * 9_000).run_sync('go')
    out = {p.tool_name: text_of(p) for p in tool_returns(result.all_messages())}
    assert seen
    assert out['blob'] == 'x' * 9_000  # one "token" by this tokenizer: under the band
    assert out['words'] == 'word ' * 150  # 150 tokens but only 750 chars: under max_chars, unchanged


def test_strip_ansi_removes_escapes_before_measuring() -> None:
    colored = '\x1b[31mERROR\x1b[0m ' * 2_000  # 11 visible chars per repeat after stripping... with colour 20
    capability = ToolOutputLimits(bands=[Band(over=25_000, action=Truncate())], strip_ansi=True)
    script = Script([respond(call('build')), done()])
    [out] = returns_of(make_agent(script, capability, build=lambda: colored).run_sync('go').all_messages(), 'build')
    assert '\x1b' not in out
    assert out == 'ERROR ' * 2_000  # 12,000 chars: under the band once stripped


# --- TOL-11: serializers ------------------------------------------------------------------------


def test_under_threshold_structured_return_passes_as_original_object() -> None:
    payload = {'status': 'ok', 'count': 3}
    seen: list[Any] = []

    class Spy(ToolOutputLimits[Any]):
        async def after_tool_execute(self, ctx: Any, *, call: Any, tool_def: Any, args: Any, result: Any) -> Any:
            out = await super().after_tool_execute(ctx, call=call, tool_def=tool_def, args=args, result=result)
            seen.append(out)
            return out

    script = Script([respond(call('status')), done()])
    agent = Agent(script.model(), capabilities=[Spy()])
    agent.tool_plain(name='status')(lambda: payload)
    agent.run_sync('go')
    assert seen[0] is payload


@pytest.mark.parametrize(
    ('serializer', 'expected_lines'),
    [(None, 1), (indented_json, None), (json_lines, 2_000)],
)
def test_serializers_lay_out_stored_json(serializer: Any, expected_lines: int | None) -> None:
    records = [{'id': i, 'note': f'line\u2028sep {i}'} for i in range(2_000)]
    store = MemoryStore()
    script = Script([respond(call('listing')), done()])
    make_agent(script, ToolOutputLimits(store=store, serializer=serializer), listing=lambda: records).run_sync('go')
    [stored] = store.data.values()
    text = stored.decode()
    assert '\u2028' not in text and '\\u2028' in text  # the presets escape line separators
    if expected_lines is not None:
        assert len(text.split('\n')) == expected_lines
    else:
        assert len(text.split('\n')) > 2_000 * 3  # one field per line
    if serializer is json_lines:
        assert [json.loads(line) for line in text.split('\n')] == records
    else:
        assert json.loads(text) == records


def test_json_lines_treats_a_wrapped_list_as_a_dict() -> None:
    assert json_lines({'items': [1, 2]}) == indented_json({'items': [1, 2]})
    assert json_lines([{'a': 1}, {'a': 2}]) == '{"a":1}\n{"a":2}'


def test_failing_serializer_warns_and_falls_back_to_compact_json() -> None:
    def broken(value: Any) -> str:
        raise RuntimeError('boom')

    store = MemoryStore()
    records = [{'id': i} for i in range(3_000)]
    script = Script([respond(call('listing')), done()])
    agent = make_agent(script, ToolOutputLimits(store=store, serializer=broken), listing=lambda: records)
    with pytest.warns(RuntimeWarning, match='serializer .* raised RuntimeError'):
        agent.run_sync('go')
    [stored] = store.data.values()
    assert json.loads(stored) == records


def test_strings_and_bytes_are_never_serialized() -> None:
    store = MemoryStore()
    script = Script([respond(call('text', call_id='a'), call('blob', call_id='b')), done()])
    capability = ToolOutputLimits(store=store, serializer=indented_json)
    make_agent(script, capability, text=lambda: LOG, blob=lambda: b'\x00\x01' * 10_000).run_sync('go')
    assert set(store.data.values()) == {LOG.encode(), b'\x00\x01' * 10_000}


# --- TOL-12: binary ------------------------------------------------------------------------------


def test_binary_is_kept_verbatim_and_truncate_goes_to_then() -> None:
    blob = BinaryContent(bytes(range(256)) * 100, media_type='application/octet-stream')
    store = MemoryStore()
    capability = ToolOutputLimits(bands=[Band(over=1_000, action=Truncate(then=Spill()))], store=store)
    script = Script([respond(call('blob')), done()])
    result = make_agent(script, capability, blob=lambda: blob).run_sync('go')
    [stand_in] = returns_of(result.all_messages(), 'blob')
    assert 'Binary output of blob (25,600 bytes' in stand_in
    assert list(store.data.values()) == [blob.data]


def test_binary_with_no_usable_action_passes_whole() -> None:
    blob = BinaryContent(b'\xff' * 50_000, media_type='application/octet-stream')
    capability = ToolOutputLimits(bands=[Band(over=1_000, action=Truncate())])
    script = Script([respond(call('blob')), done()])
    make_agent(script, capability, blob=lambda: blob).run_sync('go')
    received = [
        item
        for message in script.received[1]
        if isinstance(message, ModelRequest)
        for part in message.parts
        for item in _content_items(part)
        if isinstance(item, BinaryContent)
    ]
    assert [item.data for item in received] == [blob.data]


def _content_items(part: Any) -> list[Any]:
    content = getattr(part, 'content', None)
    return list(content) if isinstance(content, list) else [content]


# --- TOL-13: errors are never reduced -------------------------------------------------------------


def test_model_retry_and_tool_errors_reach_the_model_whole() -> None:
    attempts: list[int] = []
    long_error = 'bad input: ' + 'detail ' * 3_000

    def flaky() -> str:
        attempts.append(1)
        if len(attempts) == 1:
            raise ModelRetry(long_error)
        return 'ok'

    script = Script([respond(call('flaky')), respond(call('flaky', call_id='retry')), done()])
    capability = ToolOutputLimits(bands=[Band(over=100, action=Truncate(max_chars=300))])
    result = make_agent(script, capability, flaky=flaky).run_sync('go')
    [retry] = retry_texts(result.all_messages())
    assert long_error in retry


# --- TOL-14: handles per call and per retry -------------------------------------------------------


def test_handles_are_distinct_per_call_and_per_retry(tmp_path: Path) -> None:
    attempts: list[int] = []

    def flaky(n: int) -> str:
        attempts.append(n)
        if len(attempts) == 2:
            raise ModelRetry('try again')
        return LOG + str(n)

    script = Script(
        [
            respond(call('flaky', {'n': 1}, 'same'), call('flaky', {'n': 2}, 'other')),
            respond(call('flaky', {'n': 3}, 'other')),
            done(),
        ]
    )
    store = MemoryStore()
    agent = make_agent(script, ToolOutputLimits(store=store), flaky=flaky)
    result = agent.run_sync('go')
    handles = [handle_in(text_of(p)) for p in tool_returns(result.all_messages(), 'flaky')]
    assert len(handles) == len(set(handles)) == 2
    assert any(h.endswith('other.1') for h in handles)
    assert len(store.data) == 2


# --- TOL-15: summarize ------------------------------------------------------------------------------


def _summarizing_model(summary: str) -> Script:
    """Main model calls the tool; the summary request (recognised by its prompt) gets `summary`."""

    def step(messages: list[ModelMessage]) -> ModelResponse:
        prompt = ' '.join(str(p.content) for p in getattr(messages[0], 'parts', []) if isinstance(p, UserPromptPart))
        if '<output>' in prompt:
            return respond(text_part(summary), input_tokens=900, output_tokens=40)
        if len(messages) == 1:
            return respond(call('logs'), input_tokens=10, output_tokens=5)
        return respond(text_part('done'), input_tokens=20, output_tokens=5)

    return Script([step] * 10)


def text_part(text: str) -> Any:
    from pydantic_ai.messages import TextPart

    return TextPart(text)


def test_summarize_uses_the_run_model_and_folds_usage_into_the_run() -> None:
    script = _summarizing_model('3 workers processed 2000 batches; no errors.')
    capability = ToolOutputLimits(bands=[Band(over=1_000, action=Summarize())])
    result = make_agent(script, capability, logs=lambda: LOG).run_sync('go')
    [out] = returns_of(result.all_messages(), 'logs')
    assert out.startswith('[Summary by function:')
    assert '3 workers processed 2000 batches' in out
    usage = run_usage(result)
    assert usage.requests == 3  # two of the run's own and the summary's
    assert usage.input_tokens == 930 and usage.output_tokens == 50


def test_summarize_reserves_a_request_for_the_parent() -> None:
    script = _summarizing_model('summary')
    capability = ToolOutputLimits(bands=[Band(over=1_000, action=Summarize(then=Truncate(max_chars=800)))])
    result = make_agent(script, capability, logs=lambda: LOG).run_sync('go', usage_limits=UsageLimits(request_limit=2))
    [out] = returns_of(result.all_messages(), 'logs')
    assert 'truncated' in out and len(out) <= 800  # the summary would have used the parent's last request
    usage = run_usage(result)
    assert usage.requests == 2


@pytest.mark.anyio
async def test_summarize_callable_sync_and_async() -> None:
    async def async_summary(tool_name: str, text: str) -> str:
        return f'{tool_name}: {len(text)} chars'

    for func in (lambda tool_name, text: f'{tool_name}: {len(text)} chars', async_summary):
        script = Script([respond(call('logs')), done()])
        capability = ToolOutputLimits(bands=[Band(over=1_000, action=Summarize(summarize=func))])
        result = await make_agent(script, capability, logs=lambda: LOG).run('go')
        [out] = returns_of(result.all_messages(), 'logs')
        assert f'logs: {len(LOG)} chars' in out


def test_summarize_on_binary_goes_to_then() -> None:
    capability = ToolOutputLimits(
        bands=[Band(over=100, action=Summarize(summarize=lambda t, x: 'nope', then=Spill()))], store=MemoryStore()
    )
    script = Script([respond(call('blob')), done()])
    [out] = returns_of(
        make_agent(script, capability, blob=lambda: b'\x00' * 5_000).run_sync('go').all_messages(), 'blob'
    )
    assert 'Binary output of blob' in out


@pytest.mark.parametrize(
    ('template', 'message'),
    [
        ('Summarize {output}', 'missing: {tool_name}'),
        ('Summarize {tool_name}', 'missing: {output}'),
        ('{tool_name} {output} {extra}', 'may only use'),
    ],
)
def test_summary_prompt_must_have_both_placeholders(template: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        ToolOutputLimits(summary_prompt=template)


# --- TOL-16: store protocol ---------------------------------------------------------------------


def test_store_protocol_is_runtime_checkable() -> None:
    assert isinstance(MemoryStore(), OverflowStore)
    assert isinstance(LocalFileStore(), OverflowStore)
    with pytest.raises(TypeError, match='store must implement OverflowStore'):
        ToolOutputLimits(store=object())  # pyright: ignore[reportArgumentType]


def test_a_later_agent_reads_an_earlier_runs_spill(tmp_path: Path) -> None:
    first = Script([respond(call('logs')), done()])
    result = make_agent(first, ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path)), logs=lambda: LOG).run_sync(
        'go'
    )
    handle = handle_in(returns_of(result.all_messages(), 'logs')[0])
    second = Script([respond(call('read_tool_result', {'handle': handle, 'from_end': True, 'limit': 2})), done()])
    result2 = Agent(second.model(), capabilities=[ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path))]).run_sync(
        'continue'
    )
    [page] = returns_of(result2.all_messages(), 'read_tool_result')
    assert 'processed batch 1999' in page


# --- BTO-8 in the store path: secrets never reach the store ------------------------------------

SECRET_TOKEN = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'
DEPLOY_LOG = (
    '\n'.join(f'step {i}: deploying shard {i}' for i in range(1_500))
    + f'\nexport DB_PASSWORD=hunter2-prod\nAuthorization: Bearer {SECRET_TOKEN}\n'
)


def test_secrets_are_scrubbed_before_the_store_sees_them(otel: OTelHarness) -> None:
    store = MemoryStore()
    script = Script([respond(call('deploy')), lambda m: read_back(m, 'deploy', from_end=True, limit=5), done()])
    result = make_agent(script, ToolOutputLimits(store=store), deploy=lambda: DEPLOY_LOG).run_sync('go')
    [stored] = store.data.values()
    assert b'hunter2-prod' not in stored
    assert SECRET_TOKEN.encode() not in stored
    assert b'[REDACTED:' in stored
    [page] = returns_of(result.all_messages(), 'read_tool_result')
    assert 'hunter2-prod' not in page
    assert SECRET_TOKEN not in page
    assert otel.delta('bounded.redactions') >= 2


def test_scrubbing_can_be_turned_off() -> None:
    store = MemoryStore()
    script = Script([respond(call('deploy')), done()])
    make_agent(script, ToolOutputLimits(store=store, scrubber=None), deploy=lambda: DEPLOY_LOG).run_sync('go')
    [stored] = store.data.values()
    assert stored == DEPLOY_LOG.encode()
