"""Pure text helpers of the offline engine (R20): visible text, sentences, defined terms, relations.

Everything here works on one string at a time and returns verbatim spans of it, so that every
quote the engine builds from these helpers is a substring of the text it was given (R22).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from wikigen.ids import normalize_name

# ---------------------------------------------------------------------------------------------
# Visible text: what a reader sees of a Markdown/Hugo span, with the marked (bold, code, ...) runs.


@dataclass(frozen=True, slots=True)
class Mark:
    """A run of the visible text that the author marked: bold, italic, code, link or glossary tooltip."""

    start: int
    end: int
    kind: str
    ref: str = ""


@dataclass(frozen=True, slots=True)
class Visible:
    text: str
    marks: tuple[Mark, ...]


_ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')
_INLINE = re.compile(
    r"(?P<comment><!--.*?-->)"
    r"|(?P<shortcode>\{\{[<%]\s*/?\s*(?P<scname>[\w-]+)(?P<scargs>.*?)[>%]\}\})"
    r"|(?P<image>!\[[^\]]*\]\([^)]*\))"
    r"|(?P<link>\[(?P<label>[^\]\n]+)\](?:\((?P<url>[^)\s]*)(?:\s+\"[^\"]*\")?\)|\[[^\]]*\]))"
    r"|(?P<auto><(?P<autourl>(?:https?|ftp|mailto):[^>\s]+)>)"
    r"|(?P<code>(?P<ticks>`+)(?P<ctext>.+?)(?P=ticks))"
    r"|(?P<strong>(?P<sd>\*\*|__)(?P<stext>[^\s*_](?:.*?[^\s*_])?)(?P=sd))"
    r"|(?P<em>(?<![\w*\\])(?P<ed>[*_])(?P<etext>[^\s*_](?:[^*_\n]*?[^\s*_\\])?)(?P=ed)(?![\w*]))"
    r"|(?P<html></?[a-zA-Z][\w-]*(?:\s[^<>]*)?/?>)",
    re.DOTALL,
)
# Container markers at the start of continuation lines ("> " in a quote, ": " in a definition list).
_LINE_MARKERS = re.compile(r"\n[ \t]*(?:>[ \t]?)*(?::[ \t]+)?")
_SPACES = re.compile(r"\s+")


def visible(raw: str) -> Visible:
    """The text a reader sees of ``raw`` (one line, whitespace collapsed) and its marked runs."""
    pieces: list[str] = []
    marks: list[Mark] = []
    length = 0

    def add(text: str) -> None:
        nonlocal length
        text = _SPACES.sub(" ", text)
        if text.startswith(" ") and (length == 0 or pieces[-1].endswith(" ")):
            text = text[1:]
        pieces.append(text)
        length += len(text)

    def add_marked(inner: Visible, kind: str, ref: str = "") -> None:
        start = length
        add(inner.text)
        offset = length - len(inner.text)
        marks.extend(Mark(m.start + offset, m.end + offset, m.kind, m.ref) for m in inner.marks)
        marks.append(Mark(start, length, kind, ref))

    text = _LINE_MARKERS.sub("\n", raw)
    position = 0
    for match in _INLINE.finditer(text):
        add(text[position : match.start()])
        position = match.end()
        kind = match.lastgroup
        if match.group("shortcode"):
            name = match.group("scname")
            attributes = dict(_ATTRIBUTE.findall(match.group("scargs")))
            if name == "glossary_tooltip":
                term = attributes.get("term_id", "")
                shown = attributes.get("text") or term.replace("-", " ")
                add_marked(Visible(shown, ()), "tooltip", term)
            elif name == "glossary_definition" and attributes.get("prepend"):
                add(attributes["prepend"])
            else:
                add(" ")
        elif match.group("link"):
            add_marked(visible(match.group("label")), "link", match.group("url") or "")
        elif match.group("auto"):
            add_marked(Visible(match.group("autourl"), ()), "url")
        elif match.group("code"):
            add_marked(Visible(match.group("ctext").strip(), ()), "code")
        elif match.group("strong"):
            add_marked(visible(match.group("stext")), "bold")
        elif match.group("em"):
            add_marked(visible(match.group("etext")), "italic")
        elif kind in ("comment", "image", "html"):
            add(" ")
    add(text[position:])
    joined = "".join(pieces)
    stripped = joined.rstrip()
    return Visible(stripped, tuple(m for m in marks if m.end <= len(stripped) and m.end > m.start))


def display(raw: str) -> str:
    """Claim text: the verbatim Markdown with Hugo shortcodes rendered and HTML comments dropped."""

    def render(match: re.Match[str]) -> str:
        if match.group("comment"):
            return ""
        if match.group("scname") == "glossary_tooltip":
            attributes: dict[str, str] = dict(_ATTRIBUTE.findall(match.group("scargs")))
            return attributes.get("text") or attributes.get("term_id", "").replace("-", " ")
        return ""

    shortcodes = re.compile(
        r"(?P<comment><!--.*?-->)|\{\{[<%]\s*/?\s*(?P<scname>[\w-]+)(?P<scargs>.*?)[>%]\}\}", re.DOTALL
    )
    rendered = re.sub(r"[ \t]+\n", "\n", shortcodes.sub(render, raw)).strip()
    return re.sub(r"\n{3,}", "\n\n", rendered) or raw.strip()


# ---------------------------------------------------------------------------------------------
# Sentences: verbatim spans of a passage.


@dataclass(frozen=True, slots=True)
class Sentence:
    """``text`` is verbatim at ``start`` of the body or fragment it was cut from."""

    source: str
    start: int
    text: str
    clean: Visible
    heading: str


_END = re.compile(r"[.!?][\"')\]*_]*(?=\s)")
_PROTECTED = re.compile(r"`[^`\n]*`|\{\{.*?\}\}|\]\([^)]*\)|<[^<>\n]+>", re.DOTALL)
_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "vs", "cf", "approx", "mr", "mrs", "dr", "st", "no", "fig", "al", "incl"}
)
_LIST_LINE = re.compile(r"\n(?=[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t])")
_LEAD = re.compile(r"(?:[ \t]*(?:>|[-*+]|\d{1,9}[.)])[ \t]+|\s+)+")


def sentences(source: str, text: str, base: int = 0, heading: str = "") -> list[Sentence]:
    """Split ``text`` (one passage) into sentences; ``base`` is the passage's offset in its body."""
    if text.lstrip().startswith("|"):
        return []  # tables hold cells, not sentences
    protected = [(m.start(), m.end()) for m in _PROTECTED.finditer(text)]
    cuts = [0]
    for match in _END.finditer(text):
        at = match.end()
        if any(start < at <= end for start, end in protected):
            continue
        word = re.search(r"([\w.]+)[.!?]?$", text[max(0, match.start() - 12) : match.start() + 1])
        before = (word.group(1) if word else "").rstrip(".").casefold()
        if text[match.start()] == "." and (before in _ABBREVIATIONS or len(before) == 1):
            continue
        rest = text[at:].lstrip()
        if rest and (rest[0].isupper() or rest[0].isdigit() or rest[0] in "\"'([`*_{>-:"):
            cuts.append(at)
    cuts.extend(m.start() for m in _LIST_LINE.finditer(text))
    cuts = [*sorted(set(cuts)), len(text)]
    found: list[Sentence] = []
    for start, end in itertools.pairwise(cuts):
        lead = _LEAD.match(text, start)
        if lead is not None:
            start = lead.end()
        while end > start and text[end - 1].isspace():
            end -= 1
        piece = text[start:end]
        if len(piece) >= 12 and re.search(r"[A-Za-z]{2}", piece):
            found.append(Sentence(source, base + start, piece, visible(piece), heading))
    return found


