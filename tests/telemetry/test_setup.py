"""`otel_setup.configure()` for real, in this process: the embedded Prometheus endpoint, OTLP over HTTP and
gRPC, Logfire, dead exporters, and set-ups that already own the providers.

Each test starts from unset global providers (OpenTelemetry's own test utilities reset them) and shuts
its telemetry down after, so no case needs a process of its own.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.test.globals_test import reset_metrics_globals, reset_trace_globals
from prometheus_client.parser import text_string_to_metric_families
from pydantic_ai import Agent
from pydantic_ai.models.test import TestModel

from observable_harness.cli import telemetry_options
from observable_harness.otel_setup import Telemetry, configure
from observable_harness.telemetry import current, names
from tests.e2e.prometheus import run_python
from tests.otlp_receiver import Received, black_hole, closed_port, grpc_receiver, http_receiver
from tests.telemetry_child import INJECT_ATTRIBUTES, REDUCE_ATTRIBUTES, catalog, spans

GUARD = 60  # seconds: a hang guard for a loaded machine, not a performance assertion
Samples = dict[str, list[tuple[dict[str, str], float]]]


@pytest.fixture
def configured() -> Iterator[Callable[..., Telemetry]]:
    """`configure()` on unset global providers; every handle it made is shut down after the test."""
    reset_trace_globals()
    reset_metrics_globals()
    handles: list[Telemetry] = []

    def make(**kwargs: Any) -> Telemetry:
        handle = configure(**kwargs)
        handles.append(handle)
        return handle

    yield make
    for handle in handles:
        handle.shutdown(timeout=2)
    Agent.instrument_all(False)
    reset_trace_globals()
    reset_metrics_globals()


def exposition(source: Telemetry | str) -> Samples:
    """Sample name -> [(labels, value)] from a live endpoint (a handle's, or a URL), parsed by prometheus-client."""
    url = source if isinstance(source, str) else source.metrics_url
    assert url is not None
    with urllib.request.urlopen(url, timeout=10) as response:
        text = response.read().decode()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((dict(sample.labels), sample.value))
    return samples


def value_of(samples: list[tuple[dict[str, str], float]], **labels: str) -> float:
    [value] = [v for found, v in samples if all(found.get(k) == want for k, want in labels.items())]
    return value


def wait_until(condition: Callable[[], bool], message: str) -> None:
    deadline = time.monotonic() + GUARD
    while not condition():
        assert time.monotonic() < deadline, message
        time.sleep(0.05)


# --- what importing the library loads --------------------------------------------------------------


def test_importing_the_library_loads_no_sdk_exporter_linter_or_cli() -> None:
    # A fresh interpreter: what an import loads can only be seen before anything else loaded it.
    completed = run_python(
        textwrap.dedent(
            """
            import sys
            # pydantic-ai itself imports `logfire_api`, which loads logfire (and the SDK) when it is
            # installed; what this library adds on top must stay on the API.
            import pydantic_ai, pydantic_ai.capabilities, pydantic_ai.toolsets
            before = set(sys.modules)
            import observable_harness, observable_harness.telemetry, observable_harness.tool_output_limits
            import observable_harness.bounded, observable_harness.system_reminders, observable_harness.storage
            heavy = ('opentelemetry.sdk', 'opentelemetry.exporter', 'logfire', 'prometheus_client', 'rich', 'ast',
                     'genai_prices',
                     'observable_harness.lint', 'observable_harness.cli', 'observable_harness.otel_setup',
                     'observable_harness.demo', 'observable_harness.ops', 'observable_harness.calibration')
            print(sorted(m for m in set(sys.modules) - before if m == 'ast' or m.startswith(heavy)))
            """
        )
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == '[]'


def test_the_old_configure_path_says_where_it_went() -> None:
    import observable_harness.telemetry as telemetry_package

    with pytest.raises(AttributeError, match=r'moved to observable_harness\.otel_setup\.configure'):
        _ = telemetry_package.configure


# --- the embedded endpoint ----------------------------------------------------------------------


def test_endpoint_serves_every_catalog_metric_under_its_exposed_name(configured: Callable[..., Telemetry]) -> None:
    telemetry = configured(metrics_port=0)
    catalog()
    samples = exposition(telemetry)
    assert telemetry.metrics_url is not None and telemetry.metrics_url.startswith('http://127.0.0.1:')
    assert telemetry.metrics_url in telemetry.summary()
    assert telemetry.notes == ()
    for spec in names.ALL_METRICS:
        if spec.kind == 'histogram':
            for suffix in ('_bucket', '_sum', '_count'):
                assert spec.exposed + suffix in samples, f'{spec.name}: {spec.exposed}{suffix} not exposed'
            bounds = {float(found['le']) for found, _ in samples[spec.exposed + '_bucket'] if found['le'] != '+Inf'}
            assert bounds == set(spec.buckets), spec.name
            assert all(value == 3 for _, value in samples[spec.exposed + '_count']), spec.name
        else:
            assert spec.exposed in samples, f'{spec.name}: {spec.exposed} not exposed; got {sorted(samples)}'
            for found, _ in samples[spec.exposed]:
                assert set(spec.labels) <= set(found), (spec.name, found)
    # Counters are cumulative and label values render as the dashboards select them (`"true"`, not `"True"`).
    decisions = samples[names.DECISIONS.exposed]
    assert value_of(decisions, tool='fetch_logs', action='spill', outcome='truncate', fallback='true') == 5
    assert value_of(decisions, tool='fetch_logs', action='passthrough', outcome='unchanged', fallback='false') == 3
    threshold = samples[names.BAND_THRESHOLD_CHARS.exposed]
    assert value_of(threshold, tool='fetch_logs', action='summarize') == 50_000
    # One unit per metric, said once in the name.
    assert not any(name.count('_bytes') > 1 for name in samples)
    assert all('size_unit' not in found for name in samples for found, _ in samples[name])


def test_a_flush_leaves_the_next_scrape_with_one_batch(configured: Callable[..., Telemetry], tmp_path: Path) -> None:
    telemetry = configured(metrics_port=0)
    catalog()
    assert telemetry.flush() is True
    assert telemetry.metrics_url is not None
    with urllib.request.urlopen(telemetry.metrics_url, timeout=10) as response:
        text = response.read().decode()
    helps = [line for line in text.splitlines() if line.startswith('# HELP ')]
    assert len(helps) == len(set(helps)), 'a metric is described twice: a stale batch rode along'
    decisions = exposition(telemetry)[names.DECISIONS.exposed]
    assert value_of(decisions, tool='fetch_logs', action='spill', outcome='truncate', fallback='true') == 5
    promtool = shutil.which('promtool')
    if promtool is not None:
        scraped = tmp_path / 'scrape.prom'
        scraped.write_text(text)
        with scraped.open() as handle:
            checked = subprocess.run(
                [promtool, 'check', 'metrics'], stdin=handle, capture_output=True, text=True, timeout=60, check=False
            )
        assert 'second HELP line' not in checked.stdout + checked.stderr, checked.stdout + checked.stderr


def test_port_zero_picks_a_free_port_and_a_busy_port_degrades_to_a_warning(
    configured: Callable[..., Telemetry],
) -> None:
    with socket.socket() as busy:
        busy.bind(('127.0.0.1', 0))
        busy.listen()
        port = busy.getsockname()[1]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            telemetry = configured(metrics_port=port)
    assert telemetry.metrics_url is None
    [note] = telemetry.notes
    assert str(port) in note and 'metrics_port=0' in note
    assert [str(w.message) for w in caught] == [note]
    # The warning points at the caller's line, not at this library's internals.
    assert caught[0].filename == __file__


def test_configure_twice_returns_the_first_handle_and_shutdown_is_idempotent(
    configured: Callable[..., Telemetry],
) -> None:
    first = configured(metrics_port=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        same = configured(metrics_port=0)
        other = configured(metrics_port=0, service_name='another')
    # Same arguments: silently the same handle; different ones: the same handle and one warning.
    assert same is first and other is first
    assert len(caught) == 1
    url = first.metrics_url
    assert url is not None
    first.shutdown()
    first.shutdown()
    with pytest.raises(OSError):  # noqa: PT011 - refused or reset, whichever the platform says
        urllib.request.urlopen(url, timeout=5)
    assert first.flush() is True


@pytest.mark.parametrize('from_env', [False, True])
def test_an_unsupported_otlp_protocol_is_a_clear_error(from_env: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if from_env:
        monkeypatch.setenv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json')
        arguments: dict[str, Any] = {}
    else:
        arguments = {'otlp_protocol': 'http/json'}
    with pytest.raises(ValueError, match=r"'http/json' is not supported here; use \"http/protobuf\""):
        configure(metrics_port=None, **arguments)


def test_recording_before_configure_reaches_the_endpoint_installed_after(configured: Callable[..., Telemetry]) -> None:
    reads = current().counter(names.READS)
    reads.add(7, 'hit')  # an agent ran before telemetry was set up
    telemetry = configured(metrics_port=0)
    reads.add(1, 'hit')
    assert value_of(exposition(telemetry)[names.READS.exposed], outcome='hit') == 8


# --- OTLP ----------------------------------------------------------------------------------------


def assert_spec_spans_and_metrics(received: Received) -> None:
    found = {span.name: span for span in received.spans()}
    reduce, inject = found[names.SPAN_REDUCE], found[names.SPAN_REMINDERS_INJECT]
    assert reduce.attributes == REDUCE_ATTRIBUTES
    assert inject.attributes == INJECT_ATTRIBUTES
    assert reduce.span.parent_span_id == inject.span.span_id
    assert reduce.scope == names.INSTRUMENTATION_SCOPE
    assert reduce.resource['service.name'] == 'otlp-test'
    sent = {metric.name: metric for metric in received.metrics()}
    [point] = [
        p
        for p in sent[names.DECISIONS.name].sum.data_points
        if {kv.key: kv.value.string_value for kv in p.attributes}.get('outcome') == 'truncate'
    ]
    assert (point.as_int or point.as_double) == 5
    size = sent[names.SIZE_CHARS.name].histogram.data_points[0]
    assert tuple(size.explicit_bounds) == names.SIZE_BUCKETS
    assert size.count == 3


def test_otlp_http_sends_spec_spans_and_metrics_to_a_receiver(configured: Callable[..., Telemetry]) -> None:
    with http_receiver() as (url, received):
        telemetry = configured(metrics_port=None, otlp_endpoint=url, service_name='otlp-test')
        spans()
        catalog()
        telemetry.shutdown()
    assert (telemetry.otlp_endpoint, telemetry.otlp_protocol, telemetry.metrics_url) == (url, 'http/protobuf', None)
    assert set(received.paths) == {'/v1/traces', '/v1/metrics'}
    assert_spec_spans_and_metrics(received)


def test_otlp_endpoint_and_protocol_come_from_the_standard_environment_variables(
    configured: Callable[..., Telemetry], monkeypatch: pytest.MonkeyPatch
) -> None:
    with grpc_receiver() as (url, received):
        monkeypatch.setenv('OTEL_EXPORTER_OTLP_ENDPOINT', url)
        monkeypatch.setenv('OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc')
        monkeypatch.setenv('OTEL_SERVICE_NAME', 'otlp-test')
        telemetry = configured(metrics_port=None)
        spans()
        catalog()
        telemetry.shutdown()
    assert (telemetry.otlp_endpoint, telemetry.otlp_protocol) == (url, 'grpc')
    assert_spec_spans_and_metrics(received)


def test_env_http_endpoint_gets_the_signal_paths_appended(
    configured: Callable[..., Telemetry], monkeypatch: pytest.MonkeyPatch
) -> None:
    with http_receiver() as (url, received):
        monkeypatch.setenv('OTEL_EXPORTER_OTLP_ENDPOINT', url)
        telemetry = configured(metrics_port=None, service_name='otlp-test')
        spans()
        catalog()
        telemetry.shutdown()
    assert set(received.paths) == {'/v1/traces', '/v1/metrics'}
    assert_spec_spans_and_metrics(received)


@pytest.mark.parametrize('dead', ['refused', 'never_answers'])
def test_a_dead_otlp_endpoint_neither_fails_nor_blocks_recording(
    dead: str, configured: Callable[..., Telemetry]
) -> None:
    options: dict[str, Any] = {'metrics_port': 0, 'export_timeout': 1.0, 'metric_export_interval': 0.2}
    with black_hole() as (hole, accepted):
        options['otlp_endpoint'] = f'http://127.0.0.1:{closed_port()}' if dead == 'refused' else hole
        telemetry = configured(**options)
        # More rounds than one export batch holds, all while exports fail.
        for _ in range(200):
            spans()
            catalog()
        if dead == 'never_answers':
            # Once the exporter is stuck on the black hole, recording goes on and the endpoint serves it.
            wait_until(lambda: bool(accepted), 'the exporter never tried the endpoint')
            stuck = decisions_value(exposition(telemetry))
            catalog()
            assert decisions_value(exposition(telemetry)) == stuck + 10
        samples = exposition(telemetry)
        telemetry.shutdown(timeout=2)
    # Recording went on as if nothing were wrong: the local endpoint has all the rounds.
    assert decisions_value(samples) >= 2000


def decisions_value(samples: Samples) -> float:
    decisions = samples[names.DECISIONS.exposed]
    return value_of(decisions, tool='fetch_logs', action='spill', outcome='spill', fallback='false')


# --- composition ----------------------------------------------------------------------------------


def test_logfire_owns_the_providers_and_the_endpoint_keeps_explicit_size_buckets(
    configured: Callable[..., Telemetry], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv('LOGFIRE_TOKEN', raising=False)
    telemetry = configured(metrics_port=0, logfire=True)
    catalog()
    samples = exposition(telemetry)
    assert telemetry.logfire is True
    assert 'Logfire is on' in telemetry.summary()
    assert telemetry.notes == ()
    # Logfire's default views would make every histogram exponential, which the Prometheus exposition
    # cannot carry; the size buckets must survive so calibration and the heatmaps work.
    bounds = {found['le'] for found, _ in samples[names.SIZE_CHARS.exposed + '_bucket']}
    assert {'256.0', '4194304.0', '+Inf'} <= bounds
    assert names.DECISIONS.exposed in samples


def test_an_existing_sdk_setup_is_kept_and_still_gets_otlp_spans(configured: Callable[..., Telemetry]) -> None:
    reset_trace_globals()
    reset_metrics_globals()
    theirs = TracerProvider()
    trace.set_tracer_provider(theirs)
    metrics.set_meter_provider(MeterProvider())
    with http_receiver() as (url, received):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            telemetry = configured(metrics_port=0, otlp_endpoint=url)
        with current().span(names.SPAN_PRUNE, {names.TOOL_OUTPUT_PRUNE_FILES: 3}):
            pass
        telemetry.shutdown()
    assert trace.get_tracer_provider() is theirs
    assert telemetry.metrics_url is None
    assert 'meter provider was already installed' in ' '.join(telemetry.notes)
    assert len(caught) == 1
    [prune] = [span for span in received.spans() if span.name == names.SPAN_PRUNE]
    assert prune.attributes == {names.TOOL_OUTPUT_PRUNE_FILES: 3}


def test_pydantic_ai_spans_are_on_without_content_and_ours_nest_under_them(
    configured: Callable[..., Telemetry],
) -> None:
    with http_receiver() as (url, received):
        telemetry = configured(metrics_port=None, otlp_endpoint=url)
        agent = Agent(TestModel())

        @agent.tool_plain
        def fetch_logs() -> str:
            with current().span(names.SPAN_REDUCE, {names.GEN_AI_TOOL_NAME: 'fetch_logs'}):
                return 'CANARY-output ' * 10

        agent.run_sync('CANARY-prompt')
        telemetry.shutdown()
    assert telemetry.pydantic_ai_instrumented
    found = received.spans()
    by_id = {span.span.span_id: span for span in found}
    [reduce] = [span for span in found if span.name == names.SPAN_REDUCE]
    assert by_id[reduce.span.parent_span_id].name == 'execute_tool fetch_logs'
    # Content stays out of every span, ours and pydantic-ai's.
    for span in found:
        assert 'CANARY' not in str(span.attributes), span.name


def test_cli_flags_map_onto_configure(configured: Callable[..., Telemetry]) -> None:
    parser = argparse.ArgumentParser()
    telemetry_options.add_arguments(parser)
    with http_receiver() as (url, received):
        args = parser.parse_args(['--metrics-port', '0', '--otlp-endpoint', url, '--service-name', 'cli-test'])
        telemetry = telemetry_options.configure_from(args)
        with current().span(names.SPAN_READ, {names.TOOL_OUTPUT_READ_OUTCOME: 'hit'}):
            pass
        assert telemetry.metrics_url is not None and telemetry.metrics_url.startswith('http://127.0.0.1:')
        with pytest.warns(UserWarning, match='first configuration stays'):
            assert telemetry_options.configure_from(parser.parse_args(['--no-metrics'])) is telemetry
        telemetry.shutdown()
    [read] = [span for span in received.spans() if span.name == names.SPAN_READ]
    assert read.resource['service.name'] == 'cli-test'


def test_tracer_carries_the_package_version(configured: Callable[..., Telemetry]) -> None:
    from observable_harness import __version__

    with http_receiver() as (url, received):
        telemetry = configured(metrics_port=None, otlp_endpoint=url)
        spans()
        telemetry.shutdown()
    [reduce] = [span for span in received.spans() if span.name == names.SPAN_REDUCE]
    assert reduce.scope == names.INSTRUMENTATION_SCOPE
    assert reduce.scope_version == __version__
    assert sys.modules['observable_harness.otel_setup'] is not None
