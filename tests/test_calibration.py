"""`observable-harness calibrate` on a distribution it did not make up: sizes measured from the real
command output in shared/traffic, recorded through the real recorders into a real `configure()`
endpoint, scraped over HTTP and parsed back."""

from __future__ import annotations

import importlib
import math
import re
import sys
import types
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

import pytest

from observable_harness import calibration
from observable_harness.calibration import Limits, SizeDistribution, parse_exposition, propose, render_python
from observable_harness.cli import main
from observable_harness.telemetry import names
from tests.e2e.prometheus import http_get, serving
from tests.otlp_receiver import closed_port
from tests.telemetry_child import traffic_sizes


@pytest.fixture(scope='module')
def traffic_exposition() -> Generator[str]:
    """The `/metrics` text of a `configure()` endpoint fed with the real traffic sizes."""
    command = [sys.executable, '-m', 'tests.telemetry_child', '--configure', '{"metrics_port": 0}']
    with serving([*command, '--workload', 'traffic', '--serve']) as child:
        yield http_get(child.ready['metrics_url'])


def true_quantile(samples: list[int], q: float) -> int:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def bucket_of(value: float) -> float:
    """Upper bound of the catalog bucket holding `value`."""
    return next((bound for bound in names.SIZE_BUCKETS if value <= bound), math.inf)


def test_parsed_distributions_are_the_recorded_sizes(traffic_exposition: str) -> None:
    measured = traffic_sizes()
    distributions = {d.tool: d for d in parse_exposition(traffic_exposition)}
    assert set(distributions) == set(measured)
    for tool, samples in measured.items():
        d = distributions[tool]
        assert d.size_unit == 'chars'
        assert d.count == len(samples)
        assert d.total == sum(samples)
        # Every bucket holds exactly the outputs whose size falls in it.
        for bound, cumulative in d.buckets:
            assert cumulative == sum(1 for s in samples if s <= bound), (tool, bound)
        # Percentiles land in the bucket of the true percentile: "within 2x", as documented.
        for q in (0.5, 0.9, 0.99):
            truth = true_quantile(samples, q)
            assert bucket_of(d.quantile(q)) == bucket_of(truth), (tool, q, d.quantile(q), truth)


def test_proposals_follow_the_documented_method_on_real_traffic(traffic_exposition: str) -> None:
    limits = Limits()
    measured = traffic_sizes()
    for d in parse_exposition(traffic_exposition):
        proposal = propose(d, limits)
        [band] = proposal.bands
        assert limits.floor <= band.over <= limits.budget
        assert band.max_chars == band.over
        p90 = d.quantile(0.9)
        if p90 > limits.budget:
            assert band.over == limits.budget
            assert 'beyond the 10,000-char budget' in band.reason
        else:
            assert band.over >= p90
        # The reported share is the share of real outputs above the threshold, within a bucket's worth.
        above = sum(1 for s in measured[d.tool] if s > band.over) / d.count
        reported = re.search(r'~(\d+)% of measured outputs', band.reason)
        if reported:
            assert abs(int(reported.group(1)) / 100 - above) <= 0.15, (d.tool, band.reason, above)
        else:
            assert above == 0, (d.tool, band.reason)


def test_find_listing_spills_at_the_budget_and_compile_errors_pass_through(traffic_exposition: str) -> None:
    proposals = {d.tool: propose(d) for d in parse_exposition(traffic_exposition)}
    # A 1 MB `find` listing is this tool's tail: it must not pass untouched whatever its p90.
    assert proposals['find_files'].bands[0].over == 10_000
    # gcc's output is never large: its band is a safety net no measured output reached.
    compile_band = proposals['compile'].bands[0]
    assert 'no measured output reached it' in compile_band.reason


class _Recorded:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs


@pytest.fixture
def tool_output_limits_api(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """The real `observable_harness.tool_output_limits` when it exists, else stand-ins that record calls."""
    try:
        return importlib.import_module('observable_harness.tool_output_limits')
    except ImportError:
        stub = types.ModuleType('observable_harness.tool_output_limits')
        for name in ('Band', 'Spill', 'Truncate', 'Summarize', 'ToolOutputLimits'):
            setattr(stub, name, type(name, (_Recorded,), {}))
        stub.TruncationStrategy = types.SimpleNamespace(head='head', tail='tail', head_tail='head_tail')  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, stub.__name__, stub)
        import observable_harness

        monkeypatch.setattr(observable_harness, 'ToolOutputLimits', stub.ToolOutputLimits, raising=False)
        return stub


