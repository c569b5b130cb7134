"""Spawning enemies: the D20 placement of step d, Ambush Left/Right, bazaar spawns and guardians,
and the "in front" placement of catapults and the Elder Dragon.

Pure functions over a Battlefield; the caller (game.py) rolls the dice, applies the -1 minion
token and the next-level-down substitution before calling, and records the trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.words import a
from games.ignite.board import (
    BAZAAR_TOP_LEFT,
    BAZAAR_TOP_RIGHT,
    SIZE,
    UNSPAWNABLE,
    Battlefield,
    Dragon,
    Minion,
    Pos,
    distance,
    in_bounds,
    square_name,
)
from games.ignite.enemy_cards import COLOURS

# The Boss Battle: one minion of each colour, in this order, when the Elder Dragon appears.
DRAGON_SPAWN_ORDER = COLOURS


@dataclass
class Placement:
    """What a spawn did: the new minions (already on the field), and why each went where."""

    minions: list[Minion] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    first_pos: Pos | None = None  # where the first minion landed ("where you started placing")


def spawnable(board: Battlefield, pos: Pos) -> bool:
    """Step d: occupied means another enemy, a unit, lava, scorched earth or an immovable object.

    Small items are not modelled on the board, so they never block (enemies may spawn on them).
    """
    return board.terrain_at(pos) not in UNSPAWNABLE and pos not in board.figure_squares()


class _Lanes:
    """Placement runs along lanes: rows (top row, bazaar) or columns (Ambush Left/Right).

    A lane is walked by increasing index (rightwards, or downwards for an ambush); past its end
    the next minion wraps to the start of the same lane; a full lane moves on to the next lane
    (down a row, or one column inward for an ambush).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind  # "rows" | "left" | "right"

    def pos(self, lane: int, index: int) -> Pos:
        return (index, lane) if self.kind == "rows" else (lane, index)

    def split(self, pos: Pos) -> tuple[int, int]:
        return (pos[1], pos[0]) if self.kind == "rows" else (pos[0], pos[1])

    def next_lane(self, lane: int) -> int:
        return lane - 1 if self.kind == "right" else lane + 1

    def find(self, board: Battlefield, lane: int, index: int) -> Pos | None:
        # reading: lane-continues
        # Reading taken: a full lane continues on the next lane from the same index (still
        # scanning rightwards / downwards and wrapping), not from that lane's start.
        while 0 <= lane < SIZE:
            for k in range(SIZE):
                p = self.pos(lane, (index + k) % SIZE)
                if spawnable(board, p):
                    return p
            lane = self.next_lane(lane)
        return None


def _start(d20: int, ambush: str | None) -> tuple[_Lanes, Pos, int, str]:
    """Where the first enemy goes and the step between enemies (1 adjacent, 2 staggered)."""
    if not 1 <= d20 <= 20:
        raise ValueError(f"a D20 shows 1-20, not {d20}")
    if d20 == 19:
        # Step d: 19 → the top-left bazaar corner, the rest staggered to the right.
        return _Lanes("rows"), BAZAAR_TOP_LEFT, 2, "from the top-left corner of the bazaar, a space apart"
    if d20 == 20:
        # Step d: 20 → the top-right bazaar corner, the rest adjacent to the right.
        return _Lanes("rows"), BAZAAR_TOP_RIGHT, 1, "from the top-right corner of the bazaar, side by side"
    step = 1 if d20 % 2 == 0 else 2
    # Step d's "adjacent" and "staggered", in words.
    how = "side by side" if step == 1 else "a space apart"
    if ambush == "left":
        # Ambush Left: #1 is the top-left corner, counting down the left side.
        return _Lanes("left"), (0, d20 - 1), step, f"down the left side from its {_nth(d20)} space, {how}"
    if ambush == "right":
        # Ambush Right: #1 is the top-right corner, counting down the right side.
        return (
            _Lanes("right"),
            (SIZE - 1, d20 - 1),
            step,
            f"down the right side from its {_nth(d20)} space, {how}",
        )
    # Step d: 1-18 is the numbered space of the top row.
    return _Lanes("rows"), (d20 - 1, 0), step, f"on the top row from space {d20}, {how}"


