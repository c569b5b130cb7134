"""The BattleLore picture: right size, repeatable, never changes its view, draws every moment of both
scenarios, and shows (pixel by pixel) terrain, sections, the yellow and deployment hexes, banners,
units in their side's colour with their figures, face-down cards, hoards, inferno and neutral
markers, the dragon with each player's damage, the VP track, and each combat roll die by die."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from PIL import Image

from engine import Dice, get_game
from render import battlelore as pic

GAME = get_game("battlelore")
NAMES = {"daqan": "alice", "uthuk": "bob"}


def _played(scenario: str, seed: int, plies: int) -> Any:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": scenario}, seed)
    chooser = Dice(seed)
    for _ in range(plies):
        if GAME.outcome(s) is not None:
            break
        seat = sorted(GAME.to_act(s).seats)[0]
        legal = [str(a) for a in GAME.legal_actions(s, seat)]
        keen = [m for m in legal if m.startswith(("attack", "army", "draft", "deploy auto"))]
        pick = keen or legal
        GAME.act(s, seat, pick[chooser.below(len(pick))])
    return s


def _view(scenario: str = "into-the-fire", seed: int = 3, plies: int = 60) -> dict[str, Any]:
    return dict(GAME.view(_played(scenario, seed, plies), None))


def _pal(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """A colour as the picture's palette holds it (a key colour may share its entry with a
    sampled one a unit away)."""
    i = pic.PALETTE.index(colour)
    flat = pic.PALETTE.image.getpalette() or []
    return flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]


def _image(view: dict[str, Any]) -> Image.Image:
    return Image.open(io.BytesIO(pic.render(view, NAMES))).convert("RGB")


def _colours(img: Image.Image, box: tuple[float, float, float, float]) -> set[tuple[int, int, int]]:
    crop = img.crop(tuple(round(v) for v in box))
    return {c for _, c in crop.getcolors(1 << 16) or []}


def _hex_box(hex_name: str) -> tuple[float, float, float, float]:
    cx, cy = pic.centre(hex_name)
    return cx - pic.HEX_W / 2 + 4, cy - pic.HEX_R + 4, cx + pic.HEX_W / 2 - 4, cy + pic.HEX_R - 4


def _bare(hex_name: str) -> tuple[int, int]:
    """A point of a hex's ground that no token, label, marker or flag covers."""
    cx, cy = pic.centre(hex_name)
    return round(cx + 18), round(cy + 10)


def _empty_board(view: dict[str, Any]) -> dict[str, Any]:
    return {
        **view,
        "units": [],
        "facedown": [],
        "hoards": [],
        "infernos": [],
        "rolls": [],
        "pending": None,
        "order": {},
    }


def test_the_picture_has_its_size_is_repeatable_and_never_changes_its_view() -> None:
    view = _view()
    before = copy.deepcopy(view)
    png = pic.render(view, NAMES)
    assert Image.open(io.BytesIO(png)).size == pic.SIZE
    assert view == before
    assert pic.render(copy.deepcopy(view), NAMES) == png


@pytest.mark.slow
def test_every_moment_of_both_scenarios_draws_including_the_end() -> None:
    for scenario, seed in (("into-the-fire", 2), ("standard", 6)):
        s = GAME.setup(["daqan", "uthuk"], {"scenario": scenario}, seed)
        chooser = Dice(seed)
        plies = 0
        while GAME.outcome(s) is None:
            seat = sorted(GAME.to_act(s).seats)[0]
            legal = [str(a) for a in GAME.legal_actions(s, seat)]
            keen = [m for m in legal if m.startswith(("attack", "army", "deploy auto", "target"))]
            pick = keen or legal
            _, events = GAME.act(s, seat, pick[chooser.below(len(pick))])
            plies += 1
            # Every roll, reveal and phase, and every third move besides (a whole game is ~1000).
            if plies % 3 == 0 or any(e.random or e.reveals or e.phase_end for e in events):
                assert _image(GAME.view(s, None)).size == pic.SIZE
        assert GAME.view(s, None)["outcome"] is not None
        assert _image(GAME.view(s, None)).size == pic.SIZE


