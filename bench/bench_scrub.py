"""Secret scrubbing cost per megabyte: the default `Scrubber` against running every regex over the whole text.

Run: `.venv/bin/python bench/bench_scrub.py` (or the bench interpreter; no anchor is involved).

Every spill and retention write is scrubbed first (BTO-8), so this is on the hot path of every large
tool return. The default scrubber rules out most patterns by a character the text lacks, and tries
the rest only where a match can begin (`SecretPattern.starts`); "every regex everywhere" is the same
patterns with those shortcuts removed, which scrubs exactly the same (a property test checks it). Both
run on the captured real outputs, a 1 MB log, and inputs built to be bad for a scanner (runs of
dashes, names everywhere, many flags with values), in interleaved rounds; median over rounds.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.traffic import FILES, traffic_dir  # noqa: E402

from observable_harness._text.secrets import DEFAULT_PATTERNS, Scrubber  # noqa: E402

DEFAULT = Scrubber()
EVERYWHERE = Scrubber(patterns=tuple(dataclasses.replace(p, hints=(), starts=()) for p in DEFAULT_PATTERNS))


def texts() -> dict[str, str]:
    found = {name: (traffic_dir() / name).read_text(encoding='utf-8') for name in FILES}
    line = '2026-11-29T10:00:00 INFO worker-3 processed batch 123456 in 12.5 ms status=ok\n'
    found['1 MB service log'] = (line * (1_048_576 // len(line) + 1))[:1_048_576]
    found['runs of dashes + a key'] = ('-' * 79 + '\n') * 13_000 + 'api key here\n'
    found['names everywhere'] = 'password_reset token_refresh passes keys\n' * 25_000
    found['25,000 flags with values'] = 'run --db-password hunter2 --verbose\n' * 25_000
    return found


def timed(scrubber: Scrubber, text: str, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        scrubber.scrub(text)
    return (time.perf_counter() - start) / repeat


def main() -> int:
    parser = argparse.ArgumentParser(description='Secret scrubbing cost per megabyte, side by side.')
    parser.add_argument('--rounds', type=int, default=5)
    options = parser.parse_args()
    cases = texts()
    runs: dict[tuple[str, str], list[float]] = {}
    contenders: dict[str, Scrubber] = {'default': DEFAULT, 'every regex everywhere': EVERYWHERE}
    for name, text in cases.items():  # same output, or the comparison means nothing
        assert DEFAULT.scrub(text) == EVERYWHERE.scrub(text), name
    for _ in range(options.rounds):
        order: list[tuple[str, Callable[[], float]]] = []
        for name, text in cases.items():
            repeat = max(1, 200_000 // max(len(text), 1))
            for label, scrubber in contenders.items():
                order.append((f'{name}\0{label}', lambda s=scrubber, t=text, r=repeat: timed(s, t, r)))
        random.shuffle(order)
        for key, run in order:
            name, label = key.split('\0')
            runs.setdefault((name, label), []).append(run())
    print(f'scrub cost, {options.rounds} interleaved rounds; median ms per call (and per MB)\n')
    header = f'{"text":28} {"chars":>10} {"default":>10} {"ms/MB":>8} {"everywhere":>11} {"ms/MB":>8} {"ratio":>7}'
    print(header)
    print('-' * len(header))
    for name, text in cases.items():
        ours = statistics.median(runs[(name, 'default')]) * 1e3
        naive = statistics.median(runs[(name, 'every regex everywhere')]) * 1e3
        per_mb = 1_048_576 / len(text)
        print(
            f'{name:28} {len(text):>10,} {ours:>10.2f} {ours * per_mb:>8.1f} {naive:>11.2f} '
            f'{naive * per_mb:>8.1f} {ours / naive:>6.2f}x'
        )
    return 0


if __name__ == '__main__':
    sys.exit(main())
