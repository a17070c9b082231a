"""How much a dead OTLP exporter slows an agent run: ratios against the same run with no exporter.

Run with the bench interpreter: `bash bench/setup_env.sh` then `bench/.venv/bin/python bench/bench_dead_exporter.py`.

One "run" is a real pydantic-ai `Agent.run_sync` over `TestModel` (two model requests, one tool call)
with pydantic-ai's instrumentation on, whose tool opens a `tool_output.reduce` span and records the
decision metrics through the library's recorders, as a capability does. `otel_setup.configure()` sets
up each configuration in its own process (providers are once per process):

- `no exporter`: the SDK with nothing to export to (the baseline);
- `healthy OTLP`: OTLP/HTTP to a receiver on loopback that answers at once;
- `refused`: OTLP/HTTP to a closed port (connection refused);
- `black hole`: OTLP/HTTP to a server that accepts connections and never answers (export timeout 1 s).

Rounds interleave the configurations in a shuffled order so drift on a shared machine hits all alike.
Reported per configuration: the median over rounds of the mean time per run, its ratio to the
baseline, and, apart, how long `shutdown()` took at the end (the only place a dead endpoint may wait).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Generator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

CONFIGS = ('no exporter', 'healthy OTLP', 'refused', 'black hole')


def child(config: str, endpoint: str | None, runs: int, warmup: int) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    from observable_harness.otel_setup import configure
    from observable_harness.telemetry import current, names

    telemetry = configure(metrics_port=None, otlp_endpoint=endpoint, export_timeout=1.0, metric_export_interval=1.0)
    instrumentation = current()
    decisions = instrumentation.counter(names.DECISIONS)
    sizes = instrumentation.histogram(names.SIZE_CHARS)
    saved = instrumentation.counter(names.BYTES_SAVED)
    agent = Agent(TestModel())

    @agent.tool_plain
    def fetch_logs() -> str:
        attributes = {
            names.GEN_AI_TOOL_NAME: 'fetch_logs',
            names.TOOL_OUTPUT_SIZE: 52_013,
            names.TOOL_OUTPUT_ACTION: 'spill',
            names.TOOL_OUTPUT_OUTCOME: 'spill',
            names.TOOL_OUTPUT_HANDLE: 'r1/c0.0',
            names.LOGFIRE_MSG: "spill fetch_logs: 52,013 chars → handle 'r1/c0.0'",
        }
        with instrumentation.span(names.SPAN_REDUCE, attributes):
            decisions.add(1, 'fetch_logs', 'spill', 'spill', False)
            sizes.record(52_013, 'fetch_logs')
            saved.add(51_010, 'fetch_logs', 'spill')
        return 'stand-in'

    for _ in range(warmup):
        agent.run_sync('go')
    start = time.perf_counter()
    for _ in range(runs):
        agent.run_sync('go')
    per_run = (time.perf_counter() - start) / runs
    stop = time.perf_counter()
    telemetry.shutdown(timeout=5)
    print(json.dumps({'config': config, 'per_run_s': per_run, 'shutdown_s': time.perf_counter() - stop}))


@contextmanager
def healthy_receiver() -> Generator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers['Content-Length'] or 0))
            self.send_response(200)
            self.send_header('Content-Length', '0')
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f'http://127.0.0.1:{server.server_address[1]}'
    finally:
        server.shutdown()


@contextmanager
def black_hole() -> Generator[str]:
    listener = socket.socket()
    listener.bind(('127.0.0.1', 0))
    listener.listen(256)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f'http://127.0.0.1:{listener.getsockname()[1]}'
    finally:
        listener.close()
        for connection in held:
            connection.close()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--child')
    parser.add_argument('--endpoint')
    parser.add_argument('--runs', type=int, default=300)
    parser.add_argument('--warmup', type=int, default=30)
    parser.add_argument('--rounds', type=int, default=5)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.endpoint, args.runs, args.warmup)
        return

    env = {k: v for k, v in os.environ.items() if not k.startswith(('OTEL_', 'LOGFIRE_'))}
    results: dict[str, list[dict[str, float]]] = {config: [] for config in CONFIGS}
    with healthy_receiver() as healthy, black_hole() as hole:
        endpoints = {
            'no exporter': None,
            'healthy OTLP': healthy,
            'refused': f'http://127.0.0.1:{closed_port()}',
            'black hole': hole,
        }
        for round_number in range(args.rounds):
            order = list(CONFIGS)
            random.shuffle(order)
            for config in order:
                command = [sys.executable, __file__, '--child', config, '--runs', str(args.runs)]
                command += ['--warmup', str(args.warmup)]
                endpoint = endpoints[config]
                if endpoint:
                    command += ['--endpoint', endpoint]
                done = subprocess.run(
                    command, capture_output=True, text=True, check=True, env=env, cwd=Path(__file__).parent
                )
                results[config].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(f'round {round_number + 1}/{args.rounds} done', file=sys.stderr)

    baseline = statistics.median(r['per_run_s'] for r in results['no exporter'])
    print(f'{args.runs} agent runs per process, {args.rounds} interleaved rounds; median of per-run means')
    print(f'{"configuration":<14} {"per run (ms)":>13} {"vs no exporter":>15} {"shutdown (s)":>13}')
    for config in CONFIGS:
        per_run = statistics.median(r['per_run_s'] for r in results[config])
        shutdown = statistics.median(r['shutdown_s'] for r in results[config])
        print(f'{config:<14} {per_run * 1e3:>13.3f} {per_run / baseline:>14.2f}x {shutdown:>13.2f}')


if __name__ == '__main__':
    main()
