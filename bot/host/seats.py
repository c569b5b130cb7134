"""Seats of a running game: a silent seat handed to the bot and taken back, a win claimed over a
silent opponent, a seat handed to someone else, and a player's notice of absence.

Groups play over weeks, and one silent player must not stop the table for good: past the server's
`takeover_hours` the others have ways on, and the silent player can always come back.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from bot.host.core import AWAY_KEY
from bot.host.lobby import Lobby
from bot.posts import Caller, Post
from engine import GameError, OptionError, get_game
from storage import SeatRow, SessionRow

MAX_AWAY_DAYS = 30
_MENTION = re.compile(r"^<@!?(\d{1,20})>$")


class Seats(Lobby):
    async def _cmd_ai(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._open_row(caller)
        if row.status == "lobby":
            return await super()._cmd_ai(caller, args)
        return await self._take_over(caller, row, args)

    async def _cmd_join(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._open_row(caller)
        if row.status == "lobby":
            return await super()._cmd_join(caller, args)
        return await self._take_back(caller, row, args.get("seat", "").strip().lower())

    async def _silent_hours(self, row: SessionRow, seat: str) -> float:
        """How long the game has waited on `seat` (0 when it is not waiting on it)."""
        game, state = get_game(row.game), await self._state(row)
        if seat not in game.to_act(state).seats or row.turn_since is None:
            return 0.0
        return (self.clock() - row.turn_since) / 3600

    async def _takeover_hours(self, row: SessionRow) -> float:
        return self._guild_number(await self._settings_for(row.guild), "takeover_hours")

    async def _take_over(self, caller: Caller, row: SessionRow, args: dict[str, str]) -> list[Post]:
        """`/game ai seat:<seat>` on a running game: the bot plays a silent seat (its player's id is
        kept, so /game join seat:<seat> gives it back)."""
        game = get_game(row.game)
        if not game.ai_levels:
            raise GameError(f"{game.title} has no bot player, so no seat can be handed to it.")
        wanted = args.get("seat", "").strip().lower()
        level = (args.get("level") or game.ai_levels[len(game.ai_levels) // 2]).strip().lower()
        if level not in game.ai_levels:
            raise OptionError(f"`{level}` is not a bot level; choose one of: {', '.join(game.ai_levels)}.")
        # Decided under the session's lock against the session as it is then: a move the silent
        # player made while this command waited (already acknowledged to them) wins over it.
        async with self._lock(row.id):
            row = await self._still_active(row.id)
            seat = row.seat_row(wanted)
            if seat is None:
                raise OptionError(f"`{wanted}` is not a seat of this game; seats: {self._names_list(row)}.")
            if seat.ai_level is not None:
                raise GameError(f"The bot already plays the {seat.seat} seat.")
            own = seat.user_id == caller.user_id
            if not own:
                if not row.seat_of(caller.user_id):
                    raise GameError("Only a player seated in this game can hand a silent seat to the bot.")
                await self._check_silent(row, seat)
            await self.repo.set_seat(row.id, row.version, replace(seat, ai_level=level))
            row = await self._session(row.id)
            why = "at their own request" if own else f"{seat.user_name} was silent past the server's limit"
            text = (
                f"{caller.name} hands the {seat.seat} seat to the bot ({level}): {why}. "
                f"{seat.user_name} can take it back at any time with /game join seat:{seat.seat}."
            )
            game, state = get_game(row.game), await self._state(row)
            posts = [Post(row.channel, text, mentions=[] if own else [seat.user_id])]
            posts = await self._run_bots(row, game, state, posts)
            return posts

    async def _check_silent(self, row: SessionRow, seat: SeatRow) -> None:
        waited, limit = await self._silent_hours(row, seat.seat), await self._takeover_hours(row)
        if waited < limit:
            since = f"has waited {waited:.0f} hours on" if waited else "is not waiting on"
            raise GameError(
                f"The game {since} {seat.user_name} ({seat.seat}); others may step in after "
                f"{limit:g} hours without a move (the server's takeover_hours)."
            )

    async def _take_back(self, caller: Caller, row: SessionRow, wanted: str) -> list[Post]:
        mine = [s for s in row.seats if s.user_id == caller.user_id and s.ai_level is not None]
        seat = next((s for s in mine if s.seat == wanted or not wanted), None)
        if seat is None:
            raise GameError(
                "This game has already started; seats are fixed. A player whose seat the bot took "
                "over gets it back with /game join seat:<seat>. Watch along, or open a game elsewhere."
            )
        async with self._lock(row.id):
            row = await self._still_active(row.id)
            await self.repo.set_seat(row.id, row.version, replace(seat, user_name=caller.name, ai_level=None))
            row = await self._session(row.id)
            game, state = get_game(row.game), await self._state(row)
            text = f"{caller.name} takes the {seat.seat} seat back from the bot."
            return await self._after(row, game, state, row.version, [Post(row.channel, text)], picture=False)

    async def _cmd_claim(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """Two players: the silent player's opponent claims the win or a draw."""
        row = await self._active_row(caller)
        game = get_game(row.game)
        result = args.get("result", "").strip().lower()
        if result not in ("win", "draw"):
            raise OptionError(f"`{result}` is not a claim; claim `win` or `draw`.")
        if game.is_cooperative(row.options):
            raise GameError(
                "In a co-operative game nobody wins over a silent player: hand the seat to the bot "
                "(/game ai seat:<seat>) or to someone else (/game replace)."
            )
        # Decided under the session's lock against the session as it is then: a move the silent
        # player made while this claim waited (already acknowledged to them) wins over it.
        async with self._lock(row.id):
            row = await self._still_active(row.id)
            mine = row.seat_of(caller.user_id)
            if not mine:
                raise GameError("Only a player seated in this game can claim it.")
            others = [s for s in row.seats if s.seat not in mine and s.ai_level is None]
            if not others:
                raise GameError("Your opponent is the bot, which never goes silent.")
            for seat in others:
                await self._check_silent(row, seat)
            names = ", ".join(f"{s.user_name} ({s.seat})" for s in others)
            hours = await self._takeover_hours(row)
            outcome: dict[str, Any]
            if result == "win":
                reason = f"{caller.name} claimed the win: {names} made no move for {hours:g} hours."
                outcome = {
                    "winners": sorted(mine),
                    "losers": sorted(s.seat for s in others),
                    "reason": reason,
                }
            else:
                reason = f"{caller.name} claimed a draw: {names} made no move for {hours:g} hours."
                outcome = {"winners": [], "losers": [], "reason": reason}
            return await self._finish(caller, row, mine[0], outcome, notation=f"claim {result}")

    async def _cmd_replace(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """Hand a seat to someone else: its player does it, or the game's opener."""
        row = await self._open_row(caller)
        wanted = args.get("seat", "").strip().lower()
        seat = row.seat_row(wanted)
        if seat is None:
            raise OptionError(f"`{wanted}` is not a taken seat of this game; seats: {self._names_list(row)}.")
        if caller.user_id not in (seat.user_id, row.host_user) and not caller.is_manager:
            raise GameError(
                f"Only the {seat.seat} seat's player or the game's opener can hand it to someone else."
            )
        who = args.get("user", "").strip()
        found = _MENTION.match(who)
        user_id = found.group(1) if found else who
        if not user_id or any(c.isspace() for c in user_id) or len(user_id) > 32:
            raise OptionError(
                "Name the new player with an @mention, e.g. /game replace seat:fire user:@dana."
            )
        if any(s.user_id == user_id and s.ai_level is None for s in row.seats):
            raise GameError("That person already holds a seat in this game.")
        # Their display name is not known until they act; a mention shows it on Discord.
        name = f"<@{user_id}>" if found else user_id
        async with self._lock(row.id):
            fresh = await self._session(row.id)
            if fresh.status not in ("lobby", "active"):
                raise GameError("The game ended before that arrived; nothing was changed.")
            await self.repo.set_seat(fresh.id, fresh.version, SeatRow(seat.seat, user_id, name, None))
        text = f"{caller.name} hands the {seat.seat} seat to {name}."
        return [Post(row.channel, text, mentions=[user_id])]

    async def _cmd_away(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """Pause a user's pings for some days (it counts as notice); each of their games says so."""
        days_text = args.get("days", "").strip() or "7"
        try:
            days = float(days_text)
        except ValueError:
            raise OptionError(
                f"`days` takes a number of days from 0 to {MAX_AWAY_DAYS}, not `{days_text}`."
            ) from None
        if not 0 <= days <= MAX_AWAY_DAYS:  # also refuses nan and inf
            raise OptionError(f"`days` must be between 0 and {MAX_AWAY_DAYS}, not `{days_text}`.")
        until = self.clock() + days * 86400
        await self.repo.meta_set(AWAY_KEY + caller.user_id, f"{until:.0f}")
        games = await self.repo.open_games_of(caller.user_id, caller.guild)
        if days == 0:
            note = f"{caller.name} is back: turn pings resume."
        else:
            note = f"{caller.name} is away for {days:g} days: no turn pings until then."
        posts = [Post(g.channel, note) for g in games if g.channel != caller.channel]
        mine = f" Your {len(games)} open games were told." if games else ""
        return [Post(caller.channel, note + mine, to=caller.user_id), *posts]

    @staticmethod
    def _names_list(row: SessionRow) -> str:
        return ", ".join(s.seat for s in row.seats) or "none"
