"""R20: the offline engine's word lists live in one lexicon (the package
wikigen/engines/offline/lexicon/, one module per idea), each written once and named by its idea; the
engine's modules import them from there.

Regexes are exempt from the module check below. Those that only alternate plain words are built
from a lexicon list with ``lexicon.alternation``: ``frames.FRAGMENT`` (CONNECTIVES), ``frames.FURTHER``
and ``acceptance._ASIDE_REMARK`` (ADDITIVE_CONNECTIVES), ``headings._LEAD``
(HEADING_LEADS), ``concept_types._COMPONENT`` and ``concept_types._ENTITY`` (COMPONENT_WORDS, ENTITY_WORDS),
``drawing.THIS_PAGE`` (PAGE_SUBJECT_KINDS), ``parse._QUOTED_MODIFIER`` (CLAUSE_WORDS) and
``statements._CONDITIONS_FOLLOW`` (LIST_CONDITIONS). Regexes that hold grammar (stems, optional
words, phrases around the words) stay beside their rule.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from tests.corpora import REPO_ROOT
from wikigen.engines.offline import lexicon

ENGINE = REPO_ROOT / "wikigen" / "engines" / "offline"
LEXICON = ENGINE / "lexicon"
# Labels the engine gives its own findings (a candidate's signals, a reading's patterns), not words.
LABELS = {("acceptance.py", "STRONG"), ("acceptance.py", "_IS"), ("features.py", "DEFINITION_PATTERNS")}
# Lists that hold one idea with different words: the wider ones are built from the narrower, so no
# word is written twice among them.
FAMILIES = {
    "hedges": ("HEDGES", "UNASSERTING_MODALS"),
    "how often or how likely": ("FREQUENCY_WORDS", "HABITUAL_WORDS", "LIKELIHOOD_WORDS", "UNASSERTING_ADVERBS"),
    "steps": ("SEQUENCE_WORDS", "STEP_WORDS"),
    "naming verbs": ("NAMING_VERBS", "CALLING_VERBS"),
    "classifiers": ("NAMING_CLASSIFIERS", "CLASSIFIERS", "INSTANCE_NOUNS", "STAND_IN_CLASSIFIERS", "KIND_WORDS"),
    "likeness": ("LIKENESS_ADJECTIVES", "COMPARING_ADJECTIVES", "RELATIONAL_ADJECTIVES"),
    "a text's topic": ("COVERING_VERBS", "TOPIC_VERBS", "OVERVIEW_VERBS", "DOCUMENTING_VERBS"),
    "texts": ("TEXTS", "DOCUMENTS", "TEXT_ITSELF"),
    "words for a word": ("NAME_NOUNS", "NAMING_NOUNS", "WORD_NOUNS"),
    "quantifiers": ("EACH", "QUANTIFIERS"),
    "pointing back": ("POINTING", "DEMONSTRATIVES"),
    "release stages": ("RELEASE_STAGES", "MATURITY", "QUALIFIERS"),
    "adjective endings": ("PROPERTY_ENDINGS", "ADJECTIVE_ENDINGS"),
}
_PLAIN = re.compile(r"[^\W\d_]+(?:[ '.-][^\W\d_]+)*")


def _is_plain(word: str) -> bool:
    return _PLAIN.fullmatch(word) is not None and word == word.lower()


def _listed_words(text: str) -> list[str]:
    """The words of a ``|``- or space-separated list in one string."""
    return text.split("|") if "|" in text else text.split()


def _written(node: ast.AST) -> Iterator[str]:
    """The words a lexicon definition writes: the strings of a set, list or tuple literal, and the
    words of a string a call lists (``word_set("a|b|c")``)."""
    if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
        for element in node.elts:
            if isinstance(element, ast.Constant) and isinstance(element.value, str):
                yield element.value
    if isinstance(node, ast.Call):
        for arg in node.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                yield from _listed_words(arg.value)
    for child in ast.iter_child_nodes(node):
        yield from _written(child)


def _word_lists(node: ast.AST) -> Iterator[str]:
    """What in a module-level expression is a list of words: a set, list or tuple literal of three
    or more plain words, or a call given a string that lists three or more (``word_set("a|b|c")``)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "compile":
        return  # a regex
    if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
        words = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if len(words) >= 3 and all(_is_plain(w) for w in words):
            yield ast.unparse(node)[:60]
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id == "word_set":
            yield ast.unparse(node)[:60]
        for arg in node.args:
            # a ``|``-list in a string; a string of words without one is prose (a rule's description)
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and "|" in arg.value:
                words = _listed_words(arg.value)
                if len(words) >= 3 and all(_is_plain(w) for w in words):
                    yield ast.unparse(node)[:60]
    for child in ast.iter_child_nodes(node):
        yield from _word_lists(child)


def _definitions(path: Path) -> Iterator[tuple[str, ast.expr]]:
    for statement in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(statement, ast.Assign) and statement.value is not None:
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    yield target.id, statement.value
        elif (
            isinstance(statement, ast.AnnAssign)
            and statement.value is not None
            and isinstance(statement.target, ast.Name)
        ):
            yield statement.target.id, statement.value


