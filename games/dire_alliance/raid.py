"""Raid Mode: heroes' action rows, boost, exert, gaining cards, and the automated villain and minions.

The enemy phases run inside the engine. Where the rules hand the players a choice mid-phase (a tie,
a boost before an enemy's dice, a card gained), the phase pauses; the answer replays the phase
from its start with the answers so far (same dice), so a paused phase needs no step machine.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

from engine.dice import Dice
from engine.game import Event, ToAct
from engine.words import count
from games.dire_alliance.content import Content, EnemyLine, HeroCard, VillainCard, parse_line
from games.dire_alliance.rules import area_name, roll
from games.dire_alliance.state import (
    HERO_SEATS,
    JSON,
    Hero,
    HeroActivation,
    Minion,
    RaidObjective,
    RaidState,
    RowCard,
    VillainState,
    card_name,
    serial,
)

HAND = 4
VILLAIN = "villain"
STATS = ("melee", "shoot", "defence")


# ---- setup -----------------------------------------------------------------------------------------


def setup(seats: list[str], opts: dict[str, str], content: Content, dice: Dice) -> RaidState:
    """Raid Mode Setup: heroes and classes, the villain and its deck, the minion bag, objectives."""
    raid = content.raid
    sc = raid.scenario
    heroes: dict[str, Hero] = {}
    for seat in seats:
        hid, cid = opts[f"{seat}_hero"], opts[f"{seat}_class"]
        h = Hero(seat=seat, hero=hid, klass=cid, area=sc.heroes_start)
        n = seat[-1]
        # Personal supply: 5 hero cards and 5 of each class card; the starting deck takes two of each.
        for card in (content.hero(hid).card, *content.hero_class(cid).cards):
            copies = [f"{card.id}#h{n}.{i}" for i in range(1, 6)]
            h.deck += copies[:2]
            h.supply[card.id] = copies[2:]
        dice.shuffle(h.deck)
        heroes[seat] = h
    minions: dict[str, Minion] = {}
    for colour in raid.minions.colours:
        for r in raid.minions.ranks:
            for _ in range(r.per_colour):
                # Named, as players call it: `shambler-7` (its number tells the copies apart).
                mid = f"{r.name.lower().replace(' ', '-')}-{len(minions) + 1}"
                minions[mid] = Minion(id=mid, colour=colour, rank=r.rank)
    deck = [c.name for c in raid.villain.deck]
    dice.shuffle(deck)
    state = RaidState(
        options=opts,
        scenario=sc.id,
        round=1,
        phase="act",
        heroes=heroes,
        minions=minions,
        villain=VillainState(area=sc.villain_start, health=raid.villain.health_for(len(seats)), deck=deck),
        objectives=[RaidObjective(colour=c, area=a) for c, a in sc.objectives.items()],
        dice=0,
        last_actor=seats[0],
    )
    for _ in range(sc.spawn_at_start):  # stand-in scenario sheet: minions waiting at the start
        _spawn(state, content, dice, [])
    for seat in seats:
        draw(state, seat, HAND, dice)
    return state


# ---- names and stats -------------------------------------------------------------------------------


def hero_name(content: Content, state: RaidState, seat: str) -> str:
    return content.hero(state.heroes[seat].hero).name


def enemy_name(content: Content, state: RaidState, eid: str) -> str:
    if eid == VILLAIN:
        return content.raid.villain.name
    m = state.minions[eid]
    return f"{content.rank(m.rank).name} {serial(eid)} ({m.colour})"


def card_def(content: Content, h: Hero, name: str) -> HeroCard:
    hero_card = content.hero(h.hero).card
    if name == hero_card.id:
        return hero_card
    return next(c for c in content.hero_class(h.klass).cards if c.id == name)


def hero_stat(content: Content, h: Hero, stat: str) -> int | None:
    """Base stat plus the modifiers of the face-up cards in the action row, never below 0;
    None for a "—" stat, which never rolls and takes no modifiers."""
    base: int | None = getattr(content.hero(h.hero), stat)
    if base is None:
        return None
    mods: int = sum(getattr(card_def(content, h, card_name(r.card)), stat) for r in h.row if r.up)
    return max(0, base + mods)


def villain_stat(content: Content, state: RaidState, stat: str) -> int | str:
    """The villain's base stat plus the modifiers of every card in its action row (0 floor); ★ stays."""
    base = getattr(content.raid.villain, stat)
    if base == "★":
        return "★"
    mods: int = sum(getattr(_villain_card(content, n), stat) for n in state.villain.row)
    return max(0, int(base) + mods)


def minion_stat(content: Content, m: Minion, stat: str) -> int | str:
    value: int | str = getattr(content.rank(m.rank), stat)
    return value


def _villain_card(content: Content, name: str) -> VillainCard:
    return next(c for c in content.raid.villain.deck if c.name == name)


def living(state: RaidState) -> list[Hero]:
    return [h for h in state.heroes.values() if not h.defeated]


def enemies_in(state: RaidState, area: int) -> list[str]:
    out = [m.id for m in state.minions.values() if m.area == area]
    return sorted(out, key=serial) + (
        [VILLAIN] if _villain_alive(state) and state.villain.area == area else []
    )


def _villain_alive(state: RaidState) -> bool:
    return state.villain.wounds < state.villain.health


def enemy_area(state: RaidState, eid: str) -> int:
    if eid == VILLAIN:
        return state.villain.area
    area = state.minions[eid].area
    assert area is not None
    return area


# ---- cards -----------------------------------------------------------------------------------------


def draw(state: RaidState, seat: str, n: int, dice: Dice) -> list[Event]:
    """Draw `n`; an empty deck is made again from the shuffled discard pile, as in Battle Mode."""
    h = state.heroes[seat]
    got = 0
    events: list[Event] = []
    for _ in range(n):
        if not _refresh(h, dice):
            break
        h.hand.append(h.deck.pop(0))
        got += 1
    if got:
        events.append(Event("draw", f"{seat} draws {count(got, 'card')}.", random=True))
    return events


def _refresh(h: Hero, dice: Dice) -> bool:
    if not h.deck and h.discard:
        h.deck, h.discard = h.discard, []
        dice.shuffle(h.deck)
    return bool(h.deck)


