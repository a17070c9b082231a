"""ToolOutputLimits: reduce oversized tool returns once, when they are produced.

```python
from observable_harness.tool_output_limits import (Band, Spill, Summarize, Truncate, Passthrough,
    TruncationStrategy, LocalFileStore, ObjectStore, OverflowStore, indented_json, json_lines)
```
"""

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
from .object_store import ObjectStore
from .payload import Unit, compact_json, indented_json, json_lines
from .store import (
    ForbiddenHandle,
    InvalidHandle,
    LocalFileStore,
    OverflowStore,
    OverflowStoreWarning,
    StoreError,
    UnknownHandle,
    UnsafeStoreRoot,
)

__all__ = [
    'DEFAULT_BANDS',
    'ActionUnavailable',
    'Band',
    'ForbiddenHandle',
    'InvalidHandle',
    'LocalFileStore',
    'ObjectStore',
    'OverflowStore',
    'OverflowStoreWarning',
    'Passthrough',
    'Reduced',
    'ReductionAction',
    'ReductionEnv',
    'Spill',
    'StoreError',
    'Summarize',
    'ToolOutputLimits',
    'Truncate',
    'TruncationStrategy',
    'Unit',
    'UnknownHandle',
    'UnsafeStoreRoot',
    'compact_json',
    'indented_json',
    'json_lines',
]
