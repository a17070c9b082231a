"""What each finding code means, and how to fix it: the text behind `observable-harness lint --explain CODE`."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ['CODES', 'Code', 'explain']


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    title: str
    meaning: str
    wrong: str
    right: str

    def explanation(self) -> str:
        return (
            f'{self.code}: {self.title}\n\n{self.meaning}\n\n'
            f'Wrong:\n\n{_indent(self.wrong)}\n\nRight:\n\n{_indent(self.right)}\n'
        )


def _indent(text: str) -> str:
    return '\n'.join(f'    {line}' if line else '' for line in text.strip('\n').splitlines())


CODES: dict[str, Code] = {
    code.code: code
    for code in (
        Code(
            'BTO000',
            'a file that cannot be checked',
            'The file could not be read or parsed as Python, so none of its tools were checked. '
            'The command exits with status 2 when this happens, even if it found nothing else.',
            'def run(:\n    ...',
            'def run() -> str:\n    ...',
        ),
        Code(
            'BTO001',
            "a command's output returned without a bound",
            'A tool returns what a command or process printed (subprocess, asyncio subprocesses, pexpect, a '
            "container's exec_run, GitPython's `repo.git.*` and patches, or a source you configured) with no "
            'cap on its size. One noisy build log or `git diff` fills the context window; nothing fails, the '
            'run just gets worse or more expensive. Cap it, and tell the model what was cut and how to get '
            "the rest. A cap whose size is one of the tool's own parameters (`tail`, `max_chars`) counts.",
            '@agent.tool_plain\n'
            'def run_tests() -> str:\n'
            "    proc = subprocess.run(['pytest', '-q'], capture_output=True, text=True)\n"
            '    return proc.stdout',
            'LIMIT = 4_000\n\n'
            '@agent.tool_plain\n'
            'def run_tests() -> str:\n'
            "    proc = subprocess.run(['pytest', '-q'], capture_output=True, text=True)\n"
            '    out = proc.stdout\n'
            '    if len(out) <= LIMIT:\n'
            '        return out\n'
            "    return f'[last {LIMIT} of {len(out)} characters]\\n' + out[-LIMIT:]\n\n"
            '# or leave the tool as it is and give the agent ToolOutputLimits():\n'
            "agent = Agent('openai:gpt-4o', capabilities=[ToolOutputLimits()])",
        ),
        Code(
            'BTO002',
            "a whole file's contents returned without a bound",
            "A tool returns a file's whole contents (`read()`, `read_text()`, `readlines()`, iterating a handle, "
            "a document converter's text, the body of a web page fetched from a URL the model chose, or a source "
            'you configured) with no cap on its size. Refuse files over '
            'a size and say how to read them in parts, read a window the model asks for, or cap the text and '
            'say what was cut.',
            '@agent.tool_plain\ndef read_file(path: str) -> str:\n    return Path(path).read_text()',
            '@agent.tool_plain\n'
            'def read_file(path: str, offset: int = 0, limit: int = 200) -> str:\n'
            '    lines = Path(path).read_text().splitlines()\n'
            '    shown = lines[offset : offset + limit]\n'
            "    more = f'\\n[lines {offset + 1}-{offset + len(shown)} of {len(lines)}; use offset= to continue]'\n"
            "    return '\\n'.join(shown) + (more if offset + limit < len(lines) else '')",
        ),
        Code(
            'BTO003',
            'output cut to a fixed size without telling the model',
            'A tool caps command or file output at a fixed size (a slice such as `out[-4000:]`, `lines[:200]`, '
            'a sized read, a loop that stops at a count) but nothing on that path tells the model the output '
            'was cut. The model takes the part for the whole: it reports a passing test run whose failures '
            'were cut, or a file as ending where the cap fell. Say that it was cut, how much, and how to get '
            'more, in the text the tool returns (an f-string counts; a print, a log line or the docstring '
            'does not).',
            '@agent.tool_plain\n'
            'def build() -> str:\n'
            "    out = subprocess.run(['make'], capture_output=True, text=True).stdout\n"
            '    return out[-4000:]',
            '@agent.tool_plain\n'
            'def build() -> str:\n'
            "    out = subprocess.run(['make'], capture_output=True, text=True).stdout\n"
            '    if len(out) <= 4000:\n'
            '        return out\n'
            "    return f'[{len(out) - 4000} earlier characters cut]\\n' + out[-4000:]",
        ),
    )
}


def explain(code: str) -> str:
    """The meaning of `code` with a wrong and a right example; `KeyError` for a code that does not exist."""
    return CODES[code.strip().upper()].explanation()
