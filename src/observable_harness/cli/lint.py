"""`observable-harness lint PATH...`: find tools that return unbounded or unmarked output."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        'lint',
        help='find tool functions that return unbounded or unmarked command output or file contents',
        description=(
            'Prints `path:line: CODE message` per finding. Exit status: 0 clean, 1 findings, 2 a file or path '
            'that cannot be checked (or a bad configuration). Codes: BTO001 command output returned without a '
            'bound, BTO002 whole file, document or web page contents returned without a bound, BTO003 output cut '
            'to a fixed size without telling the model, BTO000 a file that cannot be parsed; `--explain CODE` '
            'says more. '
            'A `# noqa: BTO001` comment on the return line silences a finding. Extra sources and bounds: '
            '[tool.observable-harness.lint] in pyproject.toml (command-sources, file-sources, bounds).'
        ),
    )
    parser.add_argument('paths', nargs='*', metavar='PATH', help='Python files or directories to check, together')
    parser.add_argument('--explain', metavar='CODE', help='print what a code means, with a wrong and a right example')
    parser.add_argument('--format', choices=('text', 'json'), default='text', help='json: one array of findings')
    parser.add_argument(
        '--config', metavar='PYPROJECT', help='pyproject.toml to read (default: the nearest one above the first PATH)'
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..lint import CODES, ConfigError, LintConfig, explain, find_config, lint_paths, load_config

    if args.explain:
        code = str(args.explain).strip().upper()
        if code not in CODES:
            print(f'observable-harness lint: no code {args.explain!r}; codes: {", ".join(CODES)}', file=sys.stderr)
            return 2
        print(explain(code), end='')
        return 0
    if not args.paths:
        print('observable-harness lint: give at least one PATH (or --explain CODE)', file=sys.stderr)
        return 2
    try:
        config_path = args.config or find_config(args.paths)
        config = load_config(config_path) if config_path else LintConfig()
        findings = lint_paths(args.paths, config)
    except (FileNotFoundError, ConfigError) as error:
        print(f'observable-harness lint: {error}', file=sys.stderr)
        return 2
    if args.format == 'json':
        print(json.dumps([finding.as_dict() for finding in findings], indent=2))
    else:
        for finding in findings:
            print(finding)
    if any(finding.code == 'BTO000' for finding in findings):
        return 2
    return 1 if findings else 0
