"""E1: passages are verbatim spans of a body, found from markdown-it's line map."""

from __future__ import annotations

import pytest

from wikigen.evidence.passages import (
    Passage,
    line_starts,
    lines_of_span,
    numbered_items,
    outline,
    passages,
    search_passages,
)

POD = "A Pod is the smallest deployable unit of computing that you can create and manage."


def check_verbatim(body: str) -> tuple[Passage, ...]:
    found = passages(body)
    for passage in found:
        assert body[passage.start : passage.end] == passage.text
        assert passage.text == passage.text.strip()
        assert (passage.line_start, passage.line_end) == lines_of_span(body, passage.start, passage.end)
    assert [passage.start for passage in found] == sorted(passage.start for passage in found)
    return found


def test_a_paragraph_passage_keeps_its_lines_and_starts_after_its_indent() -> None:
    """E1: a paragraph's passage spans its lines, and its offset starts after the leading spaces."""
    body = f"Intro.\n\n{POD}\nIt wraps one or more containers.\n\n  {POD}  \n"
    found = check_verbatim(body)
    assert [passage.text for passage in found] == [f"{POD}\nIt wraps one or more containers.", POD]
    assert [(passage.line_start, passage.line_end) for passage in found] == [(3, 4), (6, 6)]
    assert found[1].start == body.index(f"  {POD}") + 2


def test_list_items_drop_the_first_line_marker_only() -> None:
    """E1."""
    body = (
        f"- {POD}\n"
        "* A bullet whose text wraps onto a second line\n  and keeps its indentation verbatim.\n"
        "1. *Emphasis* at the start of an ordered item is text, not a marker.\n"
        "   \n"
        "   A second paragraph in the same item is its own passage, markers aside.\n"
        "- > A blockquote nested in a list item loses both markers on its first line.\n"
    )
    texts = [passage.text for passage in check_verbatim(body)]
    assert texts == [
        POD,
        "A bullet whose text wraps onto a second line\n  and keeps its indentation verbatim.",
        "*Emphasis* at the start of an ordered item is text, not a marker.",
        "A second paragraph in the same item is its own passage, markers aside.",
        "A blockquote nested in a list item loses both markers on its first line.",
    ]


def test_blockquote_keeps_inner_markers_to_stay_contiguous() -> None:
    """E1."""
    body = "> A quoted paragraph that spans\n> two lines of the body, both quoted.\n"
    (passage,) = check_verbatim(body)
    assert passage.text == "A quoted paragraph that spans\n> two lines of the body, both quoted."
    assert (passage.start, passage.line_start, passage.line_end) == (2, 1, 2)


def test_a_crlf_body_gives_passages_with_their_lines_and_no_trailing_cr() -> None:
    """E1."""
    body = f"# Pods\r\n\r\n{POD}\r\nSecond line.\r\n\r\n- {POD}\r\n"
    found = check_verbatim(body)
    assert [passage.text for passage in found] == [f"{POD}\r\nSecond line.", POD]
    assert [(passage.line_start, passage.line_end) for passage in found] == [(3, 4), (6, 6)]
    assert not found[0].text.endswith("\r")


def test_lone_carriage_returns_count_as_line_breaks() -> None:
    """E1."""
    body = f"Intro.\r\r{POD}\r"
    (passage,) = check_verbatim(body)
    assert passage.text == POD
    assert passage.line_start == passage.line_end == 3


def test_non_ascii_offsets_are_code_points() -> None:
    """E1."""
    chinese = "容器编排是一种自动化部署、管理和扩展容器化应用的技术，🎉 它让运维更简单，也让扩容更快。"
    emoji = "🚀🚀 Pods start fast: the kubelet pulls images and starts containers 🐳 on the node."
    body = f"## 编排 🎉\n\n{chinese}\n\n> {emoji}\n"
    found = check_verbatim(body)
    assert [passage.text for passage in found] == [chinese, emoji]
    assert found[0].start == len("## 编排 🎉\n\n")
    assert {passage.heading for passage in found} == {"编排 🎉"}


def test_short_passages_are_dropped() -> None:
    """E1."""
    body = "Too short to cite.\n\n- also short\n\n" + "x" * 39 + "\n\n" + "y" * 40 + "\n"
    assert [passage.text for passage in check_verbatim(body)] == ["y" * 40]


def test_link_heavy_passages_are_dropped() -> None:
    """E1."""
    links = "[Home](/) | [Concepts](/concepts/) | [Workloads and pods](/concepts/workloads/pods/)"
    autolinks = "See <https://kubernetes.io/docs/concepts/workloads/pods/> and more"
    bare = "Docs: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/"
    kept = "The [Pod](https://kubernetes.io/docs/concepts/workloads/pods/) is the unit the scheduler places."
    body = "\n\n".join([links, autolinks, bare, kept]) + "\n"
    assert [passage.text for passage in check_verbatim(body)] == [kept]


