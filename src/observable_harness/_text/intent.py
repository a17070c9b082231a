"""What the model is looking for, as terms that can select lines of a tool's output.

When a return is too large to show, the run already says what it is for: the arguments of the call,
the text (and thinking) of the response that made it, the user's prompt. Terms are taken from those
(quoted strings, paths, identifiers, flags, numbers, plain words), each weighted by how specific its
kind is and how directly its source speaks for this call. `find_matches` then scans the output for
them and scores each line by the terms it holds, a term counting less the more lines hold it: a term
found on every line selects nothing.

Deterministic and local: no model call, no network. The terms never leave this process: telemetry
may count them, never record them.

```python
from observable_harness._text.intent import Intent, find_matches

intent = Intent.gather(prompt='What is work_mem set to?')
text = 'name,setting\\nshared_buffers,16384\\nwork_mem,4096\\nwal_level,replica\\n'
matches = find_matches(text, intent)
assert [text[line.start : line.end] for line in matches.lines] == ['work_mem,4096']
```
"""

from __future__ import annotations

import heapq
import itertools
import json
import math
import re
import shlex
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, AnyStr, cast

from .counting import newlines
from .scan import char_offsets, literal_places, literal_places_utf8, usable

__all__ = ['Intent', 'LineMatch', 'Matches', 'Term', 'TermKind', 'find_matches', 'whole_token']


class TermKind(StrEnum):
    """What a term looks like; the more specific kinds select lines more reliably."""

    quoted = 'quoted'
    path = 'path'
    identifier = 'identifier'
    flag = 'flag'
    number = 'number'
    word = 'word'


_KIND_PRIOR: dict[TermKind, float] = {
    TermKind.quoted: 1.3,
    TermKind.path: 1.3,
    TermKind.identifier: 1.2,
    TermKind.flag: 1.2,
    TermKind.number: 0.6,
    TermKind.word: 0.55,
}
SOURCE_WEIGHTS: Mapping[str, float] = {'args': 1.0, 'text': 1.0, 'thinking': 0.7, 'prompt': 0.8}
"""How directly each source speaks for this call: the call and the words around it over the whole task."""

MAX_TERMS = 40
"""Terms kept from all sources together, most specific first: a long prompt must not buy a long scan."""
_MIN_WORD = 4
_MAX_TERM_CHARS = 80

_QUOTED = re.compile(r'"([^"\n]{2,80})"|(?<!\w)\'([^\'\n]{2,80})\'(?!\w)|`([^`\n]{2,80})`')
_TOKEN = re.compile(r'(?<![\w\-])-{1,2}[A-Za-z][\w\-]*(?:=[^\s,;]+)?|[\w./\\:\-\[\]#@~]+(?:=[\w.\-]+)?')
_TRIM = '.,;:!?)([]{}"\'`<>'
_SETTING = re.compile(r'[A-Za-z_][\w.\-]*=[\w.\-]+')
_IDENTIFIER = re.compile(r'[A-Za-z_][\w]*(?:(?:::|[.:\-])[\w]+)*')
_BARE_NAME = re.compile(r'[A-Za-z][A-Za-z0-9_-]*')
"""A name with no dot or separator in it: a library, a package, a word."""
_ESCAPES = re.compile(r'(?:\\[\\abfnrtv0"\'/]|\\x[0-9a-fA-F]{2}|[/\\])+')
"""Only escape sequences and separators (`\\n`, `\\t`, `/`): nothing a path names."""
_HEX_OFFSET = re.compile(r'0x0*([0-9a-fA-F]{3,6})')
"""A short address or offset in hex (`0x9060`), too short for an id (`_HEX_ID`): the digits are what output prints."""
HEX_BARE_DIGITS = 4
"""Digits a hex offset needs to be looked for bare as well."""
_HEX_ID = re.compile(r'(?:0x)?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,64}', re.IGNORECASE)
"""A hexadecimal id with letters and digits, seven characters or more: a commit, a hash, an address."""
_NUMBER = re.compile(r'\d[\d.,:]*')
_STEM_SUFFIXES = ('ing', 'ed', 'es', 's')

STOPWORDS = frozenset(
    [
        'about',
        'above',
        'after',
        'again',
        'against',
        'also',
        'among',
        'another',
        'answer',
        'anything',
        'around',
        'because',
        'been',
        'before',
        'being',
        'below',
        'between',
        'both',
        'came',
        'cannot',
        'come',
        'could',
        'does',
        'doing',
        'done',
        'during',
        'each',
        'either',
        'else',
        'even',
        'every',
        'first',
        'from',
        'further',
        'have',
        'having',
        'here',
        'into',
        'itself',
        'just',
        'know',
        'last',
        'later',
        'least',
        'less',
        'like',
        'look',
        'looking',
        'made',
        'make',
        'many',
        'maybe',
        'might',
        'more',
        'most',
        'much',
        'must',
        'need',
        'needs',
        'next',
        'only',
        'other',
        'over',
        'own',
        'part',
        'please',
        'rather',
        'really',
        'same',
        'see',
        'seem',
        'seems',
        'should',
        'show',
        'since',
        'some',
        'such',
        'sure',
        'take',
        'than',
        'that',
        'their',
        'them',
        'then',
        'there',
        'these',
        'they',
        'thing',
        'things',
        'this',
        'those',
        'though',
        'through',
        'time',
        'times',
        'under',
        'until',
        'upon',
        'very',
        'want',
        'wants',
        'well',
        'were',
        'what',
        'when',
        'where',
        'whether',
        'which',
        'while',
        'whose',
        'will',
        'with',
        'within',
        'without',
        'would',
        'your',
        'yours',
        'check',
        'checks',
        'find',
        'finds',
        'give',
        'gives',
        'tell',
        'tells',
        'report',
        'reports',
        'read',
        'reads',
        'list',
        'lists',
        'print',
        'prints',
        'output',
        'outputs',
        'command',
        'commands',
        'result',
        'results',
        'return',
        'returns',
        'returned',
        'call',
        'calls',
        'called',
        'tool',
        'tools',
        'line',
        'lines',
        'file',
        'files',
        'issue',
        'issues',
        'problem',
        'problems',
        'error',
        'errors',
        'value',
        'values',
        'exactly',
        'especially',
        'everything',
        'something',
        'nothing',
        'first',
        'second',
        'happen',
        'happened',
        'happens',
        'instead',
        'still',
        'using',
        'used',
        'uses',
        'dump',
        'fetch',
        'inspect',
        'examine',
        'investigate',
        'analyze',
        'analyse',
        'review',
        'verify',
        'figure',
        'understand',
        'explain',
        'determine',
        'identify',
        'locate',
        'confirm',
        'into',
        'onto',
        'most',
        'least',
        "what's",
        "let's",
        "i'll",
        "i'm",
        "we're",
        "it's",
        "don't",
        "doesn't",
        "isn't",
    ]
)
"""Words that name no line: English glue and the vocabulary every request about output uses."""


@dataclass(frozen=True, slots=True)
class Term:
    """One thing to look for."""

    text: str
    """As the model or user wrote it."""
    key: str
    """Lowercased: matching ignores case."""
    kind: TermKind
    weight: float
    """Kind prior times source weight (summed over the sources that name it)."""
    part_of: str = ''
    """For a word of a compound ("lisp" of "Lisp-style"), the compound's key: looked for only where the
    compound itself is not common in the output (a code such as `attr-defined` is matched whole)."""


@dataclass(frozen=True, slots=True)
class Intent:
    """The terms one tool call is looking for; falsy when the run says nothing usable."""

    terms: tuple[Term, ...] = ()
    avoid: tuple[str, ...] = ()
    """Keys of words the run said to look past ("ignoring missing imports"): lines holding them rank lower."""
    extreme: int = 0
    """1 when the request asks for the largest of something ("the slowest tests", "the most complex
    functions"), -1 for the smallest ("the lowest coverage"), 0 otherwise: rows are then ranked by their numbers."""
    versions: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Things the request names with a version ("glibc 2.31", "OpenSSL 1.1"), as written, with the version's
    numbers: asked whether something runs there, the lines needing a newer version of the same thing answer."""
    warnings: bool = False
    """The request asks about warnings ("what does the compiler warn about"): a build's are then what it asked for."""
    measure: str = ''
    """With `extreme`, the word for what is ranked, lowercased, when the request says it ("use the most memory":
    `memory`; "the largest size": `size`): a table's column or a record's member it names is the one ranked."""
    missing: bool = False
    """The request asks where values are missing ("which countries have no infant mortality figure", "flag any city
    whose data is missing"): the records holding nulls answer it."""
    both_extremes: bool = False
    """With `extreme`, the request asks for the smallest as well as the largest ("when did payrolls peak, and when did
    they bottom out")."""
    asked: frozenset[str] = frozenset()
    """Keys of the terms the request says itself (the prompt, the response's text or thinking), not only the call's
    arguments: of the columns a query lists, those the question is about."""

    def __bool__(self) -> bool:
        return bool(self.terms)

    @classmethod
    def gather(
        cls,
        *,
        args: Mapping[str, Any] | str | None = None,
        text: str = '',
        thinking: str = '',
        prompt: str = '',
    ) -> Intent:
        """Terms from the call's arguments, the response's text and thinking, and the user prompt."""
        weights: dict[str, tuple[Term, float]] = {}
        arguments = _args_text(args)
        # The program a command line runs names the tool, not what its output is searched for; nor does the
        # number of lines or entries it was asked for (`-n 3000`), nor the names of the options it runs with.
        programs = {program.lower() for program in _programs(arguments)}
        places = _workdirs(arguments)
        # An environment variable set for the command says how it runs, not what its output is searched for.
        environment = {name.lower() for name, _ in _assignments(arguments)}
        how_run = _count_values(arguments) | environment
        options = _option_names(arguments)
        sources = (
            ('args', arguments),
            ('text', text),
            ('thinking', thinking),
            ('prompt', prompt),
        )
        avoid: set[str] = set()
        said: dict[str, set[str]] = {}  # per term, the sources that name it
        for source, content in sources:
            if not content:
                continue
            negated, cues = _negated(content) if source != 'args' else (set[str](), set[str]())
            for term in _source_terms(source, content):
                if term.key in programs or term.key in cues:
                    continue
                if source == 'args' and (term.key in how_run or term.kind is TermKind.flag):
                    continue  # how the command was asked to run (`-n 3000`, `--no-fix`)
                if source == 'args' and term.key in options:
                    # An option's name says how the command runs (`-XX:+PrintFlagsFinal`, `--color=never`), and what it
                    # sets, which output that reports its settings names (a JVM's flags, a server's configuration):
                    # looked for, under anything the request names.
                    term = Term(term.text, term.key, term.kind, term.weight * OPTION_NAME_WEIGHT, term.part_of)
                if source == 'args' and term.key in places:
                    # Where the command ran: a runner's banner echoes it (`rootdir: ...`), and every path under it
                    # holds it, so it tells no line apart.
                    term = Term(term.text, term.key, term.kind, term.weight * ECHOED, term.part_of)
                plain = term.kind is TermKind.word or (term.kind is TermKind.identifier and term.key.isalpha())
                if plain and (term.key in negated or _stem(term.key) in negated):
                    avoid.add(term.key)
                    continue
                said.setdefault(term.key, set()).add(source)
                known = weights.get(term.key)
                if known is not None and said[term.key] == {'args', 'text'}:
                    # The response describing its own call (`I'll read the worker's /proc/<pid>/smaps`) restates what
                    # the call names: no second say that it is what the output is searched for.
                    continue
                if known is None:
                    weights[term.key] = (term, term.weight)
                else:
                    # A term several sources name is more likely the point; capped so one term cannot
                    # outweigh two different ones.
                    best = term if _KIND_PRIOR[term.kind] > _KIND_PRIOR[known[0].kind] else known[0]
                    # A word said on its own as well as inside a compound is looked for on its own.
                    part_of = known[0].part_of if known[0].part_of == term.part_of else ''
                    weights[term.key] = (
                        Term(best.text, best.key, best.kind, best.weight, part_of),
                        min(known[1] + term.weight * 0.5, 2.0 * _KIND_PRIOR[best.kind]),
                    )
        # Arguments that list many names (the packages of `dpkg -s a b c ...`, a batch of files) say what was
        # asked for; the request says which of them matters. Named only there, each weighs less the longer the list.
        in_list = _listed_names(arguments)
        listed = {key for key, named in said.items() if named == {'args'} and key in in_list}
        share = min(1.0, LISTED_ARGS / len(listed)) if listed and len(said) > len(listed) else 1.0
        terms = [
            Term(term.text, term.key, term.kind, weight * (share if term.key in listed else 1.0), term.part_of)
            for term, weight in weights.values()
            if term.key not in avoid  # said once to look past: the other mention is likely the same phrase
        ]
        terms.sort(key=lambda term: (-term.weight, -len(term.key)))
        extreme, measure, both = _extreme(prompt, text, thinking)
        request = '\n'.join((prompt, text, thinking))
        return cls(
            tuple(terms[:MAX_TERMS]),
            tuple(sorted(avoid)),
            extreme,
            _versions(prompt, text),
            _WARNINGS.search(request) is not None,
            measure,
            _MISSING.search(request) is not None,
            both,
            frozenset(term.key for term in terms[:MAX_TERMS] if said.get(term.key, {'args'}) != {'args'}),
        )


