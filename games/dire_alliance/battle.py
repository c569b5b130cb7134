"""Battle Mode: the game round (aggressor and defender turns), claiming initiative, activations with
their basic and special actions, opportunity attacks, and the scenario's goal.

Every move is a canonical string (see notation.py); `legal` lists them and `apply` plays one.
"""

from __future__ import annotations

from itertools import combinations

from engine import rules_of
from engine.dice import Dice
from engine.game import Event
from engine.words import count
from games.dire_alliance import rules
from games.dire_alliance.content import Content, Special, Step
from games.dire_alliance.rules import area_name, living, title
from games.dire_alliance.state import STEPS, Activation, DAState, Fighter, PendingMove, card_name, other

DREAD = "dread"


def turn_seat(state: DAState) -> str:
    """Aggressor steps belong to the initiative holder, defender steps to the other player."""
    return state.initiative if state.step.startswith("A") else other(state.initiative)


def is_defender(state: DAState, colour: str) -> bool:
    return colour != state.initiative


# ---- the round -----------------------------------------------------------------------------------


def start_turn(state: DAState, content: Content, dice: Dice) -> list[Event]:
    """A turn: play 2 cards (turn 1) or all the rest (turn 2), then activate their fighters."""
    state.turn = turn_seat(state)
    state.claimed_initiative = False
    p = state.players[state.turn]
    role = "Aggressor" if state.step.startswith("A") else "Defender"
    events = [Event("turn", f"Round {state.round}, {role} Turn {state.step[1]}: {state.turn}.")]
    if state.step.endswith("1") and len(p.hand) > 2:
        state.phase = "play"
        return events
    # reading: short-first-turn
    # Turn 2 plays every remaining card; turn 1 with 2 cards or fewer plays what there is.
    p.played, p.hand = p.hand, []
    state.phase = "activate"
    if p.played:
        events.append(Event("play", f"{state.turn} plays {card_names(content, p.played)}."))
    return events


def end_turn(state: DAState, content: Content, dice: Dice) -> list[Event]:
    events: list[Event] = []
    i = STEPS.index(state.step)
    if i + 1 < len(STEPS):
        state.step = STEPS[i + 1]
        return events + start_turn(state, content, dice)
    # The round ends: each player draws a new hand of four, the aggressor first.
    for colour in (state.initiative, other(state.initiative)):
        events += rules.refill(state, colour, dice)
    scenario = content.scenarios[state.scenario]
    if state.round >= scenario.round_limit:
        return events + _round_limit(state)
    state.round += 1
    state.step = "A1"
    text = f"Round {state.round} of {scenario.round_limit} begins; {state.initiative} has initiative."
    events.append(Event("round", text, phase_end=True))
    return events + start_turn(state, content, dice)


def _round_limit(state: DAState) -> list[Event]:
    # Stand-in scenario sheet: after the last round the player with more claimed objectives wins.
    red, blue = rules.claimed(state, "red"), rules.claimed(state, "blue")
    winners = ["red"] if red > blue else ["blue"] if blue > red else []
    reason = f"the last round ended with objectives claimed red {red}, blue {blue}"
    state.result = {"winners": winners, "reason": reason}
    state.phase = "over"
    return [Event("end", f"The game ends: {reason}; " + (f"{winners[0]} wins." if winners else "a draw."))]


def settle(state: DAState, content: Content, dice: Dice) -> list[Event]:
    """Run everything automatic up to the next choice: skipped steps, finished activations and turns."""
    events: list[Event] = []
    for _ in range(1000):
        if state.result is not None:
            state.phase = "over"
            return events
        if state.phase == "special":
            assert state.active is not None
            act = state.active
            steps = _special(content, act).steps
            if act.step >= len(steps):
                events += _finish(state)
                continue
            if not _step_options(state, content, act, steps[act.step]):
                act.step += 1  # a step that cannot be done now (or only while sated) is passed over
                continue
            return events
        if state.phase == "activate" and not state.players[state.turn].played:
            events += end_turn(state, content, dice)
            continue
        return events
    raise RuntimeError("settle did not reach a choice")


# ---- legal moves ---------------------------------------------------------------------------------


def legal(state: DAState, content: Content, colour: str) -> list[str]:
    if state.phase == "over":
        return []
    if state.phase == "opportunity":
        assert state.move is not None
        mover = state.fighters[state.move.fighter]
        if colour == mover.owner:
            return []
        return [f"oppose {a}" for a in state.move.attackers] + ["allow"]
    if colour != state.turn:
        return []
    p = state.players[colour]
    if state.phase == "play":
        names = sorted(card_name(c) for c in p.hand)
        return sorted({f"play {a} {b}" for a, b in combinations(names, 2)})
    if state.phase == "special":
        assert state.active is not None
        step = _special(content, state.active).steps[state.active.step]
        return [*_step_options(state, content, state.active, step), "skip"]
    out: list[str] = []
    names = sorted({card_name(c) for c in p.played})
    for name in names:
        out += _card_options(state, content, colour, name)
    if is_defender(state, colour) and not state.claimed_initiative:
        out += [f"claim {name}" for name in names]
    return out


