"""Issue 13, one decider per decision: who is pinged for a tie, a divine favor chance and a
respawn; ties whose answers change nothing are not asked; a tie's default is a seeded draw;
the pace preset; and the game's lines for the end-of-game summary."""

from __future__ import annotations

from engine.dice import Dice
from engine.game import Event
from games.ignite import enemies, move_steps, phases, spawn_steps
from games.ignite.board import Minion, Unit, blank_terrain, parse_square
from games.ignite.cards import new_card
from games.ignite.content import load_content
from games.ignite.enemy_cards import stats_for
from games.ignite.game import Ignite
from games.ignite.state import IgniteState
from games.ignite.units import kill_unit
from tests.games.ignite.positions import minion, move_only, open_field, put

G = Ignite()
C = load_content()
THREE = ("stoneborn", "windkin", "sagekin")


def make(seats: tuple[str, ...] = THREE, seed: int = 1, **opts: str) -> IgniteState:
    return open_field(seats, seed, **opts)


def two_seat_tie(seed: int = 1, last: str | None = None) -> tuple[IgniteState, Minion]:
    """A green minion at f5, St1 at d6 and Wi1 at h6: equally near (Rule 4 note)."""
    st = make(seed=seed)
    st.last_actor = last
    put(st, "St1", "d6")
    put(st, "Wi1", "h6")
    put(st, "Sa1", "r18")
    m = minion(st, "f5")
    move_only(st, m.id)
    return st, m


# ---- who decides ------------------------------------------------------------------------------------


def test_a_tie_between_two_players_units_is_decided_by_the_player_who_acted_last() -> None:
    st, _ = two_seat_tie(last="sagekin")
    assert G.to_act(st).decision == "tie" and G.to_act(st).seats == set(THREE)  # anyone may answer
    assert G.decider(st) == "sagekin"
    view = G.view(st, None)
    assert view["pending"]["decider"] == "sagekin"
    assert "sagekin decides; anyone may answer" in G.describe(view)


def test_a_tie_about_one_players_units_is_decided_by_that_player() -> None:
    st = make()
    st.last_actor = "sagekin"
    put(st, "Wi1", "d6")
    put(st, "St1", "r18")
    put(st, "Sa1", "a18")
    # A second windkin unit, as near the minion as the first.
    st.field.units.append(Unit("Wi9", "windkin", "windkin", parse_square("h6"), 3, 3))
    m = minion(st, "f5")
    move_only(st, m.id)
    assert st.pending is not None and st.pending["kind"] == "tie"
    assert G.decider(st) == "windkin"  # not sagekin, who acted last


def test_the_last_actor_is_whoever_acted_last() -> None:
    st = make()
    G.act(st, "stoneborn", "end")
    assert st.last_actor == "stoneborn"
    G.act(st, "windkin", "end")
    assert st.last_actor == "windkin"


def test_a_divine_favor_chance_is_decided_by_the_player_who_ended_the_player_phase() -> None:
    st = make(favor_prompts="on", favor_asks="every")
    for seat in THREE:
        G.act(st, seat, "end")
    assert G.to_act(st).decision == "divine_favor"
    assert G.decider(st) == "sagekin" and G.view(st, "stoneborn")["pending"]["decider"] == "sagekin"


def test_a_respawn_is_decided_by_the_player_whose_unit_respawns() -> None:
    st = make()
    st.pending = {"kind": "respawn", "seat": "windkin", "prompt": "?", "default": "respawn left"}
    assert G.decider(st) == "windkin" and G.view(st, None)["pending"]["decider"] == "windkin"


def test_no_decider_on_a_players_own_turn() -> None:
    assert G.decider(make()) is None


# ---- decisions that change nothing are not asked -----------------------------------------------------


def test_a_tie_whose_answers_leave_the_same_board_is_not_asked() -> None:
    st = make()
    put(st, "St1", "e10")
    put(st, "Wi1", "g10")
    put(st, "Sa1", "r18")
    m = minion(st, "f2")
    # The rules do hand this to the players: e10 and g10 are equally near...
    trial = st.field.copy()
    cards, mods = stats_for(st), move_steps.modifiers(st, C)
    tie = enemies.move_and_attack(trial, m.id, cards, mods).needs_choice
    assert tie is not None and len(tie.options) == 2
    # ...but either way it walks straight down two squares this phase: nobody is asked.
    move_only(st, m.id)
    assert st.pending is None
    assert m.pos == parse_square("f4")


