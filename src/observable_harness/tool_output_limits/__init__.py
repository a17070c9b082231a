"""ToolOutputLimits: reduce oversized tool returns once, when they are produced.

```python
from observable_harness.tool_output_limits import (Band, Spill, Summarize, Truncate, Passthrough,
    TruncationStrategy, LocalFileStore, ObjectStore, OverflowStore, indented_json, json_lines)
```

The stores are also importable from `observable_harness.storage`, where they live.
"""

from __future__ import annotations

from .._nested_run import UnknownModelWarning
from .._text.cut import TruncationStrategy
from .._text.layout import Serializer, Tokenizer, compact_json, indented_json, json_lines
from ..storage import (
    ForbiddenHandle,
    InvalidHandle,
    LocalFileStore,
    ObjectStore,
    OverflowStore,
    OverflowStoreWarning,
    StoreError,
    UnknownHandle,
    UnsafeStoreRoot,
)
from ._actions import ActionUnavailable, Passthrough, Reduced, ReductionAction, ReductionEnv, StoreInProgress
from ._bands import Band
from ._capability import DEFAULT_BANDS, ToolOutputLimits
from ._payload import Unit
from ._read_tool import build_read_toolset
from ._spill import Spill
from ._summarize import DEFAULT_SUMMARY_PROMPT, Summarize, SummarizeFunc
from ._truncate import Truncate

__all__ = [
    'DEFAULT_BANDS',
    'DEFAULT_SUMMARY_PROMPT',
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
    'Serializer',
    'Spill',
    'StoreError',
    'StoreInProgress',
    'Summarize',
    'SummarizeFunc',
    'Tokenizer',
    'ToolOutputLimits',
    'Truncate',
    'TruncationStrategy',
    'Unit',
    'UnknownHandle',
    'UnknownModelWarning',
    'UnsafeStoreRoot',
    'build_read_toolset',
    'compact_json',
    'indented_json',
    'json_lines',
]
