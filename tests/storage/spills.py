"""Agents that spill into a store and page a handle back, for the store tests."""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse

from observable_harness import ToolOutputLimits
from observable_harness._text.paging import READ_TOOL_NAME
from observable_harness.storage import OverflowStore
from tests.agents import Script, call, done, respond, text_of, tool_returns
from tests.storage.conftest import CANARY

_LINE = '08:{:02d}:{:02d} INFO worker-{} step {:05d} of the nightly batch\n'
_LINES = ''.join(_LINE.format(i // 60 % 60, i % 60, i % 5, i) for i in range(1_000))
LOG = (_LINES + f'ERROR {CANARY}\n' + _LINES)[:50_000]


def pager(handle: str) -> Callable[[list[ModelMessage]], ModelResponse]:
    """A model step that reads `handle` from offset 0, then follows each page's footer until the end."""

    def step(messages: list[ModelMessage]) -> ModelResponse:
        pages = tool_returns(messages, READ_TOOL_NAME)
        if not pages:
            return respond(call(READ_TOOL_NAME, {'handle': handle}, 'read-0'))
        footer = text_of(pages[-1]).rsplit('\n', 1)[-1]
        found = re.search(r"call read_tool_result\(handle='([^']+)', offset=(\d+)", footer)
        if found is None:
            return done()
        return respond(
            call(READ_TOOL_NAME, {'handle': found.group(1), 'offset': int(found.group(2))}, f'read-{found[2]}')
        )

    return step


def spilling_agent(store: OverflowStore, payload: str = LOG) -> tuple[Agent[None, str], Script]:
    script = Script([respond(call('fetch_logs', call_id='big')), done()])
    agent = Agent(script.model(), capabilities=[ToolOutputLimits(store=store)])
    agent.tool_plain(name='fetch_logs')(lambda: payload)
    return agent, script


def reading_agent(store: OverflowStore, handle: str) -> Agent[None, str]:
    script = Script([pager(handle)] * 40)
    return Agent(script.model(), capabilities=[ToolOutputLimits(store=store)])
