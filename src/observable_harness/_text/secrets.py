"""Secret scrubbing before anything is written.

Command output carries secrets all the time: a `token=` in a URL, an `Authorization: Bearer` header
echoed by `curl -v`, a `.env` that a test printed, a private key someone `cat`-ed. A store or a
retention file keeps them long after the run, so every write path scrubs first, here, on by default.
What is replaced is the secret itself; the name it was assigned to stays, so the stored output still
reads (`password=[REDACTED:assignment]`). `ScrubResult.counts` says how many of each kind were replaced,
which the write paths report to telemetry (never the secrets themselves).

With the `fast` extra installed, scrubbing a megabyte of output costs from half a millisecond (nothing
secret-like in it) to a few: one pass of a multi-pattern engine over the UTF-8 bytes finds every place
a secret can begin (each pattern carries relaxed `GateForm`s for it), and the exact regexes run only
there. Without an engine, each pattern is ruled out by a character the text lacks or tried only where
one of its `starts` occurs. The text scrubbed is the same either way.

```python
from observable_harness.bounded import scrub

result = scrub('curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def" https://api.example.com?token=s3cr3t-v4lue')
assert 's3cr3t' not in result.text and result.counts == {'bearer': 1, 'assignment': 1}
```
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from .scan import (
    ENGINE,
    ENGINES,
    Engine,
    Gate,
    GateForm,
    GateSpec,
    Places,
    crowding,
    gate_for,
    relaxed,
    trust_forms,
    usable,
    utf8_chars,
)

__all__ = [
    'DEFAULT_PATTERNS',
    'DEFAULT_SCRUBBER',
    'ENGINES',
    'GateForm',
    'ScrubResult',
    'Scrubber',
    'SecretPattern',
    'scrub',
    'scrub_bytes',
]

T = TypeVar('T', str, bytes)

_PLACEHOLDER = '[REDACTED:{kind}]'
_PLACEHOLDER_VALUES = frozenset(
    {'', 'none', 'null', 'nil', 'true', 'false', 'undefined', 'redacted', '***', '****', '*****', 'xxx', 'xxxx', '...'}
)


@dataclass(frozen=True, slots=True)
class SecretPattern:
    """One kind of secret: a regex, which group holds the secret, and cheap fragments that gate the regex.

    ```python
    import re

    from observable_harness.bounded import Scrubber, SecretPattern

    internal = SecretPattern('internal_token', re.compile(r'\\bitk_[0-9a-f]{32}\\b'), hints=('itk_',), starts=('itk_',))
    scrubber = Scrubber(extra=(internal,))
    assert scrubber.scrub('itk_' + 'a' * 32).counts == {'internal_token': 1}
    ```
    """

    kind: str
    """Low-cardinality name: the telemetry label and the placeholder's suffix."""
    pattern: re.Pattern[str]
    """Matches a secret (and, around it, whatever context identifies it)."""
    group: int = 0
    """The group that is the secret itself; the rest of the match stays. Patterns with alternative
    value groups (quoted or not) use `value_groups` instead."""
    hints: tuple[str, ...] = ()
    """Fragments of which one must occur in the text for the regex to run: most texts hold no secret
    and skip every regex at memory speed. Empty: always run."""
    ignore_case_hints: bool = False
    """Look for `hints` and `starts` in the lowercased text (for patterns that ignore case)."""
    starts: tuple[str, ...] = ()
    """Literals of which one begins every match. When set, the regex is tried only where one of them
    occurs instead of at every position of the text: a regex that opens with `\\b`, a look-behind or
    a case-insensitive alternation otherwise costs tens of milliseconds per megabyte. A match that
    begins anywhere else is missed, so list every way a match can begin. Empty: the regex searches."""
    value_groups: tuple[int, ...] = ()
    """Alternative groups of which the first that matched is the secret (quoted or bare values)."""
    gate: tuple[GateForm, ...] = ()
    """Relaxed forms of `pattern` for the one-pass gate that runs over the UTF-8 bytes before any regex
    (see `GateForm`); between them they must match every match of `pattern`, and may match more. Empty:
    the gate looks for `starts` instead; a pattern with neither is run over the whole text."""

    @property
    def ignores_case(self) -> bool:
        """Hints and starts are looked for in either case: `ignore_case_hints`, or a regex that ignores case."""
        return self.ignore_case_hints or bool(self.pattern.flags & re.IGNORECASE)

    def gate_spec(self) -> GateSpec:
        """What the gate runs for this pattern: its forms (or its `starts`), and how it treats case."""
        forms = self.gate
        if not forms and (derived := relaxed(self.starts, ignore_case=self.ignores_case)) is not None:
            forms = (derived,)
        return GateSpec(forms, self.starts, self.ignores_case)


