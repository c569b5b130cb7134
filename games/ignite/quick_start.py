"""The quick start (issue 39): one `quick` takes a seat's whole setup, a placement and the free
turns' purchases suggested for its race, so a new table reaches round 1 in a few commands.

The rulebook leaves every setup choice to the players (Race Selection: units anywhere in the
bottom village; How to Play: the free turns before round 1 play cards for Honor and buy). A
seat that takes the quick start is marked (IgniteState.quick): its placement is made at once
and each of its free turns is then played for it as that turn comes round, told in one line.
Its turns from round 1 on are the player's own. A group that wants every choice simply does not
type `quick`. The plans are ours, keyed by the race's ability (a group's own races file keeps
them), and explained in one line when the seat takes them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Event
from engine.words import count, listing
from games.ignite import phases
from games.ignite.board import SIZE, Pos, square_name
from games.ignite.cards import apply_card_action, can_shop, cost_of, legal_card_actions, own_units
from games.ignite.content import Content
from games.ignite.state import Action, IgniteState
from games.ignite.units import BOTTOM_ROW

QUICK = "quick"  # the move's notation


@dataclass(frozen=True)
class Plan:
    """A race's suggested setup: its units' spacing on the bottom row (1 side by side, 2 a space
    apart), the battle cards its free turns buy first, and what they are for."""

    spacing: int
    cards: tuple[str, ...]  # the battle cards it buys first
    purpose: str

    @property
    def why(self) -> str:
        """The plan in one line, said from `cards` and from `_purchase`'s own fallback. It is an
        aim, said so: what the free turns did buy is told once they are played (`take`)."""
        return (
            f"aiming to buy {listing([f'`{c}`' for c in self.cards], 'and')} ({self.purpose}), "
            "else the dearest card its Honor buys"
        )


# Keyed by the race's ability. Side by side earns the extra card of units next to each other
# (cards.end_turn); ratmen do not get it, so they stand a space apart, where one lightning strike
# (the target and the 8 around it) cannot take two of them.
PLANS: dict[str, Plan] = {
    "ratmen": Plan(2, ("arrow", "ring blade"), "many cheap strikes from many units"),
    "none": Plan(1, ("metal shield", "flail"), "to hold the line"),
    "swift": Plan(1, ("long bow", "arrow"), "quick feet keep them at range"),
    "fireproof": Plan(
        1,
        ("fire arrow", "ring of fire"),
        "fire reaches into forests, and burning ground does not hurt them",
    ),
    "scholar": Plan(
        1,
        ("triple sheath", "weapon dealer"),
        "a hand of 7 grows into more cards and Honor",
    ),
    "keen_dagger": Plan(1, ("flail", "metal shield"), "the melee their full-damage daggers want"),
    "far_sight": Plan(1, ("long bow", "arrow"), "their attacks reach 1 farther"),
    "regrowth": Plan(1, ("conditioning", "metal shield"), "they heal themselves and their neighbours"),
}


# How a plan stands its units, said only where the seat has more than one.
SPACING = {1: "units side by side (the extra card)", 2: "units a space apart (one lightning cannot hit two)"}


def plan_of(content: Content, seat: str) -> Plan:
    return PLANS[content.races[seat].ability]


def plan_text(state: IgniteState, content: Content, seat: str) -> str:
    """The seat's plan in one line: how its units stand (where it has several), what it buys."""
    plan = plan_of(content, seat)
    units = sum(1 for u in state.field.units if u.seat == seat)
    return plan.why if units < 2 else f"{SPACING[plan.spacing]}, {plan.why}"


def offer_text(state: IgniteState, content: Content, seat: str) -> str:
    """`quick` beside the move in the menu: what it would do for this seat."""
    return f"**quick** (quick start): {plan_text(state, content, seat)}; your free turns are played for you."


def offered(state: IgniteState, seat: str) -> bool:
    """`quick` is a move for the seat placing its units, or taking a free turn, that has not
    taken it yet (before round 1 only)."""
    return state.phase in ("placement", "free") and state.pending is None and seat not in state.quick


def take(state: IgniteState, content: Content, seat: str, events: list[Event]) -> None:
    """`quick`: the seat is marked; in the placement its units go to the suggested squares and
    its placement ends; in a free turn that turn is played for it at once."""
    state.quick.append(seat)
    plan = plan_of(content, seat)
    planned = plan_text(state, content, seat)
    at = len(events)
    if state.phase == "placement":
        moves = [(u, p) for u, p in suggested_squares(state, seat, plan) if state.field.unit(u).pos != p]
        while moves:
            # A unit whose square another of its own units still holds waits for that one to move.
            legal = {(a.unit, a.square) for a in phases.placements(state, seat)}
            move = next((m for m in moves if (m[0], square_name(m[1])) in legal), None)
            if move is None:
                # Only units swapping squares among themselves are left: the squares they hold
                # are already the suggested ones.
                break
            phases.place_unit(state, *move, events)
            moves.remove(move)
        phases.end_placement(state, content, events)
    bought = run(state, content, events).get(seat)
    # The line comes first in the post, but says what the free turns played now did buy (the
    # play-test read the plan's aim as what was bought).
    taken = _taken(state, seat, planned, bought)
    events.insert(at, Event("quick", f"{seat} takes the quick start: {taken}."))


