"""`/game settings name:<option> value:<value>`: the seated players of a co-operative game change,
while it runs, an option the game marks `in_play` (a standing answer of the group's, such as how
divine favor is spent). The same command sets the server's settings (the /game group has no room
for another subcommand, and both are a name and a value): a name the running game marks
changeable is the game's, any other the server's.

A change is stored with the new state in one step (a snapshot of its own, which moves the version
as an action does), and listed beside the game (meta key option_changes:<session>: who, when, from
what to what), so it survives a restart; the bot's log records it too. It is not a move: an undo
never takes it back, and re-applies it to the position it returns to. The channel hears it in one
post, which carries the turn's controls again (older buttons went stale with the version) and
pings nobody.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable
from typing import Any

from bot.host import seating
from bot.host.announce import Announcer
from bot.host.core import log, private
from bot.host.moves import effective_moves
from bot.host.sessions import Sessions
from bot.posts import Caller, Post
from engine import Game, GameError, OptionSpec, get_game
from engine.words import count
from storage import Repository, SessionRow

CHANGES_KEY = "option_changes:"  # meta key prefix: the session's changes of option, oldest first
# At most this many changes of option per game in CHANGE_WINDOW_S: each is a public post and makes
# everyone's buttons stale, so one player changing an option 40 times a minute floods the table.
CHANGES_PER_WINDOW = 3
CHANGE_WINDOW_S = 10 * 60


def in_play(game: Game[Any, Any]) -> list[OptionSpec]:
    """The options a game lets its players change while it runs."""
    return [o for o in game.options if o.in_play]


async def changes(repo: Repository, session: int) -> list[dict[str, Any]]:
    """The session's changes of option, oldest first: name, value, was, by, at, and the number of
    moves in force when it was made."""
    raw = await repo.meta_get(CHANGES_KEY + str(session))
    return list(json.loads(raw)) if raw else []


async def changed_in_play(repo: Repository, session: int) -> dict[str, str]:
    """Each option changed during the game, with its latest value."""
    return {c["name"]: c["value"] for c in await changes(repo, session)}


async def reapply(repo: Repository, game: Game[Any, Any], state: Any, session: int, kept: int) -> None:
    """An undo returns to a position from before a change of option: the change stays, in force
    from the position returned to (`kept` moves in force), so the export still replays."""
    history = await changes(repo, session)
    for change in history:
        change["moves"] = min(int(change.get("moves", kept)), kept)
    if history:
        await repo.meta_set(CHANGES_KEY + str(session), json.dumps(history))
    for name, value in (await changed_in_play(repo, session)).items():
        game.change_option(state, name, value)


class Options:
    def __init__(
        self,
        repo: Repository,
        sessions: Sessions,
        announcer: Announcer,
        server_settings: Callable[[Caller, dict[str, str]], Awaitable[list[Post]]],
        clock: Callable[[], float],
    ) -> None:
        self.repo = repo
        self.sessions = sessions
        self.announcer = announcer
        self.server_settings = server_settings
        self.clock = clock

    async def cmd_settings(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """A name the channel's running game lets its players change is the game's option; any
        other name is a server setting. Without a name: both lists."""
        name = args.get("name", "").strip().lower()
        try:
            row: SessionRow | None = await self.sessions.active_row(caller)
        except GameError:
            row = None
        if row is None:
            return await self.server_settings(caller, args)
        game = get_game(row.game)
        if name in {o.name for o in game.options}:
            if not game.is_cooperative(row.options):
                raise GameError("In a game between sides the options stay as they were when it was opened.")
            return await self.change(caller, row, game, name, args.get("value", "").strip())
        posts = await self.server_settings(caller, args)
        if not name and in_play(game) and game.is_cooperative(row.options):
            listing = await self._listing(game, row)
            posts.append(private(caller, f"This game's options the players may change: {listing}."))
        return posts

    async def choices(self, caller: Caller, typed: str, name: str, server: list[str]) -> list[str]:
        """Autocomplete for /game settings: without `name`, the names (`server`'s settings, and
        the options this channel's co-operative game lets its players change); with an option's
        name, its values. Those holding what was typed, at most 25."""
        row = await self.repo.open_session_in(caller.channel)
        changeable: list[OptionSpec] = []
        if row is not None and row.status == "active":
            game = get_game(row.game)
            changeable = in_play(game) if game.is_cooperative(row.options) else []
        name = name.strip().lower()
        spec = next((o for o in changeable if o.name == name), None)
        offered = list(spec.choices) if spec else [] if name else [*server, *(o.name for o in changeable)]
        return [v for v in offered if typed.strip().lower() in v][:25]

    async def _listing(self, game: Game[Any, Any], row: SessionRow) -> str:
        current = await self.current(game, row)
        return "; ".join(
            f"`{o.name}` ({'|'.join(o.choices)}, now `{current[o.name]}`)" for o in in_play(game)
        )

    async def current(self, game: Game[Any, Any], row: SessionRow) -> dict[str, str]:
        """The options in force: as the game was opened, with the changes made since."""
        values = game.validate_options(row.options)
        values.update(await changed_in_play(self.repo, row.id))
        return values

    def _check_pace(self, history: list[dict[str, Any]]) -> None:
        """Refuse a change past the game's pace (CHANGES_PER_WINDOW), saying when the next may be."""
        now = self.clock()
        recent = sorted(float(c["at"]) for c in history if float(c.get("at", 0)) > now - CHANGE_WINDOW_S)
        if len(recent) >= CHANGES_PER_WINDOW:
            wait = recent[-CHANGES_PER_WINDOW] + CHANGE_WINDOW_S - now
            minutes = max(1, math.ceil(wait / 60))
            raise GameError(
                f"This game's options may change at most {CHANGES_PER_WINDOW} times in "
                f"{CHANGE_WINDOW_S // 60} minutes, and they have; the next change can be made in "
                f"{count(minutes, 'minute')}."
            )

    async def change(
        self, caller: Caller, row: SessionRow, game: Game[Any, Any], name: str, value: str
    ) -> list[Post]:
        """Change one option of the running game, if the game lets its players and the caller is
        seated; a refusal is private and says what may be changed, to what."""
        spec = next((o for o in in_play(game) if o.name == name), None)
        if spec is None:
            listing = await self._listing(game, row)
            raise GameError(
                f"`{name}` is set when the game is opened. Options you can change now: {listing}."
            )
        mine = [s for s in row.seats if s.user_id == caller.user_id and s.ai_level is None]
        if not mine:
            raise GameError("Only the players seated in this game can change its options.")
        if not value:
            raise GameError(f"Give a value: /game settings name:{name} value:<{'|'.join(spec.choices)}>.")
        chosen = spec.validate(value)  # OptionError names the legal values
        async with self.sessions.lock(row.id):
            row = await self.sessions.still_active(row.id)
            state = await self.sessions.state(row)
            history = await changes(self.repo, row.id)
            self._check_pace(history)
            was = game.change_option(state, name, chosen)
            if was == chosen:
                return [private(caller, f"`{name}` is already `{chosen}`.")]
            who = seating.person_at(row, caller.name, mine[0].seat)
            # Players' words: the option's name as words and what the new value does, no notation.
            said = name.replace("_", " ")
            meaning = spec.meaning(chosen)
            text = f"{who} changed the {said} setting from {was} to {chosen}, from now on: {meaning}."
            version = await self.repo.store_state(row.id, row.version, game.to_json(state))
            # `moves`: how many moves were in force, so that seed + moves + changes replay (export).
            moves = len(effective_moves(await self.repo.actions(row.id)))
            done = {
                "name": name,
                "value": chosen,
                "was": was,
                "by": caller.user_id,
                "at": self.clock(),
                "moves": moves,
                "version": version,  # where migrate's replay check places it (bot/replay_check.py)
            }
            history = [*history, done]
            await self.repo.meta_set(CHANGES_KEY + str(row.id), json.dumps(history))
            log.info("session %s: %s set option %s from %s to %s", row.id, caller.user_id, name, was, chosen)
            row = await self.sessions.session(row.id)
            posts = await self.announcer.after(
                row, game, state, version, [Post(row.channel, text)], picture=False, continuing=True
            )
            for post in posts:
                post.mentions = []  # a change of option hands nobody the turn
            return posts
