"""`observable-harness demo`: agent sessions over realistic tool traffic, and what the capabilities did."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import signal
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor, TracerProvider
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..otel_setup import Telemetry
from ..storage import LocalFileStore
from ..telemetry import LabelValue, current, names
from ..tool_output_limits import compact_json
from .workload import DEMO_MODEL, Session, build_sessions, demo_store, housekeeping, run_session

__all__ = ['DemoOptions', 'run_demo']


@dataclass(frozen=True)
class DemoOptions:
    serve: bool = False
    """Keep the metrics endpoint up after the workload, and keep the traffic going, until interrupted."""
    serve_interval: float = 2.0
    """Seconds between repeated sessions while serving: rate() and increase() need counters that move."""
    model: str | None = None
    """A real model (`provider:name`) instead of the scripted one."""
    progress: bool = True


class _Collector(SpanProcessor):
    """Keeps this library's finished spans (attributes only: sizes, names, handles) for the report."""

    def __init__(self) -> None:
        self.spans: list[ReadableSpan] = []
        self._lock = threading.Lock()

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        return None

    def on_end(self, span: ReadableSpan) -> None:
        if span.instrumentation_scope is not None and span.instrumentation_scope.name == names.INSTRUMENTATION_SCOPE:
            with self._lock:
                self.spans.append(span)

    def by_name(self, name: str) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(s.attributes or {}) for s in self.spans if s.name == name]


@dataclass
class Money:
    """USD that avoided re-sends would have cost: the range the `tool_output.cost_avoided_usd` series carry."""

    lower: float = 0.0
    expected: float = 0.0
    upper: float = 0.0

    def scaled(self, share: float) -> Money:
        return Money(self.lower * share, self.expected * share, self.upper * share)

    def __add__(self, other: Money) -> Money:
        return Money(self.lower + other.lower, self.expected + other.expected, self.upper + other.upper)


def _usd(amount: float) -> str:
    """Cents from a dime up; below that, three significant digits, so small figures keep their size."""
    return f'{amount:,.2f}' if amount >= 0.1 else f'{amount:.3g}'


Series = dict[tuple[LabelValue, ...], float]


def _since(before: Series, after: Series) -> Series:
    return {key: value - before.get(key, 0.0) for key, value in after.items() if value != before.get(key, 0.0)}


@dataclass
class Usage:
    """What the model responses of the demo's runs reported and cost, from the usage metrics."""

    tokens: dict[str, float] = field(default_factory=dict[str, float])
    cost: float = 0.0
    models: set[str] = field(default_factory=set[str])
    unpriced: dict[str, int] = field(default_factory=dict[str, int])

    def add(self, tokens: Series, cost: Series, responses: Series) -> None:
        for (model, _provider, kind), value in tokens.items():
            self.models.add(str(model))
            self.tokens[str(kind)] = self.tokens.get(str(kind), 0.0) + value
        self.cost += sum(cost.values())
        for (model, _provider, pricing), value in responses.items():
            self.models.add(str(model))
            if pricing != 'priced':
                self.unpriced[str(model)] = self.unpriced.get(str(model), 0) + int(value)

    @property
    def cache_read_share(self) -> float:
        tokens = self.tokens
        total = sum(tokens.get(kind, 0.0) for kind in ('uncached_input', 'cache_read', 'cache_write'))
        return tokens.get('cache_read', 0.0) / total if total else 0.0


class _Meter:
    """Per-session differences of the counters the report prices from (this process's cumulative cells)."""

    def __init__(self) -> None:
        self._counters = [
            current().counter(spec)
            for spec in (names.COST_AVOIDED, names.USAGE_TOKENS, names.USAGE_COST, names.USAGE_RESPONSES)
        ]
        self._before = [counter.snapshot() for counter in self._counters]

    def since(self) -> tuple[dict[str, Money], Series, Series, Series]:
        avoided, tokens, cost, responses = (
            _since(before, counter.snapshot()) for before, counter in zip(self._before, self._counters, strict=True)
        )
        by_tool: dict[str, Money] = {}
        for (tool, _model, estimate), value in avoided.items():
            money = by_tool.setdefault(str(tool), Money())
            setattr(money, str(estimate), getattr(money, str(estimate)) + value)
        return by_tool, tokens, cost, responses


