"""`LLMReminder`: a model turns the run's goal and recent activity into a short nudge, falling back to GoalReanchor."""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import KnownModelName, Model
from pydantic_ai.settings import ModelSettings

from .._nested_run import check_model_name, model_label, nested_usage_limits
from ._records import RETRY_PART_KINDS, Generation
from ._reminders import GoalReanchor, first_user_request
from ._telemetry import generation_span

__all__ = ['DEFAULT_LLM_REMINDER_INSTRUCTIONS', 'LLMReminder']

_log = logging.getLogger('observable_harness.system_reminders')

DEFAULT_LLM_REMINDER_INSTRUCTIONS = (
    "You keep an AI agent on task during a long run. You are given the run's original goal and the agent's most "
    'recent activity. Write one short reminder, addressed to the agent, of at most three sentences, that steers its '
    'next step toward the goal; name the drift if you see one. Reply with the reminder only.'
)

_FALLBACK = GoalReanchor()
_BUDGET_REASON = 'UsageLimitExceeded'
_EMPTY_REASON = 'empty'
_REMEMBERED_RUNS = 1024


@dataclass
class LLMReminder:
    """A dynamic reminder written by a model: it reads the run's original goal and recent activity and writes a short
    nudge back on task.

    `model` is required: there is no default model id to silently bill. The request's usage is folded into the run's
    (`result.usage()` shows it) and runs under the run's usage limits with one request kept for the request the
    reminder is for, so a reminder never pushes a run past its `request_limit`. When the budget is too tight, or on
    any error, the reminder is GoalReanchor's text and the run goes on; the first failure of each run is logged on
    `observable_harness.system_reminders` and every one is counted in `system_reminders.generate.fallbacks`, so a
    misconfigured model does not look healthy.

    Dynamic reminders run on every request, so this makes one extra model request per turn. Put it behind a cadence
    with an async wrapper to bound the cost:

    ```python
    from pydantic_ai import Agent, RunContext
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel
    from pydantic_ai.models.test import TestModel

    from observable_harness import SystemReminders
    from observable_harness.system_reminders import LLMReminder


    def nudge(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[TextPart('Back to the release notes.')])


    _llm = LLMReminder(model=FunctionModel(nudge))  # e.g. 'anthropic:claude-haiku-4-5'


    async def every_tenth(ctx: RunContext[None]) -> str | None:
        return await _llm(ctx) if ctx.run_step % 10 == 0 else None


    agent = Agent(TestModel(), capabilities=[SystemReminders(dynamic_reminders=[every_tenth])])
    result = agent.run_sync('Summarise the release notes.')
    assert result.output
    ```

    The generation runs inside `wrap_model_request`, so under durable execution its model call is made in the
    orchestration context, not in a durable step: prefer `GoalReanchor` there.
    """

    model: Model | KnownModelName | str
    """The model that writes the nudge: a small, fast one is enough."""
    instructions: str = DEFAULT_LLM_REMINDER_INSTRUCTIONS
    """What the reminder model is asked to do with the transcript."""
    recent_messages: int = 6
    """How many of the latest messages the transcript shows: enough to see a drift, few enough to stay cheap."""
    max_item_chars: int = 300
    """Longest text kept from any one transcript item (a tool result, a message): the nudge needs the gist only."""
    model_settings: ModelSettings | None = None
    """Settings for the reminder request, such as a `max_tokens` bound."""

    _agent: Agent[None, str] | None = field(default=None, init=False, repr=False, compare=False)
    _failed_runs: OrderedDict[str | int, None] = field(
        default_factory=OrderedDict[str | int, None], init=False, repr=False, compare=False
    )
    """Runs whose failure was already logged; bounded, since one instance outlives any number of runs."""
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.model, str) and not self.model.strip():
            raise ValueError("LLMReminder needs a model, e.g. LLMReminder(model='anthropic:claude-haiku-4-5').")
        check_model_name(self.model, 'LLMReminder(model=...)')
        for name in ('recent_messages', 'max_item_chars'):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f'LLMReminder {name} must be a positive int, got {value!r}.')

    @property
    def model_label(self) -> str:
        """The model's name as telemetry labels it."""
        return model_label(self.model)

    async def __call__(self, ctx: RunContext[Any]) -> str | None:
        label = self.model_label
        usage = ctx.usage
        input_before, output_before = usage.input_tokens, usage.output_tokens
        nudge: str | None = None
        failure: BaseException | None = None
        reason: str | None = None
        with generation_span(label) as finish:
            limits = nested_usage_limits(ctx)
            if limits is None:
                reason = _BUDGET_REASON
            else:
                try:
                    result = await self._reminder_agent().run(
                        self._transcript(ctx), usage=usage, usage_limits=limits, model_settings=self.model_settings
                    )
                    nudge = result.output.strip()
                    if not nudge:
                        reason = _EMPTY_REASON
                except Exception as error:
                    failure = error
                    reason = type(error).__name__
            finish(
                Generation(
                    model=label,
                    input_tokens=usage.input_tokens - input_before,
                    output_tokens=usage.output_tokens - output_before,
                    fallback=reason is not None,
                    fallback_reason=reason,
                )
            )
        if reason is not None or not nudge:
            self._log_failure_once(ctx, reason or _EMPTY_REASON, failure)
            return _FALLBACK(ctx)
        return f'<system-reminder>\n{nudge}\n</system-reminder>'

    def _reminder_agent(self) -> Agent[None, str]:
        # Built on first use, inside the caller's error handling: a model string whose provider is missing a key
        # raises here, and that must fall back rather than fail the run.
        if self._agent is None:
            self._agent = Agent(self.model, instructions=self.instructions, output_type=str, name='llm_reminder')
        return self._agent

    def _transcript(self, ctx: RunContext[Any]) -> str:
        goal = first_user_request(ctx) or '(no text prompt)'
        lines = [f'Original goal:\n{_clip(goal, self.max_item_chars * 4)}', '', 'Recent activity, oldest first:']
        recent = ctx.messages[-self.recent_messages :]
        lines.extend(f'- {item}' for item in _activity(recent, self.max_item_chars))
        if len(lines) == 3:
            lines.append('- (nothing yet)')
        return '\n'.join(lines)

    def _log_failure_once(self, ctx: RunContext[Any], reason: str, failure: BaseException | None) -> None:
        run_key: str | int = ctx.run_id if ctx.run_id is not None else id(ctx.usage)
        with self._lock:
            if run_key in self._failed_runs:
                return
            self._failed_runs[run_key] = None
            if len(self._failed_runs) > _REMEMBERED_RUNS:
                self._failed_runs.popitem(last=False)
        if reason == _BUDGET_REASON:
            detail = 'the run has no request to spare under its usage limits'
        elif failure is None:
            detail = 'the model returned an empty reminder'
        else:
            detail = f'{reason}: {failure}'
        _log.warning(
            'LLMReminder(model=%r) fell back to GoalReanchor text (%s). Further fallbacks in this run are counted in '
            'the system_reminders.generate.fallbacks metric but not logged; check the model id and its API key.',
            self.model if isinstance(self.model, str) else self.model_label,
            detail,
        )


