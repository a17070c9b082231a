"""ToolOutputLimits telemetry through the real OpenTelemetry SDK (SPEC OBS)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.capabilities import Instrumentation
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, UserPromptPart
from tests.agents import Script, call, done, respond, text_of, tool_returns
from tests.doubles import BrokenStore
from tests.otel import OTelHarness

from observable_harness import ToolOutputLimits
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import Band, LocalFileStore, Spill, Summarize, Truncate

CANARY = 'CANARY-7f3a-do-not-export'


def read_only_store() -> BrokenStore:
    return BrokenStore(PermissionError(13, 'Permission denied'))


PAYLOAD = '\n'.join(f'{CANARY} row {i} ' + 'v' * 40 for i in range(1_500))


def run(capability: ToolOutputLimits[Any], script: Script, instrument: bool = False, **tools: Any) -> Any:
    capabilities: list[Any] = [capability]
    if instrument:
        capabilities.insert(0, Instrumentation())
    agent = Agent(script.model(), capabilities=capabilities)
    for name, func in tools.items():
        agent.tool_plain(name=name)(func)
    return agent.run_sync('go')


def test_reduce_span_carries_the_spec_attributes(otel: OTelHarness, tmp_path: Path) -> None:
    script = Script([respond(call('fetch_logs', call_id='c0')), done()])
    result = run(ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path)), script, fetch_logs=lambda: PAYLOAD)
    [stand_in] = [text_of(p) for p in tool_returns(result.all_messages(), 'fetch_logs')]
    [span] = otel.spans(names.SPAN_REDUCE)
    attributes = dict(span.attributes or {})
    assert attributes[names.GEN_AI_TOOL_NAME] == 'fetch_logs'
    assert attributes[names.GEN_AI_TOOL_CALL_ID] == 'c0'
    assert attributes[names.TOOL_OUTPUT_UNIT] == 'return_value'
    assert attributes[names.TOOL_OUTPUT_SIZE] == len(PAYLOAD)
    assert attributes[names.TOOL_OUTPUT_SIZE_UNIT] == 'chars'
    assert attributes[names.TOOL_OUTPUT_ORIGINAL_BYTES] == len(PAYLOAD.encode())
    assert attributes[names.TOOL_OUTPUT_BAND_OVER] == 10_000
    assert attributes[names.TOOL_OUTPUT_ACTION] == 'spill'
    assert attributes[names.TOOL_OUTPUT_OUTCOME] == 'spill'
    assert attributes[names.TOOL_OUTPUT_FALLBACK] is False
    assert attributes[names.TOOL_OUTPUT_FALLBACK_CHAIN] == 'spill'
    assert names.TOOL_OUTPUT_FALLBACK_REASON not in attributes
    handle = attributes[names.TOOL_OUTPUT_HANDLE]
    assert isinstance(handle, str)
    assert handle.endswith('/c0.0')
    assert re.fullmatch(r'xxh3_128:[0-9a-f]{32}', str(attributes[names.TOOL_OUTPUT_CONTENT_HASH]))
    assert attributes[names.TOOL_OUTPUT_OUTPUT_CHARS] == len(stand_in)
    saved = len(PAYLOAD.encode()) - len(stand_in.encode())
    assert attributes[names.TOOL_OUTPUT_BYTES_SAVED] == saved
    message = str(attributes[names.LOGFIRE_MSG])
    assert message == f"spill fetch_logs: {len(PAYLOAD):,} chars → handle '{handle}', saved {saved:,} B"


def test_reduce_metrics(otel: OTelHarness, tmp_path: Path) -> None:
    script = Script([respond(call('fetch_logs')), done()])
    run(ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path)), script, fetch_logs=lambda: PAYLOAD)
    assert otel.delta(names.DECISIONS.name, tool='fetch_logs', action='spill', outcome='spill', fallback=False) == 1
    assert otel.delta(names.SIZE_CHARS.name, tool='fetch_logs') == 1
    assert otel.series(names.SIZE_TOKENS.name) == []
    saved = otel.delta(names.BYTES_SAVED.name, tool='fetch_logs', outcome='spill')
    assert 0 < saved < len(PAYLOAD)
    assert otel.delta(names.TOKENS_SAVED.name, tool='fetch_logs', outcome='spill') > saved // 5
    assert otel.delta(names.SPILL_BYTES.name, tool='fetch_logs', store='LocalFileStore') == len(PAYLOAD)
    assert otel.delta(names.REDUCE_DURATION.name, tool='fetch_logs', action='spill') == 1


def test_passthrough_records_metrics_but_no_span(otel: OTelHarness) -> None:
    script = Script([respond(call('status')), done()])
    run(ToolOutputLimits(), script, status=lambda: 'all good')
    assert otel.spans(names.SPAN_REDUCE) == []
    assert otel.delta(names.DECISIONS.name, tool='status', action='passthrough', outcome='unchanged') == 1
    [size] = [p for p in otel.series(names.SIZE_CHARS.name) if p.attributes.get('tool') == 'status']
    assert size.sum >= len('all good')


def test_fallback_is_recorded_on_span_and_metrics(otel: OTelHarness) -> None:
    script = Script([respond(call('fetch_logs')), done()])
    run(
        ToolOutputLimits(store=read_only_store()),
        script,
        fetch_logs=lambda: PAYLOAD,
    )
    [span] = otel.spans(names.SPAN_REDUCE)
    attributes = dict(span.attributes or {})
    assert attributes[names.TOOL_OUTPUT_ACTION] == 'spill'
    assert attributes[names.TOOL_OUTPUT_OUTCOME] == 'truncate'
    assert attributes[names.TOOL_OUTPUT_FALLBACK] is True
    assert attributes[names.TOOL_OUTPUT_FALLBACK_CHAIN] == 'spill>truncate'
    assert attributes[names.TOOL_OUTPUT_FALLBACK_REASON] == 'PermissionError'
    assert names.TOOL_OUTPUT_HANDLE not in attributes
    assert '(fallback: PermissionError)' in str(attributes[names.LOGFIRE_MSG])
    assert (
        otel.delta(
            names.FALLBACKS.name, tool='fetch_logs', from_action='spill', to_action='truncate', reason='PermissionError'
        )
        == 1
    )
    assert otel.delta(names.SPILL_FAILURES.name, reason='PermissionError', store='BrokenStore') == 1
    assert otel.delta(names.DECISIONS.name, tool='fetch_logs', action='spill', outcome='truncate', fallback=True) == 1


def test_summarize_span_nests_under_reduce_with_usage(otel: OTelHarness) -> None:
    def step(messages: list[ModelMessage]) -> ModelResponse:
        first = messages[0]
        prompt = ' '.join(str(p.content) for p in getattr(first, 'parts', []) if isinstance(p, UserPromptPart))
        if '<output>' in prompt:
            return respond(TextPart('short summary'), input_tokens=700, output_tokens=30)
        if len(messages) == 1:
            return respond(call('fetch_logs'))
        return done()

    script = Script([step] * 5)
    run(ToolOutputLimits(bands=[Band(over=1_000, action=Summarize())]), script, fetch_logs=lambda: PAYLOAD)
    [summarize] = otel.spans(names.SPAN_SUMMARIZE)
    [reduce] = otel.spans(names.SPAN_REDUCE)
    assert summarize.parent is not None
    assert reduce.context is not None
    assert summarize.parent.span_id == reduce.context.span_id
    attributes = dict(summarize.attributes or {})
    assert str(attributes[names.GEN_AI_REQUEST_MODEL]).startswith('function:')
    assert attributes[names.GEN_AI_USAGE_INPUT_TOKENS] == 700
    assert attributes[names.GEN_AI_USAGE_OUTPUT_TOKENS] == 30
    assert otel.delta(names.SUMMARIZE_TOKENS.name, type='input') == 700
    assert otel.delta(names.SUMMARIZE_TOKENS.name, type='output') == 30


def test_reduce_span_nests_under_pydantic_ai_execute_tool_span(otel: OTelHarness, tmp_path: Path) -> None:
    script = Script([respond(call('fetch_logs')), done()])
    run(ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path)), script, instrument=True, fetch_logs=lambda: PAYLOAD)
    [reduce] = otel.spans(names.SPAN_REDUCE)
    by_id = {s.context.span_id: s for s in otel.spans() if s.context is not None}
    assert reduce.parent is not None
    parent = by_id[reduce.parent.span_id]
    assert parent.name == 'execute_tool fetch_logs'


def test_resend_tokens_avoided_counts_every_later_request(otel: OTelHarness, tmp_path: Path) -> None:
    script = Script(
        [respond(call('fetch_logs')), respond(call('status')), respond(call('status', call_id='s2')), done()]
    )
    run(
        ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path)),
        script,
        fetch_logs=lambda: PAYLOAD,
        status=lambda: 'ok',
    )
    saved = otel.delta(names.TOKENS_SAVED.name, tool='fetch_logs')
    # Three model requests follow the reduction; each would have carried the whole payload.
    assert otel.delta(names.RESEND_TOKENS_AVOIDED.name, tool='fetch_logs') == 3 * saved


def test_band_thresholds_that_apply_to_each_tool_are_exposed_as_a_gauge(otel: OTelHarness) -> None:
    capability = ToolOutputLimits(
        bands=[Band(over=20_000, action=Spill()), Band(over=6_000, action=Truncate())],
        per_tool={'gauge_probe': [Band(over=3_000, action=Truncate())]},
        store=read_only_store(),
    )
    script = Script([respond(call('gauge_probe', call_id='a'), call('gauge_other', call_id='b')), done()])
    run(capability, script, gauge_probe=lambda: 'x', gauge_other=lambda: 'y')
    thresholds = {
        (p.attributes['tool'], p.attributes['action']): p.value for p in otel.series(names.BAND_THRESHOLD_CHARS.name)
    }
    assert thresholds[('gauge_probe', 'truncate')] == 3_000
    assert ('gauge_probe', 'spill') not in thresholds
    assert thresholds[('gauge_other', 'spill')] == 20_000
    assert thresholds[('gauge_other', 'truncate')] == 6_000


def test_two_agents_bounding_one_tool_differently_each_expose_their_thresholds(otel: OTelHarness) -> None:
    def agent_named(name: str, over: int) -> Agent[None, str]:
        limits = ToolOutputLimits[None](bands=[Band(over=over, action=Truncate())], store=read_only_store())
        script = Script([respond(call('shared_probe', call_id='a')), done()])
        agent = Agent(script.model(), name=name, deps_type=type(None), capabilities=[limits])
        agent.tool_plain(name='shared_probe')(lambda: 'x')
        return agent

    agent_named('triage', 4_000).run_sync('go')
    agent_named('reviewer', 12_000).run_sync('go')
    thresholds = {
        (p.attributes['agent'], p.attributes['action']): p.value
        for p in otel.series(names.BAND_THRESHOLD_CHARS.name)
        if p.attributes.get('tool') == 'shared_probe'
    }
    assert thresholds == {('triage', 'truncate'): 4_000, ('reviewer', 'truncate'): 12_000}


def test_no_tool_output_reaches_any_attribute_event_or_label(otel: OTelHarness, tmp_path: Path) -> None:
    script = Script(
        [
            respond(call('fetch_logs', call_id='a'), call('dump', call_id='b'), call('small', call_id='c')),
            done(),
        ]
    )
    capability = ToolOutputLimits(
        per_tool={'dump': [Band(over=100, action=Truncate())]}, store=LocalFileStore(base_dir=tmp_path)
    )
    run(capability, script, instrument=False, fetch_logs=lambda: PAYLOAD, dump=lambda: PAYLOAD, small=lambda: CANARY)
    ours = otel.our_spans()
    assert len(ours) == 2
    for span in ours:
        for value in (span.attributes or {}).values():
            assert CANARY not in str(value)
        for event in span.events:
            assert CANARY not in str(event.attributes)
        assert CANARY not in span.name
    for point in otel.points():
        assert CANARY not in str(point.attributes)
