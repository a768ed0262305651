"""The offline engine's words (R20): every word list its rules read, once, named by the idea it holds.

Each list is a frozenset of lower-case words (or a tuple of endings, which ``str.endswith`` takes),
compared with a word's lemma or text casefolded, or with a name normalized
(:func:`wikigen.model.ids.normalize_name`). A comment above each says what the idea is and, where it
matters, the sentence it decides.

Where two rules read one idea with different words, both lists stand side by side, the wider one
built from the narrower (``UNASSERTING_MODALS = HEDGES | …``), so each word is written once; the
comment says how they differ and why they are not one list: merged, a rule would decide otherwise
on some sentence (the comment gives one).

A regex that only alternates plain words is built from its list with :func:`alternation`
(``COMPONENT_WORDS``, ``CONNECTIVES``, ``HEADING_LEADS``, …). A regex that holds grammar — optional
words, stems, phrases around the words (the hypothesis and suggestion patterns of R37, a
conditional opening, navigation and greetings) — stays beside the rule that reads it.

The engine imports every list from here; the lists are written in one module per idea:

- :mod:`~wikigen.engines.offline.lexicon.function_words` — function words per language, the
  abbreviations of sentences, determiners and quantifiers, pronouns, prepositions, connectives;
- :mod:`~wikigen.engines.offline.lexicon.names` — what may name a concept: stop-lists, modifiers,
  generic nouns, people and the reader, glossary entries;
- :mod:`~wikigen.engines.offline.lexicon.nouns` — nouns that name kinds, words and texts;
- :mod:`~wikigen.engines.offline.lexicon.verbs` — verbs, as lemmas;
- :mod:`~wikigen.engines.offline.lexicon.hedges` — hedges, frequency, conditions and time;
- :mod:`~wikigen.engines.offline.lexicon.attributes` — comparisons and what a copula's complement says;
- :mod:`~wikigen.engines.offline.lexicon.lists` — how a list is written (:func:`word_set`,
  :func:`plain_words`, :func:`alternation`).

The lexicon imports nothing of the engine, so that every module of it may import the lexicon.
"""

from __future__ import annotations

from wikigen.engines.offline.lexicon.attributes import *  # noqa: F403
from wikigen.engines.offline.lexicon.function_words import *  # noqa: F403
from wikigen.engines.offline.lexicon.hedges import *  # noqa: F403
from wikigen.engines.offline.lexicon.lists import *  # noqa: F403
from wikigen.engines.offline.lexicon.names import *  # noqa: F403
from wikigen.engines.offline.lexicon.nouns import *  # noqa: F403
from wikigen.engines.offline.lexicon.verbs import *  # noqa: F403
