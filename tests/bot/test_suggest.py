"""The Suggest button, for every registered game with a bot and every mode (VARIANTS comes from
the registry): the turn's message offers it while a person must act; a press answers privately
with a legal move for the presser's seat and a line of why, plays nothing and posts nothing to the
table; someone not to act is told why not."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host
from bot.host.suggest import LABEL
from bot.posts import Caller
from engine import Game, get_game
from tests.bot.tables import seat_a_table
from tests.bot.test_table_conformance import picture_of
from tests.test_conformance import VARIANT_IDS, VARIANTS

WITH_BOT = [(g, o) for g, o in VARIANTS if g.ai_levels]
IDS = [i for (g, _), i in zip(VARIANTS, VARIANT_IDS, strict=True) if g.ai_levels]
WATCHER = Caller("watcher", "watcher", "table", guild="g1")


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    settings = Settings(db_path=str(tmp_path / "s.sqlite3"), rate_limit_per_minute=0)
    h = await Host.open(settings, renderer=picture_of)
    yield h
    await h.close()


def test_every_game_keeps_its_dice_where_a_suggestion_draws_them_again() -> None:
    for game, options in VARIANTS:
        lo, hi = game.seat_range(options)
        opts = game.validate_options(options)
        state = game.setup(game.seat_names(opts)[: min(max(lo, 2), hi)], opts, 3)
        assert isinstance(game.to_json(state).get("dice"), int), f"{game.id}: no top-level `dice`"


@pytest.mark.parametrize(("game", "options"), WITH_BOT, ids=IDS)
async def test_the_suggest_button_answers_privately_and_plays_nothing(
    host: Host, game: Game[Any, Any], options: dict[str, str]
) -> None:
    people = await seat_a_table(host, game, options)
    started = await host.command(people[0], "start", {})
    turn = next(p for p in started if p.to is None)
    button = next((c for c in turn.choices if c.label == LABEL), None)
    assert button is not None, f"no Suggest button among {[c.label for c in turn.choices]}"

    row = await host.repo.open_session_in("table")
    assert row is not None
    state = get_game(row.game).from_json(await host.repo.state(row.id) or {})
    to_act = game.to_act(state).seats
    asker = next(p for p in people if set(row.seat_of(p.user_id)) & to_act)
    seat = next(s for s in row.seat_of(asker.user_id) if s in to_act)

    answer = await host.press(asker, button.custom_id)
    assert [p.to for p in answer] == [asker.user_id], "a suggestion goes to the presser alone"
    legal = {str(a) for a in game.legal_actions(state, seat)}
    move = answer[0].text.split("`")[1]
    assert move in legal, answer[0].text
    assert "Nothing was played" in answer[0].text
    # The seat as the table knows it: a Raid hero by name, never the seat's id (`hero1`).
    assert answer[0].text.startswith(f"Suggested move for {game.seat_title(row.options, seat)}: ")
    after = await host.repo.open_session_in("table")
    assert after is not None and after.version == row.version, "a suggestion changed the game"

    refused = await host.press(WATCHER, button.custom_id)
    assert [p.to for p in refused] == [WATCHER.user_id]
    assert "not seated" in refused[0].text
    # The seats it lists as the table knows them (a Raid hero by name, not `hero1`).
    assert all(f"{game.seat_title(row.options, s.seat)} (" in refused[0].text for s in row.seats)
