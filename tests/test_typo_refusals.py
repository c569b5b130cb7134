"""A typo's answer, for every registered game and mode (the registry's variants): at seeded
decisions through a game, a move that does not read (each verb the seat may use, followed by a
word that names nothing, and a word that is no verb at all) is refused with the moves the seat
can type now, and every name or move the answer lists is accepted when the seat types it. Only
the form sentence ("A move reads like ...") shows shapes rather than moves."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import Game, GameError
from tests.test_conformance import VARIANT_IDS, VARIANTS

TYPO = "zzqx"  # a word no game gives a meaning
DECISIONS = 6  # seeded decisions looked at in each mode
STEP = 7  # moves played between two of them


def _spans(answer: str, typed: str) -> list[str]:
    """The backticked moves an answer lists, leaving out the typed text quoted back, the form
    sentence and the slash commands it points to."""
    listed = answer.split("A move reads like")[0] + "".join(answer.split("Legal now:")[1:])
    quoted = {typed.lower(), *typed.lower().split()}  # the answer quoting what was typed
    return [
        s
        for s in re.findall(r"`([^`]+)`", listed)
        if s.strip().lower() not in quoted and TYPO not in s and not s.startswith("/")  # a command
    ]


def _refusal(game: Game[Any, Any], state: Any, seat: str, typed: str) -> str:
    with pytest.raises(GameError) as refused:
        game.act(game.copy(state), seat, typed)
    return str(refused.value)


@pytest.mark.parametrize(("game", "raw"), VARIANTS, ids=VARIANT_IDS)
def test_a_typos_answer_lists_only_moves_the_seat_can_type_now(
    game: Game[Any, Any], raw: dict[str, str]
) -> None:
    opts = game.validate_options(raw)
    lo, hi = game.seat_range(opts)
    state = game.setup(game.seat_names(opts)[: min(max(lo, 2), hi)], opts, 5)
    looked = 0
    for ply in range(DECISIONS * STEP):
        seats = sorted(game.to_act(state).seats)
        if not seats:
            break
        seat = seats[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        if ply % STEP == 0:
            looked += 1
            verbs = sorted({m.split()[0] for m in legal})
            for typed in [f"{v} {TYPO}" for v in verbs] + [TYPO]:
                answer = _refusal(game, state, seat, typed)
                assert "Legal now:" in answer or "Close legal moves:" in answer, (typed, answer)
                for span in _spans(answer, typed):
                    tried = game.copy(state)
                    try:
                        game.act(tried, seat, span)
                    except GameError as e:
                        pytest.fail(f"{game.id} {raw}: the answer to `{typed}` lists `{span}`, refused: {e}")
        game.act(state, seat, legal[(ply * 5) % len(legal)])
    assert looked >= 2, f"{game.id} {raw}: the game ended before two decisions were looked at"
