"""`configure()`: one call that gives a process somewhere to send this library's telemetry.

Needs the `telemetry` extra (`pip install 'observable-harness[telemetry]'`): the OpenTelemetry SDK, the
OTLP and Prometheus exporters. The library itself only speaks the OpenTelemetry API, so this module is
optional: anyone who already runs `logfire.configure()` or an OpenTelemetry SDK set-up of their own
gets every span and metric without it. It exists for the common case of "I added the capabilities,
now show me something":

- an embedded Prometheus endpoint (the default, `http://127.0.0.1:9464/metrics`), served by
  `prometheus-client` behind OpenTelemetry's `PrometheusMetricReader`, ready for a Prometheus scrape
  job and the dashboards in `dashboards/`;
- OTLP traces and metrics when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `otlp_endpoint=`) is set, over
  HTTP/protobuf unless `OTEL_EXPORTER_OTLP_PROTOCOL=grpc`, for a collector, Tempo, Jaeger, ...;
- Logfire when asked (`logfire=True`; with no `LOGFIRE_TOKEN` nothing leaves the machine).

Exporters run off the hot path: spans go through a bounded batch queue and metrics are pulled (by
Prometheus) or pushed on a timer (OTLP), each export with a short timeout. An unreachable or hanging
endpoint therefore costs a run nothing but the dropped telemetry; only `shutdown()` (also run at
exit) may wait, for at most about `export_timeout` seconds per exporter.

OpenTelemetry allows one global tracer and meter provider per process, so `configure()` acts once:
a second call returns the first call's handle until that one is shut down.
"""

from __future__ import annotations

import inspect
import logging
import os
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

from opentelemetry import metrics, trace

from ._extras import needs_extra

if TYPE_CHECKING:
    from wsgiref.simple_server import WSGIServer

    from opentelemetry.sdk.metrics.export import MetricReader
    from opentelemetry.sdk.trace import SpanProcessor

__all__ = ['DEFAULT_METRICS_PORT', 'OTLPProtocol', 'Telemetry', 'configure']

OTLPProtocol = Literal['http/protobuf', 'grpc']

DEFAULT_METRICS_HOST = '127.0.0.1'
DEFAULT_METRICS_PORT = 9464
"""The port OpenTelemetry's Prometheus exporter conventionally uses."""
DEFAULT_SERVICE_NAME = 'observable-harness'

_ENV_ENDPOINT = 'OTEL_EXPORTER_OTLP_ENDPOINT'
_ENV_SIGNAL_ENDPOINTS = ('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT')
_ENV_PROTOCOL = 'OTEL_EXPORTER_OTLP_PROTOCOL'
_ENV_SERVICE_NAME = 'OTEL_SERVICE_NAME'

_log = logging.getLogger('observable_harness.telemetry')


