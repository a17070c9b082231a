"""Misconfiguration is an error at construction where it can be known then; what fails at run time is logged once
per run and cause, counted, and never floods the model's context or fails the run."""

from __future__ import annotations

import logging
import warnings
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.exceptions import ModelHTTPError
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo, FunctionModel
from tests.agents import Script, call, done, respond, text_of, tool_returns
from tests.otel import OTelHarness

from observable_harness import ToolOutputLimits
from observable_harness.storage import LocalFileStore, UnsafeStoreRoot
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import Band, Spill, Summarize, Truncate, UnknownModelWarning

HUGE = '\n'.join(
    f'2026-11-30T12:{i // 60 % 60:02d}:{i % 60:02d} worker-{i % 7} processed batch {i}' for i in range(6_000)
)


# --- at construction -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ('make', 'error', 'message'),
    [
        (lambda: Band(over='10k', action=Truncate()), TypeError, r"whole number .* got '10k'"),  # type: ignore[arg-type]
        (lambda: Band(over=1.5, action=Truncate()), TypeError, 'whole number'),  # type: ignore[arg-type]
        (lambda: ToolOutputLimits(bands=[]), ValueError, r'bands=\[\] would let every return through whole'),
        (
            lambda: ToolOutputLimits(per_tool={'x': Band(over=10, action=Truncate())}),  # type: ignore[dict-item]
            TypeError,
            r"per_tool\['x'\] must be a list of bands; got one band\. Wrap it in a list",
        ),
        (
            lambda: ToolOutputLimits(per_tool=[Band(over=10, action=Truncate())]),  # type: ignore[arg-type]
            TypeError,
            'per_tool must map tool names to lists of bands',
        ),
        (
            lambda: ToolOutputLimits(bands=[Band(over=5_000, action=Truncate()), Band(over=5_000, action=Spill())]),
            ValueError,
            r'two bands with over=5,000 .* only one could ever apply',
        ),
        (lambda: Summarize(model='nosuchprovider:x'), ValueError, "no provider 'nosuchprovider'"),
    ],
)
def test_what_can_be_known_at_construction_is_an_error_then(make: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        make()


def test_a_model_name_pydantic_ai_does_not_list_is_a_warning_with_the_closest_name() -> None:
    with pytest.warns(UnknownModelWarning, match=r"'anthropic:claude-sonet-4' is not a model .* Did you mean"):
        Summarize(model='anthropic:claude-sonet-4')
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        Summarize(model='anthropic:claude-haiku-4-5')  # a listed model: no warning
        Summarize(model='test')


def test_a_store_root_that_is_a_file_is_an_error_at_construction(tmp_path: Path) -> None:
    (tmp_path / 'spills').write_text('a file')
    with pytest.raises(UnsafeStoreRoot, match='that is a file, not a directory'):
        ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path / 'spills'))


# --- at run time --------------------------------------------------------------------------------------


def not_found(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    raise ModelHTTPError(404, 'claude-sonet-4', {'error': {'message': 'model: claude-sonet-4 not found'}})


def run_with(limits: ToolOutputLimits[Any], calls: int = 2) -> Any:
    script = Script([respond(*(call('fetch_logs', call_id=f'c{i}') for i in range(calls))), done()])
    agent = Agent(script.model(), capabilities=[limits])
    agent.tool_plain(name='fetch_logs')(lambda: HUGE)
    return agent.run_sync('why did the batch stall?')


def test_a_summary_model_that_fails_without_then_still_bounds_the_output_and_says_why(
    otel: OTelHarness, caplog: pytest.LogCaptureFixture
) -> None:
    limits = ToolOutputLimits(bands=[Band(over=20_000, action=Summarize(model=FunctionModel(not_found)))])
    with caplog.at_level(logging.WARNING, logger='observable_harness'):
        result = run_with(limits)
    assert result.output == 'done'
    seen = [text_of(part) for part in tool_returns(result.all_messages(), 'fetch_logs')]
    assert len(seen) == 2
    for text in seen:
        assert len(text) <= 4_000 < len(HUGE)
        assert 'Every action configured for this output failed (summarize)' in text
    assert (
        otel.delta(names.FALLBACKS.name, from_action='summarize', to_action='last_resort', reason='ModelHTTPError') == 2
    )
    warnings_logged = [record.getMessage() for record in caplog.records if record.name == 'observable_harness']
    assert len(warnings_logged) == 1  # once per run and cause, however many calls hit it
    [warning] = warnings_logged
    assert "summarize failed on the output of tool 'fetch_logs' (ModelHTTPError" in warning
    assert "Check the model name, its provider's API key" in warning


def test_a_store_that_cannot_be_written_falls_back_and_is_logged_once(
    otel: OTelHarness, caplog: pytest.LogCaptureFixture
) -> None:
    limits = ToolOutputLimits(store=LocalFileStore(base_dir='/proc/observable-harness-cannot-exist'))
    with caplog.at_level(logging.WARNING, logger='observable_harness'):
        result = run_with(limits)
    seen = [text_of(part) for part in tool_returns(result.all_messages(), 'fetch_logs')]
    assert all('truncated by line class' in text and len(text) <= 4_000 for text in seen)
    [warning] = [
        r.getMessage() for r in caplog.records if r.name == 'observable_harness' and 'spill failed' in r.getMessage()
    ]
    assert 'fell back to truncate' in warning and 'Check the overflow store' in warning
    assert otel.delta(names.SPILL_FAILURES.name, store='LocalFileStore') == 2
