"""`telemetry.configure()` for real: the embedded Prometheus endpoint, OTLP over HTTP and gRPC, Logfire,
dead exporters, and set-ups that already own the providers.

Each case runs in its own process (`tests/telemetry_child.py` or a short script), because OpenTelemetry's
global providers can be installed once per process and this one holds the in-memory test harness.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from observable_harness.telemetry import names
from tests.e2e.prometheus import REPO_ROOT, ServedProcess, clean_env, http_get, serving
from tests.otlp_receiver import Received, black_hole, closed_port, grpc_receiver, http_receiver
from tests.telemetry_child import INJECT_ATTRIBUTES, REDUCE_ATTRIBUTES

GUARD = 180  # seconds: a hang guard for a loaded machine, not a performance assertion


def child_command(configure: Mapping[str, Any], *workloads: str, serve: bool = False, repeat: int = 1) -> list[str]:
    command = [sys.executable, '-m', 'tests.telemetry_child', '--configure', json.dumps(configure)]
    for workload in workloads:
        command += ['--workload', workload]
    if repeat != 1:
        command += ['--repeat', str(repeat)]
    if serve:
        command.append('--serve')
    return command


def run(command: Sequence[str], env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(command), cwd=REPO_ROOT, env=clean_env(env), capture_output=True, text=True, timeout=GUARD, check=False
    )


def ready_of(completed: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert completed.returncode == 0, completed.stdout + completed.stderr
    [line] = [line for line in completed.stdout.splitlines() if line.startswith('READY ')]
    assert completed.stdout.rstrip().endswith('DONE'), completed.stdout
    return json.loads(line.removeprefix('READY '))


def run_script(script: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, '-c', textwrap.dedent(script)], env)


def exposition(child: ServedProcess) -> dict[str, list[tuple[dict[str, str], float]]]:
    """Sample name -> [(labels, value)] from the child's live endpoint, parsed by prometheus-client."""
    samples: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(http_get(child.ready['metrics_url'])):
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
        time.sleep(0.1)


# --- the embedded endpoint ----------------------------------------------------------------------


