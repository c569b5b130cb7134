"""The animated replay: a frame is stored with every public board picture (one per turn, or per
phase in co-op games), and `/game replay` (and the end of a game) turns the frames still in
force into one animation, drawn in the replays' own picture worker from the stored public views.

Frames hold the spectators' view of their moment, so a replay of a running game shows only what
was public at each moment, and no game is replayed from its start to draw one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot import pictures
from bot.host.core import HostCore, log, said_in
from bot.host.votes import effective_moves, undone
from bot.menus import whole_number
from bot.posts import Attachment, Caller, Post
from engine import Event, Game, GameError, OptionError, get_game
from engine.words import count
from render import has_picture, render_board
from render.replay import FINAL_POST_FRAMES, MAX_FRAMES, animate, frame_count
from storage import ActionRow, FrameRow, SessionRow
from storage.repository import NewFrame

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


class Replays(HostCore):
    # What turns frames into one animation when a renderer other than the shipped one is handed
    # in (tests, tools): in a thread. The shipped renderer's replays go to their own worker.
    animator: Callable[[str, Sequence[tuple[str, Mapping[str, Any]]], Mapping[str, str]], bytes] = (
        staticmethod(animate)
    )

    async def _cmd_replay(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._latest_row(caller)
        if row.status == "lobby":
            raise GameError("The game has not started yet; its replay begins at /game start.")
        raw = args.get("from", "").strip()
        if raw and not whole_number(raw):
            raise OptionError(f"`from` is a turn number (0 is the start), not `{raw[:20]}`.")
        game = get_game(row.game)
        frames = await self._frames(row)
        if not frames:
            raise GameError(
                "This game has no stored turns to replay (it was played before replays were kept)."
            )
        start = int(raw or 0)
        if start > len(frames) - 1:
            raise OptionError(f"This game has turns 0–{len(frames) - 1}; `from:{start}` is past its end.")
        data = await self._animation(row, game, numbered(frames, start))
        if data is None:
            raise GameError("Pictures are turned off here, so there is no replay to show.")
        running = "" if row.status in ("finished", "abandoned") else " (what was public at each moment)"
        text = (
            f"Replay of the {game.title} game{running}: {await self._replay_note(len(frames) - start, data)}"
        )
        return [Post(caller.channel, text, to=caller.user_id, files=[data])]

    async def _frames(self, row: SessionRow) -> list[FrameRow]:
        rows = await self.repo.actions(row.id)
        stored = await self.repo.frames(row.id)
        if stored or row.status == "lobby":
            return frames_in_force(rows, stored)
        # A game played before frames were kept: its frames come from seed + log, once, off the loop.
        return await asyncio.to_thread(self._rebuilt_frames, get_game(row.game), row, effective_moves(rows))

    def _rebuilt_frames(
        self, game: Game[Any, Any], row: SessionRow, moves: Sequence[ActionRow]
    ) -> list[FrameRow]:
        state = game.setup(self._seat_order(game, row), row.options, row.seed)
        frames = [FrameRow(0, 0, "the dealt position", game.view(state, None))]
        for a in moves:
            _, events = game.act(state, a.seat or "", a.notation)
            final = game.outcome(state) is not None
            who = self._who(row, a.seat or "", a.kind)
            made = frames_of_action(game, state, who, events, final, said_in(a.summary))
            frames += [FrameRow(a.version or a.seq, n, c, v) for n, (c, v) in enumerate(made)]
        return frames

    async def _animation(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        frames: list[tuple[str, dict[str, Any]]],
        most: int = MAX_FRAMES,
    ) -> Attachment | None:
        """The frames as one animated picture (None when this host draws no pictures)."""
        if self.renderer is None or not has_picture(game.id) or not frames:
            return None
        names = {s.seat: s.user_name for s in row.seats}
        if self.renderer is render_board:
            data = await pictures.replay(game.id, frames, names, most)
        else:
            data = await asyncio.to_thread(self.animator, game.id, frames, names, most)
        ext = "gif" if data[:4] == b"GIF8" else "png"
        return Attachment(
            f"{game.id}-{row.id}-replay.{ext}",
            data,
            description=f"An animated replay of the {game.title} game, one frame per turn.",
        )

    @staticmethod
    async def _replay_note(wanted: int, data: Attachment) -> str:
        shown = await asyncio.to_thread(frame_count, data.data)  # a GIF is read through to count
        if shown < wanted:
            return (
                f"{count(wanted, 'frame')}, too many for one picture here: {shown} of them, evenly "
                "spread (the first and the last among them), are shown."
            )
        return f"{count(wanted, 'frame')}, one per turn (or phase)."

    async def _replay_into(self, row: SessionRow, game: Game[Any, Any], post: Post) -> None:
        """The final post carries the whole game as an animation; a failure loses nothing else."""
        try:
            frames = await self._frames(row)
            data = await self._animation(row, game, numbered(frames), FINAL_POST_FRAMES)
        except Exception:
            log.exception("the replay of %s session %s failed", game.id, row.id)
            return
        if data is not None:
            post.files.append(data)
            post.text += f"\nReplay: {await self._replay_note(len(frames), data)}"
