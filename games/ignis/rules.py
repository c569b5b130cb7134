"""The Ignis rules on a bare Position: which entries are legal, playing one, removing lines.

Shared by the game (which adds turn bookkeeping and words) and the AI (which calls it per node).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.ignis.board import AIR, EARTH, EMPTY, FIRE, WATER, Entry, Position, entries, outer_lines


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options that change play (layout and first only change setup)."""

    gaps: bool = False  # edge_removal=gaps
    air_stays_air: bool = False

    @staticmethod
    def from_options(options: dict[str, str]) -> Rules:
        return Rules(
            gaps=options.get("edge_removal", "full") == "gaps",
            air_stays_air=options.get("air_stays_air", "off") == "on",
        )


@dataclass(frozen=True, slots=True)
class Played:
    """What one entry did: the token pushed off (EMPTY if none), the flip, the lines removed."""

    pushed_off: int
    flipped: bool
    removed: tuple[tuple[str, bytes], ...]  # (line name, tokens that left the game with it)


def blocker(pos: Position, e: Entry) -> int:
    """The token this entry would push off the active board; EMPTY when the line has a gap."""
    seg = pos.cells[e.sl]
    if EMPTY in seg:
        return EMPTY
    return seg[-1] if e.forward else seg[0]


def may_push_off(token: int, piece: int) -> bool:
    # Rulebook "Attention": Fire/Water always may leave; Air only when shifted by an Earth token;
    # Earth never (and pushing onto a removed line counts as pushing off, so the same holds there).
    if token == AIR:
        return piece == EARTH
    return token != EARTH


def can_enter(pos: Position, piece: int) -> bool:
    if piece == AIR:
        return pos.air > 0
    # Rulebook "Turn": with only Air left in the supply, one Air may be flipped to Earth.
    return pos.earth > 0 or pos.air > 0


def legal_moves(pos: Position) -> list[tuple[int, Entry]]:
    """(piece, entry) pairs, Air before Earth, each by square then direction: a fixed order."""
    es = entries(pos.bounds)
    out: list[tuple[int, Entry]] = []
    for piece in (AIR, EARTH):
        if not can_enter(pos, piece):
            continue
        for e in es:
            b = blocker(pos, e)
            if b == EMPTY or may_push_off(b, piece):
                out.append((piece, e))
    return out


def has_legal_move(pos: Position) -> bool:
    # Earth pushes off everything Air can, and is enterable whenever the supply is non-empty.
    if not can_enter(pos, EARTH):
        return False
    return any(blocker(pos, e) != EARTH for e in entries(pos.bounds))


def play(pos: Position, piece: int, e: Entry, rules: Rules) -> Played:
    """Apply a legal entry in place (no validation): push, supply, line removals, next player."""
    flipped = False
    if piece == EARTH and pos.earth == 0:
        flipped = True  # Rulebook "Turn": the flip; the Air token leaves the supply as Earth.
        pos.air -= 1
    elif piece == EARTH:
        pos.earth -= 1
    else:
        pos.air -= 1
    cells = pos.cells
    seg = cells[e.sl]
    tok = bytes((piece,))
    # Rules gap "A move": the token lands on the edge square and the occupants up to the first
    # gap shift one step; with no gap the last one leaves the board.
    if e.forward:
        k = seg.find(EMPTY)
        if k < 0:
            off = seg[-1]
            cells[e.sl] = tok + seg[:-1]
        else:
            off = EMPTY
            cells[e.sl] = tok + seg[:k] + seg[k + 1 :]
    else:
        k = seg.rfind(EMPTY)
        if k < 0:
            off = seg[0]
            cells[e.sl] = seg[1:] + tok
        else:
            off = EMPTY
            cells[e.sl] = seg[:k] + seg[k + 1 :] + tok
    if off != EMPTY:
        # reading: pushed-off-air
        # Rulebook "Pushing off": it returns to the supply turned to its Earth side; option
        # air_stays_air takes the designer-reported reading that Air comes back as Air.
        if off == AIR and rules.air_stays_air:
            pos.air += 1
        else:
            pos.earth += 1
    removed = remove_lines(pos, rules)
    pos.to_move ^= 1
    return Played(off, flipped, removed)


# reading: full-line-removal
def line_qualifies(seg: bytearray, gaps: bool) -> bool:
    """Rulebook "Removing Edge Rows": every token on the line is one element.

    Readings: at least 2 tokens always (the rulebook's "as few as 2"), so a 1-square line never
    goes; default (full) also needs every square occupied; option gaps allows empty squares.
    """
    toks = seg.replace(b"\x00", b"")
    n = len(toks)
    if n < 2 or toks.count(toks[0]) != n:
        return False
    return gaps or n == len(seg)


# reading: lines-go-together
def remove_lines(pos: Position, rules: Rules) -> tuple[tuple[str, bytes], ...]:
    """Remove qualifying outer lines until none qualifies; tokens removed leave the game.

    Reading: every outer line that qualifies at one check goes at once (their shared corner,
    if any, holds one element or is empty), then the smaller board is checked again.
    """
    out: list[tuple[str, bytes]] = []
    cells = pos.cells
    while True:
        hits = [
            (name, sl, side)
            for name, sl, side in outer_lines(pos.bounds)
            if line_qualifies(cells[sl], rules.gaps)
        ]
        if not hits:
            return tuple(out)
        for name, sl, side in hits:
            # Recorded line by line so a shared corner token is counted once.
            out.append((name, bytes(cells[sl].replace(b"\x00", b""))))
            cells[sl] = bytes(len(cells[sl]))
            if side == "south":
                pos.r0 += 1
            elif side == "north":
                pos.r1 -= 1
            elif side == "west":
                pos.f0 += 1
            else:
                pos.f1 -= 1
        if pos.f0 > pos.f1 or pos.r0 > pos.r1:
            return tuple(out)


def fire_water_left(pos: Position) -> tuple[int, int]:
    return pos.cells.count(FIRE), pos.cells.count(WATER)