def _p(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


_ASSIGNED_NAME = (
    r'(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|'
    r'private[_-]?key|client[_-]?secret|auth[_-]?token|credentials?)'
)

_ASSIGNED_NAMES = (
    'password',
    'passwd',
    'passphrase',
    'secret',
    'token',
    'credential',
    'credentials',
    *(
        f'{first}{between}{second}'
        for first, second in (
            ('api', 'key'),
            ('access', 'key'),
            ('secret', 'key'),
            ('private', 'key'),
            ('client', 'secret'),
            ('auth', 'token'),
        )
        for between in ('_', '-', '')
    ),
)
"""Every name `_ASSIGNED_NAME` matches, spelled out (for look-behinds, which take fixed widths only)."""
_ASSIGNED_VALUE = r'(?!\[REDACTED)(?:"([^"\n]*)"|\'([^\'\n]*)\'|([^\s"\',;&)}\]]+))'
"""A value in double quotes, single quotes or bare, as groups 1, 2, 3; never one already replaced."""
_ASSIGNED_HINTS = ('pass', 'secret', 'token', 'key', 'credential')
_ASSIGNED_STARTS = ('pass', 'secret', 'token', 'api', 'access', 'private', 'client', 'auth', 'credential')
_AWS = ('AKIA', 'ASIA', 'ABIA', 'ACCA')
_GITHUB = ('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_')

# The relaxed forms the gate runs over bytes. `\s`, `\w` and case-insensitive letter classes of the exact
# patterns also take non-ASCII characters, so their byte forms take any non-ASCII byte; repeats are
# bounded (a form must have a reach), and where the exact repeat is not, a second form matches what
# the first leaves out, up to its bound.
_SPACE = r'[\t-\r\x1c-\x20\x80-\xff]'
"""`\\s` as a str pattern reads it: ASCII white space, and any byte of a non-ASCII character."""
_NAMES_FORM = '(?:' + '|'.join(re.escape(name) for name in _ASSIGNED_NAMES) + ')'
_LONGEST_NAME = max(len(name) for name in _ASSIGNED_NAMES)
_SPACES = 16
"""White space between a name and its `=` (or a keyword and its value) that the first form allows."""
_URL_PART = 128
"""Bytes of a URL's user or password part that the first form allows."""
_URL_USER = r'[^/:@\t-\r\x1c-\x20]'
_URL_VALUE = r'[^@/\t-\r\x1c-\x20]'
_BEARER_VALUE = r'[A-Za-z0-9._~+/=\x80-\xff-]'

trust_forms(True)  # the default forms are checked by tests/text/test_secret_gate.py, not at every import
DEFAULT_PATTERNS: tuple[SecretPattern, ...] = (
    SecretPattern(
        'private_key',
        _p(
            r'-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----'
            r'(?:[\s\S]*?-----END \1PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:-]*)'
        ),
        hints=('PRIVATE KEY',),
        starts=('-----BEGIN ',),
    ),
    SecretPattern(
        'aws_access_key',
        _p(r'\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b'),
        hints=_AWS,
        starts=_AWS,
        gate=(GateForm(r'(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{8}', reach=12),),
    ),
    SecretPattern(
        'github_token',
        _p(r'\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})'),
        hints=_GITHUB,
        starts=_GITHUB,
        gate=(GateForm(r'gh[pousr]_[A-Za-z0-9]{8}|github_pat_[A-Za-z0-9_]{8}', reach=19),),
    ),
    SecretPattern(
        'gitlab_token',
        _p(r'\bglpat-[A-Za-z0-9_-]{20,}'),
        hints=('glpat-',),
        starts=('glpat-',),
        gate=(GateForm(r'glpat-[A-Za-z0-9_-]{8}', reach=14),),
    ),
    SecretPattern(
        'slack_token',
        _p(r'\bxox[abposr]-[A-Za-z0-9-]{10,}'),
        hints=('xox',),
        starts=('xox',),
        gate=(GateForm(r'xox[abposr]-[A-Za-z0-9-]{8}', reach=13),),
    ),
    SecretPattern(
        'slack_webhook',
        _p(r'https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,}'),
        hints=('hooks.slack.com',),
        starts=('https://hooks.slack.com/services/',),
    ),
    SecretPattern(
        'stripe_key',
        _p(r'\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}'),
        hints=('k_live_', 'k_test_'),
        starts=('sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'),
        gate=(GateForm(r'[sr]k_(?:live|test)_[A-Za-z0-9]{8}', reach=16),),
    ),
    SecretPattern(
        'anthropic_key',
        _p(r'\bsk-ant-[A-Za-z0-9_-]{20,}'),
        hints=('sk-ant-',),
        starts=('sk-ant-',),
        gate=(GateForm(r'sk-ant-[A-Za-z0-9_-]{8}', reach=15),),
    ),
    SecretPattern(
        'openai_key',
        _p(r'\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}'),
        hints=('sk-',),
        starts=('sk-',),
        gate=(GateForm(r'sk-[A-Za-z0-9_-]{8}', reach=11),),
    ),
    SecretPattern(
        'google_api_key',
        _p(r'\bAIza[0-9A-Za-z_-]{35}'),
        hints=('AIza',),
        starts=('AIza',),
        gate=(GateForm(r'AIza[0-9A-Za-z_-]{8}', reach=12),),
    ),
    SecretPattern(
        'npm_token',
        _p(r'\bnpm_[A-Za-z0-9]{36}\b'),
        hints=('npm_',),
        starts=('npm_',),
        gate=(GateForm(r'npm_[A-Za-z0-9]{8}', reach=12),),
    ),
    SecretPattern(
        'pypi_token',
        _p(r'\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}'),
        hints=('pypi-',),
        starts=('pypi-',),
        gate=(GateForm('pypi-AgEIcHlwaS5vcmc', reach=20),),
    ),
    SecretPattern(
        'jwt',
        _p(r'\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}'),
        hints=('eyJ',),
        starts=('eyJ',),
        gate=(GateForm(r'eyJ[A-Za-z0-9_-]{8}', reach=11),),
    ),
    SecretPattern(
        'bearer',
        _p(r'\b(bearer)\s+(?!\[REDACTED)([A-Za-z0-9._~+/=-]{8,})', re.IGNORECASE),
        group=2,
        hints=('bearer',),
        ignore_case_hints=True,
        starts=('bearer',),
        gate=(
            GateForm(f'bearer{_SPACE}{{1,{_SPACES}}}{_BEARER_VALUE}{{8}}', reach=6 + _SPACES + 8, ignore_case=True),
            GateForm(f'bearer{_SPACE}{{{_SPACES + 1}}}', reach=6 + _SPACES + 1, ignore_case=True),
        ),
    ),
    SecretPattern(
        'basic_auth',
        _p(r'\bauthorization:\s*basic\s+([A-Za-z0-9+/=]{8,})', re.IGNORECASE),
        group=1,
        hints=('basic',),
        ignore_case_hints=True,
        starts=('authorization',),
        gate=(
            GateForm(
                f'authorization:{_SPACE}{{0,{_SPACES}}}basic{_SPACE}{{1,{_SPACES}}}[A-Za-z0-9+/=\\x80-\\xff]{{8}}',
                reach=14 + _SPACES + 5 + _SPACES + 8,
                ignore_case=True,
            ),
            GateForm(f'authorization:{_SPACE}{{{_SPACES + 1}}}', reach=14 + _SPACES + 1, ignore_case=True),
            GateForm(
                f'authorization:{_SPACE}{{0,{_SPACES}}}basic{_SPACE}{{{_SPACES + 1}}}',
                reach=14 + _SPACES + 5 + _SPACES + 1,
                ignore_case=True,
            ),
        ),
    ),
    SecretPattern(
        'url_credentials',
        # From the `://` on (a literal the regex engine finds fast), after any scheme-like character.
        _p(r'(?<=[A-Za-z0-9+.-])://[^/\s:@]+:(?!\[REDACTED)([^@\s/]+)@'),
        group=1,
        hints=('://',),
        starts=('://',),
        gate=(
            GateForm(f'://{_URL_USER}{{1,{_URL_PART}}}:{_URL_VALUE}{{1,{_URL_PART}}}@', reach=3 + 2 * _URL_PART + 2),
            GateForm(f'://{_URL_USER}{{{_URL_PART + 1}}}', reach=3 + _URL_PART + 1),
            GateForm(f'://{_URL_USER}{{1,{_URL_PART}}}:{_URL_VALUE}{{{_URL_PART + 1}}}', reach=3 + 2 * _URL_PART + 2),
        ),
    ),
    SecretPattern(
        'assignment',
        _p(
            # The name starts a word or follows `_`, `.` or `-` in one (`DB_PASSWORD`, `aws.secret_key`).
            r'(?<![^\W_])' + _ASSIGNED_NAME + r'["\']?\s*[:=]\s*' + _ASSIGNED_VALUE,
            re.IGNORECASE,
        ),
        hints=_ASSIGNED_HINTS,
        ignore_case_hints=True,
        value_groups=(1, 2, 3),
        starts=_ASSIGNED_STARTS,
        gate=(
            GateForm(
                f'{_NAMES_FORM}["\']?{_SPACE}{{0,{_SPACES}}}[:=]', reach=_LONGEST_NAME + _SPACES + 2, ignore_case=True
            ),
            GateForm(
                f'{_NAMES_FORM}["\']?{_SPACE}{{{_SPACES + 1}}}', reach=_LONGEST_NAME + _SPACES + 2, ignore_case=True
            ),
        ),
    ),
    SecretPattern(
        'flag',
        # A command-line flag and its value after a space: `--password hunter2`, `--db-token "a b"`. From the
        # `--` that starts a word, the flag's word taken whole (no backtracking into runs of dashes), then
        # look-behinds for a name that ends it.
        _p(
            r'--(?<![\w.-]--)[\w.-]*+(?:'
            + '|'.join(rf'(?<=[-_.]{re.escape(name)})' for name in _ASSIGNED_NAMES)
            + r')[ \t]+(?![-<$])'
            + _ASSIGNED_VALUE,
            re.IGNORECASE,
        ),
        hints=_ASSIGNED_HINTS,
        ignore_case_hints=True,
        value_groups=(1, 2, 3),
        starts=('--',),
        # From the name the flag ends with, back over the flag's word to its `--`.
        gate=(GateForm(f'[-_.]{_NAMES_FORM}[ \\t]', reach=_LONGEST_NAME + 2, ignore_case=True, back=r'[\w.-]'),),
    ),
)
"""Specific formats first: once a GitHub token is replaced, the `token=` around it is not counted twice."""
trust_forms(False)


@dataclass(frozen=True, slots=True)
class ScrubResult(Generic[T]):
    """Scrubbed text (or bytes) and how many secrets of each kind were replaced."""

    text: T
    counts: Mapping[str, int] = field(default_factory=dict[str, int])

    @property
    def total(self) -> int:
        return sum(self.counts.values())


Edit = tuple[int, int, str]
"""A replacement: start and end of the replaced text, and what replaced it."""


def _replacer(
    secret: SecretPattern, counts: dict[str, int], edits: list[Edit] | None = None
) -> Callable[[re.Match[str]], str]:
    """The `sub` callback for `secret`: counts what it replaces, and notes where in `edits` (when given)."""
    placeholder = _PLACEHOLDER.format(kind=secret.kind)
    groups = secret.value_groups or (secret.group,)

    def replace(match: re.Match[str]) -> str:
        for group in groups:
            value = match.group(group)
            if value is None:
                continue
            if value.strip().lower() in _PLACEHOLDER_VALUES or value.startswith(('$', '<', '%(', '{{', '[REDACTED')):
                # Empty values, placeholders and references to a variable are not secrets.
                return match.group(0)
            counts[secret.kind] = counts.get(secret.kind, 0) + 1
            start, end = match.span(group)
            whole_start, whole_end = match.span()
            text = match.group(0)
            replaced = text[: start - whole_start] + placeholder + text[end - whole_start :]
            if edits is not None:
                edits.append((whole_start, whole_end, replaced))
            return replaced
        return match.group(0)

    return replace


_COMMON_FIRST = ' etaoinsrlhdcumpfgywb.,/_-:=vk0123456789xjqzETAOINSRLHDCUMPFGYWBVKXJQZ'
"""Characters roughly from the most to the least frequent in command output; a hint is looked up by its rarest."""
_RARITY = {char: rank for rank, char in enumerate(_COMMON_FIRST)}
_FOLDS_TO_ASCII = (('\u017f', 's'), ('\u0131', 'i'))
"""Long s and dotless i: `re.IGNORECASE` matches them to `s` and `i`, `str.lower()` leaves them (the Kelvin
sign it lowers to `k` itself). Folded before looking for hints, so `paſſword=` cannot slip past them."""
_FEW = 32
"""Occurrences of a hint's rarest character checked one by one before scanning for the whole hint."""


class _HintSearch:
    """Whether a hint occurs in one text, answered exactly and mostly at `memchr` speed.

    Scanning a megabyte for a short substring costs about a millisecond here, and the default patterns
    have some 40 hints. Most of them hold a character the text does not have at all (`_`, `J`, `z`,
    `:`), which a single-character search rules out in microseconds; a character the text has only a
    few times is checked at each place it occurs; only then is the text scanned for the whole hint.
    Hints that ignore case are compared case-insensitively; a text that is not ASCII, where lowering
    can turn other characters into ASCII letters (the Kelvin sign), is lowered and scanned.
    """

    __slots__ = ('_chars', '_found', '_lowered', 'text')

    def __init__(self, text: str) -> None:
        self.text = text
        self._lowered: str | None = None
        self._chars: dict[str, bool] = {}
        self._found: dict[tuple[str, bool], bool] = {}

    def _has(self, char: str) -> bool:
        present = self._chars.get(char)
        if present is None:
            present = self._chars[char] = char in self.text
        return present

    def lower(self) -> str:
        """The text lowered, with the letters a case-insensitive regex also takes for `s` and `i` folded to them."""
        if self._lowered is None:
            lowered = self.text.lower()
            if not lowered.isascii():
                for letter, ascii_letter in _FOLDS_TO_ASCII:
                    if letter in lowered:
                        lowered = lowered.replace(letter, ascii_letter)
            self._lowered = lowered
        return self._lowered

    def occurs(self, hint: str, ignore_case: bool) -> bool:
        key = (hint, ignore_case)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = self._search(hint, ignore_case)
        return found

    def _search(self, hint: str, ignore_case: bool) -> bool:
        text = self.text
        if ignore_case:
            if not text.isascii():
                return hint.lower() in self.lower()
            hint = hint.lower()
        forms = {char: (char, char.upper()) if ignore_case and char.upper() != char else (char,) for char in hint}
        if not all(any(self._has(form) for form in char_forms) for char_forms in forms.values()):
            return False
        rarest = max(hint, key=lambda char: _RARITY.get(char, len(_RARITY)))
        offset = hint.index(rarest)
        places: list[int] = []
        for form in forms[rarest]:
            place = text.find(form)
            while place != -1 and len(places) <= _FEW:
                places.append(place)
                place = text.find(form, place + 1)
            if len(places) > _FEW:
                return hint in (self.lower() if ignore_case else text)
        for place in places:
            start = place - offset
            if start < 0:
                continue
            window = text[start : start + len(hint)]
            if (window.lower() if ignore_case else window) == hint:
                return True
        return False


def _sub_at_starts(secret: SecretPattern, hints: _HintSearch, replace: Callable[[re.Match[str]], str]) -> str:
    """`secret.pattern.sub(replace, text)`, trying the regex only where one of `secret.starts` occurs.

    The same result as `sub` for a pattern whose every match begins with one of its starts: `sub` also
    takes the leftmost match and goes on after its end. Lowering a text may change its length (`İ`);
    then the positions in the lowered text are not the text's, and the regex searches the whole text.
    """
    text = hints.text
    haystack = text
    ignore_case = secret.ignores_case and any(start.lower() != start.upper() for start in secret.starts)
    if ignore_case:
        haystack = hints.lower()
        if len(haystack) != len(text):
            return secret.pattern.sub(replace, text)
    places: set[int] = set()
    crowded = crowding(text)
    for start in secret.starts:
        start = start.lower() if ignore_case else start
        place = haystack.find(start)
        while place != -1:
            places.add(place)
            if len(places) > crowded:
                # A start found everywhere (`--` in runs of dashes): the regex's own scan is cheaper.
                return secret.pattern.sub(replace, text)
            place = haystack.find(start, place + 1)
    return _sub_at(secret.pattern, text, sorted(places), replace)


def _sub_at(pattern: re.Pattern[str], text: str, places: Sequence[int], replace: Callable[[re.Match[str]], str]) -> str:
    """`pattern.sub(replace, text)` for a pattern that can match only at `places` (sorted)."""
    edits: list[Edit] = []

    def noted(match: re.Match[str]) -> str:
        replaced = replace(match)
        if replaced != match.group(0):
            edits.append((*match.span(), replaced))
        return replaced

    _match_at(pattern, text, places, noted)
    return _apply(text, edits)


def _match_at(
    pattern: re.Pattern[str], text: str, places: Sequence[int], replace: Callable[[re.Match[str]], str]
) -> None:
    """Call `replace` on each match `pattern.sub` would make in `text`, for a pattern that can match only at
    `places` (sorted): the leftmost non-empty match, then the next one after its end."""
    done = 0
    for place in places:
        if place < done:
            continue
        match = pattern.match(text, place)
        if match is None or match.end() == place:
            continue
        replace(match)
        done = match.end()


def _apply(text: str, edits: Sequence[Edit]) -> str:
    """`text` with each of the sorted, non-overlapping `edits` made."""
    if not edits:
        return text
    pieces: list[str] = []
    done = 0
    for start, end, new in edits:
        _kept(text, done, start, pieces)
        pieces.append(new)
        done = end
    _kept(text, done, len(text), pieces)
    return ''.join(pieces)


_PIECE = 16 * 1024
"""Characters of kept text sliced at a time when a text is rebuilt around its replacements."""


def _kept(text: str, start: int, end: int, pieces: list[str]) -> None:
    """`text[start:end]` onto `pieces`, in slices of at most `_PIECE` characters.

    The join copies them into the new text either way. A slice of most of a megabyte is a fresh megabyte or
    more of memory that the system maps in page by page (more than a millisecond for a text outside ASCII);
    small slices are served from memory just freed by the ones before.
    """
    if end - start <= _PIECE:
        pieces.append(text[start:end])
        return
    pieces.extend(text[low : min(end, low + _PIECE)] for low in range(start, end, _PIECE))


def _after_edits(
    gate: Gate, places: Places, text: str, edits: Sequence[Edit], first: int, count: int
) -> tuple[Places, str | None]:
    """The places of patterns `first` on, in the text `edits` make of `text`: moved with the text, dropped where
    it was replaced, and looked for again next to each replacement, where the new text may make new matches.

    The edited text is built only when a short stretch of it around a replacement cannot say (a run of
    characters a form may begin with reaches past the stretch): building a megabyte to look at a few dozen
    characters costs a millisecond. Returned with the places: the edited text, if it was built.
    """
    later = [index for index in range(first, count) if gate.gated(index)]
    if not later:  # no later pattern is looked for by place (the last pattern's replacements, say)
        return {index: at for index, at in places.items() if index < first}, None
    found = _places_after(gate, places, text, edits, first, later, _stretches(text, edits, gate.margins(later)))
    if found is not None:
        return found, None
    edited = _apply(text, edits)
    whole = _places_after(gate, places, text, edits, first, later, [(edited, 0, True, True, _replaced(edits))])
    assert whole is not None  # a stretch that is the whole text always says
    return whole, edited


def _places_after(
    gate: Gate,
    places: Places,
    text: str,
    edits: Sequence[Edit],
    first: int,
    later: list[int],
    stretches: list[Stretch],
) -> Places | None:
    """`_after_edits` looking next to each replacement in `stretches`; `None` if one was too short to say."""
    out: Places = {index: at for index, at in places.items() if index < first}
    crowded = len(edits) > crowding(text)
    for index in later:
        old = places.get(index, [])
        if old is None or crowded:
            out[index] = None  # too many to follow one by one: search the whole text
            continue
        moved: list[int] = []
        edit = 0
        shift = 0
        for place in old:
            while edit < len(edits) and edits[edit][1] <= place:
                start, end, new = edits[edit]
                shift += len(new) - (end - start)
                edit += 1
            if edit < len(edits) and edits[edit][0] <= place:
                continue  # inside replaced text: gone
            moved.append(place + shift)
        for stretch, offset, at_start, at_end, replaced in stretches:
            for low, high in replaced:
                near = gate.places_near(index, stretch, low, high, at_start=at_start, at_end=at_end)
                if near is None:
                    return None
                moved += [offset + place for place in near]
        if moved:
            out[index] = sorted(set(moved))
    return out


Stretch = tuple[str, int, bool, bool, list[tuple[int, int]]]
"""A stretch of an edited text: its characters, where it begins in the edited text, whether it begins at the
text's start and whether it ends at its end, and the replacements in it (`[low, high)` in the stretch)."""


def _replaced(edits: Sequence[Edit]) -> list[tuple[int, int]]:
    """Where each of the sorted `edits` left its new text, in the edited text."""
    out: list[tuple[int, int]] = []
    grown = 0
    for start, end, new in edits:
        out.append((start + grown, start + grown + len(new)))
        grown += len(new) - (end - start)
    return out


def _stretches(text: str, edits: Sequence[Edit], margins: tuple[int, int]) -> list[Stretch]:
    """The stretches of the text `edits` (sorted, apart) make of `text` that hold each replacement with
    `margins` (characters before, after) of the text around it; replacements whose margins meet share one."""
    before, after = margins
    out: list[Stretch] = []
    shift = 0  # edited minus original, before the stretch being built
    group: list[Edit] = []
    low = high = 0

    def close() -> None:
        start, stop = max(0, low), min(len(text), high)
        moved = _moved(group, -start)
        out.append((_apply(text[start:stop], moved), start + shift, start == 0, stop == len(text), _replaced(moved)))

    for start, end, new in edits:
        if group and start - before <= high:
            group.append((start, end, new))
            high = end + after
            continue
        if group:
            close()
            shift += sum(len(edit_new) - (edit_end - edit_start) for edit_start, edit_end, edit_new in group)
        group, low, high = [(start, end, new)], start - before, end + after
    if group:
        close()
    return out


Segment = tuple[int, int, str]
"""A stretch of the original text, `[start, end)`, and what the scrubbed text has in its place."""


def _compose(segments: list[Segment], edits: Sequence[Edit], current: str) -> list[Segment]:
    """`segments` followed by `edits`: `current` is the text the segments make of the original, and the edits
    (sorted, apart) are made to it. The result says, in the original's coordinates, what the edited text
    has in place of each changed stretch; edits that touch earlier segments absorb them into one stretch."""
    out: list[Segment] = []
    index = 0
    shift = 0  # current minus original, for a position before segments[index]
    count = len(segments)
    stretch: list[Edit] = []  # the edits of the stretch being built, in the current text's coordinates
    low = high = original_low = original_high = 0
    for start, end, new in edits:
        if not stretch or start >= high:
            if stretch:
                out.append((original_low, original_high, _apply(current[low:high], _moved(stretch, -low))))
            # Segments that end where the edit begins come before it (an empty one at an empty edit too).
            while index < count:
                seg_start, seg_end, seg_new = segments[index]
                if seg_start + shift + len(seg_new) > start:
                    break
                out.append(segments[index])
                shift += len(seg_new) - (seg_end - seg_start)
                index += 1
            stretch, low, high, original_low = [], start, end, start - shift
        stretch.append((start, end, new))
        # Segments that begin before the edit ends (and did not end before it began) are part of the stretch.
        while index < count:
            seg_start, seg_end, seg_new = segments[index]
            now_start = seg_start + shift
            if now_start >= end:
                break
            now_end = now_start + len(seg_new)
            if now_start < low:
                low, original_low = now_start, seg_start
            if now_end > high:
                high, original_high = now_end, seg_end
            shift += len(seg_new) - (seg_end - seg_start)
            index += 1
        if end >= high:
            high, original_high = end, end - shift
    if stretch:
        out.append((original_low, original_high, _apply(current[low:high], _moved(stretch, -low))))
    out.extend(segments[index:])
    return out


def _moved(edits: Sequence[Edit], by: int) -> list[Edit]:
    return [(start + by, end + by, new) for start, end, new in edits]


def _byte_offsets(text: str, data: bytes, positions: Sequence[int], anchors: Mapping[int, int]) -> list[int]:
    """Each of the sorted character `positions` in `text` as an offset into `data`, its UTF-8 (`surrogatepass`).

    `anchors` are known pairs (byte offset: character offset), such as the places the gate's scan reported:
    each position is counted from the nearest one before it, so only the bytes between are decoded (the
    UTF-8 decoder counts characters at memory speed over ASCII; encoding a 2-byte text is far slower).
    """
    if len(data) == len(text):
        return list(positions)
    known = sorted((char, byte) for byte, char in anchors.items() if byte >= len(data) or not 0x80 <= data[byte] < 0xC0)
    out: list[int] = []
    byte = char = 0
    size = len(data)
    for position in positions:
        at = bisect_right(known, (position, size)) - 1
        if at >= 0 and known[at][0] > char:
            char, byte = known[at]
        while char < position:
            # `position - char` bytes hold at most that many characters: never past the position (counted a
            # piece at a time by `utf8_chars`: a long stretch decoded at once is megabytes of fresh memory).
            stop = byte + position - char
            while stop < size and 0x80 <= data[stop] < 0xC0:
                stop += 1
            char += utf8_chars(data, byte, stop)
            byte = stop
        out.append(byte)
    return out


def _splice(text: str, data: bytes, segments: Sequence[Segment], anchors: Mapping[int, int] | None = None) -> bytes:
    """`data` (the UTF-8 of `text`) with each segment's stretch replaced by its new text, encoded."""
    positions = [place for start, end, _ in segments for place in (start, end)]
    bounds = _byte_offsets(text, data, positions, anchors or {})
    # Views, not slices: the kept stretches are copied once, into the result (a megabyte copied twice is
    # a megabyte more of fresh memory to fault in, on every spill that held a secret).
    kept = memoryview(data)
    pieces: list[bytes | memoryview] = []
    done = 0
    for number, (_, _, new) in enumerate(segments):
        begin, end = bounds[2 * number], bounds[2 * number + 1]
        pieces += (kept[done:begin], new.encode('utf-8', 'surrogatepass'))
        done = end
    pieces.append(kept[done:])
    return b''.join(pieces)


@dataclass(frozen=True)
class Scrubber:
    """Replaces secrets with `[REDACTED:<kind>]` before a write; every write path in this package uses one.

    On by default everywhere (`DEFAULT_SCRUBBER`); pass `scrubber=None` to a building block to store
    output verbatim, or a `Scrubber(extra=...)` to add your own formats.

    ```python
    from observable_harness.bounded import Scrubber

    assert Scrubber().scrub('password=hunter2').text == 'password=[REDACTED:assignment]'
    assert Scrubber(enabled=False).scrub('password=hunter2').text == 'password=hunter2'
    ```

    A gate runs first, in one pass over the text's UTF-8 bytes, and the exact regexes only next to
    what it found; with the `fast` extra installed that pass is Hyperscan or RE2 and costs well under
    a millisecond per megabyte. The text scrubbed is the same with any engine.
    """

    patterns: Sequence[SecretPattern] = DEFAULT_PATTERNS
    """The formats to find; replace the defaults only to remove one that misfires on your output."""
    extra: Sequence[SecretPattern] = ()
    """Formats of your own, applied after `patterns`."""
    enabled: bool = True
    """False stores output verbatim (for output known to hold no secrets, such as public listings)."""
    engine: Engine | Literal['auto'] = 'auto'
    """The gate's engine: `auto` takes the fastest installed (`ENGINES`); `python` runs no gate (each
    pattern's hints and starts, then its regex); naming an engine that is not installed is an error."""

    _secrets: tuple[SecretPattern, ...] = field(init=False, repr=False, compare=False)
    _specs: tuple[GateSpec, ...] = field(init=False, repr=False, compare=False)
    _compiled: list[Gate | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.engine != 'auto' and self.engine not in ENGINES:
            raise ValueError(
                f'Scrubber(engine={self.engine!r}): that engine is not installed here; installed: '
                f'{", ".join(ENGINES)}. Install the `fast` extra for hyperscan and re2, or use engine="auto".'
            )
        secrets = (*self.patterns, *self.extra)
        object.__setattr__(self, '_secrets', secrets)
        object.__setattr__(self, '_specs', tuple(secret.gate_spec() for secret in secrets))
        object.__setattr__(self, '_compiled', [])
        if self.enabled and secrets != DEFAULT_PATTERNS:
            # Patterns of your own are compiled now, so a form no engine can run is an error here rather
            # than a failed write (and a fallback) at the first spill; the defaults compile on first use.
            self._gate()

    def _gate(self) -> Gate | None:
        """The compiled gate for these patterns (compiled on first use), or `None` for the python engine."""
        if self._compiled:
            return self._compiled[0]
        gate = self._find_gate()
        self._compiled[:] = [gate]
        return gate

    def _find_gate(self) -> Gate | None:
        engine = self.engine
        if engine == 'auto':
            # The engine chosen at import, unless it cannot run here: then the next (`python` always can).
            engine = ENGINE if usable(ENGINE) else next(engine for engine in ENGINES if usable(engine))
        return None if engine == 'python' else gate_for(self._specs, engine)

    def scrub(self, text: str, *, utf8: bytes | None = None) -> ScrubResult[str]:
        """`text` with every secret replaced, and how many of each kind were.

        `utf8` is `text.encode('utf-8', 'surrogatepass')` when the caller has it already (a write does):
        the gate scans it instead of encoding the text again.
        """
        if not self.enabled or not text:
            return ScrubResult(text)
        gate = self._gate()
        if gate is None:
            return self._scrub_everywhere(text)
        data = text.encode('utf-8', 'surrogatepass') if utf8 is None else utf8
        text, counts, last_edits = self._gated(gate, text, data, None)
        return ScrubResult(_apply(text, last_edits), counts)

    def scrub_utf8(self, text: str, data: bytes) -> ScrubResult[bytes]:
        """`data`, which is `text` as UTF-8 (`surrogatepass`), with every secret replaced: the same bytes as
        encoding `scrub(text).text`, made by splicing the replacements into `data` rather than encoding the
        whole text again (for text outside ASCII, that encoding costs more than the scan)."""
        if not self.enabled or not text:
            return ScrubResult(data)
        gate = self._gate()
        if gate is None:
            result = self._scrub_everywhere(text)
            encoded = result.text.encode('utf-8', 'surrogatepass') if result.counts else data
            return ScrubResult(encoded, result.counts)
        segments: list[Segment] = []
        anchors: dict[int, int] = {}
        _, counts, _ = self._gated(gate, text, data, segments, anchors)
        return ScrubResult(_splice(text, data, segments, anchors) if segments else data, counts)

    def _gated(
        self, gate: Gate, text: str, data: bytes, segments: list[Segment] | None, anchors: dict[int, int] | None = None
    ) -> tuple[str, dict[str, int], list[Edit]]:
        """Run each pattern where the gate says it can match, each on the text the ones before it left.

        Returns the text before the last pattern's replacements, the counts, and those replacements (the
        caller that wants text applies them; one that wants bytes needs no text built). With `segments`,
        every replacement is also composed into it, in the original text's coordinates; `anchors` receives
        the scan's byte offsets with their characters.
        """
        counts: dict[str, int] = {}
        secrets = self._secrets
        places, found = gate.places_and_anchors(text, data)
        if anchors is not None:
            anchors.update(found)
        hints: _HintSearch | None = None
        count = len(secrets)
        pending: list[Edit] = []  # the last replacements made, not yet applied to `text`
        for index, secret in enumerate(secrets):
            gated = gate.gated(index)
            if gated and index not in places:
                continue
            if pending:
                # This pattern runs on the text with the earlier ones' secrets replaced, as it would without a gate.
                text, hints, pending = _apply(text, pending), None, []
            if not gated:
                hints = hints or _HintSearch(text)
                if secret.hints and not any(hints.occurs(hint, secret.ignores_case) for hint in secret.hints):
                    continue
            edits: list[Edit] = []
            replace = _replacer(secret, counts, edits)
            if gated and (at := places[index]) is not None:
                _match_at(secret.pattern, text, at, replace)
            else:
                for match in secret.pattern.finditer(text):  # what `sub` replaces, match for match
                    replace(match)
            if not edits:
                continue
            if segments is not None:
                segments[:] = _compose(segments, edits, text)
            # The later patterns' places move with the replacements, and the new text is looked at for new
            # ones; the edited text itself is built only if a later pattern has somewhere to run.
            places, edited = _after_edits(gate, places, text, edits, index + 1, count)
            if edited is None:
                pending = edits
            else:
                text, hints = edited, None
        return text, counts, pending

    def _scrub_everywhere(self, text: str) -> ScrubResult[str]:
        """No gate: each pattern's hints rule it out or its starts say where to try it."""
        counts: dict[str, int] = {}
        hints = _HintSearch(text)
        for secret in self._secrets:
            if secret.hints and not any(hints.occurs(hint, secret.ignores_case) for hint in secret.hints):
                continue
            before = counts.get(secret.kind, 0)
            replace = _replacer(secret, counts)
            replaced = _sub_at_starts(secret, hints, replace) if secret.starts else secret.pattern.sub(replace, text)
            if counts.get(secret.kind, 0) != before:
                text = replaced
                hints = _HintSearch(text)
        return ScrubResult(text, counts)

    def scrub_bytes(self, data: bytes) -> ScrubResult[bytes]:
        """`data` with every secret replaced; bytes that are not UTF-8 pass through unchanged."""
        if not self.enabled or not data:
            return ScrubResult(data)
        try:
            text, utf8 = data.decode('utf-8'), data
        except UnicodeDecodeError:
            text, utf8 = data.decode('utf-8', 'surrogateescape'), None
        result = self.scrub(text, utf8=utf8)
        if not result.counts:
            return ScrubResult(data)
        return ScrubResult(result.text.encode('utf-8', 'surrogateescape'), result.counts)


DEFAULT_SCRUBBER = Scrubber()
"""The scrubber every write path uses unless told otherwise."""


def scrub(text: str) -> ScrubResult[str]:
    """Replace secrets in `text` with the default scrubber (see `Scrubber`)."""
    return DEFAULT_SCRUBBER.scrub(text)


def scrub_bytes(data: bytes) -> ScrubResult[bytes]:
    """Replace secrets in UTF-8 `data` with the default scrubber; other bytes pass through unchanged."""
    return DEFAULT_SCRUBBER.scrub_bytes(data)
