"""Dire Alliance Battle Mode, one test per rule, each from a small position.

Positions start from the Beaten Path setup with every fighter moved out of the way (red's to area 1,
blue's to area 12) and the fighters of the test placed; dice results are fixed where they matter.
Red plays the Shroud led by the Countess, blue the Grievers led by Ellis (the default options).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import Dice, IllegalAction, NotationError, OptionError, get_game
from games.dire_alliance import rules
from games.dire_alliance.content import load_content
from games.dire_alliance.game import DireAlliance
from games.dire_alliance.state import DAState, card_name, other

GAME: DireAlliance = get_game("dire-alliance")  # type: ignore[assignment]
C = load_content()


def position(seed: int = 1, **areas: int) -> DAState:
    s = GAME.setup(["red", "blue"], GAME.validate_options({}), seed)
    for f in s.fighters.values():
        f.area = 1 if f.owner == "red" else 12
    for fid, a in areas.items():
        s.fighters[fid].area = a
    return s


def turn(s: DAState, colour: str, *played: str, step: str = "A1") -> DAState:
    """`colour`'s turn at `step` with these cards played and waiting to be activated."""
    s.step = step
    s.initiative = colour if step.startswith("A") else other(colour)
    s.turn, s.phase, s.claimed_initiative = colour, "activate", False
    s.players[colour].played = [f"{n}#t{i}" for i, n in enumerate(played)]
    return s


@pytest.fixture
def fixed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[str]]]:
    """Dice results in the order they are rolled: attack dice, (vampire die), then each defence."""
    rolls: list[list[str]] = []

    def roll(dice: Dice, faces: tuple[str, ...], n: int) -> list[str]:
        got = rolls.pop(0)
        assert len(got) == n, f"expected {n} dice, the test gave {got}"
        return got

    monkeypatch.setattr(rules, "roll", roll)
    yield rolls
    assert not rolls, f"rolls left over: {rolls}"


def act(s: DAState, seat: str, move: str) -> list[str]:
    return [e.text for e in GAME.act(s, seat, move)[1]]


def names(cards: list[str]) -> list[str]:
    return sorted(card_name(c) for c in cards)


# ---- setup ---------------------------------------------------------------------------------------


def test_setup_starting_deck_of_ten_two_copies_of_each_fighter_card_and_supply_stacks_of_three() -> None:
    s = GAME.setup(["red", "blue"], GAME.validate_options({}), 7)
    for colour, p in s.players.items():
        cards = names(p.hand + p.deck + p.played)
        fighters = sorted(f.id for f in s.fighters.values() if f.owner == colour)
        assert cards == sorted(fighters * 2)
        assert {fid: len(stack) for fid, stack in p.supply.items()} == {fid: 3 for fid in fighters}


def test_setup_scenario_sets_initiative_deploys_fighters_and_deals_four() -> None:
    s = GAME.setup(["red", "blue"], GAME.validate_options({}), 3)
    assert (s.initiative, s.turn, s.step, s.phase) == ("red", "red", "A1", "play")
    assert {f.area for f in s.fighters.values() if f.owner == "red"} == {2}
    assert {f.area for f in s.fighters.values() if f.owner == "blue"} == {11}
    assert len(s.players["red"].hand) == len(s.players["blue"].hand) == 4
    assert all(not f.stunned for f in s.fighters.values())  # each fighter begins the game ready


def test_setup_colours_by_a_seeded_flip_swap_the_sides_for_some_seeds() -> None:
    factions = set()
    for seed in range(8):
        s = GAME.setup(["red", "blue"], GAME.validate_options({"colours": "flip"}), seed)
        factions.add(s.players["red"].faction)
        again = GAME.setup(["red", "blue"], GAME.validate_options({"colours": "flip"}), seed)
        assert again.players["red"].faction == s.players["red"].faction  # the flip is seeded
    assert factions == {"shroud", "grievers"}


def test_setup_factions_and_leaders_are_options_each_chosen_once() -> None:
    s = GAME.setup(
        ["red", "blue"],
        GAME.validate_options(
            {
                "red_faction": "grievers",
                "blue_faction": "shroud",
                "red_leader": "ellis",
                "blue_leader": "countess",
            }
        ),
        1,
    )
    assert (s.players["red"].faction, s.players["red"].leader) == ("grievers", "ellis")
    with pytest.raises(OptionError, match="same faction"):
        GAME.validate_options({"blue_faction": "shroud"})
    with pytest.raises(OptionError, match="same leader"):
        GAME.validate_options({"blue_leader": "countess"})
    with pytest.raises(OptionError, match="Raid Mode scenario"):
        GAME.validate_options({"scenario": "into-the-darkwood"})


# ---- the round -----------------------------------------------------------------------------------


