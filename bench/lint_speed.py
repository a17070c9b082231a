"""Time and peak memory of `observable-harness lint` on a large tree: this checkout against a git ref, one run.

Run: `.venv/bin/python bench/lint_speed.py --tree DIR [--against REF] [--rounds N]`

Each round runs the command users run (`python -m observable_harness lint DIR`) once with this checkout's
package and once with the package as it is at `--against` (extracted from git into a temporary directory
and put first on `PYTHONPATH`), alternating, each in its own process; the wall time and the peak resident
memory of each process are taken from the operating system (`wait4`). A large tree to use, all of agno:

    git -C /work/.mirror/agno-agi+agno/repo archive HEAD libs/agno | tar -x -C /tmp/agno
    .venv/bin/python bench/lint_speed.py --tree /tmp/agno --against main
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mb: float
    findings: int


def run_once(tree: Path, src: Path) -> Run:
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join([str(src), os.environ.get('PYTHONPATH', '')])}
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, '-m', 'observable_harness', 'lint', str(tree)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=src.parent,
    )
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f'lint with {src} exited {process.returncode}')
    lines = [line for line in output.decode().splitlines() if ': BTO' in line]
    return Run(elapsed, usage.ru_maxrss / 1024, len(lines))  # ru_maxrss is in kilobytes on Linux


def extract(ref: str, into: Path) -> Path:
    archive = subprocess.run(['git', '-C', str(ROOT), 'archive', ref, 'src'], capture_output=True, check=True)
    subprocess.run(['tar', '-x', '-C', str(into)], input=archive.stdout, check=True)
    return into / 'src'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--tree', type=Path, required=True, help='a directory of Python code to lint')
    parser.add_argument('--against', default='main', help='the git ref to compare with (default: main)')
    parser.add_argument('--rounds', type=int, default=1)
    args = parser.parse_args(argv)
    files = sum(1 for _ in args.tree.rglob('*.py'))
    with tempfile.TemporaryDirectory() as temporary:
        other = extract(args.against, Path(temporary))
        here: list[Run] = []
        there: list[Run] = []
        for _ in range(args.rounds):
            there.append(run_once(args.tree, other))
            here.append(run_once(args.tree, ROOT / 'src'))
    print(f'{args.tree}: {files} Python files, {args.rounds} round(s), median of each')
    print(f'  {"package":24} {"seconds":>8} {"peak MB":>8} {"findings":>9}')
    for name, runs in ((args.against, there), ('this checkout', here)):
        seconds = statistics.median(r.seconds for r in runs)
        peak = statistics.median(r.peak_mb for r in runs)
        print(f'  {name:24} {seconds:8.1f} {peak:8.0f} {runs[-1].findings:9}')
    time_ratio = statistics.median(r.seconds for r in there) / statistics.median(r.seconds for r in here)
    memory_ratio = statistics.median(r.peak_mb for r in there) / statistics.median(r.peak_mb for r in here)
    print(f'  this checkout is {time_ratio:.1f}x as fast and needs 1/{memory_ratio:.1f} of the memory')
    return 0


if __name__ == '__main__':
    sys.exit(main())
