"""Whether a phrase or a name occurs in the changed sources as R14's index would see it (R14, R26):
an alias or a name no changed source uses could collide with a live concept the request does not
carry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from wikigen.model.ids import normalize_name


def phrase_finder(bodies: Iterable[str]) -> Callable[[str], bool]:
    """Whether a phrase occurs as whole words in the changed sources, where R14's index would see it:
    an alias no changed source uses could collide with a live concept the request does not carry."""
    text = " ".join(" ".join(body.split()) for body in bodies).casefold()

    def is_used(phrase: str) -> bool:
        words = " ".join(phrase.split()).casefold()
        return re.search(r"(?<![\w-])" + re.escape(words) + r"(?![\w-])", text) is not None

    return is_used


def spoken(bodies: Iterable[str]) -> Callable[[str], bool]:
    """Whether a name occurs in the changed sources as R14's index would find it: the same tokens
    (``wikigen.compiler.context.name_tokens``: word characters joined by ``+#.-``), in a row."""
    grams: set[tuple[str, ...]] = set()
    for body in bodies:
        tokens = _name_tokens(body)
        for size in range(1, 9):
            grams.update(tokens[i : i + size] for i in range(len(tokens) - size + 1))

    def is_spoken(name: str) -> bool:
        return _name_tokens(name) in grams

    return is_spoken


def _name_tokens(text: str) -> tuple[str, ...]:
    return tuple(t for t in (m.strip("_") for m in _NAME_TOKEN.findall(normalize_name(text))) if t)


_NAME_TOKEN = re.compile(r"\w(?:[\w+#.\-]*[\w+#])?", flags=re.UNICODE)
