"""R20/R23: the relations the offline engine draws mean what the sentence says — the copula's
direction follows class and instance, a denied or conditional clause states nothing, and the
predicate keeps the object phrase it needs. Sources written for these tests (not copied from any
corpus); each names both endpoints as concepts it defines."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from wikigen.engines.offline.candidates import parses
from wikigen.engines.offline.decision import Decision
from wikigen.engines.offline.documents import Guard, read_document
from wikigen.engines.offline.drawing import draw_relations
from wikigen.engines.offline.engine import analyze
from wikigen.model.ids import concept_id

DEFINITIONS = (
    "A **queue** is a collection that hands out items in the order they arrived.\n\n"
    "A **ring buffer** is a fixed array whose end wraps around to its start.\n\n"
    "A **stack** is a pile of values that hands out the newest first.\n\n"
    "A **collection** is a value that groups other values.\n\n"
    "A **deque** keeps items at both of its ends.\n\n"
    "A **handler** is a function that the dispatcher runs for one event.\n\n"
    "An **argument** is a value passed to a function.\n\n"
    "A **write lock** is a lock that admits one writer.\n\n"
    "A **cursor** is a pointer that walks through shared data.\n\n"
    "A **scheduler** is a program that runs tasks in turn.\n\n"
)


def stated_by(sentence: str) -> set[tuple[str, str, str]]:
    """The relations (subject, predicate, object) the offline engine's analyze draws from
    ``sentence``, set after the definitions of its concepts (in a paragraph long enough to be a
    passage)."""
    relations = _drawn_relations(f"{DEFINITIONS}{sentence} The notes say no more on the matter.\n")
    return {
        (r["subject"].casefold(), r["predicate"], r["object"].casefold())
        for r in relations
        if any(e["quote"] == sentence for e in r["evidence"])
    }


def _drawn_relations(body: str) -> list[dict[str, Any]]:
    """The relations the offline engine's analyze draws from one source with ``body``."""
    request: dict[str, Any] = {
        "sources": [{"id": "knowledge/notes", "title": "Notes", "body": body}],
        "fragments": [],
        "anchors": [],
        "relations": [],
        "revoked": [],
    }
    return list(analyze(request, Guard(time.monotonic() + 300, threading.Event(), "analyze"))["relations"])


@pytest.mark.parametrize(
    "sentence",
    [
        "The simplest kind of queue is a ring buffer.",
        "Another type of queue is the ring buffer.",
        "One of the queues is the ring buffer.",
        "The most common queue is the ring buffer.",
        "A ring buffer is a kind of queue.",
    ],
)
def test_a_copula_whose_subject_picks_one_of_a_kind_makes_the_predicate_nominal_the_instance(
    sentence: str,
) -> None:
    """R20/R23: "the simplest kind of X is Y", "one of the Xs is Y", "the most common X is Y" and
    "Y is a kind of X": Y is an X, never X a Y."""
    assert stated_by(sentence) == {("ring buffer", "is a", "queue")}


@pytest.mark.parametrize(
    "sentence",
    [
        "The type of a queue is a ring buffer.",  # an attribute of one queue, not a kind of queue
        "Every kind of queue is a ring buffer.",  # what each kind is, no one instance picked
    ],
)
def test_a_copula_about_a_kind_as_a_whole_draws_no_instance(sentence: str) -> None:
    """R20/R23: a subject that picks no one member of the kind states no "is a" in either direction."""
    assert not {r for r in stated_by(sentence) if r[1] == "is a"}


def test_members_listed_with_such_as_are_of_the_plural_class() -> None:
    """R20/R23: "Xs such as Y and Z" makes Y and Z kinds of X; a singular noun is no class."""
    assert stated_by("Collections such as stacks and queues keep their items in order.") == {
        ("stack", "is a", "collection"),
        ("queue", "is a", "collection"),
    }
    assert not {r for r in stated_by("The deque holds a collection, such as a stack.") if r[1] == "is a"}


@pytest.mark.parametrize(
    "sentence",
    [
        "The scheduler drops tasks that are bound to collections such as stacks and queues.",
        "Use a deque, because it keeps tasks that sit in collections such as stacks and queues.",
        "The scheduler reads the tasks kept in collections such as stacks and queues.",
    ],
)
def test_a_such_as_list_inside_a_subordinate_clause_classifies_nothing(sentence: str) -> None:
    """R20/R23: the noun of a "such as" list inside a relative, adverbial or participial clause is
    named on the way to what the clause says of something else: its members are examples there."""
    assert not {r for r in stated_by(sentence) if r[1] == "is a"}
    assert ("stack", "is a", "collection") in stated_by("Collections such as stacks and queues keep items.")


