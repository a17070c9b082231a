"""Intent terms: what the run says the model is looking for, and the lines of real output they select."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from observable_harness._text import intent as intent_module
from observable_harness._text.intent import Intent, Term, TermKind, _Folded, _scan, find_matches, whole_token
from observable_harness._text.layout import compact_json
from observable_harness._text.preview import select_preview
from tests.captures import read_capture
from tests.standins import capture


def terms(intent: Intent) -> dict[str, TermKind]:
    return {term.text: term.kind for term in intent.terms}


def test_terms_come_from_every_source_with_their_kind() -> None:
    intent = Intent.gather(
        args={'command': 'strace -f -s 200 psql -h /tmp -p 54329 -U app'},
        text='Let me check tests/test_cli.py and the `CliRunner` change.',
        thinking='Maybe work_mem or --enable-shared matters.',
        prompt='Why does "mix_stderr" fail since 3.1.0?',
    )
    found = terms(intent)
    assert found['tests/test_cli.py'] is TermKind.path
    assert found['test_cli.py'] is TermKind.path  # a path's last part: output may print it relative to elsewhere
    assert found['CliRunner'] is TermKind.quoted
    assert found['work_mem'] is TermKind.identifier
    assert found['--enable-shared'] is TermKind.flag
    assert found['mix_stderr'] is TermKind.quoted
    assert found['3.1.0'] is TermKind.number
    assert found['54329'] is TermKind.number
    # The programs a command line runs name the tool, not what its output is searched for; glue words name nothing.
    assert 'strace' not in found and 'psql' not in found
    assert not {'Let', 'check', 'and', 'the', 'Why', 'does', 'since'} & set(found)


def test_words_written_with_slashes_give_no_path_of_a_word_every_request_uses() -> None:
    # `blank/comment/code` is three columns, not a file: its last part is the word `code`, weighed as a word.
    intent = Intent.gather(text="I'll get the blank/comment/code counts for the stream implementation.")
    assert all(term.kind is TermKind.word for term in intent.terms if term.key == 'code')
    weights = {term.key: term.weight for term in intent.terms}
    assert weights.get('code', 0.0) < weights['stream']
    # Two names written as one are each looked for as a word of their own: the output names them apart.
    found = terms(Intent.gather(text='Let me trace which libssl/libcrypto each of numpy/pandas loads.'))
    assert found['libssl'] is TermKind.word and found['numpy'] is TermKind.word
    # An acronym is a name however short: `CSV` of "still Aria/CSV".
    assert 'csv' in terms(Intent.gather(text='Which tables are still Aria/CSV rather than InnoDB?'))


@pytest.mark.parametrize(
    ('request_text', 'extreme'),
    [
        ('What inside the numpy wheel is actually taking up the space?', 1),
        ('Which files account for the bulk of the image?', 1),
        ('What uses the most disk on this box?', 1),
        ('Pack it and tell me which files are the heavy ones.', 1),
        ('Which modules dominate the import time?', 1),
        ('When did it hit its memory limit?', 1),
        ('The pool maxed out at some point.', 1),
        ('Which tests are the slowest?', 1),
        ('Tell me when the run queue peaked and when disk reads peaked.', 1),
        ('What was the peak memory of the worker?', 1),
        ('I profiled the benchmark with gprof. Where does the time actually go?', 1),
        ('And which helper is called the most?', 1),
        ('List the most-called functions.', 1),
        ('Keep it to at most ten lines, and say where the time zone is set.', 0),
        ('Which modules have the lowest coverage?', -1),
        ('Is there a space in the path?', 0),
        ('Which changes were the most recent?', 0),
    ],
)
def test_a_request_for_the_largest_or_smallest_is_told_by_how_it_is_asked(request_text: str, extreme: int) -> None:
    assert Intent.gather(prompt=request_text).extreme == extreme


@pytest.mark.parametrize(
    ('request_text', 'measure'),
    [
        ('Which processes on this box use the most memory?', 'memory'),
        ('Which file has the largest size?', 'size'),
        ('Which files dominate the size of the image?', 'size'),
        ('When did it hit its memory limit?', 'memory'),
        ('Tell me which files are the heavy ones.', ''),
        ('Where does the time actually go?', 'time'),
        ('Which statements cost us the most time?', 'time'),
        ('Which car has the most horsepower?', 'horsepower'),
        ('Which modules have the lowest coverage?', 'coverage'),
        ('Which tests are the slowest?', 'time'),  # ranked by how long they took
        ("Which tables are InnoDB, and what's the largest one?", ''),  # `one` names no measure
        ('Which were the costliest incidents last year?', 'cost'),  # the cue names its measure itself
        ('I profiled it: which lines in the parser are the hot spots?', 'time'),  # a profile's hot spots take time
        ('Is there a space in the path?', ''),
        ('Which commands took longest during that session?', ''),  # when it ranks, not by what
        ('Which tables grew the most in the last hour?', ''),
    ],
)
def test_the_measure_a_request_asks_the_extremes_of_is_the_word_after_its_cue(request_text: str, measure: str) -> None:
    assert Intent.gather(prompt=request_text).measure == measure


def test_an_acronym_prose_names_things_by_weighs_as_a_word_and_a_constant_as_a_name() -> None:
    found = terms(Intent.gather(prompt='Users get 503s and the API feels slow; is WAL_LEVEL or CFLAGS set?'))
    assert found['api'] is TermKind.word  # `the API`: a noun of the sentence, as `users` is
    assert found['CFLAGS'] is TermKind.identifier
    assert found['WAL_LEVEL'] is TermKind.identifier


def test_a_status_word_a_request_asks_about_is_looked_for() -> None:
    # "which servers are down": the rows whose status says DOWN, not a word to pass over.
    assert terms(Intent.gather(prompt='Which servers are down or in maintenance?'))['down'] is TermKind.word


def test_anything_besides_a_thing_asks_about_that_thing_as_well() -> None:
    # "whether anything besides the plugin broke": what else broke, and the plugin too; "ignore the plugin" looks past.
    assert Intent.gather(text='See whether anything besides the quarter plugin broke.').avoid == ()
    assert 'plugin' in Intent.gather(text='Ignore the quarter plugin; what else broke?').avoid


def test_a_term_several_sources_name_weighs_more() -> None:
    once = {t.text: t.weight for t in Intent.gather(prompt='check shared_buffers').terms}
    twice = {t.text: t.weight for t in Intent.gather(text='shared_buffers', prompt='check shared_buffers').terms}
    assert twice['shared_buffers'] > once['shared_buffers']


def test_a_response_restating_its_own_call_says_nothing_more_about_what_it_names() -> None:
    """The model describing the command it runs (`I'll read the worker's /proc/<pid>/smaps`) does not make the
    command's own names more wanted; the user naming one as well does."""
    args = {'command': 'cat /proc/$(pgrep -f feature_server.py)/smaps'}
    call = {t.key: t.weight for t in Intent.gather(args=args).terms}
    described = {t.key: t.weight for t in Intent.gather(args=args, text="I'll read feature_server.py's smaps").terms}
    asked = {
        t.key: t.weight
        for t in Intent.gather(args=args, text="I'll read its smaps", prompt='Why is feature_server.py so big?').terms
    }
    assert described['feature_server.py'] == call['feature_server.py']
    assert asked['feature_server.py'] > call['feature_server.py']
    assert described['smaps'] == call['smaps']


