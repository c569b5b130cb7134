"""What the recap and the replay's captions say: each move as the channel was told it, what left
the board, the figures by the names the players see, the turn's substance, the phases the game
ran credited to the phase, and the game's own counting."""

from __future__ import annotations

import io
import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.config import Settings
from bot.host import Host
from bot.host.core import SAID_END
from bot.host.recap import compare, tally, told_briefly
from bot.host.replay import numbered, ran_by_itself
from bot.posts import Post
from engine import Dice, get_game
from render import LEGIBLE, PHONE_WIDTH, kit, render_board
from render.replay import CAPTION_LINES, CAPTION_PX, animate, caption_lines, caption_px
from storage import ActionRow, FrameRow, Repository
from tests.bot.test_recap_replay import caller, clocked_host, cmd, first_legal, ignis_table
from tests.engine.seeded_play import MODE_IDS, MODES, play


async def _ignite(host: Host, users: list[str], seed: int, options: str) -> None:
    await cmd(host, users[0], "new", game="ignite", seed=str(seed), options=options)
    for u in users:
        await cmd(host, u, "join")
    await cmd(host, users[0], "start")


async def _state(host: Host) -> tuple[Any, Any, Any]:
    row = await host.repo.latest_session_in("t")
    assert row is not None
    game = get_game(row.game)
    return row, game, game.from_json(await host.repo.state(row.id) or {})


async def _random_move(host: Host, dice: Dice) -> tuple[str, list[Post]]:
    """The first seat the game waits on plays a seeded random legal move; its user and the posts."""
    row, game, state = await _state(host)
    seat = sorted(game.to_act(state).seats)[0]
    user = next(s.user_id for s in row.seats if s.seat == seat)
    legal = game.legal_actions(state, seat)
    return user, await cmd(host, user, "play", action=str(legal[dice.below(len(legal))]))


async def test_an_ignis_recap_lists_each_move_as_told_and_what_left_the_board(tmp_path: Path) -> None:
    """Moves until one pushes a token off: the other player's recap lists that move, who made it
    and what the channel was told of it, and says what was taken off the board."""
    now = [1_800_000_000.0]
    host, _ = await clocked_host(tmp_path, now)
    await ignis_table(host)
    seats = {"fire": "alice", "water": "bob"}
    for _ in range(120):
        row, game, state = await _state(host)
        seat = game.to_act(state).seats
        [mover] = seat
        await first_legal(host, seats[mover], mover)
        last = (await host.repo.actions(row.id))[-1]
        if "pushed off" in last.summary:
            break
    else:
        raise AssertionError("the seeded game should push a token off")
    told = last.summary.split(SAID_END, 1)[1]
    other = "bob" if seats[mover] == "alice" else "alice"
    [recap] = await cmd(host, other, "recap")
    assert f"\n• {mover} ({seats[mover]}): {told[:60]}" in recap.text, recap.text
    taken = next(line for line in recap.text.splitlines() if line.startswith("Taken off the board:"))
    assert any(word in taken for word in ("Air", "Earth", "Fire", "Water")), taken
    await host.close()


async def test_ignite_captions_tell_each_turn_and_credit_the_enemy_phase_to_itself(tmp_path: Path) -> None:
    """Three players: a player's frame names the turn's moves as the channel was told them (not
    only "ends the turn"); an Enemy Phase's frame is credited to no player, says the phase and
    names the units it defeated (the engine's own record, replayed beside the host)."""
    now = [1_800_000_000.0]
    host, _ = await clocked_host(tmp_path, now)
    users = ["p0", "p1", "p2"]
    await _ignite(host, users, 5, "placement=auto ties=auto difficulty=insanity")
    dice = Dice(3)
    for _ in range(600):
        row, _, state = await _state(host)
        if row.status != "active" or state.round >= 4:
            break
        await _random_move(host, dice)
    row, _, _ = await _state(host)
    rows = await host.repo.actions(row.id)
    frames = await host.replays.frames(row)
    stored = await host.repo.frames(row.id)
    by_version = {a.version: a for a in rows}
    phases = [f for f in stored[1:] if ran_by_itself(row, by_version[f.version], f)]
    assert phases, "the game should have run an Enemy Phase"
    turns = 0
    for before, f in itertools.pairwise(frames):
        action = by_version[f.version]
        own = next(s for s in stored if s.version == f.version and s.n == f.n)
        moved = [
            a.summary.split(SAID_END, 1)[1]
            for a in rows
            if before.version < (a.version or 0) < f.version and SAID_END in a.summary and a.kind == "action"
        ]
        if own in phases:
            assert "Enemy Phase" in f.caption and not f.caption.startswith(action.seat or "-"), f.caption
            continue
        if moved:
            turns += 1
            # The frame may open with another player's answer given in the same stretch (a
            # respawn asked at the beginning of the Player Phase, before this player's turn).
            assert f"{action.seat} ({action.user_id}): " in f.caption, f.caption
            assert moved[0][:40] in f.caption, (moved[0], f.caption)
    assert turns
    await host.close()


