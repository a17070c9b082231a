"""Cost of choosing a stand-in's preview for 1 MB, by shape: the intent- and shape-aware preview against today's.

Run with the bench interpreter: `bash bench/setup_env.sh` then `bench/.venv/bin/python bench/bench_preview.py`
(`--search-only` times the path an install without the `fast` extra takes).

Each real capture of `bench/standins/captures/` is repeated to 1 MB (so its shape holds over the whole
megabyte; `--size` sets another size: the digests that read a whole text run only up to 160-512 KB, so a
smaller size times them) and previewed at the spill's default budget (1,000 characters) by:

- `salient` — the class-based excerpt stand-ins used before intent and shape (`_salient_baseline.py`);
- `preview` — `select_preview` without intent (shape and line classes);
- `preview+intent` — `select_preview` with the case's intent (terms from its prompt, text and arguments);
- `in a spill` — the same as a spill builds it: handed the UTF-8 the write encodes anyway (a text outside
  ASCII is then searched in it rather than encoded again; an ASCII one's markers are scanned in place).

Implementations run in interleaved rounds, in a shuffled order each round, so drift on a shared
machine hits all of them alike. Reported: the median over rounds of milliseconds per preview, and
the ratios to `salient`.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from _salient_baseline import salient_excerpt
from observable_harness._text import scan
from observable_harness._text.intent import Intent
from observable_harness._text.layout import compact_json
from observable_harness._text.preview import select_preview

HERE = Path(__file__).resolve().parent / 'standins'
SIZE = 1_000_000
BUDGET = 1_000


def payloads(size: int = SIZE) -> list[tuple[str, str, Intent]]:
    raw = json.loads((HERE / 'cases.json').read_text(encoding='utf-8'))
    # The log bench_hooks spills (one line shape, 1 MB): where today's preview costs its ~5 ms.
    line = '2026-11-29T10:00:00 INFO worker-3 processed batch 123456 in 12.5 ms status=ok\n'
    hooks_log = (line * (size // len(line) + 1))[:size]
    out: list[tuple[str, str, Intent]] = [
        ('bench_hooks log', hooks_log, Intent.gather(prompt='Did worker-3 process batch 123456?'))
    ]
    for case in raw['cases']:
        text = (HERE / 'captures' / case['file']).read_text(encoding='utf-8')
        if case.get('structured'):
            text = compact_json(json.loads(text))
        sized = (text * (size // len(text) + 1))[:size]
        intent = Intent.gather(args=case['args'], text=case['model_text'], prompt=case['user_prompt'])
        out.append((case['id'], sized, intent))
    return out


def main(rounds: int, size: int = SIZE) -> None:
    cases = payloads(size)
    # The write's UTF-8, encoded once per capture outside the timing: a spill pays for it to write.
    encoded = {id(text): text.encode('utf-8', 'surrogatepass') for _, text, _ in cases}
    impls: dict[str, Callable[[str, Intent], object]] = {
        'salient': lambda text, intent: salient_excerpt(text, BUDGET),
        'preview': lambda text, intent: select_preview(text, BUDGET),
        'preview+intent': lambda text, intent: select_preview(text, BUDGET, intent=intent, offer_chars=120),
        'in a spill': lambda text, intent: select_preview(
            text, BUDGET, intent=intent, offer_chars=120, utf8=encoded[id(text)]
        ),
    }
    names = list(impls)
    print(f'milliseconds to choose a {BUDGET:,}-char preview of {size:,} characters (median of {rounds} rounds)\n')
    header = (
        f'{"capture":<22}'
        + ''.join(f'{name:>16}' for name in names)
        + f'{"preview/salient":>17}{"+intent/salient":>17}'
    )
    print(header)
    print('-' * len(header))
    totals: dict[str, list[float]] = {name: [] for name in names}
    for case_id, text, intent in cases:
        for impl in impls.values():  # warm-up: regex compilation, first-use caches
            impl(text, intent)
        times: dict[str, list[float]] = {name: [] for name in names}
        for _ in range(rounds):
            order = list(names)
            random.shuffle(order)
            for name in order:
                start = time.perf_counter()
                impls[name](text, intent)
                times[name].append((time.perf_counter() - start) * 1000)
        median = {name: statistics.median(values) for name, values in times.items()}
        for name in names:
            totals[name].append(median[name])
        cells = ''.join(f'{median[name]:>16.2f}' for name in names)
        print(
            f'{case_id:<22}{cells}{median["preview"] / median["salient"]:>16.2f}x'
            f'{median["preview+intent"] / median["salient"]:>16.2f}x'
        )
    print('-' * len(header))
    worst = ''.join(f'{max(totals[name]):>16.2f}' for name in names)
    print(f'{"worst capture":<22}{worst}')
    mean = ''.join(f'{statistics.mean(totals[name]):>16.2f}' for name in names)
    print(f'{"mean":<22}{mean}')


def search_only() -> None:
    """Take the path an install without the `fast` extra takes: every term and marker searched with `str.find`."""
    original = scan.usable.__wrapped__
    scan.usable.cache_clear()

    def usable(engine: scan.Engine) -> bool:
        return engine != 'hyperscan' and original(engine)

    scan.usable = usable


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description='Cost of choosing a preview for 1 MB, by shape')
    parser.add_argument('--rounds', type=int, default=15)
    parser.add_argument('--search-only', action='store_true', help='no multi-literal engine: the path without `fast`')
    parser.add_argument('--size', type=int, default=SIZE, help='characters each capture is repeated or cut to')
    arguments = parser.parse_args()
    if arguments.search_only:
        search_only()
    print(f'multi-literal engine: {"none (searches with str.find)" if not scan.usable("hyperscan") else "hyperscan"}')
    main(arguments.rounds, arguments.size)
