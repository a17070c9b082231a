"""`utf8` encodes a long text chunk by chunk: the bytes must be those of encoding it whole."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from observable_harness._text.layout import UTF8_CHUNK, utf8, utf8_size

_PIECES = ['a', 'line\n', 'é', '漢', '🔥', '\ud800', '\udfff', '\udc80', 'x' * 1000, 'ok ✓\n']


def _whole(text: str) -> bytes:
    return text.encode('utf-8', 'surrogatepass')


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=0, max_size=300), st.integers(min_value=0, max_value=3))
def test_the_bytes_are_those_of_encoding_the_text_whole(pieces: list[str], repeat: int) -> None:
    text = ''.join(pieces) * (1 + repeat * 40)
    assert utf8(text) == _whole(text)
    assert utf8_size(text) == len(_whole(text))


def test_a_chunk_boundary_between_two_surrogates_or_inside_a_run_of_wide_characters() -> None:
    ascii_part = 'a' * (UTF8_CHUNK - 1)
    for joint in ('\ud83d\ude00', '\udfff\ud800', '🔥🔥', 'é漢'):
        text = ascii_part + joint + 'b' * (3 * UTF8_CHUNK)
        assert utf8(text) == _whole(text)


def test_a_text_mostly_outside_ascii_and_one_mostly_inside() -> None:
    prose = '漢字かな交じり文\n' * (UTF8_CHUNK // 2)  # every chunk outside ASCII: encoded whole after a few
    assert utf8(prose) == _whole(prose)
    sparse = ('x' * 79 + '\n') * 4000 + '🔥' + ('y' * 79 + '\n') * 4000  # one chunk outside ASCII
    assert utf8(sparse) == _whole(sparse)
    alternating = ''.join(('a' if index % 2 else 'é') * UTF8_CHUNK for index in range(12))
    assert utf8(alternating) == _whole(alternating)
