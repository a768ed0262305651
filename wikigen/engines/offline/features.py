"""What the fitted decision (:mod:`wikigen.engines.offline.decision`) weighs: features of a definition
and of a relation, each a named row with the example it must fire on and one it must not (R20).

A feature reads a frozen view: the concept's name and its defining quote with where it stands
(:class:`DefinitionView`), or a relation's endpoints, predicate and first quote
(:class:`RelationView`). Every feature is a number in [0, 1]; a name's salience is a share (the
sources of the increment that mention it), so an increment of one source and one of a hundred read
on the same scale. The examples are the test of each row (``tests/test_features.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from wikigen.engines.offline.discourse import opens_on_connective
from wikigen.engines.offline.lexicon import NAMING_PHRASES, POINTING_PRONOUNS, alternation

# ---------------------------------------------------------------------------------------------
# Views


@dataclass(frozen=True, slots=True)
class DefinitionView:
    """One definition of a term as the decision sees it."""

    term: str  # as written
    quote: str  # what a reader sees of the defining quote
    pattern: str  # the form that found it: copula, described, called, glossary, list, lead
    code: bool = False  # written as code in the source
    path: str = ""  # the source's id ("knowledge/tutorial/options")
    title: str = ""  # the source's title
    in_heading: bool = False  # a heading of its source names the term
    mentions: int = 1  # sentences of its source that name it
    spread: float = 0.0  # share of the increment's sources that name it (0 with one source)


@dataclass(frozen=True, slots=True)
class RelationView:
    """One relation as the decision sees it."""

    subject: str
    predicate: str
    object: str
    quote: str  # what a reader sees of its first evidence
    quotes: int = 1  # sentences stating it
    path: str = ""


@dataclass(frozen=True, slots=True)
class Feature:
    """A named test over a view, with a sentence it must fire on and one it must not."""

    name: str
    what: str
    test: Callable[..., float]
    fires_on: object
    not_on: object


# ---------------------------------------------------------------------------------------------
# Forms of a name and of a sentence, shared by both tables

_IDENTIFIER = re.compile(
    r"[A-Za-z_][\w]*_\w+|[a-z]+[A-Z]\w*|[\w.]+\(\)|[\w.]+/\d+|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"
)
_FILE = re.compile(r"[\w./-]+\.(?:py|md|js|ts|jsx|tsx|json|ya?ml|toml|txt|cfg|ini|sh|html|css|rs|go|ex|exs|lock)")
_POINTS_BACK = re.compile(r"\b(?:above|previous(?:ly)?|earlier|like this|the following|as follows|below)\b", re.I)
# An example walked through: "Here, we …", "In this example …", "Third, the `run` function …"
_WALKTHROUGH = re.compile(
    r"^(?:here,? (?:we|you)|in (?:this|the) (?:example|code|snippet|case)|this (?:code|example|snippet|program)|"
    r"let'?s\b|let us\b|now,? (?:we|you|let)\b|(?:first|second|third|fourth|next|finally|then),)",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(r"\b(?:(?i:we|us|our|you|your)|I)\b")
_NEGATION = re.compile(r"\b(?:not|no|never|none|nothing|cannot|without)\b|n't\b", re.IGNORECASE)
_CONDITION = re.compile(r"^(?:if|when|whenever|unless|once|after|before|while)\b|,\s*(?:if|unless|when)\b", re.I)
_MODAL = re.compile(r"\b(?:can|could|may|might|should|would|must|will)\b", re.IGNORECASE)
_USE = re.compile(r"\b(?:use[sd]?|using)\b", re.IGNORECASE)
_MARKUP = re.compile(
    r"(?:^|\s)>\s|<!--|\]\[[^\]]*\]|\{\*|\*\}|\{\{[#<%]|--8<--|\bListing \d+-\d+|\*[A-Z][\w ()]+:\*", re.M
)
_CALLED = re.compile(rf"\b(?:is|are) (?:{alternation(NAMING_PHRASES | {'named'})})\b|\brefers? to\b", re.I)
_CHANGELOG = re.compile(r"release[-_ ]?notes|changelog|history|news|what'?s[-_ ]new", re.IGNORECASE)
_DETERMINER = re.compile(r"^(?:a|an|the)\s", re.IGNORECASE)


def _leans_back(quote: str) -> bool:
    """ "This is called *memoization*.", "Then the tool …": the quote opens on a pointing pronoun or
    on a connective of :mod:`wikigen.engines.offline.discourse`."""
    text = quote.lstrip("*_> ")
    first = text.split(maxsplit=1)[0].casefold() if text.strip() else ""
    return first in POINTING_PRONOUNS or opens_on_connective(text)


def _opens_with(quote: str, name: str) -> bool:
    text = _DETERMINER.sub("", quote.lstrip("*_`[ ")).casefold()
    return bool(name) and text.startswith(_DETERMINER.sub("", name).casefold())


def _copula_after(quote: str, name: str) -> bool:
    """ "A *Pod* is the smallest …": the name, then is/are and an article."""
    if not _opens_with(quote, name):
        return False
    rest = _DETERMINER.sub("", quote.lstrip("*_`[ "))[len(_DETERMINER.sub("", name)) :]
    return re.match(r"^[\W]*\s*(?:\([^)]*\)\s*)?(?:is|are)\s+(?:a|an|the|one)\b", rest, re.IGNORECASE) is not None


def _words(text: str) -> int:
    return len(text.split())


# ---------------------------------------------------------------------------------------------
# The tables


# The forms a definition is found by (labels the engine gives, not words)
DEFINITION_PATTERNS = ("copula", "described", "called", "glossary", "list", "lead")


def _d(term: str, quote: str, **kw: object) -> DefinitionView:
    return DefinitionView(term, quote, str(kw.pop("pattern", "copula")), **kw)  # type: ignore[arg-type]


def _r(subject: str, predicate: str, obj: str, quote: str, **kw: object) -> RelationView:
    return RelationView(subject, predicate, obj, quote, **kw)  # type: ignore[arg-type]


DEFINITION_FEATURES: tuple[Feature, ...] = (
    Feature(
        "identifier", "the name is a code identifier or a dotted name",
        lambda v: float(_IDENTIFIER.fullmatch(v.term) is not None),
        _d("total_count", "`total_count` holds the sum."), _d("Pod", "A Pod is a group of containers."),
    ),
    Feature(
        "file_name", "the name is a file name",
        lambda v: float(_FILE.fullmatch(v.term) is not None),
        _d("app.js", "`app.js` starts the server."), _d("Node", "A node is a worker machine."),
    ),
    Feature(
        "code", "the name is written as code in its source",
        lambda v: float(v.code),
        _d("run", "The `run` function returns a value.", code=True), _d("Run", "A run is one execution."),
    ),
    Feature(
        "short_name", "the name has at most two letters",
        lambda v: float(len(v.term.strip("`*_")) <= 2),
        _d("s", "Here, `s` will be a copy."), _d("Set", "A set is an unordered collection."),
    ),
    Feature(
        "lower_single_word", "the name is one lower-case word",
        lambda v: float(re.fullmatch(r"[a-z][a-z-]*", v.term) is not None),
        _d("total", "The total is returned."), _d("Elixir", "Elixir is a dynamic language."),
    ),
    Feature(
        "proper_name", "the name starts with a capital letter",
        lambda v: float(v.term[:1].isupper()),
        _d("Kubernetes", "Kubernetes is a platform."), _d("helper", "A helper is a function."),
    ),
    Feature(
        "long_name", "the name has four words or more",
        lambda v: float(_words(v.term) >= 4),
        _d("The name of the thing", "The name of the thing is a string."), _d("Pod", "A Pod is a group."),
    ),
    Feature(
        "opens_with_name", "the quote opens with the name",
        lambda v: float(_opens_with(v.quote, v.term)),
        _d("Pod", "A Pod is a group of containers."), _d("Pod", "You can run a Pod on any node."),
    ),
    Feature(
        "is_a_after_name", "the name, then is/are and an article",
        lambda v: float(_copula_after(v.quote, v.term)),
        _d("Pod", "A Pod is a group of containers."), _d("Pod", "A Pod runs on a node."),
    ),
    Feature(
        "called", "the quote names the term (called, known as, refers to)",
        lambda v: float(_CALLED.search(v.quote) is not None),
        _d("memoization", "This is called memoization."), _d("Pod", "A Pod is a group of containers."),
    ),
    Feature(
        "leans_back", "the quote opens on a word pointing to the sentence before",
        lambda v: float(_leans_back(v.quote)),
        _d("memoization", "This is called memoization."), _d("Pod", "A Pod is a group of containers."),
    ),
    Feature(
        "points_elsewhere", "the quote points to text above, below or earlier",
        lambda v: float(_POINTS_BACK.search(v.quote) is not None),
        _d("Option", "The option shown above takes a default."), _d("Pod", "A Pod is a group of containers."),
    ),
    Feature(
        "walkthrough", "the quote walks through an example",
        lambda v: float(_WALKTHROUGH.match(v.quote.lstrip("*_> ")) is not None),
        _d("run", "Third, the `run` function now returns a list."), _d("Pod", "A Pod is a group."),
    ),
    Feature(
        "lead_in", "the quote ends on a colon, leading into what follows",
        lambda v: float(v.quote.rstrip().endswith(":")),
        _d("handler", "The same rule applies to handlers:"), _d("Pod", "A Pod is a group of containers."),
    ),
    Feature(
        "first_person", "the quote speaks to or for the reader (we, you)",
        lambda v: float(_FIRST_PERSON.search(v.quote) is not None),
        _d("record", "We use records to give the fields names."), _d("Pod", "A Pod is a group."),
    ),
    Feature(
        "use", "the quote tells a use (use, used, using)",
        lambda v: float(_USE.search(v.quote) is not None),
        _d("record", "Records are used to name fields."), _d("Pod", "A Pod is a group of containers."),
    ),
    Feature(
        "negation", "the quote is negated",
        lambda v: float(_NEGATION.search(v.quote) is not None),
        _d("key", "The key does not warn."), _d("Pod", "A Pod is a group of containers."),
    ),
    Feature(
        "condition", "the quote states a condition",
        lambda v: float(_CONDITION.search(v.quote) is not None),
        _d("Pod", "If a Pod fails, it restarts."), _d("Pod", "A Pod is a group of containers."),
    ),
    Feature(
        "modal", "the quote says what can, may or should be",
        lambda v: float(_MODAL.search(v.quote) is not None),
        _d("Pod", "A Pod can hold many containers."), _d("Pod", "A Pod is a group of containers."),
    ),
    Feature(
        "markup", "the quote holds markup or a directive (>, <!--, [x][y], {* … *}, Listing 8-3)",
        lambda v: float(_MARKUP.search(v.quote) is not None),
        _d("Option", "See {* docs_src/app.py *} for it."), _d("Pod", "A Pod is a group of containers."),
    ),
    Feature(
        "long_quote", "the quote has more than 40 words",
        lambda v: float(_words(v.quote) > 40),
        _d("Pod", " ".join(["word"] * 41)), _d("Pod", "A Pod is a group of containers."),
    ),
    Feature(
        "changelog", "the source is release notes or a changelog",
        lambda v: float(_CHANGELOG.search(f"{v.path} {v.title}") is not None),
        _d("Fix", "Fix a crash.", path="knowledge/release-notes"), _d("Pod", "A Pod is.", path="pods"),
    ),
    Feature(
        "in_heading", "a heading of its source names the term",
        lambda v: float(v.in_heading),
        _d("Pod", "A Pod is a group.", in_heading=True), _d("Pod", "A Pod is a group."),
    ),
    Feature(
        "in_title", "the source's title names the term",
        lambda v: float(bool(v.term) and v.term.casefold() in v.title.casefold()),
        _d("Pod", "A Pod is a group.", title="Pods"), _d("Pod", "A Pod is a group.", title="Nodes"),
    ),
    Feature(
        "named_again", "the source names the term in three sentences or more",
        lambda v: float(v.mentions >= 3),
        _d("Pod", "A Pod is a group.", mentions=5), _d("Pod", "A Pod is a group.", mentions=1),
    ),
    Feature(
        "spread", "share of the increment's sources that name it",
        lambda v: min(1.0, max(0.0, v.spread)),
        _d("Pod", "A Pod is a group.", spread=0.5), _d("Pod", "A Pod is a group.", spread=0.0),
    ),
    *(
        Feature(
            f"pattern_{pattern}", f"found as a {pattern} definition",
            (lambda p: lambda v: float(v.pattern == p))(pattern),
            _d("Pod", "A Pod is a group.", pattern=pattern),
            _d("Pod", "A Pod is a group.", pattern="other"),
        )
        for pattern in DEFINITION_PATTERNS
    ),
)


RELATION_FEATURES: tuple[Feature, ...] = (
    Feature(
        "is_a", "the predicate is a kind (is a)",
        lambda v: float(v.predicate == "is a"),
        _r("Ring buffer", "is a", "Queue", "A ring buffer is a queue."), _r("Pod", "runs on", "Node", "Pods run."),
    ),
    Feature(
        "has_part", "the predicate is a part or a holding (has, contains, includes)",
        lambda v: float(v.predicate.split()[:1] in (["has"], ["contains"], ["includes"], ["holds"])),
        _r("Pod", "contains", "Container", "A Pod contains containers."), _r("Pod", "is a", "Object", "A."),
    ),
    Feature(
        "uses", "the predicate is a use (uses, is used by)",
        lambda v: float(_USE.search(v.predicate) is not None),
        _r("Pod", "uses", "Volume", "Pods use volumes."), _r("Pod", "is a", "Object", "A Pod is an object."),
    ),
    Feature(
        "long_predicate", "the predicate has three words or more",
        lambda v: float(_words(v.predicate) >= 3),
        _r("Add-on", "extends functionality of", "Kubernetes", "Add-ons extend it."), _r("A", "is a", "B", "x"),
    ),
    Feature(
        "subject_opens", "the quote opens with the subject",
        lambda v: float(_opens_with(v.quote, v.subject)),
        _r("Pod", "runs on", "Node", "A Pod runs on a node."), _r("Pod", "runs on", "Node", "On a node, Pods run."),
    ),
    Feature(
        "endpoint_identifier", "an endpoint is a code identifier or a file name",
        lambda v: float(any(_IDENTIFIER.fullmatch(e) or _FILE.fullmatch(e) for e in (v.subject, v.object))),
        _r("app.js", "uses", "Express", "app.js uses Express."), _r("Pod", "runs on", "Node", "Pods run on nodes."),
    ),
    Feature(
        "endpoint_short", "an endpoint has at most two letters",
        lambda v: float(min(len(v.subject), len(v.object)) <= 2),
        _r("s", "is a", "String", "s is a string."), _r("Pod", "runs on", "Node", "Pods run on nodes."),
    ),
    Feature(
        "leans_back", "the quote opens on a word pointing to the sentence before",
        lambda v: float(_leans_back(v.quote)),
        _r("Pod", "uses", "Volume", "This Pod uses a volume."), _r("Pod", "uses", "Volume", "A Pod uses volumes."),
    ),
    Feature(
        "walkthrough", "the quote walks through an example",
        lambda v: float(_WALKTHROUGH.match(v.quote.lstrip("*_> ")) is not None),
        _r("App", "has", "Command", "Here, we add a command to the app."), _r("App", "has", "Command", "An app has."),
    ),
    Feature(
        "first_person", "the quote speaks to or for the reader (we, you)",
        lambda v: float(_FIRST_PERSON.search(v.quote) is not None),
        _r("Pod", "uses", "Volume", "You give the Pod a volume."), _r("Pod", "uses", "Volume", "Pods use volumes."),
    ),
    Feature(
        "negation", "the quote is negated",
        lambda v: float(_NEGATION.search(v.quote) is not None),
        _r("Handler", "takes", "Argument", "Handlers that take no arguments run."), _r("A", "has", "B", "A has B."),
    ),
    Feature(
        "condition", "the quote states a condition",
        lambda v: float(_CONDITION.search(v.quote) is not None),
        _r("Pod", "uses", "Volume", "If a Pod uses a volume, it waits."), _r("A", "has", "B", "A has B."),
    ),
    Feature(
        "modal", "the quote says what can, may or should be",
        lambda v: float(_MODAL.search(v.quote) is not None),
        _r("Pod", "uses", "Volume", "A Pod can use a volume."), _r("A", "has", "B", "A has B."),
    ),
    Feature(
        "markup", "the quote holds markup or a directive",
        lambda v: float(_MARKUP.search(v.quote) is not None),
        _r("A", "has", "B", "A has B, as in Listing 8-3."), _r("A", "has", "B", "A has B."),
    ),
    Feature(
        "lead_in", "the quote ends on a colon",
        lambda v: float(v.quote.rstrip().endswith(":")),
        _r("A", "has", "B", "A has these B:"), _r("A", "has", "B", "A has B."),
    ),
    Feature(
        "long_quote", "the quote has more than 40 words",
        lambda v: float(_words(v.quote) > 40),
        _r("A", "has", "B", " ".join(["word"] * 41)), _r("A", "has", "B", "A has B."),
    ),
    Feature(
        "stated_again", "more than one sentence states it",
        lambda v: float(v.quotes > 1),
        _r("A", "has", "B", "A has B.", quotes=2), _r("A", "has", "B", "A has B."),
    ),
    Feature(
        "changelog", "the source is release notes or a changelog",
        lambda v: float(_CHANGELOG.search(v.path) is not None),
        _r("A", "has", "B", "A has B.", path="release-notes"), _r("A", "has", "B", "A has B.", path="pods"),
    ),
)


def measured(table: tuple[Feature, ...], view: object) -> dict[str, float]:
    """Every feature of ``table`` on ``view``, by name."""
    return {feature.name: float(feature.test(view)) for feature in table}
