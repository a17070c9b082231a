"""A spill scrubs, hashes and writes on a worker thread while the event loop builds the stand-in.

Real agent runs: the payload reaches the store scrubbed, the stand-in is the one `render_stand_in`
makes, telemetry counts what it always counted, and a write that fails on the worker thread still
hands the unit to the spill's `then`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import BinaryContent
from tests.agents import Script, call, done, handle_in, respond, text_of, tool_returns
from tests.otel import OTelHarness

from observable_harness import ToolOutputLimits
from observable_harness._text import preview as preview_module
from observable_harness._text.hashing import content_hash
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import Band, LocalFileStore, Spill, Truncate
from observable_harness.tool_output_limits import _capability as capability_module
from observable_harness.tool_output_limits import _spill as spill_module
from observable_harness.tool_output_limits._payload import Measurer
from observable_harness.tool_output_limits._spill import render_stand_in

TOKEN = 'ghp_' + 'Zq8rT2vLm4Kx9Wd1Np7Yc3Bh6Fs0Ju5Ea2Gk'
PAYLOAD = (
    '\n'.join(f'2026-11-29T10:00:{i % 60:02d} INFO worker-{i % 7} processed batch {i}' for i in range(3_000))
    + f'\nERROR: deploy failed for caf\u00e9 (token={TOKEN})\nexport DB_PASSWORD=hunter2-prod\nexit status 1\n'
)


def _agent(limits: ToolOutputLimits[Any], loop_threads: list[int], value: Any = PAYLOAD) -> Agent[None, str]:
    script = Script([respond(call('deploy')), done()])
    agent: Agent[None, str] = Agent(script.model(), capabilities=[limits])

    @agent.tool_plain(name='deploy')
    async def deploy() -> Any:
        loop_threads.append(threading.get_ident())  # an async tool runs on the event loop's thread
        return value

    return agent


def test_the_default_store_is_written_scrubbed_from_a_worker_thread(
    tmp_path: Path, otel: OTelHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = LocalFileStore(base_dir=tmp_path)
    writers: list[int] = []
    write_file = store._write_file

    def recorded(segments: list[str], data: bytes, opened: Callable[[], None] | None = None) -> None:
        writers.append(threading.get_ident())
        write_file(segments, data, opened)

    monkeypatch.setattr(store, '_write_file', recorded)
    loop_threads: list[int] = []
    result = _agent(ToolOutputLimits(store=store), loop_threads).run_sync('go')

    [stand_in] = [text_of(part) for part in tool_returns(result.all_messages(), 'deploy')]
    handle = handle_in(stand_in)
    stored = (tmp_path / handle).read_bytes()
    assert TOKEN.encode() not in stored and b'hunter2-prod' not in stored
    assert b'DB_PASSWORD=[REDACTED:assignment]' in stored and 'caf\u00e9'.encode() in stored
    assert writers and loop_threads and set(writers).isdisjoint(loop_threads)

    # The stand-in is exactly what `render_stand_in` makes of the unit, though its parts were built apart.
    unit = Measurer(serializer=None, over_tokens=False, tokenizer=None, strip_ansi=False).unit(
        PAYLOAD, tool_name='deploy', tool_call_id='x', part='return_value', key='k'
    )
    assert stand_in == render_stand_in(unit, handle, preview_chars=1_000, read_tool_name='read_tool_result').text
    assert 'ERROR: deploy failed' in stand_in  # the class-aware preview, built on the loop

    # Telemetry as before: redactions by kind, the bytes that were written, the hash of what the tool returned.
    assert otel.delta(names.BOUNDED_REDACTIONS_TOTAL.name) == 2
    assert otel.delta(names.SPILL_BYTES.name, tool='deploy', store='LocalFileStore') == len(stored)
    [span] = otel.spans(names.SPAN_REDUCE)
    attributes = dict(span.attributes or {})
    assert attributes[names.TOOL_OUTPUT_CONTENT_HASH] == content_hash(PAYLOAD)
    assert attributes[names.TOOL_OUTPUT_HANDLE] == handle
    assert attributes[names.BOUNDED_REDACTIONS] == 2


def test_a_write_that_fails_on_the_worker_thread_hands_over_to_then(tmp_path: Path, otel: OTelHarness) -> None:
    root = tmp_path / 'root'
    limits = ToolOutputLimits(
        bands=[Band(over=10_000, action=Spill(then=Truncate(max_chars=2_000)))],
        store=LocalFileStore(base_dir=root),
    )
    root.write_text('a file appeared where the store root was to be created')
    result = _agent(limits, []).run_sync('go')
    [out] = [text_of(part) for part in tool_returns(result.all_messages(), 'deploy')]
    assert result.output == 'done'
    assert 'stored whole' not in out and len(out) <= 2_000
    assert otel.delta(names.SPILL_FAILURES.name, reason='UnsafeStoreRoot', store='LocalFileStore') == 1
    [span] = otel.spans(names.SPAN_REDUCE)
    attributes = dict(span.attributes or {})
    assert attributes[names.TOOL_OUTPUT_OUTCOME] == 'truncate'
    assert attributes[names.TOOL_OUTPUT_FALLBACK_REASON] == 'UnsafeStoreRoot'


class CountingStore(LocalFileStore):
    """A store that overrides `write`: it must be written through it, never behind its back."""

    writes = 0

    async def write(self, key: str, data: bytes) -> str:
        type(self).writes += 1
        return await super().write(key, data)


def test_a_store_that_overrides_write_is_written_through_its_own_write(tmp_path: Path) -> None:
    store = CountingStore(base_dir=tmp_path)
    result = _agent(ToolOutputLimits(store=store), []).run_sync('go')
    [stand_in] = [text_of(part) for part in tool_returns(result.all_messages(), 'deploy')]
    assert CountingStore.writes == 1
    assert b'[REDACTED:' in (tmp_path / handle_in(stand_in)).read_bytes()


def test_binary_output_is_scrubbed_before_it_is_stored(tmp_path: Path) -> None:
    data = b'\x89PNG\r\n\x1a\n' + b'\x00' * 20_000 + f' password={TOKEN} '.encode() + b'\xff\xfe'
    result = _agent(
        ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path)),
        [],
        value=BinaryContent(data=data, media_type='application/octet-stream'),
    ).run_sync('go')
    [stand_in] = [text_of(part) for part in tool_returns(result.all_messages(), 'deploy')]
    stored = (tmp_path / handle_in(stand_in)).read_bytes()
    assert stand_in.startswith('[Binary output of deploy')
    assert TOKEN.encode() not in stored and stored.startswith(b'\x89PNG\r\n\x1a\n') and stored.endswith(b'\xff\xfe')


def test_the_worker_scans_and_writes_while_the_loop_chooses_and_renders_the_preview(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The loop's thread holds the GIL while it builds the preview; without being handed it, the worker would
    # begin its write only once the preview is done. Generous waits make the order certain on a slow machine.
    monkeypatch.setattr(capability_module, 'HANDOVER_WAIT', 30.0)
    events: list[str] = []
    store = LocalFileStore(base_dir=tmp_path)
    write_file = store._write_file

    def recorded(segments: list[str], data: bytes, opened: Callable[[], None] | None = None) -> None:
        def marked() -> None:
            events.append('write begins')
            if opened is not None:
                opened()

        write_file(segments, data, marked)

    render = preview_module._render

    def rendered(view: Any, kept: Any) -> Any:
        events.append('render begins')
        return render(view, kept)

    monkeypatch.setattr(store, '_write_file', recorded)
    monkeypatch.setattr(preview_module, '_render', rendered)
    result = _agent(ToolOutputLimits(store=store), []).run_sync('go')

    assert events == ['write begins', 'render begins']
    [stand_in] = [text_of(part) for part in tool_returns(result.all_messages(), 'deploy')]
    assert (tmp_path / handle_in(stand_in)).read_bytes().endswith(b'exit status 1\n')


def test_a_worker_that_does_not_come_is_waited_for_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A job the pool has not started yet (its threads all busy): the loop's thread stops waiting after one wait.
    monkeypatch.setattr(capability_module, 'HANDOVER_WAIT', 0.001)
    unit = Measurer(serializer=None, over_tokens=False, tokenizer=None, strip_ansi=False).unit(
        PAYLOAD, tool_name='deploy', tool_call_id='x', part='return_value', key='k'
    )
    job = capability_module._SpillJob(unit, None, LocalFileStore())
    waits: list[float] = []
    for stage in job._stages:
        real_wait = stage.wait

        def counted(timeout: float | None = None, real_wait: Callable[[float | None], bool] = real_wait) -> bool:
            waits.append(timeout or 0.0)
            return real_wait(timeout)

        monkeypatch.setattr(stage, 'wait', counted)
    job.hand_over()
    job.hand_over()
    job.hand_over()
    assert waits == [0.001]


def test_a_fault_in_choosing_the_preview_keeps_the_spill_and_shows_the_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise IndexError('a bug in a shape rule')

    monkeypatch.setattr(preview_module, 'select_preview', broken)
    monkeypatch.setattr(spill_module, '_warned', set[str]())  # warned once per process: not by an earlier test
    store = LocalFileStore(base_dir=tmp_path)
    with caplog.at_level('WARNING', logger='observable_harness'):
        result = _agent(ToolOutputLimits(store=store), []).run_sync('go')
    [stand_in] = [text_of(part) for part in tool_returns(result.all_messages(), 'deploy')]
    handle = handle_in(stand_in)  # stored, and the model can read it back: not a cut of it
    assert (tmp_path / handle).read_bytes().endswith(b'exit status 1\n')
    assert 'Preview (first ' in stand_in and PAYLOAD.splitlines()[0] in stand_in and 'exit status 1' in stand_in
    [warning] = [record.getMessage() for record in caplog.records if 'preview failed' in record.getMessage()]
    assert 'IndexError' in warning and 'a bug in a shape rule' not in warning
