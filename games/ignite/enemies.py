"""The enemy phase's turns: a minion's turn (Rule 2: it moves, then attacks; Catapult, Magical
Fire) and the Elder Dragon's. How they attack is in enemy_attacks.py, how they walk in
enemy_movement.py, their stats this phase in enemy_stats.py.

Every call works on a Battlefield in place and returns an EnemyResult with a readable trace;
when the rules hand a tie to the players it returns `needs_choice` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.words import count, listing
from games.ignite.board import (
    BAZAAR_SQUARES,
    BLOCKING,
    DANGEROUS,
    Battlefield,
    Minion,
    Pos,
    Unit,
    distance,
    square_name,
)
from games.ignite.enemy_attacks import (
    BAZAAR_BURNS,
    Choices,
    Effect,
    EnemyResult,
    NeedChoice,
    aim,
    aim_in_range,
    apply_attack,
    attack_options,
    pick_attack,
    sighting,
    unit_hit,
)
from games.ignite.enemy_cards import EnemyStats
from games.ignite.enemy_movement import MinionWalks, endable, finish_move, pick_nearest, walking_distances
from games.ignite.enemy_stats import Cards, PhaseModifiers, effective_stats
from games.ignite.pathing import line, within

# ---- a minion's turn -----------------------------------------------------------------------------

# How a minion's walk is planned: MinionWalks.move (plan_move), or MinionWalks.plan for a tie's
# answers.
Walker = Callable[
    [Battlefield, Minion, EnemyStats, PhaseModifiers, Pos, set[Pos], list[str], tuple[int, int] | None],
    list[Pos],
]


def move_and_attack(
    board: Battlefield,
    minion_id: str,
    cards: Cards,
    mods: PhaseModifiers,
    choice: str | None = None,
    walks: MinionWalks | None = None,
) -> EnemyResult:
    """One minion's turn: Rule 2, it moves, then attacks. `walks`: the minion's on this board (or
    the one this board is a copy of), when the caller plans its turn more than once."""
    m = board.minion(minion_id)
    res = EnemyResult()
    who = f"{m.title} at {square_name(m.pos)}"
    res.trace.append(f"{who}:")
    choices = Choices(choice)
    if walks is None:
        walks = MinionWalks(board, m, mods)
    try:
        path, eff = _plan(board, m, cards, mods, choices, res.trace, who, walks, walks.move)
    except NeedChoice as need:
        return EnemyResult(trace=[*res.trace, need.tie.prompt], needs_choice=need.tie)
    # Everything decided: now change the board.
    # Battle Card Changes: half damage is lost at the beginning of the enemy's turn.
    m.lose_half_damage()
    if m.catapult_pos is not None and distance(m.catapult_pos, m.pos) > 1:
        # Catapult: separated from its catapult, the minion reverts to its own colour/type.
        m.catapult, m.catapult_pos = False, None
    res.moved_path = path
    res.attack = eff
    finish_move(board, m, path, mods)
    if eff is not None:
        apply_attack(board, eff, res, m.id, mods.minion_health)
        if eff.why == BAZAAR_BURNS:
            board.bazaar_destroyed = True
            res.bazaar_destroyed = True
    # The placement-turn restrictions (bazaar spawns, guardians, new catapults) last one phase.
    # (By identity: `in` would compare it field by field with every minion before it.)
    if any(o is m for o in board.minions):
        m.can_act = True
        m.can_attack = True
        m.knocked_down = False
        m.immobilized = False
    return res


def planned_turn(
    board: Battlefield, minion_id: str, cards: Cards, mods: PhaseModifiers, choice: str, walks: MinionWalks
) -> tuple[list[Pos], Effect | None]:
    """What the minion's turn with these answers would do, the board untouched: the path it
    walks (MinionWalks.plan, which raises Unsettled where it cannot tell) and the attack it
    makes. Raises NeedChoice at a further tie."""
    m = board.minion(minion_id)
    return _plan(board, m, cards, mods, Choices(choice), [], m.title, walks, walks.plan)


def _plan(
    board: Battlefield,
    m: Minion,
    cards: Cards,
    mods: PhaseModifiers,
    choices: Choices,
    trace: list[str],
    who: str,
    walks: MinionWalks,
    walker: Walker,
) -> tuple[list[Pos], Effect | None]:
    s = effective_stats(m, cards, mods)
    if not m.can_act:
        trace.append("It was placed this Enemy Phase, so it neither moves nor attacks until the next one.")
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
        return _plan_magical_fire(board, m, s, mods, can_move, choices, trace, who, walker)
    if not board.units:
        trace.append("No player unit is on the board.")
        return [], None
    # The same for every plan of the turn (each answer to a tie is planned again): seen once.
    seen = walks.sightings.get(s)
    if seen is None:
        seen = walks.sightings[s] = sighting(board, s, _firing_square(m, []))
    targetable = [u for u in board.units if u.id in seen.targetable]
    if seen.attacks_from_here:
        trace.append("A unit is already in range: it attacks without moving.")
    elif can_move:
        lo, hi = s.range_min, s.range_max
        if m.catapult_pos is not None:
            # Catapult: range is measured from the catapult, which trails its pusher by a
            # space once it walks, so the pusher heads for one space nearer than the range.
            lo, hi = max(1, lo - 1), hi - 1
        if targetable:
            aims = {u.id: aim(board, s.attack, u) for u in targetable}
            key = walking_distances(board, m, mods, targetable, aims, lo, hi, walks)
            target = pick_nearest(targetable, key, choices, who, " that it can attack")
            trace.append(
                f"Target: {target.id} at {square_name(target.pos)}, the nearest unit "
                f"it can {'affect' if s.attack == 'hex' else 'damage'} "
                f"({_how_far(key[target.id])})."
            )
        else:
            # Rule 4 note and Rule 7 note: nobody it can attack; it heads for the nearest unit
            # and stops at its maximum range from it.
            aims = {u.id: {u.pos} for u in board.units}
            key = walking_distances(board, m, mods, board.units, aims, lo, hi, walks)
            target = pick_nearest(board.units, key, choices, who, ", none of which it can attack")
            trace.append(
                f"No unit it can attack: it heads for the nearest, {target.id} at "
                f"{square_name(target.pos)}, and stops at range {hi}, as far off as it can hit from."
            )
            if distance(m.pos, target.pos) <= hi:
                # Rule 7 note: it waits there while that unit stays in range.
                trace.append("That unit is within its range: it waits.")
                return [], None
        goals = {p for t in aims[target.id] for p in within(t, lo, hi)}
        plain = aims[target.id] == {target.pos}
        # Rule 7: stop at the maximum distance at which it can still do damage.
        path = walker(board, m, s, mods, target.pos, goals, trace, (lo, hi) if plain else None)
        if m.catapult_pos is not None:
            path = _catapult_stop(board, m, s, target, path)
    _tell_move(m, path, trace)
    end = _firing_square(m, path)
    if not m.can_attack:
        trace.append("It took up its catapult this Enemy Phase, so it does not attack yet.")
        return path, None
    options = attack_options(board, m, end, s)
    if not options:
        trace.append(f"Nothing it can attack from {'there' if path else 'where it stands'}.")
        return path, None
    if s.attack == "catapult":
        # reading: catapult-shoots-closest
        # Catapult: it targets the closest targetable unit (not Rule 8's most damage); among
        # equally close units Rule 8 decides, then the players.
        near = min(distance(end, board.unit(e.unit).pos) for e in options)
        options = [e for e in options if distance(end, board.unit(e.unit).pos) == near]
    # Rule 3: able to damage or affect a unit at the end of its move, it always attacks.
    return path, pick_attack(options, choices, who)


def _tell_move(m: Minion, path: list[Pos], trace: list[str]) -> None:
    """The walk, told where it happens: after why it walks and before what it does at the end
    (an attack, or why none), so the post reads in the order of the turn."""
    if not path:
        return
    trace.append("Moves " + " → ".join(square_name(p) for p in [m.pos, *path]) + ".")
    if m.catapult_pos is not None:
        trace.append(f"Its catapult follows it to {square_name(_firing_square(m, path))}.")


def _firing_square(m: Minion, path: list[Pos]) -> Pos:
    """Where the minion's attack is measured from once it has walked `path`: its own space, or,
    for a catapult, the catapult's (it follows into the space its pusher left last, Catapult:
    "follows normal war machine rules", whose range counts from the machine)."""
    if m.catapult_pos is None:
        return path[-1] if path else m.pos
    if not path:
        return m.catapult_pos
    return path[-2] if len(path) >= 2 else m.pos


def _catapult_stop(board: Battlefield, m: Minion, s: EnemyStats, target: Unit, path: list[Pos]) -> list[Pos]:
    """Rule 7 for a catapult: it stops on the first free space from which its catapult can
    fire at the target (the maximum distance at which it can still do damage)."""
    taken = endable(board, m)
    for k in range(1, len(path)):
        if (
            path[k - 1] not in taken
            and aim_in_range(board, s, _firing_square(m, path[:k]), target) is not None
        ):
            return path[:k]
    return path


def _how_far(key: tuple[int, int]) -> str:
    unreachable, n = key
    if unreachable:
        return f"no way to any unit; {count(n, 'space')} away as the crow flies"
    return f"{n} movement to be in range of it"


def _plan_magical_fire(
    board: Battlefield,
    m: Minion,
    s: EnemyStats,
    mods: PhaseModifiers,
    can_move: bool,
    choices: Choices,
    trace: list[str],
    who: str,
    walker: Walker,
) -> tuple[list[Pos], Effect | None]:
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
            prompt = f"{who} is equally close to the bazaar corners {listing(names)}: which does it head for?"
            corner = tied[choices.pick("target", names, prompt)]
        trace.append(f"Magical Fire: heads for the closest bazaar corner, {square_name(corner)}.")
        path = walker(board, m, s, mods, corner, set(within(corner, 1, 1)), trace, (1, 1))
        _tell_move(m, path, trace)
    end = path[-1] if path else m.pos
    if not adjacent(end) or not m.can_attack:
        return path, None
    eff = Effect(target=BAZAAR_SQUARES[0], why=BAZAAR_BURNS)
    for u in board.units:
        if u.pos in BAZAAR_SQUARES:
            # Magical Fire: 1 damage to any units inside the bazaar.
            unit_hit(board, u, 1, eff)
    return path, eff


# ---- the Elder Dragon ----------------------------------------------------------------------------


def sacrifice_order(board: Battlefield) -> list[Minion]:
    """Elder Dragon: the minions closest to the bottom, rightmost first on a row, never a
    war-machine carrier."""
    return sorted((m for m in board.minions if not m.catapult), key=lambda m: (-m.pos[1], -m.pos[0]))


def _landable(board: Battlefield, p: Pos, figures: set[Pos]) -> bool:
    """Whether the dragon may land on p, `figures` being the board's figure_squares()."""
    return board.terrain_at(p) not in _NO_LANDING and p not in figures


