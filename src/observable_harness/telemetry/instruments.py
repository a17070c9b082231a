"""Lazily acquired OpenTelemetry tracer and meter, and the cheap hot-path recorders behind them.

Library code reaches OpenTelemetry only through this module and only through the API package, so
whatever provider the application installs (`logfire.configure()`, an SDK set up by hand, our own
`telemetry.configure()`), before or after an agent is built, receives everything.

Why the metrics do not call SDK instruments directly: with the SDK installed, one `Counter.add` with
four attributes costs about 25 us on a 2-core CI machine (attribute cleaning, sorting and hashing
on every call), ten times what a whole passthrough decision may cost. So the hot path only bumps an
in-process cumulative cell keyed by the label tuple (a dict update under a lock, well under 1 us),
and the SDK reads the cells through observable counters when a reader collects. Counters keep exact
counter semantics that way. Histogram samples are queued and handed to real SDK histograms in the
same collection pass (the SDK runs observable callbacks before it gathers synchronous instruments),
or inline once the queue reaches `_MAX_PENDING_SAMPLES`, so memory stays bounded when nothing collects.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, Self, TypeAlias, cast

from opentelemetry import metrics, trace
from opentelemetry.metrics import CallbackOptions, Meter, Observation
from opentelemetry.trace import Span, Tracer
from opentelemetry.util.types import AttributeValue

from . import names
from .names import MetricSpec

__all__ = [
    'Counter',
    'Gauge',
    'Histogram',
    'LabelValue',
    'flush_pending_samples',
    'get_tracer',
    'span',
]

LabelValue: TypeAlias = str | bool | int
Attributes: TypeAlias = Mapping[str, AttributeValue]

_MAX_PENDING_SAMPLES = 4096
_log = logging.getLogger('observable_harness.telemetry')

_tracer: Tracer | None = None


def get_tracer() -> Tracer:
    """The library's tracer, from the global provider on first use.

    Before an SDK is installed the API hands out a proxy tracer that forwards to whatever provider
    is installed later, so caching it is safe.
    """
    global _tracer
    if _tracer is None:
        _tracer = trace.get_tracer(names.INSTRUMENTATION_SCOPE)
    return _tracer


@contextmanager
def span(name: str, attributes: Attributes | None = None) -> Generator[Span]:
    """Open a span as the current span, so spans started inside it (and pydantic-ai's) nest under it.

    Exceptions from the body propagate unchanged; the span records them as OpenTelemetry does.
    """
    with get_tracer().start_as_current_span(name, attributes=attributes) as current:
        yield current


class _Instruments:
    """Creates the observable instruments on the global meter the first time any recorder is used."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.registered = False
        self._counters: list[Counter] = []
        self._gauges: list[Gauge] = []
        self._histograms: list[Histogram] = []
        self.by_name: dict[str, Counter | Gauge | Histogram] = {}

    def add(self, instrument: Counter | Gauge | Histogram) -> None:
        with self._lock:
            self.by_name[instrument.spec.name] = instrument
            if isinstance(instrument, Counter):
                self._counters.append(instrument)
            elif isinstance(instrument, Gauge):
                self._gauges.append(instrument)
            else:
                self._histograms.append(instrument)
            if self.registered:
                # A module imported after the first recording still gets its instruments exposed.
                self._bind(instrument)

    def _bind(self, instrument: Counter | Gauge | Histogram) -> None:
        try:
            instrument.bind(metrics.get_meter(names.INSTRUMENTATION_SCOPE))
        except Exception:  # pragma: no cover - the API never raises here; a broken SDK must not stop a run
            _log.exception('observable_harness: could not register %s', instrument.spec.name)

    def ensure_registered(self) -> None:
        if self.registered:
            return
        with self._lock:
            if self.registered:
                return
            # Histograms first: counter callbacks flush their queues and need them bound.
            for instrument in (*self._histograms, *self._counters, *self._gauges):
                self._bind(instrument)
            self.registered = True

    def flush_histograms(self) -> None:
        for histogram in self._histograms:
            histogram.flush()


_INSTRUMENTS = _Instruments()


def flush_pending_samples() -> None:
    """Hand every queued histogram sample to the SDK now (collection does this by itself)."""
    _INSTRUMENTS.flush_histograms()


def _labels(spec: MetricSpec, key: Sequence[LabelValue]) -> dict[str, AttributeValue]:
    return dict(zip(spec.labels, key, strict=True))


class _Recorder:
    """What the three recorders share: one instance per instrument name, registered for binding."""

    __slots__ = ('_lock', 'spec')
    kind: ClassVar[str]

    def __new__(cls, spec: MetricSpec) -> Self:
        # One recorder per instrument name, whoever asks: two observable instruments of one name
        # would make the SDK drop one of them, and with it half the data.
        existing = _INSTRUMENTS.by_name.get(spec.name)
        if existing is not None:
            if not isinstance(existing, cls) or existing.spec != spec:
                raise ValueError(f'instrument {spec.name!r} is already registered as {existing.spec!r}')
            return existing
        return super().__new__(cls)

    def _claim(self, spec: MetricSpec) -> bool:
        """Set up a new recorder; False when `__new__` returned the one already registered."""
        if _INSTRUMENTS.by_name.get(spec.name) is self:
            return False
        if spec.kind != self.kind:
            raise ValueError(f'{spec.name!r} is a {spec.kind}, not a {self.kind}')
        self.spec = spec
        self._lock = threading.Lock()
        return True

    def _register(self) -> None:
        _INSTRUMENTS.add(cast('Counter | Gauge | Histogram', self))


class Counter(_Recorder):
    """A monotonic counter whose cumulative cells the SDK observes at collection time.

    `add(amount, *label_values)` takes label values in the order of `spec.labels`.
    """

    __slots__ = ('_values',)
    kind = 'counter'

    def __init__(self, spec: MetricSpec) -> None:
        if self._claim(spec):
            self._values: dict[tuple[LabelValue, ...], float] = {}
            self._register()

    def add(self, amount: float, *label_values: LabelValue) -> None:
        if not _INSTRUMENTS.registered:
            _INSTRUMENTS.ensure_registered()
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

    def bind(self, meter: Meter) -> None:
        meter.create_observable_counter(
            self.spec.name,
            callbacks=[self._observe],
            unit=self.spec.unit,
            description=self.spec.description,
        )

    def _observe(self, options: CallbackOptions) -> Iterable[Observation]:
        # Collection reaches every observable callback before it gathers synchronous instruments,
        # so queued histogram samples handed over here land in this very collection.
        _INSTRUMENTS.flush_histograms()
        with self._lock:
            snapshot = list(self._values.items())
        return [Observation(value, _labels(self.spec, key)) for key, value in snapshot]


class Gauge(_Recorder):
    """A last-value gauge (configured thresholds), observed at collection time."""

    __slots__ = ('_values',)
    kind = 'gauge'

    def __init__(self, spec: MetricSpec) -> None:
        if self._claim(spec):
            self._values: dict[tuple[LabelValue, ...], float] = {}
            self._register()

    def set(self, value: float, *label_values: LabelValue) -> None:
        _INSTRUMENTS.ensure_registered()
        with self._lock:
            self._values[label_values] = value

    def bind(self, meter: Meter) -> None:
        meter.create_observable_gauge(
            self.spec.name,
            callbacks=[self._observe],
            unit=self.spec.unit,
            description=self.spec.description,
        )

    def _observe(self, options: CallbackOptions) -> Iterable[Observation]:
        with self._lock:
            snapshot = list(self._values.items())
        return [Observation(value, _labels(self.spec, key)) for key, value in snapshot]


class Histogram(_Recorder):
    """A histogram whose samples are queued on the hot path and recorded by the SDK at collection."""

    __slots__ = ('_instrument', '_pending')
    kind = 'histogram'

    def __init__(self, spec: MetricSpec) -> None:
        if self._claim(spec):
            self._pending: list[tuple[float, tuple[LabelValue, ...]]] = []
            self._instrument: Any = None
            self._register()

    def record(self, value: float, *label_values: LabelValue) -> None:
        if not _INSTRUMENTS.registered:
            _INSTRUMENTS.ensure_registered()
        with self._lock:
            self._pending.append((value, label_values))
            full = len(self._pending) >= _MAX_PENDING_SAMPLES
        if full:
            self.flush()

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
            return
        record: Callable[..., None] = instrument.record
        cache: dict[tuple[LabelValue, ...], dict[str, AttributeValue]] = {}
        for value, key in pending:
            attributes = cache.get(key)
            if attributes is None:
                attributes = cache[key] = _labels(self.spec, key)
            try:
                record(value, attributes)
            except Exception:  # pragma: no cover - a broken SDK must not lose the rest of the batch
                _log.exception('observable_harness: could not record %s', self.spec.name)
