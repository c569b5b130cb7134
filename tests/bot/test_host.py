"""The host, driven as the console and Discord drive it: lobby, play, refusals, undo, restarts."""

from __future__ import annotations

import asyncio
import gc
import json
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.discord_frontend import THREAD_ARCHIVE_MINUTES
from bot.host import Host
from bot.host.notify import reminder_offsets
from bot.menus import ButtonId
from bot.posts import Caller, Post
from engine import Dice, get_game
from render import render_board

ALICE = Caller("alice", "alice", "table", guild="g1")
BOB = Caller("bob", "bob", "table", guild="g1")
CAROL = Caller("carol", "carol", "table", guild="g1")
ADMIN = Caller("admin", "admin", "table", guild="g1", is_manager=True)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def _settings(db_target: str, **kw: object) -> Settings:
    return Settings(db_path=db_target, **kw)  # type: ignore[arg-type]


@pytest.fixture
async def host(db_target: str) -> AsyncIterator[Host]:
    h = await Host.open(_settings(db_target), clock=Clock())
    yield h
    await h.close()


async def _two_player_ignis(host: Host, seed: int = 5, **options: str) -> None:
    await host.command(ALICE, "new", {"game": "ignis", "seed": str(seed), **options})
    await host.command(ALICE, "join", {"seat": "fire"})
    await host.command(BOB, "join", {})
    posts = await host.command(ALICE, "start", {})
    assert "begins" in posts[0].text


async def _version(host: Host, channel: str = "table") -> int:
    row = await host.repo.open_session_in(channel)
    assert row is not None
    return row.version


def _private(posts: list[Post], user: str) -> str:
    assert len(posts) == 1 and posts[0].to == user, posts
    return posts[0].text


async def _legal(host: Host) -> tuple[str, list[str]]:
    row = await host.repo.open_session_in("table")
    assert row is not None
    game = get_game(row.game)
    state = game.from_json(await host.repo.state(row.id) or {})
    seat = sorted(game.to_act(state).seats)[0]
    return seat, [str(a) for a in game.legal_actions(state, seat)]


async def test_whole_ignis_game_between_two_people(host: Host) -> None:
    await _two_player_ignis(host)
    dice = Dice(11)
    callers = {"fire": ALICE, "water": BOB}
    final: list[Post] = []
    for _ in range(400):
        row = await host.repo.open_session_in("table")
        if row is None:
            break
        seat, legal = await _legal(host)
        final = await host.command(callers[seat], "play", {"action": legal[dice.below(len(legal))]})
        assert final[0].to is None, final[0].text
        assert final[-1].images, "a two-player game posts a picture after every move"
    assert await host.repo.open_session_in("table") is None
    row = await host.repo.latest_session_in("table")
    assert row is not None and row.status == "finished" and row.outcome is not None
    assert "Game over" in final[-1].text
    assert final[-1].images[0].data.startswith(b"\x89PNG")


async def test_turn_notice_mentions_the_next_player_with_buttons(host: Host) -> None:
    await _two_player_ignis(host)
    posts = await host.command(ALICE, "play", {"action": "earth a3 east"})
    assert posts[-1].mentions == ["bob"] and "water (bob)" in posts[-1].text
    labels = [c.label for c in posts[-1].choices]
    assert labels == ["air …", "earth …", "Explain terms", "Suggest a move"]


async def test_buttons_walk_piece_then_square_then_direction(host: Host) -> None:
    await _two_player_ignis(host)
    posts = await host.command(ALICE, "board", {})
    version = await _version(host)
    menu_id = str(ButtonId(1, version, "p", "0 earth"))
    squares = await host.press(ALICE, menu_id)
    assert squares[0].to == "alice"
    corner = next(c for c in squares[0].choices if c.label == "a1 …")
    directions = await host.press(ALICE, corner.custom_id)
    assert sorted(c.label for c in directions[0].choices) == ["Explain terms", "east", "north"]
    north = next(c for c in directions[0].choices if c.label == "north")
    played = await host.press(ALICE, north.custom_id)
    assert played[0].to is None and "earth a1 north" in played[0].text
    # The same button again is stale: refused privately, applied once only.
    again = await host.press(ALICE, north.custom_id)
    assert "moved on" in _private(again, "alice")
    row = await host.repo.open_session_in("table")
    assert row is not None
    assert [a.notation for a in await host.repo.actions(row.id)] == ["earth a1 north"]
    assert posts  # the board command answered


