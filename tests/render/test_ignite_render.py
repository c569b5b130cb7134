"""The Ignite battlefield picture: size, budget, determinism, and that each thing the issue asks
to be shown (terrain, minions by colour and level, health, clips, dragon, enemy moves, favor,
losses, cards, result) is in the pixels. Views are built by hand, plus one real seeded game.
"""

from __future__ import annotations

import copy
import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PIL import Image, ImageChops, ImageStat

from render import board_size, ignite, kit, render_board
from render.ignite.legend import legend_entries
from render.ignite.symbols import label_colour, label_size

NAMES = {"ratmen": "alice", "stoneborn": "bob"}


def _terrain(fill: str = "grass") -> list[list[str]]:
    rows = [["village" if c in (0, 17) or r in (0, 17) else fill for c in range(18)] for r in range(18)]
    for c, r in ((8, 8), (9, 8), (8, 9), (9, 9)):
        rows[r][c] = "bazaar"
    return rows


def ignite_view(**changes: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "game": "ignite",
        "round": 3,
        "phase": "player",
        "to_act": {"seats": ["ratmen"], "decision": None, "prompt": "", "default": None},
        "turn": "ratmen",
        "terrain": _terrain(),
        "units": [],
        "minions": [],
        "dragon": None,
        "power_cards": [],
        "apocalypse_cards": [],
        "divine_favor": 3,
        "units_lost": 0.0,
        "loss_threshold": 4,
        "last_moves": [],
        "players": [{"seat": "ratmen"}, {"seat": "stoneborn"}],
        "pending": None,
        "outcome": None,
    }
    view.update(changes)
    return view


def _img(view: dict[str, Any]) -> Image.Image:
    img = Image.open(io.BytesIO(render_board("ignite", view, NAMES)))
    img.load()
    return img.convert("RGB")


def _crop(img: Image.Image, col: int, row: int, inset: int = 2) -> Image.Image:
    x0, y0, x1, y1 = ignite.GRID.box(col, row)
    return img.crop((int(x0) + inset, int(y0) + inset, int(x1) - inset, int(y1) - inset))


def _diff(a: Image.Image, b: Image.Image) -> float:
    return float(sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / len(a.getbands()))


def _near(p: Any, c: tuple[int, int, int], tol: int = 10) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(p, c, strict=False))


def _count(img: Image.Image, colour: tuple[int, int, int], tol: int = 14) -> int:
    w, h = img.size
    return sum(1 for y in range(h) for x in range(w) if _near(img.getpixel((x, y)), colour, tol))


def minion(colour: str, level: int = 1, square: str = "e5", **more: Any) -> dict[str, Any]:
    return {
        "id": "m1",
        "colour": colour,
        "level": level,
        "square": square,
        "damage": 0,
        "half_damage": False,
        "catapult": None,
        "flags": [],
        **more,
    }


def unit(square: str = "e5", health: int = 3, max_health: int = 3, **more: Any) -> dict[str, Any]:
    return {
        "id": "ratmen1",
        "seat": "ratmen",
        "race": "ratmen",
        "square": square,
        "health": health,
        "max_health": max_health,
        "shield": 0,
        "knocked_down": False,
        "immobilized": False,
        **more,
    }


def test_picture_is_a_png_of_the_documented_size() -> None:
    data = render_board("ignite", ignite_view(), NAMES)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    assert img.size == board_size("ignite") == ignite.SIZE
    # At least 40-pixel squares, and no wider than a phone shows at its full resolution.
    assert ignite.CELL >= 40 and ignite.GRID.cell >= 40
    assert img.size[0] <= 800


