"""`wikigen init`: lay out a knowledge repo — settings, site, workflow, hooks, one example source per
category — without ever overwriting a file, in a new or an existing repo.

In a repo that already has Markdown (a docs/ folder), the examples are left out; init says where
that Markdown lies and how to compile it in place (``--sources docs``: ``paths.sources`` in
wikigen.yml). A ``mkdocs.yml`` of the repo's own is never changed: its theme, hooks, plugins and
``INHERIT`` belong to that site, and wikigen's build must not fail on them, nor change where that site
reads its pages. The wiki's site gets its own config file beside it, ``mkdocs.wikigen.yml``, which
`wikigen build` and `wikigen serve` use.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from wikigen.commands.installation import checked_spec, this_install_spec
from wikigen.commands.site import SITE_CONFIG, WIKI_CONFIG
from wikigen.model.config import CATEGORIES, CONFIG_FILE, DEFAULT_SOURCES_DIR, load_config, sources_folder
from wikigen.model.errors import UsageError, WikigenError
from wikigen.model.yamlscan import safe_load
from wikigen.store.git import GitStore
from wikigen.store.unread_markdown import unread_note, unread_on_disk

WORKFLOW = ".github/workflows/wikigen.yml"
HOOK = "hooks/pre-commit"
PRE_COMMIT_CONFIG = ".pre-commit-config.yaml"
# The lines of the templates that name the sources folder, as init writes them for content/sources.
WATCHED = ('["content/sources/**", "wikigen.yml"]', "files: ^content/sources/")


def hook_python() -> str:
    """The interpreter the written hook runs wikigen with: the one running this copy of wikigen."""
    return sys.executable

EXAMPLES = {
    "knowledge": (
        "getting-started",
        "Getting started with this wiki",
        "Sources are Markdown files with a YAML frontmatter block. The compiler turns each source "
        "into an article whose claims cite the exact text of the source.\n\n"
        "A **source** is one Markdown file under `content/sources/`, written by a person. Its "
        "category is the folder it lives in.",
    ),
    "tasks": (
        "adopt-wikigen",
        "Adopt wikigen for team notes",
        "Decision: the team keeps its notes as sources in git and lets the compiler build the wiki "
        "on every push to main. The acceptance basis is a site that shows every source as an article.",
    ),
    "retrospectives": (
        "first-import",
        "First import retrospective",
        "The first import of old notes was slow because every file changed at once. A likely cause, "
        "still a hypothesis, is that the notes were never split by topic. Suggested improvement, not "
        "yet done: split long notes before importing them.",
    ),
    "constraints": (
        "environment",
        "Where the compiler runs",
        "The compiler runs on a developer laptop and in continuous integration. The offline engine "
        "needs no network and no API key; the HTTP engine needs a model server and its key.",
    ),
}


def _example(category: str, slug: str, title: str, text: str) -> str:
    extra = ""
    if category == "tasks":
        extra = "task: adopt-wikigen\nstatus: accepted\nattempt: 1\n"
    return (
        f"---\nid: {category}/{slug}\ntitle: {title}\ncategory: {category}\nverification: unverified\n{extra}---\n\n"
        f"# {title}\n\n{text}\n"
    )


def init_repo(
    root: Path,
    install_spec: str | None = None,
    note: Callable[[str], None] | None = None,
    sources: str | None = None,
) -> list[str]:
    """Create what is missing; return the paths written. Running it twice writes nothing.

    ``install_spec`` is what the workflow's install step asks pip for; by default, read off how this
    copy of wikigen was installed, or this version from PyPI when that was a local or editable
    install, and then ``note`` is given a line that says so.
    ``sources`` is the sources folder to set (``paths.sources``), also in an existing wikigen.yml
    that does not set another one; by default the one wikigen.yml sets, else content/sources.
    Raises before anything is written when a path it would write leads out of the repository
    through a symbolic link.
    """
    say = note if note is not None else (lambda line: None)
    spec = checked_spec(install_spec) if install_spec else None
    spec_note = None
    if spec is None and not (root / WORKFLOW).exists():
        spec, spec_note = this_install_spec()
    folder = _sources_dir(root, sources)

    def template(name: str) -> str:
        return resources.files("wikigen").joinpath(f"templates/{name}").read_text(encoding="utf-8")

    root.mkdir(parents=True, exist_ok=True)
    settings = template("wikigen.yml").replace(f"  sources: {DEFAULT_SOURCES_DIR}\n", f"  sources: {folder}\n")
    edited = _with_sources(root / CONFIG_FILE, folder) if sources is not None else None
    files = {CONFIG_FILE: settings, **_site_configs(root, template("mkdocs.yml"), say)}
    if spec is not None:
        # A JSON string is a YAML double-quoted scalar: '@', '#' and ':' in a URL stay literal.
        files[WORKFLOW] = _watching(template("workflow.yml").replace("__INSTALL_SPEC__", json.dumps(spec)), folder)
    files[PRE_COMMIT_CONFIG] = _watching(template("pre-commit-config.yaml"), folder)
    # A hook run without the virtual environment active still finds wikigen through this interpreter.
    files[HOOK] = template("pre-commit").replace("__PYTHON__", shlex.quote(hook_python()))
    files.update(_examples(root, folder, say))
    missing = {rel: text for rel, text in files.items() if not (root / rel).exists()}
    # What an earlier init wrote to watch content/sources/ watches the folder set since.
    watching = {
        rel: _watching(text, folder)
        for rel, text in ((rel, _text(root / rel)) for rel in (WORKFLOW, PRE_COMMIT_CONFIG) if rel not in missing)
        if text is not None and _watching(text, folder) != text
    }

    ignore = root / ".gitignore"
    lines = ignore.read_text(encoding="utf-8").splitlines() if ignore.exists() else []
    ignores_site = any(line.strip() in ("site/", "site", "/site/", "/site") for line in lines)
    changed = {**watching, **({CONFIG_FILE: edited} if edited is not None else {})}
    for rel in [*missing, *([] if ignores_site else [".gitignore"]), *changed]:
        _refuse_link_out(root, rel)

    for rel, text in changed.items():
        (root / rel).write_text(text, encoding="utf-8")
    if edited is not None:
        say(f"set `paths: {{sources: {folder}}}` in {CONFIG_FILE}: the Markdown under {folder}/ is compiled where it is")
    for rel in watching:
        say(f"{rel} now watches {folder}/ instead of {DEFAULT_SOURCES_DIR}/")
    for rel, text in missing.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if rel == HOOK:
            path.chmod(0o755)
    written = list(missing)
    if spec_note is not None and WORKFLOW in missing and note is not None:
        note(spec_note)
    if not ignores_site:
        with ignore.open("a", encoding="utf-8") as handle:
            if lines and not ignore.read_text(encoding="utf-8").endswith("\n"):
                handle.write("\n")
            handle.write("# the built site (mkdocs build)\nsite/\n")
        written.append(".gitignore")
    return written


def _refuse_link_out(root: Path, rel: str) -> None:
    """init writes inside the repository only: a file it would write, or a folder on the way to
    it, that is a symbolic link leading out of ``root`` is refused, naming the link and its target."""
    inside = Path(os.path.realpath(root))
    if Path(os.path.realpath(root / rel)).is_relative_to(inside):
        return
    parts = rel.split("/")
    link = next(
        ("/".join(parts[:end]) for end in range(1, len(parts) + 1) if root.joinpath(*parts[:end]).is_symlink()),
        rel,
    )
    target = os.readlink(root / link) if (root / link).is_symlink() else os.path.realpath(root / link)
    raise WikigenError(
        f"{link} is a symbolic link to {target}, outside the repository, so writing {rel} would write "
        f"there; wikigen init wrote nothing. Remove the link (or point it inside the repository) and run "
        "`wikigen init` again"
    )


def _sources_dir(root: Path, sources: str | None) -> str:
    """The sources folder: ``sources`` (--sources) once it names one, else wikigen.yml's."""
    if sources is None:
        return load_config(root).sources_dir
    folder, problem = sources_folder(sources)
    if problem is not None:
        raise UsageError(f"--sources: {problem}; name the folder that holds your Markdown, e.g. --sources docs")
    return folder


