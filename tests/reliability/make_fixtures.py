"""Writes the upgrade fixtures: a database at storage schema 1 and an Ignis snapshot at state schema 1.

Run once with `.venv/bin/python tests/reliability/make_fixtures.py`; the files are committed and the
upgrade tests only ever read copies of them. Schema 1 is pinned here so a rerun stays at schema 1.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE)]

from rel_kit import Clock, caller, resign  # noqa: E402

import storage.repository  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.host import Host  # noqa: E402
from engine import Dice, get_game  # noqa: E402
from storage.migrations import MIGRATIONS  # noqa: E402

DB = HERE / "fixtures" / "schema1.sqlite3"
FACTS = HERE / "fixtures" / "schema1.facts.json"
SNAPSHOT = HERE / "fixtures" / "ignis_state_schema1.json"
IGNITE_SNAPSHOT = HERE / "fixtures" / "ignite_state_schema1.json"


def write_ignite_snapshot() -> None:
    """An Ignite state part-way through, after enemy phases: hands, decks, minions, dice all set."""
    game = get_game("ignite")
    options = game.validate_options({})
    state = game.setup(game.seat_names(options)[:3], options, 31)
    dice = Dice(31)
    for _ in range(60):
        turn = game.to_act(state)
        seat = sorted(turn.seats)[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        game.act(state, seat, "end" if "end" in legal and dice.below(3) == 0 else dice.choice(legal))
        if game.outcome(state) is not None:
            break
    assert game.outcome(state) is None, "pick another seed: the fixture should be a running game"
    IGNITE_SNAPSHOT.write_text(json.dumps(game.to_json(state), indent=1) + "\n", encoding="utf-8")


async def _play(host: Host, channel: str, users: dict[str, str], moves: int, seed: int) -> list[str]:
    dice = Dice(seed)
    played: list[str] = []
    for _ in range(moves):
        row = await host.repo.open_session_in(channel)
        assert row is not None
        game = get_game(row.game)
        state = game.from_json(await host.repo.state(row.id) or {})
        seat = sorted(game.to_act(state).seats)[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        move = legal[dice.below(len(legal))]
        posts = await host.command(caller(users[seat], channel), "play", {"action": move})
        assert posts[0].to is None, posts[0].text
        played.append(move)
    return played


async def main() -> None:
    storage.repository.MIGRATIONS = MIGRATIONS[:1]  # the schema as it shipped first
    for path in (DB, DB.with_name(DB.name + "-wal"), DB.with_name(DB.name + "-shm")):
        path.unlink(missing_ok=True)
    host = await Host.open(Settings(db_path=str(DB)), renderer=None, clock=Clock())
    assert await host.repo.schema_version() == 1
    admin = caller("admin", "old-active", manager=True)
    await host.command(admin, "settings", {"name": "reminder_hours", "value": "6"})
    # A running game between two people, mid-way.
    await host.command(caller("alice", "old-active"), "new", {"game": "ignis", "seed": "21", "seat": "fire"})
    await host.command(caller("bob", "old-active"), "join", {})
    await host.command(caller("alice", "old-active"), "start", {})
    active = await _play(host, "old-active", {"fire": "alice", "water": "bob"}, 6, 3)
    # A game against the bot.
    await host.command(caller("carol", "old-bot"), "new", {"game": "ignis", "seed": "8", "seat": "fire"})
    await host.command(caller("carol", "old-bot"), "ai", {"seat": "water", "level": "easy"})
    await host.command(caller("carol", "old-bot"), "start", {})
    bot_moves = await _play(host, "old-bot", {"fire": "carol"}, 3, 4)
    # A finished game and a lobby still waiting for players.
    await host.command(caller("dave", "old-finished"), "new", {"game": "ignis", "seed": "2", "seat": "fire"})
    await host.command(caller("erin", "old-finished"), "join", {})
    await host.command(caller("dave", "old-finished"), "start", {})
    await _play(host, "old-finished", {"fire": "dave", "water": "erin"}, 2, 5)
    await resign(host, "erin", "old-finished")
    await host.command(caller("frank", "old-lobby"), "new", {"game": "ignis", "seed": "9", "seat": "water"})

    row = await host.repo.open_session_in("old-active")
    assert row is not None
    SNAPSHOT.write_text(json.dumps(await host.repo.state(row.id), indent=1) + "\n", encoding="utf-8")
    facts = {
        "schema": 1,
        "active_moves": active,
        "active_version": row.version,
        "bot_human_moves": bot_moves,
    }
    FACTS.write_text(json.dumps(facts, indent=1) + "\n", encoding="utf-8")
    await host.close()


if __name__ == "__main__":
    if sys.argv[1:] == ["ignite"]:  # added later: only the Ignite snapshot, leaving the rest as written
        write_ignite_snapshot()
    else:
        asyncio.run(main())
        write_ignite_snapshot()
