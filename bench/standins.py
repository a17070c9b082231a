"""Stand-ins that answer the task: key facts visible without read-back, over real captures.

Run with the bench interpreter: `bash bench/setup_env.sh` then `bench/.venv/bin/python bench/standins.py`.

Each case of `bench/standins/cases.json` is a real command's output with the tool call an agent
would make for it, the model's text when it made the call, the run's user prompt, and the key facts
a competent engineer needs to see to answer the task (written before any stand-in code ran on the
capture). Every case is one real `Agent` run with a `FunctionModel`: the model's first response
carries its text and the tool call, the tool returns the capture, the model answers. For each
configuration, side by side in one run:

- ours at defaults without intent: a generic prompt, no text, arguments that name nothing;
- ours at defaults with intent: the case's prompt, text and arguments;
- position-only: our spill with a head+tail preview of the same budget;
- pydantic-ai-harness at its defaults;
- ours when the store fails (the default band's `Truncate(strategy=salient)` fallback), with intent;

it prints the facts visible in the tool return the model saw, per case, per shape and in total
(held-out cases apart), and the characters of every request the model received. `--cases FILE` runs
the same on cases of your own: a check on output none of this was tuned on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import re
import shutil
import tempfile
from collections import defaultdict
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
from economy import request_chars  # also puts the repository's root on the path

try:
    import pydantic_ai_harness.tool_output_limits as anchor
except ImportError:  # pragma: no cover - installed only in bench/.venv
    anchor = None

HERE = Path(__file__).resolve().parent / 'standins'

from tests.doubles import BrokenStore  # noqa: E402 - the project's own failing store (root put on the path above)

FACT_WINDOW = 250
"""The parts of a list fact must all sit on one line, within this many characters of each other."""
GENERIC_PROMPT = 'Look into this and report what you find.'
NO_INTENT_ARGS: dict[str, dict[str, Any]] = {
    'run_shell': {'command': './collect.sh'},
    'list_packages': {'verbose': True},
    'query_db': {'sql': 'execute saved_report'},
}
"""Arguments for the runs without intent: valid for the tool, naming nothing the task looks for."""


@dataclass(frozen=True)
class Case:
    id: str
    shape: str
    tool: str
    args: dict[str, Any]
    model_text: str
    user_prompt: str
    facts: tuple[str | tuple[str, ...], ...]
    value: Any
    """What the tool returns: the capture's text, or its parsed records for structured cases."""
    chars: int
    held_out: bool


def load_cases(path: Path = HERE / 'cases.json') -> list[Case]:
    """The cases of a `cases.json` (this benchmark's, or one of your own beside a `captures/` directory)."""
    raw = json.loads(path.read_text(encoding='utf-8'))
    cases: list[Case] = []
    for item in raw['cases']:
        # A shell tool decodes what a command printed with replacement characters where it is not UTF-8 (an old
        # commit's Latin-1 in `git log -p`): the capture reaches the model as that tool would hand it over.
        text = (path.parent / 'captures' / item['file']).read_text(encoding='utf-8', errors='replace')
        structured = bool(item.get('structured'))
        value: Any = json.loads(text) if structured else text
        # The parts of a fact given as a list of parts are read as a fact given whole is.
        facts = tuple(
            (_compact_json_fact(fact) if structured else fact)
            if isinstance(fact, str)
            else tuple(_compact_json_fact(part) if structured else part for part in fact)
            for fact in item['facts']
        )
        cases.append(
            Case(
                id=item['id'],
                shape=item['shape'],
                tool=item['tool'],
                args=item['args'],
                model_text=item['model_text'],
                user_prompt=item['user_prompt'],
                facts=facts,
                value=value,
                chars=len(text),
                held_out=bool(item.get('held_out')),
            )
        )
    return cases


_KEY_SEPARATOR = re.compile(r'"\s*:\s+')
_MEMBER_SEPARATOR = re.compile(r'(?<=[\d"el]),\s+(?=")')
"""Between members (`"year": 2011, "sales": null`), after a number, a string or a constant, before the next name."""


