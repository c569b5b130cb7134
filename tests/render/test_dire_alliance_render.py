"""The Dire Alliance picture: right size, repeatable, every state drawable, `sight` shading."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from PIL import Image

from engine import Dice, get_game
from render import dire_alliance as pic
from render import kit
from render.dire_alliance.layout import pt
from render.dire_alliance.raid import move_paths
from render.dire_alliance.tokens import short_label

GAME = get_game("dire-alliance")


def _played(seed: int, plies: int) -> dict:
    s = GAME.setup(["red", "blue"], GAME.validate_options({}), seed)
    chooser = Dice(seed)
    for _ in range(plies):
        if GAME.outcome(s) is not None:
            break
        seat = sorted(GAME.to_act(s).seats)[0]
        legal = GAME.legal_actions(s, seat)
        fights = [m for m in legal if " melee " in f" {m}" or " shoot " in f" {m}"]
        pick = fights or legal
        GAME.act(s, seat, pick[chooser.below(len(pick))])
    return GAME.view(s, None)


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_the_picture_has_its_size_and_is_the_same_for_the_same_view() -> None:
    view = _played(3, 80)
    png = pic.render(view, {"red": "alice", "blue": "bob"})
    assert _image(png).size == pic.SIZE
    assert pic.render(copy.deepcopy(view), {"red": "alice", "blue": "bob"}) == png


def test_the_picture_never_changes_the_view_it_reads() -> None:
    view = _played(4, 40)
    before = copy.deepcopy(view)
    pic.render(view, {}, sight=7)
    assert view == before


def test_every_moment_of_a_game_draws_including_its_end() -> None:
    s = GAME.setup(["red", "blue"], GAME.validate_options({}), 8)
    chooser = Dice(8)
    while GAME.outcome(s) is None:
        seat = sorted(GAME.to_act(s).seats)[0]
        legal = GAME.legal_actions(s, seat)
        GAME.act(s, seat, legal[chooser.below(len(legal))])
        assert _image(pic.render(GAME.view(s, None), {})).size == pic.SIZE
    assert GAME.view(s, None)["result"] is not None


def test_sight_shades_the_areas_that_area_cannot_see() -> None:
    view = _played(5, 0)
    img = _image(pic.render(view, {}, sight=7))
    plain = _image(pic.render(view, {}))
    seen = set(view["board"]["sight"]["7"])
    for area in view["board"]["areas"]:
        # A bare point of ground near the designator (no token, label or black line on it).
        dx, dy = pt(area["designator"])
        spots = [(round(dx + ox), round(dy + oy)) for ox in (-60, -30, 30, 60) for oy in (-50, 50)]
        xy = next(p for p in spots if plain.getpixel(p) == pic.GROUND)
        if area["id"] == 7:
            assert img.getpixel(xy) == pic.LOOKOUT
        elif area["id"] in seen:
            assert img.getpixel(xy) == pic.GROUND
        else:
            assert img.getpixel(xy) == pic.SHADE
    assert pic.render({**view, "sight": 7}, {}) == pic.render(view, {}, sight=7)


def test_the_last_attack_is_drawn_as_a_dice_strip() -> None:
    view = _played(6, 200)
    assert view["last_attack"] is not None
    img = _image(pic.render(view, {}))
    strip = img.crop((pic.PANEL_X, 300, pic.WIDTH, pic.HEIGHT))
    colours = {c for _, c in strip.getcolors(1 << 16) or []}
    assert colours & {pic.HIT, pic.BLOCK, pic.BLANK}


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every line of words the picture writes (the panel, captions, the key), in order."""
    lines: list[str] = []
    real = kit.Frame.text

    def text(self: kit.Frame, xy: kit.Point, words: str, *args: Any, **kwargs: Any) -> None:
        lines.append(words)
        real(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(kit.Frame, "text", text)
    return lines


def test_every_tokens_letters_are_keyed_with_the_fighters_name(drawn: list[str]) -> None:
    view = _played(6, 40)
    pic.render(view, {})
    on_map = [fid for fid, f in view["fighters"].items() if not f["defeated"]]
    assert on_map and "Tokens" in drawn
    for fid in on_map:
        name = view["names"][fid]
        assert f"{short_label(name)}  {name}" in drawn, name
    assert "Gra  The Gravedigger" in drawn or "digger" not in on_map


# ---- Raid Mode -----------------------------------------------------------------------------------


def _raid_game(seed: int, seats: int) -> object:
    opts = GAME.validate_options({"mode": "raid", "boost_window": "off", "enemy": "hardest"})
    return GAME.setup(["hero1", "hero2", "hero3", "hero4"][:seats], opts, seed)


def test_the_raid_picture_names_heroes_as_players_read_them_not_by_seat(drawn: list[str]) -> None:
    opts = GAME.validate_options({"mode": "raid", "hero1_hero": "aldric", "hero2_hero": "maren"})
    view = GAME.view(GAME.setup(["hero1", "hero2"], opts, 3), None)
    pic.render(view, {"hero1": "alice"})
    assert not [line for line in drawn if "hero1" in line or "hero2" in line], drawn
    assert any(line.endswith("to act: Aldric, Maren") for line in drawn), drawn
    assert "Sir Aldric - alice" in drawn and short_label("Sir Aldric") == "Ald"


def test_two_moves_over_one_path_run_side_by_side_not_as_one_two_headed_arrow() -> None:
    view = GAME.view(_raid_game(5, 2), None)
    view["trace"] = [
        {"kind": "move", "who": "villain", "from": 3, "to": [7]},
        {"kind": "move", "who": "m1", "from": 7, "to": [3]},
    ]
    areas = {a["id"]: a for a in view["board"]["areas"]}
    there, back = move_paths(view, areas)
    (ax, ay), (bx, by) = there
    (cx, cy), (dx, dy) = back
    apart = abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    assert apart >= 12  # two arrows' widths: each head reads as its own
    img = _image(pic.render(view, {}))
    mid = ((ax + bx + cx + dx) / 4, (ay + by + cy + dy) / 4)  # on the path, between the two arrows
    assert img.getpixel((round(mid[0]), round(mid[1]))) != pic.ARROW
    for p, q in (there, back):
        assert img.getpixel((round((p[0] + q[0]) / 2), round((p[1] + q[1]) / 2))) == pic.ARROW


def test_every_moment_of_a_raid_draws_including_its_end() -> None:
    s = _raid_game(2, 2)
    chooser = Dice(2)
    while GAME.outcome(s) is None:
        seat = sorted(GAME.to_act(s).seats)[0]
        legal = GAME.legal_actions(s, seat)
        GAME.act(s, seat, legal[chooser.below(len(legal))])
        assert _image(pic.render(GAME.view(s, None), {})).size == pic.SIZE
    assert GAME.view(s, None)["result"] is not None


def test_the_raid_picture_draws_enemy_moves_as_arrows_and_the_villains_wounds() -> None:
    s = _raid_game(4, 4)
    chooser = Dice(2)
    while not any(t["kind"] == "move" for t in GAME.view(s, None)["trace"]):
        seat = sorted(GAME.to_act(s).seats)[0]
        legal = GAME.legal_actions(s, seat)
        GAME.act(s, seat, legal[chooser.below(len(legal))])
    view = GAME.view(s, None)
    calm = {**view, "trace": []}
    the_map = (pic.MAP_LEFT, pic.MAP_TOP, pic.MAP_LEFT + pic.MAP_W, pic.MAP_TOP + pic.MAP_H)
    colours = {c for _, c in _image(pic.render(view, {})).crop(the_map).getcolors(1 << 16) or []}
    assert pic.ARROW in colours
    calm_map = _image(pic.render(calm, {})).crop(the_map)
    assert pic.ARROW not in {c for _, c in calm_map.getcolors(1 << 16) or []}
    hurt = copy.deepcopy(calm)
    hurt["villain"]["wounds"] = 2
    panel = _image(pic.render(hurt, {})).crop((pic.PANEL_X, pic.MAP_TOP, pic.WIDTH, pic.MAP_TOP + 80))
    assert pic.WOUND in {c for _, c in panel.getcolors(1 << 16) or []}


def test_the_raid_picture_never_changes_the_view_it_reads_and_is_repeatable() -> None:
    view = GAME.view(_raid_game(5, 3), None)
    before = copy.deepcopy(view)
    png = pic.render(view, {"hero1": "alice"}, sight=6)
    assert view == before and pic.render(copy.deepcopy(view), {"hero1": "alice"}, sight=6) == png


def test_no_arrow_or_ring_covers_a_tokens_label() -> None:
    """The last enemy phase (arrows, attack lines, spawn rings) is drawn round the tokens: each
    token's disc reads the same with and without it."""
    s = _raid_game(4, 4)
    chooser = Dice(2)
    for _ in range(400):
        trace = GAME.view(s, None)["trace"]
        if sum(t["kind"] in ("move", "spawn") for t in trace) >= 3:
            break
        seat = sorted(GAME.to_act(s).seats)[0]
        legal = GAME.legal_actions(s, seat)
        GAME.act(s, seat, legal[chooser.below(len(legal))])
    view = GAME.view(s, None)
    assert view["trace"]
    busy = _image(pic.render(view, {}))
    calm = _image(pic.render({**view, "trace": []}, {}))
    r = pic.TOKEN_R - 2
    for who, (x, y) in pic.raid_spots(view).items():
        box = (round(x - r), round(y - r), round(x + r), round(y + r))
        assert busy.crop(box).tobytes() == calm.crop(box).tobytes(), who


def test_every_symbol_has_a_word_in_the_legend_and_the_glossary() -> None:
    for mode in ("battle", "raid"):
        words = pic.legend({"mode": mode})
        assert all(GAME.glossary().find(w) for w in words), words
    assert {"stunned", "sated", "claimed", "black line", "hit"} <= set(pic.legend({"mode": "battle"}))
    assert {"spawn", "consecrated", "move", "villain"} <= set(pic.legend({"mode": "raid"}))


# ---- area names ------------------------------------------------------------------------------------


def _name_boxes(view: dict) -> dict[int, tuple[int, int, int, int]]:
    from render.dire_alliance.labels import labels

    return {
        a: (round(b[0]), round(b[1]), round(b[2]), round(b[3]))
        for a, (_, _, b) in labels(view["board"]).items()
    }


def test_area_names_sit_inside_their_area_clear_of_borders_and_black_lines() -> None:
    """Drawn independently: each area's ground less its border (2 wide) and every black line (5
    wide); each name's box lies wholly on what is left."""
    from PIL import ImageDraw

    view = _played(5, 0)
    board = view["board"]
    for area in board["areas"]:
        mask = Image.new("L", pic.SIZE, 0)
        d = ImageDraw.Draw(mask)
        d.polygon([pt(p) for p in area["polygon"]], fill=255, outline=0, width=3)
        for p, q in board["black_lines"]:
            d.line([pt(p), pt(q)], fill=0, width=7)
        box = _name_boxes(view)[area["id"]]
        assert mask.crop(box).getextrema() == (255, 255), area["name"]


def test_no_token_objective_or_arrow_covers_an_area_name() -> None:
    view = _played(5, 0)
    boxes = _name_boxes(view)
    empty = {**view, "fighters": {k: {**f, "defeated": True} for k, f in view["fighters"].items()}}
    bare = _image(pic.render(empty, {}))
    crowd = list(view["fighters"])[:8]
    for area in view["board"]["areas"]:
        full = copy.deepcopy(empty)
        for fid in crowd:
            full["fighters"][fid].update(defeated=False, area=area["id"])
        for o in full["objectives"]:
            o["area"] = area["id"]
        img = _image(pic.render(full, {}))
        for a, box in boxes.items():
            assert img.crop(box).tobytes() == bare.crop(box).tobytes(), (area["name"], a)
    # The Raid map's last enemy phase: no arrow or attack line is drawn over a name.
    s = _raid_game(4, 4)
    chooser = Dice(2)
    for _ in range(400):
        if len(GAME.view(s, None)["trace"]) >= 4:
            break
        seat = sorted(GAME.to_act(s).seats)[0]
        legal = GAME.legal_actions(s, seat)
        GAME.act(s, seat, legal[chooser.below(len(legal))])
    raid = GAME.view(s, None)
    crossing = [
        {"kind": k, "who": "", "from": a, "to": [b]}
        for k in ("move", "attack")
        for a, b in ((1, 12), (9, 4), (5, 8))
    ]
    img = _image(pic.render({**raid, "trace": [*raid["trace"], *crossing]}, {}))
    for a, box in _name_boxes(raid).items():
        assert pic.ARROW not in {c for _, c in img.crop(box).getcolors(1 << 16) or []}, a


def test_a_hero_one_hit_from_death_is_ringed_on_the_map_and_named_so_in_the_panel(drawn: list[str]) -> None:
    view = GAME.view(_raid_game(5, 2), None)
    the_map = (pic.MAP_LEFT, pic.MAP_TOP, pic.MAP_LEFT + pic.MAP_W, pic.MAP_TOP + pic.MAP_H)
    calm = {c for _, c in _image(pic.render(view, {})).crop(the_map).getcolors(1 << 16) or []}
    assert pic.WOUND not in calm and not any("ONE HIT FROM DEATH" in line for line in drawn)
    near = copy.deepcopy(view)
    near["heroes"]["hero1"]["danger"] = "deck and discard pile are empty"
    ringed = {c for _, c in _image(pic.render(near, {})).crop(the_map).getcolors(1 << 16) or []}
    assert pic.WOUND in ringed
    assert any(line.startswith("Sir Aldric: ONE HIT FROM DEATH") for line in drawn), drawn
