"""What the enemies are this phase: each minion's card with this phase's Power cards and speed
tokens (PhaseModifiers), Rule 11's upgrade, and Rule 1's movement order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.ignite.board import Battlefield, Minion
from games.ignite.enemy_cards import EnemyStats, catapult_stats

# ---- stats ---------------------------------------------------------------------------------------


Cards = Mapping[tuple[str, int], EnemyStats]


# reading: range-bonus-not-melee
# Attacks a Power card's range bonus lengthens (reading taken: not melee reach).
RANGED = frozenset({"arrow", "fire_arrow", "lightning", "spell", "hex"})


@dataclass
class PhaseModifiers:
    """What changes the enemies this phase: Power cards, difficulty and player count.

    speed_bonus / range_bonus come from Power cards; level2_speed is the Expert (+1) or
    Insanity (+2) speed token; minion_health is 2 with 5-8 players (+1 HP token).
    """

    hardened: bool = False
    speed_bonus: int = 0
    range_bonus: int = 0
    ambush: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    level2_speed: int = 0
    minion_health: int = 1
    dragon_actions: str = "sacrificed"  # option dragon_actions: "sacrificed" | "three"
    # Version 1 let a pusher walk through its own catapult, which then "followed" into the
    # space it was placed on (it never moved on its placement turn); kept so games started
    # before it replay unchanged (enemy_movement._walls).
    pusher_passes_catapult: bool = False


def effective_stats(m: Minion, cards: Cards, mods: PhaseModifiers) -> EnemyStats:
    """The card's stats with this phase's tokens and Power cards applied."""
    if m.catapult:
        # Catapult: extra movement and range from Power cards or Expert/Insanity never apply.
        return catapult_stats(m.colour, m.level)
    s = cards[(m.colour, m.level)]
    move = s.movement + mods.speed_bonus
    if m.level == 2:
        # Rule 11 note / Expert and Insanity: level 2 minions get the +1 / +2 speed token.
        move += mods.level2_speed
    hi = s.range_max + (mods.range_bonus if s.attack in RANGED else 0)
    if (move, hi) == (s.movement, s.range_max):
        # Nothing applies this phase: the card's own stats (frozen, so shared safely), not a
        # copy built for every plan of every turn.
        return s
    return EnemyStats(
        colour=s.colour,
        level=s.level,
        name=s.name,
        movement=move,
        range_min=s.range_min,
        range_max=hi,
        damage=s.damage,
        attack=s.attack,
        speed=s.speed,
        notes=s.notes,
        source=s.source,
    )


def upgrade_all(board: Battlefield) -> list[str]:
    """Rule 11: at the beginning of round 11 every existing enemy becomes level 2."""
    changed = [m.id for m in board.minions if m.level != 2]
    for m in board.minions:
        m.level = 2
    return changed


# reading: fast-is-card-speed
def movement_order(board: Battlefield, cards: Cards, mods: PhaseModifiers) -> list[str]:
    """Rule 1: fast, then normal, then war-machine carriers; within each, lowest row first,
    rightmost first on a row. Reading taken: "fast" is the card's speed class; speed tokens
    do not make a normal minion fast."""

    def key(m: Minion) -> tuple[int, int, int]:
        klass = 2 if m.catapult else 0 if cards[(m.colour, m.level)].speed == "fast" else 1
        return (klass, -m.pos[1], -m.pos[0])

    return [m.id for m in sorted(board.minions, key=key)]
