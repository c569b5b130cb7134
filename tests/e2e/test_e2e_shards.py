"""Sharding (issue 17, the frontend's part): discord.py's AutoShardedClient runs the shards that
SHARD_COUNT and SHARD_IDS name, a guild's interactions reach the shard Discord routes them to, and
only the process that runs shard 0 syncs the commands.

The emulator routes the guild to shard (guild_id >> 22) % shard_count, as Discord does, and sends
it to no other shard.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from discord_emulator import DiscordEmulator
from tablebot_harness import Table

pytestmark = pytest.mark.e2e


async def test_one_process_runs_every_shard_and_plays_through_the_guilds_shard(
    emu: DiscordEmulator, tmp_path: Path
) -> None:
    table = Table(emu, tmp_path / "shards.sqlite3", shard_count=2)
    await table.start(timeout=30)  # discord.py spaces the identifies of a process's shards 5 s apart
    try:
        assert sorted(emu.identify_shards) == [(0, 2), (1, 2)]
        assert len(emu.command_syncs) == 1, "commands are synced once, not once per shard"
        assert emu.current is not None and emu.current.shard == ((emu.guild_id >> 22) % 2, 2)
        channel = emu.channel("games")
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        await emu.slash(alice, channel, "game", "new", game="ignis", seed="5")
        await emu.slash(alice, channel, "game", "join", seat="fire")
        await emu.slash(bob, channel, "game", "join", seat="water")
        started = await emu.slash(alice, channel, "game", "start")
        assert alice.id in {uid for m in emu.replies(started) for uid in m.pinged}, emu.transcript(channel)
        row = await table.session(channel)
        assert row is not None and row.status == "active"
    finally:
        await table.stop()


async def test_a_process_without_shard_0_leaves_the_commands_to_the_one_with_it(
    emu: DiscordEmulator, tmp_path: Path
) -> None:
    table = Table(emu, tmp_path / "shard1.sqlite3", shard_count=2, shard_ids=(1,))
    await table.start()
    try:
        assert emu.identify_shards == [(1, 2)]
        assert not emu.command_syncs
        assert not any(r.route.endswith("/commands") for r in emu.requests)
    finally:
        await table.stop()
