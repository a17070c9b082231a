"""Retention of command-output originals: never | failures | always (SPEC BTO-7)."""

from __future__ import annotations

import asyncio
import copy
import pickle

import pytest

from observable_harness._text.lines import classify_lines
from observable_harness.bounded import CommandOutput, Retention, probable_failure
from observable_harness.bounded._retention import reported_exit_status
from observable_harness.telemetry import names
from tests.doubles import BrokenStore, MemoryStore
from tests.otel import OTelHarness
from tests.real_outputs import RealOutput


def retain(policy: str, output: str, store: object | None = None, **kwargs: object) -> tuple[MemoryStore, object]:
    memory = store if store is not None else MemoryStore()
    record = asyncio.run(Retention(policy).retain(output, memory, key='k', **kwargs))  # type: ignore[arg-type]
    return memory, record  # type: ignore[return-value]


def test_failures_keeps_only_probable_failures(real_outputs: dict[str, RealOutput], otel: OTelHarness) -> None:
    failed = real_outputs['pytest']
    store, record = retain('failures', CommandOutput(failed.text, exit_status=failed.exit_status))
    assert record.handle == 'k' and record.reason == 'exit_status'  # type: ignore[attr-defined]
    assert store.data['k'].decode() == failed.text
    listing = real_outputs['find']
    store, record = retain('failures', CommandOutput(listing.text, exit_status=0))
    assert store.data == {} and record.reason == 'no_failure'  # type: ignore[attr-defined]
    # Without a reported status, error lines decide.
    store, record = retain('failures', real_outputs['traffic:gcc_errors.txt'].text)
    assert record.reason == 'exit_status'  # type: ignore[attr-defined]  # the trailing `exit=1` line
    store, record = retain('failures', 'compiling...\nerror: out of memory\n')
    assert record.reason == 'error_lines'  # type: ignore[attr-defined]
    assert otel.delta(names.BOUNDED_RETENTION_WRITES.name, policy='failures', reason='exit_status') == 2
    assert otel.delta(names.BOUNDED_RETENTION_WRITES.name, policy='failures', reason='error_lines') == 1


def test_never_and_always() -> None:
    store, record = retain('never', CommandOutput('error: boom', exit_status=2))
    assert store.data == {} and record.reason == 'never'  # type: ignore[attr-defined]
    store, record = retain('always', CommandOutput('all good', exit_status=0))
    assert store.data == {'k': b'all good'} and record.reason == 'always'  # type: ignore[attr-defined]


def test_a_failing_store_is_recorded_not_raised(otel: OTelHarness) -> None:
    _, record = retain('always', 'output', store=BrokenStore(PermissionError('read-only file system')))
    assert record.handle is None and record.reason == 'store_failed'  # type: ignore[attr-defined]
    [span] = otel.spans(names.SPAN_RETAIN)
    assert dict(span.attributes or {})[names.BOUNDED_RETENTION_KEPT] is False


def test_exit_status_reported_by_the_tool_or_its_last_lines() -> None:
    assert reported_exit_status(CommandOutput('x', exit_status=3)) == 3
    assert reported_exit_status('building\nexit status 2\n') == 2
    assert reported_exit_status('no status here') is None
    assert reported_exit_status({'exit': 1}) is None
    lines = ['ERROR: flaky log line but the run passed']
    assert probable_failure(0, classify_lines(lines)) is None
    assert probable_failure(None, classify_lines(lines)) == 'error_lines'


def test_command_output_is_a_str_that_survives_copies_and_pickling() -> None:
    out = CommandOutput('done\n', exit_status=1)
    assert out == 'done\n' and isinstance(out, str) and out.upper() == 'DONE\n'
    for clone in (copy.copy(out), copy.deepcopy(out), pickle.loads(pickle.dumps(out))):
        assert isinstance(clone, CommandOutput) and clone.exit_status == 1 and clone == out


def test_unknown_policy_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="'never', 'failures' or 'always'"):
        Retention('sometimes')  # type: ignore[arg-type]
