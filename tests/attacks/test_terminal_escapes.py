"""R41: text from sources is escaped in the terminal too — control characters and escape sequences
in a file name, an id or a title are shown, never sent raw.

Before the fix, `check`, `plan` and `search` printed a file named "a\\x1b[31mred.md" or a title
"\\x1b]0;pwned\\x07" (which retitles the terminal window) as they were, and `--json` left C1
controls and bidirectional overrides raw.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import GitRepo, source
from wikigen.model.terminal import visible, visible_json

K = "content/sources/knowledge"
RED = "a\x1b[31mred"  # colours the rest of the terminal red
TITLE = "\x1b]0;pwned\x07"  # OSC 0: sets the window title
FLIPPED = "evil\u202egnp.md"  # shown as "evilmd.png" by a bidi-aware terminal
CSI = "c1\x9b2J"  # CSI as one C1 character: clears the screen on some terminals
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
BODY = "The pwned source is a test of what a terminal shows when a title holds an escape sequence.\n"


def assert_nothing_raw(text: str) -> None:
    assert not RAW.search(text), repr(RAW.search(text))


def test_visible_shows_every_control_character():
    """R41: the one function the printers use writes controls as escapes, keeping newlines only
    where asked and leaving ordinary text (accents, emoji, tabs) alone."""
    assert visible(RED) == "a\\x1b[31mred"
    assert visible(TITLE) == "\\x1b]0;pwned\\x07"
    assert visible(CSI) == "c1\\x9b2J"
    assert visible(FLIPPED) == "evil\\u202egnp.md"
    assert visible("one\ntwo\rthree") == "one\\ntwo\\rthree"
    assert visible("one\ntwo", lines=True) == "one\ntwo"
    assert visible("café ☕ 𝔘\tx") == "café ☕ 𝔘\tx"
    assert visible(visible(RED)) == visible(RED)
    dumped = json.dumps({"t": RED + CSI + FLIPPED + "\x7f"}, ensure_ascii=False)
    assert json.loads(visible_json(dumped)) == json.loads(dumped)
    assert_nothing_raw(visible_json(dumped))


def test_check_and_plan_show_an_escape_in_a_file_name(git_repo: GitRepo):
    """R41: a file name holding escape sequences is printed escaped by `check` (a problem) and by
    `plan` (an added id), and by `plan --json`, which still reads back as the real name."""
    git_repo.commit({f"{K}/good.md": source(f"# Good\n\n{BODY}", title="Good")})
    git_repo.commit({f"{K}/{RED}.md": "", f"{K}/{CSI}.md": "", f"{K}/{FLIPPED}": ""})
    result = git_repo.wikigen("check")
    assert result.code == 1
    assert f"{K}/a\\x1b[31mred.md:1: " in result.out and "c1\\x9b2J.md:1: " in result.out
    assert "evil\\u202egnp.md:1: " in result.out
    assert_nothing_raw(result.out + result.err)
    compiled = git_repo.wikigen("compile", "--engine", "offline")
    assert compiled.code == 1 and f"{K}/a\\x1b[31mred.md:1: " in compiled.err
    assert_nothing_raw(compiled.out + compiled.err)
    body = source(f"# Red\n\n{BODY}", title="Red")
    git_repo.commit({f"{K}/{RED}.md": body, f"{K}/{CSI}.md": body, f"{K}/{FLIPPED}": body})
    plan = git_repo.wikigen("plan")
    assert plan.code == 0, plan
    assert "knowledge/a\\x1b[31mred" in plan.out and "knowledge/c1\\x9b2J" in plan.out
    assert_nothing_raw(plan.out + plan.err)
    data = git_repo.wikigen("plan", "--json").out
    assert_nothing_raw(data)
    assert {f"knowledge/{RED}", f"knowledge/{CSI}", f"knowledge/{FLIPPED[:-3]}"} <= set(json.loads(data)["added"])


@pytest.mark.parametrize("front", [{"title": TITLE}, {}])
def test_search_shows_an_escape_in_a_title(git_repo: GitRepo, front: dict[str, str]):
    """R41: a title with an OSC sequence (from the frontmatter, or the H1 the title defaults to) is
    printed escaped by `search`, and `search --json` holds no raw control character."""
    heading = "Pwned" if front else f"Pwned {TITLE}"
    git_repo.commit({f"{K}/pwned.md": source(f"# {heading}\n\n{BODY}", **front) if front else f"# {heading}\n\n{BODY}"})
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
    result = git_repo.wikigen("search", "what does a terminal show for a pwned title")
    assert result.code == 0, result
    assert "\\x1b]0;pwned\\x07" in result.out
    assert_nothing_raw(result.out + result.err)
    data = git_repo.wikigen("search", "pwned title", "--json").out
    assert_nothing_raw(data)
    assert any(TITLE in item["title"] for item in json.loads(data)["evidence"])
