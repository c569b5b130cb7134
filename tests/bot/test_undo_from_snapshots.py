"""Undo without blocking (issue 18): the host takes a move back from the nearest kept snapshot,
replaying only the moves after it, off the event loop, and lands exactly where a whole replay of
seed + the moves in force lands."""

from __future__ import annotations

from pathlib import Path

from bot.config import Settings
from bot.host import Host
from bot.posts import Caller
from engine import Dice, get_game
from storage.play_log import SNAPSHOT_EVERY


async def test_an_undo_late_in_a_game_loads_a_kept_snapshot_and_matches_a_whole_replay(
    tmp_path: Path,
) -> None:
    host = await Host.open(Settings(db_path=str(tmp_path / "u.sqlite3"), rate_limit_per_minute=0))
    users = {"fire": Caller("alice", "alice", "t"), "water": Caller("bob", "bob", "t")}
    await host.command(users["fire"], "new", {"game": "ignis", "seed": "8", "seat": "fire"})
    await host.command(users["water"], "join", {})
    await host.command(users["fire"], "start", {})
    game, dice = get_game("ignis"), Dice(8)
    played = 0
    while played < 2 * SNAPSHOT_EVERY + 3:
        row = await host.repo.open_session_in("t")
        assert row is not None
        state = game.from_json(await host.repo.state(row.id) or {})
        seat = sorted(game.to_act(state).seats)[0]
        legal = game.legal_actions(state, seat)
        assert (await host.command(users[seat], "play", {"action": str(dice.choice(legal))}))[0].to is None
        played += 1
    assert len(await host.repo.snapshot_versions(row.id)) < played, "old snapshots were pruned"
    last = sorted(game.to_act(game.from_json(await host.repo.state(row.id) or {})).seats)[0]
    mover = "water" if last == "fire" else "fire"  # the seat that just moved takes it back
    bases = []
    load = host.repo.load_for_undo

    async def spy(session_id: int, version: int) -> object:
        bases.append(await load(session_id, version))
        return bases[-1]

    host.repo.load_for_undo = spy  # type: ignore[method-assign]
    answer = await host.command(users[mover], "undo", {})
    assert "took back" in answer[0].text
    assert bases and bases[0] is not None and len(bases[0].moves_after) < SNAPSHOT_EVERY, (
        "the undo started from a kept snapshot, replaying fewer than SNAPSHOT_EVERY moves"
    )
    moves = [(a.seat, a.notation) for a in await host.repo.actions(row.id) if a.kind == "action"][:-1]
    replay = game.setup(["fire", "water"], row.options, row.seed)
    for seat, notation in moves:
        game.act(replay, seat or "", notation)
    assert await host.repo.state(row.id) == game.to_json(replay)
    await host.close()
