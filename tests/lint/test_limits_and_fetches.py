"""Limits whose presence decides a cut, tuples returned by helpers, and web pages fetched for the model.

Each case is a module of tools in both directions, shaped after tools in public agent projects and written
here: a `# expect CODE` comment marks each return that must be flagged, and no other line may be.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from observable_harness.lint import lint_paths, lint_source

HEADER = """\
import subprocess
from pathlib import Path

from pydantic_ai import Agent, FunctionToolset, RunContext

agent = Agent('test')
MAX_CHARS = 16_000
NOTE = '<response clipped: only part of the output is shown>'


def make() -> str:
    return subprocess.run(['make'], capture_output=True, text=True).stdout
"""


def expected(source: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for number, line in enumerate(source.splitlines(), start=1):
        if '# expect ' in line:
            found.extend((number, code) for code in line.split('# expect ', 1)[1].split()[0].split(','))
    return sorted(found)


def check(body: str) -> None:
    source = HEADER + textwrap.dedent(body)
    findings = lint_source(source, 'tools.py')
    assert [(f.line, f.code) for f in findings] == expected(source), '\n'.join(map(str, findings))


# ------------------------------------------------------------------------------ guards joined by and/or

JOINED_GUARDS = """
@agent.tool_plain
def build_or_guard() -> str:
    out = make()
    if not out or len(out) <= MAX_CHARS:
        return out
    return out[:MAX_CHARS] + NOTE

@agent.tool_plain
def read_and_guard(path: str, force: bool = False) -> str:
    text = Path(path).read_text()
    if len(text) < MAX_CHARS and not force:
        return text
    return text[:MAX_CHARS] + NOTE

@agent.tool_plain
def read_or_force(path: str, force: bool = False) -> str:
    text = Path(path).read_text()
    if force or len(text) < MAX_CHARS:
        return text  # expect BTO002
    return text[:MAX_CHARS] + NOTE

@agent.tool_plain
def build_negated() -> str:
    out = make()
    if not len(out) > MAX_CHARS:
        return out
    return out[:MAX_CHARS] + NOTE

@agent.tool_plain
def build_guard_variable() -> str:
    out = make()
    too_big = len(out) > MAX_CHARS
    if too_big:
        out = out[:MAX_CHARS] + NOTE
    return out

@agent.tool_plain
def build_guard_variable_unmarked() -> str:
    out = make()
    cut = len(out) > MAX_CHARS
    if cut:
        out = out[-MAX_CHARS:]
    return out  # expect BTO003

@agent.tool_plain
def log_tail(limit: int | None = None) -> str:
    out = make()
    if limit is None or len(out) <= limit:
        return out  # expect BTO001
    return out[-limit:]

@agent.tool_plain
def log_tail_asked(limit: int | None = 200) -> str:
    out = make()
    if limit is None or len(out) <= limit:
        return out
    return out[-limit:]

@agent.tool_plain
def read_window(path: str, start: int = 0) -> str:
    lines = Path(path).read_text().splitlines()
    end = min(len(lines), start + 200)
    more = f'\\n[lines {start + 1}-{end} of {len(lines)}; use start= to continue]' if end < len(lines) else ''
    return '\\n'.join(lines[start:end]) + more

@agent.tool_plain
def read_head(path: str) -> str:
    lines = Path(path).read_text().splitlines()
    count = min(len(lines), 200)
    return '\\n'.join(lines[:count])  # expect BTO003


class Reader:
    def __init__(self, max_chars: int | None = 50_000) -> None:
        self.max_chars = max_chars

    def read(self, path: str) -> str:
        text = Path(path).read_text()
        if self.max_chars is not None and len(text) > self.max_chars:
            text = text[: self.max_chars] + '\\n\\n[Content truncated]'
        return text


readers = FunctionToolset([Reader().read])
"""


def test_guards_joined_by_and_or_followed_path_by_path() -> None:
    check(JOINED_GUARDS)


# ------------------------------------------------------------------------------ what a call passes for a limit

HELPER_LIMITS = """
def maybe_truncate(content: str, truncate_after: int | None = MAX_CHARS) -> str:
    return content if not truncate_after or len(content) <= truncate_after else content[:truncate_after] + NOTE


def clip(text: str, limit: int | None = None) -> str:
    if limit is None:
        return text
    if len(text) <= limit:
        return text
    return text[:limit] + f'\\n[{len(text) - limit} more characters cut]'


def head(text: str, limit: int | None = None) -> str:
    return text[:limit]


@agent.tool_plain
def build_default() -> str:
    return maybe_truncate(make())

