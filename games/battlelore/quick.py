"""The quick start: `quick` takes the suggested setup for a seat, from the decision it is played
at to the first turn: its scenario card, the draft, an army, lore swaps, a deployment and the
opening discards. Each step is told in one line that says why (privately where the choice is
secret); a group that wants every choice plays the steps one by one instead.

The choices are fixed rules, not searched (only the hexes of a battle line are drawn at random),
and the bot's own setup (games/battlelore/bot.py) draws on the same judgements. Their secret
choices are told to their player alone; the host delivers a private line to the player whose
command caused it, so a step taken in the opponent's move is seen in `/game hand`.
"""

from __future__ import annotations

from collections import Counter

from engine.game import Event
from engine.words import count
from games.battlelore import bot, setup
from games.battlelore.board import ROWS, row_of, section_for
from games.battlelore.content import load_content
from games.battlelore.state import Action, State

QUICK = "quick"


def is_quick(state: State, seat: str) -> bool:
    """Whether `seat` took the quick start (a key written only then, so older states are unchanged)."""
    return bool(state.muster.get(seat, {}).get(QUICK))


def mark(state: State, seat: str) -> None:
    state.muster[seat][QUICK] = True


def next_move(state: State, seat: str) -> Action:
    """The suggested move at `seat`'s setup decision now (the full notation: a swap names both
    cards, a deployment card its hex, whatever steps the menu offers them in)."""
    phase = state.phase
    if phase == "scenario":
        return Action("scenario", (_best_scenario(state, seat),))
    if phase == "draft":
        drafts = setup.draft_actions(state, seat)
        return next((a for a in drafts if a.verb == "draft"), Action("pass"))
    if phase == "muster":
        return _muster_move(state, seat)
    if phase == "deploy":
        return _placement(state, seat)
    # The opening hands: the card worth least goes, until both hands are kept.
    discards = setup.hands_actions(state, seat)
    return min(discards, key=lambda a: bot.keep_worth(a.args[0]))


def _best_scenario(state: State, seat: str) -> str:
    """The card with the most banners on its player's half: each is VP every turn it is held."""
    c = load_content()
    names = setup.named(state, state.piles[seat]["scenario"])
    return max(names, key=lambda n: (len(c.scenarios[n].banners), n))


def _placement(state: State, seat: str) -> Action:
    """The next card of a battle line: melee units (the dragon among them) on the front row, ranged
    units on the row behind to shoot over them, then the decoys among the front; each card in the
    section holding fewest of the seat's cards so far, at a hex of it drawn at random."""
    c = load_content()
    unplaced = [d for d in state.piles[seat]["deploy"] if d not in state.placed]
    free = setup.free_deploy_hexes(state, seat)
    if not unplaced or not free:
        return Action("done")

    def rank(cid: str) -> int:
        name = state.cards[cid]
        return 2 if name == setup.DECOY else 1 if c.units[name].kind == "ranged" else 0

    card = min(unplaced, key=lambda d: (rank(d), d))
    name = state.cards[card]
    # How far forward a hex is: rows counted from the seat's own edge.
    depth = {h: row_of(h) if seat == "daqan" else ROWS + 1 - row_of(h) for h in free}
    rows = sorted(set(depth.values()), reverse=True)  # the front row with a free hex first
    want = rows[1] if rank(card) == 1 and len(rows) > 1 else rows[0]
    row = [h for h in free if depth[h] == want]
    placed = Counter(
        section_for(h, seat) for d, h in state.placed.items() if d in state.piles[seat]["deploy"]
    )
    fewest = min(placed[section_for(h, seat)] for h in row)
    spots = [h for h in row if placed[section_for(h, seat)] == fewest]
    return Action("deploy", (name, spots[state.dice.below(len(spots))]))


def _muster_move(state: State, seat: str) -> Action:
    c = load_content()
    m = state.muster[seat]
    buys = setup.purchases(state, seat)
    armies = [a for a in buys if a.verb == "army"]
    if armies:
        # The suggested army that spends the most of the points.
        return max(armies, key=lambda a: (c.army_cost(a.args[0]), a.args[0]))
    swap = bot.best_swap(setup.swap_actions(state, seat))
    if swap is not None:
        return swap
    units = [a for a in buys if a.verb == "muster" and c.units[a.args[0]].kind != "tent"]
    fire_full = state.fire and len(m["units"]) >= 4  # Into the Fire: points left are lore tokens
    if units and not fire_full:
        return bot.fill_unit(state, seat, units)
    tents = [a for a in buys if a.verb == "muster"]
    if tents and setup.must_spend(state):
        return tents[0]
    return Action("done")


