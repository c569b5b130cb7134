"""The animated replay: a frame is stored with every public board picture (one per turn, or per
phase in co-op games), and `/game replay` (and the end of a game) turns the frames still in
force into one animation, drawn in the replays' own picture worker from the stored public views.

Frames hold the spectators' view of their moment, so a replay of a running game shows only what
was public at each moment, and no game is replayed from its start to draw one.
"""

from __future__ import annotations

import asyncio
import bisect
import itertools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.host import seating
from bot.host.core import SAID_END, said_in
from bot.host.drawing import Drawing
from bot.host.follow_ups import FollowUps
from bot.host.moves import effective_moves, undone
from bot.host.sessions import Sessions
from bot.menus import whole_number
from bot.posts import Attachment, Caller, Post
from engine import Event, Game, GameError, OptionError, get_game
from engine.words import count
from render.replay import FINAL_POST_FRAMES, MAX_FRAMES, caption_chars, frame_count
from storage import ActionRow, FrameRow, Repository, SessionRow
from storage.rows import FrameCaption, NewFrame, RecentMoves

log = logging.getLogger("tablebot.host")

CAPTION_CHARS = 240  # two lines under the board (render/replay.py wraps them)
# The room the frame's label takes before its caption (numbered: "Frame 100 of 400 · Round 10 · ").
LABEL_CHARS = len(f"Frame {MAX_FRAMES // 4} of {MAX_FRAMES} · Round 10 · ")


def frames_of_action(
    game: Game[Any, Any],
    state: Any,
    who: str,
    events: Sequence[Event],
    final: bool,
    said: str = "",
    answered: bool = False,
) -> list[NewFrame]:
    """The frames an action draws, as the channel sees its pictures: one for each phase that
    ended inside an automated run (from the public view the game put in the event), the last
    of them being the final position's; every action in a game that draws every move; and the
    final position of a game that just ended. Captions hold only what the table was told: the
    public events, else the move's public form (`said`: "plays a card face down").

    The first picture is the mover's turn, credited to them; every later one is a phase the game
    ran by itself, and so is the first when the move only answered a question the game asked
    (`answered`: a divine-favor prompt, a tie, a respawn corner, a default taken), credited to
    the phase itself: its caption is the phase's headline (its summary: units hit and lost)."""
    phases = [k for k, e in enumerate(events) if e.phase_end]
    if not (game.picture_every_action or phases or final):
        return []
    # The events between two phase ends belong to the later phase; the rest to the last picture.
    ends = [k for k in phases if "view" in events[k].data][:-1]
    bounds = list(zip([0, *[k + 1 for k in ends]], [*[k + 1 for k in ends], len(events)], strict=True))
    views = [dict(events[k].data["view"]) for k in ends] + [game.view(state, None)]
    # An answer's picture is the phase it let run when one ended in it; an answer that only
    # drew its own picture (a retreat chosen, in a game that draws every move) is the mover's.
    automated = [
        n > 0 or (answered and any(e.phase_end for e in events[start:stop]))
        for n, (start, stop) in enumerate(bounds)
    ]
    # A game may put a phase's summary first in its post (Ignite's Enemy Phase): headlines
    # before anything else belong to the first phase the game ran, not to the mover's turn.
    lead = 0
    if any(automated):
        while lead < len(events) and events[lead].headline and not events[lead].phase_end:
            lead += 1
    first_run = automated.index(True) if any(automated) else -1
    frames: list[NewFrame] = []
    for n, ((start, stop), view) in enumerate(zip(bounds, views, strict=True)):
        part = list(events[max(start, lead) : stop])
        if n == first_run:
            part = list(events[:lead]) + part
        if automated[n]:
            frames.append((_phase_caption(part, said if n == 0 else ""), view))
        else:
            frames.append((_turn_caption(who, part, said), view))
    return frames


