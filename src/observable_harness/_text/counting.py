"""How many line breaks a stretch of text holds, counted with SIMD where the `fast` extra is installed.

A preview states how many lines each gap it leaves holds, so that the numbers add up to the whole: for a
megabyte that is a count of every line break in it. `str.count('\\n')` runs at about 2.5 GB/s here (a
megabyte's line breaks cost ~0.4 ms, the largest single step of a spill's preview); StringZilla, installed
with the `fast` extra, counts the same three to four times faster on real output.

StringZilla reads a `str` as its UTF-8. An ASCII string's characters are their UTF-8 already, so it reads them
in place and its offsets are the string's; any other string would get a UTF-8 copy kept beside it for as long
as it lives, and offsets in bytes. Only ASCII text is handed to it; the rest, and short stretches (where the
call costs more than the count), are counted by `str.count`. Both give the same numbers; the tests run each.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import cast

__all__ = ['SIMD_FROM', 'newlines', 'simd_available']

SIMD_FROM = 16 * 1024
"""Characters from which a stretch is counted with StringZilla: below it, dense short lines count faster in
`str.count` than the call into it costs."""

_Count = Callable[[str, str, int, int], int]


def _simd_count() -> _Count | None:
    try:
        module = import_module('stringzilla')
    except ImportError:
        return None
    count = getattr(module, 'count', None)
    return cast('_Count', count) if callable(count) else None


_SIMD: _Count | None = _simd_count()
"""StringZilla's `count`, or None when it is not installed."""


def simd_available() -> bool:
    """Whether long ASCII stretches are counted with StringZilla."""
    return _SIMD is not None


def newlines(text: str, start: int = 0, end: int | None = None) -> int:
    """`text.count('\\n', start, end)`, for `0 <= start` and `end` at most `len(text)` (or None: the end)."""
    stop = len(text) if end is None else end
    count = _SIMD
    if count is not None and stop - start >= SIMD_FROM and text.isascii():
        return count(text, '\n', start, stop)
    return text.count('\n', start, stop)
