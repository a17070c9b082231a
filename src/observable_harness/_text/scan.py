"""One pass of a multi-pattern engine over a text's bytes: the secret gate, and where literals first occur.

The gate in front of the exact secret regexes says where in a text a secret can begin at all.

Python's regex engine tries a pattern at every position of a text, one pattern at a time; a megabyte of
output and some twenty patterns cost tens of milliseconds, nearly all of it spent proving that nothing
is there. Secret scanners (gitleaks, trufflehog) avoid that with a prefilter: one pass of a
multi-pattern engine over the bytes, exact regexes only where it fired. So here: every pattern carries
relaxed forms (`GateForm`) that match wherever the exact regex can (more often, never less), all of
them run in one pass over the UTF-8 bytes the write needs anyway, and each hit names a short stretch of
the text where the exact regex is then tried, at the places one of the pattern's `starts` occurs.

Engines, fastest first, chosen at import by what is installed (the `fast` extra installs both):
Hyperscan (SIMD, all patterns in one scan), RE2 (a set of all patterns in one linear pass; positions
from a second pass over the patterns that fired), and no engine at all, where `Scrubber` keeps to its
pure-Python path. All three scrub identically; the tests run each. Of the three only RE2 lets other
threads run while it scans: Hyperscan's binding keeps the GIL through a scan (it calls back into Python
at every match), as Python's own regexes do.

`first_occurrences` serves a preview the same way: where each of a few literals first occurs, in one
scan, instead of one `str.find` per literal over a stretch that mostly holds none of them.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Literal, NamedTuple, Protocol, TypeAlias, cast

__all__ = [
    'ENGINE',
    'ENGINES',
    'UTF8_PIECE',
    'Engine',
    'Gate',
    'GateForm',
    'GateSpec',
    'Places',
    'case_variants',
    'char_offsets',
    'crowding',
    'first_occurrences',
    'literal_places',
    'literal_places_utf8',
    'literal_presence',
    'relaxed',
    'usable',
    'utf8_chars',
]

Engine: TypeAlias = Literal['hyperscan', 're2', 'python']

_CASE_VARIANTS = {'i': ('\u0130', '\u0131'), 'k': ('\u212a',), 's': ('\u017f',)}
"""Non-ASCII letters `re.IGNORECASE` takes for an ASCII letter (dotted and dotless i, Kelvin sign, long s);
no other letter has any (a test checks every code point)."""
_FOLD_FORM = '|'.join(
    ''.join(f'\\x{byte:02x}' for byte in variant.encode())
    for variants in _CASE_VARIANTS.values()
    for variant in variants
)
"""Any of those letters: a text holding one is searched around it, as ASCII-only case folding would miss it."""
_RE2_MAX_MEM = 256 << 20
"""RE2's memory budget for its automata: far above what these patterns need, so its DFA never runs out."""


_trusted_forms = [0]
"""While above zero, forms are built by this library from its own tested patterns: their regexes are not
compiled again just to be checked (that costs milliseconds at every import)."""


def trust_forms(trusted: bool) -> None:
    """Start (`True`) or end (`False`) building the library's own forms, which its tests check instead."""
    _trusted_forms[0] += 1 if trusted else -1


