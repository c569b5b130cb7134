"""Ignite setup and player-side rules: player counts, difficulty, cards, damage, respawn, outcome."""

from __future__ import annotations

import json

import pytest

from engine.errors import IllegalAction, OptionError
from engine.game import rules_of
from games.ignite import phases
from games.ignite.board import parse_square
from games.ignite.content import load_content
from games.ignite.game import Ignite
from games.ignite.state import IgniteState
from games.ignite.units import damage_dragon, damage_unit
from tests.games.ignite.positions import hand, minion, open_field, put

G = Ignite()


def make(
    seats: tuple[str, ...] = ("stoneborn",),
    difficulty: str = "hard",
    seed: int = 1,
    favor: str = "off",
    respawn: str = "own-turn",
) -> IgniteState:
    return open_field(seats, seed, difficulty=difficulty, favor_prompts=favor, respawn=respawn)


def test_units_per_player_count() -> None:
    assert len(make(("stoneborn",)).field.units) == 3
    two = make(("stoneborn", "windkin"))
    assert [u.seat for u in two.field.units].count("windkin") == 2
    assert len(make(("stoneborn", "windkin", "sagekin")).field.units) == 3


def test_ratmen_get_twice_the_units() -> None:
    assert len(make(("ratmen",)).field.units) == 6
    assert [u.seat for u in make(("ratmen", "windkin")).field.units].count("ratmen") == 4
    assert [u.seat for u in make(("ratmen", "windkin", "sagekin")).field.units].count("ratmen") == 2


def test_units_start_in_the_bottom_village() -> None:
    st = make(("stoneborn", "windkin"))
    assert all(u.pos[1] == 17 for u in st.field.units)


@pytest.mark.parametrize(
    ("difficulty", "favor", "free"),
    [
        ("easy", 5, 5),
        ("sensible", 4, 4),
        ("regular", 3, 3),
        ("hard", 2, 0),
        ("expert", 1, 0),
        ("insanity", 0, 0),
    ],
)
def test_difficulty_sets_divine_favor_and_free_turns(difficulty: str, favor: int, free: int) -> None:
    st = G.setup(["stoneborn"], {"difficulty": difficulty, "placement": "auto"}, 3)
    assert st.divine_favor == favor
    assert st.free_left == free
    assert (st.round, st.phase) == ((0, "free") if free else (1, "player"))


def test_starting_deck_is_5_march_4_dagger_3_shield_and_hand_of_6() -> None:
    st = make()
    cards = st.cards["stoneborn"]
    names = [st.card_names[c] for c in cards.hand + cards.deck]
    assert len(cards.hand) == 6
    assert (names.count("march"), names.count("dagger"), names.count("old wooden shield")) == (5, 4, 3)


def test_free_turns_come_before_round_1() -> None:
    st = G.setup(["stoneborn", "windkin"], {"difficulty": "regular", "placement": "auto"}, 5)
    for _ in range(3 * 2 - 1):
        seat = next(iter(G.to_act(st).seats))
        G.act(st, seat, "end")
        assert st.round == 0
    G.act(st, "windkin", "end")
    assert (st.round, st.phase, st.seats[st.turn]) == (1, "player", "stoneborn")
    assert st.field.minions == []  # no enemy phase ran during the free turns


def test_end_discards_and_draws_back_to_six() -> None:
    st = make(("stoneborn", "windkin"))
    G.act(st, "stoneborn", "honor march")
    assert len(st.cards["stoneborn"].hand) == 5
    G.act(st, "stoneborn", "end")
    assert len(st.cards["stoneborn"].hand) == 6
    assert st.seats[st.turn] == "windkin"


def test_play_for_honor_then_buy_on_a_village_space() -> None:
    st = make()
    hand(st, "stoneborn", "march", "march", "dagger")
    G.act(st, "stoneborn", "honor march")
    G.act(st, "stoneborn", "honor march")
    G.act(st, "stoneborn", "buy arrow")
    assert st.honor == 0 and st.market["arrow"] == 4
    assert "arrow" in [st.card_names[c] for c in st.cards["stoneborn"].discard]


def test_buying_needs_a_unit_on_village_or_bazaar() -> None:
    st = make()
    for i, u in enumerate(st.field.units):
        u.pos = (3 + i, 5)  # grass
    hand(st, "stoneborn", "march", "march")
    G.act(st, "stoneborn", "honor march")
    G.act(st, "stoneborn", "honor march")
    with pytest.raises(IllegalAction, match="village"):
        G.act(st, "stoneborn", "buy arrow")
    st.field.units[0].pos = (8, 8)  # bazaar
    G.act(st, "stoneborn", "buy arrow")