def _phase_caption(events: Sequence[Event], said: str) -> str:
    """A phase the game ran: its headlines (the summary: who was hit, who died), else how it ended."""
    public = [e for e in events if e.to is None and e.text]
    headlines = [e.text for e in public if e.headline]
    ended = next((e.text for e in reversed(public) if e.phase_end), "")
    return fit_caption(" ".join(headlines) or ended or (public[0].text if public else said))


def _turn_caption(who: str, events: Sequence[Event], said: str) -> str:
    """The mover's turn: what it did, up to its end (a phase that began after it and paused for
    a question is told in the picture after the answer)."""
    public = [e for e in events if e.to is None and e.text]
    cut = next((k for k, e in enumerate(public) if e.phase_end), len(public) - 1)
    return _caption(who, " ".join(e.text for e in public[: cut + 1]) or said)


def _caption(who: str, text: str) -> str:
    return fit_caption(f"{who}: {text}" if text else who)


def cut_text(text: str, most: int) -> str:
    """`text` up to `most` characters, cut after a sentence where one ends in time (`most` 0:
    its first sentence only)."""
    text = " ".join(text.split())
    if most <= 0:  # the first sentence only
        end = text.find(". ")
        return text if end < 0 else text[: end + 1] + " …"
    if len(text) <= most:
        return text
    end = text.rfind(". ", 0, most)
    return text[: end + 1] + " …" if end > most // 3 else text[: most - 1].rstrip() + "…"


