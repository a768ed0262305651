"""The judged rows as a regression set (R20): what readers judged `ok` still comes out of the offline
engine, what they judged `wrong` mostly does not — without the corpora.

Every row of ``tests/data/judged/current/`` holds the sentence a reader judged. The test gives the
engine that sentence alone: a concept row as a source titled by the concept's name with the quote as
its text (a tldr page as its lead, ``> quote``), a relation row as its quotes with both endpoints
known as anchors (R14). A row *comes out* when the engine defines the concept by that quote, or
states the relation with that predicate between those endpoints.

Tolerance: per corpus and kind, the share of `ok` rows that come out may fall at most
``SLACK`` under the floor in ``EXPECTED``, and the share of `wrong` rows that come out may rise at
most ``SLACK`` over its ceiling. The figures are what the engine gives today; an engine change that
moves them refits the table in the same commit, with the reason. A sentence alone is not the corpus
(a term defined by its heading or counted across pages comes out differently), so the shares are not
the engine's precision: they catch a rule that stops reading a judged sentence as it did.
"""

from __future__ import annotations

import csv
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from wikigen.engines.offline.documents import Guard
from wikigen.engines.offline.engine import analyze
from wikigen.model.ids import normalize_name

pytestmark = pytest.mark.integration

JUDGED = Path(__file__).parents[1] / "data" / "judged" / "current"
SLACK = 0.03
# corpus, kind: (share of ok rows that come out, share of wrong rows that come out)
EXPECTED: dict[tuple[str, str], tuple[float, float]] = {
    ("elixir", "concepts"): (0.87, 0.159),  # of 77 ok and 82 wrong rows
    ("elixir", "relations"): (0.841, 0.349),  # 107, 43
    ("k8s", "concepts"): (0.85, 0.238),  # 193, 130
    ("k8s", "relations"): (0.687, 0.206),  # 243, 199
    ("tldr", "concepts"): (1.0, 0.533),  # 676, 15
    ("tldr", "relations"): (0.833, 0.0),  # 6, 2
    ("typer", "concepts"): (0.947, 0.091),  # 19, 44
    ("typer", "relations"): (0.818, 0.444),  # 11, 18
}


def _rows(corpus: str, kind: str) -> Iterator[dict[str, str]]:
    with (JUDGED / f"{corpus}-{kind}.tsv").open(newline="", encoding="utf-8") as handle:
        yield from csv.DictReader(handle, delimiter="\t")


def _analyzed(body: str, title: str, anchors: list[dict[str, Any]]) -> dict[str, Any]:
    request = {
        "sources": [{"id": "knowledge/judged", "title": title, "body": body}],
        "fragments": [],
        "anchors": anchors,
        "relations": [],
        "revoked": [],
    }
    return analyze(request, Guard(time.monotonic() + 300, threading.Event(), "analyze"))


def concept_comes_out(corpus: str, row: Mapping[str, str]) -> bool:
    quote = row["quote"].split(" … ")[0].strip()
    body = f"# {row['name']}\n\n{'> ' if corpus == 'tldr' else ''}{quote}\n"
    names = {normalize_name(row["name"])}
    for concept in _analyzed(body, row["name"], [])["concepts"]:
        forms = {normalize_name(concept["name"]), *(normalize_name(a) for a in concept.get("aliases", ()))}
        defined = concept["definition"]["quotes"][0]["quote"]
        if names & forms and (quote in defined or defined in quote):
            return True
    return False


def relation_comes_out(corpus: str, row: Mapping[str, str]) -> bool:
    anchors = [
        {"id": "concept/subject", "name": row["subject"], "aliases": [], "type": "concept"},
        {"id": "concept/object", "name": row["object"], "aliases": [], "type": "concept"},
    ]
    quotes = [q.strip() for q in row["quote"].split(" … ")]
    if corpus == "tldr":  # a page about its command: "This command is an alias of …" is its lead
        title, body = row["subject"], f"# {row['subject']}\n\n" + "".join(f"> {q}\n" for q in quotes)
    else:
        title, body = "Notes", "\n\n".join(quotes) + "\n"
    return any(
        relation["subject"] == "concept/subject"
        and relation["object"] == "concept/object"
        and relation["predicate"] == row["predicate"]
        for relation in _analyzed(body, title, anchors)["relations"]
    )


def shares(corpus: str, kind: str) -> tuple[float, float, int, int]:
    """The share of ok rows and of wrong rows that come out, and how many of each there are."""
    came: dict[str, list[bool]] = {"ok": [], "wrong": []}
    for row in _rows(corpus, kind):
        if kind == "relations" and normalize_name(row["subject"]) == normalize_name(row["object"]):
            continue  # one concept both ends: no pair of anchors can carry it
        out = concept_comes_out(corpus, row) if kind == "concepts" else relation_comes_out(corpus, row)
        came.setdefault(row["verdict"], []).append(out)
    ok, wrong = came["ok"], came["wrong"]
    return (
        round(sum(ok) / len(ok), 3) if ok else 1.0,
        round(sum(wrong) / len(wrong), 3) if wrong else 0.0,
        len(ok),
        len(wrong),
    )


@pytest.mark.parametrize(("corpus", "kind"), sorted(EXPECTED), ids=[f"{c}-{k}" for c, k in sorted(EXPECTED)])
def test_judged_ok_rows_still_come_out_and_wrong_rows_mostly_do_not(corpus: str, kind: str) -> None:
    """R20: each judged sentence is read as its readers' verdict says, within the stated tolerance."""
    ok_floor, wrong_ceiling = EXPECTED[(corpus, kind)]
    ok, wrong, n_ok, n_wrong = shares(corpus, kind)
    assert ok >= ok_floor - SLACK, f"{corpus} {kind}: {ok:.3f} of {n_ok} ok rows come out (floor {ok_floor})"
    assert wrong <= wrong_ceiling + SLACK, (
        f"{corpus} {kind}: {wrong:.3f} of {n_wrong} wrong rows come out (ceiling {wrong_ceiling})"
    )


def test_every_judged_file_has_an_expected_share() -> None:
    """R20: no judged file is left out of the regression set."""
    files = {tuple(p.stem.rsplit("-", 1)) for p in JUDGED.glob("*.tsv")}
    assert files == set(EXPECTED)
