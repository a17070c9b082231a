"""Bands and the actions they run: the configuration vocabulary of `ToolOutputLimits`.

A band says "from this measured size up, do this". Each action is a small frozen dataclass that
knows how to reduce one unit of tool output and which action takes over (`then`) when it cannot.
New actions (the bounded-output building blocks, a user's own) subclass `ReductionAction`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, TypeAlias

from opentelemetry.util.types import AttributeValue
from pydantic_ai.models import KnownModelName, Model
from pydantic_ai.tools import RunContext

if TYPE_CHECKING:
    from .payload import Unit

__all__ = [
    'ActionUnavailable',
    'Band',
    'Passthrough',
    'Reduced',
    'ReductionAction',
    'ReductionEnv',
    'Spill',
    'Summarize',
    'SummarizeFunc',
    'Truncate',
    'TruncationStrategy',
]

Outcome: TypeAlias = str
"""What was applied in the end: `truncate`, `spill`, `summarize`, `unchanged`, or an extension's name."""

SummarizeFunc: TypeAlias = Callable[[str, str], 'str | Awaitable[str]']
"""`summarize(tool_name, text) -> summary`, sync or async: replaces the built-in model prompt."""

MIN_TRUNCATE_CHARS = 200
"""Below this a truncation cannot carry both a useful excerpt and its full marker."""


class TruncationStrategy(StrEnum):
    """Which end(s) of an oversized text a `Truncate` keeps."""

    head = 'head'
    """The first characters: headers, schemas, the top of a file."""
    tail = 'tail'
    """The last characters: builds and test runs print the failure and the summary last."""
    head_tail = 'head_tail'
    """Both ends, the middle cut (`Truncate`'s default): position only, for output you know nothing about."""
    salient = 'salient'
    """Lines by class first and position second: the last line, the first error, results and summaries,
    the other errors, then the tail and the head (what the default bands use; see `bounded.salient`)."""


class ActionUnavailable(Exception):
    """An action cannot run on this unit (a binary payload for a text action, no store, ...).

    Raising it (or any exception) from `ReductionAction.apply` hands the unit to the action's `then`.
    """


@dataclass(frozen=True, slots=True)
class Reduced:
    """What an action made of a unit."""

    output: Any
    """What the model sees in place of the unit (usually a stand-in string)."""
    outcome: Outcome
    """The action that was applied, as a low-cardinality name."""
    handle: str | None = None
    """Where the full payload was stored, when it was."""
    details: Mapping[str, AttributeValue] = field(default_factory=dict[str, AttributeValue])
    """Extra span attributes from the action (catalog keys; counts and names only, never content)."""


class ReductionEnv(Protocol):
    """What the capability lends an action while it reduces one unit."""

    @property
    def ctx(self) -> RunContext[Any]:
        """The tool call's run context (run id, model, usage, usage limits)."""
        ...

    @property
    def read_tool_name(self) -> str:
        """The name the model knows the read-back tool by in this run."""
        ...

    @property
    def summary_prompt(self) -> str:
        """The capability's `summary_prompt` template (`{tool_name}`, `{output}`)."""
        ...

    async def store(self, unit: Unit, data: bytes, *, key: str | None = None) -> str:
        """Write `data` for `unit` to the overflow store and return its handle; raise when the store fails.

        `key` overrides the default per-call key (run id, tool call id, retry, part).
        """
        ...


class ReductionAction(ABC):
    """Base of every band action: reduce one unit, or raise so that `then` takes over."""

    name: ClassVar[str]
    """Low-cardinality action name used in telemetry labels and fallback chains."""

    then: ReductionAction | None
    """The action applied when this one cannot run (store raises, binary payload, model error)."""

    @abstractmethod
    async def apply(self, unit: Unit, env: ReductionEnv) -> Reduced:
        """Reduce `unit`, or raise (`ActionUnavailable` or any exception) to hand it to `then`."""


@dataclass(frozen=True)
class Passthrough(ReductionAction):
    """Leave the matching return untouched: an explicit no-op for `bands` and `per_tool` lists.

    ```python
    from observable_harness.tool_output_limits import Band, Passthrough, Truncate

    bands = [Band(over=50_000, action=Truncate()), Band(over=0, action=Passthrough())]
    ```
    """

    name: ClassVar[str] = 'passthrough'
    then: ReductionAction | None = field(default=None, init=False, repr=False)

    async def apply(self, unit: Unit, env: ReductionEnv) -> Reduced:
        return Reduced(unit.value, 'unchanged')


