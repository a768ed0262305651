"""The site's static API for agents (E6): a JSON file beside each object page (the shape of the
MCP tool ``get``), ``objects.json`` listing every object, and ``llms.txt`` at the site root, which
also points to the site's Open Knowledge Format bundle when it has one (V6).

Static files made at build time from the committed snapshot (V5: no model, no snapshot, no server).
Objects that cite a private source are left out (R39).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from wikigen.model.agent_record import MCP_TOOLS, READABLE, cites_private, object_record
from wikigen.model.objects import label_of
from wikigen.views.knowledge import Knowledge
from wikigen.views.layout import Layout

OBJECTS_JSON = "objects.json"
LLMS_TXT = "llms.txt"
OKF_FOLDER = "okf"  # the site's OKF bundle: okf/index.md and the rest, and okf.zip beside it
OKF_ZIP = "okf.zip"
_SECTIONS = {"article": "Articles", "concept": "Concepts", "topic": "Topics"}


def json_uri(page: str) -> str:
    """The JSON file beside a page: ``wiki/concepts/Pod.md`` → ``wiki/concepts/Pod.json``."""
    return page[:-3] + ".json"


def agent_files(
    knowledge: Knowledge, layout: Layout, *, site_name: str, site_url: str | None = None, okf: bool = False
) -> dict[str, str]:
    """{site path: text} for every agent file; ``okf``: llms.txt points to the site's OKF bundle."""
    private = {sid for sid, source in knowledge.sources.items() if source.private}
    files: dict[str, str] = {}
    listed: list[dict[str, Any]] = []
    for object_id, obj in sorted(knowledge.objects.items()):
        kind = str(obj.get("kind"))
        page = layout.object(object_id)
        if kind not in READABLE or page is None:
            continue
        if cites_private(obj, private):
            continue
        record = {**object_record(obj), "snapshot": knowledge.version, "page": layout.url(page)}
        files[json_uri(page)] = _dump(record)
        listed.append({
            "id": object_id,
            "kind": kind,
            "title": label_of(obj),
            "page": layout.url(page),
            "json": json_uri(page),
            "citations": len(record["citations"]),
        })
    files[OBJECTS_JSON] = _dump({"snapshot": knowledge.version, "objects": listed})
    files[LLMS_TXT] = _llms_txt(listed, site_name, site_url, knowledge.version, okf)
    return files


def _llms_txt(
    listed: Sequence[Mapping[str, Any]], site_name: str, site_url: str | None, version: int, okf: bool
) -> str:
    base = (site_url or "").rstrip("/") + "/" if site_url else ""
    lines = [
        f"# {site_name}",
        "",
        f"> A wiki compiled by wikigen (snapshot {version}): every claim cites a verbatim span of a source "
        "version. Each object below has a JSON file with its structured fields and citations "
        "(citation_id, source, version, source_span, lines, quote); "
        f"[{OBJECTS_JSON}]({base}{OBJECTS_JSON}) lists them all.",
        "",
        f"In a clone of the repository, `wikigen mcp` serves the same snapshot over MCP (stdio): the tools "
        f"{', '.join(MCP_TOOLS)} (an answer filed back as an uncommitted source, written only when each "
        "quote is verbatim in the committed source it cites).",
        "",
    ]
    if okf:
        lines += [
            "## Open Knowledge Format",
            "",
            f"- [OKF bundle]({base}{OKF_FOLDER}/index.md): the same knowledge as an Open Knowledge Format v0.2 "
            "bundle, one Markdown document with YAML frontmatter per article, concept and topic",
            f"- [{OKF_ZIP}]({base}{OKF_ZIP}): the bundle in one zip archive",
            "",
        ]
    for kind, title in _SECTIONS.items():
        items = [o for o in listed if o["kind"] == kind]
        if not items:
            continue
        lines += [f"## {title}", ""]
        lines += [f"- [{_flat(str(o['title']))}]({base}{o['json']}): {o['id']}, page {base}{o['page']}" for o in items]
        lines.append("")
    return "\n".join(lines)


def _flat(text: str) -> str:
    return " ".join(text.split()).replace("[", "(").replace("]", ")")


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1, default=str) + "\n"
