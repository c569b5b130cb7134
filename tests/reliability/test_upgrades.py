"""Upgrades: a database written by an older storage schema migrates and its games go on; stored
snapshots from an older state schema still load. The fixtures were written by the shipped code.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from rel_kit import FIXTURES, Clock, caller, live_state, open_host

from engine import Dice, all_games, get_game
from storage import Repository
from storage.migrations import MIGRATIONS

OLD_DB = FIXTURES / "schema1.sqlite3"
FACTS = json.loads((FIXTURES / "schema1.facts.json").read_text(encoding="utf-8"))


def _copy(tmp_path: Path) -> Path:
    db = tmp_path / "old.sqlite3"
    shutil.copyfile(OLD_DB, db)  # never touch the fixture itself
    return db


def _user_version(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("PRAGMA user_version").fetchone()[0])
    finally:
        con.close()


def test_fixture_is_really_an_older_schema() -> None:
    assert FACTS["schema"] == 1 and _user_version(OLD_DB) == 1 < len(MIGRATIONS)


async def test_old_database_migrates_to_the_current_schema(tmp_path: Path) -> None:
    db = _copy(tmp_path)
    repo = await Repository.open(str(db))
    assert await repo.schema_version() == len(MIGRATIONS)
    await repo.close()
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    # Migration 2's index serves the latest-session lookup (the query Repository.latest_session_in runs).
    plan = con.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM sessions WHERE channel=? "
        "ORDER BY (status IN ('lobby','active')) DESC, id DESC LIMIT 1",
        ("old-active",),
    ).fetchall()
    con.close()
    assert any("sessions_by_channel" in str(step) for step in plan), plan


async def test_migrated_games_keep_every_move_and_continue_to_the_end(tmp_path: Path) -> None:
    host = await open_host(_copy(tmp_path), renderer=None)
    row = await host.repo.open_session_in("old-active")
    assert row is not None and row.version == FACTS["active_version"]
    assert [a.notation for a in await host.repo.actions(row.id)] == FACTS["active_moves"]
    assert (await host.repo.guild_settings("g1")) == {"reminder_hours": "6.0"}
    users = {"fire": "alice", "water": "bob"}
    dice = Dice(17)
    for _ in range(400):
        if await host.repo.open_session_in("old-active") is None:
            break
        _, _, seat, legal = await live_state(host, "old-active")
        posts = await host.command(caller(users[seat], "old-active"), "play", {"action": dice.choice(legal)})
        assert posts[0].to is None, posts[0].text
    finished = await host.repo.latest_session_in("old-active")
    assert finished is not None and finished.status == "finished"
    await host.close()


async def test_migrated_bot_game_lobby_and_finished_game_all_work(tmp_path: Path) -> None:
    host = await open_host(_copy(tmp_path), renderer=None, clock=Clock())
    _, _, seat, legal = await live_state(host, "old-bot")
    assert seat == "fire"
    posts = await host.command(caller("carol", "old-bot"), "play", {"action": legal[0]})
    assert any("The bot (water, easy) plays" in p.text for p in posts)
    assert "frank" in (await host.command(caller("gina", "old-lobby"), "status", {}))[0].text
    assert (await host.command(caller("gina", "old-lobby"), "join", {}))[0].to is None
    assert "begins" in (await host.command(caller("frank", "old-lobby"), "start", {}))[0].text
    export = await host.command(caller("dave", "old-finished"), "export", {})
    data = json.loads(export[0].files[0].data)
    assert data["status"] == "finished" and data["outcome"]["winners"] == ["fire"]
    await host.close()


def test_a_stored_ignis_snapshot_of_state_schema_1_still_loads_and_plays() -> None:
    data = json.loads((FIXTURES / "ignis_state_schema1.json").read_text(encoding="utf-8"))
    game = get_game("ignis")
    assert data["schema"] == 1
    state = game.from_json(data)
    assert game.to_json(state) == data
    seat = sorted(game.to_act(state).seats)[0]
    legal = game.legal_actions(state, seat)
    game.act(state, seat, str(legal[0]))
    assert game.to_json(state) != data


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*_state_schema*.json")), ids=lambda p: p.stem)
def test_every_stored_state_fixture_loads_and_play_goes_on(path: Path) -> None:
    # `<game>_state_schema<N>.json`: a snapshot as the game's code of that schema wrote it.
    game = get_game(path.stem.split("_state_")[0])
    data = json.loads(path.read_text(encoding="utf-8"))
    state = game.from_json(data)
    assert game.outcome(state) is None
    seat = sorted(game.to_act(state).seats)[0]
    legal = game.legal_actions(state, seat)
    assert legal, f"{seat} is to act in the stored {game.id} game but has no move"
    game.act(state, seat, str(legal[0]))
    assert game.to_json(state)["schema"] == game.schema_version


def test_ignis_refuses_a_snapshot_from_newer_code_instead_of_misreading_it() -> None:
    data = json.loads((FIXTURES / "ignis_state_schema1.json").read_text(encoding="utf-8"))
    data["schema"] = 99
    with pytest.raises(ValueError, match="newer"):
        get_game("ignis").from_json(data)


def test_every_game_round_trips_a_snapshot_of_its_current_schema() -> None:
    for game in all_games():
        options = game.validate_options({})
        lo, _ = game.seat_range(options)
        state = game.setup(game.seat_names(options)[: max(lo, 1)], options, 3)
        data = json.loads(json.dumps(game.to_json(state)))
        assert data["schema"] == game.schema_version, game.id
        assert game.to_json(game.from_json(data)) == data, game.id