def test_an_indefinite_apposition_gives_the_class_of_what_it_follows() -> None:
    """R20/R23: "X, a Y that …" makes X a Y; a list set off by commas is no apposition."""
    assert ("deque", "is a", "queue") in stated_by(
        "The scheduler keeps its tasks in a deque, a queue that opens at both ends."
    )
    assert not {
        r
        for r in stated_by("The scheduler reads three values, a stack, a queue and a deque.")
        if r[1] == "is a"
    }


def test_a_name_used_to_refer_to_some_of_a_kind_is_one_of_that_kind() -> None:
    """R20/R23: "We'll use *deque* to refer to those *queues* that …" (or "the term _deque_") names
    some queues, so a deque is a queue; "… to refer to both, *stacks* and *queues*" names the two
    together, so each is one; "use a deque to hold the queues …" names nothing."""
    assert ("deque", "is a", "queue") in stated_by("We'll use *deque* to refer to those *queues* that open at both ends.")
    assert ("deque", "is a", "queue") in stated_by(
        "This note uses the term _deque_ to refer to queues that open at both ends."
    )
    both = stated_by("We will use *collection* to refer to both, *stacks* and *queues*.")
    assert {("stack", "is a", "collection"), ("queue", "is a", "collection")} <= both
    assert not {r for r in stated_by("We use a deque to hold the queues that open at both ends.") if r[1] == "is a"}


def test_a_name_given_to_parts_together_names_a_whole_of_them() -> None:
    """R20/R23: "Together, a stack and a queue are referred to as a collection", "A combination of
    a handler and a write lock is called a scheduler": the whole the name is given to consists of
    each part; without "together" (or "a combination of") the sentence only names them."""
    together = stated_by("Together, a stack and a queue are referred to as a collection.")
    assert {("collection", "consists of", "stack"), ("collection", "consists of", "queue")} <= together
    combined = stated_by("A combination of a handler and a write lock is called a scheduler.")
    assert {("scheduler", "consists of", "handler"), ("scheduler", "consists of", "write lock")} <= combined
    assert stated_by("A stack and a queue are referred to as a collection.") == set()


def test_a_class_glossing_a_name_after_a_colon_gives_its_class() -> None:
    """R20/R23: "… about ring buffers: stacks that wrap around" glosses the name before the colon
    with its class, a noun its own clause narrows; a bare noun after the colon is no gloss."""
    assert ("ring buffer", "is a", "stack") in stated_by("This note is about ring buffers: stacks that wrap around.")
    assert not {r for r in stated_by("This note is about ring buffers: stacks.") if r[1] == "is a"}


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Handlers take arguments from the dispatcher.", {("handler", "takes", "argument")}),
        ("Handlers take no arguments.", set()),
        ("A handler is a function that takes no arguments.", set()),
        ("Handlers rarely take arguments.", set()),
        ("A handler returns queues, not stacks.", {("handler", "returns", "queue")}),
        ("A handler returns either a queue or a stack.", set()),
    ],
)
def test_a_denied_object_is_no_object(sentence: str, expected: set[tuple[str, str, str]]) -> None:
    """R20/R23: "takes no arguments", "not stacks", "either … or", "rarely": what the sentence
    denies or leaves open is stated of nothing."""
    assert {r for r in stated_by(sentence) if r[1] != "is a"} == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("A cursor holds a write lock during each commit.", {("cursor", "holds", "write lock")}),
        ("A cursor cannot hold two write locks at the same time.", set()),
        ("The scheduler waits when a cursor holds a write lock.", set()),
        ("The scheduler waits until a cursor releases the write lock.", set()),
        ("A cursor holds the write lock as long as the queue is full.", set()),
    ],
)
def test_a_clause_under_a_condition_states_nothing_as_a_fact(
    sentence: str, expected: set[tuple[str, str, str]]
) -> None:
    """R20/R23: "cannot", "when …", "until …", "as long as …": a denied clause or one that holds on a
    condition draws no relation."""
    assert {r for r in stated_by(sentence) if r[0] == "cursor"} == expected