def _first_power_pause(deck: list[str]) -> bool:
    st = make(favor_prompts="on", favor_asks="every")
    st.power_deck, st.power_discard = list(deck), []
    for seat in THREE:
        G.act(st, seat, "end")
    return st.pending is not None and st.pending["detail"].startswith("The Power card drawn")


def test_a_redraw_that_could_only_draw_the_same_card_is_not_offered() -> None:
    assert not _first_power_pause(["quiet dusk"])  # nothing else to draw: the same card again
    assert _first_power_pause(["quiet dusk", "hardened"])


def test_a_reroll_of_a_d20_that_places_nothing_is_not_offered() -> None:
    st = make(favor_prompts="on", favor_asks="every")
    st.phase = "enemy"
    st.round = 1
    st.ep = {"step": "d20", "spawns": []}
    phases.run_enemy_phase(st, C, [])
    assert st.pending is None or st.pending["kind"] != "divine_favor"


def test_a_reroll_of_a_d20_that_places_minions_is_offered() -> None:
    st = make(favor_prompts="on", favor_asks="every")
    st.phase = "enemy"
    st.round = 1
    st.ep = {"step": "d20", "spawns": [["green", 2]], "d6": 1}
    phases.run_enemy_phase(st, C, [])
    assert st.pending is not None and st.pending["kind"] == "divine_favor"


# ---- the default is a seeded draw --------------------------------------------------------------------


def test_a_ties_default_is_a_seeded_draw_not_the_first_unit_listed() -> None:
    defaults = {seed: two_seat_tie(seed)[0].pending["default"] for seed in range(1, 13)}  # type: ignore[index]
    assert set(defaults.values()) == {"choose target:d6", "choose target:h6"}
    assert all(two_seat_tie(seed)[0].pending["default"] == d for seed, d in defaults.items())  # type: ignore[index]


def test_the_default_taken_is_the_one_shown() -> None:
    for seed in range(1, 7):
        st, m = two_seat_tie(seed)
        assert st.pending is not None
        default = st.pending["default"]
        G.act(st, "windkin", default)
        went_left = m.pos[0] < parse_square("f5")[0]
        assert went_left == default.endswith("d6")


# ---- pace ------------------------------------------------------------------------------------------


def test_pace_async_asks_neither_ties_nor_favor() -> None:
    opts = G.validate_options({"pace": "async"})
    assert opts["favor_prompts"] == "off" and opts["ties"] == "auto"
    live = G.validate_options({})
    assert live["pace"] == "live" and live["favor_prompts"] == "on" and live["ties"] == "players"


def test_pace_async_still_spends_divine_favor_by_a_standing_rule() -> None:
    assert G.validate_options({"pace": "async"})["favor_rule"] == "bottom-rows"
    assert G.validate_options({"pace": "async", "favor_rule": "none"})["favor_rule"] == "none"
    assert G.validate_options({})["favor_rule"] == "none"  # live: the group is asked instead


def test_pace_async_keeps_an_option_the_group_set_itself() -> None:
    opts = G.validate_options({"pace": "async", "favor_prompts": "on"})
    assert opts["favor_prompts"] == "on" and opts["ties"] == "auto"


def test_an_async_game_runs_an_enemy_phase_without_a_pause() -> None:
    st = G.setup(list(THREE), {"pace": "async", "placement": "auto", "difficulty": "hard"}, 4)
    st.field.terrain = blank_terrain()
    st.field.minions.clear()
    put(st, "St1", "d6")
    put(st, "Wi1", "h6")
    m = minion(st, "f5")
    for seat in THREE:
        G.act(st, seat, "end")
    assert st.phase == "player" and st.pending is None and st.round == 2
    assert m.id in {x.id for x in st.field.minions}


# ---- summary ---------------------------------------------------------------------------------------


