"""The read guard through real agent runs: refuse before running, say what to use instead (SPEC BTO-3)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic_ai import Agent

from observable_harness.bounded import ReadGuard, ReadTool, ShellTool
from observable_harness.telemetry import names
from tests.agents import Script, call, done, respond, text_of, tool_returns
from tests.otel import OTelHarness

CANARY = 'CANARY_PATH_91c2'


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / f'{CANARY}.log').write_text(''.join(f'line {i}: worker started\n' for i in range(5_000)))
    (tmp_path / 'small.txt').write_text('one\ntwo\nthree\n')
    return tmp_path


class Tools:
    """Real file and shell tools, counting how often they actually ran."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.ran: list[str] = []

    def read_file(self, path: str, offset: int | None = None, limit: int | None = None) -> str:
        self.ran.append('read_file')
        lines = (self.root / path).read_text().splitlines()
        start = offset or 0
        return '\n'.join(lines[start : start + limit] if limit is not None else lines[start:])

    def bash(self, command: str) -> str:
        self.ran.append('bash')
        proc = subprocess.run(['bash', '-c', command], cwd=self.root, capture_output=True, text=True, check=False)
        return proc.stdout[-2_000:] + proc.stderr[-500:]


def run_calls(workspace: Path, *calls: Any, guard: ReadGuard[Any] | None = None) -> tuple[list[str], Tools]:
    tools = Tools(workspace)
    script = Script([respond(*calls), done()])
    guard = guard or ReadGuard(read_tools=['read_file'], shell_tools=['bash'], max_lines=400, root=workspace)
    agent = Agent(script.model(), capabilities=[guard])
    agent.tool_plain(tools.read_file)
    agent.tool_plain(tools.bash)
    result = agent.run_sync('look at the log')
    return [text_of(part) for part in tool_returns(result.all_messages())], tools


def test_whole_file_read_is_refused_with_the_addressed_read_to_use(workspace: Path, otel: OTelHarness) -> None:
    [out], tools = run_calls(workspace, call('read_file', {'path': f'{CANARY}.log'}))
    assert tools.ran == []  # the call did not run at all
    assert out.startswith('Refused: read_file would return all of')
    assert re.search(r"all of '\w+\.log' \(over [\d,]+ lines\), over the 400-line limit", out)
    assert f"read_file(path='{CANARY}.log', offset=0, limit=200)" in out
    [span] = otel.spans(names.SPAN_GUARD)
    attributes = dict(span.attributes or {})
    assert attributes[names.BOUNDED_GUARD_DECISION] == 'refuse'
    assert attributes[names.BOUNDED_GUARD_REASON] == 'whole_file_read'
    assert otel.delta(names.BOUNDED_GUARD_REFUSALS.name, tool='read_file', reason='whole_file_read') == 1
    for our_span in otel.our_spans():
        assert CANARY not in str(dict(our_span.attributes or {}))
    assert all(CANARY not in str(point.attributes) for point in otel.points())


def test_addressed_and_small_reads_pass_untouched(workspace: Path, otel: OTelHarness) -> None:
    outs, tools = run_calls(
        workspace,
        call('read_file', {'path': f'{CANARY}.log', 'offset': 100, 'limit': 3}, 'c1'),
        call('read_file', {'path': 'small.txt'}, 'c2'),
        call('read_file', {'path': f'{CANARY}.log', 'offset': 4_800}, 'c3'),
    )
    assert tools.ran == ['read_file'] * 3
    assert outs[0] == 'line 100: worker started\nline 101: worker started\nline 102: worker started'
    assert outs[1] == 'one\ntwo\nthree'
    assert outs[2].startswith('line 4800')
    reasons = sorted(str(dict(s.attributes or {})[names.BOUNDED_GUARD_REASON]) for s in otel.spans(names.SPAN_GUARD))
    assert reasons == ['addressed', 'addressed', 'small_file']
    assert otel.delta(names.BOUNDED_GUARD_REFUSALS.name) == 0


def test_a_range_over_the_limit_is_refused(workspace: Path) -> None:
    [out], tools = run_calls(workspace, call('read_file', {'path': f'{CANARY}.log', 'offset': 0, 'limit': 3_000}))
    assert tools.ran == [] and 'a range of 3,000 lines' in out


