"""`observable-harness` command line: thin wrappers that parse arguments and call library code."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .._extras import MissingExtra
from .._version import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog='observable-harness',
        description='Tool-output limits and system reminders for pydantic-ai agents, observable through OpenTelemetry.',
    )
    parser.add_argument('--version', action='version', version=f'%(prog)s {__version__}')
    commands = parser.add_subparsers(dest='command', required=True, metavar='COMMAND')
    from . import assets, calibrate, demo, lint

    demo.add_parser(commands)
    calibrate.add_parser(commands)
    lint.add_parser(commands)
    assets.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except MissingExtra as error:
        print(f'observable-harness {args.command}: {error}', file=sys.stderr)
        return 2


if __name__ == '__main__':  # pragma: no cover
    sys.exit(main())
