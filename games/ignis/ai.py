"""The Ignis AI: easy (random, one-ply look), medium (depth-2 alpha-beta), hard (iterative
deepening alpha-beta, transposition table, quiescence) within a time budget and a node cap.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cache

from engine.dice import Dice
from games.ignis import rules
from games.ignis.board import (
    AIR,
    EARTH,
    ELEMENT_NAMES,
    EMPTY,
    FIRE,
    SEATS,
    SIZE,
    WATER,
    Bounds,
    Entry,
    Position,
    entries,
    is_empty_board,
    outer_lines,
    square_name,
)
from games.ignis.notation import PASS, IgnisAction
from games.ignis.state import State

Move = tuple[int, Entry]

WIN = 1_000_000  # a won position scores WIN minus the plies to get there
MATERIAL = 100
NO_PROGRESS_PLIES = 100
DEFAULT_BUDGET_S = 1.0
DEFAULT_MAX_NODES = 400_000
MEDIUM_DEPTH = 2
QUIESCENCE_DEPTH = 4


class _Abort(Exception):
    """Raised inside the search when the time budget or node cap runs out."""


@cache
def _physical_lines(b: Bounds) -> tuple[slice, ...]:
    """Every rank and file of the active board as slices of Position.cells."""
    if is_empty_board(b):
        return ()
    f0, f1, r0, r1 = b
    ranks = [slice(r * SIZE + f0, r * SIZE + f1 + 1) for r in range(r0, r1 + 1)]
    files = [slice(r0 * SIZE + f, r1 * SIZE + f + 1, SIZE) for f in range(f0, f1 + 1)]
    return tuple(ranks + files)


def evaluate(pos: Position) -> int:
    """Static score for the player to move, in hundredths of a token.

    Terms: material (Fire/Water on the board); tokens that can be pushed off next move (the two
    ends of every full line; the player to move gets to take one first); tokens on the outer
    lines, the ones pushes and removals reach first; outer lines holding only one player's
    tokens (a removal threat). Mobility as such is the same for both players, since they share
    every entry; the part that differs, moves that do not push off one's own token, is what
    the exposed-ends term counts.
    """
    cells = pos.cells
    me = pos.to_move + 1  # FIRE=1 for seat 0, WATER=2 for seat 1
    opp = 3 - me
    score = MATERIAL * (cells.count(me) - cells.count(opp))
    mine_exposed = theirs_exposed = 0
    for sl in _physical_lines(pos.bounds):
        seg = cells[sl]
        if EMPTY in seg:
            continue
        for end in (seg[0], seg[-1]):
            if end == me:
                mine_exposed += 1
            elif end == opp:
                theirs_exposed += 1
    if theirs_exposed:
        score += 60  # the player to move can take one right now
    if mine_exposed:
        score -= 25  # the reply may take one, unless this move mends it
    score += 8 * (theirs_exposed - mine_exposed)
    for _, sl, _ in outer_lines(pos.bounds):
        seg = cells[sl]
        m, t = seg.count(me), seg.count(opp)
        score += 6 * (t - m)
        if t >= 2 and t + seg.count(EMPTY) == len(seg):
            score += 20 * t  # a line of only their tokens: filling it removes them all
        elif m >= 2 and m + seg.count(EMPTY) == len(seg):
            score -= 20 * m
    return score


def _gen(pos: Position) -> list[tuple[int, int, Entry]]:
    """Legal moves as (order key, piece, entry): pushing an opposing token off first, then
    plain shifts, then pushes that cost a neutral token, last pushing off one's own token."""
    me = pos.to_move + 1
    air_ok = pos.air > 0
    earth_ok = pos.earth > 0 or pos.air > 0  # the flip when only Air is left
    out: list[tuple[int, int, Entry]] = []
    for e in entries(pos.bounds):
        b = rules.blocker(pos, e)
        if b == EMPTY:
            key = 2
        elif b == EARTH:
            continue
        elif b == AIR:
            if earth_ok:
                out.append((3, EARTH, e))
            continue
        else:
            key = 4 if b == me else 0
        if earth_ok:
            out.append((key + 1, EARTH, e))
        if air_ok:
            out.append((key, AIR, e))
    return out


