"""The type of a concept (R20), a hint for readers taken from its defining sentence: a component
("… is a daemon that …"), a resource ("… is an API object", a CamelCase kind), an entity ("… is a
framework for …"), a command (a tldr page's title), a term (a glossary's) or a concept.
"""

from __future__ import annotations

import re

from wikigen.engines.offline.documents import Document
from wikigen.engines.offline.lexicon import COMPONENT_WORDS, ENTITY_WORDS, alternation
from wikigen.engines.offline.terms import Definition, is_identifier_like
from wikigen.engines.offline.text import visible

# The type is a hint for readers, taken from the defining sentence; an anchor keeps its own (R26).
_COMPONENT = re.compile(r"\b(?:" + alternation(COMPONENT_WORDS) + r")\b", re.I)
_RESOURCE = re.compile(r"\b(?:an?|the)\s+(?:[\w-]+\s+)?(?:API\s+)?(?:object|resource|kind)\b", re.I)
_ENTITY = re.compile(r"\b(?:" + alternation(ENTITY_WORDS) + r")\b", re.I)


def concept_type(definition: Definition, name: str, commands: set[str]) -> str:
    if definition.pattern == "lead":
        return "command" if definition.source in commands else "term"
    # What the sentence says besides the term's own name ("the node controller is …" is no entity).
    text = re.sub(re.escape(definition.term), " ", visible(definition.quote).text, flags=re.I)
    if _COMPONENT.search(text):
        return "component"
    if _RESOURCE.search(text):
        return "resource"
    if _ENTITY.search(text):
        return "entity"
    if is_identifier_like(name) and not name.isupper() and "-" not in name:
        return "resource"  # ReplicaSet, ConfigMap: API kinds are written in CamelCase
    if definition.pattern in ("glossary", "list"):
        return "term"
    return "concept"


def has_command_lines(document: Document) -> bool:
    """tldr-style pages: examples are lines that are one code span each."""
    return re.search(r"(?m)^`[^`\n]+`[ \t]*$", document.body) is not None
