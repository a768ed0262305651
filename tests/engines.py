"""Scripted answers for pipeline tests: a tiny deterministic extractor over the request.

Lines of the form ``Concept NAME: definition`` (optionally ``[type=T] [aka=A]``) define concepts, and
``NAME1 uses NAME2.`` style lines (``REL NAME1 -predicate-> NAME2``) state relations. It reads the
changed sources *and* the fragments, as a real engine would, so revoked concepts can be rebuilt.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from wikigen.engines.contract import empty_delta
from wikigen.model.ids import concept_id, normalize_name

CONCEPT = re.compile(
    r"^Concept (?P<name>[^:\[]+?)(?: \[type=(?P<type>\w+)\])?(?: \[aka=(?P<aka>[^\]]+)\])?: .+$"
)
RELATION = re.compile(r"^REL (?P<s>.+?) -(?P<p>[^>]+)-> (?P<o>.+?)\.?$")


def _texts(request: Mapping[str, Any]) -> list[tuple[str, str]]:
    texts = [(s["id"], s["body"]) for s in request["sources"]]
    texts += [(f["source"], f["text"]) for f in request["fragments"]]
    return texts


def extractor(concept: re.Pattern[str], relation: re.Pattern[str]) -> Callable[[str, Mapping[str, Any]], dict[str, Any]]:
    """The scripted answer for sources whose concept lines match ``concept`` (groups ``name``, and
    optionally ``type`` and ``aka``) and whose relation lines match ``relation`` (``s``, ``p``, ``o``);
    scripts/bench_scale.py uses it with make_corpus's own lines."""

    def extract(stage: str, request: Mapping[str, Any]) -> dict[str, Any]:
        return _extract(stage, request, concept, relation)

    return extract


def _extract(
    stage: str, request: Mapping[str, Any], concept_line: re.Pattern[str], relation_line: re.Pattern[str]
) -> dict[str, Any]:
    delta = empty_delta()
    if stage != "analyze":
        return delta
    for source in request["sources"]:
        line = next((ln.strip() for ln in source["body"].splitlines() if ln.strip()), "")
        delta["articles"].append(
            {
                "title": source["title"],
                "sources": [source["id"]],
                "summary": [{"text": line, "quotes": [{"source": source["id"], "quote": line}]}],
            }
        )
    seen: dict[str, dict[str, Any]] = {}
    relations: dict[tuple[str, str, str], dict[str, Any]] = {}
    for source_id, text in _texts(request):
        for raw in text.splitlines():
            line = raw.strip()
            match = concept_line.match(line)
            if match:
                name = match["name"].strip()
                if name.casefold() in seen:
                    seen[name.casefold()]["evidence"].append({"source": source_id, "quote": line})
                    continue
                concept = {
                    "name": name,
                    "type": match.groupdict().get("type") or "concept",
                    "definition": {"text": line, "quotes": [{"source": source_id, "quote": line}]},
                    "evidence": [],
                }
                if match.groupdict().get("aka"):
                    concept["aliases"] = [match["aka"]]
                seen[name.casefold()] = concept
            rel = relation_line.match(line)
            if rel:
                key = (rel["s"], rel["p"], rel["o"])
                relations.setdefault(
                    key,
                    {
                        "subject": rel["s"],
                        "predicate": rel["p"],
                        "object": rel["o"],
                        "basis": "explicit",
                        "evidence": [{"source": source_id, "quote": line}],
                    },
                )
    delta["concepts"] = list(seen.values())
    ids = {a["name"].casefold(): a["id"] for a in request["anchors"]}
    ids |= {c["name"].casefold(): concept_id(c["name"]) for c in seen.values()}
    # Existing relations between anchors are in the request so that they are not sent again (R15).
    existing = {(r["subject"], normalize_name(r["predicate"]), r["object"]) for r in request["relations"]}
    delta["relations"] = [
        r
        for r in relations.values()
        if r["subject"].casefold() in ids
        and r["object"].casefold() in ids
        and (ids[r["subject"].casefold()], normalize_name(r["predicate"]), ids[r["object"].casefold()])
        not in existing
    ]
    return delta


extract = extractor(CONCEPT, RELATION)