# ---------------------------------------------------------------------------------------------
# Terms: what may name a concept.


def _words(text: str) -> frozenset[str]:
    return frozenset(normalize_name(word) for word in text.split("|"))


STOP_TERMS = _words(
    "what's next|whats next|before you begin|examples|example|see also|overview|introduction|summary|"
    "background|notes|note|prerequisites|cleaning up|further reading|objectives|caution|warning|tip|"
    "important|motivation|limitations|limitation|caveats|caveat|troubleshooting|references|reference|"
    "details|usage|installation|getting started|next steps|how it works|use cases|use case|faq|glossary|"
    "terminology|recommendation|recommendations|discussion|all|also|do not|this|it|that|these|those|"
    "there|here|they|we|you|one|each|every|some|any|the following|following|other|others|default|"
    "defaults|none|true|false|yes|no|enabled|disabled|name|names|value|values|type|types|field|fields|"
    "key|keys|data|information|result|results|output|input|support|feature|features|way|ways|thing|"
    "things|case|cases|part|step|steps|list|set|number|option|options|idea|goal|purpose|problem|"
    "solution|answer|question|reason|difference|advantage|disadvantage|benefit|benefits|approach|"
    "process|method|user|users|people|team|something|anything|everything|nothing|status|state|version|"
    "alpha|beta|stable|deprecated|optional|required|what|how|why|when|where|which|who|the|a|an|more|"
    "less|most|same|first|last|next|previous|new|old|good|bad|better|best|best practices|humans|push|"
    "pull|done|todo|command|commands|tool|tools|file|files|page|pages|section|sections|text|content|"
    "document|documentation|change|changes|issue|issues|error|errors|item|items|entry|entries|object|"
    "objects|resource|resources|system|systems|application|applications|component|components|api|apis|"
    "configuration|extension|extensions|solution|solutions|mechanism|implementation|spec|metadata|"
    "specification|condition|conditions|policy|policies|rule|rules|setting|settings|level|levels"
)
_LEADING_STOP = _words(
    "this|that|these|those|it|its|your|our|their|my|his|her|some|any|all|each|every|both|such|other|"
    "another|many|most|more|few|no|only|same|following|new|which|what|when|where|how|why|if|one|two|"
    "three|there|here|we|you|they|i|he|she|in|on|at|for|to|of|by|with|from|as|and|or|but|not|since|"
    "because|although|while|unless|once|after|before|so|then|thus|also|however|therefore|note|now|"
    "most|several|certain|various|using|creating|running|configuring|managing|setting|adding|enabling|"
    "disabling|deleting|writing|reading|getting|making|choosing|specifying|defining|deploying|updating|"
    "working|understanding|learning|installing"
)
_TRAILING_STOP = _words("of|to|and|or|with|for|in|on|at|by|from|the|a|an|as|is|are|be")
_ADJECTIVE_ENDINGS = ("able", "ible", "ful", "ous", "ive", "less", "ly", "ed")
_FLAG = re.compile(r"^-{1,2}\w")
_FORBIDDEN = re.compile(r"[{}<>=\"';:,()\[\]/\\|*`$~#@!?&]")
_IDENTIFIER = re.compile(
    r"^(?:[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+s?|[A-Z]{2,}[0-9]*s?|[a-z][a-z0-9]*(?:-[a-z0-9]+)+)$"
)
_HYPHENATED = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")
_TITLE_WORD = re.compile(r"^[A-Z0-9][\w-]*$")


