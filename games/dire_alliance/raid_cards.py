"""A hero's cards: drawing, boosting, losing a card to damage (or dying), and healing."""

from __future__ import annotations

from collections.abc import Iterable

from engine.dice import Dice
from engine.game import Event
from engine.words import count
from games.dire_alliance.content import Content
from games.dire_alliance.raid_core import card_def, hero_name
from games.dire_alliance.raid_pause import RUN, ask
from games.dire_alliance.raid_villain import wrath
from games.dire_alliance.state import Hero, RaidState, RowCard, card_name

# ---- cards ---------------------------------------------------------------------------------------


def draw(state: RaidState, content: Content, seat: str, n: int, dice: Dice, why: str = "") -> list[Event]:
    """Draw `n`; an empty deck is made again from the shuffled discard pile, as in Battle Mode.
    `why`: the rule that makes the draw, said with it."""
    h = state.heroes[seat]
    got = 0
    events: list[Event] = []
    for _ in range(n):
        if not _refresh(h, dice):
            break
        h.hand.append(h.deck.pop(0))
        got += 1
    if got:
        because = f" ({why})" if why else ""
        events.append(
            Event(
                "draw", f"{hero_name(content, state, seat)} draws {count(got, 'card')}{because}.", random=True
            )
        )
    return events


# reading: raid-empty-deck
def _refresh(h: Hero, dice: Dice) -> bool:
    if not h.deck and h.discard:
        h.deck, h.discard = h.discard, []
        dice.shuffle(h.deck)
    return bool(h.deck)


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


def takeable(
    state: RaidState, content: Content, seat: str, rank: int | None, viewer: str | None = None
) -> int:
    """How many cards a hit could take from the hero (hero_damage): those with damage icon [rank]
    in hand, deck and discard pile, or for unranked damage (None, a grudge's) any in deck and
    discard pile. `viewer`: as that seat can tell, to whom another hero's hand, deck and face-down
    row cards are one pool (raid_views.hidden_zones), so the face-down cards count too."""
    h = state.heroes[seat]
    if rank is None:
        return len(h.deck) + len(h.discard)
    unseen = [r.card for r in h.row if not r.up] if viewer not in (None, seat) else []
    cards = h.hand + h.deck + h.discard + unseen
    return sum(1 for c in cards if rank in card_def(content, h, card_name(c)).damage)


def hits_left(
    state: RaidState, content: Content, seat: str, rank: int | None, most: int, viewer: str | None = None
) -> bool:
    """Has the hero at most `most` cards a hit could take (takeable): at most 0, a hit defeats the
    hero; at most 1, it could take the last card of its icon."""
    return takeable(state, content, seat, rank, viewer) <= most


def hero_damage(state: RaidState, content: Content, seat: str, rank: int | None, dice: Dice) -> list[Event]:
    """Damage in Raid Mode: lose a card with the damage icon of the attacker's rank (hand, then deck,
    then discard pile; never the action row) into the damage pile, or the top card of the deck for
    unranked damage. A hero who cannot is defeated, and the heroes lose. A loss that leaves the
    hero one hit from death (for a new reason) says so."""
    before = public_danger(state, content, state.heroes[seat])
    events = _lose_a_card(state, content, seat, rank, dice)
    now = public_danger(state, content, state.heroes[seat])
    return events + (danger_events(state, content, [seat]) if now is not None and now != before else [])


def _lose_a_card(state: RaidState, content: Content, seat: str, rank: int | None, dice: Dice) -> list[Event]:
    h = state.heroes[seat]
    who = hero_name(content, state, seat)
    if rank is None:
        if _refresh(h, dice):
            card = h.deck.pop(0)
            h.damage.append(card)
            printed = card_def(content, h, card_name(card)).name
            return [
                Event(
                    "damage",
                    f"{who} loses the top card of the deck ({printed}) to the damage pile.",
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
            if len(names) > 1 and RUN.get() is not None:
                # reading: damage-card-choice
                # Damage: the pile is searched in order, but which matching card goes is the
                # hero's choice (Parry and Brace both carry [1]).
                # The table is told the choice, not what the hand or deck holds: only the discard
                # pile is face up, so only its cards are named here (the hero's menu names the rest).
                which = (
                    f"({', '.join(card_def(content, h, n).name for n in names)})"
                    if pile is h.discard
                    else f"({len(names)} kinds of card match; {who} sees them in the move menu)"
                )
                # Unanswered, the card the search finds first goes: named only from the face-up pile.
                first = card_name(card)
                got = ask(
                    state,
                    "lose",
                    [seat],
                    names,
                    f"{who} must lose a card with damage icon [{rank}] from the {where}: choose which "
                    f"{which}.",
                    default=first,
                    default_text=f"{who} loses "
                    + (
                        card_def(content, h, first).name
                        if pile is h.discard
                        else f"the first card with damage icon [{rank}] in the {where}"
                    ),
                    about={"rank": rank, "pile": where},
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
            # reading: raid-hand-loss-replaced
            if where == "hand":  # as in Battle Mode, a card lost from the hand is replaced
                events += draw(state, content, seat, 1, dice, "a card lost from the hand is replaced")
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


# ---- one hit from death --------------------------------------------------------------------------


# One hit from death, as the rules make it: a hero dies when a hit cannot take a card
# (hero_damage). A grudge's hit (and an exert) takes the top card of the deck, remade from the
# discard pile, so with both empty the next such hit kills,
# whatever the hand holds; a ranked hit takes a card with its rank's icon from the hand, the deck or
# the discard pile, so a hero with none left dies to any hit of that rank. Told from what the table
# can count (`losable`: the cards that may still hold an icon, seen or not), so it never gives away
# a hidden card.
def one_hit_from_death(
    state: RaidState, content: Content, h: Hero, losable: Iterable[str], deck_and_discard: int
) -> str | None:
    """Why the hero's next hit of some kind kills it, or None."""
    if h.defeated:
        return None
    why = []
    if deck_and_discard == 0 and wrath(content, state.options) is not None:
        why.append(
            "deck and discard pile are empty, so a grudge's hit kills (it takes the top card of the "
            "deck: a card in hand cannot save them)"
        )
    icons = {i for n in losable for i in card_def(content, h, card_name(n)).damage}
    ranks = sorted({r.rank for r in content.raid.minions.ranks} | {content.raid.villain.rank})
    missing = [r for r in ranks if r not in icons]
    if missing:
        listed = ", ".join(f"[{r}]" for r in missing)
        why.append(f"no card with damage icon {listed} is left, so a hit from an enemy of that rank kills")
    return "; ".join(why) or None


def public_danger(state: RaidState, content: Content, h: Hero) -> str | None:
    """One hit from death, from what every seat sees: the hand, deck and face-down row together
    (their names, not where each is) and the discard pile."""
    losable = [*h.hand, *h.deck, *(r.card for r in h.row if not r.up), *h.discard]
    return one_hit_from_death(state, content, h, losable, len(h.deck) + len(h.discard))


def danger_events(state: RaidState, content: Content, seats: Iterable[str]) -> list[Event]:
    """The post's warning for each of these heroes who is now one hit from death."""
    out = []
    for seat in seats:
        why = public_danger(state, content, state.heroes[seat])
        if why is not None:
            who = hero_name(content, state, seat)
            out.append(Event("danger", f"⚠ {who} is one hit from death: {why}.", headline=True))
    return out
