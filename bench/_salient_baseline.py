"""The salient excerpt stand-ins used before intent and shape: kept here as the baseline `bench_preview.py` times.

Lines of an oversized output chosen when only a few fit, by class only.

A head+tail cut by position hides an error that sits in the middle and spends its budget on
preamble. Here lines are chosen by what losing them risks: the last line (exit status, result),
the first error of a cascade, summary and result lines (latest first), the other errors, the first
line for context; only then plain lines from the tail (where command output puts its cause) and
the head, and last of all repeated and progress lines, so a spare budget is not left empty. Kept
lines stay in their original order; each run of lines left out is marked `[… N lines …]`.

The cost stays bounded on the hot path: lines are classified only in a head and a tail window,
the middle is searched for a few literal error markers (C-speed scans) over at most `scan_limit`
characters nearest the tail, and lines are located by scanning for line breaks around what is
kept, never by splitting the whole payload.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from observable_harness._text.lines import LineClass, alert_class, classify_lines
from observable_harness._text.scan import first_occurrences
from observable_harness._text.words import shorten_middle

__all__ = ['Excerpt', 'salient_excerpt']

HEAD_WINDOW = 24
"""Lines classified at the start: banners, the command, the first error of a build."""
TAIL_WINDOW = 96
"""Lines classified at the end: short summaries, the result line, the exit status, the last traceback."""
MIDDLE_MARKERS = ('ERROR', 'Error', 'error', 'FAIL', 'Traceback', 'Exception', 'FATAL', 'panic')
"""Literal markers searched between the windows; a hit's line is then classified like any other."""
MAX_MIDDLE_HITS = 200
_GAP = '[… {count:,} line{s} …]'
_WIDEST_GAP = len(_GAP.format(count=10**9, s='s'))


@dataclass(frozen=True, slots=True)
class Excerpt:
    """Kept lines, in order, with `[… N lines …]` where lines were left out."""

    text: str
    total_chars: int
    kept_chars: int
    """Characters of the original the excerpt shows: kept lines, their line breaks, shortened lines' kept parts."""
    total_lines: int
    kept_lines: int
    gaps: int
    """Places where lines were left out."""

    @property
    def cut_chars(self) -> int:
        """`total_chars - kept_chars`: what the excerpt does not show."""
        return self.total_chars - self.kept_chars


@dataclass(frozen=True, slots=True)
class _Line:
    start: int
    end: int
    """Exclusive; the line break (if any) sits at `end`."""


def _gap(count: int) -> str:
    return _GAP.format(count=count, s='' if count == 1 else 's')


class _Text:
    """Line lookups over one payload without splitting it."""

    __slots__ = ('end', 'text', 'trailing_newline')

    def __init__(self, text: str) -> None:
        self.text = text
        self.trailing_newline = text.endswith('\n')
        self.end = len(text) - 1 if self.trailing_newline else len(text)
        """End of the last line's content (a final line break does not open another line)."""

    def head(self, limit: int) -> list[_Line]:
        out: list[_Line] = []
        start = 0
        while start <= self.end and len(out) < limit:
            newline = self.text.find('\n', start, self.end)
            stop = self.end if newline == -1 else newline
            out.append(_Line(start, stop))
            start = stop + 1
        return out

    def tail(self, limit: int, floor: int) -> list[_Line]:
        out: list[_Line] = []
        stop = self.end
        while stop >= floor and len(out) < limit:
            newline = self.text.rfind('\n', floor, stop)
            start = newline + 1 if newline != -1 else floor
            out.append(_Line(start, stop))
            if newline == -1:
                break
            stop = newline
        out.reverse()
        return out

    def line_at(self, position: int) -> _Line:
        start = self.text.rfind('\n', 0, position) + 1
        newline = self.text.find('\n', position, self.end)
        return _Line(start, self.end if newline == -1 else newline)

    def content(self, line: _Line) -> str:
        return self.text[line.start : line.end]

    def lines_between(self, start: int, stop: int) -> int:
        """Lines wholly inside `[start, stop)` when `start` begins a line and `stop` ends one (before its break).

        `start == stop` is one empty line, not none: a blank line left out is still a line left out.
        """
        if stop < start:
            return 0
        return self.text.count('\n', start, stop) + 1


