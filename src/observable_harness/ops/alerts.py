"""The Prometheus alert rules shipped in `dashboards/alerts.rules.yml`, built from the catalog.

Each alert names the failure a user would otherwise only notice as a worse agent: reductions that keep
falling back, a store that refuses writes or cannot be pruned, a summarizer or reminder model that
keeps failing (their fallbacks keep runs going, which is exactly why they need an alert).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..telemetry import names
from .queries import cache_read_share, fallback_rate, increase

__all__ = ['ALERTS', 'GROUP', 'RULES_FILE', 'Alert', 'render_rules']

RULES_FILE = 'alerts.rules.yml'
GROUP = 'observable-harness'


@dataclass(frozen=True)
class Alert:
    name: str
    expr: str
    for_: str
    severity: str
    summary: str
    description: str
    labels: Mapping[str, str] = field(default_factory=dict[str, str])
    operands: tuple[str, ...] = ()
    """For an alert that compares a series with its own past: the expressions it compares. They have data as soon
    as traffic flows, where the comparison needs hours of history; end-to-end checks evaluate these."""


FALLBACK_RATE_THRESHOLD = 0.1
"""A tenth of reductions falling back is no longer bad luck: the primary action is broken for that tool."""

CACHE_SHARE_DROP = 0.5
""""Well below its own recent level": under half the share the model kept over the last day."""
CACHE_SHARE_FLOOR = 0.2
"""Models that read less than this from the cache over a day are not caching to begin with: nothing to lose."""
CACHE_SHARE_NOW = cache_read_share(names.USAGE_TOKENS, '30m')
CACHE_SHARE_DAY = cache_read_share(names.USAGE_TOKENS, '1d')

ALERTS: tuple[Alert, ...] = (
    Alert(
        'ToolOutputFallbackRateHigh',
        f'{fallback_rate("15m")} > {FALLBACK_RATE_THRESHOLD}',
        '10m',
        'warning',
        'More than 10% of {{ $labels.tool }} reductions fall back ({{ $value | humanizePercentage }})',
        'The chosen action for {{ $labels.tool }} keeps failing and handing over to its `then` action, so the '
        'model gets the fallback (often a truncation) instead. See the "Fallbacks by step and reason" panel '
        'of the Tool output limits dashboard for the failing step and the exception type.',
    ),
    Alert(
        'ToolOutputSpillFailing',
        f'{increase(names.SPILL_FAILURES, "15m", by=("store", "reason"))} > 0',
        '0m',
        'warning',
        'The {{ $labels.store }} overflow store refuses writes ({{ $labels.reason }})',
        'Spills fall back to their `then` action (bounded truncation by default), so output the model could '
        'have read back in full is lost. Check that the store root exists, is writable and has free space.',
    ),
    Alert(
        'ToolOutputPruneFailing',
        f'{increase(names.PRUNE_FAILURES, "1h", by=("store", "reason"))} > 0',
        '0m',
        'warning',
        'Pruning the {{ $labels.store }} overflow store fails ({{ $labels.reason }})',
        'Age pruning could not list or delete files, so spilled outputs accumulate and the disk fills. Check '
        'the ownership and permissions of the store root.',
    ),
    Alert(
        'ToolOutputSummarizeFailing',
        increase(names.FALLBACKS, '15m', 'from_action="summarize"', by=('tool', 'reason')) + ' > 0',
        '5m',
        'warning',
        'Summarize for {{ $labels.tool }} keeps failing ({{ $labels.reason }})',
        'Summaries fall back to their `then` action, so runs go on, but nothing is summarized. Check the '
        'summarizer model configuration, its credentials and the run usage limits.',
    ),
    Alert(
        'SystemRemindersGenerationFallingBack',
        f'{increase(names.REMINDERS_GENERATE_FALLBACKS, "15m", by=("reason",))} > 0',
        '5m',
        'warning',
        'LLM reminder generation falls back to GoalReanchor ({{ $labels.reason }})',
        'LLMReminder could not generate a nudge (model error, or too little usage budget left) and sent the '
        'GoalReanchor text instead. A steady rate means the reminder model is misconfigured.',
    ),
    Alert(
        'ModelPromptCacheReadShareDropped',
        f'({CACHE_SHARE_NOW}) < {CACHE_SHARE_DROP} * ({CACHE_SHARE_DAY}) and ({CACHE_SHARE_DAY}) > {CACHE_SHARE_FLOOR}',
        '15m',
        'warning',
        'The prompt-cache read share of {{ $labels.model }} fell to {{ $value | humanizePercentage }}',
        'Over the last 30 minutes {{ $labels.model }} read under half as much of its input from the prompt cache as '
        'over the last day, so history is re-sent at the full input price. Something in the cached prefix changes '
        'between turns (a timestamp or id in the instructions, tools in a new order, text placed before the cache '
        'point), or turns come further apart than the cache lives. The System reminders dashboard compares the share '
        'on requests with a reminder and without.',
        operands=(CACHE_SHARE_NOW, CACHE_SHARE_DAY),
    ),
)


def _quote(text: str) -> str:
    # Single-quoted YAML keeps PromQL's double quotes readable; only `'` needs escaping (by doubling).
    if '\n' in text:
        raise ValueError(f'rule text must be one line: {text!r}')
    return "'" + text.replace("'", "''") + "'"


def render_rules() -> str:
    """The rules file, in Prometheus's rule file format."""
    lines = [
        '# Prometheus alert rules for observable-harness.',
        '# Generated by `make dashboards` from src/observable_harness/ops/alerts.py: edit that, not this file.',
        '# Unit tests: `promtool test rules dashboards/alerts.test.yml`.',
        'groups:',
        f'  - name: {_quote(GROUP)}',
        '    rules:',
    ]
    for alert in ALERTS:
        lines += [
            f'      - alert: {alert.name}',
            f'        expr: {_quote(alert.expr)}',
            f'        for: {alert.for_}',
            '        labels:',
            f'          severity: {alert.severity}',
            *[f'          {key}: {_quote(value)}' for key, value in sorted(alert.labels.items())],
            '        annotations:',
            f'          summary: {_quote(alert.summary)}',
            f'          description: {_quote(alert.description)}',
        ]
    return '\n'.join(lines) + '\n'
