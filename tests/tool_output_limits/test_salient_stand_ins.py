"""Stand-ins that keep the cause (issue 7): at every default band, the model sees the failing test names,
the result line, the first compiler error and the exit status without reading back — on real output."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent
from tests.agents import Script, call, done, respond, text_of, tool_returns
from tests.traffic import traffic_dir

from observable_harness import ToolOutputLimits
from observable_harness._text.cut import cut_text
from observable_harness.tool_output_limits import Band, LocalFileStore, Spill, Truncate, TruncationStrategy


class FullDisk:
    async def write(self, key: str, data: bytes) -> str:
        raise OSError(28, 'No space left on device')

    async def read(self, handle: str) -> bytes:
        raise KeyError(handle)


def pytest_log() -> str:
    # The capture is 19 KB: below nothing, above the default 10,000-char band.
    return (traffic_dir() / 'pytest_verbose_failures.txt').read_text()


def compiler_log(tmp_path: Path) -> str:
    """A real gcc run on a file with hundreds of errors, with the exit status a shell tool reports."""
    if shutil.which('gcc') is None:
        pytest.skip('gcc is not installed')
    source = tmp_path / 'broken.c'
    body = '\n'.join(f'int f{i}(void) {{ return undefined_{i} + ; }}' for i in range(120))
    source.write_text('#include <stdio.h>\nint main(void) { printf("%d\\n", missing_total) return 0; }\n' + body)
    completed = subprocess.run(
        ['gcc', '-Wall', '-Wextra', '-c', str(source), '-o', str(tmp_path / 'broken.o')],
        capture_output=True,
        text=True,
        check=False,
    )
    return completed.stderr + f'exit={completed.returncode}\n'


def service_log() -> str:
    lines = [
        f'2026-11-29T14:{i // 60 % 60:02d}:{i % 60:02d}Z INFO api-{i % 9} GET /v2/orders/{i} 200' for i in range(4_000)
    ]
    lines.insert(2_000, '2026-11-29T14:33:20Z ERROR payments-7 charge failed: card processor returned 502')
    return '\n'.join(lines) + '\n'


def seen(capability: ToolOutputLimits[Any], output: str) -> str:
    script = Script([respond(call('run')), done()])
    agent = Agent(script.model(), capabilities=[capability])
    agent.tool_plain(name='run')(lambda: output)
    agent.run_sync('go')
    [part] = tool_returns(script.received[1], 'run')
    return text_of(part)


BANDS = ['spill', 'truncate fallback']


def capability_for(band: str, tmp_path: Path) -> ToolOutputLimits[Any]:
    # The default bands either way: spill when the store works, its Truncate fallback when it does not.
    return ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path / 'store') if band == 'spill' else FullDisk())


@pytest.mark.parametrize('band', BANDS)
def test_pytest_failures_and_result_line_are_seen(band: str, tmp_path: Path) -> None:
    log = pytest_log()
    shown = seen(capability_for(band, tmp_path), log)
    assert len(shown) < len(log) // 4
    failing = [line.split(' - ')[0].removeprefix('FAILED ') for line in log.splitlines() if line.startswith('FAILED ')]
    assert len(failing) == 5
    for test_id in failing:
        assert test_id in shown
    assert '5 failed, 182 passed, 1 warning' in shown
    assert ('stored whole' in shown) is (band == 'spill')


@pytest.mark.parametrize('band', BANDS)
def test_first_compiler_error_and_exit_status_are_seen(band: str, tmp_path: Path) -> None:
    log = compiler_log(tmp_path)
    assert len(log) > 10_000
    first_error = next(line for line in log.splitlines() if ': error: ' in line)
    shown = seen(capability_for(band, tmp_path), log)
    assert first_error in shown
    assert re.search(r'^exit=1$', shown, re.MULTILINE)


@pytest.mark.parametrize('band', BANDS)
def test_an_error_in_the_middle_is_seen(band: str, tmp_path: Path) -> None:
    shown = seen(capability_for(band, tmp_path), service_log())
    assert 'ERROR payments-7 charge failed: card processor returned 502' in shown


def test_the_marker_still_states_cut_kept_and_total_and_how_to_get_more() -> None:
    log = pytest_log()
    result = cut_text(log, 2_000, TruncationStrategy.salient)
    assert len(result.text) <= 2_000
    match = re.match(
        r'\[… truncated by line class: ([\d,]+) of ([\d,]+) chars cut in ([\d,]+) places?, kept ([\d,]+) chars',
        result.text,
    )
    assert match
    cut, total, _, kept = (int(group.replace(',', '')) for group in match.groups())
    assert total == len(log)
    assert cut + kept == total
    assert 'call the tool again with a narrower request' in result.text
    assert '[… ' in result.text.split('\n', 1)[1]  # the gaps are marked where they are


def test_position_only_previews_stay_available(tmp_path: Path) -> None:
    log = service_log()
    positional = Spill(preview=TruncationStrategy.head_tail, then=Truncate())
    capability = ToolOutputLimits(bands=[Band(over=10_000, action=positional)], store=LocalFileStore(base_dir=tmp_path))
    shown = seen(capability, log)
    assert 'Preview (first' in shown
    assert 'ERROR payments-7' not in shown  # by position, the middle is not shown
