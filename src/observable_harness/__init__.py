"""observable-harness: capabilities for pydantic-ai agents that keep oversized tool output and
instruction fade from eating the context window, and report every decision through OpenTelemetry.
"""

from __future__ import annotations

from ._version import __version__
from .system_reminders import SystemReminders
from .tool_output_limits import ToolOutputLimits

__all__ = ['SystemReminders', 'ToolOutputLimits', '__version__']