def term_ok(term: str, *, code: bool = False) -> bool:
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
    if words[0].casefold() in _LEADING_STOP or words[-1].casefold() in _TRAILING_STOP:
        return False
    if len(words) == 1 and not identifier_like(term) and term.casefold().endswith(_ADJECTIVE_ENDINGS):
        return False  # "Portable:", "Namespaced:", "dynamically" are properties, not concepts
    return any(ch.isalpha() for ch in term)


def identifier_like(term: str) -> bool:
    """CamelCase, ALLCAPS or hyphenated lowercase: ``ReplicaSet``, ``CRI``, ``kube-proxy``."""
    return _IDENTIFIER.match(term) is not None


_PLURAL_KEEP = _words(
    "kubernetes|status|class|access|process|address|ingress|egress|dns|tls|https|metrics|series|species|"
    "analysis|basis|bus|alias|os|us|is|has|was|this|its|less|news|always|versus|plus|various|previous"
)


def singular_forms(word: str) -> list[str]:
    """Candidate singulars of a plural word, most likely first (empty when it does not look plural)."""
    low = word.casefold()
    if (
        low in _PLURAL_KEEP
        or low.endswith(("ss", "us", "is", "ous"))
        or not low.endswith("s")
        or len(low) < 4
    ):
        return []
    forms = []
    if low.endswith("ies"):
        forms.append(word[:-3] + "y")
    if low.endswith(("ches", "shes", "xes", "zes", "sses")):
        forms.append(word[:-2])
    forms.append(word[:-1])
    return forms


def plural_forms(word: str) -> list[str]:
    low = word.casefold()
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return [word + "es"]
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return [word[:-1] + "ies"]
    return [word + "s"]


def head_variants(term: str) -> list[str]:
    """The term with its last word singular or plural: how a mention of the same thing may read."""
    words = term.split()
    if not words:
        return []
    if words[-1].casefold() in _PLURAL_KEEP:
        return []
    changed = singular_forms(words[-1]) or plural_forms(words[-1])
    return [" ".join([*words[:-1], form]) for form in changed]


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

    def knows(self, term: str, *, strong: bool = False) -> bool:
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


_PREFIX = re.compile(r"^(?:(?:In|Within|For|On) [^,]{1,40},\s+)?(?:(?:[Aa]n?|[Tt]he|Each|Every)\s+)?")
_COPULA = re.compile(r"\s(?:is|are|(?:may|can) be|refers to|means|represents)\s")
# What a thing does, said of the page's own subject: "Dynamic volume provisioning allows …".
_FUNCTION = re.compile(
    r"\s(?P<verb>enables?|allows?|lets|provides?|defines?|describes?|ensures?|maintains?|tracks|manages|"
    r"watches|controls|stores|holds|handles|implements|runs|contains|selects|determines|specifies)\s"
)
_POSSESSIVE = re.compile(r"^(?P<term>.+?)['’]s (?:main |primary )?(?:purpose|job|role|goal|function)$")
_PAREN = re.compile(
    r"^(?P<term>.+?)\s*\((?:(?:also )?(?:called|known as|referred to as|or)\s+)?(?P<inner>[^()]{1,40})\)$"
)
_ALSO = re.compile(
    r"^(?P<term>.+?),\s*(?:also|sometimes|often)\s+(?:called|known as|referred to as)\s+(?P<aka>[^,]{1,40}),?$"
)
_ADVERBS = re.compile(
    r"^(?:(?:essentially|simply|basically|typically|usually|generally|primarily|mainly)\s+)+", re.I
)
_DEFINING = re.compile(
    r"^(?:a|an|the|one|any|used|responsible|designed|intended|meant|made up|defined as|short for|"
    r"how|what|where)\b",
    re.IGNORECASE,
)
_NOT_DEFINING = re.compile(
    r"^(?:the (?:default|same|only|case|recommended|preferred|most|first|last|next|one|result|reason|"
    r"problem|easiest|simplest|best)|a (?:good|bad|great|common|better|way to)|one of the (?:most|best)|"
    r"(?:not|no|also|now|still|only|available|deprecated|enabled|disabled|set|true|false|required|"
    r"optional|supported|immutable|removed|ignored|recommended|useful|important|different|stable|ready|"
    r"omitted|empty|done|possible|able|likely|being|currently|in|on|at|for|with|to|from|by|there|here|"
    r"then|so|too|more|less|very|always|never|often|sometimes|unavailable|allowed|just|already|"
    r"unable|free|similar|specific|unique|valid|invalid|limited|based|built|run|shown|listed|described|"
    r"covered|explained|discussed))\b",
    re.IGNORECASE,
)
_CALLED = re.compile(r"\b(?:is|are) (?:called|known as|referred to as|termed) (?:an? |the )?$")
_DEF_LIST = re.compile(
    r"(?m)^(?P<term>[^\n:]{2,80})\n[ \t]*:[ \t]+(?P<definition>\S[^\n]*(?:\n(?![^\n:]{2,80}\n[ \t]*:)[^\n]+)*)"
)
_LIST_TERM = re.compile(
    r"^(?:\*\*(?P<bold>[^*\n]{2,60}?):?\*\*|`(?P<code>[^`\n]{2,60})`|_(?P<em>[^_\n]{2,60})_)"
    r"\s*(?:[:—–]|\s-)\s+\S"
)
_DASH_TERM = re.compile(r"^(?P<term>[A-Za-z][\w .-]{1,40}?)\s+[—–]\s+\S")
_QUALIFIERS = _words("optional|deprecated|alpha|beta|stable|ga|required|recommended|default")


