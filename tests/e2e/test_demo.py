"""`observable-harness demo` (the README's first command) end to end, as a user runs it."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time

import pytest

from tests.e2e.prometheus import REPO_ROOT, serving


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
    # It exits right after: it says the endpoint was up while it ran, and how to keep it up.
    assert 'metrics were served at http://127.0.0.1:' in out and 'while this process ran' in out
    assert 'observable-harness demo --serve' in out
    assert 'observable-harness assets DIR' in out
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


def test_a_serving_demo_stops_at_once_says_so_and_logs_each_simulated_failure_once() -> None:
    command = [sys.executable, '-m', 'observable_harness', 'demo', '--serve', '--no-progress', '--metrics-port', '0']
    with serving(command) as demo:
        deadline = time.monotonic() + 120
        # Let it repeat its sessions a few times, each one failing the same simulated ways.
        while demo.output().count('fell back to GoalReanchor') < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(8)
        demo.process.send_signal(signal.SIGINT)
        demo.process.wait(timeout=30)  # a hang guard on a loaded machine
        while 'the metrics endpoint is closed' not in demo.output() and time.monotonic() < deadline:
            time.sleep(0.1)  # the last lines are still on their way through the pipe
    output = demo.output()
    assert demo.process.returncode == 0, output[-3000:]
    assert 'Stopped after' in output and 'the metrics endpoint is closed' in output
    assert output.count('fell back to GoalReanchor') == 1, output[-3000:]
