"""`observable-harness calibrate`: propose per-tool bands from measured tool-output sizes."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Any

from ..calibration import (
    CalibrationError,
    Limits,
    check_window,
    is_prometheus_server,
    load,
    load_money,
    propose,
    read_exposition,
    render_python,
    render_ranking,
)


def add_parser(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        'calibrate',
        help='propose ToolOutputLimits bands from the measured output sizes',
        description='Read the tool-output size histograms and print, per tool, the measured distribution and a '
        'proposed band with the reason for its threshold, as Python to paste into ToolOutputLimits(per_tool=...).',
    )
    parser.add_argument(
        'source',
        help='a saved exposition file (`curl http://127.0.0.1:9464/metrics > metrics.txt`; "-" reads stdin), '
        'a live .../metrics URL, or a Prometheus server URL (http://localhost:9090)',
    )
    parser.add_argument('--window', default='7d', help='history to use from a Prometheus server (default: 7d)')
    defaults = Limits()
    parser.add_argument(
        '--budget',
        type=int,
        default=defaults.budget,
        help=f'largest threshold, in characters (default: {defaults.budget:,})',
    )
    parser.add_argument(
        '--floor',
        type=int,
        default=defaults.floor,
        help=f'smallest threshold, in characters (default: {defaults.floor:,})',
    )
    parser.add_argument(
        '--min-samples',
        type=int,
        default=defaults.min_samples,
        help=f'outputs a tool needs before a band is proposed (default: {defaults.min_samples})',
    )
    parser.add_argument(
        '--rank',
        choices=['money'],
        help='instead of proposing bands, rank the tools by what their reductions avoided in money (expected, with '
        'the range from all cache reads to all input price), priced per model with genai-prices',
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        limits = Limits(budget=args.budget, floor=args.floor, min_samples=args.min_samples)
        window = check_window(args.window)
        # Read once: stdin cannot be read twice, and an endpoint's next scrape would be another moment.
        text = None if is_prometheus_server(args.source) else read_exposition(args.source)
        if args.rank == 'money':
            return _rank(args, text)
        distributions = load(args.source, window=window, exposition=text)
        money = {m.tool: m for m in load_money(args.source, window=window, exposition=text)}
    except (CalibrationError, ValueError) as error:
        print(f'observable-harness calibrate: {error}', file=sys.stderr)
        return 2
    proposals = [replace(propose(d, limits), money=money.get(d.tool)) for d in distributions]
    sys.stdout.write(render_python(proposals, source=args.source, limits=limits))
    return 0


def _rank(args: argparse.Namespace, text: str | None) -> int:
    money = load_money(args.source, window=check_window(args.window), exposition=text)
    if not money:
        raise CalibrationError(
            f'{args.source} has no priced re-sends (tool_output_cost_avoided_usd_total): they are recorded when a '
            'model genai-prices knows answers a request after ToolOutputLimits reduced a tool output.'
        )
    sys.stdout.write(render_ranking(money, source=args.source))
    return 0
