"""`wikigen lint`: deterministic findings from the committed snapshot and the sources, each with the
file to change and what to do, never a model call (R27: recorded contradictions and open questions
are listed, never resolved). One example repo is compiled once with the scripted engine; each kind
is shown firing on it and not firing where it must not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import GitRepo, source
from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine

K = "content/sources/knowledge"
T = "content/sources/tasks"
LONG_DEFINITION = "keeps every record of the ledger in one place for as long as the bank exists and never forgets a single entry of it"

FILES = {
    f"{K}/vault.md": source("# Vault\n\nConcept Vault: the Vault is the room where the bank keeps its gold bars.\n", title="Vault"),
    f"{K}/ledger.md": source(
        "# Ledger\n\nConcept Ledger: the Ledger is the book every payment is written into.\n\n"
        "Concept Payment: a Payment moves money from one account to another.\n\nREL Ledger -records-> Payment.\n\n"
        "Each payment is copied into the **raft log** and spread by the **gossip protocol**.\n\n"
        "CONTRADICTION: the ledger is closed on Fridays.\n",
        title="Ledger",
    ),
    f"{K}/audit.md": source(
        "# Audit\n\nThe auditors read the ledger and the raft log once a year, and the gossip protocol too.\n\n"
        "See the [ledger](ledger.md), the [folder](../knowledge/), the [chart](pics/chart.png), "
        "[the site](/docs/ledger/), [the web](https://example.com/x.md) and [the top](#audit).\n\n"
        "The [old report](reports/2019.md) is gone, and so is [the outside](../../../../outside.md).\n",
        title="Audit",
    ),
    f"{K}/pics/chart.png": b"\x89PNG\r\n\x1a\n",
    f"{K}/archive.md": source("# Archive\n\nOld payments stay in the raft log for seven years before they go.\n", title="Archive"),
    f"{K}/pods.md": source(
        "# Pods\n\nConcept Pod: a Pod is the smallest unit that runs containers together on one node.\n\n"
        "Concept Pods: Pods are groups of containers that share one network namespace and storage.\n\n"
        "Concept Pod template: a Pod template is the part of a workload that says how to make new Pods.\n\n"
        "Concept List<T>: a List<T> is a list whose items all have the type T.\n\n"
        "Concept List: a List is an ordered sequence of items of any type.\n\n"
        f"Concept Alpha store: the Alpha store {LONG_DEFINITION}.\n\n"
        f"Concept Beta store: the Beta store {LONG_DEFINITION}.\n\n"
        "REL Pod -uses-> Pod template.\n\nREL Pods -uses-> List.\n\nREL List<T> -uses-> Alpha store.\n\n"
        "REL Beta store -uses-> Pod template.\n\nQUESTION: who owns the pods at night?\n",
        title="Pods",
    ),
    f"{K}/notes.md": source("# Notes\n\nA few words written down after the meeting, with nothing defined in them.\n", title="Notes"),
    f"{T}/migrate.md": source(
        "# Migrate the ledger\n\nMove the ledger to the new building before the winter starts.\n",
        title="Migrate the ledger",
        task="migrate",
        status="running",
    ),
}


def _issues(request: Mapping[str, Any], marker: str) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for src in request["sources"]:
        for line in src["body"].splitlines():
            if line.startswith(marker):
                issue = {"text": line[len(marker):].strip(), "scope": "the ledger", "uncertainty": "medium",
                         "quotes": [{"source": src["id"], "quote": line}]}
                found.setdefault(src["id"], []).append(issue)
    return found


def with_issues(stage: str, request: Mapping[str, Any]) -> dict[str, Any]:
    """The scripted extractor, plus a contradiction or open question for each `CONTRADICTION:` or
    `QUESTION:` line, on the article of its source."""
    delta = extract(stage, request)
    contradictions, questions = _issues(request, "CONTRADICTION:"), _issues(request, "QUESTION:")
    for article in delta["articles"]:
        article["contradictions"] = contradictions.get(article["sources"][0], [])
        article["open_questions"] = questions.get(article["sources"][0], [])
    return delta


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    repo = GitRepo(tmp_path_factory.mktemp("lint") / "repo")
    repo.commit(FILES, message="sources")
    report = compile_repo(repo.root, engine=ScriptedEngine(with_issues))
    assert report.published
    return repo


def lint_json(repo: GitRepo, *args: str) -> dict[str, Any]:
    result = repo.wikigen("lint", "--json", "--as-of", "2023-11-20", *args)
    assert result.code in (0, 1), result.err
    return json.loads(result.out)  # type: ignore[no-any-return]


def found(data: Mapping[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {f["subject"]: f for f in data["findings"] if f["kind"] == kind}


def test_an_orphan_concept_is_one_with_no_relation_that_one_source_mentions(built: GitRepo):
    """A concept with no relation, mentioned by its own source only, is an orphan; related ones are not."""
    orphans = found(lint_json(built), "orphan")
    assert orphans["concept/vault"]["file"] == f"{K}/vault.md"
    assert "the compiler missed it" in orphans["concept/vault"]["action"]
    assert "concept/ledger" not in orphans and "concept/payment" not in orphans


def test_a_marked_term_used_in_three_sources_with_no_concept_is_a_missing_concept(built: GitRepo):
    """A term marked in one source and used in --min-sources sources has no concept; one used in
    fewer sources is no finding until --min-sources is lowered."""
    data = lint_json(built)
    missing = found(data, "missing-concept")
    assert missing["raft log"]["file"] == f"{K}/ledger.md" and missing["raft log"]["line"] == 12
    assert "used in 3 sources" in missing["raft log"]["finding"]
    assert "gossip protocol" not in missing  # used in 2 sources
    assert "gossip protocol" in found(lint_json(built, "--min-sources", "2"), "missing-concept")
    assert not any(term in missing for term in ("Ledger", "Pod", "Vault"))  # they have concepts


def test_missing_concepts_past_the_cap_are_counted_never_dropped_silently():
    """The missing concepts past the cap are counted in `left_out` (and the text says "N more")."""
    from wikigen.lint import LintInputs, LintSettings, SourceText, lint

    sources = tuple(
        SourceText(f"s{i}", f"content/sources/knowledge/s{i}.md", "**Alpha box** **Beta box** **Gamma box**\n")
        for i in range(3)
    )
    report = lint(LintInputs(sources=sources), LintSettings(term_cap=1))
    assert [f.subject for f in report.findings] == ["Alpha box"]
    assert report.left_out == {"missing-concept": 2} and report.counts()["missing-concept"] == 3


def test_concepts_equal_up_to_number_or_type_parameter_are_likely_duplicates(built: GitRepo):
    """Names equal up to number (Pod / Pods) or a type parameter (List / List<T>), and near-identical
    definitions cited from different places, are likely duplicates; Pod and Pod template are not."""
    duplicates = found(lint_json(built), "duplicate")
    pod = next(f for s, f in duplicates.items() if "concept/pod " in s + " " and "concept/pods" in s)
    assert "number" in pod["finding"] and pod["severity"] == "warning"
    listed = next(f for s, f in duplicates.items() if "concept/list" in s and "list-" in s)
    assert "type parameter" in listed["finding"]
    same = next(f for s, f in duplicates.items() if "alpha" in s and "beta" in s)
    assert "near-identical definitions" in same["finding"] and same["severity"] == "info"
    assert not any("pod_template" in s for s in duplicates)


def test_a_relative_link_to_a_file_that_does_not_exist_is_a_broken_link_with_its_line(built: GitRepo):
    """Relative links resolve against the source's folder; URLs, anchors, site paths, an existing
    file, asset or folder are not findings."""
    broken = found(lint_json(built), "broken-link")
    assert set(broken) == {"reports/2019.md", "../../../../outside.md"}
    assert broken["reports/2019.md"]["file"] == f"{K}/audit.md"
    assert broken["reports/2019.md"]["line"] == 10  # the frontmatter's 3 lines, then the body's 7th
    assert broken["reports/2019.md"]["severity"] == "error"
    assert "outside the repository" in broken["../../../../outside.md"]["finding"]


def test_a_source_waiting_longer_than_the_stale_age_is_stale(built: GitRepo):
    """R36: a task recorded as baseline waits since its commit; past --stale-days (measured to
    --as-of, never the clock) it is stale, before that it is not."""
    after = lint_json(built, "--as-of", "2023-12-20")  # 35 days after the commit
    stale = found(after, "stale")
    assert stale["tasks/migrate"]["file"] == f"{T}/migrate.md"
    assert "35 days" in stale["tasks/migrate"]["finding"] and "--include-deferred" in stale["tasks/migrate"]["action"]
    assert found(lint_json(built), "stale") == {}  # 6 days
    assert found(lint_json(built, "--as-of", "2023-12-20", "--stale-days", "40"), "stale") == {}
    assert after["as_of"] == "2023-12-20T00:00:00Z"


def test_recorded_contradictions_and_open_questions_are_listed_as_they_are(built: GitRepo):
    """R27: what the compiler recorded is listed with its scope and uncertainty, never resolved."""
    data = lint_json(built)
    contradiction = found(data, "contradiction")["article/knowledge--ledger"]
    assert "closed on Fridays" in contradiction["finding"] and "scope: the ledger" in contradiction["finding"]
    assert contradiction["file"] == f"{K}/ledger.md" and contradiction["severity"] == "warning"
    question = found(data, "open-question")["article/knowledge--pods"]
    assert "who owns the pods at night?" in question["finding"] and question["file"] == f"{K}/pods.md"
    assert "article/knowledge--vault" not in found(data, "contradiction") | found(data, "open-question")


def test_a_compiled_source_that_yields_no_concept_is_listed(built: GitRepo):
    """A compiled source no concept cites is a finding; one with a concept is not."""
    none = found(lint_json(built), "no-concept")
    assert none["knowledge/notes"]["file"] == f"{K}/notes.md"
    assert "knowledge/vault" not in none and "tasks/migrate" not in none  # the task is not compiled


def test_json_output_is_sorted_and_the_same_on_every_run(built: GitRepo):
    """`--json` is one stable object: findings sorted by severity, kind, file, line and subject."""
    first = built.wikigen("lint", "--json", "--fail-on", "never")
    again = built.wikigen("lint", "--json", "--fail-on", "never")
    assert first.code == 0 and first.out == again.out
    data = json.loads(first.out)
    order = {"error": 0, "warning": 1, "info": 2}
    keys = [(order[f["severity"]], f["kind"], f["file"], f["line"] or 0, f["subject"]) for f in data["findings"]]
    assert keys == sorted(keys)
    assert data["counts"]["broken-link"] == 2 and set(data) == {"as_of", "counts", "findings", "left_out", "settings"}


def test_the_exit_code_follows_fail_on(built: GitRepo, git_repo: GitRepo):
    """Exit 1 when a finding at or above --fail-on is present (default: error), else 0."""
    assert built.wikigen("lint").code == 1  # two broken links
    assert built.wikigen("lint", "--fail-on", "never").code == 0
    git_repo.commit({f"{K}/notes.md": FILES[f"{K}/notes.md"]})
    compile_repo(git_repo.root, engine=ScriptedEngine(extract))
    result = git_repo.wikigen("lint")
    assert result.code == 0 and "1 no-concept hint(s), not listed" in result.out and "what to do:" not in result.out
    assert git_repo.wikigen("lint", "--fail-on", "warning").code == 0
    assert git_repo.wikigen("lint", "--fail-on", "info").code == 0  # a quiet hint fails nothing unless listed
    assert git_repo.wikigen("lint", "--fail-on", "info", "--all").code == 1


def test_lint_calls_no_engine_and_writes_nothing(built: GitRepo):
    """No engine, no model and no ranker is even imported; HEAD and the work tree stay as they were."""
    head = built.head()
    code = (
        "import sys\nfrom wikigen.cli import main\n"
        f"code = main(['-C', {str(built.root)!r}, 'lint', '--json', '--fail-on', 'never'])\n"
        "loaded = [m for m in sys.modules if m.startswith(('wikigen.engines', 'spacy', 'onnxruntime', 'wikigen.evidence.rerank'))]\n"
        "sys.stderr.write(repr((code, loaded)))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stderr.endswith("(0, [])"), done.stderr
    assert built.head() == head and built.git("status", "--porcelain").stdout == ""


def test_the_site_has_a_lint_page_listing_the_findings(built: GitRepo, monkeypatch: pytest.MonkeyPatch):
    """The plugin renders the lint page from the snapshot at HEAD, with the file and what to do."""
    from tests.test_mkdocs_plugin import MKDOCS_YML

    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    built.commit({"mkdocs.yml": MKDOCS_YML}, message="site")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    build(load_config(str(built.root / "mkdocs.yml")))
    page = (built.root / "site/lint/index.html").read_text(encoding="utf-8")
    assert "reports/2019.md" in page and f"{K}/audit.md:10" in page and "point the link at an existing file" in page
    assert "<details><summary>" in page and "concept &#x27;Vault&#x27; has no relation" in page  # folded
    assert 'href="lint/"' in (built.root / "site/index.html").read_text(encoding="utf-8")  # in the navigation


def test_a_waiting_source_waits_since_the_first_commit_the_snapshot_has_not_compiled(git_repo: GitRepo):
    """R4, R36: the age runs from the oldest commit of the run, back from HEAD, whose version of the
    file is not the compiled one (a later edit does not reset it); a file never compiled waits since
    it was added. Commit times only."""
    import pygit2

    from wikigen.store.git import GitStore
    from wikigen.store.waiting_since import waiting_since

    def commit_at(when: int, files: dict[str, str]) -> None:
        git_repo.stage(files)
        tree = git_repo.repo.index.write_tree()
        sig = pygit2.Signature("T", "t@example.invalid", when, 0)
        parents = [] if git_repo.repo.head_is_unborn else [git_repo.repo.head.target]
        git_repo.repo.create_commit("HEAD", sig, sig, "edit", tree, parents)

    day = 86_400
    commit_at(1 * day, {f"{T}/a.md": "v1\n"})
    compiled = str(git_repo.repo.revparse_single(f"HEAD:{T}/a.md").id)
    commit_at(2 * day, {f"{T}/a.md": "v2\n"})
    commit_at(3 * day, {f"{T}/b.md": "new\n"})
    commit_at(4 * day, {"README.md": "unrelated\n"})
    commit_at(5 * day, {f"{T}/a.md": "v3\n"})
    since = waiting_since(GitStore(git_repo.root), git_repo.head(), {f"{T}/a.md": compiled, f"{T}/b.md": None}, "content/sources")
    assert since == {f"{T}/a.md": 2 * day, f"{T}/b.md": 3 * day}


def test_orphan_and_no_concept_hints_are_counted_in_the_text_and_listed_with_all(built: GitRepo):
    """The quiet kinds are counted on one line of the text, listed with --all, and every finding is
    in --json with its severity."""
    plain = built.wikigen("lint", "--fail-on", "never").out
    assert "has no relation" not in plain and "yields no concept" not in plain
    assert "no-concept and " in plain and "orphan hint(s), not listed" in plain and "--all" in plain
    listed = built.wikigen("lint", "--fail-on", "never", "--all").out
    assert "concept 'Vault' has no relation" in listed and "knowledge/notes is compiled but yields no concept" in listed
    data = lint_json(built)
    assert data["settings"]["quiet_kinds"] == ["no-concept", "orphan"] and lint_json(built, "--all")["settings"]["quiet_kinds"] == []
    assert {f["kind"] for f in data["findings"]} >= {"orphan", "no-concept"}
    assert all(f["severity"] == "info" for f in data["findings"] if f["kind"] in ("orphan", "no-concept"))


def _missing(bodies: list[str], objects: Mapping[str, Mapping[str, Any]] | None = None) -> set[str]:
    """The subjects of the missing concepts lint finds in sources with these bodies."""
    from wikigen.lint import LintInputs, SourceText, lint

    sources = tuple(SourceText(f"s{i}", f"{K}/s{i}.md", body) for i, body in enumerate(bodies))
    report = lint(LintInputs(objects=objects or {}, sources=sources))
    return {f.subject for f in report.findings if f.kind == "missing-concept"}


USES = ["The raft log grows.\n", "Read the raft log.\n"]


def test_a_term_that_is_a_heading_is_documented_there_and_is_no_missing_concept():
    """A heading names the section that explains it: neither it nor the same term emphasised
    elsewhere is a missing concept; the term emphasised in prose alone is."""
    assert _missing(["Each write goes to the *raft log*.\n", *USES]) == {"raft log"}
    assert _missing(["## Raft log\n\nEach write goes to it.\n", *USES]) == set()
    assert _missing(["## Raft logs\n\nIt grows.\n", "Each write goes to the *raft log*.\n", *USES]) == set()


def test_a_term_an_existing_concept_covers_up_to_inflection_is_no_missing_concept():
    """"pattern match" is the concept "Pattern matching" up to inflection; without the concept it is a finding."""
    bodies = ["Use a *pattern match* here.\n", "A pattern match fails.\n", "Each pattern match binds.\n"]
    concept = {"concept/pattern-matching": {"kind": "concept", "name": "Pattern matching"}}
    assert _missing(bodies) == {"pattern match"}
    assert _missing(bodies, concept) == set()


def test_a_plain_or_shouted_word_is_no_missing_concept():
    """One plain word ("**update**", "**Name**") is vocabulary, a capitalised word prose also writes
    in lowercase ("**CRITICAL**") is stressed; an acronym ("**RBAC**") and a phrase are terms."""
    bodies = ["Rated **CRITICAL**, needs **update**, **Name**, **RBAC** and the **gossip protocol**.\n"] * 2
    bodies.append("A critical update: the name, RBAC and the gossip protocol.\n")
    assert _missing(bodies) == {"RBAC", "gossip protocol"}


def test_identifiers_link_text_and_labels_mark_no_term():
    """A CamelCase word (in code or prose), an emphasis inside a link's text and a list item's
    lead-in label ("**Portable box:** …") mark no term; the same phrase emphasised in prose does."""
    uses = ["The FooBar and the portable box and the ledger box.\n"] * 2
    marked = "Use `FooBar`, see [**ledger box**](x.md).\n\n* **Portable box:** it moves.\n"
    assert _missing([marked, *uses]) == set()
    assert _missing(["The *portable box* and the *ledger box* and **FooBar**.\n", *uses]) == {
        "portable box",
        "ledger box",
        "FooBar",
    }


def test_a_name_that_differs_only_by_case_is_not_called_a_type_parameter():
    """Lint's duplicates say what the two names differ by: "Service" and an alias "service" of
    another concept differ by letter case, not by a type parameter (List / List<T>)."""
    from wikigen.lint.duplicates import duplicates

    concepts = {
        "concept/service": {"id": "concept/service", "name": "Service", "aliases": []},
        "concept/system-service": {"id": "concept/system-service", "name": "System service", "aliases": ["service"]},
        "concept/list": {"id": "concept/list", "name": "List", "aliases": []},
        "concept/list-t": {"id": "concept/list-t", "name": "List<T>", "aliases": []},
    }
    said = {f.subject: f.finding for f in duplicates(concepts, {})}
    assert "letter case" in said["concept/service concept/system-service"]
    assert "type parameter" in said["concept/list concept/list-t"]