def test_busy_board_stays_within_byte_budget() -> None:
    terrain = _terrain()
    kinds = ["grass", "forest", "lava", "snow", "water", "scorched", "acid", "rock"]
    for r in range(1, 17):
        for c in range(1, 17):
            if terrain[r][c] != "bazaar":
                terrain[r][c] = kinds[(r * 5 + c * 3) % len(kinds)]
    colours = list(ignite.MINION_COLOURS)
    minions = [
        minion(
            colours[i % 8],
            1 + i % 2,
            f"{'abcdefghijklmnopqr'[i % 18]}{1 + i // 18 * 2}",
            damage=i % 2,
            half_damage=i % 3 == 0,
        )
        for i in range(40)
    ]
    view = ignite_view(
        terrain=terrain,
        minions=minions,
        units=[unit("c10", 2), unit("k12", 1, 4)],
        dragon={"square": "j5", "health": 2},
        power_cards=[{"name": "hardened"}, {"name": "catapult"}],
        apocalypse_cards=[{"name": "eclipse"}],
        last_moves=[{"id": "m1", "path": ["a1", "b2", "c3"], "attacked": ["c10"]}],
    )
    # zlib level 1 (see render/kit/png.py): larger files for a third of the encode time.
    assert len(render_board("ignite", view, NAMES)) < 110_000


def test_same_view_gives_same_bytes() -> None:
    view = ignite_view(minions=[minion("red")], units=[unit("f6")])
    assert render_board("ignite", view, NAMES) == render_board("ignite", copy.deepcopy(view), NAMES)


def test_rendering_does_not_mutate_the_view() -> None:
    view = ignite_view(
        minions=[minion("red", half_damage=True)],
        units=[unit("f6", 2)],
        dragon={"square": "j5", "health": 2},
        last_moves=[{"id": "m1", "path": ["e3", "e4", "e5"], "attacked": ["f6"]}],
    )
    before = copy.deepcopy(view)
    render_board("ignite", view, NAMES)
    assert view == before


def test_each_terrain_type_looks_different_in_grey() -> None:
    terrain = _terrain()
    kinds = list(ignite.TERRAIN)
    for i, kind in enumerate(kinds):
        terrain[2][1 + i] = kind
    img = _img(ignite_view(terrain=terrain)).convert("L")
    crops = {kind: _crop(img, 1 + i, 2) for i, kind in enumerate(kinds)}
    for i, a in enumerate(kinds):
        for b in kinds[i + 1 :]:
            assert _diff(crops[a], crops[b]) > 6, f"{a} and {b} look alike in grey"


def test_the_eight_minion_colours_differ() -> None:
    empty = _crop(_img(ignite_view()), 4, 4)
    crops = {c: _crop(_img(ignite_view(minions=[minion(c)])), 4, 4) for c in ignite.MINION_COLOURS}
    for colour, crop in crops.items():
        assert _diff(crop, empty) > 10, f"no {colour} minion drawn"
    colours = sorted(crops)
    for i, a in enumerate(colours):
        for b in colours[i + 1 :]:
            assert _diff(crops[a], crops[b]) > 5, f"{a} and {b} minions look alike"


def test_minion_letter_names_its_colour_without_colour() -> None:
    # Same fill, different letter: the letters alone must tell the minions apart in grey.
    styles = {c: ignite.minion_style(c, 1) for c in ignite.MINION_COLOURS}
    assert len({s.letter for s in styles.values()}) == 8
    assert all(s.mark == "letter" for s in styles.values())


def test_level_two_minion_has_another_shape() -> None:
    one = _crop(_img(ignite_view(minions=[minion("white", 1)])), 4, 4).convert("L")
    two = _crop(_img(ignite_view(minions=[minion("white", 2)])), 4, 4).convert("L")
    assert _diff(one, two) > 4


def test_unit_health_is_drawn_as_pips() -> None:
    full = _crop(_img(ignite_view(units=[unit(health=3)])), 4, 4, inset=0)
    hurt = _crop(_img(ignite_view(units=[unit(health=1)])), 4, 4, inset=0)
    green_full = _count(full, ignite.HEALTH_ON)
    green_hurt = _count(hurt, ignite.HEALTH_ON)
    assert green_full > 0
    # Two of three pips lost: about a third of the green remains.
    assert green_hurt * 2 < green_full


def test_minion_damage_and_dagger_clip_are_shown() -> None:
    plain = _crop(_img(ignite_view(minions=[minion("blue")])), 4, 4, inset=0)
    clipped = _crop(_img(ignite_view(minions=[minion("blue", half_damage=True)])), 4, 4, inset=0)
    damaged = _crop(_img(ignite_view(minions=[minion("blue", damage=1)], minion_health=2)), 4, 4, inset=0)
    assert _count(plain, ignite.DAMAGE) == 0
    assert _count(clipped, ignite.DAMAGE) > 5
    assert _count(damaged, ignite.DAMAGE) > 5


