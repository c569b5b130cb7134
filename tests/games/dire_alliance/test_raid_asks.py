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
from tests.games.dire_alliance.test_raid_rules import act, activate, enemy_phase, hand, place, position, row

GAME = get_game("dire-alliance")
C = load_content()
SEEDS = (1, 2, 3)


def _enemy_questions(asks: str, seed: int) -> tuple[Counter[int], int]:
    """A seeded 2-hero raid played by the focused plan (bench/raid_bench.py): the ties and boosts
    asked a round in enemy phases (not those on a hero's own turn: its move or its attack), and
    the rounds the game lasted. A hit that could kill or take a hero's last card of its icon is
    asked beyond the budget; these seeds hold none past it (the test would show one)."""
    options = GAME.validate_options({"mode": "raid", **PARTY, "raid_asks": asks})
    state: RaidState = GAME.setup(["hero1", "hero2"], options, seed)
    asked: Counter[int] = Counter()
    while GAME.outcome(state) is None and state.round <= 8:
        seat = sorted(GAME.to_act(state).seats)[0]
        GAME.act(state, seat, focused(GAME, state, seat))
        p, which = state.pending, (state.enemy or {}).get("which")
        own_turn = isinstance(which, dict)  # a hero's own move or attack: not the enemies' budget
        if p is not None and p["kind"] in ("tie", "boost") and not own_turn:
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
        # Whom it attacks: the group is asked (the run pauses), and the player it pings (the hero
        # who acted last, hero1 at the start) has had his question.
        with pytest.raises(Pause, match="Tie: whom it attacks"):
            tie(state, C, ["hero1", "hero2"], "whom it attacks", lambda o: 0.0, concerns=["hero1", "hero2"])
        assert state.asked == [state.last_actor] == ["hero1"]
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


# ---- where the one question goes (the third play-test) --------------------------------------------


def few(n: int = 1) -> RaidState:
    """A small position (test_raid_rules.py's) under the default `raid_asks=few`, boosts asked."""
    return position(n, boost_window="ask", raid_asks="few")


def test_a_hit_that_could_take_the_heros_last_card_of_its_icon_is_asked_after_an_earlier_ask(
    fixed: list[list[str]],
) -> None:
    s = few()
    m = place(s, 11)  # a Shambler, rank 1: its hit costs a card with damage icon [1]
    s.asked = ["hero1"]  # Sir Aldric has had his question this round
    s.heroes["hero1"].deck, s.heroes["hero1"].discard = ["sweep#d0", "charge#d1"], []
    hand(s, "hero1", "parry", "charge")  # Parry: his last [1] card, and it adds defence dice
    with pytest.raises(Pause) as paused:
        activate(s, m, "Melee")
    assert paused.value.decision["kind"] == "boost" and paused.value.decision["seats"] == ["hero1"]
    # With a second [1] card (Brace) the hit takes neither his last nor his life: his question
    # is spent, so the dice roll unasked.
    hand(s, "hero1", "parry", "brace")
    fixed += [["blank"], ["blank", "blank"]]
    text = activate(s, m, "Melee")
    assert any("attack dice [blank]" in t for t in text)


def test_a_hit_that_could_kill_the_hero_is_asked_and_counts_as_the_rounds_question() -> None:
    s = few()
    m = place(s, 11, rank=2)  # a Reclaimed: its hit costs a card with [2]
    s.heroes["hero1"].deck, s.heroes["hero1"].discard = ["parry#d0"], []
    hand(s, "hero1", "parry")  # no [2] card anywhere: a hit defeats him
    with pytest.raises(Pause) as paused:
        activate(s, m, "Melee")
    assert paused.value.decision["kind"] == "boost" and "attacked by" in paused.value.decision["prompt"]
    assert s.asked == ["hero1"]


