"""The immutable records `SystemReminders` hands to the telemetry layer: the capability decides, telemetry reports.

They carry only what telemetry may carry: names, kinds, counts, sizes, a hash and reasons, never the
reminder text itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RETRY_PART_KINDS = frozenset({'retry-prompt', 'retry-feedback'})
"""`part_kind`s of the parts that ask the model to retry a tool call (the name changed across pydantic-ai releases)."""

ReminderKind = Literal['static', 'dynamic', 'goal_reanchor', 'llm']
"""How a reminder was produced; the `kind` label of `system_reminders.fired`."""

CachePointReason = Literal['attached', 'no_content', 'already_marked']
"""Why a CachePoint was (`attached`) or was not placed before the reminder.

`no_content`: nothing precedes the reminder that a breakpoint could attach to (an instructions-only first request).
`already_marked`: the request already ends in a CachePoint, so a second breakpoint would only spend the provider's
breakpoint budget.
"""


@dataclass(frozen=True, slots=True)
class FiredReminder:
    """One reminder that fired on a request step."""

    name: str
    """Low-cardinality label: `Reminder.name`, `reminder-<hash>` for an unnamed one, or a dynamic reminder's
    function or class name."""
    kind: ReminderKind


@dataclass(frozen=True, slots=True)
class Injection:
    """One outgoing request that carried the ephemeral reminder tail."""

    request: int
    """The run's request-step number (1-based) the reminders fired on."""
    fired: tuple[FiredReminder, ...]
    chars: int
    """Characters of the reminder text as sent."""
    content_hash: str
    """`"<algorithm>:<hex>"` of the reminder text, so identical reminders can be matched without their text."""
    cache_point: bool
    cache_point_reason: CachePointReason


@dataclass(frozen=True, slots=True)
class Generation:
    """One `LLMReminder` generation attempt, successful or fallen back."""

    model: str
    """Model name, as a low-cardinality label."""
    input_tokens: int
    output_tokens: int
    fallback: bool
    fallback_reason: str | None
    """Exception type name (`UsageLimitExceeded` when the budget was too tight to try, `empty` for a blank answer)."""
