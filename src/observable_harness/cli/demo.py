"""`observable-harness demo`: the main job, agent sessions over realistic tool traffic."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._extras import needs_extra
from . import telemetry_options


def model_problem(model: str) -> str | None:
    """Why `model` cannot be used (an unknown provider, a missing API key or package), in one line; else `None`."""
    from pydantic_ai.models import infer_model

    try:
        infer_model(model)
    except Exception as error:  # UserError, ImportError, a provider's own complaint: all one line for the user
        return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return None


def add_parser(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        'demo',
        help='run agents with the capabilities over realistic tool traffic and show what was saved',
        description='Run scripted agent sessions (no API key needed) with ToolOutputLimits and SystemReminders, '
        'print every decision with totals, and serve the metrics on a local Prometheus endpoint.',
    )
    parser.add_argument('--serve', action='store_true', help='keep serving metrics (and traffic) until interrupted')
    parser.add_argument('--model', help="a real model, e.g. 'openai:gpt-4o', instead of the scripted one")
    parser.add_argument('--no-progress', action='store_true', help='no progress bar (for logs and pipes)')
    telemetry_options.add_arguments(parser)
    parser.set_defaults(run=run, service_name='observable-harness-demo')


def run(args: argparse.Namespace) -> int:
    with needs_extra('cli', 'observable-harness demo'):
        from ..demo import DemoOptions, run_demo
    if args.model is not None:
        problem = model_problem(args.model)
        if problem is not None:
            print(f'observable-harness demo: --model {args.model!r}: {problem}', file=sys.stderr)
            return 2

    telemetry = telemetry_options.configure_from(args)
    return run_demo(DemoOptions(serve=args.serve, model=args.model, progress=not args.no_progress), telemetry)
