"""The host's core: entry points, the rate limit, per-session locks, and reading sessions and seats.

Every command module builds on HostCore; frontends only ever call its public methods.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import weakref
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Self

from bot.commands import BY_NAME, PLAY
from bot.config import Settings
from bot.posts import Attachment, Caller, Post
from bot.text import discord_user, safe_name
from engine import Game, GameError, NotYourTurn, OptionError, Played, all_games, get_game
from render import render_board
from storage import ActionRow, Repository, SeatRow, SessionRow, StaleVersion, StorageUnavailable

log = logging.getLogger("tablebot.host")

# Autocomplete's rate bucket: its own key prefix, and how many times the command budget it gets.
AUTOCOMPLETE = "autocomplete:"
AUTOCOMPLETE_FACTOR = 10

Renderer = Callable[[str, dict[str, Any], dict[str, str]], bytes]
BOT_USER = "bot"
AWAY_KEY = "away:"  # meta key prefix: away:<user id> -> until when (host clock seconds)
BOARD_KEY = "board:"  # meta key prefix: board:<channel> -> link to the latest board picture
# Server settings and their bounds: a reminder at most every 15 minutes (so a slip cannot make it
# ping on every tick) and at least every 90 days; a pending decision waits 1 minute to 30 days.
SETTING_RANGES = {
    "reminder_hours": (0.25, 24.0 * 90),
    "decision_minutes": (1.0, 60.0 * 24 * 30),
    "takeover_hours": (1.0, 24.0 * 90),
    "lobby_seats": (1.0, 100.0),  # seats one person holds in games not yet started (whole numbers)
}
TOO_FAST = "You are sending commands too fast; wait a minute and try again."
MAX_TEXT = 1900  # Discord allows 2000 characters; longer text goes into a file
# What one command or press may cause: messages per channel (a run of bot moves folds into fewer),
# and channels besides the caller's own (a notice to each of a user's games).
MAX_POSTS_PER_CHANNEL = 4
# Characters of one command parameter (Discord allows 6000); the longest a command needs is an
# Ignite market list, a few hundred.
MAX_ARG = 1000
MAX_OTHER_CHANNELS = 10
# Outside a game's turns (a lobby, a rematch, a resignation), one person's commands ping another at
# most once in this time, so a loop of commands (rematch, abandon, rematch...) cannot ping them
# over and over.
PING_GAP_S = 600.0


class HostCore:
    def __init__(
        self,
        repo: Repository,
        settings: Settings,
        *,
        renderer: Renderer | None = render_board,
        clock: Callable[[], float] = time.time,
        user_ref: Callable[[str], str | None] = discord_user,
    ) -> None:
        self.repo = repo
        self.settings = settings
        self.renderer = renderer
        self.clock = clock
        # How the frontend's users are named in a command's text (`/seat replace user:`): Discord
        # mentions and ids, or the console's plain names. None means "that is not a user".
        self.user_ref = user_ref
        # Storage dates what it writes by the host's clock, even one replaced later (the console's /wait).
        repo.clock = lambda: self.clock()
        # One lock per session keeps this process from computing two actions on one version;
        # the version check in storage covers everything else (other processes, stale buttons).
        # Weak: a session's lock lives while someone holds or awaits it, so months of games do
        # not leave one behind per session ever played.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._recent: defaultdict[str, deque[float]] = defaultdict(deque)
        self._next_db_check = 0.0  # the tick's periodic database check (notify.py)
        # Session -> the append key of the message its current turn started (announce.py). In
        # memory: after a restart the turn's next step starts a new message (without a ping).
        self._turn_keys: dict[int, str] = {}
        self._pinged: dict[tuple[str, str], float] = {}  # (caller, pinged) -> last ping outside a turn

    @classmethod
    async def open(cls, settings: Settings, **kwargs: Any) -> Self:
        return cls(await Repository.open(settings.db_path), settings, **kwargs)

    async def close(self) -> None:
        await self.repo.close()

    async def meta_get(self, key: str) -> str | None:
        return await self.repo.meta_get(key)

    async def meta_set(self, key: str, value: str) -> None:
        await self.repo.meta_set(key, value)

    async def board_posted(self, channel: str, link: str) -> None:
        """The frontend says where the latest board picture in `channel` is (a message link), so
        that reminders can point at it."""
        await self.repo.meta_set(BOARD_KEY + channel, link)

    async def command(self, caller: Caller, name: str, args: dict[str, str]) -> list[Post]:
        """Run one command. Refusals come back as a private post; nothing raises for bad input."""
        caller = replace(caller, name=safe_name(caller.name))
        if name != PLAY.name and name not in BY_NAME:
            legal = ", ".join(["play", *BY_NAME])
            return [self._private(caller, f"There is no command `{safe_name(name)}`. Commands: {legal}.")]

        async def run() -> list[Post]:
            check_lengths(args)
            posts: list[Post] = await getattr(self, f"_cmd_{name}")(caller, args)
            return posts

        return await self._guarded(caller, name, run)

    async def press(self, caller: Caller, custom_id: str) -> list[Post]:
        caller = replace(caller, name=safe_name(caller.name))
        return await self._guarded(caller, "press", lambda: self._press(caller, custom_id))

    async def autocomplete(self, caller: Caller, typed: str) -> list[str]:
        """Up to 25 of the caller's legal moves whose words start with what was typed, in order.
        Discord asks on every keystroke, so autocomplete has its own, larger budget; over it the
        list is empty (the command itself still works)."""
        if not self._within_rate(
            caller, bucket=AUTOCOMPLETE, per_minute=AUTOCOMPLETE_FACTOR * self.settings.rate_limit_per_minute
        ):
            log.info("rate-limited autocomplete from %s", caller.user_id)
            return []
        row = await self.repo.open_session_in(caller.channel)
        if row is None or row.status != "active":
            return []
        game, state = get_game(row.game), await self._state(row)
        seats = [s for s in row.seat_of(caller.user_id) if s in game.to_act(state).seats]
        legal = [str(a) for s in seats for a in game.legal_actions(state, s)]
        words = typed.lower().split()
        hits = [n for n in legal if matches(words, n.split())]
        return hits[:25]

    async def card_choices(self, caller: Caller, typed: str, game_id: str = "") -> list[str]:
        """Autocomplete for /game card: every card and term of the game named, else of this
        channel's game, else of every game; those starting with what was typed first."""
        if not self._within_rate(
            caller, bucket=AUTOCOMPLETE, per_minute=AUTOCOMPLETE_FACTOR * self.settings.rate_limit_per_minute
        ):
            return []
        games = [g for g in all_games() if g.id == game_id.strip().lower()]
        if not games:
            row = await self.repo.latest_session_in(caller.channel)
            games = [get_game(row.game)] if row is not None else all_games()
        names: list[str] = []
        for g in games:
            names += [n for n in g.glossary().complete(typed, 25) if n not in names]
        return names[:25]

    async def _guarded(self, caller: Caller, what: str, run: Callable[[], Any]) -> list[Post]:
        if not self._within_rate(caller):
            log.info("rate-limited %s on %s", caller.user_id, what)
            return [self._private(caller, TOO_FAST)]
        try:
            posts: list[Post] = await run()
            return await self._deliverable(bounded(posts, caller.channel), caller.user_id)
        except GameError as exc:
            # The kind only: a refusal's text can list the caller's legal moves, i.e. their private hand.
            log.info("refused %s from %s in %s: %s", what, caller.user_id, caller.channel, type(exc).__name__)
            return [self._private(caller, str(exc))]
        except StorageUnavailable as exc:
            # The database refused or could not be reached: nothing was written; say so plainly.
            log.warning("storage unavailable on %s from %s: %s", what, caller.user_id, type(exc).__name__)
            return [self._private(caller, str(exc))]
        except StaleVersion:
            log.info("stale %s from %s in %s", what, caller.user_id, caller.channel)
            return [
                self._private(
                    caller,
                    "The game moved on before that arrived; nothing was applied. "
                    "Use /game status or the newest buttons.",
                )
            ]
        except Exception:
            # A bug must not take the bot down or leave the user without an answer; storage
            # commits are atomic, so nothing half-applied is left behind.
            log.exception("internal error on %s from %s in %s", what, caller.user_id, caller.channel)
            return [
                self._private(
                    caller,
                    "Sorry, something went wrong on the bot's side (it has been logged). "
                    "/game status shows the current position.",
                )
            ]

    @asynccontextmanager
    async def _lock(self, session_id: int) -> AsyncIterator[None]:
        """Serialises work on one session: an asyncio lock within this process, and the
        database's own lock across processes (an advisory lock on PostgreSQL)."""
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        async with lock, self.repo.session_lock(session_id):
            yield

    @staticmethod
    def _private(caller: Caller, text: str) -> Post:
        return Post(caller.channel, text, to=caller.user_id)

    def would_allow(self, caller: Caller) -> bool:
        """Whether a command from `caller` would pass the rate limit now, without counting it: the
        frontend asks before a side effect of its own (opening a thread) that comes first."""
        return self._within_rate(caller, count=False)

    def _within_rate(
        self, caller: Caller, *, bucket: str = "", per_minute: int = 0, count: bool = True
    ) -> bool:
        limit = per_minute or self.settings.rate_limit_per_minute
        if self.settings.rate_limit_per_minute <= 0:  # 0: no limit (the local console)
            return True
        now = self.clock()
        recent = self._recent[bucket + caller.user_id]
        while recent and recent[0] < now - 60:
            recent.popleft()
        if len(recent) >= limit:
            return False
        if count:
            recent.append(now)
        return True

    async def _deliverable(self, posts: list[Post], caller: str | None) -> list[Post]:
        """The last word on pings, for every post the host hands out: nobody away (/seat away) is
        pinged, and outside a game's turns one caller's commands ping a person at most once per
        PING_GAP_S. Turn posts (keyed to a turn's message) are paced by the turns themselves, the
        tick's reminders by their own schedule (caller None)."""
        now = self.clock()
        for key in [k for k, t in self._pinged.items() if t < now - PING_GAP_S]:
            del self._pinged[key]
        away: dict[str, bool] = {}
        for post in posts:
            kept = []
            for user in post.mentions:
                if user not in away:
                    away[user] = await self._away_until(user) is not None
                if away[user]:
                    continue
                if caller is not None and not post.append_key.startswith("turn:"):
                    if (caller, user) in self._pinged:
                        continue
                    self._pinged[caller, user] = now
                kept.append(user)
            post.mentions = kept
        return posts

    async def _away_note(self, row: SessionRow, seats: frozenset[str]) -> str:
        """Who among these seats is away, as their seat shows it: "alice is away until Fri 4 Dec,
        18:00 UTC (no pings)." Empty when nobody is."""
        notes = []
        for seat in row.seats:
            until = await self._away_until(seat.user_id) if seat.seat in seats and not seat.ai_level else None
            if until is not None:
                notes.append(f"{seat.user_name} ({seat.seat}) is away until {when_label(until)} (no pings).")
        return " ".join(notes)

    async def _away_until(self, user_id: str) -> float | None:
        """Until when a user said (/seat away) they are away, if that is still ahead."""
        until = await self.repo.meta_get(AWAY_KEY + user_id)
        return float(until) if until and float(until) > self.clock() else None

    async def _settings_for(self, guild: str | None) -> dict[str, str]:
        stored = await self.repo.guild_settings(guild) if guild else {}
        return {
            "reminder_hours": stored.get("reminder_hours", f"{self.settings.reminder_hours:g}"),
            "decision_minutes": stored.get("decision_minutes", f"{self.settings.decision_minutes:g}"),
            "takeover_hours": stored.get("takeover_hours", f"{self.settings.takeover_hours:g}"),
            "lobby_seats": stored.get("lobby_seats", f"{self.settings.lobby_seats:d}"),
        }

    @staticmethod
    def _guild_number(settings: dict[str, str], name: str) -> float:
        return float(settings[name])

    async def _lobby_seats(self, guild: str | None) -> int:
        """The most seats one person may hold in games not yet started in `guild`."""
        return int(self._guild_number(await self._settings_for(guild), "lobby_seats"))

    async def _wait_fields(self, row: SessionRow, game: Game[Any, Any], state: Any) -> dict[str, Any]:
        """A new wait for the players begins now: when to remind them, and when a pending
        decision (if any) takes its default."""
        now = self.clock()
        settings = await self._settings_for(row.guild)
        turn = game.to_act(state)
        deadline = None
        if turn.decision is not None and turn.default is not None:
            deadline = now + self._guild_number(settings, "decision_minutes") * 60
        return {
            "turn_since": now,
            "remind_at": now + self._guild_number(settings, "reminder_hours") * 3600,
            "deadline": deadline,
        }

    async def _still_active(self, session_id: int) -> SessionRow:
        """The session re-read under its lock: it may have ended while the command waited."""
        row = await self._session(session_id)
        if row.status != "active":
            raise GameError("The game ended before that arrived; nothing was changed.")
        return row

    async def _session(self, session_id: int) -> SessionRow:
        row = await self.repo.session(session_id)
        if row is None:
            raise GameError("That game no longer exists.")
        return row

    async def _open_row(self, caller: Caller) -> SessionRow:
        row = await self.repo.open_session_in(caller.channel)
        if row is None:
            raise GameError(
                f"There is no open game in this channel. Open one with /game new game:<id> "
                f"(games: {self._game_list()})."
            )
        return row

    async def _active_row(self, caller: Caller) -> SessionRow:
        row = await self._open_row(caller)
        if row.status == "lobby":
            raise GameError("The game has not started yet. Fill the seats (/game join) and /game start.")
        return row

    async def _latest_row(self, caller: Caller) -> SessionRow:
        row = await self.repo.latest_session_in(caller.channel)
        if row is None:
            raise GameError(
                f"No game has been played in this channel. Open one with /game new game:<id> "
                f"(games: {self._game_list()})."
            )
        return row

    async def _state(self, row: SessionRow) -> Any:
        data = await self.repo.state(row.id)
        if data is None:
            raise GameError("The game has not started yet.")
        return get_game(row.game).from_json(data)

    async def _state_after(self, game: Game[Any, Any], row: SessionRow, keep: Sequence[ActionRow]) -> Any:
        """The state once `keep` (the moves in force, oldest first) have been played: loaded from
        the nearest stored snapshot at or before the last of them, replaying only the moves after
        it. Replaying is CPU work that grows with the game, so it runs off the event loop."""
        base = await self.repo.load_for_undo(row.id, keep[-1].version) if keep and keep[-1].version else None
        if base is None:  # nothing to keep, or a log from before versions were recorded
            return await asyncio.to_thread(self._replay, game, row, [(a.seat, a.notation) for a in keep])

        def play_on() -> Any:
            state = game.from_json(base.state)
            for a in base.moves_after:
                game.act(state, a.seat or "", a.notation)
            return state

        return await asyncio.to_thread(play_on)

    def _replay(self, game: Game[Any, Any], row: SessionRow, moves: Sequence[tuple[str | None, str]]) -> Any:
        state = game.setup(self._seat_order(game, row), row.options, row.seed)
        for seat, notation in moves:
            game.act(state, seat or "", notation)
        return state

    @staticmethod
    def _seat_order(game: Game[Any, Any], row: SessionRow) -> list[str]:
        taken = {s.seat for s in row.seats}
        return [s for s in game.seat_names(row.options) if s in taken]

    @staticmethod
    def _pick_seat(game: Game[Any, Any], options: dict[str, str], taken: list[str], wanted: str) -> str:
        names = game.seat_names(options)
        free = [s for s in names if s not in taken]
        wanted = wanted.strip().lower()
        if wanted:
            if wanted not in names:
                raise OptionError(f"`{wanted}` is not a seat of {game.title}; seats: {', '.join(names)}.")
            if wanted in taken:
                raise GameError(f"The {wanted} seat is taken; free seats: {', '.join(free) or 'none'}.")
            return wanted
        _, hi = game.seat_range(options)
        if not free or len(taken) >= hi:
            raise GameError(f"This {game.title} game is full ({hi} seats).")
        return free[0]

    def _acting_seat(self, row: SessionRow, game: Game[Any, Any], state: Any, caller: Caller) -> str:
        mine = row.seat_of(caller.user_id)
        if not mine:
            seats = ", ".join(f"{s.seat} ({s.user_name})" for s in row.seats)
            raise NotYourTurn(f"You are not seated in this game (seats: {seats}); you can watch along.")
        turn = game.to_act(state)
        acting = [s for s in mine if s in turn.seats]
        if not acting:
            if not turn.seats:
                raise NotYourTurn("The game is over.")
            raise NotYourTurn(f"It is not your turn: waiting for {self._names(row, turn.seats)}.")
        return acting[0]

    @staticmethod
    def _organises(row: SessionRow, caller: Caller) -> bool:
        """The game's opener, a seated player, or a server manager."""
        return caller.user_id == row.host_user or bool(row.seat_of(caller.user_id)) or caller.is_manager

    @staticmethod
    def _humans(row: SessionRow, seats: frozenset[str]) -> list[SeatRow]:
        return [s for s in row.seats if s.seat in seats and s.ai_level is None]

    @staticmethod
    def _who(row: SessionRow, seat: str, kind: str = "action") -> str:
        """Who made a logged move, as the channel names them: "alice (fire)"; a timed-out
        default is the rules' choice, credited to nobody."""
        if kind == "timeout":
            return "Default taken"
        seated = row.seat_row(seat)
        if seated is None:
            return seat
        name = f"the bot, {seated.ai_level}" if seated.ai_level else seated.user_name
        return f"{seat} ({name})"

    def _human_decider(self, row: SessionRow, game: Game[Any, Any], state: Any) -> SeatRow | None:
        """Who answers a decision the rules hand to the group: the game's decider (the player
        whose unit it concerns, or who acted last) when a person holds that seat; when the bot
        holds it (a silent seat taken over), the first person who may answer, so that the bot
        never decides about people's units. None when no person may answer (the bot does)."""
        turn = game.to_act(state)
        waiting = self._humans(row, turn.seats)
        if not turn.decision or not waiting:
            return None
        return next((s for s in waiting if s.seat == game.decider(state)), waiting[0])

    @staticmethod
    def _names(row: SessionRow, seats: frozenset[str]) -> str:
        return ", ".join(f"{s.seat} ({s.user_name})" for s in row.seats if s.seat in seats)

    @staticmethod
    def _game_list() -> str:
        return ", ".join(g.id for g in all_games())

    @staticmethod
    def _seat_lines(row: SessionRow, game: Game[Any, Any]) -> str:
        taken = {s.seat: s.user_name for s in row.seats}
        # Free seats matter only while people can still take them: a running three-player Ignite
        # game lists its three races, not the five nobody chose.
        names = game.seat_names(row.options) if row.status == "lobby" else [s.seat for s in row.seats]
        return "Seats: " + ", ".join(f"{s}: {taken.get(s, '(free)')}" for s in names) + "."

    def _turn_line(self, row: SessionRow, game: Game[Any, Any], state: Any) -> str:
        turn = game.to_act(state)
        if turn.decision:
            return f"Decision for {self._names(row, turn.seats)}: {turn.prompt}"
        return f"To act: {self._names(row, turn.seats)}."