def line(state: State, seat: str, phase: str, moves: list[Action]) -> list[Event]:
    """What the table (and, for secret choices, the seat alone) is told of `seat`'s quick steps in
    one setup phase: one line each, with the reason."""
    c = load_content()
    side = seat.title()
    own = frozenset({seat})
    if phase == "scenario":
        name = moves[0].args[0]
        sc = c.scenarios[name]
        return [
            Event("quick", f"{side} chooses a scenario card face down (quick start).", headline=True),
            Event(
                "quick",
                f"quick: you play {sc.title}, because its {count(len(sc.banners), 'banner')} on your "
                "half score VP every turn you hold them.",
                to=own,
            ),
        ]
    if phase == "draft":
        drafted = [a.args[0] for a in moves if a.verb == "draft"]
        if drafted:
            titles = " and the ".join(c.units[n].title for n in drafted)
            why = f"quick: {side} drafts the {titles}, the strongest unit on the field, with lore of its own."
        else:
            why = f"quick: {side} passes: no neutral unit is left that its points can pay for."
        return [Event("quick", why, headline=True)]
    if phase == "muster":
        return _muster_lines(state, seat, moves)
    if phase == "deploy":
        why = (
            f"quick: {side} places its deployment cards face down in a battle line: melee units and "
            "the decoys on its front row, ranged units on the row behind to shoot over them, spread "
            "over the three sections at hexes drawn at random."
        )
        return [Event("quick", why, headline=True)]
    kept = Counter(
        _title(state.cards[cid]) for cid in state.piles[seat]["hand"] + state.piles[seat]["lore_hand"]
    )
    titles = ", ".join(f"{t} ×{k}" if k > 1 else t for t, k in kept.items())
    return [
        Event(
            "quick", f"{side} discards {count(len(moves), 'card')} face down (quick start).", headline=True
        ),
        Event(
            "quick",
            f"quick: you keep {titles}: the command cards that order the most units, and the lore "
            "cards that deal damage first.",
            to=own,
        ),
    ]


def _muster_lines(state: State, seat: str, moves: list[Action]) -> list[Event]:
    c = load_content()
    m = state.muster[seat]
    bought = Counter(c.units[n].title for n in m["units"] if c.units[n].faction != "neutral")
    army = ", ".join(f"{t} ×{k}" if k > 1 else t for t, k in bought.items())
    tents = "a command tent" if m["tents"] == 1 else count(m["tents"], "command tent")
    army += f" and {tents}" if m["tents"] else ""
    taken = next((a.args[0] for a in moves if a.verb == "army"), None)
    base = f"the `{taken}` army, filled up with" if taken else "a mix of"
    why = (
        f"quick: the suggested army for {seat.title()}: {army} ({base} the units it has fewest of), "
        "because melee units hold banners while ranged units wear the enemy down"
    )
    if m["tents"]:
        why += ", and a tent keeps a command card more"
    if state.fire and m["done"]:
        why += f"; {count(state.lore_tokens[seat], 'lore token')} for the points left unspent"
    out = [Event("quick", why + ".", headline=True)]
    swaps = [a for a in moves if a.verb == "swap"]
    # Told alike however many swaps were made: their number depends on the secret lore deck.
    said = f"{seat.title()} makes its lore swaps face down (quick start)."
    out.append(Event("quick", said, headline=True))
    pairs = Counter(f"{_title(a.args[0])} for {_title(a.args[1])}" for a in swaps)
    told = "; ".join(f"{p} ×{k}" if k > 1 else p for p, k in pairs.items())
    mine = (
        f"quick: you swap {told}, because lore cards that deal damage need no dice."
        if swaps
        else "quick: you keep your lore deck as it is: no swap left would gain a card worth more."
    )
    out.append(Event("quick", mine, to=frozenset({seat})))
    return out


def _title(name: str) -> str:
    c = load_content()
    for table in (c.commands, c.lore):
        if name in table:
            return str(table[name].title)
    return name
