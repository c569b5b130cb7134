"""What is loaded for the life of the process (the rules and content of every game, the libraries,
a frontend's client), kept out of the garbage collector's full passes wherever the host runs: the
Discord frontend, the console and the benchmarks.

A full pass walks every object the collector tracks; without the freeze it walked this loaded
code, about 130,000 objects, stopping the event loop for 150 ms at a time on our 2-core machine,
in the middle of whatever move or interaction was under way."""

from __future__ import annotations

import gc

# Users in this process that froze what was loaded (tests and shard tests run several clients).
_freezers = 0


def freeze_loaded() -> None:
    """Freeze what is loaded by now (call it after a start: discord.py, every game's rules and
    content, the host), so the collector's full passes skip it, until the last caller thaws."""
    global _freezers
    if _freezers == 0:
        gc.collect()
        gc.freeze()
    _freezers += 1


def thaw_loaded() -> None:
    """The last user that froze has closed: the frozen objects are the collector's again."""
    global _freezers
    _freezers -= 1
    if _freezers == 0:
        gc.unfreeze()
