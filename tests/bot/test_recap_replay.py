"""/game recap and the animated replay: what they say and show, against the engine's own record."""

from __future__ import annotations

import asyncio
import io
import random
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.config import Settings
from bot.host import Host, seating
from bot.host.replay import Reel, numbered, replay_note
from bot.posts import Attachment, Caller, Post
from engine import Dice, get_game
from engine.hidden import redeal
from render import board_size, render_board
from render.ignis import status_line as ignis_status
from render.replay import CAPTION_MARGIN, animate, caption_height, caption_lines, caption_px, frames_of
from render.replay_encode import animation
from storage import FrameRow, Repository, SessionRow
from storage.rows import RecentMoves
from tests.engine.seeded_play import MODE_IDS, MODES


def _draw(game_id: str, view: dict[str, Any], names: dict[str, str]) -> bytes:
    # A renderer handed in runs in a thread: the same pictures as the workers, and no processes.
    return render_board(game_id, view, names)


async def _host(tmp_path: Path, renderer: Any = _draw) -> Host:
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), rate_limit_per_minute=0)
    return Host(await Repository.open(settings.db_path), settings, renderer=renderer)


def caller(user: str) -> Caller:
    return Caller(user, user, "t")


async def cmd(host: Host, user: str, name: str, **args: str) -> list[Post]:
    return await host.command(caller(user), name, dict(args))


async def clocked_host(tmp_path: Path, now: list[float]) -> tuple[Host, Settings]:
    """A host without pictures whose clock is `now[0]`, so a test can let hours pass."""
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), rate_limit_per_minute=0)
    host = Host(await Repository.open(settings.db_path), settings, renderer=None, clock=lambda: now[0])
    return host, settings


async def ignis_table(host: Host) -> None:
    """alice (fire) and bob (water) start a seeded Ignis game in channel t."""
    await cmd(host, "alice", "new", game="ignis", seed="4")
    await cmd(host, "alice", "join", seat="fire")
    await cmd(host, "bob", "join", seat="water")
    await cmd(host, "alice", "start")


async def _ignite_table(
    host: Host, seed: str, options: str, users: tuple[str, ...] = ("a", "b")
) -> tuple[SessionRow, dict[str, str]]:
    """`users` start a seeded Ignite game in channel t: its row, and who holds each seat."""
    await cmd(host, users[0], "new", game="ignite", seed=seed, options=options)
    for u in users:
        await cmd(host, u, "join")
    await cmd(host, users[0], "start")
    row = await host.repo.latest_session_in("t")
    assert row is not None
    return row, {s.seat: s.user_id for s in row.seats}


async def first_legal(host: Host, user: str, seat: str) -> list[Post]:
    """`user` plays the first legal move of `seat` in channel t's game."""
    row = await host.repo.latest_session_in("t")
    assert row is not None
    game = get_game(row.game)
    state = game.from_json(await host.repo.state(row.id) or {})
    return await cmd(host, user, "play", action=str(game.legal_actions(state, seat)[0]))


async def test_recap_of_a_four_player_ignite_game_names_every_unit_lost_since_the_last_move(
    tmp_path: Path,
) -> None:
    """Four players play seeded random moves; the engine's own events (replayed beside the host)
    say which units were defeated after p0's last move; p0's recap names each of them."""
    host = await _host(tmp_path, renderer=None)
    game = get_game("ignite")
    users = ("p0", "p1", "p2", "p3")
    options = "placement=auto ties=auto favor_prompts=off difficulty=insanity"
    row, seat_user = await _ignite_table(host, "5", options, users)
    mirror = game.setup([s for s in game.seat_names(row.options) if s in seat_user], row.options, row.seed)
    dice = Dice(23)
    killed_since: list[str] = []
    for _ in range(3000):
        turn = game.to_act(mirror)
        if not turn.seats:
            break
        seat = sorted(turn.seats)[0]
        user = seat_user[seat]
        if user == "p0" and len(killed_since) >= 2:
            break
        legal = game.legal_actions(mirror, seat)
        move = str(legal[dice.below(len(legal))])
        posts = await cmd(host, user, "play", action=move)
        assert not any(p.to for p in posts if "not" in p.text[:40]), posts[0].text
        _, events = game.act(mirror, seat, move)
        if user == "p0":
            killed_since = []
        killed_since += [str(e.data["unit"]) for e in events if e.kind == "unit_killed"]
    assert len(killed_since) >= 2, "the seeded game should lose units between two of p0's moves"
    [recap] = await cmd(host, "p0", "recap")
    assert recap.to == "p0"
    lost_line = next(line for line in recap.text.splitlines() if line.startswith("Lost:"))
    for unit in killed_since:
        assert unit in lost_line, (unit, recap.text)
    # Nobody else's loss is claimed: every unit named lost was defeated since p0's last move.
    named = [part.split(" ")[0] for part in lost_line.removeprefix("Lost: ").rstrip(".").split("), ")]
    assert sorted(named) == sorted(killed_since)
    await host.close()


