#!/usr/bin/env python3
"""Knowledge-quality benchmark of the offline engine. Prints figures; asserts nothing.

  python scripts/bench_quality.py [k8s] [elixir] [tldr] [typer] [--sample-dir DIR] [--keep DIR] [--overwrite-judged]
  python scripts/bench_quality.py [CORPUS ...] --loo DIR     # … and the leave-one-corpus-out table
  python scripts/bench_quality.py --fold [--sample-dir DIR]
  python scripts/bench_quality.py --unseen NAME=DIR [...]  # … also DIR's Markdown, never tuned on

Each corpus (default: all four) is committed into a fresh git repo and compiled from empty through
the real pipeline (``compile_repo(root, engine=OfflineEngine(), batch=True)``), each in a subprocess of
this script so that wall time and peak RSS are per corpus:

- ``k8s``: the 115 Kubernetes concept docs; recall against the glossary terms with ``mentions >= 3``
  (``../shared/corpora/k8s-concepts/gold/glossary.tsv``, about 110 rows), and how many of those terms
  the docs say anything defining about at all (judged in ``tests/data/judged/glossary-ceiling/``).
- ``elixir``: the 24 chapters of the Elixir "Getting started" guide; concept recall (142 rows) and
  relation recall (77 rows), scored as ``../shared/corpora/elixir-guide/gold/README.md`` says.
- ``tldr``: a seeded (``random.Random(7)``) sample of 1,000 tldr pages; counts only.
- ``typer``: the 75 pages of the Typer docs (``../shared/corpora/typer-docs/content``); counts only.
  Its ``release-notes.md`` alone is over the default ``caps.input_bytes``, so its repo gets a
  ``wikigen.yml`` that raises that cap just enough (``SETTINGS``), as a user of such a repo would.
- ``--unseen NAME=DIR``: any other folder of Markdown, for a check on text nobody here tuned the
  engine to (``tests/data/judged/README.md``, "Unseen text"); counts and a draw only, never folded
  into the judged set nor fitted on.

Per corpus it prints counts, the concepts in at least one relation (and whether that is at least
half of them), recall, quality checks (raw HTML in claims, definitions and quotes; article titles
that are file names although the source has a heading; duplicate topic titles; topics without a
summary), three forms of bad output with their share of all concepts, wall time, peak RSS, passages
embedded and the engine's per-stage times when it exposes them. Each form is a table of named
regexes (``FORM_PATTERNS``, each row with a text it fires on and one it does not); a concept counts
once however many rows fire:

- form 1, a concept named like a code identifier or a file: its name is one token holding ``_``
  (``max_content_width``), one token with a ``.`` between letters (``typer.Option``, ``app.py``), a
  camelCase word (``getName``; not ``PersistentVolume`` or ``macOS``), ends in ``()`` or in an arity
  after a lower-case letter (``spawn/1``; not ``HTTP/2``), is a dotfile or ends in a file extension
  (``.gitignore``, ``pyproject.toml``), starts with ``-``, ``--``, ``:``, ``~``, ``@`` or ``$`` and a
  letter (``--help``, ``:crypto``, ``~s``, ``@spec``), or is one or two lower-case letters or digits
  (``s``, ``do``; ``run`` and ``UI`` are not); or (``code_only``) it is the whole text of some code
  span of the corpus and the corpus's prose (outside fenced blocks and code spans) never holds it as
  a word, case aside (``nil`` written only as `` `nil` ``).
- form 2, a definition that leans on an earlier sentence or ends on a colon: the visible text of a
  quote its definition cites (links as their text, no code ticks, emphasis or leading ``>``/list
  marker) starts with a pointing word or phrase ("This", "These", "That", "Those", "It", "They",
  "Here", "Such", "The same", "The above", "Similarly", "Likewise", "Also", "Then", "Now", "So",
  "Thus", "Hence", "Therefore", "Otherwise", "Instead", "In this case", "For this reason", "As such",
  "<Word> like this" …; capitalized, as a whole word; not "It is possible to …", where "It" stands for
  what follows) or ends with ``:``; not "This command …" (a page subject's kind, as the engine reads
  it) on the page named after the concept, whose title the phrase points at.
- form 8, markup in a quote: a definition's quote (counted over concepts) or a claim's quote
  (counted over all claims), code spans dropped, holds a blockquote marker ``>`` at its start, a line
  start or after a sentence's end, an admonition marker at a line start (``/// tip``, ``!!! note``),
  an HTML comment ``<!--``, a reference link ``[x][y]``, an include directive (``{* … *}``,
  ``{{#include …}}``, ``--8<--``), a Hugo shortcode (``{{< … >}}``, ``{{% … %}}``) or "Listing N-N";
  and the same rows over the text a reader reads (each definition's and claim's own text, where the
  engine renders markup: a quote stays verbatim, so its markup is the source's).

The forms are measured, not enforced. It writes to the sample dir (default ``tests/data/judged/``)
only what a reader judges:

- ``<corpus>-concepts.tsv`` / ``<corpus>-relations.tsv``: a seeded (``random.Random(10)``, ``--seed``) sample of 30
  concepts and 30 relations with empty ``verdict`` and ``reason`` columns to judge by hand; a file whose
  ``verdict`` column is already filled in is never overwritten unless ``--overwrite-judged`` is given;

and the rest to the figures dir (``--figures-dir``, default ``.bench/quality/``), apart, so that a
reader given the draw's folder sees no earlier count:

- ``<corpus>-missing.txt``: the gold entries not found;
- ``<corpus>-forms.txt``: every concept (form 8: also every claim) each form counts, with the rows that
  fired and, for forms 2 and 8, the quote, so a reader can check them;
- and, printed, the precision over every concept and relation that the judged set
  ``tests/data/judged/current/`` holds with the same quote (its latest verdict), which one draw of 30
  moves by several rows;
- ``<corpus>-figures.json``: every figure printed.

``--loo DIR`` then records every scored item of each corpus into ``DIR`` (``scripts/fit_decision.py
record``: compiled again with a decision that keeps everything, each item labelled from the judged
set) and prints the leave-one-corpus-out table: for each corpus left out, a decision fitted on the
judged items of the others, and the left-out corpus's precision before and after it (the engine's
own precision is "before"). Judge the left-out corpora's draws with new readers (``READER.md``).

``--keep DIR`` keeps each compiled repo as ``DIR/<corpus>`` (it must not exist yet). ``--fold`` folds
the judged samples of the sample dir into the judged set (a row judged again takes its new verdict)
and compiles nothing.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

import pygit2  # noqa: E402
import yaml  # noqa: E402

from tests.corpora import commit_files, shared_dir  # noqa: E402

CORPORA = ("k8s", "elixir", "tldr", "typer")
JUDGED_CORPORA = CORPORA  # those with a judged set; --unseen adds corpora to CORPORA only
SOURCES = {  # corpus: (folder below the shared dir, prefix below the repo root)
    "k8s": ("corpora/k8s-concepts/content/en/docs/concepts", "content/sources/knowledge/k8s"),
    "elixir": ("corpora/elixir-guide/content", "content/sources/knowledge/elixir"),
    "tldr": ("corpora/tldr-pages/pages", "content/sources/knowledge/tldr"),
    "typer": ("corpora/typer-docs/content", "content/sources/knowledge/typer"),
}
# The wikigen.yml committed into a corpus's repo, as its user would write it (the defaults elsewhere):
# typer's release-notes.md alone makes a request of 139,779 bytes, over the default caps.input_bytes
# (100,000), which `wikigen check` names; scripts/compile_trees.sh writes the same file.
SETTINGS = {"typer": "caps:\n  input_bytes: 175000\n"}
TLDR_SAMPLE = 1000
TLDR_SEED = 7
JUDGE_SEED = 10
JUDGE_SIZE = 30
# One judged row per concept or relation ever judged, its latest verdict (``--fold`` adds a judged draw).
JUDGED_DIR = REPO_ROOT / "tests" / "data" / "judged" / "current"
# Figures, forms and missing gold entries: never beside a draw, where its reader would find them.
FIGURES_DIR = REPO_ROOT / ".bench" / "quality"
WIKI_DIR = "content/wiki"
SNAPSHOT_PATH = "content/.wikigen/snapshot.json"
# A raw HTML tag as the quality checks count it; inline code spans (`Rc<T>`), autolinks
# (<https://…>) and Hugo shortcodes ({{< glossary_tooltip … >}}, counted on their own) are not HTML.
HTML_TAG = re.compile(r"<[a-zA-Z/][^>]*>")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
SHORTCODE = re.compile(r"\{\{[<%].*?[%>]\}\}", re.S)
AUTOLINK = re.compile(r"<(?:[a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+)>")
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(\S.*?)[ \t#]*$", re.M)
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^ {0,3}\1[ \t]*$|\Z)", re.M | re.S)


# ---------------------------------------------------------------------------------------------
# corpora


def add_unseen(spec: str) -> str:
    """``NAME=DIR``: registers the Markdown under DIR as corpus NAME, compiled and drawn like the
    others but with no gold list and no judged set (``--fold`` leaves it out): documentation the
    engine was never judged or tuned on, for a new reader. The corpus's name."""
    global CORPORA
    name, _, folder = spec.partition("=")
    root = Path(folder).expanduser().resolve()
    if not re.fullmatch(r"[a-z][a-z0-9-]*", name) or name in CORPORA:
        raise SystemExit(f"--unseen {spec}: NAME must be a new lower-case name (not {', '.join(CORPORA)})")
    if not root.is_dir() or not any(root.rglob("*.md")):
        raise SystemExit(f"--unseen {spec}: {root} holds no Markdown (*.md) files")
    SOURCES[name] = (str(root), f"content/sources/knowledge/{name}")  # an absolute folder stays itself
    CORPORA = (*CORPORA, name)
    return name


