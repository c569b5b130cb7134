"""The table's promises through the real discord.py client, frontend and host against the emulator,
for one game of every mode of every registered game (engine.registry.all_modes, so a new game or
mode is covered unnamed): every seat a person, one of them away, seeded random legal moves by /play.

After every move: at most one new public message; a step that continues the same person's turn
adds to the turn's message (an edit, which pings nobody) instead; a new message comes only when
the person awaited changes, an automated phase ran or the game ended (or the turn's message would
outgrow Discord's limit: then without a ping or a picture); it never pings the mover
or the away player; no picture repeats the one before it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord_emulator import FAST_RATE_SCALE, DiscordEmulator
from tablebot_harness import Table, seated_user

from engine import Dice, Game, get_game
from engine.registry import all_modes

pytestmark = pytest.mark.e2e
RATE_SCALE = FAST_RATE_SCALE  # whole games: at the CPU's pace


def _players(game: Game[Any, Any], options: dict[str, str]) -> int:
    """Three where the mode seats three (two people play on while one is away), else all it seats."""
    low, high = game.seat_range(game.validate_options(options))
    return min(high, max(low, 3))


# (game, options as typed, players): 40 moves each, a few seconds of CPU a mode.
MODES = [(g.id, " ".join(f"{k}={v}" for k, v in mode.items()), _players(g, mode)) for g, mode in all_modes()]
MOVES = 40


@pytest.fixture
async def table(emu: DiscordEmulator, tmp_path: Path) -> AsyncIterator[Table]:
    bot = Table(emu, tmp_path / "table.sqlite3")
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()


@pytest.mark.parametrize(
    ("game_id", "options", "players"), MODES, ids=[f"{g}-{o}" if o else g for g, o, _ in MODES]
)
async def test_one_message_per_turn_through_discord(
    emu: DiscordEmulator, table: Table, game_id: str, options: str, players: int
) -> None:
    channel = emu.channel("games")
    users = [emu.add_user(f"p{i}") for i in range(players)]
    game = get_game(game_id)
    await emu.slash(users[0], channel, "game", "new", game=game_id, seed="5", options=options)
    for user in users:
        await emu.slash(user, channel, "game", "join")
    away = users[-1]
    told = await emu.slash(away, channel, "seat", "away", days="30")
    assert sum(not m.ephemeral for m in emu.replies(told)) <= 1
    await emu.slash(users[0], channel, "game", "start")
    assert table.host is not None
    dice = Dice(5)
    last_picture: bytes | None = None
    new_messages = 0
    for _ in range(MOVES):
        row = await table.session(channel)
        if row is None:
            break
        state = game.from_json(await table.repo.state(row.id) or {})
        # Whom the game waits on, as the host reckons it: never the away player while another may answer.
        gone = frozenset({str(away.id)})
        before = table.host.announcer.awaited(row, game, state, gone)
        _, seats, legal = await table.to_act(channel)
        moves = legal[seats[0]]
        # Half the time a move that ends a turn or a phase, so turns change within the test.
        quick = [m for m in moves if m.split()[0] in ("end", "pass", "stop", "keep")]
        move = quick[0] if quick and dice.below(2) else moves[dice.below(len(moves))]
        # The same move on a copy tells whether an automated phase runs (the state holds its dice).
        _, events = game.act(game.copy(state), seats[0], move)
        automated = any(e.phase_end and "view" in e.data for e in events)
        mover = seated_user(emu, row, seats[0])
        shown = list(emu.public_messages(channel))
        edits = shown[-1].edits if shown else 0
        await emu.slash(mover, channel, "play", action=move)
        now = list(emu.public_messages(channel))
        fresh = now[len(shown) :]
        after_row = await table.repo.session(row.id)
        after_state = game.from_json(await table.repo.state(row.id) or {})
        ended = after_row.status != "active"
        after = table.host.announcer.awaited(after_row, game, after_state, gone)
        # A game's end may come within the moves (Connect Four's does): its replay follows the final post.
        if ended and len(fresh) == 2 and fresh[1].content.startswith(f"Replay of the {game.title} game"):
            fresh = fresh[:1]
        assert len(fresh) <= 1, [m.content for m in fresh]
        if fresh:
            new_messages += 1
            [message] = fresh
            assert mover.id not in message.pinged and away.id not in message.pinged, message.content
            if not (ended or automated or after not in (before, {str(mover.id)})):
                # A step of the same turn that would make the turn's message too long for Discord
                # stands alone, still without a ping or a picture.
                assert not message.pinged and not message.images, message.content
            pictures = [p.data for p in message.images]
            assert all(a != b for a, b in zip([last_picture, *pictures], pictures, strict=False))
            last_picture = pictures[-1] if pictures else last_picture
        else:
            # The step was added to the turn's message: an edit, which pings nobody.
            assert now[-1].edits > edits, now[-1].content[-300:]
            assert not ended and not automated
    assert new_messages >= 3, emu.transcript(channel)[-2000:]