def test_cli_prints_python_that_runs(
    traffic_exposition: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    tool_output_limits_api: types.ModuleType,
) -> None:
    saved = tmp_path / 'metrics.txt'
    saved.write_text(traffic_exposition, encoding='utf-8')
    assert main(['calibrate', str(saved)]) == 0
    printed = capsys.readouterr().out
    namespace: dict[str, Any] = {}
    exec(compile(printed, 'calibrate-output', 'exec'), namespace)
    per_tool = namespace['per_tool']
    assert set(per_tool) == set(traffic_sizes())
    for bands in per_tool.values():
        [band] = bands
        assert isinstance(band, tool_output_limits_api.Band)
    assert 'limits' in namespace
    # The distribution is printed beside each proposal.
    assert re.search(r'# find_files: 71 outputs in chars: p50 [\d,]+, p90 [\d,]+, p99 [\d,]+, mean [\d,]+', printed)
    find_sizes = traffic_sizes()['find_files']
    in_top_bucket = sum(512 * 1024 < size <= 1024 * 1024 for size in find_sizes)
    assert f'≤1M {in_top_bucket}' in printed


def test_cli_reads_a_live_metrics_endpoint(traffic_exposition: str, capsys: pytest.CaptureFixture[str]) -> None:
    command = [sys.executable, '-m', 'tests.telemetry_child', '--configure', '{"metrics_port": 0}']
    with serving([*command, '--workload', 'traffic', '--serve']) as child:
        assert main(['calibrate', child.ready['metrics_url']]) == 0
    live = capsys.readouterr().out
    assert "'find_files': [" in live
    assert 'from observable_harness.tool_output_limits import Band' in live


