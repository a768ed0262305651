"""The offline engine (R20): ranked extractive articles, defined concepts, explicit relations."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wikigen.compiler.context import recheck_request
from wikigen.engines.contract import STAGES, Engine
from wikigen.engines.offline.engine import ROUTE, OfflineEngine
from wikigen.evidence.passages import passages
from wikigen.evidence.rerank import Ranker
from wikigen.model.errors import EngineError
from wikigen.model.hashing import canonical_bytes
from wikigen.model.ids import concept_id, normalize_name, normalize_predicate

POD_DOC = (
    "A **Pod** is the smallest deployable unit of computing that you can create and manage in Kubernetes.\n\n"
    "A **Deployment** is an object that provides declarative updates for Pods and ReplicaSets.\n\n"
    "A Deployment manages ReplicaSets and every ReplicaSet creates Pods from its template.\n"
)


@pytest.fixture(scope="session", autouse=True)
def ranker() -> Iterator[Ranker]:
    yield Ranker.shared()  # loaded once for the whole session


def make_request(
    *bodies: str,
    titles: Sequence[str] = (),
    fragments: Sequence[tuple[str, str]] = (),
    anchors: Sequence[Mapping[str, Any]] = (),
    relations: Sequence[Mapping[str, Any]] = (),
    revoked: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """A request for changed sources ``knowledge/s0…`` and fragments (source id, text) of others."""
    sources = [
        {
            "id": f"knowledge/s{i}",
            "version": f"v{i}",
            "title": titles[i] if i < len(titles) else f"Source {i}",
            "category": "knowledge",
            "verification": "unverified",
            "body": body,
        }
        for i, body in enumerate(bodies)
    ]
    return {
        "stage": "analyze",
        "rules": "test",
        "sources": sources,
        "fragments": [
            {
                "source": source,
                "version": "f1",
                "title": source,
                "lines": {"start": 1, "end": text.count("\n") + 1},
                "text": text,
            }
            for source, text in fragments
        ],
        "anchors": list(anchors),
        "articles": [],
        "relations": list(relations),
        "revoked": list(revoked),
        "withdrawn": [],
    }


def run(request: Mapping[str, Any], stage: str = "analyze", engine: Engine | None = None) -> dict[str, Any]:
    engine = engine or OfflineEngine()
    delta = engine.run(stage, {**request, "stage": stage}, time.monotonic() + 300, threading.Event())
    assert delta.route == ROUTE and delta.model == "all-MiniLM-L6-v2-int8"
    assert delta.usage.as_json() == {"input": None, "cached_input": None, "output": None, "reasoning": None}
    return dict(delta.data)


def recheck(request: Mapping[str, Any], analyzed: Mapping[str, Any]) -> dict[str, Any]:
    """Recheck as the pipeline calls it: on what it checks, never analyze's whole request (R19)."""
    return run(recheck_request(request, analyzed), "recheck")


def all_quotes(delta: Mapping[str, Any]) -> Iterator[Mapping[str, str]]:
    for article in delta["articles"]:
        claims = [*article["summary"], *(c for s in article.get("sections", []) for c in s["claims"])]
        for claim in claims:
            yield from claim["quotes"]
    for concept in delta["concepts"]:
        yield from concept["definition"]["quotes"]
        yield from concept.get("evidence", [])
    for relation in delta["relations"]:
        yield from relation["evidence"]
    for topic in delta["topics"]:
        for claim in topic.get("summary", []):
            yield from claim["quotes"]


def assert_verbatim(delta: Mapping[str, Any], request: Mapping[str, Any]) -> None:
    """R22: every quote is a substring of its changed body or of one fragment's text."""
    bodies = {s["id"]: s["body"] for s in request["sources"]}
    for quote in all_quotes(delta):
        assert quote["quote"], quote
        texts = [bodies[quote["source"]]] if quote["source"] in bodies else []
        texts += [f["text"] for f in request["fragments"] if f["source"] == quote["source"]]
        assert any(quote["quote"] in text for text in texts), quote


