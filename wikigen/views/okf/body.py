"""The Markdown body of a concept document (pure): the object's reading text with each claim's
citations as footnotes keyed by citation id (OKF §5.1), and its relations as links whose kind is
said in the prose (OKF §6.1)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from wikigen.model.ids import kind_of
from wikigen.model.objects import CLAIM_LABELS, label_of

# A source's own links (``[text](/docs/x/)``, ``[text][ref]``, its footnote marks) point into the
# source's site, not into the bundle, where OKF would read them as relations to documents that do
# not exist (§6.1): in a claim they become their text. A link to a URL with a scheme is kept.
_INLINE_LINK = re.compile(r"(!?)\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_REFERENCE_LINK = re.compile(r"(!?)\[([^\]]+)\]\[[^\]]*\]")
_FOOTNOTE_MARK = re.compile(r"\[\^[^\]]*\]")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True, slots=True)
class Link:
    """A link to another document, with the words around it: ``before [label](path) after``."""

    path: str
    label: str
    before: str = ""
    after: str = ""
    citations: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Neighbours:
    """What one document links to, each group under its own heading, in order."""

    groups: tuple[tuple[str, str, tuple[Link, ...]], ...] = ()  # (heading, lead sentence, links)
    extra_citations: tuple[Mapping[str, Any], ...] = ()  # cited by the links' footnotes


def render_body(obj: Mapping[str, Any], here: str, neighbours: Neighbours, known: Iterable[str]) -> str:
    """The body of the document at ``here`` (its bundle path) for ``obj``; ``known`` holds the
    citation ids that have a footnote, so a mark never points at nothing."""
    cited = set(known)
    kind = kind_of(str(obj["id"]))
    lines = [f"# {flat(label_of(obj))}", ""]
    if kind == "concept":
        if obj.get("aliases"):
            lines += ["Also: " + ", ".join(flat(str(a)) for a in obj["aliases"]), ""]
        if obj.get("definition"):
            lines += _claims([obj["definition"]], cited)
        if obj.get("evidence"):
            lines += [f"Evidence: {_marks(obj['evidence'], cited)}", ""]
    else:
        lines += _claims(obj.get("summary", []), cited)
    for section in obj.get("sections", []) if kind == "article" else []:
        lines += [f"## {flat(str(section['heading']))}", ""]
        lines += _claims(section.get("claims", []), cited)
    lines += _issues("Contradictions", obj.get("contradictions", []), cited)
    lines += _issues("Open questions", obj.get("open_questions", []), cited)
    for heading, lead, links in neighbours.groups:
        if not links:
            continue
        lines += [f"## {heading}", ""]
        if lead:
            lines += [lead, ""]
        for link in links:
            target = posixpath.relpath(link.path, posixpath.dirname(here) or ".")
            text = f"{link.before}[{link_label(link.label)}]({target}){link.after}"
            lines.append(f"- {text}{_marks(link.citations, cited)}".rstrip())
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def footnotes(citations: Sequence[Mapping[str, Any]], titles: Mapping[str, str]) -> str:
    """One footnote per citation id: the quote, the source (by title) and where in it."""
    lines = []
    for c in citations:
        source = str(c["source"])
        title = titles.get(source) or source
        lines.append(
            f'[^{c["citation_id"]}]: "{_quote(str(c["quote"]))}" — {flat(title)} (`{source}` @ {c["version"]}, '
            f"lines {c['lines']['start']}–{c['lines']['end']})"
        )
    return "\n".join(lines) + ("\n" if lines else "")


def _claims(claims: Iterable[Mapping[str, Any]], cited: set[str]) -> list[str]:
    lines = []
    for claim in claims:
        label = CLAIM_LABELS.get(str(claim.get("status", "stated")), "")
        text = f"{label}{flat(unlinked(str(claim['text'])))} {_marks(claim.get('citations', []), cited)}".rstrip()
        lines += [text, ""]
    return lines


def _issues(title: str, issues: Iterable[Mapping[str, Any]], cited: set[str]) -> list[str]:
    items = list(issues)
    if not items:
        return []
    lines = [f"## {title}", ""]
    for issue in items:
        scope = f" (scope: {flat(str(issue['scope']))})" if issue.get("scope") else ""
        uncertainty = f" — uncertainty: {issue['uncertainty']}" if issue.get("uncertainty") else ""
        text = f"{flat(unlinked(str(issue['text'])))}{scope}{uncertainty}"
        lines.append(f"- {text} {_marks(issue.get('citations', []), cited)}".rstrip())
    lines.append("")
    return lines


def _marks(citation_ids: Iterable[Any], cited: set[str]) -> str:
    return "".join(f"[^{cid}]" for cid in citation_ids if str(cid) in cited)


def unlinked(text: str) -> str:
    """``text`` with the source's own links written as their text; links to URLs kept."""
    text = _FOOTNOTE_MARK.sub("", text)
    text = _INLINE_LINK.sub(lambda m: m.group(0) if _SCHEME.match(m.group(3)) and not m.group(1) else m.group(2), text)
    return _REFERENCE_LINK.sub(lambda m: m.group(2), text)


def flat(text: str) -> str:
    """``text`` on one line, its runs of whitespace as one space."""
    return " ".join(text.split())


def link_label(text: str) -> str:
    """``text`` flat, its brackets escaped: safe as a link's label."""
    return flat(text).replace("[", "\\[").replace("]", "\\]")


def _quote(text: str) -> str:
    """A quote as text: its brackets and parentheses escaped, so that no reader takes a link the
    source wrote for a link of the bundle."""
    for mark in ("\\", "[", "]", "(", ")"):
        text = text.replace(mark, "\\" + mark)
    return flat(text)
