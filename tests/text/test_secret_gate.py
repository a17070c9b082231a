"""The one-pass gate in front of the secret regexes: it names every place an exact pattern can match.

Each engine installed here (Hyperscan, RE2; `python` runs no gate) is checked on its own. What the
scrubber then writes is checked against running every exact regex everywhere in `test_secrets.py`.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import string
import sys
import threading
from re import _parser as sre_parse  # pyright: ignore[reportAttributeAccessIssue]

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from observable_harness._text.scan import ENGINE, ENGINES, Engine, GateForm, case_variants, gate_for, usable
from observable_harness._text.secrets import DEFAULT_PATTERNS, Scrubber, SecretPattern, _apply, _compose, _splice
from tests.text.test_secrets import _SECRETISH, AWS_KEY, DB_PASSWORD, DEPLOY_LOG, EVERYWHERE, GITHUB, JWT

GATED = tuple(engine for engine in ENGINES if engine != 'python')
SPECS = tuple(pattern.gate_spec() for pattern in DEFAULT_PATTERNS)
_FOLDED = str.maketrans({'\u0130': 'I', '\u0131': 'i', '\u212a': 'K', '\u017f': 's'})


def test_the_development_install_has_every_engine() -> None:
    # `make test` installs the `fast` extra so that each of the three paths is tested here.
    assert set(ENGINES) == {'hyperscan', 're2', 'python'}, 'install the `fast` extra: pip install -e .[dev]'
    assert ENGINE == 'hyperscan'


def test_the_default_scrubber_runs_the_gate_of_the_fastest_engine() -> None:
    gate = Scrubber()._gate()
    assert gate is not None and gate.engine == ENGINE
    assert Scrubber(engine='python')._gate() is None
    assert all(spec.forms for spec in SPECS), 'every default pattern is gated: none is run over the whole text'
    assert all(pattern.starts for pattern in DEFAULT_PATTERNS), 'every default pattern says how its matches begin'


def test_case_variants_are_every_letter_that_ignorecase_matches() -> None:
    # Every code point at once: the non-ASCII letters re.IGNORECASE takes for an ASCII one are exactly these.
    everything = ''.join(chr(point) for point in range(sys.maxunicode + 1) if not 0xD800 <= point < 0xE000)
    for letter in string.ascii_lowercase:
        matched = set(re.findall(letter, everything, re.IGNORECASE))
        assert matched == set(case_variants(letter)), letter
        assert case_variants(letter.upper()) == case_variants(letter)


def test_every_form_reaches_no_further_than_it_says() -> None:
    for pattern in DEFAULT_PATTERNS:
        for form in pattern.gate_spec().forms:
            low, high = sre_parse.parse(form.regex.encode('ascii')).getwidth()
            assert 0 < low <= high <= form.reach, (pattern.kind, form.regex, high, form.reach)


def _exact_starts(pattern: re.Pattern[str], text: str) -> set[int]:
    found: set[int] = set()
    for place in range(len(text)):
        match = pattern.match(text, place)
        if match is not None and match.end() > place:
            found.add(place)
    return found


@given(text=_SECRETISH)
@example('pa\u017f\u017fword=hunter2x')
@example('--x.to\u212aen abc --\u0130-private_key=1 prİvate_key= Bearer\u3000\u3000abcdefgh')
@example('caf\u00e9 https://us\u00e9r:p\u00e4ss@host/ --password\thunter2 ' + 'x' * 70 + '-token y')
@example('-' * 200 + '-api-key abc')
@pytest.mark.parametrize('engine', GATED)
def test_the_gate_names_every_place_an_exact_pattern_matches(engine: Engine, text: str) -> None:
    gate = gate_for(SPECS, engine)
    places = gate.places(text, text.encode('utf-8', 'surrogatepass'))
    for index, pattern in enumerate(DEFAULT_PATTERNS):
        named = places.get(index, [])
        if named is None:
            continue  # found too often: searched for in the whole text
        missed = _exact_starts(pattern.pattern, text) - set(named)
        assert not missed, (pattern.kind, sorted(missed))


@given(text=_SECRETISH.map(lambda text: text.translate(_FOLDED)))
@example('--db-password hunter2 DB_PASSWORD = x Authorization:  Basic dXNlcjpwYXNz https://a:b@c')
def test_each_relaxed_form_matches_wherever_its_exact_pattern_does(text: str) -> None:
    # The forms themselves, run by Python's engine on the bytes: where an exact match begins, one of its
    # pattern's forms matches too (a form that reads back, from a place inside the match). Letters that
    # fold to ASCII ones are the gate's own business and are left out here.
    data = text.encode('utf-8', 'surrogatepass')
    offsets = [len(text[:place].encode('utf-8', 'surrogatepass')) for place in range(len(text) + 1)]
    for pattern in DEFAULT_PATTERNS:
        forms = [
            (form, re.compile(form.regex.encode('ascii'), re.IGNORECASE if form.ignore_case else 0))
            for form in pattern.gate_spec().forms
        ]
        for place in _exact_starts(pattern.pattern, text):
            match = pattern.pattern.match(text, place)
            assert match is not None
            begin, end = offsets[place], offsets[match.end()]
            assert any(
                compiled.match(data, at) is not None
                for form, compiled in forms
                for at in (range(begin, end) if form.back else (begin,))
            ), (pattern.kind, text[place : match.end()])


@pytest.mark.parametrize('engine', ENGINES)
def test_undecodable_bytes_scrub_alike_on_every_engine(engine: Engine) -> None:
    data = b'\xff\xfe\x80 prefix\npassword=hunter2 \xc3( ' + AWS_KEY.encode() + b' --token \xe2\x82 abcdef\n'
    result = Scrubber(engine=engine).scrub_bytes(data)
    assert result == Scrubber(engine='python').scrub_bytes(data)
    assert result.counts == {'assignment': 1, 'aws_access_key': 1, 'flag': 1}
    assert result.text.startswith(b'\xff\xfe\x80 prefix\n') and b'\xc3( ' in result.text


@pytest.mark.parametrize('engine', GATED)
def test_threads_scrub_at_once_each_with_its_own_scan_space(engine: Engine) -> None:
    scrubber = Scrubber(engine=engine)
    texts = [f'{DEPLOY_LOG}\nrun {i} --api-key k{i}x{i} ' * (i + 1) for i in range(8)]
    expected = [scrubber.scrub(text) for text in texts]
    results: dict[int, object] = {}

    def work(index: int) -> None:
        for _ in range(20):
            results[index] = scrubber.scrub(texts[index])
            assert results[index] == expected[index]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(texts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [results[i] for i in range(len(texts))] == expected


_INTERNAL = re.compile(r'\bitk_[0-9a-f]{32}\b')
_EXTRAS = (
    SecretPattern('internal_token', _INTERNAL, hints=('itk_',), starts=('itk_',)),
    SecretPattern('ticket', re.compile(r'(?i)\bticket#(\d{6,})'), group=1, starts=('ticket#',)),
    SecretPattern('loose', re.compile(r'(?<=\bpin )\d{4}\b')),  # no starts: run over the whole text
)


@given(
    text=st.lists(st.sampled_from(('itk_' + 'a1' * 16, 'TICKET#123456', 'tıcket#999999', 'pin 1234', ' ', 'x'))).map(
        ''.join
    )
)
@pytest.mark.parametrize('engine', ENGINES)
def test_extra_patterns_are_gated_by_their_starts_or_run_everywhere(engine: Engine, text: str) -> None:
    gated = Scrubber(extra=_EXTRAS, engine=engine).scrub(text)
    everywhere = Scrubber(
        patterns=EVERYWHERE.patterns,
        extra=tuple(dataclasses.replace(p, hints=(), starts=()) for p in _EXTRAS),
        engine='python',
    ).scrub(text)
    assert gated == everywhere


def test_a_secret_in_a_megabyte_is_found_by_every_engine() -> None:
    filler = '2026-11-29T10:00:00 INFO worker-3 processed batch 123456 in 12.5 ms status=ok\n' * 13_000
    text = f'{filler}curl -H "Authorization: Bearer {JWT}"\nDB_PASSWORD={DB_PASSWORD}\n{filler}ghp token {GITHUB}\n'
    results = {engine: Scrubber(engine=engine).scrub(text) for engine in ENGINES}
    assert len({(result.text, tuple(sorted(result.counts.items()))) for result in results.values()}) == 1
    assert results[ENGINE].counts == {'github_token': 1, 'jwt': 1, 'assignment': 1}


def test_bad_configuration_is_refused_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match='not installed here'):
        Scrubber(engine='vectorscan')  # type: ignore[arg-type]
    with pytest.raises(ValueError, match='reach'):
        GateForm('abc', reach=0)
    with pytest.raises(ValueError, match='ASCII regex over bytes'):
        GateForm('caf\u00e9', reach=5)
    with pytest.raises(ValueError, match='ASCII regex over bytes'):
        GateForm('(unclosed', reach=5)
    for unportable in (r'(?<=k)ey', r'\bkey', r'key$', r'ke++y', r'(k)\1'):
        with pytest.raises(ValueError, match='cannot run'):
            GateForm(unportable, reach=5)
    GateForm(r'[^$^]key', reach=5)  # in a bracket expression `^` negates and `$` is a character
    with pytest.raises(ValueError, match='character class'):
        GateForm('key', reach=3, back='[')


def test_every_installed_engine_runs_here() -> None:
    assert all(usable(engine) for engine in ENGINES)


@pytest.mark.parametrize('engine', GATED)
def test_a_pattern_found_everywhere_is_searched_for_in_the_whole_text(engine: Engine) -> None:
    # A hit every few dozen characters: following each costs more than one regex search, so the gate
    # hands the pattern over whole; the replacements made before it also come too many to follow one by one.
    text = '\n'.join(f'a://u:p{i}@h/ password={i}x' for i in range(400)) + '\n--auth-token t0k Bearer abcdefgh0'
    assert len(text) < 400 * 64
    gate = gate_for(SPECS, engine)
    places = gate.places(text, text.encode())
    kinds = {pattern.kind: index for index, pattern in enumerate(DEFAULT_PATTERNS)}
    assert places[kinds['assignment']] is None and places[kinds['url_credentials']] is None
    result = Scrubber(engine=engine).scrub(text)
    assert result == EVERYWHERE.scrub(text)
    assert result.counts == {'bearer': 1, 'url_credentials': 400, 'assignment': 400, 'flag': 1}


@given(
    text=st.lists(
        st.sampled_from(('https://u:pass1234@h/', 'token=[REDACTED', ':x]', '--api-key ', 'sk-' + 'a' * 24, ' ', '\n')),
        max_size=30,
    ).map(''.join)
)
@pytest.mark.parametrize('engine', GATED)
def test_later_patterns_see_the_text_earlier_ones_replaced(engine: Engine, text: str) -> None:
    # Replacements move the places of later patterns, remove some and can make new ones (a placeholder
    # beside a name); each later pattern must find exactly what it finds scanning the replaced text.
    assert Scrubber(engine=engine).scrub(text) == EVERYWHERE.scrub(text)


_LONG_PIECES = (
    'https://u:pass1234@h/',
    'https://u:' + 'p' * 60 + '@h/',  # a secret longer than its placeholder: the text after it moves back
    'token=[REDACTED',
    ':x]',
    '--api-key ',
    '--',
    'password=',
    ' ',
    '\n',
    '\u00e9',
    'a' * 120,  # a run of the characters a flag's name is made of, longer than the stretch looked at around an edit
    'b-c.' * 5,
    'x ' * 75,  # more text than a stretch holds: replacements far apart are looked at apart
)


@given(text=st.lists(st.sampled_from(_LONG_PIECES), max_size=40).map(''.join))
@example('--api-key ' + 'a' * 120 + 'https://u:pass1234@h/ ' + 'x ' * 75 + ' token=abc')
@example('x ' * 75 + '--api-key https://u:pass1234@h/ password=' + 'x ' * 75 + 'https://u:pass1234@h/--')
@example('https://u:' + 'p' * 60 + '@h/ ' + 'x ' * 75 + 'b-c.' + 'https://u:pass1234@h/')
@example('x ' * 75 + 'a' * 120 + 'https://u:pass1234@h/ ' + 'x ' * 75 + 'b-c.' * 5 + 'https://u:pass1234@h/')
@pytest.mark.parametrize('engine', GATED)
def test_replacements_are_looked_at_in_stretches_that_say_the_same(engine: Engine, text: str) -> None:
    # After a pattern's replacements, the next ones' new places are looked for in short stretches of the
    # edited text rather than in the whole of it, built only when a later pattern runs: the same result,
    # also where a stretch is too short to say (a long run before a replacement) and the whole is used.
    # The pattern of one's own matches only across a placeholder, from the start of the run before it: its
    # places come from the stretches alone.
    across = SecretPattern('across', re.compile(r'[\w\[:/]+\]@'), gate=(GateForm(r'\]@', reach=2, back=r'[\w\[:/]'),))
    data = text.encode('utf-8', 'surrogatepass')
    for extra in ((), (across,)):
        expected = Scrubber(extra=extra, engine='python').scrub(text)
        scrubber = Scrubber(extra=extra, engine=engine)
        assert scrubber.scrub(text) == expected
        assert scrubber.scrub_utf8(text, data).text == expected.text.encode('utf-8', 'surrogatepass')


def test_the_default_forms_pass_the_checks_a_form_of_your_own_gets() -> None:
    """The library's own forms skip the check at import (it costs milliseconds); here they take it."""
    forms = [form for pattern in DEFAULT_PATTERNS for form in pattern.gate]
    assert forms
    for form in forms:
        assert GateForm(form.regex, reach=form.reach, ignore_case=form.ignore_case, back=form.back) == form


