"""Condensing on real command output: class before position, the bound, the marker (SPEC BTO-1, BTO-4..6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from observable_harness._text.condense import MIN_CONDENSE_CHARS, CondenseReport
from observable_harness.bounded import LEVELS, LineClass, classify_lines, condense
from observable_harness.telemetry import names
from tests.otel import OTelHarness
from tests.real_outputs import RealOutput

CRITICAL = (LineClass.error, LineClass.summary)


def critical_lines(text: str) -> list[str]:
    lines = text.splitlines()
    classification = classify_lines(lines)
    return [line for line, cls in zip(lines, classification.classes, strict=True) if cls in CRITICAL]


def budget_for(text: str) -> int:
    """A budget the error and result lines fit in with room to spare, as a realistic band would give."""
    return max(4_000, sum(len(line) + 1 for line in critical_lines(text)) + 1_500)


def accounted(report: CondenseReport) -> int:
    return sum(sum(table.values()) for table in (report.kept, report.collapsed, report.dropped, report.cut))


@pytest.mark.parametrize('level', list(LEVELS))
def test_errors_and_the_final_summary_survive_every_level(real_outputs: dict[str, RealOutput], level: str) -> None:
    for output in real_outputs.values():
        max_chars = budget_for(output.text)
        result = condense(output.text, level=level, max_chars=max_chars)
        assert len(result.text) <= max_chars, output.name
        kept = set(result.text.splitlines())
        missing = [line for line in critical_lines(output.text) if line not in kept]
        assert not missing, f'{output.name} at {level} lost {missing[:3]}'
        assert accounted(result.report) == result.report.lines_in


@pytest.mark.parametrize('level', list(LEVELS))
@pytest.mark.parametrize('max_chars', [MIN_CONDENSE_CHARS, 1_500, 4_000, 20_000])
def test_bound_holds_and_the_marker_is_there_whenever_anything_was_removed(
    real_outputs: dict[str, RealOutput], level: str, max_chars: int
) -> None:
    for output in real_outputs.values():
        result = condense(output.text, level=level, max_chars=max_chars)
        report = result.report
        assert len(result.text) <= max_chars, output.name
        if len(output.text) <= max_chars:
            assert result.text == output.text
            assert not report.changed
            continue
        assert report.changed
        marker = result.text.splitlines()[0]
        assert marker.startswith('[condensed · level '), output.name
        for fate in ('dropped', 'collapsed'):
            counts = getattr(report, fate)
            for line_class, count in counts.items():
                assert f'{count:,} {line_class.value}' in marker, (output.name, fate, line_class)
        if report.positional_cut:
            assert f'cut by position (kept the {report.keep}) {report.positional_cut:,} line' in marker
        assert 'rerun narrowed' in marker  # how to get the original, when it was not kept


def test_class_comes_before_position(real_outputs: dict[str, RealOutput]) -> None:
    pytest_run = real_outputs['pytest'].text
    lines = pytest_run.splitlines()
    classification = classify_lines(lines)
    noise = sum(
        len(line) + 1
        for line, cls in zip(lines, classification.classes, strict=True)
        if cls in (LineClass.progress, LineClass.repeated, LineClass.blank)
    )
    # Room for everything but the noise: dropping noise must be enough, and nothing is cut blind.
    result = condense(pytest_run, level='daily', max_chars=len(pytest_run) - noise + 1_000)
    assert result.report.cut == {}
    removed = {**result.report.dropped, **result.report.collapsed}
    assert sum(removed.values()) > 100
    assert set(removed) <= {LineClass.progress, LineClass.repeated, LineClass.blank}
    for cls in (LineClass.error, LineClass.stack, LineClass.warning, LineClass.summary):
        assert result.report.kept.get(cls, 0) == classification.counts()[cls], cls


def test_production_drops_nothing_and_long_session_saves_the_most(real_outputs: dict[str, RealOutput]) -> None:
    for output in real_outputs.values():
        if len(output.text) <= 4_000:
            continue
        sizes = {}
        for level in LEVELS:
            result = condense(output.text, level=level, max_chars=4_000)
            sizes[level] = result.report
            if level == 'production':
                assert result.report.dropped == {}
        assert sizes['long_session'].lines_in - sizes['long_session'].lines_out >= 0


def test_command_output_keeps_the_tail_and_reports_keep_the_head(real_outputs: dict[str, RealOutput]) -> None:
    listing = real_outputs['find'].text
    lines = listing.splitlines()
    tail = condense(listing, keep='tail', max_chars=3_000).text.splitlines()
    head = condense(listing, keep='head', max_chars=3_000).text.splitlines()
    assert lines[-1] in tail and lines[0] in tail  # both ends of the section survive either way
    shown_from_end = len([line for line in tail if line in set(lines[-200:])])
    shown_from_start = len([line for line in head if line in set(lines[:200])])
    assert shown_from_end > len([line for line in head if line in set(lines[-200:])])
    assert shown_from_start > len([line for line in tail if line in set(lines[:200])])
    report = '# Report\n' + '\n'.join(f'row {i}: value {i * 7}' for i in range(2_000))
    assert condense(report, max_chars=2_000).report.keep == 'head'  # auto: a headed file
    assert condense(listing, max_chars=2_000).report.keep == 'tail'  # auto: command output


def test_repeats_collapse_into_one_line_with_a_count() -> None:
    log = '\n'.join(['starting', *(f'retry {i}: connection refused' for i in range(500)), 'gave up: exit status 1'])
    result = condense(log, level='production', max_chars=MIN_CONDENSE_CHARS)
    shown = result.text.splitlines()
    assert shown[1:] == ['starting', 'retry 0: connection refused', '[… 498 similar lines …]',
                         'retry 499: connection refused', 'gave up: exit status 1']  # fmt: skip
    assert result.report.collapsed == {LineClass.repeated: 498}
    assert 'collapsed 498 repeated' in shown[0]


def test_errors_alone_over_budget_are_cut_by_position_too() -> None:
    names_ = [''.join(chr(97 + (i // 26**k) % 26) for k in range(3)) for i in range(3_000)]  # distinct words
    errors = '\n'.join(f'src/{name}.c:{i}:1: error: unknown type name ‘{name}’' for i, name in enumerate(names_))
    result = condense(errors, level='daily', max_chars=2_000)
    assert len(result.text) <= 2_000
    assert result.report.cut.get(LineClass.error, 0) > 2_900
    assert errors.splitlines()[-1] in result.text  # command output: the end survives
    assert 'cut by position (kept the tail)' in result.text.splitlines()[0]


def test_a_megabyte_line_keeps_both_ends() -> None:
    blob = 'HEAD' + 'x' * 1_000_000 + 'TAIL'
    result = condense(f'{blob}\nerror: payload rejected', max_chars=3_000)
    assert len(result.text) <= 3_000
    assert result.report.shortened == 1
    assert 'HEAD' in result.text and 'TAIL' in result.text and 'error: payload rejected' in result.text
    assert 'chars cut]' in result.text


def test_bad_arguments_are_clear_errors() -> None:
    with pytest.raises(ValueError, match='max_chars must be at least'):
        condense('x', max_chars=100)
    with pytest.raises(ValueError, match='Unknown condensing level'):
        condense('x' * 5_000, level='gentle')


_LINE = st.one_of(
    st.sampled_from(
        [
            '',
            'error: something broke',
            'E   AssertionError: assert 1 == 2',
            'warning: deprecated call',
            '=== 3 failed, 7 passed in 0.1s ===',
            '  File "x.py", line 3, in f',
            'Downloading pkg (1.2 MB)',
            'tests/t.py::test_x PASSED [ 10%]',
            '=================== FAILURES ===================',
        ]
    ),
    st.text(
        alphabet=st.characters(
            blacklist_categories=('Cs',), blacklist_characters='\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029'
        ),
        max_size=300,
    ),
)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(_LINE, max_size=400), level=st.sampled_from(list(LEVELS)), max_chars=st.integers(600, 6_000))
def test_any_output_is_bounded_marked_and_accounted(lines: list[str], level: str, max_chars: int) -> None:
    text = '\n'.join(lines)
    result = condense(text, level=level, max_chars=max_chars)
    assert len(result.text) <= max_chars
    assert accounted(result.report) == result.report.lines_in
    if result.report.changed:
        assert result.text.startswith('[condensed · level ')
    else:
        assert result.text == text


def test_telemetry_counts_classes_and_fates_and_never_carries_content(otel: OTelHarness) -> None:
    canary = 'CANARY-7f3e9a'
    log = '\n'.join(
        [*(f'Downloading {canary}-{i} (1 MB)' for i in range(300)), f'error: {canary} failed', 'exit status 1']
    )
    result = condense(log, level='daily', max_chars=1_000, tool_name='build')
    [span] = otel.spans(names.SPAN_CONDENSE)
    attributes = dict(span.attributes or {})
    assert attributes[names.GEN_AI_TOOL_NAME] == 'build'
    assert attributes[names.BOUNDED_LEVEL] == 'daily'
    assert attributes[names.BOUNDED_LINES_IN] == 302
    # Folding the repeats is the cheapest step and is enough: nothing else goes.
    assert attributes[names.BOUNDED_COLLAPSED] == 'repeated=298'
    assert attributes[names.BOUNDED_DROPPED] == ''
    assert attributes[names.BOUNDED_KEPT] == 'error=1,summary=1,progress=1,repeated=1'
    assert 'condense build (daily): 302 → ' in str(attributes[names.LOGFIRE_MSG])
    assert otel.delta(names.BOUNDED_LINES.name, level='daily', line_class='repeated', fate='collapsed') == 298
    assert otel.delta(names.BOUNDED_LINES.name, level='daily', line_class='error', fate='kept') == 1
    assert canary in result.text
    for our_span in otel.our_spans():
        for value in (our_span.attributes or {}).values():
            assert canary not in str(value)
    for point in otel.points():
        assert canary not in str(point.attributes)
