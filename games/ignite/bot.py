"""Ignite's own player bot: plays one seat's cards with sense (attacks what is in range, keeps units
out of enemy reach, buys when it can) and answers the decisions the rules hand to the players.

Greedy, one action per call, from what the seat may know: the board, the market and its own hand
are public or its own; it never reads another seat's hand or the decks' order. Levels:
easy    takes the first attack that helps, steps a unit out of reach only when it is in reach, to
        the first safe square; buys the cheapest card; takes every default.
medium  the best attack, shield and heal by simulating each on a copy; the safest square for each
        move; buys its race's plan cards (the quick start's), else the card it owns fewest of;
        sends a respawn to the safer corner.
hard    medium, plus moves that bring a unit into range of a minion it can kill next, divine
        favor spent on bad draws and rolls, and ties steered toward the toughest unit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from games.ignite import enemy_stats, quick_start, spawn_steps
from games.ignite.board import Pos, Unit, distance, is_village, parse_square
from games.ignite.cards import DAMAGING_TERRAIN, ability, can_shop, cost_of, enemy_targets
from games.ignite.content import Content, load_content
from games.ignite.enemy_cards import FIRE_ATTACKS, stats_for
from games.ignite.rules import minion_health
from games.ignite.state import Action, IgniteState
from games.ignite.units import respawn_square
from games.ignite.views import tie_square

LEVELS = ("easy", "medium", "hard")

# Position values, in "one unit health = 4" units. A lost unit brings the group nearer its loss
# condition, so it weighs far more than the health it had.
HEALTH = 4.0
LOST_HALF = 30.0  # per half unit lost (a ratman is one half, any other unit two)
MINION = 10.0
MINION_DAMAGE = 5.0  # per point of damage on a minion that survives
DRAGON = 15.0  # per point of the dragon's health
HEX = 3.0  # a Hex card is a dead card in a hand
ALLY_CARD = 1.5  # a card in another seat's hand, for its next turn
DEATH_RISK = 25.0  # a unit whose exposure could kill it
SPREAD = 0.5  # per point of exposure, even beyond what would kill
# Enemies that reach a unit in a forest (Rule 4 "targetable"); aimed fire burns the whole forest.
FOREST_REACHERS = FIRE_ATTACKS | {"lightning"}
AIMED_FIRE = FIRE_ATTACKS - {"magical_fire"}
# Reach added for the Power card the next Enemy Phase draws (speed cards are common).
MARGIN = {"easy": 0, "medium": 1, "hard": 1}
# A move is made only when it is worth more than this; otherwise the unit holds its ground.
MOVE_WORTH = 0.5
SHOP_BONUS = 3.0  # a move that lets the seat buy this turn
# Minions are placed on the top row (and the bazaar, where they wait a phase): a unit within
# this many rows of the top is in reach of a minion not yet on the board.
SPAWN_REACH = 7
STRIKES = ("attack", "operate", "ring", "immobilize", "afflict")  # card effects aimed at enemies


class Game(Protocol):
    """What the bot needs of the game (games.ignite.game.Ignite, which imports this module)."""

    def legal_actions(self, state: IgniteState, seat: str) -> list[Action]: ...
    def apply(self, state: IgniteState, seat: str, action: Action) -> object: ...
    def copy(self, state: IgniteState) -> IgniteState: ...


@dataclass(frozen=True)
class Threat:
    """An enemy's reach next Enemy Phase: king distance it can move, plus its range."""

    pos: Pos
    reach: int
    damage: int
    attack: str


def choose(game: Game, state: IgniteState, seat: str, level: str) -> Action:
    """The bot's next action for `seat` (one of `game.legal_actions`). Deterministic: the same
    position and level give the same action, so a bot's game replays from its log."""
    legal = game.legal_actions(state, seat)
    content = load_content()
    p = state.pending
    if p is not None and p["kind"] == "tie":
        return _tie(state, legal, level)
    if p is not None and p["kind"] == "divine_favor":
        return _favor(state, content, legal, level)
    if p is not None and p["kind"] == "respawn":
        return _respawn(state, content, legal, level)
    if state.phase == "placement":
        return Action("end")  # the provisional spread along the bottom row stands
    return _turn(game, state, content, seat, legal, level)


# ---- the seat's turn ---------------------------------------------------------------------------------


