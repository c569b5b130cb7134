"""Public messages and pings per round of a four-player Ignite game played through the console.

`python -m bench.message_counts [seeds...]`: seeded random legal moves for four players at regular
difficulty; decisions are answered like any move. A post added to the turn's message (an edit,
which pings nobody) is counted apart from new messages. The README's "Playing over days" quotes
rounds 1–3.
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
import tempfile
from pathlib import Path

from bot.config import Settings
from bot.console import Console
from bot.host import Host
from engine import Dice, get_game
from storage import Repository

PLAYERS = ("p0", "p1", "p2", "p3")


async def per_round(seed: int, rounds: int = 3) -> dict[int, tuple[int, int, int]]:
    """Round -> (new public messages, pings, additions to a turn's message)."""
    folder = Path(tempfile.mkdtemp())
    settings = Settings(db_path=str(folder / "db.sqlite3"), rate_limit_per_minute=0)
    host = Host(await Repository.open(settings.db_path), settings, renderer=None)
    out = io.StringIO()
    console = Console(host, folder / "img", out, as_json=True)
    await console.run_line(f"@p0 /game new ignite difficulty:regular seed:{seed}")
    for user in PLAYERS:
        await console.run_line(f"@{user} /game join")
    await console.run_line("@p0 /game start")
    game, dice = get_game("ignite"), Dice(seed)
    counts: dict[int, list[int]] = {}
    read = len(out.getvalue())
    try:
        for _ in range(3000):
            row = await host.repo.open_session_in("general")
            if row is None:
                break
            state = game.from_json(await host.repo.state(row.id) or {})
            if state.round > rounds:
                break
            seat = sorted(game.to_act(state).seats)[0]
            user = next(s.user_id for s in row.seats if s.seat == seat)
            legal = game.legal_actions(state, seat)
            await console.run_line(f"@{user} /play {legal[dice.below(len(legal))]}")
            text = out.getvalue()
            posts = [json.loads(line) for line in text[read:].splitlines() if line.strip()]
            read = len(text)
            public = [p for p in posts if p["to"] is None]
            c = counts.setdefault(state.round, [0, 0, 0])
            c[0] += sum(1 for p in public if not p["appended"])
            c[1] += sum(len(p["mentions"]) for p in public if not p["appended"])
            c[2] += sum(1 for p in public if p["appended"])
    finally:
        await host.close()
    return {r: (c[0], c[1], c[2]) for r, c in sorted(counts.items()) if 1 <= r <= rounds}


def main() -> None:
    seeds = [int(a) for a in sys.argv[1:]] or [11, 12, 13]
    for seed in seeds:
        for r, (messages, pings, added) in asyncio.run(per_round(seed)).items():
            print(f"seed {seed} round {r}: {messages} messages, {pings} pings, {added} added to a turn")


if __name__ == "__main__":
    main()