def _compact_json_fact(fact: str) -> str:
    """A fact copied from a line of a pretty-printed JSON capture (`"percent_covered": 96.9,`), as compact JSON
    spells it (`"percent_covered":96.9,`), its members apart by a bare comma: the tool returns the parsed value, and
    every configuration shows the model compact JSON, so a fact is judged on its content, not on its spacing."""
    compact = _MEMBER_SEPARATOR.sub(',', _KEY_SEPARATOR.sub('":', fact)).removesuffix(' {').removesuffix(' [')
    return compact[:-1] if compact.endswith(', ') else compact  # a member's value ended by its comma (`"id": 6, `)


def fact_seen(fact: str | tuple[str, ...], seen: str) -> bool:
    if isinstance(fact, str):
        return fact in seen
    for line in seen.split('\n'):
        first = line.find(fact[0])
        while first != -1:
            window = line[max(0, first - FACT_WINDOW) : first + FACT_WINDOW]
            if all(part in window for part in fact):
                return True
            first = line.find(fact[0], first + 1)
    return False


@dataclass
class Outcome:
    seen: int = 0
    total: int = 0
    stand_in_chars: int = 0
    request_chars: int = 0
    missed: list[str] = field(default_factory=list[str])


async def run_case(case: Case, capability: Any, *, intent: bool) -> Outcome:
    outcome = Outcome(total=len(case.facts))
    args = case.args if intent else NO_INTENT_ARGS[case.tool]

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        outcome.request_chars += request_chars(messages)
        if any(isinstance(m, ModelResponse) for m in messages):
            return ModelResponse(parts=[TextPart('done')])
        parts: list[Any] = [TextPart(case.model_text)] if intent else []
        parts.append(ToolCallPart(case.tool, args, tool_call_id='call-1'))
        return ModelResponse(parts=parts)

    agent = Agent(FunctionModel(respond), capabilities=[capability])

    @agent.tool_plain
    def run_shell(command: str) -> str:
        """Run a shell command and return its output."""
        return case.value

    @agent.tool_plain
    def list_packages(verbose: bool = False) -> list[dict[str, Any]]:
        """List the installed Python packages."""
        return case.value

    @agent.tool_plain
    def query_db(sql: str) -> list[dict[str, Any]]:
        """Run a SQL query and return its rows."""
        return case.value

    prompt = case.user_prompt if intent else GENERIC_PROMPT
    result = await agent.run(prompt, usage_limits=UsageLimits(request_limit=None))
    seen = next(
        part.model_response_str()
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart) and part.tool_name == case.tool
    )
    outcome.stand_in_chars = len(seen)
    for fact in case.facts:
        if fact_seen(fact, seen):
            outcome.seen += 1
        else:
            outcome.missed.append(fact if isinstance(fact, str) else ' … '.join(fact))
    return outcome


def configurations(tmp: Path) -> list[tuple[str, Callable[[], Any], bool]]:
    configs: list[tuple[str, Callable[[], Any], bool]] = [
        ('ours, no intent', lambda: ours.ToolOutputLimits(store=ours.LocalFileStore(base_dir=tmp / 'ours')), False),
        ('ours, intent', lambda: ours.ToolOutputLimits(store=ours.LocalFileStore(base_dir=tmp / 'ours')), True),
        (
            'position-only',
            lambda: ours.ToolOutputLimits(
                bands=[
                    ours.Band(
                        over=10_000,
                        action=ours.Spill(preview=ours.TruncationStrategy.head_tail, then=ours.Truncate()),
                    )
                ],
                store=ours.LocalFileStore(base_dir=tmp / 'position'),
            ),
            True,
        ),
    ]
    if anchor is not None:
        anchor_module: Any = anchor
        configs.append(
            (
                'pydantic-ai-harness',
                lambda: anchor_module.ToolOutputLimits(store=anchor_module.LocalFileStore(base_dir=tmp / 'anchor')),
                True,
            )
        )
    configs.append(('ours truncate fallback, intent', lambda: ours.ToolOutputLimits(store=BrokenStore()), True))
    return configs