def test_players_war_machine_stands_in_a_clear_base_and_a_frame_is_an_outline() -> None:
    empty = _crop(_img(ignite_view()), 4, 4).convert("L")
    built = _crop(
        _img(
            ignite_view(
                war_machines=[
                    {
                        "id": "ballista1",
                        "kind": "ballista",
                        "owner": "stoneborn",
                        "square": "e5",
                        "built": True,
                    }
                ]
            )
        ),
        4,
        4,
    ).convert("L")
    frame = _crop(
        _img(
            ignite_view(
                war_machines=[
                    {
                        "id": "ballista1",
                        "kind": "ballista",
                        "owner": "stoneborn",
                        "square": "e5",
                        "built": False,
                    }
                ]
            )
        ),
        4,
        4,
    ).convert("L")
    assert _diff(empty, built) > 4 and _diff(empty, frame) > 1
    assert _diff(built, frame) > 4  # a finished machine and a frame read differently


def test_dragon_is_drawn_with_its_health() -> None:
    # The dragon is drawn larger than a space: look at the space and a margin round it.
    none = _crop(_img(ignite_view()), 9, 4, inset=-10)
    dragon = _crop(_img(ignite_view(dragon={"square": "j5", "health": 3})), 9, 4, inset=-10)
    hurt = _crop(_img(ignite_view(dragon={"square": "j5", "health": 1})), 9, 4, inset=-10)
    assert _diff(none, dragon) > 15
    assert _count(dragon, ignite.DAMAGE) > _count(hurt, ignite.DAMAGE)


def test_enemy_move_is_drawn_as_an_arrow_along_its_path() -> None:
    moved = ignite_view(
        minions=[minion("green", square="e8")],
        last_moves=[{"id": "m1", "path": ["e3", "e4", "e5", "e6", "e7", "e8"], "attacked": []}],
    )
    still = ignite_view(minions=[minion("green", square="e8")])
    a, b = _img(moved), _img(still)
    for row in (3, 4, 5):  # squares e4..e6 the minion walked through
        x, y = ignite.GRID.center(4, row)
        pa = a.getpixel((int(x), int(y)))
        pb = b.getpixel((int(x), int(y)))
        assert kit.luminance(pa) < 60, f"no arrow through row {row + 1}"
        assert kit.luminance(pb) > 120


def test_enemy_attack_marks_its_target() -> None:
    attacked = ignite_view(
        minions=[minion("red", square="e5")],
        units=[unit("e9")],
        last_moves=[{"id": "m1", "path": ["e5"], "attacked": ["e9"]}],
    )
    quiet = ignite_view(minions=[minion("red", square="e5")], units=[unit("e9")])
    a = _crop(_img(attacked), 4, 8, inset=0)
    q = _crop(_img(quiet), 4, 8, inset=0)
    assert _count(a, ignite.ATTACK) > _count(q, ignite.ATTACK) + 10


def _panel_row(img: Image.Image, y: float, h: float = 22) -> Image.Image:
    return img.crop((0, int(y), ignite.WIDTH, int(y + h)))


def test_divine_favor_shows_one_star_per_token() -> None:
    gold = {
        n: _count(_panel_row(_img(ignite_view(divine_favor=n)), ignite.ROW_STATUS), kit.GOLD)
        for n in (0, 1, 3)
    }
    assert gold[0] == 0
    assert gold[1] > 0
    assert abs(gold[3] - 3 * gold[1]) <= gold[1] // 2


def test_units_lost_bar_fills_toward_the_threshold() -> None:
    red = {
        lost: _count(
            _panel_row(_img(ignite_view(units_lost=lost, loss_threshold=4)), ignite.ROW_STATUS), ignite.DAMAGE
        )
        for lost in (0.0, 1.0, 2.0)
    }
    assert red[0.0] == 0
    assert red[1.0] > 0
    assert abs(red[2.0] - 2 * red[1.0]) <= red[1.0] // 4


