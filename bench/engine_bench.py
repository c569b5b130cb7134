"""Engine benchmarks: plies per second in seeded random playouts, and the Ignite enemy phase.

Pure rules only (no host, no storage, no pictures), so these figures are the floor the host
builds on.
"""

from __future__ import annotations

import time
from typing import Any

from bench import Metric, median
from engine import Dice, Game, get_game
from engine.errors import UnknownGame

ENEMY_PHASE_TARGET_MS = 50.0
# Each position's phase is timed this many times, in passes over all positions, and its best run
# kept (as timeit does): the phase is deterministic, so the runs differ only by what else the
# machine did meanwhile.
RUNS_PER_POSITION = 5
ENEMY_MINIONS = 40


def default_seats(game: Game[Any, Any], options: dict[str, str]) -> list[str]:
    """The seats a playout fills: the minimum to start, and at least two (as the tests do)."""
    lo, hi = game.seat_range(options)
    return game.seat_names(options)[: min(hi, max(lo, 2))]


def random_ply(game: Game[Any, Any], state: Any, dice: Dice) -> tuple[str, str]:
    """One uniformly random legal action by a seat chosen at random among those to act."""
    seats = sorted(game.to_act(state).seats)
    seat = seats[dice.below(len(seats))]
    legal = game.legal_actions(state, seat)
    return seat, str(legal[dice.below(len(legal))])


def plies_per_second(game: Game[Any, Any], plies: int, seed: int) -> Metric:
    """Random playouts through Game.act (parse, legality check, apply), as the host calls it,
    restarting from a new seed whenever a game ends, until `plies` actions are applied."""
    options = game.validate_options({})
    seats = default_seats(game, options)
    dice = Dice(seed)
    done = 0
    game_seed = seed
    elapsed = 0.0
    while done < plies:
        state = game.setup(seats, options, game_seed)
        game_seed += 1
        t0 = time.perf_counter()
        while done < plies and game.outcome(state) is None:
            seat, text = random_ply(game, state, dice)
            game.act(state, seat, text)
            done += 1
        elapsed += time.perf_counter() - t0
    return Metric(f"{game.id}.engine.plies_per_s", done / elapsed, "plies/s")


def _enemy_position(seed: int) -> tuple[Game[Any, Any], Any]:
    """An Ignite state at the start of an Enemy Phase's movement step with 40 minions and the
    Elder Dragon on the battlefield and four players' units at the bottom edge."""
    from games.ignite.board import BLOCKING, Dragon, Minion
    from games.ignite.enemy_cards import stats_for

    game = get_game("ignite")
    options = game.validate_options({"favor_prompts": "off"})
    seats = game.seat_names(options)[:4]
    state = game.setup(seats, options, seed)
    dice = Dice(seed * 31 + 7)
    field = state.field
    kinds = sorted(k for k in stats_for(state) if k[0] != "dragon")
    # Minions fill the upper two thirds, as after several rounds of spawning from the top edge.
    free = [
        (c, r)
        for r in range(0, 12)
        for c in range(18)
        if field.terrain_at((c, r)) not in BLOCKING and (c, r) not in field.figure_squares()
    ]
    dice.shuffle(free)
    dragon_at = free.pop()
    for pos in free[:ENEMY_MINIONS]:
        colour, level = kinds[dice.below(len(kinds))]
        field.minions.append(Minion(field.new_minion_id(), colour, level, pos))
    field.dragon = Dragon(dragon_at)
    state.round = 20  # The Boss Battle: the dragon is out in round 20
    state.dragon_spawned = True
    state.phase = "enemy"
    state.pending = None
    state.ep = {"step": "order"}
    return game, state


def enemy_phase(repeats: int, seed: int) -> list[Metric]:
    """Milliseconds for the automated part of an Enemy Phase with 40 minions and the dragon:
    movement order, the dragon's turn, every minion's move and attack, damage, phase end.
    Ties the rules hand to the players are answered with their default, as a timed-out
    decision would be; that time counts too."""
    try:
        game, _ = _enemy_position(seed)
    except (UnknownGame, ImportError) as exc:
        return [
            Metric(
                "ignite.enemy_phase.ms",
                float("nan"),
                "ms",
                ENEMY_PHASE_TARGET_MS,
                note=f"not measured: {exc}",
            )
        ]
    from games.ignite import phases
    from games.ignite.content import load_content

    content = load_content()
    runs: list[list[float]] = [[] for _ in range(repeats)]  # each position's runs
    ties = 0
    # In passes over every position, not a position's runs back to back: a spell of other work
    # (on a virtual machine, the host taking the core away) then slows one run of several
    # positions, not every run of one.
    for _ in range(RUNS_PER_POSITION):
        for i in range(repeats):
            _, state = _enemy_position(seed + i)
            events: list[Any] = []
            t0 = time.perf_counter()
            phases.run_enemy_phase(state, content, events)
            while state.phase == "enemy" and state.outcome is None and state.pending is not None:
                turn = game.to_act(state)
                if turn.default is None:
                    break
                ties += 1
                game.act(state, sorted(turn.seats)[0], turn.default)
            runs[i].append((time.perf_counter() - t0) * 1000)
    times = [min(r) for r in runs]  # each position's best run
    every = [t for r in runs for t in r]  # every run, the machine's other work included
    note = (
        f"{repeats} phases from seeded positions, each the best of {RUNS_PER_POSITION} runs; "
        f"{ties // RUNS_PER_POSITION} tie(s) answered by default"
    )
    return [
        Metric("ignite.enemy_phase.ms", median(times), "ms", ENEMY_PHASE_TARGET_MS, note=note),
        Metric(
            "ignite.enemy_phase.ms_max",
            max(times),
            "ms",
            ENEMY_PHASE_TARGET_MS,
            note="the slowest position's best run",
        ),
        Metric(
            "ignite.enemy_phase.ms_max_any_run",
            max(every),
            "ms",
            note="the slowest single run: the position's work and whatever else the machine did meanwhile",
        ),
        # Each tie is a pause in which the players are asked (Rule 4 note): a wait people feel.
        Metric(
            "ignite.enemy_phase.ties",
            ties / RUNS_PER_POSITION / repeats,
            "decisions",
            note="ties handed to the players per phase (answered by default here)",
        ),
    ]


def run(games: list[Game[Any, Any]], plies: int, enemy_repeats: int, seed: int = 1) -> list[Metric]:
    out = [plies_per_second(g, plies, seed) for g in games]
    if any(g.id == "ignite" for g in games):
        out += enemy_phase(enemy_repeats, seed)
    else:
        out.append(
            Metric(
                "ignite.enemy_phase.ms",
                float("nan"),
                "ms",
                ENEMY_PHASE_TARGET_MS,
                note="not measured: ignite is not in the registry",
            )
        )
    return out
