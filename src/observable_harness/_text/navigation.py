"""Navigation summaries: what an output is about, what kind of information it holds, its notable items.

A navigation summary is for deciding whether to read something, not for answering from it: at most
~150 words in a fixed shape. `offload_key` names the stored file after the same summary, so a listing
of the store reads as a table of contents.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .layout import shape_sketch
from .lines import RISK_ORDER, Classification, LineClass, classify_lines

__all__ = ['NavigationSummary', 'clip_words', 'navigation_summary', 'offload_key']

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


def clip_words(text: str, words: int) -> str:
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
        kind = f'columns: {clip_words(header, 12)}'
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
        about = f'{_KIND_LABELS[topic]}{source}: {clip_words(subject, 16)}'
        kind = f'{size}; {_composition(classification)}'
    if not notable:
        notable = [item for item in (error, result if result != error else None) if item]
        if not notable:
            warning = _first(lines, classes, LineClass.warning)
            notable = [warning] if warning else []
    summary = NavigationSummary(
        topic, clip_words(about, 40), clip_words(kind, 30), tuple(clip_words(n, _ITEM_WORDS) for n in notable[:2])
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
            summary.topic, clip_words(summary.about, budget // 2), clip_words(summary.kind, budget // 2), ()
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
