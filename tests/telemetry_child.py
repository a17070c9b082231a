"""Workloads that feed the real recorders (every catalog metric, the spans' shapes, real traffic sizes),
and a process that runs them behind `otel_setup.configure()` for a real Prometheus to scrape:

    python -m tests.telemetry_child --configure '{"metrics_port": 0}' --workload catalog --serve

It prints `READY <json>` (the `Telemetry` handle's public fields) once its workloads are recorded. With
`--serve` it then keeps the endpoint up until SIGTERM or SIGINT (re-recording the catalog every
`--tick` seconds so that rates over the scraped counters are non-zero); without it, it shuts the
telemetry down, prints `DONE` and exits 0.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from observable_harness.telemetry import LabelValue, current, names
from tests.traffic import traffic_dir

REPO_ROOT = Path(__file__).resolve().parents[1]

# One representative value per label key. A new label in the catalog fails `catalog()` loudly with a
# KeyError until it gets a value here, so the exposure test never silently skips a metric.
LABEL_VALUES: dict[str, LabelValue] = {
    'tool': 'fetch_logs',
    'action': 'spill',
    'outcome': 'spill',
    'fallback': False,
    'from_action': 'summarize',
    'to_action': 'spill',
    'reason': 'OSError',
    'store': 'LocalFileStore',
    'model': 'test',
    'type': 'input',
    'reminder': 'goal_reanchor',
    'kind': 'llm',
    'placed': True,
    'level': 'daily',
    'line_class': 'error',
    'fate': 'kept',
    'policy': 'failures',
    'agent': 'triage',
    'provider': 'anthropic',
    'estimate': 'expected',
    'pricing': 'priced',
    'direction': 'input',
    'reminded': True,
}

# Series beyond the representative one, so that every dashboard query and alert expression (which
# select on these label values) has data.
EXTRA_SERIES: dict[str, list[tuple[float, tuple[LabelValue, ...]]]] = {
    names.DECISIONS.name: [
        (3, ('fetch_logs', 'passthrough', 'unchanged', False)),
        (5, ('fetch_logs', 'spill', 'truncate', True)),
        (1, ('run_tests', 'summarize', 'summarize', False)),
    ],
    names.TOKENS_SAVED.name: [(700, ('run_tests', 'summarize'))],
    names.BYTES_SAVED.name: [(2800, ('run_tests', 'summarize'))],
    names.READS.name: [(1, ('miss',)), (2, ('hit',))],
    names.REMINDERS_CACHE_POINTS.name: [(1, (False, 'no_content'))],
    names.REMINDERS_FIRED.name: [(2, ('goal_reanchor', 'goal_reanchor'))],
    names.BAND_THRESHOLD_CHARS.name: [(50_000, ('fetch_logs', 'summarize', 'triage'))],
    names.COST_AVOIDED.name: [(0.5, ('fetch_logs', 'test', 'lower')), (4.0, ('fetch_logs', 'test', 'upper'))],
    names.USAGE_TOKENS.name: [
        (900, ('test', 'anthropic', 'cache_read')),
        (100, ('test', 'anthropic', 'uncached_input')),
        (50, ('test', 'anthropic', 'cache_write')),
    ],
    names.USAGE_RESPONSES.name: [(1, ('in-house', 'vllm', 'unknown_model'))],
    names.REMINDERS_INPUT_TOKENS.name: [
        (800, ('test', True, 'cache_read')),
        (900, ('test', False, 'cache_read')),
        (100, ('test', False, 'uncached_input')),
    ],
}

_SIZES = (300.0, 3_000.0, 30_000.0)


def _labels(spec: names.MetricSpec) -> tuple[LabelValue, ...]:
    return tuple(LABEL_VALUES[label] for label in spec.labels)


def catalog() -> None:
    """Record every metric in `names.ALL_METRICS` through the library's own recorders."""
    instrumentation = current()
    for spec in names.ALL_METRICS:
        labels = _labels(spec)
        extras = EXTRA_SERIES.get(spec.name, ())
        if spec.kind == 'counter':
            counter = instrumentation.counter(spec)
            counter.add(10, *labels)
            for amount, extra in extras:
                counter.add(amount, *extra)
        elif spec.kind == 'histogram':
            scale = 1e-5 if spec.unit == 's' else 1e-4 if spec.unit == names.USD else 1.0
            for size in _SIZES:
                instrumentation.histogram(spec).record(size * scale, *labels)
        else:
            gauge = instrumentation.gauge(spec)
            gauge.set(10_000, *labels)
            for value, extra in extras:
                gauge.set(value, *extra)


# --- real traffic --------------------------------------------------------------------------------

TRAFFIC_TOOLS = {
    'pytest_verbose_failures.txt': 'run_tests',
    'gcc_errors.txt': 'compile',
    'find_listing.txt': 'find_files',
    'pip_build_log.txt': 'pip_install',
    'dpkg_list.txt': 'list_packages',
}