def _activity(messages: Sequence[ModelMessage], max_chars: int) -> list[str]:
    items: list[str] = []
    for message in messages:
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, UserPromptPart):
                    content = part.content
                    text = (
                        content
                        if isinstance(content, str)
                        else ' '.join(item for item in content if isinstance(item, str))
                    )
                    items.append(f'user: {_clip(text, max_chars)}')
                elif isinstance(part, ToolReturnPart):
                    items.append(f'tool {part.tool_name} returned: {_clip(part.model_response_str(), max_chars)}')
                elif getattr(part, 'part_kind', None) in RETRY_PART_KINDS:
                    # 2.68 replaced `RetryPromptPart` with `RetryFeedbackPart`; both render with `model_response()`.
                    retry: Any = part
                    items.append(f'retry requested: {_clip(str(retry.model_response()), max_chars)}')
        else:
            for part in message.parts:
                if isinstance(part, TextPart):
                    items.append(f'agent said: {_clip(part.content, max_chars)}')
                elif isinstance(part, ToolCallPart):
                    args = part.args if isinstance(part.args, str) else json.dumps(part.args, default=str)
                    items.append(f'agent called {part.tool_name}({_clip(args or "", max_chars)})')
    return items


def _clip(text: str, max_chars: int) -> str:
    text = ' '.join(text.split())
    return text if len(text) <= max_chars else f'{text[:max_chars]}… (+{len(text) - max_chars:,} chars)'
