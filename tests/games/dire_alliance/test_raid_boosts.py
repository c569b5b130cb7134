"""A strong hero's answer to a boost question (raid_boosts.py), which a bot hero plays and Suggest
shows with its why: each case from a small position (the Darkwood, heroes in 11 Lantern Hut, the
villain in 3 Old Chapel, as test_raid_rules.position builds it)."""

from __future__ import annotations

from engine import Dice
from engine.suggest import suggest
from games.dire_alliance import raid_heroes
from games.dire_alliance.state import RaidState
from tests.games.dire_alliance.raid_positions import attacked, picking, villain_leaving
from tests.games.dire_alliance.test_raid_rules import (
    GAME,
    C,
    act,
    enemy_phase,
    hand,
    named,
    place,
    position,
    row,
)


def _suggested(s: RaidState) -> tuple[str, str]:
    """Suggest's move and why, worked out on a position dealt afresh."""
    got = suggest(GAME, s, "hero1", Dice(1))
    return got.action, got.why


def test_in_enemies_react_a_hero_boosts_with_the_card_adding_the_most_defence_dice() -> None:
    s, shambler = attacked("react", "brace", "parry")
    boost = (
        f"boost with Parry: it adds 2 defence dice to your 2 against 1 attack die of {shambler}, and "
        "after Enemies React your hand is discarded unused."
    )
    assert _suggested(s) == ("boost parry", boost)
    assert GAME.choose_action(s, "hero1", "hard", Dice(1)) == "boost parry"
    # Asked again after the boost: the next card that adds defence goes too, the hand being spent.
    act(s, "hero1", "boost parry")
    assert suggest(GAME, s, "hero1", Dice(2)).action == "boost brace"


def test_in_enemies_act_a_hero_rolls_and_keeps_its_hand_for_heroes_react() -> None:
    # Rank 2: of his hand only Brace carries [2], so a hit takes Brace and Parry is safe to keep.
    s, reclaimed = attacked("act", "brace", "parry", rank=2)
    roll = (
        f"roll: your 2 defence dice against 2 attack dice of {reclaimed}, keeping Parry in hand (it would "
        "add 2) to play later this round: hands are discarded only at the end of Enemies React."
    )
    assert _suggested(s) == ("roll", roll)
    assert GAME.choose_action(s, "hero1", "hard", Dice(1)) == "roll"


def test_in_enemies_act_a_hero_boosts_with_the_card_this_hit_could_take() -> None:
    # Rank 1: Parry and Brace both carry [1], and a hit searches the hand first; of the two the
    # hero loses Parry ([1] only, raid_boosts.card_to_lose), the very card he would keep.
    s, shambler = attacked("act", "brace", "parry")
    assert _suggested(s) == (
        "boost parry",
        f"boost with Parry: it adds 2 defence dice to your 2 against 1 attack die of {shambler}; boost "
        "now: this hit could take Parry, the card you would keep.",
    )
    assert GAME.choose_action(s, "hero1", "hard", Dice(1)) == "boost parry"
    assert GAME.suggestion_why(s, "hero1", "roll") == (
        f"roll: your 2 defence dice against 1 attack die of {shambler}, keeping Parry in hand (it would "
        "add 2), but this hit could take Parry from your hand: boost now."
    )


def test_a_hero_holding_two_copies_keeps_one_for_later() -> None:
    # The hit takes one Parry; the other stays in hand to play in Heroes React.
    s, _ = attacked("act", "parry", "parry")
    assert _suggested(s)[0] == "roll"


def test_a_hero_keeps_its_last_card_of_the_icon_rather_than_boost_it_away() -> None:
    # Parry is his only card with [1] (deck: Charge, [3]): a hit takes it, but boosted away, the
    # same hit would find no card to take and defeat him.
    s, shambler = attacked("act", "parry")
    s.heroes["hero1"].deck, s.heroes["hero1"].discard = ["charge#d1"], []
    assert _suggested(s) == (
        "roll",
        f"roll: your 2 defence dice against 1 attack die of {shambler}, keeping Parry in hand (it would "
        "add 2); this hit could take it, but it is your last card with damage icon [1]: boosted away, a "
        "hit would defeat you.",
    )
    assert GAME.choose_action(s, "hero1", "hard", Dice(1)) == "roll"


def test_a_hero_a_hit_would_defeat_boosts_even_in_enemies_act() -> None:
    # Rank 2: Parry carries only [1], Charge only [3]: no card he holds could pay a hit.
    s, shambler = attacked("act", "parry", rank=2)
    s.heroes["hero1"].deck, s.heroes["hero1"].discard = ["charge#d1"], []
    assert _suggested(s) == (
        "boost parry",
        f"boost with Parry: it adds 2 defence dice to your 2 against 2 attack dice of {shambler}; a hit "
        "would defeat you (no card with damage icon [2] left to lose).",
    )


def test_a_hero_with_no_card_adding_defence_rolls() -> None:
    s, _ = attacked("react", "charge")
    assert suggest(GAME, s, "hero1", Dice(1)).action == "roll"