def test_terrain_is_painted_in_its_colour_and_the_centre_row_apart() -> None:
    view = _empty_board(_view())
    img = _image(view)
    for hex_name, kind in view["terrain"].items():
        assert img.getpixel(_bare(hex_name)) == _pal(pic.TERRAIN[kind]), hex_name
    assert img.getpixel(_bare("a1")) == _pal(pic.CLEAR)
    assert img.getpixel(_bare("a5")) == _pal(pic.CENTRE)


def test_the_yellow_hexes_are_yellow_and_numbered_1_to_4() -> None:
    view = _empty_board(_view())
    img = _image(view)
    for i, hex_name in enumerate(view["yellow"]):
        assert img.getpixel(_bare(hex_name)) == _pal(pic.YELLOW)
        cx, cy = pic.centre(hex_name)
        number = _colours(img, (cx - pic.HEX_W / 2 + 3, cy - 8, cx - pic.HEX_W / 2 + 15, cy + 8))
        assert min(sum(c) for c in number) < 250, f"yellow hex {i + 1} has no number"


def test_sections_are_split_by_a_heavy_line() -> None:
    img = _image(_empty_board(_view()))
    # d1 (left flank) and e1 (centre) share a side; its middle is on the section line.
    (ax, ay), (bx, by) = pic.centre("d1"), pic.centre("e1")
    assert img.getpixel((round((ax + bx) / 2), round((ay + by) / 2))) == _pal(pic.SECTION)
    (ax, ay), (bx, by) = pic.centre("e1"), pic.centre("f1")  # both in the centre
    assert img.getpixel((round((ax + bx) / 2), round((ay + by) / 2))) != _pal(pic.SECTION)


def test_into_the_fires_deployment_hexes_are_ringed_blue_and_red() -> None:
    view = _empty_board(_view())
    img = _image(view)
    for seat, colour in (("daqan", _pal(pic.DAQAN)), ("uthuk", _pal(pic.UTHUK))):
        for hex_name in view["deploy_hexes"][seat]:
            assert colour in _colours(img, _hex_box(hex_name)), hex_name


def test_banners_fly_their_halfs_colour() -> None:
    view = _empty_board(_view())
    view["banners"] = {"e3": "daqan", "e7": "uthuk"}
    img = _image(view)
    assert _pal(pic.DAQAN) in _colours(img, _hex_box("e3")) and _pal(pic.UTHUK) in _colours(
        img, _hex_box("e7")
    )


def _unit(name: str, title: str, owner: str, hex_name: str, **kw: Any) -> dict[str, Any]:
    u = {
        "id": "u99",
        "name": name,
        "title": title,
        "owner": owner,
        "hex": hex_name,
        "figures": 3,
        "max_figures": 3,
        "damage": 0,
        "health": 3,
        "marker": None,
        "ordered": False,
        "flying": False,
        "kind": "melee",
    }
    u.update(kw)
    return u


def test_units_are_drawn_in_their_sides_colour_with_a_pip_per_health_hollow_when_lost() -> None:
    view = _empty_board(_view())
    view["units"] = [
        _unit("citadel-guard", "Citadel Guard", "daqan", "c2", damage=1),
        _unit("viper-legion", "Viper Legion", "uthuk", "h8"),
    ]
    img = _image(view)
    for hex_name, colour in (("c2", _pal(pic.DAQAN)), ("h8", _pal(pic.UTHUK))):
        cx, cy = pic.centre(hex_name)
        assert img.getpixel((round(cx - 10), round(cy - 8))) == colour
    cx, cy = pic.centre("c2")
    pips = [img.getpixel((round(cx + dx), round(cy + 18))) for dx in (-7, 0, 7)]
    assert pips == [_pal(pic.DAQAN), _pal(pic.DAQAN), _pal(pic.EMPTY)]


