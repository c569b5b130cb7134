"""The tree stays `ruff` clean and as `ruff format` writes it, and `mypy --strict` passes on bot/,
engine/, games/, render/ and storage/ (the packages pyproject.toml names), checked as part of the
normal test command. Each tool runs once over the whole tree (ruff in a fraction of a second, mypy in
seconds from a cold cache, as CI's clean clone has), and at the release series the dev extra holds it
to, so a fresh install cannot judge the tree differently."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert found, f"{name} is part of the dev extra"
    return found


def test_ruff_finds_nothing() -> None:
    result = subprocess.run([_tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_would_change_nothing() -> None:
    result = subprocess.run(
        [_tool("ruff"), "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_passes_on_every_package() -> None:
    # mypy's own cache in the tree (.mypy_cache, ignored by git), shared with a developer's runs by
    # hand: a rerun checks only what changed (under a second, where a cold run takes ~10 s).
    result = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_linters_are_held_to_one_release_series() -> None:
    """ruff and mypy in the dev extra have an upper bound, and the installed ones are within it: a new
    minor release (new rules, a new format style) never fails CI's fresh install on an unchanged tree."""
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    held = {r.name: r for r in map(Requirement, extra) if r.name in ("ruff", "mypy")}
    assert set(held) == {"ruff", "mypy"}
    for name, requirement in held.items():
        assert any(s.operator in ("<", "<=", "~=", "==") for s in requirement.specifier), requirement
        assert requirement.specifier.contains(version(name)), f"{name} {version(name)} outside {requirement}"
