"""The quick start and the setup in steps (rules version 3): a standard game reaches turn 1 in
at most three commands per player through the console, and no list of moves before turn 1 (the
text list, and so every level of the move menu) is longer than one menu page."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from helpers_battlelore import GAME, act, first, legal

from bot.config import Settings
from bot.console import Console
from bot.host import Host
from bot.menus import PAGE
from engine import Dice, IllegalAction
from games.battlelore import quick, setup
from games.battlelore.board import section_for
from games.battlelore.content import load_content
from games.battlelore.state import SEATS, State
from storage import Repository

SETUP = ("scenario", "draft", "muster", "deploy", "hands")


async def test_a_standard_game_reaches_turn_1_in_one_command_a_player_with_quick(tmp_path: Path) -> None:
    settings = Settings(
        db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"), rate_limit_per_minute=0
    )
    host = Host(await Repository.open(settings.db_path), settings, renderer=None)
    out = io.StringIO()
    console = Console(host, tmp_path / "img", out, as_json=True)
    users = {"daqan": "alice", "uthuk": "bob"}
    for line in ("@alice /game new battlelore seed:5", "@alice /game join daqan", "@bob /game join uthuk"):
        await console.run_line(line)
    await console.run_line("@alice /game start")
    commands = dict.fromkeys(SEATS, 0)
    widest = longest = 0
    for _ in range(20):
        row = await host.repo.open_session_in("general")
        assert row is not None
        state = GAME.from_json(await host.repo.state(row.id) or {})
        if state.phase == "play":
            break
        seat = sorted(GAME.to_act(state).seats)[0]
        moves = legal(state, seat)
        longest = max(longest, len(moves))
        widest = max(widest, len({m.split()[0] for m in moves}))
        assert moves[0] == "quick"
        await console.run_line(f"@{users[seat]} /play quick")
        commands[seat] += 1
    await host.close()
    assert state.phase == "play" and state.turn == 1
    assert commands == {"daqan": 1, "uthuk": 1}
    assert longest <= PAGE and widest <= PAGE
    posts = [json.loads(x) for x in out.getvalue().splitlines() if x.startswith("{")]
    public = "\n".join(p["text"] for p in posts if p["to"] is None)
    assert "quick: the suggested army for Daqan: " in public and "because" in public
    assert "is not legal" not in public


def _by_hand(options: dict[str, str], seed: int) -> tuple[State, int, int, dict[str, int]]:
    """A setup played by hand with seeded random choices (never `quick`): the longest list of
    moves and the most first words met at any decision before turn 1, and the commands made."""
    s = GAME.setup(list(SEATS), GAME.session_options(options), seed)
    dice = Dice(seed)
    longest = widest = 0
    commands = dict.fromkeys(SEATS, 0)
    while s.phase in SETUP:
        seat = sorted(GAME.to_act(s).seats)[0]
        moves = legal(s, seat)
        longest = max(longest, len(moves))
        widest = max(widest, len({m.split()[0] for m in moves}))
        by_hand = [m for m in moves if m != "quick"]
        # Mostly a step forward (a swap and a placement finished, a unit bought): a whole setup.
        done = [m for m in by_hand if m in ("done", "deploy auto")] if dice.below(3) == 0 else []
        act(s, seat, (done or by_hand)[dice.below(len(done or by_hand))])
        commands[seat] += 1
    return s, longest, widest, commands


@pytest.mark.parametrize(
    "options",
    [{}, {"dragon": "off"}, {"unspent": "keep"}, {"scenario": "into-the-fire"}],
    ids=["standard", "no-dragon", "unspent-keep", "into-the-fire"],
)
def test_no_list_of_moves_before_turn_1_is_longer_than_a_menu_page(options: dict[str, str]) -> None:
    for seed in range(1, 7):
        s, longest, widest, _ = _by_hand(options, seed)
        assert s.phase == "play"
        assert longest <= PAGE, (seed, longest)
        assert widest <= PAGE, (seed, widest)


def test_quick_is_offered_first_at_every_setup_choice_and_never_in_play() -> None:
    s = GAME.setup(list(SEATS), GAME.session_options({}), 3)
    while s.phase in SETUP:
        seat = sorted(GAME.to_act(s).seats)[0]
        assert legal(s, seat)[0] == "quick"
        act(s, seat, first(s, seat))
    assert "quick" not in legal(s, s.active)


def test_quick_takes_the_suggested_setup_and_tells_each_step_with_its_reason() -> None:
    s = GAME.setup(list(SEATS), GAME.session_options({}), 5)
    told = GAME.act(s, "daqan", "quick")[1]
    # Daqan's scenario card is chosen at once; its reason goes to Daqan alone.
    assert "daqan" in s.scenario_pick
    private = [e.text for e in told if e.to == frozenset({"daqan"})]
    chosen = GAME.card_text(s.cards[s.scenario_pick["daqan"]]).split("**")[1]
    assert any(chosen in t and "because" in t for t in private)
    assert not any(chosen in e.text for e in told if e.to is None)
    act(s, "uthuk", "scenario " + setup.named(s, s.piles["uthuk"]["scenario"])[0])
    # Daqan's draft was made for it (the dragon); Uthuk chooses its own.
    assert "great-dragon" in s.muster["daqan"]["units"] and s.draft["turn"] == "uthuk"
    act(s, "uthuk", "pass")
    # Daqan's whole muster followed: an army, the points spent, its lore swaps, done.
    m = s.muster["daqan"]
    assert m["done"] and m["swaps"] > 0 and not setup.purchases(s, "daqan")
    deck = [s.cards[c] for c in s.piles["daqan"]["lore_deck"]]
    assert "sun-lance" in deck  # damage lore swapped in
    assert quick.is_quick(s, "daqan") and not quick.is_quick(s, "uthuk")


def test_quick_tells_the_table_no_secret_choice() -> None:
    s = GAME.setup(list(SEATS), GAME.session_options({}), 5)
    told = GAME.act(s, "daqan", "quick")[1] + GAME.act(s, "uthuk", "quick")[1]
    public = "\n".join(e.text for e in told if e.to is None)
    swapped_in = {s.cards[c] for c in s.piles["daqan"]["lore_deck"]} - {"mending-light", "call-to-arms"}
    for name in swapped_in:
        assert GAME.card_text(name).split("**")[1] not in public
    kept = {GAME.card_text(s.cards[c]).split("**")[1] for c in s.piles["uthuk"]["hand"]}
    assert not any(f"keep {k}" in public for k in kept)
    assert "Daqan makes its lore swaps face down (quick start)" in public
    assert "discards" in public and s.phase == "play"


def test_swaps_and_deployment_are_chosen_in_steps_from_rules_version_3() -> None:
    s = GAME.setup(list(SEATS), GAME.session_options({"scenario": "into-the-fire"}), 4)
    assert "swap mending-light" in legal(s, "daqan")
    assert not [m for m in legal(s, "daqan") if m.startswith("swap ") and len(m.split()) == 3]
    act(s, "daqan", "swap mending-light")
    assert legal(s, "daqan") == ["quick", "swap mending-light sun-lance"]
    act(s, "daqan", "swap mending-light sun-lance")
    for seat, army in (("daqan", "fire-guard"), ("uthuk", "fire-raiders")):
        act(s, seat, f"army {army}")
        act(s, seat, "done")
    assert legal(s, "daqan") == [
        "quick",
        "deploy citadel-guard",
        "deploy decoy",
        "deploy yeoman-archers",
        "deploy auto",
    ]
    act(s, "daqan", "deploy decoy")
    shown = legal(s, "daqan")
    assert all(
        m.split()[:2] == ["deploy", "decoy"] for m in shown if m.startswith("deploy ") and m != "deploy auto"
    )
    flanks = [m for m in shown if m.startswith("flank ")]
    assert flanks and len(shown) <= PAGE


def test_a_version_2_session_keeps_its_whole_lists() -> None:
    s = GAME.setup(list(SEATS), {"scenario": "into-the-fire", "rules": "2"}, 4)
    assert "swap mending-light sun-lance" in legal(s, "daqan")
    for seat, army in (("daqan", "fire-guard"), ("uthuk", "fire-raiders")):
        act(s, seat, f"army {army}")
        act(s, seat, "done")
    hexes = setup.free_deploy_hexes(s, "daqan")
    assert f"deploy decoy {hexes[0]}" in legal(s, "daqan")


def test_a_whole_swap_or_placement_typed_before_its_first_step_says_which_step_comes_first() -> None:
    s = GAME.setup(list(SEATS), GAME.session_options({"scenario": "into-the-fire"}), 4)
    with pytest.raises(IllegalAction) as refused:
        GAME.act(s, "daqan", "swap mending-light sun-lance")
    assert "`swap mending-light`, then `swap mending-light sun-lance`" in str(refused.value)
    for seat, army in (("daqan", "fire-guard"), ("uthuk", "fire-raiders")):
        act(s, seat, f"army {army}")
        act(s, seat, "done")
    hexes = setup.free_deploy_hexes(s, "daqan")
    with pytest.raises(IllegalAction) as refused:
        GAME.act(s, "daqan", f"deploy decoy {hexes[0]}")
    assert f"`deploy decoy`, then `deploy decoy {hexes[0]}`" in str(refused.value)
    act(s, "daqan", "deploy decoy")
    elsewhere = next(h for h in hexes if f"deploy decoy {h}" not in legal(s, "daqan"))
    flank = section_for(elsewhere, "daqan")
    with pytest.raises(IllegalAction) as refused:
        GAME.act(s, "daqan", f"deploy decoy {elsewhere}")
    assert f"`flank {flank}` shows its free hexes first" in str(refused.value)


def test_the_bot_and_suggest_finish_a_swap_whose_deck_card_is_taken_up() -> None:
    s = GAME.setup(list(SEATS), GAME.session_options({"scenario": "into-the-fire"}), 4)
    act(s, "daqan", "swap call-to-arms")
    move = GAME.choose_action(s, "daqan", "medium", Dice(1))
    assert move.verb == "swap" and move.args[0] == "call-to-arms" and move in GAME.legal_actions(s, "daqan")


def test_quick_deploys_a_battle_line_melee_in_front_ranged_behind() -> None:
    kinds = {name: u.kind for name, u in load_content().units.items()}
    for seed in range(1, 5):
        s = GAME.setup(list(SEATS), GAME.session_options({"dragon": "off"}), seed)
        act(s, "daqan", "quick")
        act(s, "uthuk", "quick")
        assert s.phase == "play"
        for seat in SEATS:
            # How far forward each unit stands: rows counted from the seat's own edge.
            ahead = {
                u["id"]: int(u["hex"][1:]) if seat == "daqan" else 10 - int(u["hex"][1:])
                for u in s.units_of(seat)
            }
            melee = [ahead[u["id"]] for u in s.units_of(seat) if kinds[u["kind"]] == "melee"]
            ranged = [ahead[u["id"]] for u in s.units_of(seat) if kinds[u["kind"]] == "ranged"]
            assert melee and max(melee) == max(ahead.values())
            assert all(r < max(melee) for r in ranged), (seed, seat, melee, ranged)
