"""Condensing throughput on a 10 MB log, and size reduction per level on real command output.

Run: `.venv/bin/python bench/bench_condense.py` (or the bench interpreter; no anchor is involved).

The outputs are produced by running the commands now (a failing pytest run, gcc on a broken file,
a failing `pip install -v`, a `find` over the stdlib), plus the captured files in
/work/shared/traffic/. The 10 MB log is those outputs concatenated until it reaches 10 MB.

1. Throughput: MB/s of `condense` per level on the 10 MB log (budget 8,000 chars), and of the
   classifier alone, in interleaved rounds (order shuffled each round); median over rounds, by wall
   clock and by this process's CPU time (steadier on a shared machine).
2. What each level's table removes by class alone (every class step applied, no positional cut),
   as the share of characters left, per output.
3. At a fixed budget (4,000 chars), how many lines each level left to the positional cut (lines of
   folded runs whose count line was cut included): what a level keeps by class it may lose by position.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.real_outputs import (  # noqa: E402
    RealOutput,
    failing_gcc,
    failing_pip_install,
    failing_pytest,
    stdlib_listing,
    traffic,
)

from observable_harness._text.condense import _CHEAPEST_FIRST, CondensePlan  # noqa: E402
from observable_harness.bounded import LEVELS, classify_lines, condense  # noqa: E402

TEN_MB = 10 * 1024 * 1024


def real_outputs() -> list[RealOutput]:
    root = Path(tempfile.mkdtemp(prefix='bench_condense_'))
    produced: list[RealOutput | None] = []
    for name, make in (
        ('pytest', failing_pytest),
        ('gcc', failing_gcc),
        ('pip', failing_pip_install),
        ('find', stdlib_listing),
    ):
        directory = root / name
        directory.mkdir()
        produced.append(make(directory))
    return [output for output in (*produced, *traffic()) if output is not None]


def ten_mb_log(outputs: list[RealOutput]) -> str:
    parts: list[str] = []
    size = 0
    while size < TEN_MB:
        for output in outputs:
            parts.append(output.text)
            size += len(output.text)
    return ''.join(parts)[:TEN_MB]


def class_only_share(text: str, level: str) -> float:
    """Share of characters left after applying every class step of `level`, with no budget."""
    lines = text.splitlines()
    plan = CondensePlan(
        text=text,
        lines=lines,
        classification=classify_lines(lines),
        level=LEVELS[level],
        keep='tail',
        max_chars=len(text),
        shortened=0,
    )
    for line_class in _CHEAPEST_FIRST:
        plan.apply_class(line_class)
    return sum(len(entry.text) + 1 for entry in plan.entries) / max(len(text), 1)


def throughput(log: str, rounds: int) -> dict[str, tuple[float, float]]:
    runs: dict[str, Callable[[], object]] = {
        f'condense {level}': functools.partial(condense, log, level=level, max_chars=8_000) for level in LEVELS
    }
    runs['classify only'] = lambda: classify_lines(log.splitlines())
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    megabytes = len(log.encode()) / 1e6
    for _ in range(rounds):
        order = list(runs)
        random.shuffle(order)
        for name in order:
            wall, cpu = time.perf_counter(), time.process_time()
            runs[name]()
            samples[name].append((megabytes / (time.perf_counter() - wall), megabytes / (time.process_time() - cpu)))
    return {
        name: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
        for name, values in samples.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description='Condensing throughput and size reduction per level.')
    parser.add_argument('--rounds', type=int, default=3)
    args = parser.parse_args()
    outputs = real_outputs()
    log = ten_mb_log(outputs)
    lines = log.count('\n')
    print(f'10 MB log: {len(log):,} chars, {lines:,} lines from {len(outputs)} real outputs\n')

    print(f'Throughput (median of {args.rounds} interleaved rounds; wall clock, and CPU time of this process)')
    results = throughput(log, args.rounds)
    base = results['classify only'][0]
    for name, (wall, cpu) in results.items():
        print(f'  {name:<24} {wall:6.1f} MB/s wall  {cpu:6.1f} MB/s cpu   ({wall / base:4.2f}x classify only)')

    print('\nCharacters left by the class steps alone (no budget, no positional cut)')
    header = f'  {"output":<36}{"chars":>11}' + ''.join(f'{level:>14}' for level in LEVELS)
    print(header)
    for output in outputs:
        shares = [class_only_share(output.text, level) for level in LEVELS]
        cells = ''.join(f'{share:>13.1%} ' for share in shares)
        print(f'  {output.name:<36}{len(output.text):>11,}{cells}')

    print('\nAt max_chars=4,000: lines the positional cut removed (folded runs included), per level')
    print(f'  {"output":<36}{"lines":>8}' + ''.join(f'{level:>14}' for level in LEVELS))
    for output in outputs:
        reports = [condense(output.text, level=level, max_chars=4_000).report for level in LEVELS]
        cells = ''.join(f'{report.positional_cut:>14,}' for report in reports)
        print(f'  {output.name:<36}{reports[0].lines_in:>8,}{cells}')


if __name__ == '__main__':
    main()
