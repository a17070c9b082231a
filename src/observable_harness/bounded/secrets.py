"""Secret scrubbing before anything is written (SPEC BTO-8).

Command output carries secrets all the time: a `token=` in a URL, an `Authorization: Bearer` header
echoed by `curl -v`, a `.env` that a test printed, a private key someone `cat`-ed. A store or a
retention file keeps them long after the run, so every write path scrubs first, here, on by default.
What is replaced is the secret itself; the name it was assigned to stays, so the stored output still
reads (`password=[REDACTED:assignment]`). Telemetry counts redactions by kind, never their content.

```python
from observable_harness.bounded import scrub

result = scrub('curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def" https://api.example.com?token=s3cr3t-v4lue')
assert 's3cr3t' not in result.text and result.counts == {'bearer': 1, 'assignment': 1}
```
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..telemetry import bounded as telemetry

__all__ = [
    'DEFAULT_PATTERNS',
    'DEFAULT_SCRUBBER',
    'ScrubResult',
    'Scrubber',
    'SecretPattern',
    'scrub',
    'scrub_bytes',
]

T = TypeVar('T', str, bytes)

_PLACEHOLDER = '[REDACTED:{kind}]'
_PLACEHOLDER_VALUES = frozenset(
    {'', 'none', 'null', 'nil', 'true', 'false', 'undefined', 'redacted', '***', '****', '*****', 'xxx', 'xxxx', '...'}
)


@dataclass(frozen=True, slots=True)
class SecretPattern:
    """One kind of secret: a regex, which group holds the secret, and cheap fragments that gate the regex.

    ```python
    import re

    from observable_harness.bounded import Scrubber, SecretPattern

    internal = SecretPattern('internal_token', re.compile(r'\\bitk_[0-9a-f]{32}\\b'), hints=('itk_',))
    scrubber = Scrubber(extra=(internal,))
    assert scrubber.scrub('itk_' + 'a' * 32).counts == {'internal_token': 1}
    ```
    """

    kind: str
    """Low-cardinality name: the telemetry label and the placeholder's suffix."""
    pattern: re.Pattern[str]
    """Matches a secret (and, around it, whatever context identifies it)."""
    group: int = 0
    """The group that is the secret itself; the rest of the match stays. Patterns with alternative
    value groups (quoted or not) use `value_groups` instead."""
    hints: tuple[str, ...] = ()
    """Fragments of which one must occur in the text for the regex to run: most texts hold no secret
    and skip every regex at memory speed. Empty: always run."""
    ignore_case_hints: bool = False
    """Look for `hints` in the lowercased text (for patterns that ignore case)."""
    value_groups: tuple[int, ...] = ()
    """Alternative groups of which the first that matched is the secret (quoted or bare values)."""


