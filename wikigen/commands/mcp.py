"""`wikigen mcp` (E6): the committed snapshot served to agents over MCP's stdio transport.

Built on the official ``mcp`` SDK (2.x: ``MCPServer``, formerly FastMCP). Five read-only tools —
``search``, ``get``, ``neighbors``, ``excerpt``, ``verify`` — each one call into ``wikigen.search``,
and ``file_answer``, which writes an answer back as a new source (:mod:`wikigen.commands.answer`).
The server never compiles, commits or calls an engine; the only files it writes are the search index
under ``.git/`` and the answers' sources. A failure is a tool error carrying wikigen's actionable
message (the client sees ``isError`` and the text), never a traceback; stdout carries only the protocol.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from wikigen import __version__
from wikigen.commands import answer as answering
from wikigen.model.answers import MIN_QUOTE_CHARS
from wikigen.model.errors import WikigenError
from wikigen.search import DEFAULT_K, Searcher, records

T = TypeVar("T")
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# file_answer writes a new file and never overwrites one; the same call again writes nothing more.
WRITES_NEW_FILE = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
INSTRUCTIONS = (
    "A wikigen knowledge base: Markdown sources compiled into articles, concepts, relations and topics, "
    "every claim citing a verbatim span of a source version. Answer from `search` evidence and cite its "
    "citation_id; `verify` re-checks a citation against git; `get` and `neighbors` read compiled objects. "
    "`file_answer` files a good answer back as a new source (unverified, uncommitted, for a person to "
    "review and commit); it is written only when every quote it cites is verbatim in the committed "
    "source, and private sources cannot be cited."
)


class AnswerCitation(BaseModel):
    """One quote an answer rests on: `source` and `quote`, or a `citation_id` from `search`."""

    source: str | None = Field(
        default=None, description="The cited source's id (e.g. knowledge/pods) or its path under the sources folder."
    )
    quote: str | None = Field(
        default=None,
        description=f"Text copied verbatim from the source as committed (at least {MIN_QUOTE_CHARS} characters). With a "
        "citation_id: optional, and then inside the passage it names (default: the whole passage).",
    )
    citation_id: str | None = Field(default=None, description="A citation_id from `search` instead of `source`.")


def _answer(call: Callable[[], T]) -> T:
    """wikigen's errors become tool errors with their message; anything else a short internal error."""
    try:
        return call()
    except WikigenError as exc:
        raise ToolError(exc.message) from None
    except Exception as exc:  # the server keeps serving; the client gets a message, not a traceback
        raise ToolError(f"internal error: {type(exc).__name__}: {exc}; nothing was changed") from None


def make_server(root: Path | str = ".") -> MCPServer:
    """An MCP server over the repo at ``root`` (not started)."""
    searcher = Searcher(root, progress=lambda line: print(line, file=sys.stderr))
    server = MCPServer(
        name="wikigen",
        title="wikigen knowledge base",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )

    @server.tool(annotations=READ_ONLY)
    def search(query: str, k: int = DEFAULT_K, budget: int | None = None, at: str | None = None) -> dict[str, Any]:
        """Rank the passages of the committed snapshot's sources for a question. Returns evidence[] (title,
        source, version, excerpt, citation_id, source_span, lines, score), citations[] and objects[]
        (the articles, concepts and topics those passages support). `budget` caps the excerpts' tokens;
        what it drops is counted and left as source-level citations. `at`: a snapshot version or a commit."""
        return _answer(lambda: searcher.search(query, k=k, budget=budget, at=at))

    @server.tool(annotations=READ_ONLY)
    def get(id: str, at: str | None = None) -> dict[str, Any]:
        """An article, concept or topic by id (e.g. `concept/pod`) or by its name, title or alias, with
        every structured field and its citations."""
        return _answer(lambda: records.get_object(searcher, id, at=at))

    @server.tool(annotations=READ_ONLY)
    def neighbors(concept: str, at: str | None = None) -> dict[str, Any]:
        """A concept's relations (both directions): predicate, the other concept, basis, uncertainty and
        the evidence citations of each."""
        return _answer(lambda: records.neighbors(searcher, concept, at=at))

    @server.tool(annotations=READ_ONLY)
    def excerpt(source: str, start: int, end: int, version: str | None = None, at: str | None = None) -> dict[str, Any]:
        """The text of a source between two character offsets of its body (`body[start:end]`), at a
        version (default: the compiled one), read from git, with its citation_id and lines."""
        return _answer(lambda: records.excerpt(searcher, source, start, end, version=version, at=at))

    @server.tool(annotations=READ_ONLY)
    def verify(citation_id: str, at: str | None = None) -> dict[str, Any]:
        """Re-check one citation id against the body of the cited version read from git, as
        `wikigen verify` does: ok is true when the quote is exactly at its span and the id matches."""
        return _answer(lambda: records.verify_citation(searcher, citation_id, at=at))

    @server.tool(annotations=WRITES_NEW_FILE)
    def file_answer(question: str, answer: str, citations: list[AnswerCitation]) -> dict[str, Any]:
        """File an answer back into the knowledge base as a new source (under knowledge/answers/ of the
        sources folder, named after the question; frontmatter `question`, `origin: agent`, `verification:
        unverified`). Each citation is checked against the committed version of its source first: with
        any quote not found verbatim, or a private or rejected source cited, nothing is written and the
        error lists each refused citation. Never commits; the same call again writes nothing more, and a
        different answer to the same question is refused, not overwritten. Returns path, id, written and
        the checked citations (citation_id, version, source_span, lines, quote)."""
        cited = [c.model_dump(exclude_none=True) for c in citations]
        passage_of = answering.passages_of_search(searcher)
        return _answer(lambda: answering.file_answer(root, question, answer, cited, passage_of=passage_of).as_json())

    return server


def serve(root: Path | str = ".") -> None:
    """Run the server on stdin/stdout until the client closes the connection."""
    make_server(root).run("stdio")
