"""Real command output for tests: the workplace's captures, committed under `tests/data/traffic/`."""

from __future__ import annotations

import atexit
import gzip
import shutil
import tempfile
from functools import cache
from pathlib import Path

CAPTURES = Path(__file__).resolve().parent / 'data' / 'traffic'
FILES = ('pytest_verbose_failures.txt', 'gcc_errors.txt', 'pip_build_log.txt', 'find_listing.txt', 'dpkg_list.txt')


@cache
def traffic_dir() -> Path:
    """A directory holding the five captures as plain text (the 1 MB `find` one is stored gzipped), removed at exit."""
    directory = Path(tempfile.mkdtemp(prefix='oh-traffic-'))
    atexit.register(shutil.rmtree, directory, ignore_errors=True)  # 1.1 MB per process otherwise left in /tmp
    for name in FILES:
        packed = CAPTURES / f'{name}.gz'
        if packed.exists():
            (directory / name).write_bytes(gzip.decompress(packed.read_bytes()))
        else:
            shutil.copy(CAPTURES / name, directory / name)
    return directory
