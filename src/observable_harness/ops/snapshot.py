"""Render two dashboard panels from a real exposition to a PNG, for the README.

`python -m observable_harness.ops.snapshot docs/dashboard.png` runs the demo with `--serve`, reads its
`/metrics` once the workload is done, and draws what the "Tool output limits" dashboard shows for it:
bytes kept out of the context window per tool and outcome, and each tool's measured size percentiles
against the band thresholds that applied to it. Pass `--exposition FILE` to draw a saved exposition.
Needs matplotlib (in the `dev` extra).
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
    """`(labels, value)` of every sample of one series in a Prometheus text exposition."""
    from prometheus_client.parser import text_string_to_metric_families

    return [
        (dict(sample.labels), float(sample.value))
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == series
    ]


def render(exposition: str, path: Path) -> Path:
    """Draw the two panels from `exposition` into a PNG at `path`."""
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    saved: dict[str, dict[str, float]] = defaultdict(dict)
    for labels, value in samples(exposition, names.BYTES_SAVED.exposed):
        saved[labels['tool']][labels['outcome']] = value
    distributions = [d for d in parse_exposition(exposition) if d.size_unit == 'chars' and d.count]
    thresholds: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for labels, value in samples(exposition, names.BAND_THRESHOLD_CHARS.exposed):
        thresholds[labels['tool']].append((value, labels['action']))

    figure, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8), dpi=110)
    figure.patch.set_facecolor('#111217')
    for axis in (left, right):
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