_NO_LANDING = DANGEROUS | BLOCKING


# reading: dragon-sacrifice-actions
def dragon_turn(
    board: Battlefield, stats: EnemyStats, mods: PhaseModifiers, choice: str | None = None
) -> EnemyResult:
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
        _dragon(board.copy(), stats, mods, Choices(choice), res)
    except NeedChoice as need:
        return EnemyResult(trace=[*res.trace, need.tie.prompt], needs_choice=need.tie)
    res = EnemyResult()
    _dragon(board, stats, mods, Choices(choice), res)
    return res


def _dragon(
    board: Battlefield, s: EnemyStats, mods: PhaseModifiers, choices: Choices, res: EnemyResult
) -> None:
    dragon = board.dragon
    if dragon is None:
        return
    victims = sacrifice_order(board)[:3]
    for v in victims:
        # By identity: remove() would compare it field by field with every minion before it.
        board.minions[:] = [o for o in board.minions if o is not v]
        res.sacrificed.append(v.id)
    res.trace.append(
        "Elder Dragon sacrifices "
        + (", ".join(f"{v.name} ({square_name(v.pos)})" for v in victims) or "nobody")
        + "."
    )
    actions = 3 if mods.dragon_actions == "three" else len(victims)
    who = f"Elder Dragon at {square_name(dragon.pos)}"
    while actions > 0 and board.units:
        options = attack_options(board, None, dragon.pos, s)
        if options:
            eff = pick_attack(options, choices, who)
            apply_attack(board, eff, res, None, mods.minion_health)
            actions -= 1
            if eff.unit in res.killed_units:
                res.trace.append(
                    f"{eff.unit} is dead: with actions left he may fly on (unlike a minion, the Elder Dragon "
                    "may still move after attacking)."
                )
            continue
        # He flies, so the nearest unit is the nearest as the crow flies (to the nearest
        # square of its forest for his fire, as for any fire attack: Rules 7 and 8 examples).
        spots = {
            u.id: min(aim(board, s.attack, u), key=lambda p: (distance(dragon.pos, p), p[1], p[0]))
            for u in board.units
        }
        key = {uid: (0, distance(dragon.pos, p)) for uid, p in spots.items()}
        target = pick_nearest(board.units, key, choices, who, "")
        goal = spots[target.id]
        need = distance(dragon.pos, goal) - s.range_max
        # He always moves the maximum until at his maximum attack distance; several movement
        # actions in a row need no landing in between.
        n = min(actions, -(-need // s.movement))
        allotted = n * s.movement
        flight = line(dragon.pos, goal, min(need, allotted))
        ideal = flight[-1]
        land = ideal
        figures = board.figure_squares()
        if not _landable(board, ideal, figures):
            # reading: dragon-landing
            # Reading taken: "the available space nearest the target within his movement";
            # being closer than the intended landing does not count as nearer, and ties go to
            # the space nearest the intended landing, then topmost, then leftmost.
            ideal_d = distance(ideal, goal)
            spots_ok = [
                p for p in within(dragon.pos, 0, allotted) if _landable(board, p, figures) or p == dragon.pos
            ]
            land = min(
                spots_ok, key=lambda p: (max(distance(p, goal), ideal_d), distance(p, ideal), p[1], p[0])
            )
            res.trace.append(
                f"{square_name(ideal)} is not free to land on: he lands on {square_name(land)} instead."
            )
        res.trace.append(
            f"Elder Dragon flies toward {target.id} ({count(n, 'move action')}) to {square_name(land)}."
        )
        res.moved_path.extend(flight if land == ideal else [land])
        dragon.pos = land
        who = f"Elder Dragon at {square_name(dragon.pos)}"
        actions -= n