def test_march_moves_two_spaces_and_snow_costs_two() -> None:
    st = make()
    hand(st, "stoneborn", "march")
    put(st, "St1", "c10")
    st.field.set_terrain(parse_square("c9"), "snow")
    legal = {str(a) for a in G.legal_actions(st, "stoneborn")}
    assert "play march St1 c8" in legal  # around the snow on the diagonal
    assert "play march St1 c12" in legal
    assert "play march St1 c7" not in legal
    G.act(st, "stoneborn", "play march St1 c8")
    assert st.field.units[0].pos == parse_square("c8")


def test_dagger_does_half_damage_two_halves_kill() -> None:
    st = make()
    hand(st, "stoneborn", "dagger", "dagger")
    put(st, "St1", "e10")
    m = minion(st, "e9")
    G.act(st, "stoneborn", "play dagger St1 e9")
    assert m in st.field.minions and m.half_damage
    G.act(st, "stoneborn", "play dagger St1 e9")
    assert m not in st.field.minions


def test_minions_take_two_damage_at_five_players() -> None:
    st = make(("stoneborn", "windkin", "sagekin", "skyfolk", "mendfolk"))
    hand(st, "stoneborn", "ring blade", "ring blade")
    put(st, "St1", "e10")
    m = minion(st, "e9")
    G.act(st, "stoneborn", "play ring blade St1 e9")
    assert m in st.field.minions and m.damage == 1
    G.act(st, "stoneborn", "play ring blade St1 e9")
    assert m not in st.field.minions


def test_village_units_take_one_extra_damage() -> None:
    st = make()
    unit = st.field.units[0]
    put(st, unit.id, "a18")
    damage_unit(st, unit, 1, [], "test")
    assert unit.health == unit.max_health - 2
    put(st, unit.id, "e10")
    damage_unit(st, unit, 1, [], "test")
    assert unit.health == unit.max_health - 3


def test_global_effects_hit_allies() -> None:
    st = make(("stoneborn", "windkin"))
    hand(st, "stoneborn", "ring of fire")
    put(st, "St1", "e10")
    put(st, "Wi1", "f10")
    m = minion(st, "e9")
    G.act(st, "stoneborn", "play ring of fire St1")
    assert m not in st.field.minions
    assert st.field.unit("Wi1").health == 2


def test_heal_reaches_an_ally_at_range_1() -> None:
    st = make(("stoneborn", "windkin"))
    hand(st, "stoneborn", "conditioning")
    put(st, "St1", "e10")
    put(st, "Wi1", "f11")
    st.field.unit("Wi1").health = 1
    G.act(st, "stoneborn", "play conditioning St1 f11")
    assert st.field.unit("Wi1").health == 2


def test_flail_knocks_down_and_ice_wall_immobilizes_minions() -> None:
    st = make(("stoneborn", "windkin", "sagekin", "skyfolk", "mendfolk"))
    hand(st, "stoneborn", "flail", "ice wall")
    put(st, "St1", "e10")
    m = minion(st, "e9")
    G.act(st, "stoneborn", "play flail St1 e9")
    assert m.knocked_down
    G.act(st, "stoneborn", "play ice wall St1 e9")
    assert m.immobilized


def test_hex_card_cannot_be_played() -> None:
    st = make()
    hand(st, "stoneborn", "hex")
    assert [str(a) for a in G.legal_actions(st, "stoneborn")] == ["end"]
    with pytest.raises(IllegalAction, match="Hex"):
        G.act(st, "stoneborn", "honor hex")


def test_loss_threshold_one_player_three_units() -> None:
    st = make()
    for unit in list(st.field.units)[:2]:
        damage_unit(st, unit, 9, [], "test")
    assert G.outcome(st) is None
    damage_unit(st, st.field.units[0], 9, [], "test")
    out = G.outcome(st)
    assert out is not None and out.losers == {"stoneborn"} and not out.winners


@pytest.mark.parametrize(("players", "threshold"), [(2, 4), (3, 3), (4, 2), (5, 3), (6, 2), (7, 3), (8, 2)])
def test_loss_threshold_by_player_count(players: int, threshold: int) -> None:
    races = ("stoneborn", "windkin", "sagekin", "skyfolk", "mendfolk", "hornclad", "emberfolk", "ratmen")
    st = make(races[:players])
    assert G.view(st, None)["loss_threshold"] == threshold


