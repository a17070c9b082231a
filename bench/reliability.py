"""The thorough reliability run: every test of `tests/reliability` with the `thorough` hypothesis profile.

Run with the development interpreter, which has pytest and hypothesis: `make reliability`, or
`.venv/bin/python bench/reliability.py`. The `thorough` profile (`tests/conftest.py`) gives every
property at least 10,000 examples (a tenth of that for the one that drives a whole agent run per
example); `make test` runs the same tests with the small `quick` profile.

Prints, per property, the examples hypothesis ran (passing, and invalid ones it discarded) and the
total, then the outcome of every other test of the directory (the concurrent runs, the injected faults).
Exits non-zero when a test failed. `make bench` leaves it out: it checks, it does not measure.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATISTICS_TEST = re.compile(r'^(tests/\S+::\S+):$')
STATISTICS_COUNTS = re.compile(r'- (\d+) passing, (\d+) failing, and (\d+) invalid test cases')
OUTCOME = re.compile(r'^(PASSED|FAILED|SKIPPED|ERROR) (tests/\S+)|^(tests/\S+) (PASSED|FAILED|SKIPPED|ERROR)')


def parse_statistics(output: str) -> dict[str, tuple[int, int, int]]:
    """Test id -> (passing, failing, invalid) examples, summed over hypothesis' phases."""
    counts: dict[str, tuple[int, int, int]] = {}
    current: str | None = None
    for line in output.splitlines():
        test = STATISTICS_TEST.match(line.strip())
        if test is not None:
            current = str(test.group(1))
            counts.setdefault(current, (0, 0, 0))
            continue
        found = STATISTICS_COUNTS.search(line)
        if found and current is not None:
            passing, failing, invalid = counts[current]
            counts[current] = (
                passing + int(found.group(1)),
                failing + int(found.group(2)),
                invalid + int(found.group(3)),
            )
    return counts


def parse_outcomes(output: str) -> dict[str, str]:
    outcomes: dict[str, str] = {}
    for line in output.splitlines():
        found = OUTCOME.match(line.strip())
        if found:
            if found.group(1):
                outcomes[found.group(2)] = found.group(1)
            else:
                outcomes[found.group(3)] = found.group(4)
    return outcomes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description='The thorough reliability run, with the examples it ran.')
    parser.add_argument('--profile', default='thorough', help='hypothesis profile registered in tests/conftest.py')
    parser.add_argument('--workers', default='2', help='pytest-xdist workers')
    parser.add_argument('tests', nargs='*', default=['tests/reliability'])
    args = parser.parse_args(argv)

    command = [sys.executable, '-m', 'pytest', *args.tests, '-p', 'no:cacheprovider', '-rA', '-q']
    command += ['--hypothesis-show-statistics', '-n', args.workers]
    env = {**os.environ, 'HYPOTHESIS_PROFILE': args.profile}
    print(f'$ HYPOTHESIS_PROFILE={args.profile} {" ".join(command[1:])}', flush=True)
    started = time.monotonic()
    completed = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    elapsed = time.monotonic() - started
    output = completed.stdout + completed.stderr
    statistics = parse_statistics(output)
    outcomes = parse_outcomes(output)

    print(f'\nproperty (hypothesis profile {args.profile!r})'.ljust(102) + f'{"examples":>10} {"invalid":>8}')
    total = 0
    for test, (passing, failing, invalid) in sorted(statistics.items()):
        total += passing
        flag = f'  {failing} FAILING' if failing else ''
        print(f'{test.removeprefix("tests/reliability/"):<101} {passing:>10,} {invalid:>8,}{flag}')
    print(f'{"total examples":<101} {total:>10,}')
    print('\nother tests')
    for test, outcome in sorted(outcomes.items()):
        if test.split('[')[0] not in statistics:
            print(f'  {outcome:<7} {test.removeprefix("tests/reliability/")}')
    print(f'\n{len(outcomes)} tests, exit status {completed.returncode}, {elapsed:.0f} s')
    if completed.returncode:
        print(output[-8_000:])
    return completed.returncode


if __name__ == '__main__':
    sys.exit(main())
