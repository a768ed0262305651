"""Missing concepts: a phrase an author marks as a term in prose (emphasis) that at least
``min_sources`` sources use and that no concept covers.

Which markings mark a term and which terms are left out are rules, each named by its reason
(:data:`MARKING_RULES`, :data:`TERM_RULES`): a finding is one a maintainer acts on only when the
term is neither documented already (a heading, a link's target, an existing concept under an
inflected name) nor a word of the language.

Ranked by the number of sources that mark the term, then by the number that use it, then by the
term; only the first ``term_cap`` are listed and the rest counted, so a large corpus never floods."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from wikigen.lint.document import Marking
from wikigen.lint.findings import Finding
from wikigen.lint.inputs import SourceText
from wikigen.lint.terms import is_term, stem_key, term_key

SHOWN_SOURCES = 3  # sources named in a finding's text; the rest are counted
# One word of the language, as prose writes it ("update", "Name", "auto-completion"): no inner
# capital and no digit.
_PLAIN_WORD = re.compile(r"^[A-Za-z][a-z]*(?:[-'’][a-z]+)*$")
_SHOUTED_WORD = re.compile(r"^[A-Z]{2,}$")


@dataclass(slots=True)
class Candidate:
    written: str  # the first way it is written, in source order
    first: tuple[str, int]  # the source and body line of that first marking
    marked_by: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class Known:
    """What the term rules compare a term with: the keys of every heading of every source, the
    stems of the concepts' keys, and the lowercase words the prose writes."""

    headings: frozenset[str] = frozenset()
    concept_stems: frozenset[str] = frozenset()
    lowercase: frozenset[str] = frozenset()


# A marking marks a term unless one of these holds (rule name → test on the marking).
MARKING_RULES: Mapping[str, Callable[[Marking], bool]] = MappingProxyType(
    {
        # A heading names the section that documents it: it is explained there already.
        "heading": lambda m: m.how == "heading" or m.where == "heading",
        # A CamelCase word is an identifier (a type, a field, a value, a placeholder, a product);
        # its documentation is its reference, and an author who introduces it emphasises it.
        "identifier": lambda m: m.how == "name",
        # A link's text names what the link's target documents.
        "link text": lambda m: m.where == "link",
        # "**Portable:** …" labels a list item or paragraph; it introduces no term.
        "label": lambda m: m.where == "label",
    }
)

# A marked term is no missing concept when one of these holds (rule name → test on its key, the
# way it is written and what is known).
TERM_RULES: Mapping[str, Callable[[str, str, Known], bool]] = MappingProxyType(
    {
        # A term that is some source's heading is documented in that section.
        "heading": lambda key, written, known: key in known.headings,
        # A concept already covers it up to inflection ("pattern match" / "Pattern matching").
        "covered": lambda key, written, known: stem_key(key) in known.concept_stems,
        # One plain word ("update", "Name", "optional") is vocabulary, stressed, not a term.
        "plain word": lambda key, written, known: bool(_PLAIN_WORD.match(written)),
        # A word in capitals that prose also writes in lowercase ("CRITICAL") is a word stressed.
        "shouted word": lambda key, written, known: bool(_SHOUTED_WORD.match(written)) and key in known.lowercase,
    }
)


def marks_a_term(marking: Marking) -> bool:
    return not any(rule(marking) for rule in MARKING_RULES.values())


def candidates(marked: Mapping[str, tuple[Marking, ...]]) -> dict[str, Candidate]:
    """term key → its candidate, from each source's markings (source id → markings)."""
    found: dict[str, Candidate] = {}
    for source_id, markings in sorted(marked.items()):
        for marking in markings:
            phrase = marking.phrase
            if not is_term(phrase) or not marks_a_term(marking):
                continue
            key = term_key(phrase)
            if key:
                found.setdefault(key, Candidate(" ".join(phrase.split()), (source_id, marking.line)))
                found[key].marked_by.add(source_id)
    return found


def left_out_term(key: str, written: str, known: Known) -> bool:
    return any(rule(key, written, known) for rule in TERM_RULES.values())


def missing_concepts(
    found: Mapping[str, Candidate],
    mentioned: Mapping[str, set[str]],
    named: Mapping[str, object],
    sources: Mapping[str, SourceText],
    *,
    min_sources: int,
    cap: int,
    known: Known,
) -> tuple[list[Finding], int]:
    """The findings within the cap, and how many more there are. ``named``: the concepts' keys."""
    users_of = {key: mentioned.get(key, set()) | c.marked_by for key, c in found.items() if key not in named}
    ranked = sorted(
        (-len(found[key].marked_by), -len(users), key)
        for key, users in users_of.items()
        if len(users) >= min_sources and not left_out_term(key, found[key].written, known)
    )
    findings = []
    for _, _, key in ranked[:cap]:
        candidate = found[key]
        users = sorted(users_of[key])
        first, line = candidate.first
        shown = ", ".join(users[:SHOWN_SOURCES]) + (f" and {len(users) - SHOWN_SOURCES} more" if len(users) > SHOWN_SOURCES else "")
        findings.append(
            Finding(
                kind="missing-concept",
                severity="info",
                subject=candidate.written,
                finding=f"{candidate.written!r} is used in {len(users)} sources ({shown}) and marked as a "
                f"term in {len(candidate.marked_by)}, but no concept is named by it",
                file=sources[first].path,
                line=sources[first].first_line + line - 1,
                action=f"if the docs never say what {candidate.written!r} is, define it where it is introduced, "
                f"in a sentence such as \"{candidate.written} is …\" or a glossary entry, so that the compiler "
                f"makes it a concept; if a concept already means it under another name, write \"Name (also "
                f"called {candidate.written})\" once so that it becomes that concept's alias; if a sentence "
                "already defines it, the compiler missed that sentence and the docs need no change",
            )
        )
    return findings, max(0, len(ranked) - cap)
