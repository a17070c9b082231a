"""Real command output for tests: the workplace's captures, committed under `tests/data/traffic/`."""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path

CAPTURES = Path(__file__).resolve().parent / 'data' / 'traffic'
FILES = ('pytest_verbose_failures.txt', 'gcc_errors.txt', 'pip_build_log.txt', 'find_listing.txt', 'dpkg_list.txt')


def _stored(name: str) -> Path:
    packed = CAPTURES / f'{name}.gz'
    return packed if packed.exists() else CAPTURES / name


@cache
def traffic_dir() -> Path:
    """A directory holding the five captures as plain text (the 1 MB `find` one is stored gzipped).

    One directory per version of the captures, shared by every process that asks (test runs, their child
    processes, the benches): made once, under a name its contents decide, so nothing piles up in the
    temporary directory however the processes end.
    """
    digest = hashlib.sha256()
    for name in FILES:
        digest.update(_stored(name).read_bytes())
    directory = Path(tempfile.gettempdir()) / f'oh-traffic-{digest.hexdigest()[:16]}'
    if all((directory / name).is_file() for name in FILES):
        return directory
    building = Path(tempfile.mkdtemp(prefix='oh-traffic-building-'))
    for name in FILES:
        stored = _stored(name)
        if stored.suffix == '.gz':
            (building / name).write_bytes(gzip.decompress(stored.read_bytes()))
        else:
            shutil.copy(stored, building / name)
    try:
        os.rename(building, directory)  # whole or not at all: a process racing this one finds it complete
    except OSError:
        if all((directory / name).is_file() for name in FILES):
            shutil.rmtree(building, ignore_errors=True)  # another process made it first
        else:  # a damaged copy (a file removed by hand): replaced by this one
            shutil.rmtree(directory, ignore_errors=True)
            os.rename(building, directory)
    return directory
