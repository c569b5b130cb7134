"""Snapshot pruning (every Nth, the first, every undo's and the latest are kept; the log stays
whole) and load_for_undo (the nearest kept state and only the moves after it)."""

from __future__ import annotations

import shutil
from pathlib import Path

from storage import Repository
from storage.play_log import SNAPSHOT_EVERY
from tests.storage.databases import Opener
from tests.storage.kit import move, playing

FIXTURE = Path(__file__).parents[1] / "reliability" / "fixtures" / "schema1.sqlite3"


async def test_old_snapshots_are_pruned_keeping_the_first_every_nth_and_the_latest(open_repo: Opener) -> None:
    repo = await open_repo()
    sid, version = await playing(repo)
    dealt = version
    by_seq: dict[int, int] = {}
    for n in range(1, 2 * SNAPSHOT_EVERY + 6):
        version = await move(repo, sid, version, n)
        by_seq[n] = version
    kept = await repo.snapshot_versions(sid)
    assert kept == [dealt, by_seq[SNAPSHOT_EVERY], by_seq[2 * SNAPSHOT_EVERY], version]
    assert await repo.state(sid) == {"n": 2 * SNAPSHOT_EVERY + 5}
    # The log stays complete: every move is there, each with the version it produced.
    rows = await repo.actions(sid)
    assert [a.notation for a in rows] == [f"move {n}" for n in range(1, 2 * SNAPSHOT_EVERY + 6)]
    assert [a.version for a in rows] == [by_seq[n] for n in range(1, 2 * SNAPSHOT_EVERY + 6)]
    await repo.close()


async def test_undo_loads_the_nearest_snapshot_and_replays_only_the_moves_after_it(open_repo: Opener) -> None:
    repo = await open_repo()
    sid, version = await playing(repo)
    for n in range(1, SNAPSHOT_EVERY + 6):
        version = await move(repo, sid, version, n)
    rows = await repo.actions(sid)
    target = rows[SNAPSHOT_EVERY + 2].version  # after move N+3: keep it, take back the two after
    assert target is not None
    base = await repo.load_for_undo(sid, target)
    assert base is not None
    assert base.state == {"n": SNAPSHOT_EVERY} and base.version == rows[SNAPSHOT_EVERY - 1].version
    assert [a.notation for a in base.moves_after] == [
        f"move {n}" for n in range(SNAPSHOT_EVERY + 1, SNAPSHOT_EVERY + 4)
    ]
    await repo.close()


async def test_an_undo_snapshot_is_kept_and_replay_never_starts_before_it(open_repo: Opener) -> None:
    repo = await open_repo()
    sid, version = await playing(repo)
    for n in range(1, 6):
        version = await move(repo, sid, version, n)
    # Take back move 5: the state goes back to {"n": 4}; then moves 6 and 7.
    version = await repo.commit_action(
        sid,
        version,
        kind="undo",
        seat="s0",
        user_id="u",
        notation="undo 5",
        summary="",
        undoable=False,
        state={"n": 4},
    )
    undo_version = version
    for n in (6, 7):
        version = await move(repo, sid, version, n)
    assert undo_version in await repo.snapshot_versions(sid)
    rows = await repo.actions(sid)
    keep_last = next(a for a in rows if a.notation == "move 6")
    assert keep_last.version is not None
    base = await repo.load_for_undo(sid, keep_last.version)
    assert base is not None
    # Move 5 (taken back) is never replayed: the base is the undo's own state.
    assert base.version == undo_version and base.state == {"n": 4}
    assert [a.notation for a in base.moves_after] == ["move 6"]
    await repo.close()


async def test_undo_to_the_dealt_position_has_no_moves_to_replay(open_repo: Opener) -> None:
    repo = await open_repo()
    sid, version = await playing(repo)
    dealt = version
    version = await move(repo, sid, version, 1)
    base = await repo.load_for_undo(sid, dealt)
    assert base is not None and base.state == {"n": 0} and base.moves_after == []
    await repo.close()


async def test_an_old_database_gets_versions_on_its_log_rows_and_undo_works_from_them(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURE, db)
    repo = await Repository.open(str(db))
    row = await repo.open_session_in("old-active")
    assert row is not None
    rows = await repo.actions(row.id)
    assert rows and all(a.version is not None for a in rows)
    # Every snapshot from before pruning existed is still there, each matching its log row.
    for a in rows:
        assert a.version in await repo.snapshot_versions(row.id)
    last = rows[-2].version
    assert last is not None
    base = await repo.load_for_undo(row.id, last)
    assert base is not None and base.version == last and base.moves_after == []
    await repo.close()


async def test_a_session_whose_log_rows_lack_versions_falls_back_to_a_full_replay(tmp_path: Path) -> None:
    from storage import SeatRow
    from storage.rows import BulkSession

    repo = await Repository.open(str(tmp_path / "b.sqlite3"))
    (sid,) = await repo.bulk_insert_sessions(
        [
            BulkSession(
                channel="c",
                game="ignis",
                options={},
                seed=1,
                status="active",
                host_user="u",
                version=3,
                seats=(SeatRow("s0", "u", "U", None),),
                state={"n": 2},
                actions=(("s0", "u", "a"), ("s0", "u", "b")),
            )
        ]
    )
    assert await repo.load_for_undo(sid, 2) is None
    await repo.close()
