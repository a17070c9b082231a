"""`Spill`: keep the whole payload in the overflow store and show the model a stand-in to page from."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pydantic_ai.messages import BinaryContent

from .._text.cut import TruncationStrategy, excerpt, read_instructions
from ._actions import Reduced, ReductionAction, ReductionEnv
from ._payload import Unit

if TYPE_CHECKING:
    from .._text.intent import Intent
    from .._text.preview import Offer, Preview

from ._telemetry import preview_attributes

__all__ = ['Spill', 'StandIn', 'read_offer', 'render_stand_in', 'stand_in_body', 'stand_in_header']


@dataclass(frozen=True)
class Spill(ReductionAction):
    """Store the whole payload and show the model a short stand-in it can page from.

    The stand-in carries the total size, the handle, how to read it back with the run's read tool (a ready
    call for the matching lines that did not fit, when some did not), a one-line shape sketch for structured
    values and a preview: the lines the request names first (from the call's arguments, the response that
    made it, the user prompt), what the output's shape needs, then lines by class. Lossless when
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
        # The payload is scrubbed, hashed and written on a worker thread while the preview is built here;
        # only the header and the read offer wait for the handle. A store failure propagates, so that
        # `then` takes over.
        positional = self.preview is not TruncationStrategy.salient
        intent = None if positional or unit.text is None else env.intent
        # The preview searches the UTF-8 the write needs too, encoded here once before the worker starts: an ASCII
        # text's (a copy) for its markers, another's (a real encode) only when there are request terms to find.
        text = unit.text
        wanted = text is not None and not positional and (text.isascii() or bool(intent))
        utf8 = unit.data if wanted else None
        pending = env.begin_store(unit)
        try:
            if not positional:  # a cut by position is done in microseconds: nothing to run beside it
                pending.hand_over()  # until the worker is in its scan: it then scans while the preview is chosen
            body = stand_in_body(
                unit,
                preview_chars=self.preview_chars,
                preview=self.preview,
                intent=intent,
                offer_chars=_offer_reserve(env.read_tool_name),
                utf8=utf8,
                pause=pending.hand_over,  # until it is in its write: it then writes while the preview is rendered
            )
        except BaseException:
            with contextlib.suppress(Exception):
                await pending  # never leave the write unawaited
            raise
        handle = await pending
        stand_in = body.render(unit, handle, env.read_tool_name)
        details = preview_attributes(stand_in.preview) if stand_in.preview is not None else {}
        return Reduced(stand_in.text, 'spill', handle=handle, details=details)


@dataclass(frozen=True, slots=True)
class StandIn:
    text: str
    """What the model sees in place of the payload."""
    preview: Preview | None = None
    """How the preview was chosen (shape, intent counts), for telemetry; None for positional previews."""


@dataclass(frozen=True, slots=True)
class StandInBody:
    """The stand-in's lines under its header, built before the handle is known."""

    lines: list[str]
    preview: Preview | None = None
    offer_chars: int = 0
    """The room the preview left for a read offer (0: none was left)."""

    def render(self, unit: Unit, handle: str, read_tool_name: str) -> StandIn:
        offer = self.preview.offer if self.preview is not None else None
        # The offer takes the place of the header's general read instructions, which it grows by at most the room
        # the preview left for it; an offer longer than that (a pattern past the room sized for it) is dropped
        # rather than the stand-in's bound: the header still says how to search.
        if offer is not None and _offer_growth(offer, read_tool_name, handle) > self.offer_chars:
            offer = None
        return StandIn('\n'.join([stand_in_header(unit, handle, read_tool_name, offer), *self.lines]), self.preview)


def read_offer(offer: Offer, read_tool_name: str, handle: str) -> str:
    """How to read back a stored payload when matching lines did not fit: how many there are, and a ready call for
    them, then how to page through the rest."""
    count = f'over {offer.lines:,}' if offer.more else f'{offer.lines:,}'
    noun = 'line contains' if offer.lines == 1 and not offer.more else 'lines contain'
    return (
        f'{count} {noun} {offer.pattern!r} ({offer.shown:,} shown below): read them with '
        f'{read_tool_name}(handle={handle!r}, pattern={offer.pattern!r}); offset=0, limit=200 pages through it all, '
        'from_end=True from the end.'
    )


def _offer_growth(offer: Offer, read_tool_name: str, handle: str) -> int:
    """How much longer the header is with `offer` than with the general read instructions."""
    return len(read_offer(offer, read_tool_name, handle)) - len(read_instructions(read_tool_name, handle))


_OFFER_PATTERN_ROOM = 24
"""Characters reserved for the pattern when sizing the offer before the preview is chosen."""


