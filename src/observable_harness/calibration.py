"""Calibrate `ToolOutputLimits` bands from the tool-output sizes your own agents produced.

Every measured tool output lands in a size histogram, `tool_output.size.chars` or
`tool_output.size.tokens` by the unit the capability measures in (label `tool`; power-of-two buckets
from 256 to 4M). This module reads those buckets, from a saved `/metrics`
exposition, a live `/metrics` endpoint or a Prometheus server, and proposes one band per tool.

The method, per tool and size unit:

1. Take the distribution as Prometheus would: cumulative bucket counts, summed over every instance
   and process that reported them. From a Prometheus server each series contributes its largest value
   within the window (`max_over_time`): counters restart with their process, and `increase()` would
   miss the first scrape of every short-lived agent process, which is most of them.
2. Estimate p50, p90 and p99 the way `histogram_quantile` does (linear within a bucket), so the numbers
   match the dashboards. Buckets are a factor of two apart, so read them as "within 2x".
3. Put the threshold where the tail begins: p90, rounded up to a readable 1-2-5 step. The common
   case (nine outputs in ten) then passes through untouched, exactly as the model would see it
   without the capability, and only the tail is reduced.
4. Keep it within bounds: never above the budget (default 10,000 characters, the library's default
   threshold: an output bigger than that costs more context than one tool call should, however
   typical it is for the tool), never below the floor (default 2,000 characters: a spill's stand-in,
   with header and preview, is about a thousand characters, so reducing smaller outputs saves little).
5. Reduce with the default action, `Spill(then=Truncate(...))`: lossless while the store accepts
   writes (the model reads back what it needs), bounded truncation at the threshold when it does not.
   Summarize costs model tokens on every call, so it is never proposed; add it by hand where the
   dashboards show summaries paying for themselves.

The proposal is printed as Python to paste into `ToolOutputLimits(per_tool=...)`, each band with the
reason for its threshold and the measured distribution above it, and, where the source has them, what
the tool's reductions avoided in money (`tool_output_cost_avoided_usd_total`, priced per model with
genai-prices): the expected figure, between the lower bound (every avoided re-send a cache read) and the
upper bound (every one at the input price). `rank_by_money` orders the tools by that expected figure:
the tools at the top are where a threshold is worth the most care.

```python
from observable_harness.calibration import parse_exposition, propose, render_python

exposition = '''\\
tool_output_size_chars_bucket{tool="grep",le="4096.0"} 90
tool_output_size_chars_bucket{tool="grep",le="65536.0"} 100
tool_output_size_chars_bucket{tool="grep",le="+Inf"} 100
'''
[grep] = parse_exposition(exposition)
print(render_python([propose(grep)], source='example'))
```
"""

from __future__ import annotations

import json
import math
import re
import sys
import textwrap
import urllib.error
import urllib.parse
import urllib.request
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ._extras import needs_extra
from ._text.layout import CHARS_PER_TOKEN
from .telemetry import names

if TYPE_CHECKING:
    from prometheus_client.metrics_core import Metric

__all__ = [
    'CalibrationError',
    'Limits',
    'MoneyAvoided',
    'ProposedBand',
    'SizeDistribution',
    'ToolProposal',
    'check_window',
    'is_prometheus_server',
    'load',
    'load_money',
    'parse_exposition',
    'parse_money',
    'propose',
    'query_prometheus',
    'rank_by_money',
    'read_exposition',
    'render_python',
    'render_ranking',
]

_BUCKET_SERIES = {spec.exposed + '_bucket': unit for unit, spec in names.SIZE_BY_UNIT.items()}
_SUM_SERIES = {spec.exposed + '_sum': unit for unit, spec in names.SIZE_BY_UNIT.items()}
_SIZE_METRICS = ' or '.join(spec.exposed for spec in names.SIZE_BY_UNIT.values())
_MONEY_SERIES = names.COST_AVOIDED.exposed


class CalibrationError(Exception):
    """The source could not be read, or holds no tool-output size histogram. The message says what to do."""


