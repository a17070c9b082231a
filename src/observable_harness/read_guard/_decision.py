"""What the read guard decided about one tool call."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ['GuardDecision']


@dataclass(frozen=True, slots=True)
class GuardDecision:
    """One guard decision, in names and counts (the message is for the model, never for telemetry)."""

    refused: bool
    reason: str
    """Refusals: `whole_file_read`, `range_over_limit`, `shell_dump`. Passes: `addressed`, `small_file`,
    `not_a_file`, `no_dump`, `unparsed`."""
    lines: int | None = None
    """Lines the refused read would have returned (a lower bound for huge files)."""
    message: str | None = None