def hero_damage(state: RaidState, content: Content, seat: str, rank: int | None, dice: Dice) -> list[Event]:
    """Damage in Raid Mode: lose a card with the damage icon of the attacker's rank (hand, then deck,
    then discard pile; never the action row) into the damage pile, or the top card of the deck for
    unranked damage. A hero who cannot is defeated, and the heroes lose."""
    h = state.heroes[seat]
    who = hero_name(content, state, seat)
    if rank is None:
        if _refresh(h, dice):
            card = h.deck.pop(0)
            h.damage.append(card)
            return [
                Event(
                    "damage",
                    f"{who} loses the top card of the deck ({card_name(card)}) to the damage pile.",
                    headline=True,  # every hit stays in the post when a long phase moves to a file
                )
            ]
    else:
        for pile, where in ((h.hand, "hand"), (h.deck, "deck"), (h.discard, "discard pile")):
            matching = [c for c in pile if rank in card_def(content, h, card_name(c)).damage]
            if not matching:
                continue
            card = matching[0]
            names = sorted({card_name(c) for c in matching})
            if len(names) > 1 and _RUN.get() is not None:
                # Damage: the pile is searched in order, but which matching card goes is the
                # hero's choice (Parry and Brace both carry [1]).
                # The table is told the choice, not what the hand or deck holds: only the discard
                # pile is face up, so only its cards are named here (the hero's menu names the rest).
                which = (
                    f"({', '.join(card_def(content, h, n).name for n in names)})"
                    if pile is h.discard
                    else f"({len(names)} kinds of card match; {who} sees them in the move menu)"
                )
                got = _ask(
                    state,
                    "lose",
                    [seat],
                    names,
                    f"{who} must lose a card with damage icon [{rank}] from the {where}: choose which "
                    f"{which}.",
                )
                card = next(c for c in matching if card_name(c) == got.split()[1])
            pile.remove(card)
            h.damage.append(card)
            events = [
                Event(
                    "damage",
                    f"{who} loses {card_def(content, h, card_name(card)).name} (damage icon {rank}) "
                    f"from the {where} to the damage pile.",
                    headline=True,
                )
            ]
            if where == "hand":  # as in Battle Mode, a card lost from the hand is replaced
                events += draw(state, seat, 1, dice)
            return events
    h.defeated = True
    state.result = {"winners": [], "reason": f"{who} could not lose a card and died"}
    state.phase = "over"
    # Said in full: a hero dying with cards still in hand surprises a group that never read why.
    left = [card_def(content, h, card_name(c)).name for c in (*h.hand, *h.deck, *h.discard)]
    if rank is None:
        why = f"{who} must lose the top card of the deck, and the deck and discard pile are empty"
    else:
        hand = [card_def(content, h, card_name(c)).name for c in h.hand]
        why = (
            f"{who} must lose a card with damage icon {rank} (the attacker's rank) from the hand, "
            f"the deck or the discard pile, and none of the {count(len(left), 'card')} there has it"
            + (f" (in hand: {', '.join(hand)})" if hand else "")
        )
    text = f"{why}, so {who} has no card with damage icon {rank} to lose and dies: the heroes lose."
    if rank is None:
        text = f"{why}, so {who} has no card at all to lose and dies: the heroes lose."
    return [Event("defeated", text, phase_end=True, headline=True)]


def heal_options(h: Hero) -> list[str]:
    return sorted({card_name(c) for c in h.damage})


def hero_heal(state: RaidState, content: Content, seat: str, name: str) -> list[Event]:
    """Heal (a hero): any one card of its choice from the damage pile to the discard pile."""
    h = state.heroes[seat]
    card = next(c for c in h.damage if card_name(c) == name)
    h.damage.remove(card)
    h.discard.append(card)
    return [
        Event(
            "heal",
            f"{hero_name(content, state, seat)} heals: {card_def(content, h, name).name} returns to the "
            "discard pile.",
        )
    ]


# ---- hero attacks ----------------------------------------------------------------------------------


def _defence_dice(state: RaidState, content: Content, target: str) -> int:
    if target in state.heroes:
        return hero_stat(content, state.heroes[target], "defence") or 0
    if target == VILLAIN:
        return int(villain_stat(content, state, "defence"))
    return int(minion_stat(content, state.minions[target], "defence"))


def resolve_attack(
    state: RaidState, content: Content, attacker: str, targets: list[str], kind: str, n: int, dice: Dice
) -> tuple[list[Event], list[str]]:
    """Attacks as in Battle Mode: one attack roll, a defence roll for each target; a hit needs one
    [HIT] and no more [BLOCK]s than [HIT]s. Returns the events and the targets hit."""
    faces = roll(dice, content.dice.combat, n)
    hits = faces.count("hit")
    side = "heroes" if attacker in state.heroes else "enemies"
    # The record the picture's dice strip reads, shaped as Battle Mode's (no vampire die here).
    defences: list[JSON] = []
    rec = {
        "attacker": attacker,
        "side": side,
        "kind": kind,
        "attack": faces,
        "vampire": None,
        "defences": defences,
    }
    names = _namer(content, state)
    text = [
        f"{names(attacker)} attacks ({kind}) {', '.join(names(t) for t in targets)}: "
        f"attack dice [{' '.join(faces) or 'no dice'}], {count(hits, 'hit')}."
    ]
    hit_targets = []
    for t in targets:
        d = roll(dice, content.dice.combat, _defence_dice(state, content, t))
        blocks = d.count("block")
        hit = hits >= 1 and hits >= blocks
        defences.append({"target": t, "faces": d, "hit": hit, "vampire": None})
        text.append(
            f"{names(t)} defends [{' '.join(d) or 'no dice'}], {count(blocks, 'block')}: "
            f"{'a hit' if hit else 'a miss'}."
        )
        if hit:
            hit_targets.append(t)
    state.last_attack = rec
    if (
        side == "enemies" and state.phase == "enemy"
    ):  # the trace is the enemy phase's (not opportunity attacks on heroes' moves)
        state.trace.append(
            {
                "kind": "attack",
                "who": attacker,
                "from": _where(state, attacker),
                "to": [_where(state, t) for t in targets],
            }
        )
    return [Event("attack", " ".join(text), data={"attack": state.last_attack}, random=True)], hit_targets


def _where(state: RaidState, who: str) -> int:
    return state.heroes[who].area if who in state.heroes else enemy_area(state, who)


def _namer(content: Content, state: RaidState) -> Callable[[str], str]:
    return lambda x: hero_name(content, state, x) if x in state.heroes else enemy_name(content, state, x)


