"""Line classes: what each line of tool output is, ordered by what losing it risks.

Condensing drops what is known to carry no cause of a decision before it cuts anything by position.
That needs a classifier that is cheap enough to run over megabytes of build logs and
conservative where it matters: a line that might be an error is classed as one, because keeping a
harmless line costs a few tokens while dropping the cause costs the whole step.

```python
from observable_harness.bounded import LineClass, classify_lines

lines = ['collected 3 items', 'test_a PASSED [ 33%]', 'E   KeyError: 1', '=== 1 failed, 2 passed in 0.1s ===']
assert classify_lines(lines).classes == [
    LineClass.normal, LineClass.progress, LineClass.error, LineClass.summary
]
```
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import accumulate

__all__ = [
    'RISK_ORDER',
    'Classification',
    'LineClass',
    'alert_class',
    'classify_line',
    'classify_lines',
    'exit_status_of',
    'is_section_header',
    'line_shape',
]


class LineClass(StrEnum):
    """What a line of tool output is. Declared in `RISK_ORDER`: the first is the costliest to lose."""

    error = 'error'
    """Errors and failures: compiler errors, `E` lines of pytest, exception lines, `FAILED ...`. The cause."""
    warning = 'warning'
    """Warnings and deprecations: often the cause of the next failure, rarely of this one."""
    summary = 'summary'
    """Results and totals: `5 failed, 182 passed`, `Successfully installed ...`, an exit status."""
    stack = 'stack'
    """Stack frames and source context around an error: where the cause lives, not what it is."""
    normal = 'normal'
    """Everything not recognised as anything else: the payload of listings, tables and plain logs."""
    progress = 'progress'
    """Progress and noise: bars, percentages, `Downloading ...`, `copying ...`, per-test `PASSED`."""
    repeated = 'repeated'
    """A line shaped like the one before it (same text up to numbers and spacing): only its count matters."""
    blank = 'blank'
    """Empty or whitespace-only lines."""


RISK_ORDER: tuple[LineClass, ...] = tuple(LineClass)
"""Line classes from the costliest to lose (`error`) to the cheapest (`blank`)."""


# --- patterns ---------------------------------------------------------------------------------
# Only lines holding one of these fragments (lowercased) can be errors or warnings. They are found
# with `str.find` over the whole text, which runs at memory speed, so the regexes below only ever
# see the few lines of a build log or a listing that mention trouble.
_ALERT_FRAGMENTS = (
    'err',
    'fail',
    'fatal',
    'panic',
    'exception',
    'critical',
    'fault',
    'denied',
    'not found',
    'could not',
    "couldn't",
    'unable',
    'cannot',
    'undefined',
    'no such',
    'non-zero',
    'exit',
    'terminat',
    'warn',
    'deprecat',
    'abort',
    'killed',
    'refused',
    'timed out',
    'return code',
    'returncode',
    'invalid read',
    'invalid write',
    'invalid free',
    'signal sig',
    ': ***',  # make's own errors: `make: *** No rule to make target 'x'.`, `make[1]: *** [all] Error 2`
    'crit]',  # a level in brackets: nginx's `[crit]`, Apache's `[proxy:emerg]`
    'alert]',
    'emerg]',
)

# Every summary form is anchored at the start of the line, so `match` rejects most lines in a step.
_SUMMARY = re.compile(
    r'=+ .*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|no tests ran)\b.*=+\s*$'
    r'|=+ short test summary info =+\s*$'
    r'|Ran \d+ tests? in '
    r'|(?:OK|FAILED)(?: \(.*\))?\s*$'
    r'|(?:PASS|FAIL)\s*$'
    r'|(?:ok|FAIL)\s+\S+\s+\(?[\d.]+s\)?\s*$'
    r'|\s*(?:Successfully (?:installed|built|uninstalled)|Installed \d+ packages?|BUILD (?:SUCCESSFUL|FAILED)'
    r'|[Bb]uild (?:succeeded|failed|finished)|Tests?:\s+\d|Test Suites?:|test result:|Summary:'
    r'|Found \d+ (?:[\w-]+ ){0,2}(?:errors?|issues?|problems?|vulnerabilit(?:y|ies)|findings?)\b'
    r'|Test Files {2,}\d+ (?:failed|passed)|Tests {2,}\d+ (?:failed|passed)'  # vitest: ` Test Files  13 failed | ...`
    r'|Success: no issues found|Your code has been rated at'
    r'|Finished (?:`|\w+ \[)|\d+ (?:errors?|warnings?)(?: and \d+ warnings?)? generated'
    r'|Total tests?: |(?:== )?Tests? result: |Result: (?:SUCCESS|FAILURE|FAILED|PASSED|INTERRUPTED)\b'
    r'|\d+ passing \(\d[\d.]*m?s\)\s*$|\d+ (?:failing|pending)\s*$'  # mocha's tally, before its failures' details
    r'|# (?:fail|pass|tests) +\d+\s*$'  # TAP's account at its end (tape's, node-tap's): `# fail  3`
    r'|\d+ upgraded, \d+ newly installed, \d+ to remove and \d+ not upgraded'  # apt's account of what it will do
    r'|\S+: \*{5} FILE SYSTEM [A-Z ]+ \*{5}'  # e2fsck's verdict: `backupvol: ***** FILE SYSTEM WAS MODIFIED *****`
    r'|\d+ items? had failures:\s*$|\d+ passed and \d+ failed\.\s*$'  # doctest's account: the items, the counts
    r'|\d+% tests passed, \d+ tests? failed out of \d+'  # CTest's tally: `93% tests passed, 2 tests failed out of 28`
    r'|\(\d+ rows?\)$)'
    r'|\|?\s*TOTAL\s+(?:\|\s*)?\d'
    r'|g?make(?:\[\d+\])?: \*\*\* \[.*\] Error \d+'
    r'|ninja: build stopped: '
    r'|\d+ (?:failed|passed|errors?)(?:, \d+ (?:passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?))*'
    r' in [\d.]+s\b'  # pytest's account of a quiet run (`-q`): `48 failed, 31 passed in 12.35s`
    r'|[0-9a-f]{7,40} is the first bad commit\s*$'  # git bisect's verdict
    r'|warning: `[^`\n]{1,80}` \([^)\n]{1,40}\) generated \d+ warnings?',  # cargo's count for a crate
)
_SERVER_ERROR = re.compile(r'"[A-Z]{3,7} [^"\s]+ HTTP/[\d.]+" 5\d\d ')
"""A request a server answered with a 5xx status, as access logs write it (`"PUT /user/1 HTTP/1.1" 500 336`)."""
_EXIT_STATUS = re.compile(
    r'^\s*\[?(?:exit(?:ed)?(?: with)?(?: status| code)?|exit_code|exit_status|return ?code|'
    r'process exited with(?: code)?|command exited with(?: code)?)\s*[=:]?\s*(-?\d+)\]?\s*$',
    re.IGNORECASE,
)
_ERROR_OPENING = (
    r'\s*(?:[Ee]rror|[Ff]atal|[Ff]ailed|[Ff]ailure|[Ff]ailures|panic|exception|critical|err!?)\b'
    # A reply's or a task's status opening the line, or after the connection it answers: memcached's `>25 SERVER_ERROR`.
    r'|\s*(?:[<>]?\d{1,6}:? )?[A-Z][A-Z0-9]*_(?:ERROR|FAILED|FAILURE)\b'
    r'|\s*\(error\) '  # redis-cli's reply: `(error) ERR unknown command`
    r'|Caused by: '
)
_ERROR_CAPITALS = r'\b(?:ERROR|FATAL|FAILED|FAILURES?|CRITICAL|PANIC)\b|\bERR!'
_ERROR_COLON = (
    r'(?<!-)\b(?:[Ee]rror|[Ff]atal [Ee]rror|[Ff]ailed|[Ff]ailure)(?:\[\w+\])?:(?!:)'  # not `error::x`, `fp-error:`
)
_ERROR_NAMED = r'\b[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Fault)\b(?::|\s*$)'
_ERROR_MAKE = r'\bmake(?:\[\d+\])?: \*\*\*'
_ERROR_BRACKET = r'\[(?:\w+:)?(?:error|crit|alert|emerg)\] '
"""A level in brackets, lowercase: nginx's `[error]`, `[crit]`; Apache's `[core:error]`, `[proxy:emerg]`."""
_ERROR_LEVEL_KEY = (
    # logfmt's `level=error` (slog's `level=ERROR`), a JSON log's `"level":"error"`.
    r'\b(?:level|lvl|severity)=["\']?(?i:error|err|fatal|critical|panic)\b'
    r'|"(?:level|severity)": ?"(?i:error|err|fatal|critical|panic)"'
)
_STRONG_ERROR = re.compile(
    '|'.join(
        (
            '^(?:' + _ERROR_OPENING + ')',
            _ERROR_CAPITALS,
            _ERROR_COLON,
            _ERROR_NAMED,
            _ERROR_MAKE,
            _ERROR_LEVEL_KEY,
            _ERROR_BRACKET,
        )
    )
)
"""A line saying something failed, in any of these forms. `strong_error` tells the same, each form tried only on a
line holding its literals: one regex of them all is tried at every position for every form (~50 us a line)."""
_OPENING_MATCH = re.compile(_ERROR_OPENING).match
_CAPITALS_SEARCH = re.compile(_ERROR_CAPITALS).search
_COLON_SEARCH = re.compile(_ERROR_COLON).search
_NAMED_SEARCH = re.compile(_ERROR_NAMED).search
_MAKE_SEARCH = re.compile(_ERROR_MAKE).search
_LEVEL_KEY_SEARCH = re.compile(_ERROR_LEVEL_KEY).search
_BRACKET_SEARCH = re.compile(_ERROR_BRACKET).search


def strong_error(line: str) -> bool:
    """Whether `_STRONG_ERROR` finds a match in `line` (one line, no line break in it)."""
    if _OPENING_MATCH(line):
        return True
    if any(word in line for word in ('ERROR', 'FATAL', 'FAILED', 'FAILURE', 'CRITICAL', 'PANIC', 'ERR!')) and (
        _CAPITALS_SEARCH(line)
    ):
        return True
    if ':' in line and ('rror' in line or 'ailed' in line or 'ailure' in line) and _COLON_SEARCH(line):
        return True
    if any(word in line for word in ('Error', 'Exception', 'Exit', 'Interrupt', 'Fault')) and _NAMED_SEARCH(line):
        return True
    if ': ***' in line and _MAKE_SEARCH(line) is not None:
        return True
    if ('level' in line or 'lvl=' in line or 'severity' in line) and _LEVEL_KEY_SEARCH(line) is not None:
        return True
    return '] ' in line and _BRACKET_SEARCH(line) is not None


_WARNING = re.compile(
    r'^\s*(?:warn(?:ing)?|deprecat\w*)\b'
    r'|\b(?:WARN|WARNING)\b'
    r'|\b[Ww]arning(?:\[[\w-]+\])?:'
    r'|\b[A-Z]\w*Warning\b'
    r'|\b[Dd]eprecated\b',
    re.IGNORECASE,
)
_WEAK_ERROR = re.compile(
    r'\b(?:segmentation fault|core dumped|undefined reference to|no such file or directory|permission denied|'
    r'command not found|cannot (?:find|parse|open|read|load|import|resolve)|could not|couldn\'t|unable to|failed to|'
    r'non-zero exit|(?<==> )not found|'
    r'returned non-zero|exited with (?:code|status) [1-9]|exit (?:status|code) [1-9]|compilation terminated|'
    r'aborted|killed|(?:connection|authentication|access) refused|timed out|panicked at|'
    r'invalid (?:read|write|free)|received signal SIG\w+)\b',
    re.IGNORECASE,
)
# Anchored at the start of the line (used with `match`); gcc's `note:` lines are found by substring.
_STACK = re.compile(
    r'\s*File ".+", line \d+'
    r'|Traceback \(most recent call last\):'
    r'|\s+at \S+.*[(:]'
    r'|\s*\d+ \|'
    r'|\s+\|'
    r'|\s*[\^~]+\s*$'
    r'|> '
    r'|\s+--> \S+:\d+'
    r'|\S+: In (?:function|member function|constructor|destructor|instantiation|static member function)\b'
    r'|In file included from '
    r'|\s+from \S+:\d+[,:]'
    r'|\s*\.\.\. \d+ more'
    r'|goroutine \d+ \['
    r'|\s+\S+\.go:\d+'
    r'|(?:_ ){5,}_?\s*$'
    r'|(?:During handling of the above exception|The above exception was the direct cause)'
)
_STACK_FIRST_CHARS = frozenset(' \t>^~_0123456789FTIgDT')
"""Every `_STACK` form starts with one of these, so other lines skip the regex."""
_PROGRESS_PREFIXES = (
    'Downloading',
    'Downloaded',
    'Collecting',
    'Using cached',
    'Requirement already satisfied',
    'Obtaining',
    'Processing ',
    'Installing build dependencies',
    'Installing collected packages',
    'Getting requirements',
    'Preparing metadata',
    'Building wheel',
    'Building wheels',
    'Created wheel',
    'Stored in directory',
    'Running command',
    'Looking in indexes',
    'Looking in links',
    'running ',
    'copying ',
    'Copying ',
    'creating ',
    'writing ',
    'reading ',
    'adding ',
    'removing ',
    'Compiling ',
    'Checking ',
    'Fresh ',  # cargo -v: a crate built before, unchanged
    'Dirty ',  # cargo -v: a crate rebuilt, and why
    'Running `',  # cargo -v: the compiler command line of a crate
    'Fetched ',
    'Get:',
    'Hit:',
    'Ign:',
    'Unpacking ',
    'Setting up ',
    'Selecting previously',
    'Preparing to unpack',
    'Processing triggers',
    'Reading package lists',
    'Building dependency tree',
    'Reading state information',
    'Resolved ',
    'Resolving deltas',
    'Receiving objects',
    'Counting objects',
    'Compressing objects',
    'Enumerating objects',
    'remote: ',
    'Attempting uninstall',
    'Found existing installation',
    'Uninstalling ',
    'collecting ...',
    '=== RUN',
    '--- PASS',
    '[INFO]',
)
# Only lines holding one of these fragments can be progress by `_PROGRESS`; the rest skip the regex.
_PROGRESS_HINTS = ('%', 'B/s', 'it/s', 'eta ', '##', '==', '... ', '\r', '━', '█', '▉', '░', '▓')
_PROGRESS = re.compile(
    r'[━█▉▊▋▌▍▎▏░▒▓]{3,}'
    # A bar's run is taken whole from its first character (look-behind, possessive): tried from every
    # character of a long run of `#` or `=`, the plain form was quadratic (a 20,000-character rule took 29 s).
    r'|(?<![#=])[#=]{6,}+>?\s*\]?\s*\d'
    r'|\[\s*\d{1,3}%\]\s*$'
    r'|\b\d{1,3}(?:\.\d+)?%\s*(?:\||\[|eta|complete|done)'
    r'|\b\d+(?:\.\d+)?\s?[kMG]i?B/s\b'
    r'|\beta \d+:\d\d'
    r'|\bit/s\b'
    r'|^test \S+ \.\.\. (?:ok|skipped)'
    r'|\r(?=.)'  # a bar drawn over itself; one at the line's end is a CRLF line ending (ssh, redis-cli, Windows tools)
)
_PERCENT_TAIL = re.compile(r'\[\s*\d{1,3}%\]\s*$')
"""One of `_PROGRESS`'s forms (a test runner's `[ 42%]`), tried on a line's last characters before the whole
regex is tried along the line."""
_BUILD_STEP = re.compile(r'\[\s*(?:\d+/\d+|\d{1,3}%)\] [A-Z]')
"""A build tool's step (ninja's `[15/18] Compiling C object ...`, CMake's `[ 45%] Building C object ...`)."""
_PROGRESS_SUFFIXES = (' PASSED', ' SKIPPED', ' XFAIL', ' XPASS', ' ok')
_SECTION_HEADER = re.compile(r'^\s*([=_*#~+-])\1{2,}(?:\s*\S.*)?$|^#{1,6}\s+\S')
_PYTEST_TRACE_BANNER = re.compile(r'^=+ (?:FAILURES|ERRORS) =+\s*$')
_PYTEST_BANNER = re.compile(r'^=+ .* =+\s*$')
_PYTEST_FAILURE_HEADER = re.compile(r'^_{3,} .+ _{3,}\s*$')
_PATH_ONLY = re.compile(r'^\s*[\w.~-]*[/\\][^\s:]*\s*$')
_SHAPE_DROPPED = b'0123456789 \t\x0b\x0c\r'
"""Bytes a shape leaves out. `bytes.translate` deletes them at memory speed, 8x faster than a regex."""


