"""One bot process for the multi-process test: the real Host on a shared database, fed console
lines on stdin as a frontend feeds it interactions, with no Discord and no pictures.

`PYTHONPATH=. python tests/reliability/mp_worker.py DATABASE` reads lines `TAG CONSOLE-LINE` (e.g.
`17 @alice #c4 /play earth a3 east`, or `/press g:12:5:a:earth a3 east` for a button's custom id).
Lines of one channel run in order, as a player waits for each answer; lines of different channels
run at once, as a bot serves many channels. Each line's posts are printed as one JSON line
`{"tag": 17, "posts": [...]}` once the host has answered: that print is the acknowledgement.
`TAG /wait 3660s` moves this process's clock forward by that many seconds and runs the tick
(reminders, time-outs, lobby expiry), as the console's /wait does.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import sys
import time
from collections import defaultdict

from bot.config import load_settings
from bot.console import parse_line
from bot.host import Host
from bot.posts import Caller, Post


def _record(tag: str, posts: list[Post]) -> str:
    return json.dumps(
        {"tag": tag, "posts": [{"channel": p.channel, "to": p.to, "text": p.text} for p in posts]}
    )


async def main(database: str) -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    settings = dataclasses.replace(
        load_settings(env_file="/nonexistent/.env"), db_path=database, rate_limit_per_minute=0
    )
    offset = [0.0]
    host = await Host.open(settings, renderer=None, clock=lambda: time.time() + offset[0])
    # One lock per channel keeps each channel's lines in the order they came.
    channels: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
    running: set[asyncio.Task[None]] = set()

    async def handle(tag: str, line: str) -> None:
        parsed = parse_line(line, "nobody")
        assert parsed is not None, line
        async with channels[parsed.channel]:
            if parsed.command == "wait":
                offset[0] += float(parsed.args["for"].removesuffix("s"))
                posts = await host.tick()
            else:
                caller = Caller(parsed.user, parsed.user, parsed.channel, guild="mp")
                if parsed.command == "press":  # a button's custom id, as Discord sends it back
                    posts = await host.press(caller, parsed.args["id"])
                else:
                    name = "play" if parsed.command == "play" else parsed.sub
                    posts = await host.command(caller, name, parsed.args)
        sys.stdout.write(_record(tag, posts) + "\n")
        sys.stdout.flush()

    print(json.dumps({"tag": "ready", "holder": host.repo.holder}), flush=True)
    try:
        while line := await asyncio.to_thread(sys.stdin.readline):
            tag, _, rest = line.strip().partition(" ")
            task = asyncio.create_task(handle(tag, rest))
            running.add(task)
            task.add_done_callback(running.discard)
        await asyncio.gather(*running)
    finally:
        await host.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
