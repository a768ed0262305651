"""One concept document (pure): OKF v0.2 frontmatter — ``type``, ``title``, ``description``,
``tags``, ``generated``, ``verified`` where it holds, ``sources`` with every citation — then the body.

The same inputs give the same bytes: keys in a fixed order, YAML written by PyYAML's pure emitter
(never LibYAML's, whose escapes differ), no clock."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from wikigen.model.ids import kind_of
from wikigen.model.objects import label_of
from wikigen.views.okf.body import Neighbours, flat, footnotes, render_body, unlinked

TYPES = {"article": "Article", "concept": "Concept", "topic": "Topic"}
# OKF §7: an automated check is a `process:` actor; §5.3 reads it as "machine-confirmed".
VERIFIER = "process:wikigen-verify"
DESCRIPTION_MAX = 300  # characters of a description; a longer first sentence is cut at a word
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'“(\[*`A-Z0-9])")
_EMPHASIS = re.compile(r"(\*\*|__)(.+?)\1")


@dataclass(frozen=True, slots=True)
class SourceInfo:
    """What a document says of a cited source: where its text is and what it is called."""

    path: str  # the file of the cited version, relative to the knowledge repo's root
    title: str
    blob: str | None
    category: str


@dataclass(frozen=True, slots=True)
class Document:
    path: str
    kind: str
    title: str
    description: str
    verified: bool
    text: str


def make_document(
    obj: Mapping[str, Any],
    *,
    path: str,
    neighbours: Neighbours,
    sources: Mapping[str, SourceInfo],
    generated: Mapping[str, str],
    verified_at: str | None,
    snapshot: int,
) -> Document:
    """The document of ``obj`` at ``path``; ``verified_at`` is the time of the check when every
    citation it shows holds, else None."""
    kind = kind_of(str(obj["id"]))
    citations = _unique([*obj.get("citations", []), *neighbours.extra_citations])
    title = flat(label_of(obj))
    description = describe(obj)
    front: dict[str, Any] = {"type": TYPES[kind], "title": title, "description": description}
    tags = _tags(obj, citations, sources)
    if tags:
        front["tags"] = tags
    front["generated"] = dict(generated)
    if verified_at is not None:
        front["verified"] = {"by": VERIFIER, "at": verified_at}
    front["sources"] = [_source_entry(c, sources) for c in citations]
    front["wikigen"] = _extension(obj, snapshot)
    titles = {sid: info.title for sid, info in sources.items()}
    body = render_body(obj, path, neighbours, (str(c["citation_id"]) for c in citations))
    notes = footnotes(citations, titles)
    text = "---\n" + _dump(front) + "---\n\n" + body + ("\n" + notes if notes else "")
    return Document(path, kind, title, description, verified_at is not None, text)


def describe(obj: Mapping[str, Any]) -> str:
    """One sentence that says what the object is: the first sentence of its definition or of its
    first summary claim; its title when it has neither."""
    kind = kind_of(str(obj["id"]))
    claims = [obj.get("definition") or {}] if kind == "concept" else list(obj.get("summary") or [])
    text = " ".join(unlinked(str(claims[0].get("text", ""))).split()) if claims else ""
    text = _EMPHASIS.sub(r"\2", text)
    sentence = _SENTENCE_END.split(text, maxsplit=1)[0] if text else ""
    if not sentence:
        return flat(label_of(obj)) + "."
    if len(sentence) > DESCRIPTION_MAX:
        sentence = sentence[:DESCRIPTION_MAX].rsplit(" ", 1)[0].rstrip(",;:") + " …"
    return sentence


def _unique(citations: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    seen: set[str] = set()
    kept = []
    for citation in citations:
        cid = str(citation.get("citation_id"))
        if cid not in seen:
            seen.add(cid)
            kept.append(citation)
    return kept


def _source_entry(citation: Mapping[str, Any], sources: Mapping[str, SourceInfo]) -> dict[str, Any]:
    """OKF §5.1's entry (``id`` is the footnote label, ``resource`` the cited file) with the
    citation's own fields: which version, its git blob, the span and lines, the verbatim quote."""
    source = str(citation.get("source"))
    info = sources.get(source)
    entry: dict[str, Any] = {
        "id": str(citation.get("citation_id")),
        "resource": info.path if info else source,
        "title": " ".join((info.title if info else source).split()),
        "source": source,
        "version": citation.get("version"),
    }
    if info is not None and info.blob:
        entry["blob"] = info.blob
    span = citation.get("source_span") or {}
    lines = citation.get("lines") or {}
    entry["span"] = {"start": span.get("start"), "end": span.get("end")}
    entry["lines"] = {"start": lines.get("start"), "end": lines.get("end")}
    entry["quote"] = citation.get("quote")
    return entry


def _tags(obj: Mapping[str, Any], citations: Sequence[Mapping[str, Any]], sources: Mapping[str, SourceInfo]) -> list[str]:
    """A concept's type; an article's or topic's categories (those of the sources it cites)."""
    if kind_of(str(obj["id"])) == "concept":
        return [str(obj["type"])] if obj.get("type") else []
    found = {sources[str(c.get("source"))].category for c in citations if str(c.get("source")) in sources}
    return sorted(c for c in found if c)


def _extension(obj: Mapping[str, Any], snapshot: int) -> dict[str, Any]:
    """Producer-defined keys (OKF §4.1): the object's id in the wiki, and the snapshot it is from."""
    data: dict[str, Any] = {"id": str(obj["id"]), "snapshot": snapshot}
    if obj.get("aliases"):
        data["aliases"] = [str(a) for a in obj["aliases"]]
    if obj.get("status"):
        data["status"] = str(obj["status"])
    return data


def _dump(data: Mapping[str, Any]) -> str:
    return yaml.dump(
        dict(data), Dumper=yaml.SafeDumper, sort_keys=False, allow_unicode=True, width=100_000, default_flow_style=False
    )
