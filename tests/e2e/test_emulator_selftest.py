"""Self-test of the Discord emulator with a tiny discord.py client: wiring, limits, reconnects, faults.

The client here is a stand-in made for the test; the real bot is exercised in test_e2e_*.py.
"""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest
from discord import app_commands
from discord_emulator import DiscordEmulator, running
from PIL import Image

pytestmark = pytest.mark.e2e
# The stand-in clients here send over-limit requests on purpose (and plain discord.py payloads):
# the schema check (test_api_schema.py) checks only the emulator's answers to them.
BOT_REQUESTS = False


def stand_in_png(width: int = 64, height: int = 32) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (40, 90, 160)).save(buffer, format="PNG")
    return buffer.getvalue()


class AgainView(discord.ui.View):
    """A persistent view: timeout None and a fixed custom id, so it answers after a restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(
        label="Again (stand-in)", custom_id="selftest:again", style=discord.ButtonStyle.primary
    )
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button[AgainView]) -> None:
        await interaction.response.send_message(f"pressed by {interaction.user.name}", ephemeral=True)


class PingBot(discord.Client):
    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.guild = discord.Object(guild_id)
        self.seen: list[str] = []
        self._declare()

    def _declare(self) -> None:
        tree = self.tree

        @tree.command(description="Answer pong with a picture (stand-in)")
        async def ping(interaction: discord.Interaction, text: str = "") -> None:
            self.seen.append(f"ping {text}")
            await interaction.response.defer(thinking=True)
            file = discord.File(
                io.BytesIO(stand_in_png()), filename="board.png", description="A stand-in board"
            )
            await interaction.followup.send(f"pong: {text}", file=file, view=AgainView())

        async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            count = 30 if current == "many" else 3
            return [app_commands.Choice(name=f"{current} {i}", value=f"{current}{i}") for i in range(count)]

        @tree.command(description="Repeat the text (stand-in)")
        @app_commands.autocomplete(text=suggest)
        async def echo(interaction: discord.Interaction, text: str) -> None:
            self.seen.append("echo")
            await interaction.response.send_message(text)

        @tree.command(description="Answer too late (stand-in)")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.5)
            await interaction.response.send_message("late")

        @tree.command(description="A private answer after a public defer (stand-in)")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("only for you", ephemeral=True)

        game = app_commands.Group(name="game", description="Stand-in game group")

        @game.command(name="new", description="Open a stand-in game")
        async def new(interaction: discord.Interaction, game: str, seed: int | None = None) -> None:
            self.seen.append(f"new {game} {seed}")
            await interaction.response.send_message(f"opened {game} seed={seed}")

        tree.add_command(game)

    async def setup_hook(self) -> None:
        self.add_view(AgainView())
        self.tree.copy_global_to(guild=self.guild)
        await self.tree.sync(guild=self.guild)


@pytest.fixture
def bot(emu: DiscordEmulator) -> PingBot:
    return PingBot(emu.guild_id)


async def test_login_gateway_ready_and_command_sync(emu: DiscordEmulator, bot: PingBot) -> None:
    async with running(bot, emu):
        assert emu.identifies == 1
        assert emu.gateway_queries[0] == {"v": "10", "encoding": "json", "compress": "zlib-stream"}
        conn = emu.connections[0]
        assert conn.heartbeats >= 1  # discord.py beats once on HELLO
        assert conn.split_messages >= 1  # the guild arrived in two frames and was reassembled
        assert bot.get_guild(emu.guild_id) is not None
        assert bot.get_channel(emu.channel("general").id) is not None
        assert emu.command_syncs == [(emu.guild_id, ["ping", "echo", "slow", "secret", "game"])]
        assert emu.registered("game").guild_id == emu.guild_id


async def test_heartbeats_are_acknowledged(emu: DiscordEmulator) -> None:
    emu.heartbeat_interval_ms = 100
    client = PingBot(emu.guild_id)
    async with running(client, emu):
        await asyncio.sleep(0.5)
        assert emu.connections[0].heartbeats >= 3
        assert client.latency < 1.0  # acks came back, so latency is measured, not infinite


async def test_slash_defer_and_followup_with_png(emu: DiscordEmulator, bot: PingBot) -> None:
    alice, general = emu.add_user("alice"), emu.channel("general")
    async with running(bot, emu):
        ix = await emu.slash(alice, general, "ping", text="hi")
    assert ix.response_type == 5
    [reply] = emu.replies(ix)
    assert reply.content == "pong: hi" and not reply.ephemeral and not reply.loading
    assert [a.filename for a in reply.attachments] == ["board.png"]
    assert reply.attachments[0].png_size() == (64, 32)
    assert reply.custom_ids() == ["selftest:again"]
    assert emu.public_messages(general) == [reply]


async def test_nested_subcommand_payload_reaches_handler(emu: DiscordEmulator, bot: PingBot) -> None:
    alice, games = emu.add_user("alice"), emu.channel("games")
    async with running(bot, emu):
        ix = await emu.slash(alice, games, "game", "new", game="ignis", seed="7")
    assert bot.seen == ["new ignis 7"]
    assert emu.replies(ix)[0].content == "opened ignis seed=7"


async def test_persistent_button_answers_privately(emu: DiscordEmulator, bot: PingBot) -> None:
    alice, bob, general = emu.add_user("alice"), emu.add_user("bob"), emu.channel("general")
    async with running(bot, emu):
        ix = await emu.slash(alice, general, "ping", text="x")
        press = await emu.click(bob, emu.replies(ix)[0], "selftest:again")
    [answer] = emu.replies(press)
    assert answer.content == "pressed by bob" and answer.visible_to == bob.id
    assert answer not in emu.messages(general, seen_by=alice)


async def test_persistent_button_works_after_restart(emu: DiscordEmulator) -> None:
    alice, general = emu.add_user("alice"), emu.channel("general")
    first = PingBot(emu.guild_id)
    async with running(first, emu):
        ix = await emu.slash(alice, general, "ping", text="before")
    second = PingBot(emu.guild_id)
    async with running(second, emu):
        press = await emu.click(alice, emu.replies(ix)[0], "selftest:again")
    assert emu.identifies == 2
    assert emu.replies(press)[0].content == "pressed by alice"


async def test_autocomplete_answers_and_25_choice_limit(emu: DiscordEmulator, bot: PingBot) -> None:
    alice, general = emu.add_user("alice"), emu.channel("general")
    async with running(bot, emu):
        choices = await emu.autocomplete(alice, general, "echo", text="ab")
        assert [c["name"] for c in choices] == ["ab 0", "ab 1", "ab 2"]
        with pytest.raises(AssertionError):
            await emu.autocomplete(alice, general, "echo", text="many")
    [broken] = emu.take_violations()
    assert "30 autocomplete choices" in broken


async def test_content_over_2000_characters_is_refused(emu: DiscordEmulator, bot: PingBot) -> None:
    alice, general = emu.add_user("alice"), emu.channel("general")
    async with running(bot, emu):
        ix = emu.send_slash(alice, general, "echo", text="x" * 2001)
        await emu.settle(ix)
    assert ix.refused == ["Invalid Form Body"]
    assert emu.messages(general) == []
    violations = emu.take_violations()
    assert any("2001 characters" in v for v in violations), violations


async def test_initial_response_deadline(emu: DiscordEmulator, bot: PingBot) -> None:
    emu.response_deadline = 0.3  # the real 3 s, shortened so the test stays quick
    alice, general = emu.add_user("alice"), emu.channel("general")
    async with running(bot, emu):
        ix = emu.send_slash(alice, general, "slow")
        await emu.settle(ix)
    assert ix.callbacks == 0 and ix.refused == ["Unknown interaction"] and emu.replies(ix) == []
    violations = emu.take_violations()
    assert any("initial response after" in v for v in violations), violations


async def test_ephemeral_followup_after_public_defer_is_a_leak(emu: DiscordEmulator, bot: PingBot) -> None:
    alice, general = emu.add_user("alice"), emu.channel("general")
    async with running(bot, emu):
        ix = await emu.slash(alice, general, "secret")
    [shown] = emu.replies(ix)
    assert shown.content == "only for you" and not shown.ephemeral  # what Discord really does
    violations = emu.take_violations()
    assert any("shows it publicly" in v for v in violations), violations


async def test_resumable_close_resumes_and_replays_missed_events(emu: DiscordEmulator, bot: PingBot) -> None:
    alice, general = emu.add_user("alice"), emu.channel("general")
    async with running(bot, emu):
        await emu.drop_gateway(4000)
        # Sent while the bot is away: held by the session and replayed on RESUME.
        ix = emu.send_slash(alice, general, "echo", text="still here")
        await emu.wait_resumed()
        await emu.settle(ix)
    assert emu.identifies == 1 and emu.resumes == 1
    assert [c.path for c in emu.connections] == ["/gateway", "/gateway-resume"]
    assert emu.replies(ix)[0].content == "still here"


async def test_opcode_7_reconnect_resumes(emu: DiscordEmulator, bot: PingBot) -> None:
    alice, general = emu.add_user("alice"), emu.channel("general")
    async with running(bot, emu):
        await emu.send_reconnect()
        await emu.wait_resumed()
        ix = await emu.slash(alice, general, "echo", text="after")
    assert emu.resumes == 1 and emu.replies(ix)[0].content == "after"


async def test_429_with_retry_after_is_retried_once(emu: DiscordEmulator, bot: PingBot) -> None:
    alice, general = emu.add_user("alice"), emu.channel("general")
    fault = emu.fault("POST", r"/webhooks/\d+/[^/]+", "429", retry_after=0.2)
    async with running(bot, emu):
        ix = await emu.slash(alice, general, "ping", text="busy")
    assert fault.hits == 1
    statuses = [r.status for r in emu.requests if r.route.startswith("/webhooks/")]
    assert statuses == [429, 200]
    assert [m.content for m in emu.replies(ix)] == ["pong: busy"]


async def test_500_is_retried(emu: DiscordEmulator, bot: PingBot) -> None:
    alice, general = emu.add_user("alice"), emu.channel("general")
    fault = emu.fault("POST", r"/webhooks/\d+/[^/]+", "500")
    async with running(bot, emu):
        ix = await emu.slash(alice, general, "ping", text="flaky")
    assert fault.hits == 1
    assert [r.status for r in emu.requests if r.route.startswith("/webhooks/")] == [500, 200]
    assert [m.content for m in emu.replies(ix)] == ["pong: flaky"]


async def test_gateway_timeout_504_is_retried(emu: DiscordEmulator, bot: PingBot) -> None:
    general = emu.channel("general")
    emu.fault("POST", r"/channels/\d+/messages", "timeout", delay=0.2)
    async with running(bot, emu):
        channel = bot.get_channel(general.id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send("posted after a timeout")
    assert [m.content for m in emu.messages(general)] == ["posted after a timeout"]


async def test_raw_limits_rows_custom_ids_and_file_size(emu: DiscordEmulator, bot: PingBot) -> None:
    general = emu.channel("general")
    button = {"type": 2, "style": 2, "label": "x", "custom_id": "a"}
    bodies = {
        "6 action rows": [{"type": 1, "components": [{**button, "custom_id": f"r{i}"}]} for i in range(6)],
        "custom_id is 101": [{"type": 1, "components": [{**button, "custom_id": "c" * 101}]}],
    }
    async with running(bot, emu):
        route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=general.id)
        for components in bodies.values():
            with pytest.raises(discord.HTTPException):
                await bot.http.request(route, json={"content": "x", "components": components})
        channel = bot.get_channel(general.id)
        assert isinstance(channel, discord.TextChannel)
        big = discord.File(io.BytesIO(b"\0" * (10 * 1024 * 1024 + 1)), filename="big.bin")
        with pytest.raises(discord.HTTPException):
            await channel.send("too big", file=big)
        mute = discord.File(io.BytesIO(stand_in_png()), filename="mute.png")  # no alt text
        with pytest.raises(discord.HTTPException):
            await channel.send("a picture nobody can hear", file=mute)
        wordy = discord.File(io.BytesIO(stand_in_png()), filename="wordy.png", description="x" * 1025)
        with pytest.raises(discord.HTTPException):
            await channel.send("alt text past 1024 characters", file=wordy)
    violations = emu.take_violations()
    assert len(violations) == 5
    assert (
        "6 action rows" in violations[0] and "101 characters" in violations[1] and "big.bin" in violations[2]
    )
    assert "mute.png" in violations[3] and "alt text" in violations[3]
    assert "wordy.png" in violations[4] and "1025 characters" in violations[4]
    assert emu.messages(general) == []


async def test_thread_creation_and_posting_inside(emu: DiscordEmulator, bot: PingBot) -> None:
    general = emu.channel("general")
    async with running(bot, emu):
        channel = bot.get_channel(general.id)
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(name="ignis table", type=discord.ChannelType.public_thread)
        await thread.send("inside the thread")
    [made] = emu.threads(general)
    assert made.name == "ignis table" and made.id == thread.id
    assert [m.content for m in emu.messages(made)] == ["inside the thread"]


async def test_dropped_connection_fails_the_request_without_posting(
    emu: DiscordEmulator, bot: PingBot
) -> None:
    general = emu.channel("general")
    emu.fault("POST", r"/channels/\d+/messages", "drop")
    async with running(bot, emu):
        channel = bot.get_channel(general.id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(aiohttp.ClientError):
            await channel.send("lost on the wire")
        await channel.send("the next one arrives")
    assert [m.content for m in emu.messages(general)] == ["the next one arrives"]