async def test_an_answer_that_lets_the_enemy_phase_run_is_the_phases_frame_naming_the_dead(
    tmp_path: Path,
) -> None:
    """A divine-favor prompt answered `keep`: the Enemy Phase it let run is captioned as the phase,
    not as the answering player, and names each unit it defeated."""
    now = [1_800_000_000.0]
    host, _ = await clocked_host(tmp_path, now)
    await _ignite(host, ["p0", "p1"], 5, "placement=auto ties=auto difficulty=hard")
    row, game, _ = await _state(host)
    seat_user = {s.seat: s.user_id for s in row.seats}
    mirror = game.setup([s for s in game.seat_names(row.options) if s in seat_user], row.options, row.seed)
    dice = Dice(11)
    for _ in range(3000):
        turn = game.to_act(mirror)
        assert turn.seats
        seat = sorted(turn.seats)[0]
        legal = game.legal_actions(mirror, seat)
        keep = next((a for a in legal if str(a) == "keep"), None)
        move = str(keep) if keep is not None else str(legal[dice.below(len(legal))])
        await cmd(host, seat_user[seat], "play", action=move)
        _, events = game.act(mirror, seat, move)
        killed = [str(e.data["unit"]) for e in events if e.kind == "unit_killed"]
        if keep is not None and killed and any(e.phase_end for e in events):
            break
    row, _, _ = await _state(host)
    answer = (await host.repo.actions(row.id))[-1]
    frames = [f for f in await host.replays.frames(row) if f.version == answer.version]
    assert frames
    caption = frames[0].caption
    assert not caption.startswith(f"{seat} ("), caption
    assert "Enemy Phase" in caption, caption
    for unit in killed:
        assert unit in caption, (unit, caption)
    await host.close()


async def _ignite_to_round_two(tmp_path: Path) -> tuple[Host, Any, Any, Any]:
    """Three players of a seeded Ignite game play at random until round 2 is p0's turn again:
    the host, and the row, game and state then."""
    now = [1_800_000_000.0]
    host, _ = await clocked_host(tmp_path, now)
    await _ignite(host, ["p0", "p1", "p2"], 5, "placement=auto ties=auto favor_prompts=off")
    dice = Dice(3)
    for _ in range(600):
        row, game, state = await _state(host)
        if state.round >= 2 and sorted(game.to_act(state).seats)[0] == row.seats[0].seat:
            break
        await _random_move(host, dice)
    return host, row, game, state


async def test_an_ignite_recap_names_minions_and_walks_and_says_the_enemy_phase_ran(tmp_path: Path) -> None:
    """After a round, p0's recap names each new minion as the channel does ("green minion #2"),
    each figure that moved by name, and says the Enemy Phase ran."""
    host, _, game, state = await _ignite_to_round_two(tmp_path)
    [recap] = await cmd(host, "p0", "recap")
    lines = recap.text.splitlines()
    new = next(line for line in lines if line.startswith("New on the board:"))
    view = game.view(state, None)
    named = [m for m in view["minions"] if f"{m['name']} at {m['square']}" in new]
    assert named and "minion" not in new.replace(" minion #", ""), new  # by name, never by id
    moved = next(line for line in lines if line.startswith("Moved:"))
    assert "figures" not in moved and "→" in moved, moved
    ran = next(line for line in lines if line.startswith("The game ran:"))
    assert "Enemy Phase" in ran, ran
    await host.close()


MINION = {
    "id": "minion1",
    "label": "#1",
    "name": "red minion #1",
    "colour": "red",
    "level": 1,
    "square": "c3",
}


