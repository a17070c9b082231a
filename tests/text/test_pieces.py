"""Long stretches of text are sliced in small pieces (to reuse memory): the results must be those of one slice."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from observable_harness._text.preview import _WINDOW_PIECE, _ascii_window
from observable_harness._text.scan import UTF8_PIECE, char_offsets, utf8_chars
from observable_harness._text.secrets import _PIECE, _apply, _byte_offsets

_PIECES = ['a', 'line\n', 'é', '漢', '🔥', '\udc80', 'x' * 997, 'password=hunter2 ']


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), max_size=200),
    st.integers(min_value=0, max_value=60),
    st.floats(min_value=0, max_value=1),
    st.floats(min_value=0, max_value=1),
)
def test_an_ascii_window_is_the_slice_with_a_question_mark_for_each_other_character(
    pieces: list[str], repeat: int, low: float, high: float
) -> None:
    text = ''.join(pieces) * (1 + repeat)
    begin, end = sorted((int(low * len(text)), int(high * len(text))))
    window = _ascii_window(text, begin, end)
    assert window.isascii()
    assert window == ''.join(char if char.isascii() else '?' for char in text[begin:end])


def test_an_ascii_window_far_from_the_wide_characters_of_its_text() -> None:
    text = '🔥' + 'a' * (5 * _WINDOW_PIECE) + 'é'
    assert _ascii_window(text, 1, 5 * _WINDOW_PIECE) == 'a' * (5 * _WINDOW_PIECE - 1)
    assert _ascii_window(text, 1, len(text)) == 'a' * (5 * _WINDOW_PIECE) + '?'
    assert _ascii_window(text, 0, 3 * _WINDOW_PIECE) == '?' + 'a' * (3 * _WINDOW_PIECE - 1)


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


def _boundaries(data: bytes) -> list[int]:
    return [index for index in range(len(data) + 1) if index == len(data) or not 0x80 <= data[index] < 0xC0]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=60), st.integers(min_value=0, max_value=12), st.data())
def test_characters_counted_in_pieces_are_those_decoded_at_once(
    pieces: list[str], repeat: int, data: st.DataObject
) -> None:
    text = ''.join(pieces) * (1 + repeat * 30)
    encoded = text.encode('utf-8', 'surrogatepass')
    starts = _boundaries(encoded)
    low, high = sorted(data.draw(st.lists(st.sampled_from(starts), min_size=2, max_size=2)))
    assert utf8_chars(encoded, low, high) == len(encoded[low:high].decode('utf-8', 'surrogatepass'))
    # The offsets a scrub maps between characters and bytes, over stretches longer than a piece.
    chosen = sorted(set(data.draw(st.lists(st.sampled_from(starts), max_size=6))))
    chars = [len(encoded[:offset].decode('utf-8', 'surrogatepass')) for offset in chosen]
    assert char_offsets(text, encoded, set(chosen)) == dict(zip(chosen, chars, strict=True))
    assert _byte_offsets(text, encoded, chars, {}) == chosen


def test_a_wide_character_straddling_the_end_of_a_piece() -> None:
    for wide in ('é', '漢', '🔥', '\udc80'):
        text = 'a' * (UTF8_PIECE - 1) + wide + 'b' * UTF8_PIECE + wide
        encoded = text.encode('utf-8', 'surrogatepass')
        assert utf8_chars(encoded, 0, len(encoded)) == len(text)
        assert _byte_offsets(text, encoded, [UTF8_PIECE, len(text)], {}) == [
            len(text[:UTF8_PIECE].encode('utf-8', 'surrogatepass')),
            len(encoded),
        ]
