"""bytes + path → Source (pure). Rules R1–R6 and the task fields of R35.

Every problem is collected with its path and line; nothing stops at the first one.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import yaml
from markdown_it import MarkdownIt

from wikigen.model.config import SITE_DIR, Config
from wikigen.model.errors import Problem
from wikigen.model.hashing import canonical_json, sha256_hex, source_version
from wikigen.model.snapshot import ManifestEntry
from wikigen.model.yamlscan import refusal, safe_load

CONTENT_DIR = SITE_DIR
# R5: frontmatter is small structured data; these bound the work of reading it.
MAX_FRONTMATTER_BYTES = 64 * 1024
MAX_FRONTMATTER_DEPTH = 20
VERIFICATION = ("unverified", "verified", "rejected")
# R39: keys whose spelling decides what happens to the source; another case is refused, not ignored.
CASE_CHECKED_KEYS = frozenset({"id", "title", "category", "verification", "private"})
RESERVED = ("id", "title", "category", "verification")
TASK_FIELDS = ("task", "step", "run", "parent", "status", "attempt", "revision", "acceptance", "invalidated")
# R35: volatile fields never make a new version.
VOLATILE_FIELDS = frozenset(
    {"updated_at", "updatedAt", "usage", "run_version", "runVersion", "tool_steps", "toolSteps"}
)
# R35: only these statuses are checkpoints (a paid compile); everything else waits as `pending`.
CHECKPOINT_STATUSES = frozenset({"accepted", "final", "failed", "cancelled", "blocked", "reverify"})
_STATUS_ALIASES = {"canceled": "cancelled", "finalized": "final", "re-verify": "reverify"}
# R35: the fields checkpoints are deduplicated by — never updated_at, usage or a counter.
CHECKPOINT_KEY = ("task", "step", "run", "status", "attempt", "revision", "acceptance", "invalidated")

_md = MarkdownIt("commonmark")


@dataclass(frozen=True, slots=True)
class Task:
    """The R35 fields of a task source."""

    task: str | None
    step: str | None
    run: str | None
    parent: str | None
    status: str | None
    attempt: int
    checkpoint_key: str  # canonical text of CHECKPOINT_KEY's values

    @property
    def at_checkpoint_status(self) -> bool:
        return self.status in CHECKPOINT_STATUSES

    @property
    def lineage(self) -> tuple[str | None, str | None, str | None]:
        """Sources sharing (task, step, run) are attempts of the same work."""
        return (self.task, self.step, self.run)


@dataclass(frozen=True, slots=True)
class Source:
    """One valid source (A) at one version."""

    path: str
    id: str
    title: str
    category: str
    verification: str
    metadata: Mapping[str, Any]
    body: str
    body_line: int  # 1-based line of the file where the body starts
    id_line: int  # the line to blame for the id (its frontmatter key, else 1)
    version: str
    content_hash: str
    blob: str
    private: bool
    task: Task | None

    @property
    def volatile(self) -> dict[str, Any]:
        return {k: self.metadata[k] for k in sorted(self.metadata) if k in VOLATILE_FIELDS}

    @property
    def body_bytes(self) -> int:
        return len(self.body.encode("utf-8"))


def is_source_path(path: str, folder: str) -> bool:
    """Only ``*.md`` files under the sources ``folder`` (``Config.sources_dir``) are sources; anything
    else there is an asset."""
    return path.startswith(folder + "/") and path.endswith(".md")


def default_id(path: str, folder: str) -> str:
    """R1: a source's id without a frontmatter ``id``: its path below the sources folder, no ``.md``."""
    return path[len(folder) + 1 : -len(".md")]


def _line_of_key(front: str, key: str, first_line: int) -> int:
    match = re.search(rf"^{re.escape(key)}\s*:", front, flags=re.MULTILINE)
    if match is None:
        return first_line
    return first_line + front.count("\n", 0, match.start())


def _first_h1(body: str) -> str | None:
    tokens = _md.parse(body)
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h1" and i + 1 < len(tokens):
            text = tokens[i + 1].content.strip()
            if text:
                return text
    return None


def _split_frontmatter(text: str) -> tuple[str | None, str, int]:
    """(frontmatter text or None, body, 1-based file line where the body starts).

    Raises ValueError when a frontmatter block is opened and never closed.
    """
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return None, text, 1
    lines = text.splitlines(keepends=True)
    offset = len(lines[0])
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n") in ("---", "..."):
            front = "".join(lines[1:index])
            body = text[offset + len(lines[index]) :]
            return front, body, index + 2
        offset += len(lines[index])
    raise ValueError("frontmatter opened with '---' is never closed")


