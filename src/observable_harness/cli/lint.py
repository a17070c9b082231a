"""`observable-harness lint PATH...`: find tools that return unbounded or unmarked output."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        'lint',
        help='find tool functions that return unbounded subprocess output or whole-file reads',
        description=(
            'Prints `path:line: CODE message` per finding; exits 1 when there are findings, 0 when clean. '
            'Codes: BTO001 unbounded subprocess output, BTO002 unbounded whole-file read, '
            'BTO003 bounded output without a truncation marker, BTO000 unparsable file. '
            'A `# noqa: BTO001` comment on the return line silences a finding.'
        ),
    )
    parser.add_argument('paths', nargs='+', metavar='PATH', help='Python files or directories to check')
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..lint import lint_paths

    try:
        findings = lint_paths(args.paths)
    except FileNotFoundError as error:
        print(f'observable-harness lint: {error}', file=sys.stderr)
        return 2
    for finding in findings:
        print(finding)
    return 1 if findings else 0
