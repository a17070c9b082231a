"""The read guard: refuse an expensive read before it runs, and say what to use instead.

Truncating, filtering and offloading all change what the agent judges by, after the fact. A refusal
changes nothing: the call either runs whole or does not run, and an agent tells "I got nothing" apart
from "I got everything" far more reliably than it tells a cut picture from a whole one. It also moves
the decision of what exactly is needed to where it is made deliberately: the agent has to name a
range or a query instead of "show me everything".

A refusal breaks a step rather than degrading it, so it always comes with the way around it: an
addressed read of the same tool (offset and limit), a search, the end of the file. Addressed reads
pass untouched.
"""

from __future__ import annotations

import glob
import logging
import os
import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import SkipToolExecution
from pydantic_ai.messages import ToolCallPart
from pydantic_ai.tools import AgentDepsT, RunContext, ToolDefinition

from . import _telemetry as telemetry
from ._decision import GuardDecision

__all__ = ['GuardDecision', 'ReadGuard', 'ReadTool', 'ShellTool']

_COUNT_CHUNK = 1 << 16
_MAX_BYTES_COUNTED = 8 << 20
"""Counting stops here: a file this large that is still under the line limit has enormous lines."""

_DUMPERS = frozenset({'cat', 'tac', 'nl', 'bat', 'batcat', 'less', 'more', 'type', 'Get-Content', 'gc'})
_BOUNDING_FILTERS = frozenset({'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'wc', 'awk', 'sed', 'jq'})
_SEPARATORS = frozenset({';', '&&', '||', '&', '\n', '(', ')', '{', '}', '`'})
"""Between commands: lists, and the edges of subshells, groups and command substitutions (their output
reaches the model like any other command's)."""
_WRAPPERS: dict[str, frozenset[str]] = {
    'sudo': frozenset({'-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U'}),
    'doas': frozenset({'-u', '-C'}),
    'env': frozenset({'-u', '-C', '--unset', '--chdir'}),
    'nice': frozenset({'-n', '--adjustment'}),
    'stdbuf': frozenset({'-i', '-o', '-e'}),
    'timeout': frozenset({'-k', '-s', '--kill-after', '--signal'}),
    'command': frozenset(),
    'builtin': frozenset(),
    'exec': frozenset({'-a'}),
    'nohup': frozenset(),
    'time': frozenset({'-f', '-o'}),
}
"""Programs that run the rest of their command line (`sudo cat f` prints f as `cat f` does), with their
options that take a separate value."""
_SHELLS = frozenset({'sh', 'bash', 'dash', 'zsh', 'ksh'})
_ASSIGNMENT = re.compile(r'[A-Za-z_][A-Za-z0-9_]*=')
_REDIRECTS = frozenset({'>', '>>', '&>', '>|', '1>', '2>'})


@dataclass(frozen=True)
class ReadTool:
    """A file-reading tool the guard watches, and the names of its arguments.

    ```python
    from observable_harness.bounded import ReadTool

    ReadTool('read_file', path_arg='file_path', offset_args=('start_line',), limit_args=('num_lines',))
    ```
    """

    tool: str
    """The tool's name as the model calls it."""
    path_arg: str = 'path'
    """The argument holding the file's path."""
    offset_args: tuple[str, ...] = ('offset', 'start', 'start_line', 'line_start', 'from_line')
    """Arguments that give the first line to read (whichever the tool has)."""
    limit_args: tuple[str, ...] = ('limit', 'max_lines', 'num_lines', 'line_count', 'count', 'lines')
    """Arguments that give how many lines to read."""
    end_args: tuple[str, ...] = ('end_line', 'line_end', 'to_line', 'end')
    """Arguments that give the last line to read (a range instead of a count)."""

    def __post_init__(self) -> None:
        if not (self.limit_args or self.end_args):
            raise ValueError(
                f'ReadTool({self.tool!r}) needs limit_args or end_args: the guard refuses whole-file reads by '
                'pointing at addressed reads of the same tool, and a tool without them leaves the agent at a wall.'
            )


@dataclass(frozen=True)
class ShellTool:
    """A shell tool the guard watches: commands that print whole files (`cat big.log`) are refused.

    ```python
    from observable_harness.bounded import ShellTool

    ShellTool('bash', command_arg='cmd', cwd_arg='workdir')
    ```
    """

    tool: str
    command_arg: str = 'command'
    """The argument holding the command line."""
    cwd_arg: str | None = 'cwd'
    """The argument holding the working directory, if the tool has one; relative paths resolve there."""


_ALLOW_NOT_A_FILE = GuardDecision(False, 'not_a_file')
_log = logging.getLogger('observable_harness.bounded')


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip('+-').isdigit():
        return int(value)
    return None


def _first_given(args: Mapping[str, Any], names: Iterable[str]) -> tuple[str, Any] | None:
    for name in names:
        if args.get(name) is not None:
            return name, args[name]
    return None


def count_lines(path: Path, stop_after: int) -> tuple[int, bool]:
    """(lines, exact): stops once `stop_after` is passed or `_MAX_BYTES_COUNTED` read, so refusing is cheap."""
    lines = 0
    read = 0
    last = b''
    with path.open('rb') as handle:
        while chunk := handle.read(_COUNT_CHUNK):
            lines += chunk.count(b'\n')
            read += len(chunk)
            last = chunk[-1:]
            if lines > stop_after or read >= _MAX_BYTES_COUNTED:
                return lines, False
    return lines + (1 if last and last != b'\n' else 0), True


def _about(lines: int, exact: bool) -> str:
    return f'{lines:,} lines' if exact else f'over {lines:,} lines'


@dataclass
class ReadGuard(AbstractCapability[AgentDepsT]):
    """Refuse whole-file reads longer than `max_lines` lines, and shell commands that dump such files.

    Runs before the tool (`before_tool_execute`): a refused call does not run at all, and the model
    gets, as the tool's result, what it asked for, why it was refused and the call to make instead.
    Addressed reads (an offset and a limit, or a range) pass untouched. Every decision is a
    `bounded.guard` span; refusals are counted by tool and reason.

    A refusal is returned as the tool's result (`SkipToolExecution`) rather than as a retry request:
    a retry spends the tool's retry budget, and a model that insists twice would fail the run.

    ```python
    from pydantic_ai import Agent

    from observable_harness.read_guard import ReadGuard, ReadTool, ShellTool

    agent = Agent(
        'test',
        capabilities=[ReadGuard(read_tools=[ReadTool('read_file')], shell_tools=[ShellTool('bash')], max_lines=400)],
    )
    ```
    """

    read_tools: Sequence[ReadTool | str] = ()
    """File-reading tools to guard (a name uses `ReadTool`'s default argument names)."""

    shell_tools: Sequence[ShellTool | str] = ()
    """Shell tools to guard against `cat`-style dumps of long files."""

    max_lines: int = 400
    """Longest whole-file read allowed: beyond it a read fills the window instead of answering."""

    root: str | Path | None = None
    """Where relative paths resolve (the tools' working directory); `None` is the process's."""

    suggest: str | None = None
    """One more way around a refusal, appended to every message (e.g. "or search with find_symbol(name=...)")."""

    _read: dict[str, ReadTool] = field(init=False, repr=False, compare=False)
    _shell: dict[str, ShellTool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.max_lines < 1:
            raise ValueError(f'ReadGuard.max_lines must be at least 1; got {self.max_lines}.')
        self._read = {tool.tool: tool for tool in (ReadTool(t) if isinstance(t, str) else t for t in self.read_tools)}
        self._shell = {
            tool.tool: tool for tool in (ShellTool(t) if isinstance(t, str) else t for t in self.shell_tools)
        }
        if not self._read and not self._shell:
            raise ValueError('ReadGuard needs read_tools or shell_tools to guard; with neither it guards nothing.')

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # tool descriptions are objects, not spec values

    async def before_tool_execute(
        self,
        ctx: RunContext[AgentDepsT],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: dict[str, Any],
    ) -> dict[str, Any]:
        name = call.tool_name
        if name not in self._read and name not in self._shell:
            return args
        with telemetry.guard_span(name, call.tool_call_id) as record:
            decision = self.decide(name, args)
            record(decision)
        if decision.refused:
            raise SkipToolExecution(decision.message)
        return args

    # --- decisions -----------------------------------------------------------------------------

    def decide(self, tool: str, args: Mapping[str, Any]) -> GuardDecision:
        """The decision for a call of `tool` with `args` (pure apart from reading the file's length).

        Never raises: arguments the guard cannot judge (a `~user` that does not exist, say) let the call
        run, as if unguarded, with the reason `unjudged`.
        """
        try:
            if tool in self._read:
                return self._decide_read(self._read[tool], args)
            if tool in self._shell:
                return self._decide_shell(self._shell[tool], args)
        except Exception as error:
            # The arguments are the model's and may hold anything, secrets included: the type name only.
            _log.warning(
                'observable_harness: ReadGuard could not judge a %s call (%s); it runs', tool, type(error).__name__
            )
            return GuardDecision(False, 'unjudged')
        return GuardDecision(False, 'not_guarded')

    def _base(self, cwd: Any = None) -> Path:
        base = Path(self.root) if self.root is not None else Path.cwd()
        if isinstance(cwd, str) and cwd:
            base = base / Path(cwd).expanduser()
        return base

    def _resolve(self, raw: str, base: Path) -> Path:
        path = Path(raw).expanduser()
        return path if path.is_absolute() else base / path

    def _decide_read(self, tool: ReadTool, args: Mapping[str, Any]) -> GuardDecision:
        raw = args.get(tool.path_arg)
        if not isinstance(raw, str) or not raw:
            return _ALLOW_NOT_A_FILE
        path = self._resolve(raw, self._base())
        offset_arg = _first_given(args, tool.offset_args)
        limit_arg = _first_given(args, tool.limit_args)
        end_arg = _first_given(args, tool.end_args)
        offset = _int(offset_arg[1]) if offset_arg else None
        span: int | None = None
        if limit_arg is not None:
            span = _int(limit_arg[1])
        elif end_arg is not None:
            end = _int(end_arg[1])
            span = None if end is None else end - (offset or 0)
        if (limit_arg or end_arg) and span is not None and span <= self.max_lines:
            return GuardDecision(False, 'addressed')
        try:
            if not path.is_file():
                return _ALLOW_NOT_A_FILE
            lines, exact = count_lines(path, self.max_lines + max(offset or 0, 0))
        except OSError:
            return _ALLOW_NOT_A_FILE  # the tool itself reports what is wrong with the path
        remaining = lines - max(offset or 0, 0)
        if remaining <= self.max_lines:
            return GuardDecision(False, 'addressed' if (limit_arg or end_arg or offset_arg) else 'small_file', lines)
        if limit_arg or end_arg:
            reason, what = 'range_over_limit', f'a range of {span:,} lines' if span is not None else 'an open range'
        else:
            reason, what = 'whole_file_read', f'all of {raw!r} ({_about(remaining, exact)})'
        message = (
            f'Refused: {tool.tool} would return {what}, over the {self.max_lines:,}-line limit for one read; '
            f'nothing was read. Read it in pages instead: {self._read_call(tool, raw, 0)}, then offset '
            f'{self._page():,} and so on; or search it first for what you need.{self._suggest()}'
        )
        return GuardDecision(True, reason, remaining, message)

    def _page(self) -> int:
        return min(200, self.max_lines)

    def _read_call(self, tool: ReadTool, raw: str, offset: int) -> str:
        args = [f'{tool.path_arg}={raw!r}']
        if tool.offset_args:
            args.append(f'{tool.offset_args[0]}={offset}')
        if tool.limit_args:
            args.append(f'{tool.limit_args[0]}={self._page()}')
        else:
            args.append(f'{tool.end_args[0]}={offset + self._page()}')
        return f'{tool.tool}({", ".join(args)})'

    def _suggest(self) -> str:
        return f' {self.suggest}' if self.suggest else ''

    def _decide_shell(self, tool: ShellTool, args: Mapping[str, Any]) -> GuardDecision:
        command = args.get(tool.command_arg)
        if not isinstance(command, str) or not command.strip():
            return GuardDecision(False, 'no_dump')
        base = self._base(args.get(tool.cwd_arg) if tool.cwd_arg else None)
        try:
            dumps = list(_dumps(command, base, self.max_lines))
        except ValueError:
            return GuardDecision(False, 'unparsed')  # what cannot be read cannot be judged: let it run
        for raw, path, wanted in dumps:
            try:
                if not path.is_file():
                    continue
                # Whether more than `max_lines` would print is all that matters: stop counting there.
                lines, exact = count_lines(path, self.max_lines)
            except OSError:
                continue
            printed = lines if wanted is None else min(lines, wanted)
            if printed > self.max_lines:
                shown = _about(printed, exact or (wanted is not None and wanted <= lines))
                quoted = shlex.quote(raw)
                alternatives = [
                    f"grep -n 'PATTERN' {quoted} to search",
                    f"sed -n '1,{self._page()}p' {quoted} to page",
                    f'tail -n 100 {quoted} for the end',
                ]
                if self._read:
                    read_tool = next(iter(self._read.values()))
                    alternatives.append(f'or {self._read_call(read_tool, raw, 0)}')
                message = (
                    f'Refused: this command would print {shown} of {raw}, over the {self.max_lines:,}-line limit '
                    f'for one command; nothing was run. Instead: {"; ".join(alternatives)}.{self._suggest()}'
                )
                return GuardDecision(True, 'shell_dump', printed, message)
        return GuardDecision(False, 'no_dump')


def _tokens(command: str) -> list[str]:
    # Backquotes are spaced out first: shlex keeps `` `cat `` as one word otherwise (it splits `$(` itself).
    spaced = command.replace('\n', ' ; ').replace('`', ' ` ')
    lexer = shlex.shlex(spaced, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return list(lexer)


def _unwrap(stage: list[str]) -> tuple[list[str], str | None]:
    """The command a stage really runs, past variable assignments and wrappers (`LC_ALL=C sudo -u app cat f`),
    and the script of `sh -c '...'` when that is what it runs."""
    position = 0
    while position < len(stage):
        word = stage[position]
        name = os.path.basename(word)
        if _ASSIGNMENT.match(word):
            position += 1
        elif name in _WRAPPERS:
            with_values = _WRAPPERS[name]
            position += 1
            while position < len(stage) and (stage[position].startswith('-') or _ASSIGNMENT.match(stage[position])):
                position += 2 if stage[position] in with_values else 1
            if name == 'timeout' and position < len(stage):
                position += 1  # its duration
        else:
            break
    command = stage[position:]
    if command and os.path.basename(command[0]) in _SHELLS:
        for index, word in enumerate(command[1:-1], start=1):
            if word.startswith('-') and 'c' in word[1:] and not word.startswith('--'):
                return command, command[index + 1]
    return command, None


def _pipelines(tokens: list[str]) -> Iterable[list[list[str]]]:
    pipeline: list[list[str]] = [[]]
    for word in tokens:
        if word in _SEPARATORS:
            yield pipeline
            pipeline = [[]]
        elif word == '|':
            pipeline.append([])
        else:
            pipeline[-1].append(word)
    yield pipeline


def _count_option(stage: list[str]) -> int | None:
    """The N of `head -n N` / `tail -n N` / `head -N` (None when absent); `tail -n +K` is unbounded."""
    for position, token in enumerate(stage[1:], start=1):
        value: str | None = None
        if token in ('-n', '--lines') and position + 1 < len(stage):
            value = stage[position + 1]
        elif token.startswith('--lines='):
            value = token.split('=', 1)[1]
        elif token.startswith('-n') and len(token) > 2:
            value = token[2:]
        elif token[1:].isdigit() and token.startswith('-'):
            value = token[1:]
        if value is not None:
            if value.startswith('+'):
                return None if value[1:] in ('', '0', '1') else -1
            return int(value) if value.isdigit() else 10
    return 10


def _file_args(stage: list[str]) -> list[str]:
    files: list[str] = []
    skip_next = False
    for word in stage[1:]:
        if skip_next:
            skip_next = False
            continue
        if word in _REDIRECTS or word == '<':
            skip_next = True
            continue
        if word.startswith('-') or '$' in word or '`' in word:
            continue
        files.append(word)
    return files


def _expand(raw: str, base: Path) -> list[tuple[str, Path]]:
    path = Path(raw).expanduser()
    absolute = path if path.is_absolute() else base / path
    if any(char in raw for char in '*?['):
        return [
            (os.path.relpath(match, base) if not path.is_absolute() else match, Path(match))
            for match in sorted(glob.glob(str(absolute)))
        ]
    return [(raw, absolute)]


_SUBSTITUTION = re.compile(r'\$\(([^()]*)\)|`([^`]*)`')
_MAX_SCRIPT_DEPTH = 4
"""`sh -c` inside `sh -c` (or a substitution inside one) is followed this deep."""


def _dumps(command: str, base: Path, max_lines: int, depth: int = 0) -> Iterable[tuple[str, Path, int | None]]:
    """(as written, path, lines asked for or None for all) of each file the command prints to the model."""
    cwd = base
    if depth < _MAX_SCRIPT_DEPTH:
        # Substitutions print into the command line, quoted or not (`echo "$(cat f)"`): each innermost one
        # is judged as a command of its own.
        for found in _SUBSTITUTION.finditer(command):
            yield from _dumps(found.group(1) or found.group(2) or '', cwd, max_lines, depth + 1)
    for pipeline in _pipelines(_tokens(command)):
        unwrapped = [found for stage in pipeline if (found := _unwrap(stage))[0]]
        if not unwrapped:
            continue
        stages = [words for words, _ in unwrapped]
        first, script = unwrapped[0]
        program = os.path.basename(first[0])
        if program == 'cd' and len(stages) == 1:
            if len(first) > 1:
                cwd = cwd / Path(first[1]).expanduser()
            continue
        if any(token in _REDIRECTS for token in stages[-1]):
            continue  # the output goes to a file, not to the model
        if any(os.path.basename(stage[0]) in _BOUNDING_FILTERS for stage in stages[1:]):
            continue  # a later filter bounds what reaches the model
        if script is not None:
            if depth < _MAX_SCRIPT_DEPTH:
                yield from _dumps(script, cwd, max_lines, depth + 1)
            continue
        wanted: int | None
        if program in _DUMPERS:
            wanted = None
        elif program in ('head', 'tail'):
            count = _count_option(first)
            if count is not None and 0 <= count <= max_lines:
                continue
            wanted = None if count is None or count < 0 else count
        else:
            continue
        for raw in _file_args(first):
            for shown, path in _expand(raw, cwd):
                yield shown, path, wanted
