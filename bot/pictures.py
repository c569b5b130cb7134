"""Board pictures drawn in worker processes, so drawing never holds the event loop's GIL.

Drawing a board is ~13 ms of pure-Python-and-Pillow CPU; in a thread it competes with the loop
for the GIL (measured by bench/: database p99 doubled under load), in a process it does not.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any

from render import render_board

log = logging.getLogger("tablebot.pictures")

_pool: ProcessPoolExecutor | None = None
_lifeline: Connection | None = None  # this process holds the sending end until it dies
_workers_usable = True
_drawn_in_workers = 0  # a pool that never drew a picture is not started again


def _executor() -> ProcessPoolExecutor:
    global _pool, _lifeline
    if _pool is None:
        # forkserver: workers fork from a clean process that has imported render/ once, never from
        # this one, whose threads (aiosqlite, asyncio) could hold a lock at fork time.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["render"])
        watch, _lifeline = context.Pipe(duplex=False)
        _pool = ProcessPoolExecutor(
            max_workers=os.cpu_count() or 1,
            mp_context=context,
            initializer=_exit_with_owner,
            initargs=(watch,),
        )
    return _pool


def _exit_with_owner(watch: Connection) -> None:
    """In each worker: leave as soon as the bot that owns the pool is gone. Pool workers do not
    notice on their own, and a SIGKILLed bot must not leave them running (holding its pipes)."""

    def wait() -> None:
        try:
            watch.recv()
        except EOFError:  # the owner's end closed: it exited or was killed
            os._exit(0)

    threading.Thread(target=wait, daemon=True, name="owner-watch").start()


async def draw(game_id: str, view: dict[str, Any], names: dict[str, str]) -> bytes:
    """The board picture as PNG bytes, drawn in a worker process (in a thread if the pool broke)."""
    global _pool, _workers_usable, _drawn_in_workers
    if not _workers_usable:
        return await asyncio.to_thread(render_board, game_id, view, names)
    loop = asyncio.get_running_loop()
    try:
        png = await loop.run_in_executor(_executor(), render_board, game_id, view, names)
    except BrokenProcessPool:
        _pool = None
        if not _drawn_in_workers:
            # Workers that never started (e.g. a __main__ they cannot re-import, such as a script
            # read from stdin) would fail the same way again: draw in threads from now on.
            _workers_usable = False
            log.warning("picture workers cannot start here; pictures are drawn in threads instead")
        else:
            # A worker died (killed, out of memory): a fresh pool next time, this one here.
            log.warning("picture worker pool broke; drawing in a thread and restarting the pool")
        return await asyncio.to_thread(render_board, game_id, view, names)
    _drawn_in_workers += 1
    return png
