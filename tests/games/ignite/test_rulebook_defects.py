"""Six places where the engine once departed from the rulebook (issue 12), and the reading of
Rule 4's "nearest" taken with the rulebook's examples: each a small position that the old code
got wrong."""

from __future__ import annotations

from games.ignite import phases, spawn_steps
from games.ignite.board import Dragon, parse_square, square_name
from games.ignite.cards import new_card
from games.ignite.content import load_content
from games.ignite.enemies import move_and_attack
from games.ignite.enemy_cards import load_enemy_cards
from games.ignite.enemy_stats import PhaseModifiers
from games.ignite.game import Ignite
from games.ignite.state import IgniteState
from tests.games.ignite.positions import minion, open_field, put

G = Ignite()
C = load_content()
CARDS = load_enemy_cards()
MODS = PhaseModifiers()


def make(seats: tuple[str, ...] = ("stoneborn",), **terrain: str) -> IgniteState:
    st = open_field(seats, ties="players")
    for sq, kind in terrain.items():
        st.field.set_terrain(parse_square(sq), kind)
    return st


def park(st: IgniteState, *keep: str) -> None:
    """Every unit but `keep` goes to the far bottom corner row, out of the way."""
    spots = iter(["q18", "r18", "r17", "q17", "p18", "p17"])
    for u in st.field.units:
        if u.id not in keep:
            u.pos = parse_square(next(spots))


def run(st: IgniteState, *ids: str) -> list[str]:
    """The movement step of an Enemy Phase for these enemies; the texts it posts."""
    st.phase = "enemy"
    st.ep = {"step": "move", "order": list(ids)}
    events: list = []
    phases.run_enemy_phase(st, C, events)
    return [e.text for e in events]


def raise_shield(st: IgniteState, seat: str, uid: str) -> None:
    st.cards[seat].hand = [new_card(st, "old wooden shield")]
    G.act(st, seat, f"play old wooden shield {uid}")


# ---- 1. Rule 1 note: through other minions, to the best free end square -------------------------


def test_rule1_note_a_minion_whose_stop_is_taken_ends_on_an_equally_close_free_square() -> None:
    # The position: green (range 1, movement 2) at f4, a minion standing on f6, the unit
    # at f12. Stopping on f5 would waste a point of movement; e6 and g6 are free and as close.
    st = make()
    put(st, "St1", "f12")
    park(st, "St1")
    minion(st, "f6", "black")
    m = minion(st, "f4")
    run(st, m.id)
    # Clockwise of the two (Rule 6's tie), heading down: g6.
    assert square_name(m.pos) == "g6"
    assert st.last_moves[-1]["path"] == ["f4", "f5", "g6"]  # the whole path, from its start


# ---- 2. Step 2a: the Round card is shown ---------------------------------------------------------


def test_step_2a_the_round_card_is_shown_with_every_face_before_the_d6_is_weighed() -> None:
    st = G.setup(
        ["stoneborn", "windkin"], {"difficulty": "hard", "placement": "auto", "favor_asks": "every"}, 4
    )
    G.act(st, "stoneborn", "end")
    _, events = G.act(st, "windkin", "end")
    while st.pending is not None and st.ep.get("step") != "symbols":  # past the Power card
        events += G.act(st, "stoneborn", "keep")[1]
    # Paused on the D6: may the group spend a divine favor token on a reroll?
    assert st.pending is not None and st.pending["what"] == "roll"
    card = G.view(st, None)["round_card"]
    assert card["name"].startswith("Round card 1 (2-6 players, stand-in)")
    assert set(card["faces"]) == {"1", "2", "3", "4", "5", "6"}
    shown = next(e.text for e in events if e.kind == "round_card")
    assert all(f"{face}: {text}" in shown for face, text in card["faces"].items())
    assert "Round card 1" in G.describe(G.view(st, "stoneborn"))  # /game status


# ---- 3. Rule 7 and Rule 8 examples: fire measured to the nearest forest square ------------------


