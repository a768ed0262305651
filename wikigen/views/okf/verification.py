"""Which citations hold (E5): each one checked against the body of the version it cites, read from
that version's git blob with its body hash checked against the manifest — the check `wikigen verify`
makes — never against the work tree or the object file."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wikigen.evidence.citations import Citation, check_citation
from wikigen.views.knowledge import SourceView


def citation_holds(raw: Mapping[str, Any], sources: Mapping[str, SourceView]) -> bool:
    """True when the citation is well formed, cites the version the snapshot compiled, and its quote
    is at its span in that version's verified body."""
    try:
        citation = Citation.from_json(raw)
    except (KeyError, TypeError, ValueError):
        return False
    view = sources.get(citation.source)
    if view is None or view.body is None or not view.verified_body or view.compiled_version != citation.version:
        return False
    return check_citation(citation, view.body) is None
