"""Rules versions, held by stored reference games (tests/engine/reference_games.py): every
registered game and mode has reference games for the rules version it plays now, and every
reference game ever recorded, under any version, still replays exactly as it did. So a change
that alters play without a new `rules_version` fails here, and a fix that keeps the old behaviour
for sessions opened under the old version passes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import get_game
from engine.fairness import verify
from engine.game import RULES
from tests.engine.changed_rule import change_ignis
from tests.engine.reference_games import RECORD, Variant, record_file, replay_problem, stored, variants

VARIANTS = variants()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_game_and_mode_has_reference_games_for_its_rules_version(variant: Variant) -> None:
    version = variant.game.rules_version
    path = variant.path(version)
    assert path.exists(), (
        f"{variant.name} plays rules version {version} and has no reference games for it: record them "
        f"with `{RECORD}` (the older ones stay: they prove old sessions still replay)."
    )


@pytest.mark.parametrize("path", stored(), ids=lambda p: p.stem)
def test_every_reference_game_replays_as_recorded(path: Path) -> None:
    data = json.loads(path.read_text())
    assert int(data["options"][RULES]) <= get_game(data["game"]).rules_version, (
        f"{path.name} was recorded under a rules version this code does not play"
    )
    problem = replay_problem(data)
    assert problem is None, problem


def test_every_variant_has_stored_reference_games_and_no_stray_files() -> None:
    # A file whose game or mode is gone would never be checked against anything.
    names = {v.name for v in VARIANTS}
    strays = [p.name for p in stored() if p.name.split(".rules-")[0] not in names]
    assert not strays, f"reference games of no registered game or mode: {strays}"


def _ignis_references() -> dict[str, object]:
    data: dict[str, object] = json.loads(Variant(get_game("ignis"), {}).path(1).read_text())
    return data


def test_a_rule_changed_without_a_new_version_fails_the_reference_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    change_ignis(monkeypatch, bump=False)
    problem = replay_problem(_ignis_references())
    assert problem is not None
    assert "bump `rules_version` of ignis (and record new reference games" in problem
    assert "if the change was not meant to alter play, find what did" in problem
    assert "the state after move " in problem, "the first move that differs is named"


def test_the_same_rule_changed_under_a_new_version_keeps_the_old_games_and_asks_for_new_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    change_ignis(monkeypatch, bump=True)
    assert replay_problem(_ignis_references()) is None, "sessions opened under version 1 replay as they did"
    ignis = next(v for v in variants() if v.name == "ignis")
    assert not ignis.path(2).exists(), "the check of the current version asks for version 2's games"
    # Games recorded now are played under version 2, where the changed rule applies.
    fresh = record_file(ignis)
    assert fresh["options"] == {RULES: "2"}
    as_if_version_1 = {**fresh, "options": {RULES: "1"}}
    assert replay_problem(as_if_version_1) is not None


def test_an_export_made_before_rules_versions_verifies_as_version_1(monkeypatch: pytest.MonkeyPatch) -> None:
    ignis = get_game("ignis")
    ref = _ignis_references()["games"][0]  # type: ignore[index]
    state = ignis.setup(ref["seats"], {}, ref["seed"])
    for seat, notation in ref["moves"]:
        ignis.act(state, seat, notation)
    export = {
        "game": "ignis",
        "options": {},  # written before versions existed: no `rules`
        "seats": [{"seat": s} for s in ref["seats"]],
        "seed": ref["seed"],
        "moves": [{"seat": seat, "notation": notation} for seat, notation in ref["moves"]],
        "final_state": ignis.to_json(state),
    }
    change_ignis(monkeypatch, bump=True)
    assert verify(export) == []
    assert verify({**export, "options": {RULES: "2"}}) != [], "under version 2 the same moves differ"
