"""Posts, pings, pictures and edits per round of every game mode, played through the console.

`python -m bench.message_counts [--rounds N] [--mode NAME] [seeds...]`: seeded random legal moves
for every seat at the game's default options (Ignite: three players at regular difficulty, as the
README's "Playing over days" quotes); decisions are answered like any move. A post added to the
turn's message (an edit, which pings nobody) is counted apart from new messages. Pictures are
counted with a stand-in renderer (a hash of the view), so drawing costs nothing and two identical
pictures look identical.

Besides the counts per round it checks the table's promises on every action: a new message only
when the person who must act changed, no ping to the person who just moved, at most one picture
per change of turn or automated phase.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import io
import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.console import Console
from bot.host import Host
from engine import Dice, Game, get_game
from engine.registry import all_modes
from storage import Repository


@dataclass(frozen=True)
class Mode:
    name: str
    game: str
    options: str
    players: int
    rounds: int
    unit: str  # what one "round" is in this game
    round_of: Callable[[Any, int], int]  # the round of a state, after this many actions


def _half(turns: int) -> int:
    return (turns + 1) // 2


def _per_ten_moves(_: Any, actions: int) -> int:
    return actions // 10 + 1


# How a game counts its rounds, and how many a run plays: (unit, round of a state, rounds). A game
# not named here is counted per ten moves, three of them.
ROUNDS: dict[str, tuple[str, Callable[[Any, int], int], int]] = {
    "ignis": ("turn pair", lambda s, _: s.ply // 2 + 1, 10),
    "ignite": ("round", lambda s, _: s.round, 5),
    "dire-alliance": ("round", lambda s, _: s.round, 3),
    "battlelore": ("turn pair", lambda s, _: _half(s.turn), 3),
}
# A game's bench table beside its mode's options: (options, players), where it is not two people at
# the defaults (Ignite: three players at regular difficulty, as docs/playing-over-days.md quotes).
TABLE: dict[str, tuple[dict[str, str], int]] = {"ignite": ({"difficulty": "regular"}, 3)}
# The name of a game's default mode where its mode option has a word for it.
DEFAULT_NAME = {"dire-alliance": "dire-alliance battle"}


def _mode(game: Game[Any, Any], mode: dict[str, str]) -> Mode:
    options, players = TABLE.get(game.id, ({}, 2))
    unit, round_of, rounds = ROUNDS.get(game.id, ("ten moves", _per_ten_moves, 3))
    name = " ".join([game.id, *mode.values()]) if mode else DEFAULT_NAME.get(game.id, game.id)
    written = " ".join(f"{k}:{v}" for k, v in {**options, **mode}.items())
    return Mode(name, game.id, written, players, rounds, unit, round_of)


# Every mode of every registered game.
MODES = tuple(_mode(g, m) for g, m in all_modes())


@dataclass
class Tally:
    posts: int = 0  # new public messages
    pings: int = 0
    pictures: int = 0
    edits: int = 0  # posts added to the channel's newest message
    turns: int = 0  # changes of the person (or decision) the game waits on
    self_pings: int = 0  # pings to the person whose action made the post
    extra_posts: int = 0  # new messages beyond one per change of turn, per action
    extra_pictures: int = 0  # a picture repeating the one before it, or one added to a message
    actions: int = 0
    most_to_one: int = 0  # the most turn pings one player got in one round (the most over rounds)

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            if name == "most_to_one":
                self.most_to_one = max(self.most_to_one, other.most_to_one)
            else:
                setattr(self, name, getattr(self, name) + getattr(other, name))


DEBUG = False


def stand_in_renderer(game_id: str, view: dict[str, Any], names: dict[str, str]) -> bytes:
    return hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).digest()


def _waits_on(game: Game[Any, Any], state: Any) -> tuple[frozenset[str], str | None]:
    turn = game.to_act(state)
    return turn.seats, turn.decision


@dataclass
class Run:
    mode: Mode
    seed: int
    per_round: dict[int, Tally] = field(default_factory=dict)
    decisions: set[str] = field(default_factory=set)  # the kinds of decision the game waited on


async def play(mode: Mode, seed: int, rounds: int | None = None) -> Run:
    rounds = rounds or mode.rounds
    folder = Path(tempfile.mkdtemp())
    settings = Settings(db_path=str(folder / "db.sqlite3"), rate_limit_per_minute=0)
    host = Host(await Repository.open(settings.db_path), settings, renderer=stand_in_renderer)
    out = io.StringIO()
    console = Console(host, folder / "img", out, as_json=True)
    users = [f"p{i}" for i in range(mode.players)]
    await console.run_line(f"@p0 /game new {mode.game} {mode.options} seed:{seed}".replace("  ", " "))
    for user in users:
        await console.run_line(f"@{user} /game join")
    await console.run_line("@p0 /game start")
    game, dice = get_game(mode.game), Dice(seed)
    run = Run(mode, seed)
    read = len(out.getvalue())
    last: bytes | None = None  # the channel's latest picture
    per_user: dict[int, dict[str, int]] = {}  # round -> pings per player
    actions = 0
    try:
        for _ in range(5000):
            row = await host.repo.open_session_in("general")
            if row is None or row.status != "active":
                break
            state = game.from_json(await host.repo.state(row.id) or {})
            r = mode.round_of(state, actions)
            if r > rounds:
                break
            before = _waits_on(game, state)
            if before[1]:
                run.decisions.add(before[1])
            seat = sorted(before[0])[0]
            user = next(s.user_id for s in row.seats if s.seat == seat)
            legal = game.legal_actions(state, seat)
            await console.run_line(f"@{user} /play {legal[dice.below(len(legal))]}")
            text = out.getvalue()
            posts = [json.loads(line) for line in text[read:].splitlines() if line.strip()]
            read = len(text)
            row = await host.repo.session(row.id)
            after_state = game.from_json(await host.repo.state(row.id) or {}) if row else state
            changed = int(_waits_on(game, after_state) != before)
            # A new phase or round (an automated phase ran) may post anew too, without a ping.
            phase = int(
                mode.round_of(after_state, actions + 1) != r
                or getattr(after_state, "phase", None) != getattr(state, "phase", None)
            )
            public = [p for p in posts if p["to"] is None]
            new = [p for p in public if not p["appended"]]
            t = Tally(actions=1, turns=changed)
            t.posts = len(new)
            t.pings = sum(len(p["mentions"]) for p in new)
            t.self_pings = sum(user in p["mentions"] for p in new)
            t.pictures = sum(len(p["images"]) for p in public)
            t.edits = len(public) - len(new)
            # An action that changes who acts or passes a phase may post anew, once; one that ends
            # the game posts its result and then, in a message of its own, the replay.
            ended = 2 * int(game.outcome(after_state) is not None)
            t.extra_posts = max(0, t.posts - max(changed, phase, ended))
            # Pictures come with new messages only, and never twice the same one in a row.
            shown = [Path(i).read_bytes() for p in public for i in p["images"]]
            t.extra_pictures = sum(a == b for a, b in zip([last, *shown], shown, strict=False))
            t.extra_pictures += sum(len(p["images"]) for p in public if p["appended"])
            last = shown[-1] if shown else last
            if t.extra_posts and DEBUG:
                print(mode.name, r, before, _waits_on(game, after_state), [p["text"][-300:] for p in new])
            # A ping belongs to the round of the turn it announces (the end of an Enemy Phase
            # pings the next round's first player). The result pings everyone seated once a game:
            # it announces no turn, so it is left out of the most turn pings one player had.
            counts = per_user.setdefault(mode.round_of(after_state, actions + 1), {})
            over = game.outcome(after_state) is not None
            for pinged in (u for p in new if not over for u in p["mentions"]):
                counts[pinged] = counts.get(pinged, 0) + 1
            t.most_to_one = max(counts.values(), default=0)
            run.per_round.setdefault(r, Tally()).add(t)
            actions += 1
    finally:
        await host.close()
    run.per_round = {r: t for r, t in sorted(run.per_round.items()) if 1 <= r <= rounds}
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seeds", nargs="*", type=int, default=[11, 12, 13])
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--mode", action="append", default=None, help="a mode name; repeat for more")
    args = parser.parse_args()
    modes = [m for m in MODES if args.mode is None or m.name in args.mode]
    print(
        "| mode | per | posts | pings | pictures | edits | changes of turn "
        "| most turn pings to one player in a round | pings to the mover | posts beyond one per change of "
        "turn | repeated pictures |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for mode in modes:
        total, count = Tally(), 0
        for seed in args.seeds:
            run = asyncio.run(play(mode, seed, args.rounds))
            for t in run.per_round.values():
                total.add(t)
                count += 1
        n = max(1, count)
        print(
            f"| {mode.name} | {mode.unit} | {total.posts / n:.1f} | {total.pings / n:.1f} | "
            f"{total.pictures / n:.1f} | {total.edits / n:.1f} | {total.turns / n:.1f} | "
            f"{total.most_to_one} | {total.self_pings} | {total.extra_posts} | {total.extra_pictures} |"
        )


if __name__ == "__main__":
    main()
