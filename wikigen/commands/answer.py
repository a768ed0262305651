"""`wikigen answer` and the MCP tool `file_answer`: an answer filed back as a source, written only when
every quote it cites is verbatim in the committed version of its source.

Each cited source is read from HEAD's tree (never the work tree) and checked before its quote: a
private source (R39) or a rejected one (R6) cannot be cited, and nothing is said about its text. With
any citation refused nothing is written. The answer's file is new, or already holds the same text
(the same call twice writes once); another text there is refused, never overwritten. Nothing is
staged or committed: a person reviews the file, commits it, and the next compile compiles it.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wikigen.compiler.sizes import size_problem
from wikigen.evidence.citations import Citation, locate, make_citation
from wikigen.model.answers import Cited, Quote, answer_path, answer_text, parse_citations, question_text
from wikigen.model.errors import AnswerRefused, UsageError, WikigenError
from wikigen.model.snapshot import private_globs
from wikigen.model.sources import Source, default_id, matches_private, parse_source
from wikigen.store.privacy import marks_private
from wikigen.store.workspace import Workspace

if TYPE_CHECKING:
    from wikigen.search import Searcher


@dataclass(frozen=True, slots=True)
class Passage:
    """What a citation id names: its source, the version it was cited from, its text and span there."""

    source: str
    version: str
    text: str
    span: tuple[int, int]


PassageOf = Callable[[str], Passage]  # a citation id from `search`; NotFoundError for an unknown one


@dataclass(frozen=True, slots=True)
class Filed:
    """An answer's source: where it is, whether this call wrote it, the citations checked."""

    path: str
    id: str
    title: str
    written: bool
    citations: tuple[Citation, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "written": self.written,
            "path": self.path,
            "id": self.id,
            "title": self.title,
            "citations": [c.as_json() for c in self.citations],
            "committed": False,
            "next": (
                f"review {self.path}, then `git add {self.path} && git commit`; the next `wikigen compile` "
                "compiles it (verification: unverified until a person sets it)"
            ),
        }


def file_answer(
    root: Path | str,
    question: str,
    answer: str,
    citations: Iterable[Any],
    *,
    passage_of: PassageOf | None = None,
) -> Filed:
    """Check every citation against HEAD, then write the answer's source (see the module's docstring).
    ``passage_of`` resolves citation ids (the MCP server's search index); without it an id is refused."""
    asked = question_text(question)
    cited = parse_citations(citations)
    ws = Workspace.open(root, history=False)
    sources_dir = ws.config.sources_dir
    quotes: list[Quote] = []
    checked: list[Citation] = []
    failed: list[dict[str, object]] = []
    for number, one in enumerate(cited, 1):
        try:
            quote, citation = _checked(ws, sources_dir, one, passage_of)
        except _Refused as exc:
            failed.append({"citation": number, "source": one.label(), "problem": exc.problem})
            continue
        quotes.append(quote)
        checked.append(citation)
    if failed:
        lines = "\n".join(f"- citation {f['citation']} ({f['source']}): {f['problem']}" for f in failed)
        raise AnswerRefused(
            f"{len(failed)} of {len(cited)} citation(s) refused; nothing was written:\n{lines}\n"
            "Cite public sources and quote their committed text exactly (`search` and `excerpt` show it).",
            failed,
        )
    path = answer_path(asked, sources_dir, ws.config.folder_categories)
    data = answer_text(asked, answer, quotes).encode("utf-8")
    source = _valid(ws, path, data)
    written = _write(ws.root, path, data)
    return Filed(path=path, id=source.id, title=source.title, written=written, citations=tuple(checked))


def passages_of_search(searcher: Searcher) -> PassageOf:
    """Citation ids resolved by a :class:`wikigen.search.Searcher` (an object's citation or a passage)."""
    from wikigen.search.records import verify_citation

    def passage_of(cid: str) -> Passage:
        found = verify_citation(searcher, cid)["checked"][0]["citation"]
        span = found["source_span"]
        return Passage(str(found["source"]), str(found["version"]), str(found["quote"]), (int(span["start"]), int(span["end"])))

    return passage_of


class _Refused(Exception):
    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


