"""`Band`: from a measured size up, run an action."""

from __future__ import annotations

from dataclasses import dataclass

from ._actions import ReductionAction

__all__ = ['Band']


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
        if isinstance(self.over, bool) or not isinstance(self.over, int):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f'Band.over must be a whole number of characters (or tokens), like over=10_000; got {self.over!r}.'
            )
        if self.over < 0:
            raise ValueError(f'Band.over must be >= 0; got {self.over}.')
        if not isinstance(self.action, ReductionAction):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f'Band.action must be an action such as Spill(), Truncate(), Summarize() or Passthrough(); '
                f'got {self.action!r}.'
            )