@pytest.mark.parametrize(
    ("caller", "command", "args", "expect"),
    [
        (ALICE, "new", {"game": "chess"}, "no game `chess`"),
        (ALICE, "new", {"game": "ignis", "options": "layout=spiral"}, "layout"),
        (ALICE, "new", {"game": "ignis", "options": "speed=fast"}, "no option `speed`"),
        (ALICE, "new", {"game": "ignis", "seed": "abc"}, "whole number"),
        (ALICE, "new", {"game": "ignis"}, "already has"),
        (BOB, "play", {"action": "earth a3 east"}, "not your turn"),
        (CAROL, "play", {"action": "earth a3 east"}, "not seated"),
        (ALICE, "play", {"action": "fire a3 east"}, "not a move"),
        (ALICE, "play", {"action": "earth c3 east"}, "edge"),
        (ALICE, "play", {"action": ""}, "Name a move"),
        (CAROL, "join", {}, "already started"),
        (CAROL, "abandon", {}, "Manage Server"),
        (ALICE, "settings", {"name": "reminder_hours", "value": "2"}, "Manage Server"),
        (ADMIN, "settings", {"name": "colour", "value": "2"}, "no setting"),
        (ADMIN, "settings", {"name": "reminder_hours", "value": "soon"}, "number"),
        (ADMIN, "settings", {"name": "reminder_hours", "value": "1e-300"}, "between 0.25 and 2160"),
        (ADMIN, "settings", {"name": "decision_minutes", "value": "nan"}, "between 1 and 43200"),
        (ALICE, "frobnicate", {}, "no command"),
    ],
)
async def test_bad_input_is_refused_privately_and_changes_nothing(
    host: Host, caller: Caller, command: str, args: dict[str, str], expect: str
) -> None:
    await _two_player_ignis(host)
    before = await _version(host)
    posts = await host.command(caller, command, args)
    assert expect.lower() in _private(posts, caller.user_id).lower()
    assert await _version(host) == before


async def test_refusals_in_a_channel_without_a_game_or_before_start(host: Host) -> None:
    assert "no open game" in _private(await host.command(ALICE, "play", {"action": "air a2 east"}), "alice")
    await host.command(ALICE, "new", {"game": "ignis"})
    assert "not started" in _private(await host.command(ALICE, "play", {"action": "air a2 east"}), "alice")
    await host.command(ALICE, "join", {})
    assert "needs 2 seats filled" in _private(await host.command(ALICE, "start", {}), "alice")
    await host.command(BOB, "join", {})
    assert "full" in _private(await host.command(CAROL, "join", {}), "carol")
    assert "taken" in _private(await host.command(CAROL, "join", {"seat": "fire"}), "carol")
    assert "not a seat" in _private(await host.command(CAROL, "join", {"seat": "earth"}), "carol")


async def test_a_stale_button_from_an_earlier_position_is_refused(host: Host) -> None:
    await _two_player_ignis(host)
    old = await _version(host)
    await host.command(ALICE, "play", {"action": "earth a3 east"})
    stale = str(ButtonId(1, old, "a", "air a2 east"))
    assert "moved on" in _private(await host.press(BOB, stale), "bob")
    assert "not one of this bot's" in _private(await host.press(BOB, "hello"), "bob")


async def test_only_the_seated_user_acts_for_a_seat_by_button(host: Host) -> None:
    await _two_player_ignis(host)
    button = str(ButtonId(1, await _version(host), "a", "earth a3 east"))
    assert "not your turn" in _private(await host.press(BOB, button), "bob").lower()
    assert "not seated" in _private(await host.press(CAROL, button), "carol")
    assert (await host.press(ALICE, button))[0].to is None


async def test_undo_takes_back_your_own_last_move(host: Host) -> None:
    await _two_player_ignis(host)
    await host.command(ALICE, "play", {"action": "earth a3 east"})
    posts = await host.command(ALICE, "undo", {})
    assert "took back `earth a3 east`" in posts[0].text
    seat, _ = await _legal(host)
    assert seat == "fire"
    log = (await host.command(ALICE, "log", {}))[0].text
    assert "undo 1" in log  # the log stays append-only


async def test_undoing_an_opponents_move_needs_every_seats_consent(host: Host) -> None:
    await _two_player_ignis(host)
    await host.command(ALICE, "play", {"action": "earth a3 east"})
    ask = await host.command(BOB, "undo", {})
    assert "every seat must agree" in ask[0].text and ask[0].mentions == ["alice"]
    seat, _ = await _legal(host)
    assert seat == "water"  # nothing taken back yet
    agree = ask[0].choices[0].custom_id
    done = await host.press(ALICE, agree)
    assert "took back" in done[0].text
    seat, _ = await _legal(host)
    assert seat == "fire"


