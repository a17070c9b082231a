"""Model usage and its price, recorded once per response for whichever of our capabilities sees it first.

Below the capabilities and above `telemetry`: it may use pydantic-ai, genai-prices and the telemetry
catalog, never a capability. `_pricing` prices (no OpenTelemetry); `_report` records.
"""

from __future__ import annotations

from ._pricing import AvoidedCost, PricingOutcome, ResponseCost, TokenSplit, price_response
from ._report import agent_label, record_avoided, record_reminded_input, record_response, record_run_end

__all__ = [
    'AvoidedCost',
    'PricingOutcome',
    'ResponseCost',
    'TokenSplit',
    'agent_label',
    'price_response',
    'record_avoided',
    'record_reminded_input',
    'record_response',
    'record_run_end',
]