LISTED_ARGS = 6
"""Names listed in the call's arguments (and nowhere else) that keep their full weight; more share it."""
_LIST_RUN = re.compile(r'(?:(?<=\s)|^)(?:[\w.+@-]+\s+){5,}[\w.+@-]+(?=\s|$)')
"""Six or more bare names in a row, apart only by spaces: a list (`curl gdb valgrind ...`), not a query or code."""


def _listed_names(arguments: str) -> set[str]:
    """The keys of the names the arguments list in a row (see `_LIST_RUN`)."""
    return {name.lower() for run in _LIST_RUN.finditer(arguments) for name in run.group(0).split()}


ECHOED = 0.3
"""Weight kept by program text quoted in a command (`-c 'import x; x.run()'`) and the names in it: where
the output holds them, it mostly echoes the program (a debugger's frames, a shell's trace)."""


ARGS_PATH = 0.6
"""Weight kept by a path the call was given: its output names it back (each finding in the file, the file's
own headers); a request that names the path as well gives it its full weight back."""


_FORMAT_FIELD = re.compile(r'%[-+ #0-9.]*[A-Za-z(]|\{[\w.:]*\}')
"""A field of a format a command prints by (`--format='%h %an %s'`, `-f '{{.Names}}'`, `--format '{name}'`)."""


def _program_text(quoted: str) -> bool:
    """Program text or an output format quoted in a command: what the command does, not what it printed."""
    return ';' in quoted or quoted.count(' ') >= 4 or _FORMAT_FIELD.search(quoted) is not None


def _source_terms(source: str, content: str) -> Iterable[Term]:
    """The terms of one source; in the call's arguments, program text and paths weigh less (`ECHOED`, `ARGS_PATH`)."""
    weight = SOURCE_WEIGHTS[source]
    if source != 'args':
        yield from _extract(content, weight)
        return
    programs: list[str] = []

    def set_aside(match: re.Match[str]) -> str:
        quoted = next(group for group in match.groups() if group is not None)
        if not _program_text(quoted):
            return match.group(0)
        programs.append(quoted)
        return ' '

    for term in _extract(_QUOTED.sub(set_aside, content), weight):
        if term.kind is TermKind.path:
            term = Term(term.text, term.key, term.kind, term.weight * ARGS_PATH, term.part_of)
        yield term
    echoed = weight * ECHOED
    for program in (program.strip() for program in programs):
        yield Term(program, program.lower(), TermKind.quoted, _KIND_PRIOR[TermKind.quoted] * echoed)
        yield from _extract(program, echoed)


_LOOK_PAST = re.compile(
    r'\b(?:ignor(?:e|es|ed|ing)|past|except(?:\s+for)?|excluding|exclude|beyond|'
    # "Anything besides the plugin broke?" asks about the plugin too: what else, as well as it.
    r'(?<!anything )(?<!something )(?<!nothing )(?<!else )(?:besides|other\s+than|apart\s+from|aside\s+from)|'
    r'skip(?:ping)?|leav(?:e|ing)\s+out|rather\s+than|'
    r"(?:don'?t|do\s+not|doesn'?t|does\s+not)\s+(?:care|worry)\s+about|not\s+interested\s+in|never\s+mind)\b"
    r'|[(,]\s*not\b',
    re.IGNORECASE,
)
"""Words after which a request names what it does not want: "ignoring missing imports", "past the warnings", "I
don't care about docstrings"; not "anything besides the plugin", which asks about the plugin as well."""
_PHRASE_END = re.compile(r'[,.;:!?()\n]|\b(?:and|but|for|to|in|on|with|then|what|which|where|how|so)\b', re.IGNORECASE)
_NEGATED_WORDS = 4
_LIST_GOES_ON = re.compile(r',\s*(?:(?:and|or)\s+)?|(?:and|or)\s+', re.IGNORECASE)
_NEGATED_ITEMS = 6
"""Items of a list after a cue to look past, at most."""
_LIST_ITEM_WORDS = 2
"""Words of a listed item after the first: a longer stretch is the sentence going on."""


_NOISE = re.compile(r'((?:\b[A-Za-z][\w-]*\s+){1,3})(?:noise|nits|clutter|chatter)\b', re.IGNORECASE)
"""Words before which a request calls them noise: "docstring and formatting noise", "style nits"."""
_NOISE_PHRASE_START = frozenset(('from', 'than', 'of', 'to', 'with', 'in', 'on', 'for', 'by', 'about', 'over', 'is'))


def _negated(content: str) -> tuple[set[str], set[str]]:
    """Stems of the words a request says to look past (up to four after a cue, to the end of the phrase, or up to
    three before "noise"), and of the cues themselves ("ignoring", "past"): neither is a thing to look for."""
    out: set[str] = set()
    cues: set[str] = set()
    for noise in _NOISE.finditer(content):
        words = re.findall(r'[A-Za-z]+', noise.group(1).lower())
        # Back to the phrase's start: "signals from missing-annotation noise" calls only the annotations noise.
        start = max((index + 1 for index, word in enumerate(words) if word in _NOISE_PHRASE_START), default=0)
        out.update(_stem(word) for word in words[start:] if len(word) >= _MIN_WORD and word not in STOPWORDS)
    for cue in _LOOK_PAST.finditer(content):
        cues.update(_stem(word.lower()) for word in cue.group(0).split())
        position, limit = cue.end(), _NEGATED_WORDS
        for _ in range(_NEGATED_ITEMS):
            end = _PHRASE_END.search(content, position)
            phrase = content[position : end.start() if end else len(content)]
            words = [word.lower() for word in re.findall(r'[A-Za-z][A-Za-z-]+', phrase)]
            if len(words) > limit:
                break  # past a list of things to look past: the next clause ("..., and list the tests that fail")
            out.update(_stem(word) for word in words if len(word) >= _MIN_WORD and word not in STOPWORDS)
            # A list goes on past its commas and its last `and` ("ignore NEWS, docs and tests"), item by short item.
            more = _LIST_GOES_ON.match(content, end.start()) if end is not None else None
            if more is None:
                break
            position, limit = more.end(), _LIST_ITEM_WORDS
    return out, cues


_LARGEST = re.compile(
    r'\b(?:largest|biggest|slowest|longest|highest|heaviest|worst|costliest|greatest|hottest|maximum|peak(?:s|ed)?|'
    r'rainiest|wettest|windiest|snowiest|busiest|warmest|noisiest|'
    r'top\s+(?:\d+|three|five|ten|twenty|few|offenders)|bottlenecks?|hot\s?spots?|(?:big|heavy)\s+(?:ones|files|hitters)|'
    r'dominat(?:e|es|ing)\b|maxed\s+out|'
    r'(?:hit|hits|hitting|reach(?:es|ed|ing)?)\s+(?:the|its|their|a|our)\s+(?:[\w-]+\s+){0,2}(?:limit|cap|ceiling)s?\b|'
    r'(?:huge|large|big|massive)\s+(?:part|chunk|portion|share|amount)s?\s+of|'
    r'(?:where|what)\s+(?:\w+\s+){0,2}time\s+(?:goes|went|is\s+spent|was\s+spent)|eats?\s+(?:\w+\s+)?time|'
    r'where\s+(?:does|did|do)\s+(?:\w+\s+){0,2}time\s+(?:\w+\s+)?go\b|most[- ]called|'
    r'\btime\s+(?:goes|went|go)\s+(?:to|into)\b|'
    r'(?:tak(?:e|es|ing)\s+up|us(?:e|es|ing)|eat(?:s|ing)?)\s+(?:(?!least|less|fewest)\w+\s+){0,2}'
    r'(?:space|room|disk|memory)|bulk\s+of|'
    r'\b(?:the|are|is|was|were)\s+most\s+(?!(?:recent|recently|likely|of|important|common|relevant|often)\b)[a-z]|'
    r'\b(?:called|used|run|hit|allocated|calls|uses)\s+the\s+most\b)',
    re.IGNORECASE,
)
_SMALLEST = re.compile(
    r'\b(?:smallest|lowest|fewest|shortest|coldest|quietest|(?<!at )least|minimum|bottom(?:ed|s)?\s+out|troughs?)\b',
    re.IGNORECASE,
)
"""Words asking for the extremes of a measure: "the slowest tests", "the most complex functions", "what takes up
the space", "which files dominate the size", "the lowest coverage". Not "at most", "at least", "the most recent" or
"most of them": those ask for no ranking."""


_WARNINGS = re.compile(r'\bwarn(?:s|ed|ing|ings)?\b', re.IGNORECASE)
"""A request that asks about warnings (not the call's arguments: `-Wall`, `--warnings` say how it runs)."""


_MISSING = re.compile(
    r'\b(?:missing|nulls?|blanks?|NaN|N/A|lack(?:s|ing)?'
    r'|(?:no|without(?: an?| any)?) (?:[\w-]+ ){0,3}(?:figures?|values?|data|numbers?|entr(?:y|ies)|readings?)'
    r'|(?:no|without(?: an?| any)?) [\w-]+ (?:listed|given|set|recorded|known|on file))\b',
    re.IGNORECASE,
)
"""A request asking where values are missing ("no infant mortality figure", "no composer listed"; not the call's
arguments: `IS NOT NULL` in a query says what it kept)."""


def _extreme(*contents: str) -> tuple[int, str, bool]:
    """1 when the request (not the call's arguments) asks for the largest values, -1 for the smallest, else 0; with
    the word for what is ranked, when it says it, and whether it asks for both. Asked for both, what is said first (in
    the order given) is the direction."""
    said = '\n'.join(contents)
    largest, smallest = _LARGEST.search(said), _SMALLEST.search(said)
    if largest is None and smallest is None:
        return 0, '', False
    both = largest is not None and smallest is not None
    if smallest is None or (largest is not None and largest.start() < smallest.start()):
        assert largest is not None
        return 1, _measure_word(said, largest.start()), both
    return -1, _measure_word(said, smallest.start()), both


_CUE_WORDS = re.compile(r'[A-Za-z][\w-]*')
MEASURE_REACH = 6
"""Words read from a cue for the word naming what it ranks."""


def _measure_word(said: str, start: int) -> str:
    """The word after `by` a few words on ("the rainiest days (by *precipitation*)"), else the first word from `start`
    (a cue's) that is neither glue nor a cue itself: "the most *memory*", "largest *size*", "where does the *time*
    go"."""
    ranked = _RANKED_BY.match(said, start, start + RANKED_BY_REACH)
    if ranked is not None and ranked.group(1).lower() not in STOPWORDS:
        return ranked.group(1).lower()
    dated = _RANKED_IN_YEAR.match(said, start, start + RANKED_BY_REACH)
    if dated is not None:
        return dated.group(1)  # "the lowest fertility rate in 2011": the year's column (`y2011`, `pop_2011`)
    for found in itertools.islice(_CUE_WORDS.finditer(said, start), MEASURE_REACH):
        word = found.group().lower()
        if word in _MEASURE_WORDS:
            return word
        if word in _CUE_MEASURES:
            return _CUE_MEASURES[word]  # the cue says it: "the costliest incidents" are ranked by their cost
        if word in _WHEN_OR_WHERE:
            return ''  # "which took longest *during* the session": what follows says when, not what is ranked
        if word in STOPWORDS or _LARGEST.fullmatch(word) or _SMALLEST.fullmatch(word) or word in _CUE_GLUE:
            continue
        return word if len(word) >= 3 else ''
    return ''


