"""SystemReminders beside other capabilities: tool-return rewrites reach the model unchanged, and a model wrapper that
bypasses ours is reported instead of silently dropping reminders."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import CachePoint, ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models import Model, ModelRequestParameters
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.settings import ModelSettings
from pydantic_ai.tools import ToolDefinition

from observable_harness import SystemReminders
from observable_harness.system_reminders import Reminder

from .helpers import Script, agent_with, assert_history_clean, tail_cache_point, tail_parts, tail_text

STAND_IN = '[output spilled: 52,013 chars → handle r1/c0.0; read it with read_tool_result]'


class StandIn(AbstractCapability[Any]):
    """What ToolOutputLimits does to an oversized return: replaces it, once, when the tool returns."""

    async def after_tool_execute(
        self, ctx: RunContext[Any], *, call: ToolCallPart, tool_def: ToolDefinition, args: dict[str, Any], result: Any
    ) -> Any:
        return STAND_IN


@pytest.mark.parametrize('order', ['reminders_first', 'stand_in_first'])
def test_a_rewritten_tool_return_reaches_the_model_unchanged_beside_the_reminder(order: str) -> None:
    script = Script(tool_calls=2)
    reminders = SystemReminders(reminders=[Reminder('Read spilled output by handle.')])
    capabilities = (reminders, StandIn()) if order == 'reminders_first' else (StandIn(), reminders)
    agent = agent_with(script, *capabilities)

    result = agent.run_sync('Summarise the logs.')

    history = result.all_messages()
    for sent in script.received[1:]:
        last = sent[-1]
        returns = [part for part in last.parts if isinstance(part, ToolReturnPart)]
        assert [part.content for part in returns] == [STAND_IN]
        # The stand-in is the history's own part, followed by the reminder behind a breakpoint.
        assert tail_text(sent, history) == '<system-reminder>\nRead spilled output by handle.\n</system-reminder>'
        assert tail_cache_point(sent, history) == CachePoint(ttl='5m')
        assert last.parts[-2] is returns[0]
    assert sum(STAND_IN in str(message) for message in history) == 2
    assert_history_clean(history, 'Read spilled output')


class AnswersItself(WrapperModel):
    """A model wrapper that answers without calling the model it wraps, as request batching does."""

    def __init__(self, wrapped: Model, seen: list[list[ModelMessage]]) -> None:
        super().__init__(wrapped)
        self.seen = seen

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        self.seen.append(list(messages))
        return ModelResponse(parts=[TextPart('answered by the wrapper')])


class Shortcut(AbstractCapability[Any]):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[list[ModelMessage]] = []

    def get_wrapper_model(self, model: Model) -> Model | None:
        return AnswersItself(model, self.seen)


def test_reminders_listed_first_reach_a_wrapper_that_answers_itself() -> None:
    shortcut = Shortcut()
    agent = agent_with(Script(), SystemReminders(reminders=[Reminder('R')]), shortcut)

    result = agent.run_sync('Go.')

    [sent] = shortcut.seen
    assert tail_text(sent, result.all_messages()) == '<system-reminder>\nR\n</system-reminder>'


def test_reminders_bypassed_by_an_outer_wrapper_are_reported_once_per_run(caplog: pytest.LogCaptureFixture) -> None:
    shortcut = Shortcut()
    agent = agent_with(Script(), shortcut, SystemReminders(reminders=[Reminder('R')]))

    with caplog.at_level(logging.WARNING, logger='observable_harness.system_reminders'):
        result = agent.run_sync('Go.')
        agent.run_sync('Again.')

    [sent] = shortcut.seen[:1]
    assert tail_parts(sent, result.all_messages()) == []
    warnings = [r.getMessage() for r in caplog.records if r.name == 'observable_harness.system_reminders']
    assert len(warnings) == 2
    assert 'reminders fired on request 1 but no model request carried them' in warnings[0]
    assert 'List SystemReminders first' in warnings[0]
