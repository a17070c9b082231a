"""`lined_json`: compact JSON on lines a reader and a search can use, meaning and spelling unchanged."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from observable_harness._text.layout import compact_json, lined_json

_TEXT = st.text(alphabet=st.sampled_from(['a', 'Z', ' ', ',', '"', '\\', ':', '{', ']', 'é', '\u2028', '\n', '🔥']))
_PLAIN = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False) | _TEXT
_VALUES = st.recursive(
    _PLAIN,
    lambda children: st.lists(children, max_size=12) | st.dictionaries(_TEXT, children, max_size=12),
    max_leaves=120,
)


@settings(max_examples=150, deadline=None)
@given(_VALUES, st.integers(min_value=8, max_value=160))
def test_a_lined_value_reads_back_as_the_value_and_each_line_is_spelled_as_compact_json(value: Any, width: int) -> None:
    compact = compact_json(value)
    lined = lined_json(value, width=width)
    assert json.loads(lined) == json.loads(compact)
    assert '\u2028' not in lined
    for line in lined.split('\n'):
        assert line.lstrip(' ').removesuffix(',') in compact


def test_small_members_stay_on_one_line_and_large_ones_open_a_line_each() -> None:
    value = {
        'name': 'cache',
        'policy': {'type': 'string', 'default': 'pull-push', 'enum': ['pull', 'push', 'pull-push']},
        'when': {'default': 'on_success'},
    }
    assert lined_json(value, width=60).split('\n') == [
        '{',
        ' "name":"cache",',
        ' "policy":{',
        '  "type":"string",',
        '  "default":"pull-push",',
        '  "enum":["pull","push","pull-push"]',
        ' },',
        ' "when":{"default":"on_success"}',
        '}',
    ]


def test_records_take_a_line_each_and_plain_values_fill_lines() -> None:
    value = {
        'installed': [{'name': 'requests', 'requires': ['urllib3>=1.21.1', 'idna<4,>=2.5']}, {'name': 'idna'}],
        'executed_lines': list(range(1, 40)),
    }
    lines = lined_json(value, width=40).split('\n')
    assert ' "installed":[' in lines
    assert '  {"name":"requests","requires":["urllib3>=1.21.1","idna<4,>=2.5"]},' in lines
    assert '  {"name":"idna"}' in lines
    rows = lines[lines.index(' "executed_lines":[') + 1 : -2]
    assert 1 < len(rows) < 39 and all(len(row) <= 2 + 40 for row in rows)
    assert [int(n) for row in rows for n in row.strip().strip(',').split(',')] == list(range(1, 40))


def test_objects_that_are_not_json_are_laid_out_as_they_serialize() -> None:
    @dataclasses.dataclass
    class Package:
        name: str
        summary: str

    value = {'packages': [Package('pydantic', 'Data validation using Python type hints' * 2)], 7: {1, 2}}
    lined = lined_json(value, width=40)
    assert json.loads(lined) == json.loads(compact_json(value))
    assert '  {"name":"pydantic","summary":"Data validation' in lined
    assert ' "7":[1,2]' in lined.split('\n')


def test_a_plain_value_or_a_small_one_is_its_compact_json() -> None:
    for value in ('text', 3, None, [], {}, {'a': [1, 2]}):
        assert lined_json(value) == compact_json(value)
