"""ToolOutputLimits: reduce an oversized tool return once, when it is produced, and keep the reduced form."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import functools
import logging
import threading
import warnings
from collections.abc import Callable, Coroutine, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import anyio.to_thread
from pydantic_ai import AgentRunResult
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import UserError
from pydantic_ai.messages import ModelResponse, ToolCallPart, ToolReturn
from pydantic_ai.models import ModelRequestContext
from pydantic_ai.tools import AgentDepsT, RunContext, ToolDefinition, ToolSelector, matches_tool_selector
from pydantic_ai.toolsets import AgentToolset

from .._text.cut import TruncationStrategy, cut_text
from .._text.layout import Serializer, Tokenizer, utf8_size
from .._text.paging import READ_TOOL_NAME
from .._text.secrets import DEFAULT_SCRUBBER, Scrubber
from .._usage import agent_label, record_avoided, record_response, record_run_end
from ..storage import LocalFileStore, OverflowStore, report_redactions, scrub_before_write, scrub_utf8
from ..telemetry import names as telemetry_names
from . import _telemetry as telemetry
from ._actions import Passthrough, Reduced, ReductionAction
from ._bands import Band
from ._decision import Decision, Hop
from ._layouts import DEFAULT_READ_CACHE_BYTES, LayoutCache
from ._payload import Measurer, PartName, Unit, is_binary
from ._read_tool import SpillLedger, build_read_toolset, is_read_tool, read_tool_name_in_run
from ._spill import Spill
from ._summarize import DEFAULT_SUMMARY_PROMPT, validate_summary_prompt

if TYPE_CHECKING:
    from .._text.intent import Intent

from ._truncate import Truncate

__all__ = ['DEFAULT_BANDS', 'ToolOutputLimits']

LAST_RESORT = 'last_resort'
"""The fallback a chain ends in when every action failed on text: a cut by position that cannot fail."""
LAST_RESORT_MAX_CHARS = 4_000
"""Characters a last-resort cut keeps, marker included (a default `Truncate`'s budget)."""

_log = logging.getLogger('observable_harness')

DEFAULT_BANDS: tuple[Band, ...] = (Band(over=10_000, action=Spill(then=Truncate(strategy=TruncationStrategy.salient))),)
"""Lossless when the store accepts the write, a bounded truncation otherwise: no LLM cost, no silent drop.
Both stand-ins show what the request names first, then what the output's shape needs, then lines by class."""


def _sorted_bands(bands: object, where: str) -> tuple[Band, ...]:
    if isinstance(bands, Band):
        raise TypeError(f'{where} must be a list of bands; got one band. Wrap it in a list: [{bands!r}].')
    if isinstance(bands, str | bytes) or not isinstance(bands, Iterable):
        raise TypeError(f'{where} must be a list of Band(over=..., action=...); got {type(bands).__name__}.')
    checked: list[Band] = []
    for band in cast('Iterable[object]', bands):
        if not isinstance(band, Band):
            raise TypeError(f'{where} must hold Band(over=..., action=...) entries; got {band!r}.')
        checked.append(band)
    by_threshold: dict[int, Band] = {}
    for band in checked:
        if band.over in by_threshold:
            raise ValueError(
                f'{where} has two bands with over={band.over:,} ({by_threshold[band.over].action!r} and '
                f'{band.action!r}): only one could ever apply. Keep one, or chain them with then=.'
            )
        by_threshold[band.over] = band
    return tuple(sorted(checked, key=lambda band: band.over, reverse=True))


def _pick(bands: tuple[Band, ...], size: int) -> Band | None:
    for band in bands:  # sorted by threshold, largest first: the largest reached threshold wins
        if size >= band.over:
            return band
    return None


def _stated(capability: object) -> str:
    """`ToolOutputLimits(...)` with only the settings that differ from the defaults, for messages."""
    stated: list[str] = []
    for spec in dataclasses.fields(capability):  # pyright: ignore[reportArgumentType]
        if not spec.init or spec.name in ('id', 'description', 'defer_loading'):
            continue
        default: Any = spec.default if spec.default is not dataclasses.MISSING else None
        if spec.default_factory is not dataclasses.MISSING:
            default = spec.default_factory()
        value = getattr(capability, spec.name)
        if value != default:
            stated.append(f'{spec.name}={value!r}')
    return f'{type(capability).__name__}({", ".join(stated)})'


@dataclass
class _RunState:
    """Per-run bookkeeping, isolated by `for_run` so concurrent runs never share it."""

    tokens_saved_by_tool: dict[str, int] = field(default_factory=dict[str, int])
    avoided_in_request: tuple[tuple[str, int], ...] = ()
    """Per tool, the tokens kept out of the request in flight, priced once its response says by which model."""
    warned: set[tuple[str, str, str]] = field(default_factory=set[tuple[str, str, str]])
    """(tool, action, exception type) already logged in this run."""


class _Env:
    """What an action may use while reducing one unit (the `ReductionEnv` protocol)."""

    __slots__ = ('_ctx', '_intent', '_limits', '_tool_call_id')

    def __init__(self, limits: ToolOutputLimits[Any], ctx: RunContext[Any], tool_call_id: str) -> None:
        self._limits = limits
        self._ctx = ctx
        self._tool_call_id = tool_call_id
        self._intent: Intent | None = None

    @property
    def ctx(self) -> RunContext[Any]:
        return self._ctx

    @property
    def intent(self) -> Intent:
        # Gathered on first use: most reductions that need it are spills and salient cuts, nothing else pays.
        if self._intent is None:
            # The intent and preview machinery loads with the first reduction that needs it, not with the library.
            from .._text.intent import Intent
            from ._intent import gather_intent

            try:
                self._intent = gather_intent(self._ctx, self._tool_call_id)
            except Exception:  # a preview without intent still stands; the run must not fail for it
                self._intent = Intent()
        return self._intent

    @property
    def read_tool_name(self) -> str:
        return read_tool_name_in_run(self._ctx, self._limits.read_tool_name)

    @property
    def summary_prompt(self) -> str:
        return self._limits.summary_prompt

    async def store(self, unit: Unit, data: bytes, *, key: str | None = None, scrub: bool = True) -> str:
        store = self._limits.overflow_store
        store_name = type(store).__name__
        scrubber = self._limits.scrubber if scrub else None
        if scrubber is not None:
            # Before anything reaches a disk or a bucket: a spill outlives the run that made it. The text
            # the unit already holds is scrubbed rather than a second decoded copy of it.
            text = unit.text if unit.text is not None and data is unit.data else data.decode('utf-8', 'surrogateescape')
            scrubbed = scrub_before_write(scrubber, text)
            if scrubbed.counts:
                data = scrubbed.text.encode('utf-8', 'surrogatepass' if text is unit.text else 'surrogateescape')
        try:
            handle = await store.write(key or unit.key, data)
        except Exception as error:
            telemetry.report_spill_failure(store_name, type(error).__name__)
            raise
        telemetry.report_spill_write(unit.tool_name, store_name, len(data))
        return handle

    def begin_store(self, unit: Unit) -> _StoreInProgress:
        store = self._limits.overflow_store
        job = _SpillJob(unit, self._limits.scrubber, store)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # another event loop (trio): the job runs when the handle is awaited
            started = None
        else:
            # Submitted now, not when first awaited: the worker scrubs and writes while the caller builds
            # the stand-in on the loop.
            started = loop.run_in_executor(None, job.run)
        return _StoreInProgress(self._finish_store(unit, store, job, started), job if started is not None else None)

    async def _finish_store(
        self, unit: Unit, store: OverflowStore, job: _SpillJob, started: asyncio.Future[None] | None
    ) -> str:
        if started is None:
            await anyio.to_thread.run_sync(job.run)
        else:
            await started
        if job.counts:
            report_redactions(job.counts)
        store_name = type(store).__name__
        try:
            if job.failure is not None:
                raise job.failure
            handle = job.handle if job.handle is not None else await store.write(unit.key, job.data)
        except Exception as error:
            telemetry.report_spill_failure(store_name, type(error).__name__)
            raise
        telemetry.report_spill_write(unit.tool_name, store_name, len(job.data))
        return handle


HANDOVER_WAIT = 0.0003
"""Seconds the event loop's thread waits at most for the spill's worker to reach its next step that releases the GIL:
room for a pool thread to wake and open a file, not for a worker's own work under the GIL (encoding text outside
ASCII, replacing secrets), during which the loop could have gone on with its own work."""


class _SpillJob:
    """What a spill does off the event loop: encode, hash, scrub, and write when the store can from a thread.

    Its two long steps are the secret gate's scan and the write. The write releases the GIL; the scan does with
    RE2 only (Hyperscan's binding keeps it through a scan). Between them it needs the GIL, which the loop's thread
    holds while it builds the stand-in; CPython would make it wait for that to end (or for its switch interval,
    5 ms), so the loop's thread hands it over at two points (`hand_over`): once the job is submitted, until the
    worker is in its scan, and before the preview's last step, until the worker is in its write. Each stage is
    marked when reached, and all of them when the job ends, however. (Scrubbing on the loop's thread instead, with
    only the write on the worker, measured slower on a megabyte's spill, 5.5-6.0 ms against 5.3-5.5.)
    """

    __slots__ = ('_handed', '_stages', 'counts', 'data', 'failure', 'handle', 'scrubber', 'unit', 'write')

    def __init__(self, unit: Unit, scrubber: Scrubber | None, store: OverflowStore) -> None:
        self.unit = unit
        self.scrubber = scrubber
        self._stages = (threading.Event(), threading.Event())  # in its scan; in its write
        self._handed = 0
        # Only LocalFileStore's own write is known to be safe to call from a thread; a subclass that
        # overrides `write` (or any other store) is written through its async `write` on the loop.
        self.write: Callable[[str, bytes], str] | None = None
        if isinstance(store, LocalFileStore) and type(store).write is LocalFileStore.write:
            self.write = functools.partial(store.write_from_thread, opened=self._stages[1].set)
        self.data = b''
        self.counts: Mapping[str, int] = {}
        self.handle: str | None = None
        self.failure: Exception | None = None

    def run(self) -> None:
        try:
            self._run()
        finally:
            for stage in self._stages:
                stage.set()

    def _run(self) -> None:
        unit = self.unit
        data = unit.data
        _ = unit.content_hash  # the decision reports it; hashed here, not on the loop
        text = unit.text
        self._stages[0].set()  # what follows at once is the gate's scan
        if text is not None:
            data, self.counts = scrub_utf8(self.scrubber, text, data)
        elif self.scrubber is not None:
            scrubbed = self.scrubber.scrub_bytes(data)  # bytes may still be text that holds a secret
            data, self.counts = scrubbed.text, scrubbed.counts
        self.data = data
        if self.write is None:
            self._stages[1].set()  # nothing more to hand over for: the loop writes through the store
        else:
            try:
                self.handle = self.write(unit.key, data)
            except Exception as error:
                self.failure = error

    def hand_over(self) -> None:
        """On the loop's thread: wait until the worker is in its next stage, `HANDOVER_WAIT` at most. A worker that
        did not come in time waits for a thread of the pool or is slow: it is not waited for again."""
        if self._handed >= len(self._stages):
            return
        stage = self._stages[self._handed]
        self._handed += 1
        if not stage.wait(HANDOVER_WAIT):
            self._handed = len(self._stages)


class _StoreInProgress:
    """What `begin_store` returns: awaited, the handle; `hand_over` lets a submitted job's worker go on."""

    __slots__ = ('_job', '_waiter')

    def __init__(self, waiter: Coroutine[Any, Any, str], job: _SpillJob | None) -> None:
        self._waiter = waiter
        self._job = job

    def __await__(self) -> Generator[Any, Any, str]:
        return self._waiter.__await__()

    def hand_over(self) -> None:
        if self._job is not None:
            self._job.hand_over()


@dataclass
class ToolOutputLimits(AbstractCapability[AgentDepsT]):
    """Reduce oversized tool returns once, when they are produced, so they stop riding every later request.

    A tool return stays in the run's history and is re-sent with every later model request. This
    capability measures each return in `after_tool_execute`, picks the band whose threshold it
    reaches, applies that band's action (spill, truncate, summarize) once, and lets the reduced
    form persist. It also registers `read_tool_result`, so the model can page through anything
    that was spilled. Every decision is reported as a `tool_output.reduce` span and metrics.

    ```python
    from pydantic_ai import Agent

    from observable_harness import ToolOutputLimits
    from observable_harness.tool_output_limits import Band, Spill, Summarize, Truncate

    agent = Agent(
        'test',
        capabilities=[
            ToolOutputLimits(
                bands=[
                    Band(over=100_000, action=Spill()),
                    Band(over=20_000, action=Summarize()),
                    Band(over=5_000, action=Truncate()),
                ]
            )
        ],
    )
    ```
    """

    id: str | None = 'tool_output_limits'
    """An agent has one `ToolOutputLimits`: a second one with the same configuration is the same statement made
    twice, and one with another configuration is an error at construction that names both (put per-tool bands
    in `per_tool` instead). To run two side by side on purpose, give each its own `id` and `read_tool_name`."""

    bands: Sequence[Band] | None = None
    """Size bands; the largest threshold a return reaches wins. `None` means `DEFAULT_BANDS`:
    spill from 10,000 characters, truncate if the store refuses the write."""

    per_tool: Mapping[str, Sequence[Band]] = field(default_factory=dict[str, Sequence[Band]])
    """Band lists that replace `bands` for the named tools: files keep their head, logs their tail."""

    tool_filter: ToolSelector[AgentDepsT] = 'all'
    """Which tools are touched at all (names, metadata, or a predicate); the rest pass through unmeasured."""

    store: OverflowStore | None = None
    """Where spilled payloads go; `None` uses a `LocalFileStore` under a stable per-user root."""

    serializer: Serializer | None = None
    """How structured returns are laid out as text (`indented_json`, `json_lines`, or your own): what is measured
    and stored. `None` measures compact JSON, which is what passes; an object (or an array that is not of
    records) too large to pass is stored and previewed a member a line, each line spelled as compact JSON (a
    list of records stays on one line, previewed record by record)."""

    over_tokens: bool = False
    """Measure in estimated tokens (~4 characters each) instead of characters."""

    tokenizer: Tokenizer | None = None
    """Exact token counter (`text -> int`); implies `over_tokens`."""

    strip_ansi: bool = False
    """Remove ANSI escape sequences from text returns before measuring and reducing them."""

    summary_prompt: str = DEFAULT_SUMMARY_PROMPT
    """Prompt for the built-in `Summarize`; must contain `{tool_name}` and `{output}`."""

    scrubber: Scrubber | None = DEFAULT_SCRUBBER
    """Replaces secrets (tokens, keys, `password=` assignments, bearer headers) before any store write,
    because a spill outlives the run. `None` stores payloads verbatim; `Scrubber(extra=...)` adds formats.
    An action with a `scrubber` of its own (`Offload`, `Condense`) uses that one for its writes instead."""

    read_tool_name: str = READ_TOOL_NAME
    """The name the read-back tool is registered under. Change it when a tool of yours already has the
    name, or to give a second `ToolOutputLimits` (with its own `id`) a read tool of its own."""

    read_cache_bytes: int = DEFAULT_READ_CACHE_BYTES
    """Memory the read tool may keep for the row layouts of large payloads (over 256 KiB) being paged,
    so that each page does not decode and split the whole payload again (~40 ms for 10 MB). Shared by
    the runs of this capability; `0` keeps none."""

    _run: _RunState = field(default_factory=_RunState, init=False, repr=False, compare=False)
    _measurer: Measurer = field(init=False, repr=False, compare=False)
    _bands: tuple[Band, ...] = field(init=False, repr=False, compare=False)
    _per_tool: dict[str, tuple[Band, ...]] = field(init=False, repr=False, compare=False)
    _default_store: OverflowStore | None = field(default=None, init=False, repr=False, compare=False)
    _thresholds_reported: set[tuple[str, str]] = field(init=False, repr=False, compare=False)
    _layouts: LayoutCache = field(init=False, repr=False, compare=False)
    _ledger: SpillLedger = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        validate_summary_prompt(self.summary_prompt)
        self._bands = _sorted_bands(DEFAULT_BANDS if self.bands is None else self.bands, 'bands')
        if not self._bands:
            raise ValueError(
                'bands=[] would let every return through whole. Leave bands unset for the default (spill from '
                '10,000 characters), give the bands you want, or exempt single tools with per_tool={name: []} or '
                'tool_filter=.'
            )
        if not isinstance(self.per_tool, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f"per_tool must map tool names to lists of bands, like {{'read_file': [Band(...)]}}; got "
                f'{type(self.per_tool).__name__}.'
            )
        self._per_tool = {name: _sorted_bands(bands, f'per_tool[{name!r}]') for name, bands in self.per_tool.items()}
        if self.store is not None and not isinstance(self.store, OverflowStore):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f'store must implement OverflowStore (async write(key, data) -> handle, async read(handle) -> bytes); '
                f'got {type(self.store).__name__}.'
            )
        self._measurer = Measurer(
            serializer=self.serializer,
            over_tokens=self.over_tokens,
            tokenizer=self.tokenizer,
            strip_ansi=self.strip_ansi,
        )
        self._thresholds_reported = set()
        if not self.read_tool_name.isidentifier():
            raise ValueError(
                f'read_tool_name must be a valid tool name (letters, digits and underscores, not starting with a '
                f'digit); got {self.read_tool_name!r}.'
            )
        if self.read_cache_bytes < 0:
            raise ValueError(f'read_cache_bytes must be >= 0 (0 keeps no layouts); got {self.read_cache_bytes}.')
        self._layouts = LayoutCache(max_bytes=self.read_cache_bytes)
        self._ledger = SpillLedger()

    @classmethod
    def combine(cls, capabilities: Sequence[AbstractCapability[AgentDepsT]]) -> AbstractCapability[AgentDepsT]:
        """Two `ToolOutputLimits` under one `id`: the same configuration twice is one; different ones are an error."""
        last = capabilities[-1]
        if all(capability == last for capability in capabilities):
            return last
        listed = '; '.join(f'{index}. {_stated(capability)}' for index, capability in enumerate(capabilities, 1))
        raise UserError(
            f'This agent has {len(capabilities)} ToolOutputLimits with different settings under one id '
            f'({last.id!r}): {listed}. One ToolOutputLimits bounds every tool: merge them into one, with '
            'per_tool={...} for the tools that need other bands. To run two on purpose, give each its own id= '
            'and read_tool_name=.'
        )

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # bands hold action objects and callables: not expressible in an agent spec

    @property
    def overflow_store(self) -> OverflowStore:
        """The store spills go to (the default `LocalFileStore` is created on first use)."""
        if self.store is not None:
            return self.store
        if self._default_store is None:
            self._default_store = LocalFileStore()
        return self._default_store

    async def for_run(self, ctx: RunContext[AgentDepsT]) -> ToolOutputLimits[AgentDepsT]:
        run_copy = copy.copy(self)
        run_copy._run = _RunState()
        if self.store is None:
            # Share one default store across runs so later runs can read earlier spills.
            run_copy._default_store = self._default_store = self.overflow_store
        return run_copy

    def get_toolset(self) -> AgentToolset[AgentDepsT] | None:
        return build_read_toolset(
            lambda: self.overflow_store,
            name=self.read_tool_name,
            layouts=self._layouts,
            ledger=self._ledger,
            # Named for the message pydantic-ai gives when another tool already has the read tool's name.
            toolset_id=(
                f'ToolOutputLimits(id={self.id!r}) read tool {self.read_tool_name!r}; rename it with read_tool_name='
            ),
        )

    async def before_model_request(
        self, ctx: RunContext[AgentDepsT], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        run = self._run
        if run.tokens_saved_by_tool:
            run.avoided_in_request = tuple((tool, n) for tool, n in run.tokens_saved_by_tool.items() if n > 0)
            telemetry.report_resend_avoided(run.avoided_in_request)
        else:
            run.avoided_in_request = ()
        return request_context

    async def after_model_request(
        self, ctx: RunContext[AgentDepsT], *, request_context: ModelRequestContext, response: ModelResponse
    ) -> ModelResponse:
        cost = record_response(response, ctx.run_id)
        avoided = self._run.avoided_in_request
        if cost is not None and avoided:
            record_avoided(cost, avoided)
        return response

    async def after_run(self, ctx: RunContext[AgentDepsT], *, result: AgentRunResult[Any]) -> AgentRunResult[Any]:
        record_run_end(ctx.run_id, agent_label(ctx))
        return result

    async def after_tool_execute(
        self,
        ctx: RunContext[AgentDepsT],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: dict[str, Any],
        result: Any,
    ) -> Any:
        if is_read_tool(tool_def.metadata):
            return result  # read-back output is already bounded; reducing it would loop
        if self.tool_filter != 'all' and not await matches_tool_selector(self.tool_filter, ctx, tool_def):
            return result
        tool_name = call.tool_name
        bands = self._per_tool.get(tool_name, self._bands)
        reported = (tool_name, agent_label(ctx))
        if reported not in self._thresholds_reported:
            # Per agent and tool, the thresholds that really apply: dashboards draw them over the tool's sizes,
            # and two agents that bound one tool differently each show their own.
            self._thresholds_reported.add(reported)
            thresholds = ((b.over, b.action.name) for b in bands)
            telemetry.report_bands(tool_name, thresholds, self._measurer.size_unit, agent=reported[1])
        if type(result) is str and self._measurer.plain_chars and (not bands or len(result) < bands[-1].over):
            # The common case, kept cheap: a short text return is measured and let through.
            telemetry.report_passthrough(tool_name, len(result), 'chars')
            return result
        key = f'{ctx.run_id or "run"}/{call.tool_call_id}.{ctx.retry}'
        if isinstance(result, ToolReturn):
            tool_return = cast('ToolReturn[Any]', result)
            return await self._reduce_tool_return(ctx, tool_return, bands, tool_name, call.tool_call_id, key)
        return await self._reduce_value(ctx, result, bands, tool_name, call.tool_call_id, 'return_value', key)

    async def _reduce_tool_return(
        self,
        ctx: RunContext[AgentDepsT],
        result: ToolReturn[Any],
        bands: tuple[Band, ...],
        tool_name: str,
        tool_call_id: str,
        key: str,
    ) -> ToolReturn[Any]:
        return_value = await self._reduce_value(
            ctx, result.return_value, bands, tool_name, tool_call_id, 'return_value', key
        )
        content = result.content
        if isinstance(content, str):
            content = await self._reduce_value(
                ctx, content, bands, tool_name, tool_call_id, 'content', f'{key}.content'
            )
        elif content is not None:
            content = await self._reduce_content_items(ctx, list(content), bands, tool_name, tool_call_id, key)
        if return_value is result.return_value and content is result.content:
            return result
        return dataclasses.replace(result, return_value=return_value, content=content)

    async def _reduce_content_items(
        self,
        ctx: RunContext[AgentDepsT],
        items: list[Any],
        bands: tuple[Band, ...],
        tool_name: str,
        tool_call_id: str,
        key: str,
    ) -> list[Any]:
        """Text items are reduced together in place; non-text items are stored whole or left whole, never cut."""
        text_positions = [i for i, item in enumerate(items) if isinstance(item, str)]
        out = list(items)
        if text_positions:
            text = '\n'.join(items[i] for i in text_positions)
            reduced = await self._reduce_value(ctx, text, bands, tool_name, tool_call_id, 'content', f'{key}.content')
            if reduced is not text:
                out[text_positions[0]] = reduced
                for i in reversed(text_positions[1:]):
                    del out[i]
        for index, item in enumerate(list(out)):
            if not is_binary(item):
                continue
            reduced = await self._reduce_value(
                ctx, item, bands, tool_name, tool_call_id, 'content', f'{key}.content.{index}'
            )
            if reduced is item and _pick(bands, len(getattr(item, 'data', b''))) is not None:
                warnings.warn(
                    f'ToolOutputLimits left a {len(item.data):,}-byte non-text content item of tool {tool_name!r} '
                    'whole: multimodal content cannot be cut, and no Spill in its band chain stored it.',
                    UserWarning,
                    stacklevel=2,
                )
            out[index] = reduced
        return out

    async def _reduce_value(
        self,
        ctx: RunContext[AgentDepsT],
        value: Any,
        bands: tuple[Band, ...],
        tool_name: str,
        tool_call_id: str,
        part: PartName,
        key: str,
    ) -> Any:
        unit = self._measurer.unit(value, tool_name=tool_name, tool_call_id=tool_call_id, part=part, key=key)
        band = _pick(bands, unit.size)
        if band is None or isinstance(band.action, Passthrough):
            telemetry.report_passthrough(tool_name, unit.size, unit.size_unit)
            return unit.value
        if self.serializer is None:
            unit.lay_out_in_lines()
        with telemetry.reduce_span() as span:
            reduced, hops = await self._apply(band.action, unit, _Env(self, ctx, tool_call_id))
            decision = self._decision(unit, band, reduced, hops)
            span.finish(decision)
        if reduced.handle is not None:
            # Remembered so that a read-back of this handle counts against the tool whose stand-in it was.
            shape = reduced.details.get(telemetry_names.TOOL_OUTPUT_PREVIEW_SHAPE)
            self._ledger.spilled(reduced.handle, tool_name, shape if isinstance(shape, str) else 'none')
        if decision.tokens_saved:
            saved = self._run.tokens_saved_by_tool
            saved[tool_name] = saved.get(tool_name, 0) + decision.tokens_saved
        return reduced.output

    async def _apply(self, action: ReductionAction, unit: Unit, env: _Env) -> tuple[Reduced, tuple[Hop, ...]]:
        """Run `action`, walking its `then` chain on failure.

        When every action of the chain fails, text still never reaches the model unbounded: a last-resort cut
        by position, which cannot fail, says so in its marker. Binary output is kept verbatim.
        """
        hops: list[Hop] = []
        current: ReductionAction = action
        while True:
            try:
                return await current.apply(unit, env), tuple(hops)
            except Exception as error:
                following = current.then
                self._warn_once(env.ctx, unit, current, error, following)
                reason = type(error).__name__
                if following is not None:
                    hops.append(Hop(current.name, following.name, reason))
                    current = following
                    continue
                if unit.text is None:
                    hops.append(Hop(current.name, 'none', reason))
                    return Reduced(unit.value, 'unchanged'), tuple(hops)
                hops.append(Hop(current.name, LAST_RESORT, reason))
                chain = '>'.join([hops[0].from_action, *(hop.to_action for hop in hops[:-1])])
                hint = (
                    f'Every action configured for this output failed ({chain}), so this cut keeps both ends and the '
                    'rest was not kept: call the tool again with a narrower request.'
                )
                cut = cut_text(unit.text, LAST_RESORT_MAX_CHARS, TruncationStrategy.head_tail, hint=hint)
                return Reduced(cut.text, 'truncate'), tuple(hops)

    def _warn_once(
        self,
        ctx: RunContext[Any],
        unit: Unit,
        action: ReductionAction,
        error: Exception,
        following: ReductionAction | None,
    ) -> None:
        """Log a failed action once per run, tool, action and exception type: what failed, what then, what to check."""
        cause = (unit.tool_name, action.name, type(error).__name__)
        if cause in self._run.warned:
            return
        self._run.warned.add(cause)
        if following is not None:
            instead = f'fell back to {following.name}'
        elif unit.text is not None:
            instead = 'every action of its band failed, so the output was cut by position as a last resort'
        else:
            instead = 'every action of its band failed; the binary output was left whole'
        detail = str(error).strip().splitlines()[0][:200] if str(error).strip() else ''
        _log.warning(
            'ToolOutputLimits: %s failed on the output of tool %r (%s%s); %s. Check %s. Further failures like this '
            'one in this run are counted in the tool_output.fallbacks metric only.',
            action.name,
            unit.tool_name,
            type(error).__name__,
            f': {detail}' if detail else '',
            instead,
            action.check_on_failure,
        )

    @staticmethod
    def _decision(unit: Unit, band: Band, reduced: Reduced, hops: tuple[Hop, ...]) -> Decision:
        output = reduced.output
        if isinstance(output, str) and output is not unit.value:
            output_chars = len(output)
            output_bytes = utf8_size(output)
        else:
            output_chars = unit.chars
            output_bytes = unit.original_bytes
        original_bytes = unit.original_bytes
        return Decision(
            tool=unit.tool_name,
            tool_call_id=unit.tool_call_id,
            part=unit.part,
            size=unit.size,
            size_unit=unit.size_unit,
            original_chars=unit.chars,
            original_bytes=original_bytes,
            band_over=band.over,
            action=band.action.name,
            outcome=reduced.outcome,
            hops=hops,
            handle=reduced.handle,
            content_hash=unit.content_hash,
            output_chars=output_chars,
            bytes_saved=max(0, original_bytes - output_bytes),
            details=reduced.details,
        )
