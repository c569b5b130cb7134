"""Adding a game touches nothing shared: Connect Four, copied under a new id into a copy of the
tree (its package under games/, its picture under render/, every "connect four" renamed), is found
by the registry, the pictures and the layer contracts, and passes the every-game suites, with no
other file edited and nothing registered by hand."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEW_ID = "drop-four"
# The suites that check every registered game without naming it (docs/ARCHITECTURE.md's checklist);
# those that need a per-game entry (a rulebook, a board-text oracle, a rules-gaps section) fail
# naming it instead, and are left out here.
SUITES = [
    "tests/test_conformance.py",
    "tests/test_hidden_zones.py",
    "tests/test_told_once.py",
    "tests/engine/test_teaching.py",
    "tests/engine/test_no_ids.py",
    "tests/engine/test_one_word.py",
    "tests/engine/test_rule_numbers.py",
    "tests/engine/test_slips.py",
    "tests/test_typo_refusals.py",
    "tests/test_suggest_why_every_game.py",
    "tests/test_layers.py::test_the_layer_contracts_hold_on_the_tree",
]


def _renamed(text: str) -> str:
    for old, new in (
        ("connect_four", NEW_ID.replace("-", "_")),
        ("connect-four", NEW_ID),
        ("Connect Four", "Drop Four"),
        ("CONNECT FOUR", "DROP FOUR"),
        ("ConnectFour", "DropFour"),
    ):
        text = text.replace(old, new)
    return text


def _copy(src: Path, dest: Path) -> None:
    """`src` (a file or a folder) at `dest`, every text renamed."""
    files = (
        [src]
        if src.is_file()
        else [p for p in src.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    )
    for f in files:
        to = dest if src.is_file() else dest / f.relative_to(src)
        to.parent.mkdir(parents=True, exist_ok=True)
        to.write_text(_renamed(f.read_text("utf-8")), "utf-8")


def test_connect_four_copied_under_a_new_id_passes_the_every_game_suites(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    ignore = shutil.ignore_patterns("__pycache__", ".pytest_cache")
    for name in ("bot", "engine", "games", "render", "storage", "tests", "docs"):
        shutil.copytree(ROOT / name, tree / name, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    new = NEW_ID.replace("-", "_")
    _copy(ROOT / "games" / "connect_four", tree / "games" / new)
    _copy(ROOT / "render" / "connect_four.py", tree / "render" / f"{new}.py")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "0",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rA",
            "-k",
            f"{NEW_ID} or {NEW_ID.replace('-', '_')} or contracts",
            *SUITES,
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    # Each suite ran the new game: its tests passed, by name, with the new id.
    passed = [line for line in run.stdout.splitlines() if line.startswith("PASSED ") and NEW_ID in line]
    for suite in SUITES[:-1]:
        assert any(line.startswith(f"PASSED {suite}::") for line in passed), (suite, run.stdout[-3000:])
    assert any("layer_contracts" in line for line in run.stdout.splitlines() if line.startswith("PASSED "))
