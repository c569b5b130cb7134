"""The Suggest button's why in Dire Alliance's own words where the board alone says it: Battle
Mode's attacks on the only enemy in reach, its opportunity attacks, and the cards played and the
moves made (how they stand against the enemy objectives and fighters)."""

from __future__ import annotations

from typing import Any

from engine import Dice, get_game
from engine.search_bot import standing_alone


def test_battle_modes_attacks_say_why_in_the_games_words() -> None:
    game = get_game("dire-alliance")
    options = game.session_options({})
    seen: set[str] = set()
    # The bot plays the games at fixed iterations, not against the clock: on a loaded machine a
    # timed search played other games, which met other decisions.
    with standing_alone():
        _play(game, options, seen)
    assert {"oppose", "melee", "play", "move"} <= seen, seen


def _play(game: Any, options: dict[str, str], seen: set[str]) -> None:
    for seed in (3, 4, 5):
        state = game.setup(["red", "blue"], options, seed)
        for i in range(300):
            turn = game.to_act(state)
            if not turn.seats or game.outcome(state) is not None:
                break
            seat = sorted(turn.seats)[0]
            legal = game.legal_actions(state, seat)
            for action in legal:
                why = game.suggestion_why(state, seat, action)
                words = action.split()
                if words[0] == "oppose":
                    assert why is not None and "as it leaves" in why and "a free melee attack" in why, why
                    seen.add("oppose")
                elif words[-2:-1] in (["melee"], ["shoot"]):
                    rivals = [m for m in legal if m.rsplit(" ", 1)[0] == action.rsplit(" ", 1)[0]]
                    if len(rivals) == 1:
                        assert why is not None and "it is the only enemy" in why, (action, why)
                        seen.add(words[-2])
                    else:
                        assert why is None, why
                elif words[0] == "play" or words[1:2] == ["move"]:
                    assert why is not None and ("enemy objective" in why), (action, why)
                    seen.add(words[0] if words[0] == "play" else "move")
                else:
                    assert why is None, (action, why)
            game.apply(state, seat, game.choose_action(game.copy(state), seat, "easy", Dice(i)))