@dataclass
class Telemetry:
    """What `configure()` set up, and the controls to flush and stop it.

    ```python
    from observable_harness.otel_setup import configure

    telemetry = configure(metrics_port=0)  # 0: any free port
    print(telemetry.summary())
    telemetry.shutdown()
    ```
    """

    metrics_url: str | None
    """Where the embedded Prometheus endpoint serves the exposition, or `None` when it is off."""
    otlp_endpoint: str | None
    """The OTLP endpoint traces and metrics are pushed to (`None`: no OTLP export)."""
    otlp_protocol: OTLPProtocol | None
    """`http/protobuf` or `grpc`, when OTLP is on."""
    logfire: bool
    """Whether Logfire owns the providers (it sends data only when a token is configured)."""
    pydantic_ai_instrumented: bool
    """Whether pydantic-ai's own spans (`agent run`, `chat ...`, `execute_tool ...`) are on, without content."""
    notes: tuple[str, ...] = ()
    """Anything that could not be set up as asked, in words (also raised as warnings)."""
    _flush: Callable[[float], bool] = field(default=lambda _timeout: True, repr=False)
    _shutdown: Callable[[float], None] = field(default=lambda _timeout: None, repr=False)
    _is_shut_down: bool = field(default=False, repr=False)

    def flush(self, timeout: float = 5.0) -> bool:
        """Export what is buffered now (spans, and metrics pushed over OTLP); `False` when an exporter did not
        finish within `timeout` seconds. The Prometheus endpoint needs none: every scrape collects afresh."""
        if self._is_shut_down:
            return True
        try:
            return self._flush(timeout)
        except Exception:  # a broken exporter must not turn a flush into a crash
            _log.warning('observable_harness: telemetry flush failed', exc_info=True)
            return False

    def shutdown(self, timeout: float = 5.0) -> None:
        """Flush and stop every exporter and the metrics endpoint. Safe to call more than once."""
        global _active
        if self._is_shut_down:
            return
        self._is_shut_down = True
        with _lock:
            if _active is not None and _active[1] is self:
                _active = None
        try:
            self._shutdown(timeout)
        except Exception:
            _log.warning('observable_harness: telemetry shutdown failed', exc_info=True)

    def summary(self, *, ending: bool = False) -> str:
        """One paragraph saying where to look: the metrics URL, the OTLP destination, Logfire.

        `ending`: the process is about to stop, so the endpoint is about to close with it.
        """
        parts: list[str] = []
        if self.metrics_url and ending:
            parts.append(
                f'metrics were served at {self.metrics_url} while this process ran (in your agent process, point a '
                'Prometheus scrape job at it; `observable-harness assets DIR` writes the Grafana dashboards and alerts)'
            )
        elif self.metrics_url:
            parts.append(
                f'metrics are served at {self.metrics_url} (point a Prometheus scrape job at it; '
                '`observable-harness assets DIR` writes the Grafana dashboards, alert rules and a scrape config)'
            )
        else:
            parts.append('no local metrics endpoint')
        if self.otlp_endpoint:
            parts.append(f'traces and metrics go over OTLP ({self.otlp_protocol}) to {self.otlp_endpoint}')
        else:
            parts.append(f'no OTLP export (set {_ENV_ENDPOINT} to send traces to a collector)')
        if self.logfire:
            parts.append('Logfire is on (data leaves the machine only with LOGFIRE_TOKEN set)')
        text = 'Telemetry: ' + '; '.join(parts) + '.'
        if self.notes:
            text += ' Note: ' + ' '.join(self.notes)
        return text


_lock = threading.Lock()
_active: tuple[tuple[Any, ...], Telemetry] | None = None


def configure(
    *,
    service_name: str | None = None,
    metrics_host: str = DEFAULT_METRICS_HOST,
    metrics_port: int | None = DEFAULT_METRICS_PORT,
    otlp_endpoint: str | None = None,
    otlp_protocol: OTLPProtocol | None = None,
    logfire: bool = False,
    instrument_pydantic_ai: bool = True,
    export_timeout: float = 5.0,
    metric_export_interval: float = 15.0,
) -> Telemetry:
    """Install OpenTelemetry providers and exporters for this process and say where the data goes.

    Args:
        service_name: `service.name` of the resource; default `OTEL_SERVICE_NAME`, else `observable-harness`.
        metrics_host: Interface of the embedded Prometheus endpoint. Loopback by default: the
            exposition names your tools, so exposing it to a network is a decision to make on purpose.
        metrics_port: Its port; `0` picks a free one (read `Telemetry.metrics_url`); `None` turns it off.
        otlp_endpoint: OTLP base URL (`http://collector:4318` for HTTP, `http://collector:4317` for
            gRPC); default `OTEL_EXPORTER_OTLP_ENDPOINT` (or the per-signal variables). Unset: no OTLP.
        otlp_protocol: `http/protobuf` (default) or `grpc`; default `OTEL_EXPORTER_OTLP_PROTOCOL`.
        logfire: Let `logfire.configure(send_to_logfire='if-token-present')` own the providers, with
            the endpoint and OTLP exporters above attached to it. Without a token nothing is sent.
        instrument_pydantic_ai: Turn on pydantic-ai's own spans for every agent, so this library's
            spans nest under `execute_tool ...` and `chat ...`. Message content is left out: telemetry
            carries sizes and names, never tool output.
        export_timeout: Seconds one OTLP export may take before it is abandoned.
        metric_export_interval: Seconds between OTLP metric pushes (Prometheus pulls on its own clock).

    Returns:
        A `Telemetry` handle. Calling `configure()` again returns the same handle (with a warning when
        the arguments differ): OpenTelemetry's global providers can be set once per process.

    A process whose global providers were already installed by someone else (`logfire.configure()`,
    your own SDK set-up) keeps them: `configure()` then only adds its OTLP span exporter where the
    provider accepts processors, and says in `Telemetry.notes` what it left out.
    """
    global _active
    protocol = _resolve_protocol(otlp_protocol)
    endpoint, endpoint_from_env = _resolve_endpoint(otlp_endpoint)
    request = (
        service_name,
        metrics_host,
        metrics_port,
        endpoint,
        protocol,
        logfire,
        instrument_pydantic_ai,
        export_timeout,
        metric_export_interval,
    )
    with _lock:
        if _active is not None:
            previous_request, handle = _active
            if previous_request != request:
                warnings.warn(
                    'observable_harness.otel_setup.configure() was already called in this process; OpenTelemetry '
                    'providers can be installed once, so the first configuration stays. Call configure() once, '
                    'at start-up.',
                    stacklevel=2,
                )
            return handle
        handle = _install(
            service_name=service_name or os.environ.get(_ENV_SERVICE_NAME) or DEFAULT_SERVICE_NAME,
            metrics_host=metrics_host,
            metrics_port=metrics_port,
            endpoint=endpoint,
            endpoint_from_env=endpoint_from_env,
            protocol=protocol,
            use_logfire=logfire,
            instrument_pydantic_ai=instrument_pydantic_ai,
            export_timeout=export_timeout,
            metric_export_interval=metric_export_interval,
        )
        _active = (request, handle)
        return handle