def damage_enemy(state: RaidState, content: Content, eid: str, by: str | None) -> list[Event]:
    """A damaged minion returns to the bag; the villain takes a wound and falls at its health."""
    if eid == VILLAIN:
        v = state.villain
        v.wounds += 1
        events = [
            Event(
                "wound",
                f"{content.raid.villain.name} takes a wound ({v.wounds} of {v.health}).",
                headline=True,
            )
        ]
        if v.wounds >= v.health:
            state.result = {
                "winners": sorted(state.heroes),
                "reason": f"the heroes defeated {content.raid.villain.name}",
            }
            state.phase = "over"
            events.append(
                Event("end", f"{content.raid.villain.name} is defeated: the heroes win.", phase_end=True)
            )
        return events
    name = enemy_name(content, state, eid)
    state.minions[eid].area = None
    if by is not None and by in state.heroes:
        state.gains.append(by)  # Gaining Cards: each enemy a hero defeats, one card
    return [Event("defeat", f"{name} is defeated and returns to the bag.", headline=True)]


# ---- hero turns ------------------------------------------------------------------------------------


def may_play(state: RaidState, h: Hero) -> bool:
    """Heroes Act: a hero with two cards in its row acts no more; Heroes React: until it stops."""
    if h.defeated or not h.hand:
        return False
    return len(h.row) < 2 if state.phase == "act" else not h.stopped


def to_act(state: RaidState) -> list[str]:
    if state.phase == "over":
        return []
    if state.pending is not None:
        return list(state.pending["seats"])
    if state.gains:
        return [state.gains[0]]
    if state.active is not None:
        return [state.active.seat]
    return [h.seat for h in living(state) if may_play(state, h)]


def legal(state: RaidState, content: Content, seat: str) -> list[str]:
    if seat not in to_act(state):
        return []
    h = state.heroes[seat]
    if state.pending is not None:
        p = state.pending
        if p["kind"] == "tie":
            return [f"choose {o}" for o in p["options"]]
        if p["kind"] == "lose":
            return [f"lose {o}" for o in p["options"]]
        # boost: before the dice ("roll"), or before the enemy picks its target ("pass")
        return [*(f"boost {n}" for n in sorted({card_name(c) for c in h.hand})), *p["options"]]
    if state.gains:
        return _gain_moves(h)
    if state.active is not None:
        boosts = [f"boost {n}" for n in sorted({card_name(c) for c in h.hand})]
        return [*boosts, *step_options(state, content, state.active), "skip"]
    # Boost "at any time during an action or enemy activation (before dice are rolled)": to a hero
    # who may still play, between a special's steps (below), before each opportunity attack its
    # own move provokes, and before an enemy picks its target and rolls (see _enemy_attack).
    out = [f"boost {n}" for n in sorted({card_name(c) for c in h.hand})]
    for name in sorted({card_name(c) for c in h.hand}):
        out += _card_moves(state, content, h, name)
    if not h.exerted:
        out += [f"exert {a}" for a in content.neighbours(h.area)]
    if state.phase == "react":
        out.append("stop")
    return out


def pending_answer(state: RaidState, seat: str) -> str:
    """A bot hero's answer to a pause: no boost (roll, or pass), and of two matching cards to lose,
    the one it holds most copies of."""
    p = state.pending
    assert p is not None
    if p["kind"] == "lose":
        h = state.heroes[seat]
        held = [card_name(c) for c in h.hand + h.deck + h.discard]
        return f"lose {max(p['options'], key=lambda n: (held.count(n), n))}"
    if p["kind"] == "tie":
        return f"choose {p['default']}"
    return str(p["options"][0])


def _gain_moves(h: Hero) -> list[str]:
    return [*(f"gain {n}" for n, stack in sorted(h.supply.items()) if stack), "gain none"]


def _card_moves(state: RaidState, content: Content, h: Hero, name: str) -> list[str]:
    card = card_def(content, h, name)
    out: list[str] = []
    if card.special is not None:
        probe = HeroActivation(seat=h.seat, card=name)
        # Face up with its modifiers counted: a special offered only if one of its steps can be done.
        h.row.append(RowCard(f"{name}#probe", True))
        try:
            if any(_step_choices(state, content, probe, s.do, s.bonus) for s in card.special.steps):
                out.append(f"{name} special")
        finally:
            h.row.pop()
    # Face down: one basic action, or none.
    out.append(f"{name} down")
    out += [f"{name} move {a}" for a in content.neighbours(h.area)]
    here = enemies_in(state, h.area)
    # An attack of no dice could only miss, so a Melee or Shoot at 0 (or "—") is not offered.
    if (hero_stat(content, h, "melee") or 0) > 0:
        out += [f"{name} melee {e}" for e in here]
    if (hero_stat(content, h, "shoot") or 0) > 0 and not here:
        # Raid Mode Shoot: only with no enemy in the hero's own area.
        out += [f"{name} shoot {e}" for e in _visible_enemies(state, content, h.area)]
    if not here and h.damage:
        out += [f"{name} rest {d}" for d in heal_options(h)]
    if content.raid.scenario.interact and any(o.in_play and o.area == h.area for o in state.objectives):
        out.append(f"{name} interact")
    return out


def _visible_enemies(state: RaidState, content: Content, area: int) -> list[str]:
    return [
        e
        for a in sorted({*_enemy_areas(state)})
        if a != area and content.sees(area, a)
        for e in enemies_in(state, a)
    ]


def _enemy_areas(state: RaidState) -> set[int]:
    out = {m.area for m in state.minions.values() if m.area is not None}
    return out | ({state.villain.area} if _villain_alive(state) else set())


def step_options(state: RaidState, content: Content, act: HeroActivation) -> list[str]:
    h = state.heroes[act.seat]
    special = card_def(content, h, act.card).special
    assert special is not None
    s = special.steps[act.step]
    return _step_choices(state, content, act, s.do, s.bonus)


def _step_choices(state: RaidState, content: Content, act: HeroActivation, do: str, bonus: int) -> list[str]:
    h = state.heroes[act.seat]
    here = enemies_in(state, h.area)
    if do in ("move", "withdraw"):
        return [f"{do} {a}" for a in content.neighbours(h.area)]
    melee, shoot = hero_stat(content, h, "melee"), hero_stat(content, h, "shoot")
    if do == "melee":
        return [f"melee {e}" for e in here] if melee is not None and melee + bonus > 0 else []
    if do == "melee_all":
        return ["melee-all"] if here and melee is not None and melee + bonus > 0 else []
    if do == "shoot":
        # Read with the basic Shoot's rule: a card's Shoot too needs no enemy in the hero's area.
        ok = shoot is not None and shoot + bonus > 0 and not here
        return [f"shoot {e}" for e in _visible_enemies(state, content, h.area)] if ok else []
    return [f"heal {d}" for d in heal_options(h)]  # heal


