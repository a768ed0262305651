"""What a definition quotes (R22): the defining sentence, verbatim at its span in the body, with
the sentence before it where it refers back, or with the one after it where it only introduces the
term. A quote never crosses a blank line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wikigen.engines.offline.documents import Document
from wikigen.engines.offline.findings import Found
from wikigen.engines.offline.text import Sentence


def quote_span(found: Found, documents: Mapping[str, Document], variants: Sequence[str] = ()) -> tuple[int, str]:
    """The sentence, or with the sentence before it when it refers back ("This set is called …"),
    or with the one after it when it only introduces the term and that one opens with one of its
    ``variants`` ("… provides a notion of graphemes. Graphemes may consist of …")."""
    sentence = found.sentence
    document = documents.get(sentence.source)
    if document is None:
        return sentence.start, sentence.text
    following = introducing(document, sentence, variants) if found.reading.introduced else None
    if following is not None:
        return sentence.start, document.body[sentence.start : following.start + len(following.text)]
    if found.reading.anaphoric:
        before = [s for s in document.sentences if s.start < sentence.start]
        found_joined = joined(document, before[-1] if before else None, sentence)
        if found_joined is not None:
            return found_joined
    return sentence.start, sentence.text


def joined(document: Document, previous: Sentence | None, sentence: Sentence) -> tuple[int, str] | None:
    """``sentence`` quoted with the one before it, where that one ends just before it in the same
    block (a quote never crosses a blank line); else None."""
    if previous is None or previous.start >= sentence.start:
        return None
    gap = document.body[previous.start + len(previous.text) : sentence.start]
    if gap.strip() or gap.count("\n") > 1:
        return None
    return previous.start, document.body[previous.start : sentence.start + len(sentence.text)]


def introducing(document: Document, sentence: Sentence, variants: Sequence[str]) -> Sentence | None:
    """The sentence after ``sentence`` in its block where it opens with one of the term's
    ``variants`` ("… provides a notion of graphemes. Graphemes may consist of …"); else None."""
    following = next((s for s in document.sentences if s.start > sentence.start), None)
    if following is None:
        return None
    gap = document.body[sentence.start + len(sentence.text) : following.start]
    opens = any(following.clean.text.casefold().startswith(f"{v.casefold()} ") for v in variants)
    return following if "\n\n" not in gap and not gap.strip() and opens else None