def _ratio(seen: int, total: int) -> str:
    return f'{seen}/{total} {seen / total:>4.0%}' if total else '-'


async def main(show_missed: bool, cases_path: Path) -> None:
    # The truncate-fallback configuration fails its store on purpose; its warning would repeat per case.
    logging.getLogger('observable_harness').setLevel(logging.ERROR)
    cases = load_cases(cases_path)
    tmp = Path(tempfile.mkdtemp(prefix='oh-standins-'))
    configs = configurations(tmp)
    results: dict[str, dict[str, Outcome]] = {}
    for name, make, intent in configs:
        results[name] = {case.id: await run_case(case, make(), intent=intent) for case in cases}
    shutil.rmtree(tmp, ignore_errors=True)
    names = [name for name, _, _ in configs]
    width = 16

    print(f'{len(cases)} real captures ({sum(c.held_out for c in cases)} held out); facts visible without read-back\n')
    header = f'{"case":<22} {"shape":<17} {"chars":>7} ' + ' '.join(f'{n[:width]:>{width}}' for n in names)
    print(header)
    print('-' * len(header))
    for held_out in (False, True):
        for case in (c for c in cases if c.held_out == held_out):
            row = ' '.join(f'{_ratio(results[n][case.id].seen, results[n][case.id].total):>{width}}' for n in names)
            label = case.id + (' *' if case.held_out else '')
            print(f'{label:<22} {case.shape:<17} {case.chars:>7,} {row}')
    print('(* held out: not used while tuning)\n')

    for title, subset in (
        ('tuned', [c for c in cases if not c.held_out]),
        ('held out', [c for c in cases if c.held_out]),
    ):
        by_shape: dict[str, list[Case]] = defaultdict(list)
        for case in subset:
            by_shape[case.shape].append(case)
        print(f'by shape ({title})')
        print(f'{"shape":<22} {"cases":>5} ' + ' '.join(f'{n[:width]:>{width}}' for n in names))
        for shape, members in sorted(by_shape.items()):
            cells = []
            for n in names:
                seen = sum(results[n][c.id].seen for c in members)
                total = sum(results[n][c.id].total for c in members)
                cells.append(f'{_ratio(seen, total):>{width}}')
            print(f'{shape:<22} {len(members):>5} ' + ' '.join(cells))
        cells = []
        for n in names:
            seen = sum(results[n][c.id].seen for c in subset)
            total = sum(results[n][c.id].total for c in subset)
            cells.append(f'{_ratio(seen, total):>{width}}')
        print(f'{"all " + title:<22} {len(subset):>5} ' + ' '.join(cells) + '\n')

    print('characters the model received (every request of every run) and stand-in sizes')
    print(f'{"configuration":<32} {"request chars":>14} {"vs anchor":>10} {"stand-in mean":>14} {"max":>7}')
    anchor_total = sum(o.request_chars for o in results.get('pydantic-ai-harness', {}).values())
    for n in names:
        outcomes = list(results[n].values())
        total = sum(o.request_chars for o in outcomes)
        mean = sum(o.stand_in_chars for o in outcomes) / len(outcomes)
        versus = f'{total / anchor_total:>9.1%}' if anchor_total else '-'
        print(f'{n:<32} {total:>14,} {versus:>10} {mean:>14,.0f} {max(o.stand_in_chars for o in outcomes):>7,}')

    if show_missed:
        for n in names:
            print(f'\nmissed by {n}:')
            for case in cases:
                for fact in results[n][case.id].missed:
                    print(f'  {case.id}: {fact[:110]!r}')


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description='Key facts visible in stand-ins over real captures')
    parser.add_argument('--missed', action='store_true', help='list the facts each configuration missed')
    parser.add_argument(
        '--cases',
        type=Path,
        default=HERE / 'cases.json',
        help='a cases.json of your own (its captures in a captures/ directory beside it): output this was not built on',
    )
    arguments = parser.parse_args()
    asyncio.run(main(arguments.missed, arguments.cases))
