"""Reference games: short games of every registered game and mode, stored with the rules version
they were played under, that must replay exactly as recorded for as long as the bot plays that
version (tests/engine/test_rules_versions.py). A change that alters play without a new rules
version makes one of them replay differently; a bump with the old behaviour kept for the old
version leaves the old ones as they were, and needs new ones recorded for the new version.

Record the missing ones (a game's current rules version, each mode) with

    python -m tests.engine.reference_games

Files are never overwritten: the old ones are kept forever, the proof that sessions opened
under an old version still replay. The moves are seeded random legal moves; the file keeps a
short digest of the state after each move, so a failure names the first move that differs.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import Dice, Game, OptionError, all_games, get_game
from engine.game import RULES

FOLDER = Path(__file__).resolve().parents[1] / "data" / "reference_games"
SEEDS = (11, 12)  # two games per game and mode
PLIES = 60  # moves per game at most: short, so the files stay small
RECORD = "python -m tests.engine.reference_games"


@dataclass(frozen=True)
class Variant:
    """A game in one of its modes: its default options, or one value of its `mode` option."""

    game: Game[Any, Any]
    options: dict[str, str]

    @property
    def name(self) -> str:
        return "-".join([self.game.id, *self.options.values()]) or self.game.id

    def path(self, version: int) -> Path:
        return FOLDER / f"{self.name}.rules-{version}.json"


def variants() -> list[Variant]:
    """Every registered game with its default options, and once per other value of its `mode`
    or `scenario` (BattleLore's Into the Fire plays rules of its own)."""
    out = []
    for game in all_games():
        out.append(Variant(game, {}))
        for spec in (o for o in game.options if o.name in ("mode", "scenario")):
            out += [Variant(game, {spec.name: c}) for c in spec.choices if c != spec.default]
    return [v for v in out if _valid(v)]


def _valid(variant: Variant) -> bool:
    """A value one option takes only with another (a Raid scenario needs `mode=raid`) is left out."""
    try:
        variant.game.validate_options(variant.options)
    except OptionError:
        return False
    return True


def digest(game: Game[Any, Any], state: Any) -> str:
    """A short fingerprint of the whole state (16 hex digits)."""
    text = json.dumps(game.to_json(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _seats(game: Game[Any, Any], options: dict[str, str]) -> list[str]:
    lo, _ = game.seat_range(options)
    return game.seat_names(options)[: max(lo, 1)]


def play(variant: Variant, seed: int) -> dict[str, Any]:
    """One reference game under the game's current rules: seeded random legal moves."""
    game = variant.game
    options = game.session_options(variant.options)
    seats = _seats(game, options)
    state = game.setup(seats, options, seed)
    chooser = Dice(seed * 7919)
    moves: list[list[str]] = []
    digests = []
    for _ in range(PLIES):
        if game.outcome(state) is not None:
            break
        turn = game.to_act(state)
        seat = sorted(turn.seats)[chooser.below(len(turn.seats))]
        legal = game.legal_actions(state, seat)
        action = str(legal[chooser.below(len(legal))])
        game.act(state, seat, action)
        moves.append([seat, action])
        digests.append(digest(game, state))
    return {"seed": seed, "seats": seats, "moves": moves, "digests": digests}


def record_file(variant: Variant) -> dict[str, Any]:
    version = variant.game.rules_version
    return {
        "game": variant.game.id,
        "options": {**variant.options, RULES: str(version)},
        "games": [play(variant, seed) for seed in SEEDS],
    }


def replay_problem(data: dict[str, Any]) -> str | None:
    """Why a stored file's reference games no longer replay as recorded (None: they do)."""
    game = get_game(data["game"])
    version = data["options"][RULES]
    told = f"{game.id} ({', '.join(f'{k}={v}' for k, v in data['options'].items())})"
    advice = (
        f"bump `rules_version` of {game.id} (and record new reference games: {RECORD}) so that "
        f"sessions opened under version {version} keep the rules they started with; or, if the change "
        "was not meant to alter play, find what did"
    )
    for ref in data["games"]:
        try:
            # The options as stored, rules version included (a missing key reads as the current one).
            state = game.setup(ref["seats"], data["options"], ref["seed"])
        except Exception as exc:
            return f"the reference games of {told} cannot be set up ({exc})"
        for n, ((seat, notation), expected) in enumerate(zip(ref["moves"], ref["digests"], strict=True)):
            try:
                game.act(state, seat, notation)
            except Exception as exc:
                return (
                    f"reference game {told}, seed {ref['seed']}: move {n + 1} (`{notation}` by {seat}) "
                    f"is refused now ({exc}): {advice}."
                )
            if digest(game, state) != expected:
                return (
                    f"reference game {told}, seed {ref['seed']}: the state after move {n + 1} (`{notation}` "
                    f"by {seat}) differs from the one recorded: {advice}."
                )
    return None


def stored() -> list[Path]:
    return sorted(FOLDER.glob("*.json"))


def record() -> list[Path]:
    """Write the reference games each game and mode lacks for its current rules version."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    written = []
    for variant in variants():
        path = variant.path(variant.game.rules_version)
        if not path.exists():
            path.write_text(json.dumps(record_file(variant), indent=1) + "\n")
            written.append(path)
    return written


if __name__ == "__main__":
    made = record()
    print("\n".join(f"recorded {p.name}" for p in made) or "every game and mode has its reference games")
