"""Cost of pricing one model response and its avoided re-sends, against pricing every estimate with genai-prices.

Run with the bench interpreter: `bash bench/setup_env.sh` then `bench/.venv/bin/python bench/bench_pricing.py`.

What the capabilities add at each model response: `record_response` (the token split and
`ModelResponse.cost()`, i.e. one genai-prices calculation) and `record_avoided` for the tools whose
reductions kept tokens out of the request (three estimates each). The avoided estimates are priced from
per-token rates computed once per price sheet with genai-prices; the naive way prices each estimate with
its own genai-prices calculation (the request with and without the avoided tokens). Both are timed here
on the same responses, in interleaved rounds, telemetry on (the OpenTelemetry SDK with an in-memory
reader), beside the one genai-prices calculation every response needs (`ModelResponse.cost()` alone).
Reported: the median over rounds of the mean microseconds per response, and the ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from genai_prices import calc_price
from opentelemetry import metrics
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from pydantic_ai.messages import ModelResponse, TextPart
from pydantic_ai.usage import RequestUsage

from observable_harness._usage import record_avoided, record_response

MODEL, PROVIDER = 'claude-sonnet-4-6', 'anthropic'
TOOLS = ('run_tests', 'fetch_logs', 'list_files', 'read_source')


def response(step: int) -> ModelResponse:
    usage = RequestUsage(
        input_tokens=20_000 + step, cache_read_tokens=15_000, cache_write_tokens=2_000, output_tokens=300
    )
    return ModelResponse(parts=[TextPart('ok')], usage=usage, model_name=MODEL, provider_name=PROVIDER)


def ours(responses: list[ModelResponse], avoided: tuple[tuple[str, int], ...]) -> None:
    for item in responses:
        cost = record_response(item, None)
        assert cost is not None
        record_avoided(cost, avoided)


def cost_alone(responses: list[ModelResponse], avoided: tuple[tuple[str, int], ...]) -> None:
    for item in responses:
        item.cost()


def naive(responses: list[ModelResponse], avoided: tuple[tuple[str, int], ...]) -> None:
    counter = metrics.get_meter('bench').create_counter('bench.naive_avoided')
    for item in responses:
        usage = item.usage
        base = calc_price(usage, MODEL, provider_id=PROVIDER).total_price
        share = usage.cache_read_tokens / usage.input_tokens
        for tool, tokens in avoided:
            for estimate, read in (('lower', tokens), ('expected', round(tokens * share)), ('upper', 0)):
                grown = RequestUsage(
                    input_tokens=usage.input_tokens + tokens,
                    cache_read_tokens=usage.cache_read_tokens + read,
                    cache_write_tokens=usage.cache_write_tokens,
                    output_tokens=usage.output_tokens,
                )
                price = calc_price(grown, MODEL, provider_id=PROVIDER).total_price - base
                counter.add(float(price), {'tool': tool, 'estimate': estimate})


def main() -> None:
    parser = argparse.ArgumentParser(description='Per-response cost of pricing usage and avoided re-sends')
    parser.add_argument('--rounds', type=int, default=15)
    parser.add_argument('--responses', type=int, default=40)
    args = parser.parse_args()

    reader = InMemoryMetricReader()
    metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
    avoided = tuple((tool, 3_000 * (i + 1)) for i, tool in enumerate(TOOLS))
    contenders: dict[str, Callable[[list[ModelResponse], tuple[tuple[str, int], ...]], None]] = {
        'ours (rates from genai-prices, once per price sheet)': ours,
        'naive (a genai-prices calculation per estimate)': naive,
        "the response's own price alone (ModelResponse.cost())": cost_alone,
    }
    for run in contenders.values():  # warm-up: the price snapshot loads, lookups are cached
        run([response(0)], avoided)
    timings: dict[str, list[float]] = {name: [] for name in contenders}
    for round_index in range(args.rounds):
        order = list(contenders)
        random.Random(round_index).shuffle(order)
        for name in order:
            batch = [response(i) for i in range(args.responses)]  # fresh responses: each is recorded once
            started = time.perf_counter()
            contenders[name](batch, avoided)
            timings[name].append((time.perf_counter() - started) / args.responses * 1e6)
        reader.get_metrics_data()  # a collection between rounds, as a background reader would
    print(f'{args.responses} responses x {args.rounds} rounds, {len(avoided)} tools with avoided tokens each')
    medians = {name: statistics.median(values) for name, values in timings.items()}
    base = medians['naive (a genai-prices calculation per estimate)']
    for name, value in medians.items():
        print(f'  {name:<55} {value:>9.1f} us per response   {value / base:5.2f}x naive')


if __name__ == '__main__':
    main()
