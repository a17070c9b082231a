"""The well-known sources of tool output the linter follows, and the calls that only look at a value.

Extend it per project with `[tool.observable-harness.lint]` (`command-sources`, `file-sources`, `bounds`).
"""

from __future__ import annotations

__all__ = [
    'ACCUMULATORS',
    'CALLS',
    'ERROR_TYPES',
    'EXCLUDED_CALLS',
    'FACTORY_CALLS',
    'FACTORY_DATA_METHODS',
    'HANDOFF_CALLS',
    'HTTP_CALLS',
    'HTTP_CLIENTS',
    'HTTP_METHODS',
    'MEDIA_TYPES',
    'OPENERS',
    'PARSERS',
    'PASSTHROUGH_MODULES',
    'PROCESS_DATA_ATTRIBUTES',
    'PROCESS_DATA_METHODS',
    'PROJECT_BOUNDS',
    'READERS',
    'RESPONSE_DATA_ATTRIBUTES',
    'RESPONSE_DATA_METHODS',
    'SAFE_METHODS',
    'TRANSFORM_METHODS',
]

CALLS: dict[str, tuple[str, str]] = {
    # qualified name -> (kind, shape of what it returns)
    'subprocess.run': ('command', 'result'),
    'subprocess.check_output': ('command', 'data'),
    'subprocess.getoutput': ('command', 'data'),
    'subprocess.getstatusoutput': ('command', 'status'),
    'subprocess.Popen': ('command', 'process'),
    'os.popen': ('command', 'process'),
    'pty.fork': ('command', 'process'),
    'pty.openpty': ('command', 'process'),
    'os.openpty': ('command', 'process'),
    'os.forkpty': ('command', 'process'),
    'asyncio.create_subprocess_exec': ('command', 'process'),
    'asyncio.create_subprocess_shell': ('command', 'process'),
    'asyncio.subprocess.create_subprocess_exec': ('command', 'process'),
    'asyncio.subprocess.create_subprocess_shell': ('command', 'process'),
    'anyio.run_process': ('command', 'result'),
    'anyio.open_process': ('command', 'process'),
    'trio.run_process': ('command', 'result'),
    'invoke.run': ('command', 'result'),
    'pexpect.run': ('command', 'data'),
    'pexpect.spawn': ('command', 'process'),
    'pexpect.spawnu': ('command', 'process'),
    'pexpect.popen_spawn.PopenSpawn': ('command', 'process'),
    'unstructured.partition.auto.partition': ('file', 'data'),
    'pandas.read_csv': ('file', 'data'),
    'pandas.read_excel': ('file', 'data'),
    'pandas.read_json': ('file', 'data'),
    'pandas.read_table': ('file', 'data'),
    'pandas.read_parquet': ('file', 'data'),
    'pandas.read_fwf': ('file', 'data'),
}
"""Calls whose result is output, by the name they are imported under."""

FACTORY_CALLS: dict[str, str] = {
    # qualified name -> kind of what its methods return
    'markitdown.MarkItDown': 'file',
    'docling.document_converter.DocumentConverter': 'file',
    'pypdf.PdfReader': 'file',
    'PyPDF2.PdfReader': 'file',
    'PyPDF2.PdfFileReader': 'file',
    'pdfplumber.open': 'file',
    'fitz.open': 'file',
    'pymupdf.open': 'file',
    'docker.from_env': 'command',
    'docker.DockerClient': 'command',
    'paramiko.SSHClient': 'command',
}
"""Objects whose methods read documents or run commands (a converter, a PDF reader, a Docker client)."""

FACTORY_DATA_METHODS = frozenset(
    {
        'convert',
        'convert_uri',
        'convert_local',
        'convert_stream',
        'convert_string',
        'convert_all',
        'convert_file',
        'extract_text',
        'extract_tables',
        'extract_words',
        'get_text',
        'read',
        'logs',
        'exec_command',
        'export_to_markdown',
        'export_to_text',
        'export_to_html',
    }
)
"""Methods of those objects that return what was read or run (their other methods and attributes do not)."""

