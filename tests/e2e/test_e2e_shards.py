"""Sharding (issue 17, the frontend's part): discord.py's AutoShardedClient runs the shards that
SHARD_COUNT and SHARD_IDS name, a guild's interactions reach the shard Discord routes them to, and
only the process that runs shard 0 syncs the commands.

The emulator routes the guild to shard (guild_id >> 22) % shard_count, as Discord does, and sends
it to no other shard.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from discord_emulator import DiscordEmulator
from tablebot_harness import Clock, Table

import bot.discord_frontend as frontend
from bot.posts import Post

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


async def test_two_processes_with_a_shard_each_share_one_database_and_remind_once(
    emu: DiscordEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    shared = tmp_path / "shared.sqlite3"
    processes = [
        Table(emu, shared, clock=clock, shard_count=2, shard_ids=(0,)),
        Table(emu, shared, clock=clock, shard_count=2, shard_ids=(1,)),
    ]
    for process in processes:
        await process.start()
    try:
        assert sorted(emu.identify_shards) == [(0, 2), (1, 2)]
        assert len(emu.command_syncs) == 1, "only the process with shard 0 syncs the commands"
        channel = emu.channel("games")
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        await emu.slash(alice, channel, "game", "new", game="ignis", seed="5")
        await emu.slash(alice, channel, "game", "join", seat="fire")
        await emu.slash(bob, channel, "game", "join", seat="water")
        started = await emu.slash(alice, channel, "game", "start")
        assert alice.id in {uid for m in emu.replies(started) for uid in m.pinged}, emu.transcript(channel)
        # Both processes tick; the reminder that falls due is claimed by one of them only.
        ticks = [0, 0]
        for i, process in enumerate(processes):
            host = process.host
            assert host is not None and process.client is not None
            counted = host.tick

            async def tick(counted: Callable[[], Awaitable[list[Post]]] = counted, i: int = i) -> list[Post]:
                ticks[i] += 1
                return await counted()

            monkeypatch.setattr(host, "tick", tick)
        monkeypatch.setattr(frontend, "TICK_SECONDS", 0.05)
        for process in processes:
            assert process.client is not None
            process.client.restart_ticker()
        clock.now += 25 * 3600
        await emu.wait_for_message(lambda m: m.channel_id == channel.id and "Reminder" in m.content)
        seen = list(ticks)
        for _ in range(1000):  # until both processes have ticked three more times
            if min(t - s for t, s in zip(ticks, seen, strict=True)) >= 3:
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError(f"the processes stopped ticking: {seen} -> {ticks}")
        reminders = [m for m in emu.public_messages(channel) if "Reminder" in m.content]
        assert len(reminders) == 1, emu.transcript(channel)
    finally:
        for process in processes:
            await process.stop()
