"""`LocalFileStore`: the default overflow store, one file per spilled payload under a private per-user root."""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from collections import Counter as Tally
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import anyio.to_thread

from ._files import default_root, handle_segments, key_segments, read_regular_file, write_atomically
from ._protocol import UnknownHandle, UnsafeStoreRoot
from ._pruning import AgePruning
from ._records import PruneRecord

__all__ = ['LocalFileStore']

_PRUNE_MAX_DEPTH = 32
_log = logging.getLogger('observable_harness')


@dataclass
class LocalFileStore(AgePruning):
    """The default overflow store: one file per spilled payload under a private per-user directory.

    Files are kept after the run, so a later run or another agent of the same user can still read a
    handle it was given. The root is created `0700`; a root that is a symlink or is owned by another
    user is refused (`UnsafeStoreRoot`) when the store is first used. Reads resolve links and refuse
    anything that leaves the root. Writes are atomic (temporary file, then rename), so a reader
    never sees half a payload. File I/O runs on a worker thread, off the event loop.

    ```python
    import asyncio
    import tempfile
    from datetime import timedelta

    from observable_harness.storage import LocalFileStore

    store = LocalFileStore(base_dir=tempfile.mkdtemp(), cleanup_after=timedelta(hours=6))
    handle = asyncio.run(store.write('run-1/call-7.0', b'a long log'))
    assert handle == 'run-1/call-7.0'
    assert asyncio.run(store.read(handle)) == b'a long log'
    ```

    An external sweeper (cron) can do the pruning instead: delete files under `store.root` whose
    modification time is older than you care for, or call `store.prune_now(older_than=...)`.
    """

    base_dir: str | Path | None = None
    """Root directory. `None` uses `default_root()` (`<tempdir>/observable_harness_overflow_<uid>`),
    which every run of the same user shares, so handles outlive the run that wrote them."""

    cleanup_after: timedelta | None = None
    """Delete files older than this (by modification time). `None` keeps files forever, because a
    later run may still hold a handle; set it to bound disk use. Pruning runs on a background thread
    scheduled by writes and never blocks or fails a run."""

    prune_interval: timedelta = timedelta(minutes=1)
    """At most one background prune starts per interval, so a burst of writes costs one scan."""

    durable: bool = False
    """`fsync` each file before it is renamed into place. The rename alone already keeps readers (and a
    crashed process) from ever seeing half a payload; `fsync` adds survival of a *machine* crash, at
    4-6x the cost of a spill on a VM disk. Spills are a cache of output the tool can produce again,
    so the default is off; turn it on when a spill must outlive a power loss."""

    _root: Path = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._init_pruning()
        # Resolved once, so a later chdir cannot move the store under a running agent.
        self._root = default_root() if self.base_dir is None else Path(self.base_dir).expanduser().absolute()
        self._check_root_can_exist()

    def _check_root_can_exist(self) -> None:
        """Refuse now a root that can never hold a spill, rather than have every spill fall back quietly."""
        if os.path.islink(self._root):
            return  # refused at first use, with what to do about a root someone else can point elsewhere
        existing = self._root
        while not os.path.lexists(existing) and existing != existing.parent:
            existing = existing.parent
        if existing == self._root and not os.path.isdir(existing):
            raise UnsafeStoreRoot(
                f'LocalFileStore(base_dir={str(self._root)!r}): that is a file, not a directory. Pass a directory '
                '(it is created if missing), or move the file away.'
            )
        if existing != self._root and not os.path.isdir(existing):
            raise UnsafeStoreRoot(
                f'LocalFileStore(base_dir={str(self._root)!r}): {str(existing)!r} is not a directory, so the root '
                'can never be created there. Pass a directory you can write to.'
            )
        if not os.access(existing, os.W_OK | os.X_OK):
            # A read-only mount can still serve handles written elsewhere: only the writes will fail.
            _log.warning(
                'LocalFileStore(base_dir=%r): %r is not writable (read-only mount or permissions); spills to it '
                'will fail and fall back, reads of what is already there still work.',
                str(self._root),
                str(existing),
            )

    @property
    def root(self) -> Path:
        """The root directory (it may not exist until the first write)."""
        return self._root

    # --- OverflowStore --------------------------------------------------------------------------

    async def write(self, key: str, data: bytes) -> str:
        """Store `data` atomically under the sanitized `key`; return that relative key as the handle.

        Raises `InvalidHandle` for an empty or oversized key, `UnsafeStoreRoot` for a refused root,
        and `OSError` when the file system fails (full disk, read-only root).
        """
        segments = key_segments(key)
        await anyio.to_thread.run_sync(self._write_file, segments, data)
        self._schedule_prune()
        return '/'.join(segments)

    def write_from_thread(self, key: str, data: bytes, *, opened: Callable[[], None] | None = None) -> str:
        """`write` for a caller already on a worker thread: the same checks, the same atomic file, no event loop.

        `ToolOutputLimits` scrubs, hashes and writes a spill in one trip to a worker thread with it, while
        the event loop builds the stand-in. `opened` is called once the file is open, right before the bytes
        are written (the write itself releases the GIL: a thread that holds it meanwhile may go on then).
        """
        segments = key_segments(key)
        self._write_file(segments, data, opened)
        self._schedule_prune()
        return '/'.join(segments)

    async def read(self, handle: str) -> bytes:
        """The bytes stored under `handle`.

        Raises `InvalidHandle`, `ForbiddenHandle`, `UnknownHandle` or `UnsafeStoreRoot` (see the module
        docstring); never reads outside the root.
        """
        segments = handle_segments(handle)
        return await anyio.to_thread.run_sync(self._read_file, segments)

    # --- the root ---------------------------------------------------------------------------------

    def _checked_root(self, *, create: bool) -> str | None:
        """The root's real path after the safety checks; `None` if it does not exist and `create` is off."""
        root = self._root
        try:
            info = os.lstat(root)
        except FileNotFoundError:
            if not create:
                return None
            root.parent.mkdir(parents=True, exist_ok=True)
            # Another process may create it first; it is then checked like any existing root below.
            with contextlib.suppress(FileExistsError):
                os.mkdir(root, 0o700)
            info = os.lstat(root)
        if stat.S_ISLNK(info.st_mode):
            raise UnsafeStoreRoot(
                f'the overflow store root {root} is a symbolic link; whoever controls the link controls '
                'where spilled tool output goes. Remove the link, or pass LocalFileStore(base_dir=...) '
                'a real directory you own.'
            )
        if not stat.S_ISDIR(info.st_mode):
            raise UnsafeStoreRoot(
                f'the overflow store root {root} exists and is not a directory. Move it away, or pass '
                'LocalFileStore(base_dir=...) another directory.'
            )
        if hasattr(os, 'geteuid') and info.st_uid != os.geteuid():
            raise UnsafeStoreRoot(
                f'the overflow store root {root} is owned by uid {info.st_uid}, not by you (uid {os.geteuid()}); '
                'its owner could read spilled output or plant files in it. Remove it, or pass '
                'LocalFileStore(base_dir=...) a directory you own.'
            )
        if info.st_mode & 0o077:
            # Ours, but others may list or plant files in it (an older tool, a manual mkdir): close it.
            os.chmod(root, 0o700)
        return os.path.realpath(root)

    # --- worker-thread bodies -----------------------------------------------------------------

    def _write_file(self, segments: list[str], data: bytes, opened: Callable[[], None] | None = None) -> None:
        root = self._checked_root(create=True)
        assert root is not None
        write_atomically(root, segments, data, durable=self.durable, opened=opened)

    def _read_file(self, segments: list[str]) -> bytes:
        root = self._checked_root(create=False)
        if root is None:
            raise UnknownHandle('nothing has been stored yet')
        return read_regular_file(root, segments)

    # --- pruning ------------------------------------------------------------------------------

    def _location(self) -> str:
        return str(self._root)

    def _prune(self, cutoff: float) -> PruneRecord:
        failures: Tally[str] = Tally()
        totals = [0, 0]
        store = type(self).__name__
        try:
            root = self._checked_root(create=False)
        except (UnsafeStoreRoot, OSError) as error:
            failures[type(error).__name__] += 1
            return PruneRecord(store, failures=dict(failures))
        if root is not None:
            self._prune_directory(root, cutoff, 0, totals, failures)
        return PruneRecord(store, files=totals[0], bytes=totals[1], failures=dict(failures))

    def _prune_directory(self, path: str, cutoff: float, depth: int, totals: list[int], failures: Tally[str]) -> bool:
        """Prune below `path`; whether it is left empty."""
        try:
            with os.scandir(path) as listing:
                entries = list(listing)
        except FileNotFoundError:
            return False
        except OSError as error:
            failures[type(error).__name__] += 1
            return False
        left = 0
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISDIR(info.st_mode):
                    # The directory's own mtime is taken before its children go, since deleting them bumps it.
                    emptied = depth < _PRUNE_MAX_DEPTH and self._prune_directory(
                        entry.path, cutoff, depth + 1, totals, failures
                    )
                    if emptied and info.st_mtime < cutoff:
                        try:
                            os.rmdir(entry.path)
                        except OSError:
                            left += 1  # a write landed in it meanwhile: that is not a failure
                        continue
                    left += 1
                elif info.st_mtime < cutoff:
                    os.unlink(entry.path)
                    totals[0] += 1
                    totals[1] += info.st_size if stat.S_ISREG(info.st_mode) else 0
                else:
                    left += 1
            except FileNotFoundError:
                continue  # someone else removed it first
            except OSError as error:
                failures[type(error).__name__] += 1
                left += 1
        return left == 0
