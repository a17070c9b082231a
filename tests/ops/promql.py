"""Reading metric names and label matchers out of PromQL, and checking them against the catalog.

Prometheus 2.42 (Debian bookworm) has no parse API, so syntax is checked by `promtool check rules`
(see `promtool_check_expressions`) and names are read here with a small lexer that is enough for the
expressions this project writes.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from observable_harness.telemetry import names

_KEYWORDS = {
    'by',
    'without',
    'on',
    'ignoring',
    'group_left',
    'group_right',
    'bool',
    'and',
    'or',
    'unless',
    'offset',
    'inf',
    'nan',
}
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_SELECTOR = re.compile(r'([A-Za-z_:][\w:]*)?\s*\{([^}]*)\}')
_MATCHER_LABEL = re.compile(r'([A-Za-z_]\w*)\s*(?:=~|!~|!=|=)')
_GROUPING = re.compile(r'\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)')
_IDENTIFIER = re.compile(r'[A-Za-z_:][\w:]*')


@dataclass(frozen=True)
class Selector:
    metric: str
    labels: frozenset[str]
    """Label names the selector matches on."""


def selectors(expr: str) -> list[Selector]:
    """Every series selector in `expr`: metric name plus the label names of its matchers."""
    # Matcher values may contain anything; blank them first so they cannot look like names.
    text = _STRING.sub('""', expr)
    found: list[Selector] = []
    for match in _SELECTOR.finditer(text):
        if match.group(1) and match.group(1) not in _KEYWORDS:
            found.append(Selector(match.group(1), frozenset(_MATCHER_LABEL.findall(match.group(2)))))
    bare = _SELECTOR.sub(' ', text)
    bare = _GROUPING.sub(' ', bare)
    bare = re.sub(r'\[[^\]]*\]', ' ', bare)
    for match in _IDENTIFIER.finditer(bare):
        name = match.group(0)
        following = bare[match.end() :].lstrip()
        if name.lower() in _KEYWORDS or following.startswith('('):
            continue
        found.append(Selector(name, frozenset()))
    return found


def grouping_labels(expr: str) -> set[str]:
    """Label names used in `by (...)`, `without (...)`, `on (...)`, ... clauses."""
    text = _STRING.sub('""', expr)
    return {label.strip() for group in _GROUPING.findall(text) for label in group.split(',') if label.strip()}


def exposed_series() -> dict[str, names.MetricSpec]:
    """Every series name the exposition has for the catalog (histograms: `_bucket`, `_sum`, `_count`)."""
    out: dict[str, names.MetricSpec] = {}
    for spec in names.ALL_METRICS:
        if spec.kind == 'histogram':
            for suffix in ('_bucket', '_sum', '_count'):
                out[spec.exposed + suffix] = spec
        else:
            out[spec.exposed] = spec
    return out


def unknown_names(expressions: Iterable[str]) -> list[str]:
    """Problems found: metric names not in the catalog, label names the metric does not carry."""
    exposed = exposed_series()
    problems: list[str] = []
    for expr in expressions:
        metric_labels: set[str] = {'le'}
        for selector in selectors(expr):
            spec = exposed.get(selector.metric)
            if spec is None:
                problems.append(f'{selector.metric!r} is not an exposed catalog series (in {expr!r})')
                continue
            metric_labels |= set(spec.labels)
            extra = selector.labels - set(spec.labels) - {'le'}
            if extra:
                problems.append(f'{selector.metric} has no label {sorted(extra)} (in {expr!r})')
        unknown_grouping = grouping_labels(expr) - metric_labels
        if unknown_grouping:
            problems.append(f'grouping by {sorted(unknown_grouping)}, which no selected metric carries (in {expr!r})')
    return problems


def promtool_check_expressions(promtool: str, expressions: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """`promtool check rules` over one recording rule per expression (name → PromQL)."""
    rules = [{'record': f'oh:check:{i}', 'expr': expr} for i, expr in enumerate(expressions.values())]
    document = {'groups': [{'name': 'dashboard-queries', 'rules': rules}]}
    with tempfile.TemporaryDirectory(prefix='oh-promql-') as tmp:
        path = Path(tmp) / 'queries.rules.yml'
        path.write_text(json.dumps(document, indent=2), encoding='utf-8')  # JSON is YAML
        return subprocess.run(
            [promtool, 'check', 'rules', str(path)], capture_output=True, text=True, timeout=120, check=False
        )
