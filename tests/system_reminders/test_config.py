"""Construction: the seed's public API, validation errors that say what to do, labels and cadence arithmetic."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.models.test import TestModel

import observable_harness
from observable_harness import SystemReminders
from observable_harness.system_reminders import GoalReanchor, LLMReminder, Reminder


def test_seed_imports_and_signatures() -> None:
    assert 'SystemReminders' in observable_harness.__all__
    reminder = Reminder('Stay focused on the original request.', 5)
    assert (reminder.interval, reminder.first_after, reminder.trigger, reminder.max_fires) == (5, None, None, None)
    assert (reminder.tag, reminder.name) == ('system-reminder', None)
    capability = SystemReminders([reminder])
    assert (capability.cache_ttl, capability.on_fire, capability.dynamic_reminders) == ('5m', None, ())
    assert SystemReminders(dynamic_reminders=[GoalReanchor()]).reminders == ()


def test_not_serializable_as_spec() -> None:
    assert SystemReminders.get_serialization_name() is None
    assert SystemReminders(dynamic_reminders=[GoalReanchor()]).get_serialization_name() is None


@pytest.mark.parametrize(
    ('kwargs', 'message'),
    [
        ({'interval': 0}, 'interval must be at least 1, got 0'),
        ({'interval': -3}, 'interval must be at least 1'),
        ({'first_after': 0}, 'first_after must be at least 1'),
        ({'max_fires': 0}, 'max_fires must be at least 1'),
        ({'tag': 'has space'}, "tag 'has space' is not a valid tag name"),
        ({'tag': '<b>'}, 'not a valid tag name'),
        ({'name': '  '}, 'name must be non-empty'),
    ],
)
def test_reminder_rejects_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Reminder('text', **kwargs)


@pytest.mark.parametrize('content', ['', '   \n'])
def test_reminder_rejects_empty_content(content: str) -> None:
    with pytest.raises(ValueError, match='non-empty text'):
        Reminder(content)


def test_reminder_rejects_wrong_types() -> None:
    with pytest.raises(TypeError, match='interval must be an int, got float'):
        Reminder('x', interval=2.5)  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match='interval must be an int, got bool'):
        Reminder('x', interval=True)
    with pytest.raises(TypeError, match='trigger must be a callable'):
        Reminder('x', trigger=True)  # pyright: ignore[reportArgumentType]


def test_system_reminders_needs_at_least_one_reminder() -> None:
    with pytest.raises(ValueError, match=r'needs at least one reminder.*GoalReanchor\(\)'):
        SystemReminders()
    with pytest.raises(ValueError, match='at least one reminder'):
        SystemReminders(reminders=[], dynamic_reminders=[])


@pytest.mark.parametrize('ttl', ['10m', '5M', '', None])
def test_cache_ttl_must_be_a_provider_ttl(ttl: Any) -> None:
    with pytest.raises(ValueError, match=r"cache_ttl must be '5m' or '1h'"):
        SystemReminders(reminders=[Reminder('x')], cache_ttl=ttl)


def test_misplaced_reminders_get_a_hint() -> None:
    with pytest.raises(TypeError, match=r"wrap the text: Reminder\('plain text'\)"):
        SystemReminders(reminders=['plain text'])  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match='reminders takes a list of Reminder objects'):
        SystemReminders(reminders=Reminder('one'))  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match='go in dynamic_reminders='):
        SystemReminders(reminders=[GoalReanchor()])  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match='static reminders go in reminders='):
        SystemReminders(dynamic_reminders=[Reminder('x')])  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match='dynamic_reminders takes a list of callables'):
        SystemReminders(dynamic_reminders=GoalReanchor())  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match='on_fire must be a callable'):
        SystemReminders(reminders=[Reminder('x')], on_fire='print')  # pyright: ignore[reportArgumentType]


def test_deferred_loading_is_refused_because_reminders_would_never_arrive() -> None:
    with pytest.raises(ValueError, match='cannot be deferred'):
        SystemReminders(reminders=[Reminder('x')], defer_loading=True, id='reminders')


def test_llm_reminder_requires_a_model() -> None:
    with pytest.raises(TypeError, match='model'):
        LLMReminder()  # type: ignore[call-arg]
    with pytest.raises(ValueError, match=r"LLMReminder needs a model, e.g. LLMReminder\(model='anthropic:"):
        LLMReminder(model=' ')
    with pytest.raises(ValueError, match='recent_messages must be a positive int'):
        LLMReminder(model=TestModel(), recent_messages=0)


def test_goal_reanchor_rejects_a_non_positive_limit() -> None:
    with pytest.raises(ValueError, match='max_chars must be at least 1'):
        GoalReanchor(max_chars=0)


def test_rendering_and_labels() -> None:
    assert Reminder('Be nice.').text == '<system-reminder>\nBe nice.\n</system-reminder>'
    assert Reminder('Be nice.', tag=None).text == 'Be nice.'
    assert Reminder('Be nice.', tag='rules').text == '<rules>\nBe nice.\n</rules>'
    label = Reminder('Stay focused on the original request!').label
    assert re.fullmatch(r'reminder-[0-9a-f]{6}', label)
    assert label == Reminder('Stay focused on the original request!', interval=3).label  # by content alone
    assert label != Reminder('Stay focused on the first request!').label
    assert Reminder('Stay focused', name='focus').label == 'focus'


@pytest.mark.parametrize(
    ('interval', 'first_after', 'due'),
    [
        (1, None, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        (2, None, [2, 4, 6, 8, 10]),
        (3, 1, [1, 4, 7, 10]),
        (4, 6, [6, 10]),
        (5, 12, []),
    ],
)
def test_fires_on(interval: int, first_after: int | None, due: list[int]) -> None:
    reminder = Reminder('x', interval=interval, first_after=first_after)
    assert [n for n in range(1, 11) if reminder.fires_on(n)] == due


def test_a_rejected_configuration_leaves_the_agent_usable() -> None:
    agent = Agent(TestModel())
    with pytest.raises(ValueError, match='interval'):
        agent.run_sync('hi', capabilities=[SystemReminders(reminders=[Reminder('x', interval=0)])])
    assert agent.run_sync('hi').output
