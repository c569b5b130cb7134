"""The bot as a process of its own (`python bot_process.py`), pointed at a Discord emulator that
another process runs: for what only a process shows, such as its exit on a signal. The emulator's
REST base and gateway come from EMULATOR_API and EMULATOR_GATEWAY; everything else from the
environment, as for the real bot."""

from __future__ import annotations

import os

import discord
import yarl

from bot.config import load_settings
from bot.discord_frontend import run_discord

if __name__ == "__main__":
    discord.http.Route.BASE = os.environ["EMULATOR_API"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["EMULATOR_GATEWAY"])
    run_discord(load_settings(env_file=os.devnull))
