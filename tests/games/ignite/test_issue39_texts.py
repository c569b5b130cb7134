"""Issue 39, what a new group tripped over in Ignite's words: a tie told as "the nearest unit",
the glossary against the rules (lightning and forests, the village's extra damage, the Hex card),
the Round card's wording and layout, the text board's 68 village squares, a loss count past its
limit, rock called "occupied" and a windkin March that said "up to 2"."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, NotationError
from engine.game import Event
from games.ignite import phases
from games.ignite.board import parse_square
from games.ignite.cards import new_card
from games.ignite.content import load_content
from games.ignite.enemy_attacks import can_affect
from games.ignite.game import Ignite
from games.ignite.rules import round_set
from games.ignite.state import Action, IgniteState
from games.ignite.units import damage_unit, kill_unit
from games.ignite.views import round_card_text, round_card_view
from tests.games.ignite.positions import minion, open_field

G = Ignite()
C = load_content()
THREE = ("stoneborn", "windkin", "sagekin")


def make(seats: tuple[str, ...] = THREE, **opts: str) -> IgniteState:
    return open_field(seats, **opts)


def entry(name: str) -> str:
    term = G.glossary().find(name)
    assert term is not None, name
    return term.text


# ---- a tie nobody is asked about ---------------------------------------------------------------------


def test_a_tie_settled_because_every_answer_is_the_same_is_told_as_a_tie() -> None:
    st = make()
    st.field.unit("St1").pos = parse_square("e10")
    st.field.unit("Wi1").pos = parse_square("g10")
    st.field.unit("Sa1").pos = parse_square("r18")
    m = minion(st, "f2")
    st.phase, st.ep = "enemy", {"step": "move", "order": [m.id]}
    events: list[Event] = []
    phases.run_enemy_phase(st, C, events)
    told = next(e.text for e in events if e.kind == "enemy_reasons")  # its reasons, one tap away
    assert st.pending is None  # not asked: either way it walks f2 → f4
    assert "the nearest unit" in told
    assert "(A tie: the units on e10 and g10 are equally near" in told
    assert "nobody is asked; it takes the first, e10.)" in told
    # Said next to the target it explains, before the move.
    assert told.index("A tie") < told.index("Moves")


# ---- the glossary against the rules ------------------------------------------------------------------


def test_lightning_and_forests_read_in_the_glossary_as_the_rules_play_them() -> None:
    st = make(("windkin",))
    unit = st.field.units[0]
    unit.pos = parse_square("e16")
    st.field.set_terrain(parse_square("e14"), "forest")
    minion(st, "e14")
    st.cards["windkin"].hand = [new_card(st, "lightning bolt")]
    # The player's Lightning Bolt is no fire: it is refused on a minion in a forest...
    with pytest.raises(IllegalAction, match="no fire"):
        G.act(st, "windkin", "lightning bolt Wi1 e14")
    # ...while the enemies' lightning reaches a unit in a forest (the rulebook's Rule 3 note).
    unit.pos = parse_square("e14")
    assert can_affect(st.field, "lightning", unit)
    assert not can_affect(st.field, "arrow", unit)
    # The glossary says both, and no longer that "lightning" (any) reaches into a forest.
    for name in ("forest", "lightning"):
        assert "Lightning Bolt" in entry(name) and "no fire" in entry(name), name
    assert "enemies' fire and lightning" in entry("reach")


def test_the_hex_card_has_an_entry_under_the_name_players_read() -> None:
    assert G.glossary().find("Hex card") is not None
    assert "takes the place of a card of your hand" in entry("Hex card")


def test_the_village_entry_says_a_unit_there_takes_one_more_damage() -> None:
    st = make(("stoneborn",))
    unit = st.field.units[0]
    assert st.field.terrain_at(unit.pos) == "village"
    before = unit.health
    damage_unit(st, unit, 1, [], "an arrow")
    assert before - unit.health == 2  # the rule: +1 on a village space
    assert "1 more damage" in entry("village")
    assert "ring" in entry("village")  # the top village too, not only the bottom row


# ---- the Round card ----------------------------------------------------------------------------------


def test_a_round_card_symbol_is_said_as_drawn_on_any_roll() -> None:
    st = make()
    cards = C.rounds[round_set(len(st.seats))]
    with_top = 0
    for number, card in enumerate(cards, 1):
        st.ep["round_card"] = number
        view = round_card_view(st, C)
        assert view is not None
        words = view["name"] + " ".join(view["faces"].values())
        assert "whatever is rolled" not in words
        if card.top and not card.boss:
            with_top += 1
            assert view["name"].endswith(" on any roll"), view["name"]
    assert with_top >= 1


def test_the_round_card_gives_each_face_a_line_of_its_own() -> None:
    st = make()
    st.ep["round_card"] = 1
    view = round_card_view(st, C)
    assert view is not None
    lines = round_card_text(view).splitlines()
    for face, text in view["faces"].items():
        assert f"- {face}: {text}" in lines


# ---- the text board ----------------------------------------------------------------------------------


def test_the_text_board_gives_the_village_as_four_runs_not_68_squares() -> None:
    st = make()
    groups = {g.heading: g for g in G.board(G.view(st, None))}
    village = groups["Village squares (68) in runs"]
    assert [p.place for p in village.pieces] == ["a1-r1", "a2-a17", "r2-r17", "a18-r18"]


# ---- the loss count ----------------------------------------------------------------------------------


def test_a_loss_past_the_limit_is_not_told_as_more_of_the_limit() -> None:
    st = make(("ratmen", "stoneborn", "windkin"))
    st.lost_halves = 5  # 2.5 of 3: a whole unit more goes past it
    events: list[Event] = []
    kill_unit(st, st.field.unit("St1"), events)
    told = next(e.text for e in events if e.kind == "unit_killed")
    assert "3.5 of 3" not in told
    assert "Units lost: 3.5, past the limit of 3." in told
    assert "3.5 of 3" not in G.limits(st)[0].now


# ---- refusals and card texts -------------------------------------------------------------------------


def test_a_march_onto_rock_is_refused_as_rock_not_as_occupied() -> None:
    st = make(("windkin",))
    st.field.units[0].pos = parse_square("c18")
    st.field.set_terrain(parse_square("c16"), "rock")
    st.cards["windkin"].hand = [new_card(st, "march")]
    with pytest.raises(IllegalAction) as err:
        G.act(st, "windkin", "march Wi1 c16")
    assert "rock" in str(err.value) and "occupied" not in str(err.value)


def test_a_windkin_march_says_how_far_windkin_move() -> None:
    st = make(("windkin", "stoneborn"))
    st.cards["windkin"].hand = [new_card(st, "march")]
    march = Action("play", card="march", unit="Wi1", square="c16")
    assert "up to 3 spaces" in G.action_text(st, "windkin", march)
    assert "up to 3 spaces" in G.view(st, "windkin")["hand"][0]["text"]
    # Another race's March says only the card's own words.
    st.cards["stoneborn"].hand = [new_card(st, "march")]
    assert "up to 3" not in G.action_text(st, "stoneborn", Action("play", card="march", unit="St1"))


def test_the_status_names_the_seat_owing_a_respawn_once() -> None:
    st = make(("windkin", "stoneborn"), respawn="phase-start")
    st.respawn_queue.append("windkin")
    phases.next_respawn(st, [])
    told = G.describe(G.view(st, None))
    assert "Waiting for windkin: respawn a unit" in told
    assert "windkin: windkin:" not in told


# ---- a typo's forms ------------------------------------------------------------------------------------


def test_a_typo_in_a_round_shows_only_the_forms_of_moves_legal_then() -> None:
    # The play-test's `arow Ra1 c17` in a round was told `favor reroll`, `keep`, `choose d12`,
    # `respawn left`, `place Ra1 c18` and `quick` as move shapes before the legal list.
    st = make()
    st.phase, st.round = "player", 1
    seat = st.seats[st.turn]
    legal = [str(a) for a in G.legal_actions(st, seat)]
    with pytest.raises(NotationError) as refused:
        G.act(st, seat, "arow Ra1 c17")
    said = str(refused.value)
    forms = said.split("A move reads like")[1].split("Legal now:")[0]
    assert "`play march Ra1 c17`" in forms and "`end`" in forms, said
    for absent in ("favor", "keep", "choose", "respawn", "place", "quick"):
        assert not any(m.startswith(absent) for m in legal)
        assert absent not in forms, said