def test_a_new_war_machine_and_a_catapult_a_minion_takes_up_are_new_on_the_board() -> None:
    before: dict[str, Any] = {
        "minions": [dict(MINION, catapult=None)],
        "war_machines": [],
    }
    after: dict[str, Any] = {
        "minions": [dict(MINION, catapult="c4")],
        "war_machines": [{"id": "w1", "kind": "ballista", "owner": "ratmen", "square": "d5", "built": True}],
    }
    changes = compare([before, after])
    assert [f.label for f in changes.new] == ["ballista w1"]
    assert changes.markers == ["a catapult at c4, pushed by red minion #1"]


async def test_the_recap_button_shows_for_a_player_back_to_answer_a_question_then_on_turn(
    tmp_path: Path,
) -> None:
    """p0 is away a day; the game asks p0 a question (a divine-favor prompt); p0 comes back and
    answers it, the Enemy Phase runs and p0's turn begins: the turn notice offers the recap, since
    an answer is not a turn taken (p0 has not caught up), and the recap starts at p0's last turn."""
    now = [1_800_000_000.0]
    host, settings = await clocked_host(tmp_path, now)
    # favor_asks=every: the seeded game's divine-favor questions as version 2 asked them.
    await _ignite(host, ["p0", "p1"], 5, "placement=auto ties=auto difficulty=hard favor_asks=every")
    dice = Dice(11)
    for _ in range(3000):
        row, game, state = await _state(host)
        assert row.status == "active"
        turn = game.to_act(state)
        p0 = row.seats[0].seat
        legal = game.legal_actions(state, sorted(turn.seats)[0])
        keep = next((a for a in legal if str(a) == "keep"), None)
        if keep is not None:
            # p0 answers after a day away.
            now[0] += settings.reminder_hours * 3600 + 60
            posts = await cmd(host, "p0", "play", action="keep")
            row, game, state = await _state(host)
            after = game.to_act(state)
            if after.seats == {p0} and not after.decision:
                public = [p for p in posts if p.to is None]
                buttons = [c for p in public for c in p.choices if "since my last move" in c.label]
                assert buttons, public[-1].text
                [recap] = await host.press(caller("p0"), buttons[0].custom_id)
                head = recap.text.splitlines()[0]
                assert "days ago" in head and "minute" not in head, head
                break
            continue
        now[0] += 60
        await _random_move(host, dice)
    else:
        raise AssertionError("the seeded game should give p0 the turn right after an answer")
    await host.close()


def test_a_long_caption_wraps_to_two_lines_under_the_board() -> None:
    caption = (
        "Move 37 of 41 · fire (alice): Fire enters Earth at f3 pushing west; 4 tokens shift one "
        "square; Water on b3 is pushed off (onto a removed line) and returns to the supply as Earth."
    )
    lines = caption_lines(caption, 700)
    assert len(lines) == CAPTION_LINES == 2
    assert " ".join(lines) == caption  # nothing cut: the pushed-off token is told
    assert all(kit.text_length(line, CAPTION_PX) <= 700 for line in lines)
    cut = caption_lines(caption * 3, 700)
    assert len(cut) == 2 and cut[-1].endswith("…")


def test_frames_are_numbered_with_the_games_round_not_a_turn_count() -> None:
    """Ignite's frames: "Frame k of N · Round R", R the round the turn or phase was played in
    (the picture after an Enemy Phase already shows the next round)."""
    views = [{"round": 0}, {"round": 1}, {"round": 1}, {"round": 2}]
    frames = [
        FrameRow(k, 0, c, v) for k, (c, v) in enumerate(zip(["start", "a", "b", "c"], views, strict=True))
    ]
    labels = [c for c, _ in numbered(frames)]
    assert labels == [
        "Start · start",
        "Frame 1 of 3 · a",
        "Frame 2 of 3 · Round 1 · b",
        "Frame 3 of 3 · Round 1 · c",
    ]
    # A phase's summary that opens with its round is not told the round twice.
    phase = FrameRow(3, 0, "Round 1 of 20, Enemy Phase: nobody died.", views[3])
    assert numbered([*frames[:3], phase])[-1][0] == "Frame 3 of 3 · Round 1 of 20, Enemy Phase: nobody died."


