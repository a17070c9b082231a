"""A child process for the exporter faults: `telemetry.configure()`, then real agent runs that spill, read and remind.

OpenTelemetry's providers can be installed once per process, so each configuration gets its own process.
It prints `READY {json}` once the runs are done (how many completed as expected, the metrics URL), serves
until SIGTERM with `--serve`, then shuts telemetry down and prints `DONE {json}`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Sequence

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from observable_harness import SystemReminders, ToolOutputLimits
from observable_harness.system_reminders import GoalReanchor
from observable_harness.tool_output_limits import LocalFileStore
from tests.agents import handle_in, text_of, tool_returns

LINES = 600


def log_of(run: int) -> str:
    return ''.join(f'run {run} line {i:04d} ok\n' for i in range(LINES))


def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    requests = len([m for m in messages if not isinstance(m, ModelResponse)])
    if requests == 1:
        return ModelResponse(parts=[ToolCallPart('fetch_logs', {}, tool_call_id='fetch')])
    if requests == 2:
        [stand_in] = tool_returns(messages, 'fetch_logs')
        args = {'handle': handle_in(text_of(stand_in)), 'from_end': True, 'limit': 1}
        return ModelResponse(parts=[ToolCallPart('read_tool_result', args, tool_call_id='read')])
    [page] = tool_returns(messages, 'read_tool_result')
    return ModelResponse(parts=[TextPart(text_of(page))])


async def workload(runs: int, store_dir: str) -> int:
    """Runs that spill a log, read its last line back and get a reminder on every request; how many went right."""
    agent = Agent(
        FunctionModel(respond),
        capabilities=[
            ToolOutputLimits(store=LocalFileStore(base_dir=store_dir)),
            SystemReminders(dynamic_reminders=[GoalReanchor()]),
        ],
    )
    current = {'run': 0}
    agent.tool_plain(name='fetch_logs')(lambda: log_of(current['run']))
    ok = 0
    for run in range(runs):
        current['run'] = run
        result = await agent.run(f'why did run {run} fail?')
        ok += f'{LINES - 1}\trun {run} line {LINES - 1:04d} ok' in result.output
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('--configure', default='{}', help='configure() keyword arguments as JSON')
    parser.add_argument('--runs', type=int, default=20)
    parser.add_argument('--serve', action='store_true')
    args = parser.parse_args(argv)

    from observable_harness.otel_setup import configure

    telemetry = configure(**json.loads(args.configure))
    with tempfile.TemporaryDirectory() as store_dir:
        start = time.perf_counter()
        ok = asyncio.run(workload(args.runs, store_dir))
        seconds = time.perf_counter() - start
    ready = {'metrics_url': telemetry.metrics_url, 'runs': args.runs, 'ok': ok, 'seconds': seconds}
    print('READY', json.dumps(ready), flush=True)
    if args.serve:
        stop = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        stop.wait()
    start = time.perf_counter()
    telemetry.shutdown(timeout=5)
    print('DONE', json.dumps({'shutdown_seconds': time.perf_counter() - start}), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