def corpus_files(name: str) -> dict[str, bytes]:
    """The corpus's Markdown files keyed by their path under content/sources/ (tldr: the seeded sample)."""
    folder, prefix = SOURCES[name]
    root = shared_dir() / folder
    if not root.is_dir():
        raise SystemExit(f"{name}: corpus not found at {root} (set WIKIGEN_SHARED)")
    paths = sorted(root.rglob("*.md"), key=lambda p: p.relative_to(root).as_posix())
    if name == "tldr":
        paths = sorted(random.Random(TLDR_SEED).sample(paths, min(TLDR_SAMPLE, len(paths))))
    return {f"{prefix}/{p.relative_to(root).as_posix()}": p.read_bytes() for p in paths}


def gold_rows(corpus: str, name: str) -> list[dict[str, str]]:
    path = shared_dir() / "corpora" / corpus / "gold" / name
    lines = path.read_text(encoding="utf-8").splitlines()
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


# ---------------------------------------------------------------------------------------------
# names


def norm(text: str) -> str:
    """NFKC, casefold, '-', '_' and whitespace as one space (a name made only of them stays as it is)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    spaced = " ".join(re.sub(r"[-_\s]+", " ", folded).split())
    return spaced or " ".join(folded.split())


def joined(text: str) -> str:
    """norm() with the separators dropped: 'Add-ons' = 'addons', 'PersistentVolumeClaim' = 'Persistent Volume Claim'."""
    key = norm(text)
    return key.replace(" ", "") or key


def number_forms(key: str) -> set[str]:
    """A normalized name with its last word both singular and plural."""
    forms = {key}
    if key.endswith("ies") and len(key) > 4:
        forms.add(key[:-3] + "y")
    if key.endswith("es") and len(key) > 3:
        forms.add(key[:-2])
    if key.endswith("s") and not key.endswith("ss") and len(key) > 2:
        forms.add(key[:-1])
    if key.endswith("y") and len(key) > 2 and key[-2] not in "aeiou":
        forms.add(key[:-1] + "ies")
    forms |= {key + "s", key + "es"}
    return forms


def collapse(text: str) -> str:
    return " ".join(str(text).split())


def overlaps(a: str, b: str, size: int = 20) -> bool:
    """One contains the other, or they share a common substring of ``size`` characters (whitespace collapsed)."""
    a, b = collapse(a), collapse(b)
    if not a or not b:
        return False
    if a in b or b in a:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return any(short[i : i + size] in long_ for i in range(len(short) - size + 1))


# ---------------------------------------------------------------------------------------------
# reading the published snapshot back from git


def read_objects(repo: pygit2.Repository) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """Every article, concept and topic file and every relation line under content/wiki/ at HEAD."""
    objects: dict[str, dict[str, Any]] = {}
    relations: list[dict[str, Any]] = []
    head = repo.head.peel(pygit2.Commit).tree
    if WIKI_DIR not in head:
        return objects, relations

    def walk(tree: Any, prefix: str) -> Iterable[tuple[str, bytes]]:
        for entry in tree:
            path = f"{prefix}/{entry.name}"
            found: Any = repo[entry.id]
            if entry.type_str == "tree":
                yield from walk(found, path)
            else:
                yield path, bytes(found.data)

    for path, data in walk(head[WIKI_DIR], WIKI_DIR):
        if path.endswith(".jsonl"):
            relations += [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]
        elif path.endswith(".md"):
            text = data.decode("utf-8")
            if not text.startswith("---\n"):
                continue
            loaded = yaml.safe_load(text[4 : text.index("\n---\n", 4)])
            if isinstance(loaded, dict) and "kind" in loaded and "id" in loaded:
                objects[loaded["id"]] = loaded
    relations.sort(key=lambda r: r["id"])
    return objects, relations


def source_paths(repo: pygit2.Repository) -> dict[str, str]:
    """Source id → path, from the snapshot manifest."""
    from wikigen.store.git import GitStore
    from wikigen.store.snapshot import load_snapshot

    try:
        blob: Any = repo.revparse_single(f"HEAD:{SNAPSHOT_PATH}")
        data = bytes(blob.data)
    except KeyError:
        return {}
    return {sid: entry.path for sid, entry in load_snapshot(data, GitStore(repo.workdir)).manifest.items()}


def claims_of(obj: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every claim-like text of an object (summary, section claims, definition, issues)."""
    found = list(obj.get("summary") or [])
    for section in obj.get("sections") or []:
        found += list(section.get("claims") or [])
    found += list(obj.get("contradictions") or []) + list(obj.get("open_questions") or [])
    return found


def markup(text: str) -> set[str]:
    """ "html" for a raw HTML tag, "shortcode" for Hugo shortcode markup ({{< … >}}, not HTML)."""
    text = CODE_SPAN.sub(" ", str(text))
    kinds = {"shortcode"} if SHORTCODE.search(text) else set()
    if HTML_TAG.search(AUTOLINK.sub(" ", SHORTCODE.sub(" ", text))):
        kinds.add("html")
    return kinds


def split_source(data: bytes) -> tuple[dict[str, Any], str]:
    """A source's frontmatter (when it parses) and its body."""
    text = data.decode("utf-8", "replace")
    if text.startswith("---\n"):
        match = re.search(r"^---[ \t]*$\n?", text[4:], re.M)
        if match:
            try:
                meta = yaml.safe_load(text[4 : 4 + match.start()])
            except yaml.YAMLError:
                meta = None
            return (meta if isinstance(meta, dict) else {}), text[4 + match.end() :]
    return {}, text


