"""ObjectStore: spills shared across hosts, against a real S3 API (moto's server) and on memory:// and file://.

Every behaviour test runs three times: on `s3://` against `moto`'s HTTP server started on a loopback
port (the S3 wire protocol through s3fs and botocore, no in-process mocks), on `memory://` and on
`file://`. Age pruning on S3 is tested by moving the prune clock (`_pruning.wall_clock`) forward,
since S3 sets an object's modification time itself; on memory:// and file:// by backdating objects.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import fsspec
import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse
from tests.agents import Script, call, done, handle_in, respond, text_of, tool_returns
from tests.otel import OTelHarness
from tests.s3_server import BUCKET, CREDENTIALS, SECRET, MotoServer

from observable_harness import ToolOutputLimits
from observable_harness._text.paging import READ_TOOL_NAME
from observable_harness.storage import _pruning
from observable_harness.storage._object import S3_DEFAULT_OPTIONS, _modified_at
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import (
    Band,
    ForbiddenHandle,
    InvalidHandle,
    ObjectStore,
    OverflowStore,
    OverflowStoreWarning,
    Spill,
    StoreError,
    Truncate,
    UnknownHandle,
)

CANARY = 'CANARY-5be1-object-store-payload'
HOUR = 3600.0


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# --- the backends ---------------------------------------------------------------------------------


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
    """The store's prefix as `raw` names it."""
    outside: list[str] = field(default_factory=list[str])
    """Objects planted next to the prefix, that no handle may reach."""

    def store(self, **kwargs: Any) -> ObjectStore:
        return ObjectStore(self.url, storage_options=self.options, **kwargs)

    def fresh_store(self, **kwargs: Any) -> ObjectStore:
        """A store sharing nothing in-process with earlier ones (for S3: its own s3fs client)."""
        options = {**self.options, 'skip_instance_cache': True} if self.name == 's3' else self.options
        return ObjectStore(self.url, storage_options=options, **kwargs)

    def objects(self) -> dict[str, bytes]:
        """Every object under the prefix, by handle."""
        self.raw.invalidate_cache()
        found = self.raw.find(self.prefix)
        return {path[len(self.prefix) + 1 :]: self.raw.cat_file(path) for path in found}

    def backdate(self, handle: str, seconds: float) -> None:
        """Make an object look `seconds` old (memory:// and file:// only: S3 dates objects itself)."""
        path = f'{self.prefix}/{handle}'
        if self.name == 'file':
            then = datetime.now().timestamp() - seconds
            os.utime(path, (then, then))
        elif self.name == 'memory':
            self.raw.store[path].created = datetime.now(tz=UTC) - timedelta(seconds=seconds)
        else:
            raise AssertionError('S3 sets modification times itself; move the prune clock instead')


@pytest.fixture(params=['s3', 'memory', 'file'])
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
        made = Backend('file', f'file://{prefix}', {}, raw, prefix)
        made.outside = [str(tmp_path / 'secret'), f'{prefix}-sibling/secret']
    for path in made.outside:
        if made.name == 'file':
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


def assert_outside_untouched(backend: Backend) -> None:
    backend.raw.invalidate_cache()
    for path in backend.outside:
        assert backend.raw.cat_file(path) == CANARY.encode()


# --- agents ---------------------------------------------------------------------------------------

