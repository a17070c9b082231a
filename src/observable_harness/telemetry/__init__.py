"""OpenTelemetry instrumentation of observable-harness: the name catalog and the recorders.

Library code uses only the OpenTelemetry API. Install any SDK (or call `logfire.configure()`) before
or after building an agent and the spans and metrics reach it; or call
`observable_harness.otel_setup.configure()` (the `telemetry` extra) for a local Prometheus endpoint,
OTLP export and Logfire in one line.

`names` is the catalog of every span, attribute and metric name; `current()` is the `Instrumentation`
the capabilities report to, bound to the API's global providers.
"""

from __future__ import annotations

from typing import NoReturn

from . import names
from ._instruments import (
    CumulativeCounter,
    Instrumentation,
    LabelValue,
    LastValueGauge,
    QueuedHistogram,
    current,
    guarded,
)
from .names import MetricSpec

__all__ = [
    'CumulativeCounter',
    'Instrumentation',
    'LabelValue',
    'LastValueGauge',
    'MetricSpec',
    'QueuedHistogram',
    'current',
    'guarded',
    'names',
]

_MOVED = {'configure', 'Telemetry'}


def __getattr__(name: str) -> NoReturn:
    if name in _MOVED:
        raise AttributeError(
            f'observable_harness.telemetry.{name} moved to observable_harness.otel_setup.{name} (install the '
            "'telemetry' extra: pip install 'observable-harness[telemetry]'). This package only speaks the "
            'OpenTelemetry API, so importing the library never loads the SDK or an exporter.'
        )
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
