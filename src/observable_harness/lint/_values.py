"""The abstract values the linter follows: where output came from, and what happened to its size on the way."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

__all__ = [
    'BOUND_ORDER',
    'EMPTY',
    'MARKER_TEXT',
    'Origin',
    'Value',
    'bound_rank',
    'join',
    'marker_text',
    'unbounded',
]

BOUND_ORDER = {'': 0, 'ifnone': 1, 'fixed': 2, 'param': 3, 'limit': 3, 'small': 4}
"""How well a value's size is known, worst first: not at all; cut to a fixed size; cut to a size the model
chose (a tool parameter); shown to be small before it was returned (nothing was cut). Inside a helper, a
cut sized by the helper's parameter `n` is `param:n` until a call says what `n` was (`limit:n` when the cut
is by `n` itself, which a call may pass as None to cut nothing), and output that is
whole only on the path where the limit `n` is absent (`if n is None: return out`) is `ifnone:n`: whole when
a call passes no limit, the model's request when the tool's caller chose it, and never returned when a
call passes a number."""


def bound_rank(bound: str) -> int:
    head, _, _ = bound.partition(':')
    return BOUND_ORDER[head]


def unbounded(bound: str) -> bool:
    """Whether a bound leaves the size open: none at all, or none on a path a call may take."""
    return bound == '' or bound.startswith('ifnone:')


MARKER_TEXT = re.compile(
    r'truncat|clipped|\bcut\b|\bomitted\b|\belided\b|\bremaining\b|not shown|\bshowing\b|\bshown\b|'
    r'\bskipped\b|\bof \{\}|\bof \d|\bfirst \{\}|\blast \{\}|\bfirst \d+ (?:lines|characters|chars|bytes)|'
    r'\bmore (?:lines|characters|chars|bytes|results|matches|entries|items|rows|output)\b|\.\.\.|…|'
    r'too (?:long|large|big)|exceed|\boffset\b|start_index|\bnext page\b',
    re.IGNORECASE,
)
"""Words that tell a model the text in front of it is not all there is (`{}` stands for an f-string's value)."""


def marker_text(text: str) -> bool:
    return MARKER_TEXT.search(text) is not None


@dataclass(frozen=True, slots=True)
class Origin:
    """One source of output, or one parameter of the function being summarised."""

    kind: str
    """`command`, `file`, `web` (a page fetched from a URL the tool's caller chose), or `param` (a parameter of
    a helper, replaced by the argument at each call)."""
    source: str
    """What produced it, as a user reads it: `subprocess.run`, `open`, `read_text`; a parameter's name."""
    line: int
    path: str
    shape: str = 'data'
    """`data` (text or bytes); `result` (a finished process: its repr holds the output); `status` (a result that
    unpacks as (exit status, output), like docker's `exec_run`); `process` (a running
    one); `error` (a CalledProcessError: its message is short, its attributes are not); `handle` (an open
    file); `factory` (an object whose methods produce output: a converter, a container); `client` (an HTTP
    client); `response` (an HTTP response: its body is the output, its status and headers are not)."""
    bound: str = ''
    marked: bool = False
    pieces: bool = False
    """Split into lines or words: one item picked by position (`lines[-1]`) is a small part, not the whole."""
    needs: str = ''
    read: bool = False
    """A helper's parameter it reads from (`response.text`, `proc.stdout`, iterating a handle): where a call
    passes a response, a process or a handle, what the helper returns is its output."""
    """Inside a helper, a page fetched from the helper's parameter `needs`: a source only where a call passes a
    URL the tool's caller chose."""

    def capped(self, bound: str) -> Origin:
        return self if bound_rank(self.bound) >= bound_rank(bound) else replace(self, bound=bound)

    def whole_unless(self, bound: str) -> Origin:
        """On a path where a limit is absent: what is still whole there is `bound` (see `BOUND_ORDER`)."""
        return replace(self, bound=bound) if self.bound == '' else self


@dataclass(frozen=True, slots=True)
class Value:
    origins: frozenset[Origin] = frozenset()
    marker: bool = False
    """The value holds text that says output was cut."""
    classes: frozenset[str] = frozenset()
    """Instances of classes defined in the linted code, by key (`module:Class`)."""
    parts: tuple[Value, ...] | None = None
    """A tuple's items, each followed on its own (`code, out, err = run(cmd)`); `origins` is their join."""

    @property
    def tainted(self) -> bool:
        return bool(self.origins)

    def map(self, change: Callable[[Origin], Origin]) -> Value:
        parts = None if self.parts is None else tuple(part.map(change) for part in self.parts)
        return replace(self, origins=frozenset(change(origin) for origin in self.origins), parts=parts)

    def whole(self) -> Value:
        """The value as one thing: a tuple's items no longer told apart."""
        return self if self.parts is None else replace(self, parts=None)

    def capped(self, bound: str) -> Value:
        return self.map(lambda origin: origin.capped(bound))

    def with_shape(self, shape: str) -> Value:
        return self.map(lambda origin: replace(origin, shape=shape))

    def marked(self) -> Value:
        return self.map(lambda origin: replace(origin, marked=True))

    def data(self) -> Value:
        """Only what is output itself: parameters and classes dropped."""
        return Value(frozenset(origin for origin in self.origins if origin.kind != 'param'), self.marker)


EMPTY = Value()


def join(values: Iterable[Value]) -> Value:
    origins: set[Origin] = set()
    classes: set[str] = set()
    marker = False
    every = list(values)
    for value in every:
        origins |= value.origins
        classes |= value.classes
        marker = marker or value.marker
    shapes = {len(value.parts) if value.parts is not None else -1 for value in every if value != EMPTY}
    parts: tuple[Value, ...] | None = None
    if len(shapes) == 1 and (size := shapes.pop()) >= 0:
        # every non-empty value is a tuple of one size: `return code, out, err` on each path
        parts = tuple(join(value.parts[index] for value in every if value.parts is not None) for index in range(size))
    if not origins and not classes and not marker and parts is None:
        return EMPTY
    return Value(frozenset(origins), marker, frozenset(classes), parts)
