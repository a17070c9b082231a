"""The extension API of `ToolOutputLimits`: what a band's action is, what it gets, what it returns.

Each action is a small frozen dataclass that knows how to reduce one unit of tool output and which
action takes over (`then`) when it cannot. New actions (the bounded-output building blocks, a user's
own) subclass `ReductionAction`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeAlias

from opentelemetry.util.types import AttributeValue
from pydantic_ai.tools import RunContext

if TYPE_CHECKING:
    from .._text.intent import Intent


from ._payload import Unit

__all__ = [
    'ActionUnavailable',
    'Outcome',
    'Passthrough',
    'Reduced',
    'ReductionAction',
    'ReductionEnv',
    'StoreInProgress',
]

Outcome: TypeAlias = str
"""What was applied in the end: `truncate`, `spill`, `summarize`, `unchanged`, or an extension's name."""


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


class StoreInProgress(Protocol):
    """A store `ReductionEnv.begin_store` began on a worker thread: awaited, it gives the handle."""

    def __await__(self) -> Generator[Any, Any, str]: ...

    def hand_over(self) -> None:
        """Let the worker take the GIL for its next step that releases it (the secret scan, the write), if it
        is running: call it between steps of work of your own on the event loop, which holds the GIL meanwhile.

        CPython hands the GIL to a waiting thread only every few milliseconds unless its holder blocks: without
        this, the worker waits for the end of the caller's work instead of scanning and writing beside it.
        Waits a fraction of a millisecond at most, and not at all once the worker was not there when last asked.
        """
        ...


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
    def intent(self) -> Intent:
        """What the model is looking for: terms from this call's arguments, the text and thinking of the
        response that made it, and the user prompt. Never sent anywhere; empty when nothing names anything."""
        ...

    @property
    def summary_prompt(self) -> str:
        """The capability's `summary_prompt` template (`{tool_name}`, `{output}`)."""
        ...

    async def store(self, unit: Unit, data: bytes, *, key: str | None = None, scrub: bool = True) -> str:
        """Write `data` for `unit` to the overflow store and return its handle; raise when the store fails.

        `key` overrides the default per-call key (run id, tool call id, retry, part). With `scrub` the
        capability's `scrubber` replaces secrets first; an action that scrubs with a scrubber of its
        own (or was told to store verbatim) passes `scrub=False`, so each write is scrubbed exactly once.
        """
        ...

    def begin_store(self, unit: Unit) -> StoreInProgress:
        """Start storing the whole of `unit` now, and return what to await for its handle.

        What `store(unit, unit.data)` does, begun at once on a worker thread: encoding, scrubbing and
        hashing the payload there, and the write too when the store can write from a thread, so the
        caller can build what the model will see on the event loop meanwhile (handing the worker the
        GIL between its steps, see `StoreInProgress.hand_over`). Awaiting raises what a failed write raised.
        """
        ...


class ReductionAction(ABC):
    """Base of every band action: reduce one unit, or raise so that `then` takes over."""

    name: ClassVar[str]
    """Low-cardinality action name used in telemetry labels and fallback chains."""

    check_on_failure: ClassVar[str] = 'the exception above'
    """What to look at when this action fails, for the warning logged once per run and cause."""

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
