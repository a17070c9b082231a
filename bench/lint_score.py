"""Precision and recall of `observable-harness lint` on the hand-labelled corpus, per code and split.

Runs the command users run (`python -m observable_harness lint DIR`) once per split over the corpus
built by `bench/lint_corpus.py build`, reads its `path:line: CODE message` lines, gives each finding
to the innermost labelled tool function around its line, and compares with the labels in
`bench/lint_corpus.toml`. A finding outside every labelled tool counts as a false positive.

    python bench/lint_score.py [--corpus DIR] [--split tune|heldout|check|all] [--show]
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from lint_corpus import CODES, DEFAULT_OUT, SPLITS, Source, load_manifest

_FINDING = re.compile(r'^(?P<path>.+?):(?P<line>\d+): (?P<code>[A-Z]+\d{3}) (?P<message>.*)$')


@dataclass(frozen=True)
class Span:
    qualname: str
    start: int
    end: int


def _spans(tree: ast.Module) -> list[Span]:
    found: list[Span] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f'{prefix}{child.name}'
                if not isinstance(child, ast.ClassDef):
                    found.append(Span(name, child.lineno, child.end_lineno or child.lineno))
                visit(child, f'{name}.')
            else:
                visit(child, prefix)

    visit(tree, '')
    return found


def run_linter(directory: Path) -> tuple[int, list[tuple[Path, int, str, str]], str]:
    proc = subprocess.run(
        [sys.executable, '-m', 'observable_harness', 'lint', str(directory)],
        capture_output=True,
        text=True,
        check=False,
    )
    findings: list[tuple[Path, int, str, str]] = []
    for line in proc.stdout.splitlines():
        match = _FINDING.match(line)
        if match:
            findings.append((Path(match['path']).resolve(), int(match['line']), match['code'], match['message']))
    return proc.returncode, findings, proc.stderr


@dataclass
class Score:
    tp: Counter[str]
    fp: Counter[str]
    fn: Counter[str]
    tools: int
    positives: Counter[str]
    exit_code: int
    errors: list[str]
    mistakes: list[str]


def score_split(sources: list[Source], root: Path) -> Score:
    labelled: dict[tuple[Path, str], frozenset[str]] = {}
    spans: dict[Path, list[Span]] = {}
    for entry in sources:
        path = (root / entry.relative).resolve()
        spans[path] = _spans(ast.parse(path.read_text(encoding='utf-8')))
        for label in entry.tools:
            if not any(span.qualname == label.name for span in spans[path]):
                raise KeyError(f'{path}: no function {label.name}')
            labelled[(path, label.name)] = label.codes
    exit_code, findings, stderr = run_linter(root)
    predicted: dict[tuple[Path, str], set[str]] = {}
    errors = [line for line in stderr.splitlines() if line.strip()]
    for path, line, code, message in findings:
        if code not in CODES:
            errors.append(f'{path}:{line}: {code} {message}')
            continue
        around = [s for s in spans.get(path, []) if s.start <= line <= s.end and (path, s.qualname) in labelled]
        key = (path, max(around, key=lambda s: s.start).qualname) if around else (path, f'<unlabelled line {line}>')
        predicted.setdefault(key, set()).add(code)
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    positives: Counter[str] = Counter()
    mistakes: list[str] = []
    for key in sorted(set(labelled) | set(predicted), key=lambda k: (str(k[0]), k[1])):
        expected = labelled.get(key, frozenset())
        got = predicted.get(key, set())
        for code in CODES:
            positives[code] += code in expected
            if code in expected and code in got:
                tp[code] += 1
            elif code in got:
                fp[code] += 1
                mistakes.append(f'FP {code} {key[0].relative_to(root.resolve())}::{key[1]}')
            elif code in expected:
                fn[code] += 1
                mistakes.append(f'FN {code} {key[0].relative_to(root.resolve())}::{key[1]}')
    return Score(tp, fp, fn, len(labelled), positives, exit_code, errors, mistakes)


def _ratio(numerator: int, denominator: int) -> str:
    return f'{numerator / denominator:.3f}' if denominator else '  n/a'


def report(name: str, score: Score, show: bool) -> None:
    print(f'\n{name}: {score.tools} labelled tools, exit code {score.exit_code}')
    print(f'  {"code":8} {"labelled":>8} {"tp":>4} {"fp":>4} {"fn":>4} {"precision":>9} {"recall":>7}')
    for code in (*CODES, 'all'):
        if code == 'all':
            tp, fp, fn, pos = (sum(c.values()) for c in (score.tp, score.fp, score.fn, score.positives))
        else:
            tp, fp, fn, pos = score.tp[code], score.fp[code], score.fn[code], score.positives[code]
        print(f'  {code:8} {pos:>8} {tp:>4} {fp:>4} {fn:>4} {_ratio(tp, tp + fp):>9} {_ratio(tp, tp + fn):>7}')
    for error in score.errors:
        print(f'  error: {error}')
    if show:
        for mistake in score.mistakes:
            print(f'  {mistake}')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--corpus', type=Path, default=DEFAULT_OUT, help='built by bench/lint_corpus.py build')
    parser.add_argument('--split', choices=(*SPLITS, 'all'), default='all')
    parser.add_argument('--show', action='store_true', help='list every false positive and false negative')
    args = parser.parse_args(argv)
    sources = load_manifest()
    for split in SPLITS if args.split == 'all' else (args.split,):
        root = args.corpus / split
        if not root.is_dir():
            print(f'{root}: no corpus here; build it with bench/lint_corpus.py build --out {args.corpus}')
            return 2
        report(split, score_split([s for s in sources if s.split == split], root), args.show)
    return 0


if __name__ == '__main__':
    sys.exit(main())
