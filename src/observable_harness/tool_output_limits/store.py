"""Where spilled tool output lives: the `OverflowStore` protocol and the default `LocalFileStore`.

A store maps a key the capability builds (`<run_id>/<tool_call_id>.<retry>`, plus `.content` for a
`ToolReturn.content` unit) to a *handle*: a relative key the model quotes back to
`read_tool_result`. Handles are never absolute paths, so a store in another process (an object
store, a shared workspace) can resolve the same handle.

Every store raises the same exceptions on `read`, so read-back can tell the model what went wrong
without knowing which store it talks to:

- `InvalidHandle`: the handle is malformed (empty, a NUL byte, too long, too many segments).
- `ForbiddenHandle`: the handle or what it resolves to leaves the store (`..`, an absolute path, a
  link pointing outside, something that is not a regular file).
- `UnknownHandle`: well-formed and inside the store, but nothing is stored under it.
- `UnsafeStoreRoot`: the store refuses to use its root at all (a symlink, owned by another user).

All four derive from `StoreError`. A failing `write` raises whatever went wrong (`OSError` for a
full disk or a read-only root); the capability then applies the band's `then` action.
"""

from __future__ import annotations

import contextlib
import errno
import getpass
import os
import re
import secrets
import stat
import tempfile
from collections import Counter as Tally
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Protocol, runtime_checkable

import anyio.to_thread

from .._hashing import content_hash
from ..telemetry.storage import PruneRecord
from ._age_pruning import AgePruning, OverflowStoreWarning

__all__ = [
    'MAX_HANDLE_CHARS',
    'ForbiddenHandle',
    'InvalidHandle',
    'LocalFileStore',
    'OverflowStore',
    'OverflowStoreWarning',
    'PruneRecord',
    'StoreError',
    'UnknownHandle',
    'UnsafeStoreRoot',
    'default_root',
]


@runtime_checkable
class OverflowStore(Protocol):
    """Where `Spill` puts a full payload, and where `read_tool_result` reads it back.

    Implement both methods to keep spilled output elsewhere (a blob store, a shared volume). `read`
    should raise the exceptions of this module (`UnknownHandle`, `ForbiddenHandle`, `InvalidHandle`)
    so the model is told what went wrong; anything else it raises reaches the model as a failed read.

    ```python
    from observable_harness.tool_output_limits import OverflowStore, UnknownHandle


    class MemoryStore:
        def __init__(self) -> None:
            self.blobs: dict[str, bytes] = {}

        async def write(self, key: str, data: bytes) -> str:
            self.blobs[key] = data
            return key

        async def read(self, handle: str) -> bytes:
            try:
                return self.blobs[handle]
            except KeyError:
                raise UnknownHandle(handle) from None


    assert isinstance(MemoryStore(), OverflowStore)
    ```
    """

    async def write(self, key: str, data: bytes) -> str:
        """Store `data` under `key` and return the handle the model will use to read it back."""
        ...

    async def read(self, handle: str) -> bytes:
        """Return exactly the bytes written under `handle`."""
        ...


class StoreError(Exception):
    """Base of every error an overflow store raises on purpose."""


class InvalidHandle(StoreError, ValueError):
    """The handle (or key) is malformed: empty, contains a NUL byte, too long or too deeply nested."""


class ForbiddenHandle(StoreError):
    """The handle, or what it resolves to, leaves the store: `..`, an absolute path, an outward link."""


class UnknownHandle(StoreError, LookupError):
    """The handle is well-formed and inside the store, but nothing is stored under it."""


class UnsafeStoreRoot(StoreError):
    """The store's root directory failed a safety check, so the store reads and writes nothing."""


MAX_HANDLE_CHARS = 1024
"""Longer handles are rejected before any file system call: no key this library builds comes close."""

_MAX_SEGMENTS = 16
_MAX_CLEAN_SEGMENT = 128
_KEPT_OF_UNSAFE_SEGMENT = 64
_PRUNE_MAX_DEPTH = 32

_CLEAN_SEGMENT = re.compile(r'[A-Za-z0-9_-][A-Za-z0-9._-]*')
_UNSAFE_CHAR = re.compile(r'[^A-Za-z0-9._-]')
_WINDOWS_DRIVE = re.compile(r'[A-Za-z]:')

_O_NOFOLLOW = getattr(os, 'O_NOFOLLOW', 0)
_O_NONBLOCK = getattr(os, 'O_NONBLOCK', 0)
_O_CLOEXEC = getattr(os, 'O_CLOEXEC', 0)


def _segment(raw: str) -> str:
    """A file-name-safe form of one key segment; clean segments map to themselves.

    Anything outside `[A-Za-z0-9._-]`, a leading dot (hidden files, `.`, `..`, and our own temporary
    files all start with one) or excess length is replaced, and a hash of the original is appended
    so two different raw segments never share a file. The result is itself clean, so sanitizing a
    handle again leaves it unchanged and `read(write(key))` finds the file.
    """
    if len(raw) <= _MAX_CLEAN_SEGMENT and _CLEAN_SEGMENT.fullmatch(raw):
        return raw
    kept = _UNSAFE_CHAR.sub('_', raw[:_KEPT_OF_UNSAFE_SEGMENT])
    if kept.startswith('.'):
        kept = '_' + kept[1:]
    digest = content_hash(raw).partition(':')[2][:12]
    return f'{kept}-{digest}'


