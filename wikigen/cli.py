"""Command line: parse → one library call → print. No logic lives here."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from wikigen import __version__
from wikigen.model.errors import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    WikigenError,
    environmental,
    exit_code_for,
)
from wikigen.model.terminal import visible, visible_json

if TYPE_CHECKING:
    from wikigen.compiler.plan import Plan


def _echo(text: str, *, err: bool = False, lines: bool = False) -> None:
    """Every human-readable line goes through here: R41, text from sources (paths, ids, titles,
    excerpts) never reaches the terminal as control characters or escape sequences."""
    click.echo(visible(text, lines=lines), err=err)


def _print_json(data: Any) -> None:
    click.echo(visible_json(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)))


def plan_json(plan: Plan) -> dict[str, Any]:
    """The `plan --json` contract (snake_case); later stages add their figures."""
    return {
        "baseline_version": plan.baseline_version,
        "baseline_tree": plan.baseline_tree,
        "sources_tree": plan.sources_tree,
        "added": list(plan.added),
        "updated": list(plan.updated),
        "withdrawn": list(plan.withdrawn),
        "deferred": list(plan.deferred),
        "pending": list(plan.pending),
        "unchanged": plan.unchanged,
        "invalid": [p.as_dict() for p in plan.invalid],
        "bookkeeping": [{"source": s, "reason": r} for s, r in plan.bookkeeping],
        "reasons": dict(sorted(plan.reasons.items())),
        "fingerprint": plan.fingerprint,
        "blobs_read": plan.blobs_read,
        "backfill": plan.backfill,
    }


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
    help="What the workflow installs with pip, e.g. 'wikigen @ git+https://github.com/OWNER/wikigen@COMMIT'. "
    "Default: how this copy was installed; needed when that was a local folder or file.",
)
def init(directory: str, install_spec: str | None) -> None:
    """Lay out a knowledge repo: wikigen.yml, the source folders, examples. Never overwrites a file."""
    from wikigen.commands.init import init_repo

    written = init_repo(Path(directory), install_spec=install_spec)
    for path in written:
        _echo(f"created {path}")
    if not written:
        _echo("nothing to do: every file is already there")
    # Issue 11, item 3: the first import is a large change; --batch splits it to fit the caps.
    where = "" if directory == "." else f"cd {shlex.quote(directory)} && "
    _echo(
        "\nNext:\n"
        f"  {where}git config core.hooksPath hooks   # check sources before each commit\n"
        "  git add -A && git commit -m 'Adopt wikigen'\n"
        "  wikigen compile --batch               # the first import, in increments that fit the caps\n"
        "  wikigen build                         # the static site in site/\n"
        "  wikigen serve                         # look at it on http://127.0.0.1:8000",
        lines=True,
    )


@cli.command()
@click.option("--staged", is_flag=True, help="Check the index (what the next commit records).")
@click.argument("files", nargs=-1, type=click.Path())
@click.pass_context
def check(ctx: click.Context, staged: bool, files: tuple[str, ...]) -> None:
    """Parse and validate sources; one `path:line: message` per problem. No model, no network."""
    from wikigen.commands.check import check_sources

    # The work tree alone needs no history (a shallow clone is fine); the index is planned against it.
    # Names are relative to the folder of -C, as everything else is.
    named = [str(Path(ctx.obj["dir"], name)) for name in files]
    problems = check_sources(_workspace(ctx, history=staged), staged=staged, files=named)
    for problem in problems:
        _echo(str(problem))
    if problems:
        _echo(f"{len(problems)} problem(s) in sources", err=True)
        ctx.exit(EXIT_FAILURE)


@cli.command()
@click.option("--staged", is_flag=True, help="Plan from the index instead of HEAD.")
@click.option("--include-deferred", is_flag=True, help="Also compile deferred and baseline-recorded sources.")
@click.option("--engine", "engine_name", type=click.Choice(["offline", "http"]), help="Show the route of this engine.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def plan(ctx: click.Context, staged: bool, include_deferred: bool, engine_name: str | None, as_json: bool) -> None:
    """Print what a compile would do, without calling a model."""
    from wikigen.compiler.plan import nothing_to_compile
    from wikigen.engines.route import route_of

    overrides: dict[str, Any] = {"engine.name": engine_name}
    ws = _workspace(ctx, **overrides)
    result = ws.plan(staged=staged, include_deferred=include_deferred)
    data = plan_json(result)
    if not result.invalid:
        # Issue 14: a plan with nothing to compile never loads the compile driver (a third of its time).
        if result.needs_compile:
            from wikigen.compiler.increments import plan_figures

            data |= plan_figures(ws, result)
        else:
            data |= nothing_to_compile()
    data["route"] = route_of(ws.config)
    if as_json:
        _print_json(data)
    else:
        _print_plan(data)
    if result.invalid:
        ctx.exit(EXIT_FAILURE)


def _print_plan(data: dict[str, Any]) -> None:
    _echo(f"baseline: snapshot {data['baseline_version']}, sources tree {data['sources_tree'][:12]}")
    for key in ("added", "updated", "withdrawn", "deferred", "pending"):
        ids = data[key]
        if ids:
            _echo(f"{key} ({len(ids)}):")
            for sid in ids:
                _echo(f"  {sid}  — {data['reasons'].get(sid, '')}")
    _echo(f"unchanged: {data['unchanged']}")
    for item in data["bookkeeping"]:
        _echo(f"bookkeeping: {item['source']}: {item['reason']}")
    for problem in data["invalid"]:
        _echo(f"{problem['path']}:{problem['line']}: {problem['message']}")
    _echo(f"blobs read: {data['blobs_read']}")
    if "engine_calls" in data:
        revoked = ", ".join(f"{v} {k}(s)" for k, v in data["revoked"].items() if v) or "nothing"
        _echo(f"revoked: {revoked}; fragments: {data['fragments']}; anchors: {data['anchors']}")
        for name, (used, limit) in data["caps"].items():
            flag = "  OVER — a plain compile will fail; run `wikigen compile --batch`" if used > limit else ""
            _echo(f"  caps.{name}: {used:,} / {limit:,}{flag}")
        _echo(f"engine calls the next compile would make: {data['engine_calls']}")
    route = data["route"]
    fallback = "embedded model" if route["engine"] == "offline" else "no model set: engine.models or WIKIGEN_MODEL"
    models = ", ".join(f"{k}: {v}" for k, v in route["models"].items()) or fallback
    host = f" at {route['host']}" if route.get("host") else ""
    _echo(f"route: {route['engine']}{host} ({models})")


@cli.command()
@click.pass_context
def hook(ctx: click.Context) -> None:
    """The pre-commit checkpoint: `check --staged`, then one summary line of `plan --staged`. No model."""
    from wikigen.commands.check import check_sources
    from wikigen.compiler.increments import plan_figures

    ws = _workspace(ctx)
    problems = check_sources(ws, staged=True)
    for problem in problems:
        _echo(str(problem))
    if problems:
        _echo(f"wikigen: {len(problems)} problem(s) in staged sources; commit refused", err=True)
        ctx.exit(EXIT_FAILURE)
    result = ws.plan(staged=True)
    figures = plan_figures(ws, result)
    over = (
        f"; over caps: {', '.join(figures['over_caps'])} (compile it with `wikigen compile --batch`)"
        if figures["over_caps"]
        else ""
    )
    _echo(
        f"wikigen: {len(result.added) + len(result.updated) + len(result.withdrawn)} source(s) changed "
        f"({len(result.added)} added, {len(result.updated)} updated, {len(result.withdrawn)} withdrawn); "
        f"the next compile makes {figures['engine_calls']} engine call(s){over}"
    )


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """Snapshot version, sources per category, pending changes and deferred sources."""
    from wikigen.commands.status import status_report

    report = status_report(_workspace(ctx))
    if as_json:
        _print_json(report)
        return
    _echo(f"snapshot version {report['snapshot_version']} ({report['objects']} objects)")
    for category, count in report["sources_per_category"].items():
        switch = report["auto_archive"].get(category)
        note = "" if switch is None else f"  auto_archive: {'on' if switch else 'off'}"
        _echo(f"  {category:<15} {count:>6}{note}")
    for key, ids in report["pending_changes"].items():
        if ids:
            _echo(f"{key}: {', '.join(ids)}")
    if report["deferred"]:
        _echo(f"deferred: {', '.join(report['deferred'])}")
    for sid, info in report["waiting"].items():
        _echo(f"waiting: {sid} ({info['reason']})")
    for problem in report["invalid"]:
        _echo(f"{problem['path']}:{problem['line']}: {problem['message']}")
    from wikigen.store.uncommitted import uncommitted_note

    note = uncommitted_note(report["uncommitted"])
    if note:
        _echo(note, lines=True)


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

    # Started before the compiler is loaded: the index is read while it loads and plans (issue 14);
    # the compile refuses local changes to generated files before it sends or writes anything.
    dirty_status = start_staged_paths(ctx.obj["dir"])
    from wikigen.compiler.driver import compile_repo

    with _progress(enabled=not quiet, bar=not as_json) as progress:
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
        _print_json(data)
        return
    _echo(data["message"], lines=True)
    for warning in data["warnings"]:
        _echo(f"wikigen: warning: {warning}", err=True, lines=True)
    if data["published"] and not data["bookkeeping"]:
        _echo(
            f"snapshot {data['version']} ({data['commit'][:12]}): {len(data['added'])} added, "
            f"{len(data['updated'])} updated, {len(data['withdrawn'])} withdrawn; "
            f"{data['engine_calls']} engine call(s), {data['sent_bytes']['total']:,} bytes sent"
        )


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

    with _progress(enabled=not quiet, bar=not as_json) as progress:  # CI logs see every increment
        report = push(
            ctx.obj["dir"], remote=remote, attempts=attempts,
            compile_options={
                "overrides": {"engine.name": engine_name}, "retry": retry, "batch": True, "progress": progress,
            },
        )
    data = report.as_json()
    for compiled in report.reports:
        for warning in compiled.warnings:  # issue 15.3: published, but something after it failed
            _echo(f"wikigen: warning: {warning}", err=True, lines=True)
    if as_json:
        _print_json(data)
    else:
        state = "pushed" if data["pushed"] else "nothing to push"
        _echo(f"{state} after {data['attempts']} attempt(s); snapshot {data['version']}")


def _mkdocs(ctx: click.Context, verb: str, args: list[str]) -> None:
    import subprocess

    from wikigen.store.git import GitStore

    store = GitStore(ctx.obj["dir"])
    root = store.root
    env = {**store.environment, "NO_MKDOCS_2_WARNING": "1"}  # R42: the plugin opens the same repository
    result = subprocess.run([sys.executable, "-m", "mkdocs", verb, "-f", str(root / "mkdocs.yml"), *args], env=env)
    ctx.exit(result.returncode)


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


class _progress:
    """Progress of a compile on stderr: a rich bar in a terminal (not with --json), else one line per
    increment, so that CI logs and redirected output show a long compile moving (issue 11, item 4)."""

    def __init__(self, enabled: bool, bar: bool = True) -> None:
        self.enabled = enabled
        self.terminal = sys.stderr.isatty()
        self.with_bar = bar
        self.bar: Any = None
        self.task: Any = None
        self.started = time.monotonic()
        self.calls = 0
        self.sent = 0

    def __enter__(self) -> Callable[[int, int, str, Any], None] | None:
        if not self.enabled or (self.terminal and not self.with_bar):
            return None
        if not self.terminal:
            return self.line
        from rich.progress import Progress

        self.bar = Progress(transient=True)
        self.bar.start()
        self.task = self.bar.add_task("compiling", total=None)

        def update(done: int, total: int, what: str, increment: Any) -> None:
            self.bar.update(self.task, completed=done, total=total, description=what)

        return update

    def line(self, done: int, total: int, what: str, increment: Any) -> None:
        if increment is None:
            if done == 0 and self.calls == 0 and what != "done":
                _echo(f"wikigen: compiling {total} changed source(s)…", err=True)
            return
        self.calls += increment.engine_calls
        self.sent += increment.sent_bytes["total"]
        elapsed = int(time.monotonic() - self.started)
        left = total - done
        _echo(
            f"wikigen: snapshot {increment.version}: {len(increment.sources)} source(s) compiled"
            + (f", {len(increment.withdrawn)} withdrawn" if increment.withdrawn else "")
            + f"; {increment.engine_calls} engine call(s), {increment.sent_bytes['total']:,} bytes sent "
            f"({self.calls} call(s), {self.sent:,} bytes in this run); {elapsed // 60}m{elapsed % 60:02d}s elapsed; "
            + (f"{left} source(s) left" if left else "nothing left"),
            err=True,
        )

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def verify(ctx: click.Context, as_json: bool) -> None:
    """Re-check every citation of the snapshot against the cited version's body, read from git."""
    from wikigen.commands.verify import verify_snapshot

    result = verify_snapshot(_workspace(ctx))
    if as_json:
        _print_json({**result, "ok": not result["problems"]})
    else:
        for problem in result["problems"]:
            _echo(problem)
        _echo(
            f"{result['citations']} citation(s) in {result['objects']} object(s): "
            f"{'ok' if not result['problems'] else str(len(result['problems'])) + ' problem(s)'}"
        )
    if result["problems"]:
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

    searcher = Searcher(ctx.obj["dir"], progress=lambda s: _echo(f"wikigen: {s}", err=True))
    result = searcher.search(" ".join(query), k=k, budget=budget, at=at)
    if as_json:
        _print_json(result)
        return
    _echo(f"snapshot {result['snapshot']['version']}: {len(result['evidence'])} passage(s)")
    for number, item in enumerate(result["evidence"], 1):
        lines = item["lines"]
        _echo("")
        _echo(
            f"{number}. {item['title']} — {item['source']} @ {item['version']}, lines {lines['start']}–{lines['end']} "
            f"[{item['citation_id']}] score {item['score']}"
        )
        _echo("   " + " ".join(item["excerpt"].split())[:400])
    if result["objects"]:
        _echo("")
        _echo("supported: " + ", ".join(o["id"] for o in result["objects"][:10]))
    budget_report = result["budget"]
    if budget_report and budget_report["dropped"]:
        _echo("")
        _echo(
            f"budget: {budget_report['used']}/{budget_report['tokens']} tokens; {budget_report['dropped']} passage(s) "
            f"({budget_report['dropped_tokens']} tokens) dropped, cited by source only"
        )


@cli.command()
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Serve the committed snapshot to agents over MCP (stdio): search, get, neighbors, excerpt, verify."""
    from wikigen.commands.mcp import serve

    serve(ctx.obj["dir"])


def main(argv: list[str] | None = None) -> int:
    """Entry point: the one place where errors become exit codes and messages."""
    code = run(cli, argv)
    if argv is None:  # the program itself: a Ctrl-C during interpreter shutdown would print a traceback
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return code


def interrupted() -> int:
    """Ctrl-C outside the compile's own handling (start-up, printing): say how to find out what happened."""
    _echo(
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
        _echo("aborted", err=True)
        return EXIT_FAILURE
    except WikigenError as exc:
        _echo(f"wikigen: {exc.message}", err=True, lines=True)
        return exit_code_for(exc)
    except KeyboardInterrupt:
        return interrupted()
    except Exception as exc:  # the last line of defence: no traceback unless asked for
        if os.environ.get("WIKIGEN_DEBUG"):
            traceback.print_exc()
        machine = environmental("running", exc)  # a full disk or a read-only repo is no bug (issue 15.7)
        if machine is not None:
            _echo(f"wikigen: {machine.message}", err=True, lines=True)
            return exit_code_for(machine)
        _echo(
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
