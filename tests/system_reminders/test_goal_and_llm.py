"""REM-5 GoalReanchor and REM-6 LLMReminder through real runs: what they send, what they cost, how they fail."""

from __future__ import annotations

import logging

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import ImageUrl, ModelMessage, ModelRequest, ModelResponse, TextPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import UsageLimits

from observable_harness import SystemReminders
from observable_harness.system_reminders import GoalReanchor, LLMReminder

from .helpers import Script, agent_with, assert_history_clean, run_usage, tail_text, tails

GOAL_TEXT = (
    '<system-reminder>\n'
    'The original request for this run was:\n'
    '<original-request>\n{goal}\n</original-request>\n'
    'Before your next action, check that it advances this request; if it does not, return to it.\n'
    '</system-reminder>'
)


def goal_text(goal: str) -> str:
    return GOAL_TEXT.format(goal=goal)


# --- GoalReanchor ------------------------------------------------------------------------------


def test_goal_reanchor_quotes_the_first_user_request_on_every_request() -> None:
    script = Script(tool_calls=3)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[GoalReanchor()]))

    result = agent.run_sync('Refactor the auth module and add tests.')

    assert tails(script, result.all_messages()) == [goal_text('Refactor the auth module and add tests.')] * 4
    assert_history_clean(result.all_messages(), 'original-request')


def test_goal_reanchor_anchors_each_run_on_its_own_prompt() -> None:
    script = Script(tool_calls=1)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[GoalReanchor()]))
    first = agent.run_sync('First goal.')
    script.received.clear()

    second = agent.run_sync('Second goal.', message_history=first.all_messages())

    assert tails(script, second.all_messages()) == [goal_text('Second goal.')]


def test_goal_reanchor_falls_back_to_the_history_when_the_run_has_no_prompt() -> None:
    script = Script(tool_calls=0)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[GoalReanchor()]))

    result = agent.run_sync(message_history=[ModelRequest(parts=[UserPromptPart('Goal from history.')])])

    assert tails(script, result.all_messages()) == [goal_text('Goal from history.')]


def test_goal_reanchor_quotes_text_only_and_cuts_a_long_goal_with_a_marker() -> None:
    script = Script(tool_calls=0)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[GoalReanchor(max_chars=10)]))

    result = agent.run_sync(['0123456789abcdefghij', ImageUrl('https://example.com/a.png')])

    [text] = tails(script, result.all_messages())
    assert text is not None
    assert '<original-request>\n0123456789\n[… goal cut here: 10 of 20 characters left out;' in text
    assert 'example.com' not in text


def test_goal_reanchor_skips_when_there_is_no_text_goal() -> None:
    script = Script(tool_calls=0)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[GoalReanchor()]), instructions='Do things.')

    result = agent.run_sync()

    assert tails(script, result.all_messages()) == [None]


# --- LLMReminder -------------------------------------------------------------------------------


class ReminderModel:
    """The reminder model: answers with a nudge, or raises, and records what it was asked."""

    def __init__(self, answer: str | Exception = 'Check the tests before moving on.') -> None:
        self.answer = answer
        self.prompts: list[str] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        self.prompts.extend(
            p.content for p in last.parts if isinstance(p, UserPromptPart) and isinstance(p.content, str)
        )
        if isinstance(self.answer, Exception):
            raise self.answer
        return ModelResponse(parts=[TextPart(self.answer)])


def test_llm_reminder_injects_the_model_nudge_and_folds_its_usage_into_the_run() -> None:
    nudger = ReminderModel()
    script = Script(tool_calls=2)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[LLMReminder(model=FunctionModel(nudger))]))

    result = agent.run_sync('Find the flaky test.')

    nudge = '<system-reminder>\nCheck the tests before moving on.\n</system-reminder>'
    assert tails(script, result.all_messages()) == [nudge] * 3
    assert_history_clean(result.all_messages(), 'Check the tests')
    usage = run_usage(result)
    assert usage.requests == 3 + 3  # the run's three requests and one reminder request for each
    parent_only = sum(m.usage.input_tokens for m in result.all_messages() if isinstance(m, ModelResponse))
    assert usage.input_tokens > parent_only  # the reminder requests' tokens are in the run's usage
    # The transcript: the goal and recent activity, compactly.
    assert nudger.prompts[0].startswith('Original goal:\nFind the flaky test.\n\nRecent activity, oldest first:\n')
    assert '- user: Find the flaky test.' in nudger.prompts[0]
    assert '- agent called lookup({"q": "item 0"})' in nudger.prompts[2]
    assert '- tool lookup returned: result for item 0' in nudger.prompts[2]


