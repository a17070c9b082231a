"""Cost of one `after_tool_execute` call: ours (telemetry off and on) against pydantic-ai-harness.

Run with the bench interpreter: `bash bench/setup_env.sh` then `bench/.venv/bin/python bench/bench_hooks.py`.
`--payload FILE` adds a spill of that file's text (a held-out check on output this was not written against).

Every implementation reduces the same payloads through its real hook with a real `RunContext`,
in interleaved rounds (the order shuffled each round) so drift on a shared machine hits all of
them alike. Reported: the median over rounds of the mean microseconds per call, and the ratios.

"Telemetry on" is the OpenTelemetry SDK with an in-memory span exporter and an in-memory metric
reader. Our metrics are recorded into in-process cells on the hot path and handed to the SDK at
collection time; collections run between rounds, outside the timed loop, as a background reader
would. Their cost is printed separately, per decision, so nothing is hidden.

"Loop blocked" is the part of a call during which the event loop could run nothing else: the call's
time minus the time the loop spent waiting in its selector (for a worker thread, say), per MB of payload.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import shutil
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from pydantic_ai.messages import ToolCallPart
from pydantic_ai.models.test import TestModel
from pydantic_ai.tools import RunContext, ToolDefinition
from pydantic_ai.usage import RunUsage

import observable_harness.tool_output_limits as ours
from _real_outputs import MIB, load, mixed
from observable_harness._text.secrets import ENGINES, Scrubber
from observable_harness.telemetry import Instrumentation, _instruments

try:
    import pydantic_ai_harness as anchor_pkg
    import pydantic_ai_harness.tool_output_limits as anchor
except ImportError:  # pragma: no cover - the anchor is installed only in bench/.venv
    anchor_pkg = None
    anchor = None

Payloads = dict[str, Callable[[], Any]]


def payloads(extra: list[Path]) -> Payloads:
    line = '2026-11-29T10:00:00 INFO worker-3 processed batch 123456 in 12.5 ms status=ok\n'
    one_mb = (line * (MIB // len(line) + 1))[:MIB]
    kilobyte = one_mb[:1024]
    records = [{'id': i, 'name': f'item-{i}', 'tags': ['a', 'b'], 'score': i * 0.5} for i in range(10_000)]
    real = mixed()
    found: Payloads = {
        'passthrough 1 KB': lambda: kilobyte,
        'truncate 1 MB': lambda: one_mb,
        'spill 1 MB': lambda: one_mb,
        'spill 1 MiB mixed real': lambda: real,
        'spill 10,000 records': lambda: records,
        'spill 1 MB, like anchor': lambda: one_mb,
        'spill mixed, like anchor': lambda: real,
        'spill 10k rec, like anchor': lambda: records,
        'spill 1 MB, scrubbed, by position': lambda: one_mb,
        'spill mixed, scrubbed, by position': lambda: real,
    }
    for path in extra:
        text = load(path)
        found[f'spill {path.name[:21]}'] = lambda text=text: text
    return found


def size_mb(payload: Any) -> float:
    """The payload's size in MB as the hook sees it: text as UTF-8, records as compact JSON."""
    if isinstance(payload, str):
        return len(payload.encode('utf-8', 'surrogateescape')) / MIB
    return len(json.dumps(payload, separators=(',', ':'))) / MIB


CHOICE: dict[str, str] = {'engine': 'auto'}
"""The secret scrubber's engine for our capability (`--engine`): `auto` takes the fastest installed."""


def build(module: Any, scenario: str, base_dir: Path) -> Any:
    """The capability at its defaults. `like anchor` rows make ours do what the anchor does: no secret
    scrubbing before the write and a position-only preview instead of the class-aware one.
    `scrubbed, by position` rows scrub as the defaults do and preview by position: the default's cost
    less that of choosing preview lines by class."""
    store = module.LocalFileStore(base_dir=base_dir)
    options: dict[str, Any] = {'store': store}
    if module is ours and CHOICE['engine'] != 'auto':
        options['scrubber'] = Scrubber(engine=CHOICE['engine'])  # pyright: ignore[reportArgumentType]
    positional = scenario.endswith(('like anchor', 'by position')) and module is ours
    if positional:
        by_position = ours.Spill(preview=ours.TruncationStrategy.head_tail, then=ours.Truncate())
        options['bands'] = [ours.Band(over=10_000, action=by_position)]
    if scenario.endswith('like anchor') and module is ours:
        options['scrubber'] = None
    if scenario.startswith('truncate'):
        return module.ToolOutputLimits(bands=[module.Band(over=10_000, action=module.Truncate())], **options)
    return module.ToolOutputLimits(**options)


