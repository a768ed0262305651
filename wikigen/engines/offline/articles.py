"""Articles (R20): one per changed source, read like a wiki page and cited from its passages (E1).

- **Title** (R1, for the article only): the source's frontmatter title, else its first H1, else its
  first heading of any level (chapters often open with ``##``), else the file name. The source's own
  title and version never change.
- **Summary**: the lead (the opening paragraph under the title, when it is prose), then the passages
  that best cover the rest, chosen by maximal marginal relevance over the ONNX embeddings so that no
  two say the same; a section never loses its best passage to the summary, and none that opens by
  pointing at text before it ("These two functions …", "Here we have …") is picked after the lead.
- **Sections** follow the headings (the two shallowest levels below the title, ``##`` and ``###``
  in most sources); each cites the passages under it that rank best against its heading.
- **Status** (R37) is each claim's own sentence's: a passage whose sentences differ in status gives
  one claim per run of sentences that share one (a fact, then a suspected cause).
- No passage is cited twice in one article, and none that is a greeting, a question to the reader,
  a contributor list or a navigation line (link lists are not passages at all, E1).
- No claim quotes doc-tool markup (R22, :data:`markup.FORMS`): a claim starts at a passage's first
  sentence that holds none and ends before the next markup; a passage of markup only is not cited.

An article depends on its own source only (:func:`fit`). Scores are rounded and ties go to the
earlier passage, so the same source gives the same article.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from wikigen.engines.offline import discourse, markup
from wikigen.engines.offline.documents import Document, Heading, Json, Scorer, claim, shown
from wikigen.engines.offline.text import has_tag, sentences
from wikigen.evidence.passages import Passage
from wikigen.evidence.rerank import DIGITS
from wikigen.model.hashing import canonical_bytes

SUMMARY_CLAIMS = 3
SECTION_CLAIMS = 2
DELTA_BYTES = 90_000  # under the pipeline's 100,000-byte limit on analyze's delta
MMR_LAMBDA = 0.7  # relevance against redundancy when the summary picks its passages
RUNS_PER_PASSAGE = 3  # claims one passage may give when its sentences differ in status (R37)
SAME = 0.9  # two passages this similar say the same thing: never both in one article
FLOOR = 0.5  # a pick ranks at least this share of the best candidate's score (off-topic text stays out)


@dataclass(frozen=True, slots=True)
class Plan:
    """What an article cites, in reading order: summary passages and (heading, passages) sections."""

    document: Document
    summary: tuple[str, ...]
    sections: tuple[tuple[str, tuple[str, ...]], ...]
    title: str = ""


def article_title(document: Document) -> str:
    """R1 for the article only: frontmatter title, else first H1, else first heading, else file name.

    The request carries the source's title (frontmatter ``title``, else first H1, else the file
    stem). With no H1 in the body, a title equal to the file stem (the last part of the default id)
    is that default, so the article takes the first heading of any level instead.
    """
    title = document.title
    if not document.headings or any(h.level == 1 for h in document.headings):
        return title
    if title in (document.source, document.source.rsplit("/", 1)[-1]):
        return shown(document.headings[0].markdown or document.headings[0].text)
    return title


def queries(document: Document) -> list[str]:
    """The article query (title and section headings) and one query per section heading."""
    headings = [h.text for h in _section_headings(document)]
    return [". ".join([article_title(document), *headings]), *headings]


def article_plan(document: Document, scorer: Scorer) -> Plan | None:
    """One article per changed source: lead and covering summary, sections by heading (R20)."""
    title = article_title(document)
    readable = [p for p in document.passages if not p.text.startswith("|")] or list(document.passages)
    prose = (
        [p for p in readable if not boilerplate(p.text)]
        or [p for p in readable if boilerplate(p.text) != "markup"]
        or readable
    )
    if not prose:
        quote = _fallback_quote(document.body)
        # an empty body cites nothing
        return None if quote is None else Plan(document, (quote,), (), title)
    headings = _section_headings(document)
    under = _under_headings(document, headings, prose)
    query = queries(document)[0]
    relevance = {p.start: scorer.similarity(query, p.text) for p in prose}
    # A section keeps its best passage; the summary takes from what is left.
    reserved = {_by_heading(h, found, scorer)[0].start for h in headings if (found := under[h.start])}
    summary = _summary(document, headings, prose, relevance, reserved, scorer)
    cited = list(summary)
    sections = []
    for heading in headings:
        picks = _section(heading, under[heading.start], cited, scorer)
        cited.extend(picks)
        if picks:
            sections.append((heading.text, tuple(p.text for p in sorted(picks, key=_start))))
    ordered = tuple(p.text for p in sorted(summary, key=_start))
    return Plan(document, ordered, tuple(sections), title)


def _summary(
    document: Document,
    headings: Sequence[Heading],
    prose: Sequence[Passage],
    relevance: dict[int, float],
    reserved: set[int],
    scorer: Scorer,
) -> list[Passage]:
    """The lead, then maximal marginal relevance over the rest (MMR_LAMBDA), none the same as another."""
    top = max(relevance.values())
    floor = round(FLOOR * top, DIGITS) if top > 0 else 0.0
    first_section = headings[0].start if headings else len(document.body)
    lead = next((p for p in prose if p.start < first_section and _is_prose(document.body, p)), None)
    chosen = [lead] if lead is not None and relevance[lead.start] >= floor else []
    pool = [
        p
        for p in prose
        if p not in chosen
        and p.start not in reserved
        and relevance[p.start] >= floor
        and not _is_lead_in(p)
        and not discourse.points_back(shown(p.text))  # "These two functions …" leans on what it does not quote
    ]
    while len(chosen) < SUMMARY_CLAIMS:
        pool = [p for p in pool if not _is_cited_already(p, chosen, scorer)]
        if not pool:
            break
        scored = [(_mmr(p, relevance, chosen, scorer), p) for p in pool]
        pick = min(scored, key=lambda pair: (-pair[0], pair[1].start))[1]
        chosen.append(pick)
        pool.remove(pick)
    if not chosen:  # every passage is a section's only one: the summary still cites the best (schema)
        chosen.append(min(prose, key=lambda p: (-relevance[p.start], p.start)))
    return chosen


def _mmr(passage: Passage, relevance: dict[int, float], chosen: Sequence[Passage], scorer: Scorer) -> float:
    redundancy = max((scorer.similarity(passage.text, c.text) for c in chosen), default=0.0)
    return round(MMR_LAMBDA * relevance[passage.start] - (1 - MMR_LAMBDA) * redundancy, DIGITS)


def _section(
    heading: Heading, under: Sequence[Passage], cited: Sequence[Passage], scorer: Scorer
) -> list[Passage]:
    """The passages under ``heading`` that rank best against it, none cited already (or the same)."""
    ranked = _by_heading(heading, under, scorer)
    if not ranked:
        return []
    floor = round(FLOOR * scorer.similarity(heading.text, ranked[0].text), DIGITS)
    picks: list[Passage] = []
    for passage in ranked:
        if len(picks) == SECTION_CLAIMS:
            break
        if scorer.similarity(heading.text, passage.text) < floor:
            break
        if not _is_cited_already(passage, [*cited, *picks], scorer):
            picks.append(passage)
    return picks


def _by_heading(heading: Heading, under: Sequence[Passage], scorer: Scorer) -> list[Passage]:
    """``under`` best first against ``heading``; a lead-in to a code sample or a list reads broken
    without it, so lead-ins come last."""
    ranked = scorer.rank(heading.text, under, _text, _start)
    return [p for p in ranked if not _is_lead_in(p)] + [p for p in ranked if _is_lead_in(p)]


def _is_cited_already(passage: Passage, cited: Sequence[Passage], scorer: Scorer) -> bool:
    """The same text, or text that says the same (cosine at least SAME), is cited already."""
    return any(c.text == passage.text or scorer.similarity(c.text, passage.text) >= SAME for c in cited)


def _section_headings(document: Document) -> list[Heading]:
    """The headings sections follow: the two shallowest levels below the title's own heading."""
    headings = list(document.headings)
    if headings and (headings[0].level == 1 or shown(headings[0].markdown) == article_title(document)):
        headings = headings[1:]  # the page's own heading is its title, not a section
    levels = sorted({h.level for h in headings})[:2]
    return [h for h in headings if h.level in levels]


