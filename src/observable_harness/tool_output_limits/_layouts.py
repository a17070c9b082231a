"""The row layouts of the last few large payloads read back, kept so that paging one does not redo the work."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import xxhash

from .._text.paging import Grid, decode

__all__ = ['DEFAULT_READ_CACHE_BYTES', 'Layout', 'LayoutCache']

DEFAULT_READ_CACHE_BYTES = 64 * 1024 * 1024
"""The default of `ToolOutputLimits.read_cache_bytes`."""


@dataclass(frozen=True, slots=True)
class Layout:
    grid: Grid
    total_chars: int
    lossy: bool
    memory: int
    """Estimated bytes held: the text and its line objects."""


class LayoutCache:
    """The row layouts of the last few large payloads read, by content.

    A model pages through a large spill one call at a time, and the store hands back the whole payload
    on every call: decoding and splitting 10 MB into lines costs ~40 ms, hashing it ~1 ms. Payloads
    under `min_bytes` are laid out afresh (it costs less than hashing them); at most `max_entries`
    layouts are kept, taking at most `max_bytes` of memory in all by estimate (the text, and ~64 bytes
    per line for its string object), the least recently read dropped first. `max_bytes=0` keeps none.
    """

    LINE_OVERHEAD = 64

    def __init__(
        self, *, min_bytes: int = 256 * 1024, max_bytes: int = DEFAULT_READ_CACHE_BYTES, max_entries: int = 4
    ) -> None:
        self.min_bytes, self.max_bytes, self.max_entries = min_bytes, max_bytes, max_entries
        self._entries: OrderedDict[tuple[bytes, int, int], Layout] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0

    def layout(self, data: bytes, width: int) -> Layout:
        if len(data) < self.min_bytes or len(data) > self.max_bytes:
            return self._build(data, width)
        key = (xxhash.xxh3_128_digest(data), len(data), width)
        with self._lock:
            cached = self._entries.get(key)
            if cached is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return cached
        built = self._build(data, width)
        if built.memory > self.max_bytes:
            return built
        with self._lock:
            if key not in self._entries:
                self._entries[key] = built
                self._bytes += built.memory
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= dropped.memory
        return built

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def cached_bytes(self) -> int:
        """Estimated memory the kept layouts hold."""
        return self._bytes

    @classmethod
    def _build(cls, data: bytes, width: int) -> Layout:
        text, lossy = decode(data)
        grid = Grid(text, width)
        return Layout(grid, len(text), lossy, len(data) + cls.LINE_OVERHEAD * len(grid.lines))