def test_headings_are_tracked_not_cited() -> None:
    """E1."""
    body = f"{POD}\n\n# Pods and `kubectl`\n\n{POD}\n\nSetext [heading](/x)\n-------------------\n\n{POD}\n"
    found = check_verbatim(body)
    assert [passage.heading for passage in found] == ["", "Pods and kubectl", "Setext heading"]


def test_code_is_not_a_passage_and_a_table_is_one() -> None:
    """E1."""
    code = "print('a code block is long enough to be a passage but is not one')"
    table = "| field | meaning |\n|---|---|\n| spec.nodeName | the node the Pod is bound to |"
    body = f"```python\n{code}\n```\n\n    {code}\n\n{table}\n\n<div>{POD}</div>\n"
    (passage,) = check_verbatim(body)
    assert passage.text == table
    assert (passage.line_start, passage.line_end) == (7, 9)


def test_an_empty_body_has_no_passages_and_one_line() -> None:
    """E1."""
    assert passages("") == ()
    assert line_starts("") == (0,)


def test_a_span_maps_to_1_based_lines_across_crlf_and_lone_cr_breaks() -> None:
    """E1: CRLF and a lone CR each end one line, a span maps to its first and last 1-based lines, and
    a span past the body raises."""
    body = "ab\r\ncd\ref\n\ngh"
    assert line_starts(body) == (0, 4, 7, 10, 11)
    assert lines_of_span(body, 0, 2) == (1, 1)
    assert lines_of_span(body, 0, 4) == (1, 1)
    assert lines_of_span(body, 4, 9) == (2, 3)
    assert lines_of_span(body, 11, 11) == (5, 5)
    with pytest.raises(ValueError):
        lines_of_span(body, 3, 99)


def test_passages_are_deterministic() -> None:
    """E1."""
    body = f"# T\n\n{POD}\n\n- {POD}\n\n> {POD}\n"
    assert passages(body) == passages(body)


# ---------------------------------------------------------------------------------------------
# E1: markup is not prose. Every sentence below was written for these tests.

PROSE = "The scheduler places each workload on a machine that has room for it."


def test_raw_html_anchors_captions_and_images_are_never_passages() -> None:
    """E1: raw HTML blocks, anchor-only and caption-only paragraphs, images, figure shortcodes and
    their captions never become passages."""
    body = (
        '<div class="note">A block of raw HTML that is long enough to be a passage.</div>\n\n'
        '<a id="a-rather-long-anchor-name-for-this-test"></a>\n\n'
        '<span class="caption">Figure 1: how the parts of the system fit together</span>\n\n'
        '<img src="/images/architecture-overview.png" alt="architecture overview">\n\n'
        "![A drawing of the machines and the scheduler](/images/machines.png)\n\n"
        "*The scheduler talks to every machine through one shared interface.*\n\n"
        "![Another drawing of the same machines](/images/again.png)\n"
        "_Figure 3: the same machines seen from the scheduler's side._\n\n"
        '{{< figure src="/images/flow.svg" alt="Flow of a request"\n'
        '    caption="**Note:** the path a request takes through the system" >}}\n\n'
        '{{< glossary_definition term_id="workload" length="all" >}}\n\n'
        f"{PROSE}\n"
    )
    assert [p.text for p in check_verbatim(body)] == [PROSE]


def test_reference_definitions_link_lists_and_link_tables_are_never_passages() -> None:
    """E1: reference-link definitions, lists and tables whose text is mostly links are navigation."""
    body = (
        "[guide]: https://example.invalid/a/rather/long/path/to/the/guide\n"
        "[spec]: https://example.invalid/another/long/path/to/the/spec\n\n"
        "- [Scheduling overview](/docs/scheduling/): basics\n"
        "- [Machines and capacity](/docs/machines/): sizes\n"
        "- [Workload placement rules](/docs/placement/): rules\n\n"
        "| page | link |\n|---|---|\n| [Scheduling overview](/docs/scheduling/) | [go](/s/) |\n"
        "| [Machines and capacity](/docs/machines/) | [go](/m/) |\n\n"
        f"{PROSE}\n"
        "[inline-ref]: https://example.invalid/a/definition/swallowed/by/the/paragraph\n"
    )
    assert [p.text for p in check_verbatim(body)] == [PROSE]


