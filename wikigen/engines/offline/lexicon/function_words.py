"""Function words (R20): the small words of grammar, per language (to tell a document's language)
and in English — determiners and quantifiers, pronouns, prepositions, connectives — and the
abbreviations whose full stop ends no sentence.
"""

from __future__ import annotations

from collections.abc import Mapping

from wikigen.engines.offline.lexicon.lists import plain_words

# ---------------------------------------------------------------------------------------------
# Sentences and languages.

# Abbreviations whose full stop ends no sentence (without the stop): "e.g. a Pod" goes on.
ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "vs", "cf", "approx", "mr", "mrs", "dr", "st", "no", "fig", "al", "incl"}
)


# Common function words per language, by ISO 639-1 code: the share of them among a document's words
# tells its language (wikigen.engines.offline.language).
FUNCTION_WORDS: Mapping[str, frozenset[str]] = {
    "en": plain_words(
        "the of and to a an in is are was were be been it its this that these those for on with as by "
        "at from or not you your can will which if when each has have they we use"
    ),
    "de": plain_words(
        "der die das den dem des und ist sind ein eine einer einen eines nicht mit von zu im auf für "
        "sich auch wird werden oder bei wie dass kann durch aus als über"
    ),
    "fr": plain_words(
        "le la les des du un une et est sont dans pour pas que qui sur avec par ce cette au aux "
        "ou plus peut être"
    ),
    "es": plain_words(
        "el la los las del un una y es son en para por con que no se al lo como más pero este esta puede"
    ),
    "it": plain_words(
        "il lo la gli le di del della un una e è sono per con che non si da nel alla come più questo"
    ),
    "nl": plain_words(
        "de het een en is zijn van in op met voor niet dat die te ook als bij door wordt of naar kan"
    ),
    "pt": plain_words(
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
# Determiners and quantifiers.

# "This ownership …", "these plugins …": the ones the text just named.
POINTING = frozenset(["this", "that", "these", "those", "such"])
# Words that refer back to what the text named: the pointing words, "both", "either" and the
# pronouns ("This set is called …", "Both mechanisms provide …").
DEMONSTRATIVES = POINTING | frozenset(
    ["both", "either", "neither", "it", "they", "its", "their", "our", "your", "his", "her", "my"]
)
# "another *virtual file*": one more of a kind the text named before.
ONE_MORE = frozenset(["another"])
# One at a time: what each does is not what the kind is for ("Every object has …").
EACH = frozenset(["each", "every", "any"])
# Determiners that quantify a noun, one at a time, all or some: "from each container in a Pod".
QUANTIFIERS = EACH | {"all", "some"}
# Words that pick some of a kind ("many functions …" states nothing of all); the tagger reads most
# of them before a noun as adjectives ("amod"), not determiners.
SOME = frozenset(
    ["some", "many", "several", "few", "most", "certain", "other", "multiple", "various", "numerous"]
)
# Words that add to what was said of a thing: "Rich has many other features", "… provides additional
# functions". Unlike SOME not "many" or "several": "Rich has many features" may say what it has.
FURTHER_MODIFIERS = frozenset(["other", "additional", "further"])
# How many times, not a name: "a hook may be called multiple times". Counts, where SOME picks
# members of a kind.
COUNT_WORDS = frozenset(["multiple", "several", "many", "few", "two", "three", "numerous", "countless"])
# "one or more containers", "multiple Pods": any number of the kind, so no particular ones.
ANY_NUMBER = frozenset(["one", "1", "multiple", "more", "many", "several", "zero", "0"])
# "the first manifest", "the second is called …": one of a series just named, not the kind.
ORDINALS = frozenset(["first", "second", "third", "last", "next", "previous", "former", "latter"])
# "Prior to 1.27, this feature was known as _X_", "… formerly called X": the name it had.
FORMERLY = frozenset(["formerly", "previously", "originally", "once"])
# Determiners that pick one member of a kind: "the simplest kind of queue", "one kind of queue"
# ("every kind of queue" names them all)
ONE_OF = plain_words("a an another one the")

# ---------------------------------------------------------------------------------------------
# Pronouns.

# The reader and the writers of the text: as a main clause's subject, a step or a use ("You can
# store the gizmo in a cache …"), not what a term is (discourse.py)
READER_PRONOUNS = plain_words("you we")

# Pronouns that point back to what a sentence before named: as a main clause's subject, the
# sentence leans on that one ("That is a gizmo in a function.")
POINTING_PRONOUNS = plain_words("it this that they these those")
# Plural pronouns that stand for what a sentence before named, where no plural noun before them in
# their own sentence can: "We are going to explore them in detail now."
PLURAL_PRONOUNS = plain_words("they them their these those")

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
# The means by which another thing is done ("handled by Kubernetes via _structured parameters_").
MEANS_PREPOSITIONS = frozenset(["via", "through"])
# Prepositions after an object noun that belong to the predicate: "takes the name of Y", "provides
# access to Y", "adds support for Y", "puts a lock on Y"
OBJECT_PHRASE_PREPOSITIONS = plain_words("of to for over on into")

# ---------------------------------------------------------------------------------------------
# Connectives.

# A sentence that begins with a lower-case connective is the rest of one an example interrupted
# ("as, in case of an error, …").
CONNECTIVES = frozenset(
    ["as", "and", "or", "but", "which", "because", "since", "whereas", "while", "so", "then"]
)
# A sentence that opens on one goes on from the sentence before it, or sets itself against it ("Then
# …", "That way …", "However, since version 2, …"): it defines nothing on its own.
OPENING_CONNECTIVES = frozenset(
    [
        "and", "but", "or", "so", "then", "now", "also", "instead", "otherwise", "next", "finally",
        "afterwards", "however", "nevertheless", "nonetheless", "conversely", "in contrast",
        "on the other hand", "that way", "this way", "in that way", "with that", "with this",
        "just with that", "for this", "for that", "in this case", "in that case", "here",
    ]
)
# "Furthermore, `Task` provides …": a further thing said of a term, after what it is.
ADDITIVE_CONNECTIVES = frozenset(["furthermore", "moreover", "additionally", "in addition", "besides"])
# "Similarly, values like 0 …", "In the example above, …": a passage that opens on one leans on the
# text before it (a summary does not pick it).
BACK_POINTING_OPENERS = frozenset(
    [
        "they", "the same", "the above", "similarly", "likewise", "thus", "hence", "therefore",
        "in the example above", "in the examples above", "in these examples above", "in this example",
        "in that example", "in the previous example", "in the last example", "as shown above",
        "as seen above", "as mentioned above", "as described above", "as shown before", "as seen before",
        "as mentioned before", "as described before", "as mentioned earlier", "as described earlier",
    ]
)