async def test_replay_has_one_frame_per_turn_in_order_from_the_first_to_the_final_position(
    tmp_path: Path,
) -> None:
    """An Ignis game against the bot to its end: the replay follows the final post, once the
    move's answer is given (it is drawn off the move's path); it has a frame for the start and one
    for each move, captioned in order, and its first and last frames are the pictures of the
    first and the final positions."""
    host = await _host(tmp_path)
    game = get_game("ignis")
    await cmd(host, "alice", "new", game="ignis", seed="3")
    await cmd(host, "alice", "join", seat="fire")
    await cmd(host, "alice", "ai", seat="water", level="easy")
    start = await cmd(host, "alice", "start")
    first_picture = start[-1].images[0].data
    rng = random.Random(4)
    final: list[Post] = []
    for _ in range(200):
        row = await host.repo.latest_session_in("t")
        assert row is not None
        if row.status == "finished":
            break
        state = game.from_json(await host.repo.state(row.id) or {})
        legal = game.legal_actions(state, "fire")
        final = await cmd(host, "alice", "play", action=str(rng.choice(legal)))
    else:
        await cmd(host, "alice", "resign")
    row = await host.repo.latest_session_in("t")
    assert row is not None and row.status == "finished"
    post = next(p for p in final if p.to is None and "Game over" in p.text)
    assert not [a for a in post.files if "replay" in a.filename] and "Replay" not in post.text
    [following] = await host.follow_up_posts()
    assert following.channel == post.channel and following.to is None and not following.mentions
    [replay] = [a for a in following.files if "replay" in a.filename]
    assert await host.follow_up_posts() == []  # sent once
    moves = [a for a in await host.repo.actions(row.id) if a.kind == "action"]
    frames = frames_of(replay.data)
    assert len(frames) == len(moves) + 1
    # In the game's own word: Ignis has turns, and no phase runs by itself.
    said = f"Replay of the Ignis game: {len(frames)} frames: the start, then one per turn."
    assert said in following.text, following.text
    last_picture = post.images[-1].data
    for shown, picture in ((frames[0], first_picture), (frames[-1], last_picture)):
        board = Image.open(io.BytesIO(picture)).convert("RGB")
        assert shown.size == (board.width, board.height + caption_height(board.width))
        assert shown.crop((0, 0, board.width, board.height)).tobytes() == board.tobytes()
    # /game replay gives it again, from any turn, with the captions numbered in order.
    again = await cmd(host, "bob", "replay", **{"from": "2"})
    assert len(frames_of(again[0].files[0].data)) == len(moves) - 1
    stored = await host.replays.frames(row)
    assert [f.version for f in stored] == sorted(f.version for f in stored)
    assert len(stored) == len(moves) + 1
    await host.close()