def test_contractions_do_not_make_quoted_terms() -> None:
    found = terms(Intent.gather(text="I'll pull the rows; I need jsonb_path_query's arguments."))
    assert 'jsonb_path_query' in found
    assert not any(kind is TermKind.quoted for kind in found.values())


def test_a_compound_word_is_looked_for_whole_and_by_its_words() -> None:
    # The prompt says "Lisp-style", the history says "Lisp semicolon comments".
    history = '\n'.join(
        [f'{i:07x} Bump dependency {i}' for i in range(300)]
        + ['3f2a9c1 Support Lisp semicolon comments in the repo map', '9e8d7c6 Fix style of the help text']
        + [f'{i:07x} Tidy module {i}' for i in range(300, 600)]
    )
    intent = Intent.gather(prompt='Which commit added Lisp-style comments?')
    found = terms(intent)
    assert found['Lisp-style'] is TermKind.identifier and found['lisp'] is TermKind.word
    best = find_matches(history, intent).lines[0]
    assert history[best.start : best.end] == '3f2a9c1 Support Lisp semicolon comments in the repo map'


def test_a_compound_the_output_holds_is_matched_whole_not_by_its_words() -> None:
    # mypy's error code `attr-defined` is in the report: "attr" alone would also pick "has no attribute" lines.
    report = capture('mypy_strict').text
    intent = Intent.gather(text='Show me the attr-defined errors.')
    matches = find_matches(report, intent)
    assert matches.lines and all('[attr-defined]' in report[line.start : line.end] for line in matches.lines)
    assert {term.key for term in matches.terms} >= {'attr-defined'} and 'attr' not in {t.key for t in matches.terms}


def test_how_many_lines_a_command_asked_for_is_not_a_term_but_a_port_is() -> None:
    assert '3000' not in terms(Intent.gather(args={'command': 'git log --oneline -n 3000'}))
    assert '500' not in terms(Intent.gather(args={'command': 'docker logs --tail 500 api'}))
    found = terms(Intent.gather(args={'command': "psql -h /tmp -p 54329 -c 'select 1'"}))
    assert found['54329'] is TermKind.number
    # Said in the prompt, the same number is what the user is after.
    assert '3000' in terms(Intent.gather(args={'command': 'git log -n 3000'}, prompt='Which commit fixed issue 3000?'))


def test_what_a_request_says_to_look_past_ranks_last() -> None:
    intent = Intent.gather(
        text="I'll run mypy and look past the unresolved imports.",
        prompt='Ignoring missing imports, which real type errors are in tqdm/contrib?',
    )
    found = terms(intent)
    assert {'unresolv', 'import', 'miss'} <= set(intent.avoid)
    assert not {'import', 'miss', 'ignor', 'past'} & set(found) and 'tqdm/contrib' in found
    report = '\n'.join(
        [
            f'tqdm/contrib/a.py:{i}: error: Cannot find implementation or library stub for module "m{i}"  [import]'
            for i in range(40)
        ]
        + ['tqdm/contrib/b.py:7: error: Unsupported operand types for + ("None" and "int")  [operator]']
        + [f'tqdm/x{i}.py:1: error: Missing return statement  [return]' for i in range(300)]
    )
    best = find_matches(report, intent).lines[0]
    assert report[best.start : best.end].endswith('[operator]')


def test_diagnostics_of_one_file_are_ranked_one_rule_at_a_time() -> None:
    # Thirty findings of one rule and one each of two others, all in the file asked about: the other rules'
    # lines come before the second of the first rule.
    location = '  /src/app/repomap.py'
    report = '\n'.join(
        [
            f'{location}:{i}:5 - error: "out" is not a known attribute of "None" (reportOptionalMemberAccess)'
            for i in range(30)
        ]
        + [
            f'{location}:292:26 - error: Cannot access attribute "exists" of "Path" (reportAttributeAccessIssue)',
            f'{location}:309:41 - error: "node" is possibly unbound (reportPossiblyUnboundVariable)',
        ]
        + [
            f'  /src/app/other{i}.py:1:1 - error: Import "x" could not be resolved (reportMissingImports)'
            for i in range(300)
        ]
    )
    ranked = find_matches(report, Intent.gather(prompt='What is wrong in repomap.py?')).lines[:3]
    rules = {report[line.start : line.end].rsplit('(', 1)[1] for line in ranked}
    assert rules == {'reportOptionalMemberAccess)', 'reportAttributeAccessIssue)', 'reportPossiblyUnboundVariable)'}


def test_the_format_of_the_output_is_not_a_term_but_a_whole_quoted_name_ranks_first() -> None:
    intent = Intent.gather(text="I'll dump pip's view of the environment as JSON and check the hyperscan wheel.")
    assert 'JSON' not in terms(intent)
    listing = '\n'.join(
        [f'        "summary": "Fast JSON parser number {i}",' for i in range(50)]
        + ['          "hyperscan >=0.7 ; extra == \\"hyperscan\\"",', '        "name": "hyperscan",']
        + [f'        "name": "package-{i}",' for i in range(300)]
    )
    best = find_matches(listing, intent).lines[0]
    assert listing[best.start : best.end] == '        "name": "hyperscan",'


def test_names_and_settings_are_looked_for_before_words_every_request_uses() -> None:
    intent = Intent.gather(
        args={'command': 'ruff check --no-fix --select ALL --output-format concise aider'},
        prompt='When did aider make Claude 3.7 Sonnet its default model? Where is subprocess run with shell=True?',
    )
    found = terms(intent)
    weight = {term.key: term.weight for term in intent.terms}
    assert found['shell=True'] is TermKind.identifier
    assert not {'--no-fix', '--select', '--output-format'} & set(found), "the command's own options"
    assert weight['claude'] > weight['default'] and weight['sonnet'] > weight['model']


def test_a_setting_passed_with_its_value_is_looked_for_by_its_name_and_the_commands_own_options_are_not() -> None:
    # A dump of settings prints the name apart from its value, and the value it holds may not be the one passed.
    found = terms(
        Intent.gather(args={'command': 'JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=60" java -XX:+PrintFlagsFinal'})
    )
    assert found['MaxRAMPercentage'] is TermKind.identifier
    dump = '\n'.join(
        [
            *(f'    uintx Flag{index:03}Millis = {index} {{product}} {{default}}' for index in range(300)),
            '   double MaxRAMPercentage = 60.000000 {product} {environment}',
            *(f'     bool Zeta{index:03}Enabled = false {{product}} {{default}}' for index in range(300)),
        ]
    )
    preview = select_preview(
        dump, 1_000, intent=Intent.gather(prompt='We pass MaxRAMPercentage=60: did the JVM take it?')
    )
    assert '   double MaxRAMPercentage = 60.000000 {product} {environment}' in preview.text.splitlines()
    # An option of the command in a plain word (`-e trace=process`) names no setting to look for.
    assert 'trace' not in terms(Intent.gather(args={'command': 'strace -f -e trace=process make -k'}))
    # The options the command itself was run with say how it was asked to run, and what it sets, which a dump of
    # settings prints: looked for, under the settings a request names.
    weights = {
        t.text: t.weight for t in Intent.gather(args={'command': 'java -XX:+UseSerialGC -XX:MaxRAMPercentage=60'}).terms
    }
    assert 0 < weights['UseSerialGC'] < weights['MaxRAMPercentage']


