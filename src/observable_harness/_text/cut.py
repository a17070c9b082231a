"""The truncation contract: cap the text, say that it was cut and by how much, say how to get the rest.

A cut without the second part is a silent defect: the model believes it sees everything. So every
cut made here carries a marker stating the characters cut, the characters kept at each end and
the size of the whole, and the marker's characters count against the budget they live in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .intent import Intent
    from .preview import Preview


__all__ = ['NOT_KEPT_HINT', 'Cut', 'MarkerTooLarge', 'TruncationStrategy', 'cut_text', 'excerpt', 'read_instructions']


class TruncationStrategy(StrEnum):
    """Which end(s) of an oversized text a `Truncate` keeps."""

    head = 'head'
    """The first characters: headers, schemas, the top of a file."""
    tail = 'tail'
    """The last characters: builds and test runs print the failure and the summary last."""
    head_tail = 'head_tail'
    """Both ends, the middle cut (`Truncate`'s default): position only, for output you know nothing about."""
    salient = 'salient'
    """Lines chosen, not cut by position: the last line, the lines the request names (with what makes
    them readable: a table's header, a commit, a traceback), what the output's shape needs, then errors,
    results and the ends (what the default bands use; see `_text.preview`)."""


class MarkerTooLarge(ValueError):
    """The budget cannot hold even the truncation marker."""


def read_instructions(read_tool_name: str, handle: str) -> str:
    """How the model reads a stored payload back, naming the read tool as it is known in this run."""
    return (
        f"Read it with {read_tool_name}(handle='{handle}', offset=0, limit=200); "
        "from_end=True pages from the end, pattern='...' keeps only lines containing that text."
    )


NOT_KEPT_HINT = (
    'The full output was not kept: to see the rest, call the tool again with a narrower request '
    '(an offset/limit, a more specific pattern or filter).'
)
SHORT_HINT = 'Ask the tool more narrowly for the rest.'
"""The hint a tight budget gets instead of `NOT_KEPT_HINT`: the marker must leave room for content."""
_MARKER_SHARE = 0.5
"""A marker may take at most this share of `max_chars`; beyond it the hint gets shorter, then goes."""
_MIN_SALIENT_BUDGET = 200
"""Below this, a salient cut could show a line or two at most: cut by position instead."""
_SNAP_WINDOW = 0.2
"""Move a cut to a line break when one lies within this share of the kept span: whole lines read better."""


@dataclass(frozen=True, slots=True)
class Cut:
    """The result of cutting a text to a budget; `kept_chars + cut_chars == total_chars`."""

    text: str
    """What the model sees: kept excerpt(s) and the marker."""
    total_chars: int
    kept_chars: int
    """Characters of the original shown (at the ends, or in the lines a salient cut kept)."""
    cut_chars: int
    head_chars: int = 0
    """For positional cuts, the kept characters at the start (the rest of `kept_chars` is at the end)."""
    preview: Preview | None = None
    """For a salient cut, what chose its lines (shape, intent counts); never content to record."""

    @property
    def tail_chars(self) -> int:
        return self.kept_chars - self.head_chars

    @property
    def was_cut(self) -> bool:
        return self.cut_chars > 0


def _snap_head(text: str, end: int) -> int:
    """Pull the end of a head excerpt back to just after a line break, if one is near."""
    if end <= 0 or end >= len(text):
        return end
    newline = text.rfind('\n', max(0, int(end * (1 - _SNAP_WINDOW))), end)
    return newline + 1 if newline >= 0 else end


def _snap_tail(text: str, start: int) -> int:
    """Push the start of a tail excerpt forward to just after a line break, if one is near."""
    if start <= 0 or start >= len(text):
        return start
    span = len(text) - start
    newline = text.find('\n', start, start + max(1, int(span * _SNAP_WINDOW)))
    return newline + 1 if newline >= 0 else start


def excerpt(text: str, budget: int, strategy: TruncationStrategy) -> tuple[int, int]:
    """Characters to keep at the head and at the tail so that together they fit `budget` (positional strategies)."""
    budget = max(0, min(budget, len(text)))
    if strategy is TruncationStrategy.head:
        return _snap_head(text, budget), 0
    if strategy is TruncationStrategy.tail:
        start = _snap_tail(text, len(text) - budget)
        return 0, len(text) - start
    head = _snap_head(text, budget - budget // 2)
    start = _snap_tail(text, len(text) - budget // 2)
    start = max(start, head)
    return head, len(text) - start


def _marker(strategy: TruncationStrategy, *, total: int, head: int, tail: int, cut: int, hint: str) -> str:
    if strategy is TruncationStrategy.head:
        kept = f'kept the first {head:,}'
    elif strategy is TruncationStrategy.tail:
        kept = f'kept the last {tail:,}'
    else:
        kept = f'kept the first {head:,} and the last {tail:,}'
    return f'[… truncated: {cut:,} of {total:,} chars cut, {kept}.{" " + hint if hint else ""} …]'


def _fitting_hint(max_chars: int, hint: str, marker: Callable[[str], str]) -> str:
    """`hint`, or a shorter one, or none: whichever keeps the widest marker within its share of the budget."""
    for candidate in (hint, SHORT_HINT):
        if len(marker(candidate)) <= max_chars * _MARKER_SHARE:
            return candidate
    return ''


def cut_text(
    text: str,
    max_chars: int,
    strategy: TruncationStrategy,
    *,
    hint: str = NOT_KEPT_HINT,
    intent: Intent | None = None,
) -> Cut:
    """Cut `text` to at most `max_chars` characters, marker included.

    A salient cut keeps the lines `intent` asks for first (see `preview.select_preview`); positional
    strategies ignore it.

    >>> result = cut_text('x' * 10_000, 400, TruncationStrategy.head_tail)
    >>> len(result.text) <= 400, result.head_chars + result.cut_chars + result.tail_chars
    (True, 10000)
    """
    total = len(text)
    if total <= max_chars:
        return Cut(text, total, total, 0, total)
    if strategy is TruncationStrategy.salient:
        return _salient_cut(text, max_chars, hint, intent)
    # The marker's length depends on the numbers it states, which depend on the room it leaves:
    # size it with the widest numbers it could carry, then keep what is left.
    hint = _fitting_hint(
        max_chars, hint, lambda h: _marker(strategy, total=total, head=total, tail=total, cut=total, hint=h)
    )
    widest = _marker(strategy, total=total, head=total, tail=total, cut=total, hint=hint)
    budget = max_chars - len(widest) - 2  # the marker sits on its own line
    if budget < 0:
        raise MarkerTooLarge(f'max_chars={max_chars} cannot hold the truncation marker')
    head, tail = excerpt(text, budget, strategy)
    cut = total - head - tail
    marker = _marker(strategy, total=total, head=head, tail=tail, cut=cut, hint=hint)
    pieces: list[str] = []
    if head:
        pieces.append(text[:head] if text[head - 1] == '\n' else text[:head] + '\n')
    pieces.append(marker)
    if tail:
        pieces.append('\n' + text[total - tail :])
    return Cut(''.join(pieces), total, head + tail, cut, head)


def _salient_marker(*, total: int, kept: int, units: int, total_units: int, unit: str, places: int, hint: str) -> str:
    return (
        f'[… truncated by selection: {total - kept:,} of {total:,} chars cut in {places:,} '
        f'place{"" if places == 1 else "s"}, '
        f'kept {kept:,} chars in {units:,} of {total_units:,} {unit}s '
        '(what the request names, what the shape needs, errors, results, the ends).'
        f'{" " + hint if hint else ""} …]'
    )


def _salient_cut(text: str, max_chars: int, hint: str, intent: Intent | None) -> Cut:
    """Lines by request, shape and class: the marker goes on top, since the kept lines are spread over the text."""
    total = len(text)

    def widest_marker(h: str) -> str:
        return _salient_marker(
            total=total, kept=total, units=total, total_units=total, unit='record', places=total, hint=h
        )

    hint = _fitting_hint(max_chars, hint, widest_marker)
    widest = widest_marker(hint)
    budget = max_chars - len(widest) - 1
    if budget < _MIN_SALIENT_BUDGET:
        # Too small for lines to be chosen among: a positional cut still keeps both ends.
        return cut_text(text, max_chars, TruncationStrategy.head_tail, hint=hint)
    from .preview import select_preview  # the preview machinery loads with the first cut that needs it

    preview = select_preview(text, budget, intent=intent)
    marker = _salient_marker(
        total=total,
        kept=preview.kept_chars,
        units=preview.kept_lines,
        total_units=preview.total_lines,
        unit=preview.unit,
        places=preview.places,
        hint=hint,
    )
    return Cut(f'{marker}\n{preview.text}', total, preview.kept_chars, preview.cut_chars, preview=preview)
