"""Pings per round, measured as bench/message_counts.py measures them: a player whose turn
comes is pinged once a round, even when a decision about their own unit (an Ignite respawn
asked at their own turn) comes in the same round."""

from __future__ import annotations

from dataclasses import replace

from bench.message_counts import MODES, play

IGNITE = next(m for m in MODES if m.name == "ignite")  # three players, regular, five rounds
# Ignite's respawn asked as its player's turn begins (the option pace=async chooses).
IGNITE_OWN_TURN = replace(IGNITE, options=f"{IGNITE.options} respawn:own-turn")


async def test_ignite_pings_each_player_once_a_round_and_posts_at_most_six() -> None:
    decisions: set[str] = set()
    for seed in (11, 12, 13):
        run = await play(IGNITE_OWN_TURN, seed)
        decisions |= run.decisions
        assert run.per_round, seed
        for number, tally in run.per_round.items():
            assert tally.most_to_one <= 1, (seed, number)
            assert tally.posts <= 6, (seed, number)
            assert tally.self_pings == 0 and tally.extra_posts == 0, (seed, number)
    # A respawn came up (seed 13's stoneborn, who plays second): the case that pinged twice.
    assert "respawn" in decisions


async def test_ignite_rulebook_respawn_pings_a_later_player_at_most_twice_in_that_round() -> None:
    """At default options the respawn is asked at the beginning of the Player Phase, as the
    rulebook says: the player who plays second is asked, then pinged again for their turn."""
    twice = 0
    for seed in (11, 12, 13):
        run = await play(IGNITE, seed)
        for number, tally in run.per_round.items():
            assert tally.most_to_one <= 2, (seed, number)
            assert tally.self_pings == 0 and tally.extra_posts == 0, (seed, number)
            twice += tally.most_to_one == 2
    assert twice >= 1  # the respawn round of seed 13


RAID = next(m for m in MODES if m.name == "dire-alliance raid")  # two heroes, three rounds


async def test_raid_pings_a_heros_player_once_for_each_phase_that_needs_them() -> None:
    """Heroes Act, then Heroes React: two changes of turn a round, so at most two pings to one
    player; a partner's pause (a boost window, a card to gain) in between pings nobody again."""
    for seed in (11, 12, 13):
        run = await play(RAID, seed)
        assert run.per_round, seed
        for number, tally in run.per_round.items():
            assert tally.most_to_one <= 2, (seed, number)
            assert tally.self_pings == 0 and tally.extra_posts == 0, (seed, number)
