"""Rules version 4's `raid_asks=few` (raid_pause.worth_asking): an enemy phase asks each hero at
most once a round, and only where the answer can change the heroes' game; `every` asks it all."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.raid_bench import PARTY, focused
from engine import get_game
from games.dire_alliance.content import load_content
from games.dire_alliance.raid_pause import RUN, Pause, Run, tie
from games.dire_alliance.state import RaidState

GAME = get_game("dire-alliance")
C = load_content()
SEEDS = (1, 2, 3)


def _enemy_questions(asks: str, seed: int) -> tuple[Counter[int], int]:
    """A seeded 2-hero raid played by the focused plan (bench/raid_bench.py): the ties and boosts
    asked a round, of the enemies' doing (not the boost before a hero's own attack), and the
    rounds the game lasted."""
    options = GAME.validate_options({"mode": "raid", **PARTY, "raid_asks": asks})
    state: RaidState = GAME.setup(["hero1", "hero2"], options, seed)
    asked: Counter[int] = Counter()
    while GAME.outcome(state) is None and state.round <= 8:
        seat = sorted(GAME.to_act(state).seats)[0]
        GAME.act(state, seat, focused(GAME, state, seat))
        p, which = state.pending, (state.enemy or {}).get("which")
        own_attack = isinstance(which, dict) and "attack" in which
        if p is not None and p["kind"] in ("tie", "boost") and not own_attack:
            asked[state.round] += 1
    return asked, state.round


def test_few_asks_each_hero_at_most_once_a_round_and_every_asks_more() -> None:
    few_total = every_total = 0
    for seed in SEEDS:
        few, rounds = _enemy_questions("few", seed)
        every, _ = _enemy_questions("every", seed)
        assert rounds >= 2  # the game ran enemy phases to ask in
        assert all(n <= 2 for n in few.values()), few  # 2 heroes: one question each a round
        few_total += sum(few.values())
        every_total += sum(every.values())
    # The same games asked everything ask far more: the budget is what `few` holds, not luck.
    assert every_total >= 2 * few_total > 0, (every_total, few_total)


def test_a_tie_that_hurts_no_hero_takes_the_lowest_numbered_option_unasked() -> None:
    options = GAME.validate_options({"mode": "raid", **PARTY})
    state: RaidState = GAME.setup(["hero1", "hero2"], options, 1)
    run = Run([])
    token = RUN.set(run)
    try:
        # Which of two areas an enemy moves to: no pause, the first (lowest-numbered) is taken,
        # and the post says so in one line.
        assert tie(state, C, ["4", "7"], "where it moves", lambda o: 0.0) == "4"
        assert [e.text for e in run.events] == ["Tie (where it moves): 4, the first of 4, 7."]
        assert not state.asked
        # Whom it attacks: the group is asked (the run pauses), and both heroes have had their question.
        with pytest.raises(Pause, match="Tie: whom it attacks"):
            tie(state, C, ["hero1", "hero2"], "whom it attacks", lambda o: 0.0, concerns=["hero1", "hero2"])
        assert state.asked == ["hero1", "hero2"]
        # Asked already this round: the next such tie takes the first hero unasked.
        assert (
            tie(state, C, ["hero2", "hero1"], "whom", lambda o: 0.0, concerns=["hero2", "hero1"]) == "hero2"
        )
    finally:
        RUN.reset(token)


def test_every_asks_a_tie_that_hurts_no_hero() -> None:
    options = GAME.validate_options({"mode": "raid", **PARTY, "raid_asks": "every"})
    state: RaidState = GAME.setup(["hero1", "hero2"], options, 1)
    token = RUN.set(Run([]))
    try:
        with pytest.raises(Pause, match="Tie: where it moves"):
            tie(state, C, ["4", "7"], "where it moves", lambda o: 0.0)
    finally:
        RUN.reset(token)


def test_a_game_of_rules_3_asks_every_tie() -> None:
    options = GAME.validate_options({"mode": "raid", **PARTY, "rules": "3"})
    assert "raid_asks" not in options
    state: RaidState = GAME.setup(["hero1", "hero2"], options, 1)
    token = RUN.set(Run([]))
    try:
        with pytest.raises(Pause):
            tie(state, C, ["4", "7"], "where it moves", lambda o: 0.0)
    finally:
        RUN.reset(token)
