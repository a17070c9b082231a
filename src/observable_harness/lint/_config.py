"""`[tool.observable-harness.lint]` in pyproject.toml: sources and bounds the linter cannot know by itself."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

__all__ = ['ConfigError', 'LintConfig', 'find_config', 'load_config']

_KEYS = ('command-sources', 'file-sources', 'bounds')


class ConfigError(ValueError):
    """A `[tool.observable-harness.lint]` table that cannot be used, with the file and key at fault."""


@dataclass(frozen=True, slots=True)
class LintConfig:
    """Names the linter should treat as sources or bounds, beyond those it knows.

    Each entry is a qualified call name as imported (`mylib.shell.run`, `mylib.docs.load_pdf`), or
    `.method` for a method of that name on any object (`.exec_command`).
    - `command_sources`: calls whose result is a command's output (`BTO001` when returned uncapped).
    - `file_sources`: calls whose result is a file's or document's contents (`BTO002`).
    - `bounds`: calls that cap what they are given and say so (your own `clip(text)` kept outside
      the paths you lint); their result counts as bounded and marked.
    """

    command_sources: frozenset[str] = frozenset()
    file_sources: frozenset[str] = frozenset()
    bounds: frozenset[str] = frozenset()

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any], where: str = 'configuration') -> LintConfig:
        unknown = sorted(set(table) - set(_KEYS))
        if unknown:
            raise ConfigError(f'{where}: unknown key(s) {", ".join(unknown)}; known: {", ".join(_KEYS)}')
        values: dict[str, frozenset[str]] = {}
        for key in _KEYS:
            raw = table.get(key, [])
            if not isinstance(raw, list) or not all(isinstance(item, str) and item for item in raw):  # pyright: ignore[reportUnknownVariableType]
                raise ConfigError(f'{where}: {key} must be a list of names such as "mylib.shell.run"')
            values[key] = frozenset(str(item) for item in raw)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
        return cls(values['command-sources'], values['file-sources'], values['bounds'])


def find_config(paths: Iterable[str | Path]) -> Path | None:
    """The nearest pyproject.toml at or above the first path (or the working directory), if it has the lint table."""
    start = next((Path(path).resolve() for path in paths), Path.cwd())
    for directory in (start, *start.parents) if start.is_dir() else start.parents:
        candidate = directory / 'pyproject.toml'
        if candidate.is_file():
            return candidate if _lint_table(candidate) is not None else None
    return None


def _lint_table(path: Path) -> Mapping[str, Any] | None:
    try:
        data = tomllib.loads(path.read_text(encoding='utf-8'))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f'{path}: cannot read: {error}') from error
    table: Any = data
    for key in ('tool', 'observable-harness', 'lint'):
        if not isinstance(table, dict):
            return None
        table = cast('dict[str, Any]', table).get(key)
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f'{path}: [tool.observable-harness.lint] must be a table')
    return cast('dict[str, Any]', table)


def load_config(path: str | Path) -> LintConfig:
    """The lint configuration in the pyproject.toml at `path` (empty when the file has no lint table)."""
    file = Path(path)
    table = _lint_table(file)
    return LintConfig() if table is None else LintConfig.from_mapping(table, f'{file} [tool.observable-harness.lint]')
