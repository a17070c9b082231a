"""The preview a stand-in shows: by request, shape and class, within its budget, its numbers adding up."""

from __future__ import annotations

import dataclasses
import json
import re
from unittest.mock import patch

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from observable_harness._text import intent as intent_module
from observable_harness._text import preview as preview_module
from observable_harness._text.cut import TruncationStrategy, cut_text
from observable_harness._text.intent import Intent, LineMatch, TermKind, find_matches
from observable_harness._text.layout import compact_json, lined_json
from observable_harness._text.preview import (
    Preview,
    _diff_weight,
    _later_exceptions,
    _listing_weight,
    _offer,
    select_preview,
)
from observable_harness._text.scan import usable
from observable_harness._text.shapes import TextView, _columns, _rare_rows, detect
from tests.captures import read_capture as data
from tests.standins import capture, captures, line_with

GAP = re.compile(r'\[… ([\d,]+) (line|record)s? …\]')
IN_LINE_CUT = re.compile(r' ?…\[([\d,]+) chars cut\]… ?|(?<=":)…(?=[,}])')
"""A cut inside a line, stated: `…[N chars cut]…`, or a record's value left out (`"email":…`)."""
NOTE = re.compile(r'\[[\d,]+ (?:diagnostics by code: |stacks weighing [\d,]+; the most under: ).*\]')


def asked(text: str, prompt: str, budget: int = 1_000) -> Preview:
    """The preview of `text` for a request whose user prompt is `prompt`, checked to fit and add up."""
    preview = select_preview(text, budget, intent=Intent.gather(prompt=prompt))
    assert_adds_up(preview, text, budget)
    return preview


def assert_adds_up(preview: Preview, text: str, budget: int) -> None:
    """The preview fits, shows only the text's own characters, and states every place it left text out."""
    assert len(preview.text) <= budget
    assert preview.kept_chars + preview.cut_chars == preview.total_chars == len(text)
    lines = preview.text.split('\n') if preview.text else []
    gaps = [(int(m.group(1).replace(',', '')), m.group(2)) for line in lines if (m := GAP.fullmatch(line))]
    shown = [line for line in lines if not GAP.fullmatch(line) and not NOTE.fullmatch(line)]
    cuts = sum(len(IN_LINE_CUT.findall(line)) for line in shown)
    assert len(gaps) + cuts == preview.places
    assert all(unit == preview.unit for _, unit in gaps)
    assert sum(count for count, _ in gaps) + preview.kept_lines == preview.total_lines
    for line in shown:
        assert all(piece in text for piece in IN_LINE_CUT.split(line)[::2])
    if preview.unit == 'line':
        assert len(shown) == preview.kept_lines


def test_a_single_long_line_is_cut_in_the_middle_and_uses_its_budget() -> None:
    """Minified data with no records: one cut, stated, with the budget used rather than 397 of 4,000 chars."""
    blob = ''.join(f'{i:08x}' for i in range(26_250))  # 210,000 chars, one line
    cut = cut_text(blob, 4_000, TruncationStrategy.salient)
    assert len(cut.text) <= 4_000
    marker, _, shown = cut.text.partition('\n')
    assert re.match(
        r'\[… truncated by selection: ([\d,]+) of 210,000 chars cut in 1 place, kept ([\d,]+) chars', marker
    )
    assert cut.kept_chars + cut.cut_chars == 210_000
    assert cut.kept_chars >= 0.9 * (4_000 - len(marker))
    [(stated)] = IN_LINE_CUT.findall(shown)
    assert int(stated.replace(',', '')) == cut.cut_chars
    head, tail = IN_LINE_CUT.split(shown)[::2]
    assert blob.startswith(head) and blob.endswith(tail)


def test_minified_json_holding_records_shows_whole_records() -> None:
    report = json.loads(capture('pyright_json').text)
    minified = json.dumps(report, separators=(',', ':'))
    intent = Intent.gather(prompt='What is wrong in tqdm/contrib/logging.py?')
    preview = select_preview(minified, 1_500, intent=intent)
    assert preview.unit == 'record' and preview.shape == 'records'
    assert_adds_up(preview, minified, 1_500)
    record = next(line for line in preview.text.split('\n') if 'logging.py' in line)
    assert json.loads(record.rstrip(','))['message'] in {
        'Unexpected token at end of expression',
        'Cannot access attribute "stream" for class "Handler"\n\xa0\xa0Attribute "stream" is unknown',
    }


def test_a_profile_keeps_its_top_rows_and_no_warning_class_rows() -> None:
    """Rows for `...Warning` classes are data, not warnings: they do not push out the top of the table."""
    profile = capture('cprofile_tottime').text
    preview = select_preview(profile, 1_000)
    assert line_with(profile, 'fields.py:320(serialize)') in preview.text
    assert line_with(profile, '699710 function calls') in preview.text
    assert 'Warning)' not in preview.text
    assert_adds_up(preview, profile, 1_000)


def test_a_trace_shows_its_processes_failure_and_exit_before_any_search_path_lookup() -> None:
    """Hundreds of ENOENT lookups are how programs probe: they fill spare room, they push nothing out."""
    trace = capture('strace').text
    preview = select_preview(trace, 1_000)
    assert 'execve("/usr/lib/postgresql/15/bin/psql"' in preview.text
    assert 'connect(3, {sa_family=AF_UNIX, sun_path="/tmp/.s.PGSQL.54329"}, 110) = 0' in preview.text
    assert 'write(2, "connection to server on socket' in preview.text
    assert preview.text.endswith('+++ exited with 2 +++')


def test_a_long_traceback_at_the_end_keeps_the_innermost_frame_of_the_users_code() -> None:
    """The frames of a deep traceback outrun the lines read at the end: its header is found in the middle,
    and the frame in the application's own code is shown beside the exception."""
    served = [f'2026-11-29 10:00:{i % 60:02d} INFO request {i} served in 3 ms' for i in range(400)]
    frames = [
        line
        for i in range(20)
        for line in (
            f'  File "/usr/lib/python3.11/site-packages/lib{i}/mod.py", line {i + 10}, in f{i}',
            f'    g{i}(x)',
        )
    ]
    frames[2:4] = ['  File "/srv/app/billing/invoice.py", line 88, in total', '    return sum(i.price for i in items)']
    exception = "TypeError: unsupported operand type(s) for +: 'int' and 'NoneType'"
    log = '\n'.join([*served, 'Traceback (most recent call last):', *frames, exception, 'exit=1'])
    preview = select_preview(log, 1_000)
    assert '  File "/srv/app/billing/invoice.py", line 88, in total\n    return sum(' in preview.text
    assert preview.text.endswith(f'{exception}\nexit=1')


GDB_BANNER = [
    'warning: File "/opt/py/bin/python3.12-gdb.py" auto-loading has been declined by your `auto-load safe-path`.',
    'To enable execution of this file add',
    '\tadd-auto-load-safe-path /opt/py/bin/python3.12-gdb.py',
    'line to your configuration file "/home/dev/.config/gdb/gdbinit".',
    '[Thread debugging using libthread_db enabled]',
    'Using host libthread_db library "/lib/x86_64-linux-gnu/libthread_db.so.1".',
]


def gdb_backtrace(frames: int) -> str:
    crash = [
        '',
        'Program received signal SIGSEGV, Segmentation fault.',
        '__strlen_avx2 () at ../sysdeps/x86_64/multiarch/strlen-avx2.S:76',
        '76\t../sysdeps/x86_64/multiarch/strlen-avx2.S: No such file or directory.',
        '#0  __strlen_avx2 () at ../sysdeps/x86_64/multiarch/strlen-avx2.S:76',
        '#1  0x00007ffff715a608 in parse_header (buf=0x0, size=-1) at src/reader/header.c:212',
    ]
    rest = [
        f'#{n}  0x00007ffff7c{n:05x} in dispatch_{n} (ctx=0x5555{n:04x}, flags=<optimized out>) at src/loop.c:{n * 7}'
        for n in range(2, frames)
    ]
    return '\n'.join([*GDB_BANNER * 3, *crash, *rest])


def test_a_crash_in_the_middle_shows_its_signal_and_innermost_frames() -> None:
    text = gdb_backtrace(40)
    for intent in (None, Intent.gather(text='Let me get a backtrace.', prompt='Why does the reader crash?')):
        preview = select_preview(text, 1_000, intent=intent)
        assert_adds_up(preview, text, 1_000)
        assert 'Program received signal SIGSEGV' in preview.text
        assert '#0  __strlen_avx2 ()' in preview.text and 'src/reader/header.c:212' in preview.text


def test_each_kind_of_fault_a_sanitizer_reports_is_shown_with_its_stack() -> None:
    # AddressSanitizer in recover mode on a small ring buffer (real run): a heap overflow in ring_sum, then a
    # use-after-free in main. The second fault is what the program goes on to do wrong, and where.
    text = data('logs', 'asan_ring.txt')
    for intent in (None, Intent.gather(text='I will run it under ASan.', prompt='Why does ring crash?')):
        preview = select_preview(text, 1_000, intent=intent)
        assert_adds_up(preview, text, 1_000)
        shown = preview.text.splitlines()
        assert 'in ring_sum /src/ring/ring.c:17' in preview.text
        at = next(index for index, line in enumerate(shown) if 'ERROR: AddressSanitizer: heap-use-after-free' in line)
        assert any(line.endswith('in main /src/ring/ring.c:29') for line in shown[at + 1 : at + 4])


def test_the_targets_make_gave_up_on_outrank_the_warnings_a_request_names() -> None:
    # zlib built with `make -k` and -Wconversion after a one-line edit (real): thirty warnings, one error, and
    # make's account of each target it could not build. Those say what failed, whatever else the request names.
    build = data('logs', 'zlib_make_k_error.txt')
    preview = asked(build, 'I rebuilt zlib with -Wconversion, make -k. Which targets failed, what do the warnings say?')
    for line in ('make: *** [Makefile:162: deflate.o] Error 1', 'make: *** [Makefile:213: deflate.lo] Error 1'):
        assert line in preview.text.splitlines()


def _postgres_log() -> list[str]:
    """A PostgreSQL server log (synthetic, in its format): checkpoints and connections, with errors among them."""
    lines = []
    for n in range(400):
        at = f'2026-03-02 10:{n // 60:02d}:{n % 60:02d}.{n:03d} UTC [{4000 + n}] app@shop'
        lines.append(f'{at} LOG:  connection authorized: user=app database=shop application_name=web-{n % 7}')
    return lines


def test_each_kind_of_error_a_log_holds_is_shown_once_before_its_repeats() -> None:
    # Forty duplicate-key errors, then a missing database and a statement timeout: the three kinds, not the first
    # few of the forty.
    lines = _postgres_log()
    for n in range(40):
        lines[100 + n * 4] = (
            f'2026-03-02 10:01:{n:02d}.000 UTC [{5000 + n}] app@shop ERROR:  duplicate key value violates unique '
            f'constraint "orders_ref_key"'
        )
    lines[300] = '2026-03-02 10:05:00.000 UTC [6001] app@shop_prod FATAL:  database "shop_prod" does not exist'
    lines[340] = '2026-03-02 10:05:40.000 UTC [6002] app@shop ERROR:  canceling statement due to statement timeout'
    text = '\n'.join(lines)
    preview = select_preview(text, 1_000)
    assert_adds_up(preview, text, 1_000)
    for message in (
        'ERROR:  duplicate key value violates',
        'FATAL:  database "shop_prod" does not exist',
        'ERROR:  canceling statement due to statement timeout',
    ):
        assert message in preview.text, message


def test_a_detail_line_a_request_names_brings_the_message_it_details() -> None:
    # PostgreSQL writes a message's detail and hint on lines of their own, from the same process: the lock the
    # request asks about is named in a DETAIL line, and what happened (a deadlock) in the ERROR line above it.
    lines = _postgres_log()
    for n in range(30):
        lines[20 + n * 5] = (
            f'2026-03-02 10:00:{n:02d}.000 UTC [{5000 + n}] app@shop ERROR:  relation "cart{n}" does not exist'
        )
    lines[200:200] = [
        '2026-03-02 10:03:20.041 UTC [7344] app@shop ERROR:  deadlock detected',
        '2026-03-02 10:03:20.041 UTC [7344] app@shop DETAIL:  Process 7344 waits for ShareLock on transaction 5774; '
        'blocked by process 7346.',
        '2026-03-02 10:03:20.041 UTC [7344] app@shop HINT:  See server log for query details.',
    ]
    text = '\n'.join(lines)
    preview = asked(text, 'Some requests hung on a ShareLock. Which transaction blocked them?')
    shown = preview.text.splitlines()
    at = next(index for index, line in enumerate(shown) if 'waits for ShareLock on transaction 5774' in line)
    assert shown[at - 1].endswith('ERROR:  deadlock detected')


def test_lines_holding_only_the_requests_plain_words_do_not_push_out_the_errors_of_each_kind() -> None:
    # A server log of statements and lock waits, with two errors of different kinds; the request speaks of errors
    # and lock waits in plain words, which every waiting line holds.
    lines = []
    for i in range(400):
        at = f'2026-03-02 10:{i // 60:02d}:{i % 60:02d}.{i:03d} UTC [{7000 + i}] app@shop'
        if i % 17 == 5:
            waiting = f'process {7000 + i} still waiting for ShareLock on transaction {5000 + i} after 1000.{i:03d} ms'
            lines.append(f'{at} LOG:  {waiting}')
            lines.append(f'{at} DETAIL:  Process holding the lock: {7001 + i}. Wait queue: {7000 + i}.')
        else:
            lines.append(f'{at} LOG:  duration: {i % 9}.{i:03d} ms  statement: SELECT * FROM orders WHERE id = {i}')
    duplicate = 'ERROR:  duplicate key value violates unique constraint "customers_email_key"'
    lines[120:120] = [f'2026-03-02 10:02:00.120 UTC [7120] app@shop {duplicate}']
    lines[260:260] = ['2026-03-02 10:04:20.260 UTC [7260] app@shop_prod FATAL:  database "shop_prod" does not exist']
    text = '\n'.join(lines)
    intent = Intent.gather(
        text='Let me read the PostgreSQL server log to see what errors, lock waits or slow statements happened.',
        prompt='Our shop app threw a bunch of database errors and a couple of requests hung. What went wrong?',
    )
    preview = select_preview(text, 1_000, intent=intent)
    assert_adds_up(preview, text, 1_000)
    assert duplicate in preview.text
    assert 'FATAL:  database "shop_prod" does not exist' in preview.text
    assert 'still waiting for ShareLock' in preview.text  # what the request's words found still has its place


