"""Shared fixtures: real command output produced once per test session (per xdist worker), and the real
OpenTelemetry SDK with in-memory exporters, fresh for each test that asks.

Also the hypothesis profiles: `quick` (the default, so `make test` stays fast) and `thorough` (at least
10,000 examples per property, `HYPOTHESIS_PROFILE=thorough`, run by `bench/reliability.py`). Tests that
should scale with the profile leave `max_examples` alone.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.otel import OTelHarness, install_otel
from tests.real_outputs import (
    RealOutput,
    failing_gcc,
    failing_pip_install,
    failing_pytest,
    stdlib_listing,
    traffic,
)

_SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile('quick', max_examples=60, deadline=None, suppress_health_check=_SLOW_IS_FINE)
settings.register_profile('thorough', max_examples=10_000, deadline=None, suppress_health_check=_SLOW_IS_FINE)
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'quick'))


@pytest.fixture(scope='session')
def anyio_backend() -> str:
    return 'asyncio'


@pytest.fixture
def otel() -> OTelHarness:
    """Fresh global SDK providers with in-memory exporters, for this test alone."""
    return install_otel()


@pytest.fixture(scope='session')
def real_outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, RealOutput]:
    root = tmp_path_factory.mktemp('real_outputs')
    outputs = [
        failing_pytest(root / 'pytest'),
        failing_gcc(_mkdir(root / 'gcc')),
        failing_pip_install(_mkdir(root / 'pip')),
        stdlib_listing(_mkdir(root / 'find')),
        *traffic(),
    ]
    return {output.name: output for output in outputs if output is not None}


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True)
    return path