def _offer_reserve(read_tool_name: str) -> int:
    """Room for a read offer, sized before the preview is chosen: the header's growth for a pattern of
    `_OFFER_PATTERN_ROOM` characters and counts in the millions (the handle is in both forms of the header)."""
    from .._text.preview import Offer

    return max(0, _offer_growth(Offer('x' * _OFFER_PATTERN_ROOM, 10**6, 10**6), read_tool_name, 'h'))


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

    A header with the total size and the handle and how to read it back (when matching lines did not fit,
    a ready read-back call for them), a one-line shape sketch for structured values, and a preview: by
    default the lines the request names, what the output's shape needs, and lines by class.
    """
    body = stand_in_body(
        unit,
        preview_chars=preview_chars,
        preview=preview,
        intent=intent,
        offer_chars=_offer_reserve(read_tool_name),
    )
    return body.render(unit, handle, read_tool_name)


def stand_in_header(unit: Unit, handle: str, read_tool_name: str, offer: Offer | None = None) -> str:
    """The stand-in's first line: what was stored, its size, how to read it back (the part that needs the handle),
    with `offer` a ready call for the matching lines the preview had no room for."""
    if unit.text is None:
        media = unit.value.media_type if isinstance(unit.value, BinaryContent) else 'application/octet-stream'
        return (
            f'[Binary output of {unit.tool_name} ({len(unit.data):,} bytes, {media}) was stored whole; '
            f'it cannot be shown as text here. {read_instructions(read_tool_name, handle)}]'
        )
    # No line count here: counting a megabyte's newlines costs as much as storing it, and the first
    # read-back page states the total anyway.
    how = read_offer(offer, read_tool_name, handle) if offer is not None else read_instructions(read_tool_name, handle)
    return f'[Output of {unit.tool_name} stored whole: {len(unit.text):,} chars. {how}]'


def stand_in_body(
    unit: Unit,
    *,
    preview_chars: int,
    preview: TruncationStrategy = TruncationStrategy.salient,
    intent: Intent | None = None,
    offer_chars: int = 0,
    utf8: bytes | None = None,
    pause: Callable[[], None] | None = None,
) -> StandInBody:
    """The stand-in's lines under its header: a shape sketch for structured values, and the preview.

    With a salient preview and `offer_chars`, the preview leaves that room when lines the request names
    did not all fit, for the read offer `StandInBody.render` puts in the header once the handle is known. `utf8` is the
    unit's text as UTF-8 when the caller has it already, and `pause` is called between choosing a salient
    preview's lines and rendering them (see `select_preview`).
    """
    if unit.text is None:
        return StandInBody([])
    text = unit.text
    parts: list[str] = []
    sketch = unit.sketch()
    if sketch:
        parts.append(f'Shape: {sketch}')
    if preview_chars <= 0:
        return StandInBody(parts)  # no preview asked for: the header and the sketch say what was stored
    if len(text) <= preview_chars:
        parts.append(text)
        return StandInBody(parts)
    if preview is TruncationStrategy.salient:
        from .._text.preview import select_preview  # loaded with the first preview, not with the library

        try:
            chosen = select_preview(text, preview_chars, intent=intent, offer_chars=offer_chars, utf8=utf8, pause=pause)
        except Exception as error:
            # The preview is a view of what is stored: a fault in choosing it must not cost the model the handle
            # (the spill would fall back to a cut). Its first and last lines stand in instead.
            _warn_preview_failed(error)
            preview = TruncationStrategy.head_tail
        else:
            parts.append(f'Preview ({_basis(chosen)}):')
            parts.append(chosen.text)
            return StandInBody(parts, chosen, offer_chars)
    head, tail = excerpt(text, preview_chars, preview)
    parts.append(f'Preview (first {head:,} and last {tail:,} of {len(text):,} chars):')
    if head:
        parts.append(text[:head].rstrip('\n'))
    parts.append(f'[… {len(text) - head - tail:,} chars not shown; read them back with the handle …]')
    if tail:
        parts.append(text[len(text) - tail :])
    return StandInBody(parts)


_warned: set[str] = set()


def _warn_preview_failed(error: Exception) -> None:
    """Log, once per process and kind of error, that a spill's preview fell back to its first and last lines."""
    kind = type(error).__name__
    if kind in _warned:
        return
    _warned.add(kind)
    logging.getLogger('observable_harness').warning(
        "ToolOutputLimits: choosing a spill's preview failed (%s); the output was stored whole and its stand-in shows "
        'its first and last lines instead. Please report this with the tool that produced the output.',
        kind,
    )


def _basis(chosen: Preview) -> str:
    """`12 of 953 lines; table; 4 match the request`: what the preview holds and what chose it."""
    basis = f'{chosen.kept_lines:,} of {chosen.total_lines:,} {chosen.unit}s'
    if chosen.shape != 'log':
        basis += f'; {chosen.shape.replace("_", " ")}'
    if chosen.intent_lines:
        verb = 'matches' if chosen.intent_lines == 1 else 'match'
        basis += f'; {chosen.intent_lines:,} {verb} the request'
    return basis
