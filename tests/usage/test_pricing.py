"""Pricing one response and what its avoided re-sends would have cost, checked against genai-prices itself."""

from __future__ import annotations

from typing import Any

import pytest
from genai_prices import calc_price
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import RequestUsage

from observable_harness import SystemReminders, ToolOutputLimits
from observable_harness._usage import TokenSplit, price_response
from observable_harness.system_reminders import Reminder
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import Band, Truncate
from tests.otel import OTelHarness


def response(model: str | None, usage: RequestUsage, provider: str | None = 'anthropic') -> ModelResponse:
    return ModelResponse(parts=[TextPart('ok')], usage=usage, model_name=model, provider_name=provider)


def price_of(usage: RequestUsage, model: str, provider: str = 'anthropic') -> float:
    return float(calc_price(usage, model, provider_id=provider).total_price)


def test_the_split_counts_cache_reads_and_writes_inside_the_input_once() -> None:
    split = TokenSplit.of(
        RequestUsage(input_tokens=1_000, cache_read_tokens=700, cache_write_tokens=200, output_tokens=9)
    )
    assert (split.uncached_input, split.cache_read, split.cache_write, split.output) == (100, 700, 200, 9)
    assert split.input == 1_000
    assert split.cache_read_share == 0.7
    assert TokenSplit.of(RequestUsage(output_tokens=5)).cache_read_share is None


def test_flat_prices_give_the_range_genai_prices_gives() -> None:
    usage = RequestUsage(input_tokens=20_000, cache_read_tokens=15_000, cache_write_tokens=1_000, output_tokens=300)
    cost = price_response(response('claude-sonnet-4-6', usage))
    assert cost.outcome == 'priced'
    assert cost.total_usd == pytest.approx(price_of(usage, 'claude-sonnet-4-6'), rel=1e-12)

    avoided = cost.avoided(4_000)
    assert avoided is not None
    base = price_of(usage, 'claude-sonnet-4-6')

    def grown(read: int) -> float:
        more = RequestUsage(
            input_tokens=24_000, cache_read_tokens=15_000 + read, cache_write_tokens=1_000, output_tokens=300
        )
        return price_of(more, 'claude-sonnet-4-6') - base

    assert avoided.upper == pytest.approx(grown(0), rel=1e-12)
    assert avoided.lower == pytest.approx(grown(4_000), rel=1e-12)
    assert avoided.expected == pytest.approx(grown(3_000), rel=1e-12)  # 75% of the input was read from the cache
    assert avoided.upper == pytest.approx(10 * avoided.lower)  # Anthropic: a cache read costs a tenth of input


def test_a_tiered_price_prices_the_tier_an_avoided_re_send_would_have_crossed_into() -> None:
    model = 'claude-sonnet-4-5'  # a higher rate for every token once a request passes 200k input tokens
    usage = RequestUsage(input_tokens=199_000, cache_read_tokens=99_500, output_tokens=100)
    cost = price_response(response(model, usage))
    avoided = cost.avoided(2_000)
    assert avoided is not None
    base = price_of(usage, model)
    crossed = RequestUsage(input_tokens=201_000, cache_read_tokens=99_500, output_tokens=100)
    assert avoided.upper == pytest.approx(price_of(crossed, model) - base, rel=1e-12)
    # Far more than 2,000 tokens at the base rate: the whole request would have been billed at the higher tier.
    assert avoided.upper > 50 * 2_000 * 3 / 1_000_000
    assert avoided.lower < avoided.expected < avoided.upper  # type: ignore[operator]


def test_without_reported_input_there_is_no_expected_value() -> None:
    cost = price_response(response('claude-sonnet-4-6', RequestUsage(output_tokens=10)))
    avoided = cost.avoided(1_000)
    assert avoided is not None
    assert avoided.expected is None
    assert avoided.lower < avoided.upper


@pytest.mark.parametrize(
    ('model', 'usage', 'outcome'),
    [
        (None, RequestUsage(input_tokens=10), 'no_model'),
        ('function:script:', RequestUsage(input_tokens=10), 'unknown_model'),
        ('claude-sonnet-4-6', RequestUsage(input_tokens=10, cache_read_tokens=50), 'invalid_usage'),
    ],
)
def test_what_cannot_be_priced_says_why_and_prices_nothing(
    model: str | None, usage: RequestUsage, outcome: str
) -> None:
    cost = price_response(response(model, usage))
    assert cost.outcome == outcome
    assert cost.total_usd == 0
    assert cost.avoided(1_000) is None


def test_a_provider_the_response_does_not_name_comes_from_genai_prices() -> None:
    cost = price_response(response('gpt-4o', RequestUsage(input_tokens=1_000, output_tokens=10), provider=None))
    assert (cost.outcome, cost.provider) == ('priced', 'openai')


def scripted(model_name: str, calls: int) -> FunctionModel:
    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        step = sum(isinstance(m, ModelResponse) for m in messages)
        usage = RequestUsage(input_tokens=1_000 * (step + 1), cache_read_tokens=900 * step, output_tokens=20)
        if step >= calls:
            return ModelResponse(parts=[TextPart('done')], usage=usage, provider_name='anthropic')
        return ModelResponse(
            parts=[ToolCallPart('dump', {}, tool_call_id=f'c{step}')], usage=usage, provider_name='anthropic'
        )

    return FunctionModel(respond, model_name=model_name)


def agent_with(model: FunctionModel, *capabilities: Any) -> Agent[None, str]:
    agent = Agent(model, capabilities=list(capabilities))

    @agent.tool_plain
    def dump() -> str:
        return 'x' * 30_000

    return agent


def test_two_capabilities_on_one_agent_record_each_response_once(otel: OTelHarness) -> None:
    limits = ToolOutputLimits(bands=[Band(over=1_000, action=Truncate(max_chars=500))])
    for capabilities in (
        [limits, SystemReminders(reminders=[Reminder('r')])],
        [SystemReminders(reminders=[Reminder('r')]), limits],
    ):
        otel.reset()
        agent_with(scripted('claude-sonnet-4-6', calls=2), *capabilities).run_sync('go')
        assert otel.delta(names.USAGE_RESPONSES.name, pricing='priced') == 3
        assert otel.delta(names.USAGE_TOKENS.name, type='cache_read') == 900 + 1_800
        assert otel.delta(names.REMINDERS_INPUT_TOKENS.name, type='cache_read') == 900 + 1_800
        assert otel.delta(names.USAGE_RUN_COST.name) == 1  # runs whose cost was recorded (a histogram's count)


def test_a_run_with_an_unpriced_response_records_no_run_cost(otel: OTelHarness) -> None:
    limits = ToolOutputLimits(bands=[Band(over=1_000, action=Truncate(max_chars=500))])
    agent_with(scripted('in-house-model-7', calls=1), limits).run_sync('go')
    assert otel.delta(names.USAGE_RESPONSES.name, model='in-house-model-7', pricing='unknown_model') == 2
    assert otel.series(names.USAGE_RUN_COST.name) == []
    assert otel.series(names.COST_AVOIDED.name) == []
