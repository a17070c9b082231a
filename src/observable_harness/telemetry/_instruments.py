"""`Instrumentation`: this library's tracer and metric recorders, bound to OpenTelemetry providers.

Library code reaches OpenTelemetry only through here, and only through the API package, so whatever
provider the application installs (`logfire.configure()`, an SDK set up by hand,
`observable_harness.otel_setup.configure()`), before or after an agent is built, receives everything.

The state is explicit: an `Instrumentation` holds one recorder per instrument of the catalog and is
bound to a tracer provider and a meter provider. `current()` is the one the capabilities report to:
it follows the OpenTelemetry API's global providers, and binds to a new global meter provider when one
is installed, so a process (or a test) that swaps providers sees its data in the new ones.

Why the metrics do not call SDK instruments on the hot path: with the SDK installed, one `Counter.add`
with four attributes costs about 25 us on a 2-core machine (attribute cleaning, sorting and hashing on
every call), ten times what a whole passthrough decision may cost. So the hot path bumps an in-process
cumulative cell keyed by the label tuple (a dict update under a lock, well under 1 us), and the SDK
reads the cells through observable instruments when a reader collects. Histogram samples are queued
and handed to a real SDK histogram in the same collection pass (the SDK runs observable callbacks
before it gathers synchronous instruments), or inline once the queue is full, so memory stays bounded
when nothing collects.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any, TypeAlias

from opentelemetry import metrics, trace
from opentelemetry.metrics import CallbackOptions, Meter, MeterProvider, Observation
from opentelemetry.trace import Span, Tracer, TracerProvider
from opentelemetry.util.types import AttributeValue

from .._version import __version__
from . import names
from .names import MetricSpec

__all__ = [
    'CumulativeCounter',
    'Instrumentation',
    'LabelValue',
    'LastValueGauge',
    'QueuedHistogram',
    'current',
    'guarded',
]

LabelValue: TypeAlias = str | bool | int
Attributes: TypeAlias = Mapping[str, AttributeValue]

MAX_PENDING_SAMPLES = 4096
"""Histogram samples queued before they are handed to the SDK without waiting for a collection."""

_log = logging.getLogger('observable_harness.telemetry')


@contextmanager
def guarded(what: str) -> Generator[None]:
    """Run reporting code that must never fail the run it reports on: log and drop any error.

    Every telemetry call of this library goes through here (or through a recorder, which only touches
    an in-process dict), so a broken SDK or exporter costs a log line, never a tool call.
    """
    try:
        yield
    except Exception:
        _log.exception('observable_harness: could not record %s', what)


def _labels(spec: MetricSpec, key: Sequence[LabelValue]) -> dict[str, AttributeValue]:
    return dict(zip(spec.labels, key, strict=True))


class _Cells:
    """Values per label tuple, read by the SDK through an observable instrument when a reader collects."""

    __slots__ = ('_lock', '_owner', '_values', 'spec')

    def __init__(self, spec: MetricSpec, owner: Instrumentation) -> None:
        self.spec = spec
        self._owner = owner
        self._lock = threading.Lock()
        self._values: dict[tuple[LabelValue, ...], float] = {}

    def reset(self) -> None:
        with self._lock:
            self._values.clear()

    def _observe(self, options: CallbackOptions) -> Iterable[Observation]:
        with self._lock:
            snapshot = list(self._values.items())
        return [Observation(value, _labels(self.spec, key)) for key, value in snapshot]


class CumulativeCounter(_Cells):
    """A monotonic counter: cumulative cells per label tuple that the SDK observes at collection time.

    `add(amount, *label_values)` takes label values in the order of `spec.labels`.
    """

    __slots__ = ()

    def add(self, amount: float, *label_values: LabelValue) -> None:
        self._owner.ensure_bound()
        with self._lock:
            self._values[label_values] = self._values.get(label_values, 0) + amount

    def value(self, *label_values: LabelValue) -> float:
        """The cumulative value of one series (0 when it has never been recorded)."""
        with self._lock:
            return self._values.get(label_values, 0)

    def total(self) -> float:
        """The cumulative value summed over every series."""
        with self._lock:
            return sum(self._values.values())

    def snapshot(self) -> dict[tuple[LabelValue, ...], float]:
        """Every series' cumulative value, keyed by its label values (in the order of `spec.labels`)."""
        with self._lock:
            return dict(self._values)

    def bind(self, meter: Meter) -> None:
        meter.create_observable_counter(
            self.spec.name, callbacks=[self._observe], unit=self.spec.unit, description=self.spec.description
        )

    def _observe(self, options: CallbackOptions) -> Iterable[Observation]:
        # Collection reaches every observable callback before it gathers synchronous instruments,
        # so queued histogram samples handed over here land in this very collection.
        self._owner.flush_pending_samples()
        return super()._observe(options)


