"""`condense()` and the `Condense` action: class before position, with telemetry and retention of failures.

```python
from observable_harness.bounded import condense

log = '\\n'.join([*(f'Downloading part {i} ... 100%' for i in range(400)), 'error: disk full', 'exit=1'])
result = condense(log, level='daily', max_chars=600)
assert 'error: disk full' in result.text and result.text.startswith('[condensed')
```
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .._text.condense import DEFAULT_MORE, Condensed, Keep, plan_condense, unchanged, validate_condense
from .._text.cut import read_instructions
from .._text.levels import Level, LevelName, get_level
from .._text.secrets import DEFAULT_SCRUBBER, Scrubber
from ..telemetry import names
from ..tool_output_limits import ActionUnavailable, Reduced, ReductionAction, ReductionEnv, Unit
from . import _telemetry as telemetry
from ._records import RetentionRecord
from ._retention import Retention, RetentionPolicy, reported_exit_status

__all__ = ['Condense', 'condense']


def condense(
    text: str,
    *,
    level: Level | str = 'daily',
    keep: Keep = 'auto',
    max_chars: int = 4_000,
    max_line_chars: int = 1_000,
    more: str | None = None,
    tool_name: str = '',
) -> Condensed:
    """Condense `text` to at most `max_chars` characters, class before position, marker included.

    Text that already fits comes back unchanged, without a marker. `more` is the marker's last part,
    telling the model how to get the original (a handle and the tool to read it, a narrower command);
    without it the marker says the original was not kept. `tool_name` only labels telemetry.
    """
    hint = more or DEFAULT_MORE
    with telemetry.condense_span(tool_name) as record:
        plan = plan_condense(
            text, level=level, keep=keep, max_chars=max_chars, max_line_chars=max_line_chars, more_reserve=len(hint)
        )
        if plan is None:
            result = unchanged(text, get_level(level))
        else:
            rendered = plan.render(hint)
            result = Condensed(rendered, plan.report(rendered), plan.classification)
        record(result.report)
    return result


_NOT_KEPT = {
    'never': "original not kept (retain='never')",
    'no_failure': "original not kept (no failure seen, retain='failures')",
    'store_failed': 'the original could not be stored',
}


def _more_for(record: RetentionRecord, read_tool_name: str) -> str:
    if record.handle is not None:
        return 'full original kept. ' + read_instructions(read_tool_name, record.handle)
    why = _NOT_KEPT.get(record.reason, 'original not kept')
    return f'{why}: rerun narrowed (a filter, a range, head/tail) for the rest'


@dataclass(frozen=True)
class Condense(ReductionAction):
    """A `ToolOutputLimits` action: condense text class before position, keeping originals of failures.

    Applies `level` cheapest line class first until the output fits `max_chars`, then cuts by
    position inside sections, keeping the end where the cause lives (`keep`). The original is kept
    (scrubbed) in the overflow store according to `retain`, and the marker tells the model how to
    read it. A tool reports its exit status by returning a `CommandOutput`.

    ```python
    from observable_harness import ToolOutputLimits
    from observable_harness.bounded import Condense
    from observable_harness.tool_output_limits import Band, Truncate

    limits = ToolOutputLimits(
        per_tool={'run_tests': [Band(over=4_000, action=Condense(level='daily', keep='tail', then=Truncate()))]}
    )
    ```
    """

    name: ClassVar[str] = 'condense'
    check_on_failure: ClassVar[str] = 'the payload: binary output cannot be condensed as lines'

    level: Level | LevelName = 'daily'
    """The risk accepted: `production` drops nothing, `daily` drops noise, `long_session` saves the most."""

    keep: Keep = 'auto'
    """The end a positional cut favours: `tail` for command output (the cause prints last), `head` for
    reports and headed files; `auto` tells them apart."""

    max_chars: int = 4_000
    """Characters the model sees, marker included (~1,000 tokens)."""

    max_line_chars: int = 1_000
    """Longer lines are cut in the middle first: one minified line must not take the whole budget."""

    retain: RetentionPolicy = 'failures'
    """Keep the original for `never`, only probable `failures`, or `always`: a command's output cannot
    be paged again, so what condensing removes is otherwise gone."""

    scrubber: Scrubber | None = DEFAULT_SCRUBBER
    """Scrubs secrets from the retained original before it is written; `None` stores it verbatim."""

    then: ReductionAction | None = None
    """Used for binary payloads, which cannot be condensed as lines."""

    def __post_init__(self) -> None:
        validate_condense(self.max_chars, self.max_line_chars)
        get_level(self.level)
        Retention(self.retain)

    async def apply(self, unit: Unit, env: ReductionEnv) -> Reduced:
        if unit.text is None:
            raise ActionUnavailable('Condense works on text; this payload is binary')
        read_tool_name = env.read_tool_name
        reserve = len(_more_for(RetentionRecord('', '', 'x' * 80, 0, None, 0), read_tool_name))
        with telemetry.condense_span(unit.tool_name) as record:
            plan = plan_condense(
                unit.text,
                level=self.level,
                keep=self.keep,
                max_chars=self.max_chars,
                max_line_chars=self.max_line_chars,
                structured=unit.structured,
                more_reserve=reserve,
            )
            if plan is None:
                report = unchanged(unit.text, get_level(self.level)).report
                record(report)
                return Reduced(unit.value, 'unchanged', details=telemetry.condense_details(report))
            retained = await Retention(self.retain, self.scrubber).keep(
                unit.text,
                # Retention scrubs with this action's own scrubber (or stores verbatim with `scrubber=None`).
                lambda data: env.store(unit, data, scrub=False),
                exit_status=reported_exit_status(unit.value),
                classification=plan.classification,
                tool_name=unit.tool_name,
            )
            text = plan.render(_more_for(retained, read_tool_name))
            report = plan.report(text)
            record(report)
        details = telemetry.condense_details(report)
        details[names.BOUNDED_RETENTION_POLICY] = retained.policy
        details[names.BOUNDED_RETENTION_KEPT] = retained.handle is not None
        return Reduced(text, 'condense', handle=retained.handle, details=details)
