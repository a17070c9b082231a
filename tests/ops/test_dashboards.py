"""The shipped dashboards and alert rules: generated from the catalog, schema-valid, parseable by real
Prometheus tooling, naming only exposed metrics, and covering every panel and alert the issue asks for."""

from __future__ import annotations

import json
import re
import subprocess
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from observable_harness.cli import main
from observable_harness.ops import alerts, assets, dashboards
from observable_harness.ops.dashboards import evaluable, panel_queries
from tests.e2e.prometheus import PROMTOOL, REPO_ROOT
from tests.ops.grafana_model import Dashboard, Panel, RowPanel
from tests.ops.promql import promtool_check_expressions, selectors, unknown_names

DASHBOARD_DIR = REPO_ROOT / 'dashboards'
GRAFANA_BUILTINS = {'__rate_interval', '__range', '__interval', '__all'}

requires_promtool = pytest.mark.skipif(PROMTOOL is None, reason='promtool missing: .ci/run installs Debian prometheus')


def load(name: str) -> dict[str, Any]:
    return json.loads((DASHBOARD_DIR / name).read_text(encoding='utf-8'))


def all_dashboards() -> list[dict[str, Any]]:
    return [load(name) for name in dashboards.DASHBOARDS]


def all_expressions() -> dict[str, str]:
    exprs = {f'{q.dashboard} / {q.panel} / {q.ref}': q.expr for board in all_dashboards() for q in panel_queries(board)}
    exprs.update({f'alert {alert.name}': alert.expr for alert in alerts.ALERTS})
    return exprs


def test_committed_files_are_exactly_what_the_package_ships() -> None:
    for name, content in assets.render().items():
        path = (REPO_ROOT if name == assets.COLLECTOR_FILE else DASHBOARD_DIR) / name
        assert path.is_file(), f'{path} is missing: run `make dashboards`'
        assert path.read_text(encoding='utf-8') == content, f'{path} is stale: run `make dashboards`'


def test_the_assets_command_writes_every_shipped_file_into_any_directory(tmp_path: Path) -> None:
    assert main(['assets', str(tmp_path / 'out')]) == 0
    written = sorted(p.name for p in (tmp_path / 'out').iterdir())
    assert written == sorted(['alerts.rules.yml', *dashboards.DASHBOARDS, *assets.STATIC_FILES])
    for name in written:
        assert (tmp_path / 'out' / name).read_text(encoding='utf-8') == assets.render()[name]


@pytest.mark.parametrize('name', list(dashboards.DASHBOARDS))
def test_dashboard_follows_the_grafana_json_model(name: str) -> None:
    raw = load(name)
    board = Dashboard.model_validate(raw)

    # A Prometheus data source variable, and every panel and query bound to it.
    [datasource] = [v for v in board.templating.list if v.type == 'datasource']
    assert (datasource.name, datasource.query) == ('datasource', 'prometheus')
    flat: list[Panel | RowPanel] = []
    for panel in board.panels:
        flat.append(panel)
        if isinstance(panel, RowPanel):
            flat.extend(panel.panels)
    for panel in flat:
        if isinstance(panel, Panel):
            assert panel.datasource.uid == '${datasource}', panel.title
            assert all(t.datasource.uid == '${datasource}' for t in panel.targets), panel.title
            ref_ids = [t.refId for t in panel.targets]
            assert len(ref_ids) == len(set(ref_ids)), panel.title

    ids = [panel.id for panel in flat]
    assert len(ids) == len(set(ids)), 'panel ids must be unique'

    # Nothing overlaps on the grid.
    for a, b in combinations(flat, 2):
        pa, pb = a.gridPos, b.gridPos
        overlap = pa.x < pb.x + pb.w and pb.x < pa.x + pa.w and pa.y < pb.y + pb.h and pb.y < pa.y + pa.h
        assert not overlap, f'{a.title!r} overlaps {b.title!r}'

    # Every variable a query, title or repeat uses is defined (or one of Grafana's own).
    defined = {v.name for v in board.templating.list} | GRAFANA_BUILTINS
    text = json.dumps(raw['panels'])
    used = set(re.findall(r'\$\{?(\w+)', text))
    assert used <= defined, f'undefined variables: {sorted(used - defined)}'
    for panel in flat:
        if panel.repeat:
            [variable] = [v for v in board.templating.list if v.name == panel.repeat]
            assert variable.multi
            assert variable.includeAll


