"""Pausing an automated run for the players (a tie, a boost before an enemy's dice, which card a
damaged hero loses): the run asks, and when the answer is not there yet it stops with a Pause; the
answer replays it from its start with the same dice (raid_phases.py), so it needs no step machine.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass, field

from engine import rules_of
from engine.dice import Dice, tally
from engine.game import Event
from games.dire_alliance.content import Content
from games.dire_alliance.raid_core import living
from games.dire_alliance.state import JSON, RaidState

# ---- the pause -----------------------------------------------------------------------------------


class Pause(Exception):
    """The enemy phase needs the players: `decision` is what they are asked (stored with the
    state), `about` what it concerns in public facts (who attacks whom, which damage icon), for
    Suggest's why only: never stored, so a stored game replays as it always did."""

    def __init__(self, decision: JSON, about: JSON | None = None) -> None:
        super().__init__(decision["prompt"])
        self.decision = decision
        self.about = about or {}


@dataclass(frozen=True)
class Coming:
    """An enemy attack a look-ahead saw: on `seat`, with `dice`, costing a card of damage icon
    `rank` (None: a grudge's, the top of the deck)."""

    seat: str
    dice: int
    rank: int | None


@dataclass
class Run:
    """One (re)run of an enemy phase: the answers given so far, consumed in order. `heroes_turn`:
    the run is a hero's own move or attack in Heroes Act or Heroes React, not an enemy phase."""

    answers: list[str]
    heroes_turn: bool = False
    used: int = 0
    events: list[Event] = field(default_factory=list)
    why: list[str] = field(default_factory=list)  # why the effects of the line being tried failed
    # What of the enemy phase comes after the activation under way, run on a copy by look_ahead.
    rest: Callable[[RaidState, Dice], None] | None = None
    # A look-ahead's run: every question takes its default at once, and the attacks are noted.
    dry: bool = False
    coming: list[Coming] = field(default_factory=list)

    def ask(self, decision: JSON, about: JSON | None = None) -> str:
        if self.dry:
            default = str(decision["default"])
            return {"tie": f"choose {default}", "lose": f"lose {default}"}.get(decision["kind"], default)
        if self.used < len(self.answers):
            self.used += 1
            return self.answers[self.used - 1]
        raise Pause(decision, about)


# The run under way in this thread or task (a bot may search in a worker thread while another
# session's enemy phase runs): a context variable, so concurrent runs never share it.
RUN: ContextVar[Run | None] = ContextVar("dire_alliance_raid_run", default=None)


def current_run() -> Run:
    run = RUN.get()
    assert run is not None, "an enemy activation runs inside an enemy phase or run_activation"
    return run


def ask(
    state: RaidState,
    kind: str,
    seats: list[str],
    options: list[str],
    prompt: str,
    default: str | None = None,
    default_text: str = "",
    about: JSON | None = None,
) -> str:
    """Pause for the players (tie: choose <option>; lose: lose <card>; boost: boost <card> or an
    option): the answer as its move, once they give it. Unanswered in time, `default` (else the
    first option) is taken; `default_text` says it to the table without naming a hidden card.
    `about`: what the question concerns, in public facts (see Pause)."""
    run = current_run()
    return run.ask(
        {
            "kind": kind,
            "seats": seats,
            "options": options,
            "default": options[0] if default is None else default,
            "default_text": default_text,
            "prompt": prompt,
        },
        about,
    )


def look_ahead(state: RaidState, dice: Dice) -> list[Coming]:
    """The attacks the rest of the enemy phase (the activations after the one under way) would
    make if every question took its default and every attack missed (raid_combat.resolve_attack
    rolls none): played on a copy of the state and dice, so nothing of it is kept, and its draws
    (a spawn's) are not counted as the move's (engine.dice.tally). None in a look-ahead itself,
    on a hero's own turn, or outside an enemy phase."""
    run = current_run()
    if run.rest is None or run.dry:
        return []
    trial = RaidState.from_json(copy.deepcopy({k: v for k, v in state.to_json().items() if k != "enemy"}))
    dry = Run([], dry=True)
    token = RUN.set(dry)
    try:
        with tally():
            run.rest(trial, Dice(dice.state))
    finally:
        RUN.reset(token)
    return dry.coming


def say(events: list[Event]) -> None:
    current_run().events.extend(events)


def fail(why: str) -> bool:
    """An effect the enemy cannot perform, and why (for the explanation of the line it skipped)."""
    current_run().why.append(why)
    return False


