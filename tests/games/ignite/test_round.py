"""Ignite's round structure and Enemy Phase orchestration, run against the real enemy rules."""

from __future__ import annotations

from bot.menus import menu
from engine import Dice, get_game
from games.ignite import move_steps, phases, spawn_steps
from games.ignite.board import Minion, parse_square
from games.ignite.cards import new_card
from games.ignite.content import load_content
from games.ignite.game import Ignite
from games.ignite.state import IgniteState
from tests.games.ignite.positions import minion, move_only, open_field

G = Ignite()
C = load_content()


def make(
    seats: tuple[str, ...] = ("stoneborn",), difficulty: str = "hard", seed: int = 1, favor: str = "off"
) -> IgniteState:
    # favor_asks=every: these tests play each divine favor question (version 3 asks one at most).
    return open_field(seats, seed, difficulty=difficulty, favor_prompts=favor, favor_asks="every")


def settle(st: IgniteState) -> list[str]:
    """Answer every tie the enemies hand to the players with its default."""
    kinds: list[str] = []
    while st.pending is not None and st.pending["kind"] == "tie":
        turn = G.to_act(st)
        _, events = G.act(st, sorted(turn.seats)[0], turn.default or "")
        kinds += [e.kind for e in events]
    return kinds


def end_all(st: IgniteState) -> list[str]:
    kinds: list[str] = []
    for _ in st.seats:
        _, events = G.act(st, st.seats[st.turn], "end")
        kinds += [e.kind for e in events] + settle(st)
    return kinds


def test_enemy_phase_runs_in_rulebook_order() -> None:
    st = make()
    kinds = end_all(st)
    first = {k: kinds.index(k) for k in ("card", "round_card", "roll", "spawned", "enemy") if k in kinds}
    # Step 1 draw a Power card, 2a Round card, 2b D6, 2d D20 and placement, 3 move and attack.
    assert first["card"] < first["round_card"] < first["roll"] < first["spawned"]
    rolls = [i for i, k in enumerate(kinds) if k == "roll"]
    assert len(rolls) == 2 and rolls[1] < first["spawned"]
    assert "enemy" not in kinds or first["spawned"] < first["enemy"]
    assert st.round == 2 and st.phase == "player"


def test_a_picture_after_each_players_turn_and_exactly_one_per_enemy_phase() -> None:
    st = make(("stoneborn", "windkin"))
    _, events = G.act(st, "stoneborn", "end")
    assert [e.kind for e in events if e.phase_end] == ["turn_end"]
    _, events = G.act(st, "windkin", "end")
    while st.pending is not None:
        events += G.act(st, "stoneborn", G.to_act(st).default or "")[1]
    pics = [e for e in events if e.phase_end]
    # windkin's turn, then the Enemy Phase once (spawns, paths and attacks in one picture).
    assert [e.kind for e in pics] == ["turn_end", "phase"]
    assert all("view" in e.data and e.data["view"]["hand"] is None for e in pics)


def test_power_cards_are_discarded_at_the_next_enemy_phase() -> None:
    st = make()
    end_all(st)
    previous = list(st.in_effect)
    assert previous
    st.shuffle_pending = False
    spawn_steps.step_start(st, C, [])
    assert st.in_effect == []
    assert all(n in st.power_discard + st.apocalypse_discard for n in previous)


def test_shuffle_icon_shuffles_the_power_cards_at_the_next_enemy_phase() -> None:
    st = make()
    st.power_deck.remove("calm before")
    st.power_deck.append("calm before")  # on top, with a shuffle icon
    end_all(st)
    assert "calm before" in st.in_effect and st.shuffle_pending
    spawn_steps.step_start(st, C, [])
    assert not st.shuffle_pending and st.power_discard == []
    assert sorted(st.power_deck) == sorted(C.powers)


def test_divine_favor_pauses_after_the_power_draw() -> None:
    st = make(("stoneborn", "windkin"), favor="on")  # hard: 2 tokens
    end_all(st)
    turn = G.to_act(st)
    assert turn.decision == "divine_favor" and turn.seats == {"stoneborn", "windkin"}
    assert turn.default == "keep"
    drawn = st.ep["last_draw"]
    G.act(st, "windkin", "favor redraw")
    assert st.divine_favor == 1 and drawn not in st.in_effect and drawn in st.power_discard


def test_divine_favor_reroll_gives_a_different_result() -> None:
    st = make(favor="on")
    end_all(st)
    G.act(st, "stoneborn", "keep")  # the Power card
    assert st.pending is not None and st.pending["what"] == "roll"
    before = st.ep["d6"]
    G.act(st, "stoneborn", "favor reroll")
    assert st.ep["d6"] != before and st.divine_favor == 1


def test_no_favor_pause_without_tokens() -> None:
    st = make(difficulty="insanity", favor="on")
    end_all(st)
    assert st.pending is None and st.round == 2


