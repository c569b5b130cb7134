"""Board pictures drawn in worker processes, so drawing never holds the event loop's GIL.

Drawing a board is 1-3 ms of Python-and-Pillow CPU since the layered kit (issue 19; it was ~13
ms), but in a thread it would still compete with the loop for the GIL (measured by bench/ when
it was 13 ms: database p99 doubled under load); in a process it does not. Each worker keeps its
own picture caches (render/kit/caches.py: bounded, least recently used evicted).

The loop talks to each worker over a socket of its own, read and written by the loop itself:
a ProcessPoolExecutor's two helper threads in this process took the GIL from the loop on every
picture (measured by bench/: about a millisecond of the loop's time per move at 200 sessions).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import multiprocessing
import os
import pickle
import socket
import struct
from multiprocessing.process import BaseProcess
from typing import Any

from render import close_up, render_board
from render.replay import animate, recap_picture

log = logging.getLogger("tablebot.pictures")

_HEADER = struct.Struct(">IB")  # length of the body, then 0: a picture, 1: an error's text
_workers_usable = True
_drawn_in_workers = 0  # workers that never drew a picture are not started again


class _WorkerGone(Exception):
    """The worker's socket closed before it answered: it died or never started."""


def _close_up_bytes(game_id: str, png: bytes, view: dict[str, Any]) -> bytes:
    """The close-up as a worker answers it: bytes, empty where the whole board reads (a picture
    never is empty)."""
    return close_up(game_id, png, view) or b""


# What a worker can be asked to draw: a board, an animated replay, a recap picture, a board's
# close-up (70-90 ms of CPU for the big boards: in a thread it took 20-25 ms of the loop's).
_JOBS: dict[str, Any] = {
    "board": render_board,
    "replay": animate,
    "recap": recap_picture,
    "close_up": _close_up_bytes,
}


def _serve(sock: socket.socket, niceness: int = 0) -> None:
    """In each worker: answer requests in order until the bot's end of the socket closes (the
    bot exited or was killed, even by SIGKILL), then leave."""
    if niceness:
        os.nice(niceness)
    stream = sock.makefile("rb")
    while True:
        head = stream.read(4)
        if len(head) < 4:
            os._exit(0)
        (size,) = struct.unpack(">I", head)
        body = stream.read(size)
        if len(body) < size:
            os._exit(0)
        try:
            job, args = pickle.loads(body)
            reply, status = _JOBS[job](*args), 0
        except Exception as exc:  # the bot logs it; the worker stays up for the next picture
            reply, status = f"{type(exc).__name__}: {exc}".encode(), 1
        sock.sendall(_HEADER.pack(len(reply), status) + reply)


class _Worker:
    def __init__(
        self,
        process: BaseProcess,
        sock: socket.socket,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        self.process = process
        self.sock = sock  # this end, under the streams
        self.reader = reader
        self.writer = writer
        self.pending: collections.deque[asyncio.Future[bytes]] = collections.deque()
        self.alive = True
        # Named as the bot's background work (bot/discord_edits.py BACKGROUND): it lives as long
        # as the worker, not as long as the interaction whose picture happened to start it.
        self.task = asyncio.get_running_loop().create_task(
            self._answers(), name="tablebot-background:picture-worker"
        )

    async def _answers(self) -> None:
        """Hand each answer to the oldest waiting request (a worker answers in order)."""
        try:
            while True:
                size, status = _HEADER.unpack(await self.reader.readexactly(_HEADER.size))
                body = await self.reader.readexactly(size)
                future = self.pending.popleft()
                if future.done():
                    continue
                if status == 0:
                    future.set_result(body)
                else:
                    future.set_exception(RuntimeError(f"picture worker: {body.decode(errors='replace')}"))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            self.alive = False
            while self.pending:
                future = self.pending.popleft()
                if not future.done():
                    future.set_exception(_WorkerGone())

    async def draw(self, job: str, args: tuple[Any, ...]) -> bytes:
        body = pickle.dumps((job, args), protocol=pickle.HIGHEST_PROTOCOL)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.pending.append(future)
        self.writer.write(struct.pack(">I", len(body)) + body)
        await self.writer.drain()
        return await future

    def close(self) -> None:
        """Close this end of the socket: the worker reads its end and leaves."""
        self.alive = False
        if self.task.get_loop().is_closed():
            # The loop that owned it has ended (a bot or a test run another after it): its
            # transport can no longer schedule anything, so the socket is closed directly.
            self.sock.close()
            return
        self.task.cancel()
        self.writer.close()


class _Pool:
    """One worker per core, started on first use, bound to the event loop that started it, at a
    CPU priority below the bot's. The replays' pool has one worker of its own, at a lower
    priority still: a long replay never queues another channel's board behind it, and the cores
    go to moves first."""

    def __init__(self, loop: asyncio.AbstractEventLoop, size: int | None = None, niceness: int = 0) -> None:
        self.loop = loop
        self.size = size or os.cpu_count() or 1
        self.niceness = niceness
        # forkserver: workers fork from a clean process that has imported render/ once, never
        # from this one, whose threads (aiosqlite, asyncio) could hold a lock at fork time.
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["render"])
        self.workers: list[_Worker] = []
        self._processes: dict[int, BaseProcess] = {}  # by pid (tests read the workers' pids here)
        self._starting = asyncio.Lock()  # pictures asked for at once start one set of workers

    async def _start(self) -> _Worker:
        mine, theirs = socket.socketpair()
        process = self.context.Process(
            target=_serve, args=(theirs, self.niceness), daemon=True, name="picture-worker"
        )
        # Starting a process (and, the first time, the forkserver) takes a while: off the loop, so
        # it never lands inside an interaction's three seconds.
        await asyncio.to_thread(process.start)
        theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=mine)
        worker = _Worker(process, mine, reader, writer)
        assert process.pid is not None
        self._processes[process.pid] = process
        return worker

    async def worker(self) -> _Worker:
        """The live worker with the fewest pictures waiting; dead ones are replaced."""
        for dead in [w for w in self.workers if not w.alive]:
            self.workers.remove(dead)
            self._drop(dead)
        if len(self.workers) < self.size:
            async with self._starting:
                while len(self.workers) < self.size:
                    self.workers.append(await self._start())
        return min(self.workers, key=lambda w: len(w.pending))

    def _drop(self, worker: _Worker) -> None:
        worker.close()
        if worker.process.pid is not None:
            self._processes.pop(worker.process.pid, None)
        worker.process.join(timeout=0)  # reap it if it has exited

    def close(self) -> None:
        for w in self.workers:
            self._drop(w)
        self.workers.clear()


