"""Small Ignite positions for the rule tests, built one way: the seats' units set up (placement
auto) on open grass with no minion, at hard difficulty without divine-favor questions unless the
test's options say otherwise; minions, units and hands put down by hand; an Enemy Phase's movement step alone.
The Ignite tests share these rather than each writing its own (test_positions.py holds that)."""

from __future__ import annotations

from collections.abc import Sequence

from games.ignite import phases
from games.ignite.board import Minion, blank_terrain, parse_square
from games.ignite.cards import new_card
from games.ignite.content import load_content
from games.ignite.game import Ignite
from games.ignite.state import IgniteState

G = Ignite()
C = load_content()
OPTIONS = {"difficulty": "hard", "favor_prompts": "off", "placement": "auto"}


def open_field(seats: Sequence[str] = ("stoneborn",), seed: int = 1, **options: str) -> IgniteState:
    st = G.setup(list(seats), {**OPTIONS, **options}, seed)
    st.field.terrain = blank_terrain()
    st.field.minions.clear()
    return st


def minion(st: IgniteState, square: str, colour: str = "green", level: int = 1, **kw: object) -> Minion:
    m = Minion(st.field.new_minion_id(), colour, level, parse_square(square), **kw)  # type: ignore[arg-type]
    st.field.minions.append(m)
    return m


def move_only(st: IgniteState, *ids: str) -> None:
    """Run just the movement step of an Enemy Phase for these minions."""
    st.phase = "enemy"
    st.ep = {"step": "move", "order": list(ids)}
    phases.run_enemy_phase(st, C, [])


def put(st: IgniteState, unit_id: str, square: str) -> None:
    st.field.unit(unit_id).pos = parse_square(square)


def hand(st: IgniteState, seat: str, *names: str) -> None:
    st.cards[seat].hand = [new_card(st, n) for n in names]
