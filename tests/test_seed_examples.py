"""SPEC: the seeds' examples work with `pydantic_ai_harness` replaced by `observable_harness`, nothing else changed.

Each example below is copied from a seed document with only the import root replaced. They name real
providers ('openai:gpt-4o', 'anthropic:...'), so the test gives those providers a dummy key and
answers `run_sync` with a `TestModel`: what is checked is that the API the seeds show exists and
builds working agents.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.models.test import TestModel

TOOL_OUTPUT_LIMITS = [
    """
    from pydantic_ai import Agent
    from observable_harness import ToolOutputLimits

    agent = Agent('openai:gpt-4o', capabilities=[ToolOutputLimits()])
    """,
    """
    from pydantic_ai import Agent
    from observable_harness import ToolOutputLimits
    from observable_harness.tool_output_limits import Band, Spill, Summarize, Truncate

    agent = Agent(
        'openai:gpt-4o',
        capabilities=[
            ToolOutputLimits(
                bands=[
                    Band(over=100_000, action=Spill()),      # huge: keep losslessly, read back on demand
                    Band(over=20_000, action=Summarize()),    # large: compress with the run's model
                    Band(over=5_000, action=Truncate()),      # medium: cheap clamp
                ],
                # below 5,000: passthrough
            )
        ],
    )
    """,
    """
    from pydantic_ai import Agent
    from observable_harness import ToolOutputLimits
    from observable_harness.tool_output_limits import Band, Truncate, TruncationStrategy

    agent = Agent(
        'openai:gpt-4o',
        capabilities=[
            ToolOutputLimits(
                per_tool={
                    'read_file': [Band(over=8_000, action=Truncate(strategy=TruncationStrategy.head))],
                    'run_shell': [Band(over=8_000, action=Truncate(strategy=TruncationStrategy.tail))],
                },
                tool_filter=['read_file', 'run_shell', 'search'],
            )
        ],
    )
    """,
    """
    from observable_harness.tool_output_limits import ToolOutputLimits, indented_json, json_lines

    ToolOutputLimits(serializer=indented_json)  # one field per line
    ToolOutputLimits(serializer=json_lines)  # one record per line
    """,
    """
    from typing import Protocol


    class OverflowStore(Protocol):
        async def write(self, key: str, data: bytes) -> str: ...   # returns a handle
        async def read(self, handle: str) -> bytes: ...
    """,
    """
    from datetime import timedelta

    from pydantic_ai import Agent
    from observable_harness import ToolOutputLimits
    from observable_harness.tool_output_limits import LocalFileStore

    store = LocalFileStore(cleanup_after=timedelta(hours=6))  # default: None = keep forever
    agent = Agent('openai:gpt-4o', capabilities=[ToolOutputLimits(store=store)])
    """,
    """
    import time
    from pathlib import Path

    root = Path('/tmp/pyai_harness_overflow')  # or your configured base_dir
    cutoff = time.time() - 6 * 3600
    for path in root.rglob('*'):
        if path.is_file() and path.stat().st_mtime < cutoff:
            path.unlink(missing_ok=True)
    """,
    """
    from observable_harness import ToolOutputLimits, SystemReminders
    from observable_harness.tool_output_limits import (Band, Spill, Summarize, Truncate, Passthrough,
        TruncationStrategy, LocalFileStore, OverflowStore, indented_json, json_lines)
    from observable_harness.system_reminders import Reminder, GoalReanchor, LLMReminder
    """,
]

SYSTEM_REMINDERS = [
    """
    from pydantic_ai import Agent
    from observable_harness import SystemReminders
    from observable_harness.system_reminders import Reminder

    agent = Agent(
        'anthropic:claude-sonnet-4-6',
        capabilities=[
            SystemReminders(
                reminders=[Reminder('Stay focused on the original request.', interval=5)],
            )
        ],
    )

    result = agent.run_sync('Refactor the auth module and add tests.')
    print(result.output)
    """,
    """
    from observable_harness import SystemReminders

    SystemReminders(
        dynamic_reminders=[
            lambda ctx: 'Wrap up soon.' if ctx.run_step > 20 else None,
        ],
    )
    """,
    """
    from observable_harness import SystemReminders
    from observable_harness.system_reminders import GoalReanchor

    SystemReminders(dynamic_reminders=[GoalReanchor()])
    """,
    """
    from observable_harness import SystemReminders
    from observable_harness.system_reminders import LLMReminder

    SystemReminders(dynamic_reminders=[LLMReminder(model='anthropic:claude-haiku-4-5')])
    """,
    """
    from observable_harness import SystemReminders
    from observable_harness.system_reminders import LLMReminder

    _llm = LLMReminder(model='anthropic:claude-haiku-4-5')

    async def every_tenth(ctx):
        return await _llm(ctx) if ctx.run_step % 10 == 0 else None

    SystemReminders(dynamic_reminders=[every_tenth])
    """,
    """
    from observable_harness import SystemReminders
    from observable_harness.system_reminders import Reminder

    SystemReminders(
        reminders=[Reminder('...', interval=5)],
        dynamic_reminders=[],       # callables evaluated every request
        cache_ttl='5m',             # TTL for the cache breakpoint before the reminder ('5m' | '1h')
        on_fire=None,               # optional callback invoked with each rendered reminder
    )
    """,
]


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ('OPENAI_API_KEY', 'ANTHROPIC_API_KEY'):
        monkeypatch.setenv(variable, 'sk-dummy-for-construction-only')
    original = Agent.run_sync

    def run_sync(self: Agent[Any, Any], *args: Any, **kwargs: Any) -> Any:
        with self.override(model=TestModel()):
            return original(self, *args, **kwargs)

    monkeypatch.setattr(Agent, 'run_sync', run_sync)


@pytest.mark.usefixtures('offline')
@pytest.mark.parametrize('example', TOOL_OUTPUT_LIMITS + SYSTEM_REMINDERS)
def test_seed_example_runs(example: str) -> None:
    namespace: dict[str, Any] = {}
    exec(compile(textwrap.dedent(example), '<seed example>', 'exec'), namespace)
    agent = namespace.get('agent')
    if agent is not None:
        assert isinstance(agent, Agent)
