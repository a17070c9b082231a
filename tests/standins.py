"""The stand-in benchmark's real captures and their cases (`bench/standins/`), for tests."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

STANDINS = Path(__file__).resolve().parents[1] / 'bench' / 'standins'


@dataclass(frozen=True)
class Capture:
    id: str
    shape: str
    text: str
    """The capture as the tool printed it (for structured cases, its JSON text)."""
    value: Any
    """What the tool returns: the text, or the parsed records for structured cases."""
    args: dict[str, Any]
    model_text: str
    user_prompt: str
    facts: tuple[str | tuple[str, ...], ...]


@cache
def captures() -> dict[str, Capture]:
    raw = json.loads((STANDINS / 'cases.json').read_text(encoding='utf-8'))
    out: dict[str, Capture] = {}
    for case in raw['cases']:
        text = (STANDINS / 'captures' / case['file']).read_text(encoding='utf-8')
        value: Any = json.loads(text) if case.get('structured') else text
        facts = tuple(fact if isinstance(fact, str) else tuple(fact) for fact in case['facts'])
        out[case['id']] = Capture(
            case['id'], case['shape'], text, value, case['args'], case['model_text'], case['user_prompt'], facts
        )
    return out


def capture(case_id: str) -> Capture:
    return captures()[case_id]


def line_with(text: str, fragment: str) -> str:
    """The first line of `text` holding `fragment`."""
    return next(line for line in text.split('\n') if fragment in line)
