"""How an enemy attacks (Rules 3, 4, 8 and the card explanations: Hexing, lightning, fire in the
forests, Magical Fire's ring): what each attack it could make would do, the one it picks, and the
attack landing. Also what an enemy's turn returns, and the ties it hands to the players."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.words import count, listing
from games.ignite.board import (
    Battlefield,
    Minion,
    Pos,
    Unit,
    distance,
    is_village,
    orthogonal_neighbours,
    square_name,
)
from games.ignite.enemy_cards import FIRE_ATTACKS, EnemyStats
from games.ignite.units import VILLAGE_EXTRA, hit_text

# ---- a turn's result and the players' ties -------------------------------------------------------


BAZAAR_BURNS = "burns down the bazaar"


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
    attack: Effect | None = None  # a minion's attack as planned (the turn is its plan played out)


class Choices:
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

    def pick(self, kind: str, names: list[str], prompt: str) -> int:
        """The index of the players' answer among `names` (squares), or the tie asked of them:
        every tie the enemies meet is asked the same way, the first square its default."""
        picked = self.take(kind, names)
        if picked is None:
            raise NeedChoice(
                Tie(
                    kind=kind,
                    options=[f"{kind}:{n}" for n in names],
                    prompt=prompt,
                    default=f"{kind}:{names[0]}",
                )
            )
        return names.index(picked)


class NeedChoice(Exception):
    def __init__(self, tie: Tie) -> None:
        self.tie = tie


# ---- targets and attacks -------------------------------------------------------------------------


def in_forest(board: Battlefield, pos: Pos) -> bool:
    return board.terrain_at(pos) == "forest"


def can_affect(board: Battlefield, attack: str, unit: Unit) -> bool:
    """Rule 4 "targetable": units in a forest are reached only by fire (and lightning)."""
    return not in_forest(board, unit.pos) or attack in (
        "fire_arrow",
        "lightning",
        "magical_fire",
        "dragon_fire",
    )


@dataclass
class Effect:
    target: Pos  # the square the attack is aimed at (a forest square for a fire attack on it)
    unit: str = ""  # the unit it is meant for ("" for the bazaar)
    units: dict[str, int] = field(default_factory=dict)  # damage dealt, village +1 included
    soaks: dict[str, int] = field(default_factory=dict)  # of which the units' shields soak
    minions: dict[str, int] = field(default_factory=dict)
    hexed: list[str] = field(default_factory=list)
    why: str = ""

    @property
    def score(self) -> int:
        # reading: shields-counted-in-choices
        # Rule 8: the attack causing the most damage (hexes count one each). Shields are
        # counted here as they will be spent, so a shielded unit draws less fire.
        return sum(self.units.values()) - sum(self.soaks.values()) + len(self.hexed)

    def signature(self) -> tuple[Any, ...]:
        return (
            tuple(sorted(self.units.items())),
            tuple(sorted(self.minions.items())),
            tuple(sorted(self.hexed)),
        )


def unit_hit(board: Battlefield, u: Unit, dmg: int, eff: Effect) -> None:
    if dmg <= 0 or u.id in eff.units:
        return
    # Destroying Minions note: players' units still take the additional damage in the village.
    eff.units[u.id] = dmg + (1 if is_village(u.pos) else 0)
    eff.soaks[u.id] = min(u.shield, eff.units[u.id])


# reading: fire-range-to-forest
def aim(board: Battlefield, attack: str, u: Unit) -> set[Pos]:
    """The squares an attack on `u` can be aimed at. Rule 7 and Rule 8 examples: fire attacks a
    unit in a forest by setting the forest on fire, so any square of that forest will do (range
    and the stop of Rule 7 are measured to its nearest square); otherwise the unit's square.
    Magical Fire's ring is no aimed shot: it burns a forest only through a unit inside the 5×5
    round the minion, so it still closes on the unit itself."""
    if attack in FIRE_ATTACKS and attack != "magical_fire" and in_forest(board, u.pos):
        return board.burning_forest(u.pos)
    return {u.pos}


def aim_in_range(board: Battlefield, s: EnemyStats, src: Pos, u: Unit) -> Pos | None:
    """The nearest square it may aim at to attack `u` from src (lo..hi away), or None."""
    spots = [p for p in aim(board, s.attack, u) if s.range_min <= distance(src, p) <= s.range_max]
    return min(spots, key=lambda p: (distance(src, p), p[1], p[0])) if spots else None


@dataclass(frozen=True)
class Sighting:
    """Rule 4 from where a minion stands before it moves: the units it can attack (their ids)
    and whether it can attack one of them from there already (no move needed)."""

    targetable: frozenset[str]
    attacks_from_here: bool


def sighting(board: Battlefield, s: EnemyStats, src: Pos) -> Sighting:
    """What an enemy with stats `s` attacking from src sees of the board's units."""
    targetable = [u for u in board.units if can_affect(board, s.attack, u)]
    here = any(aim_in_range(board, s, src, u) is not None for u in targetable)
    return Sighting(frozenset(u.id for u in targetable), here)


