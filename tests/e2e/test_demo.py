"""`observable-harness demo` (the README's first command) end to end, as a user runs it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.e2e.prometheus import REPO_ROOT


def test_demo_runs_every_session_and_reports_savings_and_fallbacks() -> None:
    completed = subprocess.run(
        [sys.executable, '-m', 'observable_harness', 'demo', '--no-progress', '--metrics-port', '0'],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO_ROOT,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    out = ' '.join(completed.stdout.split())  # the table and notes wrap at the console width
    for tool in ('run_tests', 'list_files', 'read_source', 'fetch_logs', 'fetch_docs', 'fetch_changelog'):
        assert tool in out
    assert 'spill>truncate' in out  # the simulated full disk fell back
    assert 'summarize>truncate' in out  # the broken summarizer fell back
    assert 'passthrough' in out
    assert 'Reduced 9 of 11 returns' in out
    assert 'Read-backs through read_tool_result: 1 denied, 4 hit, 1 miss.' in out
    assert 'LLMReminder generation(s) fell back to the goal re-anchor' in out
    assert 'counted as a prune failure' in out
    assert 'metrics are served at http://127.0.0.1:' in out
    # The money column, priced with genai-prices' snapshot for the model the scripted usage names.
    assert '$ avoided' in out
    money = re.search(
        r'for claude-sonnet-4-6, .*?\((\d+)% of all input was read from the prompt cache\)\. The runs cost \$([\d.]+); '
        r'their reductions avoided \$([\d.,]+), between \$([\d.,]+) had every re-send been a cache read and '
        r'\$([\d.,]+) at the full input price\.',
        out,
    )
    assert money is not None, out[-3000:]
    share, cost, expected, lower, upper = (float(g.replace(',', '')) for g in money.groups())
    assert 0 < share < 100
    assert cost > 0
    assert 0 < lower < expected < upper
    assert upper == pytest.approx(10 * lower, rel=0.01)  # claude-sonnet-4-6: a cache read costs a tenth of input
