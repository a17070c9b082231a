"""ToolOutputLimits: reduce oversized tool returns once, when they are produced."""

from __future__ import annotations

from .bands import (
    ActionUnavailable,
    Band,
    Passthrough,
    Reduced,
    ReductionAction,
    ReductionEnv,
    Spill,
    Summarize,
    Truncate,
    TruncationStrategy,
)
from .capability import DEFAULT_BANDS, ToolOutputLimits
from .payload import Unit, compact_json, indented_json, json_lines
from .store import LocalFileStore, OverflowStore

__all__ = [
    'DEFAULT_BANDS',
    'ActionUnavailable',
    'Band',
    'LocalFileStore',
    'OverflowStore',
    'Passthrough',
    'Reduced',
    'ReductionAction',
    'ReductionEnv',
    'Spill',
    'Summarize',
    'ToolOutputLimits',
    'Truncate',
    'TruncationStrategy',
    'Unit',
    'compact_json',
    'indented_json',
    'json_lines',
]