def line_shape(line: str) -> bytes:
    """The line without its digits and spaces: lines that differ only in numbers and spacing compare equal."""
    return line.encode('utf-8', 'surrogatepass').translate(None, _SHAPE_DROPPED)


def is_section_header(line: str) -> bool:
    """A banner (`=== FAILURES ===`, `____ test_x ____`, a rule) or a Markdown heading starts a section."""
    return bool(_SECTION_HEADER.match(line))


def exit_status_of(line: str) -> int | None:
    """The status in a line such as `exit=1`, `exit status 2` or `Process exited with code 137`, else None."""
    match = _EXIT_STATUS.match(line)
    return int(match.group(1)) if match else None


def _has_progress_hint(line: str) -> bool:
    # A plain loop: `any()` over a generator costs twice as much on the hottest path of classifying.
    for hint in _PROGRESS_HINTS:  # noqa: SIM110
        if hint in line:
            return True
    return False


def _is_alert(line: str) -> bool:
    lowered = line.lower()
    return any(fragment in lowered for fragment in _ALERT_FRAGMENTS)


def _alert_lines(lines: Sequence[str]) -> set[int]:
    """Indices of the lines that contain an alert fragment, found over the joined text at once."""
    text = '\n'.join(lines).lower()
    hits: set[int] = set()
    starts: list[int] | None = None
    for fragment in _ALERT_FRAGMENTS:
        position = text.find(fragment)
        if position < 0:
            continue
        if starts is None:
            starts = list(accumulate((len(line) + 1 for line in lines), initial=0))
        while position >= 0:
            index = bisect_right(starts, position) - 1
            hits.add(index)
            # Continue after this line: one hit per line is all that matters.
            position = text.find(fragment, starts[index + 1])
    return hits


