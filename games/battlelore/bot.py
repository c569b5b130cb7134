"""The BattleLore bot's own sense, around the engine's search (engine.search_bot):

* setup choices, which a search a dozen plies deep cannot judge: a suggested army when one fits
  (else a mixed one, unit by unit), a dragon drafted when it can be, lore customised toward the
  cards that deal damage, a spread deployment, the command cards that order the most units kept;
* decisions a good player answers without thinking (`decide`): Mighty's free reroll of results
  that cannot wound, Flame Breath on the opponent's weakest unit, and the lore step, which keeps
  tokens and damage cards in step;
* the estimate the search scores settled positions with (`estimate`): VP and banners, strength
  on the board, and in Into the Fire the damage dealt to the dragon, counting the damage the lore
  in hand and tokens can still deal, and the hoard once the dragon is overpowered.
"""

from __future__ import annotations

import math
from collections import Counter

from engine.dice import Dice
from games.battlelore import setup
from games.battlelore.board import distance, half_of, section_for
from games.battlelore.content import LoreCard, load_content
from games.battlelore.rules import card, dice_count, figures_left, max_figures
from games.battlelore.state import Action, State, other


def setup_choice(state: State, seat: str, legal: list[Action], dice: Dice) -> Action:
    c = load_content()
    legal = [a for a in legal if a.verb != "quick"]  # the bot makes each choice itself
    by_verb: dict[str, list[Action]] = {}
    for a in legal:
        by_verb.setdefault(a.verb, []).append(a)
    if "scenario" in by_verb:
        return by_verb["scenario"][dice.below(len(by_verb["scenario"]))]
    if "draft" in by_verb:
        return by_verb["draft"][0]
    if "army" in by_verb:
        return by_verb["army"][dice.below(len(by_verb["army"]))]
    if any(len(a.args) == 2 for a in by_verb.get("swap", [])) and setup.PICK in state.muster[seat]:
        # The deck card is taken up (rules version 3): the best card to put in for it.
        return max(by_verb["swap"], key=lambda a: (_gain(a), str(a)))
    swap = best_swap(setup.swap_actions(state, seat)) if "swap" in by_verb else None
    if swap is not None:
        # From rules version 3 a swap is chosen in steps: the deck card first (setup.swap_steps).
        return swap if swap in legal else Action("swap", swap.args[:1])
    units = [a for a in by_verb.get("muster", []) if c.units[a.args[0]].kind != "tent"]
    # Into the Fire turns up to 5 unspent points into lore tokens, worth more than a fifth unit:
    # with an army mustered, the points left stay unspent.
    if units and not (state.fire and len(state.muster[seat]["units"]) >= 4):
        return fill_unit(state, seat, units)
    if state.phase == "deploy":
        auto = [a for a in legal if a.args == ("auto",)]
        if auto:
            return auto[0]
    if "discard" in by_verb:
        return min(by_verb["discard"], key=lambda a: keep_worth(a.args[0]))
    done = by_verb.get("done")
    return done[0] if done else legal[0]


def lore_worth(lc: LoreCard) -> float:
    """How much a lore card is worth having: damage cards first (damage that needs no dice, and
    that counts against the dragon), by damage for the lore spent."""
    if lc.effect == "bolt":
        return 10.0 + lc.value / lc.cost
    return {"rally": 3.0, "nowhere_to_run": 2.5, "heal": 2.0, "firestorm": 1.5, "wingbeat": 1.0}.get(
        lc.effect, 0.0
    )


def fill_unit(state: State, seat: str, units: list[Action]) -> Action:
    """A mixed army: the unit it has fewest of, the dearer first among equals."""
    c = load_content()
    have: Counter[str] = Counter(state.muster[seat]["units"])
    return min(units, key=lambda a: (have[a.args[0]], -c.units[a.args[0]].cost, a.args[0]))


def best_swap(swaps: list[Action]) -> Action | None:
    """Lore customisation: the swap that gains the most, while it gains anything."""
    best = max(swaps, default=None, key=lambda a: (_gain(a), str(a)))
    return best if best is not None and _gain(best) > 0 else None


def _gain(a: Action) -> float:
    c = load_content()
    return lore_worth(c.lore[a.args[1]]) - lore_worth(c.lore[a.args[0]])


def keep_worth(name: str) -> tuple[float, str]:
    """How much a card in hand is worth keeping: a command card by the units it orders, a lore
    card by `lore_worth`."""
    c = load_content()
    if name in c.commands:
        return float(sum(c.commands[name].orders.values())), name
    return lore_worth(c.lore[name]), name


# ---- decisions without search -------------------------------------------------------------------------


def decide(state: State, seat: str, legal: list[Action]) -> Action | None:
    """The answer to a decision one answer of which is plainly best, or None to search it."""
    by_text = {str(a): a for a in legal}
    p = state.pending
    if p is not None and p["kind"] == "mighty":
        # Mighty rerolls the dragon's pierce results, which never wound in melee (and the dragon
        # only fights in melee): the player resolving its roll always rerolls them.
        return by_text.get("reroll")
    if p is not None and p["kind"] == "breath":
        return _breath(state, seat, legal)
    if p is None and state.phase == "play" and state.step == "lore":
        return _lore_step(state, seat, by_text)
    if p is None and state.phase == "play" and state.step == "order":
        return _order(state, legal)
    if p is None and state.phase == "play" and not state.fire and state.step in ("move", "attack"):
        return _hoard(state, seat, legal)
    return None


