"""Notifications: reminders for games waiting on someone, decisions that timed out, lobbies that
expired, and the periodic database check. Run by the frontend's tick.

Each piece of due work is leased to one process (storage's claim_due), so several bot processes
sharing a database never remind twice, and a dead process's work passes to another when its
lease runs out.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot import metrics
from bot.config import Settings
from bot.host import seating
from bot.host.away import Away
from bot.host.core import BOARD_KEY, log
from bot.host.gate import Gate
from bot.host.notices import Notices
from bot.host.play import Play
from bot.host.privacy import BOT_OWES_KEY
from bot.host.server import ServerSettings
from bot.host.sessions import Sessions
from bot.posts import Post
from engine import get_game
from engine.words import count
from storage import Repository, SeatRow, SessionRow, StaleVersion

# How long one process holds due work before another may take it over (if the first died).
LEASE_S = 120.0
# Reminders per wait: at the last, the opener is told the game has stalled and pings stop.
MAX_REMINDERS = 4
# The longest gap between two reminders. A game in a thread must never be silent as long as the
# thread's auto-archive (the bot opens threads with Discord's longest, 7 days): Discord refuses
# slash commands in an archived thread.
MAX_REMINDER_GAP_HOURS = 6 * 24


def reminder_offsets(hours: float) -> list[float]:
    """Hours after a wait began at which its reminders fall due: each gap twice the one before,
    starting at `hours`, and never longer than MAX_REMINDER_GAP_HOURS."""
    offsets, total = [], 0.0
    for k in range(MAX_REMINDERS):
        total += min(hours * 2**k, MAX_REMINDER_GAP_HOURS)
        offsets.append(total)
    return offsets


class Notifications:
    def __init__(
        self,
        repo: Repository,
        settings: Settings,
        server: ServerSettings,
        sessions: Sessions,
        away: Away,
        gate: Gate,
        play: Play,
        notices: Notices,
        clock: Callable[[], float],
    ) -> None:
        self.repo = repo
        self.settings = settings
        self.server = server
        self.sessions = sessions
        self.away = away
        self.gate = gate
        self.play = play
        self.notices = notices
        self.clock = clock
        self._next_db_check = 0.0  # when the periodic database check is next due

    async def tick(self) -> list[Post]:
        """Everything due now. One failing part (or session) is logged and never stops the rest."""
        posts: list[Post] = []
        now = self.clock()
        self.gate.forget_idle()
        await self._check_database(now)
        if self.repo.refusing_writes:
            return posts  # no defaults or expiries on a damaged database; the log says why
        posts += await self._each_due("deadline", now, self._timed_out)
        posts += await self._each_due("reminder", now, self._remind)
        posts += await self._each_due("lobby", now, self._expire_lobby)
        try:
            posts += await self._owed_bot_moves()
        except Exception:
            log.exception("the bot's owed moves failed; the next tick tries again")
        try:
            posts += await self.notices.take()
        except Exception:
            log.exception("taking the queued notices failed; the next tick tries again")
        return await self.gate.deliverable(posts, None)

    async def _each_due(
        self, kind: str, now: float, handle: Callable[[SessionRow, float], Awaitable[list[Post]]]
    ) -> list[Post]:
        posts: list[Post] = []
        extra = {}
        if kind == "lobby":
            extra["created_before"] = now - self.settings.lobby_expiry_hours * 3600
        try:
            rows = await self.repo.claim_due(kind, now, LEASE_S, **extra)  # type: ignore[arg-type]
        except Exception:
            log.exception("looking for due %s work failed; the next tick tries again", kind)
            return posts
        for row in rows:
            try:
                posts += await handle(row, now)
            except StaleVersion:
                continue  # someone acted meanwhile (another process): the next tick looks again
            except Exception:
                log.exception("%s work for session %s failed", kind, row.id)
                if kind == "deadline":
                    # A default that fails would fail on every tick: clear it, so one broken
                    # session does not fill the log; its players can still answer by hand.
                    fresh = await self.repo.session(row.id)
                    if fresh is not None:
                        await self.repo.update_session(fresh.id, fresh.version, deadline=None)
        return posts

    async def _owed_bot_moves(self) -> list[Post]:
        """Games whose seat was handed to the bot outside a command (a forgotten player's): the
        bot makes the moves it owes, as after any hand-over."""
        posts: list[Post] = []
        for key in await self.repo.meta_take(BOT_OWES_KEY):
            session_id = int(key[len(BOT_OWES_KEY) :])
            async with self.sessions.lock(session_id):
                row = await self.sessions.session(session_id)
                if row.status == "active":
                    game = get_game(row.game)
                    posts += await self.play.run_bots(row, game, await self.sessions.state(row), [])
        return posts

    async def _timed_out(self, row: SessionRow, now: float) -> list[Post]:
        return await self.play.apply_default(row.id)

    async def _remind(self, row: SessionRow, now: float) -> list[Post]:
        """Say who is awaited, for how long and what they must do; each reminder comes twice as
        long after the last (at most MAX_REMINDER_GAP_HOURS), and after MAX_REMINDERS the opener
        is told the game has stalled."""
        game, state = get_game(row.game), await self.sessions.state(row)
        turn = game.to_act(state)
        waiting = seating.humans(row, turn.seats)
        hours = await self.server.number(row.guild, "reminder_hours")
        # How many reminders came before follows from the time waited and the schedule (nothing is
        # written that would move the version and make the board's buttons stale).
        since = row.turn_since if row.turn_since is not None else now
        offsets = reminder_offsets(hours)
        sent = sum(1 for due in offsets if due * 3600 <= now - since + 1e-6) - 1
        if not waiting or row.status != "active":
            await self.repo.mark_reminded(row.id, None)
            return []
        waited = (now - row.turn_since) / 3600 if row.turn_since else 0.0
        what = (
            f"answer: {turn.prompt}"
            if turn.decision
            else "make a move (/play, or the buttons on the last board)"
        )
        pinged: list[tuple[SeatRow, float | None]] = []
        away: list[tuple[SeatRow, float | None]] = []
        for seat in waiting:
            until = await self.away.until(seat.user_id)
            (away if until else pinged).append((seat, until))
        names = ", ".join(seating.person_at(row, s.user_name, s.seat) for s in waiting)
        waited_for = count(round(waited), "hour")
        lines = [f"Reminder: the {game.title} game here has waited {waited_for} for {names} to {what}."]
        lines += [f"{s.user_name} is away until {_day(u or now, now)}; no pings till then." for s, u in away]
        link = await self.repo.meta_get(BOARD_KEY + row.channel)
        lines.append(
            f"The latest board: {link}" if link else "/game board shows the position and the move controls."
        )
        mentions = [s.user_id for s, _ in pinged]
        if sent + 1 >= MAX_REMINDERS:
            # Pinging further only nags: the opener hears that the game stalled, and the ways on.
            limit = await self.server.number_at(row.guild, "takeover_hours", row.turn_since)
            lines.append(
                f"The game has stalled. After {count(limit, 'hour')} without a move, the others can: hand a "
                "silent seat to the bot (/seat ai seat:<seat>), claim the game in a two-player game "
                "(/seat claim), hand the seat to someone else (/seat replace), or /game abandon it. "
                "No more reminders will be sent."
            )
            mentions = sorted({*mentions, row.host_user})
            await self.repo.mark_reminded(row.id, None)
        else:
            await self.repo.mark_reminded(row.id, since + offsets[sent + 1] * 3600)
        metrics.reminder_sent()
        return [Post(row.channel, "\n".join(lines), mentions=mentions)]

    async def _expire_lobby(self, row: SessionRow, now: float) -> list[Post]:
        """A lobby nobody started within the setting's hours closes, so a channel (and the
        opener's quota of open lobbies) is not held for ever."""
        async with self.sessions.lock(row.id):
            fresh = await self.sessions.session(row.id)
            if fresh.status != "lobby":
                return []
            await self.repo.update_session(fresh.id, fresh.version, status="abandoned", remind_at=None)
        hours = self.settings.lobby_expiry_hours
        title = get_game(row.game).title
        text = (
            f"This {title} game was closed: nobody started it within {count(hours, 'hour')}. "
            "Open a new one with /game new when the group is ready."
        )
        return [Post(row.channel, text, mentions=[row.host_user])]

    async def _check_database(self, now: float) -> None:
        """Every DB_CHECK_MINUTES, verify the database; a failure refuses writes (storage)."""
        minutes = self.settings.db_check_minutes
        if minutes <= 0 or now < self._next_db_check:
            return
        self._next_db_check = now + minutes * 60
        try:
            await self.repo.health_check()
        except Exception:
            log.exception("the periodic database check could not run")


def _day(when: float, now: float) -> str:
    days = (when - now) / 86400
    hours = round((when - now) / 3600)
    return f"{count(round(days), 'day')} from now" if days >= 1 else f"{count(hours, 'hour')} from now"