def test_the_class_java_runs_is_the_program_not_a_term() -> None:
    # Its frames are in every stack trace the run prints: it names the tool, as `python -m pytest` names pytest.
    command = 'java -Xmx384m -Xlog:gc* -cp /opt/h2.jar org.h2.tools.RunScript -url jdbc:h2:mem:db -script seed.sql'
    found = terms(Intent.gather(args={'command': command}))
    assert 'org.h2.tools.RunScript' not in found and 'RunScript' not in found
    assert found['seed.sql'] is TermKind.path
    assert 'app.jar' not in terms(Intent.gather(args={'command': 'java -Xss512k -jar build/app.jar --port 8080'}))


def test_in_a_report_a_word_of_the_request_inside_a_name_is_no_hit() -> None:
    # `turn` (of "turned on") inside `ReturningResultsEntityUpdator`: in prose a word inside another may still say
    # something (weighed down); in a report of names, it is a coincidence of letters.
    report = '\n'.join(
        [f"test/case{index}.ts({index},5): error TS2532: Object is possibly 'undefined'." for index in range(300)]
        + [
            f'src/ReturningResultsEntityUpdator.ts({index},9): error TS2532: Object is possibly undefined.'
            for index in range(3)
        ]
    )
    intent = Intent.gather(prompt='We turned strict checks on for the project.')
    assert any('Returning' in report[m.start : m.end] for m in find_matches(report, intent).lines)
    assert not find_matches(report, intent, whole_words=True).lines


def test_a_dotted_function_is_also_looked_for_by_its_own_name_and_a_file_by_its_extension() -> None:
    found = terms(Intent.gather(prompt='How long do json.dump and os.path.join take in sessions.py (1.7 MB of input)?'))
    assert found['json.dump'] is TermKind.identifier and found['dump'] is TermKind.identifier
    assert found['join'] is TermKind.identifier
    assert found['sessions.py'] is TermKind.path
    assert 'MB' not in found and 'mb' not in found, 'a unit is not a thing in the output'


def test_a_short_name_is_a_term_and_the_short_words_of_a_sentence_are_not() -> None:
    found = terms(Intent.gather(prompt='When were gdb and npm installed, and how was the key set?'))
    assert found['gdb'] is TermKind.word and found['npm'] is TermKind.word
    assert not {'the', 'and', 'how', 'was', 'key', 'set'} & set(found)


def test_program_text_a_command_runs_weighs_less_than_what_the_request_names() -> None:
    intent = Intent.gather(
        args={'command': "gdb -batch -ex run --args python3 -c 'import ctypes; ctypes.string_at(0)'"},
        prompt='Which function in _ctypes.c crashed?',
    )
    weight = {term.key: term.weight for term in intent.terms}
    found = terms(intent)
    assert weight['import ctypes; ctypes.string_at(0)'] < weight['_ctypes.c'] / 2, 'the program is echoed, not sought'
    assert weight['ctypes.string_at'] < weight['_ctypes.c'] / 2
    assert 'python3' not in found, 'the program the debugger runs names the tool, not what is sought'
    formatted = Intent.gather(args={'command': "git log --format='%h %ad %s'"}, prompt='When did kubernetes land?')
    weights = {term.key: term.weight for term in formatted.terms}
    assert weights['%h %ad %s'] < weights['kubernet'], 'an output format is how the command prints, not what it printed'


def test_a_path_the_call_was_given_weighs_less_than_the_same_path_the_request_names() -> None:
    call = {term.key: term.weight for term in Intent.gather(args={'path': 'src/app/models.py'}).terms}
    asked = {term.key: term.weight for term in Intent.gather(text='Where is src/app/models.py?').terms}
    assert call['src/app/models.py'] < asked['src/app/models.py']


def test_no_usable_words_is_no_intent() -> None:
    assert not Intent.gather(args={}, text='Let me look at this.', prompt='What is it?')


def test_the_rows_a_request_names_come_first_in_a_real_settings_export() -> None:
    settings = capture('pg_settings_csv').text
    intent = Intent.gather(prompt='What are effective_cache_size, random_page_cost and shared_buffers set to?')
    matches = find_matches(settings, intent)
    best = [settings[line.start : line.end].split(',', 1)[0] for line in matches.lines[:3]]
    assert sorted(best) == ['effective_cache_size', 'random_page_cost', 'shared_buffers']


def test_each_next_line_adds_what_the_lines_before_it_lack() -> None:
    """Twenty-two columns of pg_stat_activity hold the table's name; the ones that also hold what was asked lead."""
    columns = capture('pg_columns_aligned').text
    intent = Intent.gather(
        prompt='Which columns of pg_stat_activity give the query start, the state and the wait event?'
    )
    ranked = [columns[line.start : line.end] for line in find_matches(columns, intent).lines[:8]]
    for column in ('query_start', 'state ', 'wait_event '):
        assert any('pg_stat_activity' in line and f'| {column}' in line for line in ranked), column


def test_a_term_on_most_lines_selects_nothing() -> None:
    imports = capture('importtime').text  # every line starts with `import time:`
    sample = imports.split('\n')[:60]
    matches = find_matches(imports, Intent.gather(prompt='import time of pydantic_ai.messages'), sample_lines=sample)
    assert 'import' not in {term.key for term in matches.terms}
    first = imports[matches.lines[0].start : matches.lines[0].end]
    assert first.endswith(' pydantic_ai.messages')


def test_a_short_acronym_matches_as_written_and_whole() -> None:
    """`CC` lowered would match `access`, `succeeded`: it is searched as written, as a whole token."""
    sysconfig = capture('python_sysconfig').text
    matches = find_matches(sysconfig, Intent.gather(text='Which CC built it?'))
    assert sysconfig[matches.lines[0].start : matches.lines[0].end] == '\tCC = "gcc"'


def test_the_same_request_selects_the_same_lines() -> None:
    log = capture('git_log_stat').text
    intent = Intent.gather(prompt='Which commit made OrderedSet the default set_class?')
    assert find_matches(log, intent) == find_matches(log, intent)


