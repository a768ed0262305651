"""Topics by meaning: the compiler's topic rule over the merged objects, on real temporary
git repos with a scripted engine whose topics the compiler derives (R12, R24, R25, R28, R29, R32)."""

from __future__ import annotations

from typing import Any

from tests.conftest import GitRepo, source
from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.compiler.topics import TOPIC_ROUTE, TopicPlan, build_topic, plan_topics
from wikigen.engines.scripted import ScriptedEngine
from wikigen.model.ids import normalize_name
from wikigen.model.objects import object_path, parse_object
from wikigen.model.snapshot import Snapshot

K = "content/sources/knowledge"

HUB = "Intro about the hub.\n\nConcept Hub: the Hub is where every part of the assembly meets.\n"


def neighbour(name: str, predicate: str) -> str:
    """A source that defines one concept and relates it to the Hub, both in its own lines."""
    return f"About {name}.\n\nConcept {name}: {name} is one part of the assembly.\n\nREL Hub -{predicate}-> {name}.\n"


SOURCES = {
    f"{K}/hub.md": source(HUB, title="Hub"),
    f"{K}/alpha.md": source(neighbour("Alpha", "uses"), title="Alpha"),
    f"{K}/beta.md": source(neighbour("Beta", "feeds"), title="Beta"),
    f"{K}/gamma.md": source(neighbour("Gamma", "guards"), title="Gamma"),
    f"{K}/delta.md": source(neighbour("Delta", "powers"), title="Delta"),
}


def deriving() -> ScriptedEngine:
    return ScriptedEngine(extract, derives_topics=True)


def snapshot_at(repo: GitRepo, rev: str = "HEAD") -> Snapshot:
    return repo.snapshot(rev)


def topics(repo: GitRepo, rev: str = "HEAD") -> dict[str, bytes]:
    """Topic file path → its committed bytes."""
    snap = snapshot_at(repo, rev)
    return {
        e["file"]: repo.repo.revparse_single(f"{rev}:{e['file']}").data
        for oid, e in snap.objects.items()
        if e["kind"] == "topic"
    }


def topic_objects(repo: GitRepo) -> list[dict[str, Any]]:
    return [parse_object(data) for data in topics(repo).values()]


def assert_titles_unique_and_summaries_present(repo: GitRepo) -> None:
    objs = topic_objects(repo)
    titles = [normalize_name(t["title"]) for t in objs]
    assert len(titles) == len(set(titles))
    assert all(t["summary"] and all(c["citations"] for c in t["summary"]) for t in objs)


def test_topic_rule_anchor_with_three_relations_gets_one_topic_titled_by_it(git_repo: GitRepo):
    """Topic rule, R28, R32: a concept with >= 3 related concepts anchors exactly one topic, titled by
    its name, whose summary is its and its neighbours' definitions with their citations copied
    exactly; its provenance is the compiler's topic rule, and `wikigen verify` accepts it."""
    git_repo.commit({k: v for k, v in SOURCES.items() if "delta" not in k})
    engine = deriving()
    report = compile_repo(git_repo.root, engine=engine)
    assert report.published and engine.calls == 2
    (topic,) = topic_objects(git_repo)
    assert topic["title"] == "Hub" and topic["anchor"] == "concept/hub"
    assert topic["members"] == sorted(
        ["concept/hub", "concept/alpha", "concept/beta", "concept/gamma", "article/knowledge--hub",
         "article/knowledge--alpha", "article/knowledge--beta", "article/knowledge--gamma"]
    )
    hub = parse_object(git_repo.read(object_path("concept/hub")).encode())
    alpha = parse_object(git_repo.read(object_path("concept/alpha")).encode())
    assert topic["summary"][0] == hub["definition"]
    assert topic["summary"][1] == alpha["definition"]  # all weigh 1: neighbours by name
    assert len(topic["summary"]) == 4
    copied = {c["citation_id"]: c for c in [*hub["citations"], *alpha["citations"]]}
    assert all(copied[c["citation_id"]] == c for c in topic["citations"] if c["citation_id"] in copied)
    snap = snapshot_at(git_repo)
    (entry,) = [e for e in snap.objects.values() if e["kind"] == "topic"]
    assert entry["provenance"] == {"snapshot": 1, "route": TOPIC_ROUTE}
    assert sorted(entry["deps"]) == topic["members"]
    assert snap.trace["topics"] == {"route": TOPIC_ROUTE, "added": 1, "updated": 0, "removed": 0}
    assert git_repo.wikigen("verify").code == 0


