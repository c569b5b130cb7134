"""Storage migration 6: every session stored before rules versions existed was played under
version 1 of its game's rules, and its options say so from then on (engine.game.rules_of)."""

from __future__ import annotations

import json

import pytest

import storage.repository
from storage.migrations import MIGRATIONS
from tests.storage.databases import Opener


async def test_sessions_stored_before_rules_versions_are_marked_as_played_under_version_1(
    open_repo: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.repository, "MIGRATIONS", MIGRATIONS[:5])  # the schema before versions
    old = await open_repo()
    plain = await old.create_session(
        guild="g", channel="a", game="ignis", options={"layout": "checker"}, seed=1, host_user="u"
    )
    bare = await old.create_session(guild="g", channel="b", game="ignis", options={}, seed=2, host_user="u")
    newer = await old.create_session(
        guild="g", channel="c", game="ignite", options={"rules": "2"}, seed=3, host_user="u"
    )
    broken = await old.create_session(guild="g", channel="d", game="ignis", options={}, seed=4, host_user="u")
    async with old._write() as tx:  # a row migrate's check names; the upgrade must not stop on it
        await tx.execute("UPDATE sessions SET options='layout=checker' WHERE id=?", broken)
    await old.close()
    monkeypatch.setattr(storage.repository, "MIGRATIONS", MIGRATIONS)

    repo = await open_repo()
    assert await repo.schema_version() == len(MIGRATIONS)
    options = {r.id: r.options for r in [await repo.session(i) for i in (plain, bare, newer)] if r}
    assert options == {
        plain: {"layout": "checker", "rules": "1"},
        bare: {"rules": "1"},
        newer: {"rules": "2"},  # a version already written is never touched
    }
    async with repo._backend.read() as tx:
        texts = {int(r[0]): r[1] for r in await tx.fetch("SELECT id, options FROM sessions")}
    # Written as the bot writes options, so two databases upgraded apart hold the same text.
    assert texts[plain] == json.dumps({"layout": "checker", "rules": "1"})
    assert texts[broken] == "layout=checker"
    await repo.close()