@dataclass(frozen=True)
class SizeDistribution:
    """The measured sizes of one tool's outputs in one size unit, as cumulative histogram buckets."""

    tool: str
    size_unit: str
    buckets: tuple[tuple[float, float], ...]
    """`(upper_bound, cumulative_count)` by increasing bound, the last bound `inf`."""
    total: float | None = None
    """Sum of all sizes, when the source has it (for the mean)."""

    @property
    def count(self) -> int:
        return int(self.buckets[-1][1]) if self.buckets else 0

    def quantile(self, q: float) -> float:
        """Prometheus's `histogram_quantile`: linear within the bucket; the `+Inf` bucket answers with
        the highest finite bound. `nan` when there is nothing to estimate from."""
        if self.count == 0 or len(self.buckets) < 2:
            return math.nan
        rank = q * self.count
        previous_bound, previous_count = 0.0, 0.0
        for bound, cumulative in self.buckets:
            if cumulative >= rank:
                if math.isinf(bound):
                    return previous_bound
                in_bucket = cumulative - previous_count
                if in_bucket <= 0:
                    return bound
                return previous_bound + (bound - previous_bound) * (rank - previous_count) / in_bucket
            previous_bound, previous_count = bound, cumulative
        return previous_bound  # pragma: no cover - the +Inf bucket always reaches the rank

    def beyond_top(self, q: float) -> bool:
        """Whether the `q` quantile lies above the highest finite bucket bound (`quantile` then says that bound)."""
        if self.count == 0 or len(self.buckets) < 2:
            return False
        rank = q * self.count
        return next(bound for bound, cumulative in self.buckets if cumulative >= rank) == math.inf

    def describe(self, q: float) -> str:
        """The `q` quantile for people: `12,345`, or `> 4 MiB` when it lies beyond the highest bucket."""
        if self.beyond_top(q):
            top = self.buckets[-2][0]
            return f'> {_binary_size(top)}'
        return _fmt(self.quantile(q))

    def share_above(self, threshold: float) -> float:
        """Estimated share of outputs larger than `threshold` (linear within its bucket)."""
        if self.count == 0:
            return 0.0
        previous_bound, previous_count = 0.0, 0.0
        for bound, cumulative in self.buckets:
            if threshold < bound:
                if math.isinf(bound):
                    below = previous_count
                else:
                    below = previous_count + (cumulative - previous_count) * (threshold - previous_bound) / (
                        bound - previous_bound
                    )
                return max(0.0, 1.0 - below / self.count)
            previous_bound, previous_count = bound, cumulative
        return 0.0

    def largest_bound(self) -> float:
        """Upper bound of the highest non-empty bucket: every output was at most this (`inf` past 4M)."""
        for bound, cumulative in self.buckets:
            if cumulative >= self.count:
                return bound
        return math.inf  # pragma: no cover - the last bucket always holds the count

    def per_bucket(self) -> list[tuple[float, int]]:
        """`(upper_bound, count in that bucket)`, without the empty buckets at either end."""
        counts: list[tuple[float, int]] = []
        previous = 0.0
        for bound, cumulative in self.buckets:
            counts.append((bound, round(cumulative - previous)))
            previous = cumulative
        first = next((i for i, (_, c) in enumerate(counts) if c), len(counts))
        last = max((i for i, (_, c) in enumerate(counts) if c), default=-1)
        return counts[first : last + 1]


def _distribution(tool: str, unit: str, by_bound: dict[float, float], total: float | None) -> SizeDistribution:
    bounds = sorted(by_bound)
    if not bounds or not math.isinf(bounds[-1]):
        bounds.append(math.inf)
        by_bound[math.inf] = max(by_bound.values(), default=0.0)
    # Counts summed across processes (or maxed over a window) can break monotonicity; Prometheus's
    # histogram_quantile repairs it the same way.
    cumulative: list[tuple[float, float]] = []
    running = 0.0
    for bound in bounds:
        running = max(running, by_bound[bound])
        cumulative.append((bound, running))
    return SizeDistribution(tool, unit, tuple(cumulative), total)


def _collect(
    rows: Iterable[tuple[dict[str, str], float]], sums: Iterable[tuple[dict[str, str], float]] = ()
) -> list[SizeDistribution]:
    grouped: dict[tuple[str, str], dict[float, float]] = defaultdict(lambda: defaultdict(float))
    for labels, value in rows:
        key = (labels.get('tool', ''), labels['size_unit'])
        grouped[key][float(labels['le'])] += value
    totals: dict[tuple[str, str], float] = defaultdict(float)
    for labels, value in sums:
        totals[(labels.get('tool', ''), labels['size_unit'])] += value
    return [
        _distribution(tool, unit, dict(by_bound), totals.get((tool, unit)))
        for (tool, unit), by_bound in sorted(grouped.items())
    ]


