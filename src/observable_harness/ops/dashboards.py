"""The Grafana dashboards, generated from the telemetry catalog so their queries cannot drift from it.

    python -m observable_harness.ops.dashboards dashboards/     # or: make dashboards

writes `tool-output-limits.json`, `system-reminders.json` and `alerts.rules.yml` into the directory.
The files are committed; a test regenerates them and requires identical bytes.

Both dashboards use Grafana's classic JSON model with a `datasource` template variable of type
Prometheus, so they import into any Grafana (Dashboards → New → Import) and ask for the data source.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..telemetry import names
from . import alerts
from .queries import (
    INPUT_TYPES,
    TOOL,
    cache_read_share,
    fallback_rate,
    increase,
    per_hour,
    per_size_unit,
    quantile,
    rate,
    ratio,
    series,
)

__all__ = [
    'DASHBOARDS',
    'PanelQuery',
    'build_system_reminders',
    'build_tool_output_limits',
    'evaluable',
    'panel_queries',
    'render',
]

Json = dict[str, Any]

DATASOURCE: Json = {'type': 'prometheus', 'uid': '${datasource}'}
SCHEMA_VERSION = 39
"""Grafana 10.4's dashboard schema version; newer Grafana releases migrate it on import."""

RATE = '$__rate_interval'
RANGE = '$__range'
WINDOW = '$window'

_QUANTILES = (0.5, 0.9, 0.99)
USD = 'currencyUSD'
_ESTIMATES = (
    ('lower', 'lower bound: every avoided token a cache read'),
    ('expected', 'expected: at the cache-read share the responses reported'),
    ('upper', 'upper bound: every avoided token at the input price'),
)


def _target(expr: str, legend: str = '', *, ref: str = 'A', fmt: str = 'time_series', instant: bool = False) -> Json:
    return {
        'datasource': DATASOURCE,
        'editorMode': 'code',
        'expr': expr,
        'format': fmt,
        'instant': instant,
        'legendFormat': legend or '__auto',
        'range': not instant,
        'refId': ref,
    }


def _targets(*queries: tuple[str, str]) -> list[Json]:
    return [_target(expr, legend, ref=chr(ord('A') + i)) for i, (expr, legend) in enumerate(queries)]


def _field_config(unit: str, *, decimals: int | None = None, stack: bool = False, bars: bool = False) -> Json:
    defaults: Json = {'unit': unit, 'min': 0}
    if decimals is not None:
        defaults['decimals'] = decimals
    defaults['custom'] = {
        'drawStyle': 'bars' if bars else 'line',
        'fillOpacity': 20 if stack or bars else 10,
        'lineWidth': 1,
        'showPoints': 'never',
        'spanNulls': True,
        'stacking': {'group': 'A', 'mode': 'normal' if stack else 'none'},
    }
    return {'defaults': defaults, 'overrides': []}


def timeseries(
    title: str, description: str, *queries: tuple[str, str], unit: str = 'short', stack: bool = False
) -> Json:
    return {
        'type': 'timeseries',
        'title': title,
        'description': description,
        'datasource': DATASOURCE,
        'targets': _targets(*queries),
        'fieldConfig': _field_config(unit, stack=stack),
        'options': {
            'legend': {'displayMode': 'table', 'placement': 'bottom', 'showLegend': True, 'calcs': ['lastNotNull']},
            'tooltip': {'mode': 'multi', 'sort': 'desc'},
        },
    }


def stat(title: str, description: str, expr: str, *, unit: str = 'short', decimals: int | None = 0) -> Json:
    return {
        'type': 'stat',
        'title': title,
        'description': description,
        'datasource': DATASOURCE,
        'targets': [_target(expr, title, instant=True)],
        'fieldConfig': _field_config(unit, decimals=decimals),
        'options': {
            'colorMode': 'value',
            'graphMode': 'none',
            'justifyMode': 'auto',
            'orientation': 'auto',
            'reduceOptions': {'calcs': ['lastNotNull'], 'fields': '', 'values': False},
            'textMode': 'value',
        },
    }