def test_minus_one_minion_on_easy_and_sensible() -> None:
    for difficulty, count in (("easy", 2), ("sensible", 2), ("regular", 3)):
        st = make(difficulty=difficulty)
        assert len(spawn_steps.spawn_list(st, C, [["red", 3]])) == count


def test_colour_out_of_bases_is_replaced_by_the_next_type() -> None:
    st = make()
    for col in range(5):
        minion(st, f"{'abcde'[col]}5", "red")
    assert spawn_steps.spawn_list(st, C, [["red", 2]]) == [("purple", 1), ("purple", 1)]


def test_round_11_upgrades_every_minion() -> None:
    st = make(difficulty="expert")
    st.round = 10
    m = minion(st, "b2", "black")
    m.can_act = False
    end_all(st)
    assert st.round == 11 and st.upgraded
    assert all(x.level == 2 for x in st.field.minions)
    assert move_steps.modifiers(st, C).level2_speed == 1  # Expert's +1 speed token


def test_easy_never_upgrades() -> None:
    st = make(difficulty="easy")
    st.phase, st.round, st.free_left = "player", 10, 0
    minion(st, "b2", "black").can_act = False
    end_all(st)
    assert st.round == 11 and not st.upgraded
    assert all(x.level == 1 for x in st.field.minions)


def test_insanity_speed_token_is_plus_two() -> None:
    assert move_steps.modifiers(make(difficulty="insanity"), C).level2_speed == 2


def test_dagger_halves_are_lost_at_the_start_of_the_enemy_turn() -> None:
    st = make()
    m = minion(st, "c3")
    m.half_damage = True
    spawn_steps.step_start(st, C, [])
    assert not m.half_damage


def test_round_20_brings_the_dragon_and_one_minion_of_each_colour() -> None:
    st = make()
    st.round = 20
    _, events = G.act(st, "stoneborn", "end")
    settle(st)
    spawns = [e.text for e in events if e.kind == "spawn"]
    # Each arrival opens with its minion ("Black minion #1 …"; a catapult's line names its pusher later).
    colours = [t.split()[0].lower() for t in spawns if t.split()[1:2] == ["minion"] and "(level" not in t]
    assert colours == ["black", "white", "yellow", "orange", "red", "purple", "blue", "green"]
    assert any("Elder Dragon lands" in t for t in spawns)
    assert st.dragon_spawned and st.round == 20  # round 20 repeats
    assert st.last_moves[0]["id"] == "dragon"  # once spawned he always moves first


def test_round_20_cycles_place_no_second_dragon() -> None:
    st = make()
    st.round = 20
    G.act(st, "stoneborn", "end")
    settle(st)
    _, events = G.act(st, "stoneborn", "end")
    settle(st)
    assert not any("Elder Dragon lands" in e.text for e in events)
    assert st.round == 20


def _equally_close() -> tuple[IgniteState, Minion]:
    """A minion on f5 as close to St1 on d6 as to Wi1 on h6 (Sa1 far off): a tie of targets."""
    st = make(("stoneborn", "windkin", "sagekin"))
    st.field.unit("St1").pos = parse_square("d6")
    st.field.unit("Wi1").pos = parse_square("h6")
    st.field.unit("Sa1").pos = parse_square("r18")
    return st, minion(st, "f5")


def test_equal_distance_target_is_a_players_decision() -> None:
    st, m = _equally_close()
    move_only(st, m.id)
    turn = G.to_act(st)
    assert turn.decision == "tie" and turn.seats == {"stoneborn", "windkin", "sagekin"}
    assert {str(a) for a in G.legal_actions(st, "sagekin")} == {
        "choose d6",
        "choose h6",
        "choose defaults",
    }
    G.act(st, "sagekin", "choose target:h6")
    assert m.pos[0] > parse_square("f5")[0]  # it went right, toward h6


def test_a_ties_buttons_name_the_units_and_the_defaults_answer_says_what_it_does() -> None:
    st, m = _equally_close()
    move_only(st, m.id)
    legal = G.legal_actions(st, "sagekin")
    labels = {str(a): G.choice_label(st, a) for a in legal}
    assert labels == {
        "choose d6": "St1 on d6",
        "choose h6": "Wi1 on h6",
        "choose defaults": "settle all ties by default",
    }
    buttons, _ = menu(1, 1, [str(a) for a in legal], labels=labels)
    assert [b.label for b in buttons] == ["St1 on d6", "Wi1 on h6", "settle all ties by default"]
    assert "by default" in G.explain("defaults")  # `/game card name:defaults` says what it is
    G.act(st, "sagekin", "choose h6")  # the typed square is still the answer
    assert m.pos[0] > parse_square("f5")[0]


def test_option_ties_auto_takes_the_default_without_a_pause() -> None:
    st, m = _equally_close()
    st.options["ties"] = "auto"
    st.phase = "enemy"
    st.ep = {"step": "move", "order": [m.id]}
    events: list = []
    phases.run_enemy_phase(st, C, events)
    assert st.pending is None or st.pending["kind"] != "tie"
    assert any(e.kind == "tie" and "as the table settles ties" in e.text for e in events)
    assert m.pos[0] < parse_square("f5")[0]  # the default answer, d6, lies to the left


