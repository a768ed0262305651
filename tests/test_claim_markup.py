"""R20, R22: the offline engine never quotes doc-tool markup in a claim, a definition or evidence.

The sources are written for these tests (not copied from any corpus).
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from wikigen.engines.offline import markup
from wikigen.engines.offline.documents import Guard
from wikigen.engines.offline.engine import analyze
from wikigen.engines.offline.text import display, sentences

BODY = """# Quillmark

Quillmark builds static sites from folders of plain text pages. A **quill file** is a plain text \
file that lists the pages of a site.

{* examples/site/quill001.txt hl[2] *}

A **page cache** is a folder that keeps rendered pages between two builds. <!-- TODO: say where -->

--8<-- "includes/cache-notes.md"

## Rendering

A **render pass** is one walk over every page of a site.
{{#include ../listings/render.toml}}
The render pass writes each page into the page cache.

{% include "banner.md" %}

> A **theme pack** is a bundle of templates
> and styles that the render pass loads first.

A **link map** is the [index][idx] of every page that a site renders, and the render pass reads \
the link map.

[idx]: https://example.org/idx

A **build graph** is the order of the steps shown in Listing 4-2, and the render pass follows the \
build graph.
"""


def analyzed(body: str) -> dict[str, Any]:
    request = {
        "sources": [{"id": "knowledge/quill", "title": "Quillmark", "body": body}],
        "fragments": [],
        "anchors": [],
        "relations": [],
        "revoked": [],
    }
    return analyze(request, Guard(time.monotonic() + 300, threading.Event(), "analyze"))


@pytest.mark.parametrize("form", markup.FORMS, ids=lambda form: form.name)
def test_each_form_of_markup_fires_on_its_example_and_not_on_its_counter_example(form: markup.Form) -> None:
    """R22: the table of doc-tool markup finds each form where it is, and only that form there."""
    assert form.pattern.search(form.fires)
    assert markup.forms_in(form.fires) == (form.name,)
    assert not form.pattern.search(form.spares)
    assert markup.forms_in(form.spares) == ()


def test_markup_written_as_code_is_no_markup() -> None:
    """R22: a code span shows the syntax itself (`{% raw %}`), so a sentence about it may be quoted."""
    assert markup.forms_in("Write `{{#include file.rs}}` or `{% raw %}` to keep a tag.") == ()


def test_a_line_of_directive_after_a_sentence_is_cut_out_between_sentences() -> None:
    """R22: the sentences on either side of an include line are quoted without it."""
    text = "A render pass walks every page.\n{* src/render.py hl[3] *}\nIt writes each page to the cache."
    assert [s.text for s in sentences("", text)] == [
        "A render pass walks every page.",
        "It writes each page to the cache.",
    ]


def test_a_comment_after_a_sentence_end_stays_outside_the_sentence() -> None:
    """R22: a comment after a full stop (with or without a space) is no part of either sentence."""
    text = "A page cache keeps rendered pages. <!-- checked -->\nA slug names one page.<!-- end -->"
    assert [s.text for s in sentences("", text)] == [
        "A page cache keeps rendered pages.",
        "A slug names one page.",
    ]


def test_a_sentence_that_holds_markup_is_left_out_unless_kept() -> None:
    """R20, R22: a sentence with a comment inside is no definition or evidence; an article's cut sees it."""
    text = "A page cache <!-- where? --> keeps rendered pages. A page slug names one page."
    assert [s.text for s in sentences("", text)] == ["A page slug names one page."]
    kept = sentences("", text, keep_markup=True)
    assert [s.text for s in kept] == [
        "A page cache <!-- where? --> keeps rendered pages.",
        "A page slug names one page.",
    ]


def test_no_claim_definition_or_evidence_quotes_doc_tool_markup() -> None:
    """R20, R22: no quote of the delta holds a directive, a comment, a blockquote marker of a later
    line or a link reference definition; no definition or relation evidence holds a pointer
    ("Listing 4-2"); no claim or definition text shows a reference link's brackets. Every quote
    stays verbatim."""
    delta = analyzed(BODY)
    claims = [
        claim
        for article in delta["articles"]
        for claim in [*article["summary"], *(c for s in article.get("sections", []) for c in s["claims"])]
    ]
    article_quotes = [q["quote"] for claim in claims for q in claim["quotes"]]
    evidence = [
        *(q["quote"] for c in delta["concepts"] for q in c["definition"]["quotes"]),
        *(e["quote"] for c in delta["concepts"] for e in c["evidence"]),
        *(e["quote"] for r in delta["relations"] for e in r["evidence"]),
    ]
    assert article_quotes and evidence
    for quote in [*article_quotes, *evidence]:
        assert quote in BODY  # R22: verbatim
    assert [q for q in article_quotes if markup.holds(q, pointers=False)] == []
    assert [q for q in evidence if markup.holds(q)] == []
    for text in [c["text"] for c in claims] + [c["definition"]["text"] for c in delta["concepts"]]:
        assert not any(sign in text for sign in ("{*", "{{#", "{%", "<!--", "8<", "][", "\n>"))


def test_a_plain_defining_sentence_beside_markup_still_defines_its_term() -> None:
    """R20: the sentences next to the markup are still read: the comment after one and the include
    line between two stay outside their quotes."""
    concepts = {c["name"]: c for c in analyzed(BODY)["concepts"]}
    assert concepts["Page cache"]["definition"]["quotes"][0]["quote"] == (
        "A **page cache** is a folder that keeps rendered pages between two builds."
    )
    assert concepts["Render pass"]["definition"]["quotes"][0]["quote"] == (
        "A **render pass** is one walk over every page of a site."
    )
    assert "Theme pack" not in concepts and "Build graph" not in concepts


def test_a_reference_link_is_quoted_and_reads_as_its_text() -> None:
    """R20, R22: "A **link map** is the [index][idx] of every page …" defines the link map; the quote
    keeps the reference link verbatim, and the definition reads "the index of every page"."""
    definition = {c["name"]: c for c in analyzed(BODY)["concepts"]}["Link map"]["definition"]
    assert "[index][idx]" in definition["quotes"][0]["quote"]
    assert definition["text"].startswith("A **link map** is the index of every page")
    assert display("Read `a[i][j]` in the [guide][docs] first.") == "Read `a[i][j]` in the guide first."


def test_a_passage_that_is_only_a_directive_is_never_cited() -> None:
    """R20, R22: the article cites the page's sentence, not its include lines; a page of include lines
    only still gets an article (its summary is required), which cites its first passage."""
    directive = "{* docs_src/samples/sample001_an_py310.py hl[3:5] *}"
    body = (
        f"# Samples\n\n{directive}\n\nThe sample prints a greeting for every name it reads.\n\n{directive}\n"
    )
    (article,) = analyzed(body)["articles"]
    quotes = [q["quote"] for c in article["summary"] for q in c["quotes"]]
    assert quotes == ["The sample prints a greeting for every name it reads."]
    (article,) = analyzed(f"# Samples\n\n{directive}\n")["articles"]
    assert [q["quote"] for c in article["summary"] for q in c["quotes"]] == [directive]