def bargauge(
    title: str, description: str, expr: str, legend: str, *, unit: str = 'short', decimals: int | None = 0
) -> Json:
    return {
        'type': 'bargauge',
        'title': title,
        'description': description,
        'datasource': DATASOURCE,
        'targets': [_target(expr, legend, instant=True)],
        'fieldConfig': _field_config(unit, decimals=decimals),
        'options': {
            'displayMode': 'gradient',
            'orientation': 'horizontal',
            'reduceOptions': {'calcs': ['lastNotNull'], 'fields': '', 'values': False},
            'showUnfilled': True,
        },
    }


def heatmap(title: str, description: str, expr: str, *, unit: str = 'short') -> Json:
    return {
        'type': 'heatmap',
        'title': title,
        'description': description,
        'datasource': DATASOURCE,
        'targets': [_target(expr, '{{le}}', fmt='heatmap')],
        'fieldConfig': {'defaults': {'custom': {'scaleDistribution': {'type': 'linear'}}}, 'overrides': []},
        'options': {
            'calculate': False,
            'cellGap': 1,
            'color': {'mode': 'scheme', 'scheme': 'Oranges', 'scale': 'exponential', 'exponent': 0.5, 'steps': 64},
            'rowsFrame': {'layout': 'le'},
            'tooltip': {'mode': 'single', 'yHistogram': True},
            'yAxis': {'axisPlacement': 'left', 'unit': unit},
        },
    }


@dataclass
class _Grid:
    """Places panels left to right in rows 24 units wide, the way Grafana's grid lays them out."""

    panels: list[Json] = field(default_factory=list[Json])
    _x: int = 0
    _y: int = 0
    _row_height: int = 0

    def row(self, title: str, *, repeat: str | None = None) -> None:
        self._newline()
        row: Json = {'type': 'row', 'title': title, 'collapsed': False, 'panels': []}
        if repeat:
            row['repeat'] = repeat
        self._place(row, 24, 1)
        self._newline()

    def add(self, panel: Json, w: int, h: int) -> None:
        if self._x + w > 24:
            self._newline()
        self._place(panel, w, h)

    def _place(self, panel: Json, w: int, h: int) -> None:
        panel['id'] = len(self.panels) + 1
        panel['gridPos'] = {'h': h, 'w': w, 'x': self._x, 'y': self._y}
        self.panels.append(panel)
        self._x += w
        self._row_height = max(self._row_height, h)

    def _newline(self) -> None:
        if self._x:
            self._y += self._row_height
        self._x = 0
        self._row_height = 0


def _datasource_variable() -> Json:
    return {
        'name': 'datasource',
        'label': 'Data source',
        'type': 'datasource',
        'query': 'prometheus',
        'current': {},
        'hide': 0,
        'includeAll': False,
        'multi': False,
        'options': [],
        'refresh': 1,
        'regex': '',
    }


def _query_variable(name: str, label: str, query: str, *, multi: bool, default: str | None = None) -> Json:
    variable: Json = {
        'name': name,
        'label': label,
        'type': 'query',
        'datasource': DATASOURCE,
        'definition': query,
        'query': query,
        'current': {'selected': True, 'text': default, 'value': default}
        if default
        else {'selected': True, 'text': ['All'], 'value': ['$__all']},
        'hide': 0,
        'includeAll': multi,
        'multi': multi,
        'options': [],
        'refresh': 2,
        'regex': '',
        'sort': 1,
    }
    if multi:
        variable['allValue'] = '.*'
    return variable


def _window_variable() -> Json:
    options = ['1h', '6h', '1d', '7d']
    return {
        'name': 'window',
        'label': 'Percentile window',
        'description': 'How much history the size percentiles summarize; calibrate over a representative week.',
        'type': 'custom',
        'query': ','.join(options),
        'current': {'selected': True, 'text': '1h', 'value': '1h'},
        'hide': 0,
        'includeAll': False,
        'multi': False,
        'options': [{'selected': option == '1h', 'text': option, 'value': option} for option in options],
    }


