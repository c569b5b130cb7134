"""Every card's text as a player reads it (`/game card`, `/game hand`, the glossary): Battle Mode's
fighters, leaders and dread, Raid Mode's hero, class and villain cards. All stand-in.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from games.dire_alliance import battle, notation
from games.dire_alliance.content import Content, HeroCard, VillainCard, load_content
from games.dire_alliance.raid_core import STATS, card_def
from games.dire_alliance.state import Hero


def card_text(name: str) -> str:
    """The card (or fighter, hero or villain card) called `name`, by its name or its id."""
    c = load_content()
    key = notation.slug(name).removeprefix("the-")
    if key == battle.DREAD:
        return f"**Dread** (stand-in): {c.roster.dread.text}"
    raid_cards = {h.card.id: h.card for h in c.raid.heroes} | {
        x.id: x for k in c.raid.classes for x in k.cards
    }
    villain_cards = {notation.slug(v.name): v for v in c.raid.villain.deck}
    if key in raid_cards:
        return hero_card_text(raid_cards[key])
    if key in villain_cards:
        return villain_card_text(villain_cards[key])
    try:
        f = c.fighter(key)
    except StopIteration:
        names = sorted(
            [x.id for fa in c.roster.factions for x in fa.fighters] + [x.id for x in c.roster.leaders]
        )
        raise IllegalAction(
            f"No card `{name}`; Battle Mode cards: {', '.join(names)}, dread; Raid Mode cards: "
            f"{', '.join(sorted(raid_cards))} and the villain's ({', '.join(sorted(villain_cards))})."
        ) from None
    return fighter_text(c, f.id)


def fighter_text(c: Content, fid: str) -> str:
    """A Battle Mode fighter's card (or the dread card)."""
    if fid == battle.DREAD:
        return f"**Dread** (stand-in): {c.roster.dread.text}"
    f = c.fighter(fid)
    keys = f" · {', '.join(k.capitalize() for k in f.keywords)}" if f.keywords else ""
    specials = " ".join(f"➤ {s.name} (`{fid} {s.id}`): {s.text}" for s in f.specials)
    return (
        f"**{f.name}** (stand-in card): melee {f.melee}, shoot {f.shoot}, defence {f.defence}{keys}. "
        f"{specials}"
    )


def held_card_text(c: Content, h: Hero, name: str) -> str:
    """A Raid Mode card a hero holds."""
    return hero_card_text(card_def(c, h, name))


def _modifiers(card: HeroCard | VillainCard) -> str:
    return ", ".join(f"{s} {getattr(card, s):+d}" for s in STATS if getattr(card, s)) or "no modifiers"


def villain_card_text(card: VillainCard) -> str:
    lines = " / ".join(card.actions)
    return (
        f"**{card.name}** (villain card, stand-in): {card.colour} minions act; villain modifiers: "
        f"{_modifiers(card)}; villain actions, top to bottom: {lines}."
    )


def hero_card_text(card: HeroCard) -> str:
    icons = " ".join(f"[{r}]" for r in card.damage)
    special = f" ➤ {card.special.name} (`{card.id} special`): {card.special.text}" if card.special else ""
    return f"**{card.name}** (`{card.id}`, stand-in card): {_modifiers(card)}; damage icons {icons}.{special}"
