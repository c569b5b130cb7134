"""Battle Card Changes for co-op play not covered elsewhere: shared war machines, the enemy
catapult under player attack, Knocked Down instead of a discard or a Hex, and player fire
setting forests ablaze (with the Elder Dragon immune to forest fire), each from a small position."""

from __future__ import annotations

import json

import pytest

from engine.dice import Dice
from engine.errors import IllegalAction, OptionError
from engine.game import Event
from games.ignite import phases
from games.ignite.board import Dragon, WarMachine, parse_square
from games.ignite.cards import gain_hex, new_card
from games.ignite.content import load_content
from games.ignite.enemies import move_and_attack
from games.ignite.enemy_cards import load_enemy_cards
from games.ignite.enemy_stats import PhaseModifiers, effective_stats
from games.ignite.game import Ignite
from games.ignite.move_steps import modifiers
from games.ignite.state import IgniteState
from tests.games.ignite.positions import hand, minion, open_field, put

G = Ignite()
C = load_content()
ENEMY_CARDS = load_enemy_cards()


def hand_names(st: IgniteState, seat: str) -> list[str]:
    return [st.card_names[c] for c in st.cards[seat].hand]


def ballista(st: IgniteState, square: str, owner: str = "stoneborn", built: bool = True) -> WarMachine:
    w = WarMachine(st.field.new_machine_id("ballista"), "ballista", owner, parse_square(square), built)
    st.field.machines.append(w)
    return w


def legal(st: IgniteState, seat: str) -> set[str]:
    return {str(a) for a in G.legal_actions(st, seat)}


def forest(st: IgniteState, *squares: str) -> None:
    for sq in squares:
        st.field.set_terrain(parse_square(sq), "forest")


# ---- War machines ---------------------------------------------------------------------------------


def test_ballista_frame_goes_next_to_your_unit_and_is_finished_at_your_next_turn() -> None:
    st = open_field()
    hand(st, "stoneborn", "ballista", "ballista bolt")
    put(st, "St1", "e10")
    minion(st, "e5")
    plays = legal(st, "stoneborn")
    assert "play ballista St1 e9" in plays and "play ballista St1 e8" not in plays
    G.act(st, "stoneborn", "play ballista St1 e9")
    frame = st.field.machine_at(parse_square("e9"))
    assert frame is not None and not frame.built and frame.owner == "stoneborn"
    assert not any(a.startswith("play ballista bolt") for a in legal(st, "stoneborn"))
    # The card has become the machine: it is not discarded with the rest at the turn's end.
    assert "ballista" not in [st.card_names[c] for c in st.cards["stoneborn"].played]
    phases.start_turn(st, C, [])
    assert frame.built


def test_war_machines_are_shared_any_player_next_to_one_may_fire_it() -> None:
    st = open_field(("stoneborn", "windkin"))
    w = ballista(st, "e9", owner="stoneborn")
    put(st, "Wi1", "f9")
    put(st, "St1", "a18")
    put(st, "St2", "c18")
    m = minion(st, "e5")
    st.turn = 1
    hand(st, "windkin", "ballista bolt")
    G.act(st, "windkin", f"play ballista bolt {w.id} e5")
    assert m not in st.field.minions


def test_using_or_moving_a_war_machine_needs_a_unit_next_to_it() -> None:
    st = open_field()
    w = ballista(st, "e9")
    put(st, "St1", "e11")  # two spaces away: not adjacent
    minion(st, "e5")
    hand(st, "stoneborn", "ballista bolt", "march")
    with pytest.raises(IllegalAction, match="next to it"):
        G.act(st, "stoneborn", f"play ballista bolt {w.id} e5")
    with pytest.raises(IllegalAction, match="next to it"):
        G.act(st, "stoneborn", f"play march {w.id} e8")
    put(st, "St1", "d10")
    G.act(st, "stoneborn", f"play march {w.id} e8")
    assert w.pos == parse_square("e8")


def test_ballista_bolt_reaches_2_to_6_from_the_machine_for_2_damage_but_not_into_forests() -> None:
    st = open_field(("stoneborn", "windkin", "sagekin", "skyfolk", "mendfolk"))  # minions have 2 health
    w = ballista(st, "e12")
    put(st, "St1", "e13")
    near, far, beyond, hidden = minion(st, "e11"), minion(st, "e6"), minion(st, "e5"), minion(st, "h9")
    forest(st, "h9")
    hand(st, "stoneborn", "ballista bolt")
    shots = {a for a in legal(st, "stoneborn") if a.startswith("play ballista bolt")}
    assert shots == {f"play ballista bolt {w.id} e6"}  # e11 too close, e5 too far, h9 in a forest
    G.act(st, "stoneborn", f"play ballista bolt {w.id} e6")
    assert far not in st.field.minions  # 2 damage kills a 2-health minion
    assert all(m in st.field.minions for m in (near, beyond, hidden))