def _dashboard(uid: str, title: str, description: str, grid: _Grid, variables: Sequence[Json]) -> Json:
    return {
        'annotations': {
            'list': [
                {
                    'builtIn': 1,
                    'datasource': {'type': 'grafana', 'uid': '-- Grafana --'},
                    'enable': True,
                    'hide': True,
                    'iconColor': 'rgba(0, 211, 255, 1)',
                    'name': 'Annotations & Alerts',
                    'type': 'dashboard',
                }
            ]
        },
        'description': description,
        'editable': True,
        'fiscalYearStartMonth': 0,
        'graphTooltip': 1,
        'id': None,
        'links': [],
        'panels': grid.panels,
        'refresh': '30s',
        'schemaVersion': SCHEMA_VERSION,
        'tags': ['observable-harness', 'pydantic-ai'],
        'templating': {'list': [_datasource_variable(), *variables]},
        'time': {'from': 'now-6h', 'to': 'now'},
        'timepicker': {},
        'timezone': 'browser',
        'title': title,
        'uid': uid,
        'version': 1,
        'weekStart': '',
    }


def build_tool_output_limits() -> Json:
    """ "Tool output limits": savings, decisions, fallbacks, size distribution against thresholds, store, cost."""
    g = _Grid()
    n = names
    g.row('Savings')
    g.add(
        stat(
            'Tokens saved',
            'Estimated tokens (~4 characters each) that reductions kept out of the context window.',
            increase(n.TOKENS_SAVED, RANGE, TOOL),
        ),
        6,
        4,
    )
    g.add(
        stat(
            'Bytes saved',
            'UTF-8 bytes that reductions kept out of the context window.',
            increase(n.BYTES_SAVED, RANGE, TOOL),
            unit='bytes',
        ),
        6,
        4,
    )
    g.add(
        stat(
            'Resend tokens avoided',
            'Tokens that earlier reductions kept out of every later model request of the same run: a cut made '
            'at step 2 of a 20-step run is saved 18 more times.',
            increase(n.RESEND_TOKENS_AVOIDED, RANGE, TOOL),
        ),
        6,
        4,
    )
    g.add(
        stat(
            'Fallback rate',
            'Share of reductions whose chosen action could not run and handed over to its `then` action.',
            fallback_rate(RANGE, TOOL, by=()),
            unit='percentunit',
            decimals=1,
        ),
        6,
        4,
    )
    g.add(
        timeseries(
            'Tokens saved by tool',
            'Estimated tokens saved per second, by tool and by what was applied in the end.',
            (rate(n.TOKENS_SAVED, RATE, TOOL, by=('tool', 'outcome')), '{{tool}} {{outcome}}'),
            stack=True,
        ),
        8,
        8,
    )
    g.add(
        timeseries(
            'Bytes saved by tool',
            'Bytes saved per second, by tool and outcome.',
            (rate(n.BYTES_SAVED, RATE, TOOL, by=('tool', 'outcome')), '{{tool}} {{outcome}}'),
            unit='Bps',
            stack=True,
        ),
        8,
        8,
    )
    g.add(
        timeseries(
            'Resend tokens avoided by tool',
            'Per second: the compounding effect of cutting early in long runs.',
            (rate(n.RESEND_TOKENS_AVOIDED, RATE, TOOL, by=('tool',)), '{{tool}}'),
            stack=True,
        ),
        8,
        8,
    )

    _money_row(g)

    g.row('Decisions and fallbacks')
    g.add(
        timeseries(
            'Decisions by tool and outcome',
            'One decision per measured tool-output unit; `unchanged` includes passthrough.',
            (rate(n.DECISIONS, RATE, TOOL, by=('tool', 'outcome')), '{{tool}} {{outcome}}'),
            unit='ops',
            stack=True,
        ),
        12,
        8,
    )
    g.add(
        bargauge(
            'Chosen action → applied outcome',
            'Over the dashboard range: the action a band chose and what was applied in the end.',
            increase(n.DECISIONS, RANGE, TOOL, by=('action', 'outcome')),
            '{{action}} → {{outcome}}',
        ),
        12,
        8,
    )
    g.add(
        timeseries(
            'Fallback rate by tool',
            'Share of reductions that fell back. A steady rise usually means a full or read-only store, or a '
            'summarizer model that keeps failing.',
            (fallback_rate(RATE, TOOL), '{{tool}}'),
            unit='percentunit',
        ),
        12,
        8,
    )
    g.add(
        timeseries(
            'Fallbacks by step and reason',
            'Each hop down a `then` chain, with the exception type that caused it.',
            (
                increase(n.FALLBACKS, RATE, TOOL, by=('tool', 'from_action', 'to_action', 'reason')),
                '{{tool}}: {{from_action}} → {{to_action}} ({{reason}})',
            ),
            stack=True,
        ),
        12,
        8,
    )

    g.row('Output size distribution: $tool', repeat='tool')
    size_matcher = 'tool=~"$tool"'
    g.add(
        heatmap(
            'Output sizes in characters: $tool',
            'Measured size of each output, bucketed in powers of two (tools measured in tokens show in the '
            'percentiles panel).',
            increase(n.SIZE_CHARS, RATE, size_matcher, by=('le',), suffix='_bucket'),
        ),
        12,
        9,
    )
    g.add(
        timeseries(
            'Percentiles against band thresholds: $tool',
            'p50/p90/p99 of output size over the percentile window, with the configured band thresholds, in the '
            'unit each agent measures in. A threshold under p90 reduces more than the tail; '
            '`observable-harness calibrate` proposes better ones.',
            *[
                (
                    per_size_unit(lambda spec, q=q: quantile(q, spec, WINDOW, size_matcher), n.SIZE_BY_UNIT),
                    f'p{round(q * 100)} ({{{{unit}}}})',
                )
                for q in _QUANTILES
            ],
            (
                per_size_unit(
                    lambda spec: f'max by (agent, action) ({series(spec, size_matcher)})', n.BAND_THRESHOLD_BY_UNIT
                ),
                'threshold {{action}} ({{agent}}, {{unit}})',
            ),
        ),
        12,
        9,
    )

    g.row('Store and read-back')
    g.add(
        timeseries(
            'Spill store writes',
            'Bytes written to the overflow store per second, by tool and store.',
            (rate(n.SPILL_BYTES, RATE, TOOL, by=('tool', 'store')), '{{tool}} → {{store}}'),
            unit='Bps',
            stack=True,
        ),
        8,
        8,
    )
    g.add(
        timeseries(
            'Spill failures',
            'Writes the store refused; each one fell back (usually to truncation).',
            (increase(n.SPILL_FAILURES, RATE, by=('store', 'reason')), '{{store}} {{reason}}'),
            stack=True,
        ),
        8,
        8,
    )
    g.add(
        timeseries(
            'Pruning',
            'Files and bytes deleted by age pruning, and the errors met while pruning.',
            (increase(n.PRUNED_FILES, RATE, by=('store',)), 'files pruned ({{store}})'),
            (increase(n.PRUNE_FAILURES, RATE, by=('store', 'reason')), 'prune failures ({{store}} {{reason}})'),
        ),
        8,
        8,
    )
    g.add(
        stat(
            'Read-back hit rate',
            'Share of read_tool_result calls that found their handle. Misses and invalid calls mean the '
            'model guessed handles or read after pruning.',
            ratio(increase(n.READS, RANGE, 'outcome="hit"'), increase(n.READS, RANGE)),
            unit='percentunit',
            decimals=1,
        ),
        6,
        8,
    )
    g.add(
        timeseries(
            'Read-backs by outcome',
            'read_tool_result calls per second: hit, miss, denied, invalid.',
            (rate(n.READS, RATE, by=('outcome',)), '{{outcome}}'),
            unit='ops',
            stack=True,
        ),
        9,
        8,
    )
    g.add(
        timeseries(
            'Bytes freed by pruning',
            'Per second, by store.',
            (rate(n.PRUNED_BYTES, RATE, by=('store',)), '{{store}}'),
            unit='Bps',
        ),
        9,
        8,
    )

    g.row('Cost and latency')
    g.add(
        timeseries(
            'Summarize: tokens spent against tokens saved',
            'Summaries cost model tokens; they pay off while the saved line stays above the spent one.',
            (rate(n.SUMMARIZE_TOKENS, RATE), 'tokens spent summarizing'),
            (rate(n.TOKENS_SAVED, RATE, 'outcome="summarize"', TOOL), 'tokens saved by summaries'),
        ),
        12,
        8,
    )
    g.add(
        timeseries(
            'Reduce latency by action',
            'Wall time of one reduction including fallbacks and store writes: p50 and p99.',
            *[
                (quantile(q, n.REDUCE_DURATION, RATE, TOOL, by=('action',)), f'p{round(q * 100)} {{{{action}}}}')
                for q in (0.5, 0.99)
            ],
            unit='s',
        ),
        12,
        8,
    )
    return _dashboard(
        'oh-tool-output-limits',
        'Tool output limits',
        'ToolOutputLimits: what was cut, spilled or summarized, what it saved, what fell back, and where the '
        'band thresholds sit against the measured size distribution.',
        g,
        [
            _query_variable('tool', 'Tool', f'label_values({names.DECISIONS.exposed}, tool)', multi=True),
            _window_variable(),
        ],
    )


