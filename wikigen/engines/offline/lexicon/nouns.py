"""Nouns that name kinds (R20): classifiers, instances, class nouns, the words that name a word,
texts and their parts, the words of a concept's type and the words headings lead with.
"""

from __future__ import annotations

from wikigen.engines.offline.lexicon.lists import plain_words

# Classifiers that name a thing of its own kind, not a slot of another ("the `kubectl` tool", "the
# `Enum` module"; not "the `name` field", "the `--all` flag").
NAMING_CLASSIFIERS = frozenset(
    [
        "module", "protocol", "library", "package", "tool", "utility", "binary", "daemon", "behaviour",
        "behavior",
    ]
)
# Every classifier noun a code name may stand before and be named by: "the `Enum` module", "the
# `--all` flag", "the `kubectl` command-line tool".
CLASSIFIERS = NAMING_CLASSIFIERS | frozenset(
    [
        "function", "operator", "macro", "struct", "attribute", "sigil", "type", "class", "method",
        "command", "option", "field", "flag", "keyword", "variable", "directive",
    ]
)
# Nouns that stand for the instances of a kind the name before them names ("StorageClass objects",
# "`Job` resources").
INSTANCE_NOUNS = frozenset(["object", "resource"])
# What a name stands in for ("the `IO` module" for IO): the classifiers, the instance nouns of
# resource docs and "construct".
STAND_IN_CLASSIFIERS = CLASSIFIERS | INSTANCE_NOUNS | {"construct"}
# Words after an identifier, as written, that name its kind: "ConfigMap object" is the ConfigMap.
KIND_WORDS = INSTANCE_NOUNS | {"objects", "resources", "kind"}
# Nouns of a kind: "is a kind of Y", "is a flavour of Y" say that the subject is a Y.
CLASS_NOUNS = frozenset(
    ["kind", "type", "form", "sort", "variant", "flavor", "flavour", "example", "instance"]
)
# "ReplicaSet is the next-generation ReplicationController": a word before the class noun that makes
# the subject its successor, not one of its kind.
SUCCESSION_WORDS = frozenset(["generation"])
# "Eviction is the process of terminating Pods": the noun names what the subject does.
PROCESS_NOUNS = frozenset(["process", "act", "practice", "task"])
# "A ReplicaSet's purpose is to maintain …": the noun says what the subject is for.
PURPOSE_NOUNS = frozenset(["purpose", "role", "job", "goal", "aim", "responsibility", "task"])
# "… allows the `parts` option to be set …", "… by updating the `replicas` field": a setting named by
# code, one of the knobs a thing is used with.
SETTING_NOUNS = frozenset(["option", "field", "parameter", "argument", "flag", "key", "setting"])

# Nouns that name a word, not the thing it names.
NAME_NOUNS = frozenset(["term", "word", "name", "keyword"])
# "the term “webhook” refers to …", "the concept X": a noun before a subject term that names it,
# not a kind of it.
NAMING_NOUNS = NAME_NOUNS | {"concept", "notion"}
# "… contains words such as “failure” or “preference”": examples of words (use and mention).
WORD_NOUNS = NAME_NOUNS | {"phrase"}
# Class nouns that name a kind by one of its members: "an example of a queue"
EXAMPLE_NOUNS = plain_words("example instance")

# Texts: what a document or a part of one is called.
TEXTS = frozenset(["guide", "tutorial", "page", "article", "chapter", "book"])
# Pages of documentation a sentence may point to: "The [README](…) for the autoscaler lists …".
DOCUMENTS = TEXTS | frozenset(
    [
        "readme", "checklist", "documentation", "docs", "faq", "blog", "post", "manual", "whitepaper",
        "paper", "cheatsheet", "changelog", "handbook",
    ]
)
# The text a sentence is in, "This document describes …", "this section": the texts and their parts.
TEXT_ITSELF = TEXTS | {"document", "section"}
# What else a page calls itself or the work it belongs to: "This overview lists …", "This project
# provides …" speak of the page's own subject and may open a summary.
SELF_REFERENCES = frozenset(["topic", "overview", "reference", "site", "repository", "project"])
# What a page calls its own subject in the first person of documentation: "This command is an alias
# of `tar`" (not "This page introduces X", said of the text).
PAGE_SUBJECT_KINDS = frozenset(
    ["command", "tool", "utility", "program", "library", "package", "module", "plugin"]
)

# The type of a concept, from its defining sentence: "… is a daemon that …" (a component), "… is a
# framework for …" (an entity); read as words anywhere in the sentence.
COMPONENT_WORDS = frozenset(["component", "daemon", "agent", "binary", "controller manager"])
ENTITY_WORDS = frozenset(
    [
        "add-on", "tool", "project", "solution", "provider", "framework", "library", "driver", "server",
        "proxy", "gateway", "controller", "plugin", "platform", "operating system",
    ]
)

# Headings name terms after these words: "Using `Date`", "Working with maps", "More on tuples".
HEADING_LEADS = frozenset(
    [
        "the", "a", "an", "about", "using", "defining", "creating", "understanding", "working with",
        "introducing", "writing", "spawning", "sending and receiving", "more on", "on",
    ]
)
# "A combination of A and B is called X": a noun that makes the things after "of" the parts of the
# whole the sentence names.
WHOLE_NOUNS = frozenset(["combination", "pair", "set"])