def _forest_fire(
    board: Battlefield, at: Pos, dmg: int, eff: Effect, minions_too: bool, skip: str | None
) -> None:
    # reading: enemy-fire-spares-enemies
    # The burning area is the one player fire uses too (Battlefield.burning_forest). Reading
    # taken: enemy fire never burns the enemies' own catapults, and the dragon is immune to
    # forest fire damage (The Boss Battle), so only units and minions are listed here.
    area = board.burning_forest(at)
    for u in board.units:
        if u.pos in area:
            unit_hit(board, u, dmg, eff)
    if minions_too:
        for m in board.minions:
            if m.pos in area and m.id != skip:
                eff.minions[m.id] = eff.minions.get(m.id, 0) + dmg


def _effect(board: Battlefield, me: Minion | None, src: Pos, s: EnemyStats, u: Unit, at: Pos) -> Effect:
    eff = Effect(target=at, unit=u.id)
    if s.attack == "hex":
        # Hexing: the hex carries through every unit orthogonally connected to the target.
        # reading: hex-spreads-in-forest
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
        # reading: lightning-area
        # Reading taken: lightning strikes the target space and all 8 around it, hitting every
        # figure there, the attacker included (Rule 3 note: it may destroy itself).
        zone = {u.pos, *board.neighbours(u.pos)}
        for x in board.units:
            if x.pos in zone:
                unit_hit(board, x, s.damage, eff)
        for m in board.minions:
            mpos = src if me is not None and m.id == me.id else m.pos
            if mpos in zone:
                eff.minions[m.id] = eff.minions.get(m.id, 0) + s.damage
        eff.why = f"lightning on {square_name(u.pos)} and the spaces around it"
        return eff
    if s.attack in FIRE_ATTACKS and in_forest(board, u.pos):
        _forest_fire(board, u.pos, s.damage, eff, minions_too=True, skip=me.id if me is not None else None)
        eff.why = f"sets the forest at {square_name(at)} ablaze (aiming for {u.id})"
        return eff
    unit_hit(board, u, s.damage, eff)
    eff.why = f"{s.attack.replace('_', ' ')} at {square_name(u.pos)}"
    return eff


def _ring_of_fire(board: Battlefield, src: Pos, s: EnemyStats) -> Effect:
    """Magical Fire after the bazaar burns: every player unit in the 5×5 around the minion; a
    fire attack, so forests with a hit unit burn; only player units are ever hurt."""
    eff = Effect(target=src, why=f"ring of fire around {square_name(src)}")
    for u in board.units:
        if distance(u.pos, src) <= 2:
            unit_hit(board, u, s.damage, eff)
            if in_forest(board, u.pos):
                _forest_fire(board, u.pos, s.damage, eff, minions_too=False, skip=None)
    return eff


def attack_options(board: Battlefield, me: Minion | None, src: Pos, s: EnemyStats) -> list[Effect]:
    if s.attack == "magical_fire" and board.bazaar_destroyed:
        if any(distance(u.pos, src) <= 2 for u in board.units):
            return [_ring_of_fire(board, src, s)]
        return []
    out: list[Effect] = []
    seen: set[tuple[Any, ...]] = set()
    for u in board.units:
        at = aim_in_range(board, s, src, u) if can_affect(board, s.attack, u) else None
        if at is not None:
            eff = _effect(board, me, src, s, u, at)
            sig = eff.signature()
            if sig not in seen:  # two units in one burning forest are one attack, not a tie
                seen.add(sig)
                out.append(eff)
    return out


def pick_attack(options: list[Effect], choices: Choices, who: str) -> Effect:
    """Rule 8: the attack causing the most damage; equal damage is the players' choice."""
    best = max(e.score for e in options)
    top = [e for e in options if e.score == best]
    if len(top) == 1:
        return top[0]
    names = [square_name(e.target) for e in top]
    prompt = (
        f"{who} would do the same damage attacking {listing(names, 'or')}, and an enemy makes the "
        "attack that does the most: which does it attack?"
    )
    return top[choices.pick("attack", names, prompt)]


def apply_attack(
    board: Battlefield, eff: Effect, res: EnemyResult, me: str | None, minion_health: int
) -> None:
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
                res.trace.append(f"{m.title} is destroyed by its own attack.")
            else:
                res.trace.append(f"{m.title} is destroyed.")