def _p(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


_ASSIGNED_NAME = (
    r'(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|'
    r'private[_-]?key|client[_-]?secret|auth[_-]?token|credentials?)'
)

DEFAULT_PATTERNS: tuple[SecretPattern, ...] = (
    SecretPattern(
        'private_key',
        _p(
            r'-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----'
            r'(?:[\s\S]*?-----END \1PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:-]*)'
        ),
        hints=('PRIVATE KEY',),
    ),
    SecretPattern(
        'aws_access_key', _p(r'\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b'), hints=('AKIA', 'ASIA', 'ABIA', 'ACCA')
    ),
    SecretPattern(
        'github_token',
        _p(r'\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})'),
        hints=('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'),
    ),
    SecretPattern('gitlab_token', _p(r'\bglpat-[A-Za-z0-9_-]{20,}'), hints=('glpat-',)),
    SecretPattern('slack_token', _p(r'\bxox[abposr]-[A-Za-z0-9-]{10,}'), hints=('xox',)),
    SecretPattern(
        'slack_webhook',
        _p(r'https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,}'),
        hints=('hooks.slack.com',),
    ),
    SecretPattern('stripe_key', _p(r'\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}'), hints=('k_live_', 'k_test_')),
    SecretPattern('anthropic_key', _p(r'\bsk-ant-[A-Za-z0-9_-]{20,}'), hints=('sk-ant-',)),
    SecretPattern('openai_key', _p(r'\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}'), hints=('sk-',)),
    SecretPattern('google_api_key', _p(r'\bAIza[0-9A-Za-z_-]{35}'), hints=('AIza',)),
    SecretPattern('npm_token', _p(r'\bnpm_[A-Za-z0-9]{36}\b'), hints=('npm_',)),
    SecretPattern('pypi_token', _p(r'\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}'), hints=('pypi-',)),
    SecretPattern('jwt', _p(r'\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}'), hints=('eyJ',)),
    SecretPattern(
        'bearer',
        _p(r'\b(bearer)\s+(?!\[REDACTED)([A-Za-z0-9._~+/=-]{8,})', re.IGNORECASE),
        group=2,
        hints=('bearer',),
        ignore_case_hints=True,
    ),
    SecretPattern(
        'basic_auth',
        _p(r'\bauthorization:\s*basic\s+([A-Za-z0-9+/=]{8,})', re.IGNORECASE),
        group=1,
        hints=('basic',),
        ignore_case_hints=True,
    ),
    SecretPattern(
        'url_credentials',
        _p(r'\b[a-z][a-z0-9+.-]*://[^/\s:@]+:(?!\[REDACTED)([^@\s/]+)@', re.IGNORECASE),
        group=1,
        hints=('://',),
    ),
    SecretPattern(
        'assignment',
        _p(
            r'(?<![\w.-])(?:[\w.-]*?[_.-])?' + _ASSIGNED_NAME + r'["\']?\s*[:=]\s*'
            r'(?!\[REDACTED)(?:"([^"\n]*)"|\'([^\'\n]*)\'|([^\s"\',;&)}\]]+))',
            re.IGNORECASE,
        ),
        hints=('pass', 'secret', 'token', 'key', 'credential'),
        ignore_case_hints=True,
        value_groups=(1, 2, 3),
    ),
)
"""Specific formats first: once a GitHub token is replaced, the `token=` around it is not counted twice."""


@dataclass(frozen=True, slots=True)
class ScrubResult(Generic[T]):
    """Scrubbed text (or bytes) and how many secrets of each kind were replaced."""

    text: T
    counts: Mapping[str, int] = field(default_factory=dict[str, int])

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def _replacer(secret: SecretPattern, counts: dict[str, int]) -> Callable[[re.Match[str]], str]:
    placeholder = _PLACEHOLDER.format(kind=secret.kind)
    groups = secret.value_groups or (secret.group,)

    def replace(match: re.Match[str]) -> str:
        for group in groups:
            value = match.group(group)
            if value is None:
                continue
            if value.strip().lower() in _PLACEHOLDER_VALUES or value.startswith(('$', '<', '%(', '{{', '[REDACTED')):
                # Empty values, placeholders and references to a variable are not secrets.
                return match.group(0)
            counts[secret.kind] = counts.get(secret.kind, 0) + 1
            start, end = match.span(group)
            whole_start = match.start()
            text = match.group(0)
            return text[: start - whole_start] + placeholder + text[end - whole_start :]
        return match.group(0)

    return replace


@dataclass(frozen=True)
class Scrubber:
    """Replaces secrets with `[REDACTED:<kind>]` before a write; every write path in this package uses one.

    On by default everywhere (`DEFAULT_SCRUBBER`); pass `scrubber=None` to a building block to store
    output verbatim, or a `Scrubber(extra=...)` to add your own formats.

    ```python
    from observable_harness.bounded import Scrubber

    assert Scrubber().scrub('password=hunter2').text == 'password=[REDACTED:assignment]'
    assert Scrubber(enabled=False).scrub('password=hunter2').text == 'password=hunter2'
    ```
    """

    patterns: Sequence[SecretPattern] = DEFAULT_PATTERNS
    """The formats to find; replace the defaults only to remove one that misfires on your output."""
    extra: Sequence[SecretPattern] = ()
    """Formats of your own, applied after `patterns`."""
    enabled: bool = True
    """False stores output verbatim (for output known to hold no secrets, such as public listings)."""

    def scrub(self, text: str) -> ScrubResult[str]:
        """`text` with every secret replaced; redactions are counted in telemetry by kind."""
        if not self.enabled or not text:
            return ScrubResult(text)
        counts: dict[str, int] = {}
        lowered: str | None = None
        for secret in (*self.patterns, *self.extra):
            if secret.hints:
                if secret.ignore_case_hints:
                    if lowered is None:
                        lowered = text.lower()
                    haystack = lowered
                else:
                    haystack = text
                if not any(hint in haystack for hint in secret.hints):
                    continue
            before = counts.get(secret.kind, 0)
            replaced = secret.pattern.sub(_replacer(secret, counts), text)
            if counts.get(secret.kind, 0) != before:
                text = replaced
                lowered = None
        if counts:
            telemetry.record_redactions(counts)
        return ScrubResult(text, counts)

    def scrub_bytes(self, data: bytes) -> ScrubResult[bytes]:
        """`data` with every secret replaced; bytes that are not UTF-8 pass through unchanged."""
        if not self.enabled or not data:
            return ScrubResult(data)
        text = data.decode('utf-8', 'surrogateescape')
        result = self.scrub(text)
        if not result.counts:
            return ScrubResult(data)
        return ScrubResult(result.text.encode('utf-8', 'surrogateescape'), result.counts)


DEFAULT_SCRUBBER = Scrubber()
"""The scrubber every write path uses unless told otherwise."""


def scrub(text: str) -> ScrubResult[str]:
    """Replace secrets in `text` with the default scrubber (see `Scrubber`)."""
    return DEFAULT_SCRUBBER.scrub(text)


def scrub_bytes(data: bytes) -> ScrubResult[bytes]:
    """Replace secrets in UTF-8 `data` with the default scrubber; other bytes pass through unchanged."""
    return DEFAULT_SCRUBBER.scrub_bytes(data)
