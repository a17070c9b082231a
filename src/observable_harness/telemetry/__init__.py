"""OpenTelemetry instrumentation of observable-harness: the name catalog, the recorders, and `configure()`.

Library code uses only the OpenTelemetry API. Install any SDK (or call `logfire.configure()`) before
or after building an agent and the spans and metrics reach it; or call `configure()` for a local
Prometheus endpoint, OTLP export and Logfire in one line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import names

if TYPE_CHECKING:
    from .setup import Telemetry, configure

__all__ = ['Telemetry', 'configure', 'names']


def __getattr__(name: str) -> Any:
    # The SDK and exporters load only when someone asks for `configure`: importing the library (which
    # reaches this package through the recorders) must stay on the OpenTelemetry API alone.
    if name in ('configure', 'Telemetry'):
        from . import setup

        return getattr(setup, name)
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
