"""A real Prometheus (Debian's `prometheus` package) and served processes, for end-to-end tests.

The shape every e2e test takes:

    port = free_port()
    with serving([sys.executable, '-m', 'tests.telemetry_child', ...]) as child, \\
         running_prometheus([f'127.0.0.1:{port}']) as prometheus:
        prometheus.wait_for('up == 1')
        assert prometheus.query('sum(tool_output_decisions_total)')

`running_prometheus` starts `prometheus` on a free loopback port with a generated configuration that
scrapes the given targets every second (and optionally evaluates rule files every second), keeps its
TSDB in a temporary directory, waits until it reports ready, and stops it on exit. `serving` starts a
command, waits for the line starting with `READY` it prints when its workload is done, and sends it
SIGTERM on exit. Neither asserts on time: the timeouts are generous guards against a hang.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Generator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
PROMETHEUS = shutil.which('prometheus')
PROMTOOL = shutil.which('promtool')

# Generous guards against a hang on a loaded 2-core machine; no test asserts on duration.
STARTUP_TIMEOUT = 120.0
DATA_TIMEOUT = 120.0


class PrometheusError(RuntimeError):
    """Prometheus answered with an error (a PromQL syntax error, for instance) or did not start."""


def free_port() -> int:
    """A loopback port nothing listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(('127.0.0.1', 0))
        return int(probe.getsockname()[1])


def http_get(url: str, timeout: float = 10.0) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read().decode('utf-8')