@dataclass
class Row:
    session: str
    tool: str
    size: int
    action: str
    outcome: str
    chain: str
    saved: int
    handle: str
    avoided: Money | None = None
    """USD the re-sends this reduction spared later requests of its run would have cost."""


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list[Row])
    usage: Usage = field(default_factory=Usage)
    reads: dict[str, int] = field(default_factory=dict[str, int])
    resend_tokens: int = 0
    reminders: int = 0
    reminder_fallbacks: int = 0
    pruned: str = ''

    def add_session(
        self,
        session: Session,
        messages: Sequence[ModelMessage],
        reduces: list[dict[str, Any]],
        avoided: dict[str, Money] | None = None,
    ) -> None:
        first = len(self.rows)
        self._add_rows(session, messages, reduces)
        # The series are per tool and model; a tool reduced twice in one run shares its tool's figure by bytes saved.
        for tool, money in (avoided or {}).items():
            rows = [row for row in self.rows[first:] if row.tool == tool and row.saved]
            saved = sum(row.saved for row in rows)
            for row in rows:
                row.avoided = money.scaled(row.saved / saved)

    def _add_rows(self, session: Session, messages: Sequence[ModelMessage], reduces: list[dict[str, Any]]) -> None:
        by_call = {(r.get(names.GEN_AI_TOOL_CALL_ID), r.get(names.TOOL_OUTPUT_UNIT)): r for r in reduces}
        for message in messages:
            if not isinstance(message, ModelRequest):
                continue
            for part in message.parts:
                if (
                    not isinstance(part, ToolReturnPart)
                    or part.outcome == 'retried'
                    or part.tool_name == 'read_tool_result'
                ):
                    continue
                reduced = by_call.get((part.tool_call_id, 'return_value'))
                if reduced is None:
                    content = part.content
                    size = len(content) if isinstance(content, str) else len(compact_json(content))
                    self.rows.append(Row(session.name, part.tool_name, size, 'passthrough', 'unchanged', '', 0, ''))
                    continue
                self.rows.append(
                    Row(
                        session.name,
                        part.tool_name,
                        int(reduced[names.TOOL_OUTPUT_SIZE]),
                        str(reduced[names.TOOL_OUTPUT_ACTION]),
                        str(reduced[names.TOOL_OUTPUT_OUTCOME]),
                        str(reduced[names.TOOL_OUTPUT_FALLBACK_CHAIN]) if reduced[names.TOOL_OUTPUT_FALLBACK] else '',
                        int(reduced[names.TOOL_OUTPUT_BYTES_SAVED]),
                        str(reduced.get(names.TOOL_OUTPUT_HANDLE, '')),
                    )
                )

    def render(self, console: Console) -> None:
        table = Table(title='What the capabilities did with each tool return', title_justify='left')
        for column, justify in (
            ('session', 'left'),
            ('tool', 'left'),
            ('size (chars)', 'right'),
            ('action', 'left'),
            ('outcome', 'left'),
            ('fallback', 'left'),
            ('bytes saved', 'right'),
            ('$ avoided', 'right'),
        ):
            table.add_column(column, justify=justify)  # type: ignore[arg-type]
        for row in self.rows:
            table.add_row(
                row.session,
                row.tool,
                f'{row.size:,}',
                row.action,
                row.outcome,
                f'[yellow]{row.chain}[/]' if row.chain else '',
                f'{row.saved:,}' if row.saved else '',
                _usd(row.avoided.expected) if row.avoided else '',
            )
        saved = sum(row.saved for row in self.rows)
        avoided = sum((row.avoided for row in self.rows if row.avoided), Money())
        table.add_section()
        table.add_row(
            'total',
            f'{len(self.rows)} returns',
            f'{sum(r.size for r in self.rows):,}',
            '',
            '',
            '',
            f'{saved:,}',
            _usd(avoided.expected),
        )
        console.print(table)
        fallbacks = [row for row in self.rows if row.chain]
        reduced = [row for row in self.rows if row.action != 'passthrough']
        console.print(
            f'Reduced {len(reduced)} of {len(self.rows)} returns, keeping {saved:,} bytes (~{saved // 4:,} tokens) '
            f'out of the context window; later requests of the same runs were spared ~{self.resend_tokens:,} more '
            'tokens of re-sent output.'
        )
        self._render_money(console, avoided)
        if fallbacks:
            console.print(
                f'[yellow]{len(fallbacks)} fell back[/]: '
                + '; '.join(f'{row.tool} ({row.chain})' for row in fallbacks)
                + ' — the run went on each time.'
            )
        if self.reads:
            reads = ', '.join(f'{count} {outcome}' for outcome, count in sorted(self.reads.items()))
            console.print(f'Read-backs through read_tool_result: {reads}.')
        if self.reminders:
            console.print(
                f'Reminders: {self.reminders} injected at the request tail, none kept in history; '
                f'{self.reminder_fallbacks} LLMReminder generation(s) fell back to the goal re-anchor.'
            )
        if self.pruned:
            console.print(f'Housekeeping: {self.pruned}')

    def _render_money(self, console: Console, avoided: Money) -> None:
        import genai_prices

        usage = self.usage
        models = ', '.join(sorted(usage.models)) or DEMO_MODEL
        if usage.cost:
            console.print(
                f'$ avoided: the expected cost of the re-sends each reduction spared the later requests of its run, '
                f"priced with the snapshot of genai-prices {genai_prices.__version__} for {models}, each response's "
                f'input split as it was billed ({usage.cache_read_share:.0%} of all input was read from the prompt '
                f'cache). The runs cost ${_usd(usage.cost)}; their reductions avoided ${_usd(avoided.expected)}, '
                f'between ${_usd(avoided.lower)} had every re-send been a cache read and ${_usd(avoided.upper)} at the '
                'full input price.'
            )
        for model, count in sorted(usage.unpriced.items()):
            console.print(
                f'[yellow]{count} response(s) of {model} could not be priced[/] (genai-prices does not know the '
                'model): counted as unpriced, left out of every dollar figure.'
            )