def test_rule7_example_fire_arrow_stops_once_in_range_of_the_nearest_forest_square() -> None:
    st = make(**{f"f{r}": "forest" for r in range(8, 13)})
    put(st, "St1", "f12")
    park(st, "St1")
    red = minion(st, "f3", "red")  # fire arrow, range 2-4, movement 2
    run(st, red.id)
    # f4 is 4 from f8, the forest's nearest square: it stops there and sets the forest ablaze
    # (before, it measured to f12, walked on to f5 and could not reach).
    assert square_name(red.pos) == "f4"
    unit = st.field.unit("St1")
    assert unit.health == unit.max_health - 1


def test_rule8_example_fire_attacks_a_forest_in_range_holding_two_units() -> None:
    st = make(("stoneborn", "windkin", "sagekin"), **{f"{c}10": "forest" for c in "jklmn"})
    put(st, "St1", "e10")
    put(st, "Wi1", "m10")
    put(st, "Sa1", "n10")
    red = minion(st, "h8", "red")
    res = move_and_attack(st.field, red.id, CARDS, MODS)
    # j10 (3 away) is in range; m10 and n10 themselves are 5 and 6 away.
    assert res.moved_path == [] and res.unit_damage == {"Wi1": 1, "Sa1": 1}


# ---- 4. Shields inside attack resolution ---------------------------------------------------------


def test_shield_is_spent_once_inside_the_enemy_attack_and_told_once() -> None:
    st = make()
    put(st, "St1", "e18")  # the village: 1 damage + 1
    park(st, "St1")
    unit = st.field.unit("St1")
    unit.health = 2
    raise_shield(st, "stoneborn", "St1")
    white = minion(st, "e17", "white")  # melee, 1 damage
    texts = run(st, white.id)
    # 2 damage, 1 soaked by the shield: 1 taken, and it lives. Before, the post said it took 2
    # and was defeated, then that the shield soaked 1, and it lived.
    told = " ".join(texts)
    assert "defeated" not in told and told.count("takes") == 1
    assert "St1's shield soaks 1 and it takes 1 damage" in told
    assert unit.health == 1 and unit in st.field.units and unit.shield == 0


def test_rule8_most_damage_counts_what_a_shield_will_soak() -> None:
    st = make(("stoneborn", "windkin"))
    put(st, "St1", "f3")
    put(st, "Wi1", "j1")  # the village: 1 + 1 damage, but its shield soaks both
    st.field.unit("Wi1").shield = 2
    black = minion(st, "h3", "black")  # arrow, range 2-4: both in range
    res = move_and_attack(st.field, black.id, CARDS, MODS)
    assert res.unit_damage == {"St1": 1}


def test_elder_dragon_sees_a_shielded_unit_survive_and_does_not_fly_off() -> None:
    st = make(("stoneborn", "windkin"))
    put(st, "St1", "h8")
    put(st, "Wi1", "h16")
    near = st.field.unit("St1")
    near.health = 1
    raise_shield(st, "stoneborn", "St1")
    st.field.dragon = Dragon(parse_square("h5"))
    st.dragon_spawned = True
    for sq in ("a2", "b2", "c2"):
        minion(st, sq)  # the three he sacrifices for his actions
    texts = " ".join(run(st, "dragon"))
    # First attack: the shield soaks it, the unit lives, so he attacks again (and kills it);
    # only then may he fly on toward Wi1 with his last action.
    assert near not in st.field.units
    assert texts.count("Attacks:") == 2
    assert st.field.dragon is not None and st.field.dragon.pos != parse_square("h5")


# ---- 5. Catapult --------------------------------------------------------------------------------


def test_catapult_targets_the_closest_targetable_unit_not_the_most_damage() -> None:
    st = make(("stoneborn", "windkin"))
    put(st, "St1", "i12")  # 3 away
    put(st, "Wi1", "f18")  # 6 away, on the village: 3 + 1 damage
    cart = minion(st, "f12", "black", catapult=True, catapult_pos=parse_square("f11"))
    res = move_and_attack(st.field, cart.id, CARDS, MODS)
    assert res.moved_path == [] and res.attacked == [parse_square("i12")]


