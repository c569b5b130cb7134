"""The animated replay: a frame is stored with every public board picture (one per turn, or per
phase in co-op games), and `/game replay` (and the end of a game) turns the frames still in
force into one animation, drawn in the replays' own picture worker from the stored public views.

Frames hold the spectators' view of their moment, so a replay of a running game shows only what
was public at each moment, and no game is replayed from its start to draw one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from bot.host import seating
from bot.host.core import said_in
from bot.host.drawing import Drawing, replay_note
from bot.host.moves import effective_moves, undone
from bot.host.sessions import Sessions
from bot.menus import whole_number
from bot.posts import Caller, Post
from engine import Event, Game, GameError, OptionError, get_game
from render.replay import FINAL_POST_FRAMES, MAX_FRAMES
from storage import ActionRow, FrameRow, Repository, SessionRow
from storage.repository import NewFrame

log = logging.getLogger("tablebot.host")

CAPTION_CHARS = 120


def frames_of_action(
    game: Game[Any, Any], state: Any, who: str, events: Sequence[Event], final: bool, said: str = ""
) -> list[NewFrame]:
    """The frames an action draws, as the channel sees its pictures: one for each phase that
    ended inside an automated run (from the public view the game put in the event), the last
    of them being the final position's; every action in a game that draws every move; and the
    final position of a game that just ended. Captions hold only what the table was told: the
    public events, else the move's public form (`said`: "plays a card face down")."""
    phases = [e for e in events if e.phase_end]
    if not (game.picture_every_action or phases or final):
        return []
    public = [e.text for e in events if e.to is None and e.text]
    frames: list[NewFrame] = []
    with_view = [e for e in phases if "view" in e.data]
    for e in with_view[:-1]:
        frames.append((_caption(who, e.text if e.to is None else ""), dict(e.data["view"])))
    last_phase = next((e.text for e in reversed(phases) if e.to is None and e.text), "")
    frames.append((_caption(who, last_phase or (public[0] if public else said)), game.view(state, None)))
    return frames


def _caption(who: str, text: str) -> str:
    line = " ".join(f"{who}: {text}".split()) if text else who
    return line if len(line) <= CAPTION_CHARS else line[: CAPTION_CHARS - 1].rstrip() + "…"


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


def numbered(frames: Sequence[FrameRow], start: int = 0) -> list[tuple[str, dict[str, Any]]]:
    """Captions with each frame's number (0 is the dealt position), from frame `start` on."""
    total = len(frames) - 1
    out = []
    for k, f in enumerate(frames):
        if k < start:
            continue
        label = "Start" if k == 0 else f"Turn {k}/{total}"
        out.append((f"{label} · {f.caption}" if f.caption else label, f.view))
    return out


class Replays:
    """`/game replay`, and the animation the final post carries, from the frames in force."""

    def __init__(self, repo: Repository, sessions: Sessions, drawing: Drawing) -> None:
        self.repo = repo
        self.sessions = sessions
        self.drawing = drawing

    async def cmd_replay(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.latest_row(caller)
        if row.status == "lobby":
            raise GameError("The game has not started yet; its replay begins at /game start.")
        raw = args.get("from", "").strip()
        if raw and not whole_number(raw):
            raise OptionError(f"`from` is a turn number (0 is the start), not `{raw[:20]}`.")
        game = get_game(row.game)
        frames = await self.frames(row)
        if not frames:
            raise GameError(
                "This game has no stored turns to replay (it was played before replays were kept)."
            )
        start = int(raw or 0)
        if start > len(frames) - 1:
            raise OptionError(f"This game has turns 0–{len(frames) - 1}; `from:{start}` is past its end.")
        data = await self.drawing.animation(row, game, numbered(frames, start), MAX_FRAMES)
        if data is None:
            raise GameError("Pictures are turned off here, so there is no replay to show.")
        running = "" if row.status in ("finished", "abandoned") else " (what was public at each moment)"
        text = f"Replay of the {game.title} game{running}: {await replay_note(len(frames) - start, data)}"
        return [Post(caller.channel, text, to=caller.user_id, files=[data])]

    async def frames(self, row: SessionRow) -> list[FrameRow]:
        """The frames of the line of play in force (rebuilt from the log for an old game)."""
        rows = await self.repo.actions(row.id)
        stored = await self.repo.frames(row.id)
        if stored or row.status == "lobby":
            return frames_in_force(rows, stored)
        # A game played before frames were kept: its frames come from seed + log, once, off the loop.
        return await asyncio.to_thread(rebuilt_frames, get_game(row.game), row, effective_moves(rows))

    async def replay_into(self, row: SessionRow, game: Game[Any, Any], post: Post) -> None:
        """The final post carries the whole game as an animation; a failure loses nothing else."""
        try:
            frames = await self.frames(row)
            data = await self.drawing.animation(row, game, numbered(frames), FINAL_POST_FRAMES)
        except Exception:
            log.exception("the replay of %s session %s failed", game.id, row.id)
            return
        if data is not None:
            post.files.append(data)
            post.text += f"\nReplay: {await replay_note(len(frames), data)}"


def rebuilt_frames(game: Game[Any, Any], row: SessionRow, moves: Sequence[ActionRow]) -> list[FrameRow]:
    state = game.setup(seating.seat_order(game, row), row.options, row.seed)
    frames = [FrameRow(0, 0, "the dealt position", game.view(state, None))]
    for a in moves:
        _, events = game.act(state, a.seat or "", a.notation)
        final = game.outcome(state) is not None
        who = seating.who(row, a.seat or "", a.kind)
        made = frames_of_action(game, state, who, events, final, said_in(a.summary))
        frames += [FrameRow(a.version or a.seq, n, c, v) for n, (c, v) in enumerate(made)]
    return frames
