"""Disks that fail: a real tiny tmpfs (full, then remounted read-only), or a simulated one where mounting is refused.

Both kinds run in `make test` where they can: the tmpfs is the real thing (the kernel's ENOSPC part-way
through a write, the kernel's EROFS), the simulation runs everywhere (an `os.write` wrapper that writes
what fits under the byte budget, as a short write, and then raises ENOSPC, and an `os.open` wrapper that
raises EROFS for new files). Test ids say which ran: `[tmpfs]` or `[simulated]`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import subprocess
import threading
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
    monkeypatch.setattr(os, 'write', simulated.write)
    monkeypatch.setattr(os, 'open', simulated.open)
    yield Disk(path, kind, capacity, simulated.make_read_only)


class _SimulatedDisk:
    def __init__(self, root: str, capacity: int) -> None:
        self.root = root
        self.capacity = capacity
        self.read_only = False
        self.lock = threading.Lock()
        self._write = os.write
        self._open = os.open

    def make_read_only(self) -> None:
        self.read_only = True

    def _under(self, path: str) -> bool:
        return os.path.commonpath([os.path.abspath(path), self.root]) == self.root

    def used(self) -> int:
        total = 0
        for path in Path(self.root).rglob('*'):
            with contextlib.suppress(FileNotFoundError):  # a concurrent writer's temporary file, gone meanwhile
                total += path.stat().st_size if path.is_file() else 0
        return total

    def open(self, path: Any, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        if self.read_only and flags & os.O_CREAT and self._under(os.fspath(path)):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fspath(path))
        return self._open(path, flags, mode, dir_fd=dir_fd)

    def write(self, fd: int, data: Any) -> int:
        """What fits, as a full file system writes it: a short write, then ENOSPC when nothing more fits."""
        if not self._under(os.readlink(f'/proc/self/fd/{fd}')):
            return self._write(fd, data)
        with self.lock:  # one writer at a time, so each sees the room the others left
            room = self.capacity - self.used()
            if room <= 0 and len(data):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return self._write(fd, data[:room])


class StallingProxy:
    """A TCP proxy to a server that can stop answering: after `stall()` it still accepts and reads, and never replies.

    Connections a client keeps alive stall too, which is what a hung load balancer or a network partition
    looks like from the client: no refusal, no reset, just no answer.
    """

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(('127.0.0.1', 0))
        self.stalled = threading.Event()
        self.requests_after_stall = 0
        self._sockets: list[socket.socket] = [self.listener]
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def endpoint(self) -> str:
        return f'http://127.0.0.1:{self.listener.getsockname()[1]}'

    def stall(self) -> None:
        self.stalled.set()

    def close(self) -> None:
        for connection in self._sockets:
            # shutdown() first: close() alone neither wakes a thread blocked in recv() nor tells the peer.
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                connection.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self._sockets.append(client)
            if self.stalled.is_set():
                self.requests_after_stall += 1
                continue  # held open, never answered
            upstream = socket.create_connection(self.target)
            self._sockets.append(upstream)
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, from_client: bool) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if self.stalled.is_set():
                    self.requests_after_stall += from_client
                    continue  # swallowed: the peer waits for an answer that never comes
                sink.sendall(data)
