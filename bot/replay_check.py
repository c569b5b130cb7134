"""The replay check of `python -m bot migrate`: every stored snapshot equals seed + log replayed.

Storage copies and compares rows but knows no games; this is the half that does. A snapshot at
version V must equal the dealt position with every move in force at V applied (moves taken back
by an undo at or before V left out). Log rows from before versions were recorded (NULL) allow
checking the latest snapshot only.
"""

from __future__ import annotations

import json
from typing import Any

from engine import get_game


def replay_check(
    session_id: int,
    game_id: str,
    options: dict[str, str],
    seed: int,
    seats: list[str],
    log_rows: list[dict[str, Any]],
    states: dict[int, dict[str, Any]],
) -> list[str]:
    """What disagrees, one line per snapshot; empty when every snapshot replays exactly."""
    game = get_game(game_id)
    order = [s for s in game.seat_names(options) if s in set(seats)]
    versioned = all(r["version"] is not None for r in log_rows)
    latest = max(states)
    problems: list[str] = []
    for version, stored in sorted(states.items()):
        if not versioned and version != latest:
            continue
        upto = [r for r in log_rows if not versioned or r["version"] <= version]
        taken = {int(x) for r in upto if r["kind"] == "undo" for x in r["notation"].split()[1].split(",")}
        state = game.setup(order, options, seed)
        try:
            for r in upto:
                if r["kind"] in ("action", "timeout") and r["seq"] not in taken:
                    game.act(state, r["seat"] or "", r["notation"])
        except Exception as exc:  # a log the rules refuse is a finding, not a crash of the check
            problems.append(f"session {session_id} at version {version}: the log does not replay ({exc})")
            continue
        if json.loads(json.dumps(game.to_json(state))) != stored:
            problems.append(
                f"session {session_id}: the snapshot at version {version} differs from seed + log"
            )
    return problems
