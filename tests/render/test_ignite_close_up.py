"""Issue 39: the phone close-up after an Ignite Enemy Phase centres on what concerns the players
(the units hit and the minions round them, not the last minion that moved) and names the rows
and columns of what it shows, so a square in it can be typed. A seeded crowded late round."""

from __future__ import annotations

import io

from PIL import Image

import render
from engine import get_game
from render.ignite import GRID, coordinates, focus
from render.ignite.reading import read_pos
from tests.games.ignite.crowded import crowded_enemy_phase

HALF = render.CLOSE_UP / 2


def _held(at: tuple[float, float], points: list[tuple[float, float]]) -> int:
    return sum(abs(x - at[0]) <= HALF and abs(y - at[1]) <= HALF for x, y in points)


def test_after_an_enemy_phase_the_close_up_centres_on_the_units_hit() -> None:
    state, _ = crowded_enemy_phase(1)
    view = get_game("ignite").view(state, None)
    hits = [GRID.center(*read_pos(sq)) for m in view["last_moves"] for sq in m["attacked"]]
    assert len(hits) >= 3
    at = focus(view)
    assert at is not None
    # Most of the hits a close-up can hold, from anywhere on the board.
    assert _held(at, hits) == max(_held(p, hits) for p in hits)
    last = view["last_moves"][-1]
    aimed_before = GRID.center(*read_pos((last["attacked"] or last["path"])[-1]))
    assert _held(at, hits) > _held(aimed_before, hits)


def test_the_close_up_names_the_rows_and_columns_it_shows() -> None:
    state, _ = crowded_enemy_phase(2)
    view = get_game("ignite").view(state, None)
    png = render.render_board("ignite", view, {})
    labels = render.close_up_labels("ignite", png, view)
    [spot] = render.close_up_pieces("ignite", png, view)[:1]
    columns, rows = coordinates(spot.box)
    assert len(columns) >= 3 and len(rows) >= 2
    assert [n for n, _ in labels] == [n for _, n in columns] + [n for _, n in rows]
    # The focus square is named by its column letter and row number.
    at = focus(view)
    assert at is not None
    col = min(range(18), key=lambda c: abs(GRID.center(c, 0)[0] - at[0]))
    row = min(range(18), key=lambda r: abs(GRID.center(0, r)[1] - at[1]))
    assert "abcdefghijklmnopqr"[col] in [n for n, _ in labels] and str(row + 1) in [n for n, _ in labels]
    # Each name is drawn where the layout puts it: dark letters on the close-up's spot.
    shot = Image.open(io.BytesIO(render.close_up("ignite", png, view) or b"")).convert("L")
    spot_h = round((spot.box[3] - spot.box[1]) * spot.scale)
    for name, (x, y) in labels:
        assert 0 <= x <= render.PHONE_WIDTH and 0 <= y <= spot_h, name
        ink = shot.crop((int(x) - 4, int(y) - 5, int(x) + 5, int(y) + 6)).getextrema()[0]
        assert ink < 90, f"no label {name} at {(x, y)}"


def test_after_an_enemy_phase_that_hit_nobody_the_close_up_shows_the_unit_a_minion_came_near() -> None:
    from tests.render.test_ignite_render import ignite_view, minion, unit

    units = [unit("d18"), unit("p18", id="ratmen2")]
    minions = [minion("green", square="p16"), minion("red", square="a6", id="m2")]
    moves = [
        {"id": "m1", "path": ["p14", "p16"], "attacked": []},
        {"id": "m2", "path": ["a4", "a6"], "attacked": []},
    ]
    at = focus(ignite_view(units=units, minions=minions, last_moves=moves))
    assert at is not None
    assert _held(at, [GRID.center(15, 17), GRID.center(15, 15)]) == 2
    assert _held(at, [GRID.center(0, 5), GRID.center(3, 17)]) == 0


def test_the_close_ups_row_and_column_names_stand_wholly_inside_its_spot() -> None:
    from render import kit

    for seed in (1, 2, 3, 4, 5):
        state, _ = crowded_enemy_phase(seed)
        view = get_game("ignite").view(state, None)
        png = render.render_board("ignite", view, {})
        spot = render.close_up_pieces("ignite", png, view)[0]
        width = (spot.box[2] - spot.box[0]) * spot.scale
        height = (spot.box[3] - spot.box[1]) * spot.scale
        tags = []
        for name, (x, y) in render.close_up_labels("ignite", png, view):
            half = kit.text_length(name, render.LABEL_TEXT) / 2 + 3  # as close_up draws the tag
            tag = (x - half, y - render.LABEL_TEXT * 0.6, x + half, y + render.LABEL_TEXT * 0.6)
            clear = render.LABEL_CLEAR
            assert clear <= tag[0] and tag[2] <= width - clear, (seed, name, tag)
            assert clear <= tag[1] and tag[3] <= height - clear, (seed, name, tag)
            tags.append(tag)
        # No two names' tags overlap (a row name under the column names' band).
        for i, a in enumerate(tags):
            for b in tags[i + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (seed, a, b)


def test_the_round_cards_faces_4_to_6_stand_on_the_grid_of_faces_1_to_3() -> None:
    from render.ignite.layout import ROUND_FACES_X, ROW_COLOURS, ROW_ROUND

    state, _ = crowded_enemy_phase(2)
    view = get_game("ignite").view(state, None)
    assert view.get("round_card"), "the position has a Round card drawn"
    png = render.render_board("ignite", view, {})
    pieces = render.close_up_pieces("ignite", png, view)[1:]
    lefts = []
    for face_x in ROUND_FACES_X:
        piece = next(
            p
            for p in pieces
            if p.box[0] <= face_x < p.box[2] and p.box[3] >= ROW_ROUND and p.box[1] < ROW_COLOURS
        )
        lefts.append(piece.at[0] + (face_x - piece.box[0]) * piece.scale)
    assert abs(lefts[0] - lefts[1]) <= 1, lefts