def salient_excerpt(text: str, budget: int, *, max_line_chars: int = 400, scan_limit: int = 512 * 1024) -> Excerpt:
    """At most `budget` characters of `text`, lines chosen by class first and position second.

    >>> log = '\\n'.join(['$ make test'] + [f'test {i} ok' for i in range(500)] + ['ERROR: 1 test failed', 'exit=2'])
    >>> excerpt = salient_excerpt(log, 150)
    >>> print(excerpt.text)  # the error and the status first; lines of one shape only fill what is left
    $ make test
    [… 493 lines …]
    test 493 ok
    test 494 ok
    test 495 ok
    test 496 ok
    test 497 ok
    test 498 ok
    test 499 ok
    ERROR: 1 test failed
    exit=2
    >>> excerpt.kept_chars + excerpt.cut_chars == len(log)
    True
    """
    total = len(text)
    view = _Text(text)
    if total <= budget:
        total_lines = text.count('\n') + (0 if view.trailing_newline else 1) if text else 0
        return Excerpt(text, total, total, total_lines, total_lines, 0)
    head = view.head(HEAD_WINDOW)
    head_stop = head[-1].end if head else 0
    tail = view.tail(TAIL_WINDOW, head_stop + 1)
    window = head + tail
    classes: dict[int, LineClass] = dict(
        zip(
            (line.start for line in window),
            classify_lines([view.content(line) for line in window]).classes,
            strict=True,
        )
    )
    spans: dict[int, _Line] = {line.start: line for line in window}
    middle_start, middle_stop = head_stop, tail[0].start if tail else view.end
    # Only errors, warnings and summaries of the middle count: those checks alone, once per distinct line.
    seen: dict[str, LineClass | None] = {}
    for line in _middle_hits(view, max(middle_start, middle_stop - scan_limit), middle_stop):
        content = view.content(line)
        if content in seen:
            line_class = seen[content]
        else:
            line_class = seen[content] = alert_class(content)
        if line_class is not None:
            classes[line.start] = line_class
            spans[line.start] = line

    ranked: list[tuple[int, int]] = []  # (rank, -start or start): lower sorts first
    nonblank = [start for start in spans if view.content(spans[start]).strip()]
    if nonblank:
        ranked.append((0, -max(nonblank)))  # the last line: exit status, result
        ranked.append((4, min(nonblank)))  # the first line: what this output is
    errors = sorted(start for start, c in classes.items() if c is LineClass.error)
    if errors:
        ranked.append((1, errors[0]))  # the first error of a cascade names the cause
    tail_start = tail[0].start if tail else total
    for start, line_class in classes.items():
        if line_class is LineClass.summary or (line_class is LineClass.error and start >= tail_start):
            ranked.append((2, -start))  # results and short summaries: latest first
        elif line_class is LineClass.error:
            ranked.append((3, start))
        elif line_class is LineClass.warning:
            ranked.append((5, start))
    plain = (LineClass.normal, LineClass.stack)
    ranked += [(6, -line.start) for line in tail if classes.get(line.start) in plain]
    ranked += [(7, line.start) for line in head if classes.get(line.start) in plain]
    # Budget still left: noise (repeats, progress) beats an empty screen, nearest the ends first.
    noise = (LineClass.repeated, LineClass.progress)
    ranked += [(8, -line.start) for line in tail if classes.get(line.start) in noise]
    ranked += [(9, line.start) for line in head if classes.get(line.start) in noise]
    ranked.sort()

    kept = _choose(view, spans, ranked, budget, max_line_chars)
    # The render counts the lines in each gap; with the kept lines that is every line, counted once.
    rendered, shown_chars, gaps, gap_lines = _render(view, spans, kept)
    total_lines = gap_lines + len(kept)
    if len(rendered) > budget:  # not even one gap marker fits: show nothing rather than break the budget
        return Excerpt('', total, 0, total_lines, 0, 0)
    return Excerpt(rendered, total, min(shown_chars, total), total_lines, len(kept), gaps)


