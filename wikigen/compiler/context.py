"""Fragments, cross-source hits and caps → the engine request (R13–R18). Pure but for ``read_body``.

Only changed sources are sent whole; everything else travels as exact line ranges (fragments) of
the versions its citations name, re-verified against the blob. Over a cap the increment fails:
nothing is trimmed and the library is never sent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from wikigen.compiler.lookup import IndexLookup, Lookup, name_tokens
from wikigen.evidence.passages import line_starts
from wikigen.model.config import Caps
from wikigen.model.errors import CapExceeded, ValidationError
from wikigen.model.hashing import canonical_bytes, sha256_hex
from wikigen.model.ids import kind_of
from wikigen.model.inflection import other_numbers
from wikigen.model.snapshot import RULES
from wikigen.model.sources import Source

NameIndex = Mapping[str, Sequence[tuple[str, ...]]]  # first token → the names (as name tokens) it starts


def name_index(names: Iterable[tuple[str, ...]]) -> NameIndex:
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for name in names:
        if name:
            by_first.setdefault(name[0], []).append(name)
    return by_first


def names_in(text: str, by_first: NameIndex) -> set[tuple[str, ...]]:
    """The names of a :func:`name_index` that occur in ``text`` as a run of its tokens. Looked up by
    each token of the text that starts a name, so the cost follows the text, not the number of names."""
    found: set[tuple[str, ...]] = set()
    tokens = name_tokens(text)
    for i, token in enumerate(tokens):
        for name in by_first.get(token, ()):
            if tokens[i : i + len(name)] == name:
                found.add(name)
    return found


@dataclass(frozen=True, slots=True)
class Fragment:
    source: str
    version: str
    title: str
    line_start: int
    line_end: int
    start: int  # character offset of the first line in the body
    end: int
    text: str

    def as_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "version": self.version,
            "title": self.title,
            "lines": {"start": self.line_start, "end": self.line_end},
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class Provided:
    """The text a delta may cite: whole bodies of changed sources, fragment ranges of others (R18)."""

    bodies: Mapping[str, tuple[str, str]]  # source id → (version, body)
    ranges: Mapping[str, tuple[tuple[int, int], ...]]  # source id → allowed (start, end) ranges


@dataclass(frozen=True, slots=True)
class Context:
    request: Mapping[str, Any]
    provided: Provided
    anchors: tuple[str, ...]
    articles: tuple[str, ...]
    relations: tuple[str, ...]
    fragments: tuple[Fragment, ...]
    revoked: Mapping[str, str]
    input_bytes: int
    caps: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # name → (used, limit)
    rebuildable: bool = False  # a revoked object still cites a valid source (R13)

    @property
    def needs_engine(self) -> bool:
        """False for a local removal (R29): no changed source and nothing left to rebuild from."""
        return bool(self.request["sources"]) or self.rebuildable


def _declared_lang(source: Source) -> dict[str, str]:
    """``{"lang": …}`` where the source's frontmatter declares a language, else {}."""
    value = source.metadata.get("lang")
    return {"lang": value.strip()} if isinstance(value, str) and value.strip() else {}


DATA_KEYS = ("sources", "fragments", "anchors", "articles", "relations", "revoked", "withdrawn")
# What recheck is sent of analyze's request, as analyze was sent it (R19).
RECHECK_KEYS = ("sources", "fragments", "anchors", "relations")


def source_entry(source: Source) -> dict[str, Any]:
    """How a changed source travels in a request: whole (R9), with its declared language if any."""
    return {
        "id": source.id,
        "version": source.version,
        "title": source.title,
        "category": source.category,
        "verification": source.verification,
        "body": source.body,
        # Only a source that declares its language carries it, so that every other request stays
        # byte-identical.
        **_declared_lang(source),
    }


def recheck_request(request: Mapping[str, Any], delta: Mapping[str, Any]) -> dict[str, Any]:
    """R19: what recheck checks, built from analyze's request and delta, in the same scope.

    Recheck looks for explicit relations that analyze missed, and inferences across sources, in the
    same bounded text: it gets the changed sources, the fragments, the anchors (what a relation may
    join) and the existing relations among them (not to be returned again) exactly as analyze got
    them, so that a server's prompt cache serves that part of recheck's prompt; then what analyze
    found (its concepts: name, aliases; its relations: subject, predicate, object). Article hits,
    revoked objects, withdrawn ids, the rules version and analyze's articles, topics, definitions
    and evidence are not sent: recheck returns relations only, cites only sources and fragments,
    and may name only the anchors and the concepts of the delta (``validate.resolve``).
    """
    return {
        "stage": "recheck",
        **{key: list(request.get(key, [])) for key in RECHECK_KEYS},
        "delta": {
            "concepts": [
                {"name": c["name"], "aliases": list(c.get("aliases", []))} for c in delta.get("concepts", [])
            ],
            "relations": [_triple(r) for r in delta.get("relations", [])],
        },
    }


def _triple(relation: Mapping[str, Any]) -> dict[str, Any]:
    return {"subject": relation["subject"], "predicate": relation["predicate"], "object": relation["object"]}


