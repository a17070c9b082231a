"""REM-1..REM-4 and REM-7 through real Agent runs: what the model received on each request, and what history kept."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from pydantic_ai import Agent, ModelRetry, RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import (
    CachePoint,
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from observable_harness import SystemReminders
from observable_harness.system_reminders import Reminder

from .helpers import Script, agent_with, assert_history_clean, tail_cache_point, tail_parts, tail_text, tails


def test_static_reminder_reaches_every_request_tail_and_never_history() -> None:
    script = Script(tool_calls=3)
    agent = agent_with(script, SystemReminders(reminders=[Reminder('Cite your sources.')]))

    result = agent.run_sync('Find the answer.')

    history = result.all_messages()
    assert result.output == 'done'
    assert len(script.received) == 4
    expected = '<system-reminder>\nCite your sources.\n</system-reminder>'
    assert tails(script, history) == [expected] * 4
    for sent in script.received:
        point = tail_cache_point(sent, history)
        assert point == CachePoint(ttl='5m')
    assert_history_clean(history, 'Cite your sources', 'system-reminder')


def test_persisted_history_is_byte_identical_turn_to_turn() -> None:
    script = Script(tool_calls=4)
    agent = agent_with(script, SystemReminders(reminders=[Reminder('Be brief.')], cache_ttl='1h'))

    result = agent.run_sync('Go.')

    history = result.all_messages()
    final = ModelMessagesTypeAdapter.dump_python(history, mode='json')
    for sent, snapshot in zip(script.received, script.snapshots, strict=True):
        extra = len(tail_parts(sent, history))
        assert extra == 1
        *earlier, last = snapshot
        persisted_then = [*earlier, {**last, 'parts': last['parts'][:-extra]}]
        # What the history held when this request went out is, byte for byte, the start of the final history:
        # the reminder tail was the only addition and nothing sent was changed afterwards.
        assert json.dumps(persisted_then).encode() == json.dumps(final[: len(snapshot)]).encode()
        assert 'Be brief' in json.dumps(last['parts'][-1])
    assert_history_clean(history, 'Be brief')


@pytest.mark.parametrize(
    ('reminder', 'fired_on'),
    [
        (Reminder('R', interval=1), [1, 2, 3, 4, 5, 6, 7]),
        (Reminder('R', interval=3), [3, 6]),
        (Reminder('R', interval=3, first_after=1), [1, 4, 7]),
        (Reminder('R', interval=2, first_after=5), [5, 7]),
        (Reminder('R', interval=1, max_fires=2), [1, 2]),
        (Reminder('R', interval=2, max_fires=2), [2, 4]),
    ],
)
def test_cadence_interval_first_after_and_max_fires(reminder: Reminder, fired_on: list[int]) -> None:
    script = Script(tool_calls=6)
    agent = agent_with(script, SystemReminders(reminders=[reminder]))

    result = agent.run_sync('Go.')

    sent_tails = tails(script, result.all_messages())
    assert [n for n, text in enumerate(sent_tails, start=1) if text is not None] == fired_on


def test_trigger_reads_the_run_context_and_gates_cadence_slots() -> None:
    seen_steps: list[int] = []

    def late(ctx: RunContext[Any]) -> bool:
        seen_steps.append(ctx.run_step)
        return ctx.run_step >= 4

    script = Script(tool_calls=5)
    agent = agent_with(script, SystemReminders(reminders=[Reminder('Wrap up.', interval=2, trigger=late)]))

    result = agent.run_sync('Go.')

    sent = tails(script, result.all_messages())
    assert [n for n, text in enumerate(sent, start=1) if text] == [4, 6]
    # Only cadence slots ask the trigger.
    assert seen_steps == [2, 4, 6]


@pytest.mark.anyio
async def test_async_trigger_is_awaited() -> None:
    async def never(ctx: RunContext[Any]) -> bool:
        await asyncio.sleep(0)
        return False

    script = Script(tool_calls=1)
    agent = agent_with(script, SystemReminders(reminders=[Reminder('X', trigger=never), Reminder('Y')]))

    result = await agent.run('Go.')

    assert tails(script, result.all_messages()) == ['<system-reminder>\nY\n</system-reminder>'] * 2


def test_tag_wraps_static_content_and_none_sends_it_raw() -> None:
    script = Script(tool_calls=0)
    agent = agent_with(
        script,
        SystemReminders(reminders=[Reminder('Tagged.', tag='note'), Reminder('Raw text.', tag=None)]),
    )

    result = agent.run_sync('Go.')

    assert tails(script, result.all_messages()) == ['<note>\nTagged.\n</note>\n\nRaw text.']


def test_dynamic_reminders_sync_async_and_none_skip_without_tags() -> None:
    def sync_step(ctx: RunContext[Any]) -> str | None:
        return f'step {ctx.run_step}' if ctx.run_step % 2 == 0 else None

    async def async_always(ctx: RunContext[Any]) -> str | None:
        await asyncio.sleep(0)
        return 'async says hi'

    script = Script(tool_calls=3)
    agent = agent_with(
        script,
        SystemReminders(
            reminders=[Reminder('static first', interval=3)],
            dynamic_reminders=[sync_step, async_always, lambda ctx: None, lambda ctx: '  '],
        ),
    )

    result = agent.run_sync('Go.')

    assert tails(script, result.all_messages()) == [
        'async says hi',
        'step 2\n\nasync says hi',
        '<system-reminder>\nstatic first\n</system-reminder>\n\nasync says hi',
        'step 4\n\nasync says hi',
    ]
    assert_history_clean(result.all_messages(), 'async says hi', 'step 2', 'static first')


def test_a_dynamic_reminder_returning_a_non_string_is_a_clear_error() -> None:
    script = Script(tool_calls=0)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[lambda ctx: 42]))  # pyright: ignore[reportArgumentType]

    with pytest.raises(TypeError, match=r"'lambda' returned int: return a str, or None to skip"):
        agent.run_sync('Go.')


def test_on_fire_gets_each_rendered_reminder_sync_and_async() -> None:
    fired: list[str] = []

    async def record_async(text: str) -> None:
        fired.append(f'async:{text}')

    script = Script(tool_calls=1)
    agent = agent_with(
        script,
        SystemReminders(
            reminders=[Reminder('A', interval=2)], dynamic_reminders=[lambda ctx: 'B'], on_fire=fired.append
        ),
        SystemReminders(dynamic_reminders=[lambda ctx: 'C'], on_fire=record_async),
    )

    agent.run_sync('Go.')

    assert fired == ['B', 'async:C', '<system-reminder>\nA\n</system-reminder>', 'B', 'async:C']


def test_no_cache_point_when_nothing_precedes_the_reminder() -> None:
    script = Script(tool_calls=1)
    agent = agent_with(script, SystemReminders(reminders=[Reminder('Hello.')]), instructions='Be helpful.')

    result = agent.run_sync()  # instructions only: the first request has no content of its own

    history = result.all_messages()
    first, second = script.received
    assert tail_cache_point(first, history) is None
    assert tail_text(first, history) == '<system-reminder>\nHello.\n</system-reminder>'
    assert tail_cache_point(second, history) == CachePoint(ttl='5m')


def test_no_second_cache_point_when_the_request_already_ends_in_one() -> None:
    script = Script(tool_calls=0)
    agent = agent_with(script, SystemReminders(reminders=[Reminder('Hello.')]))

    result = agent.run_sync(['Question?', CachePoint()])

    assert tail_cache_point(script.received[0], result.all_messages()) is None


def test_provider_resume_gets_no_reminder_and_takes_no_cadence_slot() -> None:
    received: list[list[ModelMessage]] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        received.append(list(messages))
        if isinstance(messages[-1], ModelResponse):
            return ModelResponse(parts=[TextPart('finished')])
        if len(received) == 2:  # a paused turn, continued by the agent within the same step
            return ModelResponse(parts=[TextPart('thinking...')], state='suspended')
        return ModelResponse(parts=[ToolCallPart('lookup', {'q': 'x'})] if len(received) == 1 else [TextPart('ok')])

    agent = Agent(FunctionModel(model), capabilities=[SystemReminders(reminders=[Reminder('R', interval=2)])])

    @agent.tool_plain
    def lookup(q: str) -> str:
        return q

    result = agent.run_sync('Go.')
    history = result.all_messages()

    # 1: first request; 2: second request (suspended); 3: its continuation, which ends in the suspended response.
    assert len(received) == 3
    assert tail_text(received[0], history) is None
    assert tail_text(received[1], history) == '<system-reminder>\nR\n</system-reminder>'
    assert isinstance(received[2][-1], ModelResponse)
    assert all('R\n</system' not in str(m) for m in received[2])

    # A run resumed from a suspended response: the resume is not a request step for the cadence.
    received.clear()
    resumed = agent.run_sync(
        message_history=[
            ModelRequest(parts=[UserPromptPart('Go.')]),
            ModelResponse([TextPart('hm')], state='suspended'),
        ]
    )
    assert len(received) == 1
    assert isinstance(received[0][-1], ModelResponse)
    assert_history_clean(resumed.all_messages(), 'system-reminder')


def test_model_retry_is_a_new_request_and_advances_the_cadence() -> None:
    attempts: list[int] = []
    script = Script(tool_calls=3)
    agent = Agent(script.model(), capabilities=[SystemReminders(reminders=[Reminder('R', interval=2)])])

    @agent.tool_plain
    def lookup(q: str) -> str:
        attempts.append(1)
        if len(attempts) == 1:
            raise ModelRetry('try again')
        return q

    result = agent.run_sync('Go.')

    sent = tails(script, result.all_messages())
    assert len(sent) == 4  # call, retry prompt, call, final
    assert [n for n, text in enumerate(sent, start=1) if text] == [2, 4]


def test_attempts_within_one_step_share_its_reminder_and_one_cadence_slot() -> None:
    exceptions = pytest.importorskip('pydantic_ai.exceptions')
    retry_model_request = getattr(exceptions, 'RetryModelRequest', None)
    if retry_model_request is None:  # pragma: no cover - 2.62 makes one attempt per step
        pytest.skip('RetryModelRequest arrived after pydantic-ai 2.62')

    class RetryFirstAttempt(AbstractCapability[Any]):
        retried = False

        async def after_model_request(self, ctx: RunContext[Any], *, request_context: Any, response: Any) -> Any:
            if not self.retried:
                self.retried = True
                raise retry_model_request()
            return response

    script = Script(tool_calls=1)
    agent = agent_with(
        script,
        SystemReminders(reminders=[Reminder('R', interval=2)], dynamic_reminders=[lambda ctx: f'step {ctx.run_step}']),
        RetryFirstAttempt(),
    )

    result = agent.run_sync('Go.')

    # Step 1 was sent twice (two attempts): same reminder both times, and step 2 is still the cadence's second request.
    assert tails(script, result.all_messages()) == [
        'step 1',
        'step 1',
        '<system-reminder>\nR\n</system-reminder>\n\nstep 2',
    ]


@pytest.mark.anyio
async def test_streamed_runs_carry_the_tail_too() -> None:
    received: list[list[ModelMessage]] = []

    async def stream(messages: list[ModelMessage], info: AgentInfo):
        received.append(list(messages))
        yield 'streamed answer'

    agent = Agent(FunctionModel(stream_function=stream), capabilities=[SystemReminders(reminders=[Reminder('S')])])

    async with agent.run_stream('Go.') as run:
        output = await run.get_output()
        history = run.all_messages()

    assert output == 'streamed answer'
    assert tail_text(received[0], history) == '<system-reminder>\nS\n</system-reminder>'
    assert_history_clean(history, 'system-reminder')


def test_continuing_a_conversation_restarts_the_cadence_and_keeps_history_clean() -> None:
    script = Script(tool_calls=1)
    agent = agent_with(script, SystemReminders(reminders=[Reminder('R', interval=2, max_fires=1)]))

    first = agent.run_sync('One.')
    script.received.clear()
    script.tool_calls = 2  # the script counts calls across the whole conversation
    second = agent.run_sync('Two.', message_history=first.all_messages())

    history = second.all_messages()
    assert history[: len(first.all_messages())] == first.all_messages()
    assert [text is not None for text in tails(script, history)] == [False, True]
    assert_history_clean(history, 'system-reminder')


def test_nothing_is_added_on_a_turn_where_nothing_fires() -> None:
    script = Script(tool_calls=2)
    agent = agent_with(script, SystemReminders(reminders=[Reminder('R', interval=10)]))

    result = agent.run_sync('Go.')

    for sent in script.received:
        assert tail_parts(sent, result.all_messages()) == []
