"""Telemetry for the overflow store: `tool_output.read` (read-back) and `tool_output.prune` (age pruning).

`read_back` and `store` decide what happened and hand over one immutable record with the time the
work started; this module turns it into a span (timed from that start, parented on whatever span is
current: pydantic-ai's `execute_tool ...` for a read, none for a prune on its daemon thread, which
makes that a root span) and bumps the counters.

Nothing here may change behaviour or raise into a run: every OpenTelemetry call is guarded and a
failure is logged and dropped. Records carry handles, counts, sizes and exception type names; callers
never hand over payload text or a read-back pattern (only its length).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from opentelemetry.util.types import AttributeValue

from .._hashing import content_hash
from . import names
from .instruments import Counter, get_tracer

__all__ = [
    'PruneRecord',
    'ReadOutcome',
    'ReadRecord',
    'handle_attribute',
    'record_prune',
    'record_read',
]

ReadOutcome = Literal['hit', 'miss', 'denied', 'invalid']
"""`hit`: payload served; `miss`: no such payload (or the store could not produce it); `denied`: the
store refused (escape from its root, a link, an unsafe root); `invalid`: the call was malformed."""

_log = logging.getLogger('observable_harness.telemetry')

_READS = Counter(names.READS)
_PRUNED_FILES = Counter(names.PRUNED_FILES)
_PRUNED_BYTES = Counter(names.PRUNED_BYTES)
_PRUNE_FAILURES = Counter(names.PRUNE_FAILURES)

_HANDLE_ATTRIBUTE_MAX = 256
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_PRINTABLE_HANDLE = re.compile(r'[A-Za-z0-9._~/-]+')


def handle_attribute(handle: str, *, found: bool) -> str:
    """The value to record under `tool_output.handle` for a handle a model sent.

    A handle the store found is a real pointer and is recorded as is (if it is short and of a safe
    charset, as every handle this library makes is). Anything else (a forgery, a typo, text pasted
    from a payload) is model-supplied text, so only its hash is recorded: `content_hash(handle)` of
    a suspected handle finds it.
    """
    if found and len(handle) <= _HANDLE_ATTRIBUTE_MAX and _PRINTABLE_HANDLE.fullmatch(handle):
        return handle
    return content_hash(handle)


@dataclass(frozen=True, slots=True)
class ReadRecord:
    """What one `read_tool_result` call did."""

    handle: str
    """Already passed through `handle_attribute`."""
    offset: int
    limit: int
    """The effective limit, after clamping."""
    from_end: bool
    pattern_chars: int
    """Length of the literal pattern (0 without one): how a model greps, never what it greps for."""
    lines: int
    """Rows returned to the model."""
    outcome: ReadOutcome


@dataclass(frozen=True, slots=True)
class PruneRecord:
    """What one prune pass over a store did: returned by `LocalFileStore.prune_now()` and recorded."""

    store: str
    """Store class name, a low-cardinality label."""
    files: int = 0
    """Files deleted."""
    bytes: int = 0
    """Bytes those files held."""
    failures: Mapping[str, int] = field(default_factory=dict[str, int])
    """Exception type name -> how many entries could not be listed or deleted because of it."""

    @property
    def errors(self) -> int:
        return sum(self.failures.values())


def record_read(record: ReadRecord, start_ns: int) -> None:
    """Emit the `tool_output.read` span (from `start_ns` to now) and count the outcome."""
    _emit(
        names.SPAN_READ,
        start_ns,
        {
            names.TOOL_OUTPUT_HANDLE: record.handle,
            # The offset is whatever integer the model sent; OTLP carries int64, and an exporter drops
            # (with an error log per span) a value outside it.
            names.TOOL_OUTPUT_READ_OFFSET: min(max(record.offset, _INT64_MIN), _INT64_MAX),
            names.TOOL_OUTPUT_READ_LIMIT: record.limit,
            names.TOOL_OUTPUT_READ_FROM_END: record.from_end,
            names.TOOL_OUTPUT_READ_LINES: record.lines,
            names.TOOL_OUTPUT_READ_OUTCOME: record.outcome,
            names.TOOL_OUTPUT_READ_PATTERN_CHARS: record.pattern_chars,
            names.LOGFIRE_MSG: _read_message(record),
        },
    )
    try:
        _READS.add(1, record.outcome)
    except Exception:  # pragma: no cover - an in-process dict update; guarded all the same
        _log.exception('observable_harness: could not count a read')


def _read_message(record: ReadRecord) -> str:
    where = f'{"from the end, " if record.from_end else ""}offset {record.offset:,}'
    grep = f', literal pattern of {record.pattern_chars} chars' if record.pattern_chars else ''
    return f'read {record.handle!r}: {record.outcome}, {record.lines:,} rows at {where}{grep}'


def record_prune(record: PruneRecord, start_ns: int) -> None:
    """Emit the `tool_output.prune` span (from `start_ns` to now) and the pruning counters."""
    _emit(
        names.SPAN_PRUNE,
        start_ns,
        {
            names.TOOL_OUTPUT_STORE: record.store,
            names.TOOL_OUTPUT_PRUNE_FILES: record.files,
            names.TOOL_OUTPUT_PRUNE_BYTES: record.bytes,
            names.TOOL_OUTPUT_PRUNE_ERRORS: record.errors,
            names.LOGFIRE_MSG: (
                f'prune {record.store}: {record.files:,} files, {record.bytes:,} B freed, {record.errors:,} errors'
            ),
        },
    )
    try:
        _PRUNED_FILES.add(record.files, record.store)
        _PRUNED_BYTES.add(record.bytes, record.store)
        for reason, count in record.failures.items():
            _PRUNE_FAILURES.add(count, record.store, reason)
    except Exception:  # pragma: no cover - an in-process dict update; guarded all the same
        _log.exception('observable_harness: could not count a prune')


def _emit(name: str, start_ns: int, attributes: dict[str, AttributeValue]) -> None:
    try:
        current = get_tracer().start_span(name, attributes=attributes, start_time=start_ns)
        current.end(end_time=max(start_ns, time.time_ns()))
    except Exception:  # pragma: no cover - the API does not raise; a broken SDK must not stop a run
        _log.exception('observable_harness: could not record span %s', name)
