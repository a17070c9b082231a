"""Condensing: class before position.

Dropping what is known to be noise is cheap and precise; cutting by position is blind and as likely
to take the cause as the noise. So `condense` first applies a level's table, cheapest class first,
stopping as soon as the output fits; only if it still does not fit does it cut by position, inside
each section, keeping both ends of the section (more of the end for command output, more of the
start for reports) and never an error or result line while anything else is left to cut. Whatever
it removed, one marker line at the top says so: by class and count, and how to get the original.

```python
from observable_harness.bounded import condense

log = '\\n'.join([*(f'Downloading part {i} ... 100%' for i in range(400)), 'error: disk full', 'exit=1'])
result = condense(log, level='daily', max_chars=600)
assert 'error: disk full' in result.text and result.text.startswith('[condensed')
```
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from .levels import COLLAPSE_ENDS, Fate, Level, get_level
from .lines import RISK_ORDER, Classification, LineClass, classify_lines, is_section_header
from .words import plural, shorten_middle

__all__ = [
    'DEFAULT_MORE',
    'MIN_CONDENSE_CHARS',
    'CondensePlan',
    'CondenseReport',
    'Condensed',
    'Keep',
    'plan_condense',
    'unchanged',
    'validate_condense',
]

Keep: TypeAlias = Literal['auto', 'tail', 'head', 'both']
"""Which end of a section a positional cut favours. `auto`: `head` for reports and headed files
(JSON, Markdown, YAML, XML, a structured return), `tail` for everything else (command output)."""

MIN_CONDENSE_CHARS = 600
"""Below this the marker (classes, counts, how to get the original) would crowd out the output."""

_PINNED = frozenset({LineClass.error, LineClass.summary})
"""Classes a positional cut takes only when nothing else is left to cut."""

_HEAD_SHARE: Mapping[str, float] = {'tail': 0.25, 'head': 0.75, 'both': 0.5}
_CHEAPEST_FIRST: tuple[LineClass, ...] = tuple(reversed(RISK_ORDER))
_HEADED_STARTS = ('{', '[', '#', '---', '<?xml', '<!DOCTYPE', '<html', '%YAML')
_MAX_LAYOUT_ATTEMPTS = 8


@dataclass(frozen=True, slots=True)
class CondenseReport:
    """What one condensing did, in counts only (what telemetry and tests read)."""

    level: str
    keep: str
    """The end a positional cut favoured: `tail`, `head` or `both` (`auto` resolved)."""
    lines_in: int
    lines_out: int
    """Lines of the result, marker and inline count lines included."""
    chars_in: int
    chars_out: int
    kept: Mapping[LineClass, int]
    """Original lines shown verbatim (or shortened in the middle), per class."""
    collapsed: Mapping[LineClass, int]
    """Lines folded into an inline count line, per class."""
    dropped: Mapping[LineClass, int]
    """Lines removed by the level's table, per class."""
    cut: Mapping[LineClass, int]
    """Lines removed by the positional cut, per class."""
    gaps: int
    """Places where the positional cut removed lines (each marked inline)."""
    shortened: int
    """Lines longer than `max_line_chars` whose middle was cut."""

    @property
    def changed(self) -> bool:
        return self.lines_in != sum(self.kept.values()) or self.shortened > 0

    @property
    def positional_cut(self) -> int:
        return sum(self.cut.values())


@dataclass(frozen=True, slots=True)
class Condensed:
    """A condensed text and the report of what was removed."""

    text: str
    report: CondenseReport
    classification: Classification = field(repr=False)
    """Classes of the original lines: retention reads it to tell a probable failure."""


class _Entry:
    """One line of the result being built: an original line, or a fold/gap line standing for several."""

    __slots__ = ('index', 'kind', 'members', 'run', 'text')

    def __init__(
        self, text: str, index: int, run: LineClass, kind: LineClass | None, members: list[int] | None = None
    ) -> None:
        self.text = text
        self.index = index
        """Original line index, or -1 for a fold line."""
        self.run = run
        """The class whose runs this entry belongs to (a repeat belongs to the run of what it repeats)."""
        self.kind = kind
        """The line's own class, or for a fold line the class whose step made it (None: a silent fold)."""
        self.members = members
        """Original line indices a fold line stands for."""


_FATES = ('kept', 'collapsed', 'dropped', 'cut')


