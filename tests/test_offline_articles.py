"""Offline articles that read like a wiki page: markup-free claims (E1), the article's title
(R1), a lead and a covering summary without repeats (R20), and per-sentence status (R37).

Every sentence here was written for these tests.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from wikigen.compiler.resolve import _HEDGES
from wikigen.engines.offline.articles import article_plan, article_title, boilerplate, fit, queries
from wikigen.engines.offline.documents import Scorer, claim, read_document
from wikigen.engines.offline.engine import OfflineEngine
from wikigen.engines.offline.text import status
from wikigen.evidence.rerank import Ranker

TAG = re.compile(r"</?[a-zA-Z][\w-]*(?:\s[^<>]*)?/?>")


@pytest.fixture(scope="module")
def scorer() -> Iterator[Scorer]:
    yield Scorer(Ranker.shared())


def article(
    scorer: Scorer, body: str, title: str = "Notes", source: str = "knowledge/notes"
) -> dict[str, Any]:
    document = read_document(source, title, body)
    scorer.prepare([*(p.text for p in document.passages), *queries(document)])
    plan = article_plan(document, scorer)
    assert plan is not None
    delta: dict[str, Any] = {"concepts": [], "relations": [], "topics": []}
    fit([plan], delta)
    built: dict[str, Any] = delta["articles"][0]
    return built


def claims_of(built: dict[str, Any]) -> list[dict[str, Any]]:
    return [*built["summary"], *(c for s in built.get("sections", []) for c in s["claims"])]


def quotes_of(built: dict[str, Any]) -> list[str]:
    return [c["quotes"][0]["quote"] for c in claims_of(built)]


# ---------------------------------------------------------------------------------------------
# E1 / E2: markup


def test_no_claim_or_definition_shows_raw_html() -> None:
    """E1/E2: a sentence with an inline tag is never a claim, definition or quote (a
    quote is verbatim, so the page would show the tag); a trailing ``<br>`` is cut off the sentence;
    anchor and caption paragraphs are never claims; code spans keep their angle brackets."""
    body = (
        "# Queues\n\n"
        '<a id="queues-anchor-that-is-long-enough"></a>\n\n'
        '<span class="caption">Figure 2: a queue with three waiting messages</span>\n\n'
        "A **Queue** is a <em>first-in, first-out</em> buffer that holds messages<br>until a worker reads them.\n\n"
        "A **Queue** keeps its messages in the order in which they arrived.<br />\n\n"
        "## Workers\n\n"
        "A worker reads one message at a time from a `Queue<Message>` and acknowledges it.\n"
    )
    request = {
        "stage": "analyze",
        "rules": "test",
        "sources": [
            {
                "id": "knowledge/queues",
                "version": "v1",
                "title": "Queues",
                "category": "knowledge",
                "verification": "unverified",
                "body": body,
            }
        ],
        "fragments": [],
        "anchors": [],
        "articles": [],
        "relations": [],
        "revoked": [],
        "withdrawn": [],
    }
    delta = OfflineEngine().run("analyze", request, time.monotonic() + 300, threading.Event()).data
    built = delta["articles"][0]
    texts = [c["text"] for c in claims_of(built)] + [c["definition"]["text"] for c in delta["concepts"]]
    quotes = quotes_of(built) + [q["quote"] for c in delta["concepts"] for q in c["definition"]["quotes"]]
    assert texts and not [t for t in texts + quotes if TAG.search(t.replace("`Queue<Message>`", ""))]
    assert any("`Queue<Message>`" in t for t in texts)
    assert not [q for q in quotes if "caption" in q or "anchor" in q or "first-in" in q]
    queue = next(c for c in delta["concepts"] if c["name"] == "Queue")
    assert queue["definition"]["quotes"][0]["quote"] == (
        "A **Queue** keeps its messages in the order in which they arrived."
    )
    for quote in quotes:
        assert quote in body  # E2: verbatim


# ---------------------------------------------------------------------------------------------
# R1: the article's title


def test_article_title_frontmatter_then_h1_then_first_heading_then_file_name(scorer: Scorer) -> None:
    """R1 (article only): a frontmatter title is kept; an H1 is kept; a chapter that opens with `##`
    gets that heading instead of its file name; a body without headings keeps the file name."""
    prose = "Closures capture the variables of the scope they were defined in, by reference.\n"
    moved = "A move closure takes ownership of what it captures, so it may outlive its scope.\n"
    chapter = f"## Closures and scope\n\n{prose}\n## Capturing by value\n\n{moved}"
    assert article(scorer, chapter, "Closures", "knowledge/ch07-closures")["title"] == "Closures"
    assert article(scorer, f"# Closures explained\n\n{prose}", "Closures explained")["title"] == (
        "Closures explained"
    )
    built = article(scorer, chapter, "ch07-closures", "knowledge/book/ch07-closures")
    assert built["title"] == "Closures and scope"
    assert [s["heading"] for s in built["sections"]] == ["Capturing by value"]  # the title is no section
    assert article(scorer, prose, "ch08-notes", "knowledge/book/ch08-notes")["title"] == "ch08-notes"
    document = read_document("knowledge/x", "x", "#### Only a deep heading\n\n" + prose)
    assert article_title(document) == "Only a deep heading"


# ---------------------------------------------------------------------------------------------
# R20: lead, MMR summary, sections, no repeats


def test_summary_is_the_lead_and_no_two_near_duplicates(scorer: Scorer) -> None:
    """R20: the summary opens with the lead; of two near-duplicate paragraphs at most one is cited,
    anywhere in the article."""
    lead = "A lighthouse keeper tends the lamp and the lens of a coastal lighthouse every night."
    twin_a = "The keeper cleans the lens each morning so that the beam stays bright at night."
    twin_b = "Each morning the keeper cleans the lens so the beam stays bright during the night."
    body = (
        f"# Lighthouse keeping\n\n{lead}\n\n{twin_a}\n\n{twin_b}\n\n"
        "## Lamps\n\nOil lamps were replaced by electric lamps with rotating lenses over the last century.\n\n"
        f"{twin_a}\n\n"
        "## Logs\n\nThe keeper writes the weather, passing ships and lamp hours into the logbook.\n"
    )
    built = article(scorer, body, "Lighthouse keeping")
    summary = [c["quotes"][0]["quote"] for c in built["summary"]]
    assert summary[0] == lead
    cited = quotes_of(built)
    assert len(cited) == len(set(cited)), cited  # no passage twice in one article
    assert not (twin_a in cited and twin_b in cited)


def test_a_page_turn_is_no_claim_and_no_lead(scorer: Scorer) -> None:
    """R20: "Now let's talk about lenses." turns a page; the lead is what the paragraph then says, and
    a paragraph that only turns a page is not a claim at all."""
    turn = "Now let's talk about lenses. "
    lead = "A Fresnel lens bends the lamp's light into one bright beam that ships see from far away."
    body = (
        f"# Lenses\n\n{turn}{lead}\n\nLenses are polished by hand before every winter season.\n\n"
        "With this out of the way, let's look at lamps.\n\n"
        "## Lamps\n\nOil lamps were replaced by electric lamps with rotating lenses over the last century.\n"
    )
    built = article(scorer, body, "Lenses")
    assert built["summary"][0]["quotes"][0]["quote"] == lead
    assert built["summary"][0]["text"] == lead
    assert not any("let's" in q for q in quotes_of(built))


def test_sections_never_repeat_a_summary_passage(scorer: Scorer) -> None:
    """R20: a section cites passages under its heading that the summary did not cite, and a section
    keeps its best passage."""
    body = (
        "# Bread\n\nBread is a staple food made from flour, water and usually yeast, then baked.\n\n"
        "## Dough\n\nKneading develops gluten, which gives the dough its stretch and its structure.\n\n"
        "Dough rises while yeast ferments sugars into carbon dioxide and a little alcohol.\n\n"
        "## Baking\n\nA hot oven sets the crust quickly, and steam keeps the crust thin and crisp.\n\n"
        "The loaf is done when it sounds hollow when tapped on the bottom.\n"
    )
    built = article(scorer, body, "Bread")
    cited = quotes_of(built)
    assert len(cited) == len(set(cited))
    assert [s["heading"] for s in built["sections"]] == ["Dough", "Baking"]
    assert all(s["claims"] for s in built["sections"])


def test_summary_is_never_empty_and_lead_ins_wait(scorer: Scorer) -> None:
    """R20: when every passage is the only one of its section the summary still cites one (a
    summary is required); a lead-in to a code sample is never a summary claim past the lead."""
    body = (
        "## Kettles\n\nA kettle boils water quickly because its element sits right in the water.\n\n"
        "## Teapots\n\nA teapot keeps the leaves in hot water long enough for the tea to steep.\n"
    )
    built = article(scorer, body, "Tea at home")
    assert len(built["summary"]) == 1
    assert len(quotes_of(built)) == len(set(quotes_of(built))) == 2
    lead_in = "To brew a pot of tea for four people, run the following command on the machine:"
    body = (
        "# Tea\n\nTea is an aromatic drink made by pouring hot water over cured tea leaves.\n\n"
        f"## Brewing\n\n{lead_in}\n\n```\nbrew --cups 4\n```\n\n"
        "Brewing green tea with water below boiling keeps it from turning bitter.\n\n"
        "Black tea steeps for three to five minutes in water that has just boiled.\n"
    )
    assert lead_in not in [c["quotes"][0]["quote"] for c in article(scorer, body, "Tea")["summary"]]


def test_a_summary_pick_past_the_lead_never_points_at_text_before_it(scorer: Scorer) -> None:
    """R20: past the lead, the summary takes no passage that opens by pointing back ("These two
    kettles …", "In the example above, …", "Similarly, …"): it leans on a passage it does not quote.
    "This page …" speaks of the page and may lead; the pointing passages stay citable in sections."""
    pointing = [
        "These two kettles boil water faster than a pan because their element sits right in the water.",
        "In the example above, the kettle boils water faster because its element sits in the water.",
        "Similarly, an electric kettle boils water faster because its element sits inside the water.",
    ]
    lead = "This page explains how kettles boil water and why an electric kettle boils it so quickly."
    body = (
        f"# Kettles\n\n{lead}\n\n" + "\n\n".join(pointing) + "\n\n"
        "A kettle boils water quickly because its heating element sits right inside the water.\n\n"
        "## Whistles\n\nA whistling kettle sings when steam escapes through a small hole in its spout.\n"
    )
    built = article(scorer, body, "Kettles")
    summary = [c["quotes"][0]["quote"] for c in built["summary"]]
    assert summary[0] == lead
    assert not set(summary) & set(pointing), summary
    assert "A kettle boils water quickly because its heating element sits right inside the water." in summary


def test_greetings_reader_questions_contributors_and_navigation_are_not_claims(scorer: Scorer) -> None:
    """R20: a wiki page leaves out greetings, questions to the reader, contributor lists and
    navigation lines."""
    noise = [
        "Welcome! We are glad that you are here to learn about gardening with us.",
        "Looking for help with your garden? Our friendly forum answers every question.",
        "Maintainers: Ada Gardener <ada@example.invalid>, Bo Planter <bo@example.invalid>.",
        "Reviewed by @ada-gardener, @bo-planter and @cy-seedling for this release of the guide.",
        "Next: Watering your plants in the summer months, and how often to do it.",
        "See also the chapters about soil, compost and watering for the full picture.",
        "In the next chapter, we will look at pruning fruit trees in late winter.",
    ]
    facts = [
        "Tomatoes need at least six hours of direct sunlight every day to ripen well.",
        "Compost adds nutrients to the soil and helps it hold water during dry weeks.",
    ]
    body = "# Gardening\n\n" + "\n\n".join([noise[0], facts[0], *noise[1:], facts[1]]) + "\n"
    cited = quotes_of(article(scorer, body, "Gardening"))
    assert not set(cited) & set(noise)
    assert [boilerplate(n) for n in noise] == [
        "greeting",
        "question to the reader",
        "contributor list",
        "contributor list",
        "navigation",
        "navigation",
        "navigation",
    ]
    assert [boilerplate(f) for f in facts] == [None, None]
    assert boilerplate("Why did the nightly import take four hours on the second night?") is None


# ---------------------------------------------------------------------------------------------
# R37: status from the claim's own sentence


def test_status_is_decided_from_one_sentence() -> None:
    """R37: modal verbs in plain technical statements are stated; hedges of cause or fact are
    hypotheses; proposals are suggestions; a sentence ending in "?" is a question."""
    expected = {
        "A queue may contain several thousand messages at once.": "stated",
        "You can restart the worker from the dashboard at any time.": "stated",
        "Workers could read from several queues if they are configured to.": "stated",
        "We suspect the cache expired before the second import started.": "hypothesis",
        "The outage might be caused by a full disk on the database host.": "hypothesis",
        "The import was probably slow because the index was rebuilt twice.": "hypothesis",
        "It seems the retry limit was too low for the night run.": "hypothesis",
        "We should add retries to the upload step.": "suggestion",
        "Consider adding a warm-up step before the import begins.": "suggestion",
        "The error message could be improved to name the failing file.": "suggestion",
        "Why did the import stop after the first batch?": "question",
        # Advice to a reader and references to design documents state how things are.
        "Consider using a separate queue for large messages.": "stated",
        "Familiarity with message queues is suggested before reading on.": "stated",
        "The wire format is described in the design proposal for the queue.": "stated",
        "Run several workers (perhaps one per machine) to drain the queue faster.": "stated",
        "Perhaps the queue was full when the import started.": "hypothesis",
        "Proposal: move the import to a dedicated worker pool.": "suggestion",
    }
    assert {text: status(text) for text in expected} == expected


def test_a_hedge_in_a_later_sentence_is_not_the_claims() -> None:
    """R37: a hedge in the second sentence of a paragraph does not make the first sentence's claim a
    hypothesis; the claim then quotes its own sentence only, so a stated claim never cites a hedge."""
    paragraph = (
        "The import copied every record to the new store in four hours. "
        "We suspect the cache was cold, an unconfirmed hypothesis so far."
    )
    made = claim("retrospectives/import", paragraph)
    assert made["status"] == "stated"
    assert made["quotes"][0]["quote"] == "The import copied every record to the new store in four hours."
    hedged = claim("retrospectives/import", paragraph.split(". ", 1)[1])
    assert hedged["status"] == "hypothesis"
    same = "The import copied every record. It finished before midnight on the second day."
    assert claim("retrospectives/import", same)["quotes"][0]["quote"] == same  # one status: whole


def test_a_retrospective_paragraph_keeps_its_fact_and_its_hypothesis(scorer: Scorer) -> None:
    """R37: in a retrospective, a paragraph that states what happened and then suspects a cause gives
    two claims, a stated one and a hypothesis, each quoting its own sentences verbatim."""
    fact = "The nightly import stopped after the first batch of records."
    cause = "We suspect the disk on the database host was full at the time."
    proposal = "We should add a free-space check before the import starts."
    body = f"# Import failure\n\n{fact} {cause} {proposal}\n"
    built = article(scorer, body, "Import failure", "retrospectives/import-failure")
    assert [(c["status"], c["quotes"][0]["quote"]) for c in built["summary"]] == [
        ("stated", fact),
        ("hypothesis", cause),
        ("suggestion", proposal),
    ]


@pytest.mark.parametrize("hedge", _HEDGES)
def test_no_stated_claim_cites_what_validation_calls_a_hedge(hedge: str) -> None:
    """R37: every word the compiler's validation reads as a hedge gives a non-stated status, so the
    offline engine never builds a delta that validation rejects."""
    assert status(f"The retry step is {hedge} for the night import.") != "stated"
    made = claim("retrospectives/x", f"The night import ran for six hours. The fix is {hedge} for it.")
    assert made["status"] != "stated" or hedge not in made["quotes"][0]["quote"].casefold()


def test_link_targets_are_not_the_sentences_words() -> None:
    """R37: a word in a link's URL ("proposals") does not make a plain sentence a suggestion, but a
    hedge that validation would read anywhere in the quote still keeps the claim off "stated"."""
    plain = "The first design is explained in the [design notes](https://example.invalid/proposals/net.md)."
    assert claim("knowledge/net", plain)["status"] == "stated"
    linked = "The open bugs are listed on [this page](https://example.invalid/unconfirmed-bugs) today."
    assert claim("knowledge/net", linked)["status"] != "stated"


def test_a_long_claim_is_cut_by_what_a_reader_reads_never_inside_a_link() -> None:
    """R22, E1: a claim's text is cut near 240 characters of what a reader reads: link targets take
    none of them, so a sentence whose words fit is shown whole however long its links, and a cut
    never leaves half a link ("… or [Node …")."""
    links = ", ".join(f"[crate {n}](https://orchard.example/docs/crates/{n}/index.html)" for n in range(6))
    fits = f"Growers sort {links} and the rest of the harvest by size before they ship it."
    assert claim("knowledge/farm", fits)["text"] == fits
    words = " ".join(["apples"] * 36)
    long = f"Growers sort {words} and [the pears of the late harvest](https://orchard.example/pears) by size."
    text = claim("knowledge/farm", long)["text"]
    assert text.endswith(" …") and len(text) < len(long)
    assert text.count("[") == text.count("]") and text.count("(") == text.count(")")


def test_section_headings_drop_attribute_blocks() -> None:
    """R20: a heading's anchor or style block ("{#id}", "{ #id }", "{: .warning}") is not part of
    its name."""
    body = "## Watering {#water}\n\ntext\n\n### Frost {: .warning}\n\nmore\n\n## Learn More { #learn-more }\n"
    document = read_document("knowledge/x", "x", body)
    assert [(h.level, h.text) for h in document.headings] == [(2, "Watering"), (3, "Frost"), (2, "Learn More")]


def test_a_tag_is_raw_html_but_a_code_span_an_autolink_or_a_shortcode_is_not() -> None:
    """E1: a tag is raw HTML; a code span, an autolink and a Hugo shortcode are not."""
    from wikigen.engines.offline.text import has_tag

    assert has_tag("Range size: 2<sup>12</sup> addresses in all.")
    assert has_tag('On <a href="https://example.com">the farm</a> it rains.')
    assert not has_tag("Use a `Queue<Message>` for the work.")
    assert not has_tag("See <https://example.com> for the rest.")
    assert not has_tag(
        'Pods with lower {{<glossary_tooltip text="Priority" term_id="pod-priority">}} go first.'
    )


def test_a_table_a_shortcode_line_runs_into_holds_no_sentence() -> None:
    """E1: "{{< table … >}}" right above a table makes one paragraph of both; its rows are cells,
    not sentences (a row would otherwise be quoted with the header and the delimiter row)."""
    from wikigen.engines.offline.text import sentences

    table = (
        '{{< table caption="Modes of the sorter" >}}\n'
        "Mode | Description\n"
        ":----|:-----------\n"
        "`Fast` | The sorter drops crates on the belt without weighing them.\n"
        "{{< /table >}}"
    )
    assert sentences("knowledge/sorter", table) == []
    prose = "The sorter drops crates on the belt. Crates - mostly oak -- arrive daily."
    assert len(sentences("knowledge/sorter", prose)) == 2