@dataclass(frozen=True, slots=True)
class GateForm:
    """A relaxed form of a secret pattern, for the one-pass gate.

    `regex` runs over the UTF-8 bytes of the text in the syntax Hyperscan and RE2 share (classes,
    alternation, bounded repeats; no look-arounds, no back-references, no `\\b`), and must match, from
    where it begins, a prefix of every match of the exact pattern it stands for, or of those the
    pattern's other forms leave out; it may match a great deal more. Write a non-ASCII character as
    the bytes of its UTF-8 form (`[\\x80-\\xff]` for "any"). A form whose match begins before the exact
    match does (at the name a flag ends with, say) says in `back` what the exact match may span before it.
    """

    regex: str
    reach: int
    """The most bytes one match of `regex` spans: the exact regex is tried only that close to a hit."""
    ignore_case: bool = False
    """ASCII letters match in either case (for patterns compiled with `re.IGNORECASE`; the gate itself
    looks for the non-ASCII letters that fold to ASCII ones)."""
    back: str = ''
    """A character class, read as the exact pattern reads it (`[\\w.-]`): from the hit back over a run of
    these is where the exact match may begin. Empty: where the form's match begins."""

    def __post_init__(self) -> None:
        if self.reach < 1:
            raise ValueError(f'GateForm.reach must be at least 1 byte; got {self.reach}.')
        if _trusted_forms[0]:
            return
        try:
            re.compile(self.regex.encode('ascii'))
        except (UnicodeEncodeError, re.error) as error:
            raise ValueError(
                f'GateForm.regex must be an ASCII regex over bytes (non-ASCII written as \\xNN escapes); '
                f'{self.regex!r} is not: {error}'
            ) from error
        if (unportable := _UNPORTABLE.search(_CLASS.sub('', self.regex))) is not None:
            raise ValueError(
                f'GateForm.regex {self.regex!r} uses {unportable.group()!r}, which Hyperscan or RE2 cannot run: '
                'a form has no look-arounds, anchors, word boundaries, back-references or possessive repeats '
                '(leave them out: a form may match more than the pattern, never less).'
            )
        if self.back:
            try:
                re.compile(self.back)
            except re.error as error:
                message = f'GateForm.back must be a regex character class; {self.back!r} is not: {error}'
                raise ValueError(message) from error


_CLASS = re.compile(r'\[\^?\]?(?:\\.|[^\]\\])*\]')
"""A bracket expression, left out before looking for `_UNPORTABLE` (`^` negates there, `$` is a character)."""
_UNPORTABLE = re.compile(r'\\[bBAZz1-9]|\(\?[=!<>P]|[*+?}]\+|\^|\$')
"""Constructs outside the syntax Hyperscan and RE2 share (or that would anchor a form to the whole text)."""


@dataclass(frozen=True, slots=True)
class GateSpec:
    """What the gate needs of one pattern: its forms, the literals its matches begin with, its case rule."""

    forms: tuple[GateForm, ...]
    starts: tuple[str, ...]
    ignore_case: bool
    """The exact regex ignores case: `starts` are looked for the same way."""


def case_variants(letter: str) -> tuple[str, ...]:
    """Every character `re.IGNORECASE` matches to the ASCII `letter`, the letter itself first."""
    lower = letter.lower()
    return (lower, lower.upper(), *_CASE_VARIANTS.get(lower, ()))


def relaxed(literals: Sequence[str], *, ignore_case: bool) -> GateForm | None:
    """A form that matches wherever one of `literals` occurs (`None` if a literal is not ASCII and case is ignored)."""
    if not literals or (ignore_case and not all(literal.isascii() for literal in literals)):
        return None
    encoded = [literal.encode() for literal in literals]
    regex = '|'.join(''.join(f'\\x{byte:02x}' for byte in literal) for literal in encoded)
    return GateForm(regex, reach=max(len(literal) for literal in encoded), ignore_case=ignore_case)


# --- engines ------------------------------------------------------------------------------------------


class _Scanner(Protocol):
    reports_ends: bool
    """Hits are where a form's match ends (Hyperscan) rather than where it begins (RE2)."""

    def scan(self, data: bytes) -> list[tuple[int, int]]:
        """`(form id, offset)` for every hit; per form, every place a match can begin lies within one hit's reach."""
        ...


class _Form(Protocol):
    """What an engine compiles of a form: its regex over bytes and whether it ignores case."""

    @property
    def regex(self) -> str: ...
    @property
    def ignore_case(self) -> bool: ...


class _Literal(NamedTuple):
    """A literal searched for as it is, escaped: no `GateForm` check is needed."""

    regex: str
    ignore_case: bool