class IdleClock:
    """Time the running event loop spends waiting in its selector: whatever else it could have done then."""

    def __init__(self) -> None:
        self.idle = 0.0
        selector = asyncio.get_running_loop()._selector
        select = selector.select

        def timed_select(timeout: float | None = None) -> Any:
            start = time.perf_counter()
            try:
                return select(timeout)
            finally:
                self.idle += time.perf_counter() - start

        selector.select = timed_select


class Runner:
    """Calls one capability's hook `n` times on a payload, with a fresh tool call id each time."""

    def __init__(self, capability: Any, payload: Any, clock: IdleClock) -> None:
        self.capability = capability
        self.payload = payload
        self.clock = clock
        self.tool_def = ToolDefinition(name='fetch_logs', parameters_json_schema={'type': 'object', 'properties': {}})
        self.counter = 0
        self.blocked: list[float] = []
        """Per round, the mean time per call the loop could not run anything else."""

    def ctx(self, call_id: str) -> RunContext[None]:
        return RunContext(
            deps=None,
            model=TestModel(),
            usage=RunUsage(),
            run_id='bench-run',
            tool_call_id=call_id,
            tool_name='fetch_logs',
            retry=0,
        )

    async def run(self, n: int) -> float:
        calls = []
        for _ in range(n):
            self.counter += 1
            call_id = f'c{self.counter}'
            calls.append((self.ctx(call_id), ToolCallPart('fetch_logs', {}, tool_call_id=call_id)))
        hook = self.capability.after_tool_execute
        payload = self.payload
        tool_def = self.tool_def
        idle = self.clock.idle
        start = time.perf_counter()
        for ctx, call in calls:
            await hook(ctx, call=call, tool_def=tool_def, args={}, result=payload)
        elapsed = time.perf_counter() - start
        self.blocked.append((elapsed - (self.clock.idle - idle)) / n)
        return elapsed / n


class Telemetry:
    """Switches what our capabilities report to between the no-op API providers and a real SDK, in one process."""

    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        self.reader = InMemoryMetricReader()
        self.sdk = Instrumentation(provider, MeterProvider(metric_readers=[self.reader]))
        self.noop = Instrumentation(trace.NoOpTracerProvider(), metrics.NoOpMeterProvider())

    def on(self) -> None:
        _instruments._default = self.sdk

    def off(self) -> None:
        _instruments._default = self.noop

    def collect(self) -> float:
        start = time.perf_counter()
        self.reader.get_metrics_data()
        self.exporter.clear()
        return time.perf_counter() - start


def clear(tmp: Path) -> None:
    """Delete what the spills wrote, between rounds and outside the timed loop."""
    for sub in tmp.iterdir():
        shutil.rmtree(sub, ignore_errors=True)


def iterations(scenario: str) -> int:
    return 2_000 if scenario.startswith('passthrough') else 20


