"""`wikigen init`: lay out a knowledge repo — settings, site, workflow, hooks, one example source per
category — without ever overwriting a file, in a new or an existing repo."""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from wikigen.commands.installation import checked_spec, this_install_spec
from wikigen.model.config import CATEGORIES, CONFIG_FILE
from wikigen.model.errors import WikigenError

WORKFLOW = ".github/workflows/wikigen.yml"
HOOK = "hooks/pre-commit"


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
    root: Path, install_spec: str | None = None, note: Callable[[str], None] | None = None
) -> list[str]:
    """Create what is missing; return the paths written. Running it twice writes nothing.

    ``install_spec`` is what the workflow's install step asks pip for; by default, read off how this
    copy of wikigen was installed, or this version from PyPI when that was a local or editable
    install, and then ``note`` is given a line that says so.
    Raises before anything is written when a path it would write leads out of the repository
    through a symbolic link.
    """
    spec = checked_spec(install_spec) if install_spec else None
    spec_note = None
    if spec is None and not (root / WORKFLOW).exists():
        spec, spec_note = this_install_spec()

    def template(name: str) -> str:
        return resources.files("wikigen").joinpath(f"templates/{name}").read_text(encoding="utf-8")

    root.mkdir(parents=True, exist_ok=True)
    files = {CONFIG_FILE: template("wikigen.yml"), "mkdocs.yml": template("mkdocs.yml")}
    if spec is not None:
        # A JSON string is a YAML double-quoted scalar: '@', '#' and ':' in a URL stay literal.
        files[WORKFLOW] = template("workflow.yml").replace("__INSTALL_SPEC__", json.dumps(spec))
    files[".pre-commit-config.yaml"] = template("pre-commit-config.yaml")
    # A hook run without the virtual environment active still finds wikigen through this interpreter.
    files[HOOK] = template("pre-commit").replace("__PYTHON__", shlex.quote(hook_python()))
    for category in CATEGORIES:
        slug, title, text = EXAMPLES[category]
        folder = root / "content" / "sources" / category
        if folder.is_dir() and any(folder.glob("*.md")):
            continue  # an existing knowledge base needs no example here
        files[f"content/sources/{category}/{slug}.md"] = _example(category, slug, title, text)
    missing = {rel: text for rel, text in files.items() if not (root / rel).exists()}

    ignore = root / ".gitignore"
    lines = ignore.read_text(encoding="utf-8").splitlines() if ignore.exists() else []
    ignores_site = any(line.strip() in ("site/", "site", "/site/", "/site") for line in lines)
    for rel in [*missing, *([] if ignores_site else [".gitignore"])]:
        _refuse_link_out(root, rel)

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