def _resolve_protocol(explicit: OTLPProtocol | None) -> OTLPProtocol:
    value = explicit or os.environ.get(_ENV_PROTOCOL, '').strip() or 'http/protobuf'
    if value not in get_args(OTLPProtocol):
        raise ValueError(
            f'OTLP protocol {value!r} is not supported here; use "http/protobuf" (the default) or "grpc" '
            f'(argument otlp_protocol= or the {_ENV_PROTOCOL} environment variable).'
        )
    return value  # pyright: ignore[reportReturnType]  # narrowed by the membership test above


def _resolve_endpoint(explicit: str | None) -> tuple[str | None, bool]:
    """The OTLP endpoint to use and whether it came from the environment."""
    if explicit:
        return explicit, False
    base = os.environ.get(_ENV_ENDPOINT, '').strip()
    if base:
        return base, True
    for name in _ENV_SIGNAL_ENDPOINTS:
        per_signal = os.environ.get(name, '').strip()
        if per_signal:
            return per_signal, True
    return None, False


def _empty_processors() -> list[SpanProcessor]:
    return []


def _empty_readers() -> list[MetricReader]:
    return []


@dataclass
class _Parts:
    """What `_install` builds, so that flush and shutdown reach every piece exactly once."""

    notes: list[str] = field(default_factory=list[str])
    span_processors: list[SpanProcessor] = field(default_factory=_empty_processors)
    metric_readers: list[MetricReader] = field(default_factory=_empty_readers)
    flushers: list[Callable[[float], bool]] = field(default_factory=list[Callable[[float], bool]])
    stoppers: list[Callable[[float], object]] = field(default_factory=list[Callable[[float], object]])
    metrics_url: str | None = None
    stop_endpoint: Callable[[], None] | None = None

    def note(self, message: str) -> None:
        self.notes.append(message)
        # note <- _install_* helper <- _install <- configure <- the caller, who should see the warning.
        warnings.warn(message, stacklevel=5)

    def drop_endpoint(self) -> None:
        """Stop the metrics endpoint early: nothing will ever feed it."""
        if self.stop_endpoint is not None:
            self.stop_endpoint()
            self.stop_endpoint = None
        self.metrics_url = None


