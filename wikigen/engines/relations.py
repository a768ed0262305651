"""Mentions and relations (R20, R23): where a sentence names concepts, and what it says links them.

A relation needs an explicit predicate of :data:`PREDICATES` between two neighbouring mentions of
one sentence; that sentence, verbatim, is its evidence (R22).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from wikigen.engines.terms import head_variants, identifier_like, singular_forms, term_ok, word_set
from wikigen.ids import normalize_name


@dataclass(frozen=True, slots=True)
class Mention:
    start: int
    end: int
    ref: str


class Mentions:
    """Finds concept mentions by name, alias and their plural/singular, longest first, whole words.

    Case is ignored: "a gRPC service" is told from the Service resource by the relation rules (a
    noun in front of a lower-case mention makes it a common noun), not here.
    """

    def __init__(self, forms: Mapping[str, str]) -> None:
        self._refs = dict(forms)
        ordered = sorted(self._refs, key=lambda form: (-len(form), form))
        alternatives = "|".join(re.escape(form) for form in ordered)
        self._pattern = (
            re.compile(r"(?<![\w./-])(?:" + alternatives + r")(?![\w/-]|\.\w)", re.IGNORECASE)
            if ordered
            else None
        )

    @classmethod
    def build(cls, names: Iterable[tuple[str, Sequence[str]]], *, known: bool = False) -> Mentions:
        """``names``: (ref, surface forms); a form claimed by two refs matches neither. ``known``:
        the names are those of concepts already accepted, so stop-listed words ("List", `case`)
        are found too."""
        owners: dict[str, set[str]] = {}
        for ref, forms in names:
            for form in forms:
                for variant in (form, *head_variants(form)):
                    if (known and len(variant.strip()) >= 2) or term_ok(variant) or identifier_like(variant):
                        owners.setdefault(normalize_name(variant), set()).add(ref)
        unique = {key: next(iter(refs)) for key, refs in owners.items() if len(refs) == 1}
        return cls(unique)

    def find(self, text: str) -> list[Mention]:
        if self._pattern is None:
            return []
        found = []
        for match in self._pattern.finditer(text):
            ref = self._refs.get(normalize_name(match.group()))
            if ref is not None:
                found.append(Mention(match.start(), match.end(), ref))
        return found


# Canonical predicate → its finite active forms (3rd person and base); passive participles below.
PREDICATES: dict[str, str] = {
    "is part of": r"(?:is|are) (?:a |an )?(?:part|component|member) of",
    "belongs to": r"belongs? to",
    "depends on": r"depends? on|relies on|rely on",
    "runs on": r"runs? on",
    "consists of": r"consists? of|is made up of|are made up of",
    "communicates with": r"communicates? with|talks? to",
    "connects to": r"connects? to",
    "registers with": r"registers? (?:itself )?with",
    "reads": r"reads?(?: from)?",
    "writes": r"writes?(?: to| into)?",
    "uses": r"uses?",
    "contains": r"contains?|includes?",
    "manages": r"manages?",
    "creates": r"creates?",
    "schedules": r"schedules?",
    "exposes": r"exposes?",
    "stores": r"stores?",
    "controls": r"controls?",
    "replaces": r"replaces?",
    "extends": r"extends?",
    "calls": r"calls?",
    "selects": r"selects?",
    "mounts": r"mounts?",
    "watches": r"watch(?:es)?",
    "runs": r"runs?",
    "deletes": r"deletes?",
    "evicts": r"evicts?",
    "implements": r"implements?",
    "provides": r"provides?",
    "references": r"references?",
    "requires": r"requires?",
    "owns": r"owns?",
    "monitors": r"monitors?",
    "restarts": r"restarts?",
    "starts": r"starts?|launch(?:es)?",
    "assigns": r"assigns?",
    "allocates": r"allocates?",
    "routes": r"routes?",
    "configures": r"configures?",
    "defines": r"defines?",
    "consumes": r"consumes?",
    "enforces": r"enforces?",
    "invokes": r"invokes?",
    "tracks": r"tracks?",
    "updates": r"updates?",
    "supports": r"supports?",
    "preempts": r"preempts?",
    "serves": r"serves?",
    "hosts": r"hosts?",
    "holds": r"holds?",
    "attaches": r"attach(?:es)?(?: to)?",
    "binds": r"binds?(?: to)?",
    "groups": r"groups?",
    "handles": r"handles?",
    "isolates": r"isolates?",
    "protects": r"protects?",
    "limits": r"limits?",
    "targets": r"targets?",
    "terminates": r"terminates?|kills?",
    "removes": r"removes?",
    "adds": r"adds?",
    "sends": r"sends?(?: to)?",
    "triggers": r"triggers?",
    "generates": r"generates?",
    "populates": r"populates?",
    "queries": r"quer(?:ies|y)",
    "accesses": r"access(?:es)?",
    "validates": r"validates?",
    "rejects": r"rejects?",
    "encrypts": r"encrypts?",
    "specifies": r"specif(?:ies|y)",
    "receives": r"receives?",
    "forwards": r"forwards?(?: to)?",
}
_PASSIVE: dict[str, str] = {
    "uses": "used", "manages": "managed", "creates": "created", "controls": "controlled",
    "replaces": "replaced", "extends": "extended", "owns": "owned", "selects": "selected",
    "mounts": "mounted", "watches": "watched", "exposes": "exposed", "stores": "stored",
    "schedules": "scheduled", "reads": "read", "writes": "written", "deletes": "deleted",
    "evicts": "evicted", "implements": "implemented", "provides": "provided", "references": "referenced",
    "requires": "required", "monitors": "monitored", "restarts": "restarted", "starts": "started|launched",
    "allocates": "allocated", "assigns": "assigned", "configures": "configured", "defines": "defined",
    "consumes": "consumed", "enforces": "enforced", "invokes": "invoked", "tracks": "tracked",
    "runs": "run", "updates": "updated", "supports": "supported", "preempts": "preempted",
    "serves": "served", "hosts": "hosted", "holds": "held", "binds": "bound", "groups": "grouped",
    "handles": "handled", "isolates": "isolated", "protects": "protected", "limits": "limited",
    "targets": "targeted", "terminates": "terminated|killed", "removes": "removed", "adds": "added",
    "triggers": "triggered", "generates": "generated", "populates": "populated", "queries": "queried",
    "accesses": "accessed", "validates": "validated", "rejects": "rejected", "encrypts": "encrypted",
    "specifies": "specified", "receives": "received",
}  # fmt: skip
_MODALS = r"can|will|must|does|do|always|also|then|only|automatically|directly|periodically|continuously|now"
_SUBJECT_GAP = (
    r"(?:\s*\([^()]{1,40}\))?"
    r"(?P<relative>\s*,\s*(?:which|who)|\s*:|\s+(?:which|that|who)"
    r"|\s+(?:is|are)\s+(?:a|an|the)\s+(?:[\w-]+\s+){1,3}(?:that|which)"
    r"|\s+(?:lets?|allows?|enables?|helps?)\s+(?:you|users)(?:\s+to)?)?"
    r"(?P<modal>(?:\s+(?:itself|themselves|still|usually|typically|generally|often|actually|first|in turn|both|"
    + _MODALS
    + r"|[a-z]+ly))*)\s+"
)
_OBJECT_GAP = (
    r"(?:\s+(?:a|an|the|each|every|all|any|some|its|their|one or more|multiple|many|several|other|"
    r"another|new|existing|specific|individual|given|matching|corresponding|relevant|appropriate|"
    r"(?:a|the) (?:set|group|list|number|pool|collection|copy|replica) of|instances of|copies of|replicas of|one|only|two|this|these|those|same|"
    r"(?:at least|at most|exactly|more than) one))*"
    r"(?:\s+(?P<free>[a-z][\w-]*))?\s+$"
)
_BE = r"(?:is|are|was|were|be|been|being|gets|get|can be|will be|must be|has been|have been)\s+(?:\w+ly\s+)?"
_ACTIVE = re.compile(
    "^"
    + _SUBJECT_GAP
    + "(?P<verb>"
    + "|".join(f"(?P<p{i}>{forms})" for i, forms in enumerate(PREDICATES.values()))
    + r")\b(?:\s+and\s+(?P<second>"
    + "|".join(f"(?P<q{i}>{forms})" for i, forms in enumerate(PREDICATES.values()))
    + r")\b)?"
    + _OBJECT_GAP,
    re.IGNORECASE,
)
_PASSIVE_FORMS = re.compile(
    r"^(?:\s*,)?\s+(?:which\s+|that\s+)?(?:"
    + _BE
    + ")?(?P<verb>"
    + "|".join(f"(?P<p{i}>{forms})" for i, forms in enumerate(_PASSIVE.values()))
    + r")\s+by\b"
    + _OBJECT_GAP,
    re.IGNORECASE,
)
_IS_A = re.compile(
    r"^\s+(?:is|are)\s+(?:a|an)\s+(?:(?:kind|type|form|special kind|specialized kind) of\s+)?(?P<free>[A-Za-z][\w-]*\s+)?$"
)
_OBJECT_NEXT = re.compile(
    r"^(?:$|[.,;:!?)\]\"]|\(s\)|\s+(?:and|or|but|that|which|who|whose|to|in|on|at|for|with|by|from|as|if|when|"
    r"called|named|"
    r"while|so|is|are|was|were|can|will|must|within|into|onto|using|via|through|across|per|where|after|"
    r"before|until|running|instead|without|automatically|directly|based|\()(?:\b|\s|$))",
    re.IGNORECASE,
)
_ATTACHED = re.compile(
    r"^\s+(?:in|on|of|within|inside|at)\s+(?:(?:a|an|the|that|this|each|every|its|their)\s+)?$", re.IGNORECASE
)
_STORED = re.compile(
    r"^\s+(?:objects?\s+)?(?:is|are|gets|get)\s+(?:\w+ly\s+)?(?P<verb>stored|kept|persisted|contained|included)"
    r"(?:\s+(?P<free>[a-z][\w-]*))?\s+(?:in|inside|within)\s+(?:(?:a|an|the)\s+)?$",
    re.IGNORECASE,
)
_PREPOSITIONS = word_set(
    "of|in|on|at|with|for|from|to|by|into|onto|inside|within|across|per|than|via|between|under|over|"
    "about|through|like|without|using"
)
_DETERMINERS = word_set("a|an|the|each|every|all|its|their|any|some|this|that|these|those|your|our")
_CONDITIONAL = re.compile(r"\b(?:if|unless|whether|suppose|assuming|although|though)\b", re.IGNORECASE)
_BLOCKERS = word_set("not|never|no|cannot|can't|don't|doesn't|won't|may|might|could|should|would")


@dataclass(frozen=True, slots=True)
class Found:
    subject: str
    predicate: str
    object: str


def relations(clean: str, mentions: Sequence[Mention]) -> list[Found]:
    """Relations one sentence states (R20, R23): subject, an explicit predicate, object, in that order.

    Only neighbouring mentions pair up, so the subject is the concept nearest before the verb and the
    object the nearest after it; a negation or a modal of possibility between them drops the pair.
    """
    if clean.rstrip().endswith("?"):
        return []
    found: list[Found] = []
    for index, (first, second) in enumerate(itertools.pairwise(mentions)):
        between = clean[first.end : second.start]
        also = _coordinated(clean, mentions, index + 1)
        if first.ref == second.ref or not _object_ends(clean, second):
            continue
        if between.startswith(("'", "’")) or set(normalize_name(between).split()) & _BLOCKERS:
            continue
        subject, at = first, index
        subject_ok = _subject_position_ok(clean, first.start)
        if not subject_ok and index > 0 and _ATTACHED.match(clean[mentions[index - 1].end : first.start]):
            # "the kubelet on that node creates …": the subject is the mention the phrase belongs to
            subject, at = mentions[index - 1], index - 1
            subject_ok = subject.ref != first.ref and _subject_position_ok(clean, subject.start)
        active = _ACTIVE.match(between)
        if active and not _relative_ok(active, clean, first.start):
            active = None
        if active and subject_ok and _verb_agrees(active, clean[subject.start : subject.end]):
            if not _free_blocks(active.group("free")) and not _generic(active, clean, second):
                verbs = [_predicate(active, tuple(PREDICATES))]
                if active.group("second"):  # "Deployments own and manage their ReplicaSets"
                    verbs.append(_predicate(active, tuple(PREDICATES), "q"))
                subjects = [subject.ref, *_coordinated_before(clean, mentions, at)]
                found.extend(Found(s, v, o) for s in subjects for v in verbs for o in [second.ref, *also])
            continue
        stored = _STORED.match(between)
        if stored and subject_ok and not _generic(stored, clean, second):
            # "Secret objects are stored unencrypted in etcd": etcd stores Secrets
            verb = "contains" if stored.group("verb") in ("contained", "included") else "stores"
            found.extend(Found(holder, verb, first.ref) for holder in [second.ref, *also])
            continue
        passive = _PASSIVE_FORMS.match(between)
        if (
            passive
            and not _free_blocks(passive.group("free"))
            and not _generic(passive, clean, second)
            and subject_ok
        ):
            verb = _predicate(passive, tuple(_PASSIVE))
            found.extend(Found(agent, verb, first.ref) for agent in [second.ref, *also])
            continue
        is_a = _IS_A.match(between)
        if is_a and subject_ok and (not is_a.group("free") or _adjective(is_a.group("free").strip())):
            # "is an ingress controller" is not "is a Controller": only adjectives may come between
            found.append(Found(first.ref, "is a", second.ref))
    return sorted(
        {f for f in found if f.subject != f.object}, key=lambda f: (f.subject, f.predicate, f.object)
    )


_AND = re.compile(
    r"^\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(?:(?:a|an|the|its|their|all|other)\s+)?$", re.IGNORECASE
)


def _coordinated(clean: str, mentions: Sequence[Mention], index: int) -> list[str]:
    """Objects listed after the object at ``index``: "provides labels and annotations"."""
    refs: list[str] = []
    listed: list[str] = []
    for previous, mention in zip(mentions[index:], mentions[index + 1 :], strict=False):
        joint = _AND.match(clean[previous.end : mention.start])
        if joint is None or not _object_ends(clean, mention):
            break
        listed.append(mention.ref)
        if re.search(r"\b(?:and|or)\b", joint.group(), re.IGNORECASE):
            refs = list(listed)  # "a label, node.kubernetes.io/…" is an apposition, not a list
            break
    return refs


def _coordinated_before(clean: str, mentions: Sequence[Mention], index: int) -> list[str]:
    """Subjects listed before the subject at ``index``: "the node controller or the kubelet adds …"."""
    refs: list[str] = []
    while index > 0:
        previous, mention = mentions[index - 1], mentions[index]
        joint = _AND.match(clean[previous.end : mention.start])
        if joint is None or not re.search(r"\b(?:and|or)\b", joint.group(), re.IGNORECASE):
            break
        if not _subject_position_ok(clean, previous.start):
            break
        refs.append(previous.ref)
        break  # one coordinated subject: longer lists are rarely all agents
    return refs


def _object_ends(clean: str, mention: Mention) -> bool:
    """The object mention ends its noun phrase ("Pods that …"), unless only "objects" follows a kind
    ("EndpointSlice objects"); "the Pod's IP" or "Secret volume" name something else."""
    after = clean[mention.end :]
    if _OBJECT_NEXT.match(after):
        return True
    kind = re.match(r"\s+(?:objects?|resources?)\b", after)
    surface = clean[mention.start : mention.end]
    return (
        kind is not None
        and (identifier_like(surface) or (surface[:1].isupper() and normalize_name(surface) != "kubernetes"))
        and bool(_OBJECT_NEXT.match(after[kind.end() :]))
    )


def _predicate(match: re.Match[str], names: tuple[str, ...], group: str = "p") -> str:
    for index, name in enumerate(names):
        if match.group(f"{group}{index}"):
            return name
    raise AssertionError("a predicate group matched")


def _verb_agrees(match: re.Match[str], subject: str) -> bool:
    """A bare "use"/"control" is a verb only after a plural subject or a modal ("the control plane")."""
    verb = match.group("verb").casefold()
    if (match.group("relative") or "").strip() == ":":
        return verb.split()[0].endswith("s")  # "kube-proxy: Maintains …", not "DNS: Create …"
    if verb.endswith("s") or " " in verb or match.group("relative"):
        return True
    if re.search(r"\b(?:" + _MODALS + r")\b", match.group("modal") or "", re.IGNORECASE):
        return True
    return bool(singular_forms(subject.split()[-1]))


def _relative_ok(match: re.Match[str], clean: str, start: int) -> bool:
    """A relative clause belongs to its mention unless that mention is a predicate noun ("X is the
    next-generation ReplicationController that supports …" says nothing of ReplicationController);
    "Term: Verbs …" holds only for a term that opens the sentence (a glossary line)."""
    relative = (match.group("relative") or "").strip()
    if relative == ":":
        return not clean[:start].strip()
    if relative in ("that", "which", ", which", "who", ", who"):
        return re.search(r"\b(?:is|are|was|were|be)\s+(?:\S+\s+){0,4}$", clean[:start]) is None
    return True


_ADJECTIVES = word_set(
    "correct|new|old|worker|special|main|default|primary|secondary|single|same|different|extra|local|"
    "remote|stateless|stateful|dedicated|healthy|unhealthy|ready|pending|static|dynamic|native|custom|"
    "external|internal|regular|normal|app|user|appropriate|free|whole|entire|first|last|next|previous|own"
)
_ADJECTIVE_SUFFIXES = (
    "al",
    "ed",
    "ing",
    "ive",
    "ous",
    "ful",
    "able",
    "ible",
    "ic",
    "ant",
    "ent",
    "ary",
    "less",
)


def _generic(match: re.Match[str], clean: str, mention: Mention) -> bool:
    """ "the index node", "a gRPC service": a modifier before a lower-case one-word mention makes
    it the common noun, not the concept."""
    surface = clean[mention.start : mention.end]
    free = match.group("free")
    if free is None or not surface.islower() or " " in surface or "-" in surface:
        return False
    return not _adjective(free)


def _free_blocks(word: str | None) -> bool:
    return word is not None and (
        normalize_name(word) in _PREPOSITIONS or normalize_name(word) in _BLOCKERS or word.endswith("ing")
    )


def _part_of_name(clean: str, start: int) -> bool:
    """True when a capitalized word runs into the mention ("Kata Containers"): a longer name."""
    before = re.search(r"([\w-]+)\s+$", clean[:start])
    if before is None:
        return False
    word = before.group(1)
    at_start = not clean[: before.start()].strip()
    return word[0].isupper() and not at_start and normalize_name(word) not in _DETERMINERS


def _adjective(word: str) -> bool:
    return word.islower() and (word in _ADJECTIVES or word.endswith(_ADJECTIVE_SUFFIXES))


_BEFORE_SUBJECT = word_set(
    "a|an|the|each|every|all|its|their|any|some|this|that|these|those|your|our|and|or|but|so|then|also|"
    "now|which|who|when|whenever|once|after|before|while|how|where|why|because|since|is|are|was|were|be|"
    "have|has|can|will|must|should|may|only|even|first|if|unless|of|in|on|at|with|for|from|to|by|into|"
    "onto|within|across|per|via|between|under|over|about|through|like|without|using|than|not|both|either"
)


def _compound(clean: str, start: int) -> bool:
    """ "the snapshot controller watches …": a noun before the mention makes a longer name."""
    before = re.search(r"([A-Za-z][\w-]*)\s+$", clean[:start])
    if before is None:
        return False
    word = before.group(1)
    return (
        word.islower()
        and normalize_name(word) not in _BEFORE_SUBJECT
        and not word.endswith("ly")
        and not _adjective(word)
    )


def _subject_position_ok(clean: str, start: int) -> bool:
    """The subject is not the object of a preposition ("a container in a Pod uses …"), not part of a
    longer name, and not inside an if-clause."""
    if _part_of_name(clean, start) or _compound(clean, start):
        return False
    words = re.findall(r"[\w'’-]+|[,;:]", clean[:start])
    index = len(words) - 1
    while index >= 0 and normalize_name(words[index]) in _DETERMINERS:
        index -= 1
    if index >= 0 and normalize_name(words[index]) in _PREPOSITIONS:
        return False
    clause = re.split(r"[,;:]", clean[:start])[-1]
    return _CONDITIONAL.search(clause) is None
