"""Who sits where and who must act: pure functions of a session row, its game and its state.

Nothing here reads storage or the clock, so every collaborator of the host may use them freely.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from bot.posts import Caller
from engine import Game, GameError, NotYourTurn, OptionError, all_games, get_game
from storage import SeatRow, SessionRow


def seat_order(game: Game[Any, Any], row: SessionRow) -> list[str]:
    """The taken seats in the game's own order (the order `setup` deals them)."""
    taken = {s.seat for s in row.seats}
    return [s for s in game.seat_names(row.options) if s in taken]


def pick_seat(game: Game[Any, Any], options: dict[str, str], taken: list[str], wanted: str) -> str:
    names = game.seat_names(options)
    free = [s for s in names if s not in taken]
    wanted = wanted.strip().lower()
    if wanted:
        wanted = seat_called(game, options, wanted) or wanted
        if wanted not in names:
            titled = {s: game.seat_title(options, s) for s in names}
            listed = ", ".join(s if titled[s] == s else f"{s} ({titled[s]})" for s in names)
            raise OptionError(f"`{wanted}` is not a seat of {game.title}; seats: {listed}.")
        if wanted in taken:
            raise GameError(f"The {wanted} seat is taken; free seats: {', '.join(free) or 'none'}.")
        return wanted
    _, hi = game.seat_range(options)
    if not free or len(taken) >= hi:
        raise GameError(f"This {game.title} game is full ({hi} seats).")
    return free[0]


def seat_called(game: Game[Any, Any], options: Mapping[str, str], wanted: str) -> str | None:
    """The seat a player names by what sits there (a Raid hero: `aldric`, `sir aldric`, `Maren`),
    when exactly one seat's title is that or has it as a word of four letters or more; None
    otherwise (the seventh play-test's group typed `/game join seat:aldric` and was told only the
    seat ids)."""
    word = " ".join(wanted.lower().split())
    fits = []
    for seat in game.seat_names(options):
        title = game.seat_title(options, seat).lower()
        if word == title or (len(word) >= 4 and word in title.split()):  # never `sir` or `the`
            fits.append(seat)
    return fits[0] if len(fits) == 1 else None


def seat_word(row: SessionRow, typed: str) -> str:
    """The seat a command's `seat:` names in this game: its id, or what sits there (seat_called)."""
    wanted = typed.strip().lower()
    return (seat_called(get_game(row.game), row.options, wanted) or wanted) if wanted else ""


def acting_seat(row: SessionRow, game: Game[Any, Any], state: Any, caller: Caller) -> str:
    mine = row.seat_of(caller.user_id)
    if not mine:
        seats = ", ".join(who(row, s.seat) for s in row.seats)
        raise NotYourTurn(f"You are not seated in this game (seats: {seats}); you can watch along.")
    turn = game.to_act(state)
    acting = [s for s in mine if s in turn.seats]
    if not acting:
        if not turn.seats:
            raise NotYourTurn("The game is over.")
        raise NotYourTurn(f"It is not your turn: waiting for {names(row, turn.seats)}.")
    return acting[0]


def organises(row: SessionRow, caller: Caller) -> bool:
    """The game's opener, a seated player, or a server manager."""
    return caller.user_id == row.host_user or bool(row.seat_of(caller.user_id)) or caller.is_manager


def humans(row: SessionRow, seats: frozenset[str]) -> list[SeatRow]:
    return [s for s in row.seats if s.seat in seats and s.ai_level is None]


def people(row: SessionRow) -> frozenset[str]:
    """The seats a person holds (not the bot)."""
    return frozenset(s.seat for s in row.seats if s.ai_level is None)


def who(row: SessionRow, seat: str, kind: str = "action") -> str:
    """Who made a logged move, as the channel names them: "alice (fire)"; a timed-out
    default is the rules' choice, credited to nobody."""
    if kind == "timeout":
        return "Default taken"
    seated = row.seat_row(seat)
    if seated is None:
        return title(row, seat)
    return f"{title(row, seat)} ({name_of(seated)})"


def title(row: SessionRow, seat: str) -> str:
    """The seat as posts name it (Game.seat_title): `fire`, or a Raid hero's own name."""
    return get_game(row.game).seat_title(row.options, seat)