_pool: _Pool | None = None
_replay_pool: _Pool | None = None
# Pictures run at a lower CPU priority than the bot's own process: under a burst the event loop,
# which owes each interaction its first answer within 3 seconds, gets the cores first (on one
# core, 200 starts within a second answered late while two workers at the loop's priority drew).
# Replays lower still, so that a long one never holds up a board.
BOARD_NICENESS = 10
REPLAY_NICENESS = 15


def _executor() -> _Pool | None:
    """The pool of the running bot, if it has started (its workers' pids are `_processes`)."""
    return _pool


async def draw(game_id: str, view: dict[str, Any], names: dict[str, str]) -> bytes:
    """The board picture as PNG bytes, drawn in a worker process (in a thread if none can run)."""
    return await _run("board", (game_id, view, names))


async def replay(
    game_id: str, frames: list[tuple[str, dict[str, Any]]], names: dict[str, str], most: int
) -> bytes:
    """An animated replay (render.replay.animate) of at most `most` frames, drawn in the
    replays' own worker."""
    return await _run("replay", (game_id, frames, names, most))


async def close_up_of(game_id: str, png: bytes, view: dict[str, Any]) -> bytes | None:
    """The board's close-up for phones (render.close_up); None where the whole board reads."""
    return await _run("close_up", (game_id, png, view)) or None


async def recap(game_id: str, view: dict[str, Any], changes: dict[str, Any], names: dict[str, str]) -> bytes:
    """The board with what changed since a player's last move marked (render.replay.recap_picture)."""
    return await _run("recap", (game_id, view, changes, names))


def _board_pool() -> _Pool:
    """The running event loop's pool of board workers (made, not yet started, on first use)."""
    global _pool
    loop = asyncio.get_running_loop()
    if _pool is None or _pool.loop is not loop:
        if _pool is not None:
            _pool.close()  # a pool of an event loop that has ended (tests run several)
        _pool = _Pool(loop, niceness=BOARD_NICENESS)
    return _pool


async def start_workers() -> None:
    """Start the board workers now, at the bot's start-up: the first start (and the forkserver's
    import of render/) costs a second of CPU, which must not fall inside the three seconds of
    the first interactions that ask for a picture. Where workers cannot start, pictures are
    drawn in threads (as when a picture finds them unusable); the bot starts either way."""
    if not _workers_usable:
        return
    pool = _board_pool()
    try:
        await pool.worker()
    except Exception:
        _give_up_on_workers(pool)


def _give_up_on_workers(pool: _Pool) -> None:
    """Workers that cannot start here (e.g. a __main__ they cannot re-import, such as a script
    read from stdin) would fail the same way again: draw in threads from now on."""
    global _workers_usable
    _workers_usable = False
    pool.close()
    log.warning("picture workers cannot start here; pictures are drawn in threads instead", exc_info=True)


def _replays_pool() -> _Pool:
    """The running event loop's one replay worker (made, not yet started, on first use)."""
    global _replay_pool
    loop = asyncio.get_running_loop()
    if _replay_pool is None or _replay_pool.loop is not loop:
        if _replay_pool is not None:
            _replay_pool.close()
        _replay_pool = _Pool(loop, size=1, niceness=REPLAY_NICENESS)
    return _replay_pool


async def _run(job: str, args: tuple[Any, ...]) -> bytes:
    global _drawn_in_workers
    if not _workers_usable:
        return await asyncio.to_thread(_JOBS[job], *args)
    pool = _replays_pool() if job == "replay" else _board_pool()
    try:
        png = await (await pool.worker()).draw(job, args)
    except (_WorkerGone, OSError):
        if not _drawn_in_workers:
            _give_up_on_workers(pool)
        else:
            # A worker died (killed, out of memory): this picture here, a fresh worker next time.
            log.warning("a picture worker died; drawing in a thread and starting another")
        return await asyncio.to_thread(_JOBS[job], *args)
    _drawn_in_workers += 1
    return png
