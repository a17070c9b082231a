"""ToolOutputLimits and SystemReminders on one agent: both work, and the reminder's request carries the
spill's stand-in, never the payload (issue 3, composition)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import CachePoint, ModelRequest, UserPromptPart

from observable_harness import SystemReminders, ToolOutputLimits
from observable_harness.system_reminders import Reminder
from observable_harness.tool_output_limits import LocalFileStore
from tests.agents import Script, call, done, respond, text_of, tool_returns

PAYLOAD = '\n'.join(f'build step {i}: compiled module_{i}.o' for i in range(3_000))
REMINDER = 'Stay focused on the failing build.'


@pytest.mark.parametrize('reminders_first', [False, True])
def test_reminder_request_carries_the_stand_in_and_history_keeps_neither_payload_nor_reminder(
    tmp_path: Path, reminders_first: bool
) -> None:
    limits = ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path))
    reminders = SystemReminders(reminders=[Reminder(REMINDER, interval=1)])
    capabilities: list[AbstractCapability[Any]] = [reminders, limits] if reminders_first else [limits, reminders]
    script = Script([respond(call('build')), respond(call('status')), done()])
    agent = Agent(script.model(), capabilities=capabilities)
    agent.tool_plain(name='build')(lambda: PAYLOAD)
    agent.tool_plain(name='status')(lambda: 'ok')
    result = agent.run_sync('Why does the build fail?')

    for received in script.received[1:]:
        [stand_in] = [text_of(p) for p in tool_returns(received, 'build')]
        assert 'stored whole' in stand_in
        assert len(stand_in) < 3_000 < len(PAYLOAD)
        tail = received[-1]
        assert isinstance(tail, ModelRequest)
        reminder_parts = [p for p in tail.parts if isinstance(p, UserPromptPart) and REMINDER in str(p.content)]
        assert len(reminder_parts) == 1
        content = reminder_parts[0].content
        assert isinstance(content, list)
        assert isinstance(content[0], CachePoint)
        # Exactly one reminder on the wire, at the tail: none left over from earlier turns.
        everywhere = [p for m in received for p in m.parts if REMINDER in str(getattr(p, 'content', ''))]
        assert everywhere == reminder_parts

    history = result.all_messages()
    assert not any(REMINDER in str(getattr(p, 'content', '')) for m in history for p in m.parts)
    [kept] = [text_of(p) for p in tool_returns(history, 'build')]
    [sent] = [text_of(p) for p in tool_returns(script.received[-1], 'build')]
    assert kept == sent