def definitions(
    sentence: Sentence, vocabulary: Vocabulary, topics: frozenset[str] = frozenset()
) -> list[Definition]:
    """Defined terms of one sentence: "X is a …", "… is called **X**" (R20).

    ``topics`` are the normalized title and heading terms of the sentence's own source: a sentence
    saying what one of them does ("X allows …") defines it too.
    """
    clean = sentence.clean
    found: list[Definition] = []
    if re.search(r"\n[ \t]*:[ \t]", sentence.text):
        return found  # a definition list entry: list_definitions reads it
    prefix = _PREFIX.match(clean.text)
    copula = _COPULA.search(clean.text, prefix.end() if prefix else 0)
    function = _FUNCTION.search(clean.text, prefix.end() if prefix else 0)
    if prefix is not None and function is not None and (copula is None or function.start() < copula.start()):
        head = clean.text[prefix.end() : function.start()].strip()
        glossary = function.group("verb") in ("lets", "allows", "enables") and vocabulary.knows(
            head, strong=True
        )
        if head and (_is_topic(head, topics) or glossary) and _acceptable(head, None, vocabulary):
            found.append(_definition(sentence, head, "copula", [], False))
        copula = None
    if prefix is not None and copula is not None:
        head = clean.text[prefix.end() : copula.start()].strip()
        aliases: list[str] = []
        possessive = _POSSESSIVE.match(head)
        if possessive:
            head = possessive.group("term")
        elif not _defining_rest(copula.group().strip(), clean.text[copula.end() :].strip()):
            head = ""
        also = _ALSO.match(head)
        if also:
            head = also.group("term")
            aliases.append(also.group("aka").strip())
        paren = _PAREN.match(head)
        if paren:
            head = paren.group("term").strip()
            if normalize_name(paren.group("inner")) not in _QUALIFIERS:
                aliases.append(paren.group("inner").strip())
        start = prefix.end() + clean.text[prefix.end() :].find(head)
        marked = _marked(clean, start, start + len(head)) if head else None
        if head and _acceptable(head, marked, vocabulary):
            found.append(_definition(sentence, head, "copula", aliases, marked == "code"))
    for mark in clean.marks:
        if mark.kind not in ("bold", "italic", "code") or not _CALLED.search(clean.text[: mark.start]):
            continue
        term = clean.text[mark.start : mark.end]
        after = clean.text[mark.end : mark.end + 2]
        if (not after or after[0] in ".,;:" or after == " (") and _acceptable(term, mark.kind, vocabulary):
            found.append(_definition(sentence, term, "called", [], mark.kind == "code"))
    return found


def list_definitions(source: str, passage_text: str, base: int, vocabulary: Vocabulary) -> list[Definition]:
    """Glossary patterns of one passage: ``Term`` / ``: definition`` lines, ``- **Term**: …``, ``Term — …``."""
    found: list[Definition] = []
    for match in _DEF_LIST.finditer(passage_text):
        term = visible(match.group("term")).text.strip()
        aliases: list[str] = []
        paren = _PAREN.match(term)
        if paren:
            term = paren.group("term").strip()
            if normalize_name(paren.group("inner")) not in _QUALIFIERS:
                aliases.append(paren.group("inner").strip())
        code = match.group("term").strip().startswith("`")
        if _listed_ok(term, code, vocabulary) and len(match.group("definition").split()) >= 3:
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
        if not (identifier_like(term) or vocabulary.is_proper(term) or vocabulary.knows(term)):
            return found
    else:
        return found
    first = sentences(source, passage_text, base)
    rest = re.sub(r"^\W*" + re.escape(term) + r"\W*", "", first[0].clean.text) if first else ""
    if (
        first
        and normalize_name(rest.split()[0] if rest.split() else "if") not in _NOT_A_DEFINITION
        and _listed_ok(term, code, vocabulary)
        and len(first[0].clean.text.split()) >= len(term.split()) + 4
    ):
        found.append(Definition(term, source, first[0].start, first[0].text, "list", (), code))
    return found


# "- **Dedicated Nodes**: If you want …" is a use case, not a definition.
_NOT_A_DEFINITION = _words(
    "if|when|in|for|you|to|this|it|there|because|although|while|as|with|on|by|use|see|note|we|your|"
    "set|add|create|run|make|do|don't|avoid|consider|check"
)


def _listed_ok(term: str, code: bool, vocabulary: Vocabulary) -> bool:
    """A list entry's term: code values (``Forbid``, ``spec``) only when the texts name them as terms."""
    if not term_ok(term, code=code):
        return False
    if code:
        return _HYPHENATED.match(term) is not None or vocabulary.knows(term, strong=True)
    if len(term.split()) == 1:
        return identifier_like(term) or vocabulary.knows(term, strong=True) or vocabulary.is_proper(term)
    return True


def _definition(sentence: Sentence, term: str, pattern: str, aliases: list[str], code: bool) -> Definition:
    kept = tuple(
        a for a in aliases if (term_ok(a) or identifier_like(a)) and normalize_name(a) != normalize_name(term)
    )
    return Definition(term, sentence.source, sentence.start, sentence.text, pattern, kept, code)


