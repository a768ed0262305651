"""What reading a term's mention finds (R20): the :class:`Reading` of one mention, its
:class:`Rank` (how well it defines the term), and :class:`Found`, a mention read in its sentence.
:mod:`~wikigen.engines.offline.readings` reads a mention; :mod:`~wikigen.engines.offline.definitions`
collects what it finds.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from wikigen.engines.offline.text import Sentence


class Rank(IntEnum):
    """How well a reading defines its term; a lower rank is a better definition."""

    DEFINES = 0
    DESCRIBES = 1
    MENTIONS = 2
    MODIFIES = 3  # the term only qualifies another noun


@dataclass(frozen=True, slots=True)
class Reading:
    pattern: str  # copula | function | purpose | called | appositive | emphasis | subject | mention
    rank: Rank
    anaphoric: bool = False  # "This set is called …": the sentence before says what "this" is
    forward: bool = False
    # A description (Rank.DESCRIBES) of what "the" one named is or does ("The aggregation layer allows
    # …", weak only because a definite article may pick one thing) says more of the term than any
    # other ("The aggregation layer runs in-process …", "Pod priority is specified by …").
    of_the_one: bool = False
    # "UTF-8 also provides a notion of graphemes." only introduces the term: it defines only with the
    # sentence after it, where that one opens with the term ("Graphemes may consist of …")
    introduced: bool = False


@dataclass(frozen=True, slots=True)
class Found:
    """One mention of a candidate, read from its sentence."""

    key: str
    sentence: Sentence
    reading: Reading
    own_section: bool
    opens: bool = False  # the sentence opens with the term ("`gather` collects …", "A gizmo is …")
    # the noun before the term that names a kind of it ("CSI plugins provide …"): unless it is a hub
    narrowed_by: str = ""
