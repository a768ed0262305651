"""Pure text helpers of the offline engine (R20): visible text, sentences, defined terms, relations.

Everything here works on one string at a time and returns verbatim spans of it, so that every
quote the engine builds from these helpers is a substring of the text it was given (R22).
"""

from __future__ import annotations

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
        if length and not pieces[-1].endswith(" ") and inner.text.startswith(" "):
            pass
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
            attributes = dict(_ATTRIBUTE.findall(match.group("scargs")))
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
    cuts = sorted(set(cuts)) + [len(text)]
    found: list[Sentence] = []
    for start, end in zip(cuts, cuts[1:], strict=False):
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

STOP_TERMS = frozenset(
    normalize_name(term)
    for term in (
        "what's next",
        "whats next",
        "before you begin",
        "examples",
        "example",
        "see also",
        "overview",
        "introduction",
        "summary",
        "background",
        "notes",
        "note",
        "prerequisites",
        "cleaning up",
        "further reading",
        "objectives",
        "caution",
        "warning",
        "tip",
        "important",
        "motivation",
        "limitations",
        "limitation",
        "caveats",
        "caveat",
        "troubleshooting",
        "references",
        "reference",
        "details",
        "usage",
        "installation",
        "getting started",
        "next steps",
        "how it works",
        "use cases",
        "use case",
        "faq",
        "glossary",
        "terminology",
        "recommendation",
        "recommendations",
        "discussion",
        "all",
        "also",
        "do not",
        "this",
        "it",
        "that",
        "these",
        "those",
        "there",
        "here",
        "they",
        "we",
        "you",
        "one",
        "each",
        "every",
        "some",
        "any",
        "the following",
        "following",
        "other",
        "others",
        "default",
        "defaults",
        "none",
        "true",
        "false",
        "yes",
        "no",
        "enabled",
        "disabled",
        "name",
        "names",
        "value",
        "values",
        "type",
        "types",
        "field",
        "fields",
        "key",
        "keys",
        "data",
        "information",
        "result",
        "results",
        "output",
        "input",
        "support",
        "feature",
        "features",
        "way",
        "ways",
        "thing",
        "things",
        "case",
        "cases",
        "part",
        "step",
        "steps",
        "list",
        "set",
        "number",
        "option",
        "options",
        "idea",
        "goal",
        "purpose",
        "problem",
        "solution",
        "answer",
        "question",
        "reason",
        "difference",
        "advantage",
        "disadvantage",
        "benefit",
        "benefits",
        "approach",
        "process",
        "method",
        "user",
        "users",
        "people",
        "team",
        "something",
        "anything",
        "everything",
        "nothing",
        "status",
        "state",
        "version",
        "alpha",
        "beta",
        "stable",
        "deprecated",
        "optional",
        "required",
        "what",
        "how",
        "why",
        "when",
        "where",
        "which",
        "who",
        "the",
        "a",
        "an",
        "more",
        "less",
        "most",
        "same",
        "first",
        "last",
        "next",
        "previous",
        "new",
        "old",
        "good",
        "bad",
        "better",
        "best",
        "best practices",
        "humans",
        "push",
        "pull",
        "here's",
        "done",
        "todo",
        "command",
        "commands",
        "tool",
        "tools",
        "file",
        "files",
        "page",
        "pages",
        "section",
        "sections",
        "text",
        "content",
        "document",
        "documentation",
        "change",
        "changes",
        "issue",
        "issues",
        "error",
        "errors",
        "item",
        "items",
        "entry",
        "entries",
        "object",
        "objects",
        "resource",
        "resources",
        "system",
        "systems",
        "application",
        "applications",
        "service provider",
    )
)
_LEADING_STOP = frozenset(
    [
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "your",
        "our",
        "their",
        "my",
        "his",
        "her",
        "some",
        "any",
        "all",
        "each",
        "every",
        "both",
        "such",
        "other",
        "another",
        "many",
        "most",
        "more",
        "few",
        "no",
        "only",
        "same",
        "following",
        "new",
        "which",
        "what",
        "when",
        "where",
        "how",
        "why",
        "if",
        "one",
        "two",
        "three",
        "there",
        "here",
        "we",
        "you",
        "they",
        "i",
        "he",
        "she",
        "in",
        "on",
        "at",
        "for",
        "to",
        "of",
        "by",
        "with",
        "from",
        "as",
        "and",
        "or",
        "but",
        "not",
    ]
)
_TRAILING_STOP = frozenset(
    [
        "of",
        "to",
        "and",
        "or",
        "with",
        "for",
        "in",
        "on",
        "at",
        "by",
        "from",
        "the",
        "a",
        "an",
        "as",
        "is",
        "are",
        "be",
    ]
)
_ADJECTIVE_ENDINGS = ("able", "ible", "ful", "ous", "ive", "less", "ly", "ed")
_FLAG = re.compile(r"^-{1,2}\w")
_IDENTIFIER = re.compile(
    r"^(?:[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+s?|[A-Z]{2,}[0-9]*s?|[a-z][a-z0-9]*(?:-[a-z0-9]+)+)$"
)
_TITLE_WORD = re.compile(r"^[A-Z0-9][\w-]*$")


