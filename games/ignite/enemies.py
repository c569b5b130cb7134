"""The enemy phase's movement and attacks: Rules 1-11 of "Enemy Movement and Attacking", the
card explanations (Hardened, Catapult, Hexing, Magical Fire) and the Elder Dragon's turn.

Every call works on a Battlefield in place and returns an EnemyResult with a readable trace;
when the rules hand a tie to the players it returns `needs_choice` and changes nothing.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.words import count
from games.ignite.board import (
    BAZAAR_SQUARES,
    BLOCKING,
    DANGEROUS,
    Battlefield,
    Minion,
    Pos,
    Unit,
    distance,
    is_village,
    orthogonal_neighbours,
    square_name,
)
from games.ignite.enemy_cards import FIRE_ATTACKS, EnemyStats, catapult_stats
from games.ignite.pathing import (
    INF,
    Costs,
    distance_field,
    line,
    nearest_goals,
    reachable,
    walk,
    within,
)
from games.ignite.units import VILLAGE_EXTRA, hit_text

Cards = Mapping[tuple[str, int], EnemyStats]
# Attacks a Power card's range bonus lengthens (reading taken: not melee reach).
BAZAAR_BURNS = "burns down the bazaar"
RANGED = frozenset({"arrow", "fire_arrow", "lightning", "spell", "hex"})


@dataclass
class PhaseModifiers:
    """What changes the enemies this phase: Power cards, difficulty and player count.

    speed_bonus / range_bonus come from Power cards; level2_speed is the Expert (+1) or
    Insanity (+2) speed token; minion_health is 2 with 5-8 players (+1 HP token).
    """

    hardened: bool = False
    speed_bonus: int = 0
    range_bonus: int = 0
    ambush: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    level2_speed: int = 0
    minion_health: int = 1
    dragon_actions: str = "sacrificed"  # option dragon_actions: "sacrificed" | "three"


@dataclass
class Tie:
    """A decision the rules hand to the players. Call again with `choice` set to one option
    (appended after any earlier choices of this call, separated by ';')."""

    kind: str  # "target" | "attack"
    options: list[str]
    prompt: str
    default: str


@dataclass
class EnemyResult:
    trace: list[str] = field(default_factory=list)
    moved_path: list[Pos] = field(default_factory=list)
    attacked: list[Pos] = field(default_factory=list)
    unit_damage: dict[str, int] = field(default_factory=dict)  # damage taken after shields
    soaked: dict[str, int] = field(default_factory=dict)  # damage a raised shield took instead
    hexed: list[str] = field(default_factory=list)
    killed_units: list[str] = field(default_factory=list)
    self_destroyed: bool = False
    needs_choice: Tie | None = None
    minion_damage: dict[str, int] = field(default_factory=dict)
    killed_minions: list[str] = field(default_factory=list)
    bazaar_destroyed: bool = False
    sacrificed: list[str] = field(default_factory=list)


class _Choices:
    """The players' answers so far, consumed in order per kind."""

    def __init__(self, choice: str | None) -> None:
        self.left: dict[str, list[str]] = {"target": [], "attack": []}
        for tok in (choice or "").split(";"):
            tok = tok.strip()
            if ":" in tok:
                kind, _, value = tok.partition(":")
                self.left.setdefault(kind.strip(), []).append(value.strip())

    def take(self, kind: str, allowed: list[str]) -> str | None:
        queue = self.left.get(kind, [])
        while queue:
            v = queue.pop(0)
            if v in allowed:
                return v
        return None


class _NeedChoice(Exception):
    def __init__(self, tie: Tie) -> None:
        self.tie = tie


# ---- stats ---------------------------------------------------------------------------------


def effective_stats(m: Minion, cards: Cards, mods: PhaseModifiers) -> EnemyStats:
    """The card's stats with this phase's tokens and Power cards applied."""
    if m.catapult:
        # Catapult: extra movement and range from Power cards or Expert/Insanity never apply.
        return catapult_stats(m.colour, m.level)
    s = cards[(m.colour, m.level)]
    move = s.movement + mods.speed_bonus
    if m.level == 2:
        # Rule 11 note / Expert and Insanity: level 2 minions get the +1 / +2 speed token.
        move += mods.level2_speed
    hi = s.range_max + (mods.range_bonus if s.attack in RANGED else 0)
    return EnemyStats(colour=s.colour, level=s.level, name=s.name, movement=move,
                      range_min=s.range_min, range_max=hi, damage=s.damage, attack=s.attack,
                      speed=s.speed, notes=s.notes, source=s.source)


def upgrade_all(board: Battlefield) -> list[str]:
    """Rule 11: at the beginning of round 11 every existing enemy becomes level 2."""
    changed = [m.id for m in board.minions if m.level != 2]
    for m in board.minions:
        m.level = 2
    return changed