def test_an_unrelated_compile_leaves_the_topic_byte_identical(git_repo: GitRepo):
    """R24: a compile that touches none of a topic's inputs neither rewrites its file nor its index
    entry (its provenance stays the snapshot that made it, R32)."""
    git_repo.commit(SOURCES)
    compile_repo(git_repo.root, engine=deriving())
    before = topics(git_repo)
    entry_before = {k: v for k, v in snapshot_at(git_repo).objects.items() if k.startswith("topic/")}
    git_repo.commit({f"{K}/zeta.md": source("About zeta.\n\nConcept Zeta: Zeta stands alone.\n", title="Zeta")})
    head = git_repo.head()
    report = compile_repo(git_repo.root, engine=deriving())
    assert report.published
    assert topics(git_repo) == before
    assert {k: v for k, v in snapshot_at(git_repo).objects.items() if k.startswith("topic/")} == entry_before
    changed = git_repo.git("diff", "--name-only", head, "HEAD").stdout.split()
    assert not any(p.startswith("content/wiki/topics/") for p in changed)
    assert snapshot_at(git_repo).trace["topics"] == {"route": TOPIC_ROUTE, "added": 0, "updated": 0, "removed": 0}


def test_a_new_relation_of_the_anchor_revises_its_topic(git_repo: GitRepo):
    """R12/R25 with the topic rule: a relation added to the anchor makes the neighbour a member, so
    the topic is revised (new members, new id from title + members); still one topic titled Hub."""
    git_repo.commit({k: v for k, v in SOURCES.items() if "delta" not in k})
    compile_repo(git_repo.root, engine=deriving())
    (old,) = topic_objects(git_repo)
    git_repo.commit({f"{K}/delta.md": SOURCES[f"{K}/delta.md"]})
    report = compile_repo(git_repo.root, engine=deriving())
    (new,) = topic_objects(git_repo)
    assert new["title"] == "Hub" and new["id"] != old["id"]
    assert set(new["members"]) - set(old["members"]) == {"concept/delta", "article/knowledge--delta"}
    assert len(new["summary"]) == 5  # the anchor and 4 neighbours
    counts = snapshot_at(git_repo).trace["topics"]
    assert counts == {"route": TOPIC_ROUTE, "added": 1, "updated": 0, "removed": 1}
    assert report.increments[0].objects["topic"] == {"added": 1, "updated": 0, "removed": 1}
    assert git_repo.wikigen("verify").code == 0


def test_withdrawing_a_neighbours_source_revises_the_topic_with_no_engine_call(git_repo: GitRepo):
    """R29 with R12's cascade: withdrawing the independent source of a neighbour revokes the topic
    that has it as a member; the compiler re-derives what still qualifies locally — 0 engine calls,
    although the revoked topic still cites valid sources (its other definitions)."""
    git_repo.commit(SOURCES)
    compile_repo(git_repo.root, engine=deriving())
    (old,) = topic_objects(git_repo)
    assert "concept/delta" in old["members"]
    git_repo.commit({f"{K}/delta.md": None})
    engine = deriving()
    report = compile_repo(git_repo.root, engine=engine)
    assert engine.calls == 0 and report.published
    assert report.increments[0].revoked["topic"] == 1
    (new,) = topic_objects(git_repo)
    assert new["title"] == "Hub" and "concept/delta" not in new["members"]
    assert all(c["source"] != "knowledge/delta" for c in new["citations"])
    assert git_repo.wikigen("verify").code == 0
    # One more: the anchor drops under 3 related concepts, and the topic is gone, still locally.
    git_repo.commit({f"{K}/gamma.md": None})
    engine = deriving()
    compile_repo(git_repo.root, engine=engine)
    assert engine.calls == 0 and topics(git_repo) == {}


def test_topic_ids_and_files_do_not_depend_on_increment_order_or_batching(make_repo):
    """R25 (ids never depend on history) for topics: the same objects compiled at once, in two
    different orders of increments, or with --batch one source per increment, give the same topic
    ids and byte-identical topic files."""
    order_a = ["hub", "alpha beta", "gamma delta"]
    order_b = ["hub delta", "gamma", "beta", "alpha"]
    results = []
    for steps in (["hub alpha beta gamma delta"], order_a, order_b):
        repo = make_repo()
        for step in steps:
            repo.commit({f"{K}/{name}.md": SOURCES[f"{K}/{name}.md"] for name in step.split()})
            compile_repo(repo.root, engine=deriving())
        results.append(topics(repo))
    batched = make_repo()
    batched.commit(SOURCES)
    report = compile_repo(batched.root, engine=deriving(), batch=True, overrides={"caps.articles": 2})
    assert len(report.increments) == 5
    results.append(topics(batched))
    assert len(results[0]) == 1
    assert all(r == results[0] for r in results[1:])


