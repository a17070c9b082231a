"""The demo workload: scripted agent sessions over realistic tool traffic, with the capabilities on.

Each session is a real `Agent` run. Without `--model` a `FunctionModel` plays a fixed script (no API
key); with `--model` the same tools and task go to a real model, which decides for itself.
"""

from __future__ import annotations

import contextlib
import errno
import getpass
import os
import re
import tempfile
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import (
    CachePoint,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import Model
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import RequestUsage

from ..storage import PruneRecord
from ..system_reminders import GoalReanchor, LLMReminder, Reminder, SystemReminders
from ..tool_output_limits import (
    Band,
    LocalFileStore,
    OverflowStore,
    OverflowStoreWarning,
    Spill,
    Summarize,
    ToolOutputLimits,
    Truncate,
    TruncationStrategy,
    json_lines,
)
from . import traffic

__all__ = ['DEMO_MODEL', 'DEMO_PROVIDER', 'Session', 'build_sessions', 'demo_store', 'housekeeping', 'run_session']

DEMO_MODEL = 'claude-sonnet-4-6'
DEMO_PROVIDER = 'anthropic'
"""The model whose usage the scripted model reports and whose prices (genai-prices' snapshot) the demo shows."""

ArgsFactory = Callable[[list[ModelMessage]], dict[str, Any]]


@dataclass(frozen=True)
class PlannedCall:
    tool: str
    args: dict[str, Any] | ArgsFactory = field(default_factory=dict[str, Any])


@dataclass
class Session:
    """One agent run of the demo: its task, its capabilities, its tools and its script."""

    name: str
    task: str
    capabilities: Sequence[AbstractCapability[Any]]
    tools: dict[str, Callable[..., Any]]
    script: list[list[PlannedCall]]
    """Per model request, the tool calls the scripted model makes; after the last, it answers in text."""
    summary_text: str = 'Summary: the document describes the checkout service API; 14 endpoints, 3 deprecated.'


class FullDiskStore:
    """A store whose disk is full: every write fails with ENOSPC, as a real one would (simulated)."""

    async def write(self, key: str, data: bytes) -> str:
        raise OSError(errno.ENOSPC, 'No space left on device (simulated by the demo)')

    async def read(self, handle: str) -> bytes:
        raise OSError(errno.EIO, 'the simulated full disk holds nothing')


_HANDLE = re.compile(r"handle='([^']+)'")


def latest_handle(tool: str) -> ArgsFactory:
    """Arguments reading back the handle in the most recent stand-in of `tool`."""

    def factory(messages: list[ModelMessage]) -> dict[str, Any]:
        for message in reversed(messages):
            if not isinstance(message, ModelRequest):
                continue
            for part in message.parts:
                if isinstance(part, ToolReturnPart) and part.tool_name == tool:
                    match = _HANDLE.search(str(part.content))
                    if match:
                        return {'handle': match.group(1)}
        return {'handle': 'missing'}

    return factory


def with_args(factory: ArgsFactory, **extra: Any) -> ArgsFactory:
    return lambda messages: {**factory(messages), **extra}


def _first_prompt(messages: list[ModelMessage]) -> str:
    first = messages[0] if messages else None
    if not isinstance(first, ModelRequest):
        return ''
    return ' '.join(str(part.content) for part in first.parts if isinstance(part, UserPromptPart))


def _tokens(text: str) -> int:
    return len(text) // 4


def _request_tokens(messages: Sequence[ModelMessage]) -> tuple[int, int]:
    """Estimated tokens of a request: `(cacheable, after the last cache point)`.

    What follows a `CachePoint` at the very tail (a reminder) is outside the cached prefix; everything before it
    is the prefix a prompt cache keeps.
    """
    cacheable = 0
    tail = 0
    for message_index, message in enumerate(messages):
        last = message_index == len(messages) - 1
        for part in message.parts:
            content = getattr(part, 'content', '')
            if last and isinstance(part, UserPromptPart) and not isinstance(content, str):
                items = list(content)
                marks = [i for i, item in enumerate(items) if isinstance(item, CachePoint)]
                if marks:
                    cacheable += sum(_tokens(str(item)) for item in items[: marks[-1]])
                    tail += sum(_tokens(str(item)) for item in items[marks[-1] + 1 :])
                    continue
            cacheable += _tokens(str(content if content is not None else getattr(part, 'args', '')))
    return cacheable, tail


class CachedUsage:
    """The usage Anthropic reports to an agent that caches its messages (a cache breakpoint at the end of each
    request), estimated at ~4 characters a token: the prefix the previous request cached is read back, what was
    added since is written, and what rides behind the last breakpoint (a reminder) is plain input."""

    def __init__(self) -> None:
        self._cached = 0

    def __call__(self, messages: Sequence[ModelMessage], output_tokens: int) -> RequestUsage:
        cacheable, tail = _request_tokens(messages)
        read = min(self._cached, cacheable)
        self._cached = cacheable
        return RequestUsage(
            input_tokens=cacheable + tail,
            cache_read_tokens=read,
            cache_write_tokens=cacheable - read,
            output_tokens=output_tokens,
        )


def scripted_model(session: Session, on_step: Callable[[], None]) -> FunctionModel:
    """A model that plays `session.script` and reports the usage `DEMO_MODEL` would (`CachedUsage`);
    summary requests (nested) get `session.summary_text`."""
    usage_of = CachedUsage()

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        prompt = _first_prompt(messages)
        if '<output>' in prompt:  # a Summarize request made on the run's own model
            return ModelResponse(
                parts=[TextPart(session.summary_text)],
                usage=RequestUsage(input_tokens=_tokens(prompt), output_tokens=_tokens(session.summary_text)),
                provider_name=DEMO_PROVIDER,
            )
        step = sum(isinstance(message, ModelResponse) for message in messages)
        on_step()
        if step >= len(session.script):
            text = f'{session.name}: done.'
            return ModelResponse(
                parts=[TextPart(text)], usage=usage_of(messages, _tokens(text)), provider_name=DEMO_PROVIDER
            )
        calls: list[ToolCallPart] = []
        for index, planned in enumerate(session.script[step]):
            args = planned.args(messages) if callable(planned.args) else planned.args
            calls.append(ToolCallPart(planned.tool, args, tool_call_id=f'{session.name}-{step}-{index}'))
        return ModelResponse(parts=list(calls), usage=usage_of(messages, 20 * len(calls)), provider_name=DEMO_PROVIDER)

    return FunctionModel(respond, model_name=DEMO_MODEL)


def reminder_model(*, broken: bool) -> FunctionModel:
    """The model behind the demo's `LLMReminder`s: one writes a nudge, the other is misconfigured."""

    def nudge(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if broken:
            raise ConnectionError('reminder model endpoint unreachable (simulated by the demo)')
        prompt = _first_prompt(messages)
        text = 'Stay on the failing payments charge; the changelog is a side track.'
        return ModelResponse(
            parts=[TextPart(text)], usage=RequestUsage(input_tokens=len(prompt) // 4, output_tokens=len(text) // 4)
        )

    return FunctionModel(nudge, model_name='reminder-broken' if broken else 'reminder-writer')


def build_sessions(store: OverflowStore) -> list[Session]:
    """The demo's sessions, sharing one overflow store (as agents of one user do)."""
    test_log = traffic.pytest_log()
    inventory = traffic.file_inventory()
    source = traffic.source_file()
    service_log = traffic.service_log()

    def run_tests() -> str:
        """Run the project's test suite and return pytest's verbose output."""
        return test_log

    def service_status() -> dict[str, Any]:
        """Current status of the checkout service."""
        return traffic.service_status()

    def list_files(prefix: str = '') -> list[dict[str, Any]]:
        """List files (path, size, suffix, mtime) under a prefix."""
        return [record for record in inventory if record['path'].startswith(prefix)]

    def read_source(path: str) -> str:
        """Read a source file."""
        return source

    def fetch_logs(service: str) -> str:
        """Fetch the last hour of a service's log."""
        return service_log

    def fetch_docs(topic: str) -> str:
        """Fetch the reference documentation of an API topic."""
        return source[: len(source) // 2]

    def fetch_changelog(version: str) -> str:
        """Fetch a release's changelog."""
        return source[len(source) // 2 :]

    triage = Session(
        name='ci-triage',
        task='The CI run failed. Find which tests fail and why, and check the service is healthy.',
        capabilities=[
            ToolOutputLimits(
                store=store,
                serializer=json_lines,
                per_tool={'read_source': [Band(over=8_000, action=Truncate(strategy=TruncationStrategy.head))]},
            ),
            # Every third request: the requests between show the prompt cache without a reminder.
            SystemReminders(reminders=[Reminder('Quote failing test ids exactly.', interval=3, name='quote-ids')]),
        ],
        tools={
            'run_tests': run_tests,
            'service_status': service_status,
            'list_files': list_files,
            'read_source': read_source,
        },
        script=[
            [PlannedCall('run_tests'), PlannedCall('service_status')],
            [PlannedCall('read_tool_result', with_args(latest_handle('run_tests'), pattern='FAILED'))],
            [PlannedCall('read_tool_result', with_args(latest_handle('run_tests'), from_end=True, limit=20))],
            [PlannedCall('list_files', {'prefix': ''})],
            [PlannedCall('read_tool_result', with_args(latest_handle('list_files'), pattern='"suffix":".pem"'))],
            [PlannedCall('read_source', {'path': 'asyncio/base_events.py'})],
            [PlannedCall('read_tool_result', {'handle': '../../../etc/passwd'})],
            [PlannedCall('read_tool_result', {'handle': 'ci-triage/no-such-call.0'})],
        ],
    )
    incident = Session(
        name='incident',
        task='Payments are failing. Read the payments log and find the error.',
        capabilities=[ToolOutputLimits(store=FullDiskStore())],
        tools={'fetch_logs': fetch_logs, 'service_status': service_status},
        script=[
            [PlannedCall('fetch_logs', {'service': 'payments'})],
            [PlannedCall('service_status')],
        ],
    )

    def broken_summarizer(tool_name: str, text: str) -> str:
        raise ConnectionError('summarizer endpoint unreachable (simulated by the demo)')

    docs = Session(
        name='docs',
        task='Summarize what changed in the checkout API and what its reference says.',
        capabilities=[
            ToolOutputLimits(
                store=store,
                bands=[Band(over=100_000, action=Spill()), Band(over=10_000, action=Summarize(then=Spill()))],
                per_tool={
                    'fetch_changelog': [
                        Band(over=10_000, action=Summarize(summarize=broken_summarizer, then=Truncate()))
                    ]
                },
            )
        ],
        tools={'fetch_docs': fetch_docs, 'fetch_changelog': fetch_changelog},
        script=[
            [PlannedCall('fetch_docs', {'topic': 'checkout'})],
            [PlannedCall('fetch_changelog', {'version': '2026.11'})],
        ],
    )
    long_task = Session(
        name='long-task',
        task='Fix the failing payments charge: find the error in the log, then check the API reference.',
        capabilities=[
            ToolOutputLimits(store=store),
            SystemReminders(
                reminders=[
                    Reminder('Keep changes minimal and explain each one.', interval=2, name='minimal-changes'),
                    Reminder('Run the tests before you answer.', first_after=3, max_fires=1, name='run-tests'),
                ],
                dynamic_reminders=[
                    GoalReanchor(),
                    LLMReminder(model=reminder_model(broken=False)),
                    LLMReminder(model=reminder_model(broken=True)),
                ],
            ),
        ],
        tools={'fetch_logs': fetch_logs, 'fetch_docs': fetch_docs, 'run_tests': run_tests},
        script=[
            [PlannedCall('fetch_logs', {'service': 'payments'})],
            [PlannedCall('read_tool_result', with_args(latest_handle('fetch_logs'), pattern='ERROR'))],
            [PlannedCall('fetch_docs', {'topic': 'payments'})],
            [PlannedCall('run_tests')],
        ],
    )
    return [triage, incident, docs, long_task]


def demo_store() -> LocalFileStore:
    """A spill directory of this demo run's own, apart from the default root your agents share.

    One per process: the housekeeping step prunes everything in it, which in a shared directory would
    take another demo's fresh spills away before its read-backs (two demos at once, as the tests run them).
    """
    return LocalFileStore(base_dir=tempfile.mkdtemp(prefix=f'observable_harness_demo_{_owner()}_'))


def _owner() -> str:
    return str(os.getuid()) if hasattr(os, 'getuid') else getpass.getuser()


def housekeeping(store: LocalFileStore) -> list[PruneRecord]:
    """What a cron sweep would do: prune the demo's spills (its read-backs are done), and try a store
    whose root was swapped for a symlink — a tampered root, which the store refuses to touch."""
    records = [store.prune_now(older_than=timedelta(milliseconds=1))]
    tampered = Path(tempfile.gettempdir()) / f'observable_harness_demo_tampered_{_owner()}'
    if not tampered.is_symlink():
        with contextlib.suppress(FileExistsError):
            tampered.symlink_to(store.root, target_is_directory=True)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', OverflowStoreWarning)
        records.append(LocalFileStore(base_dir=tampered).prune_now(older_than=timedelta(hours=1)))
    return records


async def run_session(
    session: Session,
    *,
    model: Model | str | None,
    on_step: Callable[[], None],
) -> list[ModelMessage]:
    """Run one session and return its message history (what persisted after the reductions)."""
    agent_model: Model | str = model if model is not None else scripted_model(session, on_step)
    agent = Agent(agent_model, capabilities=list(session.capabilities), name=session.name)
    for name, func in session.tools.items():
        agent.tool_plain(name=name)(func)
    result = await agent.run(session.task)
    return result.all_messages()
