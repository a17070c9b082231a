"""Secrets out before a write: the one place every write path of the library scrubs and reports it."""

from __future__ import annotations

from .._text.secrets import Scrubber, ScrubResult
from ._telemetry import report_redactions

__all__ = ['scrub_before_write']


def scrub_before_write(scrubber: Scrubber | None, text: str) -> ScrubResult[str]:
    """`text` with secrets replaced by `scrubber` (unchanged when it is `None`), redactions counted by kind."""
    if scrubber is None:
        return ScrubResult(text)
    result = scrubber.scrub(text)
    if result.counts:
        report_redactions(result.counts)
    return result