def test_no_two_topics_share_a_title_and_engine_topics_give_way(git_repo: GitRepo):
    """Topic rule (no two topics share a title; none without a summary): topics an engine returned
    before its topics were derived — here one titled like the derived one and one with an empty
    summary — are removed at the next compile, locally, and every anchor has its own title."""

    def with_topics(stage: str, request: Any) -> Any:
        delta = extract(stage, request)
        if stage == "analyze":
            delta["topics"] = [
                {"title": "Hub", "members": ["Hub", "Alpha"], "summary": []},
                {"title": "Parts", "members": ["Beta", "Gamma"], "summary": []},
            ]
        return delta

    git_repo.commit({k: v for k, v in SOURCES.items() if "delta" not in k})
    compile_repo(git_repo.root, engine=ScriptedEngine(with_topics))
    assert len(topics(git_repo)) == 2  # the engine's own topics, as before
    second_hub = "Concept Rim: the Rim holds the spokes.\n\nREL Rim -holds-> Alpha.\nREL Rim -turns-> Beta.\nREL Rim -binds-> Delta.\n"
    git_repo.commit({f"{K}/delta.md": SOURCES[f"{K}/delta.md"], f"{K}/rim.md": source(second_hub, title="Rim")})
    engine = deriving()
    compile_repo(git_repo.root, engine=engine)
    assert sorted(t["title"] for t in topic_objects(git_repo)) == ["Hub", "Rim"]
    assert all(e["provenance"]["route"] == TOPIC_ROUTE
               for e in snapshot_at(git_repo).objects.values() if e["kind"] == "topic")
    assert_titles_unique_and_summaries_present(git_repo)
    assert git_repo.wikigen("verify").code == 0


def test_topic_rule_from_the_index_alone_and_caps() -> None:
    """Topic rule: anchors, members and their caps come from the object index without a file read;
    a concept under 3 related concepts anchors nothing; neighbours rank by relation count, then name;
    a topic whose summary would cite nothing is not made."""

    def concept(name: str, articles: list[str]) -> dict[str, Any]:
        return {"kind": "concept", "label": name, "deps": articles, "definitionCitations": ["c"], "sha": name}

    index: dict[str, dict[str, Any]] = {"concept/hub": concept("Hub", ["article/h"]), "article/h": {"kind": "article"}}
    for i in range(30):
        index[f"concept/n{i:02}"] = concept(f"N{i:02}", [f"article/a{i:02}"])
        index[f"article/a{i:02}"] = {"kind": "article"}
        index[f"relation/r{i:02}"] = {"kind": "relation", "subject": "concept/hub", "object": f"concept/n{i:02}"}
    index["relation/extra"] = {"kind": "relation", "subject": "concept/n29", "object": "concept/hub"}
    index["relation/pair"] = {"kind": "relation", "subject": "concept/n00", "object": "concept/n01"}
    (plan,) = plan_topics(index).values()
    assert plan.anchor == "concept/hub" and plan.title == "Hub"
    neighbours = [m for m in plan.members if m.startswith("concept/") and m != "concept/hub"]
    assert len(neighbours) == 24 and "concept/n29" in neighbours  # two relations rank it first
    assert plan.summary == ("concept/hub", "concept/n29", "concept/n00", "concept/n01", "concept/n02")
    articles = [m for m in plan.members if m.startswith("article/")]
    assert len(articles) == 24 and "article/h" in articles and "article/a29" in articles
    assert plan_topics(index) == plan_topics(dict(reversed(list(index.items()))))  # no order effect

    empty = TopicPlan("topic/x-1", "concept/x", "X", ("concept/x",), ("concept/x",), "i")
    assert build_topic(empty, {"concept/x": {"definition": {"text": "X.", "citations": []}, "citations": []}}) is None


def neighbourhood_calls(monkeypatch: Any) -> list[bool]:
    """Whether each increment's topics were planned from its neighbourhood (True) or from every
    anchor (False), as the compile goes."""
    from wikigen.compiler import merge

    near: list[bool] = []
    neighbourhood = merge.topic_neighbourhood

    def spied(*args: Any, **kwargs: Any) -> Any:
        found = neighbourhood(*args, **kwargs)
        near.append(found is not None)
        return found

    monkeypatch.setattr(merge, "topic_neighbourhood", spied)
    return near


