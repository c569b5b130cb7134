"""The transport-free host: lobby, seats, turns, undo votes, reminders, bot seats and posts.

Frontends call it with (caller, command, args) and send back the Posts it returns; it loads the
session, asks the game to validate and apply, commits through storage, and renders off the loop.
Each concern lives in its own module; `Host` joins them, and every action, whoever or whatever
makes it, goes through the one `Play._apply`.
"""

from __future__ import annotations

from bot.host.announce import Announcements
from bot.host.core import BOT_USER, HostCore, check_content
from bot.host.lobby import Lobby
from bot.host.notify import Notifications
from bot.host.places import Places
from bot.host.play import Play
from bot.host.queries import Queries
from bot.host.recap import Recaps
from bot.host.seats import Seats
from bot.host.votes import Votes


class Host(Seats, Lobby, Play, Votes, Notifications, Queries, Recaps, Places, Announcements, HostCore):
    """One bot's host. Commands are dispatched by name to `_cmd_<name>` (see HostCore.command)."""


__all__ = ["BOT_USER", "Host", "check_content"]