def _turn(
    game: Game, state: IgniteState, content: Content, seat: str, legal: list[Action], level: str
) -> Action:
    by_effect: dict[str, list[Action]] = {}
    for a in legal:
        if a.verb == "play":
            by_effect.setdefault(content.cards[a.card].effect, []).append(a)
    # More cards first: a drawn card may be the attack or the move this turn needs.
    if by_effect.get("draw"):
        return by_effect["draw"][0]
    threats = threats_of(state, content, MARGIN[level])
    before = score(state, content, seat, threats)
    strikes = [a for e in STRIKES for a in by_effect.get(e, [])]
    moves = by_effect.get("move", [])
    if level == "easy":
        # Easy: whatever attack helps first, else a unit in reach steps out of it.
        picks = [_best_simulated(game, state, content, seat, strikes, before, MARGIN[level], first=True)]
        picks.append(_best_move(state, content, seat, moves, threats, level))
        chosen = next((p[1] for p in picks if p is not None), None)
    else:
        # One scale for every kind of card: a kill, a step out of reach and a raised shield are
        # each worth what they change in the group's position (a kill also ends that minion's
        # threat), so a unit about to die runs before it strikes a minion that is not the threat.
        care = by_effect.get("shield", []) + by_effect.get("heal", [])
        picks = [
            _best_simulated(game, state, content, seat, strikes + care, before, MARGIN[level], first=False),
            _best_move(state, content, seat, moves, threats, level),
        ]
        ranked = [p for p in picks if p is not None]
        chosen = max(ranked, key=lambda p: p[0])[1] if ranked else None
    return chosen or _shop(state, content, seat, legal, level) or Action("end")


def _best_simulated(
    game: Game,
    state: IgniteState,
    content: Content,
    seat: str,
    options: list[Action],
    before: float,
    margin: int,
    first: bool,
) -> tuple[float, Action] | None:
    """The option that raises the position's score most (or, `first`, the first that raises it),
    with its gain, each tried on a copy. Nothing: None."""
    best: tuple[float, Action] | None = None
    for a in _cheapest_card_each(content, options):
        work = game.copy(state)
        game.apply(work, seat, a)
        after = score(work, content, seat, threats_of(work, content, margin))
        gain = after - before + _half_follow_up(state, work, seat)
        if gain <= MOVE_WORTH:
            continue
        if first:
            return gain, a
        if best is None or gain > best[0]:
            best = (gain, a)
    return best


def _half_follow_up(before: IgniteState, after: IgniteState, seat: str) -> float:
    """A dagger's 1/2 damage is lost at the enemies' turn: it is worth a kill only when the seat
    still holds a card that can finish that minion now."""
    new_halves = {
        m.pos
        for m in after.field.minions
        if m.half_damage and not any(o.id == m.id and o.half_damage for o in before.field.minions)
    }
    if not new_halves:
        return 0.0
    content = load_content()
    units = [u for u in after.field.units if u.seat == seat]
    for cid in after.cards[seat].hand:
        card = content.cards[after.card_names[cid]]
        if card.effect != "attack":
            continue
        for u in units:
            if set(enemy_targets(after, u.pos, card.range_min, card.range_max, card.fire)) & new_halves:
                return MINION * 0.8
    return 0.0


def _cheapest_card_each(content: Content, options: list[Action]) -> list[Action]:
    """One action per (effect, unit, square): the card worth least as Honor does it, so the
    better cards stay for buying."""
    chosen: dict[tuple[str, str, str], Action] = {}
    for a in options:
        key = (content.cards[a.card].effect, a.unit, a.square)
        held = chosen.get(key)
        worth = (content.cards[a.card].honor, a.card)
        if held is None or worth < (content.cards[held.card].honor, held.card):
            chosen[key] = a
    return list(chosen.values())


def _best_move(
    state: IgniteState, content: Content, seat: str, moves: list[Action], threats: list[Threat], level: str
) -> tuple[float, Action] | None:
    """The move that lowers the group's risk most (hard: or brings a unit into range of a minion
    it can kill next), weighed without simulating: a move changes only where that unit stands,
    and so which unit each enemy goes for."""
    units = {u.id: u for u in state.field.units if u.seat == seat}
    where = {u.id: u.pos for u in state.field.units}
    now = group_risk(state, where, threats)
    exposed = exposures(state, where, threats)
    shop_wanted = level != "easy" and _could_buy(state, content, seat) and not can_shop(state, seat)
    best: tuple[float, int, Action] | None = None
    for a in _cheapest_card_each(content, moves):
        unit = units.get(a.unit)
        if unit is None:
            continue  # a war machine rolled: never worth a card to this bot
        if level == "easy" and exposed[unit.id] == 0:
            continue  # easy moves only a unit in reach
        to = parse_square(a.square)
        moved = {**where, unit.id: to}
        gain = now - group_risk(state, moved, threats) - _terrain_cost(state, content, seat, to)
        if shop_wanted and shop_square(state, to):
            gain += SHOP_BONUS
        if level == "hard":
            gain += _strike_next(state, content, seat, a, moved, threats)
        if gain <= MOVE_WORTH:
            continue
        if level == "easy" and exposures(state, moved, threats)[unit.id] == 0:
            return gain, a  # the first safe square found
        rank = (gain, -distance(unit.pos, to), a)
        if best is None or rank[:2] > best[:2]:
            best = rank
    return (best[0], best[2]) if best else None