def _defining_rest(verb: str, rest: str) -> bool:
    if verb in ("may be", "can be"):  # "A node may be a virtual or physical machine"
        return re.match(r"(?:a|an|any)\s", rest) is not None and _NOT_DEFINING.match(rest) is None
    if verb not in ("is", "are"):
        return True
    rest = _ADVERBS.sub("", rest)
    if len(rest.split()) < 2 or _NOT_DEFINING.match(rest):
        return False
    if _DEFINING.match(rest):
        return True
    if verb != "are":
        return False
    first = rest.split()[0].casefold()
    if first in ("namespaced", "named"):
        return True
    return (
        not first.endswith(("ly", "ing", "ed", *_ADJECTIVE_ENDINGS))
        and re.fullmatch(r"[a-z][a-z/-]*", first) is not None
    )


def _is_topic(term: str, topics: frozenset[str]) -> bool:
    forms = {normalize_name(term), *(normalize_name(v) for v in head_variants(term))}
    return bool(forms & topics) or any(form.endswith(" " + topic) for form in forms for topic in topics)


def _marked(clean: Visible, start: int, end: int) -> str | None:
    for mark in clean.marks:
        if (
            mark.start == start
            and mark.end == end
            and mark.kind in ("bold", "italic", "code", "tooltip", "link")
        ):
            return mark.kind
    return None


def _acceptable(term: str, marked: str | None, vocabulary: Vocabulary) -> bool:
    """R20: precision first. A plain phrase must look like a name or be marked as a term elsewhere."""
    code = marked == "code"
    if not term_ok(term, code=code):
        return False
    if code:  # `kube-proxy`, `ReplicaSet`; not field names (`volumeHandle`) or values (`ready`)
        return (
            _HYPHENATED.match(term) is not None
            or (identifier_like(term) and term[0].isupper())
            or vocabulary.knows(term, strong=True)
        )
    if marked is not None or identifier_like(term) or vocabulary.knows(term):
        return True
    words = term.split()
    if all(_TITLE_WORD.match(word) for word in words):
        return len(words) > 1 or vocabulary.is_proper(term)
    # "Kubernetes API server": named modifiers in front of a known term.
    return any(
        all(_TITLE_WORD.match(word) for word in words[:cut]) and vocabulary.knows(" ".join(words[cut:]))
        for cut in range(1, len(words))
    )


# ---------------------------------------------------------------------------------------------
# Mentions and relations.


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
    def build(cls, names: Iterable[tuple[str, Sequence[str]]]) -> Mentions:
        """``names``: (ref, surface forms); a form claimed by two refs matches neither."""
        owners: dict[str, set[str]] = {}
        for ref, forms in names:
            for form in forms:
                for variant in (form, *head_variants(form)):
                    if term_ok(variant) or identifier_like(variant):
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