@agent.tool_plain
def build_none() -> str:
    return maybe_truncate(make(), None)  # expect BTO001

@agent.tool_plain
def build_keyword_none() -> str:
    return maybe_truncate(make(), truncate_after=None)  # expect BTO001

@agent.tool_plain
def build_asked(limit: int = 4000) -> str:
    return maybe_truncate(make(), limit)

@agent.tool_plain
def build_unless_asked(limit: int | None = None) -> str:
    return maybe_truncate(make(), limit)  # expect BTO001

@agent.tool_plain
def build_when_asked(limit: int | None = None) -> str:
    if limit:
        return maybe_truncate(make(), limit)
    return 'pass a limit to see the output'

@agent.tool_plain
def clip_default() -> str:
    return clip(make())  # expect BTO001

@agent.tool_plain
def clip_number() -> str:
    return clip(make(), 2000)

@agent.tool_plain
def clip_constant() -> str:
    return clip(make(), limit=MAX_CHARS)

@agent.tool_plain
def head_default() -> str:
    return head(make())  # expect BTO001

@agent.tool_plain
def head_number() -> str:
    return head(make(), 100)  # expect BTO003

@agent.tool_plain
def read_lines(path: str, count: int | None = None) -> str:
    lines = Path(path).read_text().splitlines()
    return '\\n'.join(lines[:count])  # expect BTO002

@agent.tool_plain
def read_lines_asked(path: str, count: int = 100) -> str:
    lines = Path(path).read_text().splitlines()
    return '\\n'.join(lines[:count])
"""


def test_a_helper_cuts_by_what_the_call_passes_for_its_limit() -> None:
    check(HELPER_LIMITS)


# ------------------------------------------------------------------------------ sizes the model does not choose

DEVELOPER_SIZES = """
@agent.tool
def tail_log(ctx: RunContext[int], path: str) -> str:
    return Path(path).read_text()[-ctx.deps :]  # expect BTO003


class Logs:
    def __init__(self, limit: int = 2000) -> None:
        self.limit = limit

    def tail(self, path: str) -> str:
        return Path(path).read_text()[-self.limit :]  # expect BTO003

    def tail_marked(self, path: str) -> str:
        text = Path(path).read_text()
        return f'[last {self.limit} of {len(text)} characters]\\n' + text[-self.limit :]


logs = FunctionToolset([Logs().tail, Logs().tail_marked])
"""


def test_a_size_from_self_or_the_run_context_is_the_developers_not_the_models() -> None:
    check(DEVELOPER_SIZES)


SETTINGS = """
import csv


class Converter:
    def __init__(self, max_chars: int | None = None, rows: int | None = None) -> None:
        self.max_chars = max_chars
        self.rows = rows

    def _cut(self, content: str) -> str:
        if self.max_chars and len(content) > self.max_chars:
            return content[: self.max_chars] + '...'
        return content

    def convert(self, path: str) -> str:
        return self._cut(Path(path).read_text())  # expect BTO002

    def read_rows(self, path: str, rows: int | None = None) -> str:
        limit = rows or self.rows
        with open(path) as handle:
            found = [row for row in csv.reader(handle)]
        if limit is not None:
            found = found[:limit]
        return str(found)  # expect BTO002


class CappedConverter:
    def __init__(self, max_chars: int = 20_000) -> None:
        self.max_chars = max_chars

    def convert(self, path: str) -> str:
        content = Path(path).read_text()
        if self.max_chars and len(content) > self.max_chars:
            return content[: self.max_chars] + '...'
        return content


tools = FunctionToolset([Converter().convert, Converter().read_rows, CappedConverter().convert])


@agent.tool_plain
def run(arguments: dict[str, object]) -> str:
    out = make()
    limit = arguments.get('max_chars')
    if limit is None:
        return out  # expect BTO001
    return out[: int(limit)]

@agent.tool_plain
def run_default(arguments: dict[str, int]) -> str:
    out = make()
    limit = arguments.get('max_chars', 4000)
    if not limit:
        return out
    return out[:limit]
"""


def test_a_setting_or_an_argument_that_defaults_to_none_leaves_output_whole() -> None:
    check(SETTINGS)


# ------------------------------------------------------------------------------ tuples

TUPLES = """
def run(command: str) -> tuple[int, str, str]:
    proc = subprocess.run(command, shell=True, capture_output=True, text=True)
    if proc.returncode:
        return proc.returncode, '', proc.stderr
    return proc.returncode, proc.stdout, ''


def fetch_listing(path: str) -> tuple[str, str]:
    return Path(path).read_text(), 'Contents of the listing:\\n'


@agent.tool_plain
def exit_status(command: str) -> str:
    code, _, _ = run(command)
    return f'exit {code}'

