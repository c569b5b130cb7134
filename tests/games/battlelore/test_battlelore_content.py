"""BattleLore content as validated data: the shipped files load and cross-check, a group's own file
(CONTENT_DIR/battlelore/) replaces ours file by file, and a bad one is named by file, entry and field."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers_battlelore import GAME

from engine.content import ContentError
from games.battlelore.content import DATA, load_content, use_folder


@pytest.fixture
def own_folder(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path
    use_folder(None)  # back to the shipped content for every other test


def test_the_shipped_content_loads_and_every_stand_in_says_so() -> None:
    GAME.check_content(None)
    c = load_content()
    assert len(c.units) >= 10 and {"daqan", "uthuk"} <= set(c.decks)
    about = json.loads((DATA / "units.json").read_text())["about"]
    assert "stand-in" in about and "move 3, combat 4, health 6" in about


def test_a_groups_own_file_replaces_ours(own_folder: Path) -> None:
    data = json.loads((DATA / "rules.json").read_text())
    data["victory_vp"] = 12
    (own_folder / "rules.json").write_text(json.dumps(data))
    GAME.check_content(str(own_folder))
    assert load_content().rules.victory_vp == 12
    assert load_content().units["great-dragon"].health == 6  # the files it lacks are ours


def test_a_bad_file_is_named_by_file_entry_and_field(own_folder: Path) -> None:
    data = json.loads((DATA / "units.json").read_text())
    data["units"][0]["combat"] = "three"
    (own_folder / "units.json").write_text(json.dumps(data))
    with pytest.raises(ContentError, match=r"units\.json.*citadel-guard.*combat"):
        GAME.check_content(str(own_folder))


def test_a_reference_between_files_must_resolve(own_folder: Path) -> None:
    data = json.loads((DATA / "armies.json").read_text())
    data["armies"][0]["units"].append("no-such-unit")
    (own_folder / "armies.json").write_text(json.dumps(data))
    with pytest.raises(ContentError, match=r"armies\.json.*citadel-line.*units"):
        GAME.check_content(str(own_folder))


def test_a_command_deck_smaller_than_an_opening_hand_is_refused(own_folder: Path) -> None:
    data = json.loads((DATA / "commands.json").read_text())
    data["cards"] = [dict(data["cards"][0], copies=2)]
    (own_folder / "commands.json").write_text(json.dumps(data))
    with pytest.raises(ContentError, match=r"commands\.json.*at least 6"):
        GAME.check_content(str(own_folder))
