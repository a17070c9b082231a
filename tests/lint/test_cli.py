"""The `observable-harness lint` command: exit statuses, `--explain`, `--format json`, and pyproject configuration."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from observable_harness.cli import main
from observable_harness.lint import CODES, ConfigError, LintConfig, explain, find_config, lint_paths, load_config

ROOT = Path(__file__).resolve().parents[2]

TOOLS = textwrap.dedent(
    """
    import subprocess
    from pathlib import Path

    from pydantic_ai import Agent

    agent = Agent('test')


    @agent.tool_plain
    def run_tests() -> str:
        return subprocess.run(['pytest'], capture_output=True, text=True).stdout


    @agent.tool_plain
    def read_notes(path: str) -> str:
        return Path(path).read_text()
    """
)


def test_findings_exit_1_and_a_broken_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / 'tools.py').write_text(TOOLS)
    assert main(['lint', str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        f'{tmp_path}/tools.py:12: BTO001 run_tests(): output of subprocess.run (line 12) returned without a bound',
        f'{tmp_path}/tools.py:17: BTO002 read_notes(): contents from read_text (line 17) returned without a bound',
    ]
    (tmp_path / 'broken.py').write_text('def f(:\n    pass\n')
    assert main(['lint', str(tmp_path)]) == 2  # the findings are still printed, and the file that was not checked
    out = capsys.readouterr().out
    assert f'{tmp_path}/broken.py:1: BTO000 cannot parse:' in out and 'BTO001' in out
    assert main(['lint', str(tmp_path / 'missing')]) == 2
    assert 'no such file or directory' in capsys.readouterr().err


def test_clean_code_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / 'ok.py').write_text('def f() -> int:\n    return 1\n')
    assert main(['lint', str(tmp_path)]) == 0
    assert capsys.readouterr().out == ''


def test_json_for_ci_annotations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / 'tools.py').write_text(TOOLS)
    assert main(['lint', '--format', 'json', str(tmp_path)]) == 1
    findings = json.loads(capsys.readouterr().out)
    assert [(f['line'], f['code'], f['function'], f['source'], f['source_line']) for f in findings] == [
        (12, 'BTO001', 'run_tests', 'subprocess.run', 12),
        (17, 'BTO002', 'read_notes', 'read_text', 17),
    ]
    assert findings[0]['path'] == str(tmp_path / 'tools.py')
    assert main(['lint', '--format', 'json', str(tmp_path / 'tools.py'), '--config', str(tmp_path / 'none')]) == 2


@pytest.mark.parametrize('code', sorted(CODES))
def test_explain_every_code(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(['lint', '--explain', code.lower()]) == 0
    text = capsys.readouterr().out
    assert text == explain(code)
    assert text.startswith(f'{code}: ') and '\nWrong:\n' in text and '\nRight:\n' in text
    assert 'BTO-' not in text and 'SPEC' not in text


def test_explain_an_unknown_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(['lint', '--explain', 'BTO999']) == 2
    assert 'no code' in capsys.readouterr().err


def test_the_right_examples_pass_and_the_wrong_ones_are_flagged(tmp_path: Path) -> None:
    """The examples `--explain` prints are checked by the linter itself."""
    prelude = (
        'import subprocess\nfrom pathlib import Path\nfrom pydantic_ai import Agent\n'
        'from observable_harness import ToolOutputLimits\nagent = Agent("test")\n\n'
    )
    for code in ('BTO001', 'BTO002', 'BTO003'):
        wrong = tmp_path / f'wrong_{code}.py'
        wrong.write_text(prelude + CODES[code].wrong + '\n')
        assert [finding.code for finding in lint_paths([wrong])] == [code]
        right = tmp_path / f'right_{code}.py'
        right.write_text(prelude + CODES[code].right + '\n')
        assert lint_paths([right]) == []


def test_configured_sources_and_bounds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / 'pyproject.toml').write_text(
        textwrap.dedent(
            """
            [project]
            name = "ops-agent"

            [tool.observable-harness.lint]
            command-sources = ["fabric.Connection.run", ".exec_command"]
            file-sources = ["docs.load_pdf"]
            bounds = ["textkit.clip"]
            """
        )
    )
    package = tmp_path / 'src'
    package.mkdir()
    (package / 'tools.py').write_text(
        textwrap.dedent(
            """
            from docs import load_pdf
            from textkit import clip
            from pydantic_ai import Agent

            agent = Agent('test')


            @agent.tool_plain
            def remote(client, command: str) -> str:
                return client.exec_command(command)


            @agent.tool_plain
            def manual(name: str) -> str:
                return load_pdf(name)


            @agent.tool_plain
            def manual_clipped(name: str) -> str:
                return clip(load_pdf(name))
            """
        )
    )
    assert find_config([package]) == tmp_path / 'pyproject.toml'
    config = load_config(tmp_path / 'pyproject.toml')
    assert config == LintConfig(
        frozenset({'fabric.Connection.run', '.exec_command'}), frozenset({'docs.load_pdf'}), frozenset({'textkit.clip'})
    )
    assert [(f.line, f.code) for f in lint_paths([package], config)] == [(11, 'BTO001'), (16, 'BTO002')]
    assert lint_paths([package]) == []  # unconfigured, nothing there is a known source
    assert main(['lint', str(package)]) == 1  # the command finds the pyproject.toml above the path
    assert 'remote(): output of .exec_command (line 11)' in capsys.readouterr().out


def test_a_bad_configuration_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / 'pyproject.toml'
    bad.write_text('[tool.observable-harness.lint]\ncommand-source = ["x.run"]\n')
    with pytest.raises(ConfigError, match='unknown key.*command-source'):
        load_config(bad)
    bad.write_text('[tool.observable-harness.lint]\nbounds = "x.clip"\n')
    with pytest.raises(ConfigError, match='bounds must be a list'):
        load_config(bad)
    (tmp_path / 'ok.py').write_text('x = 1\n')
    assert main(['lint', str(tmp_path)]) == 2
    assert 'bounds must be a list' in capsys.readouterr().err
    bad.write_text('[project]\nname = "x"\n')
    assert find_config([tmp_path]) is None and load_config(bad) == LintConfig()


def test_importing_the_package_loads_no_linter() -> None:
    code = (
        'import sys, observable_harness, observable_harness.bounded, observable_harness.cli\n'
        "print(sorted(m for m in sys.modules if m.startswith('observable_harness.lint')))"
    )
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == '[]'
    importers = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / 'src' / 'observable_harness').rglob('*.py')
        if 'lint' not in path.relative_to(ROOT / 'src' / 'observable_harness').parts[0]
        and any(line.strip() in ('import ast', 'from ast import') for line in path.read_text().splitlines())
    ]
    assert importers == []


def _documented_examples() -> list[tuple[str, str, str]]:
    """(code, 'wrong' or 'right', source) for every example under a code's heading in docs/lint.md."""
    examples: list[tuple[str, str, str]] = []
    code, verdict = '', ''
    lines = (ROOT / 'docs' / 'lint.md').read_text().splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith('## BTO'):
            code = line.split(':', 1)[0].removeprefix('## ')
        elif line.startswith(('Wrong', 'Right', 'Also right')):
            verdict = 'wrong' if line.startswith('Wrong') else 'right'
        elif line == '```python' and code and verdict:
            end = lines.index('```', index + 1)
            examples.append((code, verdict, '\n'.join(lines[index + 1 : end]) + '\n'))
            index = end
        elif line.startswith('## '):
            code = ''
        index += 1
    return examples


DOCUMENTED = _documented_examples()


def test_docs_show_a_wrong_and_a_right_example_for_every_code() -> None:
    assert {(code, verdict) for code, verdict, _ in DOCUMENTED} == {
        (code, verdict) for code in ('BTO001', 'BTO002', 'BTO003') for verdict in ('wrong', 'right')
    }


@pytest.mark.parametrize(('code', 'verdict', 'source'), DOCUMENTED)
def test_the_documented_examples_are_judged_as_documented(code: str, verdict: str, source: str) -> None:
    from observable_harness.lint import lint_source

    found = [finding.code for finding in lint_source(source, 'example.py')]
    assert found == ([code] if verdict == 'wrong' else [])
