"""Undo, resignation and concession: a free take-back of one's own move, else a vote of the seats.

A vote is tied to its proposal: the Agree button carries the version at which the proposal was
made, each seat counts once, and any new move ends the vote (the move clears `pending`). Every
vote and confirmation is checked under the session's lock, so two presses at the same instant
cannot both apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.host.core import BOT_USER, HostCore, said_in
from bot.menus import ButtonId
from bot.posts import Caller, Choice, Post
from engine import GameError, NotYourTurn, get_game
from engine.words import count
from storage import SessionRow, StaleVersion


class Votes(HostCore):
    # ---- undo ----------------------------------------------------------------------------

    async def _cmd_undo(self, caller: Caller, args: dict[str, str], vote: int | None = None) -> list[Post]:
        """`/vote undo` (a proposal, or a vote for the open one) or a press of Agree (`vote` =
        the proposal it answers)."""
        row = await self._active_row(caller)
        seen = row.version
        game = get_game(row.game)
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("Only seated players can undo.")
        async with self._lock(row.id):
            row = await self._still_active(row.id)
            proposal: dict[str, Any] | None = row.pending.get("undo")
            if vote is not None:
                if proposal is None or proposal.get("id") != vote:
                    raise GameError("That undo vote is over (a move was made or the undo was done).")
            elif row.version != seen:
                raise StaleVersion(row.id)
            effective = effective_moves(await self.repo.actions(row.id))
            if not effective:
                raise GameError("There is no move to undo yet.")
            if proposal is not None:
                take = [a for a in effective if a.seq in proposal["take"]]
            else:
                take = takeback(effective, mine)
            take.sort(key=lambda a: a.seq)  # oldest first: the move asked about, then bot replies
            asker = proposal["asker"] if proposal else caller.name
            free = all(a.undoable for a in take) and take[0].kind != "timeout" and take[0].seat in mine
            humans = {s.seat for s in row.seats if s.ai_level is None}
            looked = not all(a.undoable for a in take)
            if looked and humans <= set(mine):
                # Against the bot or alone nobody else can consent, and a free take-back would
                # let a player see a draw or a roll, undo it and play on knowing it.
                raise GameError(
                    f"{_moves(take)} drew a card, rolled dice or revealed something, so it cannot be "
                    "taken back: in a game against the bot or alone there is no other player to agree."
                )
            before = set(proposal["votes"]) if proposal else set()
            votes = before | set(mine)
            if not free and not humans <= votes:
                if proposal is not None and votes == before:
                    return [
                        self._private(
                            caller, f"Your agreement is already counted; {self._waiting(row, humans - votes)}"
                        )
                    ]
                made_at = proposal["id"] if proposal else row.version  # the version the proposal answers
                pending = {
                    "undo": {
                        "id": made_at,
                        "take": [a.seq for a in take],
                        "votes": sorted(votes),
                        "asker": asker,
                    }
                }
                await self.repo.update_session(row.id, row.version, pending=pending)
                row = await self._session(row.id)
                waiting = [s for s in row.seats if s.seat in humans - votes]
                agree = Choice("Agree to undo", str(ButtonId(row.id, made_at, "u")), "danger")
                if proposal is None:
                    why = (
                        "dice were rolled or hidden cards revealed"
                        if not all(a.undoable for a in take)
                        else "a time-out's default belongs to nobody"
                        if take[0].kind == "timeout"
                        else "the move is not yours"
                    )
                    text = (
                        f"{caller.name} asks to undo {_moves(take)}. Since {why}, every seat must "
                        f"agree: {self._waiting(row, humans - votes)}"
                    )
                else:
                    text = (
                        f"{caller.name} agrees to undo {_moves(take)}; {self._waiting(row, humans - votes)}"
                    )
                return [Post(row.channel, text, choices=[agree], mentions=[s.user_id for s in waiting])]
            keep = [a for a in effective if a not in take]
            state = await self._state_after(game, row, keep)
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
            text = f"{caller.name} took back {_moves(take)}."
            if proposal is not None or not free:
                text = f"Undo agreed (asked by {asker}): took back {_moves(take)}."
            posts = await self._after(row, game, state, version, [Post(row.channel, text)], picture=True)
            return await self._run_bots(row, game, state, posts)

    # ---- resign and concede ----------------------------------------------------------------

    async def _cmd_resign(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """Asks first: a private confirmation in a two-player or solo game, a vote of the seated
        players in a co-operative one (the whole group loses, so one player cannot decide it)."""
        row = await self._active_row(caller)
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("Only seated players can resign.")
        game = get_game(row.game)
        humans = {s.seat for s in row.seats if s.ai_level is None}
        if game.is_cooperative(row.options) and len(humans) > 1:
            return await self._concede_vote(caller, row, None)
        confirm = Choice(
            "Yes, concede" if game.is_cooperative(row.options) else "Yes, resign",
            str(ButtonId(row.id, row.version, "r")),
            "danger",
        )
        what = (
            "concede the game for the group"
            if game.is_cooperative(row.options)
            else f"resign ({', '.join(mine)})"
        )
        return [
            Post(
                row.channel,
                f"Do you really want to {what}? The game ends at once. Press the button to confirm; "
                "any move made first cancels this.",
                to=caller.user_id,
                choices=[confirm],
            )
        ]

    async def _confirm_resign(self, caller: Caller, row: SessionRow, version: int) -> list[Post]:
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("Only seated players can resign.")
        async with self._lock(row.id):
            row = await self._still_active(row.id)
            if row.version != version:
                raise GameError(
                    "The game moved on since you asked to resign; nothing was changed. "
                    "Use /vote resign again if you still want to."
                )
            game = get_game(row.game)
            others = {s.seat for s in row.seats} - set(mine)
            if game.is_cooperative(row.options) or not others:
                reason = f"{caller.name} conceded for the group."
                outcome = {"winners": [], "losers": sorted(s.seat for s in row.seats), "reason": reason}
            else:
                reason = f"{caller.name} ({', '.join(mine)}) resigned."
                outcome = {"winners": sorted(others), "losers": sorted(mine), "reason": reason}
            return await self._finish(caller, row, mine[0], outcome)

    async def _concede_vote(self, caller: Caller, row: SessionRow, vote: int | None) -> list[Post]:
        """Co-op concession: a majority of the seated players must agree (each seat counts once)."""
        seen = row.version
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("Only seated players can vote to concede.")
        async with self._lock(row.id):
            row = await self._still_active(row.id)
            proposal: dict[str, Any] | None = row.pending.get("concede")
            if vote is not None:
                if proposal is None or proposal.get("id") != vote:
                    raise GameError("That vote to concede is over (a move was made since).")
            elif row.version != seen:
                raise StaleVersion(row.id)
            humans = {s.seat for s in row.seats if s.ai_level is None}
            need = len(humans) // 2 + 1
            before = set(proposal["votes"]) if proposal else set()
            votes = before | (set(mine) & humans)
            if len(votes) >= need:
                asker = proposal["asker"] if proposal else caller.name
                seats = count(len(humans), "seat")
                reason = f"The group conceded ({len(votes)} of {seats} agreed; asked by {asker})."
                outcome = {"winners": [], "losers": sorted(s.seat for s in row.seats), "reason": reason}
                return await self._finish(caller, row, mine[0], outcome)
            if proposal is not None and votes == before:
                return [
                    self._private(caller, f"Your vote is already counted ({len(votes)} of {need} needed).")
                ]
            made_at = proposal["id"] if proposal else row.version
            asker = proposal["asker"] if proposal else caller.name
            pending = {"concede": {"id": made_at, "votes": sorted(votes), "asker": asker}}
            await self.repo.update_session(row.id, row.version, pending=pending)
            row = await self._session(row.id)
            agree = Choice("Agree to concede", str(ButtonId(row.id, made_at, "c")), "danger")
            waiting = [s for s in row.seats if s.seat in humans - votes]
            lead = (
                f"{caller.name} proposes to concede the game for the group."
                if proposal is None
                else f"{caller.name} agrees to concede."
            )
            text = (
                f"{lead} {len(votes)} of {count(need, 'vote')} needed ({count(len(humans), 'seat')}); "
                "any move made first cancels the vote."
            )
            return [Post(row.channel, text, choices=[agree], mentions=[s.user_id for s in waiting])]

    async def _finish(
        self,
        caller: Caller,
        row: SessionRow,
        seat: str,
        outcome: dict[str, Any],
        notation: str = "resign",
    ) -> list[Post]:
        """End the game by a player's word (a resignation, a concession, a claim), not by the rules."""
        game = get_game(row.game)
        state = await self._state(row)
        rounds, score = game.result_figures(state)
        await self.repo.commit_action(
            row.id,
            row.version,
            rounds=rounds,
            score=score,
            kind="resign",  # the log's kind for any end by a player's word; the notation says which
            seat=seat,
            user_id=caller.user_id,
            notation=notation,
            summary=outcome["reason"],
            undoable=False,
            state=game.to_json(state),
            # The replay's last frame: the position the game ended on, with why.
            frames=[(f"{self._who(row, seat)}: {outcome['reason']}", game.view(state, None))],
            status="finished",
            outcome=outcome,
            pending={},
            deadline=None,
            turn_since=None,
            remind_at=None,
        )
        row = await self._session(row.id)
        post = Post(row.channel, outcome["reason"])
        await self._attach_picture(row, game, state, post)
        await self._game_over(row, game, state, outcome, post)
        return [post]

    def _waiting(self, row: SessionRow, seats: set[str]) -> str:
        names = ", ".join(s.user_name for s in row.seats if s.seat in seats)
        return f"waiting for {names}."


