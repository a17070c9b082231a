"""`observable-harness calibrate`: propose per-tool bands from measured tool-output sizes."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..calibration import CalibrationError, Limits, check_window, load, propose, render_python


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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        limits = Limits(budget=args.budget, floor=args.floor, min_samples=args.min_samples)
        distributions = load(args.source, window=check_window(args.window))
    except (CalibrationError, ValueError) as error:
        print(f'observable-harness calibrate: {error}', file=sys.stderr)
        return 2
    proposals = [propose(distribution, limits) for distribution in distributions]
    sys.stdout.write(render_python(proposals, source=args.source, limits=limits))
    return 0