def person_at(row: SessionRow, name: str, seat: str) -> str:
    """A person with the seat they act for, as the channel names them: "alice (fire)", "bob (Sir
    Aldric)" (the seat's title, never a Raid seat's id)."""
    return f"{name} ({title(row, seat)})"


def name_of(seated: SeatRow) -> str:
    """A seat's holder as the table names them: a person by name, the bot as "the bot, easy"."""
    return f"the bot, {seated.ai_level}" if seated.ai_level else seated.user_name


def holder_names(row: SessionRow) -> dict[str, str]:
    """Each seat's holder by name (name_of), as pictures and the move log show them."""
    return {s.seat: name_of(s) for s in row.seats}


def human_decider(
    row: SessionRow, game: Game[Any, Any], state: Any, away: frozenset[str] = frozenset()
) -> SeatRow | None:
    """Who answers a decision the rules hand to the group: the game's decider (the player
    whose unit it concerns, or who acted last) when a person holds that seat; when the bot
    holds it (a silent seat taken over), the first person who may answer, so that the bot
    never decides about people's units. None when no person may answer (the bot does).
    Someone away (`away`, user ids) is never the decider while a present person may answer:
    they asked for no pings, and the decision would wait for its default unseen."""
    turn = game.to_act(state)
    waiting = humans(row, turn.seats)
    if not turn.decision or not waiting:
        return None
    present = [s for s in waiting if s.user_id not in away] or waiting
    return next((s for s in present if s.seat == game.decider(state)), present[0])


def only_answer(game: Game[Any, Any], state: Any, people: Collection[str]) -> tuple[str, str] | None:
    """(seat, notation) of a question the game asks a person that has exactly one legal answer
    (a Flame Breath with one unit in reach): the host answers it rather than make them press it.

    Only a question of a seat a person holds (`people`) counts: a decision the rules hand the
    players (`ToAct.decision`) or one seat's own pause with a default (a boost before the dice).
    A turn that happens to have one legal move (an Ignis player who can only pass, a hero left
    with nothing but `end`) is never played for anyone: a player expects to look at the board,
    ask for an undo or a vote first, and ending a turn is theirs to say. A seat the bot holds
    answers for itself as it always does."""
    if game.outcome(state) is not None:
        return None
    turn = game.to_act(state)
    if turn.decision is None and turn.default is None:
        return None
    if turn.decision is None and len(turn.seats) != 1:
        return None  # several seats' own pauses at once: each is theirs, none is forced for all
    asked = sorted(turn.seats & set(people))
    if not asked:
        return None
    # Logged under the decider where a person holds it, so "who acted last" stays who it was.
    decider = game.decider(state)
    seat = decider if decider is not None and decider in asked else asked[0]
    legal = game.legal_actions(state, seat)
    return (seat, str(legal[0])) if len(legal) == 1 else None


def names(row: SessionRow, seats: frozenset[str]) -> str:
    return ", ".join(f"{title(row, s.seat)} ({name_of(s)})" for s in row.seats if s.seat in seats)


def names_list(row: SessionRow) -> str:
    return ", ".join(s.seat for s in row.seats) or "none"


def game_list() -> str:
    return ", ".join(g.id for g in all_games())


def seat_lines(row: SessionRow, game: Game[Any, Any]) -> str:
    taken = {s.seat: s.user_name for s in row.seats}
    # Free seats matter only while people can still take them: a running three-player Ignite
    # game lists its three races, not the five nobody chose.
    shown = game.seat_names(row.options) if row.status == "lobby" else [s.seat for s in row.seats]
    # A seat the game names otherwise (a Raid hero) keeps its word too: `/game join` takes it.
    label = {s: s if title(row, s) == s else f"{s} ({title(row, s)})" for s in shown}
    return "Seats: " + ", ".join(f"{label[s]}: {taken.get(s, '(free)')}" for s in shown) + "."


def turn_line(row: SessionRow, game: Game[Any, Any], state: Any) -> str:
    turn = game.to_act(state)
    if turn.decision:
        return f"Decision for {names(row, turn.seats)}: {turn.prompt}"
    return f"To act: {names(row, turn.seats)}."