def _money_row(g: _Grid) -> None:
    """What the savings are worth, priced per model with genai-prices, and what the runs cost."""
    n = names
    g.row('What the savings are worth (USD, priced per model)')
    estimate = {key: f'estimate="{key}"' for key, _ in _ESTIMATES}
    for key, (title, description) in {
        'expected': (
            'Money avoided (expected)',
            'Re-sends kept out of later requests, priced per model as the responses were billed: the share of '
            'input each response read from the prompt cache at the cache-read price, the rest at the input price.',
        ),
        'lower': (
            'Money avoided: lower bound',
            'As if every avoided re-send had been a cache read (a prompt cache that never misses).',
        ),
        'upper': (
            'Money avoided: upper bound',
            'As if every avoided re-send had been billed at the full input price (no prompt cache).',
        ),
    }.items():
        g.add(
            stat(title, description, increase(n.COST_AVOIDED, RANGE, estimate[key], TOOL), unit=USD, decimals=None),
            6,
            4,
        )
    g.add(
        stat(
            'Cost per run',
            'Mean cost of a finished run, over the runs whose every model response genai-prices could price.',
            increase(n.USAGE_RUN_COST, RANGE, suffix='_sum')
            + ' / '
            + increase(n.USAGE_RUN_COST, RANGE, suffix='_count'),
            unit=USD,
            decimals=None,
        ),
        6,
        4,
    )
    g.add(
        timeseries(
            'Money avoided per hour: the range',
            'Dollars an hour that reductions kept from being re-sent, between the bounds a prompt cache sets.',
            *[(per_hour(rate(n.COST_AVOIDED, RATE, estimate[key], TOOL)), legend) for key, legend in _ESTIMATES],
            unit=USD,
        ),
        8,
        8,
    )
    g.add(
        bargauge(
            'Money avoided by tool and model (expected)',
            'Over the dashboard range: where the reductions are worth the most.',
            increase(n.COST_AVOIDED, RANGE, estimate['expected'], TOOL, by=('tool', 'model')),
            '{{tool}} on {{model}}',
            unit=USD,
            decimals=None,
        ),
        8,
        8,
    )
    g.add(
        timeseries(
            'Money avoided by tool and model: range',
            'Dollars an hour per tool and model: the lower bound (cache reads), expected, and upper bound (input).',
            *[
                (
                    per_hour(rate(n.COST_AVOIDED, RATE, estimate[key], TOOL, by=('tool', 'model'))),
                    f'{{{{tool}}}} on {{{{model}}}}: {key}',
                )
                for key, _ in _ESTIMATES
            ],
            unit=USD,
        ),
        8,
        8,
    )
    g.add(
        timeseries(
            'Spend per hour by model',
            'What the model responses of runs with these capabilities cost, input (cache reads and writes included) '
            'and output, priced with genai-prices.',
            (per_hour(rate(n.USAGE_COST, RATE, by=('model', 'direction'))), '{{model}} {{direction}}'),
            unit=USD,
            stack=True,
        ),
        8,
        8,
    )
    g.add(
        timeseries(
            'Cost per run: p50 and p90 by agent',
            'Estimated from the run-cost histogram (1-2-5 buckets): read the values as within a bucket.',
            *[
                (quantile(q, n.USAGE_RUN_COST, RATE, by=('agent',)), f'p{round(q * 100)} {{{{agent}}}}')
                for q in (0.5, 0.9)
            ],
            unit=USD,
        ),
        8,
        8,
    )
    g.add(
        timeseries(
            'Prompt cache: read share of input by model',
            'Share of input tokens read from the prompt cache: the higher, the less a re-send costs and the closer '
            'the expected money avoided sits to the lower bound.',
            (cache_read_share(n.USAGE_TOKENS, RATE), '{{model}}'),
            unit='percentunit',
        ),
        8,
        8,
    )
    g.add(
        timeseries(
            'Tokens by how they are billed',
            'Per second and model: input at the full price, cache reads, cache writes, and output.',
            (rate(n.USAGE_TOKENS, RATE, by=('model', 'type')), '{{model}} {{type}}'),
            stack=True,
        ),
        12,
        8,
    )
    g.add(
        timeseries(
            'Unpriced responses by model',
            'Share of model responses genai-prices could not price (a model its snapshot does not know, usage it '
            'cannot price): they are counted here and left out of every dollar figure, never guessed.',
            (
                ratio(
                    increase(n.USAGE_RESPONSES, RATE, 'pricing!="priced"', by=('model',)),
                    increase(n.USAGE_RESPONSES, RATE, by=('model',)),
                ),
                '{{model}}',
            ),
            unit='percentunit',
        ),
        12,
        8,
    )