def test_active_power_and_apocalypse_cards_are_listed() -> None:
    none = _panel_row(_img(ignite_view()), ignite.ROW_CARDS, 48)
    some = _panel_row(
        _img(ignite_view(power_cards=[{"name": "hardened"}], apocalypse_cards=[{"name": "eclipse"}])),
        ignite.ROW_CARDS,
        48,
    )
    assert _diff(none, some) > 1
    power_row = _panel_row(_img(ignite_view(power_cards=[{"name": "hardened"}])), ignite.ROW_CARDS)
    apoc_row = _panel_row(_img(ignite_view(power_cards=[{"name": "hardened"}])), ignite.ROW_CARDS + 24)
    assert _diff(power_row, _panel_row(_img(ignite_view()), ignite.ROW_CARDS)) > 1
    assert _diff(apoc_row, _panel_row(_img(ignite_view()), ignite.ROW_CARDS + 24)) < 0.2


def test_result_colours_the_caption_bar() -> None:
    win = _img(ignite_view(phase="over", outcome={"winners": ["ratmen"], "losers": [], "reason": "x"}))
    loss = _img(ignite_view(phase="over", outcome={"winners": [], "losers": ["ratmen"], "reason": "y"}))
    assert _near(win.getpixel((3, 3)), kit.GOLD)
    assert _near(loss.getpixel((3, 3)), (150, 30, 36))
    assert _near(_img(ignite_view()).getpixel((3, 3)), kit.BAR)


def test_rendering_from_many_threads_gives_the_same_bytes() -> None:
    views = [ignite_view(minions=[minion(c)], divine_favor=i) for i, c in enumerate(ignite.MINION_COLOURS)]
    expected = [render_board("ignite", v, NAMES) for v in views]
    with ThreadPoolExecutor(max_workers=6) as pool:
        got = list(pool.map(lambda v: render_board("ignite", v, NAMES), views))
    assert got == expected


def test_views_of_a_real_seeded_game_render() -> None:
    # The rules package's own views: a seeded game, random legal actions, every picture drawn.
    from engine import Dice, get_game

    game = get_game("ignite")
    options = game.validate_options({})
    seats = game.seat_names(options)[:2]
    state = game.setup(seats, options, 11)
    chooser = Dice(11)
    saw_enemy_moves = False
    for _ in range(300):
        if game.outcome(state) is not None or saw_enemy_moves:
            break
        seat = sorted(game.to_act(state).seats)[0]
        legal = game.legal_actions(state, seat)
        game.act(state, seat, str(legal[chooser.below(len(legal))]))
        view = game.view(state, None)
        saw_enemy_moves = saw_enemy_moves or bool(view.get("last_moves"))
        data = render_board("ignite", view, {s: s for s in seats})
        assert Image.open(io.BytesIO(data)).size == ignite.SIZE
        assert len(data) < 110_000
    assert saw_enemy_moves


# ---- issue 12: what a group must be able to see ----------------------------------------------


