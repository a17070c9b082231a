"""Small pieces of English the messages share: counted nouns and lines cut in the middle."""

from __future__ import annotations

__all__ = ['plural', 'shorten_middle']


def plural(count: int, noun: str) -> str:
    """`1 line`, `2 lines`, `1,024 chars`: a count with its noun, plural when the count is not one."""
    return f'{count:,} {noun}{"" if count == 1 else "s"}'


def shorten_middle(line: str, limit: int, *, head_share: float = 0.5) -> tuple[str, int]:
    """`line` cut by its middle to at most `limit` characters with the cut stated (`head …[N chars cut]… tail`),
    and how many of its characters remain.

    `head_share` is the part of what is kept that comes from the start. Lines within `limit` come back as they
    are; a limit too small for the marker still keeps a character at each end.
    """
    if len(line) <= limit:
        return line, len(line)
    keep = max(limit - len(f' …[{len(line):,} chars cut]… '), 2)
    head = max(int(keep * head_share), 1)
    tail = keep - head
    return f'{line[:head]} …[{len(line) - head - tail:,} chars cut]… {line[len(line) - tail :]}', head + tail