def _with_sources(path: Path, folder: str) -> str | None:
    """The text of the existing wikigen.yml at ``path`` with ``paths.sources`` set to ``folder``;
    None when there is no such file or it sets that folder already. A file that sets another folder
    is left alone (init never overwrites a setting): UsageError saying where to change it."""
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    try:
        data = safe_load(text) or {}
    except yaml.YAMLError:
        raise UsageError(f"{CONFIG_FILE} is not valid YAML (`wikigen check` says where); fix it, then run init again") from None
    paths = data.get("paths") if isinstance(data, dict) else None
    current = paths.get("sources") if isinstance(paths, dict) else None
    if current is not None and sources_folder(current)[0] == folder:
        return None
    default_line = re.compile(rf"^(paths:\n  sources: ){re.escape(DEFAULT_SOURCES_DIR)}[ \t]*$", re.MULTILINE)
    if paths == {"sources": DEFAULT_SOURCES_DIR} and len(default_line.findall(text)) == 1:
        return default_line.sub(lambda m: m.group(1) + folder, text)  # the line init wrote
    if paths is None and "paths" not in (data if isinstance(data, dict) else {}):
        return text + ("" if text.endswith("\n") or not text else "\n") + f"\npaths:\n  sources: {folder}\n"
    raise UsageError(
        f"{CONFIG_FILE} already sets paths.sources to {current!r}; to compile {folder}/ instead, change "
        f"that line to `sources: {folder}` (init changes no setting it did not write)"
    )


