"""The one-way flow of data is checked, not a convention: import-linter's contracts in
pyproject.toml (games import only engine, engine imports nothing above it, render and storage
stay below the frontends, games never import each other, no package's modules import each other in
a cycle) pass on the tree, and a planted bad import in a copy of the tree breaks them. No module
imports another module's private (underscore) name: what two modules share is public in its owner."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "engine", "games", "render", "storage")


def _lint_imports(tree: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    tool = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert tool, "lint-imports (import-linter) is part of the dev extra"
    # lint-imports finds the packages on sys.path: the tree's root goes first.
    return subprocess.run(
        [tool, "--cache-dir", str(cache)],
        cwd=tree,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tree), "PATH": str(Path(sys.executable).parent)},
    )


def _copy_tree(dest: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "data"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


def test_the_layer_contracts_hold_on_the_tree(tmp_path: Path) -> None:
    result = _lint_imports(ROOT, tmp_path / "cache")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "planted", "contract"),
    [
        ("games/ignis/rules.py", "import storage.repository", "games import only engine"),
        ("games/ignis/rules.py", "import games.ignite.board", "never imports another game"),
        ("engine/dice.py", "import render.kit", "engine imports no frontend"),
        ("render/ignis.py", "import bot.host", "render never imports"),
        ("storage/backend.py", "import games.ignis.state", "storage never imports"),
        # games.ignite.game imports the board: the board importing the game back is a cycle.
        ("games/ignite/board.py", "import games.ignite.game", "no import cycles inside a package"),
    ],
)
def test_a_planted_bad_import_breaks_its_contract(
    tmp_path: Path, module: str, planted: str, contract: str
) -> None:
    tree = _copy_tree(tmp_path / "tree")
    path = tree / module
    path.write_text(path.read_text() + f"\n{planted}  # planted by the test\n")
    result = _lint_imports(tree, tmp_path / "cache")
    assert result.returncode != 0, result.stdout
    broken = result.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken, result.stdout


def test_a_new_game_package_is_kept_apart_without_being_named(tmp_path: Path) -> None:
    """The contract that keeps games apart names no game: a package added under games/ that imports
    another game's breaks it, with pyproject.toml untouched."""
    tree = _copy_tree(tmp_path / "tree")
    new = tree / "games" / "newcomer"
    new.mkdir()
    (new / "__init__.py").write_text("import games.ignis.board  # planted by the test\n")
    result = _lint_imports(tree, tmp_path / "cache")
    assert result.returncode != 0, result.stdout
    broken = result.stdout.split("Broken contracts", 1)[-1]
    assert "never imports another game" in broken and "games.newcomer" in broken, result.stdout


def _private_imports(source: str) -> list[tuple[int, str, str]]:
    """Each `from module import _name` in a module's source: its line, the module and the name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            found += [
                (node.lineno, "." * node.level + (node.module or ""), alias.name)
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
    return found


def _project_modules() -> list[Path]:
    """Every Python file of the project, tests and benchmarks included (not the venv or build output)."""
    skipped = {"build", "dist", "__pycache__"}
    return [
        p
        for p in sorted(ROOT.rglob("*.py"))
        if not any(
            part.startswith(".") or part in skipped or part.endswith(".egg-info")
            for part in p.relative_to(ROOT).parts
        )
    ]


def test_no_module_imports_another_modules_private_name() -> None:
    """A helper two modules share (a drawing helper in render/, a fixture in tests/) is public in the
    module that owns it, so renaming a private name never breaks another module."""
    modules = _project_modules()
    assert any(p.relative_to(ROOT).parts[0] == "render" for p in modules)
    offenders = [
        f"{p.relative_to(ROOT)}:{line}: from {module} import {name}"
        for p in modules
        for line, module, name in _private_imports(p.read_text(encoding="utf-8"))
    ]
    assert not offenders, "private names imported from another module:\n" + "\n".join(offenders)


def test_a_planted_private_import_is_found() -> None:
    planted = (
        "from render.kit.png import BAND_ROWS\n"
        "from render.ignite.reading import (\n    field_of,\n    _names,\n)\n"
        "from __future__ import annotations\n"
    )
    assert _private_imports(planted) == [(2, "render.ignite.reading", "_names")]