_ASCII_LOWER = str.maketrans('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
_PIECES = ['ab', 'AB', 'a_b', '12', 'ERR', ' ', '\n', '-', '\u00e9', '\u00dcber', '\u4e2d', '\U0001d4b3', '\u212a']


@given(
    text=st.lists(st.sampled_from(_PIECES), max_size=200).map(''.join),
    key=st.sampled_from(['ab', 'a_b', '12', 'err', 'k']),
    number=st.booleans(),
    limit=st.integers(min_value=1, max_value=5),
)
@example(text='\u00e9AB\n\u212a ab\nx12', key='ab', number=False, limit=3)
def test_outside_ascii_a_term_is_found_where_its_ascii_letters_match_in_any_case(
    text: str, key: str, number: bool, limit: int
) -> None:
    # Searched as UTF-8 bytes, an ASCII term matches ASCII letters of either case and nothing else (the
    # Kelvin sign is not a k): the lines and places a search of the text with only ASCII letters lowered
    # finds, in characters. Letters outside ASCII count as word characters beside a number, as in `str`.
    term = Term(key, key, TermKind.number if number else TermKind.word, 1.0)
    expected = _scan(text.translate(_ASCII_LOWER), key, limit, whole=number)
    assert _Folded(text).find_all(term, limit) == expected
    # The same from the UTF-8 a caller already has (a spill's write), searched one term at a time or many at once.
    utf8 = text.encode('utf-8', 'surrogatepass')
    assert _Folded(text, utf8).find_all(term, limit) == expected
    assert _Folded(text, utf8).find_many([term], limit) == [expected]
    # A common term's search lowers the bytes in growing stretches from the start: the same lines, the same
    # answer to whether there are more, wherever a stretch ends (inside a term, a line or a character).
    with patch.object(intent_module, 'LOWERED_STRETCH', 3):
        folded = _Folded(text, utf8)
        assert folded.find_all(term, limit) == expected
        assert folded.find_all(term, limit) == expected  # again, over the stretch the first search lowered


def test_a_formats_name_is_a_term_when_it_names_a_package() -> None:
    # "as JSON" is the form of the output; "the json package" is a thing the output may list.
    assert 'json' not in {term.key for term in Intent.gather(prompt='Show the settings as JSON.').terms}
    assert 'json' in {term.key for term in Intent.gather(prompt='Where did apt install the json package?').terms}


def test_a_flag_inside_a_longer_flag_is_not_the_flag_whole() -> None:
    # `--exclude` begins `--exclude-backups`, a flag of its own; `--exclude=PATTERN` is the flag itself.
    text = '--exclude-backups\n--exclude=PATTERN\nuse --exclude, not -x\nno-exclude-here\nsub--exclude'
    at = [text.index(line) + line.index('--exclude') if '--exclude' in line else -1 for line in text.splitlines()]
    assert [whole_token(text, place, len('--exclude')) for place in at if place >= 0] == [False, True, True, False]
    # A hyphen alone is a boundary for a name without one: `error` in `error-prone` is still the word.
    assert whole_token('an error-prone step', 3, len('error'))


def test_a_word_is_searched_by_its_stem_and_preferred_as_written() -> None:
    # `windowed` finds `window` and `windows` too, but the line naming `windowed` itself, whole, comes first.
    lines = [f'windowed_complete\tmore.py\t/^def windowed_complete(iterable, n):$/;"\tf\tline:{n}' for n in range(3)]
    lines += [f'sliding_window_{n}\tmore.py\t/^def sliding_window_{n}(iterable):$/;"\tf\tline:{n}' for n in range(9)]
    lines.insert(7, 'windowed\tmore.py\t/^def windowed(seq, n, fillvalue=None, step=1):$/;"\tf\tline:1020')
    text = '\n'.join(lines)
    intent = Intent.gather(prompt='Where is windowed defined?')
    [term] = [term for term in intent.terms if term.key == 'window']
    assert term.text == 'windowed'
    best = find_matches(text, intent).lines[0]
    assert text[best.start : best.end].startswith('windowed\tmore.py')


@given(
    text=st.lists(st.sampled_from(['ab', 'AB', 'a_b', '12', 'ERR', ' ', '\n', '-', 'x']), max_size=200).map(''.join),
    key=st.sampled_from(['ab', 'a_b', '12', 'err']),
    number=st.booleans(),
    limit=st.integers(min_value=1, max_value=5),
)
def test_an_ascii_text_lowered_in_stretches_finds_what_the_whole_lowered_finds(
    text: str, key: str, number: bool, limit: int
) -> None:
    # A common term's search lowers the text from its start in growing stretches, only as far as the lines it
    # wants: the same lines, and the same answer to whether there are more, as searching the whole text lowered.
    term = Term(key, key, TermKind.number if number else TermKind.word, 1.0)
    expected = _scan(text.lower(), key, limit, whole=number)
    with patch.object(intent_module, 'LOWERED_STRETCH', 3):
        folded = _Folded(text)
        assert folded.find_all(term, limit) == expected
        assert folded.find_all(term, limit) == expected


def test_a_commit_hash_that_opens_with_a_digit_is_a_term() -> None:
    keys = {
        term.key for term in Intent.gather(prompt='What did commit 6294fa6 change, and what is at 0x7f3a2c90?').terms
    }
    assert {'6294fa6', '0x7f3a2c90'} <= keys
    assert '1234567' not in {
        term.key for term in Intent.gather(prompt='Order 1234567 shipped.').terms if term.kind.value == 'identifier'
    }


def test_names_a_command_lists_weigh_less_than_the_ones_the_request_also_names() -> None:
    names = 'curl gdb valgrind sqlite3 git make cmake strace nodejs tmux vim jq prometheus tree zstd'
    intent = Intent.gather(args={'command': f'dpkg -s {names}'}, prompt='Which version of gdb is installed?')
    weight = {term.key: term.weight for term in intent.terms}
    assert weight['gdb'] > 2 * weight['valgrind']
    # A query's names are not a list: they keep their weight.
    query = Intent.gather(args={'command': 'psql -c "select table_name, column_name, data_type from columns"'})
    assert {'table_name', 'column_name', 'data_type'} <= {term.key for term in query.terms}


def test_an_escape_sequence_in_a_command_is_no_path() -> None:
    command = 'perl -MConfig -e \'print join("\\n", Config::config_re(".*")), "\\n"\''
    assert '\\n' not in {term.key for term in Intent.gather(args={'command': command}).terms}
    assert 'c:\\users\\dev' in {term.key for term in Intent.gather(args={'command': 'dir C:\\Users\\dev'}).terms}


_DATA = Path(__file__).resolve().parents[1] / 'data'


def _best_lines(text: str, prompt: str, count: int) -> list[str]:
    matches = find_matches(text, Intent.gather(prompt=prompt), total_lines=text.count('\n') + 1)
    return [text[line.start : line.end] for line in matches.lines[:count]]


def test_a_name_that_is_a_whole_cell_of_a_row_ranks_over_names_that_hold_it() -> None:
    # `dpkg-query` in aligned columns (real): `openssl` the package, not `libxmlsec1-openssl` or `python3-openssl`.
    text = (_DATA / 'tables' / 'dpkg_columns.txt').read_text(encoding='utf-8')
    best = _best_lines(text, 'What versions of OpenSSL and git are installed?', 2)
    assert sorted(line.split()[1] for line in best) == ['git', 'openssl']


def test_a_word_inside_another_word_counts_less_than_at_a_word_start() -> None:
    filler = ''.join(f'row {i}: nothing here\n' for i in range(40))
    text = filler + 'pkg libevent 2.1.12-stable-8\n' + filler + 'pkg users tables 5\n' + filler
    assert _best_lines(text, 'Which table is it?', 1) == ['pkg users tables 5']
    # A hump of a compound name is a word's start: `Error` in `TypeError`.
    text = filler + 'reconnection attempt 3\n' + filler + 'error: ConnectionRefusedError [Errno 111]\n' + filler
    assert _best_lines(text, 'Why did the connection fail?', 1) == ['error: ConnectionRefusedError [Errno 111]']


def test_two_words_of_a_request_joined_into_one_name_rank_over_either_alone() -> None:
    text = capture('tree_otel').text
    best = _best_lines(text, 'Where is the trace exporter?', 2)
    assert any(line.rstrip().endswith('trace_exporter') for line in best)


def test_debug_is_a_word_to_look_for_though_a_common_one() -> None:
    assert 'debug' in [term.key for term in Intent.gather(prompt='Is it a debug build?').terms]


def test_where_a_command_ran_and_the_program_it_ran_tell_no_line_apart() -> None:
    # A runner's banner echoes both (`rootdir: /srv/checks`, `platform linux -- ... /opt/venv/bin/python`).
    intent = Intent.gather(
        args={'command': 'cd /srv/checks && /opt/venv/bin/python -m pytest -vv tests/test_dates.py'},
        prompt='Which of the date tests fail?',
    )
    weight = {term.key: term.weight for term in intent.terms}
    assert '/opt/venv/bin/python' not in weight, 'the program names the tool'
    assert weight['/srv/checks'] < weight['tests/test_dates.py'] / 2, 'where it ran is echoed, not sought'
    banner = 'platform linux -- Python 3.11.7 -- /opt/venv/bin/python\nrootdir: /srv/checks\n'
    failures = ''.join(f'tests/test_dates.py::test_case_{n} PASSED\n' for n in range(30))
    text = banner + failures + 'FAILED tests/test_dates.py::test_leap_day - assert 28 == 29\n'
    best = find_matches(text, intent).lines[0]
    assert not text[best.start : best.end].startswith(('platform', 'rootdir'))


def test_the_environment_a_command_sets_tells_no_line_apart() -> None:
    # `export TMPDIR=...` and `CC=... make` say how the command runs: the variable's name is not in what it
    # prints, and a directory handed to it is echoed by every path made under it, like a `cd`'s.
    intent = Intent.gather(
        args={'command': 'cd /srv/jq && export TMPDIR=/srv/scratch && CC="gcc -O2" tests/mantest 2>&1'},
        prompt='I tweaked fromstream; which tests break?',
    )
    weight = {term.key: term.weight for term in intent.terms}
    assert 'tmpdir' not in weight and 'cc' not in weight
    assert weight['/srv/scratch'] < weight['fromstream'], 'a directory handed over is echoed, not sought'
    trace = ''.join(f'+ tail -n1 -- /srv/scratch/jq{n}/err\n' for n in range(3))
    text = trace + '*** Expected true, but got false for test at line number 967: fromstream(tostream)\n'
    best = find_matches(text, intent).lines[0]
    assert 'fromstream' in text[best.start : best.end]


def test_a_command_run_inside_another_is_a_program_not_a_term() -> None:
    # `$(find ... | sort)` hands javac its files: `find` and `sort` name tools, as the command's own program does.
    intent = Intent.gather(
        args={'command': "javac -Xlint:all -d out $(find src -name '*.java' | sort)"},
        prompt='Which of the date helpers fail to compile?',
    )
    keys = {term.key for term in intent.terms}
    assert not {'sort', 'find', 'javac'} & keys
    assert {'date', 'helper'} <= keys


def test_what_a_request_sets_apart_with_not_is_looked_past() -> None:
    # "hard errors (not warnings)", "the errors, not the warnings": the lines holding what it sets apart rank last.
    for prompt in ('Which problems are hard errors (not warnings)?', 'Show me the errors, not the warnings.'):
        intent = Intent.gather(prompt=prompt)
        assert 'warning' in intent.avoid, prompt
    assert not Intent.gather(prompt='Why is the module not found?').avoid


def test_every_item_of_a_list_to_look_past_is_looked_past() -> None:
    # "(ignore NEWS, docs and tests)": the list goes on past its comma and its `and`, and a name written in capitals
    # (`NEWS`) is looked past as a word is; the clause after a list is not part of it.
    intent = Intent.gather(
        prompt='Where in src/pip/_internal do we still import pkg_resources at runtime (ignore NEWS, docs and tests)?'
    )
    assert {'news', 'docs', 'test'} <= set(intent.avoid)
    assert 'pkg_resources' in {term.key for term in intent.terms}
    intent = Intent.gather(prompt='Ignore the warnings, and list the failing tests with their errors.')
    assert 'warning' in intent.avoid
    assert {'fail', 'test'} <= {term.key for term in intent.terms}


def test_a_counter_that_counted_nothing_ranks_under_one_that_did() -> None:
    # A stats dump asked whether it evicts: `evictions 738` says so, `evictions_nomem 0` and a class's `evicted 0`
    # hold the same word and say nothing happened.
    stats = 'STAT slab_reassign_evictions_nomem 0\n' + ''.join(
        f'STAT items:{n}:evicted {150 if n == 16 else 0}\nSTAT items:{n}:number {n * 7}\n' for n in range(1, 30)
    )
    stats += 'STAT evictions 738\n'
    intent = Intent.gather(prompt='Is it evicting?')
    ranked = [stats[line.start : line.end] for line in find_matches(stats, intent).lines]
    assert ranked.index('STAT evictions 738') < ranked.index('STAT slab_reassign_evictions_nomem 0')
    evicted = [line for line in ranked if ':evicted ' in line]
    assert evicted[0] == 'STAT items:16:evicted 150', ranked


def test_a_number_and_the_word_it_measures_are_looked_for_as_written_and_as_one_word() -> None:
    # "the 32-bit unit test": a build's trace names it `JSON_32bitTest` and `json_32bit_test`.
    intent = Intent.gather(prompt='Why is the 32-bit unit test dropped at configure time?')
    keys = {term.key for term in intent.terms}
    assert {'32-bit', '32bit'} <= keys
    trace = ''.join(f'CMakeLists.txt({n}):  set(files unit-{n}.cpp )\n' for n in range(40))
    trace += 'tests/CMakeLists.txt(141):  elseif(NOT json_32bit_test )\n'
    best = find_matches(trace, intent).lines[0]
    assert trace[best.start : best.end].endswith('elseif(NOT json_32bit_test )')


def test_where_a_command_writes_tells_no_line_apart() -> None:
    # `cmake -B /tmp/build`, `javac -d out`: every file it writes is printed under that directory.
    intent = Intent.gather(
        args={'command': 'cmake -S . -B /tmp/jbuild --trace-expand'}, prompt='Which option drops the fuzz tests?'
    )
    weight = {term.key: term.weight for term in intent.terms}
    assert weight['/tmp/jbuild'] < weight['fuzz']


def test_the_program_a_shell_or_a_user_switch_runs_is_a_program_not_a_term() -> None:
    # `su postgres -c "pg_dump ..."` runs pg_dump, whose banner (`-- Dumped by pg_dump version 15`) says nothing asked;
    # `sudo -u postgres psql` runs psql as postgres, which names no program.
    intent = Intent.gather(
        args={'command': 'su postgres -c "pg_dump --schema-only pagila"'},
        prompt='Which tables reference customer?',
    )
    assert 'pg_dump' not in {term.key for term in intent.terms}
    intent = Intent.gather(
        args={'command': 'sudo -u postgres psql -c "SELECT 1"'}, prompt='Which postgres roles exist?'
    )
    assert 'postgr' in {term.key for term in intent.terms} or 'postgres' in {term.key for term in intent.terms}


def test_a_long_word_is_searched_without_its_er_and_a_short_one_keeps_it() -> None:
    # "simpler" finds the commit subject "simplify the speedups"; "server" is a word of its own, not "serve".
    simpler = {term.key for term in Intent.gather(prompt='Who made the parser simpler?').terms}
    assert 'simpl' in simpler
    history = 'commit 1\n    add tests\ncommit 2\n    simplify the speedups\ncommit 3\n    bump version\n'
    best = find_matches(history, Intent.gather(prompt='Which commit made the speedups simpler?')).lines[0]
    assert history[best.start : best.end] == '    simplify the speedups'
    assert 'server' in {term.key for term in Intent.gather(prompt='Why did the server stop?').terms}


def test_what_a_request_calls_noise_is_looked_past() -> None:
    intent = Intent.gather(text='I will separate the genuine bug signals from docstring and formatting noise.')
    found = {term.key for term in intent.terms}
    assert {'docstr', 'format'} <= set(intent.avoid)
    assert not {'docstr', 'format'} & found
    assert 'signal' in found, 'only the words of the noise phrase are looked past'
    report = ''.join(f'pkg/mod{n}.py:{n}: D10{n % 3} Missing docstring in public function\n' for n in range(1, 40))
    report += 'pkg/core.py:88: B006 Do not use mutable data structures for argument defaults (bug signal)\n'
    best = find_matches(report, intent).lines[0]
    assert 'B006' in report[best.start : best.end]


@pytest.mark.parametrize(
    ('prompt', 'extreme'),
    [
        ('Which tests are the slowest?', 1),
        ('Which functions are the most complex, and where are they?', 1),
        ('Show me the top 10 packages by size.', 1),
        ('Profile it and tell me where the time goes.', 1),
        ('Which phase eats the time?', 1),
        ('Find the bottleneck in this handler.', 1),
        ('Some commit rewrote a huge part of StringUtils.java. Which one?', 1),
        ('The log is huge; what went wrong?', 0),
        ('Which modules have the lowest coverage?', -1),
        ('Which entries use the least space, and which the most?', -1),
        ('Keep it to at most 3 lines per file.', 0),
        ('At least one test fails; which?', 0),
        ('What does the most recent commit change?', 0),
        ('Most of these warnings are noise.', 0),
        ('What is work_mem set to?', 0),
        ('What time does the cron job run?', 0),
    ],
)
def test_a_request_for_the_largest_or_smallest_values_is_recognised(prompt: str, extreme: int) -> None:
    assert Intent.gather(prompt=prompt).extreme == extreme


def test_a_ranking_asked_for_only_in_the_call_arguments_is_not_a_request() -> None:
    # `sort -k2 -rn | head` says how the command ran; the user asked for nothing ranked.
    assert Intent.gather(args={'command': 'du -a | sort -rn | head -n 20  # largest'}).extreme == 0


def test_an_acronym_of_three_letters_finds_its_lowercase_name_at_the_end_of_a_name() -> None:
    # The 1 MB `find` capture: a request for SSL code is answered by files named `ssl.py`, `test_ssl.py`,
    # `sslproto.py`, `openssl/`: no path holds `SSL` as written.
    listing = gzip.decompress((_DATA / 'traffic' / 'find_listing.txt.gz').read_bytes()).decode()
    intent = Intent.gather(prompt='Which modules implement SSL support here? List their files.')
    preview = select_preview(listing, 1_000, intent=intent)
    shown = [line for line in preview.text.split('\n') if 'ssl' in line.lower()]
    assert '/usr/lib/python3.11/ssl.py' in shown
    assert len(shown) >= 4


def test_an_acronym_is_not_found_inside_a_word() -> None:
    names = ['protocol.py', 'toc.py', 'test_toc.py', 'TestTOC', 'tocs.txt', 'stock.py']
    text = '\n'.join([*names, *(f'module_{index}.py' for index in range(200))])
    matches = find_matches(text, Intent.gather(prompt='What does the TOC extension do?'))
    assert {text[m.start : m.end] for m in matches.lines} == {'toc.py', 'test_toc.py', 'TestTOC', 'tocs.txt'}


def test_an_acronym_of_two_letters_is_still_matched_only_as_written() -> None:
    text = '\n'.join(['access granted', 'specific rule', 'CI run 12 passed', 'cc -O2 main.c', 'deploy ok'] * 40)
    matches = find_matches(text, Intent.gather(prompt='Did CI pass?'))
    assert {text[m.start : m.end] for m in matches.lines} == {'CI run 12 passed'}


def test_what_a_request_does_not_care_about_is_looked_past() -> None:
    intent = Intent.gather(prompt="Run pylint. I don't care about docstrings or naming style, just the serious stuff.")
    assert {'docstring', 'naming', 'style'} <= set(intent.avoid)
    assert 'don' not in terms(intent)  # what the contraction leaves is no term


def test_a_word_ending_in_s_that_is_no_plural_keeps_it() -> None:
    keys = {term.key for term in Intent.gather(prompt='Which class holds the status of the analysis?').terms}
    assert {'class', 'status', 'analysis'} <= keys


def test_a_querys_keywords_are_no_terms() -> None:
    intent = Intent.gather(args={'sql': 'SELECT package, version FROM pkgs WHERE section = "libs" ORDER BY size DESC'})
    assert not {'SELECT', 'FROM', 'WHERE', 'ORDER', 'BY', 'DESC'} & set(terms(intent))
    assert {'package', 'pkgs', 'section'} <= {term.key for term in intent.terms}


def _report(values: list[str]) -> str:
    """An install report's records (`pip install --dry-run --report -`), one `requires_python` each."""
    records = [
        f'    {{\n      "metadata": {{\n        "name": "pkg{index}",\n        "version": "1.{index}",\n'
        f'        "requires_python": "{value}",\n        "summary": "Package {index} for Python 3.9 and later"\n'
        '      }\n    }'
        for index, value in enumerate(values)
    ]
    return '{\n  "install": [\n' + ',\n'.join(records) + '\n  ]\n}\n'


def test_among_lines_of_one_key_the_odd_value_ranks_with_the_best_of_them() -> None:
    """Asked whether any package refuses Python 3.9, the one `>=3.11` among `>=3.9`s and `>=3.8`s is the answer,
    though the `>=3.9` lines also hold the version the request names."""
    values = ['>=3.9'] * 9 + ['>=3.8'] * 6
    values[10] = '>=3.11'
    report = _report(values)
    intent = Intent.gather(
        text="I'll check each package's requires_python.", prompt='Will any of them refuse Python 3.9?'
    )
    top = [report[match.start : match.end].strip() for match in find_matches(report, intent).lines[:3]]
    assert '"requires_python": ">=3.11",' in top


def test_a_key_whose_values_mostly_differ_has_no_odd_value() -> None:
    """Versions differ from record to record: none is odd, and the lines keep the order their terms give them."""
    report = _report([f'>=3.{index}' for index in range(15)])
    intent = Intent.gather(
        text="I'll check each package's requires_python.", prompt='Will any of them refuse Python 3.9?'
    )
    [best] = [report[match.start : match.end].strip() for match in find_matches(report, intent).lines[:1]]
    assert best == '"requires_python": ">=3.9",'


def test_things_a_request_names_with_a_version_are_kept_with_it() -> None:
    intent = Intent.gather(
        text='Checking the symbol versions; see version 2.3 of the guide.',
        prompt='Will it run on an older distro with glibc 2.31, OpenSSL 1.1 and Python 3.10?',
    )
    assert intent.versions == (('glibc', (2, 31)), ('OpenSSL', (1, 1)), ('Python', (3, 10)))
    assert Intent.gather(prompt='Does the build still pass?').versions == ()


def test_asked_whether_it_runs_on_an_older_version_the_lines_needing_newer_ones_are_shown() -> None:
    """`ldd -v` of many modules: hundreds of old symbol versions, and the three lines that need a newer glibc."""
    lines: list[str] = []
    for index in range(120):
        lines += [
            f'_mod{index}.cpython-311-x86_64-linux-gnu.so:',
            '\tlinux-vdso.so.1 (0x00007ffd)',
            '\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6',
            '\tVersion information:',
            f'\t./_mod{index}.cpython-311-x86_64-linux-gnu.so:',
            '\t\tlibc.so.6 (GLIBC_2.2.5) => /lib/x86_64-linux-gnu/libc.so.6',
            '\t\tlibc.so.6 (GLIBC_2.4) => /lib/x86_64-linux-gnu/libc.so.6',
        ]
    lines[300] = '\t\tlibc.so.6 (GLIBC_2.34) => /lib/x86_64-linux-gnu/libc.so.6'
    lines[500] = '\t\tlibm.so.6 (GLIBC_2.35) => /lib/x86_64-linux-gnu/libm.so.6'
    lines[650] = '\t\tlibc.so.6 (GLIBC_2.28) => /lib/x86_64-linux-gnu/libc.so.6'
    output = '\n'.join(lines) + '\n'
    intent = Intent.gather(prompt='Can we copy these modules to an image with glibc 2.31? What do they need?')
    shown = select_preview(output, 1_000, intent=intent).text.splitlines()
    assert '\t\tlibm.so.6 (GLIBC_2.35) => /lib/x86_64-linux-gnu/libm.so.6' in shown
    assert '\t\tlibc.so.6 (GLIBC_2.34) => /lib/x86_64-linux-gnu/libc.so.6' in shown
    assert '\t\tlibc.so.6 (GLIBC_2.28) => /lib/x86_64-linux-gnu/libc.so.6' not in shown  # older: it runs there


def test_among_lines_holding_the_same_terms_one_of_an_odd_form_ranks_first() -> None:
    """Hundreds of `copying …` lines of a build name the package asked about; the one warning naming it says more."""
    modules = [f'module_{index:03}' for index in range(120)]
    lines = [f'copying networkx/generators/{name}.py -> build/lib/networkx/generators' for name in modules]
    lines.insert(90, "warning: no files found matching 'networkx/*/tests/*.txt'")
    log = '\n'.join(lines) + '\n'
    intent = Intent.gather(prompt='Is anything off with networkx here?')
    [best] = [log[match.start : match.end] for match in find_matches(log, intent).lines[:1]]
    assert best == "warning: no files found matching 'networkx/*/tests/*.txt'"


def test_a_socket_state_written_with_hyphens_is_the_lines_form() -> None:
    """`ss -tan`: among a hundred `TIME-WAIT` sockets on the port asked about, the one `FIN-WAIT-2` is the odd one."""
    rows = [f'TIME-WAIT  0      0          127.0.0.1:6432     127.0.0.1:{51000 + index}' for index in range(100)]
    rows.insert(70, 'FIN-WAIT-2 0      0          127.0.0.1:6432     127.0.0.1:51570')
    listing = 'State      Recv-Q Send-Q Local Address:Port  Peer Address:Port Process\n' + '\n'.join(rows) + '\n'
    intent = Intent.gather(prompt='Why do connections to our proxy on 6432 never finish closing?')
    [best] = [listing[match.start : match.end] for match in find_matches(listing, intent).lines[:1]]
    assert best.startswith('FIN-WAIT-2 ')


def test_a_qualified_name_and_a_namespace_are_looked_for_as_names_and_as_their_files_paths() -> None:
    # Perl's, Rust's, C++'s and Ruby's qualified names: the output prints them as they are (`serde_json::Value` in
    # an error) or as the path of the module's file (`Test/More.pm` in a checker's report).
    found = terms(Intent.gather(prompt='Do Test::More, serde_json::Value or the Net:: modules fail?'))
    assert found['Test::More'] is TermKind.identifier
    assert found['Test/More'] is TermKind.path
    assert found['serde_json::Value'] is TermKind.identifier
    assert found['serde_json/Value'] is TermKind.path
    assert found['Net::'] is TermKind.identifier
    assert found['Net/'] is TermKind.path


def test_a_protocol_and_its_version_is_also_looked_for_as_one_word() -> None:
    # Build summaries and feature lists write `HTTP2` (curl's configure: `HTTP2:  no  (--with-nghttp2)`, `curl -V`'s
    # `Features: ... HTTP2 ...`) where a person writes HTTP/2; a path of two names stays a path.
    keys = {term.key for term in Intent.gather(prompt='Our curl build has no HTTP/2 support. What is missing?').terms}
    assert {'http/2', 'http2'} <= keys
    keys = {term.key for term in Intent.gather(prompt='Why is lib/2 so large?').terms}
    assert 'lib2' not in keys


def test_numbers_listed_with_ids_are_ids_however_many_digits_they_have() -> None:
    # `2619` is a file's number as `18524` is: listed together, they weigh the same.
    weights = {term.key: term.weight for term in Intent.gather(prompt='The files are 18524, 18510 and 2619.').terms}
    assert weights['2619'] == weights['18510']
    # A year beside a count is no id.
    weights = {term.key: term.weight for term in Intent.gather(prompt='Since 2019 we served 120000 requests.').terms}
    assert weights['2019'] < weights['120000']


def test_in_a_dump_of_settings_a_word_inside_a_key_names_the_setting() -> None:
    # `python -m sysconfig` (real): keys are words run together (`BLDSHARED`, `CFLAGSFORSHARED`). Asked for the flags
    # that build shared objects, `shared` inside such a key is a hit on the setting, not a word inside another word.
    text = (_DATA / 'key_value' / 'python_m_sysconfig_pyenv_311.txt').read_text(encoding='utf-8')
    intent = Intent.gather(prompt='Which shared objects flags?')
    best = [text[line.start : line.end].strip() for line in find_matches(text, intent, names_run_together=True).lines]
    assert any(line.startswith('BLDSHARED = ') for line in best[:6])
    plain = [text[line.start : line.end].strip() for line in find_matches(text, intent).lines]
    assert not any(line.startswith('BLDSHARED = ') for line in plain[:6])


def test_a_duration_a_request_names_weighs_less_than_a_number_it_looks_for() -> None:
    # "every 100 ms" says how often a sampler ran; its output has `100.00` in columns of percentages, no `100 ms`.
    sampled = {term.key: term.weight for term in Intent.gather(text='Sampling every 100 ms to see the old gen.').terms}
    looked = {term.key: term.weight for term in Intent.gather(text='Why did 100 requests fail?').terms}
    assert sampled['100'] < looked['100']


def test_a_file_extension_is_a_term_dotted_and_bare() -> None:
    intent = Intent.gather(prompt='Why are TypeScript .ts files served as video, and what do .sql and *.yaml map to?')
    keys = {term.key: term for term in intent.terms}
    assert {'.ts', '.sql', '.yaml'} <= set(keys)
    assert keys['.yaml'].kind is TermKind.path
    assert keys['yaml'].part_of == '.yaml'  # where the dotted one is not in the output
    assert 'ts' not in keys  # two letters alone would find too much


def test_an_extension_asked_about_finds_the_globs_that_claim_it() -> None:
    # /usr/share/mime/globs2 (real, shared-mime-info on Debian): `weight:type:glob`. Two types claim `*.ts`.
    output = read_capture('tables', 'mime_globs2_debian.txt.gz')
    prompt = 'Our upload service guesses types from shared-mime-info: why are TypeScript .ts files taken for video?'
    shown = select_preview(output, 1_000, intent=Intent.gather(prompt=prompt)).text.splitlines()
    assert '50:text/vnd.trolltech.linguist:*.ts' in shown
    assert '50:video/mp2t:*.ts' in shown


def test_extensions_asked_about_find_their_rows_in_a_table_of_types() -> None:
    # /etc/mime.types (real, Debian's): a type on the left, its extensions bare on the right.
    output = read_capture('tables', 'etc_mime_types_debian.txt.gz')
    prompt = 'Which MIME types does the server send for .wasm, .avif and .mjs files?'
    shown = select_preview(output, 1_000, intent=Intent.gather(prompt=prompt)).text.splitlines()
    for row in ('application/wasm\t\t\t\twasm', 'image/avif\t\t\t\t\tavif hif', 'text/javascript\t\t\t\t\tes js mjs'):
        assert row in shown


@pytest.mark.parametrize(
    ('request_text', 'extreme', 'measure'),
    [
        ('What were the three rainiest days in Seattle (by precipitation) and the hottest day?', 1, 'precipitation'),
        ('Which was the windiest day of the year?', 1, 'wind'),
        ('Which month was the coldest?', -1, ''),
        ('Show me the busiest hour by requests.', 1, 'requests'),
        ('Which were the wettest weeks?', 1, 'precipitation'),
    ],
)
def test_a_superlative_ranks_by_what_it_says_or_what_follows_by(request_text: str, extreme: int, measure: str) -> None:
    intent = Intent.gather(prompt=request_text)
    assert (intent.extreme, intent.measure) == (extreme, measure)


def test_records_asked_for_by_a_measure_named_after_by_show_the_largest_of_it() -> None:
    # `sqlite3 -json` over Chinook's tracks (real): asked for the heaviest tracks "by bytes", the three records with the
    # most bytes, wherever they are in the list.
    records = json.loads(read_capture('json', 'sqlite_json_chinook_tracks.json.gz'))
    heaviest = sorted(records, key=lambda record: record['Bytes'])[-3:]
    prompt = 'Which were the three heaviest tracks in the catalogue, by bytes?'
    shown = select_preview(compact_json(records), 1_000, intent=Intent.gather(prompt=prompt)).text
    for record in heaviest:
        assert f'"TrackId":{record["TrackId"]},' in shown and f'"Bytes":{record["Bytes"]},' in shown


def test_a_short_acronym_in_a_compound_is_a_term_of_its_own() -> None:
    keys = {term.key: term for term in Intent.gather(prompt='Which GC-related bug fixes landed recently?').terms}
    assert keys['gc'].kind is TermKind.identifier and keys['gc'].part_of == 'gc-related'
    assert 'cpu' not in {term.key for term in Intent.gather(prompt='any CPU-bound jobs?').terms}  # prose's own


def test_commits_a_short_acronym_names_are_shown() -> None:
    # `git log --oneline -n 600` of Lua (real): asked for "GC-related" fixes, the commits saying GC, not none of them.
    output = read_capture('history', 'git_log_oneline_lua_gc.txt.gz')
    prompt = 'We are on an older Lua. Which GC-related bug fixes landed recently that we might backport?'
    shown = select_preview(output, 1_000, intent=Intent.gather(prompt=prompt)).text.splitlines()
    assert sum(1 for line in shown if re.search(r'\bGC\b', line)) >= 3


def test_a_ranking_in_a_year_ranks_by_that_years_column() -> None:
    # `sqlite3 -json` over Chinook, each customer's spending per year in members `y2021` .. `y2025` (real): asked who
    # spent the most in 2023, the records ranked by `y2023`, not by the first year's column the query named.
    assert Intent.gather(prompt='Which customers spent the most with us in 2023?').measure == '2023'
    records = json.loads(read_capture('json', 'sqlite_json_chinook_spend_by_year.json.gz'))
    top = max(records, key=lambda record: record['y2023'])
    intent = Intent.gather(
        args={'sql': 'SELECT country, city, customer, y2021, y2022, y2023, y2024, y2025 FROM spend_by_year'},
        prompt='Which customers spent the most with us in 2023?',
    )
    shown = select_preview(compact_json(records), 1_000, intent=intent).text
    assert f'"customer":"{top["customer"]}"' in shown and f'"y2023":{top["y2023"]}' in shown


@pytest.mark.parametrize(
    ('prompt', 'missing'),
    [
        ('Which countries have no infant mortality figure in the 2011 data?', True),
        ('Flag any city we cannot compare because data is missing.', True),
        ('Which classical tracks have no composer listed?', True),
        ('Which rows hold NULL in the price column?', True),
        ('Which tracks are the longest?', False),
        ('No rush: which composer wrote the most tracks?', False),
    ],
)
def test_a_request_asking_where_values_are_missing_says_so(prompt: str, missing: bool) -> None:
    assert Intent.gather(prompt=prompt).missing is missing


def test_a_short_hex_offset_is_a_term_written_with_and_without_its_prefix() -> None:
    # A backtrace's `libz.so.1[+0x9060]`: a disassembly prints the address bare (`    9060:`).
    keys = {term.key for term in Intent.gather(prompt='It died in libz.so.1[+0x9060]: which function is that?').terms}
    assert {'0x9060', '9060'} <= keys
