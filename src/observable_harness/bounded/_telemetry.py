"""How the bounded-output building blocks report: one span per decision, counters by class and reason.

The building blocks decide; these functions report. Each `*_span` context manager opens the decision's
span (so a store write or a nested reduction nests under it) and yields a `record` function that the
block calls once with its finished, immutable record. Only counts, sizes, hashes, handles and
low-cardinality names reach a span or a label: never a line, a path, a command or a secret.
Recording never raises into a run: a failure is logged once and the run goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from contextlib import contextmanager
from typing import Any

from opentelemetry.trace import Span
from opentelemetry.util.types import AttributeValue

from .._text.condense import CondenseReport
from .._text.lines import LineClass
from ..telemetry import current, guarded, names
from ._records import OffloadRecord, RetentionRecord

__all__ = ['condense_details', 'condense_span', 'offload_span', 'retain_span']


def _safely(what: str, action: Callable[[], None]) -> None:
    with guarded(what):
        action()


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


def _record_condense(current_span: Span, tool: str, report: CondenseReport) -> None:
    attributes = condense_details(report)
    removed = report.lines_in - sum(report.kept.values())
    label = f' {tool}' if tool else ''
    attributes[names.LOGFIRE_MSG] = (
        f'condense{label} ({report.level}): {report.lines_in:,} → {report.lines_out:,} lines, '
        f'{report.chars_in:,} → {report.chars_out:,} chars, {removed:,} lines removed'
    )
    current_span.set_attributes(attributes)
    lines = current().counter(names.BOUNDED_LINES)
    for fate, counts in (
        ('kept', report.kept),
        ('collapsed', report.collapsed),
        ('dropped', report.dropped),
        ('cut', report.cut),
    ):
        for line_class, count in counts.items():
            if count:
                lines.add(count, report.level, line_class.value, fate)


@contextmanager
def condense_span(tool: str) -> Generator[Callable[[CondenseReport], None]]:
    """Span `bounded.condense` around one condensing; call the yielded function with its report."""
    attributes: dict[str, AttributeValue] = {names.GEN_AI_TOOL_NAME: tool} if tool else {}
    with current().span(names.SPAN_CONDENSE, attributes) as current_span:
        yield lambda report: _safely('condense', lambda: _record_condense(current_span, tool, report))


# --- retention -------------------------------------------------------------------------------


def _record_retention(current_span: Span, tool: str, record: RetentionRecord) -> None:
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
        current().counter(names.BOUNDED_RETENTION_WRITES).add(1, record.policy, record.reason)
    else:
        attributes[names.LOGFIRE_MSG] = f'retain{label}: not kept ({record.policy}: {record.reason})'
    if record.content_hash:
        attributes[names.TOOL_OUTPUT_CONTENT_HASH] = record.content_hash
    current_span.set_attributes(attributes)


@contextmanager
def retain_span(tool: str) -> Generator[Callable[[RetentionRecord], None]]:
    """Span `bounded.retain` around one retention decision (and its store write)."""
    attributes: dict[str, AttributeValue] = {names.GEN_AI_TOOL_NAME: tool} if tool else {}
    with current().span(names.SPAN_RETAIN, attributes) as current_span:
        yield lambda record: _safely('retention', lambda: _record_retention(current_span, tool, record))


# --- offload ---------------------------------------------------------------------------------


def _record_offload(current_span: Span, tool: str, record: OffloadRecord) -> None:
    label = f' {tool}' if tool else ''
    current_span.set_attributes(
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
    with current().span(names.SPAN_OFFLOAD, attributes) as current_span:
        yield lambda record: _safely('offload', lambda: _record_offload(current_span, tool, record))