def headings(body: str) -> list[str]:
    return [m.group(1) for m in HEADING.finditer(FENCE.sub("", body))]


# ---------------------------------------------------------------------------------------------
# forms: concept names like code or files (form 1), definitions that lean on an earlier sentence
# or end on a colon (form 2), markup in quotes (form 8)


@dataclass(frozen=True, slots=True)
class FormPattern:
    """One row of a form: a named regex with a text it must fire on and one it must not."""

    form: int
    name: str
    regex: re.Pattern[str]
    fires_on: str
    not_on: str


# Form 1 looks at a concept's name as it is; form 2 at the visible text of a definition quote
# (``visible``); form 8 at a definition or claim quote with its code spans dropped (what a code span
# shows is meant literally).
FORM_PATTERNS = (
    FormPattern(1, "snake", re.compile(r"^\S*_\S*$"), "max_content_width", "Keyword list"),
    FormPattern(1, "dotted", re.compile(r"^\S*[A-Za-z_]\.[A-Za-z_]\S*$"), "typer.Option", "Version 1.2"),
    FormPattern(1, "camel", re.compile(r"^[a-z]+(?:[A-Z][a-z0-9]+)+$"), "getName", "macOS"),
    FormPattern(1, "call", re.compile(r"\(\s*\)$|[a-z_?!]/\d+$"), "spawn/1", "HTTP/2"),
    FormPattern(
        1,
        "file",
        re.compile(
            r"^\.[\w.-]+$|\.(?:py|pyi|md|js|mjs|ts|tsx|jsx|yml|yaml|toml|json|txt|cfg|ini|sh|ex|exs|go|rs|rb"
            r"|html|css|lock|csv|xml)$",
            re.I,
        ),
        "pyproject.toml",
        "Markdown",
    ),
    FormPattern(
        1, "sigil", re.compile(r"^(?:--?[A-Za-z]|[:~@$][A-Za-z_])"), "--install-completion", "C++ module"
    ),
    FormPattern(1, "short", re.compile(r"^[a-z0-9]{1,2}$"), "do", "UI"),
    FormPattern(
        2,
        "pointing",
        re.compile(
            # "It is (also) possible to …" points at nothing: "It" there stands for what follows.
            r"^[\"'(\[]*(?:This|These|That|Those|It(?!\s+(?:is|was)\s+(?:(?:also|very|not|quite)\s+)*\w+\s+"
            r"(?:to|that)\b)|They|Here|Such|The same|The above|Similarly|Likewise|Also|Then|Now|So|Thus|Hence"
            r"|Therefore|Otherwise|Instead|In (?:this|that|such a) case|For (?:this|that) reason|As such"
            r"|[A-Z]\w*(?: \w+)? like (?:this|that|these|those))\b"
        ),
        "Functions like this are called callbacks.",
        "It is also very common to use tuples and atoms to create tagged tuples.",
    ),
    FormPattern(
        2, "colon", re.compile(r":\s*$"), "A CLI option is declared like this:", "A Pod: the smallest unit."
    ),
    FormPattern(
        8,
        "blockquote",
        re.compile(r"(?:^|\n|[.!?]\s+)[ \t]*>"),
        "Typer is a library. > **Note**: it uses Click.",
        "The result is true when a > b.",
    ),
    FormPattern(
        8,
        "admonition",
        re.compile(r"^[ \t]*(?:///|!!!|\?\?\?)(?:[ \t]|$)", re.M),
        "/// tip | **Typer** builds on top of Click",
        "It works!!! Try it.",
    ),
    FormPattern(
        8, "html_comment", re.compile(r"<!--"), "A hook <!-- TODO --> runs first.", "An arrow <- points left."
    ),
    FormPattern(
        8,
        "reference_link",
        re.compile(r"\[[^\]\n]+\]\[[^\]\n]*\]"),
        "See [the guide][guide] for more.",
        "See [the guide](https://example.org) for more.",
    ),
    FormPattern(
        8,
        "include_braces",
        re.compile(r"\{\*.*?\*\}", re.S),
        "{* docs_src/first_steps/tutorial001.py hl[3] *}",
        "A set {1, 2} in braces.",
    ),
    FormPattern(
        8,
        "include_mdbook",
        re.compile(r"\{\{#include\b"),
        "{{#include ../listings/ch01/main.rs}}",
        "A template {{ name }} here.",
    ),
    FormPattern(8, "include_snippet", re.compile(r"--8<--"), '--8<-- "snippets/intro.md"', "A range 8 -- 9."),
    FormPattern(
        8,
        "shortcode",
        re.compile(r"\{\{[<%].*?[%>]\}\}", re.S),
        '{{< glossary_tooltip text="Pod" term_id="pod" >}} runs.',
        "A template {{ name }} here.",
    ),
    FormPattern(
        8, "listing", re.compile(r"\bListing \d+-\d+"), "Listing 3-1 shows it.", "The listing below shows it."
    ),
)
FORM_TITLES = {
    1: "concept names like a code identifier or a file",
    2: "definitions leaning on an earlier sentence or ending on a colon",
    8: "markup in quotes",
}
MD_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
REF_LINK = re.compile(r"\[([^\]\n]+)\]\[[^\]\n]*\]")
EMPHASIS = re.compile(r"(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=\S)\1")
LEADING_MARKER = re.compile(r"^\s*(?:>\s*)*(?:(?:[-*+]|\d+[.)])\s+)?")


def visible(text: str) -> str:
    """The text a reader sees of a Markdown quote: a link as its text, no code ticks or emphasis
    marks, no leading blockquote or list marker; whitespace collapsed."""
    text = REF_LINK.sub(r"\1", MD_LINK.sub(r"\1", str(text))).replace("`", "")
    return collapse(LEADING_MARKER.sub("", EMPHASIS.sub(r"\2", text)))


def form_hits(form: int, text: str) -> list[str]:
    """The names of the rows of ``form`` that fire on ``text``: a concept's name (form 1), a definition
    quote (form 2: its visible text) or a quote (form 8: its code spans dropped)."""
    if form == 2:
        text = visible(text)
    elif form == 8:
        text = CODE_SPAN.sub(" ", str(text))
    return [row.name for row in FORM_PATTERNS if row.form == form and row.regex.search(text)]


def code_only_names(names: Iterable[str], files: Mapping[str, bytes]) -> set[str]:
    """Form 1's corpus-wide row ("code_only"): the names that are the whole text of some code span of
    the corpus and that its prose (the bodies without fenced blocks and code spans) never holds as a
    word, case aside."""
    spans: set[str] = set()
    prose = []
    for data in files.values():
        body = FENCE.sub("\n", split_source(data)[1])
        spans |= {m.group(0).strip("`").strip() for m in CODE_SPAN.finditer(body)}
        prose.append(CODE_SPAN.sub(" ", body))
    text = "\n".join(prose)
    return {
        name
        for name in set(names)
        if name in spans and not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I)
    }


