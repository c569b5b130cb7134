"""The repository holds sources only: build output and data never get committed, and no file names a
path that exists on one machine.

A committed virtualenv names the absolute path of the checkout that built it, so a clone in any
other folder could not install; committed data or caches hide a missing install step from CI.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD_OUTPUT = (".venv/", "venv/", "data/", "bench/out/", "build/", "dist/")
# An absolute path into one machine's folders (a home, a workplace's checkout) as a string, a
# command's argument or a link: on any other machine, CI's clone among them, it is not there.
MACHINE_PATH = re.compile(r"""["'`(=\s](/(?:work|home|Users|root|mnt|srv)/[^\s"'`)]*)""")


def _tracked() -> list[str]:
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert tracked, "git ls-files listed nothing: not a checkout?"
    return tracked


def test_no_build_output_or_data_is_tracked_by_git() -> None:
    bad = [
        path
        for path in _tracked()
        if path.startswith(BUILD_OUTPUT)
        or "__pycache__/" in path
        or ".egg-info/" in path
        or "node_modules/" in path
    ]
    assert not bad, f"build output or data is tracked (git rm -r --cached it): {bad[:5]}"


def test_every_test_module_has_its_own_name() -> None:
    # Test folders are not packages, so pytest imports each module by its file name alone: two
    # files with one name stop the whole run at collection ("import file mismatch").
    seen: dict[str, Path] = {}
    clashes = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if path.name in seen:
            clashes.append(f"{seen[path.name].relative_to(ROOT)} and {path.relative_to(ROOT)}")
        seen.setdefault(path.name, path)
    assert not clashes, f"test modules share a name: {clashes}"


def test_no_file_names_a_path_on_one_machine() -> None:
    # Files beside the repository are found from it (`../shared/rulebooks`) or named by an
    # environment variable (RULEBOOKS_DIR).
    found = []
    for name in _tracked():
        path = ROOT / name
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # a picture, a font, a file deleted but not yet committed
        found += [f"{name}: {m.group(1)}" for m in MACHINE_PATH.finditer(text)]
    assert not found, f"paths that exist on one machine only: {found[:5]}"
