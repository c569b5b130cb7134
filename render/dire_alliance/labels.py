"""Where each area's name goes on the map: inside its area, clear of the borders, the black lines
and the room its tokens, objective and arrows take round its sight point, as near the area's
top-left corner as that allows (where the names used to be)."""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from render import kit
from render.dire_alliance.layout import pt

LABEL_PX = 13
BORDER_GAP = 4.0  # from a border (drawn 2 pixels wide) to the name's box
LINE_GAP = 5.0  # from a black line (drawn 5 pixels wide) to the name's box
STEP = 3  # candidate positions every STEP pixels

Label = tuple[str, kit.Point, kit.Box]  # the text, its left-middle anchor, the box it covers
Segment = tuple[kit.Point, kit.Point]

_lock = threading.Lock()
_placed: dict[tuple[str, int], dict[int, Label]] = {}


def token_room(designator: kit.Point) -> kit.Box:
    """What an area's figures may cover round its sight point: two rows of four tokens with a
    spawn ring, the objective below the first, and the end of the last phase's arrows."""
    dx, dy = designator
    return dx - 60, dy - 44, dx + 79, dy + 50


def labels(board: Mapping[str, Any]) -> dict[int, Label]:
    """Each area's name and where it goes (computed once per board and process)."""
    key = (str(board["name"]), len(board["areas"]))
    with _lock:
        hit = _placed.get(key)
    if hit is not None:
        return hit
    rooms = [token_room(pt(a["designator"])) for a in board["areas"]]
    lines = [(pt(p), pt(q)) for p, q in board["black_lines"]]
    placed = {a["id"]: _place(a, rooms, lines) for a in board["areas"]}
    with _lock:
        return _placed.setdefault(key, placed)


def _place(area: Mapping[str, Any], rooms: Sequence[kit.Box], lines: Sequence[Segment]) -> Label:
    text = f"{area['id']} {area['name']}"
    width = kit.text_length(text, LABEL_PX)
    poly = [pt(p) for p in area["polygon"]]
    edges = list(zip(poly, poly[1:] + poly[:1], strict=True))
    left, top = min(x for x, _ in poly), min(y for _, y in poly)
    right, bottom = max(x for x, _ in poly), max(y for _, y in poly)
    want = (left + 22, top + 16)  # the old place: the area's top-left corner
    spots = [
        (float(x), float(y))
        for x in range(math.floor(left), math.ceil(right - width), STEP)
        for y in range(math.floor(top) + 10, math.ceil(bottom) - 10, STEP)
    ]
    spots.sort(key=lambda s: (s[0] - want[0]) ** 2 + (s[1] - want[1]) ** 2)
    for x, y in spots:
        box = _box(x, y, width)
        if (
            all(_inside((cx, cy), poly) for cx, cy in _corners(box))
            and all(_seg_box(e, box) >= BORDER_GAP for e in edges)
            and all(_seg_box(s, box) >= LINE_GAP for s in lines)
            and not any(_overlap(box, r) for r in rooms)
        ):
            return text, (x, y), box
    # No room anywhere (an area too small for its name): the old place.
    return text, want, _box(*want, width)


def _box(x: float, y: float, width: float) -> kit.Box:
    return x - 3, y - 10, x + width + 3, y + 10


def _corners(b: kit.Box) -> list[kit.Point]:
    return [(b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])]


def _overlap(a: kit.Box, b: kit.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(p: kit.Point, poly: Sequence[kit.Point]) -> bool:
    """Ray casting: whether p lies inside the polygon."""
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, [*poly[1:], poly[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _point_seg(p: kit.Point, s: Segment) -> float:
    (ax, ay), (bx, by) = s
    vx, vy = bx - ax, by - ay
    n = vx * vx + vy * vy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - ax) * vx + (p[1] - ay) * vy) / n))
    return math.dist(p, (ax + t * vx, ay + t * vy))


def _point_box(p: kit.Point, b: kit.Box) -> float:
    return math.hypot(max(b[0] - p[0], 0.0, p[0] - b[2]), max(b[1] - p[1], 0.0, p[1] - b[3]))


def _crosses(s: Segment, t: Segment) -> bool:
    def side(a: kit.Point, b: kit.Point, c: kit.Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    (a, b), (c, d) = s, t
    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def _seg_box(s: Segment, b: kit.Box) -> float:
    """The distance between a segment and a box (0 when it touches or crosses it)."""
    corners = _corners(b)
    sides = list(zip(corners, corners[1:] + corners[:1], strict=True))
    if _point_box(s[0], b) == 0 or any(_crosses(s, side) for side in sides):
        return 0.0
    return min(_point_box(s[0], b), _point_box(s[1], b), *(_point_seg(c, s) for c in corners))


def crossed(box: kit.Box, segments: Sequence[Segment], gap: float) -> bool:
    """Whether any segment comes nearer than `gap` to the box."""
    return any(_seg_box(s, box) < gap for s in segments)
