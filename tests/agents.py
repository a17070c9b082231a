"""Scripted models for real `Agent` runs: each step decides the next response from what the model received."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.usage import RequestUsage, RunUsage

Step = Callable[[list[ModelMessage]], ModelResponse] | ModelResponse


def call(tool: str, args: dict[str, Any] | None = None, call_id: str | None = None) -> ToolCallPart:
    return ToolCallPart(tool, args or {}, tool_call_id=call_id or f'call_{tool}')


def respond(*parts: ToolCallPart | TextPart, input_tokens: int = 0, output_tokens: int = 0) -> ModelResponse:
    usage = RequestUsage(input_tokens=input_tokens, output_tokens=output_tokens)
    return ModelResponse(parts=list(parts), usage=usage)


def done(text: str = 'done') -> ModelResponse:
    return respond(TextPart(text))


@dataclass
class Script:
    """A `FunctionModel` that plays `steps` in order and records every message list it received."""

    steps: Sequence[Step]
    received: list[list[ModelMessage]] = field(default_factory=list[list[ModelMessage]])
    tools_seen: list[ToolDefinition] = field(default_factory=list[ToolDefinition])
    """The function tools the model was offered on its first request."""

    def model(self) -> FunctionModel:
        return FunctionModel(self._respond)

    def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.received.append(list(messages))
        index = len(self.received) - 1
        if index == 0:
            self.tools_seen = list(info.function_tools)
        if index >= len(self.steps):
            return done()
        step = self.steps[index]
        return step(messages) if callable(step) else step


def tool_returns(messages: Sequence[ModelMessage], tool: str | None = None) -> list[ToolReturnPart]:
    return [
        part
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart) and part.outcome != 'retried' and (tool is None or part.tool_name == tool)
    ]


def retry_texts(messages: Sequence[ModelMessage]) -> list[str]:
    """What the model was told when a tool asked for a retry (a `ToolReturnPart` with `outcome='retried'`)."""
    return [
        str(part.content)
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart) and part.outcome == 'retried'
    ]


def user_prompts(messages: Sequence[ModelMessage]) -> list[UserPromptPart]:
    return [
        part
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, UserPromptPart)
    ]


def text_of(part: ToolReturnPart) -> str:
    content = part.content
    return content if isinstance(content, str) else str(content)


_HANDLE = re.compile(r"handle='([^']+)'")


def handle_in(text: str) -> str:
    """The handle a spill stand-in tells the model to read with."""
    match = _HANDLE.search(text)
    assert match, f'no handle in stand-in: {text[:300]!r}'
    return match.group(1)


def read_back(received_last: Sequence[ModelMessage], tool: str, **read_args: Any) -> ModelResponse:
    """A step that reads back the handle found in the latest return of `tool`."""
    [*_, last] = tool_returns(received_last, tool)
    return respond(call('read_tool_result', {'handle': handle_in(text_of(last)), **read_args}, 'call_read'))


def run_usage(result: Any) -> RunUsage:
    """`result.usage` across pydantic-ai versions (a method before 2.6x, a property after)."""
    usage = result.__class__.usage
    if isinstance(usage, property):
        return result.usage
    return result.usage()


def rebuild(pages: Sequence[str]) -> str:
    """A stored payload rebuilt from the rendered read pages alone (rows are `<offset>[↩]\\t<text>`)."""
    rebuilt: list[str] = []
    no_final_newline = False
    for page in pages:
        for line in page.split('\n'):
            row = re.match(r'(\d+)(↩?)\t(.*)', line, re.DOTALL)
            if row:
                rebuilt.append(row.group(3) + ('' if row.group(2) else '\n'))
            else:
                assert line.startswith('['), line
                no_final_newline |= 'no final newline' in line
    text = ''.join(rebuilt)
    return text[:-1] if no_final_newline else text
