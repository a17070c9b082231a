"""What the capabilities share when they make a model request of their own inside a run.

`Summarize` and `LLMReminder` both run a small nested agent whose usage is folded into the parent
run's `ctx.usage`. Both must leave the parent the request it still has to make, and both label the
model the same way in telemetry.
"""

from __future__ import annotations

import difflib
import typing
import warnings
from dataclasses import replace
from functools import cache
from typing import Any

from pydantic_ai.models import KnownModelName, Model, parse_model_id
from pydantic_ai.providers import infer_provider_class
from pydantic_ai.tools import RunContext
from pydantic_ai.usage import UsageLimits

__all__ = ['UnknownModelWarning', 'check_model_name', 'model_label', 'nested_usage_limits']


class UnknownModelWarning(UserWarning):
    """A model name pydantic-ai does not list: maybe a typo, maybe a model newer than pydantic-ai."""


@cache
def _known_models() -> tuple[str, ...]:
    return typing.get_args(getattr(KnownModelName, '__value__', KnownModelName))


def check_model_name(model: object, where: str) -> None:
    """Refuse at construction a model name pydantic-ai cannot resolve, and warn about one it does not list.

    A provider that does not exist (`nosuchprovider:x`) can never work: `ValueError`. A model name of a known
    provider that pydantic-ai does not list (`anthropic:claude-sonet-4`) may be a typo or a model newer than
    pydantic-ai: a warning with the closest known name, and the request is tried as given. Model objects and
    bare names (which pydantic-ai resolves itself) pass. No request is made and no API key is needed.
    """
    if not isinstance(model, str) or model == 'test':
        return
    provider, _ = parse_model_id(model)
    if provider is None:
        return
    try:
        infer_provider_class(provider)
    except ValueError:
        raise ValueError(
            f'{where}: pydantic-ai has no provider {provider!r} (from {model!r}). Use a name like '
            "'anthropic:claude-haiku-4-5' or 'openai:gpt-4o-mini', or pass a Model instance."
        ) from None
    known = _known_models()
    if model not in known:
        close = difflib.get_close_matches(model, known, n=1)
        maybe = f' Did you mean {close[0]!r}?' if close else ''
        warnings.warn(
            f'{where}: {model!r} is not a model pydantic-ai knows.{maybe} It will be tried as given; if its '
            'requests fail, each failure is logged once per run and the band falls back.',
            UnknownModelWarning,
            stacklevel=4,
        )


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