def _strike_next(
    state: IgniteState,
    content: Content,
    seat: str,
    move: Action,
    moved: dict[str, Pos],
    threats: list[Threat],
) -> float:
    """Hard: after this move, can another card in hand kill a minion it cannot kill from where
    the unit stands now? Worth most of a kill and of the risk that minion would have brought."""
    to, here = moved[move.unit], state.field.unit(move.unit).pos
    hand = [state.card_names[c] for c in state.cards[seat].hand]
    hand.remove(move.card)
    health = minion_health(len(state.seats))
    daggers = sum(1 for n in hand if content.cards[n].dagger)
    risk = group_risk(state, moved, threats)
    best = 0.0
    for name in set(hand):
        card = content.cards[name]
        if card.effect != "attack":
            continue
        fresh = set(enemy_targets(state, to, card.range_min, card.range_max, card.fire)) - set(
            enemy_targets(state, here, card.range_min, card.range_max, card.fire)
        )
        for m in state.field.minions:
            if m.pos not in fresh:
                continue
            full = not card.dagger or ability(content, seat) == "keen_dagger"
            dealt = card.value if full else (1 if m.half_damage or daggers >= 2 else 0)
            if m.damage + dealt >= health:
                rest = [t for t in threats if t.pos != m.pos]
                best = max(best, 0.8 * (MINION + risk - group_risk(state, moved, rest)))
    return best


def _terrain_cost(state: IgniteState, content: Content, seat: str, pos: Pos) -> float:
    terrain = state.field.terrain_at(pos)
    if terrain in DAMAGING_TERRAIN and not (ability(content, seat) == "fireproof" and terrain != "acid"):
        return HEALTH
    return 0.0


def shop_square(state: IgniteState, pos: Pos) -> bool:
    terrain = state.field.terrain_at(pos)
    bazaar_open = not state.bazaar_closed and not state.field.bazaar_destroyed
    return terrain == "village" or (terrain == "bazaar" and bazaar_open)


# ---- buying ----------------------------------------------------------------------------------------


def _hand_honor(state: IgniteState, content: Content, seat: str) -> int:
    """The Honor the seat's hand can still raise (a card played for Honor, or its Honor effect)."""
    total = 0
    for cid in state.cards[seat].hand:
        card = content.cards[state.card_names[cid]]
        if card.effect != "dead":
            total += max(card.honor, card.value if card.effect == "honor" else 0)
    return total


def _could_buy(state: IgniteState, content: Content, seat: str) -> bool:
    budget = state.honor + _hand_honor(state, content, seat)
    return any(k > 0 and cost_of(state, content, n) <= budget for n, k in state.market.items())


def _shop(state: IgniteState, content: Content, seat: str, legal: list[Action], level: str) -> Action | None:
    """Buys when it can: the leftover cards (a hand is discarded at the turn's end anyway) are
    played for Honor until the card it wants is affordable, then it is bought."""
    if not can_shop(state, seat):
        return None
    budget = state.honor + _hand_honor(state, content, seat)
    prices = {n: cost_of(state, content, n) for n, k in state.market.items() if k > 0}
    affordable = sorted((c, n) for n, c in prices.items() if c <= budget)
    if not affordable:
        return None
    if level == "easy":
        cost, want = affordable[0]
    else:
        want = _wanted(state, content, seat, [n for _, n in affordable])
        cost = prices[want]
    if state.honor >= cost:
        return Action("buy", card=want)
    # The card that raises the most Honor first.
    raisers = [
        a
        for a in legal
        if a.verb == "honor" or (a.verb == "play" and content.cards[a.card].effect == "honor")
    ]

    def raised(a: Action) -> int:
        card = content.cards[a.card]
        return card.value if a.verb == "play" else card.honor

    return max(raisers, key=lambda a: (raised(a), a.verb, a.card)) if raisers else None


