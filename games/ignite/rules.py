"""Ignite's tables from the rulebook: difficulty levels and what the player count changes.

Each value cites the rulebook section it comes from ("Game Difficulty", "Player Count", "How to Win").
"""

from __future__ import annotations

from dataclasses import dataclass

DIFFICULTIES = ("easy", "sensible", "regular", "hard", "expert", "insanity")


@dataclass(frozen=True)
class Difficulty:
    divine_favor: int
    free_turns: int
    minus_one_minion: bool
    no_upgrade: bool
    level2_speed: int


# Game Difficulty: favor tokens, free turns, the -1 minion and No Upgrade tokens, speed tokens.
DIFFICULTY: dict[str, Difficulty] = {
    "easy": Difficulty(5, 5, True, True, 0),
    "sensible": Difficulty(4, 4, True, False, 0),
    "regular": Difficulty(3, 3, False, False, 0),
    "hard": Difficulty(2, 0, False, False, 0),
    "expert": Difficulty(1, 0, False, False, 1),
    "insanity": Difficulty(0, 0, False, False, 2),
}

# How to Win: the number of defeated player units that loses the game, by player count.
LOSS_THRESHOLD: dict[int, int] = {1: 3, 2: 4, 3: 3, 4: 2, 5: 3, 6: 2, 7: 3, 8: 2}


def units_per_player(players: int) -> int:
    """Race Selection: 1 player 3 miniatures, 2 players 2 each, 3-8 players 1 each."""
    if players == 1:
        return 3
    if players == 2:
        return 2
    return 1


def round_set(players: int) -> str:
    """Player Count: the 1 player deck, the 2-6 player deck or the 7-8 player deck."""
    if players == 1:
        return "1"
    if players <= 6:
        return "2-6"
    return "7-8"


def minion_health(players: int) -> int:
    """Destroying Minions: 1 damage kills at 1-4 players, 2 at 5-8 (the +1 HP token)."""
    return 2 if players >= 5 else 1


DRAGON_HEALTH = 3  # The Boss Battle: it takes 3 damage to kill the elder dragon
HAND_SIZE = 6  # public fact about Ignite: a hand is 6 cards
