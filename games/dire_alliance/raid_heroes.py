"""The heroes' moves: what a hero may do (cards face up or down, boost, exert, stop, gains, the
steps of a special, the answers to a pause) and doing it.
"""

from __future__ import annotations

from engine import rules_of
from engine.dice import Dice
from engine.game import Event
from games.dire_alliance import raid_boosts, raid_villain
from games.dire_alliance.content import Content
from games.dire_alliance.notation import raid_words
from games.dire_alliance.raid_cards import heal_options, hero_heal
from games.dire_alliance.raid_combat import damage_enemy, resolve_attack
from games.dire_alliance.raid_core import card_def, enemies_in, hero_name, hero_stat, to_act, villain_alive
from games.dire_alliance.raid_enemy_attacks import hero_attack, opportunity_attacks_then_move
from games.dire_alliance.raid_pause import RUN
from games.dire_alliance.raid_phases import automate, paused_on
from games.dire_alliance.rules import area_name
from games.dire_alliance.state import Hero, HeroActivation, RaidState, RowCard, card_name

# ---- legal moves ---------------------------------------------------------------------------------


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
    # reading: boost-window
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


def pending_answer(state: RaidState, content: Content, seat: str) -> str:
    """A bot hero's answer to a pause: a strong player's boost or roll (or pass), raid_boosts.py;
    of two matching cards to lose, the one whose loss keeps the icons it is shortest of
    (raid_boosts.card_to_lose); a tie's default."""
    p = state.pending
    assert p is not None
    if p["kind"] == "lose":
        return f"lose {raid_boosts.card_to_lose(state, content, seat, list(p['options']))}"
    if p["kind"] == "tie":
        return f"choose {p['default']}"
    return raid_boosts.answer(state, content, seat, str(p["options"][0]), paused_on(state, content)).move


# The face-down basic actions a card in hand pays for: whichever card pays, the action is the same.
_BASIC = frozenset({"down", "move", "melee", "shoot", "rest", "interact"})


def thrifty(state: RaidState, content: Content, seat: str, action: str) -> str:
    """A bot hero's move with the card that pays for it swapped for the one its hand needs least
    (raid_boosts.card_to_spend), when the move is a face-down basic action another card in hand
    makes the same: the search weighs what the action does, not which card it spends (the fourth
    play-test's Suggest moved with Parry and then had no card to boost with)."""
    words = action.split(maxsplit=1)
    h = state.heroes.get(seat)
    if h is None or len(words) < 2 or words[1].split()[0] not in _BASIC:
        return action
    held = {card_name(c) for c in h.hand}
    if words[0] not in held:
        return action
    legal_now = set(legal(state, content, seat))
    same = sorted(n for n in held if f"{n} {words[1]}" in legal_now)
    return f"{raid_boosts.card_to_spend(state, content, seat, same)} {words[1]}" if same else action


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
    # reading: zero-dice-not-offered
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
    return out | ({state.villain.area} if villain_alive(state) else set())


# What a special's step asks, said in the channel (Game.to_act): a card played face up for its
# special goes on with a choice of its hero's (the seventh play-test's group waited on it, told
# nothing).
_STEP_WORDS = {
    "move": "move to an area next to it",
    "withdraw": "withdraw to an area next to it",
    "melee": "Melee an enemy in its area",
    "melee_all": "Melee every enemy in its area",
    "shoot": "Shoot an enemy it can see",
    "heal": "heal a card from its damage pile (the move menu lists them)",
}


def special_step_prompt(state: RaidState, content: Content) -> str:
    """The step of the special under way: whose special, what the step does and its choices (a
    heal's are on its hero's menu only), or `skip`; "" once its steps are done. Not numbered:
    "Step 1" is a rule number's form, kept from players; "Charge, step" reads to the glossary as
    the card; "its second step" as a term of its own, which it has not."""
    act = state.active
    assert act is not None
    special = card_def(content, state.heroes[act.seat], act.card).special
    if special is None or act.step >= len(special.steps):
        return ""  # done, and not yet cleared by settle (a view drawn mid-move)
    step = special.steps[act.step]
    what = _STEP_WORDS.get(step.do, step.do.replace("_", " "))
    options = [] if step.do == "heal" else step_options(state, content, act)
    named = ", ".join(f"`{raid_words(content, state, o)}`" for o in options)
    return (
        f"{hero_name(content, state, act.seat)}'s {special.name} goes on: {what}"
        + (f": {named}" if named else "")
        + "; or `skip` it."
    )


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
        # reading: card-shoot-keeps-rule
        # Read with the basic Shoot's rule: a card's Shoot too needs no enemy in the hero's area.
        ok = shoot is not None and shoot + bonus > 0 and not here
        return [f"shoot {e}" for e in _visible_enemies(state, content, h.area)] if ok else []
    return [f"heal {d}" for d in heal_options(h)]  # heal


# ---- doing them ----------------------------------------------------------------------------------


def play(state: RaidState, content: Content, seat: str, words: list[str], dice: Dice) -> list[Event]:
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
    # The move's public line says the face-down play and what it buys (raid_views.public_text).
    events: list[Event] = []
    if verb == "move":
        events += hero_move(state, content, seat, int(words[2]), dice)
    elif verb in ("melee", "shoot") and boosts_mid_attack(state, h):
        # Boost "at any time during an action (before dice are rolled)": the attack pauses before
        # its dice, as an enemy's does (replayed with the same dice).
        events += automate(state, content, dice, {"attack": seat, "kind": verb, "target": words[2]})
    elif verb in ("melee", "shoot"):
        events += hero_attack(state, content, seat, verb, words[2], dice)
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


# reading: own-attack-boost
def boosts_mid_attack(state: RaidState, h: Hero) -> bool:
    """Does a hero's face-down Melee or Shoot (already in the row) ask for a boost before its
    dice? In Heroes Act, when it is the hero's second card and a card is left to boost with: a
    boost played before it would have been the second card and ended the hero's actions (with
    fewer cards in the row, boosting first does the same as boosting now). From rules version 2
    (version 1 rolled at once; its games replay so); asked whatever `boost_window` says, since
    the attack is the hero's own turn."""
    if rules_of(state.options) < 2 or RUN.get() is not None:
        return False
    return state.phase == "act" and len(h.row) >= 2 and bool(h.hand)


# reading: hero-move-attack-order
def hero_move(state: RaidState, content: Content, seat: str, to: int, dice: Dice) -> list[Event]:
    """Move: each enemy in the area left first makes an opportunity attack (minions in number order,
    then the villain: the rulebook gives no order, and none of them chooses anything).

    The attacks run as an enemy phase does (paused and replayed with the same dice), so the hero may
    boost before each one's dice and choose which card a hit takes. The move is the last thing its
    action does: nothing after it needs replaying."""
    if enemies_in(state, state.heroes[seat].area) and RUN.get() is None:
        return automate(state, content, dice, {"move": seat, "to": to})
    return opportunity_attacks_then_move(state, content, seat, to, dice)


def hero_step(state: RaidState, content: Content, words: list[str], dice: Dice) -> list[Event]:
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
        events += hero_move(state, content, act.seat, int(words[1]), dice)
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
        events += raid_villain.provoke(state, content, act.seat, targets)
    elif verb == "heal":
        events += hero_heal(state, content, act.seat, words[1])
    return events