def test_every_panel_the_issue_lists_is_present() -> None:
    titles = {board['title']: {p['title'] for p in board['panels']} for board in all_dashboards()}
    tool_output = ' | '.join(sorted(titles['Tool output limits'])).lower()
    for wanted in (
        'tokens saved',
        'bytes saved',
        'resend tokens avoided',
        'decisions by tool and outcome',
        'fallback rate',
        'output sizes',  # the per-tool heatmap
        'percentiles against band thresholds',
        'spill store',
        'pruning',
        'read-back hit rate',
        'summarize: tokens spent against tokens saved',
        'reduce latency',
        'money avoided (expected)',
        'money avoided: lower bound',
        'money avoided: upper bound',
        'money avoided by tool and model: range',
        'cost per run',
        'spend per hour by model',
        'prompt cache: read share of input by model',
        'unpriced responses',
    ):
        assert wanted in tool_output, wanted
    reminders = ' | '.join(sorted(titles['System reminders'])).lower()
    for wanted in (
        'firings by reminder and kind',
        'cache-point placement and reasons',
        'generation tokens',
        'fallback',
        'cache-read share: requests with a reminder against without',
        'prompt cache: read share of input by model',
    ):
        assert wanted in reminders, wanted


def test_size_distribution_is_a_heatmap_per_tool_with_percentiles_and_thresholds() -> None:
    board = load('tool-output-limits.json')
    [row] = [p for p in board['panels'] if p['type'] == 'row' and p.get('repeat') == 'tool']
    after_row = board['panels'][board['panels'].index(row) + 1 :][:2]
    heatmap, percentiles = after_row
    assert heatmap['type'] == 'heatmap'
    assert heatmap['targets'][0]['format'] == 'heatmap'
    assert 'tool_output_size_chars_bucket' in heatmap['targets'][0]['expr']
    exprs = [t['expr'] for t in percentiles['targets']]
    for expr, q in zip(exprs[:3], (0.5, 0.9, 0.99), strict=True):
        # One series per unit the agents measure in, never a sum across characters and tokens.
        assert expr.count(f'histogram_quantile({q},') == 2
        assert 'tool_output_size_chars_bucket' in expr and 'tool_output_size_tokens_bucket' in expr
    assert 'tool_output_band_threshold_chars' in exprs[3] and 'tool_output_band_threshold_tokens' in exprs[3]


def test_every_query_and_alert_names_only_exposed_catalog_series_and_their_labels() -> None:
    expressions = all_expressions()
    assert len(expressions) > 30
    assert unknown_names(expressions.values()) == []
    # The checker does catch a wrong name or label (a test that cannot fail is a defect).
    assert unknown_names(['sum(rate(tool_output_decisions[5m]))'])
    assert unknown_names(['sum by (tool) (rate(tool_output_reads_total{tool="x"}[5m]))'])
    assert [s.metric for s in selectors('sum by (le) (rate(tool_output_size_chars_bucket{tool=~"a"}[5m]))')] == [
        'tool_output_size_chars_bucket'
    ]


@requires_promtool
def test_every_dashboard_query_parses_with_promtool() -> None:
    assert PROMTOOL is not None
    concrete = {key: evaluable(expr) for key, expr in all_expressions().items()}
    checked = promtool_check_expressions(PROMTOOL, concrete)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f'SUCCESS: {len(concrete)} rules found' in checked.stdout
    broken = promtool_check_expressions(PROMTOOL, {'broken': 'sum(rate(tool_output_decisions_total[5m])'})
    assert broken.returncode != 0


