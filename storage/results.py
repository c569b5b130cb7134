"""Finished games: the results row and each seat's result, written in the transaction that ends the
game, and the statistics read from them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from storage.backend import Tx
from storage.core import RepositoryCore
from storage.rows import GameStats, UserResult


def _taken_back(rows: Sequence[Any]) -> set[int]:
    """The seqs undo rows took back: an undo's notation is `undo <seq>[,<seq>…]`."""
    taken: set[int] = set()
    for r in rows:
        if r["kind"] == "undo":
            taken |= {int(x) for x in str(r["notation"]).split()[1].split(",")}
    return taken


async def finish_if_finished(
    tx: Tx,
    session_id: int,
    fields: dict[str, Any],
    ended: float,
    rounds: int | None,
    score: float | None,
) -> None:
    """The result of a session whose new `fields` finish it (status="finished"), at `ended`."""
    if fields.get("status") == "finished":
        outcome = fields.get("outcome")
        if outcome is None:
            text = await tx.fetchval("SELECT outcome FROM sessions WHERE id=?", session_id)
            outcome = json.loads(text) if text else {"winners": [], "losers": [], "reason": ""}
        await record_result(tx, session_id, outcome, ended, rounds, score)


async def record_result(
    tx: Tx,
    session_id: int,
    outcome: dict[str, Any],
    ended: float,
    rounds: int | None,
    score: float | None,
) -> None:
    """The results row and one row per seat, from the session, its seats and its log.

    A seat's turn time is from the log row before its move (or the start) to its move; moves
    taken back by an undo count neither as moves nor as time. Timeouts count as the seat's
    time but not as its moves (the default was applied for it)."""
    # The session with its seats in one statement, and the whole log (undo rows included: they
    # name what they took back) in another: a game's last move waits on these.
    found = await tx.fetch(
        "SELECT s.guild, s.channel, s.game, s.created, s.started, t.seat, t.user_id, t.user_name, "
        "t.ai_level FROM sessions s LEFT JOIN seats t ON t.session_id = s.id WHERE s.id=?",
        session_id,
    )
    if not found:
        return
    s = found[0]
    seats = [r for r in found if r["seat"] is not None]
    log_rows = await tx.fetch(
        "SELECT seq, kind, seat, at, notation FROM actions WHERE session_id=? ORDER BY seq", session_id
    )
    taken = _taken_back(log_rows)
    began = float(s["started"] if s["started"] is not None else s["created"])
    moves: dict[str, int] = {}
    seconds: dict[str, float] = {}
    previous = began
    for r in log_rows:
        if r["seq"] not in taken and r["kind"] in ("action", "timeout") and r["seat"]:
            seconds[r["seat"]] = seconds.get(r["seat"], 0.0) + max(0.0, float(r["at"]) - previous)
            if r["kind"] == "action":
                moves[r["seat"]] = moves.get(r["seat"], 0) + 1
        previous = float(r["at"])
    await tx.execute(
        "INSERT INTO results (session_id, guild, channel, game, outcome, rounds, score, started, ended, "
        "duration_s, moves) VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (session_id) DO NOTHING",
        session_id,
        s["guild"],
        s["channel"],
        s["game"],
        json.dumps(outcome),
        rounds,
        float(score) if score is not None else None,
        s["started"],
        ended,
        max(0.0, ended - began),
        sum(moves.values()),
    )
    winners, losers = set(outcome.get("winners", [])), set(outcome.get("losers", []))
    await tx.executemany(
        "INSERT INTO result_seats (session_id, seat, user_id, user_name, ai_level, result, moves, "
        "turn_seconds) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (session_id, seat) DO NOTHING",
        [
            (
                session_id,
                r["seat"],
                r["user_id"],
                r["user_name"],
                r["ai_level"],
                "won" if r["seat"] in winners else "lost" if r["seat"] in losers else "drew",
                moves.get(r["seat"], 0),
                seconds.get(r["seat"], 0.0),
            )
            for r in seats
        ],
    )


class Results(RepositoryCore):
    """Reading finished games: one game's result, a player's statistics."""

    async def user_stats(self, user_id: str, guild: str | None = None) -> list[GameStats]:
        """Finished games per game for `/stats [user]`: in every server, or in `guild`."""
        where = "s.user_id=?" + (" AND r.guild=?" if guild is not None else "")
        args = (user_id, guild) if guild is not None else (user_id,)
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(
                "SELECT r.game, COUNT(DISTINCT r.session_id), "
                "COUNT(DISTINCT CASE WHEN s.result='won' THEN r.session_id END), "
                "COUNT(DISTINCT CASE WHEN s.result='lost' THEN r.session_id END), "
                "COUNT(DISTINCT CASE WHEN s.result='drew' THEN r.session_id END), "
                "SUM(s.moves), SUM(s.turn_seconds) "
                f"FROM result_seats s JOIN results r ON r.session_id = s.session_id WHERE {where} "
                "GROUP BY r.game ORDER BY r.game",
                *args,
            )
        return [
            GameStats(
                r[0],
                int(r[1]),
                int(r[2]),
                int(r[3]),
                int(r[4]),
                int(r[5] or 0),
                float(r[6]) / int(r[5]) if r[5] else None,
            )
            for r in rows
        ]

    async def user_results(self, user_id: str, guild: str | None = None) -> list[UserResult]:
        """Each finished game of a user, once, with its options and rounds: /stats splits co-op
        results by difficulty from these."""
        where = "s.user_id=?" + (" AND r.guild=?" if guild is not None else "")
        args = (user_id, guild) if guild is not None else (user_id,)
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(
                "SELECT DISTINCT r.session_id, r.game, g.options, s.result, r.rounds "
                "FROM result_seats s JOIN results r ON r.session_id = s.session_id "
                f"JOIN sessions g ON g.id = r.session_id WHERE {where} ORDER BY r.session_id",
                *args,
            )
        return [UserResult(r[1], json.loads(r[2] or "{}"), r[3], r[4]) for r in rows]

    async def result(self, session_id: int) -> dict[str, Any] | None:
        """A finished game's result row and its seats, as stored (for tests and exports)."""
        # The result row beside each of its seats, in one statement (a game's last post reads it).
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(
                "SELECT r.session_id, r.guild, r.channel, r.game, r.outcome, r.rounds, r.score, "
                "r.started, r.ended, r.duration_s, r.moves, s.seat, s.user_id, s.user_name, "
                "s.ai_level, s.result, s.moves AS seat_moves, s.turn_seconds FROM results r LEFT JOIN "
                "result_seats s ON s.session_id = r.session_id WHERE r.session_id=? ORDER BY s.seat",
                session_id,
            )
        if not rows:
            return None
        r = rows[0]
        out = {
            k: r[k]
            for k in (
                "guild",
                "channel",
                "game",
                "rounds",
                "score",
                "started",
                "ended",
                "duration_s",
                "moves",
            )
        }
        out["outcome"] = json.loads(r["outcome"])
        out["seats"] = [
            {
                "seat": s["seat"],
                "user_id": s["user_id"],
                "user_name": s["user_name"],
                "ai_level": s["ai_level"],
                "result": s["result"],
                "moves": s["seat_moves"],
                "turn_seconds": s["turn_seconds"],
            }
            for s in rows
            if s["seat"] is not None
        ]
        return out
