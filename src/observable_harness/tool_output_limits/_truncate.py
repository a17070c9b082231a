"""`Truncate`: cut text to a budget, with a marker saying what was cut, of how much, and how to get more."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .._text.cut import TruncationStrategy, cut_text
from ._actions import ActionUnavailable, Reduced, ReductionAction, ReductionEnv
from ._payload import Unit

__all__ = ['MIN_TRUNCATE_CHARS', 'Truncate']

MIN_TRUNCATE_CHARS = 200
"""Below this a truncation cannot carry both a useful excerpt and its full marker."""


@dataclass(frozen=True)
class Truncate(ReductionAction):
    """Cut text down to `max_chars`, with a marker saying what was cut, of how much, and how to get more.

    ```python
    from observable_harness.tool_output_limits import Truncate, TruncationStrategy

    Truncate(strategy=TruncationStrategy.tail, max_chars=4_000)
    ```
    """

    name: ClassVar[str] = 'truncate'
    check_on_failure: ClassVar[str] = 'the payload: binary output cannot be cut as text (give it a Spill)'

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
        if unit.text is None:
            raise ActionUnavailable('binary payload cannot be cut as text')
        result = cut_text(unit.text, self.max_chars, self.strategy)
        if not result.was_cut:
            return Reduced(unit.value, 'unchanged')
        return Reduced(result.text, 'truncate')
