"""What a store reports about its own housekeeping (never what it stores)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ['PruneRecord']


@dataclass(frozen=True, slots=True)
class PruneRecord:
    """What one prune pass over a store did: returned by `prune_now()` and reported to telemetry."""

    store: str
    """Store class name, a low-cardinality label."""
    files: int = 0
    """Files (or objects) deleted."""
    bytes: int = 0
    """Bytes those held."""
    failures: Mapping[str, int] = field(default_factory=dict[str, int])
    """Exception type name -> how many entries could not be listed or deleted because of it."""

    @property
    def errors(self) -> int:
        return sum(self.failures.values())
