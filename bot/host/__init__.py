"""The transport-free host: lobby, seats, turns, undo votes, reminders, bot seats and posts.

Frontends call it with (caller, command, args) and send back the Posts it returns; it loads the
session, asks the game to validate and apply, commits through storage, and renders off the loop.
Each concern is a collaborator of its own module, given what it needs by name (see host.py, which
builds them); every action, whoever or whatever makes it, goes through the one `Play.apply`.
"""

from __future__ import annotations

from bot.host.core import BOT_USER, check_content
from bot.host.host import Host

__all__ = ["BOT_USER", "Host", "check_content"]
