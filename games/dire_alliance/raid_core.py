"""Raid Mode's shared vocabulary: the hand size, the villain's id, names and stats of heroes and
enemies (with the modifiers of the cards in their action rows), where enemies stand, and who acts.
"""

from __future__ import annotations

from games.dire_alliance.content import Content, HeroCard, VillainCard
from games.dire_alliance.notation import minion_word
from games.dire_alliance.state import Hero, Minion, RaidState, card_name, serial

# ---- names and stats -----------------------------------------------------------------------------


HAND = 4


VILLAIN = "villain"


STATS = ("melee", "shoot", "defence")


def hero_name(content: Content, state: RaidState, seat: str) -> str:
    return content.hero(state.heroes[seat].hero).name


def enemy_name(content: Content, state: RaidState, eid: str) -> str:
    if eid == VILLAIN:
        return content.raid.villain.name
    m = state.minions[eid]
    return f"{minion_word(content, state, eid)} ({m.colour})"


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
    mods: int = sum(getattr(villain_card(content, n), stat) for n in state.villain.row)
    return max(0, int(base) + mods)


def minion_stat(content: Content, m: Minion, stat: str) -> int | str:
    value: int | str = getattr(content.rank(m.rank), stat)
    return value


def villain_card(content: Content, name: str) -> VillainCard:
    return next(c for c in content.raid.villain.deck if c.name == name)


def living(state: RaidState) -> list[Hero]:
    return [h for h in state.heroes.values() if not h.defeated]


def enemies_in(state: RaidState, area: int) -> list[str]:
    out = [m.id for m in state.minions.values() if m.area == area]
    return sorted(out, key=serial) + (
        [VILLAIN] if villain_alive(state) and state.villain.area == area else []
    )


def villain_alive(state: RaidState) -> bool:
    return state.villain.wounds < state.villain.health


def enemy_area(state: RaidState, eid: str) -> int:
    if eid == VILLAIN:
        return state.villain.area
    area = state.minions[eid].area
    assert area is not None
    return area


# ---- who acts ------------------------------------------------------------------------------------


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
