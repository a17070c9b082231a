"""observable-harness: capabilities for pydantic-ai agents that keep oversized tool output and
instruction fade from eating the context window, and report every decision through OpenTelemetry.
"""

from __future__ import annotations

from .system_reminders import SystemReminders

__version__ = '0.1.0'

__all__ = ['SystemReminders', '__version__']