def test_the_summary_counts_rounds_survived_units_lost_and_kills_by_seat() -> None:
    st = make(seats=("stoneborn", "windkin", "sagekin", "skyfolk"))  # two losses lose
    st.round = 7
    m = minion(st, "c16")
    put(st, "St1", "c17")
    hand = st.cards["stoneborn"].hand
    hand.append(new_card(st, "dagger"))
    hand.append(new_card(st, "dagger"))
    G.act(st, "stoneborn", "dagger St1 c16")
    G.act(st, "stoneborn", "dagger St1 c16")
    assert m not in st.field.minions and st.kills == {"stoneborn": 1}
    kill_unit(st, st.field.unit("Wi1"), [])
    lines = G.summary(st)
    assert lines["Kills"] == "1 minion (stoneborn 1)"
    assert lines["Units lost"] == "1 of 2 (windkin 1)"
    assert lines["Rounds survived"] == "6 of 20" and "Result" not in lines  # the host states it
    kill_unit(st, st.field.unit("Sa1"), [])
    lines = G.summary(st)
    assert st.outcome is not None and not st.outcome["winners"]
    assert lines["Units lost"] == "2 of 2 (windkin 1, sagekin 1)" and "Result" not in lines


def test_kills_and_losses_survive_a_save_and_load() -> None:
    st = make()
    st.kills, st.losses = {"windkin": 3}, {"sagekin": 1}
    back = G.from_json(G.to_json(st))
    assert back.kills == {"windkin": 3} and back.losses == {"sagekin": 1}


# ---- whose units a decision is about (a bot seat answers only about its own) ----------------------


def test_a_tie_between_two_players_units_concerns_both_players() -> None:
    st, _ = two_seat_tie(last="sagekin")
    assert G.concerned(st) == {"stoneborn", "windkin"}


def test_a_respawn_concerns_the_player_whose_unit_respawns() -> None:
    st = make()
    st.pending = {"kind": "respawn", "seat": "windkin", "prompt": "?", "default": "respawn left"}
    assert G.concerned(st) == {"windkin"}


def test_a_divine_favor_chance_concerns_the_whole_group() -> None:
    st = make(favor_prompts="on", favor_asks="every")
    for seat in THREE:
        G.act(st, seat, "end")
    assert G.to_act(st).decision == "divine_favor" and G.concerned(st) == frozenset()


# ---- the Enemy Phase's summary names every unit hit ------------------------------------------------


def test_the_enemy_phase_summary_names_every_unit_hit_and_by_how_much() -> None:
    st = make()
    put(st, "St1", "f6")
    put(st, "Wi1", "r18")
    put(st, "Sa1", "a18")
    minion(st, "f5")  # green: melee, 2 damage, right beside St1
    st.phase = "enemy"
    st.ep = {"step": "order"}
    events: list[Event] = []
    phases.run_enemy_phase(st, C, events)
    [summary] = [e for e in events if e.kind == "enemy_summary"]
    assert "1 unit hit (St1 2 damage)" in summary.text, summary.text


def test_the_villages_extra_damage_is_said_where_it_applies() -> None:
    st = make()
    put(st, "St1", "f18")  # the bottom row is the village ring
    put(st, "Wi1", "r17")
    put(st, "Sa1", "a12")
    minion(st, "f17")  # green: melee, 2 damage, right beside St1
    st.phase = "enemy"
    st.ep = {"step": "order"}
    events: list[Event] = []
    phases.run_enemy_phase(st, C, events)
    text = " ".join(e.text for e in events)
    assert "St1 takes 3 damage (+1 damage: the unit stands on a village square)" in text, text


# ---- divine favor the group agreed on in advance -------------------------------------------------


def _d20_with_an_ambush(favor_rule: str) -> tuple[IgniteState, list[Event]]:
    """Two green minions come from the right side (Ambush Right); seed 13 rolls a 16 first, which
    counts down to rows 16 and 17, the bottom two."""
    st = make(favor_rule=favor_rule, pace="async")  # async: nobody is asked
    st.in_effect = ["ambush right"]
    st.ep = {"step": "d20", "d6": 1, "spawns": [["green", 2]]}
    st.dice = Dice(13)
    events: list[Event] = []
    spawn_steps.step_d20(st, C, events)
    return st, events