def movement_order(board: Battlefield, cards: Cards, mods: PhaseModifiers) -> list[str]:
    """Rule 1: fast, then normal, then war-machine carriers; within each, lowest row first,
    rightmost first on a row. Reading taken: "fast" is the card's speed class; speed tokens
    do not make a normal minion fast."""
    def key(m: Minion) -> tuple[int, int, int]:
        klass = 2 if m.catapult else 0 if cards[(m.colour, m.level)].speed == "fast" else 1
        return (klass, -m.pos[1], -m.pos[0])
    return [m.id for m in sorted(board.minions, key=key)]


# ---- targets and attacks ---------------------------------------------------------------------


def _in_forest(board: Battlefield, pos: Pos) -> bool:
    return board.terrain_at(pos) == "forest"


def can_affect(board: Battlefield, attack: str, unit: Unit) -> bool:
    """Rule 4 "targetable": units in a forest are reached only by fire (and lightning)."""
    return not _in_forest(board, unit.pos) or attack in (
        "fire_arrow", "lightning", "magical_fire", "dragon_fire")


@dataclass
class _Effect:
    target: Pos  # the square the attack is aimed at (a forest square for a fire attack on it)
    unit: str = ""  # the unit it is meant for ("" for the bazaar)
    units: dict[str, int] = field(default_factory=dict)  # damage dealt, village +1 included
    soaks: dict[str, int] = field(default_factory=dict)  # of which the units' shields soak
    minions: dict[str, int] = field(default_factory=dict)
    hexed: list[str] = field(default_factory=list)
    why: str = ""

    @property
    def score(self) -> int:
        # Rule 8: the attack causing the most damage (hexes count one each). Shields are
        # counted here as they will be spent, so a shielded unit draws less fire.
        return sum(self.units.values()) - sum(self.soaks.values()) + len(self.hexed)

    def signature(self) -> tuple[Any, ...]:
        return (tuple(sorted(self.units.items())), tuple(sorted(self.minions.items())),
                tuple(sorted(self.hexed)))


def _unit_hit(board: Battlefield, u: Unit, dmg: int, eff: _Effect) -> None:
    if dmg <= 0 or u.id in eff.units:
        return
    # Destroying Minions note: players' units still take the additional damage in the village.
    eff.units[u.id] = dmg + (1 if is_village(u.pos) else 0)
    eff.soaks[u.id] = min(u.shield, eff.units[u.id])


def aim(board: Battlefield, attack: str, u: Unit) -> set[Pos]:
    """The squares an attack on `u` can be aimed at. Rule 7 and Rule 8 examples: fire attacks a
    unit in a forest by setting the forest on fire, so any square of that forest will do (range
    and the stop of Rule 7 are measured to its nearest square); otherwise the unit's square.
    Magical Fire's ring is no aimed shot: it burns a forest only through a unit inside the 5×5
    round the minion, so it still closes on the unit itself."""
    if attack in FIRE_ATTACKS and attack != "magical_fire" and _in_forest(board, u.pos):
        return board.burning_forest(u.pos)
    return {u.pos}


def _aim_in_range(board: Battlefield, s: EnemyStats, src: Pos, u: Unit) -> Pos | None:
    """The nearest square it may aim at to attack `u` from src (lo..hi away), or None."""
    spots = [p for p in aim(board, s.attack, u) if s.range_min <= distance(src, p) <= s.range_max]
    return min(spots, key=lambda p: (distance(src, p), p[1], p[0])) if spots else None


def _forest_fire(board: Battlefield, at: Pos, dmg: int, eff: _Effect, minions_too: bool,
                 skip: str | None) -> None:
    # The burning area is the one player fire uses too (Battlefield.burning_forest). Reading
    # taken: enemy fire never burns the enemies' own catapults, and the dragon is immune to
    # forest fire damage (The Boss Battle), so only units and minions are listed here.
    area = board.burning_forest(at)
    for u in board.units:
        if u.pos in area:
            _unit_hit(board, u, dmg, eff)
    if minions_too:
        for m in board.minions:
            if m.pos in area and m.id != skip:
                eff.minions[m.id] = eff.minions.get(m.id, 0) + dmg


def _effect(board: Battlefield, me: Minion | None, src: Pos, s: EnemyStats, u: Unit,
            at: Pos) -> _Effect:
    eff = _Effect(target=at, unit=u.id)
    if s.attack == "hex":
        # Hexing: the hex carries through every unit orthogonally connected to the target.
        # Reading taken: it spreads through connected units even if they stand in a forest.
        by_pos = {x.pos: x for x in board.units}
        seen = {u.pos}
        stack = [u.pos]
        while stack:
            p = stack.pop()
            eff.hexed.append(by_pos[p].id)
            for n in orthogonal_neighbours(p):
                if n in by_pos and n not in seen:
                    seen.add(n)
                    stack.append(n)
        eff.why = f"hex spreading to {count(len(eff.hexed), 'connected unit')}"
        return eff
    if s.attack == "lightning":
        # Reading taken: lightning strikes the target space and all 8 around it, hitting every
        # figure there, the attacker included (Rule 3 note: it may destroy itself).
        zone = {u.pos, *board.neighbours(u.pos)}
        for x in board.units:
            if x.pos in zone:
                _unit_hit(board, x, s.damage, eff)
        for m in board.minions:
            mpos = src if me is not None and m.id == me.id else m.pos
            if mpos in zone:
                eff.minions[m.id] = eff.minions.get(m.id, 0) + s.damage
        eff.why = f"lightning on {square_name(u.pos)} and the spaces around it"
        return eff
    if s.attack in FIRE_ATTACKS and _in_forest(board, u.pos):
        _forest_fire(board, u.pos, s.damage, eff, minions_too=True,
                     skip=me.id if me is not None else None)
        eff.why = f"sets the forest at {square_name(at)} ablaze (aiming for {u.id})"
        return eff
    _unit_hit(board, u, s.damage, eff)
    eff.why = f"{s.attack.replace('_', ' ')} at {square_name(u.pos)}"
    return eff


