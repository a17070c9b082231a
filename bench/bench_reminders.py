"""Per-request cost of SystemReminders with 10 static and 2 dynamic reminders: ours (telemetry off and on) against
pydantic-ai-harness's SystemReminders configured the same way.

Run with the bench interpreter: `bash bench/setup_env.sh` then `bench/.venv/bin/python bench/bench_reminders.py`.

Method: full `Agent` runs with a `FunctionModel` (19 tool calls, each returning ~600 characters, then a final answer:
20 model requests per run), one agent per variant. The same runs without any capability are timed too and their
cost subtracted, so what is reported is what the capability adds per model request, everything it causes inside
pydantic-ai included. (Driving the hooks by hand is not an option: the anchor delivers its reminders through the
run's message queue, which only a real run has.)

Rounds are interleaved (order shuffled each round) so drift on a shared machine hits every variant alike; reported is
the median over rounds of the mean CPU microseconds per request. "Telemetry on" is the OpenTelemetry SDK with an
in-memory span exporter and metric reader, installed for the second phase (a global provider cannot be removed, so
the phases cannot interleave with each other; the anchor and the baseline are re-measured in each phase and each
ratio is taken within its phase). pydantic-ai's own instrumentation stays off in both phases.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from pydantic_ai import Agent, RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

import observable_harness.system_reminders as ours

try:
    import pydantic_ai_harness.system_reminders as anchor
except ImportError:  # pragma: no cover - the anchor is installed only in bench/.venv
    anchor = None

REQUESTS_PER_RUN = 20
PROMPT = 'Refactor the auth module so sessions expire after 30 minutes, and add tests for the expiry path.'
EVERY_REQUEST = 'Stay focused on the original request.'
TOOL_RESULT = 'auth/session.py:42: def refresh(self, token: str) -> Session:  # checks expiry, rotates the id\n' * 6


# --- The workload -------------------------------------------------------------------------------


def configure(module: Any) -> Any:
    """10 static reminders on assorted cadences and 2 dynamic ones (sync and async), identical for both libraries.

    Only the cache TTL differs: the anchor deprecated and ignores `cache_ttl` (it leaves the breakpoint to the model's
    own caching settings), so it is passed to ours alone; ours places the `CachePoint` itself.
    """
    reminder = module.Reminder

    def late(ctx: RunContext[Any]) -> bool:
        return ctx.run_step > 6

    static = [
        reminder(EVERY_REQUEST, interval=1, tag='system-reminder'),
        reminder('Run the tests before you claim a fix works.', interval=2, tag='system-reminder'),
        reminder('Quote file paths exactly as the tools print them.', interval=3, tag='system-reminder'),
        reminder('Prefer small, reviewable edits.', interval=4, first_after=1, tag='system-reminder'),
        reminder('Do not touch files outside auth/.', interval=5, tag='system-reminder'),
        reminder('Keep public function signatures stable.', interval=2, first_after=3, tag='system-reminder'),
        reminder('Explain why, not what, in comments.', interval=6, tag='system-reminder'),
        reminder('Read before you write.', interval=1, max_fires=5, tag='system-reminder'),
        reminder('Check the budget.', interval=3, trigger=late, tag='system-reminder'),
        reminder('Summarise progress every ten steps.', interval=10, tag=None),
    ]

    def budget(ctx: RunContext[Any]) -> str | None:
        return f'{ctx.run_step} of 40 steps used.' if ctx.run_step % 3 == 0 else None

    async def mode(ctx: RunContext[Any]) -> str | None:
        return 'Mode: implementation. Tests come after the change compiles.'

    extra = {'cache_ttl': '1h'} if module is ours else {}
    return module.SystemReminders(reminders=static, dynamic_reminders=[budget, mode], **extra)


class Script:
    """The model: a tool call per request until the run has made `REQUESTS_PER_RUN - 1`, then an answer."""

    def __init__(self) -> None:
        self.last_requests: list[str] = []
        self.record = False

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if self.record:
            self.last_requests.append(str(messages[-1]))
        calls = sum(1 for message in messages if isinstance(message, ModelResponse))
        if calls < REQUESTS_PER_RUN - 1:
            return ModelResponse(parts=[ToolCallPart('grep', {'pattern': f'session_{calls}', 'path': 'auth/'})])
        return ModelResponse(parts=[TextPart('Sessions now expire after 30 minutes; tests added.')])


def make_agent(capability: AbstractCapability[Any] | None, script: Script) -> Agent[None, str]:
    agent = Agent(FunctionModel(script), capabilities=[capability] if capability is not None else [])

    @agent.tool_plain
    def grep(pattern: str, path: str) -> str:
        return TOOL_RESULT

    return agent


# --- Timing -------------------------------------------------------------------------------------


async def time_run(agent: Agent[None, str]) -> float:
    # CPU time of this process: the runs are single-threaded and never wait on I/O, and unlike wall time it is not
    # inflated by whatever else the (shared) machine is running.
    start = time.process_time_ns()
    result = await agent.run(PROMPT)
    elapsed = time.process_time_ns() - start
    assert sum(isinstance(message, ModelResponse) for message in result.all_messages()) == REQUESTS_PER_RUN
    return elapsed / 1_000 / REQUESTS_PER_RUN


async def measure(
    agents: dict[str, Agent[None, str]],
    rounds: int,
    runs_per_round: int,
    between_rounds: Callable[[], None] = lambda: None,
) -> dict[str, float]:
    for agent in agents.values():  # warm-up: imports, caches, first-call costs
        for _ in range(3):
            await time_run(agent)
    samples: dict[str, list[float]] = {name: [] for name in agents}
    order = list(agents)
    for _ in range(rounds):
        random.shuffle(order)
        for name in order:
            gc.collect()
            per_request = [await time_run(agents[name]) for _ in range(runs_per_round)]
            samples[name].append(statistics.fmean(per_request))
        between_rounds()
    return {name: statistics.median(values) for name, values in samples.items()}


# --- Report -------------------------------------------------------------------------------------


def install_sdk() -> tuple[InMemorySpanExporter, InMemoryMetricReader]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    reader = InMemoryMetricReader()
    metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
    return exporter, reader


def report(phase: str, medians: dict[str, float]) -> float:
    baseline = medians['baseline']
    anchor_cost = medians['anchor'] - baseline
    ours_cost = medians['ours'] - baseline
    ratio = ours_cost / anchor_cost
    print(f'{phase}')
    print(f'  agent run without a capability  {baseline:8.1f} us/request (subtracted below)')
    print(f'  pydantic-ai-harness (anchor)    {anchor_cost:8.1f} us/request')
    print(f'  observable-harness (ours)       {ours_cost:8.1f} us/request')
    print(f'  ours/anchor                     {ratio:8.2f}x')
    return ratio


def check_same_behaviour() -> None:
    """Both libraries must actually be sending reminders in this workload, or the comparison means nothing."""
    for name, module in (('ours', ours), ('anchor', anchor)):
        script = Script()
        script.record = True
        asyncio.run(make_agent(configure(module), script).run(PROMPT))
        carried = sum(EVERY_REQUEST in text for text in script.last_requests)
        assert carried == REQUESTS_PER_RUN, f'{name} sent the every-request reminder on {carried} requests'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--rounds', type=int, default=10)
    parser.add_argument('--runs-per-round', type=int, default=10)
    args = parser.parse_args()
    if anchor is None:
        raise SystemExit(
            'pydantic-ai-harness is not installed: run with bench/.venv/bin/python (bash bench/setup_env.sh).'
        )
    import pydantic_ai

    check_same_behaviour()
    print(
        f'SystemReminders, 10 static + 2 dynamic reminders, {REQUESTS_PER_RUN}-request runs; '
        f'pydantic-ai-slim {pydantic_ai.__version__}'
    )
    print('method: full Agent runs with FunctionModel, a no-capability baseline run subtracted (see module docstring);')
    print(f'process CPU time, median of {args.rounds} interleaved rounds x {args.runs_per_round} runs')
    print()
    agents = {
        'baseline': make_agent(None, Script()),
        'anchor': make_agent(configure(anchor), Script()),
        'ours': make_agent(configure(ours), Script()),
    }
    off = report(
        'telemetry off (no OpenTelemetry SDK installed)',
        asyncio.run(measure(agents, args.rounds, args.runs_per_round)),
    )
    exporter, reader = install_sdk()
    exported = {'spans': 0}

    def collect() -> None:  # outside the timed loop, as a background reader would
        reader.get_metrics_data()
        exported['spans'] += len(exporter.get_finished_spans())
        exporter.clear()

    on = report(
        'telemetry on (SDK: in-memory span exporter + metric reader)',
        asyncio.run(measure(agents, args.rounds, args.runs_per_round, collect)),
    )
    print()
    print(f'ratio ours/anchor: {off:.2f}x telemetry off, {on:.2f}x telemetry on')
    print(f'(telemetry phase exported {exported["spans"]:,} system_reminders spans, one per request of ours)')


if __name__ == '__main__':
    main()
