"""Pictures on a phone: where the whole board's smallest labels would be under 11 pixels at a
400-pixel-wide display, `/game board` carries a close-up of where the action was, enlarged until
they read."""

from __future__ import annotations

import importlib
import io
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
from bot.config import Settings
from bot.host import Host
from bot.posts import Caller
from engine import Dice, get_game

sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))
from seeded_play import MODE_IDS, MODES, play

# The modes whose board is too wide to read whole on a phone: their posts carry a close-up.
WIDE = [m for m in MODES if render.needs_close_up(m[0])]
WIDE_IDS = [i for (game_id, _, _), i in zip(MODES, MODE_IDS, strict=True) if render.needs_close_up(game_id)]


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
        # Shown 1:1 at phone width, the smallest label of the board's spot is at least 11 pixels high.
        assert img.width == render.PHONE_WIDTH
        at = importlib.import_module("render." + game_id.replace("-", "_")).focus(view)
        spot, *panel = render.close_up_pieces(game_id, png, view)
        if at is not None:
            assert render.smallest_text(game_id) * spot.scale >= render.LEGIBLE
            left, top, right, bottom = spot.box
            assert left <= at[0] <= right and top <= at[1] <= bottom
            # The spot stays on the map: no sliver of the panel, which follows it whole.
            assert all(
                right <= b[0] or b[2] <= left or bottom <= b[1] or b[3] <= top for b in (p.box for p in panel)
            )
            # No taller than 3 by 4 unless the spot is already cut to half its width.
            if img.height > render.PHONE_WIDTH * render.TALLEST:
                assert (bottom - top) * 2 <= right - left + 1, (game_id, img.size, spot)
    if render.needs_close_up(game_id):  # a board that reads whole has no close-up to make
        assert made, f"{game_id}: no close-up over a whole seeded game"


def _text_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every text size the pictures draw from now on (caches emptied so none is skipped)."""
    from render import kit
    from render.kit.canvas import Canvas
    from render.kit.frame import Frame

    sizes: list[int] = []
    for cls in (Canvas, Frame):
        drawn = cls.text

        def spy(self: Any, xy: Any, text: str, size: int, *a: Any, _drawn: Any = drawn, **k: Any) -> None:
            if text.strip():
                sizes.append(size)
            _drawn(self, xy, text, size, *a, **k)

        monkeypatch.setattr(cls, "text", spy)
    kit.LAYERS.clear()
    kit.STAMPS.clear()
    return sizes


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_every_picture_reads_on_a_phone_whole_or_by_its_close_up(
    game_id: str, options: dict[str, str], seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Text at least 11 pixels high at a 400-pixel display: on the whole picture where it is
    posted alone, else on the close-up every post carries."""
    sizes = _text_sizes(monkeypatch)
    game = get_game(game_id)
    names = {seat: f"player {i}" for i, seat in enumerate(game.seat_names(game.validate_options(options)))}
    for i, m in enumerate(play(game_id, options, seats, 2, plies=120)):
        if i % 10 == 0 or m.game.outcome(m.state) is not None:
            render.render_board(game_id, m.game.view(m.state, None), names)
    width, _ = render.board_size(game_id)
    smallest = min(sizes)
    # The size a picture declares is the smallest it draws: what the close-up's decision reads.
    assert smallest >= render.smallest_text(game_id)
    if render.needs_close_up(game_id):
        module = importlib.import_module("render." + game_id.replace("-", "_"))
        assert hasattr(module, "focus"), f"{game_id}: too small to read whole, and no close-up"
    else:
        assert smallest * render.PHONE_WIDTH / width >= render.LEGIBLE, (game_id, smallest, width)


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


def test_crowded_aims_at_the_most_points_one_close_up_holds() -> None:
    from render.kit import crowded

    assert crowded([], render.CLOSE_UP) is None
    points = [(900.0, 900.0), (100.0, 100.0), (160.0, 120.0), (130.0, 180.0)]
    assert crowded(points, render.CLOSE_UP) == (130.0, 140.0)


