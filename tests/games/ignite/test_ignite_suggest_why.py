"""The Suggest button's why in Ignite's words: a card played on the only minion its unit can
reach with it says so, a card on a minion already hurt says that; a purchase, a card turned into
Honor, a step and the end of a turn say what they are for. Read from the board, the market and
the seat's own plays."""

from __future__ import annotations

from engine import Dice, get_game
from games.ignite.board import parse_square
from games.ignite.state import Action, IgniteState


def test_a_play_on_a_minion_says_why_that_minion() -> None:
    game = get_game("ignite")
    options = game.session_options({})
    seen: set[str] = set()
    for seed in (1, 2):
        state = game.setup(game.seat_names(options)[:2], options, seed)
        dice = Dice(seed)
        for _ in range(600):
            turn = game.to_act(state)
            if not turn.seats or game.outcome(state) is not None:
                break
            assert isinstance(state, IgniteState)
            seat = sorted(turn.seats)[dice.below(len(turn.seats))]
            legal = game.legal_actions(state, seat)
            for action in legal:
                why = game.suggestion_why(state, seat, action)
                minion = None
                if action.verb == "play" and action.square:
                    minion = state.field.minion_at(parse_square(action.square))
                if minion is None:
                    continue  # other moves have whys of their own, tested below
                same = [
                    a
                    for a in legal
                    if (a.verb, a.card, a.unit) == ("play", action.card, action.unit)
                    and state.field.minion_at(parse_square(a.square)) is not None
                ]
                if len(same) == 1:
                    assert why == (
                        f"play {action.card} with {action.unit} on {minion.name} at {action.square}: "
                        f"it is the only minion {action.unit} can reach with {action.card}."
                    )
                    seen.add("only")
                elif minion.damage:
                    assert why is not None and f"({minion.damage} damage)" in why, why
                    seen.add("hurt")
                else:
                    assert why is None, why
            game.apply(state, seat, legal[dice.below(len(legal))])
    assert "only" in seen, seen


def test_a_purchase_and_the_honor_for_it_say_what_they_are_for() -> None:
    game = get_game("ignite")
    options = game.session_options({"placement": "auto"})
    state = game.setup(["stoneborn", "windkin"], options, 1)
    assert isinstance(state, IgniteState) and state.phase == "free"
    honor = next(a for a in game.legal_actions(state, "stoneborn") if a.verb == "honor")
    assert game.suggestion_why(state, "stoneborn", honor) == (
        f"honor {honor.card}: its Honor goes toward metal shield (4 Honor)."
    )
    buy = Action("buy", card="metal shield")
    assert (
        game.suggestion_why(state, "stoneborn", buy)
        == "buy metal shield: your race's plan card (to hold the line)."
    )
    other = Action("buy", card="unicorn")
    assert game.suggestion_why(state, "stoneborn", other) == (
        "buy unicorn: of the cards your Honor reaches, the kind you own fewest of."
    )
