"""Run every benchmark in `bench/`, one after another, with the bench interpreter (`make bench`).

Each benchmark prints its own side-by-side table; this only runs them in turn and says which one is
talking. Not part of `make test`: benchmarks measure, they never assert.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    scripts = sorted(
        path for path in HERE.glob('*.py') if path.name not in ('run_all.py',) and not path.name.startswith('_')
    )
    failed: list[str] = []
    for script in scripts:
        print(f'\n=== {script.name} ' + '=' * (72 - len(script.name)), flush=True)
        started = time.monotonic()
        completed = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False)
        print(f'--- {script.name}: exit {completed.returncode} after {time.monotonic() - started:.0f} s', flush=True)
        if completed.returncode:
            failed.append(script.name)
    if failed:
        print('failed: ' + ', '.join(failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