def _card_options(state: DAState, content: Content, colour: str, name: str) -> list[str]:
    if name == DREAD:
        return [DREAD]  # Dread cards: played for no effect
    f = state.fighters[name]
    if f.defeated:
        return [f"{name} idle"]  # its fighter is gone: the card is played for nothing
    # reading: decline-activation
    # "A player may activate those fighters": an activation may be declined, the card discarded
    # (a fighter guarding an objective need not walk off it). Rules version 1 made every living
    # fighter act, and its games replay so.
    decline = [f"{name} idle"] if rules_of(state.options) >= 2 else []
    if f.stunned and rules.has_keyword(content, name, "resilient"):
        return [f"{name} recover", *decline]  # Resilient: a stunned one spends its activation readying
    out = [f"{name} move {n}" for n in content.neighbours(f.area)]
    enemies = living(state, other(colour))
    out += [f"{name} melee {e.id}" for e in enemies if e.area == f.area and content.fighter(name).melee > 0]
    out += [
        f"{name} shoot {e.id}"
        for e in enemies
        if e.area != f.area and rules.sees(content, f, e.area) and content.fighter(name).shoot > 0
    ]
    out += [
        f"{name} focus {t.id}"
        for t in living(state, colour)
        if rules.focus_amount(content, f, t) and state.players[colour].supply[t.id]
    ]
    if rules.controllable(state, f) is not None:
        out.append(f"{name} control")
    interact = content.scenarios[state.scenario].interact
    if interact and f.area == interact.area and rules.can_heal(state, name):
        out.append(f"{name} interact")
    if DREAD in {card_name(c) for c in state.players[colour].played}:
        out.append(f"{name} return-dread")
    for sp in content.fighter(name).specials:
        probe = Activation(card="", fighter=name, special=sp.id)
        if any(_step_options(state, content, probe, s) for s in sp.steps if _when(f, s)):
            out.append(f"{name} {sp.id}")
    return out + decline


def _when(f: Fighter, step: Step) -> bool:
    return step.when == "always" or f.sated


def _step_options(state: DAState, content: Content, act: Activation, step: Step) -> list[str]:
    """The choices one step of a special action offers now (empty: it cannot be done)."""
    f = state.fighters[act.fighter]
    if f.defeated or not _when(f, step):
        return []
    enemies = living(state, other(f.owner))
    stats = content.fighter(f.id)
    if step.do in ("move", "withdraw"):
        return [f"{step.do} {n}" for n in content.neighbours(f.area)]
    if step.do == "melee":
        return [f"melee {e.id}" for e in enemies if e.area == f.area and stats.melee + step.bonus > 0]
    if step.do == "melee_all":
        return ["melee-all"] if any(e.area == f.area for e in enemies) else []
    if step.do == "shoot":
        return [
            f"shoot {e.id}"
            for e in enemies
            if e.area != f.area and rules.sees(content, f, e.area) and stats.shoot + step.bonus > 0
        ]
    if step.do == "heal":
        return [
            f"heal {t.id}" for t in living(state, f.owner) if t.area == f.area and rules.can_heal(state, t.id)
        ]
    if step.do == "push":
        return [
            f"push {e.id} {n}"
            for e in enemies
            if rules.sees(content, f, e.area)
            for n in content.neighbours(e.area)
        ]
    # offering: a card of this fighter from the discard pile buys a Vampire ally's sated token
    if not any(card_name(c) == f.id for c in state.players[f.owner].discard):
        return []
    return [
        f"offering {t.id}"
        for t in living(state, f.owner)
        if t.area == f.area and t.id != f.id and rules.has_keyword(content, t.id, "vampire") and not t.sated
    ]


def _special(content: Content, act: Activation) -> Special:
    return next(s for s in content.fighter(act.fighter).specials if s.id == act.special)


# ---- applying a move -----------------------------------------------------------------------------


def apply(state: DAState, content: Content, colour: str, move: str, dice: Dice) -> list[Event]:
    words = move.split()
    if state.phase == "opportunity":
        events = _opportunity(state, content, words, dice)
    elif state.phase == "play":
        events = _play(state, content, colour, words[1:])
    elif state.phase == "special":
        events = _step(state, content, words, dice)
    elif words[0] == "claim":
        events = _claim(state, content, colour, words[1])
    else:
        events = _activate(state, content, colour, words, dice)
    return events + settle(state, content, dice)