def _terminal(pos: Position, mover: int, ply: int) -> int | None:
    """Score for `mover` if the move just made ended the game by elimination, else None."""
    cells = pos.cells
    f, w = cells.count(FIRE), cells.count(WATER)
    if f and w:
        return None
    if not f and not w:
        return 0
    mine = f if mover == 0 else w
    return WIN - ply if mine else -WIN + ply


@dataclass
class Search:
    """One search: the rules in force, the game's repeated positions, limits and tables."""

    rules: rules.Rules
    twice: frozenset[bytes]  # positions already seen twice: reaching one again draws
    deadline: float
    max_nodes: int
    quiescence: bool = True
    nodes: int = 0
    tt: dict[bytes, tuple[int, int, int, Move | None]] = field(default_factory=dict)
    history: dict[tuple[int, int, str], int] = field(default_factory=dict)

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.max_nodes or ((self.nodes & 63) == 0 and time.perf_counter() > self.deadline):
            raise _Abort

    def child(
        self, pos: Position, piece: int, e: Entry, quiet: int, ply: int
    ) -> tuple[Position, int, int | None]:
        """Play a move on a copy: (child, its no-progress count, score for the mover if over)."""
        mover = pos.to_move
        c = pos.copy()
        played = rules.play(c, piece, e, self.rules)
        q = 0 if played.removed or played.pushed_off in (FIRE, WATER) else quiet + 1
        over = _terminal(c, mover, ply + 1)
        if over is None and (q >= NO_PROGRESS_PLIES or c.key() in self.twice):
            over = 0  # our additions: no-progress and repetition draws
        return c, q, over

    def negamax(self, pos: Position, depth: int, alpha: int, beta: int, quiet: int, ply: int) -> int:
        self._tick()
        if depth <= 0:
            return self.qsearch(pos, alpha, beta, quiet, ply, QUIESCENCE_DEPTH)
        key = pos.key()
        hit = self.tt.get(key)
        tt_move: Move | None = None
        if hit is not None:
            h_depth, flag, h_score, tt_move = hit
            if h_depth >= depth:
                if flag == 0:
                    return h_score
                if flag == 1 and h_score >= beta:
                    return h_score
                if flag == -1 and h_score <= alpha:
                    return h_score
        moves = _gen(pos)
        if not moves:
            return 0  # our addition: nobody can move, a draw
        moves.sort(key=lambda m: (m[0], -self.history.get((m[1], m[2].square, m[2].direction), 0)))
        if tt_move is not None:
            moves.sort(key=lambda m: (m[1], m[2]) != tt_move)
        alpha0 = alpha
        best = -WIN - 1
        best_move: Move | None = None
        for _, piece, e in moves:
            c, q, over = self.child(pos, piece, e, quiet, ply)
            score = over if over is not None else -self.negamax(c, depth - 1, -beta, -alpha, q, ply + 1)
            if score > best:
                best, best_move = score, (piece, e)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        hk = (piece, e.square, e.direction)
                        self.history[hk] = self.history.get(hk, 0) + depth * depth
                        break
        flag = 0 if alpha0 < best < beta else (1 if best >= beta else -1)
        self.tt[key] = (depth, flag, best, best_move)
        return best

    def qsearch(self, pos: Position, alpha: int, beta: int, quiet: int, ply: int, left: int) -> int:
        stand = evaluate(pos)
        if not self.quiescence or left <= 0 or stand >= beta:
            return stand
        alpha = max(alpha, stand)
        opp = 2 - pos.to_move  # the opposing element's code
        for e in entries(pos.bounds):
            if rules.blocker(pos, e) != opp:
                continue
            self._tick()
            piece = EARTH if (pos.earth > 0 or pos.air > 0) else AIR
            c, q, over = self.child(pos, piece, e, quiet, ply)
            score = over if over is not None else -self.qsearch(c, -beta, -alpha, q, ply + 1, left - 1)
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
        return alpha

    def root(self, pos: Position, depth: int, quiet: int, order: list[Move]) -> tuple[int, Move]:
        alpha, beta = -WIN - 1, WIN + 1
        best: Move = order[0]
        for piece, e in order:
            c, q, over = self.child(pos, piece, e, quiet, 0)
            score = over if over is not None else -self.negamax(c, depth - 1, -beta, -alpha, q, 1)
            if score > alpha:
                alpha, best = score, (piece, e)
        return alpha, best


