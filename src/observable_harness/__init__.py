"""observable-harness: capabilities for pydantic-ai agents that keep oversized tool output and
instruction fade from eating the context window, and report every decision through OpenTelemetry.
"""

from __future__ import annotations

from .tool_output_limits import ToolOutputLimits

__version__ = '0.1.0'

__all__ = ['ToolOutputLimits', '__version__']
