"""Scripted models and the checks every reminder test shares: what each request carried beyond the history."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.messages import (
    CachePoint,
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelRequestPart,
    ModelResponse,
    TextPart,
    ToolCallPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import RunUsage


@dataclass
class Script:
    """A FunctionModel script: `tool_calls` turns calling `lookup`, then a final text answer. Records every request."""

    tool_calls: int = 3
    received: list[list[ModelMessage]] = field(default_factory=list)
    snapshots: list[list[Any]] = field(default_factory=list)
    """Each request as JSON, taken when it was sent: later changes to the objects cannot hide in it."""

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.received.append(list(messages))
        self.snapshots.append(ModelMessagesTypeAdapter.dump_python(messages, mode='json'))
        calls_so_far = sum(
            isinstance(m, ModelResponse) and any(isinstance(p, ToolCallPart) for p in m.parts) for m in messages
        )
        if calls_so_far < self.tool_calls:
            return ModelResponse(parts=[ToolCallPart('lookup', {'q': f'item {calls_so_far}'})])
        return ModelResponse(parts=[TextPart('done')])

    def model(self) -> FunctionModel:
        return FunctionModel(self)


def agent_with(script: Script, *capabilities: Any, **kwargs: Any) -> Agent[None, str]:
    agent = Agent(script.model(), capabilities=list(capabilities), **kwargs)

    @agent.tool_plain
    def lookup(q: str) -> str:
        return f'result for {q}'

    return agent


def tail_parts(sent: Sequence[ModelMessage], history: Sequence[ModelMessage]) -> list[ModelRequestPart]:
    """The parts a request carried beyond what the history holds, after checking everything else is the history.

    Every message but the last must be the history's own object; the last request's leading parts must be the
    history's part objects, in order. So the request is the persisted prefix plus a tail, and nothing the history
    holds was copied-and-changed or mutated.
    """
    assert len(sent) <= len(history), 'a request carried a message the history does not hold'
    for index, message in enumerate(sent[:-1]):
        assert message is history[index], f'message {index} of the request is not the persisted message'
    last, persisted = sent[-1], history[len(sent) - 1]
    assert isinstance(last, ModelRequest)
    assert isinstance(persisted, ModelRequest)
    kept = len(persisted.parts)
    assert len(last.parts) >= kept
    for index, part in enumerate(persisted.parts):
        assert last.parts[index] is part, f'part {index} of the last request is not the persisted part'
    return list(last.parts[kept:])


def tail_text(sent: Sequence[ModelMessage], history: Sequence[ModelMessage]) -> str | None:
    """The reminder text a request carried (None when it carried none), checking the tail's shape on the way."""
    extra = tail_parts(sent, history)
    if not extra:
        return None
    assert len(extra) == 1, extra
    [part] = extra
    assert isinstance(part, UserPromptPart)
    if isinstance(part.content, str):
        return part.content
    assert len(part.content) == 2
    assert isinstance(part.content[0], CachePoint)
    assert isinstance(part.content[1], str)
    return part.content[1]


def tail_cache_point(sent: Sequence[ModelMessage], history: Sequence[ModelMessage]) -> CachePoint | None:
    [part] = tail_parts(sent, history)
    assert isinstance(part, UserPromptPart)
    if isinstance(part.content, str):
        return None
    point = part.content[0]
    assert isinstance(point, CachePoint)
    return point


def tails(script: Script, history: Sequence[ModelMessage]) -> list[str | None]:
    return [tail_text(sent, history) for sent in script.received]


def dump(messages: Sequence[ModelMessage]) -> bytes:
    return ModelMessagesTypeAdapter.dump_json(list(messages))


def assert_history_clean(history: Sequence[ModelMessage], *markers: str) -> None:
    serialized = dump(history).decode()
    for marker in markers:
        assert marker not in serialized, f'{marker!r} reached the message history'


def run_usage(result: Any) -> RunUsage:
    """`result.usage` is a property on pydantic-ai 2.68 and a method on 2.62."""
    usage = result.usage
    return usage() if inspect.ismethod(usage) else usage
