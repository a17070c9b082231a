"""Every place spills can go, for the tests that hold for every store.

`backend` runs a test once per store: `LocalFileStore` on a temporary directory, and `ObjectStore` on
`s3://` against moto's HTTP server on a loopback port (the S3 wire protocol through s3fs and botocore,
no in-process mocks), on `memory://` and on `file://`. Each comes with an independent view of its
storage (another "host") to plant and inspect objects with, and objects planted next to it that no
handle may reach.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import fsspec
import pytest

from observable_harness.storage import LocalFileStore, ObjectStore, _pruning
from tests.s3_server import BUCKET, MotoServer

CANARY = 'CANARY-5be1-object-store-payload'
HOUR = 3600.0
ALL_BACKENDS = ['local', 's3', 'memory', 'file']


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture(scope='session')
def moto() -> Iterator[MotoServer]:
    server = MotoServer.start()
    yield server
    server.server.stop()


@dataclass
class Backend:
    """One place spills can go, plus an independent view of it to plant and inspect objects with."""

    name: str
    url: str
    options: dict[str, Any]
    raw: Any
    """A separate fsspec filesystem over the same storage (another 'host')."""
    prefix: str
    """The store's root or prefix as `raw` names it."""
    outside: list[str] = field(default_factory=list[str])
    """Objects planted next to the prefix, that no handle may reach."""

    def store(self, **kwargs: Any) -> Any:
        if self.name == 'local':
            return LocalFileStore(base_dir=self.prefix, **kwargs)
        return ObjectStore(self.url, storage_options=self.options, **kwargs)

    def fresh_store(self, **kwargs: Any) -> Any:
        """A store sharing nothing in-process with earlier ones (for S3: its own s3fs client)."""
        if self.name != 's3':
            return self.store(**kwargs)
        return ObjectStore(self.url, storage_options={**self.options, 'skip_instance_cache': True}, **kwargs)

    @property
    def io_methods(self) -> tuple[str, str]:
        """The store's methods that touch storage (write, read): they must run on a worker thread."""
        return ('_write_file', '_read_file') if self.name == 'local' else ('_put', '_get')

    def objects(self) -> dict[str, bytes]:
        """Every object under the prefix, by handle."""
        self.raw.invalidate_cache()
        if not self.raw.exists(self.prefix):
            return {}
        found = self.raw.find(self.prefix)
        return {path[len(self.prefix) + 1 :]: self.raw.cat_file(path) for path in found}

    def backdate(self, handle: str, seconds: float) -> None:
        """Make an object look `seconds` old (not on S3, which dates objects itself)."""
        path = f'{self.prefix}/{handle}'
        if self.name in ('file', 'local'):
            then = datetime.now().timestamp() - seconds
            os.utime(path, (then, then))
        elif self.name == 'memory':
            self.raw.store[path].created = datetime.now(tz=UTC) - timedelta(seconds=seconds)
        else:
            raise AssertionError('S3 sets modification times itself; move the prune clock instead')

    def assert_outside_untouched(self) -> None:
        self.raw.invalidate_cache()
        for path in self.outside:
            assert self.raw.cat_file(path) == CANARY.encode()


@pytest.fixture(params=ALL_BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    unique = uuid.uuid4().hex[:12]
    if request.param == 's3':
        moto: MotoServer = request.getfixturevalue('moto')
        options = moto.options()
        raw = fsspec.filesystem('s3', skip_instance_cache=True, **options)
        prefix = f'{BUCKET}/spills-{unique}'
        made = Backend('s3', f's3://{prefix}', options, raw, prefix)
        made.outside = [f'{BUCKET}/secret-{unique}', f'{prefix}-sibling/secret']
    elif request.param == 'memory':
        raw = fsspec.filesystem('memory')
        prefix = f'/oh-tests/spills-{unique}'
        made = Backend('memory', f'memory://oh-tests/spills-{unique}', {}, raw, prefix)
        made.outside = [f'/oh-tests/secret-{unique}', f'{prefix}-sibling/secret']
    else:
        raw = fsspec.filesystem('file')
        prefix = str(tmp_path / 'spills')
        made = Backend(request.param, f'file://{prefix}', {}, raw, prefix)
        made.outside = [str(tmp_path / 'secret'), f'{prefix}-sibling/secret']
    for path in made.outside:
        if made.name in ('file', 'local'):
            os.makedirs(os.path.dirname(path), exist_ok=True)
        raw.pipe_file(path, CANARY.encode())
    yield made
    if made.name == 'memory':
        for path in [prefix, *made.outside]:
            if raw.exists(path):
                raw.rm(path, recursive=True)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Move the prune clock forward by some seconds (what an S3 prune test can do instead of backdating)."""
    real = _pruning.wall_clock

    def shift(seconds: float) -> None:
        monkeypatch.setattr(_pruning, 'wall_clock', lambda: real() + seconds)

    return shift
