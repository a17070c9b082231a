"""System reminders: targeted guidance re-stated during long runs, at the ephemeral tail of each request.

`SystemReminders` is the capability; `Reminder` is static guidance on a cadence; `GoalReanchor` and `LLMReminder` are
ready-made dynamic reminders.
"""

from __future__ import annotations

from .._nested_run import UnknownModelWarning
from ._capability import SystemReminders
from ._llm_reminder import LLMReminder
from ._reminders import DynamicReminder, GoalReanchor, Reminder, ReminderTrigger

__all__ = [
    'DynamicReminder',
    'GoalReanchor',
    'LLMReminder',
    'Reminder',
    'ReminderTrigger',
    'SystemReminders',
    'UnknownModelWarning',
]
