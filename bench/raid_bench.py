"""Raid Mode calibration (issue 39): how a group that plays well fares against the villain.

Two kinds of hero play the stand-in raid here, each at a fixed cost so the figures do not follow
the machine's load:

* the focused plan: no search, every hero attacks the villain with everything it has (specials
  that attack, then face-down attacks, moving and exerting toward it when it is out of reach; it
  boosts only into its own attacks);
* the strong search hero: the generic search bot at a fixed iteration count a decision, which
  takes an attack on the villain whenever one is in reach and searches everything else; at an
  enemy phase's question it boosts as a strong player does (raid_boosts.py).

The game is played with its default options (`boost_window=ask`, `raid_asks=few`): the questions
a group is asked, the heroes are asked.

`nice -n 10 python -m bench.raid_bench [games] [iterations] [difficulty] [first seed]` prints,
for 2 heroes, each plan's win rate, the earliest round it won in and the median round a game
ended in (fixed seeds, from 1 unless told). docs/games/dire-alliance.md keeps the figures.
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench import Metric, median
from engine import Dice, get_game
from games.dire_alliance.content import Content, load_content
from games.dire_alliance.raid_core import card_def, hero_stat
from games.dire_alliance.raid_heroes import pending_answer
from games.dire_alliance.state import RaidState

PARTY = {  # the defaults of a 2-hero table
    "hero1_hero": "aldric",
    "hero1_class": "warden",
    "hero2_hero": "maren",
    "hero2_class": "ranger",
}
MAX_ROUNDS = 40  # a game still going then is counted as lost (none has come near it)


def _away(content: Content, state: RaidState, area: int) -> int:
    return content.steps[(area, state.villain.area)]


def _attack_dice(content: Content, state: RaidState, seat: str, move: str) -> int:
    """Dice the move rolls at the villain now or within its special (0: not an attack on it)."""
    h = state.heroes[seat]
    words = move.split()
    if len(words) < 2 or words[0] in ("boost", "exert"):
        return 0
    if words[1:] in (["melee", "villain"], ["shoot", "villain"]):
        return hero_stat(content, h, words[1]) or 0
    if words[1] != "special":
        return 0
    card = card_def(content, h, words[0])
    assert card.special is not None
    best = 0
    for step in card.special.steps:
        kind = "shoot" if step.do == "shoot" else "melee"
        if step.do not in ("melee", "melee_all", "shoot"):
            continue
        reach = _away(content, state, h.area) <= (1 if card.special.steps[0].do == "move" else 0)
        if step.do == "shoot":
            reach = h.area != state.villain.area and content.sees(h.area, state.villain.area)
        base = getattr(content.hero(h.hero), kind)
        if reach and base is not None:
            best = max(best, (hero_stat(content, h, kind) or 0) + getattr(card, kind) + step.bonus)
    return best


def focused(game: Any, state: RaidState, seat: str) -> str:
    """Everyone attacks the villain with everything: no search, no care for minions or objectives."""
    content = load_content()
    legal: list[str] = game.legal_actions(state, seat)
    h = state.heroes[seat]
    if state.pending is not None:
        enemy = state.enemy or {}
        which = enemy.get("which")
        if state.pending["kind"] == "boost" and isinstance(which, dict) and which.get("attack") == seat:
            kind = which["kind"]  # the hero's own attack: boost with every card that adds its dice
            adds = [
                m for m in legal if m.startswith("boost ") and getattr(card_def(content, h, m[6:]), kind) > 0
            ]
            if adds:
                return adds[0]
        if state.pending["kind"] == "boost":
            return str(state.pending["options"][0])  # no card spent on defence: roll, or pass
        return pending_answer(state, content, seat)
    if state.gains:
        gains = [m for m in legal if m != "gain none"]
        return max(gains, key=lambda m: _card_power(content, h, m.split()[1]), default="gain none")
    if state.active is not None:
        for m in legal:
            if m in ("melee villain", "shoot villain", "melee-all"):
                return m
        steps = [m for m in legal if m.split()[0] in ("move", "withdraw")]
        if steps:
            return min(steps, key=lambda m: _away(content, state, int(m.split()[1])))
        return next((m for m in legal if m.startswith("heal ")), "skip")
    attacks = [(m, _attack_dice(content, state, seat, m)) for m in legal]
    attacks = [(m, n) for m, n in attacks if n > 0]
    if attacks:
        # The most dice; a special first (its face-up modifiers stay for the rest of the round).
        return max(attacks, key=lambda mn: (mn[1], mn[0].endswith("special")))[0]
    here = _away(content, state, h.area)
    closer = [
        m for m in legal if m.split()[-2:-1] == ["move"] and _away(content, state, int(m.split()[-1])) < here
    ]
    if closer:
        return min(closer, key=lambda m: _card_power(content, h, m.split()[0]))
    exert = [m for m in legal if m.startswith("exert ") and _away(content, state, int(m.split()[1])) < here]
    if exert and h.hand:
        return exert[0]
    if "stop" in legal:
        return "stop"
    downs = [m for m in legal if m.endswith(" down")]
    return min(downs, key=lambda m: _card_power(content, h, m.split()[0])) if downs else legal[-1]


def _card_power(content: Content, h: Any, name: str) -> int:
    c = card_def(content, h, name)
    return c.melee + c.shoot + (2 if c.special is not None else 0)


def strong(game: Any, state: RaidState, seat: str, iterations: int, dice: Dice) -> str:
    """The search bot at a fixed iteration count (no clock), told one thing a good group knows:
    an attack on the villain within reach is taken (the focused plan's, with the most dice);
    everything else (where to go, what to rest, minions, objectives, gains) is searched."""
    from engine.search_bot import choose, standing_alone

    content = load_content()
    if state.pending is not None:
        return pending_answer(state, content, seat)  # a strong player's boosts (raid_boosts.py)
    attack = focused(game, state, seat)
    plain = attack if state.active is None and _attack_dice(content, state, seat, attack) > 0 else None
    with standing_alone():
        return str(choose(game, state, seat, "hard", dice, plain=plain, iterations=iterations))


def play(plan: str, seed: int, iterations: int, difficulty: str | None, heroes: int = 2) -> dict[str, Any]:
    """One raid with `heroes` heroes all played by `plan`: won or not, and its last round."""
    game = get_game("dire-alliance")
    opts: dict[str, str] = {"mode": "raid", **PARTY}  # boosts asked as a group is asked by default
    if difficulty is not None:
        opts["difficulty"] = difficulty
    seats = [f"hero{i}" for i in range(1, heroes + 1)]
    state = game.setup(seats, game.validate_options(opts), seed)
    dice = Dice(seed * 7919)
    while game.outcome(state) is None and state.round <= MAX_ROUNDS:
        seat = sorted(game.to_act(state).seats)[0]
        if plan == "focused":
            move = focused(game, state, seat)
        else:
            move = strong(game, state, seat, iterations, dice)
        game.act(state, seat, move)
    out = game.outcome(state)
    won = out is not None and bool(out.winners)
    reason = (state.result or {}).get("reason", "still going")
    return {
        "plan": plan,
        "won": won,
        "round": state.round,
        "seed": seed,
        "wounds": state.villain.wounds,
        "reason": reason,
    }


def _play(args: tuple[str, int, int, str | None]) -> dict[str, Any]:
    return play(*args)


def run(
    games: int, iterations: int = 60, difficulty: str | None = None, workers: int = 2, first: int = 1
) -> list[Metric]:
    seeds = range(first, first + games)
    jobs = [(plan, seed, iterations, difficulty) for plan in ("focused", "strong") for seed in seeds]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(_play, jobs))
    out: list[Metric] = []
    for plan in ("focused", "strong"):
        mine = [r for r in results if r["plan"] == plan]
        won = [r for r in mine if r["won"]]
        level = difficulty or "default"
        note = f"{len(mine)} games, 2 heroes, seeds {first}-{first + games - 1}, {level} difficulty"
        if plan == "strong":
            note += f", {iterations} iterations a decision"
        out.append(Metric(f"raid.{plan}.win_pct", 100.0 * len(won) / len(mine), "%", note=note))
        out.append(Metric(f"raid.{plan}.median_round", median([float(r["round"]) for r in mine]), "round"))
        if won:
            out.append(Metric(f"raid.{plan}.first_win_round", float(min(r["round"] for r in won)), "round"))
    return out


if __name__ == "__main__":
    from bench.__main__ import machine, table

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    its = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    level = sys.argv[3] if len(sys.argv) > 3 else None
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    print(table(run(n, its, level, first=first), f"Raid calibration; {machine()}"))
