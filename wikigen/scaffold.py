"""`wikigen init`: lay out a knowledge repo — settings, site, workflow, hooks, one example source per
category — without ever overwriting a file, in a new or an existing repo."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from wikigen.config import CATEGORIES, CONFIG_FILE
from wikigen.installation import checked_spec, this_install_spec

WORKFLOW = ".github/workflows/wikigen.yml"

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


def init_repo(root: Path, install_spec: str | None = None) -> list[str]:
    """Create what is missing; return the paths written. Running it twice writes nothing.

    ``install_spec`` is what the workflow's install step asks pip for; by default, read off how this
    copy of wikigen was installed (a local or editable install raises before anything is written).
    """
    written: list[str] = []
    spec = checked_spec(install_spec) if install_spec else None
    if spec is None and not (root / WORKFLOW).exists():
        spec = this_install_spec()

    def write(rel: str, text: str) -> bool:
        path = root / rel
        if path.exists():
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(rel)
        return True

    def template(name: str) -> str:
        return resources.files("wikigen").joinpath(f"templates/{name}").read_text(encoding="utf-8")

    root.mkdir(parents=True, exist_ok=True)
    write(CONFIG_FILE, template("wikigen.yml"))
    write("mkdocs.yml", template("mkdocs.yml"))
    if spec is not None:
        # A JSON string is a YAML double-quoted scalar: '@', '#' and ':' in a URL stay literal.
        write(WORKFLOW, template("workflow.yml").replace("__INSTALL_SPEC__", json.dumps(spec)))
    write(".pre-commit-config.yaml", template("pre-commit-config.yaml"))
    if write("hooks/pre-commit", template("pre-commit")):
        (root / "hooks/pre-commit").chmod(0o755)
    for category in CATEGORIES:
        slug, title, text = EXAMPLES[category]
        folder = root / "content" / "sources" / category
        if folder.is_dir() and any(folder.glob("*.md")):
            continue  # an existing knowledge base needs no example here
        write(f"content/sources/{category}/{slug}.md", _example(category, slug, title, text))

    ignore = root / ".gitignore"
    lines = ignore.read_text(encoding="utf-8").splitlines() if ignore.exists() else []
    if not any(line.strip() in ("site/", "site", "/site/", "/site") for line in lines):
        with ignore.open("a", encoding="utf-8") as handle:
            if lines and not ignore.read_text(encoding="utf-8").endswith("\n"):
                handle.write("\n")
            handle.write("# the built site (mkdocs build)\nsite/\n")
        written.append(".gitignore")
    return written
