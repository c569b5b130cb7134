"""A person's privacy requests (docs/privacy.md): everything stored about them, and forgetting
them. Their lobby seats are freed; a seat of a game under way is handed to the bot (or, in a game
without one, to a nameless former player, which the others can claim or hand on past
takeover_hours); then every finished game replaces their name and id, so its replay and result
stay but lead to nobody."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

from bot.config import Settings
from bot.host.announce import TOLD_KEY, TURN_KEY
from bot.host.away import AWAY_KEY
from bot.host.blocks import BLOCK_KEY
from bot.host.core import BOT_USER, log, private
from bot.host.notices import Notices
from bot.host.options import CHANGES_KEY
from bot.host.replay import Replays
from bot.host.seats import CONSENT_KEY
from bot.host.sessions import Sessions
from bot.host.terms import TERMS_KEY
from bot.posts import Attachment, Caller, Post
from engine import get_game
from storage import Repository, SeatRow

FORMER_PLAYER = "a former player"  # how a forgotten person is named wherever they were
BOT_OWES_KEY = "bot_owes:"  # meta key: bot_owes:<session> -> the bot holds the turn after a hand-on


# The stored keys of one session (meta key prefixes + session id), removed with its move log.
SESSION_KEYS = (CHANGES_KEY, TURN_KEY, TOLD_KEY, TERMS_KEY, BOT_OWES_KEY)


class PrivacyRequests:
    def __init__(
        self,
        repo: Repository,
        settings: Settings,
        sessions: Sessions,
        replays: Replays,
        notices: Notices,
        clock: Callable[[], float],
    ) -> None:
        self.repo = repo
        self.settings = settings
        self.sessions = sessions
        self.replays = replays
        self.notices = notices
        self.clock = clock

    async def prune(self, limit: int = 20) -> int:
        """Finished games past KEEP_FINISHED_DAYS lose their move log, positions and stored keys;
        their replay (captions told in full first), seats and result stay. How many."""
        days = self.settings.keep_finished_days
        if days <= 0:
            return 0
        pruned = 0
        before = self.clock() - days * 86400
        for session_id in await self.repo.prunable(before, limit):
            async with self.sessions.lock(session_id):
                if not await self.repo.prunable(before, only=session_id):
                    continue  # another process pruned it meanwhile
                row = await self.sessions.session(session_id)
                reel = await self.replays.reel(row) if row.started is not None else None
                frames = list(reel.frames) if reel is not None else []
                consent = await self.repo.meta_with_prefix(f"{CONSENT_KEY}{row.id}:")
                keys = [k + str(row.id) for k in SESSION_KEYS] + list(consent)
                await self.repo.prune(row.id, frames, keys)
                pruned += 1
        if pruned:
            log.info("removed the move logs of %d games past %g days", pruned, days)
        return pruned

    async def cmd_mydata(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """`/privacy mydata`: everything stored about the caller, as a private JSON file."""
        data = json.dumps(await self.export(caller.user_id), indent=2, ensure_ascii=False).encode()
        text = "Everything this bot stores about you, in one file."
        return [Post(caller.channel, text, to=caller.user_id, files=[Attachment("my-data.json", data)])]

    async def cmd_forgetme(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """`/privacy forgetme confirm:yes`: forget the caller; without `yes`, what it would do."""
        if args.get("confirm", "").strip().lower() != "yes":
            return [
                private(
                    caller,
                    "This forgets you, and cannot be undone: your seats in games not started are freed, "
                    "the bot plays your seats in games under way, and every game you played names "
                    f"{FORMER_PLAYER} instead of you, with no link to you in its result. "
                    "/privacy mydata gives you a copy first. To go ahead: /privacy forgetme confirm:yes",
                )
            ]
        await self.forget(caller.user_id)
        return [
            private(caller, "Done: this bot has forgotten you. Anything you do from now on is stored anew.")
        ]

    async def export(self, user_id: str) -> dict[str, Any]:
        """Everything stored that names `user_id`, by what it is (docs/privacy.md lists it)."""
        kept = [AWAY_KEY + user_id, f"{BLOCK_KEY}user:{user_id}"]
        return await self.repo.user_records(user_id, kept)

    async def forget(self, user_id: str) -> str:
        """Forget `user_id`: their open seats handed on, then their closed games anonymised. What
        was done, in one line for the operator."""
        if not user_id.strip() or user_id == BOT_USER:
            raise ValueError("name the person to forget by their user id")
        alias = f"forgotten-{secrets.token_hex(6)}"
        names: set[str] = set()
        freed = handed = 0
        for row in await self.repo.open_sessions_of(user_id):
            async with self.sessions.lock(row.id):
                row = await self.sessions.session(row.id)
                game = get_game(row.game)
                said = []
                for seat in [s for s in row.seats if s.user_id == user_id]:
                    names.add(seat.user_name)
                    if row.status == "lobby":
                        await self.repo.free_seat(row.id, row.version, seat.seat)
                        freed += 1
                        said.append(f"the {seat.seat} seat is free")
                    else:
                        level = game.ai_levels[len(game.ai_levels) // 2] if game.ai_levels else None
                        taker = (
                            SeatRow(seat.seat, BOT_USER, f"bot ({level})", level)
                            if level
                            else SeatRow(seat.seat, f"{alias}:{row.id}", FORMER_PLAYER, None)
                        )
                        await self.repo.set_seat(row.id, row.version, taker)
                        handed += 1
                        said.append(
                            f"the bot plays the {seat.seat} seat" if level else f"{seat.seat} has no player"
                        )
                    row = await self.sessions.session(row.id)
                if row.host_user == user_id:
                    await self.repo.forget_opener(row.id, f"{alias}:{row.id}")
                if said:
                    await self.notices.queue(
                        [row.channel],
                        f"A player asked the bot to forget them: {'; '.join(said)} from now on.",
                    )
                    if row.status == "active":
                        await self.repo.meta_set(BOT_OWES_KEY + str(row.id), "1")
        names |= {r["user_name"] for r in (await self.repo.user_records(user_id, []))["results"]}
        names |= {r["user_name"] for r in (await self.repo.user_records(user_id, []))["seats"]}
        touched = await self.repo.forget_in_games(user_id, names, alias, FORMER_PLAYER)
        await self.repo.meta_delete(AWAY_KEY + user_id)
        closed = len(touched)
        log.info("forgot a user: %d open seats freed, %d handed on, %d closed games", freed, handed, closed)
        return (
            f"Forgot {user_id}: {freed} lobby seats freed, {handed} seats of games under way handed on, "
            f"{closed} games (finished, or whose log named them) now name them {FORMER_PLAYER!r}."
        )