def apply(state: RaidState, content: Content, seat: str, move: str, dice: Dice) -> list[Event]:
    words = move.split()
    if state.pending is not None:
        return answer(state, content, move, dice)
    h = state.heroes[seat]
    events: list[Event] = []
    if words[0] == "gain":
        state.gains.pop(0)
        if words[1] != "none":
            h.discard.append(h.supply[words[1]].pop())
            events.append(
                Event(
                    "gain",
                    f"{hero_name(content, state, seat)} gains {card_def(content, h, words[1]).name} into the "
                    "discard pile.",
                )
            )
    elif words[0] == "boost":
        events += boost(state, content, seat, words[1])
    elif state.active is not None:
        events += _hero_step(state, content, words, dice)
    elif words[0] == "stop":
        h.stopped = True
        events.append(Event("stop", f"{hero_name(content, state, seat)} stops playing cards this phase."))
    elif words[0] == "exert":
        # Exert: suffer a damage (the top card of the deck) for an extra Move action.
        h.exerted = True
        state.last_actor = seat
        events.append(Event("exert", f"{hero_name(content, state, seat)} exerts."))
        events += hero_damage(state, content, seat, None, dice)
        if state.result is None:
            events += _hero_move(state, content, seat, int(words[1]), dice)
    else:
        events += _play(state, content, seat, words, dice)
    return events + settle(state, content, dice)


def boost(state: RaidState, content: Content, seat: str, name: str) -> list[Event]:
    """Boost: a card from the hand face up into the action row, for its modifiers only."""
    h = state.heroes[seat]
    card = next(c for c in h.hand if card_name(c) == name)
    h.hand.remove(card)
    h.row.append(RowCard(card, True))
    return [
        Event(
            "boost",
            f"{hero_name(content, state, seat)} boosts with {card_def(content, h, name).name} (face up).",
        )
    ]


def _play(state: RaidState, content: Content, seat: str, words: list[str], dice: Dice) -> list[Event]:
    h = state.heroes[seat]
    name, verb = words[0], words[1]
    card = next(c for c in h.hand if card_name(c) == name)
    h.hand.remove(card)
    up = verb == "special"
    h.row.append(RowCard(card, up))
    who = hero_name(content, state, seat)
    cdef = card_def(content, h, name)
    state.last_actor = seat
    if up:
        assert cdef.special is not None
        state.active = HeroActivation(seat=seat, card=name)
        return [Event("play", f"{who} plays {cdef.name} face up: ➤ {cdef.special.name}.")]
    events = [Event("play", f"{who} plays a card face down" + ("." if verb == "down" else f" to {verb}."))]
    if verb == "move":
        events += _hero_move(state, content, seat, int(words[2]), dice)
    elif verb in ("melee", "shoot"):
        stat = hero_stat(content, h, verb) or 0
        more, hit = resolve_attack(state, content, seat, [words[2]], verb, stat, dice)
        events += more
        for t in hit:
            events += damage_enemy(state, content, t, seat)
    elif verb == "rest":
        events += hero_heal(state, content, seat, words[2])
    elif verb == "interact":
        o = next(o for o in state.objectives if o.in_play and o.area == h.area)
        o.removed = True
        events.append(
            Event(
                "interact",
                f"{who} consecrates the {o.colour} objective in {area_name(content, o.area)}: "
                "it leaves play.",
            )
        )
    return events


def _hero_move(state: RaidState, content: Content, seat: str, to: int, dice: Dice) -> list[Event]:
    """Move: each enemy in the area left first makes an opportunity attack (minions in number order,
    then the villain: the rulebook gives no order, and none of them chooses anything).

    The attacks run as an enemy phase does (paused and replayed with the same dice), so the hero may
    boost before each one's dice and choose which card a hit takes. The move is the last thing its
    action does: nothing after it needs replaying."""
    if enemies_in(state, state.heroes[seat].area) and _RUN.get() is None:
        return _automate(state, content, dice, {"move": seat, "to": to})
    return _opportunity_attacks_then_move(state, content, seat, to, dice)


def _opportunity_attacks_then_move(
    state: RaidState, content: Content, seat: str, to: int, dice: Dice
) -> list[Event]:
    h = state.heroes[seat]
    events: list[Event] = []
    for e in enemies_in(state, h.area):
        events += enemy_melee(state, content, e, [seat], dice, opportunity=True)
        if _RUN.get() is not None:  # told in order, before the next attack may pause
            _say(events)
            events = []
        if state.result is not None:
            return events
    h.area = to
    events.append(Event("move", f"{hero_name(content, state, seat)} moves to {area_name(content, to)}."))
    return events


def _hero_step(state: RaidState, content: Content, words: list[str], dice: Dice) -> list[Event]:
    act = state.active
    assert act is not None
    h = state.heroes[act.seat]
    special = card_def(content, h, act.card).special
    assert special is not None
    step = special.steps[act.step]
    verb = words[0]
    events: list[Event] = []
    who = hero_name(content, state, act.seat)
    act.step += 1  # before the step's own effect: a move may pause for its opportunity attacks
    if verb == "move":
        events += _hero_move(state, content, act.seat, int(words[1]), dice)
    elif verb == "withdraw":
        h.area = int(words[1])  # Withdraw is not a Move: no opportunity attacks
        events.append(Event("withdraw", f"{who} withdraws to {area_name(content, h.area)}."))
    elif verb in ("melee", "shoot", "melee-all"):
        kind = "shoot" if verb == "shoot" else "melee"
        targets = enemies_in(state, h.area) if verb == "melee-all" else [words[1]]
        n = (hero_stat(content, h, kind) or 0) + step.bonus
        more, hit = resolve_attack(state, content, act.seat, targets, kind, n, dice)
        events += more
        for t in hit:
            events += damage_enemy(state, content, t, act.seat)
    elif verb == "heal":
        events += hero_heal(state, content, act.seat, words[1])
    return events


