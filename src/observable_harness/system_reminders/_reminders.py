"""What a reminder says and when: static `Reminder`s on a cadence, and the zero-cost `GoalReanchor`."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from pydantic_ai import RunContext
from pydantic_ai.messages import ModelRequest, UserContent, UserPromptPart

from .._text.hashing import content_hash

__all__ = ['DynamicReminder', 'GoalReanchor', 'Reminder', 'ReminderTrigger', 'first_user_request']

ReminderTrigger: TypeAlias = Callable[[RunContext[Any]], bool | Awaitable[bool]]
"""Gate on a static reminder: called on each request the cadence selects; the reminder fires only when it is true."""

DynamicReminder: TypeAlias = Callable[[RunContext[Any]], str | Awaitable[str | None] | None]
"""A callable evaluated on every model request: return text to inject it as is, or `None` to skip."""

_TAG_NAME = re.compile(r'[A-Za-z_][A-Za-z0-9_.:-]*')


@dataclass(frozen=True)
class Reminder:
    """A piece of guidance re-stated on a fixed cadence during a run, against instruction fade.

    It fires on model requests `interval`, `2 * interval`, ... of a run (or from `first_after`, then every
    `interval`), when `trigger` (if any) agrees, at most `max_fires` times per run. The text reaches the model at the
    tail of the request and is never written to the message history.

    ```python
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    from observable_harness import SystemReminders
    from observable_harness.system_reminders import Reminder

    agent = Agent(
        TestModel(),
        capabilities=[SystemReminders(reminders=[Reminder('Run the tests before you answer.', interval=3)])],
    )
    result = agent.run_sync('Fix the failing import.')
    assert 'Run the tests' not in str(result.all_messages())
    ```
    """

    content: str
    """The guidance itself. Keep it short: it is re-sent on every request it fires on."""
    interval: int = 1
    """Fire every `interval` requests. A larger interval spends fewer tokens; 1 re-states it on every request."""
    first_after: int | None = None
    """The first request to fire on, when that should differ from `interval` (say, a rule that matters from the
    first tool result on, but only every tenth request after that)."""
    trigger: ReminderTrigger | None = None
    """Condition read from the run context (budget spent, a tool used, a mode entered). Checked only on requests the
    cadence selects, so an expensive check runs no more often than the reminder could fire."""
    max_fires: int | None = None
    """Cap per run: guidance that only needs saying a few times should not keep costing tokens."""
    tag: str | None = 'system-reminder'
    """Wraps the content as `<tag>\\n...\\n</tag>`, the Claude Code convention that tells the model this is
    out-of-band guidance rather than user text. `None` sends the content raw."""
    name: str | None = None
    """Label in telemetry (`system_reminders.fired{reminder=...}`). Without it, an id derived from a hash of the
    content (`reminder-3f9a1c`), which tells reminders apart without carrying a word of them; name a reminder
    to read its label on a dashboard."""
    text: str = field(init=False, repr=False, compare=False)
    """The rendered reminder, exactly as the model receives it."""
    label: str = field(init=False, repr=False, compare=False)
    """The telemetry label: `name`, or `reminder-<6 hex digits of the content's hash>`."""

    def __post_init__(self) -> None:
        if not isinstance(self.content, str) or not self.content.strip():  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError('Reminder content must be non-empty text: it is what the model is re-told.')
        _require_positive('interval', self.interval)
        if self.first_after is not None:
            _require_positive('first_after', self.first_after)
        if self.max_fires is not None:
            _require_positive('max_fires', self.max_fires)
        if self.trigger is not None and not callable(self.trigger):
            raise TypeError('Reminder trigger must be a callable taking the RunContext and returning a bool.')
        if self.tag is not None and not _TAG_NAME.fullmatch(self.tag):
            raise ValueError(
                f'Reminder tag {self.tag!r} is not a valid tag name: use letters, digits, "-", "_", "." or ":" '
                "(like 'system-reminder'), or tag=None to send the content without a wrapper."
            )
        if self.name is not None and not self.name.strip():
            raise ValueError(
                'Reminder name must be non-empty when given; leave it None to label it by a hash of its content.'
            )
        text = self.content if self.tag is None else f'<{self.tag}>\n{self.content}\n</{self.tag}>'
        object.__setattr__(self, 'text', text)
        object.__setattr__(self, 'label', self.name or _hashed_label(self.content))

    def fires_on(self, request: int) -> bool:
        """Whether the run's `request`-th model request (1-based) is on this reminder's cadence.

        `trigger` and `max_fires` are applied on top of this by `SystemReminders`.
        """
        first = self.interval if self.first_after is None else self.first_after
        return request >= first and (request - first) % self.interval == 0


@dataclass(frozen=True)
class GoalReanchor:
    """A zero-cost dynamic reminder that restates the run's first user request and asks the model to check that its
    next action advances it.

    No model call and no dependencies: it quotes the request the run was started with (or, when the run was started
    without a prompt, the first user prompt in its history).

    ```python
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    from observable_harness import SystemReminders
    from observable_harness.system_reminders import GoalReanchor

    agent = Agent(TestModel(), capabilities=[SystemReminders(dynamic_reminders=[GoalReanchor()])])
    result = agent.run_sync('Summarise the release notes.')
    assert result.output
    ```
    """

    max_chars: int = 2_000
    """Longest goal quoted in full. A longer one is quoted up to here with a marker saying how much was left out:
    it is re-sent on every request, and its full text is earlier in the conversation anyway."""

    def __post_init__(self) -> None:
        _require_positive('max_chars', self.max_chars)

    def __call__(self, ctx: RunContext[Any]) -> str | None:
        goal = first_user_request(ctx)
        return None if goal is None else self.render(goal)

    def render(self, goal: str) -> str:
        """The reminder text for `goal`, quoted up to `max_chars`."""
        if len(goal) > self.max_chars:
            omitted = len(goal) - self.max_chars
            goal = (
                f'{goal[: self.max_chars]}\n'
                f'[… goal cut here: {omitted:,} of {len(goal):,} characters left out; '
                'the full request is earlier in this conversation]'
            )
        return (
            '<system-reminder>\n'
            'The original request for this run was:\n'
            f'<original-request>\n{goal}\n</original-request>\n'
            'Before your next action, check that it advances this request; if it does not, return to it.\n'
            '</system-reminder>'
        )


def first_user_request(ctx: RunContext[Any]) -> str | None:
    """The text of the run's first user request: the prompt it was started with, else the first user prompt in its
    history. Non-text content (images, documents) is left out; `None` when there is no text at all."""
    prompt: str | Sequence[UserContent] | None = ctx.prompt
    if prompt is None:
        prompt = next(
            (
                part.content
                for message in ctx.messages
                if isinstance(message, ModelRequest)
                for part in message.parts
                if isinstance(part, UserPromptPart)
            ),
            None,
        )
    if prompt is None:
        return None
    text = prompt if isinstance(prompt, str) else '\n'.join(item for item in prompt if isinstance(item, str))
    return text.strip() or None


def _require_positive(name: str, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f'{name} must be an int, got {type(value).__name__}.')
    if value < 1:
        raise ValueError(f'{name} must be at least 1, got {value}.')


def _hashed_label(content: str) -> str:
    """`reminder-3f9a1c`: the same for the same content, never a word of it."""
    return 'reminder-' + content_hash(content).partition(':')[2][:6]
