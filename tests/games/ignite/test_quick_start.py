"""Issue 39, the quick start: `quick` takes a seat's whole setup (its placement and its free turns'
purchases, suggested for its race), so a three-player table reaches its first Enemy Phase in a
handful of commands; a seat that does not take it keeps every choice."""

from __future__ import annotations

import io
import itertools
import re
import typing
from collections import Counter
from pathlib import Path

import pytest

from bot.config import Settings
from bot.console import Console
from bot.host import Host
from bot.menus import PAGE, QUICK_LABEL
from engine.errors import IllegalAction
from games.ignite import quick_start
from games.ignite.board import square_name
from games.ignite.content import RaceEntry, load_content
from games.ignite.game import Ignite
from games.ignite.phases import bottom_village
from games.ignite.state import IgniteState
from storage import Repository

G = Ignite()
RACES = list(load_content().races)


def start(seats: list[str], **options: str) -> IgniteState:
    return G.setup(seats, {"placement": "choose", **options}, 7)


def cards_owned(state: IgniteState, seat: str) -> list[str]:
    c = state.cards[seat]
    return [state.card_names[i] for i in c.deck + c.hand + c.discard + c.played]


def test_quick_is_the_first_move_offered_in_the_placement_and_in_a_free_turn() -> None:
    state = start(["ratmen", "stoneborn", "windkin"])
    quick = G.legal_actions(state, "ratmen")[0]
    assert str(quick) == "quick"
    # The menu says beside it what it would do for this seat.
    assert quick_start.plan_of(load_content(), "ratmen").why in G.action_text(state, "ratmen", quick)
    G.act(state, "ratmen", "end")
    G.act(state, "stoneborn", "end")
    G.act(state, "windkin", "end")
    assert state.phase == "free"
    assert str(G.legal_actions(state, "ratmen")[0]) == "quick"


@pytest.mark.parametrize("race", RACES)
def test_quick_sets_up_a_seat_of_each_race_legally(race: str) -> None:
    others = [r for r in RACES if r != race][:2]
    seats = [race, *others]
    state = start(seats)
    before = {u.id: u.pos for u in state.field.units if u.seat != race}
    market = sum(state.market.values())
    _, events = G.act(state, race, "quick")
    plan = quick_start.plan_of(load_content(), race)
    # Its placement is made and ends: the units stand on free squares of the bottom village, the
    # other seats' units where they were, and the next seat places.
    mine = sorted(u.pos for u in state.field.units if u.seat == race)
    assert all(p in bottom_village(state) for p in mine)
    assert len(set(mine)) == len(mine)
    assert {u.id: u.pos for u in state.field.units if u.seat != race} == before
    assert state.phase == "placement" and state.seats[state.turn] == others[0]
    assert any(plan.why in e.text for e in events)
    # The others place as they like; the quick seat's free turns are then played for it.
    G.act(state, others[0], "end")
    G.act(state, others[1], "end")
    assert state.phase == "free" and state.seats[state.turn] == others[0]
    for _ in range(3):  # regular: 3 free turns each
        for seat in others:
            G.act(state, seat, "end")
    assert state.round == 1 and state.phase == "player"
    bought = len(cards_owned(state, race)) - 12  # 12 starting cards
    assert bought >= 3  # at least one card each free turn (6 Honor buys any plan card)
    assert sum(state.market.values()) == market - bought
    assert any(n in plan.cards for n in cards_owned(state, race))


@pytest.mark.parametrize("race", ["ratmen", "stoneborn"])
def test_a_solo_quick_start_spaces_the_units_as_its_race_plan_says(race: str) -> None:
    state = start([race])
    G.act(state, race, "quick")
    cols = sorted(u.pos[0] for u in state.field.units)
    gaps = {b - a for a, b in itertools.pairwise(cols)}
    assert gaps == {quick_start.plan_of(load_content(), race).spacing}
    # Alone at the table, every free turn is taken at once: round 1 is the player's first turn.
    assert state.round == 1 and state.phase == "player"
    assert str(G.legal_actions(state, race)[0]) != "quick"


def test_a_seat_that_does_not_take_the_quick_start_keeps_its_own_free_turns() -> None:
    state = start(["ratmen", "stoneborn"], placement="auto")
    assert state.phase == "free"
    _, events = G.act(state, "ratmen", "quick")
    assert any("free turn (quick start)" in e.text for e in events)
    # The stoneborn turn waits for its player, who may still take the quick start later.
    assert state.seats[state.turn] == "stoneborn"
    assert str(G.legal_actions(state, "stoneborn")[0]) == "quick"
    G.act(state, "stoneborn", "end")
    # The next cycle's ratmen turn was played for it as it came round.
    assert state.seats[state.turn] == "stoneborn" and state.free_left == 2