def _pass_turn(s: DAState) -> None:
    """Resolve every played card of the current turn with a Focus on itself (no dice)."""
    seat = s.turn
    while s.turn == seat and s.phase == "activate" and s.players[seat].played:
        card = card_name(s.players[seat].played[0])
        legal = GAME.legal_actions(s, seat)
        pick = next((m for m in legal if m.startswith(f"{card} focus {card}")), None)
        pick = pick or next(m for m in legal if m.startswith(card) and " move " in m)
        GAME.act(s, seat, pick)


def test_round_aggressor_two_defender_two_then_each_plays_the_rest_and_all_draw_four() -> None:
    s = GAME.setup(["red", "blue"], GAME.validate_options({}), 5)
    order = []
    for _ in range(4):
        seat = s.turn
        order.append((s.step, seat))
        if s.phase == "play":
            assert all(m.startswith("play ") and len(m.split()) == 3 for m in GAME.legal_actions(s, seat))
            GAME.act(s, seat, GAME.legal_actions(s, seat)[0])
            assert len(s.players[seat].played) == 2 and len(s.players[seat].hand) == 2
        else:
            assert s.players[seat].hand == [] and len(s.players[seat].played) == 2  # turn 2: the rest
        _pass_turn(s)
    assert order == [("A1", "red"), ("D1", "blue"), ("A2", "red"), ("D2", "blue")]
    assert (s.round, s.step) == (2, "A1")
    assert len(s.players["red"].hand) == len(s.players["blue"].hand) == 4


def test_drawing_from_an_empty_deck_shuffles_the_discard_pile_into_a_new_deck() -> None:
    s = position()
    p = s.players["red"]
    p.hand, p.deck, p.discard = [], ["unbroken#1"], ["countess#1", "devoted#1", "devoted#2", "empyreal#1"]
    events = rules.refill(s, "red", Dice(1))
    assert len(p.hand) == 4 and p.hand[0] == "unbroken#1"
    assert len(p.deck) == 1 and p.discard == []
    assert any(e.kind == "reshuffle" for e in events)


# ---- claiming initiative -------------------------------------------------------------------------


def test_claiming_initiative_in_defender_turn_1_gives_aggressor_turn_2_at_once() -> None:
    s = turn(position(caretaker=12, butcher=12), "blue", "caretaker", "butcher", step="D1")
    s.players["blue"].hand = ["mourner#x", "digger#x"]
    s.players["red"].hand = ["unbroken#x", "devoted#x"]
    act(s, "blue", "claim butcher")
    assert s.initiative == "blue" and "butcher" in names(s.players["blue"].discard)
    act(s, "blue", "caretaker focus caretaker")
    assert (s.step, s.turn) == ("A2", "blue")  # the claimer's aggressor turn 2 follows at once
    assert names(s.players["blue"].played) == ["digger", "mourner"]


def test_claiming_initiative_in_defender_turn_2_goes_first_next_round() -> None:
    s = turn(position(caretaker=12), "blue", "caretaker", step="D2")
    act(s, "blue", "claim caretaker")
    assert (s.round, s.step, s.turn, s.initiative) == (2, "A1", "blue", "blue")


def test_only_the_defender_claims_and_only_once_a_turn() -> None:
    s = turn(position(), "red", "unbroken", "devoted", step="A1")
    assert not [m for m in GAME.legal_actions(s, "red") if m.startswith("claim")]
    s = turn(position(), "blue", "caretaker", "butcher", "digger", step="D2")
    act(s, "blue", "claim caretaker")
    assert not [m for m in GAME.legal_actions(s, "blue") if m.startswith("claim")]


# ---- fighters and activation ---------------------------------------------------------------------


def test_a_stunned_fighter_readies_when_activated_and_acts_as_normal() -> None:
    s = turn(position(unbroken=6), "red", "unbroken")
    s.fighters["unbroken"].stunned = True
    act(s, "red", "unbroken move 7")
    assert not s.fighters["unbroken"].stunned and s.fighters["unbroken"].area == 7


def test_each_activation_is_exactly_one_action_and_the_card_goes_to_the_discard_pile() -> None:
    s = turn(position(unbroken=6), "red", "unbroken", "devoted")
    act(s, "red", "unbroken move 7")
    assert not [m for m in GAME.legal_actions(s, "red") if m.startswith("unbroken")]
    assert "unbroken" in names(s.players["red"].discard)
    assert "unbroken" not in names(s.players["red"].played)


