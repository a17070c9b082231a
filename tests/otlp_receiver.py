"""Tiny OTLP receivers on loopback (HTTP/protobuf and gRPC), and endpoints that never answer.

They decode what the real OpenTelemetry exporters send with `opentelemetry-proto`, so a test asserts on
the wire format a collector, Tempo, Jaeger or Logfire would receive.
"""

from __future__ import annotations

import gzip
import socket
import threading
import time
import zlib
from collections.abc import Generator
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2, metrics_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.metrics.v1.metrics_pb2 import Metric
from opentelemetry.proto.trace.v1.trace_pb2 import Span


def any_value(value: AnyValue) -> Any:
    kind = value.WhichOneof('value')
    if kind == 'array_value':
        return tuple(any_value(v) for v in value.array_value.values)
    return getattr(value, kind) if kind else None


def attributes(kvs: Any) -> dict[str, Any]:
    pairs: list[KeyValue] = list(kvs)
    return {kv.key: any_value(kv.value) for kv in pairs}


@dataclass
class ReceivedSpan:
    span: Span
    scope: str
    resource: dict[str, Any]
    scope_version: str = ''

    @property
    def name(self) -> str:
        return self.span.name

    @property
    def attributes(self) -> dict[str, Any]:
        return attributes(self.span.attributes)


@dataclass
class Received:
    """Everything a receiver decoded, shared with its server threads."""

    trace_requests: list[trace_service_pb2.ExportTraceServiceRequest] = field(
        default_factory=list[trace_service_pb2.ExportTraceServiceRequest]
    )
    metric_requests: list[metrics_service_pb2.ExportMetricsServiceRequest] = field(
        default_factory=list[metrics_service_pb2.ExportMetricsServiceRequest]
    )
    paths: list[str] = field(default_factory=list[str])
    lock: threading.Lock = field(default_factory=threading.Lock)

    def spans(self) -> list[ReceivedSpan]:
        out: list[ReceivedSpan] = []
        with self.lock:
            requests = list(self.trace_requests)
        for request in requests:
            for resource_spans in request.resource_spans:
                resource = attributes(resource_spans.resource.attributes)
                for scope_spans in resource_spans.scope_spans:
                    out.extend(
                        ReceivedSpan(s, scope_spans.scope.name, resource, scope_spans.scope.version)
                        for s in scope_spans.spans
                    )
        return out

    def metrics(self) -> list[Metric]:
        with self.lock:
            requests = list(self.metric_requests)
        return [
            metric
            for request in requests
            for resource_metrics in request.resource_metrics
            for scope_metrics in resource_metrics.scope_metrics
            for metric in scope_metrics.metrics
        ]


def _decompress(body: bytes, encoding: str | None) -> bytes:
    if encoding == 'gzip':
        return gzip.decompress(body)
    if encoding == 'deflate':
        return zlib.decompress(body)
    return body


@contextmanager
def http_receiver() -> Generator[tuple[str, Received]]:
    """An OTLP/HTTP receiver; yields its base URL (`http://127.0.0.1:<port>`) and what it received."""
    received = Received()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = _decompress(
                self.rfile.read(int(self.headers['Content-Length'] or 0)), self.headers['Content-Encoding']
            )
            with received.lock:
                received.paths.append(self.path)
                if self.path == '/v1/traces':
                    received.trace_requests.append(trace_service_pb2.ExportTraceServiceRequest.FromString(body))
                    reply = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
                elif self.path == '/v1/metrics':
                    received.metric_requests.append(metrics_service_pb2.ExportMetricsServiceRequest.FromString(body))
                    reply = metrics_service_pb2.ExportMetricsServiceResponse().SerializeToString()
                else:
                    self.send_error(404)
                    return
            self.send_response(200)
            self.send_header('Content-Type', 'application/x-protobuf')
            self.send_header('Content-Length', str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f'http://127.0.0.1:{server.server_address[1]}', received
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def grpc_receiver() -> Generator[tuple[str, Received]]:
    """An OTLP/gRPC receiver; yields `http://127.0.0.1:<port>` (plaintext) and what it received."""
    import grpc

    received = Received()

    class Traces(trace_service_pb2_grpc.TraceServiceServicer):
        def Export(self, request: Any, context: Any) -> Any:
            with received.lock:
                received.trace_requests.append(request)
            return trace_service_pb2.ExportTraceServiceResponse()

    class Metrics(metrics_service_pb2_grpc.MetricsServiceServicer):
        def Export(self, request: Any, context: Any) -> Any:
            with received.lock:
                received.metric_requests.append(request)
            return metrics_service_pb2.ExportMetricsServiceResponse()

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(Traces(), server)
    metrics_service_pb2_grpc.add_MetricsServiceServicer_to_server(Metrics(), server)
    port = server.add_insecure_port('127.0.0.1:0')
    server.start()
    try:
        yield f'http://127.0.0.1:{port}', received
    finally:
        server.stop(grace=None)


def closed_port() -> int:
    """A loopback port with nothing listening: connections are refused at once."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(('127.0.0.1', 0))
        return int(probe.getsockname()[1])


@contextmanager
def black_hole() -> Generator[tuple[str, list[float]]]:
    """A server that accepts connections and never answers: the worst case for an exporter.

    Yields its URL and the times connections were accepted (so a test can tell the exporter did try).
    """
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(('127.0.0.1', 0))
    listener.listen(64)
    listener.settimeout(0.2)
    accepted: list[float] = []
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            accepted.append(time.monotonic())
            held.append(connection)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f'http://127.0.0.1:{listener.getsockname()[1]}', accepted
    finally:
        stop.set()
        thread.join(timeout=5)
        for connection in held:
            connection.close()
        listener.close()