def term_ok(term: str, *, code: bool = False) -> bool:
    """Generic filters every concept name and alias passes (stop-list, flags, URLs, placeholders)."""
    words = term.split()
    key = normalize_name(term)
    if not 2 <= len(term) <= 60 or not words or len(words) > 5 or key in STOP_TERMS:
        return False
    if re.fullmatch(r"[\d.,:%\-+ ]+", term) or _FLAG.match(term) or "://" in term or term.startswith("www."):
        return False
    if re.search(r"[{}<>=\"';:,()\[\]/\\|*`$~#@!?&]", term) or term[0] in ".-_" or term[-1] in ".-_":
        return False
    if code and (" " in term or (re.fullmatch(r"[a-z][\w-]*(?:\.[\w-]+)+", term) is not None)):
        return False  # command lines and dotted field paths are not concepts
    if words[0].casefold() in _LEADING_STOP or words[-1].casefold() in _TRAILING_STOP:
        return False
    if len(words) == 1 and not code and not _IDENTIFIER.match(term) and term.casefold().endswith(_ADJECTIVE_ENDINGS):
        return False  # "Portable:", "Namespaced:", "dynamically" are properties, not concepts
    return any(ch.isalpha() for ch in term)


def identifier_like(term: str) -> bool:
    return _IDENTIFIER.match(term) is not None


_PLURAL_KEEP = frozenset(
    {
        "kubernetes",
        "status",
        "class",
        "access",
        "process",
        "address",
        "ingress",
        "egress",
        "dns",
        "tls",
        "https",
        "metrics",
        "cgroups",
        "series",
        "species",
        "analysis",
        "basis",
        "bus",
        "alias",
        "apis",
        "os",
        "us",
        "is",
        "has",
        "was",
        "this",
        "its",
        "less",
        "news",
    }
)


def singular_forms(word: str) -> list[str]:
    """Candidate singulars of a plural word, most likely first (empty when it does not look plural)."""
    low = word.casefold()
    if low in _PLURAL_KEEP or low.endswith(("ss", "us", "is")) or not low.endswith("s") or len(low) < 4:
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
    last = words[-1]
    changed = singular_forms(last) or plural_forms(last)
    return [" ".join([*words[:-1], form]) for form in changed]


# ---------------------------------------------------------------------------------------------
# Definitions: a sentence that says what a term is.


@dataclass(frozen=True, slots=True)
class Definition:
    term: str  # as written in the visible text
    source: str
    start: int  # offset of the quote in its text
    quote: str  # verbatim
    pattern: str  # copula | called | glossary | list | lead
    aliases: tuple[str, ...] = ()
    code: bool = False


