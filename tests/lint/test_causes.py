"""Each way the first linter went wrong on real tool code, in both directions: flagged when wrong, silent when right.

Every case is a module of tools; a `# expect CODE` comment marks each return that must be flagged, and no
other line may be. The cases are shaped after tools in public agent projects (MCP servers, pydantic-ai
programs, tools of other frameworks), written here.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from observable_harness.lint import Finding, lint_paths, lint_source

HEADER = """\
import asyncio
import subprocess
from pathlib import Path

from pydantic_ai import Agent

agent = Agent('test')
"""


def expected(source: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for number, line in enumerate(source.splitlines(), start=1):
        if '# expect ' in line:
            found.extend((number, code) for code in line.split('# expect ', 1)[1].split()[0].split(','))
    return sorted(found)


def check(body: str) -> list[Finding]:
    source = HEADER + textwrap.dedent(body)
    findings = lint_source(source, 'tools.py')
    assert [(f.line, f.code) for f in findings] == expected(source), '\n'.join(map(str, findings))
    return findings


# ------------------------------------------------------------------------------ sources it did not model

GITPYTHON = """
import git

@agent.tool_plain
def diff_unstaged(repo_path: str) -> str:
    repo = git.Repo(repo_path)
    return repo.git.diff('--unified=3')  # expect BTO001

@agent.tool_plain
def show(repo_path: str, revision: str) -> str:
    commit = git.Repo(repo_path).commit(revision)
    parts = [f'Commit: {commit.hexsha}']
    for change in commit.parents[0].diff(commit, create_patch=True):
        parts.append(change.diff.decode())
    return ''.join(parts)  # expect BTO001

@agent.tool_plain
def diff_capped(repo_path: str) -> str:
    out = git.Repo(repo_path).git.diff()
    if len(out) > 8000:
        return out[:8000] + f'\\n[diff truncated: {len(out) - 8000} more characters; pass a path to narrow it]'
    return out

@agent.tool_plain
def commit(repo_path: str, message: str) -> str:
    made = git.Repo(repo_path).index.commit(message)
    return f'committed {made.hexsha}'
"""

CONTAINER = """
import docker

class Sandbox:
    def _container(self):
        return docker.from_env().containers.run('python:3.12', detach=True, tty=True)

    def run_in_container(self, code: str) -> str:
        result = self._container().exec_run(['python3', '-c', code])
        return result.output.decode()

    def run_tail(self, code: str) -> str:
        exit_code, output = self._container().exec_run(['python3', '-c', code])
        text = output.decode()
        return f'[exit {exit_code}; last 2000 of {len(text)} characters]\\n' + text[-2000:]

@agent.tool_plain
def run_python(code: str) -> str:
    return Sandbox().run_in_container(code)  # expect BTO001

@agent.tool_plain
def run_python_tail(code: str) -> str:
    return Sandbox().run_tail(code)
"""

CONVERTER = """
from markitdown import MarkItDown

class Loader:
    def __init__(self) -> None:
        self.converter = MarkItDown()

    def convert(self, path: str) -> str:
        return self.converter.convert(path).text_content

@agent.tool_plain
def to_markdown(uri: str) -> str:
    return MarkItDown().convert_uri(uri).markdown  # expect BTO002

@agent.tool_plain
def load(path: str) -> str:
    return Loader().convert(path)  # expect BTO002

@agent.tool_plain
def load_page(path: str, page: int = 0, size: int = 4000) -> str:
    text = Loader().convert(path)
    return text[page * size : (page + 1) * size]
