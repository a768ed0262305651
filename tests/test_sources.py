"""Sources: R1–R6 and the task fields of R35 (pure parsing)."""

from __future__ import annotations

from wikigen.model.config import Config
from wikigen.model.errors import Problem
from wikigen.model.sources import Source, parse_source

CFG = Config()


def parse(path: str, text: str | bytes) -> Source | list[Problem]:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parse_source(path, data, "0" * 40, CFG)


def ok(path: str, text: str | bytes) -> Source:
    result = parse(path, text)
    assert isinstance(result, Source), result
    return result


def test_defaults_id_title_category_from_path_and_h1():
    """R1."""
    s = ok("content/sources/knowledge/net/pods.md", "Intro line.\n\n# Pods and Nodes\n\nBody.\n")
    assert s.id == "knowledge/net/pods"
    assert s.title == "Pods and Nodes"
    assert s.category == "knowledge"
    assert s.verification == "unverified"
    assert s.body_line == 1


def test_title_falls_back_to_file_stem_and_metadata_is_kept():
    """R1."""
    s = ok("content/sources/tasks/plan-b.md", "---\nowner: ana\nweight: 3\n---\nno heading here\n")
    assert s.title == "plan-b"
    assert dict(s.metadata) == {"owner": "ana", "weight": 3}
    assert s.body == "no heading here\n"
    assert s.body_line == 5


def test_alias_only_change_makes_no_new_version():
    """R3."""
    a = ok("content/sources/tasks/x.md", "---\ncategory: decisions\n---\n# X\n\nbody\n")
    b = ok("content/sources/tasks/x.md", "---\ncategory: tasks\n---\n# X\n\nbody\n")
    assert a.category == b.category == "tasks"
    assert a.version == b.version


def test_verification_change_makes_no_new_version():
    """R3."""
    a = ok("content/sources/knowledge/x.md", "---\nverification: unverified\n---\nbody\n")
    b = ok("content/sources/knowledge/x.md", "---\nverification: verified\n---\nbody\n")
    assert (a.verification, b.verification) == ("unverified", "verified")
    assert a.version == b.version


def test_title_metadata_or_body_change_makes_a_new_version():
    """R3."""
    base = ok("content/sources/knowledge/x.md", "---\ntitle: A\nowner: x\n---\nbody\n").version
    assert ok("content/sources/knowledge/x.md", "---\ntitle: B\nowner: x\n---\nbody\n").version != base
    assert ok("content/sources/knowledge/x.md", "---\ntitle: A\nowner: y\n---\nbody\n").version != base
    assert ok("content/sources/knowledge/x.md", "---\ntitle: A\nowner: x\n---\nbody!\n").version != base


def test_folder_alias_normalizes_and_unknown_category_fails_with_line():
    """R2."""
    assert ok("content/sources/decisions/x.md", "body\n").category == "tasks"
    problems = parse("content/sources/knowledge/x.md", "---\ntitle: T\ncategory: gossip\n---\nbody\n")
    assert [(p.path, p.line) for p in problems] == [("content/sources/knowledge/x.md", 3)]
    assert problems[0].message.startswith("unknown category 'gossip'; ")
    problems = parse("content/sources/misc/x.md", "body\n")
    assert (
        isinstance(problems, list)
        and problems[0].line == 1
        and "unknown category folder" in problems[0].message
    )


def test_frontmatter_category_must_agree_with_folder():
    """R2."""
    problems = parse("content/sources/knowledge/x.md", "---\nid: x\ncategory: constraints\n---\nbody\n")
    assert isinstance(problems, list) and len(problems) == 1
    assert problems[0].line == 3 and "'knowledge' folder" in problems[0].message


def test_file_directly_in_sources_takes_frontmatter_category():
    """R2."""
    assert ok("content/sources/top.md", "---\ncategory: environment\n---\nbody\n").category == "constraints"
    problems = parse("content/sources/top.md", "body\n")
    assert isinstance(problems, list) and "needs a frontmatter 'category'" in problems[0].message


def test_category_never_comes_from_words_in_the_body():
    """R2."""
    s = ok("content/sources/knowledge/x.md", "# Failure\n\nThis failure is a preference and a task.\n")
    assert s.category == "knowledge"


def test_bad_yaml_names_the_line():
    """R5."""
    problems = parse("content/sources/knowledge/x.md", "---\ntitle: ok\nlist: [a, b\nother: 1\n---\nbody\n")
    assert isinstance(problems, list) and len(problems) == 1
    assert problems[0].path == "content/sources/knowledge/x.md"
    assert problems[0].line in (3, 4, 5) and "not valid YAML" in problems[0].message


def test_non_utf8_names_the_line():
    """R5."""
    problems = parse("content/sources/knowledge/x.md", b"line one\nline two \xff\xfe\n")
    assert isinstance(problems, list) and problems[0].line == 2 and "UTF-8" in problems[0].message


