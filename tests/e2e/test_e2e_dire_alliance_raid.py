"""A four-player Dire Alliance Raid Mode game (Into the Darkwood) through the real discord.py client,
frontend and host against the emulator: moves by slash command and by each hero's private menu,
ties answered on the public post, boosts from the attacked hero's private menu, to a win or a loss.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord_emulator import FAST_RATE_SCALE, DiscordEmulator
from tablebot_harness import Table, choose_by_menus, last_with_buttons, move_shown, seated_user

from engine import Dice, get_game
from games.dire_alliance.content import load_content
from render.dire_alliance import SIZE as RAID_PICTURE

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
RATE_SCALE = FAST_RATE_SCALE  # whole games: at the CPU's pace

GAME = get_game("dire-alliance")
CONTENT = load_content()
HEROES = {"hero1": "alice", "hero2": "bob", "hero3": "carol", "hero4": "dave"}


@pytest.fixture
async def table(emu: DiscordEmulator, tmp_path: Path) -> AsyncIterator[Table]:
    bot = Table(emu, tmp_path / "raid.sqlite3")
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()


def _pick(state: Any, seat: str, legal: list[str], dice: Dice) -> str:
    """A purposeful stand-in for a person (as in the Raid console test): consecrate objectives, hit
    the villain, then minions, close in on the villain, sometimes boost when attacked, and otherwise
    play cards face down."""
    for key in (" interact", "melee villain", "shoot villain", "melee-all", " melee m", " shoot m", "gain "):
        hits = [m for m in legal if key in f" {m}"]
        if hits:
            return hits[dice.below(len(hits))]
    if "roll" in legal:
        # Attacked by an enemy: boost with a card from hand half the time, so the boost window is used.
        boosts = [m for m in legal if m.startswith("boost ")]
        return boosts[dice.below(len(boosts))] if boosts and dice.below(2) == 0 else "roll"
    specials = [m for m in legal if m.endswith(" special")]
    if specials and dice.below(2):
        return specials[0]
    here, target = state.heroes[seat].area, state.villain.area
    moves = [m for m in legal if " move " in f" {m}" and not m.startswith("exert")]
    if moves:
        best = min(moves, key=lambda m: CONTENT.steps[(int(m.split()[-1]), target)])
        if CONTENT.steps[(int(best.split()[-1]), target)] < CONTENT.steps[(here, target)]:
            return best
    if "stop" in legal and dice.below(2):
        return "stop"
    down = [m for m in legal if m.endswith(" down")] or legal
    return down[dice.below(len(down))]


async def _state(table: Table, session_id: int) -> Any:
    return GAME.from_json(await table.repo.state(session_id) or {})


async def test_a_four_player_into_the_darkwood_raid_ends_in_a_win_or_a_loss(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    users = {seat: emu.add_user(name) for seat, name in HEROES.items()}
    alice = users["hero1"]
    # Every question the rulebook hands the players (raid_asks=every), so that ties come through
    # Discord's buttons too: by default only the ties that matter to a hero are asked.
    await emu.slash(
        alice, channel, "game", "new", game="dire-alliance", seed="8", options="mode=raid raid_asks=every"
    )
    for seat, user in users.items():
        joined = await emu.slash(user, channel, "game", "join", seat=seat)
        assert any(seat in m.content for m in emu.replies(joined) if not m.ephemeral), emu.transcript(channel)
    started = await emu.slash(alice, channel, "game", "start")
    assert any(not m.ephemeral for m in emu.replies(started)), emu.transcript(channel)

    # A hand is shown only to its hero, in an ephemeral reply.
    hand = await emu.slash(users["hero2"], channel, "game", "hand")
    [private] = emu.replies(hand)
    assert private.visible_to == users["hero2"].id and "Your hand (stand-in cards):" in private.content
    assert all(private not in emu.messages(channel, seen_by=u) for s, u in users.items() if s != "hero2")
    # So is the hand the public post's "Show my hand" button opens.
    post = last_with_buttons(emu, channel)
    shown = next(c for c in post.custom_ids() if c.split(":")[3] == "h")
    [private] = emu.replies(await emu.click(users["hero3"], post, shown))
    assert private.visible_to == users["hero3"].id and "Your hand (stand-in cards):" in private.content

    # A refused move (Stop is a Heroes React move, not one of the Heroes Act phase) posts nothing public.
    before = len(emu.public_messages(channel))
    refused = await emu.slash(alice, channel, "play", action="stop")
    assert emu.replies(refused) and all(m.ephemeral for m in emu.replies(refused))
    assert len(emu.public_messages(channel)) == before

    dice = Dice(8)
    played: list[str] = []
    by = {"slash": 0, "menu": 0, "tie": 0, "boost": 0}
    boosted = False
    for _ in range(3000):
        row = await table.session(channel)
        if row is None:
            break
        state = await _state(table, row.id)
        turn = GAME.to_act(state)
        seat = sorted(turn.seats)[dice.below(len(turn.seats))]
        legal = GAME.legal_actions(state, seat)
        move = _pick(state, seat, legal, dice)
        user = seated_user(emu, row, seat)
        if turn.decision:
            # A tie the rules hand the players: its answers are buttons on the public post.
            by["tie"] += 1
            ix = await choose_by_menus(emu, user, last_with_buttons(emu, channel), move, legal)
        elif "roll" in legal or dice.below(4) == 0:
            # Boost or roll (before an enemy's dice), and now and then a move, through the hero's
            # private menu opened from the public post's "Choose my move".
            by["boost" if "roll" in legal else "menu"] += 1
            boosted = boosted or ("roll" in legal and move.startswith("boost "))
            ix = await choose_by_menus(emu, user, last_with_buttons(emu, channel), move, legal)
        else:
            by["slash"] += 1
            ix = await emu.slash(user, channel, "play", action=move)
        # A card played face down is posted without its name; the notation is the hero's alone.
        told = GAME.public_text(state, seat, move)
        shown = f"`{move}`" if told == move else told
        public = move_shown(emu, channel, ix, shown)
        assert public and shown in public[0].content, emu.transcript(channel)[-3000:]
        assert told == move or f"`{move}`" not in public[0].content
        played.append(move)
        if GAME.to_act(await _state(table, row.id)).decision and public[0].pinged:
            # A tie is judged on the board: the post that hands it to someone shows the picture.
            assert any(i.png_size() == RAID_PICTURE for m in public for i in m.images)

    row = await table.repo.latest_session_in(str(channel.id))
    assert row is not None and row.status == "finished", emu.transcript(channel)[-3000:]
    assert row.outcome is not None and sorted(HEROES) in (row.outcome["winners"], row.outcome["losers"])
    assert await table.notations(channel, latest=True) == played  # each move applied exactly once
    text = "\n".join(m.content for m in emu.public_messages(channel))
    assert "Game over" in text and "Heroes React" in text and "Enemies Act: the villain draws" in text
    assert by["slash"] and by["menu"] and by["tie"] and by["boost"], by
    assert boosted, "no hero boosted before an enemy's dice"
    # Board pictures; the game's animated replay is a picture of its own size.
    images = [i for m in emu.public_messages(channel) for i in m.images if "replay" not in i.filename]
    # Close-ups for phones come with a post's last picture; the boards keep their size.
    pictures = [i for i in images if not i.filename.endswith("-close-up.png")]
    assert len(pictures) > 10 and all(i.png_size() == RAID_PICTURE for i in pictures)
    # No message crops its pictures into a mosaic (the close-up and the replay stand in embeds).
    assert not [m.id for m in emu.public_messages(channel) if m.tiled]
    # The final post shows the board; the replay follows it in a message of its own, pinging nobody.
    *_, final, replay = emu.public_messages(channel)
    assert final.images and [a for a in replay.attachments if a.filename.endswith("-replay.gif")]
    assert not replay.pinged