def _hoard(state: State, seat: str, legal: list[Action]) -> Action | None:
    """A standard game's hoards, worth 3 VP to whoever stands on one on the opponent's half at the
    start of their turn: a unit that can move onto the opponent's hoard does; an enemy unit on
    one's own hoard is attacked, by the unit rolling the most dice."""
    foe = other(seat)
    if state.step == "move":
        claims = [
            a for a in legal if a.verb == "move" and a.args[1] in state.hoards and half_of(a.args[1]) == foe
        ]
        return min(claims, key=str, default=None)
    raided = {
        h
        for h in state.hoards
        if half_of(h) == seat and (u := state.unit_at(h)) is not None and u["owner"] == foe
    }
    attacks = [a for a in legal if a.verb == "attack" and len(a.args) == 2 and a.args[1] in raided]

    def dice(a: Action) -> int:
        att, tgt = state.unit_at(a.args[0]), state.unit_at(a.args[1])
        assert att is not None and tgt is not None
        return dice_count(state, att, tgt, distance(a.args[0], a.args[1]) == 1)

    return max(attacks, key=lambda a: (dice(a), str(a)), default=None)


def _order(state: State, legal: list[Action]) -> Action | None:
    """An ordered unit may still stand still, so a good player uses every order the card gives.
    In Into the Fire the units nearest the goal (the dragon, or its hoard once overpowered) go
    first; elsewhere a lone order is given and the search picks among several."""
    orders = [a for a in legal if a.verb == "order"]
    if not orders:
        return None
    if state.fire and state.dragon is not None:
        goal = _goal(state, state.active)
        return min(orders, key=lambda a: (distance(a.args[0], goal), a.args[0]))
    return orders[0] if len(orders) == 1 else None


def _goal(state: State, seat: str) -> str:
    dragon = state.dragon
    assert dragon is not None
    if seat in dragon["overpowered"] or dragon["id"] not in state.units:
        return str(state.hoards[0])
    return str(state.units[dragon["id"]]["hex"])


def _breath(state: State, seat: str, legal: list[Action]) -> Action:
    """Flame Breath: the opponent's unit with least health left (one to finish, if any); failing
    that, passing where the group allows it, else the own unit that can best spare the damage."""

    def health_left(a: Action) -> int:
        u = state.unit_at(a.args[0])
        return card(u).health - int(u["damage"]) if u is not None else 99

    burns = [a for a in legal if a.verb == "breath"]
    theirs = [a for a in burns if (u := state.unit_at(a.args[0])) is not None and u["owner"] == other(seat)]
    if theirs:
        return min(theirs, key=lambda a: (health_left(a), str(a)))
    passing = [a for a in legal if a.verb == "pass"]
    if passing:
        return passing[0]
    return max(burns, key=lambda a: (health_left(a), str(a)))


def _lore_step(state: State, seat: str, by_text: dict[str, Action]) -> Action | None:
    """Gain lore tokens or draw a lore card: draw while no card in hand is worth the tokens
    (a damage card, above all), gain while one is and cannot yet be paid for."""
    draw, gain = by_text.get("draw lore"), by_text.get("gain lore")
    if draw is None or gain is None:
        return draw or gain
    c = load_content()
    hand = [c.lore[state.cards[cid]] for cid in state.piles[seat]["lore_hand"]]
    tokens = state.lore_tokens[seat]
    damage = [lc for lc in hand if lc.effect == "bolt"]
    if not damage:
        return draw
    # Enough tokens for every damage card in hand, and a hand not yet full: a card more.
    return draw if tokens >= sum(lc.cost for lc in damage) else gain


# ---- after the search ----------------------------------------------------------------------------------


def sensible(state: State, seat: str, legal: list[Action], action: Action) -> Action:
    """The search's answer, unless it wastes the turn's orders: a command card that orders no unit
    while another card in hand would order some, or `done` in the order step with a unit still
    to order (an ordered unit may stand still, so an order is never worth less than none). A
    search of few iterations can rank such a move first among moves it barely tried."""
    if state.pending is not None or state.phase != "play":
        return action
    if action.verb == "command" and units_ordered(state, seat, action.args[0]) == 0:
        cards = [a for a in legal if a.verb == "command"]
        best = max(cards, key=lambda a: (units_ordered(state, seat, a.args[0]), a.args[0]))
        return best if units_ordered(state, seat, best.args[0]) > 0 else action
    orders = [a for a in legal if a.verb == "order"]
    if action.verb == "done" and state.step == "order" and orders:
        foes = [u["hex"] for u in state.units_of(other(seat))] + list(state.hoards)
        return min(orders, key=lambda a: (min((distance(a.args[0], f) for f in foes), default=0), a.args[0]))
    return action


