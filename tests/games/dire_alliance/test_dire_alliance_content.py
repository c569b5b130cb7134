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
    with pytest.raises(IllegalAction, match=r"No card `nobody`; Battle Mode cards: .*Raid Mode cards: "):
        GAME.card_text("nobody")
    parry = GAME.card_text("parry")
    assert "stand-in" in parry and "defence +2" in parry and "damage icons [1]" in parry
    bell = GAME.card_text("Mourning Bell")
    assert "stand-in" in bell and "white minions act" in bell and "Heal and Spawn / Melee / Move" in bell


def test_raid_content_is_consistent_and_scales_the_villains_health() -> None:
    raid = load_content().raid
    assert len(raid.heroes) == 4 and len(raid.classes) == 4
    assert all(len(k.cards) == 4 for k in raid.classes)
    assert sum(r.per_colour for r in raid.minions.ranks) * len(raid.minions.colours) == 20
    assert len(raid.scenario.objectives) == 5
    assert [raid.villain.health_for(n) for n in (1, 2, 3, 4)] == [3, 6, 9, 12]


def test_an_enemy_action_line_must_read_as_the_rulebook_writes_them(tmp_path: Path) -> None:
    raid = json.loads((DATA / "raid.json").read_text())
    raid["minions"]["ranks"][0]["actions"][1] = "Move then Melee or Shoot"
    (tmp_path / "raid.json").write_text(json.dumps(raid))
    with pytest.raises(
        ContentError, match=r"raid.json: entry minions.ranks\[0\].*joined by one of and/or/then"
    ):
        GAME.check_content(str(tmp_path))


def test_a_malformed_raid_file_names_the_file_the_entry_and_the_field(tmp_path: Path) -> None:
    raid = json.loads((DATA / "raid.json").read_text())
    raid["villain"]["health"] = "lots"
    (tmp_path / "raid.json").write_text(json.dumps(raid))
    with pytest.raises(ContentError) as err:
        GAME.check_content(str(tmp_path))
    assert str(err.value).startswith('raid.json: entry villain "The Hollow Warden", field `health`:')
    raid["villain"]["health"] = "4P"
    raid["scenario"]["villain_start"] = 40
    (tmp_path / "raid.json").write_text(json.dumps(raid))
    with pytest.raises(ContentError, match=r"raid.json: entry scenario .*area 40 is not on the Darkwood map"):
        GAME.check_content(str(tmp_path))


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
