"""The offline engine's words (R20): every word list its rules read, once, named by the idea it holds.

Each list is a frozenset of lower-case words (or a tuple of endings, which ``str.endswith`` takes),
compared with a word's lemma or text casefolded, or with a name normalized
(:func:`wikigen.model.ids.normalize_name`). A comment above each says what the idea is and, where it
matters, the sentence it decides.

Where two rules read one idea with different words, both lists stand side by side, the wider one
built from the narrower (``UNASSERTING_MODALS = HEDGES | …``), so each word is written once; the
comment says how they differ and why they are not one list: merged, a rule would decide otherwise
on some sentence (the comment gives one).

A regex that only alternates plain words is built here from its list with :func:`alternation`
(``COMPONENT_WORDS``, ``CONNECTIVES``, ``HEADING_LEADS``, …). A regex that holds grammar — optional
words, stems, phrases around the words (the hypothesis and suggestion patterns of R37, a
conditional opening, navigation and greetings) — stays beside the rule that reads it.

This module imports nothing of the engine, so that every module of it may import the lexicon.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from wikigen.model.ids import normalize_name


def word_set(text: str) -> frozenset[str]:
    """The normalized words of a ``|``-separated list."""
    return frozenset(normalize_name(word) for word in text.split("|"))


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def alternation(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, each escaped, longest first (then alphabetical): no word
    shadows a longer one that starts with it ("controller" and "controller manager")."""
    return "|".join(re.escape(word) for word in sorted(words, key=lambda word: (-len(word), word)))


# ---------------------------------------------------------------------------------------------
# Sentences and languages.

# Abbreviations whose full stop ends no sentence (without the stop): "e.g. a Pod" goes on.
ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "vs", "cf", "approx", "mr", "mrs", "dr", "st", "no", "fig", "al", "incl"}
)


# Common function words per language, by ISO 639-1 code: the share of them among a document's words
# tells its language (wikigen.engines.offline.language).
FUNCTION_WORDS: Mapping[str, frozenset[str]] = {
    "en": _words(
        "the of and to a an in is are was were be been it its this that these those for on with as by "
        "at from or not you your can will which if when each has have they we use"
    ),
    "de": _words(
        "der die das den dem des und ist sind ein eine einer einen eines nicht mit von zu im auf für "
        "sich auch wird werden oder bei wie dass kann durch aus als über"
    ),
    "fr": _words(
        "le la les des du un une et est sont dans pour pas que qui sur avec par ce cette au aux "
        "ou plus peut être"
    ),
    "es": _words(
        "el la los las del un una y es son en para por con que no se al lo como más pero este esta puede"
    ),
    "it": _words(
        "il lo la gli le di del della un una e è sono per con che non si da nel alla come più questo"
    ),
    "nl": _words(
        "de het een en is zijn van in op met voor niet dat die te ook als bij door wordt of naar kan"
    ),
    "pt": _words(
        "o a os as do da dos das um uma e é são em para com que não se por no na como mais pode este"
    ),
}

# Words that go on with a clause after a quoted phrase (conjunctions, prepositions, forms of "be"):
# the phrase qualifies no noun ("the "go to" is …"; the "go to" data structure is one name).
CLAUSE_WORDS = frozenset(
    [
        "since", "and", "or", "but", "is", "are", "was", "were", "to", "in", "on", "of", "for", "with",
        "as", "when", "if", "that", "which", "by", "from", "at",
    ]
)

# ---------------------------------------------------------------------------------------------
# What may name a concept: stop-lists every concept name and alias passes (terms.is_acceptable_term).