def _choose(
    view: _Text, spans: dict[int, _Line], ranked: list[tuple[int, int]], budget: int, max_line_chars: int
) -> dict[int, tuple[str, int]]:
    """Take lines in rank order while an upper bound of the rendered size stays within `budget`.

    The bound counts every gap marker at its widest, so the lines in each gap need not be counted
    (a scan of the text) until the final render; it is kept up to date as lines are added.
    """
    kept: dict[int, tuple[str, int]] = {}
    order: list[int] = []  # kept starts, sorted
    past_end = view.end + 1
    size = _WIDEST_GAP  # nothing kept yet: one gap stands for the whole text
    for _, key in ranked:
        start = abs(key)
        if start in kept:
            continue
        shown = shorten_middle(view.content(spans[start]), max_line_chars, head_share=2 / 3)
        at = bisect_left(order, start)
        before = spans[order[at - 1]].end + 1 if at else 0
        after = order[at] if at < len(order) else past_end
        gaps_delta = (start > before) + (after > spans[start].end + 1) - (after > before)
        grown = size + len(shown[0]) + 1 + gaps_delta * (_WIDEST_GAP + 1)
        if grown > budget:
            continue
        kept[start] = shown
        order.insert(at, start)
        size = grown
    return kept


def _has(text: str, char: str, seen: dict[str, bool]) -> bool:
    found = seen.get(char)
    if found is None:
        found = seen[char] = char in text
    return found


def _middle_hits(view: _Text, begin: int, end: int) -> list[_Line]:
    found: dict[int, _Line] = {}
    if end <= begin:
        return []
    present: dict[str, bool] = {}
    # With an engine, one scan says where each marker first occurs (most occur nowhere in a healthy log);
    # without, a character missing from the whole text rules a marker out at memchr speed (`E` from a
    # log with no capitals, say), where scanning for the marker costs ~0.4 ms per 512 KB.
    first = first_occurrences(view.text, MIDDLE_MARKERS, begin, end)
    for marker in MIDDLE_MARKERS:
        if first is not None:
            position = first.get(marker, -1)
        elif not all(_has(view.text, char, present) for char in marker):
            continue
        else:
            position = view.text.find(marker, begin, end)
        while position != -1 and len(found) < MAX_MIDDLE_HITS:
            line = view.line_at(position)
            found[line.start] = line
            position = view.text.find(marker, line.end + 1, end)
    return [found[start] for start in sorted(found)]


def _render(view: _Text, spans: dict[int, _Line], kept: dict[int, tuple[str, int]]) -> tuple[str, int, int, int]:
    """The excerpt, the characters of the original it shows, its gaps, and the lines in those gaps."""
    out: list[str] = []
    shown_chars = 0
    gaps = 0
    gap_lines = 0
    cursor = 0  # start of the first line not yet accounted for
    for start in sorted(kept):
        skipped = view.lines_between(cursor, start - 1) if start > cursor else 0
        if skipped:
            out.append(_gap(skipped))
            gaps += 1
            gap_lines += skipped
        shown, kept_chars = kept[start]
        out.append(shown)
        line = spans[start]
        has_break = line.end < len(view.text) and view.text[line.end] == '\n'
        shown_chars += kept_chars + (1 if has_break else 0)
        cursor = line.end + 1
    if cursor <= view.end:
        remaining = view.lines_between(cursor, view.end)
        if remaining:
            out.append(_gap(remaining))
            gaps += 1
            gap_lines += remaining
    return '\n'.join(out), shown_chars, gaps, gap_lines
