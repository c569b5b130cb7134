"""What a server's managers and moderators control: the server's settings (`/game settings`)
and (see docs/operating.md, "Server controls") which games may be opened where, and who may stop
a game or hand a seat on."""

from __future__ import annotations

from bot.host.notices import Notices
from bot.host.server import PER_TURN, SETTING_RANGES, ServerSettings
from bot.posts import Caller, Post
from engine import GameError, OptionError
from storage import Repository


class Controls:
    def __init__(self, repo: Repository, server: ServerSettings, notices: Notices) -> None:
        self.repo = repo
        self.server = server
        self.notices = notices

    async def cmd_settings(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        current = await self.server.of(caller.guild)
        name, value = args.get("name", "").strip().lower(), args.get("value", "").strip()
        if not name:
            text = "Server settings: " + ", ".join(f"{k}={v}" for k, v in current.items())
            return [Post(caller.channel, text, to=caller.user_id)]
        if not caller.is_manager or caller.guild is None:
            raise GameError("Only someone with Manage Server can change settings.")
        guild = caller.guild
        if name not in current:
            raise OptionError(f"There is no setting `{name}`; settings: {', '.join(current)}.")
        try:
            number = float(value)
        except ValueError:
            raise OptionError(f"`{name}` takes a number of {name.split('_')[1]}, not `{value}`.") from None
        low, high = SETTING_RANGES[name]
        unit = name.split("_")[1]
        if not low <= number <= high:  # also refuses nan and inf
            raise OptionError(f"`{name}` must be between {low:g} and {high:g} {unit}, not `{value}`.")
        if unit == "seats" and not number.is_integer():
            raise OptionError(f"`{name}` takes a whole number of seats, not `{value}`.")
        was = await self.server.change(guild, name, f"{number:g}")
        text = f"{caller.name} set {name} to {number:g}."
        if name in PER_TURN and float(was) != number:
            # The games in play hear it, each in its own channel (by the next tick): it changes
            # what they play under, from their next turn.
            games = [r for r in await self.repo.open_sessions_in(guild=guild) if r.status == "active"]
            notice = (
                f"A server manager changed {name} from {was} to {number:g} {unit}. It applies here "
                "from the next turn; the turn under way keeps the old value."
            )
            await self.notices.queue([r.channel for r in games if r.channel != caller.channel], notice)
            if any(r.channel == caller.channel for r in games):
                text += " It applies to this game from the next turn."
        return [Post(caller.channel, text)]