def units_ordered(state: State, seat: str, name: str) -> int:
    """How many units a command card would order now: its sections' units, then its orders for
    anywhere (and a lore card's extra order) among the rest."""
    orders = load_content().commands[name].orders
    free = [u for u in state.units_of(seat) if not u["ordered"]]
    here = Counter(section_for(u["hex"], seat) for u in free)
    n = sum(min(k, here[sec]) for sec, k in orders.items() if sec != "any")
    spare = orders.get("any", 0) + int(state.order.get("bonus", 0))
    return n + min(spare, len(free) - n)


# ---- the estimate -----------------------------------------------------------------------------------------


def estimate(state: State, seat: str) -> float:
    """How well `seat` stands, 0 to 1: VP, banners, strength left on the board and (Into the
    Fire) the race to overpower the dragon and hold its hoard."""
    o = state.outcome
    if o is not None:
        return 1.0 if seat in o["winners"] else 0.0 if seat in o["losers"] else 0.5
    foe = other(seat)

    def strength(s: str) -> float:
        return sum(figures_left(u) / max_figures(card(u)) for u in state.units_of(s))

    # Into the Fire sends an eliminated unit straight back to its deployment hexes: a unit lost
    # costs time, not the army.
    score = (strength(seat) - strength(foe)) / (8 if state.fire else 3)
    if state.fire:
        return 0.5 + 0.5 * math.tanh(score + _dragon_race(state, seat) - _dragon_race(state, foe))
    score += (state.vp[seat] - state.vp[foe]) / 6
    # Banners score each turn they are held: a held banner is VP to come, and one within a
    # unit's move of being taken nearly so.
    for h in state.banners:
        holder = state.unit_at(h)
        if holder is not None and holder["owner"] in (seat, foe):
            score += 0.35 if holder["owner"] == seat else -0.35
            continue
        reach = {
            s: min(
                (distance(u["hex"], h) for u in state.units_of(s) if u["kind"] != "command-tent"),
                default=9,
            )
            for s in (seat, foe)
        }
        score += 0.04 * (reach[foe] - reach[seat])
    score += _hoards(state, seat)
    if state.dragon is not None:
        hp = load_content().units["great-dragon"].health
        dmg = state.dragon["damage"]
        score += (min(dmg[seat], hp) - min(dmg[foe], hp)) / 3
    return 0.5 + 0.5 * math.tanh(score)


def _hoards(state: State, seat: str) -> float:
    """A standard game's hoards: a unit on a hoard on its opponent's half plunders it for VP at
    the start of its player's turn unless driven off first, so it counts nearly as those VP; a
    unit within a few hexes of one a little."""
    vp = load_content().rules.hoard_vp
    score = 0.0
    for h in state.hoards:
        home = half_of(h)
        if home is None:
            continue
        raider = other(home)
        sign = 1.0 if raider == seat else -1.0
        holder = state.unit_at(h)
        if holder is not None and holder["owner"] == raider:
            score += sign * 0.9 * vp / 6
            continue
        near = min((distance(u["hex"], h) for u in state.units_of(raider)), default=9)
        score += sign * 0.03 * max(0, 4 - near)
    return score


LORE_DAMAGE_SHARE = 0.6  # damage the lore in hand can deal counts this much of damage dealt


def _dragon_race(state: State, seat: str) -> float:
    """Into the Fire: how far `seat` is on its way to victory. Damage dealt to the dragon first
    (and the damage its lore cards and tokens can still deal, a little less), units near the
    dragon's flight path to deal more; once overpowered, a unit on or near the hoard."""
    dragon = state.dragon
    assert dragon is not None
    hp = load_content().units["great-dragon"].health
    dealt = min(int(dragon["damage"][seat]), hp)
    lore = min(lore_damage(state, seat), hp - dealt)
    score: float = (dealt + LORE_DAMAGE_SHARE * lore) / 3
    hoard = str(state.hoards[0])
    units = state.units_of(seat)
    if seat in dragon["overpowered"]:
        # Holding the hoard at the start of the next turn wins: every unit on its way there
        # counts (the dragon and the opponent drive the nearest back), one on it most.
        held = any(u["hex"] == hoard for u in units)
        closing = sum(max(0, 4 - distance(u["hex"], hoard)) for u in units)
        return score + 0.8 + (1.0 if held else 0.0) + 0.1 * closing
    # Before that, units within reach of the dragon's round of yellow hexes deal the damage.
    here = _goal(state, seat)
    closeness = sum(max(0, 6 - distance(u["hex"], here)) for u in units)
    return score + 0.01 * closeness


def lore_damage(state: State, seat: str) -> float:
    """The damage `seat`'s damage lore cards in hand can deal with the tokens it has, the best
    value first, and what tokens are left worth toward the next card."""
    c = load_content()
    cards = sorted(
        (c.lore[state.cards[cid]] for cid in state.piles[seat]["lore_hand"]),
        key=lambda lc: -lore_worth(lc),
    )
    tokens = state.lore_tokens[seat]
    dmg = 0.0
    for lc in cards:
        if lc.effect == "bolt" and lc.cost <= tokens:
            dmg += lc.value
            tokens -= lc.cost
    return dmg + 0.25 * min(tokens, 4)
