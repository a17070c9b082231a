"""Bounded tool output: the truncation contract and the exits beyond it, as reusable building blocks.

- `condense` / `Condense`: drop by line class before cutting by position, under a named level
  (`production`, `daily`, `long_session`) whose table says what survives, collapses and is dropped.
- `offload` / `Offload`: store the whole output under a content-derived name, show a navigation summary.
- `Retention` / `CommandOutput`: keep the originals of probable failures, since a command cannot be paged.
- `scrub` / `Scrubber`: secrets out before anything is written.
- `ReadGuard` (also in `observable_harness.read_guard`): refuse whole-file reads and `cat`-style dumps
  before they run, and say what to use instead.

The linter that finds tools returning unbounded or unmarked output is the `observable-harness lint`
command.

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

from .._text.condense import Condensed, CondenseReport, Keep
from .._text.levels import DAILY, LEVELS, LONG_SESSION, PRODUCTION, Fate, Level, LevelName, get_level
from .._text.lines import Classification, LineClass, classify_line, classify_lines
from .._text.navigation import NavigationSummary, navigation_summary
from .._text.secrets import DEFAULT_SCRUBBER, GateForm, Scrubber, ScrubResult, SecretPattern, scrub, scrub_bytes
from ..read_guard import GuardDecision, ReadGuard, ReadTool, ShellTool
from ._condense import Condense, condense
from ._offload import NAVIGATION_PROMPT, NavigationSummarizer, Offload, Offloaded, offload
from ._records import OffloadRecord, RetentionRecord
from ._retention import CommandOutput, Retention, RetentionPolicy, WritableStore, probable_failure

__all__ = [
    'DAILY',
    'DEFAULT_SCRUBBER',
    'LEVELS',
    'LONG_SESSION',
    'NAVIGATION_PROMPT',
    'PRODUCTION',
    'Classification',
    'CommandOutput',
    'Condense',
    'CondenseReport',
    'Condensed',
    'Fate',
    'GateForm',
    'GuardDecision',
    'Keep',
    'Level',
    'LevelName',
    'LineClass',
    'NavigationSummarizer',
    'NavigationSummary',
    'Offload',
    'OffloadRecord',
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
    'WritableStore',
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
