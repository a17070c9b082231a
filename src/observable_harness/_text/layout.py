"""Laying structured values out as text, and measuring text: JSON layouts, shape sketches, token estimates.

Pure functions of their input. The JSON layouts escape U+0085, U+2028 and U+2029, which only occur
inside JSON strings, so every consumer that splits lines (read-back pages, `pattern` matches) sees
the line grid the layout promised.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias, cast

import pydantic_core

__all__ = [
    'CHARS_PER_TOKEN',
    'Serializer',
    'Tokenizer',
    'compact_json',
    'estimate_tokens',
    'indented_json',
    'json_lines',
    'lined_json',
    'shape_sketch',
    'strip_ansi_codes',
    'utf8',
    'utf8_size',
]

Serializer: TypeAlias = Callable[[Any], str]
"""`(value) -> str`: how a structured return is laid out as text for measuring and storing."""

Tokenizer: TypeAlias = Callable[[str], int]
"""`(text) -> token count`, for exact token measurement."""

CHARS_PER_TOKEN = 4
"""The usual estimate for English text and code; good enough to choose a band."""

_ANSI_ESCAPE = re.compile(r'\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])')
_LINE_SEPARATORS = (('\u0085', '\\u0085'), ('\u2028', '\\u2028'), ('\u2029', '\\u2029'))


UTF8_CHUNK = 16 * 1024
"""Characters of a text outside ASCII encoded at a time by `utf8`."""


def utf8(text: str) -> bytes:
    """`text.encode('utf-8', 'surrogatepass')`, faster for a long text that is mostly ASCII.

    A string holding one character outside ASCII is stored two or four bytes a character, and CPython
    encodes all of it a character at a time (~1.3 ms per megabyte); a slice of it that holds only ASCII
    is stored a byte a character and encodes as a copy. So the text is encoded a chunk at a time: the
    chunks without such a character, mostly all of them in tool output, at memory speed. A text mostly
    outside ASCII (prose in another script) is encoded whole once its chunks show it, as chunks buy
    nothing there. The bytes are the same either way (surrogates are encoded one by one, never paired).
    """
    if text.isascii() or len(text) < 2 * UTF8_CHUNK:
        return text.encode('utf-8', 'surrogatepass')
    pieces: list[bytes] = []
    outside = 0
    for number, start in enumerate(range(0, len(text), UTF8_CHUNK)):
        chunk = text[start : start + UTF8_CHUNK]
        if not chunk.isascii():
            outside += 1
            if outside > 4 and outside * 2 > number + 1:
                return text.encode('utf-8', 'surrogatepass')
        pieces.append(chunk.encode('utf-8', 'surrogatepass'))
    return b''.join(pieces)


def utf8_size(text: str) -> int:
    """Bytes of `text` in UTF-8 (lone surrogates counted as they are stored), without encoding ASCII text."""
    return len(text) if text.isascii() else len(utf8(text))


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


LINE_WIDTH = 120
"""Characters of compact JSON an object or array may take and still be laid out on one line by `lined_json`."""
_DEEPEST = 100
"""Nesting below which `lined_json` lays nothing out further: a member this deep is one line, however long."""


def _to_json(value: Any) -> str:
    return pydantic_core.to_json(value, fallback=repr, serialize_unknown=True).decode()


def lined_json(value: Any, *, width: int = LINE_WIDTH, compact: str | None = None) -> str:
    """Compact JSON broken into lines where a reader needs them (`compact`: the value's `compact_json`, if known).

    An object or array whose compact JSON fits in `width` characters stays on one line; a larger one puts
    each of its members on a line of its own, one space deeper. An array of objects (records) puts each on
    a line whole, and a long array of plain values fills lines of about `width`. Each line is spelled as
    compact JSON spells it (`"default":"pull-push",`), so a search for what the compact text holds finds it
    on a line, and a line says which member it is.

    >>> print(lined_json({'name': 'cache', 'policy': {'default': 'pull-push', 'enum': ['pull', 'push']}}, width=30))
    {
     "name":"cache",
     "policy":{
      "default":"pull-push",
      "enum":["pull","push"]
     }
    }
    """
    lines: list[str] = []
    _lay_out(value, 0, '', '', width, lines, compact)
    return _escape_line_separators('\n'.join(lines))


_PLAIN = (str, int, float, bool, type(None))
_PLAIN_OR_ARRAY = (*_PLAIN, list, tuple)
_STRING = r'"(?:[^"\\]|\\.)*"'
_PLAIN_MEMBER = re.compile(_STRING + r':(?:' + _STRING + r'|\{\}|\[\]|[^,"{}\[\]]+)')
"""A member of a compact JSON object whose value is a string, a number, `true`, `false`, `null`, `{}` or `[]`."""


def _bare(value: Any) -> bool:
    """Whether `value` is a string JSON spells as it is between quotes: printable ASCII, no quote, no backslash."""
    return type(value) is str and value.isascii() and value.isprintable() and '"' not in value and '\\' not in value


def _spelled(value: Any) -> str:
    """`value`'s compact JSON; a plain string or number without anything to escape is spelled without a call."""
    if _bare(value):
        return f'"{value}"'
    if type(value) is int:
        return str(value)
    return _to_json(value)


def _key(key: Any) -> str:
    """A key as compact JSON spells it, with its colon (a key that is not a string is spelled as a string)."""
    return f'"{key}":' if _bare(key) else _to_json({key: None})[1:-5]


def _flat(item: Any) -> bool:
    """Whether `item` is laid out on its member's line as it is: a plain value, or an empty object or array."""
    return isinstance(item, _PLAIN) or (isinstance(item, dict | list | tuple) and not item)


def _lay_out(
    node: Any, depth: int, lead: str, trail: str, width: int, lines: list[str], compact: str | None = None
) -> None:
    """Append the lines of `node` (after `lead`, a member's key, and before `trail`, its comma) to `lines`."""
    indent = ' ' * depth
    if not isinstance(node, dict | list | tuple):
        node = _jsonable(node)  # a model, a dataclass, a set: laid out as what it serializes to
    if _flat(node) or depth >= _DEEPEST:
        lines.append(f'{indent}{lead}{compact or _to_json(node)}{trail}')
        return
    members = cast('dict[Any, Any] | list[Any] | tuple[Any, ...]', node)
    # More members than half the width cannot fit it (each takes two characters at least): not serialized to see.
    if compact is None and len(members) * 2 <= width:
        compact = _to_json(members)
    if compact is not None and len(compact) <= width:
        lines.append(f'{indent}{lead}{compact}{trail}')
        return
    inner = depth + 1
    pad = ' ' * inner
    last = len(members) - 1
    if isinstance(members, dict):
        lines.append(f'{indent}{lead}{{')
        if all(_flat(item) for item in members.values()):
            # Plain values only: its members are read off its compact JSON at C speed, a line each.
            found = _PLAIN_MEMBER.findall(compact or _to_json(members), 1)
            lines.extend(f'{pad}{member},' for member in found[:-1])
            lines.append(f'{pad}{found[-1]}')
        else:
            for index, (key, item) in enumerate(members.items()):
                comma = ',' if index < last else ''
                if _flat(item):
                    lines.append(f'{pad}{_key(key)}{_spelled(item)}{comma}')
                else:
                    _lay_out(item, inner, _key(key), comma, width, lines)
        lines.append(f'{indent}}}{trail}')
        return
    lines.append(f'{indent}{lead}[')
    if not any(isinstance(item, _PLAIN_OR_ARRAY) for item in members):
        # Records: one a line, whole, as `json_lines` lays them out (a record's name and its fields stay together).
        lines.extend(f'{pad}{_to_json(item)},' for item in members[:-1])
        lines.append(f'{pad}{_to_json(members[-1])}')
    elif not all(_flat(item) for item in members):
        for index, item in enumerate(members):
            comma = ',' if index < last else ''
            if _flat(item):
                lines.append(f'{pad}{_spelled(item)}{comma}')
            else:
                _lay_out(item, inner, '', comma, width, lines)
    else:
        # Plain values (line numbers, names) fill lines rather than take one each.
        row: list[str] = []
        used = 0
        # Numbers, booleans, nulls and empty arrays hold no comma: spelled by one call for the array, then split.
        split = not any(isinstance(item, str | dict | list | tuple) for item in members)
        for spelled in (compact or _to_json(members))[1:-1].split(',') if split else map(_spelled, members):
            if row and used + len(spelled) > width:
                lines.append(f'{pad}{",".join(row)},')
                row, used = [], 0
            row.append(spelled)
            used += len(spelled) + 1
        lines.append(f'{pad}{",".join(row)}')
    lines.append(f'{indent}]{trail}')


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