class LastValueGauge(_Cells):
    """A last-value gauge (configured thresholds, prices), observed at collection time."""

    __slots__ = ()

    def set(self, value: float, *label_values: LabelValue) -> None:
        self._owner.ensure_bound()
        with self._lock:
            self._values[label_values] = value

    def value(self, *label_values: LabelValue) -> float | None:
        with self._lock:
            return self._values.get(label_values)

    def bind(self, meter: Meter) -> None:
        meter.create_observable_gauge(
            self.spec.name, callbacks=[self._observe], unit=self.spec.unit, description=self.spec.description
        )


class QueuedHistogram:
    """A histogram whose samples are queued on the hot path and recorded by the SDK at collection."""

    __slots__ = ('_instrument', '_lock', '_owner', '_pending', 'spec')

    def __init__(self, spec: MetricSpec, owner: Instrumentation) -> None:
        self.spec = spec
        self._owner = owner
        self._lock = threading.Lock()
        self._pending: list[tuple[float, tuple[LabelValue, ...]]] = []
        self._instrument: Any = None

    def record(self, value: float, *label_values: LabelValue) -> None:
        self._owner.ensure_bound()
        with self._lock:
            self._pending.append((value, label_values))
            full = len(self._pending) >= MAX_PENDING_SAMPLES
        if full:
            self.flush()

    def reset(self) -> None:
        with self._lock:
            self._pending.clear()
            self._instrument = None

    def bind(self, meter: Meter) -> None:
        self._instrument = meter.create_histogram(
            self.spec.name,
            unit=self.spec.unit,
            description=self.spec.description,
            explicit_bucket_boundaries_advisory=list(self.spec.buckets) or None,
        )

    def flush(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, []
        instrument = self._instrument
        if instrument is None or not pending:
            if pending:  # not bound yet: keep them for the provider that comes
                with self._lock:
                    self._pending[:0] = pending[-MAX_PENDING_SAMPLES:]
            return
        record: Callable[..., None] = instrument.record
        cache: dict[tuple[LabelValue, ...], dict[str, AttributeValue]] = {}
        for value, key in pending:
            attributes = cache.get(key)
            if attributes is None:
                attributes = cache[key] = _labels(self.spec, key)
            with guarded(self.spec.name):
                record(value, attributes)


Recorder: TypeAlias = CumulativeCounter | LastValueGauge | QueuedHistogram


def _is_placeholder(provider: object) -> bool:
    # Before an SDK is installed the API hands out a proxy provider that forwards instruments created on
    # it to the provider set later. Binding to it and then to that provider would register every
    # instrument twice, and the SDK drops one of two same-named instruments, so the proxy is skipped.
    return type(provider).__name__ == '_ProxyMeterProvider'


class Instrumentation:
    """This library's tracer and one recorder per catalog instrument, bound to OpenTelemetry providers.

    With no providers given it follows the API's global ones (what `current()` returns); pass providers
    to report somewhere else, as tests and multi-tenant hosts do.

    ```python
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider

    from observable_harness.telemetry import Instrumentation, names

    reader = InMemoryMetricReader()
    instrumentation = Instrumentation(TracerProvider(), MeterProvider(metric_readers=[reader]))
    instrumentation.counter(names.READS).add(1, 'hit')
    assert instrumentation.counter(names.READS).value('hit') == 1
    ```
    """

    def __init__(
        self,
        tracer_provider: TracerProvider | None = None,
        meter_provider: MeterProvider | None = None,
        *,
        catalog: Sequence[MetricSpec] = names.ALL_METRICS,
    ) -> None:
        self._tracer_provider = tracer_provider
        self._meter_provider = meter_provider
        self._lock = threading.Lock()
        self._tracer: Tracer | None = None
        self._tracer_from: object = None
        self._bound_to: object = None
        self._recorders: dict[str, Recorder] = {}
        for spec in catalog:
            self._recorders[spec.name] = _RECORDER_KINDS[spec.kind](spec, self)
        self._histograms = [r for r in self._recorders.values() if isinstance(r, QueuedHistogram)]

    # --- tracing ------------------------------------------------------------------------------

    @property
    def tracer(self) -> Tracer:
        """The library's tracer (scope `observable_harness`, with the package version)."""
        provider = self._tracer_provider or trace.get_tracer_provider()
        tracer = self._tracer
        if tracer is None or provider is not self._tracer_from:
            tracer = self._tracer = provider.get_tracer(names.INSTRUMENTATION_SCOPE, __version__)
            self._tracer_from = provider
        return tracer

    @contextmanager
    def span(self, name: str, attributes: Attributes | None = None) -> Generator[Span]:
        """Open a span as the current span, so spans started inside it (and pydantic-ai's) nest under it.

        Exceptions from the body propagate unchanged; the span records them as OpenTelemetry does. A tracer
        that cannot start a span (a broken SDK) costs a log line: the body runs under a non-recording span.
        """
        with ExitStack() as stack:
            current_span: Span = trace.INVALID_SPAN
            with guarded(name):
                current_span = stack.enter_context(self.tracer.start_as_current_span(name, attributes=attributes))
            yield current_span

    def emit(
        self, name: str, attributes: Attributes, *, start_ns: int | None = None, end_ns: int | None = None
    ) -> None:
        """Record a finished span that nothing nests under (not made current: attaching a context costs)."""
        with guarded(name):
            started = self.tracer.start_span(name, attributes=attributes, start_time=start_ns)
            started.end(end_time=end_ns if end_ns is None or start_ns is None else max(start_ns, end_ns))

    # --- metrics ------------------------------------------------------------------------------

    def counter(self, spec: MetricSpec) -> CumulativeCounter:
        recorder = self._recorders[spec.name]
        assert isinstance(recorder, CumulativeCounter)
        return recorder

    def histogram(self, spec: MetricSpec) -> QueuedHistogram:
        recorder = self._recorders[spec.name]
        assert isinstance(recorder, QueuedHistogram)
        return recorder

    def gauge(self, spec: MetricSpec) -> LastValueGauge:
        recorder = self._recorders[spec.name]
        assert isinstance(recorder, LastValueGauge)
        return recorder

    def reset(self) -> None:
        """Forget every value recorded so far (a test starting clean, a process starting a new pipeline)."""
        with self._lock:
            for recorder in self._recorders.values():
                recorder.reset()

    def flush_pending_samples(self) -> None:
        """Hand every queued histogram sample to the SDK now (collection does this by itself)."""
        for histogram in self._histograms:
            histogram.flush()

    def ensure_bound(self) -> None:
        """Register the observable instruments with the meter provider in effect, once per provider."""
        provider = self._meter_provider or metrics.get_meter_provider()
        if provider is self._bound_to:
            return
        if _is_placeholder(provider):
            if self._bound_to is not None:
                # The global providers were taken away (a test resetting them): whatever is recorded from now
                # on belongs to the next provider installed.
                with self._lock:
                    self._bound_to = None
                    for recorder in self._recorders.values():
                        recorder.reset()
            return
        with self._lock:
            if provider is self._bound_to:
                return
            if self._bound_to is not None:
                # A new provider is a new pipeline: cumulative series start again from zero in it.
                for recorder in self._recorders.values():
                    recorder.reset()
            self._bound_to = provider
            with guarded('instrument registration'):
                meter = provider.get_meter(names.INSTRUMENTATION_SCOPE, __version__)
                # Histograms first: counter callbacks flush their queues and need them bound.
                for histogram in self._histograms:
                    histogram.bind(meter)
                for recorder in self._recorders.values():
                    if not isinstance(recorder, QueuedHistogram):
                        recorder.bind(meter)


_RECORDER_KINDS: dict[str, Callable[[MetricSpec, Instrumentation], Recorder]] = {
    'counter': CumulativeCounter,
    'gauge': LastValueGauge,
    'histogram': QueuedHistogram,
}

_default_lock = threading.Lock()
_default: Instrumentation | None = None


def current() -> Instrumentation:
    """The `Instrumentation` the capabilities report to: bound to the OpenTelemetry API's global providers."""
    global _default
    instrumentation = _default
    if instrumentation is None:
        with _default_lock:
            if _default is None:
                _default = Instrumentation()
            instrumentation = _default
    return instrumentation