# Headings, pronouns, quantifiers and generic nouns that never name a concept alone: "Overview",
# "Examples", "The following", "Configuration".
STOP_TERMS = word_set(
    "what's next|whats next|before you begin|examples|example|see also|overview|introduction|summary|"
    "background|notes|note|prerequisites|cleaning up|further reading|objectives|caution|warning|tip|"
    "important|motivation|limitations|limitation|caveats|caveat|troubleshooting|references|reference|"
    "details|usage|installation|getting started|next steps|how it works|use cases|use case|faq|glossary|"
    "terminology|recommendation|recommendations|discussion|all|also|do not|this|it|that|these|those|"
    "there|here|they|we|you|one|each|every|some|any|the following|following|other|others|default|"
    "defaults|none|true|false|yes|no|enabled|disabled|name|names|value|values|type|types|field|fields|"
    "key|keys|data|information|result|results|output|input|support|feature|features|way|ways|thing|"
    "things|case|cases|part|step|steps|list|set|number|option|options|idea|goal|purpose|problem|"
    "solution|answer|question|reason|difference|advantage|disadvantage|benefit|benefits|approach|"
    "process|method|user|users|people|team|something|anything|everything|nothing|status|state|version|"
    "alpha|beta|stable|deprecated|optional|required|what|how|why|when|where|which|who|the|a|an|more|"
    "less|most|same|first|last|next|previous|new|old|good|bad|better|best|best practices|humans|push|"
    "pull|done|todo|command|commands|tool|tools|file|files|page|pages|section|sections|text|content|"
    "document|documentation|change|changes|issue|issues|error|errors|item|items|entry|entries|object|"
    "objects|resource|resources|system|systems|application|applications|component|components|api|apis|"
    "configuration|extension|extensions|solutions|mechanism|implementation|spec|metadata|"
    "specification|condition|conditions|policy|policies|rule|rules|setting|settings|level|levels"
)
# Words a term never opens with: determiners, pronouns, prepositions, conjunctions and the gerunds
# of task headings ("Using volumes", "Creating a Pod", "This feature").
LEADING_STOP_WORDS = word_set(
    "this|that|these|those|it|its|your|our|their|my|his|her|some|any|all|each|every|both|such|other|"
    "another|many|most|more|few|no|only|same|following|new|which|what|when|where|how|why|if|one|two|"
    "three|there|here|we|you|they|i|he|she|in|on|at|for|to|of|by|with|from|as|and|or|but|not|since|"
    "because|although|while|unless|once|after|before|so|then|thus|also|however|therefore|note|now|"
    "several|certain|various|using|creating|running|configuring|managing|setting|adding|enabling|"
    "disabling|deleting|writing|reading|getting|making|choosing|specifying|defining|deploying|updating|"
    "working|understanding|learning|installing"
)
# Words a term never ends with: "Pods of", "the API and" are cut from a longer phrase.
TRAILING_STOP_WORDS = word_set("of|to|and|or|with|for|in|on|at|by|from|the|a|an|as|is|are|be")

# Endings of a one-word term that names a property, not a concept: "Portable:", "Namespaced:",
# "dynamically".
PROPERTY_ENDINGS = ("able", "ible", "ful", "ous", "ive", "less", "ly", "ed")
# Endings of an adjective by its form: "the snapshot controller", a modifier tagged an adjective with
# none of them (nor a PLAIN_ADJECTIVE), names a kind of the noun after it. The property endings and
# those a noun may have too ("-al", "-ing", "-y"): apart from PROPERTY_ENDINGS, which would then
# refuse one-word terms such as "Logging", "Proxy" or "Terminal".
ADJECTIVE_ENDINGS = (
    *PROPERTY_ENDINGS,
    "al", "ic", "ing", "ant", "ent", "ary", "ory", "ish", "ile", "y", "ar", "ate",
)

# "The following", "the other", "the main": modifiers that never belong to a name's noun phrase.
GENERIC_MODIFIERS = frozenset(
    [
        "other", "another", "main", "many", "several", "various", "new", "same", "different",
        "particular", "certain", "following", "previous", "next", "first", "last", "basic", "simple",
        "whole", "entire", "own", "more", "most", "few", "such", "additional", "specific", "given",
        "existing", "actual", "real", "single", "multiple", "two", "three", "important", "common",
        "usual", "typical", "special", "general", "small", "large", "big", "good", "bad", "best",
        "better", "easy", "hard", "necessary", "possible", "example",
    ]
)
# Adjectives without an adjective ending ("multiple controllers" are any number of them): a
# modifier among them is an adjective, not a noun naming a kind (endpoints.is_noun_as_adjective).
# Another idea than GENERIC_MODIFIERS (which end a name's noun phrase): these keep a word from
# reading as a noun, though the two lists share many words.
PLAIN_ADJECTIVES = frozenset(
    [
        "multiple", "several", "various", "numerous", "individual", "separate", "new", "old", "same",
        "other", "main", "own", "whole", "full", "single", "many", "few", "big", "small", "large",
        "long", "short", "high", "low", "good", "bad", "best", "last", "next", "first", "real", "true",
        "false", "top", "free", "open", "safe", "secure", "simple", "complex", "common", "proper",
        "certain", "due", "late", "early", "strict", "loose", "basic", "raw", "live", "dead", "clean",
        "fast", "slow", "hard", "soft", "wide", "deep", "rich", "able", "sure", "clear", "exact",
        "entire", "prime", "native", "extra", "minimum", "maximum",
    ]
)