def test_a_movement_card_rolls_a_war_machine_at_most_2_spaces() -> None:
    st = open_field()
    w = ballista(st, "e9")
    put(st, "St1", "e10")
    hand(st, "stoneborn", "unicorn")  # a 3-space move for a unit
    rolls = {a.split()[-1] for a in legal(st, "stoneborn") if a.startswith(f"play unicorn {w.id}")}
    assert "e7" in rolls and "e6" not in rolls and "e10" not in rolls  # e10: a unit stands there
    G.act(st, "stoneborn", f"play unicorn {w.id} e7")
    assert w.pos == parse_square("e7") and st.field.unit("St1").pos == parse_square("e10")


def test_enemies_cannot_take_control_of_players_war_machines() -> None:
    st = open_field()
    w = ballista(st, "f8")
    put(st, "St1", "f10")
    m = minion(st, "f7", colour="green")  # next to the ballista, 3 from the unit
    res = move_and_attack(st.field, m.id, ENEMY_CARDS, PhaseModifiers())
    assert not m.catapult and m.catapult_pos is None
    assert st.field.machines == [w] and w.owner == "stoneborn" and w.pos == parse_square("f8")
    # It walked round the machine (war machines block minions) and struck with its own weapon.
    assert parse_square("f8") not in res.moved_path and res.unit_damage == {"St1": 2}


def test_war_machine_decks_are_not_in_the_suggested_market_but_can_be_chosen() -> None:
    assert "ballista" not in C.market.suggested and "ballista bolt" not in C.market.suggested
    decks = "ballista, ballista bolt, jinx, thunderclap, arrow"
    opts = G.validate_options({"market": decks, "market_size": "any", "placement": "auto"})
    st = G.setup(["stoneborn"], opts, 1)
    assert set(st.market) == {"ballista", "ballista bolt", "jinx", "thunderclap", "arrow"}
    with pytest.raises(OptionError, match="exclude"):
        G.validate_options({"market": "ballista,pickpocket"})
    with pytest.raises(OptionError, match="not a battle deck"):
        G.validate_options({"market": "ballista,march"})  # a starting card is not a market deck


def test_war_machines_survive_a_json_round_trip() -> None:
    st = open_field()
    ballista(st, "e9", built=False)
    data = G.to_json(st)
    again = G.from_json(json.loads(json.dumps(data)))
    assert again.field.machines == st.field.machines
    assert G.view(again, None)["war_machines"] == [
        {"id": "ballista1", "kind": "ballista", "owner": "stoneborn", "square": "e9", "built": False}
    ]


# ---- The enemy catapult ----------------------------------------------------------------------------


def test_catapult_placement_turn_walk_follows_the_rules_version_the_game_started_under() -> None:
    """The Enemy Phase goes round the catapult in a game of rules version 2, and walks through
    it, as version 1 did, in a game started under version 1."""
    st = open_field()
    assert not modifiers(st, C).pusher_passes_catapult
    st.options["rules"] = "1"
    assert modifiers(st, C).pusher_passes_catapult


def test_catapult_disappears_if_you_destroy_the_minion_pushing_it() -> None:
    st = open_field()
    put(st, "St1", "e10")
    carrier = minion(st, "e9", catapult=True, catapult_pos=parse_square("e8"))
    hand(st, "stoneborn", "ring blade")
    G.act(st, "stoneborn", "play ring blade St1 e9")
    assert carrier not in st.field.minions
    assert st.field.catapult_at(parse_square("e8")) is None and not st.field.occupied(parse_square("e8"))


def test_destroying_the_catapult_rather_than_the_enemy_restores_its_weapon() -> None:
    st = open_field()
    put(st, "St1", "e11")
    carrier = minion(st, "e8", colour="red", catapult=True, catapult_pos=parse_square("e9"))
    assert effective_stats(carrier, ENEMY_CARDS, PhaseModifiers()).attack == "catapult"
    hand(st, "stoneborn", "arrow")
    G.act(st, "stoneborn", "play arrow St1 e9")
    assert carrier in st.field.minions and carrier.damage == 0
    assert not carrier.catapult and carrier.catapult_pos is None
    assert effective_stats(carrier, ENEMY_CARDS, PhaseModifiers()).attack == "fire_arrow"