def test_a_player_may_activate_those_fighters_a_played_cards_activation_may_be_declined() -> None:
    # The Caretaker guards blue's objective in 9 (Gallows Hill) alone: blue may leave it unactivated.
    s = turn(position(caretaker=9), "blue", "caretaker")
    s.fighters["caretaker"].stunned = True
    assert "caretaker idle" in GAME.legal_actions(s, "blue")
    text = act(s, "blue", "caretaker idle")
    assert "blue does not activate The Caretaker; its card is discarded." in text
    f = s.fighters["caretaker"]
    assert f.area == 9 and f.stunned  # not activated: still on its objective, and still stunned
    assert "caretaker" in names(s.players["blue"].discard) and not s.players["blue"].played


def test_a_played_cards_activation_under_rules_version_1_cannot_be_declined() -> None:
    s = turn(position(caretaker=9), "blue", "caretaker")
    del s.options["rules"]  # a game started under rules version 1 replays as it was played
    moves = GAME.legal_actions(s, "blue")
    assert moves and not [m for m in moves if m.endswith(" idle")]


def test_only_fighters_of_played_cards_activate() -> None:
    s = turn(position(), "red", "devoted")
    assert {m.split()[0] for m in GAME.legal_actions(s, "red")} == {"devoted"}


def test_move_is_into_an_adjacent_area() -> None:
    s = turn(position(unbroken=6), "red", "unbroken")
    moves = {m for m in GAME.legal_actions(s, "red") if " move " in m}
    assert moves == {f"unbroken move {n}" for n in (2, 5, 7, 10)}


def test_move_draws_opportunity_attacks_from_each_ready_enemy_in_the_order_their_owner_chooses(
    fixed: list[list[str]],
) -> None:
    s = turn(position(unbroken=7, butcher=7, digger=7, caretaker=7), "red", "unbroken")
    s.fighters["caretaker"].stunned = True  # a stunned fighter cannot make an opportunity attack
    text = act(s, "red", "unbroken move 6")
    assert s.phase == "opportunity" and GAME.to_act(s).seats == {"blue"}
    assert text[-1].endswith("opportunity attacks (The Caretaker is stunned: no opportunity attack).")
    assert set(GAME.legal_actions(s, "blue")) == {"oppose butcher", "oppose digger", "allow"}
    fixed += [["blank", "blank"], ["block", "block"]]  # the digger first: a miss
    act(s, "blue", "oppose digger")
    assert s.fighters["unbroken"].area == 7 and GAME.legal_actions(s, "blue") == ["oppose butcher", "allow"]
    act(s, "blue", "allow")
    assert s.fighters["unbroken"].area == 6 and (s.step, s.turn) == ("D1", "blue")  # red's turn is over


def test_opportunity_attack_that_damages_and_stuns_the_mover_stops_it_after_the_move(
    fixed: list[list[str]],
) -> None:
    s = turn(position(countess=7, butcher=7), "red", "countess")
    act(s, "red", "countess kiss")  # Blood Kiss: Move, then Melee
    act(s, "red", "move 6")
    fixed += [["hit", "hit", "hit"], ["blank", "blank", "blank"]]
    act(s, "blue", "oppose butcher")
    f = s.fighters["countess"]
    assert (f.area, f.stunned) == (6, True)  # it finishes the move ...
    assert s.phase != "special" and s.active is None  # ... and the melee of Blood Kiss is lost
    assert "countess" in names(s.players["red"].graveyard)


def test_melee_targets_an_enemy_in_its_own_area_only() -> None:
    s = turn(position(unbroken=7, butcher=7, digger=6), "red", "unbroken")
    melee = {m for m in GAME.legal_actions(s, "red") if " melee " in m}
    assert melee == {"unbroken melee butcher"}


def test_shoot_needs_sight_and_never_targets_its_own_area() -> None:
    s = turn(position(devoted=7, butcher=7, digger=6, mourner=11, ellis=3), "red", "devoted")
    shots = {m for m in GAME.legal_actions(s, "red") if " shoot " in m}
    # Area 7 sees 6 but not 11 (the shrine ruin) nor 3 (the chapel wall); the butcher shares its area.
    assert shots == {"devoted shoot digger"}
    assert C.sees(7, 6) and not C.sees(7, 11) and not C.sees(7, 3)


def _refused(s: DAState, seat: str, move: str) -> str:
    before = GAME.to_json(s)
    with pytest.raises(IllegalAction) as refusal:
        GAME.act(s, seat, move)
    assert GAME.to_json(s) == before
    return str(refusal.value)


def test_a_refused_melee_says_the_target_is_not_in_the_attackers_area() -> None:
    s = turn(position(countess=2, butcher=11, digger=2), "red", "countess")
    said = _refused(s, "red", "countess melee butcher")
    assert "The Butcher is in area 11 Lantern Hut, not in The Countess's area 2 Hollow Road" in said
    assert "activate a played card's fighter" not in said
    assert "Close legal moves: `countess melee digger`." in said


