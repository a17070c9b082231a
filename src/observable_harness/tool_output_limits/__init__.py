"""ToolOutputLimits: reduce oversized tool returns once, when they are produced."""

from __future__ import annotations

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
    'ForbiddenHandle',
    'InvalidHandle',
    'LocalFileStore',
    'OverflowStore',
    'OverflowStoreWarning',
    'StoreError',
    'UnknownHandle',
    'UnsafeStoreRoot',
]
