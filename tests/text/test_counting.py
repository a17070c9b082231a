"""Line breaks are counted alike with StringZilla and without it, and only ASCII text is handed to it."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from observable_harness._text import counting
from observable_harness._text.counting import SIMD_FROM, newlines, simd_available
from observable_harness._text.preview import select_preview

needs_simd = pytest.mark.skipif(not simd_available(), reason='StringZilla comes with the `fast` extra')

texts = st.text(alphabet=st.sampled_from(['a', ' ', '\n', '\n', 'Z', '\r', 'é', '\u2028', '😀']), max_size=300)


@st.composite
def stretches(draw: st.DrawFn) -> tuple[str, int, int | None]:
    text = draw(texts)
    start = draw(st.integers(0, len(text)))
    end = draw(st.one_of(st.none(), st.integers(0, len(text))))
    return text, start, end


@given(stretches())
def test_without_stringzilla_the_count_is_str_count(stretch: tuple[str, int, int | None]) -> None:
    text, start, end = stretch
    saved = counting._SIMD
    counting._SIMD = None
    try:
        assert newlines(text, start, end) == text.count('\n', start, len(text) if end is None else end)
    finally:
        counting._SIMD = saved


@needs_simd
@given(stretches())
def test_with_stringzilla_the_count_is_str_count(stretch: tuple[str, int, int | None]) -> None:
    text, start, end = stretch
    saved = counting.SIMD_FROM
    counting.SIMD_FROM = 0  # every stretch of an ASCII text goes to StringZilla, however short
    try:
        assert newlines(text, start, end) == text.count('\n', start, len(text) if end is None else end)
    finally:
        counting.SIMD_FROM = saved


@needs_simd
def test_only_long_ascii_stretches_go_to_stringzilla(monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[tuple[int, int]] = []
    real = counting._SIMD
    assert real is not None

    def spy(text: str, needle: str, start: int, end: int) -> int:
        handed.append((start, end))
        return real(text, needle, start, end)

    monkeypatch.setattr(counting, '_SIMD', spy)
    ascii_log = 'INFO step done\n' * 10_000
    assert newlines(ascii_log) == 10_000
    assert newlines(ascii_log, 15, 15 + SIMD_FROM - 1) == ascii_log.count('\n', 15, 15 + SIMD_FROM - 1)
    assert handed == [(0, len(ascii_log))], 'a stretch shorter than SIMD_FROM is counted by str.count'

    # StringZilla reads a str as UTF-8: for text outside ASCII that would be a copy kept beside it for its lifetime.
    other = 'INFO étape faite\n' * 10_000
    size = sys.getsizeof(other)
    assert newlines(other) == 10_000
    assert handed == [(0, len(ascii_log))]
    assert sys.getsizeof(other) == size


def test_a_preview_is_the_same_with_and_without_stringzilla(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [f'2026-11-29T10:{i // 60 % 60:02d}:{i % 60:02d} INFO worker-{i % 7} batch {i} ok' for i in range(12_000)]
    lines[6_789] = '2026-11-29T11:53:09 ERROR worker-6 batch 6789 failed: disk quota exceeded'
    log = '\n'.join(lines) + '\n'
    with_simd = select_preview(log, 1_000)
    monkeypatch.setattr(counting, '_SIMD', None)
    without = select_preview(log, 1_000)
    assert with_simd == without
    assert without.total_lines == 12_000
    assert 'disk quota exceeded' in without.text