def _ring_of_fire(board: Battlefield, src: Pos, s: EnemyStats) -> _Effect:
    """Magical Fire after the bazaar burns: every player unit in the 5×5 around the minion; a
    fire attack, so forests with a hit unit burn; only player units are ever hurt."""
    eff = _Effect(target=src, why=f"ring of fire around {square_name(src)}")
    for u in board.units:
        if distance(u.pos, src) <= 2:
            _unit_hit(board, u, s.damage, eff)
            if _in_forest(board, u.pos):
                _forest_fire(board, u.pos, s.damage, eff, minions_too=False, skip=None)
    return eff


def _attack_options(board: Battlefield, me: Minion | None, src: Pos, s: EnemyStats
                    ) -> list[_Effect]:
    if s.attack == "magical_fire" and board.bazaar_destroyed:
        if any(distance(u.pos, src) <= 2 for u in board.units):
            return [_ring_of_fire(board, src, s)]
        return []
    out: list[_Effect] = []
    seen: set[tuple[Any, ...]] = set()
    for u in board.units:
        at = _aim_in_range(board, s, src, u) if can_affect(board, s.attack, u) else None
        if at is not None:
            eff = _effect(board, me, src, s, u, at)
            sig = eff.signature()
            if sig not in seen:  # two units in one burning forest are one attack, not a tie
                seen.add(sig)
                out.append(eff)
    return out


def _pick_attack(options: list[_Effect], choices: _Choices, who: str) -> _Effect:
    """Rule 8: the attack causing the most damage; equal damage is the players' choice."""
    best = max(e.score for e in options)
    top = [e for e in options if e.score == best]
    if len(top) == 1:
        return top[0]
    names = [square_name(e.target) for e in top]
    picked = choices.take("attack", names)
    if picked is None:
        raise _NeedChoice(Tie(kind="attack", options=[f"attack:{n}" for n in names],
                              prompt=f"{who} can attack {', '.join(names)} for equal damage "
                                     "(Rule 8): which does it attack?",
                              default=f"attack:{names[0]}"))
    return top[names.index(picked)]


def _apply(board: Battlefield, eff: _Effect, res: EnemyResult, me: str | None,
           minion_health: int) -> None:
    """The attack lands: shields soak first (Unit.take_hit), the rest comes off health; a unit
    at 0 leaves the board here, so whoever looks next (Rule 8, the dragon) sees it gone."""
    res.attacked.append(eff.target)
    res.trace.append(f"Attacks: {eff.why}.")
    for uid, dmg in eff.units.items():
        u = board.unit(uid)
        soaked, taken = u.take_hit(dmg)
        if taken:
            res.unit_damage[uid] = res.unit_damage.get(uid, 0) + taken
        if soaked:
            res.soaked[uid] = res.soaked.get(uid, 0) + soaked
        res.trace.append(hit_text(u, soaked, taken, VILLAGE_EXTRA if is_village(u.pos) else ""))
        if u.health <= 0:
            # Its defeat is told once, by the game's bookkeeping (units.kill_unit).
            board.units.remove(u)
            res.killed_units.append(uid)
    for uid in eff.hexed:
        res.hexed.append(uid)
        res.trace.append(f"{uid}'s player gains a Hex card.")
    for mid, dmg in eff.minions.items():
        m = board.minion(mid)
        m.damage += dmg
        res.minion_damage[mid] = res.minion_damage.get(mid, 0) + dmg
        if m.damage >= minion_health:
            board.minions.remove(m)
            res.killed_minions.append(mid)
            if mid == me:
                res.self_destroyed = True
                res.trace.append(f"{mid} is destroyed by its own attack (Rule 3).")
            else:
                res.trace.append(f"{mid} is destroyed.")


# ---- movement -----------------------------------------------------------------------------------


def _walls(board: Battlefield, m: Minion) -> set[Pos]:
    """Figures a minion cannot walk through. Reading taken: only water minions pass through
    each other (Rule 1 note); units, the dragon, catapults and the players' war machines block
    them. A minion pushing a catapult cannot take it through other minions either (Catapult:
    its catapult follows into the space it leaves, which must be free), only over its own."""
    blocked = {u.pos for u in board.units} | {w.pos for w in board.machines}
    blocked |= {o.catapult_pos for o in board.minions
                if o.catapult_pos is not None and o.id != m.id}
    if m.catapult:
        blocked |= {o.pos for o in board.minions if o.id != m.id}
    if board.dragon is not None:
        blocked.add(board.dragon.pos)
    return blocked


