"""Measuring, serializing and describing one unit of tool output.

A *unit* is what one band decision is about: a tool call's `return_value`, or the `content` of a
`ToolReturn`. It is measured once, in the capability's size unit, on the text the model would see.
"""

from __future__ import annotations

import warnings
from typing import Any, Literal, TypeAlias

from pydantic_ai.messages import BinaryContent

from .._text.hashing import content_hash
from .._text.layout import (
    CHARS_PER_TOKEN,
    Serializer,
    Tokenizer,
    compact_json,
    estimate_tokens,
    lined_json,
    shape_sketch,
    strip_ansi_codes,
    utf8,
    utf8_size,
)
from ..telemetry.names import SizeUnit

__all__ = ['LINED_MAX_CHARS', 'Measurer', 'PartName', 'Unit', 'binary_data', 'is_binary']

LINED_MAX_CHARS = 1 << 20
"""Compact JSON of a structured value above which a spill or cut keeps it on one line rather than `lined_json`."""

PartName: TypeAlias = Literal['return_value', 'content']


def _serialize(value: Any, serializer: Serializer | None) -> str:
    if serializer is not None:
        try:
            text = serializer(value)
        except Exception as error:
            warnings.warn(
                f'ToolOutputLimits serializer {getattr(serializer, "__name__", serializer)!r} raised '
                f'{type(error).__name__}; measuring and storing this return as compact JSON instead.',
                RuntimeWarning,
                stacklevel=4,
            )
        else:
            if isinstance(text, str):  # pyright: ignore[reportUnnecessaryIsInstance]
                return text
            warnings.warn(
                f'ToolOutputLimits serializer {getattr(serializer, "__name__", serializer)!r} returned '
                f'{type(text).__name__}, not str; measuring and storing this return as compact JSON instead.',
                RuntimeWarning,
                stacklevel=4,
            )
    return compact_json(value)


def is_binary(value: Any) -> bool:
    return isinstance(value, bytes | bytearray | memoryview | BinaryContent)


def binary_data(value: Any) -> bytes:
    if isinstance(value, BinaryContent):
        return value.data
    return bytes(value)


class Unit:
    """One measured unit of tool output, with its text (or bytes) computed once."""

    __slots__ = (
        '_data',
        '_hash',
        '_seen',
        'binary',
        'key',
        'part',
        'size',
        'size_unit',
        'structured',
        'text',
        'tool_call_id',
        'tool_name',
        'value',
    )

    def __init__(
        self,
        *,
        tool_name: str,
        tool_call_id: str,
        part: PartName,
        value: Any,
        text: str | None,
        binary: bytes | None,
        structured: bool,
        size: int,
        size_unit: SizeUnit,
        key: str,
    ) -> None:
        self.tool_name = tool_name
        self.tool_call_id = tool_call_id
        self.part: PartName = part
        self.value = value
        """The original object (returned untouched when nothing applies)."""
        self.text = text
        """The text the model would see: the string itself, or the serialized structured value."""
        self.binary = binary
        """The bytes of a binary payload (then `text` is None)."""
        self.structured = structured
        self.size = size
        self.size_unit: SizeUnit = size_unit
        self.key = key
        """Store key: run id, tool call id and retry (and the part), so no two payloads collide."""
        self._data: bytes | None = binary
        self._hash: str | None = None
        self._seen: tuple[int, int] | None = None
        """Characters and bytes of the text the model would have seen, once `lay_out_in_lines` replaced it."""

    @property
    def data(self) -> bytes:
        """The payload as bytes (UTF-8 for text), encoded once."""
        if self._data is None:
            assert self.text is not None
            self._data = utf8(self.text)  # chunk by chunk: a mostly-ASCII text encodes at memory speed
        return self._data

    def lay_out_in_lines(self) -> None:
        """Before an object laid out as compact JSON is stored or cut: its text becomes `lined_json`, so a read-back
        page, a `pattern` match and a preview's line each hold a member rather than a slice of one long line.

        A list of records keeps its one line (its preview reads it record by record), and so does a value of more
        than `LINED_MAX_CHARS` (laying it out costs about a microsecond a line). The size measured, and the characters
        and bytes reported as the original, stay the compact text's: what the model would have seen.
        """
        text = self.text
        if not self.structured or text is None or len(text) > LINED_MAX_CHARS:
            return
        if not text.startswith(('{', '[')) or text.startswith('[{'):
            return
        self._seen = (len(text), self.original_bytes)
        self.text = lined_json(self.value, compact=text)
        self._data = None
        self._hash = None

    @property
    def original_bytes(self) -> int:
        if self._seen is not None:
            return self._seen[1]
        if self._data is None and self.text is not None:
            return utf8_size(self.text)
        return len(self.data)

    @property
    def content_hash(self) -> str:
        """`content_hash` of `data`, computed once (a spill computes it on its worker thread)."""
        if self._hash is None:
            self._hash = content_hash(self.data)
        return self._hash

    @property
    def chars(self) -> int:
        """Characters the model would see (bytes for a binary payload)."""
        if self._seen is not None:
            return self._seen[0]
        return len(self.text) if self.text is not None else len(self.data)

    def sketch(self) -> str | None:
        """Shape sketch of a structured value, else None."""
        return shape_sketch(self.value) if self.structured else None


class Measurer:
    """Turns a raw return into a `Unit`: serialize structured values, strip ANSI, measure."""

    __slots__ = ('over_tokens', 'serializer', 'strip_ansi', 'tokenizer')

    def __init__(
        self,
        *,
        serializer: Serializer | None,
        over_tokens: bool,
        tokenizer: Tokenizer | None,
        strip_ansi: bool,
    ) -> None:
        self.serializer = serializer
        self.over_tokens = over_tokens or tokenizer is not None
        self.tokenizer = tokenizer
        self.strip_ansi = strip_ansi

    @property
    def plain_chars(self) -> bool:
        """Text is measured as it is, in characters: its size is `len(text)`."""
        return not self.over_tokens and not self.strip_ansi

    @property
    def size_unit(self) -> SizeUnit:
        return 'tokens' if self.over_tokens else 'chars'

    def measure_text(self, text: str) -> int:
        if not self.over_tokens:
            return len(text)
        if self.tokenizer is not None:
            try:
                return int(self.tokenizer(text))
            except Exception as error:
                warnings.warn(
                    f'ToolOutputLimits tokenizer raised {type(error).__name__}; estimating ~4 characters per token.',
                    RuntimeWarning,
                    stacklevel=4,
                )
        return estimate_tokens(text)

    def unit(self, value: Any, *, tool_name: str, tool_call_id: str, part: PartName, key: str) -> Unit:
        if isinstance(value, str):
            text = strip_ansi_codes(value) if self.strip_ansi else value
            return Unit(
                tool_name=tool_name,
                tool_call_id=tool_call_id,
                part=part,
                value=text,
                text=text,
                binary=None,
                structured=False,
                size=self.measure_text(text),
                size_unit=self.size_unit,
                key=key,
            )
        if is_binary(value):
            data = binary_data(value)
            size = len(data) if not self.over_tokens else (len(data) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN
            return Unit(
                tool_name=tool_name,
                tool_call_id=tool_call_id,
                part=part,
                value=value,
                text=None,
                binary=data,
                structured=False,
                size=size,
                size_unit=self.size_unit,
                key=key,
            )
        text = _serialize(value, self.serializer)
        return Unit(
            tool_name=tool_name,
            tool_call_id=tool_call_id,
            part=part,
            value=value,
            text=text,
            binary=None,
            structured=True,
            size=self.measure_text(text),
            size_unit=self.size_unit,
            key=key,
        )
