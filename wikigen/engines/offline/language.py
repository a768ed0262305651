"""The language of a document, for the offline engine (R20).

The parser (:mod:`wikigen.engines.offline.parse`) is English. A source in another language — declared by its
frontmatter ``lang``, or detected here — is compiled by the language-independent rules only:
emphasized terms, headings and definition lists; it is never parsed and states no relation.

Detection is a small deterministic rule over the document's prose (code spans, links' targets and
shortcodes left out), no model and no download:

- **CJK**: when at least :data:`CJK_SHARE` of the letters are Han, kana or Hangul, the language is
  ``ja`` (any kana), ``ko`` (any Hangul) or ``zh``.
- **Latin script**: the share of common function words among the words, per language
  (:data:`~wikigen.engines.offline.lexicon.FUNCTION_WORDS`). The text is
  English unless, over at least :data:`MIN_WORDS_OTHER` words, another language's share is at
  least :data:`OTHER_SHARE` and at least twice English's, or
  there are at least :data:`MIN_WORDS` words and English's share is under :data:`ENGLISH_FLOOR`
  (``und``: some language that is not English).
- Too little text to tell (fewer than :data:`MIN_LETTERS` letters) is English.

On the English corpora in ``shared/corpora`` (Kubernetes concepts, the Elixir guide, every tldr
page) the rule says English for every file; see ``tests/test_languages.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from wikigen.engines.offline.documents import Document
from wikigen.engines.offline.lexicon import FUNCTION_WORDS
from wikigen.engines.offline.text import CJK

ENGLISH = "en"
CJK_SHARE = 0.3
OTHER_SHARE = 0.15
ENGLISH_FLOOR = 0.03
MIN_WORDS = 40
MIN_WORDS_OTHER = 12
MIN_LETTERS = 20

_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_WORD = re.compile(r"[^\W\d_]+")
_NOT_PROSE = re.compile(
    r"```.*?```|~~~.*?~~~|`[^`\n]*`|\]\([^)]*\)|https?://\S+|\{\{.*?\}\}|<[^<>\n]+>", re.DOTALL
)

# A word English shares ("in", "is") or a single letter ("e", "y", an option's ``-e``) tells no
# other language apart from English.
_WORDS = {
    lang: known if lang == ENGLISH else frozenset(w for w in known - FUNCTION_WORDS[ENGLISH] if len(w) > 1)
    for lang, known in FUNCTION_WORDS.items()
}


def detect(text: str) -> str:
    """The language of ``text`` by the rule above: an ISO 639-1 code, ``und`` or ``en``."""
    prose = _NOT_PROSE.sub(" ", text)
    letters = sum(1 for ch in prose if ch.isalpha())
    if letters < MIN_LETTERS:
        return ENGLISH
    cjk = len(CJK.findall(prose))
    if cjk >= CJK_SHARE * letters:
        if _KANA.search(prose):
            return "ja"
        return "ko" if len(_HANGUL.findall(prose)) * 2 >= cjk else "zh"
    words = [w.casefold() for w in _WORD.findall(prose)]
    if not words:
        return ENGLISH
    shares = {lang: sum(1 for w in words if w in known) / len(words) for lang, known in _WORDS.items()}
    english = shares.pop(ENGLISH)
    best = max(sorted(shares), key=lambda lang: shares[lang])
    if len(words) >= MIN_WORDS_OTHER and shares[best] >= OTHER_SHARE and shares[best] >= 2 * english:
        return best
    if len(words) >= MIN_WORDS and english < ENGLISH_FLOOR:
        return "und"
    return ENGLISH


def declared(metadata: Mapping[str, Any]) -> str | None:
    """A source's frontmatter ``lang`` (``de``, ``zh-Hans``, ``en-US``), trimmed; None when absent."""
    value = metadata.get("lang")
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def is_english(lang: str) -> bool:
    return lang.casefold().split("-")[0].split("_")[0] == ENGLISH


@dataclass(frozen=True, slots=True)
class Written(Document):
    """A document with the language it was declared (frontmatter ``lang``) or detected in."""

    lang: str = ENGLISH


def with_language(document: Document, lang: str | None = None) -> Written:
    """``document`` with its language: ``lang`` as declared, else detected from its prose."""
    if isinstance(document, Written) and lang is None:
        return document
    values = {f.name: getattr(document, f.name) for f in fields(Document)}
    return Written(**values, lang=lang or detect(_prose(document)))


def language(document: Document) -> str:
    """The document's language: as declared or detected by :func:`with_language`, else detected."""
    if isinstance(document, Written):
        return document.lang
    return detect(_prose(document))


def english(documents: Iterable[Document]) -> list[Document]:
    """The documents the English parser reads."""
    return [d for d in documents if is_english(language(d))]


def notes(lang: str) -> list[str]:
    """What an article of a non-English source says about how it was compiled; none for English."""
    if is_english(lang):
        return []
    return [
        f"Compiled by language-independent rules (lang: {lang}): emphasized terms, definition lists "
        "and headings; no relations."
    ]


def _prose(document: Document) -> str:
    passages: Sequence[Any] = document.passages
    return "\n\n".join(p.text for p in passages) if passages else document.body
