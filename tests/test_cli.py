"""The command line: a version, and one-line errors instead of tracebacks for what a user gets wrong."""

from __future__ import annotations

import pytest

from observable_harness import __version__
from observable_harness.cli import main


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(['--version'])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f'observable-harness {__version__}'


@pytest.mark.parametrize(
    ('model', 'message'),
    [
        ('nosuch:model', 'Unknown model: nosuch:model'),
        ('openai:gpt-4o', 'OPENAI_API_KEY'),
    ],
)
def test_demo_with_a_model_it_cannot_use_says_why_in_one_line(
    model: str, message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv('OPENAI_API_KEY', raising=False)
    assert main(['demo', '--model', model, '--no-metrics', '--no-progress']) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1 and 'Traceback' not in err


def test_calibrate_checks_the_window_itself(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(['calibrate', 'http://127.0.0.1:9', '--window', '7days']) == 2
    err = capsys.readouterr().err
    assert "--window '7days' is not a duration" in err and 'like 7d, 12h' in err
    assert 'http://' not in err  # no raw URL, no Prometheus parse error
