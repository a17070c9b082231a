"""SPEC OBS for reminders through the real OpenTelemetry SDK: spans, metrics, nesting, and no reminder text anywhere."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import CachePoint, ModelMessage, ModelResponse, TextPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import UsageLimits

from observable_harness import SystemReminders
from observable_harness._text.hashing import content_hash
from observable_harness.system_reminders import GoalReanchor, LLMReminder, Reminder
from observable_harness.telemetry import names
from tests.otel import OTelHarness, install_broken_otel

from .helpers import Script, agent_with, tail_text, tails

CANARY = 'CANARY-7f3a'


def nudge_model(text: str) -> FunctionModel:
    def answer(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[TextPart(text)])

    return FunctionModel(answer)


def failing_model() -> FunctionModel:
    def fail(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        raise ConnectionError('provider unreachable')

    return FunctionModel(fail, model_name='broken-haiku')


def test_inject_span_per_firing_request_with_the_cache_point_decision(otel: OTelHarness) -> None:
    script = Script(tool_calls=3)
    agent = agent_with(
        script,
        SystemReminders(
            reminders=[Reminder('Stay on task.', interval=2, name='focus')],
            dynamic_reminders=[GoalReanchor()],
        ),
    )

    result = agent.run_sync('Plan the migration.')

    spans = otel.spans(names.SPAN_REMINDERS_INJECT)
    assert len(spans) == 4
    sent = tails(script, result.all_messages())
    for number, (span, text) in enumerate(zip(spans, sent, strict=True), start=1):
        assert text is not None
        attributes: dict[str, Any] = dict(span.attributes or {})
        expected_names = ('focus', 'GoalReanchor') if number % 2 == 0 else ('GoalReanchor',)
        assert attributes == {
            names.SYSTEM_REMINDERS_REQUEST: number,
            names.SYSTEM_REMINDERS_COUNT: len(expected_names),
            names.SYSTEM_REMINDERS_NAMES: expected_names,
            names.SYSTEM_REMINDERS_CHARS: len(text),
            names.SYSTEM_REMINDERS_CONTENT_HASH: content_hash(text),
            names.SYSTEM_REMINDERS_CACHE_POINT: True,
            names.SYSTEM_REMINDERS_CACHE_POINT_REASON: 'attached',
            names.LOGFIRE_MSG: (
                f'inject {len(expected_names)} reminder{"s" if number % 2 == 0 else ""} on request {number}: '
                f'{", ".join(expected_names)}, {len(text):,} chars, cache point attached'
            ),
        }
    assert otel.delta(names.REMINDERS_FIRED.name, reminder='focus', kind='static') == 2
    assert otel.delta(names.REMINDERS_FIRED.name, reminder='GoalReanchor', kind='goal_reanchor') == 4
    assert otel.delta(names.REMINDERS_CACHE_POINTS.name, placed=True, reason='attached') == 4


def test_no_inject_span_when_nothing_fires(otel: OTelHarness) -> None:
    script = Script(tool_calls=1)
    agent_with(script, SystemReminders(reminders=[Reminder('Later.', interval=5)])).run_sync('Go.')

    assert otel.spans(names.SPAN_REMINDERS_INJECT) == []
    assert otel.delta(names.REMINDERS_FIRED.name) == 0
    assert otel.delta(names.REMINDERS_CACHE_POINTS.name) == 0


def test_cache_point_reasons_when_no_breakpoint_is_placed(otel: OTelHarness) -> None:
    script = Script(tool_calls=0)
    agent = agent_with(script, SystemReminders(reminders=[Reminder('Hi.')]), instructions='Only instructions.')

    agent.run_sync()
    agent.run_sync(['Question?', CachePoint()])

    reasons = [
        (span.attributes or {}).get(names.SYSTEM_REMINDERS_CACHE_POINT_REASON)
        for span in otel.spans(names.SPAN_REMINDERS_INJECT)
    ]
    assert reasons == ['no_content', 'already_marked']
    assert otel.delta(names.REMINDERS_CACHE_POINTS.name, placed=False, reason='no_content') == 1
    assert otel.delta(names.REMINDERS_CACHE_POINTS.name, placed=False, reason='already_marked') == 1
    assert 'no cache point (no_content)' in str(otel.spans(names.SPAN_REMINDERS_INJECT)[0].attributes or {})


def test_fired_labels_are_names_hashes_and_function_names(otel: OTelHarness) -> None:
    def budget_watch(ctx: RunContext[Any]) -> str:
        return 'Mind the budget.'

    class ModeWatcher:
        def __call__(self, ctx: RunContext[Any]) -> str:
            return 'Mode changed.'

    script = Script(tool_calls=0)
    agent_with(
        script,
        SystemReminders(
            reminders=[Reminder('Always cite the file path you read.')],
            dynamic_reminders=[budget_watch, ModeWatcher(), lambda ctx: 'anon'],
        ),
    ).run_sync('Go.')

    labels = {(p.attributes['reminder'], p.attributes['kind']) for p in otel.series(names.REMINDERS_FIRED.name)}
    hashed = 'reminder-' + content_hash('Always cite the file path you read.').partition(':')[2][:6]
    assert {
        (hashed, 'static'),
        ('budget_watch', 'dynamic'),
        ('ModeWatcher', 'dynamic'),
        ('lambda', 'dynamic'),
    } <= labels


def test_generate_span_and_token_metrics_for_a_successful_nudge(otel: OTelHarness) -> None:
    script = Script(tool_calls=1)
    llm = LLMReminder(model=nudge_model('Focus on the failing test.'))
    agent_with(script, SystemReminders(dynamic_reminders=[llm])).run_sync('Fix the build.')

    spans = otel.spans(names.SPAN_REMINDERS_GENERATE)
    assert len(spans) == 2
    for span in spans:
        attributes: dict[str, Any] = dict(span.attributes or {})
        assert attributes[names.GEN_AI_REQUEST_MODEL] == llm.model_label
        assert attributes[names.GEN_AI_USAGE_INPUT_TOKENS] > 0
        assert attributes[names.GEN_AI_USAGE_OUTPUT_TOKENS] > 0
        assert attributes[names.SYSTEM_REMINDERS_FALLBACK] is False
        assert names.SYSTEM_REMINDERS_FALLBACK_REASON not in attributes
        assert attributes[names.LOGFIRE_MSG].startswith(f'generate reminder with {llm.model_label}: ')
    input_tokens = sum(int((s.attributes or {})[names.GEN_AI_USAGE_INPUT_TOKENS]) for s in spans)  # type: ignore[arg-type]
    assert otel.delta(names.REMINDERS_GENERATE_TOKENS.name, model=llm.model_label, type='input') == input_tokens
    assert otel.delta(names.REMINDERS_GENERATE_TOKENS.name, model=llm.model_label, type='output') > 0
    assert otel.delta(names.REMINDERS_GENERATE_FALLBACKS.name) == 0
    assert otel.delta(names.REMINDERS_FIRED.name, reminder='LLMReminder', kind='llm') == 2
    assert otel.delta(names.REMINDERS_GENERATIONS.name, model=llm.model_label, fallback=False) == 2
    assert otel.delta(names.REMINDERS_GENERATIONS.name, fallback=True) == 0


def test_generate_fallbacks_are_counted_by_reason(otel: OTelHarness) -> None:
    script = Script(tool_calls=2)
    agent_with(script, SystemReminders(dynamic_reminders=[LLMReminder(model=failing_model())])).run_sync('Go.')

    spans = otel.spans(names.SPAN_REMINDERS_GENERATE)
    assert len(spans) == 3
    for span in spans:
        attributes: dict[str, Any] = dict(span.attributes or {})
        assert attributes[names.GEN_AI_REQUEST_MODEL] == 'broken-haiku'
        assert attributes[names.SYSTEM_REMINDERS_FALLBACK] is True
        assert attributes[names.SYSTEM_REMINDERS_FALLBACK_REASON] == 'ConnectionError'
        assert attributes[names.LOGFIRE_MSG] == (
            'generate reminder with broken-haiku: fell back to GoalReanchor (ConnectionError)'
        )
    assert otel.delta(names.REMINDERS_GENERATE_FALLBACKS.name, reason='ConnectionError') == 3
    assert otel.delta(names.REMINDERS_GENERATIONS.name, model='broken-haiku', fallback=True) == 3


def test_an_llm_reminder_called_from_your_own_reminder_counts_in_the_fallback_rate(otel: OTelHarness) -> None:
    """Fired as `dynamic` (it is your function), but its generations are counted by model and outcome all the same."""
    llm = LLMReminder(model=failing_model())

    async def only_when_busy(ctx: RunContext[None]) -> str | None:
        return await llm(ctx) if ctx.run_step > 1 else None

    script = Script(tool_calls=2)
    agent_with(script, SystemReminders(dynamic_reminders=[only_when_busy])).run_sync('Go.')

    fired = otel.delta(names.REMINDERS_FIRED.name, reminder='only_when_busy', kind='dynamic')
    assert fired == 2 and otel.delta(names.REMINDERS_FIRED.name, kind='llm') == 0
    assert otel.delta(names.REMINDERS_GENERATIONS.name, model='broken-haiku', fallback=True) == fired
    assert otel.delta(names.REMINDERS_GENERATE_FALLBACKS.name, reason='ConnectionError') == fired


def test_a_tight_budget_is_counted_as_a_usage_limit_fallback(otel: OTelHarness) -> None:
    script = Script(tool_calls=0)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[LLMReminder(model=nudge_model('n'))]))

    agent.run_sync('Go.', usage_limits=UsageLimits(request_limit=1))

    [span] = otel.spans(names.SPAN_REMINDERS_GENERATE)
    assert (span.attributes or {})[names.SYSTEM_REMINDERS_FALLBACK_REASON] == 'UsageLimitExceeded'
    assert otel.delta(names.REMINDERS_GENERATE_FALLBACKS.name, reason='UsageLimitExceeded') == 1
    assert otel.delta(names.REMINDERS_GENERATE_TOKENS.name) == 0


def test_spans_nest_under_pydantic_ai_request_spans(otel: OTelHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    # What `Agent.instrument_all()` (and so `logfire.instrument_pydantic_ai()`) sets, undone after the test.
    monkeypatch.setattr(Agent, '_instrument_default', True)
    script = Script(tool_calls=1)
    agent = agent_with(
        script,
        SystemReminders(reminders=[Reminder('R')], dynamic_reminders=[LLMReminder(model=nudge_model('n'))]),
    )

    agent.run_sync('Go.')

    by_id = {span.context.span_id: span for span in otel.spans() if span.context is not None}

    def parent_name(span: Any) -> str:
        assert span.parent is not None
        return by_id[span.parent.span_id].name

    injects = otel.spans(names.SPAN_REMINDERS_INJECT)
    generates = otel.spans(names.SPAN_REMINDERS_GENERATE)
    assert len(injects) == len(generates) == 2
    assert all(parent_name(span).startswith('chat ') for span in injects + generates)
    # The reminder model's own request span nests under the generation that made it.
    generate_ids = {g.context.span_id for g in generates if g.context is not None}
    nested = [s.name for s in otel.spans() if s.parent is not None and s.parent.span_id in generate_ids]
    assert len(nested) == 2
    assert all('llm_reminder' in name for name in nested), nested


def test_no_reminder_text_reaches_any_span_event_or_label(otel: OTelHarness) -> None:
    script = Script(tool_calls=2)
    agent = agent_with(
        script,
        SystemReminders(
            # An unnamed reminder is labelled by a hash of its content: the canary opens it, where a label made of
            # its first words would show it.
            reminders=[
                Reminder(f'{CANARY} always check the paths.'),
                Reminder(f'{CANARY} raw', tag=None, name='raw'),
            ],
            dynamic_reminders=[
                lambda ctx: f'dynamic {CANARY}',
                GoalReanchor(),
                LLMReminder(model=nudge_model(f'nudge {CANARY}')),
                LLMReminder(model=failing_model()),
            ],
            on_fire=lambda text: None,
        ),
    )

    result = agent.run_sync(f'Goal with {CANARY} inside.')

    # The canary did reach the model, in every part of the tail...
    for sent in script.received:
        text = tail_text(sent, result.all_messages())
        assert text is not None
        assert text.count(CANARY) == 6
    # ...and none of our telemetry.
    ours = otel.our_spans()
    assert {span.name for span in ours} == {names.SPAN_REMINDERS_INJECT, names.SPAN_REMINDERS_GENERATE}
    for span in ours:
        assert CANARY.lower() not in repr(dict(span.attributes or {})).lower()
        for event in span.events:
            assert CANARY.lower() not in repr(dict(event.attributes or {})).lower()
            assert CANARY.lower() not in event.name.lower()
        assert CANARY.lower() not in span.name.lower()
    for spec in (
        names.REMINDERS_FIRED,
        names.REMINDERS_CACHE_POINTS,
        names.REMINDERS_GENERATE_TOKENS,
        names.REMINDERS_GENERATE_FALLBACKS,
        names.REMINDERS_GENERATIONS,
    ):
        for point in otel.series(spec.name):
            assert CANARY.lower() not in repr(point.attributes).lower()
    hashed = 'reminder-' + content_hash(f'{CANARY} always check the paths.').partition(':')[2][:6]
    assert otel.delta(names.REMINDERS_FIRED.name, reminder=hashed, kind='static') == 3


def test_broken_telemetry_never_fails_or_changes_a_run() -> None:
    install_broken_otel()
    script = Script(tool_calls=1)
    agent = agent_with(
        script,
        SystemReminders(
            reminders=[Reminder('Still here.')],
            dynamic_reminders=[LLMReminder(model=nudge_model('nudge')), LLMReminder(model=failing_model())],
        ),
    )

    result = agent.run_sync('Go.')

    assert result.output == 'done'
    sent = tails(script, result.all_messages())
    assert all(text is not None and 'Still here.' in text and 'nudge' in text for text in sent)
    assert agent.run_sync('Again.').output == 'done'  # nothing was left half-open by the failures
