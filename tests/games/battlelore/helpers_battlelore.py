"""Small BattleLore positions for the rule tests: a game in play with only the named units on the
board, and dice whose results the test fixes."""

from __future__ import annotations

from engine import get_game
from games.battlelore import setup
from games.battlelore.game import BattleLore
from games.battlelore.state import JSON, SEATS, State

GAME: BattleLore = get_game("battlelore")  # type: ignore[assignment]


def position(
    *units: tuple[str, str, str] | tuple[str, str, str, int],
    scenario: str = "standard",
    active: str = "daqan",
    step: str = "attack",
    terrain: dict[str, str] | None = None,
    seed: int = 1,
) -> State:
    """`active`'s turn at `step` with only `units` ((kind, owner, hex[, damage]), each ordered) on
    the board; Into the Fire keeps its dragon and hoard on yellow hex 1."""
    s = GAME.setup(list(SEATS), {"scenario": scenario}, seed)
    s.units = {k: u for k, u in s.units.items() if s.dragon is not None and k == s.dragon["id"]}
    s.terrain = dict(terrain or {})
    s.banners = {}
    if not s.fire:
        s.hoards = []
    s.phase, s.step, s.active, s.turn = "play", step, active, 1
    for seat in SEATS:
        setup.draw_command(s, seat, setup.command_keep(s, seat))  # a hand, as after the opening discards
    for spec in units:
        u = setup.new_unit(s, spec[0], spec[1], spec[2])
        u["damage"] = spec[3] if len(spec) == 4 else 0
        u["ordered"] = True
    return s


def at(s: State, hex_name: str) -> JSON:
    u = s.unit_at(hex_name)
    assert u is not None, f"no unit at {hex_name}"
    return u


def act(s: State, seat: str, move: str) -> list[str]:
    return [e.text for e in GAME.act(s, seat, move)[1]]


def legal(s: State, seat: str) -> list[str]:
    return [str(a) for a in GAME.legal_actions(s, seat)]
