"""Reading the Ignite view: squares, figures, seats and cards, tolerant of hand-built views."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from render.ignite.layout import COLUMNS, N


def read_pos(value: Any) -> tuple[int, int] | None:
    if isinstance(value, str):
        t = value.strip().lower()
        if len(t) >= 2 and t[0] in COLUMNS and t[1:].isdigit() and 1 <= int(t[1:]) <= N:
            return COLUMNS.index(t[0]), int(t[1:]) - 1
        return None
    if isinstance(value, Sequence) and len(value) == 2:
        try:
            c, r = int(value[0]), int(value[1])
        except (TypeError, ValueError):
            return None
        if 0 <= c < N and 0 <= r < N:
            return c, r
    return None


def field_of(view: Mapping[str, Any]) -> Mapping[str, Any]:
    for key in ("field", "board"):
        inner = view.get(key)
        if isinstance(inner, Mapping) and "terrain" in inner:
            return inner
    return view


def seat_order(view: Mapping[str, Any], units: Sequence[Mapping[str, Any]]) -> list[str]:
    seats: list[str] = []
    for p in view.get("players") or view.get("seats") or []:
        s = str(p.get("seat", "")) if isinstance(p, Mapping) else str(p)
        if s and s not in seats:
            seats.append(s)
    for u in units:
        s = str(u.get("seat", ""))
        if s and s not in seats:
            seats.append(s)
    return seats


def square_of(fig: Mapping[str, Any]) -> tuple[int, int] | None:
    return read_pos(fig.get("square") if fig.get("square") is not None else fig.get("pos"))


def has_flag(fig: Mapping[str, Any], name: str) -> bool:
    return bool(fig.get(name)) or name in (fig.get("flags") or [])


def _names(cards: Any) -> list[str]:
    return [str(c.get("name", "")) if isinstance(c, Mapping) else str(c) for c in cards or []]


def seats_to_act(view: Mapping[str, Any]) -> set[str]:
    t = view.get("to_act")
    seats = t.get("seats") if isinstance(t, Mapping) else t
    return {str(s) for s in seats or []}


def card_piles(view: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    for power_key, apoc_key in (("power_cards", "apocalypse_cards"), ("power", "apocalypse")):
        if power_key in view or apoc_key in view:
            return [("Power", _names(view.get(power_key))), ("Apocalypse", _names(view.get(apoc_key)))]
    effect = view.get("in_effect") or []
    power = [str(c["name"]) for c in effect if isinstance(c, Mapping) and c.get("kind") == "power"]
    apoc = [str(c["name"]) for c in effect if isinstance(c, Mapping) and c.get("kind") == "apocalypse"]
    plain = [str(c) for c in effect if isinstance(c, str)]
    if plain and not (power or apoc):
        return [("In effect", plain)]
    return [("Power", power + plain), ("Apocalypse", apoc)]


def units_lost(view: Mapping[str, Any]) -> float | None:
    if "units_lost" in view:
        return float(view["units_lost"])
    if "lost_halves" in view:
        return int(view["lost_halves"]) / 2
    return None


def read_path(mv: Mapping[str, Any]) -> list[tuple[int, int]]:
    raw = list(mv.get("path") or [])
    if mv.get("from") is not None:
        raw.insert(0, mv["from"])
    elif not raw and mv.get("to") is not None:
        raw = [mv["to"]]
    pts: list[tuple[int, int]] = []
    for p in (read_pos(x) for x in raw):
        # A repeated square (a minion that stood still) would give a zero-length arrow.
        if p is not None and (not pts or pts[-1] != p):
            pts.append(p)
    return pts
