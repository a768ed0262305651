"""A page's lead as the definition of its title (R20): a title heading followed by a block quote, as
tldr pages open ("# tar" / "> Archiving utility."), defines the title by the quote's first sentence,
unless that sentence says only what became of the command ("This command has been superseded by
`pamfile`.").
"""

from __future__ import annotations

import re

from wikigen.engines.offline.documents import Document
from wikigen.engines.offline.lexicon import STATUS_PARTICIPLES, alternation
from wikigen.engines.offline.terms import Definition, is_acceptable_term
from wikigen.engines.offline.text import is_abbreviation_stop


def lead_definition(document: Document) -> list[Definition]:
    """A title heading followed by a block quote (tldr pages): the quote's first sentence defines it."""
    match = re.match(r"\s*#[ \t]+[^\n]+\n\s*>[ \t]*(?P<line>[^\n]+)", document.body)
    if match is None or not is_acceptable_term(document.title, code=False):
        return []
    line = match.group("line")
    quote = _first_sentence(line).strip()
    start = match.start("line") + line.find(quote)
    if len(quote) < 8 or _STATUS_NOTE.match(quote) or AMBIGUOUS_NAME.match(quote):
        return []
    return [Definition(document.title, document.source, start, quote, "lead", (), True)]


# "This command has been superseded by `pamfile`.", "The examples for this command have been moved
# together with `trash`.": the page's lead says only what became of it or of its examples
_STATUS_NOTE = re.compile(
    r"(?:the examples for )?this (?:command|tool|utility|program) (?:has been|have been|is|was) (?:now )?(?:"
    + alternation(STATUS_PARTICIPLES)
    + r")\b",
    re.IGNORECASE,
)

# "`open` can refer to multiple commands with the same name.": a page that only points to the pages of
# the things one name names says nothing of any of them
AMBIGUOUS_NAME = re.compile(r"`?[^`\s]+`? can refer to (?:multiple|several|different) \w+", re.IGNORECASE)


def _first_sentence(line: str) -> str:
    """The line up to its first sentence end; the stop of an abbreviation ends none ("… "active days"
    i.e. total number of days …", "(e.g. a Pod)")."""
    for stop in re.finditer(r"[.!?](?=\s|$)", line):
        if not is_abbreviation_stop(line, stop.start()):
            return line[: stop.end()]
    return line