def _samples(text: str) -> Iterable[tuple[str, dict[str, str], float]]:
    """`(series, labels, value)` of a Prometheus text (or OpenMetrics) exposition."""
    with needs_extra('telemetry', 'reading a Prometheus exposition'):
        from prometheus_client.openmetrics import parser as openmetrics
        from prometheus_client.parser import text_string_to_metric_families as parse_text

    # OpenMetrics (what an endpoint serves to a client that asks for it) ends with `# EOF`.
    parse: Callable[[str], Iterable[Metric]] = (
        cast('Callable[[str], Iterable[Metric]]', openmetrics.text_string_to_metric_families)  # pyright: ignore[reportUnknownMemberType]  # untyped upstream
        if text.rstrip().endswith('# EOF')
        else parse_text
    )
    try:
        return [
            (sample.name, dict(sample.labels), float(sample.value))
            for family in parse(text)
            for sample in family.samples
        ]
    except ValueError as error:
        raise CalibrationError(
            f'not a Prometheus exposition ({error}); save one with `curl <endpoint>/metrics`'
        ) from error


def parse_exposition(text: str) -> list[SizeDistribution]:
    """Size distributions from a Prometheus text (or OpenMetrics) exposition, one per tool and unit."""
    rows: list[tuple[dict[str, str], float]] = []
    sums: list[tuple[dict[str, str], float]] = []
    for name, labels, value in _samples(text):
        if name in _BUCKET_SERIES:
            rows.append(({**labels, 'size_unit': _BUCKET_SERIES[name]}, value))
        elif name in _SUM_SERIES:
            sums.append(({**labels, 'size_unit': _SUM_SERIES[name]}, value))
    return _collect(rows, sums)


def _get(url: str, timeout: float) -> str:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - the user names the URL
            return response.read().decode('utf-8')
    except urllib.error.HTTPError as error:
        detail = error.read().decode('utf-8', 'replace')[:300]
        raise CalibrationError(f'{url} answered {error.code}: {detail}') from error
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, 'reason', error)
        raise CalibrationError(f'could not reach {url} ({reason}); is the server running and the URL right?') from error


def _instant(base_url: str, expr: str, timeout: float) -> list[tuple[dict[str, str], float]]:
    url = f'{base_url.rstrip("/")}/api/v1/query?{urllib.parse.urlencode({"query": expr})}'
    try:
        payload = json.loads(_get(url, timeout))
    except json.JSONDecodeError as error:
        raise CalibrationError(f'{base_url} is not a Prometheus API (no JSON at /api/v1/query)') from error
    if payload.get('status') != 'success':
        raise CalibrationError(f'Prometheus rejected the query: {payload.get("error")}')
    return [(item['metric'], float(item['value'][1])) for item in payload['data']['result']]


_DURATION = re.compile(r'(?:\d+(?:ms|[smhdwy]))+')


def check_window(window: str) -> str:
    """`window` if it is a PromQL duration (`7d`, `12h`, `1h30m`), else a `CalibrationError` saying how to write one."""
    if not _DURATION.fullmatch(window):
        raise CalibrationError(
            f'--window {window!r} is not a duration Prometheus understands: write a number and a unit, like 7d, '
            '12h, 30m or 1h30m (units ms, s, m, h, d, w, y).'
        )
    return window


def query_prometheus(base_url: str, window: str = '7d', timeout: float = 30.0) -> list[SizeDistribution]:
    """Size distributions from a Prometheus server's HTTP API, over the last `window` (a PromQL duration)."""
    check_window(window)

    def instant(expr: str) -> list[tuple[dict[str, str], float]]:
        return _instant(base_url, expr, timeout)

    # See the module docstring, step 1, for why max_over_time and not increase().
    buckets: list[tuple[dict[str, str], float]] = []
    sums: list[tuple[dict[str, str], float]] = []
    for series, unit in _BUCKET_SERIES.items():
        found = instant(f'sum by (tool, le) (max_over_time({series}[{window}]))')
        buckets += [({**labels, 'size_unit': unit}, value) for labels, value in found]
    for series, unit in _SUM_SERIES.items():
        found = instant(f'sum by (tool) (max_over_time({series}[{window}]))')
        sums += [({**labels, 'size_unit': unit}, value) for labels, value in found]
    return _collect(buckets, sums)


def is_prometheus_server(source: str) -> bool:
    """Whether `source` names a Prometheus server (an http(s) URL whose path is not a `/metrics` endpoint)."""
    return source.startswith(('http://', 'https://')) and not urllib.parse.urlsplit(source).path.rstrip('/').endswith(
        '/metrics'
    )


