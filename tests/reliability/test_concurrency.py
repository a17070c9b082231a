"""200 runs of one agent at once on one store: no handle collisions, every spill readable, reminders per run (issue 8).

Every run makes the same tool calls with the same tool call ids (`dump-a`, `dump-b`), as a scripted
provider would, so only the run id keeps their spills apart (TOL-14). The model waits until every run
has made its first request before answering any, so the runs really overlap: on the local store 400
spills, 400 read-backs and 800 reminder decisions interleave on one event loop, one store and one
capability instance of each kind (REM-7: per-run state through `for_run`). The same runs go to an S3
store (moto's server): 200 in `make reliability`, 40 in `make test`.
"""

from __future__ import annotations

import asyncio
import os
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from observable_harness import SystemReminders, ToolOutputLimits
from observable_harness.system_reminders import Reminder
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import LocalFileStore, ObjectStore, OverflowStore
from tests.agents import handle_in, text_of, tool_returns
from tests.otel import OTelHarness
from tests.s3_server import BUCKET, MotoServer
from tests.system_reminders.helpers import tail_text

RUNS = 200
OBJECT_STORE_RUNS = RUNS if os.environ.get('HYPOTHESIS_PROFILE') == 'thorough' else 40
"""S3 costs ~6 ms of client CPU per request on top of the runs: `make test` runs 40 of them, `make reliability` 200."""
STATIC = 'Every second request: keep the answer short.'
LINES_PER_PAYLOAD = 300


def payload(prompt: str, part: str) -> str:
    """What `dump` returns for one run and part: 15 KB (over the default 10,000-char band), unique per run."""
    return ''.join(f'{prompt} part {part} line {i:04d} ' + 'x' * 24 + '\n' for i in range(LINES_PER_PAYLOAD))


def rows_of(page: str) -> str:
    """The text a one-page read shows: its rows, each a whole line here."""
    return ''.join(line.split('\t', 1)[1] + '\n' for line in page.split('\n') if re.match(r'\d+\t', line))


def prompt_of(messages: list[ModelMessage]) -> str:
    first = messages[0]
    assert isinstance(first, ModelRequest)
    # The first user prompt part is the run's prompt (a reminder tail may follow it on the first request).
    prompt = next(p.content for p in first.parts if isinstance(p, UserPromptPart))
    assert isinstance(prompt, str)
    return prompt


@dataclass
class ManyRuns:
    """The model of every run: its answers depend on the run's prompt, and it holds all runs at the first request."""

    runs: int
    received: dict[str, list[list[ModelMessage]]] = field(default_factory=dict[str, list[list[ModelMessage]]])
    _all_started: asyncio.Event = field(default_factory=asyncio.Event)

    async def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        prompt = prompt_of(messages)
        mine = self.received.setdefault(prompt, [])
        mine.append(list(messages))
        step = len(mine)
        if step == 1:
            if len(self.received) == self.runs:
                self._all_started.set()
            await asyncio.wait_for(self._all_started.wait(), timeout=60)
            return ModelResponse(
                parts=[
                    ToolCallPart('dump', {'part': 'a'}, tool_call_id='dump-a'),
                    ToolCallPart('dump', {'part': 'b'}, tool_call_id='dump-b'),
                ]
            )
        await asyncio.sleep(0)
        if step == 2:
            handles = [handle_in(text_of(r)) for r in tool_returns(messages, 'dump')]
            assert len(handles) == 2
            return ModelResponse(
                parts=[
                    ToolCallPart('read_tool_result', {'handle': handles[0], 'limit': 500}, 'read-a'),
                    ToolCallPart('read_tool_result', {'handle': handles[1], 'limit': 500}, 'read-b'),
                ]
            )
        if step == 3:
            return ModelResponse(parts=[ToolCallPart('noop', {}, tool_call_id='noop')])
        return ModelResponse(parts=[TextPart(f'done {prompt}')])


def whose(ctx: RunContext[Any]) -> str:
    return f'run {ctx.prompt} on step {ctx.run_step}'