def test_ratmen_count_half_a_unit_and_the_first_respawns() -> None:
    st = make(("ratmen", "stoneborn", "windkin"))  # loss at 3 units
    rats = [u for u in st.field.units if u.seat == "ratmen"]
    damage_unit(st, rats[0], 9, [], "test")
    assert st.lost_halves == 1 and st.respawn_queue == ["ratmen:Ra1"]
    damage_unit(st, rats[1], 9, [], "test")
    assert st.lost_halves == 2 and st.respawn_queue == ["ratmen:Ra1"]


def test_respawn_at_chosen_bottom_corner_with_full_health() -> None:
    st = make(("stoneborn", "windkin", "sagekin"), respawn="phase-start")
    sky = st.field.unit("Wi1")
    damage_unit(st, sky, 9, [], "test")
    st.field.units.append(type(sky)("blocker", "x", "x", (17, 17), 1, 1))
    phases.start_player_phase(st, load_content(), [])
    turn = G.to_act(st)
    assert turn.decision == "respawn" and turn.seats == {"windkin"} and turn.default == "respawn left"
    G.act(st, "windkin", "respawn right")
    back = st.field.unit("Wi1")
    assert back.pos == (16, 17) and back.health == back.max_health


def test_respawn_own_turn_is_chosen_as_that_players_turn_begins() -> None:
    """Option respawn=own-turn: the respawn opens the player's own turn, not the Player Phase."""
    st = make(("stoneborn", "windkin", "sagekin"))
    damage_unit(st, st.field.unit("Wi1"), 9, [], "test")
    phases.start_player_phase(st, load_content(), [])
    assert G.to_act(st) == G.to_act(st).__class__(frozenset({"stoneborn"}))  # stoneborn plays first
    G.act(st, "stoneborn", "end")
    turn = G.to_act(st)
    assert turn.decision == "respawn" and turn.seats == {"windkin"}
    G.act(st, "windkin", "respawn left")
    assert st.field.unit("Wi1").pos == (0, 17) and G.to_act(st).decision is None
    assert G.to_act(st).seats == {"windkin"}  # the same player's turn goes on


def test_killing_the_dragon_wins() -> None:
    from games.ignite.board import Dragon

    st = make()
    st.field.dragon = Dragon((5, 5))
    damage_dragon(st, 2, [])
    assert G.outcome(st) is None
    damage_dragon(st, 1, [])
    out = G.outcome(st)
    assert out is not None and out.winners == {"stoneborn"}


def test_dragon_is_immune_to_pure_fire_spells() -> None:
    from games.ignite.board import Dragon

    st = make()
    hand(st, "stoneborn", "ring of fire", "fire arrow")
    put(st, "St1", "e10")
    st.field.dragon = Dragon(parse_square("e9"))
    G.act(st, "stoneborn", "play ring of fire St1")
    assert st.field.dragon.health == 3
    put(st, "St1", "e12")
    G.act(st, "stoneborn", "play fire arrow St1 e9")
    assert st.field.dragon.health == 2


def test_hands_are_secret() -> None:
    st = make(("stoneborn", "windkin"))
    mine = G.secrets(st, "stoneborn")
    assert len(mine) == 6
    text = json.dumps(G.view(st, "windkin")) + json.dumps(G.view(st, None))
    assert not any(cid in text for cid in mine)
    assert {c["id"] for c in G.view(st, "stoneborn")["hand"]} == mine
    assert G.view(st, None)["hand"] is None


# Sixteen battle decks we have: the suggested market with Jinx for Quick Hands.
SIXTEEN = [*load_content().market.suggested[:15], "jinx"]


def test_choose_16_battle_decks_to_form_the_market() -> None:
    """Choosing the Battle Card Market: "Choose 16 battle decks to form the market." A custom
    market names 16; another size is refused unless the group names the house rule."""
    assert len(load_content().market.suggested) == 16
    opts = G.session_options({"market": ", ".join(SIXTEEN), "placement": "auto"})
    assert opts["market_size"] == "16"
    st = G.setup(["stoneborn"], opts, 1)
    assert sorted(st.market) == sorted(SIXTEEN)
    with pytest.raises(OptionError, match="market is 16 battle decks; this one lists 3"):
        G.session_options({"market": "arrow, long bow,unicorn"})
    with pytest.raises(OptionError, match="lists 17"):
        G.session_options({"market": ",".join([*SIXTEEN, "thunderclap"])})