def test_binary_md_file_is_invalid():
    """R5."""
    problems = parse("content/sources/knowledge/x.md", b"\x89PNG\r\n\x1a\n\x00\x00")
    assert isinstance(problems, list) and "binary" in problems[0].message


def test_body_over_100000_bytes_is_invalid_and_says_how_to_split():
    """R5 with R15's measure: the source alone, as a request, over caps.input_bytes."""
    from wikigen.compiler.sizes import size_problem
    from wikigen.model.config import Caps

    big = ok("content/sources/knowledge/x.md", "---\ntitle: Big\n---\n" + "é" * 50_001)
    problem = size_problem(big, CFG.caps)
    assert problem is not None and problem.line == 4
    assert "100,002 bytes" in problem.message and "split" in problem.message
    assert size_problem(big, Caps(input_bytes=200_000)) is None  # the caps in force decide


def test_every_problem_collected_not_just_the_first():
    """R5."""
    problems = parse("content/sources/knowledge/x.md", "---\ncategory: tasks\nverification: maybe\n---\nb\n")
    assert isinstance(problems, list) and [p.line for p in problems] == [2, 3]


def test_frontmatter_that_is_never_closed_is_refused():
    """R5."""
    problems = parse("content/sources/knowledge/x.md", "---\ntitle: x\nbody\n")
    assert isinstance(problems, list) and "never closed" in problems[0].message


def test_spans_refer_to_the_body_so_frontmatter_changes_never_move_them():
    a = ok("content/sources/knowledge/x.md", "---\ntitle: A\n---\nHello world\n")
    b = ok("content/sources/knowledge/x.md", "---\ntitle: A\nowner: someone\nteam: x\n---\nHello world\n")
    assert a.body == b.body == "Hello world\n"
    assert a.content_hash == b.content_hash


def test_volatile_fields_make_no_new_version():
    """R35."""
    text = "---\ntask: T1\nstatus: accepted\nattempt: 1\n{extra}---\n# T\n\nDone.\n"
    a = ok("content/sources/tasks/t.md", text.format(extra="updated_at: 2026-01-01\n"))
    b = ok(
        "content/sources/tasks/t.md",
        text.format(extra="updated_at: 2026-02-02\nusage: {tokens: 5}\ntool_steps: 9\n"),
    )
    assert a.version == b.version
    assert a.task is not None and a.task.at_checkpoint_status
    assert a.task.checkpoint_key == b.task.checkpoint_key  # type: ignore[union-attr]


def test_only_final_failed_cancelled_blocked_and_reverify_statuses_are_checkpoints():
    """R35: accepted or final, failed, cancelled (either spelling), blocked and reverify are checkpoints;
    awaiting acceptance, running and a tool step are not."""
    for status, expected in [
        ("accepted", True),
        ("final", True),
        ("failed", True),
        ("cancelled", True),
        ("canceled", True),
        ("blocked", True),
        ("reverify", True),
        ("awaiting_acceptance", False),
        ("running", False),
        ("tool step", False),
    ]:
        s = ok("content/sources/tasks/t.md", f"---\ntask: T1\nstatus: {status}\n---\nbody\n")
        assert s.task is not None and s.task.at_checkpoint_status is expected, status


def test_private_flag_and_globs():
    assert ok("content/sources/knowledge/x.md", "---\nprivate: true\n---\nb\n").private
    cfg = Config(private=("content/sources/constraints/*",))
    s = parse_source("content/sources/constraints/y.md", b"b\n", "0" * 40, cfg)
    assert isinstance(s, Source) and s.private


def test_foreign_category_is_refused_with_the_alias_that_fixes_it(tmp_path):
    """R2, R5: a Jekyll-style `category: Concepts` is refused with the exact wikigen.yml
    setting that aliases it; with that setting the source is valid, its foreign keys kept (R1)."""
    import re

    from wikigen.model.config import load_config

    text = "---\nlayout: post\ncategory: Concepts\npermalink: /pods/\ntags: [k8s]\n---\n# Pods\n\nA Pod runs.\n"
    problems = parse("content/sources/knowledge/pods.md", text)
    assert isinstance(problems, list) and len(problems) == 1 and problems[0].line == 3
    setting = re.search(r"`(categories: .*?)`", problems[0].message)
    assert setting is not None and setting.group(1) == "categories: {aliases: {concepts: knowledge}}"
    config = load_config(tmp_path, environ={}, text=setting.group(1) + "\n")
    pods = parse_source("content/sources/knowledge/pods.md", text.encode(), "0" * 40, config)
    assert isinstance(pods, Source) and pods.category == "knowledge"
    assert dict(pods.metadata) == {"layout": "post", "permalink": "/pods/", "tags": ["k8s"]}
