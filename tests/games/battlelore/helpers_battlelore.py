"""Small BattleLore positions for the rule tests: a game in play with only the named units on the
board, and dice whose results the test fixes."""

from __future__ import annotations

from engine import get_game
from games.battlelore import setup
from games.battlelore.board import section_for
from games.battlelore.content import load_content
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


def lore_hand(s: State, seat: str, *names: str) -> None:
    """Give `seat` exactly these lore cards in hand (taken from anywhere in its piles)."""
    p = s.piles[seat]
    everywhere = [cid for pile in p.values() for cid in pile if s.cards.get(cid) in load_content().lore]
    hand: list[str] = []
    for name in names:
        cid = next(c for c in everywhere if s.cards[c] == name and c not in hand)
        hand.append(cid)
    for pile in p.values():
        pile[:] = [c for c in pile if c not in hand]
    p["lore_hand"] = hand


def at(s: State, hex_name: str) -> JSON:
    u = s.unit_at(hex_name)
    assert u is not None, f"no unit at {hex_name}"
    return u


def act(s: State, seat: str, move: str) -> list[str]:
    return [e.text for e in GAME.act(s, seat, move)[1]]


def legal(s: State, seat: str) -> list[str]:
    return [str(a) for a in GAME.legal_actions(s, seat)]


def first(s: State, seat: str) -> str:
    """The first legal move a player makes by hand: `quick`, offered first at each setup choice,
    would take the whole suggested setup instead."""
    return next(m for m in legal(s, seat) if m != "quick")


def place(s: State, seat: str, card: str, hex_name: str) -> None:
    """A deployment card face down at a hex, in the steps a player is offered (rules version 3):
    the card, the hex's flank when it is not the one shown, the hex."""
    act(s, seat, f"deploy {card}")
    name = s.cards.get(card, card)
    if f"deploy {name} {hex_name}" not in legal(s, seat):
        act(s, seat, f"flank {section_for(hex_name, seat)}")
    act(s, seat, f"deploy {card} {hex_name}")


def whole_swaps(s: State, seat: str) -> list[str]:
    """The lore swaps a seat may make, each whole (`swap <deck card> <available card>`), whatever
    steps the menu offers them in."""
    return [str(a) for a in setup.swap_actions(s, seat)]


def swap(s: State, seat: str, move: str) -> list[str]:
    """A whole swap made in the steps offered: the deck card, then the card put in for it."""
    said = act(s, seat, " ".join(move.split()[:2]))
    return said + act(s, seat, move)


def offered_hexes(s: State, seat: str) -> set[str]:
    """Every hex the seat is offered for its first deployment card, flank by flank (the card is
    left taken up)."""
    act(s, seat, next(m for m in legal(s, seat) if m.startswith("deploy ") and m != "deploy auto"))
    hexes: set[str] = set()
    for flank in ("left", "centre", "right"):
        if f"flank {flank}" in legal(s, seat):
            act(s, seat, f"flank {flank}")
        hexes |= {m.split()[2] for m in legal(s, seat) if m.startswith("deploy ") and len(m.split()) == 3}
    return hexes
