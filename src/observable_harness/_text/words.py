"""Small pieces of English the messages share: counted nouns and lines cut in the middle."""

from __future__ import annotations

__all__ = ['plural', 'shorten_middle']


def plural(count: int, noun: str) -> str:
    """`1 line`, `2 lines`, `1,024 chars`: a count with its noun, plural when the count is not one."""
    return f'{count:,} {noun}{"" if count == 1 else "s"}'


def shorten_middle(line: str, limit: int, *, head_share: float = 0.5, snap: bool = False) -> tuple[str, int]:
    """`line` cut by its middle to at most `limit` characters with the cut stated (`head …[N chars cut]… tail`),
    and how many of its characters remain.

    `head_share` is the part of what is kept that comes from the start. Lines within `limit` come back as they
    are; a limit too small for the marker still keeps a character at each end. With `snap`, a cut that would split
    a word (a version, a path's part, a number) moves to the word's edge when that is a few characters away: the
    result may then run up to `2 * SNAP_CHARS` characters over `limit`.
    """
    if len(line) <= limit:
        return line, len(line)
    keep = max(limit - len(f' …[{len(line):,} chars cut]… '), 2)
    if keep >= len(line):
        return line, len(line)  # a line of a character or two: the marker would be all that is cut
    head = max(int(keep * head_share), 1)
    tail = keep - head
    if not snap:
        return f'{line[:head]} …[{len(line) - head - tail:,} chars cut]… {line[len(line) - tail :]}', head + tail
    # A cut through a word loses what the word was: the kept start runs on to the end of the word it stops in, and
    # the kept end back to the start of its first word.
    head = _word_end(line, head)
    start = len(line) - tail
    if start > head:
        start = _word_start(line, start, head)
    tail = len(line) - start
    if head + tail >= len(line):
        return line, len(line)
    return f'{line[:head]} …[{len(line) - head - tail:,} chars cut]… {line[len(line) - tail :]}', head + tail


SNAP_CHARS = 12
"""Characters a cut moves, at most, to end the kept start of a line at the end of a word rather than inside it."""


def _word_end(line: str, at: int) -> int:
    """Where the word `line[at - 1]` is in ends, if within `SNAP_CHARS` of `at`; `at` when it ends there already or
    runs on further."""
    if at <= 0 or at >= len(line) or line[at - 1].isspace() or line[at].isspace():
        return at
    stop = at
    limit = min(len(line), at + SNAP_CHARS)
    while stop < limit and not line[stop].isspace():
        stop += 1
    return stop if stop < limit or stop == len(line) else at


def _word_start(line: str, at: int, floor: int) -> int:
    """Where the word `line[at]` is in starts (a path's part, after its `/`), if within `SNAP_CHARS` of `at` and after
    `floor`; `at` when it starts there already or further back."""
    if at <= floor or at >= len(line) or line[at].isspace() or line[at - 1].isspace():
        return at
    start = at
    limit = max(floor, at - SNAP_CHARS)
    while start > limit and not line[start - 1].isspace() and line[start - 1] != '/':
        start -= 1
    # A path's last parts are words too: `report_builder.py` of `/srv/app/jobs/report_builder.py`.
    return start if start > limit or line[start - 1].isspace() or line[start - 1] == '/' else at