async def test_against_the_bot_undo_takes_back_the_reply_too(host: Host) -> None:
    await host.command(ALICE, "new", {"game": "ignis", "seed": "3"})
    await host.command(ALICE, "join", {"seat": "fire"})
    await host.command(ALICE, "ai", {"seat": "water", "level": "easy"})
    await host.command(ALICE, "start", {})
    posts = await host.command(ALICE, "play", {"action": "earth a3 east"})
    assert any("The bot (water, easy) plays" in p.text for p in posts)
    assert sum(len(p.images) for p in posts) == 1, "one picture for the move and the bot's reply"
    undone = await host.command(ALICE, "undo", {})
    assert "took back" in undone[0].text and undone[0].text.count("`") == 4
    seat, _ = await _legal(host)
    assert seat == "fire"


@pytest.mark.slow
async def test_game_against_each_bot_level_plays_to_the_end(db_target: str) -> None:
    for level in ("easy", "medium", "hard"):
        h = await Host.open(_settings(db_target), clock=Clock())
        await h.command(ALICE, "new", {"game": "ignis", "seed": "8"})
        await h.command(ALICE, "join", {"seat": "fire"})
        await h.command(ALICE, "ai", {"seat": "water", "level": level})
        await h.command(ALICE, "start", {})
        dice = Dice(4)
        for _ in range(300):
            if await h.repo.open_session_in("table") is None:
                break
            _, legal = await _legal(h)
            await h.command(ALICE, "play", {"action": legal[dice.below(len(legal))]})
        row = await h.repo.latest_session_in("table")
        assert row is not None and row.status == "finished", level
        await h.close()


async def test_only_an_organiser_seats_or_unseats_the_bot(host: Host) -> None:
    await host.command(ALICE, "new", {"game": "ignis"})
    refused = await host.command(CAROL, "ai", {"seat": "water", "level": "easy"})
    assert "opened this game or a seated player" in _private(refused, "carol")
    await host.command(ALICE, "ai", {"seat": "water", "level": "easy"})
    assert "opened this game" in _private(await host.command(CAROL, "leave", {"seat": "water"}), "carol")
    freed = await host.command(ALICE, "leave", {"seat": "water"})
    assert "takes the bot out of the water seat" in freed[0].text
    assert "taken" not in (await host.command(BOB, "join", {"seat": "water"}))[0].text


async def test_a_decision_answered_while_the_tick_waited_keeps_its_new_deadline(db_target: str) -> None:
    clock = Clock()
    h = await Host.open(_settings(db_target, decision_minutes=1.0), clock=clock)
    await h.command(ALICE, "new", {"game": "ignite", "seed": "3", "options": "placement=auto"})
    await h.command(ALICE, "join", {})
    await h.command(ALICE, "start", {})
    row = await h.repo.open_session_in("table")
    assert row is not None
    # A deadline in the future is never acted on, even if the session was listed as late.
    await h.repo.update_session(row.id, row.version, deadline=clock.now + 60)
    assert await h.play.apply_default(row.id) == []
    after = await h.repo.session(row.id)
    assert after is not None and after.version == row.version + 1  # only the deadline write
    await h.close()


async def test_a_resign_that_waited_while_the_game_ended_changes_nothing(host: Host) -> None:
    await _two_player_ignis(host)
    row = await host.repo.open_session_in("table")
    assert row is not None
    won = {"winners": ["fire"], "losers": ["water"], "reason": "Water has no token left."}
    confirm = (await host.command(BOB, "resign", {}))[0].choices[0].custom_id
    async with host.sessions.lock(row.id):  # a move is being applied when the confirmation arrives
        waiting = asyncio.create_task(host.press(BOB, confirm))
        await asyncio.sleep(0.05)
        await host.repo.update_session(row.id, row.version, status="finished", outcome=won)
    refused = await waiting
    assert "ended before that arrived" in _private(refused, "bob")
    after = await host.repo.session(row.id)
    assert after is not None and after.outcome == won


async def test_bot_moves_first_when_it_holds_the_first_seat(host: Host) -> None:
    await host.command(ALICE, "new", {"game": "ignis", "seed": "3"})
    await host.command(ALICE, "ai", {"seat": "fire", "level": "easy"})
    await host.command(ALICE, "join", {})
    posts = await host.command(ALICE, "start", {})
    assert any("The bot (fire, easy) plays" in p.text for p in posts)
    assert posts[-1].mentions == ["alice"]