# Canonical predicate → its finite active forms (3rd person and base); passive participles below.
PREDICATES: dict[str, str] = {
    "is part of": r"(?:is|are) (?:a |an )?(?:part|component|member) of",
    "belongs to": r"belongs? to",
    "depends on": r"depends? on|relies on|rely on",
    "runs on": r"runs? on",
    "consists of": r"consists? of|is made up of|are made up of",
    "communicates with": r"communicates? with|talks? to",
    "connects to": r"connects? to",
    "registers with": r"registers? (?:itself )?with",
    "reads": r"reads?(?: from)?",
    "writes": r"writes?(?: to| into)?",
    "uses": r"uses?",
    "contains": r"contains?|includes?",
    "manages": r"manages?",
    "creates": r"creates?",
    "schedules": r"schedules?",
    "exposes": r"exposes?",
    "stores": r"stores?",
    "controls": r"controls?",
    "replaces": r"replaces?",
    "extends": r"extends?",
    "calls": r"calls?",
    "selects": r"selects?",
    "mounts": r"mounts?",
    "watches": r"watch(?:es)?",
    "runs": r"runs?",
    "deletes": r"deletes?",
    "evicts": r"evicts?",
    "implements": r"implements?",
    "provides": r"provides?",
    "references": r"references?",
    "requires": r"requires?",
    "owns": r"owns?",
    "monitors": r"monitors?",
    "restarts": r"restarts?",
    "starts": r"starts?|launch(?:es)?",
    "assigns": r"assigns?",
    "allocates": r"allocates?",
    "routes": r"routes?",
    "configures": r"configures?",
    "defines": r"defines?",
    "consumes": r"consumes?",
    "enforces": r"enforces?",
    "invokes": r"invokes?",
    "tracks": r"tracks?",
    "updates": r"updates?",
    "supports": r"supports?",
    "preempts": r"preempts?",
    "serves": r"serves?",
    "hosts": r"hosts?",
    "holds": r"holds?",
    "attaches": r"attach(?:es)?(?: to)?",
    "binds": r"binds?(?: to)?",
    "groups": r"groups?",
    "handles": r"handles?",
    "isolates": r"isolates?",
    "protects": r"protects?",
    "limits": r"limits?",
    "targets": r"targets?",
    "terminates": r"terminates?|kills?",
    "removes": r"removes?",
    "adds": r"adds?",
    "sends": r"sends?(?: to)?",
    "triggers": r"triggers?",
    "generates": r"generates?",
    "populates": r"populates?",
    "queries": r"quer(?:ies|y)",
    "accesses": r"access(?:es)?",
    "validates": r"validates?",
    "rejects": r"rejects?",
    "encrypts": r"encrypts?",
    "specifies": r"specif(?:ies|y)",
    "receives": r"receives?",
    "forwards": r"forwards?(?: to)?",
}
_PASSIVE: dict[str, str] = {
    "uses": "used", "manages": "managed", "creates": "created", "controls": "controlled",
    "replaces": "replaced", "extends": "extended", "owns": "owned", "selects": "selected",
    "mounts": "mounted", "watches": "watched", "exposes": "exposed", "stores": "stored",
    "schedules": "scheduled", "reads": "read", "writes": "written", "deletes": "deleted",
    "evicts": "evicted", "implements": "implemented", "provides": "provided", "references": "referenced",
    "requires": "required", "monitors": "monitored", "restarts": "restarted", "starts": "started|launched",
    "allocates": "allocated", "assigns": "assigned", "configures": "configured", "defines": "defined",
    "consumes": "consumed", "enforces": "enforced", "invokes": "invoked", "tracks": "tracked",
    "runs": "run", "updates": "updated", "supports": "supported", "preempts": "preempted",
    "serves": "served", "hosts": "hosted", "holds": "held", "binds": "bound", "groups": "grouped",
    "handles": "handled", "isolates": "isolated", "protects": "protected", "limits": "limited",
    "targets": "targeted", "terminates": "terminated|killed", "removes": "removed", "adds": "added",
    "triggers": "triggered", "generates": "generated", "populates": "populated", "queries": "queried",
    "accesses": "accessed", "validates": "validated", "rejects": "rejected", "encrypts": "encrypted",
    "specifies": "specified", "receives": "received",
}  # fmt: skip
_MODALS = r"can|will|must|does|do|always|also|then|only|automatically|directly|periodically|continuously|now"
_SUBJECT_GAP = (
    r"(?:\s*\([^()]{1,40}\))?"
    r"(?P<relative>\s*,\s*(?:which|who)|\s*:|\s+(?:which|that|who)"
    r"|\s+(?:is|are)\s+(?:a|an|the)\s+(?:[\w-]+\s+){1,3}(?:that|which)"
    r"|\s+(?:lets?|allows?|enables?|helps?)\s+(?:you|users)(?:\s+to)?)?"
    r"(?P<modal>(?:\s+(?:itself|themselves|still|usually|typically|generally|often|actually|first|in turn|both|"
    + _MODALS
    + r"|[a-z]+ly))*)\s+"
)
_OBJECT_GAP = (
    r"(?:\s+(?:a|an|the|each|every|all|any|some|its|their|one or more|multiple|many|several|other|"
    r"another|new|existing|specific|individual|given|matching|corresponding|relevant|appropriate|"
    r"(?:a|the) (?:set|group|list|number|pool|collection|copy|replica) of|instances of|copies of|replicas of|one|only|two|this|these|those|same|"
    r"(?:at least|at most|exactly|more than) one))*"
    r"(?:\s+(?P<free>[a-z][\w-]*))?\s+$"
)
_BE = r"(?:is|are|was|were|be|been|being|gets|get|can be|will be|must be|has been|have been)\s+(?:\w+ly\s+)?"
_ACTIVE = re.compile(
    "^"
    + _SUBJECT_GAP
    + "(?P<verb>"
    + "|".join(f"(?P<p{i}>{forms})" for i, forms in enumerate(PREDICATES.values()))
    + r")\b(?:\s+and\s+(?P<second>"
    + "|".join(f"(?P<q{i}>{forms})" for i, forms in enumerate(PREDICATES.values()))
    + r")\b)?"
    + _OBJECT_GAP,
    re.IGNORECASE,
)
_PASSIVE_FORMS = re.compile(
    r"^(?:\s*,)?\s+(?:which\s+|that\s+)?(?:"
    + _BE
    + ")?(?P<verb>"
    + "|".join(f"(?P<p{i}>{forms})" for i, forms in enumerate(_PASSIVE.values()))
    + r")\s+by\b"
    + _OBJECT_GAP,
    re.IGNORECASE,
)
_IS_A = re.compile(
    r"^\s+(?:is|are)\s+(?:a|an)\s+(?:(?:kind|type|form|special kind|specialized kind) of\s+)?(?P<free>[A-Za-z][\w-]*\s+)?$"
)
_OBJECT_NEXT = re.compile(
    r"^(?:$|[.,;:!?)\]\"]|\(s\)|\s+(?:and|or|but|that|which|who|whose|to|in|on|at|for|with|by|from|as|if|when|"
    r"called|named|"
    r"while|so|is|are|was|were|can|will|must|within|into|onto|using|via|through|across|per|where|after|"
    r"before|until|running|instead|without|automatically|directly|based|\()(?:\b|\s|$))",
    re.IGNORECASE,
)
_ATTACHED = re.compile(
    r"^\s+(?:in|on|of|within|inside|at)\s+(?:(?:a|an|the|that|this|each|every|its|their)\s+)?$", re.IGNORECASE
)
_STORED = re.compile(
    r"^\s+(?:objects?\s+)?(?:is|are|gets|get)\s+(?:\w+ly\s+)?(?P<verb>stored|kept|persisted|contained|included)"
    r"(?:\s+(?P<free>[a-z][\w-]*))?\s+(?:in|inside|within)\s+(?:(?:a|an|the)\s+)?$",
    re.IGNORECASE,
)
_PREPOSITIONS = _words(
    "of|in|on|at|with|for|from|to|by|into|onto|inside|within|across|per|than|via|between|under|over|"
    "about|through|like|without|using"
)
_DETERMINERS = _words("a|an|the|each|every|all|its|their|any|some|this|that|these|those|your|our")
_CONDITIONAL = re.compile(r"\b(?:if|unless|whether|suppose|assuming|although|though)\b", re.IGNORECASE)
_BLOCKERS = _words("not|never|no|cannot|can't|don't|doesn't|won't|may|might|could|should|would")


