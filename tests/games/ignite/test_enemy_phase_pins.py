"""Pins seeded Enemy Phases as the rules decide them: every event's text, every tie handed to
the players (prompt, options, default, decider) and the state at the end. The enemy code is
tuned for speed; any change here means a rule now decides differently, which must be on purpose.

The positions are the crowded ones of bench/engine_bench.py (40 minions and the Elder Dragon,
four players' units at the bottom edge). Rewrite the fixture only after a deliberate rules change:
`.venv/bin/python tests/games/ignite/test_enemy_phase_pins.py`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from games.ignite import phases
from tests.games.ignite.crowded import crowded_position

FIXTURE = Path(__file__).parent / "fixtures" / "enemy_phase_pins.json"
# (seed, ties option): ties=auto draws the defaults with no pause, which uses the dice differently.
CASES = [(1, "players"), (2, "players"), (3, "players"), (5, "players"), (4, "auto"), (6, "auto")]


def transcript(seed: int, ties: str) -> dict[str, Any]:
    """One Enemy Phase, each tie answered with its default by the decider, the state saved and
    loaded between moves as the bot does."""
    from games.ignite.content import load_content

    game, state = crowded_position(seed, ties)
    events: list[Any] = []
    phases.run_enemy_phase(state, load_content(), events)
    lines = [f"{e.kind}: {e.text}" for e in events]
    asked: list[dict[str, Any]] = []
    while state.phase == "enemy" and state.outcome is None and state.pending is not None:
        asked.append({k: state.pending[k] for k in ("prompt", "options", "default", "decider")})
        turn = game.to_act(state)
        state = game.from_json(json.loads(json.dumps(game.to_json(state))))
        _, more = game.act(state, sorted(turn.seats)[0], turn.default)
        lines += [f"{e.kind}: {e.text}" for e in more]
    end = json.dumps(game.to_json(state), sort_keys=True)
    return {"events": lines, "asked": asked, "end": hashlib.sha256(end.encode()).hexdigest()}


def test_seeded_enemy_phases_decide_as_pinned() -> None:
    pinned = json.loads(FIXTURE.read_text("utf-8"))
    for seed, ties in CASES:
        got = transcript(seed, ties)
        want = pinned[f"{seed}/{ties}"]
        assert got["asked"] == want["asked"], (seed, ties)
        assert got["events"] == want["events"], (seed, ties)
        assert got["end"] == want["end"], (seed, ties)


def test_the_pins_ask_and_skip_ties() -> None:
    """The pinned phases cover both sides of issue 13: ties asked and ties with ties=auto."""
    pinned = json.loads(FIXTURE.read_text("utf-8"))
    assert sum(len(pinned[f"{s}/players"]["asked"]) for s, t in CASES if t == "players") > 10
    auto = [line for s, t in CASES if t == "auto" for line in pinned[f"{s}/auto"]["events"]]
    assert any("as the table settles ties" in line for line in auto)


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps({f"{s}/{t}": transcript(s, t) for s, t in CASES}, indent=1) + "\n", "utf-8")
    sys.exit(0)
