"""Connect Four for the host: setup, turns, drops with their events, views, the end.

The smallest complete game of the project, kept as the model to copy: its rules are rules.py, its
snapshot state.py, its words glossary.py; the bot is the engine's search bot (it declares
`ai_levels` and no `choose_action`), its picture render/connect_four.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.board_text import Group, Piece
from engine.dice import Dice
from engine.errors import OptionError
from engine.game import Event, Game, Outcome, Terms, ToAct
from engine.refusals import Form, starting
from engine.teaching import Teaching
from games.connect_four import glossary, rules
from games.connect_four.rules import COLUMNS, LETTERS, ROWS, SEATS, space
from games.connect_four.state import State, from_json, to_json

JSON = dict[str, Any]
# Any column is a move, by its letter or its number (no example column: it may be full).
FORMS = (
    Form(
        "a column from a to g by its letter, or by its number from the left (`4` is `d`)",
        starting("*"),
    ),
)


def _cap(word: str) -> str:
    return word[:1].upper() + word[1:]


class ConnectFour(Game[State, str]):
    """A move is the letter of the column a disc is dropped in ("d")."""

    id: ClassVar[str] = "connect-four"
    title: ClassVar[str] = "Connect Four"
    blurb: ClassVar[str] = "Drop discs into a standing grid of seven columns: four of yours in a row wins."
    terms: ClassVar[Terms] = glossary  # vocabulary() and glossary() read it
    ai_levels: ClassVar[tuple[str, ...]] = ("easy", "medium", "hard")  # the engine's search bot
    picture_every_action: ClassVar[bool] = True

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return list(SEATS)

    def teaching(self) -> Teaching:
        return Teaching(
            win=(
                "You are Red or Yellow; Red drops first. The grid stands upright: 7 columns, 6 rows.",
                "Get four of your discs in a row, across, up or diagonally.",
                "A full grid with no four in a row is a draw.",
            ),
            turn=(
                "Drop one disc into a column that is not full: it falls to the lowest empty space.",
                "Then the other side drops one.",
            ),
            commands=(
                "`/play d`: drop a disc into column d (columns a to g from the left; `/play 4` works too).",
                "The buttons under each picture drop a disc into their column.",
                "`/game board format:text` reads the grid as words, each disc by its space (d1 is the "
                "bottom of column d).",
                "`/seat ai seat:yellow level:easy` lets the bot play a side (easy, medium or hard).",
            ),
            readings={"red-first": "Red always drops first: the rules leave it to the players."},
        )

    # ---- setup and turns -------------------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> State:
        opts = self.validate_options(dict(options))
        if list(seats) != list(SEATS):
            raise OptionError("Connect Four is played by exactly two seats: red and yellow.")
        return State(options=opts, seed=seed, dice=Dice(seed).state)

    def to_act(self, state: State) -> ToAct:
        if state.result is not None:
            return ToAct(frozenset())
        return ToAct(frozenset({state.to_move}), prompt=f"{_cap(state.to_move)} to drop a disc.")

    def legal_actions(self, state: State, seat: str) -> list[str]:
        if state.result is not None or seat != state.to_move:
            return []
        return [LETTERS[c] for c in rules.open_columns(state.grid)]

    def parse(self, state: State, text: str) -> str:
        words = text.strip().lower().split()
        if words[:1] == ["drop"]:
            words = words[1:]
        word = words[0] if len(words) == 1 else ""
        if word.isdecimal() and 1 <= int(word) <= COLUMNS:
            return LETTERS[int(word) - 1]
        if len(word) == 1 and word in LETTERS:
            return word
        raise self.notation_error(text, FORMS)

    def explain_illegal(self, state: State, seat: str, action: str, legal: list[str]) -> str:
        return f"Column {action} is full. Columns with room: {', '.join(legal)}."

    def apply(self, state: State, seat: str, action: str) -> list[Event]:
        column = LETTERS.index(action)
        state.grid, row = rules.drop(state.grid, column, seat)
        state.ply += 1
        where = space(column, row)
        state.last = {"seat": seat, "column": action, "space": where}
        events = [
            Event("drop", f"{_cap(seat)} drops a disc into column {action}; it comes to rest on {where}.")
        ]
        line = rules.four_through(state.grid, column, row)
        if line:
            state.line = [space(c, r) for c, r in line]
            other = SEATS[1 - SEATS.index(seat)]
            reason = f"{_cap(seat)} has four in a row: {', '.join(state.line)}."
            state.result = {"winners": [seat], "losers": [other], "reason": reason}
            events.append(Event("win", reason + f" {_cap(seat)} wins.", headline=True))
        elif rules.full(state.grid):
            reason = "The grid is full with no four in a row: a draw."
            state.result = {"winners": [], "losers": [], "reason": reason}
            events.append(Event("draw", reason, headline=True))
        return events

    def suggestion_why(self, state: State, seat: str, action: str) -> str | None:
        """A drop's why in the game's words: the line of the other colour it blocks, or the line
        of its own it makes; a win or a block of a win in one is the engine's to say (None)."""
        column = LETTERS.index(action)
        row = len(state.grid[column])
        other = SEATS[1 - SEATS.index(seat)]
        mine = rules.longest_through(state.grid, column, row, seat)
        theirs = rules.longest_through(state.grid, column, row, other)
        if max(len(mine), len(theirs)) >= rules.IN_A_ROW:
            return None
        head = f"drop in column {action} (it comes to rest on {space(column, row)})"
        if len(theirs) >= 3 and len(theirs) >= len(mine):
            spaces = ", ".join(space(c, r) for c, r in theirs if (c, r) != (column, row))
            return f"{head}: it blocks {_cap(other)}'s {len(theirs) - 1} in a row ({spaces})."
        if len(mine) >= 2:
            spaces = ", ".join(space(c, r) for c, r in mine)
            return f"{head}: it makes {len(mine)} in a row for {_cap(seat)} ({spaces})."
        if len(theirs) >= 2:
            return f"{head}: it stands in the way of {_cap(other)}'s disc beside it."
        lines = rules.open_fours(state.grid, column, row, seat)
        return f"{head}: it starts {lines} lines of four {_cap(other)} has not blocked."

    def outcome(self, state: State) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        return Outcome(frozenset(r["winners"]), frozenset(r["losers"]), r["reason"])

    # ---- views -----------------------------------------------------------------------------

    def view(self, state: State, seat: str | None) -> JSON:
        return {
            "game": self.id,
            "columns": [list(column) for column in state.grid],
            "to_move": None if state.result is not None else state.to_move,
            "ply": state.ply,
            "last": None if state.last is None else dict(state.last),
            "line": list(state.line),
            "options": dict(state.options),
            "outcome": None if state.result is None else dict(state.result),
        }

    def describe(self, view: JSON) -> str:
        parts = []
        if view["outcome"] is not None:
            parts.append(f"Game over. {view['outcome']['reason']}")
        else:
            # "Move 5", as the picture's title counts: every disc dropped is a move.
            parts.append(f"Move {view['ply'] + 1}: {_cap(view['to_move'])} to drop a disc.")
        last = view["last"]
        if last is not None:
            parts.append(
                f"Last: {_cap(last['seat'])} dropped into column {last['column']} ({last['space']})."
            )
        full = [LETTERS[c] for c, column in enumerate(view["columns"]) if len(column) == ROWS]
        if full and view["outcome"] is None:
            parts.append(f"Full columns: {', '.join(full)}.")
        return " ".join(parts)

    def board(self, view: JSON) -> list[Group]:
        """Each side's discs by space (columns a–g from the left, rows 1–6 from the bottom)."""
        groups = [
            Group(
                f"{_cap(seat)} discs",
                tuple(
                    Piece("", space(c, r))
                    for c, column in enumerate(view["columns"])
                    for r, who in enumerate(column)
                    if who == seat
                ),
            )
            for seat in SEATS
        ]
        if view["line"]:
            groups.append(Group("Four in a row", tuple(Piece("", s) for s in view["line"])))
        return groups

    # ---- persistence -----------------------------------------------------------------------

    def to_json(self, state: State) -> JSON:
        return to_json(state)

    def from_json(self, data: JSON) -> State:
        return from_json(data)
