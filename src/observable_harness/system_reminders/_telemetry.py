"""How `SystemReminders` reports: the `system_reminders.*` spans and metrics.

The capability hands over immutable records (`system_reminders.records`); this module turns them into telemetry and
nothing else. Reminder text never gets here: only names, kinds, sizes, a content hash, cache-point decisions and
exception type names. Reporting never raises into a run: a broken SDK costs a log line, not the request.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager

from opentelemetry.trace import Span

from ..telemetry import current, guarded, names
from ._records import FiredReminder, Generation, Injection

__all__ = ['generation_span', 'report_fired', 'report_injection']


def report_fired(fired: Sequence[FiredReminder]) -> None:
    """Count the reminders that fired on one request step (once per step, however many attempts send it)."""
    with guarded('fired reminders'):
        counter = current().counter(names.REMINDERS_FIRED)
        for reminder in fired:
            counter.add(1, reminder.name, reminder.kind)


def report_injection(injection: Injection) -> None:
    """Record one outgoing request that carried reminders: a `system_reminders.inject` span, the cache-point count."""
    with guarded('a reminder injection'):
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
        instrumentation = current()
        instrumentation.emit(names.SPAN_REMINDERS_INJECT, attributes)
        instrumentation.counter(names.REMINDERS_CACHE_POINTS).add(
            1, injection.cache_point, injection.cache_point_reason
        )


@contextmanager
def generation_span(model: str) -> Generator[Callable[[Generation], None]]:
    """Open a `system_reminders.generate` span around an `LLMReminder` request; call the yielded function to finish it.

    The span is current while the body runs, so the nested model request's own spans nest under it. Exceptions from
    the body propagate unchanged; only failures of telemetry itself are swallowed.
    """
    with current().span(names.SPAN_REMINDERS_GENERATE, {names.GEN_AI_REQUEST_MODEL: model}) as current_span:

        def finish(generation: Generation) -> None:
            _finish_generation(current_span, generation)

        yield finish


def _finish_generation(current_span: Span, generation: Generation) -> None:
    with guarded('a reminder generation'):
        if generation.fallback:
            summary = (
                f'generate reminder with {generation.model}: fell back to GoalReanchor ({generation.fallback_reason})'
            )
        else:
            summary = (
                f'generate reminder with {generation.model}: '
                f'{generation.input_tokens:,} input / {generation.output_tokens:,} output tokens'
            )
        current_span.set_attributes(
            {
                names.GEN_AI_USAGE_INPUT_TOKENS: generation.input_tokens,
                names.GEN_AI_USAGE_OUTPUT_TOKENS: generation.output_tokens,
                names.SYSTEM_REMINDERS_FALLBACK: generation.fallback,
                names.LOGFIRE_MSG: summary,
            }
        )
        if generation.fallback_reason is not None:
            current_span.set_attribute(names.SYSTEM_REMINDERS_FALLBACK_REASON, generation.fallback_reason)
        instrumentation = current()
        instrumentation.counter(names.REMINDERS_GENERATIONS).add(1, generation.model, generation.fallback)
        tokens = instrumentation.counter(names.REMINDERS_GENERATE_TOKENS)
        if generation.input_tokens:
            tokens.add(generation.input_tokens, generation.model, 'input')
        if generation.output_tokens:
            tokens.add(generation.output_tokens, generation.model, 'output')
        if generation.fallback:
            instrumentation.counter(names.REMINDERS_GENERATE_FALLBACKS).add(1, generation.fallback_reason or 'unknown')