@dataclass(frozen=True, slots=True)
class Found:
    subject: str
    predicate: str
    object: str


def relations(clean: str, mentions: Sequence[Mention]) -> list[Found]:
    """Relations one sentence states (R20, R23): subject, an explicit predicate, object, in that order.

    Only neighbouring mentions pair up, so the subject is the concept nearest before the verb and the
    object the nearest after it; a negation or a modal of possibility between them drops the pair.
    """
    if clean.rstrip().endswith("?"):
        return []
    found: list[Found] = []
    for index, (first, second) in enumerate(itertools.pairwise(mentions)):
        between = clean[first.end : second.start]
        also = _coordinated(clean, mentions, index + 1)
        if first.ref == second.ref or not _object_ends(clean, second):
            continue
        if between.startswith(("'", "’")) or set(normalize_name(between).split()) & _BLOCKERS:
            continue
        subject, at = first, index
        subject_ok = _subject_position_ok(clean, first.start)
        if not subject_ok and index > 0 and _ATTACHED.match(clean[mentions[index - 1].end : first.start]):
            # "the kubelet on that node creates …": the subject is the mention the phrase belongs to
            subject, at = mentions[index - 1], index - 1
            subject_ok = subject.ref != first.ref and _subject_position_ok(clean, subject.start)
        active = _ACTIVE.match(between)
        if active and not _relative_ok(active, clean, first.start):
            active = None
        if active and subject_ok and _verb_agrees(active, clean[subject.start : subject.end]):
            if not _free_blocks(active.group("free")) and not _generic(active, clean, second):
                verbs = [_predicate(active, tuple(PREDICATES))]
                if active.group("second"):  # "Deployments own and manage their ReplicaSets"
                    verbs.append(_predicate(active, tuple(PREDICATES), "q"))
                subjects = [subject.ref, *_coordinated_before(clean, mentions, at)]
                found.extend(Found(s, v, o) for s in subjects for v in verbs for o in [second.ref, *also])
            continue
        stored = _STORED.match(between)
        if stored and subject_ok and not _generic(stored, clean, second):
            # "Secret objects are stored unencrypted in etcd": etcd stores Secrets
            verb = "contains" if stored.group("verb") in ("contained", "included") else "stores"
            found.extend(Found(holder, verb, first.ref) for holder in [second.ref, *also])
            continue
        passive = _PASSIVE_FORMS.match(between)
        if (
            passive
            and not _free_blocks(passive.group("free"))
            and not _generic(passive, clean, second)
            and subject_ok
        ):
            verb = _predicate(passive, tuple(_PASSIVE))
            found.extend(Found(agent, verb, first.ref) for agent in [second.ref, *also])
            continue
        is_a = _IS_A.match(between)
        if is_a and subject_ok and (not is_a.group("free") or _adjective(is_a.group("free").strip())):
            # "is an ingress controller" is not "is a Controller": only adjectives may come between
            found.append(Found(first.ref, "is a", second.ref))
    return sorted(
        {f for f in found if f.subject != f.object}, key=lambda f: (f.subject, f.predicate, f.object)
    )


_AND = re.compile(
    r"^\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(?:(?:a|an|the|its|their|all|other)\s+)?$", re.IGNORECASE
)


def _coordinated(clean: str, mentions: Sequence[Mention], index: int) -> list[str]:
    """Objects listed after the object at ``index``: "provides labels and annotations"."""
    refs: list[str] = []
    listed: list[str] = []
    for previous, mention in zip(mentions[index:], mentions[index + 1 :], strict=False):
        joint = _AND.match(clean[previous.end : mention.start])
        if joint is None or not _object_ends(clean, mention):
            break
        listed.append(mention.ref)
        if re.search(r"\b(?:and|or)\b", joint.group(), re.IGNORECASE):
            refs = list(listed)  # "a label, node.kubernetes.io/…" is an apposition, not a list
            break
    return refs


def _coordinated_before(clean: str, mentions: Sequence[Mention], index: int) -> list[str]:
    """Subjects listed before the subject at ``index``: "the node controller or the kubelet adds …"."""
    refs: list[str] = []
    while index > 0:
        previous, mention = mentions[index - 1], mentions[index]
        joint = _AND.match(clean[previous.end : mention.start])
        if joint is None or not re.search(r"\b(?:and|or)\b", joint.group(), re.IGNORECASE):
            break
        if not _subject_position_ok(clean, previous.start):
            break
        refs.append(previous.ref)
        break  # one coordinated subject: longer lists are rarely all agents
    return refs


def _object_ends(clean: str, mention: Mention) -> bool:
    """The object mention ends its noun phrase ("Pods that …"), unless only "objects" follows a kind
    ("EndpointSlice objects"); "the Pod's IP" or "Secret volume" name something else."""
    after = clean[mention.end :]
    if _OBJECT_NEXT.match(after):
        return True
    kind = re.match(r"\s+(?:objects?|resources?)\b", after)
    surface = clean[mention.start : mention.end]
    return (
        kind is not None
        and (identifier_like(surface) or (surface[:1].isupper() and normalize_name(surface) != "kubernetes"))
        and bool(_OBJECT_NEXT.match(after[kind.end() :]))
    )


def _predicate(match: re.Match[str], names: tuple[str, ...], group: str = "p") -> str:
    for index, name in enumerate(names):
        if match.group(f"{group}{index}"):
            return name
    raise AssertionError("a predicate group matched")