async def bench(rounds: int, extra: list[Path], only: str | None = None) -> None:
    telemetry = Telemetry()
    clock = IdleClock()
    tmp = Path(tempfile.mkdtemp(prefix='oh-bench-'))
    data = payloads(extra)
    print(f'after_tool_execute cost, {rounds} interleaved rounds; median of per-round means (us per call)')
    print('loop blocked: ms per MB of payload during which the event loop could run nothing else\n')
    header = (
        f'{"scenario":<34} {"anchor":>10} {"ours off":>10} {"ours on":>10} {"on/anchor":>10} {"on-anchor":>10}'
        f' {"blocked/MB anchor":>18} {"ours on":>8}'
    )
    print(header)
    print('-' * len(header))
    collect_costs: list[float] = []
    decisions = 0
    for scenario, make in data.items():
        if only is not None and only not in scenario:
            continue
        payload = make()
        megabytes = size_mb(payload)
        impls: dict[str, Runner] = {
            'ours off': Runner(build(ours, scenario, tmp / 'ours-off'), payload, clock),
            'ours on': Runner(build(ours, scenario, tmp / 'ours-on'), payload, clock),
        }
        if anchor is not None:
            impls['anchor'] = Runner(build(anchor, scenario, tmp / 'anchor'), payload, clock)
        times: dict[str, list[float]] = {name: [] for name in impls}
        n = iterations(scenario)
        for name, runner in impls.items():  # warm-up: imports, first-use registration, directory creation
            (telemetry.on if name == 'ours on' else telemetry.off)()
            await runner.run(min(n, 5))
            runner.blocked.clear()
        for _ in range(rounds):
            order = list(impls)
            random.shuffle(order)
            for name in order:
                (telemetry.on if name == 'ours on' else telemetry.off)()
                gc.collect()
                times[name].append(await impls[name].run(n))
                if name == 'ours on':
                    collect_costs.append(telemetry.collect())
                    decisions += n
                clear(tmp)
        median = {name: statistics.median(values) * 1e6 for name, values in times.items()}
        blocked = {name: statistics.median(runner.blocked) * 1e3 / megabytes for name, runner in impls.items()}
        anchor_us = median.get('anchor', float('nan'))
        print(
            f'{scenario:<34} {anchor_us:>10.1f} {median["ours off"]:>10.1f} {median["ours on"]:>10.1f} '
            f'{median["ours on"] / anchor_us:>9.2f}x {median["ours on"] - anchor_us:>+9.1f}'
            f' {blocked.get("anchor", float("nan")):>18.2f} {blocked["ours on"]:>8.2f}'
        )
    telemetry.off()
    print(
        f'\nmetric collection (outside the hook, on the reader thread in real use): '
        f'{sum(collect_costs) / max(decisions, 1) * 1e6:.2f} us per decision'
    )
    shutil.rmtree(tmp, ignore_errors=True)


async def peak_memory(megabytes: int) -> None:
    """Peak memory allocated while reducing one large return, as a multiple of the payload size."""
    line = 'x' * 79 + '\n'
    payload = line * (megabytes * 1_048_576 // len(line))
    size = len(payload)
    tmp = Path(tempfile.mkdtemp(prefix='oh-bench-mem-'))
    print(f'\npeak memory reducing a {size / 1_048_576:.0f} MB return (tracemalloc, allocations during the hook)')
    modules = [('ours', ours)] + ([('anchor', anchor)] if anchor is not None else [])
    clock = IdleClock()
    for scenario in ('truncate', 'spill'):
        for name, module in modules:
            runner = Runner(build(module, scenario, tmp / name), payload, clock)
            gc.collect()
            tracemalloc.start()
            await runner.run(1)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            print(f'  {scenario:<9} {name:<7} peak {peak / 1_048_576:8.1f} MB = {peak / size:.2f}x the payload')
            shutil.rmtree(tmp / name, ignore_errors=True)
    shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description='after_tool_execute cost: ours against pydantic-ai-harness')
    parser.add_argument('--rounds', type=int, default=15)
    parser.add_argument('--memory-mb', type=int, default=100)
    parser.add_argument('--payload', type=Path, action='append', default=[], help='also spill this file (repeatable)')
    parser.add_argument('--only', help='run only the scenarios whose name contains this')
    parser.add_argument('--engine', choices=('auto', *ENGINES), default='auto', help="our scrubber's gate engine")
    args = parser.parse_args()
    CHOICE['engine'] = args.engine
    print(f'scrubber engine: {args.engine} (installed: {", ".join(ENGINES)})')
    if anchor_pkg is None:
        print('pydantic-ai-harness is not installed: run with bench/.venv/bin/python (bash bench/setup_env.sh)')
    asyncio.run(bench(args.rounds, args.payload, args.only))
    if args.memory_mb:
        asyncio.run(peak_memory(args.memory_mb))


if __name__ == '__main__':
    main()
