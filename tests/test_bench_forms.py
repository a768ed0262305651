"""scripts/bench_quality.py's forms of bad output: each row of FORM_PATTERNS fires on its example and
not on its counter-example, and the corpus-wide rows count what their docstring says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_quality.py"
_spec = importlib.util.spec_from_file_location("bench_quality_forms", SCRIPT)
assert _spec is not None and _spec.loader is not None
bench_quality = importlib.util.module_from_spec(_spec)
# dataclasses look the module up by name while the class is made
sys.modules[_spec.name] = bench_quality
_spec.loader.exec_module(bench_quality)

ROWS = bench_quality.FORM_PATTERNS


@pytest.mark.parametrize("row", ROWS, ids=[f"form{r.form}-{r.name}" for r in ROWS])
def test_each_form_row_fires_on_its_example_and_not_on_its_counter_example(row: Any) -> None:
    """A form row is data: the text it names as an example is counted, the counter-example is not,
    after the same preparation the benchmark applies (visible text for form 2, code spans dropped
    for form 8)."""
    assert row.name in bench_quality.form_hits(row.form, row.fires_on)
    assert row.name not in bench_quality.form_hits(row.form, row.not_on)


def test_form_rows_have_unique_names_within_their_form() -> None:
    """Each row is reported by its name, so no two rows of a form share one."""
    keys = [(r.form, r.name) for r in ROWS]
    assert len(keys) == len(set(keys))
    assert {r.form for r in ROWS} == set(bench_quality.FORM_TITLES)


def test_markup_inside_a_code_span_is_not_form_8() -> None:
    """Form 8 drops code spans first: `[x][y]` and `{{< … >}}` shown as code are meant literally."""
    assert bench_quality.form_hits(8, "Write `{{< note >}}` or `a[i][j]` here.") == []
    assert bench_quality.form_hits(8, "Write {{< note >}} and [a][b] here.") == [
        "reference_link",
        "shortcode",
    ]


def test_a_pointing_word_behind_link_or_emphasis_markup_is_form_2() -> None:
    """Form 2 reads the visible text: "**This** [function](x) …" starts with "This"."""
    assert bench_quality.form_hits(2, "**This** [function](https://x.org) is a callback.") == ["pointing"]
    assert bench_quality.form_hits(2, "A [callback](https://x.org) is a function you pass.") == []
    assert bench_quality.form_hits(2, "Iterators are values you can walk through.") == []
    assert bench_quality.form_hits(2, "It is a function that Typer calls.") == ["pointing"]


def _source(body: str) -> bytes:
    return f"---\ntitle: T\n---\n{body}".encode()


def test_a_name_written_only_as_a_code_span_is_code_only() -> None:
    """Form 1's corpus-wide row: a name that is a whole code span and never a word of the prose
    (outside fences and code spans, case aside) is code_only; one the prose also uses is not."""
    files = {
        "a.md": _source(
            "Use `nil` for nothing and `Option` for options.\n\n```\nnil prose in a fence\n```\n"
        ),
        "b.md": _source("An option is a flag.\n"),
    }
    assert bench_quality.code_only_names(["nil", "Option", "flag", "missing"], files) == {"nil"}


def test_form_counts_count_each_concept_once_and_name_it_in_the_forms_file() -> None:
    """A concept counts once per form however many rows fire; form 8 also counts claims over all
    claims; the forms file names every offender with its rows and quote."""

    def concept(name: str, quote: str) -> dict[str, Any]:
        return {
            "kind": "concept",
            "name": name,
            "definition": {"text": quote, "citations": ["c1"]},
            "citations": [{"citation_id": "c1", "quote": quote, "source": "knowledge/t/a"}],
        }

    concepts = {
        "concept/a": concept("app_dir.py", "This file holds <!-- x --> the app:"),
        "concept/b": concept("Callback", "A callback is a function that Typer calls."),
    }
    article = {
        "kind": "article",
        "summary": [{"text": "See it.", "citations": ["c2"]}],
        "citations": [{"citation_id": "c2", "quote": "See [the docs][docs].", "source": "knowledge/t/a"}],
    }
    objects = {**concepts, "article/a": article}
    figures, lines = bench_quality.form_counts(concepts, objects, {"a.md": _source("A callback.\n")})
    assert figures["form1"] == {"concepts": 1, "share": 0.5, "rows": {"dotted": 1, "file": 1, "snake": 1}}
    assert figures["form2"] == {"concepts": 1, "share": 0.5, "rows": {"colon": 1, "pointing": 1}}
    assert figures["form8"]["concepts"] == 1 and figures["form8"]["rows"] == {"html_comment": 1}
    assert (figures["form8"]["claims"], figures["form8"]["claims_total"]) == (1, 1)
    assert "app_dir.py\tsnake dotted file" in lines
    assert "article/a\treference_link\tSee [the docs][docs]." in lines


def test_this_command_on_the_concepts_own_page_leans_on_no_sentence() -> None:
    """Form 2: "This command is an alias of `tar`." cited from the page named after the concept
    points at the page's title, not at a sentence before it; on another page, or opening with "It",
    it still counts."""

    def concept(name: str, quote: str, source: str) -> dict[str, Any]:
        return {
            "kind": "concept",
            "name": name,
            "definition": {"text": quote, "citations": ["c1"]},
            "citations": [{"citation_id": "c1", "quote": quote, "source": source}],
        }

    concepts = {
        "concept/gtar": concept("gtar", "This command is an alias of `tar`.", "knowledge/tldr/linux/gtar"),
        "concept/git-log": concept("git log", "This command is an alias of `git-log`.", "knowledge/tldr/common/git-log"),
        "concept/tar": concept("tar", "This command is an alias of `gtar`.", "knowledge/tldr/common/archives"),
        "concept/zip": concept("zip", "It packs files into an archive.", "knowledge/tldr/common/zip"),
    }
    figures, _ = bench_quality.form_counts(concepts, concepts, {"a.md": _source("A tar.\n")})
    assert figures["form2"] == {"concepts": 2, "share": 0.5, "rows": {"pointing": 2}}
