"""The transport-free host: lobby, seats, turns, undo votes, reminders, AI seats and posts.

Frontends call it with (caller, command, args) and send back the Posts it returns; it loads the
session, asks the game to validate and apply, commits through storage, and renders off the loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
import weakref
from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot import pictures
from bot.commands import BY_NAME, PLAY
from bot.config import Settings
from bot.menus import ButtonId, menu, resolve, whole_number
from bot.posts import Attachment, Caller, Choice, Post
from engine import Dice, Event, Game, GameError, NotYourTurn, OptionError, all_games, get_game
from render import render_board
from storage import ChannelBusy, Repository, SeatRow, SessionRow, StaleVersion

log = logging.getLogger("tablebot.host")

Renderer = Callable[[str, dict[str, Any], dict[str, str]], bytes]
BOT_USER = "bot"
# Server settings and their bounds: a reminder at most every 15 minutes (so a slip cannot make it
# ping on every tick) and at least every 90 days; a pending decision waits 1 minute to 30 days.
SETTING_RANGES = {"reminder_hours": (0.25, 24.0 * 90), "decision_minutes": (1.0, 60.0 * 24 * 30)}
MAX_TEXT = 1900  # Discord allows 2000 characters; longer text goes into a file


class Host:
    def __init__(
        self,
        repo: Repository,
        settings: Settings,
        *,
        renderer: Renderer | None = render_board,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.repo = repo
        self.settings = settings
        self.renderer = renderer
        self.clock = clock
        # One lock per session keeps this process from computing two actions on one version;
        # the version check in storage covers everything else (other processes, stale buttons).
        # Weak: a session's lock lives while someone holds or awaits it, so months of games do
        # not leave one behind per session ever played.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._recent: defaultdict[str, deque[float]] = defaultdict(deque)

    @classmethod
    async def open(cls, settings: Settings, **kwargs: Any) -> Host:
        return cls(await Repository.open(settings.db_path), settings, **kwargs)

    async def close(self) -> None:
        await self.repo.close()

    async def meta_get(self, key: str) -> str | None:
        return await self.repo.meta_get(key)

    async def meta_set(self, key: str, value: str) -> None:
        await self.repo.meta_set(key, value)

    # ---- entry points --------------------------------------------------------------------

    async def command(self, caller: Caller, name: str, args: dict[str, str]) -> list[Post]:
        """Run one command. Refusals come back as a private post; nothing raises for bad input."""
        if name != PLAY.name and name not in BY_NAME:
            legal = ", ".join(["play", *BY_NAME])
            return [self._private(caller, f"There is no command `{name}`. Commands: {legal}.")]
        return await self._guarded(caller, name, lambda: getattr(self, f"_cmd_{name}")(caller, args))

    async def press(self, caller: Caller, custom_id: str) -> list[Post]:
        return await self._guarded(caller, "press", lambda: self._press(caller, custom_id))

    async def autocomplete(self, caller: Caller, typed: str) -> list[str]:
        """Up to 25 of the caller's legal moves whose words start with what was typed, in order."""
        row = await self.repo.open_session_in(caller.channel)
        if row is None or row.status != "active":
            return []
        game, state = get_game(row.game), await self._state(row)
        seats = [s for s in row.seat_of(caller.user_id) if s in game.to_act(state).seats]
        legal = [str(a) for s in seats for a in game.legal_actions(state, s)]
        words = typed.lower().split()
        hits = [n for n in legal if _matches(words, n.split())]
        return hits[:25]

    async def tick(self) -> list[Post]:
        """Reminders for games waiting on someone, and pending decisions that timed out."""
        posts: list[Post] = []
        now = self.clock()
        for user in [u for u, times in self._recent.items() if not times or times[-1] < now - 60]:
            del self._recent[user]  # the rate limit only needs the last minute
        for session_id in await self.repo.past_deadline(now):
            try:
                posts += await self._apply_default(session_id)
            except StaleVersion:
                continue  # someone acted meanwhile (another process): the next tick looks again
            except Exception:
                # One broken session must not stop every other server's reminders and defaults:
                # log it once and stop retrying it.
                log.exception("decision default for session %s failed; its deadline is cleared", session_id)
                row = await self.repo.session(session_id)
                if row is not None:
                    await self.repo.update_session(row.id, row.version, deadline=None)
        for row in await self.repo.due_reminders(now):
            game, state = get_game(row.game), await self._state(row)
            waiting = self._humans(row, game.to_act(state).seats)
            if waiting:
                names = ", ".join(f"{s.user_name} ({s.seat})" for s in waiting)
                posts.append(
                    Post(
                        row.channel,
                        f"Reminder: the {game.title} game here is waiting for {names}.",
                        mentions=[s.user_id for s in waiting],
                    )
                )
            hours = self._guild_number(await self._settings_for(row.guild), "reminder_hours")
            await self.repo.mark_reminded(row.id, now + hours * 3600 if waiting else None)
        return posts

    async def _guarded(self, caller: Caller, what: str, run: Callable[[], Any]) -> list[Post]:
        if not self._within_rate(caller):
            log.info("rate-limited %s on %s", caller.user_id, what)
            return [self._private(caller, "You are sending commands too fast; wait a minute and try again.")]
        try:
            posts: list[Post] = await run()
            return posts
        except GameError as exc:
            # The kind only: a refusal's text can list the caller's legal moves, i.e. their private hand.
            log.info("refused %s from %s in %s: %s", what, caller.user_id, caller.channel, type(exc).__name__)
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

    def _lock(self, session_id: int) -> asyncio.Lock:
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        return lock

    @staticmethod
    def _private(caller: Caller, text: str) -> Post:
        return Post(caller.channel, text, to=caller.user_id)

    def _within_rate(self, caller: Caller) -> bool:
        if self.settings.rate_limit_per_minute <= 0:  # 0: no limit (the local console)
            return True
        now = self.clock()
        recent = self._recent[caller.user_id]
        while recent and recent[0] < now - 60:
            recent.popleft()
        if len(recent) >= self.settings.rate_limit_per_minute:
            return False
        recent.append(now)
        return True

    # ---- lobby ---------------------------------------------------------------------------

    async def _cmd_new(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        name = args.get("game", "").strip()
        if not name:
            raise GameError(f"Name a game: /game new game:<id>. Games: {self._game_list()}.")
        game = get_game(name)
        raw = _parse_options(args.get("options", ""))
        # Any argument that is not one of /game new's own parameters is a game option (console style).
        own = {p.name for p in BY_NAME["new"].params}
        raw.update({k: v for k, v in args.items() if k not in own})
        options = game.validate_options(raw)
        seed_text = args.get("seed", "").strip()
        if seed_text and not whole_number(seed_text):
            raise OptionError(f"The seed must be a whole number (up to 18 digits), not `{seed_text[:40]}`.")
        seed = int(seed_text) if seed_text else secrets.randbelow(2**31)
        seat = None
        if args.get("seat"):
            seat = SeatRow(
                self._pick_seat(game, options, [], args["seat"]), caller.user_id, caller.name, None
            )
        try:
            await self.repo.create_session(
                guild=caller.guild,
                channel=caller.channel,
                game=game.id,
                options=options,
                seed=seed,
                host_user=caller.user_id,
                seat=seat,
            )
        except ChannelBusy:
            row = await self.repo.open_session_in(caller.channel)
            what = f"a {get_game(row.game).title} game ({row.status})" if row else "an open game"
            raise GameError(
                f"This channel already has {what}. Finish or /game abandon it first, "
                "or open the new game in another channel or thread."
            ) from None
        row = await self._open_row(caller)
        opts = ", ".join(f"{k}={v}" for k, v in options.items()) or "none"
        lo, hi = game.seat_range(options)
        seats_text = ", ".join(game.seat_names(options))
        text = (
            f"{caller.name} opened a game of **{game.title}** (options: {opts}; seed {seed}).\n"
            f"Seats: {seats_text} ({lo}–{hi} to start). Join with /game join"
            + (
                f"; seat the bot with /game ai seat:<seat> level:<{'|'.join(game.ai_levels)}>"
                if game.ai_levels
                else ""
            )
            + ", then /game start."
        )
        return [Post(caller.channel, text + "\n" + self._seat_lines(row, game))]

    async def _cmd_join(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._open_row(caller)
        if row.status != "lobby":
            raise GameError(
                "This game has already started; seats are fixed. Watch along, or open a game elsewhere."
            )
        game = get_game(row.game)
        if row.seat_of(caller.user_id) and not args.get("seat"):
            raise GameError(f"You already hold {', '.join(row.seat_of(caller.user_id))}.")
        seat = self._pick_seat(game, row.options, [s.seat for s in row.seats], args.get("seat", ""))
        await self.repo.take_seat(row.id, row.version, SeatRow(seat, caller.user_id, caller.name, None))
        row = await self._open_row(caller)
        return [Post(caller.channel, f"{caller.name} takes the {seat} seat.\n" + self._seat_lines(row, game))]

    async def _cmd_ai(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._open_row(caller)
        game = get_game(row.game)
        if not game.ai_levels:
            raise GameError(f"{game.title} has no bot player.")
        if row.status != "lobby":
            raise GameError("Seats are fixed once the game has started.")
        if not self._organises(row, caller):
            raise GameError("Only the player who opened this game or a seated player can seat the bot.")
        level = (args.get("level") or game.ai_levels[len(game.ai_levels) // 2]).strip().lower()
        if level not in game.ai_levels:
            raise OptionError(f"`{level}` is not a bot level; choose one of: {', '.join(game.ai_levels)}.")
        seat = self._pick_seat(game, row.options, [s.seat for s in row.seats], args.get("seat", ""))
        await self.repo.take_seat(row.id, row.version, SeatRow(seat, BOT_USER, f"bot ({level})", level))
        row = await self._open_row(caller)
        return [
            Post(caller.channel, f"The bot ({level}) takes the {seat} seat.\n" + self._seat_lines(row, game))
        ]

    async def _cmd_leave(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._open_row(caller)
        if row.status != "lobby":
            raise GameError("The game has started; use /game resign to leave it.")
        wanted = args.get("seat", "").strip().lower()
        bot = row.seat_row(wanted) if wanted else None
        if bot is not None and bot.ai_level is not None:
            # The bot's seat is freed by whoever organises the game (it cannot leave by itself).
            if not self._organises(row, caller):
                raise GameError("Only the player who opened this game or a seated player can unseat the bot.")
            await self.repo.free_seat(row.id, row.version, bot.seat)
            row = await self._open_row(caller)
            text = f"{caller.name} takes the bot out of the {bot.seat} seat.\n"
            return [Post(caller.channel, text + self._seat_lines(row, get_game(row.game)))]
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise GameError("You hold no seat in this game.")
        seat = wanted if wanted in mine else mine[0]
        await self.repo.free_seat(row.id, row.version, seat)
        row = await self._open_row(caller)
        text = f"{caller.name} leaves the {seat} seat.\n"
        return [Post(caller.channel, text + self._seat_lines(row, get_game(row.game)))]

    async def _cmd_start(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._open_row(caller)
        if row.status != "lobby":
            raise GameError("The game is already running. /game status shows whose turn it is.")
        game = get_game(row.game)
        if not row.seat_of(caller.user_id) and caller.user_id != row.host_user:
            raise GameError(
                "Only a seated player or the game's host can start it. Take a seat with /game join."
            )
        lo, hi = game.seat_range(row.options)
        if not lo <= len(row.seats) <= hi:
            free = [s for s in game.seat_names(row.options) if not row.seat_row(s)]
            raise GameError(
                f"{game.title} needs {lo}–{hi} seats filled to start; {len(row.seats)} are. "
                f"Free seats: {', '.join(free)}."
            )
        async with self._lock(row.id):
            seats = self._seat_order(game, row)
            state = game.setup(seats, row.options, row.seed)
            version = await self.repo.store_state(
                row.id,
                row.version,
                game.to_json(state),
                status="active",
                **await self._wait_fields(row, game, state),
            )
            row = await self._session(row.id)
            text = f"**{game.title}** begins. Seats: " + ", ".join(
                f"{s.seat}: {s.user_name}" for s in row.seats
            )
            posts = await self._after(row, game, state, version, [Post(row.channel, text)], picture=True)
            return await self._run_bots(row, game, state, posts)

    async def _cmd_abandon(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._open_row(caller)
        if caller.user_id != row.host_user and not caller.is_manager:
            raise GameError(
                "Only the player who opened this game or someone with Manage Server can abandon it."
            )
        await self.repo.update_session(row.id, row.version, status="abandoned", deadline=None, remind_at=None)
        return [
            Post(
                caller.channel,
                f"{caller.name} abandoned the {get_game(row.game).title} game. "
                "The channel is free for a new one.",
            )
        ]

    # ---- play ----------------------------------------------------------------------------

    async def _cmd_play(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        text = args.get("action", "").strip()
        if not text:
            raise GameError("Name a move: /play action:<move>. /game moves lists yours.")
        row = await self._active_row(caller)
        async with self._lock(row.id):
            row = await self._still_active(row.id)
            return await self._act(caller, row, text)

    async def _press(self, caller: Caller, custom_id: str) -> list[Post]:
        bid = ButtonId.parse(custom_id)
        if bid is None:
            raise GameError("That button is not one of this bot's game buttons.")
        row = await self._session(bid.session)
        if row.channel != caller.channel:
            raise GameError("That button belongs to a game in another channel.")
        if bid.kind == "h":
            return await self._cmd_hand(caller, {})
        if row.status != "active":
            raise GameError("That game is over; its buttons no longer act.")
        if bid.version != row.version:
            raise StaleVersion(row.id)
        game, state = get_game(row.game), await self._state(row)
        if bid.kind == "u":
            return await self._cmd_undo(caller, {})
        seat = self._acting_seat(row, game, state, caller)
        legal = [str(a) for a in game.legal_actions(state, seat)]
        if bid.kind == "p":
            page_text, _, prefix = bid.payload.partition(" ")
            if not whole_number(page_text or "0"):
                raise GameError("That button is not one of this bot's game buttons.")
            choices, placeholder = menu(row.id, row.version, legal, prefix, int(page_text or 0))
            if not choices:
                raise GameError("None of your legal moves start that way any more; /game moves lists them.")
            return [
                Post(
                    caller.channel,
                    f"Your move ({seat}): {placeholder}",
                    to=caller.user_id,
                    choices=choices,
                    placeholder=placeholder,
                )
            ]
        notation = resolve(legal, bid.payload)
        if notation is None:
            raise StaleVersion(row.id)
        async with self._lock(row.id):
            fresh = await self._session(row.id)
            if fresh.version != bid.version:
                raise StaleVersion(row.id)
            return await self._act(caller, fresh, notation)

    async def _act(self, caller: Caller, row: SessionRow, text: str) -> list[Post]:
        """Validate and apply one person's action, commit it, then let bot seats reply."""
        game, state = get_game(row.game), await self._state(row)
        seat = self._acting_seat(row, game, state, caller)
        row, version, events, posts = await self._apply(
            row,
            game,
            state,
            seat,
            text,
            kind="action",
            user_id=caller.user_id,
            caller=caller,
            who=f"{caller.name} ({seat})",
        )
        posts = await self._after(row, game, state, version, posts, picture=self._wants_picture(game, events))
        return await self._run_bots(row, game, state, posts)

    async def _apply(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        state: Any,
        seat: str,
        text: str,
        *,
        kind: str,
        user_id: str,
        caller: Caller | None,
        who: str,  # "alice (fire)": the post reads "<who> plays `<move>`."
    ) -> tuple[SessionRow, int, list[Event], list[Post]]:
        """The one path every action takes, a person's, a bot's or a timed-out default: validate
        and apply, commit, then the posts in words with a picture for each phase it ran through."""
        action, events = game.act(state, seat, text)
        version = await self._commit(row, game, state, kind, seat, user_id, str(action), events)
        row = await self._session(row.id)
        posts = self._event_posts(row, game, f"{who} plays `{action}`.", events, caller)
        await self._attach_phase_pictures(row, game, events, posts)
        return row, version, events, posts

    async def _run_bots(
        self, row: SessionRow, game: Game[Any, Any], state: Any, posts: list[Post]
    ) -> list[Post]:
        """Bot seats move through the same path as people, until a person must act."""
        for _ in range(1000):
            if game.outcome(state) is not None:
                break
            bots = [s for s in row.seats if s.ai_level and s.seat in game.to_act(state).seats]
            if not bots:
                break
            bot = bots[0]
            dice = Dice(row.seed * 1_000_003 + row.version)
            work = game.copy(state)
            choice = await asyncio.to_thread(game.choose_action, work, bot.seat, bot.ai_level or "", dice)
            # One picture and one set of buttons for the whole reply: the bot's move follows the
            # person's at once, and buttons from before it would already be stale.
            for p in posts:
                if p.to is None:
                    p.images.clear()
                    p.choices.clear()
                    p.mentions.clear()
            row, version, _, more = await self._apply(
                row,
                game,
                state,
                bot.seat,
                str(choice),
                kind="action",
                user_id=BOT_USER,
                caller=None,
                who=f"The bot ({bot.seat}, {bot.ai_level})",
            )
            posts = await self._after(row, game, state, version, [*posts, *more], picture=True)
        return posts

    async def _apply_default(self, session_id: int) -> list[Post]:
        """A pending decision nobody answered in time: the rules' default is applied for them."""
        async with self._lock(session_id):
            row = await self._session(session_id)
            # Someone may have answered while this waited for the lock, opening a new decision
            # with a fresh deadline: only a deadline still past may be acted on.
            if row.deadline is None or row.deadline > self.clock():
                return []
            game, state = get_game(row.game), await self._state(row)
            turn = game.to_act(state)
            if row.status != "active" or turn.default is None or not turn.seats:
                await self.repo.update_session(row.id, row.version, deadline=None)
                return []
            seat = sorted(turn.seats)[0]
            row, version, events, posts = await self._apply(
                row,
                game,
                state,
                seat,
                turn.default,
                kind="timeout",
                user_id=BOT_USER,
                caller=None,
                who=f"Nobody answered in time, so the default was taken: {seat}",
            )
            posts = await self._after(
                row, game, state, version, posts, picture=self._wants_picture(game, events)
            )
            return await self._run_bots(row, game, state, posts)

    async def _commit(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        state: Any,
        kind: str,
        seat: str,
        user_id: str,
        notation: str,
        events: Sequence[Event],
    ) -> int:
        outcome = game.outcome(state)
        # Any new action cancels open undo votes.
        fields: dict[str, Any] = {"pending": {}, **await self._wait_fields(row, game, state)}
        if outcome is not None:
            fields.update(
                status="finished", outcome=outcome.to_json(), deadline=None, turn_since=None, remind_at=None
            )
        summary = " ".join(e.text for e in events if e.to is None)
        undoable = not any(e.random or e.reveals for e in events)
        return await self.repo.commit_action(
            row.id,
            row.version,
            kind=kind,
            seat=seat,
            user_id=user_id,
            notation=notation,
            summary=summary,
            undoable=undoable,
            state=game.to_json(state),
            **fields,
        )

    # ---- undo, resign --------------------------------------------------------------------

    async def _cmd_undo(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._active_row(caller)
        game = get_game(row.game)
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("Only seated players can undo.")
        async with self._lock(row.id):
            row = await self._still_active(row.id)
            effective = _effective(await self.repo.actions(row.id))
            if not effective:
                raise GameError("There is no move to undo yet.")
            voted = row.pending.get("undo_take")
            take = [a for a in effective if a.seq in voted] if voted else _takeback(effective, mine)
            take.sort(key=lambda a: a.seq)  # oldest first: the move asked about, then bot replies
            free = all(a.undoable for a in take) and take[0].seat in mine
            humans = {s.seat for s in row.seats if s.ai_level is None}
            votes = set(row.pending.get("undo_votes", [])) | set(mine)
            if not free and not humans <= votes:
                pending = {"undo_votes": sorted(votes), "undo_take": [a.seq for a in take]}
                await self.repo.update_session(row.id, row.version, pending=pending)
                row = await self._session(row.id)
                waiting = [s for s in row.seats if s.seat in humans - votes]
                why = (
                    "dice were rolled or hidden cards revealed"
                    if not all(a.undoable for a in take)
                    else "the move is not yours"
                )
                agree = Choice("Agree to undo", str(ButtonId(row.id, row.version, "u")), "danger")
                text = (
                    f"{caller.name} asks to undo `{take[0].notation}`. Since {why}, every seat must "
                    f"agree: waiting for {', '.join(s.user_name for s in waiting)}."
                )
                return [Post(row.channel, text, choices=[agree], mentions=[s.user_id for s in waiting])]
            keep = [a for a in effective if a not in take]
            state = self._replay(game, row, [(a.seat, a.notation) for a in keep])
            taken = ",".join(str(a.seq) for a in take)
            version = await self.repo.commit_action(
                row.id,
                row.version,
                kind="undo",
                seat=mine[0],
                user_id=caller.user_id,
                notation=f"undo {taken}",
                summary="",
                undoable=False,
                state=game.to_json(state),
                pending={},
                **await self._wait_fields(row, game, state),
            )
            row = await self._session(row.id)
            moves = ", ".join(f"`{a.notation}`" for a in take)
            posts = [Post(row.channel, f"{caller.name} took back {moves}.")]
            posts = await self._after(row, game, state, version, posts, picture=True)
            return await self._run_bots(row, game, state, posts)

    async def _cmd_resign(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._active_row(caller)
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("Only seated players can resign.")
        game = get_game(row.game)
        async with self._lock(row.id):
            row = await self._still_active(row.id)
            state = await self._state(row)
            others = {s.seat for s in row.seats} - set(mine)
            outcome: dict[str, Any]
            if game.cooperative or not others:
                reason = f"{caller.name} conceded for the group."
                outcome = {"winners": [], "losers": sorted(s.seat for s in row.seats), "reason": reason}
            else:
                reason = f"{caller.name} ({', '.join(mine)}) resigned."
                outcome = {"winners": sorted(others), "losers": sorted(mine), "reason": reason}
            await self.repo.commit_action(
                row.id,
                row.version,
                kind="resign",
                seat=mine[0],
                user_id=caller.user_id,
                notation="resign",
                summary=reason,
                undoable=False,
                state=game.to_json(state),
                status="finished",
                outcome=outcome,
                deadline=None,
                turn_since=None,
                remind_at=None,
            )
            return [Post(row.channel, f"{outcome['reason']} " + _result_line(row, outcome))]

    # ---- looking -------------------------------------------------------------------------

    async def _cmd_status(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._latest_row(caller)
        game = get_game(row.game)
        lines = [f"**{game.title}** — {row.status}. " + self._seat_lines(row, game)]
        if row.status != "lobby":
            state = await self._state(row)
            lines.append(game.describe(game.view(state, None)))
            if row.outcome:
                lines.append(_result_line(row, row.outcome))
            else:
                lines.append(self._turn_line(row, game, state))
        return [Post(caller.channel, "\n".join(lines))]

    async def _cmd_board(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._latest_row(caller)
        if row.status == "lobby":
            raise GameError("The game has not started yet; the board appears at /game start.")
        game, state = get_game(row.game), await self._state(row)
        post = Post(caller.channel, game.describe(game.view(state, None)))
        await self._attach_picture(row, game, state, post)
        return [post]

    async def _cmd_log(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._latest_row(caller)
        rows = await self.repo.actions(row.id)
        names = {s.seat: s.user_name for s in row.seats}
        lines = [
            f"{a.seq}. {a.seat} ({names.get(a.seat or '', '?')}): {a.notation}"
            + (f" — {a.summary}" if a.summary else "")
            for a in rows
        ]
        text = "\n".join(lines) or "No moves yet."
        return [_fit(Post(caller.channel, text), "log.txt")]

    async def _cmd_moves(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._active_row(caller)
        game, state = get_game(row.game), await self._state(row)
        seat = self._acting_seat(row, game, state, caller)
        legal = [str(a) for a in game.legal_actions(state, seat)]
        text = f"Your legal moves as {seat} ({len(legal)}):\n" + "\n".join(legal)
        return [_fit(Post(caller.channel, text, to=caller.user_id), "moves.txt")]

    async def _cmd_hand(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._active_row(caller)
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("You hold no seat in this game, so there is nothing private to show you.")
        game, state = get_game(row.game), await self._state(row)
        text = "\n\n".join(f"**{seat}**: " + game.describe(game.view(state, seat)) for seat in mine)
        return [_fit(Post(caller.channel, text, to=caller.user_id), "hand.txt")]

    async def _cmd_export(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._latest_row(caller)
        game = get_game(row.game)
        rows = await self.repo.actions(row.id)
        data: dict[str, Any] = {
            "game": game.id,
            "title": game.title,
            "options": row.options,
            "seed": row.seed,
            "status": row.status,
            "seats": [{"seat": s.seat, "player": s.user_name, "bot_level": s.ai_level} for s in row.seats],
            "log": [
                {
                    "seq": a.seq,
                    "kind": a.kind,
                    "seat": a.seat,
                    "notation": a.notation,
                    "summary": a.summary,
                    "at": a.at,
                }
                for a in rows
            ],
            "moves": [{"seat": a.seat, "notation": a.notation} for a in _effective(rows)],
            "outcome": row.outcome,
        }
        if row.status != "lobby":
            state = await self._state(row)
            # A finished game may reveal everything; a running one only what spectators see.
            data["final_state" if row.status == "finished" else "public_view"] = (
                game.to_json(state) if row.status == "finished" else game.view(state, None)
            )
        blob = json.dumps(data, indent=2).encode()
        return [
            Post(
                caller.channel,
                f"Export of the {game.title} game (session {row.id}).",
                to=caller.user_id,
                files=[Attachment(f"{game.id}-{row.id}.json", blob)],
            )
        ]

    async def _cmd_help(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        name = args.get("game", "").strip()
        if not name:
            lines = ["**Games**:"] + [f"• `{g.id}` — {g.title}: {g.blurb}" for g in all_games()]
            lines.append(
                "Open one with /game new game:<id>, take seats with /game join, then /game start. "
                "Move with /play (autocomplete lists your moves) or the buttons."
            )
            return [Post(caller.channel, "\n".join(lines), to=caller.user_id)]
        game = get_game(name)
        opts = "\n".join(
            f"• `{o.name}` ({'|'.join(o.choices)}, default {o.default}): {o.help}" for o in game.options
        )
        text = f"**{game.title}**\n{game.rules_help()}\n\n**Options**\n{opts or 'none'}"
        return [_fit(Post(caller.channel, text, to=caller.user_id), f"{game.id}-help.txt")]

    async def _cmd_settings(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        current = await self._settings_for(caller.guild)
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
        if not low <= number <= high:  # also refuses nan and inf
            unit = name.split("_")[1]
            raise OptionError(f"`{name}` must be between {low:g} and {high:g} {unit}, not `{value}`.")
        await self.repo.set_guild_setting(guild, name, f"{number:g}")
        return [Post(caller.channel, f"{caller.name} set {name} to {number:g}.")]

    # ---- helpers -------------------------------------------------------------------------

    async def _settings_for(self, guild: str | None) -> dict[str, str]:
        stored = await self.repo.guild_settings(guild) if guild else {}
        return {
            "reminder_hours": stored.get("reminder_hours", f"{self.settings.reminder_hours:g}"),
            "decision_minutes": stored.get("decision_minutes", f"{self.settings.decision_minutes:g}"),
        }

    @staticmethod
    def _guild_number(settings: dict[str, str], name: str) -> float:
        return float(settings[name])

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
    def _names(row: SessionRow, seats: frozenset[str]) -> str:
        return ", ".join(f"{s.seat} ({s.user_name})" for s in row.seats if s.seat in seats)

    @staticmethod
    def _game_list() -> str:
        return ", ".join(g.id for g in all_games())

    @staticmethod
    def _seat_lines(row: SessionRow, game: Game[Any, Any]) -> str:
        taken = {s.seat: s.user_name for s in row.seats}
        return (
            "Seats: "
            + ", ".join(f"{s}: {taken.get(s, '(free)')}" for s in game.seat_names(row.options))
            + "."
        )

    def _turn_line(self, row: SessionRow, game: Game[Any, Any], state: Any) -> str:
        turn = game.to_act(state)
        if turn.decision:
            return f"Decision for {self._names(row, turn.seats)}: {turn.prompt}"
        return f"To act: {self._names(row, turn.seats)}."

    @staticmethod
    def _wants_picture(game: Game[Any, Any], events: Sequence[Event]) -> bool:
        return game.picture_every_action or any(e.phase_end for e in events)

    async def _attach_phase_pictures(
        self, row: SessionRow, game: Game[Any, Any], events: Sequence[Event], posts: list[Post]
    ) -> None:
        """One picture per phase that ended inside an automated run (a spawn, an enemy phase):
        the game hands the public view of that moment in the event, as the final state has moved on."""
        views = [e.data["view"] for e in events if e.phase_end and "view" in e.data]
        public = next((p for p in reversed(posts) if p.to is None), None)
        if public is None:
            return
        # The last phase picture is the final state's, which _after attaches; keep to Discord's 10 files.
        for view in views[:-1][-9:]:
            await self._render_into(row, game, view, public)

    def _event_posts(
        self, row: SessionRow, game: Game[Any, Any], lead: str, events: Sequence[Event], caller: Caller | None
    ) -> list[Post]:
        public = [e.text for e in events if e.to is None and e.text]
        posts = [_fit(Post(row.channel, "\n".join([lead, *public])), "events.txt")]
        if caller is not None:
            mine = set(row.seat_of(caller.user_id))
            private = [e.text for e in events if e.to is not None and e.to & mine]
            if private:
                posts.append(_fit(Post(row.channel, "\n".join(private), to=caller.user_id), "private.txt"))
        return posts

    async def _after(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        state: Any,
        version: int,
        posts: list[Post],
        *,
        picture: bool,
    ) -> list[Post]:
        """Add the picture, the result or the turn notice with buttons, to the last public post."""
        public = next((p for p in reversed(posts) if p.to is None), None)
        if public is None:
            public = Post(row.channel, "")
            posts.append(public)
        outcome = game.outcome(state)
        if picture or outcome is not None:
            await self._attach_picture(row, game, state, public)
        if outcome is not None:
            public.text += "\n" + _result_line(row, outcome.to_json())
            return posts
        turn = game.to_act(state)
        waiting = self._humans(row, turn.seats)
        if not waiting:
            return posts
        if turn.decision:
            notice = f"{turn.prompt} ({self._names(row, turn.seats)})"
            if turn.default:
                minutes = self._guild_number(await self._settings_for(row.guild), "decision_minutes")
                notice += f" — if nobody answers within {minutes:g} minutes, `{turn.default}` is taken."
        else:
            notice = f"Your turn: {self._names(row, turn.seats)}."
        public.text += "\n" + notice
        public.mentions = [s.user_id for s in waiting]
        hand = Choice("Show my hand", str(ButtonId(row.id, 0, "h")), "success")
        if game.has_hands and not turn.decision:
            # A menu built from one seat's legal moves names the cards in its hand, and would show
            # them to the whole channel; each player opens their own menu privately instead.
            move = Choice("Choose my move", str(ButtonId(row.id, version, "p", "0 ")), "primary")
            public.choices = [move, hand]
            public.placeholder = ""
        else:
            # A decision the rules hand the players (a tie, a reroll) holds no private card: its
            # answers go straight on the public post.
            legal = [str(a) for a in game.legal_actions(state, waiting[0].seat)]
            public.choices, public.placeholder = menu(row.id, version, legal)
            if game.has_hands:
                public.choices.append(hand)
        return posts

    async def _attach_picture(self, row: SessionRow, game: Game[Any, Any], state: Any, post: Post) -> None:
        await self._render_into(row, game, game.view(state, None), post)

    async def _render_into(
        self, row: SessionRow, game: Game[Any, Any], view: dict[str, Any], post: Post
    ) -> None:
        if self.renderer is None:
            return
        names = {s.seat: s.user_name for s in row.seats}
        try:
            if self.renderer is render_board:
                # The shipped renderer runs in worker processes; one handed in (tests, tools)
                # runs in a thread. Either way the event loop stays free.
                png = await pictures.draw(game.id, view, names)
            else:
                png = await asyncio.to_thread(self.renderer, game.id, view, names)
        except Exception:  # a failed picture must never lose the action it follows
            log.exception("rendering %s session %s failed", game.id, row.id)
            return
        post.images.append(Attachment(f"{game.id}-{row.id}-{row.version}-{len(post.images) + 1}.png", png))


def check_content(settings: Settings) -> None:
    """Validate every game's content before serving anyone: a malformed file stops the start
    with its name, entry and field, rather than failing in the middle of a game."""
    for game in all_games():
        folder = Path(settings.content_dir) / game.id if settings.content_dir else None
        game.check_content(str(folder) if folder and folder.is_dir() else None)


def _effective(rows: Sequence[Any]) -> list[Any]:
    """The moves still in force: actions and timeouts, less those an undo row took back."""
    taken: set[int] = set()
    for a in rows:
        if a.kind == "undo":
            taken |= {int(x) for x in a.notation.split()[1].split(",")}
    return [a for a in rows if a.kind in ("action", "timeout") and a.seq not in taken]


def _matches(typed: Sequence[str], words: Sequence[str]) -> bool:
    """Each typed word starts some word of the move, in order: `e a3` finds `earth a3 east`."""
    i = 0
    for t in typed:
        while i < len(words) and not words[i].startswith(t):
            i += 1
        if i == len(words):
            return False
        i += 1
    return True


def _takeback(effective: Sequence[Any], mine: Sequence[str]) -> list[Any]:
    """What an undo takes back, newest first: the caller's last move and the bot replies after it;
    if a person moved since, just that last move (it then needs every seat's consent)."""
    take: list[Any] = []
    for a in reversed(effective):
        take.append(a)
        if a.seat in mine:
            return take
        if a.user_id != BOT_USER:
            return [a]
    return take


def _parse_options(text: str) -> dict[str, str]:
    """`layout=random first:random` → {"layout": "random", "first": "random"}."""
    out: dict[str, str] = {}
    for word in text.replace(",", " ").split():
        key, sep, value = word.replace(":", "=", 1).partition("=")
        if not sep or not key or not value:
            raise OptionError(f"Options are name=value pairs (e.g. `layout=random`); `{word}` is not one.")
        out[key] = value
    return out


def _result_line(row: SessionRow, outcome: dict[str, Any]) -> str:
    names = {s.seat: s.user_name for s in row.seats}
    winners = [f"{w} ({names.get(w, '?')})" for w in outcome.get("winners", [])]
    if winners:
        return f"**Game over** — {' and '.join(winners)} won. {outcome.get('reason', '')}".strip()
    if outcome.get("losers"):
        return f"**Game over** — the game is lost. {outcome.get('reason', '')}".strip()
    return f"**Game over** — a draw. {outcome.get('reason', '')}".strip()


def _fit(post: Post, filename: str) -> Post:
    """Keep a post under Discord's text limit: long text moves into an attached file."""
    if len(post.text) <= MAX_TEXT:
        return post
    head = post.text[: MAX_TEXT - 60].rsplit("\n", 1)[0]
    post.files.append(Attachment(filename, post.text.encode()))
    post.text = head + f"\n… (the rest is in {filename})"
    return post