class _Hyperscan:
    """All forms in one Hyperscan database: one scan reports every end of every form's matches."""

    reports_ends = True

    def __init__(self, forms: Sequence[_Form], *, first_only: bool = False) -> None:
        hyperscan = importlib.import_module('hyperscan')
        self._module: Any = hyperscan
        database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        single = hyperscan.HS_FLAG_SINGLEMATCH if first_only else 0
        database.compile(
            expressions=[form.regex.encode('ascii') for form in forms],
            ids=list(range(len(forms))),
            elements=len(forms),
            flags=[
                hyperscan.HS_FLAG_DOTALL | single | (hyperscan.HS_FLAG_CASELESS if form.ignore_case else 0)
                for form in forms
            ],
        )
        self._database: Any = database
        self._local = threading.local()

    def _scratch(self) -> Any:
        # A scratch space serves one scan at a time: each thread that scans gets its own.
        scratch = getattr(self._local, 'scratch', None)
        if scratch is None:
            scratch = self._local.scratch = self._module.Scratch(self._database)
        return scratch

    def scan(self, data: bytes) -> list[tuple[int, int]]:
        scratch = self._scratch()
        hits: list[tuple[int, int]] = []
        append = hits.append

        def on_match(form: int, start: int, end: int, flags: int, context: object) -> None:
            append((form, end))

        self._database.scan(data, match_event_handler=on_match, scratch=scratch)
        return hits

    def scan_capped(self, data: bytes | memoryview, cap: int) -> tuple[list[tuple[int, int]], bool]:
        """Like `scan`, stopping after `cap` hits: the hits, and whether it stopped."""
        scratch = self._scratch()
        hits: list[tuple[int, int]] = []
        append = hits.append

        def on_match(form: int, start: int, end: int, flags: int, context: object) -> bool:
            append((form, end))
            return len(hits) >= cap

        try:
            self._database.scan(data, match_event_handler=on_match, scratch=scratch)
        except self._module.ScanTerminated:
            return hits, True
        return hits, False


class _RE2Match(Protocol):
    def start(self) -> int: ...


class _RE2Regexp(Protocol):
    def search(self, text: bytes, pos: int = ...) -> _RE2Match | None: ...


class _RE2:
    """An RE2 set says which forms occur at all; one regex of just those then gives every place one begins."""

    reports_ends = False

    def __init__(self, forms: Sequence[GateForm]) -> None:
        re2: Any = importlib.import_module('re2')
        self._re2 = re2
        options = re2.Options()
        options.encoding = re2.Options.Encoding.LATIN1  # bytes, not UTF-8: the forms spell bytes
        options.max_mem = _RE2_MAX_MEM
        options.log_errors = False
        self._options = options
        self._forms = [self._source(form) for form in forms]
        found = re2.Set.SearchSet(options)
        for source in self._forms:
            found.Add(source)
        found.Compile()
        self._set = found
        self._any: Callable[[tuple[int, ...]], _RE2Regexp] = lru_cache(maxsize=64)(self._compile)

    @staticmethod
    def _source(form: GateForm) -> bytes:
        return (('(?i)' if form.ignore_case else '') + '(?s)' + form.regex).encode('ascii')

    def _compile(self, fired: tuple[int, ...]) -> _RE2Regexp:
        pattern = b'|'.join(b'(?:' + self._forms[form] + b')' for form in fired)
        return cast('_RE2Regexp', self._re2.compile(pattern, self._options))

    def scan(self, data: bytes) -> list[tuple[int, int]]:
        fired = tuple(sorted(cast('list[int] | None', self._set.Match(data)) or ()))
        if not fired:
            return []
        regexp = self._any(fired)
        hits: list[tuple[int, int]] = []
        position = 0
        # From one place past each hit rather than from its end: every place where any of the forms that
        # fired begins is reported, including those inside another's match.
        while (match := regexp.search(data, position)) is not None:
            start = match.start()
            hits += [(form, start) for form in fired]
            position = start + 1
        return hits