def test_a_refused_shot_says_the_target_is_out_of_sight_or_in_the_shooters_own_area() -> None:
    s = turn(position(devoted=7, mourner=11, butcher=7, digger=6), "red", "devoted")
    said = _refused(s, "red", "devoted shoot mourner")
    assert "out of The Devoted's sight from area 7" in said and "black line" in said
    assert "Close legal moves: `devoted shoot digger`." in said
    assert "shares The Devoted's area 7" in _refused(s, "red", "devoted shoot butcher")


def test_a_refused_move_says_the_area_is_not_adjacent_and_lists_the_adjacent_ones() -> None:
    s = turn(position(countess=2), "red", "countess")
    said = _refused(s, "red", "countess move 11")
    assert "Area 11 Lantern Hut is not next to The Countess's area 2 Hollow Road" in said
    moves = [f"`countess move {n}`" for n in C.neighbours(2)]
    assert f"Close legal moves: {', '.join(moves)}" in said


def test_a_refused_activation_of_an_unplayed_fighter_names_the_played_cards() -> None:
    s = turn(position(countess=2), "red", "countess")
    said = _refused(s, "red", "unbroken move 3")
    assert "not among your played cards (played: The Countess)" in said
    assert "`countess move 3`" in said


def test_line_of_sight_runs_designator_to_designator_and_a_black_line_blocks_it() -> None:
    assert not C.sees(3, 7) and not C.sees(7, 3)  # the chapel wall crosses the line both ways
    assert C.sees(1, 8)  # a long line that crosses no black line
    assert C.sees(5, 5)  # a fighter sees its own area


def test_fighters_never_block_line_of_sight() -> None:
    s = turn(position(devoted=1, butcher=2, digger=8), "red", "devoted")
    assert "devoted shoot digger" in GAME.legal_actions(s, "red")  # the butcher stands in between


def test_focus_gives_two_cards_in_its_area_or_one_to_a_friend_it_sees() -> None:
    s = turn(position(devoted=7, unbroken=7, hypnotist=6, countess=11), "red", "devoted", "devoted")
    before = len(s.players["red"].discard)
    act(s, "red", "devoted focus unbroken")
    assert len(s.players["red"].discard) - before == 3  # two gained cards and the played card
    assert len(s.players["red"].supply["unbroken"]) == 1
    act(s, "red", "devoted focus hypnotist")
    assert len(s.players["red"].supply["hypnotist"]) == 2
    assert "devoted focus countess" not in GAME.legal_actions(turn(s, "red", "devoted"), "red")  # unseen


def test_control_claims_an_enemy_objective_only_with_no_ready_enemy_there() -> None:
    s = turn(position(unbroken=9, caretaker=9), "red", "unbroken")
    assert "unbroken control" not in GAME.legal_actions(s, "red")
    s.fighters["caretaker"].stunned = True  # stunned fighters do not block Control
    text = act(s, "red", "unbroken control")
    assert [o.claimed_by for o in s.objectives if o.area == 9] == ["red"]
    assert any(t.endswith("(1 claimed); The Caretaker is stunned and cannot stop it.") for t in text), text


def test_a_move_past_only_stunned_enemies_says_why_no_opportunity_attack_comes() -> None:
    s = turn(position(unbroken=7, caretaker=7, digger=7), "red", "unbroken")
    s.fighters["caretaker"].stunned = s.fighters["digger"].stunned = True
    text = act(s, "red", "unbroken move 6")
    assert s.fighters["unbroken"].area == 6
    assert any(
        t.endswith("; The Caretaker and The Gravedigger are stunned: no opportunity attack.") for t in text
    ), text


def test_interact_from_the_scenario_sheet_heals_at_the_wayside_shrine() -> None:
    s = turn(position(unbroken=7), "red", "unbroken")
    s.players["red"].graveyard = ["unbroken#g"]
    act(s, "red", "unbroken interact")
    assert "unbroken#g" in s.players["red"].discard and not s.players["red"].graveyard


# ---- attacks -------------------------------------------------------------------------------------


def test_attack_misses_with_no_hits(fixed: list[list[str]]) -> None:
    s = turn(position(unbroken=7, digger=7), "red", "unbroken")
    fixed += [["block", "blank", "blank"], ["blank", "blank"]]
    act(s, "red", "unbroken melee digger")
    assert not s.fighters["digger"].stunned and s.last_attack["defences"][0]["hit"] is False


def test_attack_misses_when_blocks_outnumber_hits(fixed: list[list[str]]) -> None:
    s = turn(position(unbroken=7, digger=7), "red", "unbroken")
    fixed += [["hit", "blank", "blank"], ["block", "block"]]
    act(s, "red", "unbroken melee digger")
    assert not s.fighters["digger"].stunned