def _checked(ws: Workspace, sources_dir: str, cited: Cited, passage_of: PassageOf | None) -> tuple[Quote, Citation]:
    """The quote of one citation, found in the committed version of its source; else _Refused."""
    ref, quote = cited.source, cited.quote
    passage: Passage | None = None
    if cited.citation_id is not None:
        if passage_of is None:
            raise _Refused("a citation id is resolved by the search index: cite SOURCE:QUOTE here instead")
        try:
            passage = passage_of(cited.citation_id)
        except WikigenError as exc:
            raise _Refused(exc.message) from None
        ref = passage.source
        if quote is None:
            quote = passage.text
        elif quote not in passage.text:
            raise _Refused(f"the quote is not inside the passage citation {cited.citation_id} names")
    assert ref is not None and quote is not None  # Cited.checked
    path, blob = _committed_file(ws, sources_dir, ref)
    data = ws.store.read_blob(blob)
    parsed = parse_source(path, data, blob, ws.config)
    # R39: privacy is judged before the text is read, so a refusal tells nothing about it.
    if _private(ws, sources_dir, path, data, parsed):
        raise _Refused(
            f"{ref} is private (`private: true` in its frontmatter or a glob of `private` in wikigen.yml); "
            "a private source is never quoted by another source, cite a public one"
        )
    if not isinstance(parsed, Source):
        raise _Refused(f"{path} is not a valid source at HEAD ({parsed[0]}); fix it and commit it first")
    if parsed.verification == "rejected":
        raise _Refused(f"{ref} is rejected (`verification: rejected`, R6): it is no knowledge to cite")
    # the place the citation id names, while HEAD holds the version it was cited from; else the first
    found = locate(quote, parsed.body, [passage.span]) if passage and passage.version == parsed.version else None
    start = found[0] if found is not None else parsed.body.find(quote)
    if start < 0:
        hint = ""
        local = ws.root / path
        if local.is_file() and quote in local.read_text(encoding="utf-8", errors="replace"):
            hint = "; the work tree has it, uncommitted: commit the source first"
        raise _Refused(
            f"the quote is not verbatim in {parsed.id} as committed at HEAD (version {parsed.version}){hint}"
        )
    citation = make_citation(parsed.id, parsed.version, parsed.body, start, start + len(quote))
    return Quote(source=parsed.id, path=path, version=parsed.version, text=quote), citation


def _committed_file(ws: Workspace, sources_dir: str, ref: str) -> tuple[str, str]:
    """(path, blob) at HEAD of the source ``ref`` names: a path (with or without the sources folder)
    or an id (its path without .md, else the snapshot's record of it)."""
    ref = ref.strip().lstrip("/")
    if ".." in ref.split("/") or "\\" in ref:
        raise _Refused(f"{ref!r} is not a source name; name a source by its id or its path under {sources_dir}/")
    relative = ref[len(sources_dir) + 1 :] if ref.startswith(sources_dir + "/") else ref
    candidates = [f"{sources_dir}/{relative}" if relative.endswith(".md") else f"{sources_dir}/{relative}.md"]
    entry = ws.baseline.manifest.get(ref)
    if entry is not None:
        candidates.append(entry.path)
    tree = ws.store.commit_tree(ws.head)
    for path in candidates:
        blob = ws.store.blob_in(tree, path)
        if blob is not None:
            return path, blob
    if any((ws.root / path).is_file() for path in candidates):
        raise _Refused(f"{ref} is not committed: a quote is checked against HEAD, so commit the source first")
    raise _Refused(
        f"no source {ref!r} at HEAD; name a source by its id (e.g. knowledge/pods) or its path under {sources_dir}/"
    )


def _private(ws: Workspace, sources_dir: str, path: str, data: bytes, parsed: Source | list[Any]) -> bool:
    """R39: private by its committed frontmatter, a glob in force (now or at the snapshot), the
    snapshot's record, or a `private` key its author has written in the work tree since."""
    source_id = parsed.id if isinstance(parsed, Source) else default_id(path, sources_dir)
    entry = ws.baseline.manifest.get(source_id)
    local = ws.root / path
    return (
        (isinstance(parsed, Source) and parsed.private)
        or marks_private(data)
        or matches_private(path, source_id, (*ws.config.private, *private_globs(ws.baseline)))
        or (entry is not None and entry.private)
        or (local.is_file() and marks_private(local.read_bytes()))
    )


