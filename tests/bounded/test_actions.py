"""Condense and Offload as ToolOutputLimits actions, through real agent runs (SPEC BTO-2, BTO-5, BTO-7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.messages import BinaryContent

from observable_harness import ToolOutputLimits
from observable_harness.bounded import CommandOutput, Condense, Offload, Scrubber, ScrubResult
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import Band, LocalFileStore, Spill, Truncate
from tests.agents import Script, call, done, handle_in, read_back, respond, text_of, tool_returns
from tests.doubles import BrokenStore, MemoryStore
from tests.otel import OTelHarness
from tests.real_outputs import RealOutput


def make_agent(script: Script, capability: ToolOutputLimits[Any], **tools: Any) -> Agent[None, str]:
    agent = Agent(script.model(), capabilities=[capability])
    for name, func in tools.items():
        agent.tool_plain(name=name)(func)
    return agent


def returns_of(messages: Any, tool: str) -> list[str]:
    return [text_of(part) for part in tool_returns(messages, tool)]


def test_condense_failed_run_keeps_original_and_model_reads_it_back(
    real_outputs: dict[str, RealOutput], tmp_path: Path, otel: OTelHarness
) -> None:
    run = real_outputs['pytest']
    limits = ToolOutputLimits(
        per_tool={'run_tests': [Band(over=2_000, action=Condense(level='daily', max_chars=3_000, then=Truncate()))]},
        store=LocalFileStore(base_dir=tmp_path),
    )
    script = Script([respond(call('run_tests')), lambda m: read_back(m, 'run_tests', offset=0, limit=400), done()])
    agent = make_agent(script, limits, run_tests=lambda: CommandOutput(run.text, exit_status=run.exit_status))
    result = agent.run_sync('run the tests')

    [seen] = returns_of(script.received[1], 'run_tests')
    [kept] = returns_of(result.all_messages(), 'run_tests')
    assert kept == seen  # reduced once, and the reduced form is what history keeps
    assert len(seen) <= 3_000
    assert seen.startswith('[condensed · level daily')
    assert 'full original kept' in seen and 'read_tool_result(handle=' in seen
    final = run.text.rstrip('\n').splitlines()[-1]
    assert final in seen
    [page] = returns_of(result.all_messages(), 'read_tool_result')
    assert run.text.splitlines()[1] in page  # the read-back serves the original, not the condensed text

    [reduce_span] = otel.spans(names.SPAN_REDUCE)
    attributes = dict(reduce_span.attributes or {})
    assert attributes[names.TOOL_OUTPUT_ACTION] == 'condense'
    assert attributes[names.TOOL_OUTPUT_OUTCOME] == 'condense'
    assert attributes[names.BOUNDED_LEVEL] == 'daily'
    assert attributes[names.BOUNDED_RETENTION_KEPT] is True
    assert attributes[names.TOOL_OUTPUT_HANDLE] == handle_in(seen)
    [condense_span] = otel.spans(names.SPAN_CONDENSE)
    assert condense_span.parent is not None and reduce_span.context is not None
    assert condense_span.parent.span_id == reduce_span.context.span_id
    [retain_span] = otel.spans(names.SPAN_RETAIN)
    assert dict(retain_span.attributes or {})[names.BOUNDED_RETENTION_REASON] == 'exit_status'
    assert otel.delta(names.BOUNDED_RETENTION_WRITES.name, policy='failures', reason='exit_status') == 1


def test_condense_success_is_not_retained_under_failures_policy(tmp_path: Path) -> None:
    listing = '\n'.join(f'/srv/app/module_{i}.py' for i in range(2_000))
    limits = ToolOutputLimits(
        bands=[Band(over=1_000, action=Condense(max_chars=1_500))], store=LocalFileStore(base_dir=tmp_path)
    )
    script = Script([respond(call('ls')), done()])
    agent = make_agent(script, limits, ls=lambda: CommandOutput(listing, exit_status=0))
    [out] = returns_of(agent.run_sync('list').all_messages(), 'ls')
    assert "original not kept (no failure seen, retain='failures')" in out
    assert not any(tmp_path.rglob('*.*'))  # nothing was written


def test_condense_store_failure_still_condenses_and_says_the_original_is_lost() -> None:
    log = '\n'.join([*(f'step {i}: compiling unit_{i}' for i in range(600)), 'error: link failed'])
    limits = ToolOutputLimits(bands=[Band(over=1_000, action=Condense(max_chars=1_200))], store=BrokenStore())
    script = Script([respond(call('build')), done()])
    agent = make_agent(script, limits, build=lambda: log)
    result = agent.run_sync('build it')
    [out] = returns_of(result.all_messages(), 'build')
    assert 'the original could not be stored' in out and 'error: link failed' in out
    assert len(out) <= 1_200
    assert result.output == 'done'


def test_condense_hands_binary_to_then(tmp_path: Path) -> None:
    blob = BinaryContent(data=b'\x89PNG' + b'\x00' * 50_000, media_type='image/png')
    limits = ToolOutputLimits(
        bands=[Band(over=1_000, action=Condense(then=Spill()))], store=LocalFileStore(base_dir=tmp_path)
    )
    script = Script([respond(call('shot')), done()])
    agent = make_agent(script, limits, shot=lambda: blob)
    [out] = returns_of(agent.run_sync('shoot').all_messages(), 'shot')
    assert out.startswith('[Binary output of shot')


def test_offload_shows_a_navigation_summary_and_a_content_named_handle(
    real_outputs: dict[str, RealOutput], tmp_path: Path, otel: OTelHarness
) -> None:
    run = real_outputs['pytest']
    limits = ToolOutputLimits(
        bands=[Band(over=2_000, action=Offload(then=Truncate()))], store=LocalFileStore(base_dir=tmp_path)
    )
    script = Script([respond(call('run_tests')), lambda m: read_back(m, 'run_tests', limit=20), done()])
    agent = make_agent(script, limits, run_tests=lambda: run.text)
    result = agent.run_sync('go')
    [seen] = returns_of(result.all_messages(), 'run_tests')
    header, *summary = seen.splitlines()
    handle = handle_in(header)
    assert handle.startswith('offload/run_tests/test_run-')
    assert [line.split(':', 1)[0] for line in summary] == ['About', 'Kind', 'Notable']
    assert len(' '.join(summary).split()) <= 150
    assert 'failed' in summary[0] and 'passed' in summary[0]
    # The store listing alone says what was collected: the file is named after its content.
    [stored] = [p for p in tmp_path.rglob('*') if p.is_file()]
    assert 'test_run-' in stored.name and 'failed' in stored.name
    [page] = returns_of(result.all_messages(), 'read_tool_result')
    assert run.text.splitlines()[0] in page
    [span] = otel.spans(names.SPAN_OFFLOAD)
    attributes = dict(span.attributes or {})
    assert attributes[names.TOOL_OUTPUT_HANDLE] == handle
    assert attributes[names.BOUNDED_OFFLOAD_KIND] == 'test_run'
    assert attributes[names.BOUNDED_OFFLOAD_SUMMARIZER] == 'deterministic'
    [reduce_span] = otel.spans(names.SPAN_REDUCE)
    assert dict(reduce_span.attributes or {})[names.TOOL_OUTPUT_OUTCOME] == 'offload'


def test_offload_same_content_same_name_and_failing_summarizer_falls_back(tmp_path: Path) -> None:
    page = '# Quarterly report\n' + '\n'.join(f'- item {i}: revenue grew in region {i % 9}' for i in range(400))

    def summarizer(tool_name: str, text: str) -> str:
        raise RuntimeError('model unavailable')

    limits = ToolOutputLimits(
        bands=[Band(over=1_000, action=Offload(summarize=summarizer))], store=LocalFileStore(base_dir=tmp_path)
    )
    script = Script([respond(call('fetch', call_id='a')), respond(call('fetch', call_id='b')), done()])
    agent = make_agent(script, limits, fetch=lambda: page)
    outs = returns_of(agent.run_sync('go').all_messages(), 'fetch')
    assert len(outs) == 2
    assert handle_in(outs[0]) == handle_in(outs[1]) and handle_in(outs[0]).startswith('offload/fetch/markdown-')
    assert 'About: a Markdown document from fetch: # Quarterly report' in outs[0]


def test_offload_with_a_custom_summarizer(tmp_path: Path) -> None:
    async def summarizer(tool_name: str, text: str) -> str:
        return f'About: {tool_name} output of {len(text)} chars. ' + 'word ' * 500

    limits = ToolOutputLimits(
        bands=[Band(over=100, action=Offload(summarize=summarizer, max_words=40))],
        store=LocalFileStore(base_dir=tmp_path),
    )
    script = Script([respond(call('fetch')), done()])
    agent = make_agent(script, limits, fetch=lambda: 'x\n' * 1_000)
    [out] = returns_of(agent.run_sync('go').all_messages(), 'fetch')
    body = out.split(']\n', 1)[1]
    assert body.startswith('Summary: About: fetch output of 2000 chars.')
    assert len(body.split()) <= 40


def test_offload_whose_store_fails_goes_to_then() -> None:
    limits = ToolOutputLimits(bands=[Band(over=100, action=Offload(then=Truncate(max_chars=500)))], store=BrokenStore())
    script = Script([respond(call('fetch')), done()])
    agent = make_agent(script, limits, fetch=lambda: 'line\n' * 1_000)
    [out] = returns_of(agent.run_sync('go').all_messages(), 'fetch')
    assert len(out) <= 500 and 'truncated' in out


SECRET_LOG = '\n'.join(f'step {i}: applying migration {i}' for i in range(400)) + '\nexport DB_PASSWORD=hunter2-prod\n'


def stored_after_one_call(action: Any, scrubber_on_capability: bool = True) -> tuple[bytes, int]:
    """What reached the store when a tool's return went through `action`, and how many writes there were."""
    store = MemoryStore()
    limits = ToolOutputLimits(per_tool={'migrate': [Band(over=1_000, action=action)]}, store=store)
    if not scrubber_on_capability:
        limits = ToolOutputLimits(per_tool={'migrate': [Band(over=1_000, action=action)]}, store=store, scrubber=None)
    make_agent(Script([respond(call('migrate')), done()]), limits, migrate=lambda: SECRET_LOG).run_sync('migrate')
    [stored] = store.data.values()
    return stored, store.writes


