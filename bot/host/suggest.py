"""The Suggest button of a turn's message: privately, the move the bot would make for the
presser's seat and one line of why (engine/suggest.py), worked out from what that seat may see.
It plays nothing and adds no message to the table: the answer goes to the presser alone."""

from __future__ import annotations

import asyncio
import zlib
from typing import Any

from bot.host import seating
from bot.host.core import log, private
from bot.host.sessions import Sessions
from bot.menus import ButtonId
from bot.posts import Caller, Choice, Post
from engine import Dice, Game, GameError, get_game
from engine.suggest import suggest
from storage import SessionRow

LABEL = "Suggest a move"


def offered(game: Game[Any, Any]) -> bool:
    """Every game with a bot suggests: the bot is what suggests."""
    return bool(game.ai_levels)


def suggest_button(session: int, version: int) -> Choice:
    return Choice(LABEL, str(ButtonId(session, version, "g")))


class Suggestions:
    """Answers a press of the Suggest button for the position in force when it is pressed."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    async def answer(self, caller: Caller, row: SessionRow, stored: dict[str, Any] | None) -> list[Post]:
        """The answer to a press on the session `row`, whose stored state `stored` was read with
        it (one statement for the whole press: no second read of the state)."""
        game = get_game(row.game)
        if not offered(game):
            raise GameError(f"{game.title} has no bot, so there is no one to suggest a move.")
        if row.status != "active":
            raise GameError("That game is over; there is no move to suggest.")
        state = self.sessions.state_of(row, stored)
        seat = seating.acting_seat(row, game, state, caller)
        # Dice from what anyone may know (the session, the position, the seat), never the secret
        # seed: the same press gives the same answer, and it says nothing of the deal.
        dice = Dice(zlib.crc32(f"{row.id}:{row.version}:{seat}".encode()))
        found = await asyncio.to_thread(suggest, game, state, seat, dice)
        log.info("suggestion for session %s seat %s", row.id, seat)
        return [
            private(
                caller,
                f"Suggested move for {seating.title(row, seat)}: `{found.action}`: {found.why}\n"
                f"Nothing was played. To play it: `/play action:{found.action}`, or your move buttons.",
            )
        ]