def test_market_size_any_is_the_house_rule_for_a_custom_market_of_another_size() -> None:
    opts = G.session_options({"market": "arrow, long bow,unicorn", "market_size": "any", "placement": "auto"})
    assert opts["market"] == "arrow,long bow,unicorn"
    st = G.setup(["stoneborn"], opts, 1)
    assert set(st.market) == {"arrow", "long bow", "unicorn"}
    with pytest.raises(OptionError, match="exclude"):
        G.session_options({"market": "arrow,kraken", "market_size": "any"})
    with pytest.raises(OptionError, match="not a battle deck"):
        G.session_options({"market": "arrow,banana", "market_size": "any"})


def test_market_version_1_game_keeps_its_custom_market_of_1_to_16_decks() -> None:
    """A game opened under rules version 1 with a smaller custom market (its stored options lack
    the version and market_size) is read and set up again as it was opened."""
    stored = {"market": "arrow,long bow,unicorn", "placement": "auto"}
    assert G.validate_options(stored)["market"] == "arrow,long bow,unicorn"
    st = G.setup(["stoneborn"], {**stored, "rules": "1"}, 1)
    assert set(st.market) == {"arrow", "long bow", "unicorn"} and rules_of(st.options) == 1


def test_respawns_at_the_beginning_of_the_next_player_phase_by_default() -> None:
    """How to Win note: the player respawns a unit "at the beginning of the next Player Phase":
    the default asks it before the first turn, even when that player plays later."""
    st = G.setup(["stoneborn", "windkin", "sagekin"], G.validate_options({"placement": "auto"}), 1)
    assert st.options["respawn"] == "phase-start"
    damage_unit(st, st.field.unit("Wi1"), 9, [], "test")
    phases.start_player_phase(st, load_content(), [])
    turn = G.to_act(st)
    assert turn.decision == "respawn" and turn.seats == {"windkin"} and st.turn == 0  # stoneborn's turn


def test_respawn_own_turn_is_the_option_pace_async_chooses() -> None:
    assert G.validate_options({"pace": "async"})["respawn"] == "own-turn"
    assert G.validate_options({"pace": "async", "respawn": "phase-start"})["respawn"] == "phase-start"
    assert G.validate_options({"respawn": "own-turn"})["respawn"] == "own-turn"


def test_respawn_version_1_default_stays_own_turn() -> None:
    """A game started under rules version 1 keeps the default it was played with: own-turn."""
    assert G.validate_options({"rules": "1"})["respawn"] == "own-turn"
    assert G.validate_options({"rules": "1", "respawn": "phase-start"})["respawn"] == "phase-start"


def test_notation_is_lenient_and_round_trips() -> None:
    st = make()
    a = G.parse(st, "  PLAY Old-Wooden-Shield St1 ")
    assert str(a) == "play old wooden shield St1"
    assert G.parse(st, str(a)) == a
    assert str(G.parse(st, "play march St1 C17")) == "play march St1 c17"


def test_power_card_effects_on_players_cost_and_movement() -> None:
    st = make()
    hand(st, "stoneborn", "march")
    put(st, "St1", "e10")
    st.in_effect = ["toll gate", "sticky mud"]
    assert G.view(st, "stoneborn")["market"][0]["cost"] == 3  # arrow 2 + 1
    legal = {str(a) for a in G.legal_actions(st, "stoneborn")}
    assert "play march St1 e11" in legal and "play march St1 e12" not in legal


def test_legal_list_stays_small_for_six_ratmen() -> None:
    st = make(("ratmen",))
    for i, u in enumerate(st.field.units):
        u.pos = (2 + 3 * i, 5 + (i % 2) * 6)
    hand(st, "ratmen", "unicorn", "march", "long bow", "dagger", "conditioning", "ring of fire")
    assert len(G.legal_actions(st, "ratmen")) < 500


def test_loss_count_is_a_limit_near_one_unit_from_it() -> None:
    st = make(("ratmen", "stoneborn", "windkin"))  # loss at 3 units
    (limit,) = G.limits(st)
    assert limit.line().startswith("Units lost: 0 of 3: the players lose when 3 units are lost")
    assert not limit.near
    rats = [u for u in st.field.units if u.seat == "ratmen"]
    damage_unit(st, rats[0], 9, [], "test")  # half a unit
    damage_unit(st, st.field.unit("St1"), 9, [], "test")
    (limit,) = G.limits(st)
    assert limit.now == "Units lost: 1.5 of 3" and not limit.near
    damage_unit(st, rats[1], 9, [], "test")
    (limit,) = G.limits(st)
    assert limit.now == "Units lost: 2 of 3" and limit.near
