"""Undo and resignation: a free take-back of one's own move, else a vote of every seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.host.core import (
    BOT_USER,
    HostCore,
    result_line,
)
from bot.menus import ButtonId
from bot.posts import Caller, Choice, Post
from engine import GameError, NotYourTurn, get_game


class Votes(HostCore):
    async def _cmd_undo(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._active_row(caller)
        game = get_game(row.game)
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("Only seated players can undo.")
        async with self._lock(row.id):
            row = await self._still_active(row.id)
            effective = effective_moves(await self.repo.actions(row.id))
            if not effective:
                raise GameError("There is no move to undo yet.")
            voted = row.pending.get("undo_take")
            take = [a for a in effective if a.seq in voted] if voted else takeback(effective, mine)
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
            return [Post(row.channel, f"{outcome['reason']} " + result_line(row, outcome))]


def effective_moves(rows: Sequence[Any]) -> list[Any]:
    """The moves still in force: actions and timeouts, less those an undo row took back."""
    taken: set[int] = set()
    for a in rows:
        if a.kind == "undo":
            taken |= {int(x) for x in a.notation.split()[1].split(",")}
    return [a for a in rows if a.kind in ("action", "timeout") and a.seq not in taken]


def takeback(effective: Sequence[Any], mine: Sequence[str]) -> list[Any]:
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
