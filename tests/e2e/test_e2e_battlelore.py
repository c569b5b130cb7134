"""BattleLore with the Great Dragon through the real discord.py client, frontend and host against the
emulator: "Into the Fire" and a standard game with drafted dragons, each played from setup (scenario,
draft, muster, deploy, discard) to a winner by /play and by each player's private menu, the
decisions combat hands a player pressed on the public post.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord_emulator import FAST_RATE_SCALE, DiscordEmulator, User
from tablebot_harness import Table, choose_by_menus, last_with_buttons, move_shown, seated_user

from bot.host import BOT_USER
from engine import Dice, get_game
from games.battlelore.board import distance
from games.battlelore.state import State
from render import PHONE_WIDTH
from render.battlelore import SIZE as BATTLELORE_PICTURE

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
RATE_SCALE = FAST_RATE_SCALE  # whole games: at the CPU's pace

GAME = get_game("battlelore")


@pytest.fixture
async def table(emu: DiscordEmulator, tmp_path: Path) -> AsyncIterator[Table]:
    bot = Table(emu, tmp_path / "battlelore.sqlite3")
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()


def _pick(state: State, seat: str, legal: list[str], dice: Dice) -> str:
    """A purposeful stand-in for a person (as in the console test): draft a dragon, take a suggested
    army, attack whenever it can, and usually move towards the nearest enemy; else anything."""
    # A person who makes every setup choice: `quick` (tests/games/battlelore/test_battlelore_quick.py)
    # would make them all at once.
    legal = [m for m in legal if m != "quick"]
    for prefix in ("draft ", "army ", "attack ", "target ", "order "):
        hits = [m for m in legal if m.startswith(prefix)]
        if hits:
            return hits[dice.below(len(hits))]
    foes = [u["hex"] for u in state.units.values() if u["owner"] != seat]
    moves = [m for m in legal if m.startswith("move ")]
    if moves and foes and dice.below(6):
        return min(moves, key=lambda m: (min(distance(m.split()[2], f) for f in foes), dice.below(4)))
    return legal[dice.below(len(legal))]


async def _state(table: Table, session_id: int) -> State:
    return GAME.from_json(await table.repo.state(session_id) or {})


async def _check_hand(emu: DiscordEmulator, table: Table, row: Any, seat: str, other: User) -> None:
    """`/game hand` shows a seat its own command cards, in a reply only it sees."""
    user = seated_user(emu, row, seat)
    state = await _state(table, row.id)
    ix = await emu.slash(user, emu.channel("games"), "game", "hand")
    [private] = emu.replies(ix)
    assert private.visible_to == user.id
    own = state.piles[seat]["hand"]
    assert own and all(GAME.card_text(state.cards[c]).split("**")[1] in private.content for c in own)
    assert private not in emu.messages(emu.channel("games"), seen_by=other)


async def _check_refusals(emu: DiscordEmulator, table: Table, row: Any, seat: str, legal: list[str]) -> None:
    """A move out of turn and a move that is not one post nothing in public."""
    channel = emu.channel("games")
    waiting = next(s.seat for s in row.seats if s.seat != seat)
    before = len(emu.public_messages(channel))
    for user, text in ((seated_user(emu, row, waiting), legal[0]), (seated_user(emu, row, seat), "fly z99")):
        ix = await emu.slash(user, channel, "play", action=text)
        assert emu.replies(ix) and all(m.visible_to == user.id for m in emu.replies(ix)), text
    assert len(emu.public_messages(channel)) == before
    assert (await table.session(channel)) is not None and (
        await table.session(channel)
    ).version == row.version


@pytest.mark.parametrize(
    ("options", "seed", "shown"),
    [
        ("scenario=into-the-fire", 11, "Great Dragon"),
        # unspent=keep: the armies stop at a suggested army, as a quick group might; spending every
        # point makes a game of many hundred moves, too long for the suite.
        ("scenario=standard dragon=on unspent=keep", 7, "(daqan) plays `draft great-dragon`"),
    ],
)
async def test_a_battlelore_game_through_discord_ends_with_a_winner(
    emu: DiscordEmulator, table: Table, options: str, seed: int, shown: str
) -> None:
    channel = emu.channel("games")
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    await emu.slash(alice, channel, "game", "new", game="battlelore", seed=str(seed), options=options)
    for user, seat in ((alice, "daqan"), (bob, "uthuk")):
        joined = await emu.slash(user, channel, "game", "join", seat=seat)
        assert any(seat in m.content for m in emu.replies(joined) if not m.ephemeral), emu.transcript(channel)
    started = await emu.slash(alice, channel, "game", "start")
    assert any(not m.ephemeral for m in emu.replies(started)), emu.transcript(channel)

    dice = Dice(seed)
    played: list[str] = []
    by = {"slash": 0, "menu": 0, "decision": 0}
    checked_play = False
    phases: list[str] = []
    for _ in range(4000):
        row = await table.session(channel)
        if row is None:
            break
        state = await _state(table, row.id)
        if not phases or phases[-1] != state.phase:
            phases.append(state.phase)
        turn = GAME.to_act(state)
        seat = sorted(turn.seats)[0]
        legal = [str(a) for a in GAME.legal_actions(state, seat)]
        user = seated_user(emu, row, seat)
        if not checked_play and state.phase == "play" and not turn.decision:
            await _check_hand(emu, table, row, seat, next(u for u in (alice, bob) if u != user))
            await _check_refusals(emu, table, row, seat, legal)
            checked_play = True
        move = _pick(state, seat, legal, dice)
        if turn.decision:
            # A decision combat hands a player (the dragon's target, a Mighty reroll): its answers
            # are buttons on the public post.
            by["decision"] += 1
            ix = await choose_by_menus(emu, user, last_with_buttons(emu, channel), move, legal)
        elif dice.below(4) == 0:
            # Now and then through the private menu that the public post's "Choose my move" opens.
            by["menu"] += 1
            ix = await choose_by_menus(emu, user, last_with_buttons(emu, channel), move, legal)
        else:
            by["slash"] += 1
            ix = await emu.slash(user, channel, "play", action=move)
        # A move that handles unseen cards (a swap, a face-down placement) is posted in its public
        # form; the notation, with its card ids, is the mover's alone.
        told = GAME.public_text(state, seat, GAME.parse(state, move))
        shown = f"`{move}`" if told == move else told
        public = move_shown(emu, channel, ix, shown)
        assert public and shown in public[0].content, emu.transcript(channel)[-3000:]
        assert told == move or move not in public[0].content
        played.append(move)
        if GAME.to_act(await _state(table, row.id)).decision and public[0].pinged:
            # A decision is judged on the board: the post that hands it to someone shows the picture.
            assert any(i.png_size() == BATTLELORE_PICTURE for m in public for i in m.images)

    row = await table.repo.latest_session_in(str(channel.id))
    assert row is not None and row.status == "finished", emu.transcript(channel)[-3000:]
    assert row.outcome is not None and len(row.outcome["winners"]) == 1, row.outcome
    # Each move applied exactly once; besides them, only the host's answers to questions with one
    # possible answer (a Flame Breath with one unit in reach), logged as the bot's.
    logged = await table.repo.actions(row.id)
    assert [a.notation for a in logged if a.user_id != BOT_USER] == played
    assert all(a.seat for a in logged if a.user_id == BOT_USER)
    assert checked_play and by["slash"] and by["menu"], by
    assert {"muster", "deploy", "hands", "play"} <= set(phases), phases
    text = "\n".join(m.content for m in emu.public_messages(channel))
    assert "Game over" in text and shown in text
    # Board pictures; the game's animated replay is a picture of its own size.
    images = [i for m in emu.public_messages(channel) for i in m.images if "replay" not in i.filename]
    pictures = [i for i in images if not i.filename.endswith("-close-up.png")]
    assert len(pictures) > 10 and all(i.png_size() == BATTLELORE_PICTURE for i in pictures)
    # For phones, the posts with a combat or a decision carry a close-up of where it was.
    close = [i for i in images if i.filename.endswith("-close-up.png")]
    assert close and all(i.png_size()[0] >= PHONE_WIDTH for i in close)
    # No message crops its pictures into a mosaic (the close-up and the replay stand in embeds).
    assert not [m.id for m in emu.public_messages(channel) if m.tiled]
    # The final post shows the board; the replay follows it in a message of its own, pinging nobody.
    *_, final, replay = emu.public_messages(channel)
    assert final.images and [a for a in replay.attachments if a.filename.endswith("-replay.gif")]
    assert not replay.pinged
