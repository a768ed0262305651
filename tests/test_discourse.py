"""Sentences that lean on their surroundings and pages of events (R20: the offline engine)."""

from __future__ import annotations

import pytest

from wikigen.engines.offline.discourse import LEANS, Lean, leaning, lists_events
from wikigen.engines.offline.parse import Parser
from wikigen.engines.offline.text import visible


def _parse(text: str):  # type: ignore[no-untyped-def]
    clean = visible(text)
    return Parser.shared().parse_all([clean])[clean.text]


@pytest.mark.parametrize("lean", LEANS, ids=[lean.name for lean in LEANS])
def test_each_leaning_form_fires_on_its_example_and_not_on_its_counter_example(lean: Lean) -> None:
    """R20: a definition stands on its own; each leaning form is a row proved by two sentences."""
    assert lean.test(lean.fires_on, _parse(lean.fires_on))
    assert not lean.test(lean.not_on, _parse(lean.not_on))
    assert leaning(lean.fires_on, _parse(lean.fires_on)) == lean.name
    assert leaning(lean.not_on, _parse(lean.not_on)) is None


def test_a_naming_sentence_never_leans() -> None:
    """R20: "we call these X" names X; the engine quotes it with the sentence it points back to."""
    text = "We call these short-lived helpers gizmos."
    assert leaning(text, _parse(text)) is None


@pytest.mark.parametrize(
    ("source", "title", "expected"),
    [
        ("knowledge/release-notes", "Release Notes", True),
        ("knowledge/CHANGELOG", "", True),
        ("docs/whats-new", "What's new", True),
        ("knowledge/tldr/common/history", "history", False),
        ("knowledge/tutorial/options", "CLI Options", False),
        ("knowledge/concepts/history-of-gizmos", "How gizmos came to be", False),
    ],
)
def test_release_notes_and_changelogs_are_pages_of_events(source: str, title: str, expected: bool) -> None:
    """R20: a release-notes page lists events, which define no concept."""
    assert lists_events(source, title) is expected