class CondensePlan:
    """The work of one condensing, ready to be rendered once the caller knows how to offer the original."""

    def __init__(
        self,
        *,
        text: str,
        lines: list[str],
        classification: Classification,
        level: Level,
        keep: str,
        max_chars: int,
        shortened: int,
    ) -> None:
        self.original = text
        self.lines = lines
        self.classification = classification
        self.level = level
        self.keep = keep
        self.max_chars = max_chars
        self.shortened = shortened
        self.gaps = 0
        classes = classification.classes
        self.fates: list[str] = ['kept'] * len(lines)
        # Kept current by `_set_fate`, so the marker is cheap to rebuild after every step.
        self.tally: dict[str, dict[LineClass, int]] = {fate: {} for fate in _FATES}
        self.tally['kept'] = dict(classification.counts())
        self.headers = {index for index, line in enumerate(lines) if is_section_header(line)}
        # A step for a class no line has is skipped: repeats count as their own class and as their base's.
        self.present = set(classification.bases) | set(classification.classes)
        self._entries: list[_Entry] = []
        self._chars = 0
        self.entries = [
            _Entry(line, index, classification.bases[index], classes[index]) for index, line in enumerate(lines)
        ]

    @property
    def entries(self) -> list[_Entry]:
        return self._entries

    @entries.setter
    def entries(self, entries: list[_Entry]) -> None:
        self._entries = entries
        self._chars = sum(len(entry.text) for entry in entries) + max(len(entries) - 1, 0)

    # --- rendering -----------------------------------------------------------------------------

    def report(self, text: str) -> CondenseReport:
        return CondenseReport(
            level=self.level.name,
            keep=self.keep,
            lines_in=len(self.lines),
            lines_out=text.count('\n') + 1 if text else 0,
            chars_in=len(self.original),
            chars_out=len(text),
            kept=_nonzero(self.tally['kept']),
            collapsed=_nonzero(self.tally['collapsed']),
            dropped=_nonzero(self.tally['dropped']),
            cut=_nonzero(self.tally['cut']),
            gaps=self.gaps,
            shortened=self.shortened,
        )

    def marker(self, more: str, *, cut: Mapping[LineClass, int] | None = None, gaps: int | None = None) -> str:
        """The marker line; `cut` and `gaps` override the current counts (to size a worst case)."""
        parts = [
            f'[condensed · level {self.level.name}',
            f'{len(self.lines):,} → {len(self._entries):,} lines, {len(self.original):,} → {self._chars:,} chars',
        ]
        parts.extend(
            f'{fate} {_by_class(self.tally[fate])}'
            for fate in ('dropped', 'collapsed')
            if any(self.tally[fate].values())
        )
        cut = self.tally['cut'] if cut is None else cut
        gaps = self.gaps if gaps is None else gaps
        total = sum(cut.values())
        if total:
            parts.append(
                f'cut by position (kept the {self.keep}) {plural(total, "line")} in '
                f'{plural(gaps, "place")}: {_by_class(cut)}'
            )
        if self.shortened:
            parts.append(f'{plural(self.shortened, "long line")} cut in the middle')
        parts.append(more)
        return ' · '.join(parts) + ']'

    def render(self, more: str) -> str:
        body = '\n'.join(entry.text for entry in self._entries)
        text = f'{self.marker(more)}\n{body}'
        if len(text) > self.max_chars:
            text = self._hard_cut(text)
        return text

    def _hard_cut(self, text: str) -> str:
        # Only reachable when pinned lines and inline marks alone overflow: keep the bound regardless.
        first_line_end = text.index('\n') + 1
        marker, body = text[:first_line_end], text[first_line_end:]
        budget = self.max_chars - len(marker) - 40
        if budget <= 0:
            return marker[: self.max_chars - 1] + ']'
        head = int(budget * _HEAD_SHARE[self.keep])
        tail = budget - head
        mark = f'\n[… {len(body) - head - tail:,} chars cut …]\n'
        return marker + body[:head] + mark + body[len(body) - tail :]

    # --- class steps ---------------------------------------------------------------------------

    def fits(self, more: str) -> bool:
        return self._chars + len(self.marker(more)) + 1 <= self.max_chars

    def apply_class(self, line_class: LineClass) -> None:
        fate = self.level.fate(line_class)
        if fate is Fate.keep or line_class not in self.present:
            return
        if fate is Fate.drop:
            self._drop(line_class)
        else:
            self._collapse(line_class)

    def _belongs(self, entry: _Entry, line_class: LineClass) -> bool:
        # Repeats are their own class for the `repeated` step and part of their run for every other step.
        if line_class is LineClass.repeated:
            return entry.kind is LineClass.repeated
        return entry.run is line_class

    def _drop(self, line_class: LineClass) -> None:
        kept: list[_Entry] = []
        for entry in self._entries:
            if self._belongs(entry, line_class):
                self._set_fate(entry, 'dropped')
            else:
                kept.append(entry)
        self.entries = kept

    def _collapse(self, line_class: LineClass) -> None:
        head, tail = COLLAPSE_ENDS[line_class]
        out: list[_Entry] = []
        run: list[_Entry] = []
        for entry in self._entries:
            if self._belongs(entry, line_class):
                run.append(entry)
                continue
            if run:
                self._fold(run, line_class, head, tail, out)
                run = []
            out.append(entry)
        if run:
            self._fold(run, line_class, head, tail, out)
        self.entries = out

    def _fold(self, run: list[_Entry], line_class: LineClass, head: int, tail: int, out: list[_Entry]) -> None:
        silent = line_class is LineClass.blank
        # Folding must save lines: a count line that replaces one line only adds noise.
        if len(run) <= head + tail + (0 if silent else 1):
            out.extend(run)
            return
        members: list[int] = []
        for entry in run[head : len(run) - tail]:
            if entry.members is not None:
                members.extend(entry.members)
            else:
                members.append(entry.index)
                self._set_fate(entry, 'collapsed')
        out.extend(run[:head])
        if not silent:
            noun = 'similar line' if line_class is LineClass.repeated else f'{line_class.value} line'
            out.append(_Entry(f'[… {plural(len(members), noun)} …]', -1, run[0].run, line_class, members))
        out.extend(run[len(run) - tail :])

    def _set_fate(self, entry: _Entry, fate: str) -> None:
        indices = entry.members if entry.members is not None else (entry.index,)
        classes = self.classification.classes
        for index in indices:
            old = self.fates[index]
            if old == fate:
                continue
            line_class = classes[index]
            self.tally[old][line_class] -= 1
            self.tally[fate][line_class] = self.tally[fate].get(line_class, 0) + 1
            self.fates[index] = fate

    # --- position ------------------------------------------------------------------------------

    def cut_by_position(self, more: str) -> None:
        entries = self._entries
        pinned = [self._pinned(entry) for entry in entries]
        pinned_chars = sum(len(entry.text) + 1 for entry, pin in zip(entries, pinned, strict=True) if pin)
        budget = self.max_chars - len(self._worst_marker(more, entries, pinned)) - 1
        if pinned_chars > budget:
            # Errors and results alone overflow: they too are cut by position, the chosen end first.
            pinned = [False] * len(entries)
            pinned_chars = 0
            budget = self.max_chars - len(self._worst_marker(more, entries, pinned)) - 1
        # The marker is sized for the worst case up front, so only the inline gap marks can overflow
        # a layout; each retry takes their cost out of the space left for loose lines.
        available = budget - pinned_chars
        layout, cut, gaps = self._layout(entries, pinned, max(available, 0))
        for _ in range(_MAX_LAYOUT_ATTEMPTS):
            overflow = _chars_of(layout) - budget
            if overflow <= 0 or available <= 0:
                break
            available -= overflow
            layout, cut, gaps = self._layout(entries, pinned, max(available, 0))
        self.entries = layout
        self.gaps = gaps
        for entry in cut:
            self._set_fate(entry, 'cut')
        # Anything still over (pinned lines and marks alone) is cut by `render`, which keeps the bound.

    def _worst_marker(self, more: str, entries: Sequence[_Entry], pinned: Sequence[bool]) -> str:
        """The longest marker any layout of `entries` can need: every loose line cut, each in its own place."""
        classes = self.classification.classes
        worst: dict[LineClass, int] = {}
        places = 0
        for entry, pin in zip(entries, pinned, strict=True):
            if pin:
                continue
            places += 1
            for index in entry.members if entry.members is not None else (entry.index,):
                worst[classes[index]] = worst.get(classes[index], 0) + 1
        return self.marker(more, cut=worst, gaps=places)

    def _pinned(self, entry: _Entry) -> bool:
        return entry.members is None and (entry.run in _PINNED or entry.index in self.headers)

    def _layout(
        self, entries: Sequence[_Entry], pinned: Sequence[bool], available: int
    ) -> tuple[list[_Entry], list[_Entry], int]:
        sections: list[list[int]] = []
        for position, entry in enumerate(entries):
            if not sections or (entry.index in self.headers and sections[-1]):
                sections.append([])
            sections[-1].append(position)
        loose = [sum(len(entries[p].text) + 1 for p in section if not pinned[p]) for section in sections]
        total_loose = sum(loose) or 1
        head_share = _HEAD_SHARE[self.keep]
        keep: list[bool] = list(pinned)
        for section, section_loose in zip(sections, loose, strict=True):
            share = available * section_loose / total_loose
            free = [p for p in section if not pinned[p]]
            taken = _take(entries, free, share * head_share)
            for position in free[:taken]:
                keep[position] = True
            rest = free[taken:]
            taken = _take(entries, rest[::-1], share * (1 - head_share))
            for position in rest[len(rest) - taken :]:
                keep[position] = True
        layout: list[_Entry] = []
        cut: list[_Entry] = []
        gap: list[_Entry] = []
        gaps = 0
        for position, entry in enumerate(entries):
            if not keep[position]:
                gap.append(entry)
                continue
            if gap:
                gaps += self._close_gap(gap, layout, cut)
                gap = []
            layout.append(entry)
        if gap:
            gaps += self._close_gap(gap, layout, cut)
        return layout, cut, gaps

    def _close_gap(self, gap: list[_Entry], layout: list[_Entry], cut: list[_Entry]) -> int:
        lines = sum(len(entry.members) if entry.members is not None else 1 for entry in gap)
        mark = _Entry(f'[… {plural(lines, "line")} cut …]', -1, LineClass.normal, None, [])
        if len(gap) == 1 and len(gap[0].text) <= len(mark.text):
            # A mark as long as the one line it replaces saves nothing and hides the line.
            layout.append(gap[0])
            return 0
        layout.append(mark)
        cut.extend(gap)
        return 1


