"""The `read_tool_result` tool: the model's way back to a stored payload, bounded and never failing.

The paging itself is `_text.paging` (pure). This module is the part that talks to a run and a store:
the tool's name as the model knows it in this run, the arguments a model may get wrong, the errors a
store raises turned into messages that say what to do instead (and never reveal a path), and the
`tool_output.read` span of every call. `read_stored` never raises.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.toolsets import FunctionToolset

from .._text.paging import (
    CONTINUES,
    DEFAULT_LIMIT,
    MAX_LIMIT,
    MAX_OUTPUT_CHARS,
    MAX_PATTERN_CHARS,
    READ_TOOL_NAME,
    ROW_WIDTH,
    echo_handle,
    page_of,
    render_page,
)
from ..storage import ForbiddenHandle, InvalidHandle, OverflowStore, UnknownHandle, UnsafeStoreRoot
from ..telemetry import guarded
from ._layouts import LayoutCache
from ._telemetry import ReadOutcome, ReadRecord, handle_attribute, record_read

__all__ = [
    'READ_TOOL_METADATA',
    'build_read_toolset',
    'is_read_tool',
    'read_stored',
    'read_tool_name_in_run',
]

READ_TOOL_METADATA: tuple[str, str] = ('observable_harness', 'read_tool_result')
"""The `(key, value)` tool-metadata entry that marks the read tool, so a capability recognises it (and
leaves its returns alone) even under a prefixed or renamed toolset."""

_NO_CACHE = LayoutCache(max_bytes=0)
_REASON_CHARS = 200


def is_read_tool(metadata: Mapping[str, Any] | None) -> bool:
    """Whether a tool's metadata marks it as this library's read tool (whose returns are never reduced)."""
    key, value = READ_TOOL_METADATA
    return metadata is not None and metadata.get(key) == value


def read_tool_name_in_run(ctx: RunContext[Any], called: str | None = None, default: str = READ_TOOL_NAME) -> str:
    """The name the model knows the read tool by in this run, which `PrefixTools` or a rename may change.

    Found by the tool's metadata among the run's tools. Inside the read tool itself, `called` is the
    name the toolset registered (a prefixing wrapper hands its tools the unprefixed one): where several
    read tools are present, the one that ends with it.
    """
    try:
        names = [name for name, tool_def in ctx.tools.items() if is_read_tool(tool_def.metadata)]
    except Exception:  # a context without its tools (a durable-execution activity, say) still gets a name
        names = []
    if called is None or called in names:
        return called or (names[0] if names else default)
    ending = [name for name in names if name.endswith(called)]
    return ending[0] if len(ending) == 1 else called


# --- the read ------------------------------------------------------------------------------------


def _argument_problem(handle: object, offset: int, pattern: str | None, tool: str) -> str | None:
    if not isinstance(handle, str):
        return f'[{tool}: handle must be a string: the handle printed in the notice of a stored tool result]'
    if offset < 0:
        return (
            f'[{tool}: offset must be 0 or more, got {offset}. '
            'To read the last rows, pass from_end=True with offset=0.]'
        )
    if pattern is not None and len(pattern) > MAX_PATTERN_CHARS:
        return (
            f'[{tool}: pattern is {len(pattern):,} characters long; at most {MAX_PATTERN_CHARS} are accepted. '
            'Search for a shorter, distinctive piece of one line.]'
        )
    if pattern is not None and '\n' in pattern:
        return (
            f'[{tool}: pattern cannot contain a line break: lines are searched one at a time. '
            'Search for text within one line.]'
        )
    return None


def _store_refusal(error: Exception, handle: str, tool: str) -> tuple[str, ReadOutcome]:
    how = (
        f'Copy the handle exactly as printed in the notice of the stored tool result you want to read, '
        f"e.g. {tool}(handle='<run-id>/<tool-call-id>.0'); handles are keys, not file paths."
    )
    # Store messages for these two are written for the model and carry no paths; others are not shown.
    reason = str(error)[:_REASON_CHARS]
    if isinstance(error, InvalidHandle):
        return f'[{tool}: that handle is malformed ({reason}). {how}]', 'invalid'
    if isinstance(error, ForbiddenHandle):
        return f'[{tool}: handle {echo_handle(handle)} was refused ({reason}). {how}]', 'denied'
    if isinstance(error, UnsafeStoreRoot):
        return (
            f'[{tool}: the overflow store is refusing every read because its directory failed a safety check. '
            'Stored results cannot be read in this run; tell the user the overflow store needs attention.]',
            'denied',
        )
    if isinstance(error, UnknownHandle):
        return (
            f'[{tool}: nothing is stored under handle {echo_handle(handle)}. {how} Stored results from an earlier '
            'session may have been cleaned up.]',
            'miss',
        )
    return (
        f'[{tool}: the overflow store could not read handle {echo_handle(handle)} ({type(error).__name__}). '
        'Try again later, or carry on without it.]',
        'miss',
    )


async def read_stored(
    store: OverflowStore,
    handle: str,
    *,
    offset: int = 0,
    limit: int = DEFAULT_LIMIT,
    from_end: bool = False,
    pattern: str | None = None,
    read_tool_name: str = READ_TOOL_NAME,
    layouts: LayoutCache | None = None,
) -> str:
    """Read one page of a stored payload and render it for the model. Never raises (cancellation aside).

    Unknown, forged and malformed handles, bad arguments and failing stores all come back as a
    bracketed message telling the model what to do instead; none reveals a path.
    """
    start_ns = time.time_ns()
    pattern = pattern or None
    effective_limit = min(max(limit, 1), MAX_LIMIT)
    rows = 0
    outcome: ReadOutcome = 'invalid'
    try:
        problem = _argument_problem(handle, offset, pattern, read_tool_name)
        if problem is not None:
            text = problem
        else:
            try:
                data = await store.read(handle)
            except Exception as error:
                text, outcome = _store_refusal(error, handle, read_tool_name)
            else:
                layout = (_NO_CACHE if layouts is None else layouts).layout(data, ROW_WIDTH)
                page = page_of(
                    layout.grid,
                    layout.total_chars,
                    offset=offset,
                    limit=limit,
                    from_end=from_end,
                    pattern=pattern,
                    max_chars=MAX_OUTPUT_CHARS,
                    max_limit=MAX_LIMIT,
                )
                text = render_page(
                    page,
                    handle=handle,
                    pattern=pattern,
                    requested_limit=limit,
                    read_tool_name=read_tool_name,
                    lossy_decode=layout.lossy,
                )
                rows, outcome = len(page.rows), 'hit'
    except Exception as error:  # a bug of ours must still not fail the run
        text = f'[{read_tool_name}: the read failed unexpectedly ({type(error).__name__}). Try a smaller limit.]'
        outcome = 'miss'
    with guarded('a read'):
        found = outcome == 'hit'
        attribute = handle_attribute(handle, found=found) if isinstance(handle, str) else ''  # pyright: ignore[reportUnnecessaryIsInstance]
        record_read(
            ReadRecord(attribute, offset, effective_limit, from_end, len(pattern or ''), rows, outcome),
            start_ns,
        )
    return text


# --- the tool ------------------------------------------------------------------------------------

_DESCRIPTION = (
    'Read part of a tool result that was too large to show in full and was stored instead; its notice '
    'printed the handle to use. Output is a header, then numbered rows: the number before the tab is '
    f"the row's offset, and {CONTINUES} after it means the line continues on the next row. At most "
    f'{MAX_LIMIT} rows and {MAX_OUTPUT_CHARS:,} characters come back per call; the footer says how to '
    'continue.'
)


def build_read_toolset(
    get_store: Callable[[], OverflowStore],
    *,
    name: str = READ_TOOL_NAME,
    layouts: LayoutCache | None = None,
    toolset_id: str | None = None,
) -> FunctionToolset[Any]:
    """A toolset with the one read-back tool, reading from whatever store `get_store()` returns at call time.

    `ToolOutputLimits` registers one itself; use this to give an agent without it (a reviewer, a later
    agent) the way to read handles a spill printed. The tool carries `READ_TOOL_METADATA`, so a
    capability recognises it (and leaves its returns alone) even when a user prefixes or renames tools.
    `layouts` keeps the row layouts of large payloads between reads (none by default).

    ```python
    import tempfile

    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    from observable_harness.tool_output_limits import LocalFileStore, build_read_toolset

    store = LocalFileStore(base_dir=tempfile.mkdtemp())
    agent = Agent(TestModel(call_tools=[]), toolsets=[build_read_toolset(lambda: store)])
    ```
    """

    async def read_tool_result(
        ctx: RunContext[Any],
        handle: str,
        offset: int = 0,
        limit: int = DEFAULT_LIMIT,
        from_end: bool = False,
        pattern: str | None = None,
    ) -> str:
        """Read a stored tool result.

        Args:
            handle: The handle printed in the stored result's notice, copied exactly.
            offset: First row to return, 0-based; with from_end, how many rows to skip back from the end.
            limit: How many rows to return (at most 500).
            from_end: Read the last rows first, e.g. where a log's errors are.
            pattern: Only return rows of lines that contain this exact text (literal and case-sensitive, not a regex).
        """
        try:
            store = get_store()
        except Exception as error:
            store = _UnavailableStore(error)
        return await read_stored(
            store,
            handle,
            offset=offset,
            limit=limit,
            from_end=from_end,
            pattern=pattern,
            read_tool_name=read_tool_name_in_run(ctx, ctx.tool_name or name),
            layouts=layouts,
        )

    toolset = FunctionToolset[Any](id=toolset_id or f'observable_harness_{name}')
    toolset.add_function(
        read_tool_result,
        name=name,
        description=_DESCRIPTION,
        docstring_format='google',
        metadata={READ_TOOL_METADATA[0]: READ_TOOL_METADATA[1]},
    )
    return toolset


@dataclass(frozen=True, slots=True)
class _UnavailableStore:
    """Stands in when `get_store()` itself failed, so the failure takes the usual road to the model."""

    error: Exception

    async def write(self, key: str, data: bytes) -> str:
        raise self.error

    async def read(self, handle: str) -> bytes:
        raise self.error