def _install(
    *,
    service_name: str,
    metrics_host: str,
    metrics_port: int | None,
    endpoint: str | None,
    endpoint_from_env: bool,
    protocol: OTLPProtocol,
    use_logfire: bool,
    instrument_pydantic_ai: bool,
    export_timeout: float,
    metric_export_interval: float,
) -> Telemetry:
    parts = _Parts()
    if metrics_port is not None:
        _start_prometheus_endpoint(parts, metrics_host, metrics_port)

    # Logfire reads OTEL_EXPORTER_OTLP_* itself and adds its own OTLP exporters; adding ours too would
    # send everything twice.
    otlp_by_us = endpoint is not None and not (use_logfire and endpoint_from_env)
    try:
        if otlp_by_us:
            _add_otlp_exporters(parts, endpoint, endpoint_from_env, protocol, export_timeout, metric_export_interval)
        if use_logfire:
            _install_logfire(parts, service_name)
        else:
            _install_sdk(parts, service_name)
    except BaseException:
        # A set-up error (a bad Logfire token, an exporter that cannot be built) leaves no server behind.
        parts.drop_endpoint()
        raise

    pydantic_ai_instrumented = instrument_pydantic_ai and _instrument_pydantic_ai(parts)

    def flush(timeout: float) -> bool:
        return all([flusher(timeout) for flusher in parts.flushers])

    def shutdown(timeout: float) -> None:
        for stopper in parts.stoppers:
            try:
                stopper(timeout)
            except Exception:
                _log.warning('observable_harness: a telemetry component failed to stop', exc_info=True)
        parts.drop_endpoint()

    return Telemetry(
        metrics_url=parts.metrics_url,
        otlp_endpoint=endpoint,
        otlp_protocol=protocol if endpoint else None,
        logfire=use_logfire,
        pydantic_ai_instrumented=pydantic_ai_instrumented,
        notes=tuple(parts.notes),
        _flush=flush,
        _shutdown=shutdown,
    )


def _start_prometheus_endpoint(parts: _Parts, host: str, port: int) -> None:
    with needs_extra('telemetry', 'the local Prometheus endpoint'):
        from opentelemetry.exporter.prometheus import PrometheusMetricReader
        from prometheus_client import REGISTRY, CollectorRegistry, start_http_server

    # A registry of our own keeps the exposition to what the providers collect, and lets a second
    # endpoint (tests, several services in one process) coexist with the application's own registry.
    registry = REGISTRY
    if 'registry' in inspect.signature(PrometheusMetricReader.__init__).parameters:
        registry = CollectorRegistry(auto_describe=True)
        reader = PrometheusMetricReader(registry=registry)
    else:  # pragma: no cover - exporter releases before the registry argument
        reader = PrometheusMetricReader()
    try:
        server, thread = start_http_server(port, addr=host, registry=registry)
    except OSError as error:
        reader.shutdown()  # pyright: ignore[reportUnknownMemberType]  # untyped **kwargs upstream
        parts.note(
            f'The metrics endpoint could not listen on {host}:{port} ({error.strerror or error}); metrics are not '
            'served locally. Pass metrics_port=0 for any free port, or another port.'
        )
        return
    parts.metric_readers.append(reader)
    parts.stop_endpoint = lambda: _stop_http_server(server, thread)
    bound_host, bound_port = server.server_address[:2]
    shown_host = f'[{bound_host}]' if ':' in str(bound_host) else str(bound_host)
    parts.metrics_url = f'http://{shown_host}:{bound_port}/metrics'


def _stop_http_server(server: WSGIServer, thread: threading.Thread) -> None:
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def _otlp_url(endpoint: str, signal: str) -> str:
    return endpoint.rstrip('/') + f'/v1/{signal}'


def _add_otlp_exporters(
    parts: _Parts,
    endpoint: str | None,
    endpoint_from_env: bool,
    protocol: OTLPProtocol,
    timeout: float,
    metric_export_interval: float,
) -> None:
    # From the environment, the exporters resolve the base and per-signal variables themselves (the
    # standard rules, including `/v1/<signal>` for HTTP); an explicit endpoint is a base URL.
    explicit = None if endpoint_from_env else endpoint
    if protocol == 'grpc':
        with needs_extra('grpc', 'OTLP over gRPC'):
            from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import (
                OTLPMetricExporter as GrpcMetricExporter,
            )
            from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcSpanExporter

        span_exporter: Any = GrpcSpanExporter(endpoint=explicit, timeout=timeout)
        metric_exporter: Any = GrpcMetricExporter(endpoint=explicit, timeout=timeout)
    else:
        with needs_extra('telemetry', 'OTLP over HTTP'):
            from opentelemetry.exporter.otlp.proto.http.metric_exporter import (
                OTLPMetricExporter as HttpMetricExporter,
            )
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpSpanExporter

        span_exporter = HttpSpanExporter(endpoint=explicit and _otlp_url(explicit, 'traces'), timeout=timeout)
        metric_exporter = HttpMetricExporter(endpoint=explicit and _otlp_url(explicit, 'metrics'), timeout=timeout)
    with needs_extra('telemetry', 'OTLP export'):
        from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    timeout_millis = int(timeout * 1000)
    # The queue is bounded and drops when full: a stalled collector loses spans, never blocks a run.
    parts.span_processors.append(
        BatchSpanProcessor(
            span_exporter, max_queue_size=2048, schedule_delay_millis=1000, export_timeout_millis=timeout_millis
        )
    )
    push = PeriodicExportingMetricReader(
        metric_exporter,
        export_interval_millis=int(metric_export_interval * 1000),
        export_timeout_millis=timeout_millis,
    )
    parts.metric_readers.append(push)
    # Flushing pushes this reader's metrics now. Only push readers are flushed: a pull reader (the Prometheus
    # endpoint) keeps what a forced collection made for its next scrape, which would then carry it twice.
    parts.flushers.append(lambda timeout: push.force_flush(int(timeout * 1000)))
    for processor in parts.span_processors:
        parts.flushers.append(_flush_of(processor))


