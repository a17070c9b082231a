"""Where spilled tool output lives: the `OverflowStore` protocol, its errors, and two stores.

- `LocalFileStore`: one file per payload under a private per-user directory (the default).
- `ObjectStore`: one object per payload under an S3/GCS/Azure/`file://`/`memory://` prefix, through
  fsspec (the `objectstore` or `s3` extra), so every worker of a fleet reads the same handles.

Any object with `async write(key, data) -> handle` and `async read(handle) -> bytes` is a store.
"""

from __future__ import annotations

from ._files import MAX_HANDLE_CHARS, default_root
from ._local import LocalFileStore
from ._object import S3_DEFAULT_OPTIONS, ObjectStore
from ._protocol import ForbiddenHandle, InvalidHandle, OverflowStore, StoreError, UnknownHandle, UnsafeStoreRoot
from ._pruning import OverflowStoreWarning
from ._records import PruneRecord
from ._scrubbing import report_redactions, scrub_before_write, scrub_utf8

__all__ = [
    'MAX_HANDLE_CHARS',
    'S3_DEFAULT_OPTIONS',
    'ForbiddenHandle',
    'InvalidHandle',
    'LocalFileStore',
    'ObjectStore',
    'OverflowStore',
    'OverflowStoreWarning',
    'PruneRecord',
    'StoreError',
    'UnknownHandle',
    'UnsafeStoreRoot',
    'default_root',
    'report_redactions',
    'scrub_before_write',
    'scrub_utf8',
]