@given(
    text=st.lists(
        st.one_of(
            _SECRETISH,
            st.sampled_from(('https://u:pass1234@h/', 'token=[REDACTED', ':x]', '--api-key ', '\u00e9', '\u4e2d')),
            st.sampled_from(('\udc80', '\ud83d', '\U0001f600', 'caf\u00e9=1 ')),
        ),
        max_size=12,
    ).map(''.join)
)
@example('caf\u00e9 password=hunter2 \U0001f600 token=abc')
@example('\udc80https://u:pass1234@h/ token=[REDACTED:x]')
@pytest.mark.parametrize('engine', ENGINES)
def test_scrubbed_bytes_are_the_scrubbed_text_encoded(engine: Engine, text: str) -> None:
    # A write splices the replacements into the bytes it has instead of encoding the scrubbed text: the
    # same bytes, whatever the text holds (characters of 2, 3 and 4 bytes, lone surrogates) and however
    # later patterns' matches overlap earlier replacements.
    scrubber = Scrubber(engine=engine)
    data = text.encode('utf-8', 'surrogatepass')
    expected = scrubber.scrub(text)
    spliced = scrubber.scrub_utf8(text, data)
    assert spliced.text == expected.text.encode('utf-8', 'surrogatepass')
    assert spliced.counts == expected.counts


