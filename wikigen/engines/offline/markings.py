"""How an author marks a term (R20): emphasis of a few words, alone in the sentence; quotation
marks of its own; a definition list's term; a link whose text names the page it points to.
:mod:`~wikigen.engines.offline.candidates` collects the terms so marked, and
:mod:`~wikigen.engines.offline.definitions` reads a marked mention as one the author introduces.
"""

from __future__ import annotations

import re

from wikigen.engines.offline.terms import head_variants
from wikigen.engines.offline.text import Sentence, Visible, visible


def is_emphasized(clean: Visible, start: int, end: int) -> bool:
    """The words [start, end) are emphasized by the author, as a whole (not a whole sentence), and
    alone: "recommended over *configuration files* and *command arguments*" stresses a contrast."""
    short = [
        m
        for m in clean.marks
        if m.kind in ("bold", "italic") and len(clean.text[m.start : m.end].split()) <= 4
    ]
    if len({clean.text[m.start : m.end].casefold() for m in short}) > 1:
        return False
    for mark in clean.marks:
        if mark.kind in ("bold", "italic") and mark.start <= start and end <= mark.end:
            inner = clean.text[mark.start : mark.end]
            if len(inner.split()) <= 4 and (mark.end - mark.start) - (end - start) <= 4:
                return True
    return False


QUOTED_ANY = re.compile(r"[\"“][^\"“”\n]{1,60}[\"”]")
VALUES = 3  # quoted strings in one sentence from which on they are an example's values


def is_quoted(text: str, start: int, end: int) -> bool:
    """The words [start, end) stand in quotation marks of their own: "tagged tuples"; not where the
    sentence quotes several strings (a Pod "pod-a" with volume "scratch" …): those are values."""
    return (
        start > 0
        and end < len(text)
        and text[start - 1] in '"“'
        and text[end] in '"”'
        and len(QUOTED_ANY.findall(text)) < VALUES
    )


def independent_spans(sentence: Sentence) -> list[tuple[int, int, str]]:
    """Terms a sentence marks in any language: its emphasized words (at most 4
    words, 40 characters) and a definition list's term (``Term`` / ``: definition``), as spans of
    its visible text with the signal each gives."""
    clean = sentence.clean
    spans = []
    listed = _LISTED_TERM.match(sentence.text)
    if listed is not None:
        term = visible(listed.group("term")).text.strip()
        if term and clean.text.startswith(term):
            spans.append((0, len(term), "listed"))
    for mark in clean.marks:
        inner = clean.text[mark.start : mark.end]
        if mark.kind in ("bold", "italic") and len(inner.split()) <= 4 and len(inner) <= 40:
            spans.append((mark.start, mark.end, "marked"))
    return spans


_LISTED_TERM = re.compile(r"^(?P<term>[^\n:]{2,80})\n[ \t]*:[ \t]+\S")


_PAGE_SUFFIX = re.compile(r"\.(?:md|markdown|html?|cheatmd)$", re.IGNORECASE)


def links_its_page(label: str, url: str) -> bool:
    """A link whose text names its target: the target page's last path segment, or its fragment,
    spells the label ("Network policies" → ``…/network-policies/``, "Pod garbage collection" →
    ``…#pod-garbage-collection``, `` `case` `` → `` `case/2` ``), in either number."""
    target = url.strip()
    if target.startswith("`") and target.endswith("`"):  # ExDoc's autolink: `case/2`, `Enum`
        target = re.sub(r"/\d+$", "", target.strip("`"))
        slugs = [target]
    else:
        path, _, fragment = target.partition("#")
        path = path.split("?", 1)[0]
        segments = [s for s in path.split("/") if s]
        slugs = [_PAGE_SUFFIX.sub("", segments[-1])] if segments else []
        slugs += [fragment] if fragment else []
    names = {_spelled(form) for form in [label, *head_variants(label)]}
    return len(_spelled(label)) >= 2 and any(_spelled(slug) in names for slug in slugs)


def _spelled(text: str) -> str:
    """Letters and digits only, casefolded: 'Tail_call' and 'tail call' spell the same."""
    return re.sub(r"[^0-9a-z]+", "", text.casefold())