async def test_a_recap_of_a_finished_game_says_the_result_once(tmp_path: Path) -> None:
    """After the other player resigns, the recap ends with the result, not also the position's
    own line (which says the game is over again, or, after a resignation, whose move it was)."""
    now = [1_800_000_000.0]
    host, _ = await clocked_host(tmp_path, now)
    await ignis_table(host)
    await first_legal(host, "alice", "fire")
    await first_legal(host, "bob", "water")
    [asked] = await cmd(host, "bob", "resign")
    said = await host.press(caller("bob"), asked.choices[0].custom_id)
    assert any("Game over" in p.text for p in said), [p.text for p in said]
    [recap] = await cmd(host, "alice", "recap")
    assert recap.text.count("Game over") == 1 and "Now:" not in recap.text, recap.text
    assert "won" in recap.text.splitlines()[-1]
    await host.close()


async def test_a_recap_of_a_game_its_rules_ended_says_why_once(tmp_path: Path) -> None:
    """Ignis played at random to its end by the rules: the loser's recap tells the last move,
    whose words say why the game ended, and the result line under it does not say it again."""
    now = [1_800_000_000.0]
    host, _ = await clocked_host(tmp_path, now)
    await ignis_table(host)
    dice = Dice(5)
    for _ in range(300):
        _, game, state = await _state(host)
        if game.outcome(state) is not None:
            break
        await _random_move(host, dice)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.reason
    [loser] = outcome.losers
    [recap] = await cmd(host, {"fire": "alice", "water": "bob"}[loser], "recap")
    reason = outcome.reason.rstrip(".")
    assert recap.text.count(reason) == 1, recap.text
    assert recap.text.splitlines()[-1].startswith("**Game over**"), recap.text
    await host.close()


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_a_replay_frames_caption_reads_on_a_phone(
    game_id: str, options: dict[str, str], seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone shows the animation PHONE_WIDTH wide: every caption line is drawn large enough to
    read at LEGIBLE pixels there, however wide the board (the replay has no close-up)."""
    drawn: list[tuple[str, int]] = []
    stamp = kit.text_stamp

    def spy(palette: Any, text: str, size: int, *a: Any, **k: Any) -> Any:
        drawn.append((text, size))
        return stamp(palette, text, size, *a, **k)

    monkeypatch.setattr(kit, "text_stamp", spy)
    kit.STAMPS.clear()
    [moment] = list(itertools.islice(play(game_id, options, seats, 1, plies=6), 5, 6))
    caption = "Move 5 of 41 · a player: " + "what happened on this turn, told in full " * 3
    image = Image.open(io.BytesIO(animate(game_id, [(caption, moment.game.view(moment.state, None))], {})))
    width = image.width
    lines = caption_lines(caption, width - 16, caption_px(width))
    words = set(kit.safe_text(" ".join(lines)).split())  # as drawn: the cut's "…" in the font's "..."
    sizes = [size for text, size in drawn if text in words]
    assert len(lines) == CAPTION_LINES and {text for text, _ in drawn} >= words, (game_id, drawn[-3:])
    assert min(sizes) * PHONE_WIDTH / width >= LEGIBLE, (game_id, min(sizes), width)


def test_an_answer_that_let_a_phase_run_is_told_as_given_not_as_the_phase() -> None:
    """A tie answered at the end of a turn: what the channel was told after it opens with the
    Enemy Phase it let run, which the recap tells on its own line; the answer's line says the
    answer, once, instead of the phase again."""
    phase = "Round 4 of 20, Enemy Phase: no unit hit, nobody died."
    answer = ActionRow(
        5,
        "action",
        "windkin",
        "carol",
        "choose g18",
        f"plays `choose g18`{SAID_END}{phase} More.",
        True,
        0.0,
        9,
    )
    frames = [FrameRow(9, 1, phase, {})]
    assert told_briefly(None, answer, frames) == "plays `choose g18`"  # type: ignore[arg-type]
    # An answer whose story opens with what it did is told by that.
    chose = ActionRow(
        6,
        "action",
        "windkin",
        "carol",
        "choose g18",
        f"plays `choose g18`{SAID_END}windkin sends green minion #2 toward g18. {phase}",
        True,
        0.0,
        10,
    )
    assert (
        told_briefly(None, chose, [FrameRow(10, 1, phase, {})]) == "windkin sends green minion #2 toward g18."
    )  # type: ignore[arg-type]


async def test_a_recap_of_a_wide_board_carries_its_phone_close_up(tmp_path: Path) -> None:
    """The marked board of an Ignite recap is too wide to read on a phone: the recap carries the
    close-up every board post does."""
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), rate_limit_per_minute=0)
    host = Host(await Repository.open(settings.db_path), settings, renderer=render_board)
    await _ignite(host, ["a", "b"], 3, "placement=auto favor_prompts=off ties=auto")
    dice = Dice(4)
    for _ in range(6):
        await _random_move(host, dice)
    [recap] = await cmd(host, "a", "recap")
    names = [i.filename for i in recap.images]
    assert len(names) == 2 and names[1].endswith("-close-up.png"), names
    await host.close()


async def test_a_recap_too_long_even_shortened_keeps_the_end_and_files_every_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round of Ignite told to p0, with the message limit lowered so that even its shortened
    lines do not fit: the oldest movers' lines give way, what happened to the board and whose
    turn it is stay in the message, and recap.txt holds every move in full (it once held the
    shortened text, cut)."""
    limit = 620
    monkeypatch.setattr("bot.host.recap.MAX_TEXT", limit)
    host, row, _, _ = await _ignite_to_round_two(tmp_path)
    [recap] = await cmd(host, "p0", "recap")
    assert len(recap.text) <= limit
    lines = recap.text.splitlines()
    assert lines[0].startswith("**Since your last move**"), lines[0]
    assert lines[-1] == "(Every move in full: recap.txt.)"
    assert lines[-2] == f"To act: {row.seats[0].seat} (p0).", lines[-2]  # whose turn it is
    assert any(line.startswith("Now: ") for line in lines)
    assert "• … 1 earlier line of moves in recap.txt" in lines, recap.text
    [full] = [f for f in recap.files if f.filename == "recap.txt"]
    told = full.data.decode()
    assert len(told) > limit and "(Every move in full" not in told
    kept = [line for line in lines if line.startswith("• ") and not line.startswith("• … ")]
    movers = [line for line in told.splitlines() if line.startswith("• ")]
    assert len(movers) > len(kept) and movers[-1].split(":")[0] == kept[-1].split(":")[0]  # the latest kept
    await host.close()


def test_an_answer_that_let_no_phase_end_is_told_by_its_own_sentence_and_counted_as_an_answer() -> None:
    """Ignite's favor prompts: `keep` lets the Enemy Phase go on to its next card and question
    without ending it. The recap tells the answer by what it did, not the cards the phase drew
    next, and counts answers apart from moves."""
    answer = ActionRow(
        7,
        "action",
        "ratmen",
        "p0",
        "keep",
        f"answers `keep`{SAID_END}No divine favor token spent: the Power card drawn is hardened. "
        "Round card 2 (2-6 players, stand-in): 1: 2 white. D20 for placement: 3.",
        False,
        0.0,
        11,
        answered=True,
    )
    move = ActionRow(
        6, "action", "ratmen", "p0", "end", f"plays `end`{SAID_END}ratmen ends the turn.", True, 0.0, 10
    )
    assert (
        told_briefly(None, answer, [])  # type: ignore[arg-type]
        == "No divine favor token spent: the Power card drawn is hardened."
    )
    assert tally([move, answer, answer]) == "1 move and 2 answers"
    assert tally([answer]) == "1 answer" and tally([move, move]) == "2 moves" and tally([]) == "0 moves"


def test_an_answer_logged_without_its_notation_is_counted_and_told_by_the_log_row_not_its_words() -> None:
    """Whether a row answered the game's question is the row's own flag (migration 8), not the
    words its summary opens with: an answer whose notation is hidden ("loses a card") is still an
    answer, told by what it did and never by the hidden notation."""
    hidden = ActionRow(
        8,
        "action",
        "hero1",
        "p0",
        "lose grave-oath",
        f"loses a card{SAID_END}Sir Aldric loses a card to the wound. The Warden moves on.",
        False,
        0.0,
        12,
        answered=True,
    )
    assert tally([hidden]) == "1 answer"
    told = told_briefly(None, hidden, [])  # type: ignore[arg-type]
    assert told == "Sir Aldric loses a card to the wound." and "grave-oath" not in told
    # The same words on a row that answered nothing are a move.
    assert tally([replace(hidden, answered=False)]) == "1 move"
