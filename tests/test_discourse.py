"""Sentences that lean on their surroundings and pages of events (R20: the offline engine)."""

from __future__ import annotations

import pytest

from wikigen.engines.offline.discourse import (
    LEANS,
    Lean,
    leaning,
    lists_events,
    points_back,
    points_back_by_noun,
)
from wikigen.engines.offline.parse import Parser
from wikigen.engines.offline.text import visible


def _parse(text: str):  # type: ignore[no-untyped-def]
    clean = visible(text)
    return Parser.shared().parse_all([clean])[clean.text]


def _term(parse, word: str):  # type: ignore[no-untyped-def]
    """The word a row reads as its term (its first occurrence, any case); None for a row without one."""
    return next((w for w in parse.words if w.text.casefold() == word.casefold()), None) if word else None


@pytest.mark.parametrize("lean", LEANS, ids=[lean.name for lean in LEANS])
def test_each_leaning_form_fires_on_its_example_and_not_on_its_counter_example(lean: Lean) -> None:
    """R20: a definition stands on its own; each leaning form is a row proved by two sentences."""
    fires, clear = _parse(lean.fires_on), _parse(lean.not_on)
    term, clear_term = _term(fires, lean.term), _term(clear, lean.term)
    assert lean.test(lean.fires_on, fires, term)
    assert not lean.test(lean.not_on, clear, clear_term)
    assert leaning(lean.fires_on, fires, term) == lean.name
    assert leaning(lean.not_on, clear, clear_term) is None


def test_a_naming_sentence_never_leans() -> None:
    """R20: "we call these X" names X; the engine quotes it with the sentence it points back to."""
    text = "We call these short-lived helpers gizmos."
    assert leaning(text, _parse(text)) is None


@pytest.mark.parametrize(
    "text",
    [
        "However, since version 2, the gizmo kit simply installs every gizmo.",
        "On the other hand, a gizmo keeps no state.",
        "Nevertheless, gizmos need no special words.",
    ],
)
def test_a_sentence_that_opens_on_a_contrast_leans_on_the_one_before(text: str) -> None:
    """R20: "However, …" sets the sentence against what the text said before: it goes on from it,
    and defines nothing on its own."""
    assert leaning(text, _parse(text)) == "connective"


def test_a_naming_fragment_without_its_subject_leans() -> None:
    """R20: "Also known as gizmos." names nothing on its own: what it names is in the sentence before."""
    text = "Also known as gizmos."
    assert leaning(text, _parse(text)) == "connective"


@pytest.mark.parametrize(
    ("source", "title", "expected"),
    [
        ("knowledge/release-notes", "Release Notes", True),
        ("knowledge/CHANGELOG", "", True),
        ("docs/whats-new", "What's new", True),
        ("knowledge/tldr/common/history", "history", False),
        ("knowledge/tutorial/options", "CLI Options", False),
        ("knowledge/concepts/history-of-gizmos", "How gizmos came to be", False),
        ("docs/change_log/release-2.6", "Python-Markdown 2.6", True),
        ("docs/about/releases/9.0", "9.0 Migration Notes", True),
        ("knowledge/tldr/common/git-release", "git release", False),
    ],
)
def test_release_notes_and_changelogs_are_pages_of_events(source: str, title: str, expected: bool) -> None:
    """R20: a release-notes page lists events, which define no concept; so does every page in a
    changelog's or releases' folder ("change_log/release-2.6"), whatever its own title."""
    assert lists_events(source, title) is expected


def _concepts(sources: list[tuple[str, str, str]]) -> dict[str, str]:
    import threading
    import time

    from wikigen.engines.offline.documents import Guard
    from wikigen.engines.offline.engine import analyze

    request = {
        "sources": [{"id": i, "title": t, "body": b} for i, t, b in sources],
        "fragments": [],
        "anchors": [],
        "relations": [],
        "revoked": [],
    }
    delta = analyze(request, Guard(time.monotonic() + 300, threading.Event(), "analyze"))
    return {c["name"]: c["definition"]["quotes"][0]["quote"] for c in delta["concepts"]}


def test_a_step_that_goes_on_from_the_sentence_before_defines_nothing() -> None:
    """R20: "Then you can run *gizmotest* …" is a step: the emphasized term gets no definition from
    it, while a sentence that says what the term is still defines it."""
    body = (
        "# Checking\n\n"
        "Write the checks next to the code. Then you can run *gizmotest* in your folder to check it:\n\n"
        "A *sprocket* is a small wheel that turns the main shaft.\n\n"
        "Each sprocket is checked by gizmotest. Sprockets wear out.\n"
    )
    found = _concepts([("knowledge/checking", "Checking", body)])
    assert "Gizmotest" not in found and "gizmotest" not in found
    assert found["Sprocket"] == "A *sprocket* is a small wheel that turns the main shaft."


