"""Everything a spill produces, over every capture: to show that a speed change changed no output.

Run under one version of the code with `--write FILE`, under another with `--compare FILE`:

    PYTHONPATH=/tmp/old/src:bench python bench/check_outputs.py --write /tmp/before.json
    PYTHONPATH=src:bench python bench/check_outputs.py --compare /tmp/before.json

Each input goes through the real `after_tool_execute` hook of `ToolOutputLimits` at its defaults (and with
a position-only preview, and with a store that fails), with and without a request the preview can match.
Recorded per run: the stand-in text, the SHA-256 of the bytes the store holds, and the attributes of the
`tool_output.reduce` span. Inputs: the stand-in captures, the test data, the bench's real outputs, the bench
payloads (a uniform log, a mixed megabyte, 10,000 records), and secret-laden and non-ASCII variants of them.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import hashlib
import json
import logging
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from opentelemetry import metrics
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, UserPromptPart
from pydantic_ai.models.test import TestModel
from pydantic_ai.tools import RunContext, ToolDefinition
from pydantic_ai.usage import RunUsage

import observable_harness.tool_output_limits as ours
from _real_outputs import MIB, mixed  # also puts the repository's root on the path
from observable_harness.telemetry import Instrumentation, _instruments

ROOT = Path(__file__).resolve().parents[1]

from tests.doubles import BrokenStore  # noqa: E402 - the project's own failing store (root put on the path above)

STANDINS = ROOT / 'bench' / 'standins'

SECRETS = (
    'export GITHUB_TOKEN=ghp_' + 'a1B2c3D4e5' * 4,
    'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijk"',
    'DB_PASSWORD="hunter2-very-secret"',
    'postgres://admin:s3cr3tpass@db.internal:5432/app',
    'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
    'run --api-key sk-proj-abcdefghijklmnopqrstuvwxyz012345',
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdef\n-----END RSA PRIVATE KEY-----',
    'slack: xoxb-1234567890-abcdefghij token=abc123def456',
    'Authorization: Basic dXNlcjpwYXNzd29yZA==',
)
GENERIC = ('Why did it fail? Show the errors and the token settings.', 'Looking for ERROR lines and failures.', {})


def _read(path: Path) -> str:
    data = path.read_bytes()
    if path.suffix == '.gz':
        data = gzip.decompress(data)
    return data.decode('utf-8', 'surrogateescape')


def _with_secrets(text: str, every: int) -> str:
    lines = text.split('\n')
    for index in range(0, len(lines), every):
        lines[index] = lines[index] + ' ' + SECRETS[(index // every) % len(SECRETS)]
    return '\n'.join(lines)


def inputs() -> list[tuple[str, Any, tuple[str, str, dict[str, Any]]]]:
    """(name, value, (user prompt, model text, call arguments)) for every input."""
    found: list[tuple[str, Any, tuple[str, str, dict[str, Any]]]] = []
    cases = json.loads((STANDINS / 'cases.json').read_text(encoding='utf-8'))['cases']
    for case in cases:
        text = (STANDINS / 'captures' / case['file']).read_text(encoding='utf-8')
        value = json.loads(text) if case.get('structured') else text
        found.append((f'case:{case["id"]}', value, (case['user_prompt'], case['model_text'], case['args'])))
    for path in sorted((ROOT / 'tests' / 'data').rglob('*')):
        if path.is_file():
            found.append((f'tests:{path.relative_to(ROOT / "tests" / "data")}', _read(path), GENERIC))
    for path in sorted((ROOT / 'bench' / 'data' / 'real_outputs').glob('*.gz')):
        found.append((f'real:{path.name}', _read(path), GENERIC))
    line = '2026-11-29T10:00:00 INFO worker-3 processed batch 123456 in 12.5 ms status=ok\n'
    log = (line * (MIB // len(line) + 1))[:MIB]
    real = mixed()
    records = [{'id': i, 'name': f'item-{i}', 'tags': ['a', 'b'], 'score': i * 0.5} for i in range(10_000)]
    found += [
        ('bench:log', log, GENERIC),
        ('bench:mixed', real, GENERIC),
        ('bench:records', records, GENERIC),
        ('bench:log+secrets', _with_secrets(log, 997), GENERIC),
        ('bench:mixed+secrets', _with_secrets(real, 211), GENERIC),
        ('bench:mixed+dense-secrets', _with_secrets(real[: MIB // 4], 3), GENERIC),
        ('bench:log+nonascii', log.replace('worker-3', 'wörker-3', 500).replace('ok\n', 'ok ✓\n', 300), GENERIC),
        ('bench:mixed+nonascii+secrets', _with_secrets(real.replace('e', 'é', 2000), 401), GENERIC),
        ('bench:surrogates', log[:200_000] + '\udcff\udc80 bad bytes ' + SECRETS[0] + '\n' + log[:100_000], GENERIC),
    ]
    return found


def _configs(tmp: Path) -> dict[str, Any]:
    position = ours.Spill(preview=ours.TruncationStrategy.head_tail, then=ours.Truncate())
    return {
        'default': ours.ToolOutputLimits(store=ours.LocalFileStore(base_dir=tmp / 'default')),
        'position': ours.ToolOutputLimits(
            bands=[ours.Band(over=10_000, action=position)], store=ours.LocalFileStore(base_dir=tmp / 'position')
        ),
        'broken': ours.ToolOutputLimits(store=BrokenStore()),
    }


def _stored(tmp: Path) -> list[str]:
    """SHA-256 of every file the stores hold, by path under `tmp`."""
    return sorted(
        f'{path.relative_to(tmp)}:{hashlib.sha256(path.read_bytes()).hexdigest()}'
        for path in tmp.rglob('*')
        if path.is_file()
    )


async def run() -> dict[str, Any]:
    logging.getLogger('observable_harness').setLevel(logging.CRITICAL)
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    _instruments._default = Instrumentation(provider, metrics.NoOpMeterProvider())
    out: dict[str, Any] = {}
    for name, value, (prompt, model_text, args) in inputs():
        for with_intent in (False, True):
            tmp = Path(tempfile.mkdtemp(prefix='oh-check-'))
            try:
                for config, capability in _configs(tmp).items():
                    call = ToolCallPart('run_shell', args if with_intent else {}, tool_call_id='call-1')
                    messages: list[Any] = []
                    if with_intent:
                        messages = [
                            ModelRequest(parts=[UserPromptPart(prompt)]),
                            ModelResponse(parts=[TextPart(model_text), call]),
                        ]
                    ctx = RunContext(
                        deps=None,
                        model=TestModel(),
                        usage=RunUsage(),
                        prompt=prompt if with_intent else None,
                        messages=messages,
                        run_id='check-run',
                        tool_call_id='call-1',
                        tool_name='run_shell',
                        retry=0,
                    )
                    tool_def = ToolDefinition(name='run_shell', parameters_json_schema={'type': 'object'})
                    exporter.clear()
                    result = await capability.after_tool_execute(
                        ctx, call=call, tool_def=tool_def, args=call.args_as_dict(), result=value
                    )
                    spans = [
                        {key: _plain(attr) for key, attr in sorted((span.attributes or {}).items())}
                        for span in exporter.get_finished_spans()
                        if span.name.startswith('tool_output')
                    ]
                    key = f'{name}|{"intent" if with_intent else "none"}|{config}'
                    text = result if isinstance(result, str) else repr(result)
                    out[key] = {'stand_in': text, 'spans': spans}
                out[f'{name}|{"intent" if with_intent else "none"}|stored'] = _stored(tmp)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    return out


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def main() -> None:
    parser = argparse.ArgumentParser(description='Every spill output over every capture, written or compared')
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument('--write', type=Path)
    group.add_argument('--compare', type=Path)
    arguments = parser.parse_args()
    found = asyncio.run(run())
    if arguments.write is not None:
        arguments.write.write_text(json.dumps(found, indent=1, sort_keys=True), encoding='utf-8')
        print(f'{len(found)} outputs written to {arguments.write}')
        return
    expected = json.loads(arguments.compare.read_text(encoding='utf-8'))
    current = json.loads(json.dumps(found))
    differ = sorted(key for key in expected.keys() | current.keys() if expected.get(key) != current.get(key))
    for key in differ:
        print(f'DIFFERS: {key}')
    print(f'{len(current)} outputs compared: {len(differ)} differ')
    sys.exit(1 if differ else 0)


if __name__ == '__main__':
    main()