# People and pronoun-like nouns are subjects of many sentences and the concept of none: "Developers
# use …", "the left side", "this chapter".
GENERIC_NOUNS = frozenset(
    [
        "developer", "developers", "user", "users", "people", "programmer", "programmers", "author",
        "authors", "reader", "readers", "notice", "note", "example", "examples", "way", "ways", "left",
        "side", "right", "part", "parts", "shape", "lot", "bit", "walk-through", "guide", "chapter",
        "chapters", "section", "sections", "snippet", "snippets", "code", "line", "lines", "word",
        "words", "operation", "operations", "functionality", "thing", "things", "program", "programs",
        "administrator", "administrators", "admin", "admins", "core", "rest", "majority", "purpose",
        "goal", "scenario", "scenarios", "situation", "situations",
    ]
)
# People named by their role, defined by what they are, not by a step they take ("A cluster
# administrator creates …"); compared with a term's last word, its plural "s" stripped.
PEOPLE = frozenset(
    ["administrator", "admin", "developer", "user", "author", "maintainer", "engineer", "reviewer"]
)
# The reader or someone like them as the subject of a step: "… adds finalizers when you use …" is a
# step the reader takes. Unlike USERS it holds "i", "one" and "users", not "developer",
# "programmer" or "people".
READER_SUBJECTS = frozenset(["you", "we", "i", "user", "users", "administrator", "operator", "one"])
# The reader as the object of a verb that enables: "lets you …", "allows us to …".
READER_OBJECTS = frozenset(["you", "us"])
# Who puts a thing to use, so that their use tells what it is for: "You use X to …", "Elixir
# developers use the `Mix` build tool to compile code".
USERS = frozenset(["you", "we", "developer", "user", "people", "programmer", "administrator", "operator"])

# ---------------------------------------------------------------------------------------------
# Glossary entries (terms.list_definitions).

# Stages a feature goes through: "an *alpha feature*", "X is deprecated" (complements.is_maturity).
RELEASE_STAGES = frozenset(["alpha", "beta", "stable", "deprecated", "ga"])
# The release stages and the words of a stage before release: "an experimental feature".
MATURITY = RELEASE_STAGES | {"experimental", "preview"}
# A glossary term's note in brackets, "`spec` (optional)": no alias of the term. The release stages
# and whether a value is needed; unlike MATURITY not "experimental" or "preview", which are read as
# an alias.
QUALIFIERS = RELEASE_STAGES | word_set("optional|required|recommended|default")
# "- **Dedicated Nodes**: If you want …": a list entry whose text opens so is a use case, not a definition.
USE_CASE_OPENERS = word_set(
    "if|when|in|for|you|to|this|it|there|because|although|while|as|with|on|by|use|see|note|we|your|"
    "set|add|create|run|make|do|don't|avoid|consider|check"
)

# ---------------------------------------------------------------------------------------------
# Nouns that name kinds: classifiers, instances and the words that name a word.

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
# "Eviction is the process of terminating Pods": the noun names what the subject does.
PROCESS_NOUNS = frozenset(["process", "act", "practice", "task"])
# "A ReplicaSet's purpose is to maintain …": the noun says what the subject is for.
PURPOSE_NOUNS = frozenset(["purpose", "role", "job", "goal", "aim", "responsibility", "task"])

# Nouns that name a word, not the thing it names.
NAME_NOUNS = frozenset(["term", "word", "name", "keyword"])
# "the term “webhook” refers to …", "the concept X": a noun before a subject term that names it,
# not a kind of it.
NAMING_NOUNS = NAME_NOUNS | {"concept", "notion"}
# "… contains words such as “failure” or “preference”": examples of words (use and mention).
WORD_NOUNS = NAME_NOUNS | {"phrase"}

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

# ---------------------------------------------------------------------------------------------
# Determiners and quantifiers.