def _first(game_id: str, options: dict[str, str], quiet: Any) -> dict[str, Any]:
    """The first position of a seeded game where nothing has happened yet to aim at."""
    for m in play(game_id, options, 2, 1, plies=200):
        view = m.game.view(m.state, None)
        if quiet(view):
            return view
    raise AssertionError(f"{game_id}: no such position")


def _near(at: tuple[float, float] | None, points: list[tuple[float, float]]) -> bool:
    half = render.CLOSE_UP / 2
    return at is not None and any(abs(x - at[0]) <= half and abs(y - at[1]) <= half for x, y in points)


def test_a_turn_with_no_action_yet_closes_in_on_the_ignite_players_units() -> None:
    from render.ignite import GRID, focus
    from render.ignite.reading import read_pos

    view = _first("ignite", {}, lambda v: v["units"] and v["to_act"]["seats"] and not v["last_moves"])
    acting = set(view["to_act"]["seats"])
    mine = [GRID.center(*read_pos(u["square"])) for u in view["units"] if u["seat"] in acting and u["square"]]
    assert mine and _near(focus(view), mine)


def test_a_turn_with_no_roll_yet_closes_in_on_the_battlelore_side_to_play() -> None:
    from render.battlelore import centre, focus

    view = _first("battlelore", {}, lambda v: v["step"] == "order" and not v["rolls"] and not v["pending"])
    mine = [centre(u["hex"]) for u in view["units"] if u["owner"] == view["active"]]
    theirs = [centre(u["hex"]) for u in view["units"] if u["owner"] != view["active"]]
    at = focus(view)
    assert mine and _near(at, mine)
    assert at is not None and min(abs(x - at[0]) + abs(y - at[1]) for x, y in mine) < min(
        abs(x - at[0]) + abs(y - at[1]) for x, y in theirs
    )


def test_an_activation_with_no_attack_yet_closes_in_on_the_fighter_to_act() -> None:
    from render.dire_alliance import focus
    from render.dire_alliance.layout import pt

    def quiet(v: dict[str, Any]) -> bool:
        return bool(v.get("active")) and not (v.get("last_attack") or v.get("move") or v.get("trace"))

    view = _first("dire-alliance", {}, quiet)
    area = view["fighters"][view["active"]["fighter"]]["area"]
    [where] = [pt(a["designator"]) for a in view["board"]["areas"] if a["id"] == area]
    assert focus(view) == (where[0], where[1] - 10)


def _battlelore_panel() -> tuple[float, float, float, float]:
    from render import battlelore as bl

    return (bl.PANEL_X, bl.CAPTION_H, bl.WIDTH, bl.LEGEND_Y)


def _dire_alliance_panel() -> tuple[float, float, float, float]:
    from render.dire_alliance import layout as da

    return (da.PANEL_X, da.CAPTION_H, da.WIDTH, da.LEGEND_Y)


def _ignite_panel() -> tuple[float, float, float, float]:
    from render.ignite import layout as ig

    return (0, ig.PANEL_Y, ig.WIDTH, ig.ROW_LEGEND)


# Where each wide picture's side panel draws its lines, from its layout (not from what the close-up
# declares): beside the map for BattleLore and Dire Alliance, under it for Ignite.
PANEL_REGIONS = {
    "battlelore": _battlelore_panel,
    "dire-alliance": _dire_alliance_panel,
    "ignite": _ignite_panel,
}


def _per_game(table: dict[str, Any], name: str, game_id: str, what: str) -> Any:
    """A wide picture's entry in one of this file's tables; a test fails naming what to add."""
    if game_id not in table:
        pytest.fail(
            f"{game_id}'s picture needs a close-up: add {name}[{game_id!r}] in tests/render/test_close_up.py,"
            f" {what}",
            pytrace=False,
        )
    return table[game_id]