async def test_restart_resumes_every_game_with_nothing_lost(db_target: str) -> None:
    h = await Host.open(_settings(db_target), clock=Clock())
    await _two_player_ignis(h)
    await h.command(ALICE, "play", {"action": "earth a3 east"})
    version = await _version(h)
    await h.close()
    h = await Host.open(_settings(db_target), clock=Clock())
    assert await _version(h) == version
    button = str(ButtonId(1, version, "a", "air a2 east"))
    posts = await h.press(BOB, button)  # a button posted before the restart still acts
    assert posts[0].to is None and "air a2 east" in posts[0].text
    await h.close()


async def test_resign_ends_a_two_player_game_for_the_opponent(host: Host) -> None:
    await _two_player_ignis(host)
    asked = await host.command(BOB, "resign", {})
    assert asked[0].to == "bob" and "really" in asked[0].text, "a resignation is confirmed first"
    assert (await host.repo.latest_session_in("table")).status == "active"  # type: ignore[union-attr]
    posts = await host.press(BOB, asked[0].choices[0].custom_id)
    assert "fire (alice) won" in posts[0].text and posts[0].images, "the end comes with a picture"
    row = await host.repo.latest_session_in("table")
    assert (
        row is not None
        and row.status == "finished"
        and row.outcome == {"winners": ["fire"], "losers": ["water"], "reason": "bob (water) resigned."}
    )
    # The last picture, and the replay's last frame, show the game ended, not whose move it was.
    last = (await host.repo.frames(row.id))[-1]
    assert last.view["outcome"] == row.outcome and last.caption == "bob (water) resigned."  # said once
    names = {"fire": "alice", "water": "bob"}
    ended = render_board("ignis", last.view, names)
    assert posts[0].images[0].data == ended != render_board("ignis", {**last.view, "outcome": None}, names)


async def test_abandon_by_host_frees_the_channel(host: Host) -> None:
    await host.command(ALICE, "new", {"game": "ignis", "seat": "fire"})
    await host.command(BOB, "join", {})
    assert "abandoned" in (await host.command(ALICE, "abandon", {}))[0].text
    assert (await host.command(BOB, "new", {"game": "ignis"}))[0].to is None


async def test_manager_may_abandon_someone_elses_game(host: Host) -> None:
    await _two_player_ignis(host)
    assert "abandoned" in (await host.command(ADMIN, "abandon", {}))[0].text


async def test_export_is_a_json_file_with_the_moves_and_result(host: Host) -> None:
    await _two_player_ignis(host, seed=12)
    await host.command(ALICE, "play", {"action": "earth a3 east"})
    posts = await host.command(BOB, "export", {})
    data = json.loads(posts[0].files[0].data)
    assert posts[0].to == "bob"
    assert data["game"] == "ignis" and data["seed"] == 12
    assert data["moves"] == [{"seat": "fire", "notation": "earth a3 east"}]
    assert [s["seat"] for s in data["seats"]] == ["fire", "water"]
    assert "public_view" in data and "final_state" not in data


async def test_moves_lists_legal_moves_privately_one_per_line(host: Host) -> None:
    await _two_player_ignis(host)
    posts = await host.command(ALICE, "moves", {})
    _, legal = await _legal(host)
    assert posts[0].to == "alice"
    assert posts[0].text.splitlines()[1:] == legal


async def test_autocomplete_filters_the_callers_legal_moves(host: Host) -> None:
    await _two_player_ignis(host)
    hits = await host.autocomplete(ALICE, "earth a")
    assert hits and all(h.startswith("earth a") for h in hits) and len(hits) <= 25
    assert await host.autocomplete(BOB, "earth") == []  # not bob's turn
    assert len(await host.autocomplete(ALICE, "")) == 25


async def test_reminders_never_leave_a_game_silent_as_long_as_a_threads_auto_archive(db_target: str) -> None:
    """Discord archives a thread after 7 days without a message, and then refuses slash commands in
    it: however far apart the reminders grow, no gap reaches that (the default 24 hours here)."""
    clock = Clock()
    h = await Host.open(_settings(db_target), clock=clock)
    await _two_player_ignis(h)
    start = clock.now
    due: list[float] = []
    for _ in range(24 * 20):  # 20 days, hour by hour
        clock.now += 3600
        due += [(clock.now - start) / 3600 for _ in await h.tick()]
    assert due == [24, 72, 168, 312], "twice as long each time, but never more than 6 days"
    gaps = [b - a for a, b in zip([0.0, *due], due, strict=False)]
    assert max(gaps) < THREAD_ARCHIVE_MINUTES / 60
    await h.close()


@pytest.mark.parametrize("hours", [0.25, 2, 24, 100, 200, 2160])
def test_every_reminder_gap_is_shorter_than_a_threads_auto_archive(hours: float) -> None:
    offsets = reminder_offsets(hours)
    gaps = [b - a for a, b in zip([0.0, *offsets], offsets, strict=False)]
    assert all(0 < g < THREAD_ARCHIVE_MINUTES / 60 for g in gaps), gaps


