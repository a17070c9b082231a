"""Render dashboard panels from a real exposition to a PNG, for the README.

`python -m observable_harness.ops.snapshot docs/dashboard.png` runs the demo with `--serve`, reads its
`/metrics` once the workload is done, and draws what the dashboards show for it: bytes kept out of the
context window per tool and outcome, and each tool's measured size percentiles against the band
thresholds that applied to it; below them the money row: what the avoided re-sends were worth per tool
and model (expected, between the all-cache-reads and all-input-price bounds), and the prompt cache's
read share per model, on requests with a reminder and without. Pass `--exposition FILE` to draw a saved
exposition. Needs matplotlib (in the `dev` extra).
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import urllib.request
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..calibration import parse_exposition
from ..telemetry import names

__all__ = ['render', 'samples']


def samples(text: str, series: str) -> list[tuple[dict[str, str], float]]:
    """`(labels, value)` of every sample of one series in a Prometheus text exposition, each label set once."""
    from prometheus_client.parser import text_string_to_metric_families

    found = {
        tuple(sorted(sample.labels.items())): float(sample.value)
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == series
    }
    return [(dict(labels), value) for labels, value in found.items()]


def _share(tokens: dict[str, float]) -> float:
    total = sum(tokens.get(kind, 0.0) for kind in ('uncached_input', 'cache_read', 'cache_write'))
    return tokens.get('cache_read', 0.0) / total if total else 0.0


def render(exposition: str, path: Path) -> Path:
    """Draw the four panels from `exposition` into a PNG at `path`."""
    import matplotlib
    import matplotlib.ticker

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    saved: dict[str, dict[str, float]] = defaultdict(dict)
    for labels, value in samples(exposition, names.BYTES_SAVED.exposed):
        saved[labels['tool']][labels['outcome']] = value
    distributions = [d for d in parse_exposition(exposition) if d.size_unit == 'chars' and d.count]
    thresholds: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for labels, value in samples(exposition, names.BAND_THRESHOLD_CHARS.exposed):
        thresholds[labels['tool']].append((value, labels['action']))

    avoided: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    for labels, value in samples(exposition, names.COST_AVOIDED.exposed):
        avoided[(labels['tool'], labels['model'])][labels['estimate']] = value
    shares: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for labels, value in samples(exposition, names.USAGE_TOKENS.exposed):
        shares[f'{labels["model"]}\nall requests'][labels['type']] += value
    for labels, value in samples(exposition, names.REMINDERS_INPUT_TOKENS.exposed):
        flag = 'with a reminder' if labels['reminded'] == 'true' else 'without (same runs)'
        shares[f'{labels["model"]}\n{flag}'][labels['type']] += value
    spent = sum(value for _, value in samples(exposition, names.USAGE_COST.exposed))

    figure, ((left, right), (money, cache)) = plt.subplots(
        2, 2, figsize=(13, 9.6), dpi=110, gridspec_kw={'height_ratios': [1, 0.8]}
    )
    figure.patch.set_facecolor('#111217')
    for axis in (left, right, money, cache):
        axis.set_facecolor('#181b1f')
        axis.tick_params(colors='#ccccdc', labelsize=8)
        for spine in axis.spines.values():
            spine.set_color('#2c3235')
        axis.grid(color='#2c3235', linewidth=0.6)

    tools = sorted(saved, key=lambda tool: -sum(saved[tool].values()))
    outcomes = sorted({outcome for values in saved.values() for outcome in values})
    colours = {'spill': '#73bf69', 'truncate': '#f2cc0c', 'summarize': '#5794f2', 'unchanged': '#8e8e8e'}
    bottoms = [0.0] * len(tools)
    for outcome in outcomes:
        heights = [saved[tool].get(outcome, 0.0) / 1024 for tool in tools]
        left.barh(tools, heights, left=bottoms, label=outcome, color=colours.get(outcome, '#b877d9'))
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    left.set_xscale('log')
    left.set_title('KiB kept out of the context window, by tool and outcome', color='#ccccdc', fontsize=10)
    left.legend(facecolor='#181b1f', edgecolor='#2c3235', labelcolor='#ccccdc', fontsize=8)

    ordered = sorted(distributions, key=lambda d: d.quantile(0.5))
    for row, distribution in enumerate(ordered):
        p50, p90, p99 = (distribution.quantile(q) for q in (0.5, 0.9, 0.99))
        right.plot([p50, p99], [row, row], color='#5794f2', linewidth=2)
        right.scatter([p50, p90, p99], [row] * 3, color=['#73bf69', '#f2cc0c', '#f2495c'], zorder=3, s=22)
        for over, action in thresholds.get(distribution.tool, []):
            right.scatter([over], [row], marker='|', s=260, color='#ff9830', zorder=4)
            right.annotate(action, (over, row), textcoords='offset points', xytext=(3, 5), color='#ff9830', fontsize=7)
    right.set_yticks(range(len(ordered)), [d.tool for d in ordered])
    right.set_xscale('log')
    right.set_title('Output size p50 / p90 / p99 (chars) against the band thresholds (|)', color='#ccccdc', fontsize=10)

    ranked = sorted(avoided, key=lambda key: avoided[key].get('expected', avoided[key].get('upper', 0.0)))
    for row, key in enumerate(ranked):
        estimates = avoided[key]
        lower, upper = estimates.get('lower', 0.0), estimates.get('upper', 0.0)
        money.plot([lower, upper], [row, row], color='#8e8e8e', linewidth=6, alpha=0.5, solid_capstyle='butt')
        if 'expected' in estimates:
            money.scatter([estimates['expected']], [row], color='#73bf69', zorder=3, s=40)
            money.annotate(
                f'${estimates["expected"]:.3g}',
                (estimates['expected'], row),
                textcoords='offset points',
                xytext=(0, 7),
                ha='center',
                color='#73bf69',
                fontsize=7,
            )
    money.set_yticks(range(len(ranked)), [f'{tool} ({model})' for tool, model in ranked])
    money.set_xscale('log')
    money.set_title(
        f'USD of re-sends avoided by tool (model): expected •, range from\n'
        f'all cache reads to all input price (the runs cost ${spent:.3g})',
        color='#ccccdc',
        fontsize=10,
    )

    bars = sorted(shares)
    values = [_share(shares[bar]) for bar in bars]
    cache.bar(
        range(len(bars)), values, color=['#5794f2' if bar.endswith('all requests') else '#b877d9' for bar in bars]
    )
    for index, value in enumerate(values):
        cache.annotate(
            f'{value:.0%}',
            (index, value),
            textcoords='offset points',
            xytext=(0, 4),
            ha='center',
            color='#ccccdc',
            fontsize=9,
        )
    cache.set_xticks(range(len(bars)), bars)
    cache.set_ylim(0, 1)
    cache.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    cache.set_title(
        'Share of input read from the prompt cache: by model, and in runs\n'
        'with reminders, requests that carried one against those that did not',
        color='#ccccdc',
        fontsize=10,
    )
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(str(path), facecolor=figure.get_facecolor())  # pyright: ignore[reportUnknownMemberType]
    plt.close(figure)
    return path


def _demo_exposition() -> str:
    command = [sys.executable, '-m', 'observable_harness', 'demo', '--serve', '--metrics-port', '0', '--no-progress']
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith('READY '):
                url: Any = json.loads(line.removeprefix('READY '))['metrics_url']
                with urllib.request.urlopen(str(url), timeout=30) as response:  # noqa: S310 - loopback URL we started
                    return response.read().decode('utf-8')
        raise RuntimeError('the demo ended without serving its metrics')
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description='Render dashboard panels from the demo to a PNG')
    parser.add_argument('output', type=Path)
    parser.add_argument('--exposition', type=Path, help='a saved /metrics exposition instead of running the demo')
    args = parser.parse_args(argv)
    text = args.exposition.read_text() if args.exposition else _demo_exposition()
    print(render(text, args.output))
    return 0


if __name__ == '__main__':
    sys.exit(main())
