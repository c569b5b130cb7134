"""The replay check of `python -m bot migrate`: every stored snapshot equals seed + log replayed.

Storage copies and compares rows but knows no games; this is the half that does. A snapshot at
version V must equal the dealt position with every move in force at V applied (moves taken back
by an undo at or before V left out) and every option the players changed in play by V (listed
beside the game, bot/host/options.py), each at its place among the moves. The replay is the one
an export is verified with (engine.fairness.replay), so the two can never disagree on what a
game is. Log rows from before versions were recorded (NULL) allow checking the latest snapshot
only, as do changes of option whose place cannot be told. A snapshot of an older state schema
is checked by its log only: the replay is written in today's form.
"""

from __future__ import annotations

import json
from typing import Any

from bot.host.options import CHANGES_KEY
from engine import get_game, rules_of
from engine.fairness import replay


def _in_force(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves in force after these log rows: actions and time-outs no undo took back."""
    taken = {int(x) for r in rows if r["kind"] == "undo" for x in r["notation"].split()[1].split(",")}
    return [r for r in rows if r["kind"] in ("action", "timeout") and r["seq"] not in taken]


def _placed(
    changes: list[dict[str, Any]], log_rows: list[dict[str, Any]], states: dict[int, Any]
) -> list[int] | None:
    """The version each change of option was stored at, oldest first; None when it cannot be
    told. A change is stored as a snapshot without a log row and such snapshots are never pruned,
    so after the dealt position they are the changes, in order (older records lack `version`)."""
    if any(r["version"] is None for r in log_rows):
        return None
    logged = {r["version"] for r in log_rows}
    free = sorted(v for v in states if v not in logged)[1:]
    if all("version" in c for c in changes):
        return [int(c["version"]) for c in changes]
    return free if len(free) == len(changes) else None


def _changes_at(
    version: int, changes: list[dict[str, Any]], placed: list[int], log_rows: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The changes of option in force at `version`, each placed before the move numbered `moves`
    of the line of play at that version: the moves in force when it was made, fewer when an undo
    since took back moves from before it (the change stays, bot/host/options.py reapply)."""
    out = []
    for change, made in zip(changes, placed, strict=True):
        if made > version:
            continue
        place = len(_in_force([r for r in log_rows if r["version"] <= made]))
        for undo in (r for r in log_rows if r["kind"] == "undo" and made < r["version"] <= version):
            place = min(place, len(_in_force([r for r in log_rows if r["version"] <= undo["version"]])))
        out.append({"name": change["name"], "value": change["value"], "moves": place})
    return out


def replay_check(
    game_id: str,
    options: dict[str, str],
    seed: int,
    seats: list[str],
    log_rows: list[dict[str, Any]],
    states: dict[int, dict[str, Any]],
    notes: dict[str, str],
) -> list[str]:
    """What disagrees, one line per snapshot; empty when every snapshot replays exactly. `notes`
    are the session's entries beside the game (meta key prefix: value)."""
    game = get_game(game_id)
    # Saved by a newer bot: said as such, not as a snapshot that differs from its replay.
    newer = [
        f"its snapshot at version {v} has game-state schema {s.get('schema')}"
        for v, s in states.items()
        if not isinstance(s.get("schema", 1), int) or s.get("schema", 1) > game.schema_version
    ]
    if rules_of(options) > game.rules_version:
        newer.insert(0, f"it was opened under rules version {rules_of(options)}")
    if newer:
        return [
            f"{newer[0]}, newer than this version of the bot knows (rules up to {game.rules_version}, "
            f"schema up to {game.schema_version}): migrate it with the newer version of the bot"
        ]
    changes: list[dict[str, Any]] = json.loads(notes.get(CHANGES_KEY, "[]"))
    placed = _placed(changes, log_rows, states)
    latest = max(states)
    problems: list[str] = []
    for version, stored in sorted(states.items()):
        if placed is None and version != latest:
            continue
        upto = log_rows if placed is None else [r for r in log_rows if r["version"] <= version]
        export = {
            "game": game_id,
            "seats": [{"seat": s} for s in seats],
            "options": options,
            "seed": seed,
            "moves": [{"seat": r["seat"], "notation": r["notation"]} for r in _in_force(upto)],
            "option_changes": changes if placed is None else _changes_at(version, changes, placed, log_rows),
        }
        try:
            state = replay(export)
        except Exception as exc:  # a log the rules refuse is a finding, not a crash of the check
            problems.append(f"at version {version} the log does not replay ({exc})")
            continue
        # A snapshot of an older state schema was written before fields the replay now fills
        # (its upgrade in from_json starts them empty): its log is checked, not its form.
        older = isinstance(stored.get("schema"), int) and stored["schema"] < game.schema_version
        if not older and json.loads(json.dumps(game.to_json(state))) != stored:
            problems.append(f"the snapshot at version {version} differs from seed + log")
    return problems