def check_content(settings: Settings) -> None:
    """Validate every game's content before serving anyone: a malformed file stops the start
    with its name, entry and field, rather than failing in the middle of a game. Every problem is
    a ValueError of one line (engine.content's ContentError for the files themselves)."""
    root = Path(settings.content_dir) if settings.content_dir else None
    if root is not None and not root.is_dir():
        raise ValueError(
            f"CONTENT_DIR {root} is not a folder (it holds one folder per game, named by its id)."
        )
    for game in all_games():
        folder = root / game.id if root is not None else None
        if folder is not None and os.path.lexists(folder) and not folder.is_dir():
            raise ValueError(f"{folder} is not a folder (CONTENT_DIR holds one folder per game).")
        try:
            game.check_content(str(folder) if folder is not None and folder.is_dir() else None)
        except ValueError:
            raise
        except Exception as exc:  # a check of ours that failed on a file it was not written for
            log.exception("checking the content of %s failed", game.id)
            raise ValueError(
                f"the content of {game.id} could not be checked ({type(exc).__name__}: {exc})."
            ) from exc


# Between a log row's public form of the move and the public events that followed it.
SAID_END = " — "


def said_of(played: Played) -> str:
    """The move as the table reads it after the mover's name: its notation when that names
    nothing hidden, else its public form ("plays a card face down")."""
    notation = str(played.action)
    return f"plays `{notation}`" if played.public == notation else played.public


