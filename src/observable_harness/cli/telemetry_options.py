"""The telemetry flags every long-running command shares (`demo`, ...), mapped onto `otel_setup.configure()`."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, get_args

from ..otel_setup import DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT, OTLPProtocol

if TYPE_CHECKING:
    from ..otel_setup import Telemetry


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        'telemetry', 'Where spans and metrics go (OTEL_EXPORTER_OTLP_* and LOGFIRE_TOKEN are honoured too).'
    )
    group.add_argument(
        '--metrics-host',
        default=DEFAULT_METRICS_HOST,
        help=f'interface of the Prometheus endpoint (default: {DEFAULT_METRICS_HOST})',
    )
    group.add_argument(
        '--metrics-port',
        type=int,
        default=DEFAULT_METRICS_PORT,
        help=f'port of the Prometheus endpoint; 0 picks a free one (default: {DEFAULT_METRICS_PORT})',
    )
    group.add_argument('--no-metrics', action='store_true', help='do not serve the Prometheus endpoint')
    group.add_argument(
        '--otlp-endpoint', help='OTLP base URL for traces and metrics (default: OTEL_EXPORTER_OTLP_ENDPOINT)'
    )
    group.add_argument(
        '--otlp-protocol',
        choices=get_args(OTLPProtocol),
        help='OTLP protocol (default: OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf)',
    )
    group.add_argument('--logfire', action='store_true', help='send to Logfire too (needs LOGFIRE_TOKEN)')
    group.add_argument(
        '--service-name', help='service.name of the telemetry (default: OTEL_SERVICE_NAME or observable-harness)'
    )


def configure_from(args: argparse.Namespace) -> Telemetry:
    """`otel_setup.configure()` with the flags `add_arguments` defined."""
    from ..otel_setup import configure

    return configure(
        service_name=args.service_name,
        metrics_host=args.metrics_host,
        metrics_port=None if args.no_metrics else args.metrics_port,
        otlp_endpoint=args.otlp_endpoint,
        otlp_protocol=args.otlp_protocol,
        logfire=args.logfire,
    )