def build_system_reminders() -> Json:
    """ "System reminders": firings by reminder and kind, cache-point placement, LLM generation cost and fallbacks."""
    g = _Grid()
    n = names
    reminder = 'reminder=~"$reminder"'
    g.row('Firings')
    g.add(
        stat(
            'Reminders fired', 'Reminders injected into model requests.', increase(n.REMINDERS_FIRED, RANGE, reminder)
        ),
        6,
        4,
    )
    g.add(
        stat(
            'Cache points placed',
            'Share of injections that got a CachePoint before the reminder, keeping the cached prefix valid.',
            ratio(
                increase(n.REMINDERS_CACHE_POINTS, RANGE, 'placed="true"'), increase(n.REMINDERS_CACHE_POINTS, RANGE)
            ),
            unit='percentunit',
            decimals=1,
        ),
        6,
        4,
    )
    g.add(
        stat(
            'Generation fallback rate',
            'Share of LLMReminder generations that fell back to GoalReanchor text.',
            ratio(
                increase(n.REMINDERS_GENERATIONS, RANGE, 'fallback="true"'),
                increase(n.REMINDERS_GENERATIONS, RANGE),
            ),
            unit='percentunit',
            decimals=1,
        ),
        6,
        4,
    )
    g.add(
        stat(
            'Generation tokens',
            'Tokens spent generating LLMReminder nudges.',
            increase(n.REMINDERS_GENERATE_TOKENS, RANGE),
        ),
        6,
        4,
    )
    g.add(
        timeseries(
            'Firings by reminder and kind',
            'Per second; kind is static, dynamic, goal_reanchor or llm.',
            (rate(n.REMINDERS_FIRED, RATE, reminder, by=('reminder', 'kind')), '{{reminder}} ({{kind}})'),
            unit='ops',
            stack=True,
        ),
        12,
        8,
    )
    g.add(
        bargauge(
            'Firings by kind',
            'Over the dashboard range.',
            increase(n.REMINDERS_FIRED, RANGE, reminder, by=('kind',)),
            '{{kind}}',
        ),
        12,
        8,
    )

    g.row('Prompt cache')
    shares = {
        flag: ratio(
            increase(n.REMINDERS_INPUT_TOKENS, RANGE, 'type="cache_read"', f'reminded="{flag}"'),
            increase(n.REMINDERS_INPUT_TOKENS, RANGE, INPUT_TYPES, f'reminded="{flag}"'),
        )
        for flag in ('true', 'false')
    }
    g.add(
        stat(
            'Cache-read share with a reminder',
            'Share of input read from the prompt cache on requests that carried a reminder. Well under the share '
            'without one, a reminder is breaking the cached prefix.',
            shares['true'],
            unit='percentunit',
            decimals=1,
        ),
        6,
        8,
    )
    g.add(
        stat(
            'Cache-read share without a reminder',
            'The same share on requests of the same runs that carried no reminder: the baseline to compare with.',
            shares['false'],
            unit='percentunit',
            decimals=1,
        ),
        6,
        8,
    )
    g.add(
        timeseries(
            'Cache-read share: requests with a reminder against without',
            'Per model. The reminder rides behind the last CachePoint, so only its own few tokens should miss the '
            'cache: the two lines stay close while it does.',
            (
                cache_read_share(n.REMINDERS_INPUT_TOKENS, RATE, by=('model', 'reminded')),
                '{{model}} reminder={{reminded}}',
            ),
            unit='percentunit',
        ),
        12,
        8,
    )
    g.add(
        timeseries(
            'Cache-point placement and reasons',
            'Whether a CachePoint went before the reminder and why not when it did not (nothing to attach to, '
            'a provider resume, ...).',
            (increase(n.REMINDERS_CACHE_POINTS, RATE, by=('placed', 'reason')), 'placed={{placed}} {{reason}}'),
            stack=True,
        ),
        12,
        8,
    )
    g.add(
        timeseries(
            'Prompt cache: read share of input by model',
            'Every model response of runs with these capabilities, reminder or not.',
            (cache_read_share(n.USAGE_TOKENS, RATE), '{{model}}'),
            unit='percentunit',
        ),
        12,
        8,
    )

    g.row('LLM reminder generation')
    g.add(
        timeseries(
            'Generation tokens by model',
            'Input and output tokens per second spent by LLMReminder.',
            (rate(n.REMINDERS_GENERATE_TOKENS, RATE, by=('model', 'type')), '{{model}} {{type}}'),
            stack=True,
        ),
        12,
        8,
    )
    g.add(
        timeseries(
            'Generation fallbacks by reason',
            'LLMReminder generations that fell back to GoalReanchor text, by exception type. Any steady rate '
            'means a misconfigured reminder model.',
            (increase(n.REMINDERS_GENERATE_FALLBACKS, RATE, by=('reason',)), '{{reason}}'),
            stack=True,
        ),
        12,
        8,
    )
    return _dashboard(
        'oh-system-reminders',
        'System reminders',
        'SystemReminders: which reminders fire and how, whether the prompt cache survives them, and what '
        'LLM-generated reminders cost and how often they fall back.',
        g,
        [
            _query_variable(
                'reminder', 'Reminder', f'label_values({names.REMINDERS_FIRED.exposed}, reminder)', multi=True
            )
        ],
    )


