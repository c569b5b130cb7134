"""The lobby: opening a game, taking and leaving seats, seating the bot, starting and abandoning."""

from __future__ import annotations

import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from bot.commands import BY_NAME
from bot.config import Settings
from bot.host import seating
from bot.host.announce import Announcer, forget_turn
from bot.host.core import BOT_USER, TOO_FAST, check_lengths, log, private
from bot.host.gate import Gate
from bot.host.play import Play
from bot.host.server import ALL, ServerSettings
from bot.host.sessions import Sessions
from bot.menus import whole_number
from bot.posts import Caller, Post
from bot.text import safe_name
from engine import Game, GameError, OptionError, get_game
from engine.fairness import commitment
from engine.game import RULES
from engine.words import a, agree, count, plural
from storage import ChannelBusy, LimitReached, Repository, SeatRow, StaleVersion

# How often a join that lost a race for the lobby's version is tried again on the fresh lobby.
JOIN_TRIES = 8
# How long a passed check_new holds its place among the caller's open lobbies: long enough for
# the frontend to open the thread and send the command, short enough that a place whose command
# never came (the thread could not be opened) is soon free again.
RESERVED_S = 60.0


@dataclass(frozen=True)
class NewGame:
    """A `/game new` that passed every check that can be made before anything is created."""

    game: Game[Any, Any]
    options: dict[str, str]
    seed: int
    seed_given: bool
    seat: SeatRow | None


