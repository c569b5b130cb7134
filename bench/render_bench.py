"""Render benchmarks: milliseconds and bytes per board picture, against a blank PNG of its size.

The views come from a seeded random playout, so the pictures show real positions of all stages.
"""

from __future__ import annotations

import io
import math
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from bench import Metric, median
from bench.engine_bench import default_seats, random_ply
from engine import Dice, Game
from render import board_size, has_picture, kit, render_board

# Issue 12: Ignite's picture must not exceed 21 ms; issue 19: every board within 5x the floor.
RENDER_TARGET_MS = 21.0
FLOOR_RATIO_TARGET = 5.0


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


def _ms(run: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    run()
    return (time.perf_counter() - t0) * 1000


def blank_png(size: tuple[int, int]) -> tuple[Callable[[], object], Callable[[], object]]:
    """The floor: a blank palette picture of the board's size encoded as the boards are
    (render.kit.encode_png: zlib level 1, in bands); and, to cross-check it, by Pillow's PNG
    writer at level 6, the boards' encoder before issue 19."""
    blank = Image.new("P", size, 0)
    return (lambda: kit.encode_png(blank), lambda: blank.save(io.BytesIO(), format="PNG", compress_level=6))


def run_game(game: Game[Any, Any], count: int, seed: int = 1) -> list[Metric]:
    views, names = sample_views(game, count, seed)
    # The first picture loads fonts, the palette and the session's static layer once per
    # process; a picture after it is what each later move costs.
    render_board(game.id, views[0], names)
    size = board_size(game.id)
    ours_floor, pillow_floor = blank_png(size)
    times: list[float] = []
    sizes: list[float] = []
    ours: list[float] = []
    pillow: list[float] = []
    for view in views:
        t0 = time.perf_counter()
        png = render_board(game.id, view, names)
        times.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(png))
        # Each picture's floors right after it: a ratio of figures taken under the same load.
        ours.append(_ms(ours_floor))
        pillow.append(_ms(pillow_floor))
    fresh, layer_kib = new_session_ms(game, names, max(2, count // 5), seed + 1000)
    return [
        Metric(
            f"{game.id}.render.ms_median",
            median(times),
            "ms",
            RENDER_TARGET_MS,
            note=f"{len(times)} pictures {size[0]}x{size[1]}",
        ),
        Metric(f"{game.id}.render.ms_max", max(times), "ms"),
        Metric(f"{game.id}.render.bytes", median(sizes), "bytes", note=f"median; max {max(sizes):.0f}"),
        Metric(
            f"baseline.png_ms.{game.id}",
            median(ours),
            "ms",
            note=f"blank PNG {size[0]}x{size[1]}, the boards' encoder",
        ),
        Metric(f"baseline.pillow_png_ms.{game.id}", median(pillow), "ms", note="blank PNG, Pillow level 6"),
        Metric(
            f"{game.id}.render.x_floor",
            median(times) / median(ours),
            "x",
            FLOOR_RATIO_TARGET,
            note="render median over the blank-PNG floor's, each floor timed after a picture",
        ),
        Metric(
            f"{game.id}.render.x_pillow_floor",
            median(times) / median(pillow),
            "x",
            note="the same over Pillow's level-6 blank PNG",
        ),
        Metric(
            f"{game.id}.render.new_session_ms",
            fresh,
            "ms",
            note="median first picture of a newly set-up game (its static layer made if no "
            "game before it shares its board)",
        ),
        Metric(f"{game.id}.render.session_kib", layer_kib, "KiB", note=_session_note(layer_kib)),
    ]


def _session_note(layer_kib: float) -> str:
    cap = kit.LAYERS.max_bytes
    if not layer_kib:
        return "picture cache a new game adds: none, its board's layers are shared with games before it"
    return (
        f"picture cache a new game adds (its board's layer); the cap ({cap // 2**20} MiB per "
        f"drawing process) keeps the {int(cap / 1024 / layer_kib)} most recent, evicting the least"
    )


def new_session_ms(game: Game[Any, Any], names: dict[str, str], games: int, seed: int) -> tuple[float, float]:
    """The first picture of `games` newly set-up games (seeds unseen so far: a board of its own,
    such as an Ignite map, is a static layer to make), median ms; and the KiB of picture cache
    a new board adds (its layer), or 0 when every game shares the layers already made."""
    options = game.validate_options({})
    seats = default_seats(game, options)
    times: list[float] = []
    grown: list[float] = []
    # From an empty layer cache, with a first game's picture untimed (it makes the layers every
    # game shares, such as a frame): what follows is what each new game adds.
    kit.LAYERS.clear()
    render_board(game.id, game.view(game.setup(seats, options, seed - 1), None), names)
    for i in range(games):
        view = game.view(game.setup(seats, options, seed + i), None)
        before = kit.cache_report()["layers_bytes"]
        t0 = time.perf_counter()
        render_board(game.id, view, names)
        times.append((time.perf_counter() - t0) * 1000)
        grown.append((kit.cache_report()["layers_bytes"] - before) / 1024)
    return median(times), max(grown)


def cache_metrics() -> list[Metric]:
    """What the picture caches hold after the run, in this process (a picture worker holds the
    same kind of thing for the sessions it drew), against their caps."""
    report = kit.cache_report()
    layers, stamps = report["layers"], report["stamps"]
    per_layer = report["layers_bytes"] / layers / 1024 if layers else 0.0
    return [
        Metric(
            "render.cache_kib",
            (report["layers_bytes"] + report["stamps_bytes"]) / 1024,
            "KiB",
            note=f"{layers} static layers, {stamps} stamps; caps "
            f"{kit.LAYERS.max_bytes // 2**20} + {kit.STAMPS.max_bytes // 2**20} MiB, "
            "least recently used evicted",
        ),
        Metric(
            "render.layer_kib",
            per_layer,
            "KiB",
            note="per static layer (one per open session whose board no other shares)",
        ),
    ]


def run(games: list[Game[Any, Any]], count: int, seed: int = 1) -> list[Metric]:
    out: list[Metric] = []
    for g in games:
        if has_picture(g.id):
            out += run_game(g, count, seed)
        else:
            out.append(
                Metric(
                    f"{g.id}.render.ms_median",
                    math.nan,
                    "ms",
                    note="not measured: no board picture (render/<game>.py) yet",
                )
            )
    return out + cache_metrics()
