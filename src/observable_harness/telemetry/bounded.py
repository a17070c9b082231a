"""Reporting for the bounded-output building blocks: one span per decision, counters by class and reason.

The building blocks decide; these functions report. Each `*_span` context manager opens the decision's
span (so a store write or a nested reduction nests under it) and yields a `record` function that the
block calls once with its finished, immutable record. Only counts, sizes, hashes, handles and
low-cardinality names reach a span or a label: never a line, a path, a command or a secret.
Recording never raises into a run: a failure is logged once and the run goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from opentelemetry.trace import Span
from opentelemetry.util.types import AttributeValue

from . import names
from .instruments import Counter, span

if TYPE_CHECKING:
    from ..bounded.condense import CondenseReport
    from ..bounded.guard import GuardDecision
    from ..bounded.lines import LineClass
    from ..bounded.offload import OffloadRecord
    from ..bounded.retention import RetentionRecord

__all__ = [
    'condense_details',
    'condense_span',
    'guard_span',
    'offload_span',
    'record_redactions',
    'retain_span',
]

_log = logging.getLogger('observable_harness.telemetry')

_LINES = Counter(names.BOUNDED_LINES)
_GUARD_REFUSALS = Counter(names.BOUNDED_GUARD_REFUSALS)
_REDACTIONS = Counter(names.BOUNDED_REDACTIONS_TOTAL)
_RETENTION_WRITES = Counter(names.BOUNDED_RETENTION_WRITES)


def _safely(what: str, action: Callable[[], None]) -> None:
    try:
        action()
    except Exception:  # telemetry must never fail the run it observes
        _log.exception('observable_harness: could not record %s', what)


def _per_class(counts: Mapping[LineClass, int]) -> str:
    return ','.join(f'{line_class.value}={count}' for line_class, count in counts.items() if count)


# --- condense --------------------------------------------------------------------------------


def condense_details(report: CondenseReport) -> dict[str, AttributeValue]:
    """Span attributes of a condensing (also handed to `tool_output.reduce` as the action's details)."""
    return {
        names.BOUNDED_LEVEL: report.level,
        names.BOUNDED_KEEP: report.keep,
        names.BOUNDED_LINES_IN: report.lines_in,
        names.BOUNDED_LINES_OUT: report.lines_out,
        names.BOUNDED_CHARS_IN: report.chars_in,
        names.BOUNDED_CHARS_OUT: report.chars_out,
        names.BOUNDED_KEPT: _per_class(report.kept),
        names.BOUNDED_COLLAPSED: _per_class(report.collapsed),
        names.BOUNDED_DROPPED: _per_class(report.dropped),
        names.BOUNDED_CUT: _per_class(report.cut),
        names.BOUNDED_POSITIONAL_CUT: report.positional_cut,
        names.BOUNDED_SHORTENED: report.shortened,
    }


def _record_condense(current: Span, tool: str, report: CondenseReport) -> None:
    attributes = condense_details(report)
    removed = report.lines_in - sum(report.kept.values())
    label = f' {tool}' if tool else ''
    attributes[names.LOGFIRE_MSG] = (
        f'condense{label} ({report.level}): {report.lines_in:,} → {report.lines_out:,} lines, '
        f'{report.chars_in:,} → {report.chars_out:,} chars, {removed:,} lines removed'
    )
    current.set_attributes(attributes)
    for fate, counts in (
        ('kept', report.kept),
        ('collapsed', report.collapsed),
        ('dropped', report.dropped),
        ('cut', report.cut),
    ):
        for line_class, count in counts.items():
            if count:
                _LINES.add(count, report.level, line_class.value, fate)


@contextmanager
def condense_span(tool: str) -> Generator[Callable[[CondenseReport], None]]:
    """Span `bounded.condense` around one condensing; call the yielded function with its report."""
    attributes: dict[str, AttributeValue] = {names.GEN_AI_TOOL_NAME: tool} if tool else {}
    with span(names.SPAN_CONDENSE, attributes) as current:
        yield lambda report: _safely('condense', lambda: _record_condense(current, tool, report))


# --- read guard ------------------------------------------------------------------------------


def _record_guard(current: Span, tool: str, decision: GuardDecision) -> None:
    attributes: dict[str, AttributeValue] = {
        names.BOUNDED_GUARD_DECISION: 'refuse' if decision.refused else 'allow',
        names.BOUNDED_GUARD_REASON: decision.reason,
        names.LOGFIRE_MSG: f'guard {tool}: {"refused" if decision.refused else "allowed"} ({decision.reason})',
    }
    if decision.lines is not None:
        attributes[names.BOUNDED_GUARD_LINES] = decision.lines
        attributes[names.LOGFIRE_MSG] = f'{attributes[names.LOGFIRE_MSG]}, {decision.lines:,} lines'
    current.set_attributes(attributes)
    if decision.refused:
        _GUARD_REFUSALS.add(1, tool, decision.reason)


@contextmanager
def guard_span(tool: str, tool_call_id: str) -> Generator[Callable[[GuardDecision], None]]:
    """Span `bounded.guard` around one guard decision; call the yielded function with the decision."""
    attributes: dict[str, AttributeValue] = {names.GEN_AI_TOOL_NAME: tool, names.GEN_AI_TOOL_CALL_ID: tool_call_id}
    with span(names.SPAN_GUARD, attributes) as current:
        yield lambda decision: _safely('guard', lambda: _record_guard(current, tool, decision))


# --- secrets ---------------------------------------------------------------------------------


def record_redactions(counts: Mapping[str, int]) -> None:
    """Count scrubbed secrets by kind; the span of the write that triggered the scrub carries the total."""

    def record() -> None:
        total = 0
        for kind, count in counts.items():
            if count:
                _REDACTIONS.add(count, kind)
                total += count
        if total:
            from opentelemetry import trace

            trace.get_current_span().set_attribute(names.BOUNDED_REDACTIONS, total)

    _safely('redactions', record)


# --- retention -------------------------------------------------------------------------------


def _record_retention(current: Span, tool: str, record: RetentionRecord) -> None:
    attributes: dict[str, AttributeValue] = {
        names.BOUNDED_RETENTION_POLICY: record.policy,
        names.BOUNDED_RETENTION_KEPT: record.handle is not None,
        names.BOUNDED_RETENTION_REASON: record.reason,
        names.TOOL_OUTPUT_ORIGINAL_BYTES: record.original_bytes,
    }
    label = f' {tool}' if tool else ''
    if record.handle is not None:
        attributes[names.TOOL_OUTPUT_HANDLE] = record.handle
        attributes[names.LOGFIRE_MSG] = (
            f'retain{label}: kept {record.original_bytes:,} B as {record.handle!r} ({record.policy}: {record.reason})'
        )
        _RETENTION_WRITES.add(1, record.policy, record.reason)
    else:
        attributes[names.LOGFIRE_MSG] = f'retain{label}: not kept ({record.policy}: {record.reason})'
    if record.content_hash:
        attributes[names.TOOL_OUTPUT_CONTENT_HASH] = record.content_hash
    current.set_attributes(attributes)


@contextmanager
def retain_span(tool: str) -> Generator[Callable[[RetentionRecord], None]]:
    """Span `bounded.retain` around one retention decision (and its store write)."""
    attributes: dict[str, AttributeValue] = {names.GEN_AI_TOOL_NAME: tool} if tool else {}
    with span(names.SPAN_RETAIN, attributes) as current:
        yield lambda record: _safely('retention', lambda: _record_retention(current, tool, record))


# --- offload ---------------------------------------------------------------------------------


def _record_offload(current: Span, tool: str, record: OffloadRecord) -> None:
    label = f' {tool}' if tool else ''
    current.set_attributes(
        {
            names.TOOL_OUTPUT_HANDLE: record.handle,
            names.TOOL_OUTPUT_CONTENT_HASH: record.content_hash,
            names.TOOL_OUTPUT_ORIGINAL_BYTES: record.original_bytes,
            names.TOOL_OUTPUT_OUTPUT_CHARS: record.output_chars,
            names.BOUNDED_SUMMARY_WORDS: record.summary_words,
            names.BOUNDED_OFFLOAD_KIND: record.kind,
            names.BOUNDED_OFFLOAD_SUMMARIZER: record.summarizer,
            names.LOGFIRE_MSG: (
                f'offload{label}: {record.original_bytes:,} B → handle {record.handle!r}, '
                f'{record.summary_words} word {record.kind} summary'
            ),
        }
    )


@contextmanager
def offload_span(tool: str) -> Generator[Callable[[OffloadRecord], None]]:
    """Span `bounded.offload` around one offload (its scrub and store write nest under it)."""
    attributes: dict[str, Any] = {names.GEN_AI_TOOL_NAME: tool} if tool else {}
    with span(names.SPAN_OFFLOAD, attributes) as current:
        yield lambda record: _safely('offload', lambda: _record_offload(current, tool, record))
