"""`observable-harness demo` (the README's first command) end to end, as a user runs it."""

from __future__ import annotations

import subprocess
import sys

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