def _taken(state: IgniteState, seat: str, planned: str, bought: list[str] | None) -> str:
    """The plan while no free turn of the seat is played yet; else what its free turns bought."""
    if bought is None:
        return f"{planned}; its free turns are played for it"
    tally = [
        name if bought.count(name) == 1 else f"{name} ×{bought.count(name)}" for name in dict.fromkeys(bought)
    ]
    said = f"its free turns bought {listing(tally) if tally else 'nothing'}"
    if state.phase == "free":
        return f"{said} so far; its next ones are played for it too"
    return said


def run(state: IgniteState, content: Content, events: list[Event]) -> dict[str, list[str]]:
    """Play every free turn now due to a seat that took the quick start, until a seat that did
    not is to play (or round 1 begins); the cards each seat played for bought, in order. The board
    does not change in such a turn, so its end is told without a picture of its own."""
    bought: dict[str, list[str]] = {}
    while (
        state.phase == "free"
        and state.pending is None
        and state.outcome is None
        and state.seats[state.turn] in state.quick
    ):
        seat = state.seats[state.turn]
        turn: list[Event] = []
        told, cards = _free_turn(state, content, seat)
        events.append(told)
        bought.setdefault(seat, []).extend(cards)
        phases.end_player_turn(state, content, turn)
        # The turn's line above says it ended; no picture per turn either (nothing moved).
        events += [e for e in turn if e.kind != "turn_end"]
    return bought


# ---- placement -----------------------------------------------------------------------------------


def suggested_squares(state: IgniteState, seat: str, plan: Plan) -> list[tuple[str, Pos]]:
    """The seat's units around the middle of its share of the bottom row (the seats share it in
    turn order, as the provisional spread does), `plan.spacing` apart, each on the free space
    nearest to where it is wanted. Squares other seats' units hold are not free."""
    units = sorted(own_units(state, seat), key=lambda u: u.pos)
    index = state.seats.index(seat)
    share = SIZE / len(state.seats)
    middle = (index + 0.5) * share
    taken = {u.pos for u in state.field.units if u.seat != seat}
    first = middle - (len(units) - 1) * plan.spacing / 2
    out: list[tuple[str, Pos]] = []
    for k, unit in enumerate(units):
        want = first + k * plan.spacing
        free = [(col, BOTTOM_ROW) for col in range(SIZE) if (col, BOTTOM_ROW) not in taken]
        pos = min(free, key=lambda p: (abs(p[0] + 0.5 - want), p[0]))
        taken.add(pos)
        out.append((unit.id, pos))
    return out


# ---- a free turn ---------------------------------------------------------------------------------


def _raiser(state: IgniteState, content: Content, seat: str) -> Action | None:
    """The next card to turn into Honor: an Honor card played for its effect, a draw card
    played to draw when it draws at least what it is worth in Honor, else any card for its Honor
    (a Hex is worth nothing)."""
    names = sorted({state.card_names[c] for c in state.cards[seat].hand})
    cards = [content.cards[n] for n in names if content.cards[n].effect != "dead"]
    for card in cards:
        if card.effect == "honor" and card.value > card.honor:
            return Action("play", card=card.name)
    for card in cards:
        if card.effect == "draw" and card.value >= card.honor:
            return Action("play", card=card.name)
    return Action("honor", card=cards[0].name) if cards else None


def _purchase(state: IgniteState, content: Content, seat: str, plan: Plan, bought: list[str]) -> str | None:
    """The plan's card in stock and affordable that this turn bought fewest of (the plan's order
    breaks a tie), else the dearest affordable card."""
    stock = [n for n, k in state.market.items() if k > 0 and 0 < cost_of(state, content, n) <= state.honor]
    wanted = [n for n in plan.cards if n in stock]
    if wanted:
        return min(wanted, key=lambda n: (bought.count(n), plan.cards.index(n)))
    return max(stock, key=lambda n: (cost_of(state, content, n), n)) if stock else None


def _check_legal(state: IgniteState, content: Content, seat: str, action: Action) -> None:
    """The quick start takes only moves the player could have typed."""
    if action not in legal_card_actions(state, content, seat):
        raise AssertionError(f"the quick start chose `{action}`, which is not a legal move for {seat}")


def _free_turn(state: IgniteState, content: Content, seat: str) -> tuple[Event, list[str]]:
    """One free turn played for a quick-start seat: every card of the hand turned into Honor, the
    Honor spent on the plan's cards; one line tells it. Also the cards bought."""
    plan = plan_of(content, seat)
    played = drawn = 0
    while (action := _raiser(state, content, seat)) is not None:
        _check_legal(state, content, seat, action)
        before = len(state.cards[seat].hand)
        apply_card_action(state, content, seat, action)
        played += 1
        drawn += len(state.cards[seat].hand) - before + 1
    honor = state.honor
    bought: list[str] = []
    while can_shop(state, seat) and (name := _purchase(state, content, seat, plan, bought)) is not None:
        purchase = Action("buy", card=name)
        _check_legal(state, content, seat, purchase)
        apply_card_action(state, content, seat, purchase)
        bought.append(name)
    draws = f" (drawing {count(drawn, 'card')})" if drawn else ""
    spent = f"buys {listing(bought)}" if bought else "buys nothing"
    text = (
        f"{seat}'s free turn (quick start): plays {count(played, 'card')} for {honor} Honor{draws}, "
        f"{spent}, ends the turn."
    )
    return Event("quick_turn", text, random=drawn > 0), bought
