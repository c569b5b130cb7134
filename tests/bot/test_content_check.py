"""Content files are validated at start, and a group may bring its own (CONTENT_DIR)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.host import check_content
from engine import get_game
from games.ignite.content import DATA

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def restore_shipped_content() -> Iterator[None]:
    yield
    check_content(Settings())  # back to the shipped stand-in data for every other test


def test_a_malformed_content_file_stops_the_start_naming_file_entry_and_field(tmp_path: Path) -> None:
    folder = tmp_path / "content" / "ignite"
    folder.mkdir(parents=True)
    races = json.loads((DATA / "races.json").read_text())
    races["races"][1]["health"] = "three"
    (folder / "races.json").write_text(json.dumps(races))
    (tmp_path / "test.env").write_text(f"CONTENT_DIR={tmp_path / 'content'}\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--env-file",
            str(tmp_path / "test.env"),
            "--db",
            str(tmp_path / "d.sqlite3"),
        ],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert result.returncode != 0
    assert "races.json" in result.stderr and '"{}"'.format(races["races"][1]["name"]) in result.stderr
    assert "`health`" in result.stderr


def test_a_groups_own_content_replaces_the_stand_in_file(
    tmp_path: Path, restore_shipped_content: None
) -> None:
    folder = tmp_path / "ignite"
    folder.mkdir()
    races = json.loads((DATA / "races.json").read_text())
    races["races"][1]["name"] = "granitefolk"
    (folder / "races.json").write_text(json.dumps(races))
    check_content(Settings(content_dir=str(tmp_path)))
    game = get_game("ignite")
    assert "granitefolk" in game.seat_names(game.validate_options({}))
    check_content(Settings())
    assert "granitefolk" not in game.seat_names(game.validate_options({}))
