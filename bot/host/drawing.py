"""Pictures: the board after a turn or phase, its close-up, the recap's marked board and the
animated replay, all drawn off the event loop. A failed picture never loses what it illustrates."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot import metrics, pictures
from bot.host import seating
from bot.posts import Attachment, Post
from engine import Game
from engine.board_text import alt_text
from render import has_picture, needs_close_up, render_board
from render.replay import animate, marked_view
from storage import SessionRow

log = logging.getLogger("tablebot.host")

Renderer = Callable[[str, dict[str, Any], dict[str, str]], bytes]
Animator = Callable[[str, Sequence[tuple[str, Mapping[str, Any]]], Mapping[str, str], int], bytes]


class Drawing:
    """Draws with `renderer`: the shipped render_board runs in worker processes; one handed in
    (tests, tools) runs in a thread, as does `animator` for its replays. None draws nothing."""

    def __init__(self, renderer: Renderer | None, animator: Animator = animate) -> None:
        self.renderer = renderer
        self.animator = animator
        # Boards begun while their move commits (begin), by session, each with the view it
        # shows: the post that shows that view takes it.
        self._begun: dict[int, list[tuple[dict[str, Any], asyncio.Task[bytes | None]]]] = {}
        # Begun and not taken (the commit failed, or a later step's picture replaced it): left to
        # finish, as the worker draws them anyway, and awaited before the host closes.
        self._unclaimed: set[asyncio.Task[bytes | None]] = set()

    def begin(self, row: SessionRow, game: Game[Any, Any], views: Sequence[dict[str, Any]]) -> None:
        """Start drawing `views` now, while the move that made them commits: a board and a commit
        take about as long each (bench/: 2-4 ms), and side by side the move waits for the
        longer only. The picture is shown only once the commit holds (render_into takes it)."""
        if self.renderer is None or not views:
            return
        self.end(row.id)
        names = seating.holder_names(row)
        self._begun[row.id] = [
            (view, asyncio.create_task(self._board(row, game, view, names))) for view in views
        ]

    def end(self, session_id: int) -> None:
        """The command is over: what it began and did not show is not waited for."""
        for _, task in self._begun.pop(session_id, []):
            if not task.done():
                self._unclaimed.add(task)
                task.add_done_callback(self._unclaimed.discard)

    async def close(self) -> None:
        """Let the boards still being drawn finish (a worker draws a board in a few ms)."""
        await asyncio.gather(*self._unclaimed)

    def _taken(self, session_id: int, view: dict[str, Any]) -> asyncio.Task[bytes | None] | None:
        begun = self._begun.get(session_id, [])
        for i, (drawn, task) in enumerate(begun):
            if drawn == view:
                del begun[i]
                return task
        return None

    async def start(self) -> None:
        """Start the shipped renderer's workers before the first picture is asked for."""
        if self.renderer is render_board:
            await pictures.start_workers()

    async def attach_picture(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        state: Any,
        post: Post,
        view: dict[str, Any] | None = None,
    ) -> None:
        """The board's public picture (`view`: the public view to draw, when not the state's own)."""
        view = game.view(state, None) if view is None else view
        drawn = len(post.images)
        await self.render_into(row, game, view, post)
        if len(post.images) > drawn:
            await self.close_up_into(game, view, post)

    async def close_up_into(self, game: Game[Any, Any], view: dict[str, Any], post: Post) -> None:
        """On a phone the whole board's smallest labels are too small: the post's last picture gets
        a close-up of where the action is, of the side panel and a key, enlarged until they read
        (render.close_up)."""
        if self.renderer is not render_board or not post.images:
            return  # a renderer handed in (tests, tools) draws no board to close in on
        if not needs_close_up(game.id):
            return  # the whole board reads on a phone (Ignis): nothing to send to a worker
        try:
            near = await metrics.timed(
                metrics.picture("close_up"), pictures.close_up_of(game.id, post.images[-1].data, view)
            )
        except Exception:  # a close-up is a help, never a reason to lose the post
            log.exception("the close-up of %s failed", game.id, extra={"game": game.id})
            return
        if near is not None:
            name = post.images[-1].filename.removesuffix(".png") + "-close-up.png"
            # At a turn's start the close-up frames the side to act, not a past action.
            what = (
                "A close-up for small screens: where the action is (the latest fight or decision, "
                "else the pieces the side to act is about to move), the side panel's lines, and a key "
                "to the symbols they show."
            )
            post.images.append(Attachment(name, near, description=what))

    async def render_into(
        self, row: SessionRow, game: Game[Any, Any], view: dict[str, Any], post: Post
    ) -> None:
        if self.renderer is None:
            return
        begun = self._taken(row.id, view)
        png = await (begun if begun is not None else self._board(row, game, view, seating.holder_names(row)))
        if png is None:
            return
        if post.images and post.images[-1].data == png:
            return  # the board did not change since the last picture (an empty phase)
        # The picture's alt text is the board in words, for screen readers; past Discord's limit
        # it keeps whole lines and points to /game board format:text for the rest.
        alt = alt_text(game.board_text(view))
        name = f"{game.id}-{row.id}-{row.version}-{len(post.images) + 1}.png"
        post.images.append(Attachment(name, png, description=alt))

    async def _board(
        self, row: SessionRow, game: Game[Any, Any], view: dict[str, Any], names: dict[str, str]
    ) -> bytes | None:
        """The board's PNG, None if it failed (logged)."""
        assert self.renderer is not None
        try:
            if self.renderer is render_board:
                # The shipped renderer runs in worker processes; one handed in (tests, tools)
                # runs in a thread. Either way the event loop stays free.
                return await metrics.timed(metrics.picture("board"), pictures.draw(game.id, view, names))
            return await metrics.timed(
                metrics.picture("board"), asyncio.to_thread(self.renderer, game.id, view, names)
            )
        except Exception:  # a failed picture must never lose the action it follows
            log.exception(
                "rendering %s session %s failed",
                game.id,
                row.id,
                extra={"game": game.id, "session": str(row.id)},
            )
            return None

    async def recap(
        self, row: SessionRow, game: Game[Any, Any], view: dict[str, Any], marks: dict[str, Any]
    ) -> Attachment | None:
        """The board now, with what changed since a player's last move marked."""
        if self.renderer is None or not has_picture(game.id):
            return None
        names = seating.holder_names(row)
        try:
            if self.renderer is render_board:
                png = await metrics.timed(
                    metrics.picture("recap"), pictures.recap(game.id, view, marks, names)
                )
            else:
                # A renderer handed in (tests, tools) draws the marked view itself, in a thread.
                marked = marked_view(game.id, view, marks)
                drawn = view if marked is None else marked
                png = await metrics.timed(
                    metrics.picture("recap"), asyncio.to_thread(self.renderer, game.id, drawn, names)
                )
        except Exception:
            log.exception(
                "the recap picture of %s session %s failed",
                game.id,
                row.id,
                extra={"game": game.id, "session": str(row.id)},
            )
            return None
        alt = "The board now; what changed since your last move is marked."
        return Attachment(f"{game.id}-{row.id}-recap.png", png, description=alt)

    async def animation(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        frames: list[tuple[str, dict[str, Any]]],
        most: int,
        start: int = 0,
        word: str = "Frame",
    ) -> Attachment | None:
        """The frames as one animated picture (None when this host draws no pictures); `start`:
        the frame they begin at (a `word`: "Move" in Ignis), named in the file's name so that a
        part and the whole differ."""
        if self.renderer is None or not has_picture(game.id) or not frames:
            return None
        names = seating.holder_names(row)
        if self.renderer is render_board:
            data = await metrics.timed(
                metrics.picture("replay"), pictures.replay(game.id, frames, names, most)
            )
        else:
            # What turns frames into one animation when a renderer other than the shipped one is
            # handed in (tests, tools): in a thread. The shipped renderer's replays go to their own worker.
            data = await metrics.timed(
                metrics.picture("replay"), asyncio.to_thread(self.animator, game.id, frames, names, most)
            )
        ext = "gif" if data[:4] == b"GIF8" else "png"
        part = f"-from-{start}" if start else ""
        return Attachment(
            f"{game.id}-{row.id}-replay{part}.{ext}",
            data,
            description=f"An animated replay of the {game.title} game"
            + (f", from {word.lower()} {start}." if start else "."),
        )
