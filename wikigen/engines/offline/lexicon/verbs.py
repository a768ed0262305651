"""Verbs, as lemmas (R20): verbs that name, say what a thing is for, offer, group, use, cover a
topic, enable, decide, give, and the light verbs that state no relation of their own.
"""

from __future__ import annotations

# "The two metrics are called `x` and `y`": verbs that give a name, an alias and no relation.
NAMING_VERBS = frozenset(["call", "name", "dub", "term", "know"])
# The naming verbs and "refer" ("… is referred to as X"): a sentence that names its term. Apart from
# NAMING_VERBS because "refer" names only with "as" ("refers to Pods" relates two concepts).
CALLING_VERBS = NAMING_VERBS | {"refer"}
# The same as words of a text, for the regexes that read a naming before any parse: "… is called X",
# "known as X", "referred to as X".
NAMING_PHRASES = frozenset(["called", "known as", "referred to as"])
# "Growers speak of "crop rotation" when …": verbs by which people name the topic their object is.
SPEAKING_VERBS = frozenset(["speak", "talk"])
# Verbs that say what a thing is for, when the term is their subject: "*Modules* let us organize code".
FUNCTION_VERBS = frozenset(
    [
        "let", "allow", "enable", "provide", "define", "represent", "describe", "store", "hold",
        "contain", "ensure", "manage", "track", "control", "specify", "determine", "mean", "refer",
        "implement", "give", "return", "create", "keep", "wrap", "encode", "identify", "combine",
        "convert", "handle", "execute", "evaluate", "perform", "group", "extend", "expose", "schedule",
        "run", "watch", "maintain", "select", "act", "serve", "consist", "denote", "indicate",
        "capture", "match", "spawn", "send", "receive", "supervise", "register", "start",
    ]
)
# "Elixir provides `true` and `false` as booleans": verbs that offer named members as a kind.
OFFERING_VERBS = frozenset(["provide", "offer", "introduce", "include", "ship", "support"])
# "Kubernetes supports …", "Elixir provides …", "Kubernetes relies on …": what a product or a
# language does for its users, the one kind of statement its name is the subject of as a rule. Not
# "include" ("Kubernetes includes an alpha feature" names one member) nor "introduce" (a change).
PLATFORM_VERBS = (OFFERING_VERBS - {"include", "introduce"}) | frozenset(
    ["use", "implement", "rely", "leverage", "bring", "promote"]
)
# "we group several functions into modules": verbs that gather things into a kind.
GROUPING_VERBS = frozenset(
    ["group", "organize", "organise", "bundle", "package", "collect", "gather", "arrange"]
)
# "The service consists of two parts: …": verbs of what a thing is made of.
HAVING_VERBS = frozenset(["consist", "comprise", "have", "contain", "include"])
# "… scale a workload using a _X_": the reader's use of a thing.
USING_VERBS = frozenset(["use", "run", "install", "deploy", "employ"])
# "Tuples store elements contiguously in memory", "Node objects track information about …": what
# data a thing keeps, a property of it, not what it is or does.
KEEPING_VERBS = frozenset(["store", "track"])
# "Logging architectures require a separate backend …", "Markdown uses backticks …": what a thing
# takes, needs or uses, not what it is.
NEEDING_VERBS = frozenset(["require", "need", "use"])
# "… that run in your cluster": where a thing is, not what it does.
PLACED_VERBS = frozenset(["run", "live", "reside", "sit", "exist"])
# "We can use `is_binary/1` to demonstrate this": what the example shows, not what the thing is for.
DEMONSTRATING_VERBS = frozenset(
    ["demonstrate", "show", "illustrate", "see", "check", "confirm", "try", "explore", "test"]
)
# Verbs by which a text speaks of its topic: "This page describes …", "… are explained in …".
COVERING_VERBS = frozenset(["describe", "explain", "cover", "discuss"])
# "This document outlines the concept of X": what the text covers, the term it is about.
TOPIC_VERBS = COVERING_VERBS | {"outline"}
# "This page gives an overview of X": the topic verbs and the verbs of an overview.
OVERVIEW_VERBS = TOPIC_VERBS | {"give", "provide"}
# "… are described in [Admission Controllers](…)", "… are listed in …": where the documentation says
# it, no relation between concepts. The covering verbs and the verbs of a pointer ("document",
# "mention", "list", "link"); unlike TOPIC_VERBS not "outline": "X outlines Y" may state a relation.
DOCUMENTING_VERBS = COVERING_VERBS | {"document", "mention", "list", "link"}
# "Links allow processes to establish a relationship", "Tolerations allow the scheduler to schedule
# pods …": what is allowed is a possibility, not a fact; what it lets the reader do is what it is for.
ENABLING_VERBS = frozenset(["allow", "let", "enable", "permit", "help"])
# "…, which causes the API server to terminate the Pod", "… a way to make the kube-apiserver recognise
# new kinds of object": what the subject brings about follows from it, no fact of its own.
CAUSING_VERBS = frozenset(["cause", "make"])
# "Liveness probes determine when to restart a container": what the subject decides.
DECIDING_VERBS = frozenset(["determine", "decide", "choose", "control", "specify", "define"])
# "Kubernetes provides Containers with lifecycle hooks": the object is who receives, what is
# provided is the "with" phrase's.
PROVIDING_VERBS = frozenset(["provide", "supply", "equip", "furnish"])
# "to give the control plane … the opportunity": the first object is who receives.
GIVING_VERBS = frozenset(["give", "grant", "offer", "send", "tell", "show", "hand", "lend"])
# Verbs whose passive keeps an object: "was assigned a role", "is charged a fee", "are taught tricks".
DOUBLE_OBJECT_VERBS = frozenset(
    [
        "assign", "award", "allow", "deny", "pay", "charge", "teach", "ask", "bring", "cost", "promise",
        "owe", "issue",
    ]
)
# Light verbs: with no particle, they state no relation of their own ("X has Y", "X gets Y").
LIGHT_VERBS = frozenset(
    [
        "be", "have", "do", "get", "make", "see", "say", "go", "come", "want", "need", "try", "let", "know",
        "think",
    ]
)
# "suppose a plugin ranks Nodes": what follows is supposed.
SUPPOSING_VERBS = frozenset(["suppose", "imagine", "assume", "pretend"])
# "X tries to make the Pod runnable": only tried.
TRYING_VERBS = frozenset(["try", "attempt", "seek"])
# "A DaemonSet ensures that all Nodes run a copy of a Pod": the clause is what the subject brings about.
ENSURING_VERBS = frozenset(["ensure", "guarantee"])
# "… use coordinated leader election when the feature gate is enabled": what someone switches on or
# sets up; a "when" clause of their passive is an option chosen, not a moment that comes by itself.
SETTING_VERBS = frozenset(["enable", "disable", "configure", "set", "specify", "install", "activate"])
# "scheduling refers to making sure that Pods are matched to Nodes": "make" with one of these ensures.
ENSURING_ADJECTIVES = frozenset(["sure", "certain"])
