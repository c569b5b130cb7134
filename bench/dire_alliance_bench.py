"""Dire Alliance benchmarks: the generic search bot (engine.search_bot) against random play, its
time per move at each level, the board picture's milliseconds, and one whole Raid Mode enemy phase
with 4 heroes and 12 minions.

`python -m bench.dire_alliance_bench [medium_games] [easy_games]` runs it alone. The bot takes
both colours in turn; a win rate counts wins only (draws and losses are in the note).
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench import Metric, median
from engine import Dice, get_game

MOVE_TARGET_MS = 2000.0  # the issue: at most 2 s per move at medium
RENDER_TARGET_MS = 40.0
ENEMY_PHASE_TARGET_MS = 20.0  # issue 15: one whole enemy phase, 4 heroes and 12 minions


def play(level: str, seed: int) -> dict[str, Any]:
    """One Beaten Path game: the bot at `level` against uniformly random moves."""
    from engine.search_bot import choose

    game = get_game("dire-alliance")
    state = game.setup(["red", "blue"], game.validate_options({}), seed)
    bot = "red" if seed % 2 else "blue"
    chooser = Dice(seed * 7919)
    times: list[float] = []
    while game.outcome(state) is None:
        seat = sorted(game.to_act(state).seats)[0]
        if seat == bot:
            t = time.perf_counter()
            action = choose(game, state, seat, level, Dice(seed * 100_003 + len(times)))
            times.append((time.perf_counter() - t) * 1000)
        else:
            legal = game.legal_actions(state, seat)
            action = legal[chooser.below(len(legal))]
        game.act(state, seat, str(action))
    out = game.outcome(state)
    assert out is not None
    result = "won" if bot in out.winners else "lost" if bot in out.losers else "drawn"
    return {"level": level, "result": result, "times": times}


def _play(args: tuple[str, int]) -> dict[str, Any]:
    return play(*args)


def render_ms(count: int, seed: int = 1) -> float:
    from bench.render_bench import sample_views
    from render import dire_alliance

    views, names = sample_views(get_game("dire-alliance"), count, seed)
    dire_alliance.render(views[0], names)  # the static layer is drawn once per session's board
    took = []
    for v in views:
        t = time.perf_counter()
        dire_alliance.render(v, names)
        took.append((time.perf_counter() - t) * 1000)
    return median(took)


def enemy_phase_ms(count: int, seed: int = 1) -> float:
    """Median ms of one Enemies Act phase: 4 heroes spread over the map, 12 minions on the board (the
    villain card's colour among them), ties settled for the enemy and every question the phase
    still asks answered with its default, so the phase runs through."""
    from games.dire_alliance import raid_phases
    from games.dire_alliance.content import load_content

    game = get_game("dire-alliance")
    content = load_content()
    opts = game.validate_options({"mode": "raid", "enemy": "hardest", "boost_window": "off"})
    took = []
    for i in range(count):
        state = game.setup(["hero1", "hero2", "hero3", "hero4"], opts, seed + i)
        place = Dice(seed + i)
        for h, area in zip(state.heroes.values(), (1, 6, 11, 12), strict=True):
            h.area = area
        for m in state.minions.values():
            m.area = None
        # Minions are named `<kind>-<n>`: the first 12 in the order of their kind and number.
        for mid in sorted(state.minions, key=lambda x: (x.rpartition("-")[0], int(x.rpartition("-")[2])))[
            :12
        ]:
            state.minions[mid].area = 1 + place.below(12)
        state.last_actor, state.phase = "hero2", "enemy"
        t = time.perf_counter()
        raid_phases.start_enemy_phase(state, content, Dice(seed + i), "act")
        # What the phase still asks the heroes (a hit that could kill, the card a hit takes) is
        # answered with its default, as a time-out would; that time counts too.
        while state.pending is not None and state.phase == "enemy":
            turn = game.to_act(state)
            if turn.default is None:
                break
            game.act(state, sorted(turn.seats)[0], turn.default)
        took.append((time.perf_counter() - t) * 1000)
    return median(took)


def run(
    medium_games: int, easy_games: int, renders: int = 30, seed: int = 1, workers: int = 2
) -> list[Metric]:
    jobs = [("medium", seed + i) for i in range(medium_games)] + [
        ("easy", seed + 500 + i) for i in range(easy_games)
    ]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(_play, jobs))
    out: list[Metric] = []
    for level in ("medium", "easy"):
        mine = [r for r in results if r["level"] == level]
        if not mine:
            continue
        times = [t for r in mine for t in r["times"]]
        won = sum(r["result"] == "won" for r in mine)
        lost = sum(r["result"] == "lost" for r in mine)
        note = f"{len(mine)} games: {won} won, {len(mine) - won - lost} drawn, {lost} lost"
        out.append(Metric(f"dire.bot.{level}_vs_random.win_pct", 100.0 * won / len(mine), "%", note=note))
        out.append(Metric(f"dire.bot.{level}.move_ms", sum(times) / len(times), "ms", note="mean per move"))
        target = MOVE_TARGET_MS if level == "medium" else None
        out.append(Metric(f"dire.bot.{level}.move_ms_max", max(times), "ms", target=target))
    out.append(Metric("dire.render_ms", render_ms(renders), "ms", target=RENDER_TARGET_MS, note="median"))
    out.append(
        Metric(
            "dire.raid.enemy_phase_ms",
            enemy_phase_ms(renders),
            "ms",
            target=ENEMY_PHASE_TARGET_MS,
            note="median; 4 heroes, 12 minions",
        )
    )
    return out


if __name__ == "__main__":
    from bench.__main__ import machine, table

    medium = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    easy = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    print(table(run(medium, easy), f"Dire Alliance bot; {machine()}"))