def classify_line(line: str) -> LineClass:
    """The class of one line on its own (no `stack` from context, never `repeated`)."""
    return _classify(line, _is_alert(line))


def alert_class(line: str) -> LineClass | None:
    """`classify_line(line)` when that is `error`, `warning` or `summary`, else None, at a fraction of the cost.

    The checks for those classes come first in a classification; the costlier ones for stack frames and
    progress only tell the other classes apart. A preview that wants only the alerting lines of a long
    stretch asks this.
    """
    if not line or line.isspace():
        return None
    return _alert_class(line, _is_alert(line))


def _may_warn(line: str) -> bool:
    """Whether `_WARNING` can match: each of its forms holds `warn` or `deprecat`, letters that fold only to
    themselves, so a substring test on the lowered line rules most lines out before the regex scans them."""
    lowered = line.lower()
    return 'warn' in lowered or 'deprecat' in lowered


_STRONG_WORDS = (
    'err',
    'fatal',
    'fail',
    'panic',
    'exception',
    'critical',
    'exit',
    'interrupt',
    'fault',
    'caused by',
    'make',
    'crit]',
    'alert]',
    'emerg]',
)
"""Every match of `_STRONG_ERROR` holds one of these, lowered: a substring test rules a line out where the
regex, tried at every word of it, costs ~20 us a line."""
_WEAK_WORDS = (
    'segmentation fault',
    'core dumped',
    'undefined reference',
    'no such file or directory',
    'permission denied',
    'command not found',
    '=> not found',  # a library the loader cannot resolve, as `ldd` lists it: `libjli.so => not found`
    'cannot ',
    'could not',
    "couldn't",
    'unable to',
    'failed to',
    'non-zero',
    'exited with',
    'exit ',
    'compilation terminated',
    'aborted',
    'killed',
    'refused',
    'timed out',
    'panicked at',
    'invalid read',
    'invalid write',
    'invalid free',
    'received signal',
)
"""Every match of `_WEAK_ERROR` holds one of these, case-folded (the regex ignores case, `ſ` and `K` too)."""


