"""LocalFileStore on its own: a safe private root, link-safe reads, atomic writes, and pruning by modification time.

What every store promises (keys, handles, I/O off the loop, pruning) is in `test_contract.py`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import logging
import os
import stat
import subprocess
import threading
import time
import warnings
from collections.abc import Generator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from observable_harness.storage import default_root
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import (
    ForbiddenHandle,
    InvalidHandle,
    LocalFileStore,
    OverflowStoreWarning,
    StoreError,
    UnknownHandle,
    UnsafeStoreRoot,
)
from tests.otel import OTelHarness

NOBODY = 65534
HOUR = 3600.0


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture
def store(tmp_path: Path) -> LocalFileStore:
    return LocalFileStore(base_dir=tmp_path / 'root')


def files_under(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob('*') if not p.is_dir())


def age(path: Path, seconds: float, *, atime: float | None = None) -> None:
    """Set mtime `seconds` in the past (atime to `atime` seconds in the past, default now)."""
    now = time.time()
    os.utime(path, (now - (atime or 0.0), now - seconds), follow_symlinks=False)


@contextmanager
def tmpfs(path: Path, size: str) -> Generator[Path]:
    """A real tiny tmpfs mounted at `path`, or a skip where this machine does not allow mounting."""
    path.mkdir()
    mounted = subprocess.run(
        ['mount', '-t', 'tmpfs', '-o', f'size={size},mode=0700', 'tmpfs', str(path)], capture_output=True, check=False
    )
    if mounted.returncode != 0:
        pytest.skip(f'cannot mount a tmpfs here ({mounted.stderr.decode().strip()}); the wrapper test covers this')
    try:
        yield path
    finally:
        subprocess.run(['umount', '-l', str(path)], check=False)


# --- protocol and errors -------------------------------------------------------------------------


def test_error_hierarchy_lets_callers_catch_broadly_or_precisely() -> None:
    for error in (InvalidHandle, ForbiddenHandle, UnknownHandle, UnsafeStoreRoot):
        assert issubclass(error, StoreError)
    assert issubclass(InvalidHandle, ValueError)
    assert issubclass(UnknownHandle, LookupError)
    assert not issubclass(ForbiddenHandle, OSError)


def test_default_root_is_a_stable_per_user_directory_in_the_temp_dir() -> None:
    root = default_root()
    assert root.name == f'observable_harness_overflow_{os.getuid()}'
    assert LocalFileStore().root == root == LocalFileStore().root


def test_bad_configuration_is_a_clear_error_at_construction() -> None:
    with pytest.raises(ValueError, match='use None to keep files forever'):
        LocalFileStore(cleanup_after=timedelta(0))
    with pytest.raises(ValueError, match='positive'):
        LocalFileStore(cleanup_after=timedelta(seconds=-1))
    with pytest.raises(ValueError, match='prune_interval'):
        LocalFileStore(prune_interval=timedelta(seconds=-1))


# --- writes and reads ------------------------------------------------------------------------------


def test_root_directories_and_files_are_private(store: LocalFileStore) -> None:
    run(store.write('run-1/call.0', b'x'))
    assert stat.S_IMODE(store.root.stat().st_mode) == 0o700
    assert stat.S_IMODE((store.root / 'run-1').stat().st_mode) == 0o700
    assert stat.S_IMODE((store.root / 'run-1' / 'call.0').stat().st_mode) == 0o600


def test_an_existing_root_of_ours_with_loose_permissions_is_tightened(tmp_path: Path) -> None:
    root = tmp_path / 'root'
    root.mkdir(mode=0o777)
    os.chmod(root, 0o777)
    store = LocalFileStore(base_dir=root)
    run(store.write('r/c.0', b'x'))
    assert stat.S_IMODE(root.stat().st_mode) == 0o700


def test_read_before_any_write_is_unknown_and_creates_nothing(store: LocalFileStore) -> None:
    with pytest.raises(UnknownHandle):
        run(store.read('run/call.0'))
    assert not store.root.exists()


def test_a_link_planted_inside_the_root_that_points_outside_is_refused(store: LocalFileStore, tmp_path: Path) -> None:
    outside = tmp_path / 'outside'
    outside.mkdir()
    (outside / 'secret').write_text('CANARY-outside-the-store')
    run(store.write('run/call.0', b'inside'))
    os.symlink(outside / 'secret', store.root / 'run' / 'file-link')
    os.symlink(outside, store.root / 'dir-link')
    os.symlink('../../outside/secret', store.root / 'run' / 'relative-link')
    for handle in ('run/file-link', 'dir-link/secret', 'run/relative-link'):
        with pytest.raises(ForbiddenHandle):
            run(store.read(handle))


def test_a_link_that_stays_inside_the_root_is_followed(store: LocalFileStore) -> None:
    run(store.write('run/call.0', b'inside'))
    os.symlink('call.0', store.root / 'run' / 'alias')
    assert run(store.read('run/alias')) == b'inside'


def test_a_write_through_a_planted_directory_link_is_refused(store: LocalFileStore, tmp_path: Path) -> None:
    outside = tmp_path / 'outside'
    outside.mkdir()
    run(store.write('first/call.0', b'x'))
    os.symlink(outside, store.root / 'run')
    with pytest.raises(ForbiddenHandle):
        run(store.write('run/call.0', b'would land outside'))
    assert list(outside.iterdir()) == []


def test_a_deeper_write_through_a_planted_directory_link_makes_no_directory_outside(
    store: LocalFileStore, tmp_path: Path
) -> None:
    outside = tmp_path / 'outside'
    outside.mkdir()
    run(store.write('first/call.0', b'x'))
    os.symlink(outside, store.root / 'run')
    with pytest.raises(ForbiddenHandle):
        run(store.write('run/nested/deeper/call.0', b'would land outside'))
    assert list(outside.iterdir()) == []


def test_a_fifo_planted_in_the_root_is_refused_without_hanging(store: LocalFileStore) -> None:
    run(store.write('run/call.0', b'x'))
    os.mkfifo(store.root / 'run' / 'pipe')
    with pytest.raises(ForbiddenHandle):
        run(store.read('run/pipe'))


# --- the root --------------------------------------------------------------------------------------


def test_a_root_that_is_a_symlink_is_refused_at_first_use_with_what_to_do(tmp_path: Path) -> None:
    real = tmp_path / 'real'
    real.mkdir(mode=0o700)
    (tmp_path / 'root').symlink_to(real)
    store = LocalFileStore(base_dir=tmp_path / 'root')  # constructing is fine: the check is at first use
    with pytest.raises(UnsafeStoreRoot, match=r'symbolic link.*base_dir'):
        run(store.write('run/call.0', b'x'))
    with pytest.raises(UnsafeStoreRoot):
        run(store.read('run/call.0'))
    assert list(real.iterdir()) == []


def test_a_root_owned_by_another_user_is_refused(tmp_path: Path) -> None:
    root = tmp_path / 'root'
    root.mkdir(mode=0o700)
    os.chown(root, NOBODY, NOBODY)
    store = LocalFileStore(base_dir=root)
    with pytest.raises(UnsafeStoreRoot, match=rf'owned by uid {NOBODY}, not by you'):
        run(store.write('run/call.0', b'x'))
    with pytest.raises(UnsafeStoreRoot):
        run(store.read('run/call.0'))
    assert list(root.iterdir()) == []


def test_a_root_that_is_a_file_is_refused_at_construction(tmp_path: Path) -> None:
    (tmp_path / 'root').write_text('not a directory')
    with pytest.raises(UnsafeStoreRoot, match='that is a file, not a directory'):
        LocalFileStore(base_dir=tmp_path / 'root')
    with pytest.raises(UnsafeStoreRoot, match='can never be created there'):
        LocalFileStore(base_dir=tmp_path / 'root' / 'spills')
    assert (tmp_path / 'root').read_text() == 'not a directory'


def test_a_read_only_root_is_told_at_construction_and_still_serves_reads(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / 'root'
    run(LocalFileStore(base_dir=root).write('run/call.0', b'kept'))
    os.chmod(root, 0o500)
    try:
        if os.access(root, os.W_OK):
            pytest.skip('this user writes through permissions (root); the read-only mount test covers it')
        with caplog.at_level(logging.WARNING, logger='observable_harness'):
            store = LocalFileStore(base_dir=root)
        assert 'is not writable' in caplog.text and 'reads of what is already there still work' in caplog.text
        assert run(store.read('run/call.0')) == b'kept'
    finally:
        os.chmod(root, 0o700)


def test_a_root_removed_after_first_use_is_recreated(store: LocalFileStore) -> None:
    run(store.write('run/call.0', b'x'))
    for path in sorted(store.root.rglob('*'), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    store.root.rmdir()
    assert run(store.read(run(store.write('run/call.1', b'y')))) == b'y'


# --- failing writes lose nothing -----------------------------------------------------------------


def test_a_full_disk_raises_and_keeps_what_was_stored(tmp_path: Path) -> None:
    """A real 64 KiB tmpfs: the payload does not fit, the write raises ENOSPC, nothing half-written stays."""
    with tmpfs(tmp_path / 'mnt', '64k') as mount:
        store = LocalFileStore(base_dir=mount / 'root')
        run(store.write('run/call.0', b'small and safe'))
        with pytest.raises(OSError, match='No space left') as raised:
            run(store.write('run/call.0', b'x' * 1_000_000))
        assert raised.value.errno == errno.ENOSPC
        assert run(store.read('run/call.0')) == b'small and safe'
        assert files_under(store.root) == ['run/call.0']  # no temporary file left behind
        assert run(store.read(run(store.write('run/call.1', b'fits again')))) == b'fits again'


def test_a_read_only_root_raises_on_write_and_still_serves_reads(tmp_path: Path) -> None:
    """A real tmpfs remounted read-only (permission bits do not stop root, a read-only mount does)."""
    with tmpfs(tmp_path / 'mnt', '1m') as mount:
        store = LocalFileStore(base_dir=mount / 'root')
        run(store.write('run/call.0', b'kept'))
        subprocess.run(['mount', '-o', 'remount,ro', str(mount)], check=True)
        with pytest.raises(OSError, match='Read-only file system') as raised:
            run(store.write('run/call.1', b'new'))
        assert raised.value.errno == errno.EROFS
        assert run(store.read('run/call.0')) == b'kept'


@pytest.mark.parametrize(
    ('failing', 'code'),
    [('fsync', errno.ENOSPC), ('replace', errno.EROFS), ('write', errno.EIO)],
)
def test_a_write_failing_midway_raises_and_never_replaces_the_old_payload(
    store: LocalFileStore, monkeypatch: pytest.MonkeyPatch, failing: str, code: int
) -> None:
    """Wrapper variant, run everywhere (also where mounting is not allowed): the OS call itself raises."""
    if failing == 'fsync':
        store = dataclasses.replace(store, durable=True)  # fsync is only called for durable writes
    run(store.write('run/call.0', b'old payload'))

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise OSError(code, os.strerror(code))

    if failing == 'write':
        original_write = os.write

        def write(fd: int, data: Any) -> int:
            # The payload's file fails; the test runner's own output (descriptors 1 and 2) still goes out.
            return original_write(fd, data) if fd <= 2 else fail()

        monkeypatch.setattr(os, 'write', write)
    else:
        monkeypatch.setattr(os, failing, fail)
    with pytest.raises(OSError, match=os.strerror(code)) as raised:
        run(store.write('run/call.0', b'new payload that never fully lands'))
    monkeypatch.undo()
    assert raised.value.errno == code
    assert run(store.read('run/call.0')) == b'old payload'
    assert files_under(store.root) == ['run/call.0']


def test_a_file_system_that_takes_no_bytes_and_raises_nothing_fails_the_write_instead_of_hanging(
    store: LocalFileStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(store.write('run/call.0', b'old payload'))
    original_write = os.write

    def takes_nothing(fd: int, data: Any) -> int:
        return original_write(fd, data) if fd <= 2 else 0

    monkeypatch.setattr(os, 'write', takes_nothing)
    with pytest.raises(OSError, match='accepted no more bytes') as raised:
        run(store.write('run/call.0', b'new payload'))
    monkeypatch.undo()
    assert raised.value.errno == errno.ENOSPC
    assert run(store.read('run/call.0')) == b'old payload'
    assert files_under(store.root) == ['run/call.0']


def test_a_directory_pruned_between_mkdir_and_open_is_made_again(
    store: LocalFileStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(store.write('run/call.0', b'x'))  # the root exists; the run's directory is made by the write below
    real_makedirs = os.makedirs
    calls: list[str] = []

    def makedirs_then_lose_it(name: Any, mode: int = 0o777, exist_ok: bool = False) -> None:
        real_makedirs(name, mode, exist_ok)
        calls.append(str(name))
        if len(calls) == 1:
            os.rmdir(name)  # what a concurrent prune of an old, empty directory does

    monkeypatch.setattr(os, 'makedirs', makedirs_then_lose_it)
    assert run(store.write('next-run/call.1', b'landed')) == 'next-run/call.1'
    assert len(calls) == 2
    monkeypatch.undo()
    assert run(store.read('next-run/call.1')) == b'landed'


# --- pruning -------------------------------------------------------------------------------------


def test_prune_deletes_by_mtime_only_and_reports_through_telemetry(store: LocalFileStore, otel: OTelHarness) -> None:
    for key in ('old-run/call.0', 'old-run/call.0.content', 'mixed/old.0', 'mixed/new.0', 'new-run/call.0'):
        run(store.write(key, b'x' * 100))
    root = store.root
    age(root / 'old-run' / 'call.0', 7 * HOUR)
    age(root / 'old-run' / 'call.0.content', 7 * HOUR)
    age(root / 'mixed' / 'old.0', 7 * HOUR, atime=0)  # read just now: atime is not a reason to keep it
    age(root / 'new-run' / 'call.0', 1 * HOUR, atime=30 * HOUR)  # not read for ages: not a reason to drop it
    age(root / 'old-run', 7 * HOUR)

    record = store.prune_now(older_than=timedelta(hours=6))

    assert (record.files, record.bytes, record.errors) == (3, 300, 0)
    assert files_under(root) == ['mixed/new.0', 'new-run/call.0']
    assert not (root / 'old-run').exists()  # emptied and unchanged since the cutoff
    assert (root / 'mixed').is_dir()
    [span] = otel.spans(names.SPAN_PRUNE)
    assert span.attributes is not None
    assert span.attributes[names.TOOL_OUTPUT_PRUNE_FILES] == 3
    assert span.attributes[names.TOOL_OUTPUT_PRUNE_BYTES] == 300
    assert span.attributes[names.TOOL_OUTPUT_PRUNE_ERRORS] == 0
    assert span.attributes[names.TOOL_OUTPUT_STORE] == 'LocalFileStore'
    assert span.attributes[names.LOGFIRE_MSG] == 'prune LocalFileStore: 3 files, 300 B freed, 0 errors'
    assert otel.delta(names.PRUNED_FILES.name, store='LocalFileStore') == 3
    assert otel.delta(names.PRUNED_BYTES.name, store='LocalFileStore') == 300
    assert otel.delta(names.PRUNE_FAILURES.name) == 0


def test_a_directory_touched_after_the_cutoff_is_kept_even_when_emptied(store: LocalFileStore) -> None:
    run(store.write('run/call.0', b'x'))
    age(store.root / 'run' / 'call.0', 7 * HOUR)
    store.prune_now(older_than=timedelta(hours=6))
    assert (store.root / 'run').is_dir()  # its mtime is recent: a write may be landing in it


def test_prune_now_needs_an_age(store: LocalFileStore) -> None:
    with pytest.raises(ValueError, match='older_than'):
        store.prune_now()
    with pytest.raises(ValueError, match='positive'):
        store.prune_now(older_than=timedelta(0))


def test_prune_of_a_store_never_written_does_nothing(store: LocalFileStore) -> None:
    record = store.prune_now(older_than=timedelta(hours=1))
    assert (record.files, record.bytes, record.errors) == (0, 0, 0)
    assert not store.root.exists()


@contextmanager
def immutable(path: Path) -> Generator[None]:
    if subprocess.run(['chattr', '+i', str(path)], capture_output=True, check=False).returncode != 0:
        pytest.skip('chattr +i is not supported here; the wrapper variant covers this')
    try:
        yield
    finally:
        subprocess.run(['chattr', '-i', str(path)], check=False)


def test_prune_that_hits_an_undeletable_file_warns_counts_and_goes_on(store: LocalFileStore, otel: OTelHarness) -> None:
    """A real immutable file (chattr +i): not even root can unlink it."""
    for key in ('run/stuck.0', 'run/gone.0'):
        run(store.write(key, b'12345'))
        age(store.root / key, 7 * HOUR)
    with immutable(store.root / 'run' / 'stuck.0'):
        with pytest.warns(OverflowStoreWarning, match=r'1 error\(s\) \(PermissionError x1\).*kept'):
            record = store.prune_now(older_than=timedelta(hours=6))
        assert files_under(store.root) == ['run/stuck.0']
    assert (record.files, record.errors) == (1, 1)
    assert dict(record.failures) == {'PermissionError': 1}
    [span] = otel.spans(names.SPAN_PRUNE)
    assert span.attributes is not None
    assert span.attributes[names.TOOL_OUTPUT_PRUNE_ERRORS] == 1
    assert otel.delta(names.PRUNE_FAILURES.name, store='LocalFileStore', reason='PermissionError') == 1


def test_prune_that_hits_an_undeletable_file_wrapper_variant(
    store: LocalFileStore, monkeypatch: pytest.MonkeyPatch, otel: OTelHarness
) -> None:
    for key in ('run/stuck.0', 'run/gone.0'):
        run(store.write(key, b'12345'))
        age(store.root / key, 7 * HOUR)
    real_unlink = os.unlink

    def unlink(path: Any, *args: Any, **kwargs: Any) -> None:
        if str(path).endswith('stuck.0'):
            raise PermissionError(errno.EPERM, 'Operation not permitted', str(path))
        real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, 'unlink', unlink)
    with pytest.warns(OverflowStoreWarning):
        record = store.prune_now(older_than=timedelta(hours=6))
    monkeypatch.undo()
    assert (record.files, record.bytes, record.errors) == (1, 5, 1)
    assert files_under(store.root) == ['run/stuck.0']
    assert otel.delta(names.PRUNE_FAILURES.name, reason='PermissionError') == 1


def test_prune_of_an_unsafe_root_warns_and_deletes_nothing(tmp_path: Path, otel: OTelHarness) -> None:
    real = tmp_path / 'real'
    real.mkdir()
    (real / 'old').write_text('x')
    age(real / 'old', 7 * HOUR)
    (tmp_path / 'root').symlink_to(real)
    store = LocalFileStore(base_dir=tmp_path / 'root', cleanup_after=timedelta(hours=6))
    with pytest.warns(OverflowStoreWarning, match='UnsafeStoreRoot'):
        record = store.prune_now()
    assert (real / 'old').exists()
    assert dict(record.failures) == {'UnsafeStoreRoot': 1}
    assert otel.delta(names.PRUNE_FAILURES.name, reason='UnsafeStoreRoot') == 1


def test_writes_schedule_one_background_prune_per_interval(tmp_path: Path, otel: OTelHarness) -> None:
    store = LocalFileStore(
        base_dir=tmp_path / 'root', cleanup_after=timedelta(hours=6), prune_interval=timedelta(days=1)
    )
    run(store.write('old/call.0', b'x' * 10))
    assert store._prune_thread is not None
    store._prune_thread.join()
    age(store.root / 'old' / 'call.0', 7 * HOUR)
    # The first write's prune ran before the file aged; a burst of writes within the interval adds none.
    for index in range(20):
        run(store.write(f'new/call.{index}', b'y'))
    store._prune_thread.join()
    assert len(otel.spans(names.SPAN_PRUNE)) == 1
    assert (store.root / 'old' / 'call.0').exists()


def test_a_background_prune_deletes_old_files_on_a_daemon_thread(tmp_path: Path, otel: OTelHarness) -> None:
    store = LocalFileStore(base_dir=tmp_path / 'root', cleanup_after=timedelta(hours=6), prune_interval=timedelta(0))
    run(store.write('old/call.0', b'x' * 10))
    assert store._prune_thread is not None
    store._prune_thread.join()
    age(store.root / 'old' / 'call.0', 7 * HOUR)
    run(store.write('new/call.0', b'y'))
    thread = store._prune_thread
    assert thread is not None
    assert thread.daemon
    assert thread is not threading.current_thread()
    thread.join()
    assert files_under(store.root) == ['new/call.0']
    spans = otel.spans(names.SPAN_PRUNE)
    assert [s.attributes[names.TOOL_OUTPUT_PRUNE_FILES] for s in spans if s.attributes] == [0, 1]
    assert all(s.parent is None for s in spans)  # a daemon thread has no current span


def test_a_blocked_prune_never_blocks_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = LocalFileStore(base_dir=tmp_path / 'root', cleanup_after=timedelta(hours=6), prune_interval=timedelta(0))
    entered, release = threading.Event(), threading.Event()
    real_prune = store._prune
    started: list[int] = []

    def stuck_prune(cutoff: float) -> Any:
        started.append(1)
        entered.set()
        release.wait()
        return real_prune(cutoff)

    monkeypatch.setattr(store, '_prune', stuck_prune)
    run(store.write('run/call.0', b'x'))
    assert entered.wait(timeout=30)
    prune_thread = store._prune_thread
    assert prune_thread is not None
    try:
        # The prune is stuck; writes still complete, and none starts a second prune.
        handles = [run(store.write(f'run/call.{i}', b'y')) for i in range(1, 6)]
        assert prune_thread.is_alive()
        assert [run(store.read(h)) for h in handles] == [b'y'] * 5
        assert started == [1]
    finally:
        release.set()
        prune_thread.join()


def test_a_failing_background_prune_warns_and_never_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = LocalFileStore(base_dir=tmp_path / 'root', cleanup_after=timedelta(hours=6))

    def broken(cutoff: float) -> Any:
        raise RuntimeError('disk on fire')

    monkeypatch.setattr(store, '_prune', broken)
    thread_errors: list[BaseException | None] = []
    monkeypatch.setattr(threading, 'excepthook', lambda args: thread_errors.append(args.exc_value))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        assert run(store.write('run/call.0', b'x')) == 'run/call.0'
        assert store._prune_thread is not None
        store._prune_thread.join()
    assert thread_errors == []
    assert [str(w.message) for w in caught if w.category is OverflowStoreWarning] == [
        f'the background prune of {store.root} failed (RuntimeError: disk on fire)'
    ]


def test_a_warning_filter_set_to_error_does_not_kill_the_prune_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = LocalFileStore(base_dir=tmp_path / 'root', cleanup_after=timedelta(hours=6))
    run(store.write('run/stuck.0', b'x'))
    assert store._prune_thread is not None
    store._prune_thread.join()
    age(store.root / 'run' / 'stuck.0', 7 * HOUR)
    monkeypatch.setattr(store, '_last_prune_start', None)

    def unlink(path: Any, *args: Any, **kwargs: Any) -> None:
        raise PermissionError(errno.EPERM, 'Operation not permitted')

    monkeypatch.setattr(os, 'unlink', unlink)
    thread_errors: list[BaseException | None] = []
    monkeypatch.setattr(threading, 'excepthook', lambda args: thread_errors.append(args.exc_value))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        run(store.write('run/call.1', b'y'))
        store._prune_thread.join()
    assert thread_errors == []


@pytest.mark.parametrize('durable', [False, True])
def test_fsync_runs_only_for_durable_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, durable: bool) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, 'fsync', lambda fd: (synced.append(fd), real_fsync(fd))[1])
    store = LocalFileStore(base_dir=tmp_path / 'root', durable=durable)
    run(store.write('run/call.0', b'payload'))
    assert bool(synced) is durable
    assert run(store.read('run/call.0')) == b'payload'
