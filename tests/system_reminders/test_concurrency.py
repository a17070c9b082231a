"""REM-7 per-run isolation: two runs of one agent at once keep their own cadence, fire counts and tails."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from observable_harness import SystemReminders
from observable_harness.system_reminders import GoalReanchor, Reminder

from .helpers import assert_history_clean, tail_text


class LockstepModel:
    """Answers two runs in lockstep: each run's k-th request waits until the other run has made its k-th request too,
    so the runs' hooks interleave on every step (and a shared counter would split the steps between them)."""

    def __init__(self, tool_calls: int) -> None:
        self.tool_calls = tool_calls
        self.received: dict[str, list[list[ModelMessage]]] = {}
        self._arrivals: dict[int, asyncio.Event] = {}
        self._count: dict[int, int] = {}

    async def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        first = messages[0]
        assert isinstance(first, ModelRequest)
        prompt = next(p.content for p in first.parts if isinstance(p, UserPromptPart))
        assert isinstance(prompt, str)
        mine = self.received.setdefault(prompt, [])
        mine.append(list(messages))
        step = len(mine)
        self._count[step] = self._count.get(step, 0) + 1
        event = self._arrivals.setdefault(step, asyncio.Event())
        if self._count[step] == 2:
            event.set()
        await asyncio.wait_for(event.wait(), timeout=5)
        if step <= self.tool_calls:
            return ModelResponse(parts=[ToolCallPart('lookup', {'q': prompt})])
        return ModelResponse(parts=[TextPart(f'done {prompt}')])


@pytest.mark.anyio
async def test_concurrent_runs_keep_separate_cadence_and_fire_counts() -> None:
    model = LockstepModel(tool_calls=5)
    fired: list[str] = []

    async def which_run(ctx: RunContext[Any]) -> str:
        await asyncio.sleep(0)  # let the other run's hook in between deciding and sending
        return f'run {ctx.prompt} at step {ctx.run_step}'

    agent = Agent(
        FunctionModel(model),
        capabilities=[
            SystemReminders(
                reminders=[Reminder('every second', interval=2, max_fires=2, name='every-second')],
                dynamic_reminders=[which_run, GoalReanchor()],
                on_fire=fired.append,
            )
        ],
    )

    @agent.tool_plain
    async def lookup(q: str) -> str:
        await asyncio.sleep(0)
        return q

    alpha, beta = await asyncio.gather(agent.run('alpha'), agent.run('beta'))

    for result, name in ((alpha, 'alpha'), (beta, 'beta')):
        assert result.output == f'done {name}'
        history = result.all_messages()
        sent = [tail_text(request, history) for request in model.received[name]]
        assert len(sent) == 6
        for step, text in enumerate(sent, start=1):
            assert text is not None
            # Each run's tail is its own: its own step, its own goal, never the other run's.
            assert f'run {name} at step {step}' in text
            assert f'<original-request>\n{name}\n</original-request>' in text
            other = 'beta' if name == 'alpha' else 'alpha'
            assert other not in text
            # Each run counts its own requests: requests 2 and 4 fire, and max_fires=2 stops request 6.
            assert ('every second' in text) == (step in (2, 4))
        assert_history_clean(history, 'system-reminder', 'every second')
    assert fired.count('<system-reminder>\nevery second\n</system-reminder>') == 4
