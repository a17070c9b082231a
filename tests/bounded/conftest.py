"""Real command output produced once per test session (per xdist worker), plus the captured traffic."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bounded.real_outputs import (
    RealOutput,
    failing_gcc,
    failing_pip_install,
    failing_pytest,
    stdlib_listing,
    traffic,
)


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