def settle(state: RaidState, content: Content, dice: Dice) -> list[Event]:
    """Everything automatic up to the next choice: finished specials, phase ends, enemy phases."""
    events: list[Event] = []
    for _ in range(100):
        if state.result is not None:
            state.phase = "over"
            state.active = None
            return events
        if state.pending is not None or state.gains:
            return events
        if state.active is not None:
            special = card_def(content, state.heroes[state.active.seat], state.active.card).special
            assert special is not None
            act = state.active
            if act.step >= len(special.steps):
                state.active = None
                continue
            if not step_options(state, content, act):
                act.step += 1  # a step that cannot be done now is passed over
                continue
            return events
        if state.phase == "act" and all(len(h.row) >= 2 or not h.hand for h in living(state)):
            events += start_enemy_phase(state, content, dice, "act")
            continue
        if state.phase == "react" and all(h.stopped or not h.hand for h in living(state)):
            events += start_enemy_phase(state, content, dice, "react")
            continue
        return events
    raise RuntimeError("settle did not reach a choice")


# ---- enemy phases ----------------------------------------------------------------------------------


class Pause(Exception):
    """The enemy phase needs the players: `decision` is what they are asked."""

    def __init__(self, decision: JSON) -> None:
        super().__init__(decision["prompt"])
        self.decision = decision


@dataclass
class Run:
    """One (re)run of an enemy phase: the answers given so far, consumed in order."""

    answers: list[str]
    used: int = 0
    events: list[Event] = field(default_factory=list)
    why: list[str] = field(default_factory=list)  # why the effects of the line being tried failed

    def ask(self, decision: JSON) -> str:
        if self.used < len(self.answers):
            self.used += 1
            return self.answers[self.used - 1]
        raise Pause(decision)


# The run under way in this thread or task (a bot may search in a worker thread while another
# session's enemy phase runs): a context variable, so concurrent runs never share it.
_RUN: ContextVar[Run | None] = ContextVar("dire_alliance_raid_run", default=None)


def _run() -> Run:
    run = _RUN.get()
    assert run is not None, "an enemy activation runs inside an enemy phase or run_activation"
    return run


def start_enemy_phase(state: RaidState, content: Content, dice: Dice, which: str) -> list[Event]:
    return _automate(state, content, dice, which)


def _automate(state: RaidState, content: Content, dice: Dice, which: str | JSON) -> list[Event]:
    """Run an enemy phase ("act" or "react") or a hero's move through its opportunity attacks
    ({"move": seat, "to": area}) from a snapshot, pausing where the players must answer."""
    state.dice = dice.state
    snapshot = {k: v for k, v in state.to_json().items() if k != "enemy"}
    state.enemy = {"which": which, "snapshot": snapshot, "answers": [], "emitted": 0}
    events = _run_enemy_phase(state, content)
    dice.state = state.dice
    return events


def answer(state: RaidState, content: Content, move: str, dice: Dice) -> list[Event]:
    """The players answer a paused enemy phase: replay it from its start with one more answer."""
    assert state.enemy is not None
    state.enemy["answers"].append(move)
    events = _run_enemy_phase(state, content)
    dice.state = state.dice
    return events + settle(state, content, dice)


def _run_enemy_phase(state: RaidState, content: Content) -> list[Event]:
    enemy = state.enemy
    assert enemy is not None
    fresh = RaidState.from_json(copy.deepcopy(enemy["snapshot"]))  # the run must not touch it
    for k in fresh.__dataclass_fields__:
        if k != "enemy":
            setattr(state, k, getattr(fresh, k))
    dice = Dice(state.dice)
    run = Run(list(enemy["answers"]))
    token = _RUN.set(run)
    try:
        which = enemy["which"]
        if isinstance(which, dict):
            run.events += _opportunity_attacks_then_move(state, content, which["move"], which["to"], dice)
        else:
            _enemy_phase(state, content, dice, which, run)
        state.pending = None
        state.enemy = None
    except Pause as p:
        state.pending = p.decision
    finally:
        _RUN.reset(token)
    state.dice = dice.state
    new = run.events[enemy["emitted"] :]
    enemy["emitted"] = len(run.events)
    return new


def _ask(state: RaidState, kind: str, seats: list[str], options: list[str], prompt: str) -> str:
    """Pause for the players (tie: choose <option>; lose: lose <card>; boost: boost <card> or an
    option): the answer as its move, once they give it."""
    run = _run()
    return run.ask(
        {"kind": kind, "seats": seats, "options": options, "default": options[0], "prompt": prompt}
    )


def _say(events: list[Event]) -> None:
    _run().events.extend(events)


def _no(why: str) -> bool:
    """An effect the enemy cannot perform, and why (for the explanation of the line it skipped)."""
    _run().why.append(why)
    return False


def _tie(
    state: RaidState, content: Content, options: list[str], what: str, hardest: Callable[[str], float]
) -> str:
    """Ties: the players decide together; `enemy=hardest` picks the option worst for the heroes."""
    if len(options) == 1:
        return options[0]
    if state.options.get("enemy") == "hardest":
        return max(options, key=lambda o: (hardest(o), -options.index(o)))
    seats = [h.seat for h in living(state)]
    words = _ask(state, "tie", seats, options, f"Tie: {what}. Choose one of: {', '.join(options)}.")
    return words.split(maxsplit=1)[1]