def test_a_heros_own_opportunity_attack_in_enemies_react_takes_the_card_adding_melee_dice() -> None:
    s = villain_leaving("react")
    assert _suggested(s) == (
        "boost oath",
        "boost with Oathsworn: it adds 1 melee die to your 1 against 4 defence dice of The Hollow "
        "Warden, and after Enemies React your hand is discarded unused.",
    )


def test_a_heros_own_opportunity_attack_in_enemies_act_rolls() -> None:
    s = villain_leaving("act")
    assert suggest(GAME, s, "hero1", Dice(1)).action == "roll"


def test_a_heros_own_attack_in_heroes_act_rolls_keeping_the_hand(fixed: list[list[str]]) -> None:
    s = position(1)
    m = place(s, 11)
    hand(s, "hero1", "parry", "oath", "brace")
    row(s, "hero1", ("charge", False))  # its second card: the attack pauses before its dice
    act(s, "hero1", f"parry melee {m}")
    assert s.pending is not None and s.pending["kind"] == "boost"
    assert GAME.choose_action(s, "hero1", "hard", Dice(1)) == "roll"


def test_in_enemies_react_the_hero_best_able_to_take_an_attack_draws_it() -> None:
    s, who = picking("react")
    assert _suggested(s) == (
        "boost parry",
        f"boost with Parry: face up, its icon [1] draws the attack of {who} to you, not Maren the "
        "Hunter (your 4 defence dice, Maren the Hunter 1), and after Enemies React your hand is "
        "discarded unused.",
    )


def test_in_enemies_act_the_hero_passes_keeping_the_card_to_play() -> None:
    s, who = picking("act")
    assert _suggested(s) == (
        "pass",
        f"pass: a card with icon [1] would draw the attack of {who} to you, but you can still play it "
        "this round: hands are discarded only at the end of Enemies React.",
    )


def test_no_attack_is_drawn_away_from_a_hero_rolling_as_many_defence_dice() -> None:
    """A rank-2 Shambler: Sir Aldric shows two Sweeps ([2], no defence), Maren two Dodges ([2],
    +1 defence each): with Brace boosted he would show the most [2] icons but roll 3 defence dice,
    as many as Maren."""
    s = position(2, boost_window="ask")
    m = place(s, 11, "orange", 2)
    hand(s, "hero1", "brace")
    row(s, "hero1", ("sweep", True), ("sweep", True))
    hand(s, "hero2", "aim")
    row(s, "hero2", ("dodge", True), ("dodge", True))
    s.last_actor = "hero1"
    enemy_phase(s, "Ravenous Hunger", which="react")
    assert s.pending is not None and s.pending["options"] == ["pass"] and s.pending["seats"] == ["hero1"]
    assert _suggested(s) == (
        "pass",
        f"pass: drawing the attack of {named(s, m)} (orange) to you would spare no hero rolling fewer "
        "defence dice than you would (they roll: Maren the Hunter 3).",
    )


def test_in_enemies_act_an_attack_is_drawn_from_a_hero_a_hit_would_defeat() -> None:
    """Maren holds no card with icon [1] (Snipe [2], Snare [3]) anywhere: a hit on her loses the
    game, so Sir Aldric spends Parry in Enemies Act to draw the Shambler's attack."""
    s = position(2, boost_window="ask")
    m = place(s, 11, "orange")
    hand(s, "hero1", "parry")
    hand(s, "hero2", "snipe")
    s.heroes["hero2"].deck, s.heroes["hero2"].discard = ["snare#d1"], []
    s.last_actor = "hero1"
    enemy_phase(s, "Ravenous Hunger", which="act")
    assert s.pending is not None and s.pending["options"] == ["pass"] and s.pending["seats"] == ["hero1"]
    assert _suggested(s) == (
        "boost parry",
        f"boost with Parry: face up, its icon [1] draws the attack of {named(s, m)} (orange) to you, not "
        "Maren the Hunter (your 4 defence dice, Maren the Hunter 1); a hit would defeat Maren the Hunter "
        "(no card with damage icon [1] left to lose).",
    )


def test_a_face_down_move_is_paid_with_the_card_the_hand_needs_least_not_a_defence_card() -> None:
    """Sir Aldric holds Parry (+2 defence), Brace (+1) and Sweep (no defence, a special): the
    search may pick Parry to pay for a step, but the bot (and Suggest) spends Sweep, keeping the
    defence cards to boost before an enemy's dice."""
    s = position(1)
    hand(s, "hero1", "parry", "brace", "sweep")
    assert raid_heroes.thrifty(s, C, "hero1", "parry move 7") == "sweep move 7"
    assert raid_heroes.thrifty(s, C, "hero1", "brace down") == "sweep down"
    # A special, a boost and an exert are the card's own or no card's: left as chosen.
    for move in ("parry special", "boost parry", "exert 7"):
        assert raid_heroes.thrifty(s, C, "hero1", move) == move
    hand(s, "hero1", "parry", "brace")
    assert raid_heroes.thrifty(s, C, "hero1", "parry move 7") == "brace move 7"
    # The bot's move for the seat is one of the hand's cards paying for what the search chose.
    move = GAME.choose_action(s, "hero1", "easy", Dice(3))
    assert not move.startswith("parry ") or move.split()[1] not in ("move", "down", "melee", "rest")