@pytest.mark.parametrize(
    ('command', 'refused'),
    [
        (f'cat {CANARY}.log', True),
        (f'cd . && cat -n {CANARY}.log | sort', True),
        (f'tail -n +1 {CANARY}.log', True),
        (f'head -n 100000 {CANARY}.log', True),
        ('cat *.log', True),
        (f'cat {CANARY}.log | grep "line 42:"', False),
        (f'tail -n 20 {CANARY}.log', False),
        (f'cat {CANARY}.log > copy.log', False),
        ('cat small.txt', False),
        ('cat missing.txt', False),
        ('echo "unterminated', False),
        (f"sed -n '1,50p' {CANARY}.log", False),
        # Through wrappers, subshells, groups, substitutions and `sh -c`: the output still reaches the model.
        (f'LC_ALL=C sudo -u root cat {CANARY}.log', True),
        (f'env -i nice -n 5 cat {CANARY}.log', True),
        (f'timeout 5 cat {CANARY}.log', True),
        (f'(cd . && cat {CANARY}.log)', True),
        (f'{{ cat {CANARY}.log; }}', True),
        (f'echo "$(cat {CANARY}.log)"', True),
        (f'echo `cat {CANARY}.log`', True),
        (f"bash -c 'cat {CANARY}.log'", True),
        (f'sh -lc "cd . && sh -c \'cat {CANARY}.log\'"', True),
        (f"bash -c 'cat {CANARY}.log' | sort", True),
        (f"bash -c 'cat {CANARY}.log' | grep ERROR", False),
        (f'sudo head -n 50 {CANARY}.log', False),
        (f"bash -c 'grep -c line {CANARY}.log'", False),
        (f"awk '{{print $1}}' {CANARY}.log | head -n 5", False),
    ],
)
def test_shell_dumps_of_long_files_are_refused(workspace: Path, command: str, refused: bool) -> None:
    [out], tools = run_calls(workspace, call('bash', {'command': command}))
    if refused:
        assert tools.ran == []
        assert out.startswith('Refused: this command would print')
        assert "grep -n 'PATTERN'" in out and 'read_file(path=' in out
    else:
        assert tools.ran == ['bash']


_WORDS = (
    *('cat', 'sudo', 'env', '-u', 'bash', '-c', "'", '"', '$(', ')', '`', '(', '{', '}', ';', '|', '&&', '~', 'X=1'),
    *('~nosuchuser/x', 'head', '-n', '+1', '*', '[', '\x00', f'{CANARY}.log', 'cd', '..'),
)


@given(command=st.one_of(st.text(max_size=200), st.lists(st.sampled_from(_WORDS), max_size=30).map(' '.join)))
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # the workspace is only read
def test_the_guard_judges_any_command_or_lets_it_run(workspace: Path, command: str) -> None:
    guard = ReadGuard[None](read_tools=['read_file'], shell_tools=['bash'], max_lines=400, root=workspace)
    shell = guard.decide('bash', {'command': command})
    read = guard.decide('read_file', {'path': command})
    assert shell.reason in ('shell_dump', 'no_dump', 'unparsed', 'unjudged')
    assert read.reason in ('whole_file_read', 'not_a_file', 'small_file', 'unjudged')


def test_a_call_the_guard_cannot_judge_runs_and_the_run_goes_on(
    workspace: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # `~nosuchuser` makes pathlib raise (there is no such home directory): the guard must not take the run down.
    [out], tools = run_calls(workspace, call('bash', {'command': 'cat ~nosuchuser-7f3a/notes.txt'}))
    assert tools.ran == ['bash'] and 'No such file' in out
    assert 'ReadGuard could not judge a bash call (RuntimeError)' in caplog.text
    assert 'nosuchuser' not in caplog.text


def test_tool_and_argument_names_are_configurable(workspace: Path) -> None:
    guard = ReadGuard(
        read_tools=[ReadTool('read_file', path_arg='path', offset_args=('offset',), limit_args=('limit',))],
        shell_tools=[ShellTool('bash', command_arg='command')],
        max_lines=10_000,
        root=workspace,
        suggest='Or ask search_logs(query=...) for matching lines.',
    )
    [out], tools = run_calls(workspace, call('read_file', {'path': f'{CANARY}.log'}), guard=guard)
    assert tools.ran == ['read_file']  # 5,000 lines is under this guard's limit
    strict = ReadGuard(read_tools=['read_file'], max_lines=10, root=workspace, suggest='Or ask search_logs(query=...).')
    [out], tools = run_calls(workspace, call('read_file', {'path': f'{CANARY}.log'}), guard=strict)
    assert out.endswith('Or ask search_logs(query=...).')
    assert 'offset 10 and so on' in out  # the page fits the limit


def test_bad_configuration_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match='guards nothing'):
        ReadGuard()
    with pytest.raises(ValueError, match='leaves the agent at a wall'):
        ReadTool('read_file', limit_args=(), end_args=())
    with pytest.raises(ValueError, match='max_lines must be at least 1'):
        ReadGuard(read_tools=['read_file'], max_lines=0)
