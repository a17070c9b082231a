"""What every overflow store promises, tested on each: `LocalFileStore`, and `ObjectStore` on S3 (moto),
`memory://` and `file://`.

A handle written on one host reads back on another; keys are sanitized into the store and never merge;
forged handles get the right error and never reach outside; storage I/O runs off the event loop; age
pruning deletes what is older than the cutoff, inside the store only, on a thread that never raises.
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from pydantic_ai import Agent

from observable_harness import ToolOutputLimits
from observable_harness._text.paging import READ_TOOL_NAME
from observable_harness.storage import (
    MAX_HANDLE_CHARS,
    ForbiddenHandle,
    InvalidHandle,
    LocalFileStore,
    ObjectStore,
    OverflowStore,
    StoreError,
    UnknownHandle,
)
from observable_harness.telemetry import names
from tests.agents import Script, call, handle_in, rebuild, respond, text_of, tool_returns
from tests.otel import OTelHarness
from tests.s3_server import SECRET
from tests.storage.conftest import CANARY, HOUR, Backend, run
from tests.storage.spills import LOG, reading_agent, spilling_agent


def test_every_store_is_an_overflow_store_and_a_half_store_is_not(backend: Backend) -> None:
    class WriteOnly:
        async def write(self, key: str, data: bytes) -> str:
            return key

    assert isinstance(backend.store(), OverflowStore)
    assert isinstance(backend.store(), LocalFileStore | ObjectStore)
    assert not isinstance(WriteOnly(), OverflowStore)


def test_write_returns_the_relative_key_and_read_returns_the_exact_bytes(backend: Backend) -> None:
    store = backend.store()
    payload = 'ünïcödé\r\nline\u2028two\x00\xff'.encode('utf-8', 'surrogatepass') + bytes(range(256))
    handle = run(store.write('run-1/call_7.0', payload))
    content_handle = run(store.write('run-1/call_7.0.content', b'content unit'))
    assert (handle, content_handle) == ('run-1/call_7.0', 'run-1/call_7.0.content')
    assert run(store.read(handle)) == payload
    assert run(backend.fresh_store().read(content_handle)) == b'content unit'
    assert backend.objects() == {handle: payload, content_handle: b'content unit'}


def test_read_before_any_write_is_unknown(backend: Backend) -> None:
    with pytest.raises(UnknownHandle):
        run(backend.store().read('run/call.0'))


def test_sanitizing_never_merges_two_keys(backend: Backend) -> None:
    store = backend.store()
    keys = ['run/a:b.0', 'run/a_b.0', 'run/a?b.0', 'run/a b.0', 'run/a..b.0', 'run/..', 'run/_.']
    handles = [run(store.write(key, key.encode())) for key in keys]
    assert len(set(handles)) == len(keys)
    assert [run(store.read(handle)) for handle in handles] == [key.encode() for key in keys]


def test_unusable_keys_are_refused_on_write(backend: Backend) -> None:
    store = backend.store()
    for key in ('', '   ', '///', 'k' * (MAX_HANDLE_CHARS + 1), '/'.join(['d'] * 17)):
        with pytest.raises(InvalidHandle):
            run(store.write(key, b'x'))
    assert backend.objects() == {}


def test_a_spill_from_one_agent_reads_back_on_a_second_agent_built_fresh(backend: Backend, otel: OTelHarness) -> None:
    writer_store = backend.store()
    agent, _ = spilling_agent(writer_store)
    result = agent.run_sync('what failed?')
    [stand_in] = [text_of(p) for p in tool_returns(result.all_messages(), 'fetch_logs')]
    handle = handle_in(stand_in)
    assert 'stored whole: 50,000 chars' in stand_in
    assert re.fullmatch(r'[^/]+/big\.0', handle)
    assert backend.objects() == {handle: LOG.encode()}  # one object, under the prefix, byte for byte
    assert otel.delta(names.SPILL_BYTES.name, store=type(writer_store).__name__) == 50_000
    assert otel.delta(names.SPILL_FAILURES.name) == 0

    reader_store = backend.fresh_store()
    if backend.name == 's3':
        assert reader_store._fs is not writer_store._fs  # another host: no client shared
    reader = reading_agent(reader_store, handle)
    read_result = reader.run_sync('read the stored log')
    pages = [text_of(p) for p in tool_returns(read_result.all_messages(), READ_TOOL_NAME)]
    assert len(pages) == -(-(LOG.count('\n') + 1) // 200)  # one row per line, 200 rows a page
    assert rebuild(pages) == LOG
    assert otel.delta(names.READS.name, outcome='hit') == len(pages)
    assert read_result.output == 'done'

    # Telemetry carries handles and sizes, never the payload, nor the credentials in storage_options.
    secrets = (CANARY, SECRET)
    for span in otel.spans():
        for value in (span.attributes or {}).values():
            assert not any(secret in str(value) for secret in secrets)
    for point in otel.points():
        assert not any(secret in str(v) for v in point.attributes.values() for secret in secrets)


def test_secrets_are_scrubbed_before_they_reach_the_bucket(backend: Backend) -> None:
    token = 'ghp_' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8'
    deploy_log = '\n'.join(f'step {i}: deploying shard {i}' for i in range(1_500))
    deploy_log += f'\nexport DB_PASSWORD=hunter2-prod\nAuthorization: Bearer {token}\n'
    agent, _ = spilling_agent(backend.store(), deploy_log)
    [stand_in] = [text_of(p) for p in tool_returns(agent.run_sync('deploy').all_messages(), 'fetch_logs')]
    [stored] = backend.objects().values()
    assert b'hunter2-prod' not in stored and token.encode() not in stored
    assert b'DB_PASSWORD=[REDACTED:' in stored
    assert run(backend.fresh_store().read(handle_in(stand_in))) == stored


def test_concurrent_spills_of_one_step_never_collide(backend: Backend) -> None:
    store = backend.store()
    keys = [f'run-1/{call_id}.{retry}' for call_id in ('call_a', 'call_b', 'call_c') for retry in (0, 1)]
    keys += [f'{key}.content' for key in keys]

    async def write_all() -> list[str]:
        return await asyncio.gather(*(store.write(key, key.encode()) for key in keys))

    handles = run(write_all())
    assert handles == keys
    assert backend.objects() == {key: key.encode() for key in keys}


CRAFTED_KEYS = [
    '../../etc/evil',
    '/etc/evil',
    'run/../../../evil',
    'run/.hidden',
    'run/%2e%2e/%2e%2e/evil',
    'run/..\\..\\evil',
    'run/call\x00id.0',
    'run/čšž 漢字 🙂.0',
    'run/' + 'x' * 300 + '.0',
    'run/key?versionId=1',
    'run/*[glob]',
    's3://other-bucket/evil',
    'run//call.0',
    'C:\\Windows\\evil',
]


def test_crafted_keys_are_written_inside_the_prefix_and_read_back(backend: Backend) -> None:
    store = backend.store()
    handles = [run(store.write(key, key.encode('utf-8', 'surrogatepass'))) for key in CRAFTED_KEYS]
    assert len(set(handles)) == len(CRAFTED_KEYS)
    for key, handle in zip(CRAFTED_KEYS, handles, strict=True):
        assert re.fullmatch(r'[A-Za-z0-9_-][A-Za-z0-9._-]*(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*', handle), handle
        assert run(store.read(handle)) == key.encode('utf-8', 'surrogatepass')
    assert set(backend.objects()) == set(handles)
    backend.assert_outside_untouched()


def forged_handles(backend: Backend) -> list[tuple[str, type[StoreError]]]:
    bucket_relative = backend.outside[0].lstrip('/')
    return [
        ('', InvalidHandle),
        ('   ', InvalidHandle),
        ('run/call\x00.0', InvalidHandle),
        ('\\\\server\\share', ForbiddenHandle),
        ('C:/Windows/win.ini', ForbiddenHandle),
        ('/etc/passwd', ForbiddenHandle),
        ('h' * 10_240, InvalidHandle),
        ('/'.join(['d'] * 17), InvalidHandle),
        ('..', ForbiddenHandle),
        ('../' + os.path.basename(backend.outside[0]), ForbiddenHandle),
        ('run/../../secret', ForbiddenHandle),
        ('run\\..\\..\\secret', ForbiddenHandle),
        ('/' + bucket_relative, ForbiddenHandle),  # the outside object, absolute
        (backend.outside[0], ForbiddenHandle if backend.outside[0].startswith('/') else UnknownHandle),
        (bucket_relative, UnknownHandle),  # taken relative to the prefix: not the outside object
        ('../' + os.path.basename(backend.prefix) + '-sibling/secret', ForbiddenHandle),
        (f'{backend.url.partition("://")[0]}://{bucket_relative}', UnknownHandle),
        ('%2e%2e/%2e%2e/secret', UnknownHandle),
        ('..%2f..%2fsecret', UnknownHandle),
        ('%2E%2E%5Csecret', UnknownHandle),
        ('run/nothing-here.0', UnknownHandle),
        ('run', UnknownHandle),  # a "directory" of stored outputs, not one output
    ]


def test_forged_handles_are_refused_and_nothing_outside_the_prefix_is_read(backend: Backend) -> None:
    store = backend.store()
    run(store.write('run/call.0', b'inside'))
    for handle, error in forged_handles(backend):
        with pytest.raises(error):
            run(store.read(handle))
    backend.assert_outside_untouched()


def test_a_model_sending_forged_handles_is_told_so_and_never_sees_outside_objects(
    backend: Backend, otel: OTelHarness
) -> None:
    store = backend.store()
    run(store.write('run/call.0', b'inside'))
    cases = [(handle, error) for handle, error in forged_handles(backend) if handle]
    forged = [handle for handle, _ in cases]
    script = Script([respond(*(call(READ_TOOL_NAME, {'handle': h}, f'forged-{i}') for i, h in enumerate(forged)))])
    agent = Agent(script.model(), capabilities=[ToolOutputLimits(store=store)])
    result = agent.run_sync('read everything')
    replies = [text_of(p) for p in tool_returns(result.all_messages(), READ_TOOL_NAME)]
    assert len(replies) == len(forged)
    assert all(CANARY not in reply for reply in replies)
    assert all(reply.startswith('[read_tool_result: ') for reply in replies)
    assert otel.delta(names.READS.name, outcome='hit') == 0
    expected = {
        outcome: sum(1 for _, error in cases if error is kind)
        for outcome, kind in (('denied', ForbiddenHandle), ('invalid', InvalidHandle), ('miss', UnknownHandle))
    }
    assert expected['denied'] >= 6 and expected['invalid'] == 4
    for outcome, count in expected.items():
        assert otel.delta(names.READS.name, outcome=outcome) == count


def test_reads_and_writes_run_off_the_event_loop(backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    store = backend.store()
    threads: list[int] = []
    put_name, get_name = backend.io_methods
    put, get = getattr(store, put_name), getattr(store, get_name)

    def spy_put(*args: Any) -> None:
        threads.append(threading.get_ident())
        put(*args)

    def spy_get(*args: Any) -> bytes:
        threads.append(threading.get_ident())
        return get(*args)

    monkeypatch.setattr(store, put_name, spy_put)
    monkeypatch.setattr(store, get_name, spy_get)

    async def roundtrip() -> tuple[bytes, int]:
        data = await store.read(await store.write('run/call.0', b'x'))
        return data, threading.get_ident()

    data, loop_thread = run(roundtrip())
    assert data == b'x'
    assert len(threads) == 2
    assert loop_thread not in threads


# --- pruning by age ---------------------------------------------------------------------------------


def test_prune_deletes_objects_older_than_the_cutoff_inside_the_prefix_only(
    backend: Backend, clock: Callable[[float], None], otel: OTelHarness
) -> None:
    """The prune clock moves 7 hours ahead: every object is then 7 hours old, the planted ones too."""
    store = backend.store()
    for key in ('run-1/call.0', 'run-1/call.0.content', 'run-2/call.0'):
        run(store.write(key, b'x' * 100))
    clock(7 * HOUR)

    kept = store.prune_now(older_than=timedelta(hours=8))
    assert (kept.files, kept.bytes, kept.errors) == (0, 0, 0)
    assert len(backend.objects()) == 3

    record = store.prune_now(older_than=timedelta(hours=6))
    assert (record.files, record.bytes, record.errors) == (3, 300, 0)
    assert backend.objects() == {}
    backend.assert_outside_untouched()
    if backend.name in ('file', 'local'):
        assert os.path.isdir(backend.prefix)  # emptied old directories go, the prefix itself stays
        assert os.listdir(backend.prefix) == []

    first, second = otel.spans(names.SPAN_PRUNE)
    assert first.attributes is not None and second.attributes is not None
    assert first.attributes[names.TOOL_OUTPUT_PRUNE_FILES] == 0
    name = type(store).__name__
    assert second.attributes[names.TOOL_OUTPUT_STORE] == name
    assert second.attributes[names.TOOL_OUTPUT_PRUNE_FILES] == 3
    assert second.attributes[names.TOOL_OUTPUT_PRUNE_BYTES] == 300
    assert second.attributes[names.LOGFIRE_MSG] == f'prune {name}: 3 files, 300 B freed, 0 errors'
    assert otel.delta(names.PRUNED_FILES.name, store=name) == 3
    assert otel.delta(names.PRUNED_BYTES.name, store=name) == 300
    assert otel.delta(names.PRUNE_FAILURES.name) == 0


@pytest.mark.parametrize('backend', ['local', 'memory', 'file'], indirect=True)
def test_prune_keeps_objects_newer_than_the_cutoff(backend: Backend) -> None:
    store = backend.store()
    for key in ('old-run/call.0', 'mixed/old.0', 'mixed/new.0', 'new-run/call.0'):
        run(store.write(key, b'12345'))
    backend.backdate('old-run/call.0', 7 * HOUR)
    backend.backdate('mixed/old.0', 7 * HOUR)
    backend.backdate('new-run/call.0', 1 * HOUR)
    if backend.name in ('file', 'local'):
        os.utime(f'{backend.prefix}/old-run', (0, datetime.now().timestamp() - 7 * HOUR))

    record = store.prune_now(older_than=timedelta(hours=6))

    assert (record.files, record.bytes, record.errors) == (2, 10, 0)
    assert set(backend.objects()) == {'mixed/new.0', 'new-run/call.0'}
    if backend.name in ('file', 'local'):
        assert not os.path.exists(f'{backend.prefix}/old-run')  # emptied, and unchanged since the cutoff
        assert os.path.isdir(f'{backend.prefix}/mixed')


def test_writes_schedule_a_background_prune_that_never_raises_into_the_run(
    backend: Backend, clock: Callable[[float], None], otel: OTelHarness
) -> None:
    store = backend.store(cleanup_after=timedelta(hours=6), prune_interval=timedelta(0))
    run(store.write('old/call.0', b'x' * 10))
    assert store._prune_thread is not None
    store._prune_thread.join()
    assert set(backend.objects()) == {'old/call.0'}  # the first pass found nothing old
    clock(7 * HOUR)
    assert run(store.write('new/call.0', b'y')) == 'new/call.0'
    thread = store._prune_thread
    assert thread is not None
    assert thread.daemon
    thread.join()
    assert backend.objects() == {}
    spans = otel.spans(names.SPAN_PRUNE)
    assert [s.attributes[names.TOOL_OUTPUT_PRUNE_FILES] for s in spans if s.attributes] == [0, 2]
    assert all(s.parent is None for s in spans)  # a daemon thread has no current span
