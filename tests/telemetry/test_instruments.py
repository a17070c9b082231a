"""The hot-path recorders reach a real SDK with counter and histogram semantics intact."""

from __future__ import annotations

import pytest

from observable_harness.telemetry import instruments, names
from tests.otel import OTelHarness

_TEST_COUNTER = instruments.Counter(
    names.MetricSpec('test.instruments.counter', 'counter', '{x}', 'test', ('tool', 'flag'), 'unused')
)
_TEST_HISTOGRAM = instruments.Histogram(
    names.MetricSpec('test.instruments.histogram', 'histogram', '{x}', 'test', ('tool',), 'unused', (10.0, 100.0))
)
_TEST_GAUGE = instruments.Gauge(names.MetricSpec('test.instruments.gauge', 'gauge', '{x}', 'test', ('tool',), 'unused'))


def test_counter_is_cumulative_and_labelled(otel: OTelHarness) -> None:
    _TEST_COUNTER.add(2, 'fetch', True)
    _TEST_COUNTER.add(3, 'fetch', True)
    _TEST_COUNTER.add(1, 'grep', False)
    assert otel.delta('test.instruments.counter', tool='fetch', flag=True) == 5
    assert otel.delta('test.instruments.counter', tool='grep', flag=False) == 1
    # A second collection sees the same cumulative value, not a reset.
    assert otel.delta('test.instruments.counter', tool='fetch') == 5


def test_histogram_samples_reach_the_sdk_in_the_next_collection(otel: OTelHarness) -> None:
    for value in (5.0, 50.0, 500.0, 500.0):
        _TEST_HISTOGRAM.record(value, 'fetch')
    [point] = [p for p in otel.series('test.instruments.histogram') if p.attributes == {'tool': 'fetch'}]
    assert otel.delta('test.instruments.histogram', tool='fetch') == 4
    assert list(point.explicit_bounds) == [10.0, 100.0]
    assert point.sum >= 1055.0


def test_histogram_queue_is_bounded_without_collection(otel: OTelHarness) -> None:
    for _ in range(instruments._MAX_PENDING_SAMPLES + 10):
        _TEST_HISTOGRAM.record(1.0, 'bounded')
    assert len(_TEST_HISTOGRAM._pending) < instruments._MAX_PENDING_SAMPLES
    assert otel.delta('test.instruments.histogram', tool='bounded') == instruments._MAX_PENDING_SAMPLES + 10


def test_gauge_reports_last_value(otel: OTelHarness) -> None:
    _TEST_GAUGE.set(10_000, 'fetch')
    _TEST_GAUGE.set(20_000, 'fetch')
    [point] = [p for p in otel.series('test.instruments.gauge') if p.attributes == {'tool': 'fetch'}]
    assert point.value == 20_000


def test_catalog_names_are_unique_and_exposed_names_follow_prometheus_rules() -> None:
    metric_names = [m.name for m in names.ALL_METRICS]
    assert len(set(metric_names)) == len(metric_names)
    for spec in names.ALL_METRICS:
        assert spec.exposed.startswith(spec.name.replace('.', '_'))
        if spec.kind == 'counter':
            assert spec.exposed.endswith('_total')


def test_one_recorder_per_instrument_name() -> None:
    again = instruments.Counter(_TEST_COUNTER.spec)
    assert again is _TEST_COUNTER
    with pytest.raises(ValueError, match='already registered'):
        instruments.Histogram(
            names.MetricSpec('test.instruments.counter', 'histogram', '{x}', 'test', ('tool',), 'unused', (1.0,))
        )
