"""Storage for the operator's notices (a queue in meta, each key taken by one process) and for
privacy (a person's rows, and forgetting them), on both backends."""

from __future__ import annotations

import asyncio

from storage import SeatRow
from tests.storage.databases import Opener


async def test_keys_taken_at_once_by_two_processes_go_to_exactly_one(open_repo: Opener) -> None:
    first, second = await open_repo(), await open_repo()
    try:
        await first.meta_put({f"notice:c{n}:1:t": f"text {n}" for n in range(40)})
        await first.meta_set("noticed", "not in the queue")  # a key past the prefix's range
        await first.meta_set("notice9", "nor this")
        a, b = await asyncio.gather(first.meta_take("notice:"), second.meta_take("notice:"))
        assert not set(a) & set(b) and len(a) + len(b) == 40
        assert await first.meta_with_prefix("notice") == {
            "notice9": "nor this",
            "noticed": "not in the queue",
        }
        assert await first.meta_with_prefix("notice:") == {}
    finally:
        await first.close()
        await second.close()


async def test_a_forgotten_persons_rows_name_an_alias_and_their_names_a_former_player(
    open_repo: Opener,
) -> None:
    repo = await open_repo()
    try:
        sid = await repo.create_session(
            guild="g", channel="c", game="ignis", options={}, seed=1, host_user="ann", seat=None
        )
        row = await repo.session(sid)
        assert row is not None
        version = await repo.take_seat(sid, row.version, SeatRow("fire", "ann", "Ann", None))
        await repo.take_seat(sid, version, SeatRow("water", "ben", "Ben", None))
        await repo.update_session(sid, version + 1, status="abandoned")
        found = await repo.user_records("ann", [])
        assert [s["seat"] for s in found["seats"]] == ["fire"] and found["games_opened"][0]["id"] == sid
        touched = await repo.forget_in_games("ann", {"Ann"}, "gone", "a former player")
        assert touched == [sid]
        row = await repo.session(sid)
        assert row is not None and row.host_user == f"gone:{sid}"
        assert [(s.user_id, s.user_name) for s in row.seats] == [
            (f"gone:{sid}", "a former player"),
            ("ben", "Ben"),
        ]
        after = await repo.user_records("ann", [])
        assert not after["seats"] and not after["games_opened"]
    finally:
        await repo.close()
