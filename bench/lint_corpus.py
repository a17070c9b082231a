"""Build the lint corpus (`bench/lint_corpus.toml`) from snapshots of the public repositories it cites.

The corpus is real code from other projects, so it is never committed: this script copies the cited
definitions verbatim out of local git snapshots (one bare or normal git directory per repository,
found as `<mirrors>/<owner>+<name>/repo` or `<mirrors>/<owner>+<name>`) at the cited commit, into
`<out>/<split>/<slug>/<path>`, with a header naming the source, commit and license.

    python bench/lint_corpus.py build --out ~/.cache/observable-harness/lint-corpus --mirrors /work/.mirror
    python bench/lint_corpus.py check    # the manifest alone: every tool named by a source it keeps
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST = Path(__file__).with_name('lint_corpus.toml')
DEFAULT_OUT = Path.home() / '.cache' / 'observable-harness' / 'lint-corpus'
DEFAULT_MIRRORS = Path('/work/.mirror')
SPLITS = ('tune', 'heldout', 'check')
CODES = ('BTO001', 'BTO002', 'BTO003')


@dataclass(frozen=True)
class Label:
    name: str
    codes: frozenset[str]
    why: str


@dataclass(frozen=True)
class Source:
    split: str
    slug: str
    repo: str
    commit: str
    license: str
    path: str
    names: tuple[str, ...] | None
    register: tuple[str, ...]
    tools: tuple[Label, ...] = field(default=())

    @property
    def relative(self) -> Path:
        """Where the extracted file lives under `<out>/<split>/`."""
        return Path(self.slug) / self.path


def load_manifest(path: Path = MANIFEST) -> list[Source]:
    data = tomllib.loads(path.read_text(encoding='utf-8'))
    sources: list[Source] = []
    for raw in data['source']:
        tools = tuple(Label(tool['name'], frozenset(tool['codes']), tool['why']) for tool in raw.get('tool', []))
        for label in tools:
            unknown = label.codes - set(CODES)
            if unknown:
                raise ValueError(f'{raw["path"]}: {label.name}: unknown codes {sorted(unknown)}')
        if raw['split'] not in SPLITS:
            raise ValueError(f'{raw["path"]}: split must be one of {SPLITS}')
        names = raw.get('names')
        sources.append(
            Source(
                split=raw['split'],
                slug=raw['slug'],
                repo=raw['repo'],
                commit=raw['commit'],
                license=raw['license'],
                path=raw['path'],
                names=tuple(names) if names is not None else None,
                register=tuple(raw.get('register', ())),
                tools=tools,
            )
        )
    return sources


def _git_dir(mirrors: Path, repo: str) -> Path:
    base = mirrors / repo.replace('/', '+')
    for candidate in (base / 'repo', base):
        if candidate.exists():
            return candidate
    raise FileNotFoundError(f'no snapshot of {repo} under {mirrors} (expected {base}/repo)')


def _segment(lines: list[str], node: ast.stmt) -> str:
    decorators: list[ast.expr] = getattr(node, 'decorator_list', [])
    start = min([decorator.lineno for decorator in decorators] + [node.lineno])
    end = node.end_lineno or node.lineno
    return '\n'.join(lines[start - 1 : end])


def _assigned(node: ast.stmt) -> set[str]:
    if isinstance(node, ast.Assign):
        return {target.id for target in node.targets if isinstance(target, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    return set()


def _defined(node: ast.stmt) -> set[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    return _assigned(node)


def extract(source: str, names: tuple[str, ...]) -> str:
    """The module's imports and the named definitions, verbatim, in the module's order."""
    lines = source.splitlines()
    tree = ast.parse(source)
    top = {name for name in names if '.' not in name}
    members: dict[str, list[str]] = {}
    for name in names:
        if '.' in name:
            owner, member = name.split('.', 1)
            members.setdefault(owner, []).append(member)
    parts: list[str] = []
    imports = [_segment(lines, node) for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
    found: set[str] = set()
    for node in tree.body:
        defined = _defined(node)
        if defined & top:
            parts.append(_segment(lines, node))
            found |= defined & top
        elif isinstance(node, ast.ClassDef) and node.name in members:
            wanted = set(members[node.name])
            start = min([decorator.lineno for decorator in node.decorator_list] + [node.lineno])
            header_end = node.lineno
            while not lines[header_end - 1].rstrip().endswith(':'):
                header_end += 1
            kept = [_segment(lines, item) for item in node.body if _defined(item) & wanted]
            missing = wanted - {name for item in node.body for name in _defined(item)}
            if missing:
                raise KeyError(f'{node.name} has no {sorted(missing)}')
            header = '\n'.join(lines[start - 1 : header_end])
            parts.append(header + '\n    # (other members of the class left out)\n\n' + '\n\n'.join(kept))
            found.add(node.name)
    missing_top = (top | set(members)) - found
    if missing_top:
        raise KeyError(f'not defined at the top level: {sorted(missing_top)}')
    return '\n'.join(imports) + '\n\n\n' + '\n\n\n'.join(parts) + '\n'


def _registration(register: tuple[str, ...]) -> str:
    return (
        '\n\n# --- lint corpus: registers the tools above as pydantic-ai tools (not part of the source) ---\n'
        'from pydantic_ai import FunctionToolset\n\n'
        f'lint_corpus_toolset = FunctionToolset([{", ".join(register)}])\n'
    )


def render(entry: Source, original: str) -> str:
    header = (
        f'# Source: https://github.com/{entry.repo}/blob/{entry.commit}/{entry.path}\n'
        f'# License: {entry.license}. Copied verbatim{" (selected definitions)" if entry.names else ""} '
        'for the observable-harness lint corpus; not part of observable-harness.\n'
    )
    body = extract(original, entry.names) if entry.names is not None else original
    text = header + body.rstrip('\n') + '\n'
    if entry.register:
        text += _registration(entry.register)
    compile(text, entry.path, 'exec')  # the corpus must parse, or it scores nothing
    return text


def build(out: Path, mirrors: Path) -> int:
    sources = load_manifest()
    for entry in sources:
        git_dir = _git_dir(mirrors, entry.repo)
        original = subprocess.run(
            ['git', '-C', str(git_dir), 'show', f'{entry.commit}:{entry.path}'],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        target = out / entry.split / entry.relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render(entry, original), encoding='utf-8')
    for split in SPLITS:
        count = sum(len(entry.tools) for entry in sources if entry.split == split)
        print(f'{split}: {count} tools in {sum(1 for e in sources if e.split == split)} files -> {out / split}')
    return 0


def check() -> int:
    sources = load_manifest()
    problems = 0
    for entry in sources:
        for label in entry.tools:
            kept = entry.names is None or label.name in entry.names or label.name.split('.')[0] in entry.names
            if not kept and entry.names is not None:
                kept = any(name.startswith(label.name.split('.')[0] + '.') for name in entry.names)
            if not kept:
                print(f'{entry.path}: {label.name} is labelled but not extracted')
                problems += 1
    print(f'{len(sources)} files, {sum(len(e.tools) for e in sources)} labelled tools, {problems} problems')
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest='command', required=True)
    build_parser = commands.add_parser('build', help='extract the corpus from local snapshots')
    build_parser.add_argument('--out', type=Path, default=DEFAULT_OUT)
    build_parser.add_argument('--mirrors', type=Path, default=DEFAULT_MIRRORS)
    commands.add_parser('check', help='check the manifest without building')
    args = parser.parse_args(argv)
    if args.command == 'build':
        return build(args.out, args.mirrors)
    return check()


if __name__ == '__main__':
    sys.exit(main())
