"""How the villain answers the heroes, from rules version 3 (stand-in, ours: issue 39's "a group
that only attacks it pays for it"). The rulebook's Raid rules stay as they are; this is the
villain's card, which the demo kit does not print, written fresh:

* Grudge: each attack a hero makes on the villain earns that hero a grudge, repaid at the
  villain's next activation (raid_enemy_attacks.repay_grudges), so the villain hurts in proportion to
  what the heroes do, and the heroes see it coming.
* Grave Ward: it takes at most as many wounds a round as there are heroes (one for each hero in
  the party, landed by any of them: a hero may land two while another lands none), so no party
  fells it before the round its health allows (3 wounds a hero and 1 more at the default level:
  round 4 at the earliest).
* Difficulty levels: the rulebook's own scaling of health per hero ("XP") first, then ours: a
  wound more for the party, a defence die more once half its wounds are taken (so the last
  stretch is the hardest), grudges rolling more dice.

Version 1 and 2 games keep the villain as it was (health 3P, no grudge, no ward). From version 4
its deck lasts the rounds its Grave Ward needs and a few more (deck(), below).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import rules_of
from engine.dice import Dice
from engine.game import Event
from engine.words import count
from games.dire_alliance.content import Content, RaidLevel, Wrath
from games.dire_alliance.raid_core import VILLAIN, hero_name, villain_card
from games.dire_alliance.state import RaidState


def wrath(content: Content, options: Mapping[str, str]) -> Wrath | None:
    """The villain's answers, or None for a game of rules version 1 or 2."""
    if rules_of(options) < 3:
        return None
    return content.raid.villain.wrath


def level(content: Content, options: Mapping[str, str]) -> RaidLevel | None:
    w = wrath(content, options)
    return None if w is None else w.level(options.get("difficulty", w.default))


def health(content: Content, options: Mapping[str, str], heroes: int) -> int:
    lv = level(content, options)
    return content.raid.villain.health_for(heroes, None if lv is None else lv.health)


# reading: villain-deck-clock
# Rules version 4 (stand-in, ours): a group that played well ran out of villain cards (2 a round)
# before the Grave Ward let its last wounds through. The deck is dealt to last as many rounds as the
# Ward needs to let every wound through (its health over the wounds a round it allows) and
# `deck_spare_rounds` more: the 14 cards shuffled, then as many as that needs from a second shuffled
# set. The deck is a clock the heroes see from the start (/game status), announced two rounds
# before it runs out; versions 1-3 deal the 14 cards.
def deck(content: Content, options: Mapping[str, str], heroes: int, dice: Dice) -> list[str]:
    names = [c.name for c in content.raid.villain.deck]
    out = list(names)
    dice.shuffle(out)
    w = wrath(content, options)
    if rules_of(options) < 4 or w is None:
        return out
    ward = w.ward_per_hero * heroes
    rounds = -(-health(content, options, heroes) // ward) + w.deck_spare_rounds
    while len(out) < 2 * rounds:
        more = list(names)
        dice.shuffle(more)
        out += more
    return out[: max(len(names), 2 * rounds)]


def provoke(state: RaidState, content: Content, seat: str, targets: list[str]) -> list[Event]:
    """A hero attacked: one grudge for an attack that has the villain among its targets."""
    w = wrath(content, state.options)
    if w is None or VILLAIN not in targets or state.result is not None:
        return []
    state.villain.grudges.append(seat)
    name = hero_name(content, state, seat)
    n = state.villain.grudges.count(seat)
    return [
        Event(
            "grudge",
            f"{content.raid.villain.name} holds a {w.grudge.lower()} against {name} "
            f"({n} to repay when it next activates).",
        )
    ]


# reading: grave-ward
# The Grave Ward's count is the party's, not each hero's (stand-in, ours): one wound a round for
# each hero, whoever lands them, by any attack (an opportunity attack too), so the round's wounds
# go where the heroes' plan puts them. A hit the Ward turns aside is still an attack on the villain
# (it earns its grudge) but no wound: nothing of it counts toward the villain's health, and the
# ward's count starts afresh with each round (at the end of Enemies React).
def ward(state: RaidState, content: Content) -> Event | None:
    """Grave Ward: a hit past this round's wounds is turned aside (the event says so); None lets the
    wound through, counted against the round's ward."""
    w = wrath(content, state.options)
    if w is None:
        return None
    most = w.ward_per_hero * len(state.heroes)
    if state.villain.warded >= most:
        each = "one" if w.ward_per_hero == 1 else str(w.ward_per_hero)
        return Event(
            "ward",
            f"{w.ward}: {content.raid.villain.name} has taken {count(most, 'wound')} this round, the "
            f"party's most ({each} for each hero, whoever lands them); the hit is turned aside.",
        )
    state.villain.warded += 1
    return None


def ward_left(state: RaidState, content: Content) -> int | None:
    """Grave Ward: the wounds the villain may still take this round (None: no ward, rules 1-2)."""
    w = wrath(content, state.options)
    return None if w is None else max(0, w.ward_per_hero * len(state.heroes) - state.villain.warded)


def new_round(state: RaidState) -> None:
    state.villain.warded = 0


def hardened(state: RaidState, content: Content) -> int:
    """Defence dice more once the villain has taken half its wounds (rules 3, the `standard` level's
    own step between the rulebook's): the last stretch of the fight is the hardest."""
    lv = level(content, state.options)
    return 0 if lv is None or 2 * state.villain.wounds < state.villain.health else lv.hardened


def grudge_dice(content: Content, options: Mapping[str, str]) -> int:
    w, lv = wrath(content, options), level(content, options)
    assert w is not None and lv is not None
    return w.grudge_dice + lv.grudge_dice


def star_dice(state: RaidState, content: Content) -> int:
    """The dice of the villain's ★ Melee now: its rules version's count (rules 3 roll fewer, the
    grudges carrying part of its harm) plus the melee modifiers of the cards in its action row."""
    star = content.raid.villain.star
    assert star is not None
    w = wrath(content, state.options)
    mods: int = sum(villain_card(content, n).melee for n in state.villain.row)
    return max(0, (star.dice if w is None else w.star_dice) + mods)
