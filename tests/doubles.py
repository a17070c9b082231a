"""The test doubles every test shares: a store in memory and a store that fails."""

from __future__ import annotations

from observable_harness.storage import UnknownHandle


class MemoryStore:
    """An `OverflowStore` in a dict, keyed as written, so a test can look at exactly what was stored."""

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}
        self.writes = 0

    async def write(self, key: str, data: bytes) -> str:
        self.writes += 1
        self.data[key] = data
        return key

    async def read(self, handle: str) -> bytes:
        try:
            return self.data[handle]
        except KeyError:
            raise UnknownHandle('nothing is stored under this handle') from None


class BrokenStore:
    """A store whose every write and read raises `error` (by default, a full disk)."""

    def __init__(self, error: Exception | None = None) -> None:
        self.error = error if error is not None else OSError(28, 'No space left on device')
        self.writes = 0

    async def write(self, key: str, data: bytes) -> str:
        self.writes += 1
        raise self.error

    async def read(self, handle: str) -> bytes:
        raise self.error
