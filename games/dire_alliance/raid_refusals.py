"""Why a Raid Mode card play is refused, in the player's terms: which of its special's steps cannot
be done now and why (an enemy in the hero's own area stops a Shoot), or why its basic Shoot cannot
be made; then the legal moves that start as the refused one does (`choose zzqx` reads, as a
question's answer names any word: its answer lists the choices)."""

from __future__ import annotations

from engine.refusals import typo_listing
from games.dire_alliance.content import Content
from games.dire_alliance.raid_core import card_def, enemies_in, hero_name
from games.dire_alliance.rules import area_name
from games.dire_alliance.state import RaidState, card_name


def explain(state: RaidState, content: Content, seat: str, action: str, legal: list[str]) -> str:
    """Why `action` is refused (or that it is not legal now), then the legal moves close to it."""
    why = reason(state, content, seat, action) or f"`{action}` is not legal now."
    return why + typo_listing(action, legal)


def reason(state: RaidState, content: Content, seat: str, action: str) -> str | None:
    """The reason `action` (a card from the hand played face up, or to Shoot) is refused, or None
    when it is none of these."""
    words = action.split()
    h = state.heroes.get(seat)
    if h is None or len(words) < 2 or state.phase not in ("act", "react") or state.pending is not None:
        return None
    if words[0] not in {card_name(c) for c in h.hand}:
        return None
    card = card_def(content, h, words[0])
    who, here = hero_name(content, state, seat), enemies_in(state, h.area)
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
