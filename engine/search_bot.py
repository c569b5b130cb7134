"""A bot for any registered game: determinized Monte Carlo tree search through the contract alone.

It sees what its seat sees: each iteration searches a state the game samples from the seat's view
(`Game.sample_state`), so other seats' hidden cards and future dice are guessed, never read.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import math
import threading
import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.dice import Dice
from engine.errors import OptionError
from engine.game import Game

# Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012): one tree keyed by
# the notation of the moves, shared by every determinization; a child's UCB uses how often it was
# available rather than its parent's visits, since a sampled state may not allow every move.
# A seat's next decision straight after its own answer starts from that answer's subtree (tree
# reuse between moves): a turn's first search has already looked at the turn's later decisions,
# which the turn's halving budget otherwise leaves with a glance.


@dataclass(frozen=True)
class Level:
    """How hard the bot thinks: iterations and seconds cap one decision's search, whichever comes
    first, and `turn_seconds` caps every decision of one turn together (Game.turn_id)."""

    iterations: int
    seconds: float
    turn_seconds: float
    rollout_depth: int  # plies of random play after the tree before the game's estimate is used
    exploration: float


LEVELS: dict[str, Level] = {
    "easy": Level(iterations=40, seconds=0.25, turn_seconds=1.0, rollout_depth=12, exploration=1.4),
    # A whole medium turn within 3 s on a busy 2-core machine: 1.8 s of search, the rest overhead.
    "medium": Level(iterations=600, seconds=1.2, turn_seconds=1.8, rollout_depth=30, exploration=0.9),
    # The games' estimates score a position's answers within a few hundredths of each other, where
    # 0.9 of exploration spreads the visits almost evenly however long the search: hard explores
    # less, so its four times the iterations go down the lines that score best (seen in the root's
    # visits: 455, 443, 433, 403, 402 for answers scored 0.546 to 0.538 at 0.9).
    "hard": Level(iterations=2400, seconds=5.0, turn_seconds=9.0, rollout_depth=30, exploration=0.15),
}

SETTLE_PLIES = 24  # a playout ends only where the game is settled, within this many more plies
SAME_STATE_CHECK = 16  # with at most this many answers, the bot checks whether they differ at all


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
    plain: Any | None = None,
    among: list[Any] | None = None,
    iterations: int | None = None,
    seconds: float | None = None,
) -> Any:
    """The bot's action for `seat`: `plain` when the game's own sense already knows the answer
    (taken without search; the bot's tree follows it), else the search's, chosen from `among`
    where the game's sense has ruled some legal moves out. The same view, level
    and dice give the same choice after the same earlier decisions (unless the time cap cuts the
    search short first: tests pass a large `seconds`)."""
    if level not in LEVELS:
        raise OptionError(f"`{level}` is not a bot level; choose one of: {', '.join(LEVELS)}.")
    lv = LEVELS[level]
    legal = among or game.legal_actions(state, seat)
    if not legal:
        raise OptionError(f"{seat} has no move to make now.")
    if _ALONE.get():
        if plain is not None:
            return plain
        budget = min(lv.iterations, ALONE_ITERATIONS) if iterations is None else iterations
        return _search(game, state, seat, lv, dice, legal, None, _Node(mover=""), budget, math.inf)
    fingerprint = _fingerprint(game, state) if _NEXT or _TREES else ""
    turn = turn_key(game, state, seat, fingerprint)
    with _TURNS_LOCK:
        root = _TREES.pop((seat, level, fingerprint), None) or _Node(mover="")
    if plain is not None:
        action = plain
    else:
        action = _search(game, state, seat, lv, dice, legal, turn, root, iterations, seconds)
    _continue_turn(game, state, seat, level, action, turn, root.children.get(str(action)))
    return action


def _search(
    game: Game[Any, Any],
    state: Any,
    seat: str,
    lv: Level,
    dice: Dice,
    legal: list[Any],
    turn: Hashable | None,
    root: _Node,
    iterations: int | None,
    seconds: float | None,
) -> Any:
    if len(legal) == 1:
        return legal[0]
    by_text = {str(a): a for a in legal}
    view = game.view(state, seat)
    if len(legal) <= SAME_STATE_CHECK and _all_alike(game, state, view, seat, legal, dice):
        return legal[0]  # every answer leads to the same position: nothing to think about
    budget = lv.iterations if iterations is None else iterations
    deadline = _turn_deadline(turn, lv) if seconds is None else time.monotonic() + seconds
    # Each sample reads a fresh copy of the view: a sampled world that shared a list with the view
    # (a pending move's attackers, say) and changed it would change every later sample.
    view_text = json.dumps(view)
    for i in range(budget):
        world = game.sample_state(json.loads(view_text), seat, Dice(dice.below(1 << 62)))
        if world is None:
            world = game.copy(state)  # nothing hidden: search the real position
        _iterate(game, world, root, dice, lv, seat)
        if time.monotonic() > deadline and i >= MIN_ITERATIONS:
            break
    ranked = sorted(
        (n.visits, n.reward / max(n.visits, 1), text) for text, n in root.children.items() if text in by_text
    )
    if not ranked:
        return legal[dice.below(len(legal))]
    return by_text[ranked[-1][2]]


MIN_ITERATIONS = 4  # even with its turn's time spent, a decision gets a glance at each answer

# The time each seat's turn in progress may still use: (game, seat, turn) -> deadline. Several
# sessions' bots may think in worker threads at once, so the tables are guarded. A turn id names a
# turn only within one game (round 1's first turn comes in every game), so an entry is forgotten
# once its turn is well over: another game reaching the same turn later starts its own budget.
_TURNS: dict[Hashable, float] = {}
# (seat, the position its last answer leads to, a fingerprint of the whole state) -> that turn.
# The seat is part of the key: in a game of two bots, the other seat is asked from that position.
_NEXT: dict[tuple[str, str], Hashable] = {}
# (seat, level, the position its last answer leads to) -> that answer's subtree, while that seat
# is the one asked there: its next search starts from what the last one learnt.
_TREES: dict[tuple[str, str, str], _Node] = {}
MOST_TREES = 64  # trees kept for decisions to come (one per bot seat in a turn, across sessions)
_TURNS_LOCK = threading.Lock()
TURN_GRACE_S = 15.0
# Set for a search that stands alone (a suggestion to a player, engine/suggest.py): the level's
# iterations with no clock, so the answer is the same however busy the machine is, and nothing is
# taken from or kept for the bot seats' turns (their time budgets and their trees).
ALONE_ITERATIONS = 200  # at most: a Raid decision's 200 take a few seconds, a Battle's under one
_ALONE: contextvars.ContextVar[bool] = contextvars.ContextVar("search_alone", default=False)


@contextlib.contextmanager
def standing_alone() -> Iterator[None]:
    token = _ALONE.set(True)
    try:
        yield
    finally:
        _ALONE.reset(token)


def turn_key(game: Game[Any, Any], state: Any, seat: str, fingerprint: str = "") -> Hashable | None:
    """The bot turn this decision belongs to: the one its seat's last answer continues when the
    position is exactly the one that answer led to (nobody else acted since), else the game's own
    turn (Game.turn_id; None: the decision is a turn of its own). `fingerprint`: the position's,
    when the caller has it."""
    if _NEXT:
        fingerprint = fingerprint or _fingerprint(game, state)
        with _TURNS_LOCK:
            going_on = _NEXT.pop((seat, fingerprint), None)
        if going_on is not None:
            return going_on
    turn = game.turn_id(state, seat)
    return None if turn is None else (game.id, seat, turn)


def _continue_turn(
    game: Game[Any, Any],
    state: Any,
    seat: str,
    level: str,
    action: Any,
    turn: Hashable | None,
    subtree: _Node | None,
) -> None:
    """Remember the position `action` leads to when `seat` is asked again there: so that its next
    search starts from `subtree`, and so that its next decision spends what is left of this turn's
    time where the game starts a turn of its own that goes on the same bot turn
    (Game.turn_goes_on: a Dire Alliance defender who claims initiative in Defender Turn 2 also
    opens the next round, and the other player waits through both). The state's own dice make
    the position exact, so a roll that went another way, or another seat's move, finds nothing."""
    bridge = turn is not None and game.turn_goes_on(state, seat)
    if subtree is None and not bridge:
        return
    after = game.copy(state)
    game.apply(after, seat, action)
    if game.outcome(after) is not None or seat not in game.to_act(after).seats:
        return  # another seat is asked next
    fingerprint = _fingerprint(game, after)
    with _TURNS_LOCK:
        if subtree is not None:
            if len(_TREES) >= MOST_TREES:
                _TREES.clear()
            _TREES[(seat, level, fingerprint)] = subtree
        if bridge and turn != (game.id, seat, game.turn_id(after, seat)):
            if len(_NEXT) > 512:
                _NEXT.clear()
            _NEXT[(seat, fingerprint)] = turn


def _fingerprint(game: Game[Any, Any], state: Any) -> str:
    text = json.dumps(game.to_json(state), sort_keys=True)
    return hashlib.blake2b(f"{game.id}:{text}".encode(), digest_size=16).hexdigest()


def _turn_deadline(turn: Hashable | None, lv: Level) -> float:
    """This decision's deadline: half of what its turn has left (later decisions of the turn get
    the rest), never more than the level's per-decision cap."""
    now = time.monotonic()
    if turn is None:
        return now + lv.seconds
    with _TURNS_LOCK:
        if turn not in _TURNS or now > _TURNS[turn] + TURN_GRACE_S:
            if len(_TURNS) > 512:
                _TURNS.clear()
            _TURNS[turn] = now + lv.turn_seconds
        turn_end = _TURNS[turn]
    return now + min(lv.seconds, max(0.0, (turn_end - now) / 2))


def _all_alike(game: Game[Any, Any], state: Any, view: Any, seat: str, legal: list[Any], dice: Dice) -> bool:
    """Whether every legal answer leaves the same position (judged in a world sampled from the
    seat's view, so the check reads nothing hidden; the same dice for each answer)."""
    probe = dice.below(1 << 62)
    base = game.sample_state(json.loads(json.dumps(view)), seat, Dice(probe))
    if base is None:
        base = game.copy(state)
    text = json.dumps(game.to_json(base))
    seen: set[str] = set()
    for a in legal:
        world = game.from_json(json.loads(text))
        game.apply(world, seat, a)
        seen.add(json.dumps(game.to_json(world), sort_keys=True))
        if len(seen) > 1:
            return False
    return True


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
    depth = game.rollout_plies(world, lv.rollout_depth)
    values = _playout(game, world, dice, depth, {n.mover for n in path if n.mover})
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
    """Random moves up to `depth` plies and on to a settled position (Game.settled: nobody
    mid-move, no reaction pending, so a free attack is scored once it is taken or let go), then
    each seat's value: 1 won, 0 lost, ½ a draw, or the game's estimate when it has one (else ½)
    for an unfinished game."""
    for ply in range(depth + SETTLE_PLIES):
        if game.outcome(world) is not None or (ply >= depth and game.settled(world)):
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


# ---- the bot a game gets for free ---------------------------------------------------------------

# At most this many positions are looked at for the moves a player sees at a glance (each of the
# bot's moves, then each reply to it): all of them in a small game (Connect Four's 7 by 7), while a
# game with hundreds of moves a turn leaves them to the search.
GLANCE_POSITIONS = 400


def bot_move(game: Game[Any, Any], state: Any, seat: str, level: str, dice: Dice) -> Any:
    """The bot's move for `seat`: the game's own `choose_action` where it has one, else the search
    bot's for a game that declares `ai_levels`: a win at once is taken, and a move that leaves no
    opponent a win at once is preferred to one that does (a threat is blocked), found on a world
    sampled from the seat's view, so nothing hidden is read; the search picks among what is left."""
    if getattr(game.choose_action, "__func__", None) is not Game.choose_action:
        return game.choose_action(state, seat, level, dice)  # the game's own bot
    if level not in game.ai_levels:
        return game.choose_action(state, seat, level, dice)  # its refusal: no bot, or no such level
    legal = game.legal_actions(state, seat)
    view = game.view(state, seat)
    world = game.sample_state(json.loads(json.dumps(view)), seat, Dice(dice.below(1 << 62)))
    text = json.dumps(game.to_json(world if world is not None else state))
    wins, safe = at_a_glance(game, text, seat, legal)
    if wins:
        return choose(game, state, seat, level, dice, plain=wins[0])
    if len(safe) == 1:
        return choose(game, state, seat, level, dice, plain=safe[0])
    return choose(game, state, seat, level, dice, among=safe or None)


def at_a_glance(game: Game[Any, Any], text: str, seat: str, legal: list[Any]) -> tuple[list[Any], list[Any]]:
    """The moves that win at once, and the moves after which no other seat can win at once (all of
    them where the glance would look at more than GLANCE_POSITIONS positions)."""
    wins: list[Any] = []
    safe: list[Any] = []
    looked = 0
    for action in legal:
        world = game.from_json(json.loads(text))
        game.apply(world, seat, action)
        looked += 1
        done = game.outcome(world)
        if done is not None:
            if seat in done.winners:
                wins.append(action)
            elif seat not in done.losers:
                safe.append(action)  # a draw: no reply wins
            continue
        after = json.dumps(game.to_json(world))
        others = sorted(game.to_act(world).seats - {seat})
        if not others:
            safe.append(action)  # the seat moves again: its own next move is searched
            continue
        loses = False
        for other in others:
            for reply in game.legal_actions(world, other):
                looked += 1
                if looked > GLANCE_POSITIONS:
                    return wins, list(legal)
                there = game.from_json(json.loads(after))
                game.apply(there, other, reply)
                end = game.outcome(there)
                loses = end is not None and seat in end.losers
                if loses:
                    break
            if loses:
                break
        if not loses:
            safe.append(action)
    return wins, safe