def traffic_sizes() -> dict[str, list[int]]:
    """Output sizes (characters) a tool returning windows of each real file would produce.

    Each file is read the way a paginated tool serves it: windows of n = 1, 2, 4, ... lines (up to the
    whole file) taken at the start, a quarter, the middle, three quarters and the end, so each tool gets
    a spread of sizes shaped by its real line lengths.
    """
    sizes: dict[str, list[int]] = {}
    root = traffic_dir()
    for filename, tool in TRAFFIC_TOOLS.items():
        lines = (root / filename).read_text(encoding='utf-8', errors='replace').splitlines(keepends=True)
        samples: list[int] = []
        n = 1
        while True:
            n = min(n, len(lines))
            for start in sorted(
                {0, (len(lines) - n) // 4, (len(lines) - n) // 2, 3 * (len(lines) - n) // 4, len(lines) - n}
            ):
                samples.append(len(''.join(lines[start : start + n])))
            if n == len(lines):
                break
            n *= 2
        sizes[tool] = samples
    return sizes


def traffic() -> None:
    histogram = current().histogram(names.SIZE_CHARS)
    for tool, samples in traffic_sizes().items():
        for size in samples:
            histogram.record(size, tool)


# --- spans -----------------------------------------------------------------------------------------

CANARY = 'CANARY-7f3a-tool-output-must-not-leak'

REDUCE_ATTRIBUTES: dict[str, Any] = {
    names.GEN_AI_TOOL_NAME: 'fetch_logs',
    names.GEN_AI_TOOL_CALL_ID: 'call_0',
    names.TOOL_OUTPUT_UNIT: 'return_value',
    names.TOOL_OUTPUT_SIZE: 52_013,
    names.TOOL_OUTPUT_SIZE_UNIT: 'chars',
    names.TOOL_OUTPUT_ORIGINAL_BYTES: 52_013,
    names.TOOL_OUTPUT_BAND_OVER: 10_000,
    names.TOOL_OUTPUT_ACTION: 'spill',
    names.TOOL_OUTPUT_OUTCOME: 'spill',
    names.TOOL_OUTPUT_FALLBACK: False,
    names.TOOL_OUTPUT_FALLBACK_CHAIN: 'spill',
    names.TOOL_OUTPUT_FALLBACK_REASON: '',
    names.TOOL_OUTPUT_HANDLE: 'r1/call_0.0',
    names.TOOL_OUTPUT_CONTENT_HASH: 'xxh3_128:00112233445566778899aabbccddeeff',
    names.TOOL_OUTPUT_OUTPUT_CHARS: 1_003,
    names.TOOL_OUTPUT_BYTES_SAVED: 51_010,
    names.LOGFIRE_MSG: "spill fetch_logs: 52,013 chars → handle 'r1/call_0.0', saved 51,010 B",
}

INJECT_ATTRIBUTES: dict[str, Any] = {
    names.SYSTEM_REMINDERS_REQUEST: 3,
    names.SYSTEM_REMINDERS_COUNT: 1,
    names.SYSTEM_REMINDERS_NAMES: ('goal_reanchor',),
    names.SYSTEM_REMINDERS_CHARS: 240,
    names.SYSTEM_REMINDERS_CONTENT_HASH: 'xxh3_128:ffeeddccbbaa99887766554433221100',
    names.SYSTEM_REMINDERS_CACHE_POINT: True,
    names.SYSTEM_REMINDERS_CACHE_POINT_REASON: 'placed',
    names.LOGFIRE_MSG: 'reminders on request 3: goal_reanchor (240 chars), cache point placed',
}


def spans() -> None:
    """One reduce span nested in an inject span, the shapes the capabilities emit."""
    instrumentation = current()
    with (
        instrumentation.span(names.SPAN_REMINDERS_INJECT, INJECT_ATTRIBUTES),
        instrumentation.span(names.SPAN_REDUCE, REDUCE_ATTRIBUTES),
    ):
        pass


WORKLOADS = {'catalog': catalog, 'traffic': traffic, 'spans': spans}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('--configure', default='{}', help='configure() keyword arguments as JSON')
    parser.add_argument('--workload', action='append', choices=sorted(WORKLOADS), default=[])
    parser.add_argument('--repeat', type=int, default=1, help='run the workloads this many times')
    parser.add_argument('--serve', action='store_true')
    parser.add_argument('--tick', type=float, default=0.5)
    args = parser.parse_args(argv)

    from observable_harness.otel_setup import configure

    telemetry = configure(**json.loads(args.configure))
    for _ in range(args.repeat):
        for workload in args.workload:
            WORKLOADS[workload]()
    ready = {
        'metrics_url': telemetry.metrics_url,
        'otlp_endpoint': telemetry.otlp_endpoint,
        'otlp_protocol': telemetry.otlp_protocol,
        'logfire': telemetry.logfire,
        'pydantic_ai_instrumented': telemetry.pydantic_ai_instrumented,
        'notes': list(telemetry.notes),
        'summary': telemetry.summary(),
    }
    print('READY', json.dumps(ready), flush=True)
    if args.serve:
        stop = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        while not stop.wait(args.tick):
            if 'catalog' in args.workload:
                catalog()
    telemetry.shutdown()
    print('DONE', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
