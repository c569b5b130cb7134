"""Play: a person's move, a button press, bot seats and timed-out defaults, all through one `_apply`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import Any

from bot import metrics
from bot.host import seating
from bot.host.announce import Announcer, forget_turn, phase_views
from bot.host.core import BOT_USER, SAID_END, fit, private, said_of
from bot.host.drawing import Drawing
from bot.host.replay import frames_of_action
from bot.host.server import ServerSettings
from bot.host.sessions import Sessions
from bot.host.terms import MENU, explained, fits_beside, named, terms_button
from bot.menus import ButtonId, menu, resolve, whole_number
from bot.posts import Caller, Post
from engine import Dice, Event, Game, GameError, Played, get_game
from engine.search_bot import bot_move
from storage import Repository, SeatRow, SessionRow, StaleVersion


class Play:
    """Moves: a person's (typed or pressed), a bot seat's and a timed-out default's, all through
    the one `apply`; and the end of a game by a player's word (`finish`)."""

    def __init__(
        self,
        repo: Repository,
        sessions: Sessions,
        server: ServerSettings,
        announcer: Announcer,
        drawing: Drawing,
        clock: Callable[[], float],
    ) -> None:
        self.repo = repo
        self.sessions = sessions
        self.server = server
        self.announcer = announcer
        self.drawing = drawing
        self.clock = clock

    async def cmd_play(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        text = args.get("action", "").strip()
        if not text:
            raise GameError("Name a move: /play action:<move>. /game moves lists yours.")
        row, state = await self.sessions.active_row_and_state(caller)
        # A typed move answers the position as it was when it arrived: if another action was
        # applied before this one's read (two players answering one decision at once, the other
        # read first), or while it waited for the lock (its commit finds the version moved on),
        # it is refused (StaleVersion) rather than applied to a position its sender never saw;
        # nothing is written before those checks.
        if caller.arrived is not None and self.repo.changed_since(row.id, caller.arrived):
            raise StaleVersion(row.id)
        async with self.sessions.lock(row.id):
            return await self.act(caller, row, text, state)

    async def press(self, caller: Caller, row: SessionRow, bid: ButtonId, state: Any) -> list[Post]:
        """A press of a move button, or of the opener of a player's private menu of moves, on the
        session as read with its `state` when the press arrived."""
        if bid.version != row.version:
            raise StaleVersion(row.id)
        game, state = get_game(row.game), self.sessions.state_of(row, state)
        seat = seating.acting_seat(row, game, state, caller)
        legal = [str(a) for a in game.legal_actions(state, seat)]
        if bid.kind in ("p", "t"):
            # A page of the private menu, or (t) the terms that page names, rebuilt for its presser.
            page_payload = bid.payload.removeprefix(MENU) if bid.kind == "t" else bid.payload
            page_text, _, prefix = page_payload.partition(" ")
            if not whole_number(page_text or "0"):
                raise GameError("That button is not one of this bot's game buttons.")
            choices, placeholder = menu(row.id, row.version, legal, prefix, int(page_text or 0))
            if not choices:
                raise GameError("None of your legal moves start that way any more; /game moves lists them.")
            text = "\n".join(
                [
                    f"Your move ({seating.title(row, seat)}): {placeholder}",
                    *self._move_texts(game, state, seat, prefix),
                ]
            )
            if bid.kind == "t":
                return [private(caller, explained(game, named(game, text), "your move menu"))]
            if named(game, text) and fits_beside(choices):
                choices.append(terms_button(row.id, row.version, MENU + page_payload))
            post = Post(caller.channel, text, to=caller.user_id, choices=choices, placeholder=placeholder)
            return [fit(post, "moves.txt")]
        notation = resolve(legal, bid.payload)
        if notation is None:
            raise StaleVersion(row.id)
        # As a typed move: a press that waited for the lock behind another action is refused
        # by its commit's version check (the button's version is the one it was read at).
        async with self.sessions.lock(row.id):
            return await self.act(caller, row, notation, state)

    @staticmethod
    def _move_texts(game: Game[Any, Any], state: Any, seat: str, prefix: str) -> list[str]:
        """The words behind the moves on a private menu (a card's whole text, say), one line per
        distinct text, so a player chooses knowing what each card does."""
        words = prefix.split()
        lines: dict[str, None] = {}
        for action in game.legal_actions(state, seat):
            if str(action).split()[: len(words)] == words:
                said = game.action_text(state, seat, action)
                if said:
                    lines[f"• {said}"] = None
        return list(lines)

    async def act(self, caller: Caller, row: SessionRow, text: str, state: Any = None) -> list[Post]:
        """Validate and apply one person's action, commit it, then let bot seats reply. `state`:
        the session's, read with `row` (else read here)."""
        game = get_game(row.game)
        state = await self.sessions.state(row) if state is None else state
        seat = seating.acting_seat(row, game, state, caller)
        return await self.answered(
            row,
            game,
            state,
            seat,
            text,
            kind="action",
            caller=caller,
            who=seating.person_at(row, caller.name, seat),
            mover_turn=(seat, game.turn_id(state, seat)),
        )

    async def answered(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        state: Any,
        seat: str,
        text: str,
        *,
        kind: str,
        caller: Caller | None,
        who: str,
        mover_turn: tuple[str, Hashable] | None = None,
    ) -> list[Post]:
        """A person's action (`caller`) or a timed-out default (None), then the bots' replies, as
        one message: what the game waited on before is read first, so that the post knows whether
        the turn goes on, whom to ping and whom not again."""
        mover = caller.user_id if caller is not None else None
        await self.announcer.load(row)
        away = await self.announcer.away_users(row)
        before = self.announcer.awaited(row, game, state, away)
        told = await self.announcer.told(row.id, before)

        # Whether the turn's message only grows, and whether the board the move leaves is shown
        # (not when the message only grows, nor when a reply follows at once and is drawn
        # instead): worked out once, when apply asks before the commit, and read again after.
        outlook: dict[str, bool] = {}

        def shown(events: Sequence[Event]) -> bool:
            if not outlook:
                continues = self.announcer.continues(row, game, state, before, events, mover, away)
                replied = self._replied(row, game, state)
                outlook.update(continuing=continues, shown=not continues and not replied)
            return outlook["shown"]

        try:
            row, version, events, posts = await self.apply(
                row,
                game,
                state,
                seat,
                text,
                kind=kind,
                user_id=mover or BOT_USER,
                caller=caller,
                who=who,
                shown=shown,
            )
            continuing = outlook["continuing"]
            posts = await self.announcer.after(
                row, game, state, version, posts, picture=outlook["shown"], continuing=continuing
            )
            return await self.run_bots(
                row,
                game,
                state,
                posts,
                continuing=continuing,
                mover=mover,
                waited=still_waited(told, events, mover),
                mover_turn=mover_turn,
            )
        finally:
            self.drawing.end(row.id)

    async def apply(
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
        who: str,  # "alice (fire)": the post reads "<who> plays `<move>`." (unused for a time-out)
        forced: bool = False,  # the question's only answer, given by the host (seating.only_answer)
        shown: Callable[[Sequence[Event]], bool] | None = None,
    ) -> tuple[SessionRow, int, list[Event], list[Post]]:
        """The one path every action takes, a person's, a bot's or a timed-out default: validate
        and apply, commit, then the posts in words with a picture for each phase it ran through.
        `shown`: whether the board as the move leaves it will be shown, given its events (by
        default, when no bot or one-answer reply follows at once); its picture and those of the
        phases run are drawn while the move commits."""
        # Rules run off the event loop: an enemy phase or a long chain of effects is CPU work
        # that would stall every other channel (the session lock keeps the state to this task).
        near = {limit.rule for limit in game.limits(state) if limit.near}
        # An answer to a question the game asked runs on by itself: its pictures are the phase's.
        asked = game.to_act(state)
        answered = kind == "timeout" or bool(asked.decision)
        played = await asyncio.to_thread(game.play, state, seat, text)
        action, events = played.action, played.events
        views = phase_views(events)
        if (shown or (lambda _: not self._replied(row, game, state)))(events):
            views.append(game.view(state, None))
        self.drawing.begin(row, game, views)
        said = said_of(played, answered and kind != "timeout")
        ended_vote = vote_ended(row.pending)  # the commit clears open votes
        row = await self._commit(row, game, state, kind, seat, user_id, played, said, answered)
        version = row.version
        metrics.action_applied(game.id, kind, user_id == BOT_USER, ended=game.outcome(state) is not None)
        # A time-out's default is the rules' choice, credited to nobody (it is logged under the
        # first waiting seat only so that the log replays).
        lead = f"{who} {said}."
        if kind == "timeout":
            default = f"`{action}`" if played.public == str(action) else f"({played.public})"
            lead = f"Nobody answered in time, so the default {default} was taken."
        elif forced:
            only = f"`{action}`" if played.public == str(action) else f"({played.public})"
            prompt = f"{asked.prompt} " if asked.prompt else ""
            lead = f"{prompt}Only one answer was possible for {who}, so the host chose it: {only}."
        # A limit that ends the game is announced once, in the post where it comes near.
        come = [] if game.outcome(state) else [x for x in game.limits(state) if x.near and x.rule not in near]
        told = [*events, *(Event("limit", f"{x.line()}.", headline=True) for x in come)]
        posts = self.announcer.event_posts(row, game, lead, told, caller)
        if ended_vote:
            posts[0].text += "\n" + ended_vote
        if caller is not None and not _names_all(played.public, str(action)):
            # The table is told the move's public form; its whole notation is the mover's alone.
            posts.append(Post(row.channel, f"Your move: `{action}`.", to=caller.user_id))
        await self.announcer.attach_phase_pictures(row, game, events, posts)
        return row, version, events, posts

    async def run_bots(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        state: Any,
        posts: list[Post],
        *,
        continuing: bool = False,
        mover: str | None = None,
        waited: frozenset[str] = frozenset(),
        mover_turn: tuple[str, Hashable] | None = None,
    ) -> list[Post]:
        """Bot seats move through the same path as people, until a person must act. A run of bot
        moves is drawn once, at its end: a picture per move would be thrown away by the next.
        Everything then goes out as one message (see Announcer.one_message); `mover` is who
        acted, `waited` whom the game waited on before and still does (pinged already),
        `mover_turn` the mover's seat and its Game.turn_id before it acted. A bot's reply after which the
        mover is asked again in that same turn, with no phase run in between (an opportunity
        attack on a fighter leaving), is a step of the mover's turn: it joins the turn's message."""
        moved = False
        phased = False  # a bot's move ran a phase, which brings its own picture
        # Whom the game waited on before the host answered a one-answer question for them: if it
        # still waits on them after, the answer was a step of their turn and joins its message.
        hosted: frozenset[str] | None = None
        for _ in range(1000):
            if game.outcome(state) is not None:
                break
            only = seating.only_answer(game, state, seating.people(row))
            if only is not None:
                seat, notation = only
                if hosted is None:
                    hosted = self.announcer.awaited(row, game, state)
                _unannounce(posts)  # the question is answered: no ping, no buttons for it
                row, version, _, more = await self.apply(
                    row,
                    game,
                    state,
                    seat,
                    notation,
                    kind="action",
                    user_id=BOT_USER,
                    caller=None,
                    who=seating.names(row, frozenset({seat})),
                    forced=True,
                )
                posts = await self.announcer.after(row, game, state, version, [*posts, *more], picture=False)
                continue
            bots = _bots_to_move(row, game, state)
            if not bots:
                break
            bot = bots[0]
            dice = Dice(row.seed * 1_000_003 + row.version)
            work = game.copy(state)
            choice = await metrics.timed(
                metrics.get().bot_turn_seconds.labels(game.id, bot.ai_level or ""),
                asyncio.to_thread(bot_move, game, work, bot.seat, bot.ai_level or "", dice),
            )
            # One picture and one set of buttons for the whole reply: the bot's move follows the
            # person's at once, and buttons from before it would already be stale.
            _unannounce(posts)
            row, version, events, more = await self.apply(
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
            posts = await self.announcer.after(row, game, state, version, [*posts, *more], picture=False)
            moved = True
            phased = phased or any(e.phase_end and "view" in e.data for e in events)
        if game.outcome(state) is not None:
            waited = frozenset()  # the result pings every seated person
        awaited = self.announcer.awaited(row, game, state, await self.announcer.away_users(row))
        if hosted is not None and self.announcer.awaited(row, game, state) != hosted:
            moved = True  # the host's answer handed the turn on: a new message, as a bot's move
        if moved and not phased and mover in awaited and _goes_on(game, state, mover_turn):
            moved, continuing = False, True  # the bot answered within the mover's turn
        last = next((p for p in reversed(posts) if p.to is None), None)
        fresh = moved or (hosted is not None and not continuing)  # a new message: it shows the board
        if fresh and last is not None and not last.images:
            await self.drawing.attach_picture(row, game, state, last)
        return await self.announcer.one_message(
            row, posts, continuing=continuing and not moved, mover=mover, waited=waited, awaited=awaited
        )

    @staticmethod
    def _replied(row: SessionRow, game: Game[Any, Any], state: Any) -> bool:
        """Whether run_bots answers at once, a bot's move or the host's one-answer reply: the
        board as it now is then gives way to the board after it (see _unannounce)."""
        if game.outcome(state) is not None:
            return False
        return seating.only_answer(game, state, seating.people(row)) is not None or bool(
            _bots_to_move(row, game, state)
        )

    async def apply_default(self, session_id: int) -> list[Post]:
        """A pending decision nobody answered in time: the rules' default is applied for them."""
        async with self.sessions.lock(session_id):
            row = await self.sessions.session(session_id)
            # Someone may have answered while this waited for the lock, opening a new decision
            # with a fresh deadline: only a deadline still past may be acted on.
            if row.deadline is None or row.deadline > self.clock():
                return []
            game, state = get_game(row.game), await self.sessions.state(row)
            turn = game.to_act(state)
            if row.status != "active" or turn.default is None or not turn.seats:
                await self.repo.update_session(row.id, row.version, deadline=None)
                return []
            # Logged under the decider, so that "the player who acted last" stays who it was.
            decider = game.decider(state)
            seat = decider if decider in turn.seats else sorted(turn.seats)[0]
            return await self.answered(
                row, game, state, seat, turn.default, kind="timeout", caller=None, who=""
            )

    async def finish(
        self,
        caller: Caller,
        row: SessionRow,
        seat: str,
        outcome: dict[str, Any],
        notation: str = "resign",
        agreed: frozenset[str] = frozenset(),
    ) -> list[Post]:
        """End the game by a player's word (a resignation, a concession, a claim), not by the rules.
        `agreed`: the people (user ids) who voted for this end besides the caller."""
        game = get_game(row.game)
        state = await self.sessions.state(row)
        rounds, score = game.result_figures(state)
        # The position as it ended: a game whose view carries its result (the title bar, the
        # panel) shows this one, not "to move" as the rules, which never saw it end, would say.
        view = game.view(state, None)
        if "outcome" in view:
            view["outcome"] = outcome
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
            # The replay's last frame: the position the game ended on, with why (the reason names
            # who ended it: "alice (fire) resigned.").
            frames=[(outcome["reason"], view)],
            status="finished",
            outcome=outcome,
            pending={},
            deadline=None,
            turn_since=None,
            remind_at=None,
        )
        metrics.game_finished(game.id, "players")
        await forget_turn(self.repo, row.id)
        row = await self.sessions.session(row.id)
        # The game-over line says the reason ("**Game over** — the game is lost. The group
        # conceded …"); said before it as well, the post read it twice.
        post = Post(row.channel, "")
        await self.drawing.attach_picture(row, game, state, post, view)
        await self.announcer.game_over(row, game, state, outcome, post)
        # Everyone seated hears how the game ended, except whoever ended it: they know. A group's
        # concession is ended by everyone who voted for it, the asker first: pinging them would
        # call back people who already said they were done with the game.
        knew = {caller.user_id, *agreed}
        post.mentions = [m for m in post.mentions if m not in knew]
        return [post]

    async def _commit(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        state: Any,
        kind: str,
        seat: str,
        user_id: str,
        played: Played,
        said: str,
        answered: bool,
    ) -> SessionRow:
        """Commit the action; the session row as it now is (its columns are the ones written, so
        it is not read again)."""
        outcome = game.outcome(state)
        # Any new action cancels open undo votes.
        fields: dict[str, Any] = {"pending": {}, **await self.server.wait_fields(row, game, state)}
        if outcome is not None:
            rounds, score = game.result_figures(state)
            fields.update(
                status="finished",
                outcome=outcome.to_json(),
                deadline=None,
                turn_since=None,
                remind_at=None,
                rounds=rounds,
                score=score,
            )
        # The log row's summary is what the table was told: the move's public form, then the
        # public events. The notation (for replay) is shown only once the game is over.
        told = " ".join(e.text for e in played.events if e.to is None)
        summary = f"{said}{SAID_END}{told}" if told else said
        who = seating.who(row, seat, kind)
        frames = frames_of_action(game, state, who, played.events, outcome is not None, said, answered)
        commit = self.repo.commit_action(
            row.id,
            row.version,
            kind=kind,
            seat=seat,
            user_id=user_id,
            notation=str(played.action),
            summary=summary,
            # The engine saw it roll, shuffle, draw or reveal: undoing it would take back a look.
            undoable=not played.takes_back_a_look,
            state=game.to_json(state),
            # An answer to the game's question (not a time-out's default): the recap counts it so.
            answered=answered and kind != "timeout",
            frames=frames,
            **fields,
        )
        version = await metrics.timed(metrics.get().storage_seconds.labels("commit"), commit)
        fields.pop("rounds", None)
        fields.pop("score", None)
        return replace(row, version=version, updated=self.clock(), **fields)


def _bots_to_move(row: SessionRow, game: Game[Any, Any], state: Any) -> list[SeatRow]:
    """The bot seats that move now. A decision shared with people is theirs unless it is about
    the bot's own seat alone (a silent seat taken over): a bot that answered as the player who
    acted last would decide about the people's units, and the group's choices, for them."""
    turn = game.to_act(state)
    bots = [s for s in row.seats if s.ai_level and s.seat in turn.seats]
    if turn.decision and seating.humans(row, turn.seats):
        bots = [s for s in bots if s.seat == game.decider(state) and game.concerned(state) == {s.seat}]
    return bots


def _goes_on(game: Game[Any, Any], state: Any, turn: tuple[str, Hashable] | None) -> bool:
    """Whether the seat of `turn` is asked again in the turn it acted in (a game that names its
    turns; Game.turn_id None: each decision is a turn of its own)."""
    if turn is None:
        return False
    seat, began = turn
    return began is not None and seat in game.to_act(state).seats and game.turn_id(state, seat) == began


def _unannounce(posts: list[Post]) -> None:
    """Take the picture, buttons and pings off the public posts so far: what follows at once (a
    bot's move, the host's answer) makes them stale; one picture and one set of buttons are put
    on the whole reply at its end."""
    for p in posts:
        if p.to is None:
            p.images.clear()
            p.choices.clear()
            p.mentions.clear()


def vote_ended(pending: dict[str, Any]) -> str:
    """What the channel is told of the open votes a move ends (a move clears `pending`): a vote
    that ended unseen would leave its players pressing a button that no longer counts."""
    lines = []
    if "undo" in pending:
        lines.append(
            f"The vote to undo (asked by {pending['undo']['asker']}) is over: a move was made first."
        )
    if "concede" in pending:
        lines.append(
            f"The vote to concede (asked by {pending['concede']['asker']}) is over: a move was made first."
        )
    return "\n".join(lines)


def still_waited(told: frozenset[str], events: Sequence[Event], mover: str | None) -> frozenset[str]:
    """The people who know the game waits on them and have not acted since, so that a ping would
    tell them nothing: those told earlier in this phase (pinged, or who moved and saw the answer;
    `told`), less the mover, who acted. A hero whose
    partner's own pause (a boost, a card to gain) came in between is still waited on when the
    partner is done. None once a phase ended in between (a new phase is a new wait, announced
    with its picture)."""
    if any(e.phase_end for e in events):
        return frozenset()
    return told - {mover} if mover else told


def _names_all(public: str, notation: str) -> bool:
    """Whether a move's public form names every word of its notation: reworded, nothing hidden
    ("plays `march Ra1 c16`" for `play march Ra1 c16`), so the mover needs no private echo."""
    return all(word in public for word in notation.split())
