"""Terms (R20): what may name a concept, and the glossary lists that define one.

Stop-lists and filters every concept name and alias passes, the plural/singular forms a mention of
the same thing may take, the evidence the request's texts give that a phrase is a term, and the
glossary patterns (definition lists, ``- **Term**: …``, ``Term — …``), which need no grammar.
Sentences are read by :mod:`wikigen.engines.offline.candidates` from their parse. A definition's quote is a
verbatim span of the sentence or passage it was read from (R22).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from wikigen.engines.offline.lexicon import (
    FUTURE_MODALS,
    LEADING_STOP_WORDS,
    NAMING_PHRASES,
    PROPERTY_ENDINGS,
    QUALIFIERS,
    STOP_TERMS,
    TRAILING_STOP_WORDS,
    USE_CASE_OPENERS,
    alternation,
)
from wikigen.engines.offline.text import sentences, visible
from wikigen.model.ids import normalize_name
from wikigen.model.inflection import other_numbers, singular_forms

_FLAG = re.compile(r"^-{1,2}\w")
_FORBIDDEN = re.compile(r"[{}<>=\"';:,()\[\]/\\|*`$~#@!?&]")
_IDENTIFIER = re.compile(
    r"^(?:[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+s?|[A-Z]{2,}[0-9]*s?|[a-z][a-z0-9]*(?:-[a-z0-9]+)+)$"
)
_HYPHENATED = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")


def is_acceptable_term(term: str, *, code: bool = False) -> bool:
    """Generic filters every concept name and alias passes (stop-list, flags, URLs, placeholders)."""
    words = term.split()
    if not 2 <= len(term) <= 60 or not words or len(words) > 5 or normalize_name(term) in STOP_TERMS:
        return False
    if re.fullmatch(r"[\d.,:%\-+ ]+", term) or _FLAG.match(term) or "://" in term or term.startswith("www."):
        return False
    if _FORBIDDEN.search(term) or term[0] in ".-_" or term[-1] in ".-_":
        return False
    if code and (" " in term or "." in term):
        return False  # command lines and dotted field paths are not concepts
    if words[0].casefold() in LEADING_STOP_WORDS or words[-1].casefold() in TRAILING_STOP_WORDS:
        return False
    if len(words) == 1 and not is_identifier_like(term) and term.casefold().endswith(PROPERTY_ENDINGS):
        return False  # "Portable:", "Namespaced:", "dynamically" are properties, not concepts
    return any(ch.isalpha() for ch in term)


def is_identifier_like(term: str) -> bool:
    """CamelCase, ALLCAPS or hyphenated lowercase: ``ReplicaSet``, ``CRI``, ``kube-proxy``."""
    return _IDENTIFIER.match(term) is not None


def head_variants(term: str) -> list[str]:
    """The term with its last word singular or plural: how a mention of the same thing may read."""
    words = term.split()
    if not words:
        return []
    return [" ".join([*words[:-1], form]) for form in other_numbers(words[-1])]


def unqualified_names(term: str, code: bool, marked: bool, hubs: AbstractSet[str], texts: Sequence[str]) -> list[str]:
    """ "Kubernetes objects", "Kubernetes volumes": the product the sources are about (``hubs``,
    casefolded), named before a common noun, says only whose objects they are — the noun alone names
    the term too (an alias, where no other concept or anchor owns it: R26). "Kubernetes API" and
    "Kubernetes RBAC" are names of their own, and so is a noun the texts never count ("Kubernetes
    architecture": "architecture" alone is any design), unless the author ``marked`` the phrase as a
    term. An initialism names a standard or a kind ("CSI ephemeral volumes" are some ephemeral
    volumes), and a word the texts also write in lower case before the noun ("the binding cycle") is
    no name at all."""
    head, _, rest = term.partition(" ")
    initialism = len(head) > 1 and head.isupper()
    if code or head.casefold() not in hubs or not rest or rest != rest.lower() or initialism:
        return []
    if not is_acceptable_term(rest) and not (marked and rest.isalpha()):
        # a common noun ("objects") is the term's other name only where the author marks the
        # product's phrase as a term ("*Kubernetes objects* are …")
        return []
    phrases = [re.compile(r"\b" + r"\s+".join(map(re.escape, f.split())) + r"\b", re.I) for f in head_variants(term)]
    written = [m.group(0) for p in phrases for text in texts for m in p.finditer(text)]
    if any(w[:1].islower() for w in written):
        return []
    # the texts write it in the plural somewhere ("Kubernetes clusters", across a line break too)
    return [rest] if singular_forms(rest.split()[-1]) or written else []


def canonical_name(term: str, code: bool, words: frozenset[str]) -> str:
    """The display name: a code form or identifier as written, else singular and capitalized."""
    if code or (is_identifier_like(term) and "-" in term):
        return term
    parts = term.split()
    singular = next((f for f in singular_forms(parts[-1]) if normalize_name(f) in words), None)
    if singular is not None and not (len(parts) == 1 and parts[0].isupper()):
        parts[-1] = singular
    name = " ".join(parts)
    if name[0].islower() and not re.search(r"[\d_.]", name):
        name = name[0].upper() + name[1:]
    return name


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What the request's texts say about words, normalized: the evidence that a phrase is a term.

    ``terms``: titles, headings, glossary tooltips and anchors; ``marked``: bold and italic runs;
    ``proper``: words written capitalized mid-sentence; ``words``: every word of the texts.
    """

    terms: frozenset[str] = frozenset()
    marked: frozenset[str] = frozenset()
    proper: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()

    def is_known(self, term: str, *, strong: bool = False) -> bool:
        forms = {normalize_name(term), *(normalize_name(v) for v in head_variants(term))}
        return bool(forms & self.terms) or (not strong and bool(forms & self.marked))

    def is_proper(self, term: str) -> bool:
        forms = {normalize_name(term), *(normalize_name(v) for v in head_variants(term))}
        return bool(forms & self.proper)


# ---------------------------------------------------------------------------------------------
# Definitions: a sentence that says what a term is.


@dataclass(frozen=True, slots=True)
class Definition:
    term: str  # as written in the visible text
    source: str
    start: int  # offset of the quote in its text
    quote: str  # verbatim
    pattern: str  # copula | called | glossary | list | lead | revoked
    aliases: tuple[str, ...] = ()
    code: bool = False
    whole: bool = False  # a naming sentence quoted with the one it refers back to: both are shown
    vouched: tuple[str, ...] = ()  # aliases a rule grants past the stop list ("objects" of "*Kubernetes objects*")
    form: str = ""  # the reading that chose the sentence (copula, function, called, emphasis, mention …)


_PAREN = re.compile(
    rf"^(?P<term>.+?)\s*\((?:(?:also )?(?:{alternation(NAMING_PHRASES | {'or'})})\s+)?(?P<inner>[^()]{{1,40}})\)$"
)
_DEF_LIST = re.compile(
    r"(?m)^(?P<term>[^\n:]{2,80})\n[ \t]*:[ \t]+(?P<definition>\S[^\n]*(?:\n(?![^\n:]{2,80}\n[ \t]*:)[^\n]+)*)"
)
_LIST_TERM = re.compile(
    r"^(?:\*\*(?P<bold>[^*\n]{2,60}?):?\*\*|`(?P<code>[^`\n]{2,60})`|_(?P<em>[^_\n]{2,60})_)"
    r"\s*(?:[:—–]|\s-)\s+\S"
)
_DASH_TERM = re.compile(r"^(?P<term>[A-Za-z][\w .-]{1,40}?)\s+[—–]\s+\S")


def list_definitions(source: str, passage_text: str, base: int, vocabulary: Vocabulary) -> list[Definition]:
    """Glossary patterns of one passage: ``Term`` / ``: definition`` lines, ``- **Term**: …``, ``Term — …``."""
    found: list[Definition] = []
    for match in _DEF_LIST.finditer(passage_text):
        term = visible(match.group("term")).text.strip()
        aliases: list[str] = []
        paren = _PAREN.match(term)
        if paren:
            term = paren.group("term").strip()
            if normalize_name(paren.group("inner")) not in QUALIFIERS:
                aliases.append(paren.group("inner").strip())
        code = match.group("term").strip().startswith("`")
        # "[etcd](/docs/…#etcd)" / ": Consistent … store": a term the author links to its own page
        linked = re.match(r"\[[^\]\n]+\]\([^)\n]+\)", match.group("term").strip()) is not None
        if (
            (
                _is_acceptable_listed_term(term, code, vocabulary)
                or (linked and is_acceptable_term(term, code=code))
            )
            and len(match.group("definition").split()) >= 3
            and not _is_circular(term, visible(match.group("definition")).text)
        ):
            quote = match.group(0).strip()
            found.append(
                Definition(term, source, base + match.start(), quote, "glossary", tuple(aliases), code)
            )
    if found:
        return found
    listed = _LIST_TERM.match(passage_text)
    dashed = _DASH_TERM.match(passage_text)
    if listed:
        term = (listed.group("bold") or listed.group("code") or listed.group("em") or "").strip()
        code = listed.group("code") is not None
    elif dashed:
        term, code = dashed.group("term").strip(), False
        if not (is_identifier_like(term) or vocabulary.is_proper(term) or vocabulary.is_known(term)):
            return found
    else:
        return found
    first = sentences(source, passage_text, base)
    rest = re.sub(r"^\W*" + re.escape(term) + r"\W*", "", first[0].clean.text) if first else ""
    if (
        first
        # "`rick-portal-gun`: will be the name of …": what the example at hand will do
        and normalize_name(rest.split()[0] if rest.split() else "if") not in USE_CASE_OPENERS | FUTURE_MODALS
        and _is_acceptable_listed_term(term, code, vocabulary)
        and len(first[0].clean.text.split()) >= len(term.split()) + 4
        and not _is_circular(term, rest)
    ):
        found.append(Definition(term, source, first[0].start, first[0].text, "list", (), code))
    return found


def _is_circular(term: str, gloss: str) -> bool:
    """ "DNS : For cluster-wide DNS resolution": a glossary or list gloss whose first sentence names its
    own term again explains it by itself (where the parse reads the entry, "`mode`: controls the
    "mode" …", :mod:`~wikigen.engines.offline.readings` finds the same)."""
    first = re.split(r"(?<=[.!?])\s", gloss.strip(), maxsplit=1)[0]
    return re.search(r"(?<![\w-])" + re.escape(term) + r"s?(?![\w-])", first, re.IGNORECASE) is not None


def _is_acceptable_listed_term(term: str, code: bool, vocabulary: Vocabulary) -> bool:
    """A list entry's term: code values (``Forbid``, ``spec``) only when the texts name them as terms."""
    if not is_acceptable_term(term, code=code):
        return False
    if code:
        return _HYPHENATED.match(term) is not None or vocabulary.is_known(term, strong=True)
    if len(term.split()) == 1:
        return (
            is_identifier_like(term) or vocabulary.is_known(term, strong=True) or vocabulary.is_proper(term)
        )
    return True