# "This ownership …", "these plugins …": the ones the text just named.
POINTING = frozenset(["this", "that", "these", "those", "such"])
# Words that refer back to what the text named: the pointing words, "both", "either" and the
# pronouns ("This set is called …", "Both mechanisms provide …").
DEMONSTRATIVES = POINTING | frozenset(
    ["both", "either", "neither", "it", "they", "its", "their", "our", "your", "his", "her", "my"]
)
# One at a time: what each does is not what the kind is for ("Every object has …").
EACH = frozenset(["each", "every", "any"])
# Determiners that quantify a noun, one at a time, all or some: "from each container in a Pod".
QUANTIFIERS = EACH | {"all", "some"}
# Words that pick some of a kind ("many functions …" states nothing of all); the tagger reads most
# of them before a noun as adjectives ("amod"), not determiners.
SOME = frozenset(
    ["some", "many", "several", "few", "most", "certain", "other", "multiple", "various", "numerous"]
)
# How many times, not a name: "a hook may be called multiple times". Counts, where SOME picks
# members of a kind.
COUNT_WORDS = frozenset(["multiple", "several", "many", "few", "two", "three", "numerous", "countless"])
# "one or more containers", "multiple Pods": any number of the kind, so no particular ones.
ANY_NUMBER = frozenset(["one", "1", "multiple", "more", "many", "several", "zero", "0"])
# "the first manifest", "the second is called …": one of a series just named, not the kind.
ORDINALS = frozenset(["first", "second", "third", "last", "next", "previous", "former", "latter"])
# "Prior to 1.27, this feature was known as _X_", "… formerly called X": the name it had.
FORMERLY = frozenset(["formerly", "previously", "originally", "once"])

# ---------------------------------------------------------------------------------------------
# Prepositions.

# Prepositions whose object a verb relates its subject to ("registers the node *with* the API
# server"); "by default", "after the phase", "in case of" are circumstances.
RELATING_PREPOSITIONS = frozenset(
    [
        "on", "of", "in", "to", "with", "from", "into", "onto", "through", "across", "between",
        "within", "against", "as", "inside", "over",
    ]
)
# A place right after a quantified noun ("each container in a Pod") says which ones, whatever the
# parser hung it on ("run alongside app containers in the same Pod" says where they run).
PLACING_PREPOSITIONS = frozenset(["in", "on", "inside", "within", "of"])
# "a controller for Jobs", "Gateways of this class", "Pods with these labels": a phrase that picks some.
PICKING_PREPOSITIONS = frozenset(["for", "of", "with", "without"])
# "an identifier (like `String`, `Keyword`)": examples or exceptions of a class, not what it relates to.
EXAMPLE_PREPOSITIONS = frozenset(["like", "unlike", "including", "except", "besides", "than"])

# ---------------------------------------------------------------------------------------------
# Verbs (as lemmas).

# "The two metrics are called `x` and `y`": verbs that give a name, an alias and no relation.
NAMING_VERBS = frozenset(["call", "name", "dub", "term", "know"])
# The naming verbs and "refer" ("… is referred to as X"): a sentence that names its term. Apart from
# NAMING_VERBS because "refer" names only with "as" ("refers to Pods" relates two concepts).
CALLING_VERBS = NAMING_VERBS | {"refer"}
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
# "we group several functions into modules": verbs that gather things into a kind.
GROUPING_VERBS = frozenset(
    ["group", "organize", "organise", "bundle", "package", "collect", "gather", "arrange"]
)
# "The service consists of two parts: …": verbs of what a thing is made of.
HAVING_VERBS = frozenset(["consist", "comprise", "have", "contain", "include"])
# "… scale a workload using a _X_": the reader's use of a thing.
USING_VERBS = frozenset(["use", "run", "install", "deploy", "employ"])
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

# ---------------------------------------------------------------------------------------------
# Hedges, frequency, conditions and time: what keeps a sentence from stating a fact.

# Modal verbs that hedge a definition: "X may be used …" says what it might do, not what it is.
HEDGES = frozenset(["may", "might", "could", "would", "should"])
# Modal verbs under which a relation is not asserted: the hedges, "can" ("X can be used in Y",
# "EnRoute can run as a controller" say what is possible) and "must" (a requirement). Unlike HEDGES:
# a definition under "can" or "must" may still say what a thing is for (frames.is_possibility
# weighs "can" on its own), where a relation needs a plain statement.
UNASSERTING_MODALS = HEDGES | {"can", "must"}
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
# "In most cases, …", "In this configuration, …", "In either of those situations …": where it holds.
# Nouns of a case, where MOMENT_NOUNS are those of a moment, though both hold "case", "situation"
# and "scenario".
FRAME_NOUNS = frozenset(
    ["case", "situation", "configuration", "scenario", "setup", "mode", "circumstance", "event", "example"]
)

