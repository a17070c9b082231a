"""Intent terms: what the run says the model is looking for, and the lines of real output they select."""

from __future__ import annotations

from observable_harness._text.intent import Intent, TermKind, find_matches
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


def test_a_term_several_sources_name_weighs_more() -> None:
    once = {t.text: t.weight for t in Intent.gather(prompt='check shared_buffers').terms}
    twice = {t.text: t.weight for t in Intent.gather(text='shared_buffers', prompt='check shared_buffers').terms}
    assert twice['shared_buffers'] > once['shared_buffers']


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