def test_attack_hits_when_hits_equal_blocks_then_damage_then_stun(fixed: list[list[str]]) -> None:
    s = turn(position(unbroken=7, digger=7), "red", "unbroken")
    fixed += [["hit", "hit", "blank"], ["block", "block"]]
    texts = act(s, "red", "unbroken melee digger")
    assert s.fighters["digger"].stunned and "digger" in names(s.players["blue"].graveyard)
    joined = " ".join(texts)
    assert "[hit hit blank]" in joined and "[block block]" in joined  # every die, face by face
    assert joined.index("graveyard") < joined.index("is stunned")
    # The words a player reads say the same: a block does not cancel a hit one for one.
    for term in ("block", "defence"):
        said = GAME.explain(term)
        assert "outnumber" in said or "more blocks than" in said, said


def test_multiple_targets_share_one_attack_roll_with_a_defence_roll_each(fixed: list[list[str]]) -> None:
    s = turn(position(butcher=6, unbroken=6, devoted=6), "blue", "butcher")
    act(s, "blue", "butcher cleave")
    fixed += [["hit", "blank", "blank"], ["blank", "blank"], ["block", "block"]]  # unbroken, then devoted
    act(s, "blue", "melee-all")
    rec = s.last_attack
    assert rec["attack"] == ["hit", "blank", "blank"] and len(rec["defences"]) == 2
    assert {d["target"]: d["hit"] for d in rec["defences"]} == {"unbroken": True, "devoted": False}


def test_multiple_attacks_resolve_one_by_one(fixed: list[list[str]]) -> None:
    s = turn(position(unbroken=7, digger=7), "red", "unbroken")
    s.fighters["unbroken"].sated = True
    act(s, "red", "unbroken frenzy")  # Melee; if sated, Melee again
    fixed += [["blank"] * 3, ["blank"], ["blank", "blank"]]
    act(s, "red", "melee digger")
    fixed += [["hit"] * 3, ["blank"], ["blank", "blank"]]
    act(s, "red", "melee digger")
    assert s.fighters["digger"].stunned and s.active is None


# ---- damage --------------------------------------------------------------------------------------


def test_damage_takes_a_card_from_hand_first_and_draws_a_replacement() -> None:
    s = position()
    p = s.players["blue"]
    p.hand, p.deck = ["digger#h", "butcher#h"], ["mourner#d", "digger#d"]
    rules.suffer_damage(s, C, "digger", Dice(1))
    assert p.graveyard == ["digger#h"] and names(p.hand) == ["butcher", "mourner"]


def test_damage_then_searches_the_deck_then_the_discard_pile() -> None:
    s = position()
    p = s.players["blue"]
    p.hand, p.deck, p.discard = ["butcher#h"], ["mourner#d", "digger#d"], ["digger#p"]
    rules.suffer_damage(s, C, "digger", Dice(1))
    assert p.graveyard == ["digger#d"] and p.hand == ["butcher#h"]
    rules.suffer_damage(s, C, "digger", Dice(1))
    assert p.graveyard == ["digger#d", "digger#p"]


def test_a_fighter_with_no_card_left_is_defeated_and_its_owner_takes_two_dread_cards() -> None:
    s = position()
    p = s.players["blue"]
    for pile in (p.hand, p.deck, p.discard):
        pile[:] = [c for c in pile if card_name(c) != "digger"]
    rules.suffer_damage(s, C, "digger", Dice(1))
    assert s.fighters["digger"].defeated
    assert names(p.discard).count("dread") == 2 and len(s.dread_pile) == 14


def test_option_dread_deck_shuffles_the_two_dread_cards_into_the_deck() -> None:
    # Suffering Damage says discard pile, the Dread Cards section "add to their deck": an option.
    s = GAME.setup(["red", "blue"], GAME.validate_options({"dread": "deck"}), 1)
    p = s.players["blue"]
    for pile in (p.hand, p.deck, p.discard):
        pile[:] = [c for c in pile if card_name(c) != "digger"]
    deck = len(p.deck)
    rules.suffer_damage(s, C, "digger", Dice(1))
    assert names(p.deck).count("dread") == 2 and len(p.deck) == deck + 2 and "dread" not in names(p.discard)


def test_option_deck_search_shuffle_shuffles_the_deck_after_damage_takes_a_card_from_it() -> None:
    orders = set()
    for seed in range(1, 8):
        s = GAME.setup(["red", "blue"], GAME.validate_options({"deck_search": "shuffle"}), 1)
        p = s.players["blue"]
        p.hand, p.deck = ["butcher#h"], [f"mourner#{i}" for i in range(6)] + ["digger#d"]
        rules.suffer_damage(s, C, "digger", Dice(seed))
        assert p.graveyard == ["digger#d"]
        orders.add(tuple(p.deck))
    assert len(orders) > 1  # the default keeps the order (test above: deck searched in place)


