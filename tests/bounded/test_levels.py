"""Named levels are risk statements with a queryable table, rendered verbatim in the docs (SPEC BTO-6)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from observable_harness._text.levels import render_levels_markdown
from observable_harness._text.lines import RISK_ORDER
from observable_harness.bounded import (
    DAILY,
    LEVELS,
    LONG_SESSION,
    PRODUCTION,
    Fate,
    Level,
    LineClass,
    get_level,
)

DOC = Path(__file__).resolve().parents[2] / 'docs' / 'bounded.md'


def test_named_levels_in_order_of_caution() -> None:
    assert list(LEVELS) == ['production', 'daily', 'long_session']
    assert get_level('production') is PRODUCTION
    assert get_level(DAILY) is DAILY


@pytest.mark.parametrize('level', LEVELS.values(), ids=list(LEVELS))
def test_every_level_keeps_errors_and_results(level: Level) -> None:
    assert level.fate(LineClass.error) is Fate.keep
    assert level.fate(LineClass.summary) is Fate.keep
    assert set(level.fates) == set(RISK_ORDER)


def test_levels_lose_more_as_they_save_more() -> None:
    assert PRODUCTION.classes(Fate.drop) == ()
    assert set(PRODUCTION.classes(Fate.drop)) < set(DAILY.classes(Fate.drop)) <= set(LONG_SESSION.classes(Fate.drop))
    assert set(DAILY.classes(Fate.keep)) > set(LONG_SESSION.classes(Fate.keep))


def test_a_level_must_give_every_class_a_fate() -> None:
    with pytest.raises(ValueError, match=r"no fate for line classes \['blank'\]"):
        Level('partial', 'missing blank', {c: Fate.keep for c in RISK_ORDER if c is not LineClass.blank})
    custom = Level('ci', 'quiet CI', {**DAILY.fates, LineClass.warning: 'collapse'})  # type: ignore[dict-item]
    assert custom.fate(LineClass.warning) is Fate.collapse


def test_unknown_level_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match='production'):
        get_level('aggressive')


def test_docs_carry_the_tables_generated_from_the_code() -> None:
    text = DOC.read_text(encoding='utf-8')
    match = re.search(r'<!-- levels:start -->\n(.*?)<!-- levels:end -->', text, re.DOTALL)
    assert match, 'docs/bounded.md lost its <!-- levels:start --> ... <!-- levels:end --> section'
    assert match.group(1) == render_levels_markdown(), (
        'docs/bounded.md level tables drifted from observable_harness._text.levels; paste the output of '
        '`python -c "from observable_harness._text.levels import render_levels_markdown as r; print(r(), end=str())"`'
    )


def test_actions_holding_a_level_stay_hashable() -> None:
    from observable_harness.bounded import Condense
    from observable_harness.tool_output_limits import Band

    band = Band(over=1_000, action=Condense(level=LONG_SESSION))
    assert hash(band) == hash(Band(over=1_000, action=Condense(level=LONG_SESSION)))
    assert Level(LONG_SESSION.name, LONG_SESSION.risk, dict(LONG_SESSION.fates)) == LONG_SESSION
