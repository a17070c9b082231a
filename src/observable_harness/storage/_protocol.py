"""Where spilled tool output lives: the `OverflowStore` protocol and the errors every store raises.

A store maps a key the capability builds (`<run_id>/<tool_call_id>.<retry>`, plus `.content` for a
`ToolReturn.content` unit) to a *handle*: a relative key the model quotes back to
`read_tool_result`. Handles are never absolute paths, so a store in another process (an object
store, a shared workspace) can resolve the same handle.

Every store raises the same exceptions on `read`, so read-back can tell the model what went wrong
without knowing which store it talks to:

- `InvalidHandle`: the handle is malformed (empty, a NUL byte, too long, too many segments).
- `ForbiddenHandle`: the handle or what it resolves to leaves the store (`..`, an absolute path, a
  link pointing outside, something that is not a regular file).
- `UnknownHandle`: well-formed and inside the store, but nothing is stored under it.
- `UnsafeStoreRoot`: the store refuses to use its root at all (a symlink, owned by another user).

All four derive from `StoreError`. A failing `write` raises whatever went wrong (`OSError` for a
full disk or a read-only root); the capability then applies the band's `then` action.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

__all__ = ['ForbiddenHandle', 'InvalidHandle', 'OverflowStore', 'StoreError', 'UnknownHandle', 'UnsafeStoreRoot']


@runtime_checkable
class OverflowStore(Protocol):
    """Where `Spill` puts a full payload, and where `read_tool_result` reads it back.

    Implement both methods to keep spilled output elsewhere (a blob store, a shared volume). `read`
    should raise the exceptions of this module (`UnknownHandle`, `ForbiddenHandle`, `InvalidHandle`)
    so the model is told what went wrong; anything else it raises reaches the model as a failed read.

    ```python
    from observable_harness.storage import OverflowStore, UnknownHandle


    class MemoryStore:
        def __init__(self) -> None:
            self.blobs: dict[str, bytes] = {}

        async def write(self, key: str, data: bytes) -> str:
            self.blobs[key] = data
            return key

        async def read(self, handle: str) -> bytes:
            try:
                return self.blobs[handle]
            except KeyError:
                raise UnknownHandle(handle) from None


    assert isinstance(MemoryStore(), OverflowStore)
    ```
    """

    async def write(self, key: str, data: bytes) -> str:
        """Store `data` under `key` and return the handle the model will use to read it back."""
        ...

    async def read(self, handle: str) -> bytes:
        """Return exactly the bytes written under `handle`."""
        ...


class StoreError(Exception):
    """Base of every error an overflow store raises on purpose."""


class InvalidHandle(StoreError, ValueError):
    """The handle (or key) is malformed: empty, contains a NUL byte, too long or too deeply nested."""


class ForbiddenHandle(StoreError):
    """The handle, or what it resolves to, leaves the store: `..`, an absolute path, an outward link."""


class UnknownHandle(StoreError, LookupError):
    """The handle is well-formed and inside the store, but nothing is stored under it."""


class UnsafeStoreRoot(StoreError):
    """The store's root directory failed a safety check, so the store reads and writes nothing."""