def test_a_pause_on_the_heros_own_heroes_act_move_is_not_counted(fixed: list[list[str]]) -> None:
    s = few()
    place(s, 11)
    hand(s, "hero1", "charge", "parry", "brace")
    act(s, "hero1", "charge move 7")  # leaving 11 draws the Shambler's opportunity attack
    assert s.pending is not None and s.pending["kind"] == "boost"
    fixed += [["blank"], ["blank", "blank"]]
    act(s, "hero1", "roll")
    assert s.heroes["hero1"].area == 7 and s.pending is None
    assert s.asked == []  # the enemy phase's question is still his
    m = place(s, 7)
    with pytest.raises(Pause) as paused:
        activate(s, m, "Melee")
    assert paused.value.decision["kind"] == "boost" and s.asked == ["hero1"]


def test_the_boost_before_an_enemy_picks_its_target_is_asked_only_to_spare_a_hero_in_danger(
    fixed: list[list[str]],
) -> None:
    s = few(2)
    m = place(s, 11)
    hand(s, "hero1", "parry")  # face up, its [1] would bring Sir Aldric level with Maren
    row(s, "hero2", ("aim", True))  # Maren shows one [1]: the Shambler picks her
    hand(s, "hero2", "snare")
    s.heroes["hero2"].deck, s.heroes["hero2"].discard = ["snipe#d0"], []  # no [1] card left: a hit kills
    with pytest.raises(Pause) as paused:
        activate(s, m, "Melee")
    assert paused.value.decision["options"] == ["pass"] and paused.value.decision["seats"] == ["hero1"]
    # Maren with [1] cards to spare: whom it attacks does not matter enough to ask; she is hit.
    s.asked = []
    s.heroes["hero2"].deck = ["aim#d0", "dodge#d1"]
    fixed += [["blank"], ["blank"]]
    text = activate(s, m, "Melee")
    assert any("attacks Maren the Hunter" in t for t in text) and s.asked == []


def test_grave_ward_counts_the_partys_wounds_an_opportunity_attack_lands_a_heros_second(
    fixed: list[list[str]],
) -> None:
    s = position(2)
    s.objectives = [o for o in s.objectives if o.colour == "grey"]  # the villain heads for 12
    s.villain.area = s.heroes["hero1"].area = s.heroes["hero2"].area = 8
    s.villain.warded = 1  # Sir Aldric's wound earlier this round: 1 of the party's 2
    # It leaves: Sir Aldric's opportunity attack lands the party's second wound (his second this
    # round); Maren's, the third, is turned aside.
    fixed += [["hit"], ["blank", "blank"], ["hit"], ["blank", "blank"]]
    text = activate(s, "villain", "Move")
    assert s.villain.wounds == 1 and s.villain.warded == 2
    assert (
        "Grave Ward: The Hollow Warden has taken 2 wounds this round, the party's most (one for each "
        "hero, whoever lands them); the hit is turned aside." in text
    )


# ---- rules version 5: whose question a tie spends (the fourth play-test) ---------------------------


def _two_ties(s: RaidState) -> str:
    """Two ties over whom an enemy attacks in one round of a 4-hero game, each between heroes other
    than the one who acted last (whose player the tie pings): the first pauses; the second's answer."""
    s.last_actor = "hero1"
    token = RUN.set(Run([]))
    try:
        with pytest.raises(Pause, match="Tie: whom"):
            tie(s, C, ["hero2", "hero3"], "whom", lambda o: 0.0, concerns=["hero2", "hero3"])
        return tie(s, C, ["hero4", "hero2"], "whom", lambda o: 0.0, concerns=["hero4", "hero2"])
    finally:
        RUN.reset(token)


def test_a_tie_spends_the_question_of_the_player_it_asks_not_of_the_heroes_tied() -> None:
    s = few(4)
    # The player pinged (Sir Aldric's, who acted last) has had his question: the second tie takes
    # its first option unasked, though Corvin, tied in it, has not been asked this round.
    assert _two_ties(s) == "hero4"
    assert s.asked == ["hero1"]


def test_a_game_of_rules_4_counts_a_tie_against_the_heroes_tied() -> None:
    s = position(4, boost_window="ask", raid_asks="few", rules="4")
    with pytest.raises(Pause, match="Tie: whom"):
        _two_ties(s)  # Corvin had no question yet: the same player is asked a second tie
    assert s.asked == ["hero2", "hero3", "hero4"]