def _alert_class(line: str, alert: bool) -> LineClass | None:
    if _SUMMARY.match(line) or (alert and _EXIT_STATUS.match(line)):
        return LineClass.summary
    if 'HTTP/' in line and _SERVER_ERROR.search(line):
        return LineClass.error
    if line.startswith('E  '):
        # pytest's explanation lines: the assertion, the compared values, the exception.
        return LineClass.error
    if alert and not _PATH_ONLY.match(line):
        # A bare path (a `find` listing) is payload even when a directory is called `error`.
        lowered = line.lower()
        if any(word in lowered for word in _STRONG_WORDS) and strong_error(line):
            return LineClass.error
        if _may_warn(line) and _WARNING.search(line):
            return LineClass.warning
        folded = line.casefold()
        if any(word in folded for word in _WEAK_WORDS) and _WEAK_ERROR.search(line):
            return LineClass.error
    return None


def _classify(line: str, alert: bool) -> LineClass:
    if not line or line.isspace():
        return LineClass.blank
    if (found := _alert_class(line, alert)) is not None:
        return found
    if ((line[0] in _STACK_FIRST_CHARS or ': In ' in line) and _STACK.match(line)) or 'note:' in line:
        return LineClass.stack
    if (
        line.lstrip().startswith(_PROGRESS_PREFIXES)
        or line.rstrip().endswith(_PROGRESS_SUFFIXES)
        or (
            _has_progress_hint(line)
            and (_PERCENT_TAIL.search(line, len(line) - 16) or _PROGRESS.search(line)) is not None
        )
        or line.startswith('ok ')
        or (line[:1] == '[' and _BUILD_STEP.match(line) is not None)
    ):
        return LineClass.progress
    return LineClass.normal


