"""Long stretches of text are sliced in small pieces (to reuse memory): the results must be those of one slice."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from observable_harness._text.preview import _WINDOW_PIECE, _ascii_window
from observable_harness._text.secrets import _PIECE, _apply

_PIECES = ['a', 'line\n', 'é', '漢', '🔥', '\udc80', 'x' * 997, 'password=hunter2 ']


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), max_size=200),
    st.integers(min_value=0, max_value=60),
    st.floats(min_value=0, max_value=1),
    st.floats(min_value=0, max_value=1),
)
def test_an_ascii_window_is_the_slice_when_it_is_ascii(pieces: list[str], repeat: int, low: float, high: float) -> None:
    text = ''.join(pieces) * (1 + repeat)
    begin, end = sorted((int(low * len(text)), int(high * len(text))))
    window = text[begin:end]
    assert _ascii_window(text, begin, end) == (window if window.isascii() else None)


def test_an_ascii_window_far_from_the_wide_characters_of_its_text() -> None:
    text = '🔥' + 'a' * (5 * _WINDOW_PIECE) + 'é'
    assert _ascii_window(text, 1, 5 * _WINDOW_PIECE) == 'a' * (5 * _WINDOW_PIECE - 1)
    assert _ascii_window(text, 1, len(text)) is None
    assert _ascii_window(text, 0, 3 * _WINDOW_PIECE) is None


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=120),
    st.integers(min_value=0, max_value=40),
    st.lists(st.tuples(st.floats(min_value=0, max_value=1), st.integers(0, 40), st.text(max_size=12)), max_size=8),
)
def test_a_rebuilt_text_is_the_text_with_its_edits_made(
    pieces: list[str], repeat: int, cuts: list[tuple[float, int, str]]
) -> None:
    text = ''.join(pieces) * (1 + repeat)
    edits: list[tuple[int, int, str]] = []
    done = 0
    for share, length, new in sorted(cuts):
        start = max(done, int(share * len(text)))
        end = min(len(text), start + length)
        if start > len(text):
            break
        edits.append((start, end, new))
        done = end
    expected, cursor = '', 0
    for start, end, new in edits:
        expected += text[cursor:start] + new
        cursor = end
    expected += text[cursor:]
    assert _apply(text, edits) == expected


def test_edits_at_and_across_the_places_a_long_text_is_sliced() -> None:
    text = ''.join(chr(ord('a') + index % 26) for index in range(5 * _PIECE)) + 'é'
    edits = [
        (0, 0, '<'),
        (_PIECE - 1, _PIECE + 1, '[REDACTED]'),
        (3 * _PIECE, 3 * _PIECE, '|'),
        (len(text) - 1, len(text), ''),
    ]
    expected = '<' + text[: _PIECE - 1] + '[REDACTED]' + text[_PIECE + 1 : 3 * _PIECE] + '|' + text[3 * _PIECE : -1]
    assert _apply(text, edits) == expected
