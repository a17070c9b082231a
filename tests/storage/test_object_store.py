"""ObjectStore on its own: a backend that stops answering, timeouts, S3 defaults, configuration errors, the
optional extra, and file:// on a shared volume.

What every store promises is in `test_contract.py`, which runs ObjectStore on S3 (moto), memory:// and file://.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pydantic_ai import Agent

from observable_harness import ToolOutputLimits
from observable_harness._text.paging import READ_TOOL_NAME
from observable_harness.storage._object import S3_DEFAULT_OPTIONS, _modified_at
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import (
    Band,
    ForbiddenHandle,
    ObjectStore,
    OverflowStore,
    OverflowStoreWarning,
    Spill,
    Truncate,
)
from tests.agents import Script, call, respond, text_of, tool_returns
from tests.otel import OTelHarness
from tests.s3_server import BUCKET, CREDENTIALS, MotoServer
from tests.storage.conftest import HOUR, Backend, run
from tests.storage.spills import LOG, spilling_agent


@pytest.mark.parametrize('backend', ['s3', 'memory', 'file'], indirect=True)
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
        ('fsspec', 's3://bucket/spills', "pip install 'observable-harness[s3]'"),
        ('fsspec', 'gs://bucket/spills', "pip install 'observable-harness[objectstore]' and gcsfs"),
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