def _installed() -> tuple[Engine, ...]:
    found: list[Engine] = [engine for engine in ('hyperscan', 're2') if importlib.util.find_spec(engine) is not None]
    return (*found, 'python')


ENGINES: tuple[Engine, ...] = _installed()
"""The engines installed here, fastest first; `python` (no gate) is always there."""
ENGINE: Engine = ENGINES[0]
"""The engine a `Scrubber` uses unless told otherwise: the fastest installed."""


# --- the gate -----------------------------------------------------------------------------------------


class _Pattern:
    """Per pattern: how the places to try are found inside a stretch the gate named."""

    __slots__ = ('back', 'forms', 'literals', 'longest', 'reach')

    def __init__(self, spec: GateSpec) -> None:
        self.forms = spec.forms
        self.reach = max((form.reach for form in spec.forms), default=0)
        self.longest = max((len(start) for start in spec.starts), default=0)
        self.literals: re.Pattern[str] | None = None
        if spec.starts:
            alternatives = '|'.join(re.escape(start) for start in sorted(spec.starts, key=len, reverse=True))
            # A look-ahead, so that overlapping occurrences (`--` in `---`) are all found.
            self.literals = re.compile(f'(?=(?:{alternatives}))', re.IGNORECASE if spec.ignore_case else 0)
        backs = {form.back for form in spec.forms if form.back}
        self.back: re.Pattern[str] | None = re.compile(f'(?:{"|".join(sorted(backs))})*') if backs else None

    def places(self, text: str, regions: list[tuple[int, int]]) -> list[int]:
        """Where in the merged `regions` (`[low, high)`) a match of this pattern can begin."""
        regions.sort()
        found: list[int] = []
        low, high = regions[0]
        for next_low, next_high in (*regions[1:], (sys.maxsize, 0)):
            if next_low <= high:
                high = max(high, next_high)
                continue
            if self.back is not None:
                low = _run_start(text, low, self.back)
            if self.literals is None:
                found.extend(range(low, min(high, len(text))))
            else:
                stop = min(len(text), high + self.longest)
                found += [place for match in self.literals.finditer(text, low, stop) if (place := match.start()) < high]
            low, high = next_low, next_high
        return found


def _run_start(text: str, position: int, run: re.Pattern[str]) -> int:
    """Where the run of `run` characters that ends at `position` begins (read backwards, in growing windows)."""
    window = 64
    while True:
        start = max(0, position - window)
        matched = run.match(text[start:position][::-1])
        length = matched.end() if matched is not None else 0
        if length < position - start or start == 0:
            return position - length
        window *= 4


def char_offsets(text: str, data: bytes, offsets: set[int]) -> dict[int, int]:
    """Each byte offset into `data` (the UTF-8 of `text`) as an offset into `text`.

    An offset inside a character maps to the end of that character. The UTF-8 decoder counts the
    characters between two offsets: it runs at memory speed over ASCII.
    """
    if len(data) == len(text):
        return {offset: offset for offset in offsets}
    out: dict[int, int] = {}
    chars = 0
    previous = 0
    size = len(data)
    for offset in sorted(offsets):
        boundary = offset
        while boundary < size and 0x80 <= data[boundary] < 0xC0:
            boundary += 1
        if boundary > previous:
            chars += utf8_chars(data, previous, boundary)
            previous = boundary
        out[offset] = chars
    return out


UTF8_PIECE = 64 * 1024
"""Bytes of UTF-8 copied and decoded at a time to count the characters in a long stretch of it."""