def _install_sdk(parts: _Parts, service_name: str) -> None:
    with needs_extra('telemetry', 'configure()'):
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
    resource = Resource.create({'service.name': service_name})
    existing_tracer_provider = trace.get_tracer_provider()
    if isinstance(existing_tracer_provider, trace.ProxyTracerProvider):
        tracer_provider = TracerProvider(resource=resource)
        for processor in parts.span_processors:
            tracer_provider.add_span_processor(processor)
        trace.set_tracer_provider(tracer_provider)
        parts.stoppers.append(lambda _timeout: tracer_provider.shutdown())
    elif parts.span_processors:
        add = getattr(existing_tracer_provider, 'add_span_processor', None)
        if callable(add):
            for processor in parts.span_processors:
                add(processor)
            parts.stoppers.extend(_shutdown_of(processor) for processor in parts.span_processors)
        else:
            parts.note(
                'A tracer provider was already installed and accepts no span processors, so spans are not '
                'sent over OTLP by configure(); add an exporter to your own provider instead.'
            )

    meter_provider = MeterProvider(metric_readers=parts.metric_readers, resource=resource)
    metrics.set_meter_provider(meter_provider)
    if metrics.get_meter_provider() is meter_provider:
        parts.stoppers.insert(0, lambda timeout: meter_provider.shutdown(int(timeout * 1000)))
    else:
        meter_provider.shutdown()
        parts.metric_readers.clear()
        parts.drop_endpoint()
        parts.note(
            'A meter provider was already installed (by logfire.configure() or your own SDK set-up), so '
            'configure() could not attach its metric readers: call configure() before that set-up, or add '
            "OpenTelemetry's PrometheusMetricReader to your own MeterProvider."
        )


def _flush_of(processor: SpanProcessor) -> Callable[[float], bool]:
    return lambda timeout: processor.force_flush(int(timeout * 1000))


def _shutdown_of(processor: SpanProcessor) -> Callable[[float], object]:
    return lambda _timeout: processor.shutdown()


def _install_logfire(parts: _Parts, service_name: str) -> None:
    with needs_extra('logfire', 'configure(logfire=True)'):
        import logfire
        from opentelemetry.sdk.metrics.view import ExponentialBucketHistogramAggregation

    # Logfire's default views turn every histogram exponential; the Prometheus exposition (and the
    # calibration that reads it) needs our explicit size buckets, so keep all its views but that one.
    views = [
        view
        for view in logfire.MetricsOptions.DEFAULT_VIEWS
        if not isinstance(getattr(view, '_aggregation', None), ExponentialBucketHistogramAggregation)
    ]
    logfire.configure(
        send_to_logfire='if-token-present',
        service_name=service_name,
        console=False,
        additional_span_processors=list(parts.span_processors),
        metrics=logfire.MetricsOptions(additional_readers=list(parts.metric_readers), views=views),
    )
    # Not logfire.force_flush(): it forces a collection on the Prometheus endpoint's reader too (see `_flush_of`).
    parts.stoppers.insert(0, lambda timeout: logfire.shutdown(int(timeout * 1000)))


def _instrument_pydantic_ai(parts: _Parts) -> bool:
    try:
        from pydantic_ai import Agent
        from pydantic_ai.models.instrumented import InstrumentationSettings

        Agent.instrument_all(InstrumentationSettings(include_content=False))
    except Exception as error:  # an unexpected pydantic-ai release must not stop telemetry set-up
        parts.note(f'pydantic-ai instrumentation could not be turned on ({type(error).__name__}).')
        return False
    return True
