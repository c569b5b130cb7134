"""Privacy requests (docs/privacy.md), on both backends: a person's export holds everything
stored about them; once forgotten, no row of any table holds their id or name, their lobby seats
are free, their seat in a game under way is the bot's (which moves at the next tick if the turn
is its), and finished games keep their replay and result, naming a former player."""

from __future__ import annotations

import json
from pathlib import Path

from bot.host import Host
from bot.host.host import PRUNE_EVERY_S
from bot.host.privacy import FORMER_PLAYER
from engine import get_game
from storage import Repository, SessionRow
from tests.reliability.rel_kit import Clock, caller, ignis_between, live_state, open_host

ALICE = "alice-1234"  # distinctive: found in a row only if that row is about her
TABLES = (
    "sessions",
    "seats",
    "actions",
    "snapshots",
    "results",
    "result_seats",
    "frames",
    "meta",
    "channel_notes",
)


async def _every_row(repo: Repository) -> str:
    """Every row of every table, as text (frames' views are compressed: their captions are read)."""
    parts = []
    async with repo._backend.read() as tx:
        for table in TABLES:
            cols = "session_id, version, n, caption" if table == "frames" else "*"
            parts += [
                json.dumps([str(v) for v in r], ensure_ascii=False)
                for r in await tx.fetch(f"SELECT {cols} FROM {table}")
            ]
    return "\n".join(parts)


async def _three_games(host: Host) -> tuple[int, int]:
    """Alice beat by resignation (finished), alice playing (under way), alice in a lobby."""
    done = await ignis_between(host, "old", ALICE, "bob")
    _, _, _, legal = await live_state(host, "old")
    await host.command(caller(ALICE, "old"), "play", {"action": legal[0]})
    asked = await host.command(caller("bob", "old"), "resign", {})
    await host.press(caller("bob", "old"), asked[0].choices[0].custom_id)
    running = await ignis_between(host, "now", "carol", ALICE)  # carol fire moves first; alice water
    _, _, _, legal = await live_state(host, "now")
    await host.command(caller("carol", "now"), "play", {"action": legal[0]})  # now alice's turn
    await host.command(caller("dave", "wait"), "new", {"game": "ignis", "seat": "fire"})
    await host.command(caller(ALICE, "wait"), "join", {})
    await host.command(caller(ALICE, "wait"), "away", {"days": "3"})
    return done, running


async def test_an_export_holds_everything_and_forgetting_leaves_no_trace(db_target: str) -> None:
    host = await open_host(db_target, clock=Clock(), rate_limit_per_minute=0, renderer=None)
    try:
        done, running = await _three_games(host)
        data = await host.privacy.export(ALICE)
        assert {r["session_id"] for r in data["results"]} == {done}
        assert [r["result"] for r in data["results"]] == ["won"]
        assert {r["session_id"] for r in data["seats"]} == {done, running, running + 1}
        assert data["games_opened"][0]["id"] == done and data["moves"][0]["session_id"] == done
        assert set(data["kept"]) == {f"away:{ALICE}"}
        said = await host.privacy.forget(ALICE)
        assert "1 lobby seats freed, 1 seats of games under way handed on" in said
        assert ALICE not in await _every_row(host.repo), "no row keeps her id or name"
        # The finished game keeps its result and replay, naming a former player.
        old = await host.repo.session(done)
        assert old is not None and {s.user_name for s in old.seats} == {"bob", FORMER_PLAYER}
        assert [r.result for r in await host.repo.user_results("bob")] == ["lost"]
        assert await host.repo.user_results(ALICE) == []
        assert await host.repo.frames(done), "the replay outlives the link to her"
        lobby = await host.repo.open_session_in("wait")
        assert lobby is not None and [s.user_id for s in lobby.seats] == ["dave"]
        # The bot plays her seat, and moves at the next tick since the turn is its; the table hears.
        now = await host.repo.session(running)
        assert now is not None and now.seat_row("water") is not None
        assert now.seat_row("water").ai_level is not None  # type: ignore[union-attr]
        told = await host.tick()
        assert any(p.channel == "now" and "forget them" in p.text for p in told)
        assert any(p.channel == "now" and "water" in p.text and "plays" in p.text for p in told), [
            p.text for p in told
        ]
        after = await host.privacy.export(ALICE)
        assert not any(after[k] for k in ("games_opened", "seats", "moves", "results", "notes_owed", "kept"))
    finally:
        await host.close()


async def test_a_finished_game_past_its_keeping_time_keeps_only_its_replay_seats_and_result(
    db_target: str,
) -> None:
    clock = Clock()
    host = await open_host(db_target, clock=clock, rate_limit_per_minute=0, keep_finished_days=30)
    try:
        done, running = await _three_games(host)
        captions = [c for _, c in await host.replays.captioned(await _row(host, done), get_game("ignis"))]
        clock.now += 29 * 86400
        await host.tick()
        assert await host.repo.actions(done), "kept for 30 days"
        clock.now += 2 * 86400 + PRUNE_EVERY_S
        await host.tick()
        assert await host.repo.actions(done) == [] and await host.repo.state(done) is None
        assert await host.repo.actions(running), "a game under way is never pruned"
        # The replay and the result outlive it, its captions as they were told.
        replay = await host.command(caller("bob", "old"), "replay", {})
        assert replay[0].to == "bob" and replay[0].files, replay[0].text
        assert [
            c for _, c in await host.replays.captioned(await _row(host, done), get_game("ignis"))
        ] == captions
        assert [r.result for r in await host.repo.user_results("bob")] == ["lost"]
    finally:
        await host.close()


async def _row(host: Host, session_id: int) -> SessionRow:
    row = await host.repo.session(session_id)
    assert row is not None
    return row


async def test_a_pruned_game_says_so_rather_than_that_it_has_not_started(tmp_path: Path) -> None:
    clock = Clock()
    host = await open_host(tmp_path / "h.sqlite3", clock=clock, rate_limit_per_minute=0, keep_finished_days=1)
    try:
        await _three_games(host)
        clock.now += 3 * 86400
        await host.tick()
        said = await host.command(caller("bob", "old"), "export", {})
        assert said[0].to == "bob" and "no longer kept" in said[0].text and "not started" not in said[0].text
    finally:
        await host.close()
