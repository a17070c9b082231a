"""`observable-harness lint`: unbounded and unmarked tool returns, followed from their sources to the returns."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from observable_harness.cli import main
from observable_harness.lint import lint_paths, lint_source

ROOT = Path(__file__).resolve().parents[2]

SAMPLE = textwrap.dedent(
    """
    import asyncio
    import subprocess
    from pathlib import Path

    from pydantic_ai import Agent, Tool
    from pydantic_ai.toolsets import FunctionToolset

    agent = Agent('test')


    @agent.tool_plain
    def run_tests() -> str:
        proc = subprocess.run(['pytest'], capture_output=True, text=True)
        return proc.stdout  # expect BTO001


    @agent.tool
    async def read_log(ctx, path: str) -> str:
        with open(path) as handle:
            text = handle.read()
        return text  # expect BTO002


    def read_config(path: str) -> str:
        return Path(path).read_text()  # expect BTO002 (registered through Tool below)


    def run(command: list[str]) -> str:
        return subprocess.check_output(command, text=True)


    @agent.tool_plain(name='build')
    def build() -> str:
        return run(['make']).strip()  # expect BTO001 (through the helper)


    @agent.tool_plain
    def head_of_log(path: str) -> str:
        lines = Path(path).read_text().splitlines()
        return '\\n'.join(lines[:200])  # expect BTO003 (cut without a marker)


    @agent.tool_plain
    def tail_of_log(path: str) -> str:
        lines = Path(path).read_text().splitlines()
        shown = lines[-200:]
        return f'[showing the last {len(shown)} of {len(lines)} lines]\\n' + '\\n'.join(shown)


    @agent.tool_plain
    async def status() -> str:
        proc = await asyncio.create_subprocess_exec('git', 'status', stdout=subprocess.PIPE)
        out, _ = await proc.communicate()
        return out.decode()  # expect BTO001


    @agent.tool_plain
    def summary() -> str:
        out = subprocess.run(['du', '-sh'], capture_output=True, text=True).stdout
        return truncate_output(out)


    @agent.tool_plain
    def allowed() -> str:
        return subprocess.run(['date'], capture_output=True, text=True).stdout  # noqa: BTO001


    def not_a_tool() -> str:
        return subprocess.run(['ls'], capture_output=True, text=True).stdout


    def listed(path: str) -> bytes:
        return open(path, 'rb').read()  # expect BTO002 (FunctionToolset)


    def truncate_output(text: str) -> str:
        return text[-4000:] + '\\n[output truncated]'


    tools = [Tool(read_config)]
    toolset = FunctionToolset([listed])
    """
)


def _expected() -> list[tuple[int, str, str]]:
    """(line, code, function) for every `# expect CODE` comment in SAMPLE."""
    found: list[tuple[int, str, str]] = []
    function = ''
    for number, line in enumerate(SAMPLE.splitlines(), start=1):
        if line.lstrip().startswith(('def ', 'async def ')):
            function = line.split('def ', 1)[1].split('(', 1)[0]
        if '# expect ' in line:
            found.append((number, line.split('# expect ', 1)[1].split()[0], function))
    return found


EXPECTED = _expected()


def test_known_findings_in_a_sample_module() -> None:
    assert len(EXPECTED) == 7
    findings = lint_source(SAMPLE, 'sample.py')
    assert [(f.line, f.code) for f in findings] == [(line, code) for line, code, _ in EXPECTED]
    for finding, (_, _, function) in zip(findings, EXPECTED, strict=True):
        assert finding.message.startswith(f'{function}(): ') and finding.function == function
        assert str(finding).startswith(f'sample.py:{finding.line}: {finding.code} ')


def test_agent_tools_list_and_syntax_errors() -> None:
    source = textwrap.dedent(
        """
        import subprocess
        from pydantic_ai import Agent

        def shell(cmd: str) -> str:
            return subprocess.getoutput(cmd)

        agent = Agent('test', tools=[shell])
        """
    )
    [finding] = lint_source(source, 'a.py')
    assert (finding.line, finding.code) == (6, 'BTO001')
    [broken] = lint_source('def f(:\n', 'b.py')
    assert broken.code == 'BTO000' and broken.path == 'b.py'


def test_cli_prints_findings_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / 'pkg').mkdir()
    (tmp_path / 'pkg' / 'tools.py').write_text(SAMPLE)
    (tmp_path / 'pkg' / 'clean.py').write_text('def f() -> int:\n    return 1\n')
    assert main(['lint', str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f'{tmp_path}/pkg/tools.py:{line}: {code} ' + out[i].split(f'{code} ', 1)[1]
                   for i, (line, code, _) in enumerate(EXPECTED)]  # fmt: skip
    assert main(['lint', str(tmp_path / 'pkg' / 'clean.py')]) == 0
    assert capsys.readouterr().out == ''
    assert main(['lint', str(tmp_path / 'missing')]) == 2


def test_helpers_in_other_modules_are_seen_through(tmp_path: Path) -> None:
    """A tool that returns a helper's result from another module of the linted tree is judged by that helper."""
    package = tmp_path / 'src' / 'ops_agent'
    (package / 'util').mkdir(parents=True)
    (package / '__init__.py').write_text('')
    (package / 'util' / '__init__.py').write_text('')
    (package / 'util' / 'shell.py').write_text(
        textwrap.dedent(
            """
            import subprocess
            from pathlib import Path


            def run(command: str) -> str:
                return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


            def run_capped(command: str) -> str:
                out = run(command)
                return out[-4000:] + f'\\n[{len(out) - 4000} earlier characters cut]'


            def slurp(path: str) -> str:
                return Path(path).read_text()
            """
        )
    )
    (package / 'logs.py').write_text(
        'from .util.shell import slurp\n\n\ndef read_log(name: str) -> str:\n    return slurp(name)\n'
    )
    (package / 'tools.py').write_text(
        textwrap.dedent(
            """
            from pydantic_ai import Agent

            from ops_agent.util import shell
            from ops_agent.util.shell import run_capped
            from .logs import read_log

            agent = Agent('test')


            @agent.tool_plain
            def run_tests() -> str:
                return shell.run('pytest -q')


            @agent.tool_plain
            def build() -> str:
                return run_capped('make')


            @agent.tool_plain
            def service_log() -> str:
                return read_log('/var/log/service.log')
            """
        )
    )
    findings = lint_paths([tmp_path])
    assert [(Path(f.path).name, f.line, f.code) for f in findings] == [
        ('tools.py', 13, 'BTO001'),  # shell.run: a subprocess's whole output, one module away
        ('tools.py', 23, 'BTO002'),  # read_log -> slurp: a whole file, two modules away
    ]
    # Linted alone, the tools module cannot see its helpers: nothing to say about them.
    assert lint_paths([package / 'tools.py']) == []


def test_this_projects_source_is_clean() -> None:
    assert lint_paths([ROOT / 'src']) == []


def test_the_installed_command(tmp_path: Path) -> None:
    (tmp_path / 'tools.py').write_text(SAMPLE)
    proc = subprocess.run(
        [sys.executable, '-m', 'observable_harness', 'lint', str(tmp_path), str(ROOT / 'src')],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1
    assert len(proc.stdout.splitlines()) == len(EXPECTED)
    clean = subprocess.run(
        [sys.executable, '-m', 'observable_harness', 'lint', str(ROOT / 'src')], capture_output=True, check=False
    )
    assert clean.returncode == 0 and clean.stdout == b''
