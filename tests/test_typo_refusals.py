"""A typo's answer, for every registered game and mode (the registry's variants): at seeded
decisions through games of the mode (regular ones, and each where a verb first appears: a setup
step, a special's next step, a rare question), a move that does not read (each verb the seat may
use, followed by a word that names nothing, and a word that is no verb at all) is refused with the
moves the seat can type now, and every name or move the answer lists is accepted when the seat
types it. Only the form sentence ("A move reads like ...") shows shapes rather than moves, and
each shape it shows starts like a move legal now (engine.refusals.forms_legal_now); at every
decision of the walks each legal move has a form, so no typo is answered with moves alone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine import Game, GameError
from engine.errors import NotationError
from tests.test_conformance import VARIANT_IDS, VARIANTS

TYPO = "zzqx"  # a word no game gives a meaning
SEEDS = range(5, 15)  # seeded games walked in each mode
WALK = 200  # moves played at most in each
DECISIONS = 6  # decisions looked at in the first game of each mode, STEP moves apart
STEP = 7


def _spans(answer: str, typed: str) -> list[str]:
    """The backticked moves an answer lists, leaving out the typed text quoted back, the form
    sentence, a form the reason names (`heal <card>`: a `<placeholder>` is no move) and the
    slash commands it points to."""
    listed = answer.split("A move reads like")[0] + "".join(answer.split("Legal now:")[1:])
    quoted = {typed.lower(), *typed.lower().split()}  # the answer quoting what was typed
    return [
        s
        for s in re.findall(r"`([^`]+)`", listed)
        if s.strip().lower() not in quoted
        and TYPO not in s
        and not s.startswith("/")  # a command
        and "<" not in s  # a form
    ]


def _refusal(game: Game[Any, Any], state: Any, seat: str, typed: str) -> str:
    with pytest.raises(GameError) as refused:
        game.act(game.copy(state), seat, typed)
    return str(refused.value)


def _shapes(answer: str) -> list[str]:
    """The backticked examples of the form sentence, leaving out its notes in brackets."""
    sentence = answer.split("A move reads like")[1:]
    if not sentence:
        return []
    forms = re.split(r"Legal now:|Close legal moves:", sentence[0])[0]
    return re.findall(r"`([^`]+)`", re.sub(r"\([^)]*\)", "", forms))


def _starts_like(shape: str, legal: list[str]) -> bool:
    """Whether a legal move has the shape's first written word (not a `<placeholder>`) at that
    place; a shape all of placeholders wants only a move as long as it."""
    words = shape.lower().split()
    fixed = [(i, w) for i, w in enumerate(words) if not w.startswith("<")]
    moves = [m.lower().split() for m in legal]
    if not fixed:
        return any(len(m) >= len(words) for m in moves)
    i, word = fixed[0]
    return any(len(m) > i and m[i] == word for m in moves)


def _walk(game: Game[Any, Any], raw: dict[str, str], seed: int) -> Iterator[tuple[Any, str, list[str]]]:
    """Every decision of a seeded game of the mode: the state, the seat to act, its legal moves."""
    opts = game.validate_options(raw)
    lo, hi = game.seat_range(opts)
    state = game.setup(game.seat_names(opts)[: min(max(lo, 2), hi)], opts, seed)
    for ply in range(WALK):
        seats = sorted(game.to_act(state).seats)
        if not seats:
            return
        seat = seats[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        yield state, seat, legal
        game.act(state, seat, legal[(ply * 5) % len(legal)])


def _decisions(game: Game[Any, Any], raw: dict[str, str]) -> Iterator[tuple[Any, str, list[str]]]:
    """The decisions looked at: every STEP-th of the first game, and in every game each decision
    where the seat may use a verb no decision looked at before had (a setup step, a special's
    next step, a rare question)."""
    looked, verbs = 0, set[str]()
    for seed in SEEDS:
        for ply, (state, seat, legal) in enumerate(_walk(game, raw, seed)):
            now = {m.split()[0] for m in legal}
            regular = seed == SEEDS[0] and ply % STEP == 0 and ply < DECISIONS * STEP
            if regular or not now <= verbs:
                looked += 1
                verbs |= now
                yield state, seat, legal
    assert looked >= 2, f"{game.id} {raw}: fewer than two decisions were looked at"


def _typos(legal: list[str]) -> list[str]:
    """Each verb the seat may use followed by a word naming nothing, and a word that is no verb."""
    return [f"{v} {TYPO}" for v in sorted({m.split()[0] for m in legal})] + [TYPO]


@pytest.mark.parametrize(("game", "raw"), VARIANTS, ids=VARIANT_IDS)
def test_a_typos_answer_lists_only_moves_the_seat_can_type_now(
    game: Game[Any, Any], raw: dict[str, str]
) -> None:
    for state, seat, legal in _decisions(game, raw):
        for typed in _typos(legal):
            answer = _refusal(game, state, seat, typed)
            assert "Legal now:" in answer or "Close legal moves:" in answer, (typed, answer)
            for span in _spans(answer, typed):
                tried = game.copy(state)
                try:
                    game.act(tried, seat, span)
                except GameError as e:
                    pytest.fail(f"{game.id} {raw}: the answer to `{typed}` lists `{span}`, refused: {e}")


@pytest.mark.parametrize(("game", "raw"), VARIANTS, ids=VARIANT_IDS)
def test_a_typos_answer_shows_only_the_forms_of_moves_legal_now(
    game: Game[Any, Any], raw: dict[str, str]
) -> None:
    shown = 0
    for state, seat, legal in _decisions(game, raw):
        for typed in _typos(legal):
            answer = _refusal(game, state, seat, typed)
            shown += "A move reads like" in answer
            for shape in _shapes(answer):
                assert _starts_like(shape, legal), (
                    f"{game.id} {raw}: `{typed}` is answered with the form `{shape}`; legal now: {legal[:12]}"
                )
    assert shown, f"{game.id} {raw}: no typo's answer showed the forms of a move"


@pytest.mark.parametrize(("game", "raw"), VARIANTS, ids=VARIANT_IDS)
def test_every_legal_move_has_a_form_a_typo_shows(game: Game[Any, Any], raw: dict[str, str]) -> None:
    """No typo is answered with moves alone: at every decision of the walks (setup, a special's
    steps, every question), each legal move fits a form of the notation error a typo raises."""
    for seed in SEEDS:
        for state, _seat, legal in _walk(game, raw, seed):
            with pytest.raises(NotationError) as typo:
                game.parse(state, TYPO)
            shapeless = sorted({m for m in legal if not any(f.fits(m) for f in typo.value.forms)})
            assert not shapeless, f"{game.id} {raw} seed {seed}: no form fits {shapeless[:8]}"