def said_in(summary: str) -> str:
    """The public form kept at the head of a log row's summary."""
    return summary.split(SAID_END, 1)[0]


def private_moves(game: Game[Any, Any], state: Any, seats: Sequence[str]) -> bool:
    """Whether any of these seats' legal moves names something the table may not see (its
    public form is not its notation): such moves go on each player's private menu, never on
    buttons under a public post."""
    return any(
        game.public_text(state, seat, action) != str(action)
        for seat in seats
        for action in game.legal_actions(state, seat)
    )


def matches(typed: Sequence[str], words: Sequence[str]) -> bool:
    """Each typed word starts some word of the move, in order: `e a3` finds `earth a3 east`."""
    i = 0
    for t in typed:
        while i < len(words) and not words[i].startswith(t):
            i += 1
        if i == len(words):
            return False
        i += 1
    return True


def result_line(row: SessionRow, outcome: dict[str, Any]) -> str:
    names = {s.seat: s.user_name for s in row.seats}
    winners = [f"{w} ({names.get(w, '?')})" for w in outcome.get("winners", [])]
    if winners:
        return f"**Game over** — {' and '.join(winners)} won. {outcome.get('reason', '')}".strip()
    if outcome.get("losers"):
        return f"**Game over** — the game is lost. {outcome.get('reason', '')}".strip()
    return f"**Game over** — a draw. {outcome.get('reason', '')}".strip()


