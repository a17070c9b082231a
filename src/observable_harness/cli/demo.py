"""`observable-harness demo`: the main job, a scripted agent run over realistic tool traffic."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser('demo', help='run the scripted demo workload')
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    print('observable-harness demo: the scripted workload arrives with ToolOutputLimits.')
    return 0
