"""What players ask of a running game (issues 12 and 13): the log a page at a time with undone
moves marked, results per player, a notice of absence, a seat handed over, the board as text or
with one's own controls, pictures with alt text, card and market texts, long phases kept short."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.host import Host
from bot.menus import ButtonId
from bot.posts import Caller, Post
from bot.text import console_user
from engine import Event, get_game

ALICE = Caller("alice", "alice", "table", guild="g1")
BOB = Caller("bob", "bob", "table", guild="g1")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    # Users are named as in the console (plain names), so `/game stats user:bob` names one.
    settings = Settings(db_path=str(tmp_path / "q.sqlite3"), rate_limit_per_minute=0)
    h = await Host.open(settings, clock=Clock(), user_ref=console_user)
    yield h
    await h.close()


async def _ignis(host: Host) -> None:
    await host.command(ALICE, "new", {"game": "ignis", "seed": "5", "seat": "fire"})
    await host.command(BOB, "join", {})
    await host.command(ALICE, "start", {})


async def _play_pairs(host: Host, pairs: int) -> None:
    for _ in range(pairs):
        for who in (ALICE, BOB):
            row = await host.repo.open_session_in("table")
            assert row is not None
            game = get_game("ignis")
            state = game.from_json(await host.repo.state(row.id) or {})
            seat = row.seat_of(who.user_id)[0]
            move = str(game.legal_actions(state, seat)[0])
            assert (await host.command(who, "play", {"action": move}))[0].to is None


async def _move(host: Host, who: Caller) -> list[Post]:
    row = await host.repo.open_session_in("table")
    assert row is not None
    game = get_game("ignis")
    state = game.from_json(await host.repo.state(row.id) or {})
    move = str(game.legal_actions(state, row.seat_of(who.user_id)[0])[0])
    return await host.command(who, "play", {"action": move})


async def test_log_shows_the_latest_moves_a_page_at_a_time_with_undone_moves_struck(host: Host) -> None:
    await _ignis(host)
    await _play_pairs(host, 12)  # 24 moves: three pages of ten
    latest = (await host.command(ALICE, "log", {}))[0]
    assert latest.text.startswith("Moves 15–24 of 24 (page 1 of 3)") and not latest.files
    assert [c.label for c in latest.choices] == ["Older moves"]
    older = await host.press(ALICE, latest.choices[0].custom_id)
    assert older[0].text.startswith("Moves 5–14 of 24 (page 2 of 3)")
    assert [c.label for c in older[0].choices] == ["Older moves", "Newer moves"]
    oldest = (await host.command(ALICE, "log", {"page": "3"}))[0]
    assert oldest.text.startswith("Moves 1–4 of 24 (page 3 of 3)")
    # bob takes back his last move: it stays in the log, struck through.
    await host.command(BOB, "undo", {})
    text = (await host.command(ALICE, "log", {}))[0].text
    assert "~~24. water (bob):" in text and "(undone)" in text
    refused = await host.command(ALICE, "log", {"page": "9"})
    assert refused[0].to == "alice" and "3 pages" in refused[0].text


async def test_stats_count_wins_and_losses_per_game(host: Host) -> None:
    for _ in range(2):
        await _ignis(host)
        asked = await host.command(BOB, "resign", {})
        await host.press(BOB, asked[0].choices[0].custom_id)
    mine = (await host.command(ALICE, "stats", {}))[0]
    assert mine.to == "alice" and "Ignis: 2 played — 2 won, 0 lost, 0 drawn" in mine.text
    theirs = (await host.command(ALICE, "stats", {"user": "bob"}))[0]
    assert "Ignis: 2 played — 0 won, 2 lost" in theirs.text


async def test_away_silences_every_ping_to_the_player_and_says_so_once(host: Host) -> None:
    await _ignis(host)
    # Alice also plays in two other channels: one /seat away is still one public post, here.
    for channel in ("den", "hall"):
        there = Caller("alice", "alice", channel, guild="g1")
        await host.command(there, "new", {"game": "ignis", "seed": "1"})
        await host.command(there, "join", {})
    answer = await host.command(ALICE, "away", {"days": "3"})
    assert [p.to for p in answer] == [None] and answer[0].channel == "table"
    assert "alice is away until" in answer[0].text and "#den" in answer[0].text and "#hall" in answer[0].text
    status = (await host.command(BOB, "status", {}))[0]
    assert "alice (fire) is away until" in status.text
    # Alice moves, then Bob: the turn comes back to Alice without a ping, and her seat says why.
    await _play_pairs(host, 1)
    posts = await _move(host, ALICE)
    assert posts[0].mentions == ["bob"]
    posts = await _move(host, BOB)
    assert posts[0].mentions == [] and "alice (fire) is away until" in posts[0].text
    host.clock.now += 25 * 3600  # type: ignore[attr-defined]
    reminder = next(p for p in await host.tick() if "Reminder" in p.text)
    assert reminder.mentions == [] and "alice is away until" in reminder.text
    bad = await host.command(ALICE, "away", {"days": "400"})
    assert bad[0].to == "alice" and "between 0 and 30" in bad[0].text
    # Back: the one post says in which game the move is hers now (its unpinged notice is far up
    # the channel) and where to catch up; the games still in their lobby wait on nobody.
    [back] = await host.command(ALICE, "away", {"days": "0"})
    assert "alice is back" in back.text and "/game recap" in back.text
    assert back.text.count("(their move now)") == 1 and "#table (their move now)" in back.text, back.text


async def test_a_seat_is_handed_to_someone_else_by_its_player_or_the_opener(host: Host) -> None:
    await _ignis(host)
    dana = {"seat": "water", "user": "@dana", "user_name": "dana"}
    refused = await host.command(Caller("carol", "carol", "table", guild="g1"), "replace", dana)
    assert refused[0].to == "carol" and "opener" in refused[0].text
    asked = await host.command(BOB, "replace", dana)
    assert asked[0].to is None and asked[0].mentions == ["dana"], "dana is asked first"
    handed = await host.press(Caller("dana", "dana", "table", guild="g1"), asked[0].choices[0].custom_id)
    assert handed[0].to is None and handed[0].mentions == ["dana"]
    row = await host.repo.open_session_in("table")
    assert row is not None and row.seat_of("dana") == ["water"] and row.seat_of("bob") == []


async def test_board_as_text_and_with_the_askers_controls(host: Host) -> None:
    await _ignis(host)
    text = (await host.command(ALICE, "board", {"format": "text"}))[0]
    assert not text.images and "fire" in text.text.lower()
    pic = (await host.command(ALICE, "board", {}))[0]
    assert pic.images and pic.images[0].description, "every picture has alt text"
    assert pic.choices and all(ButtonId.parse(c.custom_id) for c in pic.choices), "alice is to move"
    theirs = (await host.command(BOB, "board", {}))[0]
    assert not theirs.choices, "bob is not to move: no controls"
    bad = await host.command(ALICE, "board", {"format": "svg"})
    assert bad[0].to == "alice" and "picture or text" in bad[0].text


async def test_card_and_market_texts_are_private_and_ignis_says_it_has_none(host: Host) -> None:
    await host.command(ALICE, "new", {"game": "ignite", "seed": "3"})
    await host.command(ALICE, "join", {})
    await host.command(ALICE, "start", {})
    market = (await host.command(ALICE, "market", {}))[0]
    assert market.to == "alice" and market.text
    row = await host.repo.open_session_in("table")
    assert row is not None
    await host.command(ALICE, "abandon", {})
    await _ignis(host)
    card = await host.command(ALICE, "card", {"name": "fireball"})
    assert card[0].to == "alice" and "no card or word `fireball`" in card[0].text


async def test_a_long_automated_run_keeps_its_headlines_in_the_post_and_the_trace_in_a_file(
    host: Host,
) -> None:
    await _ignis(host)
    row = await host.repo.open_session_in("table")
    assert row is not None
    events = [Event("step", f"minion {i} moves three squares toward the nearest unit") for i in range(200)]
    events.insert(100, Event("summary", "Round 3, Enemy Phase: 2 units hit.", headline=True))
    posts = host.announcer.event_posts(row, get_game("ignis"), "lead", events, None)
    post: Post = posts[0]
    assert "Round 3, Enemy Phase: 2 units hit." in post.text and "minion 150" not in post.text
    assert post.files and b"minion 150" in post.files[0].data


async def test_board_sight_shades_what_an_area_cannot_see_on_a_map_with_sight_lines(host: Host) -> None:
    await host.command(ALICE, "new", {"game": "dire-alliance", "seed": "4", "seat": "red"})
    await host.command(BOB, "join", {})
    await host.command(ALICE, "start", {})
    plain = (await host.command(ALICE, "board", {}))[0].images[0].data
    shaded = await host.command(ALICE, "board", {"sight": "1"})
    assert shaded[0].images and shaded[0].images[0].data != plain
    wrong = await host.command(ALICE, "board", {"sight": "99"})
    assert wrong[0].to == "alice" and "not an area" in wrong[0].text
    await host.command(Caller("mod", "mod", "table", guild="g1", is_manager=True), "abandon", {})
    await _ignis(host)
    none = await host.command(ALICE, "board", {"sight": "1"})
    assert none[0].to == "alice" and "no sight lines" in none[0].text


async def test_a_solo_ignite_status_lists_its_one_seat_and_the_move_menu_shows_card_texts(host: Host) -> None:
    await host.command(ALICE, "new", {"game": "ignite", "seed": "3", "options": "placement=auto"})
    await host.command(ALICE, "join", {})
    started = await host.command(ALICE, "start", {})
    status = (await host.command(ALICE, "status", {}))[0].text
    assert "(free)" not in status and status.count(": alice") == 1, "no free seats once it runs"
    move = next(c for p in started for c in p.choices if c.label == "Choose my move")
    menu = (await host.press(ALICE, move.custom_id))[0]
    assert menu.to == "alice" and "• " in menu.text, "each card's text beside the menu"
    assert "stand-in" in menu.text.lower(), "stand-in cards say so"


async def test_stats_split_co_op_results_by_difficulty(host: Host) -> None:
    for level in ("easy", "easy", "hard"):
        await host.command(ALICE, "new", {"game": "ignite", "options": f"difficulty={level}"})
        await host.command(ALICE, "join", {})
        await host.command(ALICE, "start", {})
        asked = await host.command(ALICE, "resign", {})
        await host.press(ALICE, asked[0].choices[0].custom_id)
        row = await host.repo.latest_session_in("table")
        assert row is not None and row.status == "finished"
    text = (await host.command(ALICE, "stats", {}))[0].text
    assert "Ignite: A New Enemy at easy: 0 survived, 2 lost" in text
    assert "Ignite: A New Enemy at hard: 0 survived, 1 lost" in text


async def test_a_loop_of_rematches_and_abandons_pings_the_other_player_once(host: Host) -> None:
    await _ignis(host)
    pings = 0
    for _ in range(5):
        asked = await host.command(BOB, "resign", {})
        ended = await host.press(BOB, asked[0].choices[0].custom_id)
        again = await host.command(BOB, "rematch", {})
        gone = await host.command(BOB, "abandon", {})
        pings += sum(p.mentions.count("alice") for p in [*ended, *again, *gone])
        await host.command(BOB, "new", {"game": "ignis", "seed": "5", "seat": "fire"})
        await host.command(ALICE, "join", {})
        await host.command(BOB, "start", {})
    assert pings == 1, "one person's loop of commands pinged the other more than once"
