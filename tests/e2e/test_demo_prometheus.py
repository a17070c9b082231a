"""The README's main job, scraped by a real Prometheus: every dashboard query and alert expression has
data, and `calibrate` proposes bands from the demo's real size distribution."""

from __future__ import annotations

import ast
import sys
import urllib.parse
from pathlib import Path

import pytest

from observable_harness import calibration
from observable_harness.ops import alerts, snapshot
from observable_harness.telemetry import names
from tests.e2e.prometheus import (
    PROMETHEUS,
    REPO_ROOT,
    http_get,
    queries_without_series,
    running_prometheus,
    serving,
    shipped_expressions,
)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(PROMETHEUS is None, reason='prometheus missing: .ci/run installs Debian prometheus'),
]

DEMO = [sys.executable, '-m', 'observable_harness', 'demo', '--serve', '--metrics-port', '0', '--no-progress']


def test_demo_feeds_every_dashboard_query_and_alert_and_calibrate(tmp_path: Path) -> None:
    with serving(DEMO) as demo:
        metrics_url = demo.ready['metrics_url']
        target = urllib.parse.urlsplit(metrics_url).netloc
        rules = [REPO_ROOT / 'dashboards' / alerts.RULES_FILE]
        with running_prometheus([target], rule_files=rules) as prometheus:
            # The served demo keeps repeating its sessions, so rates and increases become non-zero.
            prometheus.wait_for(f'sum(increase({names.SPILL_FAILURES.exposed}[1m])) > 0')
            prometheus.wait_for(f'sum(increase({names.REMINDERS_GENERATE_FALLBACKS.exposed}[1m])) > 0')
            prometheus.wait_for(f'sum(increase({names.PRUNE_FAILURES.exposed}[1m])) > 0')
            assert queries_without_series(prometheus, shipped_expressions()) == []
            # Prometheus's rule engine fires the alerts that need no waiting from the demo's traffic alone.
            prometheus.wait_for('ALERTS{alertname="ToolOutputSpillFailing", alertstate="firing"}')
            prometheus.wait_for('ALERTS{alertname="ToolOutputPruneFailing", alertstate="firing"}')
            # calibrate ranks the tools by money from the Prometheus server as well as from an exposition.
            from_prometheus = calibration.rank_by_money(calibration.load_money(prometheus.url, window='10m'))
        exposition = http_get(metrics_url)
    assert 'Read-backs through read_tool_result' in ' '.join(demo.output().split())

    # calibrate, on a distribution it did not make up.
    saved = tmp_path / 'demo.prom'
    saved.write_text(exposition)
    distributions = {d.tool: d for d in calibration.load(str(saved)) if d.size_unit == 'chars'}
    assert {'run_tests', 'list_files', 'read_source', 'fetch_logs', 'service_status'} <= set(distributions)
    assert distributions['list_files'].count >= 1
    proposals = [calibration.propose(d) for d in distributions.values()]
    source = calibration.render_python(proposals, source=str(saved))
    ast.parse(source)
    namespace: dict[str, object] = {}
    exec(compile(source, 'calibrated.py', 'exec'), namespace)  # the printed Python really builds the capability
    assert any(type(value).__name__ == 'ToolOutputLimits' for value in namespace.values())

    # Money ranking: the largest outputs, re-sent over the most requests, avoided the most; the same order either way.
    from_exposition = calibration.rank_by_money(calibration.parse_money(exposition))
    assert [m.tool for m in from_exposition][:2] == ['list_files', 'fetch_logs']
    assert [m.tool for m in from_prometheus][:2] == ['list_files', 'fetch_logs']
    for money in from_exposition:
        assert money.models == ('claude-sonnet-4-6',)
        assert money.expected is not None
        assert 0 < money.lower < money.expected <= money.upper
        assert money.upper == pytest.approx(10 * money.lower)  # a cache read costs a tenth of input on this model

    # The README's picture is drawn from this same exposition.
    png = snapshot.render(exposition, tmp_path / 'dashboard.png')
    assert png.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'
    assert png.stat().st_size > 20_000