def test_the_private_move_menu_shows_the_whole_text_of_the_card_a_move_plays() -> None:
    s = turn(position(), "red", "devoted")
    text = GAME.action_text(s, "red", "devoted crossbow")
    assert "The Devoted" in text and "Heavy Crossbow" in text and "stand-in" in text
    s.phase = "play"
    assert "The Unbroken" in GAME.action_text(s, "red", "play countess unbroken")


def test_dread_cards_are_played_for_no_effect_or_returned_with_an_action() -> None:
    s = turn(position(), "red", "dread", "dread", "devoted")
    assert "dread" in GAME.legal_actions(s, "red") and "devoted return-dread" in GAME.legal_actions(s, "red")
    act(s, "red", "devoted return-dread")
    assert len(s.dread_pile) == 17 and "devoted" in names(s.players["red"].discard)
    act(s, "red", "dread")
    assert "dread" in names(s.players["red"].discard)


def test_a_defeated_fighters_card_is_played_for_nothing() -> None:
    s = turn(position(), "red", "devoted")
    s.fighters["devoted"].defeated = True
    assert GAME.legal_actions(s, "red") == ["devoted idle"]


# ---- graveyard, healing, withdraw ----------------------------------------------------------------


def test_heal_moves_a_card_from_the_graveyard_to_the_discard_pile_never_for_a_defeated_fighter() -> None:
    s = turn(position(caretaker=10, digger=10), "blue", "caretaker")
    s.players["blue"].graveyard = ["digger#g", "mourner#g"]
    act(s, "blue", "caretaker tend")
    assert GAME.legal_actions(s, "blue") == ["heal digger", "skip"]  # the mourner is not in its area
    act(s, "blue", "heal digger")
    assert s.players["blue"].graveyard == ["mourner#g"] and "digger#g" in s.players["blue"].discard
    s.fighters["mourner"].defeated = True
    assert not rules.can_heal(s, "mourner")


def test_withdraw_is_not_a_move_and_draws_no_opportunity_attacks() -> None:
    s = turn(position(mourner=7, unbroken=7), "blue", "mourner")
    act(s, "blue", "mourner keen")
    act(s, "blue", "withdraw 11")
    assert s.fighters["mourner"].area == 11 and s.phase == "special"  # no opportunity, on to Shoot
    assert s.move is None


# ---- keywords ------------------------------------------------------------------------------------


def test_resilient_is_stunned_but_loses_no_card_and_spends_its_next_activation_readying(
    fixed: list[list[str]],
) -> None:
    s = turn(position(unbroken=7, butcher=7), "red", "unbroken")
    grave = list(s.players["blue"].graveyard)
    fixed += [["hit"] * 3, ["blank"]]
    act(s, "red", "unbroken melee butcher")
    assert s.fighters["butcher"].stunned and s.players["blue"].graveyard == grave
    s = turn(s, "blue", "butcher", step="D1")
    assert GAME.legal_actions(s, "blue") == ["butcher recover", "butcher idle", "claim butcher"]
    act(s, "blue", "butcher recover")
    assert not s.fighters["butcher"].stunned


def test_vampire_is_sated_by_melee_damage_rolls_its_die_and_drain_essence_heals(
    fixed: list[list[str]],
) -> None:
    s = turn(position(unbroken=7, digger=7), "red", "unbroken", "unbroken")
    s.players["red"].graveyard = ["unbroken#g"]
    fixed += [["hit", "blank", "blank"], ["blank", "blank"]]
    act(s, "red", "unbroken melee digger")
    assert s.fighters["unbroken"].sated
    fixed += [["blank"] * 3, ["drain"], ["blank", "blank"]]  # sated: the vampire die joins the roll
    act(s, "red", "unbroken melee digger")
    assert s.players["red"].graveyard == ["unbroken#g"]  # drain needs damage this melee: no heal
    s = turn(s, "red", "unbroken")
    fixed += [["hit", "blank", "blank"], ["drain"], ["blank", "blank"]]
    act(s, "red", "unbroken melee digger")
    assert s.players["red"].graveyard == []  # Drain Essence healed it


def test_a_sated_vampire_loses_its_token_when_damaged_and_defends_with_the_vampire_die(
    fixed: list[list[str]],
) -> None:
    s = turn(position(unbroken=7, digger=7), "blue", "digger")
    s.fighters["unbroken"].sated = True
    fixed += [["hit", "hit"], ["block", "blank"], ["hit"]]  # digger 2 dice; unbroken 2 + vampire die
    act(s, "blue", "digger melee unbroken")
    assert not s.fighters["unbroken"].sated and s.fighters["unbroken"].stunned


# ---- victory -------------------------------------------------------------------------------------