def concepts_by_name(delta: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {normalize_name(c["name"]): c for c in delta["concepts"]}


def triples(delta: Mapping[str, Any]) -> set[tuple[str, str, str]]:
    return {(r["subject"], r["predicate"], r["object"]) for r in delta["relations"]}


def test_the_offline_engine_runs_both_stages_locally_and_refuses_an_unknown_one() -> None:
    """R19: the offline engine is not remote, routes analyze and recheck to the same local model, and
    refuses an unknown stage."""
    engine = OfflineEngine()
    assert engine.name == "offline" and engine.remote is False
    assert (
        [engine.route(stage) for stage in STAGES] == [ROUTE, ROUTE] == ["offline/all-MiniLM-L6-v2-int8"] * 2
    )
    with pytest.raises(EngineError, match="unknown stage"):
        run(make_request(POD_DOC), "summarize")


def test_cancel_and_deadline_raise_engine_error() -> None:
    """R19."""
    request = make_request(POD_DOC)
    cancelled = threading.Event()
    cancelled.set()
    with pytest.raises(EngineError, match="cancelled"):
        OfflineEngine().run("analyze", request, time.monotonic() + 60, cancelled)
    with pytest.raises(EngineError, match="deadline"):
        OfflineEngine().run("analyze", request, time.monotonic() - 1, threading.Event())


def test_same_request_gives_byte_identical_delta() -> None:
    """R20."""
    request = make_request(POD_DOC, "## Labels\n\n_Labels_ are key/value pairs that are attached to Pods.\n")
    first = OfflineEngine().run("analyze", request, time.monotonic() + 300, threading.Event())
    second = OfflineEngine().run("analyze", request, time.monotonic() + 300, threading.Event())
    assert first.to_bytes() == second.to_bytes()
    rechecked = [canonical_bytes(recheck(request, first.data)) for _ in range(2)]
    assert rechecked[0] == rechecked[1]


def test_every_quote_is_verbatim_in_its_body_or_fragment() -> None:
    """R22."""
    request = make_request(
        POD_DOC,
        "# Nodes\n\n> Worker machines.\n\n- **Node**: a Node is a worker machine that runs Pods.\n\n"
        "| a | b |\n|---|---|\n| table | cells are not sentences |\n",
        fragments=[("knowledge/old", "The kubelet runs on every Node and starts Pods.\nNext line.")],
        anchors=[{"id": "concept/kubelet", "name": "kubelet", "aliases": [], "type": "component"}],
    )
    analyzed = run(request)
    assert_verbatim(analyzed, request)
    assert_verbatim(recheck(request, analyzed), request)


def test_ranking_changes_cited_passages_from_document_order() -> None:
    """R20."""
    off_topic = [
        "Whisk the eggs with the sugar until pale, then fold in the flour and bake for twenty minutes.",
        "The harbour ferry leaves at dawn and returns after the fishing boats have unloaded their catch.",
        "Paint the fence twice with a weatherproof varnish and let it dry in the afternoon sun.",
    ]
    on_topic = [
        "The scheduler assigns each Pod to a node that has enough free CPU and memory for its containers.",
        "Pod scheduling filters nodes by resource requests, taints and affinity, then scores the rest.",
        "When no node fits a Pod, the scheduler keeps the Pod pending and retries scheduling later.",
    ]
    body = "\n\n".join(off_topic + on_topic) + "\n"
    article = run(make_request(body, titles=["Pod scheduling on nodes"]))["articles"][0]
    cited = [claim["quotes"][0]["quote"] for claim in article["summary"]]
    in_document_order = [p.text for p in passages(body)][:3]
    assert cited != in_document_order
    assert cited == on_topic


def test_sections_follow_headings_with_best_passages() -> None:
    """R20."""
    body = (
        "Intro paragraph that introduces the page and its subject at some length here.\n\n"
        "## Storage\n\nThe cafeteria opens at noon and serves soup, bread and a choice of two salads.\n\n"
        "Volumes give containers in a Pod a shared storage directory that outlives restarts.\n\n"
        "The harbour ferry leaves at dawn and returns after the fishing boats have unloaded.\n\n"
        "#### Detail\n\nA PersistentVolume is storage in the cluster that an administrator provisioned.\n\n"
        "### Ephemeral volumes\n\nEphemeral volumes follow the Pod's lifetime and are deleted with it.\n"
    )
    article = run(make_request(body, titles=["Volumes"]))["articles"][0]
    sections = {s["heading"]: [c["quotes"][0]["quote"] for c in s["claims"]] for s in article["sections"]}
    assert list(sections) == ["Storage", "Ephemeral volumes"]  # "####" belongs to its "##" section
    # R20: the summary takes the passage that best covers the page (here the "####" one), and
    # no passage is cited twice, so the section keeps its own best one; off-topic text stays out.
    summary = [c["quotes"][0]["quote"] for c in article["summary"]]
    assert summary == ["A PersistentVolume is storage in the cluster that an administrator provisioned."]
    assert sections["Storage"] == [
        "Volumes give containers in a Pod a shared storage directory that outlives restarts."
    ]
    assert sections["Ephemeral volumes"] == [
        "Ephemeral volumes follow the Pod's lifetime and are deleted with it."
    ]


def test_source_without_passages_still_gets_a_cited_article() -> None:
    """R20."""
    request = make_request("# x\n\nshort\n", "\n  tiny  \n")
    articles = run(request)["articles"]
    assert [a["sources"] for a in articles] == [["knowledge/s0"], ["knowledge/s1"]]
    assert [a["summary"][0]["quotes"][0]["quote"] for a in articles] == ["# x\n\nshort", "tiny"]


def test_concepts_come_from_bold_terms_copulas_and_glossary_lists() -> None:
    """R20."""
    body = (
        "A **Widget** is a reusable part that a Gadget mounts at start-up.\n\n"
        "The Container Runtime Interface (CRI) is the plugin interface between the kubelet and runtimes.\n\n"
        "kube-proxy\n: Maintains network rules on nodes so that Services reach their Pods.\n\n"
        "- **Sprocket wheel**: a toothed wheel that drives the chain of the assembly line.\n\n"
        "The Sprocket wheel turns twice per cycle of the line.\n\n"
        "An API server proxies a request to a peer that serves the resource. "
        "This mechanism is called the _Mixed Version Proxy_.\n"
    )
    concepts = concepts_by_name(run(make_request(body)))
    assert {
        "widget",
        "container runtime interface",
        "kube-proxy",
        "sprocket wheel",
        "mixed version proxy",
    } <= set(concepts)
    assert concepts["container runtime interface"]["aliases"] == ["CRI"]
    assert concepts["kube-proxy"]["name"] == "kube-proxy"  # the code form, not "Kube-proxy"
    assert concepts["widget"]["definition"]["quotes"][0]["quote"].startswith(
        "A **Widget** is a reusable part"
    )
    # "This mechanism …" is quoted with the sentence it points to, never across a blank line
    assert concepts["mixed version proxy"]["definition"]["quotes"][0]["quote"].startswith("An API server proxies")


def test_plural_term_gets_singular_name_and_plural_alias() -> None:
    """R20."""
    body = "_Labels_ are key/value pairs that are attached to objects.\n\nEach label has a key and a value.\n"
    concept = concepts_by_name(run(make_request(body)))["label"]
    assert (concept["name"], concept["aliases"]) == ("Label", ["Labels"])


def test_stop_list_headings_never_become_concepts() -> None:
    """R20."""
    body = (
        "## What's next\n\n**What's next** is a list of pages to read after this one.\n\n"
        "## See also\n\n**See also** is a section with related links for the reader.\n\n"
        "- **Note**: the note is a reminder that this page is an example only.\n\n"
        "- **Example**: an example is a small case that shows how a Widget is used.\n\n"
        "## First Steps\n\nThe first step is to set up your farm and add a Widget.\n\n"
        "This is a page that describes something. It is a test of the stop-list rules.\n"
    )
    names = set(concepts_by_name(run(make_request(body))))
    assert not names & {"what's next", "see also", "note", "example", "this", "it", "first step"}


def test_heading_alone_is_not_a_concept() -> None:
    """R20."""
    heading_only = "## Frobnicator\n\nSet the dial to seven and wait until the lamp turns green.\n"
    assert run(make_request(heading_only))["concepts"] == []
    defined = heading_only + "\nThe frobnicator is a device that polishes the gears of the clock.\n"
    assert list(concepts_by_name(run(make_request(defined)))) == ["frobnicator"]


def test_relation_needs_one_sentence_with_both_concepts_and_a_predicate() -> None:
    """R20."""
    same_page = POD_DOC + "\nA ReplicaSet is a controller object that keeps replicas running.\n"
    analyzed = run(make_request(same_page))
    assert ("Deployment", "manages", "ReplicaSet") in triples(analyzed)
    (relation,) = [r for r in analyzed["relations"] if r["predicate"] == "manages"]
    assert relation["basis"] == "explicit" and "uncertainty" not in relation
    assert relation["evidence"] == [
        {
            "source": "knowledge/s0",
            "quote": "A Deployment manages ReplicaSets and every ReplicaSet creates Pods from its template.",
        }
    ]
    # Two concepts on one page, even in one sentence, make no relation without a predicate.
    no_verb = POD_DOC.replace(
        "A Deployment manages ReplicaSets and every", "Deployments, ReplicaSets and every"
    )
    assert ("Deployment", "manages", "ReplicaSet") not in triples(run(make_request(no_verb)))


def test_relations_turn_passives_around_and_skip_negations_and_prepositional_nouns() -> None:
    """R20."""
    body = (
        "A **Pod** is a group of containers that share storage and a network namespace.\n\n"
        "A **Node** is a worker machine, virtual or physical, that runs the workloads.\n\n"
        "A **Volume** is a directory that the containers in a Pod can read and write.\n\n"
        "A Node does not delete Pods. Each Volume in a Pod uses a Node. Volumes are mounted by Pods.\n"
    )
    found = triples(run(make_request(body)))
    assert ("Pod", "mounts", "Volume") in found  # passive: the agent after "by" is the subject
    assert ("Node", "deletes", "Pod") not in found  # negated
    assert ("Pod", "uses", "Node") not in found  # "in a Pod" is not the subject


def test_a_function_named_without_its_arity_relates_as_code_or_by_its_kind() -> None:
    """R20: `sow/1` is also "the sow functions" and `sow`, but not the English verb
    ("sow the seeds")."""
    body = (
        "## `sow/1`\n\nThe `sow/1` function plants one seed in a furrow of the field.\n\n"
        "A **Seeder** is a machine that plants rows of seeds.\n\n"
        "Seeders build on top of the sow functions to plant whole rows.\n\n"
        "Farmers sow the seeds before a Seeder arrives.\n"
    )
    found = triples(run(make_request(body)))
    assert ("Seeder", "builds on", "sow/1") in found
    assert not {t for t in found if t[0] == "sow/1" or (t[2] == "sow/1" and t[1] != "builds on")}


def test_a_lower_case_code_name_is_a_field_not_the_capitalized_concept() -> None:
    """R20: "`pasture` and `barn`" as a metric's labels are fields, not the concept
    Pasture; the word in prose still names it."""
    body = (
        "A **Pasture** is a fenced field where the herd grazes.\n\n"
        "A **Tag** is a key that the shepherd attaches to a sheep.\n\n"
        "A pasture contains a Tag. Each report includes two tags: `pasture` and `flock`.\n"
    )
    found = triples(run(make_request(body)))
    assert ("Pasture", "contains", "Tag") in found
    assert ("Pasture", "is a", "Tag") not in found  # `pasture` names a tag here, not the Pasture


def test_code_written_with_other_capitals_does_not_define_the_term() -> None:
    """R20: "`dry` is a flag …" defines the flag `dry`, not the condition `Dry` the section is about;
    code written with other capitals names another identifier."""
    body = (
        "## Conditions\n\n### Dry\n\nThe `Dry` condition of a barn is set when its hay is dry. "
        "A barn with the `Dry` condition can take a harvest.\n\n"
        "`dry` is a flag that maps to a barn's `Dry` condition.\n"
    )
    concepts = concepts_by_name(run(make_request(body)))
    assert not any(
        q["quote"].startswith("`dry` is") for c in concepts.values() for q in c["definition"]["quotes"]
    )


def test_a_name_the_example_code_defines_needs_a_sentence_that_says_what_it_is() -> None:
    """R20: `Tally` and `count`, defined by the example's code ("defprotocol Tally do"), are the
    example's own; what the example's protocol expects or does makes neither a concept, while
    "`Tally` is a protocol that …" says what it is."""
    body = (
        "## Counting\n\nWe could write a generic `Tally` protocol that every barn would implement:\n\n"
        "```elixir\ndefprotocol Tally do\n  def count(barn)\nend\n```\n\n"
        "The `Tally` protocol expects a function called `count` that receives one barn. "
        "The `Tally` protocol now works for every barn of the farm.\n"
    )
    assert concepts_by_name(run(make_request(body))) == {}
    defined = body + "\n`Tally` is a protocol that counts the sheep of a barn.\n"
    concepts = concepts_by_name(run(make_request(defined)))
    assert set(concepts) == {"tally"}
    assert concepts["tally"]["definition"]["quotes"][0]["quote"].startswith("`Tally` is a protocol")


def test_a_capitalized_word_inside_a_sentence_is_not_the_lower_case_concept() -> None:
    """R20, one word in two senses: "Tiller sells …", capitalized inside a sentence, names something
    else (a company, a library) than the `tiller` command, a concept named in lower case; so does
    "Tiller buys …" opening a sentence, where the sources write that capital inside one too. The
    command as the sentence writes it still names it, and so does a capital that only ever opens a
    sentence ("Ploughman leases …" of `ploughman`)."""
    tiller = {"id": "concept/tiller", "name": "tiller", "aliases": [], "type": "command"}
    ploughman = {"id": "concept/ploughman", "name": "ploughman", "aliases": [], "type": "command"}
    body = (
        "A **Pasture** is a fenced field where the herd grazes.\n\n"
        "The `tiller` command prepares a Pasture. In spring, Tiller sells a Pasture to each farmer.\n\n"
        "Tiller buys a Pasture from each farmer. Ploughman leases a Pasture to the herd.\n"
    )
    found = triples(run(make_request(body, anchors=[tiller, ploughman])))
    assert ("concept/tiller", "prepares", "Pasture") in found
    assert ("concept/tiller", "sells", "Pasture") not in found
    assert ("concept/tiller", "buys", "Pasture") not in found
    assert ("concept/ploughman", "leases", "Pasture") in found


def test_a_lower_case_word_is_not_the_concept_the_sources_always_capitalize() -> None:
    """R20, one word in two senses: where the sentences write "Harvest" with its capital nearly
    everywhere (the kind), "performs a harvest" is the common noun, another sense."""
    body = (
        "A **Harvest** is an object that gathers the crop of one field.\n\n"
        "A **Reaper** is a machine that cuts the grain.\n\n"
        "Each Harvest runs once a year. A Harvest keeps a log. The Harvest stops in winter. "
        "Every Harvest has a name. The Harvest controller starts it.\n\n"
        "Each Reaper performs a harvest in the west field. A Reaper stores the Harvest in a barn.\n"
    )
    found = triples(run(make_request(body)))
    assert ("Reaper", "performs", "Harvest") not in found
    assert ("Reaper", "stores", "Harvest") in found


def test_recheck_finds_fragment_relation_and_repeats_none() -> None:
    """R19."""
    gadget = {"id": "concept/gadget", "name": "Gadget", "aliases": ["Gadgets"], "type": "component"}
    request = make_request(
        "A **Widget** is a reusable part of the assembly line.\n\nA Widget needs a Gadget to work.\n",
        fragments=[("knowledge/old", "Every Widget uses a Gadget while the line is running.")],
        anchors=[gadget],
    )
    analyzed = run(request)
    assert analyzed["relations"] == []  # the only stating sentence is in a fragment
    rechecked = recheck(request, analyzed)
    assert {k: v for k, v in rechecked.items() if k != "relations"} == {
        "articles": [],
        "concepts": [],
        "topics": [],
    }
    assert rechecked["relations"] == [
        {
            "subject": "Widget",
            "predicate": "uses",
            "object": "concept/gadget",
            "basis": "explicit",
            "evidence": [
                {"source": "knowledge/old", "quote": "Every Widget uses a Gadget while the line is running."}
            ],
        }
    ]
    # Already in analyze's delta, or already live among the request's relations: not repeated.
    assert recheck(request, {**analyzed, "relations": rechecked["relations"]})["relations"] == []
    live = {
        "id": "relation/x",
        "subject": concept_id("Widget"),
        "predicate": "Uses",
        "object": "concept/gadget",
        "basis": "explicit",
    }
    assert recheck({**request, "relations": [live]}, analyzed)["relations"] == []


def test_an_anchor_named_again_stays_as_it_is() -> None:
    """R25/R12: a live concept that a changed source names again keeps its definition, evidence and
    citations: the engine does not return it (its citations would grow with every source that names
    it, and an edit of any of them would revoke it with all its relations); relations reach it by id."""
    anchor = {"id": "concept/pod", "name": "Pod", "aliases": ["Pods"], "type": "resource"}
    body = (
        "**Pods** are the smallest deployable units that Kubernetes manages for you.\n\n"
        "A **Sidecar** is a helper container that runs beside the main container.\n\n"
        "Every Sidecar shares the network of its Pod.\n"
    )
    delta = run(make_request(body, anchors=[anchor]))
    assert [c["name"] for c in delta["concepts"]] == ["Sidecar"]
    assert any(r["object"] == "concept/pod" for r in delta["relations"])


def test_alias_of_pages_make_no_alias_collisions() -> None:
    """R26."""
    titles = ["pw-play", "pw-record", "gnubase64", "pw-cat"]
    bodies = [
        "# pw-play\n\n> This command is an alias of `pw-cat --playback`.\n\n- View documentation:\n\n`tldr pw-cat`\n",
        "# pw-record\n\n> This command is an alias of `pw-cat --record`.\n\n- View documentation:\n\n`tldr pw-cat`\n",
        "# gnubase64\n\n> This command is an alias of GNU `base64`.\n\n- View documentation:\n\n`tldr base64`\n",
        "# pw-cat\n\n> Play and record audio files through PipeWire.\n\n- Play a file:\n\n`pw-cat --playback {{path/to/file.wav}}`\n",
    ]
    anchor = {"id": "concept/base64", "name": "base64", "aliases": [], "type": "command"}
    delta = run(make_request(*bodies, titles=titles, anchors=[anchor]))
    assert sorted(c["name"] for c in delta["concepts"]) == sorted(titles)
    assert all(c["type"] == "command" and c["aliases"] == [] for c in delta["concepts"])
    assert_unambiguous(delta, [anchor])


def test_epistemic_status_is_kept() -> None:
    """R37."""
    expected = {
        "We suspect the cache was cold, but this is an unconfirmed hypothesis about the outage.": "hypothesis",
        "We should consider adding a warm-up step; this is a proposal and it is not yet done.": "suggestion",
        "Why did the import take so long on the second night of the migration?": "question",
        "The import finished after four hours and all records were copied to the new store.": "stated",
    }
    body = "".join(f"## Part {i}\n\n{text}\n\n" for i, text in enumerate(expected))
    article = run(make_request(body, titles=["Import retrospective"]))["articles"][0]
    claims = [*article["summary"], *(c for s in article["sections"] for c in s["claims"])]
    assert {c["quotes"][0]["quote"]: c["status"] for c in claims} == expected


def test_revoked_concept_is_rebuilt_from_a_fragment() -> None:
    """R12."""
    revoked = {
        "id": "concept/sprocket",
        "kind": "concept",
        "label": "Sprocket",
        "aliases": ["Sprockets"],
        "type": "term",
    }
    request = make_request(
        "An unrelated page about the weather in spring and the birds that come back.\n",
        fragments=[("knowledge/old", "A Sprocket is a toothed wheel that drives the chain.")],
        revoked=[revoked],
    )
    (concept,) = run(request)["concepts"]
    assert (concept["name"], concept["type"], concept["aliases"]) == ("Sprocket", "term", ["Sprockets"])
    assert concept["definition"]["quotes"] == [
        {"source": "knowledge/old", "quote": "A Sprocket is a toothed wheel that drives the chain."}
    ]


def test_topics_are_left_to_the_compilers_topic_rule() -> None:
    """R20: the offline engine returns no topics of an increment; the compiler derives topics by
    meaning from the merged objects (wikigen.compiler.topics, tests/test_topics.py)."""
    definition = "A **Widget** is a reusable part of the assembly line that other parts attach to.\n"
    uses = [
        f"Page {i} explains how the Widget is painted in colour number {i} before shipping.\n"
        for i in range(3)
    ]
    delta = run(make_request(definition, *uses))
    assert delta["topics"] == []
    assert OfflineEngine.derives_topics is True


def assert_unambiguous(delta: Mapping[str, Any], anchors: Sequence[Mapping[str, Any]]) -> None:
    """R26: no name or alias shared by two concepts or a concept and another anchor; no self-loops or
    duplicate relations."""
    anchor_owner = {normalize_name(f): a["id"] for a in anchors for f in [a["name"], *a["aliases"]]}
    owner: dict[str, str] = {}
    for concept in delta["concepts"]:
        me = anchor_owner.get(normalize_name(concept["name"]), concept_id(concept["name"]))
        for form in {normalize_name(f) for f in [concept["name"], *concept.get("aliases", [])]}:
            assert owner.setdefault(form, me) == me, form
            assert anchor_owner.get(form, me) == me, form
    seen = set()
    for relation in delta["relations"]:
        key = (
            normalize_name(relation["subject"]),
            normalize_predicate(relation["predicate"]),
            normalize_name(relation["object"]),
        )
        assert key[0] != key[2] and key not in seen, key
        seen.add(key)


NAMES = ["Widget", "Gadget", "Pod", "Pods", "Node", "kube-proxy", "ReplicaSet", "Control plane", "CRI"]
TEMPLATES = [
    "A **{a}** is a part that holds the {b} in place.",
    "The {a} is a component that {b} uses.",
    "{a} uses {b} while running.",
    "The {a} manages the {b} and the {a}.",
    "{a} and {b} are both described on this page.",
    "## {a}\n\nSome text about {b} and nothing else.",
    "{a}\n: A term that names {b} in the glossary.",
    "- **{a}**: {b} contains {a}, see {b}.",
    "`{a}` is an alias of `{b}`.",
    "{a} ({b}) is a thing that {a} creates.",
]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.lists(
            st.tuples(st.sampled_from(TEMPLATES), st.sampled_from(NAMES), st.sampled_from(NAMES)),
            min_size=1,
            max_size=6,
        ),
        min_size=1,
        max_size=3,
    )
)
def test_random_bodies_keep_quotes_verbatim_names_unique_and_no_loops(
    docs: list[list[tuple[str, str, str]]],
) -> None:
    """R26."""
    bodies = ["\n\n".join(t.format(a=a, b=b) for t, a, b in doc) + "\n" for doc in docs]
    anchors = [{"id": "concept/gadget", "name": "Gadget", "aliases": ["Gizmo"], "type": "concept"}]
    request = make_request(*bodies, anchors=anchors)
    analyzed = run(request)
    assert_verbatim(analyzed, request)
    assert_unambiguous(analyzed, anchors)
    rechecked = recheck(request, analyzed)
    assert_verbatim(rechecked, request)
    assert_unambiguous({"concepts": [], "relations": analyzed["relations"] + rechecked["relations"]}, anchors)


