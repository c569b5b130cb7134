"""Issue 39, Ignite at the table's pace (rules version 3): by default an Enemy Phase stops for
divine favor once at most, and only where a token could spare a unit (games/ignite/favor_worth.py);
favor_asks=every asks after each draw and roll a token could change, as version 2 did."""

from __future__ import annotations

from games.ignite import favor_worth, spawn_steps
from games.ignite.board import Minion, Unit, distance, parse_square
from games.ignite.content import load_content
from games.ignite.game import Ignite
from games.ignite.placement import place_minions
from games.ignite.state import IgniteState
from tests.games.ignite.positions import open_field

G = Ignite()
C = load_content()


def make(seed: int = 1, **options: str) -> IgniteState:
    """One stoneborn seat (units St1 d18, St2 j18, St3 p18) on open ground, 2 favor tokens."""
    return open_field(("stoneborn",), seed, **{"favor_prompts": "on", **options})


def brute(st: IgniteState, square: str) -> None:
    """A green level 1 minion: movement 2, melee (range 1), 2 damage."""
    st.field.minions.append(Minion(st.field.new_minion_id(), "green", 1, parse_square(square)))


def enemy_phase(st: IgniteState, power_card: str) -> None:
    """The Enemy Phase up to its first question (or its end), the Power card drawn first."""
    st.power_deck.remove(power_card)
    st.power_deck.append(power_card)
    G.act(st, "stoneborn", "end")


def favor_pauses(st: IgniteState) -> int:
    """Play the Enemy Phase on, keeping every token offered; how many times it stopped to ask."""
    asked = 0
    round_no = st.round
    while st.round == round_no and st.outcome is None:
        p = st.pending
        if p is None:
            break
        asked += p["kind"] == "divine_favor"
        G.act(st, "stoneborn", str(G.to_act(st).default))
    return asked


def test_a_card_that_brings_a_minion_within_reach_of_a_unit_is_asked_about() -> None:
    st = make()
    brute(st, "d14")  # 4 from St1: out of reach with movement 2, in reach with tailwind's +1
    enemy_phase(st, "tailwind")
    assert st.pending is not None and st.pending["kind"] == "divine_favor"
    assert st.pending["what"] == "draw" and st.ep["last_draw"] == "tailwind"


def test_a_card_that_changes_no_attack_this_phase_is_not_asked_about() -> None:
    st = make()
    brute(st, "d10")  # 8 from St1: out of reach with tailwind too
    enemy_phase(st, "tailwind")
    assert favor_pauses(st) == 0


def test_an_enemy_phase_stops_for_divine_favor_once_at_most() -> None:
    # Many seeded phases with minions round the units: never a second question in a phase.
    asked = []
    for seed in range(1, 9):
        st = make(seed=seed)
        for square in ("d14", "j13", "p14", "f12"):
            brute(st, square)
        st.power_deck.remove("tailwind")
        st.power_deck.append("tailwind")
        G.act(st, "stoneborn", "end")
        asked.append(favor_pauses(st))
    assert max(asked) == 1 and 1 in asked


def test_favor_asks_every_brings_back_every_question() -> None:
    asked = []
    for seed in range(1, 9):
        st = make(seed=seed, favor_asks="every")
        for square in ("d14", "j13", "p14", "f12"):
            brute(st, square)
        G.act(st, "stoneborn", "end")
        asked.append(favor_pauses(st))
    assert max(asked) >= 2


def d20_asked(st: IgniteState, d20: int) -> bool:
    """Whether the D20 showing `d20` stops the phase for divine favor (one green minion to place)."""
    st.phase, st.pending = "enemy", None
    st.ep = {"step": "place", "spawns": [["green", 1]], "d6": 1, "d20": d20}
    spawn_steps.favor_pause(st, C, "roll", f"The D20 shows {d20}.")
    favor_worth.screen(st, C)  # as the Enemy Phase does after each step
    return st.pending is not None and st.pending["what"] == "roll"


def test_a_d20_that_places_a_minion_within_reach_of_a_unit_is_asked_about() -> None:
    st = make()
    st.field.units[0].pos = parse_square("d2")  # St1 up by the spawn row; the others far below
    landed = {
        face: place_minions(st.field.copy(), [("green", 1)], face).minions[0].pos for face in range(1, 21)
    }
    near = [f for f, p in landed.items() if distance(p, st.field.units[0].pos) <= 3]
    far = [f for f, p in landed.items() if distance(p, st.field.units[0].pos) > 3]
    assert near and far
    assert d20_asked(st, near[0])
    assert not d20_asked(st, far[0])


def test_a_d20_no_other_roll_could_better_is_not_asked_about() -> None:
    st = make()
    # Units round every square a D20 can place the first minion on (the top row, h9 and i9).
    for u, square in zip(st.field.units, ("d3", "k3", "p3"), strict=True):
        u.pos = parse_square(square)
    st.field.units.append(Unit("St4", "stoneborn", "stoneborn", parse_square("j7"), 3, 3))
    assert not any(d20_asked(st, face) for face in range(1, 21))


def test_version_2_keeps_asking_after_every_draw_and_roll() -> None:
    st = make(rules="2")
    assert "favor_asks" not in st.options
    G.act(st, "stoneborn", "end")  # an empty board: version 2 still asks about the Power card
    assert st.pending is not None and st.pending["kind"] == "divine_favor"