def build_agent(model: ManyRuns, store: OverflowStore) -> Agent[None, str]:
    agent = Agent(
        FunctionModel(model),
        capabilities=[
            ToolOutputLimits(store=store),
            SystemReminders(reminders=[Reminder(STATIC, interval=2, name='every-second')], dynamic_reminders=[whose]),
        ],
    )

    @agent.tool
    async def dump(ctx: RunContext[Any], part: str) -> str:
        await asyncio.sleep(0)
        assert isinstance(ctx.prompt, str)
        return payload(ctx.prompt, part)

    @agent.tool_plain
    def noop() -> str:
        return 'ok'

    return agent


async def run_all(store: OverflowStore, otel: OTelHarness, runs: int = RUNS) -> None:
    model = ManyRuns(runs)
    agent = build_agent(model, store)
    prompts = [f'run-{i:03d}' for i in range(runs)]
    results = await asyncio.gather(*(agent.run(prompt) for prompt in prompts))

    handles: dict[str, str] = {}
    for prompt, result in zip(prompts, results, strict=True):
        assert result.output == f'done {prompt}'
        history = result.all_messages()
        # No handle collisions: each run's two spills have handles of their own.
        for part in tool_returns(history, 'dump'):
            handle = handle_in(text_of(part))
            which = 'a' if part.tool_call_id == 'dump-a' else 'b'
            assert handles.setdefault(handle, f'{prompt}/{which}') == f'{prompt}/{which}'
        # Every spill read back, in one page, as exactly that run's payload.
        pages = [text_of(p) for p in tool_returns(history, 'read_tool_result')]
        assert [rows_of(page) for page in pages] == [payload(prompt, 'a'), payload(prompt, 'b')]
        # Reminder cadence per run: the static one on this run's requests 2 and 4, the dynamic one on every
        # request, always naming this run and its own step.
        sent = [tail_text(request, history) for request in model.received[prompt]]
        assert len(sent) == 4
        for step, text in enumerate(sent, start=1):
            assert text is not None
            assert (STATIC in text) == (step in (2, 4)), (prompt, step, text)
            assert re.findall(r'run-\d{3}', text) == [prompt]
            assert f'run {prompt} on step {step}' in text
        assert STATIC not in str(history)
    assert len(handles) == 2 * runs

    reduce_spans = otel.spans(names.SPAN_REDUCE)
    assert len(reduce_spans) == 2 * runs
    assert {str((s.attributes or {})[names.TOOL_OUTPUT_HANDLE]) for s in reduce_spans} == set(handles)
    assert otel.delta(names.READS.name, outcome='hit') == 2 * runs
    assert otel.delta(names.SPILL_FAILURES.name) == 0
    assert otel.delta(names.REMINDERS_FIRED.name, reminder='every-second') == 2 * runs
    assert otel.delta(names.REMINDERS_FIRED.name, reminder='whose') == 4 * runs
    assert len(otel.spans(names.SPAN_REMINDERS_INJECT)) == 4 * runs


@pytest.mark.anyio
async def test_200_concurrent_runs_on_one_local_store(tmp_path: Path, otel: OTelHarness) -> None:
    store = LocalFileStore(base_dir=tmp_path / 'store')
    await run_all(store, otel)
    assert len([p for p in (tmp_path / 'store').rglob('*') if p.is_file()]) == 2 * RUNS


@pytest.mark.anyio
async def test_concurrent_runs_on_one_object_store(otel: OTelHarness) -> None:
    """The same runs against a real S3 API (moto's server on loopback, through s3fs and botocore): 200 of them
    in `make reliability`, 40 in `make test`."""
    moto = MotoServer.start()
    try:
        store = ObjectStore(f's3://{BUCKET}/concurrency-{uuid.uuid4().hex}', storage_options=moto.options())
        await run_all(store, otel, OBJECT_STORE_RUNS)
        listing = store._fs.find(store.prefix, withdirs=False, detail=True)
        assert len(listing) == 2 * OBJECT_STORE_RUNS
    finally:
        moto.server.stop()
