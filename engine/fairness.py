"""Commit–reveal for a secret seed: a game with hidden information publishes a hash of its seed
at the start and the seed itself at the end, so anyone can check the deal was fixed in advance.

The seed is the whole of a game's randomness (engine.dice keeps 64 bits of state), so a spectator
who knew it could replay the public log and read every hand and the next draw. A secret seed is
63 random bits: finding it from the hash, or from the public dice, means trying ~2^62 seeds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import GameError
from engine.game import RULES, Game
from engine.registry import get_game

SCHEME = "tablebot-seed-v1"


def commitment(game_id: str, seed: int) -> str:
    """sha256 of `tablebot-seed-v1:<game id>:<seed>` in hex: what is posted at /game new."""
    return hashlib.sha256(f"{SCHEME}:{game_id}:{seed}".encode()).hexdigest()


def replay(export: Mapping[str, Any]) -> Any:
    """The state reached by the export's seed, seats, options and moves (seat order is the game's),
    under the rules version its options name. This is the one replay of a stored game: `verify`
    and migrate's check (bot/replay_check.py) both use it."""
    game: Game[Any, Any] = get_game(export["game"])
    # An export made before rules versions existed names none: its game was played under version 1.
    options = {RULES: "1", **export["options"]}
    taken = {s["seat"] for s in export["seats"]}
    seats = [s for s in game.seat_names(options) if s in taken]
    state = game.setup(seats, options, int(export["seed"]))
    return play_on(game, state, export["moves"], export.get("option_changes", []))


def play_on(
    game: Game[Any, Any],
    state: Any,
    moves: Sequence[Mapping[str, Any]],
    changes: Sequence[Mapping[str, Any]],
    first: int = 0,
) -> Any:
    """`state` (the position after the first `first` moves of the line of play) with `moves` played
    on it, the options the players changed in play each applied before the move numbered its
    `moves` (from 0; changes from before `first` are in `state` already)."""
    last = first + len(moves)
    for n, move in enumerate(moves, start=first):
        for change in (c for c in changes if int(c["moves"]) == n):
            game.change_option(state, change["name"], change["value"])
        game.act(state, move["seat"] or "", move["notation"])
    for change in (c for c in changes if int(c["moves"]) >= last):
        game.change_option(state, change["name"], change["value"])
    return state


def verify(export: Mapping[str, Any]) -> list[str]:
    """What is wrong with a finished game's export: empty when its seed matches the commitment
    posted at the start and seed + moves replay to its final state."""
    problems = []
    if "seed" not in export:
        return ["the export holds no seed: the game has not ended yet"]
    if export.get("commitment") and commitment(export["game"], int(export["seed"])) != export["commitment"]:
        problems.append("the seed does not match the commitment posted at the start")
    game = get_game(export["game"])
    if "final_state" in export:
        try:
            replayed = game.to_json(replay(export))
        except GameError as exc:
            problems.append(f"seed + moves do not replay: {exc}")
        else:
            if replayed != export["final_state"]:
                problems.append("seed + moves do not replay to the final state")
    return problems
