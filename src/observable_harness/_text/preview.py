"""The preview a stand-in shows: lines chosen by what the model is looking for, the output's shape, and class.

A spilled or truncated return is replaced by a few hundred to a few thousand characters. What those
keep decides whether the model can act or must read back. In order:

1. the final line (exit status, result, totals);
2. lines holding what the model is looking for (`intent`), each with the lines that make it readable
   in this shape (the table's header, the commit it belongs to, the traceback around it);
3. what the shape needs (a table's header and, when sorted, its top rows; a test run's failures and
   where they were raised; a traceback's exception and the innermost frame in the user's own code;
   a diff's files; a trace's failed calls and exits; the first of each diagnostic code);
4. by line class, as before: the first error (the first cause), summaries, other errors, the first
   line, warnings, then plain lines from the tail and the head, and noise last.

Kept lines stay in their order; each run of lines left out is marked `[… N lines …]`, and a line
cut short says how much of it was cut, so what is shown and what is not always add up to the
whole. A single long line (minified JSON) is cut in the middle and uses the whole budget.

The cost is bounded whatever the size: shapes are recognised on a sample of lines, lines are
classified only in head and tail windows and where a scan for literal markers or intent terms
lands, and no step splits or copies the whole payload.
"""

from __future__ import annotations

import heapq
import math
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice, pairwise, takewhile

from .counting import newlines
from .intent import (
    HIT_CHARS,
    MAX_CANDIDATES,
    MEMBER_OPENINGS,
    PLACES_PER_TERM,
    SCAN_CHARS,
    VERSION_AFTER,
    Intent,
    LineMatch,
    Matches,
    Term,
    TermKind,
    find_matches,
    line_form,
    version_numbers,
    whole_token,
)
from .layout import strip_ansi_codes
from .lines import LineClass, alert_class, classify_line, classify_lines, line_shape
from .scan import literal_places, literal_places_utf8, literal_presence
from .shapes import (
    EXTREME_PRIORITY,
    HEADER_PRIORITY,
    PYTHON_FRAME,
    RARE_MIN_ROWS,
    RARE_ROWS,
    TRACEBACK_HEADER,
    VARYING,
    Census,
    Pick,
    Shape,
    ShapeKind,
    Span,
    TextView,
    cell_number,
    census,
    column_named,
    compiler_symbol,
    context,
    crash_frames,
    detect,
    digest,
    extreme_rows,
    failed_tests,
    folded_stacks_note,
    heading_of,
    indented_under,
    is_rule,
    json_findings,
    lines_between,
    logged_traceback,
    manual_start,
    message_details,
    metric_sample,
    own_frame,
    path_line,
    rare_values,
    row_fields,
    summary_section,
    traceback_context,
    traceback_picks,
)
from .words import shorten_middle

__all__ = ['Offer', 'Preview', 'select_preview']

HEAD_LINES = 40
"""Lines read at the start: the command, a banner, a table's header and its top rows."""
CLASSIFIED_HEAD = 12
"""Of those, the lines classified in a log: banners, the command, the first error of a build."""
TAIL_LINES = 24
"""Lines read at the end: summaries, the result line, the exit status, the last traceback."""
HEAD_CHARS = 64 * 1024
SAMPLE_WINDOWS = 6
SAMPLE_LINES = 8
"""The middle is sampled in this many windows of this many lines: enough to tell a shape and a term's rarity."""
MIDDLE_MARKERS = (
    TRACEBACK_HEADER,
    'ERROR',
    'Error',
    'error:',
    '[error] ',  # a level in brackets, lowercase: nginx's `[error]`, Apache's `[core:error]` (below)
    ':error] ',
    '[crit] ',
    'FAIL',
    'Exception',
    'FATAL',
    'panic',
    'signal SIG',
    'Segmentation fault',
    'Invalid read',
    'Invalid write',
    ': *** ',  # make stopping or skipping a target: `make: *** No rule to make target`, `make[1]: *** [x] Error 1`
    ': warning: ',  # a compiler's warning: `../json_object.c:760:24: warning: leak of 'k' [CWE-401]`
    'WARNING',  # a log level: `WARNING License classifiers are deprecated.`, Maven's `[WARNING]`
    ' WARN ',  # the level's short name (supervisord's `WARN exited: worker (exit status 1; not expected)`, log4j's)
    '\nwarning: ',  # rustc's, opening its line: `warning: use of deprecated method ...` (not setuptools' indented ones)
    'npm warn ',  # npm's level, lowercase after its name: `npm warn deprecated inflight@1.0.6: ...`
    '[warn] ',  # in brackets, lowercase: nginx's `[warn]`
    ' passing (',  # mocha's tally, printed before its failures' details: `  1255 passing (3s)`
    ' newly installed, ',  # apt's account, before what it unpacks: `148 upgraded, 0 newly installed, 0 to remove ...`
    'HTTP/1.1" 5',  # a request answered with a 5xx status in an access log: `"PUT /user/1 HTTP/1.1" 500 336`
    'HTTP/1.0" 5',
    'HTTP/2.0" 5',
    # Last, as they are the commonest (a marker takes its lines before those after it): a failure in plain words.
    'Failed',  # redis: `# Failed opening the temp RDB file temp-7423.rdb (...) for saving: Permission denied`
    'failed',
    'denied',
    ' error',  # after a word: `# Background saving error`, `connection error`
)
"""Literal markers a log's middle is searched for (C-speed); a hit's line is then classified like any other."""
GAP_FILL = 3
"""Lines between two matches of a request, at most, that are shown with the lesser one instead of a marker."""
GAP_FILL_CHARS = 160
"""...if they are short: together no longer than this (a date or two, not a paragraph)."""
DEFINITION_BODY = 2
"""Lines after a matched definition that opens a block (a function's label, `def name(...):`) shown with it."""
DEFINITION_PARAGRAPH = 6
"""Lines of the paragraph indented under a matched definition a manual documents (an option, a signature) shown
with it, up to the paragraph's end."""
RECORD_BODY = 8
"""Lines of the record indented under a matched heading (`openssl:` over its installed and candidate versions)."""
CRASH_PRIORITY = 905.0
"""A crash line and the first frames of the stack after it: over the lines a request names (900)."""
SUMMARY_SECTION_PRIORITY = 910.0
"""A log's own summary section (`PIL SETUP SUMMARY`, `LEAK SUMMARY:`): over what the request selects."""
MAX_MIDDLE_HITS = 24
MIDDLE_SCAN_CHARS = 512 * 1024
"""The stretch before a log's tail searched for failure markers one by one (a search per marker costs ~0.3 ms per
512 KB)."""
MIDDLE_ENGINE_CHARS = 8 * 1024 * 1024
"""The stretch a multi-literal engine scans for them in one pass instead (~0.1 ms per MB): a log's whole middle, up
to eight megabytes."""
INTENT_GROUPS = 24
"""Matched lines offered to the packer, best first; a preview has room for a handful."""
CONTEXT_GROUPS = 12
"""Matched lines whose context is looked up: only the best can be shown with it."""
STRONG_MATCHES = 6
STRONG_SHARE = 0.5
FLOOR_SHARE = 0.15
"""Matches scoring at least `STRONG_SHARE` of the best one, and the best `STRONG_MATCHES` scoring at least
`FLOOR_SHARE` of it that hold more than the request's plain words, outrank everything but the final line; the rest
rank under what the shape needs."""
INTENT_PRIORITY = 900.0
"""The best of the lines a request's words find: under the run's final line, over all the output's shape needs."""
NAMED_WEIGHT = 0.25
"""Weight a request's name, path or number must have to make the line it is on one of the best: a duration it names
(`every 100 ms`) weighs less, and finds `100.00` in a column of percentages."""
NAMED_IDS = 2
"""Numbers of a request found on its best lines, each on `NAMED_LINES` lines at most, for it to name the lines it
asks about itself."""
NAMED_LINES = 2
"""Lines a number may be on and still name one of them (not a group: every row of the object it is the size of)."""
_NAMING_KINDS = frozenset((TermKind.number,))
"""Terms that name a row by themselves: ids (a file's node number, a process id), not the names of what the output is
about (`Pod::Simple::BlackBox` in a profile's title)."""
WEAK_PRIORITY = 320.0
QUOTED_PRIORITY = WEAK_PRIORITY - 5
_STANDING_OUT = frozenset(('rare',))
"""Roles of the lines a shape's digest picks for standing out from the rest: odd values."""
STANDING_SHARE = 8
"""A word found on more than this share of the lines (an eighth) tells no rows apart."""
ASKED_CODE_LEAD = 10.0
"""How far a first finding of a code the request's words find goes ahead of the other codes' first findings."""
STANDING_ASKED = 4
"""Such lines holding the request's words that rank over the other lines holding them, at most."""
WIDE_MATCHES = 3
"""The best matches may run to twice a line's limit outside tables: a cut through them is the costliest."""
FINAL_LINE_CHARS = 400
NOTE_CHARS = 160
"""At most this much of a preview goes to a synthesized note (a diagnostics census)."""
OFFER_MIN_WEIGHT = 0.5
"""Terms weaker than this (a plain word only the user prompt used) are not proposed as a read-back pattern."""
MIN_OFFER_ROOM = 200
"""A preview left with less room than this after an offer's makes no offer."""
OFFER_COUNT_LIMIT = 300
"""Matching lines counted for the read offer; beyond it the offer says "over"."""

_GAP = '[… {count:,} line{s} …]'


@dataclass(frozen=True, slots=True)
class Offer:
    """Lines holding a searched term that the preview had no room for: what `pattern=` would return."""

    pattern: str
    """The term as the text spells it (the read tool's `pattern` is case-sensitive)."""
    lines: int
    """Lines containing `pattern` (a lower bound when `more`)."""
    shown: int
    more: bool = False


@dataclass(frozen=True, slots=True)
class Preview:
    """Kept lines in order, `[… N lines …]` where lines were left out; the numbers add up to the whole.

    For a JSON list of records on one line the units are records (`[… N records …]`): `total_lines`
    and `kept_lines` then count records, and `unit` says so.
    """

    text: str
    total_chars: int
    kept_chars: int
    """Characters of the original the preview shows (kept lines, their breaks, the kept parts of cut lines)."""
    total_lines: int
    kept_lines: int
    places: int
    """Places where text was left out: runs of lines, and cuts inside a line."""
    shape: str = ShapeKind.log.value
    intent_terms: int = 0
    """Intent terms searched for over the whole text (counted, never recorded)."""
    intent_lines: int = 0
    """Kept lines chosen because they hold intent terms."""
    offer: Offer | None = None
    unit: str = 'line'
    """What `total_lines` and `kept_lines` count: `line`, or `record` for a JSON list of records."""

    @property
    def cut_chars(self) -> int:
        return self.total_chars - self.kept_chars


@dataclass(slots=True)
class _Line:
    span: Span
    limit: int
    focus: int = -1
    role: str = ''


def _gap(count: int) -> str:
    return _GAP.format(count=count, s='' if count == 1 else 's')


