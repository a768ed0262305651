"""A candidate's own section (R20): a heading it was found in, or one that names it as words of its
own ("Using `Date`"), never a task done to one of its kind ("Modifying a CronJob").
"""

from __future__ import annotations

import re

from wikigen.engines.offline.candidates import Candidate
from wikigen.model.ids import normalize_name

# "Modifying a CronJob", "Deleting a ReplicaSet and its Pods": a task done to one of a kind, whose
# sentences tell its steps (not "Using `Date`", "Using an operator": how the kind is used)
_TASK_HEADING = re.compile(
    r"^(?!using |understanding |introducing |defining |choosing )\w+ing (?:a|an|the|your) ", re.IGNORECASE
)


def is_own_section(heading: str, candidate: Candidate) -> bool:
    """Whether ``heading`` names the candidate's own section: one of the headings it was found in,
    or one that names it as words of its own — never a task done to one of its kind."""
    if _TASK_HEADING.match(normalize_name(heading)):
        return False
    return normalize_name(heading) in candidate.sections or is_named_in_heading(heading, candidate.term)


def is_named_in_heading(heading: str, term: str) -> bool:
    """The heading names the term as words of its own: "Using `Date`" does, "NaiveDateTime" does not."""
    key = normalize_name(term)
    text = normalize_name(heading)
    # the substring test first: this runs for every mention, and most headings do not contain the term
    return bool(key) and key in text and re.search(rf"(?<!\w){re.escape(key)}(?:e?s)?(?!\w)", text) is not None