def _late_round_view() -> dict[str, Any]:
    """Round 17 of a four-player game: 36 minions of every colour and level, twelve units, the
    dragon, the Round card rolled, every minion's whole path, and a tie the players owe."""
    colours = list(ignite.MINION_COLOURS)
    terrain = _terrain()
    kinds = ["grass", "forest", "lava", "snow", "water", "scorched", "acid", "rock"]
    for r in range(1, 17):
        for c in range(1, 17):
            if terrain[r][c] != "bazaar" and (r * 7 + c * 3) % 5 == 0:
                terrain[r][c] = kinds[(r + c) % len(kinds)]
    minions, moves = [], []
    for i in range(36):
        col, row = (i * 5) % 18, 2 + (i * 7) % 13
        square = f"{'abcdefghijklmnopqr'[col]}{row + 1}"
        start = f"{'abcdefghijklmnopqr'[col]}{max(1, row - 2)}"
        label = f"m{i + 1}"
        minions.append(
            minion(
                colours[i % 8],
                1 + (i // 8) % 2,
                square,
                id=label,
                label=label,
                damage=i % 3 == 0,
                flags=["cannot_act"] if i % 9 == 4 else [],
            )
        )
        if row - 2 >= 0 and i % 2 == 0:
            moves.append(
                {"id": label, "path": [start, f"{start[0]}{max(1, row - 1) + 1}", square], "attacked": []}
            )
    seats = ["ratmen", "stoneborn", "sandwalkers", "elves"]
    tags = {"ratmen": "r", "stoneborn": "st", "sandwalkers": "sa", "elves": "e"}
    units = [
        unit(
            f"{'cfjmo'[k % 5]}{16 + k % 3}",
            1 + k % 3,
            3,
            seat=seat,
            race=seat,
            id=f"{seat}{k + 1}",
            label=f"{tags[seat]}{k + 1}",
        )
        for s_i, seat in enumerate(seats)
        for k in range(s_i * 3, s_i * 3 + 3)
    ]
    tie = minions[10]
    return ignite_view(
        round=17,
        phase="enemy",
        terrain=terrain,
        minions=minions,
        units=units,
        dragon={"square": "j4", "health": 2},
        last_moves=moves,
        players=[{"seat": s} for s in seats],
        power_cards=[{"name": "war drums"}, {"name": "hardened"}],
        apocalypse_cards=[{"name": "eclipse"}],
        divine_favor=2,
        units_lost=1.5,
        loss_threshold=6,
        round_card={
            "name": "Round card 17 (2-6 players, stand-in)",
            "faces": {
                "1": "2 blue",
                "2": "1 red, 1 green",
                "3": "3 purple",
                "4": "2 orange + Apocalypse card",
                "5": "1 black, 2 white",
                "6": "4 yellow",
            },
            "rolled": 4,
        },
        pending={
            "kind": "tie",
            "prompt": f"{tie['id']}: choose its target",
            "minion": tie["id"],
            "square": tie["square"],
            "candidates": [units[0]["square"], units[4]["square"]],
        },
    )


def test_late_round_board_with_36_minions_reads_at_phone_width(tmp_path: Any) -> None:
    view = _late_round_view()
    data = render_board(
        "ignite", view, {"ratmen": "alice", "stoneborn": "bob", "sandwalkers": "carol", "elves": "dan"}
    )
    (tmp_path / "late-round.png").write_bytes(data)  # to look at: pytest --basetemp=...
    img = Image.open(io.BytesIO(data)).convert("RGB")
    # A phone shows a picture across its width at about 1,100 device pixels: this one is shown
    # at its own size or larger, with 40-pixel squares and labels of 10 pixels or more.
    assert img.size[0] <= 1100
    for m in view["minions"]:
        assert label_size(m["label"]) >= 10
    # Every minion's label is drawn: two minions alike in all but the label look different.
    a = _crop(_img(ignite_view(minions=[minion("red", id="m7", label="m7")])), 4, 4)
    b = _crop(_img(ignite_view(minions=[minion("red", id="m8", label="m8")])), 4, 4)
    assert _diff(a, b) > 1


def test_unit_label_matches_the_text_in_its_seats_colour() -> None:
    one = _img(ignite_view(units=[unit(label="r1")]))
    two = _img(ignite_view(units=[unit(label="r2")]))
    assert _diff(_crop(one, 4, 4), _crop(two, 4, 4)) > 1
    # The label is written in the seat's colour (darkened to read on the cream shield).
    assert _count(_crop(one, 4, 4, inset=0), label_colour(0), tol=20) > 5


def test_a_view_without_labels_falls_back_to_ids() -> None:
    plain = unit()
    plain.pop("label", None)
    labelled = unit(label="ratmen1")
    assert (
        _diff(_crop(_img(ignite_view(units=[plain])), 4, 4), _crop(_img(ignite_view(units=[labelled])), 4, 4))
        == 0
    )


def test_two_players_units_differ_by_label_as_well_as_colour() -> None:
    # The same seat colour, two labels: the label alone tells them apart, in grey.
    a = _crop(_img(ignite_view(units=[unit(label="r1")])), 4, 4).convert("L")
    b = _crop(_img(ignite_view(units=[unit(label="s1")])), 4, 4).convert("L")
    assert _diff(a, b) > 1
    # A unit and a minion differ in shape: shield against disc.
    m = _crop(_img(ignite_view(minions=[minion("white", label="m1")])), 4, 4).convert("L")
    assert _diff(a, m) > 10


def test_coordinates_on_all_four_sides() -> None:
    img = _img(ignite_view()).convert("L")
    g = ignite.GRID
    for col in (0, 9, 17):
        x, _ = g.center(col, 0)
        for y in (g.top - ignite.MARGIN / 2, g.bottom + ignite.MARGIN / 2):
            box = img.crop((int(x) - 6, int(y) - 7, int(x) + 6, int(y) + 7))
            assert box.getextrema()[0] < 100, f"no column letter at {col}, y={y}"
    for row in (0, 9, 17):
        _, y = g.center(0, row)
        for x in (g.left - ignite.MARGIN / 2, g.right + ignite.MARGIN / 2):
            box = img.crop((int(x) - 9, int(y) - 7, int(x) + 9, int(y) + 7))
            assert box.getextrema()[0] < 100, f"no row number at {row}, x={x}"


def test_legend_names_every_terrain_the_dragon_and_cannot_act() -> None:
    words = [w for _, w in legend_entries()]
    assert "Elder Dragon" in words and "cannot act yet" in words
    assert {"tie: the minion", "tie: its candidates", "moved (whole path)", "attacked (dashed line)"} <= set(
        words
    )
    img = _img(ignite_view())
    legend = img.crop((0, ignite.ROW_LEGEND, ignite.WIDTH, ignite.HEIGHT))
    # Every terrain's own colour shows in the legend's swatches.
    for name, (colour, _) in ignite.TERRAIN.items():
        assert _count(legend, colour, tol=6) > 20, f"no {name} swatch"


def test_a_minion_that_cannot_act_yet_is_marked() -> None:
    plain = _crop(_img(ignite_view(minions=[minion("green")])), 4, 4, inset=0)
    idle = _crop(_img(ignite_view(minions=[minion("green", flags=["cannot_act"])])), 4, 4, inset=0)
    assert _diff(plain, idle) > 1


def test_the_whole_path_is_drawn_from_its_start() -> None:
    view = ignite_view(
        minions=[minion("green", square="e8")],
        last_moves=[{"id": "m1", "path": ["e3", "e4", "e5", "e6", "e7", "e8"], "attacked": []}],
    )
    img = _img(view)
    # The start square (e3) carries the path's dot; every square walked through, the line.
    for row in (2, 3, 4, 5, 6):
        x, y = ignite.GRID.center(4, row)
        assert kit.luminance(img.getpixel((int(x), int(y)))) < 60, f"no path on row {row + 1}"


def test_a_pending_tie_frames_the_minion_and_its_candidates() -> None:
    pending = {
        "kind": "tie",
        "prompt": "m1: choose",
        "minion": "m1",
        "square": "e5",
        "candidates": ["c9", "h9"],
    }
    base = ignite_view(minions=[minion("blue", square="e5")], units=[unit("c9"), unit("h9")])
    tied = _img(dict(base, pending=pending))
    calm = _img(base)
    for col, row in ((4, 4), (2, 8), (7, 8)):
        assert (
            _count(_crop(tied, col, row, inset=-2), kit.GOLD, tol=12)
            > _count(_crop(calm, col, row, inset=-2), kit.GOLD, tol=12) + 20
        ), f"no gold at {col},{row}"
    # A view without the new fields (an older game) still draws.
    assert _img(dict(base, pending={"kind": "tie", "prompt": "m1: choose"})).size == ignite.SIZE


def test_the_round_card_is_drawn_with_its_rolled_face() -> None:
    card = {
        "name": "Round card 3 (1 player, stand-in)",
        "faces": {str(f): f"{f} blue" for f in range(1, 7)},
        "rolled": 2,
    }
    row = (0, ignite.ROW_ROUND, ignite.WIDTH, ignite.ROW_CARDS)
    none = _img(ignite_view()).crop(row)
    drawn = _img(ignite_view(round_card=card)).crop(row)
    unrolled = _img(ignite_view(round_card=dict(card, rolled=None))).crop(row)
    assert _diff(none, drawn) > 1
    assert _count(drawn, kit.GOLD) > _count(unrolled, kit.GOLD) + 20


def test_the_key_shows_the_red_dashed_attack_line() -> None:
    """An attack is drawn as a red dashed line from the attacker to a burst: the key's entry for it
    shows both, the dashes left of the burst."""
    from render.ignite.layout import LABEL_W, LEGEND_ROW, PANEL_X0, PANEL_X1, ROW_LEGEND

    labels = [w for _, w in legend_entries()]
    i = next(n for n, w in enumerate(labels) if w.startswith("attacked"))
    assert "dashed line" in labels[i]
    x0 = PANEL_X0 + LABEL_W + (i % 4) * (PANEL_X1 - PANEL_X0 - LABEL_W) / 4
    y0 = ROW_LEGEND + (3 + i // 4) * LEGEND_ROW
    img = _img(ignite_view())
    dashes = img.crop((int(x0), int(y0) + 10, int(x0) + 9, int(y0) + 20))
    burst = img.crop((int(x0) + 6, int(y0), int(x0) + 22, int(y0) + 16))
    assert _count(dashes, ignite.ATTACK, 40) >= 3 and _count(burst, ignite.ATTACK, 40) >= 10


def test_no_arrow_attack_line_or_tie_frame_covers_a_figures_label() -> None:
    """Over seeded games, every unit's and minion's label reads the same with and without the last
    Enemy Phase's walks and attacks and a pending tie's frames: those go under the figures or
    round their squares."""
    import sys
    from pathlib import Path

    from render.ignite.layout import GRID
    from render.ignite.reading import field_of, square_of

    sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))
    from seeded_play import play

    checked = 0
    for seed in (1, 2):
        for m in play("ignite", {"pace": "async"}, 2, seed, plies=160):
            view = m.game.view(m.state, None)
            if not (view.get("last_moves") or view.get("pending")):
                continue
            busy = Image.open(io.BytesIO(render_board("ignite", view, {}))).convert("RGB")
            calm_view = {**view, "last_moves": [], "enemy_moves": [], "pending": None}
            calm = Image.open(io.BytesIO(render_board("ignite", calm_view, {}))).convert("RGB")
            fld = field_of(view)
            # A unit's label is centred 5 pixels above its square's centre, a minion's 2 above.
            figures = [(u, 5) for u in fld.get("units") or []] + [(n, 2) for n in fld.get("minions") or []]
            for fig, above in figures:
                pos = square_of(fig)
                if pos is None:
                    continue
                x, y = GRID.center(*pos)
                label = str(fig.get("label") or fig.get("id"))
                half = kit.text_length(label, label_size(label)) / 2 + 1
                box = (round(x - half), round(y - above - 6), round(x + half), round(y - above + 6))
                assert busy.crop(box).tobytes() == calm.crop(box).tobytes(), (seed, label)
                checked += 1
    assert checked