"""

SELF_PROCESS = """
class Session:
    def start(self) -> None:
        self._process = subprocess.Popen(['bash'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, command: str) -> str:
        self._process.stdin.write(command + '\\n')
        output = self._process.stdout.read()
        return output

class Shell:
    def __init__(self) -> None:
        self.session = Session()

    def __call__(self, command: str) -> str:
        return self.session.run(command)

    def capped(self, command: str) -> str:
        out = self.session.run(command)
        return out[-3000:] + '\\n[output truncated to the last 3000 characters]'

shell = Shell()

@agent.tool_plain
def bash(command: str) -> str:
    return shell(command)  # expect BTO001

@agent.tool_plain
def bash_capped(command: str) -> str:
    return shell.capped(command)
"""


@pytest.mark.parametrize(
    'body', [GITPYTHON, CONTAINER, CONVERTER, SELF_PROCESS], ids=['git', 'container', 'converter', 'self']
)
def test_sources_beyond_subprocess(body: str) -> None:
    check(body)


def test_a_subprocess_behind_a_class_in_another_module(tmp_path: Path) -> None:
    (tmp_path / 'pkg').mkdir()
    (tmp_path / 'pkg' / 'process.py').write_text(
        textwrap.dedent(
            """
            import subprocess

            class BashProcess:
                def run(self, command: str) -> str:
                    return self._run(command)

                def _run(self, command: str) -> str:
                    try:
                        return subprocess.run(command, shell=True, capture_output=True, check=True).stdout.decode()
                    except subprocess.CalledProcessError as error:
                        return str(error)
            """
        )
    )
    (tmp_path / 'pkg' / 'tool.py').write_text(
        textwrap.dedent(
            """
            from typing import Any

            from pydantic import BaseModel, Field
            from pydantic_ai import FunctionToolset


            def _default_process() -> Any:
                from pkg.process import BashProcess
                return BashProcess()


            class ShellTool(BaseModel):
                process: Any = Field(default_factory=_default_process)

                def _run(self, commands: str) -> str:
                    return self.process.run(commands)


            toolset = FunctionToolset([ShellTool()._run])
            """
        )
    )
    [finding] = lint_paths([tmp_path])
    assert (Path(finding.path).name, finding.line, finding.code) == ('tool.py', 17, 'BTO001')
    assert finding.source == 'subprocess.run' and finding.source_path.endswith('process.py')
    assert 'process.py:10' in finding.message  # the command, where it runs, not only the return


# ------------------------------------------------------------------------------ known sources, other forms

FORMS = """
@agent.tool_plain
def read_utf8(path: str) -> str:
    return Path(path).read_text(encoding='utf-8')  # expect BTO002

@agent.tool_plain
def read_opened(path: str) -> str:
    read_path = Path(path)
    with read_path.open('r', encoding='utf-8') as handle:
        content = handle.read()
    return content  # expect BTO002

@agent.tool_plain
def run_bare(cmd: str):
    return subprocess.run(['bash', '-lc', cmd], capture_output=True)  # expect BTO001

@agent.tool_plain
def run_checked(cmd: str) -> str:
    try:
        return subprocess.check_output(cmd, shell=True, stderr=subprocess.STDOUT).decode()  # expect BTO001
    except subprocess.CalledProcessError as error:
        return error.output  # expect BTO001

@agent.tool_plain
def run_checked_quietly(cmd: str) -> str:
    try:
        subprocess.run(cmd, shell=True, check=True, capture_output=True)
    except subprocess.CalledProcessError as error:
        return f'failed: {error}'
    return 'ok'

@agent.tool_plain
def read_head(path: str) -> str:
    with Path(path).open() as handle:
        head = handle.read(2000)
    return head + '\\n[first 2000 characters shown; pass offset= for more]'

@agent.tool_plain
def exit_code(cmd: str) -> str:
    result = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    return f'exit code {result.returncode}'
"""


def test_known_sources_in_every_spelling() -> None:
    check(FORMS)


# ------------------------------------------------------------------------------ values through expressions

EXPRESSIONS = """
from dataclasses import dataclass

@dataclass
class Output:
    content: str

@agent.tool_plain
async def run_command(command: str) -> str:
    result = subprocess.run(command, shell=True, capture_output=True, text=True)
    return result.stdout or result.stderr  # expect BTO001

@agent.tool_plain
def read_page(path: str) -> Output:
    with open(path, encoding='utf-8') as handle:
        content = handle.read()
    return Output(content=content)  # expect BTO002

@agent.tool_plain
async def read_in_thread(path: str) -> str:
    def read_sync() -> str:
        with open(path) as handle:
            return handle.read()
    return await asyncio.to_thread(read_sync)  # expect BTO002

@agent.tool_plain
async def run_in_executor(command: str) -> dict[str, str]:
    loop = asyncio.get_running_loop()
    result = await loop.run_in_executor(None, lambda: subprocess.run(command, shell=True, capture_output=True))
    return {'stdout': result.stdout, 'stderr': result.stderr}  # expect BTO001

@agent.tool_plain
def read_lines(path: str, first: int = 1) -> str:
    with open(path) as handle:
        lines = [line for number, line in enumerate(handle, 1) if number >= first]
    return ''.join(lines)  # expect BTO002

@agent.tool_plain
def count_lines(path: str) -> str:
    with open(path) as handle:
        total = sum(1 for _ in handle)
    return f'{path}: {total} lines'

@agent.tool_plain
async def run_in_thread_capped(command: str) -> str:
    out = await asyncio.to_thread(lambda: subprocess.run(command, shell=True, capture_output=True, text=True).stdout)
    if len(out) > 5000:
        return out[:5000] + f'\\n[{len(out) - 5000} characters cut]'
    return out
"""


def test_values_followed_through_expressions() -> None:
    check(EXPRESSIONS)


# ------------------------------------------------------------------------------ guards on correct code

GUARDS = """
LIMIT = 10_000
MAX_BYTES = 200_000

@agent.tool_plain
def run_tests() -> str:
    out = subprocess.run(['pytest', '-q'], capture_output=True, text=True).stdout
    if len(out) <= LIMIT:
        return out
    return out[-LIMIT:] + f'\\n[showing the last {LIMIT} of {len(out)} characters]'

@agent.tool_plain
def build() -> str:
    out = subprocess.run(['make'], capture_output=True, text=True).stdout
    return out if len(out) <= 4000 else out[:4000] + '\\n... (truncated)'

@agent.tool_plain
def read_config(path: str) -> str:
    file = Path(path)
    if file.stat().st_size > MAX_BYTES:
        return f'{path} is too large ({file.stat().st_size} bytes); read it with read_range'
    return file.read_text()

@agent.tool_plain
def read_small(path: str) -> str:
    text = Path(path).read_text()
    if len(text) > MAX_BYTES:
        return 'file too long; use read_range instead'
    return text

@agent.tool_plain
def read_capped_in_place(path: str) -> str:
    text = Path(path).read_text()
    if len(text) > MAX_BYTES:
        text = text[:MAX_BYTES] + f'\\n[truncated: {len(text) - MAX_BYTES} more characters]'
    return text

@agent.tool_plain
def run_guarded_wrong_way() -> str:
    out = subprocess.run(['make'], capture_output=True, text=True).stdout
    if len(out) > LIMIT:
        return out  # expect BTO001
    return 'nothing to show'

@agent.tool_plain
def run_guard_on_another_value(command: str) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    if len(command) < 100:
        return out  # expect BTO001
    return 'command too long'
"""


def test_guards_that_bound_a_return() -> None:
    check(GUARDS)


# ------------------------------------------------------------------------------ markers

MARKERS = """
@agent.tool_plain
def read_range(path: str) -> str:
    lines = Path(path).read_text().splitlines()
    a, b, n = 1, min(200, len(lines)), len(lines)
    return '\\n'.join(lines[:200]) + f'\\n[lines {a}-{b} of {n}; use offset= to continue]'

@agent.tool_plain
def head(path: str) -> str:
    lines = Path(path).read_text().splitlines()
    print('truncating to 200 lines')
    return '\\n'.join(lines[:200])  # expect BTO003

@agent.tool_plain
def tail(path: str) -> str:
    '''The last lines of a log. Learn more in the docs: output is truncated.'''
    lines = Path(path).read_text().splitlines()
    return '\\n'.join(lines[-200:])  # expect BTO003

NOTE = '<response clipped: only part of the output is shown>'

@agent.tool_plain
def clipped(command: str) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    return out[:16000] + NOTE

@agent.tool_plain
def first_matches(pattern: str) -> str:
    out = subprocess.run(['grep', '-rn', pattern, '.'], capture_output=True, text=True).stdout
    return '\\n'.join(out.splitlines()[:50])  # expect BTO003

@agent.tool_plain
def tail_lines(command: str, tail: int = 100) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    return '\\n'.join(out.splitlines()[-tail:])
"""


def test_markers_that_reach_the_model() -> None:
    check(MARKERS)


# ------------------------------------------------------------------------------ what is not a bound

NOT_BOUNDS = """
SENTINEL = '<<exit>>'

@agent.tool_plain
def drop_header(command: str) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    return '\\n'.join(out.splitlines()[1:])  # expect BTO001

@agent.tool_plain
def until_sentinel(command: str) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    return out[: out.index(SENTINEL)]  # expect BTO001

@agent.tool_plain
def strip_newline(command: str) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    return out[:-1]  # expect BTO001

@agent.tool_plain
def one_branch(command: str, short: bool = False) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    if short:
        return out[:2000] + '\\n[truncated]'
    return out  # expect BTO001

def truncate_output(text: str) -> str:
    return text.strip()

@agent.tool_plain
def named_for_bounding(command: str) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    return truncate_output(out)  # expect BTO001

def clip(text: str, limit: int = 4000) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f'\\n[clipped {len(text) - limit} characters]'

@agent.tool_plain
def through_a_real_bound(command: str) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    return clip(out)
"""


def test_what_is_not_a_bound() -> None:
    check(NOT_BOUNDS)


# ------------------------------------------------------------------------------ ToolOutputLimits on the agent

LIMITED = """
from pydantic_ai.toolsets import FunctionToolset
from observable_harness import ToolOutputLimits

limited = Agent('test', capabilities=[ToolOutputLimits()])
plain = Agent('test')

@limited.tool_plain
def run_tests() -> str:
    return subprocess.run(['pytest'], capture_output=True, text=True).stdout

@plain.tool_plain
def run_build() -> str:
    return subprocess.run(['make'], capture_output=True, text=True).stdout  # expect BTO001

def read_log(path: str) -> str:
    return Path(path).read_text()

def read_other(path: str) -> str:
    return Path(path).read_text()  # expect BTO002

toolset = FunctionToolset([read_log])
also_limited = Agent('test', toolsets=[toolset], capabilities=[ToolOutputLimits(per_tool={})])
unlimited = Agent('test', tools=[read_other])
"""


def test_tools_of_an_agent_with_tool_output_limits_are_bounded() -> None:
    check(LIMITED)


# ------------------------------------------------------------------------------ how tools are found

REGISTRATION = """
from pydantic_ai import Tool
from langchain_core.tools import tool

def notify(function):
    return function

def _read_page(path: str) -> str:
    with open(path) as handle:
        return handle.read()  # expect BTO002

read_page = Tool(notify(_read_page))

@tool
def langchain_shell(command: str) -> str:
    return subprocess.getoutput(command)  # expect BTO001

class BaseTool:
    pass

class TerminalTool(BaseTool):
    def _run(self, command: str) -> str:
        result = subprocess.run(command, shell=True, capture_output=True, text=True)
        return result.stdout + result.stderr  # expect BTO001

def not_a_tool(command: str) -> str:
    return subprocess.getoutput(command)
"""


def test_tools_registered_in_other_ways() -> None:
    check(REGISTRATION)


def test_messages_name_the_source_and_never_an_internal_tag() -> None:
    [unbounded, unmarked] = check(
        """
        @agent.tool_plain
        def run_tests() -> str:
            proc = subprocess.run(['pytest'], capture_output=True, text=True)
            return proc.stdout  # expect BTO001

        @agent.tool_plain
        def head(path: str) -> str:
            text = Path(path).read_text()
            return text[:500]  # expect BTO003
        """
    )
    assert unbounded.message == 'run_tests(): output of subprocess.run (line 11) returned without a bound'
    assert (unbounded.source, unbounded.source_line, unbounded.function) == ('subprocess.run', 11, 'run_tests')
    assert unmarked.message == (
        'head(): contents from read_text (line 16) cut to a fixed size with nothing telling the model it was cut'
    )
    assert 'BTO-' not in unbounded.message + unmarked.message


# ------------------------------------------------------------------------------ cuts sized in a helper

HELPER_SIZES = """
def cap(text: str, limit: int = 4000) -> str:
    return text[:limit]

def cap_marked(text: str, limit: int = 4000) -> str:
    return text[:limit] + ('\\n[truncated]' if len(text) > limit else '')

def run(command: str, tail: int) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    return '\\n'.join(out.splitlines()[-tail:])

@agent.tool_plain
def build() -> str:
    out = subprocess.run(['make'], capture_output=True, text=True).stdout
    return cap(out)  # expect BTO003

@agent.tool_plain
def build_as_asked(limit: int = 2000) -> str:
    out = subprocess.run(['make'], capture_output=True, text=True).stdout
    return cap(out, limit)

@agent.tool_plain
def build_marked() -> str:
    out = subprocess.run(['make'], capture_output=True, text=True).stdout
    return cap_marked(out, 1000)

@agent.tool_plain
def tests_tail() -> str:
    return run('pytest -q', 40)  # expect BTO003

@agent.tool_plain
def tests_tail_as_asked(lines: int = 40) -> str:
    return run('pytest -q', tail=lines)
"""


def test_a_cut_sized_in_a_helper_is_judged_by_what_the_tool_passes() -> None:
    check(HELPER_SIZES)


COUNTS = """
@agent.tool_plain
def search(pattern: str, path: str) -> str:
    matches = []
    with open(path) as handle:
        for number, line in enumerate(handle, 1):
            if pattern in line:
                matches.append(f'{path}:{number}: {line.strip()}')
                if len(matches) >= 100:
                    matches.append('... (truncated)')
                    return '\\n'.join(matches)
    return '\\n'.join(matches) if matches else 'No matches found.'

@agent.tool_plain
def search_silently(pattern: str, path: str) -> str:
    matches = []
    with open(path) as handle:
        for line in handle:
            if pattern in line:
                matches.append(line)
                if len(matches) >= 100:
                    return ''.join(matches)  # expect BTO003
    return ''.join(matches)

@agent.tool_plain
def first_lines(command: str) -> str:
    shown = []
    for line in subprocess.run(command, shell=True, capture_output=True, text=True).stdout.splitlines():
        if len(shown) < 50:
            shown.append(line)
    return '\\n'.join(shown)  # expect BTO003

@agent.tool_plain
def collected(command: str) -> str:
    out = ''
    for line in subprocess.run(command, shell=True, capture_output=True, text=True).stdout.splitlines():
        out += line
        if len(out) > 10_000:
            return out  # expect BTO001
    return out  # at most 10,000 characters and a line: the guard above left otherwise
"""


def test_a_count_on_what_is_collected_bounds_it() -> None:
    check(COUNTS)


# ------------------------------------------------------------------------------ small parts and self-cutting commands

PARTS = """
import itertools
import re

@agent.tool_plain
def last_line(command: str) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    return out.strip().splitlines()[-1]

@agent.tool_plain
def version() -> str:
    out = subprocess.run(['python', '--version'], capture_output=True, text=True).stdout
    match = re.search(r'(\\\\d+\\\\.\\\\d+)', out)
    return match.group(1) if match else 'unknown'

@agent.tool_plain
def stdout_of(command: str) -> str:
    return subprocess.Popen(command, shell=True, stdout=subprocess.PIPE, text=True).communicate()[0]  # expect BTO001

@agent.tool_plain
def first_lines(path: str) -> str:
    with open(path) as handle:
        return ''.join(itertools.islice(handle, 100))  # expect BTO003

@agent.tool_plain
def first_lines_marked(path: str, count: int = 100) -> str:
    with open(path) as handle:
        return ''.join(itertools.islice(handle, count))

@agent.tool_plain
def log_tail(service: str) -> str:
    proc = subprocess.run(f'journalctl -u {service} | tail -n 200', shell=True, capture_output=True, text=True)
    return proc.stdout  # expect BTO003

@agent.tool_plain
def log_tail_as_asked(service: str, lines: int = 50) -> str:
    return subprocess.run(['tail', '-n', str(lines), f'/var/log/{service}.log'], capture_output=True, text=True).stdout

@agent.tool_plain
def log_whole(service: str) -> str:
    proc = subprocess.run(f'journalctl -u {service} | grep -v debug', shell=True, capture_output=True, text=True)
    return proc.stdout  # expect BTO001
"""


def test_small_parts_and_commands_that_cut_their_own_output() -> None:
    check(PARTS)


# ------------------------------------------------------------------------------ output handed to something else

HANDED_ON = """
import base64
import csv
import html
import json
import re

import requests
from openai import OpenAI
from pydantic_ai import BinaryContent

ANSI = re.compile(r'\\\\x1b\\\\[[0-9;]*m')

@agent.tool_plain
def transcribe(path: str) -> str:
    with open(path, 'rb') as audio:
        return OpenAI().audio.transcriptions.create(model='whisper-1', file=audio, response_format='text')

@agent.tool_plain
def parse_remotely(path: str) -> str:
    with open(path, 'rb') as document:
        response = requests.post('https://parser.invalid/parse', files={'file': document})
    return json.dumps(response.json())

@agent.tool_plain
def screenshot(path: str) -> BinaryContent:
    return BinaryContent(data=Path(path).read_bytes(), media_type='image/png')

@agent.tool_plain
def columns(path: str) -> str:
    with open(path, newline='') as handle:
        return json.dumps(csv.DictReader(handle).fieldnames)

@agent.tool_plain
def header(path: str) -> str:
    with open(path) as handle:
        return next(handle)

@agent.tool_plain
def rows(path: str) -> str:
    with open(path, newline='') as handle:
        return json.dumps([row for row in csv.DictReader(handle)])  # expect BTO002

@agent.tool_plain
def clean_log(command: str) -> str:
    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout
    return html.escape(ANSI.sub('', out))  # expect BTO001

@agent.tool_plain
def encoded(path: str) -> str:
    return base64.b64encode(Path(path).read_bytes()).decode()  # expect BTO002
"""


def test_output_handed_to_an_api_or_a_media_part_is_not_returned() -> None:
    check(HANDED_ON)


PARSED = """
import json

@agent.tool_plain
def python_version() -> str:
    out = subprocess.run(['pyright', '--outputjson'], capture_output=True, text=True).stdout
    report = json.loads(out)
    return f"{report['version']}: {report.get('summary')}"

@agent.tool_plain
def diagnostics() -> str:
    out = subprocess.run(['pyright', '--outputjson'], capture_output=True, text=True).stdout
    return json.dumps(json.loads(out), indent=2)  # expect BTO001

@agent.tool_plain
def settings(path: str, key: str) -> str:
    with open(path) as handle:
        data = json.load(handle)
    return json.dumps(data[key])  # expect BTO002
"""


def test_one_field_of_parsed_output_is_a_small_part() -> None:
    check(PARSED)


WINDOWS = """
@agent.tool_plain
def read_window(path: str, offset: int = 0, limit: int = 0) -> str:
    lines = Path(path).read_text().splitlines()
    total = len(lines)
    end = offset + limit if limit > 0 else total
    return f'lines {offset + 1}-{end} of {total}\\n' + '\\n'.join(lines[offset:end])  # expect BTO002

@agent.tool_plain
def read_until(path: str, start: int = 0, end: int | None = None) -> str:
    lines = Path(path).read_text().splitlines()
    return '\\n'.join(lines[start : end or len(lines)])  # expect BTO002

@agent.tool_plain
def read_page(path: str, offset: int = 0, limit: int = 200) -> str:
    lines = Path(path).read_text().splitlines()
    end = min(len(lines), offset + limit)
    return '\\n'.join(lines[offset:end])
"""


def test_a_window_that_may_reach_the_end_is_not_a_cap() -> None:
    check(WINDOWS)