def test_claiming_the_opponents_third_objective_ends_the_game_at_once() -> None:
    s = turn(position(unbroken=9), "red", "unbroken", "devoted")
    for o in s.objectives:
        if o.owner == "blue" and o.area in (8, 10):
            o.claimed_by = "red"
    act(s, "red", "unbroken control")
    out = GAME.outcome(s)
    assert out is not None and out.winners == {"red"} and GAME.to_act(s).seats == frozenset()


def test_stand_in_round_limit_gives_the_game_to_more_objectives_claimed() -> None:
    s = turn(position(), "blue", "digger", step="D2")
    s.round = C.scenarios["beaten-path"].round_limit
    s.objectives[0].claimed_by = "blue"
    act(s, "blue", "digger move 11")
    out = GAME.outcome(s)
    assert out is not None and out.winners == {"blue"}


# ---- notation, views, hidden cards ---------------------------------------------------------------


def test_every_legal_move_round_trips_and_lenient_forms_parse() -> None:
    s = turn(position(unbroken=7, digger=7), "red", "unbroken", "devoted")
    for m in GAME.legal_actions(s, "red"):
        assert GAME.parse(s, m) == m
    assert GAME.parse(s, "The Unbroken move Wayside-Shrine") == "unbroken move 7"
    assert GAME.parse(s, "play unbroken countess") == "play countess unbroken"
    for bad in ("", "fly away", "unbroken move 99", "play unbroken", "unbroken dance"):
        with pytest.raises(NotationError, match="A move reads like"):
            GAME.parse(s, bad)
    with pytest.raises(IllegalAction, match="Area 1 Crow Gate is not next to The Unbroken's area 7"):
        GAME.act(s, "red", "unbroken move 1")


def test_a_special_not_allowed_now_is_refused_as_the_fighters_special_and_says_why() -> None:
    # Beguile moves an enemy only while the Hypnotist is sated, then Shoots: from area 1 it sees
    # no enemy, so unsated it can do none of it (issue 39: "`beguile` is not an action").
    s = turn(position(hypnotist=1), "red", "hypnotist", "devoted")
    assert "hypnotist beguile" not in GAME.legal_actions(s, "red")
    for typed in ("hypnotist beguile ellis", "hypnotist beguile"):
        with pytest.raises(IllegalAction) as refused:
            GAME.act(s, "red", typed)
        said = str(refused.value)
        assert "Beguile is The Hypnotist's special" in said and "The Hypnotist is not sated" in said, said
        assert "`hypnotist idle`" in said  # the fighter's moves legal now follow


def test_a_special_typed_with_a_target_is_told_its_steps_ask_for_targets() -> None:
    s = turn(position(hypnotist=11), "red", "hypnotist", "devoted")
    s.fighters["hypnotist"].sated = True
    assert "hypnotist beguile" in GAME.legal_actions(s, "red")
    with pytest.raises(NotationError, match="its steps ask for them: `hypnotist beguile`"):
        GAME.act(s, "red", "hypnotist beguile ellis")


def test_a_typos_forms_are_only_those_of_moves_legal_now() -> None:
    # Activating cards: no claim (not the defender's moment here), no opportunity attack, no step.
    s = turn(position(countess=1), "red", "countess", "devoted")
    with pytest.raises(NotationError) as refused:
        GAME.act(s, "red", "countes move 2")
    said = str(refused.value)
    assert "`countes` is not a fighter" in said and "Legal now:" in said, said
    forms = said.split("A move reads like")[1].split("Legal now:")[0]
    assert "`<card> move <area>`" in forms
    for absent in ("claim", "oppose", "allow", "skip", "play <card>"):
        assert absent not in forms, forms
    assert "`claim <card>`" in GAME.rules_help()  # /game help keeps the whole list


def _forms_shown(s: DAState, seat: str) -> str:
    with pytest.raises(NotationError) as refused:
        GAME.act(s, seat, "zzqx")
    return str(refused.value).split("A move reads like ")[1].split(". Legal now:")[0]


def test_a_typo_at_a_specials_step_shows_that_steps_form_alone() -> None:
    s = turn(position(mourner=7, unbroken=7), "blue", "mourner")
    act(s, "blue", "mourner keen")  # Withdraw, then Shoot
    assert _forms_shown(s, "blue") == "`withdraw <area>` or `skip`"
    act(s, "blue", "withdraw 11")
    assert _forms_shown(s, "blue") == "`shoot <enemy>` or `skip`"


def test_a_typo_shows_the_form_of_every_action_a_fighter_may_take() -> None:
    s = turn(position(countess=1), "red", "countess")  # no enemy in sight or reach: no melee, no shoot
    assert {m.split()[1] for m in GAME.legal_actions(s, "red")} == {"move", "focus", "kiss", "idle"}
    assert _forms_shown(s, "red") == (
        "`<card> move <area>`, `<card> focus <fighter>`, `<card> idle` or `<card> <special>`"
    )


