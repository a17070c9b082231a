"""Retention of command-output originals.

A file read can be paged again; a command ran once, and what condensing removed from its output is
gone unless the original was kept. Keeping every original pays storage for successful runs nobody
will reread, keeping none loses exactly the failures someone will. So the useful policy is the middle
one: `failures` keeps the original only when the run probably failed (a non-zero exit status, or,
when the tool reports none, error lines in the output). Originals are scrubbed before they are written.

A tool reports its exit status by returning a `CommandOutput`, a `str` that also carries it:

```python
import subprocess

from observable_harness.bounded import CommandOutput


def run(command: list[str]) -> CommandOutput:
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    return CommandOutput(proc.stdout + proc.stderr, exit_status=proc.returncode)


out = run(['python3', '-c', 'raise SystemExit(3)'])
assert out.exit_status == 3 and isinstance(out, str)
```
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias

from .._text.hashing import content_hash
from .._text.layout import utf8_size
from .._text.lines import Classification, LineClass, classify_lines, exit_status_of
from .._text.secrets import DEFAULT_SCRUBBER, Scrubber
from ..storage import scrub_before_write
from . import _telemetry as telemetry
from ._records import RetentionRecord

__all__ = [
    'CommandOutput',
    'Retention',
    'RetentionPolicy',
    'RetentionRecord',
    'WritableStore',
    'probable_failure',
    'reported_exit_status',
]

RetentionPolicy: TypeAlias = Literal['never', 'failures', 'always']

_log = logging.getLogger('observable_harness.bounded')
_TRAILING_LINES_SCANNED = 3


class CommandOutput(str):
    """A tool's text output that also carries the command's exit status.

    It is a `str` everywhere (the model, history, serializers see the text); `Condense` and
    `Retention` read `exit_status` to tell a failed run from a successful one without guessing.
    """

    exit_status: int | None

    def __new__(cls, text: str = '', exit_status: int | None = None) -> CommandOutput:
        self = super().__new__(cls, text)
        self.exit_status = exit_status
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (CommandOutput, (str(self), self.exit_status))


def reported_exit_status(value: object) -> int | None:
    """The exit status a tool reported: a `CommandOutput`'s, else a trailing `exit=N`-style line's."""
    status = getattr(value, 'exit_status', None)
    if isinstance(status, int):
        return status
    if not isinstance(value, str):
        return None
    tail = value[-400:].splitlines()
    for line in reversed(tail[-_TRAILING_LINES_SCANNED:]):
        found = exit_status_of(line)
        if found is not None:
            return found
    return None


def probable_failure(exit_status: int | None, classification: Classification) -> str | None:
    """Why the output looks like a failure (`exit_status`, `error_lines`), or None.

    A reported status decides alone: a run that exits 0 while logging `ERROR` lines succeeded. Without
    one, any error line counts, because keeping a success costs a file and losing a failure costs the
    only copy of its cause.
    """
    if exit_status is not None:
        return 'exit_status' if exit_status != 0 else None
    return 'error_lines' if classification.has(LineClass.error) else None


Writer: TypeAlias = Callable[[bytes], Awaitable[str]]
"""`async (data) -> handle`: how a retention path writes (a store's `write` bound to a key)."""


class WritableStore(Protocol):
    """The half of `OverflowStore` a write path needs."""

    async def write(self, key: str, data: bytes) -> str: ...


@dataclass(frozen=True)
class Retention:
    """Decide whether to keep a command's original output, and keep it (scrubbed) when so.

    ```python
    import asyncio
    import tempfile

    from observable_harness.bounded import CommandOutput, Retention
    from observable_harness.storage import LocalFileStore

    store = LocalFileStore(base_dir=tempfile.mkdtemp())
    failed = CommandOutput('building...\\nerror: linker failed, token=abc123', exit_status=1)
    record = asyncio.run(Retention('failures').retain(failed, store, key='build/1'))
    assert record.handle == 'build/1' and b'abc123' not in asyncio.run(store.read('build/1'))
    ```
    """

    policy: RetentionPolicy = 'failures'
    """`never`, `failures` (only probable failures: non-zero exit, or error lines when no status is
    reported) or `always`."""
    scrubber: Scrubber | None = DEFAULT_SCRUBBER
    """Scrubs secrets before the write; `None` writes verbatim."""

    def __post_init__(self) -> None:
        if self.policy not in ('never', 'failures', 'always'):
            raise ValueError(f"Retention policy must be 'never', 'failures' or 'always'; got {self.policy!r}.")

    def decide(self, exit_status: int | None, classification: Classification) -> tuple[bool, str]:
        """(keep?, reason) for output with this exit status and these line classes."""
        if self.policy == 'never':
            return False, 'never'
        if self.policy == 'always':
            return True, 'always'
        failure = probable_failure(exit_status, classification)
        return (True, failure) if failure else (False, 'no_failure')

    async def keep(
        self,
        text: str,
        write: Writer,
        *,
        exit_status: int | None = None,
        classification: Classification | None = None,
        tool_name: str = '',
    ) -> RetentionRecord:
        """Decide and, when the policy says so, scrub and write; a failing write is recorded, never raised."""
        with telemetry.retain_span(tool_name) as record:
            if classification is None and self.policy == 'failures' and exit_status is None:
                classification = classify_lines(text.splitlines())
            keep, reason = self.decide(exit_status, classification or Classification([], []))
            handle: str | None = None
            digest: str | None = None
            redactions = 0
            size = utf8_size(text)
            if keep:
                scrubbed = scrub_before_write(self.scrubber, text)
                text, redactions = scrubbed.text, scrubbed.total
                data = text.encode('utf-8', 'surrogatepass')
                size = len(data)
                digest = content_hash(data)
                try:
                    handle = await write(data)
                except Exception as error:
                    # The run goes on with its condensed output; only the way back to the original is lost.
                    _log.warning('observable_harness: could not retain tool output (%s)', type(error).__name__)
                    reason = 'store_failed'
            result = RetentionRecord(
                policy=self.policy,
                reason=reason,
                handle=handle,
                original_bytes=size,
                content_hash=digest,
                redactions=redactions,
            )
            record(result)
        return result

    async def retain(
        self, output: str, store: WritableStore, *, key: str, exit_status: int | None = None, tool_name: str = ''
    ) -> RetentionRecord:
        """For your own tools: keep `output` in `store` (anything with `async write(key, data) -> handle`).

        The exit status comes from `exit_status`, else from a `CommandOutput`, else from a trailing
        `exit=N`-style line.
        """
        status = exit_status if exit_status is not None else reported_exit_status(output)

        async def write(data: bytes) -> str:
            return await store.write(key, data)

        return await self.keep(str(output), write, exit_status=status, tool_name=tool_name)
