"""BattleLore tactics: finish the opponent's last unit (pinned against its own edge, so every
morale result is a damage too), and overpower Into the Fire's dragon on its hoard; either wins at
once, and the alternative is ending the turn or striking elsewhere."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Dice, get_game
from engine.search_bot import choose
from games.battlelore import bot, setup
from games.battlelore.board import neighbours
from games.battlelore.rules import card
from games.battlelore.state import SEATS, State
from tests.tactics.suite import NEEDED, Position, solved

GAME = get_game("battlelore")


def _board(scenario: str, units: list[tuple[str, str, str, int]], active: str) -> State:
    s: State = GAME.setup(list(SEATS), {"scenario": scenario}, 1)
    s.units = {k: u for k, u in s.units.items() if s.dragon is not None and k == s.dragon["id"]}
    s.terrain, s.banners = {}, {}
    if not s.fire:
        s.hoards = []
    s.phase, s.step, s.active, s.turn = "play", "attack", active, 3
    for seat in SEATS:
        setup.draw_command(s, seat, setup.command_keep(s, seat))
    for kind, owner, hex_name, damage in units:
        u = setup.new_unit(s, kind, owner, hex_name)
        u["damage"], u["ordered"] = damage, True
    return s


def _in_front(hex_name: str, row: int) -> str:
    return next(n for n in sorted(neighbours(hex_name)) if int(n[1:]) == row)


def last_unit(attacker: str, target: str, where: str) -> Position:
    """`attacker` stands next to the opponent's last unit, one health left, at its own edge."""
    owner = "daqan" if target in DAQAN else "uthuk"
    me = "uthuk" if owner == "daqan" else "daqan"
    front = _in_front(where, 2 if owner == "daqan" else 8)
    spare = "yeoman-archers" if me == "daqan" else "thorn-slingers"

    def build() -> Any:
        health = card({"kind": target}).health
        return _board(
            "standard",
            [(target, owner, where, health - 1), (attacker, me, front, 0), (spare, me, "a5", 0)],
            me,
        )

    return Position(
        f"{attacker} finishes the last {target} at {where}",
        build,
        me,
        lambda m: m == f"attack {front} {where}",
    )


def overpower(attacker: str, me: str) -> Position:
    """The dragon on its hoard has taken all but one of its health from `me`: one more wins."""

    def build() -> Any:
        s = _board("into-the-fire", [], me)
        assert s.dragon is not None
        dragon = s.units[s.dragon["id"]]
        dragon["hex"] = s.hoards[0]
        s.dragon["damage"][me] = card(dragon).health - 1
        front = _in_front(
            s.hoards[0], int(s.hoards[0][1:]) - 1 if me == "daqan" else int(s.hoards[0][1:]) + 1
        )
        foe = "uthuk" if me == "daqan" else "daqan"
        for kind, owner, hex_name in (
            (attacker, me, front),
            ("citadel-guard" if foe == "daqan" else "blight-brutes", foe, "a5"),
        ):
            u = setup.new_unit(s, kind, owner, hex_name)
            u["ordered"] = owner == me
        return s

    def best(m: str) -> bool:
        state = build()
        return m.startswith("attack ") and m.split()[2] == state.hoards[0]

    return Position(f"{attacker} overpowers the dragon on its hoard", build, me, best)


def claim_hoard(mover: str, me: str) -> Position:
    """`me`'s ordered unit can reach the opponent's hoard this move: standing on it at the start
    of its next turn plunders it for 3 VP; the opponent's one unit is far off."""
    foe = "uthuk" if me == "daqan" else "daqan"
    hoard, start, far = ("e7", "e5", "a9") if me == "daqan" else ("e3", "e5", "a1")

    def build() -> Any:
        s = _board(
            "standard",
            [(mover, me, start, 0), ("citadel-guard" if foe == "daqan" else "viper-legion", foe, far, 0)],
            me,
        )
        s.step, s.hoards = "move", [hoard]
        return s

    return Position(f"{mover} claims the {foe} hoard", build, me, lambda m: m == f"move {start} {hoard}")


def defend_hoard(defender: str, me: str) -> Position:
    """An enemy unit stands on `me`'s hoard and plunders it at the start of its turn unless driven
    off: attacking it beats attacking an enemy unit elsewhere."""
    foe = "uthuk" if me == "daqan" else "daqan"
    raider, other_foe = (
        ("blood-harvesters", "viper-legion") if foe == "uthuk" else ("citadel-guard", "shield-wardens")
    )
    hoard, guard, there, mine = ("c2", "c1", "i4", "i3") if me == "daqan" else ("c8", "c9", "i6", "i7")

    def build() -> Any:
        s = _board(
            "standard",
            [
                (raider, foe, hoard, 0),
                (other_foe, foe, there, 0),
                (defender, me, guard, 0),
                (defender, me, mine, 0),
            ],
            me,
        )
        s.hoards = [hoard]
        return s

    return Position(
        f"{defender} attacks the raider on its hoard", build, me, lambda m: m == f"attack {guard} {hoard}"
    )


HOARDS = [
    claim_hoard("vale-riders", "daqan"),
    claim_hoard("ashen-raiders", "uthuk"),
    defend_hoard("citadel-guard", "daqan"),
    defend_hoard("blood-harvesters", "uthuk"),
]


DAQAN = ("citadel-guard", "yeoman-archers", "shield-wardens", "vale-riders", "bastion-crossbows")
POSITIONS = [
    last_unit("citadel-guard", "blood-harvesters", "e9"),
    last_unit("shield-wardens", "viper-legion", "c9"),
    last_unit("vale-riders", "ashen-raiders", "h9"),
    last_unit("shield-wardens", "blight-brutes", "k9"),
    last_unit("blood-harvesters", "citadel-guard", "e1"),
    last_unit("viper-legion", "vale-riders", "c1"),
    last_unit("ashen-raiders", "shield-wardens", "h1"),
    last_unit("blight-brutes", "yeoman-archers", "k1"),
    overpower("vale-riders", "daqan"),
    overpower("shield-wardens", "daqan"),
    overpower("ashen-raiders", "uthuk"),
    overpower("blight-brutes", "uthuk"),
]


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_battlelore_tactics(level: str) -> None:
    found = solved(GAME, POSITIONS, level, choose)
    missed = [p.name for p in POSITIONS if p.name not in found]
    assert len(found) >= NEEDED[level] * len(POSITIONS), f"{level} missed: {missed}"


def _bot(game: Any, state: State, seat: str, level: str, dice: Dice, **limits: Any) -> Any:
    """The BattleLore bot as it plays (BattleLore.choose_action), at the suite's fixed iterations:
    its plain answers first, the search's answer checked for a wasted order."""
    legal = game.legal_actions(state, seat)
    found = choose(game, state, seat, level, dice, plain=bot.decide(state, seat, legal), **limits)
    return bot.sensible(state, seat, legal, found)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_battlelore_hoards_claimed_and_defended(level: str) -> None:
    found = solved(GAME, HOARDS, level, _bot)
    missed = [p.name for p in HOARDS if p.name not in found]
    assert len(found) >= NEEDED[level] * len(HOARDS), f"{level} missed: {missed}"
