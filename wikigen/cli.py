"""The command line: click's wiring of each command to its body in :mod:`wikigen.commands` and its
printer (:mod:`wikigen.commands.printers`), and the one place where errors become exit codes and
messages (:func:`run`)."""

from __future__ import annotations

import os
import signal
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from wikigen import __version__
from wikigen.commands.printers import (
    echo,
    print_answer,
    print_compile,
    print_hook,
    print_init,
    print_json,
    print_plan,
    print_push,
    print_search,
    print_status,
    print_verify,
    print_warnings,
)
from wikigen.commands.progress import CompileProgress
from wikigen.model.errors import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    WikigenError,
    environmental,
    exit_code_for,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="wikigen", message="%(prog)s %(version)s")
@click.option(
    "-C", "directory", default=".", type=click.Path(file_okay=False), help="Run as if started in this folder."
)
@click.pass_context
def cli(ctx: click.Context, directory: str) -> None:
    """wikigen: compile a git repo of Markdown sources into a cited wiki, incrementally."""
    ctx.obj = {"dir": directory}


def _workspace(ctx: click.Context, *, history: bool = True, **overrides: Any) -> Any:
    from wikigen.store.workspace import Workspace

    return Workspace.open(ctx.obj["dir"], overrides=overrides, history=history)


@cli.command()
@click.argument("directory", default=".", type=click.Path(file_okay=False))
@click.option(
    "--install-spec",
    metavar="SPEC",
    help="What the workflow installs with pip, e.g. 'wikigen-compiler @ git+https://github.com/OWNER/wikigen@COMMIT'. "
    "Default: how this copy was installed, or wikigen-compiler==VERSION from PyPI when that was a local folder or file.",
)
@click.option(
    "--sources",
    metavar="FOLDER",
    help="Compile the Markdown where it is, e.g. docs: sets paths.sources in wikigen.yml. Default: content/sources.",
)
def init(directory: str, install_spec: str | None, sources: str | None) -> None:
    """Lay out a knowledge repo: wikigen.yml, the source folders, examples. Never overwrites a file."""
    from wikigen.commands.init import hook_python, init_repo

    notes: list[str] = []
    written = init_repo(Path(directory), install_spec=install_spec, note=notes.append, sources=sources)
    print_init(written, directory, hook_python(), notes)


@cli.command()
@click.option("--staged", is_flag=True, help="Check the index (what the next commit records).")
@click.argument("files", nargs=-1, type=click.Path())
@click.pass_context
def check(ctx: click.Context, staged: bool, files: tuple[str, ...]) -> None:
    """Parse and validate sources; one `path:line: message` per problem. No model, no network."""
    from wikigen.commands.check import check_sources, unread_sentence

    # The work tree alone needs no history (a shallow clone is fine); the index is planned against it.
    # Names are relative to the folder of -C, as everything else is.
    named = [str(Path(ctx.obj["dir"], name)) for name in files]
    ws = _workspace(ctx, history=staged)
    problems = check_sources(ws, staged=staged, files=named)
    for problem in problems:
        echo(str(problem))
    note = "" if files else unread_sentence(ws, staged=staged)
    if note:
        echo(f"wikigen: {note}", err=True, lines=True)
    if problems:
        echo(f"{len(problems)} problem(s) in sources", err=True)
        ctx.exit(EXIT_FAILURE)