@dataclass(frozen=True, slots=True)
class Classification:
    """Classes of a sequence of lines, and for `repeated` lines the class of the line they repeat."""

    classes: list[LineClass]
    """One class per line."""
    bases: list[LineClass]
    """Per line, the class it has apart from repetition (equal to `classes[i]` unless that is `repeated`)."""

    def counts(self) -> Counter[LineClass]:
        return Counter(self.classes)

    def has(self, line_class: LineClass) -> bool:
        return line_class in self.classes


def classify_lines(lines: Sequence[str]) -> Classification:
    """Classify every line, using context a single line lacks.

    Inside a Python traceback (until its exception line) and inside pytest's `FAILURES`/`ERRORS`
    section, otherwise unremarkable lines are `stack`: they are the source excerpt and locals that
    locate the failure. A line whose shape (text up to numbers and spacing) and class equal the line
    before it is `repeated`.
    """
    classes: list[LineClass] = []
    bases: list[LineClass] = []
    in_traceback = False
    in_failures = False
    alerts = _alert_lines(lines)
    previous_shape: bytes | None = None
    previous_base: LineClass | None = None
    seen: dict[str, LineClass] = {}  # a line repeated word for word (a progress line, a warning) is classified once
    for index, line in enumerate(lines):
        base = seen.get(line)
        if base is None:
            base = seen[line] = _classify(line, index in alerts)
        if base is LineClass.blank:
            classes.append(base)
            bases.append(base)
            previous_shape = previous_base = None
            continue
        if line[0] == '=' and _PYTEST_BANNER.match(line):
            in_failures = bool(_PYTEST_TRACE_BANNER.match(line))
            in_traceback = False
        elif in_failures and _PYTEST_FAILURE_HEADER.match(line):
            # The header of one failure block names the failing test.
            base = LineClass.error
        elif line.startswith('Traceback (most recent call last)'):
            in_traceback = True
        elif in_traceback:
            if line[:1].isspace() or base is LineClass.stack:
                if base in (LineClass.normal, LineClass.progress):
                    base = LineClass.stack
            else:
                # The unindented line after the frames is the exception itself.
                in_traceback = False
                if base in (LineClass.normal, LineClass.progress, LineClass.stack):
                    base = LineClass.error
        elif in_failures and base in (LineClass.normal, LineClass.progress):
            base = LineClass.stack
        shape = line_shape(line)
        classes.append(LineClass.repeated if base is previous_base and shape == previous_shape else base)
        bases.append(base)
        previous_shape = shape
        previous_base = base
    return Classification(classes, bases)
