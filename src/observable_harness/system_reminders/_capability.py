"""`SystemReminders`: re-state targeted guidance during long runs without breaking the prompt cache."""

from __future__ import annotations

import copy
import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic_ai import AgentRunResult, RunContext
from pydantic_ai.capabilities import AbstractCapability, WrapModelRequestHandler
from pydantic_ai.messages import ModelRequest, ModelResponse
from pydantic_ai.models import Model, ModelRequestContext

from .._text.hashing import content_hash
from .._usage import agent_label, record_reminded_input, record_response, record_run_end
from ._llm_reminder import LLMReminder
from ._records import FiredReminder, ReminderKind
from ._reminders import DynamicReminder, GoalReanchor, Reminder
from ._tail import CacheTTL, PendingTail, ReminderTailModel
from ._telemetry import report_fired

__all__ = ['SystemReminders']

_CACHE_TTLS: tuple[CacheTTL, ...] = ('5m', '1h')
_log = logging.getLogger('observable_harness.system_reminders')
_T = TypeVar('_T')


@dataclass
class _RunState:
    """What one run has done so far; `for_run` gives every run its own."""

    fires: list[int]
    """Per static reminder, how often it fired in this run (for `max_fires`)."""
    requests: int = 0
    """Request steps seen, counting only those that could carry a reminder (not provider resumes)."""
    pending: PendingTail | None = None
    """The tail the current request step decided on, until the step's model request is done."""
    carried: PendingTail | None = None
    """The tail of the latest request step, kept until the next one starts: a streamed response reaches
    `after_model_request` after the step's wrapper returned, and its usage is told apart by it."""
    warned_undelivered: bool = False
    """Whether this run already warned that a decided tail reached no request (once per run is enough to act on)."""


