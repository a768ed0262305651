"""The word lists lint's term rules read, each once and named by its idea (heuristics as data)."""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# A name may start with one of these and mean the same thing without it ("the scheduler").
DETERMINERS = _words("the a an")

# Words that make a marked phrase a piece of a sentence rather than a term: a phrase may not start or
# end with one, and may hold only the connectors inside ("Quality of Service").
FUNCTION_WORDS = _words(
    "a an the this that these those it its it's they them their we our us you your i me my he she his her "
    "is are was were be been being am do does did done has have had having can could may might must shall "
    "should will would not no nor never only also just very too so than then there here when where which "
    "who whom whose what why how if else while because although though whether either neither both each "
    "every all any some many much more most less few other another such same own one ones "
    "of and or for to in on at by with from into onto over under about as up out off via per vs"
)
CONNECTORS = _words("of and for to on in")  # allowed inside a term, never at its ends

# Marked words that are not terms: admonition labels, document furniture, generic headings.
GENERIC_TERMS = _words(
    "note notes warning warnings caution tip tips important info information example examples sample "
    "samples overview introduction summary conclusion background motivation objectives objective "
    "prerequisites prerequisite requirements usage install installation setup configuration options "
    "reference references appendix faq faqs glossary index contents toc todo fixme deprecated "
    "alternatives alternative limitations limitation caveats caveat troubleshooting debugging "
    "details detail description descriptions discussion next previous recap review result results "
    "output input step steps section chapter part version versions changelog history license "
    "feedback contributing contributors authors credits acknowledgements"
)
GENERIC_PHRASES = frozenset(
    {
        "what's next",
        "whats next",
        "next steps",
        "see also",
        "further reading",
        "learn more",
        "before you begin",
        "getting started",
        "cleaning up",
        "clean up",
        "read more",
        "more information",
        "use cases",
        "use case",
        "how it works",
    }
)
