"""Dire Alliance content: the stand-in data loads and is consistent, a group's own files are used,
and a malformed one is refused with the file, the entry and the field named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import IllegalAction, get_game
from engine.content import ContentError
from games.dire_alliance import content as content_module
from games.dire_alliance.content import DATA, load_content

GAME = get_game("dire-alliance")


@pytest.fixture(autouse=True)
def _shipped_after() -> object:
    yield None
    content_module.use_folder(None)


def test_the_darkwood_map_is_consistent_and_sight_runs_both_ways() -> None:
    c = load_content()
    ids = {a.id for a in c.board.areas}
    assert ids == set(range(1, 13))
    for a in ids:
        assert c.neighbours(a), f"area {a} has no neighbour"
        for b in ids:
            assert c.sees(a, b) == c.sees(b, a)
            assert c.steps[(a, b)] == c.steps[(b, a)]


def test_every_card_text_says_stand_in_and_names_its_special_actions() -> None:
    text = GAME.card_text("The Unbroken")
    assert "stand-in" in text and "Frenzy" in text and "melee 3" in text
    assert "stand-in" in GAME.card_text("dread")
    with pytest.raises(IllegalAction, match="No card `nobody`; cards: "):
        GAME.card_text("nobody")


def test_a_groups_own_file_replaces_ours_and_the_rest_fall_back(tmp_path: Path) -> None:
    dice = json.loads((DATA / "dice.json").read_text())
    dice["combat"] = ["hit"] * 6
    (tmp_path / "dice.json").write_text(json.dumps(dice))
    GAME.check_content(str(tmp_path))
    c = load_content()
    assert c.dice.combat == ("hit",) * 6 and c.board.name == "Darkwood"


def test_a_malformed_file_names_the_file_the_entry_and_the_field(tmp_path: Path) -> None:
    roster = json.loads((DATA / "fighters.json").read_text())
    roster["factions"][1]["fighters"][1]["melee"] = "lots"
    (tmp_path / "fighters.json").write_text(json.dumps(roster))
    with pytest.raises(ContentError) as err:
        GAME.check_content(str(tmp_path))
    assert str(err.value).startswith(
        'fighters.json: entry factions[1].fighters[1] "The Butcher", field `melee`: '
        'Input should be a valid integer (got "lots")'
    )


def test_a_scenario_naming_an_area_off_the_map_is_refused(tmp_path: Path) -> None:
    scen = json.loads((DATA / "scenarios.json").read_text())
    scen["scenarios"][0]["deploy"]["red"] = 40
    (tmp_path / "scenarios.json").write_text(json.dumps(scen))
    with pytest.raises(ContentError, match=r"scenarios.json: entry .*beaten-path.*area 40 is not on"):
        GAME.check_content(str(tmp_path))
