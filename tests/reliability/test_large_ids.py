"""Session ids above 2^31 (a busy database, or one migrate numbered after a large source id) work
on both backends: a new game opens, takes its session lock and plays. PostgreSQL's two-key
advisory locks take 32-bit keys, so a session's lock must use the 64-bit one-key form."""

from __future__ import annotations

import sqlite3

import asyncpg
from rel_kit import caller, ignis_between, live_state, open_host, resign

from bot.menus import ButtonId
from storage import Repository

BIG = 2**31 + 7


async def _number_sessions_from(where: str, first: int) -> None:
    repo = await Repository.open(where)  # the tables, made by the bot itself
    await repo.close()
    if where.startswith("postgresql://"):
        con = await asyncpg.connect(where)
        await con.execute("SELECT setval(pg_get_serial_sequence('sessions', 'id'), $1)", first - 1)
        await con.close()
    else:
        con_lite = sqlite3.connect(where)
        con_lite.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('sessions', ?)", (first - 1,))
        con_lite.commit()
        con_lite.close()


async def test_a_game_with_a_session_id_above_2_to_the_31_opens_and_plays(db_target: str) -> None:
    await _number_sessions_from(db_target, BIG)
    host = await open_host(db_target, renderer=None)
    try:
        sid = await ignis_between(host, "big", "alice", "bob")
        assert sid >= BIG
        for _ in range(4):
            _, _, seat, legal = await live_state(host, "big")
            user = "alice" if seat == "fire" else "bob"
            posts = await host.command(caller(user, "big"), "play", {"action": legal[0]})
            assert posts[0].to is None, posts[0].text
        assert len(await host.repo.actions(sid)) == 4
        await resign(host, "alice", "big")  # a button press carries the session id too
        row = await host.repo.session(sid)
        assert row is not None and row.status == "finished"
    finally:
        await host.close()


def test_a_button_carries_every_session_id_the_databases_can_hold() -> None:
    largest = 2**63 - 1  # BIGINT on PostgreSQL, INTEGER on SQLite
    assert ButtonId.parse(str(ButtonId(largest, 7, "a", "earth a3 east"))) == ButtonId(
        largest, 7, "a", "earth a3 east"
    )
    assert ButtonId.parse(f"g:{2**63}:7:a:earth a3 east") is None  # no database could have issued it
