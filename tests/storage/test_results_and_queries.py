"""What the host asks for beyond one session: results written when a game ends, /stats, /game mine,
the per-user lobby count."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from storage import Repository, SeatRow, WritesRefused
from tests.storage.databases import Opener
from tests.storage.kit import move, playing

FIXTURE = Path(__file__).parents[1] / "reliability" / "fixtures" / "schema1.sqlite3"


async def test_finishing_a_game_writes_its_result_in_the_same_transaction(open_repo: Opener) -> None:
    repo = await open_repo()
    sid, v = await playing(repo, users=("ann", "ben"))
    v = await move(repo, sid, v, 1, seat="s0", user="ann")
    v = await move(repo, sid, v, 2, seat="s1", user="ben")
    v = await repo.commit_action(
        sid,
        v,
        kind="undo",
        seat="s1",
        user_id="ben",
        notation="undo 2",
        summary="",
        undoable=False,
        state={"n": 1},
    )
    v = await move(repo, sid, v, 3, seat="s1", user="ben")
    outcome = {"winners": ["s1"], "losers": ["s0"], "reason": "ben made a line"}
    await move(repo, sid, v, 4, seat="s0", user="ann", status="finished", outcome=outcome, rounds=2, score=17)
    result = await repo.result(sid)
    assert result is not None
    assert result["outcome"] == outcome and result["rounds"] == 2 and result["score"] == 17
    assert result["moves"] == 3  # the move taken back does not count
    assert result["duration_s"] >= 0 and result["ended"] >= result["started"]
    seats = {s["seat"]: s for s in result["seats"]}
    assert (seats["s0"]["result"], seats["s0"]["moves"]) == ("lost", 2)
    assert (seats["s1"]["result"], seats["s1"]["moves"]) == ("won", 1)
    assert seats["s1"]["user_id"] == "ben" and seats["s1"]["turn_seconds"] >= 0
    await repo.close()


async def test_a_game_that_is_not_finished_has_no_result(open_repo: Opener) -> None:
    repo = await open_repo()
    sid, v = await playing(repo)
    await repo.update_session(sid, v, status="abandoned")
    assert await repo.result(sid) is None
    await repo.close()


async def test_stats_count_each_game_once_per_user_by_game_and_server(open_repo: Opener) -> None:
    repo = await open_repo()
    for i, winner in enumerate(["s0", "s1", "s0"]):
        sid, v = await playing(repo, f"c{i}", guild="g1" if i < 2 else "g2", users=("ann", "ben"))
        v = await move(repo, sid, v, 1, seat="s0", user="ann")
        loser = "s1" if winner == "s0" else "s0"
        await move(
            repo,
            sid,
            v,
            2,
            seat="s1",
            user="ben",
            status="finished",
            outcome={"winners": [winner], "losers": [loser], "reason": "r"},
        )
    sid, v = await playing(repo, "draw", guild="g1", users=("ann", "ben"))
    await repo.update_session(
        sid, v, status="finished", outcome={"winners": [], "losers": [], "reason": "draw"}
    )
    everywhere = await repo.user_stats("ann")
    assert [(s.game, s.played, s.won, s.lost, s.drew, s.moves) for s in everywhere] == [
        ("ignis", 4, 2, 1, 1, 3)
    ]
    assert everywhere[0].avg_turn_s is not None and everywhere[0].avg_turn_s >= 0
    in_g1 = await repo.user_stats("ann", "g1")
    assert [(s.played, s.won, s.lost, s.drew) for s in in_g1] == [(3, 1, 1, 1)]
    assert await repo.user_stats("nobody") == []
    await repo.close()


async def test_open_games_of_a_user_in_one_server_longest_waiting_first(open_repo: Opener) -> None:
    repo = await open_repo()
    newer, v1 = await playing(repo, "x", guild="g", users=("ann", "ben"))
    older, v2 = await playing(repo, "y", guild="g", users=("ben", "ann"))
    await repo.update_session(newer, v1, turn_since=2000.0, waiting_on=["s1"])
    await repo.update_session(older, v2, turn_since=1000.0, waiting_on=["s1"])
    await playing(repo, "z", guild="other", users=("ann",))
    lobby = await repo.create_session(
        guild="g",
        channel="w",
        game="ignis",
        options={},
        seed=1,
        host_user="carl",
        seat=SeatRow("s0", "carl", "C", None),
    )
    rows = await repo.open_games_of("ann", "g")
    assert [r.id for r in rows] == [older, newer]
    assert rows[0].waiting_on == ["s1"] and rows[0].turn_since == 1000.0
    assert rows[0].seat_row("s1") == SeatRow("s1", "ann", "ANN", None)
    assert [r.id for r in await repo.open_games_of("carl", "g")] == [lobby]
    await repo.close()


async def test_open_lobbies_are_counted_per_user_across_servers(open_repo: Opener) -> None:
    repo = await open_repo()
    for i in range(3):
        await repo.create_session(
            guild=f"g{i}", channel=f"c{i}", game="ignis", options={}, seed=1, host_user="ann"
        )
    await playing(repo, "started", users=("ann",))  # a started game is no longer a lobby
    await repo.create_session(guild="g0", channel="b", game="ignis", options={}, seed=1, host_user="ben")
    assert await repo.count_open_lobbies("ann") == 3
    assert await repo.count_open_lobbies("ann", "g1") == 1
    assert await repo.count_open_lobbies("ben") == 1
    await repo.close()


async def test_an_old_database_gains_results_for_its_finished_games(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURE, db)
    repo = await Repository.open(str(db))
    finished = await repo.latest_session_in("old-finished")
    assert finished is not None and finished.status == "finished"
    result = await repo.result(finished.id)
    assert result is not None and result["outcome"] == finished.outcome
    assert {s["result"] for s in result["seats"]} == {"won", "lost"}
    await repo.close()


async def test_writes_refused_leave_reads_working(open_repo: Opener) -> None:
    repo = await open_repo()
    sid, v = await playing(repo)
    repo._refusing = "a damaged page"  # what a failed health_check leaves behind
    with pytest.raises(WritesRefused):
        await move(repo, sid, v, 1)
    assert await repo.state(sid) == {"n": 0}
    await repo.close()
