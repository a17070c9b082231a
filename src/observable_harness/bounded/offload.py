"""Offload with a navigation summary (SPEC BTO-2): store the whole result, show a handle and ~150 words.

The summary is for navigation, not for answering: it tells the agent what it has already collected
so it can decide whether to look further, and it stays small enough to keep dozens of sources in
view for the price of one. Its shape is fixed: what the output is about, what kind of information it
holds, and the one or two most significant items. The stored file's name comes from the content too,
so a listing of the store alone answers "what has been collected" without reading any summary.

```python
import asyncio

from observable_harness.bounded import offload


class MemoryStore:
    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}

    async def write(self, key: str, data: bytes) -> str:
        self.data[key] = data
        return key


log = '\\n'.join(['collected 3 items', 'E   KeyError: 1', '=== 1 failed, 2 passed in 0.1s ==='] * 50)
result = asyncio.run(offload(log, MemoryStore(), tool_name='run_tests'))
assert result.handle.startswith('offload/run_tests/test_run-') and 'About:' in result.text
```
"""

from __future__ import annotations

import inspect
import json
import logging
import os
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from .._hashing import content_hash
from ..telemetry import bounded as telemetry
from ..telemetry import names
from ..tool_output_limits.bands import ActionUnavailable, Reduced, ReductionAction, ReductionEnv
from ..tool_output_limits.payload import Unit, shape_sketch
from ..tool_output_limits.spill import read_instructions
from .lines import RISK_ORDER, Classification, LineClass, classify_lines
from .retention import WritableStore
from .secrets import DEFAULT_SCRUBBER, Scrubber

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

_ITEM_WORDS = 30
_SLUG_WORDS = 6
_SLUG_CHARS = 48
_HASH_CHARS = 10
_LINES_SCANNED_FOR_KIND = 20_000
_WORD = re.compile(r'[a-z0-9]+')
_COMPILER_DIAGNOSTIC = re.compile(r'^\S+:\d+:\d+: (?:fatal )?(error|warning):')
_TIMESTAMP = re.compile(r'\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\b\d\d:\d\d:\d\d\b')
_PATH_LINE = re.compile(r'^\s*[\w.~-]*/[^\s]*\s*$')
_COLUMNS = re.compile(r'\S(?: {2,}|\t|\s*\|\s*)\S')
_TEST_MARKERS = ('test session starts', 'Ran ', 'test result:', 'Test Suites:', '--- FAIL', '=== RUN')
_INSTALL_MARKERS = (
    'Successfully installed',
    'Collecting ',
    'Setting up ',
    'added ',
    'Installing collected packages',
    'Requirement already satisfied',
    'Preparing metadata',
    'Building wheel',
    'Using pip ',
)


@dataclass(frozen=True, slots=True)
class NavigationSummary:
    """What an output is about, what kind of information it holds, and its one or two notable items."""

    topic: str
    """A fixed-vocabulary name of the kind of output (`test_run`, `compiler`, `install_log`, `traceback`,
    `listing`, `table`, `json`, `markdown`, `log`, `text`): a telemetry label and the stored name's prefix."""
    about: str
    kind: str
    notable: tuple[str, ...]

    def render(self) -> str:
        lines = [f'About: {self.about}', f'Kind: {self.kind}']
        if self.notable:
            lines.append('Notable: ' + ' | '.join(self.notable))
        return '\n'.join(lines)

    @property
    def words(self) -> int:
        return len(self.render().split())


def _clip_words(text: str, words: int) -> str:
    parts = text.split()
    if len(parts) <= words:
        return ' '.join(parts)
    return ' '.join(parts[:words]) + ' …'


def _detect(lines: Sequence[str], classification: Classification, structured: bool, text: str) -> str:
    head = text.lstrip()[:1]
    if structured or head in ('{', '['):
        return 'json'
    sample = lines[:_LINES_SCANNED_FOR_KIND]
    non_blank = [line for line in sample if line.strip()] or ['']
    if any(marker in line for line in sample for marker in _TEST_MARKERS) or (
        classification.has(LineClass.summary) and any(' passed' in line or ' failed' in line for line in sample[-50:])
    ):
        return 'test_run'
    if sum(1 for line in non_blank if _COMPILER_DIAGNOSTIC.match(line)) >= 1:
        return 'compiler'
    if any(line.lstrip().startswith(_INSTALL_MARKERS) for line in sample):
        return 'install_log'
    if any(line.startswith('Traceback (most recent call last)') for line in sample):
        return 'traceback'
    if sum(1 for line in non_blank if _PATH_LINE.match(line)) >= 0.8 * len(non_blank):
        return 'listing'
    if non_blank[0].lstrip().startswith('#'):
        return 'markdown'
    if sum(1 for line in non_blank if _TIMESTAMP.search(line)) >= 0.5 * len(non_blank):
        return 'log'
    if sum(1 for line in non_blank if len(_COLUMNS.findall(line)) >= 2) >= 0.6 * len(non_blank):
        return 'table'
    return 'text'


_KIND_LABELS = {
    'test_run': 'test run results',
    'compiler': 'compiler diagnostics',
    'install_log': 'package installation log',
    'traceback': 'a traceback',
    'listing': 'a listing of paths',
    'table': 'a table',
    'json': 'a JSON document',
    'markdown': 'a Markdown document',
    'log': 'a log',
    'text': 'text',
}


def _first(lines: Sequence[str], classes: Sequence[LineClass], wanted: LineClass, *, last: bool = False) -> str | None:
    indices = range(len(lines) - 1, -1, -1) if last else range(len(lines))
    for index in indices:
        if classes[index] is wanted:
            return lines[index].strip().strip('=').strip()
    return None