def _take_played(state: DAState, colour: str, name: str) -> str:
    p = state.players[colour]
    card = next(c for c in p.played if card_name(c) == name)
    p.played.remove(card)
    return card


def _play(state: DAState, content: Content, colour: str, names: list[str]) -> list[Event]:
    p = state.players[colour]
    for name in names:
        card = next(c for c in p.hand if card_name(c) == name)
        p.hand.remove(card)
        p.played.append(card)
    state.phase = "activate"
    return [Event("play", f"{colour} plays {card_names(content, p.played)}.")]


def _claim(state: DAState, content: Content, colour: str, name: str) -> list[Event]:
    """Claiming Initiative: the defender discards a played card unresolved and flips the token."""
    state.players[colour].discard.append(_take_played(state, colour, name))
    state.initiative = colour
    state.claimed_initiative = True
    when = "and takes Aggressor Turn 2 next" if state.step == "D1" else "and goes first next round"
    return [
        Event(
            "initiative",
            f"{colour} discards {_card_title(content, name)} unresolved to claim initiative, {when}.",
            phase_end=True,
        )
    ]


def _activate(state: DAState, content: Content, colour: str, words: list[str], dice: Dice) -> list[Event]:
    name = words[0]
    card = _take_played(state, colour, name)
    p = state.players[colour]
    if name == DREAD:
        p.discard.append(card)
        return [Event("dread", f"{colour} plays a dread card for no effect.")]
    f = state.fighters[name]
    verb, args = words[1], words[2:]
    who = title(content, name)
    events: list[Event] = []
    if verb == "idle":
        p.discard.append(card)
        if not f.defeated:
            # Not activated: a stunned fighter stays stunned.
            return [Event("idle", f"{colour} does not activate {who}; its card is discarded.")]
        return [Event("idle", f"{who} is defeated; its card is played for no effect.")]
    if f.stunned:
        f.stunned = False  # a stunned fighter readies when activated
        if verb == "recover":
            p.discard.append(card)
            return [Event("recover", f"{who} is Resilient: it readies and its activation ends.")]
        events.append(Event("ready", f"{who} readies."))
    if verb == "move":
        return events + _begin_move(state, content, f, int(args[0]), card)
    if verb in ("melee", "shoot"):
        more, _ = rules.attack(state, content, name, [args[0]], verb, 0, dice)
        events += more
    elif verb == "focus":
        target = state.fighters[args[0]]
        events += rules.gain(state, content, target.id, rules.focus_amount(content, f, target))
    elif verb == "control":
        events += _control(state, content, f)
    elif verb == "interact":
        events += rules.heal(state, content, name)
    elif verb == "return-dread":
        state.dread_pile.append(_take_played(state, colour, DREAD))
        events.append(Event("dread", f"{who} spends its action to return a dread card to the dread pile."))
    else:  # a special action: its steps are chosen one at a time
        state.active = Activation(card=card, fighter=name, special=verb)
        state.phase = "special"
        return [*events, Event("special", f"{who} uses {_special(content, state.active).name}.")]
    p.discard.append(card)
    return events


def _control(state: DAState, content: Content, f: Fighter) -> list[Event]:
    i = rules.controllable(state, f)
    assert i is not None
    obj = state.objectives[i]
    obj.claimed_by = f.owner
    kind = content.faction(state.players[obj.owner].faction).objective
    n = rules.claimed(state, f.owner)
    stunned = _stunned_enemies(state, content, f)  # said where it applies: they do not stop it
    events = [
        Event(
            "control",
            f"{title(content, f.id)} claims {obj.owner}'s {kind} in "
            f"{area_name(content, f.area)} ({n} claimed)"
            + (f"; {stunned} and cannot stop it." if stunned else "."),
            phase_end=True,
        )
    ]
    goal = content.scenarios[state.scenario].claim_to_win
    if n >= goal:
        state.result = {"winners": [f.owner], "reason": f"{f.owner} claimed {n} of {obj.owner}'s objectives"}
        events.append(Event("end", f"{f.owner} has claimed {count(n, 'objective')} and wins."))
    return events


def _finish(state: DAState) -> list[Event]:
    assert state.active is not None
    state.players[state.turn].discard.append(state.active.card)
    state.active = None
    state.phase = "activate"
    return []


