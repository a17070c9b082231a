"""Shared fixtures: the real OpenTelemetry SDK with in-memory exporters, installed once per process."""

from __future__ import annotations

import pytest

from tests.otel import OTelHarness, install_otel


@pytest.fixture(scope='session')
def anyio_backend() -> str:
    return 'asyncio'


@pytest.fixture(scope='session')
def _otel_session() -> OTelHarness:
    return install_otel()


@pytest.fixture
def otel(_otel_session: OTelHarness) -> OTelHarness:
    """The process-wide SDK harness with spans cleared and a metric baseline taken for this test."""
    _otel_session.reset()
    return _otel_session