def select_preview(
    text: str,
    budget: int,
    *,
    intent: Intent | None = None,
    offer_chars: int = 0,
    utf8: bytes | None = None,
    pause: Callable[[], None] | None = None,
) -> Preview:
    """At most `budget` characters of `text`, chosen by intent, shape and line class.

    `offer_chars` is room to leave when intent finds more lines than fit, for the caller's offer
    to read them back: when `Preview.offer` is set, the preview's text is at most `budget - offer_chars`.
    `utf8` is `text` as UTF-8 (`surrogatepass`) when the caller has it (a spill writes it): the request's
    terms and the log markers are searched there instead of in a fresh encoding of the text. `pause` is
    called once the lines are chosen, before the gaps between them are counted (a spill's worker thread
    is let go on then, see `StoreInProgress.hand_over`).

    >>> log = '\\n'.join(['$ make test'] + [f'test {i} ok' for i in range(500)] + ['ERROR: 1 test failed', 'exit=2'])
    >>> preview = select_preview(log, 150)
    >>> preview.text.splitlines()[-2:]
    ['ERROR: 1 test failed', 'exit=2']
    >>> preview.kept_chars + preview.cut_chars == len(log)
    True
    """
    total = len(text)
    view = TextView(text)
    if total <= budget:
        lines = (newlines(text) + (0 if view.end < total else 1)) if text else 0
        return Preview(text, total, total, lines, lines, 0)
    head = view.head(HEAD_LINES, HEAD_CHARS)
    head_stop = head[-1][1] if head else 0
    tail = view.tail(TAIL_LINES, head_stop + 1)
    middle_floor, middle_ceiling = head_stop, tail[0][0] if tail else view.end
    sample = view.windows(middle_floor, middle_ceiling, SAMPLE_WINDOWS, SAMPLE_LINES)
    longest = max((span[1] - span[0] for span in (*head, *tail)), default=0)
    if (len(head) <= 3 and head_stop >= view.end) or (len(head) < 4 and longest > budget):
        total_lines = newlines(text) + (0 if view.end < total else 1)
        records = _records(view, budget, total_lines, intent, offer_chars)
        return records if records is not None else _long_lines(view, budget, total_lines, intent)
    # The exact line count comes from the render (kept lines and gaps add up to it): a megabyte's newlines
    # are counted once, in the gaps. Until then an estimate from the lines read serves rarity weighting.
    estimated_lines = _estimate_lines(view, [*head, *sample, *tail], head_stop >= view.end, len(head))
    shape = detect(view, head, sample)
    # A delimited row or a key says what it is in its first fields: they are shown shorter than log lines (a
    # column-aligned row is padded, so it keeps the longer limit).
    compact = shape.kind is ShapeKind.key_value or (shape.kind is ShapeKind.table and shape.variant != 'aligned')
    plain_limit = max(100, min(400, budget // (9 if compact else 7)))
    match_limit = plain_limit
    # A table's or a listing's last line is one more row; a log's may be the long result line.
    final_limit = plain_limit if shape.kind in QUIET_SHAPES else max(120, min(FINAL_LINE_CHARS, budget // 3))

    picks: list[tuple[float, list[_Line], str]] = []
    nonblank = [span for span in (*head, *tail) if view.content(span).strip()]
    # The last line that says something: a rule closing a table (cloc's, under its `SUM:`) says nothing, nor do the
    # escape codes a coloured tool resets the terminal with (Maven's last line, `\x1b[0m\x1b[0m`).
    final_line = next(
        (
            span
            for span in reversed(nonblank)
            if not is_rule(content := view.content(span)) and strip_ansi_codes(content).strip()
        ),
        None,
    )
    if final_line is not None:
        picks.append((1000.0, [_Line(final_line, final_limit, role='final')], 'final'))
        # An indented last line goes on from one above it (the last finding's message, its second line): that line says
        # what it is about.
        opener = _opening_line(view, final_line) or _list_title(view, final_line)
        if opener:
            lines = [_Line(span, plain_limit, role='final') for span in opener]
            picks.append((FINAL_OPENER_PRIORITY, [*lines, _Line(final_line, final_limit, role='final')], 'final'))
        # A report of several parts, each closed by a verdict alike (`→ Overall exposure level for x.service: 9.6
        # UNSAFE` under each unit checked): the earlier parts' verdicts, as the last is shown.
        picks.extend(
            (FINAL_SIBLING_PRIORITY - rank * 0.01, [_Line(span, final_limit, role='final')], 'final')
            for rank, span in enumerate(_final_siblings(view, final_line))
        )

    counted = census(view, [*head, *sample, *tail]) if shape.kind is ShapeKind.diagnostics else None
    matches = Matches()
    answer = frozenset[int]()
    table = shape.kind is ShapeKind.table
    strong_rows = 0
    strong_spans: list[Span] = []
    naming: set[int] = set()  # the request's numbers (ids) found on its best lines, each on a line or two
    findings_json = shape.kind is ShapeKind.json and shape.variant == 'findings'
    reported = shape.kind in (ShapeKind.test_run, ShapeKind.diagnostics, ShapeKind.diff) or findings_json
    if intent:
        matches = find_matches(
            text,
            intent,
            sample_lines=[view.content(span) for span in (*head[:24], *sample, *tail[-24:])],
            total_lines=estimated_lines,
            weigh=_class_weight(shape),
            utf8=utf8,
            # A report is made of names: a word of the request inside one (`turn` in `ReturningResults`) is none.
            whole_words=reported,
            names_run_together=shape.kind is ShapeKind.key_value,
        )
        # The table's header holds the column names a query spelled out: it is context, not the answer.
        # Nor do the commands a build echoes, nor the source a compiler quotes: the best of the rest sets the bar.
        top = max(
            (
                m.score
                for m in matches.lines
                if (m.start, m.end) != shape.header and not _quoted_or_echoed(text, m.start, m.end, table=table)
            ),
            default=0.0,
        )
        # Paths a request names that are the places of (nearly) every finding are the files the command checked:
        # they say what the report is about, not which finding to look at.
        findings = counted.total if counted is not None else json_findings(view) if findings_json else 0
        scope = _REPORT_SCOPE if _names_every_place(matches, findings) else _WORDS
        # A line of a log or a checker's report that opens its own line says all it says by itself: the same line
        # again (one place reported twice) tells nothing more. An indented one continues the line above it, as a line
        # of a record (a commit, a JSON object) belongs to its record: the same words, about something else.
        alone = shape.kind in (ShapeKind.log, ShapeKind.diagnostics)
        shown: set[str] = set()
        weak_seen: set[str] = set()
        found = _metric_matches(view, matches.lines) if shape.variant == 'metrics' else matches.lines
        # A table's rows holding the same few keys of the request (`JFK` and `SFO`: a route) answer a lookup together,
        # as a filter's rows do: each is one answer, whatever its score after the first.
        if shape.kind is ShapeKind.table:
            answer = _answer_terms(text, shape, matches, estimated_lines)
        answers = 0
        # A table's header and the lines over it (column groups), printed again over the next rows by a monitor: the
        # header shown once says them.
        headings = (shape.header, *shape.header_extra) if shape.header is not None else ()
        printed = {view.content(heading).strip() for heading in headings}
        for rank, match in enumerate(_varied(text, found)[:INTENT_GROUPS]):
            span = (match.start, match.end)
            if headings and span not in headings and text[match.start : match.end].strip() in printed:
                continue
            if alone and not text[match.start : match.start + 1].isspace():
                line = _LEADING_STAMP.sub('', text[match.start : match.end], count=1)  # the same line at another time
                if line in shown:
                    continue
                shown.add(line)
            # A weak match (a common term alone, a progress line) ranks under what the shape needs. The best few keep a
            # place above it when they hold a name, a path or a number; on the request's plain words alone, a line
            # must score near the best.
            named = any(
                matches.terms[index].kind is not TermKind.word and matches.terms[index].weight >= NAMED_WEIGHT
                for index in match.terms
            )
            strong = match.score >= STRONG_SHARE * top or (
                named and rank < STRONG_MATCHES and match.score >= FLOOR_SHARE * top
            )
            if answer and answer <= set(match.terms) and answers < ANSWER_ROWS:
                strong = True
                answers += 1
            if (
                strong
                and reported
                and (
                    all(matches.terms[index].kind in scope for index in match.terms)
                    or (len(match.terms) == 1 and matches.line_counts[match.terms[0]] > BROAD_LINES)
                )
            ):
                # Words of a request found in a run's report (a test's source, a diagnostic's message, a patch's lines)
                # say less than the report's own account of it: only a name, path or number outranks that. Nor does a
                # name alone on more of its lines than a preview could show: a part of what was checked (`docs/`, a
                # `README` with two hundred findings), which the report's account of its findings covers better.
                strong = False
            if strong and shape.kind is ShapeKind.test_run:
                # A test that passed or was skipped is the answer only when the request names the test, not when
                # it names something its skip reason mentions (`... skipped 'broken in Python-Markdown'`). Nor is
                # the test's source a failure block echoes: the names a request holds are all over it, and what
                # failed (the `E` line it brings, the run's account) says more.
                status = _PASSING.search(text, match.start, match.end)
                echoed = text[match.start : match.start + 1].isspace()
                strong = (status is None or match.focus < status.start()) and not echoed
            if strong and _PASSED_CASE.match(text, match.start, match.end):
                strong = False  # a JUnit report's passing case (`<testcase ... />`): what the request names, unbroken
            quoted = _quoted_or_echoed(text, match.start, match.end, table=table)
            if strong and quoted:
                # A build echoes each command it runs (`gcc -Wall -Wcast-qual ... -c x.c`): the options a request
                # names are in every one of them, and none says what happened. Nor does the source line a compiler
                # quotes under a diagnostic (`  127 | #define cast(t, exp)`): the diagnostic above it does.
                strong = False
            if not strong:
                # A weak match repeating one taken (a compiler's same `= help:` under each finding, the column names a
                # sampler prints over each sample under its time) adds nothing.
                bare = _LEADING_STAMP.sub('', text[match.start : match.end].strip(), count=1)
                if bare in weak_seen:
                    continue
                weak_seen.add(bare)
            # Weak, such a line ranks under the first finding of each kind, which says what the quoted lines are about.
            base = INTENT_PRIORITY if strong else QUOTED_PRIORITY if quoted else WEAK_PRIORITY
            # The best few may run longer: a cut through the line the model asked about is the costliest cut.
            # A row's first columns say what it is, so a table's rows need no more, unless the row runs on for many
            # times its room (a record of thousands of characters): cut there, the hit needs its surroundings.
            long_line = match.end - match.start > LONG_MATCH * match_limit
            wide = rank < WIDE_MATCHES and (shape.kind not in QUIET_SHAPES or long_line)
            limit = match_limit * 2 if wide else match_limit
            if rank < CONTEXT_GROUPS:
                # A line shown as another match's context that holds a term itself is cut around it, and in the
                # record a strong match belongs to it has room for what the term names there.
                group = [
                    _Line(s, plain_limit if hit < 0 else match_limit * (2 if strong else 1), hit, role='context')
                    for s in context(view, shape, span, whole=strong)
                    for hit in (matches.hit_on(s[0]),)
                ]
                if strong:
                    # A few lines between this match and a better one (a certificate's dates between its issuer
                    # and subject) read as one passage: shown whole rather than as two lines and a marker.
                    for other in strong_spans:
                        between = lines_between(view, other, span, GAP_FILL) or []
                        if sum(s[1] - s[0] + 1 for s in between) <= GAP_FILL_CHARS:
                            group += [_Line(s, plain_limit, role='context') for s in between]
                    strong_spans.append(span)
                    strong_rows += span != shape.header
                    naming.update(
                        index
                        for index in match.terms
                        if matches.terms[index].kind in _NAMING_KINDS and matches.line_counts[index] <= NAMED_LINES
                    )
                group.append(_Line(span, limit, match.focus, 'intent'))
                body: list[_Line] = []
                if match.defines and shape.variant != 'blame':  # under a blamed line: the next line's record
                    body = [_Line(s, plain_limit, role='context') for s in _definition_body(view, span)]
                elif strong and text[match.start : match.end].rstrip().endswith('{'):
                    # A block the request names (`location /api/v2/uploads/ {`): what it sets is inside it.
                    body = [_Line(s, plain_limit, role='context') for s in _block_body(view, span)]
                elif strong and _SECTION_TITLE.fullmatch(text, match.start, match.end):
                    # A report's section the request names (`Throughput Bottlenecks:`): its few lines are the answer.
                    body = [_Line(s, plain_limit, role='context') for s in _section_body(view, span)]
                # A definition that opens a block (`<name>:`, `def name(...):`) brings its first lines; one a manual
                # documents (an option, a signature) the paragraph indented under it: what it does. Should they not
                # all fit with its context, the definition with the first of them may.
                picks.append((base - rank * 0.1, group + body, 'intent'))
                if len(body) > 2:
                    picks.append((base - rank * 0.1 - 0.02, [group[-1], *body[: len(body) // 2]], 'intent'))
            # Should the whole group not fit, the line alone may.
            picks.append((base - rank * 0.1 - 0.05, [_Line(span, limit, match.focus, 'intent')], 'intent'))
        if shape.kind is ShapeKind.history and shape.variant == 'git':
            picks.extend(_named_commits(view, shape, matches, plain_limit))
        if shape.kind is ShapeKind.log:
            picks.extend(_column_peaks(view, matches, -1 if intent.extreme < 0 else 1, plain_limit))

    # A sorted table's top rows answer "which costs the most"; where the request names rows of its own and asks
    # for no extreme, they rank under those rows (with the rest of what the table needs).
    named_rows = intent is not None and not intent.extreme and bool(strong_rows)
    # Kinds of message told apart by their words are a guess at what matters: lines the request's words found, weak as
    # they may be, are the model's own guess, and go first.
    asked_lines = any(not _quoted_or_echoed(text, m.start, m.end, table=table) for m in matches.lines)
    asked_words = (
        frozenset(term.key for term in intent.terms if term.kind is TermKind.word) if intent else frozenset[str]()
    )
    digested = digest(view, shape, head, tail, sample, counted, asked_words)
    if matches:
        # A row that stands out in its table (a queue of 124,680 bytes where every other holds none) and holds the
        # request's words answers it before the other lines holding them: those are the table's texture.
        # Only where a word found there tells rows apart: not one on most of them (`requests` in every path of a
        # listing of `./src/requests/`).
        most = max(1, estimated_lines // STANDING_SHARE)
        standing = [
            pick
            for pick in digested
            if pick.role in _STANDING_OUT and 0 < matches.lines_of_rarest(pick.spans[-1][0]) <= most
        ]
        picks.extend(
            (
                INTENT_PRIORITY + 1 - rank * 0.01,
                [_Line(s, match_limit, matches.hit_on(s[0]), role='intent') for s in pick.spans],
                'intent',
            )
            for rank, pick in enumerate(standing[:STANDING_ASKED])
        )
        # The first finding of a checker's code on which the request's words score near their best goes before the
        # first findings of its other codes: of a report's own account, the part the request points at ("real defects
        # like undefined variables").
        scores = {match.start: match.score for match in matches.lines}
        bar = STRONG_SHARE * max(scores.values(), default=0.0)
        digested = [
            Pick(pick.priority + ASKED_CODE_LEAD, pick.spans, pick.role, pick.focus, pick.limit)
            if pick.role == 'first of code' and scores.get(pick.spans[0][0], 0.0) >= bar > 0
            else pick
            for pick in digested
        ]
    picks.extend(
        (
            min(pick.priority, HEADER_PRIORITY - 0.5)
            if named_rows and pick.role == 'top'
            else min(pick.priority, WEAK_PRIORITY - 1)
            if asked_lines and pick.role == 'first of kind'
            else pick.priority,
            # A step's rows are what the table is read for: whole, as far as twice a plain line's room.
            [
                _Line(s, pick.limit or plain_limit * (2 if pick.role == 'step' else 1), pick.focus, role=pick.role)
                for s in pick.spans
            ],
            pick.role,
        )
        for pick in digested
    )
    picks.extend(
        (pick.priority, [_Line(s, plain_limit, role=pick.role) for s in pick.spans], pick.role)
        for pick in failed_tests(view, shape, tail, utf8)
    )
    if intent is not None and intent.versions:
        picks.extend(
            (priority, [_Line(span, match_limit, focus, role='intent')], 'intent')
            for priority, span, focus in _newer_versions(view, intent.versions)
        )
    # Asked for the worst of a lookup's rows (`the worst delays on that route`), the rows are few enough to show all:
    # the extreme among them is one of them, where a ranking of the whole table's rows would answer another question.
    if intent is not None and intent.extreme and not answer:
        # Where the request names several of the lines itself ("the biggest files are 18524, 18510 and 2619: which
        # tables are those?"), those lines are what it asks about: the extremes of a column come under them.
        under = INTENT_PRIORITY - INTENT_GROUPS * 0.1 - 1 if len(naming) >= NAMED_IDS else EXTREME_PRIORITY
        picks.extend(
            (
                min(pick.priority, under),
                # The row ranked is the last line of its pick, under what it belongs to: only it holds the measure. It
                # is what was asked for, as the best of the lines a request's words find: it may run as long as they.
                [
                    _Line(s, match_limit * 2, pick.focus, role=pick.role)
                    if s == pick.spans[-1]
                    else _Line(s, plain_limit, role=pick.role)
                    for s in pick.spans
                ],
                pick.role,
            )
            for pick in extreme_rows(
                view,
                shape,
                [*head, *sample, *tail],
                intent.extreme,
                tuple(term.key for term in intent.terms),
                intent.measure,
            )
        )
    # Asked about warnings, a build's compiler warnings are the answer, unless the request's own words found them.
    asked = intent is not None and intent.warnings
    asked = asked and not any(_COMPILER_WARNING.match(text, start, end) for start, end in strong_spans)
    picks.extend(_class_picks(view, shape, head, tail, plain_limit, utf8, asked=asked))
    picks.sort(key=lambda item: -item[0])

    # A diagnostics census is not a line of the output: a bracketed note above the excerpt, out of its room. Nor is
    # where the samples of collapsed stacks were taken, summed over every stack a frame is on.
    note_room = min(NOTE_CHARS, budget // 4)
    if counted is not None:
        note = counted.render(note_room)
    else:
        note = folded_stacks_note(view, [*head, *sample, *tail], note_room)
    room = budget - (len(note) + 1 if note else 0)
    widest_gap = len(_gap(total)) + 1  # no run of lines left out is longer than the text has characters
    sizes: dict[tuple[int, int, int], int] = {}
    kept = _pack(view, picks, room, widest_gap, sizes)
    holding: dict[str, tuple[list[int], bool]] = {}  # per offered pattern, the lines holding it: counted once
    offer = _offer(text, matches, kept, holding, counted) if matches else None
    if offer is not None and offer_chars:
        if room - offer_chars < MIN_OFFER_ROOM:
            offer = None  # too small a preview to spare the room: the header says how to read back anyway
        else:
            # Matching lines did not all fit: make room for the offer that points to them, and choose again.
            room -= offer_chars
            kept = _pack(view, picks, room, widest_gap, sizes)
            offer = _offer(text, matches, kept, holding, counted)
    _fill_short_gaps(view, kept)
    if pause is not None:
        pause()
    rendered, kept_chars, places, kept_count, total_lines = _render(view, kept)
    if note:
        rendered = f'{note}\n{rendered}'
        room += len(note) + 1
    if len(rendered) > room:  # not even one gap marker fits: show nothing rather than break the budget
        return Preview('', total, 0, total_lines, 0, 0, shape.kind.value)
    intent_lines = sum(1 for line in kept.values() if line.role in ('intent', 'extreme'))
    return Preview(
        rendered,
        total,
        min(kept_chars, total),
        total_lines,
        kept_count,
        places,
        shape.kind.value,
        matches.scanned,
        intent_lines,
        offer,
    )


_GUTTER_LINE = re.compile(r' *\d+ \| | {2,}\| | *(?:> +)?\d+(?: +\d+)? *\u2502|  +\u2502')
"""A source line a compiler quotes in its numbered gutter, or a line of the gutter under it (rustc's carets and
`help: try:` below the quoted line); Biome draws its gutter with a box line (`  > 304 │`, `    299 300 │` in a fix)."""
ECHO_OPTIONS = 5
"""Options (`-Wall`, `--with-x`) a line needs, and a third of its words at least, to be a command a build echoed."""


ANSWER_ROWS = 12
"""Rows shown at most as answers to one lookup (`_answer_terms`)."""
LOOKUP_ROWS = 3
"""Rows a lookup finds at least for them to be its answers, and for the extreme a request asks for to be sought among
them alone: two rows the request names ("least covered by the dicttoolz and recipes tests") are what it compares the
table's rows with."""


def _answer_terms(text: str, shape: Shape, matches: Matches, total_lines: int) -> frozenset[int]:
    """The request's terms a table's rows hold together when they look a few rows up by several keys (`JFK -> SFO`,
    `Metal in Canada`): of the sets of two or more terms rows hold as whole cells, the weightiest that `LOOKUP_ROWS` to
    `ANSWER_ROWS` rows hold (each such row answers the lookup). A term on half the lines or more is what the table is
    about (the file a checker read), no key. Empty when no rows hold such a set."""
    keys = {index for index, count in enumerate(matches.line_counts) if count < total_lines / 2}
    sets: Counter[frozenset[int]] = Counter()
    for match in matches.lines:
        if (match.start, match.end) == shape.header or _quoted_or_echoed(text, match.start, match.end, table=True):
            continue
        # A key is a cell of the row whole (`JFK`, `Canada`), not a word inside one (`io_uring` in a function's name).
        row = text[match.start : match.end]
        cells = {cell.strip('"\'').lower() for cell in row_fields(row, shape.delimiter or ' ')}
        held = frozenset(index for index in match.terms if index in keys and matches.terms[index].key in cells)
        if len(held) >= 2:
            sets[held] += 1
    best, weight = frozenset[int](), 0.0
    for held in sets:
        rows = sum(count for other, count in sets.items() if held <= other)
        value = sum(matches.terms[index].weight for index in held)
        if LOOKUP_ROWS <= rows <= ANSWER_ROWS and value > weight:
            best, weight = held, value
    return best


def _metric_matches(view: TextView, lines: Sequence[LineMatch]) -> list[LineMatch]:
    """An exposition's lines the request's words found, each description (`# HELP name The total number of rule
    evaluation failures.`) read as the metric's first sample, which holds the value it describes; once each."""
    out: list[LineMatch] = []
    taken: set[int] = set()
    for match in lines:
        sample = metric_sample(view, (match.start, match.end))
        if sample is not None:
            match = replace(match, start=sample[0], end=sample[1], focus=sample[0])
        if match.start not in taken:
            taken.add(match.start)
            out.append(match)
    return out


_VERDICT_OPENING = re.compile(r'[^\w\n]*(?:[A-Za-z]+ ){2,}')
"""A line's opening words, before its first that holds a digit, a dot or a colon: what a verdict says it is about."""
FINAL_SIBLINGS = 6
"""Earlier lines opening as the final line does that are shown with it, the last first, at most."""
FINAL_SIBLING_READ = 12
"""Lines opening so that are looked at: more are the output's texture (a progress line's `Processing item 37 of 90`),
not the verdicts of its parts."""


def _final_siblings(view: TextView, final: Span) -> list[Span]:
    """The lines that open with the final line's opening words (at least two words and a dozen characters, up to its
    first word holding a digit, a dot or a colon), each opening its line, the last first; none where there are more
    than a report has parts."""
    text = view.text
    opening = _VERDICT_OPENING.match(text, final[0], final[1])
    if opening is None or opening.end() - opening.start() < FINAL_OPENING_CHARS:
        return []
    words = '\n' + text[opening.start() : opening.end()]
    places: list[int] = [0] if final[0] and text.startswith(words[1:]) else []  # the first line has no break before it
    found = text.find(words, 0, final[0])
    while found != -1:
        places.append(found + 1)
        if len(places) > FINAL_SIBLING_READ:
            return []
        found = text.find(words, found + 1, final[0])
    return [view.line_at(place) for place in reversed(places[-FINAL_SIBLINGS:])]


FINAL_OPENING_CHARS = 12
"""Characters a final line's opening words must run to for lines opening with them to be its siblings."""


def _quoted_or_echoed(text: str, start: int, end: int, *, table: bool = False) -> bool:
    """Whether the line is a command line (many options), as make and build tools print what they run, a
    source line a compiler quotes in its numbered gutter (in no `table`: a psql row opening with a number and a bar
    is a row) or with a caret under it (`  ^~~`: lintr's, a compiler's without a gutter), or a traceback's frame in
    code not the user's (a request naming the framework finds it in every frame the error passed through)."""
    if not table and (_GUTTER_LINE.match(text, start) or _CARET_LINE.match(text, end + 1)):
        return True
    frame = PYTHON_FRAME.match(text, start, end)
    if frame is not None:
        return not own_frame(frame.group(1))
    words = text[start : min(end, start + 2_000)].split()
    options = sum(1 for word in words if word.startswith('-') and len(word) > 2)
    return options >= ECHO_OPTIONS and 3 * options >= len(words)


_CARET_LINE = re.compile(r'[ \t]*~*\^[\^~]*[ \t]*(?:\n|$)')
"""A line pointing with a caret (and tildes) at the place in the quoted line above it."""


_PASSING = re.compile(r' \.\.\. (?:ok|skipped\b|expected failure)| (?:PASSED|SKIPPED|XFAIL|XPASS)\b')
"""Where a test run's progress line says the test passed or was skipped (unittest's `-v`, pytest's `-v`)."""


_PASSED_CASE = re.compile(r'[ \t]*<testcase\b[^\n]*/>[ \t]*$')
"""A test case a JUnit report closes on its own line, with no failure in it: one that passed."""


QUIET_SUMMARY_LINES = 4
"""Last lines of a table, listing or findings list checked for a summary of the whole."""
SUMMARY_PRIORITY = 950.0
"""Between the final line (1000) and lines intent selects (900): the last two summary lines at the end."""


def _names_every_place(matches: Matches, findings: int) -> bool:
    """Whether the request's paths are on as many lines as the report has findings (most of them at least)."""
    if not findings:
        return False
    paths = sum(
        count for term, count in zip(matches.terms, matches.line_counts, strict=True) if term.kind is TermKind.path
    )
    return paths >= PLACES_NAMED * findings


PLACES_NAMED = 0.8
"""The share of a report's findings whose places a request's paths must name for them to be the checked files."""
BROAD_LINES = 32
"""Lines of a report a term may be on and still say which of its findings a request means (a preview shows a dozen)."""
_WORDS = frozenset((TermKind.word,))
_REPORT_SCOPE = frozenset((TermKind.word, TermKind.path))
"""Terms that say less about a checker's findings than its own account of them: words, and the paths of the
files checked when those are the places of nearly every finding (`_names_every_place`): matching them finds each
file's first finding, not a bug."""


QUIET_SHAPES = frozenset(
    (
        ShapeKind.table,
        ShapeKind.history,
        ShapeKind.diff,
        ShapeKind.key_value,
        ShapeKind.json,
        ShapeKind.listing,
        ShapeKind.records,
    )
)
"""Shapes whose lines are data or prose: an error word in a row, a commit message or a diff is not an error."""
_CLASSIFIED_CHARS = 240
"""Longer lines are classified by their first characters: the classifier's patterns cost per character."""
_PERCENT_SUFFIX = re.compile(r'\[\s*\d{1,3}%\]\s*$')


FIRST_COMPILER_ERROR_PRIORITY = 901.0
"""Just above the lines a request's words select (900)."""
_BUILD_VERDICT = re.compile(r'g?make(?:\[\d+\])?: \*\*\* |ninja: build stopped: ')
BUILD_VERDICTS = 2
"""A build tool's verdicts on the targets it gave up on (make's `*** [...] Error 1`) ranked with its first error."""
_COMPILER_ERROR = re.compile(r'\S+:\d+(?::\d+)?: (?:fatal )?error: ')
PREAMBLE_ALERT_PRIORITY = 340.0
"""A checker's first warning or error before its findings: just above the first finding of each code (330)."""
_FINDING = re.compile(r'\S+:\d+(?::\d+)?:? |In \S.* line \d+:$')
"""A checker's finding: its place first (`src/app.py:12:5: E501 ...`, `docs/api.md:14: WARNING: ...`), or over it
(shellcheck's `In /usr/bin/ucf line 593:`)."""


_PROBE_FAILURES = ('(No such file or directory)', '(Resource temporarily unavailable)')
"""How a syscall trace's probes end: a search path tried and passed over."""


DIFF_CONTEXT = 0.4
"""A diff's unchanged lines and its headers (`@@ ... class Adapter:`, `diff --git`) weigh this much of a changed
line: a change is what a diff is read for; the file and hunk come with it as context anyway."""


def _diff_weight(line: str) -> float:
    if line.startswith(('+', '-')) and not line.startswith(('+++ ', '--- ')):
        return 1.0
    return DIFF_CONTEXT


NAMED_COMMITS = 4
"""Commits whose subject names what a request names (a function, a file) listed, newest first."""
NAMED_COMMIT_PRIORITY = 899.72
"""After the three best matches (each line a request names there may be the answer), before the rest."""
_NAMING = frozenset((TermKind.identifier, TermKind.path, TermKind.quoted))


def _named_commits(view: TextView, shape: Shape, matches: Matches, limit: int) -> list[tuple[float, list[_Line], str]]:
    """In `git log` (patches or not), the commits whose subject line holds a name the request holds: "what changed
    in naturalsize" is answered by the commits that say so, however many patch lines name it too."""
    starts = sorted(
        {
            start
            for term, lines in zip(matches.terms, matches.hit_lines, strict=True)
            if term.kind in _NAMING
            for start in lines
        }
    )
    picks: list[tuple[float, list[_Line], str]] = []
    for start in starts:
        span = view.line_at(start)
        if not _commit_subject(view, span):
            continue
        # Its date, a line above: when it changed is most of what a list of changes is read for.
        dated = [_Line(s, limit, role='context') for s in view.backward(span, 2) if view.content(s).startswith('Date')]
        picks.append(
            (NAMED_COMMIT_PRIORITY - 0.001 * len(picks), [*dated, _Line(span, limit, role='intent')], 'intent')
        )
        if len(picks) == NAMED_COMMITS:
            break
    return picks


def _commit_subject(view: TextView, span: Span) -> bool:
    """Whether the line is a commit's subject: indented four spaces under a blank line under its `Date:`."""
    content = view.content(span)
    if not content.startswith('    ') or not content[4:5].strip():
        return False
    blank = view.previous_line(span)
    date = view.previous_line(blank) if blank is not None and not view.content(blank).strip() else None
    return date is not None and view.content(date).startswith(('Date:', 'AuthorDate:', 'CommitDate:'))


LISTED = 0.5
"""A key whose value lists many names (`Depends: a, b, c, ...`) weighs this much: a name there is one of many,
not the entry the line is about."""
LIST_COMMAS = 4


_FINE_STATUS = re.compile(r'(?:\b(?:OK|ok|passed|PASSED|fine|clean)|\bno (?:errors?|issues?|problems?))\.?\s*$')
"""A line that ends saying all is well with its item."""
FINE_WEIGHT = 0.5
_NAME_RUN = re.compile(r'\s+(?:[\w.+:~-]+ +){3,}[\w.+:~-]+\s*')
"""An indented line of four or more bare names and nothing else: a list wrapped to the terminal's width."""


def _status_weight(line: str) -> float:
    return FINE_WEIGHT if _FINE_STATUS.search(line) else 1.0


def _listing_weight(line: str) -> float:
    return LISTED if line.count(',') >= LIST_COMMAS else 1.0


_FIRST_BAD = re.compile(r'[0-9a-f]{7,40} is the first bad commit\s*$')
BISECT_REACH = 8


def _verdict_subject(view: TextView, span: Span, limit: int) -> list[_Line]:
    """For `git bisect`'s verdict (`b2f25e5b... is the first bad commit`), the commit's subject under it: what the
    change was, which the hash alone does not say. For an account that introduces a list (doctest's `2 items had
    failures:`), the indented lines under it (`   2 of   2 in stats.median_high`)."""
    content = view.content(span)
    if content.rstrip().endswith(':'):
        listed = takewhile(lambda line: view.content(line)[:1].isspace(), view.forward(span, ACCOUNT_ITEMS))
        return [_Line(line, limit, role='summary') for line in listed]
    if not _FIRST_BAD.match(content):
        return []
    for line in view.forward(span, BISECT_REACH):
        if view.content(line).startswith('    ') and view.content(line).strip():
            return [_Line(line, limit, role='summary')]
    return []


ACCOUNT_ITEMS = 6
"""Lines of the list an account introduces shown with it."""


REPEATED_ERROR_PRIORITY = 150.0
"""Where an error line of a kind shown already ranks: under a log's warnings, over its plain last lines."""
REPEATED_WARNING_PRIORITY = 95.0
"""Where a warning of a kind shown already ranks: under the plain lines a log opens and ends with."""
_RUN_TALLY = re.compile(r'\s*\d+ (?:passing \(\d[\d.]*m?s\)|failing|pending)\s*$')
"""A line of mocha's tally: `  1255 passing (3s)`, `  4 pending`, `  1 failing`."""


LONE_ERRORS = 2
"""Lines a log writes at error level, at most, for its first to rank with the best lines a request names."""
LONE_ERROR_PRIORITY = 899.99
_ERROR_LEVEL = re.compile(r'[^\n]{0,40}?\b(?:ERROR|CRITICAL|FATAL)\b')
"""A line logged at error level: the level word within its first forty characters."""


DATA_ALARMS = ('=> not found', TRACEBACK_HEADER, 'Segmentation fault')
"""Literals a listing, a dump of keys or a list of records is searched for: lines that report a failure whatever
data they sit among (`libjli.so => not found` in `ldd`'s list of the libraries it resolved)."""
ALARMED_SHAPES = frozenset((ShapeKind.key_value, ShapeKind.listing, ShapeKind.records))
DATA_ALARM_LINES = 3
"""Distinct failure lines shown of those data holds."""
DATA_ALARM_PRIORITY = 415.0
"""Above a log's first error (410): in data, such a line is all that went wrong."""


def _quiet(shape: Shape) -> bool:
    """Whether the shape's lines are all of one class: data, prose, a list of findings (every diagnostic is an
    error), a debugger's backtraces (a frame's local `err` is no error)."""
    return (
        shape.kind in QUIET_SHAPES
        or shape.kind is ShapeKind.diagnostics
        or (shape.kind is ShapeKind.log and shape.variant == 'threads')
    )


def _class_weight(shape: Shape) -> Callable[[str], float] | None:
    if shape.kind is ShapeKind.diff:
        return _diff_weight
    if shape.kind is ShapeKind.key_value:
        return _listing_weight
    if _quiet(shape):
        # Data, prose, or a list of findings: every line of one class. Only a status that says all is well (`x.pm pod
        # syntax OK.`, `path: OK`) tells a line apart: the item the request names is looked for where it is not.
        return _status_weight

    probes = shape.kind is ShapeKind.syscalls

    def weigh(line: str) -> float:
        if _PERCENT_SUFFIX.search(line):
            return 0.4  # a test runner's per-test line: its summary line says the same
        if probes and line.rstrip().endswith(_PROBE_FAILURES):
            return 0.3  # a trace's lookup that found nothing: how a program probes, not what it used
        if _FINE_STATUS.search(line):
            return FINE_WEIGHT  # an item's status saying all is well (`x.pm pod syntax OK.`)
        if _NAME_RUN.fullmatch(line):
            return LISTED  # a wrapped list of names (`  nginx-common openjdk-17-jdk ...`): a line about one says more
        line_class = classify_line(line[:_CLASSIFIED_CHARS])
        if line_class in (LineClass.progress, LineClass.repeated):
            return 0.4
        if line_class in (LineClass.error, LineClass.summary):
            return 1.5
        return 1.0

    return weigh


def _class_picks(
    view: TextView,
    shape: Shape,
    head: list[Span],
    tail: list[Span],
    limit: int,
    utf8: bytes | None = None,
    *,
    asked: bool = False,
) -> list[tuple[float, list[_Line], str]]:
    """Lines by class, as a salient excerpt ranks them; error words in data and prose do not count. `asked`: the
    request asks about warnings, and a build's compiler warnings rank with the lines it names."""
    quiet = _quiet(shape)
    preamble_pick: tuple[float, list[_Line], str] | None = None
    # The classifier reads the first lines and the last; a table's or a listing's rows are not classified.
    window = [*(head if quiet else head[:CLASSIFIED_HEAD]), *tail]
    # Data and prose (tables, history, diffs) and lists of findings (every diagnostic is an `error`): only
    # blank lines are told apart; intent and the shape's digest choose among the rest.
    if quiet:
        classes = {span: LineClass.blank if not view.content(span).strip() else LineClass.normal for span in window}
        for span in tail[-QUIET_SUMMARY_LINES:]:
            # A data listing may still end with its own count (`Found 5028 errors.`, `(42 rows)`).
            if classify_line(view.content(span)[:_CLASSIFIED_CHARS]) is LineClass.summary:
                classes[span] = LineClass.summary
    else:
        contents = [view.content(span)[:_CLASSIFIED_CHARS] for span in window]
        classes = dict(zip(window, classify_lines(contents).classes, strict=True))
    # What a checker printed before its first finding (a configuration it could not load, an inventory it could not
    # fetch), or a program before the table it went on to print (its inputs, a warning, a first result), is not one of
    # the findings or the rows: its warnings and errors count as in a log.
    before_findings: list[Span] = []
    if shape.kind is ShapeKind.diagnostics:
        before_findings = list(takewhile(lambda span: not _FINDING.match(view.content(span)), head))
    elif shape.kind is ShapeKind.table and shape.header is not None:
        header_start = shape.header[0]
        before_findings = [span for span in head if span[1] < header_start]
    elif shape.kind is ShapeKind.key_value and shape.variant == 'manual':
        before_findings = list(takewhile(lambda span: not manual_start(view.content(span)), head))
    if before_findings:
        contents = [view.content(span)[:_CLASSIFIED_CHARS] for span in before_findings]
        found = classify_lines(contents).classes
        # What a checker prints as it goes (clang-tidy's `226 warnings generated.` per file) is no account of the run.
        classes.update(
            (span, LineClass.normal if line_class is LineClass.summary else line_class)
            for span, line_class in zip(before_findings, found, strict=True)
        )
        alerts = [span for span in before_findings if classes[span] in (LineClass.error, LineClass.warning)]
        if alerts:
            # Above the first finding of each code: a checker that ran without its configuration or its references
            # reports findings that follow from that. A line ending in `:` brings what it introduces.
            first = alerts[0]
            below = view.next_line(first) if view.content(first).rstrip().endswith(':') else None
            spans = [first, below] if below is not None else [first]
            # More room than a plain line: a warning's reason is often long (a URL and an exception), and it is what
            # the findings after it follow from; longer still, it is cut in its middle (which and why are at its
            # ends), leaving the room to the findings.
            lines = [_Line(span, limit * 2, role='error') for span in spans]
            preamble_pick = (PREAMBLE_ALERT_PRIORITY, lines, 'error')
    if shape.kind in (ShapeKind.log, ShapeKind.test_run) and not quiet:
        # Shapes with a digest of their own find their failures there; a log's can sit anywhere.
        # The middle begins after the head lines classified: the rest of the head is searched like the middle.
        classified_to = head[:CLASSIFIED_HEAD][-1][1] if head else 0
        middle = _middle_hits(
            view, classified_to, tail[0][0] if tail else view.end, utf8, spread=shape.kind is ShapeKind.log
        )
        for span in middle:
            if span not in classes:
                content = view.content(span)[:_CLASSIFIED_CHARS]
                line_class = alert_class(content)
                if line_class is not None:
                    classes[span] = line_class
                elif logged_traceback(content) >= 0:
                    classes[span] = LineClass.stack  # a traceback that began before the lines read at the end
    alarms: list[tuple[float, list[_Line], str]] = []
    if shape.kind in ALARMED_SHAPES and view.text.isascii():
        # Data (a listing, a dump of keys, records) is not classified, but a few failures read as nothing else: a
        # library the loader cannot find among those it resolved, a traceback, a crash. The first of each distinct
        # line, under the entry it belongs to (the binary `ldd` lists the library under). Not in data outside ASCII
        # (a tree drawn with box characters on every line), which would be converted whole to be searched.
        seen: set[str] = set()
        for span in _middle_hits(view, 0, view.end, utf8, spread=False, markers=DATA_ALARMS):
            content = view.content(span)
            if content in seen or len(seen) == DATA_ALARM_LINES:
                continue
            if alert_class(content[:_CLASSIFIED_CHARS]) is LineClass.error:
                seen.add(content)
                heading = heading_of(view, span)
                spans = [heading, span] if heading is not None else [span]
                alarms.append(
                    (DATA_ALARM_PRIORITY - 0.01 * len(alarms), [_Line(s, limit, role='error') for s in spans], 'error')
                )
    if shape.kind is ShapeKind.syscalls:
        # A trace's failed lookups (ENOENT on a search path) are how programs probe, not what went wrong.
        for span, line_class in list(classes.items()):
            if line_class is LineClass.error and view.content(span).rstrip().endswith(_PROBE_FAILURES):
                classes[span] = LineClass.normal
    out: list[tuple[float, list[_Line], str]] = alarms
    if preamble_pick is not None:
        out.append(preamble_pick)
    if shape.kind is ShapeKind.log:
        # A section the output titles as its summary says what a long build or check came to.
        section = summary_section(view)
        if section:
            out.append((SUMMARY_SECTION_PRIORITY, [_Line(span, limit, role='summary') for span in section], 'summary'))
    nonblank = [span for span in window if view.content(span).strip()]
    if nonblank:
        out.append((420.0, [_Line(min(nonblank), limit, role='first')], 'first'))
    errors = sorted(span for span, c in classes.items() if c is LineClass.error)
    tail_start = tail[0][0] if tail else view.total
    if errors:
        # The first error says what went wrong, its cause often at its end (a configuration's `line 22: field ...`
        # after the file it could not load): room for its whole message, as a checker's first warning has.
        first = _Line(errors[0], limit * 2, role='error')
        # The same line again right under it says it once more; the line after the copies says what it came to.
        after = _after_copies(view, errors[0], limit)
        # A crash line followed by its stack (a debugger's backtrace, a JVM's exception) brings where it happened.
        frames = [_Line(span, limit, role='traceback') for span in crash_frames(view, errors[0])]
        if frames:
            # Where a program crashed answers most questions asked of its output: above what the request names.
            out.append((CRASH_PRIORITY, [first, *frames], 'first error'))
        out.append((410.0 - 0.05 if frames else 410.0, [first, *after], 'first error'))
        if shape.kind is ShapeKind.log and _COMPILER_ERROR.match(view.content(errors[0])):
            # A build's first compiler error is why it failed, whatever else the request names.
            out.append((FIRST_COMPILER_ERROR_PRIORITY, [first], 'first error'))
        if shape.kind is ShapeKind.log:
            # A log's one or two lines logged at error level among its thousands (an inventory that could not be
            # fetched, before the pile of warnings that follow from it) are what went wrong: beside the best of what
            # the request names.
            leveled = [span for span in errors if _ERROR_LEVEL.match(view.content(span))]
            if 0 < len(leveled) <= LONE_ERRORS:
                out.append((LONE_ERROR_PRIORITY, [_Line(leveled[0], limit, role='error')], 'first error'))
        if frames:
            out.extend(_other_crashes(view, errors, limit))
    tracebacks = sorted(span for span in classes if logged_traceback(view.content(span)) >= 0)
    raised: set[str] = set()
    names: set[str] = set()  # the exceptions' classes
    for span in tracebacks[:TRACEBACKS_READ]:
        # The first traceback of each kind of exception (the line without what varies), three kinds at most: a
        # server logs the same bug's traceback at every request that hits it.
        found = traceback_picks(view, span, 408.0)
        exception = view.content(found[0].spans[0]) if found and found[0].role == 'traceback' else ''
        kind = VARYING.sub('', exception)
        if kind in raised:
            continue
        raised.add(kind)
        names.add(exception.split(':', 1)[0])
        out.extend(
            (pick.priority, [_Line(s, limit, role='traceback') for s in pick.spans], pick.role) for pick in found
        )
        if len(raised) == TRACEBACK_KINDS:
            break
    if tracebacks and len(raised) < TRACEBACK_KINDS:
        out.extend(_later_exceptions(view, names, TRACEBACK_KINDS - len(raised), limit))
    final = max(nonblank, default=None)
    # A section's title (`=== short test summary info ===`) is no account: that holds its numbers.
    # A tally of outcomes is that account whatever level a tool logged it at (Maven's `[ERROR] Tests run: 1666,
    # Failures: 1, Errors: 3, Skipped: 1`).
    summaries = sorted(
        span
        for span, line_class in classes.items()
        if span[0] >= tail_start
        and span != final
        and (line_class is LineClass.summary or _is_tally(view.content(span)))
        and any(char.isdigit() for char in view.content(span))
    )
    if shape.kind in (ShapeKind.log, ShapeKind.test_run):
        # A run that prints its tally before the details of its failures (mocha's `1255 passing (3s)`, then `4
        # pending` and `1 failing`) ends in those details: the last tally its middle holds, with the rest of it.
        tallies = [span for span in classes if span[0] < tail_start and _RUN_TALLY.match(view.content(span))]
        if tallies:
            first = max(tallies)
            rest = takewhile(lambda span: _RUN_TALLY.match(view.content(span)) is not None, view.forward(first, 2))
            out.append((SUMMARY_PRIORITY, [_Line(span, limit, role='summary') for span in (first, *rest)], 'summary'))
    # The output's own account of itself (`Found 5028 errors.`, `Total tests: run=421 skipped=99`) outranks
    # what a request selects: it answers "how many" and frames the rest. The last two before the final line.
    out.extend(
        (SUMMARY_PRIORITY - rank, [_Line(span, limit, role='summary'), *_verdict_subject(view, span, limit)], 'summary')
        for rank, span in enumerate(reversed(summaries[-2:]))
    )
    # A build tool's verdict on a target in the middle of a log (`make: *** [Makefile:162: deflate.o] Error 1`):
    # what failed, with the first compiler error above what a request names.
    verdicts = sorted(
        span
        for span, line_class in classes.items()
        if line_class is LineClass.summary and span[0] < tail_start and _BUILD_VERDICT.match(view.content(span))
    )
    out.extend(
        (FIRST_COMPILER_ERROR_PRIORITY - 0.01 * (rank + 1), [_Line(span, limit, role='summary')], 'summary')
        for rank, span in enumerate(verdicts[:BUILD_VERDICTS])
    )
    # The errors a log ends with are read as its account of how it ended; one of each kind says it (the last), the
    # same error again at every request says nothing more.
    ending = {
        _error_kind(view.content(span)): span
        for span in sorted(span for span, line_class in classes.items() if line_class is LineClass.error)
        if span[0] >= tail_start
    }
    last_errors = set(ending.values())
    # The same error again (a failing job retried every few seconds, its pid and file name changing) says nothing the
    # first said, but for when it stopped: the last of a kind keeps its rank, those between rank under the warnings.
    latest: dict[str, Span] = {}
    repeated: set[Span] = set()
    copies: set[Span] = set()  # a line right under the same line: a client trying again (`timed out` three times)
    before: Span | None = None
    for span in sorted(span for span, line_class in classes.items() if line_class is LineClass.error):
        kind = _error_kind(view.content(span))
        if kind in latest:
            repeated.add(span)
        if before is not None and before[1] + 1 == span[0] and view.content(before) == view.content(span):
            copies.add(span)
        latest[kind] = before = span
    repeated -= set(latest.values())
    repeated |= copies
    # The same warning again about another name (a package index's `Location '...' is ignored` for every package)
    # says nothing its first said: the first of each kind keeps its rank, those after it rank under the plain lines
    # at the ends, which say more.
    warned: set[str] = set()
    for span in sorted(span for span, line_class in classes.items() if line_class is LineClass.warning):
        kind = _error_kind(view.content(span))
        if kind in warned:
            repeated.add(span)
        warned.add(kind)
    for span, line_class in classes.items():
        if line_class is LineClass.summary or (line_class is LineClass.error and span in last_errors):
            out.append(
                (
                    400.0 - 1e-6 * (view.total - span[0]) - (0.5 if line_class is LineClass.error else 0),
                    [_Line(span, limit, role='summary')],
                    'summary',
                )
            )
        elif line_class is LineClass.error:
            priority = REPEATED_ERROR_PRIORITY if span in repeated else 300.0
            out.append((priority - 1e-6 * span[0], [_Line(span, limit, role='error')], 'error'))
        elif line_class is LineClass.warning:
            priority = REPEATED_WARNING_PRIORITY if span in repeated else 200.0
            out.append((priority - 1e-6 * span[0], [_Line(span, limit, role='warning')], 'warning'))
    if shape.kind is ShapeKind.log:
        out.extend(_error_kinds(view, classes, limit))
        out.extend(_compiler_warnings(view, classes, limit, ASKED_WARNING_PRIORITY if asked else WARNING_KIND_PRIORITY))
    plain = (LineClass.normal, LineClass.stack)
    noise = (LineClass.repeated, LineClass.progress)
    # An output of no known shape with nothing flagged in it (a settings dump, a dry run, a list of names), a dump of
    # keys, or a table's rows past what its digest chose (a headerless one sorted newest first), says what it is at
    # both ends: its last and first lines alternate, as a cut by position keeps them.
    balanced = shape.kind in (ShapeKind.log, ShapeKind.key_value, ShapeKind.table)
    step = 0.02 if balanced else 0.01
    # Balanced, the ends alternate by the characters they show, not by lines: long last lines (a dump's `INSERT`s)
    # leave the first lines their share, as a cut by position does.
    shown_chars = 0
    for index, span in enumerate(reversed(tail)):
        if classes.get(span) in plain:
            rank = shown_chars * step / BALANCE_CHARS if balanced else index * step
            out.append((100.0 - rank, [_Line(span, limit, role='tail')], 'tail'))
            shown_chars += min(span[1] - span[0] + 1, limit)
        elif classes.get(span) in noise:
            out.append((10.0 - index * 0.01, [_Line(span, limit, role='noise')], 'noise'))
    # A list of paths under a few lines that say what it lists (`pip show -f`: the package, its version and
    # location): those lines are its header, read before the last paths.
    preamble = _preamble(view, head) if shape.kind is ShapeKind.listing and shape.variant == 'find' else 0
    if shape.kind is ShapeKind.table:
        preamble = len(before_findings)  # lines above a table's header: read before its last rows
    shown_chars = 0
    for index, span in enumerate(head):
        if classes.get(span) in plain:
            if balanced:
                rank = shown_chars * step / BALANCE_CHARS + 0.015
                out.append((100.0 - rank, [_Line(span, limit, role='head')], 'head'))
                shown_chars += min(span[1] - span[0] + 1, limit)
                continue
            if index < preamble and _NAMING_KEY.match(view.content(span)):
                # `Name: numpy`, `Version: 2.4.6`, `Location: ...`: what the listing is of, as a table's header is.
                out.append((HEADER_PRIORITY - index * 0.01, [_Line(span, limit, role='head')], 'head'))
                continue
            rank = 101.0 if index < preamble else 99.0
            out.append((rank - index * 0.01, [_Line(span, limit, role='head')], 'head'))
        elif classes.get(span) in noise:
            out.append((9.0 - index * 0.01, [_Line(span, limit, role='noise')], 'noise'))
    return out


COPIES_READ = 16
"""Lines under an error read for copies of it, at most."""


def _after_copies(view: TextView, span: Span, limit: int) -> list[_Line]:
    """For a line the next lines repeat word for word, the first line after those copies, when it says something."""
    content = view.content(span)
    line: Span | None = span
    for _ in range(COPIES_READ):
        line = view.next_line(line)
        if line is None or view.content(line) != content:
            break
    if line is None or line == view.next_line(span) or not view.content(line).strip():
        return []
    return [_Line(line, limit, role='context')]


FORM_REPEATS = 2
"""Matched lines of one form (their first plain words: `CLOSE-WAIT`, `warning: conversion`) that keep their rank."""


def _varied(text: str, lines: Sequence[LineMatch]) -> list[LineMatch]:
    """The matched lines, best first, those of a form already matched `FORM_REPEATS` times after all others: ninety
    lines of one form holding what the request names say it once or twice, and a line of another form (another
    record's name, another state) says more than the third."""
    seen: Counter[str] = Counter()
    first: list[LineMatch] = []
    later: list[LineMatch] = []
    for match in lines:
        form = line_form(text, match.start, match.end)
        seen[form] += 1
        (first if not form or seen[form] <= FORM_REPEATS else later).append(match)
    return first + later


FINAL_SIBLING_PRIORITY = 940.0
"""Under the final line and a summary's last lines, over what a request's words find: the verdicts of a report's
earlier parts."""
FINAL_OPENER_PRIORITY = 960.0
"""Where the line an indented last line goes on from ranks: with the account a run ends with."""
OPENER_REACH = 2
"""Lines above an indented last line looked through for the one it goes on from: a message's next line or two, not
the source and carets a compiler quotes under its last warning (the room goes to what the request names)."""


LIST_REACH = 64
"""Lines of a list the last line ends that are read back to the line introducing it."""
LIST_ITEMS = 6
"""Items of such a list shown with its title, the last of them: past that many, the title alone."""


def _list_title(view: TextView, span: Span) -> list[Span]:
    """For the indented last item of a list of names, one a line, the line introducing the list (`these 7 objects'
    docstrings contain syntax errors:`) within `LIST_REACH` lines, and the items between when they are few: what the
    list is of."""
    last = view.content(span)
    if not last[:1].isspace() or len(last.split()) != 1:
        return []
    above: list[Span] = []
    for line in view.backward(span, LIST_REACH):
        content = view.content(line)
        if not content[:1].isspace():
            if not content.rstrip().endswith(':') or not above:
                return []
            return [line, *above[::-1]] if len(above) < LIST_ITEMS else [line]
        if len(content.split()) != 1:
            return []  # a record's fields (`  Installed: 3.134`), a quoted source line: no list of names
        above.append(line)
    return []


def _opening_line(view: TextView, span: Span) -> list[Span]:
    """For an indented line, the lines from the nearest one above it that is not indented, within `OPENER_REACH`
    (none when the line is not indented, or no such line is that near)."""
    if not view.content(span)[:1].isspace():
        return []
    return view.opened_above(span, OPENER_REACH, lambda content: not content[:1].isspace())


PEAK_SCAN_CHARS = 256 * 1024
"""Samples up to this size are read whole for the rows where a column the request names peaks."""
PEAK_COLUMNS = 3
"""Columns whose peak row is shown, at most."""
PEAK_PRIORITY = 899.0
"""Where such a row ranks: under the best lines the request names, over the rest."""


def _column_peaks(view: TextView, matches: Matches, direction: int, limit: int) -> list[tuple[float, list[_Line], str]]:
    """In a sampler's log (`mpstat`, `iostat`, `vmstat`: column names over each sample), where the request names a
    column (`iowait`, `steal`), the row where it peaks (its smallest value for a request asking for the least): the
    spike the request is about, which no line of the column's name holds. Rows are the lines with as many fields as
    the names; fields are counted from the end, as a sample's time at the start may take one or two."""
    if view.total > PEAK_SCAN_CHARS or not matches.lines:
        return []
    keys = {term.key for term in matches.terms if len(term.key) >= 3}
    text = view.text
    wanted: dict[tuple[int, int], Span] = {}  # (fields, a column's index from the end) -> the line of names
    for match in matches.lines:
        fields = text[match.start : match.end].split()
        if len(fields) < PEAK_MIN_FIELDS or sum(1 for field in fields if cell_number(field) is not None) > 1:
            continue  # not a line of names
        if any(field[-1] in _PROSE_STOPS for field in fields):
            continue  # a sentence (a manual's `Redo log buffer size in bytes.`), not column names
        below = view.next_line((match.start, match.end))
        row = view.content(below).split() if below is not None else []
        if len(row) != len(fields) or sum(1 for field in row if _opens_number(field)) * 2 < len(row):
            continue  # names are over a row of as many numbers (mostly): a log's line is over another log line
        for index, field in enumerate(fields):
            if field.lower().strip('%#') in keys:
                wanted.setdefault((len(fields), len(fields) - 1 - index), (match.start, match.end))
        if len(wanted) >= PEAK_COLUMNS:
            break
    if not wanted:
        return []
    best: dict[tuple[int, int], tuple[float, int]] = {}
    ties: dict[tuple[int, int], int] = {}
    counts = {fields for fields, _ in wanted}
    start = 0
    for line in text.split('\n'):
        fields = line.split()
        if len(fields) not in counts:
            start += len(line) + 1
            continue
        numeric: bool | None = None
        for column in wanted:
            if len(fields) == column[0] and (value := cell_number(fields[-1 - column[1]])) is not None:
                if numeric is None:
                    # A sample's row is mostly numbers; a sentence that holds one is no row (told by first characters).
                    numeric = sum(1 for field in fields if _opens_number(field)) * 2 >= len(fields)
                if not numeric:
                    break
                held = best.get(column)
                if held is None or (value - held[0]) * direction > 0:
                    best[column] = (value, start)
                    ties[column] = 1
                elif value == held[0]:
                    ties[column] += 1
        start += len(line) + 1
    # A value many rows share is no peak (a CPU's number, a flag): the column names things, it does not measure them.
    peaks = sorted(
        ((column, row) for column, (_, row) in best.items() if ties[column] <= PEAK_TIES), key=lambda peak: peak[1]
    )
    picks: list[tuple[float, list[_Line], str]] = []
    for rank, (column, row) in enumerate(peaks):
        names = wanted[column]
        picks.append(
            (
                PEAK_PRIORITY - rank * 0.01,
                [_Line(names, limit, role='context'), _Line(view.line_at(row), limit, role='extreme')],
                'extreme',
            )
        )
    return picks


PEAK_MIN_FIELDS = 4
"""Fields a line of column names holds at least."""


def _opens_number(field: str) -> bool:
    """Whether a field opens with a number (`54.55`, `-0.5`, `.5`): a row of samples is told by its first characters."""
    return field[0].isdigit() or (len(field) > 1 and field[0] in '-+.' and field[1].isdigit())


_PROSE_STOPS = frozenset('.,;')
"""What ends a word in a sentence and no column's name."""
PEAK_TIES = 2
"""Rows that may share a column's peak for it to be one."""


_LEADING_STAMP = re.compile(r'\A\s*\d[\d:./T-]*(?: [AP]M)?\s+')
"""A time or a date opening a line (`11:05:58`, `2026-12-02T11:05:58.123`)."""
_TALLY = re.compile(
    r'\b\d+ (?:passed|failed|errors?|failures?|skipped|ignored|pending|broken|xfailed|xpassed|deselected|todo)\b'
    r'|\b(?:Tests? run|Passed|Failed|Failures|Errors|Skipped|Ignored|Pending|Total):[ \t]*\d+\b',
    re.IGNORECASE,
)
"""One count of a run's outcomes: `3 failed`, `Failures: 1`."""
TALLY_COUNTS = 2


_TALLY_WORDS = ('assed', 'ailed', 'rror', 'ailure', 'kipped', 'gnored', 'ending', 'roken', 'otal', 'run:', 'todo')
"""Parts of the words a tally counts, searched for before its pattern is (a literal search costs far less)."""


def _is_tally(line: str) -> bool:
    """Whether the line counts a run's outcomes, two at least (`Tests run: 1666, Failures: 1, Errors: 3`)."""
    if not any(word in line for word in _TALLY_WORDS):
        return False
    found = _TALLY.search(line)
    return found is not None and _TALLY.search(line, found.end()) is not None


BALANCE_CHARS = 80
"""Characters of an end that count as one of its lines when the two ends alternate."""


BLOCK_BODY = 6
"""Lines of a braced block a request names shown with its opening line, up to its closing brace."""


def _block_body(view: TextView, span: Span) -> list[Span]:
    """The first lines of the braced block `span` opens, to the brace that closes it (indented as it is)."""
    content = view.content(span)
    indent = len(content) - len(content.lstrip(' \t'))
    body: list[Span] = []
    for following in view.forward(span, BLOCK_BODY):
        line = view.content(following)
        deeper = len(line) - len(line.lstrip(' \t')) > indent
        if not deeper and (line.strip() == '}' or not body):
            break  # its end, or no block: the next line is not inside it (a list of definitions, one a line)
        body.append(following)
    return body


_SECTION_TITLE = re.compile(r'[A-Z][\w()/-]*(?: [\w()/-]+){0,5}:[ \t]*')
"""A title a report puts over a section, alone on its line: `Throughput Bottlenecks:`, `Resource pressure per
iteration:`."""
SECTION_LINES = 12
"""Lines of a titled section shown under its title, at most: a short one whole, to the blank line that ends it."""
SECTION_CHARS = 800
"""Characters of a titled section shown whole under its title, at most."""


def _section_body(view: TextView, span: Span) -> list[Span]:
    """The lines under a section's title up to the blank line that ends it, when there are few: none for a long one."""
    body: list[Span] = []
    for line in view.forward(span, SECTION_LINES + 1):
        if not view.content(line).strip():
            break
        body.append(line)
    if len(body) > SECTION_LINES or sum(line[1] - line[0] + 1 for line in body) > SECTION_CHARS:
        return body[:DEFINITION_BODY]
    return body


def _definition_body(view: TextView, span: Span) -> list[Span]:
    """The lines a matched definition brings: a block's first lines, or the paragraph indented under it."""
    content = view.content(span)
    bare = content.strip()
    # A record's heading (`openssl:`, a JSON key over its object: `"policy":{`), not a block of code.
    member = bare.startswith('"') and bare.endswith(MEMBER_OPENINGS)
    heading = member or (bare.endswith(':') and len(bare.split()) == 1)
    if bare.endswith((':', '{')) and not heading:
        return list(view.forward(span, DEFINITION_BODY))
    return indented_under(view, span, RECORD_BODY if heading else DEFINITION_PARAGRAPH)


_EXCEPTION_LINE = re.compile(r'\n((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Warning))(?::|\n)')
"""A Python exception line, at the start of a line: `sqlite3.OperationalError: database is locked`."""
LATER_EXCEPTIONS_CHARS = 512 * 1024
"""Logs up to this size are searched whole (one regex pass, ~1.3 ms per megabyte) for the kinds of exception their
tracebacks end in."""


def _later_exceptions(view: TextView, shown: set[str], room: int, limit: int) -> list[tuple[float, list[_Line], str]]:
    """The tracebacks of exceptions of other kinds than those shown, wherever they are in the log: a server logs the
    same bug at every request that hits it, and the first tracebacks read may all be of that one kind. Each with
    its exception line and its innermost frame in the user's own code."""
    text = view.text
    if view.total > LATER_EXCEPTIONS_CHARS:
        return []
    names = set(shown)  # the classes of the exceptions shown already
    out: list[tuple[float, list[_Line], str]] = []
    for hit in _exception_lines(text):
        name = hit.group(1)
        if name in names:
            continue
        names.add(name)
        header = text.rfind(TRACEBACK_HEADER, 0, hit.start())
        if header == -1 or (header and text[header - 1] != '\n'):
            continue
        picks = traceback_picks(view, view.line_at(header), 407.5 - 0.1 * len(out))
        if not picks or picks[0].spans[0][0] != hit.start() + 1:
            continue  # the exception line does not end that traceback
        out.extend(
            (pick.priority, [_Line(span, limit, role='traceback') for span in pick.spans], pick.role) for pick in picks
        )
        room -= 1
        if not room:
            break
    return out


def _exception_lines(text: str) -> Iterator[re.Match[str]]:
    """The exception lines of `text`, in order: after each traceback's header, the first, when it has at most
    `LATER_TRACEBACKS` (a search from each header); otherwise every one, in one pass over the text."""
    headers: list[int] = []
    found = text.find(TRACEBACK_HEADER)
    while found != -1 and len(headers) <= LATER_TRACEBACKS:
        headers.append(found)
        found = text.find(TRACEBACK_HEADER, found + len(TRACEBACK_HEADER))
    if len(headers) > LATER_TRACEBACKS:
        yield from _EXCEPTION_LINE.finditer(text)
        return
    for index, header in enumerate(headers):
        end = headers[index + 1] if index + 1 < len(headers) else len(text)
        hit = _EXCEPTION_LINE.search(text, header, min(end, header + TRACEBACK_REACH))
        if hit is not None:
            yield hit


LATER_TRACEBACKS = 64
"""Tracebacks whose exception lines are found each by a search from its header; a log with more is searched whole."""
TRACEBACK_REACH = 64 * 1024
"""Characters after a traceback's header within which its exception line is looked for."""


TRACEBACK_KINDS = 3
"""Tracebacks of different exceptions shown (the first of each) from the lines classified."""
TRACEBACKS_READ = 6
"""Tracebacks read for their exception's kind, at most: each is walked to its end."""
ERROR_KINDS = 5
"""Errors of different kinds a log holds shown, the first of each, above its repeats and its other lines."""
ERROR_KIND_PRIORITY = 330.0
DETAILED_KIND_PRIORITY = 329.5
"""Where the first error of each kind its detail follows ranks with that detail: under every kind alone."""
RAISED_KIND_PRIORITY = 900.5
"""Where the first error of each kind a traceback follows ranks, with its exception and frame: with the request's
best matches (a request's words matching every `Traceback` line, or `API` inside `Pacific/Apia`, said less)."""
_LOG_PREFIX = re.compile(r'.{0,80}?\b(?:ERROR|FATAL|PANIC|CRITICAL|Error|error)\b:?\s*')
"""What stands before a log line's error message: its time, process, user and level."""


NEWER_VERSIONS = 3
"""Newer versions of a thing the request names with a version shown, the newest first, on the first line of each."""
NEWER_VERSION_PRIORITY = 900.4
_VERSION_STARTS = frozenset(' _-v0123456789')
"""What may follow a name for a version to follow it: checked before the pattern is tried."""
_VERSION_HITS = 256
"""Places of a name looked at for a version after it: a name all over the output (`flask` in Flask's own diff)
costs a microsecond a place."""


def _newer_versions(view: TextView, versions: tuple[tuple[str, tuple[int, ...]], ...]) -> list[tuple[float, Span, int]]:
    """For each thing the request names with a version (`glibc 2.31`), the first line holding each newer version of
    it (`GLIBC_2.34`, `GLIBC_2.35`), newest first: asked whether something runs on the older one, what needs more."""
    text = view.text
    out: list[tuple[float, Span, int]] = []
    for name, named in versions:
        newer: dict[tuple[int, ...], int] = {}
        hits = 0
        # In a fixed order (a set's would change with each process's string hashing, and with it which places the
        # cap leaves out).
        for spelling in dict.fromkeys((name, name.lower(), name.upper(), name.capitalize())):
            position = text.find(spelling)
            while position != -1 and hits < _VERSION_HITS:
                hits += 1
                before = text[position - 1 : position]
                after = position + len(spelling)
                version = VERSION_AFTER.match(text, after) if text[after : after + 1] in _VERSION_STARTS else None
                if version is not None and not (before.isalnum() or before == '_'):
                    number = version_numbers(version.group(1))
                    if number > named and position < newer.get(number, len(text)):
                        newer[number] = position
                position = text.find(spelling, position + len(spelling))
        for number in sorted(newer, reverse=True)[:NEWER_VERSIONS]:
            position = newer[number]
            out.append((NEWER_VERSION_PRIORITY - 0.01 * len(out), view.line_at(position), position))
    return out


def _error_kind(content: str) -> str:
    """An error line's message without its log prefix, numbers and quoted names: what kind of error it is."""
    prefix = _LOG_PREFIX.match(content)
    return VARYING.sub('', content[prefix.end() :] if prefix is not None else content)


def _error_kinds(view: TextView, classes: dict[Span, LineClass], limit: int) -> list[tuple[float, list[_Line], str]]:
    """The first error line of each kind a log holds (its message without its prefix, numbers and quoted names:
    a duplicate key, a deadlock, a missing database), in order: what went wrong, once each."""
    seen: set[str] = set()
    picks: list[tuple[float, list[_Line], str]] = []
    for span in sorted(span for span, line_class in classes.items() if line_class is LineClass.error):
        # A compiler's `cannot find symbol` is of a kind with the name it could not find (`symbol:   method peek()`).
        symbol = compiler_symbol(view, span)
        kind = _error_kind(view.content(span)) + (view.content(symbol) if symbol is not None else '')
        if kind in seen:
            continue
        seen.add(kind)
        priority = ERROR_KIND_PRIORITY - 0.01 * len(seen)
        line = _Line(span, limit, role='error')
        if symbol is not None:
            picks.append((priority, [line, _Line(symbol, limit, role='error')], 'error'))
        # An error a traceback follows (a server's `Exception on /path`) is read with what it raised and where: an
        # application's exception answers a question about its log before the lines that share the question's words.
        raised = [below for below in traceback_context(view, span) if below[0] > span[0]]  # not the lines above it
        if raised:
            group = [line, *(_Line(s, limit, role='traceback') for s in raised)]
            picks.append((RAISED_KIND_PRIORITY - 0.01 * len(seen), group, 'error'))
        elif details := message_details(view, span):
            # One its detail follows (a deadlock's processes and their statements) is read with it, where the room
            # left by the other kinds of error allows.
            group = [line, *(_Line(s, limit, role='error') for s in details)]
            picks.append((DETAILED_KIND_PRIORITY - 0.01 * len(seen), group, 'error'))
        picks.append((priority - 0.005, [line], 'error'))
        if len(seen) == ERROR_KINDS:
            break
    return picks


COMPILER_WARNINGS = 5
"""A build's compiler warnings shown, the first of each text, above the lines that merely share a request's words."""
WARNING_KIND_PRIORITY = 325.0
ASKED_WARNING_PRIORITY = EXTREME_PRIORITY
"""Asked about warnings, a build's compiler warnings are the answer, as the rows asked for are: just above the lines
the request's words select."""
_COMPILER_WARNING = re.compile(r'\S+:\d+(?::\d+)?: warning: ')


def _compiler_warnings(
    view: TextView, classes: dict[Span, LineClass], limit: int, priority: float
) -> list[tuple[float, list[_Line], str]]:
    """A build log's first compiler warnings (`json_object.c:760:24: warning: leak of 'k'`), one of each text: in a
    build that did not fail, what the compiler found is what there is to see, over a request's words in the steps
    it printed and the source it quoted."""
    seen: set[bytes] = set()
    picks: list[tuple[float, list[_Line], str]] = []
    for span in sorted(span for span, line_class in classes.items() if line_class is LineClass.warning):
        content = view.content(span)
        if not _COMPILER_WARNING.match(content):
            continue
        kind = line_shape(content)  # its place's numbers aside
        if kind in seen:
            continue
        seen.add(kind)
        picks.append((priority - 0.01 * len(seen), [_Line(span, limit, role='warning')], 'warning'))
        if len(seen) == COMPILER_WARNINGS:
            break
    return picks


OTHER_CRASHES = 3
"""Crashes of other kinds after the first (a sanitizer's use-after-free after its overflow) shown with their stacks."""


def _other_crashes(view: TextView, errors: list[Span], limit: int) -> list[tuple[float, list[_Line], str]]:
    """The later crash lines with a stack under them whose kind the crashes before have not shown: a sanitizer
    (or a program that goes on after its first fault) reports each fault with its own stack. A kind is the line
    without what varies (its numbers, addresses and quoted names)."""
    picks: list[tuple[float, list[_Line], str]] = []
    kinds = {VARYING.sub('', view.content(errors[0]))}
    for span in errors[1:]:
        if len(picks) == OTHER_CRASHES:
            break
        kind = VARYING.sub('', view.content(span))
        if kind in kinds:
            continue
        frames = crash_frames(view, span)
        if frames:
            kinds.add(kind)
            lines = [_Line(span, limit, role='error'), *(_Line(frame, limit, role='traceback') for frame in frames)]
            picks.append((CRASH_PRIORITY - 0.01 * (len(picks) + 1), lines, 'error'))
    return picks


PREAMBLE_LINES = 12
"""A path listing's first lines looked at for the lines that say what it lists."""
_NAMING_KEY = re.compile(r'[A-Z][\w-]{1,20}: \S.{0,60}$')
"""A key with a short value above a list of paths: the listing's name, version, location."""


def _preamble(view: TextView, head: list[Span]) -> int:
    """How many of a path listing's first lines come before its first path (at most `PREAMBLE_LINES`)."""
    for index, span in enumerate(head[:PREAMBLE_LINES]):
        if path_line(view.content(span)):
            return index
    return 0


def _holds(text: str, char: str, present: dict[str, bool]) -> bool:
    held = present.get(char)
    if held is None:
        held = present[char] = char in text
    return held


def _middle_hits(
    view: TextView,
    begin: int,
    end: int,
    utf8: bytes | None = None,
    *,
    spread: bool = True,
    markers: tuple[str, ...] = MIDDLE_MARKERS,
) -> list[Span]:
    """Lines of `[begin, end)` holding a failure marker, at most `MAX_MIDDLE_HITS`. With `spread` (a log, whose later
    errors may be of other kinds), each marker takes at most `MARKER_HITS` of them, spread over its places;
    without, the first places of each marker in turn (a test run, whose digest finds its failures by itself)."""
    text = view.text
    # An ASCII text's UTF-8 (a spill's write has it) is its characters: the engine scans the last `MIDDLE_ENGINE_CHARS`
    # of its middle in place, at memory speed. Searched marker by marker, only the last `MIDDLE_SCAN_CHARS` are.
    scanned = utf8 is not None and text.isascii() and len(utf8) == len(text)
    begin = max(begin, end - (MIDDLE_ENGINE_CHARS if scanned else MIDDLE_SCAN_CHARS))
    if end <= begin:
        return []
    found: dict[int, Span] = {}
    # One pass of a multi-literal engine finds every marker at once; without one (or with markers on most
    # lines, where the engine would report each), one search per marker, each stopping at the lines it needs.
    window = None
    if scanned:
        assert utf8 is not None
        places = literal_places_utf8(memoryview(utf8)[begin:end], _literals(markers), cap_each=MIDDLE_PLACES)
    else:
        # Outside ASCII the engine scans an ASCII stand-in for the window, one character for one.
        window = _ascii_window(text, begin, end)
        places = literal_places(window, _literals(markers), cap_each=MIDDLE_PLACES)
    present: dict[str, bool] = {}
    for index, marker in enumerate(markers):
        if len(found) >= MAX_MIDDLE_HITS:
            break
        listed = places[index] if places is not None else None
        # Searching, a character missing from the whole text rules a marker out at memchr speed (`E` in a log
        # with no capitals), where scanning for the marker costs ~0.3 ms per 512 KB.
        if listed is None and not all(_holds(text, char, present) for char in marker):
            continue
        # A marker opening with a line break finds the line it opens.
        lead = 1 if marker.startswith('\n') else 0
        if listed is not None:
            lines = view.lines_holding(marker, begin, end, [begin + place + lead for place in listed])
        else:
            lines = _lines_in(
                view, text if window is None else window, marker, 0 if window is None else begin, begin, end
            )
        room = MAX_MIDDLE_HITS - len(found)
        if spread:
            holding = list(islice(lines, MIDDLE_SPREAD))
            spans = _spread(holding, min(room, MARKER_HITS))
            if len(holding) == MIDDLE_SPREAD:
                # More lines hold the marker than are looked at: past them, the lines where it opens another message
                # (one deadlock among hundreds of the same missing table).
                spans += _other_openings(view, marker, holding, end)[: max(0, room - len(spans))]
        else:
            spans = list(islice(lines, room))
        for span in spans:
            found[span[0]] = span
    return [found[start] for start in sorted(found)]


MIDDLE_SPREAD = 48
"""Lines holding one marker looked at, to choose among when there are more than room for: the first half of the
room from the first of them, the rest spread over the others (a log's later errors may be of other kinds)."""


MARKER_HITS = 12
"""Lines one marker may take of the middle's `MAX_MIDDLE_HITS`: a log of a thousand `ERROR`s leaves room for its
`FATAL` and its traceback."""


_OPENING_WORD = re.compile(r'[^\w\n]{0,4}([A-Za-z]\w*)')
OPENING_WORDS = 6
"""Words opening the messages after a marker, at most, for the lines opening otherwise to be looked for."""
OTHER_OPENINGS = 4
"""Lines opening another message after a marker shown, each of another word."""
OTHER_OPENING_REACH = 256 * 1024
"""Characters past the last line holding a marker searched for the marker opening another message: a log's next
stretch, not all of its megabytes (the search runs at ~1 ms per megabyte, in Python's regex engine)."""
OTHER_OPENING_HITS = 64
"""Lines a search for other openings looks at before it stops (those of a word already found count)."""


def _other_openings(view: TextView, marker: str, holding: list[Span], end: int) -> list[Span]:
    """Past the lines `holding` a marker, those where it opens a message with another word than all of theirs: one
    regex search from the last of them (the marker is a literal the engine skips to). Markers opening messages of
    many words say nothing by opening another."""
    text = view.text
    words: set[str] = set()
    for span in holding:
        line = view.content(span)
        found = _OPENING_WORD.match(line, line.find(marker) + len(marker))
        if found is not None:
            words.add(found.group(1))
    if not words or len(words) > OPENING_WORDS:
        return []
    known = '|'.join(re.escape(word) for word in sorted(words))
    other = re.compile(f'{re.escape(marker)}[^\\w\\n]{{0,4}}(?!(?:{known})\\b)([A-Za-z]\\w*)')
    out: list[Span] = []
    for hits, found in enumerate(other.finditer(text, holding[-1][1], min(end, holding[-1][1] + OTHER_OPENING_REACH))):
        if hits == OTHER_OPENING_HITS or len(out) == OTHER_OPENINGS:
            break
        if found.group(1) not in words:
            words.add(found.group(1))
            out.append(view.line_at(found.start()))
    return out


def _spread(spans: list[Span], room: int) -> list[Span]:
    if len(spans) <= room:
        return spans
    first = spans[: room // 2]
    rest = spans[room // 2 :]
    wanted = room - len(first)
    if wanted <= 1:
        return first + rest[-wanted:] if wanted else first
    # Evenly over the rest, its last line included.
    return first + [rest[round(index * (len(rest) - 1) / (wanted - 1))] for index in range(wanted)]


_WINDOW_PIECE = 16 * 1024


def _ascii_window(text: str, begin: int, end: int) -> str:
    """`text[begin:end]` in ASCII, each character outside it standing as `?`: one character for one, so a place
    in it is a place in the text, and the failure markers (ASCII, no `?`) are found where the text holds them.

    A text outside ASCII is stored two or four bytes a character, where a search for a literal runs several times
    slower than in one byte a character (about 0.4 ms per marker per 512 KB here, a dozen markers), and the
    multi-literal engine scans bytes. Slicing it piece by piece keeps the copies small (a slice of ASCII
    characters is one byte a character again); only the pieces holding other characters are converted.
    """
    if text.isascii():
        return text[begin:end]
    pieces: list[str] = []
    for start in range(begin, end, _WINDOW_PIECE):
        piece = text[start : min(end, start + _WINDOW_PIECE)]
        pieces.append(piece if piece.isascii() else piece.encode('ascii', 'replace').decode('ascii'))
    return ''.join(pieces)


def _lines_in(view: TextView, haystack: str, literal: str, offset: int, begin: int, end: int) -> Iterator[Span]:
    """The lines holding `literal` within `[begin, end)` of the view's text, in order, once, found by searching
    `haystack`: the text itself (`offset` 0) or the ASCII stand-in for it from `offset` on. A literal opening with a
    line break finds the line it opens."""
    find = haystack.find
    lead = 1 if literal.startswith('\n') else 0
    stop = end - offset
    place = find(literal, begin - offset, stop)
    while place != -1:
        span = view.line_at(offset + place + lead)
        yield span
        place = find(literal, span[1] - offset, stop) if lead else find(literal, span[1] + 1 - offset, stop)


def _literals(markers: tuple[str, ...]) -> tuple[tuple[str, bool], ...]:
    return _MIDDLE_LITERALS if markers is MIDDLE_MARKERS else tuple((marker, False) for marker in markers)


_MIDDLE_LITERALS = tuple((marker, False) for marker in MIDDLE_MARKERS)
MIDDLE_PLACES = 4 * MAX_MIDDLE_HITS
"""Places of one marker a multi-literal scan may report before a search for it, which stops early, serves better."""


LONG_MATCH = 4
"""A matched line this many times its room or longer is cut around its hit with a best match's room in any shape."""
OVERSHOOT = 1.3
"""A line at most this much over its limit is shown whole: a cut costs its marker and may hit the cause."""
FOCUS_FOLLOW = 72
"""Characters after a hit near a line's start that a cut keeps: the value after a key, a row's next columns."""


def _shown(view: TextView, line: _Line) -> tuple[str, int, int]:
    """How a kept line is shown: its text, the characters of it kept, and the cuts made inside it."""
    content = view.content(line.span)
    if line.role == 'rare' and line.focus >= 0:
        # A row picked for one odd value keeps its start (what the row is) through that value, unbroken.
        through = line.focus - line.span[0] + RARE_VALUE_CHARS
        room = max(line.limit, through)
        bar = _BAR.match(content, line.focus - line.span[0])
        if bar is not None:
            # What runs on past the value only draws it (a diffstat's `+` and `-`): its first few, not to the limit.
            room = bar.start(1) + BAR_CHARS
        bare = content.rstrip()
        if len(bare) > room * OVERSHOOT:
            shown, kept = shorten_middle(bare, room + _CUT_MARKER, head_share=1.0, snap=True)
            return shown, kept + len(content) - len(bare), int(kept < len(bare))
        return _fit(content, room, -1)
    return _fit(content, line.limit, line.focus - line.span[0] if line.focus >= 0 else -1)


RARE_VALUE_CHARS = 24
"""Characters from the start of the odd value a rare row was picked for that its cut keeps: the value and a few more."""
_BAR = re.compile(r'\S+ +([-+]+) *$')
"""A value, then a bar drawing it to the line's end: `2179 +++++++++--------`."""
BAR_CHARS = 8
"""Characters of such a bar shown."""
_CUT_MARKER = len(' …[10,000 chars cut]… ')


def _fit(content: str, limit: int, focus: int) -> tuple[str, int, int]:
    """`content` in about `limit` characters, kept around `focus` (-1: none); the characters kept, the cuts made.

    The blanks that pad a row to its table's width show nothing: they are left off and counted as kept, and their
    room goes to other lines rather than to a stated cut.
    """
    text = content.rstrip(' \t')
    if len(text) < len(content):
        shown, kept, cuts = _fit(text, limit, focus if focus < len(text) else -1)
        return shown, kept + len(content) - len(text), cuts
    if len(content) <= limit * OVERSHOOT:
        return content, len(content), 0
    squeezed = _squeeze(content)
    if len(squeezed) <= limit:
        # A row padded to its table's width shows whole without its padding, when that fits its room: each cell as
        # printed, one blank apart (a row longer even so is cut as printed, in no more room than the cut takes).
        return squeezed, len(content), 0
    if focus >= 0:
        return _shorten_around(content, limit, focus)
    shown, kept = shorten_middle(content, limit, head_share=0.75, snap=True)
    return shown, kept, 1


_PADDING = re.compile(r' {2,}(?=\|)|(?<=\|) {2,}|(?<=\S) {3,}(?=\S)')
"""Blanks that align a table's cells: beside a `|`, or three or more between two words."""


def _squeeze(content: str) -> str:
    """A row without the blanks that align its cells: one blank beside a `|`, two between cells apart by blanks."""
    return _PADDING.sub(lambda found: ' ' if '|' in content[found.start() - 1 : found.end() + 1] else '  ', content)


def _shorten_around(line: str, limit: int, focus: int) -> tuple[str, int, int]:
    """`line` cut to `limit` keeping its start and the text around `focus` (where a searched term sits);
    with the characters kept and the number of cuts made."""
    shortened, kept = shorten_middle(line, limit, head_share=0.75, snap=True)
    head_kept = int(kept * 0.75)
    if focus < head_kept - 20:
        # A hit near the start (a key, a row's first column): keep what follows it, the value (from where it
        # begins, past the key's delimiter and the padding that aligns a column).
        value = _AFTER_KEY.match(line, focus)
        wanted = (value.end() if value is not None else focus) + FOCUS_FOLLOW
        if head_kept < wanted:
            return (*shorten_middle(line, limit, head_share=min(1.0, wanted / kept), snap=True), 1)
        return shortened, kept, 1
    marker = f' …[{len(line):,} chars cut]…'
    room = limit - 2 * len(marker)
    if room < 40:
        return shortened, kept, 1
    head = max(20, room // 2)
    window = room - head
    start = max(head, focus - window // 3)
    stop = min(len(line), start + window)
    start = max(head, stop - window)
    if start - head <= BRIDGED_CHARS:
        start = head  # a cut of a few characters between the start and the hit would cost about what it saves
    pieces = [line[:head]]
    cuts = 0
    if start > head:
        pieces.append(f' …[{start - head:,} chars cut]… ')
        cuts += 1
    pieces.append(line[start:stop])
    if stop < len(line):
        pieces.append(f' …[{len(line) - stop:,} chars cut]…')
        cuts += 1
    return ''.join(pieces), head + (stop - start), cuts


BRIDGED_CHARS = 48
"""Characters between a cut line's start and the text kept around its hit shown rather than cut."""
_AFTER_KEY = re.compile(r'\S*[\s:=]*')
"""From a hit: the rest of its token, then the delimiter and padding before the value that follows it."""


_FULL = 8
"""Room under which packing stops: no kept line and its gap marker take fewer characters."""


def _pack(
    view: TextView,
    picks: list[tuple[float, list[_Line], str]],
    budget: int,
    widest_gap: int,
    sizes: dict[tuple[int, int, int], int] | None = None,
) -> dict[int, _Line]:
    """Take groups in priority order while an upper bound of the rendered size stays within `budget`.

    The bound counts every gap marker at its widest, so the lines in each gap need not be counted
    (a scan of the text) until the final render. `sizes` keeps each line's shown size between calls (a
    line sits in several groups, and a second packing of the same picks measures them all again).
    """
    sizes = {} if sizes is None else sizes
    kept: dict[int, _Line] = {}
    order: list[int] = []
    ends: dict[int, int] = {}
    past_end = view.end + 1
    size = widest_gap  # nothing kept yet: one gap stands for the whole text
    shown_texts: set[str] = set()
    for _, group, _ in picks:
        if budget - size < _FULL:
            break  # no line and its gap fit any more
        # A context line repeating a line already shown (the same error under each failed test) adds nothing.
        fresh = [
            line
            for line in group
            if line.span[0] not in kept and not (line.role == 'context' and view.content(line.span) in shown_texts)
        ]
        # An error kept already that this group gives more room (a log's first error, kept first as a rare line)
        # grows to it, as what it was kept for, should the group fit.
        wider = [
            replace(had, limit=line.limit)
            for line in group
            if line.role == 'error' and (had := kept.get(line.span[0])) is not None and line.limit > had.limit
        ]
        if not fresh and not wider:
            continue
        # The group's lines go in place; should they not fit, they come out again (no copy per group).
        grown = size
        for line in wider:
            grown += _shown_size(view, line, sizes) - _shown_size(view, kept[line.span[0]], sizes)
        inserted: list[int] = []
        for line in sorted(fresh, key=lambda line: line.span[0]):
            start, end = line.span
            if start in ends:
                continue
            shown = _shown_size(view, line, sizes)
            at = bisect_left(order, start)
            before = ends[order[at - 1]] + 1 if at else 0
            after = order[at] if at < len(order) else past_end
            gaps_delta = (start > before) + (after > end + 1) - (after > before)
            grown += shown + 1 + gaps_delta * widest_gap
            order.insert(at, start)
            ends[start] = end
            inserted.append(start)
        if grown > budget:
            for start in inserted:
                del order[bisect_left(order, start)]
                del ends[start]
            continue
        for line in fresh:
            if line.span[0] not in kept:
                kept[line.span[0]] = line
                shown_texts.add(view.content(line.span))
        for line in wider:
            kept[line.span[0]] = line
        size = grown
    return kept


def _shown_size(view: TextView, line: _Line, sizes: dict[tuple[int, int, int], int]) -> int:
    """How many characters `line` is shown in, measured once per line, room and focus."""
    key = (line.span[0], line.limit, line.focus)
    shown = sizes.get(key, -1)
    if shown < 0:
        shown = sizes[key] = len(_shown(view, line)[0])
    return shown


SHORT_GAP = 2
"""Lines a gap may hold for them to be shown in its place when they take no more room than its marker."""


def _fill_short_gaps(view: TextView, kept: dict[int, _Line]) -> None:
    """Show the lines of a gap between kept lines instead of its marker where they take no more room than it does
    (a blank line, a closing brace, `...`): the preview gets no longer and reads without a hole."""
    starts = sorted(kept)
    for before, after in pairwise(starts):
        lines: list[Span] = []
        line: Span | None = kept[before].span
        while (line := view.next_line(line)) is not None and line[0] < after and len(lines) <= SHORT_GAP:
            lines.append(line)
        if not lines or len(lines) > SHORT_GAP:
            continue
        if sum(span[1] - span[0] + 1 for span in lines) <= len(_gap(len(lines))) + 1:
            for span in lines:
                kept[span[0]] = _Line(span, max(1, span[1] - span[0]), role='context')


def _render(view: TextView, kept: dict[int, _Line]) -> tuple[str, int, int, int, int]:
    """The kept lines with their gaps; the characters kept, the places cut, the lines kept and all lines."""
    out: list[str] = []
    kept_chars = 0
    places = 0
    cursor = 0
    lines = len(kept)
    text = view.text
    for start in sorted(kept):
        line = kept[start]
        if start > cursor:
            skipped = newlines(text, cursor, start)
            if skipped:
                out.append(_gap(skipped))
                places += 1
                lines += skipped
        shown, kept_part, cuts = _shown(view, line)
        out.append(shown)
        places += cuts
        has_break = line.span[1] < len(text) and text[line.span[1]] == '\n'
        kept_chars += kept_part + (1 if has_break else 0)
        cursor = line.span[1] + 1
    if cursor <= view.end:
        remaining = newlines(text, cursor, view.end) + 1
        out.append(_gap(remaining))
        places += 1
        lines += remaining
    return '\n'.join(out), kept_chars, places, len(kept), lines


def _estimate_lines(view: TextView, read: list[Span], whole: bool, head_lines: int) -> int:
    """Lines in the text: exact when the head read all of it, else its size over the mean line read."""
    if whole:
        return head_lines
    chars = sum(span[1] - span[0] + 1 for span in read)
    return max(len(read), round(view.total * len(read) / max(1, chars)))


def _offer(
    text: str,
    matches: Matches,
    kept: dict[int, _Line],
    holding: dict[str, tuple[list[int], bool]],
    counted: Census | None = None,
) -> Offer | None:
    """The most specific term with lines the preview could not show, counted as the read tool would match it; not
    one on the place of (nearly) every finding of a checker's report (`blinker` checking blinker): that search
    returns the whole report."""
    best_slot, best_value = -1, 0.0
    everywhere = PLACES_NAMED * counted.total if counted is not None and counted.total else math.inf
    # A plain word from the model's prose ("changes") is no search to propose when it named something
    # specific (a path, an identifier, a flag) that the output holds, and weighs as much.
    named = max(
        (
            term.weight
            for slot, term in enumerate(matches.terms)
            if term.kind is not TermKind.word and matches.hit_lines[slot]
        ),
        default=0.0,
    )
    for slot, term in enumerate(matches.terms):
        pattern = matches.exact.get(slot, term.text)
        if len(pattern) < 3 or term.weight < OFFER_MIN_WEIGHT or (term.kind is TermKind.word and named >= term.weight):
            continue  # a word the prompt used in passing is no search to propose
        if matches.line_counts[slot] >= everywhere:
            continue
        starts = matches.hit_lines[slot]
        unshown = sum(1 for start in starts if start not in kept)
        if not unshown or (term.kind is TermKind.word and unshown == len(starts)):
            continue  # a plain word none of whose lines the preview chose is no lead either ("sort" in "I'll sort")
        # Specific terms first (a word names too much), then the bigger pile of lines left unseen.
        value = term.weight**2 * (1.0 + math.log2(unshown)) / (1.0 + len(starts) / 50)
        if value > best_value:
            best_slot, best_value = slot, value
    if best_slot < 0:
        return None
    pattern = matches.exact.get(best_slot, matches.terms[best_slot].text)
    starts = matches.hit_lines[best_slot]
    if matches.line_counts[best_slot] == len(starts) and all(
        text.startswith(pattern, position) for position in matches.hit_positions[best_slot]
    ):
        # The scan found every line holding the term, each spelled as the pattern: no second scan to count them.
        lines, more, shown = len(starts), False, sum(1 for start in starts if start in kept)
    else:
        if pattern not in holding:
            holding[pattern] = _lines_holding(text, pattern, limit=OFFER_COUNT_LIMIT)
        starts, more = holding[pattern]
        lines, shown = len(starts), sum(1 for start in starts if start in kept)
    return Offer(pattern, lines, shown, more) if lines > shown else None


def _lines_holding(text: str, pattern: str, *, limit: int) -> tuple[list[int], bool]:
    """The starts of the lines holding `pattern` exactly (case-sensitive, like the read tool), at most `limit`,
    and whether there are more."""
    starts: list[int] = []
    position = text.find(pattern)
    while position != -1:
        if len(starts) == limit:
            return starts, True
        starts.append(text.rfind('\n', 0, position) + 1)
        newline = text.find('\n', position + len(pattern))
        if newline == -1:
            break
        position = text.find(pattern, newline + 1)
    return starts, False


# --- records: a JSON list of objects on one line ------------------------------------------------

_RECORD_START = re.compile(r'\[\{"((?:[^"\\]|\\.){1,80})":')
HEAD_RECORDS = 40
RECORD_HITS = 200
"""Hits per term mapped to records: a term in more records than this is common anyway."""


def _records(view: TextView, budget: int, total_lines: int, intent: Intent | None, offer_chars: int) -> Preview | None:
    """Compact JSON holding a list of objects: whole records, chosen like lines, instead of one cut line.

    Records are found by the key every one of them starts with (`{"name":`), so nothing is parsed:
    a record's span runs from one such start to the next. Kept records are shown whole (long ones
    cut in the middle, the cut stated); each run of records left out is marked `[… N records …]`.
    """
    text = view.text
    opening = _RECORD_START.search(text, 0, 4096)
    if opening is None:
        return None
    marker = text[opening.start() + 1 : opening.end()]  # {"name":
    first = opening.start() + 1
    total = len(text)
    starts_cache: dict[int, int] = {}

    def record_at(position: int) -> tuple[int, int]:
        start = text.rfind(marker, first, position + len(marker))  # the last record opening at or before it
        start = first if start == -1 else start
        cached = starts_cache.get(start)
        if cached is None:
            following = text.find(',' + marker, start + len(marker))
            # A record owns the comma after it, so records side by side leave nothing between them.
            cached = starts_cache[start] = following + 1 if following != -1 else _list_end(text, start)
        return start, cached

    limit = max(160, min(600, budget // 4))
    picks: list[tuple[float, tuple[int, int], int]] = []  # priority, span, focus
    last_start = text.rfind(marker)
    picks.append((1000.0, record_at(last_start), -1))
    picks.append((420.0, record_at(first), -1))
    # Then the records that follow the first, as far as the room goes: what a listing of them looks like.
    following = record_at(first)
    for index in range(HEAD_RECORDS):
        if following[1] >= last_start:
            break
        following = record_at(following[1])
        picks.append((99.0 - index * 0.01, following, -1))
    picks += _rare_records(text, first, following[1], len(picks) - 1, record_at)
    if intent is not None and intent.extreme:
        picks += _extreme_records(text, record_at(first), intent, record_at)
    if intent is not None and intent.missing:
        picks += _missing_records(text, marker, intent, record_at)
    scanned = 0
    offer: Offer | None = None
    chosen: list[tuple[int, int]] = []
    if intent:
        # The records the list holds, estimated from those read at its head (counting them all is a pass).
        head_records = len(picks) - 1  # the first and those after it (the other pick is the last)
        mean_size = max(1.0, (following[1] - first) / head_records)
        estimated = max(head_records, round((total - first) / mean_size))
        scored, scanned, common = _score_records(text, intent, record_at, estimated)
        for rank, (span, focus, _) in enumerate(scored[:INTENT_GROUPS]):
            picks.append((900.0 - rank * 0.1, span, focus))
        chosen = [span for span, _, _ in scored]
        if scored:
            # A list's last record (the first pick) is one more record, not its result: the named records come first.
            picks[0] = (LAST_RECORD_NAMED, *picks[0][1:])
        if common is not None:
            offer = common
    picks.sort(key=lambda item: -item[0])
    # The members the request's own words name (`support_rep` for "which support rep"): a ranked record keeps them.
    asked = [term for term in intent.terms if term.key in intent.asked] if intent is not None else []
    members = [found.group(1) for found in _MEMBER_VALUE.finditer(text, first, record_at(first)[1])]
    named = frozenset(_member_weights(members, asked, _names_member))
    kept = _pack_records(text, picks, budget, limit, named)
    chosen_starts = {span[0] for span in chosen}
    if offer is not None and offer_chars and offer.lines > sum(1 for start in kept if start in chosen_starts):
        if budget - offer_chars < MIN_OFFER_ROOM:
            offer = None
        else:
            # Matching records did not all fit: make room for the offer that points to them, and choose again.
            kept = _pack_records(text, picks, budget - offer_chars, limit, named)
    pieces: list[str] = []
    kept_chars = places = kept_units = counted = 0
    cursor = 0
    if text.startswith('['):
        pieces.append('[')
        kept_chars += 1
        cursor = 1
    for start in sorted(kept):
        _, end, focus = kept[start]
        if start > cursor:
            skipped = text.count(marker, cursor, start)
            counted += skipped
            pieces.append(_record_gap(skipped) if skipped else f' …[{start - cursor:,} chars cut]… ')
            places += 1
        at = focus - start if focus >= 0 else -1
        shown, kept_part, cuts = _fit_record(text[start:end], _record_limit(text, limit, focus), at, named)
        pieces.append(shown)
        places += cuts
        kept_chars += kept_part
        # Counted as the gaps are (occurrences of the opening key), so shown and skipped add up to the total.
        kept_units += text.count(marker, start, end)
        cursor = end
    if cursor < total:
        rest = text[cursor:]
        if rest in (']', ']\n') or (len(rest) <= 3 and not rest.strip('],\n')):
            pieces.append(rest.rstrip('\n'))
            kept_chars += len(rest.rstrip('\n'))
        else:
            skipped = text.count(marker, cursor)
            counted += skipped
            pieces.append(_record_gap(skipped) if skipped else f' …[{total - cursor:,} chars cut]… ')
            places += 1
    rendered = '\n'.join(pieces)
    if len(rendered) > budget:
        return None
    intent_kept = sum(1 for start in kept if start in chosen_starts)
    if offer is not None:
        offer = Offer(offer.pattern, offer.lines, intent_kept, offer.more)
    return Preview(
        rendered,
        total,
        min(kept_chars, total),
        # Kept records and gaps split the text at record openings (an opening cannot overlap another: a key
        # holds no unescaped quote), so their counts add up to the whole list's without counting it again.
        counted + kept_units,
        kept_units,
        places,
        ShapeKind.records.value,
        scanned,
        intent_kept,
        offer if offer is not None and offer.lines > intent_kept else None,
        unit='record',
    )


_SCALAR = r'("(?:[^"\\\n]|\\.){0,80}"|-?\d[\d.]*|true|false|null)(?=[,}])'
_SCALAR_MEMBER = re.compile(r'"([A-Za-z_][\w-]{0,40})":' + _SCALAR)
"""A member of a record whose value is a short string, a number or a constant: `"license":"MIT"`."""
RARE_RECORD_KEYS = 4
"""Members of few values (a license, a flag) whose rare values are looked for over the whole list, at most."""
RARE_RECORD_PLACES = 64
"""Records holding another value than the head's that a member's search collects before it calls them texture."""
RARE_RECORDS_CHARS = 256 * 1024
"""Lists of records up to this size are searched whole for their rare values (a regex pass per member: ~0.5 ms per
megabyte each); larger ones keep their head and their end."""


EXTREME_RECORDS = 4
"""Records with the largest (or smallest) value of the member a request ranks by, shown at most."""
EXTREME_RECORDS_CHARS = 4 * 1024 * 1024
"""Lists of records up to this size are searched whole for that member's values (one regex pass)."""


def _extreme_records(
    text: str, first: tuple[int, int], intent: Intent, record_at: Callable[[int], tuple[int, int]]
) -> list[tuple[float, tuple[int, int], int]]:
    """The records holding the largest (or smallest, as asked) number of the member the request ranks by: the one
    its word for the measure is a word of (`total` of `total_exec_ms`), or names as a column is named (`time`).
    "Which queries take the most total time" is answered by the records ranked so, wherever they sit in the list."""
    if len(text) > EXTREME_RECORDS_CHARS:
        return []
    numeric = [found.group(1) for found in _NUMBER_MEMBER.finditer(text, first[0], first[1])]
    keys = [name for name in numeric if intent.measure and _measured_by(name, intent.measure)][:1]
    if not keys:
        # The members the request's own words name (a query's arguments list every column it selects), else those
        # its arguments name, by the weight of the words naming each ("2025 totals": `total_2025` over
        # `lifetime_total`): two, ranked each way, when it asks for both.
        for asked in (True, False):
            terms = [term for term in intent.terms if (term.key in intent.asked) is asked]
            named = _member_weights(numeric, terms, _measured_by)
            keys = sorted(named, key=lambda name: -named[name])
            if keys:
                break
    keys = keys[: 2 if intent.both_extremes else 1]
    directions = (1, -1) if intent.both_extremes else (1 if intent.extreme > 0 else -1,)
    each = max(1, EXTREME_RECORDS // (len(keys) * len(directions))) if keys else 0
    picks: list[tuple[float, tuple[int, int], int]] = []
    taken: set[int] = set()
    for key in keys:
        values = re.compile(f'"{re.escape(key)}":(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)')
        numbers = [(float(match.group(1)), match.start()) for match in values.finditer(text)]
        for direction in directions:
            ranked = heapq.nlargest(each, ((number * direction, -place) for number, place in numbers))
            for _, place in ranked:
                span = record_at(-place)
                if span[0] not in taken:
                    taken.add(span[0])
                    picks.append((EXTREME_PRIORITY - len(picks) * 0.01, span, -place))
    return picks


MISSING_RECORDS = 6
"""Records holding a null that a request asking for missing values is shown, each of its own first value (one of a
city's years with no sales), at most."""
MISSING_PRIORITY = EXTREME_PRIORITY - 1
"""Under the records a request ranks by a measure, above those its words find: asked which rows lack a value, the
rows lacking it are the answer."""
_NULL_MEMBER = re.compile(r'"([A-Za-z_][\w-]{0,40})":null(?=[,}])')


def _missing_records(
    text: str, marker: str, intent: Intent, record_at: Callable[[int], tuple[int, int]]
) -> list[tuple[float, tuple[int, int], int]]:
    """Asked where values are missing ("which countries have no infant mortality figure"), the records holding a null
    in a member the request names (`infant_mortality`), or in any member when it names none, each cut around it. A
    member null in most records is the list's texture, not an answer; of records opening with the same value (one
    city's years), the first says it."""
    if len(text) > EXTREME_RECORDS_CHARS:
        return []
    nulls = [(found.group(1), found.start()) for found in _NULL_MEMBER.finditer(text)]
    if not nulls:
        return []
    records = text.count(marker)
    per_member = Counter(name for name, _ in nulls)
    usable = {name for name, count in per_member.items() if count * 2 <= records}
    # The member the request names most (by the weight of the words naming it): a query's arguments list every column
    # it selects, the question the one it asks about (`infant mortality`).
    named = _member_weights(usable, intent.terms, _names_member)
    best = max(named.values(), default=0.0)
    wanted = {name for name, weight in named.items() if weight >= best / 2} if best else usable
    picks: list[tuple[float, tuple[int, int], int]] = []
    openings: set[str] = set()
    for name, place in nulls:
        if name not in wanted:
            continue
        span = record_at(place)
        comma = text.find(',', span[0], place)
        opening = text[span[0] : comma if comma != -1 else place]
        if opening in openings:
            continue
        openings.add(opening)
        picks.append((MISSING_PRIORITY - 0.01 * len(picks), span, place))
        if len(picks) >= MISSING_RECORDS:
            break
    return picks


def _member_weights(
    names: Iterable[str], terms: Sequence[Term], naming: Callable[[str, str], bool]
) -> dict[str, float]:
    """Per member a request's terms name (`naming`: by a member's name and a term's key), the weight of those terms:
    how much the request is about it. Members none of them names are left out."""
    weights = {name: sum(term.weight for term in terms if naming(name, term.key)) for name in names}
    return {name: weight for name, weight in weights.items() if weight}


def _names_member(name: str, key: str) -> bool:
    """Whether a request's term names a record's member: as a measure would (`_measured_by`), or by each of its words
    (`infant-mortality`, `b.sales`: a query's alias)."""
    if _measured_by(name, key):
        return True
    parts = [part for part in re.split(r'[\W_]+', key) if len(part) > 2]
    return len(parts) > 1 and all(_measured_by(name, part) for part in parts)


_NUMBER_MEMBER = re.compile(r'"((?:[^"\\\n]|\\.){1,60})":-?\d[\d.]*(?:[eE][-+]?\d+)?(?=[,}])')
"""A member holding a number, whatever its name is spelled with (`"Cost Total $":7043545`)."""


def _measured_by(name: str, word: str) -> bool:
    """Whether a member's name is what a request's word for a measure names: one of its words (`total` of
    `total_exec_ms`), or a column of that measure (`time`: a duration's name)."""
    parts = re.split(r'[_\W]+', name.lower())
    if word.isdigit() and len(word) == 4:
        return word in name  # a year names its column however it is spelled: `y2011`, `pop_2011`, `2011`
    return word in parts or column_named(name, (word,))


def _rare_records(
    text: str, first: int, head_end: int, head_records: int, record_at: Callable[[int], tuple[int, int]]
) -> list[tuple[float, tuple[int, int], int]]:
    """Records holding a value found in one or two records only, of a member most records give one value (a
    `"license":"0BSD"` among `MIT`s and `ISC`s, an `"overridden":true` among `false`s): what a reader scanning them
    would stop at, the rarest first. Each is shown cut around that value."""
    if len(text) > RARE_RECORDS_CHARS:
        return []
    seen: dict[str, set[str]] = {}
    times: dict[str, int] = {}
    for key, value in _SCALAR_MEMBER.findall(text, first, head_end):
        seen.setdefault(key, set()).add(value)
        times[key] = times.get(key, 0) + 1
    # Members of each record (once in most of the records at the list's head, not nested at any depth) of two or
    # three values there: their values repeat (a license, a flag, a null), where a name's or a version's do not.
    keys = [
        key for key, values in seen.items() if head_records // 2 <= times[key] <= head_records and 2 <= len(values) <= 3
    ][:RARE_RECORD_KEYS]
    if not keys:
        return []
    # A search per member (each opens with the member's own name: a literal the regex engine skips to) finds where it
    # holds a value none of the head's records gave it: few, where values repeat.
    found: dict[str, list[tuple[int, str]]] = {}
    for key in keys:
        usual = '|'.join(re.escape(value) for value in seen[key])
        places = found[key] = []
        for hit in re.finditer(f'"{re.escape(key)}":(?!(?:{usual})[,}}])' + _SCALAR, text):
            places.append((hit.start(), hit.group(1)))
            if len(places) > RARE_RECORD_PLACES:
                break  # other values everywhere: the list's texture
    odd_ones: list[tuple[int, int]] = []  # (how many records hold the value, where)
    for key, places in found.items():
        if not places or len(places) > RARE_RECORD_PLACES:
            continue
        total = text.count(f'"{key}":')
        if len(places) * 2 > total:
            continue  # no value most of its records hold
        counts = Counter(value for _, value in places)
        odd = rare_values(counts, 2 if total >= RARE_MIN_ROWS else 1)
        odd_ones += [(counts[value], place) for place, value in places if value in odd]
    odd_ones.sort()
    return [
        (HEADER_PRIORITY - 2.5 - 0.01 * rank, record_at(place), place)
        for rank, (_, place) in enumerate(odd_ones[: 2 * RARE_ROWS])
    ]


_LONG_VALUE = re.compile(r'"[A-Za-z_][\w-]{0,40}":("(?:[^"\\\n]|\\.){12,}")')
"""A member of a record whose value is a string of a dozen characters or more: an email, a date, a description."""
ELIDED = '…'
"""What stands for a record's value left out."""


def _fit_record(record: str, limit: int, focus: int, named: frozenset[str] = frozenset()) -> tuple[str, int, int]:
    """A record in about `limit` characters. One shown for what the request names there (`focus`, else -1) keeps every
    member's name and its short values: the longest string values elsewhere in it are left out (`"email":…`), as few
    as it takes for the rest to show whole; one they would not spare a cut is cut in its middle. The place it was chosen
    for and its first long string (what names a record opening with its id) stay whole. One shown for the number it is
    ranked by keeps the values of the members the request names (`named`: whose support rep) and leaves out the rest."""
    if focus < 0 or len(record) <= limit * OVERSHOOT:
        return _fit(record, limit, focus)
    if named and _NUMBER_MEMBER.match(record, focus):
        # Cut in one place it may show the named members already (those next to what it is): no need to leave out more.
        plain = _fit(record, limit, focus)
        wanted = [found.group() for found in _MEMBER_VALUE.finditer(record) if found.group(1) in named]
        projected = None if all(member in plain[0] for member in wanted) else _projected(record, focus, named)
        return projected if projected is not None else plain
    values = [found.span(1) for found in _LONG_VALUE.finditer(record)]
    dropped: list[tuple[int, int]] = []
    length = len(record)
    for start, end in sorted(values, key=lambda span: span[0] - span[1]):
        if length <= limit * OVERSHOOT:
            break
        if start <= focus < end or start == values[0][0]:
            continue  # what it was chosen for, and what the record is (its first member, or its first string's)
        dropped.append((start, end))
        length -= end - start - len(ELIDED)
    if not dropped or length > limit * OVERSHOOT:
        return _fit(record, limit, focus)  # leaving values out would not spare it a cut: one cut says more
    pieces: list[str] = []
    done = 0
    for start, end in sorted(dropped):
        pieces += [record[done:start], ELIDED]
        done = end
    pieces.append(record[done:])
    return ''.join(pieces), length - len(dropped) * len(ELIDED), len(dropped)


_MEMBER_VALUE = re.compile(
    r'"([A-Za-z_][\w -]{0,40})":("(?:[^"\\\n]|\\.)*"|-?\d[\d.]*(?:[eE][-+]?\d+)?|true|false|null)(?=[,}])'
)
"""A record's member whose value is a string, a number or a constant, with its name and its value."""
PROJECTED_RECORD = 300
"""Room for a ranked record shown with only the values of the members a request names: what it is, those, its number."""


def _projected(record: str, focus: int, named: frozenset[str]) -> tuple[str, int, int] | None:
    """`record` with the values of its members left out but its first member's, its first string's (what names
    it), those of the members in `named` and the one at `focus`; None when that is longer than `PROJECTED_RECORD`
    or leaves nothing out."""
    members = list(_MEMBER_VALUE.finditer(record))
    first_string = next((found.start(2) for found in members if found.group(2).startswith('"')), -1)
    dropped = [
        found.span(2)
        for index, found in enumerate(members)
        if index
        and found.start() != focus
        and found.start(2) != first_string
        and found.group(1) not in named
        and found.end(2) - found.start(2) > len(ELIDED)
    ]
    length = len(record) - sum(end - start - len(ELIDED) for start, end in dropped)
    if not dropped or length > PROJECTED_RECORD:
        return None
    pieces: list[str] = []
    done = 0
    for start, end in dropped:
        pieces += [record[done:start], ELIDED]
        done = end
    pieces.append(record[done:])
    return ''.join(pieces), length - len(dropped) * len(ELIDED), len(dropped)


def _record_limit(text: str, limit: int, focus: int) -> int:
    """A record shown for what the request names there is cut to its opening and that place: shorter. One shown for
    the value it lacks (`"Composer":null`), or for the number it is ranked by, needs no more than that: its long
    strings are left out first."""
    if focus < 0:
        return limit
    if _NULL_MEMBER.match(text, focus):
        return LACKING_RECORD
    if _NUMBER_MEMBER.match(text, focus):
        return RANKED_RECORD
    return max(160, limit * 2 // 3)


LACKING_RECORD = 110
"""Room for a record shown for a member it holds no value in: what it is, and the null."""
RANKED_RECORD = 120
"""Room for a record shown for its number a request ranks by: what it is, through that number."""


LAST_RECORD_NAMED = 400.0
"""Where a list's last record ranks once the request names records of it: under them and the first record."""


def _pack_records(
    text: str,
    picks: list[tuple[float, tuple[int, int], int]],
    room: int,
    limit: int,
    named: frozenset[str] = frozenset(),
) -> dict[int, tuple[int, int, int]]:
    """Records in priority order while their shown size, each with a widest gap marker, stays within `room`."""
    kept: dict[int, tuple[int, int, int]] = {}
    widest = len(_record_gap(10**9)) + 1
    size = widest + 4  # the list's own brackets, each on a line of its own
    for _, (start, end), focus in picks:
        if start in kept:
            continue
        at = focus - start if focus >= 0 else -1
        shown = len(_fit_record(text[start:end], _record_limit(text, limit, focus), at, named)[0])
        grown = size + shown + 1 + widest
        if grown > room:
            continue
        kept[start] = (start, end, focus)
        size = grown
    return kept


def _record_gap(count: int) -> str:
    return f'[… {count:,} record{"" if count == 1 else "s"} …]'


def _list_end(text: str, start: int) -> int:
    end = text.rfind(']')
    return end if end > start else len(text)


PRESENCE_BATCH = 8
"""Terms asked at once whether they occur in a list of records (a scan costs more the more terms it holds)."""


def _score_records(
    text: str, intent: Intent, record_at: Callable[[int], tuple[int, int]], all_records: int
) -> tuple[list[tuple[tuple[int, int], int, float]], int, Offer | None]:
    """Records holding intent terms, in the order a reader wants them (see `find_matches`)."""

    ascii_text = text.isascii()
    budget = max(1, SCAN_CHARS // max(1, len(text)))
    hit_limit = max(48, min(RECORD_HITS, HIT_CHARS // max(1, len(text))))
    keys = [term.key if ascii_text else term.text for term in intent.terms]
    # Terms are taken in order until `budget` of them are found. Where an engine serves, one pass says which
    # occur at all and a second lists every place of those taken; else one search per term, over the text
    # lowered (ASCII) or as written.
    folded = [(key, True) for key in keys]
    slots: list[int] | None = None
    if all(key == key.lower() for key in keys):
        slots = []
        for first in range(0, len(keys), PRESENCE_BATCH):  # the first few terms most often suffice
            present = literal_presence(text, folded[first : first + PRESENCE_BATCH])
            if present is None:
                slots = None
                break
            slots.extend(first + index for index, there in enumerate(present) if there)
            if len(slots) >= budget:
                break
    places: dict[int, list[int]] = {}
    if slots is None:
        slots = list(range(len(keys)))
    else:
        slots = slots[:budget]
        listed = literal_places(text, [folded[slot] for slot in slots], cap_each=PLACES_PER_TERM * hit_limit)
        if listed is not None:
            places = {slot: found for slot, found in zip(slots, listed, strict=True) if found is not None}
    lowered = text.lower() if ascii_text and len(places) < len(slots) else None
    per_record: dict[tuple[int, int], dict[int, tuple[float, int]]] = {}
    scanned = 0
    counts: list[tuple[float, int, bool, str]] = []
    for slot in slots:
        if scanned >= budget:
            break
        term, key = intent.terms[slot], keys[slot]
        records: dict[tuple[int, int], int] = {}
        hits = 0
        more = False
        if slot in places:
            floor = 0
            for position in places[slot]:
                if position < floor:
                    continue
                if hits >= hit_limit:
                    more = True
                    break
                span = record_at(position)
                records.setdefault(span, position)
                hits += 1
                floor = max(position + len(key), span[1])
        else:
            haystack = lowered if lowered is not None else text
            position = haystack.find(key)
            while position != -1 and hits < hit_limit:
                span = record_at(position)
                records.setdefault(span, position)
                hits += 1
                position = haystack.find(key, max(position + len(key), span[1]))
            more = position != -1
        if not records:
            continue
        scanned += 1
        first_hit = next(iter(records.values()))
        spelled = text[first_hit : first_hit + len(key)]
        counts.append((term.weight**2 / (1.0 + len(records) / 50), len(records), more, spelled))
        share = len(records) + (50 if more else 0)
        rarity = 1.0 / (1.0 + 0.05 * share)
        for span, hit in records.items():
            value = term.weight * rarity * (1.5 if whole_token(text, hit, len(key)) else 1.0)
            per_record.setdefault(span, {})[slot] = (value, hit)
    covered: dict[int, int] = {}
    # Only the best records by their own score are put in order.
    best_first = sorted(per_record, key=lambda span: (-sum(v for v, _ in per_record[span].values()), span))

    def gain(span: tuple[int, int]) -> float:
        return sum(value / (1 + covered.get(slot, 0)) for slot, (value, _) in per_record[span].items())

    # Each next record the one adding most (ties: the earlier). Gains only fall as records are taken, so a
    # record is scored again only when it reaches the top (lazy greedy: the same order as scoring all each time).
    heap = [(-gain(span), span) for span in best_first[:MAX_CANDIDATES]]
    heapq.heapify(heap)
    ordered: list[tuple[tuple[int, int], int, float]] = []
    while heap and len(ordered) < INTENT_GROUPS:
        _, span = heapq.heappop(heap)
        fresh = gain(span)
        if heap and heap[0] < (-fresh, span):
            heapq.heappush(heap, (-fresh, span))  # stale: another record now adds more
            continue
        values = per_record[span]
        for slot in values:
            covered[slot] = covered.get(slot, 0) + 1
        ordered.append((span, max(values.values())[1], fresh))
    offer = None
    best = 0.0
    for value, holding, more, spelled in counts:
        # A term in most records (a field name, a common word) is no search to offer.
        unshown = holding - STRONG_MATCHES
        if unshown > 0 and holding < all_records // 2 and len(spelled) >= 4 and value * min(unshown, 30) > best:
            best, offer = value * min(unshown, 30), Offer(spelled, holding, 0, more)
    return ordered, scanned, offer


# --- one long line -----------------------------------------------------------------------------


def _long_lines(view: TextView, budget: int, total_lines: int, intent: Intent | None) -> Preview:
    """A text of very long lines (minified JSON, a joined list): cut inside the lines, using the budget.

    Each line keeps its start and end; where intent terms land inside it, windows around them are
    kept too. Every cut says how many characters it removed, so kept and cut add up to the whole.
    """
    text = view.text
    total = len(text)
    spans: list[Span] = []
    span: Span | None = (0, view.line_at(0)[1])
    while span is not None:
        spans.append(span)
        span = view.next_line(span)
    matches = find_matches(text, intent, total_lines=total_lines) if intent else Matches()
    focus_points = sorted({match.focus for match in matches.lines[:6]})
    pieces: list[str] = []
    kept_chars = 0
    places = 0
    share = max(1, budget - (len(spans) - 1)) // max(1, len(spans))
    for span in spans:
        line = view.content(span)
        limit = max(1, share)
        if len(line) <= limit:
            pieces.append(line)
            kept_chars += len(line)
        else:
            inside = [point - span[0] for point in focus_points if span[0] <= point < span[1]]
            shown, kept, cuts = _cut_line(line, limit, inside)
            pieces.append(shown)
            kept_chars += kept
            places += cuts
        if span[1] < total and text[span[1]] == '\n':
            kept_chars += 1
    rendered = '\n'.join(pieces)
    if len(rendered) > budget:
        return Preview('', total, 0, total_lines, 0, 0, ShapeKind.long_line.value)
    return Preview(
        rendered,
        total,
        min(kept_chars, total),
        total_lines,
        len(spans),
        places,
        ShapeKind.long_line.value,
        matches.scanned,
        len(focus_points),
    )


def _cut_line(line: str, limit: int, focus: list[int]) -> tuple[str, int, int]:
    """`line` in at most `limit` characters: its ends and windows around `focus`, each cut stated."""
    marker_width = len(f' …[{len(line):,} chars cut]… ')
    points = [point for point in focus if 0 <= point < len(line)][:4]
    windows = len(points)
    room = limit - marker_width * (windows + 1)
    if windows and room < 60 * (windows + 2):
        points, windows = [], 0
        room = limit - marker_width
    if room < 2:
        shown, kept = shorten_middle(line, limit)
        return shown, kept, 1
    if not windows:
        shown, kept = shorten_middle(line, limit, head_share=0.5)
        return shown, kept, 1
    # Head, a window around each focus point, tail: spans kept in order, merged where they touch.
    end_share = room // (windows + 2)
    kept_spans: list[tuple[int, int]] = [(0, end_share)]
    for point in points:
        half = end_share // 2
        kept_spans.append((max(0, point - half), min(len(line), point + end_share - half)))
    kept_spans.append((len(line) - end_share, len(line)))
    merged: list[tuple[int, int]] = []
    for start, stop in sorted(kept_spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], stop))
        else:
            merged.append((start, stop))
    pieces: list[str] = []
    cursor = 0
    cuts = 0
    kept = 0
    for start, stop in merged:
        if start > cursor:
            pieces.append(f' …[{start - cursor:,} chars cut]… ')
            cuts += 1
        pieces.append(line[start:stop])
        kept += stop - start
        cursor = stop
    if cursor < len(line):
        pieces.append(f' …[{len(line) - cursor:,} chars cut]… ')
        cuts += 1
    return ''.join(pieces), kept, cuts
