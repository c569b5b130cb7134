"""`python -m bot migrate` copies the games groups really store (issue 38's attack): one whose
players changed an option in play, one played with the group's own content (CONTENT_DIR), and a
copy changed since an earlier run in a way no log row shows, which a re-run must never silently
undo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from rel_kit import ROOT, open_host
from test_migrate_command import migrate

from bot.config import Settings
from bot.host import Host, check_content
from bot.posts import Caller
from engine import get_game
from games.ignite.content import DATA
from storage import Repository, SeatRow
from tests.storage.databases import BACKENDS, fresh_database

PEOPLE = [Caller(f"u{i}", f"player{i}", "table", guild="g1") for i in range(2)]


@pytest.fixture(params=BACKENDS)
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    async with fresh_database(request.param, tmp_path, "m") as where:
        yield where


@pytest.fixture
def shipped_content_after() -> Iterator[None]:
    yield
    check_content(Settings())  # back to the shipped stand-in data for every other test


async def _ignite(host: Host) -> int:
    """A co-operative Ignite game of two, started."""
    await host.command(PEOPLE[0], "new", {"game": "ignite", "seed": "5", "options": "placement=auto"})
    for person in PEOPLE:
        await host.command(person, "join", {})
    await host.command(PEOPLE[0], "start", {})
    row = await host.repo.open_session_in("table")
    assert row is not None and row.status == "active"
    return row.id


async def _play(host: Host, moves: int) -> None:
    """`moves` legal moves (the first listed) by whoever is to act."""
    game = get_game("ignite")
    for _ in range(moves):
        row = await host.repo.open_session_in("table")
        assert row is not None
        state = game.from_json(await host.repo.state(row.id) or {})
        seat = sorted(game.to_act(state).seats)[0]
        player = next(
            p for p in PEOPLE if p.user_id == (row.seat_row(seat) or SeatRow("", "", "", None)).user_id
        )
        posts = await host.command(player, "play", {"action": str(game.legal_actions(state, seat)[0])})
        assert posts[0].to is None, posts[0].text


async def test_a_game_whose_players_changed_an_option_in_play_migrates(tmp_path: Path, target: str) -> None:
    db = tmp_path / "games.sqlite3"
    host = await open_host(db, renderer=None)
    sid = await _ignite(host)
    await _play(host, 2)
    changed = await host.command(PEOPLE[1], "settings", {"name": "favor_rule", "value": "largest-group"})
    assert any(p.to is None for p in changed)
    await _play(host, 3)
    await host.close()
    result = migrate(db, target)
    assert result.returncode == 0, result.stderr
    assert "Copied 1 sessions" in result.stdout and "Not copied" not in result.stdout
    copy = await Repository.open(target)
    source = await Repository.open(str(db))
    assert await copy.state(sid) == await source.state(sid)
    assert (await copy.state(sid) or {})["options"]["favor_rule"] == "largest-group"
    await copy.close()
    await source.close()


async def test_a_group_with_its_own_content_migrates(
    tmp_path: Path, target: str, shipped_content_after: None
) -> None:
    content = tmp_path / "content"
    (content / "ignite").mkdir(parents=True)
    races = json.loads((DATA / "races.json").read_text())
    for race in races["races"]:
        race["health"] += 1  # the group's own, hardier races
    (content / "ignite" / "races.json").write_text(json.dumps(races))
    check_content(Settings(content_dir=str(content)))
    db = tmp_path / "games.sqlite3"
    host = await open_host(db, renderer=None, content_dir=str(content))
    await _ignite(host)
    await _play(host, 3)
    await host.close()
    env_file = tmp_path / "group.env"
    env_file.write_text(f"CONTENT_DIR={content}\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "migrate",
            "--from",
            f"sqlite:{db}",
            "--to",
            target,
            "--env-file",
            str(env_file),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert (
        "Copied 1 sessions" in result.stdout
        and "snapshots equal to the replay of seed + log" in result.stdout
    )


async def _hand_on(copy: Repository, sid: int) -> None:
    row = await copy.session(sid)
    assert row is not None
    await copy.set_seat(sid, row.version, SeatRow(row.seats[1].seat, "u7", "player7", None))


async def _bot_takes_over(copy: Repository, sid: int) -> None:
    row = await copy.session(sid)
    assert row is not None
    seat = row.seats[1]
    await copy.set_seat(sid, row.version, SeatRow(seat.seat, seat.user_id, seat.user_name, "easy"))


CHANGES = {"a seat handed on": _hand_on, "a bot taking a seat over": _bot_takes_over}


async def _forget_earlier_runs(target: str) -> None:
    """The copy as a migrate from before runs recorded what they copied left it."""
    copy = await Repository.open(target)
    async with copy._write() as tx:
        await tx.execute("DELETE FROM meta WHERE key LIKE 'migrated:%'")
    await copy.close()


@pytest.mark.parametrize("earlier", ["recorded", "before records"])
@pytest.mark.parametrize("kind", [*CHANGES, "an option changed"])
async def test_a_rerun_never_silently_undoes_a_change_the_copy_logged_nowhere(
    tmp_path: Path, target: str, kind: str, earlier: str
) -> None:
    db = tmp_path / "games.sqlite3"
    host = await open_host(db, renderer=None)
    sid = await _ignite(host)
    await _play(host, 2)
    await host.close()
    assert migrate(db, target).returncode == 0
    if earlier == "before records":
        await _forget_earlier_runs(target)
    # The bot now runs on the copy, and a change that writes no log row is made there...
    if kind in CHANGES:
        copy = await Repository.open(target)
        await CHANGES[kind](copy, sid)
        await copy.close()
    else:
        on_copy = await open_host(target, renderer=None)
        await on_copy.command(PEOPLE[1], "settings", {"name": "favor_rule", "value": "all"})
        await on_copy.close()
    copy = await Repository.open(target)
    changed = (await copy.session(sid), await copy.state(sid))
    await copy.close()
    # ...while the old bot, started again by mistake, plays on in the source.
    host = await open_host(db, renderer=None)
    await _play(host, 2)
    await host.close()
    result = migrate(db, target)
    assert result.returncode == 1, result.stdout
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"session {sid} (ignite, channel table): the source (version"), last
    assert "have both moved on since they parted" in last and "The copy's was left as it is" in last
    copy = await Repository.open(target)
    assert (await copy.session(sid), await copy.state(sid)) == changed, "the copy's change is still there"
    await copy.close()


@pytest.mark.parametrize("earlier", ["recorded", "before records"])
async def test_a_rerun_brings_an_untouched_copy_up_to_date(tmp_path: Path, target: str, earlier: str) -> None:
    db = tmp_path / "games.sqlite3"
    host = await open_host(db, renderer=None)
    sid = await _ignite(host)
    await host.close()
    assert migrate(db, target).returncode == 0  # only the dealt position: no log row yet
    if earlier == "before records":
        await _forget_earlier_runs(target)
    host = await open_host(db, renderer=None)
    await _play(host, 2)
    await host.close()
    result = migrate(db, target)
    assert result.returncode == 0, result.stderr
    assert "Copied 1 sessions (1 of them brought up to date)" in result.stdout
    copy, source = await Repository.open(target), await Repository.open(str(db))
    assert await copy.actions(sid) == await source.actions(sid)
    await copy.close()
    await source.close()


async def test_a_game_with_snapshots_of_an_older_state_schema_migrates(tmp_path: Path, target: str) -> None:
    """Ignite's state schema 3 added fields a replay fills and an upgraded schema-2 snapshot
    starts empty: such a snapshot is checked by its log, not refused for its older form."""
    db = tmp_path / "games.sqlite3"
    host = await open_host(db, renderer=None)
    sid = await _ignite(host)
    await _play(host, 3)
    dealt = min(await host.repo.snapshot_versions(sid))
    state = await host.repo.snapshot_at(sid, dealt) or {}
    older = {k: v for k, v in state.items() if k not in ("last_actor", "kills", "losses")}
    async with host.repo._write() as tx:  # as a bot of state schema 2 stored it
        await tx.execute(
            "UPDATE snapshots SET state=? WHERE session_id=? AND version=?",
            json.dumps({**older, "schema": 2}),
            sid,
            dealt,
        )
    await host.close()
    result = migrate(db, target)
    assert result.returncode == 0, result.stderr
    assert "Copied 1 sessions" in result.stdout and "Not copied" not in result.stdout