# reading: raid-asks
# Rules version 4's default (option raid_asks=few): a group asked at every tie and before every
# enemy's dice answered 53 questions in 8 rounds, most of which changed nothing. Under `few` an
# enemy phase asks a hero at most once a round (its first question that matters; later ones take
# the default: no boost, a tie's first option, said in one line), and only where the answer can
# change the heroes' game:
# * a boost before an enemy's dice, when a card in hand adds defence dice (a boost can then
#   change whether the hero is hit); before the hero's own opportunity attack, when a card in
#   hand adds Melee dice;
# * a boost before an enemy picks its target, only when it changes who is attacked in a way that
#   matters: a card in hand with that enemy's damage icon would, face up, draw the attack (Enemy
#   Attack Priority) away from a hero the hit could kill or strip of their last card of that icon
#   (the third play-test: the boost-or-pass before a target was picked mostly changed nothing);
# * a tie over whom an enemy attacks (which hero is hurt).
# Two exceptions to the once a round (the play-test lost a hero to a hit asked of no one, the
# question spent on his own move): a hit that could kill the hero or take their last card of its
# damage icon (for a grudge, the deck and discard pile hold one card or none) is always asked
# when a card in hand adds defence dice, even if the hero was asked already this round; and a
# question on a hero's own turn (the boost before the opportunity attacks their move draws, or
# before their own attack, in Heroes Act or Heroes React) is asked when it matters and never
# counted against the enemy phases' question.
# Every other tie (which of equally near minions activates, which of equally good areas an enemy
# moves to) goes to the first: the lowest-numbered minion, the lowest-numbered area.
# From rules version 5 (the fourth play-test), "a hero" is the player asked: a tie spends the
# question of the player it pings (who answers for the heroes tied), not the tied heroes'; the
# boost before an enemy picks its target is asked once at most, of the one hero best placed to
# draw the attack (raid_enemy_attacks.boost_before_targeting); and a hero's question before an enemy's
# dice is kept for the biggest hit coming on them in the phase: before a hit it would be spent on,
# look_ahead plays the rest of the phase (every question at its default, every attack a miss), and
# if a later attack on the hero rolls more dice (or as many, at an icon they hold fewer cards of)
# the dice roll unasked (the play-test's one question went on a Shambler's die before the
# Warden's Grave Embrace). A player expects to be asked before the hit that can hurt most; one
# question at the villain card listing what is coming would ask before knowing whom each enemy
# reaches, as the phase's moves and targets are worked out only as it runs.
# `raid_asks=every` asks everything, as versions 1-3 did.
def asks_few(state: RaidState) -> bool:
    return rules_of(state.options) >= 4 and state.options.get("raid_asks", "few") == "few"


def worth_asking(state: RaidState, seats: list[str], urgent: bool = False) -> bool:
    """Under `few`, whether the heroes in `seats` may still be asked this round (and, if so, they
    have been): a question that matters to one of them is asked once. `urgent` (the hit could
    kill or take the last card of its icon) and a hero's own turn are always asked; an urgent
    question still counts as the hero's question of the round, one on its own turn never does."""
    if not asks_few(state):
        return True
    run = RUN.get()
    if run is not None and run.heroes_turn:
        return True
    if all(s in state.asked for s in seats) and not urgent:
        return False
    state.asked += [s for s in seats if s not in state.asked]
    return True


def _tie_asks(state: RaidState, concerns: list[str], seats: list[str]) -> list[str]:
    """Whose question a tie spends under `few`. Rules version 5: the player it pings (the hero who
    acted last, game.DireAlliance.decider; everyone when that hero is gone), who answers for the
    tied heroes: in a 4-hero game of version 4 one player was asked two ties in a round because the
    cap counted the heroes tied. Version 4 counted those, and its games replay so."""
    if rules_of(state.options) < 5:
        return concerns
    return [state.last_actor] if state.last_actor in seats else seats


# reading: enemy-ties
def tie(
    state: RaidState,
    content: Content,
    options: list[str],
    what: str,
    hardest: Callable[[str], float],
    word: Callable[[str], str] = str,
    name: Callable[[str], str] = str,
    alike: Callable[[str], Hashable] | None = None,
    concerns: list[str] | None = None,
    about: JSON | None = None,
) -> str:
    """Ties: the players decide together; `enemy=hardest` picks the option worst for the heroes.
    The prompt names each option as players know it (`name`: a hero's name, a minion's, an
    area's); the move is `choose <word>`, one word a player can type (`word`: the hero's own
    name, the minion as moves name it, the area's number). Options with the same `alike` key
    lead to the same game (two orange rank-1 minions in one area): the first stands for them
    all, and a tie left with one option is not asked. `concerns`: the heroes a tie decides
    between when it decides which hero is hurt; under `raid_asks=few` any other tie, or one whose
    heroes have all had their question this round, takes the first option. `about`: what the tie
    decides, in public facts (see Pause)."""
    if alike is not None:
        keys = [alike(o) for o in options]
        options = [o for i, o in enumerate(options) if keys[i] not in keys[:i]]
    if len(options) == 1:
        return options[0]
    if state.options.get("enemy") == "hardest":
        return max(options, key=lambda o: (hardest(o), -options.index(o)))
    seats = [h.seat for h in living(state)]
    if asks_few(state) and not (concerns and worth_asking(state, _tie_asks(state, concerns, seats))):
        listed = ", ".join(name(o) for o in options)
        say([Event("why", f"Tie ({what}): {name(options[0])}, the first of {listed}.", detail=True)])
        return options[0]
    words = {word(o): o for o in options}
    listed = ", ".join(name(o) for o in options)
    got = ask(state, "tie", seats, list(words), f"Tie: {what}. Choose one of: {listed}.", about=about)
    picked = got.split(maxsplit=1)[1]
    return words.get(picked, picked)  # an answer from before options were words names the option