def definition_citations(concept: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(source, quote) of each quote a concept's definition cites; its text, from no source, where it
    cites none."""
    definition = concept.get("definition") or {}
    table = {c.get("citation_id"): c for c in concept.get("citations") or []}
    cited = [
        (str(table[i].get("source") or ""), str(table[i]["quote"]))
        for i in definition.get("citations") or []
        if i in table
    ]
    return cited or ([("", str(definition["text"]))] if definition.get("text") else [])


def points_at_own_page(name: str, source: str, quote: str) -> bool:
    """A quote that opens with "This command …" (a kind of page subject, as the engine reads it when
    it draws the page's relations: ``drawing.THIS_PAGE``) on the page named after the concept (its
    file's stem, separators aside) speaks of the page's subject, as its title names it; it leans on
    no sentence."""
    from wikigen.engines.offline.drawing import THIS_PAGE

    def key(text: str) -> str:
        return re.sub(r"[\s_-]+", "", text).casefold()

    stem = source.rsplit("/", 1)[-1]
    return bool(stem) and key(stem) == key(name) and THIS_PAGE.match(visible(quote)) is not None


def form_counts(
    concepts: Mapping[str, Mapping[str, Any]],
    objects: Mapping[str, Mapping[str, Any]],
    files: Mapping[str, bytes],
) -> tuple[dict[str, Any], list[str]]:
    """Forms 1, 2 and 8 over a compile: the concepts each holds, with their share of all concepts
    (form 8 also counts claims, over all claims), and the lines of ``<corpus>-forms.txt`` that name
    every offender with the rows that fired (and the quote, for forms 2 and 8)."""
    code_only = code_only_names((c["name"] for c in concepts.values()), files)
    found: dict[int, list[tuple[str, list[str], str]]] = {1: [], 2: [], 8: []}
    for cid in sorted(concepts, key=lambda c: (str(concepts[c]["name"]).casefold(), c)):
        name = str(concepts[cid]["name"])
        named = form_hits(1, name) + (["code_only"] if name in code_only else [])
        if named:
            found[1].append((name, named, ""))
        for form in (2, 8):
            hits = [
                (quote, [r for r in form_hits(form, quote) if r != "pointing" or not own])
                for source, quote in definition_citations(concepts[cid])
                for own in [points_at_own_page(name, source, quote)]
            ]
            fired = sorted({row for _, rows in hits for row in rows})
            if fired:
                found[form].append((name, fired, next(quote for quote, rows in hits if rows)))
    claims = 0
    claim_hits: list[tuple[str, list[str], str]] = []
    # What a reader reads: a definition's or claim's own text (doc-tool markup rendered), not the quote.
    shown = [("definition", str((c.get("definition") or {}).get("text") or "")) for c in concepts.values()]
    for oid in sorted(objects):
        table = {c.get("citation_id"): c for c in objects[oid].get("citations") or []}
        for claim in claims_of(objects[oid]):
            claims += 1
            shown.append(("claim", str(claim.get("text") or "")))
            quotes = [str(table[i]["quote"]) for i in claim.get("citations") or [] if i in table]
            hits = [(quote, form_hits(8, quote)) for quote in quotes]
            fired = sorted({row for _, rows in hits for row in rows})
            if fired:
                claim_hits.append((oid, fired, next(quote for quote, rows in hits if rows)))

    def share(count: int, total: int) -> float | None:
        return round(count / total, 3) if total else None

    def rows_of(entries: list[tuple[str, list[str], str]]) -> dict[str, int]:
        return dict(sorted(Counter(row for _, rows, _ in entries for row in rows).items()))

    figures: dict[str, Any] = {
        f"form{form}": {
            "concepts": len(found[form]),
            "share": share(len(found[form]), len(concepts)),
            "rows": rows_of(found[form]),
        }
        for form in (1, 2, 8)
    }
    shown_hits = [(kind, text) for kind, text in shown if form_hits(8, text)]
    figures["form8"] |= {
        "shown": len(shown_hits),
        "shown_total": len(shown),
        "shown_share": share(len(shown_hits), len(shown)),
        "claims": len(claim_hits),
        "claims_total": claims,
        "claims_share": share(len(claim_hits), claims),
        "claim_rows": rows_of(claim_hits),
    }
    lines = []
    for form, what, entries in (
        (1, "concept name, rows", found[1]),
        (2, "concept name, rows, definition quote", found[2]),
        (8, "definitions: concept name, rows, definition quote", found[8]),
        (8, "claims: object id, rows, claim quote", claim_hits),
        (8, "shown text (definitions and claims as a reader reads them): kind, rows, text",
         [(kind, form_hits(8, text), text) for kind, text in shown_hits]),
    ):
        lines.append(f"# form {form}, {FORM_TITLES[form]} ({len(entries)}) — {what}")
        lines += [
            "\t".join(filter(None, (key, " ".join(rows), collapse(quote)))) for key, rows, quote in entries
        ]
    return figures, lines


# ---------------------------------------------------------------------------------------------
# one corpus (in its own process)


def stage_seconds(stages: Any) -> dict[str, Any] | None:
    """The engine's per-stage times ({"parse": s, "embed": s, "other": s}), rounded; None when absent."""
    if not isinstance(stages, Mapping) or not stages:
        return None
    return {str(k): round(float(v), 1) if isinstance(v, (int, float)) else str(v) for k, v in stages.items()}


def compile_corpus(name: str, root: Path, engine: Any = None) -> dict[str, Any]:
    """Commits corpus ``name`` into a new repo at ``root`` and compiles it from empty with ``engine``
    (default: the offline engine with its committed decision)."""
    from wikigen.compiler.driver import compile_repo
    from wikigen.engines.offline.engine import OfflineEngine

    files = corpus_files(name)
    repo = pygit2.init_repository(str(root), initial_head="main")
    committed: dict[str, bytes | str | None] = dict(files)
    if name in SETTINGS:
        # wikigen reads its settings from the work tree; the commit keeps the work tree clean.
        settings = SETTINGS[name].encode("utf-8")
        (root / "wikigen.yml").write_bytes(settings)
        committed["wikigen.yml"] = settings
    commit_files(repo, committed)
    engine = engine if engine is not None else OfflineEngine()
    started = time.perf_counter()
    report = compile_repo(root, engine=engine, batch=True)
    wall = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    data = report.as_json()

    embedded = None
    # OfflineEngine.timings (parse, embed, other) once the engine exposes it; "n/a" before.
    stages: Any = getattr(engine, "timings", None) or getattr(engine, "stage_seconds", None)
    try:
        from wikigen.evidence.rerank import Ranker

        ranker = Ranker.shared()
        embedded = getattr(ranker, "passages_embedded", None)
        stages = stages or getattr(ranker, "timings", None) or getattr(ranker, "stage_seconds", None)
    except Exception as exc:  # a benchmark reports what it can
        print(f"  (no ranker figures: {exc})")

    objects, relations = read_objects(repo)
    figures: dict[str, Any] = {
        "corpus": name,
        "sources": len(files),
        "published": data.get("published"),
        "increments": len(report.increments),
        "engine_calls": data.get("engine_calls"),
        "wall_s": round(wall, 1),
        "peak_rss_mb": round(peak_mb),
        "passages_embedded": embedded,
        "stage_seconds": stage_seconds(stages),
    }
    return {
        "figures": figures,
        "files": files,
        "objects": objects,
        "relations": relations,
        "paths": source_paths(repo),
    }


def measure(
    name: str, result: dict[str, Any], sample_dir: Path, figures_dir: Path, overwrite: bool
) -> dict[str, Any]:
    """The figures of one compile; writes the forms and the missing gold entries to ``figures_dir``
    and the draws to judge to ``sample_dir``, which holds nothing else a reader could open."""
    figures: dict[str, Any] = result["figures"]
    objects: dict[str, dict[str, Any]] = result["objects"]
    relations: list[dict[str, Any]] = result["relations"]
    files: dict[str, bytes] = result["files"]
    paths: dict[str, str] = result["paths"]
    kinds = Counter(o["kind"] for o in objects.values())
    concepts = {oid: o for oid, o in objects.items() if o["kind"] == "concept"}
    topics = [o for o in objects.values() if o["kind"] == "topic"]
    related = {r["subject"] for r in relations} | {r["object"] for r in relations}
    in_relation = sum(1 for cid in concepts if cid in related)
    figures |= {
        "articles": kinds["article"],
        "concepts": len(concepts),
        "relations": len(relations),
        "concepts_in_relation": in_relation,
        "concepts_in_relation_share": round(in_relation / len(concepts), 3) if concepts else None,
        "topics": len(topics),
    }
    figures["checks"] = quality_checks(objects, relations, files, paths)
    figures["forms"], form_lines = form_counts(concepts, objects, files)
    missing: list[str] = []
    if name == "k8s":
        figures["recall"], missing = k8s_recall(concepts)
    elif name == "elixir":
        figures["recall"], missing = elixir_recall(concepts, relations, paths)
    sample_dir.mkdir(parents=True, exist_ok=True)
    figures_dir.mkdir(parents=True, exist_ok=True)
    (figures_dir / f"{name}-forms.txt").write_text("\n".join(form_lines) + "\n", encoding="utf-8")
    if missing:
        (figures_dir / f"{name}-missing.txt").write_text("\n".join(missing) + "\n", encoding="utf-8")
    figures["samples"] = write_samples(name, concepts, relations, sample_dir, overwrite)
    figures["judged_anywhere"] = judged_anywhere(name, concepts, relations)
    return figures


def quality_checks(
    objects: Mapping[str, Mapping[str, Any]],
    relations: list[dict[str, Any]],
    files: Mapping[str, bytes],
    paths: Mapping[str, str],
) -> dict[str, Any]:
    # markup kind ("html", "shortcode") → where ("claims", "definitions", "quotes") → distinct texts
    found: dict[str, dict[str, set[tuple[str, ...]]]] = {
        kind: {where: set() for where in ("claims", "definitions", "quotes")}
        for kind in ("html", "shortcode")
    }
    examples: list[str] = []

    def check(where: str, key: tuple[str, ...], text: str) -> None:
        for kind in markup(text):
            found[kind][where].add(key)
            if kind == "html" and where != "quotes" and len(examples) < 5:
                examples.append(collapse(text)[:160])

    for oid in sorted(objects):
        obj = objects[oid]
        if obj["kind"] == "concept" and obj.get("definition"):
            check("definitions", (oid, obj["definition"].get("text", "")), obj["definition"].get("text", ""))
        for item in claims_of(obj):
            check("claims", (oid, item.get("text", "")), item.get("text", ""))
        for citation in obj.get("citations") or []:
            check("quotes", (citation["source"], citation["quote"]), citation["quote"])
    for rel in relations:
        for citation in rel.get("evidence") or []:
            check("quotes", (citation["source"], citation["quote"]), citation["quote"])

    stem_titles = []
    for art in (o for o in objects.values() if o["kind"] == "article"):
        for sid in art.get("sources") or []:
            path = paths.get(sid) or f"content/sources/{sid}.md"
            if path not in files:
                continue
            # A title that is the file name although the source has a heading (and neither its
            # frontmatter title nor a heading reads the same as the file name).
            stem = norm(Path(path).stem)
            meta, body = split_source(files[path])
            named = [str(meta.get("title") or ""), *headings(body)]
            if len(named) > 1 and norm(art["title"]) == stem and not any(norm(n) == stem for n in named if n):
                stem_titles.append(f"{art['title']} ({path})")
    topic_titles = Counter(norm(o["title"]) for o in objects.values() if o["kind"] == "topic")
    duplicated = {t: n for t, n in topic_titles.items() if n > 1}
    no_summary = sorted(o["title"] for o in objects.values() if o["kind"] == "topic" and not o.get("summary"))
    return {
        "html_claims": len(found["html"]["claims"]),
        "html_definitions": len(found["html"]["definitions"]),
        "html_quotes": len(found["html"]["quotes"]),
        "html_examples": examples,
        "shortcode_claims": len(found["shortcode"]["claims"]),
        "shortcode_definitions": len(found["shortcode"]["definitions"]),
        "shortcode_quotes": len(found["shortcode"]["quotes"]),
        "titles_equal_file_stem": len(stem_titles),
        "titles_equal_file_stem_examples": stem_titles[:5],
        "duplicate_topic_titles": sum(duplicated.values()),
        "duplicate_topic_title_groups": {t: n for t, n in sorted(duplicated.items())},
        "topics_without_summary": len(no_summary),
    }


def concept_names(concept: Mapping[str, Any]) -> list[str]:
    return [concept["name"], *(concept.get("aliases") or [])]


def k8s_recall(concepts: Mapping[str, Mapping[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """Glossary terms (mentions >= 3) whose match forms equal an extracted name or alias."""
    strict: set[str] = set()
    loose: set[str] = set()
    for concept in concepts.values():
        for name in concept_names(concept):
            strict |= number_forms(norm(name))
            loose |= number_forms(joined(name))
    gold = [row for row in gold_rows("k8s-concepts", "glossary.tsv") if int(row["mentions"]) >= 3]
    found = found_loose = 0
    missing = []
    missing_loose: set[str] = set()  # not found even with separators dropped (the gold README's match)
    for row in gold:
        forms = [f for f in row["match_forms"].split(";") if f.strip()]
        hit = any(norm(f) in strict for f in forms)
        hit_loose = any(joined(f) in loose for f in forms)
        found += hit
        found_loose += hit_loose
        if not hit_loose:
            missing_loose.add(row["term"])
        if not hit:
            missing.append(f"{row['term']}\t{row['match_forms']}\tmentions={row['mentions']}")
    recall = {
        "glossary_terms": len(gold),
        "found": found,
        "recall": round(found / len(gold), 3) if gold else None,
        "found_joined": found_loose,
        "recall_joined": round(found_loose / len(gold), 3) if gold else None,
    }
    # What the 115-page subset lets any reader find: a term judged out of reach leaves the
    # denominator unless the compile finds it anyway.
    out_of_reach = {
        row["term"]
        for row in glossary_ceiling()
        if row["verdict"] in UNREACHABLE and row["term"] in missing_loose
    }
    if out_of_reach:
        reachable = len(gold) - len(out_of_reach)
        recall["reachable"] = reachable
        recall["reachable_share"] = round(reachable / len(gold), 3)
        recall["recall_of_reachable"] = round(found_loose / reachable, 3)
    return recall, ["# glossary terms (mentions >= 3) not found: term, match_forms, mentions", *missing]


# Verdicts of tests/data/judged/glossary-ceiling/k8s-glossary-missing.tsv under which no sentence of
# the subset says what the glossary's term is or does (README there): no engine bound by R20 and
# the judging rule of tests/data/judged/ can define the term from these sources.
UNREACHABLE = frozenset({"none", "narrower", "use", "member", "comparison", "clause", "across-block"})


def glossary_ceiling() -> list[dict[str, str]]:
    path = REPO_ROOT / "tests" / "data" / "judged" / "glossary-ceiling" / "k8s-glossary-missing.tsv"
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def elixir_recall(
    concepts: Mapping[str, Mapping[str, Any]], relations: list[dict[str, Any]], paths: Mapping[str, str]
) -> tuple[dict[str, Any], list[str]]:
    """Concept and relation recall as the gold README's "How to score" says."""
    gold_concepts = gold_rows("elixir-guide", "concepts.tsv")
    gold_relations = gold_rows("elixir-guide", "relations.tsv")
    by_name: dict[str, set[str]] = {}  # normalized extracted name/alias → concept ids
    for cid, concept in concepts.items():
        for name in concept_names(concept):
            by_name.setdefault(norm(name), set()).add(cid)

    def gold_forms(row: Mapping[str, str]) -> list[str]:
        return [row["concept"], *(a for a in row["aliases"].split(";") if a.strip())]

    row_of: dict[str, Mapping[str, str]] = {}
    for row in gold_concepts:
        for form in gold_forms(row):
            row_of.setdefault(norm(form), row)

    def matches(row: Mapping[str, str]) -> set[str]:
        return {cid for form in gold_forms(row) for cid in by_name.get(norm(form), ())}

    missing = ["# concepts not found: concept, aliases, defining_file"]
    concept_found = 0
    for row in gold_concepts:
        if matches(row):
            concept_found += 1
        else:
            missing.append(f"{row['concept']}\t{row['aliases']}\t{row['defining_file']}")

    def names_in(quote: str, row: Mapping[str, str] | None, cids: set[str]) -> bool:
        text = norm(quote)
        names = (gold_forms(row) if row else []) + [n for cid in cids for n in concept_names(concepts[cid])]
        return any(norm(n) and norm(n) in text for n in names)

    missing.append("# relations not found: subject, predicate, object, file, quote")
    relation_found = 0
    for gold in gold_relations:
        subject_row, object_row = row_of.get(norm(gold["subject"])), row_of.get(norm(gold["object"]))
        subjects = matches(subject_row) if subject_row else set(by_name.get(norm(gold["subject"]), ()))
        objects_ = matches(object_row) if object_row else set(by_name.get(norm(gold["object"]), ()))
        hit = False
        for rel in relations:
            pair = (rel["subject"], rel["object"])
            if not (
                (pair[0] in subjects and pair[1] in objects_) or (pair[1] in subjects and pair[0] in objects_)
            ):
                continue
            for ev in rel.get("evidence") or []:
                same_file = Path(paths.get(ev["source"]) or ev["source"]).stem == Path(gold["file"]).stem
                if overlaps(ev.get("quote", ""), gold["quote"]) or (
                    same_file
                    and names_in(gold["quote"], subject_row, {pair[0], pair[1]} & subjects)
                    and names_in(gold["quote"], object_row, {pair[0], pair[1]} & objects_)
                ):
                    hit = True
                    break
            if hit:
                break
        relation_found += hit
        if not hit:
            missing.append("\t".join(gold[k] for k in ("subject", "predicate", "object", "file", "quote")))
    recall = {
        "gold_concepts": len(gold_concepts),
        "concepts_found": concept_found,
        "concept_recall": round(concept_found / len(gold_concepts), 3),
        "gold_relations": len(gold_relations),
        "relations_found": relation_found,
        "relation_recall": round(relation_found / len(gold_relations), 3),
    }
    return recall, missing


# ---------------------------------------------------------------------------------------------
# samples to judge by hand


def judged(path: Path) -> bool:
    """The file exists and someone filled in its verdict column."""
    if not path.exists():
        return False
    with path.open(newline="", encoding="utf-8") as handle:
        return any((row.get("verdict") or "").strip() for row in csv.DictReader(handle, delimiter="\t"))


def write_tsv(path: Path, header: list[str], rows: list[list[str]], overwrite: bool) -> str:
    """A draw to judge, written as the judged set is read: csv, a cell with a quote mark quoted."""
    if judged(path) and not overwrite:
        return f"kept (already judged): {path}"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(header)
        writer.writerows([collapse(c).replace("\t", " ") for c in row] + ["", ""] for row in rows)
    return f"wrote {len(rows)} rows: {path}"


CONCEPT_HEADER = ["id", "name", "aliases", "type", "definition", "quote", "source", "verdict", "reason"]
RELATION_HEADER = ["id", "subject", "predicate", "object", "quote", "source", "verdict", "reason"]


def _cited(obj: Mapping[str, Any], ids: Iterable[str]) -> tuple[str, str]:
    table = {c.get("citation_id"): c for c in obj.get("citations") or []}
    quotes = [table[i] for i in ids if i in table]
    return (" … ".join(c["quote"] for c in quotes), "; ".join(sorted({c["source"] for c in quotes})))


def concept_row(cid: str, concept: Mapping[str, Any]) -> list[str]:
    definition = concept.get("definition") or {}
    quote, source = _cited(concept, definition.get("citations") or [])
    return [
        cid,
        concept["name"],
        "; ".join(concept.get("aliases") or []),
        str(concept.get("type", "")),
        str(definition.get("text", "")),
        quote,
        source,
    ]


def relation_row(rel: Mapping[str, Any], concepts: Mapping[str, Mapping[str, Any]]) -> list[str]:
    evidence = rel.get("evidence") or []
    return [
        rel["id"],
        concepts.get(rel["subject"], {}).get("name", rel["subject"]),
        rel["predicate"],
        concepts.get(rel["object"], {}).get("name", rel["object"]),
        " … ".join(e["quote"] for e in evidence),
        "; ".join(sorted({e["source"] for e in evidence})),
    ]


def write_samples(
    name: str,
    concepts: Mapping[str, Mapping[str, Any]],
    relations: list[dict[str, Any]],
    sample_dir: Path,
    overwrite: bool,
) -> list[str]:
    drawn = random.Random(JUDGE_SEED).sample(sorted(concepts), min(JUDGE_SIZE, len(concepts)))
    concept_rows = [concept_row(cid, concepts[cid]) for cid in drawn]
    chosen = random.Random(JUDGE_SEED).sample(relations, min(JUDGE_SIZE, len(relations)))
    relation_rows = [relation_row(rel, concepts) for rel in chosen]
    return [
        write_tsv(sample_dir / f"{name}-concepts.tsv", CONCEPT_HEADER, concept_rows, overwrite),
        write_tsv(sample_dir / f"{name}-relations.tsv", RELATION_HEADER, relation_rows, overwrite),
    ]


def _row_key(row: Mapping[str, str | None]) -> tuple[str, ...]:
    """A judged row is the same row where its object, quote and definition (or predicate and object)
    are: the verdict is on what the reader saw. Quote marks and spaces are dropped from the key: a
    draw writes its cells unquoted, the judged set quotes a cell that holds a quote mark."""
    cells = (
        row["id"],
        row.get("quote", ""),
        row.get("definition", row.get("predicate", "")),
        row.get("object", ""),
    )
    return tuple(re.sub(r'["\s]+', " ", cell or "").strip() for cell in cells)


# The order of each file of the judged set: a concept by its name, a relation by its endpoints.
JUDGED_ORDER = {
    "concepts": ("name", "id", "definition", "quote"),
    "relations": ("subject", "predicate", "object", "quote", "id"),
}


def read_judged(path: Path) -> dict[tuple[str, ...], dict[str, str]]:
    """The rows of ``path`` that have a verdict, by ``_row_key`` (a later row replaces an earlier one
    with the same key); none where the file does not exist."""
    if not path.is_file():
        return {}
    with path.open(newline="", encoding="utf-8") as handle:
        # read as csv: the judged set quotes a cell that holds a quote mark
        rows = [row for row in csv.DictReader(handle, delimiter="\t") if row.get("verdict")]
    return {_row_key(row): row for row in rows}


def fold_judged(sample_dir: Path, judged_dir: Path = JUDGED_DIR) -> list[str]:
    """Folds the judged samples of ``sample_dir`` into the judged set: a row judged again replaces the
    verdict the set holds for it, a new row is added. Samples without a verdict are left out."""
    done = []
    for name in JUDGED_CORPORA:
        for kind, header in (("concepts", CONCEPT_HEADER), ("relations", RELATION_HEADER)):
            sample = sample_dir / f"{name}-{kind}.tsv"
            new = read_judged(sample)
            if not new:
                continue
            target = judged_dir / f"{name}-{kind}.tsv"
            rows = read_judged(target) | new
            columns = JUDGED_ORDER[kind]
            ordered = sorted(
                rows.items(), key=lambda item: ([(item[1].get(c) or "").casefold() for c in columns], item[0])
            )
            judged_dir.mkdir(parents=True, exist_ok=True)
            with target.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(
                    handle, header, delimiter="\t", lineterminator="\n", restval="", extrasaction="ignore"
                )
                writer.writeheader()
                writer.writerows(row for _, row in ordered)
            done.append(f"folded {len(new)} judged rows of {sample} into {target} ({len(rows)} rows)")
    return done


def judged_anywhere(
    name: str, concepts: Mapping[str, Mapping[str, Any]], relations: list[dict[str, Any]]
) -> dict[str, Any]:
    """Every concept and relation of the compile that the judged set (``tests/data/judged/current/``)
    holds with the same quote, and its verdict: the precision over all of them moves less with one
    seeded draw than a draw of 30 does."""
    result: dict[str, Any] = {}
    for kind, header, rows in (
        ("concepts", CONCEPT_HEADER, [concept_row(cid, c) for cid, c in sorted(concepts.items())]),
        ("relations", RELATION_HEADER, [relation_row(r, concepts) for r in relations]),
    ):
        verdicts = {
            key: row["verdict"] for key, row in read_judged(JUDGED_DIR / f"{name}-{kind}.tsv").items()
        }
        cells = [[collapse(c).replace("\t", " ") for c in row] for row in rows]  # as write_tsv writes them
        found = [verdicts.get(_row_key(dict(zip(header, row, strict=False)))) for row in cells]
        known = [v for v in found if v]
        result[kind] = {
            "rows": len(rows),
            "judged": len(known),
            "ok": sum(v == "ok" for v in known),
            "precision": round(sum(v == "ok" for v in known) / len(known), 3) if known else None,
        }
    return result


# ---------------------------------------------------------------------------------------------
# printing


def print_corpus(f: Mapping[str, Any]) -> None:
    def share(value: Any) -> str:
        return "n/a" if value is None else f"{value:.2f}"

    print(f"\n== {f['corpus']} ==")
    print(
        f"  sources {f['sources']}, increments {f['increments']}, engine calls {f['engine_calls']}, "
        f"published {f['published']}"
    )
    print(
        f"  articles {f['articles']}, concepts {f['concepts']}, relations {f['relations']}, topics {f['topics']}"
    )
    covered = f["concepts_in_relation_share"]
    half = "n/a" if covered is None else ("yes" if covered >= 0.5 else "no")
    print(
        f"  concepts with at least one relation: {f['concepts_in_relation']} of {f['concepts']} "
        f"(share {share(f['concepts_in_relation_share'])}; at least half: {half})"
    )
    recall = f.get("recall")
    if recall and "glossary_terms" in recall:
        print(
            f"  glossary recall (mentions >= 3): {recall['found']}/{recall['glossary_terms']} = "
            f"{share(recall['recall'])}; with separators dropped (camelCase/'Add-ons' = 'addons'): "
            f"{recall['found_joined']}/{recall['glossary_terms']} = {share(recall['recall_joined'])}"
        )
        if "reachable" in recall:
            print(
                f"  glossary terms the subset defines or describes (judged, glossary-ceiling/): "
                f"{recall['reachable']}/{recall['glossary_terms']} = {share(recall['reachable_share'])}; "
                f"found {recall['found_joined']} of them = {share(recall['recall_of_reachable'])}"
            )
    elif recall:
        print(
            f"  concept recall: {recall['concepts_found']}/{recall['gold_concepts']} = "
            f"{share(recall['concept_recall'])}; relation recall: {recall['relations_found']}/"
            f"{recall['gold_relations']} = {share(recall['relation_recall'])}"
        )
    else:
        print("  recall: n/a (no gold list)")
    c = f["checks"]
    print(
        f"  raw HTML: claims {c['html_claims']}, definitions {c['html_definitions']}, quotes {c['html_quotes']}"
    )
    print(
        f"  Hugo shortcodes: claims {c['shortcode_claims']}, definitions {c['shortcode_definitions']}, "
        f"quotes {c['shortcode_quotes']}"
    )
    for example in c["html_examples"]:
        print(f"    e.g. {example}")
    print(f"  article titles equal to the file stem (source has a heading): {c['titles_equal_file_stem']}")
    for example in c["titles_equal_file_stem_examples"]:
        print(f"    e.g. {example}")
    print(
        f"  topics sharing a title: {c['duplicate_topic_titles']} {c['duplicate_topic_title_groups'] or ''}".rstrip()
    )
    print(f"  topics without a summary: {c['topics_without_summary']}")
    forms = f["forms"]

    def fired(rows: Mapping[str, int]) -> str:
        return ": " + ", ".join(f"{row} {n}" for row, n in rows.items()) if rows else ""

    for form in (1, 2, 8):
        g = forms[f"form{form}"]
        print(
            f"  form {form} ({FORM_TITLES[form]}): {g['concepts']} of {f['concepts']} concepts "
            f"(share {share(g['share'])}){fired(g['rows'])}"
        )
    g = forms["form8"]
    print(
        f"    and claims: {g['claims']} of {g['claims_total']} (share {share(g['claims_share'])}){fired(g['claim_rows'])}"
    )
    print(
        f"    in the text a reader reads (definitions and claims, markup rendered): {g['shown']} of "
        f"{g['shown_total']} (share {share(g['shown_share'])})"
    )
    print(f"    names: {f['corpus']}-forms.txt in the figures dir")
    stages = f["stage_seconds"]
    stage_text = ", ".join(f"{k} {v} s" for k, v in stages.items()) if stages else "n/a"
    embedded = "n/a" if f["passages_embedded"] is None else f"{f['passages_embedded']:,}"
    print(f"  wall {f['wall_s']:.1f} s, peak RSS {f['peak_rss_mb']} MB, passages embedded {embedded}")
    print(f"  stage times: {stage_text}")
    for line in f["samples"]:
        print(f"  sample {line}")
    for kind, j in (f.get("judged_anywhere") or {}).items():
        if j["judged"]:
            print(
                f"  {kind} judged in some sample (same quote): {j['judged']} of {j['rows']}, "
                f"ok {j['ok']} = {j['precision']:.2f}"
            )


def print_table(all_figures: list[Mapping[str, Any]]) -> None:
    Cell = Callable[[Mapping[str, Any]], str]

    def recall_cell(f: Mapping[str, Any], key: str) -> str:
        r = f.get("recall") or {}
        return "n/a" if r.get(key) is None else f"{r[key]:.2f}"

    def form_cell(f: Mapping[str, Any], form: str) -> str:
        g = f["forms"][form]
        return f"{g['concepts']} ({g['share'] or 0:.2f})"

    def judged_cell(f: Mapping[str, Any], kind: str) -> str:
        j = (f.get("judged_anywhere") or {}).get(kind) or {}
        return f"{j['ok']}/{j['judged']} ({j['precision']:.2f})" if j.get("judged") else "n/a"

    rows: list[tuple[str, Cell]] = [
        ("sources", lambda f: str(f["sources"])),
        ("articles", lambda f: str(f["articles"])),
        ("concepts", lambda f: str(f["concepts"])),
        ("relations", lambda f: str(f["relations"])),
        (
            "concepts in a relation",
            lambda f: f"{f['concepts_in_relation']} ({f['concepts_in_relation_share'] or 0:.2f})",
        ),
        ("topics", lambda f: str(f["topics"])),
        ("glossary recall", lambda f: recall_cell(f, "recall")),
        ("glossary terms reachable", lambda f: recall_cell(f, "reachable_share")),
        ("concept recall", lambda f: recall_cell(f, "concept_recall")),
        ("relation recall", lambda f: recall_cell(f, "relation_recall")),
        (
            "raw HTML claims/defs/quotes",
            lambda f: "{html_claims}/{html_definitions}/{html_quotes}".format(**f["checks"]),
        ),
        ("titles = file stem", lambda f: str(f["checks"]["titles_equal_file_stem"])),
        ("form 1: code/file names", lambda f: form_cell(f, "form1")),
        ("form 2: leaning/colon defs", lambda f: form_cell(f, "form2")),
        ("form 8: markup in defs", lambda f: form_cell(f, "form8")),
        (
            "form 8: markup in claims",
            lambda f: "{claims} ({share})".format(
                claims=f["forms"]["form8"]["claims"], share=f"{f['forms']['form8']['claims_share'] or 0:.2f}"
            ),
        ),
        (
            "form 8: markup in shown text",
            lambda f: "{n} ({share})".format(
                n=f["forms"]["form8"]["shown"], share=f"{f['forms']['form8']['shown_share'] or 0:.2f}"
            ),
        ),
        ("topics sharing a title", lambda f: str(f["checks"]["duplicate_topic_titles"])),
        ("topics without summary", lambda f: str(f["checks"]["topics_without_summary"])),
        ("concepts judged ok (any sample)", lambda f: judged_cell(f, "concepts")),
        ("relations judged ok (any sample)", lambda f: judged_cell(f, "relations")),
        ("wall (s)", lambda f: f"{f['wall_s']:.1f}"),
        ("peak RSS (MB)", lambda f: str(f["peak_rss_mb"])),
        (
            "passages embedded",
            lambda f: "n/a" if f["passages_embedded"] is None else str(f["passages_embedded"]),
        ),
        (
            "stage times (s)",
            lambda f: (
                " ".join(f"{k}={v}" for k, v in f["stage_seconds"].items()) if f["stage_seconds"] else "n/a"
            ),
        ),
    ]
    table = [["", *(f["corpus"] for f in all_figures)]]
    table += [[label, *(cell(f) for f in all_figures)] for label, cell in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    print("\n== summary ==")
    for row in table:
        print(
            "  "
            + "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )


# ---------------------------------------------------------------------------------------------


def run_child(name: str, sample_dir: Path, figures_dir: Path, keep: Path | None, overwrite: bool) -> int:
    if keep is not None:
        root = keep / name
        if root.exists() and any(root.iterdir()):
            print(f"{name}: --keep target {root} exists and is not empty; remove it or choose another dir")
            return 2
        root.mkdir(parents=True, exist_ok=True)
        result = compile_corpus(name, root)
    else:
        with tempfile.TemporaryDirectory(prefix=f"bench-quality-{name}-") as tmp:
            result = compile_corpus(name, Path(tmp) / "repo")
    figures = measure(name, result, sample_dir, figures_dir, overwrite)
    if keep is not None:
        figures["kept"] = str(keep / name)
    (figures_dir / f"{name}-figures.json").write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    print_corpus(figures)
    if keep is not None:
        print(f"  compiled repo kept at {keep / name}")
    return 0


def left_out(names: list[str], out: Path) -> list[str]:
    """Records the corpora's scored items into ``out`` and prints the leave-one-corpus-out table
    (``scripts/fit_decision.py``); the corpora whose record failed."""
    import fit_decision  # it imports this module

    out.mkdir(parents=True, exist_ok=True)
    script = str(Path(__file__).resolve().with_name("fit_decision.py"))
    failed = []
    for name in names:
        print(f"\n{name}: recording scored items ...", flush=True)
        if subprocess.run([sys.executable, script, "record", name, "--out", str(out)], cwd=REPO_ROOT).returncode:
            failed.append(name)
    recorded = fit_decision.recorded_items(out)
    print()
    fit_decision.print_left_out({name: recorded[name] for name in names if name in recorded}, fit_decision.TARGET)
    return failed


def main(argv: list[str] | None = None) -> int:
    global JUDGE_SEED  # --seed: a fresh draw for readers who have not seen the earlier ones
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "corpora", nargs="*", metavar="CORPUS", help="k8s, elixir, tldr and/or typer (default: all four)"
    )
    parser.add_argument("--sample-dir", type=Path, default=REPO_ROOT / "tests" / "data" / "judged")
    parser.add_argument(
        "--figures-dir",
        type=Path,
        default=FIGURES_DIR,
        help="where the figures, forms and missing gold entries go, apart from the draws (default .bench/quality)",
    )
    parser.add_argument("--keep", type=Path, default=None, help="keep each compiled repo as DIR/<corpus>")
    parser.add_argument(
        "--overwrite-judged",
        action="store_true",
        help="rewrite sample files even when their verdict column is filled in",
    )
    parser.add_argument(
        "--fold",
        action="store_true",
        help="fold the judged samples of the sample dir into tests/data/judged/current/ and exit",
    )
    parser.add_argument(
        "--seed", type=int, default=JUDGE_SEED, help=f"seed of the draws to judge (default {JUDGE_SEED})"
    )
    parser.add_argument(
        "--loo", type=Path, default=None, metavar="DIR", help="record items into DIR and print the leave-one-out table"
    )
    parser.add_argument(
        "--unseen",
        action="append",
        default=[],
        metavar="NAME=DIR",
        help="also compile and draw the Markdown under DIR as corpus NAME: text the engine was never tuned on "
        "(no gold, not folded into the judged set, not in --loo); repeatable",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    JUDGE_SEED = args.seed
    unseen = [add_unseen(spec) for spec in args.unseen]
    unknown = [c for c in args.corpora if c not in CORPORA]
    if unknown:
        parser.error(f"unknown corpus {', '.join(unknown)}; choose from {', '.join(CORPORA)}")
    names = [c for c in CORPORA if c in args.corpora] or list(CORPORA)
    sample_dir = args.sample_dir.resolve()
    sample_dir.mkdir(parents=True, exist_ok=True)
    figures_dir = args.figures_dir.resolve()
    keep = args.keep.resolve() if args.keep else None
    if args.fold:
        print("\n".join(fold_judged(sample_dir)) or f"no judged samples in {sample_dir}")
        return 0
    if args.child:
        return run_child(names[0], sample_dir, figures_dir, keep, args.overwrite_judged)

    all_figures = []
    failed = []
    for name in names:
        print(f"\n{name}: compiling from empty ...", flush=True)
        command = [
            sys.executable,
            str(Path(__file__).resolve()),
            name,
            "--child",
            "--sample-dir",
            str(sample_dir),
            "--figures-dir",
            str(figures_dir),
            "--seed",
            str(args.seed),
        ]
        if keep:
            command += ["--keep", str(keep)]
        if args.overwrite_judged:
            command.append("--overwrite-judged")
        command += [f"--unseen={spec}" for spec in args.unseen]
        figures_path = figures_dir / f"{name}-figures.json"
        figures_path.unlink(missing_ok=True)
        done = subprocess.run(command, cwd=REPO_ROOT)
        if done.returncode != 0 or not figures_path.exists():
            print(f"{name}: failed (exit {done.returncode})")
            failed.append(name)
            continue
        all_figures.append(json.loads(figures_path.read_text()))
    if all_figures:
        print_table(all_figures)
        print(f"\ndraws to judge: {sample_dir}\nfigures, forms and missing gold entries: {figures_dir}")
    if args.loo is not None and not failed:
        failed += left_out([name for name in names if name not in unseen], args.loo.resolve())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
