"""One `ToolOutputLimits` per agent, a read tool whose name can be set, and a read cache sized by a setting."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic_ai import Agent
from pydantic_ai.exceptions import UserError
from pydantic_ai.models.test import TestModel
from tests.agents import Script, call, done, handle_in, respond, text_of, tool_returns

from observable_harness import ToolOutputLimits
from observable_harness.tool_output_limits import Band, LocalFileStore, Truncate

LOG = '\n'.join(f'line {i} of a long build log' for i in range(2_000))


def test_the_same_configuration_stated_twice_is_one_capability() -> None:
    agent = Agent(TestModel(call_tools=[]), capabilities=[ToolOutputLimits(), ToolOutputLimits()])
    assert agent.run_sync('go').output


def test_two_different_configurations_fail_at_construction_naming_both() -> None:
    small = ToolOutputLimits(bands=[Band(over=5_000, action=Truncate())])
    with pytest.raises(UserError) as raised:
        Agent(TestModel(), capabilities=[ToolOutputLimits(), small])
    message = str(raised.value)
    assert '1. ToolOutputLimits();' in message
    assert '2. ToolOutputLimits(bands=[Band(over=5000' in message
    assert 'per_tool=' in message and 'read_tool_name=' in message
    assert 'summary_prompt' not in message  # only what was stated, not every default


def test_two_on_purpose_with_their_own_ids_and_read_tools_each_read_their_own_store(tmp_path: Path) -> None:
    logs = ToolOutputLimits(id='logs', read_tool_name='read_log', store=LocalFileStore(base_dir=tmp_path / 'logs'))
    other = ToolOutputLimits(
        id='other', read_tool_name='read_other', tool_filter=['fetch_page'], store=LocalFileStore(base_dir=tmp_path)
    )
    script = Script(
        [
            respond(call('fetch_logs', call_id='a')),
            lambda messages: respond(
                call('read_log', {'handle': handle_in(text_of(tool_returns(messages, 'fetch_logs')[-1]))}, 'r')
            ),
            done(),
        ]
    )
    agent = Agent(script.model(), capabilities=[logs, other])
    agent.tool_plain(name='fetch_logs')(lambda: LOG)
    result = agent.run_sync('go')
    [stand_in] = [text_of(part) for part in tool_returns(result.all_messages(), 'fetch_logs')]
    assert "Read it with read_log(handle='" in stand_in  # the stand-in names the read tool as registered
    [page] = [text_of(part) for part in tool_returns(result.all_messages(), 'read_log')]
    assert 'line 0 of a long build log' in page
    assert {tool.name for tool in script.tools_seen} >= {'read_log', 'read_other', 'fetch_logs'}


def test_a_tool_of_your_own_named_like_the_read_tool_gets_an_error_that_says_how_to_rename() -> None:
    agent = Agent(TestModel(), capabilities=[ToolOutputLimits()])
    agent.tool_plain(name='read_tool_result')(lambda: 'mine')
    with pytest.raises(UserError, match=r'read_tool_name='):
        agent.run_sync('go')
    renamed = Agent(TestModel(call_tools=[]), capabilities=[ToolOutputLimits(read_tool_name='read_stored_output')])
    renamed.tool_plain(name='read_tool_result')(lambda: 'mine')
    assert renamed.run_sync('go').output


@pytest.mark.parametrize(
    ('kwargs', 'message'),
    [
        ({'read_tool_name': 'read tool'}, 'valid tool name'),
        ({'read_tool_name': ''}, 'valid tool name'),
        ({'read_cache_bytes': -1}, 'read_cache_bytes must be >= 0'),
    ],
)
def test_bad_read_settings_are_clear_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ToolOutputLimits(**kwargs)  # pyright: ignore[reportArgumentType]


def test_the_read_cache_holds_at_most_what_the_setting_allows(tmp_path: Path) -> None:
    big = '\n'.join(f'{i:07d} ' + 'x' * 60 for i in range(8_000))  # ~550 KB: over the size worth caching
    for limit, kept in ((64 * 1024 * 1024, 1), (0, 0)):
        limits = ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path / str(limit)), read_cache_bytes=limit)
        script = Script(
            [
                respond(call('dump', call_id='d')),
                lambda m: respond(
                    call('read_tool_result', {'handle': handle_in(text_of(tool_returns(m, 'dump')[-1]))})
                ),
                lambda m: respond(
                    call('read_tool_result', {'handle': handle_in(text_of(tool_returns(m, 'dump')[-1])), 'offset': 200})
                ),
                done(),
            ]
        )
        agent = Agent(script.model(), capabilities=[limits])
        agent.tool_plain(name='dump')(lambda: big)
        agent.run_sync('go')
        assert len(limits._layouts) == kept
        assert limits._layouts.hits == kept
