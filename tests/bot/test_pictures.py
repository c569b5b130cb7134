"""Pictures drawn in worker processes: the same bytes as drawing in-process, and no workers left
behind when the bot is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import pictures
from bot.host.drawing import Drawing
from bot.posts import Attachment, Post
from engine import get_game
from render import render_board

ROOT = Path(__file__).resolve().parents[2]


async def test_a_picture_from_the_workers_matches_one_drawn_here() -> None:
    game = get_game("ignis")
    state = game.setup(["fire", "water"], game.validate_options({}), 4)
    game.act(state, "fire", "earth a3 east")
    view = game.view(state, None)
    names = {"fire": "alice", "water": "bob"}
    assert await pictures.draw("ignis", view, names) == render_board("ignis", view, names)


async def test_a_close_up_before_anything_happened_claims_no_last_action() -> None:
    """At a turn's start the close-up frames the side to act: its alt text must not say it shows
    where a last action was, as there was none."""
    game = get_game("battlelore")
    state = game.setup(["daqan", "uthuk"], game.validate_options({}), 3)
    for _ in range(60):  # the setup steps, by each first legal move, until units stand on the board
        view = game.view(state, None)
        post = Post("table", "", images=[Attachment("board.png", render_board("battlelore", view, {}))])
        await Drawing(render_board).close_up_into(game, view, post)
        if len(post.images) == 2:
            break
        seat = sorted(game.to_act(state).seats)[0]
        game.act(state, seat, str(game.legal_actions(state, seat)[0]))
    assert len(post.images) == 2, "the board is too wide for a phone: a close-up comes with it"
    assert not view["rolls"]  # nothing has been fought yet: the close-up frames the side to act
    alt = post.images[1].description
    assert "last action" not in alt and "the side to act" in alt, alt


_OWNER = """
import asyncio, sys
import pytest

from bot import pictures
from engine import get_game

async def main():
    game = get_game("ignis")
    state = game.setup(["fire", "water"], game.validate_options({}), 1)
    await pictures.draw("ignis", game.view(state, None), {})
    print(" ".join(str(p) for p in pictures._executor()._processes), flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/status").read_text().find("State:\tZ") < 0


def test_workers_leave_when_their_bot_is_killed() -> None:
    owner = subprocess.Popen([sys.executable, "-c", _OWNER], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert owner.stdout is not None
    workers = [int(p) for p in owner.stdout.readline().split()]
    assert workers and all(_alive(p) for p in workers)
    owner.send_signal(signal.SIGKILL)
    owner.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers), "picture workers outlived the killed bot"


def test_where_workers_cannot_start_pictures_are_drawn_in_threads() -> None:
    # A script read from stdin is a __main__ the workers cannot re-import: the pool never starts.
    script = (
        "import asyncio\nfrom bot import pictures\nfrom engine import get_game\n"
        "g = get_game('ignis'); st = g.setup(['fire', 'water'], g.validate_options({}), 1)\n"
        "async def main():\n"
        "    for _ in range(3):\n"
        "        print(len(await pictures.draw('ignis', g.view(st, None), {})))\n"
        "asyncio.run(main())\n"
    )
    result = subprocess.run(
        [sys.executable, "-"], input=script, cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(set(result.stdout.split())) == 1 and len(result.stdout.split()) == 3
    assert result.stderr.count("pictures are drawn in threads instead") == 1


async def test_a_bot_whose_picture_workers_cannot_start_still_starts_and_draws_in_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def cannot_start(self: object) -> None:
        raise OSError("no forkserver here")

    monkeypatch.setattr(pictures, "_workers_usable", True)
    monkeypatch.setattr(pictures._Pool, "_start", cannot_start)
    await pictures.start_workers()  # the bot's start-up: no exception
    assert not pictures._workers_usable
    game = get_game("ignis")
    state = game.setup(["fire", "water"], game.validate_options({}), 1)
    png = await pictures.draw("ignis", game.view(state, None), {})
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