def _nth(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    end = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{end}"


def is_bazaar_guardian(colour: str, level: int) -> bool:
    return colour == "orange" and level == 1


def place_minions(
    board: Battlefield, spawns: list[tuple[str, int]], d20: int, ambush: str | None = None
) -> Placement:
    """Place `spawns` (colour, level), left to right as on the Round card, for this D20 roll.

    The -1 minion token and substitutions for missing bases are the caller's: pass the final list.
    """
    lanes, start, step, how = _start(d20, ambush)
    # The roll itself is told just before (the roll's own event): here only where it leads.
    out = Placement(trace=[f"The new minions enter {how}."])
    cursor: tuple[int, int] = lanes.split(start)
    # Bazaar Guardian: odd roll → from the top-left bazaar corner (staggered like 19),
    # even → from the top-right corner (adjacent like 20); its own cursor so the others keep theirs.
    g_lanes = _Lanes("rows")
    g_cursor = g_lanes.split(BAZAAR_TOP_LEFT if d20 % 2 else BAZAAR_TOP_RIGHT)
    g_step = 2 if d20 % 2 else 1
    in_bazaar = d20 in (19, 20)
    for colour, level in spawns:
        guardian = is_bazaar_guardian(colour, level)
        ln, (lane, index) = (g_lanes, g_cursor) if guardian else (lanes, cursor)
        pos = ln.find(board, lane, index)
        if pos is None:
            out.trace.append(f"No free space is left for {a(colour + ' minion')}; it is not placed.")
            continue
        wanted = ln.pos(lane, index % SIZE)
        m = Minion(
            id=board.new_minion_id(), colour=colour, level=level, pos=pos, number=board.number_for(colour)
        )
        if in_bazaar or guardian:
            # Step d note: 19/20 spawns may not move or attack this turn; Bazaar Guardian: the
            # turn it is placed it cannot move or attack.
            m.can_act = False
        board.minions.append(m)
        out.minions.append(m)
        if out.first_pos is None:
            out.first_pos = pos
        why = "" if pos == wanted else f" ({square_name(wanted)} was occupied)"
        tag = " (bazaar guardian)" if guardian else ""
        out.trace.append(f"{m.title}{tag} is placed on {square_name(pos)}{why}.")
        p_lane, p_index = ln.split(pos)
        # Step d: past the right side, the next enemy starts again at the left of the same row.
        nxt = (p_lane, p_index + (g_step if guardian else step))
        if nxt[1] >= SIZE:
            nxt = (p_lane, 0)
        if guardian:
            g_cursor = nxt
        else:
            cursor = nxt
    return out


def front_direction(ambush: str | None) -> Pos:
    """Boss Battle note: "in front" is the space below; to the right under Ambush Left, to the
    left under Ambush Right."""
    if ambush == "left":
        return (1, 0)
    if ambush == "right":
        return (-1, 0)
    return (0, 1)


# reading: nearest-free-spawn
def _nearest_spawnable(board: Battlefield, want: Pos, exclude: set[Pos]) -> Pos | None:
    # Reading taken: when the space in front is taken, use the free space nearest to it
    # (king distance), ties by row then column: the rulebook does not say.
    best: tuple[int, int, int] | None = None
    out: Pos | None = None
    for r in range(SIZE):
        for c in range(SIZE):
            p = (c, r)
            if p in exclude or not spawnable(board, p):
                continue
            key = (distance(p, want), r, c)
            if best is None or key < best:
                best, out = key, p
    return out


def in_front(board: Battlefield, of: Pos, ambush: str | None) -> Pos | None:
    d = front_direction(ambush)
    want = (of[0] + d[0], of[1] + d[1])
    if in_bounds(want) and spawnable(board, want):
        return want
    return _nearest_spawnable(board, want if in_bounds(want) else of, set())


def place_catapult(board: Battlefield, minion_id: str, ambush: str | None = None) -> Pos | None:
    """Catapult: placed in front of the last unit placed, which becomes its pusher.

    The pusher does not attack on the placement turn (it still moves).
    """
    m = board.minion(minion_id)
    pos = in_front(board, m.pos, ambush)
    if pos is None:
        return None
    m.catapult = True
    m.catapult_pos = pos
    m.can_attack = False
    return pos


def place_dragon(board: Battlefield, first_pos: Pos, ambush: str | None = None) -> Pos | None:
    """Elder Dragon: on the space in front of where the minions started to be placed."""
    pos = in_front(board, first_pos, ambush)
    if pos is not None:
        board.dragon = Dragon(pos=pos)
    return pos