_PREFIX = re.compile(r"^(?:(?:In|Within|For|On) [^,]{1,40},\s+)?(?:(?:A|An|The|Each|Every)\s+)?")
_COPULA = re.compile(r"\s(?:is|are|refers to|means|represents)\s")
_POSSESSIVE = re.compile(
    r"^(?P<term>.+?)['’]s (?:main |primary )?(?:purpose|job|role|goal|function|responsibility)$"
)
_PAREN = re.compile(r"^(?P<term>.+?)\s*\((?P<inner>[^()]{1,40})\)$")
_ALSO = re.compile(
    r"^(?P<term>.+?),\s*(?:also|sometimes|often)\s+(?:called|known as|referred to as)\s+(?P<aka>[^,]{1,40}),?$"
)
_DEFINING_IS = re.compile(
    r"^(?:a|an|the|one|any|used|responsible|designed|intended|meant|made up|defined as|short for|"
    r"essentially|simply|basically|typically|usually|generally|primarily|mainly|like|how|what|where)\b",
    re.IGNORECASE,
)
_NOT_DEFINING = re.compile(
    r"^(?:the (?:default|same|only|case|recommended|preferred|most|first|last|next|one|result|reason|"
    r"problem|easiest|simplest|best)|a (?:good|bad|great|common|better|way to)|one of the (?:most|best))\b|"
    r"^(?:not|no|also|now|still|only|available|deprecated|enabled|disabled|set|true|false|required|"
    r"optional|supported|immutable|removed|ignored|recommended|useful|important|different|stable|ready|"
    r"omitted|empty|done|possible|able|likely|being|currently|in|on|at|for|with|to|from|by|there|here|"
    r"then|so|too|more|less|very|always|never|often|sometimes|unavailable|allowed|still|just|already|"
    r"unable|free|responsible for (?:it|this))\b",
    re.IGNORECASE,
)
_CALLED = re.compile(r"\b(?:is|are) (?:called|known as|referred to as|termed) (?:an? |the )?$")
_DEF_LIST = re.compile(
    r"(?m)^(?P<term>[^\n:]{2,80})\n[ \t]*:[ \t]+(?P<definition>\S[^\n]*(?:\n(?![^\n:]{2,80}\n[ \t]*:)[^\n]+)*)"
)
_LIST_TERM = re.compile(
    r"^(?:\*\*(?P<bold>[^*\n]{2,60}?):?\*\*|`(?P<code>[^`\n]{2,60})`|_(?P<em>[^_\n]{2,60})_)\s*(?:[:—–]|\s-)\s+(?P<rest>\S)"
)
_DASH_TERM = re.compile(r"^(?P<term>[A-Za-z][\w .-]{1,40}?)\s+[—–]\s+\S")
_QUALIFIERS = frozenset(
    {"optional", "deprecated", "alpha", "beta", "stable", "ga", "required", "recommended"}
)


def definitions(sentence: Sentence, known: frozenset[str], proper: frozenset[str]) -> list[Definition]:
    """Defined terms of one sentence: "X is a …", "… is called **X**" (R20)."""
    clean = sentence.clean
    found: list[Definition] = []
    prefix = _PREFIX.match(clean.text)
    copula = _COPULA.search(clean.text, prefix.end() if prefix else 0)
    if prefix is not None and copula is not None:
        head = clean.text[prefix.end() : copula.start()].strip()
        rest = clean.text[copula.end() :].strip()
        verb = copula.group().strip()
        aliases: list[str] = []
        possessive = _POSSESSIVE.match(head)
        if possessive:
            head = possessive.group("term")
        elif verb in ("is", "are") and not _defining_rest(verb, rest):
            head = ""
        also = _ALSO.match(head)
        if also:
            head, aka = also.group("term"), also.group("aka").strip()
            aliases.append(aka)
        paren = _PAREN.match(head)
        if paren:
            head = paren.group("term").strip()
            inner = paren.group("inner").strip()
            if inner.casefold() not in _QUALIFIERS:
                aliases.append(inner)
        start = prefix.end() + clean.text[prefix.end() :].find(head) if head else -1
        marked = _marked(clean, start, start + len(head)) if head else None
        if head and len(head.split()) <= 5 and _acceptable(head, marked, known, proper):
            found.append(_definition(sentence, head, "copula", aliases, marked == "code"))
    for mark in clean.marks:
        if mark.kind in ("bold", "italic", "code") and _CALLED.search(clean.text[: mark.start]):
            term = clean.text[mark.start : mark.end]
            if term_ok(term, code=mark.kind == "code"):
                found.append(_definition(sentence, term, "called", [], mark.kind == "code"))
    return found