def test_quick_is_refused_from_round_1_on_saying_what_it_is_for() -> None:
    state = start(["windkin"], placement="auto")
    G.act(state, "windkin", "quick")
    with pytest.raises(IllegalAction, match="before round 1"):
        G.act(state, "windkin", "quick")


def test_a_game_that_never_took_the_quick_start_stores_the_state_it_stored_before() -> None:
    state = start(["windkin", "sagekin"])
    assert "quick" not in G.to_json(state)
    G.act(state, "windkin", "quick")
    again = G.from_json(G.to_json(state))
    assert again.quick == ["windkin"]
    assert str(G.legal_actions(again, "sagekin")[0]) == "quick"
    assert square_name(again.field.units[0].pos).endswith("18")


async def test_three_players_reach_the_first_enemy_phase_in_eleven_commands(tmp_path: Path) -> None:
    """The issue's goal, counted through the console: open, three joins and start (5), one
    `quick` each (3), then round 1 (one `end` each, 3)."""
    settings = Settings(
        db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"), rate_limit_per_minute=0
    )
    host = Host(await Repository.open(settings.db_path), settings, renderer=None)
    out = io.StringIO()
    console = Console(host, tmp_path / "img", out)
    setup = [
        "@alice /game new ignite seed:5",
        "@alice /game join ratmen",
        "@bob /game join stoneborn",
        "@carol /game join windkin",
        "@alice /game start",
    ]
    await console.run_lines(setup)
    # The first-word menu before turn 1 fits one page and offers the quick start.
    await console.run_line("@alice /press 1")
    menu = out.getvalue().rsplit("private to alice:", 1)[1]
    buttons = re.findall(r"\[(\d+)\] ([^\[\n]+)", menu)
    assert buttons[0][1].strip() == QUICK_LABEL
    assert len(buttons) <= PAGE + 2
    posts_before = out.getvalue().count("] public:")
    commands = [
        "@alice /play quick",
        "@bob /play quick",
        "@carol /play quick",
        "@alice /play end",
        "@bob /play end",
        "@carol /play end",
    ]
    await console.run_lines(commands)
    row = await host.repo.open_session_in("general")
    assert row is not None
    state = G.from_json(await host.repo.state(row.id) or {})
    text = out.getvalue()
    await host.close()
    assert "Round 1 of 20: Enemy Phase." in text
    assert (state.round, state.phase) == (1, "enemy") or state.round == 2
    assert len(setup) + len(commands) == 11
    # One public post a command from the first quick on: the free turns add none of their own.
    assert text.count("] public:") - posts_before == len(commands)
    assert "Sorry, something went wrong" not in text


def test_every_ability_a_races_file_may_name_has_a_quick_start_plan() -> None:
    """A group's own races file (CONTENT_DIR) picks its abilities from this list: each has a plan."""
    abilities = set(typing.get_args(RaceEntry.model_fields["ability"].annotation))
    assert abilities and set(quick_start.PLANS) == abilities


@pytest.mark.parametrize("race", RACES)
def test_the_quick_starts_line_says_what_its_free_turns_bought(race: str) -> None:
    """The play-test's stoneborn line said "buying `metal shield` and `flail`", and its free turns
    bought metal shield and large quiver: a line said after its free turns names what they bought."""
    for seed in (1, 2, 3, 7):
        state = G.setup([race], {"placement": "choose"}, seed)
        before = Counter(cards_owned(state, race))
        _, events = G.act(state, race, "quick")
        assert state.phase == "player"  # alone at the table: every free turn was played for it
        line = next(e.text for e in events if e.kind == "quick")
        assert "aiming" not in line, line  # no plan left to read as a purchase
        said = line.split("its free turns bought ")[1].removesuffix(".")
        told: Counter[str] = Counter()
        for part in re.split(r", | and ", said):
            name, _, times = part.partition(" ×")
            told[name] += int(times or 1)
        assert told == Counter(cards_owned(state, race)) - before, (line, seed)


def test_the_quick_starts_line_tells_the_aim_while_its_free_turns_are_to_come() -> None:
    state = start(["stoneborn", "ratmen"])
    _, events = G.act(state, "stoneborn", "quick")
    line = next(e.text for e in events if e.kind == "quick")
    assert line.startswith(
        "stoneborn takes the quick start: units side by side (the extra card), aiming to buy"
    )
    assert line.endswith("; its free turns are played for it."), line
