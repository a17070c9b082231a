"""Secret scrubbing cost per megabyte: the gate on each engine, no gate, and every regex over the whole text.

Run: `bench/.venv/bin/python bench/bench_scrub.py` (`bash bench/setup_env.sh` installs the `fast` extra
there; no anchor is involved). `--payload FILE` adds a file of your own (a held-out check).

Every spill and retention write is scrubbed first (no secret reaches the store): on the hot path of every large
tool return. With an engine installed (Hyperscan, RE2) one pass over the UTF-8 bytes says where a
secret can begin and the exact regexes run only there; `python` is the path without an engine (each
pattern ruled out by a character the text lacks, or tried only where a match can begin); "every
regex everywhere" is the same patterns with every shortcut removed. All of them scrub exactly the
same (checked below before timing, and by property tests). Timed on the captured real outputs, a
1 MB log, 1 MiB of mixed real output, 10,000 records as JSON, and inputs built to be bad for a scanner
(runs of dashes, names everywhere, many flags with values), in interleaved rounds; median over rounds.
Each call is `scrub(text)`: encoding the text for the gate is included.
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

from _real_outputs import MIB, load, mixed  # noqa: E402
from observable_harness._text.layout import compact_json  # noqa: E402
from observable_harness._text.secrets import DEFAULT_PATTERNS, ENGINES, Scrubber  # noqa: E402

EVERYWHERE = Scrubber(
    patterns=tuple(dataclasses.replace(p, hints=(), starts=(), gate=()) for p in DEFAULT_PATTERNS), engine='python'
)


def texts(extra: list[Path]) -> dict[str, str]:
    found = {name: (traffic_dir() / name).read_text(encoding='utf-8') for name in FILES}
    line = '2026-11-29T10:00:00 INFO worker-3 processed batch 123456 in 12.5 ms status=ok\n'
    found['1 MB service log'] = (line * (MIB // len(line) + 1))[:MIB]
    found['1 MiB mixed real output'] = mixed()
    found['10,000 records (JSON)'] = compact_json(
        [{'id': i, 'name': f'item-{i}', 'tags': ['a', 'b'], 'score': i * 0.5} for i in range(10_000)]
    )
    found['runs of dashes + a key'] = ('-' * 79 + '\n') * 13_000 + 'api key here\n'
    found['names everywhere'] = 'password_reset token_refresh passes keys\n' * 25_000
    found['25,000 flags with values'] = 'run --db-password hunter2 --verbose\n' * 25_000
    for path in extra:
        found[path.name[:28]] = load(path)
    return found


def timed(scrubber: Scrubber, text: str, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        scrubber.scrub(text)
    return (time.perf_counter() - start) / repeat


def main() -> int:
    parser = argparse.ArgumentParser(description='Secret scrubbing cost per megabyte, side by side.')
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--payload', type=Path, action='append', default=[], help='also scrub this file (repeatable)')
    options = parser.parse_args()
    cases = texts(options.payload)
    contenders: dict[str, Scrubber] = {engine: Scrubber(engine=engine) for engine in ENGINES}
    contenders['everywhere'] = EVERYWHERE
    for name, text in cases.items():  # same output, or the comparison means nothing
        results = {label: scrubber.scrub(text) for label, scrubber in contenders.items()}
        assert len({(r.text, tuple(sorted(r.counts.items()))) for r in results.values()}) == 1, name
    runs: dict[tuple[str, str], list[float]] = {}
    for _ in range(options.rounds):
        order: list[tuple[str, str, Callable[[], float]]] = []
        for name, text in cases.items():
            repeat = max(1, 200_000 // max(len(text), 1))
            for label, scrubber in contenders.items():
                order.append((name, label, lambda s=scrubber, t=text, r=repeat: timed(s, t, r)))
        random.shuffle(order)
        for name, label, run in order:
            runs.setdefault((name, label), []).append(run())
    print(f'scrub cost, {options.rounds} interleaved rounds; median ms per MB (same output from every column)\n')
    labels = list(contenders)
    header = f'{"text":28} {"chars":>10} ' + ' '.join(f'{label:>11}' for label in labels)
    header += ' ' + ' '.join(f'{label + "/python":>17}' for label in labels if label not in ('python', 'everywhere'))
    print(header)
    print('-' * len(header))
    for name, text in cases.items():
        per_mb = 1_048_576 / len(text)
        cost = {label: statistics.median(runs[(name, label)]) * 1e3 * per_mb for label in labels}
        line = f'{name:28} {len(text):>10,} ' + ' '.join(f'{cost[label]:>11.2f}' for label in labels)
        line += ' ' + ' '.join(
            f'{cost[label] / cost["python"]:>16.3f}x' for label in labels if label not in ('python', 'everywhere')
        )
        print(line)
    return 0


if __name__ == '__main__':
    sys.exit(main())