@dataclass
class SystemReminders(AbstractCapability[Any]):
    """Re-states targeted guidance during long runs, on a cadence or from a condition, without breaking the prompt
    cache.

    Long multi-turn runs fade instructions: after many tool calls the model drifts from what it was told at the start.
    Each model request, the reminders that are due are joined and sent at the very tail of the request, as a
    `UserPromptPart` behind a `CachePoint(ttl=cache_ttl)`. They reach the model but are never written to the run's
    message history, so nothing piles up across turns and the persisted history the provider caches stays
    byte-identical from one turn to the next: only the small reminder sits outside the cached prefix. The breakpoint
    is placed only when the request already carries content for it to attach to, and a provider-resume turn (a
    suspended response re-sent as it is) gets no reminder and does not count towards any cadence.

    ```python
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    from observable_harness import SystemReminders
    from observable_harness.system_reminders import GoalReanchor, Reminder

    agent = Agent(
        TestModel(),
        capabilities=[
            SystemReminders(
                reminders=[Reminder('Stay focused on the original request.', interval=5)],
                dynamic_reminders=[GoalReanchor(), lambda ctx: 'Wrap up soon.' if ctx.run_step > 20 else None],
                cache_ttl='1h',
            )
        ],
    )
    result = agent.run_sync('Refactor the auth module and add tests.')
    assert 'Stay focused' not in str(result.all_messages())
    ```

    Every injection is reported as a `system_reminders.inject` span (names, count, size, content hash and the
    cache-point decision with its reason, never the text) and in the `system_reminders.*` metrics.

    The tail travels through a model wrapper (`get_wrapper_model`), the one place where a request-only change is
    out of the agent graph's reach, so list SystemReminders before capabilities whose model wrapper answers without
    calling the model it wraps (request batching). Under Temporal, which rebuilds the model and its wrappers inside an
    activity from the agent's own capabilities, the per-run tail is not there and reminders are not delivered. Either
    way the run logs a warning once instead of dropping them silently.
    """

    reminders: Sequence[Reminder] = ()
    """Static reminders, each on its own cadence."""
    dynamic_reminders: Sequence[DynamicReminder] = ()
    """Callables `(ctx) -> str | None`, sync or async, evaluated on every model request: return text to send it as is
    (no tag is added), or `None` to skip. `GoalReanchor()` and `LLMReminder(model)` are ready-made ones."""
    cache_ttl: CacheTTL = '5m'
    """Time-to-live of the cache breakpoint before the reminder: '5m' or '1h'. Use '1h' when turns are further apart
    than five minutes (a human in the loop, slow tools), or the cached prefix expires between them."""
    on_fire: Callable[[str], object] | None = None
    """Called with each rendered reminder as it fires (sync, or async and awaited), e.g. to log or audit them."""

    _run: _RunState | None = field(default=None, init=False, repr=False, compare=False)
    _static_labels: tuple[FiredReminder, ...] = field(default=(), init=False, repr=False, compare=False)
    _dynamic_labels: tuple[FiredReminder, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.reminders, str | Reminder) or not isinstance(self.reminders, Sequence):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError('reminders takes a list of Reminder objects, e.g. reminders=[Reminder(...)].')
        if callable(self.dynamic_reminders) or not isinstance(self.dynamic_reminders, Sequence):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError('dynamic_reminders takes a list of callables, e.g. dynamic_reminders=[GoalReanchor()].')
        # Typed loosely on purpose: these checks exist for callers whose types did not stop them.
        reminders: tuple[Any, ...] = tuple(self.reminders)
        dynamics: tuple[Any, ...] = tuple(self.dynamic_reminders)
        for reminder in reminders:
            if not isinstance(reminder, Reminder):
                hint = (
                    f'wrap the text: Reminder({reminder!r})'
                    if isinstance(reminder, str)
                    else 'callables that compute a reminder go in dynamic_reminders='
                )
                raise TypeError(f'reminders takes Reminder objects, got {type(reminder).__name__}: {hint}.')
        for dynamic in dynamics:
            if not callable(dynamic):
                hint = 'static reminders go in reminders=' if isinstance(dynamic, Reminder) else 'pass a callable'
                raise TypeError(
                    f'dynamic_reminders takes callables (ctx) -> str | None, got {type(dynamic).__name__}: {hint}.'
                )
        self.reminders = reminders
        self.dynamic_reminders = dynamics
        if not self.reminders and not self.dynamic_reminders:
            raise ValueError(
                'SystemReminders needs at least one reminder: pass reminders=[Reminder(...)] '
                'and/or dynamic_reminders=[...] (GoalReanchor() is a zero-cost start).'
            )
        if self.cache_ttl not in _CACHE_TTLS:
            raise ValueError(f"cache_ttl must be '5m' or '1h' (the TTLs providers offer), got {self.cache_ttl!r}.")
        if self.on_fire is not None and not callable(self.on_fire):
            raise TypeError('on_fire must be a callable taking the rendered reminder text.')
        if self.defer_loading:
            raise ValueError(
                'SystemReminders cannot be deferred (defer_loading=True): deferred capabilities get no model wrapper, '
                'which is how reminders reach the request.'
            )
        self._static_labels = tuple(FiredReminder(reminder.label, 'static') for reminder in self.reminders)
        self._dynamic_labels = tuple(_dynamic_label(dynamic) for dynamic in self.dynamic_reminders)

    @classmethod
    def get_serialization_name(cls) -> str | None:
        """`None`: reminders take arbitrary callables, which an agent spec cannot express."""
        return None

    async def for_run(self, ctx: RunContext[Any]) -> SystemReminders:
        run_instance = copy.copy(self)
        run_instance._run = _RunState(fires=[0] * len(self.reminders))
        return run_instance

    async def wrap_model_request(
        self,
        ctx: RunContext[Any],
        *,
        request_context: ModelRequestContext,
        handler: WrapModelRequestHandler,
    ) -> ModelResponse:
        # Once per request step, however many attempts the step makes: the cadence counts requests the model is
        # asked to answer, not transport retries.
        run = self._run
        messages = request_context.messages
        if run is None or not messages or not isinstance(messages[-1], ModelRequest):
            # A provider resume re-sends a suspended response verbatim: nothing may follow it, and it is not a new
            # request, so it takes no cadence slot.
            if run is not None:
                run.carried = None
            return await handler(request_context)
        run.requests += 1
        run.pending = run.carried = pending = await self._due(ctx, run)
        try:
            response = await handler(request_context)
        finally:
            run.pending = None
        if pending is not None and not pending.sent and not run.warned_undelivered:
            run.warned_undelivered = True
            _log.warning(
                'SystemReminders: reminders fired on request %d but no model request carried them. Their tail travels '
                'through a model wrapper: a capability listed before SystemReminders whose model wrapper answers '
                'without calling the model it wraps (request batching, say), or durable execution that rebuilds the '
                'model elsewhere (Temporal), bypasses it. List SystemReminders first. Logged once per run.',
                pending.request,
            )
        return response

    async def after_model_request(
        self, ctx: RunContext[Any], *, request_context: ModelRequestContext, response: ModelResponse
    ) -> ModelResponse:
        # Usage and price once per response (ToolOutputLimits on the same agent records the same response at most
        # once with this), and the input split by whether a reminder rode the request: a reminder that breaks the
        # prompt cache shows as a lower cache-read share on the requests that carried one.
        record_response(response, ctx.run_id)
        run = self._run
        carried = run.carried if run is not None else None
        record_reminded_input(response, reminded=carried is not None and carried.sent > 0)
        return response

    async def after_run(self, ctx: RunContext[Any], *, result: AgentRunResult[Any]) -> AgentRunResult[Any]:
        record_run_end(ctx.run_id, agent_label(ctx))
        return result

    def get_wrapper_model(self, model: Model) -> Model | None:
        run = self._run
        if run is None or run.pending is None:
            return None
        return ReminderTailModel(model, run.pending, self.cache_ttl)

    async def _due(self, ctx: RunContext[Any], run: _RunState) -> PendingTail | None:
        request = run.requests
        fired: list[FiredReminder] = []
        texts: list[str] = []
        fires = run.fires
        for index, reminder in enumerate(self.reminders):
            if not reminder.fires_on(request):
                continue
            if reminder.max_fires is not None and fires[index] >= reminder.max_fires:
                continue
            if reminder.trigger is not None and not await _resolved(reminder.trigger(ctx)):
                continue
            fires[index] += 1
            fired.append(self._static_labels[index])
            texts.append(reminder.text)
        for label, dynamic in zip(self._dynamic_labels, self.dynamic_reminders, strict=True):
            text = await _resolved(dynamic(ctx))
            if text is None:
                continue
            if not isinstance(text, str):  # pyright: ignore[reportUnnecessaryIsInstance]
                raise TypeError(
                    f'Dynamic reminder {label.name!r} returned {type(text).__name__}: return a str, or None to skip.'
                )
            if text.strip():
                fired.append(label)
                texts.append(text)
        if not texts:
            return None
        if self.on_fire is not None:
            for text in texts:
                await _resolved(self.on_fire(text))
        report_fired(fired)
        joined = '\n\n'.join(texts)
        return PendingTail(request, tuple(fired), joined, content_hash(joined))


async def _resolved(value: _T | Awaitable[_T]) -> _T:
    if inspect.isawaitable(value):
        return await value
    return value


def _dynamic_label(dynamic: DynamicReminder) -> FiredReminder:
    kind: ReminderKind
    if isinstance(dynamic, GoalReanchor):
        kind = 'goal_reanchor'
    elif isinstance(dynamic, LLMReminder):
        kind = 'llm'
    else:
        kind = 'dynamic'
    name = getattr(dynamic, '__name__', None)
    if not isinstance(name, str) or name == '<lambda>':
        name = 'lambda' if name == '<lambda>' else type(dynamic).__name__
    return FiredReminder(name, kind)
