"""Issue 13, silent seats: a four-player Ignite game in the console with the bot in one seat is
played to its end by the host, the bot moving whenever its seat is to act."""

from __future__ import annotations

import io
from pathlib import Path

from bot.config import Settings
from bot.console import Console
from bot.host import Host
from engine import Dice, get_game
from storage import Repository


async def test_a_four_player_game_with_the_bot_in_one_seat_plays_to_its_end(tmp_path: Path) -> None:
    settings = Settings(
        db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"), rate_limit_per_minute=0
    )
    host = Host(await Repository.open(settings.db_path), settings, renderer=None)
    out = io.StringIO()
    console = Console(host, tmp_path / "img", out)
    await console.run_lines(
        [
            '@alice /game new ignite seed:11 options:"placement=auto difficulty=regular favor_asks=every"',
            "@alice /game join seat:stoneborn",
            "@bob /game join seat:windkin",
            "@carol /game join seat:sagekin",
            "@alice /seat ai seat:skyfolk level:medium",
            "@alice /game start",
        ]
    )
    game = get_game("ignite")
    dice = Dice(11)
    for _ in range(3000):
        row = await host.repo.open_session_in("general")
        if row is None:
            break
        state = game.from_json(await host.repo.state(row.id) or {})
        people = {s.seat: s.user_id for s in row.seats if s.ai_level is None}
        seat = next(s for s in sorted(game.to_act(state).seats) if s in people)
        legal = game.legal_actions(state, seat)
        await console.run_line(f"@{people[seat]} /play {legal[dice.below(len(legal))]}")
    row = await host.repo.latest_session_in("general")
    log = await host.repo.actions(row.id) if row is not None else []
    await host.close()
    text = out.getvalue()
    assert row is not None and row.status == "finished", text[-2000:]
    assert "Sorry, something went wrong" not in text
    bot_moves = [a.notation for a in log if a.seat == "skyfolk" and a.kind == "action"]
    assert any(m.startswith("play ") for m in bot_moves), bot_moves
    assert any(m.startswith("buy ") for m in bot_moves), bot_moves