def list_definitions(source: str, passage_text: str, base: int, proper: frozenset[str]) -> list[Definition]:
    """Glossary patterns of one passage: ``Term`` / ``: definition`` lines, ``- **Term**: …``, ``Term — …``."""
    found: list[Definition] = []
    for match in _DEF_LIST.finditer(passage_text):
        term_line = visible(match.group("term")).text.strip()
        aliases: list[str] = []
        paren = _PAREN.match(term_line)
        if paren:
            term_line = paren.group("term").strip()
            inner = paren.group("inner").strip()
            if inner.casefold() not in _QUALIFIERS:
                aliases.append(inner)
        if term_ok(term_line) and len(match.group("definition").split()) >= 3:
            code = "`" in match.group("term")
            quote = match.group(0).strip()
            found.append(
                Definition(term_line, source, base + match.start(), quote, "glossary", tuple(aliases), code)
            )
    if found:
        return found
    listed = _LIST_TERM.match(passage_text)
    if listed:
        term = (listed.group("bold") or listed.group("code") or listed.group("em") or "").strip()
        code = listed.group("code") is not None
        first = sentences(source, passage_text, base)
        if first and term_ok(term, code=code) and len(first[0].clean.text.split()) >= len(term.split()) + 4:
            found.append(Definition(term, source, first[0].start, first[0].text, "list", (), code))
        return found
    dashed = _DASH_TERM.match(passage_text)
    if dashed:
        term = dashed.group("term").strip()
        first = sentences(source, passage_text, base)
        if first and term_ok(term) and (identifier_like(term) or normalize_name(term) in proper):
            found.append(Definition(term, source, first[0].start, first[0].text, "list", (), False))
    return found


def _definition(sentence: Sentence, term: str, pattern: str, aliases: list[str], code: bool) -> Definition:
    kept = tuple(a for a in aliases if term_ok(a) and normalize_name(a) != normalize_name(term))
    return Definition(term, sentence.source, sentence.start, sentence.text, pattern, kept, code)


def _defining_rest(verb: str, rest: str) -> bool:
    if len(rest.split()) < 2 or _NOT_DEFINING.match(rest):
        return False
    if _DEFINING_IS.match(rest):
        return True
    if verb != "are":
        return False
    first = rest.split()[0].casefold()
    return not first.endswith(("ly", "ing")) and not (first.endswith("ed") and first != "namespaced")


def _marked(clean: Visible, start: int, end: int) -> str | None:
    for mark in clean.marks:
        if (
            mark.start == start
            and mark.end == end
            and mark.kind in ("bold", "italic", "code", "tooltip", "link")
        ):
            return mark.kind
    return None


def _acceptable(term: str, marked: str | None, known: frozenset[str], proper: frozenset[str]) -> bool:
    """R20: precision first. A plain phrase must look like a name or be marked as a term elsewhere."""
    if not term_ok(term, code=marked == "code"):
        return False
    if marked is not None or identifier_like(term):
        return True
    key = normalize_name(term)
    forms = {key, *(normalize_name(v) for v in head_variants(term))}
    if forms & known:
        return True
    words = term.split()
    if all(_TITLE_WORD.match(word) for word in words):
        return len(words) > 1 or bool(forms & proper)
    return False


# ---------------------------------------------------------------------------------------------
# Mentions and relations.


@dataclass(frozen=True, slots=True)
class Mention:
    start: int
    end: int
    ref: str


