"""Undo, resignation and concession: a free take-back of one's own move, else a vote of the seats.

A vote is tied to its proposal: the Agree button carries the version at which the proposal was
made, each seat counts once, and any new move ends the vote (the move clears `pending`). Every
vote and confirmation is checked under the session's lock, so two presses at the same instant
cannot both apply.

An undo replays the moves it keeps under the rules the session was opened with (its rules
version), and first checks that the moves it takes back, played again, reach the position stored
now; where they do not, it is refused and nothing changes, rather than rewrite what happened.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.host.announce import Announcer
from bot.host.core import log, private
from bot.host.moves import effective_moves, takeback, told
from bot.host.options import changes, reapply
from bot.host.play import Play
from bot.host.server import ServerSettings
from bot.host.sessions import Sessions, loaded
from bot.menus import ButtonId
from bot.posts import Caller, Choice, Post
from engine import Game, GameError, NotYourTurn, get_game
from engine.fairness import play_on
from engine.words import count
from storage import ActionRow, Repository, SessionRow, StaleVersion


class Votes:
    def __init__(
        self,
        repo: Repository,
        sessions: Sessions,
        server: ServerSettings,
        announcer: Announcer,
        play: Play,
    ) -> None:
        self.repo = repo
        self.sessions = sessions
        self.server = server
        self.announcer = announcer
        self.play = play

    # ---- undo ----------------------------------------------------------------------------

    async def cmd_undo(self, caller: Caller, args: dict[str, str], vote: int | None = None) -> list[Post]:
        """`/vote undo` (a proposal, or a vote for the open one) or a press of Agree (`vote` =
        the proposal it answers)."""
        row = await self.sessions.active_row(caller)
        seen = row.version
        game = get_game(row.game)
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("Only seated players can undo.")
        async with self.sessions.lock(row.id):
            row = await self.sessions.still_active(row.id)
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
                # The moves that showed something, named: "something" alone named no reason.
                bots = "the bot's"
                showing = [a for a in take if not a.undoable]
                shown = ", ".join(f"{'your' if a.seat in mine else bots} {told([a])}" for a in showing)
                raise GameError(
                    f"{told(take)} cannot be taken back: {shown} drew a card, rolled dice or turned up a "
                    "hidden card, and in a game against the bot or alone there is no other player to "
                    "agree to undo what was seen."
                )
            before = set(proposal["votes"]) if proposal else set()
            votes = before | set(mine)
            if not free and not humans <= votes:
                if proposal is not None and votes == before:
                    return [
                        private(caller, f"Your agreement is already counted; {_waiting(row, humans - votes)}")
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
                row = await self.sessions.session(row.id)
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
                        f"{caller.name} asks to undo {told(take)}. Since {why}, every seat must "
                        f"agree: {_waiting(row, humans - votes)}"
                    )
                else:
                    text = f"{caller.name} agrees to undo {told(take)}; {_waiting(row, humans - votes)}"
                return [Post(row.channel, text, choices=[agree], mentions=[s.user_id for s in waiting])]
            keep = [a for a in effective if a not in take]
            await self.announcer.load(row)
            knew = await self.announcer.told(row.id, frozenset())
            state = await self._truthful_state_after(game, row, keep, take)
            # A change of option is not a move: it stays in force whatever the undo returns to.
            await reapply(self.repo, game, state, row.id, len(keep))
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
                **await self.server.wait_fields(row, game, state),
            )
            row = await self.sessions.session(row.id)
            text = f"{caller.name} took back {told(take)}."
            if proposal is not None or not free:
                text = f"Undo agreed (asked by {asker}): took back {told(take)}."
            posts = await self.announcer.after(
                row, game, state, version, [Post(row.channel, text)], picture=True
            )
            # Whoever took the move back, or completed the vote for it, knows the undo happened
            # and that the turn is theirs again: no ping for them. Nor for those told already
            # that the game waits on them, if it still does (their buttons are the undo's now).
            awaited = self.announcer.awaited(row, game, state, await self.announcer.away_users(row))
            return await self.play.run_bots(
                row, game, state, posts, mover=caller.user_id, waited=(knew & awaited) - {caller.user_id}
            )

    async def _truthful_state_after(
        self, game: Game[Any, Any], row: SessionRow, keep: list[ActionRow], take: list[ActionRow]
    ) -> Any:
        """The position an undo returns to, once its history is checked: the moves it takes back,
        played again on it, must reach the position stored now. They do unless the game's rules or
        content changed under it without a new rules version (the session plays on under the
        version it was opened with); then the undo would rewrite what happened, and is refused."""
        now = await self.repo.state(row.id)
        if now is None:
            raise GameError("The game has not started yet.")
        loaded(game, now)  # a game saved by a newer bot is refused in its own words
        history = await changes(self.repo, row.id)
        moves = [{"seat": a.seat, "notation": a.notation} for a in take]

        def forward(state: Any) -> Any:
            return json.loads(
                json.dumps(game.to_json(play_on(game, game.copy(state), moves, history, len(keep))))
            )

        # A position stored in an older state schema was written before fields a replay now fills
        # (its upgrade starts them empty): its form cannot be compared, only the moves replayed.
        older = isinstance(now.get("schema"), int) and now["schema"] < game.schema_version
        try:
            state = await self.sessions.state_after(game, row, keep)
            agrees = await asyncio.to_thread(forward, state) == now or older
        except GameError:  # a stored move the rules now refuse
            agrees = False
        if not agrees:
            log.warning(
                "session %s: undo refused, the replay of its moves differs from the stored position", row.id
            )
            raise GameError(
                f"Undo refused: played again by this version of the bot, {told(take)} no longer reach the "
                "position stored when they were played (the game's rules or content changed since), so "
                "taking them back would change what happened. Nothing was changed."
            )
        return state

    # ---- resign and concede ----------------------------------------------------------------

    async def cmd_resign(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """Asks first: a private confirmation in a two-player or solo game, a vote of the seated
        players in a co-operative one (the whole group loses, so one player cannot decide it)."""
        row = await self.sessions.active_row(caller)
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("Only seated players can resign.")
        game = get_game(row.game)
        humans = {s.seat for s in row.seats if s.ai_level is None}
        if game.is_cooperative(row.options) and len(humans) > 1:
            return await self.concede_vote(caller, row, None)
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

    async def confirm_resign(self, caller: Caller, row: SessionRow, version: int) -> list[Post]:
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("Only seated players can resign.")
        async with self.sessions.lock(row.id):
            row = await self.sessions.still_active(row.id)
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
            return await self.play.finish(caller, row, mine[0], outcome)

    async def concede_vote(self, caller: Caller, row: SessionRow, vote: int | None) -> list[Post]:
        """Co-op concession: a majority of the seated players must agree (each seat counts once)."""
        seen = row.version
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("Only seated players can vote to concede.")
        async with self.sessions.lock(row.id):
            row = await self.sessions.still_active(row.id)
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
                voters = frozenset(s.user_id for s in row.seats if s.seat in votes)
                return await self.play.finish(caller, row, mine[0], outcome, agreed=voters)
            if proposal is not None and votes == before:
                tally = f"{count(len(votes), 'vote')} of the {need} needed"
                return [private(caller, f"Your vote is already counted ({tally}).")]
            made_at = proposal["id"] if proposal else row.version
            asker = proposal["asker"] if proposal else caller.name
            pending = {"concede": {"id": made_at, "votes": sorted(votes), "asker": asker}}
            await self.repo.update_session(row.id, row.version, pending=pending)
            row = await self.sessions.session(row.id)
            agree = Choice("Agree to concede", str(ButtonId(row.id, made_at, "c")), "danger")
            waiting = [s for s in row.seats if s.seat in humans - votes]
            lead = (
                f"{caller.name} proposes to concede the game for the group."
                if proposal is None
                else f"{caller.name} agrees to concede."
            )
            text = (
                f"{lead} {count(len(votes), 'vote')} of the {need} needed ({count(len(humans), 'seat')}); "
                "any move made first cancels the vote."
            )
            return [Post(row.channel, text, choices=[agree], mentions=[s.user_id for s in waiting])]


def _waiting(row: SessionRow, seats: set[str]) -> str:
    names = ", ".join(s.user_name for s in row.seats if s.seat in seats)
    return f"waiting for {names}."
