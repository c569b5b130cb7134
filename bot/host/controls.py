"""What a server's managers and moderators control: the server's settings (`/game settings`)
and (see docs/operating.md, "Server controls") which games may be opened where, and who may stop
a game or hand a seat on."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.config import Settings
from bot.host.blocks import Blocks, set_block
from bot.host.core import private
from bot.host.notices import Notices
from bot.host.server import ALL, CONTROL_DEFAULTS, NONE, PER_TURN, SETTING_RANGES, ServerSettings
from bot.posts import Caller, Post
from engine import GameError, OptionError, get_game
from engine.words import count
from storage import Repository


class Controls:
    def __init__(
        self,
        repo: Repository,
        settings: Settings,
        server: ServerSettings,
        notices: Notices,
        blocks: Blocks,
        user_ref: Callable[[str], str | None],
    ) -> None:
        self.repo = repo
        self.settings = settings
        self.server = server
        self.notices = notices
        self.blocks = blocks
        self.user_ref = user_ref

    # -- the bot's operator (OPERATOR_IDS): what `python -m bot notice|block|unblock` does -------

    def _check_operator(self, caller: Caller) -> None:
        if caller.user_id not in self.settings.operator_ids:
            raise GameError(
                "Only the bot's operator (OPERATOR_IDS where it runs) can use the operator's commands."
            )

    async def cmd_notice(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        self._check_operator(caller)
        try:
            said = await self.notices.from_operator(args.get("text", ""))
        except OptionError as exc:  # worded for the command line
            raise OptionError(str(exc).replace("--text", "text:")) from None
        return [private(caller, said)]

    async def cmd_block(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        return await self._block(caller, args, blocked=True)

    async def cmd_unblock(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        return await self._block(caller, args, blocked=False)

    async def _block(self, caller: Caller, args: dict[str, str], *, blocked: bool) -> list[Post]:
        self._check_operator(caller)
        user = args.get("user", "").strip()
        kind, ident = (
            ("user", self.user_ref(user) or user) if user else ("server", args.get("server", "").strip())
        )
        if kind == "user" and ident == caller.user_id and blocked:
            raise GameError("That would block you, the operator.")
        try:
            said = await set_block(self.repo, kind, ident, args.get("why", ""), blocked=blocked)
        except OptionError as exc:  # worded for the command line
            raise OptionError(str(exc).replace("--user ID or --server ID", "user: or server:")) from None
        await self.blocks.refresh()  # in force here at once; other processes at their next tick
        return [private(caller, said)]

    async def cmd_settings(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        current = await self.server.of(caller.guild)
        name, value = args.get("name", "").strip().lower(), args.get("value", "").strip()
        if not name:
            text = "Server settings: " + ", ".join(f"{k}={shown(k, v)}" for k, v in current.items())
            return [Post(caller.channel, text, to=caller.user_id)]
        if not caller.is_manager or caller.guild is None:
            raise GameError("Only someone with Manage Server can change settings.")
        guild = caller.guild
        if name not in current:
            raise OptionError(f"There is no setting `{name}`; settings: {', '.join(current)}.")
        if name in CONTROL_DEFAULTS:
            return await self._set_control(caller, guild, name, value)
        try:
            number = float(value)
        except ValueError:
            raise OptionError(f"`{name}` takes a number of {name.split('_')[1]}, not `{value}`.") from None
        low, high = SETTING_RANGES[name]
        unit = name.split("_")[1]
        if not low <= number <= high:  # also refuses nan and inf
            raise OptionError(f"`{name}` must be between {low:g} and {high:g} {unit}, not `{value}`.")
        if unit in ("seats", "games") and not number.is_integer():
            raise OptionError(f"`{name}` takes a whole number of {unit}, not `{value}`.")
        was = await self.server.change(guild, name, f"{number:g}")
        text = f"{caller.name} set {name} to {number:g}."
        if name in PER_TURN and float(was) != number:
            # The games in play hear it, each in its own channel (by the next tick): it changes
            # what they play under, from their next turn.
            games = [r for r in await self.repo.open_sessions_in(guild=guild) if r.status == "active"]
            now = count(number, unit.removesuffix("s"))
            notice = (
                f"A server manager changed {name} from {was} to {now}. It applies here from the next "
                "turn; the turn under way keeps the old value."
            )
            await self.notices.queue([r.channel for r in games if r.channel != caller.channel], notice)
            if any(r.channel == caller.channel for r in games):
                text += " It applies to this game from the next turn."
        return [Post(caller.channel, text)]

    async def _set_control(self, caller: Caller, guild: str, name: str, value: str) -> list[Post]:
        """`games`, `channels` or `moderator_role`: a list, `all` (or `none` for the role)."""
        words = [w for w in re.split(r"[\s,]+", value.lower()) if w]
        if not words:
            raise OptionError(f"Give a value: {CONTROL_FORMS[name]}.")
        if name == "games":
            stored = ALL if words == [ALL] else ",".join(dict.fromkeys(get_game(w).id for w in words))
        elif name == "channels":
            here = caller.parent or caller.channel
            stored = ALL if words == [ALL] else ",".join(dict.fromkeys(_channel(w, here) for w in words))
        else:
            role = NONE if words == [NONE] else _role(words[0]) if len(words) == 1 else None
            if role is None:
                raise OptionError(f"`moderator_role` takes {CONTROL_FORMS[name]}, not `{value[:40]}`.")
            stored = role
        await self.server.change(guild, name, stored)
        return [Post(caller.channel, f"{caller.name} set {name} to {shown(name, stored)}.")]


CONTROL_FORMS = {
    "games": "game ids (e.g. `ignis,ignite`) or `all`",
    "channels": "channel mentions (`#games`), `here`, or `all`",
    "moderator_role": "a role mention (`@Moderators`) or its id, or `none`",
}


def _channel(word: str, here: str) -> str:
    if word == "here":
        return here
    found = re.fullmatch(r"<#(\d{15,20})>|(\d{15,20})", word)
    if found is None:
        raise OptionError(f"`channels` takes {CONTROL_FORMS['channels']}; `{word[:40]}` is not one.")
    return found[1] or found[2]


def _role(word: str) -> str | None:
    found = re.fullmatch(r"<@&(\d{15,20})>|(\d{15,20})", word)
    return (found[1] or found[2]) if found else None


def shown(name: str, value: str) -> str:
    """A setting's value as the server reads it: channels and the role as mentions."""
    if name == "channels" and value != ALL:
        return " ".join(f"<#{c}>" if c.isdigit() else f"#{c}" for c in value.split(","))
    if name == "moderator_role" and value != NONE:
        return f"<@&{value}>"
    return value