@st.composite
def _edit_rounds(draw: st.DrawFn) -> tuple[str, list[list[tuple[int, int, str]]]]:
    """A text and rounds of edits, each round sorted and apart, made to the text the rounds before left."""
    text = draw(st.text(alphabet='ab\u00e9\U0001f600', max_size=20))
    current = text
    rounds: list[list[tuple[int, int, str]]] = []
    for _ in range(draw(st.integers(1, 4))):
        cuts = sorted(draw(st.lists(st.integers(0, len(current)), max_size=6)))
        edits = [
            (start, end, draw(st.text(alphabet='XY\u00e9', max_size=4)))
            for start, end in zip(cuts[::2], cuts[1::2], strict=False)
        ]
        rounds.append(edits)
        current = _apply(current, edits)
    return text, rounds


@given(case=_edit_rounds())
def test_edits_composed_into_the_original_make_the_text_the_rounds_made(
    case: tuple[str, list[list[tuple[int, int, str]]]],
) -> None:
    # Later rounds may cut into, swallow or sit beside what earlier ones wrote (a pattern matching across
    # a placeholder): the composed stretches, spliced into the original bytes, give the final text.
    text, rounds = case
    current = text
    segments: list[tuple[int, int, str]] = []
    for edits in rounds:
        segments = _compose(segments, edits, current)
        current = _apply(current, edits)
    assert _splice(text, text.encode('utf-8', 'surrogatepass'), segments) == current.encode('utf-8', 'surrogatepass')
    assert all(end <= start for (_, end, _), (start, _, _) in itertools.pairwise(segments))
