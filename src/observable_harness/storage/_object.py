"""ObjectStore: spilled tool output in S3-compatible (or any fsspec) storage, readable from every worker.

A `LocalFileStore` serves one machine. A fleet of agent workers needs spills that any of them can
read back: a run resumed on another host, a later agent, a reviewer. `ObjectStore` keeps each spill
as one object under a URL prefix (`s3://bucket/spills`, `gs://...`, `az://...`, `memory://...`,
`file:///shared/volume/...`) through fsspec, which is an optional dependency imported only when an
`ObjectStore` is built.

Handles are the same relative keys `LocalFileStore` returns, so they mean the same thing on every
worker pointed at the same prefix, and the same sanitizing keeps every read and write inside it.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import os
import re
from collections import Counter as Tally
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, TypeVar, TypeVarTuple, Unpack, cast

import anyio
import anyio.to_thread

from .._extras import MissingExtra
from ._files import handle_segments, key_segments, read_regular_file, write_atomically
from ._protocol import UnknownHandle
from ._pruning import AgePruning
from ._records import PruneRecord

__all__ = ['S3_DEFAULT_OPTIONS', 'ObjectStore']

_T = TypeVar('_T')
_Args = TypeVarTuple('_Args')

S3_DEFAULT_OPTIONS: Mapping[str, Any] = {
    'config_kwargs': {
        'connect_timeout': 5,
        'read_timeout': 20,
        'retries': {'mode': 'standard', 'max_attempts': 3},
    },
    'max_concurrency': 1,
}
"""What `ObjectStore` passes to s3fs unless `storage_options` says otherwise (`config_kwargs` is merged
key by key). botocore's own defaults wait 60 s per read and retry up to 5 times with growing pauses,
so a stopped endpoint would hold a tool call for minutes; these give up on a dead endpoint within
seconds and still ride out one dropped connection. `max_concurrency=1` reads a spill with one GET:
recent s3fs otherwise sends a HEAD first to decide on parallel ranged reads, which doubles the
latency of every read-back and only pays off for objects over 50 MB."""

_S3_PROTOCOLS = frozenset({'s3', 's3a'})
_BACKEND_INSTALL = {
    's3': "pip install 'observable-harness[s3]'",
    's3a': "pip install 'observable-harness[s3]'",
    'gs': 'pip install gcsfs',
    'gcs': 'pip install gcsfs',
    'az': 'pip install adlfs',
    'abfs': 'pip install adlfs',
}
_URL_USERINFO = re.compile(r'(?<=://)[^/@]*@')
_NO_MODIFICATION_TIME = 'NoModificationTime'
# The keys fsspec backends report a modification time under: local and gcsfs `mtime`, s3fs
# `LastModified`, adlfs `last_modified`, gcsfs `updated`; memory:// only has `created`, which a
# rewrite renews because every write stores a new object.
_MODIFIED_KEYS = ('mtime', 'LastModified', 'last_modified', 'updated', 'modified', 'created')


class _FileSystem(Protocol):
    """The slice of `fsspec.AbstractFileSystem` this store uses."""

    def pipe_file(self, path: str, value: bytes) -> object: ...

    def cat_file(self, path: str) -> bytes: ...

    def find(self, path: str, *, withdirs: bool, detail: bool) -> Mapping[str, Mapping[str, Any]]: ...

    def rm_file(self, path: str) -> object: ...

    def rmdir(self, path: str) -> object: ...

    def invalidate_cache(self, path: str | None = None) -> None: ...


def _import(module: str, url: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as error:
        scheme = url.partition('://')[0].lower()
        how = _BACKEND_INSTALL.get(scheme, "pip install 'observable-harness[objectstore]'")
        if scheme not in _S3_PROTOCOLS and scheme in _BACKEND_INSTALL:
            how = f"pip install 'observable-harness[objectstore]' and {how.removeprefix('pip install ')}"
        raise MissingExtra(
            f'ObjectStore({_display(url)!r}) needs fsspec, which is not installed. To fix it: {how}.'
        ) from error


def _display(url: str) -> str:
    """The URL without any `user:password@` in it, for messages and warnings."""
    return _URL_USERINFO.sub('', url)


def _with_defaults(options: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    # A deep copy: botocore rewrites the `retries` dict it is given in place.
    defaults = copy.deepcopy(defaults)
    merged = {**defaults, **options}
    for key, default in defaults.items():
        given = options.get(key)
        if isinstance(default, Mapping) and isinstance(given, Mapping):
            merged[key] = {**cast('Mapping[str, Any]', default), **cast('Mapping[str, Any]', given)}
    return merged


def _epoch_seconds(value: object) -> float | None:
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return _epoch_seconds(datetime.fromisoformat(value.replace('Z', '+00:00')))
    return None


def _modified_at(info: Mapping[str, Any]) -> float | None:
    """When an object was last written, in epoch seconds, from a listing entry; `None` if the backend has no time."""
    for key in _MODIFIED_KEYS:
        seconds = _epoch_seconds(info.get(key))
        if seconds is not None:
            return seconds
    return None


@dataclass
class ObjectStore(AgePruning):
    """An overflow store every worker can read: one object per spill under a URL prefix, through fsspec.

    Point every agent of a fleet at the same prefix and a handle spilled on one host reads back on
    any other. Handles are keys relative to the prefix; reads never leave it (handles with `..`,
    absolute paths and any character outside `[A-Za-z0-9._-]` are refused or mapped inside). A
    failing backend raises, so the band's `then` action takes over; I/O runs on a worker thread and
    gives up after `timeout`. Needs `pip install 'observable-harness[s3]'` for `s3://` (fsspec and
    s3fs), or the `objectstore` extra (fsspec alone) plus `gcsfs`/`adlfs` for `gs://`/`az://`.

    ```python
    import asyncio

    from observable_harness.storage import ObjectStore

    store = ObjectStore('memory://spills/docs-example')  # s3://bucket/prefix on a fleet
    handle = asyncio.run(store.write('run-1/call-7.0', b'a long log'))
    assert handle == 'run-1/call-7.0'
    assert asyncio.run(ObjectStore('memory://spills/docs-example').read(handle)) == b'a long log'
    ```

    For `file://` URLs (a volume shared between hosts) the store writes atomically and refuses links
    that leave the prefix, exactly as `LocalFileStore` does, and files are private to their user, so
    every worker must run as the same uid. On one machine `LocalFileStore` is the better choice.
    """

    url: str
    """Where spills go: `s3://bucket/prefix`, `gs://bucket/prefix`, `az://container/prefix`,
    `file:///shared/spills` or `memory://name`. Use a prefix that holds nothing else: pruning deletes
    whatever under it is old enough."""

    storage_options: Mapping[str, Any] | None = field(default=None, repr=False)
    """Passed to the fsspec filesystem (credentials, `endpoint_url`, `config_kwargs`, ...); for `s3://`
    merged over `S3_DEFAULT_OPTIONS`, so a stopped endpoint fails fast unless you say otherwise. Kept
    out of `repr` because it may hold secrets."""

    cleanup_after: timedelta | None = None
    """Delete objects older than this (by the modification time the backend reports). `None` keeps
    them forever, because another worker may still hold a handle; set it (or a bucket lifecycle rule)
    to bound storage. Pruning lists the prefix on a background thread scheduled by writes and never
    blocks or fails a run; it needs list and delete permissions on the prefix."""

    prune_interval: timedelta = timedelta(minutes=1)
    """At most one background prune starts per interval, so a burst of writes costs one listing."""

    timeout: timedelta | None = timedelta(seconds=30)
    """The longest a run waits for one write or read, whatever the backend's own timeouts and retries
    add up to; then the call raises `TimeoutError` (and a spill falls back to `then`). The abandoned
    request finishes or fails on its own thread. `None` waits as long as the backend does."""

    _fs: _FileSystem = field(init=False, repr=False, compare=False)
    _prefix: str = field(init=False, repr=False, compare=False)
    _local: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._init_pruning()
        if self.timeout is not None and self.timeout <= timedelta(0):
            raise ValueError(f'timeout must be a positive timedelta, got {self.timeout!r}; use None to wait forever')
        scheme, separator, _ = self.url.partition('://')
        if not separator or not scheme:
            raise ValueError(
                f'ObjectStore needs a URL with a scheme, like s3://bucket/spills or file:///srv/spills; got '
                f'{_display(self.url)!r}. For a directory on this machine, use LocalFileStore(base_dir=...).'
            )
        fsspec = _import('fsspec', self.url)
        options = dict(self.storage_options or {})
        if scheme.lower() in _S3_PROTOCOLS:
            options = _with_defaults(options, S3_DEFAULT_OPTIONS)
        try:
            filesystem, prefix = fsspec.core.url_to_fs(self.url, **options)
        except ImportError as error:
            how = _BACKEND_INSTALL.get(scheme.lower(), f'install the fsspec backend for {scheme}://')
            raise ImportError(
                f'ObjectStore({_display(self.url)!r}) cannot reach its storage: {error}. To fix it: {how}.'
            ) from error
        prefix = str(prefix).rstrip('/')
        if not prefix.strip('/'):
            raise ValueError(
                f'ObjectStore({_display(self.url)!r}) names no prefix: spills would land at the root of the '
                'storage, and pruning would sweep all of it. Add a prefix, like s3://bucket/spills.'
            )
        local_type = importlib.import_module('fsspec.implementations.local').LocalFileSystem
        self._fs = cast('_FileSystem', filesystem)
        self._prefix = prefix
        self._local = isinstance(filesystem, local_type)

    @property
    def prefix(self) -> str:
        """The prefix as the filesystem names it (`bucket/spills` for `s3://bucket/spills`)."""
        return self._prefix

    # --- OverflowStore --------------------------------------------------------------------------

    async def write(self, key: str, data: bytes) -> str:
        """Store `data` as one object under the sanitized `key`; return that relative key as the handle.

        Raises `InvalidHandle` for an empty or oversized key, `TimeoutError` after `timeout`, and
        whatever the backend raises (`PermissionError`, `OSError`, connection errors) when it fails.
        """
        segments = key_segments(key)
        await self._off_loop(self._put, segments, data)
        self._schedule_prune()
        return '/'.join(segments)

    async def read(self, handle: str) -> bytes:
        """The bytes stored under `handle`.

        Raises `InvalidHandle`, `ForbiddenHandle` or `UnknownHandle` (see `store`), `TimeoutError`
        after `timeout`, or what the backend raises; never reads outside the prefix.
        """
        segments = handle_segments(handle)
        return await self._off_loop(self._get, segments)

    async def _off_loop(self, function: Callable[[Unpack[_Args]], _T], *args: *_Args) -> _T:
        if self.timeout is None:
            return await anyio.to_thread.run_sync(function, *args)
        seconds = self.timeout.total_seconds()
        with anyio.move_on_after(seconds):
            return await anyio.to_thread.run_sync(function, *args, abandon_on_cancel=True)
        raise TimeoutError(
            f'the object store at {_display(self.url)} did not answer within {seconds:g} s; '
            'raise ObjectStore(timeout=...) if large spills need longer'
        )

    # --- worker-thread bodies -----------------------------------------------------------------

    def _path(self, segments: list[str]) -> str:
        return '/'.join((self._prefix, *segments))

    def _put(self, segments: list[str], data: bytes) -> None:
        if self._local:
            os.makedirs(self._prefix, mode=0o700, exist_ok=True)
            write_atomically(os.path.realpath(self._prefix), segments, data)
        else:
            self._fs.pipe_file(self._path(segments), data)

    def _get(self, segments: list[str]) -> bytes:
        if self._local:
            if not os.path.isdir(self._prefix):
                raise UnknownHandle('nothing has been stored yet')
            return read_regular_file(os.path.realpath(self._prefix), segments)
        try:
            return bytes(self._fs.cat_file(self._path(segments)))
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            raise UnknownHandle('nothing is stored under this handle') from None

    # --- pruning ------------------------------------------------------------------------------

    def _location(self) -> str:
        return _display(self.url)

    def _inside(self, path: str) -> bool:
        return path.startswith(self._prefix + '/')

    def _prune(self, cutoff: float) -> PruneRecord:
        store = type(self).__name__
        failures: Tally[str] = Tally()
        try:
            # Another worker's writes are not in this process's listing cache: always list afresh.
            self._fs.invalidate_cache(self._prefix)
            listing = self._fs.find(self._prefix, withdirs=True, detail=True)
        except FileNotFoundError:
            return PruneRecord(store)
        except Exception as error:
            failures[type(error).__name__] += 1
            return PruneRecord(store, failures=dict(failures))
        files = freed = 0
        old_directories: list[str] = []
        for path, info in listing.items():
            if not self._inside(path):
                continue
            modified = _modified_at(info)
            if info.get('type') == 'directory':
                # Only media with real directories date them (file://); emptied old ones go after the files.
                if modified is not None and modified < cutoff:
                    old_directories.append(path)
                continue
            if modified is None:
                failures[_NO_MODIFICATION_TIME] += 1
                continue
            if modified >= cutoff:
                continue
            try:
                self._fs.rm_file(path)
            except FileNotFoundError:
                continue  # another worker's prune removed it first
            except Exception as error:
                failures[type(error).__name__] += 1
                continue
            files += 1
            freed += int(info.get('size') or 0)
        for path in sorted(old_directories, key=lambda p: p.count('/'), reverse=True):
            with contextlib.suppress(Exception):
                self._fs.rmdir(path)  # refused while a file is left in it, or a write landed meanwhile
        return PruneRecord(store, files=files, bytes=freed, failures=dict(failures))