def _enemy_phase(state: RaidState, content: Content, dice: Dice, which: str, run: Run) -> None:
    name = "Enemies Act" if which == "act" else "Enemies React"
    state.phase = "enemy"
    state.trace = []
    v = state.villain
    if not v.deck:
        state.result = {"winners": [], "reason": "a villain card had to be drawn from an empty villain deck"}
        _say(
            [
                Event(
                    "end",
                    f"{name}: the villain deck is empty when a card must be drawn: the heroes lose.",
                    phase_end=True,
                )
            ]
        )
        return
    card = _villain_card(content, v.deck.pop(0))
    v.row.append(card.name)
    mods = ", ".join(f"{s} {getattr(card, s):+d}" for s in STATS if getattr(card, s))
    _say(
        [
            Event(
                "villain-card",
                f"{name}: the villain draws {card.name} ({card.colour} minions act; modifiers: "
                f"{mods or 'none'}; actions: {' / '.join(card.actions)}).",
                random=True,
            )
        ]
    )
    # Activation order: the hero who acted last, then clockwise.
    seats = [s for s in HERO_SEATS if s in state.heroes]
    start = seats.index(state.last_actor) if state.last_actor in seats else 0
    order = seats[start:] + seats[:start]
    activated: set[str] = set()
    # A minion spawned here may be activated by a later hero in the order ("a spawned minion may
    # act in the same phase"); the hero who spawned it has used its turn in the order.
    for seat in order:
        h = state.heroes[seat]
        if h.defeated:
            continue
        hname = hero_name(content, state, seat)
        ready = [
            m
            for m in state.minions.values()
            if m.colour == card.colour and m.area is not None and m.id not in activated
        ]
        if not ready:
            _say(
                [Event("spawn-why", f"{hname} has no {card.colour} minion left to activate, so spawns one.")]
            )
            _spawn(state, content, dice, run.events)
            continue
        near = min(content.steps[(m.area, h.area)] for m in ready if m.area is not None)
        closest = [m.id for m in ready if m.area is not None and content.steps[(m.area, h.area)] == near]
        pick = _tie(
            state, content, closest, f"which {card.colour} minion nearest {hname} activates", lambda o: 0.0
        )
        activated.add(pick)
        why = f"the nearest {card.colour} minion to {hname} ({count(near, 'area')} away)"
        _say([Event("activate", f"{hname} activates {enemy_name(content, state, pick)}: {why}.")])
        _activate(state, content, pick, list(content.rank(state.minions[pick].rank).actions), dice)
        if state.result is not None:
            return
    if _villain_alive(state):
        _say([Event("activate", f"{content.raid.villain.name} activates with {card.name}.")])
        _activate(state, content, VILLAIN, list(card.actions), dice)
        if state.result is not None:
            return
    # The board as the phase left it (its arrows, the villain row) gets its own picture.
    _say([_phase_end(state, f"{name} is over.")])
    if which == "act":
        state.phase = "react"
        for h in state.heroes.values():
            h.exerted = False
            h.stopped = False
        _say([_phase_end(state, "Heroes React: play your remaining cards, or stop.")])
        return
    # End of the round: hands, action rows and the villain action row are discarded.
    for h in state.heroes.values():
        h.discard += h.hand + [r.card for r in h.row]
        h.hand, h.row = [], []
        h.exerted = h.stopped = False
    v.discard += v.row
    v.row = []
    state.round += 1
    state.phase = "act"
    out = []
    for s in seats:
        if not state.heroes[s].defeated:
            out += draw(state, s, HAND, dice)
    _say([*out, _phase_end(state, f"Round {state.round}: Heroes Act. Each hero drew 4. {BOOST_AND_GAIN}")])


# When a hero may boost or gain a card, said at the start of each round's Heroes Act.
BOOST_AND_GAIN = (
    "A hero may boost with a card from hand (face up) at any time during an action or an enemy's "
    "activation, before dice are rolled; a hero who defeats an enemy gains a card from the supply."
)


def _phase_end(state: RaidState, text: str) -> Event:
    """A phase ends inside the automated run: the event carries the public view of that moment."""
    from games.dire_alliance import raid_views  # the views read this module

    turn = raid_views.to_act(state) if state.phase != "enemy" else ToAct(frozenset())
    return Event("phase", text, phase_end=True, data={"view": raid_views.view(state, None, turn)})


def _spawn(state: RaidState, content: Content, dice: Dice, sink: list[Event]) -> bool:
    """Spawning: a random minion from the bag into the area of its colour's objective, or the
    villain's area when that objective is out of play."""
    bag = state.bag()
    if not bag:
        sink.append(Event("spawn", "The minion bag is empty: nothing spawns."))
        return False
    m = state.minions[bag[dice.below(len(bag))]]
    obj = next((o for o in state.objectives if o.colour == m.colour and o.in_play), None)
    m.area = obj.area if obj else state.villain.area
    where = "its objective" if obj else "the villain's area (its objective is out of play)"
    sink.append(
        Event(
            "spawn",
            f"{enemy_name(content, state, m.id)} spawns from the bag in "
            f"{area_name(content, m.area)}, {where}.",
            random=True,
        )
    )
    state.trace.append({"kind": "spawn", "who": m.id, "from": m.area, "to": [m.area]})
    return True


def run_activation(
    state: RaidState,
    content: Content,
    eid: str,
    actions: list[str],
    dice: Dice,
    answers: tuple[str, ...] = (),
) -> list[Event]:
    """One enemy's activation on its own (rules tests, the bench): its events, in order; raises Pause
    when it needs the players beyond `answers`."""
    run = Run(list(answers))
    token = _RUN.set(run)
    try:
        _activate(state, content, eid, actions, dice)
    finally:
        _RUN.reset(token)
    return run.events


def _activate(state: RaidState, content: Content, eid: str, actions: list[str], dice: Dice) -> None:
    """An enemy tries its action lines top to bottom and stops at the first that succeeds."""
    who = enemy_name(content, state, eid)
    failed: list[str] = []
    for text in actions:
        line = content.lines.get(text) or parse_line(text)
        _run().why = []
        if _line(state, content, eid, line, dice):
            skipped = f"; earlier lines failed: {'; '.join(failed)}" if failed else ""
            _say([Event("line", f"{who} did `{text}`{skipped}.")])
            return
        failed.append(f"`{text}` ({', '.join(dict.fromkeys(_run().why)) or 'it could not'})")
        if state.result is not None:
            return
    _say([Event("line", f"{who} could do none of its actions ({', '.join(failed)}).")])


def _line(state: RaidState, content: Content, eid: str, line: EnemyLine, dice: Dice) -> bool:
    """The grammar as written: "and" does each it can in order; "or" the first it can; "then" needs
    the first before the rest, and then does as much of the rest as it can."""
    effects = list(line.effects)
    if line.joiner is None:
        return _effect(state, content, eid, effects[0], dice)
    if line.joiner == "or":
        return any(_effect(state, content, eid, e, dice) for e in effects)
    if line.joiner == "then":
        if not _effect(state, content, eid, effects[0], dice):
            return False
        for e in effects[1:]:
            if state.result is None and _alive(state, eid):
                _effect(state, content, eid, e, dice)
        return True
    done = False
    for e in effects:
        if state.result is None and _alive(state, eid):
            done = _effect(state, content, eid, e, dice) or done
    return done


def _alive(state: RaidState, eid: str) -> bool:
    return _villain_alive(state) if eid == VILLAIN else state.minions[eid].area is not None


def _stat(state: RaidState, content: Content, eid: str, stat: str) -> int | str:
    if eid == VILLAIN:
        return villain_stat(content, state, stat)
    return minion_stat(content, state.minions[eid], stat)


def _rank(state: RaidState, content: Content, eid: str) -> int:
    return content.raid.villain.rank if eid == VILLAIN else state.minions[eid].rank


