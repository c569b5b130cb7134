"""BattleLore benchmarks: the generic search bot (engine.search_bot, through BattleLore's hooks)
against random play in both scenarios, its time per move at each level, and the hex board
picture's milliseconds (issue 16's goal: at most 30 ms median).

`python -m bench.battlelore_bench [medium_games] [easy_games]` runs it alone. The bot takes both
sides in turn; a win rate counts wins only (losses are in the note). Random play picks among the
legal moves uniformly, setup included (the bot's own setup is games/battlelore/bot.py's).
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench import Metric, median
from engine import Dice, get_game

MOVE_TARGET_MS = 2000.0  # as for Dire Alliance: at most 2 s a move at medium
RENDER_TARGET_MS = 30.0  # issue 16
MAX_PLIES = 4000  # a random side can dawdle; a game this long counts as not won


def play(level: str, scenario: str, seed: int) -> dict[str, Any]:
    """One game: the bot at `level` against uniformly random moves."""
    game = get_game("battlelore")
    state = game.setup(["daqan", "uthuk"], {"scenario": scenario}, seed)
    bot = "daqan" if seed % 2 else "uthuk"
    chooser = Dice(seed * 7919)
    times: list[float] = []
    for _ in range(MAX_PLIES):
        if game.outcome(state) is not None:
            break
        seat = sorted(game.to_act(state).seats)[0]
        if seat == bot:
            t = time.perf_counter()
            action = game.choose_action(state, seat, level, Dice(seed * 100_003 + len(times)))
            times.append((time.perf_counter() - t) * 1000)
        else:
            legal = game.legal_actions(state, seat)
            action = legal[chooser.below(len(legal))]
        game.act(state, seat, str(action))
    out = game.outcome(state)
    result = "unfinished" if out is None else "won" if bot in out.winners else "lost"
    return {"level": level, "scenario": scenario, "result": result, "times": times}


def _play(args: tuple[str, str, int]) -> dict[str, Any]:
    return play(*args)


def sample_views(count: int, seed: int) -> list[dict[str, Any]]:
    """`count` spectator views from random games of both scenarios, every fifth move of play."""
    game = get_game("battlelore")
    dice = Dice(seed)
    views: list[dict[str, Any]] = []
    game_seed = seed
    while len(views) < count:
        scenario = ("into-the-fire", "standard")[game_seed % 2]
        state = game.setup(["daqan", "uthuk"], {"scenario": scenario}, game_seed)
        game_seed += 1
        plies = 0
        while len(views) < count and game.outcome(state) is None and plies < MAX_PLIES:
            seat = sorted(game.to_act(state).seats)[0]
            legal = game.legal_actions(state, seat)
            game.act(state, seat, str(legal[dice.below(len(legal))]))
            plies += 1
            if state.phase in ("play", "over") and plies % 5 == 0:
                views.append(game.view(state, None))
    return views


def render_ms(count: int, seed: int = 1) -> float:
    """Median ms of a picture (each board's static layer drawn once first, as the host's pictures
    after a session's first are)."""
    from render import battlelore

    views = sample_views(count, seed)
    names = {"daqan": "player 1", "uthuk": "player 2"}
    for v in views:
        battlelore.render(v, names)
    took = []
    for v in views:
        t = time.perf_counter()
        battlelore.render(v, names)
        took.append((time.perf_counter() - t) * 1000)
    return median(took)


def run(
    medium_games: int, easy_games: int, renders: int = 30, seed: int = 1, workers: int = 2
) -> list[Metric]:
    jobs = [
        (level, scenario, seed + base + i)
        for level, n, base in (("medium", medium_games, 0), ("easy", easy_games, 500))
        for scenario in ("into-the-fire", "standard")
        for i in range(n)
    ]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(_play, jobs))
    out: list[Metric] = []
    for level in ("medium", "easy"):
        for scenario in ("into-the-fire", "standard"):
            mine = [r for r in results if r["level"] == level and r["scenario"] == scenario]
            if not mine:
                continue
            won = sum(r["result"] == "won" for r in mine)
            lost = sum(r["result"] == "lost" for r in mine)
            note = f"{len(mine)} games: {won} won, {lost} lost, {len(mine) - won - lost} unfinished"
            key = f"battlelore.bot.{level}_vs_random.{scenario}.win_pct"
            out.append(Metric(key, 100.0 * won / len(mine), "%", note=note))
        times = [t for r in results if r["level"] == level for t in r["times"]]
        if times:
            out.append(
                Metric(f"battlelore.bot.{level}.move_ms", sum(times) / len(times), "ms", note="mean per move")
            )
            target = MOVE_TARGET_MS if level == "medium" else None
            out.append(Metric(f"battlelore.bot.{level}.move_ms_max", max(times), "ms", target=target))
    out.append(
        Metric("battlelore.render_ms", render_ms(renders), "ms", target=RENDER_TARGET_MS, note="median")
    )
    return out


if __name__ == "__main__":
    from bench.__main__ import machine, table

    medium = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    easy = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    print(table(run(medium, easy), f"BattleLore bot; {machine()}"))
