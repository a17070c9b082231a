"""A real Prometheus scrapes `configure()`'s embedded endpoint, fed by the library's own recorders, and
evaluates every alert expression and every dashboard query; its rule engine loads the shipped rules and
fires the alerts that need no waiting."""

from __future__ import annotations

import json
import sys
import urllib.parse

import pytest

from observable_harness.ops import alerts
from observable_harness.telemetry import names
from tests.e2e.prometheus import (
    PROMETHEUS,
    REPO_ROOT,
    queries_without_series,
    running_prometheus,
    serving,
    shipped_expressions,
)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(PROMETHEUS is None, reason='prometheus missing: .ci/run installs Debian prometheus'),
]


def catalog_child() -> list[str]:
    return [
        sys.executable,
        '-m',
        'tests.telemetry_child',
        '--configure',
        json.dumps({'metrics_port': 0}),
        '--workload',
        'catalog',
        '--serve',
        '--tick',
        '0.3',
    ]


def test_prometheus_scrapes_the_endpoint_and_every_alert_and_dashboard_query_returns_series() -> None:
    with serving(catalog_child()) as child:
        target = urllib.parse.urlsplit(child.ready['metrics_url']).netloc
        rules = [REPO_ROOT / 'dashboards' / alerts.RULES_FILE]
        with running_prometheus([target], rule_files=rules) as prometheus:
            # Rates need two scrapes of a moving counter.
            prometheus.wait_for(f'sum(rate({names.DECISIONS.exposed}[1m])) > 0')
            [up] = prometheus.query('up')
            assert up['value'][1] == '1'

            assert queries_without_series(prometheus, shipped_expressions()) == []

            # Prometheus's own rule engine loads the shipped file and fires what has no `for:` delay.
            loaded = prometheus.rules()
            assert {rule['name'] for rule in loaded} == {alert.name for alert in alerts.ALERTS}
            assert all(rule['health'] == 'ok' for rule in loaded), loaded
            for alert in alerts.ALERTS:
                if alert.operands:
                    continue  # needs hours of history to hold; promtool's unit tests cover it
                state = 'firing' if alert.for_ == '0m' else 'pending'
                prometheus.wait_for(f'ALERTS{{alertname="{alert.name}", alertstate="{state}"}}')
