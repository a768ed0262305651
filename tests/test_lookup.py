"""R28 on what an increment changed: ``publish_checks.changed_problems`` checks the new and rewritten
entries of an overlay over a valid baseline, and finds exactly what the whole-snapshot check
(``publish_checks.final_problems``) finds — stale citations, names held twice, uncovered sources, dangling
dependencies — without iterating the baseline."""

from __future__ import annotations

import random
from typing import Any

from wikigen.compiler.lookup import IndexLookup
from wikigen.compiler.publish_checks import changed_problems, final_problems
from wikigen.model.shards import Overlay

SOURCES = [f"s{i}" for i in range(5)]
NAMES = ["Pod", "Node", "Volume", "Service", "Job", "Lease"]


def cite(source: str, version: str, n: int) -> list[Any]:
    return [f"c{source}{version}{n}", source, version, 0, 4, 1, 1, "0" * 16]


def article(source: str, version: str) -> tuple[str, dict[str, Any]]:
    return f"article/{source}", {
        "kind": "article",
        "sources": {source: version},
        "deps": [],
        "citations": [cite(source, version, 0)],
        "names": [f"Page {source}"],
    }


def concept(name: str, source: str, version: str, aliases: list[str] | None = None) -> tuple[str, dict[str, Any]]:
    return f"concept/{name.lower()}", {
        "kind": "concept",
        "sources": {source: version},
        "deps": [f"article/{source}"],
        "citations": [cite(source, version, 1)],
        "names": [name, *(aliases or [])],
    }


def relation(a: str, b: str, source: str, version: str) -> tuple[str, dict[str, Any]]:
    return f"relation/{a}-{b}", {
        "kind": "relation",
        "sources": {source: version},
        "deps": [f"concept/{a}", f"concept/{b}"],
        "citations": [cite(source, version, 2)],
    }


def baseline(rng: random.Random) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """A valid snapshot: every source covered, names unique, no dangling dependency."""
    compiled = {s: "v1" for s in SOURCES}
    index = dict(article(s, "v1") for s in SOURCES)
    names = rng.sample(NAMES, 4)
    for name in names:
        index.update([concept(name, rng.choice(SOURCES), "v1")])
    for _ in range(4):
        a, b = rng.sample(names, 2)
        rid, entry = relation(a.lower(), b.lower(), rng.choice(SOURCES), "v1")
        index[rid] = entry
    assert final_problems(index, compiled) == []
    return index, compiled


def changed(rng: random.Random, index: dict[str, dict[str, Any]], compiled: dict[str, str]) -> tuple[Overlay, dict[str, str], list[str]]:
    """An increment, right or wrong: sources compiled anew or withdrawn (their objects revoked, or —
    wrongly — not), objects removed and added with clashing names, dangling or stale citations."""
    overlay: Overlay[Any] = Overlay(index)
    after = dict(compiled)
    recompiled: list[str] = []
    for source in rng.sample(SOURCES, rng.randint(0, 2)):
        recompiled.append(source)
        if rng.random() < 0.3:
            del after[source]  # withdrawn
        else:
            after[source] = "v2"
        if rng.random() < 0.8:  # revoked, as R12 does
            for oid in [o for o, e in index.items() if source in e["sources"]]:
                overlay.pop(oid)
        if source in after and rng.random() < 0.8:
            overlay.__setitem__(*article(source, "v2"))
    for oid in rng.sample(sorted(index), rng.randint(0, 2)):
        overlay.pop(oid)  # removed alone: what depended on it dangles
    for _ in range(rng.randint(0, 3)):
        source = rng.choice(SOURCES)
        version = rng.choice(["v1", "v2"])
        name = rng.choice(NAMES)
        aliases = [rng.choice(NAMES)] if rng.random() < 0.3 else []
        oid, entry = concept(name + ("x" if rng.random() < 0.5 else ""), source, version, aliases)
        overlay[oid] = entry
    if rng.random() < 0.5:
        a, b = rng.sample([o.split("/")[1] for o in index if o.startswith("concept/")], 2)
        rid, entry = relation(a, b, rng.choice(SOURCES), rng.choice(["v1", "v2"]))
        overlay[rid] = entry
    return overlay, after, recompiled


def split(problems: list[str]) -> tuple[list[str], set[str]]:
    """(every problem but name clashes, sorted; the ids in a name clash): the whole check reports a
    clash once per later holder, the changed check once per changed holder."""
    names = [p for p in problems if "is also used by" in p]
    held = {p.split(":")[0] for p in names} | {p.rsplit(" ", 1)[1] for p in names}
    return sorted(p for p in problems if p not in names), held


def test_the_changed_check_finds_what_the_whole_check_finds():
    """R28."""
    found = {"stale": 0, "used by": 0, "covers": 0, "dangling": 0, "clean": 0}
    for seed in range(400):
        rng = random.Random(seed)
        index, compiled = baseline(rng)
        overlay, after, recompiled = changed(rng, index, compiled)
        whole = final_problems(dict(overlay), after)
        assert split(changed_problems(overlay, IndexLookup(index), after, recompiled)) == split(whole), seed
        for word in found:
            found[word] += any(word in p for p in whole)
        found["clean"] += not whole
    assert all(found.values()), found  # every kind of problem, and clean increments, were tried


def test_a_name_an_unchanged_concept_holds_is_refused():
    """R28."""
    index = dict([article("s0", "v1"), concept("Pod", "s0", "v1")])
    overlay: Overlay[Any] = Overlay(index)
    overlay.__setitem__(*concept("Pods", "s0", "v1", aliases=["pod"]))
    assert changed_problems(overlay, IndexLookup(index), {"s0": "v1"}, []) == [
        "concept/pods: name or alias 'pod' is also used by concept/pod"
    ]


def test_overlay_reads_its_base_only_for_what_it_did_not_change():
    base = {"a": {"n": 1}, "b": {"n": 2}}
    overlay: Overlay[Any] = Overlay(base)
    overlay["c"] = {"n": 3}
    overlay["b"] = {"n": 2}  # the same record again: not a change
    del overlay["a"]
    assert dict(overlay) == {"b": {"n": 2}, "c": {"n": 3}} and len(overlay) == 2
    assert overlay.touched() == {"a", "c"} and overlay.added() == 1 and "a" not in overlay
    overlay["a"] = {"n": 9}
    assert overlay.touched() == {"a", "c"} and overlay.removed == set()
