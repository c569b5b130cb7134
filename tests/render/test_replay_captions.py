"""How much of a caption a replay frame shows is read off the caption's own geometry (lines, margin,
text size), for every game the registry holds: the host shares that room among a frame's movers
(bot.host.replay), so a change to the caption strip carries over to it."""

from __future__ import annotations

import pytest

from engine.registry import all_games
from render import board_size, has_picture
from render.replay import CAPTION_MARGIN, TYPICAL_CAPTION, caption_chars, caption_lines, caption_px

GAMES = [g.id for g in all_games() if has_picture(g.id)]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_frames_caption_shows_about_as_many_characters_as_its_geometry_holds(game_id: str) -> None:
    width = board_size(game_id)[0]
    long = " ".join([TYPICAL_CAPTION] * 5)
    lines = caption_lines(long, width - 2 * CAPTION_MARGIN, caption_px(width))
    shown = len(" ".join(lines).removesuffix("…"))
    # Lines break between words, so a line ends a little short of its width: never more than a word.
    assert 0.9 * caption_chars(game_id) <= shown <= caption_chars(game_id), (shown, caption_chars(game_id))