def _costs(board: Battlefield, m: Minion, mods: PhaseModifiers, snow: bool) -> Costs:
    """What the minion may walk through, and the movement each space costs to enter."""
    hardened_area: set[Pos] = set()
    if m.hardened and not mods.hardened and board.terrain_at(m.pos) in DANGEROUS:
        # Hardened: a minion that ended on lava/scorched earth keeps the ability until it
        # leaves that lava pool or scorched area.
        hardened_area = board.region(m.pos)
    costs = dict(_terrain_costs(tuple(map(tuple, board.terrain)), mods.hardened, snow))
    for p in hardened_area:
        costs[p] = 1  # the lava pool or scorched area it stands in (never snow)
    for p in _walls(board, m):
        costs.pop(p, None)  # units cannot be walked through
    costs[m.pos] = 1
    return costs


def _terrain_costs(terrain: tuple[tuple[str, ...], ...], hardened: bool, snow: bool) -> Costs:
    """The terrain's part of _costs, the same for every minion: remembered per board."""
    key = (terrain, hardened, snow)
    known = _TERRAIN_COSTS.get(key)
    if known is not None:
        return known
    costs: Costs = {}
    for r, row in enumerate(terrain):
        for c, t in enumerate(row):
            if t in BLOCKING:
                continue  # Rule 6: immovable objects
            if t in DANGEROUS and not hardened:
                continue  # Rule 10: no terrain that would damage it
            if t == "snow":
                if not snow:
                    continue  # Rule 9: avoid snow whenever possible
                costs[(c, r)] = 2  # Rule 9: 2 movement to enter a snow space
            else:
                costs[(c, r)] = 1  # Rule 10 note: acid pools cost nothing extra
    if len(_TERRAIN_COSTS) >= 16:
        _TERRAIN_COSTS.clear()  # terrain changes rarely (fire); a few boards' worth is plenty
    _TERRAIN_COSTS[key] = costs
    return costs


_TERRAIN_COSTS: dict[tuple[Any, ...], Costs] = {}


def _endable(board: Battlefield, m: Minion) -> set[Pos]:
    """Spaces holding another figure or catapult (Rule 1 note: never end on an occupied space)."""
    taken = board.figure_squares()
    taken.discard(m.pos)
    if m.catapult_pos is not None:
        taken.discard(m.catapult_pos)  # it follows its pusher (below), so the space frees up
    return taken


def _pick_nearest(units: list[Unit], key: Mapping[str, tuple[int, int]], choices: _Choices,
                  who: str, why: str) -> Unit:
    """Rule 4: the nearest unit by `key`; equal distance is the players' choice (Rule 4 note)."""
    best = min(key[u.id] for u in units)
    tied = [u for u in units if key[u.id] == best]
    if len(tied) == 1:
        return tied[0]
    names = [square_name(u.pos) for u in tied]
    picked = choices.take("target", names)
    if picked is None:
        raise _NeedChoice(Tie(kind="target", options=[f"target:{n}" for n in names],
                              prompt=f"{who} is as close to {', '.join(names)} {why} "
                                     "(Rule 4 note): which does it move toward?",
                              default=f"target:{names[0]}"))
    return tied[names.index(picked)]


def _walking_distances(board: Battlefield, m: Minion, mods: PhaseModifiers, units: list[Unit],
                       aims: Mapping[str, set[Pos]], lo: int, hi: int
                       ) -> dict[str, tuple[int, int]]:
    """Rule 4 "nearest", the reading taken: the movement it needs, walking as it walks (round
    obstacles, Rule 6; never onto lava, Rule 10; through other minions, Rule 1 note), to reach a
    free space lo..hi from a square it may aim at for the unit (`aims`). The Rule 6 note ("it
    may also change targets if a different unit is now closer" once a barrier blocks the way)
    only makes sense if distance is measured along the way. Rule 9: snow counts only when no
    unit can be reached without it; a unit it cannot walk to at all counts only when none can
    be reached, by king distance. Key: (0, movement) for the nearest, (1, ...) for the rest."""
    # A tie hands the choice to the players and the same minion is planned again for each
    # answer tried (issue 13) and for the answer taken, on the same board: the distances are
    # remembered for those looks.
    memo_key = (m.id, m.pos, m.catapult, lo, hi, mods.hardened, _fingerprint(board),
                tuple(sorted((uid, tuple(sorted(a))) for uid, a in aims.items())))
    if _MEMO.get("key") == memo_key:
        return dict(_MEMO["value"])
    out = _measure_walks(board, m, mods, units, aims, lo, hi)
    _MEMO.update(key=memo_key, value=dict(out))
    return out