# ---------------------------------------------------------------------------------------------
# Connectives and comparisons.

# A sentence that begins with a lower-case connective is the rest of one an example interrupted
# ("as, in case of an error, …").
CONNECTIVES = frozenset(
    ["as", "and", "or", "but", "which", "because", "since", "whereas", "while", "so", "then"]
)
# "Furthermore, `Task` provides …": a further thing said of a term, after what it is.
ADDITIVE_CONNECTIVES = frozenset(["furthermore", "moreover", "additionally", "in addition", "besides"])
# Adjectives of likeness: "`dbg` is similar to …", "… provides a very similar API to …".
LIKENESS_ADJECTIVES = frozenset(["similar", "equivalent", "identical", "analogous", "comparable"])
# "Ownership is different from …": how a term compares with another, not what it is. The likeness
# adjectives and those of unlikeness ("different attributes" are various ones, so only as a complement).
COMPARING_ADJECTIVES = LIKENESS_ADJECTIVES | {"different", "opposite"}
# Adjectives that state a relation between the subject and their prepositional object ("is similar
# to", "is compatible with"); "is available in", "is useful for" say where or how good.
RELATIONAL_ADJECTIVES = LIKENESS_ADJECTIVES | {"compatible", "interchangeable"}

# ---------------------------------------------------------------------------------------------
# What a copula's complement says (complements.is_defining_attr).

# Attributes that say nothing of what a thing is: "is the same", "is one of …", "which is the
# default" (a value), "is a useful alternative" (how it compares), "are the successors to sprockets"
# (what it is to another), "which is the focus of this page" (what the text is about).
NOT_DEFINING_ATTRIBUTES = frozenset(
    [
        "same", "only", "case", "reason", "problem", "result", "thing", "way", "one", "example", "lot",
        "bit", "default", "alternative", "successor", "predecessor", "counterpart", "replacement",
        "equivalent", "opposite", "focus",
    ]
)
# Nouns that judge a thing for a purpose rather than say what it is ("a good fit", "a useful
# alternative", "the best choice"; "a useful construct" still says what it is).
VERDICT_NOUNS = frozenset(["alternative", "fit", "choice", "idea", "practice"])
# "the preferred method": a ranking, not what it is.
RANKING_WORDS = frozenset(["prefer", "preferred", "recommend", "recommended", "favored", "favoured"])
# "is a central part of the farm" says how much it matters there, not what it is.
WEIGHTY_ADJECTIVES = frozenset(
    [
        "central", "important", "key", "integral", "essential", "vital", "crucial", "fundamental", "major",
        "core", "critical",
    ]
)

# The reader and the writers of the text: as a main clause's subject, a step or a use ("You can
# store the gizmo in a cache …"), not what a term is (discourse.py)
READER_PRONOUNS = _words("you we")

# Pronouns that point back to what a sentence before named: as a main clause's subject, the
# sentence leans on that one ("That is a gizmo in a function.")
POINTING_PRONOUNS = _words("it this that they these those")

# Adverbs that deny most of a clause, as "not" denies all of it: "Handlers rarely take arguments"
# states nothing as a fact
SCARCITY_ADVERBS = _words("rarely seldom hardly barely scarcely")
# Words that open a clause saying when or on what condition its main clause holds: "Writers wait
# when a reader holds a write lock" ("… while Y runs" after the main clause contrasts instead)
CIRCUMSTANCE_MARKS = _words("when whenever once if unless until till before after whether")
# Determiners that pick one member of a kind: "the simplest kind of queue", "one kind of queue"
# ("every kind of queue" names them all)
ONE_OF = _words("a an another one the")
# Class nouns that name a kind by one of its members: "an example of a queue"
EXAMPLE_NOUNS = _words("example instance")
# Prepositions after an object noun that belong to the predicate: "takes the name of Y", "provides
# access to Y", "adds support for Y", "puts a lock on Y"
OBJECT_PHRASE_PREPOSITIONS = _words("of to for over on into")