def test_choose_defaults_answers_the_remaining_ties_of_this_enemy_phase() -> None:
    st = make(("stoneborn", "windkin", "sagekin"))
    st.field.unit("St1").pos = parse_square("d6")
    st.field.unit("Wi1").pos = parse_square("h6")
    st.field.unit("Sa1").pos = parse_square("r18")
    first, second = minion(st, "f5"), minion(st, "b12")
    move_only(st, first.id, second.id)
    assert "choose defaults" in {str(a) for a in G.legal_actions(st, "sagekin")}
    _, events = G.act(st, "sagekin", "choose defaults")
    assert st.pending is None or st.pending["kind"] != "tie"  # the second minion's tie did not pause
    assert any("as the group chose" in e.text for e in events)
    # Toward d6 (the default): the first goes left, the second straight up (toward h6 it
    # would have gone up and right).
    assert first.pos[0] < parse_square("f5")[0] and second.pos == parse_square("b10")


def test_shield_soaks_an_enemy_hit() -> None:
    st = make()
    unit = st.field.unit("St1")
    unit.pos = parse_square("e10")
    unit.shield = 1
    m = minion(st, "e9", "white")
    move_only(st, m.id)
    assert unit.health == unit.max_health and unit.shield == 0


def test_enemy_damage_in_the_village_is_one_more() -> None:
    st = make()
    unit = st.field.unit("St1")
    others = [u for u in st.field.units if u is not unit]
    for i, u in enumerate(others):
        u.pos = (12 + i, 17)
    unit.pos = parse_square("a18")
    m = minion(st, "a17", "white")  # level 1 melee, 1 damage
    move_only(st, m.id)
    assert unit.health == unit.max_health - 2


def test_hexing_puts_a_hex_card_in_the_hand() -> None:
    st = make()
    unit = st.field.unit("St1")
    unit.pos = parse_square("e10")
    m = minion(st, "e8", "purple")
    move_only(st, m.id)
    assert "hex" in [st.card_names[c] for c in st.cards["stoneborn"].hand]


def test_bazaar_is_closed_the_turn_a_guardian_is_placed() -> None:
    st = make()
    st.phase = "enemy"
    st.ep = {"step": "place", "spawns": [["orange", 1]], "d20": 4}
    st.round = 2
    spawn_steps.step_place(st, C, [])
    assert st.bazaar_closed
    st.field.units[0].pos = (8, 9)
    for i, u in enumerate(st.field.units[1:]):
        u.pos = (3 + i, 5)
    st.honor = 9
    assert not any(a.verb == "buy" for a in G.legal_actions(st, "stoneborn"))


def test_enemy_killing_the_last_units_loses_the_game() -> None:
    st = make(("stoneborn", "windkin", "sagekin", "skyfolk"))  # loss at 2 units
    st.field.unit("St1").health = 1
    st.field.unit("Wi1").health = 1
    st.field.unit("St1").pos = parse_square("e10")
    st.field.unit("Wi1").pos = parse_square("k10")
    a = minion(st, "e9", "white")
    b = minion(st, "k9", "white")
    move_only(st, a.id, b.id)
    out = G.outcome(st)
    assert out is not None and out.losers == {"stoneborn", "windkin", "sagekin", "skyfolk"}


def test_hand_card_ids_are_unique_strings() -> None:
    st = make(("stoneborn", "windkin"))
    ids = st.cards["stoneborn"].hand + st.cards["windkin"].hand
    assert len(set(ids)) == len(ids) and all("#" in c for c in ids)
    assert new_card(st, "march").startswith("march#")


def test_keeping_a_draw_the_players_could_redraw_is_told() -> None:
    """Divine Favor: answering `keep` (or letting the default keep it) says that no token was
    spent and what was kept, before the Enemy Phase goes on: a kept draw was silent, so a
    default's recap quoted the next card of the phase as if it were the answer."""
    game = get_game("ignite")
    state = game.setup(
        ["ratmen", "stoneborn", "windkin"],
        game.validate_options({"placement": "auto", "favor_asks": "every"}),
        1,
    )
    dice = Dice(1)
    while not (game.to_act(state).decision and "Power card" in (game.to_act(state).prompt or "")):
        seat = sorted(game.to_act(state).seats)[0]
        legal = game.legal_actions(state, seat)
        game.act(state, seat, str(legal[dice.below(len(legal))]))
        assert state.round <= 4, "seed 1 draws a Power card the players may redraw"
    turn = game.to_act(state)
    detail = turn.prompt.split(" Spend", 1)[0]  # "The Power card drawn is restless night."
    _, events = game.act(state, sorted(turn.seats)[0], "keep")
    assert events[0].text == f"No divine favor token spent: {detail[0].lower()}{detail[1:]}"