def _nonzero(counts: Mapping[LineClass, int]) -> dict[LineClass, int]:
    return {line_class: counts[line_class] for line_class in RISK_ORDER if counts.get(line_class)}


def _chars_of(entries: Sequence[_Entry]) -> int:
    return sum(len(entry.text) for entry in entries) + max(len(entries) - 1, 0)


def _take(entries: Sequence[_Entry], positions: Sequence[int], budget: float) -> int:
    """How many of `positions`, in order, fit in `budget` characters."""
    used = 0
    for taken, position in enumerate(positions):
        used += len(entries[position].text) + 1
        if used > budget:
            return taken
    return len(positions)


def _by_class(counts: Mapping[LineClass, int]) -> str:
    return ', '.join(f'{counts[c]:,} {c.value}' for c in RISK_ORDER if counts.get(c))


def _resolve_keep(keep: Keep, text: str, structured: bool) -> str:
    if keep != 'auto':
        return keep
    if structured:
        return 'head'
    return 'head' if text.lstrip()[:16].startswith(_HEADED_STARTS) else 'tail'


DEFAULT_MORE = 'original not kept: rerun narrowed (a filter, a range, head/tail) to see what was removed'
"""What the marker says about the original when the caller gives no way to get it back."""


def plan_condense(
    text: str,
    *,
    level: Level | str = 'daily',
    keep: Keep = 'auto',
    max_chars: int = 4_000,
    max_line_chars: int = 1_000,
    structured: bool = False,
    more_reserve: int = 120,
) -> CondensePlan | None:
    """Do the work of `condense` without rendering the marker; `None` when the text already fits.

    `more_reserve` is how many characters the marker keeps free for the "how to get the original"
    part, which the caller may only know after deciding to store the original.
    """
    validate_condense(max_chars, max_line_chars)
    if len(text) <= max_chars:
        return None
    resolved = get_level(level)
    side = _resolve_keep(keep, text, structured)
    lines = text.splitlines()
    line_cap = min(max_line_chars, max(80, max_chars // 3))
    shortened = 0
    head_share = _HEAD_SHARE[side]
    for index, line in enumerate(lines):
        if len(line) > line_cap:
            # Classifying and keeping megabyte lines costs more than the rest of the output together.
            lines[index] = shorten_middle(line, line_cap, head_share=head_share)[0]
            shortened += 1
    plan = CondensePlan(
        text=text,
        lines=lines,
        classification=classify_lines(lines),
        level=resolved,
        keep=side,
        max_chars=max_chars,
        shortened=shortened,
    )
    reserve = 'x' * more_reserve
    for line_class in _CHEAPEST_FIRST:
        if plan.fits(reserve):
            break
        plan.apply_class(line_class)
    if not plan.fits(reserve):
        plan.cut_by_position(reserve)
    return plan


def validate_condense(max_chars: int, max_line_chars: int) -> None:
    if max_chars < MIN_CONDENSE_CHARS:
        raise ValueError(
            f'max_chars must be at least {MIN_CONDENSE_CHARS} so the output and its marker both fit; got {max_chars}.'
        )
    if max_line_chars < 80:
        raise ValueError(f'max_line_chars must be at least 80; got {max_line_chars}.')


def unchanged(text: str, level: Level) -> Condensed:
    """The result for a text that already fits: itself, every line kept (it is small, so classifying is cheap)."""
    lines = text.splitlines()
    classification = classify_lines(lines)
    report = CondenseReport(
        level=level.name,
        keep='none',
        lines_in=len(lines),
        lines_out=len(lines),
        chars_in=len(text),
        chars_out=len(text),
        kept=dict(classification.counts()),
        collapsed={},
        dropped={},
        cut={},
        gaps=0,
        shortened=0,
    )
    return Condensed(text, report, classification)
