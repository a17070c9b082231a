"""The decision record: what ToolOutputLimits did with one unit, as the telemetry layer sees it.

The capability produces it; `telemetry.tool_output` turns it into a span and metrics. It holds
names, sizes, counts, a handle and a hash, never the payload, so handing it over cannot leak
content by construction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from opentelemetry.util.types import AttributeValue

from .._text.layout import CHARS_PER_TOKEN
from ..telemetry.names import SizeUnit
from ._payload import PartName

__all__ = ['Decision', 'Hop']


@dataclass(frozen=True, slots=True)
class Hop:
    """One step down a `then` chain: `from_action` could not run, for `reason`; `to_action` was next."""

    from_action: str
    to_action: str
    """`none` when the chain ended and the unit was left unchanged."""
    reason: str
    """Exception type name (low cardinality, safe as a label)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One reduced unit: the band that matched, the action chosen, and what was applied in the end."""

    tool: str
    tool_call_id: str
    part: PartName
    size: int
    size_unit: SizeUnit
    original_chars: int
    """Characters the model would have seen (bytes for a binary payload)."""
    original_bytes: int
    band_over: int
    action: str
    """The band's action (the first link of the chain)."""
    outcome: str
    """What was applied in the end: `truncate`, `spill`, `summarize`, `unchanged`, ..."""
    hops: tuple[Hop, ...]
    handle: str | None
    content_hash: str
    output_chars: int
    bytes_saved: int
    details: Mapping[str, AttributeValue] = field(default_factory=dict[str, AttributeValue])

    @property
    def fallback(self) -> bool:
        return bool(self.hops)

    @property
    def fallback_chain(self) -> str:
        """The actions tried, in order, e.g. `spill>truncate`."""
        if not self.hops:
            return self.action
        chain = [self.hops[0].from_action, *(hop.to_action for hop in self.hops)]
        return '>'.join(chain)

    @property
    def fallback_reason(self) -> str | None:
        return self.hops[-1].reason if self.hops else None

    @property
    def tokens_saved(self) -> int:
        """Estimated tokens kept out of the window (~4 characters per token)."""
        return max(0, self.original_chars - self.output_chars) // CHARS_PER_TOKEN
