"""Writes cases.json: one record per capture, written before any stand-in code ran on the captures.

Kept as a script so the tabs and escape characters in the facts are spelled out readably; the
script checks that every fact is really in its capture, then writes the JSON the benchmark reads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
CAPTURES = HERE / 'captures'

CASES: list[dict[str, Any]] = [
    {
        'id': 'pytest_flask_upgrade',
        'shape': 'test_log',
        'file': 'pytest_flask_upgrade.txt',
        'captured_with': 'python -m pytest -v tests  (Flask 3.0.3 tests against Flask 3.1.3, click 8.5, pytest 7.4)',
        'tool': 'run_shell',
        'args': {'command': 'python -m pytest -v tests'},
        'model_text': "I'll run the suite verbosely to see which tests broke after the upgrade; the CLI tests in "
        'tests/test_cli.py are the first suspects since click was bumped too.',
        'user_prompt': 'We bumped Flask to 3.1 and click to 8.5 and CI went red. Which tests fail and why? Start with '
        'the CLI tests, then the session test.',
        'task': 'Name the failing tests, the cause of the test_cli.py failures and where each failure is raised.',
        'facts': [
            '8 failed, 466 passed, 3 skipped',
            "TypeError: CliRunner.__init__() got an unexpected keyword argument 'mix_stderr'",
            'tests/test_cli.py:401: TypeError',
            'FAILED tests/test_cli.py::test_load_dotenv - AssertionError: assert not True',
            'tests/test_basic.py:235: AssertionError',
        ],
    },
    {
        'id': 'git_log_stat',
        'shape': 'vcs_history',
        'file': 'git_log_stat.txt',
        'captured_with': 'git log --stat -n 200  (marshmallow)',
        'tool': 'run_shell',
        'args': {'command': 'git log --stat -n 200'},
        'model_text': 'Let me go through the recent history with file stats to find the commit that switched the '
        'default set_class to OrderedSet.',
        'user_prompt': 'Since some release the fields of our schemas come out in declaration order because marshmallow '
        'now uses an OrderedSet by default. Find the commit that made OrderedSet the default set_class: its hash, '
        'date, the files it touched, and the pull request that merged it.',
        'task': 'Find the commit that made OrderedSet the default set_class, its date, files touched and merging PR.',
        'facts': [
            'commit 3defae8d74056f22604d985007f71e627587cc69',
            'Date:   Wed Oct 27 14:48:31 2021 +0200',
            ' src/marshmallow/schema.py | 6 ++----',
            'Merge pull request #1896 from marshmallow-code/ordered_set_default',
        ],
    },
    {
        'id': 'pyright_json',
        'shape': 'diagnostics_json',
        'file': 'pyright_tqdm.json',
        'captured_with': 'pyright --outputjson tqdm  (pyright 1.1.414 on tqdm)',
        'tool': 'run_shell',
        'args': {'command': 'pyright --outputjson tqdm'},
        'model_text': "I'll type-check the package with pyright in JSON mode and look at what it reports for "
        'tqdm/contrib/logging.py and the overall counts.',
        'user_prompt': 'Before we vendor tqdm, run pyright over it. How many errors overall, and what exactly is wrong '
        'in tqdm/contrib/logging.py?',
        'task': 'Give the total error count and the diagnostics for tqdm/contrib/logging.py.',
        'facts': [
            '"errorCount": 210',
            'Unexpected token at end of expression',
            'Cannot access attribute \\"stream\\" for class \\"Handler\\"',
            '"file": "/home/dev/tqdm/tqdm/contrib/logging.py"',
        ],
    },
    {
        'id': 'mypy_strict',
        'shape': 'diagnostics',
        'file': 'mypy_strict_tqdm.txt',
        'captured_with': 'mypy --strict tqdm',
        'tool': 'run_shell',
        'args': {'command': 'mypy --strict tqdm'},
        'model_text': "Running mypy in strict mode; most hits will be missing annotations, so I'll look for the "
        'real type errors such as [operator] and [attr-defined] in tqdm/contrib.',
        'user_prompt': 'mypy --strict on tqdm: besides missing annotations, does it find real bugs? Check the '
        'operator and attr-defined errors in tqdm/contrib, and give the totals.',
        'task': 'Report the totals and the real type errors ([operator], [attr-defined]) under tqdm/contrib.',
        'facts': [
            'Found 558 errors in 25 files (checked 31 source files)',
            'tqdm/contrib/concurrent.py:44: error: Unsupported operand types for + ("None" and "int")  [operator]',
            'tqdm/contrib/itertools.py:90: error: Module has no attribute "batched"  [attr-defined]',
            'tqdm/utils.py:103: error: "Comparable" has no attribute "_comparable"  [attr-defined]',
        ],
    },
    {
        'id': 'pg_settings_csv',
        'shape': 'table_delimited',
        'file': 'pg_settings.csv',
        'captured_with': "psql --csv -c 'select * from pg_settings'  (PostgreSQL 15, fresh cluster)",
        'tool': 'run_shell',
        'args': {'command': "psql --csv -c 'select * from pg_settings'"},
        'model_text': 'Let me dump pg_settings and check the planner cost and cache settings: effective_cache_size, '
        'random_page_cost and shared_buffers.',
        'user_prompt': 'Reports queries do sequential scans even though indexes exist. Check what the planner '
        'assumes: effective_cache_size, random_page_cost, and how big shared_buffers is.',
        'task': 'Read the values (with units) of effective_cache_size, random_page_cost and shared_buffers.',
        'facts': [
            'name,setting,unit,category',
            'effective_cache_size,524288,8kB',
            'random_page_cost,4,,Query Tuning',
            'shared_buffers,16384,8kB',
        ],
    },
    {
        'id': 'pg_columns_aligned',
        'shape': 'table_aligned',
        'file': 'pg_columns.txt',
        'captured_with': 'psql -c "select table_name, column_name, ordinal_position, data_type, is_nullable from '
        "information_schema.columns where table_schema='pg_catalog' order by table_name, ordinal_position\"",
        'tool': 'run_shell',
        'args': {
            'command': 'psql -c "select table_name, column_name, ordinal_position, data_type, is_nullable from '
            "information_schema.columns where table_schema='pg_catalog' order by table_name, ordinal_position\""
        },
        'model_text': "I'll list the catalog columns to see which columns of pg_stat_activity hold the query start "
        'time, the state and the wait event, with their types.',
        'user_prompt': 'I want a query that finds long-running queries. Which columns of pg_stat_activity give the '
        'query start time, the state and what it waits on, and what are their types?',
        'task': 'Find the pg_stat_activity columns for query start, state and wait event, with types.',
        'facts': [
            'table_name            |        column_name        | ordinal_position |        data_type',
            'pg_stat_activity                | query_start               |               13 | timestamp with time zone',
            'pg_stat_activity                | state                     |               17 | text',
            'pg_stat_activity                | wait_event                |               16 | text',
        ],
    },
    {
        'id': 'importtime',
        'shape': 'table_numeric',
        'file': 'importtime_pydantic_ai.txt',
        'captured_with': 'python -X importtime -c "import pydantic_ai"',
        'tool': 'run_shell',
        'args': {'command': 'python -X importtime -c "import pydantic_ai"'},
        'model_text': 'Let me measure where import time goes when pydantic_ai is imported; I expect the message '
        'models or a provider SDK to dominate.',
        'user_prompt': 'Our CLI takes over a second to start and most of it is `import pydantic_ai`. Which imports '
        'cost the most?',
        'task': 'Give the total import time of pydantic_ai and the modules with the largest self time.',
        'facts': [
            'import time: self [us] | cumulative | imported package',
            'import time:      2222 |    1099440 | pydantic_ai',
            'import time:     66632 |      96444 |           pydantic_ai.messages',
            'import time:     36395 |     512879 |     pydantic_ai._utils',
        ],
    },
    {
        'id': 'cprofile_tottime',
        'shape': 'table_sorted',
        'file': 'cprofile_tottime.txt',
        'captured_with': 'python -m cProfile -s tottime performance/benchmark.py --iterations 20 --repeat 1 '
        '--object-count 200  (marshmallow)',
        'tool': 'run_shell',
        'args': {
            'command': 'python -m cProfile -s tottime performance/benchmark.py --iterations 20 --repeat 1 '
            '--object-count 200'
        },
        'model_text': "I'll profile the dump benchmark sorted by own time; I also want to see whether the "
        '_invoke_dump_processors hooks cost anything.',
        'user_prompt': 'Schema.dump got slower. Profile the benchmark: which functions take the most own time, how '
        'long did the whole run take, and do the post_dump processors (_invoke_dump_processors) matter?',
        'task': 'Name the top functions by own time, the run total, and the cost of _invoke_dump_processors.',
        'facts': [
            '699710 function calls (656451 primitive calls) in 0.554 seconds',
            'ncalls  tottime  percall  cumtime  percall filename:lineno(function)',
            '60000/32000    0.089    0.000    0.378    0.000 fields.py:320(serialize)',
            '8020/20    0.071    0.000    0.421    0.021 schema.py:505(_serialize)',
            '20    0.000    0.000    0.009    0.000 schema.py:1058(_invoke_dump_processors)',
        ],
    },
    {
        'id': 'devserver_log',
        'shape': 'log_traceback',
        'file': 'devserver_flaskr.log',
        'captured_with': 'flask --app flaskr run  (the Flask tutorial app under scripted traffic; a backup job held '
        'an exclusive lock on the SQLite file for 7 s mid-run)',
        'tool': 'run_shell',
        'args': {'command': 'cat /home/dev/flaskr-app/server.log'},
        'model_text': 'Let me read the dev server log around the failed POST /create request and find the '
        'exception and where in our flaskr code it was raised.',
        'user_prompt': 'A user got a 500 Internal Server Error when creating a post. What failed, and where in our '
        'code?',
        'task': 'Find the exception behind the 500 on POST /create and the frame in flaskr code that raised it.',
        'facts': [
            '[2026-11-30 18:12:16,419] ERROR in app: Exception on /create [POST]',
            'sqlite3.OperationalError: database is locked',
            'File "/home/dev/flaskr-app/flaskr/auth.py", line 42, in load_logged_in_user',
        ],
    },
    {
        'id': 'ls_laR',
        'shape': 'listing',
        'file': 'ls_laR_pip.txt',
        'captured_with': 'ls -laR pip  (in site-packages of a fresh venv)',
        'tool': 'run_shell',
        'args': {'command': 'ls -laR pip'},
        'model_text': "I'll list pip's package tree recursively to find where the vendored resolvelib lives and how "
        'big its resolvers.py is.',
        'user_prompt': 'Where does pip vendor resolvelib, and how large is the resolver module (resolvers.py)?',
        'task': 'Locate the vendored resolvelib directory and the size of its resolvers.py.',
        'facts': [
            'pip/_vendor/resolvelib:',
            '-rw-r--r--  1 root root 20511 Nov 30 18:07 resolvers.py',
            'pip:',
        ],
    },
    {
        'id': 'strace',
        'shape': 'syscall_trace',
        'file': 'strace_psql.txt',
        'captured_with': "strace -f -s 200 psql -h /tmp -p 54329 -U app -d reports -c 'select 1' 2>&1",
        'tool': 'run_shell',
        'args': {'command': "strace -f -s 200 psql -h /tmp -p 54329 -U app -d reports -c 'select 1' 2>&1"},
        'model_text': "I'll strace psql to see which socket it connects to and what the server answers before it "
        'exits.',
        'user_prompt': 'psql cannot connect to the reports database as the app role. Use strace to find where it '
        'connects and why the connection is refused.',
        'task': 'Find the socket psql connects to, the server error, and the exit status.',
        'facts': [
            'connect(3, {sa_family=AF_UNIX, sun_path="/tmp/.s.PGSQL.54329"}, 110) = 0',
            'failed: FATAL:  role \\"app\\" does not exist',
            '+++ exited with 2 +++',
            'execve("/usr/lib/postgresql/15/bin/psql"',
        ],
    },
    {
        'id': 'pip_list_records',
        'shape': 'records',
        'file': 'pip_list_verbose.json',
        'structured': True,
        'captured_with': 'pip list --format json --verbose  (parsed: the tool returns the list of records)',
        'tool': 'list_packages',
        'args': {'verbose': True},
        'model_text': 'Let me list the installed packages with their versions and locations, to check '
        'opentelemetry-sdk, pydantic-ai-slim and what is installed in editable mode.',
        'user_prompt': 'Which versions of opentelemetry-sdk and pydantic-ai-slim are installed in this environment, '
        'and is anything installed in editable mode (from which directory)?',
        'task': 'Versions of opentelemetry-sdk and pydantic-ai-slim; the editable install and its project location.',
        'facts': [
            ['opentelemetry-sdk', '1.45.2'],
            ['pydantic-ai-slim', '2.68.0'],
            ['observable-harness', '/home/dev/agent-app"'],
        ],
    },
    {
        'id': 'pg_proc_records',
        'shape': 'records',
        'file': 'pg_proc_records.json',
        'structured': True,
        'captured_with': 'psql -At -c "select json_agg(f) from (select ... from pg_proc ...) f"  (parsed rows)',
        'tool': 'query_db',
        'args': {
            'sql': 'select p.oid::int as oid, proname, pronargs, pg_get_function_identity_arguments(p.oid) as args, '
            'prorettype::regtype::text as returns, provolatile as volatility, proparallel as parallel, prokind as '
            "kind from pg_proc p where pronamespace = 'pg_catalog'::regnamespace and proname like 'json%' or "
            "proname like 'array%' or proname like 'to_%' or proname like 'regexp%' or proname like 'string%' or "
            "proname like 'date%' order by proname, oid"
        },
        'model_text': "I'll pull the catalog rows for these functions; I need jsonb_path_query's arguments, return "
        'type and whether it is parallel safe.',
        'user_prompt': 'Can we call jsonb_path_query inside a parallel query? Show its full signature, what it '
        'returns, its volatility and parallel safety.',
        'task': "jsonb_path_query's arguments, return type, volatility and parallel safety.",
        'facts': [
            ['jsonb_path_query', 'target jsonb, path jsonpath, vars jsonb, silent boolean'],
            ['4006', 'jsonb_path_query'],
            ['silent boolean', 'parallel'],
        ],
    },
    {
        'id': 'sysctl',
        'shape': 'key_value',
        'file': 'sysctl_a.txt',
        'captured_with': 'sysctl -a',
        'tool': 'run_shell',
        'args': {'command': 'sysctl -a'},
        'model_text': "Let me read the kernel's network settings: the listen backlog (somaxconn, tcp_max_syn_backlog), "
        'the local port range and the TCP keepalive time.',
        'user_prompt': 'Under load our service drops new connections. Check the kernel limits that matter: listen '
        'backlog, SYN backlog, ephemeral port range and keepalive.',
        'task': 'Read somaxconn, tcp_max_syn_backlog, ip_local_port_range and tcp_keepalive_time.',
        'facts': [
            'net.core.somaxconn = 4096',
            'net.ipv4.tcp_max_syn_backlog = 2048',
            'net.ipv4.ip_local_port_range = 32768\t60999',
            'net.ipv4.tcp_keepalive_time = 7200',
        ],
    },
    {
        'id': 'python_sysconfig',
        'shape': 'key_value',
        'file': 'python_sysconfig.txt',
        'captured_with': 'python -m sysconfig',
        'tool': 'run_shell',
        'args': {'command': 'python -m sysconfig'},
        'model_text': "I'll dump the build configuration of this interpreter and check CC, CFLAGS, EXT_SUFFIX and "
        'whether it was built with --enable-shared (Py_ENABLE_SHARED).',
        'user_prompt': 'Our C extension fails to load in this Python. Which compiler and flags was the interpreter '
        'built with, what suffix must extension modules have, and is libpython shared?',
        'task': 'Read CC, CFLAGS, EXT_SUFFIX and Py_ENABLE_SHARED, and the platform.',
        'facts': [
            'Platform: "linux-x86_64"',
            '\tCC = "gcc"',
            '\tCFLAGS = "-Wsign-compare -DNDEBUG -g -fwrapv -O3 -Wall"',
            '\tEXT_SUFFIX = ".cpython-311-x86_64-linux-gnu.so"',
            '\tPy_ENABLE_SHARED = "1"',
        ],
    },
    {
        'id': 'git_diff',
        'shape': 'diff',
        'file': 'git_diff_flask.txt',
        'captured_with': 'git diff 3.0.3 3.1.0 -- src  (flask)',
        'tool': 'run_shell',
        'args': {'command': 'git diff 3.0.3 3.1.0 -- src'},
        'model_text': 'Let me diff the Flask sources between 3.0.3 and 3.1.0 and look for new config keys and the '
        'SECRET_KEY_FALLBACKS handling in sessions.py.',
        'user_prompt': 'Upgrading Flask 3.0.3 -> 3.1.0 changed session behaviour for us. Which config defaults were '
        'added, and how does session signing use SECRET_KEY_FALLBACKS now?',
        'task': 'List the new config defaults and the sessions.py change that uses SECRET_KEY_FALLBACKS.',
        'facts': [
            '+            "SECRET_KEY_FALLBACKS": None,',
            '+            "MAX_FORM_MEMORY_SIZE": 500_000,',
            'diff --git a/src/flask/sessions.py b/src/flask/sessions.py',
            '+        if fallbacks := app.config["SECRET_KEY_FALLBACKS"]:',
        ],
    },
    {
        'id': 'coverage_report',
        'shape': 'table_aligned',
        'file': 'coverage_report.txt',
        'captured_with': 'coverage run --source=flask,werkzeug,jinja2,click,itsdangerous -m pytest; coverage report -m',
        'tool': 'run_shell',
        'args': {'command': 'coverage report -m'},
        'model_text': "Let me print the coverage report; I'm interested in flask/cli.py and flask/sessions.py and the "
        'total.',
        'user_prompt': "How well does Flask's own test suite cover flask/cli.py and flask/sessions.py, and what is the "
        'total coverage?',
        'task': 'Coverage of flask/cli.py, flask/sessions.py and the total.',
        'facts': [
            'Name  ',
            'flask/cli.py                                 437     60    86%',
            'flask/sessions.py                            115      1    99%',
            'TOTAL' + ' ' * 87 + '23015  10843    53%',
        ],
    },
    # --- held out: not looked at while tuning the stand-in code; measured and reported separately ---
    {
        'id': 'ruff_select_all',
        'shape': 'diagnostics',
        'held_out': True,
        'file': 'ruff_select_all.txt',
        'captured_with': 'ruff check --no-fix --select ALL --output-format concise src  (marshmallow)',
        'tool': 'run_shell',
        'args': {'command': 'ruff check --no-fix --select ALL --output-format concise src'},
        'model_text': "I'll run ruff with every rule enabled; most will be style, so I'll look for bug-prone rules "
        'like PLW2901 and TRY301, and the total.',
        'user_prompt': 'Run ruff with all rules over marshmallow. Ignore the style noise: are there bug-prone findings '
        '(a loop variable overwritten, PLW2901; raise inside try, TRY301)? How many findings in total?',
        'task': 'The total count and the PLW2901/TRY301 findings with their locations.',
        'facts': [
            'Found 1187 errors.',
            'src/marshmallow/fields.py:849:13: PLW2901 `for` loop variable `field` overwritten by assignment target',
            'src/marshmallow/validate.py:80:21: TRY301 Abstract `raise` to an inner function',
        ],
    },
    {
        'id': 'tree_otel',
        'shape': 'listing',
        'held_out': True,
        'file': 'tree_opentelemetry.txt',
        'captured_with': 'tree -h opentelemetry  (site-packages)',
        'tool': 'run_shell',
        'args': {'command': 'tree -h opentelemetry'},
        'model_text': 'Let me look at the installed opentelemetry tree to find the OTLP HTTP trace exporter package.',
        'user_prompt': 'Where is the OTLP/HTTP trace exporter inside the installed opentelemetry packages, and how '
        'many files do these packages have?',
        'task': 'Locate the OTLP HTTP trace_exporter directory (with its ancestors) and the totals.',
        'facts': [
            '199 directories, 638 files',
            '│\xa0\xa0 │\xa0\xa0 │\xa0\xa0 └── [4.0K]  http',  # tree indents with no-break spaces
            '│\xa0\xa0 │\xa0\xa0 │\xa0\xa0     ├── [4.0K]  trace_exporter',
        ],
    },
    {
        'id': 'gcc_optimizers',
        'shape': 'key_value',
        'held_out': True,
        'file': 'gcc_O2_optimizers.txt',
        'captured_with': 'gcc -O2 -Q --help=optimizers',
        'tool': 'run_shell',
        'args': {'command': 'gcc -O2 -Q --help=optimizers'},
        'model_text': "I'll ask gcc which optimizations -O2 enables, to check -ftree-vectorize and -fstrict-aliasing.",
        'user_prompt': 'Does -O2 on this gcc vectorize loops, and is strict aliasing on?',
        'task': 'Read the state of -ftree-vectorize and -fstrict-aliasing at -O2.',
        'facts': [
            '-ftree-vectorize            \t\t[disabled]',
            '-fstrict-aliasing           \t\t[enabled]',
            'The following options control optimizations:',
        ],
    },
    {
        'id': 'lsof_postgres',
        'shape': 'table_aligned',
        'held_out': True,
        'file': 'lsof_postgres.txt',
        'captured_with': 'lsof -n -c postgres',
        'tool': 'run_shell',
        'args': {'command': 'lsof -n -c postgres'},
        'model_text': 'Let me list the files the postgres processes hold open: the listening sockets and the WAL '
        'segment.',
        'user_prompt': 'Which postgres process holds the current WAL segment open, and where does the server listen '
        '(TCP address and Unix socket)?',
        'task': 'Find the process holding the WAL segment and the listening TCP address and Unix socket.',
        'facts': [
            'COMMAND    PID  USER   FD      TYPE',
            'TCP 127.0.0.1:54329 (LISTEN)',
            '/tmp/.s.PGSQL.54329 type=STREAM (LISTEN)',
            ['postgres 20040', '/home/pgdev/data/pg_wal/000000010000000000000001'],
        ],
    },
]


def _present(case: dict[str, Any]) -> None:
    path = CAPTURES / str(case['file'])
    text = path.read_text(encoding='utf-8')
    if case.get('structured'):
        # The tool returns parsed records; a fact must be in them as one record's values.
        text = json.dumps(json.loads(text))
    for fact in case['facts']:
        parts = [fact] if isinstance(fact, str) else fact
        for part in parts:
            if part not in text:
                raise SystemExit(f'{case["id"]}: fact part {part!r} is not in {path.name}')


def main() -> None:
    ids = [case['id'] for case in CASES]
    if len(set(ids)) != len(ids):
        raise SystemExit('duplicate case ids')
    for case in CASES:
        _present(case)
    note = (
        'Cases for bench/standins.py, written before any stand-in code ran on these captures. '
        'Cases with "held_out": true are not used while tuning; they are reported separately. '
        'A fact is a string, or a list of strings that must all appear within one 250-character window '
        'of one line of what the model saw (for records, whose layout the serializer decides).'
    )
    (HERE / 'cases.json').write_text(json.dumps({'note': note, 'cases': CASES}, indent=1, ensure_ascii=False) + '\n')
    print(f'{len(CASES)} cases, {sum(bool(c.get("held_out")) for c in CASES)} held out')


if __name__ == '__main__':
    main()
