"""The preview's faster paths answer exactly what the plain ones do.

Where Hyperscan is installed the preview finds intent terms, a log's failure markers and the terms in a
list of records with one multi-literal scan; without it (or for text outside ASCII, or for a literal on
too many lines) it searches each literal with `str.find`. Both paths must choose the same lines: these
tests run the engine path against the search path on generated text. Looking back for the section an
indented key sits in is answered from chunks found once per text; it must answer as a search back would.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from observable_harness._text import intent as intent_module
from observable_harness._text import preview as preview_module
from observable_harness._text import shapes as shapes_module
from observable_harness._text.intent import Intent, Term, TermKind, _Folded
from observable_harness._text.preview import MIDDLE_MARKERS, _middle_hits, select_preview
from observable_harness._text.scan import literal_places, literal_places_utf8, literal_presence, usable
from observable_harness._text.shapes import TextView

pytestmark = pytest.mark.skipif(not usable('hyperscan'), reason='the engine path needs Hyperscan (the `fast` extra)')

_PIECES = [
    *('ab', 'AB', 'Ab', 'a_b', '12', '3', '1.2', 'ERR', 'err', 'Error', 'eRr', 'xERRy', 'Ssh', 'SSH2'),
    *(' ', ' ', '\n', '\n', '-', ':', '=', 'x'),
]
ascii_text = st.lists(st.sampled_from(_PIECES), max_size=400).map(''.join)


def _naive(text: str, literal: str, ignore_case: bool) -> list[int]:
    haystack, needle = (text.lower(), literal.lower()) if ignore_case else (text, literal)
    return [match.start() for match in re.finditer(f'(?={re.escape(needle)})', haystack)]


@given(
    ascii_text,
    st.lists(
        st.tuples(st.sampled_from(['ab', 'a_b', '12', 'ERR', 'b\n1', 'x-']), st.booleans()), min_size=1, max_size=5
    ),
)
@example('abababab\nab', [('ab', True), ('ba', False)])
def test_every_place_of_every_literal_or_none_for_a_common_one(text: str, literals: list[tuple[str, bool]]) -> None:
    places = literal_places(text, literals, cap_each=3)
    assert places is not None
    for (literal, ignore_case), found in zip(literals, places, strict=True):
        expected = _naive(text, literal, ignore_case)
        if found is None:
            assert len(expected) > 3, 'only a literal with more places than its cap is left to a search'
        else:
            assert found == expected


def test_no_engine_answer_outside_ascii_or_for_an_empty_literal() -> None:
    assert literal_places('naïve ab', [('ab', False)], cap_each=10) is None
    assert literal_places('ab', [('', False)], cap_each=10) is None
    assert literal_places('ab', [('ä', False)], cap_each=10) is None
    assert literal_presence('x ab y', [('ab', False), ('AB', False), ('zz', True), ('Y', True)]) == [
        True,
        False,
        False,
        True,
    ]


def _term(text: str, kind: TermKind) -> Term:
    return Term(text, text.lower(), kind, 1.0)


terms = st.lists(
    st.builds(
        _term,
        st.sampled_from(['ab', 'a_b', 'Ab', '12', '1.2', '3', 'ERR', 'AB', 'error', 'b 1', 'zz', 'SSH']),
        st.sampled_from(list(TermKind)),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=300)
@given(ascii_text, terms, st.integers(min_value=1, max_value=6))
def test_one_scan_finds_the_lines_a_search_per_term_finds(text: str, wanted: list[Term], limit: int) -> None:
    folded = _Folded(text)
    assert folded.find_many(wanted, limit) == [folded.find_all(term, limit) for term in wanted]


_WIDE = ['\u00e9', '\u00dcber', '\u4e2d', '\U0001d4b3', '\u00c9RR']
"""Letters outside ASCII, of 2, 3 and 4 bytes in UTF-8 (and 2- and 4-byte strings), beside ASCII terms."""
wide_text = st.lists(st.sampled_from([*_PIECES, *_WIDE]), max_size=400).map(''.join)


@settings(max_examples=300)
@given(wide_text, terms, st.integers(min_value=1, max_value=6))
@example('\u00e9ab\nAb \u4e2d12\n\U0001d4b3 ERR', [_term('ab', TermKind.word), _term('12', TermKind.number)], 2)
def test_outside_ascii_one_scan_of_the_bytes_finds_what_a_search_of_them_finds(
    text: str, wanted: list[Term], limit: int
) -> None:
    folded = _Folded(text)
    assert folded.find_many(wanted, limit) == [folded.find_all(term, limit) for term in wanted]


def test_a_term_on_many_lines_is_searched_and_the_rare_one_scanned(monkeypatch: pytest.MonkeyPatch) -> None:
    text = '\n'.join(f'row {i} common value' for i in range(2_000)) + '\nthe rare_key=7\n'
    searched: list[str] = []
    find_all = _Folded.find_all

    def spy(self: _Folded, term: Term, limit: int) -> tuple[list[tuple[int, int]], bool]:
        searched.append(term.key)
        return find_all(self, term, limit)

    monkeypatch.setattr(_Folded, 'find_all', spy)
    wanted = [_term('common', TermKind.word), _term('rare_key', TermKind.identifier)]
    found = _Folded(text).find_many(wanted, 10)
    assert searched == ['common']
    assert found[1] == ([(text.index('the rare_key'), text.index('rare_key'))], False)
    assert found[0][1] is True and len(found[0][0]) == 10


def _log(lines: list[str]) -> str:
    return '\n'.join(lines) + '\n'


log_lines = st.lists(
    st.sampled_from(
        [
            'INFO request served in 12 ms',
            'DEBUG cache hit',
            'ERROR disk full on /var',
            'Error: connection reset',
            'warning: retrying',
            'Traceback (most recent call last)',
            'ValueError: bad FAIL panic',
            'FATAL error: out of memory',
            'an Exception was raised',
            'ERROR café: reçu 3 fois ✗',
            'Ошибка: FAIL в модуле 💥 panic',
            '✓ 12 passed, ✗ 1 FAILED',
        ]
    ),
    min_size=1,
    max_size=600,
)


@settings(max_examples=150)
@given(log_lines, st.booleans())
def test_a_logs_failure_markers_are_the_same_lines_either_way(lines: list[str], spread: bool) -> None:
    # Spread over each marker's places (a log) or the first places in turn (a test run): the same either way. Text
    # outside ASCII is searched in an ASCII stand-in of the middle (a `?` for each other character): the same lines
    # as searching the text itself.
    view = TextView(_log(lines))
    scanned = _middle_hits(view, 0, view.end, spread=spread)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(preview_module, 'literal_places', lambda *args, **kwargs: None)
        patched.setattr(preview_module, 'literal_presence', lambda *args, **kwargs: None)
        searched = _middle_hits(view, 0, view.end, spread=spread)
    # The same log in ASCII, each other character a `?`: the same places, so the same lines.
    flat = TextView(''.join(char if char.isascii() else '?' for char in view.text))
    assert scanned == searched == _middle_hits(flat, 0, flat.end, spread=spread)
    assert all(marker.isascii() and '?' not in marker for marker in MIDDLE_MARKERS)
    assert all(any(marker.lstrip('\n') in view.content(span) for marker in MIDDLE_MARKERS) for span in scanned)


def _records_text(count: int, special: int) -> str:
    rows = [
        {
            'name': f'package-{i}',
            'version': f'1.{i}.0',
            'summary': 'a library' if i != special else 'the opentelemetry-sdk',
        }
        for i in range(count)
    ]
    return json.dumps(rows, separators=(',', ':'))


@pytest.mark.parametrize('count', [200, 3_000])
def test_a_list_of_records_previews_the_same_either_way(monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    text = _records_text(count, special=count // 2)
    intent = Intent.gather(prompt='Which version of opentelemetry-sdk is installed? Check package-7 too.')
    scanned = select_preview(text, 1_000, intent=intent, offer_chars=120)
    with monkeypatch.context() as patched:
        patched.setattr(preview_module, 'literal_places', lambda *args, **kwargs: None)
        patched.setattr(preview_module, 'literal_presence', lambda *args, **kwargs: None)
        patched.setattr(intent_module, 'literal_places', lambda *args, **kwargs: None)
        searched = select_preview(text, 1_000, intent=intent, offer_chars=120)
    assert scanned == searched
    assert 'opentelemetry-sdk' in scanned.text
    assert scanned.total_lines == count  # records counted through the gaps add up to the list's


@settings(max_examples=200)
@given(
    st.lists(st.sampled_from(['Section:', '  key = 1', '    deep: x', '', '[group]', '\tvalue']), max_size=300),
    st.lists(st.tuples(st.integers(min_value=0, max_value=4_000), st.sampled_from([50, 300, 4_000])), max_size=12),
)
def test_the_section_a_key_sits_in_is_found_back_from_anywhere_in_any_order(
    lines: list[str], queries: list[tuple[int, int]]
) -> None:
    text = '\n'.join(lines)
    view = TextView(text)  # one view for all queries: what an earlier query cached must not change a later answer
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(shapes_module, '_CHUNK_CHARS', 64)  # many chunks even in a short text
        for position, window in queries:
            position = min(position, len(text))
            expected = -1
            for match in re.finditer(r'\n(?=[^\s])', text[: max(0, position)]):
                if match.start() >= max(0, position - window):
                    expected = match.start()
            assert view.last_unindented(position, window) == expected


strace_lines = st.lists(
    st.sampled_from(
        [
            'openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3',
            'execve("/usr/bin/python3", ["python3", "app.py"], 0x7ffd /* 20 vars */) = 0',
            'connect(3, {sa_family=AF_INET, sin_port=htons(5432)}, 16) = -1 ECONNREFUSED (Connection refused)',
            'stat("/opt/missing", 0x7ffd) = -1 ENOENT (No such file or directory)',
            'write(2, "Traceback (most recent call last)", 34) = 34',
            '+++ exited with 1 +++',
            'read(3, "data", 4096) = 4',
        ]
    ),
    min_size=1,
    max_size=400,
)


_EXECVE = 'execve("/usr/bin/python3", ["python3", "app.py"], 0x7ffd /* 20 vars */) = 0'
_CONNECT = 'connect(3, {sa_family=AF_INET, sin_port=htons(5432)}, 16) = -1 ECONNREFUSED (Connection refused)'


@settings(max_examples=100)
@given(strace_lines)
@example([_EXECVE, 'read(3, "data", 4096) = 4', _CONNECT] * 30)  # more of each marker than the digest takes
def test_a_traces_digest_is_the_same_either_way(lines: list[str]) -> None:
    view = TextView(_log(lines))
    tail = view.tail(48, 0)
    scanned = shapes_module._syscall_digest(view, tail)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(shapes_module, 'literal_places', lambda *args, **kwargs: None)
        searched = shapes_module._syscall_digest(view, tail)
    assert scanned == searched


def test_any_ascii_character_in_a_literal_is_searched_as_itself() -> None:
    # The engine reads expressions as C strings: a NUL (or a quote, a backslash, a newline) must not end or
    # change a literal that came from a prompt's quoted string.
    text = 'a\x00b and a and "q\\\\x" and line\nbreak and A\x00B'
    literals = [('a\x00b', True), ('"q\\\\x"', False), ('e\nb', False), ('a', False)]
    places = literal_places(text, literals, cap_each=10)
    assert places == [_naive(text, literal, caseless) for literal, caseless in literals]


def test_an_engine_that_fails_leaves_the_caller_to_search(monkeypatch: pytest.MonkeyPatch) -> None:
    from observable_harness._text import scan

    def refuse(*args: object, **kwargs: object) -> object:
        raise RuntimeError('engine refused')

    monkeypatch.setattr(scan, '_literal_scanner', refuse)
    assert literal_places('some text', [('text', False)], cap_each=4) is None
    assert literal_presence('some text', [('text', False)]) is None
    view = TextView(_log(['ERROR one', 'fine'] * 50))
    assert _middle_hits(view, 0, view.end)  # the preview still finds its markers, by search


_RUNNER_LINES = [
    *('\u2716 parses a path', '\u2714 ok', '  \u2715 renders (3 ms)', '\u00d7 x', 'not ok 3 - extname', 'ok 4 - y'),
    *('--- FAIL: TestToml (0.00s)', '    --- FAIL: TestToml/sub (0.00s)', 'Error: test_x(Case)', '***Failed'),
    *('# fail 2', 'plain \u00e9 line', 'caf\u00e9 \u4e2d', '[  FAILED  ] Suite.name (0 ms)', '', 'tests 12, fail 2'),
]


@settings(max_examples=200)
@given(st.lists(st.sampled_from(_RUNNER_LINES), min_size=1, max_size=300))
def test_a_test_runs_failed_tests_are_the_same_scanned_or_searched(lines: list[str]) -> None:
    """The marks of failed tests (crosses outside ASCII among them) found by one scan of the text's bytes name the
    lines a search per mark names."""
    text = '\n'.join(lines) + '\n'
    view = TextView(text)
    shape = shapes_module.Shape(shapes_module.ShapeKind.test_run)
    tail = list(view.forward((0, -1), 8)) if text.strip() else []
    scanned = shapes_module.failed_tests(view, shape, tail)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(shapes_module, 'literal_places', lambda *args, **kwargs: None)
        patched.setattr(shapes_module, 'literal_places_utf8', lambda *args, **kwargs: None)
        searched = shapes_module.failed_tests(TextView(text), shape, tail)
    assert scanned == searched


@given(wide_text, st.lists(st.sampled_from(['\u2716 ', '\u4e2d', 'ab', 'ERR', '\u00c9RR']), min_size=1, max_size=4))
def test_literals_outside_ascii_are_found_in_the_bytes_where_they_begin(text: str, literals: list[str]) -> None:
    data = text.encode('utf-8', 'surrogatepass')
    places = literal_places_utf8(data, [(literal, False) for literal in literals], cap_each=1_000)
    assert places is not None
    for literal, found in zip(literals, places, strict=True):
        needle = literal.encode('utf-8')
        assert found == [match.start() for match in re.finditer(re.escape(needle), data)] or found is None
    assert literal_places_utf8(data, [('\u00c9rr', True)], cap_each=10) is None  # no folding outside ASCII