async def test_reminders_inform_come_further_apart_and_stop_with_a_stalled_notice(db_target: str) -> None:
    clock = Clock()
    h = await Host.open(_settings(db_target, reminder_hours=2.0), clock=clock)
    await _two_player_ignis(h)
    start = clock.now
    assert await h.tick() == []
    sent: list[tuple[float, Post]] = []
    for _ in range(40):  # 40 hours, tick by tick
        clock.now += 3600
        sent += [(clock.now - start, p) for p in await h.tick()]
    hours = [round(t / 3600) for t, _ in sent]
    assert hours == [2, 6, 14, 30], "each reminder comes twice as long after the last, then they stop"
    first = sent[0][1]
    assert first.mentions == ["alice"] and "waited 2 hours for alice (fire) to make a move" in first.text
    last = sent[-1][1]
    assert "stalled" in last.text and "/seat ai" in last.text and "/seat claim" in last.text
    assert "alice" in last.mentions, "the opener hears the game stalled"
    # A move starts a new wait with fresh reminders.
    await h.command(ALICE, "play", {"action": "earth a3 east"})
    clock.now += 2 * 3600 + 1
    posts = await h.tick()
    assert len(posts) == 1 and posts[0].mentions == ["bob"]
    await h.close()


async def test_spam_is_refused_politely(db_target: str) -> None:
    h = await Host.open(_settings(db_target, rate_limit_per_minute=5), clock=Clock())
    answers = [await h.command(ALICE, "status", {}) for _ in range(7)]
    assert "too fast" in answers[-1][0].text and answers[-1][0].to == "alice"
    await h.close()


async def test_server_settings_change_by_a_manager(host: Host) -> None:
    posts = await host.command(ADMIN, "settings", {"name": "reminder_hours", "value": "6"})
    assert "set reminder_hours to 6" in posts[0].text
    shown = await host.command(ALICE, "settings", {})
    assert "reminder_hours=6" in shown[0].text


async def test_help_lists_games_and_options(host: Host) -> None:
    listing = (await host.command(ALICE, "help", {}))[0].text
    assert "`ignis`" in listing
    rules = (await host.command(ALICE, "help", {"game": "ignis"}))[0].text
    assert "edge_removal" in rules and "air_stays_air" in rules


async def test_the_host_keeps_no_lock_or_rate_entry_for_idle_sessions_and_users(db_target: str) -> None:
    clock = Clock()
    h = await Host.open(_settings(db_target), clock=clock)
    await _two_player_ignis(h)
    await h.command(ALICE, "play", {"action": "earth a3 east"})
    gc.collect()
    assert len(h.sessions.locks) == 0  # a session's lock lives only while someone holds or awaits it
    clock.now += 61
    await h.tick()
    assert not h.gate.recent  # the rate limit forgets users idle for a minute
    await h.close()


async def test_an_undo_back_to_a_pending_decision_restarts_its_clock(db_target: str) -> None:
    clock = Clock()
    h = await Host.open(_settings(db_target, decision_minutes=5.0), clock=clock)
    await h.command(ALICE, "new", {"game": "ignite", "seed": "3", "options": "placement=auto"})
    await h.command(ALICE, "join", {})
    await h.command(BOB, "join", {})
    await h.command(ALICE, "start", {})
    game = get_game("ignite")
    callers = {}
    for _ in range(200):  # end turns until the bot offers divine favor after a draw or roll
        row = await h.repo.open_session_in("table")
        assert row is not None
        callers = {s.seat: ALICE if s.user_id == ALICE.user_id else BOB for s in row.seats}
        state = game.from_json(await h.repo.state(row.id) or {})
        if game.to_act(state).decision == "divine_favor":
            break
        seat = sorted(game.to_act(state).seats)[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        await h.command(callers[seat], "play", {"action": "end" if "end" in legal else legal[0]})
    assert game.to_act(state).decision == "divine_favor"
    seat = sorted(game.to_act(state).seats)[0]
    other = BOB if callers[seat] is ALICE else ALICE
    await h.command(callers[seat], "play", {"action": "keep"})
    clock.now += 3600
    # Keeping the roll goes on with the enemy phase, which rolls: the other player must agree.
    await h.command(callers[seat], "undo", {})
    undone = await h.command(other, "undo", {})
    assert "took back" in undone[0].text
    row = await h.repo.open_session_in("table")
    assert row is not None and row.deadline == clock.now + 5 * 60
    await h.close()
