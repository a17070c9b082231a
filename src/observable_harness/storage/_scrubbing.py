"""Secrets out before a write: the one place every write path of the library scrubs and reports it."""

from __future__ import annotations

from collections.abc import Mapping

from .._text.secrets import Scrubber, ScrubResult
from ._telemetry import report_redactions

__all__ = ['report_redactions', 'scrub_before_write', 'scrub_utf8']


def scrub_before_write(scrubber: Scrubber | None, text: str) -> ScrubResult[str]:
    """`text` with secrets replaced by `scrubber` (unchanged when it is `None`), redactions counted by kind."""
    if scrubber is None:
        return ScrubResult(text)
    result = scrubber.scrub(text)
    if result.counts:
        report_redactions(result.counts)
    return result


def scrub_utf8(scrubber: Scrubber | None, text: str, data: bytes) -> tuple[bytes, Mapping[str, int]]:
    """`data`, which is `text` as UTF-8 (`surrogatepass`), with secrets replaced, and how many of each kind.

    Reports nothing, so a worker thread may run it; the caller passes the counts to `report_redactions`
    where the write's span is current. The gate scans `data` itself and the replacements are spliced into
    it: the text is not encoded again.
    """
    if scrubber is None:
        return data, {}
    # A subclass that overrides `scrub` is called as it was written, with the text alone.
    if type(scrubber).scrub is Scrubber.scrub and type(scrubber).scrub_utf8 is Scrubber.scrub_utf8:
        spliced = scrubber.scrub_utf8(text, data)
        return spliced.text, spliced.counts
    result = scrubber.scrub(text)
    if not result.counts:
        return data, {}
    return result.text.encode('utf-8', 'surrogatepass'), result.counts