def check_lengths(args: dict[str, str]) -> None:
    """Every parameter a user typed is read up to MAX_ARG characters; a longer one is refused
    whole (cut short, it could mean something its sender never wrote)."""
    for key, value in args.items():
        if len(value) > MAX_ARG:
            raise OptionError(
                f"`{safe_name(key)}` is {len(value)} characters long; at most {MAX_ARG} are read. "
                "Nothing was done."
            )


def bounded(posts: list[Post], here: str) -> list[Post]:
    """The posts one command causes, bounded whatever the command: at most MAX_POSTS_PER_CHANNEL
    messages for each audience of a channel (the oldest fold into one, its long text into a file)
    and at most MAX_OTHER_CHANNELS channels besides the caller's (the rest are dropped and logged)."""
    others = list(dict.fromkeys(p.channel for p in posts if p.channel != here))
    if len(others) > MAX_OTHER_CHANNELS:
        log.warning("one command posted to %d other channels; %d kept", len(others), MAX_OTHER_CHANNELS)
        allowed = {here, *others[:MAX_OTHER_CHANNELS]}
        posts = [p for p in posts if p.channel in allowed]
    out = list(posts)
    for channel, to in dict.fromkeys((p.channel, p.to) for p in posts):
        group = [p for p in out if p.channel == channel and p.to == to]
        if len(group) <= MAX_POSTS_PER_CHANNEL:
            continue
        fold = group[: len(group) - MAX_POSTS_PER_CHANNEL + 1]
        merged = Post(
            channel,
            "\n".join(p.text for p in fold if p.text),
            to=to,
            images=[a for p in fold for a in p.images],
            files=[a for p in fold for a in p.files],
            choices=next((p.choices for p in reversed(fold) if p.choices), []),
            placeholder=next((p.placeholder for p in reversed(fold) if p.choices), ""),
            mentions=list(dict.fromkeys(u for p in fold for u in p.mentions)),
        )
        at = next(i for i, p in enumerate(out) if p is fold[0])
        out = [p for p in out if not any(p is f for f in fold)]
        out.insert(at, fit(merged, "moves.txt"))
    return out


def when_label(until: float) -> str:
    """A date and time as a player reads it: Fri 4 Dec, 18:00 UTC."""
    return time.strftime("%a %-d %b, %H:%M UTC", time.gmtime(until))


def channel_link(channel: str) -> str:
    """A channel as a player can click it on Discord (#name on the console)."""
    return f"<#{channel}>" if channel.isdigit() else f"#{channel}"


def fit(post: Post, filename: str) -> Post:
    """Keep a post under Discord's text limit: long text moves into an attached file."""
    if len(post.text) <= MAX_TEXT:
        return post
    head = post.text[: MAX_TEXT - 60].rsplit("\n", 1)[0]
    post.files.append(Attachment(filename, post.text.encode()))
    post.text = head + f"\n… (the rest is in {filename})"
    return post
