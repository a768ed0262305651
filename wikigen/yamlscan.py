"""YAML that people write (source frontmatter, wikigen.yml), refused before it is composed.

PyYAML's event stream shows every anchor, alias, nesting level and mapping key before anything is
built, so reading stays bounded by the text's size (issue 15.2: a 409-byte alias bomb expands to
billions of values) and a key written twice is caught (issue 15.7: PyYAML keeps the last silently).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

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


def safe_load(text: str) -> Any:
    """``yaml.safe_load`` by LibYAML's parser where there is one, the pure-Python parser's error for
    text it refuses (after :func:`refusal`, which bounds what loading can build)."""
    if _FAST is not None:
        try:
            return yaml.load(text, Loader=_FAST)  # CSafeLoader: the safe loader in C
        except yaml.YAMLError:
            pass
    return yaml.safe_load(text)
