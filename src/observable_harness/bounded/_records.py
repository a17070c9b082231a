"""What the bounded-output building blocks report: counts, sizes, hashes and handles, never the output."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ['OffloadRecord', 'RetentionRecord']


@dataclass(frozen=True, slots=True)
class OffloadRecord:
    """One offload in counts and pointers (what telemetry reports)."""

    handle: str
    content_hash: str
    original_bytes: int
    output_chars: int
    summary_words: int
    kind: str
    summarizer: str
    redactions: int


@dataclass(frozen=True, slots=True)
class RetentionRecord:
    """One retention decision: counts, sizes, the handle; never the output itself."""

    policy: str
    reason: str
    """`exit_status`, `error_lines` or `always` when kept; `never`, `no_failure` or `store_failed` when not."""
    handle: str | None
    original_bytes: int
    content_hash: str | None
    redactions: int