HTTP_CALLS = frozenset(
    {
        *(f'{library}.{verb}' for library in ('requests', 'httpx') for verb in ('get', 'request', 'stream')),
        'requests.api.get',
        'requests.api.request',
        'urllib.request.urlopen',
        'urllib3.request',
        'aiohttp.request',
    }
)
"""Functions that fetch a URL and return the response (`get`; `request` and `stream` whatever the method;
`post`, `put` and `patch` send data to an endpoint and get its answer, and are left out). The body is a
source only when the URL is the tool caller's choice (a tool parameter, or made from one without a fixed
host): a whole web page. An answer from an endpoint the code names (a search API,
`f'https://api.example.com/search?q={query}'`) is not."""

HTTP_CLIENTS = frozenset(
    {
        'requests.Session',
        'requests.session',
        'requests.sessions.Session',
        'httpx.Client',
        'httpx.AsyncClient',
        'aiohttp.ClientSession',
        'urllib3.PoolManager',
        'urllib.request.build_opener',
        'mcp.shared._httpx_utils.create_mcp_http_client',
    }
)
"""HTTP clients: their `HTTP_METHODS` fetch a URL as `HTTP_CALLS` do."""

HTTP_METHODS = frozenset({'get', 'request', 'stream', 'send', 'open', 'urlopen'})
"""Reading a URL (or sending a request the code built): a page comes back. `post`, `put` and `patch` send data
to an endpoint, whose answer is the endpoint's, and are left out."""

RESPONSE_DATA_ATTRIBUTES = frozenset({'text', 'content', 'body', 'data'})
RESPONSE_DATA_METHODS = frozenset(
    {
        'read',
        'aread',
        'text',
        'readlines',
        'iter_content',
        'iter_lines',
        'iter_text',
        'iter_bytes',
        'aiter_lines',
        'aiter_text',
        'aiter_bytes',
        'iter_chunked',
        'iter_any',
    }
)
"""What a response's body is read through; `json()` is an API's answer, not a page, and is not among them."""

READERS = frozenset({'csv.reader', 'csv.DictReader'})
"""Wrappers over an open file that read it as they are iterated."""

PARSERS = frozenset(
    {'json.load', 'json.loads', 'orjson.loads', 'yaml.safe_load', 'yaml.load', 'tomllib.load', 'tomllib.loads'}
)
"""Parsers of structured text: one field picked by name (`data['version']`) is a small part of what they read."""


MEDIA_TYPES = frozenset(
    {
        'BinaryContent',
        'BinaryImage',
        'ImageContent',
        'AudioContent',
        'Image',
        'Audio',
        'Video',
        'ImageUrl',
        'AudioUrl',
        'VideoUrl',
        'DocumentUrl',
        'BlobResourceContents',
    }
)
"""Parts a model receives as media (an image, audio, a video), not as text in its context."""

TRANSFORM_METHODS = frozenset(
    {
        'sub',
        'subn',
        'split',
        'findall',
        'finditer',
        'dumps',
        'loads',
        'load',
        'safe_load',
        'decode',
        'encode',
        'escape',
        'unescape',
        'dedent',
        'indent',
        'fill',
        'wrap',
        'format',
        'format_map',
        'join',
        'parse',
        'model_validate',
        'model_validate_json',
        'model_dump',
        'model_dump_json',
        'b64encode',
        'b64decode',
        'to_string',
        'to_markdown',
        'to_json',
        'to_dict',
        'to_csv',
    }
)
"""Methods of an object that return what they were given, transformed (`ANSI.sub('', out)`, `json.dumps`)."""

PASSTHROUGH_MODULES = frozenset(
    {
        'json',
        'orjson',
        'ujson',
        'yaml',
        'toml',
        'tomllib',
        'tomli',
        'textwrap',
        'html',
        're',
        'regex',
        'base64',
        'binascii',
        'codecs',
        'shlex',
        'string',
        'unicodedata',
        'difflib',
        'pprint',
        'typing',
        'copy',
        'itertools',
        'functools',
        'operator',
        'collections',
        'asyncio',
        'anyio',
        'markdownify',
        'markdown',
        'html2text',
        'bleach',
        'strip_ansi',
        'tabulate',
        'rich',
        'pandas',
        'io',
        'xml',
        'ast',
    }
)
"""Modules whose functions return (a form of) what they are given; other libraries' functions return their
own results (`requests.post(files=...)` returns a response, not the file)."""

