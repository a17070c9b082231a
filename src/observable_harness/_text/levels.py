"""Named condensing levels: each a statement of risk with its table of what survives, collapses, is dropped.

"Compress by 70%" says nothing about what is paid for it, so it gets chosen blind. A level names the
situation it is for and carries, per line class, one explicit fate. The tables live here
as data, so code can query them and `docs/bounded.md` renders them (a test keeps the two equal).

```python
from observable_harness.bounded import DAILY, Fate, LineClass, get_level

assert get_level('daily') is DAILY
assert DAILY.fate(LineClass.progress) is Fate.drop
assert DAILY.fate(LineClass.error) is Fate.keep
```
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Literal, TypeAlias

from .lines import RISK_ORDER, LineClass

__all__ = [
    'COLLAPSE_ENDS',
    'DAILY',
    'LEVELS',
    'LONG_SESSION',
    'PRODUCTION',
    'Fate',
    'Level',
    'LevelName',
    'get_level',
    'render_levels_markdown',
]


class Fate(StrEnum):
    """What a level does with the lines of one class when the output does not fit."""

    keep = 'keep'
    """Every line stays (it may still be cut by position as a last resort, never an error or a result)."""
    collapse = 'collapse'
    """Each run of consecutive lines folds to its ends (`COLLAPSE_ENDS`) and one line counting the rest."""
    drop = 'drop'
    """The lines go; the marker counts them by class."""


COLLAPSE_ENDS: Mapping[LineClass, tuple[int, int]] = MappingProxyType(
    {
        LineClass.error: (1, 1),
        LineClass.warning: (1, 1),
        LineClass.summary: (1, 1),
        # The outermost frame says where the run entered, the innermost ones where it failed.
        LineClass.stack: (1, 3),
        LineClass.normal: (2, 2),
        # The last progress line is the final state; the ones before it only show movement.
        LineClass.progress: (0, 1),
        # A run of repeats keeps its last line: with the line before the run, both ends are visible.
        LineClass.repeated: (0, 1),
        LineClass.blank: (0, 1),
    }
)
"""Per class, how many lines at the (start, end) of a run survive a collapse."""

LevelName: TypeAlias = Literal['production', 'daily', 'long_session']


@dataclass(frozen=True)
class Level:
    """A named condensing level: the risk it accepts and, per line class, the worst that may happen.

    Condensing applies a level cheapest class first (blank, repeated, progress, ...) and stops as soon
    as the output fits, so the table is an upper bound on what is lost, not a fixed recipe.

    ```python
    from observable_harness.bounded import Fate, Level, LineClass
    from observable_harness.bounded import DAILY

    quiet = Level('quiet_ci', 'CI logs nobody reads unless red.', {**DAILY.fates, LineClass.warning: Fate.collapse})
    assert quiet.fate(LineClass.warning) is Fate.collapse
    ```
    """

    name: str
    """Low-cardinality name, used in telemetry labels and in the marker the model reads."""
    risk: str
    """What choosing this level says about the situation and what it costs, in one sentence."""
    fates: Mapping[LineClass, Fate]
    """One fate for every line class; a missing class is a `ValueError`, so no class is handled by accident."""

    def __post_init__(self) -> None:
        missing = [line_class.value for line_class in RISK_ORDER if line_class not in self.fates]
        if missing:
            raise ValueError(
                f'Level {self.name!r} gives no fate for line classes {missing}; give every class in '
                f'{[c.value for c in RISK_ORDER]} one of {[f.value for f in Fate]}.'
            )
        fates = {LineClass(key): Fate(value) for key, value in self.fates.items()}
        object.__setattr__(self, 'fates', MappingProxyType(fates))

    def __hash__(self) -> int:
        # Actions holding a level are frozen dataclasses and hash their fields; a mapping cannot be hashed.
        return hash((self.name, tuple(self.fates.items())))

    def fate(self, line_class: LineClass) -> Fate:
        return self.fates[line_class]

    def classes(self, fate: Fate) -> tuple[LineClass, ...]:
        """The classes this level treats with `fate`, costliest to lose first."""
        return tuple(line_class for line_class in RISK_ORDER if self.fates[line_class] is fate)


PRODUCTION = Level(
    'production',
    'Loss of context is critical: nothing is dropped; only runs that carry little beyond their count '
    '(progress, repeats, blank lines) fold.',
    {
        LineClass.error: Fate.keep,
        LineClass.warning: Fate.keep,
        LineClass.summary: Fate.keep,
        LineClass.stack: Fate.keep,
        LineClass.normal: Fate.keep,
        LineClass.progress: Fate.collapse,
        LineClass.repeated: Fate.collapse,
        LineClass.blank: Fate.collapse,
    },
)
DAILY = Level(
    'daily',
    'Everyday work: noise is dropped and repeats fold; every error, warning, stack frame and result line is kept.',
    {
        LineClass.error: Fate.keep,
        LineClass.warning: Fate.keep,
        LineClass.summary: Fate.keep,
        LineClass.stack: Fate.keep,
        LineClass.normal: Fate.keep,
        LineClass.progress: Fate.drop,
        LineClass.repeated: Fate.collapse,
        LineClass.blank: Fate.collapse,
    },
)
LONG_SESSION = Level(
    'long_session',
    'Long sessions, maximum savings: errors, results and plain lines are kept; warnings and stack frames '
    'fold to the ends of each run; noise and blank lines are dropped.',
    {
        LineClass.error: Fate.keep,
        LineClass.warning: Fate.collapse,
        LineClass.summary: Fate.keep,
        LineClass.stack: Fate.collapse,
        LineClass.normal: Fate.keep,
        LineClass.progress: Fate.drop,
        LineClass.repeated: Fate.collapse,
        LineClass.blank: Fate.drop,
    },
)

LEVELS: Mapping[str, Level] = MappingProxyType({level.name: level for level in (PRODUCTION, DAILY, LONG_SESSION)})
"""The named levels, from the most to the least cautious."""


def get_level(level: Level | str) -> Level:
    """The `Level` itself, or the named level; an unknown name is a `ValueError` listing the known ones."""
    if isinstance(level, Level):
        return level
    try:
        return LEVELS[level]
    except KeyError:
        raise ValueError(
            f'Unknown condensing level {level!r}; use one of {list(LEVELS)} or pass a Level(...).'
        ) from None


def _collapse_words(line_class: LineClass) -> str:
    head, tail = COLLAPSE_ENDS[line_class]
    ends = [part for part in (f'first {head}' if head else '', f'last {tail}' if tail else '') if part]
    return f'{" and ".join(ends)} of each run kept, the rest counted'


def render_levels_markdown(levels: Mapping[str, Level] = LEVELS) -> str:
    """The level tables as Markdown, exactly as `docs/bounded.md` carries them."""
    names = list(levels)
    out = ['| line class | ' + ' | '.join(f'`{name}`' for name in names) + ' |']
    out.append('|---|' + '---|' * len(names))
    for line_class in RISK_ORDER:
        cells = ' | '.join(levels[name].fate(line_class).value for name in names)
        out.append(f'| {line_class.value} | {cells} |')
    out.append('')
    out.append('Collapse keeps, per class:')
    out.append('')
    out.extend(f'- {line_class.value}: {_collapse_words(line_class)}' for line_class in RISK_ORDER)
    for level in levels.values():
        out.append('')
        out.append(f'### `{level.name}`')
        out.append('')
        out.append(level.risk)
        out.append('')
        for fate, label in ((Fate.keep, 'Survives'), (Fate.collapse, 'Collapses'), (Fate.drop, 'Dropped')):
            classes = level.classes(fate)
            out.append(f'- {label}: {", ".join(c.value for c in classes) if classes else "nothing"}')
    return '\n'.join(out) + '\n'