def test_favor_rule_bottom_rows_rerolls_a_d20_that_places_minions_in_the_bottom_two_rows() -> None:
    st, events = _d20_with_an_ambush("bottom-rows")
    assert st.divine_favor == 1 and st.pending is None  # one token spent, unasked
    assert "the group's rule: reroll a D20 that places minions in the bottom two rows" in events[-1].text
    assert "rerolled from 16 to 2" in events[-1].text
    kept, _ = _d20_with_an_ambush("none")
    assert kept.divine_favor == 2 and kept.ep["d20"] == 16


def test_divine_favor_is_never_offered_for_a_card_with_no_effect() -> None:
    st = make(favor_prompts="on", favor_asks="every")
    st.power_deck = ["ambush left", "quiet dusk"]  # the first draw (from the end) changes nothing
    for seat in THREE:
        G.act(st, seat, "end")
    assert st.pending is None or "quiet dusk" not in st.pending["prompt"]
    assert "quiet dusk" in st.in_effect


def _d6_in_round_1(favor_rule: str, seed: int) -> tuple[IgniteState, list[Event]]:
    """Round 1's card spawns 3 minions on faces 1 and 3, 2 on the others; seed 1 rolls a 6, seed
    19 a 1."""
    st = make(favor_rule=favor_rule, pace="async")
    st.round = 1
    st.ep = {"step": "d6"}
    st.dice = Dice(seed)
    events: list[Event] = []
    spawn_steps.step_d6(st, C, events)
    return st, events


def test_favor_rule_largest_group_rerolls_a_d6_that_spawns_the_largest_group_once() -> None:
    st, events = _d6_in_round_1("largest-group", 19)
    assert st.divine_favor == 1 and st.pending is None  # one token, unasked; the new roll stands
    assert "the group's rule: reroll a D6 that spawns the Round card's largest enemy group" in events[-1].text
    assert "rerolled from 1 to" in events[-1].text and st.ep["d6"] != 1
    small, _ = _d6_in_round_1("largest-group", 1)  # a 6: two minions, not the largest group
    assert small.divine_favor == 2 and small.ep["d6"] == 6
    never, _ = _d6_in_round_1("none", 19)
    assert never.divine_favor == 2 and never.ep["d6"] == 1


def test_favor_rule_a_roll_or_draw_the_rule_redid_is_not_offered_again() -> None:
    """favor_prompts=on with a standing rule: the result the rule's token brought stands, so the
    group is not asked to spend another token on it (one pause and ping saved)."""
    st = make(favor_rule="largest-group", favor_prompts="on", favor_asks="every")
    st.round, st.ep, st.dice = 1, {"step": "d6"}, Dice(19)  # a 1: the largest group, rerolled
    events: list[Event] = []
    spawn_steps.step_d6(st, C, events)
    assert "rerolled from 1 to" in events[-1].text and st.divine_favor == 1
    assert st.pending is None
    d20, _ = _d20_with_an_ambush("bottom-rows")
    d20.options["favor_prompts"] = "on"
    d20.ep = {"step": "d20", "d6": 1, "spawns": [["green", 2]]}
    d20.dice, d20.divine_favor = Dice(13), 2
    spawn_steps.step_d20(d20, C, [])
    assert d20.divine_favor == 1 and d20.pending is None
    card = make(favor_rule="power-card", favor_prompts="on", favor_asks="every")
    card.power_deck = ["ambush right", "ambush left"]  # both have effects: a pause could matter
    card.ep = {"step": "power"}
    spawn_steps.step_power(card, C, [])
    assert card.divine_favor == 1 and card.in_effect == ["ambush right"] and card.pending is None
    # Without the rule the same roll is offered, as before.
    asked = make(favor_prompts="on", favor_asks="every")
    asked.round, asked.ep, asked.dice = 1, {"step": "d6"}, Dice(19)
    spawn_steps.step_d6(asked, C, [])
    assert asked.pending is not None and asked.pending["kind"] == "divine_favor"