def _common_directory(lines: Sequence[str]) -> str:
    paths = [line.strip() for line in lines if line.strip()]
    if not paths:
        return ''
    try:
        common = os.path.commonpath(paths)
    except ValueError:
        return ''  # absolute and relative paths mixed: no common directory
    return common.rstrip('/') + '/'


def _top_directories(lines: Sequence[str], base: str) -> list[str]:
    counts: Counter[str] = Counter()
    for line in lines:
        rest = line.strip()[len(base) :]
        if '/' in rest:
            counts[base + rest.split('/', 1)[0] + '/'] += 1
    return [f'{directory}: {count:,} entries' for directory, count in counts.most_common(2)]


def _composition(classification: Classification) -> str:
    counts = classification.counts()
    noise = counts.get(LineClass.progress, 0) + counts.get(LineClass.repeated, 0)
    parts = [
        f'{counts[c]:,} {c.value}'
        for c in RISK_ORDER
        if counts.get(c) and c not in (LineClass.progress, LineClass.repeated, LineClass.blank)
    ]
    if noise:
        parts.append(f'{noise:,} progress/repeated')
    return ', '.join(parts)


def navigation_summary(
    text: str, *, tool_name: str = '', value: Any = None, structured: bool = False, max_words: int = 150
) -> NavigationSummary:
    """The deterministic navigation summary of `text` (at most `max_words` words).

    `value` is the structured return behind `text`, if any: its shape is what a JSON summary is about.
    """
    lines = text.splitlines()
    classification = classify_lines(lines)
    classes = classification.classes
    topic = _detect(lines, classification, structured, text)
    source = f' from {tool_name}' if tool_name else ''
    size = f'{len(lines):,} lines, {len(text):,} chars'
    error = _first(lines, classes, LineClass.error)
    result = _first(lines, classes, LineClass.summary, last=True)
    notable: list[str] = []
    if topic == 'json':
        about = f'{_KIND_LABELS[topic]}{source}: {_json_shape(text, value)}'
        kind = f'structured data, {len(text):,} chars'
    elif topic == 'listing':
        base = _common_directory(lines)
        about = f'{_KIND_LABELS[topic]}{source}: {len(lines):,} paths under {base or "/"}'
        kind = f'one path per line, {len(text):,} chars'
        notable = _top_directories(lines, base)
    elif topic == 'table':
        rows = [line.strip() for line in lines[:50] if line.strip()]
        header = next((row for row in rows if len(_COLUMNS.findall(row)) >= 2), rows[0] if rows else '')
        about = f'{_KIND_LABELS[topic]}{source}: {len(lines):,} rows'
        kind = f'columns: {_clip_words(header, 12)}'
    elif topic == 'compiler':
        diagnostics = Counter(m.group(1) for line in lines if (m := _COMPILER_DIAGNOSTIC.match(line)))
        files = sorted({line.split(':', 1)[0] for line in lines if _COMPILER_DIAGNOSTIC.match(line)})
        about = (
            f'{_KIND_LABELS[topic]}{source}: {diagnostics["error"]:,} errors, {diagnostics["warning"]:,} warnings '
            f'in {", ".join(files[:3])}{" and more" if len(files) > 3 else ""}'
        )
        kind = f'{size}; {_composition(classification)}'
    else:
        subject = result or error or next((line.strip() for line in lines if line.strip()), '')
        about = f'{_KIND_LABELS[topic]}{source}: {_clip_words(subject, 16)}'
        kind = f'{size}; {_composition(classification)}'
    if not notable:
        notable = [item for item in (error, result if result != error else None) if item]
        if not notable:
            warning = _first(lines, classes, LineClass.warning)
            notable = [warning] if warning else []
    summary = NavigationSummary(
        topic, _clip_words(about, 40), _clip_words(kind, 30), tuple(_clip_words(n, _ITEM_WORDS) for n in notable[:2])
    )
    return _fit_words(summary, max_words)


def _json_shape(text: str, value: Any) -> str:
    if value is not None:
        return shape_sketch(value)
    try:
        return shape_sketch(json.loads(text))
    except ValueError:
        return 'not parseable as JSON'


def _fit_words(summary: NavigationSummary, max_words: int) -> NavigationSummary:
    notable = list(summary.notable)
    while summary.words > max_words and notable:
        notable.pop()
        summary = NavigationSummary(summary.topic, summary.about, summary.kind, tuple(notable))
    if summary.words > max_words:
        budget = max(max_words - 6, 4)
        summary = NavigationSummary(
            summary.topic, _clip_words(summary.about, budget // 2), _clip_words(summary.kind, budget // 2), ()
        )
    return summary


def _slug(text: str) -> str:
    words = _WORD.findall(text.lower())[:_SLUG_WORDS]
    return '-'.join(words)[:_SLUG_CHARS].strip('-') or 'output'


def offload_key(tool_name: str, summary: NavigationSummary, digest: str) -> str:
    """`offload/<tool>/<topic>-<what it is about>-<hash>`: a listing of the store reads as a table of contents."""
    about = summary.about.split(':', 1)[-1]
    tool = _slug(tool_name.replace('_', ' ')).replace('-', '_') if tool_name else 'tool'
    return f'offload/{tool}/{summary.topic}-{_slug(about)}-{digest.partition(":")[2][:_HASH_CHARS]}'


@dataclass(frozen=True, slots=True)
class OffloadRecord:
    """One offload in counts and pointers (what telemetry reports)."""

    handle: str
    content_hash: str
    original_bytes: int
    output_chars: int
    summary_words: int
    kind: str
    summarizer: str
    redactions: int


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
    return built_in, _clip_words(custom, max_words - 2), 'custom'


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
        redactions = 0
        if scrubber is not None:
            scrubbed = scrubber.scrub(text)
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
            return await env.store(unit, data, key=key)

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
