"""Pictures on a phone: where the whole board's smallest labels would be under 11 pixels at a
400-pixel-wide display, `/game board` carries a close-up of where the action was, enlarged until
they read."""

from __future__ import annotations

import io
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

import render
from bot.config import Settings
from bot.host import Host
from bot.posts import Caller
from engine import Dice, get_game

sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))
from seeded_play import MODE_IDS, MODES, play


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_a_close_up_reads_at_phone_width_where_the_board_does_not(
    game_id: str, options: dict[str, str], seats: int
) -> None:
    made = 0
    for i, m in enumerate(play(game_id, options, seats, 1, plies=150)):
        if i % 15:
            continue
        view = m.game.view(m.state, None)
        png = render.render_board(game_id, view, {})
        near = render.close_up(game_id, png, view)
        if near is None:
            continue
        made += 1
        img = Image.open(io.BytesIO(near))
        assert render.needs_close_up(game_id)
        # Shown at phone width, the smallest label of the board is at least 11 pixels high.
        shown = render.SMALLEST_TEXT * render.PHONE_WIDTH / render.CLOSE_UP
        assert img.width == img.height >= render.PHONE_WIDTH and shown >= render.LEGIBLE
    if game_id != "ignis":  # Ignis names no place of action to close in on
        assert made, f"{game_id}: no close-up over a whole seeded game"


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    h = await Host.open(Settings(db_path=str(tmp_path / "c.sqlite3"), rate_limit_per_minute=0))
    yield h
    await h.close()


async def test_game_board_carries_the_close_up_with_its_alt_text(host: Host) -> None:
    red, blue = Caller("r", "red", "t", guild="g"), Caller("b", "blue", "t", guild="g")
    game = get_game("dire-alliance")
    await host.command(red, "new", {"game": "dire-alliance", "seed": "4", "seat": "red"})
    await host.command(blue, "join", {"seat": "blue"})
    await host.command(red, "start", {})
    chooser = Dice(4)
    for _ in range(200):
        row = await host.repo.open_session_in("t")
        assert row is not None
        state = game.from_json(await host.repo.state(row.id) or {})
        if game.view(state, None).get("last_attack"):
            break
        seat = sorted(game.to_act(state).seats)[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        fights = [m for m in legal if " melee " in f" {m} " or " shoot " in f" {m} "]
        pick = (fights or legal)[chooser.below(len(fights or legal))]
        await host.command(red if seat == "red" else blue, "play", {"action": pick})
    [post] = await host.command(red, "board", {})
    assert len(post.images) == 2
    near = post.images[1]
    assert near.filename.endswith("-close-up.png") and "close-up" in near.description
    assert Image.open(io.BytesIO(near.data)).width >= render.PHONE_WIDTH
