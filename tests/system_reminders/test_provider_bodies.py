"""The cache guarantee where it matters: the JSON bodies the real Anthropic and OpenAI clients put on the wire.

The providers' HTTP clients get an `httpx.MockTransport` that records each request body and answers with valid API
responses (tool calls, then a final text turn), so everything from pydantic-ai's message mapping to the SDK's
serialization is the real code path.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import httpx2 as httpx
import pytest
from anthropic import AsyncAnthropic
from openai import AsyncOpenAI
from pydantic_ai import Agent
from pydantic_ai.models.anthropic import AnthropicModel
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.anthropic import AnthropicProvider
from pydantic_ai.providers.openai import OpenAIProvider

from observable_harness import SystemReminders
from observable_harness.system_reminders import GoalReanchor, Reminder

from .helpers import assert_history_clean

REMINDER = Reminder('Quote file paths exactly.', name='paths')
REMINDER_TEXT = '<system-reminder>\nQuote file paths exactly.\n</system-reminder>'
GOAL = 'Find where the config is loaded.'


class Recorder:
    """A mock transport handler: records each JSON body, answers with the next scripted response.

    A request that asks for a stream (pydantic-ai's Anthropic model streams even for `request()`) gets the same
    message as Messages API server-sent events.
    """

    def __init__(self, responses: list[dict[str, Any]]) -> None:
        self.responses = responses
        self.bodies: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.bodies.append(body)
        response = self.responses[len(self.bodies) - 1]
        if body.get('stream'):
            return httpx.Response(
                200, content=anthropic_events(response), headers={'content-type': 'text/event-stream'}
            )
        return httpx.Response(200, json=response)


def anthropic_events(message: dict[str, Any]) -> bytes:
    """A Messages API response as the server-sent events a streamed request receives."""
    events: list[dict[str, Any]] = [
        {'type': 'message_start', 'message': {**message, 'content': [], 'stop_reason': None}},
    ]
    for index, block in enumerate(message['content']):
        if block['type'] == 'text':
            events.append(
                {'type': 'content_block_start', 'index': index, 'content_block': {'type': 'text', 'text': ''}}
            )
            delta = {'type': 'text_delta', 'text': block['text']}
        else:
            events.append({'type': 'content_block_start', 'index': index, 'content_block': {**block, 'input': {}}})
            delta = {'type': 'input_json_delta', 'partial_json': json.dumps(block['input'])}
        events.append({'type': 'content_block_delta', 'index': index, 'delta': delta})
        events.append({'type': 'content_block_stop', 'index': index})
    events.append(
        {
            'type': 'message_delta',
            'delta': {'stop_reason': message['stop_reason'], 'stop_sequence': None},
            'usage': {'output_tokens': message['usage']['output_tokens']},
        }
    )
    events.append({'type': 'message_stop'})
    return b''.join(f'event: {event["type"]}\ndata: {json.dumps(event)}\n\n'.encode() for event in events)


def anthropic_responses(tool_calls: int) -> list[dict[str, Any]]:
    def message(index: int, content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
        return {
            'id': f'msg_{index}',
            'type': 'message',
            'role': 'assistant',
            'model': 'claude-sonnet-4-6',
            'content': content,
            'stop_reason': stop,
            'stop_sequence': None,
            'usage': {'input_tokens': 100 + index, 'output_tokens': 10},
        }

    calls = [
        message(
            i,
            [{'type': 'tool_use', 'id': f'toolu_{i}', 'name': 'read_file', 'input': {'path': f'f{i}.py'}}],
            'tool_use',
        )
        for i in range(tool_calls)
    ]
    return [*calls, message(tool_calls, [{'type': 'text', 'text': 'It is loaded in settings.py.'}], 'end_turn')]


def openai_responses(tool_calls: int) -> list[dict[str, Any]]:
    def completion(index: int, message: dict[str, Any], finish: str) -> dict[str, Any]:
        return {
            'id': f'chatcmpl-{index}',
            'object': 'chat.completion',
            'created': 1_700_000_000,
            'model': 'gpt-4o',
            'choices': [{'index': 0, 'message': message, 'finish_reason': finish, 'logprobs': None}],
            'usage': {'prompt_tokens': 100 + index, 'completion_tokens': 10, 'total_tokens': 110 + index},
        }

    calls = [
        completion(
            i,
            {
                'role': 'assistant',
                'content': None,
                'tool_calls': [
                    {
                        'id': f'call_{i}',
                        'type': 'function',
                        'function': {'name': 'read_file', 'arguments': json.dumps({'path': f'f{i}.py'})},
                    }
                ],
            },
            'tool_calls',
        )
        for i in range(tool_calls)
    ]
    final = completion(tool_calls, {'role': 'assistant', 'content': 'It is loaded in settings.py.'}, 'stop')
    return [*calls, final]


def with_tool(agent: Agent[None, str]) -> Agent[None, str]:
    @agent.tool_plain
    def read_file(path: str) -> str:
        return f'contents of {path}\n' * 3

    return agent


def anthropic_agent(recorder: Recorder, *capabilities: Any, **kwargs: Any) -> Agent[None, str]:
    client = AsyncAnthropic(
        api_key='x', max_retries=0, http_client=httpx.AsyncClient(transport=httpx.MockTransport(recorder))
    )
    model = AnthropicModel('claude-sonnet-4-6', provider=AnthropicProvider(anthropic_client=client))
    return with_tool(Agent(model, capabilities=list(capabilities), **kwargs))


def openai_agent(recorder: Recorder, *capabilities: Any, **kwargs: Any) -> Agent[None, str]:
    client = AsyncOpenAI(
        api_key='x', max_retries=0, http_client=httpx.AsyncClient(transport=httpx.MockTransport(recorder))
    )
    model = OpenAIChatModel('gpt-4o', provider=OpenAIProvider(openai_client=client))
    return with_tool(Agent(model, capabilities=list(capabilities), **kwargs))


def canonical(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


def without_cache_control(block: dict[str, Any]) -> dict[str, Any]:
    # The breakpoint marker moves to the newest block every turn; the cache matches on content, not on the marker.
    return {key: value for key, value in block.items() if key != 'cache_control'}


def anthropic_cache_order(body: dict[str, Any]) -> list[bytes]:
    """The body as Anthropic caches it, block by block: tools, then system, then each message's content blocks."""
    stream = [canonical(['tool', tool]) for tool in body.get('tools', [])]
    stream.append(canonical(['system', body.get('system')]))
    for message in body['messages']:
        content = message['content']
        blocks = [{'type': 'text', 'text': content}] if isinstance(content, str) else content
        stream.extend(canonical([message['role'], without_cache_control(block)]) for block in blocks)
    return stream


def openai_cache_order(body: dict[str, Any]) -> list[bytes]:
    stream = [canonical(['tool', tool]) for tool in body.get('tools', [])]
    stream.extend(canonical(message) for message in body['messages'])
    return stream


def assert_each_turn_prefixes_the_next(
    bodies: list[dict[str, Any]], cache_order: Callable[[dict[str, Any]], list[bytes]], tail_entries: int
) -> None:
    """For every turn, the body before the ephemeral tail is a byte-identical prefix of the next turn's body."""
    for turn, (body, following) in enumerate(itertools.pairwise(bodies), start=1):
        before_tail = b'\n'.join(cache_order(body)[:-tail_entries])
        assert b'\n'.join(cache_order(following)).startswith(before_tail + b'\n'), f'turn {turn} broke the prefix'


def test_anthropic_cache_control_sits_right_before_the_reminder_and_the_prefix_holds() -> None:
    recorder = Recorder(anthropic_responses(tool_calls=3))
    agent = anthropic_agent(
        recorder,
        SystemReminders(reminders=[REMINDER], dynamic_reminders=[GoalReanchor()], cache_ttl='1h'),
        instructions='You are a careful code assistant.',
    )

    result = agent.run_sync(GOAL)

    assert result.output == 'It is loaded in settings.py.'
    assert len(recorder.bodies) == 4
    for body in recorder.bodies:
        last_message = body['messages'][-1]
        assert last_message['role'] == 'user'
        *before, reminder_block = last_message['content']
        assert reminder_block['type'] == 'text'
        assert reminder_block['text'].startswith(REMINDER_TEXT + '\n\n<system-reminder>\nThe original request')
        assert 'cache_control' not in reminder_block
        # The breakpoint is on the block right before the reminder (the prompt, or the latest tool result)...
        assert before, 'the reminder should share the user turn with the content it follows'
        assert before[-1]['cache_control'] == {'type': 'ephemeral', 'ttl': '1h'}
        # ...and it is the only one in the request; no earlier turn's reminder is left behind on the wire.
        assert json.dumps(body).count('cache_control') == 1
        assert json.dumps(body).count('Quote file paths exactly') == 1
        # Instructions stay in the system prompt, untouched by reminders.
        assert 'careful code assistant' in json.dumps(body['system'])
        assert 'system-reminder' not in json.dumps(body['system'])
    assert recorder.bodies[0]['messages'][0]['content'][0]['text'] == GOAL
    assert [body['messages'][-1]['content'][0]['type'] for body in recorder.bodies[1:]] == ['tool_result'] * 3
    assert_each_turn_prefixes_the_next(recorder.bodies, anthropic_cache_order, tail_entries=1)
    assert_history_clean(result.all_messages(), 'system-reminder')


@pytest.mark.parametrize('ttl', ['5m', '1h'])
def test_anthropic_breakpoint_uses_the_configured_ttl(ttl: Any) -> None:
    recorder = Recorder(anthropic_responses(tool_calls=1))
    agent = anthropic_agent(recorder, SystemReminders(reminders=[REMINDER], cache_ttl=ttl))

    agent.run_sync(GOAL)

    markers = [
        block['cache_control']
        for body in recorder.bodies
        for message in body['messages']
        for block in message['content']
        if 'cache_control' in block
    ]
    assert len(markers) == 2
    assert all(marker['type'] == 'ephemeral' for marker in markers)
    assert all(marker.get('ttl', '5m') == ttl for marker in markers)


def test_anthropic_instructions_only_first_request_gets_the_reminder_without_a_breakpoint() -> None:
    recorder = Recorder(anthropic_responses(tool_calls=1))
    agent = anthropic_agent(recorder, SystemReminders(reminders=[REMINDER]), instructions='Inspect the repository.')

    result = agent.run_sync()  # no prompt: without content to attach to, a CachePoint would be a UserError

    first, second = recorder.bodies
    assert first['messages'] == [{'role': 'user', 'content': [{'type': 'text', 'text': REMINDER_TEXT}]}]
    assert 'cache_control' not in json.dumps(first)
    assert second['messages'][-1]['content'][-2]['cache_control']['type'] == 'ephemeral'
    assert result.output == 'It is loaded in settings.py.'


def test_openai_chat_receives_the_reminder_and_ignores_the_cache_point() -> None:
    recorder = Recorder(openai_responses(tool_calls=3))
    agent = openai_agent(
        recorder,
        SystemReminders(reminders=[REMINDER], dynamic_reminders=[GoalReanchor()]),
        instructions='You are a careful code assistant.',
    )

    result = agent.run_sync(GOAL)

    assert result.output == 'It is loaded in settings.py.'
    assert len(recorder.bodies) == 4
    for turn, body in enumerate(recorder.bodies):
        *_, reminder_message = body['messages']
        assert reminder_message['role'] == 'user'
        content = reminder_message['content']
        text = content if isinstance(content, str) else ''.join(part['text'] for part in content)
        assert text.startswith(REMINDER_TEXT + '\n\n<system-reminder>\nThe original request for this run was:')
        assert GOAL in text
        assert 'cache_control' not in json.dumps(body)
        assert 'cache-point' not in json.dumps(body)
        assert json.dumps(body).count('Quote file paths exactly') == 1
        if turn:
            # The reminder follows the tool result it rides behind; the tool message itself is untouched.
            assert body['messages'][-2]['role'] == 'tool'
            assert 'system-reminder' not in json.dumps(body['messages'][-2])
    assert recorder.bodies[0]['messages'][0] == {'role': 'system', 'content': 'You are a careful code assistant.'}
    assert_each_turn_prefixes_the_next(recorder.bodies, openai_cache_order, tail_entries=1)
    assert_history_clean(result.all_messages(), 'system-reminder')