def _measure_walks(board: Battlefield, m: Minion, mods: PhaseModifiers, units: list[Unit],
                   aims: Mapping[str, set[Pos]], lo: int, hi: int
                   ) -> dict[str, tuple[int, int]]:
    taken = _endable(board, m)
    if all(aims[u.id] == {u.pos} for u in units):
        # No walk is shorter than the king distance to the range ring. When every unit that
        # close has an open Rule 5 line to its ring, those are the nearest, with no search.
        bound = {u.id: max(0, distance(m.pos, u.pos) - hi) for u in units}
        low = min(bound.values())
        if low > 0 and all(_open_line(board, m, mods, u.pos, lo, hi, taken) is not None
                           for u in units if bound[u.id] == low):
            return {u.id: (0, low) if bound[u.id] == low else (1, 0) for u in units}
    goals: dict[Pos, list[str]] = {}
    for u in units:
        for p in {p for t in aims[u.id] for p in within(t, lo, hi)} - taken:
            goals.setdefault(p, []).append(u.id)
    out = {u.id: (1, distance(m.pos, u.pos)) for u in units}
    for snow in (False, True):
        cost, found = nearest_goals(_costs(board, m, mods, snow), goals, m.pos)
        if found:
            out = {u.id: (0, cost) if u.id in found else (1, 0) for u in units}
            break
    return out


_MEMO: dict[str, Any] = {}


def _fingerprint(board: Battlefield) -> tuple[Any, ...]:
    """Everything on the board a walk depends on (terrain and where each figure stands)."""
    return (tuple(tuple(r) for r in board.terrain), tuple(u.pos for u in board.units),
            tuple((x.id, x.pos, x.catapult_pos, x.hardened) for x in board.minions),
            tuple(w.pos for w in board.machines), board.dragon.pos if board.dragon else None)


def _open_line(board: Battlefield, m: Minion, mods: PhaseModifiers, goal_of: Pos, lo: int,
               hi: int, taken: set[Pos]) -> list[Pos] | None:
    """The Rule 5 line when nothing stands in its way, else None (then the full search runs).

    A line of plain spaces that ends in range on a free space is a shortest path (each step
    closes the king distance by one) and its steps are the ones Rule 5 prefers, so the search
    would return it too; this only saves time in the common open-ground case.
    """
    need = distance(m.pos, goal_of) - hi
    if need <= 0:
        return None
    steps = line(m.pos, goal_of, need)
    end = steps[-1]
    if end in taken or not lo <= distance(end, goal_of) <= hi:
        return None
    blocked = _walls(board, m)
    for p in steps:
        t = board.terrain_at(p)
        if p in blocked or t in BLOCKING or t == "snow" or (t in DANGEROUS and not mods.hardened):
            return None
    return steps


def _plan_move(board: Battlefield, m: Minion, s: EnemyStats, mods: PhaseModifiers,
               toward: Pos, goal_squares: set[Pos], trace: list[str],
               line_range: tuple[int, int] | None = None) -> list[Pos]:
    """The spaces the minion walks through toward a free space in `goal_squares` (Rules 5-10),
    heading for `toward` where paths are equally short. `line_range` (lo, hi from `toward`)
    allows the open-ground shortcut when the goals are exactly that ring."""
    taken = _endable(board, m)
    if line_range is not None:
        fast = _open_line(board, m, mods, toward, line_range[0], line_range[1], taken)
        if fast is not None and fast[:s.movement][-1] not in taken:
            return fast[:s.movement]
    for snow in (False, True):
        costs = _costs(board, m, mods, snow)
        goals = [p for p in goal_squares if p in costs and p not in taken]
        if not goals:
            continue
        dist = distance_field(costs, goals, stop_at=m.pos)
        if dist.get(m.pos, INF) >= INF:
            continue
        if snow:
            trace.append("No way around the snow: it takes the shortest path through it "
                         "(Rule 9, 2 movement per snow space).")
        path = walk(m.pos, toward, costs, dist, s.movement, lambda p: False)
        return _free_end(m, s, costs, dist, toward, path, taken, trace)
    # Rule 1 note: penned in, it moves as close to the nearest unit as it can.
    # Reading taken: "penned in" = no way at all to a space in range; it moves to the free
    # space within its movement nearest (king distance) to the target; ties to the space
    # nearest by rows plus columns (the straight line), then fewest moves.
    costs = _costs(board, m, mods, True)
    reach = reachable(costs, m.pos, s.movement)
    spots = [p for p in reach if p not in taken]
    best = min(spots, key=lambda p: (distance(p, toward),
                                     abs(p[0] - toward[0]) + abs(p[1] - toward[1]),
                                     reach[p], -p[1], p[0]))
    trace.append(f"Penned in: moves as close as it can, to {square_name(best)} (Rule 1 note).")
    if best == m.pos:
        return []
    dist = distance_field(costs, [best], stop_at=m.pos)
    return walk(m.pos, toward, costs, dist, s.movement, lambda p: False)


