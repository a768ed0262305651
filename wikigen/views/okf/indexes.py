"""The ``index.md`` of each folder (OKF §8; pure): a heading and one line per document, with its
description — and at the bundle's root the OKF version (§12) and a line per folder."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence

from wikigen.views.okf.body import flat, link_label
from wikigen.views.okf.documents import Document

OKF_VERSION = "0.2"
FOLDER_TITLES = {"articles": "Articles", "concepts": "Concepts", "topics": "Topics"}
FOLDER_LEADS = {
    "articles": "compiled from the sources, every claim citing a verbatim span",
    "concepts": "named things, each with a cited definition and its relations",
    "topics": "summaries over groups of related concepts and articles",
}
EXPORT_MARK = "exported by wikigen"  # how `wikigen export` tells a bundle it wrote itself


def folder_index(folder: str, documents: Iterable[Document]) -> str:
    """``<folder>/index.md``: every document of the folder, by title."""
    lines = [f"# {FOLDER_TITLES.get(folder, folder)}", ""]
    for doc in sorted(documents, key=lambda d: (d.title.casefold(), d.path)):
        name = posixpath.relpath(doc.path, folder)
        lines.append(f"* [{link_label(doc.title)}]({name}) - {flat(doc.description)}")
    return "\n".join(lines) + "\n"


def root_index(name: str, counts: Mapping[str, int], facts: Sequence[str]) -> str:
    """The bundle's ``index.md``: its OKF version, a line per folder, then what it was made from."""
    lines = ["---", f'okf_version: "{OKF_VERSION}"', "---", "", f"# {flat(name)}", ""]
    for folder, title in FOLDER_TITLES.items():
        count = counts.get(folder, 0)
        if count:
            lines.append(f"* [{title}]({folder}/) - {count} document{'' if count == 1 else 's'}: {FOLDER_LEADS[folder]}")
    lines += ["", "# About this bundle", ""]
    lines += [f"* {flat(fact)}" for fact in facts]
    return "\n".join(lines) + "\n"