@pytest.mark.parametrize(
    ('source', 'message'),
    [
        ('/nonexistent/metrics.txt', 'could not read /nonexistent/metrics.txt'),
        ('EMPTY', 'has no tool-output size histogram'),
        ('http://127.0.0.1:{closed}', 'could not reach'),
        ('http://127.0.0.1:{closed}/metrics', 'could not reach'),
    ],
)
def test_cli_errors_say_what_to_do(
    source: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ports are picked here, not in the parameters: xdist workers must collect identical test ids.
    source = source.format(closed=closed_port())
    if source == 'EMPTY':
        source = str(tmp_path / 'other.txt')
        Path(source).write_text('# TYPE up gauge\nup 1\n', encoding='utf-8')
    assert main(['calibrate', source]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert 'Traceback' not in err


def test_bounds_are_validated() -> None:
    with pytest.raises(ValueError, match='floor <= budget'):
        Limits(budget=1_000, floor=2_000)


def _distribution(sizes: Sequence[float], unit: str = 'chars') -> SizeDistribution:
    rows = [
        ({'tool': 't', 'size_unit': unit, 'le': str(bound)}, float(sum(1 for s in sizes if s <= bound)))
        for bound in (*names.SIZE_BUCKETS, math.inf)
    ]
    return calibration._collect(rows)[0]


def test_quantile_matches_prometheus_semantics() -> None:
    # 10 outputs in (256, 512], 10 in (512, 1024]: the median is the top of the first bucket.
    d = _distribution([300] * 10 + [600] * 10)
    assert d.quantile(0.5) == 512
    assert d.quantile(0.75) == 768  # halfway through the second bucket
    # Beyond the last finite bucket Prometheus answers with the highest finite bound.
    assert _distribution([5e6] * 3).quantile(0.9) == names.SIZE_BUCKETS[-1]
    assert math.isnan(_distribution([]).quantile(0.5))


def test_percentiles_beyond_the_largest_bucket_say_so() -> None:
    huge = _distribution([300.0] * 20 + [6e6] * 80)
    assert huge.describe(0.5) == '> 4 MiB'
    assert huge.describe(0.1) == f'{round(huge.quantile(0.1)):,}'
    rendered = render_python([propose(huge)], source='example')
    assert 'p50 > 4 MiB, p90 > 4 MiB, p99 > 4 MiB' in rendered
    assert '4,194,304' not in rendered


def test_threshold_is_rounded_to_readable_steps_and_clamped() -> None:
    assert [calibration._round_up_125(v) for v in (7_800, 2_028, 1_000, 10_001, 3)] == [10_000, 5_000, 1_000, 20_000, 5]
    small = propose(_distribution([300.0] * 50))
    assert small.bands[0].over == 2_000
    assert 'floor' in small.bands[0].reason
    few = propose(_distribution([300.0] * 5))
    assert few.bands == ()
    assert 'only 5 outputs' in few.note


def test_token_histograms_use_token_thresholds_and_character_truncation() -> None:
    proposal = propose(_distribution([3_000.0] * 45 + [20_000.0] * 5, unit='tokens'))
    [band] = proposal.bands
    assert band.over == 2_500  # the 10,000-character budget in tokens
    assert band.max_chars == 10_000  # Truncate.max_chars is always characters
    text = calibration.render_python([proposal], source='x')
    assert 'per_tool_tokens = {' in text
    assert 'over_tokens=True' in text


def test_docstring_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    doc = calibration.__doc__ or ''
    [example] = re.findall(r'```python\n(.*?)```', doc, re.S)
    exec(compile(example, 'calibration-docstring', 'exec'), {})
    out = capsys.readouterr().out
    assert "'grep': [" in out
    assert 'Band(over=5_000' in out


MONEY_EXPOSITION = '\n'.join(
    [
        '# TYPE tool_output_cost_avoided_usd_total counter',
        *(
            f'tool_output_cost_avoided_usd_total{{tool="{tool}",model="{model}",estimate="{estimate}"}} {value}'
            for tool, model, estimate, value in (
                ('grep', 'claude-sonnet-4-6', 'lower', 0.2),
                ('grep', 'claude-sonnet-4-6', 'expected', 0.9),
                ('grep', 'claude-sonnet-4-6', 'upper', 2.0),
                ('grep', 'gpt-4o', 'lower', 0.1),
                ('grep', 'gpt-4o', 'expected', 0.15),
                ('grep', 'gpt-4o', 'upper', 0.2),
                ('read_file', 'claude-sonnet-4-6', 'lower', 0.5),
                ('read_file', 'claude-sonnet-4-6', 'expected', 3.5),
                ('read_file', 'claude-sonnet-4-6', 'upper', 5.0),
                # Responses that reported no input tokens leave no expected figure: ranked by the lower bound.
                ('fetch', 'gpt-4o', 'lower', 1.2),
                ('fetch', 'gpt-4o', 'upper', 2.4),
            )
        ),
        '',
    ]
)


def test_money_is_summed_over_models_per_tool_and_ranked_by_its_expected_figure() -> None:
    money = {m.tool: m for m in calibration.parse_money(MONEY_EXPOSITION)}
    grep = money['grep']
    assert (grep.lower, grep.expected, grep.upper) == pytest.approx((0.3, 1.05, 2.2))
    assert grep.models == ('claude-sonnet-4-6', 'gpt-4o')
    assert money['fetch'].expected is None
    ranked = calibration.rank_by_money(money.values())
    assert [m.tool for m in ranked] == ['read_file', 'fetch', 'grep']
    assert calibration.parse_money('# TYPE up gauge\nup 1\n') == []


def test_cli_ranks_tools_by_money_and_annotates_the_proposals(
    traffic_exposition: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / 'metrics.txt'
    saved.write_text(traffic_exposition + MONEY_EXPOSITION, encoding='utf-8')
    assert main(['calibrate', str(saved), '--rank', 'money']) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if not line.startswith('#')]
    assert lines == [
        '  1. read_file  $3.50 expected, $0.50 to $5.00 (claude-sonnet-4-6)',
        '  2. fetch      $1.20 to $2.40 (gpt-4o)',
        '  3. grep       $1.05 expected, $0.30 to $2.20 (claude-sonnet-4-6, gpt-4o)',
    ]
    # Without --rank, a tool the money series name gets its figure beside its proposal.
    money_for_run_tests = MONEY_EXPOSITION.replace('tool="grep"', 'tool="run_tests"')
    saved.write_text(traffic_exposition + money_for_run_tests, encoding='utf-8')
    assert main(['calibrate', str(saved)]) == 0
    printed = capsys.readouterr().out
    assert '#   re-sends avoided: $1.05 expected, $0.30 to $2.20 (claude-sonnet-4-6, gpt-4o)' in printed
    assert printed.count('re-sends avoided') == 1


def test_ranking_without_priced_re_sends_says_what_records_them(
    traffic_exposition: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / 'metrics.txt'
    saved.write_text(traffic_exposition, encoding='utf-8')
    assert main(['calibrate', str(saved), '--rank', 'money']) == 2
    assert 'no priced re-sends' in capsys.readouterr().err
