"""The hot-path recorders reach a real SDK with counter and histogram semantics intact, and an
`Instrumentation` is bound to the providers it was given (or that are global when it records)."""

from __future__ import annotations

from opentelemetry import metrics
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.test.globals_test import reset_metrics_globals, reset_trace_globals

from observable_harness import __version__
from observable_harness.telemetry import Instrumentation, current, names
from observable_harness.telemetry._instruments import MAX_PENDING_SAMPLES
from tests.otel import OTelHarness, install_broken_otel, install_otel

COUNTER = names.MetricSpec('test.instruments.counter', 'counter', '{x}', 'test', ('tool', 'flag'), 'unused')
HISTOGRAM = names.MetricSpec(
    'test.instruments.histogram', 'histogram', '{x}', 'test', ('tool',), 'unused', (10.0, 100.0)
)
GAUGE = names.MetricSpec('test.instruments.gauge', 'gauge', '{x}', 'test', ('tool',), 'unused')


def own() -> tuple[Instrumentation, OTelHarness]:
    """An `Instrumentation` on providers of its own, which are not the global ones."""
    exporter = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    reader = InMemoryMetricReader()
    meter_provider = MeterProvider(metric_readers=[reader])
    instrumentation = Instrumentation(tracer_provider, meter_provider, catalog=(COUNTER, HISTOGRAM, GAUGE))
    return instrumentation, OTelHarness(exporter, reader)


def test_counter_is_cumulative_and_labelled() -> None:
    instrumentation, sdk = own()
    counter = instrumentation.counter(COUNTER)
    counter.add(2, 'fetch', True)
    counter.add(3, 'fetch', True)
    counter.add(1, 'grep', False)
    assert sdk.delta(COUNTER.name, tool='fetch', flag=True) == 5
    assert sdk.delta(COUNTER.name, tool='grep', flag=False) == 1
    # A second collection sees the same cumulative value, not a reset.
    assert sdk.delta(COUNTER.name, tool='fetch') == 5


def test_histogram_samples_reach_the_sdk_in_the_next_collection() -> None:
    instrumentation, sdk = own()
    for value in (5.0, 50.0, 500.0, 500.0):
        instrumentation.histogram(HISTOGRAM).record(value, 'fetch')
    [point] = [p for p in sdk.series(HISTOGRAM.name) if p.attributes == {'tool': 'fetch'}]
    assert point.value == 4
    assert list(point.explicit_bounds) == [10.0, 100.0]
    assert point.sum == 1055.0


def test_histogram_queue_is_bounded_without_collection() -> None:
    instrumentation, sdk = own()
    histogram = instrumentation.histogram(HISTOGRAM)
    for _ in range(MAX_PENDING_SAMPLES + 10):
        histogram.record(1.0, 'bounded')
    assert len(histogram._pending) < MAX_PENDING_SAMPLES
    assert sdk.delta(HISTOGRAM.name, tool='bounded') == MAX_PENDING_SAMPLES + 10


def test_gauge_reports_last_value() -> None:
    instrumentation, sdk = own()
    instrumentation.gauge(GAUGE).set(10_000, 'fetch')
    instrumentation.gauge(GAUGE).set(20_000, 'fetch')
    [point] = [p for p in sdk.series(GAUGE.name) if p.attributes == {'tool': 'fetch'}]
    assert point.value == 20_000


def test_two_instrumentations_on_their_own_providers_do_not_see_each_other() -> None:
    first, first_sdk = own()
    second, second_sdk = own()
    first.counter(COUNTER).add(1, 'a', True)
    second.counter(COUNTER).add(5, 'a', True)
    with second.span(names.SPAN_READ):
        pass
    assert first_sdk.delta(COUNTER.name) == 1
    assert second_sdk.delta(COUNTER.name) == 5
    assert first_sdk.spans() == []
    [read] = second_sdk.spans(names.SPAN_READ)
    assert read.instrumentation_scope is not None
    assert (read.instrumentation_scope.name, read.instrumentation_scope.version) == (
        names.INSTRUMENTATION_SCOPE,
        __version__,
    )


def test_the_current_instrumentation_follows_the_global_providers() -> None:
    first = install_otel()
    current().counter(names.READS).add(2, 'hit')
    assert first.delta(names.READS.name, outcome='hit') == 2
    # New global providers are a new pipeline: the series start from zero there.
    second = install_otel()
    current().counter(names.READS).add(1, 'hit')
    assert second.delta(names.READS.name, outcome='hit') == 1


def test_recording_before_any_sdk_is_kept_for_the_sdk_installed_later() -> None:
    reset_trace_globals()
    reset_metrics_globals()
    assert type(metrics.get_meter_provider()).__name__ == '_ProxyMeterProvider'
    current().counter(names.READS).add(4, 'miss')
    reader = InMemoryMetricReader()
    metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
    current().counter(names.READS).add(1, 'miss')
    sdk = OTelHarness(InMemorySpanExporter(), reader)
    assert sdk.delta(names.READS.name, outcome='miss') == 5


def test_a_broken_sdk_costs_nothing_but_the_data() -> None:
    install_broken_otel()
    instrumentation = current()
    instrumentation.counter(names.READS).add(1, 'hit')
    instrumentation.histogram(names.REDUCE_DURATION).record(0.1, 'fetch', 'spill')
    with instrumentation.span(names.SPAN_REDUCE) as span:
        assert not span.is_recording()
    instrumentation.emit(names.SPAN_READ, {names.TOOL_OUTPUT_READ_OUTCOME: 'hit'})
    assert instrumentation.counter(names.READS).value('hit') == 1


def test_catalog_names_are_unique_and_exposed_names_follow_prometheus_rules() -> None:
    metric_names = [m.name for m in names.ALL_METRICS]
    assert len(set(metric_names)) == len(metric_names)
    for spec in names.ALL_METRICS:
        assert spec.exposed.startswith(spec.name.replace('.', '_'))
        if spec.kind == 'counter':
            assert spec.exposed.endswith('_total')
        # One unit, said once: never `..._bytes_saved_bytes_total`.
        assert spec.exposed.count('bytes') <= 1, spec.exposed
        assert 'size_unit' not in spec.labels, spec.name