def _effect(state: RaidState, content: Content, eid: str, effect: str, dice: Dice) -> bool:
    area = enemy_area(state, eid)
    who = enemy_name(content, state, eid)
    heroes_here = [h.seat for h in living(state) if h.area == area]
    if effect == "melee":
        if _stat(state, content, eid, "melee") == 0:
            return _no("its Melee is 0, so it never attempts one")
        if not heroes_here:
            return _no("no hero in its area to Melee")
        _say(enemy_melee(state, content, eid, heroes_here, dice, opportunity=False))
        return True
    if effect == "shoot":
        stat = _stat(state, content, eid, "shoot")
        seen = [h.seat for h in living(state) if h.area != area and content.sees(area, h.area)]
        if stat == 0:
            return _no("its Shoot is 0, so it never attempts one")
        if not seen:
            return _no("it sees no hero in another area")
        _boost_before_targeting(state, content, eid, seen)
        target, why = _target(state, content, eid, seen, "shoot")
        _say(
            _enemy_attack(
                state,
                content,
                eid,
                [target],
                "shoot",
                dice,
                f"{who} shoots {hero_name(content, state, target)}: {why}",
            )
        )
        return True
    if effect == "move":
        return _enemy_move(state, content, eid, dice, withdraw=False)
    if effect == "withdraw":
        return _enemy_move(state, content, eid, dice, withdraw=True)
    if effect == "control":
        # Raid-mode Control: one of its objectives in its area, never with a hero there.
        obj = next((o for o in state.objectives if o.in_play and o.area == area), None)
        if obj is None:
            return _no("no objective in its area to Control")
        if heroes_here:
            return _no("a hero stands in its area, so it does not Control")
        _say(_claim(state, content, eid, obj, "Control"))
        return True
    if effect == "heal":
        if eid == VILLAIN:
            if state.villain.wounds == 0:
                return _no("it has no wound to heal")
            state.villain.wounds -= 1
            _say([Event("heal", f"{who} heals: a wound is discarded ({state.villain.wounds} left).")])
            return True
        # A healed minion: one more minion of that rank from the bag in its area instead.
        rank = state.minions[eid].rank
        spare = [i for i in state.bag() if state.minions[i].rank == rank]
        if not spare:
            return _no(f"no rank {rank} minion left in the bag to heal with")
        m = state.minions[spare[dice.below(len(spare))]]
        m.area = area
        _say(
            [
                Event(
                    "heal",
                    f"{who} heals: {enemy_name(content, state, m.id)} joins it in "
                    f"{area_name(content, area)}.",
                    random=True,
                )
            ]
        )
        return True
    # spawn
    sink: list[Event] = []
    ok = _spawn(state, content, dice, sink)
    _say(sink)
    return ok


def _claim(state: RaidState, content: Content, eid: str, obj: RaidObjective, how: str) -> list[Event]:
    obj.claimed = True
    n = sum(o.claimed for o in state.objectives)
    events = [
        Event(
            "claim",
            f"{enemy_name(content, state, eid)} claims the {obj.colour} objective in "
            f"{area_name(content, obj.area)} ({how}; {n} claimed).",
            phase_end=True,
        )
    ]
    goal = content.raid.scenario.claim_to_lose
    if n >= goal:
        state.result = {"winners": [], "reason": f"the enemies claimed {n} objectives"}
        events.append(
            Event("end", f"The enemies have claimed {n} objectives: the heroes lose.", phase_end=True)
        )
    return events


def _target(state: RaidState, content: Content, eid: str, seats: list[str], kind: str) -> tuple[str, str]:
    """Enemy Attack Priority: the hero with the most face-up action-row cards showing the damage
    icon of the attacker's rank (face-down cards show no icons); the rest of a tie is the players'."""
    rank = _rank(state, content, eid)

    shown = state.options.get("row_icons") == "all"  # option: face-down cards' icons count too

    def icons(seat: str) -> int:
        h = state.heroes[seat]
        return sum(
            1 for r in h.row if (r.up or shown) and rank in card_def(content, h, card_name(r.card)).damage
        )

    best = max(icons(s) for s in seats)
    tied = [s for s in seats if icons(s) == best]

    def harm(seat: str) -> float:  # hardest: the hero with the fewest cards able to take this damage
        h = state.heroes[seat]
        return -sum(
            1 for c in h.hand + h.deck + h.discard if rank in card_def(content, h, card_name(c)).damage
        )

    pick = _tie(state, content, tied, f"whom {enemy_name(content, state, eid)} attacks ({kind})", harm)
    if len(seats) == 1:
        return pick, "the only hero it can attack"
    if len(tied) == 1:
        return (
            pick,
            f"the most {'' if shown else 'face-up '}action-row cards with damage icon [{rank}] ({best})",
        )
    if state.options.get("enemy") == "hardest":
        return pick, f"tied on [{rank}] icons; hardest: the fewest cards left to take [{rank}] damage"
    return pick, f"tied on [{rank}] icons ({best}); the players chose"


def enemy_melee(
    state: RaidState, content: Content, eid: str, heroes: list[str], dice: Dice, opportunity: bool
) -> list[Event]:
    """A Melee by an enemy (or its opportunity attack). A ★ Melee is the villain's ability."""
    who = enemy_name(content, state, eid)
    stat = _stat(state, content, eid, "melee")
    how = "makes an opportunity attack on" if opportunity else "attacks"
    if stat == 0:
        return []
    if stat == "★":
        star = content.raid.villain.star
        assert star is not None
        here = [h.seat for h in living(state) if h.area == enemy_area(state, eid)]
        return _enemy_attack(
            state, content, eid, here, "melee", dice, f"{who} uses ★ {star.name} on everyone in its area"
        )
    if not opportunity:
        _boost_before_targeting(state, content, eid, heroes)
    target, why = (
        (heroes[0], "it is leaving") if opportunity else _target(state, content, eid, heroes, "melee")
    )
    return _enemy_attack(
        state,
        content,
        eid,
        [target],
        "melee",
        dice,
        f"{who} {how} {hero_name(content, state, target)}: {why}",
    )


def _boost_before_targeting(state: RaidState, content: Content, eid: str, seats: list[str]) -> None:
    """Boost before an enemy picks whom it attacks: face-up cards change Enemy Attack Priority, so
    each hero it may choose among is asked first (only when it has a choice to make)."""
    if len(seats) < 2 or _RUN.get() is None or state.options.get("boost_window", "ask") != "ask":
        return
    rank = _rank(state, content, eid)
    for seat in seats:
        h = state.heroes[seat]
        while h.hand:
            got = _ask(
                state,
                "boost",
                [seat],
                ["pass"],
                f"{enemy_name(content, state, eid)} is about to choose whom to attack among "
                f"{', '.join(hero_name(content, state, s) for s in seats)} (the most face-up [{rank}] "
                f"icons): {hero_name(content, state, seat)} may boost first, or pass.",
            )
            if got == "pass":
                break
            _say(boost(state, content, seat, got.split()[1]))