def test_offload_without_a_scrubber_stores_verbatim_whatever_the_capability_scrubs() -> None:
    stored, writes = stored_after_one_call(Offload(scrubber=None))
    assert writes == 1
    assert stored == SECRET_LOG.encode()


@dataclass(frozen=True)
class CountingScrubber(Scrubber):
    """The default scrubber, counting the texts it is handed."""

    calls: list[int] = field(default_factory=list[int])

    def scrub(self, text: str, *, utf8: bytes | None = None) -> ScrubResult[str]:
        self.calls.append(len(text))
        return super().scrub(text, utf8=utf8)


def test_each_write_path_scrubs_exactly_once() -> None:
    for make_action in (
        lambda scrubber: Offload(scrubber=scrubber),
        lambda scrubber: Condense(level='daily', retain='always', scrubber=scrubber),
        lambda _: Spill(),
    ):
        scrubber = CountingScrubber()
        store = MemoryStore()
        limits = ToolOutputLimits(
            per_tool={'migrate': [Band(over=1_000, action=make_action(scrubber))]}, store=store, scrubber=scrubber
        )
        make_agent(Script([respond(call('migrate')), done()]), limits, migrate=lambda: SECRET_LOG).run_sync('go')
        [stored] = store.data.values()
        assert b'hunter2-prod' not in stored and b'DB_PASSWORD=[REDACTED:assignment]' in stored
        assert scrubber.calls == [len(SECRET_LOG)], make_action


def test_the_capability_scrubber_does_not_reach_an_action_that_brings_its_own(otel: OTelHarness) -> None:
    stored, _ = stored_after_one_call(Condense(level='daily', retain='always'), scrubber_on_capability=False)
    assert b'DB_PASSWORD=[REDACTED:assignment]' in stored
    assert otel.delta(names.BOUNDED_REDACTIONS_TOTAL.name, kind='assignment') == 1
    stored, _ = stored_after_one_call(Spill(), scrubber_on_capability=False)
    assert stored == SECRET_LOG.encode()
