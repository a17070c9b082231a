"""Pure text functions, the bottom layer: `str` in, `str` (or a small record) out.

Line classes and levels, salient selection, secret scrubbing, condensing, cuts with markers,
navigation summaries, JSON layouts and paging. Nothing here imports pydantic-ai or OpenTelemetry, so
every piece can be tested, benchmarked and reused on its own; the capabilities above decide when to
call them and report what they did.
"""
