"""Turns ToolOutputLimits decisions into `tool_output.*` spans and metrics.

The capability decides; this module reports. It receives `Decision` records (names, sizes, counts,
handles, hashes) and never sees a payload, so it cannot leak one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Generator, Iterable
from contextlib import contextmanager
from typing import TYPE_CHECKING

from opentelemetry.trace import Span

from . import names
from .instruments import Counter, Gauge, Histogram, span

if TYPE_CHECKING:
    from ..tool_output_limits.decision import Decision

__all__ = [
    'ReduceSpan',
    'report_bands',
    'report_passthrough',
    'report_resend_avoided',
    'report_spill_failure',
    'report_spill_write',
    'summarize_span',
]

_log = logging.getLogger('observable_harness.telemetry')

DECISIONS = Counter(names.DECISIONS)
SIZE = Histogram(names.SIZE)
BYTES_SAVED = Counter(names.BYTES_SAVED)
TOKENS_SAVED = Counter(names.TOKENS_SAVED)
RESEND_TOKENS_AVOIDED = Counter(names.RESEND_TOKENS_AVOIDED)
FALLBACKS = Counter(names.FALLBACKS)
SPILL_BYTES = Counter(names.SPILL_BYTES)
SPILL_FAILURES = Counter(names.SPILL_FAILURES)
SUMMARIZE_TOKENS = Counter(names.SUMMARIZE_TOKENS)
REDUCE_DURATION = Histogram(names.REDUCE_DURATION)
BAND_THRESHOLD = Gauge(names.BAND_THRESHOLD)


def report_passthrough(tool: str, size: int, size_unit: str) -> None:
    """A unit below every band (or matched by `Passthrough`): metrics only, no span."""
    DECISIONS.add(1, tool, 'passthrough', 'unchanged', False)
    SIZE.record(size, tool, size_unit)


def _message(decision: Decision) -> str:
    what = decision.fallback_chain
    size = f'{decision.size:,} {decision.size_unit}'
    if decision.handle is not None:
        result = f"handle '{decision.handle}'"
    elif decision.outcome == 'unchanged':
        result = 'left unchanged'
    else:
        result = f'{decision.output_chars:,} chars'
    message = f'{what} {decision.tool}: {size} → {result}, saved {decision.bytes_saved:,} B'
    if decision.fallback_reason:
        message += f' (fallback: {decision.fallback_reason})'
    return message


class ReduceSpan:
    """The `tool_output.reduce` span of one unit, opened before the action runs so that summarize
    and store spans nest under it, and finished with the decision once the chain settled."""

    __slots__ = ('_span', '_started')

    def __init__(self, current: Span) -> None:
        self._span = current
        self._started = time.perf_counter()

    def finish(self, decision: Decision) -> None:
        duration = time.perf_counter() - self._started
        try:
            attributes: dict[str, str | bool | int] = {
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

            tool = decision.tool
            DECISIONS.add(1, tool, decision.action, decision.outcome, decision.fallback)
            SIZE.record(decision.size, tool, decision.size_unit)
            if decision.bytes_saved > 0:
                BYTES_SAVED.add(decision.bytes_saved, tool, decision.outcome)
                TOKENS_SAVED.add(decision.tokens_saved, tool, decision.outcome)
            for hop in decision.hops:
                FALLBACKS.add(1, tool, hop.from_action, hop.to_action, hop.reason)
            REDUCE_DURATION.record(duration, tool, decision.action)
        except Exception:  # pragma: no cover - reporting must never fail the run it reports on
            _log.exception('observable_harness: could not report a tool-output decision')


@contextmanager
def reduce_span() -> Generator[ReduceSpan]:
    with span(names.SPAN_REDUCE) as current:
        yield ReduceSpan(current)


def report_spill_write(tool: str, store: str, nbytes: int) -> None:
    SPILL_BYTES.add(nbytes, tool, store)


def report_spill_failure(store: str, reason: str) -> None:
    SPILL_FAILURES.add(1, reason, store)


class SummarizeSpan:
    """The `tool_output.summarize` span: which model, and the tokens it cost."""

    __slots__ = ('_model', '_span')

    def __init__(self, current: Span, model: str) -> None:
        self._span = current
        self._model = model

    def usage(self, input_tokens: int, output_tokens: int) -> None:
        self._span.set_attributes(
            {
                names.GEN_AI_USAGE_INPUT_TOKENS: input_tokens,
                names.GEN_AI_USAGE_OUTPUT_TOKENS: output_tokens,
                names.LOGFIRE_MSG: f'summarize with {self._model}: {input_tokens:,} in, {output_tokens:,} out',
            }
        )
        SUMMARIZE_TOKENS.add(input_tokens, self._model, 'input')
        SUMMARIZE_TOKENS.add(output_tokens, self._model, 'output')


@contextmanager
def summarize_span(model: str) -> Generator[SummarizeSpan]:
    attributes = {names.GEN_AI_REQUEST_MODEL: model, names.LOGFIRE_MSG: f'summarize with {model}'}
    with span(names.SPAN_SUMMARIZE, attributes) as current:
        yield SummarizeSpan(current, model)


def report_resend_avoided(saved_by_tool: Iterable[tuple[str, int]]) -> None:
    """At a model request: tokens that reductions earlier in the run kept out of it, per tool."""
    for tool, tokens in saved_by_tool:
        if tokens > 0:
            RESEND_TOKENS_AVOIDED.add(tokens, tool)


def report_bands(tool: str, thresholds: Iterable[tuple[int, str]], size_unit: str, *, agent: str) -> None:
    """Expose one agent's configured thresholds (`over`, action name) for a tool, for dashboards to draw over sizes."""
    for over, action in thresholds:
        BAND_THRESHOLD.set(over, tool, action, size_unit, agent)
