"""`observable-harness demo`: the main job, agent sessions over realistic tool traffic."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        'demo',
        help='run agents with the capabilities over realistic tool traffic and show what was saved',
        description='Run scripted agent sessions (no API key needed) with ToolOutputLimits and SystemReminders, '
        'print every decision with totals, and serve the metrics on a local Prometheus endpoint.',
    )
    parser.add_argument('--serve', action='store_true', help='keep the metrics endpoint up until interrupted')
    parser.add_argument(
        '--metrics-port', type=int, default=9464, help='port of the Prometheus endpoint (0: any free port)'
    )
    parser.add_argument('--no-metrics', action='store_true', help='do not start the Prometheus endpoint')
    parser.add_argument('--model', help="a real model, e.g. 'openai:gpt-4o', instead of the scripted one")
    parser.add_argument('--no-progress', action='store_true', help='no progress bar (for logs and pipes)')
    parser.add_argument('--logfire', action='store_true', help='send traces to Logfire (needs LOGFIRE_TOKEN)')
    parser.add_argument(
        '--otlp-endpoint', help='send traces and metrics over OTLP (default: OTEL_EXPORTER_OTLP_ENDPOINT)'
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..demo import DemoOptions, run_demo

    return run_demo(
        DemoOptions(
            serve=args.serve,
            metrics_port=None if args.no_metrics else args.metrics_port,
            model=args.model,
            progress=not args.no_progress,
            logfire=args.logfire,
            otlp_endpoint=args.otlp_endpoint,
        )
    )
