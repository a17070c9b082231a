"""Real command output, produced by running the commands during the test session.

Each generator builds a tiny project in a temporary directory, runs a real tool on it and returns
what it printed (stdout and stderr interleaved as a terminal shows them) with its exit status.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import textwrap
from dataclasses import dataclass
from pathlib import Path

from tests.traffic import traffic_dir

TRAFFIC_FILES = ('pytest_verbose_failures.txt', 'gcc_errors.txt', 'pip_build_log.txt', 'find_listing.txt')


@dataclass(frozen=True)
class RealOutput:
    name: str
    text: str
    exit_status: int | None


def _run(command: list[str], cwd: Path, timeout: float = 120) -> tuple[str, int]:
    proc = subprocess.run(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout, check=False
    )
    return proc.stdout, proc.returncode


def failing_pytest(root: Path) -> RealOutput:
    project = root / 'inventory'
    (project / 'tests').mkdir(parents=True)
    (project / 'inventory.py').write_text(
        textwrap.dedent(
            """
            from dataclasses import dataclass

            @dataclass
            class Item:
                sku: str
                qty: int
                price_cents: int

            def parse_line(line):
                sku, qty, price = line.split(',')
                return Item(sku.strip(), int(qty), int(float(price) * 100))

            def restock(items, sku, n):
                for item in items:
                    if item.sku == sku:
                        item.qty += n
                        return item
                raise KeyError(sku)
            """
        )
    )
    (project / 'tests' / 'test_inventory.py').write_text(
        textwrap.dedent(
            """
            import warnings
            import pytest
            from inventory import Item, parse_line, restock

            @pytest.mark.parametrize('n', range(120))
            def test_scales(n):
                assert Item('a', n, 1).qty == n

            def test_restock_unknown_sku():
                assert restock([Item('a', 1, 100)], 'b', 3).qty == 4

            def test_rounding():
                assert parse_line('x, 2, 19.99').price_cents == 1999

            def test_bad_row():
                warnings.warn('legacy CSV dialect detected', DeprecationWarning)
                assert parse_line('x, two, 1.00').qty == 2
            """
        )
    )
    text, status = _run(
        [sys.executable, '-m', 'pytest', '-v', '-p', 'no:cacheprovider', '-p', 'no:xdist', '-p', 'no:randomly'],
        project,
    )
    return RealOutput('pytest', text, status)


def failing_gcc(root: Path) -> RealOutput | None:
    gcc = shutil.which('gcc') or shutil.which('cc')
    if gcc is None:
        return None
    source = root / 'broken.c'
    source.write_text(
        textwrap.dedent(
            """
            #include <stdio.h>
            struct point { int x, y; };
            int area(struct point *p, int n) {
              int total = 0
              for (int i = 0; i < n; i++) { total += p[i].x * p[i].z; }
              return totl;
            }
            int main(void) { struct point pts[3]; printf("%d\\n", area(pts, "three")); undefined_fn(pts); return 0 }
            """
        )
    )
    text, status = _run([gcc, '-Wall', '-Wextra', '-c', 'broken.c'], root)
    return RealOutput('gcc', text, status)


def failing_pip_install(root: Path) -> RealOutput:
    """`pip install -v` of a local package whose build fails after a long build log (works offline)."""
    package = root / 'brokenpkg'
    package.mkdir()
    (package / 'setup.py').write_text(
        textwrap.dedent(
            """
            import sys
            print('running build_py')
            for i in range(150):
                print(f'copying src/brokenpkg/module_{i}.py -> build/lib/brokenpkg', flush=True)
            print('running build_ext')
            print('building brokenpkg._speedups extension')
            print('warning: no previously-included files matching *.pyc found anywhere in distribution')
            sys.stderr.write('error: command gcc failed with exit code 1\\n')
            raise SystemExit(1)
            """
        )
    )
    text, status = _run(
        [sys.executable, '-m', 'pip', 'install', '--no-index', '--no-build-isolation', '--no-deps', '-v', str(package)],
        root,
    )
    return RealOutput('pip', text, status)


def stdlib_listing(root: Path) -> RealOutput:
    stdlib = sysconfig.get_paths()['stdlib']
    text, status = _run(['find', stdlib, '-name', '*.py', '-not', '-path', '*/site-packages/*'], root)
    lines = sorted(text.splitlines())
    return RealOutput('find', '\n'.join(lines) + '\n', status)


def traffic() -> list[RealOutput]:
    out: list[RealOutput] = []
    for name in TRAFFIC_FILES:
        path = traffic_dir() / name
        out.append(RealOutput(f'traffic:{name}', path.read_text(encoding='utf-8'), None))
    return out