def _valid(ws: Workspace, path: str, data: bytes) -> Source:
    """The answer's text as `wikigen check` reads it: a valid source that fits one increment (R5)."""
    parsed = parse_source(path, data, ws.store.blob_id(data), ws.config)
    if not isinstance(parsed, Source):
        raise AnswerRefused(f"the answer would be an invalid source; nothing was written: {parsed[0]}")
    too_large = size_problem(parsed, ws.config.caps)
    if too_large is not None:
        raise AnswerRefused(f"the answer is too large to compile; nothing was written: {too_large.message}")
    return parsed


def _write(root: Path, path: str, data: bytes) -> bool:
    """Write a new file; True when written, False when it already holds ``data``. Another text there
    is refused, and so is a folder on the way that is a symbolic link (R41)."""
    full = root / path
    for parent in reversed(full.relative_to(root).parents):
        if parent != Path(".") and (root / parent).is_symlink():
            raise AnswerRefused(f"{parent.as_posix()} is a symbolic link; an answer is written into a real folder only")
    if full.is_symlink() or full.exists():
        if full.is_file() and not full.is_symlink() and full.read_bytes() == data:
            return False
        raise AnswerRefused(
            f"{path} already holds another text (an answer to this question, or one with the same words); "
            "nothing was written. Edit or remove that file, or ask the question in other words"
        )
    full.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(full, "xb") as handle:  # exclusive: a file that appeared meanwhile is never overwritten
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except FileExistsError:
        raise AnswerRefused(f"{path} appeared while the answer was checked; nothing was written") from None
    return True


def answer_from_shell(
    root: Path | str,
    *,
    question: str | None,
    answer: str | None,
    answer_file: str | None,
    cites: Iterable[str],
    from_json: str | None,
    progress: Callable[[str], None] | None = None,
) -> Filed:
    """`wikigen answer`: the answer from flags, a file (``-``: stdin) or one JSON object in the MCP
    tool's shape (``{"question", "answer", "citations"}``), then :func:`file_answer`."""
    cites = list(cites)
    if from_json is not None:
        if question is not None or answer is not None or answer_file is not None or cites:
            raise UsageError("give the answer either as --from-json FILE or with --question, --answer and --cite")
        asked = _json_answer(_read_text(from_json))
        question, answer, citations = asked["question"], asked["answer"], list(asked["citations"])
    else:
        if question is None:
            raise UsageError("give the question the answer answers: --question TEXT")
        if (answer is None) == (answer_file is None):
            raise UsageError("give the answer with --answer TEXT or --answer-file FILE (- reads stdin), one of them")
        if answer is None:
            answer = _read_text(str(answer_file))
        citations = [Cited.from_flag(text, number) for number, text in enumerate(cites, 1)]
    searched: list[PassageOf] = []

    def passage_of(cid: str) -> Passage:
        if not searched:  # the search index is opened only for an answer that cites an id
            from wikigen.search import Searcher

            searched.append(passages_of_search(Searcher(root, progress=progress)))
        return searched[0](cid)

    return file_answer(root, question, answer, citations, passage_of=passage_of)


def _read_text(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {name}: {exc}; give a readable UTF-8 file (or - for stdin)") from None


def _json_answer(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"the JSON of --from-json is not valid: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict):
        raise UsageError('--from-json takes one object: {"question": ..., "answer": ..., "citations": [...]}')
    unknown = sorted(set(data) - {"question", "answer", "citations"})
    missing = sorted({"question", "answer", "citations"} - set(data))
    if unknown or missing:
        raise UsageError(
            "--from-json takes the keys question, answer and citations"
            + (f"; unknown: {', '.join(unknown)}" if unknown else "")
            + (f"; missing: {', '.join(missing)}" if missing else "")
        )
    if not isinstance(data["question"], str) or not isinstance(data["answer"], str):
        raise UsageError("--from-json: question and answer are strings")
    if not isinstance(data["citations"], list):
        raise UsageError("--from-json: citations is a list of {source, quote} or {citation_id} objects")
    return data