@dataclass(frozen=True)
class Truncate(ReductionAction):
    """Cut text down to `max_chars`, with a marker saying what was cut, of how much, and how to get more.

    ```python
    from observable_harness.tool_output_limits import Truncate, TruncationStrategy

    Truncate(strategy=TruncationStrategy.tail, max_chars=4_000)
    ```
    """

    name: ClassVar[str] = 'truncate'

    strategy: TruncationStrategy = TruncationStrategy.head_tail
    """Which end(s) to keep; `head_tail` keeps both, which is safest when nothing is known about the tool."""

    max_chars: int = 4_000
    """Characters the model sees, marker included, whatever unit the band measured in (~1,000 tokens)."""

    then: ReductionAction | None = None
    """Used when the payload is binary: cutting bytes as text would corrupt it."""

    def __post_init__(self) -> None:
        if self.max_chars < MIN_TRUNCATE_CHARS:
            raise ValueError(
                f'Truncate.max_chars must be at least {MIN_TRUNCATE_CHARS} so the excerpt and its marker both fit; '
                f'got {self.max_chars}.'
            )
        if not isinstance(self.strategy, TruncationStrategy):  # pyright: ignore[reportUnnecessaryIsInstance]
            object.__setattr__(self, 'strategy', TruncationStrategy(self.strategy))

    async def apply(self, unit: Unit, env: ReductionEnv) -> Reduced:
        from .truncate import truncate_unit

        return truncate_unit(self, unit, env)


@dataclass(frozen=True)
class Spill(ReductionAction):
    """Store the whole payload and show the model a short stand-in it can page from.

    The stand-in carries the total size, the handle, how to read it back with the run's read tool, a
    one-line shape sketch for structured values and a head+tail preview. Lossless when the store
    accepts the write; `then` decides what happens when it does not.

    ```python
    from observable_harness.tool_output_limits import Spill, Truncate

    Spill(preview_chars=1_000, then=Truncate())
    ```
    """

    name: ClassVar[str] = 'spill'

    preview_chars: int = 1_000
    """Characters of preview in the stand-in: enough to see what the output is and what went wrong."""

    preview: TruncationStrategy = TruncationStrategy.salient
    """How text previews choose lines: `salient` (errors, results, first and last lines) or by position
    (`head_tail`, `head`, `tail`). Structured values always preview both ends of their JSON."""

    then: ReductionAction | None = None
    """Used when the store raises (full disk, unwritable root, backend down)."""

    def __post_init__(self) -> None:
        if self.preview_chars < 0:
            raise ValueError(f'Spill.preview_chars must be >= 0; got {self.preview_chars}.')
        if not isinstance(self.preview, TruncationStrategy):  # pyright: ignore[reportUnnecessaryIsInstance]
            object.__setattr__(self, 'preview', TruncationStrategy(self.preview))

    async def apply(self, unit: Unit, env: ReductionEnv) -> Reduced:
        from .spill import spill_unit

        return await spill_unit(self, unit, env)


@dataclass(frozen=True)
class Summarize(ReductionAction):
    """Replace the payload with a model-written summary; the request's usage is billed to the run.

    ```python
    from observable_harness.tool_output_limits import Spill, Summarize, Truncate

    Summarize(then=Spill(then=Truncate()))  # summarize, else spill, else truncate
    ```
    """

    name: ClassVar[str] = 'summarize'

    model: Model | KnownModelName | str | None = None
    """Model for the summary request; `None` uses the run's own model."""

    summarize: SummarizeFunc | None = None
    """`(tool_name, text) -> summary`, sync or async, instead of the built-in prompt and model."""

    then: ReductionAction | None = None
    """Used when the payload is binary or the summary request raises (including a usage limit)."""

    max_summary_chars: int = 4_000
    """A summary longer than this is cut (with a marker): a runaway summary must not refill the window."""

    async def apply(self, unit: Unit, env: ReductionEnv) -> Reduced:
        from .summarize import summarize_unit

        return await summarize_unit(self, unit, env)


SizeUnit: TypeAlias = Literal['chars', 'tokens']


@dataclass(frozen=True)
class Band:
    """From a measured size of `over` up, run `action`.

    Among the bands whose threshold a return reaches, the largest threshold wins; below the
    smallest threshold a return passes through untouched.

    ```python
    from observable_harness.tool_output_limits import Band, Spill, Truncate

    bands = [Band(over=100_000, action=Spill()), Band(over=5_000, action=Truncate())]
    ```
    """

    over: int
    """Threshold in the capability's size unit (characters, or tokens with `over_tokens=True`)."""

    action: ReductionAction
    """What to do with a return at least this large."""

    def __post_init__(self) -> None:
        if self.over < 0:
            raise ValueError(f'Band.over must be >= 0; got {self.over}.')
        if not isinstance(self.action, ReductionAction):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f'Band.action must be an action such as Spill(), Truncate(), Summarize() or Passthrough(); '
                f'got {self.action!r}.'
            )