def test_a_banner_shows_over_the_unit_that_stands_on_it() -> None:
    """The flag flies over a unit on its hex, a neutral unit's marker at its shoulder too."""
    view = _empty_board(_view())
    view["banners"] = {"e7": "uthuk", "e3": "daqan"}
    view["units"] = [
        _unit("citadel-guard", "Citadel Guard", "daqan", "e7", marker="white"),
        _unit("viper-legion", "Viper Legion", "uthuk", "e3", marker="black", ordered=True),
    ]
    img = _image(view)
    for hex_name, side in (("e7", pic.UTHUK), ("e3", pic.DAQAN)):
        cx, cy = pic.centre(hex_name)
        flag = (round(cx + pic.HEX_W / 2 - 16 + 4), round(cy - 16 - 3))  # the flag's cloth (_banner)
        assert img.getpixel(flag) == _pal(side), hex_name


def test_an_ordered_unit_wears_a_gold_ring_and_a_neutral_unit_its_marker() -> None:
    view = _empty_board(_view())
    plain = _image({**view, "units": [_unit("great-dragon", "Great Dragon", "daqan", "e3", health=6)]})
    marked = _image(
        {
            **view,
            "units": [
                _unit("great-dragon", "Great Dragon", "daqan", "e3", health=6, ordered=True, marker="black")
            ],
        }
    )
    box = _hex_box("e3")
    assert _pal(pic.ORDERED) in _colours(marked, box) and _pal(pic.ORDERED) not in _colours(plain, box)
    assert _pal(pic.BLACK) in _colours(marked, box) and _pal(pic.BLACK) not in _colours(plain, box)


def test_face_down_cards_show_their_owner_but_not_what_they_are() -> None:
    view = _empty_board(_view())
    view["facedown"] = [{"card": "dep001", "owner": "uthuk", "hex": "d8"}]
    img = _image(view)
    cx, cy = pic.centre("d8")
    assert img.getpixel((round(cx - 8), round(cy - 12))) == _pal(pic.UTHUK)


def test_hoards_and_inferno_markers_are_drawn() -> None:
    view = _empty_board(_view())
    bare = _image(view)
    view["hoards"], view["infernos"] = ["c3"], ["j4"]
    img = _image(view)
    assert _pal(pic.HOARD) in _colours(img, _hex_box("c3")) and _pal(pic.HOARD) not in _colours(
        bare, _hex_box("c3")
    )
    assert _pal(pic.INFERNO) in _colours(img, _hex_box("j4")) and _pal(pic.INFERNO) not in _colours(
        bare, _hex_box("j4")
    )


def test_the_uncontrolled_dragon_and_each_players_damage_to_it() -> None:
    view = {**_view(), "order": {}}
    view["dragon"] = {**view["dragon"], "damage": {"daqan": 2, "uthuk": 5}, "overpowered": []}
    img = _image(view)
    dragon = next(u for u in view["units"] if u["owner"] == "dragon")
    cx, cy = pic.centre(dragon["hex"])
    assert img.getpixel((round(cx - 10), round(cy - 8))) == _pal(pic.WILD)
    panel = img.crop((pic.PANEL_X + 100, pic.BOARD_TOP + 120, pic.WIDTH, pic.BOARD_TOP + 260))
    counts = dict((c, n) for n, c in panel.getcolors(1 << 16) or [])
    assert counts.get(_pal(pic.UTHUK), 0) > 2 * counts.get(_pal(pic.DAQAN), 0) > 0  # 5 boxes against 2


def test_the_vp_track_fills_a_box_per_vp() -> None:
    view = _empty_board(_view())
    view["vp"] = {"daqan": 3, "uthuk": 0}
    view["scenario"] = "standard"
    img = _image(view)
    y = pic.BOARD_TOP - 14 + 26
    boxes = [img.getpixel((round(pic.PANEL_X + 70 + i * 13 + 5), round(y))) for i in range(5)]
    assert boxes == [_pal(pic.DAQAN)] * 3 + [_pal(pic.EMPTY)] * 2


