"""The Markdown files of a repository that wikigen neither compiles nor publishes: those outside the
sources folder and outside the site's folder. `check`, `status` and `plan` count them, so that a
docs repo whose pages lie in docs/ is never told "nothing to compile" without a word about them.

Read from a git tree (HEAD or the index), never from the work tree: the compiler reads commits.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wikigen.model.config import DEFAULT_SOURCES_DIR, GENERATED_DIRS, SITE_DIR
from wikigen.store.git import GitStore
from wikigen.store.git_errors import translated

# Files that document the repository itself, not a subject: a README beside code, the changelog,
# the contributing guide. Compared case-insensitively; a top-level folder whose Markdown is only
# such files (tests/data/README.md) is not counted.
REPOSITORY_FILES = frozenset(
    {
        "readme.md",
        "changelog.md",
        "changes.md",
        "history.md",
        "contributing.md",
        "code_of_conduct.md",
        "security.md",
        "support.md",
        "license.md",
        "authors.md",
        "maintainers.md",
        "governance.md",
        "pull_request_template.md",
    }
)
SHOWN_FOLDERS = 3  # folders named in the note; the rest are counted


@dataclass(frozen=True, slots=True)
class UnreadMarkdown:
    """Markdown files no compile reads: ``folders`` is (folder, count), the most files first, each
    folder the deepest one holding all the files of one top-level folder."""

    folders: tuple[tuple[str, int], ...] = ()

    @property
    def total(self) -> int:
        return sum(count for _, count in self.folders)

    def as_json(self) -> dict[str, int]:
        return dict(self.folders)


def unread_markdown(store: GitStore, tree: str | None, sources_dir: str) -> UnreadMarkdown:
    """The Markdown files of the root ``tree`` (a commit's or the index's; None: no commit yet) that
    lie neither under ``sources_dir`` nor in the site's folder: not at the repository's root (its
    README), not in a hidden folder, not in a top-level folder that holds nothing but
    :data:`REPOSITORY_FILES`."""
    if tree is None:
        return UnreadMarkdown()
    with translated("listing the Markdown files outside the sources folder"):
        return grouped(_markdown(store, store._tree_obj(tree), "", sources_dir))


def unread_on_disk(root: Path, sources_dir: str, ignored: Callable[[str], bool]) -> UnreadMarkdown:
    """:func:`unread_markdown` of the files in the folder ``root`` (for `wikigen init`, which runs
    before anything is committed); ``ignored`` says which paths git ignores (never walked)."""
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):  # never into a linked folder
        base = Path(dirpath).relative_to(root).as_posix()
        base = "" if base == "." else base
        dirnames[:] = sorted(
            name
            for name in dirnames
            if not name.startswith(".") and name != "node_modules"  # dependencies, when git is not asked
            and not _skipped(f"{base}/{name}" if base else name, sources_dir)
            and not ignored(f"{base}/{name}/" if base else f"{name}/")
        )
        if base:
            found += [f"{base}/{n}" for n in sorted(filenames) if n.casefold().endswith(".md") and not n.startswith(".")]
    return grouped(path for path in found if not ignored(path))


def grouped(paths: Iterable[str]) -> UnreadMarkdown:
    """Markdown ``paths`` by top-level folder."""
    groups: dict[str, list[str]] = {}
    for path in paths:
        groups.setdefault(path.split("/", 1)[0], []).append(path)
    folders = [
        (_common_folder(paths), len(paths))
        for paths in groups.values()
        if any(posixpath.basename(path).casefold() not in REPOSITORY_FILES for path in paths)
    ]
    return UnreadMarkdown(tuple(sorted(folders, key=lambda item: (-item[1], item[0]))))


def _markdown(store: GitStore, obj: Any, base: str, sources_dir: str) -> Iterator[str]:
    """The paths of the Markdown files below the tree ``obj`` (at ``base``) that no compile reads."""
    for entry in obj:
        name = str(entry.name)
        path = f"{base}/{name}" if base else name
        if name.startswith("."):
            continue
        if entry.type_str == "tree":
            if not _skipped(path, sources_dir):
                yield from _markdown(store, store.repo[entry.id], path, sources_dir)
        elif base and name.casefold().endswith(".md"):
            yield path


def _skipped(folder: str, sources_dir: str) -> bool:
    """Folders not walked: the sources folder, what the compiler writes, and the site's folder,
    whose Markdown is published as pages — except content/sources where another folder holds the
    sources: MkDocs never publishes it (its files would be taken for sources)."""
    if folder == sources_dir or folder in GENERATED_DIRS:
        return True
    if folder != SITE_DIR and not folder.startswith(SITE_DIR + "/"):
        return False
    default = DEFAULT_SOURCES_DIR
    if sources_dir == default:
        return True
    return not (folder in (SITE_DIR, default) or folder.startswith(default + "/"))


def _common_folder(paths: list[str]) -> str:
    folders = [posixpath.dirname(path) for path in paths]
    common = posixpath.commonpath(folders)
    return common or folders[0].split("/", 1)[0]


def unread_note(unread: UnreadMarkdown | Mapping[str, int], sources_dir: str) -> str:
    """One sentence saying how many Markdown files no compile reads, where, and the setting that
    compiles the largest folder of them in place; "" when there are none."""
    folders = list(unread.folders if isinstance(unread, UnreadMarkdown) else unread.items())
    if not folders:
        return ""
    total = sum(count for _, count in folders)
    shown = ", ".join(f"{folder}/ ({count})" for folder, count in folders[:SHOWN_FOLDERS])
    more = f" and {len(folders) - SHOWN_FOLDERS} more folder(s)" if len(folders) > SHOWN_FOLDERS else ""
    first = folders[0][0]
    if sources_dir == DEFAULT_SOURCES_DIR:
        advice = (
            f"to compile {first}/ where it is, run `wikigen init --sources {first}` "
            f"(it sets `paths: {{sources: {first}}}` in wikigen.yml)"
        )
    else:
        advice = f"to compile them, move them into {sources_dir}/ or point `paths.sources` in wikigen.yml at their folder"
    return (
        f"{total} Markdown file(s) lie outside the sources folder {sources_dir}/ and are not compiled: "
        f"{shown}{more}; {advice}"
    )


def unread_at(store: GitStore, head: str | None, sources_dir: str, *, staged: bool = False) -> UnreadMarkdown:
    """:func:`unread_markdown` of the index with ``staged`` (or before the first commit), else of ``head``."""
    tree = store.index_tree() if staged or head is None else store.commit_tree(head)
    return unread_markdown(store, tree, sources_dir)
