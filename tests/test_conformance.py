"""One generic test every registered game must pass (after OpenSpiel's api conformance test).

Random playouts to the end from several seeds; at every step: the legal list is non-empty for
every seat to act, each action's notation parses back to itself, the state survives a JSON
round-trip, no view holds another seat's secrets; at the end, replaying seed + log rebuilds it.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
from typing import Any

import pytest

import games
import render
from engine import Dice, Game, all_games, get_game
from engine.protocols import GamePackage, Introduced
from render import has_picture
from render.protocols import ClosesUp, Picture, ReadsWhole

GAMES = all_games()
SEEDS = [1, 2, 3]
MAX_PLIES = 3000


def _default_seats(game: Game[Any, Any], options: dict[str, str]) -> list[str]:
    lo, _ = game.seat_range(options)
    return game.seat_names(options)[: max(lo, 1)]


def _variants() -> list[tuple[Game[Any, Any], dict[str, str]]]:
    """Each game with its default options, and once per value of a `mode` option (Dire Alliance's
    Raid Mode is another game on the same contract)."""
    out: list[tuple[Game[Any, Any], dict[str, str]]] = []
    for game in GAMES:
        out.append((game, {}))
        mode = next((o for o in game.options if o.name == "mode"), None)
        out += [(game, {"mode": c}) for c in (mode.choices if mode else ()) if c != mode.default]  # type: ignore[union-attr]
    return out


VARIANTS = _variants()
VARIANT_IDS = [g.id + "".join(f"-{v}" for v in raw.values()) for g, raw in VARIANTS]


def _playout(game: Game[Any, Any], seed: int, raw: dict[str, str]) -> None:
    options = game.validate_options(raw)
    seats = _default_seats(game, options)
    state = game.setup(seats, options, seed)
    chooser = Dice(seed * 7919)
    log: list[tuple[str, str]] = []
    for _ in range(MAX_PLIES):
        if game.outcome(state) is not None:
            break
        turn = game.to_act(state)
        assert turn.seats, "a running game must have someone to act"
        seat = sorted(turn.seats)[chooser.below(len(turn.seats))]
        legal = game.legal_actions(state, seat)
        assert legal, f"{seat} is to act but has no legal action"
        for action in legal:
            assert game.parse(state, str(action)) == action, f"notation does not round-trip: {action}"
        action = legal[chooser.below(len(legal))]
        game.act(state, seat, str(action))
        log.append((seat, str(action)))
        data = game.to_json(state)
        assert data["schema"] == game.schema_version
        assert game.to_json(game.from_json(json.loads(json.dumps(data)))) == data
        for viewer in seats:
            others = set().union(*(game.secrets(state, s) for s in seats if s != viewer))
            mine = game.secrets(state, viewer)
            text = json.dumps(game.view(state, viewer)) + game.describe(game.view(state, viewer))
            leaked = {s for s in others - mine if s in text}
            assert not leaked, f"{viewer}'s view shows another seat's secrets: {leaked}"
    assert game.outcome(state) is not None, f"no end within {MAX_PLIES} plies"
    replay = game.setup(seats, options, seed)
    for seat, notation in log:
        game.act(replay, seat, notation)
    assert game.to_json(replay) == game.to_json(state)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("game", "raw"), VARIANTS, ids=VARIANT_IDS)
def test_random_playout_conforms(game: Game[Any, Any], raw: dict[str, str], seed: int) -> None:
    _playout(game, seed, raw)


def test_every_shipped_game_is_registered() -> None:
    assert {g.id for g in GAMES} >= {"ignis", "ignite", "dire-alliance", "battlelore"}


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_every_game_has_a_board_picture(game: Game[Any, Any]) -> None:
    assert has_picture(game.id), f"render/{game.id.replace('-', '_')}.py is missing"


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_every_game_reads_its_terms_from_its_own_glossary_module(game: Game[Any, Any]) -> None:
    # engine.game's vocabulary() and glossary() read the module a game names in `terms`.
    assert game.terms is not None, f"{game.id} names no glossary module"
    assert game.terms.__name__ == f"{type(game).__module__.rsplit('.', 1)[0]}.glossary"
    vocabulary = game.vocabulary()
    assert vocabulary and vocabulary == game.terms.vocabulary()
    glossary = game.glossary()
    assert all(glossary.find(term) is not None for term in vocabulary)


PACKAGES = [m.name for m in pkgutil.iter_modules(games.__path__) if m.ispkg]


@pytest.mark.parametrize("name", PACKAGES)
def test_every_game_package_and_its_picture_keep_their_protocols(name: str) -> None:
    """engine/protocols.py and render/protocols.py, held at run time for every package under
    games/; each module also declares its protocol to mypy, which checks the types."""
    package = importlib.import_module(f"games.{name}")
    assert isinstance(package, GamePackage), f"games/{name}/__init__.py exports no GAME"
    game = package.GAME
    assert isinstance(game, Game) and isinstance(game, Introduced), f"games.{name}.GAME is not a game"
    assert game.id.replace("-", "_") == name and get_game(game.id) is game, f"{game.id} is not registered"
    assert game.blurb.strip() and "\n" not in game.blurb.strip(), f"{game.id}: blurb is one line"
    assert "_PACKAGE: GamePackage" in inspect.getsource(package), (
        f"games/{name}: declare its protocol to mypy"
    )
    picture = importlib.import_module(f"render.{name}")
    assert isinstance(picture, Picture), f"render/{name}: a picture needs render, SIZE and legend"
    wide = render.needs_close_up(game.id)
    kind = ClosesUp if wide else ReadsWhole
    assert isinstance(picture, kind), f"render/{name} must be a {kind.__name__} (render/protocols.py)"
    assert f"_PICTURE: {kind.__name__}" in inspect.getsource(picture), f"render/{name}: declare it to mypy"


@pytest.mark.parametrize(("game", "raw"), VARIANTS, ids=VARIANT_IDS)
def test_a_snapshot_from_a_newer_schema_is_refused(game: Game[Any, Any], raw: dict[str, str]) -> None:
    # A snapshot written by a newer version of the game must not load as if it were understood.
    options = game.validate_options(raw)
    state = game.setup(_default_seats(game, options), options, 1)
    data = json.loads(json.dumps(game.to_json(state)))
    data["schema"] = 99
    with pytest.raises(ValueError, match="schema"):
        game.from_json(data)
