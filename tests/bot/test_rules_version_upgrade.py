"""Proof that a rules change keeps stored games as they were played: a session stored under
version 1 of Ignis's rules, copied by `python -m bot migrate` after an upgrade that changes a rule
under version 2 (tests/engine/changed_rule.py), goes on under version 1 through play, undo,
recap, replay, export and `verify`, while a game opened after the upgrade plays version 2. The
copy is made into SQLite and PostgreSQL (db_target)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.config import Settings
from bot.host import Host
from bot.posts import Caller
from engine import Dice, get_game, rules_of
from engine.fairness import verify
from engine.game import RULES
from tests.engine.changed_rule import change_ignis

ALICE, BOB = Caller("alice", "alice", "old", guild="g"), Caller("bob", "bob", "old", guild="g")


def _in(channel: str, who: Caller) -> Caller:
    return Caller(who.user_id, who.name, channel, guild="g")


async def _open(host: Host, channel: str, seed: int) -> None:
    await host.command(_in(channel, ALICE), "new", {"game": "ignis", "seed": str(seed), "seat": "fire"})
    await host.command(_in(channel, BOB), "join", {})
    assert "begins" in (await host.command(_in(channel, ALICE), "start", {}))[0].text


async def _state(host: Host, channel: str) -> dict[str, Any]:
    row = await host.repo.open_session_in(channel)
    assert row is not None
    return await host.repo.state(row.id) or {}


async def _move(host: Host, channel: str, dice: Dice) -> tuple[int, int]:
    """One seeded legal move; the quiet-ply count before and after it."""
    game = get_game("ignis")
    before = await _state(host, channel)
    state = game.from_json(before)
    seat = sorted(game.to_act(state).seats)[0]
    who = _in(channel, ALICE if seat == "fire" else BOB)
    posts = await host.command(who, "play", {"action": str(dice.choice(game.legal_actions(state, seat)))})
    assert posts[0].to is None, posts[0].text
    return int(before["quiet"]), int((await _state(host, channel))["quiet"])


async def test_a_session_stored_under_version_1_goes_on_under_it_after_the_rules_change(
    tmp_path: Path, db_target: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "before-the-upgrade.sqlite3"
    host = await Host.open(Settings(db_path=str(source), rate_limit_per_minute=0), renderer=None)
    await _open(host, "old", seed=4)
    dice = Dice(4)
    for _ in range(6):
        await _move(host, "old", dice)
    await host.close()

    change_ignis(monkeypatch, bump=True)  # the upgrade: a rule changed under version 2
    # The command line's own code, in this process so that it runs the upgraded rules.
    await asyncio.to_thread(
        main, ["migrate", "--from", f"sqlite:{source}", "--to", db_target, "--env-file", "/nonexistent"]
    )
    report = capsys.readouterr().out
    assert "Copied 1 sessions" in report and "2 snapshots equal to the replay" in report, report
    assert "Not copied" not in report

    host = await Host.open(Settings(db_path=db_target, rate_limit_per_minute=0))
    try:
        row = await host.repo.open_session_in("old")
        assert row is not None and rules_of(row.options) == 1
        # Play: a quiet ply counts once, as under version 1.
        for _ in range(3):
            was, now = await _move(host, "old", dice)
            assert now in (0, was + 1)
        # Undo: back to the position stored before the move, replayed under version 1.
        earlier = await _state(host, "old")
        await _move(host, "old", dice)
        row = await host.repo.open_session_in("old")
        assert row is not None
        last = (await host.repo.actions(row.id))[-1]
        undone = await host.command(_in("old", ALICE if last.seat == "fire" else BOB), "undo", {})
        assert "took back" in undone[0].text, undone[0].text
        assert await _state(host, "old") == earlier
        # Recap and replay read what was stored.
        recap = await host.command(_in("old", ALICE), "recap", {})
        assert recap and all("went wrong" not in p.text for p in recap), recap
        replay = await host.command(_in("old", ALICE), "replay", {})
        assert replay[0].files, replay[0].text
        # Export and verify: seed + moves replay under the version the game names.
        asked = await host.command(_in("old", BOB), "resign", {})
        await host.press(_in("old", BOB), asked[0].choices[0].custom_id)
        [export] = (await host.command(_in("old", ALICE), "export", {}))[0].files
        data = json.loads(export.data)
        assert data["options"][RULES] == "1" and data["status"] == "finished"
        assert verify(data) == []
        assert verify({**data, "options": {**data["options"], RULES: "2"}}) != [], "the changed rule matters"

        # A game opened after the upgrade plays version 2: a quiet ply counts twice.
        await _open(host, "new", seed=4)
        row = await host.repo.open_session_in("new")
        assert row is not None and row.options[RULES] == "2"
        steps = [await _move(host, "new", Dice(4)) for _ in range(3)]
        assert any(now == was + 2 for was, now in steps) and all(now in (0, was + 2) for was, now in steps)
    finally:
        await host.close()