_LINE = '08:{:02d}:{:02d} INFO worker-{} step {:05d} of the nightly batch\n'
_LINES = ''.join(_LINE.format(i // 60 % 60, i % 60, i % 5, i) for i in range(1_000))
LOG = (_LINES + f'ERROR {CANARY}\n' + _LINES)[:50_000]


def rebuild(outputs: list[str]) -> str:
    """The payload, from the rendered pages alone (rows are `<offset>[↩]\\t<text>`)."""
    rebuilt: list[str] = []
    no_final_newline = False
    for output in outputs:
        for line in output.split('\n'):
            row = re.match(r'(\d+)(↩?)\t(.*)', line, re.DOTALL)
            if row:
                rebuilt.append(row.group(3) + ('' if row.group(2) else '\n'))
            else:
                no_final_newline |= 'no final newline' in line
    text = ''.join(rebuilt)
    return text[:-1] if no_final_newline else text


def pager(handle: str) -> Callable[[list[ModelMessage]], ModelResponse]:
    """A model step that reads `handle` from offset 0, then follows each page's footer until the end."""

    def step(messages: list[ModelMessage]) -> ModelResponse:
        pages = tool_returns(messages, READ_TOOL_NAME)
        if not pages:
            return respond(call(READ_TOOL_NAME, {'handle': handle}, 'read-0'))
        footer = text_of(pages[-1]).rsplit('\n', 1)[-1]
        found = re.search(r"call read_tool_result\(handle='([^']+)', offset=(\d+)", footer)
        if found is None:
            return done()
        return respond(
            call(READ_TOOL_NAME, {'handle': found.group(1), 'offset': int(found.group(2))}, f'read-{found[2]}')
        )

    return step


def spilling_agent(store: OverflowStore, payload: str = LOG) -> tuple[Agent[None, str], Script]:
    script = Script([respond(call('fetch_logs', call_id='big')), done()])
    agent = Agent(script.model(), capabilities=[ToolOutputLimits(store=store)])
    agent.tool_plain(name='fetch_logs')(lambda: payload)
    return agent, script


def reading_agent(store: OverflowStore, handle: str) -> Agent[None, str]:
    script = Script([pager(handle)] * 40)
    return Agent(script.model(), capabilities=[ToolOutputLimits(store=store)])


# --- spill on one host, read back on another ----------------------------------------------------------


def test_a_spill_from_one_agent_reads_back_on_a_second_agent_built_fresh(backend: Backend, otel: OTelHarness) -> None:
    writer_store = backend.store()
    agent, _ = spilling_agent(writer_store)
    result = agent.run_sync('what failed?')
    [stand_in] = [text_of(p) for p in tool_returns(result.all_messages(), 'fetch_logs')]
    handle = handle_in(stand_in)
    assert 'stored whole: 50,000 chars' in stand_in
    assert re.fullmatch(r'[^/]+/big\.0', handle)
    assert backend.objects() == {handle: LOG.encode()}  # one object, under the prefix, byte for byte
    assert otel.delta(names.SPILL_BYTES.name, store='ObjectStore') == 50_000
    assert otel.delta(names.SPILL_FAILURES.name) == 0

    reader_store = backend.fresh_store()
    if backend.name == 's3':
        assert reader_store._fs is not writer_store._fs
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
]


def test_crafted_keys_are_written_inside_the_prefix_and_read_back(backend: Backend) -> None:
    store = backend.store()
    handles = [run(store.write(key, key.encode('utf-8', 'surrogatepass'))) for key in CRAFTED_KEYS]
    assert len(set(handles)) == len(CRAFTED_KEYS)
    for key, handle in zip(CRAFTED_KEYS, handles, strict=True):
        assert re.fullmatch(r'[A-Za-z0-9_-][A-Za-z0-9._-]*(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*', handle), handle
        assert run(store.read(handle)) == key.encode('utf-8', 'surrogatepass')
    assert set(backend.objects()) == set(handles)
    assert_outside_untouched(backend)


def forged_handles(backend: Backend) -> list[tuple[str, type[StoreError]]]:
    bucket_relative = backend.outside[0].lstrip('/')
    return [
        ('', InvalidHandle),
        ('run/call\x00.0', InvalidHandle),
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
    assert_outside_untouched(backend)


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
    assert expected['denied'] >= 6 and expected['invalid'] == 3
    for outcome, count in expected.items():
        assert otel.delta(names.READS.name, outcome=outcome) == count


def test_reads_and_writes_run_off_the_event_loop(backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    store = backend.store()
    threads: list[int] = []
    put, get = store._put, store._get

    def spy_put(*args: Any) -> None:
        threads.append(threading.get_ident())
        put(*args)

    def spy_get(*args: Any) -> bytes:
        threads.append(threading.get_ident())
        return get(*args)

    monkeypatch.setattr(store, '_put', spy_put)
    monkeypatch.setattr(store, '_get', spy_get)

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
    assert_outside_untouched(backend)
    if backend.name == 'file':
        assert os.path.isdir(backend.prefix)  # emptied old directories go, the prefix itself stays
        assert os.listdir(backend.prefix) == []

    first, second = otel.spans(names.SPAN_PRUNE)
    assert first.attributes is not None and second.attributes is not None
    assert first.attributes[names.TOOL_OUTPUT_PRUNE_FILES] == 0
    assert second.attributes[names.TOOL_OUTPUT_STORE] == 'ObjectStore'
    assert second.attributes[names.TOOL_OUTPUT_PRUNE_FILES] == 3
    assert second.attributes[names.TOOL_OUTPUT_PRUNE_BYTES] == 300
    assert second.attributes[names.LOGFIRE_MSG] == 'prune ObjectStore: 3 files, 300 B freed, 0 errors'
    assert otel.delta(names.PRUNED_FILES.name, store='ObjectStore') == 3
    assert otel.delta(names.PRUNED_BYTES.name, store='ObjectStore') == 300
    assert otel.delta(names.PRUNE_FAILURES.name) == 0


@pytest.mark.parametrize('backend', ['memory', 'file'], indirect=True)
def test_prune_keeps_objects_newer_than_the_cutoff(backend: Backend) -> None:
    store = backend.store()
    for key in ('old-run/call.0', 'mixed/old.0', 'mixed/new.0', 'new-run/call.0'):
        run(store.write(key, b'12345'))
    backend.backdate('old-run/call.0', 7 * HOUR)
    backend.backdate('mixed/old.0', 7 * HOUR)
    backend.backdate('new-run/call.0', 1 * HOUR)
    if backend.name == 'file':
        os.utime(f'{backend.prefix}/old-run', (0, datetime.now().timestamp() - 7 * HOUR))

    record = store.prune_now(older_than=timedelta(hours=6))

    assert (record.files, record.bytes, record.errors) == (2, 10, 0)
    assert set(backend.objects()) == {'mixed/new.0', 'new-run/call.0'}
    if backend.name == 'file':
        assert not os.path.exists(f'{backend.prefix}/old-run')  # emptied, and unchanged since the cutoff
        assert os.path.isdir(f'{backend.prefix}/mixed')


def test_a_prune_that_cannot_delete_an_object_warns_counts_and_goes_on(
    backend: Backend, clock: Callable[[float], None], monkeypatch: pytest.MonkeyPatch, otel: OTelHarness
) -> None:
    store = backend.store()
    for key in ('run/stuck.0', 'run/gone.0'):
        run(store.write(key, b'12345'))
    real_rm_file = store._fs.rm_file

    def rm_file(path: str) -> None:
        if path.endswith('stuck.0'):
            raise PermissionError('Access Denied')
        real_rm_file(path)

    monkeypatch.setattr(store._fs, 'rm_file', rm_file)
    clock(7 * HOUR)
    with pytest.warns(OverflowStoreWarning, match=r'at \S+ met 1 error\(s\) \(PermissionError x1\).*kept'):
        record = store.prune_now(older_than=timedelta(hours=6))
    assert (record.files, record.bytes, dict(record.failures)) == (1, 5, {'PermissionError': 1})
    assert set(backend.objects()) == {'run/stuck.0'}
    assert otel.delta(names.PRUNE_FAILURES.name, store='ObjectStore', reason='PermissionError') == 1


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


def test_modification_times_are_read_from_what_each_backend_reports() -> None:
    moment = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
    epoch = moment.timestamp()
    assert _modified_at({'mtime': epoch, 'created': 0.0}) == epoch  # local: mtime wins over ctime
    assert _modified_at({'LastModified': moment}) == epoch  # s3fs
    assert _modified_at({'last_modified': moment.replace(tzinfo=None)}) == epoch  # adlfs, naive means UTC
    assert _modified_at({'updated': '2026-11-30T08:00:00Z'}) == epoch  # gcsfs
    assert _modified_at({'created': epoch}) == epoch  # memory://
    assert _modified_at({'size': 3, 'type': 'file'}) is None
    assert _modified_at({'updated': 'yesterday'}) is None


# --- a stopped or silent server ---------------------------------------------------------------------


def test_a_stopped_server_falls_back_to_truncate_and_the_run_completes(otel: OTelHarness) -> None:
    """The server that held the spills goes away: spilling fails fast with the default timeouts, the band's
    `then=Truncate()` takes over, reading back tells the model, and a prune counts the failure."""
    moto = MotoServer.start()
    store = ObjectStore(f's3://{BUCKET}/stopped', storage_options=moto.options(), cleanup_after=timedelta(hours=1))
    kept = run(store.write('earlier/call.0', b'written while the server was up'))
    assert store._prune_thread is not None
    store._prune_thread.join()
    moto.server.stop()

    script = Script([respond(call('fetch_logs', call_id='big')), respond(call(READ_TOOL_NAME, {'handle': kept}))])
    capability = ToolOutputLimits(bands=[Band(over=10_000, action=Spill(then=Truncate()))], store=store)
    agent = Agent(script.model(), capabilities=[capability])
    agent.tool_plain(name='fetch_logs')(lambda: LOG)
    result = agent.run_sync('what failed?')

    assert result.output == 'done'
    [out] = [text_of(p) for p in tool_returns(result.all_messages(), 'fetch_logs')]
    assert 'truncated' in out and len(out) <= 4_000
    assert 'stored whole' not in out
    [reply] = [text_of(p) for p in tool_returns(result.all_messages(), READ_TOOL_NAME)]
    assert 'could not read handle' in reply and 'EndpointConnectionError' in reply
    assert otel.delta(names.SPILL_FAILURES.name, store='ObjectStore', reason='EndpointConnectionError') == 1
    [reduce] = otel.spans(names.SPAN_REDUCE)
    assert reduce.attributes is not None
    assert reduce.attributes[names.TOOL_OUTPUT_FALLBACK_CHAIN] == 'spill>truncate'

    with pytest.warns(OverflowStoreWarning, match='EndpointConnectionError'):
        record = store.prune_now()
    assert dict(record.failures) == {'EndpointConnectionError': 1}
    assert otel.delta(names.PRUNE_FAILURES.name, store='ObjectStore', reason='EndpointConnectionError') == 1


@dataclass
class SilentServer:
    """Accepts TCP connections and never answers: a hung endpoint, which no connect timeout catches."""

    listener: socket.socket = field(default_factory=lambda: socket.create_server(('127.0.0.1', 0)))
    accepted: list[socket.socket] = field(default_factory=list[socket.socket])

    def __post_init__(self) -> None:
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def endpoint(self) -> str:
        return f'http://127.0.0.1:{self.listener.getsockname()[1]}'

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.accepted.append(connection)

    def close(self) -> None:
        self.listener.close()
        for connection in self.accepted:
            connection.close()


def test_a_silent_server_is_given_up_on_after_the_store_timeout(otel: OTelHarness) -> None:
    silent = SilentServer()
    try:
        options = {'endpoint_url': silent.endpoint, **CREDENTIALS}
        store = ObjectStore(f's3://{BUCKET}/silent', storage_options=options, timeout=timedelta(seconds=1))
        with pytest.raises(TimeoutError, match=r'did not answer within 1 s; raise ObjectStore\(timeout=\.\.\.\)'):
            run(store.write('run/call.0', b'x'))

        agent, _ = spilling_agent(store)
        result = agent.run_sync('what failed?')
        [out] = [text_of(p) for p in tool_returns(result.all_messages(), 'fetch_logs')]
        assert 'truncated' in out
        assert otel.delta(names.SPILL_FAILURES.name, store='ObjectStore', reason='TimeoutError') == 1
        assert silent.accepted  # the requests did reach the server, which never answered
    finally:
        silent.close()  # the abandoned requests now fail on their own threads


# --- configuration ----------------------------------------------------------------------------------


def test_s3_defaults_bound_the_wait_and_a_user_can_override_any_of_them(moto: MotoServer) -> None:
    store = ObjectStore(f's3://{BUCKET}/defaults', storage_options=moto.options(skip_instance_cache=True))
    s3: Any = store._fs
    assert s3.config_kwargs == S3_DEFAULT_OPTIONS['config_kwargs']
    assert s3.max_concurrency == 1
    run(store.write('run/call.0', b'defaults'))  # botocore has now built its config from them
    assert S3_DEFAULT_OPTIONS['config_kwargs']['retries'] == {'mode': 'standard', 'max_attempts': 3}
    tuned = ObjectStore(
        f's3://{BUCKET}/defaults',
        storage_options=moto.options(skip_instance_cache=True, config_kwargs={'read_timeout': 120}),
    )
    tuned_s3: Any = tuned._fs
    assert tuned_s3.config_kwargs == {
        'connect_timeout': 5,
        'read_timeout': 120,
        'retries': {'mode': 'standard', 'max_attempts': 3},
    }
    assert run(tuned.read(run(tuned.write('run/call.0', b'tuned')))) == b'tuned'


def test_repr_shows_where_spills_go_but_never_the_storage_options(moto: MotoServer) -> None:
    store = ObjectStore(f's3://{BUCKET}/repr', storage_options=moto.options())
    assert f"url='s3://{BUCKET}/repr'" in repr(store)
    assert 'testing-secret' not in repr(store)
    assert store.prefix == f'{BUCKET}/repr'


@pytest.mark.parametrize(
    ('url', 'kwargs', 'message'),
    [
        ('spills/on/no/scheme', {}, r'needs a URL with a scheme.*LocalFileStore'),
        ('memory://', {}, 'names no prefix'),
        ('file:///', {}, 'names no prefix'),
        ('memory://x', {'timeout': timedelta(0)}, 'timeout must be a positive timedelta'),
        ('memory://x', {'cleanup_after': timedelta(0)}, 'use None to keep files forever'),
        ('memory://x', {'prune_interval': timedelta(seconds=-1)}, 'prune_interval'),
        ('no-such-scheme://x/y', {}, 'no-such-scheme'),
    ],
)
def test_bad_configuration_is_a_clear_error_at_construction(url: str, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ObjectStore(url, **kwargs)


def test_a_backend_that_is_not_installed_says_what_to_install() -> None:
    with pytest.raises(ImportError, match=r'gs://.*cannot reach its storage.*pip install gcsfs'):
        ObjectStore('gs://bucket/spills')


def test_without_fsspec_the_package_imports_and_the_store_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, 'fsspec', None)
    with pytest.raises(ImportError, match=r"needs fsspec.*pip install 'observable-harness\[objectstore\]'"):
        ObjectStore('memory://spills')


@pytest.mark.parametrize(
    ('blocked', 'url', 'message'),
    [
        ('fsspec', 's3://bucket/spills', "pip install 'observable-harness[objectstore]'"),
        ('s3fs', 's3://bucket/spills', "pip install 'observable-harness[s3]'"),
    ],
)
def test_a_fresh_interpreter_without_the_extra_imports_the_library_and_gets_a_clear_error(
    blocked: str, url: str, message: str
) -> None:
    """In a new process, because this one has already imported fsspec's backends."""
    program = (
        f'import sys; sys.modules[{blocked!r}] = None\n'
        'import observable_harness\n'
        'from observable_harness.tool_output_limits import ObjectStore, ToolOutputLimits\n'
        'ToolOutputLimits()\n'
        'try:\n'
        f'    ObjectStore({url!r})\n'
        'except ImportError as error:\n'
        '    print(error)\n'
    )
    output = subprocess.run([sys.executable, '-c', program], capture_output=True, text=True, check=True).stdout
    assert message in output


def test_an_object_store_is_an_overflow_store_with_a_documented_example() -> None:
    assert isinstance(ObjectStore('memory://spills/protocol'), OverflowStore)
    # tests/test_docs.py runs the example; this keeps the public class from losing it.
    assert '```python' in (ObjectStore.__doc__ or '')


# --- file:// specifics -------------------------------------------------------------------------------


@pytest.mark.parametrize('backend', ['file'], indirect=True)
def test_on_a_shared_volume_a_link_planted_in_the_prefix_cannot_lead_outside(backend: Backend) -> None:
    store = backend.store()
    run(store.write('run/call.0', b'inside'))
    os.symlink(backend.outside[0], f'{backend.prefix}/run/link')
    os.symlink(os.path.dirname(backend.outside[0]), f'{backend.prefix}/dir-link')
    for handle in ('run/link', f'dir-link/{os.path.basename(backend.outside[0])}'):
        with pytest.raises(ForbiddenHandle):
            run(store.read(handle))


@pytest.mark.parametrize('backend', ['file'], indirect=True)
def test_on_a_shared_volume_writes_are_atomic_and_private(backend: Backend) -> None:
    store = backend.store()
    run(store.write('run/call.0', b'old'))
    run(store.write('run/call.0', b'new'))
    assert os.listdir(f'{backend.prefix}/run') == ['call.0']  # no temporary file left behind
    assert os.stat(f'{backend.prefix}/run/call.0').st_mode & 0o777 == 0o600
    assert run(store.read('run/call.0')) == b'new'
