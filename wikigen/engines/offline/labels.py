"""The labels of list entries (R20): "**SELinux**: …", "**Cluster operator:** Manages …", a
definition list's term ("Static Pods" / ": Control plane components are …"). An entry speaks of its
label, or of its own subject where it has one.
"""

from __future__ import annotations

import re

from wikigen.engines.offline.parse import Parse, Word

# A list entry's label: "**SELinux**: …", "`Ignore` : …"
LABEL = re.compile(
    r"^(?P<label>\*\*[^*\n]{1,60}\*\*|`[^`\n]{1,60}`|_[^_\n]{1,60}_)(?:\s*\([^()\n]{1,30}\))?\s*:\s"
)  # "`Allow` (default): …" too

# An entry of a list whose bold label holds its colon: "**Cluster operator:** Manages …"
ENTRY = re.compile(r"^(?:\*\*|__)[^*_\n]{1,60}:(?:\*\*|__)\s")


def has_own_subject(parse: Parse, label: Word) -> bool:
    """The clause after an entry's label has a subject other than the label."""
    clause = parse.words[label.head]
    return clause.i != label.i and any(
        w.dep in ("nsubj", "nsubjpass") and w.i != label.i for w in parse.children(clause.i)
    )


# A definition list's entry: "Static Pods" / ": Control plane components are deployed as …" is about
# the entry's term; what its body says of other terms is said of them as options of it
LISTED_LABEL = re.compile(r"^(?P<label>[^\n:]{2,80})\n[ \t]*:[ \t]+\S")
