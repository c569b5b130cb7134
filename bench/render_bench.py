"""Render benchmarks: milliseconds and bytes per board picture, against a blank PNG of its size.

The views come from a seeded random playout, so the pictures show real positions of all stages.
"""
from __future__ import annotations

import io
import time
from typing import Any

from PIL import Image

from bench import Metric, median
from bench.engine_bench import default_seats, random_ply
from engine import Dice, Game
from render import board_size, render_board

RENDER_TARGET_MS = 40.0


def sample_views(game: Game[Any, Any], count: int, seed: int) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """`count` spectator views spread over seeded random playouts (a new game when one ends)."""
    options = game.validate_options({})
    seats = default_seats(game, options)
    dice = Dice(seed)
    views: list[dict[str, Any]] = []
    game_seed = seed
    while len(views) < count:
        state = game.setup(seats, options, game_seed)
        game_seed += 1
        views.append(game.view(state, None))
        while len(views) < count and game.outcome(state) is None:
            seat, text = random_ply(game, state, dice)
            game.act(state, seat, text)
            # Every third position keeps the sample spread over the game, not its opening.
            if dice.below(3) == 0 or game.outcome(state) is not None:
                views.append(game.view(state, None))
    names = {s: f"player {i + 1}" for i, s in enumerate(seats)}
    return views[:count], names


def blank_png_ms(size: tuple[int, int], count: int) -> float:
    """The floor: encoding a blank palette image of the board's size as PNG (the level the
    boards use), median of `count`. Not render.kit.blank_png: it quantizes an RGB image with
    Pillow's default median cut first, which costs more than a whole board (see the README)."""
    times: list[float] = []
    for _ in range(count):
        t0 = time.perf_counter()
        buf = io.BytesIO()
        Image.new("P", size, 0).save(buf, format="PNG", compress_level=6)
        times.append((time.perf_counter() - t0) * 1000)
    return median(times)


def run_game(game: Game[Any, Any], count: int, seed: int = 1) -> list[Metric]:
    views, names = sample_views(game, count, seed)
    # The first picture loads fonts and textures once per process; it is not a board's cost.
    render_board(game.id, views[0], names)
    times: list[float] = []
    sizes: list[float] = []
    for view in views:
        t0 = time.perf_counter()
        png = render_board(game.id, view, names)
        times.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(png))
    size = board_size(game.id)
    return [
        Metric(f"{game.id}.render.ms_median", median(times), "ms", RENDER_TARGET_MS,
               note=f"{len(times)} pictures {size[0]}x{size[1]}"),
        Metric(f"{game.id}.render.ms_max", max(times), "ms", RENDER_TARGET_MS),
        Metric(f"{game.id}.render.bytes", median(sizes), "bytes", note=f"median; max {max(sizes):.0f}"),
        Metric(f"baseline.png_ms.{game.id}", blank_png_ms(size, count), "ms",
               note=f"blank PNG {size[0]}x{size[1]}"),
    ]


def run(games: list[Game[Any, Any]], count: int, seed: int = 1) -> list[Metric]:
    return [m for g in games for m in run_game(g, count, seed)]