def test_a_game_over_marks_nobody_to_act_even_when_it_was_ended_by_a_concession() -> None:
    """A concession ends the game with a seat still to act in the engine's view; the picture of
    the end (drawn with the host's result) marks no player, as a game the rules ended does not."""
    over = {"winners": [], "losers": ["ratmen", "stoneborn"], "reason": "The group conceded."}
    idle = {"seats": [], "decision": None, "prompt": "", "default": None}
    units = [unit(), unit(square="h5", id="stoneborn1", seat="stoneborn", race="stoneborn")]
    conceded = _img(ignite_view(units=units, outcome=over))
    ended = _img(ignite_view(units=units, outcome=over, to_act=idle, turn=None))
    assert _diff(conceded, ended) == 0
    assert _diff(_img(ignite_view(units=units)), _img(ignite_view(units=units, to_act=idle, turn=None))) > 0


def test_a_war_machine_never_wears_a_minion_colours_badge() -> None:
    # Issue 39: the ballista's "B" read as a blue minion. Every machine a card builds is drawn
    # with a mark no minion colour's badge uses, and its square differs from a blue minion's.
    from games.ignite.content import load_content
    from render.ignite.symbols import machine_style

    badges = {ignite.minion_style(c, 1).letter for c in ignite.MINION_COLOURS}
    kinds = {card.machine for card in load_content().cards.values() if card.machine}
    assert kinds, "no war machine among the cards"
    for kind in kinds:
        style = machine_style(kind)
        assert style.mark != "letter" or style.letter not in badges, f"{kind} wears a minion's badge"
    machine = {"id": "ballista1", "kind": "ballista", "owner": "stoneborn", "square": "e5", "built": True}
    ballista = _crop(_img(ignite_view(war_machines=[machine])), 4, 4).convert("L")
    blue = _crop(_img(ignite_view(minions=[minion("blue")])), 4, 4).convert("L")
    assert _diff(ballista, blue) > 4