def test_llm_reminder_transcript_is_bounded() -> None:
    nudger = ReminderModel()
    agent = Agent(
        FunctionModel(lambda messages, info: ModelResponse(parts=[TextPart('done')])),
        capabilities=[
            SystemReminders(
                dynamic_reminders=[LLMReminder(FunctionModel(nudger), recent_messages=1, max_item_chars=20)]
            )
        ],
    )

    agent.run_sync('x' * 500)

    [prompt] = nudger.prompts
    assert '- user: xxxxxxxxxxxxxxxxxxxx… (+480 chars)' in prompt
    assert len(prompt) < 300


def test_a_failing_reminder_model_falls_back_to_goal_text_logged_once_per_run(caplog: pytest.LogCaptureFixture) -> None:
    nudger = ReminderModel(RuntimeError('invalid x-api-key'))
    script = Script(tool_calls=2)
    llm = LLMReminder(model=FunctionModel(nudger))
    agent = agent_with(script, SystemReminders(dynamic_reminders=[llm]))

    with caplog.at_level(logging.WARNING, logger='observable_harness.system_reminders'):
        result = agent.run_sync('Ship the release.')
        assert result.output == 'done'
        assert tails(script, result.all_messages()) == [goal_text('Ship the release.')] * 3
        again = agent.run_sync('Ship it again.')
        assert again.output == 'done'
    records = [r for r in caplog.records if r.name == 'observable_harness.system_reminders']
    assert len(records) == 2  # six failures over two runs: one line per run
    assert 'fell back to GoalReanchor text (RuntimeError: invalid x-api-key)' in records[0].getMessage()
    assert len(nudger.prompts) == 6


def test_a_model_of_no_known_provider_is_refused_at_construction() -> None:
    with pytest.raises(ValueError, match="no provider 'no-such-provider'"):
        LLMReminder(model='no-such-provider:model')


def test_a_model_without_its_api_key_falls_back_instead_of_failing(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv('ANTHROPIC_API_KEY', raising=False)
    script = Script(tool_calls=0)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[LLMReminder(model='anthropic:claude-haiku-4-5')]))

    with caplog.at_level(logging.WARNING, logger='observable_harness.system_reminders'):
        result = agent.run_sync('Keep going.')

    assert tails(script, result.all_messages()) == [goal_text('Keep going.')]
    assert "LLMReminder(model='anthropic:claude-haiku-4-5') fell back" in caplog.text


def test_an_empty_nudge_falls_back() -> None:
    script = Script(tool_calls=0)
    agent = agent_with(
        script, SystemReminders(dynamic_reminders=[LLMReminder(model=FunctionModel(ReminderModel('  ')))])
    )

    result = agent.run_sync('Keep going.')

    assert tails(script, result.all_messages()) == [goal_text('Keep going.')]


def test_llm_reminder_keeps_a_request_for_the_run_under_a_tight_request_limit() -> None:
    nudger = ReminderModel()
    script = Script(tool_calls=1)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[LLMReminder(model=FunctionModel(nudger))]))

    result = agent.run_sync('Tidy the repo.', usage_limits=UsageLimits(request_limit=3))

    # Request 1: 0 used, so the reminder may take one and leave one for the run's request (2 used after).
    # Request 2: 2 used, only the run's own request fits: GoalReanchor text instead, and the run stays within 3.
    assert tails(script, result.all_messages()) == [
        '<system-reminder>\nCheck the tests before moving on.\n</system-reminder>',
        goal_text('Tidy the repo.'),
    ]
    assert len(nudger.prompts) == 1
    assert run_usage(result).requests == 3


def test_llm_reminder_behind_a_cadence_wrapper() -> None:
    nudger = ReminderModel()
    llm = LLMReminder(model=FunctionModel(nudger))

    async def every_second(ctx: object) -> str | None:
        from pydantic_ai import RunContext

        assert isinstance(ctx, RunContext)
        return await llm(ctx) if ctx.run_step % 2 == 0 else None

    script = Script(tool_calls=3)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[every_second]))

    result = agent.run_sync('Go.')

    assert [t is not None for t in tails(script, result.all_messages())] == [False, True, False, True]
    assert len(nudger.prompts) == 2


def test_single_tail_text_helper_sees_the_reminder_model_nudge() -> None:
    # The nested reminder run is a separate agent: its own requests carry no reminder of the parent's.
    seen: list[list[ModelMessage]] = []

    def nudger(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        return ModelResponse(parts=[TextPart('nudge')])

    script = Script(tool_calls=0)
    agent = agent_with(script, SystemReminders(dynamic_reminders=[LLMReminder(model=FunctionModel(nudger))]))
    result = agent.run_sync('Go.')

    assert tail_text(script.received[0], result.all_messages()) == '<system-reminder>\nnudge\n</system-reminder>'
    [request] = seen[0]
    assert isinstance(request, ModelRequest)
    assert all('system-reminder' not in str(part) for part in request.parts)