class Mentions:
    """Finds concept mentions by name, alias and their plural/singular, longest first, whole words."""

    def __init__(self, forms: Mapping[str, str]) -> None:
        self._refs = dict(forms)
        ordered = sorted(self._refs, key=lambda form: (-len(form), form))
        self._pattern = (
            re.compile(
                r"(?<![\w-])(?:" + "|".join(re.escape(form) for form in ordered) + r")(?![\w-])",
                re.IGNORECASE,
            )
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
                    key = normalize_name(variant)
                    if (key and term_ok(variant)) or (key and identifier_like(variant)):
                        owners.setdefault(key, set()).add(ref)
        return cls({key: next(iter(refs)) for key, refs in owners.items() if len(refs) == 1})

    def find(self, text: str) -> list[Mention]:
        if self._pattern is None:
            return []
        found = []
        for match in self._pattern.finditer(text):
            ref = self._refs.get(normalize_name(match.group()))
            if ref is not None:
                found.append(Mention(match.start(), match.end(), ref))
        return found


# Canonical predicate → its finite active forms; passive participles in _PASSIVE.
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
    "authenticates": r"authenticates?",
    "invokes": r"invokes?",
    "tracks": r"tracks?",
    "updates": r"updates?",
}
_PASSIVE: dict[str, str] = {
    "uses": "used",
    "manages": "managed",
    "creates": "created",
    "controls": "controlled",
    "replaces": "replaced",
    "extends": "extended",
    "owns": "owned",
    "selects": "selected",
    "mounts": "mounted",
    "watches": "watched",
    "exposes": "exposed",
    "stores": "stored",
    "schedules": "scheduled",
    "reads": "read",
    "writes": "written",
    "deletes": "deleted",
    "evicts": "evicted",
    "implements": "implemented",
    "provides": "provided",
    "references": "referenced",
    "requires": "required",
    "monitors": "monitored",
    "restarts": "restarted",
    "starts": "started|launched",
    "allocates": "allocated",
    "assigns": "assigned",
    "configures": "configured",
    "defines": "defined",
    "consumes": "consumed",
    "enforces": "enforced",
    "invokes": "invoked",
    "tracks": "tracked",
    "calls": "invoked",
    "runs": "run",
    "contains": "contained|included",
    "updates": "updated",
}
_SUBJECT_GAP = (
    r"(?:\s*,\s*(?:which|who)|\s+(?:which|that|who))?"
    r"(?:\s+(?:itself|themselves|then|also|still|always|usually|typically|generally|often|only|"
    r"automatically|directly|actually|periodically|continuously|first|now|in turn|can|will|must|does|do|"
    r"both|[a-z]+ly))*\s+"
)
_OBJECT_GAP = (
    r"(?:\s+(?:a|an|the|each|every|all|any|some|its|their|one or more|multiple|many|several|other|"
    r"another|new|existing|specific|individual|given|matching|corresponding|relevant|appropriate|"
    r"(?:a|the) (?:set|group|list|number|pool|collection) of|instances of|one|only|two|these|those))*"
    r"(?:\s+(?P<free>[a-z][\w-]*))?\s+$"
)
_BE = r"(?:is|are|was|were|be|been|being|gets|get|can be|will be|must be)\s+(?:\w+ly\s+)?"
_ACTIVE = re.compile(
    "^"
    + _SUBJECT_GAP
    + "(?P<verb>"
    + "|".join(f"(?P<p{i}>{forms})" for i, forms in enumerate(PREDICATES.values()))
    + r")\b"
    + _OBJECT_GAP,
    re.IGNORECASE,
)
_PASSIVE_FORMS = re.compile(
    r"^(?:\s*,)?\s+(?:which\s+|that\s+)?(?:"
    + _BE
    + ")?(?P<verb>"
    + "|".join(f"(?P<p{i}>{forms})" for i, forms in enumerate(_PASSIVE.values()))
    + r")\s+(?:by|in|into|within)\b"
    + _OBJECT_GAP,
    re.IGNORECASE,
)
_IS_A = re.compile(
    r"^\s+(?:is|are)\s+(?:a|an)\s+(?:(?:kind|type|form|special kind|specialized kind) of\s+)?(?:[a-z][\w-]*\s+)?$"
)
_OBJECT_NEXT = re.compile(
    r"^(?:$|[.,;:!?)\]\"]|\s+(?:and|or|but|that|which|who|whose|to|in|on|at|for|with|by|from|as|if|when|while|"
    r"so|is|are|was|were|can|will|must|within|into|onto|using|via|through|across|per|where|after|before|until|"
    r"running|instead|without|automatically|directly|based|$)\b)",
    re.IGNORECASE,
)
_PREPOSITIONS = frozenset(
    [
        "of",
        "in",
        "on",
        "at",
        "with",
        "for",
        "from",
        "to",
        "by",
        "into",
        "onto",
        "inside",
        "within",
        "across",
        "per",
        "than",
        "via",
        "between",
        "under",
        "over",
        "about",
        "through",
        "like",
        "without",
    ]
)
_DETERMINERS = frozenset(
    [
        "a",
        "an",
        "the",
        "each",
        "every",
        "all",
        "its",
        "their",
        "any",
        "some",
        "this",
        "that",
        "these",
        "those",
    ]
)
_CONDITIONAL = re.compile(
    r"\b(?:if|unless|whether|when|whenever|once|suppose|assuming|although|though)\b", re.IGNORECASE
)
_BLOCKERS = frozenset(
    {
        "not",
        "never",
        "no",
        "cannot",
        "can't",
        "don't",
        "doesn't",
        "won't",
        "may",
        "might",
        "could",
        "should",
        "would",
    }
)


