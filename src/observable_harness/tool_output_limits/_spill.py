"""`Spill`: keep the whole payload in the overflow store and show the model a stand-in to page from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantic_ai.messages import BinaryContent

from .._text.cut import TruncationStrategy, excerpt, read_instructions
from .._text.salient import salient_excerpt
from ._actions import Reduced, ReductionAction, ReductionEnv
from ._payload import Unit

__all__ = ['Spill', 'render_stand_in']


@dataclass(frozen=True)
class Spill(ReductionAction):
    """Store the whole payload and show the model a short stand-in it can page from.

    The stand-in carries the total size, the handle, how to read it back with the run's read tool, a
    one-line shape sketch for structured values and a head+tail preview. Lossless when the store
    accepts the write; `then` decides what happens when it does not.

    ```python
    from observable_harness.tool_output_limits import Spill, Truncate

    Spill(preview_chars=1_000, then=Truncate())
    ```
    """

    name: ClassVar[str] = 'spill'
    check_on_failure: ClassVar[str] = 'the overflow store: its directory or bucket, permissions, free space'

    preview_chars: int = 1_000
    """Characters of preview in the stand-in: enough to see what the output is and what went wrong."""

    preview: TruncationStrategy = TruncationStrategy.salient
    """How text previews choose lines: `salient` (errors, results, first and last lines) or by position
    (`head_tail`, `head`, `tail`). Structured values always preview both ends of their JSON."""

    then: ReductionAction | None = None
    """Used when the store raises (full disk, unwritable root, backend down)."""

    def __post_init__(self) -> None:
        if self.preview_chars < 0:
            raise ValueError(f'Spill.preview_chars must be >= 0; got {self.preview_chars}.')
        if not isinstance(self.preview, TruncationStrategy):  # pyright: ignore[reportUnnecessaryIsInstance]
            object.__setattr__(self, 'preview', TruncationStrategy(self.preview))

    async def apply(self, unit: Unit, env: ReductionEnv) -> Reduced:
        handle = await env.store(unit, unit.data)  # a store failure propagates, so that `then` takes over
        stand_in = render_stand_in(
            unit, handle, preview_chars=self.preview_chars, read_tool_name=env.read_tool_name, preview=self.preview
        )
        return Reduced(stand_in, 'spill', handle=handle)


def render_stand_in(
    unit: Unit,
    handle: str,
    *,
    preview_chars: int,
    read_tool_name: str,
    preview: TruncationStrategy = TruncationStrategy.salient,
) -> str:
    """The short text the model sees in place of a spilled payload.

    A header with the total size and the handle, how to read it back, a one-line shape sketch for
    structured values, and a head+tail preview.
    """
    if unit.text is None:
        media = unit.value.media_type if isinstance(unit.value, BinaryContent) else 'application/octet-stream'
        return (
            f'[Binary output of {unit.tool_name} ({len(unit.data):,} bytes, {media}) was stored whole; '
            f'it cannot be shown as text here. {read_instructions(read_tool_name, handle)}]'
        )
    text = unit.text
    # No line count here: counting a megabyte's newlines costs as much as storing it, and the first
    # read-back page states the total anyway.
    header = (
        f'[Output of {unit.tool_name} stored whole: {len(text):,} chars. {read_instructions(read_tool_name, handle)}]'
    )
    parts = [header]
    sketch = unit.sketch()
    if sketch:
        parts.append(f'Shape: {sketch}')
    strategy = TruncationStrategy.head_tail if unit.structured else preview
    if preview_chars <= 0:
        pass  # no preview asked for: the header and the sketch say what was stored
    elif len(text) <= preview_chars:
        parts.append(text)
    elif strategy is TruncationStrategy.salient:
        shown = salient_excerpt(text, preview_chars)
        parts.append(
            f'Preview ({shown.kept_lines:,} of {shown.total_lines:,} lines, chosen by class: errors, results, ends):'
        )
        parts.append(shown.text)
    else:
        head, tail = excerpt(text, preview_chars, strategy)
        parts.append(f'Preview (first {head:,} and last {tail:,} of {len(text):,} chars):')
        if head:
            parts.append(text[:head].rstrip('\n'))
        parts.append(f'[… {len(text) - head - tail:,} chars not shown; read them back with the handle …]')
        if tail:
            parts.append(text[len(text) - tail :])
    return '\n'.join(parts)