def _refused_yaml(front: str) -> tuple[int, str] | None:
    """(file line, message) for frontmatter that is refused before it is read (wikigen.model.yamlscan):
    over the size or nesting limit, anchors and aliases, a key written twice (R5).
    Raises yaml.YAMLError for text that is not YAML at all."""
    size = len(front.encode("utf-8"))
    if size > MAX_FRONTMATTER_BYTES:
        return 2, (
            f"frontmatter is {size:,} bytes, over the {MAX_FRONTMATTER_BYTES:,}-byte limit; "
            "move long text into the body"
        )
    return refusal(front, "frontmatter", first_line=2, max_depth=MAX_FRONTMATTER_DEPTH)


def alias_advice(name: str, target: str | None) -> str:
    """R2: the exact wikigen.yml setting that makes a foreign category name (a Jekyll `category:
    Concepts`) an alias of ``target`` (else of knowledge, naming the other choices)."""
    key = " ".join(name.split()).casefold()
    line = yaml.safe_dump({key: target or "knowledge"}, default_flow_style=True, allow_unicode=True).strip()[1:-1]
    choice = "" if target else " (or tasks, retrospectives, constraints)"
    return (
        f"the categories are knowledge, tasks, retrospectives and constraints. To read {name!r} as "
        f"{target or 'knowledge'}{choice}, alias it in wikigen.yml: `categories: {{aliases: {{{line}}}}}` "
        f"(where wikigen.yml already has `categories:`, put `{line}` under its `aliases:`, in place of "
        "`{}` if that is there)"
    )


def normalize_status(value: Any) -> str | None:
    if value is None:
        return None
    status = " ".join(str(value).split()).casefold().replace(" ", "_")
    return _STATUS_ALIASES.get(status, status)


def _task_of(metadata: Mapping[str, Any]) -> Task | None:
    if not any(k in metadata for k in ("task", "status", "parent")):
        return None

    def text(key: str) -> str | None:
        value = metadata.get(key)
        return None if value is None else str(value)

    try:
        attempt = int(metadata.get("attempt", 1))
    except (TypeError, ValueError):
        attempt = 1
    key_values = {k: metadata.get(k) for k in CHECKPOINT_KEY}
    key_values["status"] = normalize_status(metadata.get("status"))
    return Task(
        task=text("task"),
        step=text("step"),
        run=text("run"),
        parent=text("parent"),
        status=normalize_status(metadata.get("status")),
        attempt=attempt,
        checkpoint_key=canonical_json(key_values),
    )


def matches_private(path: str, source_id: str, globs: Iterable[str]) -> bool:
    """R39: whether a glob of the `private` setting names this source, by its path or its id."""
    return any(fnmatch.fnmatch(path, g) or fnmatch.fnmatch(source_id, g) for g in globs)


def is_private(path: str, source_id: str, metadata: Mapping[str, Any], config: Config) -> bool:
    if metadata.get("private") is True:
        return True
    return matches_private(path, source_id, config.private)


def _reserved_key_problems(path: str, front: Mapping[str, Any], key_line: Callable[[str], int]) -> list[Problem]:
    """R39: `private` must be a YAML boolean, and a key that differs from a reserved one only by case
    (`Private:`) is refused rather than read as business metadata."""
    problems = []
    if "private" in front and not isinstance(front["private"], bool):
        problems.append(
            Problem(
                path,
                key_line("private"),
                f"private must be true or false (a YAML boolean, unquoted), got {front['private']!r}; "
                "anything else would leave the source public",
            )
        )
    for key in front:
        wanted = key.casefold()
        if wanted in CASE_CHECKED_KEYS and key != wanted:
            problems.append(
                Problem(path, key_line(key), f"key {key!r} differs from {wanted!r} only by case; write {wanted!r}")
            )
    return problems


