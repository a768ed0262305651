"""The terms a heading names (R20): its code spans, or, where it is no sentence, its noun phrases
("Labels and Selectors", "Using `Date`", "Working with maps"), without the words headings lead with.
"""

from __future__ import annotations

import re

from wikigen.engines.offline.lexicon import HEADING_LEADS, alternation
from wikigen.engines.offline.text import visible

_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+&\s+|\s+vs\.?\s+|\s+or\s+)\s*")
_LEAD = re.compile(r"^(?:" + alternation(HEADING_LEADS) + r")\s+", re.IGNORECASE)
# Chapters use headings for structure as much as for terms.
_STOP = re.compile(
    r"^(?:summing up|wrapping up|conclusion|summary|next steps|what's next|other .*|more .*|"
    r".*\b(?:options|tools|community|examples?|basics)|basic .*|getting .*|the .* module)$",
    re.IGNORECASE,
)


def heading_terms(raw: str) -> list[tuple[str, bool]]:
    """The terms a heading names: its code spans, or its noun phrases when it is not a sentence."""
    shown = visible(raw)
    text = shown.text
    codes = [(shown.text[m.start : m.end], m.start, m.end) for m in shown.marks if m.kind == "code"]
    terms = [(code, True) for code, _, _ in codes]
    if codes:
        # "Booleans and `nil`": a part of its own besides the code spans is a prose name
        if len(text.split()) > 6:
            return terms
        masked = "".join("\0" if any(a <= i < b for _, a, b in codes) else c for i, c in enumerate(text))
        parts = [part for part in _SPLIT.split(masked) if "\0" not in part and part.strip()]
        if len(parts) == len(_SPLIT.split(masked)):
            return terms  # no part is code alone: "The `IO` module" names `IO`
    elif len(text.split()) == 1 and text.islower():
        return [(text, False)]
    else:
        parts = _SPLIT.split(text)
    if len(text.split()) > 6 or text.rstrip().endswith(("?", "!", ".")) or _STOP.match(text):
        return terms
    for part in parts:
        part = _LEAD.sub("", part.strip())
        if part and not re.search(
            r"\b(?:is|are|does|do|can|how|what|why|when|to|with|in|for|of|as|by|from|on|into|using)\b",
            part,
            re.I,
        ):
            terms.append((part, False))
    return terms
