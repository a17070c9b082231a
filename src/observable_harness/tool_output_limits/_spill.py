"""`Spill`: keep the whole payload in the overflow store and show the model a stand-in to page from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantic_ai.messages import BinaryContent

from .._text.cut import TruncationStrategy, excerpt, read_instructions
from .._text.intent import Intent
from .._text.preview import Offer, Preview, select_preview
from ._actions import Reduced, ReductionAction, ReductionEnv
from ._payload import Unit
from ._telemetry import preview_attributes

__all__ = ['Spill', 'StandIn', 'read_offer', 'render_stand_in']


@dataclass(frozen=True)
class Spill(ReductionAction):
    """Store the whole payload and show the model a short stand-in it can page from.

    The stand-in carries the total size, the handle, how to read it back with the run's read tool, a
    one-line shape sketch for structured values and a preview: the lines the request names first (from
    the call's arguments, the response that made it, the user prompt), what the output's shape needs,
    then lines by class; and a ready read-back call for matching lines that did not fit. Lossless when
    the store accepts the write; `then` decides what happens when it does not.

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
    """How previews choose what to show: `salient` (the lines the request names, what the output's shape
    needs, errors and results, the ends; records of a JSON list) or by position (`head_tail`, `head`, `tail`)."""

    then: ReductionAction | None = None
    """Used when the store raises (full disk, unwritable root, backend down)."""

    def __post_init__(self) -> None:
        if self.preview_chars < 0:
            raise ValueError(f'Spill.preview_chars must be >= 0; got {self.preview_chars}.')
        if not isinstance(self.preview, TruncationStrategy):  # pyright: ignore[reportUnnecessaryIsInstance]
            object.__setattr__(self, 'preview', TruncationStrategy(self.preview))

    async def apply(self, unit: Unit, env: ReductionEnv) -> Reduced:
        handle = await env.store(unit, unit.data)  # a store failure propagates, so that `then` takes over
        positional = self.preview is not TruncationStrategy.salient
        stand_in = render_stand_in(
            unit,
            handle,
            preview_chars=self.preview_chars,
            read_tool_name=env.read_tool_name,
            preview=self.preview,
            intent=None if positional or unit.text is None else env.intent,
        )
        details = preview_attributes(stand_in.preview) if stand_in.preview is not None else {}
        return Reduced(stand_in.text, 'spill', handle=handle, details=details)


@dataclass(frozen=True, slots=True)
class StandIn:
    text: str
    """What the model sees in place of the payload."""
    preview: Preview | None = None
    """How the preview was chosen (shape, intent counts), for telemetry; None for positional previews."""


def read_offer(offer: Offer, read_tool_name: str, handle: str) -> str:
    """A ready call for the matching lines the preview had no room for, and how many there are."""
    count = f'over {offer.lines:,}' if offer.more else f'{offer.lines:,}'
    noun = 'line contains' if offer.lines == 1 and not offer.more else 'lines contain'
    return (
        f'[{count} {noun} {offer.pattern!r} ({offer.shown:,} shown): '
        f'{read_tool_name}(handle={handle!r}, pattern={offer.pattern!r})]'
    )


_OFFER_PATTERN_ROOM = 24
"""Characters reserved for the pattern when sizing the offer before the preview is chosen."""


def render_stand_in(
    unit: Unit,
    handle: str,
    *,
    preview_chars: int,
    read_tool_name: str,
    preview: TruncationStrategy = TruncationStrategy.salient,
    intent: Intent | None = None,
) -> StandIn:
    """The short text the model sees in place of a spilled payload.

    A header with the total size and the handle, how to read it back, a one-line shape sketch for
    structured values, and a preview: by default the lines the request names, what the output's shape
    needs, and lines by class; when matching lines did not fit, a ready read-back call for them.
    """
    if unit.text is None:
        media = unit.value.media_type if isinstance(unit.value, BinaryContent) else 'application/octet-stream'
        return StandIn(
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
    if preview_chars <= 0:
        return StandIn('\n'.join(parts))  # no preview asked for: the header and the sketch say what was stored
    if len(text) <= preview_chars:
        parts.append(text)
        return StandIn('\n'.join(parts))
    if preview is TruncationStrategy.salient:
        reserve = len(read_offer(Offer('x' * _OFFER_PATTERN_ROOM, 10**6, 10**6), read_tool_name, handle)) + 1
        chosen = select_preview(text, preview_chars, intent=intent, offer_chars=reserve)
        parts.append(f'Preview ({_basis(chosen)}):')
        parts.append(chosen.text)
        if chosen.offer is not None:
            parts.append(read_offer(chosen.offer, read_tool_name, handle))
        return StandIn('\n'.join(parts), chosen)
    head, tail = excerpt(text, preview_chars, preview)
    parts.append(f'Preview (first {head:,} and last {tail:,} of {len(text):,} chars):')
    if head:
        parts.append(text[:head].rstrip('\n'))
    parts.append(f'[… {len(text) - head - tail:,} chars not shown; read them back with the handle …]')
    if tail:
        parts.append(text[len(text) - tail :])
    return StandIn('\n'.join(parts))


def _basis(chosen: Preview) -> str:
    """`12 of 953 lines; table; 4 match the request`: what the preview holds and what chose it."""
    basis = f'{chosen.kept_lines:,} of {chosen.total_lines:,} {chosen.unit}s'
    if chosen.shape != 'log':
        basis += f'; {chosen.shape.replace("_", " ")}'
    if chosen.intent_lines:
        verb = 'matches' if chosen.intent_lines == 1 else 'match'
        basis += f'; {chosen.intent_lines:,} {verb} the request'
    return basis