def test_the_commits_whose_subject_names_what_the_request_names_are_listed_with_their_dates() -> None:
    # `git log -p --follow -- src/itsdangerous/serializer.py` (real, 78 KB): `Serializer` is on 151 lines of its
    # patches; the commits that say they changed it are the two whose subject names it.
    history = data('history', 'git_log_p_itsdangerous_serializer.txt.gz')
    preview = asked(
        history, 'We subclass itsdangerous.Serializer. What changed in Serializer over the years that could break us?'
    )
    shown = preview.text.splitlines()
    for subject, date in (
        ('    type Serializer as generic', 'Date:   Sat Apr 13 12:41:02 2024 -0700'),
        ('    Serializer can accept secret keys', 'Date:   Wed Sep 25 00:00:07 2019 +0800'),
    ):
        at = shown.index(subject)
        assert date in shown[at - 2 : at]


def test_a_spills_utf8_is_searched_for_markers_in_place_of_the_text() -> None:
    # A spill hands its UTF-8 to the preview: an ASCII text's markers are found in it, at the same places.
    lines = [f'12:00:{n % 60:02d} INFO request {n} served in {n % 13} ms' for n in range(3_000)]
    lines[1_800] = '12:30:00 ERROR request 1800 failed: connection reset by peer'
    text = '\n'.join(lines)
    preview = select_preview(text, 1_000, utf8=text.encode())
    assert 'ERROR request 1800 failed: connection reset by peer' in preview.text
    assert preview == select_preview(text, 1_000)


def test_a_jvm_exception_brings_the_frames_after_it() -> None:
    lines = [f'12:00:{n % 60:02d} INFO request {n} served in {n % 13} ms' for n in range(300)]
    lines[150:150] = [
        'Exception in thread "worker-2" java.lang.IllegalStateException: pool closed',
        '\tat com.acme.pool.Pool.borrow(Pool.java:88)',
        '\tat com.acme.api.Handler.handle(Handler.java:41)',
        '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
    ]
    text = '\n'.join(lines)
    preview = select_preview(text, 1_000)
    assert_adds_up(preview, text, 1_000)
    assert 'pool closed' in preview.text and 'Pool.java:88' in preview.text and 'Handler.java:41' in preview.text


def test_an_error_among_the_first_lines_read_but_not_classified_is_still_found() -> None:
    lines = [f'step {n}: compiled module_{n}.o' for n in range(30)]
    lines[20] = 'fatal error: zlib.h: No such file or directory'
    text = '\n'.join(lines + [f'step {n}: linked' for n in range(200)])
    preview = select_preview(text, 600)
    assert 'fatal error: zlib.h' in preview.text


def test_an_indented_line_the_request_names_brings_the_lines_it_sits_under() -> None:
    releases = []
    for minor in range(40, 0, -1):
        releases += [
            f'libfoo (1.{minor}.0-1) stable; urgency=medium',
            '',
            f'  * Import 1.{minor}.0',
            f'    - CVE-2024-{1000 + minor} (bounds check in parser stage {minor})',
            f'    - CVE-2024-{2000 + minor} (timing leak in handshake {minor})',
            '',
            f' -- Dev Eloper <dev@example.org>  Mon, {minor:02d} Jan 2024 10:00:00 +0100',
            '',
        ]
    text = '\n'.join(releases)
    preview = asked(text, 'Which release fixed CVE-2024-1017?')
    assert 'CVE-2024-1017 (bounds check' in preview.text
    assert 'libfoo (1.17.0-1) stable; urgency=medium' in preview.text, 'the release the entry belongs to'


def test_a_name_is_shown_where_it_is_defined_not_where_it_is_used() -> None:
    # `git blame` of a module: the function is called in many places before it is defined; the request asks who
    # added it, which the line of its definition answers.
    lines = [f'{n:08x}a (Dev One 2024-01-{n % 28 + 1:02d} 10:00:00 +0000 {n:4}) x = compute({n})' for n in range(600)]
    for n in range(10, 440, 10):
        lines[n] = f'{n:08x}b (Dev Two 2024-02-01 10:00:00 +0000 {n:4})     set_env("NAME_{n}", value)'
    lines[450] = 'c56e836d22 (Andrew Grigorev 2025-04-12 18:19:55 +0300  450) def set_env(name, value, original):'
    text = '\n'.join(lines)
    preview = asked(text, 'Who added set_env, and when?')
    assert 'c56e836d22 (Andrew Grigorev 2025-04-12' in preview.text


def test_an_option_a_manual_documents_is_shown_with_the_paragraph_under_it() -> None:
    # `man tar | col -bx`: `--exclude` begins fourteen other options' names (`--exclude-backups`, ...); the one the
    # request names is where it is documented whole, and what it does is the paragraph indented under it.
    manual = data('text', 'man_tar.txt.gz')
    preview = asked(manual, 'I want tar to leave out files matching a pattern. What does --exclude do exactly?')
    shown = preview.text.splitlines()
    at = shown.index('       --exclude=PATTERN')
    assert shown[at + 1] == '              Exclude  files  matching  PATTERN, a glob(3)-style wildcard pat‐'
    assert shown[at + 2] == '              tern.'


def test_a_short_record_the_request_names_is_shown_whole_with_room_where_it_names_something() -> None:
    # An apt history log (synthetic, in apt's format): a record of five `Key: value` lines per run. Asked when
    # redis came in and whether that run touched openssl, the answer is the whole record: its dates, its
    # command, and the upgrade line that names libssl among other packages.
    packages = ', '.join(f'lib{name}:amd64 (1.{n}-1, 1.{n}-2)' for n, name in enumerate(('zstd', 'lz4', 'xxhash')))
    records = []
    for day in range(1, 29):
        records.append(
            f'Start-Date: 2026-03-{day:02d}  09:00:00\nCommandline: apt-get install -y tool{day}\n'
            f'Install: tool{day}:amd64 (2.{day}-1), {packages}\nEnd-Date: 2026-03-{day:02d}  09:00:09'
        )
    records[17] = (
        'Start-Date: 2026-03-18  16:27:19\nCommandline: apt-get install -y --no-install-recommends redis-server\n'
        'Install: redis-tools:amd64 (5:7.0.15-1, automatic), redis-server:amd64 (5:7.0.15-1)\n'
        f'Upgrade: {packages}, libssl3:amd64 (3.0.15-1, 3.0.17-1), openssl:amd64 (3.0.15-1, 3.0.17-1)\n'
        'End-Date: 2026-03-18  16:27:31'
    )
    text = '\n\n'.join(records) + '\n'
    preview = asked(text, 'When did redis-server get installed here, and did that apt run touch openssl or libssl?')
    for line in ('Start-Date: 2026-03-18  16:27:19', 'End-Date: 2026-03-18  16:27:31'):
        assert line in preview.text, 'the rest of the record'
    assert 'libssl3:amd64 (3.0.15-1, 3.0.17-1)' in preview.text, 'cut around what the request names, with room'


def test_a_label_among_every_jump_into_it_is_found_and_brings_its_first_instructions() -> None:
    # A disassembly: the function's label once, a jump into it on hundreds of lines, too many to list.
    lines = ['Disassembly of section .text:', '']
    for index, name in enumerate(('encoder_new', 'scan_once', 'encoder_call', 'module_init')):
        lines.append(f'{0x2000 + index * 0x1000:016x} <{name}>:')
        lines += [
            f'    {0x2000 + index * 0x1000 + 4 * n:x}:\tjne    {0x2000 + n:x} <{name}+0x{n:x}>' for n in range(400)
        ]
        lines.append('')
    lines[-2] = '    5000:\tjmp    20f0 <PyModuleDef_Init@plt>'
    text = '\n'.join(lines)
    preview = asked(text, 'At what address does scan_once start, and what does it do first?')
    assert '0000000000003000 <scan_once>:' in preview.text
    assert '3000:\tjne    2000 <scan_once+0x0>' in preview.text, 'the first instruction after the label'


def test_a_few_short_lines_between_two_matches_are_shown_with_them() -> None:
    # A certificate dump: the request names the certificate, whose issuer and subject lines hold the name; the
    # dates it asks about sit on the lines between them.
    blocks = []
    for n in range(120):
        name = 'ISRG Root X1' if n == 70 else f'Example Root CA {n}'
        blocks += [
            'Certificate:',
            f'        Issuer: C=US, O=Example Org {n}, CN={name}',
            '        Validity',
            f'            Not Before: Jun  4 11:04:38 20{n % 30:02d} GMT',
            f'            Not After : Jun  4 11:04:38 20{n % 30 + 20:02d} GMT',
            f'        Subject: C=US, O=Example Org {n}, CN={name}',
            *[f'            {n:02x}:ad:e8:24:73:f4:14:37:f3:9b:9e:2b:57:28:1c:{k:02x}' for k in range(12)],
        ]
    text = '\n'.join(blocks)
    preview = asked(text, 'When does the ISRG Root X1 certificate expire?')
    assert 'CN=ISRG Root X1' in preview.text and 'Not After : Jun  4 11:04:38 2030 GMT' in preview.text


def test_a_sentence_the_request_names_is_shown_to_its_end_on_the_next_line() -> None:
    paragraphs = []
    for n in range(60):
        paragraphs += [
            f'    option_{n}(value, *, strict=False)',
            f'        If *option_{n}* is set, the parser checks stage {n} of the input and',
            f'        reports every record it rejects at stage {n}.',
            '',
        ]
    paragraphs[4 * 33 + 1] = '        If *sort_keys* is true (default: ``False``), then the output of'
    paragraphs[4 * 33 + 2] = '        dictionaries will be sorted by key.'
    text = '\n'.join(paragraphs)
    preview = asked(text, 'What does sort_keys do?')
    assert 'If *sort_keys* is true' in preview.text and 'dictionaries will be sorted by key.' in preview.text


def test_a_test_runs_durations_section_keeps_its_slowest_tests() -> None:
    # `pytest --durations` ends with a sorted list under its banner: the slowest tests come first, before the
    # final count; whether the request says so or not.
    lines = ['============================= test session starts ==============================']
    lines += [f'tests/test_more.py::Case{n}::test_{n} PASSED{" " * 20}[{n * 100 // 800:3d}%]' for n in range(800)]
    lines += ['', '============================= slowest 15 durations =============================']
    lines += [f'{20.44 / (n + 1):.2f}s call     tests/test_recipes.py::Slow{n}::test_{n}' for n in range(15)]
    lines += ['================= 800 passed in 45.59s ==================']
    text = '\n'.join(lines)
    for intent in (None, Intent.gather(prompt='Which tests are the slowest?')):
        preview = select_preview(text, 1_000, intent=intent)
        assert_adds_up(preview, text, 1_000)
        assert '20.44s call     tests/test_recipes.py::Slow0::test_0' in preview.text
        assert '10.22s call     tests/test_recipes.py::Slow1::test_1' in preview.text
        assert '800 passed in 45.59s' in preview.text


def test_a_quiet_runs_durations_before_a_long_skip_list_and_one_skip_of_each_reason_are_kept() -> None:
    # `pytest -q --durations=20 -rs` (synthetic, in pytest's format): a test a character, the durations in the
    # middle, then hundreds of skips for missing modules hiding the few skipped for want of an option.
    lines = [f'{"." * 72} [{n * 100 // 60:3d}%]' for n in range(60)]
    lines += ['============================= slowest 20 durations =============================']
    lines += [f'{9.87 / (n + 1):.2f}s call     pkg/tests/test_graph_{n}.py::test_big_{n}' for n in range(20)]
    lines += ['=========================== short test summary info ============================']
    skips = [
        f"SKIPPED [1] pkg/tests/test_np_{n}.py:{n + 3}: could not import 'numpy': No module named 'numpy'"
        for n in range(200)
    ]
    skips[40:40] = [f'SKIPPED [1] pkg/tests/test_slow_{n}.py:128: need --runslow option to run' for n in range(3)]
    lines += skips
    lines += ['4212 passed, 203 skipped in 118.40s (0:01:58)']
    text = '\n'.join(lines)
    for intent in (
        None,
        Intent.gather(prompt='Which tests are the slowest, and is anything skipped we should know about?'),
    ):
        preview = select_preview(text, 1_000, intent=intent)
        assert_adds_up(preview, text, 1_000)
        assert preview.shape == 'test_run'
        assert '9.87s call     pkg/tests/test_graph_0.py::test_big_0' in preview.text
        assert '4.93s call     pkg/tests/test_graph_1.py::test_big_1' in preview.text
        assert 'need --runslow option to run' in preview.text


def test_a_long_line_named_by_its_key_keeps_the_value_after_the_columns_padding() -> None:
    # `file /usr/bin/*` pads every name to one column: the value the request asks about begins after the padding.
    lines = [
        f'/usr/bin/tool{n}:{" " * 40}ELF 64-bit LSB pie executable, x86-64, version 1 (SYSV), dynamically linked, '
        f'interpreter /lib64/ld-linux-x86-64.so.2, BuildID[sha1]={n:040x}, for GNU/Linux 3.2.0, stripped'
        for n in range(400)
    ]
    lines[200] = lines[200].replace('/usr/bin/tool200:', '/usr/bin/gdb:    ').replace('pie executable', 'executable')
    text = '\n'.join(lines)
    preview = select_preview(text, 1_000, intent=Intent.gather(prompt='Is /usr/bin/gdb a PIE executable?'))
    assert_adds_up(preview, text, 1_000)
    [shown] = [line for line in preview.text.splitlines() if line.startswith('/usr/bin/gdb:')]
    assert 'ELF 64-bit LSB executable, x86-64' in shown