def input_bytes_of(request: Mapping[str, Any]) -> int:
    """R15's measure: the UTF-8 bytes of a request's data part (sources, fragments, anchors, …)."""
    return len(canonical_bytes({k: request.get(k, []) for k in DATA_KEYS}))


# A body reader: (source id, version) → body text of that version, verified against its blob.
BodyReader = Callable[[str, str], str]


def hits(lookup: Lookup, bodies: Iterable[str], live: Callable[[str], bool]) -> set[str]:
    """Live concepts and articles whose name, alias or title occurs in the changed text (R14). Looked
    up by each word of the text that starts a name, so the cost follows the text, not the index."""
    found: set[str] = set()
    for body in bodies:
        tokens = name_tokens(body)
        starts: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for i, token in enumerate(tokens):
            # a concept's one-word name in the other number ("LimitRange" of "LimitRanges") starts
            # elsewhere; an article is named by its title as written
            for start in (token, *other_numbers(token)):
                if start not in starts:
                    starts[start] = lookup.names_from(start)
                for words, oid in starts[start]:
                    if oid in found or not live(oid):
                        continue
                    exact = tokens[i : i + len(words)] == words
                    if exact or (kind_of(oid) == "concept" and _names_here(tokens, i, words)):
                        found.add(oid)
    return found


def _names_here(tokens: Sequence[str], i: int, words: tuple[str, ...]) -> bool:
    """The name's words at ``i``, its last word in either number ("Pod disruption budgets")."""
    end = i + len(words)
    if end > len(tokens) or tuple(tokens[i + 1 : end - 1]) != words[1:-1]:
        return False
    if len(words) > 1 and tokens[i] != words[0]:
        return False
    last = tokens[end - 1]
    return last == words[-1] or words[-1] in other_numbers(last)


def _fragments_for(
    citations: Iterable[Sequence[Any]],
    compiled: Mapping[str, str],
    read_body: BodyReader,
    titles: Mapping[str, str],
    problems: list[str],
) -> list[Fragment]:
    """Exact cited line ranges (merged where they overlap) of still-valid source versions (R13)."""
    wanted: dict[tuple[str, str], list[tuple[int, int, int, int, str]]] = {}
    for cid, source_id, version, start, end, line_start, line_end, quote_hash in citations:
        if compiled.get(source_id) != version:
            continue  # the source changed or was withdrawn in this increment: it is sent whole or gone
        wanted.setdefault((source_id, version), []).append(
            (start, end, line_start, line_end, f"{cid}:{quote_hash}")
        )
    fragments: list[Fragment] = []
    for (source_id, version), spans in sorted(wanted.items()):
        body = read_body(source_id, version)
        starts = line_starts(body)
        ranges: list[list[int]] = []
        for start, end, line_start, line_end, tag in sorted(spans):
            cid, quote_hash = tag.split(":")
            if end > len(body) or sha256_hex(body[start:end])[:16] != quote_hash:
                # R13: fragments are re-verified against the blob of the version they cite.
                problems.append(
                    f"citation {cid} of {source_id}@{version}: its quote is no longer at its span"
                )
                continue
            ranges.append([line_start, line_end])
        merged: list[list[int]] = []
        for line_start, line_end in sorted(ranges):
            if merged and line_start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], line_end)
            else:
                merged.append([line_start, line_end])
        for line_start, line_end in merged:
            char_start = starts[line_start - 1]
            char_end = starts[line_end] if line_end < len(starts) else len(body)
            text = body[char_start:char_end]
            fragments.append(
                Fragment(
                    source_id,
                    version,
                    titles.get(source_id, source_id),
                    line_start,
                    line_end,
                    char_start,
                    char_start + len(text),
                    text,
                )
            )
    return fragments


