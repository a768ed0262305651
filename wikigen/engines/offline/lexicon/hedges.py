"""What keeps a sentence from stating a fact (R20): hedges, frequency and likelihood, steps of a
sequence, consequences, conditions, circumstances and time, and the adverbs that deny most of a
clause.
"""

from __future__ import annotations

from wikigen.engines.offline.lexicon.lists import plain_words

# Modal verbs that hedge a definition: "X may be used …" says what it might do, not what it is.
HEDGES = frozenset(["may", "might", "could", "would", "should"])
# Modal verbs under which a relation is not asserted: the hedges, "can" ("X can be used in Y",
# "EnRoute can run as a controller" say what is possible) and "must" (a requirement). Unlike HEDGES:
# a definition under "can" or "must" may still say what a thing is for (frames.is_possibility
# weighs "can" on its own), where a relation needs a plain statement.
UNASSERTING_MODALS = HEDGES | {"can", "must"}
# What will happen: "Here, `s` will be a copy …" tells what the example at hand will do, never what a
# term is. Not among UNASSERTING_MODALS: "The ReplicaSet will create/delete its Pods to match this
# number" still states a relation.
FUTURE_MODALS = frozenset(["will"])
# How often something holds: "The operating system usually includes …" says what holds most of the time.
FREQUENCY_WORDS = frozenset(["usually", "often", "sometimes", "typically", "generally", "normally", "mostly"])
# "DaemonSets typically provide node-local services …": what a term does in most uses, not what it is
# for. The frequency words and "commonly", "frequently"; unlike UNASSERTING_ADVERBS not the
# likelihood words: "X probably stores Y" may still say what X is for.
HABITUAL_WORDS = FREQUENCY_WORDS | {"commonly", "frequently"}
# How likely something is: "The pod probably restarted".
LIKELIHOOD_WORDS = frozenset(["probably", "possibly", "perhaps"])
# Adverbs under which a relation is not asserted: the frequency words and the likelihood words
# ("X perhaps manages Y"). Unlike HABITUAL_WORDS not "commonly" or "frequently": "X is commonly
# used with Y" may state a relation.
UNASSERTING_ADVERBS = FREQUENCY_WORDS | LIKELIHOOD_WORDS
# What holds even so, in the case at hand: "However, the Pod still runs on the node."
CONCESSIVE_ADVERBS = plain_words("still")
# "Finally, kube-scheduler assigns …", "Kubernetes then provides …": a step of a procedure, so no
# relation that always holds.
SEQUENCE_WORDS = frozenset(["finally", "then", "next", "afterwards", "subsequently", "lastly"])
# "The scheduler then notifies …", "First, plugins register …": one step in a sequence, so no
# definition. The sequence words and "first", "afterward"; the relation rules read SEQUENCE_WORDS
# alone, so "X first checks Y" may still state a relation.
STEP_WORDS = SEQUENCE_WORDS | {"first", "afterward"}
# "The value has no effect, so gizmos are still required …": what follows from something else.
CONSEQUENCE_WORDS = frozenset(["so", "thus", "therefore", "hence", "consequently"])
# Markers of a condition (or a concession) a clause holds under: "if …", "unless …", "although …".
CONDITION_MARKERS = frozenset(["if", "unless", "whether", "suppose", "assuming", "although", "though"])
# Markers of when a clause holds: "when you use …", "after deleting …", "Once both init containers
# complete, …".
TIME_MARKERS = frozenset(["when", "whenever", "while", "after", "before", "once", "until"])
# "A Pod is given a QoS class of `Burstable` if:": a sentence that ends so holds only under the
# conditions the list after it states.
LIST_CONDITIONS = frozenset(["if", "unless", "when", "whenever", "only if"])
# "the scenario where a Pod gets scheduled onto one node", "the point that the scheduler preempts
# Pods": a clause that tells which moment or case the sentence speaks of states nothing.
MOMENT_NOUNS = frozenset(["scenario", "situation", "case", "point", "time", "moment", "instant", "period"])
# "The way Kubernetes processes multiple taints is like a filter": a clause that tells which way
# the sentence speaks of states nothing either.
MANNER_NOUNS = frozenset(["way", "manner"])
# "In most cases, …", "In this configuration, …", "In either of those situations …": where it holds.
# Nouns of a case, where MOMENT_NOUNS are those of a moment, though both hold "case", "situation"
# and "scenario".
FRAME_NOUNS = frozenset(
    ["case", "situation", "configuration", "scenario", "setup", "mode", "circumstance", "event", "example"]
)
# Nouns of a fronted "In …," that only connect ("In order to", "In particular", "In addition"), where a
# bare noun there frames a mode or a process ("In dynamic provisioning, the controller creates …")
CONNECTIVE_NOUNS = plain_words("order particular general addition practice fact short summary turn contrast theory total")
# Adverbs that deny most of a clause, as "not" denies all of it: "Handlers rarely take arguments"
# states nothing as a fact
SCARCITY_ADVERBS = plain_words("rarely seldom hardly barely scarcely")
# Words that open a clause saying when or on what condition its main clause holds: "Writers wait
# when a reader holds a write lock" ("… while Y runs" after the main clause contrasts instead)
CIRCUMSTANCE_MARKS = plain_words("when whenever once if unless until till before after whether")
# What holds unless configured or asked otherwise: "By default, …", "By design, …", "By convention, …".
DEFAULTS = frozenset(["default", "design", "convention"])

# "This command has been superseded by `pamfile`.", "… is deprecated": a note on a thing's status
# says nothing of what it is.
STATUS_PARTICIPLES = frozenset(["superseded", "deprecated", "obsoleted", "replaced", "renamed", "removed", "moved"])