async def test_a_spectators_replay_of_a_running_card_game_is_the_same_whatever_the_hidden_cards(
    tmp_path: Path,
) -> None:
    """A running Ignite game: the replay a spectator gets is drawn from the public view of each
    moment only. The host's replay equals the animation of the spectator views the engine gives
    at each pictured moment, and dealing everything hidden from a spectator again at each of those
    moments (three ways, engine.hidden.redeal) leaves every frame, and so the file, the same."""
    host = await _host(tmp_path)
    game = get_game("ignite")
    row, seat_user = await _ignite_table(host, "8", "placement=auto ties=auto favor_prompts=off")
    mirror = game.setup([s for s in game.seat_names(row.options) if s in seat_user], row.options, row.seed)
    moments = [game.copy(mirror)]
    dice = Dice(2)
    for _ in range(40):
        seat = sorted(game.to_act(mirror).seats)[0]
        legal = game.legal_actions(mirror, seat)
        move = str(legal[dice.below(len(legal))])
        await cmd(host, seat_user[seat], "play", action=move)
        _, events = game.act(mirror, seat, move)
        if any(e.phase_end for e in events) and not any("view" in e.data for e in events if e.phase_end):
            moments.append(game.copy(mirror))
    [post] = await cmd(host, "watcher", "replay")
    stored = await host.replays.frames(row)
    names = {s.seat: s.user_name for s in row.seats}
    assert post.files[0].data == animate("ignite", numbered(stored), names)
    # The frames whose moment the mirror kept are the spectator's view of it, re-dealt or not.
    by_view = {repr(f.view) for f in stored}
    for n, moment in enumerate(moments):
        assert repr(game.view(moment, None)) in by_view
        data, zones = game.to_json(moment), game.hidden_zones(moment)
        for k in range(3):
            other = game.from_json(redeal(data, zones, None, Dice(100 * n + k)))
            assert game.view(other, None) == game.view(moment, None)
    await host.close()


async def test_a_game_from_before_frames_were_kept_is_replayed_from_seed_and_log(tmp_path: Path) -> None:
    """Frames rebuilt from seed + log (a game played before they were stored) are the stored ones:
    the same captions and views, so its replay is the same file."""
    host = await _host(tmp_path)
    await cmd(host, "alice", "new", game="ignis", seed="9")
    await cmd(host, "alice", "join", seat="fire")
    await cmd(host, "alice", "ai", seat="water", level="easy")
    await cmd(host, "alice", "start")
    game = get_game("ignis")
    for _ in range(4):
        row = await host.repo.latest_session_in("t")
        assert row is not None
        state = game.from_json(await host.repo.state(row.id) or {})
        await cmd(host, "alice", "play", action=str(game.legal_actions(state, "fire")[0]))
    await cmd(host, "alice", "undo")
    row = await host.repo.latest_session_in("t")
    assert row is not None
    stored = await host.replays.frames(row)
    [before] = await cmd(host, "alice", "replay")
    async with host.repo._write() as tx:
        await tx.execute("DELETE FROM frames WHERE session_id=?", row.id)
    rebuilt = await host.replays.frames(row)
    assert [(f.caption, f.view) for f in rebuilt] == [(f.caption, f.view) for f in stored]
    [after] = await cmd(host, "alice", "replay")
    assert after.files[0].data == before.files[0].data
    await host.close()


async def test_a_turn_after_a_long_absence_offers_the_recap_as_a_button(tmp_path: Path) -> None:
    """alice moves, bob answers a day later: alice's turn notice offers the recap (she has been
    away reminder_hours); a quick answer offers none. The button gives her the recap privately."""
    now = [1_800_000_000.0]
    host, settings = await clocked_host(tmp_path, now)
    await ignis_table(host)

    async def move(user: str, seat: str) -> Post:
        return next(p for p in await first_legal(host, user, seat) if p.to is None)

    looked: list[list[str]] = []  # whose recent moves each turn notice read from the log
    recent_moves = host.repo.recent_moves

    async def counted(session_id: int, users: Sequence[str], last: int) -> dict[str, RecentMoves]:
        looked.append(list(users))
        return await recent_moves(session_id, users, last)

    host.repo.recent_moves = counted  # type: ignore[method-assign]
    await move("alice", "fire")
    now[0] += 60
    quick = await move("bob", "water")
    assert not any("since my last move" in c.label for c in quick.choices)
    # A game younger than reminder_hours: nobody can be back from so long away, the log is not read.
    assert looked == []
    await move("alice", "fire")
    now[0] += settings.reminder_hours * 3600 + 60
    late = await move("bob", "water")
    assert looked == [["alice"]]
    [button] = [c for c in late.choices if "since my last move" in c.label]
    [recap] = await host.press(caller("alice"), button.custom_id)
    assert recap.to == "alice" and recap.text.startswith("**Since your last move**")
    assert "\n• water (bob): Water enters" in recap.text and "To act: fire (alice)" in recap.text
    await host.close()