def _two_could_draw_it(s: RaidState) -> str:
    """A Shambler ([1]) in 11 about to pick between Maren, who shows one [1] and has no other [1]
    card (a hit kills her), and Sir Aldric and Ysolde, each holding a [1] card that would draw it:
    Sir Aldric with two more [1] cards in his deck, Ysolde with none."""
    m = place(s, 11)
    row(s, "hero2", ("aim", True))
    hand(s, "hero2", "snare")
    s.heroes["hero2"].deck, s.heroes["hero2"].discard = ["snipe#d0"], []
    hand(s, "hero1", "parry")
    s.heroes["hero1"].deck, s.heroes["hero1"].discard = ["brace#d0", "parry#d1"], []
    hand(s, "hero3", "ward")
    s.heroes["hero3"].deck, s.heroes["hero3"].discard = ["hexbolt#d0"], []
    return m


def test_the_boost_before_an_enemy_picks_its_target_is_asked_of_one_hero_the_best_placed(
    fixed: list[list[str]],
) -> None:
    s = few(3)
    m = _two_could_draw_it(s)
    with pytest.raises(Pause) as paused:
        activate(s, m, "Melee")
    # Sir Aldric, with the most [1] cards to lose, is asked; Ysolde is not asked after his pass.
    assert paused.value.decision["options"] == ["pass"] and paused.value.decision["seats"] == ["hero1"]
    s = few(3)  # the run again from the start (as a paused phase replays), with his answer
    m = _two_could_draw_it(s)
    fixed += [["blank"], ["blank"]]  # the Shambler's die, Maren's defence die
    text = activate(s, m, "Melee", answers=("pass",))
    assert any("attacks Maren the Hunter" in t for t in text) and s.asked == ["hero1"]


def test_a_game_of_rules_4_asks_each_hero_who_could_draw_the_attack() -> None:
    s = position(3, boost_window="ask", raid_asks="few", rules="4")
    m = _two_could_draw_it(s)
    with pytest.raises(Pause) as paused:
        activate(s, m, "Melee", answers=("pass",))
    assert paused.value.decision["options"] == ["pass"] and paused.value.decision["seats"] == ["hero3"]


# ---- rules version 5: the question kept for the biggest hit of the phase ---------------------------


def _small_hit_then_a_big_one(s: RaidState) -> None:
    """Sir Aldric in 3 Old Chapel with the villain and a green Shambler, Parry and Brace in hand and
    [1] and [3] cards to spare: Crypt Call (green, melee +1) has the Shambler's 1 die come at him,
    then the villain's ★ Grave Embrace (its 2 dice and the card's +1)."""
    s.heroes["hero1"].area = 3
    place(s, 3)
    hand(s, "hero1", "parry", "brace")
    s.heroes["hero1"].deck, s.heroes["hero1"].discard = ["charge#d0", "brace#d1", "sweep#d2"], []
    s.last_actor = "hero1"


def test_a_heros_question_is_kept_for_the_biggest_hit_coming_in_the_phase(fixed: list[list[str]]) -> None:
    s = few()
    _small_hit_then_a_big_one(s)
    fixed += [["blank"], ["blank", "blank"]]  # the Shambler's die misses, unasked
    enemy_phase(s, "Crypt Call")
    assert s.pending is not None and s.pending["kind"] == "boost"
    assert s.pending["prompt"].startswith("Sir Aldric is attacked by The Hollow Warden")
    assert s.asked == ["hero1"]


def test_a_game_of_rules_4_spends_the_question_on_the_first_hit(fixed: list[list[str]]) -> None:
    s = position(1, boost_window="ask", raid_asks="few", rules="4")
    _small_hit_then_a_big_one(s)
    enemy_phase(s, "Crypt Call")
    assert s.pending is not None and s.pending["kind"] == "boost"
    assert "attacked by Shambler" in s.pending["prompt"]
