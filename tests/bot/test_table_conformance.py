"""The table's promises, for every registered game and mode (a property: a game added later is
checked without a line here). Seeded random legal moves through the host, every seat a person,
one of them away for the whole game:

* one command shows the channel at most one public message;
* a step that continues the same person's turn is added to the turn's message (the same append
  key as the message before it), with no picture and no ping; a new message comes only when the
  person the game waits on changes, an automated phase ran or the game ended;
* nobody is pinged for their own move, and nobody away is pinged at all;
* no two pictures in a row are the same, and a new message has at most one picture for the turn's
  end plus one per automated phase it reports.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host
from engine import Dice, Game
from tests.bot.tables import seat_a_table
from tests.test_conformance import VARIANT_IDS, VARIANTS

ACTIONS = 150


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def picture_of(game_id: str, view: dict[str, Any], names: dict[str, str]) -> bytes:
    """A stand-in renderer: the same view always gives the same bytes, another view others."""
    return hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).digest()


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    settings = Settings(db_path=str(tmp_path / "t.sqlite3"), rate_limit_per_minute=0)
    h = await Host.open(settings, renderer=picture_of, clock=Clock())
    yield h
    await h.close()


def _awaited(
    game: Game[Any, Any], state: Any, user_of: dict[str, str], away: str | None = None
) -> frozenset[str]:
    """Whom the game waits on: a decision's decider, else every seat to act. The decider is the
    game's, unless they are away and someone present may answer (the first of those present)."""
    if game.outcome(state) is not None:
        return frozenset()
    turn = game.to_act(state)
    if not turn.decision:
        return frozenset(user_of[s] for s in turn.seats)
    present = [s for s in sorted(turn.seats, key=list(user_of).index) if user_of[s] != away] or sorted(
        turn.seats, key=list(user_of).index
    )
    decider = game.decider(state)
    return frozenset({user_of[decider if decider in present else present[0]]})


@pytest.mark.parametrize(("game", "options"), VARIANTS, ids=VARIANT_IDS)
async def test_one_message_per_turn_and_no_needless_ping(
    host: Host, game: Game[Any, Any], options: dict[str, str]
) -> None:
    people = await seat_a_table(host, game, options)
    away = people[-1]
    told = await host.command(away, "away", {"days": "30"})
    assert sum(p.to is None for p in told) <= 1
    started = await host.command(people[0], "start", {})
    assert sum(p.to is None for p in started) == 1, [p.text for p in started]
    row = await host.repo.open_session_in("table")
    assert row is not None and row.status == "active", [p.text for p in started]
    user_of = {s.seat: s.user_id for s in row.seats}
    by_user = {p.user_id: p for p in people}
    dice = Dice(7)
    changes = 0
    moved = dict.fromkeys(user_of, 0)
    last_key = next(p.append_key for p in started if p.to is None)
    last_picture = next((p.images[-1].data for p in started if p.to is None and p.images), None)
    for _ in range(ACTIONS):
        row = await host.repo.open_session_in("table")
        if row is None or row.status != "active":
            break
        state = game.from_json(await host.repo.state(row.id) or {})
        before = _awaited(game, state, user_of, away.user_id)
        seat = sorted(game.to_act(state).seats)[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        # A random move that keeps the game going where one does (random heroes die young in
        # Raid), so the table goes round often enough for the checks to mean something. The same
        # action on a copy tells which events it brings (the state holds its dice).
        start = dice.below(len(legal))
        for move in legal[start:] + legal[:start]:
            trial = game.copy(state)
            _, events = game.act(trial, seat, move)
            if game.outcome(trial) is None:
                break
        automated = sum(1 for e in events if e.phase_end and "view" in e.data)
        mover = by_user[user_of[seat]]
        moved[seat] += 1
        posts = await host.command(mover, "play", {"action": move})
        public = [p for p in posts if p.to is None]
        assert len(public) == 1, [p.text for p in posts]
        post = public[0]
        after_state = game.from_json(await host.repo.state(row.id) or {})
        after = _awaited(game, after_state, user_of, away.user_id)
        ended = game.outcome(after_state) is not None
        assert mover.user_id not in post.mentions, post.text
        assert away.user_id not in post.mentions, post.text
        if post.append_key == last_key:
            assert not post.images and not post.mentions, post.text
            assert not ended and not automated and after in (before, {mover.user_id}), post.text
        else:
            assert ended or automated or after not in (before, {mover.user_id}), post.text
            changes += 1
            assert len(post.images) <= 1 + automated, post.text
        pictures = [i.data for i in post.images]
        assert all(a != b for a, b in zip([last_picture, *pictures], pictures, strict=False)), post.text
        last_key = post.append_key
        last_picture = pictures[-1] if pictures else last_picture
    # The game really went round its table (the checks above were not vacuous): ten changes of
    # turn, or a whole game to its end (a Raid of random heroes can be over in two rounds) in which
    # every seat moved at least twice.
    last = await host.repo.latest_session_in("table")
    assert last is not None
    assert changes >= 10 or (last.status == "finished" and min(moved[s] for s in user_of) >= 2), (
        changes,
        moved,
    )