@pytest.mark.parametrize("options", ["placement=auto favor_prompts=off", "placement=auto favor_asks=every"])
async def test_recap_counts_the_decisions_taken_by_default(tmp_path: Path, options: str) -> None:
    """An Ignite question nobody answers (a tie; with the favor prompts on, a divine-favor
    prompt) takes its default after decision_minutes; the recap of the player who moved before
    it says so, and which answer the default gave."""
    now = [1_800_000_000.0]
    host, settings = await clocked_host(tmp_path, now)
    game = get_game("ignite")
    await cmd(host, "a", "new", game="ignite", seed="3", options=options)
    for u in ("a", "b"):
        await cmd(host, u, "join")
    await cmd(host, "a", "start")
    dice = Dice(6)
    timed_out = 0
    for _ in range(400):
        row = await host.repo.latest_session_in("t")
        assert row is not None and row.status == "active"
        state = game.from_json(await host.repo.state(row.id) or {})
        turn = game.to_act(state)
        if turn.decision and turn.default:
            now[0] += settings.decision_minutes * 60 + 1
            await host.tick()
            timed_out += 1
            break
        seat = sorted(turn.seats)[0]
        user = next(s.user_id for s in row.seats if s.seat == seat)
        legal = game.legal_actions(state, seat)
        await cmd(host, user, "play", action=str(legal[dice.below(len(legal))]))
    assert timed_out, "the seeded game should ask a decision"
    rows = await host.repo.actions(row.id)
    assert rows[-1].kind == "timeout"
    mover = next(a.user_id for a in reversed(rows) if a.kind == "action")
    [recap] = await cmd(host, mover or "", "recap")
    assert "Decisions taken by default: 1" in recap.text, recap.text
    # It says which answer the default gave, not the story that followed it (the Enemy Phase
    # the answer let run has its own line).
    [line] = [x for x in recap.text.splitlines() if x.startswith("Decisions taken by default")]
    answer = rows[-1].summary.partition(" — ")[2].split(".")[0]
    assert answer in line and "Enemy Phase" not in line, (line, rows[-1].summary)
    await host.close()


