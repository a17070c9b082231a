"""Disks that fail: a real tiny tmpfs (full, then remounted read-only), or a simulated one where mounting is refused.

Both kinds run in `make test` where they can: the tmpfs is the real thing (the kernel's ENOSPC part-way
through a write, the kernel's EROFS), the simulation runs everywhere (an `os.fdopen` wrapper that writes
what fits under the byte budget and then raises ENOSPC, and an `os.open` wrapper that raises EROFS for
new files). Test ids say which ran: `[tmpfs]` or `[simulated]`.
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Callable, Generator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

DISK_KINDS = ['tmpfs', 'simulated']


@dataclass
class Disk:
    """A directory on a disk of `capacity` bytes that can be made read-only while in use."""

    path: Path
    kind: str
    capacity: int
    make_read_only: Callable[[], None]


def files_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob('*') if p.is_file())


@contextmanager
def tiny_disk(kind: str, path: Path, capacity: int, monkeypatch: pytest.MonkeyPatch) -> Generator[Disk]:
    path.mkdir()
    if kind == 'tmpfs':
        mounted = subprocess.run(
            ['mount', '-t', 'tmpfs', '-o', f'size={capacity},mode=0700', 'tmpfs', str(path)],
            capture_output=True,
            check=False,
        )
        if mounted.returncode != 0:
            pytest.skip(f'cannot mount a tmpfs here ({mounted.stderr.decode().strip()}); [simulated] covers this')

        def remount_read_only() -> None:
            subprocess.run(['mount', '-o', 'remount,ro', str(path)], check=True)

        try:
            yield Disk(path, kind, capacity, remount_read_only)
        finally:
            subprocess.run(['umount', '-l', str(path)], check=False)
        return
    simulated = _SimulatedDisk(str(path), capacity)
    monkeypatch.setattr(os, 'fdopen', simulated.fdopen)
    monkeypatch.setattr(os, 'open', simulated.open)
    yield Disk(path, kind, capacity, simulated.make_read_only)


class _SimulatedDisk:
    def __init__(self, root: str, capacity: int) -> None:
        self.root = root
        self.capacity = capacity
        self.read_only = False
        self._fdopen = os.fdopen
        self._open = os.open

    def make_read_only(self) -> None:
        self.read_only = True

    def _under(self, path: str) -> bool:
        return os.path.commonpath([os.path.abspath(path), self.root]) == self.root

    def used(self) -> int:
        return sum(p.stat().st_size for p in Path(self.root).rglob('*') if p.is_file())

    def open(self, path: Any, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        if self.read_only and flags & os.O_CREAT and self._under(os.fspath(path)):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fspath(path))
        return self._open(path, flags, mode, dir_fd=dir_fd)

    def fdopen(self, fd: int, mode: str = 'r', *args: Any, **kwargs: Any) -> Any:
        file = self._fdopen(fd, mode, *args, **kwargs)
        if 'w' in mode and self._under(os.readlink(f'/proc/self/fd/{fd}')):
            return _FillingFile(file, self)
        return file


class _FillingFile:
    """Writes what still fits on the simulated disk, then raises ENOSPC, as a full file system does."""

    def __init__(self, file: Any, disk: _SimulatedDisk) -> None:
        self._file = file
        self._disk = disk

    def write(self, data: bytes) -> int:
        room = self._disk.capacity - self._disk.used()
        if len(data) > room:
            self._file.write(data[: max(0, room)])
            self._file.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self._file.write(data)

    def __enter__(self) -> _FillingFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._file.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)