def test_catapult_never_shares_a_square_with_another_minion() -> None:
    st = make()
    put(st, "St1", "f16")
    park(st, "St1")
    other = minion(st, "f6", "black", can_act=False)
    cart = minion(st, "f5", "white", catapult=True, catapult_pos=parse_square("f4"))
    run(st, cart.id)
    # Before, the carrier walked through f6 to f7 and its catapult followed onto f6, where the
    # black minion stands. A catapult cannot pass through minions: they go round.
    assert cart.catapult_pos is not None and cart.catapult_pos != other.pos
    assert cart.pos != other.pos and cart.pos[1] == parse_square("f7")[1]
    squares = [m.pos for m in st.field.minions] + [
        m.catapult_pos for m in st.field.minions if m.catapult_pos is not None
    ]
    assert len(squares) == len(set(squares))


# ---- 6. Out of bases: the next level down the Round card -----------------------------------------


def test_step_2b_note_out_of_bases_the_next_level_down_the_round_card_spawns() -> None:
    # The case: the 2-6 deck in round 19, face 5 "blue 6" with five blue bases: the
    # sixth minion is of the type on the next level down, face 6 (red), not the next colour.
    st = make(("stoneborn", "windkin"))
    st.round = 19
    st.phase = "enemy"
    st.ep = {"step": "place", "spawns": [["blue", 6]], "d6": 5, "d20": 2}
    phases.run_enemy_phase(st, C, [])
    assert sorted(m.colour for m in st.field.minions) == ["blue"] * 5 + ["red"]


def test_step_2b_note_the_bottom_level_wraps_to_the_top_of_the_card() -> None:
    st = make(("stoneborn", "windkin"))
    st.round = 19
    for col in "abcde":
        minion(st, f"{col}5", "red")
    card = C.rounds["2-6"][18]
    # Face 6 is "3 red, 2 purple": no red base left, so its reds become face 1's purple.
    out = spawn_steps.spawn_list(st, C, [["red", 3], ["purple", 2]], card, 6)
    assert out == [("purple", 1)] * 5


# ---- Rule 4's "nearest", read with the rulebook's examples ---------------------------------------


def test_rule6_note_nearest_is_measured_along_the_way_so_a_walled_off_unit_is_farther() -> None:
    # Both units are 7 away as the crow flies, but a wall (a7-g7... a8-g8) stands between the
    # minion and b10: it needs far more movement to get next to b10 than to j10.
    st = make(("stoneborn", "windkin"), **{f"{c}8": "rock" for c in "abcdefg"})
    put(st, "St1", "b10")
    put(st, "Wi1", "j10")
    m = minion(st, "f3")
    res = move_and_attack(st.field, m.id, CARDS, MODS)
    assert res.needs_choice is None  # before: a tie, by king distance, handed to the players
    assert "Wi1" in " ".join(res.trace)
    assert "along the way it would walk" in G.rules_help()


def test_rule4_note_equal_walking_distance_is_still_the_players_choice() -> None:
    st = make(("stoneborn", "windkin"))
    put(st, "St1", "c12")
    put(st, "Wi1", "k12")
    m = minion(st, "g4")
    res = move_and_attack(st.field, m.id, CARDS, MODS)
    assert res.needs_choice is not None and res.needs_choice.options == ["target:c12", "target:k12"]


def test_magical_fire_ring_still_closes_on_a_unit_deep_in_a_forest() -> None:
    st = make(**{f"{c}{r}": "forest" for c in "fghij" for r in (10, 11, 12)})
    st.field.bazaar_destroyed = True  # its attack is now the 5×5 ring of fire
    put(st, "St1", "j12")
    park(st, "St1")
    m = minion(st, "j8", "orange")  # 2 from the forest's edge, 4 from the unit
    m.level = 2
    run(st, m.id)
    unit = st.field.unit("St1")
    assert square_name(m.pos) == "j10" and unit.health == unit.max_health - 1