def test_a_replay_too_large_for_one_file_shows_turns_evenly_spread(monkeypatch: Any) -> None:
    """Over the size limit, the frames are sampled evenly, the first and the last kept, and the
    file fits."""
    import render.replay as replay

    game = get_game("ignis")
    state = game.setup(["fire", "water"], game.validate_options({}), 2)
    rng = random.Random(5)
    frames = [("start", game.view(state, None))]
    for k in range(30):
        seat = sorted(game.to_act(state).seats)[0]
        game.act(state, seat, str(rng.choice(game.legal_actions(state, seat))))
        frames.append((f"turn {k + 1}", game.view(state, None)))
    whole = replay.animate("ignis", frames, {})
    monkeypatch.setattr(replay, "LIMIT_BYTES", len(whole) // 3)
    cut = replay.animate("ignis", frames, {})
    shown = frames_of(cut)
    assert len(cut) < len(whole) // 3 and 2 <= len(shown) < len(frames)
    first, last = frames_of(whole)[0], frames_of(whole)[-1]
    assert shown[0].tobytes() == first.tobytes() and shown[-1].tobytes() == last.tobytes()
    assert replay.sample(31, 5) == [0, 8, 15, 22, 30]


async def test_export_can_carry_the_replay(tmp_path: Path) -> None:
    host = await _host(tmp_path)
    await cmd(host, "alice", "new", game="ignis", seed="6")
    await cmd(host, "alice", "join", seat="fire")
    await cmd(host, "alice", "ai", seat="water", level="easy")
    await cmd(host, "alice", "start")
    await cmd(host, "alice", "play", action="earth a3 east")
    [plain] = await cmd(host, "alice", "export")
    [both] = await cmd(host, "alice", "export", replay="yes")
    assert [a.filename for a in plain.files] == ["ignis-1.json"]
    assert both.files[0].filename == "ignis-1.json" and "replay" in both.files[1].filename
    assert len(frames_of(both.files[1].data)) == 3  # the start, alice's move, the bot's
    [refused] = await cmd(host, "alice", "export", replay="maybe")
    assert refused.to == "alice" and "yes or no" in refused.text
    await host.close()


def test_every_board_with_figures_marks_a_recaps_walk() -> None:
    """For every game whose view names figures by place, the recap picture of a walk, a loss
    and a new figure differs from the plain board (its own marks, or marks drawn over it)."""
    from bot.host.recap import figures
    from engine import all_games
    from render import has_picture
    from render.replay import recap_picture

    checked: set[str] = set()
    for game in [g for g in all_games() if has_picture(g.id)]:
        game_id = game.id
        modes = {"dire-alliance": ({}, {"mode": "raid"}), "ignite": ({"placement": "auto"},)}
        for raw in modes.get(game_id, ({},)):
            options = game.validate_options(raw)
            seats = game.seat_names(options)[: max(2, game.seat_range(options)[0])]
            state = game.setup(seats, options, 4)
            view = game.view(state, None)
            places = sorted({f.place for f in figures(view).values() if f.place})
            if game_id == "battlelore":
                places = ["c3", "d4", "e4"]  # its units are deployed face down at first
            if len(places) < 2:
                continue  # a board without placed figures (Ignis: its own last move is drawn)
            changes = {"moved": [{"id": "x", "path": places[:2]}], "lost": places[:1], "hit": [], "new": []}
            assert recap_picture(game_id, view, changes, {}) != render_board(game_id, view, {}), (
                game_id,
                raw,
            )
            checked.add(f"{game_id} {raw}")
    assert len(checked) == 4, checked  # Ignite, both Dire Alliance maps, BattleLore


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
async def test_every_seat_and_a_spectator_get_a_recap_in_every_mode(
    tmp_path: Path, game_id: str, options: dict[str, str], seats: int
) -> None:
    """Every mode a group can open answers /game recap for each seat and a spectator, privately,
    after seeded random play through the host (Into the Fire's dragon keeps its damage per side,
    which the recap once took for a number and failed on)."""
    host = await _host(tmp_path)
    try:
        game = get_game(game_id)
        opts = " ".join(f"{k}={v}" for k, v in options.items())
        await cmd(host, "u0", "new", game=game_id, seed="5", **({"options": opts} if opts else {}))
        for n in range(1, seats):
            await cmd(host, f"u{n}", "join")
        await cmd(host, "u0", "join")
        await cmd(host, "u0", "start")
        row = await host.repo.latest_session_in("t")
        assert row is not None
        user_of = {s.seat: s.user_id for s in row.seats}
        chooser = random.Random(5)
        for _ in range(30):
            row = await host.repo.latest_session_in("t")
            assert row is not None
            state = await host.sessions.state(row)
            if game.outcome(state) is not None:
                break
            seat = sorted(game.to_act(state).seats)[0]
            move = str(chooser.choice(game.legal_actions(state, seat)))
            await cmd(host, user_of[seat], "play", action=move)
        for user in [*user_of.values(), "watcher"]:
            posts = await cmd(host, user, "recap")
            assert posts and all(p.to == user for p in posts), [p.text for p in posts]
            assert "went wrong" not in posts[0].text
    finally:
        await host.close()


async def test_a_recap_credits_the_bots_moves_in_a_seat_a_person_took_back_to_the_bot(
    tmp_path: Path,
) -> None:
    """bob goes silent, the bot plays his seat, bob takes it back: alice's recap credits the move
    made meanwhile to the bot, as the replay's captions do, and bob's own later move to bob."""
    now = [1_800_000_000.0]
    host, _ = await clocked_host(tmp_path, now)
    await ignis_table(host)

    async def move(user: str, seat: str) -> None:
        await first_legal(host, user, seat)

    def movers(text: str) -> list[str]:
        return [line[2:].split(":")[0] for line in text.splitlines() if line.startswith("• ")]

    await move("alice", "fire")
    now[0] += 49 * 3600
    await cmd(host, "alice", "ai", seat="water", level="easy")  # the bot moves for bob at once
    await cmd(host, "bob", "join", seat="water")
    row = await host.repo.latest_session_in("t")
    assert row is not None and row.seat_of("bob") == ["water"]
    [recap] = await cmd(host, "alice", "recap")
    assert movers(recap.text) == ["water (the bot)"], recap.text
    await move("alice", "fire")
    await move("bob", "water")
    [recap] = await cmd(host, "alice", "recap")
    assert movers(recap.text) == ["water (bob)"], recap.text
    await host.close()


async def test_a_seat_handed_to_the_bot_keeps_its_earlier_moves_as_turns_in_the_replay(
    tmp_path: Path,
) -> None:
    """bob hands his seat to the bot mid-game: the frames of his own moves before it still name
    him, and are counted as turns, not as phases the game ran by itself."""
    host = await _host(tmp_path)
    await ignis_table(host)
    for _ in range(2):
        await first_legal(host, "alice", "fire")
        await first_legal(host, "bob", "water")
    await cmd(host, "bob", "ai", seat="water", level="easy")
    await first_legal(host, "alice", "fire")
    row = await host.repo.latest_session_in("t")
    assert row is not None and row.seat_row("water") is not None
    reel = await host.replays.reel(row)
    assert len(reel.frames) == 7 and not any(reel.phases), [f.caption for f in reel.frames]
    movers = [f.caption.partition(": ")[0] for f in reel.frames[1:]]
    assert movers[:4] == ["fire (alice)", "water (bob)", "fire (alice)", "water (bob)"], movers
    assert movers[5] == "water (the bot, easy)"
    await host.close()


async def test_a_recap_after_answering_a_prompt_tells_the_enemy_phase_the_answer_set_off(
    tmp_path: Path,
) -> None:
    """Ignite with divine-favor prompts: a player answers `keep` and the whole Enemy Phase runs
    inside that one answer, defeating units; that player's recap straight after tells the losses
    (the engine's own events, replayed beside the host, say which)."""
    host = await _host(tmp_path, renderer=None)
    game = get_game("ignite")
    row, seat_user = await _ignite_table(host, "5", "placement=auto ties=auto difficulty=hard", ("p0", "p1"))
    mirror = game.setup([s for s in game.seat_names(row.options) if s in seat_user], row.options, row.seed)
    dice = Dice(11)
    killed: list[str] = []
    for _ in range(3000):
        turn = game.to_act(mirror)
        assert turn.seats, "the seeded game should lose a unit to an answer before it ends"
        seat = sorted(turn.seats)[0]
        legal = game.legal_actions(mirror, seat)
        keep = next((a for a in legal if str(a) == "keep"), None)
        move = str(keep) if keep is not None else str(legal[dice.below(len(legal))])
        await cmd(host, seat_user[seat], "play", action=move)
        _, events = game.act(mirror, seat, move)
        killed = [str(e.data["unit"]) for e in events if e.kind == "unit_killed"]
        if keep is not None and killed:
            break
    [recap] = await cmd(host, seat_user[seat], "recap")
    lost_line = next((line for line in recap.text.splitlines() if line.startswith("Lost:")), "")
    for unit in killed:
        assert unit in lost_line, (unit, recap.text)
    # An answer is not a turn: the recap runs from the answerer's last turn, the answer among its moves.
    assert recap.text.startswith("**Since your last move**")
    assert any(line.startswith(f"• {seat} ({seat_user[seat]})") for line in recap.text.splitlines()), (
        recap.text
    )
    await host.close()


async def test_closing_the_host_lets_a_replay_being_drawn_finish_instead_of_failing_on_a_closed_database(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A caller that never collects the follow-up posts (the bench; a frontend stopped mid-command)
    closes the host while a finished game's replay is still being drawn: it finishes first, and
    nothing fails on the closed database."""
    host = await _host(tmp_path)
    await ignis_table(host)
    await first_legal(host, "alice", "fire")
    asked = await cmd(host, "bob", "resign")
    await host.press(caller("bob"), asked[0].choices[0].custom_id)
    assert host.follow_ups.pending
    with caplog.at_level("WARNING", logger="tablebot"):
        await host.close()
    [replay] = await host.follow_up_posts()  # drawn in full before the database closed
    assert any("replay" in a.filename for a in replay.files)
    assert [r.getMessage() for r in caplog.records if r.levelname in ("WARNING", "ERROR")] == []


async def test_a_resignation_ends_the_replay_as_its_end_and_a_part_replay_says_where_it_starts(
    tmp_path: Path,
) -> None:
    """bob resigns after three moves: the replay's last frame says so once, as the end, neither
    a move ("Move 4 of 4") nor a phase the game ran by itself, and `/game replay from:2` says
    where it starts and is a file of its own name (the whole replay and a part once shared one)."""
    host = await _host(tmp_path)
    await ignis_table(host)
    for user, seat in (("alice", "fire"), ("bob", "water"), ("alice", "fire")):
        await first_legal(host, user, seat)
    asked = await cmd(host, "bob", "resign")
    [end] = [p for p in await host.press(caller("bob"), asked[0].choices[0].custom_id) if p.to is None]
    assert "resigned" in end.text, end.text
    [replay] = await host.follow_up_posts()
    assert "5 frames: the start, then one per turn, and the end." in replay.text, replay.text
    row = await host.repo.latest_session_in("t")
    assert row is not None
    stored = await host.replays.frames(row)
    assert stored[-1].caption == "bob (water) resigned.", stored[-1].caption
    labels = [c for c, _ in await host.replays.captioned(row, get_game("ignis"))]
    assert labels[3].startswith("After move 3 of 3 · ") and labels[4] == "End · bob (water) resigned.", labels
    [part] = await cmd(host, "alice", "replay", **{"from": "2"})
    said = "Replay of the Ignis game, from move 2 of 3: 3 frames, one per turn, and the end."
    assert part.text.startswith(said), part.text
    [end_only] = await cmd(host, "alice", "replay", **{"from": "4"})
    said = "Replay of the Ignis game, from its end: 1 frame: the end, as a still picture."
    assert end_only.text.startswith(said), end_only.text
    [whole] = await cmd(host, "alice", "replay")
    assert part.files[0].filename != whole.files[0].filename
    assert part.files[0].filename.endswith("-from-2.gif") and whole.files[0].filename.endswith("-replay.gif")
    await host.close()


async def test_a_move_frames_caption_agrees_with_its_pictures_title(tmp_path: Path) -> None:
    """Ignis's title bar counts the move to come ("Move 3 · Fire to move"); the frame of the move
    before it says it shows the board after move 2, not "Move 2" under a title saying Move 3."""
    host = await _host(tmp_path)
    await ignis_table(host)
    for user, seat in (("alice", "fire"), ("bob", "water")):
        await first_legal(host, user, seat)
    row = await host.repo.latest_session_in("t")
    assert row is not None
    framed = await host.replays.captioned(row, get_game("ignis"))
    for k, (caption, view) in enumerate(framed[1:], start=1):
        assert ignis_status(view, {}).startswith(f"Move {k + 1} ")  # the title bar
        assert caption.startswith(f"After move {k} of 2 · "), caption
    await host.close()


async def test_a_frame_of_several_players_turns_names_each_mover_before_their_own_moves(
    tmp_path: Path,
) -> None:
    """Ignite's placement draws one picture for all the players' placements: its frame names each
    player once, before the units they placed, instead of crediting every placement to the last."""
    host = await _host(tmp_path, renderer=None)
    game = get_game("ignite")
    row, seat_user = await _ignite_table(host, "7", "ties=auto favor_prompts=off")
    placed: dict[str, list[str]] = {}
    for _ in range(40):
        if len(await host.replays.frames(row)) > 1:
            break
        state = game.from_json(await host.repo.state(row.id) or {})
        seat = sorted(game.to_act(state).seats)[0]
        mine = placed.setdefault(seat, [])
        legal = [str(a) for a in game.legal_actions(state, seat)]
        # Each unit placed once, on the first free square, then the placement ended.
        move = next((a for a in legal if a.startswith("place ") and a.split()[1] not in mine), "end")
        if move != "end":
            mine.append(move.split()[1])
        await cmd(host, seat_user[seat], "play", action=move)
    assert len(placed) == 2, placed
    caption = (await host.replays.frames(row))[1].caption
    at = {seat: caption.find(seating.who(row, seat, "action") + ":") for seat in placed}
    assert all(k >= 0 for k in at.values()) and len(set(at.values())) == 2, caption
    first, second = sorted(placed, key=lambda s: at[s])
    cut = at[second]
    # Each mover's own placements after their name (some cut for room, "…"), none under the other's.
    assert all(caption.find(f"{unit} ") < cut for unit in placed[first]), caption
    assert any(caption.find(f"{unit} ") >= 0 for unit in placed[first]), caption
    assert all(caption.find(f"{unit} ") in (-1, caption.find(f"{unit} ", cut)) for unit in placed[second])
    assert any(caption.find(f"{unit} ", cut) > cut for unit in placed[second]), caption
    # And both movers are in what the frame's two caption lines show, not cut off after them.
    width = board_size("ignite")[0]
    label = (await host.replays.captioned(row, game))[1][0]
    shown = " ".join(caption_lines(label, width - 2 * CAPTION_MARGIN, caption_px(width)))
    assert all(seating.who(row, seat, "action") + ":" in shown for seat in placed), shown
    await host.close()


@pytest.mark.parametrize(
    ("phases", "closing", "start", "said"),
    [
        (
            [False, False, True, False],
            False,
            0,
            "4 frames: the start, then one per turn, and one for the phase the game ran by itself.",
        ),
        (
            [False, False, True, True, False],
            True,
            0,
            "5 frames: the start, then one per turn, one for each of the 2 phases the game ran by itself,"
            " and the end.",
        ),
        ([False, False, False, False], False, 1, "3 frames, one per turn."),
        (
            [False, False, False, True, False],
            True,
            3,
            "2 frames, one for the phase the game ran by itself, and the end.",
        ),
        ([False, False, False, False], True, 3, "1 frame: the end, as a still picture."),
        ([False, False, False, False], False, 3, "1 frame, as a still picture."),
    ],
)
async def test_the_replay_note_says_what_its_frames_are(
    phases: list[bool], closing: bool, start: int, said: str
) -> None:
    palette = bytes(range(256)) * 3
    frames = [FrameRow(k, 0, f"frame {k}", {}) for k in range(len(phases))]
    images = [Image.new("P", (4, 4), k) for k in range(len(phases))][start:]
    if len(images) > 1:
        data = animation(images, palette, [100] * len(images))
    else:  # one frame is a plain picture
        png = io.BytesIO()
        images[0].save(png, "PNG")
        data = png.getvalue()
    note = await replay_note(Reel(frames, phases, closing), Attachment("r.gif", data), start)
    assert note == said


async def test_the_move_that_ends_a_game_answers_before_its_replay_is_drawn(tmp_path: Path) -> None:
    """The replay takes far longer to draw than a move: the resignation that ends the game is
    answered (the result, the Rematch button) while the replay is still being drawn, and the
    replay comes after it, once, from the frames the ending stored."""
    host = await _host(tmp_path)
    drawing_may_end = threading.Event()
    started = threading.Event()

    def slow_animator(game_id: str, frames: Any, names: Any, most: int) -> bytes:
        started.set()
        drawing_may_end.wait(timeout=30)
        return animate(game_id, frames, names, most)

    host.animator = slow_animator
    await ignis_table(host)
    await first_legal(host, "alice", "fire")
    asked = await cmd(host, "bob", "resign")
    ended = await host.press(caller("bob"), asked[0].choices[0].custom_id)
    [final] = [p for p in ended if p.to is None]
    assert "resigned" in final.text and [c.label for c in final.choices] == ["Rematch"]
    assert not final.files and host.follow_ups.pending
    await asyncio.to_thread(started.wait, 30)  # drawing began only after the answer was given
    drawing_may_end.set()
    [replay] = await host.follow_up_posts()
    assert replay.channel == final.channel and replay.to is None and not replay.mentions
    assert len(frames_of(replay.files[0].data)) == 3  # the start, alice's move, the resignation
    assert await host.follow_up_posts() == []
    await host.close()