def _under_headings(
    document: Document, headings: Sequence[Heading], prose: Sequence[Passage]
) -> dict[int, list[Passage]]:
    under: dict[int, list[Passage]] = {}
    for index, heading in enumerate(headings):
        end = headings[index + 1].start if index + 1 < len(headings) else len(document.body)
        under[heading.start] = [p for p in prose if heading.start < p.start < end]
    return under


def _text(passage: Passage) -> str:
    return passage.text


def _start(passage: Passage) -> int:
    return passage.start


# ---------------------------------------------------------------------------------------------
# What a wiki page leaves out: greetings, questions to the reader, contributor lists, navigation.

_LIST_ITEM = re.compile(r"[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,9}[.)])[ \t]+$")
_GREETING = re.compile(
    r"^(?:welcome|hello|hi|hey|greetings|thanks(?! to)|thank you|cheers|congratulations|congrats"
    r"|happy (?:coding|hacking|learning|reading)|enjoy(?: the| your)? (?:ride|reading|guide|book))\b",
    re.IGNORECASE,
)
_TO_READER = re.compile(
    r"^(?:looking for|want(?:s)? to|need(?:s)? (?:help|more)|have (?:you|a|any)|do you|did you|are you"
    r"|would you|could you|can you|interested in|ready to|curious|wondering|got (?:a|any)|stuck|questions)\b"
    r"|\byou(?:r|rs|rself)?\b",
    re.IGNORECASE,
)
_NAVIGATION = re.compile(
    r"^(?:(?:up )?next|previous|prev|back|read next|what's next|next steps?|further reading)"
    r"(?:\s+(?:chapter|page|section|article|lesson))?\s*[:→»>|]"
    r"|^(?:see also|go (?:back )?to|return to|back to|continue (?:to|with|reading)|jump to)\b"
    r"|^(?:this|that) (?:finishes|concludes|wraps up|ends) (?:our|the|this)\b"
    r"|^in the (?:next|following|previous) (?:chapter|section|page|lesson)s?\b"
    r"|^[←→«»]",
    re.IGNORECASE,
)
# "Now let's talk about maps.", "With this out of the way, let's look at …": the guide turning a page
_TRANSITION = re.compile(
    r"^(?:[\w' ]{1,40},\s*)?(?:now,?\s+)?(?:let's|let us)\s+(?:now\s+)?"
    r"(?:talk|look|move|turn|start|begin|dive|explore|discuss|go|continue|get started|take a look)\b",
    re.IGNORECASE,
)
_CONTACT = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<![\w@`])@[A-Za-z0-9][\w-]{1,38}\b")
_ROLE = re.compile(
    r"^(?:maintainers?|contributors?|authors?|credits|acknowledg\w*|written by|maintained by|contact)\b", re.I
)
_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)


def boilerplate(quote: str) -> str | None:
    """Why a passage is not a wiki claim ("greeting", "question to the reader", "contributor list",
    "navigation", "raw HTML", "markup"), or None. Decided from what a reader sees of it, its first
    sentence first."""
    if has_tag(quote):
        return "raw HTML"  # "2<sup>12</sup>", "…<br />": the page would show the tag or lose it
    if not _from_clean_sentence(quote):
        return "markup"  # R22: "{* src/main.py *}": no sentence of it can be quoted without markup
    text = shown(quote)
    cut = sentences("", text, keep_markup=True)
    first = " ".join((cut[0].text if cut else text).split())
    if _GREETING.match(text):
        return "greeting"
    if first.rstrip("\"')]*_ ").endswith("?") and _TO_READER.search(first):
        return "question to the reader"
    contacts = len(_CONTACT.findall(_CODE.sub(" ", text)))
    if contacts >= 2 or (contacts and (_ROLE.match(first) or len(text) < 100)):
        return "contributor list"
    if _NAVIGATION.match(first) or (len(cut) == 1 and _TRANSITION.match(first)):
        return "navigation"
    return None


def _is_lead_in(passage: Passage) -> bool:
    """A passage that ends with ":" introduces what follows it (a code sample, a list)."""
    return passage.text.rstrip("*_ ").endswith(":")


def _is_prose(body: str, passage: Passage) -> bool:
    """A lead is a paragraph of sentences: not a list item or a table."""
    line = body.rfind("\n", 0, passage.start) + 1
    if _LIST_ITEM.match(body, line, passage.start) or passage.text.startswith("|"):
        return False
    return bool(sentences("", passage.text, keep_markup=True))


def _from_clean_sentence(quote: str) -> str:
    """R22: ``quote`` from its first sentence that holds no markup on (all of it when it holds none),
    or "" when every sentence holds some. Pointers ("see Figure 2") are kept: an article may cite them."""
    if not markup.holds(quote, pointers=False):
        return quote
    for sentence in sentences("", quote, keep_markup=True):
        if not markup.holds(sentence.text, pointers=False):
            return quote[sentence.start :]
    return ""


def _claims_of(source: str, quote: str) -> list[Json]:
    """R37: one claim per run of sentences that share a status, so a paragraph that states a fact and
    then suspects a cause gives a stated claim and a hypothesis, each quoting its own sentences.
    R22: each run starts at a sentence that holds no markup and ends before the next markup."""
    made: list[Json] = []
    rest = quote
    cut = sentences("", quote, keep_markup=True)
    if len(cut) > 1 and _TRANSITION.match(cut[0].text):
        rest = quote[cut[1].start :]  # the page turns, then says something: the claim is what it says
    while len(made) < RUNS_PER_PASSAGE and (rest := _from_clean_sentence(rest)):
        built = claim(source, rest)
        made.append(built)
        rest = rest[len(built["quotes"][0]["quote"]) :].lstrip()
        if not sentences("", rest, keep_markup=True):
            break
    return made


def _article(plan: Plan) -> Json:
    """The article of ``plan``: its summary claims, then one section per heading; no quote twice."""
    source = plan.document.source
    quoted: set[str] = set()

    def claims(quotes: Sequence[str]) -> list[Json]:
        built = []
        for quote in quotes:
            for made in _claims_of(source, quote):
                if made["quotes"][0]["quote"] not in quoted:
                    quoted.add(made["quotes"][0]["quote"])
                    built.append(made)
        return built

    # a page with no sentence free of markup still cites its first passage (the summary is required)
    summary = claims(plan.summary) or [claim(source, plan.summary[0])]
    article: Json = {"title": plan.title or plan.document.title, "sources": [source], "summary": summary}
    sections = []
    for heading, quotes in plan.sections:
        made = claims(quotes)
        if made:
            sections.append({"heading": heading, "claims": made})
    if sections:
        article["sections"] = sections
    return article


def fit(plans: Sequence[Plan], delta: Json) -> None:
    """The articles, each a function of its own source only; cross-source objects give way if needed.

    An article never depends on what else is in its increment (R24: compiled alone, in a batch or
    after any history, its file is byte-identical). The pipeline refuses an analyze delta over
    100,000 bytes, so when the delta is too big the concepts keep one piece of evidence and topics
    drop their summaries; what still does not fit fails in the pipeline and is split with --batch,
    whose increments are sized well below that limit.
    """
    delta["articles"] = [_article(plan) for plan in plans]
    if len(canonical_bytes(delta)) <= DELTA_BYTES:
        return
    for concept in delta["concepts"]:
        concept["evidence"] = concept["evidence"][:1]
    for topic in delta["topics"]:
        topic.pop("summary", None)


def _fallback_quote(body: str) -> str | None:
    """A source without passages is still covered: its trimmed body if short, else its longest line."""
    trimmed = body.strip()
    if not trimmed:
        return None
    if len(trimmed) <= 300:
        return trimmed
    return max((line.strip() for line in trimmed.splitlines()), key=len)
