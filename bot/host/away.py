"""A player's notice of absence (/seat away): until when they are away, and what their seats say."""

from __future__ import annotations

from collections.abc import Callable

from bot.host import seating
from bot.host.core import channel_link, fit, when_label
from bot.host.sessions import loaded
from bot.posts import Caller, Post
from engine import GameError, OptionError, get_game
from storage import Repository, SessionRow

AWAY_KEY = "away:"  # meta key prefix: away:<user id> -> until when (host clock seconds)
MAX_AWAY_DAYS = 30


class Away:
    def __init__(self, repo: Repository, clock: Callable[[], float]) -> None:
        self.repo = repo
        self.clock = clock

    async def until(self, user_id: str) -> float | None:
        """Until when a user said (/seat away) they are away, if that is still ahead."""
        until = await self.repo.meta_get(AWAY_KEY + user_id)
        return float(until) if until and float(until) > self.clock() else None

    async def note(self, row: SessionRow, seats: frozenset[str]) -> str:
        """Who among these seats is away, as their seat shows it: "alice is away until Fri 4 Dec,
        18:00 UTC (no pings)." Empty when nobody is."""
        notes = []
        for seat in row.seats:
            until = await self.until(seat.user_id) if seat.seat in seats and not seat.ai_level else None
            if until is not None:
                who = seating.person_at(row, seat.user_name, seat.seat)
                notes.append(f"{who} is away until {when_label(until)} (no pings).")
        return " ".join(notes)

    async def cmd_away(self, caller: Caller, args: dict[str, str]) -> list[Post]:
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
            note = f"{caller.name} is back: pings resume."
        else:
            note = f"{caller.name} is away until {when_label(until)}: no pings, turn notices included."
        if not games:
            return [Post(caller.channel, note + " You have no open games here.", to=caller.user_id)]
        # One public post, here, naming the games it applies to (never one per game: a player in
        # many games would flood every channel); each game's seat says "away until" meanwhile.
        where = [
            f"{get_game(g.game).title} in {channel_link(g.channel)}"
            + (" (their move now)" if days == 0 and await self._waits_on(g, caller.user_id) else "")
            for g in games
        ]
        tail = " `/game recap` there tells what happened meanwhile." if days == 0 else ""
        return [fit(Post(caller.channel, f"{note} Their games: {', '.join(where)}.{tail}"), "games.txt")]

    async def _waits_on(self, row: SessionRow, user_id: str) -> bool:
        """Whether a game waits on this user now: a player back from an absence is told where (the
        turn notice that pinged nobody while they were away is far up the channel)."""
        if row.status != "active":
            return False
        game = get_game(row.game)
        data = await self.repo.state(row.id)
        if data is None:
            return False
        try:
            state = loaded(game, data)
        except GameError:  # saved by a newer bot: the game itself says so when played
            return False
        return bool(set(row.seat_of(user_id)) & game.to_act(state).seats)