_RANKED_BY = re.compile(
    r'[^.;?!\n]*?(?<!grouped )(?<!group )(?<!split )(?<!down )\bby\s+([A-Za-z][\w-]{2,})', re.IGNORECASE
)
"""From a cue, in its clause, the word after `by` ("the heaviest tracks, by bytes"); not a grouping's ("grouped by
file": what the ranking is split by, not what it ranks)."""
_RANKED_IN_YEAR = re.compile(r'[^.;?!\n]*?\b(?:in|for|of|during)\s+((?:19|20)\d\d)\b', re.IGNORECASE)
"""From a cue, in its clause, the year it ranks in: a table of yearly columns names a column after it."""
RANKED_BY_REACH = 60
"""Characters after a cue read for `by <measure>`: the same clause."""
_CUE_GLUE = frozenset(
    (
        *('the', 'most', 'does', 'did', 'do', 'where', 'what', 'which', 'top', 'called', 'used', 'uses', 'use'),
        *('using', 'are', 'is', 'was', 'were', 'take', 'takes', 'taking', 'up', 'eat', 'eats', 'eating', 'all'),
        *('actually', 'really', 'bulk', 'part', 'share', 'chunk', 'portion', 'amount', 'heavy', 'big', 'ones'),
        *('hitters', 'hit', 'hits', 'hitting', 'reach', 'reaches', 'reached', 'reaching', 'maxed', 'out', 'its'),
        *('their', 'our', 'one'),
        # What a ranking's rows are (the hottest *day*, the busiest *hour*), not what they are ranked by.
        *('day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'hour', 'hours', 'quarter', 'quarters'),
    )
)
_WHEN_OR_WHERE = frozenset(
    ('during', 'in', 'on', 'at', 'across', 'since', 'while', 'among', 'between', 'within', 'throughout', 'today')
)
"""Words after a cue that open when or where it ranks, not by what."""
_MEASURE_WORDS = frozenset(('time', 'memory', 'space', 'size', 'disk', 'cpu'))
"""Words naming a measure that the request vocabulary would otherwise pass over."""
_CUE_MEASURES = {
    'costliest': 'cost',
    'slowest': 'time',
    'hot': 'time',
    'hotspot': 'time',
    'hotspots': 'time',
    'rainiest': 'precipitation',
    'wettest': 'precipitation',
    'snowiest': 'snow',
    'windiest': 'wind',
}
"""Cues that name their measure themselves: the costliest incidents are ranked by their cost, the slowest jobs by how
long they took (a job log's `JobRuntime`, not its sequence number)."""


_VERSION_AFTER_NAME = r'[ _-]?v?(\d{1,4}(?:\.\d{1,4}){1,3})\b'
VERSION_AFTER = re.compile(_VERSION_AFTER_NAME)
"""A version right after a name (`_2.34`, ` 3.10`, `-v1.1`): its dotted numbers in the first group."""
_NAMED_VERSION = re.compile(r'\b([A-Za-z][A-Za-z0-9+]{2,19})' + _VERSION_AFTER_NAME)
"""A name and the version written after it: `glibc 2.31`, `OpenSSL 1.1`, `GLIBC_2.34`, `Python 3.10`."""
_NOT_NAMES = frozenset(
    (
        *('version', 'versions', 'release', 'line', 'lines', 'page', 'step', 'section', 'and', 'from', 'for'),
        *('with', 'than', 'upgrade', 'upgraded', 'downgrade', 'bump', 'bumped', 'pin', 'pinned', 'the', 'below'),
        *('above', 'before', 'after', 'since', 'until', 'over', 'under', 'into', 'onto', 'via', 'use', 'using'),
    )
)
"""Words a version follows that are not what it is the version of ("upgrade to 3.1", "since 2.4")."""
MAX_VERSIONS = 4


def _versions(*contents: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The things the request (not the call's arguments) names with a version, the first version each."""
    found: dict[str, tuple[str, tuple[int, ...]]] = {}
    for content in contents:
        for match in _NAMED_VERSION.finditer(content):
            name = match.group(1)
            key = name.lower()
            if key not in _NOT_NAMES and key not in STOPWORDS and key not in found:
                found[key] = (name, version_numbers(match.group(2)))
    return tuple(found.values())[:MAX_VERSIONS]


def version_numbers(version: str) -> tuple[int, ...]:
    """`'2.34'` as `(2, 34)`: versions compare as tuples (2.4 < 2.34)."""
    return tuple(int(part) for part in version.split('.'))


_COMMAND = re.compile(r'(?:^|[|;&]+|\$\(|`)\s*([^|;&`)]+)')
"""A command of a command line: at its start, after a pipe or a separator, or inside `$(...)` or backquotes."""
_WRAPPERS = frozenset(
    (
        'sudo',
        'env',
        'time',
        'nice',
        'timeout',
        'strace',
        'ltrace',
        'valgrind',
        'perf',
        'xargs',
        'watch',
        'exec',
        'nohup',
    )
)
_SHELLS = frozenset(('su', 'sh', 'bash', 'zsh', 'dash', 'runuser'))
"""Programs that run the command handed to them with `-c`."""
_VALUED_WRAPPER_OPTIONS = frozenset(('-u', '-g', '-U', '-n', '-k', '-s'))
"""Options of a wrapper followed by a value of their own (`sudo -u postgres`, `timeout -k 5`, `nice -n 10`)."""
_RUNNERS = frozenset(('python', 'python3', 'uv', 'npx', 'poetry', 'pipx', 'node', 'pnpm', 'yarn', 'npm', 'cargo', 'go'))
_SUBCOMMANDS = frozenset(
    (
        'git',
        'docker',
        'kubectl',
        'cargo',
        'npm',
        'pip',
        'pip3',
        'go',
        'systemctl',
        'apt',
        'apt-get',
        'brew',
        'helm',
        'terraform',
        'gh',
        'uv',
        'poetry',
        'yarn',
        'pnpm',
        'dnf',
        'yum',
        'journalctl',
        'podman',
        'conda',
    )
)
"""Programs whose first word is a subcommand (`git diff`, `docker logs`): it names the tool's mode, not a line."""


def _programs(arguments: str) -> list[str]:
    """The programs a command line runs (`psql`, `git`, `python -m pytest`), by their base names.

    Wrappers (`sudo`, `strace -f`, `timeout 30`) are looked through to the program they run.
    """
    out: list[str] = []
    for line in arguments.splitlines():
        if ' ' not in line.strip():
            continue
        for segment in _COMMAND.finditer(line):
            tokens = segment.group(1).split()
            index = 0
            while index < len(tokens):
                token = tokens[index]
                index += 1
                if token.startswith('-') or token.replace('.', '').isdigit() or '=' in token:
                    if token in _VALUED_WRAPPER_OPTIONS and out and out[-1] in _WRAPPERS:
                        index += 1  # `sudo -u postgres psql`: the user, not the program
                    continue  # a flag, a flag's number, a VAR=value assignment
                program = token.rsplit('/', 1)[-1]
                out.append(program)
                if program in _SHELLS and '-c' in tokens[index:]:
                    # `su postgres -c "pg_dump ..."`, `bash -c '...'`: the command the shell is handed runs too.
                    after = tokens.index('-c', index) + 1
                    inner = tokens[after].strip('\'"') if after < len(tokens) else ''
                    out.extend([inner.rsplit('/', 1)[-1]] if inner else [])
                if program != token:
                    out.append(token)  # the program's path (`.venv/bin/python`) is echoed in banners, not asked for
                if '--args' in tokens[index:]:  # gdb ... --args prog: the program debugged runs too
                    after = tokens.index('--args', index) + 1
                    out.extend(tokens[after].rsplit('/', 1)[-1:] if after < len(tokens) else [])
                if program in _RUNNERS and index + 1 < len(tokens) and tokens[index] == '-m':
                    out.append(tokens[index + 1])  # python -m pytest: the module is the program too
                if program == 'java':
                    out.extend(_main_class(tokens[index:]))  # java -cp h2.jar org.h2.tools.RunScript: that class too
                if program in _SUBCOMMANDS:
                    out.extend(next((t for t in tokens[index:] if not t.startswith('-')), '').split()[:1])
                if program not in _WRAPPERS:
                    break
    return out


_JAVA_VALUED = frozenset(('-cp', '-classpath', '--class-path', '-p', '--module-path', '--add-modules'))
"""The options of `java` followed by a value of their own."""


def _main_class(words: list[str]) -> list[str]:
    """The class (or jar) `java` runs, from its arguments: the first that is not an option or an option's value."""
    index = 0
    while index < len(words):
        word = words[index]
        if word == '-jar':
            jar = words[index + 1 : index + 2]
            return [*jar, *(path.rsplit('/', 1)[-1] for path in jar)]
        if word in _JAVA_VALUED:
            index += 2
        elif word.startswith('-'):
            index += 1
        else:
            return [word, word.rsplit('.', 1)[-1]]  # its frames print it whole or by its own name
    return []


_WORKDIR = re.compile(r'(?:^|[|;&]\s*)(?:cd|pushd)\s+(["\']?)([^\s"\';&|]+)\1')


def _workdirs(arguments: str) -> set[str]:
    """Keys of the directories a command line changes into (`cd /srv/app && ...`), hands its programs in the
    environment (`TMPDIR=/tmp/run ...`) or writes into (`-B build`), and of their last parts."""
    out: set[str] = set()
    for found in _WORKDIR.finditer(arguments):
        directory = found.group(2).rstrip('/').lower()
        out.update((directory, directory.rsplit('/', 1)[-1]))
    outputs = [value for _, value in _assignments(arguments) if value.startswith(('/', './', '~/'))]
    for line in arguments.splitlines():
        words = line.split()
        for option, value in itertools.pairwise(words):
            if option in _OUTPUT_FLAGS:
                outputs.append(value.strip('\'"'))
        outputs += [word.split('=', 1)[1] for word in words if word.split('=', 1)[0] in _OUTPUT_FLAGS and '=' in word]
    for value in outputs:
        directory = value.rstrip('/').lower()
        out.update((directory, directory.rsplit('/', 1)[-1]))
    out.discard('')
    return out


_OUTPUT_FLAGS = frozenset(
    ('-o', '-B', '-d', '--out', '--output', '--outdir', '--output-dir', '--build-dir', '--target-dir')
)
"""Options whose value is where a command writes (`cmake -B build`, `javac -d out`): every path it prints under it
holds it, as a `cd`'s directory."""


_ONE_ASSIGNMENT = re.compile(r'([A-Za-z_]\w*)=("[^"\n]*"|\'[^\'\n]*\'|\S*)')
_ASSIGNMENT = re.compile(rf'(?:^|[|;&(]|\bexport|\benv)[^\S\n]*((?:{_ONE_ASSIGNMENT.pattern}[^\S\n]+)+)', re.M)


def _assignments(arguments: str) -> list[tuple[str, str]]:
    """The environment a command line sets for what it runs (`export TMPDIR=/tmp/x && ...`, `CC=clang make`):
    names and values, a value's quotes kept."""
    return [
        (one.group(1), one.group(2))
        for found in _ASSIGNMENT.finditer(arguments + ' ')
        for one in _ONE_ASSIGNMENT.finditer(found.group(1))
    ]


_COUNT_FLAGS = frozenset(
    (
        '-n',
        '-m',
        '-L',
        '--lines',
        '--max-count',
        '--tail',
        '--head',
        '--limit',
        '--count',
        '--number',
        '--depth',
        '--max-depth',
        '--iterations',
        '--repeat',
        '--since-count',
    )
)
"""Options whose value is how much to print or run (`head -n`, `git log -n`, `docker logs --tail`), not a
thing in the output; a port or an id after another option (`psql -p 54329`) may well be."""


def _count_values(arguments: str) -> set[str]:
    """The numbers a command line gives to options in `_COUNT_FLAGS`."""
    out: set[str] = set()
    for line in arguments.splitlines():
        tokens = line.split()
        for option, value in itertools.pairwise(tokens):
            if option in _COUNT_FLAGS and value.isdigit():
                out.add(value)
    return out


def _option_names(arguments: str) -> set[str]:
    """Keys of the names of the options a command line gives (`-XX:+PrintFlagsFinal`, `--color=never`): how the
    command was asked to run. Only the names, not their values (`--select=NPY201` may be what is looked for), nor
    the names of settings given a value (`-XX:MaxRAMPercentage=60`), nor the options inside an assignment's quoted
    value (`JAVA_TOOL_OPTIONS=\"-XX:MaxRAMPercentage=60\"`): settings the output may show."""
    out: set[str] = set()
    for line in arguments.splitlines():
        try:
            words = shlex.split(line)
        except ValueError:  # an unclosed quote: no telling options from quoted text
            continue
        for word in words:
            if word.startswith('-') and not _SETTING_OPTION.match(word):
                name = _OPTION_PIECE.split(word.split('=', 1)[0])[-1]
                if name:
                    out.add(name.lower())
    return out


_SETTING_OPTION = re.compile(r'-[A-Z]{1,3}:[A-Za-z]\w*=')
"""An option setting a named value (`-XX:MaxRAMPercentage=60`): the name is a setting the output may print."""


OPTION_NAME_WEIGHT = 0.3
"""Weight kept by the name of an option a command line gives (`UseParallelGC` of `-XX:+UseParallelGC`)."""
_OPTION_PIECE = re.compile(r'[-:+]+')
"""What stands before an option's name (`--`, `-XX:+`, `-XX:`)."""


def _args_text(args: Mapping[str, Any] | str | None) -> str:
    if args is None:
        return ''
    if isinstance(args, str):
        return args
    parts: list[str] = []
    for value in args.values():
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            parts.append(str(value))
        elif isinstance(value, list | tuple | dict):
            parts.append(json.dumps(value, default=str)[:2_000])
    return '\n'.join(parts)


COMPARATIVE = 7
"""Words this long ending in `er` drop it (`simpler` finds `simplify`, `compiler` `compile`); shorter ones keep it
(`server`, `header`, `number` are words of their own)."""


def _stem(word: str) -> str:
    if len(word) >= COMPARATIVE and word.endswith('er'):
        return word[:-2]
    for suffix in _STEM_SUFFIXES:
        if suffix == 's' and word.endswith(('ss', 'us', 'is')):
            continue  # not a plural: class, status, analysis
        if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_WORD:
            stem = word[: -len(suffix)]
            if suffix == 'ing' and len(stem) > _MIN_WORD and stem[-1] == stem[-2]:
                stem = stem[:-1]  # stopping -> stop
            return stem
    return word


_EXTENSIONS = frozenset(
    (
        'py',
        'pyi',
        'pyc',
        'pyx',
        'pxd',
        'c',
        'h',
        'cc',
        'cpp',
        'hpp',
        'cxx',
        'rs',
        'go',
        'java',
        'kt',
        'scala',
        'rb',
        'php',
        'js',
        'mjs',
        'cjs',
        'ts',
        'tsx',
        'jsx',
        'vue',
        'svelte',
        'swift',
        'm',
        'cs',
        'fs',
        'sh',
        'bash',
        'zsh',
        'fish',
        'ps1',
        'bat',
        'pl',
        'lua',
        'r',
        'jl',
        'ex',
        'exs',
        'erl',
        'hs',
        'ml',
        'clj',
        'dart',
        'sql',
        'proto',
        'graphql',
        'gql',
        'txt',
        'md',
        'rst',
        'adoc',
        'tex',
        'csv',
        'tsv',
        'json',
        'jsonl',
        'yaml',
        'yml',
        'toml',
        'ini',
        'cfg',
        'conf',
        'env',
        'lock',
        'xml',
        'html',
        'htm',
        'css',
        'scss',
        'sass',
        'less',
        'svg',
        'png',
        'jpg',
        'jpeg',
        'gif',
        'ico',
        'pdf',
        'log',
        'out',
        'err',
        'pid',
        'sock',
        'db',
        'sqlite',
        'gz',
        'bz2',
        'xz',
        'zst',
        'zip',
        'tar',
        'tgz',
        'whl',
        'egg',
        'jar',
        'war',
        'so',
        'dll',
        'dylib',
        'a',
        'o',
        'lib',
        'exe',
        'bin',
        'wasm',
        'map',
        'ipynb',
        'mk',
        'cmake',
        'gradle',
        'tf',
        'hcl',
        'nix',
        'spec',
        'patch',
        'diff',
        'orig',
        'bak',
        'tmp',
        'swp',
    )
)
"""File extensions: a dotted name ending in one is a file (`resolvers.py`); otherwise a dotted identifier
(`json.dump`, `os.path`)."""
_FORMATS = frozenset(
    (
        *('json', 'jsonl', 'csv', 'tsv', 'xml', 'yaml', 'yml', 'toml', 'html', 'markdown'),  # what the output is
        *('kb', 'mb', 'gb', 'tb', 'kib', 'mib', 'gib', 'ms', 'us', 'ns'),  # how big or slow it was
    )
)


_NAMED_AFTER = re.compile(
    r'[ \t]+(?:package|module|library|lib|crate|gem|extension|plugin|directory|folder|dir)s?\b', re.IGNORECASE
)
"""After a format's name, a word that makes it the name of a thing (`the json package`)."""


def _kind(token: str) -> TermKind | None:
    if token.startswith('-') and len(token) > 2 and not token[1:].replace('-', '').isdigit():
        return TermKind.flag if len(token.lstrip('-')) >= 3 else None
    if '/' in token or '\\' in token:
        return None if _ESCAPES.fullmatch(token) else TermKind.path
    if _NUMBER.fullmatch(token):
        digits = sum(ch.isdigit() for ch in token)
        return TermKind.number if digits >= 3 or '.' in token else None
    if _HEX_ID.fullmatch(token):
        return TermKind.identifier  # a commit, an object id, an address: 6294fa6, 0x7f3a2c
    if '.' in token:
        stem, _, ext = token.rpartition('.')
        if stem and ext.isalpha() and 1 <= len(ext) <= 5 and ext.islower() and (ext in _EXTENSIONS or '_' in ext):
            return TermKind.path  # a file name: resolvers.py, sessions.py (json.dump is a function)
        return TermKind.identifier if _IDENTIFIER.fullmatch(token) else None
    if _SETTING.fullmatch(token):
        return TermKind.identifier  # shell=True, level=debug: a setting as the output prints it
    if not _IDENTIFIER.fullmatch(token):
        return TermKind.identifier if token.startswith('[') and token.endswith(']') and len(token) > 3 else None
    if '_' in token or any(ch.isdigit() for ch in token) or ':' in token or '-' in token.strip('-'):
        return TermKind.identifier
    if token.lower() in _FORMATS:
        return None  # "as JSON", "the CSV", "1.7 MB": the form or size of the output, not a thing in it
    if len(token) >= 2 and token.isupper():
        # CC, CFLAGS, WAL: acronyms and constants. Those that prose names things by (`the API`, `CPU`, `the DB`) say
        # what the request is about no more than a word does.
        return TermKind.word if token.lower() in PROSE_ACRONYMS else TermKind.identifier
    if any(ch.isupper() for ch in token[1:]):
        return TermKind.identifier  # OrderedSet, CliRunner
    if len(token) >= _MIN_WORD and token.lower() not in STOPWORDS:
        return TermKind.word
    if len(token) == 3 and token.isalpha() and token.lower() not in COMMON_SHORT_WORDS:
        return TermKind.word  # gdb, npm, gcc: a short name, not a word a sentence is made of
    return None


PROSE_ACRONYMS = frozenset(
    (
        *('api', 'apis', 'url', 'urls', 'uri', 'cpu', 'cpus', 'gpu', 'ram', 'dns', 'sql', 'http', 'https', 'ui'),
        *('os', 'vm', 'vms', 'ci', 'pr', 'db', 'dbs', 'io', 'id', 'ids', 'ssh', 'tls', 'ssl', 'tcp', 'udp', 'ip'),
    )
)
"""Acronyms prose uses as nouns (`the API`, `high CPU`): read as words, not as names an output prints."""


COMMON_SHORT_WORDS = frozenset(
    (
        *('the', 'and', 'for', 'are', 'but', 'not', 'you', 'all', 'any', 'can', 'had', 'her', 'was', 'one'),
        *('our', 'out', 'day', 'get', 'got', 'has', 'him', 'his', 'how', 'man', 'new', 'now', 'old', 'see'),
        *('two', 'way', 'who', 'did', 'its', 'let', 'put', 'say', 'she', 'too', 'use', 'why', 'yes', 'yet'),
        *('run', 'ran', 'fix', 'add', 'set', 'few', 'far', 'big', 'bad', 'end', 'top', 'try', 'ask', 'own'),
        *('off', 'via', 'per', 'etc', 'lot', 'log', 'due', 'ago', 'non', 'may', 'men', 'job', 'low', 'key'),
        *('row', 'max', 'min', 'sum', 'avg', 'raw', 'map', 'err', 'saw', 'bit', 'box', 'bug', 'cut', 'hit'),
        *('fit', 'gap', 'mix', 'odd', 'pay', 'pro', 'six', 'ten', 'tip', 'win', 'won', 'dir', 'doc', 'src'),
        *('lib', 'bin', 'tmp', 'var', 'usr', 'opt', 'tab', 'tag', 'age', 'act', 'nor', 'oil', 'sea', 'sit'),
        *('son', 'sun', 'tax', 'tie', 'als', 'aka', 'eta', 'int', 'str', 'def', 'len', 'obj', 'arg', 'val'),
        *('led', 'met', 'lay', 'lie', 'sat', 'cat', 'dog', 'car', 'red', 'hot', 'ice', 'art', 'kid'),
        *('don', 'isn', 'won', 'ain'),  # what a contraction leaves before its apostrophe (`don't`)
    )
)
"""Three-letter words every request is made of: other three-letter words are names (gdb, npm, gcc, zsh)."""


GENERIC_WORDS = frozenset(
    (
        'default',
        'model',
        'models',
        'history',
        'author',
        'authors',
        'change',
        'changes',
        'changed',
        'date',
        'dates',
        'version',
        'versions',
        'test',
        'tests',
        'code',
        'name',
        'names',
        'type',
        'types',
        'data',
        'total',
        'totals',
        'count',
        'counts',
        'number',
        'install',
        'installed',
        'package',
        'packages',
        'module',
        'modules',
        'function',
        'functions',
        'method',
        'commit',
        'commits',
        'project',
        'real',
        'environment',
        'system',
        'process',
        'build',
        'update',
        'updated',
        'added',
        'support',
        'recent',
        'latest',
        'overall',
        'details',
        'finding',
        'findings',
        'rule',
        'rules',
        'warning',
        'warnings',
        'failure',
        'failures',
        'failed',
        'fail',
        'debug',
    )
)
"""Words of every developer's request ("the default", "recent changes", "the totals"): searched after the
words that name something, since a large output leaves room for only a few searches."""
GENERIC_WEIGHT = 0.6
ID_DIGITS = 5
ID_BOOST = 2.5
"""A plain number of `ID_DIGITS` digits or more names one thing (an oid, a pid, a port): it weighs a little more than
a name, which may be spelled in several ways and found in many places."""
NAME_BOOST = 1.5
"""A capitalised word inside a sentence is a name (a product, a model, a person): nearly as specific as an
identifier."""


def _sentence_start(content: str, position: int) -> bool:
    before = content[:position].rstrip(' \t"\'(`*')
    return not before or before[-1] in '.!?:\n'


_SQL_KEYWORDS = frozenset(
    (
        *('SELECT', 'FROM', 'WHERE', 'ORDER', 'GROUP', 'BY', 'HAVING', 'LIMIT', 'OFFSET', 'JOIN', 'LEFT', 'INNER'),
        *('OUTER', 'ON', 'AS', 'AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'LIKE', 'DESC', 'ASC', 'DISTINCT', 'COUNT'),
        *('SUM', 'AVG', 'MAX', 'MIN', 'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'UNION', 'ALL', 'WITH', 'INSERT'),
        *('INTO', 'VALUES', 'UPDATE', 'SET', 'DELETE', 'CREATE', 'TABLE', 'INDEX', 'EXPLAIN', 'ANALYZE'),
    )
)
"""A query's keywords, written in capitals as SQL is: its syntax, not what its rows are searched for."""


_PROTOCOL_VERSION = re.compile(r'([A-Z]{2,8})/(\d(?:\.\d)?)')
"""A protocol (in capitals, as protocols are written) and its version after a slash: `HTTP/2`, `HTTP/1.1`; not a
folder (`lib/2`)."""


_DURATION_AFTER = re.compile(r'[ \t]?(?:ms|us|µs|ns|s|secs?|seconds?|mins?|minutes?|hours?)\b', re.IGNORECASE)
"""A unit of time after a number: the number is a duration (`every 100 ms`, `for 30 seconds`)."""
INTERVAL_WEIGHT = 0.3
"""A duration a request names weighs this much of a number: how long or how often the command ran, which its
output rarely prints as such (`100.00` in a column of percentages is no `100 ms`)."""
_NUMBER_LIST = re.compile(r'(?<![\w.])\d{3,}(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)\d{3,})+(?!\w|\.\d)')
"""Numbers listed together (`18524, 18510 and 2619`): where one is an id, the others are ids as well."""


def _listed_ids(content: str) -> set[str]:
    """The numbers of `content` listed with a number of `ID_DIGITS` digits or more: ids, however many digits."""
    ids: set[str] = set()
    for listed in _NUMBER_LIST.finditer(content):
        numbers = re.findall(r'\d+', listed.group())
        if any(len(number) >= ID_DIGITS for number in numbers):
            ids.update(numbers)
    return ids


def _extract(content: str, source_weight: float) -> Iterable[Term]:
    ids = _listed_ids(content)
    for match in _QUOTED.finditer(content):
        quoted = next(group for group in match.groups() if group is not None).strip()
        if 3 <= len(quoted) <= _MAX_TERM_CHARS and not quoted.isspace():
            yield Term(quoted, quoted.lower(), TermKind.quoted, _KIND_PRIOR[TermKind.quoted] * source_weight)
    for match in _TOKEN.finditer(content):
        token = match.group(0)
        if token.endswith('::') and _IDENTIFIER.fullmatch(namespace := token.strip(_TRIM)):
            # A namespace named by its prefix (`the Net:: modules`): its modules' names, and their files' paths.
            weight = _KIND_PRIOR[TermKind.identifier] * source_weight * 0.8
            yield Term(f'{namespace}::', f'{namespace}::'.lower(), TermKind.identifier, weight)
            folder = namespace.replace('::', '/') + '/'
            yield Term(folder, folder.lower(), TermKind.path, weight, f'{namespace}::'.lower())
            continue
        extension = _EXTENSION.fullmatch(token.rstrip(_TRIM))
        if extension is not None:
            # A kind of file named by its extension (`.ts files`, `*.yaml`): a pattern, a path's end, a glob.
            suffix = extension.group(1).lower()
            weight = _KIND_PRIOR[TermKind.path] * source_weight
            yield Term(suffix, suffix, TermKind.path, weight)
            if len(suffix) > 3:
                # A table of types lists its extensions bare (`image/webp  webp`): looked for where the dotted is not.
                yield Term(suffix[1:], suffix[1:], TermKind.identifier, weight * 0.6, suffix)
            continue
        token = token.rstrip(_TRIM) if token.startswith('-') else token.strip(_TRIM)
        if token.startswith('[') and not token.endswith(']'):
            token = token.lstrip('[')
        if token.endswith(']') and not token.startswith('['):
            token = token.rstrip(']')
        if len(token) < 2 or len(token) > _MAX_TERM_CHARS or token in _SQL_KEYWORDS:
            continue
        if _MEASURE_WORD.fullmatch(token):
            # `32-bit`, `64-bit`: the output may write it so, or as one word in a name (`JSON_32bitTest`).
            weight = _KIND_PRIOR[TermKind.identifier] * source_weight
            yield Term(token, token.lower(), TermKind.identifier, weight)
            joined = token.replace('-', '')
            yield Term(joined, joined.lower(), TermKind.identifier, weight * 0.8)
            continue
        offset = _HEX_OFFSET.fullmatch(token)
        if offset is not None:
            # An address or an offset in hex (`libz.so.1[+0x9060]`): a disassembly and a symbol table print it bare, as
            # the instruction's place (`    9060:`) and a jump's target (`jbe 9060 <inflate_fast+0x280>`).
            weight = _KIND_PRIOR[TermKind.identifier] * source_weight
            yield Term(token, token.lower(), TermKind.identifier, weight)
            bare = offset.group(1).lower()
            if len(bare) >= HEX_BARE_DIGITS:  # `100` of `0x100` would find every hundred
                yield Term(bare, bare, TermKind.identifier, weight * 0.8, token.lower())
            continue
        kind = _kind(token)
        if kind is None and token.lower() in _FORMATS and _NAMED_AFTER.match(content, match.end()):
            kind = TermKind.word  # "the json package", "the yaml module": a name, not the output's form
        if kind is None:
            continue
        weight = _KIND_PRIOR[kind] * source_weight
        if kind is TermKind.word:
            if token[0].isupper() and not _sentence_start(content, match.start()):
                weight *= NAME_BOOST  # "Claude", "Sonnet", "Postgres" mid-sentence: a name, not a common word
            elif token.lower() in GENERIC_WORDS:
                weight *= GENERIC_WEIGHT
            # Searched by its stem (`windowed` finds `window`), spelled as written where the output has it so.
            yield Term(token.lower(), _stem(token.lower()), kind, weight)
            continue
        if kind is TermKind.number and token.isdigit() and (len(token) >= ID_DIGITS or token in ids):
            weight *= ID_BOOST  # 16439, 48213: an object's id, a process, a port; not a measure, which varies
        elif kind is TermKind.number and _DURATION_AFTER.match(content, match.end()):
            weight *= INTERVAL_WEIGHT  # "every 100 ms": how often it samples, not a value in its output
        yield Term(token, token.lower(), kind, weight)
        if kind is TermKind.path and (versioned := _PROTOCOL_VERSION.fullmatch(token)):
            # A protocol and its version (`HTTP/2`): build flags and summaries write it as one word (`HTTP2`, `http2`).
            joined = versioned.group(1) + versioned.group(2)
            yield Term(joined, joined.lower(), TermKind.identifier, weight * 0.8, token.lower())
            continue
        if kind is TermKind.path:
            # A path's last part names the same thing where the output prints paths relative to elsewhere.
            base = re.split(r'[/\\]', token.rstrip('/\\'))[-1]
            # Not a word every request uses (`code` of `blank/comment/code`): that names nothing of its own.
            if base != token and len(base) >= _MIN_WORD and base.lower() not in STOPWORDS | GENERIC_WORDS:
                yield Term(base, base.lower(), TermKind.path, weight * 0.8)
            pair = token.split('/')
            if len(pair) == 2 and all(_BARE_NAME.fullmatch(part) for part in pair):
                # Two names written as one (`libssl/libcrypto`, `numpy/pandas`, `high/medium`): each is looked for as
                # a word of its own as well.
                for part in pair:
                    # An acronym is a name however short (`CSV` of `Aria/CSV`).
                    named = len(part) >= _MIN_WORD or (len(part) >= 3 and part.isupper())
                    if named and part.lower() not in STOPWORDS | GENERIC_WORDS:
                        prior = _KIND_PRIOR[TermKind.word] * source_weight
                        yield Term(part.lower(), _stem(part.lower()), TermKind.word, prior, token.lower())
        elif kind is TermKind.identifier and '::' in token and _IDENTIFIER.fullmatch(token):
            # A qualified name (`Test::More`, `serde_json::Value`, `ActiveRecord::Base`): a module's is also the path of
            # its file (`Test/More.pm`), and its last part the name the output may use alone.
            yield Term(
                token.replace('::', '/'), token.replace('::', '/').lower(), TermKind.path, weight * 0.8, token.lower()
            )
            last = token.rsplit('::', 1)[-1]
            if len(last) >= _MIN_WORD and last.lower() not in STOPWORDS | GENERIC_WORDS:
                yield Term(last, last.lower(), TermKind.identifier, weight * 0.6, token.lower())
        elif (
            kind is TermKind.identifier
            and (versionless := _VERSION_SUFFIX.sub('', token)) != token
            and len(versionless) >= _MIN_WORD + 3
        ):
            # A name with its version (`libcudart.so.12`, `libssl.so.1.1`): the output may hold it at another version
            # (`libcudart.so.13`), or without one (`libcudart.so`), which is the question's answer as often.
            yield Term(versionless, versionless.lower(), TermKind.identifier, weight * 0.8, token.lower())
        elif kind is TermKind.identifier and '.' in token.strip('.') and _IDENTIFIER.fullmatch(token):
            # `json.dump`, `os.path.join`: profiles and tracebacks print the function by its own name.
            last = token.rsplit('.', 1)[-1]
            if len(last) >= _MIN_WORD and not last.isdigit():  # a function named like a verb (dump) still counts
                yield Term(last, last.lower(), TermKind.identifier, weight * 0.8)
        elif kind is TermKind.identifier and '=' in token.strip('='):
            # A setting as it was passed (`MaxRAMPercentage=60`, `work_mem=64MB`): a dump of settings prints its name
            # apart from its value (`MaxRAMPercentage = 60.000000`), and the value it holds may be another. Not a
            # plain word's (`-e trace=process`): that is an option of the command, and a word found everywhere.
            name = token.split('=', 1)[0].lstrip('-')
            plain = name.isalpha() and name.islower()
            if len(name) >= _MIN_WORD and not plain and _IDENTIFIER.fullmatch(name):
                yield Term(name, name.lower(), TermKind.identifier, weight * 0.8)
        elif kind is TermKind.identifier and token.startswith('[') and token.endswith(']'):
            inner = token[1:-1]
            if len(inner) >= 3:
                yield Term(inner, inner.lower(), TermKind.identifier, weight * 0.8)
        elif kind is TermKind.identifier and '-' in token and token.replace('-', '').isalpha():
            # A compound of words ("Lisp-style", "read-only"): the output may say its words apart. Where it
            # does, they are the best handle left on what was asked, so they weigh more than a plain word.
            for part in token.split('-'):
                if len(part) >= _MIN_WORD and part.lower() not in STOPWORDS:
                    word = _stem(part.lower())
                    yield Term(word, word, TermKind.word, weight * 0.6, token.lower())
                elif 2 <= len(part) < _MIN_WORD and part.isupper() and part.lower() not in PROSE_ACRONYMS:
                    # An acronym however short ("GC-related", "IO-bound"): a name the output writes on its own.
                    yield Term(part, part.lower(), TermKind.identifier, weight * 0.6, token.lower())


_EXTENSION = re.compile(r'\*?(\.[A-Za-z][A-Za-z0-9]{0,5})')
"""A file's extension on its own (`.ts`, `*.yaml`): the kind of file a request is about."""
_MEASURE_WORD = re.compile(r'\d{1,4}-[A-Za-z]{2,8}')
"""A number and the word it measures, hyphenated: `32-bit`, `64-byte`, `8-core`."""
_VERSION_SUFFIX = re.compile(r'(?<=[A-Za-z])(?:\.\d+)+$')
"""A version a name ends with after a dot (`.so.12`, `.so.1.1`), not a number that is the name (`python3`)."""


# --- matching ---------------------------------------------------------------------------------

SCAN_CHARS = 3_000_000
"""Characters all term scans together may read: a megabyte payload gets its three most specific terms
scanned whole, a 100 KB payload thirty (each scan is a C-speed `str.find` loop)."""
ENGINE_TERMS = 4
"""Terms a text of any size has looked for when a multi-literal engine is installed, if the ones past its size's
budget are absent from the sampled lines (one pass finds them all)."""
MAX_LINES_PER_TERM = 300
"""A term on more lines than this stops being collected: it is common, and only re-scores the lines the
rarer terms found."""
HIT_CHARS = 60_000_000
"""Larger texts collect fewer lines per term (60 for a megabyte): the Python work per hit is what grows."""
COMPOUND_LINES = 8
"""Lines holding a compound ("attr-defined") beyond which its words are not looked for apart."""
RULE_REPEAT = 0.5
"""How much less each further diagnostic of a rule already ranked adds."""
AVOIDED = 0.25
"""Score kept by a line holding a word the request said to look past."""
LONG_LINE = 400
"""Lines longer than this weigh their hits down, by the doublings past it."""
COMPOUND_SAMPLED = 3
"""Sampled lines holding a compound that make it common before any scan."""
MAX_CANDIDATES = 40
"""Lines scored in full (their class and every term checked): the best of them are what a stand-in has room for."""
PRESELECTED = 96
"""Lines whose text is read for whole-token and first-field hits, chosen by the scans' own score."""
PER_TERM = 6
"""Lines each term keeps in the running, however many lines the commoner terms hold."""
RANKED = 16
"""Lines put in order by what they add: a preview shows a handful, the read offer covers the rest."""


@dataclass(frozen=True, slots=True)
class LineMatch:
    """One line that holds intent terms."""

    start: int
    end: int
    """Exclusive; the line break (if any) sits at `end`."""
    score: float
    """What the line adds over the better lines before it (its terms count less the more of those hold them)."""
    focus: int
    """Where the line's best term occurs (an offset into the text): a shortened line keeps it in view."""
    terms: tuple[int, ...]
    """Indices into `Matches.terms` of the terms the line holds."""
    defines: bool = False
    """The line defines a name the request holds (`def name`, a disassembler's `<name>:`, a signature)."""


@dataclass(frozen=True, slots=True)
class Matches:
    """Lines of one text that hold intent terms, best first."""

    lines: tuple[LineMatch, ...] = ()
    terms: tuple[Term, ...] = ()
    """The terms scanned, in the order `LineMatch.terms` indexes them."""
    line_counts: tuple[int, ...] = ()
    """Per scanned term, the lines holding it (capped at `MAX_LINES_PER_TERM` + 1 for a common term)."""
    scanned: int = 0
    """Terms searched over the whole text."""
    exact: dict[int, str] = field(default_factory=dict[int, str])
    """Per term index, the term as the text spells it at its first hit (for a case-sensitive `pattern=`)."""
    hit_lines: tuple[tuple[int, ...], ...] = ()
    """Per scanned term, the starts of the lines holding it, in order (up to `MAX_LINES_PER_TERM`)."""
    hit_positions: tuple[tuple[int, ...], ...] = ()
    """Per scanned term, where it first occurs on each of those lines."""

    def __bool__(self) -> bool:
        return bool(self.lines)

    def hit_on(self, line_start: int) -> int:
        """Where the line starting at `line_start` holds a term (the rarest one it holds), or -1."""
        return self._rarest_on(line_start)[0]

    def lines_of_rarest(self, line_start: int) -> int:
        """On how many lines the rarest term the line starting at `line_start` holds is found; 0 for none."""
        return self._rarest_on(line_start)[1]

    def _rarest_on(self, line_start: int) -> tuple[int, int]:
        found, fewest = -1, 0
        for lines, positions, count in zip(self.hit_lines, self.hit_positions, self.line_counts, strict=True):
            index = bisect_left(lines, line_start)
            if index < len(lines) and lines[index] == line_start and (found == -1 or count < fewest):
                found, fewest = positions[index], count
        return found, fewest


def _scan_lowering(
    source: AnyStr, lowered: AnyStr, key: AnyStr, limit: int, whole: int
) -> tuple[list[tuple[int, int]], bool, AnyStr]:
    """`_scan` of `source` lowered (ASCII letters only, so no character changes its length), and the lowered
    stretch made: `lowered` is the part lowered by an earlier search.

    Lowering a megabyte costs more than a search stopping at its first lines, and a term searched this way
    is a common one (a multi-literal engine found it too often to list, or there is none): the text is lowered
    from the start in growing stretches until the search finds more lines than it wants, which the whole
    would give the same way.
    """
    size = max(len(lowered), LOWERED_STRETCH)
    while True:
        if len(lowered) < min(size, len(source)):
            lowered = cast('AnyStr', lowered + source[len(lowered) : size].lower())
        hits, more = _scan(lowered, key, limit, whole=whole)
        if more or len(lowered) == len(source):
            return hits, more, lowered
        size *= 4


LOWERED_STRETCH = 64 * 1024
"""Characters (or bytes) of a text lowered at first for a search of a common term; four times more each time."""


class _Folded:
    """Case-insensitive search over a text without lowering a non-ASCII megabyte (3-20x slower than ASCII).

    A text outside ASCII is searched as its UTF-8 bytes, lowered (which folds ASCII letters only, as ASCII
    terms need): a byte search runs at ASCII speed where a 2- or 4-byte string's runs several times slower,
    and one search per term replaces one per spelling. The hits' byte offsets become character offsets in
    one pass over all of them.
    """

    __slots__ = ('_lowered', '_lowered_utf8', '_utf8', 'ascii', 'text')

    def __init__(self, text: str, utf8: bytes | None = None) -> None:
        self.text = text
        self.ascii = text.isascii()
        self._lowered: str | None = None
        self._utf8 = utf8 if utf8 is not None and (not self.ascii or len(utf8) == len(text)) else None
        self._lowered_utf8: bytes | None = None

    @property
    def utf8(self) -> bytes:
        """The text as UTF-8 (`surrogatepass`): given by the caller that has it (a spill's write), or made once."""
        if self._utf8 is None:
            self._utf8 = self.text.encode('utf-8', 'surrogatepass')
        return self._utf8

    def _in_bytes(self, term: Term) -> bool:
        """Whether `term` is searched in the UTF-8 bytes: a text outside ASCII and a term inside it."""
        return not self.ascii and (term.text if _exact(term) else term.key).isascii()

    def _scan_bytes(self, term: Term, key: bytes, limit: int, whole: int) -> tuple[list[tuple[int, int]], bool]:
        """`_scan` of the UTF-8 bytes for `term`: as they are, or lowered for a term that ignores case."""
        if _exact(term):
            return _scan(self.utf8, key, limit, whole=whole)
        if whole == SEGMENT:
            places = _all_places(self.utf8, [spelling.encode() for spelling in self.spellings(term)])
            return _lines_at(self.utf8, places, len(key), limit, whole=whole)
        hits, more, self._lowered_utf8 = _scan_lowering(self.utf8, self._lowered_utf8 or b'', key, limit, whole)
        return hits, more

    def spellings(self, term: Term) -> list[str]:
        """What to search for: the lowered term in lowered ASCII text (or bytes); else the likely spellings."""
        if _exact(term):
            return [term.text]
        if _bounds(term) == SEGMENT:
            # An acronym is written upper, lower or capitalised: three searches of the text as it is cost less
            # than lowering it.
            return list(dict.fromkeys((term.text, term.key, term.key.capitalize())))
        if self.ascii or term.key.isascii():
            return [term.key]
        if term.kind is TermKind.word:
            return list(dict.fromkeys((term.key, term.key.capitalize(), term.key.upper())))
        return list(dict.fromkeys((term.text, term.key)))

    def find_all(self, term: Term, limit: int) -> tuple[list[tuple[int, int]], bool]:
        """(line start, hit position) of the lines holding `term`, at most `limit`; and whether more exist.

        A search (no multi-literal engine): what `find_many` answers must equal.
        """
        if not self.ascii:
            return self._find_utf8([term], limit, engine=False)[0]
        return self._find_text(term, limit)

    def _find_text(self, term: Term, limit: int) -> tuple[list[tuple[int, int]], bool]:
        if _exact(term):
            return _scan(self.text, term.text, limit, whole=WHOLE)
        if self.ascii and _bounds(term) != SEGMENT:
            # A number inside a longer number (3.1 in 3.11, 200 in 2001) is another number.
            hits, more, self._lowered = _scan_lowering(self.text, self._lowered or '', term.key, limit, _bounds(term))
            return hits, more
        if _bounds(term) == SEGMENT:
            places = _all_places(self.text, self.spellings(term))
            return _lines_at(self.text, places, len(term.key), limit, whole=SEGMENT)
        return _merged([_scan(self.text, variant, limit) for variant in self.spellings(term)], limit)

    def find_many(self, terms: list[Term], limit: int) -> list[tuple[list[tuple[int, int]], bool]]:
        """`find_all` for each of `terms`, the same answers: in one pass of a multi-literal engine if there is one."""
        literals = [(term.text, False) if _exact(term) else (term.key, True) for term in terms]
        # A common term (more places than a few per line wanted) is found faster by a search, which stops at
        # its limit.
        if not self.ascii:
            return self._find_utf8(terms, limit, engine=True)
        wanted, owners = self._engine_literals(terms, range(len(terms)))
        usable_here = all(not caseless or literal == literal.lower() for literal, caseless in wanted)
        cap = PLACES_PER_TERM * limit
        if not usable_here:
            places = None
        elif self._utf8 is not None:
            places = literal_places_utf8(self._utf8, wanted, cap_each=cap)  # an ASCII text's bytes are its characters
        else:
            places = literal_places(self.text, wanted, cap_each=cap)
        if places is None:
            return [self.find_all(term, limit) for term in terms]
        found = _owned(places, owners)
        return [
            self.find_all(term, limit)
            if (at := found.get(index)) is None
            else _lines_at(self.text, at, len(literals[index][0]), limit, whole=_bounds(term))
            for index, term in enumerate(terms)
        ]

    def _engine_literals(self, terms: list[Term], indices: Iterable[int]) -> tuple[list[tuple[str, bool]], list[int]]:
        """What the engine looks for on behalf of `terms[indices]`, and for each literal the term it stands for: a
        term's key in any case, an acronym's spellings as written (as `find_all` searches them)."""
        wanted: list[tuple[str, bool]] = []
        owners: list[int] = []
        for index in indices:
            term = terms[index]
            if _exact(term):
                spelled = [(term.text, False)]
            elif _bounds(term) == SEGMENT:
                spelled = [(spelling, False) for spelling in self.spellings(term)]
            else:
                spelled = [(term.key, True)]
            wanted += spelled
            owners += [index] * len(spelled)
        return wanted, owners

    def _find_utf8(self, terms: list[Term], limit: int, *, engine: bool) -> list[tuple[list[tuple[int, int]], bool]]:
        """`find_many` for a text outside ASCII: ASCII terms in its UTF-8 (one engine pass for them all, or a
        byte search each), other terms by their spellings in the text."""
        literals = [(term.text, False) if _exact(term) else (term.key, True) for term in terms]
        in_bytes = [index for index, term in enumerate(terms) if self._in_bytes(term)]
        places: dict[int, list[int]] = {}
        if engine and in_bytes:
            wanted, owners = self._engine_literals(terms, in_bytes)
            found_places = literal_places_utf8(self.utf8, wanted, cap_each=PLACES_PER_TERM * limit)
            if found_places is not None:
                places = _owned(found_places, owners)
        found: list[tuple[list[tuple[int, int]], bool]] = []
        for index, term in enumerate(terms):
            whole = _bounds(term)
            if index not in in_bytes:
                found.append(self._find_text(term, limit))
            elif (at := places.get(index)) is not None:
                found.append(_lines_at(self.utf8, at, len(literals[index][0]), limit, whole=whole))
            else:
                found.append(self._scan_bytes(term, literals[index][0].encode(), limit, whole))
        offsets = {offset for index in in_bytes for pair in found[index][0] for offset in pair}
        if not offsets:
            return found
        chars = char_offsets(self.text, self.utf8, offsets)
        for index in in_bytes:
            hits, more = found[index]
            found[index] = ([(chars[start], chars[position]) for start, position in hits], more)
        return found


def _owned(places: list[list[int] | None], owners: list[int]) -> dict[int, list[int]]:
    """Per term, the places of all its literals in order; a term any of whose literals had too many has none."""
    out: dict[int, list[int]] = {}
    overflow: set[int] = set()
    for owner, found in zip(owners, places, strict=True):
        if found is None:
            overflow.add(owner)
        else:
            out.setdefault(owner, []).extend(found)
    for owner in overflow:
        out.pop(owner, None)
    for found in out.values():
        found.sort()
    return out


def _all_places(text: AnyStr, spellings: Sequence[AnyStr]) -> Iterator[int]:
    """Every place any of `spellings` begins, in order, found as they are read: what a multi-literal engine
    reports for them, without looking further than the reader does."""

    def places(spelling: AnyStr) -> Iterator[int]:
        position = text.find(spelling)
        while position != -1:
            yield position
            position = text.find(spelling, position + 1)

    return heapq.merge(*(places(spelling) for spelling in spellings))


def _merged(searches: list[tuple[list[tuple[int, int]], bool]], limit: int) -> tuple[list[tuple[int, int]], bool]:
    """The lines several spellings' searches found, each once with its first hit, in order, at most `limit`."""
    found: dict[int, int] = {}
    more = False
    for hits, over in searches:
        more = more or over
        for start, position in hits:
            if start not in found or position < found[start]:
                found[start] = position
    ordered = sorted(found.items())
    return ordered[:limit], more or len(ordered) > limit


PLACES_PER_TERM = 4
"""Places per term and wanted line that one multi-literal scan may report before `str.find` serves better."""


def _lines_at(
    text: AnyStr, places: Iterable[int], size: int, limit: int, *, whole: int
) -> tuple[list[tuple[int, int]], bool]:
    """What `_scan` finds, from every place the term begins (`places`, in order): the same lines, the same answer."""
    out: list[tuple[int, int]] = []
    probes = 0
    floor = 0
    newline = _newline(text)
    find, rfind = text.find, text.rfind
    for position in places:
        if position < floor:
            continue
        if len(out) == limit:
            return out, True
        if whole and not _whole(text, position, size, whole):
            probes += 1
            if probes > _PROBES:
                return out, True
            continue
        out.append((rfind(newline, 0, position) + 1, position))
        next_line = find(newline, position + size)
        if next_line == -1:
            break
        floor = next_line + 1
    return out, False


def _quoted_whole(text: str, position: int, size: int) -> bool:
    """Whether the hit is a whole quoted string: a JSON value or key, a quoted name, a name marked up in
    documentation (`*sort_keys*`, ``` ``indent`` ```), where it is explained rather than used."""
    end = position + size
    return position > 0 and end < len(text) and text[position - 1] == text[end] and text[end] in '"\'`*'


_KEY_BEFORE_VALUE = re.compile(r'[ \t]*[\w.-]+[ \t]*[:=][ \t]*')
"""A line's key and its delimiter (`Package: `, `name = `), up to where its value begins."""


def _whole_value(text: str, start: int, end: int, position: int, size: int) -> bool:
    """Whether the hit is the whole value of a `Key: value` line (`Package: gdb`, `name = cryptography`)."""
    return not text[position + size : end].strip() and _KEY_BEFORE_VALUE.fullmatch(text, start, position) is not None


_CELL_EDGES = ('  ', '\t', '|', ',', ';')


def _whole_cell(text: str, start: int, end: int, position: int, size: int) -> bool:
    """Whether the hit is a whole cell of a table row: columns apart by runs of spaces, tabs, pipes or commas
    (`openssl` in `utils   openssl   3.0.19`, not in `libxmlsec1-openssl`)."""
    before = text[start:position]
    after = text[position + size : end]
    opens = not before.strip() or before.endswith(_CELL_EDGES) or before.rstrip(' ').endswith(_CELL_EDGES[2:])
    closes = not after.strip() or after.startswith(_CELL_EDGES) or after.lstrip(' ').startswith(_CELL_EDGES[2:])
    return opens and closes


JOINED = 1.5
"""What each of two request terms counts for where the line joins them into one name."""


def _joined(held: dict[int, int], values: dict[int, float], terms: tuple[Term, ...]) -> list[tuple[int, int]]:
    """Pairs of scored terms whose hits in a line touch, or sit one `_`, `-`, `.` or `/` apart."""
    return [
        (slot, other)
        for slot in values
        for other in values
        if other != slot and 0 <= held[other] - (held[slot] + len(terms[slot].key)) <= 1
    ]


INSIDE_WORD = 0.3
"""What a word of the request counts where it is found inside another word (`table` in `stable`, `port` in
`support`) rather than at a word's start or a hump of a compound name (`Error` in `TypeError`)."""


def _inside_word(text: str, position: int) -> bool:
    if position == 0:
        return False
    before = text[position - 1]
    return before.isalnum() and not (before.islower() and text[position].isupper())


def _newline(text: AnyStr) -> AnyStr:
    return cast('AnyStr', '\n' if isinstance(text, str) else b'\n')


_WORD_BYTES = frozenset(b'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_') | frozenset(
    range(0x80, 0x100)
)
"""Bytes of word characters in UTF-8: ASCII letters, digits and `_`, and every byte of a character outside
ASCII (most are letters; a symbol such as `─` beside a term makes it read as part of a word, a rare miss)."""


WHOLE, SEGMENT = 1, 2
"""How a hit must be bounded (0: not at all): by characters that are not word characters, or not letters."""
_LETTER_BYTES = frozenset(b'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz') | frozenset(range(0x80, 0x100))


def _whole(text: str | bytes, position: int, size: int, bounds: int = WHOLE) -> bool:
    """Whether the hit stands between non-word characters (`WHOLE`), or at one end of a run of letters at least
    (`SEGMENT`: `ssh_exec`, `libssh2`, `openblas64`; not `protocol` for `toc`)."""
    if isinstance(text, str):
        if bounds == WHOLE:
            return whole_token(text, position, size)
        before = text[position - 1] if position > 0 else ' '
        after = text[position + size] if position + size < len(text) else ' '
        return not before.isalpha() or not after.isalpha()
    before = text[position - 1] if position > 0 else 0x20
    after = text[position + size] if position + size < len(text) else 0x20
    if bounds == WHOLE:
        return before not in _WORD_BYTES and after not in _WORD_BYTES
    return before not in _LETTER_BYTES or after not in _LETTER_BYTES


SHORT_TERM = 4
"""An acronym this short is never matched inside a word: lowered, it hides inside ordinary words (`cc` in
`access`, `wal` in `interval`). One of two letters (`CC`, `CI`) is matched as written and as a whole token; one
of three or four (`WAL`, `SSH`) in any case, at an end of a run of letters (`max_wal_size`, `ssh_exec.c`,
`libssh2`), not inside one (`toc` in `protocol`)."""
EXACT_TERM = 2
_PROBES = 4_000


def _exact(term: Term) -> bool:
    return len(term.text) <= EXACT_TERM and term.text.isupper()


def _bounds(term: Term) -> int:
    """How a hit of `term` must be bounded: a short acronym or a number whole, a longer acronym by non-letters."""
    if _exact(term) or term.kind is TermKind.number:
        return WHOLE
    if len(term.text) <= SHORT_TERM and term.text.isascii() and term.text.isupper() and term.text.isalpha():
        return SEGMENT
    return 0


def _scan(haystack: AnyStr, key: AnyStr, limit: int, *, whole: int = 0) -> tuple[list[tuple[int, int]], bool]:
    out: list[tuple[int, int]] = []
    newline = _newline(haystack)
    find, rfind = haystack.find, haystack.rfind
    position = find(key)
    probes = 0
    while position != -1:
        if len(out) == limit:
            return out, True
        if whole and not _whole(haystack, position, len(key), whole):
            probes += 1
            if probes > _PROBES:
                return out, True
            position = find(key, position + 1)
            continue
        start = rfind(newline, 0, position) + 1
        out.append((start, position))
        next_line = find(newline, position + len(key))
        if next_line == -1:
            break
        position = find(key, next_line + 1)
    return out, False


_PROGRESS_TAIL = re.compile(r'(?:\[\s*\d{1,3}%\]|\b(?:PASSED|SKIPPED|ok))\s*$')
_FAILURE_WORDS = ('Error', 'error:', 'FAILED', 'FAIL:', 'Exception', 'fatal', 'FATAL', 'Traceback', 'panic')


def _line_hint(line: str) -> float:
    """A cheap first guess at what the line is: a per-test progress line counts less, a failure more, and a counter
    that counted nothing (`STAT evicted_active 0`, `errors: 0`) less than one that did."""
    if _PROGRESS_TAIL.search(line, max(0, len(line) - 24)) or ' ... skipped ' in line:
        return 0.4  # a test that passed, or was skipped (unittest prints why: `... skipped 'needs yaml'`)
    if any(word in line for word in _FAILURE_WORDS):
        return 1.3
    if _ZERO_VALUE.search(line, max(0, len(line) - 8)):
        return ZERO_VALUE
    return 1.0


_ZERO_VALUE = re.compile(r'[\s:=]0(?:\.0+)?\s*$')
ZERO_VALUE = 0.6
"""What a line ending in a zero value (a key's, a counter's) counts of what another line holding the same terms does."""


FORM_RARE = 2
"""Candidate lines at most that share a form for it to be an odd one: one or two lines unlike the rest."""
FORM_WEIGHT = 0.2
"""How much a line of an odd form gains among the lines holding the request's terms (a line of a shared form loses
this much times its form's share of them): where hundreds of `copying …` lines of a build name the package asked
about, the one warning that names it says more."""
_FORM_WORD = r'(?<![\w/.\-])([A-Za-z_]{2,}(?:-[A-Za-z0-9_]+)*)(?![\w/.\-])'
_FORM = re.compile(f'{_FORM_WORD}(?:.*?{_FORM_WORD})?')
"""The first two plain words of a line (`would reformat`, `warning no`): lines one statement printed share them."""
_FORM_SPAN = 48


def line_form(text: str, start: int, end: int) -> str:
    """The line's first two plain words within its first characters (`TIME-WAIT` is one): numbers, and words that are
    part of a path or a name (`src/requests`, `Field7`), vary from line to line of one form."""
    found = _FORM.search(text, start, min(end, start + _FORM_SPAN))
    return '' if found is None else ' '.join(word for word in found.groups() if word)


def _line_end(text: str, start: int) -> int:
    newline = text.find('\n', start)
    return len(text) if newline == -1 else newline


def whole_token(text: str, position: int, size: int) -> bool:
    """Whether the hit is a token of its own: no word character touches it, nor, for a hyphenated name (a flag,
    a package), a hyphen that goes on into another word (`--exclude` in `--exclude-backups`)."""
    # `isalnum() or == '_'` is what `\w` matches, at a fraction of a regex call's cost on this hot path.
    before = text[position - 1] if position > 0 else ' '
    if before.isalnum() or before == '_':
        return False
    end = position + size
    after = text[end] if end < len(text) else ' '
    if after.isalnum() or after == '_':
        return False
    if (after == '-' or before == '-') and '-' in text[position:end]:
        if after == '-' and _word_char(text[end + 1 : end + 2]):
            return False
        if before == '-' and position > 1 and _word_char(text[position - 2]):
            return False
    return True


def _word_char(char: str) -> bool:
    return char.isalnum() or char == '_'


DEFINED = 1.6
"""A hit where the name is defined (`def name`, `class Name`, a disassembler's `<name>:`, a documented
signature) counts this much more than one where it is used: a question about a name is about its definition."""
_DEFINING = re.compile(
    r'(?:\b(?:def|class|function|func|fn|sub|struct|enum|interface|trait|type|module|macro|const|let|var)|#define)'
    r'[ \t]+\**$'
)


DEFINITION_FORMS = (
    ('<', '>:'),
    ('def ', '('),
    ('class ', ''),
    ('function ', ''),
    ('func ', ''),
    ('fn ', ''),
    ('struct ', ''),
    ('#define ', ''),
)
"""How a definition of a name is written (before, after it): a disassembler's label, Python, JavaScript, Go,
Rust, C."""
DEFINED_NAMES = 2
"""Names too common to list whose definitions are looked for (the request's best two)."""
_NAME = re.compile(r'[a-z_][a-z0-9_]*')


def _definitions(folded: _Folded, terms: tuple[Term, ...], complete: list[bool]) -> list[tuple[int, int, int]]:
    """(term slot, line start, position of the name) of the lines defining a name the scan found on too many
    lines to list, for the request's first `DEFINED_NAMES` such names that look like code names."""
    common = [
        slot
        for slot, whole in enumerate(complete)
        if not whole and terms[slot].kind is TermKind.identifier and _NAME.fullmatch(terms[slot].key)
    ][:DEFINED_NAMES]
    if not common:
        return []
    forms = [(slot, before) for slot in common for before, _ in DEFINITION_FORMS]
    probes = [
        Term(f'{before}{terms[slot].text}{after}', f'{before}{terms[slot].key}{after}', TermKind.quoted, 1.0)
        for slot in common
        for before, after in DEFINITION_FORMS
    ]
    out: list[tuple[int, int, int]] = []
    for (slot, before), (hits, _) in zip(forms, folded.find_many(probes, DEFINITION_LINES), strict=True):
        out.extend((slot, start, position + len(before)) for start, position in hits)
    return out


DEFINITION_LINES = 4
"""Lines defining one name looked at, at most (an overloaded name, a label in two sections)."""


def _defined_at(text: str, start: int, end: int, position: int, size: int) -> bool:
    """Whether the hit at `position` (in the line `[start, end)`) is where a name is defined: after a defining
    keyword, as a disassembler's label (`<name>:`), or opening a line over lines indented deeper: as the whole
    heading of a record (`openssl:` over its fields), with `(` after it (a signature over its documentation:
    pydoc, `help()`) or as an option whole (one a manual or `--help` documents: `--retry <num>`,
    `-X, --exclude-from=FILE`; a path over its findings is a heading, not this)."""
    if _DEFINING.search(text, max(start, position - 24), position):
        return True
    after = position + size
    if text.startswith('>:', after):
        return True
    heading = text.startswith(':', after) and not text[after + 1 : end].strip()
    # A JSON key over its object or array (`"policy":{` on a line of its own), as `lined_json` lays one out.
    member = 3 <= end - after <= 4 and text[after:end] in MEMBER_OPENINGS  # measured first: no slice of a long line
    if heading or member or text.startswith('(', after):
        if text[start:position].strip(' \t') != ('"' if member else ''):
            return False
    elif not (
        text.startswith('-', position)
        and _OPTION_LEAD.fullmatch(text, start, position)
        and whole_token(text, position, size)
    ):
        return False
    following = text.find('\n', end + 1)
    body = text[end + 1 : following if following != -1 else len(text)]
    lead = text[start:position]
    indent = len(lead) - len(lead.lstrip(' \t'))
    return bool(body.strip()) and len(body) - len(body.lstrip(' \t')) > indent


MEMBER_OPENINGS = ('":{', '":[', '": {', '": [')
"""How a JSON key over its object or array ends its line (compact or pretty-printed)."""


_OPTION_LEAD = re.compile(r'[ \t]*(?:-\w(?: \S+)?, )?')
"""What may stand before an option where a manual or `--help` documents it: indentation, and its short form
(`-X, --exclude-from=FILE`)."""


_KEY_DELIMITERS = re.compile(r'[=:,|\t]| {2,}')


def _key_end(line: str) -> tuple[int, int]:
    """Where the line's first field lies (a key, a table's first column, a path before `:`)."""
    stripped = len(line) - len(line.lstrip(' \t"\'{'))
    delimiter = _KEY_DELIMITERS.search(line, stripped, stripped + 200)
    return stripped, len(line) if delimiter is None else delimiter.start()


def find_matches(
    text: str,
    intent: Intent,
    *,
    sample_lines: Iterable[str] = (),
    total_lines: int | None = None,
    weigh: Callable[[str], float] | None = None,
    utf8: bytes | None = None,
    whole_words: bool = False,
    names_run_together: bool = False,
) -> Matches:
    """Lines of `text` holding `intent`'s terms, best first.

    A line's score sums, over the distinct terms it holds, the term's weight times its rarity here
    (the share of lines holding it, from the scan, or from `sample_lines` for terms too common to
    scan whole), with a bonus for a whole-token hit and for a hit in the line's first field (a key,
    a table's first column). `weigh(line)` scales a line's score by what the caller's classifier says
    the line is (progress noise down, errors up); it sees only the best `MAX_CANDIDATES` lines.
    `utf8` is `text` as UTF-8 (`surrogatepass`) when the caller has it: a text outside ASCII is searched there.
    With `whole_words`, a request's word found only inside another word (`turn` in `Returning`) is no hit; with
    `names_run_together` (a dump of settings), one inside a line's key is as good as whole (`flags` in `ccflags`).
    """
    if not intent or not text:
        return Matches()
    lines_total = total_lines if total_lines is not None else newlines(text) + 1
    sample = [line.lower() for line in sample_lines]
    # A word to look past that most lines hold (`lint` in every `[..._linter]` finding) tells none of them apart: held
    # against all, it would leave the lines that are no findings on top.
    avoid = tuple(word for word in intent.avoid if sum(word in line for line in sample) * 2 <= len(sample))
    sampled = _sampled_counts(intent.terms, sample)
    priors = [_sample_prior(count, len(sample)) for count in sampled]
    order = sorted(range(len(intent.terms)), key=lambda i: -intent.terms[i].weight * priors[i])
    folded = _Folded(text, utf8)
    budget = max(1, SCAN_CHARS // max(1, len(text)))
    # One pass of a multi-literal engine looks for many terms at once: past the few searches a large text allows,
    # it also looks for terms the sampled lines do not hold (likely rare: few hits, little work each).
    rare_room = ENGINE_TERMS if usable('hyperscan') else 0
    per_term_limit = max(48, min(MAX_LINES_PER_TERM, HIT_CHARS // max(1, len(text))))
    scans = 0
    scanned: list[int] = []
    per_term: list[list[tuple[int, int]]] = []
    complete: list[bool] = []
    chosen_terms: list[int] = []
    # A compound several sampled lines hold is common: what to match, not its words (see `COMPOUND_LINES`).
    common = {term.key for term, count in zip(intent.terms, sampled, strict=True) if count >= COMPOUND_SAMPLED}
    for index in order:
        if priors[index] <= 0:
            continue  # on most sampled lines: it selects nothing
        if intent.terms[index].part_of in common:
            continue  # the compound itself is in the output: it is what to match, not its words
        cost = len(folded.spellings(intent.terms[index]))
        if scans + cost > budget:
            if len(chosen_terms) < rare_room and priors[index] >= 1.0:
                chosen_terms.append(index)  # in the engine's one pass: no search of its own
            continue
        scans += cost
        chosen_terms.append(index)
    found = folded.find_many([intent.terms[index] for index in chosen_terms], per_term_limit)
    # A compound on many lines is what the output calls the thing; on a few, its words may find the rest.
    whole_found = {
        intent.terms[index].key
        for index, (hits, more) in zip(chosen_terms, found, strict=True)
        if more or len(hits) >= COMPOUND_LINES
    }
    for index, (hits, more) in zip(chosen_terms, found, strict=True):
        if not hits or intent.terms[index].part_of in whole_found:
            continue
        scanned.append(index)
        per_term.append(hits)
        complete.append(not more)
    terms = tuple(intent.terms[i] for i in scanned)
    counts = tuple(len(hits) + (0 if whole else 1) for hits, whole in zip(per_term, complete, strict=True))
    rarity = [_rarity(count, lines_total) for count in counts]
    candidates: dict[int, dict[int, int]] = {}  # line start -> {term slot: first hit position}
    sources = [slot for slot, whole in enumerate(complete) if whole] or list(range(len(per_term)))
    for slot in sources:
        for start, position in per_term[slot]:
            candidates.setdefault(start, {}).setdefault(slot, position)
    # A name on too many lines to list (a function's label among every jump into it) is still looked for where
    # it is defined: those lines are what a question about the name wants.
    for slot, start, position in _definitions(folded, terms, complete):
        candidates.setdefault(start, {})[slot] = position
    if not candidates:
        return Matches(terms=terms, line_counts=counts, scanned=len(scanned))
    exact: dict[int, str] = {}
    for slot, hits in enumerate(per_term):
        position = hits[0][1]
        exact[slot] = text[position : position + len(terms[slot].key)]

    # Three passes, each on fewer lines and dearer per line: the scans' own score; then the line's text
    # (whole-token and first-field hits, per-test progress lines); then the caller's classifier.
    def rough_score(start: int) -> float:
        total = 0.0
        for slot, position in candidates[start].items():
            value = terms[slot].weight * rarity[slot]
            if whole_token(text, position, len(terms[slot].key)):
                value *= 1.5
            elif terms[slot].kind is TermKind.word and _inside_word(text, position):
                value *= INSIDE_WORD
            if position - start <= 4:
                value *= 1.4  # at the start of the line: a key, a first column
            total += value
        return total

    rough_scores = {start: rough_score(start) for start in candidates}
    rough = sorted(candidates, key=lambda start: (-rough_scores[start], start))
    chosen = dict.fromkeys(rough[:PRESELECTED])
    # Every term keeps a few lines in the running, however many lines the commoner terms hold: its first
    # `PER_TERM` in the scans' order, found in one walk down it.
    wanted = dict.fromkeys(sources, PER_TERM)
    for start in rough:
        if not wanted:
            break
        for slot in candidates[start]:
            left = wanted.get(slot)
            if left is not None:
                chosen[start] = None
                if left == 1:
                    del wanted[slot]
                else:
                    wanted[slot] = left - 1
    scored: list[tuple[int, int, float, int, dict[int, float]]] = []
    keyed: dict[int, tuple[str, str]] = {}  # line start -> (key, value), for lines a term matched in their key
    defining: set[int] = set()
    defined_rarity = _rarity(1, lines_total)
    ends = {start: _line_end(text, start) for start in chosen}
    forms = {start: line_form(text, start, end) for start, end in ends.items()}
    form_lines = Counter(forms.values())
    for start, end in ends.items():
        line = text[start:end]
        held = candidates[start]
        lowered = line.lower()
        for slot, whole in enumerate(complete):
            if not whole and slot not in held:
                offset = lowered.find(terms[slot].key)
                if offset != -1:
                    held[slot] = start + offset
        focus, best = start, -1.0
        key_end = _key_end(line)
        factor = _line_hint(line)
        sharing = form_lines[forms[start]]
        share = sharing / len(forms)
        factor *= (1 + FORM_WEIGHT * (1 - share)) if sharing <= FORM_RARE else (1 - FORM_WEIGHT * share)
        if avoid and any(word in lowered for word in avoid):
            factor *= AVOIDED  # what the request said to look past ("missing imports")
        if len(line) > LONG_LINE:
            # A term in a long line of prose (a package's description, a minified blob) says less about the
            # line than one in a short line, and the line costs its cut marker to show.
            factor /= 1.0 + math.log2(len(line) / LONG_LINE)
        values: dict[int, float] = {}
        for slot, position in held.items():
            term = terms[slot]
            # Where a name is defined, it is as rare as a name on one line, however many lines use it (a
            # function's label among the jumps into it): a question about a name is about its definition.
            defined = _defined_at(text, start, end, position, len(term.key))
            value = term.weight * (max(rarity[slot], defined_rarity) * DEFINED if defined else rarity[slot]) * factor
            if defined:
                defining.add(start)
            in_key = key_end[0] <= position - start < key_end[1]
            if whole_token(text, position, len(term.key)):
                value *= 1.5
            elif term.kind is TermKind.word and _inside_word(text, position):
                if whole_words:
                    continue
                if not (in_key and names_run_together):
                    value *= INSIDE_WORD  # a dump's key is its words run together: `flags` of `ccflags`
            if text.startswith(term.text, position) and (
                term.kind is not TermKind.word or whole_token(text, position, len(term.text))
            ):
                value *= 1.2  # spelled as asked: Py_ENABLE_SHARED over PY_ENABLE_SHARED; a word whole, as written
            if in_key:
                value *= 1.4  # a key, a first column
            if (
                _quoted_whole(text, position, len(term.key))
                or _whole_value(text, start, end, position, len(term.key))
                or _whole_cell(text, start, end, position, len(term.key))
            ):
                # The whole of a quoted value or key, a key's value (`Package: gdb`), a table cell: it names the thing.
                value *= 1.5
            values[slot] = value
            if value > best:
                focus, best = position, value
            if in_key and key_end[1] < len(line):
                keyed[start] = (lowered[key_end[0] : key_end[1]], line[key_end[1] :].strip(_VALUE_EDGES))
        for slot in list(values):
            # `contrib` inside `tqdm/contrib` is the same hit: the longer term speaks for both.
            key = terms[slot].key
            if any(other != slot and key in terms[other].key for other in values):
                del values[slot]
        for slot, other in _joined(held, values, terms):
            # Two words of the request written as one name (`trace exporter` as `trace_exporter`, `work mem` as
            # `work_mem`): the name the request spelled out in words.
            values[slot] *= JOINED
            values[other] *= JOINED
        if values:  # every hit it held was inside another word, in a report of names: it holds none
            scored.append((start, end, sum(values.values()), focus, values))
    scored = _odd_values_first(scored, keyed)
    scored.sort(key=lambda item: (-item[2], item[0]))
    finalists = scored[:MAX_CANDIDATES]
    for slot in sources:
        if not any(slot in item[4] for item in finalists):
            finalists.extend([item for item in scored if slot in item[4]][:2])
    if weigh is not None:
        finalists = [
            (start, end, total, focus, {slot: value * factor for slot, value in values.items()})
            for start, end, total, focus, values in finalists
            for factor in (weigh(text[start:end]),)
        ]
    hit_lines = tuple(tuple(start for start, _ in hits) for hits in per_term)
    hit_positions = tuple(tuple(position for _, position in hits) for hits in per_term)
    lines = _diverse(text, finalists, defining)
    return Matches(lines, terms, counts, len(scanned), exact, hit_lines, hit_positions)


ODD_GROUP = 5
"""Lines holding one key a request names, from which the odd values among them are told apart."""
ODD_VALUE = 1.3
"""How much more a line counts whose value for that key is found on one or two of them only, and at least as much
as the best of them: asked about a setting of twenty packages, the one that differs (`"requires_python": ">=3.11"`
among `">=3.9"`s) is the answer."""
ODD_LINES = 3
"""Lines at most that hold a key's odd values: more are the key's variety, not an exception to it."""
_VALUE_EDGES = ' \t=:,|"\'{}[]'


def _odd_values_first(
    scored: list[tuple[int, int, float, int, dict[int, float]]], keyed: dict[int, tuple[str, str]]
) -> list[tuple[int, int, float, int, dict[int, float]]]:
    """`scored` with the lines whose value is rare among the lines holding the same key raised by `ODD_VALUE`."""
    groups: dict[str, list[str]] = {}
    for key, value in keyed.values():
        groups.setdefault(key, []).append(value)
    odd: dict[str, set[str]] = {}
    for key, found in groups.items():
        if len(found) < ODD_GROUP:
            continue
        counts = Counter(found)
        if len(counts) < 2 or len(counts) > len(found) // 2:
            continue  # one value throughout, or values that mostly differ (times, sizes, names): none is odd
        rare = max(1, min(2, len(found) // 10))
        values = {value for value, count in counts.items() if count <= rare}
        if sum(counts[value] for value in values) <= ODD_LINES:
            odd[key] = values
    if not odd:
        return scored
    best: dict[str, float] = {}
    for start, _, total, _, _ in scored:
        pair = keyed.get(start)
        if pair is not None and pair[0] in odd:
            best[pair[0]] = max(best.get(pair[0], 0.0), total)
    out: list[tuple[int, int, float, int, dict[int, float]]] = []
    for start, end, total, focus, values in scored:
        pair = keyed.get(start)
        if pair is not None and pair[1] in odd.get(pair[0], ()) and total > 0:
            # As high as the best line of its key, whatever other terms that one holds besides.
            raised = max(total * ODD_VALUE, best[pair[0]])
            values = {slot: value * raised / total for slot, value in values.items()}
            total = raised
        out.append((start, end, total, focus, values))
    return out


_RULE_AT_END = re.compile(r'(?:\(([A-Za-z][\w.-]{2,60})\)|\[([A-Za-z][\w.-]{2,60})\])\s*$')
"""The rule a diagnostic names at its end: pyright's `(reportX)`, mypy's `[attr-defined]`."""
_RULE_AFTER_PLACE = re.compile(r':\d+:\d+:? ([A-Z]{1,4}\d{2,5})\b')
"""The rule a diagnostic names after its place: ruff's `path:line:col: PLW2901`."""


def _rule(line: str) -> str:
    end = line.rstrip()
    if end[-1:] in ')]' and (found := _RULE_AT_END.search(end, max(0, len(end) - 64))):
        return found.group(1) or found.group(2)
    found = _RULE_AFTER_PLACE.search(line, 0, 240) if ':' in line else None
    return found.group(1) if found else ''


def _diverse(
    text: str, scored: list[tuple[int, int, float, int, dict[int, float]]], defining: set[int]
) -> tuple[LineMatch, ...]:
    """Lines in the order a reader would want them: each next line the one adding most that is not shown yet.

    A term's value halves with each line already taken that holds it, so ten lines naming the same
    file do not crowd out the one line naming the other thing the model asked about. Gains only fall
    as lines are taken, so a heap re-scores a line only when it reaches the top (lazy greedy).
    """
    covered: dict[int, int] = {}
    rules = [_rule(text[start:end]) for start, end, _, _, _ in scored]
    held = [tuple(values.items()) for _, _, _, _, values in scored]
    shown_rules: dict[str, int] = {}
    heap = [(-total, start, index) for index, (start, _, total, _, _) in enumerate(scored)]
    heapq.heapify(heap)
    out: list[LineMatch] = []
    pop, push, seen = heapq.heappop, heapq.heappush, covered.get
    while heap and len(out) < RANKED:
        _, start, index = pop(heap)
        values = scored[index][4]
        gain = 0.0
        for slot, value in held[index]:
            gain += value / (1 + seen(slot, 0))
        # Diagnostics under a rule already shown say less than the first of another rule about the same file.
        gain /= 1 + RULE_REPEAT * shown_rules.get(rules[index], 0) if rules[index] else 1
        if heap and (-heap[0][0], -heap[0][1]) > (gain + 1e-9, -start):
            push(heap, (-gain, start, index))  # stale: another line now adds more
            continue
        for slot in values:
            covered[slot] = covered.get(slot, 0) + 1
        if rules[index]:
            shown_rules[rules[index]] = shown_rules.get(rules[index], 0) + 1
        out.append(LineMatch(start, scored[index][1], gain, scored[index][3], tuple(sorted(values)), start in defining))
    return tuple(out)


def _sampled_counts(terms: tuple[Term, ...], sample: list[str]) -> list[int]:
    """Per term, its occurrences in the sampled lines (lowered), counted once over the joined sample.

    Occurrences stand in for lines (a C-speed count): a term twice on one line is rare enough not to matter.
    """
    joined = '\n'.join(sample)
    return [joined.count(term.key) for term in terms] if sample else [0] * len(terms)


def _sample_prior(count: int, sampled_lines: int) -> float:
    """A term's prior from the sample: 1 when absent, near 0 when on half of the sampled lines or more."""
    if not sampled_lines:
        return 1.0
    share = min(count, sampled_lines) / sampled_lines
    return 0.0 if share >= 0.5 else 1.0 / (1.0 + 8.0 * share)


def _rarity(lines_holding: int, total_lines: int) -> float:
    """1 for a term on one line, falling as it spreads; near nothing on half the lines."""
    share = lines_holding / max(1, total_lines)
    if share >= 0.5:
        return 0.05
    return 1.0 / (1.0 + 8.0 * share) * (1.0 / (1.0 + 0.15 * math.log2(max(1, lines_holding))))
