"""Usage, price and avoided cost through the real Anthropic and OpenAI clients, against genai-prices itself.

The providers' HTTP clients get an `httpx.MockTransport` answering with responses that carry cache reads and
writes, so pydantic-ai's own usage mapping runs. Every expected price here is computed independently with
`genai_prices.calc_price` on the usage the provider reported; sockets are refused for the whole test, so a
price fetched over the network would fail it.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2 as httpx
import pytest
from anthropic import AsyncAnthropic
from genai_prices import calc_price
from openai import AsyncOpenAI
from pydantic_ai import Agent
from pydantic_ai.messages import ModelResponse
from pydantic_ai.models.anthropic import AnthropicModel
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.anthropic import AnthropicProvider
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.usage import RequestUsage

from observable_harness import SystemReminders, ToolOutputLimits
from observable_harness.system_reminders import Reminder
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import Band, Truncate
from tests.otel import OTelHarness
from tests.system_reminders.test_provider_bodies import Recorder

TOOL_OUTPUT = '\n'.join(f'src/module_{i}.py:{i}: def handler_{i}(request): ...' for i in range(800))
REMINDER = Reminder('Quote file paths exactly.', interval=2, name='paths')
CALLS = 3


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Refuse every outgoing connection and name lookup; the test fails if anything tried one."""
    attempts: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError('network access is refused in this test')

    monkeypatch.setattr(socket.socket, 'connect', refuse)
    monkeypatch.setattr(socket.socket, 'connect_ex', refuse)
    monkeypatch.setattr(socket, 'getaddrinfo', refuse)
    monkeypatch.setattr(socket, 'create_connection', refuse)
    yield attempts
    assert attempts == []


@dataclass(frozen=True)
class Billed:
    """One response's usage as the provider's wire format gives it."""

    uncached: int
    cache_read: int
    cache_write: int
    output: int

    @property
    def request_usage(self) -> RequestUsage:
        return RequestUsage(
            input_tokens=self.uncached + self.cache_read + self.cache_write,
            cache_read_tokens=self.cache_read,
            cache_write_tokens=self.cache_write,
            output_tokens=self.output,
        )


# A warm cache: after the first request, the history is read back and only the newest turn is written.
BILLED = [
    Billed(40, 0, 1_800, 25),
    Billed(40, 1_800, 2_100, 25),
    Billed(40, 3_900, 2_100, 25),
    Billed(40, 6_000, 0, 12),
]


