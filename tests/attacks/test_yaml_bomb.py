"""R5: frontmatter YAML that would expand without bound is refused in bounded time.

The 409-byte "billion laughs" alias bomb once hung `check`, `plan` and `compile` (exponential
expansion, then canonical JSON over it). Anchors and aliases are refused from PyYAML's own event
stream before anything is composed; frontmatter over the size or nesting limit is refused too.
"""

from __future__ import annotations

import time

import pytest

from tests.conftest import GitRepo, source
from wikigen.model.config import Config
from wikigen.model.errors import Problem
from wikigen.model.sources import parse_source

K = "content/sources/knowledge"
LEVELS = "bcdefghi"
# The classic "billion laughs": 9 levels of 9 aliases, 9**9 strings once expanded.
BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{x}: &{x} [{','.join([f'*{p}'] * 9)}]\n" for p, x in zip("a" + LEVELS, LEVELS, strict=False)
)
BOMB_FILE = f"---\n{BOMB}---\n# Bomb\n\n" + "x" * 50 + "\n"
LIMIT_S = 2.0  # bounded, not a benchmark: the unfixed code runs for minutes and exhausts memory
MAX_DEPTH = 20  # the limits the manual states
MAX_BYTES = 64 * 1024


def test_the_bomb_is_the_409_byte_billion_laughs_file():
    assert len(BOMB_FILE.encode()) == 409


def timed(call):  # type: ignore[no-untyped-def]
    started = time.monotonic()
    result = call()
    return result, time.monotonic() - started


def test_parse_source_refuses_the_bomb_at_its_first_anchor():
    """R5: the library call refuses with file and line, in bounded time."""
    result, seconds = timed(lambda: parse_source(f"{K}/bomb.md", BOMB_FILE.encode(), "0" * 40, Config()))
    assert seconds < LIMIT_S
    assert isinstance(result, list)
    assert result[0].path == f"{K}/bomb.md"
    assert result[0].line == 2  # `a: &a [...]`: the line after the opening `---`
    assert "YAML anchor &a" in result[0].message


def test_check_plan_compile_refuse_the_bomb_quickly(git_repo: GitRepo):
    """R5: `check`, `check --staged`, `plan` and `compile` refuse the committed bomb,
    each naming the file and line, each in well under the bound; nothing is published."""
    git_repo.commit({f"{K}/good.md": source("\nfine\n", title="Good")})
    git_repo.commit({f"{K}/bomb.md": BOMB_FILE}, message="bomb")
    head = git_repo.head()
    for args in (("check",), ("check", "--staged"), ("plan",), ("compile", "--engine", "offline")):
        result, seconds = timed(lambda args=args: git_repo.wikigen(*args))
        assert seconds < LIMIT_S, (args, seconds)
        assert result.code == 1, (args, result)
        assert f"{K}/bomb.md:2: " in result.out + result.err, (args, result)
        assert "Traceback" not in result.out + result.err
    assert git_repo.head() == head


CASES = {
    "alias": ("title: T\nbase: x\nother: *base\n", 4, "YAML alias *base"),
    "anchor alone": ("title: T\nbase: &base x\n", 3, "YAML anchor &base"),
    "merge key": ("title: T\nbase: &b {k: v}\nmore:\n  <<: *b\n", 3, "YAML anchor &b"),
    "anchor on a list": ("title: T\nitems: &l\n  - 1\n", 3, "YAML anchor &l"),
    "too deep": ("title: T\nx: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n", 3,
                 "nested"),
    "too big": ("title: T\n" + "".join(f"k{i}: {'v' * 60}\n" for i in range(MAX_BYTES // 60)), 2,
                "bytes"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_refusal_names_file_and_line(git_repo: GitRepo, case: str):
    """R5: anchors, aliases, too deep, too big: `path:line: message`, exit 1."""
    front, line, words = CASES[case]
    git_repo.write({f"{K}/x.md": f"---\n{front}---\nbody\n"})
    result = git_repo.wikigen("check")
    assert result.code == 1, result
    assert result.out.startswith(f"{K}/x.md:{line}: "), result.out
    assert words in result.out
    assert "Traceback" not in result.out + result.err


def test_frontmatter_at_the_limits_is_fine():
    """R5: nesting up to the limit, and an anchor-like '&' inside a quoted string, still parse."""
    depth = MAX_DEPTH - 1  # the top-level mapping is one level
    front = "title: T\nnote: 'a & b, *c'\nx: " + "[" * depth + "1" + "]" * depth + "\n"
    result = parse_source(f"{K}/x.md", f"---\n{front}---\nbody\n".encode(), "0" * 40, Config())
    assert not isinstance(result, list), result
    assert result.metadata["note"] == "a & b, *c"


def test_problem_type_is_the_usual_one():
    result = parse_source(f"{K}/bomb.md", BOMB_FILE.encode(), "0" * 40, Config())
    assert isinstance(result, list) and all(isinstance(p, Problem) for p in result)