def test_a_sentence_saying_one_thing_is_an_emphasized_term_defines_the_term_only_by_name() -> None:
    """R20: "This is already a simple *gizmo runner*" says what the code shown is an instance of, not
    what a gizmo runner is; "The `>>` sign above is the **feed operator**" names the sign it points
    at, and stays a definition."""
    body = (
        "# Runners\n\n"
        "Write the loop first. This is already a simple *gizmo runner* for the shop:\n\n"
        "Each of them can also be a small *gizmo runner* on its own.\n\n"
        "The `>>` sign used in the line above is the **feed operator**: it passes a gizmo on.\n\n"
        "Use the feed operator between two gizmo runners. A feed operator joins gizmo runners.\n"
    )
    found = _concepts([("knowledge/runners", "Runners", body)])
    assert not {"Gizmo runner", "gizmo runner"} & set(found)
    assert found["Feed operator"].startswith("The `>>` sign used in the line above is the **feed operator**")


def test_a_sentence_a_code_block_interrupted_defines_nothing_from_its_second_half() -> None:
    """R20: "are called *spoke parameters*" after a code block goes on from a sentence before the
    block; the quote has no subject, so it names nothing a reader can look up from it."""
    body = (
        "# Spokes\n\n"
        "In a wheel function, the values inside the parentheses in:\n\n"
        "```python\ndef wheel(hub, rim):\n    pass\n```\n\n"
        "are called \"spoke parameters\" or \"spoke arguments\".\n\n"
        "Spoke parameters turn the rim. Every wheel has spoke parameters.\n"
    )
    found = _concepts([("knowledge/spokes", "Spokes", body)])
    assert not any(quote.startswith("are called") for quote in found.values())


def test_a_release_notes_page_defines_no_concept_and_states_no_relation() -> None:
    """R20: the items of release notes are events ("Fix support for …"), not definitions."""
    notes = "# Release Notes\n\n## 1.2.0\n\n* A *sprocket* is now a wheel of the shaft.\n* Fix support for sprockets.\n"
    guide = "# Sprockets\n\nA *shaft* is the rod that carries the wheels. Every shaft turns.\n"
    found = _concepts([("knowledge/release-notes", "Release Notes", notes), ("knowledge/sprockets", "Sprockets", guide)])
    assert "Sprocket" not in found
    assert found["Shaft"] == "A *shaft* is the rod that carries the wheels."


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("These two functions can be imported from the package directly:", True),
        ("Here we have a custom panel named after the options it groups.", True),
        ("In the example above, the alias is only valid inside the function.", True),
        ("Similarly, values like 0 and the empty string are truthy.", True),
        ("**The same** way, commands can take their own options.", True),
        ("This page explains the proxies a cluster uses.", False),
        ("These documents list the add-ons a cluster may run.", False),
        ("It is sometimes useful for a container to know its own name.", False),
        ("A Pod is a group of one or more containers.", False),
        ("Thesaurus entries are sorted by headword.", False),
    ],
)
def test_a_passage_that_points_at_text_before_it_is_told_from_one_about_its_page(text: str, points: bool) -> None:
    """R20: a summary pick must stand alone; "These two functions …" points back, "This page …"
    points at the page itself (read from the text alone)."""
    assert points_back(text) is points


@pytest.mark.parametrize(
    ("text", "leans"),
    [
        ("The farm does this classification based on the size of each crate.", True),
        ("Most commonly, those crates will be plain wooden boxes.", True),
        ("So, growers call them crates.", False),  # a connective and a pronoun: quoted together
        ("This page explains how crates are sorted.", False),  # the page itself
        ("Growers sort the crates by the size of the apples.", False),
        ("You can either sort the crates or stack the crates that growers bring.", False),  # "that" relates
    ],
)
def test_a_sentence_that_points_back_by_a_noun(text: str, leans: bool) -> None:
    """R20: "… does this classification …" names what the text before described; a sentence quoted
    before "This process is called X" must not point back so itself."""
    assert points_back_by_noun(_parse(text)) is leans


def test_a_naming_joined_to_a_sentence_that_leans_too_defines_nothing() -> None:
    """R20: "The farm does this classification … This process is called the _grading line_." quoted
    together still lean on what "this classification" was; "A grower sorts each crate by … This
    process is called the _grading line_." defines it."""
    leaning_body = (
        "# Sorting\n\nThe farm does this classification based on the size of each crate in the barn. "
        "This process is called the _grading line_.\n"
    )
    assert _concepts([("knowledge/sorting", "Sorting", leaning_body)]) == {}
    standing = "# Sorting\n\nA grower sorts each crate by the size of its apples. This process is called the _grading line_.\n"
    assert _concepts([("knowledge/sorting", "Sorting", standing)])["Grading line"].startswith("A grower sorts")