def _to_action(move: Move) -> IgnisAction:
    piece, e = move
    return IgnisAction(ELEMENT_NAMES[piece], square_name(e.square), e.direction)


def _root_moves(pos: Position, dice: Dice) -> list[Move]:
    """Legal moves in search order; equal-ranked moves in a dice-shuffled order, which is what
    makes the choice among equally good moves vary from game to game."""
    gen = _gen(pos)
    dice.shuffle(gen)
    gen.sort(key=lambda m: m[0])
    return [(p, e) for _, p, e in gen]


def _twice(state: State) -> frozenset[bytes]:
    return frozenset(k for k, n in state.reps.items() if n >= 2)


def choose(
    state: State,
    seat: str,
    level: str,
    dice: Dice,
    budget_s: float = DEFAULT_BUDGET_S,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> IgnisAction:
    """The move for `seat` at `level`: easy, medium, hard (or `random`, for benchmarks).

    All randomness comes from `dice`; hard stops at `budget_s` or `max_nodes`, whichever comes
    first, so with a generous budget a node cap makes its choice repeatable.
    """
    pos = state.pos
    if SEATS[pos.to_move] != seat or state.result is not None:
        raise ValueError(f"It is not {seat}'s turn.")
    moves = _root_moves(pos, dice)
    if not moves:
        return PASS
    r = rules.Rules.from_options(state.options)
    if level == "random":
        legal = rules.legal_moves(pos)
        return _to_action(legal[dice.below(len(legal))])
    if level == "easy":
        return _to_action(_easy(pos, moves, r, state, dice))
    if level == "medium":
        search = Search(r, _twice(state), float("inf"), 1 << 62, quiescence=False)
        return _to_action(search.root(pos, MEDIUM_DEPTH, state.quiet, moves)[1])
    if level == "hard":
        return _to_action(hard(state, moves, r, budget_s, max_nodes)[0])
    raise ValueError(f"No AI level `{level}`.")


def _easy(pos: Position, moves: list[Move], r: rules.Rules, state: State, dice: Dice) -> Move:
    """Mostly random: takes a win on the spot, and avoids a move that loses on the spot."""
    search = Search(r, _twice(state), float("inf"), 1 << 62)
    safe: list[Move] = []
    for piece, e in moves:
        _, _, over = search.child(pos, piece, e, state.quiet, 0)
        if over is not None and over > 0:
            return (piece, e)
        if over is None or over >= 0:
            safe.append((piece, e))
    pool = safe or moves
    return pool[dice.below(len(pool))]


def hard(
    state: State, moves: list[Move], r: rules.Rules, budget_s: float, max_nodes: int
) -> tuple[Move, int, int]:
    """Iterative deepening until the budget or node cap: (move, score, depth completed)."""
    pos = state.pos
    search = Search(r, _twice(state), time.perf_counter() + budget_s, max_nodes)
    best, score, done = moves[0], 0, 0
    depth = 1
    while depth <= 64:
        try:
            score, best = search.root(pos, depth, state.quiet, moves)
        except _Abort:
            break
        done = depth
        if abs(score) >= WIN - 100:
            break  # a forced result is known; deeper search cannot change it
        moves.remove(best)
        moves.insert(0, best)  # the previous best is searched first next time
        depth += 1
    return best, score, done
