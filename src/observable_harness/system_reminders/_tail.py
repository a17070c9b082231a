"""The ephemeral tail: a `CachePoint` and the reminder, added to the outgoing copy of a request and nowhere else.

Why a model wrapper (`AbstractCapability.get_wrapper_model`) and not `before_model_request`/`wrap_model_request`:
the agent graph owns what those hooks hand over. It copies their message list into the request it records, writes
run metadata, instructions and tool-availability records onto `messages[-1]` after the before-chain, mirrors list
appends into history (deprecated, in 2.68), and inner capabilities' hooks read (and may persist) that list. The
wrapper receives the final message list at the last moment before the provider maps it, on every pydantic-ai
version this library supports, and the list it passes on is never seen by the graph: a tail built there cannot
reach the message history, and the persisted prefix stays byte-identical turn to turn.

What the wrapper never does is mutate a message or part the history holds: the tail request is a shallow copy of the
last request with a new parts list.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncGenerator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal

from pydantic_ai import RunContext
from pydantic_ai.messages import CachePoint, ModelMessage, ModelRequest, ModelResponse, ToolReturnPart, UserPromptPart
from pydantic_ai.models import Model, ModelRequestParameters, StreamedResponse
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.settings import ModelSettings
from pydantic_ai.usage import RequestUsage

from ._records import RETRY_PART_KINDS, CachePointReason, FiredReminder, Injection
from ._telemetry import report_injection

__all__ = ['CacheTTL', 'PendingTail', 'ReminderTailModel', 'with_reminder_tail']

CacheTTL = Literal['5m', '1h']


@dataclass(slots=True)
class PendingTail:
    """The reminders one request step decided to send, waiting for the model wrapper to attach them."""

    request: int
    fired: tuple[FiredReminder, ...]
    text: str
    content_hash: str
    sent: int = 0
    """Requests that carried it: zero after the step means something kept the wrapper from the request."""


def with_reminder_tail(
    messages: Sequence[ModelMessage], text: str, cache_ttl: CacheTTL
) -> tuple[list[ModelMessage], bool, CachePointReason] | None:
    """`messages` with `text` appended to a copy of the last request, behind a `CachePoint` when one can attach.

    Returns the new list, whether a CachePoint was placed and why; `None` when the list does not end in a request
    (a provider resume re-sends a suspended response as it is, so nothing may follow it).
    """
    if not messages or not isinstance(last := messages[-1], ModelRequest):
        return None
    reason = _cache_point_reason(messages, last)
    placed = reason == 'attached'
    tail = UserPromptPart([CachePoint(ttl=cache_ttl), text] if placed else text)
    outgoing = _shallow_copy(last)
    outgoing.parts = [*last.parts, tail]
    return [*messages[:-1], outgoing], placed, reason


def _shallow_copy(request: ModelRequest) -> ModelRequest:
    # `copy.copy` goes through `__reduce_ex__` and costs tens of microseconds per request; copying the instance
    # dictionary is the same shallow copy (every field, `init=False` ones included) without that machinery.
    if not hasattr(request, '__dict__'):  # pragma: no cover - ModelRequest is a plain dataclass today
        return copy.copy(request)
    duplicate = object.__new__(type(request))
    duplicate.__dict__.update(request.__dict__)
    return duplicate


def _cache_point_reason(messages: Sequence[ModelMessage], last: ModelRequest) -> CachePointReason:
    if last.parts and _ends_in_cache_point(last.parts[-1]):
        return 'already_marked'
    # Providers attach a breakpoint to the content block before it; with no such block (an instructions-only first
    # request: instructions travel outside the messages) Anthropic rejects a leading CachePoint outright.
    for message in reversed(messages):
        if isinstance(message, ModelResponse):
            if message.parts:
                return 'attached'
        elif any(_renders_content(part) for part in message.parts):
            return 'attached'
    return 'no_content'


def _renders_content(part: Any) -> bool:
    if isinstance(part, UserPromptPart):
        content = part.content
        return bool(content) if isinstance(content, str) else any(not isinstance(c, CachePoint) for c in content)
    return isinstance(part, ToolReturnPart) or getattr(part, 'part_kind', None) in RETRY_PART_KINDS


def _ends_in_cache_point(part: Any) -> bool:
    return isinstance(part, UserPromptPart) and not isinstance(part.content, str) and _last_is_cache_point(part.content)


def _last_is_cache_point(content: Sequence[Any]) -> bool:
    return bool(content) and isinstance(content[-1], CachePoint)


class ReminderTailModel(WrapperModel):
    """Sends each request with the pending reminder tail attached; everything else goes to the wrapped model as is.

    Reports one `system_reminders.inject` per request it attaches the tail to, with the cache-point decision made
    on the messages that actually go out.
    """

    def __init__(self, wrapped: Model, tail: PendingTail, cache_ttl: CacheTTL) -> None:
        super().__init__(wrapped)
        self._tail = tail
        self._cache_ttl: CacheTTL = cache_ttl

    def _outgoing(self, messages: list[ModelMessage], *, report: bool = True) -> list[ModelMessage]:
        tail = self._tail
        attached = with_reminder_tail(messages, tail.text, self._cache_ttl)
        if attached is None:
            return messages
        outgoing, placed, reason = attached
        if report:
            tail.sent += 1
            report_injection(Injection(tail.request, tail.fired, len(tail.text), tail.content_hash, placed, reason))
        return outgoing

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        return await self.wrapped.request(self._outgoing(messages), model_settings, model_request_parameters)

    @asynccontextmanager
    async def request_stream(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
        run_context: RunContext[Any] | None = None,
    ) -> AsyncGenerator[StreamedResponse]:
        async with self.wrapped.request_stream(
            self._outgoing(messages), model_settings, model_request_parameters, run_context
        ) as response_stream:
            yield response_stream

    async def count_tokens(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> RequestUsage:
        # A pre-request token check should count what will be sent, reminder included, without reporting a send.
        return await self.wrapped.count_tokens(
            self._outgoing(messages, report=False), model_settings, model_request_parameters
        )