def test_a_profile_under_a_preamble_keeps_its_totals_and_top_rows() -> None:
    # `callgrind_annotate`: settings and a totals line between rules, then the table sorted by cost (numbers
    # with thousands separators); its top rows answer "what costs the most", request or not.
    rule = '-' * 80
    lines = [
        rule,
        "Profile data file 'callgrind.out.4122' (creator: callgrind-3.19.0)",
        rule,
        'I1 cache: ',
        'D1 cache: ',
    ]
    lines += ['Events recorded:  Ir', 'Events shown:     Ir', 'Thresholds:       99', '', rule, 'Ir', rule]
    lines += ['74,029,158 (100.0%)  PROGRAM TOTALS', '', rule, 'Ir                  file:function', rule]
    costs = [7_809_732 - n * 5_000 for n in range(1_200)]
    lines += [
        f'{cost:>10,} ({cost / 740_291.58:5.2f}%)  ???:func_{n} [/usr/lib/libexample.so]'
        for n, cost in enumerate(costs)
    ]
    text = '\n'.join(lines)
    for intent in (None, Intent.gather(prompt='Which function costs the most instructions?')):
        preview = select_preview(text, 1_000, intent=intent)
        assert_adds_up(preview, text, 1_000)
        assert '74,029,158 (100.0%)  PROGRAM TOTALS' in preview.text
        assert ' 7,809,732 (10.55%)  ???:func_0 ' in preview.text and ' 7,804,732 (10.54%)  ???:func_1 ' in preview.text


def test_a_fuller_history_shows_when_a_matched_commit_was_authored() -> None:
    commits = []
    for n in range(300):
        subject = (
            'Merge pull request #1155 from rhettinger/optimize_islice_extended' if n == 150 else f'Tidy module {n}'
        )
        commits += [
            f'commit {n:040x}',
            'Author:     Bo Bayles <bbayles@example.com>',
            f'AuthorDate: Thu Apr {n % 28 + 1:2d} 15:30:58 2026 -0500',
            'Commit:     GitHub <noreply@github.com>',
            f'CommitDate: Thu Apr {n % 28 + 1:2d} 15:30:58 2026 -0500',
            '',
            f'    {subject}',
            '',
        ]
    text = '\n'.join(commits)
    preview = select_preview(
        text, 1_000, intent=Intent.gather(prompt='When was the islice_extended optimization merged?')
    )
    assert_adds_up(preview, text, 1_000)
    assert f'commit {150:040x}' in preview.text and 'AuthorDate: Thu Apr 11 15:30:58 2026 -0500' in preview.text


def test_an_output_of_no_known_shape_with_nothing_flagged_keeps_both_its_ends() -> None:
    # `apt-config dump`: the settings asked about most sit at the top, the command line at the end; without a
    # request, the first lines are kept as well as the last, as a cut by position would keep them.
    lines = [
        'APT "";',
        'APT::Architecture "amd64";',
        'APT::Build-Essential "";',
        'APT::Build-Essential:: "build-essential";',
    ]
    lines += ['APT::Install-Recommends "1";', 'APT::Install-Suggests "0";']
    sections = ('Cache::Show', 'Get::Update', 'Cmd::Pattern-Only', 'DPkg::Lock::Timeout', 'Keep-Downloaded')
    lines += [f'Binary::apt::APT::{sections[n % 5]}{"::Sub" * (n % 4)} "{"x" * (n % 7) or n}";' for n in range(400)]
    lines += ['CommandLine "";', 'CommandLine::AsString "apt-config dump";']
    text = '\n'.join(lines)
    preview = select_preview(text, 1_000)
    assert_adds_up(preview, text, 1_000)
    assert 'APT::Install-Recommends "1";' in preview.text and 'APT::Install-Suggests "0";' in preview.text
    assert 'CommandLine::AsString "apt-config dump";' in preview.text


def test_a_line_of_preprocessed_c_brings_the_marker_naming_its_header() -> None:
    # `gcc -E`: declarations from many headers, each run of them under a `# line "file"` marker.
    lines = ['# 0 "hello.c"', '# 1 "/usr/include/stdio.h" 1 3 4']
    for n in range(60):
        lines += [f'# {27 + n * 10} "/usr/include/{"stdio" if n % 2 else "stdlib"}.h" 3 4', '', '']
        lines += [f'extern int func_{n}_{k} (const char *__restrict __s, int __n);' for k in range(8)]
    lines[lines.index('extern int func_41_3 (const char *__restrict __s, int __n);')] = (
        'extern int printf (const char *__restrict __format, ...);'
    )
    text = '\n'.join(lines)
    preview = select_preview(text, 1_000, intent=Intent.gather(prompt='Which header declares printf?'))
    assert_adds_up(preview, text, 1_000)
    assert 'extern int printf (const char *__restrict __format, ...);' in preview.text
    assert '# 437 "/usr/include/stdio.h" 3 4' in preview.text


def test_package_records_show_the_asked_packages_with_their_versions() -> None:
    # `dpkg -s` of many packages: records of `Key: value` fields whose descriptions go on in indented lines. The
    # command lists every package; the request names two, whose records and versions are what it wants.
    names = ['curl', 'gdb', 'valgrind', 'sqlite3', 'git', 'make', 'cmake', 'strace', 'tmux', 'vim', 'jq', 'tree']
    records = []
    for n, name in enumerate(names):
        records += [
            f'Package: {name}',
            'Status: install ok installed',
            'Priority: optional',
            'Section: devel',
            f'Installed-Size: {1000 + n * 37}',
            'Maintainer: Debian Maintainers <team@example.org>',
            'Architecture: amd64',
            f'Version: {n + 1}.{n * 3}-{n % 4}',
            f'Depends: libc6 (>= 2.34), libgdb-helper{n} (>= 1.0), libstdc++6 (>= 12), zlib1g (>= 1:1.2.0)',
            f'Description: the {name} tool',
            *[
                f' A long description of {name}, line {k}, which says what it does and how it is used.'
                for k in range(8)
            ],
            '',
        ]
    text = '\n'.join(records)
    intent = Intent.gather(
        args={'command': 'dpkg -s ' + ' '.join(names)}, prompt='Which versions of gdb and curl are installed?'
    )
    preview = select_preview(text, 1_000, intent=intent)
    assert preview.shape == 'key_value'
    assert_adds_up(preview, text, 1_000)
    assert 'Package: gdb' in preview.text and 'Version: 2.3-1' in preview.text
    assert 'Package: curl' in preview.text and 'Version: 1.0-0' in preview.text
    # Without a request, records keep their first fields as well as their last, as a cut by position would.
    assert 'Version: 1.0-0' in select_preview(text, 1_000).text


def test_the_records_a_request_names_are_shown_at_their_matches_before_the_lists_last_record() -> None:
    # `pip inspect`-like records, each with a long description: five of forty require typing-extensions.
    records = [
        {
            'metadata': {
                'name': f'package-{n}',
                'version': f'{n}.0',
                'description': ' '.join(f'Paragraph {k} of what package-{n} does and how.' for k in range(60)),
                'requires_dist': [f'dependency-{n}>=1.{n}', *([f'typing-extensions>=4.{n}.0'] if n % 8 == 3 else [])],
            },
            'installer': 'pip',
        }
        for n in range(40)
    ]
    text = compact_json(records)
    question = 'Which installed packages require typing-extensions, and which version?'
    preview = select_preview(text, 1_000, intent=Intent.gather(prompt=question))
    assert_adds_up(preview, text, 1_000)
    named = [n for n in range(40) if f'"typing-extensions>=4.{n}.0"' in preview.text]
    assert len(named) >= 4, preview.text
    assert '"name":"package-39"' not in preview.text  # the last record requires nothing asked about


def test_records_a_request_names_leave_out_long_values_before_the_members_after_them() -> None:
    # `sqlite3 -json` over Chinook's invoices (real): 234 characters a record. Asked what a customer paid, his records
    # keep every member's name and the total at their end; the billing address (the longest value) is left out.
    text = compact_json(json.loads(data('json', 'sqlite_json_chinook_invoices.json.gz')))
    preview = asked(text, 'How much did Frank Harris pay on each of his invoices?')
    shown = [line for line in preview.text.splitlines() if '"Customer":"Frank Harris"' in line]
    assert len(shown) >= 4
    for record in shown:
        assert '"BillingAddress":…,' in record
        assert re.search(r'"InvoiceId":\d+,.*"Total":\d+\.\d+\},$', record), record
    assert '"InvoiceId":145,' in preview.text and '"Total":13.86}' in preview.text


def test_asked_where_values_are_missing_the_records_holding_a_null_in_the_member_named_show() -> None:
    # `sqlite3 -json` over Chinook's classical tracks (real): 6 of 74 have no composer. Asked which, those records show
    # with the null, not the first records and the last.
    text = compact_json(json.loads(data('json', 'sqlite_json_chinook_classical_composers.json.gz')))
    preview = asked(text, 'Which classical tracks have no composer listed in the catalogue?')
    shown = [line for line in preview.text.splitlines() if '"Composer":null' in line]
    assert len(shown) >= 4, preview.text
    assert all(re.match(r'\{"TrackId":34[4-9]\d,', line) for line in shown), shown
    assert_adds_up(preview, text, 1_000)


def test_asked_when_a_series_peaked_and_bottomed_out_the_records_holding_its_largest_and_smallest_show() -> None:
    # `sqlite3 -json` of Chinook's revenue by month (real): the query lists every column it selects, the question names
    # the one it is about, and asks for both ends of it.
    query = (
        "SELECT strftime('%Y-%m', InvoiceDate) AS month, COUNT(*) AS invoices, ROUND(SUM(Total),2) AS revenue, "
        "ROUND(SUM(Total) - LAG(SUM(Total)) OVER (ORDER BY strftime('%Y-%m', InvoiceDate)),2) AS revenue_change, "
        'COUNT(DISTINCT CustomerId) AS customers, COUNT(DISTINCT BillingCountry) AS countries '
        'FROM Invoice GROUP BY month ORDER BY month'
    )
    text = compact_json(json.loads(data('json', 'sqlite_json_chinook_monthly_revenue.json')))
    asking = 'In which month did our revenue peak, and when did it bottom out?'
    intent = Intent.gather(args={'sql': query}, prompt=asking)
    preview = select_preview(text, 600, intent=intent)
    assert_adds_up(preview, text, 600)
    assert '{"month":"2022-01","invoices":7,"revenue":52.62,' in preview.text, preview.text
    assert '{"month":"2023-11","invoices":6,"revenue":23.76,' in preview.text


def test_a_record_ranked_by_a_number_keeps_the_member_the_request_asks_for_beyond_its_opening() -> None:
    # `sqlite3 -json` of Chinook's customers with what each spent (real): the biggest spenders' records are long (an
    # address, a phone), and the request asks for their email, far into each record: ranked, a record keeps what it
    # is, the email and its spend, and leaves the other values out.
    query = (
        'SELECT c.CustomerId, c.FirstName, c.LastName, c.Company, c.Address, c.City, c.State, c.Country, c.PostalCode, '
        'c.Phone, c.Email, COUNT(i.InvoiceId) AS invoices, ROUND(SUM(i.Total), 2) AS spend, MAX(i.InvoiceDate) AS '
        'last_invoice FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId GROUP BY c.CustomerId ORDER BY '
        'c.LastName'
    )
    text = compact_json(json.loads(data('json', 'sqlite_json_chinook_customer_spend.json')))
    intent = Intent.gather(
        args={'sql': query}, prompt='Which customers have the highest spend, and what is their email?'
    )
    preview = select_preview(text, 1_000, intent=intent)
    assert_adds_up(preview, text, 1_000)
    top = next(line for line in preview.text.splitlines() if line.startswith('{"CustomerId":6,'))
    assert '"Email":"hholy@gmail.com"' in top and '"spend":49.62' in top, preview.text
    assert '"Address":\u2026' in top


def test_a_member_null_in_most_records_is_no_answer_to_where_values_are_missing() -> None:
    records = [
        {'id': n, 'name': f'item-{n}', 'note': None if n % 4 else 'x', 'size': None if n == 57 else n}
        for n in range(90)
    ]
    text = compact_json(records)
    preview = asked(text, 'Which items are missing a size or a note?')
    # The notes missing from three records in four are the list's texture: the size missing from one is the answer.
    assert '{"id":57,"name":"item-57","note":null,"size":null}' in preview.text, preview.text


def test_a_data_frame_printout_names_its_columns_over_the_fields_after_the_rows_names() -> None:
    # R's `print(airquality)` (real): its header names no column over the row numbers. Asked for the windiest day, the
    # row with the most wind shows, not the row numbered last.
    table = data('tables', 'r_print_airquality.txt')
    preview = asked(table, 'Which day in the New York air quality data was the windiest?', 500)
    assert '48     37     284 20.7   72     6  17' in preview.text, preview.text


def test_tables_one_after_another_under_titles_are_ranked_each_in_its_own_rows() -> None:
    # R's `summaryRprof` of a word count of our own (real): `$by.self`, then `$by.total` with its columns in another
    # order, each under a title after a blank line. Asked where the time goes, the first table's rows with the most
    # time show with its names, not cells of the later table read as if they were its columns.
    table = data('tables', 'rprof_wordfreq_counts.txt')
    preview = asked(table, 'This R script is slow: which functions does the time go to?', 600)
    lines = preview.text.splitlines()
    header = lines.index('                        self.time self.pct total.time total.pct mem.total')
    assert lines[header + 1 : header + 3] == [
        '"eval"                      7.525    92.73      8.115    100.00    1665.8',
        '"c"                         0.345     4.25      0.345      4.25     139.2',
    ], preview.text


def test_socket_statistics_with_details_under_each_socket_show_the_queue_that_stands_out() -> None:
    # `ss -tnpi` with a feed on port 9555 and twelve readers, one of which stopped reading (real): each socket's line
    # has its TCP details indented under it, and its commas (`pid=17896,fd=11`) make no comma-separated table.
    table = data('tables', 'ss_tnpi_feed_stall.txt')
    stuck = 'ESTAB 114688 0           127.0.0.1:38066    127.0.0.1:9555  users:(("python3",pid=17993,fd=3))'
    piled = 'ESTAB 0      4157952     127.0.0.1:9555     127.0.0.1:38066 users:(("python3",pid=17896,fd=11))'
    asking = 'Which reader of the feed on port 9555 stopped reading, and how much is queued for it?'
    for preview in (select_preview(table, 1_000), asked(table, asking)):
        assert_adds_up(preview, table, 1_000)
        assert stuck in preview.text.splitlines(), preview.text
        assert piled in preview.text.splitlines()