def utf8_chars(data: bytes, start: int, stop: int) -> int:
    """The characters in `data[start:stop]` (UTF-8, `surrogatepass`; both ends at the start of a character).

    Most stretches hold no character outside ASCII: a byte is then a character. A long one is read in pieces
    of at most `UTF8_PIECE` bytes (each ending at the start of a character): decoding most of a megabyte at once
    makes a string of one or two megabytes, fresh memory the system maps in page by page.
    """
    count = 0
    while start < stop:
        cut = min(stop, start + UTF8_PIECE)
        while cut < stop and 0x80 <= data[cut] < 0xC0:
            cut += 1
        piece = data[start:cut]
        count += len(piece) if piece.isascii() else len(piece.decode('utf-8', 'surrogatepass'))
        start = cut
    return count


Places: TypeAlias = 'dict[int, list[int] | None]'
"""Per pattern index, the sorted places where it can match, or `None`: so many that a search of the whole
text is cheaper. A pattern absent from it cannot match anywhere."""


class Gate:
    """The compiled gate for one list of patterns on one engine."""

    def __init__(self, specs: Sequence[GateSpec], engine: Engine) -> None:
        if engine == 'python':
            raise ValueError('the python engine has no gate: Scrubber scans with its own regexes')
        self.engine: Engine = engine
        self._patterns = [_Pattern(spec) for spec in specs]
        forms: list[GateForm] = []
        self._owner: list[int] = []
        for index, spec in enumerate(specs):
            for form in spec.forms:
                forms.append(form)
                self._owner.append(index)
        self._folding = [index for index, spec in enumerate(specs) if spec.ignore_case and spec.forms]
        self._fold = -1
        if self._folding:
            self._fold = len(forms)
            forms.append(GateForm(_FOLD_FORM, reach=3))
        self._reach = [form.reach for form in forms]
        scanner_type = _Hyperscan if engine == 'hyperscan' else _RE2
        self._scanner: _Scanner = scanner_type(forms) if forms else _Nothing()

    def gated(self, index: int) -> bool:
        """Whether pattern `index` has forms (otherwise it must be run over the whole text)."""
        return bool(self._patterns[index].forms)

    def places(self, text: str, data: bytes) -> Places:
        """Where in `text` each gated pattern can match; `data` is `text` as UTF-8 (`surrogatepass`)."""
        return self.places_and_anchors(text, data)[0]

    def places_and_anchors(self, text: str, data: bytes) -> tuple[Places, dict[int, int]]:
        """`places`, and the byte offsets into `data` the scan reported, each with its character offset in
        `text` (where a character straddles one, the character after it)."""
        hits = self._scanner.scan(data)
        if not hits:
            return {}, {}
        ends = self._scanner.reports_ends
        fold = self._fold
        crowded = crowding(text)
        per_pattern: dict[int, int] = {}
        for form, _ in hits:
            if form != fold:
                owner = self._owner[form]
                per_pattern[owner] = per_pattern.get(owner, 0) + 1
        out: Places = {index: None for index, count in per_pattern.items() if count > crowded}
        if out:
            hits = [(form, offset) for form, offset in hits if form == fold or self._owner[form] not in out]
        offsets: set[int] = set()
        for form, offset in hits:
            offsets.add(offset)
            if ends and form != fold:
                offsets.add(max(0, offset - self._reach[form]))
        chars = char_offsets(text, data, offsets)
        regions: dict[int, list[tuple[int, int]]] = {}
        for form, offset in hits:
            if form == fold:
                # The letter ends at a hit (Hyperscan) or begins at one (RE2); a match holding it began at
                # most a form's reach before it.
                letter = chars[offset] - 1 if ends else chars[offset]
                for index in self._folding:
                    low = max(0, letter - self._patterns[index].reach + 1)
                    regions.setdefault(index, []).append((low, letter + 1))
                continue
            index = self._owner[form]
            if ends:
                region = (chars[max(0, offset - self._reach[form])], chars[offset])
            else:
                region = (chars[offset], chars[offset] + 1)
            regions.setdefault(index, []).append(region)
        for index, found in regions.items():
            if index not in out and (places := self._patterns[index].places(text, found)):
                out[index] = places
        return out, chars

    def places_near(
        self, index: int, text: str, low: int, high: int, *, at_start: bool = True, at_end: bool = True
    ) -> list[int] | None:
        """Where pattern `index` can match in `text` with its gate's form reaching into `[low, high)`.

        After an earlier pattern replaced `[low, high)`, these are the places the first scan could not
        know of: a form reaching into new text begins at most its reach before it. `text` may be a stretch
        of the text searched: `at_start` / `at_end` say whether it begins at the text's start or ends at its
        end. `None` when the stretch is too short to say (what it left out could change the answer).
        """
        pattern = self._patterns[index]
        start = low - pattern.reach + 1
        if not at_start and (start < 0 or (pattern.back is not None and _run_start(text, start, pattern.back) == 0)):
            return None
        if not at_end and high + pattern.longest > len(text):
            return None
        return pattern.places(text, [(max(0, start), high)])

    def margins(self, indexes: Sequence[int]) -> tuple[int, int]:
        """Characters of text before and after a replacement that `places_near` needs for these patterns,
        with room for a run of characters a form may begin with."""
        patterns = [self._patterns[index] for index in indexes]
        before = max((pattern.reach for pattern in patterns), default=0) + BACK_RUN
        return before, max((pattern.longest for pattern in patterns), default=0)


