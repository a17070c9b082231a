"""What the capabilities share when they make a model request of their own inside a run.

`Summarize` and `LLMReminder` both run a small nested agent whose usage is folded into the parent
run's `ctx.usage`. Both must leave the parent the request it still has to make, and both label the
model the same way in telemetry.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pydantic_ai.models import Model
from pydantic_ai.tools import RunContext
from pydantic_ai.usage import UsageLimits

__all__ = ['model_label', 'nested_usage_limits']


def nested_usage_limits(ctx: RunContext[Any], *, requests: int = 1) -> UsageLimits | None:
    """Limits for a nested run that shares `ctx.usage`: at most `requests` more requests, always leaving
    one for the model request the parent run still has to make. `None` when the parent has none to spare.

    Token limits stay the parent's: the usage is shared, so they bound the parent and the nested run together.
    """
    parent = ctx.usage_limits or UsageLimits(request_limit=None)
    used = ctx.usage.requests
    allowed = used + requests
    if parent.request_limit is not None:
        allowed = min(allowed, parent.request_limit - 1)
        if allowed <= used:
            return None
    return replace(parent, request_limit=allowed)


def model_label(model: Model | str | Any) -> str:
    """The model's name as a low-cardinality telemetry label: `gpt-4o` for `openai:gpt-4o` or an `OpenAIModel`."""
    if isinstance(model, Model):
        return model.model_name
    if isinstance(model, str):
        return model.split(':', 1)[-1]
    return str(getattr(model, 'model_name', type(model).__name__))
