"""Reporting for `SystemReminders`: the `system_reminders.*` spans and metrics.

The capability hands over immutable records (`system_reminders.records`); this module turns them into telemetry and
nothing else. Reminder text never gets here: only names, kinds, sizes, a content hash, cache-point decisions and
exception type names. Reporting never raises into a run: a broken SDK costs a log line, not the request.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator, Sequence
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING

from opentelemetry.trace import Span

from . import names
from .instruments import Counter, get_tracer, span

if TYPE_CHECKING:
    # Type-only: the records are read by attribute, and importing the capability package here would make the import
    # order between it and this module matter.
    from ..system_reminders.records import FiredReminder, Generation, Injection

__all__ = ['generation_span', 'report_fired', 'report_injection']

_log = logging.getLogger('observable_harness.telemetry')

_FIRED = Counter(names.REMINDERS_FIRED)
_CACHE_POINTS = Counter(names.REMINDERS_CACHE_POINTS)
_GENERATE_TOKENS = Counter(names.REMINDERS_GENERATE_TOKENS)
_GENERATE_FALLBACKS = Counter(names.REMINDERS_GENERATE_FALLBACKS)
_GENERATIONS = Counter(names.REMINDERS_GENERATIONS)


def report_fired(fired: Sequence[FiredReminder]) -> None:
    """Count the reminders that fired on one request step (once per step, however many attempts send it)."""
    try:
        for reminder in fired:
            _FIRED.add(1, reminder.name, reminder.kind)
    except Exception:  # the recorders only touch a dict; a broken SDK must not fail the run
        _log.exception('observable_harness: could not count fired reminders')


def report_injection(injection: Injection) -> None:
    """Record one outgoing request that carried reminders: a `system_reminders.inject` span, the cache-point count."""
    try:
        reminder_names = tuple(reminder.name for reminder in injection.fired)
        if injection.cache_point:
            breakpoint_summary = 'cache point attached'
        else:
            breakpoint_summary = f'no cache point ({injection.cache_point_reason})'
        count = len(reminder_names)
        summary = (
            f'inject {count} reminder{"" if count == 1 else "s"} on request {injection.request}: '
            f'{", ".join(reminder_names)}, {injection.chars:,} chars, {breakpoint_summary}'
        )
        attributes = {
            names.SYSTEM_REMINDERS_REQUEST: injection.request,
            names.SYSTEM_REMINDERS_COUNT: count,
            names.SYSTEM_REMINDERS_NAMES: reminder_names,
            names.SYSTEM_REMINDERS_CHARS: injection.chars,
            names.SYSTEM_REMINDERS_CONTENT_HASH: injection.content_hash,
            names.SYSTEM_REMINDERS_CACHE_POINT: injection.cache_point,
            names.SYSTEM_REMINDERS_CACHE_POINT_REASON: injection.cache_point_reason,
            names.LOGFIRE_MSG: summary,
        }
        # Not made current: nothing nests under it, and attaching a context per request is pure overhead.
        get_tracer().start_span(names.SPAN_REMINDERS_INJECT, attributes=attributes).end()
        _CACHE_POINTS.add(1, injection.cache_point, injection.cache_point_reason)
    except Exception:  # a broken SDK must not fail the request
        _log.exception('observable_harness: could not report a reminder injection')


@contextmanager
def generation_span(model: str) -> Generator[Callable[[Generation], None]]:
    """Open a `system_reminders.generate` span around an `LLMReminder` request; call the yielded function to finish it.

    The span is current while the body runs, so the nested model request's own spans nest under it. Exceptions from
    the body propagate unchanged; only failures of telemetry itself are swallowed.
    """
    with ExitStack() as stack:
        current: Span | None = None
        try:
            current = stack.enter_context(span(names.SPAN_REMINDERS_GENERATE, {names.GEN_AI_REQUEST_MODEL: model}))
        except Exception:  # a broken SDK must not stop the generation
            _log.exception('observable_harness: could not open a reminder generation span')

        def finish(generation: Generation) -> None:
            _finish_generation(current, generation)

        yield finish


def _finish_generation(current: Span | None, generation: Generation) -> None:
    try:
        if generation.fallback:
            summary = (
                f'generate reminder with {generation.model}: fell back to GoalReanchor ({generation.fallback_reason})'
            )
        else:
            summary = (
                f'generate reminder with {generation.model}: '
                f'{generation.input_tokens:,} input / {generation.output_tokens:,} output tokens'
            )
        if current is not None:
            current.set_attributes(
                {
                    names.GEN_AI_USAGE_INPUT_TOKENS: generation.input_tokens,
                    names.GEN_AI_USAGE_OUTPUT_TOKENS: generation.output_tokens,
                    names.SYSTEM_REMINDERS_FALLBACK: generation.fallback,
                    names.LOGFIRE_MSG: summary,
                }
            )
            if generation.fallback_reason is not None:
                current.set_attribute(names.SYSTEM_REMINDERS_FALLBACK_REASON, generation.fallback_reason)
        _GENERATIONS.add(1, generation.model, generation.fallback)
        if generation.input_tokens:
            _GENERATE_TOKENS.add(generation.input_tokens, generation.model, 'input')
        if generation.output_tokens:
            _GENERATE_TOKENS.add(generation.output_tokens, generation.model, 'output')
        if generation.fallback:
            _GENERATE_FALLBACKS.add(1, generation.fallback_reason or 'unknown')
    except Exception:  # a broken SDK must not fail the run
        _log.exception('observable_harness: could not report a reminder generation')
