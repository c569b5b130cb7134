"""Posts owed to Discord, kept in the database: one process at a time sends each (its lease), a
stopped process's are taken over at once, a dead one's when its lease runs out."""

from __future__ import annotations

from tests.storage.databases import Opener


async def test_an_owed_post_is_sent_by_one_process_and_passes_on_when_its_lease_is_released(
    open_repo: Opener,
) -> None:
    first, second = await open_repo(), await open_repo()  # two bot processes on one database
    try:
        owed = await first.owe_post("c1", '["part 1", "part 2"]', 1000.0, 1, lease_s=120.0)
        assert await second.claim_owed_posts(120.0) == [], "the first process holds it"
        [mine] = await first.claim_owed_posts(120.0)
        assert (mine.id, mine.channel, mine.parts, mine.since, mine.attempts) == (
            owed,
            "c1",
            '["part 1", "part 2"]',
            1000.0,
            1,
        )
        await first.owed_post_again(owed, '["part 2"]', 2)  # part 1 went out; part 2 failed again
        assert await first.release_leases() == 1
        [theirs] = await second.claim_owed_posts(120.0)
        assert (theirs.id, theirs.parts, theirs.attempts) == (owed, '["part 2"]', 2)
        await second.owed_post_done(owed)
        assert await first.owed_post_count() == 0
    finally:
        await first.close()
        await second.close()


async def test_a_dead_processes_owed_post_is_taken_over_once_its_lease_runs_out(open_repo: Opener) -> None:
    dead, alive = await open_repo(), await open_repo()
    try:
        await dead.owe_post("c1", "[]", 1000.0, 1, lease_s=-1.0)  # its lease has run out
        await dead.owe_post("c2", "[]", 1001.0, 1, lease_s=120.0)
        assert [p.channel for p in await alive.claim_owed_posts(120.0)] == ["c1"]
    finally:
        await dead.close()
        await alive.close()


async def test_nothing_is_owed_to_a_channel_that_is_gone(open_repo: Opener) -> None:
    repo = await open_repo()
    try:
        await repo.owe_post("c1", "[]", 1000.0, 1, lease_s=120.0)
        await repo.owe_post("c2", "[]", 1000.0, 1, lease_s=120.0)
        await repo.forget_owed_posts(["c1"])
        assert [p.channel for p in await repo.claim_owed_posts(120.0)] == ["c2"]
    finally:
        await repo.close()
