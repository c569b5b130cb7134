"""The host the frontends talk to: it builds the collaborators, each given what it needs by name,
and routes every command and press to the one that owns it, through one guard (the rate limit,
refusals as private answers, the bounds on what one command posts, the last word on pings)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any, Self

from bot import metrics
from bot.commands import BY_NAME, PLAY
from bot.config import Settings
from bot.host.announce import Announcer
from bot.host.away import Away
from bot.host.blocks import Blocks
from bot.host.controls import Controls
from bot.host.core import BOARD_KEY, TOO_FAST, bounded, check_lengths, log, matches, private
from bot.host.drawing import Animator, Drawing, Renderer
from bot.host.gate import Gate
from bot.host.lobby import Lobby
from bot.host.notices import Notices
from bot.host.notify import Notifications
from bot.host.options import Options
from bot.host.places import Places
from bot.host.play import Play
from bot.host.privacy import PrivacyRequests
from bot.host.queries import Queries
from bot.host.recap import Recaps
from bot.host.replay import Replays
from bot.host.seats import Seats
from bot.host.server import SETTING_NAMES, ServerSettings
from bot.host.sessions import Sessions
from bot.host.suggest import Suggestions
from bot.host.terms import HAND, TURN, explained
from bot.host.votes import Votes
from bot.menus import ButtonId
from bot.posts import Caller, Post
from bot.text import discord_user, safe_name
from engine import GameError, all_games, get_game
from render import render_board
from storage import OwedPost, Repository, SessionRow, StaleVersion, StorageUnavailable

# Autocomplete's rate bucket: its own key prefix, and how many times the command budget it gets.
AUTOCOMPLETE = "autocomplete:"
AUTOCOMPLETE_FACTOR = 10
# How often the tick looks for finished games past KEEP_FINISHED_DAYS (a batch each time).
PRUNE_EVERY_S = 3600.0
# How long closing waits for follow-up posts still being drawn (a replay takes well under a second):
# within the 8 seconds a graceful stop has (bot/discord_frontend.py SHUTDOWN_SECONDS).
CLOSE_GRACE_S = 2.0

Handler = Callable[[Caller, dict[str, str]], Awaitable[list[Post]]]


class Host:
    """One bot's host. Frontends call only its public methods."""

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
        # The host's clock; the console moves it on (/wait) by replacing it, so the collaborators
        # and storage read it through `now`.
        self.clock = clock
        now = self.now
        # Storage dates what it writes by the host's clock, even one replaced later.
        repo.clock = now
        self.sessions = Sessions(repo)
        self.server = ServerSettings(repo, settings, now)
        self.away = Away(repo, now)
        self.gate = Gate(settings, now, self.away)
        self.drawing = Drawing(renderer)
        self.replays = Replays(repo, self.sessions, self.drawing)
        self.follow_ups = self.replays.follow_ups
        self.announcer = Announcer(repo, self.server, self.away, self.drawing, self.replays, now)
        self.play = Play(repo, self.sessions, self.server, self.announcer, self.drawing, now)
        self.votes = Votes(repo, self.sessions, self.server, self.announcer, self.play)
        self.lobby = Lobby(
            repo,
            settings,
            self.sessions,
            self.server,
            self.gate,
            self.announcer,
            self.play,
            self.votes.cmd_resign,
        )
        self.seats = Seats(
            repo, self.sessions, self.server, self.lobby, self.announcer, self.play, now, user_ref
        )
        self.queries = Queries(
            repo, self.sessions, self.server, self.away, self.drawing, self.replays, now, user_ref
        )
        self.recaps = Recaps(repo, self.sessions, self.replays, self.drawing, now)
        self.suggestions = Suggestions(self.sessions)
        self.notices = Notices(repo, now)
        self.notifications = Notifications(
            repo, settings, self.server, self.sessions, self.away, self.gate, self.play, self.notices, now
        )
        self.places = Places(repo, self.sessions)
        self._next_prune = 0.0  # when the tick next removes old finished games' logs
        self.privacy = PrivacyRequests(repo, settings, self.sessions, self.replays, self.notices, now)
        self.blocks = Blocks(repo)
        self.controls = Controls(repo, settings, self.server, self.notices, self.blocks, user_ref)
        self.options = Options(repo, self.sessions, self.announcer, self.controls.cmd_settings, now)
        q, lobby, seats, votes = self.queries, self.lobby, self.seats, self.votes
        self._commands: dict[str, Handler] = {
            "play": self.play.cmd_play,
            "new": lobby.cmd_new,
            "join": seats.cmd_join,
            "ai": seats.cmd_ai,
            "leave": lobby.cmd_leave,
            "start": lobby.cmd_start,
            "abandon": lobby.cmd_abandon,
            "rematch": lobby.cmd_rematch,
            "claim": seats.cmd_claim,
            "replace": seats.cmd_replace,
            "away": self.away.cmd_away,
            "undo": votes.cmd_undo,
            "resign": votes.cmd_resign,
            "recap": self.recaps.cmd_recap,
            "replay": self.replays.cmd_replay,
            "status": q.cmd_status,
            "board": q.cmd_board,
            "log": q.cmd_log,
            "card": q.cmd_card,
            "market": q.cmd_market,
            "mine": q.cmd_mine,
            "stats": q.cmd_stats,
            "moves": q.cmd_moves,
            "hand": q.cmd_hand,
            "export": q.cmd_export,
            "help": q.cmd_help,
            "settings": self.options.cmd_settings,
            "mydata": self.privacy.cmd_mydata,
            "forgetme": self.privacy.cmd_forgetme,
            "notice": self.controls.cmd_notice,
            "block": self.controls.cmd_block,
            "unblock": self.controls.cmd_unblock,
        }

    def now(self) -> float:
        return self.clock()

    @property
    def renderer(self) -> Renderer | None:
        return self.drawing.renderer

    @renderer.setter
    def renderer(self, renderer: Renderer | None) -> None:
        self.drawing.renderer = renderer

    @property
    def animator(self) -> Animator:
        return self.drawing.animator

    @animator.setter
    def animator(self, animator: Animator) -> None:
        self.drawing.animator = animator

    @classmethod
    async def open(cls, settings: Settings, **kwargs: Any) -> Self:
        host = cls(await Repository.open(settings.db_path), settings, **kwargs)
        await host.blocks.refresh()
        return host

    async def close(self) -> None:
        await self.follow_ups.settle(CLOSE_GRACE_S)
        await self.drawing.close()
        await self.repo.close()

    async def warm_up(self) -> None:
        """Start now what the first interactions would otherwise wait for: the picture workers
        (starting them costs about a second of CPU, see bot/pictures.py)."""
        await self.drawing.start()

    async def database_problem(self) -> str | None:
        """For the health check: None when the database answers a query and takes writes, else
        what is wrong in a few words (no address: the answer may be read from other machines)."""
        if self.repo.refusing_writes:
            return "refusing writes: it failed its integrity check (the log says how)"
        try:
            await metrics.timed(metrics.get().storage_seconds.labels("ping"), self.repo.schema_version())
        except Exception as exc:
            return f"unreachable ({type(exc).__name__})"
        return None

    async def refresh_metrics(self) -> None:
        """Before a scrape: the games in play, by game, as the database holds them (every process
        sharing it reports the same counts), each registered game's count shown, 0 too."""
        counts = await self.repo.active_games()
        for game in all_games():
            metrics.get().games_active.labels(game.id).set(counts.get(game.id, 0))

    async def owe_post(self, channel: str, parts: str, since: float, attempts: int, lease_s: float) -> str:
        return await self.places.owe_post(channel, parts, since, attempts, lease_s)

    async def claim_owed_posts(self, lease_s: float) -> list[OwedPost]:
        return await self.places.claim_owed_posts(lease_s)

    async def owed_post_again(self, owed: str, parts: str, attempts: int) -> None:
        await self.places.owed_post_again(owed, parts, attempts)

    async def owed_post_done(self, owed: str) -> None:
        await self.places.owed_post_done(owed)

    async def owed_post_count(self) -> int:
        return await self.repo.owed_post_count()

    async def release_leases(self) -> int:
        """This process is stopping: the work it had leased passes to another at once."""
        return await self.repo.release_leases()

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
        caller = replace(caller, name=safe_name(caller.name), arrived=self.repo.tick())
        handler = self._commands.get(name) if name == PLAY.name or name in BY_NAME else None
        if handler is None:
            legal = ", ".join(["play", *BY_NAME])
            return [private(caller, f"There is no command `{safe_name(name)}`. Commands: {legal}.")]

        async def run() -> list[Post]:
            check_lengths(args)
            return await handler(caller, args)

        return await self._guarded(caller, name, run)

    async def press(self, caller: Caller, custom_id: str) -> list[Post]:
        caller = replace(caller, name=safe_name(caller.name))
        return await self._guarded(caller, "press", lambda: self._press(caller, custom_id))

    async def _press(self, caller: Caller, custom_id: str) -> list[Post]:
        bid = ButtonId.parse(custom_id)
        if bid is None:
            raise GameError("That button is not one of this bot's game buttons.")
        # With its state, in the same statement: most presses are moves, which need it.
        row, state = await self.sessions.session_and_state(bid.session)
        if row.channel != caller.channel:
            raise GameError("That button belongs to a game in another channel.")
        if bid.kind == "h":
            return await self.queries.cmd_hand(caller, {})
        if bid.kind == "l":
            return await self.queries.cmd_log(caller, {"page": bid.payload})
        if bid.kind == "m":
            return await self.lobby.cmd_rematch(caller, {})
        if bid.kind == "w":
            return await self.recaps.cmd_recap(caller, {})
        if bid.kind == "t" and bid.payload == TURN:
            return await self.turn_terms(caller, row, bid.version)
        if bid.kind == "t" and bid.payload == HAND:
            return await self.queries.hand_terms(caller, row, bid.version)
        if bid.kind == "g":
            return await self.suggestions.answer(caller, row, state)
        if bid.kind == "s":  # a seat handed on, in a lobby too
            return await self.seats.consent_to_replace(caller, row, bid.payload)
        if row.status != "active":
            raise GameError("That game is over; its buttons no longer act.")
        # Votes answer their proposal, whatever votes came since; each is checked under the lock.
        if bid.kind == "u":
            return await self.votes.cmd_undo(caller, {}, vote=bid.version)
        if bid.kind == "c":
            return await self.votes.concede_vote(caller, row, bid.version)
        if bid.kind == "r":
            return await self.votes.confirm_resign(caller, row, bid.version)
        return await self.play.press(caller, row, bid, state)

    async def turn_terms(self, caller: Caller, row: SessionRow, version: int) -> list[Post]:
        """The Terms button of a turn's message (started at `version`): its terms, explained."""
        names = await self.announcer.terms.of(row, version)
        if names is None:
            raise GameError(
                "That message is from an earlier turn, so its words are no longer listed. "
                "`/game card name:<term>` explains any card or word; the newest message has its own button."
            )
        return [private(caller, explained(get_game(row.game), names, "that message"))]

    async def autocomplete(self, caller: Caller, typed: str) -> list[str]:
        """Up to 25 of the caller's legal moves whose words start with what was typed, in order.
        Discord asks on every keystroke, so autocomplete has its own, larger budget; over it the
        list is empty (the command itself still works)."""
        if not self.gate.within_rate(
            caller, bucket=AUTOCOMPLETE, per_minute=AUTOCOMPLETE_FACTOR * self.settings.rate_limit_per_minute
        ):
            log.info("rate-limited autocomplete from %s", caller.user_id)
            return []
        row = await self.repo.open_session_in(caller.channel)
        if row is None or row.status != "active":
            return []
        game, state = get_game(row.game), await self.sessions.state(row)
        seats = [s for s in row.seat_of(caller.user_id) if s in game.to_act(state).seats]
        legal = [str(a) for s in seats for a in game.legal_actions(state, s)]
        words = typed.lower().split()
        hits = [n for n in legal if matches(words, n.split())]
        return hits[:25]

    async def card_choices(self, caller: Caller, typed: str, game_id: str = "") -> list[str]:
        """Autocomplete for /game card: every card and term of the game named, else of this
        channel's game, else of every game; those starting with what was typed first."""
        if not self.gate.within_rate(
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

    async def setting_choices(self, caller: Caller, typed: str, name: str = "") -> list[str]:
        """Autocomplete for /game settings: a setting's or a changeable option's name, or with
        `name` given, that option's values."""
        if not self.gate.within_rate(
            caller, bucket=AUTOCOMPLETE, per_minute=AUTOCOMPLETE_FACTOR * self.settings.rate_limit_per_minute
        ):
            return []
        # The server's setting names are fixed: no storage read on every keystroke.
        return await self.options.choices(caller, typed, name, SETTING_NAMES)

    async def check_new(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        blocked = self.blocks.refusal(caller)
        if blocked is not None:  # refused before the frontend opens a thread for it
            return [private(caller, blocked)]
        return await self.lobby.check_new(caller, args)

    def would_allow(self, caller: Caller) -> bool:
        """Whether a command from `caller` would pass the rate limit now, without counting it: the
        frontend asks before a side effect of its own (opening a thread) that comes first."""
        return self.gate.within_rate(caller, count=False)

    async def tick(self) -> list[Post]:
        try:
            with self.repo.remembering():
                try:
                    await self.blocks.refresh()
                except Exception:
                    log.exception("reading the operator's blocks failed; the last ones read still hold")
                posts = await self.notifications.tick()
                if self.now() >= self._next_prune:
                    self._next_prune = self.now() + PRUNE_EVERY_S
                    try:
                        await self.privacy.prune()
                    except Exception:
                        log.exception("removing the logs of old finished games failed; tried again later")
                return posts
        finally:
            self.follow_ups.start()

    async def follow_up_posts(self) -> list[Post]:
        """What follows the answers given so far, once drawn (see follow_ups): a frontend sends
        a command's answer first, then these."""
        return await self.follow_ups.ready()

    async def _guarded(
        self, caller: Caller, what: str, run: Callable[[], Awaitable[list[Post]]]
    ) -> list[Post]:
        # The fields of a JSON log line (bot/logs.py): ids and the command's name, never its text.
        fields = {"command": what, "user": caller.user_id, "channel": caller.channel}
        # The operator is never blocked: a block of their own server must not lock them out.
        blocked = None if caller.user_id in self.settings.operator_ids else self.blocks.refusal(caller)
        if blocked is not None:
            log.info("blocked %s on %s", caller.user_id, what, extra=fields)
            return [private(caller, blocked)]
        if not self.gate.within_rate(caller):
            log.info("rate-limited %s on %s", caller.user_id, what, extra=fields)
            return [private(caller, TOO_FAST)]
        try:
            return await self._answer(caller, what, run, fields)
        finally:
            self.follow_ups.start()  # what the command asked to follow it, once it is stored

    async def _answer(
        self, caller: Caller, what: str, run: Callable[[], Awaitable[list[Post]]], fields: dict[str, str]
    ) -> list[Post]:
        try:
            # Each stored key and server's settings is read at most once per command.
            with self.repo.remembering():
                posts = await run()
                return await self.gate.deliverable(bounded(posts, caller.channel), caller.user_id)
        except GameError as exc:
            # The kind only: a refusal's text can list the caller's legal moves, i.e. their private hand.
            log.info(
                "refused %s from %s in %s: %s",
                what,
                caller.user_id,
                caller.channel,
                type(exc).__name__,
                extra=fields,
            )
            return [private(caller, str(exc))]
        except StorageUnavailable as exc:
            # The database refused or could not be reached: nothing was written; say so plainly.
            log.warning(
                "storage unavailable on %s from %s: %s",
                what,
                caller.user_id,
                type(exc).__name__,
                extra=fields,
            )
            return [private(caller, str(exc))]
        except StaleVersion:
            log.info("stale %s from %s in %s", what, caller.user_id, caller.channel, extra=fields)
            return [
                private(
                    caller,
                    "The game moved on before that arrived; nothing was applied. "
                    "Use /game status or the newest buttons.",
                )
            ]
        except Exception:
            # A bug must not take the bot down or leave the user without an answer; storage
            # commits are atomic, so nothing half-applied is left behind.
            log.exception(
                "internal error on %s from %s in %s", what, caller.user_id, caller.channel, extra=fields
            )
            return [
                private(
                    caller,
                    "Sorry, something went wrong on the bot's side (it has been logged). "
                    "/game status shows the current position.",
                )
            ]

    # -- games whose place is gone, and what a frontend owes a channel (see places.py) ----------

    async def place_gone(self, *, channels: Sequence[str] = (), guild: str | None = None, why: str) -> int:
        return await self.places.place_gone(channels=channels, guild=guild, why=why)

    async def open_channels(self, guild: str) -> list[str]:
        return await self.places.open_channels(guild)

    async def open_places(self) -> list[tuple[str | None, str]]:
        return await self.places.open_places()

    async def opener_in(self, channel: str) -> tuple[str, str] | None:
        return await self.places.opener_in(channel)

    async def note_problem(self, channel: str, text: str, users: Sequence[str] | None) -> None:
        await self.places.note_problem(channel, text, users)

    async def take_notes(self, channel: str, user: str) -> list[str]:
        return await self.places.take_notes(channel, user)

    async def move_buttons(self, channel: str, newest: tuple[str, int] | None) -> None:
        await self.places.move_buttons(channel, newest)

    async def button_removals(self, limit: int = 100) -> list[tuple[str, str]]:
        return await self.places.button_removals(limit)

    async def button_removed(self, channel: str, message_id: str) -> None:
        await self.places.button_removed(channel, message_id)
