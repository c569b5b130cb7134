"""What the channel is told after an action: the words, a picture per phase, the result or the
turn notice with its buttons; pictures are drawn off the event loop."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bot.host import seating
from bot.host.away import AWAY_KEY, Away
from bot.host.core import MAX_TEXT, fit, private_moves, result_line, when_label
from bot.host.drawing import Drawing
from bot.host.moves import undone
from bot.host.replay import LOOK_BACK, Replays, last_turn, turn_among
from bot.host.server import ServerSettings
from bot.host.suggest import offered, suggest_button
from bot.host.terms import TERMS_KEY, TurnTerms, fits_beside
from bot.menus import QUICK, QUICK_HINT, ButtonId, menu
from bot.posts import Attachment, Caller, Choice, Post
from engine import Event, Game, get_game
from engine.words import count
from storage import ActionRow, Repository, SeatRow, SessionRow

MAX_LISTED_OPTIONS = 8  # a decision's options are spelled out in the post up to this many
TRACE_FILE = "events.txt"  # a run's whole text, when the post leaves lines out
REASONS_NOTE = f"\n(every reason: {TRACE_FILE})"
# meta key prefix: turn_message:<session> -> the append key of the message its current turn
# started, kept in storage so that after a restart the turn's next step still joins that message.
TURN_KEY = "turn_message:"
TURN_MESSAGE = "turn:"  # an append key: turn:<session>:<the version its turn started at>
# meta key prefix: turn_told:<session> -> the people told that the game waits on them (pinged, or
# who moved and saw the answer) and who have not acted since, in this phase (a JSON list).
TOLD_KEY = "turn_told:"


class Announcer:
    """Turns what happened into what the channel reads: one message per turn, its picture, the
    turn notice with its buttons and pings, or the result."""

    def __init__(
        self,
        repo: Repository,
        server: ServerSettings,
        away: Away,
        drawing: Drawing,
        replays: Replays,
        clock: Callable[[], float],
    ) -> None:
        self.repo = repo
        self.server = server
        self.away = away
        self.drawing = drawing
        self.replays = replays
        self.clock = clock
        self.terms = TurnTerms(repo)

    async def load(self, row: SessionRow) -> None:
        """Read at once what announcing a move here needs from storage (who of the seated people
        is away, the turn's message, who was told, the turn's terms, the server's settings), so
        that each post and each person reads it from memory (see Repository.remembering)."""
        people = sorted({s.user_id for s in row.seats if s.ai_level is None})
        keys = [AWAY_KEY + u for u in people] + [k + str(row.id) for k in (TURN_KEY, TOLD_KEY, TERMS_KEY)]
        await self.repo.preload(keys, row.guild)

    async def away_users(self, row: SessionRow) -> frozenset[str]:
        """The people seated here who said they are away (/seat away)."""
        people = {s.user_id for s in row.seats if s.ai_level is None}
        return frozenset([u for u in sorted(people) if await self.away.until(u) is not None])

    def awaited(
        self, row: SessionRow, game: Game[Any, Any], state: Any, away: frozenset[str] = frozenset()
    ) -> frozenset[str]:
        """The people the game waits on: a decision's human decider, else every human whose seat
        must act. A turn is theirs until this changes. `away`: who is away (never the decider
        while someone present may answer)."""
        if game.outcome(state) is not None:
            return frozenset()
        decider = seating.human_decider(row, game, state, away)
        waiting = [decider] if decider else seating.humans(row, game.to_act(state).seats)
        return frozenset(s.user_id for s in waiting)

    def continues(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        state: Any,
        before: frozenset[str],
        events: Sequence[Event],
        mover: str | None,
        away: frozenset[str] = frozenset(),
    ) -> bool:
        """The same person goes on (another card, order or move of their turn, or the mover
        answers what comes next themselves) and no automated phase ran in between (it brings its
        own pictures): the post joins the turn's message."""
        now = self.awaited(row, game, state, away)
        same = bool(now) and (now == before or now == {mover})
        return same and not any(e.phase_end and "view" in e.data for e in events)

    async def one_message(
        self,
        row: SessionRow,
        posts: list[Post],
        *,
        continuing: bool,
        mover: str | None,
        waited: frozenset[str] = frozenset(),
        awaited: frozenset[str] = frozenset(),
    ) -> list[Post]:
        """What one command shows the channel: at most one public message. A step that continues
        the turn is added to the turn's message (an edit: no picture, no ping); otherwise one new
        message carries the pictures (never the same one twice in a row), the buttons and the
        pings. It never pings the person whose action made it, nor those already told of this
        wait who have not acted since (`waited`, see still_waited), so that two players acting
        in turn within one phase, or one whose partner's own pause came in between, are each
        pinged once. `awaited`: whom the game waits on now; who is told is kept for the next
        action (a restart keeps it too)."""
        public = [p for p in posts if p.to is None]
        if not public:
            return posts
        last = public[-1]
        images: list[Attachment] = []
        for image in (i for p in public for i in p.images):
            if not images or images[-1].data != image.data:
                images.append(image)
        merged = Post(
            row.channel,
            "\n".join(p.text for p in public if p.text),
            images=images[-10:],  # Discord takes ten files a message
            files=[f for p in public for f in p.files],
            choices=last.choices,
            placeholder=last.placeholder,
            mentions=[
                m
                for m in dict.fromkeys(m for p in public for m in p.mentions)
                if m != mover and m not in waited
            ],
        )
        if continuing:
            merged.images, merged.mentions = [], []
        # The turn's keys, written together in one statement at the end.
        keep: dict[str, str] = {}
        if row.status == "active":
            mover_sees = {mover} & awaited if mover else set()
            told = json.dumps(sorted(waited | set(merged.mentions) | mover_sees))
            if told != await self.repo.meta_get(TOLD_KEY + str(row.id)):
                keep[TOLD_KEY + str(row.id)] = told
        key = await self.repo.meta_get(TURN_KEY + str(row.id)) if continuing else None
        over = row.status != "active"
        if not key:
            # Later steps of the turn that starts here are added to this message.
            key = f"{TURN_MESSAGE}{row.id}:{row.version}"
            if not over:
                keep[TURN_KEY + str(row.id)] = key
        merged.append_key = key
        if over:
            await forget_turn(self.repo, row.id)
        elif merged.choices:
            # The turn's buttons, and one that explains the rules terms the message names.
            keep |= await self.terms.mark(row, get_game(row.game), turn_started(key), merged)
        if keep:
            # Hints, not the game: the move is committed already. A power cut that takes them
            # back costs a new message instead of an appended one, or a ping again.
            await self.repo.meta_put(keep, durable=False)
        if not over and awaited and offered(get_game(row.game)) and fits_beside(merged.choices):
            # A person must act: whoever it is may ask the bot what it would play, privately.
            merged.choices = [*merged.choices, suggest_button(row.id, row.version)]
        return [merged, *(p for p in posts if p.to is not None)]

    async def told(self, session: int, before: frozenset[str]) -> frozenset[str]:
        """The people told of the current wait who have not acted since (see one_message); for a
        game whose turn began before this was kept, those the game waited on (`before`)."""
        raw = await self.repo.meta_get(TOLD_KEY + str(session))
        return before if raw is None else frozenset(json.loads(raw))

    async def attach_phase_pictures(
        self, row: SessionRow, game: Game[Any, Any], events: Sequence[Event], posts: list[Post]
    ) -> None:
        """One picture per phase that ended inside an automated run (a spawn, an enemy phase):
        the game hands the public view of that moment in the event, as the final state has moved on."""
        public = next((p for p in reversed(posts) if p.to is None), None)
        if public is None:
            return
        for view in phase_views(events):
            await self.drawing.render_into(row, game, view, public)

    def event_posts(
        self, row: SessionRow, game: Game[Any, Any], lead: str, events: Sequence[Event], caller: Caller | None
    ) -> list[Post]:
        public = [e.text for e in events if e.to is None and e.text]
        whole = "\n".join([lead, *public])
        # Lines of reasons (an enemy's whole trace) stay out of the post, in the attached file.
        told = "\n".join([lead, *(e.text for e in events if e.to is None and e.text and not e.detail)])
        if told != whole and len(told) <= MAX_TEXT - len(REASONS_NOTE):
            posts = [Post(row.channel, told + REASONS_NOTE, files=[Attachment(TRACE_FILE, whole.encode())])]
        elif len(whole) <= MAX_TEXT:
            posts = [Post(row.channel, whole)]
        else:
            # A long automated run (an enemy phase): its headlines stay in the post, the whole
            # trace goes into a file.
            heads = [e.text for e in events if e.to is None and e.headline]
            short = "\n".join(
                [lead, *within(heads, MAX_TEXT - len(lead) - 80), f"(the whole trace is in {TRACE_FILE})"]
            )
            posts = [
                fit(Post(row.channel, short, files=[Attachment(TRACE_FILE, whole.encode())]), "events-2.txt")
            ]
        if caller is not None:
            mine = set(row.seat_of(caller.user_id))
            private = [e.text for e in events if e.to is not None and e.to & mine]
            if private:
                posts.append(fit(Post(row.channel, "\n".join(private), to=caller.user_id), "private.txt"))
        return posts

    async def after(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        state: Any,
        version: int,
        posts: list[Post],
        *,
        picture: bool,
        continuing: bool = False,
    ) -> list[Post]:
        """Add the picture, the result or the turn notice with buttons, to the last public post.
        A step that continues the turn gets the buttons only: its message already says whose turn."""
        public = next((p for p in reversed(posts) if p.to is None), None)
        if public is None:
            public = Post(row.channel, "")
            posts.append(public)
        outcome = game.outcome(state)
        if picture or outcome is not None:
            await self.drawing.attach_picture(row, game, state, public)
        if outcome is not None:
            await self.game_over(row, game, state, outcome.to_json(), public)
            return posts
        turn = game.to_act(state)
        waiting = seating.humans(row, turn.seats)
        if not waiting:
            return posts
        if turn.decision:
            # A decision the rules hand to "the players" pings one person, the decider (the
            # player whose unit it concerns, or who acted last); any of those players may still
            # answer. A decision that is one seat's alone says only who decides. The channel reads
            # who decides, the options, the default and when it is taken.
            decider = seating.human_decider(row, game, state, await self.away_users(row))
            shared = "; anyone seated may answer" if len(waiting) > 1 else ""
            asked = (
                f"{seating.person_at(row, decider.user_name, decider.seat)} decides{shared}."
                if decider
                else f"To answer: {seating.names(row, turn.seats)}."
            )
            notice = f"{turn.prompt} {asked}"
            legal = [str(a) for a in game.legal_actions(state, (decider or waiting[0]).seat)]
            if all(f"`{a}`" in turn.prompt for a in legal):
                pass  # the prompt names them already
            elif len(legal) <= MAX_LISTED_OPTIONS:
                notice += " Options: " + ", ".join(f"`{a}`" for a in legal) + "."
            else:
                notice += f" {len(legal)} options, on the buttons below."
            if turn.default:
                notice += f" If nobody answers {await self._when(row)}, `{turn.default}` is taken."
            if decider is not None:
                waiting = [decider]
        else:
            # A game's own question on a player's turn (a boost before the dice) is said too, with
            # its default in the game's words (its notation may name a card in the hand).
            asked = f" {turn.prompt}" if turn.prompt else ""
            if turn.default:
                default = turn.default_text or f"`{turn.default}` is taken"
                asked += f" If nobody answers {await self._when(row)}: {default}."
            notice = (
                "" if continuing and not asked else f"Your turn: {seating.names(row, turn.seats)}.{asked}"
            )
            if (
                notice
                and game.setting_up(state)
                and any(QUICK in (str(a) for a in game.legal_actions(state, s.seat)) for s in waiting)
            ):
                # A new group meets the quick start where it first has a choice, not only as the
                # first button of a menu it may never open.
                notice += f" {QUICK_HINT}"
        if notice:
            notice = " ".join(t for t in (notice, await self.away.note(row, turn.seats)) if t)
        away = await self._back_after_away(row, waiting)
        public.text = "\n".join(t for t in (public.text, notice) if t)
        # Whoever the game now waits on is pinged, an optional offer with a default (a boost
        # before the dice, which card to lose) too: unpinged, it was decided by its time-out
        # before its player knew of it (the sixth and seventh play-tests). Those told of this wait
        # and who have not acted since are not pinged again (one_message).
        public.mentions = [s.user_id for s in waiting]
        hand = Choice("Show my hand", str(ButtonId(row.id, 0, "h")), "success")
        if game.has_hands and (not turn.decision or private_moves(game, state, sorted(turn.seats))):
            # A menu built from one seat's legal moves names the cards in its hand, and would show
            # them to the whole channel; each player opens their own menu privately instead.
            move = Choice("Choose my move", str(ButtonId(row.id, version, "p", "0 ")), "primary")
            public.choices = [move, hand]
            public.placeholder = ""
        else:
            # A decision the rules hand the players (a tie, a reroll) holds no private card: its
            # answers go straight on the public post.
            actions = game.legal_actions(state, waiting[0].seat)
            labels = {str(a): game.choice_label(state, a) for a in actions}
            legal = [str(a) for a in actions]
            public.choices, public.placeholder = menu(row.id, version, legal, labels=labels)
            if game.has_hands:
                public.choices.append(hand)
        if away:
            # Someone whose turn comes after a long absence can catch up privately in one press.
            public.choices.append(Choice("What happened since my last move", str(ButtonId(row.id, 0, "w"))))
        return posts

    async def _when(self, row: SessionRow) -> str:
        """When a pending default is taken, in the channel's words."""
        minutes = await self.server.number(row.guild, "decision_minutes")
        if row.deadline:
            return f"by {when_label(row.deadline)} ({count(minutes, 'minute')})"
        return f"within {count(minutes, 'minute')}"

    async def _back_after_away(self, row: SessionRow, waiting: Sequence[SeatRow]) -> bool:
        """Whether a person now awaited last moved at least `reminder_hours` ago (and has moved):
        their last turn, not an answer to a question since (a respawn corner answered on return)."""
        hours = await self.server.number(row.guild, "reminder_hours")
        if self.clock() - row.created < hours * 3600:
            # Every move here was made since the game was opened: in a game younger than that,
            # nobody is back from so long away, and the log need not be read (a live game's moves).
            return False
        in_force: list[ActionRow] | None = None  # the log, read once, only if a seat needs it
        recent = await self.repo.recent_moves(row.id, [s.user_id for s in waiting], LOOK_BACK)
        for seat in waiting:
            moves = recent.get(seat.user_id)
            if moves is None:
                continue
            at = moves.last_at
            if self.clock() - at < hours * 3600:
                if moves.undo_since:
                    # Some of those moves may have been taken back: the log says which are in force.
                    if in_force is None:
                        rows = await self.repo.actions(row.id)
                        taken = undone(rows)
                        in_force = [a for a in rows if a.seq not in taken]
                    turn = await last_turn(self.repo, row, in_force, seat.user_id, moves)
                else:
                    turn = turn_among(row, moves.moves, moves.frames)
                at = turn.at if turn is not None else at
            if self.clock() - at >= hours * 3600:
                return True
        return False

    async def game_over(
        self, row: SessionRow, game: Game[Any, Any], state: Any, outcome: dict[str, Any], post: Post
    ) -> None:
        """The end of a game: the result, the game's own figures (rounds survived, kills...), moves,
        duration and who took longest, a ping for every seated person and a Rematch button; the
        animated replay follows in a post of its own (Replays.follow_with_replay)."""
        # A game that ends by its rules says why in its own last event, already in the post: the
        # game-over line then gives the result alone, so the reason is read once.
        lines = [result_line(row, outcome, post.text)]
        figures = dict(game.summary(state))
        stored = await self.repo.result(row.id)
        if stored is not None:
            figures["Moves"] = str(stored["moves"])
            # The game's length and the one seat it waited on longest, in one unit of time and
            # said apart (a seat's time is the sum of the waits for its moves, within the length).
            length = float(stored["duration_s"] or 0.0)
            figures["Game length"] = f"{_span(length)}, from the start to the end"
            names = {s.seat: s.user_name for s in row.seats if s.ai_level is None}
            timed = [
                (float(s["turn_seconds"] or 0.0), s["seat"]) for s in stored["seats"] if s["seat"] in names
            ]
            if timed and length >= 60:  # in a game of under a minute nobody kept anyone waiting
                slowest, seat = max(timed)
                figures["Waited on longest"] = (
                    f"{seating.person_at(row, names[seat], seat)}, for {_span(slowest)} of the game's "
                    f"{_span(length)}"
                )
        lines += [f"{label}: {text}" for label, text in figures.items()]
        post.text = "\n".join(t for t in (post.text, *lines) if t)
        post.mentions = sorted({s.user_id for s in row.seats if s.ai_level is None})
        self.replays.follow_with_replay(row, game)
        post.choices = [Choice("Rematch", str(ButtonId(row.id, row.version, "m")), "primary")]
        post.placeholder = ""


def phase_views(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The views of the phases that ended inside an automated run, each drawn in the post: the
    last is the final state's, which `after` attaches; at most nine, for Discord's ten files."""
    views = [e.data["view"] for e in events if e.phase_end and "view" in e.data]
    return views[:-1][-9:]


async def forget_turn(repo: Repository, session: int) -> None:
    """A game that ended (or was abandoned) has no turn message to add to, nor its terms to
    explain: its keys leave storage with it."""
    await repo.meta_delete(TURN_KEY + str(session), TERMS_KEY + str(session), TOLD_KEY + str(session))


def turn_started(append_key: str) -> int:
    """The version a turn's message started at, from its append key."""
    return int(append_key.rpartition(":")[2])


def _span(seconds: float) -> str:
    """A duration as people say it: under a minute, 40 minutes, 5 hours, 3 days (a game of 15
    seconds was "1 minute" long, the seventh play-test)."""
    if seconds < 60:
        return "under a minute"
    if seconds < 3600:
        return count(max(1, round(seconds / 60)), "minute")
    if seconds < 2 * 86400:
        return count(round(seconds / 3600, 1), "hour")
    return count(round(seconds / 86400, 1), "day")


def within(lines: list[str], room: int) -> list[str]:
    """Lines that fit in `room` characters: lines from the middle give way first, so that the post
    keeps how a run began and how it ended (a death, the game's end); a line says how many moved
    to the file."""
    size = [len(x) + 1 for x in lines]
    start = end = len(lines) // 2  # the lines left out: lines[start:end]
    while start > 0 or end < len(lines):
        if sum(size) - sum(size[start:end]) + 40 <= room:
            break
        # Widen the gap one line at a time, from the side that keeps more.
        if end < len(lines) and (start == 0 or end - len(lines) // 2 < len(lines) // 2 - start):
            end += 1
        else:
            start -= 1
    if start == end:
        return list(lines)
    return [*lines[:start], f"… ({end - start} more lines in {TRACE_FILE}) …", *lines[end:]]
