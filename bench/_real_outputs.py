"""Real command output for the benchmarks: small captures, mixed into a megabyte at bench time.

`bench/data/real_outputs/` holds outputs of real tools run on real repositories (`README.md` there says
which command made each); `tests/data/traffic/` holds the workplace's captures. `mixed()` interleaves
line-aligned chunks of all of them, round robin, so one payload carries tracebacks, diffs, tables,
listings, logs and JSON side by side, as an agent's tool returns do. `load()` reads any other file,
for a held-out check on output the benchmarks were not written against.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.traffic import FILES, traffic_dir  # noqa: E402

CAPTURES = Path(__file__).resolve().parent / 'data' / 'real_outputs'
MIB = 1_048_576
CHUNK = 16 * 1024
"""Characters taken from one capture before the next one's turn: a few screens of one kind of output."""
SHARE = 192 * 1024
"""At most this much of one capture per round, so the 1 MB `find` listing does not make the mix a listing."""


def load(path: Path) -> str:
    """A capture as text (gzipped or not); bytes that are not UTF-8 are kept as escapes, as a tool's would be."""
    data = path.read_bytes()
    if path.suffix == '.gz':
        data = gzip.decompress(data)
    return data.decode('utf-8', 'surrogateescape')


def captures() -> dict[str, str]:
    """Every capture by name: ours first, then the workplace's."""
    found = {path.name.removesuffix('.gz'): load(path) for path in sorted(CAPTURES.glob('*.gz'))}
    directory = traffic_dir()
    found.update({name: load(directory / name) for name in FILES})
    return found


def _chunks(text: str) -> list[str]:
    out: list[str] = []
    start = 0
    while start < min(len(text), SHARE):
        stop = text.find('\n', start + CHUNK)
        stop = len(text) if stop == -1 else stop + 1
        out.append(text[start:stop])
        start = stop
    return out


def mixed(size: int = MIB) -> str:
    """`size` characters of real output: line-aligned chunks of every capture, round robin, cut at `size`."""
    queues = [_chunks(text) for text in captures().values()]
    pieces: list[str] = []
    total = 0
    turn = 0
    while total < size:
        queue = queues[turn % len(queues)]
        turn += 1
        if not queue:
            if not any(queues):
                queues = [_chunks(text) for text in captures().values()]  # all used up: start over
            continue
        piece = queue.pop(0)
        pieces.append(piece)
        total += len(piece)
    return ''.join(pieces)[:size]
