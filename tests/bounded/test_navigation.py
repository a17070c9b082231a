"""The deterministic navigation summary: fixed shape, at most ~150 words, named by content (SPEC BTO-2)."""

from __future__ import annotations

import asyncio
import json

import pytest

from observable_harness._text.navigation import offload_key
from observable_harness.bounded import navigation_summary, offload
from tests.doubles import MemoryStore
from tests.real_outputs import RealOutput

EXPECTED_TOPICS = {
    'pytest': 'test_run',
    'gcc': 'compiler',
    'pip': 'install_log',
    'find': 'listing',
    'traffic:pytest_verbose_failures.txt': 'test_run',
    'traffic:gcc_errors.txt': 'compiler',
    'traffic:pip_build_log.txt': 'install_log',
    'traffic:find_listing.txt': 'listing',
}


def test_real_outputs_get_their_kind_and_a_short_fixed_shape(real_outputs: dict[str, RealOutput]) -> None:
    for name, output in real_outputs.items():
        summary = navigation_summary(output.text, tool_name='tool')
        assert summary.topic == EXPECTED_TOPICS[name], name
        rendered = summary.render().splitlines()
        assert [line.split(':', 1)[0] for line in rendered][:2] == ['About', 'Kind']
        assert summary.words <= 150
        assert 1 <= len(summary.notable) <= 2, name


def test_summaries_point_at_the_failure(real_outputs: dict[str, RealOutput]) -> None:
    gcc = real_outputs.get('gcc')
    if gcc is None:
        pytest.skip('no C compiler on this machine')
    summary = navigation_summary(gcc.text, tool_name='build')
    assert 'errors' in summary.about and 'broken.c' in summary.about
    assert ': error: ' in summary.notable[0]
    run = navigation_summary(real_outputs['pytest'].text)
    assert '3 failed, 120 passed' in run.about


def test_structured_values_are_summarized_by_shape() -> None:
    records = [{'id': i, 'title': f'issue {i}', 'labels': ['bug']} for i in range(500)]
    summary = navigation_summary(json.dumps(records), tool_name='search', value=records, structured=True)
    assert summary.topic == 'json'
    assert 'list of 500 items of dict (keys: id, title, labels)' in summary.about


def test_word_ceiling_holds_for_long_lines() -> None:
    text = ('error: ' + ' '.join(f'word{i}' for i in range(400)) + '\n') * 3
    summary = navigation_summary(text, max_words=40)
    assert summary.words <= 40


def test_store_listing_reads_as_a_table_of_contents(real_outputs: dict[str, RealOutput]) -> None:
    store = MemoryStore()
    for name, output in real_outputs.items():
        asyncio.run(offload(output.text, store, tool_name=name.split(':')[0].replace('traffic', 'capture')))
    keys = sorted(store.data)
    assert len(keys) == len(real_outputs)
    assert any(key.startswith('offload/pytest/test_run-3-failed-120-passed') for key in keys)
    assert any(key.startswith('offload/find/listing-') for key in keys)
    summary = navigation_summary('x')
    assert offload_key('my tool!', summary, 'xxh3_128:0123456789abcdef') == 'offload/my_tool/text-x-0123456789'
