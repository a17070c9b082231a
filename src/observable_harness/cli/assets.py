"""`observable-harness assets DIR`: write the dashboards, alert rules, rule tests and configurations that ship."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parser(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        'assets',
        help='write the Grafana dashboards, Prometheus alert rules and their tests, and the configurations',
        description='Write into DIR the two Grafana dashboards (JSON, for Dashboards → Import), the Prometheus '
        'alert rules and their `promtool test rules` tests, a Prometheus scrape configuration that loads the rules, '
        'and an OpenTelemetry Collector configuration.',
    )
    parser.add_argument('directory', type=Path, help='where to write them (created if missing)')
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..ops import assets

    for path in assets.write(args.directory):
        print(f'wrote {path}')
    print(
        f'Next: promtool test rules {args.directory / "alerts.test.yml"}; '
        f'prometheus --config.file={args.directory / "prometheus.yml"}; import the two .json files in Grafana.'
    )
    return 0