def test_leading_markup_is_trimmed_and_inline_html_stays_verbatim() -> None:
    """E1/E2: an anchor or image before the prose is trimmed off the span; inline HTML inside prose
    stays in the verbatim passage (the claim's displayed text drops it, not the quote)."""
    inline = "The scheduler <b>never</b> moves a running workload to another machine."
    body = f'<a id="placement"></a>\n{PROSE}\n\n![icon](/i.png) {PROSE}\n\n{inline}\n'
    found = check_verbatim(body)
    assert [p.text for p in found] == [PROSE, PROSE, inline]
    assert found[0].start == body.index(PROSE) and found[0].line_start == 2


def test_a_passage_never_crosses_a_block_boundary() -> None:
    """E1: a paragraph directly followed by a fence, a list, a quote, raw HTML or a heading ends there."""
    body = (
        f"{PROSE}\n```\ncode that is long enough to be a passage if it were one\n```\n"
        f"{PROSE}\n- a list item that follows the paragraph without a blank line\n\n"
        f"{PROSE}\n> a quote that follows the paragraph without a blank line\n\n"
        f"{PROSE}\n<div>raw html that follows the paragraph</div>\n\n"
        f"{PROSE}\n## A heading right after it\n"
    )
    found = check_verbatim(body)
    assert [p.text for p in found] == [
        PROSE,
        PROSE,
        "a list item that follows the paragraph without a blank line",
        PROSE,
        "a quote that follows the paragraph without a blank line",
        PROSE,
        PROSE,
    ]
    for passage in found:
        assert "\n" not in passage.text


def test_outline_headings_are_top_level_blocks_only() -> None:
    """E1/R20: headings come from the parse: none inside code, HTML blocks, lists or quotes."""
    body = (
        "Setext title\n============\n\n"
        "```\n# not a heading\n```\n\n"
        "<div>\n\n## inside HTML is still Markdown\n\n</div>\n\n"
        "> ## Quoted heading\n\n- ## Listed heading\n\n"
        "### `code` heading ###\n"
    )
    _, headings = outline(body)
    assert [(h.level, h.text) for h in headings] == [
        (1, "Setext title"),
        (2, "inside HTML is still Markdown"),
        (3, "`code` heading"),
    ]
    assert [body[h.start : h.start + 3] for h in headings] == ["Set", "## ", "###"]


CODE_DOC = """# Install

To install the package with its extras, run this in a terminal:

```bash
pip install "foo[all]"
```

```
foo --version --verbose --all
```

- List it:

`tar tf path/to/target.tar`

- Create an archive and write it to a file:

`tar cf path/to/target.tar path/to/file1`

> Note: every command also runs in a container:
>
> ```
> docker run foo --version
> ```

## Usage

```python
import foo
foo.run(everything=True)
```

```
ls
```
"""


def test_search_joins_each_code_block_to_the_paragraph_that_introduces_it() -> None:
    """E6/E1: search indexes a code block with the paragraph right before it, however short ("List
    it:", a tldr command under its description); a block right after joins too, a block after a
    heading stands alone, and one under MIN_CHARS with nothing before it is no passage. Every span is
    verbatim; the passages claims quote hold no code."""
    found = search_passages(CODE_DOC)
    for passage in found:
        assert CODE_DOC[passage.start : passage.end] == passage.text
        assert (passage.line_start, passage.line_end) == lines_of_span(CODE_DOC, passage.start, passage.end)
    def ends(text: str) -> tuple[str, str]:
        lines = [line.strip(" >`") for line in text.split("\n") if line.strip(" >`")]
        return lines[0], lines[-1]

    assert [(*ends(p.text), p.heading) for p in found] == [
        ("To install the package with its extras, run this in a terminal:", "foo --version --verbose --all", "Install"),
        ("List it:", "tar tf path/to/target.tar", "Install"),
        ("Create an archive and write it to a file:", "tar cf path/to/target.tar path/to/file1", "Install"),
        ("Note: every command also runs in a container:", "docker run foo --version", "Install"),
        ("python", "ls", "Usage"),
    ]
    assert not any("```" in p.text or "docker run" in p.text for p in passages(CODE_DOC))


def test_numbered_items_are_the_spans_of_ordered_list_items_only() -> None:
    """E1: each ordered-list item, its continuation lines and nested lists included, is one span of
    the body; bullets and paragraphs are none."""
    body = (
        "# Shutdown\n\nThe steps:\n\n1. The kubelet stops the pod.\n   It waits.\n   - a nested note\n"
        "2) The API server deletes it.\n\n- A bullet.\n\nAfter.\n"
    )
    spans = [body[start:end] for start, end in numbered_items(body)]
    assert spans == ["1. The kubelet stops the pod.\n   It waits.\n   - a nested note\n", "2) The API server deletes it.\n\n"]
    assert numbered_items("- one\n- two\n\nText.\n") == ()
