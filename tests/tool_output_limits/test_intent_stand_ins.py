"""Stand-ins chosen by what the model is looking for, through real Agent runs on real output (issue 13).

The intent comes from what the run holds when the tool returns: the call's arguments, the text and
thinking of the response that made the call, and the user prompt. Each source alone is enough; with
none of them the same row is not shown, so these tests would fail without the intent.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ThinkingPart, ToolCallPart
from tests.agents import Script, call, done, respond, text_of, tool_returns
from tests.otel import OTelHarness
from tests.standins import capture

from observable_harness import ToolOutputLimits
from observable_harness._text.cut import read_instructions
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import LocalFileStore

DATA = Path(__file__).resolve().parents[1] / 'data'
SETTINGS = capture('pg_settings_csv').text
ROW = 'random_page_cost,4,,Query Tuning'
"""A row in the middle of a 68 KB settings export: nothing but the request can bring it into 1,000 chars."""


class FullDisk:
    async def write(self, key: str, data: bytes) -> str:
        raise OSError(28, 'No space left on device')

    async def read(self, handle: str) -> bytes:
        raise KeyError(handle)


def stand_in(
    tmp_path: Path,
    *,
    args: dict[str, Any] | None = None,
    text: str = '',
    thinking: str = '',
    prompt: str = 'Look into the database settings.',
    output: Any = SETTINGS,
    store: Any = None,
) -> str:
    parts: list[Any] = []
    if thinking:
        parts.append(ThinkingPart(thinking))
    if text:
        parts.append(TextPart(text))
    parts.append(ToolCallPart('show_settings', args or {'scope': 'all'}, tool_call_id='call_settings'))
    script = Script([ModelResponse(parts=parts), done()])
    capability = ToolOutputLimits(store=store or LocalFileStore(base_dir=tmp_path))
    agent = Agent(script.model(), capabilities=[capability])

    @agent.tool_plain
    def show_settings(scope: str = 'all', name: str = '') -> Any:
        """Show the server's settings."""
        return output

    agent.run_sync(prompt)
    [part] = tool_returns(script.received[1], 'show_settings')
    return text_of(part)


def test_without_intent_the_middle_row_is_not_shown(tmp_path: Path) -> None:
    shown = stand_in(tmp_path)
    assert 'stored whole: 68,230 chars' in shown
    assert ROW not in shown


def test_intent_from_the_call_arguments(tmp_path: Path) -> None:
    shown = stand_in(tmp_path, args={'name': 'random_page_cost'})
    assert ROW in shown
    assert shown.count('\n') < 20  # a preview, not a page


def test_output_outside_ascii_is_searched_in_the_bytes_the_spill_writes(tmp_path: Path) -> None:
    # A text with characters outside ASCII is searched as the UTF-8 the write needs, encoded once for both:
    # the request's row is shown, and what was stored is the output, byte for byte.
    output = SETTINGS.replace('Query Tuning', 'Query Tuning \u2014 r\u00e9glage', 1)
    shown = stand_in(tmp_path, args={'name': 'random_page_cost'}, output=output)
    assert 'random_page_cost,4,,Query Tuning' in shown
    [stored] = [path for path in tmp_path.rglob('*') if path.is_file()]
    assert stored.read_bytes() == output.encode()


def test_intent_from_the_text_of_the_response_that_made_the_call(tmp_path: Path) -> None:
    shown = stand_in(tmp_path, text='The planner may overrate random I/O: let me check random_page_cost.')
    assert ROW in shown
    assert 'name,setting,unit,category' in shown  # the row comes with the header that names its columns


def test_intent_from_the_thinking_of_the_response(tmp_path: Path) -> None:
    shown = stand_in(tmp_path, thinking='Index scans look too expensive; random_page_cost is the suspect.')
    assert ROW in shown


def test_intent_from_the_user_prompt(tmp_path: Path) -> None:
    shown = stand_in(tmp_path, prompt='Why are index scans avoided? What is random_page_cost set to?')
    assert ROW in shown


def test_intent_picks_the_record_from_a_structured_return(tmp_path: Path) -> None:
    packages = capture('pip_list_records').value
    shown = stand_in(tmp_path, text='Which version of opentelemetry-sdk is installed?', output=packages)
    assert 'Shape: list of 134 items of dict' in shown
    assert '{"name":"opentelemetry-sdk","version":"1.45.2",' in shown
    assert re.search(r'\[… \d+ records …\]', shown)