def _enemy_dice(state: RaidState, content: Content, eid: str, kind: str) -> int:
    stat = _stat(state, content, eid, kind)
    if stat == "★":
        star = content.raid.villain.star
        assert star is not None
        mods: int = sum(getattr(_villain_card(content, n), kind) for n in state.villain.row)
        return max(0, star.dice + mods)
    return int(stat)


def _enemy_attack(
    state: RaidState, content: Content, eid: str, targets: list[str], kind: str, dice: Dice, why: str
) -> list[Event]:
    events = [Event("why", why + ".")]
    if _RUN.get() is not None and state.options.get("boost_window", "ask") == "ask":
        # Boost: before the dice are rolled, each hero attacked may play cards face up.
        for seat in targets:
            h = state.heroes[seat]
            while h.hand:
                _run().events.extend(events)
                events = []
                got = _ask(
                    state,
                    "boost",
                    [seat],
                    ["roll"],
                    f"{hero_name(content, state, seat)} is attacked by {enemy_name(content, state, eid)}: "
                    "boost first, or roll.",
                )
                if got == "roll":
                    break
                events += boost(state, content, seat, got.split()[1])
    more, hit = resolve_attack(
        state, content, eid, targets, kind, _enemy_dice(state, content, eid, kind), dice
    )
    events += more
    rank = _rank(state, content, eid)
    area = enemy_area(state, eid)
    if _RUN.get() is not None:  # the roll is told before a hit hero is asked which card it loses
        _say(events)
        events = []
    for seat in hit:
        events += hero_damage(state, content, seat, rank, dice)
        if state.result is not None:
            return events
    if eid == VILLAIN and any(state.heroes[s].area == area for s in hit):
        # The villain claims an objective in its area after damaging a hero there.
        obj = next((o for o in state.objectives if o.in_play and o.area == area), None)
        if obj is not None:
            events += _claim(state, content, eid, obj, "after damaging a hero here")
    return events


def _enemy_move(state: RaidState, content: Content, eid: str, dice: Dice, withdraw: bool) -> bool:
    """Enemy Movement Priority (and Enemy Withdraw): one area toward the goal the rules name."""
    here = enemy_area(state, eid)
    who = enemy_name(content, state, eid)
    heroes = living(state)
    dist = content.steps
    hero_areas = {h.area for h in heroes}

    def damaged(area: int) -> int:
        return max(len(h.damage) for h in heroes if h.area == area)

    goal_why = ""
    if withdraw and eid != VILLAIN:
        goals = [state.villain.area] if _villain_alive(state) else []
        goal_why = "the villain"
    elif eid == VILLAIN and withdraw and not any(o.in_play for o in state.objectives):
        return _no("no objective left to withdraw toward")
    elif eid == VILLAIN and any(o.in_play for o in state.objectives):
        goals = sorted({o.area for o in state.objectives if o.in_play})
        goal_why = "the nearest objective"
    else:
        goals = sorted(hero_areas)
        goal_why = "the nearest hero"
    if not goals:
        return _no(f"nowhere to go: {goal_why} is gone")
    near = min(dist[(here, g)] for g in goals)
    if near == 0:
        return _no(f"it is already at {goal_why}, and never moves toward a position it holds")
    tied = [g for g in goals if dist[(here, g)] == near]
    if goal_why == "the nearest hero" and len(tied) > 1:
        # Among equally near heroes, the most damaged.
        most = max(damaged(g) for g in tied)
        tied = [g for g in tied if damaged(g) == most]
    steps = sorted({n for g in tied for n in content.neighbours(here) if dist[(n, g)] == near - 1})

    def sees_heroes(a: int) -> int:
        return sum(1 for h in heroes if content.sees(a, h.area))

    def nearer_hero(a: int) -> int:
        return -min((dist[(a, h.area)] for h in heroes), default=0)

    if withdraw and eid != VILLAIN:
        clear = [n for n in steps if n not in hero_areas]
        steps = clear or steps  # withdrawing minions avoid heroes' areas if they can
        reason = "withdrawing toward the villain" + (", avoiding heroes" if clear else "")
    elif eid == VILLAIN and goal_why == "the nearest objective":
        if len(tied) > 1:
            # Equally near objectives: the one that brings it nearer a hero.
            best = max(nearer_hero(n) for n in steps)
            steps = [n for n in steps if nearer_hero(n) == best]
        if not withdraw:
            best_seen = max(min(sees_heroes(n), 1) for n in steps)
            steps = [n for n in steps if min(sees_heroes(n), 1) == best_seen]
        reason = f"toward {goal_why}"
    else:
        best_seen = max(sees_heroes(n) for n in steps)
        steps = [n for n in steps if sees_heroes(n) == best_seen]
        reason = f"toward {goal_why}, where it sees the most heroes ({best_seen})"
    to = int(
        _tie(
            state,
            content,
            [str(n) for n in steps],
            f"where {who} moves",
            lambda o: -dist.get((int(o), min(hero_areas, default=int(o))), 0),
        )
    )
    events: list[Event] = []
    if not withdraw:
        # Opportunity attacks (Battle Mode's rule, kept in Raid Mode): each hero in the area it leaves
        # makes one. A free Melee costs a hero nothing, so it is always taken rather than asked.
        for h in living(state):
            if h.area == here and (hero_stat(content, h, "melee") or 0) > 0:
                more, hit = resolve_attack(
                    state, content, h.seat, [eid], "melee", hero_stat(content, h, "melee") or 0, dice
                )
                oa = f"{hero_name(content, state, h.seat)} makes an opportunity attack as {who} leaves."
                events += [Event("why", oa), *more]
                if hit:
                    # A minion defeated here owes its hero a card, chosen once the phase yields.
                    events += damage_enemy(state, content, eid, h.seat)
                if state.result is not None or not _alive(state, eid):
                    _say(events)
                    return True  # defeated as it left: its move is spent
    if eid == VILLAIN:
        state.villain.area = to
    else:
        state.minions[eid].area = to
    verb = "withdraws" if withdraw else "moves"
    events.append(
        Event("move", f"{who} {verb} from {area_name(content, here)} to {area_name(content, to)}, {reason}.")
    )
    state.trace.append({"kind": "move", "who": eid, "from": here, "to": [to]})
    _say(events)
    return True
