"""Every board picture is composed by the layered kit (render/kit's docstring), for every game the
registry holds: a copy of its cached static layer with cached stamps and words put on it, never a
picture drawn afresh. Counted here, not timed (the bench times the pictures against the floor): a
supersampled drawing for each move is what held Connect Four, the model a new game copies, at
over 40 times the floor while every other board stood under 5."""

from __future__ import annotations

from typing import Any

import pytest

from bench.render_bench import sample_views
from engine import Game
from engine.registry import all_games
from render import has_picture, kit, render_board
from render.kit.canvas import Canvas

GAMES = [g for g in all_games() if has_picture(g.id)]


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_a_board_is_a_frame_over_its_cached_layer_with_nothing_drawn_anew(
    game: Game[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    views, names = sample_views(game, 12, seed=5)
    for view in views:
        with kit.drawn_images() as drawn:
            render_board(game.id, view, names)
        # Composed on a kit.Frame, which a replay takes as it is, with no PNG to decode.
        assert len(drawn) == 1, len(drawn)
    # The same positions again: their layers, stamps and words are cached now, so no picture
    # draws on a supersampled canvas (the antialiased, slow path) or makes a layer.
    canvases: list[str] = []
    new, over = Canvas.__init__, Canvas.over

    def counted_new(self: Canvas, *args: Any, **kwargs: Any) -> None:
        canvases.append("new")
        new(self, *args, **kwargs)

    def counted_over(cls: type[Canvas], *args: Any, **kwargs: Any) -> Canvas:
        canvases.append("over")
        return over(*args, **kwargs)

    monkeypatch.setattr(Canvas, "__init__", counted_new)
    monkeypatch.setattr(Canvas, "over", classmethod(counted_over))
    layers = kit.LAYERS.report()[0]
    for view in views:
        render_board(game.id, view, names)
    assert (canvases, kit.LAYERS.report()[0]) == ([], layers)
