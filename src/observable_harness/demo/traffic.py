"""Realistic tool output for the demo, built from this machine where possible.

The file inventory and the source file are real (this Python installation's standard library); the
test log and the service log are generated with the shape, density and failure placement of real
`pytest -v` and service output, seeded so every demo run sees the same bytes.
"""

from __future__ import annotations

import inspect
import json
import random
import sysconfig
from pathlib import Path
from typing import Any

__all__ = ['file_inventory', 'pytest_log', 'service_log', 'service_status', 'source_file']

_MODULES = ('inventory', 'pricing', 'orders', 'shipping', 'accounts', 'reports', 'search', 'billing')


def pytest_log(*, tests: int = 1_400, seed: int = 7) -> str:
    """A `pytest -v` run over a mid-sized project: many PASSED lines, five failures with tracebacks,
    a warnings summary, and the short test summary and result line last, where real runs put them."""
    rng = random.Random(seed)  # noqa: S311 - reproducible demo data, not security
    failing = sorted(rng.sample(range(tests), 5))
    lines = [
        '=' * 29 + ' test session starts ' + '=' * 30,
        'platform linux -- Python 3.11.7, pytest-9.2.0, pluggy-1.7.0 -- /srv/app/.venv/bin/python',
        'rootdir: /srv/app',
        'plugins: anyio-4.16.0, xdist-3.8.0',
        f'collecting ... collected {tests} items',
        '',
    ]
    names: list[str] = []
    for index in range(tests):
        module = _MODULES[index % len(_MODULES)]
        name = f'tests/test_{module}.py::test_{module}_case_{index}[{rng.choice("abcdef")}{index % 13}]'
        names.append(name)
        status = 'FAILED' if index in failing else 'PASSED'
        percent = (index + 1) * 100 // tests
        lines.append(f'{name} {status}'.ljust(73) + f'[{percent:3d}%]')
    lines += ['', '=' * 35 + ' FAILURES ' + '=' * 35]
    errors = [
        ("KeyError: 'sku-4471'", 'inventory.py:88: KeyError'),
        ('AssertionError: assert 1998 == 1999', 'tests/test_pricing.py:41: AssertionError'),
        ("ValueError: invalid literal for int() with base 10: ' two'", 'orders.py:25: ValueError'),
        ('TimeoutError: carrier API did not answer within 5.0 s', 'shipping.py:132: TimeoutError'),
        ("AttributeError: 'NoneType' object has no attribute 'email'", 'accounts.py:57: AttributeError'),
    ]
    for index, (error, where) in zip(failing, errors, strict=True):
        short = names[index].split('::')[1]
        lines += [
            f' {short} '.center(80, '_'),
            '',
            f'    def {short.split("[")[0]}():',
            '        fixture = load_fixture("standard")',
            '>       result = run_case(fixture)',
            '',
            f'{names[index].split("::")[0]}:{rng.randint(10, 200)}: ',
            '_ ' * 40,
            '',
            '    def run_case(fixture):',
            '        prepared = prepare(fixture)',
            '>       return evaluate(prepared)',
            f'E       {error}',
            '',
            where,
        ]
    lines += [
        '=' * 31 + ' warnings summary ' + '=' * 31,
        'tests/test_orders.py::test_orders_case_2[c2]',
        '  /srv/app/orders.py:19: DeprecationWarning: legacy CSV dialect detected',
        '',
        '-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html',
        '=' * 27 + ' short test summary info ' + '=' * 28,
    ]
    for index, (error, _) in zip(failing, errors, strict=True):
        lines.append(f'FAILED {names[index]} - {error[:40]}...')
    lines.append(f'{"=" * 19} 5 failed, {tests - 5} passed, 1 warning in 41.37s {"=" * 19}')
    return '\n'.join(lines) + '\n'


def file_inventory(*, limit: int = 30_000) -> list[dict[str, Any]]:
    """Every file of this Python's standard library as a record (path, size, suffix, mtime): a real,
    multi-megabyte structured listing of the kind an inventory or search tool returns."""
    root = Path(sysconfig.get_paths()['stdlib'])
    records: list[dict[str, Any]] = []
    for path in sorted(root.rglob('*')):
        if len(records) >= limit:
            break
        try:
            info = path.stat()
        except OSError:
            continue
        if not path.is_file():
            continue
        records.append(
            {
                'path': str(path.relative_to(root)),
                'bytes': info.st_size,
                'suffix': path.suffix,
                'modified': int(info.st_mtime),
                'package': path.parent.name,
            }
        )
    return records


def source_file() -> str:
    """A real, long source file: asyncio's event loop implementation from this Python."""
    import asyncio.base_events

    return inspect.getsource(asyncio.base_events)


def service_log(*, lines: int = 6_000, seed: int = 11) -> str:
    """A service log where the one error worth reading sits in the middle of routine lines."""
    rng = random.Random(seed)  # noqa: S311 - reproducible demo data, not security
    out: list[str] = []
    for index in range(lines):
        minute, second = divmod(index // 4, 60)
        stamp = f'2026-11-29T14:{minute % 60:02d}:{second:02d}.{rng.randint(0, 999):03d}Z'
        if index == lines // 2:
            out.append(f'{stamp} ERROR payments-7 charge failed: card processor returned 502 (request id rq-5521)')
            continue
        worker = rng.randint(1, 9)
        out.append(
            f'{stamp} INFO  api-{worker} GET /v2/orders/{rng.randint(10_000, 99_999)} 200 {rng.randint(3, 90)}ms'
        )
    return '\n'.join(out) + '\n'


def service_status() -> dict[str, Any]:
    """A small structured status: under every band, passed through untouched."""
    return {'service': 'checkout', 'healthy': True, 'replicas': 3, 'version': '2026.11.3'}


def as_json(value: Any) -> str:
    return json.dumps(value, indent=2)
