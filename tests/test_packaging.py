"""What a pip user gets: the wheel carries the license, the assets and a README that reads on a package index,
and the assets written from the built wheel are the files committed in the repository."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from observable_harness.ops import assets
from tests.e2e.prometheus import REPO_ROOT, clean_env


@pytest.fixture(scope='module')
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp('wheel')
    built = subprocess.run(
        [
            sys.executable,
            '-m',
            'pip',
            'wheel',
            '--no-deps',
            '--no-build-isolation',
            '-q',
            '-w',
            str(out),
            str(REPO_ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    [found] = out.glob('observable_harness-*.whl')
    return found


def test_the_wheel_carries_the_license_and_every_asset(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for asset in assets.STATIC_FILES:
        assert f'observable_harness/ops/assets/{asset}' in names, asset
    assert any(name.endswith('.dist-info/licenses/LICENSE') for name in names)
    assert 'observable_harness/py.typed' in names
    assert not any(name.startswith(('tests/', 'bench/')) for name in names)


def test_the_long_description_links_work_on_a_package_index(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        [metadata] = [name for name in archive.namelist() if name.endswith('.dist-info/METADATA')]
        text = archive.read(metadata).decode()
    relative = re.findall(r'\]\((?!https?://|#)([^)]+)\)', text)
    assert relative == [], f'links a package index cannot follow: {relative}'
    assert 'Requires-Dist: opentelemetry-api' in text
    core = [line for line in text.splitlines() if line.startswith('Requires-Dist:') and 'extra ==' not in line]
    # genai-prices comes with pydantic-ai-slim anyway; it is declared because the capabilities import it.
    assert sorted(line.split()[1].split('>')[0].split('<')[0] for line in core) == [
        'anyio',
        'genai-prices',
        'opentelemetry-api',
        'pydantic-ai-slim',
        'xxhash',
    ]


def test_the_assets_written_from_the_built_wheel_are_the_committed_files(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / 'site'
    zipfile.ZipFile(wheel).extractall(site)
    out = tmp_path / 'out'
    code = (
        f'import sys; sys.path.insert(0, {str(site)!r}); import observable_harness; '
        f'assert observable_harness.__file__.startswith({str(site)!r}), observable_harness.__file__; '
        f'from observable_harness.cli import main; sys.exit(main(["assets", {str(out)!r}]))'
    )
    written = subprocess.run(
        [sys.executable, '-c', code], capture_output=True, text=True, timeout=120, check=False, env=clean_env()
    )
    assert written.returncode == 0, written.stdout + written.stderr
    for path in sorted(out.iterdir()):
        committed = REPO_ROOT / ('.' if path.name == assets.COLLECTOR_FILE else 'dashboards') / path.name
        assert path.read_text(encoding='utf-8') == committed.read_text(encoding='utf-8'), path.name