def read_exposition(source: str, timeout: float = 30.0) -> str:
    """The exposition text of a file (`-` for stdin) or a live `/metrics` URL."""
    if source.startswith(('http://', 'https://')):
        return _get(source, timeout)
    try:
        return sys.stdin.read() if source == '-' else Path(source).read_text(encoding='utf-8')
    except OSError as error:
        raise CalibrationError(f'could not read {source}: {error.strerror or error}') from error


def load(
    source: str, *, window: str = '7d', timeout: float = 30.0, exposition: str | None = None
) -> list[SizeDistribution]:
    """Read distributions from `source`: a file (`-` for stdin), a `/metrics` URL, or a Prometheus URL.

    `exposition`: the source's text, already read (stdin can be read once only).
    """
    if exposition is None and is_prometheus_server(source):
        distributions = query_prometheus(source, window, timeout)
    else:
        distributions = parse_exposition(read_exposition(source, timeout) if exposition is None else exposition)
    if not distributions:
        raise CalibrationError(
            f'{source} has no tool-output size histogram ({_SIZE_METRICS}). Point it at an observable-harness '
            'metrics endpoint (otel_setup.configure() and `observable-harness demo` serve one) or a Prometheus '
            'that scrapes one, after agents have run with ToolOutputLimits.'
        )
    return distributions


# --- money ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoneyAvoided:
    """USD one tool's reductions kept from being re-sent, over every model that priced them."""

    tool: str
    lower: float
    """As if every avoided re-send had been a cache read."""
    upper: float
    """As if every avoided re-send had been billed at the input price."""
    expected: float | None
    """At the cache-read share the responses reported; `None` when none reported input tokens."""
    models: tuple[str, ...]

    @property
    def rank(self) -> float:
        """What the ranking orders by: the expected figure, or the lower bound when there is none."""
        return self.lower if self.expected is None else self.expected


def _collect_money(rows: Iterable[tuple[dict[str, str], float]]) -> list[MoneyAvoided]:
    by_tool: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    models: dict[str, set[str]] = defaultdict(set)
    for labels, value in rows:
        tool = labels.get('tool', '')
        by_tool[tool][labels.get('estimate', '')] += value
        models[tool].add(labels.get('model', ''))
    return [
        MoneyAvoided(
            tool, sums.get('lower', 0.0), sums.get('upper', 0.0), sums.get('expected'), tuple(sorted(models[tool]))
        )
        for tool, sums in sorted(by_tool.items())
    ]


def parse_money(text: str) -> list[MoneyAvoided]:
    """What each tool's reductions avoided, from a Prometheus exposition (empty when nothing was priced)."""
    seen: dict[tuple[tuple[str, str], ...], float] = {}
    for name, labels, value in _samples(text):
        if name == _MONEY_SERIES:
            seen[tuple(sorted(labels.items()))] = value
    return _collect_money((dict(labels), value) for labels, value in seen.items())


def load_money(
    source: str, *, window: str = '7d', timeout: float = 30.0, exposition: str | None = None
) -> list[MoneyAvoided]:
    """`parse_money` for any source `load` reads; from a Prometheus server, over the last `window` (as sizes are:
    each series' largest value in the window, summed)."""
    if exposition is None and is_prometheus_server(source):
        expr = f'sum by (tool, model, estimate) (max_over_time({_MONEY_SERIES}[{check_window(window)}]))'
        return _collect_money(_instant(source, expr, timeout))
    return parse_money(read_exposition(source, timeout) if exposition is None else exposition)


def rank_by_money(money: Iterable[MoneyAvoided]) -> list[MoneyAvoided]:
    """The tools by what their reductions avoided, most first (expected figure, else the lower bound)."""
    return sorted(money, key=lambda m: (-m.rank, m.tool))


def _usd(amount: float) -> str:
    # Cents from a dime up; below that, three significant digits, so small figures keep their size.
    return f'${amount:,.2f}' if amount >= 0.1 else f'${amount:.3g}'


def _money_phrase(money: MoneyAvoided) -> str:
    expected = f'{_usd(money.expected)} expected, ' if money.expected is not None else ''
    return f'{expected}{_usd(money.lower)} to {_usd(money.upper)} ({", ".join(money.models)})'