def anthropic_messages(model: str) -> list[dict[str, Any]]:
    def message(index: int, content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
        billed = BILLED[index]
        return {
            'id': f'msg_{index}',
            'type': 'message',
            'role': 'assistant',
            'model': model,
            'content': content,
            'stop_reason': stop,
            'stop_sequence': None,
            'usage': {
                'input_tokens': billed.uncached,
                'cache_read_input_tokens': billed.cache_read,
                'cache_creation_input_tokens': billed.cache_write,
                'output_tokens': billed.output,
            },
        }

    calls = [
        message(
            i, [{'type': 'tool_use', 'id': f'toolu_{i}', 'name': 'grep', 'input': {'pattern': f'p{i}'}}], 'tool_use'
        )
        for i in range(CALLS)
    ]
    return [*calls, message(CALLS, [{'type': 'text', 'text': 'Found it.'}], 'end_turn')]


def openai_completions(model: str) -> list[dict[str, Any]]:
    def completion(index: int, message: dict[str, Any], finish: str) -> dict[str, Any]:
        billed = BILLED[index]
        prompt = billed.uncached + billed.cache_read + billed.cache_write
        return {
            'id': f'chatcmpl-{index}',
            'object': 'chat.completion',
            'created': 1_700_000_000,
            'model': model,
            'choices': [{'index': 0, 'message': message, 'finish_reason': finish, 'logprobs': None}],
            'usage': {
                'prompt_tokens': prompt,
                'completion_tokens': billed.output,
                'total_tokens': prompt + billed.output,
                'prompt_tokens_details': {'cached_tokens': billed.cache_read, 'cache_write_tokens': billed.cache_write},
            },
        }

    def tool_call(i: int) -> dict[str, Any]:
        arguments = json.dumps({'pattern': f'p{i}'})
        call = {'id': f'call_{i}', 'type': 'function', 'function': {'name': 'grep', 'arguments': arguments}}
        return {'role': 'assistant', 'content': None, 'tool_calls': [call]}

    calls = [completion(i, tool_call(i), 'tool_calls') for i in range(CALLS)]
    return [*calls, completion(CALLS, {'role': 'assistant', 'content': 'Found it.'}, 'stop')]


def limits() -> ToolOutputLimits[Any]:
    return ToolOutputLimits(bands=[Band(over=2_000, action=Truncate(max_chars=1_000))])


def build(client: str, model: str, *capabilities: Any) -> tuple[Agent[None, str], Recorder]:
    if client == 'anthropic':
        recorder = Recorder(anthropic_messages(model))
        anthropic = AsyncAnthropic(
            api_key='x', max_retries=0, http_client=httpx.AsyncClient(transport=httpx.MockTransport(recorder))
        )
        agent_model: Any = AnthropicModel(model, provider=AnthropicProvider(anthropic_client=anthropic))
    else:
        recorder = Recorder(openai_completions(model))
        openai = AsyncOpenAI(
            api_key='x', max_retries=0, http_client=httpx.AsyncClient(transport=httpx.MockTransport(recorder))
        )
        agent_model = OpenAIChatModel(model, provider=OpenAIProvider(openai_client=openai))
    agent = Agent(agent_model, capabilities=list(capabilities), name='finder')

    @agent.tool_plain
    def grep(pattern: str) -> str:
        return TOOL_OUTPUT

    return agent, recorder


def avoided_before_each_request(otel: OTelHarness) -> list[int]:
    """Tokens kept out of each request: what every reduction made before it saved (~4 characters a token)."""
    saved: list[int] = []
    for span in otel.spans(names.SPAN_REDUCE):
        attributes = dict(span.attributes or {})
        size, output = attributes[names.TOOL_OUTPUT_SIZE], attributes[names.TOOL_OUTPUT_OUTPUT_CHARS]
        assert isinstance(size, int) and isinstance(output, int)
        saved.append((size - output) // 4)
    assert len(saved) == CALLS
    return [sum(saved[:request]) for request in range(CALLS + 1)]


def marginal(usage: RequestUsage, model: str, provider: str, tokens: int, read: int) -> float:
    """genai-prices' price of `usage` with `tokens` more input, `read` of them cache reads, minus its own price."""
    grown = RequestUsage(
        input_tokens=usage.input_tokens + tokens,
        cache_read_tokens=usage.cache_read_tokens + read,
        cache_write_tokens=usage.cache_write_tokens,
        output_tokens=usage.output_tokens,
    )
    before = calc_price(usage, model, provider_id=provider).total_price
    return float(calc_price(grown, model, provider_id=provider).total_price - before)


def assert_recorded_like_genai_prices(otel: OTelHarness, model: str, provider: str) -> None:
    labels = {'model': model, 'provider': provider}
    for kind, field in (
        ('uncached_input', 'uncached'),
        ('cache_read', 'cache_read'),
        ('cache_write', 'cache_write'),
        ('output', 'output'),
    ):
        expected = sum(getattr(billed, field) for billed in BILLED)
        assert otel.delta(names.USAGE_TOKENS.name, type=kind, **labels) == expected, kind
    assert otel.delta(names.USAGE_RESPONSES.name, pricing='priced', **labels) == len(BILLED)
    assert otel.delta(names.USAGE_RESPONSES.name) == len(BILLED)

    prices = [calc_price(billed.request_usage, model, provider_id=provider) for billed in BILLED]
    spent_in = otel.delta(names.USAGE_COST.name, direction='input', **labels)
    spent_out = otel.delta(names.USAGE_COST.name, direction='output', **labels)
    assert spent_in == pytest.approx(float(sum(p.input_price for p in prices)), rel=1e-9)
    assert spent_out == pytest.approx(float(sum(p.output_price for p in prices)), rel=1e-9)
    assert spent_in > 0 and spent_out > 0

    [run_cost] = otel.series(names.USAGE_RUN_COST.name)
    assert run_cost.attributes == {'agent': 'finder'}
    assert run_cost.value == 1
    assert run_cost.sum == pytest.approx(float(sum(p.total_price for p in prices)), rel=1e-9)

    avoided = avoided_before_each_request(otel)
    assert avoided[0] == 0 and avoided[-1] > 10_000
    lower = upper = expected = 0.0
    for billed, tokens in zip(BILLED, avoided, strict=True):
        usage = billed.request_usage
        share = usage.cache_read_tokens / usage.input_tokens
        lower += marginal(usage, model, provider, tokens, read=tokens)
        upper += marginal(usage, model, provider, tokens, read=0)
        expected += marginal(usage, model, provider, tokens, read=round(tokens * share))
    recorded = {
        estimate: otel.delta(names.COST_AVOIDED.name, tool='grep', model=model, estimate=estimate)
        for estimate in ('lower', 'expected', 'upper')
    }
    assert recorded['lower'] == pytest.approx(lower, rel=1e-9)
    assert recorded['upper'] == pytest.approx(upper, rel=1e-9)
    assert recorded['expected'] == pytest.approx(expected, rel=1e-9)
    assert 0 < recorded['lower'] < recorded['expected'] < recorded['upper']


@pytest.mark.usefixtures('no_network')
def test_anthropic_usage_prices_and_avoided_range_match_genai_prices(otel: OTelHarness) -> None:
    model = 'claude-sonnet-4-6'
    agent, recorder = build('anthropic', model, limits(), SystemReminders(reminders=[REMINDER]))

    result = agent.run_sync('Where is the request handler?')

    assert result.output == 'Found it.'
    assert len(recorder.bodies) == len(BILLED)
    # Both capabilities saw every response; each was recorded once.
    assert_recorded_like_genai_prices(otel, model, 'anthropic')

    # The reminder's requests against the others, from what really went on the wire.
    reminded = ['Quote file paths exactly' in json.dumps(body) for body in recorder.bodies]
    assert True in reminded and False in reminded
    for flag in (True, False):
        billed = [b for b, r in zip(BILLED, reminded, strict=True) if r is flag]
        for kind, field in (
            ('uncached_input', 'uncached'),
            ('cache_read', 'cache_read'),
            ('cache_write', 'cache_write'),
        ):
            got = otel.delta(names.REMINDERS_INPUT_TOKENS.name, model=model, reminded=flag, type=kind)
            assert got == sum(getattr(b, field) for b in billed), (flag, kind)
    assert otel.delta(names.REMINDERS_INPUT_TOKENS.name, type='output') == 0


@pytest.mark.usefixtures('no_network')
def test_openai_usage_with_cache_writes_and_tiered_prices_match_genai_prices(otel: OTelHarness) -> None:
    model = 'gpt-5.6-sol'  # tiered prices and a cache-write price in the snapshot: the marginal path
    agent, recorder = build('openai', model, limits())

    result = agent.run_sync('Where is the request handler?')

    assert result.output == 'Found it.'
    assert len(recorder.bodies) == len(BILLED)
    assert_recorded_like_genai_prices(otel, model, 'openai')
    assert otel.series(names.REMINDERS_INPUT_TOKENS.name) == []


@pytest.mark.usefixtures('no_network')
def test_a_model_genai_prices_does_not_know_is_counted_unpriced_never_guessed(otel: OTelHarness) -> None:
    model = 'claude-imaginary-9'
    agent, _ = build('anthropic', model, limits(), SystemReminders(reminders=[REMINDER]))

    agent.run_sync('Where is the request handler?')

    labels = {'model': model, 'provider': 'anthropic'}
    assert otel.delta(names.USAGE_RESPONSES.name, pricing='unknown_model', **labels) == len(BILLED)
    assert otel.delta(names.USAGE_RESPONSES.name, pricing='priced') == 0
    assert otel.delta(names.USAGE_TOKENS.name, type='cache_read', **labels) == sum(b.cache_read for b in BILLED)
    assert otel.series(names.USAGE_COST.name) == []
    assert otel.series(names.COST_AVOIDED.name) == []
    assert otel.series(names.USAGE_RUN_COST.name) == []
    # The avoided tokens are still counted; only their price is unknown.
    assert otel.delta(names.RESEND_TOKENS_AVOIDED.name, tool='grep') > 0


@pytest.mark.usefixtures('no_network')
def test_a_pricing_library_failure_is_counted_and_the_run_goes_on(
    otel: OTelHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: ModelResponse) -> Any:
        raise RuntimeError('price data corrupted')

    monkeypatch.setattr(ModelResponse, 'cost', broken)
    agent, _ = build('anthropic', 'claude-sonnet-4-6', limits())

    result = agent.run_sync('Where is the request handler?')

    assert result.output == 'Found it.'
    assert otel.delta(names.USAGE_RESPONSES.name, pricing='error') == len(BILLED)
    assert otel.series(names.USAGE_COST.name) == []


@pytest.mark.anyio
@pytest.mark.usefixtures('no_network')
async def test_a_streamed_run_tells_reminded_requests_apart_and_records_each_response_once(otel: OTelHarness) -> None:
    model = 'claude-sonnet-4-6'
    agent, recorder = build('anthropic', model, limits(), SystemReminders(reminders=[REMINDER]))

    async with agent.run_stream('Where is the request handler?') as result:
        assert await result.get_output() == 'Found it.'

    assert otel.delta(names.USAGE_RESPONSES.name, pricing='priced') == len(BILLED)
    assert otel.delta(names.USAGE_RUN_COST.name) == 1
    reminded = ['Quote file paths exactly' in json.dumps(body) for body in recorder.bodies]
    for flag in (True, False):
        expected = sum(b.cache_read for b, r in zip(BILLED, reminded, strict=True) if r is flag)
        assert otel.delta(names.REMINDERS_INPUT_TOKENS.name, reminded=flag, type='cache_read') == expected