def test_a_polars_frame_is_read_by_its_dotted_bars_and_a_column_is_named_by_its_first_word() -> None:
    # polars' printout of Chinook's albums by genre (real): boxed by solid bars, its columns apart by dotted ones
    # (`┆`). Asked for the largest totals, the rows with the most `total_mb` show under the header.
    table = data('tables', 'polars_chinook_albums_by_genre.txt')
    preview = asked(table, 'Which albums have the largest totals on disk?', 800)
    assert any(
        'Battlestar Galactica (Classic), Season 1' in line and '12872.6' in line for line in preview.text.splitlines()
    )
    assert any('Lost, Season 3' in line and '11891.5' in line for line in preview.text.splitlines()), preview.text


def test_asked_what_takes_up_the_space_a_listing_shows_its_largest_entries() -> None:
    """`zipinfo` of a Pillow wheel built here: the request asks for the largest entries without saying "largest"."""
    listing = data('listing', 'zipinfo_pillow_wheel.txt')
    preview = asked(listing, 'Our image grew a lot. What inside this wheel is taking up the space?', 600)
    assert line_with(listing, 'PIL/_imaging.cpython-311-x86_64-linux-gnu.so') in preview.text
    assert line_with(listing, 'PIL/Image.py') in preview.text


def test_an_option_too_long_to_share_its_line_brings_its_help_under_it() -> None:
    # `node --help`: a long option's help starts on the next line, indented under the short options' help.
    lines = ['Usage: node [options] [ script.js ] [arguments]', '', 'Options:']
    for n in range(300):
        if n == 170:
            lines += [
                '  --heapsnapshot-near-heap-limit=...',
                '                              Generate heap snapshots whenever V8 is',
                '                              approaching the heap limit.',
            ]
        lines.append(f'  --option-{n:<3}                  what option {n} turns on for the process')
    text = '\n'.join(lines)
    preview = asked(text, 'What does --heapsnapshot-near-heap-limit do?')
    assert (
        '--heapsnapshot-near-heap-limit=...' in preview.text
        and 'Generate heap snapshots whenever V8 is' in preview.text
    )


def test_a_large_text_has_the_requests_rarer_names_looked_for_in_the_engines_one_pass() -> None:
    # `readelf -sW` of a large library: 1.4 MB allows one search per term for two terms, and the call's file
    # name takes one of them; with a multi-literal engine the names absent from the sampled lines are looked
    # for too, in the same pass.
    rows = [
        f'{n:6}: {0x100000 + n * 64:016x} {n % 900:5} FUNC    GLOBAL DEFAULT   12 Py_Symbol_{n:05d}_of_the_api'
        for n in range(20_000)
    ]
    rows[13_821] = '13821: 00000000002506c0   556 FUNC    GLOBAL DEFAULT   12 PyEval_EvalCode'
    rows[9_000] = ' 9000: 00000000000fab70 43345 FUNC    GLOBAL DEFAULT   12 _PyEval_EvalFrameDefault'
    header = [
        "Symbol table '.dynsym' contains 20000 entries:",
        '   Num:    Value          Size Type    Bind   Vis      Ndx Name',
    ]
    text = '\n'.join(header + rows)
    assert len(text) > 1_400_000
    intent = Intent.gather(
        args={'command': 'readelf -sW libpython3.11.so.1.0'},
        prompt='How big is _PyEval_EvalFrameDefault in libpython, and at what address is PyEval_EvalCode?',
    )
    preview = select_preview(text, 1_000, intent=intent)
    assert_adds_up(preview, text, 1_000)
    assert '00000000002506c0   556 FUNC    GLOBAL DEFAULT   12 PyEval_EvalCode' in preview.text
    assert '_PyEval_EvalFrameDefault' in preview.text
    with patch.object(intent_module, 'usable', lambda engine: False):  # no engine: one search per term
        assert select_preview(text, 1_000, intent=intent).intent_terms < preview.intent_terms


def test_a_list_of_paths_keeps_the_lines_above_it_that_say_what_it_lists() -> None:
    header = ['Name: libfoo', 'Version: 2.4.1', 'Summary: A library.', 'Location: /srv/venv/lib/site-packages']
    header += ['Requires: cffi', 'Files:']
    paths = [f'  libfoo/__pycache__/module_{n:03d}/generated_part_{n % 7}.cpython-311.pyc' for n in range(400)]
    text = '\n'.join(header + paths)
    preview = select_preview(text, 1_000)
    assert_adds_up(preview, text, 1_000)
    assert 'Location: /srv/venv/lib/site-packages' in preview.text and 'Version: 2.4.1' in preview.text


def test_the_outputs_own_count_outranks_what_the_request_selects() -> None:
    # A linter's findings end with its count, then a line about fixes: the count is kept beside the findings
    # the request names, however many of those there are.
    codes = ['E501 Line too long (100 > 88)', 'ANN201 Missing return type annotation', 'D103 Missing docstring']
    findings = [f'src/app/mod{i}.py:{i}:1: {codes[i % 3]}' for i in range(300)]
    for i in range(20, 300, 20):
        findings[i] = f'src/app/run{i}.py:{i}:9: S602 `subprocess` call with `shell=True` identified, security issue'
    report = '\n'.join([*findings, 'Found 5028 errors.', '[*] 606 fixable with the `--fix` option.'])
    preview = select_preview(report, 1_000, intent=Intent.gather(prompt='Where is subprocess run with shell=True?'))
    assert preview.intent_lines >= 4
    assert 'Found 5028 errors.\n[*] 606 fixable' in preview.text
    # And a test runner's totals above its final verdict.
    lines = [f'test_{i} (test.test_os.Tests.test_{i}) ... ok' for i in range(400)]
    for i in range(10, 400, 25):
        lines[i] = f"test_chown_{i} (test.test_os.ChownTests.test_chown_{i}) ... skipped 'needs a non-root account'"
    run = '\n'.join([*lines, '', 'Total tests: run=421 skipped=99', 'Total test files: run=2/2', 'Result: SUCCESS'])
    preview = select_preview(run, 1_000, intent=Intent.gather(prompt='Why were the chown tests skipped?'))
    assert preview.intent_lines >= 4
    assert 'Total tests: run=421 skipped=99' in preview.text


def test_a_stanza_matched_by_its_name_brings_the_keys_that_follow_it() -> None:
    stanzas = '\n\n'.join(
        f'Package: lib{name}-dev\nSource: {name}\nVersion: 3.0.{i}-1\nArchitecture: amd64\n'
        + '\n'.join(f'Field{j}: value {j} of {name}' for j in range(12))
        for i, name in enumerate(['ffi', 'ssl', 'z', 'xml2', 'yaml', 'curl', 'pq', 'bz2'] * 8)
    )
    preview = select_preview(stanzas, 1_000, intent=Intent.gather(prompt='Which libssl-dev version is it?'))
    assert 'Package: libssl-dev\nSource: ssl\nVersion: 3.0.1-1' in preview.text
    # A key inside a stanza brings the line that names it.
    preview = select_preview(stanzas, 1_000, intent=Intent.gather(prompt='What is Field7 of xml2?'))
    assert re.search(r'Package: libxml2-dev\n(Source: xml2\n)?\[… \d+ lines …\]\nField7: value 7 of xml2', preview.text)


def test_a_record_headed_by_the_name_asked_about_brings_its_indented_lines() -> None:
    """`apt-cache policy` of this machine's packages: asked about OpenSSL, the `openssl:` record (not the packages that
    merely end in `-openssl`) with its installed and candidate versions and where each comes from."""
    text = data('key_value', 'apt_cache_policy.txt')
    preview = asked(text, 'Security asked whether OpenSSL on this Debian box is patched. What version is installed?')
    record = text[text.index('\nopenssl:\n') + 1 :].split('\n')[:8]
    assert '\n'.join(record) in preview.text
    assert record[1].startswith('  Installed: ') and record[2].startswith('  Candidate: ')


def test_a_json_key_over_its_object_brings_the_object_asked_about() -> None:
    """A schema laid out a member a line: asked what `expire_in` defaults to, the object under its definition (not
    the jobs that refer to it) with its type, description and default."""
    schema = {
        'jobs': {
            f'job_{index}': {'script': f'make part-{index}', 'expire_in': {'$ref': '#/definitions/expire_in'}}
            for index in range(120)
        },
        'definitions': {
            **{
                f'option_{index}': {'type': 'string', 'description': f'Option {index} of a job, rarely set.'}
                for index in range(120)
            },
            'expire_in': {
                'type': 'string',
                'description': 'How long artifacts should be kept. They are saved 30 days by default.',
                'default': '30 days',
            },
        },
    }
    for text in (lined_json(schema), json.dumps(schema, indent=2)):
        preview = select_preview(text, 1_000, intent=Intent.gather(prompt='How long does expire_in keep artifacts?'))
        lines = text.split('\n')
        heading = max(index for index, line in enumerate(lines) if line.lstrip().startswith('"expire_in"'))
        assert '\n'.join(lines[heading : heading + 4]) in preview.text


def test_a_definition_with_more_lines_than_fit_brings_the_first_of_them() -> None:
    """A schema laid out a member a line, its `retry` object longer than the preview: asked about `retry`, the key
    comes with the first of its members rather than alone."""
    words = 'runs the job again when it fails for one of the reasons listed, up to the maximum number of attempts'
    schema = {
        'definitions': {
            **{
                f'option_{index}': {'type': 'string', 'description': f'Option {index} of a job.'}
                for index in range(150)
            },
            'retry': {f'note_{index}': f'{index}: {words}, as the pipeline configuration states' for index in range(8)},
        }
    }
    text = lined_json(schema)
    preview = select_preview(text, 1_000, intent=Intent.gather(prompt='What does retry do?'))
    shown = preview.text.splitlines()
    heading = shown.index('  "retry":{')
    assert shown[heading + 1].startswith('   "note_0":"0: runs the job again')
    assert shown[heading + 2].startswith('   "note_1":"1: runs the job again')


def test_records_holding_a_value_few_records_hold_are_shown_unasked() -> None:
    """A list of command records, each with its `deprecated_since`: null, or one release for a few at its head, in all
    but three. Unasked, those three are what a reader scanning the list would stop at; the rest look alike."""
    commands = [
        {'command': f'CMD{index}', 'group': 'generic', 'since': '1.0.0', 'arity': 2, 'deprecated_since': None}
        for index in range(400)
    ]
    for index, since in ((80, '7.0.0'), (170, '4.0.0'), (260, '6.2.0')):
        commands[index]['deprecated_since'] = since
    for index in range(2, 40, 9):  # a few at the list's head too, of one release
        commands[index]['deprecated_since'] = '3.2.0'
    text = compact_json(commands)
    shown = select_preview(text, 1_000).text
    assert all(f'"command":"CMD{index}"' in shown for index in (80, 170, 260))


def test_a_servers_later_kind_of_exception_is_shown_past_the_many_tracebacks_of_its_first() -> None:
    """A web app's log: every checkout during a lock fails with the same traceback, dozens of times, before two
    requests fail in other places with other exceptions. Their tracebacks are the other bugs."""

    def traceback(at: str, frame: str, source: str, exception: str) -> list[str]:
        return [
            f'[2026-12-01 20:27:{at}] ERROR in app: Exception on /api/checkout [POST]',
            'Traceback (most recent call last):',
            '  File "/srv/venv/lib/python3.11/site-packages/flask/app.py", line 1511, in wsgi_app',
            '    response = self.full_dispatch_request()',
            frame,
            source,
            exception,
        ]

    lines = ['[2026-12-01 20:27:29 +0000] [5187] [INFO] Starting gunicorn 23.0.0']
    for index in range(120):
        lines.append(f'127.0.0.1 - - [01/Dec/2026:20:27:30] "GET /api/orders?page={index} HTTP/1.1" 200 1731 "-"')
        if index % 2 == 0:
            lines += traceback(
                f'{33 + index % 20},{index:03}',
                '  File "/srv/shop/app.py", line 71, in checkout',
                '    conn.execute("BEGIN IMMEDIATE")',
                'sqlite3.OperationalError: database is locked',
            )
        if index == 100:
            lines += traceback(
                '37,411',
                '  File "/srv/shop/app.py", line 55, in apply_coupon',
                '    return round(total_cents * (100 - row["percent_off"]) / 100)',
                "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'",
            )
        if index == 110:
            lines += traceback(
                '39,102',
                '  File "/srv/shop/app.py", line 88, in list_orders',
                '    size = int(request.args.get("size", 20))',
                "ValueError: invalid literal for int() with base 10: 'undefined'",
            )
    lines.append('[2026-12-01 20:28:06 +0000] [5187] [INFO] Shutting down: Master')
    shown = select_preview('\n'.join(lines), 1_000).text.splitlines()
    assert "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'" in shown
    assert '  File "/srv/shop/app.py", line 55, in apply_coupon' in shown
    assert "ValueError: invalid literal for int() with base 10: 'undefined'" in shown


def test_a_bisect_run_keeps_its_verdict_however_many_lines_name_what_was_asked() -> None:
    """`git bisect run` over a test script: each step's failures name `--help`, and the commit it found is stated
    a dozen lines before the end, over the commit's own header and stat."""
    steps = []
    for step in range(8):
        steps += [
            f'Bisecting: {2 ** (7 - step)} revisions left to test after this (roughly {7 - step} steps)',
            f'[{step:040x}] Refactor option parsing, part {step}',
            "running  '/tmp/bisect/check.sh'",
            *(f'FAILED tests/test_help.py::test_help_{case} - TypeError: --help crashed' for case in range(40)),
            '40 failed, 31 passed in 12.35s',
        ]
    verdict = '4ece17a107d7b2e8bc3bd14356c2b53038fe41cf is the first bad commit'
    ending = [
        '79 passed in 10.58s',
        verdict,
        'commit 4ece17a107d7b2e8bc3bd14356c2b53038fe41cf',
        'Author: A Developer <dev@example.com>',
        'Date:   Sun Jan 12 14:59:58 2025 +0000',
        '',
        '    Expand `Choice` token normalization + make generic (#2796)',
        '',
        *(f' src/click/module_{index}.py | {index + 3} ++-' for index in range(10)),
        ' 10 files changed, 239 insertions(+), 71 deletions(-)',
        'bisect found first bad commit',
    ]
    text = '\n'.join([*steps, *ending])
    prompt = 'Since click 8.2.0 every `--help` of our typer CLI crashes. Which click change broke it?'
    preview = select_preview(text, 1_000, intent=Intent.gather(prompt=prompt))
    assert verdict in preview.text
    assert preview.text.rstrip().endswith('bisect found first bad commit')


