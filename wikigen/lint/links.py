"""Broken links: a relative link in a source to a file that does not exist at HEAD, resolved against
the source's folder. External URLs, anchors, site-absolute paths (``/docs/...``, whose meaning
depends on where the site is served) and a documentation tool's references written in backticks
(ExDoc's ``[h/1](`IEx.Helpers.h/1`)``) are not checked."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from urllib.parse import unquote

from wikigen.lint.document import Document
from wikigen.lint.findings import Finding
from wikigen.lint.inputs import SourceText

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.\-]*:")


def folders_of(files: Iterable[str]) -> frozenset[str]:
    """Every folder that holds a tracked file, so that a link to a folder resolves."""
    folders: set[str] = set()
    for path in files:
        parent = posixpath.dirname(path)
        while parent and parent not in folders:
            folders.add(parent)
            parent = posixpath.dirname(parent)
    return frozenset(folders)


def resolved(source_path: str, target: str) -> str | None:
    """The repo path a relative link names (``..`` may lead out: then it starts with ``..``), or
    None for a link that is not checked."""
    path = unquote(target.split("#", 1)[0].split("?", 1)[0]).strip()
    # `/docs/...` is a site path; `` `Mod.fun/1` `` a documentation tool's reference (ExDoc)
    if not path or _SCHEME.match(path) or path.startswith(("/", "\\", "`")):
        return None
    return posixpath.normpath(posixpath.join(posixpath.dirname(source_path), path))


def broken_links(
    source: SourceText, document: Document, files: frozenset[str], folders: frozenset[str]
) -> list[Finding]:
    findings = []
    for link in document.links:
        path = resolved(source.path, link.target)
        if path is None or path in files or path in folders:
            continue
        outside = path == ".." or path.startswith("../")
        shown = unquote(link.target)
        finding = (
            f"the link to {shown!r} leads outside the repository"
            if outside
            else f"the link to {shown!r} names {path}, which does not exist at HEAD"
        )
        findings.append(
            Finding(
                kind="broken-link",
                severity="error",
                subject=shown,
                finding=finding,
                file=source.path,
                line=source.first_line + link.line - 1,
                action="point the link at an existing file (a path relative to this file's folder), "
                "commit the missing file, or remove the link",
            )
        )
    return findings
