"""scripts/attack.py prints the table of attacks an outsider makes; its short families run alone with
`--only`. The git-environment row (R34, R42) is run here through the script's own `main`: GIT_DIR at
another repository during a compile, and a broken source committed past the index (`git commit -a`,
`git commit PATH`, `git commit --only PATH`) through the real pre-commit hook — each attack a real git
repo and the real CLI in its own process.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "attack.py"


@pytest.fixture(scope="module")
def attack_script() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location("attack_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_the_git_environment_row_is_handled_cleanly(attack_script: ModuleType, capsys: pytest.CaptureFixture[str]):
    """R34, R42: `attack.py --only gitenv` runs that family alone and prints its row: 4 attacks tried,
    4 handled cleanly, no traceback, nothing lost, nothing leaked, and no note."""
    code = attack_script.main(["--only", "gitenv"])
    out = capsys.readouterr().out
    row = re.search(r"^git environment \(R34, R42\)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", out, re.MULTILINE)
    assert row is not None, out
    assert tuple(map(int, row.groups())) == (4, 4, 0, 0, 0), out
    assert code == 0 and "SIGKILL" not in out and "  git environment (R34, R42): " not in out, out


def test_an_unknown_family_key_is_a_usage_error(attack_script: ModuleType, capsys: pytest.CaptureFixture[str]):
    """`--only` names the keys it knows when given one it does not."""
    with pytest.raises(SystemExit) as exited:
        attack_script.main(["--only", "gitenv,privcy"])
    assert exited.value.code == 2
    assert "unknown family privcy; the families are kill, int, race" in capsys.readouterr().err