class Lobby:
    """A game before it starts: opened, its seats taken and left, started or abandoned; and the
    caps on open lobbies and lobby seats."""

    def __init__(
        self,
        repo: Repository,
        settings: Settings,
        sessions: Sessions,
        server: ServerSettings,
        gate: Gate,
        announcer: Announcer,
        play: Play,
        resign: Callable[[Caller, dict[str, str]], Awaitable[list[Post]]],
    ) -> None:
        self.repo = repo
        # /vote resign: what the opener's /game abandon of a game with other people in it becomes.
        self.resign = resign
        self.settings = settings
        self.sessions = sessions
        self.server = server
        self.gate = gate
        self.announcer = announcer
        self.play = play
        # Per user: when each place reserved by a passed check_new lapses (oldest first). A burst
        # of /game new thread:yes all checks at once, before any game exists; without these each
        # would pass and open its thread, and only the cap's worth of games would follow.
        # Each: (when it lapses, whether the game will seat its opener).
        self._reserved: dict[str, list[tuple[float, bool]]] = {}

    async def check_new(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """What `/game new` with `args` would refuse now, as its private answer, or nothing: the
        rate limit, the game, its options, the seed, the seat, the caller's lobby and seat caps.
        A frontend asks before a side effect of its own that comes first (opening a thread), so a
        refused command leaves nothing behind. A refusal counts against the rate limit; a pass
        does not (the command itself will)."""
        caller = replace(caller, name=safe_name(caller.name))
        if not self.gate.within_rate(caller, count=False):
            log.info("rate-limited new-game check from %s", caller.user_id)
            return [private(caller, TOO_FAST)]
        # The place is taken before the first await, so checks running at once each count the
        # places taken before theirs; a refused check gives its place back.
        held = list(self._held(caller.user_id))
        place = (self.gate.clock() + RESERVED_S, bool(args.get("seat")))
        self._reserved.setdefault(caller.user_id, []).append(place)
        try:
            check_lengths(args)
            await self._plan_new(caller, args, len(held), sum(seated for _, seated in held))
        except GameError as exc:
            log.info("refused new-game check from %s: %s", caller.user_id, type(exc).__name__)
            self.gate.within_rate(caller)
            mine = self._reserved.get(caller.user_id, [])
            if place in mine:
                mine.remove(place)
            return [private(caller, str(exc))]
        return []

    def _held(self, user_id: str) -> list[tuple[float, bool]]:
        """Places `user_id` holds by passed checks whose command has not come yet."""
        now = self.gate.clock()
        held = [p for p in self._reserved.pop(user_id, []) if p[0] > now]
        if held:
            self._reserved[user_id] = held
        return held

    def _release(self, user_id: str) -> None:
        """The command a check reserved for has come: its place is its own game's now."""
        if self._held(user_id):
            self._reserved[user_id].pop(0)
            if not self._reserved[user_id]:
                del self._reserved[user_id]

    async def _plan_new(
        self, caller: Caller, args: dict[str, str], reserved: int = 0, reserved_seats: int = 0
    ) -> NewGame:
        name = args.get("game", "").strip()
        if not name:
            raise GameError(f"Name a game: /game new game:<id>. Games: {seating.game_list()}.")
        game = get_game(name)
        await self._check_server_allows(caller, game)
        raw = parse_options(args.get("options", ""))
        # Any argument that is not one of /game new's own parameters is a game option (console style).
        own = {p.name for p in BY_NAME["new"].params}
        raw.update({k: v for k, v in args.items() if k not in own})
        if RULES in {k.strip().lower() for k in raw}:
            raise OptionError(
                f"`{RULES}` is not an option: a new game is played under the bot's current rules. "
                f"Options of {game.title}: {', '.join(o.name for o in game.options) or 'none'}."
            )
        options = game.session_options(raw)
        seed_text = args.get("seed", "").strip()
        if seed_text and not whole_number(seed_text):
            raise OptionError(f"The seed must be a whole number (up to 18 digits), not `{seed_text[:40]}`.")
        # A game with hidden information draws its seed in secret and publishes only a commitment
        # (engine/fairness.py): the seed would let anyone replay the public log into every hand.
        seed = int(seed_text) if seed_text else fresh_seed(game)
        seat = None
        if args.get("seat"):
            seat = SeatRow(
                seating.pick_seat(game, options, [], args["seat"]), caller.user_id, caller.name, None
            )
        await self._check_lobby_cap(caller, reserved)
        if seat is not None:
            await self._check_seat_cap(caller.user_id, caller.guild, reserved=reserved_seats)
        return NewGame(game, options, seed, bool(seed_text), seat)

    async def cmd_new(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        self._release(caller.user_id)
        new = await self._plan_new(caller, args)
        game, options, seed = new.game, new.options, new.seed
        try:
            # The caps are counted again in the insert's own transaction: a burst of /game new
            # from one user all passes the check above at once, and only the cap's worth opens.
            await self.repo.create_session(
                guild=caller.guild,
                channel=caller.channel,
                game=game.id,
                options=options,
                seed=seed,
                host_user=caller.user_id,
                seat=new.seat,
                max_open_lobbies=self.settings.max_open_lobbies,
                max_lobby_seats=await self.server.lobby_seats(caller.guild),
            )
        except LimitReached as exc:
            raise GameError(cap_text(exc)) from None
        except ChannelBusy:
            row = await self.repo.open_session_in(caller.channel)
            what = f"{a(get_game(row.game).title + ' game')} ({row.status})" if row else "an open game"
            raise GameError(
                f"This channel already has {what}. Finish or /game abandon it first, "
                "or open the new game in another channel or thread."
            ) from None
        row = await self.sessions.open_row(caller)
        opts = ", ".join(f"{k}={v}" for k, v in options.items() if k != RULES) or "none"
        lo, hi = game.seat_range(options)
        # The seats are said once, with who holds them; then how many are needed and how to join.
        needed = f"{lo}" if lo == hi else f"{lo}–{hi}"
        text = (
            f"{caller.name} opened a game of **{game.title}** (options: {opts}; "
            f"{seed_line(game, seed, given=new.seed_given)}).\n"
            f"{seating.seat_lines(row, game)} {needed} {plural('seat', hi)} to fill to start. "
            "Join with /game join"
            + (
                f"; seat the bot with /seat ai seat:<seat> level:<{'|'.join(game.ai_levels)}>"
                if game.ai_levels
                else ""
            )
            + ", then /game start."
        )
        return [Post(caller.channel, text)]

    async def _check_server_allows(self, caller: Caller, game: Game[Any, Any]) -> None:
        """The server's controls (docs/operating.md, "Server controls"): the games it allows, the
        channels it allows them in (a thread by the channel it belongs to), and its cap on games
        open at once."""
        if caller.guild is None:
            return
        current = await self.server.of(caller.guild)
        games = current["games"].split(",")
        if current["games"] != ALL and game.id not in games:
            raise GameError(
                f"This server does not open {game.title}; it allows: {', '.join(games)} "
                "(its managers choose them with /game settings name:games)."
            )
        channels = current["channels"].split(",")
        if current["channels"] != ALL and (caller.parent or caller.channel) not in channels:
            where = ", ".join(f"<#{c}>" if c.isdigit() else f"#{c}" for c in channels)
            raise GameError(f"Games are opened in {where} in this server, not here.")
        cap = int(float(current["max_games"]))
        if cap:
            opened = len(await self.repo.open_sessions_in(guild=caller.guild))
            if opened >= cap:
                raise GameError(
                    f"This server has {count(opened, 'game')} open, as many as it allows at once "
                    f"({cap}, its max_games). Finish or abandon one first."
                )

    async def _check_lobby_cap(self, caller: Caller, reserved: int = 0) -> None:
        opened = await self.repo.count_open_lobbies(caller.user_id) + reserved
        if opened >= self.settings.max_open_lobbies:
            raise GameError(cap_text(LimitReached("open lobbies", opened, self.settings.max_open_lobbies)))

    async def _check_seat_cap(
        self, user_id: str, guild: str | None, whose: str = "You", reserved: int = 0
    ) -> None:
        held = await self.repo.count_lobby_seats(user_id, guild) + reserved
        limit = await self.server.lobby_seats(guild)
        if held >= limit:
            raise GameError(cap_text(LimitReached("lobby seats", held, limit), whose))

    async def cmd_rematch(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """A new lobby in this channel with the last game's seats and options and a new seed; two
        players swap seats (colours), so whoever moved second moves first."""
        last = await self.sessions.latest_row(caller)
        if last.status in ("lobby", "active"):
            raise GameError("This channel's game is still open; a rematch follows a finished game.")
        if not any(s.user_id == caller.user_id for s in last.seats) and caller.user_id != last.host_user:
            raise GameError("Only a player of the last game (or its opener) can ask for the rematch.")
        game = get_game(last.game)
        await self._check_server_allows(caller, game)
        await self._check_lobby_cap(caller)
        seats = list(last.seats)
        swapped = not game.is_cooperative(last.options) and len(seats) == 2
        if swapped:
            a, b = seats
            seats = [replace(a, seat=b.seat), replace(b, seat=a.seat)]
        seed = fresh_seed(game)
        try:
            await self.repo.create_session(
                guild=caller.guild,
                channel=caller.channel,
                game=game.id,
                # The rematch is played under the bot's current rules, whatever the last game's were.
                options=game.session_options({k: v for k, v in last.options.items() if k != RULES}),
                seed=seed,
                host_user=caller.user_id,
                seat=None,
                max_open_lobbies=self.settings.max_open_lobbies,
            )
        except LimitReached as exc:
            raise GameError(cap_text(exc)) from None
        except ChannelBusy:
            raise GameError("Someone opened a game here first; the rematch was not opened.") from None
        row = await self.sessions.open_row(caller)
        cap = await self.server.lobby_seats(caller.guild)
        left_out: list[SeatRow] = []
        for seat in sorted(seats, key=lambda s: s.seat):
            try:
                await self.repo.take_seat(row.id, row.version, seat, max_lobby_seats=cap)
            except LimitReached:
                left_out.append(seat)
            row = await self.sessions.open_row(caller)
        seats = [s for s in seats if s not in left_out]
        text = (
            f"{caller.name} asks for a rematch of **{game.title}** ({seed_line(game, seed, given=False)}). "
            "Same options; "
            + ("seats swapped. " if swapped else "same seats. ")
            + "/game start when ready, /game leave to drop out.\n"
            + "".join(
                f"{s.user_name} was not seated: they hold as many seats in games waiting to start "
                f"as the server allows ({cap}).\n"
                for s in left_out
            )
            + seating.seat_lines(row, game)
        )
        mentions = sorted({s.user_id for s in seats if s.ai_level is None} - {caller.user_id})
        return [Post(caller.channel, text, mentions=mentions)]

    async def cmd_join(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        wanted = args.get("seat", "")
        # People join at the same moment when a lobby is announced: a join that lost the race for
        # the version tries again on the fresh lobby (another free seat, or a clear answer).
        for _ in range(JOIN_TRIES):
            row = await self.sessions.open_row(caller)
            if row.status != "lobby":
                raise GameError(
                    "This game has already started; seats are fixed. Watch along, or open a game elsewhere."
                )
            game = get_game(row.game)
            if row.seat_of(caller.user_id) and not wanted:
                raise GameError(f"You already hold {', '.join(row.seat_of(caller.user_id))}.")
            seat = seating.pick_seat(game, row.options, [s.seat for s in row.seats], wanted)
            try:
                await self.repo.take_seat(
                    row.id,
                    row.version,
                    SeatRow(seat, caller.user_id, caller.name, None),
                    max_lobby_seats=await self.server.lobby_seats(row.guild),
                )
            except StaleVersion:
                continue
            except LimitReached as exc:
                raise GameError(cap_text(exc)) from None
            row = await self.sessions.open_row(caller)
            text = f"{caller.name} takes the {seat} seat.\n"
            text += game.joined_help(seat, len(row.seats), row.options)
            return [Post(caller.channel, text + seating.seat_lines(row, game))]
        raise GameError("Many people are joining at once; try /game join again in a moment.")

    async def cmd_ai(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.open_row(caller)
        game = get_game(row.game)
        if not game.ai_levels:
            raise GameError(f"{game.title} has no bot player.")
        if row.status != "lobby":
            raise GameError("Seats are fixed once the game has started.")
        if not seating.organises(row, caller):
            raise GameError("Only the player who opened this game or a seated player can seat the bot.")
        level = (args.get("level") or game.ai_levels[len(game.ai_levels) // 2]).strip().lower()
        if level not in game.ai_levels:
            raise OptionError(f"`{level}` is not a bot level; choose one of: {', '.join(game.ai_levels)}.")
        seat = seating.pick_seat(game, row.options, [s.seat for s in row.seats], args.get("seat", ""))
        await self.repo.take_seat(row.id, row.version, SeatRow(seat, BOT_USER, f"bot ({level})", level))
        row = await self.sessions.open_row(caller)
        return [
            Post(
                caller.channel, f"The bot ({level}) takes the {seat} seat.\n" + seating.seat_lines(row, game)
            )
        ]

    async def cmd_leave(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.open_row(caller)
        if row.status != "lobby":
            raise GameError("The game has started; use /vote resign to leave it.")
        wanted = seating.seat_word(row, args.get("seat", ""))
        bot = row.seat_row(wanted) if wanted else None
        if bot is not None and bot.ai_level is not None:
            # The bot's seat is freed by whoever organises the game (it cannot leave by itself).
            if not seating.organises(row, caller):
                raise GameError("Only the player who opened this game or a seated player can unseat the bot.")
            await self.repo.free_seat(row.id, row.version, bot.seat)
            row = await self.sessions.open_row(caller)
            text = f"{caller.name} takes the bot out of the {bot.seat} seat.\n"
            return [Post(caller.channel, text + seating.seat_lines(row, get_game(row.game)))]
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise GameError("You hold no seat in this game.")
        if wanted and wanted not in mine:
            raise GameError(f"You do not hold the {wanted} seat; you hold {', '.join(mine)}.")
        seat = wanted or mine[0]
        await self.repo.free_seat(row.id, row.version, seat)
        row = await self.sessions.open_row(caller)
        text = f"{caller.name} leaves the {seat} seat.\n"
        return [Post(caller.channel, text + seating.seat_lines(row, get_game(row.game)))]

    async def cmd_start(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.open_row(caller)
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
                f"{game.title} needs {lo if lo == hi else f'{lo}–{hi}'} seats filled to start; "
                f"{len(row.seats)} {agree(len(row.seats), 'be')}. "
                f"Free seats: {', '.join(free)}."
            )
        async with self.sessions.lock(row.id):
            seats = seating.seat_order(game, row)
            state = game.setup(seats, row.options, row.seed)
            version = await self.repo.store_state(
                row.id,
                row.version,
                game.to_json(state),
                frames=[("the dealt position", game.view(state, None))],
                status="active",
                **await self.server.wait_fields(row, game, state),
            )
            row = await self.sessions.session(row.id)
            text = (
                f"**{game.title}** begins. Seats: "
                + ", ".join(f"{seating.title(row, s.seat)}: {s.user_name}" for s in row.seats)
                + "."
            )
            posts = await self.announcer.after(
                row, game, state, version, [Post(row.channel, text)], picture=True
            )
            return await self.play.run_bots(row, game, state, posts)

    async def cmd_abandon(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """Close the game without a result: a lobby, or a running game only its opener plays
        against the bot, by the opener; any game by a server manager. A running game with other
        people in it is not the opener's to void (it would dodge a loss): for a seated opener the
        command is their resignation, asked and confirmed as /vote resign is (a vote of the group
        in a co-operative game)."""
        row = await self.sessions.open_row(caller)
        moderator = await self.server.moderates(caller)
        if caller.user_id != row.host_user and not moderator:
            raise GameError(
                "Only the player who opened this game or someone with Manage Server (or the "
                "server's moderator role) can abandon it."
            )
        others = [s for s in row.seats if s.ai_level is None and s.user_id != caller.user_id]
        if row.status == "active" and others and not moderator:
            if row.seat_of(caller.user_id):
                return await self.resign(caller, {})
            raise GameError(
                "Other people are playing this game, so it is not the opener's to close: its players "
                "can resign (/vote resign), and someone with Manage Server can stop it."
            )
        await self.repo.update_session(row.id, row.version, status="abandoned", deadline=None, remind_at=None)
        await forget_turn(self.repo, row.id)
        return [
            Post(
                caller.channel,
                f"{caller.name} abandoned the {get_game(row.game).title} game. "
                "The channel is free for a new one.",
            )
        ]


def cap_text(exc: LimitReached, whose: str = "You") -> str:
    """The refusal for a cap storage reached (see Repository.create_session)."""
    if exc.what == "open lobbies":
        return (
            f"You already have {count(exc.held, 'game')} waiting to start (at most {exc.limit}). "
            "Start one, or /game abandon one you no longer need."
        )
    verb = "hold" if whose == "You" else "holds"
    return (
        f"{whose} already {verb} {count(exc.held, 'seat')} in games waiting to start in this server (at "
        f"most {exc.limit}, the server's lobby_seats). A game must start, or a seat be left "
        "(/game leave), first."
    )


def parse_options(text: str) -> dict[str, str]:
    """`layout=random first:random` → {"layout": "random", "first": "random"}. Pairs are parted by
    spaces or commas; a word without `=` goes on the value before it, so a list value keeps its
    commas and its names' spaces (`market=fire arrow,unicorn,flail`)."""
    out: dict[str, str] = {}
    key = ""
    for word in re.sub(r"\s*,\s*", ",", text).split():
        for m, part in enumerate(word.split(",")):
            name, sep, value = part.replace(":", "=", 1).partition("=")
            if sep and name and value:
                key, out[name] = name, value
            elif not sep and key and part:
                out[key] += ("," if m else " ") + part
            elif part:
                raise OptionError(
                    f'Options are name=value pairs (`options:"name=value name=value"`); `{word}` is not one.'
                )
    return out


def fresh_seed(game: Game[Any, Any]) -> int:
    """A game with hidden information draws its seed in secret and publishes only a commitment
    (engine/fairness.py): the seed would let anyone replay the public log into every hand."""
    return secrets.randbits(63) if game.has_hands else secrets.randbelow(2**31)


def seed_line(game: Game[Any, Any], seed: int, *, given: bool) -> str:
    if not game.has_hands:
        return f"seed {seed}"
    if given:
        return (
            f"seed {seed}, chosen by a player: anyone who knows a chosen seed could work out "
            "every hidden card and draw, so this game is played with **open hands**"
        )
    return (
        f"secret seed, commitment `{commitment(game.id, seed)}`: /game export reveals the "
        "seed when the game ends, so anyone can check the deal"
    )