def _verb_agrees(match: re.Match[str], subject: str) -> bool:
    """A bare "use"/"control" is a verb only after a plural subject or a modal ("the control plane")."""
    verb = match.group("verb").casefold()
    if (match.group("relative") or "").strip() == ":":
        return verb.split()[0].endswith("s")  # "kube-proxy: Maintains …", not "DNS: Create …"
    if verb.endswith("s") or " " in verb or match.group("relative"):
        return True
    if re.search(r"\b(?:" + _MODALS + r")\b", match.group("modal") or "", re.IGNORECASE):
        return True
    return bool(singular_forms(subject.split()[-1]))


def _relative_ok(match: re.Match[str], clean: str, start: int) -> bool:
    """A relative clause belongs to its mention unless that mention is a predicate noun ("X is the
    next-generation ReplicationController that supports …" says nothing of ReplicationController);
    "Term: Verbs …" holds only for a term that opens the sentence (a glossary line)."""
    relative = (match.group("relative") or "").strip()
    if relative == ":":
        return not clean[:start].strip()
    if relative in ("that", "which", ", which", "who", ", who"):
        return re.search(r"\b(?:is|are|was|were|be)\s+(?:\S+\s+){0,4}$", clean[:start]) is None
    return True


_ADJECTIVES = _words(
    "correct|new|old|worker|special|main|default|primary|secondary|single|same|different|extra|local|"
    "remote|stateless|stateful|dedicated|healthy|unhealthy|ready|pending|static|dynamic|native|custom|"
    "external|internal|regular|normal|app|user|appropriate|free|whole|entire|first|last|next|previous|own"
)
_ADJECTIVE_SUFFIXES = (
    "al",
    "ed",
    "ing",
    "ive",
    "ous",
    "ful",
    "able",
    "ible",
    "ic",
    "ant",
    "ent",
    "ary",
    "less",
)


def _generic(match: re.Match[str], clean: str, mention: Mention) -> bool:
    """ "the index node", "a gRPC service": a modifier before a lower-case one-word mention makes
    it the common noun, not the concept."""
    surface = clean[mention.start : mention.end]
    free = match.group("free")
    if free is None or not surface.islower() or " " in surface or "-" in surface:
        return False
    return not _adjective(free)


def _free_blocks(word: str | None) -> bool:
    return word is not None and (
        normalize_name(word) in _PREPOSITIONS or normalize_name(word) in _BLOCKERS or word.endswith("ing")
    )


def _part_of_name(clean: str, start: int) -> bool:
    """True when a capitalized word runs into the mention ("Kata Containers"): a longer name."""
    before = re.search(r"([\w-]+)\s+$", clean[:start])
    if before is None:
        return False
    word = before.group(1)
    at_start = not clean[: before.start()].strip()
    return word[0].isupper() and not at_start and normalize_name(word) not in _DETERMINERS


def _adjective(word: str) -> bool:
    return word.islower() and (word in _ADJECTIVES or word.endswith(_ADJECTIVE_SUFFIXES))


_BEFORE_SUBJECT = _words(
    "a|an|the|each|every|all|its|their|any|some|this|that|these|those|your|our|and|or|but|so|then|also|"
    "now|which|who|when|whenever|once|after|before|while|how|where|why|because|since|is|are|was|were|be|"
    "have|has|can|will|must|should|may|only|even|first|if|unless|of|in|on|at|with|for|from|to|by|into|"
    "onto|within|across|per|via|between|under|over|about|through|like|without|using|than|not|both|either"
)


def _compound(clean: str, start: int) -> bool:
    """ "the snapshot controller watches …": a noun before the mention makes a longer name."""
    before = re.search(r"([A-Za-z][\w-]*)\s+$", clean[:start])
    if before is None:
        return False
    word = before.group(1)
    return (
        word.islower()
        and normalize_name(word) not in _BEFORE_SUBJECT
        and not word.endswith("ly")
        and not _adjective(word)
    )


def _subject_position_ok(clean: str, start: int) -> bool:
    """The subject is not the object of a preposition ("a container in a Pod uses …"), not part of a
    longer name, and not inside an if-clause."""
    if _part_of_name(clean, start) or _compound(clean, start):
        return False
    words = re.findall(r"[\w'’-]+|[,;:]", clean[:start])
    index = len(words) - 1
    while index >= 0 and normalize_name(words[index]) in _DETERMINERS:
        index -= 1
    if index >= 0 and normalize_name(words[index]) in _PREPOSITIONS:
        return False
    clause = re.split(r"[,;:]", clean[:start])[-1]
    return _CONDITIONAL.search(clause) is None


# ---------------------------------------------------------------------------------------------
# Epistemic status (R37).

_QUESTION = re.compile(r"\?\s*$")
_HYPOTHESIS = re.compile(
    r"\b(?:hypothes\w*|may|might|likely|we suspect|unconfirmed|perhaps|probably)\b", re.IGNORECASE
)
_SUGGESTION = re.compile(
    r"\b(?:suggest\w*|should consider|not yet done|not (?:yet )?implemented|proposals?|propose[sd]?|could)\b",
    re.IGNORECASE,
)


def status(text: str) -> str:
    """R37: a question, hypothesis or suggestion keeps that status; everything else is stated."""
    if _QUESTION.search(text):
        return "question"
    if _HYPOTHESIS.search(text):
        return "hypothesis"
    if _SUGGESTION.search(text):
        return "suggestion"
    return "stated"
