"""OpenTelemetry instrumentation of observable-harness: the name catalog and the recorders.

Library code uses only the OpenTelemetry API. Install any SDK (or call `logfire.configure()`) before
or after building an agent and the spans and metrics reach it.
"""

from __future__ import annotations

from . import names

__all__ = ['names']
