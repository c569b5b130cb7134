"""Dire Alliance Battle Mode tactics: a winning claim for either side, and a free opportunity
attack on an enemy leaving the area (an opportunity attack costs nothing)."""

from __future__ import annotations

import pytest

from engine import get_game
from engine.search_bot import choose
from games.dire_alliance.state import DAState, PendingMove, other
from tests.tactics.suite import NEEDED, Position, solved

GAME = get_game("dire-alliance")
RED = ("empyreal", "unbroken", "hypnotist", "devoted")
BLUE = ("caretaker", "butcher", "mourner", "digger")


def _start(seed: int = 1) -> DAState:
    s = GAME.setup(["red", "blue"], GAME.validate_options({}), seed)
    assert isinstance(s, DAState)
    for f in s.fighters.values():
        f.area = 6 if f.owner == "red" else 7
    return s


def winning_claim(fighter: str, area: int, partner: str) -> Position:
    """Two objectives claimed already; `fighter` stands alone on a third, its card played."""

    def build() -> DAState:
        s = _start()
        colour = s.fighters[fighter].owner
        foe = other(colour)
        for o in [o for o in s.objectives if o.owner == foe and o.area != area][:2]:
            o.claimed_by = colour
        s.fighters[fighter].area = area
        s.step = "A1"
        s.initiative = s.turn = colour
        s.phase, s.claimed_initiative = "activate", False
        s.players[colour].played = [f"{fighter}#t1", f"{partner}#t2"]
        return s

    colour = "red" if fighter in RED else "blue"
    return Position(
        f"{colour} {fighter} claims the third objective in {area}",
        build,
        colour,
        lambda m: m == f"{fighter} control",
    )


def free_opportunity_attack(attacker: str, mover: str, to: int) -> Position:
    """An enemy starts to leave `attacker`'s area: striking it costs nothing."""

    def build() -> DAState:
        s = _start()
        s.fighters[mover].area = s.fighters[attacker].area = 6
        s.step, s.initiative = "A1", s.fighters[mover].owner
        s.turn, s.phase = s.fighters[mover].owner, "opportunity"
        s.players[s.turn].played = []
        s.move = PendingMove(fighter=mover, to=to, attackers=[attacker], card=f"{mover}#t1")
        return s

    seat = s_owner = "red" if attacker in RED else "blue"
    del s_owner
    return Position(f"{attacker} strikes {mover} leaving", build, seat, lambda m: m.startswith("oppose"))


POSITIONS = [
    winning_claim("empyreal", 8, "unbroken"),
    winning_claim("unbroken", 9, "devoted"),
    winning_claim("hypnotist", 10, "empyreal"),
    winning_claim("devoted", 12, "hypnotist"),
    winning_claim("caretaker", 1, "butcher"),
    winning_claim("butcher", 3, "mourner"),
    winning_claim("mourner", 4, "digger"),
    winning_claim("digger", 5, "caretaker"),
    free_opportunity_attack("unbroken", "mourner", 2),
    free_opportunity_attack("empyreal", "digger", 5),
    free_opportunity_attack("butcher", "hypnotist", 10),
    free_opportunity_attack("caretaker", "devoted", 2),
]


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_dire_alliance_battle_tactics(level: str) -> None:
    found = solved(GAME, POSITIONS, level, choose)
    missed = [p.name for p in POSITIONS if p.name not in found]
    assert len(found) >= NEEDED[level] * len(POSITIONS), f"{level} missed: {missed}"