def test_asked_about_warnings_a_build_shows_its_compilers_over_the_steps_the_request_names() -> None:
    """A verbose build of a vendored tree: the version and the library the request names are in every step make
    prints (`Entering directory`); asked what the compiler warns about as well, its warnings are the answer."""
    warnings = [
        "ldo.c:496:7: warning: unused variable 'c' [-Wunused-variable]",
        "lua_bit.c:101:5: warning: this 'for' clause does not guard... [-Wmisleading-indentation]",
        'src/malloc_io.c:369:9: warning: case label value exceeds maximum value for type [-Wswitch-outside-range]',
    ]
    flags = 'the static archive of this dependency, built with the options in the parent directory'
    lines = []
    for part, library in enumerate(('hiredis', 'linenoise', 'lua', 'jemalloc', 'hdr_histogram', 'fpconv')):
        lines.append(
            f"make[2]: Entering directory '/srv/build/redis-6.0.20/deps/{library}' (liblua-vendored.a, {flags})"
        )
        for index in range(50):
            lines.append(f'[{part * 50 + index + 1}/300] Compiling C object {library}.a.p/part{index}.c.o')
            if (part, index) in ((2, 20), (2, 40), (3, 30)):
                lines.append(warnings[[(2, 20), (2, 40), (3, 30)].index((part, index))])
        lines.append(
            f"make[2]: Leaving directory '/srv/build/redis-6.0.20/deps/{library}' (liblua-vendored.a, {flags})"
        )
    lines.append('[301/301] Linking target redis-server')
    text = '\n'.join(lines)
    named = Intent.gather(prompt='Does redis-6.0.20 with liblua-vendored.a still build here?')
    assert not named.warnings
    shown = select_preview(text, 1_000, intent=named).text.splitlines()
    assert sum(warning in shown for warning in warnings) < len(warnings)
    # The same request, asking what the compiler warns about (its own words need not match the warnings' lines).
    asked = Intent.gather(prompt='Does redis-6.0.20 with liblua-vendored.a still build here? Any compiler warnings?')
    assert asked.warnings and not Intent.gather(args={'command': 'make CFLAGS=-Wall V=1'}).warnings
    shown = select_preview(text, 1_000, intent=dataclasses.replace(named, warnings=True)).text.splitlines()
    assert all(warning in shown for warning in warnings)


