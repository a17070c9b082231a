"""Real captures committed under `tests/data/`: command output kept as it was printed."""

from __future__ import annotations

import gzip
from pathlib import Path

DATA = Path(__file__).resolve().parent / 'data'


def read_capture(*parts: str) -> str:
    """A capture under `tests/data/` by its path parts, unzipped where it ends in `.gz`."""
    path = DATA.joinpath(*parts)
    return gzip.decompress(path.read_bytes()).decode() if path.suffix == '.gz' else path.read_text(encoding='utf-8')
