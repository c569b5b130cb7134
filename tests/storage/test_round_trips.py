"""What a command costs in round trips: a session with its seats and state in one statement; the
stored keys and a server's settings read once per command (`remembering`) and written together;
the recent moves an absence check needs, for every person at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Repository, SeatRow
from storage.sqlite_backend import CHECKPOINT_EVERY
from tests.storage.databases import Opener
from tests.storage.kit import move, playing


async def statements(repo: Repository, before: int) -> int:
    return repo.counts.statements - before


async def test_a_session_comes_with_its_seats_in_seating_order_and_its_state_in_one_statement(
    open_repo: Opener,
) -> None:
    repo = await open_repo()
    # Seats taken in an order that is neither their names' nor their users' order.
    sid, version = await playing(repo, users=("zed", "amy", "mo"))
    version = await move(repo, sid, version, 1, user="zed")
    before = repo.counts.statements
    found = await repo.session_and_state(sid)
    assert await statements(repo, before) == 1
    assert found is not None
    row, state = found
    assert [(s.seat, s.user_id) for s in row.seats] == [("s0", "zed"), ("s1", "amy"), ("s2", "mo")]
    assert row.version == version and state == {"n": 1}
    before = repo.counts.statements
    again = await repo.open_session_and_state_in("c")
    assert await statements(repo, before) == 1
    assert again == found
    assert await repo.session(sid) == row
    await repo.close()


async def test_a_lobby_has_no_state_yet(open_repo: Opener) -> None:
    repo = await open_repo()
    sid = await repo.create_session(
        guild="g",
        channel="c",
        game="ignis",
        options={},
        seed=1,
        host_user="u",
        seat=SeatRow("s0", "u", "U", None),
    )
    found = await repo.session_and_state(sid)
    assert found is not None and found[1] is None and found[0].status == "lobby"
    assert await repo.session_and_state(sid + 1) is None
    await repo.close()


async def test_within_a_command_each_key_is_read_once_and_what_it_writes_is_read_back(
    open_repo: Opener,
) -> None:
    repo = await open_repo()
    await repo.meta_set("away:u1", "100")
    await repo.set_guild_setting("g", "reminder_hours", "5")
    with repo.remembering():
        before = repo.counts.statements
        await repo.preload(["away:u1", "away:u2", "turn:1"], "g")
        assert await statements(repo, before) == 1
        assert await repo.meta_get("away:u1") == "100"
        assert await repo.meta_get("away:u2") is None
        assert await repo.guild_settings("g") == {"reminder_hours": "5"}
        assert await statements(repo, before) == 1
        await repo.meta_put({"turn:1": "a", "told:1": "[]", "away:u1": None})
        assert await statements(repo, before) == 3  # one for the keys set, one for the key forgotten
        assert await repo.meta_get("turn:1") == "a"
        assert await repo.meta_get("away:u1") is None
        await repo.set_guild_setting("g", "reminder_hours", "7")
        assert await repo.guild_settings("g") == {"reminder_hours": "7"}
        before = repo.counts.statements
        await repo.meta_get("board:c")  # not preloaded: read once, then remembered
        await repo.meta_get("board:c")
        assert await statements(repo, before) == 1
    # Outside a command every read goes to the database, and finds what was written.
    before = repo.counts.statements
    assert await repo.meta_get("turn:1") == "a"
    assert await repo.meta_get("away:u1") is None
    assert await repo.meta_get("told:1") == "[]"
    assert await statements(repo, before) == 3
    await repo.close()


async def test_a_key_changed_by_another_connection_is_seen_by_the_next_preload(open_repo: Opener) -> None:
    repo, other = await open_repo(), await open_repo()
    await repo.meta_set("turn:1", "old")
    with repo.remembering():
        await repo.preload(["turn:1"])
        await other.meta_set("turn:1", "new")
        assert await repo.meta_get("turn:1") == "old"  # as if the change came after this read
        # Under a session's lock a command reads its keys again, and sees every earlier change.
        await repo.preload(["turn:1"])
        assert await repo.meta_get("turn:1") == "new"
        with other.remembering():  # another repository's memory is its own
            assert await other.meta_get("turn:1") == "new"
    await repo.close()
    await other.close()


async def test_recent_moves_of_several_people_come_in_one_statement(open_repo: Opener) -> None:
    repo = await open_repo()
    sid, version = await playing(repo, users=("u", "v", "w"))
    clock = 1000.0
    repo.clock = lambda: clock
    for n in range(1, 9):
        clock += 10
        user = "u" if n % 2 else "v"
        version = await move(repo, sid, version, n, seat="s0" if user == "u" else "s1", user=user)
    before = repo.counts.statements
    recent = await repo.recent_moves(sid, ["u", "v", "w"], 3)
    assert await statements(repo, before) == 1
    assert set(recent) == {"u", "v"}  # w has not moved
    u, v = recent["u"], recent["v"]
    assert [a.notation for a in u.moves] == ["move 3", "move 5", "move 7"]
    assert [a.notation for a in v.moves] == ["move 4", "move 6", "move 8"]
    assert u.last_at == 1070.0 and v.last_at == 1080.0
    assert not u.undo_since and not v.undo_since
    assert u.frames == () and v.frames == ()
    # A move's frames come with it, by their caption (the views stay in storage).
    version = await repo.commit_action(
        sid,
        version,
        kind="action",
        seat="s0",
        user_id="u",
        notation="move 9",
        summary="",
        undoable=True,
        state={"n": 9},
        frames=[("U (s0): move 9", {"big": "view"}), ("the enemy phase", {"big": "view"})],
    )
    drew = (await repo.recent_moves(sid, ["u"], 3))["u"]
    assert [a.notation for a in drew.moves] == ["move 5", "move 7", "move 9"]
    assert [(f.version, f.n, f.caption) for f in drew.frames] == [
        (version, 0, "U (s0): move 9"),
        (version, 1, "the enemy phase"),
    ]
    # An undo after the oldest of those moves says they may not all stand.
    await repo.commit_action(
        sid,
        version,
        kind="undo",
        seat="s1",
        user_id="v",
        notation="undo 9",
        summary="",
        undoable=False,
        state={"n": 8},
    )
    after = await repo.recent_moves(sid, ["u", "v"], 3)
    assert after["u"].undo_since and after["v"].undo_since
    await repo.close()


async def test_a_read_of_one_statement_sends_no_transaction_and_refuses_a_second(open_repo: Opener) -> None:
    repo = await open_repo()
    sid, _ = await playing(repo, users=("amy", "bo"))
    before = repo.counts.copy()
    assert await repo.session_and_state(sid) is not None
    spent = repo.counts.since(before)
    assert (spent.statements, spent.transactions) == (1, 0)
    backend = repo._backend
    async with backend.read_one() as tx:
        assert await tx.fetchval("SELECT COUNT(*) FROM sessions") == 1
        with pytest.raises(RuntimeError, match="second statement"):
            await tx.fetchval("SELECT COUNT(*) FROM seats")
    await repo.close()


async def test_the_schema_has_no_triggers_or_cascades_so_a_writes_change_count_is_exact(
    open_repo: Opener,
) -> None:
    # SqliteTx.execute counts the rows a statement changed from the connection's total before and
    # after: a trigger or a cascading foreign key would add rows of its own to that total.
    repo = await open_repo()
    if repo._backend.kind != "sqlite":
        pytest.skip("the count before and after is SQLite's (PostgreSQL reports each statement's own)")
    async with repo._backend.read() as tx:
        schema = [str(r[0]) for r in await tx.fetch("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")]
        kinds = {str(r[0]) for r in await tx.fetch("SELECT type FROM sqlite_master")}
    assert "trigger" not in kinds
    assert not [s for s in schema if "CASCADE" in s.upper() or "ON UPDATE" in s.upper()]
    sid, _ = await playing(repo, users=("amy", "bo"))
    async with repo._backend.write() as tx:
        assert await tx.execute("UPDATE sessions SET updated=updated WHERE id=?", sid) == 1
        assert await tx.execute("UPDATE sessions SET updated=updated WHERE id=?", sid + 99) == 0
        assert await tx.execute("UPDATE seats SET user_name=user_name WHERE session_id=?", sid) == 2
    await repo.close()


async def test_a_hint_written_without_waiting_for_the_disk_is_committed_for_every_reader(
    open_repo: Opener,
) -> None:
    # The turn's keys are hints (Backend.write durable=False): committed at once for every
    # connection and process (a crash of the bot keeps them), the action's own commit durable.
    repo = await open_repo()
    await repo.meta_put({"turn_told:1": '["amy"]'}, durable=False)
    other = await open_repo()  # the bot's files as a restart finds them, this one never closed
    assert await other.meta_get("turn_told:1") == '["amy"]'
    await repo.meta_put({"turn_told:1": None}, durable=False)
    assert await other.meta_get("turn_told:1") is None
    backend = repo._backend
    if backend.kind == "sqlite":
        modes = {}
        for durable in (True, False):
            async with backend.write(durable) as tx:
                modes[durable] = await tx.fetchval("PRAGMA synchronous")
        assert modes == {True: 2, False: 1}, "FULL for the game, NORMAL for hints"
    await other.close()
    await repo.close()


async def test_the_changes_a_process_remembers_are_those_of_games_still_open(open_repo: Opener) -> None:
    # A typed move is checked against the session's last change in this process (changed_since);
    # a game that is over answers no move, so its entry is dropped and the record does not grow
    # with every game the process ever hosted.
    repo = await open_repo()
    tick = repo.tick()
    sessions = [await playing(repo, channel=f"c{i}") for i in range(3)]
    assert all(repo.changed_since(sid, tick) for sid, _ in sessions)
    (first, version), *_ = sessions
    await move(repo, first, version, 1, status="finished")
    await repo.update_session(sessions[1][0], sessions[1][1], status="abandoned")
    assert sorted(repo._changed_at) == [sessions[2][0]]
    await repo.close()


async def test_the_log_is_folded_into_the_database_in_the_background_never_in_a_commit(
    open_repo: Opener, target: str
) -> None:
    # A checkpoint takes 1-25 ms of writes and syncs; SQLite ran one inside whichever commit
    # brought its log to 1000 pages, about every 70th move. Now no commit runs one: every
    # CHECKPOINT_EVERY commits a connection of its own folds the log in, while writers go on.
    repo = await open_repo()
    if repo._backend.kind != "sqlite":
        pytest.skip("PostgreSQL checkpoints on its own, in its own processes")
    main = Path(target)
    for n in range(3):  # pages for the keys below, so that what comes after only rewrites them
        await repo.meta_put({f"k{i}": "x" * 500 for i in range(n * 20, n * 20 + 20)})
    backend = repo._backend
    if backend._checkpointing is not None:
        await backend._checkpointing
    size = main.stat().st_size
    backend._commits = 0
    for i in range(CHECKPOINT_EVERY - 1):
        await repo.meta_put({f"new{i}": "y" * 120_000})  # 30 pages each: past 1000 in all
    assert main.stat().st_size == size, "a commit folded the log into the database"
    assert backend._checkpointing is None or backend._checkpointing.done()
    await repo.meta_put({"last": "z"})
    assert backend._checkpointing is not None
    await backend._checkpointing
    assert main.stat().st_size > size, "the background checkpoint moved the new keys into the file"
    await repo.close()
