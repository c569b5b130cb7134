"""Why a Raid Mode card play is refused, in the player's terms: which of its special's steps cannot
be done now and why (an enemy in the hero's own area stops a Shoot), or why its basic Shoot cannot
be made; then the legal moves that start as the refused one does (`choose zzqx` reads, as a
question's answer names any word: its answer lists the choices)."""

from __future__ import annotations

from engine.refusals import typo_listing
from games.dire_alliance.content import Content
from games.dire_alliance.raid_core import card_def, enemies_in, hero_name
from games.dire_alliance.rules import area_name
from games.dire_alliance.state import Hero, RaidState, card_name


def explain(state: RaidState, content: Content, seat: str, action: str, legal: list[str]) -> str:
    """Why `action` is refused (or that it is not legal now), then the legal moves close to it."""
    why = reason(state, content, seat, action) or f"`{action}` is not legal now."
    return why + typo_listing(action, legal)


def reason(state: RaidState, content: Content, seat: str, action: str) -> str | None:
    """The reason `action` (a card not in the hand, or one from it played face up or to Shoot) is
    refused, or None when it is none of these."""
    words = action.split()
    h = state.heroes.get(seat)
    if h is None or len(words) < 2 or state.phase not in ("act", "react") or state.pending is not None:
        return None
    who = hero_name(content, state, seat)
    if words[0] not in {card_name(c) for c in h.hand}:
        return _not_held(content, h, who, action)
    card, here = card_def(content, h, words[0]), enemies_in(state, h.area)
    where = area_name(content, h.area)
    if words[1] == "special" and card.special is not None:
        # Not offered: none of its steps can be done now (raid_heroes._card_moves).
        said = "; ".join(dict.fromkeys(_step(state, content, seat, s.do) for s in card.special.steps))
        return f"`{action}` is not legal now: {card.special.name} has nothing {who} can do now ({said})."
    if words[1] == "shoot" and here:
        return (
            f"`{action}` is not legal now: an enemy is in {who}'s area ({where}); a Shoot needs none there."
        )
    return None


def _not_held(content: Content, h: Hero, who: str, action: str) -> str | None:
    """A card of the hero's own that is not in its hand now (played to the row, discarded), or a
    card of another hero's: said so, with the hand it holds; None when the first word is no card."""
    word = action.split()[0]
    raid = content.raid
    if word not in {x.card.id for x in raid.heroes} | {c.id for k in raid.classes for c in k.cards}:
        return None
    own = {content.hero(h.hero).card.id} | {c.id for c in content.hero_class(h.klass).cards}
    if word not in own:
        why = f"`{word}` is not one of {who}'s cards"
    else:
        # Where it went, when the table can see it (the row and the discard and damage piles are
        # open; the deck is not, so a card in none of them is only said not to be in hand).
        seen = [
            place
            for place, cards in (
                ("action row", [r.card for r in h.row]),
                ("discard pile", h.discard),
                ("damage pile", h.damage),
            )
            if word in {card_name(c) for c in cards}
        ]
        why = f"{who} does not hold {card_def(content, h, word).name}" + (
            f" (it is in their {seen[0]})" if seen else ""
        )
    held = ", ".join(sorted(_typed(content, h, card_name(c)) for c in h.hand)) or "no cards"
    return f"`{action}` is not legal now: {why}. In hand: {held}."


def _typed(content: Content, h: Hero, card: str) -> str:
    """A card as the hand shows it, with the word a move types when that is not its name
    ("Steady Aim (`aim`)")."""
    name = card_def(content, h, card).name
    return name if name.lower() == card else f"{name} (`{card}`)"


def _step(state: RaidState, content: Content, seat: str, do: str) -> str:
    """Why a step of a special that is not offered cannot be done (every step of it is undoable)."""
    here = enemies_in(state, state.heroes[seat].area)
    if do in ("melee", "melee_all"):
        return "no enemy in its area to Melee" if not here else "its Melee rolls no dice"
    if do == "shoot":
        return "an enemy in its area, and a Shoot needs none there" if here else "no enemy in its sight"
    if do == "heal":
        return "no card in its damage pile to heal"
    return "nowhere to go"
