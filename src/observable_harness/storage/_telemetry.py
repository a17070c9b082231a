"""How the overflow stores report: the `tool_output.prune` span, the pruning and the redaction counters.

A prune runs on its daemon thread with no span current, so its span is a root span. Records carry a
store class name, counts, sizes and exception type names; nothing here raises into a run.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from opentelemetry import trace

from ..telemetry import current, guarded, names
from ._records import PruneRecord

__all__ = ['record_prune', 'report_redactions']


def record_prune(record: PruneRecord, start_ns: int) -> None:
    """Emit the `tool_output.prune` span (from `start_ns` to now) and the pruning counters."""
    instrumentation = current()
    instrumentation.emit(
        names.SPAN_PRUNE,
        {
            names.TOOL_OUTPUT_STORE: record.store,
            names.TOOL_OUTPUT_PRUNE_FILES: record.files,
            names.TOOL_OUTPUT_PRUNE_BYTES: record.bytes,
            names.TOOL_OUTPUT_PRUNE_ERRORS: record.errors,
            names.LOGFIRE_MSG: (
                f'prune {record.store}: {record.files:,} files, {record.bytes:,} B freed, {record.errors:,} errors'
            ),
        },
        start_ns=start_ns,
        end_ns=time.time_ns(),
    )
    with guarded('a prune'):
        instrumentation.counter(names.PRUNED_FILES).add(record.files, record.store)
        instrumentation.counter(names.PRUNED_BYTES).add(record.bytes, record.store)
        failures = instrumentation.counter(names.PRUNE_FAILURES)
        for reason, count in record.failures.items():
            failures.add(count, record.store, reason)


def report_redactions(counts: Mapping[str, int]) -> None:
    """Count scrubbed secrets by kind; the span of the write that triggered the scrub carries the total."""
    with guarded('redactions'):
        redactions = current().counter(names.BOUNDED_REDACTIONS_TOTAL)
        total = 0
        for kind, count in counts.items():
            if count:
                redactions.add(count, kind)
                total += count
        if total:
            trace.get_current_span().set_attribute(names.BOUNDED_REDACTIONS, total)
