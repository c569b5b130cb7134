"""Reading sessions and their states, and the per-session lock every change is made under."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.host import seating
from bot.posts import Caller
from engine import Game, GameError, get_game
from engine.game import RULES
from storage import ActionRow, Repository, SessionRow


class Sessions:
    """The host's way to a session: found by id or by channel, its state loaded or replayed, and
    one lock per session."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        # One lock per session keeps this process from computing two actions on one version;
        # the version check in storage covers everything else (other processes, stale buttons).
        # Weak: a session's lock lives while someone holds or awaits it, so months of games do
        # not leave one behind per session ever played.
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @asynccontextmanager
    async def lock(self, session_id: int) -> AsyncIterator[None]:
        """Serialises work on one session: an asyncio lock within this process, and the
        database's own lock across processes (an advisory lock on PostgreSQL)."""
        lock = self.locks.get(session_id)
        if lock is None:
            lock = self.locks[session_id] = asyncio.Lock()
        async with lock, self.repo.session_lock(session_id):
            yield

    async def still_active(self, session_id: int) -> SessionRow:
        """The session re-read under its lock: it may have ended while the command waited."""
        row = await self.session(session_id)
        if row.status != "active":
            raise GameError("The game ended before that arrived; nothing was changed.")
        return row

    async def session(self, session_id: int) -> SessionRow:
        row = await self.repo.session(session_id)
        if row is None:
            raise _gone()
        return row

    async def session_and_state(self, session_id: int) -> tuple[SessionRow, dict[str, Any] | None]:
        """A session and its stored state (None before its start), read in one statement."""
        found = await self.repo.session_and_state(session_id)
        if found is None:
            raise _gone()
        return found

    async def open_row(self, caller: Caller) -> SessionRow:
        row = await self.repo.open_session_in(caller.channel)
        if row is None:
            raise _no_game()
        return row

    async def active_row(self, caller: Caller) -> SessionRow:
        row = await self.open_row(caller)
        if row.status == "lobby":
            raise _not_started()
        return row

    async def active_row_and_state(self, caller: Caller) -> tuple[SessionRow, Any]:
        """The channel's game in play and its state, read in one statement."""
        found = await self.repo.open_session_and_state_in(caller.channel)
        if found is None:
            raise _no_game()
        row, data = found
        if row.status == "lobby":
            raise _not_started()
        return row, self.state_of(row, data)

    async def latest_row(self, caller: Caller) -> SessionRow:
        row = await self.repo.latest_session_in(caller.channel)
        if row is None:
            raise GameError(
                f"No game has been played in this channel. Open one with /game new game:<id> "
                f"(games: {seating.game_list()})."
            )
        return row

    async def state(self, row: SessionRow) -> Any:
        return self.state_of(row, await self.repo.state(row.id))

    @staticmethod
    def state_of(row: SessionRow, data: dict[str, Any] | None) -> Any:
        """The game's state from its stored form (read with the row: session_and_state)."""
        if data is None and row.status in ("finished", "abandoned"):
            # Its positions and move log were removed KEEP_FINISHED_DAYS after it ended.
            raise GameError(
                "This game ended long enough ago that its moves and positions are no longer kept "
                "(the bot keeps them for a set time after a game ends); /game replay still shows it, "
                "and /game stats its result."
            )
        if data is None:
            raise GameError("The game has not started yet.")
        return loaded(get_game(row.game), data)

    async def state_after(self, game: Game[Any, Any], row: SessionRow, keep: Sequence[ActionRow]) -> Any:
        """The state once `keep` (the moves in force, oldest first) have been played: loaded from
        the nearest stored snapshot at or before the last of them, replaying only the moves after
        it. Replaying is CPU work that grows with the game, so it runs off the event loop."""
        base = await self.repo.load_for_undo(row.id, keep[-1].version) if keep and keep[-1].version else None
        if base is None:  # nothing to keep, or a log from before versions were recorded
            return await asyncio.to_thread(replayed, game, row, [(a.seat, a.notation) for a in keep])

        def play_on() -> Any:
            state = loaded(game, base.state)
            for a in base.moves_after:
                game.act(state, a.seat or "", a.notation)
            return state

        return await asyncio.to_thread(play_on)


def loaded(game: Game[Any, Any], data: dict[str, Any]) -> Any:
    """A stored state read back; one written by a newer version of the bot (a newer state schema,
    or rules this code does not know) is refused in one line, not misread."""
    schema = data.get("schema", 1)
    if not isinstance(schema, int) or schema > game.schema_version:
        raise GameError(
            f"This game of {game.title} was saved by a newer version of the bot (game-state schema "
            f"{str(schema)[:12]}; this copy reads up to {game.schema_version}): it needs that newer "
            "version of the bot. Nothing was changed."
        )
    options = data.get("options")
    if isinstance(options, dict) and RULES in options:
        game.validate_options({RULES: options[RULES]})  # OptionError: rules this code does not know
    return game.from_json(data)


def _gone() -> GameError:
    return GameError("That game no longer exists.")


def _no_game() -> GameError:
    return GameError(
        f"There is no open game in this channel. Open one with /game new game:<id> "
        f"(games: {seating.game_list()})."
    )


def _not_started() -> GameError:
    return GameError("The game has not started yet. Fill the seats (/game join) and /game start.")


def replayed(game: Game[Any, Any], row: SessionRow, moves: Sequence[tuple[str | None, str]]) -> Any:
    """The state after `moves`, played from the session's deal."""
    state = game.setup(seating.seat_order(game, row), row.options, row.seed)
    for seat, notation in moves:
        game.act(state, seat or "", notation)
    return state
