"""A bot for any registered game: determinized Monte Carlo tree search through the contract alone.

It sees what its seat sees: each iteration searches a state the game samples from the seat's view
(`Game.sample_state`), so other seats' hidden cards and future dice are guessed, never read.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from engine.dice import Dice
from engine.errors import OptionError
from engine.game import Game

# Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012): one tree keyed by
# the notation of the moves, shared by every determinization; a child's UCB uses how often it was
# available rather than its parent's visits, since a sampled state may not allow every move.


@dataclass(frozen=True)
class Level:
    """How hard the bot thinks: iterations and seconds cap the search, whichever comes first."""

    iterations: int
    seconds: float
    rollout_depth: int  # plies of random play after the tree before the game's estimate is used
    exploration: float


LEVELS: dict[str, Level] = {
    "easy": Level(iterations=40, seconds=0.25, rollout_depth=12, exploration=1.4),
    "medium": Level(iterations=600, seconds=1.5, rollout_depth=30, exploration=0.9),
}


@dataclass
class _Node:
    mover: str = ""  # the seat whose move led here: rewards are kept from its point of view
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[str, _Node] = field(default_factory=dict)


def choose(
    game: Game[Any, Any],
    state: Any,
    seat: str,
    level: str,
    dice: Dice,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
) -> Any:
    """The bot's action for `seat`. The same view, level and dice give the same choice (unless the
    time cap cuts the search short first: tests pass a large `seconds`)."""
    if level not in LEVELS:
        raise OptionError(f"`{level}` is not a bot level; choose one of: {', '.join(LEVELS)}.")
    lv = LEVELS[level]
    legal = game.legal_actions(state, seat)
    if not legal:
        raise OptionError(f"{seat} has no move to make now.")
    if len(legal) == 1:
        return legal[0]
    by_text = {str(a): a for a in legal}
    view = game.view(state, seat)
    budget = lv.iterations if iterations is None else iterations
    deadline = time.monotonic() + (lv.seconds if seconds is None else seconds)
    root = _Node(mover="")
    for _ in range(budget):
        world = game.sample_state(view, seat, Dice(dice.below(1 << 62)))
        if world is None:
            world = game.copy(state)  # nothing hidden: search the real position
        _iterate(game, world, root, dice, lv, seat)
        if time.monotonic() > deadline:
            break
    ranked = sorted(
        (n.visits, n.reward / max(n.visits, 1), text) for text, n in root.children.items() if text in by_text
    )
    if not ranked:
        return legal[dice.below(len(legal))]
    return by_text[ranked[-1][2]]


def _iterate(game: Game[Any, Any], world: Any, root: _Node, dice: Dice, lv: Level, seat: str) -> None:
    path = [root]
    node = root
    # Selection and expansion, down the shared tree as far as this sampled world allows.
    while game.outcome(world) is None:
        # At the root the bot's own seat moves, even when other seats may act at once (co-op).
        mover = seat if node is root else _mover(game, world)
        options = {str(a): a for a in game.legal_actions(world, mover)}
        untried = [t for t in options if t not in node.children]
        for t in options:
            if t in node.children:
                node.children[t].available += 1
        if untried:
            text = untried[dice.below(len(untried))]
            child = node.children[text] = _Node(mover=mover, available=1)
            game.apply(world, mover, options[text])
            path.append(child)
            break
        text = max(options, key=lambda t: _ucb(node.children[t], lv.exploration))
        node = node.children[text]
        game.apply(world, mover, options[text])
        path.append(node)
    values = _playout(game, world, dice, lv.rollout_depth, {n.mover for n in path if n.mover})
    for n in path:
        n.visits += 1
        if n.mover:
            n.reward += values.get(n.mover, 0.5)


def _ucb(n: _Node, c: float) -> float:
    if n.visits == 0:
        return math.inf
    return n.reward / n.visits + c * math.sqrt(math.log(max(n.available, 1)) / n.visits)


def _mover(game: Game[Any, Any], world: Any) -> str:
    # Several seats may act at once in a co-op phase; the search lets them move in seat order.
    return sorted(game.to_act(world).seats)[0]


def _playout(game: Game[Any, Any], world: Any, dice: Dice, depth: int, seats: set[str]) -> dict[str, float]:
    """Random moves up to `depth` plies, then each seat's value: 1 won, 0 lost, ½ a draw, or the
    game's estimate when it has one (else ½) for an unfinished game."""
    for _ in range(depth):
        if game.outcome(world) is not None:
            break
        mover = _mover(game, world)
        seats.add(mover)
        legal = game.legal_actions(world, mover)
        game.apply(world, mover, legal[dice.below(len(legal))])
    result = game.outcome(world)
    if result is not None:
        everyone = seats | result.winners | result.losers
        return {s: 1.0 if s in result.winners else 0.0 if s in result.losers else 0.5 for s in everyone}
    values: dict[str, float] = {}
    for s in seats | set(game.to_act(world).seats):
        estimate = game.evaluate(world, s)
        values[s] = 0.5 if estimate is None else estimate
    return values