def test_no_engine_module_but_the_lexicon_defines_a_word_list():
    """R20: a module of the offline engine imports its word lists from the lexicon; it defines no
    module-level set, list or tuple of plain words and calls no ``word_set`` (the lexicon's modules
    sit in its own package, not among these)."""
    found = [
        f"{path.name}: {name} = {words}"
        for path in sorted(ENGINE.glob("*.py"))
        for name, value in _definitions(path)
        if (path.name, name) not in LABELS
        for words in _word_lists(value)
    ]
    assert found == []


def test_the_lexicon_imports_nothing_of_the_engine():
    """R20: the lexicon is a leaf, so that every module of the engine may import it: its modules
    import one another only."""
    imported = [
        node.module
        for path in sorted(LEXICON.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module is not None
    ]
    assert "wikigen.engines.offline.lexicon.lists" in imported
    assert not [
        module
        for module in imported
        if module.startswith("wikigen.engines") and not module.startswith("wikigen.engines.offline.lexicon.")
    ]


def _lexicon_lists() -> Iterator[tuple[str, frozenset[str] | tuple[str, ...]]]:
    for name, value in vars(lexicon).items():
        if isinstance(value, (frozenset, tuple)) and name.isupper():
            yield name, value
    for lang, words in lexicon.FUNCTION_WORDS.items():
        yield f"FUNCTION_WORDS[{lang}]", words


def test_every_lexicon_list_holds_lower_case_words():
    """R20: the rules compare casefolded lemmas and words (or normalized names) with the lexicon's
    lists, so every list is non-empty and holds lower-case words with single spaces."""
    lists = dict(_lexicon_lists())
    assert len(lists) >= 70
    for name, words in lists.items():
        assert words, name
        assert all(isinstance(w, str) and w == w.casefold() == " ".join(w.split()) for w in words), name


def _parts(name: str, value: ast.expr) -> tuple[list[str], list[ast.expr]]:
    """A list definition by name, or a mapping's lists by name and key."""
    if isinstance(value, ast.Dict):
        keys = [f"{name}[{ast.literal_eval(k)}]" for k in value.keys if k is not None]
        return keys, list(value.values)
    return ([name], [value]) if name.isupper() else ([], [])


def test_a_word_is_written_once_among_the_lists_of_one_idea():
    """R20: where two rules read one idea with different words, the wider list is built from the
    narrower one (``UNASSERTING_MODALS = HEDGES | {"can", "must"}``): no word is written twice in
    one list, nor in two lists of one idea."""
    written: dict[str, list[str]] = {}
    for name, value in (d for path in sorted(LEXICON.glob("*.py")) for d in _definitions(path)):
        # FUNCTION_WORDS holds one list per language: "la" is French, Spanish and Italian
        for key, words in zip(*_parts(name, value), strict=True):
            written[key] = list(_written(words))
    for name, words in written.items():
        assert [w for w, n in Counter(words).items() if n > 1] == [], name
    for idea, names in FAMILIES.items():
        assert set(names) <= set(written), idea
        counts = Counter(word for name in names for word in set(written[name]))
        assert [w for w, n in counts.items() if n > 1] == [], idea


def test_the_wider_list_of_an_idea_holds_the_narrower():
    """R20: the lists of one idea differ only by the words the comment names, e.g. the hedges of
    relations are the hedges of definitions with "can" and "must"."""
    differences = {
        "UNASSERTING_MODALS - HEDGES": lexicon.UNASSERTING_MODALS - lexicon.HEDGES,
        "STEP_WORDS - SEQUENCE_WORDS": lexicon.STEP_WORDS - lexicon.SEQUENCE_WORDS,
        "HABITUAL_WORDS ^ UNASSERTING_ADVERBS": lexicon.HABITUAL_WORDS ^ lexicon.UNASSERTING_ADVERBS,
        "CALLING_VERBS - NAMING_VERBS": lexicon.CALLING_VERBS - lexicon.NAMING_VERBS,
    }
    assert differences == {
        "UNASSERTING_MODALS - HEDGES": {"can", "must"},
        "STEP_WORDS - SEQUENCE_WORDS": {"first", "afterward"},
        "HABITUAL_WORDS ^ UNASSERTING_ADVERBS": {"commonly", "frequently", "probably", "possibly", "perhaps"},
        "CALLING_VERBS - NAMING_VERBS": {"refer"},
    }
    assert lexicon.NAMING_CLASSIFIERS < lexicon.CLASSIFIERS < lexicon.STAND_IN_CLASSIFIERS


def test_an_alternation_of_plain_words_matches_the_longest_word_first():
    """R20: a regex built from a lexicon list matches "controller manager" whole, not "controller"."""
    pattern = re.compile(r"\b(?:" + lexicon.alternation(["controller", "controller manager", "add-on"]) + r")")
    assert [m.group() for m in pattern.finditer("the controller manager, an add-on")] == [
        "controller manager",
        "add-on",
    ]