def render_ranking(money: Sequence[MoneyAvoided], *, source: str) -> str:
    """The tools ranked by money avoided, one line each, for `calibrate --rank money`."""
    ranked = rank_by_money(money)
    width = max((len(m.tool) for m in ranked), default=4)
    lines = [
        f'# Tools by what their reductions kept from being re-sent, from {source}.',
        '# Expected: at the cache-read share each response reported; range: every avoided re-send a cache read, to',
        '# every one at the input price. Priced per model with genai-prices; unpriced models count for nothing.',
    ]
    for position, item in enumerate(ranked, start=1):
        lines.append(f'{position:>3}. {item.tool:<{width}}  {_money_phrase(item)}')
    return '\n'.join(lines) + '\n'


# --- proposing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    """The bounds calibration keeps thresholds within, in characters (converted for token histograms)."""

    budget: int = 10_000
    """The most one tool output may occupy in context untouched, however typical it is for the tool."""
    floor: int = 2_000
    """Below this a spill's stand-in (header, handle, preview) is not much smaller than the output."""
    tail_quantile: float = 0.9
    """Where "the tail" starts: outputs above this quantile are the ones worth reducing."""
    min_samples: int = 20
    """Fewer outputs than this say too little about a tool to move its threshold."""

    def __post_init__(self) -> None:
        if not 0 < self.floor <= self.budget:
            raise ValueError(f'need 0 < floor <= budget, got floor={self.floor}, budget={self.budget}')
        if not 0 < self.tail_quantile < 1:
            raise ValueError(f'tail_quantile must be between 0 and 1, got {self.tail_quantile}')


@dataclass(frozen=True)
class ProposedBand:
    over: int
    """Threshold in the distribution's size unit."""
    max_chars: int
    """Bound for the truncation fallback (always characters)."""
    reason: str


@dataclass(frozen=True)
class ToolProposal:
    distribution: SizeDistribution
    bands: tuple[ProposedBand, ...] = ()
    note: str = ''
    """Why no band is proposed, when none is."""
    quantiles: dict[float, float] = field(default_factory=dict[float, float])
    money: MoneyAvoided | None = None
    """What the tool's reductions avoided, when the source has it."""


def _round_up_125(value: float) -> int:
    """The smallest of 1, 2, 5 x 10^k that is at least `value` (readable thresholds)."""
    if value <= 1:
        return 1
    exponent = math.floor(math.log10(value))
    for mantissa in (1, 2, 5, 10):
        candidate = mantissa * 10**exponent
        if candidate >= value - 1e-9:
            return int(candidate)
    return int(10 ** (exponent + 1))  # pragma: no cover - 10 x 10^k always qualifies


def _fmt(value: float) -> str:
    return 'n/a' if math.isnan(value) else f'{round(value):,}'


def _binary_size(bound: float) -> str:
    for suffix, size in (('MiB', 1 << 20), ('KiB', 1 << 10)):
        if bound >= size and bound % size == 0:
            return f'{int(bound // size)} {suffix}'
    return f'{bound:,.0f}'


def _percent(share: float) -> str:
    if share <= 0:
        return '0%'
    if share < 0.01:
        return '<1%'
    return f'{share:.0%}'


def propose(distribution: SizeDistribution, limits: Limits | None = None) -> ToolProposal:
    """The band for one tool's distribution, with its reason (method in the module docstring)."""
    limits = limits or Limits()
    quantiles = {q: distribution.quantile(q) for q in (0.5, 0.9, 0.99)}
    if distribution.count < limits.min_samples:
        return ToolProposal(
            distribution,
            note=f'only {distribution.count} outputs measured (fewer than {limits.min_samples}): keep the default '
            'band until more traffic is recorded',
            quantiles=quantiles,
        )
    per_unit = CHARS_PER_TOKEN if distribution.size_unit == 'tokens' else 1
    budget, floor = limits.budget // per_unit, limits.floor // per_unit
    unit = distribution.size_unit
    adjective = unit.removesuffix('s')
    tail = distribution.quantile(limits.tail_quantile)
    q_name = f'p{round(limits.tail_quantile * 100)}'
    rounded = _round_up_125(tail)
    threshold = min(max(rounded, floor), budget)
    if rounded > budget:
        why = (
            f'{q_name} is {distribution.describe(limits.tail_quantile)} {unit}, beyond the {budget:,}-{adjective} '
            'budget, so the band sits at the '
            'budget (raise it if the model needs more of this tool inline)'
        )
    elif rounded < floor:
        why = (
            f'{q_name} is only {_fmt(tail)} {unit}; the band sits at the {floor:,}-{adjective} floor, below which '
            'a spill saves little'
        )
    else:
        why = f'{q_name} is {_fmt(tail)} {unit}, rounded up to {threshold:,}: the common case passes through untouched'
    share = distribution.share_above(threshold)
    largest = distribution.largest_bound()
    if share > 0:
        effect = f'~{_percent(share)} of measured outputs would spill'
    else:
        effect = f'no measured output reached it (all were at most {largest:,.0f} {unit}): a safety net for surprises'
    reason = f'{why}; {effect}'
    band = ProposedBand(over=threshold, max_chars=threshold * per_unit, reason=reason)
    return ToolProposal(distribution, (band,), quantiles=quantiles)


