"""A real OpenTelemetry SDK set up with in-memory exporters, plus helpers to read what reached it.

Each test that asks for it gets fresh global providers (OpenTelemetry's own test utilities reset the
"set once" guards), and the library's `Instrumentation` binds to them on its next recording, starting
its series from zero. So a test reads exactly the spans and metric values its own runs produced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import (
    HistogramDataPoint,
    InMemoryMetricReader,
    NumberDataPoint,
)
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.test.globals_test import reset_metrics_globals, reset_trace_globals

from observable_harness.telemetry import current, names

LabelKey = tuple[tuple[str, Any], ...]


def _key(attributes: Mapping[str, Any] | None) -> LabelKey:
    return tuple(sorted((attributes or {}).items()))


@dataclass
class MetricPoint:
    name: str
    attributes: dict[str, Any]
    value: float
    """Counter/gauge value, or histogram count."""
    sum: float = 0.0
    bucket_counts: Sequence[int] = ()
    explicit_bounds: Sequence[float] = ()


@dataclass
class OTelHarness:
    spans_exporter: InMemorySpanExporter
    reader: InMemoryMetricReader
    _baseline: dict[tuple[str, LabelKey], float] = field(default_factory=dict[tuple[str, LabelKey], float])

    def reset(self) -> None:
        self.spans_exporter.clear()
        self._baseline = {(p.name, _key(p.attributes)): p.value for p in self.points()}

    # --- spans -------------------------------------------------------------------------------

    def spans(self, name: str | None = None) -> list[ReadableSpan]:
        finished = list(self.spans_exporter.get_finished_spans())
        return [s for s in finished if name is None or s.name == name]

    def our_spans(self) -> list[ReadableSpan]:
        return [
            s
            for s in self.spans()
            if s.instrumentation_scope and s.instrumentation_scope.name == names.INSTRUMENTATION_SCOPE
        ]

    # --- metrics -----------------------------------------------------------------------------

    def points(self) -> list[MetricPoint]:
        data = self.reader.get_metrics_data()
        out: list[MetricPoint] = []
        if data is None:
            return out
        for resource_metrics in data.resource_metrics:
            for scope_metrics in resource_metrics.scope_metrics:
                for metric in scope_metrics.metrics:
                    for point in metric.data.data_points:
                        attributes = dict(point.attributes or {})
                        if isinstance(point, HistogramDataPoint):
                            out.append(
                                MetricPoint(
                                    metric.name,
                                    attributes,
                                    float(point.count),
                                    point.sum,
                                    list(point.bucket_counts),
                                    list(point.explicit_bounds),
                                )
                            )
                        elif isinstance(point, NumberDataPoint):
                            out.append(MetricPoint(metric.name, attributes, float(point.value)))
        return out

    def delta(self, name: str, **labels: Any) -> float:
        """Sum of the increase since `reset()` over the series of `name` whose labels include `labels`."""
        total = 0.0
        for point in self.points():
            if point.name != name:
                continue
            if any(point.attributes.get(k) != v for k, v in labels.items()):
                continue
            total += point.value - self._baseline.get((point.name, _key(point.attributes)), 0.0)
        return total

    def series(self, name: str) -> list[MetricPoint]:
        return [p for p in self.points() if p.name == name]


def install_otel() -> OTelHarness:
    """Install fresh SDK providers with in-memory exporters as the global providers, with nothing recorded yet."""
    reset_trace_globals()
    reset_metrics_globals()
    current().reset()
    exporter = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(tracer_provider)
    reader = InMemoryMetricReader()
    metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
    return OTelHarness(exporter, reader)


class _BrokenTracer(trace.NoOpTracer):
    def start_span(self, *args: Any, **kwargs: Any) -> trace.Span:
        raise RuntimeError('exporter exploded')

    def start_as_current_span(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError('exporter exploded')


class _BrokenTracerProvider(trace.NoOpTracerProvider):
    def get_tracer(self, *args: Any, **kwargs: Any) -> trace.Tracer:
        return _BrokenTracer()


class _BrokenMeterProvider(metrics.NoOpMeterProvider):
    def get_meter(self, *args: Any, **kwargs: Any) -> metrics.Meter:
        raise RuntimeError('meter exploded')


def install_broken_otel() -> None:
    """Global providers that raise at every call: an SDK (or a wrapper around one) gone wrong."""
    reset_trace_globals()
    reset_metrics_globals()
    trace.set_tracer_provider(_BrokenTracerProvider())
    metrics.set_meter_provider(_BrokenMeterProvider())