def fit_caption(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= CAPTION_CHARS else line[: CAPTION_CHARS - 1].rstrip() + "…"


# Where a view keeps its figures, and what each figure's place, strength and owner are called.
FIGURE_LISTS = ("units", "minions", "fighters", "heroes", "war_machines")
PLACE_KEYS = ("square", "hex", "area")
OWNER_KEYS = ("seat", "owner", "colour")


@dataclass(frozen=True)
class Figure:
    id: str
    label: str
    owner: str
    kind: str  # the view list it came from: "units", "minions"...
    place: str | None
    strength: tuple[float, ...]  # health, figures, less damage: lower is worse

    @property
    def name(self) -> str:
        """The id the log and the picture use for it ("St1", "m4")."""
        return self.id.split(":", 1)[-1]


def figures(view: Mapping[str, Any]) -> dict[str, Figure]:
    """Every figure on the board that a view names, by id (the common view shape of our games:
    lists, or tables by id, of figures with a place; a figure without one, or defeated, is off
    the board)."""
    out: dict[str, Figure] = {}
    for kind in FIGURE_LISTS:
        items = view.get(kind)
        if isinstance(items, Mapping):
            entries = [(str(k), v) for k, v in items.items()]
        elif isinstance(items, list):
            entries = [(str(v.get("id")), v) for v in items if isinstance(v, Mapping) and "id" in v]
        else:
            continue
        for key, item in entries:
            if isinstance(item, Mapping) and not item.get("defeated"):
                figure = figure_of(kind, str(item.get("id") or key), item)
                if figure.place is not None:
                    out[figure.id] = figure
    for kind in ("dragon", "villain"):  # the one enemy figure some games have
        one = view.get(kind)
        if isinstance(one, Mapping):
            figure = figure_of(kind, kind, one)
            if figure.place is not None:
                out[kind] = figure
    return out


def figure_of(kind: str, name: str, item: Mapping[str, Any]) -> Figure:
    place = next((item[k] for k in PLACE_KEYS if item.get(k) is not None), None)
    owner = next((str(item[k]) for k in OWNER_KEYS if item.get(k) is not None), "")
    # Health, figures left, and damage taken: a count, the cards a hero has lost to it, or (the
    # Great Dragon) a count per side that has wounded it.
    strength = (
        float(item.get("health") or 0),
        float(item.get("figures") or 0),
        -_damage_taken(item.get("damage")),
    )
    label = f"the {kind}" if kind in ("dragon", "villain") else name
    shown = str(item.get("label") or item.get("title") or item.get("hero") or item.get("name") or "")
    if shown and shown != label and kind not in ("dragon", "villain"):
        label += f" [{shown}]"  # the id the log uses, and the mark on the picture
    # As the channel names it: by the name the view gives it where that name holds its mark on
    # the picture ("green minion #2", marked "#2"; a unit type's name shared by many is no name),
    # a war machine by its kind ("ballista w1").
    own = item.get("name")
    mark = item.get("label")
    if (
        isinstance(own, str)
        and isinstance(mark, str)
        and mark
        and mark in own
        and kind not in ("dragon", "villain")
    ):
        label = own
    elif kind == "war_machines" and item.get("kind"):
        label = f"{item['kind']} {label}"
    fid = kind if kind in ("dragon", "villain") else f"{kind}:{name}"
    return Figure(fid, label, owner, kind, None if place is None else str(place), strength)


def _damage_taken(damage: Any) -> float:
    if isinstance(damage, Mapping):
        return sum(_damage_taken(v) for v in damage.values())
    if isinstance(damage, list):
        return float(len(damage))
    return float(damage or 0)


def frames_in_force(rows: Sequence[ActionRow], frames: Sequence[FrameRow]) -> list[FrameRow]:
    """The frames of the line of play in force: the start's and those of moves no undo took back."""
    taken = undone(rows)
    by_version = {a.version: a for a in rows if a.version is not None}
    keep = []
    for f in frames:
        row = by_version.get(f.version)
        if row is None or (row.kind in ("action", "timeout", "resign") and row.seq not in taken):
            keep.append(f)
    return keep


def with_turns(row: SessionRow, rows: Sequence[ActionRow], frames: Sequence[FrameRow]) -> list[FrameRow]:
    """The frames with each caption telling its turn's substance. A game that draws one picture
    per turn (Ignite) logs the turn as many moves (cards played, units moved, attacks) and draws
    its picture at the last, `end`: the moves logged since the frame before, as the channel was
    told them, go into the caption after who made them. The figures lost or destroyed since the
    frame before and not named yet come first in a turn's caption, last in a phase's (whose
    summary says them already)."""
    by_version = {a.version: a for a in rows if a.version is not None}
    # The moves by version, with who made them, so each frame finds those since the frame before
    # by bisection.
    taken = undone(rows)
    moves = sorted(
        (a.version, seating.who(row, a.seat or "", a.kind), _told(a))
        for a in rows
        if a.version is not None and a.kind == "action" and a.seq not in taken
    )
    versions = [v for v, _, _ in moves]
    out = list(frames[:1])
    for before, f in itertools.pairwise(frames):
        action = by_version.get(f.version)
        # A turn's caption gains its mover and moves; an end by a player's word names them already.
        mover = turn_mover(row, action, f) if action is not None and action.kind != "resign" else None
        if mover is not None:
            since = bisect.bisect_right(versions, before.version)
            told = [(m, t) for _, m, t in moves[since : bisect.bisect_left(versions, f.version)]]
            caption = fit_caption(
                _turns_caption(row.game, [*told, (mover, f.caption.removeprefix(mover + ": "))], before, f)
            )
        else:
            caption = fit_caption(f"{f.caption} {_losses(before.view, f.view, f.caption)}")
        out.append(FrameRow(f.version, f.n, caption, f.view))
    return out


def _turns_caption(game_id: str, told: Sequence[tuple[str, str]], before: FrameRow, f: FrameRow) -> str:
    """The caption of the turns since the frame before, each mover named once before their moves
    (a frame may hold several players' turns: Ignite's placement draws one picture for all), the
    figures lost and not yet named first."""
    groups: list[tuple[str, list[str]]] = []
    for mover, text in told:
        if groups and groups[-1][0] == mover:
            groups[-1][1].append(text)
        else:
            groups.append((mover, [text]))
    said = " ".join(t for _, t in told)
    lost = _losses(before.view, f.view, said)
    if len(groups) == 1:
        return f"{groups[0][0]}: " + " ".join([lost, said])
    # Each mover gets a fair share of what the picture shows, so the last is not cut off.
    share = (caption_chars(game_id) - LABEL_CHARS) // len(groups)
    return " ".join([lost, *(f"{mover}: {cut_text(' '.join(texts), share)}" for mover, texts in groups)])


def turn_mover(row: SessionRow, action: ActionRow, frame: FrameRow | FrameCaption) -> str | None:
    """Who a frame's caption credits with the move that drew it ("red (alice)"), or None when
    it is a phase the game ran by itself (captioned without a mover: see frames_of_action).
    The caption names the seat's holder when the move was made: a seat handed to the bot or
    taken back since still names its mover, so it is read by the seat, whoever holds it now."""
    if frame.n > 0:
        return None
    now = seating.who(row, action.seat or "", action.kind)
    if frame.caption.startswith(now + ": "):
        return now
    if action.kind == "timeout" or not action.seat or not frame.caption.startswith(f"{action.seat} ("):
        return None
    holder, colon, _ = frame.caption.removeprefix(f"{action.seat} (").partition("): ")
    return f"{action.seat} ({holder})" if colon else None


def ran_by_itself(row: SessionRow, action: ActionRow, frame: FrameRow | FrameCaption) -> bool:
    """Whether a frame is a phase the game ran by itself, not the turn of whoever made the move
    that drew it (turn_mover). The frame of a game ended by a player's word (a resignation, a
    concession) is theirs, whatever its caption."""
    if action.kind == "resign":
        return False
    return turn_mover(row, action, frame) is None


LOOK_BACK = 6  # of a player's own moves, for their last turn (an Ignite turn ends in one)


async def last_turn(
    repo: Repository,
    row: SessionRow,
    in_force: Sequence[ActionRow],
    user_id: str,
    known: RecentMoves | None = None,
) -> ActionRow | None:
    """A player's last move of their own turn: their latest move that drew a picture of their
    turn. Answering a question the game asked (a respawn corner, a tie, a divine-favor prompt)
    draws only the phase it let run, or nothing: a player back from days away who answers one is
    still catching up. Else (a game before frames were kept, a turn still under way) their latest move.
    `known`: their recent moves as already read with their frames; when those include every
    recent move still in force (an undo took some back), their frames are not read again."""
    mine = [a for a in in_force if a.user_id == user_id and a.kind == "action" and a.version is not None]
    if not mine:
        return None
    recent = mine[-LOOK_BACK:]
    if known is not None and {a.seq for a in recent} <= {a.seq for a in known.moves}:
        return turn_among(row, recent, known.frames)
    frames = await repo.frames(row.id, (recent[0].version or 0) - 1)
    return turn_among(row, recent, frames)


def turn_among(
    row: SessionRow, recent: Sequence[ActionRow], frames: Sequence[FrameRow | FrameCaption]
) -> ActionRow | None:
    """Of a player's recent moves in force (oldest first), the last of their own turn (see
    last_turn), given the frames those moves drew; else the latest of them."""
    by_version: dict[int, list[FrameRow | FrameCaption]] = {}
    for f in frames:
        by_version.setdefault(f.version, []).append(f)
    for a in reversed(recent):
        if any(not ran_by_itself(row, a, f) for f in by_version.get(a.version or -1, [])):
            return a
    return recent[-1] if recent else None


def _told(action: ActionRow) -> str:
    """What the channel was told a logged move did (its public events), else its public form."""
    said, _, events = action.summary.partition(SAID_END)
    return events or said


def _losses(before: dict[str, Any], after: dict[str, Any], said: str) -> str:
    """The figures that left the board between two public views and are not already named."""
    now = figures(after)
    gone = [f for fid, f in figures(before).items() if fid not in now and f.name not in said]
    if not gone:
        return ""
    return "Lost: " + ", ".join(f.label for f in gone) + "."


MOVE = "Move"  # a frame of a game that draws every move (frame_word)


def numbered(
    frames: Sequence[FrameRow], start: int = 0, word: str = "Frame", closing: bool = False
) -> list[tuple[str, dict[str, Any]]]:
    """Captions with each frame's number (0 is the dealt position), from frame `start` on, and
    the game's own round where its view counts rounds: "Frame 7 of 21 · Round 3". `word` is
    what a frame is in this game ("Move" where every move draws one). The round is the one the
    turn or phase was played in, as the board before it says (an Enemy Phase's picture already
    shows the next round begun). `closing`: the last frame is a game ended by a player's word
    (a resignation, a concession), "End", not a turn counted among the others."""
    total = len(frames) - 1 - closing
    out = []
    for k, f in enumerate(frames):
        if k < start:
            continue
        # A move's frame shows the board after it: said so, as the picture's own title counts the
        # move to come ("Move 21 · Water to move" is the frame of move 20).
        counted = f"After move {k} of {total}" if word == MOVE else f"{word} {k} of {total}"
        label = "Start" if k == 0 else "End" if k > total else counted
        round_no = frames[k - 1].view.get("round") if k else None
        # A phase's summary that opens with its round says it already ("Round 1 of 20, Enemy Phase").
        told = f.caption.startswith(f"Round {round_no} ")
        if isinstance(round_no, int) and not isinstance(round_no, bool) and round_no > 0 and not told:
            label += f" · Round {round_no}"
        out.append((f"{label} · {f.caption}" if f.caption else label, f.view))
    return out


def frame_word(game: Game[Any, Any]) -> str:
    """What one frame of this game's replay is, in the game's words: where every move draws a
    picture a frame is a move (Ignis's title bar counts "Move 14"; a Dire Alliance or BattleLore
    turn is several orders and attacks, each its own frame), else a frame of turns and phases."""
    return MOVE if game.picture_every_action else "Frame"


class Replays:
    """`/game replay`, and the animation the final post carries, from the frames in force."""

    def __init__(self, repo: Repository, sessions: Sessions, drawing: Drawing) -> None:
        self.repo = repo
        self.sessions = sessions
        self.drawing = drawing
        self.follow_ups = FollowUps()  # finished games' replays, drawn after their final posts

    async def cmd_replay(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.latest_row(caller)
        if row.status == "lobby":
            raise GameError("The game has not started yet; its replay begins at /game start.")
        raw = args.get("from", "").strip()
        if raw and not whole_number(raw):
            raise OptionError(
                f"`from` is a frame number as the replay counts them (0 is the start), not `{raw[:20]}`."
            )
        game = get_game(row.game)
        reel = await self.reel(row)
        frames = reel.frames
        if not frames:
            raise GameError(
                "This game has no stored turns to replay (it was played before replays were kept)."
            )
        start = int(raw or 0)
        if start > len(frames) - 1:
            raise OptionError(
                f"This game's replay has frames 0–{len(frames) - 1}; `from:{start}` is past its end."
            )
        word = frame_word(game)
        data = await self.drawing.animation(
            row, game, numbered(reel.frames, start, word, reel.closing), MAX_FRAMES, start, word
        )
        if data is None:
            raise GameError("Pictures are turned off here, so there is no replay to show.")
        running = "" if row.status in ("finished", "abandoned") else " (what was public at each moment)"
        turns = len(reel.frames) - 1 - reel.closing
        part = (
            ""
            if not start
            else ", from its end"
            if start > turns
            else f", from {word.lower()} {start} of {turns}"
        )
        note = await replay_note(reel, data, start)
        text = f"Replay of the {game.title} game{part}{running}: {note}"
        return [Post(caller.channel, text, to=caller.user_id, files=[data])]

    async def frames(self, row: SessionRow) -> list[FrameRow]:
        """The frames of the line of play in force (rebuilt from the log for an old game)."""
        return (await self.reel(row)).frames

    async def captioned(self, row: SessionRow, game: Game[Any, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The frames in force as the animation draws them: numbered, each with its caption."""
        reel = await self.reel(row)
        return numbered(reel.frames, 0, frame_word(game), reel.closing)

    async def reel(self, row: SessionRow) -> Reel:
        """The frames in force, with their turns' captions, and what each is."""
        rows = await self.repo.actions(row.id)
        stored = await self.repo.frames(row.id)
        if stored or row.status == "lobby":
            frames = frames_in_force(rows, stored)
        else:
            # A game played before frames were kept: its frames come from seed + log, once, off the loop.
            game = get_game(row.game)
            frames = await asyncio.to_thread(rebuilt_frames, game, row, effective_moves(rows))
        by_version = {a.version: a for a in rows if a.version is not None}
        phases = [f.version in by_version and ran_by_itself(row, by_version[f.version], f) for f in frames]
        last = by_version.get(frames[-1].version) if len(frames) > 1 else None
        closing = last is not None and last.kind == "resign"
        return Reel(with_turns(row, rows, frames), phases, closing)

    def follow_with_replay(self, row: SessionRow, game: Game[Any, Any]) -> None:
        """A finished game's replay follows its final post (see follow_ups): drawn off the path of
        the move that ended it."""
        self.follow_ups.ask(lambda: self.replay_post(row, game))

    async def replay_post(self, row: SessionRow, game: Game[Any, Any]) -> list[Post]:
        """The whole game as an animation, in a message of its own after the final post; a failure
        loses nothing else (/game replay draws it again)."""
        try:
            reel = await self.reel(row)
            data = await self.drawing.animation(
                row, game, numbered(reel.frames, 0, frame_word(game), reel.closing), FINAL_POST_FRAMES
            )
        except Exception:
            log.exception("the replay of %s session %s failed", game.id, row.id)
            return []
        if data is None:
            return []
        text = f"Replay of the {game.title} game: {await replay_note(reel, data)}"
        return [Post(row.channel, text, files=[data])]


@dataclass(frozen=True)
class Reel:
    """A game's frames in force, captioned with their turns, and what each is."""

    frames: list[FrameRow]
    phases: list[bool]  # for each frame, whether it is a phase the game ran by itself
    closing: bool  # the last frame is the game ended by a player's word, not a turn


async def replay_note(reel: Reel, data: Attachment, start: int = 0) -> str:
    """How many frames an animation of `reel` from frame `start` holds, and what a frame is, as
    its post says it: the start (the dealt position, unnumbered in the captions) when it begins
    there, one per turn, one for each phase the game ran by itself (an Enemy Phase) where there
    are such, and the end when a player's word ended the game."""
    wanted = len(reel.frames) - start
    shown = await asyncio.to_thread(frame_count, data.data)  # a GIF is read through to count
    if shown < wanted:
        return (
            f"{count(wanted, 'frame')}, too many for one picture here: {shown} of them, evenly "
            "spread (the first and the last among them), are shown."
        )
    if wanted == 1:  # one frame is no animation: a plain picture (render.replay.animate)
        return f"1 frame{': the end' if reel.closing else ''}, as a still picture."
    phases = sum(reel.phases[start:])
    turns = wanted - phases - reel.closing - (start == 0)
    kinds = ["one per turn"] if turns else []
    if phases:
        each = "the phase" if phases == 1 else f"each of the {phases} phases"
        kinds.append(f"one for {each} the game ran by itself")
    if reel.closing:
        kinds.append("the end")
    listed = kinds[0] if len(kinds) == 1 else f"{', '.join(kinds[:-1])}, and {kinds[-1]}" if kinds else ""
    said = listed if start else f"the start, then {listed}" if listed else "the start"
    return f"{count(wanted, 'frame')}{':' if start == 0 else ','} {said}."


def rebuilt_frames(game: Game[Any, Any], row: SessionRow, moves: Sequence[ActionRow]) -> list[FrameRow]:
    state = game.setup(seating.seat_order(game, row), row.options, row.seed)
    frames = [FrameRow(0, 0, "the dealt position", game.view(state, None))]
    for a in moves:
        answered = a.kind == "timeout" or bool(game.to_act(state).decision)
        _, events = game.act(state, a.seat or "", a.notation)
        final = game.outcome(state) is not None
        who = seating.who(row, a.seat or "", a.kind)
        made = frames_of_action(game, state, who, events, final, said_in(a.summary), answered)
        frames += [FrameRow(a.version or a.seq, n, c, v) for n, (c, v) in enumerate(made)]
    return frames