def wanted_now(state: IgniteState, content: Content, seat: str) -> tuple[str, int] | None:
    """The card (and its price) the seat's Honor and hand now go toward, as `_shop` chooses it;
    None where it cannot shop or afford any."""
    if not can_shop(state, seat):
        return None
    budget = state.honor + _hand_honor(state, content, seat)
    affordable = [n for n, k in state.market.items() if k > 0 and cost_of(state, content, n) <= budget]
    if not affordable:
        return None
    want = _wanted(state, content, seat, affordable)
    return want, cost_of(state, content, want)


def _wanted(state: IgniteState, content: Content, seat: str, affordable: list[str]) -> str:
    """The card to buy among those the seat can afford: its race's plan first (the quick start's,
    the cards its ability uses), the one it owns fewest of; failing those, the card it owns fewest
    of, the dearest first. A deck of one kind (a unicorn bought round after round) moves its
    units far and strikes nothing."""
    c = state.cards[seat]
    owned = Counter(state.card_names[i] for i in c.deck + c.hand + c.discard + c.played)
    plan = quick_start.plan_of(content, seat).cards
    wanted = [n for n in plan if n in affordable]
    if wanted:
        return min(wanted, key=lambda n: (owned[n], plan.index(n)))
    return min(affordable, key=lambda n: (owned[n], -cost_of(state, content, n), n))


def _raises_honor(content: Content, action: Action) -> bool:
    return content.cards[action.card].effect == "honor"


# ---- the position ---------------------------------------------------------------------------------


def threats_of(state: IgniteState, content: Content, margin: int = 0) -> list[Threat]:
    """Every enemy's reach next Enemy Phase, by its printed card and the difficulty's speed
    tokens, plus `margin` for the Power card not yet drawn (the cards now in effect are
    discarded before the enemies move). King distance is a lower bound of the walk, so a reach
    is never underestimated but for that card."""
    cards = stats_for(state)
    mods = enemy_stats.PhaseModifiers(
        level2_speed=spawn_steps.difficulty(state).level2_speed, minion_health=minion_health(len(state.seats))
    )
    out: list[Threat] = []
    for m in state.field.minions:
        s = enemy_stats.effective_stats(m, cards, mods)
        # Knocked down or immobilized: it stands or stays, then attacks from where it is.
        move = 0 if m.knocked_down or m.immobilized else s.movement + margin
        out.append(Threat(m.pos, move + s.range_max, s.damage, s.attack))
    dragon = state.field.dragon
    if dragon is not None:
        s = cards[("dragon", 1)]
        # The Boss Battle: up to three actions, flying; read as two flights and a breath.
        out.append(Threat(dragon.pos, 2 * s.movement + s.range_max + margin, s.damage, s.attack))
    return out


def _how_near(state: IgniteState, t: Threat, pos: Pos) -> int | None:
    """How far `t` has to reach to hit a unit on `pos`, or None if it cannot (Rule 4
    "targetable": in a forest only fire and lightning reach a unit, aimed fire by setting any
    square of the forest ablaze)."""
    forest = state.field.burning_forest(pos)
    if not forest:
        return distance(t.pos, pos)
    if t.attack in AIMED_FIRE:
        return min(distance(t.pos, p) for p in forest)
    if t.attack in FOREST_REACHERS:
        return distance(t.pos, pos)
    return None


def _aimed_at(state: IgniteState, where: dict[str, Pos], threats: list[Threat]) -> dict[str, list[Threat]]:
    """Which enemies go for which unit (id -> square) next Enemy Phase: each goes for the unit
    nearest it that it can affect (Rule 4; equally near units all count), if its reach gets there."""
    out: dict[str, list[Threat]] = {uid: [] for uid in where}
    for t in threats:
        near = {uid: d for uid, pos in where.items() if (d := _how_near(state, t, pos)) is not None}
        if not near or min(near.values()) > t.reach:
            continue
        closest = min(near.values())
        for uid, d in near.items():
            if d == closest:
                out[uid].append(t)
    return out


def exposures(state: IgniteState, where: dict[str, Pos], threats: list[Threat]) -> dict[str, int]:
    """The damage each unit (id -> square) could take next Enemy Phase."""
    return {uid: dealt for uid, (dealt, _) in _exposed(state, where, threats).items()}


def _exposed(state: IgniteState, where: dict[str, Pos], threats: list[Threat]) -> dict[str, tuple[int, int]]:
    """Per unit: the damage the enemies that go for it could deal, +1 each on a village space,
    +1 within reach of minions spawned on the top row; and the Hex cards they would give."""
    out = {}
    for uid, aimed in _aimed_at(state, where, threats).items():
        pos = where[uid]
        extra = 1 if is_village(pos) else 0
        dealt = sum(t.damage + extra for t in aimed if t.damage > 0)
        if pos[1] < SPAWN_REACH:
            dealt += 1 + extra
        out[uid] = (dealt, sum(1 for t in aimed if t.attack == "hex"))
    return out


