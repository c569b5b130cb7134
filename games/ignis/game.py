"""The Ignis game for the host: setup, turns, apply with events, views, outcome, refusals.

Rules themselves live in rules.py; this module adds turn order, end conditions and words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.board_text import Group, Piece
from engine.dice import Dice
from engine.errors import IllegalAction, NotYourTurn, OptionError
from engine.game import Event, Game, OptionSpec, Outcome, Terms, ToAct
from engine.teaching import Teaching
from engine.words import agree, count
from games.ignis import explain, glossary, notation, rules, suggest_why
from games.ignis.board import (
    AIR,
    EARTH,
    ELEMENT_NAMES,
    EMPTY,
    FILES,
    FIRE,
    FULL_BOARD,
    SEATS,
    SIZE,
    WATER,
    Entry,
    Position,
    entries_by_square,
    square_index,
    square_name,
)
from games.ignis.notation import PASS, IgnisAction
from games.ignis.state import State, from_json, to_json

JSON = dict[str, Any]
# reading: repetition-draws
# docs/rules-gaps.md "Our additions": no-progress and threefold-repetition draws, and the pass.
# Kept as documented, though under these rules none can arise in play: every move removes a
# line, pushes off Fire/Water, adds an Earth to the board (Earth never leaves it) or fills an
# empty square, so a position never recurs and fewer than 72 quiet plies can follow one another
# on 36 squares; and a board whose every line ends in Earth has an all-Earth outer line, which
# is removed. Tests reach them by building states directly.
NO_PROGRESS_PLIES = 100
REPETITIONS = 3
_PIECE_CODE = {"air": AIR, "earth": EARTH}


def _cap(word: str) -> str:
    return word[:1].upper() + word[1:]


class IgnisGame(Game[State, IgnisAction]):
    id: ClassVar[str] = "ignis"
    title: ClassVar[str] = "Ignis"
    blurb: ClassVar[str] = (
        "Two elements, one shrinking board: enter Air or Earth from the edge to push every "
        "opposing token off while keeping one of your own."
    )
    terms: ClassVar[Terms] = glossary  # vocabulary() and glossary() read it
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "layout",
            ("checker", "random"),
            "checker",
            "checker: Fire and Water alternate on b2–e5; random: a seeded shuffle of them",
        ),
        OptionSpec("first", ("fire", "random"), "fire", "who moves first"),
        OptionSpec(
            "edge_removal",
            ("full", "gaps"),
            "full",
            "full: a removed edge line must be full; gaps: empty squares allowed, 2+ tokens",
        ),
        OptionSpec(
            "air_stays_air",
            ("off", "on"),
            "off",
            "on: a pushed-off Air returns to the supply as Air instead of Earth",
        ),
    )
    ai_levels: ClassVar[tuple[str, ...]] = ("easy", "medium", "hard")
    picture_every_action: ClassVar[bool] = True

    # ---- metadata -------------------------------------------------------------------------

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return list(SEATS)

    def seat_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        return 2, 2

    def teaching(self) -> Teaching:
        return Teaching(
            win=(
                "You are Fire (red triangles) or Water (blue circles); 8 tokens each start in the middle "
                "of a 6×6 board.",
                "Push every one of your opponent's tokens off the board while keeping at least one "
                "of your own.",
            ),
            turn=(
                "Take an Air or an Earth token from the shared supply.",
                "Enter it on an edge square: the tokens in that line slide one square toward the far edge.",
                "A full line pushes its last token off. Fire and Water may always be pushed off; Air only "
                "by an Earth; Earth never.",
                "Pushed-off tokens go back to the supply as Earth.",
                "An outer ring line holding only one element is removed with its tokens: the board shrinks.",
                "If only Air is left in the supply, you may flip one Air to Earth first.",
            ),
            commands=(
                "`/play earth a3 east`: enter Earth on a3 and push the line east (files a–f left to "
                "right, ranks 1–6 bottom to top).",
                "Short forms work: `E a3 e`, `A c1` (the direction may be left out where a square "
                "has only one).",
                "The buttons under each picture build the same move: token, then square, then direction.",
                "`/game moves` lists every legal move; `/game board format:text` reads the board as words.",
                "`/seat ai seat:water level:easy` lets the bot play a side (easy, medium or hard).",
            ),
            readings={
                "centre-checkerboard": "The 16 Fire and Water tokens start in a checkerboard on b2–e5, Fire "
                "on b2 (`layout=random` shuffles them).",
                "fire-first": "Fire moves first (`first=random` draws who starts).",
                "pushed-off-air": "A pushed-off Air token comes back as Earth; with `air_stays_air=on` it "
                "comes back as Air, as the designer is reported to play.",
                "full-line-removal": "An outer line is removed only when it is full and every token on it is "
                "one element (`edge_removal=gaps` also removes a line with empty squares); a line needs at "
                "least 2 tokens.",
                "lines-go-together": "Every outer line that qualifies at once is removed at once, then the "
                "smaller board is checked again.",
                "narrow-board-entries": "On a board one line wide, a token may enter from either end of the "
                "line.",
                "last-tokens-together": "If Fire and Water lose their last tokens on the same move it is a "
                "draw; a player whose own move pushes off their own last token loses.",
                "pass-when-stuck": "A player who cannot enter a token anywhere passes; if neither player "
                "can, the game is a draw.",
                "repetition-draws": "The same position three times, or 100 moves in a row with no Fire or "
                "Water token leaving and no line removed, is a draw.",
            },
        )

    # ---- setup ----------------------------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> State:
        opts = self.validate_options(dict(options))
        if list(seats) != list(SEATS):
            raise OptionError("Ignis is played by exactly two seats: fire and water.")
        dice = Dice(seed)
        # reading: centre-checkerboard
        # Rules gap "Setup": the 16 Fire/Water tokens fill b2–e5, checkerboard with Fire on b2.
        centre = [r * SIZE + f for r in range(1, 5) for f in range(1, 5)]
        if opts["layout"] == "random":
            tokens = [FIRE] * 8 + [WATER] * 8
            dice.shuffle(tokens)
        else:
            tokens = [FIRE if (sq % SIZE + sq // SIZE) % 2 == 0 else WATER for sq in centre]
        cells = bytearray(SIZE * SIZE)
        for sq, tok in zip(centre, tokens, strict=True):
            cells[sq] = tok
        # reading: fire-first
        first = dice.below(2) if opts["first"] == "random" else 0
        pos = Position(cells, FULL_BOARD, 12, 9, first)  # supply: 12 Air + 9 Earth
        state = State(pos=pos, options=opts, seed=seed, dice=dice.state)
        state.reps[pos.key()] = 1
        return state

    # ---- turns ----------------------------------------------------------------------------

    def to_act(self, state: State) -> ToAct:
        if state.result is not None:
            return ToAct(frozenset())
        return ToAct(frozenset({state.to_move}))

    def legal_actions(self, state: State, seat: str) -> list[IgnisAction]:
        if state.result is not None or seat != state.to_move:
            return []
        moves = [
            IgnisAction(ELEMENT_NAMES[piece], square_name(e.square), e.direction)
            for piece, e in rules.legal_moves(state.pos)
        ]
        # reading: pass-when-stuck
        # Our addition: a player with no legal move passes.
        return moves or [PASS]

    def parse(self, state: State, text: str) -> IgnisAction:
        return notation.parse(text, state.pos.bounds)

    def entry_for(self, state: State, action: IgnisAction) -> Entry | None:
        """The board entry an action names, or None when the square/direction is not one now."""
        if action.piece == "pass":
            return None
        for e in entries_by_square(state.pos.bounds).get(square_index(action.square), ()):
            if e.direction == action.direction:
                return e
        return None

    # ---- apply ----------------------------------------------------------------------------

    def apply(self, state: State, seat: str, action: IgnisAction) -> list[Event]:
        if state.result is not None:
            raise NotYourTurn("The game is over; no more moves can be made.")
        if seat != state.to_move:
            raise NotYourTurn(f"It is not {seat}'s turn; waiting for {state.to_move}.")
        legal = self.legal_actions(state, seat)
        if action not in legal:
            raise IllegalAction(self.explain_illegal(state, seat, action, legal))
        if action == PASS:
            return self._apply_pass(state, seat)
        entry = self.entry_for(state, action)
        assert entry is not None  # it is in the legal list
        return self._apply_move(state, seat, action, entry)

    def _apply_pass(self, state: State, seat: str) -> list[Event]:
        state.ply += 1
        state.pos.to_move ^= 1
        state.last_move = {
            "seat": seat,
            "piece": None,
            "square": None,
            "direction": None,
            "flipped": False,
            "pushed_off": None,
            "removed": [],
            "pass": True,
        }
        events = [Event("pass", f"{_cap(seat)} passes: no token can be entered anywhere.")]
        # reading: pass-when-stuck
        # Our addition: if neither can move, draw. Legal entries never depend on who moves, so
        # the opponent, facing the same board and supply, cannot move either.
        if not rules.has_legal_move(state.pos):
            reason = "Neither player can enter a token anywhere, so the game is a draw."
            events.append(self._finish(state, [], [], reason))
        return events

    def _apply_move(self, state: State, seat: str, action: IgnisAction, entry: Entry) -> list[Event]:
        pos = state.pos
        piece = _PIECE_CODE[action.piece]
        seg = pos.cells[entry.sl]
        gap = seg.find(EMPTY) if entry.forward else seg.rfind(EMPTY)
        shifted = gap if entry.forward else len(seg) - 1 - gap
        if gap < 0:
            shifted = len(seg) - 1
        far = entry.far
        played = rules.play(pos, piece, entry, rules.Rules.from_options(state.options))

        if played.flipped:
            text = (
                f"{_cap(seat)} flips an Air to Earth (only Air was left in the supply) and "
                f"enters it at {action.square} pushing {action.direction}"
            )
        else:
            text = f"{_cap(seat)} enters {_cap(action.piece)} at {action.square} pushing {action.direction}"
        if shifted:
            text += f"; {count(shifted, 'token')} {agree(shifted, 'shift')} one square"
        off_name = None
        if played.pushed_off != EMPTY:
            off_name = ELEMENT_NAMES[played.pushed_off]
            back = "Air" if played.pushed_off == AIR and state.options["air_stays_air"] == "on" else "Earth"
            where = "" if _on_physical_edge(far, entry) else " (onto a removed line)"
            text += (
                f"; {_cap(off_name)} on {square_name(far)} is pushed off{where} and returns "
                f"to the supply as {back}"
            )
        events = [Event("move", text + ".", data={"notation": str(action)})]
        for name, toks in played.removed:
            element = ELEMENT_NAMES[toks[0]] if toks else "empty"
            events.append(
                Event(
                    "line_removed",
                    f"{_cap(name)} holds only {_cap(element)} ({count(len(toks), 'token')}) and is "
                    "removed; its tokens leave the game.",
                    data={"line": name, "element": element, "tokens": len(toks)},
                )
            )
        removed_names = [name for name, _ in played.removed]
        state.removed_lines.extend(removed_names)
        state.ply += 1
        fw_left = played.pushed_off in (FIRE, WATER) or any(
            t in (FIRE, WATER) for _, toks in played.removed for t in toks
        )
        # Our addition: the no-progress count restarts when Fire/Water leaves or a line goes.
        state.quiet = 0 if fw_left or played.removed else state.quiet + 1
        key = pos.key()
        state.reps[key] = state.reps.get(key, 0) + 1
        state.last_move = {
            "seat": seat,
            "piece": action.piece,
            "square": action.square,
            "direction": action.direction,
            "flipped": played.flipped,
            "pushed_off": off_name,
            "removed": removed_names,
            "pass": False,
        }
        end = self._end_after_move(state, seat)
        if end is not None:
            events.append(end)
        return events

    def _end_after_move(self, state: State, mover: str) -> Event | None:
        fire, water = rules.fire_water_left(state.pos)
        # reading: last-tokens-together
        # Rules gap "End": last opposing token gone while yours remain wins; both at once draws;
        # your own move emptying your side while the opponent keeps one loses.
        if fire == 0 and water == 0:
            return self._finish(
                state,
                [],
                [],
                "Fire and Water both lost their last tokens on the same move, so the game is a draw.",
            )
        if fire == 0 or water == 0:
            winner, loser = ("water", "fire") if fire == 0 else ("fire", "water")
            left = water if fire == 0 else fire
            how = f" by {_cap(loser)}'s own move" if loser == mover else ""
            reason = (
                f"{_cap(winner)} wins: {_cap(loser)} has no token left on the board{how}, "
                f"while {_cap(winner)} keeps {left}."
            )
            return self._finish(state, [winner], [loser], reason)
        key = state.pos.key()
        if state.reps.get(key, 0) >= REPETITIONS:
            return self._finish(
                state,
                [],
                [],
                (
                    "The same position (board, supply and player to move) has occurred three "
                    "times, so the game is a draw."
                ),
            )
        if state.quiet >= NO_PROGRESS_PLIES:
            return self._finish(
                state,
                [],
                [],
                (
                    f"{NO_PROGRESS_PLIES} moves in a row passed with no Fire or Water token leaving "
                    "the board and no line removed, so the game is a draw."
                ),
            )
        return None

    def _finish(self, state: State, winners: list[str], losers: list[str], reason: str) -> Event:
        state.result = {"winners": winners, "losers": losers, "reason": reason}
        return Event("game_over", reason, data={"winners": winners, "losers": losers})

    # ---- refusals -------------------------------------------------------------------------

    def explain_illegal(self, state: State, seat: str, action: IgnisAction, legal: list[IgnisAction]) -> str:
        pos = state.pos
        if state.result is not None:
            return "The game is over; no more moves can be made."
        if seat != state.to_move:
            return f"It is not {seat}'s turn; waiting for {state.to_move}."
        if action == PASS:
            sample = ", ".join(f"`{a}`" for a in legal[:6])
            return (
                f"You may pass only when no token can be entered; you have {len(legal)} "
                f"legal moves, e.g. {sample}."
            )
        if legal == [PASS]:
            return (
                "No token can be entered anywhere now: every line is full and ends in a "
                "token that may not leave. Your only move is `pass`."
            )
        idx = square_index(action.square)
        by_sq = entries_by_square(pos.bounds)
        if idx not in by_sq:
            return explain.not_an_entry_square(idx, pos.bounds)
        entry = self.entry_for(state, action)
        if entry is None:
            dirs = [e.direction for e in by_sq[idx]]
            if len(dirs) == 1:
                return (
                    f"From {action.square} a token can only push {dirs[0]} (toward the far "
                    f"edge): `{action.piece} {action.square} {dirs[0]}`."
                )
            return f"From {action.square} a token pushes {' or '.join(dirs)}, not {action.direction}."
        piece = _PIECE_CODE[action.piece]
        if not rules.can_enter(pos, piece):
            return (
                f"The supply has no {_cap(action.piece)} ({pos.air} Air, {pos.earth} Earth); "
                f"enter Earth instead, e.g. `earth {action.square} {action.direction}`."
            )
        blocker = rules.blocker(pos, entry)
        far = square_name(entry.far)
        dest = (
            "off the board"
            if _on_physical_edge(entry.far, entry)
            else ("onto a removed line, which counts as off the board")
        )
        push = f"pushing {action.direction} from {action.square} would push the"
        if blocker == EARTH:
            others = self._legal_here(legal, action.square) or self._sample(legal)
            return f"{_cap(push)} Earth on {far} {dest}, and Earth never leaves. {others}"
        if blocker == AIR and piece == AIR:
            if pos.earth > 0:
                how = f"enter Earth: `earth {action.square} {action.direction}`"
            else:
                how = (
                    f"the supply has no Earth ({pos.air} Air), so flip one: "
                    f"`earth {action.square} {action.direction}`"
                )
            return (
                f"Entering Air: {push} Air on {far} {dest}; Air leaves only when an "
                f"Earth token pushes it, so {how}."
            )
        return f"`{action}` is not legal now. {self._sample(legal)}"

    def _legal_here(self, legal: list[IgnisAction], square: str) -> str:
        here = [f"`{a}`" for a in legal if a.square == square]
        return f"From {square} you may play {', '.join(here)}." if here else ""

    def _sample(self, legal: list[IgnisAction]) -> str:
        sample = ", ".join(f"`{a}`" for a in legal[:8])
        more = f" … ({len(legal)} in all; /game moves lists them)" if len(legal) > 8 else ""
        return f"Legal moves now: {sample}{more}."

    # ---- views ----------------------------------------------------------------------------

    def view(self, state: State, seat: str | None) -> JSON:
        pos = state.pos
        fire, water = rules.fire_water_left(pos)
        board = {square_name(i): ELEMENT_NAMES[c] for i, c in enumerate(pos.cells) if c != EMPTY}
        return {
            "game": "ignis",
            "board": board,
            "active": {
                "from_file": FILES[pos.f0] if pos.f0 < SIZE else None,
                "to_file": FILES[pos.f1] if pos.f1 >= 0 else None,
                "from_rank": pos.r0 + 1,
                "to_rank": pos.r1 + 1,
            },
            "removed_lines": list(state.removed_lines),
            "supply": {"air": pos.air, "earth": pos.earth},
            "to_move": None if state.result is not None else state.to_move,
            "ply": state.ply,
            "last_move": None if state.last_move is None else dict(state.last_move),
            "counts": {"fire": fire, "water": water},
            "options": dict(state.options),
            "outcome": None if state.result is None else dict(state.result),
            "edge_squares": explain.edge_squares(pos.bounds),
            "quiet_plies": state.quiet,
        }

    def describe(self, view: JSON) -> str:
        c, s = view["counts"], view["supply"]
        parts = []
        if view["outcome"] is not None:
            parts.append(f"Game over. {view['outcome']['reason']}")
        else:
            # "Move 4", as the picture's title counts (a move is one side's, the reply is the next).
            parts.append(f"Move {view['ply'] + 1}: {_cap(view['to_move'])} to move.")
        parts.append(f"On the board: Fire {c['fire']}, Water {c['water']}.")
        parts.append(f"Supply: {s['air']} Air, {s['earth']} Earth.")
        last = view["last_move"]
        if last is not None:
            if last["pass"]:
                parts.append(f"Last: {_cap(last['seat'])} passed.")
            else:
                flip = " (flipped from Air)" if last["flipped"] else ""
                txt = (
                    f"Last: {_cap(last['seat'])} entered {_cap(last['piece'])}{flip} at "
                    f"{last['square']} pushing {last['direction']}"
                )
                if last["pushed_off"]:
                    txt += f", pushing off {_cap(last['pushed_off'])}"
                if last["removed"]:
                    txt += f"; removed {', '.join(last['removed'])}"
                parts.append(txt + ".")
        if view["removed_lines"]:
            parts.append(f"Removed lines: {', '.join(view['removed_lines'])}.")
        return " ".join(parts)

    def board(self, view: JSON) -> list[Group]:
        """Each element's tokens by square (files a–f, ranks 1–6), then the playing area left."""
        squares = sorted(view["board"], key=lambda sq: (sq[1], sq[0]))
        groups = [
            Group(f"{_cap(e)} tokens", tuple(Piece("", sq) for sq in squares if view["board"][sq] == e))
            for e in ("fire", "water", "air", "earth")
        ]
        a = view["active"]
        if a["from_file"]:
            area = f"{a['from_file']}{a['from_rank']}–{a['to_file']}{a['to_rank']}"
            groups.append(Group("Squares still in play", (Piece("from corner to corner", area),)))
        return groups

    def outcome(self, state: State) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        return Outcome(frozenset(r["winners"]), frozenset(r["losers"]), r["reason"])

    # ---- persistence ----------------------------------------------------------------------

    def to_json(self, state: State) -> JSON:
        return to_json(state)

    def from_json(self, data: JSON) -> State:
        return from_json(data)

    def copy(self, state: State) -> State:
        return state.copy()

    # ---- AI -------------------------------------------------------------------------------

    def suggestion_why(self, state: State, seat: str, action: IgnisAction) -> str | None:
        return suggest_why.why(state, seat, action, self.entry_for(state, action))

    def choose_action(self, state: State, seat: str, level: str, dice: Dice) -> IgnisAction:
        from games.ignis import ai

        if level not in self.ai_levels:
            raise OptionError(f"No AI level `{level}`; choose one of: {', '.join(self.ai_levels)}.")
        return ai.choose(state, seat, level, dice)


def _on_physical_edge(sq: int, e: Entry) -> bool:
    """Whether pushing past `sq` in e's direction leaves the 6×6 board (not a removed line)."""
    f, r = sq % SIZE, sq // SIZE
    return {
        "east": f == SIZE - 1,
        "west": f == 0,
        "north": r == SIZE - 1,
        "south": r == 0,
    }[e.direction]
