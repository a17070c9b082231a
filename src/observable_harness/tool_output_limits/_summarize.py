"""Summarize: replace a payload with a model-written summary, billed to the run it serves.

The summary request is a real model request: its tokens and the request itself are added to the
run's `ctx.usage`, and it runs under the run's usage limits with one request held back for the
model request the run still has to make after this tool call.
"""

from __future__ import annotations

import inspect
import string
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from pydantic_ai import Agent
from pydantic_ai.exceptions import UsageLimitExceeded
from pydantic_ai.messages import ModelResponse
from pydantic_ai.models import KnownModelName, Model

from .._nested_run import check_model_name, model_label, nested_usage_limits
from .._text.cut import TruncationStrategy, cut_text
from ._actions import ActionUnavailable, Reduced, ReductionAction, ReductionEnv
from ._payload import Unit
from ._telemetry import summarize_span

__all__ = ['DEFAULT_SUMMARY_PROMPT', 'Summarize', 'SummarizeFunc', 'validate_summary_prompt']

SummarizeFunc: TypeAlias = Callable[[str, str], 'str | Awaitable[str]']
"""`summarize(tool_name, text) -> summary`, sync or async: replaces the built-in model prompt."""


@dataclass(frozen=True)
class Summarize(ReductionAction):
    """Replace the payload with a model-written summary; the request's usage is billed to the run.

    ```python
    from observable_harness.tool_output_limits import Spill, Summarize, Truncate

    Summarize(then=Spill(then=Truncate()))  # summarize, else spill, else truncate
    ```
    """

    name: ClassVar[str] = 'summarize'
    check_on_failure: ClassVar[str] = "the model name, its provider's API key, and the run's usage limits"

    model: Model | KnownModelName | str | None = None
    """Model for the summary request; `None` uses the run's own model."""

    summarize: SummarizeFunc | None = None
    """`(tool_name, text) -> summary`, sync or async, instead of the built-in prompt and model."""

    then: ReductionAction | None = None
    """Used when the payload is binary or the summary request raises (including a usage limit)."""

    max_summary_chars: int = 4_000
    """A summary longer than this is cut (with a marker): a runaway summary must not refill the window."""

    def __post_init__(self) -> None:
        check_model_name(self.model, 'Summarize(model=...)')

    async def apply(self, unit: Unit, env: ReductionEnv) -> Reduced:
        return await _summarize(self, unit, env)


DEFAULT_SUMMARY_PROMPT = (
    'The tool `{tool_name}` returned the output below. It is too large to keep in the conversation, '
    'so an agent will decide its next step from your summary alone. Say what kind of output it is '
    'and what it concludes; keep every error, failure, warning, identifier, number and path that '
    'matters, verbatim. Use at most 250 words and no preamble.\n\n<output>\n{output}\n</output>'
)

MAX_SUMMARY_INPUT_CHARS = 200_000
"""The summarizer sees at most this much of the payload (both ends kept): it has a window too."""


def validate_summary_prompt(template: str) -> None:
    """Raise `ValueError` unless `template` has exactly the `{tool_name}` and `{output}` fields."""
    try:
        fields = {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}
    except ValueError as error:
        raise ValueError(
            f'summary_prompt is not a valid format string ({error}); escape literal braces as {{{{ }}}}.'
        ) from error
    missing = {'tool_name', 'output'} - fields
    if missing:
        raise ValueError(
            'summary_prompt must contain the placeholders {tool_name} and {output}; missing: '
            + ', '.join(f'{{{name}}}' for name in sorted(missing))
        )
    unknown = fields - {'tool_name', 'output'}
    if unknown:
        raise ValueError(
            'summary_prompt may only use {tool_name} and {output}; escape other braces by doubling them: '
            + ', '.join(sorted(unknown))
        )


async def _summarize(action: Summarize, unit: Unit, env: ReductionEnv) -> Reduced:
    """Summarize one unit; binary payloads and failing requests go to `then`."""
    if unit.text is None:
        raise ActionUnavailable('binary payload cannot be summarized as text')
    text = unit.text
    if action.summarize is not None:
        name = getattr(action.summarize, '__name__', type(action.summarize).__name__)
        summary: Any = action.summarize(unit.tool_name, text)
        if inspect.isawaitable(summary):
            summary = await summary
        if not isinstance(summary, str):
            raise TypeError(f'summarize callable returned {type(summary).__name__}, not str')
        source = f'by {name}'
    else:
        model: Any = action.model if action.model is not None else env.ctx.model
        label = model_label(model)
        limits = nested_usage_limits(env.ctx)
        if limits is None:
            raise UsageLimitExceeded('the run has no request to spare for a summary under its usage limits')
        if len(text) > MAX_SUMMARY_INPUT_CHARS:
            text = cut_text(text, MAX_SUMMARY_INPUT_CHARS, TruncationStrategy.head_tail).text
        prompt = env.summary_prompt.format(tool_name=unit.tool_name, output=text)
        with summarize_span(label) as recorder:
            agent = Agent(model, output_type=str)
            result = await agent.run(
                prompt,
                usage=env.ctx.usage,
                usage_limits=limits,
            )
            input_tokens = output_tokens = 0
            for message in result.new_messages():
                if isinstance(message, ModelResponse):
                    input_tokens += message.usage.input_tokens
                    output_tokens += message.usage.output_tokens
            recorder.usage(input_tokens, output_tokens)
        summary = result.output
        source = f'by {label}'
    header = (
        f"[Summary {source} of {unit.tool_name}'s {unit.chars:,}-char output; the original was not kept. "
        'Call the tool again with a narrower request for details.]'
    )
    body = cut_text(summary.strip(), action.max_summary_chars, TruncationStrategy.head).text
    return Reduced(f'{header}\n{body}', 'summarize')