@agent.tool_plain
def output(command: str) -> str:
    code, out, err = run(command)
    return f'exit {code}\\n{out}'  # expect BTO001

@agent.tool_plain
def errors(command: str) -> str:
    return run(command)[2]  # expect BTO001

@agent.tool_plain
def errors_capped(command: str) -> str:
    err = run(command)[2]
    return err[-2000:] + f'\\n[last 2000 of {len(err)} characters of stderr]'

@agent.tool_plain
def listing(path: str) -> str:
    content, prefix = fetch_listing(path)
    window = content[:MAX_CHARS]
    more = f'\\n[{len(content) - MAX_CHARS} more characters cut]' if len(content) > MAX_CHARS else ''
    return prefix + window + more
"""


def test_each_item_of_a_returned_tuple_is_followed_on_its_own() -> None:
    check(TUPLES)


# ------------------------------------------------------------------------------ web pages

FETCHES = """
import urllib.request

import httpx
import requests
from mcp.shared._httpx_utils import create_mcp_http_client

SEARCH_API = 'https://api.search.example/v1/search'


@agent.tool_plain
def fetch(url: str) -> str:
    return requests.get(url, timeout=20).text  # expect BTO002

@agent.tool_plain
async def fetch_async(url: str) -> str:
    async with httpx.AsyncClient() as client:
        response = await client.get(url, follow_redirects=True)
    return response.text  # expect BTO002

@agent.tool_plain
async def fetch_mcp_client(url: str) -> str:
    async with create_mcp_http_client(headers={'User-Agent': 'agent'}) as client:
        return (await client.get(url)).text  # expect BTO002

@agent.tool_plain
def fetch_urllib(url: str) -> str:
    with urllib.request.urlopen(url) as response:
        return response.read().decode()  # expect BTO002

@agent.tool_plain
def fetch_window(url: str, start_index: int = 0, max_length: int = 5000) -> str:
    text = urllib.request.urlopen(url).read().decode()
    return text[start_index : start_index + max_length]

@agent.tool_plain
def fetch_marked(url: str) -> str:
    text = requests.get(url).text
    if len(text) > 20_000:
        return text[:20_000] + '\\n[page truncated]'
    return text

@agent.tool_plain
def fetch_unmarked(url: str) -> str:
    return requests.get(url).text[:20_000]  # expect BTO003

@agent.tool_plain
def search(query: str) -> str:
    return requests.get(SEARCH_API, params={'q': query}).text

@agent.tool_plain
def search_path(query: str) -> str:
    return requests.get(f'https://api.search.example/v1/{query}').text

@agent.tool_plain
def profile(username: str | None = None) -> str:
    url = f'https://api.social.example/users/{username}' if username else 'https://api.social.example/me'
    return requests.get(url).text

@agent.tool_plain
def notify(url: str, message: str) -> str:
    return requests.post(url, json={'text': message}).text

@agent.tool_plain
def status(url: str) -> str:
    response = requests.get(url)
    return f'{response.status_code} {response.headers.get("content-type")}'

@agent.tool_plain
def api(url: str) -> dict[str, object]:
    return requests.get(url).json()


def download(url: str) -> str:
    with requests.Session() as session:
        return session.get(url).text


@agent.tool_plain
def page(url: str) -> str:
    return download(url)  # expect BTO002

@agent.tool_plain
def docs_page() -> str:
    return download('https://docs.example.com/index.html')

@agent.tool_plain
def download_listed(name: str, listing: dict[str, dict[str, str]]) -> str:
    info = listing[name]
    if int(info.get('size', 0)) > 1_000_000:
        return f'{name} is larger than 1 MB; ask for a part of it'
    return requests.get(info['url']).text

@agent.tool_plain
def fetch_declared(url: str) -> str:
    declared = requests.head(url).headers.get('content-length', '0')
    if int(declared) > 1_000_000:
        return f'{url} is larger than 1 MB'
    return requests.get(url).text

@agent.tool_plain
def fetch_any_size(url: str) -> str:
    size = requests.head(url).headers.get('etag', '')
    if size:
        return requests.get(url).text  # expect BTO002
    return ''
"""


def test_a_page_from_a_url_the_model_chooses_is_a_whole_document() -> None:
    check(FETCHES)


READ_IN_HELPERS = """
import requests


class Requests:
    def __init__(self, headers: dict[str, str] | None = None) -> None:
        self.headers = headers

    def get(self, url: str, **kwargs: object) -> requests.Response:
        return requests.get(url, headers=self.headers, **kwargs)


