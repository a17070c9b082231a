"""How `ToolOutputLimits` reports: `tool_output.*` spans and metrics from its decision and read records.

The capability decides; this module reports. It receives records (names, sizes, counts, handles,
hashes) and never sees a payload or a read-back pattern, so it cannot leak one. Nothing here raises
into a run: every call is `guarded`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Generator, Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from opentelemetry.trace import Span
from opentelemetry.util.types import AttributeValue

from .._text.hashing import content_hash
from ..telemetry import current, guarded, names
from ..telemetry.names import SizeUnit

if TYPE_CHECKING:
    from .._text.preview import Preview

from ._decision import Decision

__all__ = [
    'ReadOutcome',
    'ReadRecord',
    'ReduceSpan',
    'handle_attribute',
    'preview_attributes',
    'record_read',
    'reduce_span',
    'report_bands',
    'report_passthrough',
    'report_read_back',
    'report_resend_avoided',
    'report_spill_failure',
    'report_spill_write',
    'summarize_span',
]

ReadOutcome = Literal['hit', 'miss', 'denied', 'invalid']
"""`hit`: payload served; `miss`: no such payload (or the store could not produce it); `denied`: the
store refused (escape from its root, a link, an unsafe root); `invalid`: the call was malformed."""

_HANDLE_ATTRIBUTE_MAX = 256
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_PRINTABLE_HANDLE = re.compile(r'[A-Za-z0-9._~/-]+')


def report_passthrough(tool: str, size: int, size_unit: SizeUnit) -> None:
    """A unit below every band (or matched by `Passthrough`): metrics only, no span."""
    instrumentation = current()
    instrumentation.counter(names.DECISIONS).add(1, tool, 'passthrough', 'unchanged', False)
    instrumentation.histogram(names.SIZE_BY_UNIT[size_unit]).record(size, tool)


def _message(decision: Decision) -> str:
    size = f'{decision.size:,} {decision.size_unit}'
    if decision.handle is not None:
        result = f"handle '{decision.handle}'"
    elif decision.outcome == 'unchanged':
        result = 'left unchanged'
    else:
        result = f'{decision.output_chars:,} chars'
    message = f'{decision.fallback_chain} {decision.tool}: {size} → {result}, saved {decision.bytes_saved:,} B'
    if decision.fallback_reason:
        message += f' (fallback: {decision.fallback_reason})'
    return message


class ReduceSpan:
    """The `tool_output.reduce` span of one unit, opened before the action runs so that summarize
    and store spans nest under it, and finished with the decision once the chain settled."""

    __slots__ = ('_span', '_started')

    def __init__(self, current_span: Span) -> None:
        self._span = current_span
        self._started = time.perf_counter()

    def finish(self, decision: Decision) -> None:
        duration = time.perf_counter() - self._started
        with guarded('a tool-output decision'):
            attributes: dict[str, AttributeValue] = {
                names.LOGFIRE_MSG: _message(decision),
                names.GEN_AI_TOOL_NAME: decision.tool,
                names.GEN_AI_TOOL_CALL_ID: decision.tool_call_id,
                names.TOOL_OUTPUT_UNIT: decision.part,
                names.TOOL_OUTPUT_SIZE: decision.size,
                names.TOOL_OUTPUT_SIZE_UNIT: decision.size_unit,
                names.TOOL_OUTPUT_ORIGINAL_BYTES: decision.original_bytes,
                names.TOOL_OUTPUT_BAND_OVER: decision.band_over,
                names.TOOL_OUTPUT_ACTION: decision.action,
                names.TOOL_OUTPUT_OUTCOME: decision.outcome,
                names.TOOL_OUTPUT_FALLBACK: decision.fallback,
                names.TOOL_OUTPUT_FALLBACK_CHAIN: decision.fallback_chain,
                names.TOOL_OUTPUT_CONTENT_HASH: decision.content_hash,
                names.TOOL_OUTPUT_OUTPUT_CHARS: decision.output_chars,
                names.TOOL_OUTPUT_BYTES_SAVED: decision.bytes_saved,
            }
            if decision.fallback_reason is not None:
                attributes[names.TOOL_OUTPUT_FALLBACK_REASON] = decision.fallback_reason
            if decision.handle is not None:
                attributes[names.TOOL_OUTPUT_HANDLE] = decision.handle
            self._span.set_attributes({**decision.details, **attributes})

            instrumentation = current()
            tool = decision.tool
            instrumentation.counter(names.DECISIONS).add(1, tool, decision.action, decision.outcome, decision.fallback)
            instrumentation.histogram(names.SIZE_BY_UNIT[decision.size_unit]).record(decision.size, tool)
            if decision.bytes_saved > 0:
                instrumentation.counter(names.BYTES_SAVED).add(decision.bytes_saved, tool, decision.outcome)
                instrumentation.counter(names.TOKENS_SAVED).add(decision.tokens_saved, tool, decision.outcome)
            fallbacks = instrumentation.counter(names.FALLBACKS)
            for hop in decision.hops:
                fallbacks.add(1, tool, hop.from_action, hop.to_action, hop.reason)
            instrumentation.histogram(names.REDUCE_DURATION).record(duration, tool, decision.action)
            shape = decision.details.get(names.TOOL_OUTPUT_PREVIEW_SHAPE)
            if isinstance(shape, str):
                terms = decision.details.get(names.TOOL_OUTPUT_PREVIEW_INTENT_TERMS, 0)
                lines = decision.details.get(names.TOOL_OUTPUT_PREVIEW_INTENT_LINES, 0)
                intent = 'matched' if lines else 'unmatched' if terms else 'none'
                instrumentation.counter(names.PREVIEWS).add(1, tool, shape, intent)


@contextmanager
def reduce_span() -> Generator[ReduceSpan]:
    with current().span(names.SPAN_REDUCE) as current_span:
        yield ReduceSpan(current_span)


def preview_attributes(preview: Preview) -> dict[str, AttributeValue]:
    """Span attributes of a chosen preview: its shape and counts, never its terms or its lines."""
    return {
        names.TOOL_OUTPUT_PREVIEW_SHAPE: preview.shape,
        names.TOOL_OUTPUT_PREVIEW_INTENT_TERMS: preview.intent_terms,
        names.TOOL_OUTPUT_PREVIEW_INTENT_LINES: preview.intent_lines,
        names.TOOL_OUTPUT_PREVIEW_OFFER_LINES: preview.offer.lines if preview.offer is not None else 0,
    }


def report_read_back(tool: str, shape: str) -> None:
    """The first successful read of a spilled payload: its stand-in did not answer the task on its own."""
    with guarded('a read-back'):
        current().counter(names.READ_BACKS).add(1, tool, shape)


def report_spill_write(tool: str, store: str, nbytes: int) -> None:
    current().counter(names.SPILL_BYTES).add(nbytes, tool, store)


def report_spill_failure(store: str, reason: str) -> None:
    current().counter(names.SPILL_FAILURES).add(1, reason, store)


class SummarizeSpan:
    """The `tool_output.summarize` span: which model, and the tokens it cost."""

    __slots__ = ('_model', '_span')

    def __init__(self, current_span: Span, model: str) -> None:
        self._span = current_span
        self._model = model

    def usage(self, input_tokens: int, output_tokens: int) -> None:
        with guarded('a summary'):
            self._span.set_attributes(
                {
                    names.GEN_AI_USAGE_INPUT_TOKENS: input_tokens,
                    names.GEN_AI_USAGE_OUTPUT_TOKENS: output_tokens,
                    names.LOGFIRE_MSG: f'summarize with {self._model}: {input_tokens:,} in, {output_tokens:,} out',
                }
            )
            tokens = current().counter(names.SUMMARIZE_TOKENS)
            tokens.add(input_tokens, self._model, 'input')
            tokens.add(output_tokens, self._model, 'output')


@contextmanager
def summarize_span(model: str) -> Generator[SummarizeSpan]:
    attributes = {names.GEN_AI_REQUEST_MODEL: model, names.LOGFIRE_MSG: f'summarize with {model}'}
    with current().span(names.SPAN_SUMMARIZE, attributes) as current_span:
        yield SummarizeSpan(current_span, model)


def report_resend_avoided(saved_by_tool: Iterable[tuple[str, int]]) -> None:
    """At a model request: tokens that reductions earlier in the run kept out of it, per tool."""
    avoided = current().counter(names.RESEND_TOKENS_AVOIDED)
    for tool, tokens in saved_by_tool:
        if tokens > 0:
            avoided.add(tokens, tool)


def report_bands(tool: str, thresholds: Iterable[tuple[int, str]], size_unit: SizeUnit, *, agent: str) -> None:
    """Expose one agent's configured thresholds (`over`, action name) for a tool, for dashboards to draw over sizes."""
    gauge = current().gauge(names.BAND_THRESHOLD_BY_UNIT[size_unit])
    for over, action in thresholds:
        gauge.set(over, tool, action, agent)


# --- read-back -----------------------------------------------------------------------------------


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


def record_read(record: ReadRecord, start_ns: int) -> None:
    """Emit the `tool_output.read` span (from `start_ns` to now) and count the outcome."""
    where = f'{"from the end, " if record.from_end else ""}offset {record.offset:,}'
    grep = f', literal pattern of {record.pattern_chars} chars' if record.pattern_chars else ''
    instrumentation = current()
    instrumentation.emit(
        names.SPAN_READ,
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
            names.LOGFIRE_MSG: f'read {record.handle!r}: {record.outcome}, {record.lines:,} rows at {where}{grep}',
        },
        start_ns=start_ns,
        end_ns=time.time_ns(),
    )
    instrumentation.counter(names.READS).add(1, record.outcome)