def build_context(
    *,
    changed: Sequence[Source],
    withdrawn: Sequence[str],
    index: Mapping[str, Mapping[str, Any]],
    revoked: Mapping[str, str],
    compiled: Mapping[str, str],
    titles: Mapping[str, str],
    read_body: BodyReader,
    caps: Caps,
    enforce: bool = True,
    lookup: Lookup | None = None,
) -> Context:
    """The analyze request of one increment, counted against every cap before any engine call.

    With ``enforce`` (every compile) a cap exceeded raises CapExceeded; ``plan`` only reports it.
    ``lookup`` answers who depends on what and which names start with a word (default: computed
    from ``index``, which must then be whole); the index itself is only asked for single entries.
    """
    problems: list[str] = []
    lookup = lookup if lookup is not None else IndexLookup(index)

    def live(object_id: str) -> bool:
        return object_id not in revoked

    hit_ids = hits(lookup, (s.body for s in changed), live)
    # A revoked relation or topic can only be rebuilt if its live endpoints and members are provided.
    for object_id in revoked:
        entry = index.get(object_id, {})
        for dep in entry.get("deps", []):
            if dep not in revoked and dep in index and kind_of(dep) in ("concept", "article"):
                hit_ids.add(dep)
    anchors = sorted(i for i in hit_ids if kind_of(i) == "concept")
    article_hits = sorted(i for i in hit_ids if kind_of(i) == "article")
    # The relations among the anchors: each depends on its two endpoints.
    relations = [rid for rid, _, _ in lookup.relations_among(anchors) if live(rid)]

    # R13: every citation of a revoked object that a still-valid source holds. R14: for an anchor, the
    # lines its definition cites; an article hit travels as metadata (title, sources, citation ids).
    # Evidence beyond a definition is not needed to link to a concept, and would grow every increment.
    cited: list[Sequence[Any]] = []
    for object_id in sorted(revoked):
        cited.extend(index.get(object_id, {}).get("citations", []))
    # R29: something is left to rebuild only if a revoked object still cites a valid source.
    rebuildable = any(compiled.get(c[1]) == c[2] for c in cited)
    for object_id in anchors:
        entry = index[object_id]
        defining = set(entry.get("definitionCitations", []))
        own = [c for c in entry.get("citations", []) if c[0] in defining] or entry.get("citations", [])[:1]
        cited.extend(own)
    fragments = _fragments_for(cited, compiled, read_body, titles, problems)
    if problems:
        raise ValidationError(problems, what="baseline snapshot (a cited fragment)")

    revoked_list = []
    for object_id in sorted(revoked):
        entry = index.get(object_id, {})
        item: dict[str, Any] = {
            "id": object_id,
            "kind": kind_of(object_id),
            "label": entry.get("label", object_id),
        }
        if entry.get("kind") == "concept":
            item["aliases"] = list(entry.get("aliases", []))
            item["type"] = entry.get("type", "concept")
        revoked_list.append(item)

    request: dict[str, Any] = {
        "stage": "analyze",
        "rules": RULES,
        "sources": [source_entry(s) for s in sorted(changed, key=lambda s: s.id)],
        "fragments": [f.as_json() for f in fragments],
        # R14: an anchor travels as its names and type; the lines its definition cites are fragments.
        "anchors": [
            {
                "id": a,
                "name": index[a].get("label", a),
                "aliases": list(index[a].get("aliases", [])),
                "type": index[a].get("type", "concept"),
            }
            for a in anchors
        ],
        "articles": [
            {
                "id": a,
                "title": index[a].get("label", a),
                "sources": sorted(index[a].get("sources", {})),
                "citations": [c[0] for c in index[a].get("citations", [])],
            }
            for a in article_hits
        ],
        "relations": [
            {
                "id": r,
                "subject": index[r]["subject"],
                "predicate": index[r]["predicate"],
                "object": index[r]["object"],
                "basis": index[r].get("basis", "explicit"),
            }
            for r in relations
        ],
        "revoked": revoked_list,
        "withdrawn": sorted(withdrawn),
    }
    input_bytes = input_bytes_of(request)
    revoked_concepts = sum(1 for r in revoked if kind_of(r) == "concept")
    revoked_articles = sum(1 for r in revoked if kind_of(r) == "article")
    used = {
        "anchors": (len(anchors) + revoked_concepts, caps.anchors),
        "articles": (len(article_hits) + revoked_articles, caps.articles),
        "relations": (len(relations), caps.relations),
        "fragments": (len(fragments), caps.fragments),
        "input_bytes": (input_bytes, caps.input_bytes),
    }
    over = breached(used)
    if over and enforce:
        names = ", ".join(s.id for s in changed) or "(withdrawals only)"
        detail = breaches(over)
        # R15, R16: the advice depends on how compile was run; the pipeline adds it.
        raise CapExceeded(
            f"the increment is over its caps — {detail}; sources: {names}. Nothing was trimmed or published.",
            sources=[s.id for s in changed],
            over=over,
        )

    bodies = {s.id: (s.version, s.body) for s in changed}
    ranges: dict[str, list[tuple[int, int]]] = {s.id: [(0, len(s.body))] for s in changed}
    for fragment in fragments:
        bodies.setdefault(fragment.source, (fragment.version, read_body(fragment.source, fragment.version)))
        ranges.setdefault(fragment.source, []).append((fragment.start, fragment.end))
    return Context(
        request=request,
        provided=Provided(bodies=bodies, ranges={k: tuple(v) for k, v in ranges.items()}),
        anchors=tuple(anchors),
        articles=tuple(article_hits),
        relations=tuple(relations),
        fragments=tuple(fragments),
        revoked=dict(revoked),
        input_bytes=input_bytes,
        caps=used,
        rebuildable=rebuildable,
    )


def breached(used: Mapping[str, tuple[int, int]]) -> list[tuple[str, int, int]]:
    """The caps a request is over (R15): (name, used, limit) of each, from cap → (used, limit)."""
    return [(name, value, limit) for name, (value, limit) in used.items() if value > limit]


def breaches(over: Iterable[tuple[str, int, int]]) -> str:
    """The breaches as every message writes them: ``caps.anchors: 120 > 100; …``."""
    return "; ".join(f"caps.{name}: {value:,} > {limit:,}" for name, value, limit in over)