def test_topics_planned_from_the_change_s_neighbourhood_equal_those_of_a_compile_from_scratch(
    make_repo, monkeypatch
):
    """R25: an increment plans again only the topics anchored near what it touched,
    reading that neighbourhood (not the whole graph); after every edit the topics are byte for byte
    those of one compile of the same sources in a new repo."""
    import random

    near = neighbourhood_calls(monkeypatch)
    rng = random.Random(7)
    names = [f"Part{i}" for i in range(14)]

    def page(name: str, related: list[tuple[str, str]]) -> str:
        body = f"About {name}.\n\nConcept {name}: {name} is one part of the machine.\n"
        return source(body + "".join(f"\nREL {name} -{p}-> {o}.\n" for p, o in related), title=name)

    links = {n: [(rng.choice(["uses", "feeds", "holds"]), o) for o in rng.sample(names, 3) if o != n] for n in names}
    repo = make_repo()
    repo.commit({f"{K}/{n.lower()}.md": page(n, links[n]) for n in names})
    compile_repo(repo.root, engine=deriving())
    for step in range(6):
        name = rng.choice(names)
        if step == 3:  # a source withdrawn: its concept and relations go
            change: dict[str, str | None] = {f"{K}/{name.lower()}.md": None}
            names.remove(name)
            for n in names:
                links[n] = [(p, o) for p, o in links[n] if o != name]
        else:
            links[name] = [*links[name][1:], ("powers", rng.choice([n for n in names if n != name]))]
            change = {f"{K}/{name.lower()}.md": page(name, links[name])}
        repo.commit(change)
        near.clear()
        assert compile_repo(repo.root, engine=deriving()).published
        assert near == [True]
        scratch = make_repo()
        scratch.commit({f"{K}/{n.lower()}.md": page(n, links[n]) for n in names})
        compile_repo(scratch.root, engine=deriving())
        assert topics(repo) == topics(scratch), step
        assert topics(repo)


def test_a_snapshot_the_rule_made_without_topics_is_still_planned_from_the_neighbourhood(
    git_repo: GitRepo, monkeypatch
):
    """R32: the trace says the topic rule made the parent snapshot, so its topics (here
    none: no concept has three relations yet) are the rule's whole output; the next increment plans
    only near its change, and the anchor it completes gets its topic."""
    near = neighbourhood_calls(monkeypatch)
    git_repo.commit({k: v for k, v in SOURCES.items() if "gamma" not in k and "delta" not in k})
    compile_repo(git_repo.root, engine=deriving())
    assert topics(git_repo) == {} and near == []  # the first snapshot: no parent to plan from
    git_repo.commit({f"{K}/gamma.md": SOURCES[f"{K}/gamma.md"]})
    compile_repo(git_repo.root, engine=deriving())
    assert near == [True]
    assert [t["title"] for t in topic_objects(git_repo)] == ["Hub"]


def test_a_hub_s_topic_planned_from_labels_of_its_many_neighbours_equals_a_compile_from_scratch(make_repo):
    """R25: a hub's topic ranks its 30 neighbours by their labels alone and reads only the 24 it
    keeps; an edit of one neighbour (its definition and a new relation) plans it again, byte for byte
    as a new repo's one compile of the same sources."""
    parts = [f"Spoke{chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(30)]

    def hub() -> str:
        body = "About the hub.\n\nConcept Hub: the Hub is where every spoke meets.\n"
        return source(body + "".join(f"\nREL Hub -holds-> {p}.\n" for p in parts), title="Hub")

    def spoke(name: str, extra: str = "") -> str:
        return source(f"About {name}.\n\nConcept {name}: {name} is one spoke of the wheel.\n{extra}", title=name)

    files = {f"{K}/hub.md": hub(), **{f"{K}/{p.lower()}.md": spoke(p) for p in parts}}
    repo = make_repo()
    repo.commit(files)
    compile_repo(repo.root, engine=deriving())
    edit = {f"{K}/spokeab.md": spoke("SpokeAB", "\nSpokeAB is the first spoke to turn.\n\nREL SpokeAB -turns-> SpokeAC.\n")}
    repo.commit(edit)
    compile_repo(repo.root, engine=deriving())
    scratch = make_repo()
    scratch.commit({**files, **edit})
    compile_repo(scratch.root, engine=deriving())
    assert topics(repo) == topics(scratch)
    hub_topic = next(t for t in topic_objects(repo) if t["title"] == "Hub")
    assert len([m for m in hub_topic["members"] if m.startswith("concept/")]) == 25  # the hub and 24 spokes