def _panel_region(game_id: str) -> tuple[float, float, float, float]:
    region = _per_game(PANEL_REGIONS, "PANEL_REGIONS", game_id, "where its layout draws the side panel")
    return region()  # type: ignore[no-any-return]


@pytest.mark.parametrize(("game_id", "options", "seats"), WIDE, ids=WIDE_IDS)
def test_every_line_of_the_panel_reads_on_a_phone_in_the_close_up(
    game_id: str, options: dict[str, str], seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every text the side panel draws, at every sampled position (setup steps with an empty board
    included), is in a piece of the close-up that shows it at least 11 pixels high at a 400-pixel
    display."""
    from render.kit.canvas import Canvas
    from render.kit.frame import Frame

    drawn: list[tuple[float, float, int, str]] = []
    for cls in (Canvas, Frame):
        original = cls.text

        def spy(self: Any, xy: Any, text: str, size: int, *a: Any, _o: Any = original, **k: Any) -> None:
            if text.strip():
                drawn.append((float(xy[0]), float(xy[1]), size, text))
            _o(self, xy, text, size, *a, **k)

        monkeypatch.setattr(cls, "text", spy)
    left, top, right, bottom = _panel_region(game_id)
    checked = 0
    for i, m in enumerate(play(game_id, options, seats, 3, plies=200)):
        if i % 7 and i > 12:
            continue
        from render import kit

        kit.LAYERS.clear()  # the panel's fixed words are drawn again, so they are checked too
        drawn.clear()
        view = m.game.view(m.state, None)
        png = render.render_board(game_id, view, {})
        pieces = render.close_up_pieces(game_id, png, view)
        for x, y, size, text in drawn:
            if not (left <= x < right and top <= y < bottom):
                continue
            checked += 1
            # A close-up is PHONE_WIDTH wide: a piece's scale is its size on a phone.
            shown = [size * p.scale for p in pieces if p.box[0] <= x < p.box[2] and p.box[1] <= y < p.box[3]]
            assert shown and max(shown) >= render.LEGIBLE, (game_id, i, view.get("step"), text, size, pieces)
    assert checked


Colours = dict[tuple[int, int, int], set[str]]


def _ignite_colours() -> tuple[Colours, Colours]:
    from render.ignite import layout as ig

    out = {ground: {name} for name, (ground, _) in ig.TERRAIN.items()}
    return out | {fill: {name} for name, (fill, _, _) in ig.MINION_COLOURS.items() if name != "white"}, {}


def _dire_alliance_colours() -> tuple[Colours, Colours]:
    from render.dire_alliance import layout as da

    return {da.STUNNED: {"stunned", "claimed"}}, {da.HIT: {"hit"}, da.BLOCK: {"block"}, da.DRAIN: {"drain"}}


def _battlelore_colours() -> tuple[Colours, Colours]:
    from render import battlelore as bl

    out = {colour: {name} for name, colour in bl.TERRAIN.items()}
    faces = {colour: {name} for name, (_, colour) in bl.FACES.items()}
    return out | {bl.YELLOW: {"yellow hex"}, bl.INFERNO: {"inferno"}}, faces


# Colours that mean one symbol of the legend (any of the words given), from each layout: on the
# map's spot, and on the side panel.
KEY_COLOURS = {
    "ignite": _ignite_colours,
    "dire-alliance": _dire_alliance_colours,
    "battlelore": _battlelore_colours,
}


def _key_colours(game_id: str) -> tuple[Colours, Colours]:
    colours = _per_game(KEY_COLOURS, "KEY_COLOURS", game_id, "the colours that mean a symbol of its legend")
    return colours()  # type: ignore[no-any-return]


@pytest.mark.parametrize(("game_id", "options", "seats"), WIDE, ids=WIDE_IDS)
def test_the_close_up_keys_every_symbol_it_shows_in_words_that_read_on_a_phone(
    game_id: str, options: dict[str, str], seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key strip under a wide board reads at 3 to 6 pixels on a phone: the close-up carries a
    key of its own to every symbol its spot and panel show, its words at least 11 pixels high at a
    400-pixel display. A symbol's colour seen in a piece of the close-up (a terrain, a minion's
    colour, a stunned token, a die's face) has its word in that key, and no word is outside the
    picture's legend."""
    from render.kit.canvas import Canvas

    drawn: list[tuple[int, str]] = []
    original = Canvas.text
    closing = [False]  # while the close-up is drawn

    def spy(self: Any, xy: Any, text: str, size: int, *a: Any, **k: Any) -> None:
        drawn.append((size, text))
        # Whole on the picture: no word of the key (drawn from its left end) runs off its edge.
        assert not closing[0] or xy[0] + self.text_width(text, size) <= self.width, (text, xy, self.width)
        original(self, xy, text, size, *a, **k)

    monkeypatch.setattr(Canvas, "text", spy)
    module = importlib.import_module("render." + game_id.replace("-", "_"))
    colours = _key_colours(game_id)
    keyed = 0
    for i, m in enumerate(play(game_id, options, seats, 5, plies=160)):
        if i % 8:
            continue
        view = m.game.view(m.state, None)
        png = render.render_board(game_id, view, {})
        board = Image.open(io.BytesIO(png)).convert("RGB")
        words = render.close_up_key(game_id, png, view)
        # The legend's terms are its words up to a bracket, comma or colon (render.ignite.legend).
        terms = {w.split(" (")[0].split(",")[0].split(":")[0] for w in words}
        assert terms <= set(module.legend(view)), (game_id, i, words)
        drawn.clear()
        closing[0] = True
        render.close_up(game_id, png, view)
        closing[0] = False
        sizes = {text: size for size, text in drawn if text in words}
        assert set(sizes) == set(words) and all(size >= render.LEGIBLE for size in sizes.values()), sizes
        keyed += bool(words)
        pieces = render.close_up_pieces(game_id, png, view)
        spot = pieces[0] if module.focus(view) is not None else None
        for piece in pieces:
            crop = board.crop(piece.box)
            seen = {colour: n for n, colour in crop.getcolors(1 << 16) or []}
            for colour, names in colours[piece is not spot].items():
                if seen.get(colour, 0) >= 40 and _solid(crop, colour) >= 40:
                    assert names & set(words), (game_id, i, colour, names, words, piece)
    assert keyed


def _solid(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """The pixels of `colour` inside a 2×2 block of it: a symbol's area, not the blend of a
    1-pixel line over another ground (a tile seam over snow blends to rock's grey)."""
    w, h = image.size
    px = image.load()
    assert px is not None
    return sum(
        1
        for x in range(w - 1)
        for y in range(h - 1)
        if all(px[x + dx, y + dy] == colour for dx in (0, 1) for dy in (0, 1))
    )


def test_the_ignite_close_up_shows_the_round_cards_faces_4_to_6_under_its_faces_1_to_3() -> None:
    """The Round card's six faces stand in two columns on the board; the close-up shows its
    second column right under the first, not after the players beside "Units lost"."""
    from render.ignite import layout

    [m] = [m for i, m in enumerate(play("ignite", {"placement": "auto"}, 3, 1, plies=90)) if i == 89]
    view = m.game.view(m.state, None)
    png = render.render_board("ignite", view, {})
    panel = render.close_up_pieces("ignite", png, view)[1:]  # after the spot

    def faces(first: bool) -> int:
        return next(
            k
            for k, p in enumerate(panel)
            if layout.ROW_ROUND - 4 <= p.box[1] < layout.ROW_COLOURS - 4
            and (p.box[2] <= layout.PANEL_SPLIT) == first
        )

    one_to_three, four_to_six = faces(True), faces(False)
    assert four_to_six == one_to_three + 1
    assert panel[four_to_six].at[1] > panel[one_to_three].at[1]  # under it, on a row of its own
