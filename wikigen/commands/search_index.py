"""`wikigen compile`'s last step: the search index, where there is one, follows the new snapshot."""

from __future__ import annotations

from wikigen.commands.printers import echo
from wikigen.model.errors import WikigenError


def refresh_search(directory: str, *, quiet: bool) -> None:
    """Bring an existing search index to the snapshot just published, saying what it embedded; a
    failure is a warning (the snapshot is published, and the next `wikigen search` tries again)."""
    from wikigen.search.refresh import refresh_index

    def progress(line: str) -> None:
        if not quiet:
            echo(f"wikigen: {line}", err=True)

    try:
        report = refresh_index(directory, progress=progress)
    except WikigenError as exc:
        echo(
            f"wikigen: warning: the search index was not brought up to date ({exc.message}); "
            "the next `wikigen search` does it",
            err=True,
            lines=True,
        )
        return
    if report is not None and not quiet:
        echo(
            f"wikigen: search index up to date: {report.sources_indexed} source(s) indexed, "
            f"{report.passages_embedded} passage(s) embedded, {report.sources_dropped} dropped",
            err=True,
        )
