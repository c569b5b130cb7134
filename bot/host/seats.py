"""Seats of a running game: a silent seat handed to the bot and taken back, a win claimed over a
silent opponent, a seat handed to someone else, and a player's notice of absence.

Groups play over weeks, and one silent player must not stop the table for good: past the server's
`takeover_hours` the others have ways on, and the silent player can always come back.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.host import seating
from bot.host.announce import Announcer
from bot.host.core import BOT_USER
from bot.host.lobby import Lobby, cap_text
from bot.host.play import Play
from bot.host.server import ServerSettings
from bot.host.sessions import Sessions
from bot.menus import ButtonId
from bot.posts import Caller, Choice, Post
from bot.text import safe_name
from engine import GameError, OptionError, get_game
from engine.words import count
from storage import LimitReached, Repository, SeatRow, SessionRow

CONSENT_KEY = "consent:"  # meta key prefix: consent:<session>:<seat> -> the latest hand-over request


class Seats:
    """The seats of a running game (a lobby's are the Lobby's): /seat ai and /game join hand a
    seat to the bot and back, /seat claim and /seat replace."""

    def __init__(
        self,
        repo: Repository,
        sessions: Sessions,
        server: ServerSettings,
        lobby: Lobby,
        announcer: Announcer,
        play: Play,
        clock: Callable[[], float],
        user_ref: Callable[[str], str | None],
    ) -> None:
        self.repo = repo
        self.sessions = sessions
        self.server = server
        self.lobby = lobby
        self.announcer = announcer
        self.play = play
        self.clock = clock
        # How the frontend's users are named in a command's text (`/seat replace user:`): Discord
        # mentions and ids, or the console's plain names. None means "that is not a user".
        self.user_ref = user_ref

    async def cmd_ai(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.open_row(caller)
        if row.status == "lobby":
            return await self.lobby.cmd_ai(caller, args)
        return await self._take_over(caller, row, args)

    async def cmd_join(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.open_row(caller)
        if row.status == "lobby":
            return await self.lobby.cmd_join(caller, args)
        return await self._take_back(caller, row, seating.seat_word(row, args.get("seat", "")))

    async def _silent_hours(self, row: SessionRow, seat: str) -> float:
        """How long the game has waited on `seat` (0 when it is not waiting on it)."""
        game, state = get_game(row.game), await self.sessions.state(row)
        if seat not in game.to_act(state).seats or row.turn_since is None:
            return 0.0
        return (self.clock() - row.turn_since) / 3600

    async def _takeover_hours(self, row: SessionRow) -> float:
        """The server's takeover_hours as it was when the turn under way began."""
        return await self.server.number_at(row.guild, "takeover_hours", row.turn_since)

    async def _take_over(self, caller: Caller, row: SessionRow, args: dict[str, str]) -> list[Post]:
        """`/seat ai seat:<seat>` on a running game: the bot plays a silent seat (its player's id is
        kept, so /game join seat:<seat> gives it back)."""
        game = get_game(row.game)
        if not game.ai_levels:
            raise GameError(f"{game.title} has no bot player, so no seat can be handed to it.")
        wanted = seating.seat_word(row, args.get("seat", ""))
        level = (args.get("level") or game.ai_levels[len(game.ai_levels) // 2]).strip().lower()
        if level not in game.ai_levels:
            raise OptionError(f"`{level}` is not a bot level; choose one of: {', '.join(game.ai_levels)}.")
        # Decided under the session's lock against the session as it is then: a move the silent
        # player made while this command waited (already acknowledged to them) wins over it.
        async with self.sessions.lock(row.id):
            row = await self.sessions.still_active(row.id)
            seat = row.seat_row(wanted)
            if seat is None:
                raise OptionError(f"`{wanted}` is not a seat of this game; seats: {seating.names_list(row)}.")
            if seat.ai_level is not None:
                raise GameError(f"The bot already plays the {seat.seat} seat.")
            own = seat.user_id == caller.user_id
            if not own:
                if not row.seat_of(caller.user_id):
                    raise GameError("Only a player seated in this game can hand a silent seat to the bot.")
                await self._check_silent(row, seat)
            await self.repo.set_seat(row.id, row.version, replace(seat, ai_level=level))
            row = await self.sessions.session(row.id)
            why = "at their own request" if own else f"{seat.user_name} was silent past the server's limit"
            text = (
                f"{caller.name} hands the {seat.seat} seat to the bot ({level}): {why}. "
                f"{seat.user_name} can take it back at any time with /game join seat:{seat.seat}."
            )
            game, state = get_game(row.game), await self.sessions.state(row)
            # Those told already that the game waits on them stay told: the hand-over is no news
            # to them, and the seat taken back later must not ping them again either.
            await self.announcer.load(row)
            knew = await self.announcer.told(row.id, frozenset())
            posts = await self.play.run_bots(row, game, state, [Post(row.channel, text)], waited=knew)
            notice = next((p for p in posts if p.to is None and p.channel == row.channel), None)
            if not own and notice is not None and seat.user_id not in notice.mentions:
                # Pinged after the bot's moves, whose run drops the pings of what came before it
                # (a ping there would point at stale buttons): the silent player is still owed
                # this one notice that the bot took their seat, and how to take it back.
                notice.mentions.insert(0, seat.user_id)
            return posts

    async def _check_silent(self, row: SessionRow, seat: SeatRow) -> None:
        waited, limit = await self._silent_hours(row, seat.seat), await self._takeover_hours(row)
        if waited < limit:
            since = f"has waited {count(round(waited), 'hour')} on" if waited else "is not waiting on"
            raise GameError(
                f"The game {since} {seating.person_at(row, seat.user_name, seat.seat)}; "
                "others may step in after "
                f"{count(limit, 'hour')} without a move (the server's takeover_hours)."
            )

    async def _take_back(self, caller: Caller, row: SessionRow, wanted: str) -> list[Post]:
        mine = [s for s in row.seats if s.user_id == caller.user_id and s.ai_level is not None]
        seat = next((s for s in mine if s.seat == wanted or not wanted), None)
        if seat is None:
            raise GameError(
                "This game has already started; seats are fixed. A player whose seat the bot took "
                "over gets it back with /game join seat:<seat>. Watch along, or open a game elsewhere."
            )
        async with self.sessions.lock(row.id):
            row = await self.sessions.still_active(row.id)
            await self.repo.set_seat(row.id, row.version, replace(seat, user_name=caller.name, ai_level=None))
            row = await self.sessions.session(row.id)
            game, state = get_game(row.game), await self.sessions.state(row)
            text = f"{caller.name} takes the {seat.seat} seat back from the bot."
            await self.announcer.load(row)
            away = await self.announcer.away_users(row)
            awaited = self.announcer.awaited(row, game, state, away)
            # Those already told that the game waits on them are not pinged again, nor the one
            # who just took the seat back: they know it is theirs.
            told = await self.announcer.told(row.id, awaited)
            posts = await self.announcer.after(
                row, game, state, row.version, [Post(row.channel, text)], picture=False
            )
            return await self.announcer.one_message(
                row, posts, continuing=False, mover=caller.user_id, waited=told & awaited, awaited=awaited
            )

    async def cmd_claim(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """Two players: the silent player's opponent claims the win or a draw."""
        row = await self.sessions.active_row(caller)
        game = get_game(row.game)
        result = args.get("result", "").strip().lower()
        if result not in ("win", "draw"):
            raise OptionError(f"`{result}` is not a claim; claim `win` or `draw`.")
        if game.is_cooperative(row.options):
            raise GameError(
                "In a co-operative game nobody wins over a silent player: hand the seat to the bot "
                "(/seat ai seat:<seat>) or to someone else (/seat replace)."
            )
        # Decided under the session's lock against the session as it is then: a move the silent
        # player made while this claim waited (already acknowledged to them) wins over it.
        async with self.sessions.lock(row.id):
            row = await self.sessions.still_active(row.id)
            mine = row.seat_of(caller.user_id)
            if not mine:
                raise GameError("Only a player seated in this game can claim it.")
            others = [s for s in row.seats if s.seat not in mine and s.ai_level is None]
            if not others:
                raise GameError("Your opponent is the bot, which never goes silent.")
            for seat in others:
                await self._check_silent(row, seat)
            names = ", ".join(seating.person_at(row, s.user_name, s.seat) for s in others)
            hours = await self._takeover_hours(row)
            outcome: dict[str, Any]
            if result == "win":
                reason = f"{caller.name} claimed the win: {names} made no move for {count(hours, 'hour')}."
                outcome = {
                    "winners": sorted(mine),
                    "losers": sorted(s.seat for s in others),
                    "reason": reason,
                }
            else:
                reason = f"{caller.name} claimed a draw: {names} made no move for {count(hours, 'hour')}."
                outcome = {"winners": [], "losers": [], "reason": reason}
            return await self.play.finish(caller, row, mine[0], outcome, notation=f"claim {result}")

    async def cmd_replace(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """Hand a seat to someone else. In a lobby its player or the game's opener does it. Nobody
        is given a seat they did not ask for: the person named takes it only by agreeing (a button
        only they can press), since a seat brings lobby caps, pings and, in a running game, a
        result in their record. In a running game another person's seat holds a hand and a record,
        so it changes hands only with its player's consent too, unless they have been silent
        `takeover_hours`, as for the bot takeover."""
        row = await self.sessions.open_row(caller)
        wanted = seating.seat_word(row, args.get("seat", ""))
        moderator = await self.server.moderates(caller)
        self._may_replace(caller, row, wanted, moderator)
        user_id = self.user_ref(args.get("user", ""))
        if user_id is None:
            raise OptionError(
                "Name the new player with an @mention (or their user id), e.g. "
                f"/seat replace seat:{wanted} user:@dana; `{safe_name(args.get('user', ''))}` is not one."
            )
        # The frontend looks the person up and gives their display name; without it they are not
        # someone it could find (not a member of this server).
        if not args.get("user_name", "").strip():
            raise GameError("I cannot find that person in this server; name a member with an @mention.")
        name = safe_name(args["user_name"])
        if user_id == BOT_USER:
            raise GameError("To hand a seat to the bot, use /seat ai seat:<seat>.")
        async with self.sessions.lock(row.id):
            row = await self.sessions.session(row.id)
            if row.status not in ("lobby", "active"):
                raise GameError("The game ended before that arrived; nothing was changed.")
            seat = self._may_replace(caller, row, wanted, moderator)
            if any(s.user_id == user_id and s.ai_level is None for s in row.seats):
                raise GameError("That person already holds a seat in this game.")
            # A moderator hands a seat on without its player (who may have left the server).
            holder_asked = (
                row.status == "active"
                and not moderator
                and seat.ai_level is None
                and seat.user_id != caller.user_id
                and await self._silent_hours(row, seat.seat) < await self._takeover_hours(row)
            )
            waiting = [seat.user_id] if holder_asked else []
            if user_id != caller.user_id:
                waiting.append(user_id)
            if waiting:
                return await self._ask_consent(caller, row, seat, user_id, name, waiting)
            return await self._hand_seat(
                row, seat, user_id, name, f"{caller.name} hands the {seat.seat} seat to {name}."
            )

    def _may_replace(self, caller: Caller, row: SessionRow, wanted: str, moderator: bool) -> SeatRow:
        """The seat `caller` may hand to someone else: theirs, or any if they opened the game
        (in a running game, with consent or silence besides) or moderate the server."""
        seat = row.seat_row(wanted)
        if seat is None:
            raise OptionError(
                f"`{wanted}` is not a taken seat of this game; seats: {seating.names_list(row)}."
            )
        if caller.user_id not in (seat.user_id, row.host_user) and not moderator:
            raise GameError(
                f"Only the {seat.seat} seat's player or the game's opener can hand it to someone else."
            )
        return seat

    async def _hand_seat(
        self, row: SessionRow, seat: SeatRow, user_id: str, name: str, text: str
    ) -> list[Post]:
        """Give `seat` to `user_id` (under the session's lock; a lobby seat within their cap)."""
        try:
            await self.repo.set_seat(
                row.id,
                row.version,
                SeatRow(seat.seat, user_id, name, None),
                max_lobby_seats=await self.server.lobby_seats(row.guild),
            )
        except LimitReached as exc:
            raise GameError(cap_text(exc, name)) from None
        await self.repo.meta_set(self._consent_key(row.id, seat.seat), "")
        return [Post(row.channel, text, mentions=[user_id])]

    @staticmethod
    def _consent_key(session_id: int, seat: str) -> str:
        return f"{CONSENT_KEY}{session_id}:{seat}"

    async def _ask_consent(
        self, caller: Caller, row: SessionRow, seat: SeatRow, user_id: str, name: str, waiting: list[str]
    ) -> list[Post]:
        """Ask everyone in `waiting` (the person named, and the seat's player when their consent
        is needed) to agree; the newest request for a seat is the one that counts."""
        # The button names this request by a token, so a newer request for the seat (made before
        # any move, at the same version) cannot be agreed to with the older request's button.
        token = secrets.token_hex(6)
        request = {
            "to": user_id,
            "name": name,
            "asker": caller.user_id,
            "token": token,
            "waiting": waiting,
            "from": seat.user_id,
            "lobby": row.status == "lobby",
        }
        await self.repo.meta_set(self._consent_key(row.id, seat.seat), json.dumps(request))
        agree = Choice(
            f"Agree: the {seat.seat} seat goes to {name}"[:80],
            str(ButtonId(row.id, row.version, "s", f"{seat.seat} {token}")),
            "danger",
        )
        holder_asked = seat.user_id in waiting
        who = f"{seat.user_name} and {name}" if holder_asked else name
        text = (
            f"{caller.name} asks to hand the {seat.seat} seat ({seat.user_name}) to {name}. Only "
            f"{who} can agree, with the button; nothing changes until "
            f"{'both have' if holder_asked else 'they have'}."
        )
        if holder_asked:
            hours = await self._takeover_hours(row)
            text += (
                f" (After {count(hours, 'hour')} without a move from {seat.user_name} only {name} "
                "need agree.)"
            )
        return [Post(row.channel, text, choices=[agree], mentions=list(waiting))]

    async def consent_to_replace(self, caller: Caller, row: SessionRow, payload: str) -> list[Post]:
        """Someone a hand-over request waits on pressed its button: the seat's player or the
        person named. Once nobody is left to agree, the seat changes hands."""
        wanted, _, token = payload.partition(" ")
        async with self.sessions.lock(row.id):
            row = await self.sessions.session(row.id)
            if row.status not in ("lobby", "active"):
                raise GameError("The game ended before that arrived; nothing was changed.")
            seat = row.seat_row(wanted)
            stored = await self.repo.meta_get(self._consent_key(row.id, wanted)) if seat else None
            request = json.loads(stored) if stored else None
            if (
                seat is None
                or not request
                or request.get("token") != token
                or request.get("from", seat.user_id) != seat.user_id
            ):
                raise GameError("That request was answered or replaced by a newer one; nothing was changed.")
            if request.get("lobby") and row.status != "lobby":
                # Asked in the lobby, where its player's consent is not needed: a running seat holds
                # a hand and a record, so the request must be made again.
                raise GameError(
                    "The game has started since that request, so nothing was changed; "
                    "ask again with /seat replace."
                )
            # A request from before this field asked the seat's player alone.
            waiting = [str(u) for u in request.get("waiting", [seat.user_id])]
            if caller.user_id not in waiting:
                raise GameError(
                    "Only the player of that seat, or the person it would go to, can agree to hand it over."
                )
            if any(s.user_id == request["to"] and s.ai_level is None for s in row.seats):
                raise GameError("That person has taken a seat in this game since; nothing was changed.")
            name = str(request["name"])
            waiting.remove(caller.user_id)
            if waiting:
                request["waiting"] = waiting
                await self.repo.meta_set(self._consent_key(row.id, seat.seat), json.dumps(request))
                return [
                    Post(
                        row.channel,
                        f"{caller.name} agrees to hand the {seat.seat} seat to {name}; "
                        "waiting for the other to agree.",
                        mentions=waiting,
                    )
                ]
            if caller.user_id == request["to"]:
                text = f"{name} agrees and takes the {seat.seat} seat."
            else:
                text = f"{caller.name} agrees to hand the {seat.seat} seat to {name}."
            return await self._hand_seat(row, seat, str(request["to"]), name, text)
