"""Storage migration 8: a log row says whether it answered a question the game asked. Rows logged
before it are answers when their summary opens "answers `" (how the recap told them before); every
other row, an answer logged in its public form included, stays a move, as it was counted."""

from __future__ import annotations

import pytest

import storage.repository
from storage.migrations import MIGRATIONS
from tests.storage.databases import Opener

OLD_ROW = (
    "INSERT INTO actions (session_id, seq, kind, seat, user_id, notation, summary, undoable, at, version) "
    "VALUES (?, ?, 'action', 'p0', 'u', ?, ?, 1, 0.0, ?)"
)


async def test_log_rows_stored_before_the_flag_are_answers_when_their_words_said_so(
    open_repo: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.repository, "MIGRATIONS", MIGRATIONS[:7])  # the schema before the flag
    old = await open_repo()
    sid = await old.create_session(guild="g", channel="a", game="ignite", options={}, seed=1, host_user="u")
    async with old._write() as tx:
        for seq, notation, summary in [
            (1, "end", "plays `end` — ratmen ends the turn."),
            (2, "keep", "answers `keep` — No divine favor token spent."),
            (3, "lose grave-oath", "loses a card — Sir Aldric loses a card."),
            (4, "answers", "plays `answers` — a move whose notation is the word."),
        ]:
            await tx.execute(OLD_ROW, sid, seq, notation, summary, seq)
    await old.close()
    monkeypatch.setattr(storage.repository, "MIGRATIONS", MIGRATIONS)

    repo = await open_repo()
    assert await repo.schema_version() == len(MIGRATIONS)
    assert [(a.seq, a.answered) for a in await repo.actions(sid)] == [
        (1, False),
        (2, True),
        (3, False),
        (4, False),
    ]
    # New rows carry the flag the host gives them.
    row = await repo.session(sid)
    assert row is not None
    await repo.commit_action(
        sid,
        row.version,
        kind="action",
        seat="p0",
        user_id="u",
        notation="lose grave-oath",
        summary="loses a card",
        undoable=False,
        state={"schema": 1},
        answered=True,
    )
    assert (await repo.actions(sid))[-1].answered
    await repo.close()
