"""No limit that ends a game bites unseen, for every registered game and mode (a property: a game
added later is checked without a line here). Through the host, at default options and seeded:

* /game status lists every limit the game declares (Game.limits), from the first position;
* for each limit, a position one step from it coming near (found by seeded play that heads for
  it): the post of that step announces it, in the limit's words, and the next posts do not
  say it again.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host
from engine import Dice, Game
from engine.search_bot import bot_move, standing_alone
from tests.bot.tables import seat_a_table
from tests.bot.test_table_conformance import Clock, picture_of
from tests.test_conformance import VARIANT_IDS, VARIANTS

# Into the Fire is BattleLore's other way to win (a scenario, not a mode): checked too.
FIRE = [(g, {"scenario": "into-the-fire"}) for g, raw in VARIANTS if g.id == "battlelore" and not raw]
CASES = [*VARIANTS, *FIRE]
CASE_IDS = [*VARIANT_IDS, "battlelore-into-the-fire"]
SEARCH_PLIES = 3000
TRIED = 60  # actions tried per step when heading for a limit
RANDOM_TRIES = 8  # seeded games of random moves
BOT_TRIES = 4  # then games of the bot's moves (fixed iterations), for a limit only a long game reaches


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    settings = Settings(db_path=str(tmp_path / "t.sqlite3"), rate_limit_per_minute=0)
    h = await Host.open(settings, renderer=picture_of, clock=Clock())
    yield h
    await h.close()


def _left(game: Game[Any, Any], state: Any) -> dict[str, int]:
    return {limit.rule: limit.left for limit in game.limits(state)}


def _goes_on(game: Game[Any, Any], state: Any, seat: str, action: str) -> bool:
    trial = game.copy(state)
    game.act(trial, seat, action)
    return game.outcome(trial) is None


def one_step_from_each(game: Game[Any, Any], start: Any, seed: int) -> dict[str, tuple[Any, str, str]]:
    """For each limit (by its rule), a position whose next action (seat, move) brings it near
    while the game goes on: seeded play that takes any action moving a limit not yet found
    toward its end, else a random one; from fresh seeds until every limit is found, and then, for
    a game with a bot, with the bot's move instead of a random one (a limit only a long game
    reaches, where random play dies first), searched at fixed iterations so the play is the same
    however busy the machine is."""
    rules = list(_left(game, start))
    found: dict[str, tuple[Any, str, str]] = {}
    for attempt in range(RANDOM_TRIES + (BOT_TRIES if game.ai_levels else 0)):
        state, dice = game.copy(start), Dice(seed + attempt)
        by_bot = attempt >= RANDOM_TRIES
        for _ in range(SEARCH_PLIES):
            if game.outcome(state) is not None or len(found) == len(rules):
                break
            seat = sorted(game.to_act(state).seats)[0]
            legal = [str(a) for a in game.legal_actions(state, seat)]
            before, want = _left(game, state), [r for r in rules if r not in found]
            if by_bot:
                # At the level's fixed iterations, not against the clock: under load a timed
                # search plays other moves, and the game heads elsewhere.
                with standing_alone():
                    move = str(bot_move(game, game.copy(state), seat, game.ai_levels[0], dice))
            else:
                move = legal[dice.below(len(legal))]
            for candidate in legal[:TRIED]:
                trial = game.copy(state)
                game.act(trial, seat, candidate)
                after = _left(game, trial)
                closer = any(r in before and after.get(r, before[r]) < before[r] for r in want)
                if game.outcome(trial) is None and closer:
                    move = candidate
                    break
            near = {limit.rule for limit in game.limits(state) if limit.near}
            snapshot = game.copy(state)
            game.act(state, seat, move)
            if game.outcome(state) is None:
                for limit in game.limits(state):
                    if limit.near and limit.rule not in near:
                        found.setdefault(limit.rule, (snapshot, seat, move))
        if len(found) == len(rules):
            break
    return found


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
async def test_limits_listed_from_the_start_and_announced_once_when_near(
    host: Host, game: Game[Any, Any], options: dict[str, str]
) -> None:
    people = await seat_a_table(host, game, options)
    await host.command(people[0], "start", {})
    row = await host.repo.open_session_in("table")
    assert row is not None and row.status == "active"
    by_seat = {s.seat: next(p for p in people if p.user_id == s.user_id) for s in row.seats}
    start = game.from_json(await host.repo.state(row.id) or {})

    status = "\n".join(p.text for p in await host.command(people[0], "status", {}))
    for limit in game.limits(start):
        assert limit.line() in status, status

    found = one_step_from_each(game, start, 7)
    assert set(found) == set(_left(game, start))  # every limit was reached (the test is not vacuous)
    for rule, (before, seat, move) in found.items():
        row = await host.repo.open_session_in("table")
        assert row is not None
        await host.repo.store_state(row.id, row.version, game.to_json(before))
        assert all(not limit.near for limit in game.limits(before) if limit.rule == rule)
        posts = await host.command(by_seat[seat], "play", {"action": move})
        said = "\n".join(p.text for p in posts if p.to is None)
        assert said.count(rule) == 1, said
        # Said once: the next steps of the game do not repeat it.
        state = game.from_json(await host.repo.state(row.id) or {})
        dice = Dice(11)
        for _ in range(5):
            seat = sorted(game.to_act(state).seats)[0]
            # Steps after which the game goes on: the session must stay open for the next limit.
            legal = [str(a) for a in game.legal_actions(state, seat)]
            going_on = [a for a in legal if _goes_on(game, state, seat, a)]
            if not going_on:
                break
            posts = await host.command(by_seat[seat], "play", {"action": going_on[dice.below(len(going_on))]})
            assert rule not in "\n".join(p.text for p in posts if p.to is None)
            state = game.from_json(await host.repo.state(row.id) or {})
