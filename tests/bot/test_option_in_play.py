"""Options a game lets its players change while it runs (`/game settings name:<option>`): how
Ignite's group spends divine favor, say. One public post that pings nobody; a bad value, an
option fixed at the opening, a caller not seated or a game between sides get a private refusal
that says what is legal; the change is logged, survives a restart, and an undo keeps it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host
from bot.host.options import CHANGE_WINDOW_S, CHANGES_PER_WINDOW, changes
from bot.posts import Caller, Post
from engine import Game
from engine.fairness import verify
from engine.registry import all_games
from tests.bot.test_table_conformance import Clock

PEOPLE = [Caller(f"u{i}", f"player{i}", "table", guild="g1") for i in range(3)]
STRANGER = Caller("u9", "stranger", "table", guild="g1")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "options.sqlite3")


async def _ignite(host: Host, options: str = "placement=auto") -> None:
    await host.command(PEOPLE[0], "new", {"game": "ignite", "seed": "5", "options": options})
    for person in PEOPLE:
        await host.command(person, "join", {})
    await host.command(PEOPLE[0], "start", {})


async def _options(host: Host) -> dict[str, str]:
    row = await host.repo.open_session_in("table")
    assert row is not None
    state: dict[str, Any] = await host.repo.state(row.id) or {}
    return dict(state["options"])


def _public(posts: list[Post]) -> list[Post]:
    return [p for p in posts if p.to is None]


def _private(posts: list[Post]) -> str:
    [post] = [p for p in posts if p.to is not None]
    return post.text


@pytest.fixture
async def host(db: str) -> AsyncIterator[Host]:
    h = await Host.open(Settings(db_path=db, rate_limit_per_minute=0), clock=Clock(), renderer=None)
    yield h
    await h.close()


async def test_a_seated_player_changes_the_favor_rule_in_one_public_post(host: Host) -> None:
    await _ignite(host)
    posts = await host.command(PEOPLE[1], "settings", {"name": "favor_rule", "value": "Largest-Group"})
    [post] = _public(posts)
    assert "player1 (" in post.text and "the favor rule setting from none to largest-group" in post.text
    # What the new value does, in players' words; no option notation in backticks.
    assert "spent without asking to reroll a D6 that spawns" in post.text and "`" not in post.text
    assert post.mentions == [] and post.choices, "nobody pinged; the turn's controls come again"
    assert (await _options(host))["favor_rule"] == "largest-group"
    row = await host.repo.open_session_in("table")
    assert row is not None
    kept = [(c["name"], c["value"], c["was"], c["by"]) for c in await changes(host.repo, row.id)]
    assert kept == [("favor_rule", "largest-group", "none", "u1")]
    # The same change again (a double click) changes nothing and says so privately.
    again = await host.command(PEOPLE[1], "settings", {"name": "favor_rule", "value": "largest-group"})
    assert not _public(again) and "already" in _private(again)


async def test_bad_input_is_refused_privately_with_what_is_legal(host: Host) -> None:
    await _ignite(host)
    bad = await host.command(PEOPLE[0], "settings", {"name": "favor_rule", "value": "sometimes"})
    assert not _public(bad)
    assert "none, bottom-rows, largest-group, power-card, all" in _private(bad)
    fixed = await host.command(PEOPLE[0], "settings", {"name": "difficulty", "value": "easy"})
    assert "set when the game is opened" in _private(fixed) and "`favor_rule`" in _private(fixed)
    outsider = await host.command(STRANGER, "settings", {"name": "ties", "value": "auto"})
    assert "Only the players seated" in _private(outsider)
    assert (await _options(host))["favor_rule"] == "none" and (await _options(host))["ties"] == "players"
    # Without a name: the server's settings, and this game's options with their values now.
    listed = [p.text for p in await host.command(PEOPLE[0], "settings", {}) if p.to is not None]
    assert any("reminder_hours" in t for t in listed)
    assert any(
        "`favor_rule` (none|bottom-rows|largest-group|power-card|all, now `none`)" in t for t in listed
    )


async def test_a_game_between_sides_keeps_its_options(host: Host) -> None:
    await host.command(PEOPLE[0], "new", {"game": "ignis", "seed": "2"})
    await host.command(PEOPLE[0], "join", {})
    await host.command(PEOPLE[1], "join", {})
    await host.command(PEOPLE[0], "start", {})
    refused = await host.command(PEOPLE[0], "settings", {"name": "layout", "value": "random"})
    assert not _public(refused) and "between sides" in _private(refused)


async def test_a_change_survives_a_restart_and_an_undo(db: str) -> None:
    first = await Host.open(Settings(db_path=db, rate_limit_per_minute=0), clock=Clock(), renderer=None)
    try:
        await _ignite(first)
        await first.command(PEOPLE[0], "play", {"action": "end"})  # a move made before the change
        await first.command(PEOPLE[1], "settings", {"name": "favor_rule", "value": "all"})
    finally:
        await first.close()
    again = await Host.open(Settings(db_path=db, rate_limit_per_minute=0), clock=Clock(), renderer=None)
    try:
        assert (await _options(again))["favor_rule"] == "all"
        await again.command(PEOPLE[0], "undo", {})  # `end` drew cards: every seat agrees
        await again.command(PEOPLE[1], "undo", {})
        undone = await again.command(PEOPLE[2], "undo", {})
        assert any("took back" in p.text for p in undone), [p.text for p in undone]
        assert (await _options(again))["favor_rule"] == "all", "an undo keeps the group's change"
    finally:
        await again.close()


# By game id, not by the object (its repr names an address, which differs in each pytest-xdist
# worker, and workers that collect different tests stop the run).
IN_PLAY = [g for g in all_games() if any(o.in_play for o in g.options)]


@pytest.mark.parametrize("game", IN_PLAY, ids=lambda g: g.id)
def test_every_option_a_game_lets_change_in_play_sticks_through_its_stored_state(
    game: Game[Any, Any],
) -> None:
    """A platform property: whatever game marks an option `in_play` keeps the change in its state."""
    options = game.validate_options({})
    lo, _ = game.seat_range(options)
    for spec in (o for o in game.options if o.in_play):
        state = game.setup(game.seat_names(options)[: max(lo, 1)], options, 3)
        for value in spec.choices:
            before = game.change_option(state, spec.name, value)
            assert before in spec.choices
            stored = game.from_json(game.to_json(state))
            assert game.change_option(stored, spec.name, value) == value, (spec.name, value)


@pytest.mark.parametrize("game", IN_PLAY, ids=lambda g: g.id)
def test_every_value_of_an_option_changed_in_play_says_what_it_does(game: Game[Any, Any]) -> None:
    """A platform property: the post of a change says what the new value does, in its own words
    (not the whole option's help), with no notation in backticks."""
    for spec in (o for o in game.options if o.in_play):
        for value in spec.choices:
            said = spec.meaning(value)
            assert said != spec.help and said and "`" not in said, (spec.name, value)


async def test_the_export_of_a_game_with_a_change_in_play_still_replays(host: Host) -> None:
    """Seed + moves + the changes of option, each before the move it preceded, replay to the
    final state (engine.fairness.verify), so the change cannot hide a different deal."""
    await _ignite(host)
    await host.command(PEOPLE[0], "play", {"action": "end"})
    await host.command(PEOPLE[2], "settings", {"name": "favor_rule", "value": "bottom-rows"})
    await host.command(PEOPLE[1], "play", {"action": "end"})
    for person in PEOPLE:  # the group concedes: the game is over and its seed revealed
        await host.command(person, "resign", {})
    [export] = [p for p in await host.command(PEOPLE[0], "export", {}) if p.files]
    data = json.loads(export.files[0].data)
    assert data["status"] == "finished", data["status"]
    assert [(c["name"], c["value"], c["moves"]) for c in data["option_changes"]] == [
        ("favor_rule", "bottom-rows", 1)
    ]
    assert data["final_state"]["options"]["favor_rule"] == "bottom-rows"
    assert verify(data) == []
    assert verify({**data, "option_changes": []}) != [], "without the change the replay differs"


async def test_turning_favor_prompts_off_with_a_question_asked_says_that_question_stands(host: Host) -> None:
    """The change takes effect from the next draw or roll: a divine favor question already asked
    is asked again in the change's post, and that post says why (a play-test read it as ignored)."""
    await _ignite(host, "placement=auto favor_asks=every")  # a question after each draw and roll
    asked = False
    for _ in range(12):  # the free turns end, then the Enemy Phase's first draw or roll asks
        for person in PEOPLE:
            posts = await host.command(person, "play", {"action": "end"})
            asked = asked or any("Spend a divine favor token" in p.text for p in _public(posts))
        if asked:
            break
    assert asked
    posts = await host.command(PEOPLE[1], "settings", {"name": "favor_prompts", "value": "off"})
    said = " ".join(p.text for p in _public(posts))
    assert "Spend a divine favor token" in said  # the question asked still waits for its answer
    assert "from the next draw or roll on" in said and "already asked still waits" in said, said


async def test_option_changes_are_paced_per_game_and_the_refusal_says_the_limit_and_the_wait(
    db: str,
) -> None:
    """One seated player changed an option 40 times in a minute: 29 public posts, and each change
    made the others' buttons stale. A game takes CHANGES_PER_WINDOW changes per window, whoever
    makes them; the refusal is private and says the limit and how long to wait."""
    clock = Clock()
    host = await Host.open(Settings(db_path=db, rate_limit_per_minute=0), clock=clock, renderer=None)
    try:
        await _ignite(host)
        values = ["all", "none", "bottom-rows", "largest-group"]
        public = []
        for n, value in enumerate(values * 10):
            posts = await host.command(PEOPLE[n % 2], "settings", {"name": "favor_rule", "value": value})
            public += _public(posts)
            clock.now += 1
        assert len(public) == CHANGES_PER_WINDOW
        refused = await host.command(PEOPLE[2], "settings", {"name": "favor_rule", "value": "power-card"})
        text = _private(refused)
        assert f"at most {CHANGES_PER_WINDOW} times in {CHANGE_WINDOW_S // 60} minutes" in text
        assert "in 10 minutes" in text, text  # 40 seconds into the window: ten minutes, rounded up
        assert (await _options(host))["favor_rule"] == values[CHANGES_PER_WINDOW - 1]
        clock.now += CHANGE_WINDOW_S
        later = await host.command(PEOPLE[2], "settings", {"name": "favor_rule", "value": "power-card"})
        assert _public(later)
    finally:
        await host.close()
