"""`docs/reliability.md` cannot rot: every test its table names exists, every test here is in the table,
every row is backed by a test or a bench command, and the figures it quotes from the code are the code's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from hypothesis import settings

from tests.reliability import test_concurrency, test_faults

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / 'docs' / 'reliability.md'
TEST_REF = re.compile(r'`(tests/[\w/]+\.py)::(\w+)(?:\[[^\]`]*\])?`')
BENCH_REF = re.compile(r'`[^`]*?(bench/\w+\.py)[^`]*`')


def guarantee_rows() -> list[str]:
    """The rows of the guarantees table (the first table of the page), header and rule left out."""
    lines = DOC.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('| Guarantee'))
    rows: list[str] = []
    for line in lines[start + 2 :]:
        if not line.startswith('|'):
            break
        rows.append(line)
    return rows


def defined_tests(path: Path) -> set[str]:
    module = ast.parse(path.read_text())
    return {
        node.name
        for node in module.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith('test_')
    }


def test_every_test_the_page_names_exists() -> None:
    named = TEST_REF.findall(DOC.read_text())
    assert len(named) >= 20
    for path, name in named:
        assert (REPO / path).is_file(), path
        assert name in defined_tests(REPO / path), f'{path}::{name} is named in docs/reliability.md but not defined'


def test_every_bench_command_the_page_names_exists() -> None:
    named = BENCH_REF.findall(DOC.read_text())
    assert named
    for path in named:
        assert (REPO / path).is_file(), path


def test_every_row_is_backed_by_a_test_or_a_bench_command() -> None:
    rows = guarantee_rows()
    assert len(rows) >= 12
    for row in rows:
        assert TEST_REF.search(row) or BENCH_REF.search(row), row


def test_every_reliability_test_is_in_the_table() -> None:
    in_table = {(path, name) for row in guarantee_rows() for path, name in TEST_REF.findall(row)}
    here = Path(__file__).resolve()
    for path in sorted(here.parent.glob('test_*.py')):
        if path == here:
            continue
        relative = str(path.relative_to(REPO))
        for name in defined_tests(path):
            assert (relative, name) in in_table, f'{relative}::{name} is missing from docs/reliability.md'


def test_the_figures_quoted_from_the_code_are_the_codes() -> None:
    text = DOC.read_text()
    assert settings.get_profile('thorough').max_examples >= 10_000
    assert f'{settings.get_profile("thorough").max_examples:,} examples' in text
    assert f'{settings.get_profile("quick").max_examples} examples' in text
    assert f'{test_concurrency.RUNS} runs' in text
    assert f'{test_faults.CONCURRENT_SPILLS} runs' in text
