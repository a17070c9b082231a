"""What the model is looking for, gathered from what the run already holds when a tool returns.

The response that made the call is in `ctx.messages`: its text, its thinking where the model shows
it, and the call itself with its arguments. The user prompt is the run's. Nothing here calls a model
or leaves the process; the terms go to the preview and nowhere else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    UserPromptPart,
)
from pydantic_ai.tools import RunContext

from .._text.intent import Intent

__all__ = ['gather_intent']

_MAX_SOURCE_CHARS = 20_000
"""Text taken from each source: a pasted document in a prompt must not buy a long term scan."""


def gather_intent(ctx: RunContext[Any], tool_call_id: str | None) -> Intent:
    """Terms from this call's arguments, the response that made it, and the user prompt."""
    text, thinking, args = _calling_response(ctx.messages, tool_call_id)
    return Intent.gather(
        args=args,
        text=text[:_MAX_SOURCE_CHARS],
        thinking=thinking[:_MAX_SOURCE_CHARS],
        prompt=_user_prompt(ctx)[:_MAX_SOURCE_CHARS],
    )


def _calling_response(
    messages: Sequence[ModelMessage], tool_call_id: str | None
) -> tuple[str, str, Mapping[str, Any] | None]:
    """The text, thinking and call arguments of the response that made this call."""
    for message in reversed(messages):
        if not isinstance(message, ModelResponse):
            continue
        call = next(
            (part for part in message.parts if isinstance(part, ToolCallPart) and part.tool_call_id == tool_call_id),
            None,
        )
        if call is None:
            continue
        text = '\n'.join(part.content for part in message.parts if isinstance(part, TextPart))
        thinking = '\n'.join(part.content for part in message.parts if isinstance(part, ThinkingPart))
        return text, thinking, _arguments(call)
    return '', '', None


def _arguments(call: ToolCallPart) -> Mapping[str, Any] | None:
    try:
        return call.args_as_dict()
    except Exception:  # arguments the model malformed name nothing usable
        return None


def _user_prompt(ctx: RunContext[Any]) -> str:
    prompt = ctx.prompt
    if isinstance(prompt, str):
        return prompt
    if prompt is not None:
        return '\n'.join(item for item in prompt if isinstance(item, str))
    # A run resumed from history has no prompt of its own: the last user prompt in it stands in.
    for message in reversed(ctx.messages):
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, UserPromptPart):
                    content = part.content
                    return content if isinstance(content, str) else '\n'.join(c for c in content if isinstance(c, str))
    return ''