def test_into_the_fire_has_no_vp_track_but_the_damage_to_the_dragon() -> None:
    view = _empty_board(_view())
    img = _image(view)
    y = pic.BOARD_TOP - 14 + 26
    boxes = {img.getpixel((round(pic.PANEL_X + 70 + i * 13 + 5), round(y))) for i in range(5, 16)}
    assert _pal(pic.EMPTY) not in boxes and _pal(pic.DAQAN) not in boxes


def test_the_legend_names_every_symbol_with_a_glossary_word() -> None:
    words = pic.legend(_view())
    for w in ("hoard", "inferno", "neutral marker", "face-down card", "banner", "strike"):
        assert w in words
    assert all(GAME.glossary().find(w) for w in words)


def test_every_combat_roll_is_shown_die_by_die_with_a_reroll_ringed() -> None:
    view = _empty_board(_view())
    faces = ["strike", "cleave", "pierce", "morale", "lore", "heroic"]
    view["rolls"] = [
        {
            "attacker": "Daqan Citadel Guard at e4",
            "target": "Uthuk Blood Harvesters at e5",
            "side": "daqan",
            "dice": faces,
            "rerolled": [],
            "melee": True,
            "kind": "attack",
        },
        {
            "attacker": "Great Dragon at f5",
            "target": "Daqan Citadel Guard at e4",
            "side": "dragon",
            "dice": ["pierce", "pierce"],
            "rerolled": [1],
            "melee": True,
            "kind": "counter",
        },
    ]
    img = _image(view)
    panel = _colours(img, (pic.PANEL_X, pic.BOARD_TOP + 100, pic.WIDTH, pic.LEGEND_Y - 4))
    assert {_pal(colour) for _, colour in pic.FACES.values()} <= panel
    assert _pal(pic.ORDERED) in panel
    assert _pal(pic.ORDERED) not in _colours(
        _image({**view, "rolls": view["rolls"][:1]}),
        (pic.PANEL_X, pic.BOARD_TOP + 100, pic.WIDTH, pic.LEGEND_Y - 4),
    )


def test_a_pending_decision_is_asked_in_the_panel_and_the_caption() -> None:
    view = _empty_board(_view())
    prompt = "Mighty: reroll the 1 pierce result of Great Dragon at f5 once, or keep them?"
    asked = {
        **view,
        "pending": {"seat": "uthuk", "kind": "mighty", "prompt": prompt, "options": [], "default": ""},
    }
    plain, img = _image(view), _image(asked)
    panel = (pic.PANEL_X, pic.BOARD_TOP + 120, pic.WIDTH, pic.BOARD_TOP + 280)
    rows = {
        y
        for y in range(panel[1], panel[3])
        if any(img.getpixel((x, y)) != plain.getpixel((x, y)) for x in range(panel[0], panel[2], 2))
    }
    assert max(rows) - min(rows) > 16  # two lines: the prompt is not cut at the panel's edge
    caption = (pic.WIDTH - 300, 0, pic.WIDTH, pic.CAPTION_H)
    assert plain.crop(caption).tobytes() != img.crop(caption).tobytes()


def test_the_panel_says_the_draft_and_the_command_card_in_play() -> None:
    view = _empty_board(_view())
    panel = (pic.PANEL_X, pic.BOARD_TOP + 115, pic.WIDTH, pic.BOARD_TOP + 170)

    def drawn(v: dict[str, Any]) -> bytes:
        return _image(v).crop(panel).tobytes()

    quiet = drawn({**view, "dragon": None, "order": {}})
    ordering = {"card": "probe-left", "left": {"left": 1}, "bonus": 0}
    assert drawn({**view, "dragon": None, "order": ordering, "step": "order"}) != quiet
    # Only what is current: once the turn has reached its lore step, the card's orders are done.
    assert drawn({**view, "dragon": None, "order": ordering, "step": "lore"}) == quiet
    drafting = {"pool": ["great-dragon"], "turn": "uthuk", "allow": 2, "picked": 1, "last_pass": False}
    assert drawn({**view, "dragon": None, "phase": "draft", "draft": drafting}) != quiet
