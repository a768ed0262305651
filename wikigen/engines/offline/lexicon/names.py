"""What may name a concept (R20): the stop-lists every concept name and alias passes
(terms.is_acceptable_term), the modifiers and generic nouns that end or never make a name, the
people and the reader, and the words of glossary entries.
"""

from __future__ import annotations

from wikigen.engines.offline.lexicon.lists import plain_words, word_set

# ---------------------------------------------------------------------------------------------
# What may name a concept: stop-lists every concept name and alias passes (terms.is_acceptable_term).

# Headings, pronouns, quantifiers and generic nouns that never name a concept alone: "Overview",
# "Examples", "The following", "Configuration".
STOP_TERMS = word_set(
    "what's next|whats next|before you begin|examples|example|see also|overview|introduction|summary|"
    "background|notes|note|prerequisites|cleaning up|further reading|objectives|caution|warning|tip|"
    "important|motivation|limitations|limitation|caveats|caveat|troubleshooting|references|reference|"
    "details|usage|installation|getting started|first steps|first step|next steps|how it works|use cases|use case|faq|glossary|"
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

# "defprotocol Size do", "class Greeter:", "def main(name: str):": the keywords before a name that
# the code of an example defines (documents.Document.example_names).
DEFINING_KEYWORDS = plain_words(
    "def defp defmodule defprotocol defstruct defmacro defmacrop defexception class function func fn "
    "struct enum trait interface"
)
