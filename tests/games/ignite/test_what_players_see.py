"""What a group sees of Ignite: card texts, the market, the hand, races and rounds in the help,
the notation without `play`, refusals that say why, narration told once with a summary first,
the picture's data (labels, whole paths, the tie's minion), and stored states of schema 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.host.core import said_of
from engine.dice import Dice
from engine.errors import IllegalAction
from games.ignite import phases
from games.ignite.board import Minion, blank_terrain, parse_square, square_name
from games.ignite.cards import new_card
from games.ignite.content import load_content
from games.ignite.game import Ignite
from games.ignite.state import SCHEMA, Action
from tests.games.ignite.positions import minion, open_field

G = Ignite()
C = load_content()
FIXTURE = Path(__file__).parents[2] / "reliability" / "fixtures" / "ignite_state_schema1.json"


# ---- cards, market, hand -------------------------------------------------------------------------


def test_card_text_gives_name_cost_honor_and_the_whole_text_marked_stand_in() -> None:
    text = G.card_text("Fire_Arrow")
    card = C.cards["fire arrow"]
    assert "fire arrow" in text and f"cost {card.cost}" in text and f"honor {card.honor}" in text
    assert card.text in text and "stand-in" in text.lower()
    assert "quiet dusk" in G.card_text("quiet dusk")  # Power cards too


def test_an_unknown_card_name_is_refused_listing_the_close_names() -> None:
    with pytest.raises(IllegalAction) as err:
        G.card_text("marhc")
    assert "march" in str(err.value) and "long bow" not in str(err.value)


def test_market_text_shows_each_deck_with_price_count_and_text() -> None:
    st = open_field()
    text = G.market_text(G.view(st, None))
    for name, count in st.market.items():
        assert f"**{name}** (cost {C.cards[name].cost}, honor {C.cards[name].honor}, {count} left)" in text
        assert C.cards[name].text in text


def test_hand_shows_every_card_with_cost_honor_and_text() -> None:
    st = open_field()
    st.cards["stoneborn"].hand = [new_card(st, "march"), new_card(st, "long bow")]
    text = G.describe(G.view(st, "stoneborn"))
    assert "Your hand (2):" in text
    assert f"**long bow** (cost {C.cards['long bow'].cost}, honor 2): {C.cards['long bow'].text}" in text
    assert "Your hand" not in G.describe(G.view(st, None))


def test_the_move_menu_can_show_the_card_each_move_plays() -> None:
    st = open_field()
    st.cards["stoneborn"].hand = [new_card(st, "march")]
    play = next(a for a in G.legal_actions(st, "stoneborn") if a.verb == "play")
    assert C.cards["march"].text in G.action_text(st, "stoneborn", play)
    assert G.action_text(st, "stoneborn", Action("end")) == ""


def test_help_lists_the_races_with_units_and_abilities_and_one_round_count() -> None:
    text = G.rules_help()
    for race in C.races.values():
        assert f"**{race.name}**" in text and race.text in text
    assert "6 units alone, 4 with two players, 2 with three or more" in text  # the ratmen's doubled units
    assert "rounds 1 to 19" in text and "19 rounds" not in text and "19 rounds" not in G.blurb


def test_status_says_round_n_of_20() -> None:
    st = open_field()
    assert G.describe(G.view(st, None)).startswith("Round 1 of 20, Player Phase.")


# ---- notation and refusals ---------------------------------------------------------------------------


def test_a_move_may_leave_out_play() -> None:
    st = open_field()
    assert G.parse(st, "march St1 e17") == Action("play", "march", "St1", "e17")
    assert G.parse(st, "Old_Wooden_Shield St1") == Action("play", "old wooden shield", "St1")


def test_refusal_says_no_target_in_range_and_lists_only_close_moves() -> None:
    st = open_field(("stoneborn", "windkin"))
    st.field.unit("St1").pos = parse_square("e17")
    minion(st, "e15")
    minion(st, "g16")
    st.cards["stoneborn"].hand = [new_card(st, "dagger"), new_card(st, "march")]
    with pytest.raises(IllegalAction) as err:
        G.act(st, "stoneborn", "dagger St1 e15")
    msg = str(err.value)
    assert "No target in range" in msg and "reaches 1-1" in msg
    assert "`play dagger St1 g16`" not in msg  # 2 away: not legal either
    assert "march" not in msg.split("Close legal moves:")[1]


def test_refusal_says_not_enough_honor() -> None:
    st = open_field()
    st.field.unit("St1").pos = parse_square("e18")
    with pytest.raises(IllegalAction) as err:
        G.act(st, "stoneborn", "buy long bow")
    assert "Not enough Honor" in str(err.value) and "you have 0" in str(err.value)


def test_refusal_names_your_units_when_the_unit_is_not_yours() -> None:
    st = open_field(("stoneborn", "windkin"))
    st.cards["stoneborn"].hand = [new_card(st, "march")]
    with pytest.raises(IllegalAction) as err:
        G.act(st, "stoneborn", "march Wi1 e16")
    assert "not one of your units" in str(err.value) and "St1" in str(err.value)


# ---- narration ----------------------------------------------------------------------------------------


def test_an_enemy_phase_opens_with_a_one_line_summary_naming_the_dead() -> None:
    st = open_field(("stoneborn", "windkin"), ties="auto")  # no pause: the phase runs in one post
    unit = st.field.unit("Wi1")
    unit.pos = parse_square("h10")
    unit.health = 1
    minion(st, "h8")  # green: 2 damage at range 1
    st.power_deck = ["quiet dusk"]  # a Power card that changes nothing
    G.act(st, "stoneborn", "end")
    _, events = G.act(st, "windkin", "end")
    first = 0
    assert events[first].kind == "enemy_summary"
    assert "Wi1 died" in events[first].text and events[first].data["died"] == ["Wi1"]
    # The summary names every unit hit and how much; the story says each hit once.
    assert "1 unit hit (Wi1 2 damage)" in events[first].text
    told = [e.text for e in events[1:] if "Wi1" in e.text and "damage" in e.text]
    assert len(told) == 1
    assert sum("Wi1 is defeated" in e.text for e in events) == 1


# ---- the picture's data -------------------------------------------------------------------------------


def test_units_and_minions_carry_short_unique_labels() -> None:
    st = G.setup(["ratmen", "stoneborn", "sagekin", "skyfolk"], {"placement": "auto"}, 3)
    minion(st, "e5")
    view = G.view(st, None)
    labels = {u["id"]: u["label"] for u in view["units"]}
    # A unit's name is the map's label: what the moves, the posts and the picture all say.
    assert {"Ra1", "Ra2", "St1", "Sa1", "Sk1"} <= set(labels) and all(k == v for k, v in labels.items())
    assert len(set(labels.values())) == len(labels)
    # A minion's label is its number; the colour's initial beside it on the map says the rest.
    numbers = [f"#{m['name'].rpartition('#')[2]}" for m in view["minions"]]
    assert [m["label"] for m in view["minions"]] == numbers
    assert [m["name"] for m in view["minions"]] == ["green minion #1"]


def test_a_unit_is_typed_as_the_map_shows_it_in_any_case_or_by_its_race_and_number() -> None:
    st = G.setup(["ratmen", "stoneborn"], {"placement": "auto"}, 3)
    where = square_name(st.field.unit("Ra1").pos)
    legal = {str(a) for a in G.legal_actions(st, "ratmen")}
    assert any(" Ra1 " in a for a in legal) and not any("ratmen1" in a for a in legal)
    for typed in ("march Ra1", "march ra1", "march ratmen1"):
        assert G.parse(st, f"{typed} {where}") == G.parse(st, f"march Ra1 {where}")
    assert G.parse(st, f"march Ra1 {where}").unit == "Ra1"


def test_a_game_begun_with_race_named_units_shows_and_takes_the_short_names() -> None:
    st = G.setup(["ratmen", "stoneborn"], {"placement": "auto"}, 3)
    for u in st.field.units:  # as units were named before: the race and a number
        u.id = f"{u.seat}{u.id[len(u.id.rstrip('0123456789')) :]}"
    labels = {u["id"]: u["label"] for u in G.view(st, None)["units"]}
    assert labels["ratmen1"] == "Ra1" and labels["stoneborn1"] == "St1"
    where = square_name(st.field.unit("ratmen1").pos)
    assert G.parse(st, f"march ra1 {where}").unit == "ratmen1"


def test_a_card_played_is_told_once_as_a_player_may_type_it() -> None:
    """The log and the post read "plays `march St1 e17`", not "plays `play march St1 e17`",
    and the told form is itself a move the game accepts."""
    st = open_field()
    play = next(a for a in G.legal_actions(st, "stoneborn") if a.verb == "play")
    told = said_of(G.play(G.copy(st), "stoneborn", str(play)))
    assert told == f"plays `{str(play).removeprefix('play ')}`" and "`play " not in told
    assert G.parse(st, told.removeprefix("plays ").strip("`")) == play
    assert said_of(G.play(st, "stoneborn", "end")) == "plays `end`"


def test_a_pending_tie_names_its_minion_square_and_candidate_squares() -> None:
    st = open_field(("stoneborn", "windkin", "sagekin"))
    st.field.unit("St1").pos = parse_square("d6")
    st.field.unit("Wi1").pos = parse_square("h6")
    st.field.unit("Sa1").pos = parse_square("r18")
    m = minion(st, "f5")
    st.phase = "enemy"
    st.ep = {"step": "move", "order": [m.id]}
    phases.run_enemy_phase(st, C, [])
    pending = G.view(st, None)["pending"]
    assert pending["minion"] == m.id and pending["square"] == "f5"
    assert pending["candidates"] == ["d6", "h6"]


# ---- stored states -------------------------------------------------------------------------------------


def test_a_schema_1_state_loads_with_its_shields_on_the_units_and_plays_on() -> None:
    data = json.loads(FIXTURE.read_text("utf-8"))
    data["shields"] = {data["field"]["units"][0]["id"]: 2}
    st = G.from_json(data)
    assert st.field.units[0].shield == 2
    assert G.to_json(st)["schema"] == SCHEMA and "shields" not in G.to_json(st)
    dice = Dice(5)
    for _ in range(150):
        if G.outcome(st) is not None:
            break
        seat = sorted(G.to_act(st).seats)[0]
        legal = G.legal_actions(st, seat)
        G.act(st, seat, str(legal[dice.below(len(legal))]))


def test_a_state_from_newer_code_is_refused() -> None:
    data = G.to_json(open_field())
    data["schema"] = 99
    with pytest.raises(ValueError):
        G.from_json(data)


def test_a_game_lost_in_the_enemy_phase_still_opens_with_the_summary_and_its_deaths() -> None:
    st = open_field(("stoneborn", "windkin", "sagekin", "skyfolk"), ties="auto")  # 2 losses lose
    for uid, sq, m_sq in (("Wi1", "c10", "c8"), ("Sa1", "m10", "m8")):
        unit = st.field.unit(uid)
        unit.pos, unit.health = parse_square(sq), 1
        minion(st, m_sq)
    st.power_deck = ["quiet dusk"]
    for seat in st.seats[:-1]:
        G.act(st, seat, "end")
    _, events = G.act(st, "skyfolk", "end")
    assert G.outcome(st) is not None
    assert events[0].kind == "enemy_summary" and set(events[0].data["died"]) == {"Wi1", "Sa1"}
    assert events[-1].kind == "game_over"


def test_joining_a_seat_says_which_race_it_is() -> None:
    text = G.seat_help("ratmen")
    assert text.startswith("**ratmen**: 6 units alone, 4 with two players") and text.endswith("\n")
    assert G.seat_help("nobody") == ""


def test_a_units_label_never_reads_like_a_minions() -> None:
    """Minions are labelled m1, m2...: a mendfolk unit, alone among m-races, reads `me1`."""
    import re

    from games.ignite.views import unit_labels

    for seats in (("mendfolk",), ("mendfolk", "stoneborn"), ("ratmen", "mendfolk", "windkin")):
        st = open_field(seats)
        labels = unit_labels(st)
        assert labels and not any(re.fullmatch(r"m\d+", lab) for lab in labels.values()), labels
        st.field.minions.append(Minion("m1", "green", 1, parse_square("c3")))
        view = G.view(st, None)
        unit_names = {u["label"] for u in view["units"]}
        assert not unit_names & {m["label"] for m in view["minions"]}


@pytest.mark.parametrize("ambush", [None, "left", "right"])
def test_where_enemies_enter_is_said_once_in_words(ambush: str | None) -> None:
    """The D20 is told by its own roll line; the placement then says only where that leads, in
    words ("on the top row from space 13, a space apart"), not the roll again nor the card's name
    (the Power card that brought the ambush was just told)."""
    from games.ignite.board import Battlefield
    from games.ignite.placement import place_minions

    for d20 in range(1, 21):
        out = place_minions(Battlefield(terrain=blank_terrain()), [("green", 1), ("red", 1)], d20, ambush)
        where = out.trace[0]
        assert where.startswith("The new minions enter ")
        assert where.endswith((", side by side.", ", a space apart.")), where
        assert "D20" not in where and "Ambush" not in where and "staggered" not in where, where


def test_joining_says_the_units_for_the_table_as_it_is_seated() -> None:
    """At a table of 2 the ratmen have 4 units: only that is said, not every table size."""
    text = G.seat_help("ratmen", 2)
    assert text.startswith("**ratmen**: 4 units (with 2 players seated now") and "alone" not in text
    assert G.seat_help("stoneborn", 3).startswith("**stoneborn**: 1 unit (with 3 players")