def _free_end(m: Minion, s: EnemyStats, costs: Costs, dist: Mapping[Pos, int], toward: Pos,
              path: list[Pos], taken: set[Pos], trace: list[str]) -> list[Pos]:
    """Rule 1 note: it may pass through other minions, but its final space must be free. The
    end it takes is the free space within its movement that leaves it the least way still to
    go (Rule 5: the shortest path); of equally good ones, the nearest, reached as Rules 5-6
    prefer. (Stopping short on the last free space passed would waste movement.)"""
    end = path[-1] if path else m.pos
    spent = sum(costs[p] for p in path)
    if end not in taken and (dist.get(end, INF) == 0 or spent == s.movement):
        return path  # in range, or every point of movement closed the distance: none better
    reach = reachable(costs, m.pos, s.movement)
    spots = [p for p in reach if p not in taken]
    best = min(dist.get(p, INF) for p in spots)
    if end not in taken and dist.get(end, INF) <= best:
        return path
    tied = [p for p in spots if dist.get(p, INF) == best]
    field_ = distance_field(costs, tied, stop_at=m.pos)
    better = walk(m.pos, toward, costs, field_, s.movement, lambda p: False)
    if end in taken:
        trace.append(f"{square_name(end)} is occupied: it ends on "
                     f"{square_name(better[-1]) if better else 'its own space'} instead, as "
                     "close as it can get (Rule 1 note).")
    return better


def _finish_move(board: Battlefield, m: Minion, path: list[Pos], mods: PhaseModifiers) -> None:
    if path:
        old = m.pos
        m.pos = path[-1]
        if m.catapult_pos is not None:
            # Reading taken (war machine "Follow"): the catapult follows into the space its
            # pusher left last, so the two stay adjacent.
            m.catapult_pos = path[-2] if len(path) >= 2 else old
    on_danger = board.terrain_at(m.pos) in DANGEROUS
    # Hardened: a minion ending its turn on lava or scorched earth stays hardened there.
    m.hardened = on_danger and (mods.hardened or m.hardened)


def move_and_attack(board: Battlefield, minion_id: str, cards: Cards, mods: PhaseModifiers,
                    choice: str | None = None) -> EnemyResult:
    """One minion's turn: Rule 2, it moves, then attacks."""
    m = board.minion(minion_id)
    res = EnemyResult()
    who = f"{m.colour} L{m.level} {m.id} at {square_name(m.pos)}"
    res.trace.append(f"{who}:")
    choices = _Choices(choice)
    try:
        path, eff = _plan(board, m, cards, mods, choices, res.trace, who)
    except _NeedChoice as need:
        return EnemyResult(trace=[*res.trace, need.tie.prompt], needs_choice=need.tie)
    # Everything decided: now change the board.
    # Battle Card Changes: half damage is lost at the beginning of the enemy's turn.
    m.lose_half_damage()
    if m.catapult_pos is not None and distance(m.catapult_pos, m.pos) > 1:
        # Catapult: separated from its catapult, the minion reverts to its own colour/type.
        m.catapult, m.catapult_pos = False, None
    res.moved_path = path
    _finish_move(board, m, path, mods)
    if path:
        res.trace.append("Moves " + " → ".join(square_name(p) for p in path) + ".")
    if eff is not None:
        _apply(board, eff, res, m.id, mods.minion_health)
        if eff.why == BAZAAR_BURNS:
            board.bazaar_destroyed = True
            res.bazaar_destroyed = True
    # The placement-turn restrictions (bazaar spawns, guardians, new catapults) last one phase.
    if m in board.minions:
        m.can_act = True
        m.can_attack = True
        m.knocked_down = False
        m.immobilized = False
    return res