def _moves(actions: Sequence[Any]) -> str:
    """The moves as the table was told them (the public form, never a hidden card's name)."""
    out = []
    for a in actions:
        said = said_in(a.summary)
        out.append(f"`{a.notation}`" if said == f"plays `{a.notation}`" else f"{a.seat}'s move ({said})")
    return ", ".join(out)


def effective_moves(rows: Sequence[Any]) -> list[Any]:
    """The moves still in force: actions and timeouts, less those an undo row took back."""
    taken = undone(rows)
    return [a for a in rows if a.kind in ("action", "timeout") and a.seq not in taken]


def undone(rows: Sequence[Any]) -> set[int]:
    """The sequence numbers of moves an undo row took back."""
    taken: set[int] = set()
    for a in rows:
        if a.kind == "undo":
            taken |= {int(x) for x in a.notation.split()[1].split(",")}
    return taken


def takeback(effective: Sequence[Any], mine: Sequence[str]) -> list[Any]:
    """What an undo takes back, newest first: the caller's last move and the bot replies after it;
    if a person moved since, or the last move was a time-out's default (nobody's), just that move
    (it then needs every seat's consent)."""
    take: list[Any] = []
    for a in reversed(effective):
        take.append(a)
        if a.kind == "timeout":
            return [a]
        if a.seat in mine:
            return take
        if a.user_id != BOT_USER:
            return [a]
    return take
