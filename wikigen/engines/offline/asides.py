"""What a text says on the side or weighs up (R20): the spans of its admonitions (a note, a caution,
a warning) and of the lists a line weighing something up leads into ("Advantages …:"). Nothing
said there defines a term.
"""

from __future__ import annotations

import re

# Admonitions: a Hugo note, caution or warning; a GitHub alert ("> [!NOTE]"); an MkDocs "!!! note"
_ASIDE = re.compile(
    r"\{\{[<%]\s*(?P<hugo>note|caution|warning)\b[^}]*[>%]\}\}.*?\{\{[<%]\s*/(?P=hugo)\s*[>%]\}\}"
    r"|^>[ \t]*\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][^\n]*(?:\n>[^\n]*)*"
    r"|^!!!\s+\w+[^\n]*(?:\n(?:[ \t]+[^\n]*)?)*?(?=\n\S|\Z)",
    re.DOTALL | re.MULTILINE | re.IGNORECASE,
)


def admonitions(body: str) -> list[tuple[int, int]]:
    """The spans of the body's admonitions: what a note says on the side describes nothing."""
    return [(m.start(), m.end()) for m in _ASIDE.finditer(body)]


# What weighs a thing up: "Advantages compared to …:", "## Trade-offs", "Limitations:"
EVALUATION = re.compile(
    r"^(?:the\s+)?(?:main\s+|key\s+)?(?:advantages?|disadvantages?|pros\b|cons\b|benefits?|drawbacks?|"
    r"downsides?|limitations?|trade-?offs?|caveats?)",
    re.IGNORECASE,
)
# A line that leads into a list, and the list
_LEAD_IN_LIST = re.compile(
    r"^(?P<lead>[^\n]{1,100}):[ \t]*\n(?:[ \t]*\n)?"
    r"(?P<list>(?:[ \t]*(?:[-*+]|\d+\.)[ \t][^\n]*(?:\n[ \t]+\S[^\n]*)*(?:\n|\Z))+)",
    re.MULTILINE,
)


def evaluations(body: str) -> list[tuple[int, int]]:
    """The spans of the lists that a line weighing something up leads into ("Advantages …:")."""
    return [
        (m.start("list"), m.end("list"))
        for m in _LEAD_IN_LIST.finditer(body)
        if EVALUATION.match(m.group("lead").strip()) or _WEIGHED_LEAD.search(m.group("lead"))
    ]


# A lead that names what its list weighs up anywhere ("Containers … provide extra benefits, such as:")
_WEIGHED_LEAD = re.compile(
    r"\b(?:advantages|disadvantages|benefits|drawbacks|downsides|limitations|trade-?offs|pros and cons)\b"
    r"[^.:]{0,40}$",  # the lead, without its colon
    re.IGNORECASE,
)