DASHBOARDS: Mapping[str, Callable[[], Json]] = {
    'tool-output-limits.json': build_tool_output_limits,
    'system-reminders.json': build_system_reminders,
}
"""File name → builder, for every dashboard shipped in `dashboards/`."""


# --- reading the queries back --------------------------------------------------------------------


@dataclass(frozen=True)
class PanelQuery:
    dashboard: str
    panel: str
    ref: str
    expr: str


def panel_queries(dashboard: Json) -> Iterator[PanelQuery]:
    """Every PromQL expression of a dashboard (rows' nested panels included), as written for Grafana."""

    def walk(panels: Sequence[Json]) -> Iterator[Json]:
        for panel in panels:
            yield panel
            yield from walk(panel.get('panels', ()))

    for panel in walk(dashboard['panels']):
        for target in panel.get('targets', ()):
            yield PanelQuery(dashboard['title'], panel['title'], target['refId'], target['expr'])


_GRAFANA_VARIABLE = re.compile(r'\$(\w+)|\$\{(\w+)\}')


def evaluable(expr: str, *, range_: str = '5m', rate_interval: str = '1m', **values: str) -> str:
    """`expr` with Grafana's variables replaced so Prometheus can evaluate it directly.

    `$__range`/`$__rate_interval` become the given durations, `$window` the rate interval, and any
    other variable `.*` (the dashboards' "All") unless a value is passed by name.
    """
    builtins = {'__range': range_, '__rate_interval': rate_interval, '__interval': rate_interval, 'window': range_}

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return values.get(name) or builtins.get(name) or '.*'

    return _GRAFANA_VARIABLE.sub(substitute, expr)


# --- files ---------------------------------------------------------------------------------------


def render() -> dict[str, str]:
    """File name → exact file content of everything `write` produces."""
    files = {name: json.dumps(build(), indent=2, ensure_ascii=False) + '\n' for name, build in DASHBOARDS.items()}
    files[alerts.RULES_FILE] = alerts.render_rules()
    return files