# --- printing ----------------------------------------------------------------------------------


def _bound_label(bound: float) -> str:
    if math.isinf(bound):
        return '+Inf'
    for suffix, size in (('M', 1 << 20), ('K', 1 << 10)):
        if bound >= size and bound % size == 0:
            return f'{int(bound // size)}{suffix}'
    return f'{bound:g}'


def _histogram_line(distribution: SizeDistribution) -> str:
    return ' | '.join(f'≤{_bound_label(bound)} {count}' for bound, count in distribution.per_bucket())


def _band_source(band: ProposedBand) -> str:
    return (
        f'Band(over={band.over:_}, action=Spill(then=Truncate(strategy=TruncationStrategy.head_tail, '
        f'max_chars={band.max_chars:_})))'
    )


def _tool_block(proposal: ToolProposal) -> list[str]:
    d = proposal.distribution
    mean = f', mean {_fmt(d.total / d.count)}' if d.total is not None and d.count else ''
    lines = [
        f'    # {d.tool}: {d.count:,} outputs in {d.size_unit}: p50 {d.describe(0.5)}, p90 {d.describe(0.9)}, '
        f'p99 {d.describe(0.99)}{mean}',
        f'    #   sizes (K = 1024): {_histogram_line(d) or "none"}',
    ]
    if proposal.money is not None:
        lines.append(f'    #   re-sends avoided: {_money_phrase(proposal.money)}')
    if not proposal.bands:
        lines.extend(
            textwrap.wrap(
                f'{d.tool!r}: no proposal: {proposal.note}.', 104, initial_indent='    # ', subsequent_indent='    #   '
            )
        )
        return lines
    lines.append(f'    {d.tool!r}: [')
    for band in proposal.bands:
        lines.extend(
            textwrap.wrap(
                f'over={band.over:_}: {band.reason}.',
                104,
                initial_indent='        # ',
                subsequent_indent='        #   ',
            )
        )
        lines.append(f'        {_band_source(band)},')
    lines.append('    ],')
    return lines


def render_python(proposals: Sequence[ToolProposal], *, source: str, limits: Limits | None = None) -> str:
    """The proposals as Python to paste into `ToolOutputLimits(per_tool=...)`."""
    limits = limits or Limits()
    lines = [
        f'# Bands proposed by `observable-harness calibrate` from {source}.',
        f'# Threshold: the p{round(limits.tail_quantile * 100)} output size rounded up to a 1-2-5 step, kept between '
        f'{limits.floor:,} and {limits.budget:,} characters',
        '# (/4 for token counts); action: the default lossless Spill, truncating at the threshold if the store fails.',
        '# Percentiles are estimated from power-of-two buckets, as Grafana shows them: read them as within 2x.',
        'from observable_harness import ToolOutputLimits',
        'from observable_harness.tool_output_limits import Band, Spill, Truncate, TruncationStrategy',
    ]
    by_unit: dict[str, list[ToolProposal]] = defaultdict(list)
    for proposal in proposals:
        by_unit[proposal.distribution.size_unit].append(proposal)
    for unit, group in sorted(by_unit.items(), key=lambda item: item[0] != 'chars'):
        variable = 'per_tool' if unit == 'chars' else f'per_tool_{unit}'
        lines.append('')
        if unit == 'tokens':
            lines.append('# Measured in estimated tokens: use with ToolOutputLimits(over_tokens=True, ...).')
        elif unit != 'chars':
            lines.append(f'# Measured in {unit}.')
        lines.append(f'{variable} = {{')
        for proposal in sorted(group, key=lambda p: p.distribution.tool):
            lines.extend(_tool_block(proposal))
        lines.append('}')
    first = 'per_tool' if 'chars' in by_unit else f'per_tool_{next(iter(sorted(by_unit)))}'
    over_tokens = ', over_tokens=True' if first == 'per_tool_tokens' else ''
    lines += ['', f'limits = ToolOutputLimits(per_tool={first}{over_tokens})']
    return '\n'.join(lines) + '\n'
