"""YAML that people write (source frontmatter, wikigen.yml), refused before it is composed, and
loaded so that every value it holds can be hashed, stored and shown.

PyYAML's event stream shows every anchor, alias, nesting level and mapping key before anything is
built, so reading stays bounded by the text's size (a few hundred bytes of aliases can expand to
billions of values) and a key written twice is caught (PyYAML keeps the last silently).
A value PyYAML cannot build (a 30 February, `!!float abc`, an integer of 5,000 digits, the lone
surrogate `"\\ud800"`) is a ``yaml.YAMLError`` at its own line, like text that is not YAML (R5).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import Node, ScalarNode

MAX_DEPTH = 20
# LibYAML's parser where PyYAML has it (every binary wheel): the same events several times faster.
# Text it cannot parse is parsed again by the pure-Python one, so an error reads the same everywhere.
_FAST: Any = getattr(yaml, "CSafeLoader", None)
_REFUSED = "anchors and aliases are refused because they can expand without bound; write the value out"


@dataclass
class _Mapping:
    keys: dict[str, int] = field(default_factory=dict)  # key → its 0-based line
    expects_key: bool = True


def refusal(text: str, what: str, first_line: int, max_depth: int = MAX_DEPTH) -> tuple[int, str] | None:
    """(file line, message) of the first thing refused in ``text``, or None.

    ``first_line`` is the file line of the text's first line. Raises yaml.YAMLError for text that is
    not YAML at all.
    """
    stack: list[_Mapping | None] = []  # one entry per open collection; None for a sequence

    def completed() -> None:
        """A node ended: in a mapping, a key is followed by its value and a value by a key."""
        if stack and stack[-1] is not None:
            stack[-1].expects_key = not stack[-1].expects_key

    for event in _events(text):
        line = event.start_mark.line if event.start_mark is not None else 0
        if isinstance(event, yaml.AliasEvent):
            return first_line + line, f"{what} uses the YAML alias *{event.anchor}; {_REFUSED}"
        if isinstance(event, yaml.NodeEvent) and event.anchor is not None:
            return first_line + line, f"{what} uses the YAML anchor &{event.anchor}; {_REFUSED}"
        if isinstance(event, yaml.ScalarEvent):
            parent = stack[-1] if stack else None
            if parent is not None and parent.expects_key:
                first = parent.keys.get(event.value)
                parent.keys.setdefault(event.value, line)
                if first is not None:
                    return first_line + line, (
                        f"{what} has the key {event.value!r} twice, on lines {first_line + first} and "
                        f"{first_line + line}; YAML would keep only the last — remove one"
                    )
            completed()
        elif isinstance(event, yaml.CollectionStartEvent):
            if len(stack) >= max_depth:
                return first_line + line, f"{what} is nested more than {max_depth} levels deep; flatten it"
            stack.append(_Mapping() if isinstance(event, yaml.MappingStartEvent) else None)
        elif isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
            completed()
    return None


def _events(text: str) -> Iterator[Any]:
    if _FAST is not None:
        try:
            events = list(yaml.parse(text, Loader=_FAST))
        except yaml.YAMLError:
            pass
        else:
            yield from events
            return
    yield from yaml.parse(text, Loader=yaml.SafeLoader)


class _Values:
    """Mixed into a safe loader: each node is built or refused at its own line, so that what loads
    can always be hashed and written as UTF-8 JSON."""

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        try:
            value = super().construct_object(node, deep)  # type: ignore[misc]
        except yaml.YAMLError:
            raise
        except Exception as exc:  # R5: a value PyYAML cannot build is bad text, never a crash
            raise _unbuilt(node, exc) from None
        if isinstance(value, str) and not value.isascii():
            whole = _whole_characters(node, value)
            if whole is not value:
                self.constructed_objects[node] = value = whole  # type: ignore[attr-defined]
        elif isinstance(value, int) and not isinstance(value, bool) and _too_long(value):
            raise _unbuilt(node, None)
        return value


class _SafeLoader(_Values, yaml.SafeLoader):
    pass


_FAST_LOADER: Any = type("_FastSafeLoader", (_Values, _FAST), {}) if _FAST is not None else None


def _too_long(number: int) -> bool:
    """Python refuses to write an integer of more digits than ``sys.get_int_max_str_digits()``
    (4,300), and a hash or a page must write it; ``0x…`` and sexagesimal ``1:2:3`` text escape the
    check at reading."""
    try:
        str(number)
    except ValueError:
        return True
    return False


def _whole_characters(node: Node, text: str) -> str:
    """``text`` with each UTF-16 surrogate pair (``"\\ud83d\\ude00"``, as JSON writes 😀) made the one
    character it stands for; a surrogate left alone is refused, since UTF-8 cannot hold it."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:
        lone = next(c for c in text if "\ud800" <= c <= "\udfff")
        raise ConstructorError(
            None,
            None,
            f"{_shown(node)} holds the lone surrogate \\u{ord(lone):04x}, which is no character and no "
            "UTF-8 file can hold; write the character itself, or its full code point as \\UXXXXXXXX",
            node.start_mark,
        ) from None


def _unbuilt(node: Node, error: Exception | None) -> ConstructorError:
    """The error for a node whose value cannot be built (``error``) or written out (None: too long)."""
    kind = str(node.tag).rsplit(":", 1)[-1]
    if error is None or (kind == "int" and isinstance(error, ValueError) and _digits(node) > _max_digits()):
        problem = (
            f"{_shown(node)} is a whole number of more than {_max_digits():,} digits, more than can be "
            "written out; quote it to keep it as text"
        )
    else:
        reason = f" ({error})" if isinstance(error, (ArithmeticError, ValueError)) and str(error) else ""
        problem = (
            f"{_shown(node)} is not a valid {kind}{reason}; correct it, or quote it (without a !! tag) "
            "to keep it as text"
        )
    return ConstructorError(None, None, problem, node.start_mark)


def _digits(node: Node) -> int:
    return sum(c.isdigit() for c in str(node.value)) if isinstance(node, ScalarNode) else 0


def _max_digits() -> int:
    return sys.get_int_max_str_digits() or sys.maxsize


def _shown(node: Node) -> str:
    """The node's text as a message quotes it: escaped (repr shows a surrogate as ``\\ud800``, which
    no terminal could take raw), and cut short when long."""
    if not isinstance(node, ScalarNode):
        return f"the {str(node.tag).rsplit(':', 1)[-1]}"
    text = str(node.value)
    if len(text) <= 40:
        return f"the value {text!r}"
    return f"the value {text[:30]!r}… ({len(text):,} characters)"


def safe_load(text: str) -> Any:
    """``yaml.safe_load`` by LibYAML's parser where there is one, the pure-Python parser's error for
    text it refuses (after :func:`refusal`, which bounds what loading can build). Every value is one
    that can be hashed and written: see :class:`_Values`."""
    if _FAST_LOADER is not None:
        try:
            return yaml.load(text, Loader=_FAST_LOADER)  # CSafeLoader: the safe loader in C
        except yaml.YAMLError:
            pass
    return yaml.load(text, Loader=_SafeLoader)
