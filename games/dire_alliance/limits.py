"""The limits that end a Dire Alliance game, as the platform lists and announces them (engine
Limit): Battle Mode's round limit and objectives to claim; Raid Mode's villain wounds, the
objectives the enemies may claim, and the villain deck."""

from __future__ import annotations

from engine.game import Limit
from engine.words import count
from games.dire_alliance import rules
from games.dire_alliance.content import Content
from games.dire_alliance.state import COLOURS, DAState, RaidState, other

LAST_ROUNDS = 2  # the round limit is announced from this many rounds before the last
DECK_WARN = 4  # the villain deck is announced two rounds (two draws a round) before it runs out


def round_limit_text(limit: int) -> str:
    return (
        f"the game ends after round {limit}, and the side with more objectives claimed wins "
        "(equal objectives are a draw)"
    )


def battle(state: DAState, content: Content) -> list[Limit]:
    scenario = content.scenarios[state.scenario]
    limits = [
        Limit(
            f"Round {state.round} of {scenario.round_limit}",
            round_limit_text(scenario.round_limit),
            state.round,
            scenario.round_limit,
            warn=LAST_ROUNDS,
        )
    ]
    for colour in COLOURS:
        n = rules.claimed(state, colour)
        limits.append(
            Limit(
                f"{colour} has claimed {n} of {scenario.claim_to_win} objectives",
                f"{colour} wins on claiming {scenario.claim_to_win} of {other(colour)}'s objectives",
                n,
                scenario.claim_to_win,
            )
        )
    return limits


def raid(state: RaidState, content: Content) -> list[Limit]:
    v, villain = state.villain, content.raid.villain.name
    goal = content.raid.scenario.claim_to_lose
    n = sum(o.claimed for o in state.objectives)
    return [
        Limit(
            f"{villain} has taken {v.wounds} of {v.health} wounds",
            f"the heroes win when {villain} takes wound {v.health}",
            v.wounds,
            v.health,
        ),
        Limit(
            f"The enemies have claimed {n} of {goal} objectives",
            f"the heroes lose when the enemies claim {count(goal, 'objective')}",
            n,
            goal,
        ),
        Limit(
            f"Villain deck: {count(len(v.deck), 'card')} left",
            "the heroes lose when a villain card must be drawn from an empty deck "
            "(one is drawn each time the enemies act or react)",
            len(v.deck),
            0,
            warn=DECK_WARN,
        ),
    ]