def test_delta_is_byte_identical_across_processes(tmp_path) -> None:
    """R20: Set order and hash seeds never leak into the delta: two fresh processes agree byte for byte."""
    import json
    import os
    import subprocess
    import sys

    request = make_request(
        POD_DOC,
        "_Labels_ are key/value pairs that are attached to objects such as Pods.\n\n"
        "A Deployment uses Labels and every Deployment manages ReplicaSets.\n",
        fragments=[("knowledge/old", "Every Pod uses a Node while the ReplicaSet is running.")],
        anchors=[{"id": "concept/node", "name": "Node", "aliases": ["Nodes"], "type": "resource"}],
    )
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request), encoding="utf-8")
    script = (
        "import json, sys, threading, time\n"
        "from wikigen.engines.offline.engine import OfflineEngine\n"
        "from wikigen.model.hashing import canonical_bytes\n"
        "request = json.loads(open(sys.argv[1], encoding='utf-8').read())\n"
        "engine, cancel = OfflineEngine(), threading.Event()\n"
        "first = engine.run('analyze', request, time.monotonic() + 300, cancel).data\n"
        "second = engine.run('recheck', {**request, 'delta': first}, time.monotonic() + 300, cancel).data\n"
        "sys.stdout.buffer.write(canonical_bytes([first, second]))\n"
    )
    outputs = [
        subprocess.run(
            [sys.executable, "-c", script, str(path)],
            capture_output=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    ]
    assert outputs[0] == outputs[1]
    analyzed = run(request)
    assert outputs[0] == canonical_bytes([analyzed, recheck(request, analyzed)])


def test_a_large_increment_never_changes_its_articles() -> None:
    """R15: An article is a function of its source: a big increment trims concept evidence, not articles."""
    words = ["scheduler", "node", "pod", "volume", "label", "taint", "quota", "lease", "probe", "image"]
    sections = []
    for i in range(40):
        passage = " ".join(f"{words[(i + j) % 10]}{j}" for j in range(100)) + "."
        sections.append(f"## Part {i}\n\n{passage}\n\nSecond {passage}\n\nThird {passage}\n")
    first, second = "\n".join(sections[:20]), "\n".join(sections[20:])
    request = make_request(first, second)
    assert len(canonical_bytes(request["sources"])) > 90_000
    analyzed = run(request)
    assert_verbatim(analyzed, request)
    # The passages here repeat each other, so an article cites few of them (no two claims say
    # the same); what matters is that neither article is trimmed by the size of the increment.
    assert analyzed["articles"][0] == run(make_request(first))["articles"][0]
    assert analyzed["articles"][1:] == run(make_request("", second))["articles"]  # "" has no article


def test_a_glossary_entry_that_names_itself_again_defines_nothing() -> None:
    """R20, precision first: "Hay stack\\n: For cluster-wide hay stack storage" explains the term by
    itself (the entry of a glossary that only says what the term is for, in its own words); an
    entry whose gloss says it in other words defines it."""
    body = (
        "Hay stack\n: For cluster-wide hay stack storage on every farm.\n\n"
        "Hay loft\n: Keeps dry fodder above the stables of every farm.\n"
    )
    concepts = concepts_by_name(run(make_request(body)))
    assert "hay loft" in concepts
    assert "hay stack" not in concepts


def test_a_page_lead_is_cut_at_a_sentence_end_not_at_an_abbreviation() -> None:
    """R20: "… showing commits and "active days" i.e. total number of days …" goes on after "i.e.";
    the lead's first sentence is the whole of it, and a second sentence stays out."""
    body = (
        "# hay-effort\n\n> Show how much work a field has had, and \"active days\" i.e. days that"
        " touched the field. More information: the farm handbook.\n\n- Show each field:\n\n`hay-effort`\n"
    )
    concept = concepts_by_name(run(make_request(body, titles=["hay-effort"])))["hay-effort"]
    assert concept["definition"]["quotes"][0]["quote"] == (
        "Show how much work a field has had, and \"active days\" i.e. days that touched the field."
    )
