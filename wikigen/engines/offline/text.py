"""Pure text helpers of the offline engine (R20): visible text, sentences, epistemic status.

Everything here (and in :mod:`wikigen.engines.offline.terms` and :mod:`wikigen.engines.offline.relations`, which
build on it) works on one string at a time and returns verbatim spans of it, so that every quote
the engine builds from these helpers is a substring of the text it was given (R22).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from wikigen.engines.offline import markup
from wikigen.engines.offline.lexicon import ABBREVIATIONS

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

    # a definition list's ": " stays, so the entry reads as "term : what it does"
    text = _LINE_MARKERS.sub(lambda m: "\n: " if ":" in m.group() else "\n", raw)
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


# What display() renders: code spans (kept), HTML comments, Hugo shortcodes, reference-style links.
_DISPLAYED = re.compile(
    r"(?P<code>(?P<ticks>`+)[^`\n](?:[^\n]*?[^`\n])?(?P=ticks)(?!`))"
    r"|(?P<comment><!--.*?-->)|\{\{[<%]\s*/?\s*(?P<scname>[\w-]+)(?P<scargs>.*?)[>%]\}\}"
    r"|(?P<reference>!?\[(?P<label>[^\]\n]+)\]\[[^\]\n]*\])",
    re.DOTALL,
)


def display(raw: str) -> str:
    """Claim text: the verbatim Markdown with Hugo shortcodes rendered, reference-style links read as
    their text and HTML comments dropped; code spans stay as written."""

    def render(match: re.Match[str]) -> str:
        if match.group("code"):
            return match.group()  # `a[i][j]` is code, not a link
        if match.group("comment"):
            return ""
        if match.group("reference"):  # "[MathJax][mathjax]" reads "MathJax"; an image reads nothing
            return "" if match.group().startswith("!") else match.group("label")
        if match.group("scname") == "glossary_tooltip":
            attributes: dict[str, str] = dict(_ATTRIBUTE.findall(match.group("scargs")))
            return attributes.get("text") or attributes.get("term_id", "").replace("-", " ")
        return ""

    rendered = re.sub(r"[ \t]+\n", "\n", _DISPLAYED.sub(render, raw)).strip()
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


_END = re.compile(r"[.!?][\"')\]*_]*(?=\s)|[。！？][」』”’）\"')\]*_]*")  # CJK full stops need no space
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")  # kana, Han, Hangul
# Code spans of any backtick count (`` ` `` quotes a backtick), shortcodes, link targets, tags.
_PROTECTED = re.compile(r"(`+)[^`\n](?:[^\n]*?[^`\n])?\1(?!`)|\{\{.*?\}\}|\]\([^)]*\)|<[^<>\n]+>", re.DOTALL)
_LIST_LINE = re.compile(r"\n(?=[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t])")
_LEAD = re.compile(r"(?:[ \t]*(?:>|[-*+]|\d{1,9}[.)])[ \t]+|\s+)+")


_TRAILING_TAGS = re.compile(r"(?:\s*<(?:br|hr|wbr)\s*/?>)+\s*$", re.IGNORECASE)
_TAG = re.compile(r"</?[a-zA-Z][\w-]*(?:\s[^<>]*)?/?>")
_AUTOLINK = re.compile(r"<(?:[a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+)>")
_CODE = re.compile(r"(`+)[^`\n](?:[^\n]*?[^`\n])?\1(?!`)")
_SHORTCODE = re.compile(r"\{\{[<%].*?[%>]\}\}", re.DOTALL)  # {{<glossary_tooltip …>}} is no tag


def has_tag(text: str) -> bool:
    """A raw HTML tag outside code spans and shortcodes; an autolink (<https://…>) is no tag."""
    return _TAG.search(_AUTOLINK.sub(" ", _SHORTCODE.sub(" ", _CODE.sub(" ", text)))) is not None


# A table's delimiter row, ":----|:-----" or "| --- | --- |"
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\|", re.MULTILINE)


def is_abbreviation_stop(text: str, at: int) -> bool:
    """The full stop at ``at`` ends an abbreviation ("e.g.", "i.e.", "etc.") or an initial, not a
    sentence."""
    word = re.search(r"([\w.]+)[.!?]?$", text[max(0, at - 12) : at + 1])
    before = (word.group(1) if word else "").rstrip(".").casefold()
    return text[at] == "." and (before in ABBREVIATIONS or len(before) == 1)


def sentences(
    source: str, text: str, base: int = 0, heading: str = "", *, keep_markup: bool = False
) -> list[Sentence]:
    """Split ``text`` (one passage) into sentences; ``base`` is the passage's offset in its body.

    R22: a line of hidden markup after a sentence's end (an include directive, a comment) is cut out
    between sentences and markup at a sentence's edges stays outside it; a sentence that still holds
    markup or points at what it does not show (:data:`markup.FORMS`) is left out, so that no
    definition or evidence (R20) quotes it, unless ``keep_markup`` (for cutting a passage an article
    quotes, which checks its sentences itself).
    """
    if text.lstrip().startswith("|") or _TABLE_RULE.search(text):
        return []  # tables hold cells, not sentences (also one a shortcode's line runs into)
    protected = [(m.start(), m.end()) for m in _PROTECTED.finditer(text)]
    hidden = markup.hidden_spans(text)
    opens_hidden = {first for first, _ in hidden}  # "… syscalls. <!-- a note -->": the sentence ends
    cuts = [0]
    for match in _END.finditer(text):
        at = match.end()
        if any(start < at <= end for start, end in protected):
            continue
        if is_abbreviation_stop(text, match.start()):
            continue
        rest = text[at:].lstrip()
        cjk_stop = text[match.start()] in "。！？"  # no capital letter follows a Chinese full stop
        opens = bool(rest) and (
            rest[0].isupper() or rest[0].isdigit() or rest[0] in "\"'([`*_{>-:" or cjk_stop
        )
        if opens or len(text) - len(rest) in opens_hidden:
            cuts.append(at)
    cuts.extend(m.start() for m in _LIST_LINE.finditer(text))
    cuts.extend(at for line in markup.hidden_lines(text, hidden) for at in line)
    cuts = [*sorted(set(cuts)), len(text)]
    found: list[Sentence] = []
    for start, end in itertools.pairwise(cuts):
        lead = _LEAD.match(text, start)
        if lead is not None:
            start = lead.end()
        while end > start and text[end - 1].isspace():
            end -= 1
        start, end = markup.trimmed(text, start, end, hidden)
        trailing = _TRAILING_TAGS.search(text, start, end)
        if trailing is not None:  # "… Autoscaler_](…).<br />": the line break is no part of it
            end = trailing.start()
        piece = text[start:end]
        if has_tag(piece):
            continue  # "2<sup>12</sup>", "<a href=…>": raw HTML is never quoted
        if not keep_markup and markup.holds(piece):
            continue
        if (len(piece) >= 12 and re.search(r"[A-Za-z]{2}", piece)) or len(CJK.findall(piece)) >= 4:
            found.append(Sentence(source, base + start, piece, visible(piece), heading))
    return found


# ---------------------------------------------------------------------------------------------
# Epistemic status (R37), decided from one sentence: the claim's own (see documents.claim).

# A question ends with "?", whatever closes the sentence after it (quotes, brackets, emphasis).
_QUESTION = re.compile(r"\?[\"')\]*_]*\s*$")
# A hedge on a claim of fact or cause. A modal verb alone is not one: "A Pod may contain several
# containers" and "you can scale it" state what the system allows; "may/might/could" hedge only when
# they carry a cause ("might be caused by", "could be due to").
_HYPOTHESIS = re.compile(
    r"\b(?:hypothe\w*|unconfirmed|unverified"
    r"|not (?:yet )?(?:been )?confirmed|(?:we|i) (?:suspect|believe|think|guess|assume)|suspected"
    r"|(?:our|my) (?:guess|theory|suspicion)|probably|presumably|it seems|seems to (?:be|have)"
    r"|(?:it )?appears to (?:be|have) (?:been )?(?:caused|due|the (?:cause|reason))"
    r"|(?:most |more than )?likely (?:because|due to|caused|the (?:cause|reason)|that)"
    r"|(?:may|might|could) (?:have )?(?:be|been) (?:caused|due to|because|triggered|related to|the (?:cause|reason))"
    r"|possibly (?:because|due to|caused)|root cause (?:is|remains) (?:unknown|unclear)|unclear why)\b"
    # "Perhaps the disk was full" hedges; "(perhaps for a batch job)" in a doc only gives an example.
    r"|(?:^|[,;:]\s*)perhaps\b",
    re.IGNORECASE,
)
# A proposal, not something done: "we should", "consider adding", "could be improved". Advice to a
# reader ("consider using a sandbox", "familiarity with volumes is suggested") and a reference to a
# design proposal document state how things are; they are not proposals of the source's authors.
_SUGGESTION = re.compile(
    r"\b(?:suggestions?|(?:we|i) (?:suggest|propose)|suggested (?:improvement|fix|change)s?"
    r"|(?:is|as) a proposal|proposal:|proposed (?:change|fix|improvement|solution)s?"
    r"|we (?:should|ought to)|consider adding|(?:could|should) be improved|would be (?:better|nice)"
    r"|it would help|not (?:yet )?(?:done|implemented)|next time,? we|in (?:the )?future,? we"
    r"|action items?|to-?do)\b"
    r"|^proposal\b",
    re.IGNORECASE,
)


def status(text: str) -> str:
    """R37: ``text`` (one sentence) is a question, a hypothesis, a suggestion or stated."""
    if _QUESTION.search(text):
        return "question"
    if _HYPOTHESIS.search(text):
        return "hypothesis"
    if _SUGGESTION.search(text):
        return "suggestion"
    return "stated"