def test_library_import_stays_on_the_opentelemetry_api() -> None:
    completed = run_script(
        """
        import sys
        # pydantic-ai itself imports `logfire_api`, which loads logfire (and the SDK) when it is
        # installed; what this library adds on top must stay on the API.
        import pydantic_ai, pydantic_ai.capabilities, pydantic_ai.toolsets
        before = set(sys.modules)
        import observable_harness, observable_harness.telemetry, observable_harness.telemetry.instruments
        import observable_harness.tool_output_limits
        from observable_harness.telemetry import names
        heavy = ('opentelemetry.sdk', 'opentelemetry.exporter', 'logfire', 'prometheus_client')
        print(sorted(m for m in set(sys.modules) - before if m.startswith(heavy)))
        """
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == '[]'


def test_endpoint_serves_every_catalog_metric_under_its_exposed_name() -> None:
    with serving(child_command({'metrics_port': 0}, 'catalog', serve=True)) as child:
        samples = exposition(child)
        ready = child.ready
    assert ready['metrics_url'].startswith('http://127.0.0.1:')
    assert ready['metrics_url'] in ready['summary']
    assert ready['notes'] == []
    for spec in names.ALL_METRICS:
        if spec.kind == 'histogram':
            for suffix in ('_bucket', '_sum', '_count'):
                assert spec.exposed + suffix in samples, f'{spec.name}: {spec.exposed}{suffix} not exposed'
            bounds = {float(found['le']) for found, _ in samples[spec.exposed + '_bucket'] if found['le'] != '+Inf'}
            assert bounds == set(spec.buckets), spec.name
            assert all(value >= 3 for _, value in samples[spec.exposed + '_count']), spec.name
        else:
            assert spec.exposed in samples, f'{spec.name}: {spec.exposed} not exposed; got {sorted(samples)}'
            for found, _ in samples[spec.exposed]:
                assert set(spec.labels) <= set(found), (spec.name, found)
    # Counters are cumulative and label values render as the dashboards select them (`"true"`, not `"True"`).
    decisions = samples[names.DECISIONS.exposed]
    assert value_of(decisions, tool='fetch_logs', action='spill', outcome='truncate', fallback='true') >= 1
    assert value_of(decisions, tool='fetch_logs', action='passthrough', outcome='unchanged', fallback='false') >= 3
    threshold = samples[names.BAND_THRESHOLD.exposed]
    assert value_of(threshold, tool='fetch_logs', action='summarize', size_unit='chars') == 50_000


def test_port_zero_picks_a_free_port_and_a_busy_port_degrades_to_a_warning() -> None:
    completed = run_script(
        """
        import socket, warnings
        from observable_harness.telemetry import configure
        busy = socket.socket(); busy.bind(('127.0.0.1', 0)); busy.listen()
        port = busy.getsockname()[1]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            telemetry = configure(metrics_port=port)
        print('URL', telemetry.metrics_url)
        print('NOTES', len(telemetry.notes), str(port) in telemetry.notes[0])
        print('WARNED', [str(w.message) for w in caught] == list(telemetry.notes), caught[0].filename)
        telemetry.shutdown()
        """
    )
    assert completed.returncode == 0, completed.stderr
    lines = dict(line.split(' ', 1) for line in completed.stdout.splitlines())
    assert lines['URL'] == 'None'
    assert lines['NOTES'] == '1 True'
    # The warning points at the caller's line, not at this library's internals.
    assert lines['WARNED'] == 'True <string>'


def test_configure_twice_returns_the_first_handle_and_shutdown_is_idempotent() -> None:
    completed = run_script(
        """
        import urllib.request, warnings
        from observable_harness.telemetry import configure
        first = configure(metrics_port=0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            same = configure(metrics_port=0)
            other = configure(metrics_port=0, service_name='another')
        print('SAME', same is first, other is first, len(caught))
        first.shutdown(); first.shutdown()
        try:
            urllib.request.urlopen(first.metrics_url, timeout=5)
            print('STOPPED', False)
        except OSError:
            print('STOPPED', True)
        print('FLUSH', first.flush())
        """
    )
    assert completed.returncode == 0, completed.stderr
    lines = dict(line.split(' ', 1) for line in completed.stdout.splitlines())
    # Same arguments: silently the same handle; different ones: the same handle and one warning.
    assert lines['SAME'] == 'True True 1'
    assert lines['STOPPED'] == 'True'
    assert lines['FLUSH'] == 'True'


@pytest.mark.parametrize(
    ('argument', 'env'),
    [("otlp_protocol='http/json'", {}), ('', {'OTEL_EXPORTER_OTLP_PROTOCOL': 'http/json'})],
)
def test_an_unsupported_otlp_protocol_is_a_clear_error(argument: str, env: dict[str, str]) -> None:
    completed = run_script(
        f"""
        from observable_harness.telemetry import configure
        configure(metrics_port=None, {argument})
        """,
        env,
    )
    assert completed.returncode != 0
    assert "'http/json' is not supported" in completed.stderr
    assert 'use "http/protobuf"' in completed.stderr


# --- OTLP ----------------------------------------------------------------------------------------


def assert_spec_spans_and_metrics(received: Received) -> None:
    spans = {span.name: span for span in received.spans()}
    reduce, inject = spans[names.SPAN_REDUCE], spans[names.SPAN_REMINDERS_INJECT]
    assert reduce.attributes == REDUCE_ATTRIBUTES
    assert inject.attributes == INJECT_ATTRIBUTES
    assert reduce.span.parent_span_id == inject.span.span_id
    assert reduce.scope == names.INSTRUMENTATION_SCOPE
    assert reduce.resource['service.name'] == 'otlp-test'
    sent = {metric.name: metric for metric in received.metrics()}
    assert names.DECISIONS.name in sent
    [point] = [
        p
        for p in sent[names.DECISIONS.name].sum.data_points
        if {kv.key: kv.value.string_value for kv in p.attributes}.get('outcome') == 'truncate'
    ]
    assert (point.as_int or point.as_double) == 5
    size = sent[names.SIZE.name].histogram.data_points[0]
    assert tuple(size.explicit_bounds) == names.SIZE_BUCKETS
    assert size.count == 3


def test_otlp_http_sends_spec_spans_and_metrics_to_a_receiver() -> None:
    with http_receiver() as (url, received):
        completed = run(
            child_command({'metrics_port': None, 'otlp_endpoint': url, 'service_name': 'otlp-test'}, 'spans', 'catalog')
        )
        ready = ready_of(completed)
    assert ready['otlp_endpoint'] == url
    assert ready['otlp_protocol'] == 'http/protobuf'
    assert ready['metrics_url'] is None
    assert set(received.paths) == {'/v1/traces', '/v1/metrics'}
    assert_spec_spans_and_metrics(received)


def test_otlp_endpoint_and_protocol_come_from_the_standard_environment_variables() -> None:
    with grpc_receiver() as (url, received):
        completed = run(
            child_command({'metrics_port': None}, 'spans', 'catalog'),
            env={
                'OTEL_EXPORTER_OTLP_ENDPOINT': url,
                'OTEL_EXPORTER_OTLP_PROTOCOL': 'grpc',
                'OTEL_SERVICE_NAME': 'otlp-test',
            },
        )
        ready = ready_of(completed)
    assert (ready['otlp_endpoint'], ready['otlp_protocol']) == (url, 'grpc')
    assert_spec_spans_and_metrics(received)


def test_env_http_endpoint_gets_the_signal_paths_appended() -> None:
    with http_receiver() as (url, received):
        completed = run(
            child_command({'metrics_port': None, 'service_name': 'otlp-test'}, 'spans', 'catalog'),
            env={'OTEL_EXPORTER_OTLP_ENDPOINT': url},
        )
        ready_of(completed)
    assert set(received.paths) == {'/v1/traces', '/v1/metrics'}
    assert_spec_spans_and_metrics(received)


@pytest.mark.parametrize('dead', ['refused', 'never_answers'])
def test_a_dead_otlp_endpoint_neither_fails_nor_blocks_recording(dead: str) -> None:
    configure: dict[str, Any] = {'metrics_port': 0, 'export_timeout': 1.0, 'metric_export_interval': 0.5}
    accepted: list[float] = []
    if dead == 'refused':
        configure['otlp_endpoint'] = f'http://127.0.0.1:{closed_port()}'
        endpoint_context = None
    else:
        endpoint_context = black_hole()
        url, accepted = endpoint_context.__enter__()
        configure['otlp_endpoint'] = url
    try:
        # 200 rounds of spans and every metric: more than one export batch, all while exports fail.
        with serving(child_command(configure, 'spans', 'catalog', serve=True, repeat=200)) as child:
            samples = exposition(child)
            if endpoint_context is not None:
                # Once the exporter is stuck on the black hole, recording goes on (the child re-records
                # the catalog every half second) and the endpoint still serves it.
                wait_until(lambda: bool(accepted), 'the exporter never tried the endpoint')
                stuck = decisions_value(exposition(child))
                wait_until(lambda: decisions_value(exposition(child)) > stuck, 'recording stopped')
                samples = exposition(child)
        assert child.process.returncode == 0, child.output()
        assert 'DONE' in child.output()
    finally:
        if endpoint_context is not None:
            endpoint_context.__exit__(None, None, None)
    # Recording went on as if nothing were wrong: the local endpoint has all 200 rounds.
    assert decisions_value(samples) >= 2000


def decisions_value(samples: dict[str, list[tuple[dict[str, str], float]]]) -> float:
    decisions = samples[names.DECISIONS.exposed]
    return value_of(decisions, tool='fetch_logs', action='spill', outcome='spill', fallback='false')


# --- composition ----------------------------------------------------------------------------------


def test_logfire_owns_the_providers_and_the_endpoint_keeps_explicit_size_buckets() -> None:
    with serving(child_command({'metrics_port': 0, 'logfire': True}, 'catalog', serve=True)) as child:
        samples = exposition(child)
        ready = child.ready
    assert ready['logfire'] is True
    assert 'Logfire is on' in ready['summary']
    assert ready['notes'] == []
    # Logfire's default views would make every histogram exponential, which the Prometheus exposition
    # cannot carry; the size buckets must survive so calibration and the heatmaps work.
    bounds = {found['le'] for found, _ in samples[names.SIZE.exposed + '_bucket']}
    assert {'256.0', '4194304.0', '+Inf'} <= bounds
    assert names.DECISIONS.exposed in samples


def test_an_existing_sdk_setup_is_kept_and_still_gets_otlp_spans() -> None:
    with http_receiver() as (url, received):
        completed = run_script(
            f"""
            import warnings
            from opentelemetry import metrics, trace
            from opentelemetry.sdk.metrics import MeterProvider
            from opentelemetry.sdk.trace import TracerProvider
            trace.set_tracer_provider(TracerProvider())
            metrics.set_meter_provider(MeterProvider())
            from observable_harness.telemetry import configure, instruments, names
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter('always')
                telemetry = configure(metrics_port=0, otlp_endpoint={url!r})
            with instruments.span(names.SPAN_PRUNE, {{names.TOOL_OUTPUT_PRUNE_FILES: 3}}):
                pass
            telemetry.shutdown()
            print('URL', telemetry.metrics_url)
            print('NOTE', 'meter provider was already installed' in ' '.join(telemetry.notes), len(caught))
            """
        )
    assert completed.returncode == 0, completed.stderr
    lines = dict(line.split(' ', 1) for line in completed.stdout.splitlines())
    assert lines['URL'] == 'None'
    assert lines['NOTE'] == 'True 1'
    [prune] = [span for span in received.spans() if span.name == names.SPAN_PRUNE]
    assert prune.attributes == {names.TOOL_OUTPUT_PRUNE_FILES: 3}


def test_pydantic_ai_spans_are_on_without_content_and_ours_nest_under_them() -> None:
    with http_receiver() as (url, received):
        completed = run_script(
            f"""
            from pydantic_ai import Agent
            from pydantic_ai.models.test import TestModel
            from observable_harness.telemetry import configure, instruments, names
            telemetry = configure(metrics_port=None, otlp_endpoint={url!r})
            agent = Agent(TestModel())

            @agent.tool_plain
            def fetch_logs() -> str:
                with instruments.span(names.SPAN_REDUCE, {{names.GEN_AI_TOOL_NAME: 'fetch_logs'}}):
                    return 'CANARY-output ' * 10

            agent.run_sync('CANARY-prompt')
            telemetry.shutdown()
            print('INSTRUMENTED', telemetry.pydantic_ai_instrumented)
            """
        )
    assert completed.returncode == 0, completed.stderr
    assert 'INSTRUMENTED True' in completed.stdout
    spans = received.spans()
    by_id = {span.span.span_id: span for span in spans}
    [reduce] = [span for span in spans if span.name == names.SPAN_REDUCE]
    parent = by_id[reduce.span.parent_span_id]
    assert parent.name == 'execute_tool fetch_logs'
    # Content stays out of every span, ours and pydantic-ai's.
    for span in spans:
        assert 'CANARY' not in str(span.attributes), span.name


def test_cli_flags_map_onto_configure() -> None:
    with http_receiver() as (url, received):
        completed = run_script(
            f"""
            import argparse
            from observable_harness.cli import telemetry_options
            from observable_harness.telemetry import instruments, names
            parser = argparse.ArgumentParser()
            telemetry_options.add_arguments(parser)
            args = parser.parse_args(['--metrics-port', '0', '--otlp-endpoint', {url!r}, '--service-name', 'cli-test'])
            telemetry = telemetry_options.configure_from(args)
            with instruments.span(names.SPAN_READ, {{names.TOOL_OUTPUT_READ_OUTCOME: 'hit'}}):
                pass
            print('URL', telemetry.metrics_url)
            telemetry.shutdown()
            off = telemetry_options.configure_from(parser.parse_args(['--no-metrics']))
            print('SAME', off is telemetry)
            """
        )
    assert completed.returncode == 0, completed.stderr
    lines = dict(line.split(' ', 1) for line in completed.stdout.splitlines())
    assert lines['URL'].startswith('http://127.0.0.1:')
    assert lines['SAME'] == 'True'
    [read] = [span for span in received.spans() if span.name == names.SPAN_READ]
    assert read.resource['service.name'] == 'cli-test'


def test_recording_before_configure_reaches_the_endpoint_installed_after() -> None:
    completed = run_script(
        """
        import urllib.request
        from observable_harness.telemetry import instruments, names
        reads = instruments.Counter(names.READS)
        reads.add(7, 'hit')  # an agent ran before telemetry was set up
        from observable_harness.telemetry import configure
        telemetry = configure(metrics_port=0)
        reads.add(1, 'hit')
        print(urllib.request.urlopen(telemetry.metrics_url, timeout=10).read().decode())
        telemetry.shutdown()
        """
    )
    assert completed.returncode == 0, completed.stderr
    samples = {
        sample.name: sample.value
        for family in text_string_to_metric_families(completed.stdout)
        for sample in family.samples
        if sample.labels.get('outcome') == 'hit'
    }
    assert samples[names.READS.exposed] == 8
