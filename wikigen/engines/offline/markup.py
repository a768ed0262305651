"""Doc-tool markup a claim never quotes, or reads as its text (R20, R22): one table of forms, and the checks on it.

A quote is text cut from its source at its span (R22), so markup is kept out of a claim by never
choosing text that holds it, or by cutting a sentence so that the markup falls outside it; a quote
is never rewritten. Each :class:`Form` is syntax of a documentation tool, not wording of one corpus:

- ``hidden``: the rendered page shows none of it (an include directive, a comment, a link
  reference definition, a block fence); a sentence may be cut so that it falls outside;
- ``syntax``: the rendered page shows text in its place that the quote does not hold (a blockquote
  marker of a later line);
- ``pointer``: the quote points at something it does not show ("as in Listing 8-3"); a definition
  or a relation's evidence never quotes it, an article may;
- ``rendered``: a reference-style link (``[MathJax][mathjax]``). A quote may hold it: the claim's
  text reads it as its label (:func:`wikigen.engines.offline.text.display`), and the site links it
  where the cited source defines the reference. It stays in the table so that ``forms_in`` and the
  benchmark count it.

Code spans are masked before the forms are looked for: `` `{% raw %}` `` shows the syntax itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Form:
    """One form of markup: ``pattern`` finds it, ``fires`` holds it, ``spares`` does not."""

    name: str
    pattern: re.Pattern[str]
    fires: str
    spares: str
    kind: str  # "hidden", "syntax" or "pointer" (see the module docstring)


FORMS: tuple[Form, ...] = (
    Form(
        "snippet macro",  # MkDocs macros and snippets: {* docs_src/app/main.py hl[3] *}
        re.compile(r"\{\*.*?\*\}", re.DOTALL),
        "{* docs_src/app/main.py hl[3] *}",
        "A set such as {a, b} is written *with* braces.",
        "hidden",
    ),
    Form(
        "snippet include",  # pymdownx.snippets: --8<-- "notes.md"
        re.compile(r"-{1,2}8<-{1,2}[^\n]*"),
        '--8<-- "includes/abbreviations.md"',
        "The range 2-8 holds fewer than 10 values.",
        "hidden",
    ),
    Form(
        "mdBook include",  # {{#include file.rs}}, {{#rustdoc_include file.rs:3:5}}, {{#playground …}}
        re.compile(r"\{\{\s*#[\w-]+[^{}]*\}\}"),
        "{{#rustdoc_include ../listings/main.rs:here}}",
        '{{< glossary_tooltip text="node" term_id="node" >}}',
        "hidden",
    ),
    Form(
        "template tag",  # Jinja and mkdocs-macros: {% include "x.md" %}; Hugo's {{% … %}} is a shortcode
        re.compile(r"(?<!\{)\{%.*?%\}", re.DOTALL),
        '{% include "banner.md" %}',
        "{{% note %}}",
        "hidden",
    ),
    Form(
        "template expression",  # Jinja and mkdocs-macros: {{ config.site_name }}
        re.compile(r"\{\{(?!\s*[<%#])[^{}\n]*\}\}"),
        "{{ config.site_name }}",
        "{{< note >}}",
        "hidden",
    ),
    Form(
        "HTML comment",  # also the part of one that a cut leaves
        re.compile(r"<!--.*?-->|<!--|-->", re.DOTALL),
        "<!-- TODO: reword -->",
        "An arrow -> points to the result.",
        "hidden",
    ),
    Form(
        "link reference definition",
        re.compile(r"^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S[^\n]*", re.MULTILINE),
        "[guide]: https://example.org/guide",
        "See note [1]: it applies here.",
        "hidden",
    ),
    Form(
        "block fence",  # pymdownx.blocks (/// tip), admonitions (!!! note), details (??? info)
        re.compile(r"^[ \t]*(?:///|!!!|\?\?\?\+?)(?:[ \t][^\n]*)?$", re.MULTILINE),
        "/// tip",
        "Paths such as a///b collapse to a/b.",
        "hidden",
    ),
    Form(
        "blockquote marker",  # a later line of the quote opens with ">"
        re.compile(r"\n[ \t]*>"),
        "A macro expands\n> at compile time.",
        "The test x > y compares two numbers.",
        "syntax",
    ),
    Form(
        "reference link",  # [text][ref] and the collapsed [text][]
        re.compile(r"!?\[[^\]\n]+\]\[[^\]\n]*\]"),
        "Read the [guide][docs] first.",
        "Read the [guide](https://example.org/guide) first.",
        "rendered",
    ),
    Form(
        "pointer",  # "as in Listing 8-3", "(see Figure 2)", "Table 1 lists …"
        re.compile(
            r"\b(?:[Ll]isting|[Ff]igure|[Ff]ig\.|[Dd]iagram|[Ss]creenshot|Table|Example)\s+\d+(?:[-.:]\d+)*"
        ),
        "The loop in Listing 8-3 reads each value.",
        "Listing the files shows 3 of them.",
        "pointer",
    ),
)


def _any_of(forms: tuple[Form, ...]) -> re.Pattern[str]:
    """One pattern that finds any of ``forms`` (each keeps its own flags)."""
    scoped = []
    for form in forms:
        flags = ("s" if form.pattern.flags & re.DOTALL else "") + (
            "m" if form.pattern.flags & re.MULTILINE else ""
        )
        scoped.append(f"(?{flags}:{form.pattern.pattern})" if flags else f"(?:{form.pattern.pattern})")
    return re.compile("|".join(scoped))


_QUOTABLE = tuple(form for form in FORMS if form.kind != "rendered")
_ANY = _any_of(_QUOTABLE)
_ANY_BUT_POINTERS = _any_of(tuple(form for form in _QUOTABLE if form.kind != "pointer"))
_HIDDEN = _any_of(tuple(form for form in FORMS if form.kind == "hidden"))
_CODE = re.compile(r"(`+)[^`\n](?:[^\n]*?[^`\n])?\1(?!`)")
_SENTENCE_END = re.compile(r"(?:^|[.!?:][\"')\]*_]*)\s*$")


def _masked(text: str) -> str:
    """``text`` with its code spans blanked out, offsets kept."""
    return _CODE.sub(lambda match: " " * len(match.group()), text)


def forms_in(text: str) -> tuple[str, ...]:
    """The names of the forms ``text`` holds outside code spans, in table order."""
    masked = _masked(text)
    return tuple(form.name for form in FORMS if form.pattern.search(masked))


def holds(text: str, *, pointers: bool = True) -> bool:
    """``text`` holds markup a quote never holds (R22); with ``pointers``, a pointer too (for a
    definition or a relation's evidence, which must read on its own)."""
    return (_ANY if pointers else _ANY_BUT_POINTERS).search(_masked(text)) is not None


def hidden_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the hidden markup of ``text`` outside code spans, in order."""
    if _HIDDEN.search(text) is None:  # most text holds none: no need to mask its code spans
        return []
    masked = _masked(text)
    return sorted(m.span() for form in FORMS if form.kind == "hidden" for m in form.pattern.finditer(masked))


def hidden_lines(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The lines of ``text`` that hold hidden markup (``spans``) only and follow the end of a sentence
    (or open the text): a sentence is cut before and after each. A line of markup inside a sentence
    is no cut, so that the sentence holds it and is not quoted."""
    if not spans:
        return []
    shown = list(text)
    for first, last in spans:
        shown[first:last] = " " * (last - first)
    found = []
    position = 0
    for line in text.splitlines(keepends=True):
        start, end = position, position + len(line.rstrip("\r\n"))
        position += len(line)
        if line.strip() and not "".join(shown[start:end]).strip() and _SENTENCE_END.search(text[:start]):
            found.append((start, end))
    return found


def trimmed(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> tuple[int, int]:
    """``start`` and ``end`` moved past hidden markup (``spans``) and the space around it at either
    edge of ``text[start:end]``; they meet where that span is markup only."""
    moved = bool(spans)
    while moved and start < end:
        moved = False
        for first, last in spans:
            if first == start and start < last <= end:
                start = last
                while start < end and text[start].isspace():
                    start += 1
                moved = True
            elif last == end and start <= first < end:
                end = first
                while end > start and text[end - 1].isspace():
                    end -= 1
                moved = True
    return start, max(start, end)