OPENERS = frozenset(
    {'open', 'io.open', 'codecs.open', 'aiofiles.open', 'gzip.open', 'bz2.open', 'lzma.open', 'os.fdopen'}
)
"""Calls that open a file; reading the handle whole is the source."""

PROCESS_DATA_ATTRIBUTES = frozenset({'stdout', 'stderr', 'output', 'before', 'after', 'buffer', 'text'})
PROCESS_DATA_METHODS = frozenset(
    {'communicate', 'read', 'readlines', 'read_nonblocking', 'readall', 'decode', 'getvalue', 'result'}
)
SAFE_METHODS = frozenset(
    {
        'wait',
        'poll',
        'kill',
        'terminate',
        'close',
        'flush',
        'write',
        'writelines',
        'seek',
        'tell',
        'fileno',
        'isatty',
        'expect',
        'sendline',
        'send',
        'drain',
        'returncode',
        'exists',
        'is_file',
        'is_dir',
        'stat',
        'count',
        'index',
        'find',
        'rfind',
        'startswith',
        'endswith',
        'isdigit',
        'isspace',
        'isalpha',
        'isalnum',
        'islower',
        'isupper',
        'keys',
        '__len__',
    }
)
"""Methods whose result says something about a value without carrying it (a count, a flag, a position)."""

EXCLUDED_CALLS = frozenset(
    {
        'len',
        'bool',
        'int',
        'float',
        'hash',
        'id',
        'isinstance',
        'issubclass',
        'hasattr',
        'callable',
        'type',
        'print',
        'any',
        'all',
        'range',
        'os.path.exists',
        'os.path.isfile',
        'os.path.isdir',
        'os.path.getsize',
        'os.stat',
        'time.sleep',
        'asyncio.sleep',
        'logging.debug',
        'logging.info',
        'logging.warning',
        'logging.error',
        'logging.exception',
    }
)
"""Calls whose result never carries the output given to them."""

ACCUMULATORS = frozenset(
    {'append', 'extend', 'insert', 'add', 'update', 'appendleft', 'extendleft', 'write', 'writelines', 'put'}
)
"""Methods that put a value into their receiver (a list, a buffer)."""

HANDOFF_CALLS: dict[str, int] = {
    # qualified name or `.method` -> index of the callable among the arguments; the rest are its arguments
    'asyncio.to_thread': 0,
    'anyio.to_thread.run_sync': 0,
    'functools.partial': 0,
    '.run_in_executor': 1,
    '.submit': 0,
    '.apply_async': 0,
    'starlette.concurrency.run_in_threadpool': 0,
}
"""Calls that run a function elsewhere (a thread, an executor) and hand back what it returns."""

PROJECT_BOUNDS = frozenset(
    {
        'observable_harness.bounded.condense',
        'observable_harness.bounded.offload',
        'observable_harness.bounded.navigation_summary',
        'observable_harness.bounded.Condense',
        'observable_harness.bounded.Offload',
        'observable_harness.bounded._condense.condense',
        'observable_harness.bounded._offload.offload',
        'observable_harness._text.cut.cut_text',
        'observable_harness._text.paging.paginate',
        'observable_harness._text.paging.page_of',
        'observable_harness._text.paging.render_page',
        'observable_harness._text.navigation.navigation_summary',
        'observable_harness._text.navigation.clip_words',
    }
)
"""This project's helpers that cap text and say what they cut."""

ERROR_TYPES = frozenset(
    {
        'subprocess.CalledProcessError',
        'subprocess.TimeoutExpired',
        'subprocess.SubprocessError',
        'CalledProcessError',
        'TimeoutExpired',
        'pexpect.TIMEOUT',
        'pexpect.EOF',
        'pexpect.ExceptionPexpect',
    }
)
"""Exceptions that carry a command's output (`error.output`, `error.stdout`, `error.stderr`)."""
