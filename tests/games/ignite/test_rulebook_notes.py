"""Rulebook notes that had code but no test: immobilized minions, dagger halves on the boss,
no village bonus against enemies, the boss's fixed health, the ratmen's card draw and the
catapult's coloured base, each from a small position."""

from __future__ import annotations

from games.ignite import spawn_steps
from games.ignite.board import Dragon, parse_square
from games.ignite.cards import new_card
from games.ignite.content import load_content
from games.ignite.enemies import move_and_attack
from games.ignite.enemy_cards import load_enemy_cards
from games.ignite.enemy_stats import PhaseModifiers
from games.ignite.game import Ignite
from games.ignite.placement import place_dragon
from games.ignite.units import damage_dragon
from tests.games.ignite.positions import minion, open_field

G = Ignite()
C = load_content()
ENEMY_CARDS = load_enemy_cards()
FIVE = ("stoneborn", "windkin", "sagekin", "skyfolk", "mendfolk")


def test_immobilized_minion_does_not_move_but_still_attacks() -> None:
    st = open_field()
    u = st.field.units[0]
    u.pos = parse_square("f9")
    far = minion(st, "f3", colour="black", immobilized=True)  # arrow range 2-4: 6 away
    res = move_and_attack(st.field, far.id, ENEMY_CARDS, PhaseModifiers())
    assert res.moved_path == [] and u.health == u.max_health
    assert not far.immobilized  # it lasts for one turn
    near = minion(st, "f6", colour="black", immobilized=True)  # 3 away: in range
    move_and_attack(st.field, near.id, ENEMY_CARDS, PhaseModifiers())
    assert u.health == u.max_health - 1


def test_a_dagger_does_half_damage_to_the_elder_dragon_and_the_half_is_lost_at_the_enemy_turn() -> None:
    st = open_field()
    st.field.dragon = Dragon(parse_square("e9"))
    damage_dragon(st, 1, [], half=True)
    assert st.field.dragon.health == 3 and st.dragon_half
    spawn_steps.step_start(st, C, [])
    assert not st.dragon_half
    damage_dragon(st, 1, [], half=True)
    damage_dragon(st, 1, [], half=True)
    assert st.field.dragon.health == 2


def test_enemies_take_no_additional_damage_in_the_village() -> None:
    st = open_field(FIVE)  # minions have 2 health
    unit = st.field.unit("St1")
    unit.pos = parse_square("e15")
    m = minion(st, "e18")  # a village space
    st.cards["stoneborn"].hand = [new_card(st, "arrow")]
    G.act(st, "stoneborn", "play arrow St1 e18")
    assert m in st.field.minions and m.damage == 1


def test_elder_dragon_never_gets_the_plus_one_hp_token() -> None:
    st = open_field(FIVE)
    place_dragon(st.field, parse_square("e1"))
    assert st.field.dragon is not None and st.field.dragon.health == 3
    damage_dragon(st, 3, [])
    assert G.outcome(st) is not None and G.outcome(st).winners  # type: ignore[union-attr]


def test_ratmen_draw_no_additional_card_for_adjacent_friendly_units() -> None:
    rats = open_field(("ratmen", "stoneborn", "windkin"))
    stone = open_field(("stoneborn", "windkin"))
    for st, seat in ((rats, "ratmen"), (stone, "stoneborn")):
        own = [u for u in st.field.units if u.seat == seat]
        own[0].pos, own[1].pos = parse_square("e10"), parse_square("f10")
        G.act(st, seat, "end")
    assert len(rats.cards["ratmen"].hand) == 6
    assert len(stone.cards["stoneborn"].hand) == 7  # the stand-in adjacency card


def test_an_enemy_catapult_takes_a_base_of_its_minions_colour() -> None:
    st = open_field()
    for sq in ("a5", "b5", "c5"):
        minion(st, sq, "red")
    minion(st, "d5", "red", catapult=True, catapult_pos=parse_square("d6"))
    # Four red minions and one red catapult fill the five red bases.
    assert spawn_steps.spawn_list(st, C, [["red", 1]]) == [("purple", 1)]


def test_players_place_their_units_anywhere_in_the_bottom_village_in_turn_order() -> None:
    st = G.setup(["stoneborn", "windkin"], {"difficulty": "regular", "placement": "choose"}, 3)
    assert st.phase == "placement" and G.to_act(st).seats == {"stoneborn"}
    places = {str(a) for a in G.legal_actions(st, "stoneborn")}
    assert "place St1 a18" in places and "place St1 a17" not in places
    assert not any(a.startswith("place windkin") for a in places)
    taken = next(u for u in st.field.units if u.seat == "windkin").pos
    assert not any(a.endswith(f" {chr(97 + taken[0])}18") for a in places)  # an occupied space
    G.act(st, "stoneborn", "place St1 a18")
    G.act(st, "stoneborn", "end")
    assert G.to_act(st).seats == {"windkin"} and st.field.unit("St1").pos == (0, 17)
    G.act(st, "windkin", "place Wi2 r18")
    G.act(st, "windkin", "end")
    # Whoever placed first takes the first turn; the regular free turns follow.
    assert (st.phase, st.round, st.seats[st.turn]) == ("free", 0, "stoneborn")
    assert G.parse(st, "place Wi2 R18") == G.parse(st, "place Wi2 r18")
