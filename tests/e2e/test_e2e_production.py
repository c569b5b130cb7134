"""Discord's behaviour that only production shows, as the emulator models it from Discord's own
reports (issue 40): a bot's embeds dropped without Embed Links, channels, threads and servers
deleted while the bot was away, the command sync of a new application or a former dev server, and
posts owed to Discord across a restart and a SIGTERM.
"""

from __future__ import annotations

import io

import discord
import pytest
from discord_emulator import Channel, DiscordEmulator
from PIL import Image
from tablebot_harness import Table

from bot.posts import Attachment, Post

pytestmark = pytest.mark.e2e


def picture(name: str, colour: tuple[int, int, int]) -> Attachment:
    buffer = io.BytesIO()
    Image.new("RGB", (48, 24), colour).save(buffer, format="PNG")
    return Attachment(name, buffer.getvalue(), f"A stand-in picture ({name})")


def board_and_close_up(channel: Channel) -> Post:
    """A public post with two pictures, as a turn notice with the phone close-up is."""
    images = [picture("board.png", (20, 60, 120)), picture("close-up.png", (120, 60, 20))]
    return Post(str(channel.id), "Stand-in turn notice", images=images)


# ---- Embed Links ---------------------------------------------------------------------------------


async def test_game_new_is_refused_without_embed_links(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    emu.revoke(channel, "embed_links")
    ix = await emu.slash(emu.add_user("alice"), channel, "game", "new", game="ignis")
    [refusal] = emu.replies(ix)
    assert refusal.ephemeral and "Embed Links" in refusal.content, refusal.content
    assert await table.session(channel) is None


async def test_the_emulator_drops_a_channel_messages_embeds_without_embed_links(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    emu.revoke(channel, "embed_links")
    assert table.client is not None
    target = table.client.get_partial_messageable(channel.id)
    sent = await target.send("text", embed=discord.Embed(description="stand-in"))
    assert sent.embeds == [] and emu.public_messages(channel)[-1].content == "text"
    with pytest.raises(discord.Forbidden) as refused:
        await target.send(embed=discord.Embed(description="stand-in"))
    assert refused.value.code == 50013


async def test_without_embed_links_each_picture_of_a_channel_post_stands_alone(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    emu.revoke(channel, "embed_links")
    # A command there tells the bot its permissions in the channel (Discord's app_permissions).
    await emu.slash(emu.add_user("alice"), channel, "game", "status")
    assert table.client is not None
    sent = await table.client.delivery.send_to_channel(board_and_close_up(channel))
    first, second = emu.public_messages(channel)
    assert sent == 2 and emu.embeds_dropped == []
    assert first.content == "Stand-in turn notice"
    assert [a.filename for a in first.attachments] == ["board.png"]
    assert second.content == "" and [a.filename for a in second.attachments] == ["close-up.png"]
    assert not first.tiled and not second.tiled and not first.embeds and not second.embeds


async def test_a_post_whose_embeds_discord_dropped_keeps_its_pictures_and_later_posts_go_without(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    emu.revoke(channel, "embed_links")  # and no interaction there yet: the bot does not know
    assert table.client is not None
    await table.client.delivery.send_to_channel(board_and_close_up(channel))
    [dropped] = emu.public_messages(channel)
    assert emu.embeds_dropped == [channel.id]
    assert [a.filename for a in dropped.attachments] == ["board.png", "close-up.png"], "nothing lost"
    await table.client.delivery.send_to_channel(board_and_close_up(channel))
    later = emu.public_messages(channel)[1:]
    assert [[a.filename for a in m.attachments] for m in later] == [["board.png"], ["close-up.png"]]
    assert emu.embeds_dropped == [channel.id], "the later post sent no embeds to drop"


async def test_with_embed_links_the_close_up_stands_in_an_embed(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    assert table.client is not None
    await table.client.delivery.send_to_channel(board_and_close_up(channel))
    [message] = emu.public_messages(channel)
    assert len(message.embeds) == 1 and not message.tiled and emu.embeds_dropped == []