@dataclass
class Prometheus:
    """A running Prometheus and its HTTP API."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def api(self, path: str, **params: str) -> Any:
        query = urllib.parse.urlencode(params)
        try:
            body = http_get(f'{self.url}/api/v1/{path}?{query}')
        except urllib.error.HTTPError as error:
            body = error.read().decode('utf-8')
        payload = json.loads(body)
        if payload.get('status') != 'success':
            raise PrometheusError(f'{path} {params}: {payload.get("errorType")}: {payload.get("error")}')
        return payload['data']

    def query(self, expr: str) -> list[dict[str, Any]]:
        """Evaluate `expr` now; the list of resulting series (a scalar comes back as one series)."""
        data = self.api('query', query=expr)
        if data['resultType'] in ('scalar', 'string'):
            return [{'metric': {}, 'value': data['result']}]
        return list(data['result'])

    def wait_for(self, expr: str, timeout: float = DATA_TIMEOUT) -> list[dict[str, Any]]:
        """Poll `expr` until it returns at least one series; raise with the last answer otherwise."""
        deadline = time.monotonic() + timeout
        result: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            result = self.query(expr)
            if result:
                return result
            time.sleep(0.5)
        raise PrometheusError(f'{expr!r} returned no series within {timeout:.0f}s; targets: {self.targets()}')

    def targets(self) -> list[dict[str, Any]]:
        return list(self.api('targets')['activeTargets'])

    def rules(self) -> list[dict[str, Any]]:
        return [rule for group in self.api('rules')['groups'] for rule in group['rules']]

    def log(self) -> str:
        return self.log_path.read_text(encoding='utf-8', errors='replace')


def _config(targets: Sequence[str], scrape_interval: str, rule_files: Sequence[Path]) -> str:
    config: dict[str, Any] = {
        'global': {'scrape_interval': scrape_interval, 'evaluation_interval': scrape_interval},
        'scrape_configs': [{'job_name': 'observable-harness', 'static_configs': [{'targets': list(targets)}]}],
    }
    if rule_files:
        config['rule_files'] = [str(path.resolve()) for path in rule_files]
    return json.dumps(config, indent=2)  # JSON is YAML


@contextmanager
def running_prometheus(
    targets: Sequence[str], *, scrape_interval: str = '1s', rule_files: Sequence[Path] = ()
) -> Generator[Prometheus]:
    """Start Prometheus scraping `targets` (`host:port`, path `/metrics`), yield it, stop it."""
    if PROMETHEUS is None:
        raise PrometheusError('prometheus is not installed: `apt-get install prometheus` (.ci/run does this)')
    with tempfile.TemporaryDirectory(prefix='oh-prometheus-') as tmp:
        root = Path(tmp)
        config_path = root / 'prometheus.yml'
        config_path.write_text(_config(targets, scrape_interval, rule_files), encoding='utf-8')
        log_path = root / 'prometheus.log'
        prometheus: Prometheus | None = None
        for _attempt in range(3):  # another process may take the free port before Prometheus binds it
            port = free_port()
            with log_path.open('wb') as log:
                process = subprocess.Popen(
                    [
                        PROMETHEUS,
                        f'--config.file={config_path}',
                        f'--storage.tsdb.path={root / "data"}',
                        f'--web.listen-address=127.0.0.1:{port}',
                        '--log.level=warn',
                    ],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                )
            candidate = Prometheus(f'http://127.0.0.1:{port}', process, log_path)
            if _wait_ready(candidate):
                prometheus = candidate
                break
            _stop(process)
        if prometheus is None:
            raise PrometheusError(f'prometheus did not become ready:\n{log_path.read_text(errors="replace")}')
        try:
            yield prometheus
        finally:
            _stop(prometheus.process)


def _wait_ready(prometheus: Prometheus) -> bool:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if prometheus.process.poll() is not None:
            return False
        try:
            http_get(f'{prometheus.url}/-/ready', timeout=2)
            return True
        except (OSError, urllib.error.URLError):
            time.sleep(0.2)
    return False


def _stop(process: subprocess.Popen[Any]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


# --- what the shipped dashboards and alerts ask of Prometheus -----------------------------------------


def shipped_expressions() -> dict[str, str]:
    """`"<dashboard> / <panel> / <ref>"` or `"alert <name>"` → PromQL Prometheus can evaluate as is."""
    from observable_harness.ops import alerts, dashboards

    exprs = {
        f'{q.dashboard} / {q.panel} / {q.ref}': dashboards.evaluable(q.expr)
        for build in dashboards.DASHBOARDS.values()
        for q in dashboards.panel_queries(build())
    }
    for alert in alerts.ALERTS:
        # An alert comparing a series with its own past cannot hold in a few minutes of history; what it compares can.
        if alert.operands:
            exprs.update({f'alert {alert.name} operand {i}': expr for i, expr in enumerate(alert.operands)})
        else:
            exprs[f'alert {alert.name}'] = alert.expr
    return exprs


def queries_without_series(prometheus: Prometheus, expressions: Mapping[str, str], timeout: float = 30.0) -> list[str]:
    """The expressions that still return no series after `timeout` seconds each (empty: all good).

    Alert expressions compare rates or increases with a threshold, so they return series only while
    the scraped counters keep moving.
    """
    empty: list[str] = []
    for key, expr in expressions.items():
        try:
            prometheus.wait_for(expr, timeout=timeout)
        except PrometheusError as error:
            empty.append(f'{key}: {error}')
    return empty


# --- served processes ------------------------------------------------------------------------------


@dataclass
class ServedProcess:
    """A child process that printed its `READY` line, with everything it printed so far."""

    process: subprocess.Popen[str]
    ready_line: str = ''
    lines: list[str] = field(default_factory=list[str])

    @property
    def ready(self) -> Any:
        """The JSON after `READY `, when the child printed one."""
        _, _, rest = self.ready_line.partition(' ')
        return json.loads(rest) if rest.strip() else None

    def output(self) -> str:
        return ''.join(self.lines)


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The current environment without OpenTelemetry or Logfire settings that would change a child's set-up."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(('OTEL_', 'LOGFIRE_'))}
    env['PYTHONUNBUFFERED'] = '1'
    env.update(extra or {})
    return env


def run_python(script: str, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """`python -c script` from the repository root, in a clean environment (for what only a fresh interpreter shows)."""
    return subprocess.run(
        [sys.executable, '-c', script],
        cwd=REPO_ROOT,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@contextmanager
def serving(
    command: Sequence[str],
    *,
    ready_prefix: str = 'READY',
    env: Mapping[str, str] | None = None,
    timeout: float = STARTUP_TIMEOUT,
) -> Generator[ServedProcess]:
    """Run `command` from the repository root; yield once it prints a line starting with `ready_prefix`.

    On exit the process gets SIGTERM (then SIGKILL if it hangs); its exit status is in `.process`.
    """
    process = subprocess.Popen(
        list(command),
        cwd=REPO_ROOT,
        env=clean_env(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    served = ServedProcess(process)
    ready = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            served.lines.append(line)
            if not ready.is_set() and line.startswith(ready_prefix):
                served.ready_line = line.rstrip('\n')
                ready.set()
        ready.set()  # EOF: the process ended without READY; the caller sees an empty ready_line

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not ready.wait(timeout) or not served.ready_line:
            raise RuntimeError(f'{command!r} did not print {ready_prefix!r}:\n{served.output()}')
        yield served
    finally:
        _stop(process)
        reader.join(timeout=30)