class RequestsWrapper:
    @property
    def requests(self) -> Requests:
        return Requests(headers={'User-Agent': 'agent'})

    def _content(self, response: requests.Response) -> str:
        return response.text

    def get(self, url: str, **kwargs: object) -> str:
        return self._content(self.requests.get(url, **kwargs))


class RequestsGetTool:
    def __init__(self) -> None:
        self.wrapper = RequestsWrapper()

    def run(self, url: str) -> str:
        return self.wrapper.get(url.strip())  # expect BTO002

    def status(self, url: str) -> str:
        return str(self.wrapper.requests.get(url).status_code)


get_tools = FunctionToolset([RequestsGetTool().run, RequestsGetTool().status])


def read_all(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    return process.stdout.read()


def exit_code(process: subprocess.Popen[str]) -> str:
    return str(process.wait())


@agent.tool_plain
def build_streamed() -> str:
    return read_all(subprocess.Popen(['make'], stdout=subprocess.PIPE, text=True))  # expect BTO001

@agent.tool_plain
def build_status() -> str:
    return exit_code(subprocess.Popen(['make'], stdout=subprocess.PIPE, text=True))
"""


def test_a_helper_that_reads_what_it_is_given_returns_output() -> None:
    check(READ_IN_HELPERS)


def test_an_mcp_low_level_call_tool_handler_is_a_tool_and_its_fetch_helper_is_followed(tmp_path: Path) -> None:
    (tmp_path / 'fetching.py').write_text(
        textwrap.dedent(
            """
            from httpx import AsyncClient


            async def fetch_url(url: str, user_agent: str) -> tuple[str, str]:
                async with AsyncClient() as client:
                    response = await client.get(url, headers={'User-Agent': user_agent})
                return response.text, f'Content type {response.headers.get("content-type")}:\\n'
            """
        )
    )
    (tmp_path / 'server.py').write_text(
        textwrap.dedent(
            """
            from mcp.server import Server
            from mcp.types import TextContent

            from fetching import fetch_url


            def serve() -> Server:
                server = Server('fetch')

                @server.call_tool()
                async def call_tool(name: str, arguments: dict) -> list[TextContent]:
                    content, prefix = await fetch_url(str(arguments['url']), 'agent')
                    start, length = int(arguments.get('start', 0)), int(arguments.get('max_length', 5000))
                    return [TextContent(type='text', text=prefix + content[start : start + length])]

                return server


            app = Server('whole')


            @app.call_tool()
            async def whole(name: str, arguments: dict) -> list[TextContent]:
                content, prefix = await fetch_url(arguments['url'], 'agent')
                return [TextContent(type='text', text=prefix + content)]
            """
        )
    )
    [finding] = lint_paths([tmp_path])
    assert (Path(finding.path).name, finding.code, finding.function) == ('server.py', 'BTO002', 'whole')
    assert finding.source == 'httpx.AsyncClient.get' and 'fetching.py:7' in finding.message


# ------------------------------------------------------------------------------ terminals, builds, loops

TERMINALS = """
import os
import pty
import select
import time

import docker


def read_chunk(fd: int) -> str:
    return os.read(fd, 1024).decode(errors='replace')


def run_in_pty(command: str, timeout: float = 30) -> tuple[int, str]:
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp('/bin/sh', ['/bin/sh', '-c', command])
    chunks = []
    started = time.time()
    while True:
        if time.time() - started > timeout:
            break
        readable, _, _ = select.select([fd], [], [], 0.1)
        if fd in readable:
            data = read_chunk(fd)
            if not data:
                break
            chunks.append(data)
    _, status = os.waitpid(pid, 0)
    return status, ''.join(chunks)


@agent.tool_plain
def shell(command: str) -> str:
    status, output = run_in_pty(command)
    return f'exit {status}\\n{output}'  # expect BTO001

@agent.tool_plain
def shell_status(command: str) -> str:
    status, _ = run_in_pty(command)
    return f'exit {status}'

@agent.tool_plain
def first_lines(path: str) -> str:
    shown = []
    with open(path) as handle:
        for number, line in enumerate(handle):
            if number >= 100:
                break
            shown.append(line)
    return ''.join(shown)  # expect BTO003

@agent.tool_plain
def build_image(path: str) -> str:
    image, logs = docker.from_env().images.build(path=path)
    return '\\n'.join(str(entry) for entry in logs)  # expect BTO001

@agent.tool_plain
def build_image_id(path: str) -> str:
    image, _ = docker.from_env().images.build(path=path)
    return str(image.id)
"""


def test_terminal_output_read_in_chunks_and_docker_build_logs_are_output() -> None:
    check(TERMINALS)