def test_favor_rule_power_card_redraws_a_power_card_that_has_an_effect() -> None:
    st = make(favor_rule="power-card", pace="async")
    st.power_deck = ["quiet dusk", "ambush left"]  # drawn from the end: Ambush Left first
    st.ep = {"step": "power"}
    events: list[Event] = []
    spawn_steps.step_power(st, C, events)
    assert st.divine_favor == 1 and st.in_effect == ["quiet dusk"]
    assert any("the group's rule: redraw a Power card that has an effect" in e.text for e in events)
    quiet = make(favor_rule="power-card", pace="async")
    quiet.power_deck = ["ambush left", "quiet dusk"]  # Quiet Dusk has no effect: nothing to spend on
    quiet.ep = {"step": "power"}
    spawn_steps.step_power(quiet, C, [])
    assert quiet.divine_favor == 2 and quiet.in_effect == ["quiet dusk"]


def _symbol_draw(kind: str, rules: str = "2") -> tuple[IgniteState, list[Event]]:
    """Step 2c: a Round card symbol draws a card; Ambush Left is on top of the Power deck."""
    st = make(favor_rule="power-card", pace="async")
    st.options["rules"] = rules
    st.power_deck = ["quiet dusk", "ambush left"]  # drawn from the end: Ambush Left first
    st.ep = {"step": "draw_symbol", "queue": [kind]}
    events: list[Event] = []
    spawn_steps.step_draw_symbol(st, C, events)
    return st, events


def test_favor_rule_power_card_also_redraws_a_power_card_drawn_for_a_round_card_symbol() -> None:
    st, events = _symbol_draw("power")
    assert st.divine_favor == 1 and st.in_effect == ["quiet dusk"] and st.pending is None
    assert any("the group's rule: redraw a Power card that has an effect" in e.text for e in events)
    apocalypse, _ = _symbol_draw("apocalypse")  # the rule is about Power cards only
    assert apocalypse.divine_favor == 2 and len(apocalypse.in_effect) == 1


def test_favor_rule_power_card_version_1_keeps_a_symbols_power_card() -> None:
    """A game started under rules version 1 redrew only Step 1's Power card: it keeps that."""
    st, events = _symbol_draw("power", rules="1")
    assert st.divine_favor == 2 and st.in_effect == ["ambush left"]
    assert not any("Divine favor" in e.text for e in events)


def test_favor_rule_spends_the_tokens_in_a_seeded_async_game() -> None:
    """Three bots play a regular game at pace=async (no favor prompts) for five rounds: with a
    rule the tokens are spent, each said in the post; with none they are never used."""

    def play(rule: str) -> tuple[IgniteState, list[str]]:
        st = G.setup(list(THREE), G.validate_options({"pace": "async", "favor_rule": rule}), 5)
        said: list[str] = []
        while st.round <= 5 and G.outcome(st) is None:
            seat = sorted(G.to_act(st).seats)[0]
            action = G.choose_action(st, seat, "easy", Dice(1))
            said += [e.text for e in G.act(st, seat, str(action))[1]]
        return st, said

    spent, said = play("all")
    assert spent.divine_favor < 3
    assert sum("Divine favor (the group's rule: " in t for t in said) == 3 - spent.divine_favor
    kept, said = play("none")
    assert kept.divine_favor == 3 and not any("Divine favor" in t for t in said)


def test_favor_rule_a_token_spent_unasked_is_told_in_the_enemy_phase_summary() -> None:
    """The group's rule spends a token without a question: the Enemy Phase's one-line summary
    (the post's headline) says so, what it changed and how many tokens are left."""
    st = make(favor_rule="largest-group", pace="async")
    st.round, st.ep, st.dice = 1, {"step": "d6"}, Dice(19)  # a 1: the largest group, rerolled
    st.phase = "enemy"
    events: list[Event] = []
    phases.run_enemy_phase(st, C, events)
    summary = next(e for e in events if e.kind == "enemy_summary")
    new = next(e.data["roll"] for e in events if e.kind == "roll" and "rerolled" in e.text)
    assert f"Divine favor (group rule): D6 rerolled 1 → {new}; 1 token left." in summary.text
    quiet = make(favor_rule="none", pace="async")
    quiet.round, quiet.ep, quiet.dice, quiet.phase = 1, {"step": "d6"}, Dice(19), "enemy"
    told: list[Event] = []
    phases.run_enemy_phase(quiet, C, told)
    assert "Divine favor" not in next(e for e in told if e.kind == "enemy_summary").text