def unit_cost(unit: Unit, exposed: int, hexes: int) -> float:
    """What an exposure threatens a unit with: the health it would lose, its death, a little
    per point beyond (fewer enemies on a doomed unit is still better), and Hex cards."""
    dealt = max(0, exposed - unit.shield)
    death = DEATH_RISK if dealt >= unit.health else 0.0
    return HEALTH * min(dealt, unit.health) + SPREAD * dealt + death + HEX * hexes


def group_risk(state: IgniteState, where: dict[str, Pos], threats: list[Threat]) -> float:
    exposed = _exposed(state, where, threats)
    return sum(unit_cost(u, *exposed[u.id]) for u in state.field.units if u.id in where)


def score(state: IgniteState, content: Content, seat: str, threats: list[Threat]) -> float:
    """How well the group stands (higher is better), for comparing the results of `seat`'s
    possible actions."""
    if state.outcome is not None:
        return 1e6 if state.outcome["winners"] else -1e6
    field = state.field
    value = -MINION * len(field.minions) + MINION_DAMAGE * sum(m.damage for m in field.minions)
    if field.dragon is not None:
        value -= DRAGON * field.dragon.health
    value += HEALTH * sum(u.health for u in field.units)
    value -= group_risk(state, {u.id: u.pos for u in field.units}, threats)
    value -= LOST_HALF * state.lost_halves
    # Hexes in every hand, and the other seats' hand sizes (a card an ally must discard is one
    # fewer for their turn): only the change an action makes counts, and that change is
    # announced, so no seat's hidden cards sway the choice.
    value -= HEX * sum(1 for c in state.cards.values() for cid in c.hand if state.card_names[cid] == "hex")
    value += ALLY_CARD * sum(len(c.hand) for s, c in state.cards.items() if s != seat)
    return value


# ---- decisions ---------------------------------------------------------------------------------------


def _tie(state: IgniteState, legal: list[Action], level: str) -> Action:
    """Easy and medium take the default; hard steers the enemy toward the toughest unit."""
    p = state.pending
    assert p is not None
    default = Action("choose", option=tie_square(str(p["default"]).removeprefix("choose ")))
    if level != "hard":
        return default
    field = state.field

    def toughness(option: str) -> float:
        pos = parse_square(option.partition(":")[2])
        area = field.burning_forest(pos) | {pos}
        hit = [u for u in field.units if u.pos in area]
        # A forest fire hits every unit in it: the weakest of them counts.
        weakest = min((u.health + u.shield - (1 if is_village(u.pos) else 0) for u in hit), default=99)
        return weakest - len(hit)

    options = [str(o) for o in p["options"]]
    best = max(options, key=lambda o: (toughness(o), tie_square(o) == default.option))
    return Action("choose", option=tie_square(best))


def _favor(state: IgniteState, content: Content, legal: list[Action], level: str) -> Action:
    """Hard spends a token on a D6 group bigger than the card's average, or on a drawn card that
    adds minions or a catapult while two tokens remain; everyone else keeps them."""
    p = state.pending
    assert p is not None
    spend = next((a for a in legal if a.verb == "favor"), None)
    if level != "hard" or spend is None:
        return Action("keep")
    if p["what"] == "draw":
        drawn = content.effect_card(state.ep["last_draw"])
        harmful = bool(drawn.effects.get("extra_spawn") or drawn.effects.get("catapult"))
        return spend if harmful and state.divine_favor >= 2 else Action("keep")
    if state.ep.get("step") == "symbols":
        card = spawn_steps.current_round_card(state, content)
        sizes = [sum(n for _, n in g.spawn) for g in card.groups]
        rolled = sum(n for _, n in card.group(state.ep["d6"]).spawn)
        if sizes and rolled > sum(sizes) / len(sizes) + 0.5:
            return spend
    return Action("keep")


def _respawn(state: IgniteState, content: Content, legal: list[Action], level: str) -> Action:
    """Medium and hard bring the unit back at the corner fewer enemies reach; easy takes the default."""
    if level == "easy":
        return Action("respawn", option="left")
    threats = threats_of(state, content, MARGIN[level])
    where = {u.id: u.pos for u in state.field.units}

    def risk(side: str) -> int:
        return exposures(state, {**where, "": respawn_square(state.field, side)}, threats)[""]

    return min(
        (Action("respawn", option=side) for side in ("left", "right")),
        key=lambda a: (risk(a.option), a.option),
    )
