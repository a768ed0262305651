"""Mentions (R14, R20): where a sentence names concepts, by name, alias and the other number.

What a sentence states between the concepts it names is read from its parse by
:mod:`wikigen.engines.offline.statements`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from wikigen.engines.offline.terms import head_variants, is_acceptable_term, is_identifier_like
from wikigen.model.ids import normalize_name


@dataclass(frozen=True, slots=True)
class Mention:
    start: int
    end: int
    ref: str


class Mentions:
    """Finds concept mentions by name, alias and their plural/singular, longest first, whole words.

    Case is ignored: "a gRPC service" is told from the Service resource by the relation rules (a
    noun in front of a lower-case mention makes it a common noun), not here.
    """

    def __init__(self, forms: Mapping[str, str]) -> None:
        self._refs = dict(forms)
        ordered = sorted(self._refs, key=lambda form: (-len(form), form))
        alternatives = "|".join(re.escape(form) for form in ordered)
        self._pattern = (
            re.compile(r"(?<![\w./-])(?:" + alternatives + r")(?![\w/-]|\.\w)", re.IGNORECASE)
            if ordered
            else None
        )

    @classmethod
    def build(cls, names: Iterable[tuple[str, Sequence[str]]], *, known: bool = False) -> Mentions:
        """``names``: (ref, surface forms); a form claimed by two refs matches neither. ``known``:
        the names are those of concepts already accepted, so stop-listed words ("List", `case`)
        are found too."""
        owners: dict[str, set[str]] = {}
        for ref, forms in names:
            for form in forms:
                for variant in (form, *head_variants(form)):
                    if (
                        (known and len(variant.strip()) >= 2)
                        or is_acceptable_term(variant)
                        or is_identifier_like(variant)
                    ):
                        owners.setdefault(normalize_name(variant), set()).add(ref)
        unique = {key: next(iter(refs)) for key, refs in owners.items() if len(refs) == 1}
        return cls(unique)

    def find(self, text: str) -> list[Mention]:
        if self._pattern is None:
            return []
        found = []
        for match in self._pattern.finditer(text):
            ref = self._refs.get(normalize_name(match.group()))
            if ref is not None:
                found.append(Mention(match.start(), match.end(), ref))
        return found