async def _run_sessions(options: DemoOptions, console: Console, collector: _Collector, store: LocalFileStore) -> Report:
    sessions = build_sessions(store)
    report = Report()
    total = sum(len(session.script) + 1 for session in sessions)
    resend_before = current().counter(names.RESEND_TOKENS_AVOIDED).total()
    with Progress(
        TextColumn('[bold]{task.description}'),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=not options.progress,
        transient=True,
    ) as progress:
        task = progress.add_task('demo', total=total)
        for session in sessions:
            progress.update(task, description=session.name)
            before = len(collector.by_name(names.SPAN_REDUCE))
            meter = _Meter()
            messages = await run_session(session, model=options.model, on_step=lambda: progress.advance(task))
            reduces = collector.by_name(names.SPAN_REDUCE)[before:]
            avoided, tokens, cost, responses = meter.since()
            report.usage.add(tokens, cost, responses)
            report.add_session(session, messages, reduces, avoided)
    for read in collector.by_name(names.SPAN_READ):
        outcome = str(read.get(names.TOOL_OUTPUT_READ_OUTCOME, 'unknown'))
        report.reads[outcome] = report.reads.get(outcome, 0) + 1
    report.resend_tokens = int(current().counter(names.RESEND_TOKENS_AVOIDED).total() - resend_before)
    report.reminders = sum(
        int(s.get(names.SYSTEM_REMINDERS_COUNT, 0)) for s in collector.by_name(names.SPAN_REMINDERS_INJECT)
    )
    report.reminder_fallbacks = sum(
        bool(s.get(names.SYSTEM_REMINDERS_FALLBACK)) for s in collector.by_name(names.SPAN_REMINDERS_GENERATE)
    )
    pruned, refused = housekeeping(store)
    report.pruned = (
        f'pruned {pruned.files:,} spilled files ({pruned.bytes:,} bytes) after the read-backs; '
        f'a store whose root was swapped for a symlink was refused '
        f'({", ".join(sorted(refused.failures)) or "no error"}) and counted as a prune failure.'
    )
    return report


async def _keep_serving(options: DemoOptions, stop: threading.Event, store: LocalFileStore) -> int:
    """Repeat the sessions quietly so counters keep moving for rate()/increase() and the alerts; how many ran."""
    sessions = 0
    while not stop.is_set():
        for session in build_sessions(store):
            if stop.is_set():
                return sessions
            await run_session(session, model=options.model, on_step=lambda: None)
            sessions += 1
            # Wait in short steps, so an interrupt stops the demo at once rather than after the interval.
            waited = 0.0
            while waited < options.serve_interval and not stop.is_set():
                await asyncio.sleep(0.05)
                waited += 0.05
        housekeeping(store)
    return sessions


class _FirstOfEachMessage(logging.Filter):
    """Lets each distinct log message through once: the repeated sessions fail the same way every time."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message in self._seen:
            return False
        self._seen.add(message)
        return True


def run_demo(options: DemoOptions, telemetry: Telemetry, console: Console | None = None) -> int:
    """Run the demo workload, print what was saved and what fell back, and say where to look."""
    # Piped output (CI logs, `tee`) gets a width that fits the table rather than the 80-column default.
    console = console or Console(width=None if Console().is_terminal else 120)
    collector = _Collector()
    provider = trace.get_tracer_provider()
    if isinstance(provider, TracerProvider):
        provider.add_span_processor(collector)
    store = demo_store()
    try:
        return _run_and_report(options, telemetry, console, collector, store)
    finally:
        shutil.rmtree(store.root, ignore_errors=True)


def _run_and_report(
    options: DemoOptions, telemetry: Telemetry, console: Console, collector: _Collector, store: LocalFileStore
) -> int:
    report = asyncio.run(_run_sessions(options, console, collector, store))
    report.render(console)
    serving = options.serve and telemetry.metrics_url is not None
    console.print(telemetry.summary(ending=not serving))
    telemetry.flush()
    if serving:
        stop = _stop_on_signal()
        # A plain, flushed line: the end-to-end tests (and scripts) wait for it on a pipe.
        print('READY ' + json.dumps({'metrics_url': telemetry.metrics_url}), flush=True)
        console.print(f'Serving until interrupted; repeating the sessions every {options.serve_interval:g} s.')
        quiet = _FirstOfEachMessage()
        logger = logging.getLogger('observable_harness')
        logger.addFilter(quiet)
        try:
            sessions = asyncio.run(_keep_serving(options, stop, store))
        finally:
            logger.removeFilter(quiet)
        telemetry.shutdown()
        console.print(f'Stopped after {sessions:,} more sessions; the metrics endpoint is closed.')
        return 0
    if telemetry.metrics_url:
        console.print('Run `observable-harness demo --serve` to keep the endpoint up for Prometheus to scrape.')
    telemetry.shutdown()
    return 0


def _stop_on_signal() -> threading.Event:
    stop = threading.Event()

    def handler(signum: int, frame: object) -> None:
        stop.set()

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, handler)
    return stop