def test_a_build_that_did_not_fail_shows_the_warnings_its_compiler_gave() -> None:
    """`ninja` of a C library with `-fanalyzer`: each warning sits over a hundred lines of the paths it took, and the
    library's name is on every step; asked whether the analyzer found anything, its warnings come first."""
    steps = [f'[{index}/18] Compiling C object libjson-c.so.5.5.0.p/part_{index}.c.o' for index in range(1, 16)]
    warnings = [
        "../json_object.c:760:24: warning: leak of 'k' [CWE-401] [-Wanalyzer-malloc-leak]",
        "../json_tokener.c:264:27: warning: leak of 'strdup(tok->pb.buf)' [CWE-401] [-Wanalyzer-malloc-leak]",
        "../linkhash.h:362:17: warning: dereference of NULL 't' [CWE-476] [-Wanalyzer-null-dereference]",
        "../linkhash.h:388:25: warning: dereference of NULL 'e' [CWE-476] [-Wanalyzer-null-dereference]",
    ]
    lines = ['ninja: Entering directory `build-an`']
    for index, step in enumerate(steps):
        lines.append(step)
        if index % 4 != 2:
            continue
        lines += ["../json_object.c: In function 'json_object_put':", warnings[index // 4]]
        lines += [f'  {760 + index} |         json_object_put(jso);', '      |         ^~~~~~~~~~~~~~~~~~~']
        for event in range(24):
            lines += [
                f"  'json_object_put': events {event}-{event + 1}",
                '    |',
                f'    |  {340 + event} |         if (jso->_ref_count == {event})',
                '    |      |            ~' + '~' * (event % 7),
                '    |      |            |',
                f"    |      |            ({event}) following 'false' branch (when 'jso' is non-NULL)...",
                '    |......',
                f"../linkhash.h:{360 + event}:17: note: in expansion of macro 'lh_foreach'",
            ]
    lines += ['[16/18] Linking target libjson-c.so.5.5.0', '[18/18] Linking target apps/json_parse']
    text = '\n'.join(lines)
    prompt = 'We ship json-c in our firmware. Did a GCC -fanalyzer build of json-c find anything real?'
    for intent in (None, Intent.gather(prompt=prompt)):
        preview = select_preview(text, 1_000, intent=intent)
        assert all(warning in preview.text for warning in warnings), (preview.shape, intent)


def test_a_trace_shows_the_library_it_opened_before_the_paths_it_tried() -> None:
    # A dynamic loader tries each directory of its search path: the lookups that failed name the library too.
    tried = [
        f'openat(AT_FDCWD, "/opt/lib{i}/libssl.so.3", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)'
        for i in range(30)
    ]
    calls = [f'newfstatat(AT_FDCWD, "/usr/lib/python3/m{i}.py", {{st_mode=S_IFREG|0644}}, 0) = 0' for i in range(400)]
    opened = 'openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libssl.so.3", O_RDONLY|O_CLOEXEC) = 3'
    trace = '\n'.join([*calls[:200], *tried, opened, *calls[200:], '+++ exited with 0 +++'])
    preview = select_preview(trace, 800, intent=Intent.gather(prompt='Which libssl.so.3 does it load?'))
    assert opened in preview.text


def test_commit_messages_that_mention_errors_are_not_errors() -> None:
    log = capture('git_log_stat').text
    preview = select_preview(log, 1_000)
    assert 'OverflowErrors' not in preview.text and 'Fix error message' not in preview.text
    assert preview.text.startswith('commit 341b927f219205704728c05cd61f04d7e9727523\n')
    assert '\n    Update Fern sponsor link\n' in preview.text


def test_matches_that_do_not_fit_are_offered_with_their_exact_count() -> None:
    settings = capture('pg_settings_csv').text
    preview = select_preview(
        settings, 800, intent=Intent.gather(text='How are the planner costs set?'), offer_chars=120
    )
    assert preview.offer is not None
    pattern = preview.offer.pattern
    holding = [line for line in settings.split('\n') if pattern in line]
    assert preview.offer.lines == len(holding) > preview.offer.shown
    shown = preview.text.split('\n')
    assert preview.offer.shown == sum(1 for line in holding if any(row.startswith(line[:30]) for row in shown))
    assert len(preview.text) <= 800 - 120


def test_a_plain_word_none_of_whose_lines_were_chosen_is_no_search_to_offer_but_a_name_is() -> None:
    # "I'll sort real typos from names": `sort` is on 40 lines (a `sorting` package), none of them worth showing.
    rows = [f'networkx/algorithms/{"sorting" if n % 5 == 0 else "flow"}/m{n}.py:{n}: nd ==> and' for n in range(200)]
    text = '\n'.join(rows)
    said = "Let me run codespell, then I'll sort real typos from names it flags wrongly."
    matches = find_matches(text, Intent.gather(text=said))
    assert [term.key for term in matches.terms] and 'sort' in [term.key for term in matches.terms]
    assert _offer(text, matches, {}, {}) is None
    # Named, the same lines are a search worth offering: the request asked about that package.
    named = find_matches(
        text, Intent.gather(text="Let me check what codespell says about networkx's `sorting` package.")
    )
    offer = _offer(text, named, {}, {})
    assert offer is not None and offer.pattern == 'sorting' and offer.lines == 40


def test_the_package_a_checker_checked_is_no_search_to_offer() -> None:
    """`ruff --select ALL` of cycler, asked about cycler: its name is on every finding's place, so a search for it
    returns the whole report."""
    report = data('diagnostics', 'ruff_full_cycler.txt.gz')
    intent = Intent.gather(
        args={'command': 'ruff check --isolated --select ALL cycler'},
        text="I'll run ruff with every rule enabled over the cycler package and separate real problems from noise.",
        prompt='We are vendoring cycler. Run ruff with all rules on it: anything that looks like a real code issue?',
    )
    preview = select_preview(report, 1_000, intent=intent, offer_chars=120)
    assert preview.offer is None or preview.offer.pattern.lower() != 'cycler'


def test_a_plain_word_of_the_models_prose_is_not_offered_once_the_file_it_named_is_shown() -> None:
    report = capture('pyright_json').text
    intent = Intent.gather(
        text="I'll type-check the package with pyright in JSON mode and look at what it reports for "
        'tqdm/contrib/logging.py and the overall counts.'
    )
    preview = select_preview(report, 1_000, intent=intent, offer_chars=120)
    assert '"file": "/home/dev/tqdm/tqdm/contrib/logging.py"' in preview.text
    # Every line naming the file is shown: "count" (on three lines of the report) is no search to propose.
    assert preview.offer is None


def test_the_read_offer_is_for_what_the_request_names_rather_than_the_directory_the_command_ran_in() -> None:
    # Run in the project's directory, whose name is in the request too; what the request stresses is its streams.
    rows = [
        f'./src/{name}.c{" " * (40 - len(name))}{i * 7 % 300:>5}{i * 13 % 900:>8}{i * 31 % 4000:>8}'
        for i, name in enumerate(
            [
                *(f'module{n}' for n in range(300)),
                *(f'redis-tool{n}' for n in range(40)),
                *(f't_stream{n}' for n in range(30)),
            ]
        )
    ]
    table = '\n'.join(['File' + ' ' * 40 + 'blank comment    code', '-' * 70, *sorted(rows), '-' * 70])
    intent = Intent.gather(
        args={'command': 'cd /srv/redis && cloc --by-file .'},
        text="I'll count the code of each file to size the stream implementation.",
        prompt='Roughly how much code is the Redis streams feature?',
    )
    preview = select_preview(table, 1_000, intent=intent, offer_chars=120)
    assert preview.offer is not None and preview.offer.pattern == 'stream'


def test_the_request_selects_the_rows_and_their_header() -> None:
    settings = capture('pg_settings_csv').text
    intent = Intent.gather(text='Let me check shared_buffers and work_mem.')
    preview = select_preview(settings, 1_000, intent=intent)
    assert preview.text.startswith('name,setting,unit,category,')
    assert 'shared_buffers,16384,8kB' in preview.text and 'work_mem,4096,kB' in preview.text
    assert preview.intent_lines >= 2 and preview.intent_terms >= 2
    without = select_preview(settings, 1_000)
    assert 'shared_buffers,16384,8kB' not in without.text and without.intent_lines == 0


# --- any input ---------------------------------------------------------------------------------

REAL_LINES = [
    line for case in captures().values() if isinstance(case.value, str) for line in case.text.split('\n')[:40]
]
NO_NEWLINE = st.characters(blacklist_characters='\n', blacklist_categories=['Cs'])
LINE = st.one_of(
    st.sampled_from(REAL_LINES),
    st.text(alphabet=NO_NEWLINE, max_size=80),
    st.builds(
        lambda chunk, count: chunk * count, st.text(alphabet=NO_NEWLINE, min_size=1, max_size=3), st.integers(0, 2_000)
    ),
    # Rows a request for the largest or smallest values ranks: a number at the start or the end, with a unit.
    st.builds(
        lambda number, unit, name, last: f'{name} ({number}{unit})' if last else f'{number}{unit}\t{name}',
        st.one_of(st.integers(0, 10**9), st.floats(0, 1e6, allow_nan=False).map(lambda x: f'{x:.2f}')),
        st.sampled_from(['', 'K', 'M', 'ms', 's', '%', ',000']),
        st.text(alphabet=NO_NEWLINE, max_size=30),
        st.booleans(),
    ),
)
TEXTS = st.builds(
    lambda lines, final: '\n'.join(lines) + final, st.lists(LINE, max_size=300), st.sampled_from(['', '\n', '\n\n'])
)
RECORD = st.dictionaries(
    st.sampled_from(['name', 'version', 'id', 'path', 'tags']),
    st.one_of(st.text(max_size=40), st.integers(), st.lists(st.text(max_size=8), max_size=3)),
    min_size=1,
)
RECORDS = st.builds(lambda records: compact_json(records), st.lists(RECORD, max_size=200))
WORDS = st.lists(
    st.one_of(st.sampled_from([w for line in REAL_LINES[:400] for w in line.split()[:3]]), st.text(max_size=12)),
    max_size=8,
)


ASKS = st.sampled_from(['', 'Which are the largest? ', 'Which is the lowest? '])

NAME = st.text(alphabet='abcdefghij_/. =>{}', min_size=1, max_size=24).map(str.strip).filter(bool)
DIFFSTAT = st.builds(
    lambda rows: (
        '\n'.join(f' {name:<24} | {count:>4} {"+" * plus}{"-" * minus}' for name, count, plus, minus in rows)
        + f'\n {len(rows)} files changed, 1 insertion(+), 1 deletion(-)\n'
    ),
    st.lists(st.tuples(NAME, st.integers(0, 5_000), st.integers(0, 60), st.integers(0, 60)), min_size=1, max_size=300),
)
"""`git diff --stat`: a path, its lines changed and their bar, some renamed (`{a => b}`)."""
EXPANDED = st.builds(
    lambda records: '\n'.join(
        f'-[ RECORD {index + 1} ]----+------\n' + '\n'.join(f'{key:<12}| {value}' for key, value in fields)
        for index, fields in enumerate(records)
    ),
    st.lists(
        st.lists(
            st.tuples(
                st.sampled_from(['relname', 'n_tup_ins', 'n_dead_tup', 'seq_scan', 'last_vacuum']),
                st.one_of(st.integers(0, 10**7).map(str), st.just(''), NAME),
            ),
            min_size=1,
            max_size=8,
        ),
        min_size=1,
        max_size=120,
    ),
)
"""psql's expanded display: `-[ RECORD n ]` over each record's `key | value` lines."""
LISTING = st.builds(
    lambda rows: (
        'total 128\n'
        + '\n'.join(
            f'{mode} 1 {owner:<8} {owner:<8} {size:>9} 2026-12-02 01:24 {name}' for mode, owner, size, name in rows
        )
    ),
    st.lists(
        st.tuples(
            st.sampled_from(['-rw-r--r--', 'drwxr-xr-x', '-rw-------', 'lrwxrwxrwx']),
            st.sampled_from(['nobody', 'nobody', 'nobody', 'root', 'postgres']),
            st.integers(0, 10**9),
            NAME,
        ),
        min_size=1,
        max_size=300,
    ),
)
"""`ls -l`: a mode, links, an owner and a group of few values, then a size and a name."""
MEASURED = st.builds(
    lambda rows: (
        'name      flights  cancelled  delay\n--------  -------  ---------  -----\n'
        + '\n'.join(f'{name[:8]:<8}  {a:<7}  {b:<9}  {c}' for name, a, b, c in rows)
    ),
    st.lists(
        st.tuples(NAME, st.integers(0, 500), st.integers(0, 200), st.floats(-20, 300, allow_nan=False).map(str)),
        min_size=1,
        max_size=400,
    ),
)
"""A column-aligned table of numbers under a header and its rule, some far above the rest."""


@example(  # a count whose bar runs a little past its room: shown whole, and said to be so
    text=' =' + ' ' * 24 + '|    0 ' + '-' * 21 + ('\n =' + ' ' * 24 + '|    0 -') * 4 + '\n 5 files changed\n',
    budget=120,
    words=[],
    offer=0,
    ask='',
)
@given(
    text=st.one_of(DIFFSTAT, EXPANDED, LISTING, MEASURED),
    budget=st.integers(120, 4_000),
    words=WORDS,
    offer=st.integers(0, 200),
    ask=ASKS,
)
def test_any_preview_of_a_shaped_output_fits_its_budget_and_adds_up(
    text: str, budget: int, words: list[str], offer: int, ask: str
) -> None:
    """Diffstats, psql's expanded display, `ls -l` listings and tables of numbers, with whatever values: the digests
    that pick their renamed files, records, odd owners and rows standing out keep the preview in its budget."""
    _previewed(text, budget, Intent.gather(text=ask + ' '.join(words)), offer)


def _previewed(text: str, budget: int, intent: Intent, offer: int) -> Preview | None:
    """The preview of `text` asked with `intent`: the text itself when it fits (None), else one that fits its budget
    and adds up."""
    preview = select_preview(text, budget, intent=intent, offer_chars=offer)
    if len(text) <= budget:
        assert preview.text == text
        return None
    assert_adds_up(preview, text, budget)
    return preview


@given(text=st.one_of(TEXTS, RECORDS), budget=st.integers(120, 4_000), words=WORDS, offer=st.integers(0, 200), ask=ASKS)
def test_any_preview_fits_its_budget_and_adds_up(
    text: str, budget: int, words: list[str], offer: int, ask: str
) -> None:
    intent = Intent.gather(text=ask + ' '.join(words))
    preview = _previewed(text, budget, intent, offer)
    if preview is None:
        return
    if preview.offer is not None:
        assert preview.offer.lines > preview.offer.shown
        assert preview.offer.pattern in text
        assert len(preview.text) <= budget - offer  # the offer's room was left
    assert select_preview(text, budget, intent=intent, offer_chars=offer) == preview
    # A spill hands over the UTF-8 its write needs: searched in place of the text, the same preview.
    utf8 = text.encode('utf-8', 'surrogatepass')
    assert select_preview(text, budget, intent=intent, offer_chars=offer, utf8=utf8) == preview


LONG_RECORDS = st.lists(
    st.fixed_dictionaries(
        {
            'id': st.integers(0, 10**6),
            'name': st.text(alphabet='abcdefghijklmnop', min_size=6, max_size=14),
            'email': st.text(max_size=60),
            'note': st.text(alphabet=NO_NEWLINE, max_size=90),
            'total': st.floats(0, 1e4, allow_nan=False),
        }
    ),
    min_size=30,
    max_size=120,
)


@given(records=LONG_RECORDS, which=st.integers(0, 119), budget=st.integers(300, 3_000))
def test_records_asked_about_by_name_fit_and_state_each_value_left_out(
    records: list[dict[str, object]], which: int, budget: int
) -> None:
    """Records longer than their room, one of them named: what is left out of each, a long value or a stretch, is
    stated where it was, and the preview adds up."""
    name = records[which % len(records)]['name']
    _previewed(compact_json(records), budget, Intent.gather(prompt=f"Show me the record of '{name}'."), 0)


def test_a_recursive_diff_shows_the_files_only_one_side_has() -> None:
    """`diff -ru` of two itsdangerous sdists: the files that went or came are on lines of their own, in the middle."""
    diff = data('diffs', 'diff_r_itsdangerous.txt')
    preview = select_preview(diff, 1_000)
    assert_adds_up(preview, diff, 1_000)
    assert 'Only in itsdangerous-2.1.2: LICENSE.rst\nOnly in itsdangerous-2.2.0: LICENSE.txt' in preview.text
    assert 'Only in itsdangerous-2.2.0: README.md' in preview.text


def test_a_test_runs_section_titles_are_not_kept_as_its_account_of_itself() -> None:
    """pytest's `=== short test summary info ===` and `=== warnings summary ===` title sections: the run's account
    is its last line; the room goes to where each failure was raised."""
    log = data('traffic', 'pytest_verbose_failures.txt')
    preview = select_preview(log, 1_000)
    assert_adds_up(preview, log, 1_000)
    assert 'warnings summary' not in preview.text and 'short test summary info' not in preview.text
    for place in (
        'inventory.py:20: KeyError',
        'tests/test_inventory.py:17: AssertionError',
        'inventory.py:25: ValueError',
    ):
        assert line_with(log, place) in preview.text
    assert preview.text.endswith('= 5 failed, 182 passed, 1 warning in 0.13s ===================')


def test_a_blank_line_between_kept_lines_is_shown_rather_than_marked_as_cut() -> None:
    # pytest's exception line, a blank line, then where it was raised: a one-line gap marker would take more room
    # than the blank line it stands for, and read as if something had been left out.
    log = data('traffic', 'pytest_verbose_failures.txt')
    preview = select_preview(log, 1_000)
    assert_adds_up(preview, log, 1_000)
    assert "E       KeyError: 'b'\n\ninventory.py:20: KeyError" in preview.text
    assert '[… 1 line …]' not in preview.text.split("E       KeyError: 'b'")[1].split('inventory.py:20')[0]


def test_in_a_diff_a_changed_line_outranks_an_unchanged_line_naming_the_same_thing() -> None:
    # The unchanged lines around a change are context: the change is what a diff is read for.
    hunk = [' ' * 8 + f'value_{n} = compute({n})' for n in range(40)]
    diff = '\n'.join(
        [
            'diff --git a/app/adapters.py b/app/adapters.py',
            '--- a/app/adapters.py',
            '+++ b/app/adapters.py',
            '@@ -120,7 +120,9 @@ def setup(self):',
            *hunk[:10],
            '        # PoolAdapter keeps one pool per host and scheme',
            *hunk[10:20],
            '-        return PoolAdapter.connect(url)',
            '+        return PoolAdapter.connect_with_tls(request, verify)',
            *hunk[20:],
        ]
    )
    matches = find_matches(diff, Intent.gather(prompt='What changed in PoolAdapter?'), weigh=_diff_weight)
    best = diff[matches.lines[0].start : matches.lines[0].end]
    assert best.startswith(('-', '+'))


def test_a_make_error_in_the_middle_of_a_build_log_is_shown() -> None:
    # `make -k` goes on past a missing target: the reason the build fails sits among thousands of compile lines.
    lines = [f'gcc -c -O2 -o obj/file{n}.o src/file{n}.c' for n in range(3000)]
    lines.insert(1500, "make[1]: *** No rule to make target 'src/missing.c', needed by 'obj/missing.o'.")
    lines.append("make: Target 'all' not remade because of errors.")
    shown = select_preview('\n'.join(lines), 1_000).text
    assert "make[1]: *** No rule to make target 'src/missing.c', needed by 'obj/missing.o'." in shown


def test_a_name_in_a_long_list_of_names_counts_less_than_the_entry_it_names() -> None:
    # `apt-cache show python3-pandas python3-numpy ...` (real): pandas' `Depends:` lists numpy and a dozen more;
    # the request is about each package's own entry.
    text = data('key_value', 'apt_cache_show.txt')
    intent = Intent.gather(prompt='Our minimums are pandas>=1.5 and numpy>=1.24: can both come from Debian packages?')
    best = find_matches(text, intent, weigh=_listing_weight).lines[0]
    assert not text[best.start : best.end].startswith('Depends:')
    shown = select_preview(text, 600, intent=intent).text.splitlines()
    assert 'Version: 1:1.24.2-1+deb12u1' in shown and 'Version: 1.5.3+dfsg-2' in shown


def test_words_of_a_request_found_in_a_test_runs_source_rank_under_its_failures() -> None:
    # `pytest -vv -l` (real): the request's words (urlsplit, textwrap, ...) occur in the tests' source echoed in
    # each failure report; the summary's FAILED lines say what failed and what each call returned.
    text = data('test_runs', 'pytest_vv_summary.txt')
    prompt = 'I wrote tests pinning how json, urlsplit, textwrap and fractions behave. Which expectations are wrong?'
    intent = Intent.gather(prompt=prompt)
    assert all(term.kind is TermKind.word for term in intent.terms)
    shown = select_preview(text, 1_000, intent=intent).text
    failed = [line for line in text.splitlines() if line.startswith('FAILED ')]
    assert sum(1 for line in failed if line[:70] in shown) >= 6


def test_a_skipped_tests_reason_naming_what_the_request_names_ranks_under_the_failures() -> None:
    # `python -m unittest -v test_shutil` after a one-line edit that swaps get_terminal_size's columns and lines:
    # two failures, 26 skips. The request mentions os.lchmod, which only skip reasons hold ("requires os.lchmod").
    run = data('test_runs', 'unittest_shutil_skips.txt')
    prompt = (
        'I edited shutil.get_terminal_size; run test_shutil and tell me what fails. '
        'This box has no os.lchmod or os.chflags, by the way.'
    )
    preview = asked(run, prompt, budget=600)
    assert 'FAIL: test_fallback (test_shutil.TestGetTerminalSize.test_fallback)' in preview.text
    assert 'AssertionError: 20 != 10' in preview.text and 'AssertionError: 24 != 777' in preview.text
    assert "skipped 'requires os.lchmod'" not in preview.text


def test_a_failure_blocks_echoed_source_ranks_under_what_failed() -> None:
    # `pytest -rA` of toolz after a one-line edit reversing the order merge_with combines its dicts: three
    # failures, each block echoing test source full of the name the request holds (merge_with). What failed, the
    # `E` lines, says more than the source; a matched source line brings its block's `E` line with it.
    run = data('test_runs', 'pytest_rA_toolz_merge_with.txt')
    prompt = (
        'I changed the order in which merge_with combines its dicts in dicttoolz. '
        'Run the toolz tests and tell me what fails and why.'
    )
    preview = asked(run, prompt, budget=800)
    assert 'E       assert {1: (10, 1), 2: (20, 2)} == {1: (1, 10), 2: (2, 20)}' in preview.text
    assert 'E       assert defaultdict(<..., 2: (20, 2)}) == defaultdict(<..., 2: (2, 20)})' in preview.text
    assert 'FAILED toolz/tests/test_dicttoolz.py::TestCustomMapping::test_merge_with' in preview.text
    assert '        assert merge_with(' not in preview.text


def test_a_test_runs_traceback_frames_a_request_names_rank_under_the_failures_they_belong_to() -> None:
    # The request names the test file; every failure's traceback passes through it. The failures' reports (the
    # header and the assertion) say what failed; a frame in the test's own file says only where.
    run = data('test_runs', 'unittest_shutil_skips.txt')
    prompt = 'Run test_shutil.py after my edit to get_terminal_size in shutil.py and tell me what fails.'
    preview = asked(run, prompt, budget=500)
    assert 'AssertionError: 20 != 10' in preview.text and 'AssertionError: 24 != 777' in preview.text
    assert 'File "' not in preview.text


def test_a_builds_first_compiler_error_ranks_above_the_warnings_a_request_names() -> None:
    # zlib compiled file by file in its Makefile's order with strict conversion warnings, after a one-line edit
    # to inflate.c: 36 warnings, the one error in the middle. Asked about the conversions, the warnings the
    # request's words find still leave room for why the build failed.
    build = data('logs', 'zlib_build_error.txt')
    prompt = (
        'zlib stopped building after my last edit. Build it with the strict conversion, sign-conversion and shadow '
        "warnings and tell me what's broken and which conversions it warns about."
    )
    preview = asked(build, prompt)
    error = next(line for line in build.split('\n') if ': error: ' in line)
    assert error in preview.text.split('\n')
    assert preview.intent_lines >= 3


def test_the_commands_a_build_echoes_are_no_strong_matches_for_the_options_a_request_names() -> None:
    # Every command make echoes holds the options the request names (`-Wcast-qual`); the one line that says what
    # happened is make's error in the middle. Built from the zlib build's real command lines.
    build = data('logs', 'zlib_build_error.txt')
    lines = [line for line in build.split('\n') if ': error: ' not in line]  # its compiler error aside
    error = "make: *** No rule to make target 'inflate9.o', needed by 'libz.a'.  Stop."
    log = '\n'.join([*lines[:90], error, *lines[90:]])
    preview = asked(log, 'Build it with -Wcast-qual and -Wshadow and tell me what goes wrong.', budget=500)
    assert error in preview.text.split('\n')


def test_a_request_naming_the_framework_does_not_pick_its_frames_over_the_exception() -> None:
    # The request names FastAPI, uvicorn and starlette, which every library frame of the traceback holds; what
    # failed is the exception and the frame in the app's own code.
    log = data('logs', 'uvicorn_notes_500.txt')
    prompt = (
        'Our FastAPI notes service running under uvicorn with starlette returned a server error once. '
        'What failed, and where in our code?'
    )
    preview = asked(log, prompt, budget=600)
    assert 'IndexError: list index out of range' in preview.text
    assert '  File "/home/dev/notes/notes.py", line 21, in first_tag' in preview.text


def _job_table(rows: int) -> str:
    """`sqlite3 -header -column` output: each column as wide as its widest value, the last one padded too."""
    lines = [
        f'{"job":<24}  {"runner":<10}  {"attempts":<8}  {"status":<8}  {"note":<140}',
        f'{"-" * 24}  {"-" * 10}  {"-" * 8}  {"-" * 8}  {"-" * 140}',
    ]
    for index in range(rows):
        status, note = 'ok', ''
        if index == 37:
            status, note = 'FAILED', 'exit 137 (killed: out of memory)'
        elif index == 81:
            status = 'TIMEOUT'
        elif index % 3 == 0:
            status = 'retried'
        job, runner = f'nightly-build-{index:03d}', f'runner-{index % 4}'
        lines.append(f'{job:<24}  {runner:<10}  {1 + index % 2:<8}  {status:<8}  {note:<140}')
    return '\n'.join(lines) + '\n'


def test_a_tables_rows_holding_a_rare_value_of_a_column_of_few_values_are_shown() -> None:
    """Among 120 jobs that passed or were retried, the one that failed and the one that timed out, unasked."""
    table = _job_table(120)
    preview = select_preview(table, 1_000)
    assert_adds_up(preview, table, 1_000)
    assert preview.shape == 'table'
    shown = preview.text.splitlines()
    assert any(line.startswith('nightly-build-037') and 'FAILED' in line and 'out of memory' in line for line in shown)
    assert any(line.startswith('nightly-build-081') and 'TIMEOUT' in line for line in shown)
    # Runner names (four values) and attempt counts (two) are common throughout: no row is rare for them.
    view = TextView(table)
    head = view.head(40, 4_000)
    shape = detect(view, head, [])
    table_columns = _columns(view, shape)
    assert table_columns is not None
    rare = [view.content(span)[:17] for pick in _rare_rows(view, table_columns) for span in pick.spans]
    assert rare == ['nightly-build-037', 'nightly-build-081']


def test_a_row_padded_to_the_tables_width_is_shown_without_its_padding() -> None:
    """The blanks that pad a row to its table's width show nothing: a row is shown without them, no cut stated, and
    the room they would take goes to other rows."""
    table = _job_table(120)
    preview = select_preview(table, 1_000)
    assert_adds_up(preview, table, 1_000)
    [failed] = [line for line in preview.text.splitlines() if line.startswith('nightly-build-037')]
    row = table.splitlines()[2 + 37]
    assert row != row.rstrip()
    assert failed == row.rstrip()
    assert not any(line.endswith(' ') for line in preview.text.splitlines())


def _server_log(access: str = '/health') -> str:
    """A Flask dev server's log under load: access lines, and two kinds of 500, each logged with its traceback."""

    def failure(path: str, line: int, function: str, source: str, exception: str) -> list[str]:
        return [
            f'[2026-12-01 17:17:38,003] ERROR in app: Exception on {path} [GET]',
            'Traceback (most recent call last):',
            '  File "/srv/venv/lib/python3.11/site-packages/flask/app.py", line 902, in dispatch_request',
            '    return self.ensure_sync(self.view_functions[rule.endpoint])(**view_args)',
            f'  File "/srv/tzapi/app.py", line {line}, in {function}',
            f'    {source}',
            exception,
            f'127.0.0.1 - - [01/Dec/2026 17:17:38] "GET {path}?x=1 HTTP/1.1" 500 -',
        ]

    lines = [f'127.0.0.1 - - [01/Dec/2026 17:17:{i % 60:02d}] "GET {access} HTTP/1.1" 200 -' for i in range(400)]
    for at in (100, 140, 180, 220):  # the same bug again and again: each time its own traceback
        lines[at:at] = failure(
            '/convert',
            57,
            'convert',
            'dst = zoneinfo.ZoneInfo(request.args["to"])',
            "zoneinfo._common.ZoneInfoNotFoundError: 'No time zone found with key CET+1'",
        )
    lines[300:300] = failure(
        '/offset-table',
        64,
        'offset_table',
        'limit = int(request.args.get("limit", 20))',
        "ValueError: invalid literal for int() with base 10: 'all'",
    )
    return '\n'.join(lines) + '\n'


def test_each_kind_of_error_a_log_holds_comes_with_what_it_raised_and_where() -> None:
    """Four tracebacks of one bug, then one of another: the second kind is shown with its exception and frame."""
    log = _server_log()
    preview = select_preview(log, 1_000)
    assert_adds_up(preview, log, 1_000)
    shown = preview.text.splitlines()
    assert "ValueError: invalid literal for int() with base 10: 'all'" in shown
    assert '  File "/srv/tzapi/app.py", line 64, in offset_table' in shown


def test_asked_about_a_servers_failures_each_kind_of_exception_outranks_lines_that_share_the_words() -> None:
    """The request's words ('tracebacks', 'API', 'server', '500') are on many lines; the exceptions are the answer."""
    log = _server_log(access='/api/v1/zones?server=eu-500 (api traceback sampling on)')
    intent = Intent.gather(
        text='Let me read the server log and look at the requests that returned 500 and the tracebacks.',
        prompt='During the load run against our little API we saw some 500s. Which endpoints fail and why?',
    )
    shown = select_preview(log, 1_000, intent=intent, offer_chars=120).text.splitlines()
    assert "ValueError: invalid literal for int() with base 10: 'all'" in shown
    assert "zoneinfo._common.ZoneInfoNotFoundError: 'No time zone found with key CET+1'" in shown


def test_an_error_deep_in_a_large_log_is_found_where_the_engine_scans_its_whole_middle() -> None:
    """40,000 lines (2 MB): the one error sits 1.3 MB before the tail. A spill hands the preview the UTF-8 it writes,
    and the engine scans all of the middle; searched marker by marker, only the last 512 KB are."""
    if not usable('hyperscan'):
        pytest.skip('the one-pass scan needs Hyperscan (the `fast` extra)')
    lines = [
        f'2026-11-29T10:{i // 60 % 60:02d}:{i % 60:02d} INFO worker-{i % 7} processed batch {i} ok'
        for i in range(40_000)
    ]
    lines[12_345] = '2026-11-29T13:25:45 ERROR worker-4 batch 12345 failed: disk quota exceeded on /var/spool'
    log = '\n'.join(lines) + '\n'
    preview = select_preview(log, 1_000, utf8=log.encode())
    assert_adds_up(preview, log, 1_000)
    assert lines[12_345] in preview.text.splitlines()


def test_a_braced_block_the_request_names_is_shown_with_what_it_sets() -> None:
    # `nginx -T` (real) of thirteen sites: the exports location of one overrides its server's read timeout. Asked why
    # exports stop after fifteen seconds, the `location ... {` line the request names brings the block's lines under
    # it, the override among them.
    dump = data('key_value', 'nginx_T_reports_timeouts.txt')
    lines = dump.splitlines()
    opening = lines.index('    location /reports/export/ {')
    intent = Intent.gather(
        args={'command': 'nginx -T'},
        prompt='CSV downloads from reports.internal/reports/export/ get cut off with a 504 gateway error after '
        'a while. The app logs show the export still running. What in the proxy config does this?',
    )
    shown = select_preview(dump, 1_000, intent=intent).text.splitlines()
    assert lines[opening] in shown
    assert '        proxy_read_timeout 15s;' in shown and lines.index('        proxy_read_timeout 15s;') > opening


def test_a_logged_exception_line_without_a_traceback_does_not_hide_a_later_traceback_of_its_kind() -> None:
    # A server logs `ValueError: ...` as one line for a bad request, and later a real `ValueError` traceback. Each
    # traceback's exception line is found from its header: the line alone is no traceback, and takes no kind's place.
    lines = ['Traceback (most recent call last):', '  File "app/db.py", line 3, in get', 'KeyError: 7']
    lines += [f'INFO request {i} ok' for i in range(200)]
    lines += ['ValueError: bad input from client 7']
    lines += [f'INFO request {i} ok' for i in range(200, 400)]
    lines += ['Traceback (most recent call last):', '  File "app/orders.py", line 42, in total']
    lines += ['    return int(amount)', "ValueError: invalid literal for int() with base 10: 'x'"]
    lines += [f'INFO request {i} ok' for i in range(400, 600)]
    view = TextView('\n'.join(lines) + '\n')
    picks = _later_exceptions(view, {'KeyError'}, 2, 200)
    shown = {view.content(line.span) for _, group, _ in picks for line in group}
    assert "ValueError: invalid literal for int() with base 10: 'x'" in shown
    assert '  File "app/orders.py", line 42, in total' in shown


def test_the_two_ends_of_a_log_share_the_preview_by_characters() -> None:
    # `sqlite3_analyzer` on a bloated database (real): its report opens with the file's totals (three quarters of the
    # pages free) and ends with an SQL dump of the same figures, one long `INSERT` a line.
    report = data('key_value', 'sqlite3_analyzer_freelist.txt.gz')
    preview = select_preview(report, 1_000)
    shown = preview.text.splitlines()
    assert 'Pages on the freelist (per header)................ 5227        77.1%' in shown
    head = sum(len(line) for line in shown[: shown.index(next(line for line in shown if line.startswith('[…')))])
    assert head >= 0.4 * len(preview.text)


def test_a_column_the_request_names_shows_the_row_where_it_peaks() -> None:
    # `mpstat -P ALL 1 60` during a build loop (real): a block of rows under the column names each second. The request
    # names `iowait` and `steal`, which only the lines of names hold: the rows where each peaks answer it.
    samples = data('tables', 'mpstat_all_cpus_build_loop.txt.gz')
    intent = Intent.gather(prompt='Are we CPU-bound or waiting on I/O? When did iowait spike, and is steal time high?')
    shown = select_preview(samples, 1_000, intent=intent).text.splitlines()
    assert '11:05:29       1   54.55    0.00   16.16   25.25    0.00    2.02    2.02    0.00    0.00    0.00' in shown
    assert '11:05:34       1   67.33    0.00   14.85    0.00    0.00    2.97    6.93    0.00    0.00    7.92' in shown
    # The column names over every second's block, the same but for the time, are not shown block after block.
    assert sum(1 for line in shown if line.split()[1:3] == ['CPU', '%usr']) <= 3


def test_a_sentence_in_a_manual_is_no_line_of_column_names_to_find_a_peak_under() -> None:
    # `mariadbd --verbose --help` (real): 2,400 lines of options and the sentences under them, then each variable's
    # value. A sentence holding the request's words (`... buffer pool dump status is printed when`) is no line of
    # column names to find a peak under: no such "peak" takes the warning's place.
    manual = data('text', 'mariadbd_verbose_help.txt.gz')
    intent = Intent.gather(
        args={'command': 'mariadbd --verbose --help'},
        text='Listing the options mariadbd would start with to check the packet size limit and the thread cache.',
        prompt='Before we restart MariaDB: what max packet size and thread cache size will it run with, and does it '
        'warn about anything?',
    )
    shown = select_preview(manual, 1_000, intent=intent, offer_chars=120).text.splitlines()
    assert line_with(manual, '[Warning] Could not increase number of max_open_files') in shown
    assert line_with(manual, 'thread-cache-size  ') in shown
    assert not any('buffer pool dump status is printed' in line for line in shown)


def test_a_lookup_by_two_keys_shows_every_row_holding_both_before_the_tables_extremes() -> None:
    # `datamash -g 1,2,3 count mean median max sum mean` over the Chinook sales (real): a row per country, city and
    # genre. "Metal in Canada, which city spent most and which least" is a lookup of the rows holding both: each is
    # an answer, and the extreme asked for is among them, not the whole table's largest rows.
    table = data('tables', 'datamash_chinook_country_city_genre.csv')
    for prompt, country, genre in (
        ('Metal buyers in Canada: which city spent most and which least?', 'Canada', 'Metal'),
        ('Which US city bought the longest Jazz tracks on average? Compare the USA Jazz rows.', 'USA', 'Jazz'),
    ):
        shown = select_preview(table, 1_000, intent=Intent.gather(prompt=prompt), offer_chars=120).text.splitlines()
        rows = [row for row in table.splitlines() if row.startswith(f'{country},') and f',{genre},' in row]
        assert sum(row in shown for row in rows) >= len(rows) - 2


def test_matched_lines_of_one_form_give_way_after_two_to_lines_of_other_forms() -> None:
    # Sockets of a proxy leaking them: the request's port is on every one of the `CLOSE-WAIT` lines; two say it, and
    # the line of another state comes before the third.
    rows = [
        f'CLOSE-WAIT 0      0    127.0.0.1:20480  127.0.0.1:{45000 + i} users:(("python3",fd={i}))' for i in range(4)
    ]
    rows.append('LISTEN     0      512  127.0.0.1:20480  0.0.0.0:*   users:(("python3",fd=3))')
    text = '\n'.join(rows)
    starts = [sum(len(row) + 1 for row in rows[:index]) for index in range(len(rows))]
    lines = [
        LineMatch(start, start + len(row), 1.0 - index * 0.1, start, (0,))
        for index, (start, row) in enumerate(zip(starts, rows, strict=True))
    ]
    varied = [text[line.start : line.end].split()[0] for line in preview_module._varied(text, lines)]
    assert varied == ['CLOSE-WAIT', 'CLOSE-WAIT', 'LISTEN', 'CLOSE-WAIT', 'CLOSE-WAIT']


def test_a_jvm_thread_dump_shows_the_thread_holding_the_monitor_the_others_wait_to_lock() -> None:
    # `jstack -l` of a small server built here (real): `index-rebuild` sleeps holding the index's monitor, eight request
    # threads wait to lock it, four idle pool threads and the JVM's own threads say nothing.
    dump = data('logs', 'jstack_catalog_index_rebuild.txt')
    for preview in (select_preview(dump, 1_000), asked(dump, 'The catalog stopped answering: why do requests hang?')):
        assert_adds_up(preview, dump, 1_000)
        shown = preview.text
        assert '\tat com.shop.catalog.CatalogServer.rebuildIndex(CatalogServer.java:10)' in shown, shown
        assert '\t- locked <0x000000069ec19c50> (a java.lang.Object)' in shown
        assert '\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)' in shown  # what it does holding it
        assert '\tat com.shop.catalog.CatalogServer.lookup(CatalogServer.java:15)' in shown  # where the others wait
        assert '\t- waiting to lock <0x000000069ec19c50> (a java.lang.Object)' in shown


def test_a_jvm_thread_dump_with_a_deadlock_shows_the_jvms_account_of_it() -> None:
    # `jstack -l` of two transfers locking two accounts in opposite orders (real), six reporters waiting behind them.
    dump = data('logs', 'jstack_ledger_deadlock.txt')
    preview = select_preview(dump, 1_000)
    assert_adds_up(preview, dump, 1_000)
    assert 'Found one Java-level deadlock:' in preview.text
    assert '  which is held by "transfer-checking-to-savings"' in preview.text
    assert '  which is held by "transfer-savings-to-checking"' in preview.text


def test_an_rspec_run_shows_its_failed_examples_and_what_the_first_failures_expected_and_got() -> None:
    # `rspec --format documentation` of Rainbow with its RGB-to-ANSI mapping broken here (real): 6 of 220 examples fail.
    run = data('test_runs', 'rspec_doc_rainbow_ansi_domain.txt')
    for preview in (select_preview(run, 1_000), asked(run, 'I changed the RGB mapping in color.rb: what broke?')):
        shown = preview.text
        assert '  allows foreground coloring by color rgb (FAILED - 1)' in shown, shown
        assert '      is expected to eq [38, 5, 39] (FAILED - 5)' in shown
        assert '  1) Rainbow() wrapper allows foreground coloring by color rgb' in shown
        assert '            got: "\\e[38;5;251mhello\\e[0m"' in shown


def test_a_testdox_run_shows_its_crossed_tests_and_the_message_under_each_bar() -> None:
    # `phpunit --testdox` of doctrine/inflector with French's plural exceptions dropped here (real): 4 of 1,032 fail,
    # each crossed (`✘`) with its message down a gutter of bars under it, the whole list again at the end.
    run = data('test_runs', 'phpunit_testdox_inflector_french.txt.gz')
    asked_for = 'I simplified the French plural rules: which words come out wrong now, and as what?'
    for preview in (select_preview(run, 1_000), asked(run, asked_for)):
        assert_adds_up(preview, run, 1_000)
        shown = preview.text
        assert ' \u2718 Inflecting plurals with data set #36' in shown, shown
        assert "   \u2502 'chacal' should be pluralized to 'chacals'" in shown
        assert "   \u2502 'carnaval' should be pluralized to 'carnavals'" in shown


def test_an_eunit_run_shows_its_failed_tests_among_thousands_passed() -> None:
    # `rebar3 eunit --verbose` of jsx with its indentation made one level too deep here (real): 11 of 2,179 tests fail,
    # each line ending `...*failed*`, and the run's tally says `Failed: 11.  Skipped: 0.  Passed: 2168.`
    run = data('test_runs', 'eunit_jsx_indent.txt.gz')
    for preview in (
        select_preview(run, 1_000),
        asked(run, 'I touched the indentation code in jsx_to_json: what broke?'),
    ):
        assert_adds_up(preview, run, 1_000)
        shown = preview.text
        assert '  jsx_to_json:285: -indent_test_/0-fun-7- (indent 1 depth 1)...*failed*' in shown, shown
        assert '  jsx_to_json:289: -indent_test_/0-fun-5- (indent 1 depth 2)...*failed*' in shown


def test_a_report_without_codes_shows_the_findings_of_a_kind_found_once_or_twice_among_hundreds() -> None:
    # `pyflakes networkx` (real): 418 unused imports, 263 star imports, 162 unused locals, and a dictionary key given
    # two values and a name that may be undefined: the few a reader looks for among the usual.
    report = data('diagnostics', 'pyflakes_networkx.txt.gz')
    asked_for = 'pyflakes reports hundreds of things in networkx: which are likely real bugs, not unused imports?'
    for preview in (select_preview(report, 1_000), asked(report, asked_for)):
        assert_adds_up(preview, report, 1_000)
        assert 'test_planarity.py:487:17: dictionary key 1 repeated with different values' in preview.text, preview.text
        assert "coloring/__init__.py:4:1: 'greedy_color' may be undefined" in preview.text


def test_a_linters_quoted_source_and_a_word_on_every_finding_to_look_past_do_not_bury_its_warning() -> None:
    # `lintr::lint_package()` over glue (real): 54 findings, each over the source line it quotes and a caret under
    # that. "Looking past the style lints" names `lint`, which every finding holds (`[..._linter]`): held against all
    # of them, the quoted source lines holding the request's words would come first.
    report = data('diagnostics', 'lintr_glue_package.txt')
    preview = asked(
        report,
        'Lint the glue package. Looking past the style lints (line length, quotes, names), what should we fix?',
        800,
    )
    warning = 'R/import-standalone-s3-register.R:149:3: warning: [object_usage_linter] local variable \u2018out\u2019'
    assert any(line.startswith(warning) for line in preview.text.splitlines()), preview.text
    assert "#' SQL quoting." not in preview.text


def test_a_report_naming_its_rules_in_a_column_is_counted_by_rule_and_the_rule_a_request_points_at_leads() -> None:
    # PHPMD's text format over Parsedown and its tests (real): `path:line`, the rule, the message, in columns; 480 of
    # 608 findings are one naming rule. The census counts them by rule; asked for real defects like undefined
    # variables, that rule's first finding comes before the first findings of the other rules.
    report = data('diagnostics', 'phpmd_parsedown.txt.gz')
    plain = select_preview(report, 1_000)
    assert_adds_up(plain, report, 1_000)
    assert plain.text.startswith('[608 diagnostics by code: CamelCaseVariableName 480, CamelCaseParameterName 63,')
    preview = asked(report, 'Is anything PHPMD found here a real defect, like an undefined variable, not naming style?')
    assert '/home/dev/parsedown/test/ParsedownTest.php:24         UndefinedVariable ' in preview.text, preview.text


def test_a_proxys_log_shows_the_first_line_of_each_status_and_flags_few_of_its_lines_hold() -> None:
    # haproxy's httplog in front of three small servers of ours (real): 381 of 420 requests `200`, and a `502` (`SH--`)
    # and a `503` (`SC--`) when one server went down, `504`s (`sH--`) from a slow search: fields past the line's first.
    log = data('logs', 'haproxy_httplog_api.txt.gz')
    preview = select_preview(log, 1_000)
    assert_adds_up(preview, log, 1_000)
    lines = preview.text.splitlines()
    assert any(' api/a3 0/0/0/-1/2 502 209 - - SH-- ' in line for line in lines), preview.text
    assert any(' api/a3 0/0/-1/-1/3004 503 217 - - SC-- ' in line for line in lines)


def test_a_report_of_parts_each_closed_by_a_verdict_alike_shows_every_parts_verdict() -> None:
    # `systemd-analyze security --offline=true` of five units here (real): each unit's table of checks, closed by
    # `→ Overall exposure level for <unit>: <score> <verdict>`. The last is the final line; the others are as telling.
    report = data('tables', 'systemd_analyze_security_five_units.txt.gz')
    for preview in (select_preview(report, 1_000), asked(report, 'Which of these services is the least hardened?')):
        assert_adds_up(preview, report, 1_000)
        for unit in (
            'dpkg-db-backup.service: 9.6',
            'rsync.service: 8.7',
            'nftables.service: 9.5',
            'fstrim.service: 7.0',
        ):
            assert f'\u2192 Overall exposure level for {unit}' in preview.text, preview.text


def test_a_warning_logged_in_lowercase_after_the_tools_name_is_found_in_the_middle_of_a_log() -> None:
    # npm's verbose install (its forms): hundreds of lines of fetches and scripts run, and two `npm warn deprecated`
    # deep in them.
    forms = (
        'npm http fetch GET 200 https://registry.npmjs.org/pkg-{0}/-/pkg-{0}-1.0.{1}.tgz {2}ms (cache miss)',
        'npm info run pkg-{0}@1.0.{1} postinstall {{ code: 0, signal: null }}',
        'npm verbose reify failed optional dependency /srv/app/node_modules/fsevents-{0}',
        'npm http cache pkg-{0}@https://registry.npmjs.org/pkg-{0}/-/pkg-{0}-1.0.{1}.tgz 0ms (cache hit)',
    )
    lines = [forms[i % 4].format(i, i % 7, 100 + i) for i in range(600)]
    lines[250] = (
        'npm warn deprecated request@2.88.2: request has been deprecated, see https://github.com/request/request'
    )
    lines[380] = 'npm warn deprecated uuid@3.4.0: Please upgrade  to version 7 or higher.'
    # Its account at the end warns too: `warn` is on too many lines to be a rare first field.
    scripts = [f'npm warn install-scripts   pkg-{i}@1.0.0 (postinstall: node scripts/postinstall)' for i in range(6)]
    log = '\n'.join(['npm verbose cli /usr/bin/node /usr/bin/npm', *lines, 'added 212 packages in 9s', *scripts])
    preview = select_preview(log, 1_000)
    assert_adds_up(preview, log, 1_000)
    assert lines[250] in preview.text.splitlines(), preview.text
    assert lines[380] in preview.text.splitlines()


def test_a_log_assigning_outcomes_shows_the_first_line_of_each_uncommon_one() -> None:
    # A job runner's logfmt lines: 400 jobs `result=ok`, a few `result=skipped`, one `result=requeued` deep in them.
    lines = [
        f'time=2026-12-03T10:{i // 60:02}:{i % 60:02}Z level=info job=export-{i} result=ok duration={20 + i % 9}ms'
        for i in range(400)
    ]
    for i in (90, 210, 330):
        lines[i] = (
            f'time=2026-12-03T10:{i // 60:02}:{i % 60:02}Z level=info job=export-{i} result=skipped reason=locked'
        )
    lines[260] = 'time=2026-12-03T10:04:20Z level=info job=export-260 result=requeued attempt=3 reason=upstream-busy'
    log = '\n'.join(lines)
    preview = select_preview(log, 1_000)
    assert_adds_up(preview, log, 1_000)
    shown = preview.text.splitlines()
    assert lines[260] in shown, preview.text
    assert lines[90] in shown


def test_collapsed_stacks_are_summed_by_function_in_a_note_over_the_preview() -> None:
    # austin's collapsed stacks of a word count of ours (real): `normalize`, called from two places at several lines,
    # has its samples spread over hundreds of lines; no line says it holds three quarters of them. The note does, past
    # the script's module (whose samples are nearly all its `main`'s).
    stacks = data('logs', 'austin_wordstats_collapsed.txt.gz')
    preview = select_preview(stacks, 1_000)
    assert_adds_up(preview, stacks, 1_000)
    note = preview.text.splitlines()[0]
    assert note.startswith('[1,057 stacks weighing 1,177,159; the most under: wordstats.py:main 94%, '), note
    assert 'wordstats.py:normalize 76%' in note and '<module>' not in note


def test_lines_opening_as_the_final_line_does_are_its_siblings_only_while_they_are_few() -> None:
    # Twenty progress lines opening alike are the output's texture, not the verdicts of its parts; three are verdicts.
    def siblings(repeats: int) -> list[str]:
        lines = [f'Checked package number {i}: ok' for i in range(repeats)] + ['other line'] * 5
        view = TextView('\n'.join([*lines, f'Checked package number {repeats}: ok']))
        return [view.content(span) for span in preview_module._final_siblings(view, view.tail(1, 0)[-1])]

    assert siblings(3) == [f'Checked package number {i}: ok' for i in (2, 1, 0)]
    assert siblings(20) == []


def test_a_check_a_request_names_brings_the_short_record_indented_under_it() -> None:
    # `checkov -d terraform/azure --compact` over TerraGoat (real): each failed check's line over the resource and the
    # file it failed in, indented under it. Asked which machine allows passwords, the check's record is the answer.
    report = data('diagnostics', 'checkov_compact_terragoat_azure.txt')
    preview = asked(
        report, 'Does any Azure virtual machine here allow password authentication instead of SSH keys? In which file?'
    )
    lines = preview.text.splitlines()
    check = lines.index('Check: CKV_AZURE_149: "Ensure that Virtual machine does not enable password authentication"')
    assert lines[check + 1 : check + 3] == [
        '\tFAILED for resource: azurerm_linux_virtual_machine.linux_machine',
        '\tFile: /instance.tf:9-42',
    ], preview.text


def test_asked_for_the_worst_of_a_logs_timed_events_the_longest_show() -> None:
    # A JVM's GC log (`-XX:+UseParallelGC -Xlog:gc,gc+heap`) of a cache warming up in a small heap (real): 112 pauses,
    # each line ending with how long it took, among the heap's lines.
    log = data('logs', 'java_parallel_gc_cache_warmup.txt')
    preview = asked(log, 'What was the worst GC pause while the cache warmed up, and what kind of collection was it?')
    assert '[0.580s][info][gc     ] GC(42) Pause Full (Ergonomics) 38M->23M(43M) 35.538ms' in preview.text, preview.text


def test_an_address_asked_about_finds_its_instruction_and_the_function_it_is_in() -> None:
    # `objdump -d` of a stretch of CPython's libpython (real): a crash at an offset the request writes in hex, as a
    # backtrace does; the disassembly prints addresses bare. Shown: the instruction there and the function's start.
    listing = data('text', 'objdump_d_libpython_list_sort.txt.gz')
    preview = asked(listing, 'A core dump says we crashed at libpython3.11.so.1.0+0x1816c5. Which function is that?')
    assert '  1816c5:\tmov    0x28(%rsp),%rbx' in preview.text.splitlines(), preview.text
    assert '00000000001810d0 <list_sort_impl>:' in preview.text.splitlines()