def test_the_stand_in_stays_within_its_old_size(tmp_path: Path) -> None:
    offers = 0
    for text in (
        '',
        'Check random_page_cost, shared_buffers, effective_cache_size and the planner settings.',
        'How does the planner weigh costs here?',
    ):
        shown = stand_in(tmp_path, text=text)
        header, _, rest = shown.partition('\n')
        preview_line, _, body = rest.partition('\n')
        assert preview_line.startswith('Preview (')
        handle = re.search(r"handle='([^']+)'", header)
        assert handle
        how = read_instructions('read_tool_result', handle[1])
        plain = f'[Output of show_settings stored whole: {len(SETTINGS):,} chars. {how}]'
        offers += header != plain
        # A read offer in the header comes out of the preview's room: Spill.preview_chars holds both.
        assert len(header) - len(plain) + len(body) <= 1_000
    assert offers >= 1  # a request naming settings the preview has no room for all of


def test_the_read_offer_is_a_call_that_returns_the_matching_lines(tmp_path: Path) -> None:
    store = LocalFileStore(base_dir=tmp_path)
    shown = stand_in(tmp_path, text='How does the planner weigh costs here?', store=store)
    offer = re.search(
        r"(\d+) lines contain '([^']+)' \((\d+) shown below\): read them with "
        r"read_tool_result\(handle='([^']+)', pattern='([^']+)'\)",
        shown.split('\n', 1)[0],
    )
    assert offer, shown[-300:]
    count, pattern, _, handle, repeated = offer.groups()
    assert pattern == repeated
    matching = [line for line in SETTINGS.split('\n') if pattern in line]
    assert int(count) == len(matching) > 10

    def read(messages: list[ModelMessage]) -> ModelResponse:
        return respond(call('read_tool_result', {'handle': handle, 'pattern': pattern, 'limit': 500}, 'call_read'))

    script = Script([read, done()])
    agent = Agent(script.model(), capabilities=[ToolOutputLimits(store=store)])
    agent.run_sync('read the matches')
    [page] = tool_returns(script.received[1], 'read_tool_result')
    for line in matching:
        assert line[:60] in text_of(page)


def test_the_truncate_fallback_keeps_what_the_request_names(tmp_path: Path) -> None:
    shown = stand_in(tmp_path, text='Let me look at random_page_cost.', store=FullDisk())
    assert 'stored whole' not in shown
    marker = re.match(
        r'\[… truncated by selection: ([\d,]+) of ([\d,]+) chars cut in [\d,]+ places?, kept ([\d,]+)', shown
    )
    assert marker
    cut, total, kept = (int(group.replace(',', '')) for group in marker.groups())
    assert cut + kept == total == len(SETTINGS)
    assert ROW in shown
    assert len(shown) <= 4_000


CANARY_TERM = 'zq_canary_setting_xv'


def test_telemetry_counts_the_intent_and_never_records_it(otel: OTelHarness, tmp_path: Path) -> None:
    output = SETTINGS.replace('random_page_cost', CANARY_TERM)
    store = LocalFileStore(base_dir=tmp_path)
    shown = stand_in(tmp_path, text=f'Let me check {CANARY_TERM}.', output=output, store=store)
    assert CANARY_TERM in shown
    [span] = otel.spans(names.SPAN_REDUCE)
    attributes = dict(span.attributes or {})
    assert attributes[names.TOOL_OUTPUT_PREVIEW_SHAPE] == 'table'
    terms, lines = (
        attributes[names.TOOL_OUTPUT_PREVIEW_INTENT_TERMS],
        attributes[names.TOOL_OUTPUT_PREVIEW_INTENT_LINES],
    )
    assert isinstance(terms, int) and isinstance(lines, int)
    assert terms >= 1 and lines >= 1
    assert otel.delta(names.PREVIEWS.name, tool='show_settings', shape='table', intent='matched') == 1
    for recorded in otel.our_spans():
        assert CANARY_TERM not in str(dict(recorded.attributes or {}))
        assert CANARY_TERM not in str([event.attributes for event in recorded.events])
    for point in otel.points():
        assert CANARY_TERM not in str(point.attributes)