@dataclass(frozen=True, slots=True)
class Found:
    subject: str
    predicate: str
    object: str


def relations(clean: str, mentions: Sequence[Mention]) -> list[Found]:
    """Relations one sentence states (R20, R23): subject, an explicit predicate, object, in that order."""
    if clean.rstrip().endswith("?"):
        return []
    found: list[Found] = []
    for first, second in zip(mentions, mentions[1:], strict=False):
        if first.ref == second.ref or not _OBJECT_NEXT.match(clean[second.end :]):
            continue
        between = clean[first.end : second.start]
        if between.startswith(("'", "’")) or set(between.casefold().split()) & _BLOCKERS:
            continue
        subject_clear = _subject_position_ok(clean, first.start)
        active = _ACTIVE.match(between)
        if active and subject_clear and not _free_blocks(active.group("free")):
            found.append(Found(first.ref, _predicate(active, tuple(PREDICATES)), second.ref))
            continue
        passive = _PASSIVE_FORMS.match(between)
        if passive and not _free_blocks(passive.group("free")) and _by_agent(between):
            found.append(Found(second.ref, _predicate(passive, tuple(_PASSIVE)), first.ref))
            continue
        if _IS_A.match(between) and subject_clear:
            found.append(Found(first.ref, "is a", second.ref))
    return found


def _predicate(match: re.Match[str], names: tuple[str, ...]) -> str:
    for index, name in enumerate(names):
        if match.group(f"p{index}"):
            return name
    raise AssertionError("a predicate group matched")


def _by_agent(between: str) -> bool:
    return (
        re.search(r"\sby\s", between + " ") is not None
        or "stored" in between
        or "contained" in between
        or "included" in between
    )


def _free_blocks(word: str | None) -> bool:
    return word is not None and (
        word.casefold() in _PREPOSITIONS or word.casefold() in _BLOCKERS or word.endswith("ing")
    )


def _subject_position_ok(clean: str, start: int) -> bool:
    """The subject is not the object of a preposition ("a container in a Pod uses …") nor in an if-clause."""
    words = re.findall(r"[\w'’-]+|[,;:]", clean[:start])
    index = len(words) - 1
    while index >= 0 and words[index].casefold() in _DETERMINERS:
        index -= 1
    if index >= 0 and words[index].casefold() in _PREPOSITIONS:
        return False
    clause = re.split(r"[,;:]", clean[:start])[-1]
    return _CONDITIONAL.search(clause) is None


# ---------------------------------------------------------------------------------------------
# Epistemic status (R37).

_QUESTION = re.compile(r"\?\s*$")
_HYPOTHESIS = re.compile(
    r"\b(?:hypothes[ie]s|may|might|likely|we suspect|unconfirmed|perhaps|probably)\b", re.IGNORECASE
)
_SUGGESTION = re.compile(
    r"\b(?:suggest\w*|should consider|not yet done|proposals?|propose[sd]?|could)\b", re.IGNORECASE
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
