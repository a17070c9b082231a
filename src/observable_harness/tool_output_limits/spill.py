"""Spill: keep the whole payload in the overflow store and show the model a stand-in to page from."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic_ai.messages import BinaryContent

from ..bounded.salient import salient_excerpt
from .bands import Reduced, ReductionEnv, TruncationStrategy
from .truncate import excerpt

if TYPE_CHECKING:
    from .bands import Spill
    from .payload import Unit

__all__ = ['render_stand_in']


def read_instructions(read_tool_name: str, handle: str) -> str:
    """How the model reads a stored payload back, naming the read tool as it is known in this run."""
    return (
        f"Read it with {read_tool_name}(handle='{handle}', offset=0, limit=200); "
        "from_end=True pages from the end, pattern='...' keeps only lines containing that text."
    )


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


async def spill_unit(action: Spill, unit: Unit, env: ReductionEnv) -> Reduced:
    """Store the unit whole; a store failure propagates so that `then` takes over."""
    handle = await env.store(unit, unit.data)
    stand_in = render_stand_in(
        unit, handle, preview_chars=action.preview_chars, read_tool_name=env.read_tool_name, preview=action.preview
    )
    return Reduced(stand_in, 'spill', handle=handle)
