"""Everything that ships around the library, as files: the Grafana dashboards, the Prometheus alert rules and
their unit tests, a Prometheus scrape configuration and an OpenTelemetry Collector configuration.

The dashboards and alert rules are generated from the telemetry catalog; the configurations and the rule
tests are package data. `observable-harness assets DIR` writes all of them for a pip user; `make dashboards`
writes the copies committed in the repository (`dashboards/`, `otel-collector.yaml`), and a test keeps
those equal to what this module renders.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from . import dashboards

__all__ = ['COLLECTOR_FILE', 'STATIC_FILES', 'main', 'render', 'write']

COLLECTOR_FILE = 'otel-collector.yaml'
STATIC_FILES = ('alerts.test.yml', 'prometheus.yml', COLLECTOR_FILE)
"""Hand-written files shipped as package data (`observable_harness/ops/assets/`)."""


def render() -> dict[str, str]:
    """File name → exact content of every file that ships: generated dashboards and rules, then package data."""
    files = dashboards.render()
    folder = resources.files('observable_harness.ops').joinpath('assets')
    for name in STATIC_FILES:
        files[name] = folder.joinpath(name).read_text(encoding='utf-8')
    return files


def write(directory: Path) -> list[Path]:
    """Write every file into `directory` (created if missing); the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, content in render().items():
        path = directory / name
        path.write_text(content, encoding='utf-8')
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """`make dashboards`: the copies committed in the repository (`dashboards/`, and the collector configuration
    at the top of the repository, where the README points)."""
    args = list(sys.argv[1:] if argv is None else argv)
    directory = Path(args[0] if args else 'dashboards')
    collector_directory = Path(args[1] if len(args) > 1 else '.')
    for name, content in render().items():
        path = (collector_directory if name == COLLECTOR_FILE else directory) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding='utf-8')
        print(f'wrote {path}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
