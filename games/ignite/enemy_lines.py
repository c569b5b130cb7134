"""The Enemy Phase told in short lines, for the post (issue 39): each enemy that hits, a line of
its walk and every unit it hit; the enemies that only walked, one line between them; the new
minions, one line. Each enemy's whole trace (why it chose its target, its way round) goes with
them as a detail line, which the host keeps out of the post and in the attached trace file.
"""

from __future__ import annotations

from engine.game import Event
from engine.words import count, listing
from games.ignite.board import Minion, Pos, square_name
from games.ignite.enemy_attacks import EnemyResult
from games.ignite.state import IgniteState

# The line of walks stays short enough that a crowded late round's post keeps every hit, death,
# card and die within one message (Discord's 2,000 characters; the host's MAX_TEXT): the walks past
# it are counted, and told in the trace file with their reasons.
WALKS_BUDGET = 600


def short_name(m: Minion) -> str:
    """ "white #2": a minion's name without the word every line would repeat."""
    return m.name.replace(" minion", "")


def walk(start: Pos | None, path: list[Pos]) -> str:
    """Where it went: "h7→i11", or where it stayed."""
    if start is None:
        return ""
    if not path:
        return square_name(start)
    return f"{square_name(start)}→{square_name(path[-1])}"


def hit_line(name: str, start: Pos | None, result: EnemyResult, minion_names: dict[str, str]) -> str | None:
    """The enemy's turn in one line when it hurt anyone: "Green #2 p13→n16: St1 −2 (defeated)".
    None when it hit nobody (its walk joins the phase's line of walks)."""
    hurt: list[str] = []
    for uid in dict.fromkeys([*result.soaked, *result.unit_damage, *result.hexed]):
        how = [f"shield soaks {result.soaked[uid]}"] if result.soaked.get(uid) else []
        how += [f"−{result.unit_damage[uid]}"] if result.unit_damage.get(uid) else []
        how += ["hexed"] if uid in result.hexed else []
        how += ["defeated"] if uid in result.killed_units else []
        hurt.append(f"{uid} {', '.join(how)}")
    hurt += [f"{minion_names.get(mid, 'a minion')} destroyed" for mid in result.killed_minions]
    if result.bazaar_destroyed:
        hurt.append("the bazaar burns down")
    if not hurt:
        return None
    sacrificed = f" (sacrificed {count(len(result.sacrificed), 'minion')})" if result.sacrificed else ""
    where = walk(start, result.moved_path)
    return f"{name[0].upper()}{name[1:]}{sacrificed} {where}: {'; '.join(hurt)}."


def note_walk(state: IgniteState, name: str, start: Pos | None, path: list[Pos]) -> None:
    """An enemy that hit nobody: its walk waits for the phase's line of walks (walks_event)."""
    if path:
        state.ep.setdefault("walked", []).append(f"{name} {walk(start, path)}")
    else:
        state.ep["stayed"] = state.ep.get("stayed", 0) + 1


def walks_event(state: IgniteState) -> Event | None:
    """The walks noted since the last line of walks, in one line: "Moved: white #2 h7→i11, …;
    2 stayed where they were." None when there is none to tell."""
    walked: list[str] = state.ep.pop("walked", [])
    stayed: int = state.ep.pop("stayed", 0)
    if not walked and not stayed:
        return None
    shown = walked
    while len(", ".join(shown)) > WALKS_BUDGET:
        shown = shown[:-1]
    more = (
        f" and {count(len(walked) - len(shown), 'more')} (in the trace file)"
        if len(shown) < len(walked)
        else ""
    )
    parts = [f"Moved: {', '.join(shown)}{more}"] if walked else []
    if stayed:
        parts.append(f"{count(stayed, 'enemy')} stayed where {'it was' if stayed == 1 else 'they were'}")
    return Event("enemy_moves", "; ".join(parts) + ".")


def placed_line(placed: list[Minion]) -> Event:
    """The new minions in one line: "Placed: red #2 q1, red #3 a1."."""
    where = listing([f"{short_name(m)} {square_name(m.pos)}" for m in placed]) if placed else "none"
    return Event("placed", f"Placed: {where}.")
