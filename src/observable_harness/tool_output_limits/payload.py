"""Measuring, serializing and describing one unit of tool output.

A *unit* is what one band decision is about: a tool call's `return_value`, or the `content` of a
`ToolReturn`. It is measured once, in the capability's size unit, on the text the model would see.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypeAlias, cast

import pydantic_core
from pydantic_ai.messages import BinaryContent

from .._hashing import content_hash

__all__ = [
    'Serializer',
    'Tokenizer',
    'Unit',
    'compact_json',
    'estimate_tokens',
    'indented_json',
    'json_lines',
    'shape_sketch',
    'strip_ansi_codes',
]

Serializer: TypeAlias = Callable[[Any], str]
"""`(value) -> str`: how a structured return is laid out as text for measuring and storing."""

Tokenizer: TypeAlias = Callable[[str], int]
"""`(text) -> token count`, for exact token measurement."""

PartName: TypeAlias = Literal['return_value', 'content']
SizeUnit: TypeAlias = Literal['chars', 'tokens']

CHARS_PER_TOKEN = 4
"""The usual estimate for English text and code; good enough to choose a band."""

_ANSI_ESCAPE = re.compile(r'\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])')
_LINE_SEPARATORS = (('\u0085', '\\u0085'), ('\u2028', '\\u2028'), ('\u2029', '\\u2029'))


def estimate_tokens(text: str) -> int:
    """~4 characters per token, rounded up."""
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def strip_ansi_codes(text: str) -> str:
    """Remove ANSI escape sequences (colours, cursor moves, OSC titles) from terminal output."""
    if '\x1b' not in text:
        return text
    return _ANSI_ESCAPE.sub('', text)


def _escape_line_separators(text: str) -> str:
    # Inside JSON these characters can only sit in strings, where an escape means the same thing;
    # left raw, `str.splitlines` and many viewers break the line grid that read-back pages by.
    # `in` is a fast scan (instant for pure-ASCII text); a regex over a megabyte is not.
    for raw, escaped in _LINE_SEPARATORS:
        if raw in text:
            text = text.replace(raw, escaped)
    return text


def _jsonable(value: Any) -> Any:
    return pydantic_core.to_jsonable_python(value, fallback=repr, serialize_unknown=True)


def compact_json(value: Any) -> str:
    """One line of JSON (the default layout for structured spills)."""
    text = pydantic_core.to_json(value, fallback=repr, serialize_unknown=True).decode()
    return _escape_line_separators(text)


def indented_json(value: Any) -> str:
    """Indented JSON, one field per line, so read-back pages and `pattern` matches land on fields.

    ```python
    from observable_harness import ToolOutputLimits
    from observable_harness.tool_output_limits import indented_json

    ToolOutputLimits(serializer=indented_json)
    ```
    """
    return _escape_line_separators(json.dumps(_jsonable(value), indent=2, ensure_ascii=False))


def json_lines(value: Any) -> str:
    """One compact JSON record per line for list-like returns; anything else as `indented_json`.

    Line N is record N, so read-back offsets and `pattern` matches line up with whole records. A list
    wrapped in a dict is a dict: return the list itself to page per record.

    ```python
    from observable_harness import ToolOutputLimits
    from observable_harness.tool_output_limits import json_lines

    ToolOutputLimits(serializer=json_lines)
    ```
    """
    if isinstance(value, list | tuple | set | frozenset):
        items: Sequence[Any] = list(value)  # pyright: ignore[reportUnknownArgumentType]
        return '\n'.join(compact_json(item) for item in items)
    return indented_json(value)


_SKETCH_SAMPLE = 100
"""Items looked at to name the item types of a list: the sketch must stay cheap on 10,000 records."""


def _type_name(value: Any) -> str:
    # Concrete types first: an ABC check (`Mapping`) per item costs more than the rest of the sketch.
    if isinstance(value, dict):
        return 'dict'
    if isinstance(value, list | tuple):
        return f'list[{len(cast("Sequence[Any]", value))}]'
    if value is None:
        return 'null'
    if isinstance(value, Mapping):
        return 'dict'
    return type(value).__name__


def shape_sketch(value: Any, *, max_chars: int = 240) -> str:
    """A one-line sketch of a structured value's top level: keys and types, or item count and type.

    >>> shape_sketch({'id': 1, 'tags': ['a'], 'owner': {'name': 'x'}})
    'dict with 3 keys: id: int, tags: list[1], owner: dict'
    >>> shape_sketch([{'id': 1, 'name': 'a'}, {'id': 2, 'name': 'b'}])
    'list of 2 items of dict (keys: id, name)'
    """
    jsonable: Any = value
    if not isinstance(value, Mapping | list | tuple):
        jsonable = _jsonable(value)
    if isinstance(jsonable, Mapping):
        mapping = cast('Mapping[Any, Any]', jsonable)
        fields = ', '.join(f'{key}: {_type_name(item)}' for key, item in mapping.items())
        sketch = f'dict with {len(mapping):,} keys: {fields}'
    elif isinstance(jsonable, list | tuple):
        items = cast('Sequence[Any]', jsonable)
        kinds = sorted({_type_name(item).split('[')[0] for item in items[:_SKETCH_SAMPLE]})
        sketch = f'list of {len(items):,} items of {" | ".join(kinds) or "nothing"}'
        first: Any = items[0] if items else None
        if isinstance(first, Mapping):
            first_mapping = cast('Mapping[Any, Any]', first)
            sketch += f' (keys: {", ".join(str(k) for k in first_mapping)})'
    else:
        sketch = _type_name(jsonable)
    if len(sketch) > max_chars:
        sketch = sketch[: max_chars - 1] + '…'
    return sketch


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

    @property
    def data(self) -> bytes:
        """The payload as bytes (UTF-8 for text), encoded once."""
        if self._data is None:
            assert self.text is not None
            self._data = self.text.encode('utf-8', 'surrogatepass')
        return self._data

    @property
    def original_bytes(self) -> int:
        if self._data is None and self.text is not None and self.text.isascii():
            return len(self.text)
        return len(self.data)

    @property
    def content_hash(self) -> str:
        return content_hash(self.data)

    @property
    def chars(self) -> int:
        """Characters the model would see (bytes for a binary payload)."""
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
