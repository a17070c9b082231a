"""Keys, handles and files: the sanitizing and the link-safe file I/O both file-backed stores share.

Handles are relative keys. A key's segments are sanitized (`key_segments`), a handle a model typed is
checked more strictly (`handle_segments`), and the file operations never follow a link out of the
store's root.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from .._text.hashing import content_hash
from ._protocol import ForbiddenHandle, InvalidHandle, UnknownHandle

__all__ = [
    'MAX_HANDLE_CHARS',
    'default_root',
    'handle_segments',
    'key_segments',
    'read_regular_file',
    'write_atomically',
]


MAX_HANDLE_CHARS = 1024
"""Longer handles are rejected before any file system call: no key this library builds comes close."""

_MAX_SEGMENTS = 16
_MAX_CLEAN_SEGMENT = 128
_KEPT_OF_UNSAFE_SEGMENT = 64

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
    if hasattr(os, 'getuid'):
        owner = str(os.getuid())
    else:  # pragma: no cover - Windows: imported only there, it costs milliseconds to import
        import getpass

        owner = _UNSAFE_CHAR.sub('_', getpass.getuser())
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
    if existing != directory:  # a run's first write; later ones find its directory and create nothing
        os.makedirs(directory, mode=0o700, exist_ok=True)
        _refuse_outward(directory, root)  # again: a link may have been planted while the rest was created
    temporary = os.path.join(directory, f'.{name}.{secrets.token_hex(6)}.tmp')
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC
    return os.open(temporary, flags, 0o600), temporary


def write_atomically(
    root: str, segments: list[str], data: bytes, *, durable: bool = False, opened: Callable[[], None] | None = None
) -> None:
    """Write `data` to `root/<segments>` through a temporary file and a rename, so no reader sees half of it.

    `root` is a real path (no links in it); directories are created private (`0700`), the file `0600`.
    A link planted on the way that leaves `root` is refused with `ForbiddenHandle`. `opened` is called once
    the temporary file is open, right before its bytes are written.
    """
    directory = os.path.join(root, *segments[:-1])
    final = os.path.join(directory, segments[-1])
    try:
        fd, temporary = _open_temporary(root, directory, segments[-1])
    except FileNotFoundError:
        # A concurrent prune removed the (empty, old) directory after makedirs: make it again.
        fd, temporary = _open_temporary(root, directory, segments[-1])
    try:
        try:
            if opened is not None:
                opened()
            # Straight to the descriptor: a file object would add three system calls and a buffer to pass through.
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                if not written:  # a file system that takes nothing and raises nothing: never spin on it
                    raise OSError(errno.ENOSPC, 'the file system accepted no more bytes', temporary)
                view = view[written:]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
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