@requires_promtool
def test_alert_rules_pass_promtool_check_and_their_unit_tests() -> None:
    assert PROMTOOL is not None
    check = subprocess.run(
        [PROMTOOL, 'check', 'rules', str(DASHBOARD_DIR / alerts.RULES_FILE)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert f'SUCCESS: {len(alerts.ALERTS)} rules found' in check.stdout
    unit = subprocess.run(
        [PROMTOOL, 'test', 'rules', str(DASHBOARD_DIR / 'alerts.test.yml')],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert unit.returncode == 0, unit.stdout + unit.stderr
    assert 'SUCCESS' in unit.stdout


def test_every_alert_is_unit_tested_firing_and_quiet() -> None:
    text = (DASHBOARD_DIR / 'alerts.test.yml').read_text(encoding='utf-8')
    for alert in alerts.ALERTS:
        checks = re.findall(
            rf'alertname: {alert.name}\n\s+exp_alerts:(.*?)(?=\n\s+- eval_time|\n\s+- name|\Z)', text, re.S
        )
        assert any(c.strip() == '[]' for c in checks), f'{alert.name} has no "stays quiet" case'
        assert any('exp_labels' in c for c in checks), f'{alert.name} has no "fires" case'


def test_the_issue_alerts_exist() -> None:
    exprs = {alert.name: alert.expr for alert in alerts.ALERTS}
    assert 'tool_output_decisions_total{fallback="true"}' in exprs['ToolOutputFallbackRateHigh']
    assert 'tool_output_spill_failures_total' in exprs['ToolOutputSpillFailing']
    assert 'tool_output_store_prune_failures_total' in exprs['ToolOutputPruneFailing']
    assert 'tool_output_fallbacks_total{from_action="summarize"}' in exprs['ToolOutputSummarizeFailing']
    assert 'system_reminders_generate_fallbacks_total' in exprs['SystemRemindersGenerationFallingBack']
    dropped = next(alert for alert in alerts.ALERTS if alert.name == 'ModelPromptCacheReadShareDropped')
    # The share of the last half hour against the same model's share over the day, by model.
    now, day = dropped.operands
    assert '[30m]' in now and '[1d]' in day
    assert all(
        'model_usage_tokens_total{type="cache_read"}' in expr and 'sum by (model)' in expr for expr in (now, day)
    )
    assert dropped.expr.startswith(f'({now}) < 0.5 * ({day})')


def test_the_money_panels_show_the_range_and_price_only_what_was_priced() -> None:
    board = load('tool-output-limits.json')
    panels = {p['title']: p for p in board['panels']}
    ranged = [t['expr'] for t in panels['Money avoided by tool and model: range']['targets']]
    assert [next(e for e in ('lower', 'expected', 'upper') if f'estimate="{e}"' in expr) for expr in ranged] == [
        'lower',
        'expected',
        'upper',
    ]
    assert all('by (tool, model)' in expr and 'tool_output_cost_avoided_usd_total' in expr for expr in ranged)
    for title in ('Money avoided (expected)', 'Cost per run', 'Spend per hour by model'):
        assert panels[title]['fieldConfig']['defaults']['unit'] == 'currencyUSD', title
    [unpriced] = panels['Unpriced responses by model']['targets']
    assert 'pricing!="priced"' in unpriced['expr']


def test_evaluable_replaces_grafana_variables() -> None:
    expr = 'sum(increase(x{tool=~"$tool", unit=~"${size_unit}"}[$__rate_interval])) / y[$__range] + z[$window]'
    assert evaluable(expr, tool='fetch') == 'sum(increase(x{tool=~"fetch", unit=~".*"}[1m])) / y[5m] + z[5m]'


@pytest.mark.parametrize(
    'break_it',
    [
        lambda b: b['panels'][1].update(w=3),  # a key Grafana does not know
        lambda b: b['panels'][1]['gridPos'].update(x=20, w=6),  # off the grid
        lambda b: b['panels'][1]['targets'][0].pop('refId'),
        lambda b: b.update(uid='x' * 41),
        lambda b: b['templating']['list'][0].update(type='prometheus'),
    ],
)
def test_the_model_rejects_what_grafana_would_not(break_it: Any) -> None:
    from pydantic import ValidationError

    board = load('tool-output-limits.json')
    Dashboard.model_validate(board)
    break_it(board)
    with pytest.raises(ValidationError):
        Dashboard.model_validate(board)


@requires_promtool
def test_the_example_prometheus_config_is_valid_and_loads_the_rules() -> None:
    assert PROMTOOL is not None
    checked = subprocess.run(
        [PROMTOOL, 'check', 'config', str(DASHBOARD_DIR / 'prometheus.yml')],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f'SUCCESS: {len(alerts.ALERTS)} rules found' in checked.stdout
