"""Compiled objects (B and C) and their storage: one Markdown file per article, concept and topic
(frontmatter = structured data, body = reading text) at ``content/wiki/<kind>s/ab/c/<slug>.md``, and
relations one JSON line each, sorted by id, in shards ``content/wiki/relations/ab/c.jsonl`` — the
prefixes are hex digits of ``sha1(object id)``, so that a commit rewrites a few small folders and
one small relation shard, never a folder or a file listing every object. A schema-1 snapshot keeps
flat folders and one ``content/wiki/relations.jsonl``; readers follow the index's ``file`` either
way. An object's file depends only on its inputs: provenance lives in the manifest, never here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import yaml

from wikigen.model.ids import kind_of
from wikigen.model.shards import Levels, shard_of

WIKI_DIR = "content/wiki"
RELATIONS_DIR = f"{WIKI_DIR}/relations"
RELATIONS_LEVELS: Levels = (2, 1)
# Object files in prefix folders by a hash of the id (``concepts/ab/c/<slug>.md``), so that a
# commit rewrites a few small folders, not one tree object listing every concept. A page's URL never
# depends on this (views.layout names pages by the object's text).
OBJECT_LEVELS: Levels = (2, 1)
LEGACY_RELATIONS_PATH = f"{WIKI_DIR}/relations.jsonl"  # schema 1: every relation in one file
FOLDERS = {"article": "articles", "concept": "concepts", "topic": "topics"}
# LibYAML's parser when PyYAML was built with it (every binary wheel is): the same values as the
# pure-Python parser for the files the compiler writes (tests/test_objects.py compares them), several
# times faster. Only for the compiler's own files: a user's frontmatter keeps the pure parser's
# messages.
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Writing: LibYAML's emitter writes the same bytes as the pure one, several times faster, except for
# the characters it escapes that the pure one writes as they are — outside the BMP (emoji), NEL and
# the Unicode line and paragraph separators — and some keys (the empty one), which it writes in
# another form. An object holding such text, or a key that is not a field name, is written by the pure
# emitter, so its bytes never depend on the build (R24; tests/test_objects.py compares both on
# generated text).
_DUMPER: Any = getattr(yaml, "CSafeDumper", None)
_ESCAPED_BY_LIBYAML = re.compile("[\x85\u2028\u2029\U00010000-\U0010FFFF]")
_FIELD_NAME = re.compile("[A-Za-z_][A-Za-z0-9_]*")


def object_path(object_id: str) -> str:
    kind = kind_of(object_id)
    if kind == "relation":
        return f"{RELATIONS_DIR}/{shard_of(object_id, RELATIONS_LEVELS, '.jsonl')}"
    prefix = shard_of(object_id, OBJECT_LEVELS, "")
    return f"{WIKI_DIR}/{FOLDERS[kind]}/{prefix}/{object_id.split('/', 1)[1]}.md"


def _dump_yaml(data: Mapping[str, Any]) -> str:
    dumper = _DUMPER if _DUMPER is not None and not _escaped_by_libyaml(data) else yaml.SafeDumper
    return yaml.dump(
        dict(data), Dumper=dumper, sort_keys=False, allow_unicode=True, width=100_000, default_flow_style=False
    )


def _escaped_by_libyaml(value: Any) -> bool:
    if isinstance(value, str):
        return _ESCAPED_BY_LIBYAML.search(value) is not None
    if isinstance(value, Mapping):
        return any(
            not (isinstance(k, str) and _FIELD_NAME.fullmatch(k)) or _escaped_by_libyaml(v) for k, v in value.items()
        )
    if isinstance(value, (list, tuple)):
        return any(_escaped_by_libyaml(v) for v in value)
    return False


def _quote_md(text: str) -> str:
    return " ".join(text.split()).replace("[", "\\[").replace("]", "\\]")


# How a claim that is not a plain statement reads, in the wiki's pages and in every view of them.
CLAIM_LABELS = {
    "hypothesis": "*Hypothesis:* ",
    "suggestion": "*Suggestion (not done):* ",
    "question": "*Open question:* ",
}


def _claim_lines(claims: Iterable[Mapping[str, Any]]) -> list[str]:
    lines = []
    for claim in claims:
        status = claim.get("status", "stated")
        label = CLAIM_LABELS.get(status, "")
        marks = "".join(f"[^{cid}]" for cid in claim.get("citations", []))
        lines.append(f"{label}{' '.join(str(claim['text']).split())} {marks}".rstrip())
        lines.append("")
    return lines


def _issue_lines(title: str, issues: Iterable[Mapping[str, Any]]) -> list[str]:
    items = list(issues)
    if not items:
        return []
    lines = [f"## {title}", ""]
    for issue in items:
        scope = f" (scope: {issue['scope']})" if issue.get("scope") else ""
        uncertainty = f" — uncertainty: {issue['uncertainty']}" if issue.get("uncertainty") else ""
        marks = "".join(f"[^{cid}]" for cid in issue.get("citations", []))
        lines.append(f"- {' '.join(str(issue['text']).split())}{scope}{uncertainty} {marks}".rstrip())
    lines.append("")
    return lines


def _footnotes(citations: Iterable[Mapping[str, Any]]) -> list[str]:
    lines = []
    seen = set()
    for c in citations:
        if c["citation_id"] in seen:
            continue
        seen.add(c["citation_id"])
        lines.append(
            f'[^{c["citation_id"]}]: "{_quote_md(c["quote"])}" — `{c["source"]}` @ {c["version"]}, '
            f"lines {c['lines']['start']}–{c['lines']['end']}"
        )
    return lines


def render_body(obj: Mapping[str, Any]) -> str:
    """The reading text of an object, derived only from its structured data."""
    kind = obj["kind"]
    lines: list[str] = []
    if kind == "article":
        lines += [f"# {obj['title']}", ""]
        lines += _claim_lines(obj.get("summary", []))
        for section in obj.get("sections", []):
            lines += [f"## {section['heading']}", ""]
            lines += _claim_lines(section.get("claims", []))
    elif kind == "concept":
        lines += [f"# {obj['name']}", ""]
        if obj.get("aliases"):
            lines += ["Also: " + ", ".join(obj["aliases"]), ""]
        lines += _claim_lines([obj["definition"]])
        if obj.get("evidence"):
            marks = "".join(f"[^{cid}]" for cid in obj["evidence"])
            lines += [f"Evidence: {marks}", ""]
    elif kind == "topic":
        lines += [f"# {obj['title']}", ""]
        lines += _claim_lines(obj.get("summary", []))
        lines += ["Members: " + ", ".join(obj.get("members", [])), ""]
    lines += _issue_lines("Contradictions", obj.get("contradictions", []))
    lines += _issue_lines("Open questions", obj.get("open_questions", []))
    lines += _footnotes(obj.get("citations", []))
    return "\n".join(lines).rstrip() + "\n"


def render_object(obj: Mapping[str, Any]) -> bytes:
    """One Markdown file: frontmatter with every structured field, then the reading text."""
    return ("---\n" + _dump_yaml(obj) + "---\n\n" + render_body(obj)).encode("utf-8")


def parse_object(data: bytes) -> dict[str, Any]:
    text = data.decode("utf-8")
    if not text.startswith("---\n"):
        raise ValueError("not a compiled object file (no frontmatter)")
    end = text.index("\n---\n", 4)
    loaded = yaml.load(text[4:end], Loader=_LOADER)  # a safe loader (CSafeLoader or SafeLoader)
    if not isinstance(loaded, dict):
        raise ValueError("not a compiled object file (frontmatter is not a mapping)")
    return loaded


def relation_line(relation: Mapping[str, Any]) -> str:
    return json.dumps(dict(relation), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def parse_relations(data: bytes | None) -> dict[str, str]:
    """A relations file → {relation id: its exact line} (so untouched lines stay byte-identical, R24)."""
    lines: dict[str, str] = {}
    if not data:
        return lines
    for line in data.decode("utf-8").splitlines():
        if line.strip():
            lines[json.loads(line)["id"]] = line
    return lines


def dump_relations(lines: Mapping[str, str]) -> bytes:
    return "".join(lines[k] + "\n" for k in sorted(lines)).encode("utf-8")


def relation_lines(
    read_file: Callable[[str], bytes | None], index: Iterable[tuple[str, Mapping[str, Any]]]
) -> dict[str, str]:
    """{relation id: its line} for the relations among ``index`` ((id, index entry) pairs), each
    relations file (the entry's ``file``) read once; a relation missing from its file is left out."""
    files: dict[str, set[str]] = {}
    for oid, entry in index:
        if entry.get("kind") == "relation":
            files.setdefault(str(entry.get("file") or object_path(oid)), set()).add(oid)
    lines: dict[str, str] = {}
    for path, ids in sorted(files.items()):
        found = parse_relations(read_file(path))
        lines.update({oid: found[oid] for oid in ids if oid in found})
    return lines


def object_citations(obj: Mapping[str, Any]) -> list[dict[str, Any]]:
    """An object's citations: a relation's evidence, any other object's citations."""
    if kind_of(str(obj.get("id", ""))) == "relation":
        return list(obj.get("evidence", []))
    return list(obj.get("citations", []))


def label_of(obj: Mapping[str, Any]) -> str:
    return str(obj.get("name") or obj.get("title") or obj.get("predicate") or obj["id"])
