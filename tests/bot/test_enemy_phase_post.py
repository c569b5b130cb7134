"""Issue 39: players see what the enemies did without opening a file. A crowded late-round Ignite
Enemy Phase (seeded: 40 minions and the Elder Dragon against four players' units) is posted with
every unit hit, every death, the cards and dice and the enemies' moves in short lines, within one
message; the reasons (each enemy's whole trace) are in the attached trace file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.host import Host
from bot.host.announce import TRACE_FILE, within
from bot.host.core import MAX_TEXT
from bot.posts import Caller
from bot.text import console_user
from engine import get_game
from tests.games.ignite.crowded import crowded_enemy_phase

ALICE = Caller("alice", "alice", "table", guild="g1")
EMBED_LIMIT = 4096  # Discord's embed description, the most one message's text may hold


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    settings = Settings(db_path=str(tmp_path / "p.sqlite3"), rate_limit_per_minute=0)
    h = await Host.open(settings, user_ref=console_user)
    yield h
    await h.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_late_round_enemy_phase_post_tells_every_hit_and_death_and_fits(
    host: Host, seed: int
) -> None:
    await host.command(ALICE, "new", {"game": "ignite", "seed": "3"})
    row = await host.repo.open_session_in("table")
    assert row is not None
    _, events = crowded_enemy_phase(seed)
    summary = next(e for e in events if e.kind == "enemy_summary")
    assert summary.data["hit"], "the seeded phase hits nobody: it proves nothing"
    post = host.announcer.event_posts(row, get_game("ignite"), "alice ends the turn.", events, None)[0]
    assert len(post.text) <= MAX_TEXT <= EMBED_LIMIT
    for uid in summary.data["hit"]:
        assert uid in post.text
    for uid in summary.data["died"]:
        assert f"{uid} is defeated" in post.text
    shown = [e for e in events if e.kind in ("enemy", "card", "roll", "placed", "enemy_moves", "unit_killed")]
    assert any(e.kind == "enemy" for e in shown) and any(e.kind == "roll" for e in shown)
    for e in shown:
        assert e.text in post.text, e.text
    # The reasons are one tap away: the whole trace, every enemy's, in the attached file.
    trace = post.files[0].data.decode()
    reasons = [e.text for e in events if e.kind == "enemy_reasons"]
    assert len(reasons) > 20 and all(r in trace for r in reasons)
    assert not any(r in post.text for r in reasons)


def test_a_run_too_long_even_in_headlines_keeps_its_first_and_last_lines() -> None:
    lines = [f"line {i}: " + "x" * 60 for i in range(60)]
    kept = within(lines, 1200)
    assert sum(len(x) + 1 for x in kept) <= 1200
    assert kept[0] == lines[0] and kept[-1] == lines[-1]  # how it began and how it ended (a death)
    cut = next(x for x in kept if x.startswith("…"))
    n = int(cut.split("(")[1].split()[0])
    assert len(kept) - 1 + n == len(lines) and f"more lines in {TRACE_FILE}" in cut
    assert within(lines[:3], 1200) == lines[:3]