def _plan(board: Battlefield, m: Minion, cards: Cards, mods: PhaseModifiers, choices: _Choices,
          trace: list[str], who: str) -> tuple[list[Pos], _Effect | None]:
    s = effective_stats(m, cards, mods)
    if not m.can_act:
        trace.append("Placed this turn: it neither moves nor attacks "
                     "(bazaar spawn / Bazaar Guardian).")
        return [], None
    can_move = True
    if m.knocked_down:
        trace.append("Knocked down: it stands up instead of moving.")
        can_move = False
    elif m.immobilized:
        trace.append("Immobilized: it cannot move this turn.")
        can_move = False
    path: list[Pos] = []
    if s.attack == "magical_fire" and not board.bazaar_destroyed:
        return _plan_magical_fire(board, m, s, mods, can_move, choices, trace, who)
    if not board.units:
        trace.append("No player unit is on the board.")
        return [], None
    targetable = [u for u in board.units if can_affect(board, s.attack, u)]
    in_range = [u for u in targetable
                if _aim_in_range(board, s, _firing_square(m, []), u) is not None]
    if in_range:
        trace.append("A unit is already in range: it does not move (Rule 2 note).")
    elif can_move:
        lo, hi = s.range_min, s.range_max
        if m.catapult_pos is not None:
            # Catapult: range is measured from the catapult, which trails its pusher by a
            # space once it walks, so the pusher heads for one space nearer than the range.
            lo, hi = max(1, lo - 1), hi - 1
        if targetable:
            aims = {u.id: aim(board, s.attack, u) for u in targetable}
            key = _walking_distances(board, m, mods, targetable, aims, lo, hi)
            target = _pick_nearest(targetable, key, choices, who, "(targetable units)")
            trace.append(f"Target: {target.id} at {square_name(target.pos)}, the nearest unit "
                         f"it can {'affect' if s.attack == 'hex' else 'damage'} "
                         f"({_how_far(key[target.id])}; Rule 4).")
        else:
            # Rule 4 note and Rule 7 note: nobody it can attack; it heads for the nearest unit
            # and stops at its maximum range from it.
            aims = {u.id: {u.pos} for u in board.units}
            key = _walking_distances(board, m, mods, board.units, aims, lo, hi)
            target = _pick_nearest(board.units, key, choices, who, "(none targetable)")
            trace.append(f"No unit it can attack: it heads for the nearest, {target.id} at "
                         f"{square_name(target.pos)}, and stops at range {hi} "
                         "(Rule 4 note, Rule 7 note).")
            if distance(m.pos, target.pos) <= hi:
                # Rule 7 note: it waits there while that unit stays in range.
                trace.append("That unit is within its range: it waits.")
                return [], None
        goals = {p for t in aims[target.id] for p in within(t, lo, hi)}
        plain = aims[target.id] == {target.pos}
        # Rule 7: stop at the maximum distance at which it can still do damage.
        path = _plan_move(board, m, s, mods, target.pos, goals, trace, (lo, hi) if plain else None)
        if m.catapult_pos is not None:
            path = _catapult_stop(board, m, s, target, path)
    end = _firing_square(m, path)
    if not m.can_attack:
        trace.append("Its catapult was placed this turn: it does not attack (Catapult).")
        return path, None
    options = _attack_options(board, m, end, s)
    if not options:
        trace.append("Nothing it can attack from there.")
        return path, None
    if s.attack == "catapult":
        # Catapult: it targets the closest targetable unit (not Rule 8's most damage); among
        # equally close units Rule 8 decides, then the players.
        near = min(distance(end, board.unit(e.unit).pos) for e in options)
        options = [e for e in options if distance(end, board.unit(e.unit).pos) == near]
    # Rule 3: able to damage or affect a unit at the end of its move, it always attacks.
    return path, _pick_attack(options, choices, who)


def _firing_square(m: Minion, path: list[Pos]) -> Pos:
    """Where the minion's attack is measured from once it has walked `path`: its own space, or,
    for a catapult, the catapult's (it follows into the space its pusher left last, Catapult:
    "follows normal war machine rules", whose range counts from the machine)."""
    if m.catapult_pos is None:
        return path[-1] if path else m.pos
    if not path:
        return m.catapult_pos
    return path[-2] if len(path) >= 2 else m.pos


def _catapult_stop(board: Battlefield, m: Minion, s: EnemyStats, target: Unit,
                   path: list[Pos]) -> list[Pos]:
    """Rule 7 for a catapult: it stops on the first free space from which its catapult can
    fire at the target (the maximum distance at which it can still do damage)."""
    taken = _endable(board, m)
    for k in range(1, len(path)):
        if path[k - 1] not in taken and _aim_in_range(board, s, _firing_square(m, path[:k]),
                                                      target) is not None:
            return path[:k]
    return path


def _how_far(key: tuple[int, int]) -> str:
    unreachable, n = key
    if unreachable:
        return f"no way to any unit; {n} spaces away as the crow flies"
    return f"{n} movement to be in range of it"


def _plan_magical_fire(board: Battlefield, m: Minion, s: EnemyStats, mods: PhaseModifiers,
                       can_move: bool, choices: _Choices, trace: list[str], who: str
                       ) -> tuple[list[Pos], _Effect | None]:
    """Magical Fire: head for the closest bazaar corner, burn the bazaar once adjacent."""
    def adjacent(p: Pos) -> bool:
        return min(distance(p, b) for b in BAZAAR_SQUARES) <= 1

    path: list[Pos] = []
    if not adjacent(m.pos) and can_move:
        best = min(distance(m.pos, b) for b in BAZAAR_SQUARES)
        tied = [b for b in BAZAAR_SQUARES if distance(m.pos, b) == best]
        corner = tied[0]
        if len(tied) > 1:
            names = [square_name(b) for b in tied]
            picked = choices.take("target", names)
            if picked is None:
                raise _NeedChoice(Tie(kind="target", options=[f"target:{n}" for n in names],
                                      prompt=f"{who} is as close to bazaar corners "
                                             f"{', '.join(names)}: which does it head for?",
                                      default=f"target:{names[0]}"))
            corner = tied[names.index(picked)]
        trace.append(f"Magical Fire: heads for the closest bazaar corner, {square_name(corner)}.")
        path = _plan_move(board, m, s, mods, corner, set(within(corner, 1, 1)), trace, (1, 1))
    end = path[-1] if path else m.pos
    if not adjacent(end) or not m.can_attack:
        return path, None
    eff = _Effect(target=BAZAAR_SQUARES[0], why=BAZAAR_BURNS)
    for u in board.units:
        if u.pos in BAZAAR_SQUARES:
            # Magical Fire: 1 damage to any units inside the bazaar.
            _unit_hit(board, u, 1, eff)
    return path, eff