BACK_RUN = 64
"""Characters a stretch of edited text keeps before a replacement's reach for a run of characters a form
begins with; a longer run makes the caller look at the whole text."""


CROWDED = 64
"""A pattern the gate found more than once per this many characters (and more than `FEW` times) is
searched for in the whole text: following each place in Python (~10 us) would cost more than the regex
engine's own scan, even for a pattern that opens with a look-behind and is tried at every position."""
FEW = 64


def crowding(text: str) -> int:
    """More hits (or replacements) than this in `text`, and the whole text is searched instead."""
    return max(FEW, len(text) // CROWDED)


class _Nothing:
    reports_ends = True

    def scan(self, data: bytes) -> list[tuple[int, int]]:
        return []


@lru_cache(maxsize=64)
def _literal_scanner(literals: tuple[tuple[str, bool], ...], *, first_only: bool) -> _Hyperscan:
    """A database of `(literal, ignore_case)` pairs, each reported at every place or (`first_only`) once.

    Every byte is written as an escape: the engine reads expressions as C strings, so a NUL or any other
    character a prompt's quoted string may hold stays part of the literal.
    """
    forms = [
        _Literal(''.join(f'\\x{byte:02x}' for byte in literal.encode('utf-8')), caseless)
        for literal, caseless in literals
    ]
    return _Hyperscan(forms, first_only=first_only)


def first_occurrences(text: str, literals: tuple[str, ...], begin: int, end: int) -> dict[str, int] | None:
    """Where each of `literals` (ASCII) first begins in `text[begin:end]`, found in one scan.

    `None` when there is no engine for it (no Hyperscan) or the text is not ASCII (its bytes would need
    encoding and their offsets mapping back, which costs what the scan saves): then search each literal.
    """
    if not text.isascii() or not usable('hyperscan'):
        return None
    scanner = _literal_scanner(tuple((literal, False) for literal in literals), first_only=True)
    found: dict[str, int] = {}
    for index, stop in scanner.scan(text[begin:end].encode('ascii')):
        literal = literals[index]
        found[literal] = begin + stop - len(literal)
    return found


def _scannable(text: str, literals: Sequence[tuple[str, bool]]) -> bool:
    """An engine is here, and text and literals are ASCII (byte offsets are character offsets), none empty."""
    return (
        bool(literals)
        and text.isascii()
        and all(literal and literal.isascii() for literal, _ in literals)
        and usable('hyperscan')
    )


def literal_presence(text: str, literals: Sequence[tuple[str, bool]]) -> list[bool] | None:
    """Whether each literal occurs in `text`, from one scan that reports each literal once.

    `None` when `literal_places` would be `None` for want of an engine or for text or literals outside ASCII.
    """
    if not _scannable(text, literals):
        return None
    found = [False] * len(literals)
    try:
        hits = _literal_scanner(tuple(literals), first_only=True).scan(text.encode('ascii'))
    except Exception:  # the engine refused it: the caller searches instead
        return None
    for index, _ in hits:
        found[index] = True
    return found


def literal_places(text: str, literals: Sequence[tuple[str, bool]], *, cap_each: int) -> list[list[int] | None] | None:
    """Where each literal begins in `text`, every place (overlapping ones too), found in one scan.

    `literals` are `(literal, ignore_case)` pairs; ignoring case folds ASCII letters only, as `str.lower`
    does to an ASCII text. Returned: per literal its places in order, or `None` for a literal with more
    than `cap_each` places (each place costs a call back into Python, where `str.find` stops at the few
    it needs: search that one). `None` in all when there is no engine for it (no Hyperscan), or the text
    or a literal is not ASCII (encoding the text and mapping byte offsets back to characters cost more
    than the searches save), or a literal is empty.
    """
    if not _scannable(text, literals):
        return None
    try:
        return _places(text.encode('ascii'), tuple(literals), cap_each)
    except Exception:  # the engine refused it: the caller searches instead
        return None


def literal_places_utf8(
    data: bytes | memoryview, literals: Sequence[tuple[str, bool]], *, cap_each: int
) -> list[list[int] | None] | None:
    """`literal_places` over UTF-8 bytes (a text outside ASCII, encoded): byte offsets. Ignoring case folds ASCII
    letters only, and a literal outside ASCII (`✖ `) is matched as written. `None` when there is no engine, a literal
    is empty, or one outside ASCII is to be matched ignoring case."""
    if not literals or not usable('hyperscan'):
        return None
    if not all(literal and (literal.isascii() or not caseless) for literal, caseless in literals):
        return None
    try:
        return _places(data, tuple(literals), cap_each)
    except Exception:  # the engine refused it: the caller searches instead
        return None


def _places(data: bytes | memoryview, literals: tuple[tuple[str, bool], ...], cap_each: int) -> list[list[int] | None]:
    hits, stopped = _literal_scanner(literals, first_only=False).scan_capped(data, cap_each * len(literals) + 1)
    places: list[list[int] | None] = [[] for _ in literals]
    if stopped:
        # Some literal has more than its share of the places reported: leave those out, scan for the rest.
        counts = [0] * len(literals)
        for index, _ in hits:
            counts[index] += 1
        rest = [index for index, count in enumerate(counts) if count <= cap_each]
        found = _places(data, tuple(literals[index] for index in rest), cap_each) if rest else []
        places = [None] * len(literals)
        for index, listed in zip(rest, found, strict=True):
            places[index] = listed
        return places
    sizes = [len(literal.encode('utf-8')) for literal, _ in literals]  # a place is where its bytes begin
    for index, end in hits:
        listed = places[index]
        assert listed is not None
        listed.append(end - sizes[index])
    for listed in places:
        assert listed is not None
        listed.sort()  # matches come in order of their ends, which Hyperscan does not promise across patterns
    return places


_PROBE = (GateForm('probe', reach=5),)


@cache
def usable(engine: Engine) -> bool:
    """Installed, and it loads and compiles here (Hyperscan refuses a CPU without SSSE3, say); probed once."""
    if engine == 'python':
        return True
    if engine not in ENGINES:
        return False
    try:
        (_Hyperscan if engine == 'hyperscan' else _RE2)(_PROBE)
    except Exception:
        return False
    return True


@lru_cache(maxsize=32)
def gate_for(specs: tuple[GateSpec, ...], engine: Engine) -> Gate:
    """The gate for these patterns on `engine`, compiled once per process (Hyperscan takes ~0.2 s)."""
    return Gate(specs, engine)
