"""What a model response cost, and what the re-sends a reduction avoided would have cost, from genai-prices.

Prices come from the snapshot genai-prices ships (pydantic-ai prices its own responses the same way, through
`ModelResponse.cost()`): nothing here fetches prices over the network. An application that wants fresher
prices starts `genai_prices.UpdatePrices` (or `pydantic_ai.prices.update_in_background()`) itself, and every
price computed here follows it. A model genai-prices does not know is reported as unpriced, never guessed.

Why avoided re-sends are priced as a range: a token kept out of history is not billed at the input price
when the provider caches the prompt. Each tool's avoided tokens are priced as if they alone had been added to
the request the response answered:

- `upper`: every avoided token at the full input price (no prompt cache);
- `lower`: every avoided token as a cache read (a cache that never misses);
- `expected`: the avoided tokens split as the response's own input was, `cache_read / input` of them read
  from the cache and the rest at the input price. Only when the response reported input tokens.

With flat per-token prices these are the avoided tokens times the per-token prices of the model (from
genai-prices, per million); with tiered prices (a higher rate for all tokens past a size) they are the
difference between pricing the request with and without the avoided tokens, so a re-send that would have
crossed a tier is priced at the tier it would have crossed into.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from genai_prices import Usage
from genai_prices.types import ModelPrice, PriceCalculation, TieredPrices
from pydantic_ai.messages import ModelResponse
from pydantic_ai.usage import RequestUsage

__all__ = ['AvoidedCost', 'PricingOutcome', 'ResponseCost', 'TokenSplit', 'price_response']

PricingOutcome = Literal['priced', 'no_model', 'unknown_model', 'invalid_usage', 'error']
"""`priced`, or why not: no model name on the response, a model (or provider) genai-prices does not know,
usage it cannot price (say, cache reads above the input), or an unexpected error of the library."""

UNKNOWN = 'unknown'
"""The label of a model or provider a response did not name."""

_MILLION = Decimal(1_000_000)
_log = logging.getLogger('observable_harness.usage')


@dataclass(frozen=True, slots=True)
class TokenSplit:
    """A response's tokens by how they are billed; pydantic-ai counts cache reads and writes inside `input_tokens`."""

    uncached_input: int
    cache_read: int
    cache_write: int
    output: int

    @classmethod
    def of(cls, usage: RequestUsage) -> TokenSplit:
        cache_read = max(0, usage.cache_read_tokens)
        cache_write = max(0, usage.cache_write_tokens)
        return cls(
            uncached_input=max(0, usage.input_tokens - cache_read - cache_write),
            cache_read=cache_read,
            cache_write=cache_write,
            output=max(0, usage.output_tokens),
        )

    @property
    def input(self) -> int:
        return self.uncached_input + self.cache_read + self.cache_write

    @property
    def cache_read_share(self) -> float | None:
        """Share of the input read from the prompt cache; `None` when the response reported no input."""
        total = self.input
        return self.cache_read / total if total else None

    def by_type(self) -> tuple[tuple[str, int], ...]:
        """`(type, tokens)` in the vocabulary of the `type` label of the usage metrics."""
        return (
            ('uncached_input', self.uncached_input),
            ('cache_read', self.cache_read),
            ('cache_write', self.cache_write),
            ('output', self.output),
        )


@dataclass(frozen=True, slots=True)
class AvoidedCost:
    """USD that avoided re-sends would have cost (see the module docstring for each estimate)."""

    lower: float
    upper: float
    expected: float | None


@dataclass(frozen=True, slots=True)
class ResponseCost:
    """One response: its model and provider labels, token split, and price (zero unless `outcome == 'priced'`)."""

    model: str
    provider: str
    outcome: PricingOutcome
    split: TokenSplit
    input_usd: float = 0.0
    output_usd: float = 0.0
    total_usd: float = 0.0
    calculation: PriceCalculation | None = None
    usage: RequestUsage | None = None

    @property
    def priced(self) -> bool:
        return self.outcome == 'priced'

    def avoided(self, tokens: int) -> AvoidedCost | None:
        """What `tokens` more input tokens on this response's request would have cost; `None` when unpriced."""
        calculation, usage = self.calculation, self.usage
        if calculation is None or usage is None or tokens <= 0:
            return None
        share = self.split.cache_read_share
        rates = _linear_rates(calculation.model_price)
        if rates is not None:
            input_rate, read_rate = rates
            count = Decimal(tokens)
            expected = None
            if share is not None:
                read = Decimal(round(tokens * share))
                expected = float(read * read_rate + (count - read) * input_rate)
            return AvoidedCost(float(count * read_rate), float(count * input_rate), expected)
        return self._avoided_tiered(calculation, usage, tokens, share)

    @staticmethod
    def _avoided_tiered(
        calculation: PriceCalculation, usage: RequestUsage, tokens: int, share: float | None
    ) -> AvoidedCost:
        model_price = calculation.model_price
        actual = Usage.from_raw(usage)
        base = calculation.total_price

        def marginal(read: int) -> float:
            grown = actual + Usage(input_tokens=tokens, cache_read_tokens=read)
            return float(model_price.calc_price(grown)['total_price'] - base)

        expected = marginal(round(tokens * share)) if share is not None else None
        return AvoidedCost(marginal(tokens), marginal(0), expected)


def price_response(response: ModelResponse) -> ResponseCost:
    """Price `response` with genai-prices, as `ModelResponse.cost()` does; never raises."""
    usage = response.usage
    split = TokenSplit.of(usage)
    model = response.model_name or UNKNOWN
    provider = response.provider_name or UNKNOWN
    if not response.model_name:
        return ResponseCost(model, provider, 'no_model', split)
    try:
        calculation = response.cost()
    except LookupError:
        return ResponseCost(model, provider, 'unknown_model', split)
    except ValueError:
        return ResponseCost(model, provider, 'invalid_usage', split)
    except Exception:
        _log.warning('observable_harness: genai-prices could not price a %s response', model, exc_info=True)
        return ResponseCost(model, provider, 'error', split)
    if provider == UNKNOWN:
        provider = calculation.provider.id
    return ResponseCost(
        model,
        provider,
        'priced',
        split,
        input_usd=float(calculation.input_price),
        output_usd=float(calculation.output_price),
        total_usd=float(calculation.total_price),
        calculation=calculation,
        usage=usage,
    )


_rates_lock = threading.Lock()
_rates: dict[str, tuple[Decimal, Decimal] | None] = {}
_MAX_RATES = 512


def _linear_rates(model_price: ModelPrice) -> tuple[Decimal, Decimal] | None:
    """USD per input token and per cache-read token, or `None` when a price is tiered (not linear in tokens).

    genai-prices takes ~0.3 ms per price calculation, so per-token rates are computed from it once per price
    sheet and avoided tokens are priced by multiplication: for flat prices, the same numbers.
    """
    key = repr(model_price)
    with _rates_lock:
        if key in _rates:
            return _rates[key]
    rates: tuple[Decimal, Decimal] | None = None
    if not any(isinstance(value, TieredPrices) for value in vars(model_price).values()):
        as_input = model_price.calc_price(Usage(input_tokens=1_000_000))['input_price']
        as_read = model_price.calc_price(Usage(input_tokens=1_000_000, cache_read_tokens=1_000_000))['input_price']
        rates = (as_input / _MILLION, as_read / _MILLION)
    with _rates_lock:
        if len(_rates) >= _MAX_RATES:
            _rates.clear()
        _rates[key] = rates
    return rates