def parse_source(path: str, data: bytes, blob: str, config: Config) -> Source | list[Problem]:
    """Parse one source file. Returns the Source, or every problem found in it (R5)."""
    problems: list[Problem] = []
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        return [Problem(path, line, "binary content (NUL byte) in a .md source; sources must be UTF-8 text")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return [
            Problem(path, line, f"not valid UTF-8 (byte 0x{data[exc.start]:02x}); save the file as UTF-8")
        ]
    text = text.removeprefix("\ufeff")
    try:
        front_text, body, body_line = _split_frontmatter(text)
    except ValueError as exc:
        return [Problem(path, 1, f"{exc}; add a closing '---' line")]

    front: dict[str, Any] = {}
    if front_text is not None:
        try:
            refused = _refused_yaml(front_text)
            if refused is not None:
                return [Problem(path, *refused)]
            loaded = safe_load(front_text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = (mark.line + 2) if mark is not None else 1
            reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            return [Problem(path, line, f"frontmatter is not valid YAML: {reason}")]
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            return [Problem(path, 2, "frontmatter must be a mapping of keys to values")]
        front = {str(k): v for k, v in loaded.items()}
    fm = front_text or ""

    def key_line(key: str) -> int:
        return _line_of_key(fm, key, 2)

    # R2: the category comes from the folder or the frontmatter, never from the body.
    folder = config.sources_dir
    inside = path.startswith(folder + "/")
    relative = path[len(folder) + 1 :] if inside else path
    parts = relative.split("/")
    folder_category: str | None = None
    # In a folder adopted in place, folders only organize files: the category is the frontmatter's,
    # else knowledge.
    by_folder = config.folder_categories
    if by_folder and len(parts) >= 2:
        folder_category = config.normalize_category(parts[0])
        if folder_category is None:
            problems.append(
                Problem(path, 1, f"unknown category folder {parts[0]!r}; {alias_advice(parts[0], None)}")
            )
    category = folder_category
    if "category" in front:
        declared = config.normalize_category(str(front["category"]))
        if declared is None:
            problems.append(
                Problem(
                    path,
                    key_line("category"),
                    f"unknown category {front['category']!r}; {alias_advice(str(front['category']), folder_category)}",
                )
            )
        elif folder_category is not None and declared != folder_category:
            problems.append(
                Problem(
                    path,
                    key_line("category"),
                    f"category {front['category']!r} is {declared!r}, but the file "
                    f"is in the {parts[0]!r} folder ({folder_category}); move the file or fix the category",
                )
            )
        elif folder_category is None and (len(parts) == 1 or not by_folder):
            category = declared
    elif not by_folder:
        category = "knowledge"
    elif len(parts) == 1:
        problems.append(
            Problem(path, 1, f"a source directly in {folder}/ needs a frontmatter 'category'")
        )

    source_id = front.get("id", relative[:-3])
    if not isinstance(source_id, str) or not source_id.strip() or source_id != source_id.strip():
        problems.append(
            Problem(
                path,
                key_line("id"),
                f"id must be a non-empty string without surrounding spaces, got {source_id!r}",
            )
        )
        source_id = relative[:-3]

    verification = front.get("verification", "unverified")
    if verification not in VERIFICATION:
        problems.append(
            Problem(
                path,
                key_line("verification"),
                f"verification must be one of {', '.join(VERIFICATION)}, got {verification!r}",
            )
        )

    problems.extend(_reserved_key_problems(path, front, key_line))

    title = front.get("title")
    if title is not None and (not isinstance(title, (str, int, float)) or not str(title).strip()):
        problems.append(Problem(path, key_line("title"), "title must be a non-empty string"))
        title = None

    if not body.strip():
        # It would compile to no article, and R28 would then fail every later compile.
        problems.append(
            Problem(path, 1, f"the file is empty; write the source's text, or remove it (`git rm {path}`)")
            if not text.strip()
            else Problem(
                path,
                body_line - 1 if front_text is not None else body_line,
                "the source has no body, only frontmatter; write its text below the closing '---', "
                f"or remove it (`git rm {path}`)",
            )
        )
    if problems or category is None:
        return problems or [Problem(path, 1, "no category")]

    resolved_title = str(title).strip() if title is not None else (_first_h1(body) or parts[-1][:-3])
    metadata = {k: v for k, v in front.items() if k not in RESERVED}
    hashed = {k: v for k, v in metadata.items() if k not in VOLATILE_FIELDS}
    task = _task_of(metadata) if category == "tasks" else None
    return Source(
        path=path,
        id=source_id,
        title=resolved_title,
        category=category,
        verification=str(verification),
        metadata=MappingProxyType(metadata),
        body=body,
        body_line=body_line,
        id_line=key_line("id") if "id" in front else 1,
        version=source_version(resolved_title, category, hashed, body),
        content_hash=sha256_hex(body),
        blob=blob,
        private=is_private(path, source_id, metadata, config),
        task=task,
    )


@dataclass(frozen=True, slots=True)
class SourceSet:
    """Every source in one tree: parsed where its blob changed, known from the manifest elsewhere."""

    tree: str
    parsed: Mapping[str, Source]  # by path: sources whose blob was read
    known: Mapping[str, ManifestEntry]  # by path: unchanged since the baseline, not read
    pending_read: Mapping[str, Source] = field(default_factory=lambda: MappingProxyType({}))  # by id
    problems: tuple[Problem, ...] = ()
    blobs_read: int = 0
    renames: tuple[tuple[str, str], ...] = ()