def test_a_fighter_is_typed_by_the_name_players_read() -> None:
    s = turn(position(unbroken=7, digger=7), "red", "unbroken", "devoted")
    assert GAME.parse(s, "unbroken melee gravedigger") == "unbroken melee digger"
    assert GAME.parse(s, "shoot The Gravedigger") == "shoot digger"
    assert GAME.parse(s, "claim gravedigger") == "claim digger"
    with pytest.raises(
        NotationError, match=r"`grave` is not a fighter.*Legal now: .*`unbroken melee digger`"
    ):
        GAME.act(s, "red", "unbroken melee grave")


def test_dread_says_it_is_stand_in_once_in_players_words() -> None:
    text = GAME.card_text("dread")
    assert text.count("stand-in") == 1 and "wording" not in text
    assert text.startswith("**Dread** (stand-in): Play it for no effect")


def test_views_show_only_your_own_hand_and_never_deck_order() -> None:
    s = GAME.setup(["red", "blue"], GAME.validate_options({}), 9)
    red, blue, watcher = (GAME.view(s, seat) for seat in ("red", "blue", None))
    assert red["players"]["red"]["hand"] == s.players["red"].hand and red["players"]["blue"]["hand"] is None
    assert watcher["players"]["red"]["hand"] is None and "deck" not in watcher["players"]["red"]
    text = str(blue) + GAME.describe(blue)
    assert not any(c in text for c in GAME.secrets(s, "red"))
    assert "Heavy Crossbow" in GAME.describe(red) or "Frenzy" in GAME.describe(red) or s.players["red"].hand


def test_a_sampled_state_keeps_everything_the_seat_sees() -> None:
    s = GAME.setup(["red", "blue"], GAME.validate_options({}), 4)
    view = GAME.view(s, "red")
    sample = GAME.sample_state(view, "red", Dice(3))
    assert sample is not None
    assert GAME.view(sample, "red")["players"]["red"]["hand"] == view["players"]["red"]["hand"]
    assert (
        names(sample.players["blue"].hand + sample.players["blue"].deck) == view["players"]["blue"]["unseen"]
    )
    assert GAME.legal_actions(sample, "red") == GAME.legal_actions(s, "red")


def test_the_bot_never_reads_the_other_hand() -> None:
    # Two states alike but for which of blue's cards are in hand and which in the deck.
    one = GAME.setup(["red", "blue"], GAME.validate_options({}), 2)
    two = GAME.copy(one)
    b = two.players["blue"]
    b.hand, b.deck = b.deck[:4], b.hand + b.deck[4:]
    assert names(one.players["blue"].hand) != names(b.hand)
    picks = {GAME.choose_action(s, "red", "easy", Dice(5)) for s in (one, two)}
    assert len(picks) == 1


def test_the_round_limit_is_declared_and_near_from_the_last_two_rounds() -> None:
    # The host lists it in /game status and announces it once as it comes near (tests/bot).
    s = position()
    (limit,) = [x for x in GAME.limits(s) if x.now.startswith("Round")]
    assert limit.line().startswith("Round 1 of 12: the game ends after round 12")
    assert "equal objectives are a draw" in limit.rule and not limit.near
    s.round = 9
    assert not next(x for x in GAME.limits(s) if x.now.startswith("Round")).near
    s.round = 10
    (limit,) = [x for x in GAME.limits(s) if x.now.startswith("Round")]
    assert limit.near and limit.now == "Round 10 of 12"


def test_objectives_to_claim_are_declared_and_near_one_claim_from_the_win() -> None:
    s = position()
    red = next(x for x in GAME.limits(s) if x.now.startswith("red"))
    assert red.end == C.scenarios[s.scenario].claim_to_win and red.value == 0 and not red.near
    blues = [o for o in s.objectives if o.owner == "blue"]
    for o in blues[: red.end - 1]:
        o.claimed_by = "red"
    red = next(x for x in GAME.limits(s) if x.now.startswith("red"))
    assert red.near and red.value == red.end - 1


def test_the_status_names_the_played_cards_as_players_know_them() -> None:
    s = turn(position(unbroken=7), "red", "unbroken", "dread")
    text = GAME.describe(GAME.view(s, "blue"))
    assert "played: The Unbroken, a dread card." in text


def test_a_verb_typed_without_its_word_is_told_the_form_it_takes() -> None:
    game = get_game("dire-alliance")
    state = game.setup(game.seat_names({}), game.validate_options({}), 3)
    seat = sorted(game.to_act(state).seats)[0]
    for typed, form in (("heal", "`heal <fighter>`"), ("push", "`push <fighter> <area>`")):
        with pytest.raises(NotationError) as refused:
            game.act(state, seat, typed)
        assert form in str(refused.value), str(refused.value)
