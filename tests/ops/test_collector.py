"""`otel-collector.yaml` is a coherent collector configuration (the collector binary is not available
here, so the structure is checked the way the collector resolves it)."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from tests.e2e.prometheus import REPO_ROOT

CONFIG_PATH = REPO_ROOT / 'otel-collector.yaml'


def load() -> dict[str, Any]:
    return yaml.safe_load(CONFIG_PATH.read_text(encoding='utf-8'))


def component_type(name: str) -> str:
    """`otlp/tempo` → `otlp`: the collector's `type[/name]` component ids."""
    return name.split('/', 1)[0]


def problems(config: dict[str, Any]) -> list[str]:
    found: list[str] = []
    service = config.get('service') or {}
    for extension in service.get('extensions', []):
        if extension not in (config.get('extensions') or {}):
            found.append(f'extension {extension!r} is not defined')
    pipelines = service.get('pipelines') or {}
    if not pipelines:
        found.append('no pipelines')
    for pipeline_name, pipeline in pipelines.items():
        signal = component_type(pipeline_name)
        if signal not in ('traces', 'metrics', 'logs'):
            found.append(f'pipeline {pipeline_name!r} is not traces, metrics or logs')
        for kind in ('receivers', 'processors', 'exporters'):
            names = pipeline.get(kind, [])
            if kind != 'processors' and not names:
                found.append(f'pipeline {pipeline_name!r} has no {kind}')
            found.extend(
                f'pipeline {pipeline_name!r} uses undefined {kind[:-1]} {name!r}'
                for name in names
                if name not in (config.get(kind) or {})
            )
    return found


def test_every_pipeline_uses_only_defined_components() -> None:
    assert problems(load()) == []


def test_the_checker_catches_an_undefined_component() -> None:
    config = load()
    config['service']['pipelines']['traces']['exporters'].append('otlp/jaeger')
    assert problems(config) == ["pipeline 'traces' uses undefined exporter 'otlp/jaeger'"]


def test_otlp_comes_in_over_grpc_and_http_on_the_standard_ports() -> None:
    protocols = load()['receivers']['otlp']['protocols']
    assert protocols['grpc']['endpoint'].endswith(':4317')
    assert protocols['http']['endpoint'].endswith(':4318')


def test_metrics_go_to_prometheus_and_traces_to_an_otlp_backend_through_batch() -> None:
    pipelines = load()['service']['pipelines']
    assert 'prometheus' in pipelines['metrics']['exporters']
    assert all(component_type(e) in ('otlp', 'otlphttp') for e in pipelines['traces']['exporters'])
    for pipeline in pipelines.values():
        assert 'otlp' in pipeline['receivers']
        # memory_limiter must run first to shed load before anything else buffers it.
        assert pipeline['processors'][0] == 'memory_limiter'
        assert 'batch' in pipeline['processors']


@pytest.mark.parametrize(
    ('block', 'exporter'),
    [('otlp/jaeger', 'otlp'), ('otlphttp/logfire', 'otlphttp'), ('prometheusremotewrite', 'prometheusremotewrite')],
)
def test_each_alternative_backend_is_ready_to_uncomment(block: str, exporter: str) -> None:
    """Uncommenting a documented alternative yields a valid exporter definition."""
    text = CONFIG_PATH.read_text(encoding='utf-8')
    match = re.search(rf'^  # {re.escape(block)}:\n((?:  #   .*\n)+)', text, re.M)
    assert match, f'{block} is not offered as a commented block'
    uncommented = f'{block}:\n' + ''.join(line[4:] + '\n' for line in match.group(1).splitlines())
    definition = yaml.safe_load(uncommented)[block]
    assert definition['endpoint']
    config = load()
    config['exporters'][block] = definition
    signal = 'metrics' if exporter == 'prometheusremotewrite' else 'traces'
    config['service']['pipelines'][signal]['exporters'].append(block)
    assert problems(config) == []
