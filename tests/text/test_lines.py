"""The line classifier on real command output produced during the run (SPEC BTO-5)."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from observable_harness._text import lines as lines_module
from observable_harness._text.lines import (
    _PROGRESS,
    _STRONG_ERROR,
    _STRONG_WORDS,
    _WEAK_ERROR,
    _WEAK_WORDS,
    alert_class,
    exit_status_of,
    is_section_header,
    line_shape,
)
from observable_harness.bounded import LineClass, classify_line, classify_lines
from tests.real_outputs import RealOutput


def classes_of(output: RealOutput) -> list[tuple[str, LineClass]]:
    lines = output.text.splitlines()
    return list(zip(lines, classify_lines(lines).classes, strict=True))


def test_compiler_errors_warnings_and_context(real_outputs: dict[str, RealOutput]) -> None:
    gcc = real_outputs.get('gcc')
    if gcc is None:
        pytest.skip('no C compiler on this machine')
    classified = classes_of(gcc)
    errors = [line for line, cls in classified if cls is LineClass.error]
    assert errors == [line for line, _ in classified if ': error: ' in line]
    assert len(errors) >= 4
    assert {cls for line, cls in classified if ': warning: ' in line} == {LineClass.warning}
    # The source excerpt and the caret under it locate the error: stack, not noise.
    assert {cls for line, cls in classified if line.lstrip().startswith('|')} == {LineClass.stack}
    assert {cls for line, cls in classified if ': note: ' in line} == {LineClass.stack}


def test_pytest_failures_tracebacks_progress_and_summary(real_outputs: dict[str, RealOutput]) -> None:
    classified = classes_of(real_outputs['pytest'])
    by_line = dict(classified)
    final = classified[-1][0]
    assert by_line[final] is LineClass.summary and 'failed' in final and 'passed' in final
    assert all(cls is LineClass.error for line, cls in classified if line.startswith(('E   ', 'FAILED ')))
    # Every passing test's line is progress or a repeat of one: noise for a failing run.
    passed = [cls for line, cls in classified if line.endswith('%]') and ' PASSED ' in line]
    assert len(passed) == 120
    assert set(passed) <= {LineClass.progress, LineClass.repeated}
    # Source lines inside the FAILURES section are the traceback.
    assert any(cls is LineClass.stack and line.startswith('>') for line, cls in classified)


def test_listing_paths_are_payload_even_when_named_like_errors(real_outputs: dict[str, RealOutput]) -> None:
    classified = classes_of(real_outputs['find'])
    assert any(line.endswith('/urllib/error.py') for line, _ in classified)
    assert {cls for _, cls in classified} <= {LineClass.normal, LineClass.repeated}


def test_pip_log_error_and_progress(real_outputs: dict[str, RealOutput]) -> None:
    classified = classes_of(real_outputs['pip'])
    assert any(cls is LineClass.error and 'metadata-generation-failed' in line for line, cls in classified)
    copying = [cls for line, cls in classified if line.lstrip().startswith('copying ')]
    assert len(copying) == 150
    assert set(copying) <= {LineClass.progress, LineClass.repeated}


@pytest.mark.parametrize(
    ('line', 'expected'),
    [
        ('', LineClass.blank),
        ('   ', LineClass.blank),
        ('Traceback (most recent call last):', LineClass.stack),
        ('  File "/app/x.py", line 3, in <module>', LineClass.stack),
        ("KeyError: 'b'", LineClass.error),
        ('npm ERR! code ELIFECYCLE', LineClass.error),
        # A table's totals row, bare (`coverage report`) or between pipes (`interrogate`), is its own account.
        ('TOTAL                               5620   1190    79%', LineClass.summary),
        ('| TOTAL                |        1016 |        544 |         472 |        46.5% |', LineClass.summary),
        ('TOTALLY 5 of them', LineClass.normal),
        # make's verdict on a target it gave up on is the build's own account of what failed.
        ('make: *** [Makefile:12: all] Error 2', LineClass.summary),
        ('make[2]: *** [src/Makefile:80: lib.o] Error 1', LineClass.summary),
        ("make: *** No rule to make target '11_file_info', needed by 'all'.", LineClass.error),
        ("make[2]: *** No rule to make target 'lib.o', needed by 'all'.  Stop.", LineClass.error),
        ('2026-11-29 10:00:01 ERROR db: connection refused', LineClass.error),
        ('ld: cannot find -lfoo', LineClass.error),
        ('WARNING: pip is configured with locations that require TLS', LineClass.warning),
        ('DeprecationWarning: use load() instead', LineClass.warning),
        ('Successfully installed requests-2.32.0', LineClass.summary),
        ('Ran 12 tests in 0.004s', LineClass.summary),
        # vitest's account of a run, under its failures: files and tests failed and passed.
        (' Test Files  13 failed | 10 passed (23)', LineClass.summary),
        ('      Tests  28 failed | 30 passed (58)', LineClass.summary),
        ('Tests were run twice', LineClass.normal),
        ('exit status 2', LineClass.summary),
        ('Downloading numpy-2.1.0.tar.gz (18.9 MB)', LineClass.progress),
        ('   ━━━━━━━━━━━━━━━━━━━━━ 18.9/18.9 MB 40.1 MB/s eta 0:00:00', LineClass.progress),
        ('[15/18] Compiling C object libjson-c.so.5.5.0.p/json_object.c.o', LineClass.progress),  # ninja
        ('[ 45%] Building C object src/CMakeFiles/zlib.dir/deflate.c.o', LineClass.progress),  # CMake's make
        ('       Fresh memchr v2.5.0', LineClass.progress),  # cargo -v
        ('     Running `rustc --crate-name console --edition=2018 src/lib.rs`', LineClass.progress),
        ('  libjli.so => not found', LineClass.error),  # ldd
        ('Found 199 dependency issues.', LineClass.summary),  # deptry
        ('Found 3 known vulnerabilities in 2 packages', LineClass.summary),  # pip-audit
        ('Found 7 files in the cache', LineClass.normal),
        ('key not found in cache, fetching', LineClass.normal),
        ('[15/18] is the ratio asked about', LineClass.normal),
        ('/usr/lib/python3/urllib/error.py', LineClass.normal),
        ('hello world', LineClass.normal),
    ],
)
def test_single_lines(line: str, expected: LineClass) -> None:
    assert classify_line(line) is expected


def test_repeats_are_lines_shaped_like_the_previous_one() -> None:
    lines = ['retry 1 of 50: connection refused'] + [f'retry {i} of 50: connection refused' for i in range(2, 40)]
    classification = classify_lines(lines)
    assert classification.classes[0] is LineClass.error
    assert set(classification.classes[1:]) == {LineClass.repeated}
    assert set(classification.bases) == {LineClass.error}
    assert line_shape('a 1  b') == line_shape('a 22 b')


def test_python_traceback_ends_with_its_exception_line() -> None:
    lines = [
        'Traceback (most recent call last):',
        '  File "a.py", line 1, in f',
        '    g()',
        'custom failure text',
        'next',
    ]
    assert classify_lines(lines).classes == [
        LineClass.stack,
        LineClass.stack,
        LineClass.stack,
        LineClass.error,
        LineClass.normal,
    ]


def test_exit_status_and_section_headers() -> None:
    assert exit_status_of('exit=1') == 1
    assert exit_status_of('Process exited with code 137') == 137
    assert exit_status_of('exit status 0') == 0
    assert exit_status_of('the exit is near') is None
    assert is_section_header('=================== FAILURES ===================')
    assert is_section_header('## Results')
    assert not is_section_header('a = b')


# The progress-bar alternative as it was before it took a run of `#`/`=` whole from its first character.
_OLD_BAR = re.compile(r'[#=]{6,}>?\s*\]?\s*\d')


@given(line=st.text(alphabet='#=> ]\t1x%', max_size=40))
def test_the_bar_pattern_finds_a_bar_exactly_where_its_slower_form_did(line: str) -> None:
    assert (_PROGRESS.search(line) is not None) == (_OLD_BAR.search(line) is not None)


def test_a_very_long_rule_is_classified_in_one_pass() -> None:
    # Quadratic before (a 20,000-character run of `#` took ~30 s); one pass over the run now.
    assert classify_line('#' * 20_000 + 'x%') is LineClass.normal
    assert classify_line('#' * 20_000 + ' 50%') is LineClass.progress
    assert classify_line('=' * 20_000 + '> 7') is LineClass.progress


@pytest.mark.parametrize(
    'line',
    [
        'test error::tests::regression_464 ... ok',  # a Rust module path, not an error: one test passing
        'test failure::tests::keeps_the_cause ... ok',
        'stress-ng: debug: [19862] fp-error: started [19862] (instance 0)',  # stress-ng's stressor named fp-error
    ],
)
def test_a_path_through_a_module_named_error_is_no_error(line: str) -> None:
    assert classify_line(line) is not LineClass.error


def test_a_line_ending_in_a_carriage_return_is_a_crlf_line_not_a_bar_drawn_over_itself() -> None:
    assert classify_line('debug1: Reading configuration data /etc/ssh/ssh_config\r') is LineClass.normal
    assert classify_line('Downloading 10%\rDownloading 20%\r') is LineClass.progress


_ALERTING = (LineClass.error, LineClass.warning, LineClass.summary)
_LINE_PARTS = st.sampled_from(
    (
        'error',
        'ERROR: ',
        'E   ',
        'E  assert 1 == 2',
        'warning: ',
        'FAILED tests/x.py::t',
        '5 passed, 1 failed in 0.1s',
        'exit status 1',
        'Traceback (most recent call last):',
        '  File "x.py", line 3, in f',
        '/usr/lib/error/x.py',
        '45%|####',
        ' ',
        'x',
        ': In function',
        'note: ',
    )
)


@given(line=st.one_of(st.lists(_LINE_PARTS, max_size=5).map(''.join), st.text(max_size=80)))
def test_the_alert_class_is_the_class_when_that_is_error_warning_or_summary(line: str) -> None:
    full = classify_line(line)
    assert alert_class(line) == (full if full in _ALERTING else None)


def test_the_alert_class_agrees_on_every_line_of_real_output(real_outputs: dict[str, RealOutput]) -> None:
    for output in real_outputs.values():
        for line in output.text.splitlines()[:4_000]:
            full = classify_line(line)
            assert alert_class(line) == (full if full in _ALERTING else None), (output.name, line)


@pytest.mark.parametrize(
    'line',
    [
        'Program received signal SIGSEGV, Segmentation fault.',  # gdb
        "thread 'main' panicked at src/main.rs:2:5:",  # Rust
        'Invalid read of size 4',  # valgrind
        'Failed publickey for root from 127.0.0.1 port 45682 ssh2: ED25519 SHA256:39x/GxJz',  # sshd
        'Error parsing line 12 of /etc/app.conf',
        'Authentication refused: bad ownership or modes for directory /home/deploy',  # sshd's StrictModes
    ],
)
def test_a_crash_a_debugger_or_a_runtime_reports_is_an_error(line: str) -> None:
    assert classify_line(line) is LineClass.error


@pytest.mark.parametrize(
    'line',
    [
        'Total tests: run=421 skipped=99',  # CPython's regrtest
        '== Tests result: SUCCESS ==',
        'Result: FAILURE',
        '(42 rows)',  # psql
        '(1 row)',
        'Found 5028 errors.',  # ruff, mypy
        '48 failed, 31 passed in 12.35s',  # pytest -q
        '79 passed in 10.58s',
        '3 passed, 1 warning in 0.50s',
        '4ece17a107d7b2e8bc3bd14356c2b53038fe41cf is the first bad commit',  # git bisect's verdict
    ],
)
def test_a_run_or_a_listing_counting_itself_is_a_summary(line: str) -> None:
    assert classify_line(line) is LineClass.summary


@pytest.mark.parametrize(
    'line',
    [
        'Result: the cache was cold',
        'total tests were slow',
        '(42 rows were skipped)',
        '3 passed in review, 2 failed in staging',
        'Which commit is the first bad commit?',
    ],
)
def test_prose_about_results_is_not_a_summary(line: str) -> None:
    assert classify_line(line) is not LineClass.summary


@given(line=st.one_of(st.lists(_LINE_PARTS, max_size=6).map(''.join), st.text(max_size=80)))
@example(line='ValueError: bad')
@example(line='Caused by: java.io.IOException')
@example(line='make[2]: *** [all] Error 2')
@example(line='\u017fegmentation fault (core dumped)')
def test_the_words_that_rule_a_line_out_are_in_every_line_the_error_regexes_match(line: str) -> None:
    # The substring tests run before the regexes and must never rule out a line one of them matches.
    if _STRONG_ERROR.search(line):
        assert any(word in line.lower() for word in _STRONG_WORDS)
    if _WEAK_ERROR.search(line):
        assert any(word in line.casefold() for word in _WEAK_WORDS)


@pytest.mark.parametrize(
    'line',
    [
        'build succeeded, 187 warnings.',  # sphinx-build
        'build finished with problems, 3 warnings.',  # sphinx-build -W --keep-going
        'Success: no issues found in 12 source files',  # mypy
        'Your code has been rated at 8.73/10 (previous run: 8.70/10, +0.03)',  # pylint
    ],
)
def test_a_checkers_own_account_of_its_run_is_a_summary(line: str) -> None:
    assert classify_line(line) is LineClass.summary


def test_a_line_repeated_word_for_word_is_classified_once_per_call(monkeypatch: pytest.MonkeyPatch) -> None:
    # A progress line or a warning printed again and again: its class depends on its text alone.
    calls: list[str] = []
    classify = lines_module._classify

    def counted(line: str, alert: bool) -> LineClass:
        calls.append(line)
        return classify(line, alert)

    monkeypatch.setattr(lines_module, '_classify', counted)
    batch = ['worker-3 processed batch', 'ERROR: disk full', 'worker-3 processed batch', 'ERROR: disk full', '']
    found = classify_lines(batch)
    assert sorted(set(calls)) == sorted(calls) == sorted(set(batch))
    assert found.bases == [LineClass.normal, LineClass.error, LineClass.normal, LineClass.error, LineClass.blank]


_ERROR_PIECES = st.sampled_from(
    [
        'error',
        'Error',
        'ERROR',
        'err!',
        'ERR!',
        'fatal',
        'Fatal Error',
        'FAILED',
        'failure',
        'Failures',
        'panic',
        'CRITICAL',
        'ValueError',
        'KeyboardInterrupt',
        'SystemExit',
        'Fault',
        'SERVER_ERROR',
        '>25 ',
        '12: ',
        '(error) ',
        'Caused by: ',
        'make[2]: ***',
        'make: *** ',
        ':',
        '::',
        '-',
        '[E0308]',
        ' ',
        '  ',
        'x',
        'é',
        'ſ',
        '\t',
        'tests',
    ]
)


@given(st.lists(_ERROR_PIECES, max_size=12).map(''.join))
@example('  Error: boom')
@example('fp-error: not one')
@example('error::tests')
def test_the_error_forms_tried_one_by_one_find_what_the_whole_pattern_finds(line: str) -> None:
    # Each form is tried only on a line holding its literals, for speed: the answer is the one regex's, always.
    assert lines_module.strong_error(line) is (lines_module._STRONG_ERROR.search(line) is not None)
