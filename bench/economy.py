"""Context economy of a scripted 30-step agent run over real command output.

Run with the bench interpreter: `bash bench/setup_env.sh` then `bench/.venv/bin/python bench/economy.py`.

Each of 30 steps calls a tool that returns a real command's output (`tests/data/traffic/`: pytest,
gcc, pip, find, dpkg) or one of ours (a service log whose one error sits mid-file, this Python's
stdlib as JSON records). Every tool return stays in history and rides every later request, so the
run's total input is the c·N(N+1)/2 sum. For each configuration — no capability, ours at defaults,
pydantic-ai-harness at defaults (local store) — it prints:

- the total characters sent to the model over the run (every request's messages, as the model saw them);
- the share of key facts (failing test names, the compiler's first error, exit status, final summary
  lines, the mid-log error) visible in what the model saw, without reading back;
- whether every stored payload reads back whole through the run's `read_tool_result`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import UsageLimits

import observable_harness.tool_output_limits as ours

try:
    import pydantic_ai_harness.tool_output_limits as anchor
except ImportError:  # pragma: no cover - installed only in bench/.venv
    anchor = None

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.traffic import traffic_dir  # noqa: E402 - the repository's committed captures, from any checkout

TRAFFIC = traffic_dir()
STEPS = 30


@dataclass(frozen=True)
class Output:
    name: str
    text: str
    facts: tuple[str, ...]
    """Strings the model needs to see to act without reading back."""


def _last_nonblank(text: str) -> str:
    return next(line for line in reversed(text.splitlines()) if line.strip())


def outputs() -> list[Output]:
    pytest_log = (TRAFFIC / 'pytest_verbose_failures.txt').read_text()
    gcc = (TRAFFIC / 'gcc_errors.txt').read_text()
    pip = (TRAFFIC / 'pip_build_log.txt').read_text()
    find = (TRAFFIC / 'find_listing.txt').read_text()
    dpkg = (TRAFFIC / 'dpkg_list.txt').read_text()
    failing = tuple(
        line.split(' - ')[0].removeprefix('FAILED ') for line in pytest_log.splitlines() if line.startswith('FAILED ')
    )
    first_error = next(line for line in gcc.splitlines() if ': error: ' in line)
    lines = [
        f'2026-11-29T14:{i // 60 % 60:02d}:{i % 60:02d}Z INFO  api-{i % 9} GET /v2/orders/{10_000 + i * 7} 200'
        for i in range(6_000)
    ]
    error = '2026-11-29T14:50:00Z ERROR payments-7 charge failed: card processor returned 502 (request id rq-5521)'
    lines.insert(3_000, error)
    service_log = '\n'.join(lines) + '\n'
    root = Path(sysconfig.get_paths()['stdlib']) / 'json'
    records = [
        {'path': str(p.relative_to(root)), 'bytes': p.stat().st_size} for p in sorted(root.rglob('*')) if p.is_file()
    ]
    listing = json.dumps(records * 40)
    return [
        Output('pytest', pytest_log, (*failing, _last_nonblank(pytest_log).strip('= '))),
        Output('gcc', gcc, (first_error, 'exit=1')),
        Output('pip', pip, (_last_nonblank(pip),)),
        Output('find', find, (_last_nonblank(find),)),
        Output('dpkg', dpkg, (_last_nonblank(dpkg).split()[1],)),
        Output('service_log', service_log, (error,)),
        Output('inventory', listing, (f'"path": "{records[-1]["path"]}"',)),
    ]


def _seen_text(part: Any) -> str:
    """The characters the model receives for one message part."""
    if isinstance(part, ToolReturnPart):
        return part.model_response_str()
    if isinstance(part, ToolCallPart):
        return part.tool_name + part.args_as_json_str()
    content = getattr(part, 'content', '')
    return content if isinstance(content, str) else str(content)


def request_chars(messages: list[ModelMessage]) -> int:
    return sum(len(_seen_text(part)) for message in messages for part in message.parts)


@dataclass
class RunResult:
    total_chars: int = 0
    facts_seen: int = 0
    facts_total: int = 0
    handles: list[tuple[str, Output]] = field(default_factory=list[tuple[str, Output]])


def scripted(plan: list[Output], result: RunResult) -> FunctionModel:
    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        result.total_chars += request_chars(messages)
        step = sum(isinstance(m, ModelResponse) for m in messages)
        if step >= len(plan):
            return ModelResponse(parts=[TextPart('done')])
        return ModelResponse(parts=[ToolCallPart('run', {'command': plan[step].name}, tool_call_id=f's{step}')])

    return FunctionModel(respond)


_HANDLE = re.compile(r"handle='([^']+)'")


async def run_config(capability: Any, plan: list[Output]) -> tuple[RunResult, Agent[None, str]]:
    result = RunResult()
    by_name = {output.name: output for output in plan}
    agent = Agent(scripted(plan, result), capabilities=[capability] if capability is not None else [])

    @agent.tool_plain
    def run(command: str) -> str:
        """Run a command and return its output."""
        return by_name[command].text

    run_result = await agent.run('Investigate the build.', usage_limits=UsageLimits(request_limit=None))
    returns = [
        p
        for m in run_result.all_messages()
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart) and p.tool_name == 'run'
    ]
    for part, output in zip(returns, plan, strict=True):
        seen = part.model_response_str()
        result.facts_total += len(output.facts)
        result.facts_seen += sum(fact in seen for fact in output.facts)
        match = _HANDLE.search(seen)
        if match:
            result.handles.append((match.group(1), output))
    return result, agent


async def page_through(agent: Agent[None, str], handle: str) -> list[str]:
    """Every page `read_tool_result` gives for `handle`.

    Follows the continuation offset a page names when there is one (ours does); otherwise steps the
    offset by the limit and stops at the first page that shows no line it has not shown before.
    """
    pages: list[str] = []
    seen_lines: set[str] = set()
    state: dict[str, Any] = {'offset': 0, 'done': False}
    limit = 500

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        if isinstance(last, ModelRequest):
            for part in last.parts:
                if isinstance(part, ToolReturnPart) and part.tool_name == 'read_tool_result':
                    text = part.model_response_str()
                    pages.append(text)
                    new = set(text.split('\n')) - seen_lines
                    seen_lines.update(new)
                    follow = re.search(r'offset=(\d+)\) to continue', text)
                    if follow:
                        state['offset'] = int(follow.group(1))
                    elif '[end of output' in text or len(new) <= 2:
                        state['done'] = True
                    else:
                        state['offset'] += limit
        if state['done'] or len(pages) >= 1_000:
            return ModelResponse(parts=[TextPart('read')])
        args = {'handle': handle, 'offset': state['offset'], 'limit': limit}
        return ModelResponse(parts=[ToolCallPart('read_tool_result', args, tool_call_id=f'r{len(pages)}')])

    await agent.run('read it', model=FunctionModel(respond), usage_limits=UsageLimits(request_limit=None))
    return pages


_ROW = re.compile(r'^(\d+)(↩?)\t(.*)$')


def rebuild_ours(pages: list[str]) -> str:
    """Rebuild a payload from our numbered rows: `↩` joins a row to the next without a line break."""
    rows: dict[int, tuple[str, bool]] = {}
    final_newline = True
    for page in pages:
        for line in page.split('\n'):
            match = _ROW.match(line)
            if match:
                rows[int(match.group(1))] = (match.group(3), bool(match.group(2)))
            if 'it has no final newline' in line:
                final_newline = False
    out: list[str] = []
    for index in sorted(rows):
        text, continues = rows[index]
        out.append(text if continues else text + '\n')
    rebuilt = ''.join(out)
    return rebuilt if final_newline else rebuilt.removesuffix('\n')


def lines_covered(pages: list[str], text: str) -> bool:
    """Every line of `text` appears in some page (a format-agnostic check for the anchor)."""
    seen = '\n'.join(pages)
    return all(line in seen for line in text.split('\n') if line.strip())


async def recoverable(name: str, agent: Agent[None, str], handles: list[tuple[str, Output]]) -> tuple[int, int]:
    ok = 0
    for handle, output in handles:
        pages = await page_through(agent, handle)
        if name == 'ours':
            ok += rebuild_ours(pages) == output.text
        else:
            ok += lines_covered(pages, output.text)
    return ok, len(handles)


async def main(steps: int) -> None:
    available = outputs()
    plan = [available[i % len(available)] for i in range(steps)]
    tmp = Path(tempfile.mkdtemp(prefix='oh-economy-'))
    configs: list[tuple[str, Callable[[], Any]]] = [
        ('no capability', lambda: None),
        ('ours (defaults)', lambda: ours.ToolOutputLimits(store=ours.LocalFileStore(base_dir=tmp / 'ours'))),
    ]
    if anchor is not None:
        anchor_module: Any = anchor
        configs.append(
            (
                'pydantic-ai-harness (defaults)',
                lambda: anchor_module.ToolOutputLimits(store=anchor_module.LocalFileStore(base_dir=tmp / 'anchor')),
            )
        )
    print(f'{steps}-step run over {len(available)} real outputs ({", ".join(o.name for o in available)})\n')
    header = (
        f'{"configuration":<32} {"request chars":>15} {"vs none":>9} {"key facts seen":>15} '
        f'{"stored, read back whole":>24}'
    )
    print(header)
    print('-' * len(header))
    baseline = 0
    for name, make in configs:
        result, agent = await run_config(make(), plan)
        baseline = baseline or result.total_chars
        facts = f'{result.facts_seen}/{result.facts_total} ({result.facts_seen / result.facts_total:.0%})'
        if name.startswith('no'):
            stored = 'n/a'
        else:
            ok, total = await recoverable('ours' if name.startswith('ours') else 'anchor', agent, result.handles)
            stored = f'{ok}/{total} ({ok / total:.0%})' if total else 'none stored'
        print(f'{name:<32} {result.total_chars:>15,} {result.total_chars / baseline:>8.1%} {facts:>15} {stored:>24}')
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description='Context economy of a scripted 30-step run')
    parser.add_argument('--steps', type=int, default=STEPS)
    asyncio.run(main(parser.parse_args().steps))
