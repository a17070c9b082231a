"""Offload with a navigation summary: store the whole result, show a handle and ~150 words.

The summary is for navigation, not for answering: it tells the agent what it has already collected
so it can decide whether to look further, and it stays small enough to keep dozens of sources in
view for the price of one. Its shape is fixed: what the output is about, what kind of information it
holds, and the one or two most significant items. The stored file's name comes from the content too,
so a listing of the store alone answers "what has been collected" without reading any summary.

```python
import asyncio
import tempfile

from observable_harness.bounded import offload
from observable_harness.storage import LocalFileStore

store = LocalFileStore(base_dir=tempfile.mkdtemp())
log = '\\n'.join(['collected 3 items', 'E   KeyError: 1', '=== 1 failed, 2 passed in 0.1s ==='] * 50)
result = asyncio.run(offload(log, store, tool_name='run_tests'))
assert result.handle.startswith('offload/run_tests/test_run-') and 'About:' in result.text
assert asyncio.run(store.read(result.handle)) == log.encode()
```
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from .._text.cut import read_instructions
from .._text.hashing import content_hash
from .._text.navigation import NavigationSummary, clip_words, navigation_summary, offload_key
from .._text.secrets import DEFAULT_SCRUBBER, Scrubber
from ..storage import scrub_before_write
from ..telemetry import names
from ..tool_output_limits import ActionUnavailable, Reduced, ReductionAction, ReductionEnv, Unit
from . import _telemetry as telemetry
from ._records import OffloadRecord
from ._retention import WritableStore

__all__ = [
    'NAVIGATION_PROMPT',
    'NavigationSummarizer',
    'NavigationSummary',
    'Offload',
    'OffloadRecord',
    'Offloaded',
    'navigation_summary',
    'offload',
]

NavigationSummarizer: TypeAlias = Callable[[str, str], 'str | Awaitable[str]']
"""`(tool_name, text) -> summary`, sync or async: a model-based summarizer (see `NAVIGATION_PROMPT`)."""

NAVIGATION_PROMPT = (
    'The tool `{tool_name}` returned the output below. It has been stored; an agent will decide from your '
    'summary whether it needs to read it. Write at most 150 words as exactly three lines:\n'
    'About: what the output is about.\nKind: what kind of information it holds.\n'
    'Notable: the one or two most significant items, verbatim.\n'
    'Do not retell the content.\n\n<output>\n{output}\n</output>'
)
"""A prompt for a model-based `NavigationSummarizer`: the same fixed shape as the built-in summary."""

_log = logging.getLogger('observable_harness.bounded')


@dataclass(frozen=True, slots=True)
class Offloaded:
    """The stand-in the model sees, where the whole output went, and the summary it carries."""

    text: str
    handle: str
    summary: str
    record: OffloadRecord


async def _summarize(
    text: str, tool_name: str, value: Any, structured: bool, max_words: int, summarize: NavigationSummarizer | None
) -> tuple[NavigationSummary, str | None, str]:
    built_in = navigation_summary(text, tool_name=tool_name, value=value, structured=structured, max_words=max_words)
    if summarize is None:
        return built_in, None, 'deterministic'
    try:
        custom: Any = summarize(tool_name, text)
        if inspect.isawaitable(custom):
            custom = await custom
        if not isinstance(custom, str) or not custom.strip():
            raise TypeError(f'the summarizer returned {type(custom).__name__}, not a non-empty str')
    except Exception as error:
        # A failing summarizer costs the summary's quality, never the run or the stored output.
        _log.warning('observable_harness: navigation summarizer failed (%s); using the built-in one', error)
        return built_in, None, 'deterministic_fallback'
    # Two words go to the `Summary:` label and a possible ellipsis: the whole stays within `max_words`.
    return built_in, clip_words(custom, max_words - 2), 'custom'


async def _offload(
    text: str,
    write: Callable[[str, bytes], Awaitable[str]],
    *,
    tool_name: str,
    value: Any,
    structured: bool,
    max_words: int,
    summarize: NavigationSummarizer | None,
    scrubber: Scrubber | None,
    read_tool_name: str,
) -> Offloaded:
    with telemetry.offload_span(tool_name) as record:
        scrubbed = scrub_before_write(scrubber, text)
        text, redactions = scrubbed.text, scrubbed.total
        data = text.encode('utf-8', 'surrogatepass')
        digest = content_hash(data)
        summary, custom, summarizer = await _summarize(text, tool_name, value, structured, max_words, summarize)
        handle = await write(offload_key(tool_name, summary, digest), data)
        body = summary.render() if custom is None else f'Summary: {custom}'
        lines = data.count(b'\n') + (0 if text.endswith('\n') else 1)
        label = f'Output of {tool_name}' if tool_name else 'Output'
        stand_in = (
            f'[{label} offloaded whole: {len(text):,} chars, {lines:,} lines, stored as {handle!r}. '
            f'{read_instructions(read_tool_name, handle)} The summary below is for deciding whether to read it.]\n'
            f'{body}'
        )
        result = OffloadRecord(
            handle=handle,
            content_hash=digest,
            original_bytes=len(data),
            output_chars=len(stand_in),
            summary_words=len(body.split()),
            kind=summary.topic,
            summarizer=summarizer,
            redactions=redactions,
        )
        record(result)
    return Offloaded(stand_in, handle, body, result)


async def offload(
    text: str,
    store: WritableStore,
    *,
    tool_name: str = '',
    max_words: int = 150,
    summarize: NavigationSummarizer | None = None,
    scrubber: Scrubber | None = DEFAULT_SCRUBBER,
    read_tool_name: str = 'read_tool_result',
) -> Offloaded:
    """For your own tools: scrub `text`, store it under a content-derived name, return the stand-in.

    A store that raises propagates: the caller decides what the model sees instead.
    """
    return await _offload(
        text,
        store.write,
        tool_name=tool_name,
        value=None,
        structured=False,
        max_words=max_words,
        summarize=summarize,
        scrubber=scrubber,
        read_tool_name=read_tool_name,
    )


@dataclass(frozen=True)
class Offload(ReductionAction):
    """A `ToolOutputLimits` action: store the whole output, show a handle and a navigation summary.

    Better than cutting when the output is worth keeping whole but is not needed whole right now
    (search results, a fetched page, a long report). The summary (at most `max_words`) says what the
    output is about, what kind of information it holds and its one or two notable items; it is not a
    retelling. A store failure hands the unit to `then`.

    ```python
    from observable_harness import ToolOutputLimits
    from observable_harness.bounded import Offload
    from observable_harness.tool_output_limits import Band, Truncate

    limits = ToolOutputLimits(per_tool={'fetch_page': [Band(over=8_000, action=Offload(then=Truncate()))]})
    ```
    """

    name: ClassVar[str] = 'offload'
    check_on_failure: ClassVar[str] = (
        'the overflow store (directory or bucket, permissions, free space) and the summarizer'
    )

    max_words: int = 150
    """Ceiling of the summary: a summary one could answer from would refill the window it saves."""

    summarize: NavigationSummarizer | None = None
    """A model-based summarizer `(tool_name, text) -> str` (see `NAVIGATION_PROMPT`); `None` uses the
    deterministic one. A failing summarizer falls back to the deterministic summary."""

    scrubber: Scrubber | None = DEFAULT_SCRUBBER
    """Scrubs secrets before the write (and before summarizing); `None` stores verbatim."""

    then: ReductionAction | None = None
    """Used when the store raises or the payload is binary."""

    def __post_init__(self) -> None:
        if self.max_words < 10:
            raise ValueError(f'Offload.max_words must be at least 10 to say what an output is; got {self.max_words}.')

    async def apply(self, unit: Unit, env: ReductionEnv) -> Reduced:
        if unit.text is None:
            raise ActionUnavailable('Offload summarizes text; this payload is binary')

        async def write(key: str, data: bytes) -> str:
            # Scrubbed above with this action's own scrubber (or deliberately not, with `scrubber=None`).
            return await env.store(unit, data, key=key, scrub=False)

        result = await _offload(
            unit.text,
            write,
            tool_name=unit.tool_name,
            value=unit.value if unit.structured else None,
            structured=unit.structured,
            max_words=self.max_words,
            summarize=self.summarize,
            scrubber=self.scrubber,
            read_tool_name=env.read_tool_name,
        )
        details = {
            names.BOUNDED_SUMMARY_WORDS: result.record.summary_words,
            names.BOUNDED_OFFLOAD_KIND: result.record.kind,
            names.BOUNDED_OFFLOAD_SUMMARIZER: result.record.summarizer,
        }
        return Reduced(result.text, 'offload', handle=result.handle, details=details)
