"""An Ignite: A New Enemy round for two players through the real discord.py client, frontend and
host against the emulator: free turns, a Player Phase with card plays, and the automated Enemy Phase.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_emulator import FAST_RATE_SCALE, DiscordEmulator
from tablebot_harness import Table, move_shown, seated_user

from engine import Dice, get_game
from render import PHONE_WIDTH
from render.ignite import SIZE as IGNITE_PICTURE

pytestmark = pytest.mark.e2e
RATE_SCALE = FAST_RATE_SCALE  # whole games: at the CPU's pace


@pytest.fixture
async def table(emu: DiscordEmulator, tmp_path: Path) -> AsyncIterator[Table]:
    bot = Table(emu, tmp_path / "ignite.sqlite3")
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()


async def test_ignite_round_with_two_players(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    first, second = get_game("ignite").seat_names({})[:2]
    await emu.slash(alice, channel, "game", "new", game="ignite", seed="3")
    await emu.slash(alice, channel, "game", "join", seat=first)
    await emu.slash(bob, channel, "game", "join", seat=second)
    started = await emu.slash(alice, channel, "game", "start")
    assert any(not m.ephemeral for m in emu.replies(started)), emu.transcript(channel)

    dice = Dice(17)
    played_card = False
    last_by: dict[str, str] = {}
    round_over = False
    for _ in range(120):
        row, seats, legal = await table.to_act(channel)
        seat = seats[0]
        moves = legal[seat]
        plays = [m for m in moves if m.startswith("play ")]
        if "keep" in moves:
            move = "keep"  # a divine favor prompt: keep the draw or roll
        elif "end" in moves and (last_by.get(seat) != "end" or not plays):
            # Alternate a card play and the end of the turn, so the round sees both.
            move = plays[dice.below(len(plays))] if plays and last_by.get(seat) == "end" else "end"
        else:
            move = moves[dice.below(len(moves))]
        last_by[seat] = "play" if move.startswith("play ") else move
        played_card = played_card or move.startswith("play ")
        ix = await emu.slash(seated_user(emu, row, seat), channel, "play", action=move)
        public = move_shown(emu, channel, ix, told(move))
        assert public, f"{move!r} by {seat} got only {[m.content for m in emu.replies(ix)]}"
        if any("Enemy Phase ends" in m.content for m in public):
            round_over = True
            break
    assert round_over, "round 1 did not reach the end of its Enemy Phase:\n" + emu.transcript(channel)
    assert played_card, "nobody played a card during the round"
    text = "\n".join(m.content for m in emu.public_messages(channel))
    # The phase's die in the post (the whole Round card is in the picture, /game status and the
    # trace file: with the favor asked once, nobody weighs a reroll of it).
    assert "Round 1 of 20: Enemy Phase" in text and "D6 for the enemy group" in text
    pictures = [a for m in emu.public_messages(channel) for a in m.images]
    boards = [p for p in pictures if not p.filename.endswith("-close-up.png")]
    assert boards and all(p.png_size() == IGNITE_PICTURE for p in boards)
    # For phones, a post's last picture comes with a close-up of where the enemies acted.
    close = [p for p in pictures if p.filename.endswith("-close-up.png")]
    assert close and all(p.png_size()[0] >= PHONE_WIDTH and "close-up" in p.description for p in close)
    # Each picture is shown whole: the close-up stands in an embed under the board, so Discord
    # does not crop the two into a mosaic of half-width tiles.
    assert not [m.id for m in emu.public_messages(channel) if m.tiled]
    # Both players were pinged when it was their turn, and only in public posts.
    pinged = {uid for m in emu.public_messages(channel) for uid in m.pinged}
    assert {alice.id, bob.id} <= pinged


def told(move: str) -> str:
    """How the channel tells a move: a card played reads as the card move, "plays `march Ra1
    a16`", without the typed "play"."""
    return f"`{move.removeprefix('play ')}`"


@pytest.mark.slow
@pytest.mark.parametrize(("players", "difficulty"), [(1, "easy"), (4, "regular"), (8, "insanity")])
async def test_ignite_plays_to_a_win_or_a_loss(
    emu: DiscordEmulator, table: Table, players: int, difficulty: str
) -> None:
    channel = emu.channel("games")
    users = [emu.add_user(f"p{i}") for i in range(players)]
    await emu.slash(
        users[0], channel, "game", "new", game="ignite", seed=str(players), options=f"difficulty={difficulty}"
    )
    for user in users:
        await emu.slash(user, channel, "game", "join")
    await emu.slash(users[0], channel, "game", "start")
    dice = Dice(players)
    for _ in range(2000):
        if await table.session(channel) is None:
            break
        row, seats, legal = await table.to_act(channel)
        moves = legal[seats[0]]
        # Half the time end the turn at once, so the rounds (and the enemies) come quickly.
        quick = [m for m in moves if m in ("end", "choose defaults", "keep")]
        move = quick[0] if quick and dice.below(2) else moves[dice.below(len(moves))]
        ix = await emu.slash(seated_user(emu, row, seats[0]), channel, "play", action=move)
        assert move_shown(emu, channel, ix, told(move)), emu.transcript(channel)[-2000:]
    assert await table.session(channel) is None, "the game did not end"
    text = "\n".join(m.content for m in emu.public_messages(channel))
    assert "Game over" in text


async def test_a_players_later_cards_in_one_turn_join_the_turns_message_and_ping_nobody(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    alice = emu.add_user("alice")
    await emu.slash(alice, channel, "game", "new", game="ignite", seed="1", options="difficulty=easy")
    await emu.slash(alice, channel, "game", "join")
    await emu.slash(alice, channel, "game", "start")
    for _ in range(60):  # through the free turns' placements to a turn with cards to play
        _, seats, legal = await table.to_act(channel)
        plays = [m for m in legal[seats[0]] if m.startswith("play ")]
        if len(plays) >= 2:
            break
        await emu.slash(
            alice, channel, "play", action="end" if "end" in legal[seats[0]] else legal[seats[0]][0]
        )
    else:
        raise AssertionError("no turn with two cards to play:\n" + emu.transcript(channel))
    first = await emu.slash(alice, channel, "play", action=plays[0])
    [turn] = move_shown(emu, channel, first, told(plays[0]))
    pinged, count = list(turn.pinged), len(emu.public_messages(channel))
    _, seats, legal = await table.to_act(channel)
    later = next((m for m in legal[seats[0]] if m.startswith("play ")), None)
    if later is None:
        pytest.skip("the first card left no second card to play")  # stand-in content may change
    second = await emu.slash(alice, channel, "play", action=later)
    [joined] = move_shown(emu, channel, second, told(later))
    if joined is not turn:  # a card whose post carries a picture starts a message of its own
        assert joined.images, emu.transcript(channel)
        return
    assert len(emu.public_messages(channel)) == count, "no new message for the later card"
    assert told(plays[0]) in joined.content and told(later) in joined.content
    assert joined.pinged == pinged, "an edit pings nobody new"
    assert not [m for m in emu.replies(second) if not m.ephemeral]