def test_a_dagger_deals_half_damage_to_a_catapult_and_the_half_is_lost_at_the_enemy_turn() -> None:
    st = open_field()
    put(st, "St1", "e10")
    carrier = minion(st, "e8", catapult=True, catapult_pos=parse_square("e9"))
    hand(st, "stoneborn", "dagger", "dagger")
    G.act(st, "stoneborn", "play dagger St1 e9")
    assert carrier.catapult and carrier.catapult_halves == 1
    carrier.lose_half_damage()  # what the enemy turn does first
    assert carrier.catapult_halves == 0
    G.act(st, "stoneborn", "play dagger St1 e9")
    assert carrier.catapult  # one half again: still standing


# ---- Knocked Down ------------------------------------------------------------------------------------


def test_a_hex_effect_knocks_a_minion_down_instead() -> None:
    st = open_field()
    put(st, "St1", "e10")
    m = minion(st, "e8")
    hand(st, "stoneborn", "jinx")
    G.act(st, "stoneborn", "play jinx St1 e8")
    assert m.knocked_down
    assert "hex" not in hand_names(st, "stoneborn")
    # Knocked Down: on its next turn it stands up instead of moving (it may still attack).
    res = move_and_attack(st.field, m.id, ENEMY_CARDS, PhaseModifiers())
    assert res.moved_path == [] and not m.knocked_down


def test_a_discard_effect_knocks_a_minion_down_instead() -> None:
    st = open_field()
    put(st, "St1", "e10")
    m = minion(st, "f11")
    hand(st, "stoneborn", "thunderclap")
    G.act(st, "stoneborn", "play thunderclap St1")
    assert m.knocked_down


def test_global_effects_make_allied_players_discard_as_the_card_says() -> None:
    st = open_field(("stoneborn", "windkin", "sagekin"))
    put(st, "St1", "e10")
    put(st, "Wi1", "e11")  # an ally within 1 space: caught
    put(st, "Sa1", "h10")  # out of reach
    st.dice = Dice(7)
    hand(st, "stoneborn", "thunderclap")
    hand(st, "windkin", "march", "arrow", "dagger")
    hand(st, "sagekin", "march", "arrow")
    G.act(st, "stoneborn", "play thunderclap St1")
    assert len(st.cards["windkin"].hand) == 2 and len(st.cards["windkin"].discard) == 1
    assert len(st.cards["sagekin"].hand) == 2


def test_global_hex_effects_give_an_allied_player_a_hex_card() -> None:
    from games.ignite.cards import apply_affliction

    st = open_field(("stoneborn", "windkin"))
    hand(st, "windkin", "march")
    card = C.cards["jinx"]
    events: list[Event] = []
    apply_affliction(st, st.field.unit("Wi1"), card, events)
    # The Hex takes the place of a card of the hand (stand-in rule): the march is discarded.
    assert hand_names(st, "windkin") == ["hex"]
    assert [st.card_names[c] for c in st.cards["windkin"].discard] == ["march"]
    assert [e.text for e in events] == [
        "windkin gains a Hex card (Wi1 was caught by jinx).",
        "windkin's Hex takes the place of a march, discarded at random.",
    ]


def test_hex_card_takes_the_place_of_a_card_of_the_hand_at_random() -> None:
    """Stand-in Hex: gaining one costs a card of the hand, drawn at random among the cards that
    are not Hexes; with no such card nothing else is lost."""
    st = open_field(("stoneborn", "windkin"))
    hand(st, "windkin", "march", "dagger", "old wooden shield", "hex")
    gain_hex(st, "windkin", [])
    names = hand_names(st, "windkin")
    assert len(names) == 4 and names.count("hex") == 2
    lost = [st.card_names[c] for c in st.cards["windkin"].discard]
    assert len(lost) == 1 and lost[0] in ("march", "dagger", "old wooden shield")
    hexed = open_field(("stoneborn", "windkin"))
    hand(hexed, "windkin", "hex")
    gain_hex(hexed, "windkin", [])
    assert hand_names(hexed, "windkin") == ["hex", "hex"] and hexed.cards["windkin"].discard == []


def test_hex_card_version_1_is_a_dead_seventh_card() -> None:
    """A game started under rules version 1 keeps its Hex: a dead card added to the hand."""
    st = open_field(("stoneborn", "windkin"))
    st.options["rules"] = "1"
    hand(st, "windkin", "march")
    events: list[Event] = []
    gain_hex(st, "windkin", events)
    assert hand_names(st, "windkin") == ["march", "hex"] and events == []


# ---- Fire and forests ----------------------------------------------------------------------------------


