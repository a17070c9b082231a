"""PromQL over the catalog's exposed series names, shared by the dashboards and the alert rules.

Every expression is built from `telemetry.names`, so a renamed metric changes the dashboards, the
alerts and the tests together, and an expression used by a panel and an alert is written once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..telemetry import names
from ..telemetry.names import MetricSpec

__all__ = [
    'INPUT_TYPES',
    'TOOL',
    'cache_read_share',
    'fallback_rate',
    'increase',
    'per_hour',
    'per_size_unit',
    'quantile',
    'rate',
    'ratio',
    'series',
]

TOOL = 'tool=~"$tool"'
"""Grafana's tool selector; the dashboards' `tool` variable is multi-valued with `.*` for All."""


def series(spec: MetricSpec, *matchers: str, suffix: str = '') -> str:
    """`exposed_name{matcher, ...}`; `suffix` picks a histogram's `_bucket`, `_sum` or `_count`."""
    selector = '{' + ', '.join(matchers) + '}' if matchers else ''
    return f'{spec.exposed}{suffix}{selector}'


def _sum(inner: str, by: Sequence[str]) -> str:
    return f'sum by ({", ".join(by)}) ({inner})' if by else f'sum({inner})'


def rate(spec: MetricSpec, window: str, *matchers: str, by: Sequence[str] = (), suffix: str = '') -> str:
    return _sum(f'rate({series(spec, *matchers, suffix=suffix)}[{window}])', by)


def increase(spec: MetricSpec, window: str, *matchers: str, by: Sequence[str] = (), suffix: str = '') -> str:
    return _sum(f'increase({series(spec, *matchers, suffix=suffix)}[{window}])', by)


def ratio(part: str, whole: str) -> str:
    """`part / whole`, with a missing part read as 0 so a healthy series shows 0 rather than nothing."""
    return f'({part} or 0 * {whole}) / {whole}'


def fallback_rate(window: str, *matchers: str, by: Sequence[str] = ('tool',)) -> str:
    """Share of reductions (decisions other than passthrough) whose chosen action fell back to `then`."""
    fell_back = rate(names.DECISIONS, window, 'fallback="true"', *matchers, by=by)
    reduced = rate(names.DECISIONS, window, 'action!="passthrough"', *matchers, by=by)
    return ratio(fell_back, reduced)


INPUT_TYPES = 'type=~"uncached_input|cache_read|cache_write"'
"""The token types that together are a response's input (everything but `output`)."""


def cache_read_share(spec: MetricSpec, window: str, *matchers: str, by: Sequence[str] = ('model',)) -> str:
    """Share of input tokens read from the prompt cache, over a token counter with the usage `type` label."""
    read = rate(spec, window, 'type="cache_read"', *matchers, by=by)
    return ratio(read, rate(spec, window, INPUT_TYPES, *matchers, by=by))


def per_hour(expr: str) -> str:
    """A per-second rate as a per-hour one: money reads better in dollars an hour than in dollars a second."""
    return f'{expr} * 3600'


def quantile(q: float, spec: MetricSpec, window: str, *matchers: str, by: Sequence[str] = ()) -> str:
    """The `q` quantile of a histogram over `window`, estimated from its buckets by Prometheus."""
    buckets = rate(spec, window, *matchers, by=('le', *by), suffix='_bucket')
    return f'histogram_quantile({q}, {buckets})'


def per_size_unit(build: Callable[[MetricSpec], str], specs: Mapping[names.SizeUnit, MetricSpec]) -> str:
    """One expression over the per-unit metrics (`chars`, `tokens`), each result labelled `unit`.

    Sizes in characters and in tokens are separate metrics, so no `sum` ever mixes them; a panel shows
    whichever units the agents measure in, told apart by the `unit` label.
    """
    return ' or '.join(f'label_replace({build(spec)}, "unit", "{unit}", "", "")' for unit, spec in specs.items())
