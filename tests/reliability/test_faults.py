"""Faults injected under real agent runs: each ends in the documented fallback, the run completes, telemetry says so.

- A disk that fills up part-way through a write (a real 64 KiB tmpfs, and a simulated one where mounting
  is not allowed; the test id says which ran): the spill falls back to truncation (TOL-2, TOL-4), the
  earlier spill still reads back whole, no temporary file is left, and under 40 concurrent spills no
  partial payload is ever served.
- A store root that becomes read-only mid-run: later spills fall back, earlier ones still read.
- An object store (S3 through moto, behind a proxy) that stops answering mid-run, under 10 runs at once:
  spills give up after the store's timeout and truncate, reads tell the model, every run completes.
- A writer killed part-way through a write (by the kernel at a file-size limit, and by SIGKILL at an
  arbitrary moment): a read returns the previous payload whole, or nothing, never a part.
- A summarizer and a reminder model that time out (a real OpenAI client against a server that accepts
  and never answers, with a 0.5 s timeout in the model settings): Summarize falls back to its `then`
  (TOL-4), LLMReminder to GoalReanchor text (REM-6).
- An OTLP endpoint that refuses connections or never answers: the runs complete as they would with no
  exporter, the local metrics endpoint still has every decision, and the exporter logs each failed export.
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Generator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from openai import AsyncOpenAI
from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.settings import ModelSettings

from observable_harness import SystemReminders, ToolOutputLimits
from observable_harness.system_reminders import LLMReminder
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import Band, LocalFileStore, ObjectStore, Summarize, Truncate, UnknownHandle
from observable_harness.tool_output_limits._read_tool import read_stored
from tests.agents import Script, call, done, handle_in, respond, text_of, tool_returns
from tests.e2e.prometheus import REPO_ROOT, clean_env, serving
from tests.otel import OTelHarness
from tests.otlp_receiver import black_hole, closed_port
from tests.reliability.faults import DISK_KINDS, StallingProxy, files_under, tiny_disk
from tests.s3_server import BUCKET, MotoServer
from tests.system_reminders.helpers import tail_text
from tests.telemetry.test_setup import exposition, value_of, wait_until

KIB = 1024
ROW = re.compile(r'\d+↩?\t(.*)')


def log(name: str, lines: int) -> str:
    return ''.join(f'{name} line {i:05d}: compiling module {i % 37}\n' for i in range(lines))


def rows_of(page: str) -> str:
    """The payload text a one-page read shows (its rows, each a whole line here)."""
    return ''.join(match.group(1) + '\n' for line in page.split('\n') if (match := ROW.fullmatch(line)))


def reduce_span(otel: OTelHarness, tool: str) -> dict[str, Any]:
    [span] = [s for s in otel.spans(names.SPAN_REDUCE) if (s.attributes or {})[names.GEN_AI_TOOL_NAME] == tool]
    return dict(span.attributes or {})


# --- the disk fills up ----------------------------------------------------------------------------


@pytest.mark.parametrize('kind', DISK_KINDS)
def test_a_disk_that_fills_up_mid_write_falls_back_to_truncation(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, otel: OTelHarness
) -> None:
    small, huge = log('small', 300), log('huge', 25_000)  # 13 KB fits the 64 KiB disk; 1.1 MB does not
    with tiny_disk(kind, tmp_path / 'disk', 64 * KIB, monkeypatch) as disk:
        store = LocalFileStore(base_dir=disk.path / 'root')
        script = Script(
            [
                respond(call('small', call_id='small')),
                respond(call('huge', call_id='huge')),
                lambda m: respond(
                    call('read_tool_result', {'handle': handle_in(text_of(tool_returns(m, 'small')[0])), 'limit': 500})
                ),
                done(),
            ]
        )
        agent = Agent(script.model(), capabilities=[ToolOutputLimits(store=store)])
        agent.tool_plain(name='small')(lambda: small)
        agent.tool_plain(name='huge')(lambda: huge)
        result = agent.run_sync('build it')

        assert result.output == 'done'
        history = result.all_messages()
        [huge_return] = [text_of(p) for p in tool_returns(history, 'huge')]
        assert f'of {len(huge):,} chars cut' in huge_return  # the default band's fallback: a salient truncation
        assert len(huge_return) <= 4_000
        [page] = [text_of(p) for p in tool_returns(history, 'read_tool_result')]
        assert rows_of(page) == small  # the spill made before the disk filled reads back whole
        # Nothing half-written is left to be served: one file, the small payload, and no temporary file.
        assert [p.read_bytes() for p in files_under(store.root)] == [small.encode()]
    assert otel.delta(names.SPILL_FAILURES.name, reason='OSError', store='LocalFileStore') == 1
    assert (
        otel.delta(names.FALLBACKS.name, tool='huge', from_action='spill', to_action='truncate', reason='OSError') == 1
    )
    span = reduce_span(otel, 'huge')
    assert span[names.TOOL_OUTPUT_FALLBACK] is True
    assert span[names.TOOL_OUTPUT_FALLBACK_CHAIN] == 'spill>truncate'
    assert span[names.TOOL_OUTPUT_OUTCOME] == 'truncate'


CONCURRENT_SPILLS = 40


@pytest.mark.parametrize('kind', DISK_KINDS)
def test_concurrent_spills_onto_a_filling_disk_never_serve_a_partial_payload(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, otel: OTelHarness
) -> None:
    def step(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = tool_returns(messages)
        if not returns:
            return ModelResponse(parts=[ToolCallPart('dump', {}, tool_call_id='dump')])
        last = text_of(returns[-1])
        if returns[-1].tool_name == 'dump' and 'stored whole' in last:
            return ModelResponse(parts=[ToolCallPart('read_tool_result', {'handle': handle_in(last), 'limit': 500})])
        return ModelResponse(parts=[TextPart('done')])

    with tiny_disk(kind, tmp_path / 'disk', 64 * KIB, monkeypatch) as disk:
        store = LocalFileStore(base_dir=disk.path / 'root')
        agent = Agent(FunctionModel(step), capabilities=[ToolOutputLimits(store=store)])

        @agent.tool
        async def dump(ctx: RunContext[Any]) -> str:
            return log(str(ctx.prompt), 300)

        async def all_runs() -> list[Any]:
            return await asyncio.gather(*(agent.run(f'run-{i:02d}') for i in range(CONCURRENT_SPILLS)))

        results = asyncio.run(all_runs())
        spilled = truncated = 0
        for index, result in enumerate(results):
            assert result.output == 'done'
            payload = log(f'run-{index:02d}', 300)
            [stand_in] = [text_of(p) for p in tool_returns(result.all_messages(), 'dump')]
            if 'stored whole' in stand_in:
                spilled += 1
                [page] = [text_of(p) for p in tool_returns(result.all_messages(), 'read_tool_result')]
                assert rows_of(page) == payload
                assert asyncio.run(store.read(handle_in(stand_in))) == payload.encode()
            else:
                truncated += 1
                assert f'of {len(payload):,} chars cut' in stand_in
        stored = files_under(store.root)
        assert all(not p.name.startswith('.') for p in stored)  # no temporary file left behind
        assert len(stored) == spilled
    print(f'{kind}: {spilled} of {CONCURRENT_SPILLS} spills fit, {truncated} fell back')
    assert spilled >= 1
    assert truncated >= 1, 'the disk never filled: the test did not test anything'
    assert otel.delta(names.SPILL_FAILURES.name, reason='OSError') == truncated


# --- the root becomes read-only ---------------------------------------------------------------------


@pytest.mark.parametrize('kind', DISK_KINDS)
def test_a_root_that_becomes_read_only_mid_run_falls_back_and_still_serves_reads(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, otel: OTelHarness
) -> None:
    first, second = log('first', 400), log('second', 400)
    with tiny_disk(kind, tmp_path / 'disk', 1024 * KIB, monkeypatch) as disk:

        def lock_then_call(messages: list[ModelMessage]) -> ModelResponse:
            disk.make_read_only()  # between two tool calls of the same run
            return respond(call('second', call_id='second'))

        script = Script(
            [
                respond(call('first', call_id='first')),
                lock_then_call,
                lambda m: respond(
                    call('read_tool_result', {'handle': handle_in(text_of(tool_returns(m, 'first')[0])), 'limit': 500})
                ),
                done(),
            ]
        )
        agent = Agent(
            script.model(), capabilities=[ToolOutputLimits(store=LocalFileStore(base_dir=disk.path / 'root'))]
        )
        agent.tool_plain(name='first')(lambda: first)
        agent.tool_plain(name='second')(lambda: second)
        result = agent.run_sync('go')

    assert result.output == 'done'
    history = result.all_messages()
    [second_return] = [text_of(p) for p in tool_returns(history, 'second')]
    assert f'of {len(second):,} chars cut' in second_return
    [page] = [text_of(p) for p in tool_returns(history, 'read_tool_result')]
    assert rows_of(page) == first
    assert otel.delta(names.SPILL_FAILURES.name, reason='OSError') == 1
    assert otel.delta(names.READS.name, outcome='hit') == 1
    assert reduce_span(otel, 'second')[names.TOOL_OUTPUT_FALLBACK_CHAIN] == 'spill>truncate'


# --- a writer killed part-way ----------------------------------------------------------------------------

WRITERS = textwrap.dedent(
    """
    import asyncio, json, os, resource, signal, sys, time
    from observable_harness.tool_output_limits import LocalFileStore

    # One writer process per job, forked from here so the import is paid once. Mode 'limit': the job's
    # number is a file size limit the kernel enforces with SIGXFSZ; mode 'kill': seconds to wait after
    # the first whole write before SIGKILL. Prints the signal that ended each writer.
    root, size, mode, jobs = sys.argv[1], int(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])

    def payload(generation):
        mark = b'<%08d>' % generation
        return mark + bytes([65 + generation % 26]) * (size - 2 * len(mark)) + mark

    # Made up front, so a writer spends its time inside writes, where a kill is worth testing.
    payloads = [payload(0), payload(1)]

    async def write(key, ready):
        generation = 0
        while True:
            await LocalFileStore(base_dir=root).write(key, payloads[generation % 2])
            if generation == 0:
                os.write(ready, b'1')
            generation += 1
            if mode == 'limit':
                return

    ended = []
    for key, number in jobs:
        ready_read, ready_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            if mode == 'limit':
                signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # Python ignores it; restore the kernel's kill
                resource.setrlimit(resource.RLIMIT_FSIZE, (number, resource.RLIM_INFINITY))
            asyncio.run(write(key, ready_write))
            os._exit(0)
        if mode == 'kill':
            os.read(ready_read, 1)
            time.sleep(number)
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        ended.append(os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0)
    print(json.dumps(ended))
    """
)


def run_writers(root: Path, size: int, mode: str, jobs: list[tuple[str, float]]) -> list[int]:
    """The signal that ended each writer (0: it was not killed)."""
    command = [sys.executable, '-c', WRITERS, str(root), str(size), mode, json.dumps(jobs)]
    done = subprocess.run(command, env=clean_env(), cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def whole(data: bytes, size: int) -> bool:
    """A payload of the writers: its length, and the same generation mark at both ends."""
    return len(data) == size and data[:10] == data[-10:] and re.fullmatch(rb'<\d{8}>', data[:10]) is not None


def test_a_writer_stopped_by_the_kernel_mid_write_leaves_the_old_payload_or_nothing(tmp_path: Path) -> None:
    store = LocalFileStore(base_dir=tmp_path / 'root')
    asyncio.run(store.write('run/old.0', b'the previous payload'))
    limit = 100_000  # the kernel stops each writer with SIGXFSZ once its file reaches this size
    ended = run_writers(store.root, 1_000_000, 'limit', [('run/old.0', limit), ('run/new.0', limit)])
    assert ended == [signal.SIGXFSZ, signal.SIGXFSZ]
    leftovers = [p for p in files_under(store.root) if p.name.startswith('.')]
    assert len(leftovers) == 2
    assert all(p.stat().st_size == limit for p in leftovers)  # both writers died part-way through
    assert asyncio.run(store.read('run/old.0')) == b'the previous payload'
    with pytest.raises(UnknownHandle):
        asyncio.run(store.read('run/new.0'))
    assert 'nothing is stored under handle' in asyncio.run(read_stored(store, 'run/new.0'))
    for leftover in leftovers:
        # A temporary file's own name is no handle: its leading dot is sanitized away before any lookup.
        output = asyncio.run(read_stored(store, str(leftover.relative_to(store.root))))
        assert 'nothing is stored under handle' in output


def test_a_writer_killed_at_any_moment_leaves_a_whole_payload(tmp_path: Path) -> None:
    size = 32_000_000
    store = LocalFileStore(base_dir=tmp_path / 'root')
    jobs = [(f'run/busy{i}.0', delay) for i, delay in enumerate((0.0, 0.02, 0.1))]
    assert run_writers(store.root, size, 'kill', jobs) == [signal.SIGKILL] * len(jobs)
    for key, _ in jobs:
        assert whole(asyncio.run(store.read(key)), size)


# --- an object store that stops answering ---------------------------------------------------------------

STALLED_RUNS = 10


def test_an_object_store_that_stops_answering_mid_run_falls_back_and_every_run_completes(otel: OTelHarness) -> None:
    """S3 (moto behind a proxy) stops answering once every run has spilled once: the next spills give up after
    the store's timeout and truncate, reading the first spill back tells the model, and every run completes."""
    moto = MotoServer.start()
    host, port = moto.endpoint.removeprefix('http://').split(':')
    proxy = StallingProxy((host, int(port)))
    all_spilled = asyncio.Event()
    at_step_two: set[str] = set()

    async def step(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = tool_returns(messages)
        prompt = str(messages[0].parts[0].content)  # pyright: ignore[reportAttributeAccessIssue]
        if not returns:
            return ModelResponse(parts=[ToolCallPart('dump', {'part': 'first'}, tool_call_id='first')])
        if len(returns) == 1:
            at_step_two.add(prompt)
            if len(at_step_two) == STALLED_RUNS:
                # Every first spill has landed, however slowly a loaded machine served it; only now does the
                # store get its short timeout, and only now does the proxy stop answering.
                store.timeout = timedelta(seconds=1)
                proxy.stall()
                all_spilled.set()
            await asyncio.wait_for(all_spilled.wait(), timeout=60)
            return ModelResponse(parts=[ToolCallPart('dump', {'part': 'second'}, tool_call_id='second')])
        if len(returns) == 2:
            handle = handle_in(text_of(returns[0]))
            return ModelResponse(parts=[ToolCallPart('read_tool_result', {'handle': handle}, tool_call_id='read')])
        return ModelResponse(parts=[TextPart('done')])

    try:
        options = {**moto.options(), 'endpoint_url': proxy.endpoint}
        url = f's3://{BUCKET}/stalling-{uuid.uuid4().hex}'
        store = ObjectStore(url, storage_options=options, timeout=timedelta(seconds=60))
        agent = Agent(FunctionModel(step), capabilities=[ToolOutputLimits(store=store)])

        @agent.tool
        async def dump(ctx: RunContext[Any], part: str) -> str:
            return log(f'{ctx.prompt} {part}', 400)

        async def all_runs() -> list[Any]:
            return await asyncio.gather(*(agent.run(f'run-{i}') for i in range(STALLED_RUNS)))

        results = asyncio.run(all_runs())
    finally:
        proxy.close()  # the abandoned requests now fail on their own threads
        moto.server.stop()

    assert proxy.requests_after_stall > 0  # the store did try, and got no answer
    for index, result in enumerate(results):
        assert result.output == 'done'
        history = result.all_messages()
        first, second = (text_of(p) for p in tool_returns(history, 'dump'))
        assert 'stored whole' in first
        second_log = log(f'run-{index} second', 400)
        assert f'of {len(second_log):,} chars cut' in second
        [reply] = [text_of(p) for p in tool_returns(history, 'read_tool_result')]
        assert 'could not read handle' in reply and '(TimeoutError)' in reply
    assert otel.delta(names.SPILL_FAILURES.name, store='ObjectStore', reason='TimeoutError') == STALLED_RUNS
    assert otel.delta(names.FALLBACKS.name, from_action='spill', to_action='truncate', reason='TimeoutError') == (
        STALLED_RUNS
    )
    assert otel.delta(names.READS.name, outcome='miss') == STALLED_RUNS


# --- models that time out -----------------------------------------------------------------------------


@contextmanager
def model_that_never_answers() -> Generator[tuple[OpenAIChatModel, list[float]]]:
    """A real OpenAI chat model whose server accepts the connection and never answers; 0.5 s timeout, no retries."""
    with black_hole() as (url, accepted):
        client = AsyncOpenAI(base_url=f'{url}/v1', api_key='test-key', max_retries=0)
        provider = OpenAIProvider(openai_client=client)
        yield OpenAIChatModel('gpt-4o-mini', provider=provider, settings=ModelSettings(timeout=0.5)), accepted


def test_a_summarizer_that_times_out_falls_back_to_truncation(otel: OTelHarness) -> None:
    output = log('build', 1_000)
    with model_that_never_answers() as (slow, accepted):
        band = Band(over=5_000, action=Summarize(model=slow, then=Truncate(max_chars=2_000)))
        script = Script([respond(call('build', call_id='build')), done()])
        agent = Agent(script.model(), capabilities=[ToolOutputLimits(bands=[band])])
        agent.tool_plain(name='build')(lambda: output)
        result = agent.run_sync('build it')
    assert accepted, 'the summary request never reached the server'
    assert result.output == 'done'
    [returned] = [text_of(p) for p in tool_returns(result.all_messages(), 'build')]
    assert len(returned) <= 2_000
    assert f'of {len(output):,} chars cut' in returned
    span = reduce_span(otel, 'build')
    assert span[names.TOOL_OUTPUT_FALLBACK_CHAIN] == 'summarize>truncate'
    assert span[names.TOOL_OUTPUT_FALLBACK_REASON] == 'ModelTimeoutError'
    assert (
        otel.delta(names.FALLBACKS.name, from_action='summarize', to_action='truncate', reason='ModelTimeoutError') == 1
    )
    assert len(otel.spans(names.SPAN_SUMMARIZE)) == 1


def test_a_reminder_model_that_times_out_falls_back_to_the_goal(
    otel: OTelHarness, caplog: pytest.LogCaptureFixture
) -> None:
    with model_that_never_answers() as (slow, accepted):
        reminders = SystemReminders(dynamic_reminders=[LLMReminder(slow, model_settings=ModelSettings(timeout=0.5))])
        script = Script([respond(call('lookup', call_id='lookup')), done()])
        agent = Agent(script.model(), capabilities=[reminders])
        agent.tool_plain(name='lookup')(lambda: 'found it')
        result = agent.run_sync('Find the failing test.')
    assert len(accepted) == 2  # one reminder request per model request, each given up after its timeout
    assert result.output == 'done'
    history = result.all_messages()
    for sent in script.received:
        text = tail_text(sent, history)
        assert text is not None
        assert 'Find the failing test.' in text  # GoalReanchor's text restates the goal
    generated = otel.spans(names.SPAN_REMINDERS_GENERATE)
    assert [(s.attributes or {})[names.SYSTEM_REMINDERS_FALLBACK] for s in generated] == [True, True]
    assert (generated[0].attributes or {})[names.SYSTEM_REMINDERS_FALLBACK_REASON] == 'ModelTimeoutError'
    assert otel.delta(names.REMINDERS_GENERATE_FALLBACKS.name, reason='ModelTimeoutError') == 2
    assert len([r for r in caplog.records if 'fell back to GoalReanchor' in r.getMessage()]) == 1


# --- an OTLP endpoint that is down or hangs ---------------------------------------------------------------

RUNS = 20


@pytest.mark.parametrize('endpoint', ['refused', 'never_answers'])
def test_an_otlp_endpoint_that_is_down_or_hangs_fails_no_run(endpoint: str) -> None:
    with dead_endpoint(endpoint) as (url, accepted):
        configure = {'metrics_port': 0, 'otlp_endpoint': url, 'export_timeout': 0.5, 'metric_export_interval': 0.5}
        command = [sys.executable, '-m', 'tests.reliability.agent_child', '--configure', json.dumps(configure)]
        with serving([*command, '--runs', str(RUNS), '--serve']) as child:
            assert child.ready['ok'] == RUNS  # every run spilled, read its last line back and answered with it
            if accepted is not None:
                wait_until(lambda: bool(accepted), 'the exporter never tried the endpoint')
            # Everything was still recorded: the local endpoint has each decision, read and reminder.
            samples = exposition(child.ready['metrics_url'])
            decisions = samples[names.DECISIONS.exposed]
            assert value_of(decisions, tool='fetch_logs', action='spill', outcome='spill', fallback='false') == RUNS
            assert value_of(samples[names.READS.exposed], outcome='hit') == RUNS
            assert value_of(samples[names.REMINDERS_FIRED.exposed], reminder='GoalReanchor') == 3 * RUNS
            wait_until(lambda: 'Failed to export' in child.output(), 'the failed export was never logged')
        assert child.process.returncode == 0, child.output()
        assert 'DONE' in child.output()


@contextmanager
def dead_endpoint(endpoint: str) -> Generator[tuple[str, list[float] | None]]:
    if endpoint == 'refused':
        yield f'http://127.0.0.1:{closed_port()}', None
        return
    with black_hole() as (url, accepted):
        yield url, accepted