def _begin_move(state: DAState, content: Content, f: Fighter, to: int, card: str) -> list[Event]:
    """Move: ready enemies in the area left may each make an opportunity attack first."""
    attackers = sorted(e.id for e in living(state, other(f.owner)) if e.area == f.area and not e.stunned)
    state.move = PendingMove(fighter=f.id, to=to, attackers=attackers, card=card)
    # Said where it applies: a stunned enemy in the area left makes no opportunity attack.
    stunned = _stunned_enemies(state, content, f)
    if attackers:
        state.phase = "opportunity"
        return [
            Event(
                "leave",
                f"{title(content, f.id)} starts to leave {area_name(content, f.area)}; "
                f"{other(f.owner)} may make opportunity attacks"
                + (f" ({stunned}: no opportunity attack)." if stunned else "."),
            )
        ]
    if stunned:
        return [
            Event(
                "leave",
                f"{title(content, f.id)} leaves {area_name(content, f.area)}; "
                f"{stunned}: no opportunity attack.",
            ),
            *_complete_move(state, content),
        ]
    return _complete_move(state, content)


def _stunned_enemies(state: DAState, content: Content, f: Fighter) -> str:
    """'The Butcher is stunned' for the stunned enemies in `f`'s area (a stunned fighter makes no
    opportunity attack and does not stop a Control), or empty."""
    names = [title(content, e.id) for e in living(state, other(f.owner)) if e.area == f.area and e.stunned]
    if not names:
        return ""
    return f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} stunned"


def _opportunity(state: DAState, content: Content, words: list[str], dice: Dice) -> list[Event]:
    move = state.move
    assert move is not None
    if words[0] == "allow":
        move.attackers = []
        events: list[Event] = []
    else:
        move.attackers.remove(words[1])
        # reading: opportunity-attack-sates
        # An opportunity attack is a free Melee action (so a Vampire sates from it).
        events, hurt = rules.attack(state, content, words[1], [move.fighter], "melee", 0, dice)
        move.hurt = move.hurt or bool(hurt)
        if state.fighters[move.fighter].defeated:
            move.attackers = []
    if move.attackers:
        return events
    return events + _complete_move(state, content)


def _complete_move(state: DAState, content: Content) -> list[Event]:
    move = state.move
    assert move is not None
    state.move = None
    f = state.fighters[move.fighter]
    events: list[Event] = []
    if not f.defeated:
        f.area = move.to
        events.append(Event("move", f"{title(content, f.id)} moves to {area_name(content, move.to)}."))
    if move.card:  # a basic Move: the activation is over
        state.players[f.owner].discard.append(move.card)
        state.phase = "activate"
        return events
    state.phase = "special"
    assert state.active is not None
    if f.defeated or move.hurt:
        # Damaged and stunned by an opportunity attack: it stops after the move, and the rest of
        # its special action is lost.
        events.append(
            Event("stop", f"{title(content, f.id)} was hurt leaving; the rest of its action is lost.")
        )
        events += _finish(state)
    else:
        state.active.step += 1
    return events


def _step(state: DAState, content: Content, words: list[str], dice: Dice) -> list[Event]:
    act = state.active
    assert act is not None
    f = state.fighters[act.fighter]
    step = _special(content, act).steps[act.step]
    verb = words[0]
    events: list[Event] = []
    if verb == "skip":
        pass
    elif verb == "move":
        return _begin_move(state, content, f, int(words[1]), "")
    elif verb == "withdraw":
        # Withdraw is not a Move action: no opportunity attacks.
        f.area = int(words[1])
        events.append(Event("withdraw", f"{title(content, f.id)} withdraws to {area_name(content, f.area)}."))
    elif verb in ("melee", "shoot", "melee-all"):
        kind = "shoot" if verb == "shoot" else "melee"
        targets = (
            [e.id for e in living(state, other(f.owner)) if e.area == f.area]
            if verb == "melee-all"
            else [words[1]]
        )
        events += rules.attack(state, content, f.id, targets, kind, step.bonus, dice)[0]
    elif verb == "heal":
        events += rules.heal(state, content, words[1])
    elif verb == "push":
        # reading: moved-by-effect
        # Moving an enemy by an effect is not its Move action: it draws no opportunity attacks.
        enemy = state.fighters[words[1]]
        enemy.area = int(words[2])
        events.append(
            Event(
                "push",
                f"{title(content, f.id)} moves {title(content, enemy.id)} to "
                f"{area_name(content, enemy.area)}.",
            )
        )
    elif verb == "offering":
        p = state.players[f.owner]
        card = next(c for c in p.discard if card_name(c) == f.id)
        p.discard.remove(card)
        p.graveyard.append(card)
        state.fighters[words[1]].sated = True
        events.append(
            Event(
                "offering",
                f"{title(content, f.id)} gives a card to the graveyard: {title(content, words[1])} is sated.",
            )
        )
    act.step += 1
    return events


def _card_title(content: Content, name: str) -> str:
    return "a dread card" if name == DREAD else title(content, name)


def card_names(content: Content, cards: list[str]) -> str:
    """Cards as players name them: each fighter's name, or a dread card."""
    return ", ".join(_card_title(content, card_name(c)) for c in cards)