def test_a_preview_without_intent_is_counted_as_such(otel: OTelHarness, tmp_path: Path) -> None:
    stand_in(tmp_path, prompt='ok')
    assert otel.delta(names.PREVIEWS.name, tool='show_settings', shape='table', intent='none') == 1


def test_the_first_read_back_of_a_spill_counts_for_the_tool_that_made_it(otel: OTelHarness, tmp_path: Path) -> None:
    def read(messages: list[ModelMessage]) -> ModelResponse:
        [returned] = tool_returns(messages, 'show_settings')
        handle = re.search(r"handle='([^']+)'", text_of(returned))
        assert handle
        return respond(call('read_tool_result', {'handle': handle.group(1)}, f'call_read_{len(messages)}'))

    script = Script([respond(call('show_settings', {'scope': 'all'}, 'call_settings')), read, read, done()])
    agent = Agent(script.model(), capabilities=[ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path))])
    agent.tool_plain(name='show_settings')(lambda scope: SETTINGS)
    agent.run_sync('settings')
    # Two reads of one spill: one read-back, against the tool whose stand-in did not answer.
    assert otel.delta(names.READ_BACKS.name, tool='show_settings', shape='table') == 1
    assert otel.delta(names.READS.name, outcome='hit') == 2


@pytest.mark.parametrize('case', ['pytest_flask_upgrade', 'devserver_log', 'strace', 'git_log_stat', 'sysctl'])
def test_the_facts_of_a_real_capture_are_seen_with_its_request(case: str, tmp_path: Path) -> None:
    """The benchmark's cases through a real run: the call, the model's text and the user's prompt bring the facts in."""
    recorded = capture(case)
    script = Script([respond(TextPart(recorded.model_text), call('run_shell', recorded.args, 'call_shell')), done()])
    agent = Agent(script.model(), capabilities=[ToolOutputLimits(store=LocalFileStore(base_dir=tmp_path))])
    agent.tool_plain(name='run_shell')(lambda command: recorded.value)
    agent.run_sync(recorded.user_prompt)
    [part] = tool_returns(script.received[1], 'run_shell')
    missed = [fact for fact in recorded.facts if isinstance(fact, str) and fact not in text_of(part)]
    assert len(missed) <= 1, missed


def _radon_scores(text: str) -> list[tuple[int, str]]:
    """Each scored block of `radon cc -s` output with its score, read independently of the preview's parser."""
    return [
        (int(found.group(2)), found.group(1))
        for line in text.split('\n')
        if (found := re.fullmatch(r'    (\w \d+:\d+ \S+ - [A-F]) \((\d+)\)', line))
    ]


def test_a_request_for_the_most_complex_functions_shows_the_highest_scores(tmp_path: Path) -> None:
    # `radon cc -s` lists blocks file by file, each file's sorted: the highest scores overall are scattered
    # through 112 KB. Asked for the most complex, the stand-in shows the top three with the file above the first.
    report = gzip.decompress((DATA / 'diagnostics' / 'radon_cc_models.txt.gz').read_bytes()).decode()
    top = sorted(_radon_scores(report), reverse=True)[:3]
    asked = 'Which functions in the models package are the most complex? We want to refactor the worst first.'
    shown = stand_in(tmp_path, prompt=asked, output=report)
    for score, block in top:
        assert f'{block} ({score})' in shown, block
    plain = stand_in(tmp_path, prompt='Run radon over the models package.', output=report)
    assert not all(f'{block} ({score})' in plain for score, block in top)


def test_a_request_for_the_largest_directories_shows_them_from_an_unsorted_du(tmp_path: Path) -> None:
    listing = (DATA / 'listing' / 'du_opentelemetry.txt').read_text(encoding='utf-8')
    rows = [line for line in listing.split('\n') if line]
    largest = sorted(rows, key=lambda line: -int(line.split('\t')[0]))[:4]
    asked = 'What takes the space in the opentelemetry install: which are the largest?'
    shown = stand_in(tmp_path, prompt=asked, output=listing)
    for row in largest:
        assert row in shown
    smallest = stand_in(tmp_path, prompt='Which entries use the least space?', output=listing)
    assert not any(row in smallest for row in largest[1:])
