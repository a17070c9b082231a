"""The shape of a tool's output, recognised cheaply, and what each shape needs a preview to keep.

A table without its header row is numbers without names; a commit's changed file without the commit
it belongs to answers nothing; a traceback's exception without the innermost frame in the user's own
code says what failed but not where. `detect` looks at a bounded sample of lines (the head, a few
windows from the middle, the tail) and names the shape; `context` gives the lines that make one
kept line readable in that shape; `digest` gives the lines a shape's preview should show when
nothing says what the model is looking for.

Everything here works on line spans (`start`, `end` offsets into the text) found by scanning for
line breaks near what is needed; nothing splits or copies the whole payload.
"""

from __future__ import annotations

import heapq
import itertools
import math
import operator
import re
from bisect import bisect_left, bisect_right
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from itertools import accumulate, islice, pairwise
from typing import NamedTuple

from .counting import newlines
from .scan import char_offsets, literal_places, literal_places_utf8

__all__ = [
    'PYTHON_FRAME',
    'TRACEBACK_HEADER',
    'VARYING',
    'Census',
    'Pick',
    'Shape',
    'ShapeKind',
    'Span',
    'TextView',
    'census',
    'compiler_symbol',
    'context',
    'detect',
    'digest',
    'extreme_rows',
    'failed_tests',
    'folded_stacks_note',
    'logged_traceback',
]

Span = tuple[int, int]
"""A line: offset of its first character and of its end (the line break, or the end of the text)."""


class ShapeKind(StrEnum):
    """The shapes a preview treats differently; `log` is the fallback (line classes decide)."""

    log = 'log'
    table = 'table'
    listing = 'listing'
    key_value = 'key_value'
    history = 'history'
    diff = 'diff'
    diagnostics = 'diagnostics'
    test_run = 'test_run'
    syscalls = 'syscalls'
    json = 'json'
    records = 'records'
    long_line = 'long_line'


@dataclass(frozen=True, slots=True)
class Shape:
    kind: ShapeKind
    variant: str = ''
    """A finer name where one helps: `csv`, `aligned`, `ls`, `tree`, `find`, `git`, `pytest`, ..."""
    header: Span | None = None
    """A table's header row."""
    header_extra: tuple[Span, ...] = ()
    """Lines that belong with the header: a title or totals just above it, the rule just below it."""
    sorted_rows: bool = False
    """A table whose numeric column falls from the first row on: its top rows are its point."""
    numeric_column: int = -1
    """For a table, the field (by whitespace/delimiter split) whose largest values matter most."""
    delimiter: str = ''


@dataclass(frozen=True, slots=True)
class Pick:
    """Lines a preview should keep together, at a priority (higher first)."""

    priority: float
    spans: tuple[Span, ...]
    role: str = 'shape'
    focus: int = -1
    """Where in the text the part of its (one) line it was picked for begins, when that line is cut to fit."""
    limit: int = 0
    """Characters each of its lines is shown in at most (a longer one is cut), when less than a plain line's room."""


_UNINDENTED = re.compile(r'\n(?=[^\s])')
_CHUNK_CHARS = 16 * 1024


class TextView:
    """Line lookups over one payload without splitting it."""

    __slots__ = (
        '_blocks',
        '_unindented',
        'cell_numbers',
        'cells',
        'code_styles',
        'columns',
        'end',
        'rows',
        'table_ends',
        'text',
        'total',
    )

    def __init__(self, text: str) -> None:
        self.text = text
        self.total = len(text)
        self._unindented: dict[int, list[int]] = {}
        """Per chunk of the text, where its unindented lines begin (found when first asked)."""
        self._blocks: bool | None = None
        self.rows: dict[int, tuple[list[str], list[int]]] = {}
        """Per offset, the lines from it on and where each starts (see `_rows_from`)."""
        self.columns: dict[tuple[int, str, int], list[float | None]] = {}
        """Per offset, delimiter and column, the numbers in that column of the rows from the offset on."""
        self.cells: dict[tuple[int, str], list[list[str]]] = {}
        """Per offset and delimiter, each row's cells from the offset on (see `_cells`)."""
        self.cell_numbers: dict[tuple[int, str, int], list[float | None]] = {}
        """Per offset, delimiter and column, the number in each row's cell of that column (see `_cell_numbers`)."""
        self.code_styles: dict[tuple[Span, ...], _CodeStyle | None] = {}
        """Per set of lines read, the style of diagnostic codes they show (see `_code_style`)."""
        self.table_ends: dict[int, int] = {}
        """Per offset under a table's names, where the rule closing its rows begins (see `_table_end`)."""
        self.end = self.total - 1 if text.endswith('\n') else self.total
        """End of the last line's content (a final line break does not open another line)."""

    def line_at(self, position: int) -> Span:
        start = self.text.rfind('\n', 0, position) + 1
        newline = self.text.find('\n', position, self.end)
        return start, self.end if newline == -1 else newline

    def content(self, span: Span) -> str:
        return self.text[span[0] : span[1]]

    @property
    def has_blocks(self) -> bool:
        """Whether blank lines part the text's first 64 KB into blocks (looked for once per text)."""
        if self._blocks is None:
            self._blocks = self.text.find('\n\n', 0, 64 * 1024) != -1
        return self._blocks

    def last_unindented(self, position: int, window: int) -> int:
        """Where the last line not indented begins in `[position - window, position)` (its newline), or -1.

        Searched back chunk by chunk, each chunk's lines found once per text: an indented dump's sections
        can be thousands of lines long, and every key asked about in one looks back over the same stretch.
        """
        floor = max(0, position - window)
        highest = position - 2  # the newline of a line that begins before `position`
        for index in range(highest // _CHUNK_CHARS, floor // _CHUNK_CHARS - 1, -1):
            found = self._chunk(index)
            at = bisect_right(found, highest) - 1
            if at >= 0:
                return found[at] if found[at] >= floor else -1
        return -1

    def _chunk(self, index: int) -> list[int]:
        found = self._unindented.get(index)
        if found is None:
            low = index * _CHUNK_CHARS
            matches = _UNINDENTED.finditer(self.text, low, min(self.total, low + _CHUNK_CHARS + 1))
            found = self._unindented[index] = [match.start() for match in matches]
        return found

    def lines_holding(self, literal: str, begin: int, end: int, places: list[int] | None = None) -> Iterator[Span]:
        """Each line that holds `literal` within `[begin, end)`, in order, once: found by searching, or taken
        from `places` (every place the literal begins there, from one scan for many literals)."""
        if places is not None:
            floor = begin
            for position in places:
                if position >= floor:
                    span = self.line_at(position)
                    yield span
                    floor = span[1] + 1
            return
        find = self.text.find
        position = find(literal, begin, end)
        while position != -1:
            span = self.line_at(position)
            yield span
            position = find(literal, span[1] + 1, end)

    def next_line(self, span: Span) -> Span | None:
        start = span[1] + 1
        if start > self.end:
            return None
        newline = self.text.find('\n', start, self.end)
        return start, self.end if newline == -1 else newline

    def previous_line(self, span: Span) -> Span | None:
        if span[0] == 0:
            return None
        stop = span[0] - 1
        return self.text.rfind('\n', 0, stop) + 1, stop

    def forward(self, span: Span, limit: int) -> Iterator[Span]:
        """Up to `limit` lines after `span`."""
        current = span
        for _ in range(limit):
            following = self.next_line(current)
            if following is None:
                return
            yield following
            current = following

    def backward(self, span: Span, limit: int) -> Iterator[Span]:
        """Up to `limit` lines before `span`, nearest first."""
        current = span
        for _ in range(limit):
            preceding = self.previous_line(current)
            if preceding is None:
                return
            yield preceding
            current = preceding

    def opened_above(self, span: Span, limit: int, opens: Callable[[str], object]) -> list[Span]:
        """The lines above `span` from the nearest one `opens` accepts, within `limit` lines and with no blank line
        between (none when there is no such line): the block `span` sits in, from its opening line."""
        above: list[Span] = []
        for line in self.backward(span, limit):
            content = self.content(line)
            if not content.strip():
                return []
            above.append(line)
            if opens(content):
                return above[::-1]
        return []

    def head(self, limit: int, max_chars: int) -> list[Span]:
        out: list[Span] = []
        start = 0
        while start <= self.end and len(out) < limit and start <= max_chars:
            newline = self.text.find('\n', start, self.end)
            stop = self.end if newline == -1 else newline
            out.append((start, stop))
            start = stop + 1
        return out

    def tail(self, limit: int, floor: int) -> list[Span]:
        out: list[Span] = []
        stop = self.end
        while stop >= floor and len(out) < limit:
            newline = self.text.rfind('\n', floor, stop)
            start = newline + 1 if newline != -1 else floor
            out.append((start, stop))
            if newline == -1:
                break
            stop = newline
        out.reverse()
        return out

    def windows(self, floor: int, ceiling: int, count: int, lines: int) -> list[Span]:
        """`count` runs of up to `lines` whole lines, evenly spread over `[floor, ceiling)`."""
        out: list[Span] = []
        if ceiling - floor < 2 or count <= 0:
            return out
        step = (ceiling - floor) // (count + 1)
        for index in range(1, count + 1):
            position = floor + index * step
            newline = self.text.find('\n', position, ceiling)
            if newline == -1:
                continue
            span = self.next_line((newline, newline))
            taken = 0
            while span is not None and span[1] <= ceiling and taken < lines:
                out.append(span)
                taken += 1
                span = self.next_line(span)
        return out


# --- detection ----------------------------------------------------------------------------------

_COMMIT = re.compile(r'commit [0-9a-f]{7,40}(?: \(.*\)| (?!\d+\s*$)\S.*)?\s*$')
"""A commit's first line in `git log` (`commit 5b604c3...`, with `--decorate` its refs after it, with a format of one's
own its date or author); not an object of a listing (`commit 5b604c3... 1333`: `git cat-file --batch-check`'s type,
name and size)."""
_CHANGESET = re.compile(r'changeset: +\d+:[0-9a-f]{12,40}\s*$')
"""A changeset's first line in `hg log`: `changeset:   815:26c490c7741e`."""
_BLAME_HEADER = re.compile(r'([0-9a-f]{40}) \d+ \d+(?: \d+)?$')
"""The line opening a record of `git blame --porcelain` (`--line-porcelain`): the commit, the line's number in it and
in the file, and (at a group's first line) how many lines the group has."""
_ONELINE_COMMIT = re.compile(
    r'(?:[*|/\\ ]+ )?(?:[0-9a-f]{7,12}|[0-9a-f]{40}) (?![A-Za-z?] )(?!(?:commit|tree|blob|tag) +\d)\S'
)
"""A short (or full) hash and a subject (`git log --oneline`, `--graph`); a checksum is longer, or two spaces
from its name; a symbol table's address is 16 digits, or followed by a one-letter type (`nm`); an object of a pack
or a repository is followed by its type and its size (`git verify-pack -v`, `git cat-file --batch-check`)."""
_GRAPH_ONLY = re.compile(r'[*|/\\ _.-]+$')
"""A `--graph` line that only draws branches."""
_PERMS = re.compile(r'[-dlcbps][rwxsStT-]{9}[.+@]?\s+(?:\d|[\w.-]+/[\w.-]+\s+\d)')
"""A listed entry's mode, then its links (`ls -l`) or its owner and group (`tar -tv`: `-rw-r--r-- root/root 695`)."""
_TREE_MARKS = ('├── ', '└── ', '|-- ', '`-- ', '├─ ', '└─ ', '├─┬ ', '└─┬ ')
"""Where a tree's node begins: `tree`'s and `npm ls`'s (`├─┬ ` over a node's children), their ASCII forms, a
profiler's call tree's (pyinstrument)."""
_SYSCALL = re.compile(
    r'(?:\[pid +\d+\] |\d+ +)?(?:\d\d:\d\d:\d\d\.\d+ )?[a-z_][a-z0-9_]*\(.*(?:\) += |<unfinished|resumed>)'
)
_CHECKER_NAME = r'(?:[a-z][\w.+-]*: )?'
"""The checker's name a finding may open with, before its place: mandoc's `mandoc: tar/bsdtar.1:181:5: WARNING: ...`."""
_RULE_PATH = r'[a-z]+(?:/[A-Za-z][\w-]*)+'
"""A rule named as a path of its group and name: Biome's `lint/correctness/noConstantCondition`."""
_DIAGNOSTIC = re.compile(
    # The place first, or after the checker's name.
    r'\s*' + _CHECKER_NAME + r'(?:[^\s:]+):\d+(?::\d+)?(?:(?::| -) ?'
    r'(?:error|warning|note|info|fatal error|style|performance|portability|information|[A-Z]{1,4}\d{2,5}\b|[a-z]+\d+\b)'
    r'| [A-Z]{1,4}\d{2,5}\b)'  # a code after a space, no colon (markdownlint, hadolint): `README.md:12:3 MD042/...`
    r'|\s*(?:error|warning)(?:\[[\w-]+\])?: '
    r'|\S+\(\d+,\d+\): (?:error|warning) '
    r'|\s+--> \S+:\d+:\d+'
    # A file's line and column, then the message, whatever it opens with (go vet, luacheck, rubocop, yamllint): the
    # file named with its extension, which a time (`10:00:00`) is not; after a bracketed severity (Checkstyle's
    # `[ERROR] /src/Foo.java:30:8: ...`).
    r'|\s*[^\s:]*\.[A-Za-z]\w{0,9}:\d+:\d+:? \S|\s*\[[A-Z]{3,7}\] [^\s:]*\.[A-Za-z]\w{0,9}:\d+(?::\d+)?: \S'
    # Or its line alone, then a message in words (vulture: `x13.py:341: unused variable 'comptype' (100% confidence)`).
    r'|\s*[^\s:]*\.[A-Za-z]\w{0,9}:\d+: [a-z]+ [a-z]'
    # Or its line, then the rule's name in words run together and the message, in columns (PHPMD's text format:
    # `src/Markdown.php:1642  UndefinedVariable  Avoid using undefined variables such as '$text' ...`).
    r'|\s*[^\s:]*\.[A-Za-z]\w{0,9}:\d+\s{2,}[A-Z]+[a-z]+(?:[A-Z][a-z0-9]*)+\s{2,}\S'
    # Or its line, then a message ending in the rule it broke, bracketed (cpplint: `src/core.c:1488:  Almost always,
    # snprintf is better than strcpy  [runtime/printf] [4]`).
    r'|\s*[^\s:]*\.[A-Za-z]\w{0,9}:\d+:\s+\S[^\n]*\[[\w/.+-]+\](?: \[\d\])?\s*$'
    # ESLint's stylish format: under a line naming the file, each finding's line and column, severity, message, rule.
    r'|\s+\d+:\d+\s+(?:error|warning)\s{2,}\S'
    # The file, then its line and column in words (JSHint's, JSLint's): `lib/output.js: line 979, col 24, Expected ...`.
    r'|\s*[^\s:]+: line \d+, col \d+, \S',
    re.IGNORECASE,
)
_SPELLING = re.compile(r':\d+: (\S+) ==> ')
"""A spelling checker's finding (codespell): `networkx/utils/misc.py:285: supercedes ==> supersedes`."""
_ARROW = re.compile(r'\s*--> \S+:\d+(?::\d+)?\s*$')
"""Where a diagnostic printed with its source points (ruff's and rustc's full format): `  --> src/app.py:12:5`."""
_SNIPPET = re.compile(r'\s*(?:\d+\s*)?[|+-](?:\s|$)|\s*= |(?:help|note|error|warning)\b|[A-Z]{1,4}\d{2,5} \S')
"""The other lines of such a diagnostic: its code and message, the numbered source lines under a `|` gutter, a
suggested fix's `+`/`-` lines, `help:` and `= note:` lines."""
# Tried from a word's start only, its end taken whole: tried at every character, `\S+::` costs the cube of a long run of
# colons (43 ms for a line of 400).
_PYTEST = re.compile(
    r'(?<!\S)\S+?::\S++ (?:PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)|=+ test session starts =+'
    r'|^[\w./-]+\.py::\w'  # a test's node id alone on its line (`pytest --collect-only -q`)
)


def _pytest_line(line: str) -> bool:
    # `\S+::` searched along a line without spaces (a CSV row) retries at every position: quadratic.
    return ('::' in line or ' test session starts ' in line) and _PYTEST.search(line) is not None


def _pytest_run_line(line: str) -> bool:
    """A line of pytest's, or of its quiet progress (`pytest -q`: a test a character, the share done at the end)."""
    if line.endswith('%]'):
        return _PYTEST_PROGRESS.match(line) is not None
    return _pytest_line(line)


_PYTEST_PROGRESS = re.compile(r'[.sSFExX]+ +\[ *\d+%\]$')


_OTHER_TESTS = re.compile(
    r'(?:--- (?:PASS|FAIL): |=== RUN |(?:PASS|FAIL) +\S+\.(?:js|ts|tsx)\b|test \S+ \.\.\. (?:ok|FAILED)'
    r'|\w+ \([\w.]+\)(?: \S.*)? \.\.\. (?:ok|FAIL|ERROR|skipped|expected failure|unexpected success)'  # unittest -v
    r'|(?:not )?ok \d+\b'  # TAP's (tape, node-tap): `ok 127 should be deeply equivalent`, `not ok 128 ...`
    # Jest's and mocha's, under the suite: `    ✓ parses ISO dates (3ms)`, `    ✕ startOf endOf quarter (17ms)`.
    r'|[ \t]*[\u2713\u2714\u221a\u2715\u2716\u2717\u2718\u00d7] \S'
    # Twisted's trial, under its module and class: `    test_implicitStart ...     [FAIL]`.
    r'|[ \t]+\w+ \.\.\. +\[(?:OK|FAIL|ERROR|SKIPPED|SUCCESS|TODO|EXPECTED FAILURE|UNEXPECTED SUCCESS)\]$'
    # GoogleTest's, a test a line as it starts and ends: `[ RUN      ] suite.name`, `[       OK ] suite.name (0 ms)`.
    r'|\[ +(?:RUN|OK|FAILED|SKIPPED) +\] \w)'
)
_OTHER_TESTS_MARKS = (
    '[ RUN  ',
    '  OK ] ',
    'PASS',
    'FAIL',
    '=== RUN ',
    'test ',
    ' ... ',
    'ok ',
    '\u2713',
    '\u2714',
    '\u221a',
    '\u2715',
    '\u2716',
    '\u2717',
    '\u00d7',
)
"""Every line `_OTHER_TESTS` matches holds one of these."""
_KEY_VALUE = re.compile(r'\s*["\']?[\w.\-/\[\]@$]+["\']?\s*(?:=|:(?=\s|$))\s*')
_RULE_CHARS = re.compile(r'[-=+|: \u2500-\u257f]*')
"""What a rule is drawn with between its ends: dashes, equals signs, pluses, bars, colons, spaces, and the box-drawing
characters a table drawn in boxes is ruled with (`├────┼────┤`, DuckDB's, SQLite's `.mode box`)."""
_RULE_RUN = re.compile(r'[-=\u2500\u2501\u2550]{3}')
_BOX_BAR = '\u2502'
"""The bar between a boxed table's columns (`│ symbol │ month │`)."""
_DOTTED_BAR = '\u2506'
"""The dotted bar between the columns of a table boxed by solid ones (polars': `│ origin ┆ dest │`)."""
_BOX_TOPS = ('\u250c', '\u256d', '\u2554', '\u250f')
"""The corners a box's top border opens with: `┌`, `╭`, `╔`, `┏`."""
_BOX_BOTTOM = '\u2514'
"""The corner a box's bottom border opens with: `└`."""


def is_rule(line: str) -> bool:
    """Whether the line is a rule (`-----`, `===+===`): it draws, it says nothing."""
    # Stripped and read in two linear passes: one pattern for all of it backtracks over runs of dashes and spaces,
    # quadratically (a line of 260 dashes and a word took 69 ms).
    middle = line.strip()
    return _RULE_CHARS.fullmatch(middle) is not None and _RULE_RUN.search(middle) is not None


_NUMBER = re.compile(r'-?\d{1,3}(?:,\d{3})+(?:\.\d+)?%?$|-?\d+(?:[.,]\d+)?(?:/\d+)?%?$')
_VERSION = re.compile(r'v?\d+(?:\.\d+){2,3}(?:[-+.][0-9A-Za-z.]+)?$')
"""A release's version (`7.29.16`, `5.0.0-alpha.9`): a table of packages (`npm outdated`, `pip list`) holds these."""
_DIFF_START = ('diff --git ', 'diff -', '--- a/', 'Index: ')


_DETECT_HEAD = 24
_DETECT_CHARS = 240
"""A line is judged by its first characters: every shape shows itself early in a line."""


def _share(lines: list[str], test: Callable[[str], object]) -> float:
    """The share of `lines` that pass `test`."""
    if not lines:
        return 0.0
    return sum(1 for line in lines if test(line)) / len(lines)


def _over(lines: list[str], test: Callable[[str], object], share: float) -> bool:
    """Whether more than `share` of `lines` pass `test` (`_share(...) > share`), stopping once it is settled:
    most shapes are ruled out by the first lines that fail them."""
    total = len(lines)
    if not total:
        return False
    needed = int(share * total) + 1  # passes that make the share exceed `share`
    while needed / total <= share:  # float rounding: `int` may fall one short
        needed += 1
    allowed = total - needed  # failures that still leave room for `needed` passes
    passed = failed = 0
    for line in lines:
        if test(line):
            passed += 1
            if passed >= needed:
                return True
        else:
            failed += 1
            if failed > allowed:
                return False
    return False


EDGE = 256
"""Characters read at either end of a text for its first and last non-blank character."""


def _edge(text: str, *, at_end: bool) -> str:
    """The text's first (or last) non-blank character, '' if none: read from its ends, never a stripped copy of it
    (`text.rstrip()` of a megabyte that ends in a newline is a fresh megabyte)."""
    piece = (text[-EDGE:].rstrip() if at_end else text[:EDGE].lstrip()) if len(text) > EDGE else text.strip()
    if piece:
        return piece[-1] if at_end else piece[0]
    if len(text) <= EDGE:
        return ''
    bare = text.rstrip() if at_end else text.lstrip()  # more blank space than `EDGE` at that end: rare
    return (bare[-1:] if at_end else bare[:1]) if bare else ''


def detect(view: TextView, head: list[Span], sample: list[Span]) -> Shape:
    """The shape of the text, from its head and a sample of lines from the rest."""
    text = view.text
    first, last = _edge(text, at_end=False), _edge(text, at_end=True)
    head_lines = [view.content(span) for span in head]
    sampled = [view.content(span) for span in sample]
    # Lines judged for a shape: enough of the head to see past a banner, and the sampled middle.
    nonblank = [line[:_DETECT_CHARS] for line in head_lines[:_DETECT_HEAD] + sampled if line.strip()]
    if not nonblank:
        return Shape(ShapeKind.log)
    whole = [line for line in head_lines[:_DETECT_HEAD] + sampled if line.strip()]
    if _over(whole, lambda line: line.lstrip().startswith('{') and line.rstrip().rstrip(',').endswith('}'), 0.8):
        return Shape(ShapeKind.records, 'lines')  # JSON lines: each line a whole record
    if first in '[{' and last in ']}':
        if len(head) <= 2 and text[:EDGE].lstrip().startswith('[{'):
            return Shape(ShapeKind.records, 'compact')
        if len(head) > 2 and _json_opening(head_lines):
            return Shape(ShapeKind.json, 'findings' if _json_findings(head_lines + sampled) else 'indented')
    elif last in ']}' and any(
        line in ('{', '[') and _JSON_MEMBER.match(following)
        for line, following in pairwise(head_lines[1 : JSON_PREAMBLE + 1])
    ):
        return Shape(ShapeKind.json, 'indented')  # a document after a few lines of warnings (`pip --report -`)
    if any(line.startswith(_JAVA_STATE) for line in head_lines) and any(
        _JAVA_THREAD.match(line) for line in head_lines
    ):
        return Shape(ShapeKind.log, 'threads')  # a JVM's thread dump (`jstack`, `jcmd Thread.print`)
    if any(_GDB_THREAD.match(line) for line in head_lines) and any(
        _GDB_FRAME.match(line) or _PYSPY_FRAME.match(line) for line in nonblank
    ):
        # Every thread's stack: gdb's `thread apply all bt`, `py-spy dump`.
        return Shape(ShapeKind.log, 'threads')
    if head_lines and _BLAME_HEADER.match(head_lines[0]) and any(line.startswith('author ') for line in head_lines[:3]):
        return Shape(ShapeKind.history, 'blame')  # `git blame --porcelain`: a record a line of the file
    # A history opens with a commit, even when its patches follow (`git log -p`): a diff's lines are then
    # read in the commit they belong to.
    if any(_COMMIT.match(line) for line in head_lines[:3]):
        return Shape(ShapeKind.history, 'git')
    if any(_CHANGESET.match(line) for line in head_lines[:3]):
        return Shape(ShapeKind.history, 'hg')  # `hg log`: a record of fields per changeset
    if any(line.startswith(_DIFF_START) for line in head_lines[:8]) or (
        _over(nonblank, lambda line: line.startswith(('@@ ', '+', '-', ' ')), 0.9)
        and any(line.startswith('@@ ') for line in nonblank)
    ):
        return Shape(ShapeKind.diff, 'unified')
    oneline = _ONELINE_COMMIT.match
    if _over(nonblank, oneline, 0.5) and (
        _share(nonblank, oneline) + _share(nonblank, lambda line: bool(_GRAPH_ONLY.match(line))) > 0.8
    ):
        return Shape(ShapeKind.history, 'oneline')  # `git log --oneline` (`--graph` too): a commit a line
    # A shape none of whose marks occur in the lines judged is ruled out by one search of them all.
    joined = '\n'.join(nonblank)
    if any(mark in joined for mark in _TREE_MARKS) and (
        _over(nonblank, lambda line: any(mark in line for mark in _TREE_MARKS), 0.5)
    ):
        return Shape(ShapeKind.listing, 'tree')
    if _over(
        nonblank,
        # A directory's name over its entries (`ls -lR`), not a search's result that ends in a colon (`def f():`).
        lambda line: bool(_PERMS.match(line)) or line.startswith('total ') or (line.endswith(':') and ' ' not in line),
        0.7,
    ):
        return Shape(ShapeKind.listing, 'ls')
    if '(' in joined and _over(nonblank, lambda line: bool(_SYSCALL.match(line)), 0.5):
        return Shape(ShapeKind.syscalls, 'strace')
    # A quiet run's progress lines count towards the share only: one of them heads other output (a coverage table).
    if any(_pytest_line(line) for line in head_lines) or _over(nonblank, _pytest_run_line, 0.3):
        return Shape(ShapeKind.test_run, 'pytest')
    if any(mark in joined for mark in _OTHER_TESTS_MARKS) and _over(
        nonblank, lambda line: bool(_OTHER_TESTS.match(line)), 0.3
    ):
        return Shape(ShapeKind.test_run, 'tests')
    if any(line.startswith(('Test project ', 'UpdateCTestConfiguration ')) for line in head_lines[:_DETECT_HEAD]):
        # CTest names its project first; with `-V`, each test's output follows, every line under the test's number.
        return Shape(ShapeKind.test_run, 'ctest')
    if _over(nonblank, _STAMPED_LEVEL.match, 0.8):
        # Nearly every line a time and a level (`2026-11-29T10:00:00 INFO ...`, `[2026/11/29 10:00:00] [error]`): a log,
        # whatever else its messages look like; no other shape is tried line by line.
        return Shape(ShapeKind.log)
    if _manual(head_lines, nonblank):
        return Shape(ShapeKind.key_value, 'manual')
    # Findings quoted with their source need carets under it: without a `^`, no line is read twice for them.
    diagnostic = _DIAGNOSTIC.match
    if _over(nonblank, lambda line: bool(diagnostic(line)), 0.4) or (
        '^' in joined and _quoted_findings(nonblank, text)
    ):
        return Shape(ShapeKind.diagnostics, 'lines')
    if ' ==> ' in joined and _over(nonblank, lambda line: bool(_SPELLING.search(line)), 0.4):
        return Shape(ShapeKind.diagnostics, 'lines')  # a spelling checker's findings: the word is the code
    if '-->' in joined and _snippets(nonblank):
        return Shape(ShapeKind.diagnostics, 'snippets')
    if '^' in joined and _carets(nonblank):
        return Shape(ShapeKind.diagnostics, 'carets')
    if '\u2501' in joined and sum(1 for line in nonblank if _FRAMED_HEADER.match(line)) >= FRAMED_HEADERS:
        return Shape(ShapeKind.diagnostics, 'framed')
    if '>> Issue: [' in joined and sum(1 for line in nonblank if _ISSUE.match(line)) >= 2:
        return Shape(ShapeKind.diagnostics, 'issues')
    if any(line.startswith('# TYPE ') for line in nonblank) and _over(
        nonblank, lambda line: bool(_EXPOSITION_LINE.match(line)), 0.9
    ):
        return Shape(ShapeKind.key_value, 'metrics')  # Prometheus' text format (`curl .../metrics`): a sample a line
    if _over(nonblank, lambda line: bool(_SEARCH_HIT.match(line)), 0.8):
        return Shape(ShapeKind.listing, 'matches')  # `grep -rn`, `git grep -n`, `rg -n`: a file, a line, what matched
    # A log whose lines open with their level, padded to one width (uvicorn's `INFO:     127.0.0.1 - "GET ..."`),
    # is neither a table of two aligned columns nor a dump of `INFO:` keys.
    if _over(nonblank, lambda line: bool(_LOG_LEVEL.match(line)), 0.5):
        return Shape(ShapeKind.log)
    if _over(nonblank, lambda line: bool(_DIFFSTAT.match(line)), 0.8):
        return Shape(ShapeKind.listing, 'diffstat')  # `git diff --stat`: a changed file a line, then the totals
    if '(actual ' in joined and sum(1 for line in nonblank if _PLAN_NODE.match(line)) >= max(
        3, PLAN_SHARE * len(nonblank)
    ):
        return Shape(
            ShapeKind.listing, 'plan'
        )  # PostgreSQL's `EXPLAIN ANALYZE`: a tree of plan nodes and their details
    if any(_EXPANDED_RECORD.match(line) for line in head_lines[:2]):
        return Shape(ShapeKind.key_value, 'expanded')  # psql's `-x`: a record's fields a line, `key | value`
    table = _table(view, head, head_lines, sampled)
    if table is not None:
        return table
    if _over(nonblank, path_line, 0.8):
        return Shape(ShapeKind.listing, 'find')
    if _over(nonblank, lambda line: bool(_KEY_VALUE.match(line)), 0.6) and _varied_keys(nonblank):
        return Shape(ShapeKind.key_value, 'pairs')
    if _stanzas(nonblank):
        return Shape(ShapeKind.key_value, 'stanzas')
    return Shape(ShapeKind.log)


_MAN_TITLE = re.compile(r'([A-Z][\w.:+-]*)\((\d\w*)\)\s.*\s\1\(\2\)\s*$')
"""A manual page's first line, its name and section at both ends: `TAR(1)   GNU TAR Manual   TAR(1)`."""
_GO_DOC = re.compile(r'package \w+ // import "')
"""`go doc -all`'s first line."""
_OPTION_LINE = re.compile(r'\s{0,8}(?:-[A-Za-z0-9?](?:,\s*|\s+|$|\[?=)|--[A-Za-z0-9][\w-]*)')
"""A line a command's `--help` or manual documents an option on: `  -v, --verbose  ...`, `  --log-file=#`."""
MANUAL_OPTIONS = 0.2
"""The share of the lines read that must document options for the text to be a command's help."""
MANUAL_SHARE = 0.7
"""The share of the lines read that must be options or indented under them."""
MANUAL_LINES = 15
"""Lines read at least for a text to be judged a command's help by them."""


def _manual(head_lines: list[str], nonblank: list[str]) -> bool:
    """Whether the text documents something (a manual page, `go doc`, a command's `--help`): prose and the options or
    signatures it describes, whose words (`error`, `fail`, `warning`) say what a thing does, not what went wrong."""
    if head_lines and (_MAN_TITLE.match(head_lines[0]) or _GO_DOC.match(head_lines[0])):
        return True
    # Options, and what they do indented under them or beside them (and, at its end, what each is set to); the test
    # ruling most texts out first, at their first lines.
    if not _over(nonblank, lambda line: line[:1] in ' \t' or _OPTION_LINE.match(line), MANUAL_SHARE):
        return False
    return _over(nonblank, _OPTION_LINE.match, MANUAL_OPTIONS) and len(nonblank) >= MANUAL_LINES


def manual_start(line: str) -> bool:
    """Whether a command's help begins at `line`: its usage or its first option (what a program printed before it,
    a warning, is not of the help)."""
    return line.lstrip().lower().startswith('usage') or bool(_OPTION_LINE.match(line))


_BARE_CARET = re.compile(r'\s*\^[~^]*\s*$')
"""A caret under the source line a finding quotes (cppcheck, clang): `        ^`."""
QUOTED_FINDINGS = 0.2
"""The share of lines findings must make for findings each quoted with its source and a caret to be diagnostics."""
GUTTER_FINDINGS = 0.1
"""The same share for findings quoting their source in a gutter, more lines of it each."""


def _quoted_findings(lines: list[str], text: str) -> bool:
    """Whether the lines are findings each followed by the source line it is about and a caret under the place
    (cppcheck, clang): a third of the lines are findings, the rest what they quote. Newer compilers (gcc 9 on,
    clang-tidy) quote in a gutter, each line of it counted: the numbered source, the caret, a suggested fix; a build
    that failed (`make: *** [...] Error 1`, a compiler's `error:`) is read as the log of a build, its failure first."""
    findings = bare = gutter = marked = 0
    for line in lines:
        if _DIAGNOSTIC.match(line):
            findings += 1
        elif _BARE_CARET.match(line):
            bare += 1
        elif _QUOTED_GUTTER.match(line):
            gutter += 1
            marked += '^' in line
    quoted = findings + 2 * bare + gutter  # a bare caret stands under a source line of no gutter
    # In a gutter, a finding may quote many lines (an analyzer's path through the code): fewer findings suffice.
    share = GUTTER_FINDINGS if gutter > findings else QUOTED_FINDINGS
    if not (findings > share * len(lines) and bare + marked >= 2 and quoted > 0.7 * len(lines)):
        return False
    # Searched last, and only for a gutter's findings: whether make or the compiler said the build failed.
    return not (gutter > findings and any(mark in text for mark in _BUILD_STOPPED))


_BUILD_STOPPED = ('make: *** ', ']: *** ', 'ninja: build stopped', ': error: ', ': fatal error: ')
"""How make and ninja say a build failed, and how a compiler says why."""
_QUOTED_GUTTER = re.compile(r' *\d* \| ')
"""A line of the gutter a compiler quotes source in: `  44 | #include "dict.c"`, `     |           ^~~~`."""


ARROWS = 2
"""Location arrows the judged lines must hold to read them as diagnostics shown with their source."""


def _snippets(lines: list[str]) -> bool:
    """Whether the lines are diagnostics printed with the source they point at: each a code and message, an
    arrow to the place, and numbered source lines under a gutter (ruff, rustc, cargo)."""
    arrows = sum(1 for line in lines if _ARROW.match(line))
    return arrows >= ARROWS and _over(lines, lambda line: bool(_ARROW.match(line) or _SNIPPET.match(line)), 0.7)


_CARET = re.compile(r'\s*\^-*\^? ([A-Z]{1,4}\d{2,5}) \((?:error|warning|info|style|note)\): ')
"""A finding under the source it marks (shellcheck): `    ^-- SC2086 (info): Double quote to prevent globbing`."""
_CARET_PLACE = re.compile(r'In (\S.*) line \d+:$')
"""The place above such findings and their source line: `In /usr/bin/ucf line 593:`."""
CARET_REACH = 8
"""Lines above a marked finding looked at for its place (findings on one source line stack their carets)."""


def _carets(lines: list[str]) -> bool:
    """Whether the lines are findings marked under the source they are about, each block under its place (a
    shellcheck report): places and caret lines make a good share of them, and both occur."""
    places = sum(1 for line in lines if _CARET_PLACE.match(line))
    marks = sum(1 for line in lines if _CARET.match(line))
    return places >= 2 and marks >= 2 and places + marks > 0.25 * len(lines)


_FRAMED_HEADER = re.compile(r'[^\s:]+:\d+:\d+ ' + _RULE_PATH + r'(?:  [A-Z]+)* +\u2501')
"""A finding heading its own frame (Biome): its place, its rule, and a rule drawn to the line's end
(`lib/parse.js:304:13 lint/correctness/noConstantCondition ━━━━━`); its message and source follow, indented."""
FRAMED_HEADERS = 2
"""Framed findings the lines judged for a shape must show, at least, to be read as such a report."""
_FRAMED_MESSAGE = re.compile(r'  ([\u00d7!i\u2139\u26a0\u2716]) \S')
"""A framed finding's message, after its severity's sign: `×` an error, `!` a warning, `i` (or `ℹ`) a note."""
_FRAMED_SOURCE = re.compile(r'  > +\d+ \u2502')
"""The source line a framed finding points at, marked in its gutter: `  > 304 │         if (...) {`."""
FRAMED_REACH = 8
"""Lines under a framed finding's header read for its message and the source line it marks."""


def _framed_finding(view: TextView, span: Span) -> list[Span]:
    """For a framed finding's header, its message and the source line it marks; for a line inside a finding, the
    header above it."""
    if _FRAMED_HEADER.match(view.content(span)):
        message: list[Span] = []
        source: list[Span] = []
        for below in view.forward(span, FRAMED_REACH):
            line = view.content(below)
            if _FRAMED_HEADER.match(line):
                break
            if not message and _FRAMED_MESSAGE.match(line):
                message.append(below)
            elif not source and _FRAMED_SOURCE.match(line):
                source.append(below)
        return [*message, *source]
    for above in view.backward(span, 4 * FRAMED_REACH):
        if _FRAMED_HEADER.match(view.content(above)):
            return [above]
    return []


def _framed_severity(view: TextView, position: int) -> int:
    """How grave the framed finding whose header is at `position` is, by its message's sign: 0 for `×`, 1 for `!`,
    2 for a note."""
    for span in _framed_finding(view, view.line_at(position)):
        sign = _FRAMED_MESSAGE.match(view.content(span))
        if sign is not None:
            return 0 if sign.group(1) in '\u00d7\u2716' else 1 if sign.group(1) in '!\u26a0' else 2
    return 1


def _caret_place(view: TextView, span: Span) -> list[Span]:
    """For a marked finding, its place and the source line under it; for a place, that source line and the mark."""
    if _CARET_PLACE.match(view.content(span)):
        below = list(view.forward(span, 2))
        return below if len(below) == 2 and _CARET.match(view.content(below[1])) else below[:1]
    for above in view.backward(span, CARET_REACH):
        if _CARET_PLACE.match(view.content(above)):
            source = view.next_line(above)
            return [above] if source is None or source == span else [above, source]
        if not view.content(above).strip():
            return []
    return []


_ISSUE = re.compile(r'>> Issue: \[([A-Z]+\d+)[:\]]')
"""The first line of a finding reported as a record of lines (bandit): `>> Issue: [B324:hashlib] Use of weak SHA1`."""
_ISSUE_PLACE = re.compile(r'\s+Location: ')
ISSUE_LINES = 6
"""Lines of such a record looked through for its place (`   Location: ./paramiko/pkey.py:390:15`)."""


def _issue_record(view: TextView, span: Span) -> list[Span]:
    """For a finding's first line, its place; for another line of the record (its place, its severity), the first
    line, which names the finding."""
    if _ISSUE.match(view.content(span)):
        for following in view.forward(span, ISSUE_LINES):
            if _ISSUE_PLACE.match(view.content(following)):
                return [following]
        return []
    for above in view.backward(span, ISSUE_LINES):
        if _ISSUE.match(view.content(above)):
            return [above]
    return []


JSON_PREAMBLE = 36
"""Lines of warnings or notices a command may print before the JSON document it was asked for."""
_JSON_MEMBER = re.compile(r'\s+(?:"[^"]*":|[-\d\[{"]|true\b|false\b|null\b)')
"""The first line inside a JSON document's opening bracket: a key, or a value (C's `{` is followed by code)."""


def _json_findings(lines: list[str]) -> bool:
    """Whether the JSON lines read are a checker's findings: records with a severity and a message (pylint's, a
    scanner's), read as a report is."""
    severities = sum(1 for line in lines if _JSON_SEVERITY.match(f'\n{line}\n'))
    return severities >= 2 and any(_TELLING_FIELD.match(line) and '"message' in line for line in lines)


def _json_opening(head_lines: list[str]) -> bool:
    """Whether the text opens as an indented JSON document does: its bracket alone, or with its first member, then a
    member on the next line. A debugger's `[New LWP 13053]` lines open and close with brackets too."""
    opening = head_lines[0].strip()
    if opening in ('{', '['):
        return len(head_lines) > 1 and (bool(_JSON_MEMBER.match(head_lines[1])) or head_lines[1].strip() in ']}')
    return opening[:2] in ('[{', '[[', '["', '{"') or (opening[:1] == '[' and opening[1:2].isdigit())


def _varied_keys(lines: list[str]) -> bool:
    """Whether the keys of `key = value` lines vary, as a dump's do: one key on line after line (`Downloading:`
    over a progress bar's every step) is a log's prefix. Nor are they keys when most of what follows them is a
    sentence: `aclocal: found macro PKG_PROG_PKG_CONFIG in m4/pkg.m4: 58`, a tool's messages under its name."""
    found = [(found.group().strip(), line[found.end() :]) for line in lines if (found := _KEY_VALUE.match(line))]
    keys = [key for key, _ in found]
    messages = sum(1 for _, value in found if value.count(' ') >= MESSAGE_WORDS - 1)
    # A few levels on most lines (ssh's `debug1:`, `debug2:` and `debug3:`) are a log's, not a dump's keys.
    commonest = sum(count for _, count in Counter(keys).most_common(COMMON_KEYS))
    return (
        len(set(keys)) >= min(3, len(keys))
        and messages <= MESSAGE_SHARE * len(found)
        and commonest <= COMMON_KEYS_SHARE * len(keys)
    )


COMMON_KEYS = 3
COMMON_KEYS_SHARE = 0.6
"""Share of a dump's keyed lines its `COMMON_KEYS` commonest keys may open: more, and they are a log's levels."""


MESSAGE_WORDS = 5
"""Words of a value that make it a message rather than a setting."""
MESSAGE_SHARE = 0.5
"""Share of a dump's values that may be messages: more, and the lines are a log whose lines name their tool."""


_STANZA_KEY = re.compile(r'([A-Z][\w-]*): ')
_LOG_LEVELS = frozenset(('INFO', 'WARNING', 'WARN', 'ERROR', 'DEBUG', 'CRITICAL', 'FATAL', 'TRACE', 'NOTICE', 'NOTE'))


def _stanzas(lines: list[str]) -> bool:
    """Records of `Key: value` fields whose long values go on in indented lines (`dpkg -s`, `apt-cache show`,
    `pip show`, mail and HTTP headers): most unindented lines open with a capitalised key, and the keys vary
    (a log's `INFO:` and `ERROR:` are levels, not keys)."""
    unindented = [line for line in lines if not line[:1].isspace()]
    if len(unindented) < max(4, 0.4 * len(lines)):
        return False
    keys = [found.group(1) for line in unindented if (found := _STANZA_KEY.match(line))]
    return (
        len(keys) >= 0.8 * len(unindented)
        and len(set(keys)) >= 4
        and sum(key.upper() in _LOG_LEVELS for key in keys) < 0.2 * len(keys)
    )


_RULE_STROKES = re.compile(r'[-=\u2500\u2501\u2550]')
"""The strokes a rule is drawn with."""


def row_fields(line: str, delimiter: str) -> list[str]:
    """A table row's cells: split at its delimiter, or at blanks (`' '`: a table aligned by them)."""
    if delimiter == ' ':
        return line.split()
    if delimiter == _DOTTED_BAR:
        return [field.strip(' \t' + _BOX_BAR) for field in line.split(delimiter)]  # the box's sides are no cells
    return [field.strip() for field in line.split(delimiter)]


def header_names(header: str, delimiter: str, rows: list[list[str]]) -> list[str]:
    """A table's column names, one per field of its rows: a data frame's printout (R's, pandas') names no column over
    its rows' names, so where most rows hold one field more than its header, the names stand over the last fields."""
    names = row_fields(header, delimiter)
    if delimiter != ' ' or not rows:
        return names
    width, held = Counter(len(row) for row in rows).most_common(1)[0]
    return ['', *names] if width == len(names) + 1 and held * 2 > len(rows) else names


def _table(view: TextView, head: list[Span], head_lines: list[str], sampled: list[str]) -> Shape | None:
    """A delimited or column-aligned table with a header row, found in the first lines."""
    # A rule under the header (psql's ---+---, coverage's -----) settles it.
    for index, line in enumerate(head_lines[1:12], start=1):
        if line.lstrip().startswith(_BOX_TOPS):
            if view.text.find(line.lstrip()[0], head[index][1]) != -1:
                return None  # tables drawn in boxes one after another: each is read by itself (see `_boxed_tables`)
            continue  # a box's top border: the header is under it
        if is_rule(line) and len(_RULE_STROKES.findall(line)) >= 8 and head_lines[index - 1].strip():
            if _BOX_BAR in head_lines[index - 1]:
                # A table drawn in boxes: its column names in the first row under the top border, the rows under this
                # rule (a second row above the rule, DuckDB's column types, goes with the names).
                header = index - 1
                while header > 0 and _BOX_BAR in head_lines[header - 1] and not is_rule(head_lines[header - 1]):
                    header -= 1
                extra = (*head[header + 1 : index], head[index])
                # Polars draws its columns apart with a dotted bar (`│ origin ┆ dest │`), the box's only at its sides.
                names = head_lines[header]
                bar = _DOTTED_BAR if _DOTTED_BAR in names and names.count(_BOX_BAR) <= 2 else _BOX_BAR
                return _table_shape(view, head, head_lines, header, bar, extra, 'boxed', sampled)
            if _boxed(head_lines, index):
                # A header between two rules (cloc's): the line above the first rule is a banner, not column names.
                return _table_shape(
                    view,
                    head,
                    head_lines,
                    index + 1,
                    '|' if '|' in head_lines[index + 1] else ' ',
                    (head[index + 2],),
                    'aligned',
                    sampled,
                )
            delimiter = '|' if '|' in head_lines[index - 1] else ' '
            header = index - 1 if delimiter == '|' else _header_above_rows(head_lines, index - 1)
            if header != index - 1:
                # A preamble under rules of its own: the header is the line over the rows, with what stands above it.
                extra = [head[i] for i in range(max(0, header - 4), header) if head_lines[i].strip()]
                return _table_shape(view, head, head_lines, header, delimiter, tuple(extra), 'aligned', sampled)
            extra = [head[i] for i in range(max(0, index - 4), index - 1) if head_lines[i].strip()]
            return _table_shape(view, head, head_lines, index - 1, delimiter, (*extra, head[index]), 'aligned', sampled)
    for delimiter, variant in ((',', 'csv'), ('\t', 'tsv'), ('|', 'pipes'), (';', 'csv')):
        for index, line in enumerate(head_lines[:8]):
            count = _delimiters(line, delimiter)
            if count < (1 if delimiter == '|' else 2):
                continue
            if delimiter == '|' and _PROGRESS_BAR.search(line):
                break  # a progress bar (`45%|####      | 52/115 [00:03<00:04]`) draws its pipes: a log, not a table
            if delimiter == ';' and line.startswith(';'):
                break  # a comment (dig's `;; global options: +cmd`, an INI file's, assembly's): not a header
            if index and not _lettered(line) and _names_line(head_lines[index - 1]):
                break  # a row under a header of names apart by blanks (`ss -p`'s `users:(("sshd",pid=812,fd=3))`)
            rows = [row for row in head_lines[index + 1 :] + sampled if row.strip()]
            if rows and _over(rows, lambda row, d=delimiter, c=count: _delimiters(row, d) >= c, 0.8):
                extra = tuple(head[i] for i in range(max(0, index - 4), index) if head_lines[i].strip())
                return _table_shape(view, head, head_lines, index, delimiter, extra, variant, sampled)
            break
    # Whitespace-aligned: a header of words over rows with as many fields (ls -l, ps, lsof, pstats).
    for index, line in enumerate(head_lines[:12]):
        words = line.split()
        if len(words) < 3 or not _lettered(line):
            continue
        rows = _unindented_rows(line, [row for row in head_lines[index + 1 :] + sampled if row.strip()])
        if len(rows) < 3:
            return None
        # Names of more than a word (`Local Address:Port`) make a header of more words than its rows have fields.
        spare = 2 if len(words) >= 6 else 1
        if _over(rows, _at_least(len(words) - spare), 0.8) and _over(
            rows, lambda row: any(_NUMBER.match(field) or _VERSION.match(field) for field in row.split()), 0.8
        ):
            index = _header_above_rows(head_lines, index)
            extra = tuple(head[i] for i in range(max(0, index - 4), index) if head_lines[i].strip())
            return _table_shape(view, head, head_lines, index, ' ', extra, 'aligned', sampled)
        return None
    return None


def _unindented_rows(header: str, rows: list[str]) -> list[str]:
    """The rows of a table whose header opens its line: where some rows open theirs as well, the lines indented
    under them say more of the row above (`ss -i`'s socket details), and are no rows themselves."""
    if header[:1].isspace():
        return rows
    flush = [row for row in rows if not row[:1].isspace()]
    return flush if len(flush) >= 3 and len(flush) * 5 >= len(rows) * 2 else rows


def _names_line(line: str) -> bool:
    """Whether `line` reads as column names apart by blanks: three words or more, each holding a letter."""
    return len(line.split()) >= 3 and _lettered(line)


def _delimiters(line: str, delimiter: str) -> int:
    """The delimiters between a line's fields: tabs that indent it (an XML report's, a tree's) are none."""
    return line.lstrip('\t').count('\t') if delimiter == '\t' else line.count(delimiter)


def _boxed(lines: list[str], rule: int) -> bool:
    """Whether the rule at `rule` opens a header boxed by another rule right under it, over rows, with a banner
    above it (cloc's): not a table whose every row has a rule under it, whose header is above the first rule."""
    if rule + 4 >= len(lines):
        return False
    header, under, row, next_row = lines[rule + 1 : rule + 5]
    return (
        _lettered(header)
        and len(header.split()) >= 2
        and is_rule(under)
        and under.count('-') + under.count('=') >= 8
        and bool(row.strip())
        and not is_rule(row)
        and not is_rule(next_row)
    )


_LOG_LEVEL = re.compile(r'\s*\[?(?:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE|CRITICAL|FATAL|NOTICE)\b')
"""A log line's level where the line opens with it."""
_STAMPED_LEVEL = re.compile(
    r'\[?\d{4}[-/]\d\d[-/]\d\d[T ]\d\d:\d\d:\d\d[.,]?\d*(?:Z|[+-]\d\d:?\d\d)?\]?(?: +-)? +'
    r'\[?(?:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE|CRITICAL|FATAL|NOTICE|info|warn|error|debug|notice|crit)\b'
)
"""A log line opening with its date and time, then its level."""
_PROGRESS_BAR = re.compile(r'\d%\|')
"""Where a progress bar (tqdm's) opens: its percentage against the bar's first pipe."""

ROWS_RUN = 3
"""Lines in a row opening with a number that are taken for a table's rows when looking for the header above them."""


def _header_above_rows(lines: list[str], index: int) -> int:
    """The header right above the first run of rows that open with a number, when a preamble (a profiler's
    settings and totals, `callgrind_annotate`'s) sits between the first line that reads like a header and
    the rows; otherwise `index`."""
    start = -1
    run = 0
    for position in range(index + 1, len(lines)):
        line = lines[position]
        if not line.strip() or is_rule(line):
            continue
        if _NUMBER.match(line.split()[0]):
            if not run:
                start = position
            run += 1
            if run == ROWS_RUN:
                break
        else:
            run = 0
    if run < ROWS_RUN:
        return index
    for position in range(start - 1, index, -1):
        line = lines[position]
        if not line.strip() or is_rule(line):
            continue
        return position if _lettered(line) else index
    return index


_UNLETTERED_WORD = re.compile(r'(?<!\S)[^A-Za-z\s]+(?!\S)')
"""In ASCII text, a word (a run of non-space characters) without a letter in it: `123`, `--`, `12.5%`."""


def _lettered(line: str) -> bool:
    """Whether every word of `line` holds a letter, as a header's column names do."""
    if line.isascii():
        return _UNLETTERED_WORD.search(line) is None
    return all(any(char.isalpha() for char in word) for word in line.split())


def _at_least(fields: int) -> Callable[[str], bool]:
    return lambda row: len(row.split()) >= fields


def _table_shape(
    view: TextView,
    head: list[Span],
    head_lines: list[str],
    header_index: int,
    delimiter: str,
    extra: tuple[Span, ...],
    variant: str,
    sampled: list[str],
) -> Shape:
    rows = [
        row_fields(line, delimiter) for line in head_lines[header_index + 1 :] if line.strip() and not is_rule(line)
    ][:24]
    column, falling = _numeric_column(rows)
    if falling and not _falls_on(rows, column, [row_fields(line, delimiter) for line in sampled if line.strip()]):
        falling = False  # sorted within its first group only (`ORDER BY section, size DESC`): not a top-N
    if column >= 0 and not falling:
        # Unsorted, the largest values only matter in a column that measures something (time, size, calls).
        names = header_names(head_lines[header_index], delimiter, rows)
        name = names[column] if column < len(names) else ''
        if not _MAGNITUDE.search(name):
            column = -1
    return Shape(
        ShapeKind.table,
        variant,
        header=head[header_index],
        header_extra=extra,
        sorted_rows=falling,
        numeric_column=column,
        delimiter=delimiter,
    )


_MAGNITUDE = re.compile(
    r'time|cumul|self|total|size|bytes|count|calls|\bms\b|\bus\b|\bsec|mem|cpu|%|rss|vsz|miss|elapsed|dur|'
    r'\bkb\b|\bmb\b|lines|stmts|hits|rows|cost',
    re.IGNORECASE,
)


UNSORTED_SHARE = 0.2
"""Sampled rows above the head's smallest value that leave a table's order in doubt."""


def _falls_on(rows: list[list[str]], column: int, later: list[list[str]]) -> bool:
    """Whether the rows sampled from the rest of a table stay at or under its first rows' smallest value, as
    the rows of a table sorted on `column` from largest down do."""
    floor = min((value for row in rows if (value := _number(row[column])) is not None), default=0.0)
    values = [value for row in later if len(row) > column and (value := _number(row[column])) is not None]
    return sum(value > floor for value in values) <= UNSORTED_SHARE * len(values)


_NUMBER_START = frozenset('0123456789+-. \t')
"""The characters `float` can read a number from, besides the words `_FLOAT_WORDS` and other digits: a cell opening
otherwise is not tried, as the exception a failed try raises costs more than the rest of reading the cell."""
_FLOAT_WORDS = frozenset(('nan', 'inf', 'infinity'))


def _floatable(field: str) -> bool:
    """Whether `float` may read `field`: it opens as a number does, or is one of the words for one (`import time:`
    opens with the `i` of `inf` and is not)."""
    return field[:1] in _NUMBER_START or field[:1].isdigit() or field.lower() in _FLOAT_WORDS


def cell_number(field: str) -> float | None:
    """The finite number a table's cell holds (`25.25`, `1,234`, `12%`, `8200 kB`), or None."""
    value = _number(field)
    return value if value is not None and math.isfinite(value) else None


def _number(field: str) -> float | None:
    tried = ''
    if _floatable(field):
        try:
            return float(field)  # most cells a number is read from hold just the number
        except ValueError:
            tried = field
    # The last token: a delimited field may carry a label before its number (`import time:   171`), or a size its
    # unit after it (`8200 kB`, `90 MB`, `0 bytes`: psql's sizes).
    tokens = field.split()
    scale = 1.0
    if len(tokens) >= 2 and (unit := _SIZE_UNITS.get(tokens[-1])) is not None:
        scale = unit
        tokens = tokens[:-1]
    field = tokens[-1].rstrip('%').split('/')[0].replace(',', '') if tokens else ''
    if scale == 1.0 and (sized := _SIZE_WITH_UNIT.fullmatch(field)) is not None:
        # A size written with its unit (`64.00M`, `919.72K`, `1.2GiB`: a monitor's memory column, `ls -lh`).
        return float(sized.group(1)) * _SIZE_UNITS[sized.group(2)]
    if not field or field == tried or not _floatable(field):
        return None  # a cell of one token that read as no number (`0t0`, lsof's offset) is not tried again
    try:
        return float(field) * scale
    except ValueError:
        return None


_SIZE_UNITS = {
    unit: float(scale)
    for units, scale in (
        (('bytes', 'B'), 1),
        (('kB', 'KB', 'KiB', 'K'), 2**10),
        (('MB', 'MiB', 'M'), 2**20),
        (('GB', 'GiB', 'G'), 2**30),
        (('TB', 'TiB', 'T'), 2**40),
    )
    for unit in units
}
"""A size's unit after its number, and what it multiplies the number by."""
_SIZE_WITH_UNIT = re.compile(r'(\d+(?:\.\d+)?)(B|kB|KB|KiB|K|MB|MiB|M|GB|GiB|G|TB|TiB|T)')


def _numeric_columns(rows: list[list[str]]) -> list[int]:
    """The columns holding numbers on nearly every row, with at least three different values, in order. Lines of
    fewer fields among most rows' (a title between two tables, a total) are no rows of them."""
    if len(rows) < 4:
        return []
    common = Counter(len(row) for row in rows).most_common(1)[0][0]
    whole = [row for row in rows if len(row) >= common]
    if len(whole) * 3 >= len(rows) * 2:
        rows = whole
    width = min(len(row) for row in rows)
    out: list[int] = []
    for column in range(width):
        numbers = [value for row in rows if (value := _number(row[column])) is not None]
        if len(numbers) >= 0.9 * len(rows) and len(set(numbers)) >= 3:
            out.append(column)
    return out


def _numeric_column(rows: list[list[str]]) -> tuple[int, bool]:
    """The first column holding numbers on nearly every row, and whether it falls from the first row on."""
    if len(rows) < 4:
        return -1, False
    width = min(len(row) for row in rows)
    best = -1
    for column in range(width):
        values = [_number(row[column]) for row in rows]
        numbers = [value for value in values if value is not None]
        if len(numbers) < 0.9 * len(rows) or len(set(numbers)) < 3:
            continue
        falls = sum(1 for a, b in pairwise(numbers) if a >= b)
        if falls >= 0.9 * (len(numbers) - 1) and numbers[0] > numbers[-1]:
            return column, True
        if best == -1:
            best = column
    return best, False


# --- context: what makes one kept line readable --------------------------------------------------

_COMPILER_PLACE = re.compile(r'\S+:\d+:\d+: (?:fatal )?(?:error|warning|note):')
_GUTTER = re.compile(r'\s*\d+ \| ')
"""A source line a compiler quotes under its diagnostic: `   44 |   uint32_t preset = argv[1][0] - '0';`."""
NEIGHBOURS = 2
"""Commits either side of a one-line commit shown with it."""
_CONTEXT_LINES = 400
"""How far back a context search walks, in lines: enough for a commit or a directory, bounded for a megabyte."""
_DIR_HEADER = re.compile(r'\S.*:$')
_INDENT_JSON = re.compile(r'\s*')


def path_line(line: str) -> bool:
    """A line that is one path and nothing else: a row of a `find` listing or of `pip show -f`'s files."""
    return ' ' not in line.strip() and ('/' in line or '\\' in line)


_COMMENT_LINE = re.compile(r'[ \t]*(?:#|;|//)')
SETTING_REACH = 12
"""Lines below a comment searched for the setting it documents."""


def _setting_below(view: TextView, span: Span) -> list[Span]:
    """For a comment in a configuration dump (`# Automatic extension requires dmeventd to be monitoring the LV.`), the
    setting it documents: the first line under it that is not a comment (`thin_pool_autoextend_threshold=80`)."""
    if not _COMMENT_LINE.match(view.content(span)):
        return []
    for line in view.forward(span, SETTING_REACH):
        content = view.content(line)
        if not content.strip():
            return []
        if not _COMMENT_LINE.match(content):
            return [line] if _KEY_VALUE.match(content) else []
    return []


def context(view: TextView, shape: Shape, span: Span, *, whole: bool = True) -> list[Span]:
    """Lines to show with `span` so that it can be read: the table's header, the commit, the directory; with
    `whole`, the rest of a short record it belongs to (a line the request plainly asks about)."""
    kind = shape.kind
    if kind in (ShapeKind.log, ShapeKind.diagnostics, ShapeKind.syscalls) and _COMPILER_PLACE.match(view.content(span)):
        # A compiler's diagnostic prints the source line it is about under it, in a numbered gutter.
        below = view.next_line(span)
        if below is not None and _GUTTER.match(view.content(below)):
            return [below]
    if kind is ShapeKind.table and shape.header is not None and span[0] > shape.header[1]:
        return [*shape.header_extra[-2:], shape.header] if shape.variant != 'aligned' else [shape.header]
    if kind is ShapeKind.history:
        if shape.variant == 'git':
            return _commit_context(view, span)
        if shape.variant == 'blame':
            return _blame_record(view, span)
        if shape.variant == 'hg':
            return _changeset_context(view, span)
        # A one-line commit says what it is; the commits beside it say where it landed (the merge above it,
        # the release tagged just after it, on a `--graph` the branch it came in on).
        return [*list(view.backward(span, NEIGHBOURS))[::-1], *view.forward(span, NEIGHBOURS)]
    if kind is ShapeKind.diff:
        return _diff_context(view, span)
    if kind is ShapeKind.listing:
        if shape.variant == 'ls':
            return _directory_of(view, span)
        if shape.variant == 'tree':
            return _tree_ancestors(view, span)
        return []
    if kind is ShapeKind.key_value:
        if shape.variant == 'expanded':
            return _record_fields(view, span) if whole else []
        described = indented_under(view, span) if shape.variant == 'manual' else []
        return [*_section_of(view, span, whole=whole), *_setting_below(view, span), *described]
    if kind is ShapeKind.json:
        return _json_siblings(view, span)
    if kind is ShapeKind.test_run:
        return _failure_block(view, span)
    if kind is ShapeKind.diagnostics and shape.variant == 'snippets':
        return _arrow_pair(view, span)
    if kind is ShapeKind.diagnostics and shape.variant == 'carets':
        return _caret_place(view, span)
    if kind is ShapeKind.diagnostics and shape.variant == 'framed':
        return _framed_finding(view, span)
    if kind is ShapeKind.diagnostics and shape.variant == 'issues':
        return _issue_record(view, span)
    if kind is ShapeKind.log:
        return traceback_context(view, span) or [
            *_box_context(view, span),
            *_source_marker(view, span),
            *_message_head(view, span),
            *message_details(view, span),
            *_parents(view, span),
            *_symbol_above(view, span),
            *_continuation(view, span),
            *_description(view, span),
            *_titled_block(view, span),
            *_setting_below(view, span),
            *_exchange(view, span),
            *_record_body(view, span),
            *_disassembled_function(view, span),
        ]
    return []


_INSTRUCTION = re.compile(r' +([0-9a-f]+):\t')
"""An instruction of `objdump -d`: its address, a tab, then its bytes or its mnemonic (`    9060:\tmovzbl ...`)."""
_FUNCTION_START = re.compile(r'[0-9a-f]{8,16} <([^>\n]+)>:$')
"""Where `objdump -d` starts a function: `0000000000008de0 <inflate_fast>:`."""
FUNCTION_REACH = 512 * 1024
"""Characters above an instruction searched for the start of the function it is in."""


def _disassembled_function(view: TextView, span: Span) -> list[Span]:
    """For an instruction of a disassembly, the line starting the function it is in: which function an address is."""
    if not _INSTRUCTION.match(view.content(span)):
        return []
    text = view.text
    floor = max(0, span[0] - FUNCTION_REACH)
    place = text.rfind('>:\n', floor, span[0])
    while place != -1:
        line = view.line_at(place)
        if _FUNCTION_START.match(view.content(line)):
            return [line]
        place = text.rfind('>:\n', floor, line[0])
    return []


RECORD_BODY_LINES = 3
"""Lines indented under a line at the margin shown with it, as its record's body, when that is all of the body."""
RECORD_BODY_CHARS = 320
"""Characters a record's body under its title may run to, to be shown with it."""


def _record_body(view: TextView, span: Span) -> list[Span]:
    """For a line at the margin over a few lines indented under it (a checker's `Check: CKV_AWS_41: "Ensure no hard
    coded ... key"` over `FAILED for resource: ...` and `File: /providers.tf:7-12`), those lines: the record the line
    titles, when it is short. A longer body (a stack, a listing) is no record of a few fields."""
    if not view.content(span)[:1].strip():
        return []
    body = indented_under(view, span, RECORD_BODY_LINES + 1)
    if not body or len(body) > RECORD_BODY_LINES or sum(end - start for start, end in body) > RECORD_BODY_CHARS:
        return []
    return body


EXCHANGE_LINES = 4
"""Lines after a request a short exchange may run to and be shown with it: its answers, not a connection's log."""
_EXCHANGE_FIELDS = 8
"""Leading fields of a log line looked through for the id of the exchange it belongs to."""
_CLOCK_FIELD = re.compile(r'[\[(]?\d{1,4}[-:/]\d')
"""A date or a time (`16:48:28`, `2026-12-03`, `[03/Dec/2026:...`): it changes along a log, naming nothing."""


def _exchange(view: TextView, span: Span) -> list[Span]:
    """For a log line that opens an exchange, the lines after it with the same id (dnsmasq's `17 127.0.0.1/50589`
    under the `query[A]` that opened it: the answers it got), when the exchange ends within `EXCHANGE_LINES`.

    The id is the first leading field holding a digit, not a date or time, that the next line repeats and the line
    before does not: a request's serial, a client's address and port, a thread's name."""
    below = view.next_line(span)
    if below is None:
        return []
    fields = view.content(span).split(None, _EXCHANGE_FIELDS)[:_EXCHANGE_FIELDS]
    following = view.content(below).split(None, _EXCHANGE_FIELDS)[:_EXCHANGE_FIELDS]
    above = view.previous_line(span)
    before = view.content(above).split(None, _EXCHANGE_FIELDS)[:_EXCHANGE_FIELDS] if above is not None else []
    for index, field in enumerate(fields[: len(following)]):
        if field != following[index]:
            if any(char.isdigit() for char in field) and not _CLOCK_FIELD.match(field):
                return []  # the first field that tells lines apart differs: no exchange runs on from here
            continue
        if not any(char.isdigit() for char in field) or _CLOCK_FIELD.match(field):
            continue
        if index < len(before) and before[index] == field:
            continue  # the line above shares it too: a process, a host, or this line is inside an exchange
        run = [below]
        for line in view.forward(below, EXCHANGE_LINES):
            if view.content(line).split(None, index + 1)[index : index + 1] != [field]:
                return run
            run.append(line)
        return []  # it runs on: a connection's or a thread's many lines, not one request's answers
    return []


_BLOCK_TITLE_LINE = re.compile(r'(?:={2,}>?|#{2,}|-{3,})[ \t]*[\w/.~]')
"""A title a command prints over each block of its output: `== /etc/ssl/certs/x.pem`, `==> app.log <==`, `### step`."""
TITLED_BLOCK_LINES = 6
"""Lines above a line looked through for the title of the block it is in: a short block's, read whole."""


def _titled_block(view: TextView, span: Span) -> list[Span]:
    """For a line of a short block under a title (a loop's `echo "== $f"` over each file's few lines), the title and
    the block's lines above it: which file `Certificate will expire` is said of, and its subject and dates."""
    return view.opened_above(span, TITLED_BLOCK_LINES, _BLOCK_TITLE_LINE.match)


def lines_between(view: TextView, first: Span, second: Span, most: int) -> list[Span] | None:
    """The lines strictly between two lines (in either order), if there are at most `most` of them."""
    low, high = (first, second) if first[0] < second[0] else (second, first)
    if high[0] - low[1] > (most + 1) * 400:
        return None  # far apart: not worth walking
    out: list[Span] = []
    line: Span | None = low
    while (line := view.next_line(line)) is not None and line[0] < high[0]:
        out.append(line)
        if len(out) > most:
            return None
    return out


def _line_under(view: TextView, span: Span) -> tuple[Span, str, int] | None:
    """The line after `span`, its text without indentation, and how much deeper it is indented (less: negative)."""
    following = view.next_line(span)
    if following is None:
        return None
    content, text = view.content(span), view.content(following)
    stripped = text.lstrip(' \t')
    return following, stripped, (len(text) - len(stripped)) - (len(content) - len(content.lstrip(' \t')))


def _continuation(view: TextView, span: Span) -> list[Span]:
    """For a line of wrapped prose that stops mid-sentence, the next line, which ends it: a line at the same
    indentation that opens with a lowercase word (documentation, a man page, a changelog entry)."""
    content = view.content(span).rstrip()
    if len(content.split()) < PROSE_WORDS or not (content[-1:].isalpha() or content.endswith(',')):
        return []  # a key, a value, a short label: not a sentence that goes on
    under = _line_under(view, span)
    if under is None:
        return []
    following, stripped, deeper = under
    first = stripped.split(' ', 1)[0]
    prose = first.isalpha() and first.islower() and len(stripped.split()) >= 2
    return [following] if prose and deeper == 0 else []


_SUMMARY_TITLE = re.compile(r'[\s=*#:-]*(?:[A-Z][A-Z0-9_()/-]*\s+){0,4}SUMMARY\b[\s:=*#-]*$')
"""A line that titles a summary section, in capitals (`PIL SETUP SUMMARY`, `==12== LEAK SUMMARY:`)."""
SUMMARY_SECTION_LINES = 16
"""Lines of a summary section kept under its title."""


def summary_section(view: TextView) -> list[Span]:
    """The last section a log titles as its summary (a build's feature summary, a leak checker's totals) in its
    last `SUMMARY_REACH` characters: its title and the lines under it (rules left out) to a blank line, at most
    `SUMMARY_SECTION_LINES`."""
    text = view.text
    floor = max(0, view.total - SUMMARY_REACH)  # a summary closes the output: looked for near its end
    position = text.rfind('SUMMARY', floor)
    tries = 0
    while position != -1 and tries < SUMMARY_TITLES:
        tries += 1
        title = view.line_at(position)
        content = view.content(title)
        prefix = content[: len(content) - len(content.lstrip('=0123456789 '))] if content.startswith('==') else ''
        if _SUMMARY_TITLE.match(content[len(prefix) :]):
            out = [title]
            for line in view.forward(title, SUMMARY_SECTION_LINES + 2):
                body = view.content(line)[len(prefix) :]
                if is_rule(body):
                    continue  # rules under the title and between its parts
                if not body.strip():
                    break
                out.append(line)
                if len(out) > SUMMARY_SECTION_LINES:
                    break
            return out if len(out) > 1 else []
        position = text.rfind('SUMMARY', floor, title[0])
    # A title in plain case on a line of its own (hyperfine's `Summary` over how much faster each command ran).
    position = text.rfind('\nSummary', floor)
    if position != -1:
        title = view.line_at(position + 1)
        if view.content(title).rstrip() in ('Summary', 'Summary:'):
            out = [title]
            for line in view.forward(title, SUMMARY_SECTION_LINES):
                if not view.content(line).strip():
                    break
                out.append(line)
            return out if len(out) > 1 else []
    return []


SUMMARY_TITLES = 4
"""Lines holding `SUMMARY` looked at from the end for a section title."""


def _arrow_pair(view: TextView, span: Span) -> list[Span]:
    """A diagnostic shown with its source reads as its code and message over the arrow to its place: either
    one brings the other."""
    if _ARROW.match(view.content(span)):
        above = view.previous_line(span)
        return [above] if above is not None and not _ARROW.match(view.content(above)) else []
    below = view.next_line(span)
    return [below] if below is not None and _ARROW.match(view.content(below)) else []


_SOURCE_MARKER = re.compile(r'# \d+ "[^"]+"(?: \d)*$|==> .+ <==$')
"""A line saying which file the lines after it come from: the C preprocessor's `# 328 "/usr/include/stdio.h"`,
`tail`'s and `head`'s `==> app.log <==`."""
SOURCE_MARKER_CHARS = 16 * 1024
"""How far back a line's file marker is looked for."""


def _source_marker(view: TextView, span: Span) -> list[Span]:
    """For a line of output that interleaves several files, the marker naming the file it comes from."""
    if _SOURCE_MARKER.match(view.content(span)):
        return []
    floor = max(0, span[0] - SOURCE_MARKER_CHARS)
    for prefix in ('# ', '==> '):
        position = view.text.rfind('\n' + prefix, floor, span[0])
        for _ in range(SOURCE_MARKER_TRIES):  # comments (`# ...`) are not markers: a few looked at, no more
            if position == -1:
                break
            line = view.line_at(position + 1)
            if _SOURCE_MARKER.match(view.content(line)):
                return [line]
            position = view.text.rfind('\n' + prefix, floor, position)
    return []


SOURCE_MARKER_TRIES = 8
"""Lines opening like a marker (`# `, `==> `) looked at, nearest first, before giving up: comments are not markers."""


def _description(view: TextView, span: Span) -> list[Span]:
    """For a line that is a single name (an option too long to share its line with its help, `@INC:`), the line
    under it indented deeper: what the name is, or its first entry."""
    if len(view.content(span).split()) != 1:
        return []
    under = _line_under(view, span)
    return [under[0]] if under is not None and under[1] and under[2] > 0 else []


PROSE_WORDS = 5
"""Words a line holds at least to be read as a sentence that may go on in the next line."""


PARENT_LINES = 48
"""Lines looked back for the lines an indented line sits under."""
PARENTS = 2
"""Lines above an indented line shown with it: its section and the entry it belongs to."""


_DETAIL_LEVEL = re.compile(r'(.{0,120}?)\b(?:DETAIL|HINT|CONTEXT|STATEMENT|QUERY|LOCATION):  ')
"""A line that goes on with the message above it (PostgreSQL's `DETAIL:`, `HINT:`, `STATEMENT:`), and its prefix."""
_MESSAGE_LEVEL = re.compile(r'(?:ERROR|FATAL|PANIC|WARNING|LOG|NOTICE):  ')
MESSAGE_LINES = 12


def _message_head(view: TextView, span: Span) -> list[Span]:
    """For a line that details a log message (`... [13944] postgres@shop DETAIL:  Process 13944 waits for ...`),
    the message it details: the nearest line above from the same process (the same prefix, time aside) with a level."""
    found = _DETAIL_LEVEL.match(view.content(span))
    if found is None:
        return []
    process = _PROCESS.search(found.group(1))
    for above in view.backward(span, MESSAGE_LINES):
        text = view.content(above)
        if process is not None and process.group() not in text:
            continue
        level = _MESSAGE_LEVEL.search(text, 0, len(found.group(1)) + 16)
        if level is not None:
            return [above]
    return []


_PROCESS = re.compile(r'\[\d+\]|\bpid[= ]\d+')
_ALERT_LEVEL = re.compile(r'.{0,120}?\b(?:ERROR|FATAL|PANIC):  ')
DETAIL_LINES = 4
"""Lines of a message's detail shown with it: the `DETAIL:` line and the lines it goes on in."""


def message_details(view: TextView, span: Span) -> list[Span]:
    """For a log's error message (PostgreSQL's `... [15093] ... ERROR:  deadlock detected`), the `DETAIL:` line right
    under it and the indented or labelled lines it goes on in (which processes wait for which, the statements they ran,
    the hint), or the statement it failed on (`pg_restore`'s `Command was: CREATE INDEX ...`): what the message is
    about."""
    if _ALERT_LEVEL.match(view.content(span)) is None:
        return []
    below = view.next_line(span)
    if below is None:
        return []
    found = _DETAIL_LEVEL.match(view.content(below))
    statement = view.content(below).startswith(_STATEMENT_LABEL)
    if not statement and (found is None or 'DETAIL:' not in view.content(below)[found.end() - 9 : found.end()]):
        return []
    details = [below]
    for line in view.forward(below, DETAIL_LINES - 1):
        content = view.content(line)
        # Indented, it goes on; labelled, it says more of the same message: the hint, the statement that failed.
        if not content[:1].isspace() and not content.startswith(_STATEMENT_LABEL) and not _DETAIL_LEVEL.match(content):
            break
        details.append(line)
    return details


_STATEMENT_LABEL = 'Command was: '
"""What `pg_dump` and `pg_restore` put before the statement a failed query ran, under its error."""


_JAVAC_ERROR = re.compile(r'\S+\.java:\d+: error: ')
SYMBOL_REACH = 3
"""Lines under a javac error looked through for its `symbol:` line: the source line and the caret come first."""


def compiler_symbol(view: TextView, span: Span) -> Span | None:
    """For javac's `X.java:12: error: cannot find symbol`, the `  symbol:   method peek()` line under the source line
    and the caret it quotes: which name was not found, where every such error says the same otherwise."""
    if not _JAVAC_ERROR.match(view.content(span)):
        return None
    for line in view.forward(span, SYMBOL_REACH):
        content = view.content(line)
        if content.startswith('  symbol:'):
            return line
        if _JAVAC_ERROR.match(content):
            return None
    return None


def _symbol_above(view: TextView, span: Span) -> list[Span]:
    """For the `location:` line of a javac error, the `symbol:` line above it: what was not found, where."""
    if not view.content(span).startswith('  location:'):
        return []
    above = view.previous_line(span)
    return [above] if above is not None and view.content(above).startswith('  symbol:') else []


def _parents(view: TextView, span: Span) -> list[Span]:
    """For an indented line, the nearest lines above it indented less, outermost first (at most `PARENTS`): a
    changelog entry's release, a bytecode line's method, a multi-line record's first line."""
    content = view.content(span)
    indent = len(content) - len(content.lstrip(' \t'))
    if not indent or indent == len(content):
        return []
    out: list[Span] = []
    line: Span | None = span
    for _ in range(PARENT_LINES):
        line = view.previous_line(line)
        if line is None:
            break
        text = view.content(line)
        stripped = text.lstrip(' \t')
        if not stripped:
            continue
        depth = len(text) - len(stripped)
        if depth < indent and not out and _second_word_at(text) == _second_word_at(content) > 0:
            return []  # rows of one table, a first column right-aligned (`     bool UseG1GC` under `   size_t ...`)
        if depth < indent:
            out.append(line)
            indent = depth
            if not depth or len(out) == PARENTS:
                break
    return out[::-1]


_SECOND_WORD = re.compile(r'[ \t]*\S+[ \t]+(?=\S)')


def _second_word_at(line: str) -> int:
    """Where a line's second word begins, or -1."""
    found = _SECOND_WORD.match(line)
    return found.end() if found is not None else -1


def _previous_starting(view: TextView, span: Span, prefix: str, window: int = 256 * 1024) -> Span | None:
    """The nearest line at or before `span` that starts with `prefix` (a C-speed search back)."""
    if view.text.startswith(prefix, span[0]):
        return span
    position = view.text.rfind('\n' + prefix, max(0, span[0] - window), span[0])
    if position == -1:
        return view.line_at(0) if span[0] < window and view.text.startswith(prefix) else None
    return view.line_at(position + 1)


BLAME_RECORD_LINES = 13
"""Lines of one record of `git blame --line-porcelain` at most: its commit line, its ten or eleven fields (`author`,
`summary`, `previous`, `filename`, ...), the file's line."""
_BLAME_FIELDS = ('author ', 'summary ')


def _blame_record(view: TextView, span: Span) -> list[Span]:
    """A line of `git blame --porcelain`'s record with what says who wrote it: the record's commit line, and the
    commit's `author` and `summary` (in every record with `--line-porcelain`; with `--porcelain` in the commit's first
    only), and for a field the request matched, the file's line the record is about."""
    header = next((s for s in view.backward(span, BLAME_RECORD_LINES) if _BLAME_HEADER.match(view.content(s))), None)
    if header is None:
        return []
    found = _BLAME_HEADER.match(view.content(header))
    assert found is not None
    fields = [s for s in view.forward(header, BLAME_RECORD_LINES) if view.content(s).startswith(_BLAME_FIELDS)]
    fields = [s for s in fields if s[0] < span[0]] if view.content(span).startswith('\t') else fields[:2]
    opening: list[Span] = []
    if not fields:
        # A commit's later records name it alone: its fields are in its first, shown with its commit line.
        first = view.text.find(f'{found.group(1)} ')
        if first != -1 and first < header[0]:
            opening = [view.line_at(first)]
            fields = [
                s for s in view.forward(opening[0], BLAME_RECORD_LINES) if view.content(s).startswith(_BLAME_FIELDS)
            ]
    out = [*opening, *fields[:2], header]
    if not view.content(span).startswith('\t'):
        line = next((s for s in view.forward(span, BLAME_RECORD_LINES) if view.content(s).startswith('\t')), None)
        out += [line] if line is not None else []
    return [s for s in out if s != span]


CHANGESET_FIELDS = 12
"""Lines of a changeset read for its fields."""


def _changeset_fields(view: TextView, changeset: Span, wanted: tuple[str, ...] = ('user:',)) -> list[Span]:
    """Of an `hg log` changeset opening at `changeset`, the fields `wanted` and its message's first line (the line
    under `description:` in `-v`, else its `summary:`): who made it and what it says."""
    out: list[Span] = []
    lines = list(view.forward(changeset, CHANGESET_FIELDS))
    for index, line in enumerate(lines):
        content = view.content(line)
        if content.startswith('changeset:'):
            break
        if content.startswith(wanted) or content.startswith('summary:'):
            out.append(line)
        elif content.startswith('description:') and index + 1 < len(lines):
            out.append(lines[index + 1])
            break
    return out


def _changeset_context(view: TextView, span: Span) -> list[Span]:
    """A line of an `hg log` changeset: the changeset it is in, who made it and its message's first line."""
    changeset = span if view.content(span).startswith('changeset:') else _previous_starting(view, span, 'changeset:')
    if changeset is None:
        return []
    fields = [line for line in _changeset_fields(view, changeset) if line != span]
    return [changeset, *fields] if changeset != span else fields


def _commit_context(view: TextView, span: Span) -> list[Span]:
    out: list[Span] = []
    commit = _previous_starting(view, span, 'commit ')
    if commit is None:
        return out
    out.append(commit)
    for line in view.forward(commit, 12):
        content = view.content(line)
        if content.startswith('commit '):
            break
        if content.startswith(('Date:', 'AuthorDate:')):
            out.append(line)  # when (`--pretty=fuller` names the author's date `AuthorDate:`)
        elif content.startswith('    '):
            if line != span:
                out.append(line)  # the subject
            break
    # The files it touched: the stat lines after the message, up to the summary.
    stats = 0
    for line in view.forward(commit, 80):
        content = view.content(line)
        if content.startswith('commit '):
            break
        if content.startswith(' ') and not content.startswith('    ') and ' | ' in content:
            if stats < 3:
                out.append(line)
            stats += 1
        elif content.startswith(' ') and ' changed' in content and ('insertion' in content or 'deletion' in content):
            out.append(line)
            break
    return out


def _diff_context(view: TextView, span: Span) -> list[Span]:
    out: list[Span] = []
    header = _previous_starting(view, span, 'diff ') or _previous_starting(view, span, '+++ ')
    hunk = _previous_starting(view, span, '@@')
    if header is not None:
        out.append(header)
    if hunk is not None and (header is None or hunk[0] > header[0]):
        out.append(hunk)
    # The changed lines next to it: what else this hunk adds or removes.
    if view.content(span)[:1] in '+-':
        near = 0
        for line in view.backward(span, 6):
            text = view.content(line)
            if text.startswith('@@'):
                break
            if text[:1] in '+-' and not text.startswith(('+++', '---')):
                out.append(line)
                near += 1
                if near == 2:
                    break
        # Forward across nearby hunks of the same file: one change often spans several (a dict of defaults).
        near = 0
        for line in view.forward(span, 16):
            text = view.content(line)
            if text.startswith(('diff ', '--- ', '+++ ')):
                break
            if text[:1] in '+-':
                out.append(line)
                near += 1
                if near == 4:
                    break
    return out


def _directory_of(view: TextView, span: Span) -> list[Span]:
    """In `ls -R` output: the `dir:` line heading the block (the first line after the blank line before)."""
    blank = view.text.rfind('\n\n', 0, span[0])
    header = view.line_at(blank + 2) if blank != -1 else view.line_at(0)
    if header == span or header[0] > span[0]:
        return []
    content = view.content(header)
    return [header] if _DIR_HEADER.match(content) and not _PERMS.match(content) else []


def _tree_depth(line: str) -> int:
    for mark in _TREE_MARKS:
        index = line.find(mark)
        if index != -1:
            return index
    return -1


def _tree_ancestors(view: TextView, span: Span) -> list[Span]:
    depth = _tree_depth(view.content(span))
    out: list[Span] = []
    if depth <= 0:
        return out
    for line in view.backward(span, _CONTEXT_LINES * 4):
        line_depth = _tree_depth(view.content(line))
        if 0 <= line_depth < depth:
            out.append(line)
            depth = line_depth
            if depth == 0:
                break
    out.reverse()
    return out


INDENTED_UNDER = 2
"""Lines indented under a manual's entry shown with it: its type and default (`node --v8-options`), its first words."""


def indented_under(view: TextView, span: Span, most: int = INDENTED_UNDER) -> list[Span]:
    """The first lines (at most `most`) indented deeper than `span` right under it, to a blank line: what a manual says
    of the option a line names, the paragraph under a definition."""
    content = view.content(span)
    depth = len(content) - len(content.lstrip(' \t'))
    under: list[Span] = []
    for line in view.forward(span, most):
        text = view.content(line)
        if not text.strip() or len(text) - len(text.lstrip(' \t')) <= depth:
            break
        under.append(line)
    return under


def _section_of(view: TextView, span: Span, *, whole: bool = True) -> list[Span]:
    """For an indented key: the unindented `Section:` or `[section]` line above it. For a key in a stanza of
    `Key: value` lines between blank lines (`apt-cache show`, `dpkg -s`, `pip show`): the stanza's first line,
    which names it, or for that first line the keys after it (the version, the source)."""
    content = view.content(span)
    if not content[:1].isspace() and not content.startswith('['):
        return _stanza_of(view, span, whole=whole)
    last = view.last_unindented(span[0], 256 * 1024)
    if last == -1:
        return []
    line = view.line_at(last + 1)
    text = view.content(line)
    return [line] if text.rstrip().endswith(':') or text.startswith('[') else []


_EXPANDED_RECORD = re.compile(r'-\[ RECORD \d+ \]-*(?:\+-*)?$')
"""The line over each record of psql's expanded display (`-x`): `-[ RECORD 3 ]----+-------`."""
RECORD_FIELDS = 6
"""Fields after a field a request names that a record of psql's expanded display brings: what it says of it."""


def _record_fields(view: TextView, span: Span) -> list[Span]:
    """In psql's expanded display, the fields of the record after `span`, up to the next record."""
    fields: list[Span] = []
    for following in view.forward(span, RECORD_FIELDS):
        if _EXPANDED_RECORD.match(view.content(following)):
            break
        fields.append(following)
    return fields


STANZA_LINES = 60
"""Lines looked back for the blank line a stanza starts after."""


STANZA_FIELDS = 12
"""Lines after a stanza's first line looked at for its version."""


def _stanza_of(view: TextView, span: Span, *, whole: bool = True) -> list[Span]:
    if not view.has_blocks:
        return []  # no blank lines between blocks: one long list of keys (`sysctl -a`), no stanzas
    previous = view.previous_line(span)
    if previous is None or not view.content(previous).strip():
        rest = _short_stanza_rest(view, span, 0) if whole else None
        if rest is not None:
            return rest
        # The stanza's first line: the keys that follow it say which one it is (its version first, wherever
        # it sits among the first fields; then the next key).
        fields: list[Span] = []
        for following in view.forward(span, STANZA_FIELDS):
            text = view.content(following)
            if not text.strip():
                break
            if not text[:1].isspace():
                fields.append(following)
        version = next((field for field in fields if view.content(field).lower().startswith('version')), None)
        out = [version] if version is not None else []
        out += [field for field in fields if field != version][: 2 - len(out)]
        return sorted(out)
    above = list(view.backward(span, STANZA_LINES))
    blank = next((index for index, before in enumerate(above) if not view.content(before).strip()), None)
    if blank is None and len(above) == STANZA_LINES:
        return []  # no blank line near: not a stanza (the text's first stanza starts at its first line)
    stanza = above if blank is None else above[:blank]
    below = _short_stanza_rest(view, span, len(stanza)) if whole else None
    if below is not None:
        # A short record (an apt history entry: when, the command, what it installed and upgraded) is read whole.
        return [*stanza[::-1], *below]
    return stanza[-1:]


SHORT_STANZA = 6
"""Lines of a `Key: value` stanza shown whole with a line of it the request names."""


def _short_stanza_rest(view: TextView, span: Span, above: int) -> list[Span] | None:
    """The lines of the stanza after `span`, when the whole stanza (with `above` lines over `span`) is short."""
    if above >= SHORT_STANZA:
        return None
    rest: list[Span] = []
    for following in view.forward(span, SHORT_STANZA - above - 1):
        if not view.content(following).strip():
            return rest
        rest.append(following)
    following = view.next_line(rest[-1] if rest else span)
    return rest if following is None or not view.content(following).strip() else None


def _json_siblings(view: TextView, span: Span) -> list[Span]:
    """The other scalar fields of the object the line sits in, and where that object begins when a key names it
    (`"engines": {` over `"node": ">=10.13.0"`: what the value is a value of)."""
    line = view.content(span)
    indent = len(line) - len(line.lstrip())
    out: list[Span] = []
    if indent == 0:
        return out  # a top-level line is a whole value: nothing around it belongs to it
    nested = 0
    for before in view.backward(span, 40):
        text = view.content(before)
        stripped = text.lstrip()
        level = len(text) - len(stripped)
        if level < indent:
            if stripped.startswith('"') and stripped.endswith(('{', '[')):
                out.append(before)
            break
        if level == indent and nested == 0 and ':' in stripped and not stripped.endswith(('{', '[')):
            out.append(before)
        if stripped.startswith(('}', ']')):
            nested += 1
        elif stripped.endswith(('{', '[')) and level > indent - 1:
            nested = max(0, nested - 1)
    nested = 0
    for after in view.forward(span, 40):
        text = view.content(after)
        stripped = text.lstrip()
        level = len(text) - len(stripped)
        if level < indent:
            break
        if stripped.endswith(('{', '[')):
            nested += 1
            continue
        if stripped.startswith(('}', ']')):
            nested = max(0, nested - 1)
            continue
        if level == indent and nested == 0 and ':' in stripped:
            out.append(after)
    return out


PYTHON_FRAME = re.compile(r'\s*File "([^"]+)", line \d+')
"""A Python traceback's frame line, its file in the group."""
_NOT_OWN_CODE = ('site-packages', 'dist-packages', '/lib/python', '<frozen', '\\lib\\', '/usr/lib/', '<string>')


def own_frame(path: str) -> bool:
    return not any(marker in path for marker in _NOT_OWN_CODE)


def _raised_below(view: TextView, frame: Span) -> list[Span]:
    """The exception line that ends the traceback a frame is in: the first line below it that is neither
    indented nor another frame (a frame tells where, its exception what happened there)."""
    for line in view.forward(frame, TRACEBACK_REACH):
        text = view.content(line)
        if text[:1].isspace() or not text.strip() or PYTHON_FRAME.match(text):
            continue
        return [] if text.startswith(('During handling', 'The above exception', 'Traceback (')) else [line]
    return []


TRACEBACK_REACH = 300
"""Lines below a traceback's start looked at for its exception (a deep stack's frames take two or three lines each)."""


TRACEBACK_HEADER = 'Traceback (most recent call last)'
"""How a Python traceback opens (its line ends with a colon after it)."""
_HEADER_TEXT = f'{TRACEBACK_HEADER}:'
LOGGED_PREFIX_CHARS = 80
"""Characters a logger (syslog's time, host and program) may put before each line of a traceback it logged."""


def logged_traceback(line: str) -> int:
    """Where a traceback's first line begins in `line`: 0 for one printed as it is, after the prefix a logger puts on
    each line (syslog's `Dec  2 13:50:35 vm ingestd: `) for one logged line by line; -1 for none."""
    if line.startswith(_HEADER_TEXT):
        return 0
    at = line.find(_HEADER_TEXT, 0, LOGGED_PREFIX_CHARS + len(_HEADER_TEXT))
    return at if at > 0 and line[at - 1] == ' ' and not line[at + len(_HEADER_TEXT) :].strip() else -1


def _digits_any(prefix: str) -> re.Pattern[str]:
    """`prefix` as a pattern in which each run of digits stands for any digits."""
    return re.compile(''.join(r'\d+' if part.isdigit() else re.escape(part) for part in re.split(r'(\d+)', prefix)))


_STAMPED_LINE = re.compile(r'\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d[.,]\d')
"""A line that opens with a date and time (or a time to the fraction of a second): a logger's, not a traceback's."""
_ANONYMOUS_FRAME = re.compile(r', in <(?:genexpr|listcomp|dictcomp|setcomp|lambda)>\s*$')
"""A frame of a comprehension or a lambda, which runs inside the function that made it."""


def traceback_picks(view: TextView, traceback: Span, priority: float) -> list[Pick]:
    """The exception line and the innermost frame in the user's own code, for a `Traceback (...)` line (printed as it
    is, or logged a line at a time, each line under the logger's prefix)."""
    frames: list[tuple[Span, Span | None]] = []
    owned: list[bool] = []  # each frame's: in the user's own code
    exception: Span | None = None
    previous: Span | None = None
    at = logged_traceback(view.content(traceback))
    # A logger's prefix, its numbers any (the time goes on while a traceback is logged): a line without it is another
    # program's, logged between the traceback's lines, or the end of it.
    prefix = _digits_any(view.content(traceback)[:at]) if at > 0 else None
    for line in view.forward(traceback, TRACEBACK_REACH):
        text = view.content(line)
        if prefix is not None:
            logged = prefix.match(text)
            if logged is None:
                continue
            text = text[logged.end() :]
        match = PYTHON_FRAME.match(text)
        if match:
            frames.append((line, None))
            owned.append(own_frame(match.group(1)))
            previous = line
            continue
        if text[:1].isspace() or not text.strip():
            if previous is not None and frames and frames[-1][0] == previous and frames[-1][1] is None:
                frames[-1] = (previous, line)  # the frame's source line
            continue
        if text.startswith(('During handling', 'The above exception', 'Traceback (')):
            continue
        if prefix is None and (_STAMPED_LINE.match(text) or not text.strip('^~ ')):
            # A program run under a supervisor has its stderr logged in pieces, each under the supervisor's own stamped
            # line (`2026-12-03 02:05:12,024 DEBG 'worker' stderr output:`), a piece breaking a frame's carets onto a
            # line of their own: neither is the exception.
            continue
        exception = line
        break
    picks: list[Pick] = []
    if exception is not None:
        picks.append(Pick(priority, (exception,), 'traceback'))
    own = [frame for frame, mine in zip(frames, owned, strict=True) if mine]
    chosen = own[-1] if own else (frames[-1] if frames else None)
    if chosen is not None:
        spans = (chosen[0],) if chosen[1] is None else (chosen[0], chosen[1])
        calls = own if own else frames
        if len(calls) > 1 and _ANONYMOUS_FRAME.search(view.content(chosen[0])):
            # The innermost frame is a comprehension's or a lambda's (`in <genexpr>`): the function it runs in, the
            # frame above it, is the name the failure goes by.
            spans = (calls[-2][0], *spans)
        picks.append(Pick(priority - 1, spans, 'traceback'))
    # The lines above a logged traceback are the log's other programs' as often as its own.
    lead = _lead_in(view, traceback) if prefix is None else []
    if lead:
        picks.append(Pick(priority - 2, tuple(lead), 'traceback'))
    return picks


_CALL_FIRST = '(most recent call first):'
"""How a stack printed innermost first opens: gdb's `py-bt` (`Traceback (most recent call first):`), faulthandler's
`Current thread 0x... (most recent call first):`."""
CALL_FIRST_PRIORITY = 904.0
"""Where a crash reached the program's own code: read with the crash it is under (see `crash_frames`)."""
CALL_FIRST_LINES = 60
"""Lines of such a stack read for its first frame in the program's own code."""
CALL_FIRST_REACH = 256 * 1024
"""Characters at the end of a log searched for such a stack: a crash ends the program's output, and the debugger's
or faulthandler's report of it comes last (a megabyte's search costs every log's preview 0.1-0.25 ms)."""


def _call_first_frame(view: TextView) -> list[Pick]:
    """Under a Python stack printed innermost first (a debugger's `py-bt` of a crash, faulthandler's dump), its first
    frame in the program's own code with the source line under it, and the stack's first line: where the crash
    happened in the code the request is about, below the library frames it went through."""
    found = view.text.find(_CALL_FIRST, max(0, view.total - CALL_FIRST_REACH))
    if found == -1:
        return []
    header = view.line_at(found)
    line = view.next_line(header)
    for _ in range(CALL_FIRST_LINES):
        if line is None:
            break
        content = view.content(line)
        frame = PYTHON_FRAME.match(content)
        if frame is None and not content[:1].isspace():
            break  # past the stack (gdb's registers, faulthandler's next thread)
        if frame is not None and own_frame(frame.group(1)):
            below = view.next_line(line)
            source = view.content(below) if below is not None else ''
            code = (below,) if below is not None and source[:1].isspace() and not PYTHON_FRAME.match(source) else ()
            return [Pick(CALL_FIRST_PRIORITY, (header, line, *code), 'traceback')]
        line = view.next_line(line)
    return []


LEAD_IN = 2
"""Lines above a traceback shown with it: what the program logged as it failed (a server's `Exception occurred
during processing of request`, and the request line or log line before that)."""


def _lead_in(view: TextView, traceback: Span) -> list[Span]:
    """Up to `LEAD_IN` lines just above a traceback, rules left out, nearest last."""
    out: list[Span] = []
    for line in view.backward(traceback, LEAD_IN + 2):
        content = view.content(line)
        if not content.strip():
            break
        if is_rule(content):
            continue
        out.append(line)
        if len(out) == LEAD_IN:
            break
    return out[::-1]


_NATIVE_FRAME = re.compile(
    r'(?:#\d+\s+\S'  # gdb: `#0  0x... in f (...) at x.c:5`
    r'|\s+#\d+ 0x'  # AddressSanitizer: `    #0 0x55d in main x.c:5`
    r'|\s+at \S+\(.*\)\s*$'  # Java, Node, .NET: `\tat a.b.C.m(C.java:12)`
    r'|\s+\d+: \S'  # Rust: `   0: std::panicking::begin_panic`
    r'|==\d+==\s+(?:at|by) 0x'  # valgrind: `==12==    at 0x48: f (x.c:5)`
    r'|\s*(?:\* )?frame #\d+:)'  # lldb: `  * frame #0: 0x... a.out`main at x.c:5`
)
NATIVE_FRAMES = 2
"""Frames shown after a crash line: where it happened and what called it."""


def crash_frames(view: TextView, span: Span, reach: int = 6) -> list[Span]:
    """For a crash or exception line, the first frames of the stack printed after it, innermost first (a
    debugger's backtrace, a JVM's or a sanitizer's stack): at most `NATIVE_FRAMES`, within `reach` lines."""
    frames: list[Span] = []
    for offset, line in enumerate(view.forward(span, reach + NATIVE_FRAMES)):
        if _NATIVE_FRAME.match(view.content(line)):
            frames.append(line)
            if len(frames) == NATIVE_FRAMES:
                break
        elif frames or offset >= reach:
            break  # the stack ended, or none began near the crash line
    if frames:
        # A JVM's exception wrapping others: the last `Caused by:` down its stack is where it began.
        cause = None
        for line in view.forward(frames[-1], CAUSE_REACH):
            content = view.content(line)
            if content.startswith('Caused by: '):
                cause = line
            elif not (_NATIVE_FRAME.match(content) or _ELIDED_FRAMES.match(content)):
                break
        if cause is not None:
            frames.append(cause)
    return frames


CAUSE_REACH = 120
"""Lines of a stack read down for the exception that caused it."""
_ELIDED_FRAMES = re.compile(r'\s+\.\.\. \d+ (?:more|common frames omitted)')
"""Where a JVM leaves out frames a cause shares with the exception it caused: `\t... 71 more`."""


def traceback_context(view: TextView, span: Span) -> list[Span]:
    """In a log: for a traceback's first line, or a line a traceback follows (`ERROR ... Exception on /x`), the
    exception and the innermost own frame; for a frame, its source line and the exception it led to."""
    text = view.content(span)
    if PYTHON_FRAME.match(text):
        follower = view.next_line(span)
        source = [follower] if follower is not None and view.content(follower)[:1].isspace() else []
        return [*source, *_raised_below(view, span)]
    if text.startswith('Traceback (most recent call last)'):
        return [s for pick in traceback_picks(view, span, 0.0) for s in pick.spans]
    for line in view.forward(span, 2):
        if view.content(line).startswith('Traceback (most recent call last)'):
            return [s for pick in traceback_picks(view, line, 0.0) for s in pick.spans]
    return []


_FAILURE_HEADER = re.compile(r'_{3,} (.+?) _{3,}\s*$')
_LOCATION = re.compile(r'\S+:\d+: \w+$')


_SUMMARY_FAILED = re.compile(r'(?:FAILED|ERROR) \S*::(\S+?)(?: - |$)')


def _failure_block(view: TextView, span: Span) -> list[Span]:
    """For a failed test, or a line of the source its failure block echoes: the block's first `E` line and where
    it says the test failed (`file:line: Error`)."""
    text = view.content(span)
    summary = _SUMMARY_FAILED.match(text)
    if summary:
        # `FAILED tests/x.py::test_y - ...`: the block titled `____ test_y ____` holds the location.
        title = view.text.find(f'_ {summary.group(1)} _')
        if title == -1:
            return []
        span = view.line_at(title)
        text = view.content(span)
    if not (_FAILURE_HEADER.match(text) or text.startswith(('E ', '>', ' ', '\t'))):
        return []  # not in a failure block: a progress or summary line of its own
    first_e: Span | None = span if text.startswith('E ') else None
    location: Span | None = None
    for line in view.forward(span, 200):
        content = view.content(line)
        if _FAILURE_HEADER.match(content) or content.startswith('='):
            break
        if first_e is None and content.startswith('E '):
            first_e = line
        if _LOCATION.match(content):
            location = line
    return [line for line in (first_e, location) if line is not None and line != span]


# --- digests: what a shape's preview shows when the model has not said what it wants -------------


def digest(
    view: TextView,
    shape: Shape,
    head: list[Span],
    tail: list[Span],
    sample: list[Span],
    counted: Census | None = None,
    asked: frozenset[str] = frozenset(),
) -> list[Pick]:
    """Lines a preview of this shape should keep, by priority, when no intent chooses them. `asked`: the words a
    request looks for, lowercased, where a reading of the shape answers them (a mark it asks about)."""
    kind = shape.kind
    if kind is ShapeKind.table:
        # A profiler's tables, one a function under its total (line_profiler's), are read by their totals too.
        return [
            *_table_digest(view, shape, head),
            *_header_again(view, shape, head, tail),
            *_column_bursts(view, shape),
            *_column_steps(view, shape),
            *_stalls(view, [*head, *sample, *tail]),
            *_massif_peak(view),
            *_block_totals(view),
            *_embedded_tables(view, head, tail),
            *_failure_counters(view, [*head, *sample, *tail]),
        ]
    if kind is ShapeKind.history:
        return _history_digest(view, head, shape.variant)
    if kind is ShapeKind.diff:
        return _diff_digest(view)
    if kind is ShapeKind.syscalls:
        return _syscall_digest(view, tail)
    if kind is ShapeKind.test_run and shape.variant == 'ctest':
        return [*_test_digest(view, tail), *_ctest_causes(view)]
    if kind is ShapeKind.test_run:
        return _test_digest(view, tail)
    if kind is ShapeKind.diagnostics:
        return _diagnostic_digest(view, shape, [*head, *sample, *tail], counted)
    if kind is ShapeKind.json:
        return _json_digest(view, head, tail)
    if kind is ShapeKind.listing:
        if shape.variant == 'matches':
            return _search_digest(view)
        if shape.variant == 'tree' and view.total <= LARGEST_SCAN_CHARS and _measured_tree(view, sample):
            # A call tree with times (a profile): where the time splits is what it is read for.
            rows, starts = _rows_from(view, 0)
            drop = EXTREME_PRIORITY - MEASURED_TREE_PRIORITY
            return [Pick(pick.priority - drop, pick.spans, pick.role) for pick in _tree_extremes(view, rows, starts, 1)]
        if shape.variant == 'diffstat':
            return _diffstat_digest(view)
        if shape.variant == 'plan':
            return _plan_digest(view)
        rare = _rare_leading(view, head, tail, sample)
        if shape.variant == 'ls':
            # `ls -lR`: an odd file is read with the directory it is in.
            rare = [Pick(pick.priority, (*_directory_of(view, pick.spans[0]), *pick.spans), pick.role) for pick in rare]
        changed = _changed_entries(view, head, tail, sample)
        return [*_sized_digest(view, head, tail), *_largest_entries(view), *rare, *changed]
    if kind is ShapeKind.log:
        if shape.variant == 'threads':
            return _java_threads(view) or _thread_stacks(view)
        return [
            *_final_report(view, tail),
            *_run_end(view, head, tail, sample),
            *_sorted_ends(view, head, tail),
            *_rare_leading(view, head, tail, sample),
            *_rare_far_fields(view, [*head, *sample, *tail]),
            *_rare_findings(view, [*head, *sample, *tail]),
            *_keyed_outliers(view, [*head, *sample, *tail]),
            *_section_tops(view, [*head, *sample, *tail]),
            *_http_exchanges(view, [*head, *sample, *tail]),
            *_packet_exchanges(view, [*head, *sample, *tail]),
            *_call_graph_entries(view),
            *_rare_kinds(view, [*head, *sample, *tail]),
            *_phase_leads(view, [*head, *sample, *tail]),
            *_stalls(view, [*head, *sample, *tail]),
            *_perf_entries(view),
            *_massif_peak(view),
            *_block_totals(view),
            *_call_first_frame(view),
            *_panics(view),
            *_junit_failures(view, head),
            *_block_titles(view),
            *_embedded_tables(view, head, tail),
            *_boxed_tables(view),
            *_schema_digest(view, head),
            *_failure_counters(view, [*head, *sample, *tail]),
            *_raised_flags(view, [*head, *sample, *tail]),
            *_unmarked_fields(view, asked),
            *_changed_entries(view, head, tail, sample),
            *_rare_labelled_statuses(view, [*head, *sample, *tail]),
            *_assigned_outcomes(view, [*head, *sample, *tail]),
        ]
    if kind is ShapeKind.records and shape.variant == 'lines':
        return _rare_members(view)
    if kind is ShapeKind.key_value and shape.variant == 'expanded':
        return _record_extremes(view)
    if kind is ShapeKind.key_value and shape.variant == 'metrics':
        return _metric_alarms(view)
    if kind is ShapeKind.key_value:
        read = [*head, *sample, *tail]
        return [
            *_final_report(view, tail),
            *_rare_statuses(view),
            *_failure_counters(view, read),
            *_raised_flags(view, read),
        ]
    return []


_EXPOSITION_LINE = re.compile(r'# (?:HELP|TYPE|UNIT|EOF)\b|[A-Za-z_:][\w:]*(?:\{[^\n]*\})? [-+]?(?:\d|NaN|Inf)')
"""A line of Prometheus' text format: a metric's description or type, or one of its samples (`name{labels} value`)."""
_FAILURE_SAMPLE = re.compile(
    r'^([A-Za-z_:][\w:]*(?:fail|error|drop|reject|discard|timeout|timedout|exceed|overflow|corrupt|panic)'
    r'[\w:]*?)(?<!_bucket)(?<!_sum)(?<!_seconds)(?<!_bytes)(\{[^\n]*\})? ([-+]?[\d.]+(?:e[-+]?\d+)?)$'
    r'|^([A-Za-z_:][\w:]*_success(?:ful)?|up)(\{[^\n]*\})? (0)$',
    re.MULTILINE | re.IGNORECASE,
)
"""A sample of a counter of failures (`prometheus_notifications_dropped_total 6`), or of a success flag or a target's
`up` at 0: what an exposition is read for when nothing else is asked."""
METRIC_ALARMS = 8
"""Such samples shown at most: the first of each metric, in the order the exposition lists them."""
METRIC_SCAN_CHARS = 4 * 1024 * 1024
"""Expositions up to this size are searched whole for them (a megabyte costs ~2 ms)."""
METRIC_ALARM_PRIORITY = 415.0
"""Above a log's first error (410): in data, such a line is all that went wrong."""


def _metric_alarms(view: TextView) -> list[Pick]:
    """Samples of an exposition that say something failed: a failure counter above zero, a success flag or `up` at 0,
    the first of each metric."""
    if view.total > METRIC_SCAN_CHARS:
        return []
    found = (
        (found.group(1) or found.group(4), found.start())
        for found in _FAILURE_SAMPLE.finditer(view.text, 0, view.end)
        if found.group(3) is None or float(found.group(3)) > 0
    )
    return _first_of_each(view, found, METRIC_ALARMS)


def _first_of_each(view: TextView, found: Iterable[tuple[str, int]], most: int) -> list[Pick]:
    """The line of the first place of each name, in order, `most` at most: a failure counter's or flag's, as an
    error (`METRIC_ALARM_PRIORITY`)."""
    picks: list[Pick] = []
    seen: set[str] = set()
    for name, start in found:
        if name in seen:
            continue
        seen.add(name)
        picks.append(Pick(METRIC_ALARM_PRIORITY - 0.01 * len(picks), (view.line_at(start),), 'error'))
        if len(picks) == most:
            break
    return picks


_FAILURE_WORDS = (
    r'fail|error|errs?(?-i:(?![a-z]))|(?-i:Rsts?)(?-i:(?![a-z]))|(?<![a-z])rsts?(?-i:(?![a-z]))|drop|reject|discard'
    r'|timeouts|timedout|timed_out|overflow|overrun|underrun|retrans|reset|lost|abort|refus|invalid|corrupt|collision'
    r'|exceed|denied|prune'
)
"""Words naming what went wrong, as counters spell them (`InErrs`, `OutRsts`, `rx_dropped`, `TCPTimeouts`); not `err`
inside a word (`Deferred`, `interrupts`) nor `rst` (`first`, `burst`), nor a timeout (a setting: `connect_timeout`)."""
_COUNTER_ROW = re.compile(
    r'[ \t]*(?:[A-Za-z][\w.:/()-]*[ \t]*:?[ \t]+[-+]?\d[\d,]*(?:\.\d+)?(?:[ \t]+[^\n]*)?'
    r'|\d[\d,]* [A-Za-z][^\n]*|[A-Za-z][\w .-]*:)[ \t]*$'
)
"""A line of a dump of counters: a name and its count (`TcpExtListenOverflows   114   0.0`, `rx_errors: 3`,
`Aborted_connects\t7`), a count and what it counts (`netstat -s`'s `121 SYNs to LISTEN sockets dropped`), or the
title of a group of them (`Tcp:`). Not `name = value`: that sets something (`sysctl -a`, a configuration)."""
_FAILURE_COUNTER = re.compile(
    rf'^[ \t]*(?P<name>(?=[A-Za-z])(?!(?:max|min)(?:[_.-]|(?-i:[A-Z])))[\w.:/()-]*?(?:{_FAILURE_WORDS})[\w.:/()-]*)'
    r'[ \t]*:?[ \t]+(?P<count>\d[\d,]*(?:\.\d+)?)\b'
    rf'|^[ \t]*(?P<number>\d[\d,]*) (?P<what>[A-Za-z][^\n]*?(?:{_FAILURE_WORDS})[^\n]*)$',
    re.MULTILINE | re.IGNORECASE,
)
"""A counter of something that went wrong, by its name or its words: `TcpAttemptFails  10`, `rx_dropped: 3`,
`121 times the listen queue of a socket overflowed`. A limit is none (`max_connect_errors  100`)."""
COUNTER_SHARE = 0.7
"""Lines read that must be counters (or their groups' titles) for a text to be read as a dump of them."""
COUNTER_FIRST = 16
"""Lines read first for that, of which a little fewer must be counters (a dump may open with a title or a blank)."""
FAILURE_COUNTERS = 12
"""Counters of failures above zero shown at most, in the order the dump lists them."""
COUNTER_SCAN_CHARS = 256 * 1024
"""Dumps of counters up to this size are searched whole for them (a dump of every kernel counter is 20 KB)."""
COUNTER_NAMES = 0.7
"""The share of the lines read whose first word is a name no other of them opens with, in a dump of counters."""
_FIRST_WORD = re.compile(r'[A-Za-z][\w.:/()-]*')


def _failure_counters(view: TextView, read: list[Span]) -> list[Pick]:
    """In a dump of counters (`nstat -az`, `netstat -s`, `ethtool -S`, a server's status variables), those of failures
    that are above zero: among hundreds of counters, most at 0, the few that say what went wrong (a listen queue that
    overflowed, connections refused or reset, segments retransmitted). Wherever the dump lists them."""
    if view.total > COUNTER_SCAN_CHARS or len(read) < RARE_MIN_ROWS:
        return []
    counter = _COUNTER_ROW.match
    # The first lines read rule most texts out (a log's open with a time) before all are stripped and tried.
    if not _over([view.content(span) for span in read[:COUNTER_FIRST]], counter, COUNTER_SHARE - 0.1):
        return []
    lines = [content for span in dict.fromkeys(read) if (content := view.content(span).strip())]
    if len(lines) < RARE_MIN_ROWS or not _over(lines, counter, COUNTER_SHARE):
        return []
    # Each counter has a name of its own; a table whose rows open with the same word (`lsof`'s command, a log's
    # level) is no dump of counters, however many numbers follow it.
    names = [found.group() for line in lines if (found := _FIRST_WORD.search(line)) is not None]
    if len(set(names)) < COUNTER_NAMES * len(names):
        return []
    found = (
        (found.group('name') or found.group('what'), found.start())
        for found in _FAILURE_COUNTER.finditer(view.text, 0, view.end)
        if any(char in '123456789' for char in found.group('count') or found.group('number'))
    )
    return _first_of_each(view, found, FAILURE_COUNTERS)


_SETTING_LINE = re.compile(r'[ \t]*(?:[A-Za-z][\w-]*::)?[A-Za-z][\w.\[\]-]*[ \t]*=[ \t]*[^\n]*')
"""A line of a dump of states read by name (`snmpwalk`'s `UCD-SNMP-MIB::dskErrorFlag.1 = INTEGER: error(1)`, a
`name = value` dump): what each thing is now, not what was counted."""
_NAMED_STATE = re.compile(
    r'[ \t]*(?P<name>(?:[A-Za-z][\w-]*::)?[A-Za-z][\w.\[\]-]*)[ \t]*=[ \t]*(?:[A-Za-z][\w-]*: ?)?(?P<value>[^\n]*)'
)
"""A state and its value (after its type, as `snmpwalk` prints it), matched at a line's start."""
_FLAG_STEMS = ('err', 'fail', 'alarm')
"""What the name of a state that says something went wrong holds, lowered (`prErrorFlag`, `dskErrorMsg`,
`memSwapError`, `upsAlarm`): found by a search of the lowered text for each (C-speed, ~0.1 ms per 150 KB each), not by
a regex tried at every place (failures' words in all their forms cost 50 ms there)."""
_UNRAISED = re.compile(
    r'|(?:no ?error|none|ok|false|no|off|clear|normal|good|success)(?:\(0\))?|[-+]?0+(?:\.0+)?(?: [A-Za-z%]{1,6})?'
    r'|""|\(0\)',
    re.IGNORECASE,
)
"""A value saying nothing is wrong: empty, zero, `noError(0)`, `false`, `OK`."""
_DESCRIBING = re.compile(r'(?:name|names|index|descr?|path|type|fix|fixcmd|cmd|command|oid)(?:\.[\d.]+)?$', re.I)
"""What a flag's name ends with when it is no flag: the name of the thing checked, a command to run to fix it."""
RAISED_FLAGS = 10
"""Raised flags shown at most, in the order the dump lists them."""
SETTING_SHARE = 0.6
"""Lines read that must be named states for a text to be read as a dump of them (warnings of its own may open it)."""


def _raised_flags(view: TextView, read: list[Span]) -> list[Pick]:
    """In a dump of named states (`snmpwalk` of a host's checks, a `name = value` status dump), those named for a
    failure whose value says it happened: `prErrorFlag.3 = INTEGER: error(1)` and its message `No sshd process
    running` among hundreds of readings, most of them `noError(0)` or empty. Wherever the dump lists them."""
    if view.total > COUNTER_SCAN_CHARS or len(read) < RARE_MIN_ROWS:
        return []
    lines = [content for span in dict.fromkeys(read) if (content := view.content(span)).strip()]
    if len(lines) < RARE_MIN_ROWS or not _over(lines, _SETTING_LINE.fullmatch, SETTING_SHARE):
        return []
    text, end = view.text, view.end
    lowered = text[:end].lower()
    starts: set[int] = set()
    for stem in _FLAG_STEMS:
        place = lowered.find(stem)
        while place != -1:
            line_start = lowered.rfind('\n', 0, place) + 1
            if lowered.find('=', line_start, place) == -1:  # in the name, not the value (`CFLAGS = ... -Werror`)
                starts.add(line_start)
            line_end = lowered.find('\n', place)
            place = lowered.find(stem, line_end) if line_end != -1 else -1
    flags: list[re.Match[str]] = []
    for start in sorted(starts):
        found = _NAMED_STATE.match(text, start, end)
        name = found['name'].lower() if found is not None else ''
        if found is not None and any(stem in name for stem in _FLAG_STEMS) and not _DESCRIBING.search(name):
            flags.append(found)
    # A flag says it is raised in words (`error(1)`, `true`, a message); a bare number there is a setting's
    # (`net.ipv4.tcp_retries2 = 15`), and a count of failures is a counter's.
    raised = [
        (found['name'], found.start())
        for found in flags
        if not _UNRAISED.fullmatch(value := found['value'].strip().strip('"\''))
        and any(char.isalpha() for char in value)
    ]
    if len(raised) * 2 > len(flags):
        return []  # most such names hold a value: settings (`smtpd_error_sleep_time = 1s`), not flags mostly clear
    return _first_of_each(view, raised, RAISED_FLAGS)


_LABELLED_LINE = re.compile(r'\n([ \t]+)([A-Za-z][\w .-]{0,40}?):[ \t]+([^\n]*?)[ \t]*(?=\n)')
"""An indented field of an entry: `        Value is: 3600.000 [seconds]` under a parameter's name."""
MARK_SHARE = 0.9
"""Share of a field's lines that must end in the same mark for the few without it to stand out."""
MARK_TITLE_REACH = 8
"""Lines looked back for the name of the entry an odd field belongs to."""


def _unmarked_fields(view: TextView, asked: frozenset[str] = frozenset()) -> list[Pick]:
    """In entries whose fields end, nearly all of them, in one mark (`varnishadm param.show -l`'s `Value is: 120.000
    [seconds] (default)`), the few fields without it (`Value is: 3600.000 [seconds]`: a parameter set by hand), each
    with the name of its entry and the field after it (its default). What a dump of settings is read for; the answer
    itself where the request names the mark (`asked`: "which parameters are not at their defaults")."""
    if view.total > ROW_SCAN_CHARS:
        return []
    groups: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for found in _LABELLED_LINE.finditer(view.text, 0, view.end):
        value = found.group(3)
        last = value.rsplit(None, 1)[-1] if value else ''
        groups.setdefault((found.group(1), found.group(2)), []).append((_DIGITS.sub('0', last), found.start() + 1))
    picks: list[Pick] = []
    for fields in groups.values():
        if len(fields) < RARE_MIN_ROWS:
            continue
        mark, count = Counter(last for last, _ in fields).most_common(1)[0]
        if count < MARK_SHARE * len(fields) or count == len(fields) or not mark.strip('()[]').isalpha():
            continue  # no mark nearly all carry (a word, not a number): the fields just differ
        odd = [start for last, start in fields if last != mark]
        if len(odd) > RARE_ROWS:
            continue
        word = mark.strip('()[]').lower()
        base = EXTREME_PRIORITY if any(word.startswith(key) for key in asked) else HEADER_PRIORITY - 2.5
        for start in odd:
            line = view.line_at(start)
            indent = _indent(view.content(line))
            title = next(
                (above for above in view.backward(line, MARK_TITLE_REACH) if _indent(view.content(above)) < indent),
                None,
            )
            after = view.next_line(line)
            spans = (*((title,) if title is not None else ()), line, *((after,) if after is not None else ()))
            picks.append(Pick(base - len(picks) * 0.01, spans, 'rare'))
    return picks


def _indent(line: str) -> int:
    """How far `line` is indented; a blank line as far as any (it names no entry)."""
    stripped = line.lstrip()
    return len(line) - len(stripped) if stripped else 1 << 16


def metric_sample(view: TextView, span: Span) -> Span | None:
    """For an exposition's `# HELP name ...` or `# TYPE name ...` line, the metric's first sample below it: the value
    its description is about."""
    content = view.content(span)
    if not content.startswith(('# HELP ', '# TYPE ')):
        return None
    name = content[7:].split(' ', 1)[0]
    for line in view.forward(span, 4):
        sample = view.content(line)
        if sample.startswith(name) and sample[len(name) : len(name) + 1] in ('{', ' ', '_'):
            return line
        if not sample.startswith('#'):
            return None
    return None


_HTTP_STATUS = re.compile(r'(?:< |  )?HTTP/\d(?:\.\d)? \d{3}\b')
"""A response's status line as a client prints it: curl's `-v` (`< HTTP/1.1 308 PERMANENT REDIRECT`), `-i`, wget's
`-S` (indented)."""
_HTTP_STATUS_LINE = re.compile(r'\n((?:< |  )?)HTTP/\d(?:\.\d)? \d{3}\b[^\n]*')
_HTTP_HEADER = re.compile(r'(?:< |  )?([A-Za-z][\w-]*): ')
_VOLATILE_HEADERS = frozenset(('date', 'content-length', 'etag', 'set-cookie', 'server', 'connection', 'x-request-id'))
"""Headers every response carries with its own value: they tell one kind of response from another by nothing."""
HTTP_SCAN_CHARS = 512 * 1024
"""Client transcripts up to this size are read for the kinds of response in them."""
_HTTP_REQUEST = re.compile(r'(?:> |  )?(?:GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS|CONNECT|TRACE) \S+ HTTP/\d')
"""A request line as a client or a proxy prints it: curl's `-v` (`> GET /x HTTP/1.1`), `socat -v`'s bare one."""
HTTP_REQUEST_REACH = 24
"""Lines above a response's status line searched for the request it answers (its headers and a short body)."""
HTTP_KINDS = 4
"""Kinds of response (distinct status lines) a client transcript's digest shows, in the order they first came."""
HTTP_RESPONSES = 256
"""Responses read, at most."""
HTTP_HEADERS = 40
"""Headers of a response read, at most."""
HTTP_TELLING = 3
"""Headers shown under a kind of response's status line: its `Location` and those only that kind carries."""


def _http_exchanges(view: TextView, read: list[Span]) -> list[Pick]:
    """In a client's transcript of many responses (`curl -v -L` in a redirect loop), each kind of response once, as it
    first came: its status line, where it sends the client (`Location`) and the headers only that kind carries (the
    `Cache-Control` that makes a browser keep a redirect). What bounces where, where the transcript repeats it. Each
    kind but the first comes under the request it answered: which request got the `404`, the `501`."""
    if view.total > HTTP_SCAN_CHARS or not any(_HTTP_STATUS.match(view.content(span)) for span in read):
        return []
    text = view.text
    kinds: dict[str, list[Span]] = {}  # status line -> its first response: the status line and its headers
    for count, found in enumerate(_HTTP_STATUS_LINE.finditer(text, 0, view.end)):
        if count == HTTP_RESPONSES:
            break
        status = found.group(0).strip()
        if status in kinds:
            continue
        prefix = found.group(1)
        lines = [view.line_at(found.start() + 1)]
        below = view.next_line(lines[0])
        while below is not None and len(lines) <= HTTP_HEADERS:
            header = view.content(below)
            if not header.startswith(prefix) or not _HTTP_HEADER.match(header):
                break
            lines.append(below)
            below = view.next_line(below)
        kinds[status] = lines
    if len(kinds) < 2:
        return []
    names = [{_header_name(view.content(line)) for line in lines[1:]} for lines in kinds.values()]
    everywhere: set[str] = set[str].intersection(*names)
    picks: list[Pick] = []
    for rank, lines in enumerate(list(kinds.values())[:HTTP_KINDS]):
        telling = [
            line
            for line in lines[1:]
            if (name := _header_name(view.content(line))) == 'location'
            or (name not in everywhere and name not in _VOLATILE_HEADERS)
        ]
        request = _http_request(view, lines[0]) if rank else None
        asked = (request,) if request is not None else ()
        picks.append(Pick(HEADER_PRIORITY - 2 - rank * 0.01, (*asked, lines[0], *telling[:HTTP_TELLING]), 'rare'))
    return picks


def _http_request(view: TextView, status: Span) -> Span | None:
    """The request line a response's status line answers: the nearest above it, within `HTTP_REQUEST_REACH` lines,
    past no other response."""
    for above in view.backward(status, HTTP_REQUEST_REACH):
        line = view.content(above)
        if _HTTP_REQUEST.match(line):
            return above
        if _HTTP_STATUS.match(line):
            return None
    return None


_PACKET_LINE = re.compile(r'\d\d:\d\d:\d\d\.\d+ IP6? \S+ > \S+: Flags \[')
"""A packet's line in `tcpdump`'s output: its time, addresses and TCP flags."""
_PAYLOAD_HTTP = re.compile(
    r'(?:GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS) /\S* HTTP/\d(?:\.\d)?|HTTP/\d(?:\.\d)? \d{3}\b[^\n]*'
)
"""A request line or a status line in a packet's payload as `tcpdump -A` prints it (after the TCP header's bytes)."""
_RESET = re.compile(r'^[^\n]* IP6? \S+?\.(\d+) > \S+?\.(\d+): Flags \[R\.?\][^\n]*', re.MULTILINE)
"""A packet resetting its connection: a port nothing listens on, or a peer that gave up."""
PACKET_SCAN_CHARS = 1024 * 1024
"""Packet dumps up to this size are read whole for their kinds of exchange."""
PACKET_KINDS = 6
"""Kinds of request and response (and resetting peers) shown, at most, each as it first came."""
PAYLOAD_HEADER_LINES = 8
"""Lines under a request or status line read for the header that says who sent it (`User-Agent`, `Server`)."""
_WHO_HEADER = ('User-Agent:', 'Server:')
"""Headers naming who sent a request or a response."""


def _packet_exchanges(view: TextView, read: list[Span]) -> list[Pick]:
    """In a packet dump with payloads (`tcpdump -A`), each kind of HTTP request and response once, as it first came,
    with the header saying which client or server it is; and the first packet each peer reset a connection with (a
    port nothing listens on). What went over the wire, where the dump repeats it with every poll."""
    if view.total > PACKET_SCAN_CHARS or not any(
        ': Flags [' in (line := view.content(span)) and _PACKET_LINE.match(line) for span in read
    ):
        return []
    text = view.text
    picks: list[Pick] = []
    kinds: set[str] = set()
    for found in _PAYLOAD_HTTP.finditer(text, 0, view.end):
        kind = found.group(0).strip()
        if kind in kinds:
            continue
        kinds.add(kind)
        line = view.line_at(found.start())
        who = next(
            (
                below
                for below in view.forward(line, PAYLOAD_HEADER_LINES)
                if view.content(below).startswith(_WHO_HEADER)
            ),
            None,
        )
        picks.append(Pick(HEADER_PRIORITY - 2 - len(picks) * 0.01, (line,) if who is None else (line, who), 'rare'))
        if len(kinds) == PACKET_KINDS:
            break
    services: set[int] = set()  # each reset once per service: the lower of its two ports (the other is a client's)
    for found in _RESET.finditer(text, 0, view.end):
        service = min(int(found.group(1)), int(found.group(2)))
        if service not in services and len(services) < PACKET_KINDS // 2:
            services.add(service)
            picks.append(Pick(HEADER_PRIORITY - 2.5 - len(services) * 0.01, (view.line_at(found.start()),), 'rare'))
    return picks


_CALL_GRAPH_TITLE = 'Call graph'
_CALL_GRAPH_ENTRY = re.compile(r'^\[\d+\]\s+\d+(?:\.\d+)?\s[^\n]*', re.MULTILINE)
"""A function's own line in gprof's call graph (`[5]     26.2    0.00    0.33       6         cJSON_Parse [5]`), among
the indented lines of its callers and callees."""
CALL_GRAPH_ENTRIES = 6
"""Call graph entries shown: gprof numbers them by the time spent in each with its callees, the largest first."""
CALL_GRAPH_CHARS = 4 * 1024 * 1024
"""Reports up to this size are searched for the call graph's title."""
CALL_GRAPH_OPENING = 1024
"""Characters at a text's start where gprof's report says what it is (its flat profile's title, or the graph's)."""
CALL_GRAPH_PRIORITY = 445.0
"""Under a sorted table's top rows (the flat profile's), above the first error."""


def _call_graph_entries(view: TextView) -> list[Pick]:
    """In gprof's report, the call graph's first entries under its column names: where the time goes counting what
    each function calls (parsing, printing, freeing), which the flat profile, by each function's own time, does not
    say."""
    text = view.text
    # gprof's report opens with its flat profile or, without one (`-q`), with the call graph's title.
    opens = text.startswith('Flat profile:') or _CALL_GRAPH_TITLE in text[:CALL_GRAPH_OPENING]
    found = text.find(_CALL_GRAPH_TITLE) if opens and view.total <= CALL_GRAPH_CHARS else -1
    columns = text.find('\nindex % time', found, view.end) if found != -1 else -1
    if columns == -1:
        return []
    entries = [
        view.line_at(entry.start())
        for entry in islice(_CALL_GRAPH_ENTRY.finditer(text, columns, view.end), CALL_GRAPH_ENTRIES)
    ]
    if not entries:
        return []
    header = view.line_at(columns + 1)
    picks = [Pick(CALL_GRAPH_PRIORITY, (header, entries[0]), 'top')]
    picks += [Pick(CALL_GRAPH_PRIORITY - 0.01 * rank, (entry,), 'top') for rank, entry in enumerate(entries[1:], 1)]
    return picks


def _header_name(line: str) -> str:
    found = _HTTP_HEADER.match(line)
    return found.group(1).lower() if found else ''


_STATUS_LINE = re.compile(r'\n[^\n]*: ([^:\n]{1,40})(?=\n)')
"""A line ending in a value after its last colon: `usr/bin/docutils: OK`, `pkg/util.py: FAILED`; from the line break
before it (see `_BLOCK_TOTAL`)."""
STATUS_SHARE = 0.8
"""Share of such lines one value must hold for the values to be statuses (most things OK, a few not)."""


_MASSIF_PEAK = re.compile(r'\b(\d+) \(peak\)')
"""ms_print's list of detailed snapshots names the peak's number: `Detailed snapshots: [2, 4, ..., 47 (peak), 53]`."""
MASSIF_SITES = 4
"""Allocation sites of the peak snapshot's tree shown, the largest first (ms_print lists them so)."""
MASSIF_REACH = 64 * 1024
"""Characters at a report's start searched for the list of its snapshots naming the peak."""
MASSIF_TREE_LINES = 40
"""Lines under the peak's row read for the branches of its allocation tree."""
MASSIF_PRIORITY = 445.0
"""Under a table's header and top rows, above its plain rows: where the memory is at the peak."""


def _massif_peak(view: TextView) -> list[Pick]:
    """In `ms_print`'s report of a massif profile, the peak snapshot's row and the first branches of its allocation
    tree (`->20.88% (2,128,384B) 0x10B02C: hashtable_init (hashtable.c:179)`): where the memory is at the peak."""
    text = view.text
    named = _MASSIF_PEAK.search(text, 0, min(view.end, MASSIF_REACH)) if 'Massif arguments:' in text[:4096] else None
    if named is None:
        return []
    row = re.compile(rf'\n +{named.group(1)} +[\d,]+ +[\d,]+ ').search(text, named.end(), view.end)
    if row is None:
        return []
    peak = view.line_at(row.start() + 1)
    sites: list[Span] = []
    for line in view.forward(peak, MASSIF_TREE_LINES):
        content = view.content(line)
        if content.startswith('->'):
            sites.append(line)
            if len(sites) == MASSIF_SITES:
                break
        elif sites and not content.startswith(('|', ' ')):
            break
    return [Pick(MASSIF_PRIORITY, (peak, *sites), 'top'), Pick(MASSIF_PRIORITY - 0.01, (peak,), 'top')]


_PERF_ENTRY = re.compile(r'^ {2,}(\d+\.\d+)% +(\d+\.\d+)% +\S[^\n]*\[[.kgu]\] [^\n]*', re.MULTILINE)
"""An entry of `perf report --children` (`    69.46%    25.20%  cmd  dso  [.] heap_remove`): its time with what it
calls, and its own; the call chains printed under each are not entries."""
PERF_ENTRIES_READ = 400
"""Entries read, at most: a report lists them from the largest time down."""
PERF_BY_SELF = 5
"""Entries shown by their own time, the largest first."""
PERF_BY_CHILDREN = 3
"""Entries shown by their time with what they call, among those with time of their own (`uv_timer_stop`, not `main`)."""
PERF_OWN_SHARE = 1.0
"""Percent of its own time an entry needs to be shown by its time with its callees: `main` and the loops above the
work spend none."""
PERF_SCAN_CHARS = 4 * 1024 * 1024
"""Reports up to this size are read for their entries."""
PERF_HEADER_REACH = 64 * 1024
"""Characters at a report's start searched for its column names (`# Children      Self`, `# Overhead`)."""


def _perf_entries(view: TextView) -> list[Pick]:
    """In `perf report`'s output (with call chains under each entry), the entries that take the most time themselves
    and those that take the most with what they call while doing some work of their own: where the time goes, out
    of pages of call chains, under the column names."""
    text = view.text
    if view.total > PERF_SCAN_CHARS:
        return []
    header = text.find('# Children      Self', 0, PERF_HEADER_REACH)
    if header == -1:
        header = text.find('# Overhead', 0, PERF_HEADER_REACH)
    if header == -1:
        return []
    entries = [
        (float(found.group(1)), float(found.group(2)), found.start())
        for found in islice(_PERF_ENTRY.finditer(text, header, view.end), PERF_ENTRIES_READ)
    ]
    if len(entries) < 3:
        return []
    chosen = [place for _, _, place in sorted(entries, key=lambda entry: (-entry[1], entry[2]))[:PERF_BY_SELF]]
    working = [entry for entry in entries if entry[1] >= PERF_OWN_SHARE and entry[2] not in chosen]
    chosen += [place for _, _, place in sorted(working, key=lambda entry: (-entry[0], entry[2]))[:PERF_BY_CHILDREN]]
    columns = view.line_at(header)
    picks = [Pick(SORTED_TOP_PRIORITY - 1, (columns,), 'top')]
    picks += [
        Pick(SORTED_TOP_PRIORITY - 1.5 - rank * 0.01, (view.line_at(place),), 'top')
        for rank, place in enumerate(chosen)
    ]
    return picks


_PHASE_TITLE = re.compile(r'\n((?:Pass|Phase|Step|Stage) \d+[A-Z]?(?:/\d+)?(?::| :| of )[^\n]*|\[\d+/\d+\] [^\n]*)')
"""A line opening a numbered phase of a run (e2fsck's `Pass 3: Checking directory connectivity`, Docker's `Step 4/9 :
RUN ...`, yarn's `[2/4] Fetching packages...`); from the line break before it."""
_PHASE_WORDS = ('Pass ', 'Phase ', 'Step ', 'Stage ', '[')
"""How such a line opens: checked before the pattern, on each line read."""
PHASE_TITLES_READ = 64
"""Phase titles found, at most, before the search stops."""
PHASE_LEADS = 6
"""Phases whose first lines are shown, at most."""
PHASE_LINES = 2
"""Lines under a phase's title shown with it: what the phase found or did first."""
PHASE_SCAN_CHARS = 1024 * 1024
"""Runs up to this size are searched for their phases' titles."""
PHASE_PRIORITY = 442.0
"""Under a sorted report's rows and a table's bursts, above the first error."""


def _phase_leads(view: TextView, read: list[Span]) -> list[Pick]:
    """In a run of numbered phases, each phase's title with the first lines under it: what each found first (Pass 2's
    first directory entry pointing at a cleared inode, Pass 3's first unconnected directory), where a cut by position
    keeps the first phase and the account at the end. Searched for only where the lines read hold a phase's title."""
    if view.total > PHASE_SCAN_CHARS or not any(
        (line := view.content(span)).startswith(_PHASE_WORDS) and _PHASE_TITLE.match(f'\n{line}') for span in read
    ):
        return []
    titles = [found.start() + 1 for found in islice(_PHASE_TITLE.finditer(view.text, 0, view.end), PHASE_TITLES_READ)]
    if len(titles) < 3:
        return []
    picks: list[Pick] = []
    for index, start in enumerate(titles[:PHASE_LEADS]):
        title = view.line_at(start)
        stop = titles[index + 1] if index + 1 < len(titles) else view.end
        under = [line for line in view.forward(title, PHASE_LINES) if line[0] < stop and view.content(line).strip()]
        if under:
            picks.append(Pick(PHASE_PRIORITY - index * 0.01, (title, *under), 'rare'))
    return picks


_NAMED_KIND = re.compile(r'\n([^\s:]+):[ \t]+([^\s,;]+)')
"""A line naming a thing and then what kind of thing it is (`file`'s `/usr/bin/su:   setuid ELF 64-bit ...`); from the
line break before it."""
_NAMED_KIND_LINE = re.compile(r'[^\s:]+:[ \t]+\S')
KIND_SHARE = 0.3
"""Share of the lines the commonest kind must hold for the kinds to be what the lines are told apart by."""
KIND_READ_STEP = 3
"""Every third line read is judged for the list's form."""


def _rare_kinds(view: TextView, read: list[Span]) -> list[Pick]:
    """In a list of things each followed by what kind it is (`file /usr/bin/*`: `ELF`, `symbolic link`, `POSIX shell
    script`), the few of a rare kind (the `setuid` and `setgid` executables among hundreds): what an audit reads it
    for, wherever they are in it."""
    if view.total > ROW_SCAN_CHARS:
        return []
    lines = [content for span in read[::KIND_READ_STEP] if (content := view.content(span)).strip()]
    if not _over(lines, lambda line: bool(_NAMED_KIND_LINE.match(line)), 0.9):
        return []
    places: dict[str, list[int]] = {}
    for found in _NAMED_KIND.finditer(f'\n{view.text[: view.end]}'):
        places.setdefault(found.group(2), []).append(found.start())
    total = sum(len(held) for held in places.values())
    if total < RARE_MIN_ROWS or max(len(held) for held in places.values()) < KIND_SHARE * total:
        return []
    rare = max(2, total // 100)
    common = {kind for kind, held in places.items() if len(held) > rare}
    text = view.text

    def marks_common(kind: str) -> bool:
        # A word put before a common kind (`setuid ELF 64-bit` among `ELF 64-bit`): that kind, flagged.
        start = places[kind][0] + 1
        at = text.find(f'{kind} ', start, start + ROW_KIND_REACH) + len(kind) + 1
        return text[at : text.find(' ', at, at + ROW_KIND_REACH)] in common

    # The flagged kinds, then the rarest, as many as `RARE_KIND_LINES` lines hold: more odd lines are texture.
    odd = sorted((not marks_common(kind), len(held), kind) for kind, held in places.items() if len(held) <= rare)
    chosen: list[int] = []
    for _, count, kind in odd:
        if len(chosen) + count > RARE_KIND_LINES:
            break
        chosen += places[kind]
    return [
        Pick(HEADER_PRIORITY - 2.5 - rank * 0.01, (view.line_at(place),), 'rare') for rank, place in enumerate(chosen)
    ]


RARE_KIND_LINES = 12
"""Lines of the rare kinds shown at most."""
ROW_KIND_REACH = 512
"""Characters of a line read for where its kind is said."""


def _rare_statuses(view: TextView) -> list[Pick]:
    """In a list of statuses (`md5sum -c`'s `path: OK`, a checker's `name: passed`), the few lines ending in another
    value (`FAILED`, `No such file or directory`): what the list is read for, wherever they are in it."""
    if view.total > ROW_SCAN_CHARS:
        return []
    places: dict[str, list[int]] = {}
    for found in _STATUS_LINE.finditer(f'\n{view.text[: view.end]}\n'):
        places.setdefault(found.group(1).strip(), []).append(found.start())
    total = sum(len(held) for held in places.values())
    if total < RARE_MIN_ROWS or max(len(held) for held in places.values()) < STATUS_SHARE * total:
        return []
    counts = Counter({value: len(held) for value, held in places.items()})
    odd = rare_values(counts, max(2, total // 100))
    chosen = sorted(place for value in odd for place in places[value])
    return [
        Pick(HEADER_PRIORITY - 2.5 - rank * 0.01, (view.line_at(place),), 'rare') for rank, place in enumerate(chosen)
    ]


_LABELLED_STATUS = re.compile(r'(?<![\w-])([a-z][\w-]{1,24}): ([A-Z][A-Z0-9_]{2,19})(?![\w-])')
"""A status a line states in capitals after its label: dig's `status: NXDOMAIN`, `state: FAILED`."""
STATUS_RARITY = 20
"""A status on at most one in this many of the lines stating its label is a rare one."""
RECORD_OPENER_CHARS = 12
"""Characters of an output's first line that, opening other lines too, open each of its records (`; <<>> DiG 9.`)."""
_VISIBLE = re.compile(r'\S')
RECORD_REACH = 4096
"""Characters above a line looked through for the opening of the record it is in."""


def _rare_labelled_statuses(view: TextView, read: list[Span]) -> list[Pick]:
    """Where many lines state a status in capitals under one label (`status: NOERROR`) and a few another value
    (`status: NXDOMAIN`), those few, each with the line opening the record it is in when the output is a run of
    records opened alike (a batch of `dig` queries: which name got that answer)."""
    if view.total > ROW_SCAN_CHARS or not any(_LABELLED_STATUS.search(view.content(span)) for span in read):
        return []
    text = view.text
    counts: dict[str, Counter[str]] = {}
    places: dict[tuple[str, str], list[int]] = {}
    for found in _LABELLED_STATUS.finditer(text, 0, view.end):
        label, value = found.group(1), found.group(2)
        counts.setdefault(label, Counter())[value] += 1
        places.setdefault((label, value), []).append(found.start(2))
    chosen: list[int] = []
    for label, values in counts.items():
        total = sum(values.values())
        if total < RARE_MIN_ROWS or values.most_common(1)[0][1] < STATUS_SHARE * total:
            continue
        # A query retried, a job run each round, fails alike each time: a twentieth of the statuses is still few.
        odd = rare_values(values, max(2, total // STATUS_RARITY))
        chosen += (place for value in odd for place in places[(label, value)])
    if not chosen or len(chosen) > 2 * RARE_ROWS:
        return []
    opener = _record_opener(view)
    picks: list[Pick] = []
    for rank, place in enumerate(sorted(chosen)):
        line = view.line_at(place)
        opening = text.rfind(opener, max(0, line[0] - RECORD_REACH), line[0]) if opener else -1
        if opening != -1:  # both lines whole: a focus is for the one line a pick is cut around
            picks.append(Pick(HEADER_PRIORITY - 2.5 - rank * 0.01, (view.line_at(opening + 1), line), 'rare'))
        else:
            picks.append(Pick(HEADER_PRIORITY - 2.5 - rank * 0.01, (line,), 'rare', place))
    return picks


OUTCOME_KEYS = ('status', 'state', 'result', 'outcome', 'level', 'lvl', 'severity', 'dsn', 'action', 'verdict')
"""Keys naming how something went (postfix's `status=bounced`, `dsn=5.1.1`; logfmt's `level=warn`): not those naming
who or what (`app=billing-sync`)."""
_ASSIGNED = {key: re.compile(key + r'=([A-Za-z][\w-]{0,15}|\d(?:\.\d{1,3}){2})(?=[,;\s)]|$)') for key in OUTCOME_KEYS}
"""Each such key given a value, as a word or a status code: searched from the key itself (a literal the regex engine
skips to), what stands before it checked after (a look-behind first would be tried at every character)."""
OUTCOME_VALUES = 6
"""Values a key may take for each of its uncommon ones to be told: a status, an outcome, a level."""
OUTCOME_LINES = 6
"""Lines shown for such values at most: the first holding each, the rarest value first."""


def _assigned_outcomes(view: TextView, read: list[Span]) -> list[Pick]:
    """Where log lines assign a key one of a few values (`status=sent`, `deferred`, `bounced`), most of them one, the
    first line holding each of the others, the rarest first: how each kind of outcome looked, and for what. A key
    whose values vary (an address, a delay) says nothing by them."""
    if view.total > ROW_SCAN_CHARS:
        return []
    read_lines = [view.content(span) for span in read]
    keys = [key for key in OUTCOME_KEYS if any(f'{key}=' in line for line in read_lines)]
    text = view.text
    values: dict[str, Counter[str]] = {}
    firsts: dict[tuple[str, str], int] = {}
    for key in keys:
        for found in _ASSIGNED[key].finditer(text, 0, view.end):
            before = text[found.start() - 1 : found.start()]
            if before and (before.isalnum() or before in '_-'):
                continue
            value = found.group(1)
            counted = values.setdefault(key, Counter())
            if len(counted) > OUTCOME_VALUES and value not in counted:
                continue  # a key of many values: no outcome
            counted[value] += 1
            firsts.setdefault((key, value), found.start(1))
    chosen: list[tuple[int, int]] = []  # how many lines hold the value, where it first is
    for key, counted in values.items():
        total = counted.total()
        if not 2 <= len(counted) <= OUTCOME_VALUES or total < RARE_MIN_ROWS:
            continue
        usual, most = counted.most_common(1)[0]
        if most < total / 2:
            continue  # no usual outcome: the values are what the lines are about, not exceptions
        chosen += [(count, firsts[(key, value)]) for value, count in counted.items() if value != usual]
    lines: dict[Span, int] = {}  # each line, cut to fit, keeps its value
    for _, place in sorted(chosen):
        lines.setdefault(view.line_at(place), place)
        if len(lines) == OUTCOME_LINES:
            break
    # Under a log's first error (what went wrong), over its other lines.
    return [
        Pick(OUTCOME_PRIORITY - rank * 0.01, (line,), 'rare', place) for rank, (line, place) in enumerate(lines.items())
    ]


OUTCOME_PRIORITY = 400.0
"""Where the first line of each uncommon outcome ranks: under a log's first error (410), over its plain lines."""


def _folded_stack(line: str) -> tuple[str, int] | None:
    """A line of collapsed (folded) stacks, as flame graphs are drawn from (austin's, py-spy's raw output, perf's
    through `stackcollapse`): the frames outermost first, apart by `;`, then the samples taken in them. Split at its
    last blank, not matched by a pattern: one backtracking over every `;` of a minified line costs its square."""
    stack, _, count = line.rpartition(' ')
    if not count.isdigit() or ';' not in stack or stack[:1] in ('', ';') or stack[:1].isspace() or stack[-1:].isspace():
        return None
    return stack, int(count)


FOLDED_SCAN_CHARS = 512 * 1024
"""Collapsed stacks up to this size are summed frame by frame (a split a line: ~2 ms per 100 KB, ~7 ms at most)."""
FOLDED_ROOT_SHARE = 0.95
"""Frames under which nearly every sample was taken (the process, its main thread, the script's module) say nothing."""
FOLDED_FRAMES = 5
"""Frames a note on collapsed stacks names at most, the most samples under them first."""


def folded_stacks_note(view: TextView, read: list[Span], limit: int) -> str:
    """For collapsed stacks, a bracketed note of where the samples were taken: each function's share of them, counted
    in every stack it is on (no line says it: the time of a function called from many places is spread over many
    lines), the largest first, past the frames nearly every sample is under. Empty for other text."""
    if view.total > FOLDED_SCAN_CHARS:
        return ''
    lines = [line for span in read if (line := view.content(span)) and not line.startswith('#')]
    if len(lines) < FOLDED_MIN_LINES or not _over(lines, lambda line: _folded_stack(line) is not None, 0.8):
        return ''
    under: Counter[str] = Counter()
    caller: dict[str, str] = {}  # the function a function is first seen called from
    samples = stacks = 0
    for line in view.text[: view.end].split('\n'):
        found = _folded_stack(line)
        if found is None:
            continue
        stack, count = found
        samples += count
        stacks += 1
        # A function's frames at each of its lines are one function (austin's `path:name:line`).
        frames = [_function_of(frame) for frame in stack.split(';')]
        for above, frame in itertools.pairwise(frames):
            caller.setdefault(frame, above)
        for frame in set(frames):
            under[frame] += count
    if not samples:
        return ''
    head = f'[{stacks:,} stacks weighing {samples:,}; the most under: '
    chosen: list[tuple[str, int]] = []
    for frame, count in under.most_common():
        if count >= FOLDED_ROOT_SHARE * samples:
            continue
        last = chosen[-1][0] if chosen else ''
        near = bool(chosen) and chosen[-1][1] - count <= samples // 100
        # A caller whose samples are nearly all its callee's (a script's module, its `main`): the callee says more.
        if near and caller.get(frame) == last:
            chosen[-1] = (frame, count)
            continue
        if near and caller.get(last) == frame:
            continue
        if len(chosen) == FOLDED_FRAMES:
            break
        chosen.append((frame, count))
    parts: list[str] = []
    for frame, count in chosen:
        part = f'{frame.rsplit("/", 1)[-1]} {100 * count / samples:.0f}%'
        if len(head) + len(', '.join([*parts, part])) + 1 > limit:
            break
        parts.append(part)
    return f'{head}{", ".join(parts)}]' if parts else ''


def _function_of(frame: str) -> str:
    """A frame of collapsed stacks without the line it was at, after its function's name (austin's `path:name:12`)."""
    function, _, line = frame.rpartition(':')
    return function if function and line.isdigit() else frame


FOLDED_MIN_LINES = 8
"""Lines read that a text needs before its lines are taken for collapsed stacks."""


def _record_opener(view: TextView) -> str:
    """The start of the output's first line, with a line break before it, when a few more lines open with it too: how
    each of a run of records opens (`; <<>> DiG 9.` over each query). Empty when none does."""
    visible = _VISIBLE.search(view.text, 0, view.end)
    if visible is None:
        return ''
    first = view.content(view.line_at(visible.start()))[:RECORD_OPENER_CHARS]
    if len(first.strip()) < RECORD_OPENER_CHARS // 2:
        return ''
    opener = '\n' + first
    return opener if view.text.count(opener, 0, view.end) >= 2 else ''


_SCALAR_MEMBER = re.compile(
    r'"([A-Za-z_][\w.$ -]{0,40})": ?("(?:[^"\\\n]|\\.){0,80}"|true|false|null|-?\d{1,9}(?![\d.eE]))'
)
"""A member of a JSON record holding a string, a flag or a whole number: what a level, a code or a status is."""
MEMBER_SHARE = 0.8
"""Share of records a member must be in to be one a record is told apart by (`severity`, not a nested `label`)."""


def _rare_members(view: TextView) -> list[Pick]:
    """In JSON lines (a linter's findings, a structured log, a query's rows), the records holding a value few others
    hold in a member most hold with few values: the one `"severity": "error"` among a hundred warnings, the one
    `"level":"fatal"`. Each is kept from its start through that member."""
    if view.total > ROW_SCAN_CHARS:
        return []
    rows, starts = _rows_from(view, 0)
    values: dict[str, Counter[str]] = {}
    places: dict[tuple[str, str], list[tuple[int, int]]] = {}  # (member, value) -> (record, where its member is)
    records = 0
    for index, row in enumerate(rows):
        if not row.lstrip().startswith('{'):
            continue
        records += 1
        seen: set[str] = set()
        for found in _SCALAR_MEMBER.finditer(row):
            name, value = found.group(1), found.group(2)
            if name in seen:
                continue  # a nested object's member of the same name (`"line"` of each label) is another thing
            seen.add(name)
            values.setdefault(name, Counter())[value] += 1
            places.setdefault((name, value), []).append((index, found.start()))
    if records < RARE_MIN_ROWS:
        return []
    few = max(3, int(RARE_DISTINCT * records))
    chosen: dict[int, tuple[int, int]] = {}  # record -> (how often its rare value occurs, where the member is)
    for name, counts in values.items():
        if sum(counts.values()) < MEMBER_SHARE * records or not 2 <= len(counts) <= few:
            continue
        for value in rare_values(counts, max(2, records // 100)):
            for index, at in places[(name, value)]:
                if counts[value] < chosen.get(index, (records + 1, 0))[0]:
                    chosen[index] = (counts[value], at)
    if not chosen or len(chosen) > 2 * RARE_ROWS:
        return []  # many odd records are the list's texture, not its exceptions
    kept = sorted(sorted(chosen, key=lambda index: (chosen[index][0], index))[:RARE_ROWS])
    return [
        Pick(HEADER_PRIORITY - 2.5 - rank * 0.01, (view.line_at(start),), 'rare', start + chosen[index][1])
        for rank, index in enumerate(kept)
        for start in (starts[index],)
    ]


_BLOCK_TOTAL = re.compile(r'\n([A-Z][A-Za-z ]{2,30}?): +(\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?) ?[a-zµ]{0,3}(?=\n)')
"""A block's total on a line of its own: line_profiler's `Total time: 19.7694 s` over each function it profiled. From
the line break before it: a pattern opening with a literal is tried only where it occurs (one opening with `^` under
MULTILINE is tried at every character, eight times slower)."""
_BLOCK_LABEL = re.compile(r'[A-Z][\w ]{1,20}: \S')
"""A label under a block's total saying what the block is of: `File: ...`, `Function: Number.cast at line 54`."""
BLOCK_TOTALS = 2
"""Blocks of a report of repeated blocks whose total, labels and top rows its digest shows, the largest first."""
BLOCK_ROWS = 2
"""Rows of such a block shown: those with the largest share in its `%` column."""
BLOCK_ROW_SHARE = 10.0
"""Share (in percent) of its block a row must hold to be shown with it."""
BLOCK_READ_LINES = 400
"""Lines of a block read for its top rows, at most."""
_SHARE_VALUE = re.compile(r'\d+(?:\.\d+)?')


def _block_totals(view: TextView) -> list[Pick]:
    """In a report of repeated blocks, each opening with its total (line_profiler's `Total time:` over every function),
    the blocks with the largest totals: the total, the labels under it (the file, the function) and the rows with
    the largest share of it (the line that takes 90% of the time). Where the time goes, block by block."""
    if view.total > ROW_SCAN_CHARS:
        return []
    text, end = view.text, view.end
    by_key: dict[str, list[tuple[float, int]]] = {}
    # Searched with a line break in front: a match starts where its line does in the text.
    for found in _BLOCK_TOTAL.finditer(f'\n{text[:end]}\n'):
        by_key.setdefault(found.group(1), []).append((float(found.group(2).replace(',', '')), found.start()))
    blocks = max(by_key.values(), key=len) if by_key else []
    if len(blocks) < 3:
        return _closing_totals(view)
    if not _one_stands_out([value for value, _ in blocks]):
        return []
    starts = sorted(place for _, place in blocks)
    picks: list[Pick] = []
    for rank, (_, place) in enumerate(sorted(blocks, key=lambda block: (-block[0], block[1]))[:BLOCK_TOTALS]):
        total = view.line_at(place)
        following = starts[bisect_right(starts, place)] if bisect_right(starts, place) < len(starts) else end
        labels: list[Span] = []
        below = view.next_line(total)
        while below is not None and len(labels) < 2 and _BLOCK_LABEL.match(view.content(below)):
            labels.append(below)
            below = view.next_line(below)
        rows = _block_top_rows(view, total, following)
        picks.append(Pick(HEADER_PRIORITY - 1.5 - rank * 0.01, (total, *labels, *rows), 'rare'))
    return picks


_CLOSING_TOTAL = re.compile(r'\n(?:Total|TOTAL|total)[ \t]+(\d[\d,]*)[ \t]*(?=\n)')
"""A block's total closing it: `size -A`'s `Total   2548882` under each file's sections."""


def _one_stands_out(totals: list[float]) -> bool:
    """Whether the largest of blocks' totals is at least twice their median: else the totals are alike, and no block
    stands out to be shown."""
    ordered = sorted(totals)
    return ordered[-1] > 0 and ordered[-1] >= 2 * ordered[len(ordered) // 2]


def _closing_totals(view: TextView) -> list[Pick]:
    """In a report of repeated blocks each closing with its total (`size -A` over many files), the blocks with the
    largest totals: the block's first line (what it is of), its row with the largest number and its total."""
    text, end = view.text, view.end
    found = [(float(hit.group(1).replace(',', '')), hit.start() + 1) for hit in _CLOSING_TOTAL.finditer(text, 0, end)]
    if len(found) < 3:
        return []
    if not _one_stands_out([value for value, _ in found]):
        return []
    opening = {place: previous for (_, previous), (_, place) in pairwise([(0.0, -1), *found])}
    picks: list[Pick] = []
    for rank, (_, place) in enumerate(sorted(found, key=lambda block: (-block[0], block[1]))[:BLOCK_TOTALS]):
        total = view.line_at(place)
        previous = opening[place]
        start = view.line_at(previous)[1] + 1 if previous >= 0 else 0
        title = next((line for line in _lines(view, start, place) if view.content(line).strip()), None)
        largest = _largest_row(view, title, place)
        spans = [span for span in (title, largest) if span is not None]
        picks.append(Pick(HEADER_PRIORITY - 1.5 - rank * 0.01, (*dict.fromkeys(spans), total), 'rare'))
    return picks


def _lines(view: TextView, start: int, stop: int) -> Iterator[Span]:
    """The lines from the one at `start` up to `stop`, at most `BLOCK_READ_LINES`."""
    first = view.line_at(start)
    lines = itertools.chain((first,), view.forward(first, BLOCK_READ_LINES - 1))
    return itertools.takewhile(lambda line: line[0] < stop, lines)


def _largest_row(view: TextView, title: Span | None, stop: int) -> Span | None:
    """Of a block's rows after its title, the one whose first number (after its name) is the largest."""
    if title is None:
        return None
    best: tuple[float, Span] | None = None
    for line in _lines(view, title[1] + 1, stop):
        fields = view.content(line).split()
        value = _measure(fields[1]) if len(fields) >= 2 else None
        if value is not None and (best is None or value > best[0]):
            best = (value, line)
    return best[1] if best is not None else None


def _block_top_rows(view: TextView, total: Span, stop: int) -> list[Span]:
    """The rows of the block under the line `total`, to `stop`, with the largest values under its `%` column."""
    column = -1
    rows: list[tuple[float, Span]] = []
    line = view.next_line(total)
    for _ in range(BLOCK_READ_LINES):
        if line is None or line[0] >= stop:
            break
        content = view.content(line)
        if column < 0:
            column = content.find('%') if '%' in content and not content.lstrip()[:1].isdigit() else -1
        elif content.strip() and not is_rule(content):
            shares = _SHARE_VALUE.findall(content, max(0, column - 6), column + 7)
            if shares and float(shares[-1]) >= BLOCK_ROW_SHARE:
                rows.append((float(shares[-1]), line))
        line = view.next_line(line)
    rows.sort(key=lambda row: (-row[0], row[1]))
    return sorted(span for _, span in rows[:BLOCK_ROWS])


_GDB_THREAD = re.compile(r'Thread (?:\d+|0x[0-9A-Fa-f]+) \(.*\):(?: "[^"\n]*")?$')
"""A thread's first line in gdb's `thread apply all bt` (`Thread 2 (Thread 0x7f77 (LWP 13053) "pigz"):`) or
py-spy's `dump` (`Thread 8656 (idle): "index-rebuilder"`)."""
_PYSPY_FRAME = re.compile(r' {4}([^\s(]+) \(\S+:\d+\)$')
"""A frame of py-spy's dump: `    rebuild_index (render_service.py:33)`."""
_PYSPY_FRAMES = re.compile(r'\n {4}([^\s(]+) \((\S+):\d+\)(?=\n)')
_GDB_FRAME = re.compile(r'#\d+ +(?:0x[0-9a-f]+ in )?([^\s(]+) \(')
"""A frame of gdb's backtrace, its function in the first group: `#2  0x55c8 in send_all (len=65536) at relay.c:36`."""
_GDB_FRAMES = re.compile(r'\n#\d+ +(?:0x[0-9a-f]+ in )?([^\s(]+) \((?:[^\n]* at (\S+):\d+(?=\n)|[^\n]*)')
"""Every frame of a backtrace, from the line break before it: its function, and the source it is in when told."""
_LIBRARY_SOURCE = ('./', '../', '/usr/', '/build/', '/lib')
"""How the sources of a system library's frames are named (glibc's `./nptl/...`, `../sysdeps/...`): not your code."""
THREAD_STACKS = 4
"""Stacks a backtrace of every thread shows, the ones fewest threads share first."""
OWN_FRAMES = 3
"""Frames in a program's own source shown of each of those stacks, innermost first."""
STACKS_SCAN_CHARS = 256 * 1024
"""Backtraces up to this size are read for their stacks (about a millisecond for 256 KB of `bt full`)."""


def _thread_stacks(view: TextView) -> list[Pick]:
    """In a debugger's backtrace of every thread, each different stack once, the ones fewest threads share first (the
    writer blocked in `write()` before the eight workers all waiting alike): the thread's first line, its innermost
    frame (what it is blocked in) and its innermost frames in the program's own source (where, and why)."""
    if view.total > STACKS_SCAN_CHARS:
        return []
    text, end = view.text, view.end
    headers: list[Span] = []
    place = text.find('\nThread ', 0, end)
    while place != -1:
        span = view.line_at(place + 1)
        if _GDB_THREAD.match(view.content(span)):
            headers.append(span)
        place = text.find('\nThread ', span[1], end)
    if len(headers) < 2:
        return []
    # Each thread's frames, found by one search of the text and told apart by where the threads' first lines are.
    threads: list[tuple[list[Span], list[str], list[tuple[str, Span]]]] = [([], [], []) for _ in headers]
    starts = [header[0] for header in headers]
    frames_of = _GDB_FRAMES if text.find('\n#', headers[0][1], end) != -1 else _PYSPY_FRAMES
    for found in frames_of.finditer(text, headers[0][1], end):
        thread = threads[bisect_right(starts, found.start()) - 1]
        span = (found.start() + 1, found.end())
        thread[0].append(span)
        # gdb's frames vary by their arguments' values; py-spy's say where in the function each thread is (one worker
        # past the lock the others wait on is at another line of the same function).
        thread[1].append(found.group(1) if frames_of is _GDB_FRAMES else found.group(0).strip())
        if found.group(2) is not None and not found.group(2).startswith(_LIBRARY_SOURCE):
            thread[2].append((found.group(1), span))
    stacks: dict[tuple[str, ...], list[tuple[Span, list[Span], list[tuple[str, Span]]]]] = {}  # by functions called
    for header, (frames, functions, own) in zip(headers, threads, strict=True):
        if frames:
            stacks.setdefault(tuple(functions), []).append((header, frames, own))
    shown = sorted(stacks, key=lambda stack: len(stacks[stack]))[:THREAD_STACKS]
    # What a thread is blocked in, and the functions of its own it went through, say something where few of the
    # stacks shown hold them: a `write()` among waits on a condition, `get_space` rather than the lock helper every
    # thread waits in, or the function every thread starts in.
    innermost = Counter(stack[0] for stack in shown)
    held = Counter(function for stack in shown for function in set(stack))
    picks: list[Pick] = []
    for rank, stack in enumerate(shown):
        header, frames, own = stacks[stack][0]
        blocked = [frames[0]] if innermost[stack[0]] == 1 else []
        telling = [span for function, span in own if held[function] == 1 or len(shown) == 1] or [
            span for _, span in own
        ]
        priority = HEADER_PRIORITY - 2.5 - rank * 0.01
        picks.append(Pick(priority, (header, *blocked, *telling[:1]), 'rare'))
        if len(telling) > 1:
            picks.append(Pick(priority - 0.3, tuple(telling[1:OWN_FRAMES]), 'rare'))
    return picks


_JAVA_STATE = '   java.lang.Thread.State: '
"""The line under a thread's first line in a JVM's thread dump (`jstack`, `jcmd Thread.print`, `kill -3`)."""
_JAVA_THREAD = re.compile(r'"[^"\n]*" (?:#\d+ )?[^\n]*\bnid=')
"""A thread's first line in such a dump: `"order-worker-3" #18 prio=5 os_prio=0 ... nid=0x7061 waiting for monitor`."""
_JAVA_LINE = re.compile(
    r'\n(?:\tat ([^\s(]+)\(|\t- (waiting to lock|waiting on|parking to wait for|locked) +<(0x[0-9a-f]+)>)'
)
"""A frame of a thread's stack (its method), or what it waits for or holds (`- waiting to lock <0x...> (a Cache)`)."""
_PLATFORM = ('java.', 'javax.', 'jdk.', 'sun.', 'com.sun.')
"""The packages of the JVM's own classes: a frame in them says how a thread waits, not in whose code."""
JAVA_DUMP_CHARS = 4 * 1024 * 1024
"""Thread dumps up to this size are read for what their threads wait on (thousands of threads)."""
JAVA_GROUPS = 2
"""Groups of threads stuck alike (in the same methods of the program, waiting the same way) shown, the largest first."""
JAVA_LONE = 2
"""Threads in the program's own code, stuck unlike any other (a sleep inside a transaction), shown at most."""
HOLDER_FRAMES = 1
"""The innermost frames shown of the thread holding what others wait for: what it is doing itself (a socket read)."""
_DEADLOCK = 'Found one Java-level deadlock:'
DEADLOCK_LINES = 7
"""Lines of a dump's account of a deadlock shown: its title, then each thread, the monitor it waits for and who holds
it, for the first two threads of the cycle."""
JAVA_LINE = 100
"""Room for a line of a thread dump's digest: a thread's first line to its time alive, a frame, what it waits for."""
STUCK_PRIORITY = 901.0
"""Over the lines a request's words find: asked why a service hangs, the thread holding what the others wait for, and
what they wait in, are the answer."""


class _JavaThread:
    """One thread of a JVM's dump: its first line, the state line under it, its frames (each method and line), how it
    waits (`waiting to lock`), for what (an address) and that line, and what it holds (each address, the line, and
    how many frames are above it)."""

    __slots__ = ('frames', 'header', 'held', 'state', 'waits')

    def __init__(self, header: Span) -> None:
        self.header = header
        self.state: Span | None = None
        self.frames: list[tuple[str, Span]] = []
        self.waits: tuple[str, str, Span] | None = None
        self.held: list[tuple[str, Span, int]] = []

    def own(self) -> list[tuple[str, Span]]:
        return [(method, span) for method, span in self.frames if not method.startswith(_PLATFORM)]


def _java_threads(view: TextView) -> list[Pick]:
    """In a JVM's thread dump, what a reader looks for when a service hangs: the JVM's account of a deadlock; the thread
    holding the monitor others wait to lock (its innermost frame: what it is doing itself; where in the program it
    took the lock); each group of threads stuck alike in the program's code, the largest first (what they wait for,
    and in which of its methods); and a thread stuck in the program's code unlike any other (a sleep while it holds a
    transaction). Threads in the JVM's own code only (its compilers, idle pool threads) say nothing of the program."""
    text, end = view.text, view.end
    if view.total > JAVA_DUMP_CHARS or text.find(_JAVA_STATE, 0, end) == -1:
        return []
    threads: list[_JavaThread] = []
    place = text.find('\n"', 0, end)
    while place != -1:
        span = view.line_at(place + 1)
        if _JAVA_THREAD.match(view.content(span)):
            threads.append(_JavaThread(span))
        place = text.find('\n"', span[1], end)
    if len(threads) < 2:
        return []
    starts = [thread.header[0] for thread in threads]
    for thread in threads:
        below = view.next_line(thread.header)
        if below is not None and view.content(below).startswith(_JAVA_STATE):
            thread.state = below
    # The JVM's account of a deadlock after the threads repeats the stacks of those in it: no thread's own lines.
    deadlock = text.find(_DEADLOCK, threads[0].header[1], end)
    for found in _JAVA_LINE.finditer(text, threads[0].header[1], end if deadlock == -1 else deadlock):
        thread = threads[bisect_right(starts, found.start()) - 1]
        span = view.line_at(found.start() + 1)
        if found.group(1) is not None:
            thread.frames.append((found.group(1), span))
        elif found.group(2) == 'locked':
            thread.held.append((found.group(3), span, len(thread.frames)))
        elif thread.waits is None:
            thread.waits = (found.group(2), found.group(3), span)
    # The program's own code: the package most threads outside the JVM's own code start in (`com.acme`), where a
    # library's frames (a pool's, a driver's) say how it got there.
    entries = Counter('.'.join(own[-1][0].split('.')[:2]) for thread in threads if (own := thread.own()))
    program = entries.most_common(1)[0][0] + '.' if entries else ''
    waiters = Counter(thread.waits[1] for thread in threads if thread.waits is not None and thread.own())
    picks: list[Pick] = []
    shown: set[int] = set()
    # The JVM's own account of a deadlock: which thread waits for the monitor which other holds.
    if deadlock != -1:
        lines: list[Span] = []
        line: Span | None = view.line_at(deadlock)
        while line is not None and len(lines) < DEADLOCK_LINES:
            content = view.content(line)
            if content.startswith('Java stack information'):
                break
            if content.strip() and not is_rule(content):
                lines.append(line)
            line = view.next_line(line)
        picks.append(Pick(STUCK_PRIORITY + 0.6, tuple(lines), 'stuck', limit=JAVA_LINE))
    # The thread holding what most threads wait to lock (not one waiting on it itself: `Object.wait()` lets go of the
    # monitor it is printed as holding).
    for address, count in waiters.most_common():
        if count < 2:
            break
        holder = next(
            (
                (index, thread, (taken, frames))
                for index, thread in enumerate(threads)
                for held, taken, frames in thread.held
                if held == address and (thread.waits is None or thread.waits[1] != address)
            ),
            None,
        )
        if holder is None:
            continue
        index, thread, (taken, frames) = holder
        shown.add(index)
        # The frame printed over the line saying it holds the monitor is the method that took it.
        above = [span for _, span in thread.frames[max(0, frames - 1) : frames]]
        lines = [thread.header, *above, taken]
        picks.append(Pick(STUCK_PRIORITY + 0.5, tuple(sorted(set(lines))), 'stuck', limit=JAVA_LINE))
        inner = [span for _, span in thread.frames[:HOLDER_FRAMES]] + _program_frame(thread, program)
        picks.append(Pick(STUCK_PRIORITY + 0.4, tuple(sorted({thread.header, *inner})), 'stuck', limit=JAVA_LINE))
        break
    # Threads stuck alike: in the same state, through the same methods of the program, waiting the same way.
    groups: dict[tuple[str, ...], list[int]] = {}
    for index, thread in enumerate(threads):
        own = thread.own()
        if not own or index in shown:
            continue
        state = view.content(thread.state).strip() if thread.state is not None else ''
        how = thread.waits[0] if thread.waits is not None else ''
        groups.setdefault((state, how, *(method for method, _ in own[:6])), []).append(index)
    ranked = sorted(groups.values(), key=lambda members: (-len(members), members[0]))
    crowds = [members for members in ranked if len(members) > 1][:JAVA_GROUPS]
    for rank, members in enumerate(crowds):
        thread = threads[members[0]]
        lines = [thread.header]  # its first line says how it waits; the line under it says what for
        if thread.waits is not None:
            waited = thread.waits[2]
            above = [(method, span) for method, span in thread.frames if span[1] < waited[0]][-1:]
            lines += [span for method, span in above if not method.startswith(_PLATFORM)] + [waited]
        lines += _program_frame(thread, program)
        picks.append(Pick(STUCK_PRIORITY + 0.3 - rank * 0.1, tuple(sorted(set(lines))), 'stuck', limit=JAVA_LINE))
    # A thread alone in the program's code, not running there: sleeping or waiting where no other thread is.
    lone: list[_JavaThread] = []
    for members in ranked:
        thread = threads[members[0]]
        if len(members) > 1 or thread.state is None or 'RUNNABLE' in view.content(thread.state):
            continue
        if not thread.frames[0][0].startswith(_IDLE_WAITS):
            lone.append(thread)
    for rank, thread in enumerate(lone[:JAVA_LONE]):
        lines = [thread.header, *_program_frame(thread, program)]
        # After what most threads are stuck on, the one stuck unlike them: where a culprit hides.
        picks.append(Pick(STUCK_PRIORITY + 0.25 - rank * 0.01, tuple(sorted(set(lines))), 'stuck', limit=JAVA_LINE))
    return picks


def _program_frame(thread: _JavaThread, program: str) -> list[Span]:
    """A thread's innermost frame in the program's own code, else in any code but the JVM's: where it is stuck."""
    own = thread.own()
    return [span for method, span in own if method.startswith(program)][:1] or [span for _, span in own[:1]]


_IDLE_WAITS = ('jdk.internal.misc.Unsafe.park', 'java.lang.Object.wait')
"""How a thread waits for work (parked, in `Object.wait()`): alone, such a thread is a pool's or a timer's, idle."""


_DIFFSTAT = re.compile(r' ?\S.*? +\| +(?:(\d+)(?: ([-+]+))?|Bin(?: \d+ -> \d+ bytes)?)$')
"""A line of `git diff --stat`: a path, then its lines changed and their bar (`lib/url.c | 2179 +++---`), or `Bin`."""
_DIFFSTAT_LINE = re.compile(r'\n( ?\S.*? +\| +(\d+)(?: ([-+]+))?)(?=\n)')
DIFFSTAT_LARGEST = 4
"""Files with the most lines changed that a diffstat's digest shows."""
DIFFSTAT_TAKEN = 2
"""Files only taken from (a file removed whole is one) that a diffstat's digest shows, the most taken from first."""


_PLAN_NODE = re.compile(
    r'( *)(?:->  )?(\S.*?)  \(cost=[\d.]+\.\.[\d.]+ rows=\d+ width=\d+\)'
    r' \(actual (?:time=([\d.]+)\.\.([\d.]+) )?rows=[\d.]+ loops=(\d+)\)'
)
"""A node of PostgreSQL's `EXPLAIN ANALYZE` plan: its indent, what it does, and (with timing) its last row's time, which
covers its children, and how many times it ran: `->  Seq Scan on payment p  (cost=0.00..1.50 rows=50 width=8) (actual
time=0.010..0.020 rows=50 loops=1)`."""
_NODE_TIMES = re.compile(r'\(actual time=[\d.]+\.\.([\d.]+) rows=[\d.]+ loops=(\d+)\)$', re.M)
"""A plan node's times at the end of its line (a literal first: the regex engine skips to it)."""
PLAN_SCAN_CHARS = 128 * 1024
"""Plans up to this size (a thousand nodes) have their nodes read for the time each took itself."""
PLAN_SHARE = 0.15
"""Of the lines judged, the share that must be plan nodes (the rest are their details: filters, buffers, keys)."""
PLAN_NODES = 2
"""Plan nodes a plan's digest shows by the time they took themselves, the most first."""
_REMOVED = 'Rows Removed by Filter: '
_EXECUTION = re.compile(r' *Execution Time: ')


def _plan_digest(view: TextView) -> list[Pick]:
    """What a reader of a slow plan looks for: the scan that threw away the most rows reading them (a filter no index
    served) with that count, the nodes that took the most time themselves (a node's time less its children's), and
    the execution's time."""
    picks: list[Pick] = []
    text, end = view.text, view.end
    for line in view.backward((end, end), 8):
        if _EXECUTION.match(view.content(line)):
            picks.append(Pick(HEADER_PRIORITY - 2, (line,), 'summary'))
            break
    if view.total > PLAN_SCAN_CHARS:
        return picks
    nodes: list[tuple[int, float, Span]] = []  # indent, time spent (all its runs), the line
    kinds: list[str] = []  # what each node does (`Seq Scan`, `Bitmap Heap Scan`), without what it does it on
    for found in _NODE_TIMES.finditer(text, 0, end):
        start = text.rfind('\n', 0, found.start()) + 1
        head = text[start : found.start()]
        name = head.lstrip(' ')
        indent = len(head) - len(name)
        name = name.removeprefix('->  ').split('  (cost=', 1)[0]
        nodes.append((indent, float(found.group(1)) * int(found.group(2)), (start, found.end())))
        kinds.append(name.split(' on ', 1)[0].split(' using ', 1)[0])
    # A node's own time: its time less that of the nodes right under it, each found under the nearest node above
    # it indented less (one walk down the plan).
    children = [0.0] * len(nodes)
    above: list[int] = []
    for index, (indent, spent, _) in enumerate(nodes):
        while above and nodes[above[-1]][0] >= indent:
            above.pop()
        if above:
            children[above[-1]] += spent
        above.append(index)
    own = [(spent - children[index], index) for index, (_, spent, _) in enumerate(nodes)]
    removed: list[tuple[int, Span]] = []
    place = text.find(_REMOVED, 0, end)
    while place != -1:
        span = view.line_at(place)
        count = view.content(span)[place - span[0] + len(_REMOVED) :].strip()
        if count.isdigit():
            removed.append((int(count), span))
        place = text.find(_REMOVED, span[1], end)
    starts = [span[0] for _, _, span in nodes]
    shown: set[int] = set()
    for rank, (_, index) in enumerate(heapq.nlargest(PLAN_NODES, own)):
        span = nodes[index][2]
        shown.add(index)
        picks.append(Pick(HEADER_PRIORITY - 3 - rank * 0.01, (span, *_node_removed(nodes, index, removed)), 'rare'))
    if removed:
        count, line = max(removed, key=lambda item: item[0])
        index = bisect_right(starts, line[0]) - 1
        if index >= 0 and index not in shown:
            shown.add(index)
            picks.append(Pick(HEADER_PRIORITY - 2.9, (nodes[index][2], line), 'rare'))
    odd = [index for index in _odd_siblings(nodes, kinds) if index not in shown][:PLAN_ODD]
    picks += [Pick(HEADER_PRIORITY - 2.95 - rank * 0.01, (nodes[index][2],), 'rare') for rank, index in enumerate(odd)]
    return picks


PLAN_ODD = 2
"""Nodes a plan's digest shows for doing otherwise than nearly all their siblings do (one partition scanned whole
where the others are read through an index)."""


def _odd_siblings(nodes: list[tuple[int, float, Span]], kinds: list[str]) -> list[int]:
    """The nodes of a kind few of their siblings are of, where most siblings are of one kind: among the scans of
    thirty partitions under an `Append`, the two `Seq Scan`s. The longest ones first."""
    children: dict[int, list[int]] = {}
    above: list[int] = []  # the nodes the current one sits under, nearest last
    for index, (indent, _, _) in enumerate(nodes):
        while above and nodes[above[-1]][0] >= indent:
            above.pop()
        children.setdefault(above[-1] if above else -1, []).append(index)
        above.append(index)
    odd: list[int] = []
    for siblings in children.values():
        if len(siblings) < RARE_MIN_ROWS:
            continue
        counts = Counter(kinds[index] for index in siblings)
        common = counts.most_common(1)[0][1]
        if common >= (1 - RARE_OTHER_SHARE) * len(siblings):
            odd += [index for index in siblings if counts[kinds[index]] <= max(2, len(siblings) // 10)]
    return sorted(odd, key=lambda index: -nodes[index][1])


def _node_removed(nodes: list[tuple[int, float, Span]], index: int, removed: list[tuple[int, Span]]) -> list[Span]:
    """The `Rows Removed by Filter` line among the details of node `index` (before the next node), if any."""
    start = nodes[index][2][1]
    stop = nodes[index + 1][2][0] if index + 1 < len(nodes) else start + PLAN_DETAIL_CHARS
    return [line for count, line in removed if start < line[0] < stop and count][:1]


PLAN_DETAIL_CHARS = 2_000


ROW_SCAN_CHARS = 160 * 1024
"""Texts up to this size have every row read by the digests that need them all (a diffstat's largest changes, the
outliers of psql's expanded display): a pattern tried at each line costs ~0.4 us a line and Python as much again, about
4 ms at this size; a larger text shows what its other digests find."""


def _diffstat_digest(view: TextView) -> list[Pick]:
    """A diffstat's files renamed (`lib/{a.c => b.c}`), when they are few, the files with the most lines changed,
    and those most taken from without a line added (`-` alone: a file removed whole is one): what a file list kept
    beside the code must follow, and where the change is."""
    if view.total > ROW_SCAN_CHARS:
        return []
    renamed: list[tuple[int, int, int]] = []  # lines changed, where the line starts, where its count does
    removed: list[tuple[int, int, int]] = []
    sizes: list[tuple[int, int, int]] = []
    for hit in _DIFFSTAT_LINE.finditer('\n' + view.text):
        # The text was searched with one character more in front: a line starts where its match does.
        size = (int(hit.group(2)), hit.start(), hit.start(2) - 1)
        sizes.append(size)
        if ' => ' in hit.group(1):
            renamed.append(size)
        elif hit.group(3) is not None and '+' not in hit.group(3):
            removed.append(size)
    # Shown through their count: the bar after it draws what the count says.
    picks = [
        Pick(HEADER_PRIORITY - 2.5 - rank * 0.01, (view.line_at(start),), 'rare', count)
        for rank, (_, start, count) in enumerate(renamed if len(renamed) <= 2 * RARE_ROWS else [])
    ]
    largest = heapq.nlargest(DIFFSTAT_LARGEST, sizes, key=lambda size: (size[0], -size[1]))
    taken = heapq.nlargest(DIFFSTAT_TAKEN, removed, key=lambda size: (size[0], -size[1]))
    picks += [
        Pick(HEADER_PRIORITY - 3 - rank * 0.01, (view.line_at(start),), 'rare', count)
        for rank, (_, start, count) in enumerate([*largest, *taken])
    ]
    return picks


_RECORD_NUMBER = re.compile(r'\n(\w+) *\| (-?\d+(?:\.\d+)?)(?=\n)')
"""A field of psql's expanded display that holds a number: `n_tup_ins           | 64286`."""
_RECORD_NAME = re.compile(r'\w*name *\| ')
RECORD_EXTREMES = 6
"""Values standing out in psql's expanded display that its digest shows, at most two of a record, three of a field."""
OUTLIER_RATIO = 10.0
"""How many times the value three quarters of the records stay under a value must be to stand out. A ratio, not a
table column's fence (`OUTLIER_FENCE`): a display of counters holds zeros in most records, whose middle half then has
no spread to measure by."""


def _record_extremes(view: TextView) -> list[Pick]:
    """In psql's expanded display, the values many times what most records hold in their field (64,286 rows inserted
    into one table where three in four tables saw a dozen), each with its record's name: the records a reader of the
    whole display would stop at. The values standing out the most first."""
    if view.total > ROW_SCAN_CHARS:
        return []
    values: dict[str, list[tuple[float, int]]] = {}
    for hit in _RECORD_NUMBER.finditer(view.text):
        field, value = hit.groups()
        held = values.get(field)
        if held is None:
            held = values[field] = []
        held.append((float(value), hit.start() + 1))
    found: list[tuple[float, int, str]] = []  # how far it stands out, where, its field
    for field, held in values.items():
        if len(held) < RARE_MIN_ROWS:
            continue
        ordered = sorted(value for value, _ in held)
        typical = max(ordered[len(ordered) * 3 // 4], 1.0)
        found += [(value / typical, place, field) for value, place in held if value >= OUTLIER_RATIO * typical]
    found.sort(key=lambda item: (-item[0], item[1]))
    picks: list[Pick] = []
    per_record: Counter[Span] = Counter()
    per_field: Counter[str] = Counter()
    for _, place, field in found[: 8 * RECORD_EXTREMES]:
        line = view.line_at(place)
        name = _record_name(view, line)
        record = name[0] if name else line
        if per_record[record] == 2 or per_field[field] == 3:
            continue
        per_record[record] += 1
        per_field[field] += 1
        picks.append(Pick(HEADER_PRIORITY - 2.5 - len(picks) * 0.01, (*name, line), 'rare'))
        if len(picks) == RECORD_EXTREMES:
            break
    return picks


def _record_name(view: TextView, span: Span) -> list[Span]:
    """The field that names the record `span` is in (`relname | pg_attribute`), above it in psql's expanded display."""
    for line in view.backward(span, _CONTEXT_LINES):
        content = view.content(line)
        if _EXPANDED_RECORD.match(content):
            break
        if _RECORD_NAME.match(content):
            return [line]
    return []


RARE_LEADING_CHARS = 512 * 1024
"""Texts up to this size are searched for lines with another value in a column of few values (one pass a column)."""
RARE_LEADING_SHARE = 0.001
"""A value on at most this share of the lines (or on two) is rare."""


_LABELLED = re.compile(r'(?:fatal )?(?:error|warning|note|remark|info)\b', re.IGNORECASE)
"""A message a compiler labels (`warning: conversion ...`): its errors and warnings are read as such."""
RARE_FINDINGS_CHARS = 256 * 1024
"""Reports up to this size are read whole for their findings' kinds (one regex pass)."""
RARE_FINDING_MIN = 8
"""Findings a report must hold for a kind among them to be rare."""
RARE_FINDINGS_READ = 3
"""Findings the lines read for a shape must hold for a log to be searched whole for its findings' kinds."""
RARE_FINDINGS = 3
"""Findings of a rare kind shown, with the lines that go on from each."""
RARE_FINDINGS_FIRST = 2
"""Findings of a rare kind that rank over the lines a request's words find (`RARE_FINDING_PRIORITY`): asked which of
a report's findings matter, the file it names holds dozens of the usual kind."""
RARE_FINDING_PRIORITY = 900.5
FINDING_LINES = 2
"""Lines indented under a finding shown with it: the rest of its message (the types compared, the contract)."""


def _rare_findings(view: TextView, read: list[Span]) -> list[Pick]:
    """In a checker's output read as a log (Dialyzer's findings, each message going on over indented lines, without
    labels or codes), the first finding of each kind found once or twice among dozens of another (`_rare_kind_places`,
    the kinds told apart as a report's without codes are: `The call ... breaks the contract` and `The pattern ... can
    never match` among forty `Type specification ... is a supertype`), each with the lines going on from it: where a
    real bug stands out of a report's usual noise. A compiler's labelled warnings and errors are read as such."""
    text, end = view.text, view.end
    if view.total > RARE_FINDINGS_CHARS:
        return []
    located = (_PLACED_MESSAGE.match(f'\n{view.content(span)}') for span in read)
    if sum(1 for found in located if found is not None and not _LABELLED.match(found.group(1))) < RARE_FINDINGS_READ:
        return []  # the lines read hold no findings to speak of: the whole text is not searched for them
    messages = _PLACED_MESSAGE.finditer(f'\n{text}', 0, end + 1)
    kinds = _kinds_of(found for found in messages if not _LABELLED.match(found.group(1)))
    picks: list[Pick] = []
    for rank, place in enumerate(_rare_kind_places(kinds)[:RARE_FINDINGS]):
        line = view.line_at(place)
        priority = RARE_FINDING_PRIORITY if rank < RARE_FINDINGS_FIRST else HEADER_PRIORITY - 1.5
        picks.append(Pick(priority - rank * 0.01, (line, *indented_under(view, line, FINDING_LINES)), 'rare'))
    return picks


RARE_FAR_FIELDS = 12
"""A log line's fields read for a column of few values past its first ones (a proxy's status, its flags)."""
RARE_FAR_DOMINANT = 0.8
"""Share of the lines read that must hold a column's commonest value for the others to be exceptions."""
_STATUS_LIKE = re.compile(r'[1-5]\d\d|[^\d\s]+')
"""A value that says how something went: a status code, a word or flags without digits (`----`, `INFO`), not a
time, a size or a count, whose rare values say nothing."""
RARE_FAR_FORM = 0.6
"""Share of the lines read that must hold the same number of fields for the log to have a form of its own."""
RARE_FAR_SHARE = 0.05
"""Lines a value may be on, as a share of those holding the column, and still be rare (a 503 among 200s)."""


def _rare_far_fields(view: TextView, read: list[Span]) -> list[Pick]:
    """In a log of lines of the same fields (a proxy's, a server's access log), the first line of each value found on
    a few lines only in a column past the first fields where most lines hold one value: haproxy's `503` and `504`
    among `200`s, its termination flags `sH--` among `----`. The rarest first, one line each."""
    if view.total > ROW_SCAN_CHARS:
        return []
    rows = [line.split() for span in read if (line := view.content(span))[:1].strip()]
    if len(rows) < RARE_MIN_ROWS:
        return []
    # The lines of the log's own form hold as many fields each (a proxy's request is its last three): others (its
    # notices of servers going down) are other lines.
    width, held = Counter(len(row) for row in rows).most_common(1)[0]
    if width <= RARE_FIELDS + 1 or held < RARE_FAR_FORM * len(rows):
        return []
    usual: dict[int, str] = {}
    for field in range(RARE_FIELDS, min(width - 1, RARE_FAR_FIELDS)):
        values = Counter(row[field] for row in rows if len(row) == width)
        value, count = values.most_common(1)[0]
        if RARE_FAR_DOMINANT * values.total() <= count < values.total() and _STATUS_LIKE.fullmatch(value):
            usual[field] = value
    if not usual:
        return []
    text = view.text
    seen: dict[tuple[int, str], list[int]] = {}
    held = 0
    start = 0
    while start < view.end:
        stop = text.find('\n', start, view.end)
        stop = view.end if stop == -1 else stop
        fields = text[start:stop].split()
        if len(fields) == width and text[start : start + 1].strip():
            held += 1
            for field, value in usual.items():
                if fields[field] != value:
                    seen.setdefault((field, fields[field]), []).append(start)
        start = stop + 1
    rare = sorted((len(places), places[0]) for places in seen.values() if len(places) <= RARE_FAR_SHARE * held)
    chosen: list[int] = []  # a line odd in two columns (a 503 and its flags `SC--`) is one line
    for _, place in rare:
        if len(chosen) == RARE_ROWS:
            break
        if place not in chosen:
            chosen.append(place)
    return [
        Pick(HEADER_PRIORITY - 2.5 - rank * 0.01, (view.line_at(place),), 'rare') for rank, place in enumerate(chosen)
    ]


def _rare_leading(view: TextView, head: list[Span], tail: list[Span], sample: list[Span]) -> list[Pick]:
    """Lines holding a value found on a few lines only in one of their first fields, where the lines hold one of a
    few values there: a symlink, mode `120000`, among a thousand `100644` files in `git ls-tree -r`; `D` among `M`s
    in a status; a file owned by `root` among `postgres`'s in `ls -l`: what a reader scanning the lines would stop
    at. Fields of many values (a log's times, a listing's sizes and names) say nothing by being rare."""
    if view.total > RARE_LEADING_CHARS:
        return []
    # Lines that open with a field (an indented one continues the line above it).
    lines_read = [view.content(span) for span in (*head, *sample, *tail)]
    rows = [line.split(None, RARE_FIELDS) for line in lines_read if line[:1].strip()]
    if len(rows) < RARE_MIN_ROWS:
        return []
    columns: dict[int, set[str]] = {}
    for field in range(RARE_FIELDS):
        # A column: a field most lines read hold with another after it (not a directory's name, nor its total), nearly
        # all of one to three values, not all numbers (a link count, a size). A value on one line read is no column's.
        values = Counter(row[field] for row in rows if len(row) > field + 1 and len(row[field]) <= RARE_FIELD_CHARS)
        held = values.total()
        common = [(value, count) for value, count in values.most_common(3) if count > 1]
        if held < RARE_COLUMN_SHARE * len(rows) or sum(count for _, count in common) < 0.95 * held:
            continue
        if not (field and all(value.isdigit() for value, _ in common)):
            columns[field] = {value for value, _ in common}
    if not columns:
        return []
    # One pass finds the lines that open with the fields of a row and do not hold those values in those columns: the
    # odd ones. Lines of too few fields (a directory's name, its total) are of other kinds. Where many rows read are
    # odd, the columns are not what the rows have in common (a tree's branches): most lines would be found.
    last = max(columns)
    other = sum(
        1 for row in rows if len(row) > last + 1 and any(row[field] not in common for field, common in columns.items())
    )
    if other > RARE_OTHER_SHARE * len(rows):
        return []
    lines = newlines(view.text, 0, view.end) + 1
    most = max(RARE_MIN_ROWS, round(2 * other / len(rows) * lines))
    parts = [
        '(?:' + '|'.join(re.escape(value) for value in sorted(columns[field], key=len, reverse=True)) + ')'
        if field in columns
        else '\\S+'
        for field in range(last + 1)
    ]
    space = '[^\\S\\n]'
    common_row = f'{space}+'.join(parts) + space
    short = f'\\S+(?:{space}+\\S+){{0,{last}}}{space}*(?:\\n|\\Z)'
    texture = re.compile(f'\\n(?=\\S)(?!{common_row}|{short})')
    text = view.text
    counts: dict[int, Counter[str]] = {field: Counter() for field in columns}
    found: list[tuple[int, int, str]] = []  # a line's start, the field, its value
    for hits, hit in enumerate(texture.finditer(text, 0, view.end)):
        if hits >= most:
            return []  # lines of many kinds, more than those read had: none says much by being rare
        start = hit.end()
        fields = text[start : start + RARE_LINE_CHARS].split('\n', 1)[0].split(None, last + 1)
        for field, common in columns.items():
            if len(fields) > field + 1 and (value := fields[field]) not in common and len(value) <= RARE_FIELD_CHARS:
                counts[field][value] += 1
                if counts[field][value] <= RARE_ROWS:
                    found.append((start, field, value))
    low, high = (head[-1][1] if head else 0), (tail[0][0] if tail else view.end)
    chosen: list[tuple[int, int, str]] = []
    for field, seen in counts.items():
        if len(seen) > RARE_FIELD_VALUES:
            continue  # a field of many values the sample did not show: none of them says much by being rare
        odd = rare_values(seen, max(2, int(RARE_LEADING_SHARE * lines)))
        chosen += [place for place in found if place[1] == field and place[2] in odd and low < place[0] < high]
    # The rarest first, among those in the middle: the head and the tail are in a preview's view anyway (the banner a
    # server prints once on starting is not what its requests' lines are read for).
    picked: dict[str, Span] = {}  # a line said twice word for word (an exception logged twice) is shown once
    for start, _, _ in sorted(chosen, key=lambda place: (counts[place[1]][place[2]], place[0])):
        span = view.line_at(start)
        picked.setdefault(view.content(span), span)
        if len(picked) == RARE_ROWS:
            break
    return [
        Pick(HEADER_PRIORITY - 2.5 - rank * 0.01, (span,), 'rare') for rank, span in enumerate(sorted(picked.values()))
    ]


_STATUS_ENTRY = re.compile(r'([A-Z?!+~]{1,2}|[-dcx]) +(?=\S*[/.])\S')
"""An entry a status listing marks with what happened to it: `M src/app.py` (`git status -s`, `svn status`,
`hg status`, `borg create --list`), `?? notes.txt`, `A tools/new.patch`."""
_STATUS_CODES = re.compile(r'\n([A-Z?!+~]{1,2}|[-dcx]) +(?=\S*[/.])\S')
ENTRY_SHARE = 0.8
"""Lines read that must be marked entries for a text to be such a listing."""
CHANGED_SHARE = 0.05
"""At most this share of the entries carry a mark for it to say the entry changed (the rest: unchanged, a folder)."""
CHANGED_ENTRIES = 8
"""Changed entries shown at most, in the listing's order, past those its first and last lines show."""
CHANGED_PRIORITY = 457.4
"""Just under the entries of a listing that are odd in a column of few values (`_rare_leading`, 457.5)."""


def _changed_entries(view: TextView, head: list[Span], tail: list[Span], sample: list[Span]) -> list[Pick]:
    """In a listing that marks each entry with a status (`borg create --list`: `U` unchanged, `d` a folder, `M`
    modified, `A` added), the entries of the marks few entries carry: what changed among a thousand that did not,
    wherever they are; in `git status --short` after a merge that stopped, its conflicts first."""
    if view.total > RARE_LEADING_CHARS:
        return []
    if not _over([view.content(span) for span in head[:8]], _STATUS_ENTRY.match, 0.5):
        return []  # its first lines say whether it is one before the rest read are tried
    lines = [line for span in (*head, *sample) if (line := view.content(span)).strip()]
    if len(lines) < RARE_MIN_ROWS or not _over(lines, _STATUS_ENTRY.match, ENTRY_SHARE):
        return []
    places: dict[str, list[int]] = {}
    for found in _STATUS_CODES.finditer(f'\n{view.text[: view.end]}'):
        places.setdefault(found.group(1), []).append(found.start())
    total = sum(len(held) for held in places.values())
    few = [code for code, held in places.items() if len(held) <= CHANGED_SHARE * total]
    if not few or len(few) == len(places):
        return []  # no mark most entries carry: the listing is all changes (`git status`), none stands out
    low, high = (head[-1][1] if head else 0), (tail[0][0] if tail else view.end)
    # A merge's conflicts (`UU`, `AA`, `UD`: git's unmerged entries) come first however many, those of the rarest
    # mark first (its four `UD` before its fourteen `UU`); then the few entries of the other marks, in order.
    unmerged = [code for code in places if code in _UNMERGED]
    ranked = sorted((len(places[code]), start) for code in unmerged for start in places[code] if low < start < high)
    chosen = [start for _, start in ranked[:CHANGED_ENTRIES]]
    rest = sorted(start for code in few if code not in _UNMERGED for start in places[code] if low < start < high)
    starts = sorted(chosen + rest[: CHANGED_ENTRIES - len(chosen)])
    return [Pick(CHANGED_PRIORITY - rank * 0.01, (view.line_at(start),), 'rare') for rank, start in enumerate(starts)]


_UNMERGED = frozenset(('DD', 'AU', 'UD', 'UA', 'DU', 'AA', 'UU'))
"""The marks `git status --short` gives the entries a merge left in conflict."""


_BLOCK_TITLE = re.compile(r'\n((?:={2,}>?|-{3,}|#{2,}|==>)[ \t]*\w[^\n]*)')
"""A title a command prints over each block of its output: a loop's `echo "=== pid $pid open_fds=$n"`, `head`'s
`==> file <==` over each file, `### INFO` between the parts of a compound command."""
BLOCK_TITLES = 16
"""Titles of a command's blocks shown, at most; more are read for whether they are titles."""
BLOCK_TITLE_PRIORITY = 336.0
"""Where a block's title ranks: under the log's first error, over its plain lines and its errors' other kinds."""


def _block_titles(view: TextView) -> list[Pick]:
    """The titles a command printed over the blocks of its output, in order, where each holds a number: a loop over
    processes says which block is whose and what it counted there (`=== pid 29272 (gateway) open_fds=1024`). Three at
    least, each over lines of its own (not a run of rules); found by one search of the text. Titles that only name
    their blocks (a file each) are an index of them, not what the blocks hold: left to the blocks' own lines."""
    if view.total > LARGEST_SCAN_CHARS:
        return []
    found = itertools.islice(_BLOCK_TITLE.finditer(f'\n{view.text}', 0, view.end + 1), 4 * BLOCK_TITLES)
    # Where each starts in the text: the line break before it is the one put in front.
    titles = [view.line_at(hit.start()) for hit in found]
    if len(titles) < 3 or titles[-1][1] >= view.end:
        return []  # too few, or the last is over nothing
    if any(below[0] == above[1] + 1 for above, below in pairwise(titles)):
        return []  # one right under another: a list of headings, not titles over blocks
    if len({view.content(title) for title in titles}) < len(titles) // 2:
        return []  # the same line over and over: a separator, not a title
    if not all(any(char.isdigit() for char in view.content(title)) for title in titles):
        return []  # titles that only name their blocks (files, steps): an index, not what the blocks found
    return [
        Pick(BLOCK_TITLE_PRIORITY - rank * 0.01, (title,), 'section')
        for rank, title in enumerate(titles[:BLOCK_TITLES])
    ]


_COLUMN_NAMES = re.compile(r'\n[ \t]*([A-Z%][A-Z0-9%/_+.#-]*(?:[ \t]+[A-Z%][A-Z0-9%/_+.#-]*){2,})[ \t]*(?=\n)')
"""A line of column names in capitals (`PORT     STATE SERVICE    VERSION`, `NAME   READY   STATUS`)."""
EMBEDDED_ROWS = 10
"""Rows shown under a table printed in the middle of a log, at most."""
EMBEDDED_TABLES = 2
"""Tables in the middle of a log shown, at most."""
CAPTION_CHARS = 80
"""Characters a line above such a table may hold to be its caption."""
EMBEDDED_TABLE_PRIORITY = 455.0
"""Where such a table ranks: with a table's header, over a log's plain lines."""
EMBEDDED_CANDIDATES = 4 * EMBEDDED_TABLES
"""Lines of column names (of either kind) read for such tables, at most: some head no rows (a title in capitals)."""
RULED_TABLE_PRIORITY = 440.0
"""Where a table found by the rule under its names ranks: over a schema's definitions (a script's query result is what
it was run for), under a header of capitals, which says it is a result more surely."""


def _embedded_tables(view: TextView, head: list[Span], tail: list[Span]) -> list[Pick]:
    """A table a tool prints in the middle of its log (nmap's ports between its probes and its fingerprints, a
    status table among progress lines): its line of column names in capitals, aligned (two blanks apart somewhere),
    and the rows under it to a blank line. What the log was run for, which neither end shows."""
    if view.total > LARGEST_SCAN_CHARS or not head or not tail:
        return []
    low, high = head[-1][1], tail[0][0]
    picks: list[Pick] = []
    headers: list[tuple[Span, tuple[Span, ...]]] = []  # a table's header, and the rule under it
    for found in _COLUMN_NAMES.finditer(f'\n{view.text}', low + 1, high + 1):
        names = found.group(1)
        if '  ' not in names and '\t' not in names:
            continue  # capitals apart by single blanks: a sentence or a title (`LATEST DETECTED DEADLOCK`)
        headers.append((view.line_at(found.start()), ()))
        if len(headers) >= EMBEDDED_CANDIDATES:
            break
    # Or names over a rule of dashes, a stretch a column (a query's result in SQLite's `.mode column`, psql's, MySQL's).
    for found in itertools.islice(_RULE_UNDER_NAMES.finditer(view.text, low, high), EMBEDDED_CANDIDATES):
        rule = view.line_at(found.start() + 1)
        header = view.previous_line(rule)
        if header is not None and view.content(header).strip() and not any(header == seen for seen, _ in headers):
            headers.append((header, (rule,)))
    # Or names in small letters, each two blanks or more from the next, over rows of numbers (yappi's `name  ncall  tsub
    # ttot  tavg` after the program's own output).
    for found in itertools.islice(_ALIGNED_NAMES.finditer(view.text, low, high), EMBEDDED_CANDIDATES):
        header = view.line_at(found.start() + 1)
        below = view.next_line(header)
        if below is not None and _NUMBERED_ROW.search(view.content(below)) and not any(h == header for h, _ in headers):
            headers.append((header, ()))
    for header, ruled in sorted(headers):
        if len(picks) >= 2 * EMBEDDED_TABLES:
            break
        rows: list[Span] = []
        below = view.next_line(ruled[-1] if ruled else header)
        while below is not None and len(rows) < EMBEDDED_ROWS:
            line = view.content(below)
            if not line.strip() or len(line.split()) < 2:
                break
            rows.append(below)
            below = view.next_line(below)
        if len(rows) >= 2:
            # The line right above the names, when short, captions the table (nmap's `Not shown: 2019 closed ports`).
            caption = _caption(view, header)
            priority = (RULED_TABLE_PRIORITY if ruled else EMBEDDED_TABLE_PRIORITY) - len(picks) * 0.01
            picks.append(Pick(priority, (*caption, header, *ruled, *rows), 'header'))
            picks.append(Pick(priority - 0.5, (header, *ruled, *rows[:3]), 'header'))
    return picks


_ALIGNED_NAMES = re.compile(r'\n[ \t]*[a-z][\w.%/#-]*(?: {2,}[A-Za-z%][\w.%/#-]*){3,}[ \t]*(?=\n)')
"""A line of four names or more in small letters, each two blanks or more from the next: a table's column names."""
_NUMBERED_ROW = re.compile(r'(?:^|\s)\d+(?:\.\d+)?(?:\s+\d+(?:\.\d+)?){2,}(?:\s|$)')
"""Three numbers one after another, blanks apart: a row of measures."""
_RULE_UNDER_NAMES = re.compile(r'\n[ \t]*-{2,}(?:(?:[ \t]+|-?\+-?)-{2,}){2,}[ \t]*(?=\n)')
"""A rule of dashes under a table's column names, a stretch a column: `------  ----  ---------` (SQLite's `.mode
column`), `-----+------+-----` (psql's)."""


AGAIN_ROWS = 5
"""Rows shown under a table's column names printed again further on."""
AGAIN_PRIORITY = 459.0
"""Under the table's own names, above its largest and odd rows: the tool's own selection from them."""


def _header_again(view: TextView, shape: Shape, head: list[Span], tail: list[Span]) -> list[Pick]:
    """A table's column names printed once again past its head (lizard's functions over its warning threshold, sorted,
    under the names of the table of all of them): the title above them, the names and the first rows under them. A
    table a tool prints again is a selection from the first; its top is in the middle, where neither end shows it. Two
    searches for the names as a line."""
    if shape.header is None or not head or not tail:
        return []
    names = view.content(shape.header)
    if len(names.strip()) < 8:
        return []
    line = f'\n{names}\n'
    place = view.text.find(line, head[-1][1], tail[0][0])
    if place == -1 or view.text.find(line, place + len(line) - 1) != -1:
        # Printed a third time, the names head every screenful or snapshot (ms_print's, vmstat's): not one selection.
        return []
    header = view.line_at(place + 1)
    rows: list[Span] = []
    below = view.next_line(header)
    while below is not None and len(rows) < AGAIN_ROWS:
        line = view.content(below)
        if not line.strip():
            break
        if not is_rule(line):
            rows.append(below)
        below = view.next_line(below)
    if len(rows) < 2:
        return []
    # Its title: the nearest line above that is no rule (the `=====` a tool frames the names with), when short.
    above = view.previous_line(header)
    if above is not None and is_rule(view.content(above)):
        above = view.previous_line(above)
    title = (above,) if above is not None and 0 < len(view.content(above).strip()) <= 2 * CAPTION_CHARS else ()
    return [Pick(AGAIN_PRIORITY, (*title, header, *rows), 'header')]


def _caption(view: TextView, span: Span) -> tuple[Span, ...]:
    """The line right above a table, when short enough to caption it (nmap's `Not shown: 2019 closed ports`)."""
    above = view.previous_line(span)
    return (above,) if above is not None and 0 < len(view.content(above).strip()) <= CAPTION_CHARS else ()


_BOX_TOP = re.compile('^[ \t]*[\u250c\u256d\u2554\u250f][\u2500\u2501\u2550]', re.MULTILINE)
BOXED_TABLES = 12
"""Tables drawn in boxes read for their column names and first row, at most."""
BOXED_TABLE_PRIORITY = 452.0


def _boxed_tables(view: TextView) -> list[Pick]:
    """Tables drawn in boxes one after another (a script of queries in SQLite's `.mode box`, DuckDB's results): each
    table's column names and its first row, in order, with the short line captioning it. A query's result sorted for a
    report has its answer there (the best country, the top rep), as a table's top rows do; what follows goes by the
    priority of what the request names."""
    if view.total > LARGEST_SCAN_CHARS or view.text.find('\u2502') == -1:
        return []
    picks: list[Pick] = []
    for found in _BOX_TOP.finditer(view.text, 0, view.end):
        top = view.line_at(found.start())
        header = view.next_line(top)
        if header is None or _BOX_BAR not in view.content(header):
            continue
        _, first = _box_rows(view, header)
        if first is None:
            continue
        caption = _caption(view, top)
        rank = len(picks) // 2
        picks.append(Pick(BOXED_TABLE_PRIORITY - rank * 0.01, (header, first), 'header'))
        if caption:
            picks.append(Pick(BOXED_TABLE_PRIORITY - 1 - rank * 0.01, (*caption, header, first), 'header'))
        if len(picks) >= 2 * BOXED_TABLES:
            break
    return picks if len({pick.spans[-1] for pick in picks}) >= 2 else []


def _box_rows(view: TextView, header: Span) -> tuple[list[Span], Span | None]:
    """Under a boxed table's first line of column names: its further lines of names, and its first row (None when
    the table has none)."""
    names: list[Span] = []
    below = view.next_line(header)
    while below is not None and _BOX_BAR in view.content(below) and not is_rule(view.content(below)):
        names.append(below)  # a second line of names (DuckDB's column types)
        below = view.next_line(below)
    first = view.next_line(below) if below is not None and is_rule(view.content(below)) else None
    if first is None or _BOX_BAR not in view.content(first) or is_rule(view.content(first)):
        return names, None
    return names, first


def _box_context(view: TextView, span: Span) -> list[Span]:
    """For a line of a table drawn in boxes among other output: for a row, the table's column names; for the names,
    the table's first row (what they head, and in a sorted result the answer)."""
    line = view.content(span)
    if _BOX_BAR not in line or is_rule(line):
        return []
    above = view.previous_line(span)
    if above is not None and view.content(above).lstrip().startswith(_BOX_TOPS):
        _, first = _box_rows(view, span)
        return [] if first is None else [first]
    top = max(view.text.rfind(corner, 0, span[0]) for corner in _BOX_TOPS)
    if top < 0 or view.text.rfind(_BOX_BOTTOM, top, span[0]) != -1:
        return []  # not inside a box, or past the bottom of the last one
    header = view.next_line(view.line_at(top))
    return [header] if header is not None and header[0] < span[0] and _BOX_BAR in view.content(header) else []


_PAIR = re.compile(r'(?:^| )([A-Za-z_][\w.-]*)=(\S*)')
KEYED_CHARS = 256 * 1024
"""Lines of `key=value` pairs up to this size are searched once for the lines holding a value few lines hold."""
KEYED_PAIRS = 4
"""Pairs a line read must hold for the lines to be records of `key=value` pairs (logfmt, `CLIENT LIST`)."""
KEYED_ROWS_READ = 24
"""Lines read, about, for the keys and their common values (an even spread of the lines read, when more)."""
KEYED_ODD = 2
"""Lines read that may hold another value for a key than all the others do, for that value to stand out."""
KEYED_LOOKED = 48
"""Lines not of the common row looked at, at most: more, and the lines are of too many kinds for one to stand out."""


def _keyed_outliers(view: TextView, read: list[Span]) -> list[Pick]:
    """In lines of `key=value` pairs in one order (Redis's `CLIENT LIST`, a logfmt log), the lines holding another value
    for a key nearly every line gives one value (`omem=15408784` where every client has `omem=0`, `multi=20` where all
    have `multi=-1`), those odd in the most keys first: one search of the text for the lines that are not the common
    row, each shown through its last odd value."""
    if view.total > KEYED_CHARS:
        return []
    read = read[:: max(1, len(read) // KEYED_ROWS_READ)]
    if sum(view.content(span).count('=') for span in read) < KEYED_PAIRS * RARE_COLUMN_SHARE * len(read):
        return []  # one search per line read rules out lines of few pairs, before any is split
    rows = [_PAIR.findall(view.content(span)) for span in read]
    rows = [row for row in rows if len(row) >= KEYED_PAIRS]
    if len(rows) < RARE_MIN_ROWS or len(rows) < RARE_COLUMN_SHARE * len(read):
        return []
    order, count = Counter(tuple(key for key, _ in row) for row in rows).most_common(1)[0]
    if count < RARE_COLUMN_SHARE * len(rows):
        return []  # keys in many orders: no row to hold the lines up to
    values: dict[str, Counter[str]] = {key: Counter() for key in order}
    for row in rows:
        for key, value in row:
            if key in values:
                values[key][value] += 1
    common: dict[str, str] = {}
    for key, seen in values.items():
        value, times = seen.most_common(1)[0]
        if times >= len(rows) - KEYED_ODD:
            common[key] = value
    if not common:
        return []
    fields = [
        f'{re.escape(key)}={re.escape(common[key])}' if key in common else f'{re.escape(key)}=\\S*' for key in order
    ]
    usual = re.compile(' '.join(fields) + '[^\\S\\n]*(?:\\n|\\Z)')
    text, end = view.text, view.end
    lines = newlines(text, 0, end) + 1
    few = max(KEYED_ODD, round(RARE_LEADING_SHARE * lines))  # lines a value may be on and stand out
    starts = [0] if not usual.match(text, 0, end) else []
    for hit in re.finditer(f'\\n(?!{usual.pattern})', text[:end]):
        if len(starts) > KEYED_LOOKED:
            return []  # lines of many kinds: none says much by being odd
        if hit.end() < end:
            starts.append(hit.end())
    # A key found odd on more lines than a few (one whose values the lines read happened to share) says nothing.
    found: list[tuple[int, list[re.Match[str]]]] = []
    for start in starts:
        line = view.content(view.line_at(start))
        pairs = list(_PAIR.finditer(line))
        if len(pairs) >= KEYED_PAIRS:
            found.append((start, [pair for pair in pairs if common.get(pair.group(1), pair.group(2)) != pair.group(2)]))
    spread = Counter(pair.group(1) for _, pairs in found for pair in pairs)
    odd: list[tuple[int, int, int]] = []  # keys odd in the line, where the line starts, where its last odd value is
    for start, pairs in found:
        telling = [pair for pair in pairs if spread[pair.group(1)] <= few]
        if telling:
            odd.append((len(telling), start, start + telling[-1].start(2)))
    odd.sort(key=lambda item: (-item[0], item[1]))
    return [
        Pick(HEADER_PRIORITY - 2.5 - rank * 0.01, (view.line_at(start),), 'rare', focus)
        for rank, (_, start, focus) in enumerate(odd[:RARE_ROWS])
    ]


_SECTION_TITLE = re.compile(r'\n ?\[([A-Z][^\]\n]{1,40})\]:?[^\S\n]*\n|\n={2,} ([^=\n]{2,40})(?: ={2,})?[^\S\n]*\n')
"""A section's title on a line of its own: ` [Summary]:` (V8's profile), `== Slowest ==`, `== top 40 client IPs` (a
script's `echo` over each count it sorts)."""
_MEASURED_ROW_LINE = re.compile(r'\n[^\S\n]*\d[\d.,]*%?[^\S\n]')
"""A line that opens with a measure (`    294   14.9%   libc.so.6`), from the line break before it."""
TITLED_SECTIONS = 6
"""Titled sections whose top rows a report's digest shows, in order."""
TITLED_ROWS = 6
"""Rows of a section shown whole when it has no more (a summary); of a longer one, its first."""


_REPORT_FIELD = re.compile(r' {0,4}[A-Za-z][\w ()/.%#-]{0,48}?[a-z][\w ()/.%#-]{0,48}?: +\S')
"""A field of a run's closing report: `Failed requests:        171`, `Check time:   0.96s`; not a log line's level
(`INFO:     127.0.0.1 - ...`), its key holds a lowercase letter."""
REPORT_REACH = 48
"""Lines above a log's tail searched for the report it closes with."""
REPORT_FIELDS = 10
"""Fields of that report shown, the ones holding a number."""
REPORT_NAMES_SHARE = 0.5
"""Share of a report's fields that must name something of their own (the rest may repeat a name)."""
REPORT_PRIORITY = 440.0


def _final_report(view: TextView, tail: list[Span]) -> list[Pick]:
    """The fields of the report a run closes with, where it begins above the tail (`ab`'s requests failed and per
    second above its latency table, `tsc --extendedDiagnostics`' files and times): the run's own account of itself.
    The block of `Key: value` lines (blank lines between its parts) right above the tail, its fields holding a
    number."""
    if not tail:
        return []
    fields: list[Span] = []
    line = tail[0]
    for _ in range(REPORT_REACH):
        above = view.previous_line(line)
        if above is None:
            break
        line = above
        content = view.content(line)
        if not content.strip() or content.startswith('   ('):
            continue  # a blank between its parts, a field's breakdown under it (`   (Connect: 0, Length: 171)`)
        if not _REPORT_FIELD.match(content):
            break
        fields.append(line)
    numbered = [span for span in reversed(fields) if any(char.isdigit() for char in view.content(span))]
    if len(numbered) < 3:
        return []
    # A report names each field once; a few names on most lines (ssh's `debug1:` to `debug3:`) are a log's levels.
    names = {view.content(span).split(':', 1)[0].strip() for span in fields}
    if len(names) < REPORT_NAMES_SHARE * len(fields):
        return []
    # The report's own fields are those nearest its end (a verbose run's last response headers may sit above them),
    # read together as the report they are; should they not all fit, its last ones may.
    shown = numbered[-REPORT_FIELDS:]
    return [
        Pick(REPORT_PRIORITY, tuple(shown), 'summary'),
        Pick(REPORT_PRIORITY - 0.5, tuple(shown[-REPORT_FIELDS // 2 :]), 'summary'),
    ]


RUN_END_SHARE = 0.6
"""Share of a log's sampled middle lines (its head's, when nothing was sampled) that open with one word (`DEBUG`), for
that word to be the run's."""
RUN_END_AFTER = 2
"""Lines shown after the last line a run's word opens: where the tool's account of itself begins."""
_RUN_WORD = re.compile(r'[A-Za-z][\w-]*:?')
"""A word a log's lines open with for a whole run (a level, a tool's name): not a time, a number or a mark."""


def _run_end(view: TextView, head: list[Span], tail: list[Span], sample: list[Span]) -> list[Pick]:
    """Where a verbose run of lines under one word (`DEBUG`, `TRACE`) stops well above the text's end: the lines after
    it, the first holding a number (`Resolved 69 packages in 8.63s` between uv's resolver trace and the lock it
    writes). The tool's own account of what its trace led to, which the tail, by then another part of the output,
    does not show; the run's last line is one more of its own."""
    if not tail:
        return []
    # The run is read where it is longest, in the middle's sampled lines (the head may open with a banner).
    above = [view.content(span) for span in sample] or [view.content(span) for span in head]
    words = Counter(line.split(' ', 1)[0] for line in above if line[:1].strip())
    if not words:
        return []
    word, count = words.most_common(1)[0]
    if count < RUN_END_SHARE * len(above) or not _RUN_WORD.fullmatch(word):
        return []
    text = view.text
    found = text.rfind(f'\n{word} ', 0, tail[0][0])
    if found < 0:
        return []
    last = view.line_at(found + 1)
    after: list[Span] = []
    below = view.next_line(last)
    while below is not None and below[0] < tail[0][0] and len(after) < RUN_END_AFTER:
        line = view.content(below)
        if line.strip():
            if line.startswith(word) or (not after and not any(char.isdigit() for char in line)):
                return []  # the run goes on under a longer word, or what follows it says no number
            after.append(below)
        below = view.next_line(below)
    if not after:
        return []
    return [Pick(REPORT_PRIORITY - 1, tuple(after), 'summary'), Pick(REPORT_PRIORITY - 1.5, (after[0],), 'summary')]


SORTED_READ = 12
"""Rows at an end read to tell whether the lines are sorted by a measure there."""
SORTED_SHOWN = 8
"""Rows at the end holding the largest values shown, the first few above what a request names."""
SORTED_LEAD = 4
"""Lines at a list's head that may stand over it (a title, the column names) before its sorted rows."""
_NUMBER_FIRST = re.compile(r'\s*\d')
SORTED_SPREAD = 1.5
"""How many times the last of the rows read its largest must be, for the rows to be ranked by a measure."""


def _sorted_ends(view: TextView, head: list[Span], tail: list[Span]) -> list[Pick]:
    """Lines sorted by a measure without a header to say so (`perf report`'s overhead from the largest down, `nm
    --size-sort` or `sort -n` from the smallest up): the end holding the largest values is the answer to "what costs
    the most", kept above what a request names, as a sorted table's top rows are."""
    picks: list[Pick] = []
    for rows in (head, tail[::-1]):
        lines = [span for span in rows if (line := view.content(span)).strip() and not line.startswith('#')]
        lines = lines[:SORTED_READ]
        if len(lines) < SORTED_READ // 2:
            continue
        contents = [view.content(span) for span in lines]
        # A line closing the list (`✓ built in 8.62s` under a build's sizes) or opening it is not of it, nor, at its
        # head, a title and the column names (gprof's `Flat profile:` over its two lines of them).
        # Tried from the first line, the second, and the first opening with a number (past a title and column names).
        bare = next((index for index, line in enumerate(contents[: SORTED_LEAD + 1]) if _NUMBER_FIRST.match(line)), 0)
        leads = (0, 1, bare) if bare > 1 and rows is head else (0, 1)
        lead = next((skip for skip in leads if _sorted_by(contents[skip:], distinct=skip > 0)), None)
        if lead is None or len(contents) - lead < SORTED_READ // 2:
            continue
        above, lines = lines[max(0, lead - 2) : lead], lines[lead:]
        if rows is head and len(above) == 2:
            # Under a title, the two lines above the rows are their column names (`%  cumulative  self`, `time
            # seconds  seconds  calls  name`): they say what the numbers are.
            picks.append(Pick(SORTED_TOP_PRIORITY - 0.5, (*above, lines[0]), 'top'))
        picks += [
            Pick((SORTED_TOP_PRIORITY if rank < SORTED_TOP else HEADER_PRIORITY) - 1 - rank * 0.01, (span,), 'top')
            for rank, span in enumerate(lines[:SORTED_SHOWN])
        ]
    return picks


def _sorted_by(lines: list[str], *, distinct: bool = False) -> bool:
    """Whether, from the first of `lines` on, one of their first fields or their last falls or stays, taking at least
    three values over a range: the lines are sorted by it, the largest first. A field is ruled out at the first line
    that does not hold a number there or holds a larger one (a log's lines, most often, at once), unless a run of
    `SORTED_RUN` lines came before it: the list then ends there."""
    for position in _SORT_FIELDS:
        read = _field_reader(position)
        values: list[float] = []
        part = distinct
        bracketed = False
        for line in lines:
            field = read(line)
            value = _sort_value(field) if field is not None else None
            if value is None or (values and value > values[-1]):
                # The list may end within the lines read (a build's sizes under its `index.html`) after a run of them.
                values = values if len(values) >= SORTED_RUN else []
                part = True
                break
            bracketed = bracketed or (field or '').startswith('[')
            values.append(value)
        # A list sorted by its sizes holds many different ones, where a field that merely repeats or counts up (a log's
        # process ids, `[1970]` four times, read from the end) is a run by chance: told apart where the list is taken
        # from part of the lines read.
        if part and (bracketed or 3 * len(set(values)) <= len(values)):
            continue
        if len(set(values)) >= 3 and values[-1] > 0 and values[0] >= SORTED_SPREAD * values[-1]:
            return True
    return False


SORTED_RUN = 8
"""Lines a sorted list holds at least, when others follow it in the lines read."""


_SORT_FIELDS = (0, 1, 2, 3, -1)
"""Fields a sorted listing may be ranked by: one of its first four (a share, a size, a count), or its last (a score)."""


def _sort_value(field: str) -> float | None:
    """A field's number as a sort reads it: a measure, or a fixed-width hexadecimal (`nm -S`'s sizes)."""
    if len(field) >= 8 and field.startswith('0') and all(char in '0123456789abcdef' for char in field):
        return float(int(field, 16))  # zero-padded to a width: hexadecimal, letters or not (`0000000000000e05`)
    return _measure(field)


SECTION_ROW_REACH = 4 * 1024
"""Characters after a section's title within which its measured rows are looked for."""
SECTION_TOPS_CHARS = 256 * 1024
"""Reports up to this size are searched whole for their titled sections (~1 ms per 512 KB); a profile's is far less."""


def _section_tops(view: TextView, read: list[Span]) -> list[Pick]:
    """In a report of titled sections of measured rows, each sorted from its largest (V8's `--prof-process`: shared
    libraries, JavaScript, C++, a summary), each section's title and first row, and a short section whole: where the
    time goes by each of its accounts. Found by one search for the titles, where the lines read hold one."""
    if view.total > SECTION_TOPS_CHARS or not any(_SECTION_TITLE.match(f'\n{view.content(span)}\n') for span in read):
        return []  # a report shows a title in its first lines or its sample; a log searched whole for none costs
    text, end = view.text, view.end
    titles = [(found.start() + 1, found.end()) for found in _SECTION_TITLE.finditer(text, 0, end)]
    first = view.line_at(0)
    if _SECTION_TITLE.match(f'\n{view.content(first)}\n') is not None:
        titles.insert(0, (0, first[1] + 1))  # the text opens with a title: no line break before it
    sections: list[tuple[Span, list[Span]]] = []
    for index, (start, after) in enumerate(titles[: 2 * TITLED_SECTIONS]):
        # Its measured rows, each found by a search from the last, within the section's first `SECTION_ROW_REACH`
        # characters: a section's rows follow its title and header, and a title of a log's own is no section.
        stop = min(titles[index + 1][0] if index + 1 < len(titles) else end, after + SECTION_ROW_REACH)
        rows: list[Span] = []
        place = after - 1
        while len(rows) <= TITLED_ROWS and (found := _MEASURED_ROW_LINE.search(text, place, stop)) is not None:
            rows.append(view.line_at(found.start() + 1))
            place = rows[-1][1]
        if rows:
            sections.append((view.line_at(start), rows))
    if len(sections) < 3:
        return []
    # A section titled as the summary accounts for all the others: first.
    sections.sort(key=lambda section: 'summary' not in view.content(section[0]).lower())
    picks: list[Pick] = []
    for rank, (title, rows) in enumerate(sections[:TITLED_SECTIONS]):
        priority = HEADER_PRIORITY - 3.5 - rank * 0.01
        picks.append(Pick(priority, (title, rows[0]), 'rare'))
        if len(rows) <= TITLED_ROWS:
            picks.append(Pick(priority - 1, (title, *rows), 'rare'))
        else:
            picks.append(Pick(priority - 1, (title, *rows[:2]), 'rare'))  # its runner-up, once every top is in
    return picks


RARE_FIELDS = 4
"""A line's first fields looked at for a rare value: a mode, links, an owner and a group; a status; a level."""
RARE_FIELD_CHARS = 32
RARE_COLUMN_SHARE = 0.75
"""Lines read that must hold a field (with another after it) for it to be a column."""
RARE_LINE_CHARS = 4 * (RARE_FIELD_CHARS + 8)
"""Characters of an odd line read for its first fields."""
RARE_FIELD_VALUES = 16
"""Values of a field besides those the sampled lines hold there, at most: more, and its values are not a few."""
RARE_OTHER_SHARE = 0.25
"""Lines read that open otherwise than with the common values of the columns, at most: more, and the lines are of too
many kinds for one to stand out; twice their share of the text's lines are looked at, at most."""


MEASURED_TREE_PRIORITY = 330.0
"""Unasked, a call tree's splits rank with other shapes' digests, not above what a request names."""


def _measured_tree(view: TextView, sample: list[Span]) -> bool:
    """Whether most sampled nodes of a tree open with a measure (a profiler's `├─ 0.243 process  tokens.py:18`)."""
    nodes = [line for span in sample if _tree_depth(line := view.content(span)) >= 0]
    measured = sum(1 for node in nodes if _MEASURED_NODE.match(node))
    return len(nodes) >= 3 and measured >= MEASURED_SHARE * len(nodes)


_SIZED = re.compile(r'\s*(\d+(?:\.\d+)?)([KMGTP]?)i?B?\t')
"""A listing row that opens with its size and a tab (`du -ah`, `du -sh *`): `4.5M\tmatplotlib/__pycache__`."""
_UNITS = {'': 1, 'K': 2**10, 'M': 2**20, 'G': 2**30, 'T': 2**40, 'P': 2**50}
SIZED_TOP = 8
"""Largest rows of a listing sorted by size kept above what a request names: the answer to "what takes the space"."""


_SEARCH_HIT = re.compile(r'[^\s:]*[/.][^\s:]*:\d+[:-]')
"""A line of a search's results: a file (a path, or a name with its extension), a line number, then `:` before what
matched (`-` before a line of context): `alembic/ddl/impl.py:626:    def compare_server_default(`."""
_SEARCH_LINE = re.compile(r'^([^\s:]*[/.][^\s:]*):\d+:', re.MULTILINE)
_SEARCH_DEFINITION = re.compile(
    r'^[^\s:]*[/.][^\s:]*:\d+:[ \t]*(?:export[ \t]+)?(?:pub(?:\([\w:]+\))?[ \t]+)?(?:async[ \t]+)?'
    r'(?:def|class|function|fn|func|struct|interface|type|enum|trait|impl)[ \t]+(\w+)',
    re.MULTILINE,
)
"""A matched line that defines what it names (`def`, `class`, `function`, `fn`, `func`, `struct` ...)."""
SEARCH_DIGEST_CHARS = 256 * 1024
"""Search results up to this size are read whole for where their matches are defined and which files hold most."""
SEARCH_DEFINITIONS = 4
"""Matched lines that define a name shown, at most."""
SEARCH_DEFINITIONS_READ = 256
"""Matched lines that define a name read for those defining the name searched for."""
_NAME = re.compile(r'[A-Za-z_]\w{2,}')
SEARCH_FILES = 6
"""Files holding the most matches whose first match is shown."""
SEARCH_DEFINITION_PRIORITY = 445.0
"""Where a definition among search results ranks: over the files holding most matches and the plain ends."""
SEARCH_FILE_PRIORITY = 430.0
"""Where the first match of a file holding many ranks: over the results' plain ends, under their definitions."""


def _search_digest(view: TextView) -> list[Pick]:
    """Search results (`grep -rn`, `git grep -n`, `rg -n`): the matches that define what they name (where a symbol
    searched for is defined, not each place it is used), then the first match in each of the files holding the most."""
    if view.total > SEARCH_DIGEST_CHARS:
        return []
    text, end = view.text, view.end
    # The name searched for is on every line, so on the first, the middle and the last: its definitions come first
    # (`class TextView:`, not the functions taking one), then the others in order.
    read = [view.line_at(0), view.line_at(end // 2), view.line_at(max(0, end - 1))]
    names: list[set[str]] = [set(_NAME.findall(view.content(line).split(':', 2)[-1])) for line in read]
    searched = names[0].intersection(*names[1:])
    found = list(itertools.islice(_SEARCH_DEFINITION.finditer(text, 0, end), SEARCH_DEFINITIONS_READ))
    found.sort(key=lambda match: match.group(1) not in searched)  # stable: in order otherwise
    picks = [
        Pick(SEARCH_DEFINITION_PRIORITY - rank * 0.01, (view.line_at(match.start()),), 'definition')
        for rank, match in enumerate(found[:SEARCH_DEFINITIONS])
    ]
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for hit in _SEARCH_LINE.finditer(text, 0, end):
        path = hit.group(1)
        counts[path] += 1
        first.setdefault(path, hit.start())
    if len(counts) > 1:
        picks += [
            Pick(SEARCH_FILE_PRIORITY - rank * 0.01, (view.line_at(first[path]),), 'file')
            for rank, (path, _) in enumerate(counts.most_common(SEARCH_FILES))
        ]
    return picks


_ENTRY_SIZE = re.compile(r' (\d+) (?:\d{4}-\d\d-\d\d |[A-Z][a-z]{2} [ \d]\d )')
"""A listed file's size, right before its date: `ls -l`'s `117308864 Jan  3  2023`, `tar -tv`'s `695 2026-12-02`."""
LARGEST_ENTRIES = 3
"""A listing's largest files shown, when they stand out."""
LARGEST_ENTRY_CHARS = 384 * 1024
"""Listings up to this size are read whole for their largest files (one search, ~2 ms per 256 KB here)."""
STANDS_OUT = 10
"""How many times the median file a listing's largest must be for its size to say something."""
LARGEST_ENTRY_PRIORITY = 440.0
"""Where a listing's largest files rank: over its plain rows, under what the request names."""


def _largest_entries(view: TextView) -> list[Pick]:
    """A long listing's (`ls -l`, `tar -tv`) largest files, where they stand out among the rest: what takes the space
    in a backup grown too large, a core file among the sources."""
    if view.total > LARGEST_ENTRY_CHARS:
        return []
    sizes = [(int(found.group(1)), found.start()) for found in _ENTRY_SIZE.finditer(view.text, 0, view.end)]
    if len(sizes) < 2 * LARGEST_ENTRIES:
        return []
    median = sorted(size for size, _ in sizes)[len(sizes) // 2]
    largest = heapq.nlargest(LARGEST_ENTRIES, sizes)
    chosen = [start for size, start in largest if size >= STANDS_OUT * max(median, 1)]
    return [
        Pick(LARGEST_ENTRY_PRIORITY - rank * 0.01, (*_directory_of(view, span), span), 'top')
        for rank, start in enumerate(chosen)
        for span in (view.line_at(start),)
    ]


def _size(line: str) -> float | None:
    found = _SIZED.match(line)
    return float(found.group(1)) * _UNITS[found.group(2)] if found else None


def _sized_digest(view: TextView, head: list[Span], tail: list[Span]) -> list[Pick]:
    """A listing of sizes sorted by size (`du -ah | sort -h`, or `-hr`): its largest rows, at whichever end."""
    top = [(span, size) for span in head if (size := _size(view.content(span))) is not None]
    bottom = [(span, size) for span in tail if (size := _size(view.content(span))) is not None]
    first = [size for _, size in top]
    last = [size for _, size in bottom]
    if not first or len(first) < 0.8 * len(head) or len(last) < 0.8 * len(tail) or len(last) < 4:
        return []
    if last == sorted(last) and last[-1] > max(first):
        rows = [span for span, _ in reversed(bottom)]
    elif first == sorted(first, reverse=True) and first[0] > max(last):
        rows = [span for span, _ in top]
    else:
        return []
    return [Pick(SORTED_TOP_PRIORITY - 1 - index * 0.01, (span,), 'top') for index, span in enumerate(rows[:SIZED_TOP])]


_JSON_SCALAR = re.compile(r'( {0,8}|\t{0,2})"[^"]{1,60}": *(?:-?\d[\d.eE+-]*|true|false|null|"[^"]{0,80}"),?\s*$')


def _json_digest(view: TextView, head: list[Span], tail: list[Span]) -> list[Pick]:
    """A JSON document's top-level fields near its ends: versions and counts, the summary a report closes with."""
    picks: list[Pick] = []
    # The fields of the document and of the objects its keys hold (a `"summary": {...}`), not those of the records
    # of a list: the last records' fields are no summary, nor are the first records' what the document says.
    for index, span in enumerate(reversed(tail)):
        if _JSON_SCALAR.match(view.content(span)) and not _in_listed_record(view, span):
            picks.append(Pick(450 - index * 0.01, (span,), 'summary'))
    for index, span in enumerate(head[:12]):
        if _JSON_SCALAR.match(view.content(span)) and not _in_listed_record(view, span):
            picks.append(Pick(445 - index * 0.01, (span,), 'field'))
    # A list of objects is read by what each one is: its name (and the version beside it), one line a record.
    for index, found in enumerate(_NAME_FIELD.finditer(view.text, 0, min(view.total, NAME_SCAN_CHARS))):
        if index >= NAMED_RECORDS:
            break
        span = view.line_at(found.start() + 1)
        beside = view.next_line(span)
        spans = (span, beside) if beside is not None and _VERSION_FIELD.match(view.content(beside)) else (span,)
        picks.append(Pick(455 - index * 0.01, spans, 'record'))
    # The last record, too: a list sorted by something ends with its other extreme (the least, the oldest).
    named = sum(1 for pick in picks if pick.role == 'record')
    if named >= NAMED_RECORDS and (last := _last_name(view)) is not None:
        picks.append(Pick(455 - 0.005, (last,), 'record'))
    return picks + _gravest_json(view) + _json_errors(view)


LAST_NAME_CHARS = 16 * 1024
"""The stretch at the end of a JSON list searched for its last record's name."""


def _last_name(view: TextView) -> Span | None:
    """The naming field of a JSON list's last record, from a search of the list's last `LAST_NAME_CHARS`."""
    floor = max(0, view.end - LAST_NAME_CHARS)
    last = deque(_NAME_FIELD.finditer(view.text, floor, view.end), maxlen=1)
    return view.line_at(last[0].start() + 1) if last else None


_JSON_ERROR = re.compile(r'\n[ \t]*"(?:error|errors|reason|detail|failure)"[ \t]*:[ \t]*"([^"\n]*)')
"""A record's error as an API states it: `"error": "version conflict: expected_version=4 ..."`."""
JSON_ERROR_KINDS = 5
"""Kinds of error a JSON document's records state shown, the first of each, rarest kind first."""
JSON_ERRORS_READ = 400
"""Error fields read for their kinds, at most."""


def _json_errors(view: TextView) -> list[Pick]:
    """The errors a JSON document's records state (a bulk API's rejected rows), the first of each kind, rarest kind
    first, as a checker's first finding of each code: the one `unknown warehouse 'FRA1'` among twenty-seven version
    conflicts. Kinds are told apart by their words (see `_message_kind`); one search of the text."""
    if view.total > LARGEST_SCAN_CHARS:
        return []
    kinds = _kinds_of(itertools.islice(_JSON_ERROR.finditer(f'\n{view.text}', 0, view.end + 1), JSON_ERRORS_READ))
    ordered = sorted(kinds.values())[:JSON_ERROR_KINDS]
    return [
        Pick(REPORT_PRIORITY - rank * 0.01, (view.line_at(start),), 'error') for rank, (_, start) in enumerate(ordered)
    ]


def _in_listed_record(view: TextView, span: Span) -> bool:
    """Whether a field of an indented JSON document belongs to an object that is an element of a list (its opening
    brace alone on its line), as the fields of a report's records do."""
    line = view.content(span)
    indent = len(line) - len(line.lstrip())
    for before in view.backward(span, _RECORD_REACH):
        above = view.content(before)
        stripped = above.lstrip()
        if stripped and len(above) - len(stripped) < indent:
            return stripped.rstrip() == '{'
    return False


_RECORD_REACH = 40
_JSON_SEVERITY = re.compile(r'\n( +)"(?:type|severity|level|issue_severity|category)": "([A-Za-z]+)",?(?=\n)')
"""A JSON record's severity, on a line of its own: pylint's `"type": "error"`, semgrep's `"severity": "ERROR"`."""
_GRAVE = frozenset(('error', 'fatal', 'critical', 'high'))
_TELLING_FIELD = re.compile(
    r' +"(?:message|msg|symbol|message-id|code|rule|ruleId|check_id|test_id|path|file|filename|line)":'
)
"""The fields of a finding that say what it is and where."""
_WHAT_FIELD = re.compile(r' +"(?:symbol|message-id|code|rule|ruleId|check_id|test_id)": "([^"\n]*)"')


def json_findings(view: TextView) -> int:
    """How many findings a JSON report holds: its records' severities (0 beyond the size counted in full)."""
    if view.total > CENSUS_CHARS:
        return 0
    return sum(1 for _ in _JSON_SEVERITY.finditer(view.text, 0, view.end))


def _gravest_json(view: TextView) -> list[Pick]:
    """In a JSON report of findings whose errors are fewer than its other findings (28 of pylint's 314), the first
    error of each kind (its rule, else its message), by the fields that say what it is and where: what fails a
    check, before what style it nags about."""
    if view.total > CENSUS_CHARS:
        return []
    found = list(_JSON_SEVERITY.finditer(view.text, 0, view.end))
    grave = [hit for hit in found if hit.group(2).lower() in _GRAVE]
    if not grave or len(grave) > ERRORS_SHARE * len(found):
        return []
    picks: list[Pick] = []
    kinds: set[str] = set()
    for hit in grave:
        line = view.line_at(hit.start() + 1)
        fields = [span for span in (line, *_json_siblings(view, line)) if _TELLING_FIELD.match(view.content(span))]
        what = next((found.group(1) for span in fields if (found := _WHAT_FIELD.match(view.content(span)))), None)
        kind = (
            what
            if what is not None
            else next((view.content(span) for span in fields if '"message' in view.content(span)), '')
        )
        if kind in kinds:
            continue
        kinds.add(kind)
        picks.append(Pick(GRAVEST_PRIORITY - len(picks) * 0.01, (line, *sorted(fields)), 'error'))
        if len(picks) == FIRST_ERRORS:
            break
    return picks


_NAME_FIELD = re.compile(r'\n +"(?:name|id|package|title)": "[^"\n]{1,80}",?(?=\n)')
"""A record's naming field on a line of its own, from the line break before it (see `_BLOCK_TOTAL`)."""
_VERSION_FIELD = re.compile(r' +"version": ')
NAME_SCAN_CHARS = 256 * 1024
NAMED_RECORDS = 24


HEADER_PRIORITY = 460.0
SORTED_TOP_PRIORITY = 950.0
SORTED_TOP = 3
TOP_ROWS = 12


BURST_RATIO = 20.0
"""How many times its column's median a value must be to be a burst (a disk's writes during a backup)."""
BURST_COLUMNS = 2
"""Columns whose burst is shown, those bursting the most."""
BURST_PRIORITY = 445.0
"""Under a table's header and top rows, above its plain rows."""
BURST_ROWS_READ = 200
"""Rows read to tell which columns hold numbers."""
BURST_SCAN_CHARS = 64 * 1024
"""Tables of samples up to this size (`vmstat 1` over ten minutes) have every cell of their numeric columns read for a
burst (~1 ms at this size); a larger table is more often data than samples."""


def _column_bursts(view: TextView, shape: Shape) -> list[Pick]:
    """In a table of samples (`vmstat 1`, `iostat`), the row where a column's value is many times its median (block
    writes a thousand times their usual), with the rows before and after it: when the burst came, how high
    it went, and how it ended."""
    if shape.header is None or view.total > BURST_SCAN_CHARS:
        return []
    floor = shape.header[1] + 1
    rows, starts = _rows_from(view, floor)
    cells = _cells(view, floor, shape.delimiter)
    read = [fields for fields in cells[:BURST_ROWS_READ] if fields]
    # The rows of the commonest width: a sampler prints its column names again every screenful (vmstat's).
    width = Counter(len(fields) for fields in read).most_common(1)[0][0] if read else 0
    numeric = _numeric_columns([fields for fields in read if len(fields) == width])
    bursts: list[tuple[float, int]] = []
    for column in numeric:
        numbers = _cell_numbers(view, floor, shape.delimiter, column)
        values = [value if len(fields) == width else None for value, fields in zip(numbers, cells, strict=True)]
        present = sorted(value for value in values if value is not None)
        if len(present) < RARE_MIN_ROWS:
            continue
        typical, peak = present[len(present) // 2], present[-1]
        if typical > 0 and peak >= BURST_RATIO * typical:
            bursts.append((peak / typical, values.index(peak)))
    picks: list[Pick] = []
    taken: set[int] = set()
    for rank, (_, index) in enumerate(sorted(bursts, reverse=True)[:BURST_COLUMNS]):
        around = [row for row in range(index - 1, index + 2) if 0 <= row < len(rows) and rows[row].strip()]
        if index in taken:
            continue
        taken.update(around)
        spans = tuple(view.line_at(starts[row]) for row in around)
        if not rank:  # the greatest burst with the rows around it; another column's, its row alone, under it
            picks.append(Pick(BURST_PRIORITY, spans, 'rare'))
        picks.append(Pick(BURST_PRIORITY - 0.01 - rank * 0.01, (view.line_at(starts[index]),), 'rare'))
    return picks


STEP_RUN_SHARE = 0.3
"""Share of a series' samples a column must hold one value for, in one run, for where the run begins or ends to be a
step worth showing (the full collections' count leaving 0; the keys' count stopping at a memory limit)."""
STEP_COLUMNS = 3
"""Steps shown at most, those of the longest runs first."""
STEP_PRIORITY = HEADER_PRIORITY - 1.6
"""Under a table's header (and a stall), above its rare rows: a series is read for when its counts moved."""


def _column_steps(view: TextView, shape: Shape) -> list[Pick]:
    """In a table of samples over time (`jstat -gc -t`, a monitor's rows under a clock), where a numeric column's long
    run of one value begins or ends (`FGC` leaving 0: the first full collection; a key count that stops growing: a
    memory limit reached): the row before the change and the row of it, when it happened and what the other columns
    did then."""
    if shape.header is None or view.total > BURST_SCAN_CHARS:
        return []
    floor = shape.header[1] + 1
    rows, starts = _rows_from(view, floor)
    cells = _cells(view, floor, shape.delimiter)
    width = Counter(len(fields) for fields in cells if fields).most_common(1)[0][0] if rows else 0
    # The rows of the commonest width, but for the column names a monitor prints again over them (`jstat -h40`).
    names = view.content(shape.header).strip()
    full = [index for index, fields in enumerate(cells) if len(fields) == width and rows[index].strip() != names]
    if len(full) < RARE_MIN_ROWS:
        return []
    numbers = (_cell_numbers(view, floor, shape.delimiter, column) for column in range(width))
    columns = [[values[index] for index in full] for values in numbers]
    # Samples over time: some column (a clock, a count) never goes down and takes many values.
    if not any(_rising(values) for values in columns):
        return []
    # (whether a count leaves zero, the run's length, the sample before the change, the sample of it)
    steps: list[tuple[bool, int, int, int]] = []
    for values in columns:
        held = [(sample, value) for sample, value in enumerate(values) if value is not None]
        if len(held) < COUNTER_SHARE * len(values):
            continue
        runs = [list(run) for _, run in itertools.groupby(held, key=operator.itemgetter(1))]
        for before, run, after in zip([None, *runs[:-1]], runs, [*runs[1:], None], strict=True):
            if len(run) < STEP_RUN_SHARE * len(held):
                continue
            if before is not None:
                steps.append((False, len(run), before[-1][0], run[0][0]))  # where the run began
            if after is not None:
                # Where it ended; a count leaving zero first: the first time something happened (a full collection).
                steps.append((run[0][1] == 0, len(run), run[-1][0], after[0][0]))
    picks: list[Pick] = []
    taken: set[int] = set()
    for _, _, previous, sample in sorted(steps, key=lambda step: (not step[0], -step[1], step[3])):
        if sample in taken or len(picks) == STEP_COLUMNS:
            continue
        taken.add(sample)
        spans = (view.line_at(starts[full[previous]]), view.line_at(starts[full[sample]]))
        picks.append(Pick(STEP_PRIORITY - len(picks) * 0.01, spans, 'step'))
    return picks


def _rising(values: list[float | None]) -> bool:
    """Whether `values` never go down and mostly differ: a clock's or a running count's."""
    present = [value for value in values if value is not None]
    return (
        len(present) >= RARE_MIN_ROWS
        and len(set(present)) * 2 > len(present)
        and all(later >= earlier for earlier, later in pairwise(present))
    )


_SERIES_KIND = re.compile(
    r'[ \t]*(\[[A-Za-z][^\]\n]{0,11}\]|[A-Za-z][\w -]{0,30}?:(?=[ \t])|[A-Za-z][\w-]{1,30}(?=[ \t]))'
)
"""What a line of a series of samples opens with, naming what it measures: `progress:`, `[SUM]`, `Throughput`."""
_SERIES_NUMBER = re.compile(r'(?<![\w.])\d+(?:\.\d+)?(?![\w.])')
SERIES_SHARE = 0.1
"""Share of the lines read that must open the same way for them to be read as a series of samples (a total's among
the lines of each stream it sums)."""
SERIES_KINDS = 2
"""Ways lines open, the commonest first, read as series."""
STALL_ACTIVE = 0.8
"""Share of a series' samples in which a measure must be above zero for a run of zeros in it to be a stall."""
STALL_PRIORITY = HEADER_PRIORITY - 1.5
"""Under a table's header, above its largest rows and its bursts: a stall is what a run's samples are read for."""


def _stalls(view: TextView, read: list[Span]) -> list[Pick]:
    """In a series of samples a tool prints as it runs (`pgbench -P 1`'s `progress:` lines, `iperf3`'s `[SUM]`
    intervals), where a measure that is above zero in nearly every sample drops to zero for several in a row: the
    sample before, the first and the last at zero, and the one after. When the work stalled, for how long, and how it
    came back; one search of the text for the series' lines."""
    if view.total > ROW_SCAN_CHARS:
        return []
    opened: dict[str, list[str]] = {}  # per way the lines read open, what follows
    for span in read:
        content = view.content(span)
        if found := _SERIES_KIND.match(content):
            opened.setdefault(found.group(1), []).append(content[found.end() :])
    picks: list[Pick] = []
    for kind, rests in sorted(opened.items(), key=lambda item: -len(item[1]))[:SERIES_KINDS]:
        if len(rests) >= max(3, SERIES_SHARE * len(read)) and _clocked(rests):
            picks += _stall_in(view, kind)
    return picks[:1]


def _clocked(rests: list[str]) -> bool:
    """Whether lines read of one kind open with a clock, their first numbers rising from one to the next (a sample's
    time or interval), as a listing's do not (`lsof`'s process id, the same on each of its files): only then is the
    whole text searched for them."""
    firsts = [float(found.group()) for rest in rests if (found := _SERIES_NUMBER.search(rest))]
    rising = sum(1 for earlier, later in pairwise(firsts) if later > earlier)
    return len(firsts) >= 3 and rising >= STALL_ACTIVE * (len(firsts) - 1)


def _stall_in(view: TextView, kind: str) -> list[Pick]:
    """`_stalls` in the series of lines opening with `kind`."""
    series: list[tuple[int, list[float]]] = []  # where each sample's line starts, and its numbers
    # From the line break before each (a literal the engine skips to; `^` under MULTILINE is tried at every character).
    for found in re.finditer(f'\\n[ \\t]*{re.escape(kind)}([^\\n]*)', view.text):
        numbers = _SERIES_NUMBER.findall(found.group(1))
        if len(numbers) >= 2:
            series.append((found.start() + 1, [float(number) for number in numbers]))
    width = Counter(len(numbers) for _, numbers in series).most_common(1)[0][0] if series else 0
    samples = [(start, numbers) for start, numbers in series if len(numbers) == width]
    # Samples are taken in order: their first number (the time, the interval) does not go back. Where it does, they
    # ended (a total over the whole run, `[SUM] 0.00-30.00`, follows) or they were never samples (versions in a list).
    ordered = next((index + 1 for index, (a, b) in enumerate(pairwise(samples)) if b[1][0] < a[1][0]), len(samples))
    samples = samples[:ordered]
    if len(samples) < RARE_MIN_ROWS:
        return []
    best: tuple[int, int] = (0, 0)  # the longest run of zeros after a sample above zero: its first and last sample
    for field in range(width):
        values = [numbers[field] for _, numbers in samples]
        if sum(1 for value in values if value > 0) < STALL_ACTIVE * len(values):
            continue
        index = 1
        while index < len(values):
            if values[index] == 0 and values[index - 1] > 0:
                end = index
                while end + 1 < len(values) and values[end + 1] == 0:
                    end += 1
                if end > index and end - index > best[1] - best[0]:
                    best = (index, end)
                index = end
            index += 1
    first, last = best
    if not last:
        return []
    around = sorted({first - 1, first, last, min(last + 1, len(samples) - 1)})
    return [Pick(STALL_PRIORITY, tuple(view.line_at(samples[index][0]) for index in around), 'rare')]


def _table_digest(view: TextView, shape: Shape, head: list[Span]) -> list[Pick]:
    if shape.header is None:
        return []
    # The rule under a header (----+----) says nothing a reader needs: the header and what stands above it do.
    above = tuple(span for span in shape.header_extra if not is_rule(view.content(span)))
    picks = [Pick(HEADER_PRIORITY, (*above, shape.header), 'header')]
    rows = [span for span in head if span[0] > shape.header[1] and view.content(span).strip()]
    rows = [span for span in rows if span not in shape.header_extra]
    if shape.sorted_rows:
        # A sorted table's point is its top: the rows right under the header, the first few with the header
        # above even the lines a request names (its order is the answer to "which costs the most").
        picks[0] = Pick(SORTED_TOP_PRIORITY, picks[0].spans, 'header')
        picks.extend(
            Pick((SORTED_TOP_PRIORITY if index < SORTED_TOP else HEADER_PRIORITY) - 1 - index * 0.01, (span,), 'top')
            for index, span in enumerate(rows[:TOP_ROWS])
        )
    elif shape.numeric_column >= 0:
        picks.extend(_largest_rows(view, shape))
    table = _columns(view, shape)  # read once for both
    if table is not None:
        picks.extend(_rare_rows(view, table))
        if view.total <= OUTLIER_CHARS:
            picks.extend(_outlier_rows(view, shape, table))
    return picks


RARE_MIN_ROWS = 20
"""Rows a table needs before a value in it can be told rare."""
RARE_DISTINCT = 0.05
"""A column of few values (at most this share of the rows, or three): a status, a kind, a shift in minutes."""
RARE_ROWS = 4
"""Rows holding a rare value of such a column that a table's digest keeps: most often what is odd in it."""
ALIGNED_SAMPLE = 200
"""Rows of a column-aligned table read to find where its columns part."""


def rare_values(counts: Counter[str], rare: int) -> set[str]:
    """The values `counts` holds at most `rare` times, or none when they are on more than `2 * RARE_ROWS` lines
    together: many odd lines are a text's texture, not its exceptions."""
    odd = {value for value, count in counts.items() if count <= rare}
    return odd if sum(counts[value] for value in odd) <= 2 * RARE_ROWS else set[str]()


class _Columns(NamedTuple):
    """A table's rows read by column: each row with where it starts, the cells of a column of some rows, where a
    row's cell of a column starts, and how many columns the rows have."""

    rows: list[tuple[str, int]]
    cells: Callable[[list[str], int], list[str]]
    cell_start: Callable[[str, int], int]
    width: int
    reach: Callable[[int], str]
    """A pattern for what stands before a column's cell in a row, from the row's start."""
    lines: list[str]
    """The rows' text: asked for a column of these, a delimited table's rows are split once for all its columns."""


def _columns(view: TextView, shape: Shape) -> _Columns | None:
    """The rows of a table under its header (not its rules, nor blank lines), read by column; None for a table too
    long to read whole or too short to tell a column's values apart."""
    assert shape.header is not None
    if view.total > LARGEST_SCAN_CHARS:
        return None
    texts, starts = _rows_from(view, shape.header[1] + 1)
    ceiling = _table_end(view, shape.header[1] + 1)  # its totals, or another table, below a rule
    rows = [
        (line, start)
        for line, start in zip(texts, starts[:-1], strict=True)
        if start < ceiling and line.strip() and not (('---' in line or '===' in line) and is_rule(line))
    ]
    kept = set(_unindented_rows(view.content(shape.header), [line for line, _ in rows]))
    rows = [(line, start) for line, start in rows if line in kept]
    if len(rows) < RARE_MIN_ROWS:
        return None
    sample = [line for line, _ in rows[:ALIGNED_SAMPLE]]
    if shape.delimiter == ' ':
        # The rule under the header (`------  ---`) marks each column's width; without one, where the header and the
        # first rows hold characters.
        rules = [view.content(span) for span in shape.header_extra if span[0] > shape.header[1]]
        columns = _aligned_columns(rules[-1:] if rules else [view.content(shape.header), *sample])

        def column_of(chosen: list[str], column: int) -> list[str]:
            begin, end = columns[column]
            return [line[begin:end].strip() for line in chosen]

        def cell_start(line: str, column: int) -> int:
            begin = columns[column][0]
            return begin + len(line[begin:]) - len(line[begin:].lstrip())

        def reach(column: int) -> str:
            return f'.{{{columns[column][0]}}}'

        return _Columns(rows, column_of, cell_start, len(columns), reach, [line for line, _ in rows])
    delimiter = shape.delimiter
    other = re.escape(delimiter)
    every = [line for line, _ in rows]
    split: list[list[str]] = []  # every row's fields, split once when a column of all of them is first asked for

    def fields_before(column: int) -> str:
        return f'(?:[^{other}\\n]*{other}){{{column}}}'

    def fields_of(chosen: list[str], column: int) -> list[str]:
        if chosen is every:
            if not split:
                split.extend(line.split(delimiter) for line in every)
            table = split
        else:
            table = [line.split(delimiter) for line in chosen]
        return [fields[column].strip() if column < len(fields) else '' for fields in table]

    def field_start(line: str, column: int) -> int:
        fields = line.split(delimiter)
        begin = sum(len(field) + 1 for field in fields[:column])
        return begin + len(fields[column]) - len(fields[column].lstrip())

    width = min(len(line.split(delimiter)) for line in sample)
    return _Columns(rows, fields_of, field_start, width, fields_before, every)


def _rare_rows(view: TextView, table: _Columns) -> list[Pick]:
    """Rows that hold a value found in few rows of a column of few values (once or twice, or in a hundredth of a long
    table's rows: one zone shifting 120 minutes among zones shifting 0 or 60, four jobs exiting 1 among 435 exiting 0):
    what a reader scanning the table would stop at."""
    rows, column_of, cell_start, width, _, _ = table
    sample = [line for line, _ in rows[:ALIGNED_SAMPLE]]
    lines = table.lines
    few = max(3, int(RARE_DISTINCT * len(rows)))
    rare = max(1, len(rows) // 100)
    found: dict[int, int] = {}  # row index -> how often its rare value occurs (the rarer first)
    cells: dict[int, int] = {}  # row index -> the column of its rarest value
    sampled_few = max(3, int(RARE_DISTINCT * len(sample)))
    for column in range(width):
        # A column of many values among the first rows is one of names or measures: not read further.
        if len(set(column_of(sample, column))) > sampled_few:
            continue
        values = column_of(lines, column)
        counts = Counter(values)
        if len(counts) < 2 or len(counts) > few or not counts.most_common(1)[0][0]:
            continue  # one value throughout, many values, or a column mostly empty (a long value spilt into it)
        odd = {value for value, count in counts.items() if value and count <= rare}
        if not odd:
            continue  # no rows to find: the column need not be walked
        for index, value in enumerate(values):
            if value in odd and counts[value] < found.get(index, rare + 1):
                found[index] = counts[value]
                cells[index] = column
    if not found or len(found) > 2 * RARE_ROWS:
        return []  # many odd rows are the table's texture, not its exceptions
    chosen = sorted(found, key=lambda index: (found[index], index))[:RARE_ROWS]
    # Each keeps, when cut, its start through the value it was picked for.
    return [
        Pick(
            HEADER_PRIORITY - 2.5 - rank * 0.01,
            (view.line_at(rows[index][1]),),
            'rare',
            rows[index][1] + cell_start(rows[index][0], cells[index]),
        )
        for rank, index in enumerate(sorted(chosen))
    ]


OUTLIER_FEW = 6
"""In a column where most rows hold one value, the rows holding far more stand out while they are at most this share
(a sixth) of the rows read."""
OUTLIER_FROM_ONE = 100.0
"""How many times that value (or one, for a zero) a row must hold more than it to stand out: bytes queued where
every other queue is empty, not a process at 100% CPU among idle ones (a top's own order shows those)."""
OUTLIER_FENCE = 3.0
"""How many spreads of a column's middle half above its upper quartile a value must be to stand out (Tukey's far
fence): a day with 177 flights cancelled where most days see under ten."""


def _outlier_rows(view: TextView, shape: Shape, table: _Columns) -> list[Pick]:
    """Rows whose number in some column is far above what most rows hold there (mass cancellations, a huge delay):
    those standing out the most, each kept through the value it was picked for.

    What most rows hold is read from rows spread over the table; the rows past it are found by one search a column
    for its cells holding as many digits as the bar, and only those are read.
    """
    rows, column_of, cell_start, width, reach, lines = table
    assert shape.header is not None
    sample = lines[:: max(1, len(lines) // OUTLIER_SAMPLE)]
    header = view.content(shape.header)
    names = [column_of([header], column)[0] for column in range(width)]
    index_of = {start: index for index, (_, start) in enumerate(rows)}
    found: list[tuple[float, int, int]] = []  # how far it stands out, the row, the measure
    columns: list[int] = []  # per measure, the column it is in
    for column, name, word, cells in _measures(sample, names, column_of, width):
        columns.append(column)
        if _ID_COLUMN.search(name):
            continue  # a process's or a row's id: a number that names, not one that measures
        if sum(_number(cell) is None for cell in cells[:OUTLIER_PROBE]) > OUTLIER_PROBE // 10:
            continue  # names, dates, statuses: told at its first cells
        # An infinite or undefined value (`-inf` where a log met a zero) is no measure of how far others stand out.
        numbers = sorted(value for cell in cells if (value := _number(cell)) is not None and math.isfinite(value))
        if len(numbers) < 0.9 * len(cells):
            continue
        low, high = numbers[len(numbers) // 4], numbers[len(numbers) * 3 // 4]
        spread = high - low
        if spread > 0:
            fence = high + OUTLIER_FENCE * spread
        else:
            # Most rows hold one value (an empty queue, no errors): the few holding a hundred times more stand out.
            spread = max(abs(high), 1.0)
            fence = high + OUTLIER_FROM_ONE * spread
            above = sum(1 for number in numbers if number > fence)
            if not above or above > OUTLIER_ROWS or above * OUTLIER_FEW > len(numbers):
                continue  # many rows holding more (a listing's processes among kernel threads): two kinds of row
        if word < 0:
            candidates = _past(view.text, reach(column), fence, numbers, len(sample) / len(lines), index_of)
        elif len(lines) <= OUTLIER_READ_ROWS:
            candidates = range(len(lines))  # two measures run together in a short table: each row is read
        else:
            continue
        for index in candidates:
            cell = column_of([lines[index]], column)[0]
            if word >= 0:
                parts = cell.split()
                cell = parts[word] if word < len(parts) else ''
            value = _number(cell)
            if value is not None and value > fence:
                found.append(((value - high) / spread, index, len(columns) - 1))
    # Each measure's rows standing out the most, the measures in turn (the one whose row stands out the most first): a
    # measure of extremes (a process's virtual size) does not crowd out the others (its resident memory).
    by_measure: dict[int, list[int]] = {}
    for _, index, measure in sorted(found, key=lambda item: (-item[0], item[1])):
        by_measure.setdefault(measure, []).append(index)
    chosen: dict[int, int] = {}  # row -> the column it stands out in
    for turn in range(OUTLIER_ROWS // 2):
        for measure, ranked in by_measure.items():
            if turn < len(ranked) and ranked[turn] not in chosen and len(chosen) < OUTLIER_ROWS:
                chosen[ranked[turn]] = columns[measure]
    return [  # in the order chosen: should they not all fit, the first of each measure are shown
        Pick(
            HEADER_PRIORITY - 2.6 - rank * 0.01,
            (view.line_at(rows[index][1]),),
            'rare',
            rows[index][1] + cell_start(rows[index][0], column),
        )
        for rank, (index, column) in enumerate(chosen.items())
    ]


def _past(
    text: str, reach: str, fence: float, numbers: list[float], share: float, index_of: dict[int, int]
) -> list[int]:
    """The rows (by index) whose cell after `reach` opens with a number of as many digits as `fence`'s whole part or
    more (under one, a whole part not zero: `3.71` inches of rain where most days see `0.0`): those that may hold a
    larger number. Where the sampled `numbers` (a `share` of the rows) say those are many, those with a digit more;
    one search either way."""
    digits = len(str(int(fence)))
    lead = '[1-9]' if fence < 1 else '\\d'
    expected = sum(1 for number in numbers if number >= 10 ** (digits - 1) and number >= 1) / share
    if expected > OUTLIER_CANDIDATES:
        digits += 1
    hits = re.finditer(f'\\n{reach} *(?={lead}\\d{{{digits - 1}}})', text)
    starts = [hit.start() + 1 for hit in itertools.islice(hits, OUTLIER_CANDIDATES + 1)]
    return [index_of[start] for start in starts if start in index_of] if len(starts) <= OUTLIER_CANDIDATES else []


def _measures(
    lines: list[str], names: list[str], column_of: Callable[[list[str], int], list[str]], width: int
) -> Iterator[tuple[int, str, int, list[str]]]:
    """Each column of a table with its name, -1, and its cells of `lines`; a column whose cells nearly all hold the
    same number of words (two measures the alignment ran together: `RSS    VSZ` over `340220 343732`) as that many,
    each under its word, with the word's place in the cell."""
    for column in range(width):
        cells = column_of(lines, column)
        parts = [cell.split() for cell in cells]
        count, held = Counter(len(words) for words in parts).most_common(1)[0] if parts else (1, 0)
        words = names[column].split()
        if count > 1 and held >= 0.9 * len(cells) and len(words) == count:
            for index, word in enumerate(words):
                yield column, word, index, [cell[index] if len(cell) == count else '' for cell in parts]
        else:
            yield column, names[column], -1, cells


_ID_COLUMN = re.compile(r'(?:^|[\s_.])(?:p?p?id|uid|gid|oid|relid|num|no|port|line)$', re.IGNORECASE)
"""A column's name that says its numbers name things: `PID`, `PPID`, `user_id`, `relid`, `port`, `line`."""
OUTLIER_ROWS = 6
"""Rows standing out in a column of numbers that a table's digest keeps, three of a column at most."""
OUTLIER_CHARS = 160 * 1024
"""Tables up to this size have their rows searched for numbers standing out (a search a column of numbers)."""
OUTLIER_SAMPLE = 64
"""Rows, spread over a table, whose numbers say what most rows hold in each column."""
OUTLIER_PROBE = 16
"""Of those, the first read to tell a column of numbers from one of names (one in ten may be empty or other)."""
OUTLIER_CANDIDATES = 64
"""Rows a column's search for numbers as long as its bar may find, at most: more, and a longer number is looked for."""
OUTLIER_READ_ROWS = 1_000
"""Rows of a table read whole for two measures an alignment ran together (no one search finds the second)."""


_BLANK = re.compile(r'\s')
_MARK = re.compile(r'\S')
_USED = re.compile(r'1+')


_MARKS = bytes.maketrans(bytes(range(256)), bytes(ord('0') if chr(byte).isspace() else ord('1') for byte in range(256)))
"""Each ASCII character to `1`, each blank one to `0`: a row's marks in one C pass (`bytes.translate`)."""


def _aligned_columns(lines: list[str]) -> list[tuple[int, int]]:
    """Where the columns of a column-aligned table lie: runs of positions that hold a character in some line,
    parted by positions blank in every line (a value with a space in it, `New Zealand`, stays one cell)."""
    width = max(map(len, lines))
    used = 0
    for line in lines:
        marks = (
            line.encode('ascii').translate(_MARKS).decode('ascii')
            if line.isascii()
            else _BLANK.sub('0', _MARK.sub('1', line))
        )
        used |= int(marks.ljust(width, '0'), 2)
    columns = [match.span() for match in _USED.finditer(format(used, f'0{width}b'))]
    if columns:
        columns[-1] = (columns[-1][0], 1 << 30)  # the last column runs to each line's end, however long
    return columns


LARGEST_SCAN_CHARS = 256 * 1024
"""Tables up to this size have their largest values found among all rows; larger ones only keep their head."""


def _largest_rows(view: TextView, shape: Shape) -> list[Pick]:
    assert shape.header is not None
    if view.total > LARGEST_SCAN_CHARS:
        return []
    starts = _rows_from(view, shape.header[1] + 1)[1]
    values = _column_of(view, shape.header[1] + 1, shape.delimiter, shape.numeric_column)
    ceiling = _table_end(view, shape.header[1] + 1)
    if ceiling < view.total:  # below a rule: the table's totals, or another table
        values = [value if start < ceiling else None for value, start in zip(values, starts, strict=False)]
    if _rising(values):
        return []  # a clock's (samples over time): its largest are its last rows, which the tail shows
    return [
        Pick(HEADER_PRIORITY - 2 - rank * 0.01, (view.line_at(start),), 'largest')
        for rank, start in enumerate(_ranked(values, starts, 1, None, EXTREME_ROWS))
    ]


def _rows_from(view: TextView, floor: int) -> tuple[list[str], list[int]]:
    """The lines from `floor` on, and where each starts (split once per text: a table's digest, its rare rows and
    its extremes all read them; none may change them)."""
    found = view.rows.get(floor)
    if found is None:
        rows = view.text[floor:].split('\n')
        # Where row i starts: the lengths before it, and a line break after each.
        starts = [start + index for index, start in enumerate(accumulate(map(len, rows), initial=floor))]
        found = view.rows[floor] = (rows, starts)
    return found


EXTREME_ROWS = 6
"""Rows with the largest (or smallest) numbers kept when a request asks for them ("the slowest", "the lowest")."""
EXTREME_PRIORITY = 905.0
"""Just above the lines a request's words select (900): asked for the slowest tests, the slowest are the answer."""
EXTREME_GROUPS = 3
"""Of those rows, how many bring the unindented line they sit under (the file a function's score belongs to)."""
MEASURED_SHARE = 0.6
"""Share of sampled lines holding a number at one field for the field to be what the rows are ranked by."""
_FIELDS_TRIED = (0, 1, 2, 3, -1, -2, -3)
_MEASURE = re.compile(r'(\d[\d,]*(?:\.\d+)?)([KMGTP]?)(?:i?B)?(ms|us|s)?')
_SECONDS = {None: 1.0, 's': 1.0, 'ms': 1e-3, 'us': 1e-6}
_UNRANKED = frozenset(
    (
        ShapeKind.diff,
        ShapeKind.history,
        ShapeKind.json,
        ShapeKind.key_value,
        ShapeKind.test_run,
        ShapeKind.diagnostics,
        ShapeKind.long_line,
    )
)
"""Shapes whose numbers are not measures to rank by (hashes, line counts of a diff, versions, a test's own timing)."""


def _measure(token: str) -> float | None:
    """A field's number, with its unit where it has one: `(37)`, `4.5M`, `0.52s`, `25,664`, `98%`; not `1.2.3`."""
    core = token.strip('()[],;%')
    if not core[:1].isdecimal():
        return None
    try:
        return float(core)  # most fields that rank rows are plain numbers
    except ValueError:
        pass
    found = _MEASURE.fullmatch(core)
    if found is None:
        return None
    digits, unit, seconds = found.groups()
    return float(digits.replace(',', '')) * _UNITS[unit] * _SECONDS[seconds]


def _field_reader(position: int) -> Callable[[str], str | None]:
    """Reads the whitespace-separated field at `position` (negative: from the end) of a line of two or more."""
    if position >= 0:
        fewest = max(2, position + 1)

        def forward(line: str) -> str | None:
            parts = line.split(None, position + 1)
            return parts[position] if len(parts) >= fewest else None

        return forward
    fewest = max(2, -position)

    def backward(line: str) -> str | None:
        parts = line.rsplit(None, -position)
        return parts[position] if len(parts) >= fewest else None

    return backward


_DIGITS = re.compile(r'\d[\d.,]*')


def _form(field: str) -> str:
    """How a field writes its number: `(0)` for `(68)`, `0)` for `485)`, `0ms` for `12.5ms`."""
    return _DIGITS.sub('0', field)


_CLOSING_RULE = re.compile(r'\n[ \t]*(?:-{4,}|={4,})[-=+| \t]*(?=\n)')
"""A rule of dashes or equals signs on a line of its own."""


def _table_end(view: TextView, floor: int) -> int:
    """Where the first rule below some of a table's rows (from `floor`, under its names) begins, or the text's end:
    what follows is its totals or another table. A rule right under the names (before any row) opens the rows.
    Searched once per text: a table's digest, its odd rows and its extremes all ask."""
    known = view.table_ends.get(floor)
    if known is not None:
        return known
    text, start = view.text, floor
    found = _CLOSING_RULE.search(text, max(0, start - 1))
    while found is not None and not text[start : found.start()].strip():
        start = found.end()
        found = _CLOSING_RULE.search(text, start)
    end = found.start() + 1 if found is not None else view.total
    # A blank line and a title under it (R's `$by.total`, a `Totals:`) close it as well: another table follows.
    titled = _TITLE_BREAK.search(text, floor, end)
    if titled is not None and text[floor : titled.start()].strip():
        end = titled.start() + 1
    view.table_ends[floor] = end
    return end


_TITLE_BREAK = re.compile(r'\n[ \t]*\n(?=[ \t]*(?:\S+|[^\n]*\S:)[ \t]*\n)')
"""A blank line over a line of one word, or one ending in a colon: a title."""


def _measured_field(lines: list[str]) -> int | None:
    """The field holding a number on most sampled lines, with at least three different values: what to rank by."""
    rows = [fields for line in lines if (fields := line.split())]
    best, best_count = None, 0
    for position in _FIELDS_TRIED:
        fewest = max(2, position + 1 if position >= 0 else -position)
        measured = [_measure(fields[position]) for fields in rows if len(fields) >= fewest]
        values = [value for value in measured if value is not None]
        # A line's first fields stay in place where optional ones follow (`git verify-pack -v`'s delta depth and base):
        # a place counted from the end must hold numbers on clearly more lines to be chosen over one from the start.
        needed = best_count * FROM_END_MARGIN if position < 0 and best is not None and best >= 0 else best_count
        if len(values) > needed and len(values) >= MEASURED_SHARE * len(rows) and len(set(values)) >= 3:
            best, best_count = position, len(values)
    return best


FROM_END_MARGIN = 1.25
"""How many times the lines a field from the start holds numbers on, a field from the end must hold them on to be
ranked by instead."""


_MEASURED_TITLE = re.compile(r'\n(\d[\d,]*(?:\.\d+)?) ?([KMGT]i?B?|B|bytes)?\b[^\n]*:[ \t]*(?=\n)')
"""A line over a block that opens with how much it measures and ends with a colon: `fdupes -S`'s `3083586 bytes
each:` over the files that are copies of each other, heaptrack's `16.00M consumed over 1 calls from:`."""
MEASURED_TITLES = 3
"""Blocks shown whose titles measure the most (or least), each with its first lines."""
TITLE_BLOCK_LINES = 2
MEASURED_TITLES_MIN = 5
"""Such titles a text needs for them to be what its blocks are ranked by."""


_TRAILING_DURATION = re.compile(r'(?<![\w.])(\d+(?:\.\d+)?) ?(ms|us|\u00b5s|s)[ \t]*$')
"""A duration a log line ends with (`... 254M->253M(256M) 341.756ms`, `took 2.8 s`)."""
_DURATION_MS = {'ms': 1.0, 'us': 0.001, '\u00b5s': 0.001, 's': 1000.0}
TIMED_LINES_MIN = 8
"""Lines ending with a duration a log must hold for them to be ranked by it."""
TIMED_EXTREMES = 3
"""Lines with the longest (or shortest) durations shown, asked for the worst of a log's timed events."""


def _timed_lines(view: TextView, direction: int, measure: str) -> list[Pick]:
    """In a log whose events end with how long they took (a JVM's GC log, `Pause Full ... 341.756ms`; a build's steps),
    asked for the worst or the longest: the lines taking the most time (the least, asked for the shortest), among those
    naming the request's word for what is measured when some do (`pause`), each unit converted."""
    if view.total > ROW_SCAN_CHARS:
        return []
    text, end = view.text, view.end
    timed: list[tuple[float, Span, str]] = []
    start = 0
    while start < end:
        stop = text.find('\n', start, end)
        stop = end if stop == -1 else stop
        if text[stop - 1 : stop] == 's' and (found := _TRAILING_DURATION.search(text, start, stop)):
            timed.append((float(found.group(1)) * _DURATION_MS[found.group(2)], (start, stop), text[start:stop]))
        start = stop + 1
    if len(timed) < TIMED_LINES_MIN:
        return []
    if measure and (named := [item for item in timed if measure in item[2].lower()]):
        timed = named
    ranked = heapq.nlargest(TIMED_EXTREMES, timed, key=lambda item: item[0] * direction)
    return [Pick(EXTREME_PRIORITY - rank * 0.01, (span,), 'extreme') for rank, (_, span, _) in enumerate(ranked)]


def _measured_titles(view: TextView, direction: int) -> list[Pick]:
    """Blocks under titles that open with a measure (`fdupes -S`'s groups, a profiler's allocation sites): asked for the
    largest, the blocks whose titles measure the most, each with its first lines (what it is)."""
    if view.total > ROW_SCAN_CHARS:
        return []
    titles: list[tuple[float, int]] = []
    for found in _MEASURED_TITLE.finditer(f'\n{view.text[: view.end]}'):
        number = float(found.group(1).replace(',', ''))
        titles.append((number * _SIZE_UNITS.get(found.group(2) or '', 1.0) * direction, found.start()))
    if len(titles) < MEASURED_TITLES_MIN:
        return []
    picks: list[Pick] = []
    for rank, (_, start) in enumerate(heapq.nlargest(MEASURED_TITLES, titles, key=lambda title: (title[0], -title[1]))):
        title = view.line_at(start)
        block = list(view.forward(title, TITLE_BLOCK_LINES))
        picks.append(Pick(EXTREME_PRIORITY - rank * 0.01, (title, *block), 'extreme'))
    return picks


def extreme_rows(
    view: TextView, shape: Shape, sample: list[Span], direction: int, subjects: tuple[str, ...] = (), measure: str = ''
) -> list[Pick]:
    """The rows with the largest (`direction` 1) or smallest (-1) numbers in the field most rows measure.

    For a table, its numeric column; for lines of whitespace-separated fields (`radon cc`, `du`, `wc -l`, an
    unsorted listing), the field at one place from the start or the end that holds a number on most sampled
    lines. Texts up to `LARGEST_SCAN_CHARS` are ranked whole; a larger one only in the lines sampled. The first
    of `subjects` (the request's terms, lowercased, weightiest first) held by a group of rows short of most of
    them ("which click modules are least covered") limits the ranking to that group. `measure`, the request's word for
    what is ranked ("the most *memory*"), names a table's column or a record's member before the terms do.
    """
    history = shape.kind is ShapeKind.history and shape.variant == 'git'
    members = shape.kind is ShapeKind.json and shape.variant == 'indented'
    # A line an object opening with its id (`git verify-pack -v`'s `<sha> blob 170399 55931 788401`) reads like a
    # commit on one line; its numbers are ranked as any fields are (a commit's subject has none at one place).
    objects = shape.kind is ShapeKind.history and shape.variant == 'oneline'
    ranked = history or members or objects or shape.kind is ShapeKind.test_run
    if not direction or (shape.kind in _UNRANKED and not ranked):
        return []
    table = shape.kind is ShapeKind.table and shape.header is not None
    if shape.sorted_rows and direction > 0 and not table:
        return []  # sorted from its largest down, its top rows are kept already
    if history:
        return _history_extremes(view, direction, subjects)
    if shape.kind is ShapeKind.test_run:
        # "Which test is the slowest": pytest's `--durations` report, its slowest first, is the answer.
        slowest = _durations(view, [])[: 1 + SLOWEST_TESTS] if direction > 0 else []
        return [Pick(EXTREME_PRIORITY, tuple(slowest), 'extreme')] if slowest else []
    if members:
        # Indented JSON (`json.tool`, `jq .`): the objects whose member the request names ("the most horsepower")
        # holds the largest (or smallest) number, each with the object's first member, which names it.
        lines = [view.content(span) for span in sample]
        return _keyed_extremes(view, lines, direction, (measure, *subjects) if measure else subjects, named_only=True)
    if shape.kind is ShapeKind.log:
        # Results one after another, each in a box (a script of queries): each sorted as its query asked, its first
        # row is the extreme asked for, as no ranking of numbers across tables of other things can tell.
        boxed = [pick for pick in _boxed_tables(view) if len(pick.spans) == 2]
        if boxed:
            return [Pick(EXTREME_PRIORITY - rank * 0.01, pick.spans, 'extreme') for rank, pick in enumerate(boxed)]
        if titled := _measured_titles(view, direction):
            return titled
        if timed := _timed_lines(view, direction, measure):
            return timed
    floor = shape.header[1] + 1 if table and shape.header is not None else 0
    lines = [view.content(span) for span in sample if span[0] >= floor]
    if view.total <= LARGEST_SCAN_CHARS:
        rows, starts = _rows_from(view, floor)
        within = _subject_rows(rows, subjects)
    else:
        rows = lines
        starts = [span[0] for span in sample if span[0] >= floor]
        within = None
    whole = table and view.total <= LARGEST_SCAN_CHARS
    if whole and (sectioned := _section_extremes(view, shape, direction, subjects)):
        return sectioned
    if table:
        # A table measuring several things (self and cumulative time, statements and misses): the rows with the
        # largest values of each of its first two measures, the asked-for extreme being one or the other.
        fields = [row_fields(line, shape.delimiter) for line in lines if line.strip()]
        numeric = _numeric_columns(fields)
        if not numeric:
            return []
        assert shape.header is not None
        names = header_names(view.content(shape.header), shape.delimiter, fields)
        naming = (measure, *subjects) if measure else subjects
        ranks = {column: _naming(names[column], naming) for column in numeric if column < len(names)}
        named = sorted((column for column, rank in ranks.items() if rank is not None), key=lambda c: ranks[c] or 0)
        # The measures the request names ("the least covered": `cov%`; "the most memory": `RSS`), the weightiest term's
        # first, else the first two.
        columns = named[:2] or numeric[:2]
        if shape.sorted_rows and direction > 0 and (not named or named[0] == shape.numeric_column):
            return []  # sorted from its largest down by what was asked, its top rows are kept already
        per_column = EXTREME_ROWS // len(columns)
        picks: list[Pick] = []
        taken: set[int] = set()
        ceiling = _table_end(view, floor) if view.total <= LARGEST_SCAN_CHARS else view.total
        for order, column in enumerate(columns):
            values = (
                _column_of(view, floor, shape.delimiter, column)
                if view.total <= LARGEST_SCAN_CHARS
                else _column_reader(shape.delimiter, column)(rows)
            )
            if ceiling < view.total:
                # Past the rule closing the table: its totals, or another table (lizard's per file, its own names).
                values = [value if start < ceiling else None for value, start in zip(values, starts, strict=False)]
            ranked = _ranked(values, starts, direction, within, per_column)
            fresh = [start for start in ranked if start not in taken][:per_column]
            taken.update(fresh)
            # Each with the header, which says what its numbers are (no other line of a table does).
            picks += _extreme_picks(view, fresh, order * per_column, lambda _, __: shape.header)
        return picks
    if shape.kind is ShapeKind.listing and shape.variant == 'tree':
        return _tree_extremes(view, rows, starts, direction)
    position = _measured_field(lines)
    if position is None:
        return _keyed_extremes(view, lines, direction, subjects) if shape.kind is ShapeKind.log else []
    if LARGEST_SCAN_CHARS < view.total <= LONGEST_DIGITS_CHARS and 0 <= position < DIGITS_FIELDS and direction > 0:
        # Too large to rank whole, but its measure is one of each line's first fields (`du`, `wc -l`, `find -printf
        # '%s %p'`, `git cat-file --batch-check`'s type, name and size): its largest plain numbers have the most
        # digits. The lines with more digits there than any sampled line (the outliers) are found by one search, and,
        # if they are too few, those with as many by another (from a line break: a literal the regex engine skips
        # to); they are ranked with the sampled lines.
        before = f'(?:\\S+[ \\t]+){{{position}}}'  # the fields before the measure
        leading = re.compile(f' *{before}(\\d+)\\s')
        digits = max((len(found.group(1)) for line in lines if (found := leading.match(line))), default=0)
        known = set(starts)
        added = 0
        for fewest in (digits + 1, digits) if digits >= 2 else ():
            hits = re.finditer(f'\\n *{before}\\d{{{fewest},}}\\s', view.text)
            for start in itertools.islice((hit.start() + 1 for hit in hits), LONGEST_DIGITS_ROWS):
                if start not in known:
                    known.add(start)
                    rows.append(view.content(view.line_at(start)))
                    starts.append(start)
                    added += 1
            if added >= EXTREME_ROWS:
                break
    read = _field_reader(position)
    # Only the fields written as the sampled lines' measures are (`(68)`, not the `485)` of a line of another kind:
    # `ERROR: invalid syntax (<unknown>, line 485)` among a report's scores).
    forms = Counter(_form(field) for line in lines if (field := read(line)) is not None and _measure(field) is not None)
    form = forms.most_common(1)[0][0] if forms else ''
    cores = [
        field.strip('()[],;%') if (field := read(line)) is not None and _form(field) == form else '' for line in rows
    ]
    # Plain numbers (most of them) are read here; the rest (units, commas, nothing) by `_measure`.
    values = [float(core) if core.replace('.', '', 1).isdecimal() else _measure(core) for core in cores]
    return _extreme_picks(view, _ranked(values, starts, direction, within, EXTREME_ROWS)[:EXTREME_ROWS], 0)


_KEYED_NUMBER = re.compile(r'\b([A-Za-z_][\w.-]*)"?(?::|=) *(-?\d+(?:\.\d+)?)\b')
"""A measure a log line names: `Query_time: 3.51`, `duration=120ms`, `rt=0.84`, a JSON member's `"Horsepower": 230`."""
_TIME_KEY = re.compile(r'time|duration|elapsed|latency|took|wait|ms$|secs?$', re.IGNORECASE)
"""A key that measures time: what "the slowest", "the worst" of a log's entries are ranked by, unless one is named."""
KEYED_MIN_LINES = 3
"""Lines read that must name a key with a number for it to be one of the log's measures."""
KEYED_EXTREME_HITS = 5_000
"""Lines naming the chosen key read for its largest values, at most."""


def _keyed_extremes(
    view: TextView, lines: list[str], direction: int, subjects: tuple[str, ...], *, named_only: bool = False
) -> list[Pick]:
    """In a log whose entries name their measures (a slow query log's `# Query_time: 3.51`, a request log's
    `duration=120ms`), the entries with the largest (or smallest) value of the measure the request names, else of the
    one measuring time, else of the one most lines read name: "which queries are worst". One search of the text for
    that key."""
    if view.total > LARGEST_SCAN_CHARS:
        return []
    seen: dict[str, set[str]] = {}
    lines_of: Counter[str] = Counter()
    for line in lines:
        keys = {key: value for key, value in _KEYED_NUMBER.findall(line)}
        for key, value in keys.items():
            seen.setdefault(key, set()).add(value)
            lines_of[key] += 1
    measures = [key for key, count in lines_of.most_common() if count >= KEYED_MIN_LINES and len(seen[key]) > 1]
    if not measures:
        return []
    # The key the weightiest term names, the one it names whole first (`totalSpent` for "totalSpent", not `Total`).
    named: list[str] = []
    for subject in (subject for subject in subjects if len(subject) >= 3):
        holding = [key for key in measures if subject in key.lower()]
        named = sorted(holding, key=lambda key: key.lower() != subject)
        if named:
            break
    if named_only and not named:
        return []
    timed = [key for key in measures if _TIME_KEY.search(key)]
    key = (named or timed or measures)[0]
    # Opening with the key itself, a literal the regex engine skips to (a `\\b` first is tried at every character);
    # a hit inside a longer name (`uptime=` for `time=`) is left out after.
    text = view.text
    found = re.finditer(f'{re.escape(key)}"?(?::|=) *(-?\\d+(?:\\.\\d+)?)\\b', text)
    ranked = [
        (float(hit.group(1)) * direction, view.line_at(hit.start())[0], hit.start())
        for hit in itertools.islice(found, KEYED_EXTREME_HITS)
        if not hit.start() or not (text[hit.start() - 1].isalnum() or text[hit.start() - 1] == '_')
    ]
    ranked.sort(key=lambda item: (-item[0], item[1]))
    starts = list(dict.fromkeys(start for _, start, _ in ranked))[: EXTREME_ROWS // 2]
    # Cut to fit, a long entry (an access log's line) keeps the measure it was ranked by.
    focus = {start: place for _, start, place in reversed(ranked)}
    return _extreme_picks(view, starts, 0, _first_member if named_only else heading_of, focus)


OBJECT_REACH = 64
"""Lines looked back over from a member of an indented JSON object for the line that opens the object."""


def _first_member(view: TextView, span: Span) -> Span | None:
    """For a member of an indented JSON object, the object's first member holding a string (`"Name": "pontiac grand
    prix",`, `"filename": "click-8.1.7.tar.gz",`): what names it. None when that is the member itself, or when no `{`
    opens the object within `OBJECT_REACH` lines."""
    content = view.content(span)
    indent = len(content) - len(content.lstrip())
    named: Span | None = None
    for line in view.backward(span, OBJECT_REACH):
        above = view.content(line)
        depth = len(above) - len(above.lstrip())
        if depth < indent:
            return named if above.rstrip().endswith('{') else None
        if depth == indent and _STRING_MEMBER.match(above):
            named = line
    return None


_STRING_MEMBER = re.compile(r'\s*"[^"\n]+": "[^"\n]')
"""A JSON member whose value is a string that is not empty."""


DIGITS_FIELDS = 4
"""Of a line's fields, the first this many may be searched for the longest numbers."""
LONGEST_DIGITS_CHARS = 2 * 1024 * 1024
"""Texts up to this size too large to rank whole are searched once for the lines opening with the most digits."""
LONGEST_DIGITS_ROWS = 200
"""Of those lines, how many are ranked at most."""


PASSED_ON = 0.95
"""A node of a tree of measures holding this much of its parent's measure or more passes it on: no split there."""


def _tree_extremes(view: TextView, rows: list[str], starts: list[int], direction: int) -> list[Pick]:
    """In a tree whose nodes open with a measure (a profiler's call tree: `├─ 0.900 group  grouping.py:397`), the
    nodes where it splits, largest first: a node carrying nearly all of its parent's measure only passes it on
    (`main` under `<module>`), and the largest of all would be the root and its chain. Each with its parent."""
    parents: list[tuple[int, float, int]] = []  # (column, value, row) of the open ancestors
    candidates: list[tuple[float, int]] = []
    parent_of: dict[int, int] = {}
    match = _MEASURED_NODE.match
    for index, row in enumerate(rows):
        found = match(row)
        if found is None:
            continue
        column, value = found.start(1), float(found.group(1))
        while parents and parents[-1][0] >= column:
            parents.pop()
        # A root is the total (the header says it too); under it, a node carrying nearly all of its parent's measure.
        if parents and value < PASSED_ON * parents[-1][1]:
            candidates.append((value * direction, -index))
            parent_of[index] = parents[-1][2]
        parents.append((column, value, index))
    picks: list[Pick] = []
    for rank, (_, negative) in enumerate(heapq.nlargest(EXTREME_ROWS, candidates)):
        index = -negative
        span = view.line_at(starts[index])
        priority = EXTREME_PRIORITY - rank * 0.01
        parent = parent_of.get(index)
        if parent is not None and rank < EXTREME_GROUPS:
            picks.append(Pick(priority, (view.line_at(starts[parent]), span), 'extreme'))
        picks.append(Pick(priority - 0.005, (span,), 'extreme'))
    return picks


_MEASURED_NODE = re.compile(r'[ \t│|`]*(?:├── |└── |\|-- |`-- |├─ |└─ )?(\d+(?:\.\d+)?) ')
"""A tree's node that opens with a number, after the lines drawn before it: the number, where its column is."""


def _section_extremes(view: TextView, shape: Shape, direction: int, subjects: tuple[str, ...]) -> list[Pick]:
    """In tables one after another, each under a header opening with the same field (`sadf -d`'s `# hostname;...` over
    its CPU, disk, memory and load tables), the most extreme row of each column a request's term names, under its own
    table's header: a column's place means another measure in each table. Empty for a single table, and for one whose
    header is repeated as it was."""
    assert shape.header is not None
    first = row_fields(view.content(shape.header), shape.delimiter)[0]
    if not first.strip():
        return []
    text, opening = view.text, f'\n{first}{shape.delimiter}'
    headers = [shape.header]
    found = text.find(opening, shape.header[1], view.end)
    while found != -1 and len(headers) < TABLE_SECTIONS:
        headers.append(view.line_at(found + 1))
        found = text.find(opening, headers[-1][1], view.end)
    named = view.content(shape.header).strip()
    if all(view.content(header).strip() == named for header in headers):
        return []  # one table whose header is printed again every few rows (a monitor's, `redis-cli --stat`)
    rows, starts = _rows_from(view, shape.header[1] + 1)
    picks: list[Pick] = []
    for index, header in enumerate(headers):
        names = row_fields(view.content(header), shape.delimiter)
        stop = headers[index + 1][0] if index + 1 < len(headers) else view.end + 1
        low, high = bisect_left(starts, header[1] + 1), bisect_left(starts, stop)
        section, places = rows[low:high], starts[low:high]
        numeric = _numeric_columns([row_fields(line, shape.delimiter) for line in section[:SECTION_ROWS_READ] if line])
        for column in numeric:
            if column < len(names) and _naming(names[column], subjects) is not None:
                values = _column_reader(shape.delimiter, column)(section)
                peak = _ranked(values, places, direction, None, 1)[:1]
                picks += _extreme_picks(view, peak, len(picks) // 2, lambda _, __, header=header: header)
    return picks


TABLE_SECTIONS = 16
"""Tables under repeated headers read for the columns a request names, at most."""
SECTION_ROWS_READ = 40
"""Rows of each read to tell which of its columns hold numbers."""


def column_named(name: str, subjects: tuple[str, ...]) -> bool:
    """Whether one of a request's terms names the column (or member) `name` (see `_naming`)."""
    return _naming(name, subjects) is not None


def _naming(name: str, subjects: tuple[str, ...]) -> int | None:
    """The index of the first of a request's terms that names a column: the column's letters begin the term (`cov%`
    for "covered", `Miss` for "missing", `cumulative` for "cumulative"), or the column is one of the usual measures
    of what the term names (`RSS` for "memory", `total_ms` for "time"); None when none does."""
    letters = ''.join(char for char in name.lower() if char.isalpha())
    for index, key in enumerate(subjects):
        if len(letters) >= 3 and (key.startswith(letters) or ''.join(filter(str.isalpha, key)).startswith(letters)):
            return index  # `bwrtn/s` named as it is written, or its letters as a word
        if len(key) >= _MIN_STEM and letters.startswith(key) and len(letters) - len(key) <= len('ing'):
            return index  # the request's word stemmed (`block` of "blocked"): the column as the request wrote it
        first = _NAME_WORD.match(name.lower())
        if first is not None and len(first.group()) >= NAME_WORD_LETTERS and key.startswith(first.group()):
            return index  # the column's first word the request's (`cancel_pct` for "cancellation rate")
        if letters in _MEASURED_BY.get(key, ()):
            return index
        if key == 'time' and _TIME_KEY.search(name) and not _WHEN.search(name):
            return index
    return None


_NAME_WORD = re.compile(r'[a-z]+(?=[^a-z])')
"""The first word of a column's name of several (`cancel` of `cancel_pct`)."""
NAME_WORD_LETTERS = 5
"""Letters a column's first word needs to name it by the request's word it begins."""
_MIN_STEM = 4
"""Letters of a request's stemmed word that a column's name may go on from (`clients` for `client`)."""
_WHEN = re.compile(r'start|stamp|date|created|updated|modified|^(?:end|stop)', re.IGNORECASE)
"""A column of when something happened (a job log's `Starttime`, a `timestamp`), not of how long it took."""


_MEASURED_BY = {
    'memory': ('rss', 'res', 'rsz', 'mem', 'vsz', 'virt', 'heap', 'maxrss'),
    'ram': ('rss', 'res', 'rsz', 'mem'),
}
"""The columns a measure is usually written as, by the request's word for it (`ps`, `top`, `docker stats`)."""


SUBJECT_SHARE = 0.6
"""A request's term held by more of the rows than this names no group of them: it is what they all are."""


def _subject_rows(rows: list[str], subjects: tuple[str, ...]) -> set[int] | None:
    """The indices of the rows the first term naming a group of them holds, or None when none does."""
    if not subjects:
        return None
    whole = '\n'.join(rows).lower()
    lowered: list[str] | None = None
    nonblank = sum(1 for row in rows if row.strip())
    for subject in subjects[:SUBJECTS_TRIED]:
        if whole.count(subject) < EXTREME_GROUPS:
            continue  # one C pass rules out a term on fewer places than a group has rows
        lowered = lowered or whole.split('\n')
        if len(subject) <= SHORT_SUBJECT:
            # `CI` is not the `ci` of `specific`: a short term names rows holding it as a word of its own.
            alone = re.compile(f'(?<![a-z0-9]){re.escape(subject)}(?![a-z0-9])')
            holding = {index for index, row in enumerate(lowered) if subject in row and alone.search(row)}
        else:
            holding = {index for index, row in enumerate(lowered) if subject in row}
        if EXTREME_GROUPS <= len(holding) <= SUBJECT_SHARE * nonblank:
            return holding
    return None


GROUP_SHARE = 0.05
"""Share of the measured rows a group the request names must hold for its extremes to come first."""
SHORT_SUBJECT = 3
"""Terms this short name the rows holding them only as a word of their own."""
SUBJECTS_TRIED = 8
"""The request's weightiest terms looked at for a group of rows (a bound on the passes over the rows)."""


def _column_of(view: TextView, floor: int, delimiter: str, column: int) -> list[float | None]:
    """The numbers in `column` of the rows from `floor` on (`_rows_from`), read once per text: a table's largest rows
    and the extremes a request asks for read the same column."""
    key = (floor, delimiter, column)
    found = view.columns.get(key)
    if found is None:
        found = view.columns[key] = _column_reader(delimiter, column)(_rows_from(view, floor)[0])
    return found


def _cells(view: TextView, floor: int, delimiter: str) -> list[list[str]]:
    """The cells of each row from `floor` on (`_rows_from`), each row split once per text: a series' bursts and its
    steps read every column of the same rows."""
    found = view.cells.get((floor, delimiter))
    if found is None:
        found = view.cells[floor, delimiter] = [row_fields(line, delimiter) for line in _rows_from(view, floor)[0]]
    return found


def _cell_numbers(view: TextView, floor: int, delimiter: str, column: int) -> list[float | None]:
    """The number in `column` of each row's cells (`_cells`), None where a row has no such cell; read once per text."""
    key = (floor, delimiter, column)
    found = view.cell_numbers.get(key)
    if found is None:
        cells = _cells(view, floor, delimiter)
        found = view.cell_numbers[key] = [_number(fields[column]) if len(fields) > column else None for fields in cells]
    return found


def _column_reader(delimiter: str, column: int) -> Callable[[list[str]], list[float | None]]:
    # Each row is split only as far as the column, and only its cell stripped: a table's other cells are not read.
    separator = None if delimiter == ' ' else delimiter

    def values(rows: list[str]) -> list[float | None]:
        cells = [line.split(separator, column + 1) for line in rows]
        return [_number(row[column].strip()) if len(row) > column else None for row in cells]

    return values


def _ranked(
    values: list[float | None], starts: list[int], direction: int, within: set[int] | None, wanted: int
) -> list[int]:
    """Where the rows with the most extreme values start, most extreme first (the first of equal ones first).

    With a group the request names (`within`), the group's most extreme rows come first, half of the `wanted`,
    then the most extreme of all: "the least covered click modules" may also mean the least covered of all.
    """
    ranked = [(value * direction, -index) for index, value in enumerate(values) if value is not None]
    overall = [starts[-index] for _, index in _plateaus(heapq.nlargest(EXTREME_ROWS, ranked), ranked)]
    if within is None:
        return overall
    grouped = [(value, index) for value, index in ranked if -index in within]
    if len(grouped) < max(EXTREME_GROUPS, GROUP_SHARE * len(ranked)):
        # The group holds no numbers of its own (a file's name above its rows), or a sliver of the rows (the project
        # named in the request, `Sphinx`, in three of three thousand functions' names): no group of them.
        return overall
    first = [starts[-index] for _, index in heapq.nlargest(max(1, wanted // 2), grouped)]
    return first + [start for start in overall if start not in first]


def _plateaus(top: list[tuple[float, int]], ranked: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """`top` (the most extreme of `ranked`, each a value and its row's negated index) with a value held by more rows
    than it shows (a memory column at its limit for a hundred samples) shown by its first and last rows: when the
    plateau began and when it ended, not six rows of it side by side."""
    out: list[tuple[float, int]] = []
    for value, group in itertools.groupby(top, key=operator.itemgetter(0)):
        rows = list(group)
        if len(rows) > 2:
            last = min(index for held, index in ranked if held == value)  # the latest row (indices are negated)
            rows = [rows[0], (value, last)]
        out += rows
    return out


def _extreme_picks(
    view: TextView,
    starts: list[int],
    first_rank: int,
    parent_of: Callable[[TextView, Span], Span | None] | None = None,
    focus: Mapping[int, int] | None = None,
) -> list[Pick]:
    """Each row from `starts` at its rank's priority; the first few also with the line that says what they belong to
    (`parent_of`, by default the unindented line above an indented row), should that pair fit. `focus`: per row, where
    its measure is (a row cut to fit keeps it)."""
    parent_of = parent_of or heading_of
    picks: list[Pick] = []
    for rank, start in enumerate(starts, start=first_rank):
        span = view.line_at(start)
        priority = EXTREME_PRIORITY - rank * 0.01
        parent = parent_of(view, span) if rank < EXTREME_GROUPS else None
        at = focus.get(start, -1) if focus is not None else -1
        if parent is not None:
            picks.append(Pick(priority, (parent, span), 'extreme', at))
        picks.append(Pick(priority - 0.005, (span,), 'extreme', at))  # should the pair not fit, the row alone may
    return picks


def _history_extremes(view: TextView, direction: int, subjects: tuple[str, ...]) -> list[Pick]:
    """In `git log --stat` or `--numstat`, the changes to the files the request names with the most (or fewest) lines,
    each with its commit's first line: "which commit rewrote most of StringUtils.java, and did ArrayUtils get the
    same". Not without a file named: a history's largest changes are not what its newest commits are read for."""
    if view.total > LARGEST_SCAN_CHARS or not subjects:
        return []
    text, end = view.text, view.end
    whole = text[:end].lower()
    groups: list[tuple[list[int], list[str], int]] = []  # where a term's rows start, the rows, the field measuring them
    most = min(HISTORY_ROWS, whole.count('\n') // 4)
    for subject in subjects[:HISTORY_TERMS_TRIED]:
        if not EXTREME_GROUPS <= whole.count(subject) <= most:
            continue  # one C pass rules out a term on too few places to be a file's rows, or on too many
        # A term the request names that a group of rows holds, as a name of its own (not `stringutils.java` inside
        # `RandomStringUtils.java`), with a number in one field: a file's rows (a word of commit subjects holds none).
        starts: dict[int, None] = {}
        place = whole.find(subject)
        while place != -1:
            if place == 0 or not (whole[place - 1].isalnum() or whole[place - 1] in '_.-'):
                starts.setdefault(whole.rfind('\n', 0, place) + 1)
            place = whole.find(subject, place + 1)
        held = list(starts)
        if len(held) < EXTREME_GROUPS or any(set(held) <= set(rows_at) for rows_at, _, _ in groups):
            continue
        rows = [view.content(view.line_at(start)) for start in held]
        position = _measured_field(rows[:SUBJECT_ROWS_READ])
        if position is not None:
            groups.append((held, rows, position))
            if len(groups) == HISTORY_SUBJECTS:
                break
    picks: list[Pick] = []
    for order, (held, rows, position) in enumerate(groups):
        read = _field_reader(position)
        values = [_measure(field) if (field := read(row)) is not None else None for row in rows]
        wanted = EXTREME_GROUPS - order  # the first file named is what was asked about most
        for rank, start in enumerate(_ranked(values, held, direction, None, wanted)[:wanted]):
            span = view.line_at(start)
            above = text.rfind('\ncommit ', max(0, start - HEADING_REACH), start)
            commit = view.line_at(above + 1) if above != -1 else None
            commit = commit if commit is not None and _COMMIT.match(view.content(commit)) else None
            priority = EXTREME_PRIORITY - order * 0.1 - rank * 0.01
            if commit is not None:
                picks.append(Pick(priority, (commit, span), 'extreme'))
            picks.append(Pick(priority - 0.005, (span,), 'extreme'))
    picks.sort(key=lambda pick: -pick.priority)
    return picks


HISTORY_SUBJECTS = 2
"""Files a request names whose largest changes a history's preview shows, the first named first."""
HISTORY_TERMS_TRIED = 12
HISTORY_ROWS = 1_000
"""Places of a term beyond which it is no file's rows (`commit`, a year): a quarter of the lines, at most this many."""
SUBJECT_ROWS_READ = 64
"""Rows holding what the request names read for the field that measures them."""


def heading_of(view: TextView, span: Span) -> Span | None:
    """For an indented row, the unindented line it sits under (within the context search's reach); where every line is
    indented (csvstat's ` 57. "2012"` over its tab-indented statistics), the nearest line above indented less."""
    content = view.content(span)
    if not content[:1].isspace():
        return None
    newline = view.last_unindented(span[0], HEADING_REACH)
    if newline != -1:
        return view.line_at(newline + 1)
    first = view.line_at(0)  # the text's first line has no line break before it
    if span[0] < HEADING_REACH and not view.content(first)[:1].isspace():
        return first
    depth = _indent_width(content)
    for above in view.backward(span, HEADING_LINES):
        line = view.content(above)
        if line.strip() and _indent_width(line) < depth:
            return above
    return None


HEADING_LINES = 40
"""Lines above an indented row looked through for the one indented less, where no line is unindented."""


def _indent_width(line: str) -> int:
    """How far a line is indented, a tab counted to the next multiple of eight."""
    expanded = line.expandtabs()
    return len(expanded) - len(expanded.lstrip())


HEADING_REACH = 64 * 1024


def _history_digest(view: TextView, head: list[Span], variant: str) -> list[Pick]:
    """The newest commits first: their hash and subject (and, in full `git log`, the commit line with it)."""
    if variant == 'blame':
        return []  # the file's lines in its own order: what the request names in them is what is read for
    if variant == 'hg':
        return [
            Pick(300 - index, (span, *_changeset_fields(view, span, ())), 'commit')
            for index, span in enumerate(s for s in head if view.content(s).startswith('changeset:'))
        ]
    if variant != 'git':
        # One commit a line, newest first: the head is the recent history a question is most often about.
        return [
            Pick(300 - index * 0.01, (span,), 'commit') for index, span in enumerate(head) if view.content(span).strip()
        ]
    picks: list[Pick] = []
    for index, span in enumerate(s for s in head if view.content(s).startswith('commit ')):
        subject = next((s for s in view.forward(span, 8) if view.content(s).startswith('    ')), None)
        spans = (span,) if subject is None else (span, subject)
        picks.append(Pick(300 - index, spans, 'commit'))
    return picks


_DIFF_FILES = 60


def _diff_digest(view: TextView) -> list[Pick]:
    """A diff: the line opening each file's patch (`diff --git ...`, else `+++ path`), and what the tool that made
    it said of each file on a line of its own before the patch (`ERROR: x.py Imports are incorrectly sorted`,
    `would reformat x.py`): its verdicts, above the patches' headers."""
    picks: list[Pick] = []
    text = view.text
    position = 0 if text.startswith('diff ') else text.find('\ndiff ')
    while position != -1 and len(picks) < _DIFF_FILES:
        start = position + (0 if position == 0 and text.startswith('diff ') else 1)
        span = view.line_at(start)
        picks.append(Pick(DIFF_FILE_PRIORITY - len(picks) * 0.01, (span,), 'file'))
        position = text.find('\ndiff ', span[1])
    verdicts: list[Span] = []
    files = 0
    position = 0 if text.startswith('--- ') else text.find('\n--- ')
    while position != -1 and files < _DIFF_FILES:
        old_path = view.line_at(position + (0 if position == 0 and text.startswith('--- ') else 1))
        new_path = view.next_line(old_path)
        position = text.find('\n--- ', old_path[1])
        if new_path is None or not view.content(new_path).startswith('+++ '):
            continue
        files += 1
        if not picks:
            picks.append(Pick(DIFF_FILE_PRIORITY - files * 0.01, (new_path,), 'file'))
        above = view.previous_line(old_path)
        if above is not None and _tool_line(view.content(above)):
            verdicts.append(above)
    # The first verdicts and the last: how it starts and where it ended.
    for rank, span in enumerate([*verdicts[:VERDICTS], *verdicts[VERDICTS:][-1:]]):
        picks.append(Pick(VERDICT_PRIORITY - rank * 0.01, (span,), 'summary'))
    # `diff -r` says on a line of its own which files one side lacks: the files removed or added, whole.
    position = 0 if text.startswith(_ONE_SIDE) else text.find('\n' + _ONE_SIDE)
    for rank in range(ONE_SIDED):
        if position == -1:
            break
        span = view.line_at(position + (1 if text[position] == '\n' else 0))
        picks.append(Pick(ONE_SIDED_PRIORITY - rank * 0.01, (span,), 'summary'))
        position = text.find('\n' + _ONE_SIDE, span[1])
    return picks


DIFF_FILE_PRIORITY = 322.0
"""Over the lines a request's common words find in the patches (320): which files changed says more than a comment
line holding `public`."""
_ONE_SIDE = 'Only in '
ONE_SIDED = 4
"""Lines of `diff -r` naming a file only one side has (`Only in old/src: removed.py`) shown, the first ones."""
ONE_SIDED_PRIORITY = 458.0
"""With a table's header: which files went or came is the first thing a comparison of two trees says."""


VERDICTS = 3
"""The first of a diff tool's per-file verdicts shown (and its last)."""
VERDICT_PRIORITY = 340.0


def _tool_line(line: str) -> bool:
    """Whether a line in a diff is the tool speaking, not the patch: not blank, not a hunk's or a header's line."""
    return bool(line.strip()) and not line.startswith(_PATCH_LINE)


_PATCH_LINE = (
    ' ',
    '+',
    '-',
    '@@',
    '\\',
    'diff ',
    'index ',
    'new file',
    'deleted file',
    'similarity',
    'rename ',
    'old mode',
    'new mode',
    'Binary files',
    'commit ',
    'Author:',
    'Date:',
)


_SYSCALL_MARKERS = (
    ('execve(', 320.0, 0),
    ('connect(', 318.0, 0),
    ('+++ exited', 330.0, 64 * 1024),
    ('exit_group(', 329.0, 0),
    ('+++ killed', 330.0, 64 * 1024),
    ('write(2,', 325.0, 256 * 1024),
)
"""(marker, priority, how far from the end to look; 0: anywhere). Exits and stderr writes come last."""
_HARMLESS_ERRNO = ('ENOENT', 'EAGAIN', 'ENOTTY', 'EINPROGRESS', 'ENOSYS', 'ENODATA', 'ENXIO', 'ECHILD', 'EEXIST')
_MARKER_HITS = 16
_FAILED_CALL_PROBES = 120
"""Failed calls looked at from each end of a trace: programs probe search paths by the thousand (ENOENT)."""


def _syscall_digest(view: TextView, tail: list[Span]) -> list[Pick]:
    """A syscall trace: processes started, connections, failures other than lookups, writes to stderr, exits."""
    text = view.text
    picks: list[Pick] = []
    # Every marker in one scan where an engine serves (a marker on more lines than it needs is searched).
    listed = literal_places(text, [(marker, False) for marker, _, _ in _SYSCALL_MARKERS], cap_each=4 * _MARKER_HITS)
    for index, (marker, priority, window) in enumerate(_SYSCALL_MARKERS):
        floor = max(0, view.total - window) if window else 0
        lines = view.lines_holding(marker, floor, view.total, listed[index] if listed is not None else None)
        for found, span in enumerate(lines):
            if found >= _MARKER_HITS:
                break
            picks.append(Pick(priority - found * 0.01, (span,), 'syscall'))
    seen: set[int] = set()
    failed = 0
    # From the end back (the failure that ends a run sits late), then from the start forward.
    position, probes = text.rfind('= -1 E'), 0
    while position != -1 and probes < _FAILED_CALL_PROBES:
        span = view.line_at(position)
        probes += 1
        if _failed_call(text, position) and span[0] not in seen:
            seen.add(span[0])
            picks.append(Pick(340 - failed * 0.01, (span,), 'failed call'))
            failed += 1
        position = text.rfind('= -1 E', 0, span[0])
    position, probes = text.find('= -1 E'), 0
    while position != -1 and probes < _FAILED_CALL_PROBES // 2:
        span = view.line_at(position)
        probes += 1
        if _failed_call(text, position) and span[0] not in seen:
            seen.add(span[0])
            picks.append(Pick(339 - failed * 0.01, (span,), 'failed call'))
            failed += 1
        position = text.find('= -1 E', span[1])
    return picks


def _failed_call(text: str, position: int) -> bool:
    errno = text[position + 5 : position + 24].split(' ', 1)[0]
    if errno == 'ENOENT':
        # A lookup that found nothing is how programs probe; a call that creates (`O_CREAT`) or one that is no lookup
        # (`getcwd` in a directory since removed) found something missing that it needed.
        line = text[text.rfind('\n', 0, position) + 1 : position]
        call = _CALL_NAME.search(line)
        return 'O_CREAT' in line or (call is not None and (call.group(1) or call.group(2)) not in _LOOKUPS)
    return errno not in _HARMLESS_ERRNO


_CALL_NAME = re.compile(r'(?:<\.\.\. ([a-z_0-9]+) resumed>|(?<![\w.])([a-z_][a-z_0-9]*)\()')
_LOOKUPS = frozenset(
    (
        *('open', 'openat', 'openat2', 'stat', 'lstat', 'fstatat', 'newfstatat', 'statx', 'access', 'faccessat'),
        *('faccessat2', 'readlink', 'readlinkat', 'execve', 'execveat', 'getxattr', 'lgetxattr', 'unlink', 'unlinkat'),
        *('mkdir', 'mkdirat', 'rmdir', 'inotify_add_watch', 'connect', 'chdir', 'opendir', 'getdents64'),
    )
)
"""Calls whose ENOENT says a path was tried and passed over (a search path, a cache probe, a stale socket)."""


_PYTEST_FAILED = re.compile(r'(?:FAILED|ERROR) \S+')


_FAILURE_BLOCKS = 20


SECTION_ROWS = 3
"""First lines of a section a test run's report ends with (`slowest 15 durations`) shown under its banner."""
_SECTION_BANNER = re.compile(
    r'(?:={3,}|-{3,}) (?!.*\b(?:passed|failed|error|errors|skipped|no tests ran)\b)(.+?) (?:={3,}|-{3,})$'
)
"""A banner opening a section of a test run's report; not its final count line (`=== 3 passed in 1s ===`)."""


def _test_digest(view: TextView, tail: list[Span]) -> list[Pick]:
    """A test run: the failed tests' summary lines, where each failure was raised, its first `E` line; and
    the first lines of each section its report ends with (the slowest tests of a sorted durations list)."""
    picks: list[Pick] = []
    text = view.text
    # With `-vv` or `-l` each summary line carries its diff under it: the summary outgrows the last lines.
    banner = text.rfind(_SUMMARY_BANNER, max(0, view.total - SUMMARY_REACH))
    failed = list(_summary_lines(view, banner)) if banner != -1 else []
    for span in failed or tail:
        if _PYTEST_FAILED.match(view.content(span)):
            picks.append(Pick(440 - len(picks) * 0.01, (span,), 'failed'))
    sections = 0
    for index, span in enumerate(tail[:-1]):
        if _SECTION_BANNER.match(view.content(span).rstrip()):
            rows = [row for row in tail[index + 1 : index + 1 + SECTION_ROWS] if view.content(row).strip()]
            rows = rows[: next((i for i, row in enumerate(rows) if view.content(row).startswith(('=', '-'))), None)]
            if rows:
                picks.append(Pick(425 - sections * 0.01, (span, *rows), 'section'))
                sections += 1
    durations = _durations(view, tail)
    if durations:
        picks.append(Pick(425 - sections * 0.01, tuple(durations), 'section'))
    picks += _skip_reasons(view, banner)
    # Failure blocks open with `____ test_name ____`; each ends with its location line (`file:line: Error`). Where
    # no summary line names the failed tests (a run with `-q` and its own `-r`), the titles are what name them.
    named = any(pick.role == 'failed' for pick in picks)
    position, blocks = text.find('\n__'), 0
    while position != -1 and blocks < _FAILURE_BLOCKS:
        span = view.line_at(position + 1)
        following = text.find('\n__', span[1])
        banner = text.find('\n=', span[1], following if following != -1 else view.total)
        stop = banner if banner != -1 else following if following != -1 else view.end
        if _FAILURE_HEADER.match(view.content(span)):
            last = view.line_at(_last_content(text, span[1], stop))
            if _LOCATION.match(view.content(last)):
                picks.append(Pick(435 - blocks * 0.01, (last,), 'location'))
            first_e = text.find('\nE ', span[1], stop)
            if first_e != -1:
                picks.append(Pick(430 - blocks * 0.01, (view.line_at(first_e + 1),), 'failure'))
                # With the exception the test saw: the last of a chain (the first, above, is what caused it).
                raised = text.find('\nE ', _raised_from(text, first_e, stop), stop) if not named else -1
                if raised != -1:
                    picks.append(Pick(437 - blocks * 0.01, (span, view.line_at(raised + 1)), 'failed'))
            blocks += 1
        position = following
    if not blocks:
        picks += _unittest_blocks(view)
    return [*picks, *_panics(view)]


_CTEST_FAILED = re.compile(r'^ *\d+/\d+ Test +#(\d+): \S+ [ .]*\*\*\*[A-Z]', re.MULTILINE)
"""CTest's line for a test that failed (`26/28 Test #26: test_json_pointer ....***Failed  1.11 sec`): its number."""
CTEST_CAUSES = 4
"""Failed tests whose own first failure line is shown, at most."""
CTEST_REACH = 256 * 1024
"""Characters above a failed test's line searched for that line: its own output, which `ctest -V` prints before it."""
CTEST_CAUSE_PRIORITY = 436.0
"""Just under the failed tests' lines (437-440): why each failed."""


def _ctest_causes(view: TextView) -> list[Pick]:
    """For each test `ctest -V` reports failed, the first line of its own output (each line under its number, `26: `)
    that says what failed (`26: ERROR: valgrind found errors during execution:`), past the shell's trace of the
    commands it ran (`26: + echo ERROR: ...`)."""
    text = view.text
    picks: list[Pick] = []
    for failed in islice(_CTEST_FAILED.finditer(text, 0, view.end), CTEST_CAUSES):
        number = failed.group(1)
        cause = re.compile(
            rf'^{number}: (?!\+ )[^\n]*?(?:ERROR|FAIL|[Ee]rror:|Assertion|Segmentation fault|definitely lost: [1-9])',
            re.MULTILINE,
        ).search(text, max(0, failed.start() - CTEST_REACH), failed.start())
        if cause is not None:
            picks.append(Pick(CTEST_CAUSE_PRIORITY - 0.01 * len(picks), (view.line_at(cause.start()),), 'failure'))
    return picks


_FAILED_TEST_MARKS = (
    *('--- FAIL: ', 'not ok ', '\u2715 ', '\u2716 ', '\u2717 ', '\u2718 ', '\u00d7 ', 'Failure: ', 'Error: ', '***'),
    *('[FAIL]', '[ERROR]', '[  FAILED  ] ', '(FAILED - ', '...*failed*'),
)
"""Literals the lines naming a failed test hold, in the runners' words: Go's `--- FAIL: TestX (0.00s)`, TAP's
`not ok 2 - ...` (prove, node's tap), the crosses of Jest, node's runner and others (`✕ parses ...`, `✖ renders`,
PHPUnit's testdox `✘ Inflecting plurals with data set #101`),
test-unit's `Failure: test_x(Case)` (`Error: test_x(Case)` for one that raised), CTest's
`26/28 Test #26: name ...***Failed`, trial's `    test_x ...   [FAIL]`, GoogleTest's
`[  FAILED  ] suite.name (0 ms)`, RSpec's documentation format (`  returns nil for #port (FAILED - 3)`), EUnit's
verbose one (`  jsx_to_json:404: -handle_event_test_/0-fun-3- (1.0e3)...*failed*`)."""
_FAILED_TEST = re.compile(
    r'[ \t]*(?:--- FAIL: \S|not ok \d+(?![^\n#]*#\s*(?:TODO|SKIP))|[\u2715\u2716\u2717\u2718\u00d7] \S'
    r'|(?:Failure|Error): test\w*\('
    r'|\d+/\d+ Test +#\d+: \S+ [ .]*\*\*\*[A-Z]'
    r'|\w+ \.\.\. +\[(?:FAIL|ERROR)\]$'
    r'|\[  FAILED  \] \S+ \(\d+ ms\)$'  # GoogleTest's verdict on one test (its list at the end has no time)
    r'|\S[^\n]* \(FAILED - \d+\)$'  # RSpec's example, under the groups it is in
    r'|\S[^\n]*\.\.\.\*failed\*$)'
)
"""The whole of such a line's opening: a TAP test marked `# TODO` or `# SKIP` was expected to fail."""
_TESTS_FAILED = re.compile(
    r'\b(?:tests?|examples?)\b.*\bfail|\bfail.*\b(?:tests?|examples?)\b|\bfailed: *[1-9]\d*\b.*\bpassed: *\d'
)
"""A test run's tally of failures, lowercased: `tests: 1 failed, 793 passed`, `606 tests, ... 3 failures`,
`failed 1/63 test programs`, `failed: 36.  skipped: 0.  passed: 2143.`"""
FAILED_TESTS = 6
"""Failed tests' lines shown, the first of them; the first few with the line under each (what failed, where)."""
FAILED_TEST_NOTES = 3
"""The first failed tests shown with the line under each, when it is no other test's."""
FAILED_TEST_READ = 64
"""Places of one literal looked at for failed tests, at most."""
_TEST_LINES = ('--- ', '=== ', 'ok ', 'not ok ', '\u2713 ', '\u2714 ', '\u221a ', '\u2715 ', '\u2716 ', '\u2718 ')
"""How a line about another test opens: Go's, TAP's, Jest's."""
FAILED_TEST_PRIORITY = 438.0
"""Under a pytest run's own `FAILED` summary lines, over the rest of a run's digest."""


def _failed_test_marks(text: str, utf8: bytes | None) -> list[list[int] | None] | None:
    """Where each of `_FAILED_TEST_MARKS` begins in `text` (up to `FAILED_TEST_READ` places each; `None` for a mark
    with more), from one scan of its UTF-8 (`utf8` when the caller has it, as a spill does) by a multi-literal engine:
    a search per mark reads a megabyte a dozen times, most of them for marks of other runners that are nowhere in it.
    `None` without an engine."""
    data = utf8 if utf8 is not None else text.encode('utf-8', 'surrogatepass')
    found = literal_places_utf8(data, [(mark, False) for mark in _FAILED_TEST_MARKS], cap_each=FAILED_TEST_READ)
    if found is None:
        return None
    offsets = char_offsets(text, data, {place for places in found if places for place in places})
    return [[offsets[place] for place in places] if places is not None else None for places in found]


def failed_tests(view: TextView, shape: Shape, tail: list[Span], utf8: bytes | None = None) -> list[Pick]:
    """The lines naming the tests that failed, in a test run of a runner without a digest of its own (Go, TAP, Jest,
    test-unit): read when the run says it is one (its shape, or a tally of failed tests at its end). A Go
    run's parent tests fail with each subtest: the innermost say which."""
    if shape.variant == 'pytest':
        return []
    if shape.kind is not ShapeKind.test_run:
        ending = [line for span in tail if 'fail' in (line := view.content(span).lower())]
        if not any(_TESTS_FAILED.search(line) for line in ending):
            return []
    text = view.text
    found: dict[Span, int] = {}  # each line, with its indentation
    scanned = _failed_test_marks(text, utf8)
    for index, mark in enumerate(_FAILED_TEST_MARKS):
        places = scanned[index] if scanned is not None else None
        if places is not None:
            spans = view.lines_holding(mark, 0, view.total, places)
        else:
            spans = view.lines_holding(mark, 0, view.total)  # searched: more places than a scan reports, or no engine
        for span in itertools.islice(spans, FAILED_TEST_READ):
            line = view.content(span)
            if _FAILED_TEST.match(line):
                found[span] = len(line) - len(line.lstrip())
    spans = sorted(found)
    # A Go parent (`--- FAIL: TestToml (0.06s)`) is followed by its failed subtests, indented deeper.
    leaves = [
        span
        for index, span in enumerate(spans)
        if not (
            view.content(span).lstrip().startswith('--- FAIL: ')
            and index + 1 < len(spans)
            and found[spans[index + 1]] > found[span]
        )
    ]
    # A runner that lists its failures again under its summary (node's `✖ failing tests:`) names each twice: once is
    # enough, and none a line of the tail shows already.
    shown = {view.content(span) for span in tail}
    named: list[Span] = []
    for span in leaves:
        content = view.content(span)
        if content.rstrip().endswith(':') or (content in shown and span not in tail):
            continue
        shown.add(content)
        named.append(span)
    picks: list[Pick] = _rspec_failures(view) if any(_RSPEC_FAILED.search(view.content(s)) for s in named) else []
    for rank, span in enumerate(named[:FAILED_TESTS]):
        priority = FAILED_TEST_PRIORITY - rank * 0.01
        if rank < FAILED_TEST_NOTES and (messages := _gtest_messages(view, span)):
            # GoogleTest prints what an assertion compared above its verdict, after the line that started the test.
            picks.append(Pick(priority, (*messages, span), 'failed'))
        if rank < FAILED_TEST_NOTES and (tap := _tap_failure(view, span)):
            # A TAP assertion says what it checked, not which test: the test's title above it, and where it failed from
            # the diagnostics under it (`at: Test.<anonymous> (test/parse.js:374:12)`).
            picks.append(Pick(priority, tap, 'failed'))
        if _RSPEC_FAILED.search(view.content(span)):
            picks.append(Pick(priority - 0.005, (span,), 'failed'))
            continue  # the line under it is the next example: RSpec says what failed in its list of failures
        below = view.next_line(span)
        # A runner that draws a gutter down a failure's message (PHPUnit's testdox: `   │`) opens it with a bare one.
        gutter: list[Span] = []
        while below is not None and len(gutter) < 2 and _BARE_GUTTER.fullmatch(view.content(below)):
            gutter.append(below)
            below = view.next_line(below)
        # The line under it says what failed or where (`test_x.rb:42:in ...`, `# Failed test ...`), unless it is the
        # next test's (Go prints a test's messages above its verdict).
        note = view.content(below).lstrip() if below is not None else ''
        other_test = note.startswith(_TEST_LINES) or (below is not None and _OTHER_TESTS.match(view.content(below)))
        if rank < FAILED_TEST_NOTES and below is not None and note and not other_test:
            # A note that introduces what follows (`Expected values to be strictly equal:`) brings it: the values.
            shown_with = _introduced(view, below) if note.rstrip().endswith(':') else None
            if shown_with is not None:
                picks.append(Pick(priority + 0.001, (span, *gutter, below, shown_with), 'failed'))
            picks.append(Pick(priority, (span, *gutter, below), 'failed'))
        picks.append(Pick(priority - 0.005, (span,), 'failed'))
    return picks


_BARE_GUTTER = re.compile(r'[ \t]*[\u2502\u2503|][ \t]*')
"""A line of nothing but a gutter's bar."""
_RSPEC_FAILED = re.compile(r' \(FAILED - \d+\)$')
_RSPEC_FAILURE = re.compile(r'\n  (\d+)\) \S')
"""A failure's title in RSpec's list of them under `Failures:` (`  3) Addressable::URI when frozen returns nil ...`)."""
RSPEC_FAILURE_LINES = 3
"""Lines shown of a failure in RSpec's list, past its title: the expectation that failed (`Failure/Error: ...`), then
what it found (`expected: nil`, `got: 80`; an exception's class and message)."""


def _rspec_failures(view: TextView) -> list[Pick]:
    """The first failures of RSpec's list under `Failures:`, each its title and what failed: the expectation, and what
    was expected and got (or the exception raised), not the backtrace under them (`# ./spec/x_spec.rb:26:in ...`)."""
    text, end = view.text, view.end
    start = text.find('\nFailures:\n')
    if start == -1:
        return []
    picks: list[Pick] = []
    for rank, found in enumerate(itertools.islice(_RSPEC_FAILURE.finditer(text, start, end), FAILED_TEST_NOTES)):
        title = view.line_at(found.start() + 1)
        lines = [title]
        line = view.next_line(title)
        while line is not None and len(lines) <= RSPEC_FAILURE_LINES:
            content = view.content(line).strip()
            if _RSPEC_FAILURE.match('\n' + view.content(line)) or content.startswith('# '):
                break
            if content and content != 'Failure/Error:':
                lines.append(line)
            line = view.next_line(line)
        picks.append(Pick(FAILED_TEST_PRIORITY - 0.5 - rank * 0.01, tuple(lines), 'failed'))
    return picks


GTEST_MESSAGE_LINES = 5
"""Lines a failed GoogleTest test printed that are shown above its verdict: its first assertion's place, what it
expected, and the values compared."""
GTEST_REACH = 64
"""Lines above a failed GoogleTest verdict searched for the line that started its test."""


def _gtest_messages(view: TextView, span: Span) -> tuple[Span, ...]:
    """For a failed GoogleTest verdict (`[  FAILED  ] suite.name (0 ms)`), the first lines its test printed after its
    `[ RUN      ]` line (`format-test.cc:1585: Failure`, the values compared); empty for another line, or when that
    start is not near."""
    if not view.content(span).startswith('[  FAILED  ] '):
        return ()
    above: list[Span] = []
    for line in view.backward(span, GTEST_REACH):
        if view.content(line).startswith('[ RUN      ] '):
            return tuple(reversed(above))[:GTEST_MESSAGE_LINES]
        above.append(line)
    return ()


def _introduced(view: TextView, span: Span) -> Span | None:
    """The first line that says something under `span`, past one blank line at most: what a line ending in `:`
    introduces."""
    below = view.next_line(span)
    if below is not None and not view.content(below).strip():
        below = view.next_line(below)
    return below if below is not None and view.content(below).strip() else None


TAP_TITLE_REACH = 24
"""Lines above a failed TAP assertion searched for the title of the test it belongs to (`# parses arrays`)."""
TAP_BLOCK_LINES = 24
"""Lines of a failed TAP assertion's diagnostics (a YAML block from `---` to `...`) read for where it failed."""


def _tap_failure(view: TextView, span: Span) -> tuple[Span, ...]:
    """For a failed TAP assertion (`not ok 128 should be deeply equivalent`), the test's title above it, the assertion,
    and the `at:` line of its diagnostics; empty when it has neither a title nor such a line."""
    if not view.content(span).startswith('not ok '):
        return ()
    title: Span | None = None
    for line in view.backward(span, TAP_TITLE_REACH):
        content = view.content(line)
        if content.startswith('# ') and content[2:3].strip():
            title = line  # `# parses arrays`, not a diagnostic (`#   Failed test 'x'`) of an assertion above
            break
        if not content.startswith(('ok ', 'not ok ', '#', ' ', '\t')):
            break  # past the stream of this test's assertions and their diagnostics
    at: Span | None = None
    below = view.next_line(span)
    if below is not None and view.content(below).strip() == '---':
        for line in view.forward(below, TAP_BLOCK_LINES):
            content = view.content(line).strip()
            if content == '...':
                break
            if content.startswith('at: '):
                at = line
                break
    if title is None and at is None:
        return ()
    return tuple(line for line in (title, span, at) if line is not None)


PANICS = 2
"""Panics of a Rust test run shown with what they say, the first ones (each test's own block)."""
PANIC_LINES = 3
"""Lines after a panic's place shown with it: the assertion and its two sides (`left:`, `right:`)."""
_PANIC = ' panicked at '
PANIC_READ = 64
"""Panics looked at for ones of other tests, at most."""
PANIC_SCAN_CHARS = 128 * 1024
"""Characters at a text's end searched for panics."""


def _panics(view: TextView) -> list[Pick]:
    """A Rust program's or test run's first panics (`thread 'tests::x' panicked at src/lib.rs:12:9:`), each with the
    lines under it up to a blank line or a note: the assertion that failed and the values it compared, what `cargo
    test` says of a failure where pytest has its `E` lines. One panic a thread: a test's later ones repeat its first."""
    text = view.text
    picks: list[Pick] = []
    threads: set[str] = set()
    # In the last `PANIC_SCAN_CHARS` only: a test run reports its panics under `failures:` at its end, and a search of
    # a whole megabyte outside ASCII costs half a millisecond, on every log.
    place = text.find(_PANIC, max(0, view.end - PANIC_SCAN_CHARS), view.end)
    for _ in range(PANIC_READ):
        if place == -1 or len(picks) == PANICS:
            break
        span = view.line_at(place)
        thread = text[span[0] : place]
        if thread not in threads and text.startswith('thread ', span[0]):
            threads.add(thread)
            said: list[Span] = []
            for following in view.forward(span, PANIC_LINES):
                line = view.content(following)
                if not line.strip() or line.startswith('note:'):
                    break
                said.append(following)
            picks.append(Pick(430 - len(picks) * 0.01, (span, *said), 'failure'))
        place = text.find(_PANIC, span[1], view.end)
    return picks


JUNIT_FAILURES = 8
"""Failed test cases of a JUnit report shown at most, the first ones."""
JUNIT_FAILURE_LINES = 4
"""Lines of a failure's message shown under its test case, when there is room."""
JUNIT_PRIORITY = 432.0
"""Where a JUnit report's failed suites and cases rank: what the run is read for, as a panic is."""
_JUNIT_FAILED = re.compile(r'<(?:failure|error)\b')
_JUNIT_CASE = re.compile(r'[ \t]*<testcase\b')
_JUNIT_SUITE = re.compile(r'[ \t]*<testsuite\b')


def _junit_failures(view: TextView, head: list[Span]) -> list[Pick]:
    """A JUnit XML report (bats', pytest's, Maven's, busted's): each failed case with the suite it is in, once each,
    then the first lines of its failure, where it failed and what it compared. Its passing cases, which are nearly all
    of it, say nothing."""
    if not any(_JUNIT_SUITE.match(view.content(span)) for span in head):
        return []
    text = view.text
    picks: list[Pick] = []
    suites: set[Span] = set()
    place = _JUNIT_FAILED.search(text, 0, view.end)
    while place is not None and len(picks) < 2 * JUNIT_FAILURES:
        failed = view.line_at(place.start())
        case = next((line for line in view.backward(failed, 2) if _JUNIT_CASE.match(view.content(line))), None)
        suite = _suite_above(view, failed)
        spans = [span for span in (suite, case) if span is not None and span not in suites]
        if suite is not None:
            suites.add(suite)
        rank = len(picks)
        picks.append(Pick(JUNIT_PRIORITY - rank * 0.01, (*spans, failed), 'failure'))
        message: list[Span] = []
        opened = view.content(failed)
        if '</failure>' not in opened and '</error>' not in opened and not opened.rstrip().endswith('/>'):
            for line in view.forward(failed, JUNIT_FAILURE_LINES):
                message.append(line)
                if '</failure>' in view.content(line) or '</error>' in view.content(line):
                    break
        if message:
            picks.append(Pick(JUNIT_PRIORITY - 30 - rank * 0.01, tuple(message), 'failure'))
        place = _JUNIT_FAILED.search(text, failed[1], view.end)
    return picks


def _suite_above(view: TextView, span: Span) -> Span | None:
    """The line opening the `<testsuite>` a line is in: the nearest above within `JUNIT_SUITE_REACH` characters (not
    the `<testsuites>` around them all)."""
    text = view.text
    floor = max(0, span[0] - JUNIT_SUITE_REACH)
    found = text.rfind('<testsuite', floor, span[0])
    while found != -1:
        line = view.line_at(found)
        if (
            text[found + len('<testsuite') : found + len('<testsuite') + 1] in (' ', '>', '\t')
            and not text[line[0] : found].strip()
        ):
            return line
        found = text.rfind('<testsuite', floor, found)
    return None


JUNIT_SUITE_REACH = 64 * 1024
"""Characters above a failure looked through for the suite it is in."""


SLOWEST_TESTS = 2
"""Rows of pytest's `--durations` report shown under its banner when the request asks for the slowest tests: the
answer, leaving the room to the failures a run may report too."""
_DURATIONS = re.compile(r'=+ slowest (?:\d+ )?durations =+$')
DURATION_ROWS = 5
"""The slowest tests of pytest's `--durations` report shown under its banner, wherever the report puts it."""


_CREATE_TABLE = re.compile(r'CREATE TABLE (?:IF NOT EXISTS )?((?:[\w.]|["`\[\]])+)', re.IGNORECASE)
SCHEMA_TABLES = 6
"""Tables of a SQL dump whose definitions, keys and first rows its digest shows."""
SCHEMA_REACH = 8 * 1024
"""Characters after a `CREATE TABLE` searched for the foreign keys it declares."""
SCHEMA_ROWS_REACH = 64 * 1024
"""Characters after the last table's definition searched for its first row."""
SCHEMA_PRIORITY = 436.0
_KEY_WORDS = ('FOREIGN KEY', 'foreign key', 'REFERENCES', 'references')
"""How a table's definition declares a key to another table, in either case."""


def _schema_digest(view: TextView, head: list[Span]) -> list[Pick]:
    """A SQL dump (`sqlite3 .dump`, `pg_dump`, `mysqldump`, a migration's echo): for each of its first tables the
    `CREATE TABLE` line, the foreign keys it declares (how the tables hang together) and the first row inserted into
    it (how its values are stored). Found by literal searches from each `CREATE TABLE`: nothing reads the rows."""
    text = view.text
    if not any(view.content(span).lstrip().upper().startswith(('CREATE TABLE', 'INSERT INTO')) for span in head):
        return []
    picks: list[Pick] = []
    position = text.find('CREATE TABLE')
    tables = 0
    while position != -1 and tables < SCHEMA_TABLES:
        found = _CREATE_TABLE.match(text, position)
        next_table = text.find('CREATE TABLE', position + 1)
        if found is not None:
            name = found.group(1).strip('[]"`').rsplit('.', 1)[-1].strip('[]"`')
            rank = tables * 0.1
            picks.append(Pick(SCHEMA_PRIORITY - rank, (view.line_at(position),), 'schema'))
            stop = min(position + SCHEMA_REACH, next_table if next_table != -1 else view.total)
            key = _declared_key(view, position, stop)
            if key is not None:
                picks.append(Pick(SCHEMA_PRIORITY - 1 - rank, (key,), 'schema'))
            # Its rows follow it, before the next table's definition (a dump of the schema alone has none).
            inserted = re.compile(f'INSERT INTO [\\["`]?{re.escape(name)}[\\]"`]?[ (]')
            row = inserted.search(text, position, next_table if next_table != -1 else position + SCHEMA_ROWS_REACH)
            if row is not None:
                picks.append(Pick(SCHEMA_PRIORITY - 2 - rank, (view.line_at(row.start()),), 'schema'))
            tables += 1
        position = next_table
    return picks


def _declared_key(view: TextView, start: int, stop: int) -> Span | None:
    """The first line of `[start, stop)` declaring a key to another table, outside a `--` comment."""
    text = view.text
    found: list[Span] = []
    for word in _KEY_WORDS:
        at = text.find(word, start, stop)
        while at != -1:
            span = view.line_at(at)
            if '--' not in text[span[0] : at]:
                found.append(span)
                break
            at = text.find(word, span[1], stop)
    return min(found, default=None)


def _durations(view: TextView, tail: list[Span]) -> list[Span]:
    """pytest's `slowest N durations` banner and its first rows (the slowest), when the tail does not hold them
    (`tail` empty: wherever it is)."""
    text = view.text
    # Found by its word first (a search at C speed; the banner's pattern would be tried at every `=`).
    position = text.find(' slowest ', max(0, view.total - SUMMARY_REACH))
    while position != -1 and not _DURATIONS.match(view.content(view.line_at(position))):
        position = text.find(' slowest ', position + 1)
    if position == -1 or (tail and position >= tail[0][0]):
        return []
    banner = view.line_at(position)
    rows = [row for row in view.forward(banner, DURATION_ROWS) if view.content(row)[:1].isdigit()]
    return [banner, *rows] if rows else []


VARYING = re.compile(r'"[^"]*"|\'[^\']*\'|0x[0-9a-fA-F]+|\d+')
"""What varies between two reports of one kind (the module a skip could not import, the address a fault hit, a
duplicate key's value): quoted names, addresses and numbers, taken out to compare kinds."""
SKIP_REASONS = 4
"""Distinct reasons of the skipped tests a short summary lists (`SKIPPED [2] x.py:12: could not import 'lxml'`)."""
_SKIPPED = re.compile(r'SKIPPED \[\d+\] \S+?:\d+: (.*)$')
SKIPPED_LINES = 400


def _skip_reasons(view: TextView, banner: int) -> list[Pick]:
    """The first skipped test of each reason the short summary gives (a skip for want of an option, beside the
    hundred for a missing module): what is not being run, and why."""
    if banner == -1:
        return []
    text = view.text
    position = text.find('\nSKIPPED [', banner)
    seen: set[str] = set()
    picks: list[Pick] = []
    looked = 0
    while position != -1 and len(picks) < SKIP_REASONS and looked < SKIPPED_LINES:
        looked += 1
        span = view.line_at(position + 1)
        found = _SKIPPED.match(view.content(span))
        # One reason whatever it names (`could not import 'numpy'`, `... 'scipy'`): what differs is the name.
        reason = VARYING.sub('', found.group(1)) if found is not None else None
        if reason is not None and reason not in seen:
            seen.add(reason)
            picks.append(Pick(420 - len(picks) * 0.01, (span,), 'skipped'))
        position = text.find('\nSKIPPED [', span[1])
    return picks


_UNITTEST_BLOCK = re.compile(r'(?:FAIL|ERROR): \w+ \(')


def _unittest_blocks(view: TextView) -> list[Pick]:
    """unittest's failure reports (`FAIL: test_x (pkg.Class.test_x)` under a rule of `=`): each header with the
    exception its last traceback ends in, the assertion or the error that stopped the test."""
    text = view.text
    picks: list[Pick] = []
    rule = '\n' + '=' * 20
    position, tries = text.find(rule), 0
    while position != -1 and len(picks) < _FAILURE_BLOCKS and tries < UNITTEST_RULES:
        tries += 1
        header = view.next_line(view.line_at(position + 1))
        following = text.find(rule, position + 1)
        if header is not None and _UNITTEST_BLOCK.match(view.content(header)):
            # The last traceback of the block: a chained one says what went wrong first (`ModuleNotFoundError`
            # under the loader's `ImportError: Failed to import test module`).
            end = following if following != -1 else view.total
            traceback = text.rfind('\nTraceback (most recent call last):', header[1], end)
            # Its first pick is the exception line (the innermost frame when the traceback has none).
            raised = traceback_picks(view, view.line_at(traceback + 1), 0.0)[:1] if traceback != -1 else []
            spans = (header, *raised[0].spans) if raised else (header,)
            picks.append(Pick(435 - len(picks) * 0.01, spans, 'failure'))
        position = following
    return picks


UNITTEST_RULES = 200
"""Rules of `=` looked at for unittest's failure reports (a bound for a text full of such rules)."""


_SUMMARY_BANNER = ' short test summary info '
SUMMARY_REACH = 256 * 1024
"""How far from the end a summary is looked for (a test run's, a section a log titles so)."""
SUMMARY_FAILURES = 40


def _summary_lines(view: TextView, banner: int) -> Iterator[Span]:
    """The `FAILED`/`ERROR` lines of a test run's short summary, which opens at `banner`."""
    text = view.text
    # The next place of each mark, found again only once passed: each search runs over the summary once.
    marks = {mark: text.find(mark, banner) for mark in ('\nFAILED ', '\nERROR ')}
    for _ in range(SUMMARY_FAILURES):
        found = min((place for place in marks.values() if place != -1), default=-1)
        if found == -1:
            return
        span = view.line_at(found + 1)
        yield span
        for mark, place in marks.items():
            if place == found:
                marks[mark] = text.find(mark, span[1])


_CHAINED = ('\nThe above exception was the direct cause', '\nDuring handling of the above exception')
"""The line between two exceptions of a chain, as Python and pytest print it: the test saw the last."""


def _raised_from(text: str, floor: int, stop: int) -> int:
    """Where the last exception of a failure block's chain is reported, in `text[floor:stop]`: after the last line
    saying another exception followed, or from `floor` when none does."""
    return max(floor, *(text.rfind(line, floor, stop) for line in _CHAINED))


def _last_content(text: str, floor: int, stop: int) -> int:
    """Offset inside the last non-blank line of `text[floor:stop]`."""
    while stop > floor and text[stop - 1] in ' \n':
        stop -= 1
    return max(floor, stop - 1)


@dataclass(frozen=True, slots=True)
class _CodeStyle:
    """Where a tool prints a diagnostic's code, and how to find one code's first occurrence."""

    pattern: re.Pattern[str]
    """One group: the code. Run over a whole text for a census, over single lines to recognise the style."""
    token: str
    """`{code}` in the text around it, for a C-speed search of its first occurrence."""
    whole: re.Pattern[str] | None = None
    """The same codes from a whole text, faster: opening with a literal, which the regex engine skips to, where
    `pattern` opens with `^`, `\\s*` or a look-behind and is tried at every character (3 ms per 160 KB). One that
    opens with a line break is run over the text with one in front."""

    def census(self, text: str) -> list[str]:
        """Every code in `text`, in order."""
        if self.whole is None:
            return self.pattern.findall(text)
        return self.whole.findall(self._whole_input(text))

    def holds(self, line: str) -> bool:
        """Whether `line` holds a code in this style (`pattern.search`, by the faster form where there is one)."""
        if self.whole is None:
            return self.pattern.search(line) is not None
        return self.whole.search(self._whole_input(line)) is not None

    def _whole_input(self, text: str) -> str:
        """`text` as the faster form reads it: with a line break in front when it opens with one."""
        assert self.whole is not None
        return f'\n{text}' if self.whole.pattern.startswith('\\n') else text


_CODE_STYLES = (
    _CodeStyle(re.compile(r'  \[([a-z][a-z0-9-]*)\]$', re.MULTILINE), '  [{code}]'),  # mypy
    _CodeStyle(
        re.compile(r'^\s+\d+:\d+\s+(?:error|warning)\s{2,}.*?\s{2,}(@?[\w-]+(?:/[\w-]+)*)$', re.MULTILINE),
        '  {code}\n',
        re.compile(r'\n\s+\d+:\d+\s+(?:error|warning)\s{2,}[^\n]*?\s{2,}(@?[\w-]+(?:/[\w-]+)*)(?=\n|\Z)'),
    ),  # ESLint's stylish format: the rule at the end of the line
    _CodeStyle(re.compile(r' \[(-W[\w=+-]+)\]$', re.MULTILINE), '[{code}]'),  # gcc, clang
    _CodeStyle(
        re.compile(r'(?<=\S) \[([a-z][a-z0-9]*(?:-[A-Za-z0-9.]+)+(?:,[a-z][\w.-]*)*)\]$', re.MULTILINE), ' [{code}]'
    ),  # clang-tidy: its checks by group (`[bugprone-narrowing-conversions]`, `[clang-analyzer-core.NullDereference]`)
    _CodeStyle(re.compile(r':\d+(?::\d+)?:? ([A-Z]{1,4}\d{2,5})\b'), ' {code}'),  # ruff, flake8, pylint
    _CodeStyle(
        re.compile(r'\b(?:error|warning) (TS\d{3,5}):'),
        ' {code}:',
        re.compile(r'(TS(?:(?<=\berror TS)|(?<=\bwarning TS))\d{3,5}):'),
    ),  # tsc
    _CodeStyle(
        re.compile(r'^(?:error|warning)\[([A-Z]\d{4})\]', re.MULTILINE),
        '[{code}]',
        re.compile(r'\n(?:error|warning)\[([A-Z]\d{4})\]'),
    ),  # rustc, cargo
    _CodeStyle(
        re.compile(r'^([A-Z]{1,4}\d{2,5}) (?=\S)', re.MULTILINE),
        '\n{code} ',
        re.compile(r'\n([A-Z]{1,4}\d{2,5}) (?=\S)'),
    ),  # ruff's full format
    _CodeStyle(
        re.compile(r'(?<=\S) \[([a-z][a-z0-9_-]*\.[a-z][a-z0-9_.-]*)\]$', re.MULTILINE),
        ' [{code}]',
        re.compile(r'\[(?<=\S \[)([a-z][a-z0-9_-]*\.[a-z][a-z0-9_.-]*)\]$', re.MULTILINE),
    ),  # sphinx
    _CodeStyle(
        re.compile(r'(?<=\S) \[([a-z][A-Za-z0-9_]*)\]$', re.MULTILINE),
        ' [{code}]',
        re.compile(r'\[(?<=\S \[)([a-z][A-Za-z0-9_]*)\]$', re.MULTILINE),
    ),  # cppcheck
    _CodeStyle(_CARET, ' {code} (', re.compile(_CARET.pattern.removeprefix(r'\s*'))),  # shellcheck
    _CodeStyle(
        re.compile('^' + _ISSUE.pattern, re.MULTILINE), '>> Issue: [{code}:', re.compile(r'\n' + _ISSUE.pattern)
    ),  # bandit
    _CodeStyle(
        re.compile(r'^[^\s:]+:\d+:\d+ (' + _RULE_PATH + ') ', re.MULTILINE),
        ' {code} ',
        re.compile(r'\n[^\s:\n]+:\d+:\d+ (' + _RULE_PATH + ') '),
    ),  # Biome: the rule as a path after the place, over a frame (`lib/x.js:3:7 lint/style/useTemplate  FIXABLE  ━━`)
    # codespell: the word it flags is the code, a one-off word the likely typo among names it flags everywhere.
    _CodeStyle(_SPELLING, ': {code} ==> '),
    # A check named in words run together, in brackets ending the message: Checkstyle's `[UnusedImports]`.
    _CodeStyle(re.compile(r'(?<=\S) \[([A-Z][a-z]+(?:[A-Z][a-z0-9]*)+)\]$', re.MULTILINE), ' [{code}]\n'),
    # A rule named in words run together in a column after the place: PHPMD's `Markdown.php:1642  UndefinedVariable  `.
    _CodeStyle(re.compile(r'\.[A-Za-z]\w{0,9}:\d+\s{2,}([A-Z]+[a-z]+(?:[A-Z][a-z0-9]*)+)\s{2,}\S'), '  {code}  '),
    # A code in parentheses ending the message: staticcheck's `func cache is unused (U1000)`.
    _CodeStyle(re.compile(r'(?<=\S) \(([A-Z]{1,4}\d{2,5})\)$', re.MULTILINE), ' ({code})\n'),
    # A code in brackets right after the place: luacheck's `(W113)`, a policy's `[Subroutines::RequireFinalReturn]`.
    _CodeStyle(re.compile(r':\d+(?::\d+)?:? \(([A-Z]{1,4}\d{2,5})\) '), ' ({code}) '),
    _CodeStyle(
        re.compile(r':\d+(?::\d+)?:? \[(?!(?:error|warning|info|note)\])([A-Za-z][\w.-]*(?:(?:::|/)[\w.-]+)*)\] '),
        ' [{code}] ',
    ),
    # A severity letter, then the rule as a department and a name: rubocop's `W: Lint/Void:`.
    _CodeStyle(re.compile(r':\d+(?::\d+)?: [CWEFRI]: (?:\[Correctable\] )?([A-Z]\w*/[A-Z]\w*):'), ': {code}:'),
    # The rule named in parentheses at the end, after a bracketed severity: yamllint's `[error] ... (indentation)`.
    _CodeStyle(
        re.compile(r':\d+(?::\d+)?: \[(?:error|warning)\] [^\n]*\(([a-z][a-z-]*)\)$', re.MULTILINE), ' ({code})\n'
    ),
)
CENSUS_CHARS = 256 * 1024
"""Diagnostics up to this size are counted by code in full (one regex pass, ~1 ms per 100 KB); larger ones by the
codes their sampled lines show."""
FIRST_OF_CODE = 12


@dataclass(frozen=True, slots=True)
class Census:
    """Diagnostics counted by code: `[558 diagnostics by code: no-untyped-def 227, ...]`."""

    counts: tuple[tuple[str, int], ...]
    """(code, count), most frequent first."""
    total: int

    def render(self, limit: int) -> str:
        """The census as one bracketed line of at most `limit` characters (the commonest codes first)."""
        head = f'[{self.total:,} diagnostics by code: '
        parts: list[str] = []
        for code, count in self.counts:
            part = f'{code} {count:,}'
            if len(head) + len(', '.join([*parts, part])) + len(', …]') > limit:
                break
            parts.append(part)
        rest = ', …' if len(parts) < len(self.counts) else ''
        return head + ', '.join(parts) + rest + ']'


def census(view: TextView, sample: list[Span]) -> Census | None:
    """Every diagnostic counted by code, when the text is small enough to count in one pass."""
    if view.total > CENSUS_CHARS:
        return None
    style = _code_style(view, sample)
    if style is None:
        return None
    found = style.census(view.text)
    if not found:
        return None
    counts: dict[str, int] = {}
    for code in found:
        counts[code] = counts.get(code, 0) + 1
    ordered = tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    return Census(ordered, len(found))


def _code_style(view: TextView, sample: list[Span]) -> _CodeStyle | None:
    """The style whose codes the sampled lines show most often (once per view and lines: the census asks, then the
    digest)."""
    key = tuple(sample)
    if key not in view.code_styles:
        view.code_styles[key] = _read_code_style(view, sample)
    return view.code_styles[key]


def _read_code_style(view: TextView, sample: list[Span]) -> _CodeStyle | None:
    lines = [view.content(span) for span in sample]
    best, hits = None, 0
    for style in _CODE_STYLES:
        found = 0
        for read, line in enumerate(lines):
            if found + len(lines) - read <= hits:
                break  # too few lines left for this style to hold on more than the best so far
            found += style.holds(line)
        if found > hits:
            best, hits = style, found
    # A code on a few of many findings is a tag of those few (go vet's `[amd64]` on its assembly checks), not the
    # tool's way of naming its rules.
    if best is None or hits >= CODED_SHARE * len(lines):
        return best  # on a quarter of all the lines read, so on a quarter of the findings among them at least
    return None if hits < CODED_SHARE * sum(1 for line in lines if _DIAGNOSTIC.match(line)) else best


CODED_SHARE = 0.25
"""Share of the findings read that must name a code in a style for the style to be the tool's."""


def _first(text: str, token: str) -> int:
    """Where `token` first occurs; a token that opens a line (`\\n` first) may also open the text."""
    if not token.startswith('\n'):
        return text.find(token)
    if text.startswith(token[1:]):
        return 0
    found = text.find(token)
    return found + 1 if found != -1 else -1


_SEVERITY = re.compile(
    r'\b(?:(error|fatal)|(warning)|(info|information|note|style|performance|portability))(?:\)?: |\] |\s{2,}(?=\S))',
    re.IGNORECASE,
)
"""The severity a diagnostic states before its message: `error: `, `WARNING: `, shellcheck's `(info): `, cppcheck's
`style: `, yamllint's `[error] `, ESLint's `error` padded to its column."""


_LETTERED_CODE = re.compile(r' \(([EWI])\d{3}\)$')
"""A code ending a finding that says its severity by its letter (JSHint's `(E021)` error among `(W033)` warnings)."""


def _severity(text: str, position: int) -> int:
    """How grave the diagnostic at `position` says it is: 0 for an error, 2 for a note or a style nit, 1 for a
    warning or a line that does not say."""
    line_start = text.rfind('\n', 0, position) + 1
    line_end = text.find('\n', position)
    found = _SEVERITY.search(text, line_start, line_end if line_end != -1 else len(text))
    if found is not None:
        return 0 if found.group(1) else 1 if found.group(2) else 2
    lettered = _LETTERED_CODE.search(text, line_start, line_end if line_end != -1 else len(text))
    if lettered is not None:
        return 0 if lettered.group(1) == 'E' else 1
    # A finding reported as a record states it on its next line (bandit's `   Severity: High   Confidence: ...`).
    rated = _RATED.match(text, line_end + 1) if line_end != -1 else None
    return 1 if rated is None else _RATINGS[rated.group(1).lower()]


GRAVEST = 4
"""Findings a report rates most severe (bandit's `Severity: High`) shown whatever their codes, with their places."""
GRAVEST_PRIORITY = 335.0


def _gravest_records(view: TextView) -> list[Pick]:
    """The first findings of the gravest severity a report of records rates (High, or Critical; else Medium),
    found by a search of the whole text: a large report's sampled lines hold only its commonest codes."""
    text = view.text
    for rating in ('Critical', 'High', 'Medium'):
        mark = f'   Severity: {rating}'
        position = text.find(mark)
        if position == -1:
            continue
        picks: list[Pick] = []
        while position != -1 and len(picks) < GRAVEST:
            rated = view.line_at(position + 1)
            first = _issue_record(view, rated)
            if first:
                spans = (first[0], rated, *_issue_record(view, first[0]))  # what, how grave, where
                picks.append(Pick(GRAVEST_PRIORITY - len(picks) * 0.01, spans, 'first of code'))
            position = text.find(mark, rated[1])
        return picks
    return []


_RATED = re.compile(r'\s+Severity: (Critical|High|Medium|Low|Undefined)\b', re.IGNORECASE)
_RATINGS = {'critical': 0, 'high': 0, 'medium': 1, 'low': 2, 'undefined': 2}

_FAMILY = re.compile(r'([A-Z]+)\d+$')
"""A code of letters and a number belongs to the family its letters name: `D205` to `D`, `SIM105` to `SIM`."""


def _family(code: str) -> str:
    """The family of `code` (itself when it has none: `no-untyped-def`, `-Wshadow`)."""
    found = _FAMILY.match(code)
    return found.group(1) if found else code


def _diagnostic_digest(view: TextView, shape: Shape, sample: list[Span], counted: Census | None) -> list[Pick]:
    """Diagnostics: the first of each code, rarest code first (the one-off error, not the thousandth style nit)."""
    text = view.text
    errors = _first_errors(view, shape)
    style = _code_style(view, sample)
    if style is None:
        return errors + _message_kinds(view, snippets=shape.variant == 'snippets')
    graves = _gravest_records(view) if shape.variant == 'issues' else []
    count: dict[str, int] = {}
    if counted is not None:
        count.update(counted.counts)
    else:
        for span in sample:
            for code in style.pattern.findall(view.content(span)):
                count[code] = count.get(code, 0) + 1
    firsts = {code: _first(text, style.token.format(code=code)) for code in count}
    # A code's family (its letters: `D` of `D205`) counts all its codes: a one-off code of a family that fires
    # all over (docstring style) is less telling than a one-off of a family seen once.
    family: dict[str, int] = {}
    for code, seen in count.items():
        family[_family(code)] = family.get(_family(code), 0) + seen
    # Errors and warnings before notes and style (where the tool says which); then rarest first, then rarest
    # family; among codes as rare, the one seen first.
    framed = shape.variant == 'framed'

    def severity(position: int) -> int:
        return _framed_severity(view, position) if framed else _severity(text, position)

    ordered = sorted(
        (code for code in count if firsts[code] != -1),
        key=lambda code: (severity(firsts[code]), count[code], family[_family(code)], firsts[code]),
    )
    picks: list[Pick] = []
    for rank, code in enumerate(ordered[:FIRST_OF_CODE]):
        line = view.line_at(firsts[code])
        if shape.variant == 'snippets':
            spans: tuple[Span, ...] = (line, *_arrow_pair(view, line))  # its place is on the arrow line under it
        elif shape.variant == 'carets':
            spans = (*_caret_place(view, line), line)  # its place and source are above it
        elif shape.variant == 'issues':
            spans = (line, *_issue_record(view, line))  # its place is a few lines into its record
        elif framed:
            spans = (line, *_framed_finding(view, line))  # its message and the source it marks are under it
        else:
            spans = (line,)
        picks.append(Pick(330 - rank * 0.01, spans, 'first of code'))
    return graves + errors + picks


_PLACED_MESSAGE = re.compile(r'\n[ \t]*' + _CHECKER_NAME + r'[^\s:]+:\d+(?::\d+)?:? ([^\n]+)')
"""A diagnostic's message after its place (`pkg/x_test.go:135:18: call of assert.Equal copies lock value: ...`)."""
_QUOTED_PART = re.compile(r'`[^`\n]*`|"[^"\n]*"|\'[^\'\n]*\'')
"""What a message quotes: a name, a value, a line of source."""
FIRST_OF_KIND = 6
"""Kinds of message whose first is shown: fewer than codes, told apart by words rather than by the tool's own rules."""
MESSAGE_KINDS_READ = 2000
"""Diagnostics read for their kinds of message, at most (a rare one may come after hundreds of the usual kind)."""


def _message_kinds(view: TextView, *, snippets: bool = False) -> list[Pick]:
    """A checker that prints no codes (go vet, a compiler's plain errors): its messages sorted into kinds by what they
    say once names, quoted parts and numbers are set aside, and the first of each kind, rarest kind first, as the
    first of each code is for a checker that names its rules. A hundred `composite literal uses unkeyed fields`
    make one kind; the one `copies lock value` another. With `snippets` (rustc's, clippy's), each message heads its
    finding and the arrow under it says where."""
    if view.total > CENSUS_CHARS:
        return []
    messages = (_HEADED_MESSAGE if snippets else _PLACED_MESSAGE).finditer(f'\n{view.text}', 0, view.end + 1)
    kinds = _kinds_of(itertools.islice(messages, MESSAGE_KINDS_READ))
    if len(kinds) < 2:
        return []
    # Errors and warnings before notes (a compiler's account of its own work), then the rarest kind, then the first.
    text = view.text
    ordered = sorted(kinds.values(), key=lambda kind: (_severity(text, kind[1]), *kind))[:FIRST_OF_KIND]
    # Where one kind is a good part of the report, a kind found once or twice is what a reader looks for among them
    # (a dictionary key given two values among four hundred unused imports): over what a request's words find.
    rare = set(_rare_kind_places(kinds))
    picks: list[Pick] = []
    boosted = 0
    for rank, (_, start) in enumerate(ordered):
        line = view.line_at(start)
        spans = (line, *_arrow_pair(view, line)) if snippets else (line,)
        if start in rare and boosted < RARE_FINDINGS_FIRST:
            boosted += 1
            picks.append(Pick(RARE_FINDING_PRIORITY - rank * 0.01, spans, 'rare'))
        else:
            picks.append(Pick(330 - rank * 0.01, spans, 'first of kind'))
    return picks


_HEADED_MESSAGE = re.compile(r'\n(?:warning|error)(?:\[\w+\])?: ([^\n]+)(?=\n[ \t]*-->)')
"""A finding's message heading its source (rustc, clippy): `warning: attempt to mutate range bound within loop` over the
arrow to its place (not the count a crate's build ends with, which points nowhere)."""


def _kinds_of(messages: Iterable[re.Match[str]]) -> dict[str, tuple[int, int]]:
    """Per kind of message (see `_message_kind`; the message in each match's first group), how many there are and where
    the first one's line starts (each match opening with the line break before it, in a text with one put in front)."""
    kinds: dict[str, tuple[int, int]] = {}
    for found in messages:
        kind = _message_kind(found.group(1))
        seen = kinds.get(kind)
        kinds[kind] = (seen[0] + 1, seen[1]) if seen is not None else (1, max(0, found.start()))
    return kinds


def _rare_kind_places(kinds: dict[str, tuple[int, int]]) -> list[int]:
    """Where the first message of each kind found once or twice begins, in order, when one kind is a good part of the
    messages (a quarter of `RARE_FINDING_MIN` or more): by contrast with it, what a reader looks for. None else."""
    read = sum(count for count, _ in kinds.values())
    if len(kinds) < 2 or read < RARE_FINDING_MIN or max(count for count, _ in kinds.values()) * 4 < read:
        return []
    return sorted(start for count, start in kinds.values() if count <= 2)


KIND_WORDS = 2
"""Words of a message's first part that say too little on their own (`not vectorized:`, `undeclared name:`): its next
part is of its kind too."""
KIND_TOKENS = 8
"""Words of a message's first part its kind is read from: enough to tell kinds apart, few enough to read fast."""


def _message_kind(message: str) -> str:
    """What kind of message `message` is: the plain lower-case words of its first part (to its first `: `), or of two
    where the first is short, after the one word that labels it (`missed:`, `error:`). What it quotes, names (with dots,
    capitals, underscores) and numbers vary from message to message of a kind; the detail after its first part is the
    instance's (`statement clobbers memory: memset (&state, 0, 48);`)."""
    label, said, rest = message.partition(': ')
    if not said or ' ' in label.strip():
        label, said, rest = '', '', message
    parts = rest.split(': ', 2)
    first = parts[0] if len(parts) == 1 or len(parts[0].split()) > KIND_WORDS else ': '.join(parts[:2])
    if '`' in first or '"' in first or "'" in first:
        first = _QUOTED_PART.sub(' ', first)
    words = first.split(None, KIND_TOKENS)[:KIND_TOKENS]
    return label + said + ' '.join([word for word in words if word.isalpha() and word.islower()])


FIRST_ERRORS = 5
"""Errors with different messages shown, in order, where a checker's errors are few among its warnings."""
ERRORS_SHARE = 0.5
_ERROR_MARK = ': error: '


def _first_errors(view: TextView, shape: Shape) -> list[Pick]:
    """Where errors are fewer than warnings (eighteen of javac's among six hundred lint warnings), the first errors
    saying different things, each with the source line it quotes: what fails the build, however the tool writes its
    codes (javac's errors have none). Found by a search of the whole text for `: error: `."""
    if view.total > CENSUS_CHARS:
        return []
    text, end = view.text, view.end
    errors = text.count(_ERROR_MARK, 0, end)
    if not errors or errors > ERRORS_SHARE * (errors + text.count(': warning: ', 0, end)):
        return []
    picks: list[Pick] = []
    said: set[str] = set()
    place = text.find(_ERROR_MARK, 0, end)
    while place != -1 and len(picks) < FIRST_ERRORS:
        span = view.line_at(place)
        message = _DIGITS.sub('0', text[place + len(_ERROR_MARK) : span[1]])
        if message not in said:
            said.add(message)
            quoted = _caret_place(view, span) if shape.variant == 'carets' else _quoted_source(view, span)
            picks.append(Pick(GRAVEST_PRIORITY - len(picks) * 0.01, (span, *quoted), 'error'))
        place = text.find(_ERROR_MARK, span[1], end)
    return picks


def _quoted_source(view: TextView, span: Span) -> list[Span]:
    """The source line a diagnostic quotes under it, with a caret under that (javac, gcc): the line it is about."""
    below = view.next_line(span)
    caret = view.next_line(below) if below is not None else None
    if below is None or caret is None or not _BARE_CARET.match(view.content(caret)):
        return []
    return [below]