def test_player_fire_sets_the_orthogonally_connected_forest_ablaze() -> None:
    st = open_field(("stoneborn", "windkin"))
    forest(st, "h5", "h6", "i6", "j7")  # j7 touches i6 only diagonally: another forest
    put(st, "St1", "h9")
    put(st, "Wi1", "i6")  # an ally hiding in the forest
    target, neighbour, apart = minion(st, "h5"), minion(st, "h6"), minion(st, "j7")
    hand(st, "stoneborn", "fire arrow")
    G.act(st, "stoneborn", "play fire arrow St1 h5")
    assert target not in st.field.minions and neighbour not in st.field.minions
    assert apart in st.field.minions
    assert st.field.unit("Wi1").health == 2


def test_a_non_fire_attack_never_burns_a_forest() -> None:
    st = open_field()
    forest(st, "h5", "h6")
    put(st, "St1", "h8")
    in_forest = minion(st, "h6")
    bystander = minion(st, "h7")
    hand(st, "stoneborn", "lightning bolt")
    G.act(st, "stoneborn", "play lightning bolt St1 h7")
    assert bystander not in st.field.minions and in_forest in st.field.minions


def test_a_fire_spell_reaching_a_forest_figure_burns_that_forest() -> None:
    st = open_field()
    forest(st, "f9", "f8", "f7")
    put(st, "St1", "e10")
    edge, deep = minion(st, "f9"), minion(st, "f7")
    hand(st, "stoneborn", "ring of fire")
    G.act(st, "stoneborn", "play ring of fire St1")
    assert edge not in st.field.minions and deep not in st.field.minions


def test_elder_dragon_is_immune_to_forest_fire_damage() -> None:
    st = open_field()
    forest(st, "h4", "h5", "h6")
    put(st, "St1", "h9")
    st.field.dragon = Dragon(parse_square("h5"))
    m, far_side = minion(st, "h6"), minion(st, "h4")
    hand(st, "stoneborn", "fire arrow")
    G.act(st, "stoneborn", "play fire arrow St1 h6")
    # The fire spread past him (h4 burnt) yet he took nothing.
    assert m not in st.field.minions and far_side not in st.field.minions
    assert st.field.dragon.health == 3
    # Enemy fire does not burn him either: a fire-arrow minion sets the same forest ablaze.
    u = st.field.unit("St1")
    u.pos = parse_square("h6")
    red = minion(st, "h9", colour="red")
    res = move_and_attack(st.field, red.id, ENEMY_CARDS, PhaseModifiers())
    assert res.unit_damage == {u.id: 1} and st.field.dragon.health == 3


# ---- everything together ---------------------------------------------------------------------------


def test_a_game_with_the_new_decks_plays_to_its_end_and_round_trips() -> None:
    """Seeded random play that prefers the new cards: every legal notation parses back, the
    state survives JSON, the new cards (and rolling a machine) are really used, and it ends."""
    decks = ("ballista", "ballista bolt", "jinx", "thunderclap")
    # respawn=phase-start: the seeded play below was chosen with that timing.
    opts = G.validate_options(
        {"market": ",".join(decks), "market_size": "any", "placement": "choose", "respawn": "phase-start"}
    )
    # A seed whose game lasts long enough for every new card to come up (the seed only picks
    # the random play; most seeds end sooner, by defeat, before one of the four is drawn).
    st = G.setup(["stoneborn", "windkin"], opts, 1)
    chooser = Dice(1)
    for seat in st.seats:  # the new cards shuffled into each draw pile, so they come up in play
        st.cards[seat].deck += [new_card(st, n) for n in (*decks, "ballista bolt")]
    used: set[str] = set()
    for _ in range(3000):
        if G.outcome(st) is not None:
            break
        seat = sorted(G.to_act(st).seats)[0]
        actions = G.legal_actions(st, seat)
        for a in actions:
            assert G.parse(st, str(a)) == a
        new = [a for a in actions if a.verb == "play" and a.card in decks]
        # Ties answered one by one: `choose defaults` would speed the enemies through the phase;
        # and every purchase made here, where `quick` would buy its race's plan, not these decks.
        actions = [a for a in actions if str(a) not in ("choose defaults", "quick")]
        a = new[chooser.below(len(new))] if new else actions[chooser.below(len(actions))]
        if a.verb == "play":
            used.add(a.card if a.card in decks else "roll" if a.unit.startswith("ballista") else "")
        G.act(st, seat, str(a))
        data = G.to_json(st)
        assert G.to_json(G.from_json(json.loads(json.dumps(data)))) == data
    assert {*decks, "roll"} <= used
    assert G.outcome(st) is not None
