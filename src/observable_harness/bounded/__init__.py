"""Bounded tool output: the truncation contract and the exits beyond it, as reusable building blocks.

- `condense` / `Condense`: drop by line class before cutting by position, under a named level
  (`production`, `daily`, `long_session`) whose table says what survives, collapses and is dropped.
- `offload` / `Offload`: store the whole output under a content-derived name, show a navigation summary.
- `ReadGuard`: refuse whole-file reads and `cat`-style dumps before they run, and say what to use instead.
- `Retention` / `CommandOutput`: keep the originals of probable failures, since a command cannot be paged.
- `scrub` / `Scrubber`: secrets out before anything is written.

```python
from observable_harness import ToolOutputLimits
from observable_harness.bounded import Condense, Offload
from observable_harness.tool_output_limits import Band, Truncate

limits = ToolOutputLimits(
    per_tool={
        'run_tests': [Band(over=4_000, action=Condense(level='daily', then=Truncate()))],
        'fetch_page': [Band(over=8_000, action=Offload(then=Truncate()))],
    }
)
```
"""

from __future__ import annotations

from .condense import Condense, Condensed, CondenseReport, Keep, condense
from .guard import GuardDecision, ReadGuard, ReadTool, ShellTool
from .levels import COLLAPSE_ENDS, DAILY, LEVELS, LONG_SESSION, PRODUCTION, Fate, Level, LevelName, get_level
from .lines import RISK_ORDER, Classification, LineClass, classify_line, classify_lines
from .offload import NAVIGATION_PROMPT, NavigationSummary, Offload, Offloaded, navigation_summary, offload
from .retention import CommandOutput, Retention, RetentionPolicy, RetentionRecord, probable_failure
from .secrets import DEFAULT_SCRUBBER, Scrubber, ScrubResult, SecretPattern, scrub, scrub_bytes

__all__ = [
    'COLLAPSE_ENDS',
    'DAILY',
    'DEFAULT_SCRUBBER',
    'LEVELS',
    'LONG_SESSION',
    'NAVIGATION_PROMPT',
    'PRODUCTION',
    'RISK_ORDER',
    'Classification',
    'CommandOutput',
    'Condense',
    'CondenseReport',
    'Condensed',
    'Fate',
    'GuardDecision',
    'Keep',
    'Level',
    'LevelName',
    'LineClass',
    'NavigationSummary',
    'Offload',
    'Offloaded',
    'ReadGuard',
    'ReadTool',
    'Retention',
    'RetentionPolicy',
    'RetentionRecord',
    'ScrubResult',
    'Scrubber',
    'SecretPattern',
    'ShellTool',
    'classify_line',
    'classify_lines',
    'condense',
    'get_level',
    'navigation_summary',
    'offload',
    'probable_failure',
    'scrub',
    'scrub_bytes',
]