def test_the_predicate_keeps_the_object_phrase_it_needs() -> None:
    """R20/R23: "provides access to X" is not "provides X"."""
    assert stated_by("The scheduler provides access to the queue.") == {
        ("scheduler", "provides access to", "queue")
    }
    assert stated_by("The scheduler adds support for stacks.") == {("scheduler", "adds support for", "stack")}


def test_a_predicate_that_would_drop_its_object_is_not_drawn() -> None:
    """R20/R23: "sets an immutable flag `busy` on every queue" sets the flag on queues: its object, a
    name in code, cannot stand in the predicate ("sets busy on"), and "sets on" without it says
    nothing; a plain noun object can ("assigns labels to")."""
    assert stated_by("The scheduler sets an immutable flag `busy` on every queue.") == set()
    assert stated_by("The scheduler assigns labels to every queue.") == {("scheduler", "assigns labels to", "queue")}


def _drawn(body: str) -> set[tuple[str, str, str]]:
    return {(r["subject"].casefold(), r["predicate"], r["object"].casefold()) for r in _drawn_relations(body)}


@pytest.mark.parametrize("marker", ["1.", "2)"])
def test_a_step_of_a_numbered_procedure_states_no_relation(marker: str) -> None:
    """R20: "1. The kubelet tells the API server to remove the Pod." is one step of a procedure, done
    to one object at one time; the same sentence as a paragraph or a bullet states a fact."""
    step = "The scheduler passes an argument to the handler."
    intro = "When an event arrives, the dispatcher goes through these steps in turn:\n\n"
    relation = ("scheduler", "passes", "argument")
    numbered = f"{DEFINITIONS}{intro}{marker} {step}\n{marker} The notes say no more on the matter.\n"
    assert relation not in _drawn(numbered)
    assert relation in _drawn(f"{DEFINITIONS}{intro}- {step}\n- The notes say no more on the matter.\n")
    assert relation in _drawn(f"{DEFINITIONS}{step} The notes say no more on the matter.\n")


def _drawn_with_fragments(sources: list[str], fragments: list[str], counted: int | None) -> set[tuple[str, str, str]]:
    """The relations drawn from ``sources`` read beside ``fragments`` (as a recheck reads them), the
    first ``counted`` documents being the increment's sources (all, with None)."""
    documents = [read_document(f"knowledge/s{i}", f"Page {i}", body) for i, body in enumerate(sources)]
    documents += [read_document(f"knowledge/f{i}", f"Part {i}", body) for i, body in enumerate(fragments)]
    named = [("Tavola", ["Tavola", "Tavolas"]), ("handler", ["handler"])]
    guard = Guard(time.monotonic() + 300, threading.Event(), "recheck")
    drawn = draw_relations(documents, parses(documents), named, set(), guard, concept_id, Decision(), counted)
    return {(r["subject"], r["predicate"], r["object"]) for r in drawn}


def test_a_product_is_counted_over_the_increments_sources_and_is_the_subject_of_what_it_offers() -> None:
    """R20/R23: a product (or a language) is a name most of the increment's *sources* mention, always
    written one way with every word capitalized; the fragments a recheck reads beside them (the lines
    its anchors' definitions cite) are no sources, however many there are. Of a product a sentence
    states what it offers ("Tavola supports …"), not each thing it does ("Tavola restarts each
    handler that fails", one case of one step). A kind, written in the plural too, is no product."""
    sources = [
        "Tavola restarts each handler that fails. Tavola supports each handler.\n",
        "Tavola runs on a farm. The weather in Tavola is mild.\n",
        "Tavola keeps a calendar. Tavola has a mill.\n",
    ]
    fragments = [f"A handler is a function the dispatcher runs for event {n}.\n" for n in range(4)]
    restarts = ("Tavola", "restarts", "handler")
    supports = ("Tavola", "supports", "handler")
    assert _drawn_with_fragments(sources, fragments, counted=3) >= {supports}
    assert restarts not in _drawn_with_fragments(sources, fragments, counted=3)
    # counted over all seven documents, Tavola (in three) is no product, and it restarts handlers
    assert {restarts, supports} <= _drawn_with_fragments(sources, fragments, counted=None)
    # "the Tavolas of the valley": a name written two ways is a kind
    kind = [*sources[:2], "The Tavolas of the valley keep a calendar. Tavola has a mill.\n"]
    assert restarts in _drawn_with_fragments(kind, fragments, counted=3)
