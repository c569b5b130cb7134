"""The mover's private echo of a move: sent when the table is told a move's public form that
hides part of it (a card chosen face down), never when the public form only rewords it."""

from __future__ import annotations

from pathlib import Path

from bot.config import Settings
from bot.host import Host
from bot.posts import Caller, Post
from engine import get_game
from storage import Repository


def _caller(user: str) -> Caller:
    return Caller(user, user, "t")


async def _opened(tmp_path: Path, game_id: str, users: list[str], options: str = "") -> Host:
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), rate_limit_per_minute=0)
    host = Host(await Repository.open(settings.db_path), settings, renderer=None)
    await host.command(_caller(users[0]), "new", {"game": game_id, "seed": "3", "options": options})
    for user in users:
        await host.command(_caller(user), "join", {})
    await host.command(_caller(users[0]), "start", {})
    return host


async def _first_move(host: Host, verb: str) -> list[Post]:
    """The seat the game waits on plays its first legal move whose notation starts with `verb`."""
    row = await host.repo.latest_session_in("t")
    assert row is not None
    game = get_game(row.game)
    state = game.from_json(await host.repo.state(row.id) or {})
    seat = sorted(game.to_act(state).seats)[0]
    move = next(str(a) for a in game.legal_actions(state, seat) if str(a).startswith(verb))
    user = next(s.user_id for s in row.seats if s.seat == seat)
    return await host.command(_caller(user), "play", {"action": move})


def _echoes(posts: list[Post]) -> list[str]:
    return [p.text for p in posts if p.to is not None and p.text.startswith("Your move:")]


async def test_a_move_told_face_down_is_echoed_to_its_mover_alone(tmp_path: Path) -> None:
    host = await _opened(tmp_path, "battlelore", ["a", "b"])
    posts = await _first_move(host, "scenario")
    assert any("face down" in p.text for p in posts if p.to is None)
    [echo] = _echoes(posts)
    assert echo.startswith("Your move: `scenario ")
    await host.close()


async def test_a_move_told_in_other_words_is_not_echoed(tmp_path: Path) -> None:
    """An Ignite card play is told as `march Ra1 c16` for `play march Ra1 c16`: nothing hidden."""
    host = await _opened(tmp_path, "ignite", ["a", "b"], "placement=auto")
    posts: list[Post] = []
    for _ in range(20):
        row = await host.repo.latest_session_in("t")
        assert row is not None
        game = get_game(row.game)
        state = game.from_json(await host.repo.state(row.id) or {})
        seat = sorted(game.to_act(state).seats)[0]
        if any(str(a).startswith("play ") for a in game.legal_actions(state, seat)):
            posts = await _first_move(host, "play ")
            break
        await _first_move(host, "")
    assert any("plays `" in p.text for p in posts if p.to is None), [p.text for p in posts]
    assert not _echoes(posts), _echoes(posts)
    await host.close()
