"""The problems of the files under content/ and the sources folder that no single source's parse
finds: a file beside the sources that the site would not publish (R41), a symbolic link (R41), and an
id that two files share or spell as one name (R5, R40).
"""

from __future__ import annotations

from collections.abc import Iterable

from wikigen.model.errors import Problem
from wikigen.model.ids import name_keys
from wikigen.model.sources import CONTENT_DIR, is_source_path

# R41: the assets beside sources that the site publishes — passive media only. Anything else there
# (HTML, SVG, scripts, other Markdown extensions, which MkDocs would render with their raw HTML) is
# refused by `check` and never copied: it would run on the site's origin.
ASSET_EXTENSIONS = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".pdf")
MARKDOWN_EXTENSIONS = (".md", ".markdown", ".mdown", ".mkdn", ".mkd", ".mdwn", ".mdtxt", ".mdtext")


def is_published_asset(path: str) -> bool:
    """R41: a file the site may copy from the sources folder: passive media (any letter case)."""
    return path.casefold().endswith(ASSET_EXTENSIONS)


def asset_problem(path: str, folder: str) -> Problem | None:
    """R41: the problem of a file under the sources ``folder`` that is neither a source nor an asset
    the site publishes; None for those, for hidden files (a `.gitkeep`), which no site publishes, and
    for every file of a folder outside content/: MkDocs never copies it, and the site takes only its
    passive media, from git."""
    name = path.rsplit("/", 1)[-1]
    if not folder.startswith(CONTENT_DIR + "/"):
        return None
    if is_source_path(path, folder) or is_published_asset(path) or name.startswith("."):
        return None
    stem, dot, suffix = name.rpartition(".")
    if dot and f".{suffix}".casefold() in MARKDOWN_EXTENSIONS:
        return Problem(
            path,
            1,
            f"only `*.md` files are sources, and the site would render this `.{suffix}` file as a page with "
            f"its raw HTML; rename it to `{stem}.md` to make it a source, or move it out of {folder}/",
        )
    kinds = ", ".join(ext[1:] for ext in ASSET_EXTENSIONS)
    return Problem(
        path,
        1,
        f"beside sources the site publishes only passive media ({kinds}), because a file such as HTML, SVG "
        f"or a script would run on the site; convert it (an SVG to PNG) or move it out of {folder}/",
    )


def link_problem(path: str, target: str) -> Problem:
    """R41: a symbolic link under content/ or the sources folder would publish whatever it points at."""
    return Problem(
        path,
        1,
        f"is a symbolic link (to {target!r}); links under {CONTENT_DIR}/ and the sources folder are refused "
        "because the site "
        f"would publish what they point at: replace the link with a plain file, or remove it "
        f"(`git rm {path}`)",
    )


def duplicate_id_problems(entries: Iterable[tuple[str, str, int]]) -> list[Problem]:
    """(path, id, line) triples → one problem per file whose id another file also uses, or whose id is
    one name with another's (R5, R40); each problem names the other files."""
    places = list(dict.fromkeys(entries))
    groups: dict[tuple[int, str], list[tuple[str, str, int]]] = {}
    for place in places:
        for which, key in enumerate(name_keys(place[1])):
            groups.setdefault((which, key), []).append(place)
    others: dict[tuple[str, str, int], set[tuple[str, str, int]]] = {}
    for members in groups.values():
        if len(members) > 1:
            for place in members:
                others.setdefault(place, set()).update(m for m in members if m[0] != place[0])
    problems = []
    for (path, source_id, line), clashing in sorted(others.items()):
        same = sorted(other[0] for other in clashing if other[1] == source_id)
        alike = sorted((other[1], other[0]) for other in clashing if other[1] != source_id)
        if same:
            problems.append(Problem(path, line, f"duplicate id {source_id!r}, also used by {', '.join(same)}"))
        if alike:
            named = ", ".join(f"{other_id!r} ({other_path})" for other_id, other_path in alike)
            problems.append(
                Problem(
                    path,
                    line,
                    f"id {source_id!r} and {named} are one name once letter case and Unicode normalization "
                    "are set aside and `/` is written `--`, so their compiled articles would share a file; "
                    "give one of them another `id` in its frontmatter, or rename its file",
                )
            )
    return problems