class _LenientLoader(yaml.SafeLoader):
    """Reads an MkDocs config as data: a tag of its own (``!!python/name:…``, ``!ENV``) reads as None."""


_LenientLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def _mkdocs_settings(path: Path) -> dict[str, Any]:
    """The top-level settings of the MkDocs config at ``path``; {} when it cannot be read as YAML."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LenientLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def _uses_wikigen(settings: dict[str, Any]) -> bool:
    """Whether an MkDocs config's ``plugins`` (a list of names or one-key mappings, or a mapping)
    name wikigen."""
    plugins = settings.get("plugins") or []
    entries = list(plugins) if isinstance(plugins, (list, dict)) else []
    names = [next(iter(p), None) if isinstance(p, dict) else p for p in entries]
    return "wikigen" in [str(name) for name in names]


def _site_configs(root: Path, template: str, say: Callable[[str], None]) -> dict[str, str]:
    """The MkDocs config init writes: mkdocs.yml where there is none; beside a mkdocs.yml of the
    repo's own (one without the wikigen plugin), mkdocs.wikigen.yml, named after that site."""
    own = root / SITE_CONFIG
    if not own.exists():
        return {SITE_CONFIG: template}
    settings = _mkdocs_settings(own)
    if _uses_wikigen(settings):
        return {}
    if not (root / WIKI_CONFIG).exists():
        say(
            f"{SITE_CONFIG} is kept as it is for your own site (its theme, hooks and plugins are not the "
            f"wiki's); the wiki's site is built from {WIKI_CONFIG} by `wikigen build` and `wikigen serve`"
        )
    name = str(settings.get("site_name") or root.resolve().name)
    text = template.replace("site_name: Knowledge base", f"site_name: {json.dumps(name + ' wiki', ensure_ascii=False)}")
    header = (
        f"# The wiki's site: `wikigen build` and `wikigen serve` use this file. {SITE_CONFIG} is your own\n"
        "# site's, left as it is. Both write site/ unless one of them sets another site_dir.\n"
    )
    return {WIKI_CONFIG: header + text}


def _ignored_by_git(root: Path) -> Callable[[str], bool]:
    """Whether git ignores a path (relative to ``root``; a folder ends with /): never, outside a repo."""
    try:
        store = GitStore(root)
    except WikigenError:
        return lambda path: False
    try:
        base = root.resolve().relative_to(store.root.resolve()).as_posix()
    except ValueError:
        return lambda path: False
    prefix = "" if base == "." else f"{base}/"
    return lambda path: bool(store.repo.path_is_ignored(prefix + path))


def _examples(root: Path, folder: str, say: Callable[[str], None]) -> dict[str, str]:
    """One example source per category, where the sources folder has none of that category (an
    adopted folder: none at all) — and none where the repo already holds Markdown outside the sources
    folder: then a line says where, and how to compile it in place (``--sources``)."""
    unread = unread_on_disk(root, folder, _ignored_by_git(root))
    if unread.total:
        say(unread_note(unread, folder))
        return {}
    examples = {}
    has_markdown = (root / folder).is_dir() and any((root / folder).rglob("*.md"))
    for category in CATEGORIES:
        slug, title, text = EXAMPLES[category]
        if folder == DEFAULT_SOURCES_DIR:
            existing = root / folder / category
            if existing.is_dir() and any(existing.glob("*.md")):
                continue  # an existing knowledge base needs no example here
        elif has_markdown:
            continue  # a folder adopted in place holds its own pages
        examples[f"{folder}/{category}/{slug}.md"] = _example(category, slug, title, text)
    return examples


def _watching(text: str, folder: str) -> str:
    """A workflow or pre-commit config as init writes it, its lines that name the sources folder
    naming ``folder``."""
    if folder == DEFAULT_SOURCES_DIR:
        return text
    paths, files = WATCHED
    return text.replace(paths, json.dumps([f"{folder}/**", CONFIG_FILE])).replace(files, f"files: ^{re.escape(folder)}/")


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