@cli.command()
@click.option("--staged", is_flag=True, help="Plan from the index instead of HEAD.")
@click.option("--include-deferred", is_flag=True, help="Also compile deferred and baseline-recorded sources.")
@click.option("--engine", "engine_name", type=click.Choice(["offline", "http"]), help="Show the route of this engine.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def plan(ctx: click.Context, staged: bool, include_deferred: bool, engine_name: str | None, as_json: bool) -> None:
    """Print what a compile would do, without calling a model."""
    from wikigen.commands.plan import plan_report

    overrides: dict[str, Any] = {"engine.name": engine_name}
    ws = _workspace(ctx, **overrides)
    result, data = plan_report(ws, staged=staged, include_deferred=include_deferred)
    if as_json:
        print_json(data)
    else:
        print_plan(data)
    if result.invalid:
        ctx.exit(EXIT_FAILURE)


@cli.command()
@click.pass_context
def hook(ctx: click.Context) -> None:
    """The pre-commit checkpoint: `check --staged`, then one summary line of `plan --staged`. No model."""
    from wikigen.commands.check import check_sources
    from wikigen.compiler.increments import plan_figures

    ws = _workspace(ctx)
    problems = check_sources(ws, staged=True)
    for problem in problems:
        echo(str(problem))
    if problems:
        echo(f"wikigen: {len(problems)} problem(s) in staged sources; commit refused", err=True)
        ctx.exit(EXIT_FAILURE)
    result = ws.plan(staged=True)
    figures = plan_figures(ws, result)
    print_hook(result, figures)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """Snapshot version, sources per category, pending changes and deferred sources."""
    from wikigen.commands.status import status_report

    report = status_report(_workspace(ctx))
    if as_json:
        print_json(report)
        return
    print_status(report)


@cli.command(name="compile")
@click.option("--engine", "engine_name", type=click.Choice(["offline", "http"]), help="Engine for this run.")
@click.option(
    "--batch", is_flag=True, help="Split a large change (a first import) into increments that each fit the caps."
)
@click.option("--retry", is_flag=True, help="Try again the same compile that failed before (same sources, settings and options).")
@click.option("--include-deferred", is_flag=True, help="Also compile deferred and baseline-recorded sources.")
@click.option(
    "--allow-mass-withdrawal",
    is_flag=True,
    help="Withdraw more than half of the sources (and over 10) at once, e.g. after renaming the sources folder.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr (a bar in a terminal, else a line per increment).")
@click.pass_context
def compile_command(
    ctx: click.Context,
    engine_name: str | None,
    batch: bool,
    retry: bool,
    include_deferred: bool,
    allow_mass_withdrawal: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Compile the committed sources into a new snapshot and commit it (as `wikigen`)."""
    from wikigen.store.git_cli import start_staged_paths

    # Started before the compiler is loaded: the index is read while it loads and plans;
    # the compile refuses local changes to generated files before it sends or writes anything.
    dirty_status = start_staged_paths(ctx.obj["dir"])
    from wikigen.compiler.driver import compile_repo

    with CompileProgress(enabled=not quiet, bar=not as_json) as progress:
        report = compile_repo(
            ctx.obj["dir"],
            dirty_status=dirty_status,
            overrides={"engine.name": engine_name},
            batch=batch,
            retry=retry,
            include_deferred=include_deferred,
            progress=progress,
            allow_mass_withdrawal=allow_mass_withdrawal,
        )
    data = report.as_json()
    if as_json:
        print_json(data)
    else:
        print_compile(data)
    if report.published:
        from wikigen.commands.search_index import refresh_search

        refresh_search(ctx.obj["dir"], quiet=quiet or as_json)  # E6: where the repo has an index


@cli.command(name="push")
@click.option("--remote", default="origin", show_default=True, help="The remote to push to.")
@click.option("--attempts", default=3, show_default=True, type=click.IntRange(1, 10), help="Bounded re-compiles.")
@click.option("--engine", "engine_name", type=click.Choice(["offline", "http"]), help="Engine for this run.")
@click.option("--retry", is_flag=True, help="Try again the same compile that failed before (same sources, settings and options).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr (a bar in a terminal, else a line per increment).")
@click.pass_context
def push_command(
    ctx: click.Context, remote: str, attempts: int, engine_name: str | None, retry: bool, as_json: bool,
    quiet: bool,
) -> None:
    """Compile, then push the compiler's commit and refs/notes/wikigen (CI's checkpoint). Never forces."""
    from wikigen.commands.push import push

    with CompileProgress(enabled=not quiet, bar=not as_json) as progress:  # CI logs see every increment
        report = push(
            ctx.obj["dir"], remote=remote, attempts=attempts,
            compile_options={
                "overrides": {"engine.name": engine_name}, "retry": retry, "batch": True, "progress": progress,
            },
        )
    data = report.as_json()
    for compiled in report.reports:
        print_warnings(compiled.warnings)  # published, but something after it failed
    if as_json:
        print_json(data)
    else:
        print_push(data)


def _mkdocs(ctx: click.Context, verb: str, args: list[str]) -> None:
    from wikigen.commands.site import run_mkdocs

    ctx.exit(run_mkdocs(ctx.obj["dir"], verb, args))


@cli.command()
@click.option("--strict", is_flag=True, help="Fail on warnings (as CI does).")
@click.pass_context
def build(ctx: click.Context, strict: bool) -> None:
    """Build the site (mkdocs build) from the committed snapshot. Calls no model, makes no snapshot."""
    _mkdocs(ctx, "build", ["--strict"] if strict else [])


@cli.command()
@click.option("-a", "--dev-addr", default="127.0.0.1:8000", show_default=True, help="Address to serve on.")
@click.pass_context
def serve(ctx: click.Context, dev_addr: str) -> None:
    """Serve the site locally with live reload (mkdocs serve)."""
    _mkdocs(ctx, "serve", ["-a", dev_addr])


@cli.command()
@click.argument("citation_ids", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def verify(ctx: click.Context, citation_ids: tuple[str, ...], as_json: bool) -> None:
    """Re-check the snapshot's citations (all, or those with the ids given) against the cited version's
    body, read from git."""
    from wikigen.commands.verify import verify_snapshot

    result = verify_snapshot(_workspace(ctx), citation_ids)
    ok = not result["problems"] and all(c["ok"] for c in result.get("citation_ids", {}).values())
    if as_json:
        print_json({**result, "ok": ok})
    else:
        print_verify(result)
    if not ok:
        ctx.exit(EXIT_FAILURE)


@cli.command(name="lint")
@click.option("--min-sources", default=3, show_default=True, type=click.IntRange(1), help="Sources that must use a term before its missing concept is a finding.")
@click.option("--stale-days", default=30, show_default=True, type=click.IntRange(0), help="Days a deferred or waiting source may wait before it is stale.")
@click.option("--as-of", type=click.DateTime(), help="Measure ages up to this time (UTC), e.g. 2025-06-01; default: HEAD's commit time.")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info", "never"]), default="error", show_default=True, help="Exit 1 when a finding of this severity or above is present.")
@click.option("--all", "everything", is_flag=True, help="List the orphan and no-concept hints too, and let them count for --fail-on.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (every finding).")
@click.pass_context
def lint_command(
    ctx: click.Context, min_sources: int, stale_days: int, as_of: Any, fail_on: str, everything: bool, as_json: bool
) -> None:
    """Findings on the snapshot and the sources, each with the file to change and what to do. No model."""
    from wikigen.commands.lint import fails, lint_report, print_lint
    from wikigen.lint import LintSettings

    settings = LintSettings(min_sources=min_sources, stale_days=stale_days)
    report, data = lint_report(ctx.obj["dir"], settings=settings, as_of=as_of, everything=everything)
    if as_json:
        print_json(data)
    else:
        print_lint(data)
    if fails(report, fail_on, everything=everything):
        ctx.exit(EXIT_FAILURE)


@cli.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--k", "k", default=5, show_default=True, type=click.IntRange(1, 100), help="How many passages.")
@click.option("--budget", type=click.IntRange(0), help="Most tokens of excerpts (the ranking model's tokenizer); passages past it are counted and cited by source only.")
@click.option("--at", "at", help="A snapshot version (e.g. 3) or a git revision; default: the snapshot at HEAD.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (evidence and citations).")
@click.pass_context
def search(
    ctx: click.Context, query: tuple[str, ...], k: int, budget: int | None, at: str | None, as_json: bool
) -> None:
    """Rank the committed snapshot's passages for a question: evidence with verifiable citations."""
    from wikigen.search import Searcher

    searcher = Searcher(ctx.obj["dir"], progress=lambda s: echo(f"wikigen: {s}", err=True))
    result = searcher.search(" ".join(query), k=k, budget=budget, at=at)
    if as_json:
        print_json(result)
        return
    print_search(result)


@cli.command()
@click.option("--question", help="The question the answer answers (it names the file).")
@click.option("--answer", "answer_text", help="The answer's text (Markdown).")
@click.option("--answer-file", type=click.Path(allow_dash=True), help="Read the answer from a file (- for stdin).")
@click.option("--cite", "cites", multiple=True, metavar="SOURCE:QUOTE", help="A source (id or path) and a quote copied verbatim from it, or a citation id from `search`. Repeatable.")
@click.option("--from-json", type=click.Path(allow_dash=True), metavar="FILE", help='One JSON object {"question", "answer", "citations"} (the MCP tool\'s arguments); - for stdin.')
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def answer(
    ctx: click.Context, question: str | None, answer_text: str | None, answer_file: str | None,
    cites: tuple[str, ...], from_json: str | None, as_json: bool,
) -> None:
    """File an answer back as a new source, only when every quote is verbatim in the committed source.
    Never commits."""
    from wikigen.commands.answer import answer_from_shell
    from wikigen.model.errors import AnswerRefused

    try:
        filed = answer_from_shell(
            ctx.obj["dir"], question=question, answer=answer_text, answer_file=answer_file, cites=cites,
            from_json=from_json, progress=lambda s: echo(f"wikigen: {s}", err=True),
        )
    except AnswerRefused as exc:
        if not as_json:
            raise
        print_json({"written": False, "failed": list(exc.failed), "message": exc.message})
        ctx.exit(EXIT_FAILURE)
    if as_json:
        print_json(filed.as_json())
    else:
        print_answer(filed.as_json())


@cli.command()
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Serve the committed snapshot to agents over MCP (stdio): search, get, neighbors, excerpt, verify,
    file_answer."""
    from wikigen.commands.mcp import serve

    serve(ctx.obj["dir"])


@cli.group()
def export() -> None:
    """Write the committed snapshot in another format, readable without wikigen."""


@export.command(name="okf")
@click.argument("dest", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def export_okf_command(ctx: click.Context, dest: str, as_json: bool) -> None:
    """An Open Knowledge Format v0.2 bundle in DEST (a folder, or a zip file when DEST ends in .zip)."""
    from wikigen.commands.export import export_okf

    data = export_okf(ctx.obj["dir"], dest)
    if as_json:
        print_json(data)
        return
    counts = ", ".join(f"{kind}s: {n}" for kind, n in data["documents"].items())
    echo(f"exported snapshot {data['snapshot']} as OKF {data['okf_version']} to {dest}: {counts}")
    echo(f"{data['verified']} of {sum(data['documents'].values())} documents verified against their git blobs")


def main(argv: list[str] | None = None) -> int:
    """Entry point: the one place where errors become exit codes and messages."""
    code = run(cli, argv)
    if argv is None:  # the program itself: a Ctrl-C during interpreter shutdown would print a traceback
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return code


def interrupted() -> int:
    """Ctrl-C outside the compile's own handling (start-up, printing): say how to find out what happened."""
    echo(
        "wikigen: interrupted (Ctrl-C). `wikigen status` shows whether anything was published; "
        "compile again to continue.",
        err=True,
    )
    return EXIT_INTERRUPTED


def run(command: Callable[..., Any], argv: list[str] | None) -> int:
    try:
        result = command.main(args=argv, prog_name="wikigen", standalone_mode=False)  # type: ignore[attr-defined]
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.UsageError as exc:
        exc.show()
        return EXIT_USAGE
    except click.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):  # click turns Ctrl-C into Abort
            return interrupted()
        echo("aborted", err=True)
        return EXIT_FAILURE
    except WikigenError as exc:
        echo(f"wikigen: {exc.message}", err=True, lines=True)
        return exit_code_for(exc)
    except KeyboardInterrupt:
        return interrupted()
    except Exception as exc:  # the last line of defence: no traceback unless asked for
        if os.environ.get("WIKIGEN_DEBUG"):
            traceback.print_exc()
        machine = environmental("running", exc)  # a full disk or a read-only repo is no bug
        if machine is not None:
            echo(f"wikigen: {machine.message}", err=True, lines=True)
            return exit_code_for(machine)
        echo(
            f"wikigen: internal error: {type(exc).__name__}: {exc}\n"
            "Nothing was published. Re-run with WIKIGEN_DEBUG=1 for a traceback and report it.",
            err=True,
            lines=True,
        )
        return EXIT_FAILURE
    # standalone_mode=False hands back ctx.exit()'s code as the return value.
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
