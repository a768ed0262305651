"""The answer builder (wikigen.model.answers): file names from questions, the citations asked for, and
the source text written for an answer filed back."""

from __future__ import annotations

import pytest

from wikigen.evidence.passages import passages
from wikigen.model.answers import (
    MAX_SLUG_CHARS,
    Cited,
    Quote,
    answer_path,
    answer_slug,
    answer_text,
    parse_citations,
)
from wikigen.model.config import Config
from wikigen.model.errors import UsageError
from wikigen.model.sources import Source, parse_source

CONTAINERS = Quote(
    source="knowledge/containers",
    path="content/sources/knowledge/containers.md",
    version="22206e91eeb46a2d",
    text="Containers restart according to the restart policy of their pod.",
)
PODS = Quote(
    source="knowledge/pods",
    path="content/sources/knowledge/pods.md",
    version="5b5d23526f25c234",
    text="A pod is scheduled onto a node.\n\nThe scheduler scores every feasible node before binding.",
)


def test_the_file_name_comes_from_the_question_alone():
    """R40: the same question always names the same file; case, spacing and punctuation do not count."""
    assert answer_slug("What restarts a container?") == "what-restarts-a-container"
    assert answer_slug("  what RESTARTS a   container ") == "what-restarts-a-container"
    assert answer_slug("Qu'est-ce qu'un Pod ?") == "qu-est-ce-qu-un-pod"
    assert answer_slug("什么是 Pod？") == "什么是-pod"
    assert answer_path("What is a Pod?", "content/sources") == "content/sources/knowledge/answers/what-is-a-pod.md"
    assert answer_path("What is a Pod?", "docs", folder_categories=False) == "docs/answers/what-is-a-pod.md"


def test_a_long_or_wordless_question_gets_a_short_name_ending_in_its_hash():
    """R40: a long question is cut at a word and keeps a hash of the whole, so two long questions
    that share their first words stay apart; a question without words still gets a name."""
    long_a = "Why " + "does the scheduler score every feasible node " * 4 + "before binding A?"
    long_b = "Why " + "does the scheduler score every feasible node " * 4 + "before binding B?"
    slug_a, slug_b = answer_slug(long_a), answer_slug(long_b)
    assert len(slug_a) <= MAX_SLUG_CHARS and slug_a.startswith("why-does-the-scheduler-score")
    assert slug_a != slug_b and slug_a == answer_slug(long_a)
    assert answer_slug("???").startswith("answer-") and answer_slug("???") != answer_slug("!!!")
    with pytest.raises(UsageError, match="question is empty"):
        answer_slug("   ")


def test_a_question_in_a_script_of_wide_characters_still_fits_a_file_name():
    """R40: a file name holds at most 255 bytes; eighty characters of four UTF-8 bytes each would
    not, so the slug is cut by bytes too, at a character, and ends in the question's hash."""
    question = "\U00020000" * 80 + "?"  # a CJK ideograph outside the BMP: four bytes, a word character
    slug = answer_slug(question)
    assert len((slug + ".md").encode("utf-8")) <= 255
    assert slug == answer_slug(question) and slug.rsplit("-", 1)[1].isalnum()


def test_the_answer_is_a_valid_source_that_names_its_origin_and_quotes():
    """R1, E1: the text written is a source `check` accepts — knowledge, unverified, from an agent,
    with the question — and each quote is a passage of its own, attributed to its source."""
    text = answer_text("What restarts a container?", "A **Restart Policy** decides it.\n\n", [CONTAINERS, PODS])
    parsed = parse_source("content/sources/knowledge/answers/what-restarts-a-container.md", text.encode(), "0" * 40, Config())
    assert isinstance(parsed, Source), parsed
    assert (parsed.id, parsed.category, parsed.verification, parsed.title) == (
        "knowledge/answers/what-restarts-a-container", "knowledge", "unverified", "What restarts a container?"
    )
    assert parsed.metadata["question"] == "What restarts a container?" and parsed.metadata["origin"] == "agent"
    assert parsed.metadata["cites"] == [
        {"source": "knowledge/containers", "version": "22206e91eeb46a2d"},
        {"source": "knowledge/pods", "version": "5b5d23526f25c234"},
    ]
    assert parsed.body.startswith("A **Restart Policy** decides it.\n\n## Quotes\n")
    assert "> The scheduler scores every feasible node before binding.\n" in parsed.body
    assert "— `knowledge/containers` (`content/sources/knowledge/containers.md`, version `22206e91eeb46a2d`)" in parsed.body
    quoted = [p.text for p in passages(parsed.body)]
    assert CONTAINERS.text in quoted and "The scheduler scores every feasible node before binding." in quoted


def test_the_same_answer_gives_the_same_bytes():
    """R25: nothing in the text depends on time or order of calls, so filing it twice changes nothing."""
    assert answer_text("Q?", "An answer.", [CONTAINERS]) == answer_text(" Q? ", "An answer.\n", [CONTAINERS])
    with pytest.raises(UsageError, match="answer is empty"):
        answer_text("Q?", "  \n", [CONTAINERS])


def test_a_citation_is_a_source_with_a_quote_or_a_citation_id():
    """R22: a citation names what to check — a source and its words, or a passage from search."""
    assert Cited.from_json({"source": "knowledge/pods", "quote": " the smallest deployable unit of all \n"}, 1) == Cited(
        source="knowledge/pods", quote="the smallest deployable unit of all"
    )
    assert Cited.from_json({"citation_id": "07ebc9540443"}, 1) == Cited(citation_id="07ebc9540443")
    assert Cited.from_flag("knowledge/pods: the smallest deployable unit: of all", 1) == Cited(
        source="knowledge/pods", quote="the smallest deployable unit: of all"
    )
    assert Cited.from_flag("07ebc9540443", 1) == Cited(citation_id="07ebc9540443")
    refused = {
        "unknown key": {"source": "knowledge/pods", "quote": "q" * 30, "page": 3},
        "source and a quote": {"source": "knowledge/pods"},
        "not both": {"source": "knowledge/pods", "citation_id": "07ebc9540443"},
        "12 hexadecimal": {"citation_id": "xyz"},
        "proves nothing": {"source": "knowledge/pods", "quote": "a pod"},
        "must be a string": {"source": "knowledge/pods", "quote": 42},
    }
    for words, data in refused.items():
        with pytest.raises(UsageError, match=words):
            Cited.from_json(data, 1)
    with pytest.raises(UsageError, match="neither SOURCE:QUOTE nor a citation id"):
        Cited.from_flag("knowledge/pods", 2)


def test_an_answer_needs_at_least_one_citation_and_repeats_none():
    """R22: an answer with no quote to check is no evidence; a citation given twice counts once."""
    with pytest.raises(UsageError, match="at least one citation"):
        parse_citations([])
    twice = {"source": "knowledge/pods", "quote": "the smallest deployable unit of all"}
    assert len(parse_citations([twice, dict(twice)])) == 1