def _check_length(key: str, what: str) -> None:
    if not key.strip():
        raise InvalidHandle(f'the {what} is empty')
    if len(key) > MAX_HANDLE_CHARS:
        raise InvalidHandle(f'the {what} is {len(key):,} characters long; at most {MAX_HANDLE_CHARS:,} are accepted')


def _split(key: str, what: str) -> list[str]:
    parts = [part for part in key.split('/') if part]
    if not parts:
        raise InvalidHandle(f'the {what} has no name in it, only separators')
    if len(parts) > _MAX_SEGMENTS:
        raise InvalidHandle(f'the {what} has {len(parts)} segments; at most {_MAX_SEGMENTS} are accepted')
    return [_segment(part) for part in parts]


def key_segments(key: str) -> list[str]:
    """The sanitized segments a key is written under. Never leaves the root, whatever the key."""
    _check_length(key, 'key')
    return _split(key, 'key')


def handle_segments(handle: str) -> list[str]:
    """The segments a handle is read from, or the reason it is refused.

    Reads are stricter than writes: a handle is something a model typed, so a NUL byte is malformed
    rather than replaced, and a path-like handle (absolute, `..` anywhere, either slash) is refused
    outright rather than quietly mapped to some other name inside the store.
    """
    if '\x00' in handle:
        raise InvalidHandle('the handle contains a NUL byte')
    _check_length(handle, 'handle')
    if handle.startswith(('/', '\\')) or _WINDOWS_DRIVE.match(handle):
        raise ForbiddenHandle('the handle is an absolute path')
    if '..' in re.split(r'[/\\]', handle):
        raise ForbiddenHandle("the handle climbs out with '..'")
    return _split(handle, 'handle')


def default_root() -> Path:
    """`<tempdir>/observable_harness_overflow_<uid>`: stable per user, so a later run finds earlier spills."""
    owner = str(os.getuid()) if hasattr(os, 'getuid') else _UNSAFE_CHAR.sub('_', getpass.getuser())
    return Path(tempfile.gettempdir()) / f'observable_harness_overflow_{owner}'


def _within(path: str, root: str) -> bool:
    return path != root and os.path.commonpath([path, root]) == root


def _refuse_outward(directory: str, root: str) -> None:
    if directory != root and not _within(os.path.realpath(directory), root):
        raise ForbiddenHandle('a directory of this key is a link that leaves the store')


def _open_temporary(root: str, directory: str, name: str) -> tuple[int, str]:
    """Create `directory` (inside `root`) and a fresh temporary file in it, next to where `name` will go."""
    # Check the deepest part that already exists before creating the rest: makedirs would otherwise
    # create directories on the far side of a link planted in the root, and only then be refused.
    existing = directory
    while existing != root and not os.path.lexists(existing):
        existing = os.path.dirname(existing)
    _refuse_outward(existing, root)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    _refuse_outward(directory, root)  # again: a link may have been planted while the rest was created
    temporary = os.path.join(directory, f'.{name}.{secrets.token_hex(6)}.tmp')
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC
    return os.open(temporary, flags, 0o600), temporary


def write_atomically(root: str, segments: list[str], data: bytes, *, durable: bool = False) -> None:
    """Write `data` to `root/<segments>` through a temporary file and a rename, so no reader sees half of it.

    `root` is a real path (no links in it); directories are created private (`0700`), the file `0600`.
    A link planted on the way that leaves `root` is refused with `ForbiddenHandle`.
    """
    directory = os.path.join(root, *segments[:-1])
    final = os.path.join(directory, segments[-1])
    try:
        fd, temporary = _open_temporary(root, directory, segments[-1])
    except FileNotFoundError:
        # A concurrent prune removed the (empty, old) directory after makedirs: make it again.
        fd, temporary = _open_temporary(root, directory, segments[-1])
    try:
        with os.fdopen(fd, 'wb') as file:
            file.write(data)
            if durable:
                file.flush()
                os.fsync(file.fileno())
        os.replace(temporary, final)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def read_regular_file(root: str, segments: list[str]) -> bytes:
    """The bytes of the regular file at `root/<segments>`, never following a link out of `root`.

    `root` is a real path. Raises `UnknownHandle` (nothing there, or a directory) and `ForbiddenHandle`
    (a link leaving `root`, a link swapped in meanwhile, a FIFO or device).
    """
    target = os.path.realpath(os.path.join(root, *segments))
    if not _within(target, root):
        raise ForbiddenHandle('the handle resolves to a place outside the store')
    try:
        # No-follow: the resolved path holds no links, so one appearing now is a swap. Non-blocking:
        # a FIFO planted in the root must not hang the read.
        fd = os.open(target, os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK | _O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        raise UnknownHandle('nothing is stored under this handle') from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise ForbiddenHandle('the handle resolves to a link') from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise UnknownHandle('this handle names a directory of stored outputs, not one output')
        if not stat.S_ISREG(mode):
            raise ForbiddenHandle('the handle names something that is not a regular file')
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, 'rb') as file:
        return file.read()


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

    from observable_harness.tool_output_limits import LocalFileStore

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

    def _write_file(self, segments: list[str], data: bytes) -> None:
        root = self._checked_root(create=True)
        assert root is not None
        write_atomically(root, segments, data, durable=self.durable)

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
