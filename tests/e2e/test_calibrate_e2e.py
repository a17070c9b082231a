"""`calibrate` against a real Prometheus server scraping a `configure()` endpoint fed with real traffic:
the distributions it reads through the HTTP API are the recorded ones, and its percentiles are the
ones Prometheus (and so the dashboards) computes."""

from __future__ import annotations

import math
import sys
import urllib.parse

import pytest

from observable_harness import calibration
from observable_harness.telemetry import names
from tests.e2e.prometheus import PROMETHEUS, running_prometheus, serving
from tests.telemetry_child import traffic_sizes

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(PROMETHEUS is None, reason='prometheus missing: .ci/run installs Debian prometheus'),
]


def test_calibrate_reads_prometheus_and_agrees_with_histogram_quantile() -> None:
    measured = traffic_sizes()
    command = [sys.executable, '-m', 'tests.telemetry_child', '--configure', '{"metrics_port": 0}']
    with serving([*command, '--workload', 'traffic', '--serve']) as child:
        target = urllib.parse.urlsplit(child.ready['metrics_url']).netloc
        with running_prometheus([target]) as prometheus:
            bucket = f'{names.SIZE_CHARS.exposed}_bucket'
            prometheus.wait_for(f'count(count by (tool) ({bucket})) == {len(measured)}')
            distributions = {d.tool: d for d in calibration.load(prometheus.url, window='10m')}
            assert set(distributions) == set(measured)
            for tool, samples in measured.items():
                d = distributions[tool]
                assert d.count == len(samples)
                assert d.total == sum(samples)
                for q in (0.5, 0.9, 0.99):
                    [series] = prometheus.query(f'histogram_quantile({q}, sum by (le) ({bucket}{{tool="{tool}"}}))')
                    assert math.isclose(d.quantile(q), float(series['value'][1]), rel_tol=1e-9), (tool, q)
