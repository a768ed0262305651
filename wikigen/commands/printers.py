"""What the commands print for a person: every line made safe for the terminal (R41), and each
command's report as lines. ``--json`` prints the same report as one JSON object."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import click

from wikigen.model.terminal import visible, visible_json

if TYPE_CHECKING:
    from wikigen.compiler.plan import Plan


def echo(text: str, *, err: bool = False, lines: bool = False) -> None:
    """Every human-readable line goes through here: R41, text from sources (paths, ids, titles,
    excerpts) never reaches the terminal as control characters or escape sequences."""
    click.echo(visible(text, lines=lines), err=err)


def print_json(data: Any) -> None:
    click.echo(visible_json(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)))


def print_warnings(warnings: Iterable[str]) -> None:
    for warning in warnings:
        echo(f"wikigen: warning: {warning}", err=True, lines=True)


def print_init(written: list[str], directory: str, hook_python: str, notes: Sequence[str] = ()) -> None:
    for path in written:
        echo(f"created {path}")
    for note in notes:
        echo(note)
    if "hooks/pre-commit" in written:
        echo(
            f"hooks/pre-commit runs wikigen with {visible(shlex.quote(hook_python))}; to change that, delete "
            "it and run `wikigen init` again from another Python, or use the pre-commit framework's hook "
            "wikigen-check (.pre-commit-hooks.yaml)"
        )
    if not written and not notes:
        echo("nothing to do: every file is already there")
    # R16: the first import is a large change; --batch splits it to fit the caps.
    where = "" if directory == "." else f"cd {shlex.quote(directory)} && "
    echo(
        "\nNext:\n"
        f"  {where}git config core.hooksPath hooks   # check sources before each commit\n"
        "  git add -A && git commit -m 'Adopt wikigen'\n"
        "  wikigen compile --batch               # the first import, in increments that fit the caps\n"
        "  wikigen build                         # the static site in site/\n"
        "  wikigen serve                         # look at it on http://127.0.0.1:8000",
        lines=True,
    )


def print_plan(data: dict[str, Any]) -> None:
    echo(f"baseline: snapshot {data['baseline_version']}, sources tree {data['sources_tree'][:12]}")
    for key in ("added", "updated", "withdrawn", "deferred", "pending"):
        ids = data[key]
        if ids:
            echo(f"{key} ({len(ids)}):")
            for sid in ids:
                echo(f"  {sid}  — {data['reasons'].get(sid, '')}")
    echo(f"unchanged: {data['unchanged']}")
    for item in data["bookkeeping"]:
        echo(f"bookkeeping: {item['source']}: {item['reason']}")
    for problem in data["invalid"]:
        echo(f"{problem['path']}:{problem['line']}: {problem['message']}")
    echo(f"blobs read: {data['blobs_read']}")
    if "engine_calls" in data:
        revoked = ", ".join(f"{v} {k}(s)" for k, v in data["revoked"].items() if v) or "nothing"
        echo(f"revoked: {revoked}; fragments: {data['fragments']}; anchors: {data['anchors']}")
        for name, (used, limit) in data["caps"].items():
            flag = "  OVER — a plain compile will fail; run `wikigen compile --batch`" if used > limit else ""
            echo(f"  caps.{name}: {used:,} / {limit:,}{flag}")
        echo(f"engine calls the next compile would make: {data['engine_calls']}")
    route = data["route"]
    fallback = "embedded model" if route["engine"] == "offline" else "no model set: engine.models or WIKIGEN_MODEL"
    models = ", ".join(f"{k}: {v}" for k, v in route["models"].items()) or fallback
    host = f" at {route['host']}" if route.get("host") else ""
    echo(f"route: {route['engine']}{host} ({models})")
    print_unread(data)


def print_unread(data: dict[str, Any]) -> None:
    """The note on Markdown outside the sources folder, when `status` or `plan` found some."""
    from wikigen.store.unread_markdown import unread_note

    note = unread_note(data.get("unread_markdown") or {}, data["sources_dir"])
    if note:
        echo(note, lines=True)


def print_hook(result: Plan, figures: dict[str, Any]) -> None:
    """The one summary line of the pre-commit hook: the staged plan and what it would cost."""
    over = (
        f"; over caps: {', '.join(figures['over_caps'])} (compile it with `wikigen compile --batch`)"
        if figures["over_caps"]
        else ""
    )
    echo(
        f"wikigen: {len(result.added) + len(result.updated) + len(result.withdrawn)} source(s) changed "
        f"({len(result.added)} added, {len(result.updated)} updated, {len(result.withdrawn)} withdrawn); "
        f"the next compile makes {figures['engine_calls']} engine call(s){over}"
    )


def print_status(report: dict[str, Any]) -> None:
    echo(f"snapshot version {report['snapshot_version']} ({report['objects']} objects)")
    for category, count in report["sources_per_category"].items():
        switch = report["auto_archive"].get(category)
        note = "" if switch is None else f"  auto_archive: {'on' if switch else 'off'}"
        echo(f"  {category:<15} {count:>6}{note}")
    for key, ids in report["pending_changes"].items():
        if ids:
            echo(f"{key}: {', '.join(ids)}")
    if report["deferred"]:
        echo(f"deferred: {', '.join(report['deferred'])}")
    for sid, info in report["waiting"].items():
        echo(f"waiting: {sid} ({info['reason']})")
    for problem in report["invalid"]:
        echo(f"{problem['path']}:{problem['line']}: {problem['message']}")
    from wikigen.store.uncommitted import uncommitted_note

    note = uncommitted_note(report["uncommitted"])
    if note:
        echo(note, lines=True)
    print_unread(report)


def print_compile(data: dict[str, Any]) -> None:
    echo(data["message"], lines=True)
    print_warnings(data["warnings"])
    if data["published"] and not data["bookkeeping"]:
        echo(
            f"snapshot {data['version']} ({data['commit'][:12]}): {len(data['added'])} added, "
            f"{len(data['updated'])} updated, {len(data['withdrawn'])} withdrawn; "
            f"{data['engine_calls']} engine call(s), {data['sent_bytes']['total']:,} bytes sent"
        )


def print_push(data: dict[str, Any]) -> None:
    state = "pushed" if data["pushed"] else "nothing to push"
    echo(f"{state} after {data['attempts']} attempt(s); snapshot {data['version']}")


def print_verify(result: dict[str, Any]) -> None:
    for problem in result["problems"]:
        echo(problem)
    for cid, counts in result.get("citation_ids", {}).items():
        verdict = "ok" if counts["ok"] else f"{counts['problems']} problem(s)"
        echo(f"{cid}: {counts['citations']} citation(s), {verdict}")
    echo(
        f"{result['citations']} citation(s) in {result['objects']} object(s): "
        f"{'ok' if not result['problems'] else str(len(result['problems'])) + ' problem(s)'}"
    )


def print_answer(filed: dict[str, Any]) -> None:
    done = "wrote" if filed["written"] else "unchanged:"
    echo(f"{done} {filed['path']} ({filed['id']}), {len(filed['citations'])} quote(s) verbatim at HEAD")
    for citation in filed["citations"]:
        echo(f"  {citation['citation_id']}  {citation['source']}@{citation['version']}  lines {citation['lines']['start']}-{citation['lines']['end']}")
    echo(f"Nothing is committed: {filed['next']}")


def print_search(result: dict[str, Any]) -> None:
    echo(f"snapshot {result['snapshot']['version']}: {len(result['evidence'])} passage(s)")
    for number, item in enumerate(result["evidence"], 1):
        lines = item["lines"]
        echo("")
        echo(
            f"{number}. {item['title']} — {item['source']} @ {item['version']}, lines {lines['start']}–{lines['end']} "
            f"[{item['citation_id']}] score {item['score']}"
        )
        echo("   " + " ".join(item["excerpt"].split())[:400])
    if result["objects"]:
        echo("")
        echo("supported: " + ", ".join(o["id"] for o in result["objects"][:10]))
    budget_report = result["budget"]
    if budget_report and budget_report["dropped"]:
        echo("")
        echo(
            f"budget: {budget_report['used']}/{budget_report['tokens']} tokens; {budget_report['dropped']} passage(s) "
            f"({budget_report['dropped_tokens']} tokens) dropped, cited by source only"
        )
