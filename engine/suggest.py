"""The Suggest button's answer: the move the bot would make for a seat, and one line of why,
worked out from what that seat may see and nothing else.

A suggestion is computed on a stand-in for the real position that the seat cannot tell from it:
the real state with everything hidden from the seat dealt again (`engine.hidden.redeal`, from the
game's own declaration of its hidden zones) and the dice to come drawn again (every game keeps its
dice's state under the top-level key `dice` of its JSON). A search bot then samples its worlds
from the seat's view of it, as it always does. The dice for all of it come from the session, the
position and the seat, so two presses give the same answer, and a re-deal of the cards the seat
cannot see gives the same answer too: the property tests/test_hidden_zones.py checks.

The why is the game's own (`Game.suggestion_why`) where it has one. Otherwise it is found from
the rules alone: the move wins; in a game of open information, it leaves the opponent no
winning reply where another move would have left one; failing those, what it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.dice import Dice
from engine.errors import GameError
from engine.game import Game
from engine.hidden import redeal
from engine.search_bot import bot_move, standing_alone

# How many other moves are tried for a winning reply they would allow: enough to find the
# threat in a position that has one (most moves ignore it), few enough for a quick answer.
ALTERNATIVES = 24


@dataclass(frozen=True)
class Suggestion:
    action: str  # the notation, as the seat would type it
    why: str  # one line, in the game's words


def level_for(game: Game[Any, Any]) -> str:
    """The level that suggests: `medium` where the game has it (a sound move in about a second),
    else its strongest."""
    return "medium" if "medium" in game.ai_levels else game.ai_levels[-1]


def seat_sample(game: Game[Any, Any], state: Any, seat: str, dice: Dice) -> Any:
    """A whole state `seat` cannot tell from `state`: everything hidden from it dealt again and the
    rolls to come drawn again, all else (a pending decision, whose turn it is) as it stands."""
    data = redeal(game.to_json(state), game.hidden_zones(state), seat, dice)
    data["dice"] = dice.below(1 << 62)
    return game.from_json(data)


# Positions dealt afresh that are tried for a move legal in the real one (see suggest).
SAMPLES = 4

# How the engine's own whys begin, where a game says nothing of its own: the fallbacks that a
# game's `suggestion_why` exists to replace (tests/test_suggest_why_every_game.py counts them).
DOES = "it does this: "
RATES = "the bot rates it the best move here"
RULES_CHOICE = "the rules' own choice here"
GENERIC = (DOES, RATES, RULES_CHOICE)


def suggest(game: Game[Any, Any], state: Any, seat: str, dice: Dice) -> Suggestion:
    """What the bot would play for `seat` now, and why. The move is worked out on a position dealt
    afresh; where what was dealt shapes the choice itself (a Raid tie between minions that a new
    deal numbers otherwise), another deal is tried, and failing those the move the rules would
    take by default, so a suggestion is always a move the seat may make now."""
    legal = {str(a) for a in game.legal_actions(state, seat)}
    for _ in range(SAMPLES):
        sample = seat_sample(game, state, seat, dice)
        with standing_alone():
            action = bot_move(game, game.copy(sample), seat, level_for(game), dice)
        if str(action) in legal:
            why = game.suggestion_why(sample, seat, action) or rules_why(game, sample, seat, action)
            return Suggestion(str(action), why)
    default = game.to_act(state).default
    action = default if default in legal else sorted(legal)[0]
    return Suggestion(action, f"{RULES_CHOICE}: the bot could not weigh this decision.")


def rules_why(game: Game[Any, Any], state: Any, seat: str, action: Any) -> str:
    after = game.copy(state)
    played = game.play(after, seat, str(action))
    events = played.events
    if played.takes_back_a_look:
        # On a position dealt afresh, what follows a roll or a draw (the villain's next card) is
        # made up: say none of it.
        return f"{RATES}; what it leads to turns on dice or cards to come."
    done = game.outcome(after)
    if done is not None and seat in done.winners:
        return "it wins the game at once."
    if not game.hidden_zones(state):  # a game of open information: look one reply ahead
        reason = _threats(game, state, after, seat, action)
        if reason:
            return reason
    return _what_it_does(events, seat)


def _winning_reply(game: Game[Any, Any], state: Any, seat: str) -> Any | None:
    """A move the side to act after `seat` has at `state` that wins it the game outright."""
    if game.outcome(state) is not None:
        return None
    for other in sorted(game.to_act(state).seats - {seat}):
        for reply in game.legal_actions(state, other):
            after = game.copy(state)
            try:
                game.apply(after, other, reply)
            except GameError:
                continue
            done = game.outcome(after)
            if done is not None and other in done.winners:
                return other, reply
    return None


def _threats(game: Game[Any, Any], before: Any, after: Any, seat: str, action: Any) -> str | None:
    """A two-player game's reason in terms of wins one move away."""
    if _winning_reply(game, after, seat) is not None:
        return None  # every move may lose here; the bot picked the one it rates best
    for other in [a for a in game.legal_actions(before, seat) if a != action][:ALTERNATIVES]:
        tried = game.copy(before)
        game.apply(tried, seat, other)
        found = _winning_reply(game, tried, seat)
        if found is not None:
            side, reply = found
            return f"it stops {side} from winning: after `{other}`, {side} would win with `{reply}`."
    return None


def _what_it_does(events: list[Any], seat: str) -> str:
    """The events of the move as the rules word them (a move that rolled or drew never gets here)."""
    seen = [e.text.rstrip(".") for e in events if e.text and (e.to is None or seat in e.to)]
    if not seen:
        return f"{RATES}."
    return DOES + "; ".join(seen[:2]) + "."