# ---- the Elder Dragon ---------------------------------------------------------------------------


def sacrifice_order(board: Battlefield) -> list[Minion]:
    """Elder Dragon: the minions closest to the bottom, rightmost first on a row, never a
    war-machine carrier."""
    return sorted((m for m in board.minions if not m.catapult),
                  key=lambda m: (-m.pos[1], -m.pos[0]))


def _landable(board: Battlefield, p: Pos) -> bool:
    return (board.terrain_at(p) not in DANGEROUS | BLOCKING
            and p not in board.figure_squares())


def dragon_turn(board: Battlefield, stats: EnemyStats, mods: PhaseModifiers,
                choice: str | None = None) -> EnemyResult:
    """The Elder Dragon's turn: sacrifice, then 3 actions (attack or fly), before any minion.

    Reading taken: the sacrifice is done here, and he takes one action per minion sacrificed
    (up to 3): he "must sacrifice the 3 enemy minions ... in order to take his actions". With
    fewer than three minions on the board the text reads two ways; option dragon_actions=three
    gives him his 3 actions whatever he could sacrifice.
    Snow, speed tokens and upgrades never touch him (he never gets them).
    """
    # A rehearsal on a copy finds any tie first, so a tie changes nothing; the turn is
    # deterministic, so playing it again on the board itself gives the same result.
    res = EnemyResult()
    try:
        _dragon(board.copy(), stats, mods, _Choices(choice), res)
    except _NeedChoice as need:
        return EnemyResult(trace=[*res.trace, need.tie.prompt], needs_choice=need.tie)
    res = EnemyResult()
    _dragon(board, stats, mods, _Choices(choice), res)
    return res


def _dragon(board: Battlefield, s: EnemyStats, mods: PhaseModifiers, choices: _Choices,
            res: EnemyResult) -> None:
    dragon = board.dragon
    if dragon is None:
        return
    victims = sacrifice_order(board)[:3]
    for v in victims:
        board.minions.remove(v)
        res.sacrificed.append(v.id)
    res.trace.append("Elder Dragon sacrifices " + (", ".join(
        f"{v.id} ({square_name(v.pos)})" for v in victims) or "nobody") + ".")
    actions = 3 if mods.dragon_actions == "three" else len(victims)
    who = f"Elder Dragon at {square_name(dragon.pos)}"
    while actions > 0 and board.units:
        options = _attack_options(board, None, dragon.pos, s)
        if options:
            eff = _pick_attack(options, choices, who)
            _apply(board, eff, res, None, mods.minion_health)
            actions -= 1
            if eff.unit in res.killed_units:
                res.trace.append(f"{eff.unit} is dead: with actions left he may fly on "
                                 "(Elder Dragon exception to Rule 2).")
            continue
        # He flies, so the nearest unit is the nearest as the crow flies (to the nearest
        # square of its forest for his fire, as for any fire attack: Rules 7 and 8 examples).
        spots = {u.id: min(aim(board, s.attack, u),
                           key=lambda p: (distance(dragon.pos, p), p[1], p[0]))
                 for u in board.units}
        key = {uid: (0, distance(dragon.pos, p)) for uid, p in spots.items()}
        target = _pick_nearest(board.units, key, choices, who, "")
        goal = spots[target.id]
        need = distance(dragon.pos, goal) - s.range_max
        # He always moves the maximum until at his maximum attack distance; several movement
        # actions in a row need no landing in between.
        n = min(actions, -(-need // s.movement))
        allotted = n * s.movement
        flight = line(dragon.pos, goal, min(need, allotted))
        ideal = flight[-1]
        land = ideal
        if not _landable(board, ideal):
            # Reading taken: "the available space nearest the target within his movement";
            # being closer than the intended landing does not count as nearer, and ties go to
            # the space nearest the intended landing, then topmost, then leftmost.
            ideal_d = distance(ideal, goal)
            spots_ok = [p for p in within(dragon.pos, 0, allotted) if _landable(board, p)
                        or p == dragon.pos]
            land = min(spots_ok, key=lambda p: (max(distance(p, goal), ideal_d),
                                                distance(p, ideal), p[1], p[0]))
            res.trace.append(f"{square_name(ideal)} is not free to land on: he lands on "
                             f"{square_name(land)} instead.")
        res.trace.append(f"Elder Dragon flies toward {target.id} "
                         f"({n} move action{'s' if n > 1 else ''}) to {square_name(land)}.")
        res.moved_path.extend(flight if land == ideal else [land])
        dragon.pos = land
        who = f"Elder Dragon at {square_name(dragon.pos)}"
        actions -= n
