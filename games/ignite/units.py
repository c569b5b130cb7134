"""Damage, death and respawn bookkeeping for player units, minions and the elder dragon.

Every point of damage any figure takes goes through here, so shields, the village rule, dagger
halves, the loss count and the dragon's death are decided in one place.
"""

from __future__ import annotations

from engine.game import Event, Limit
from engine.words import count
from games.ignite.board import Battlefield, Minion, Pos, Unit, square_name
from games.ignite.rules import LOSS_THRESHOLD, minion_health
from games.ignite.state import DeadUnit, IgniteState

BOTTOM_ROW = 17


def players(state: IgniteState) -> int:
    return len(state.seats)


def loss_threshold_halves(state: IgniteState) -> int:
    """How to Win: the loss count by player count, in halves because a ratman is 1/2 unit."""
    return 2 * LOSS_THRESHOLD[players(state)]


# Said wherever it applies: a rule that changes an outcome is never left for the group to find.
VILLAGE_EXTRA = "+1 damage: the unit stands on a village square"


def damage_unit(
    state: IgniteState,
    unit: Unit,
    amount: int,
    events: list[Event],
    cause: str,
    attack: bool = True,
    village: bool = True,
) -> bool:
    """Deal damage to a player unit; True when it dies. `attack` is False for terrain damage;
    `village` False when the caller's amount already holds the village's extra damage."""
    if amount <= 0:
        return False
    if attack and village and state.field.terrain_at(unit.pos) == "village":
        # reading: village-extra-damage
        # Destroying Minions note: enemies take no extra damage in the village, "players' units
        # still do" - read as +1 damage to a unit hit by an attack while on a village space.
        amount += 1
        cause = f"{cause}; {VILLAGE_EXTRA}" if cause else VILLAGE_EXTRA
    if attack:
        # Stand-in shields (Old Wooden Shield, Metal Shield) soak attack damage, not terrain.
        soaked, taken = unit.take_hit(amount)
    else:
        soaked, taken = 0, amount
        unit.health -= amount
    events.append(
        Event(
            "unit_damaged",
            hit_text(unit, soaked, taken, cause),
            data={"unit": unit.id, "amount": taken, "soaked": soaked},
        )
    )
    if unit.health <= 0:
        kill_unit(state, unit, events)
        return True
    return False


def hit_text(unit: Unit, soaked: int, taken: int, cause: str = "") -> str:
    """How a hit on a unit is told, once, wherever it came from."""
    why = f" ({cause})" if cause else ""
    shield = f"{unit.id}'s shield soaks {soaked}" if soaked else ""
    if not taken:
        return f"{shield}{why}; no damage."
    left = f"{max(unit.health, 0)}/{unit.max_health} left"
    hurt = f"takes {taken} damage{why} at {square_name(unit.pos)}; {left}"
    return f"{shield} and it {hurt}." if shield else f"{unit.id} {hurt}."


def lost_of(lost: float, limit: int) -> str:
    """Units lost against the loss limit: "2.5 of 3", and once the last loss went past the
    limit (a whole unit lost at 2.5 of 3) "3.5, past the limit of 3", not "3.5 of 3"."""
    return f"{lost:g} of {limit}" if lost <= limit else f"{lost:g}, past the limit of {limit}"


def kill_unit(state: IgniteState, unit: Unit, events: list[Event]) -> None:
    if unit in state.field.units:
        state.field.units.remove(unit)
    state.dead.append(DeadUnit(unit.id, unit.seat, unit.race, unit.max_health))
    # Race Selection: each ratman unit counts as only 1/2 of a unit for the loss condition.
    state.lost_halves += 1 if unit.race == "ratmen" else 2
    state.losses[unit.seat] = state.losses.get(unit.seat, 0) + 1
    lost = state.lost_halves / 2
    events.append(
        Event(
            "unit_killed",
            f"{unit.id} is defeated. Units lost: {lost_of(lost, loss_threshold_halves(state) // 2)}.",
            data={"unit": unit.id},
            headline=True,
        )
    )
    if unit.race == "ratmen" and unit.seat not in state.ratman_respawned:
        # Race Selection: the first killed ratman respawns (read: at the start of the next Player
        # Phase, at a bottom corner like any respawn; its death still counts toward the loss).
        state.ratman_respawned.append(unit.seat)
        state.respawn_queue.append(f"{unit.seat}:{unit.id}")
    check_loss(state)


def loss_limit(state: IgniteState) -> Limit:
    """The loss count as a limit the table sees from the start: near one unit (two halves) from it."""
    end = loss_threshold_halves(state)
    return Limit(
        f"Units lost: {lost_of(state.lost_halves / 2, end // 2)}",
        f"the players lose when {count(end // 2, 'unit')} are lost (a ratman counts as half a unit)",
        state.lost_halves,
        end,
        warn=2,
    )


def check_loss(state: IgniteState) -> None:
    if state.outcome is None and state.lost_halves >= loss_threshold_halves(state):
        state.outcome = {
            "winners": [],
            "losers": list(state.seats),
            "reason": f"{state.lost_halves / 2:g} player units were defeated "
            f"(the loss condition for {count(players(state), 'player')} is "
            f"{loss_threshold_halves(state) // 2}).",
        }
        state.phase = "over"
        state.pending = None


def damage_minion(
    state: IgniteState, minion: Minion, amount: int, events: list[Event], half: bool = False
) -> bool:
    """Deal damage to a minion; a dagger deals a half. True when the minion is destroyed."""
    if half:
        # Battle Card Changes: a dagger does 1/2 damage; two halves make one full damage.
        amount = 0
        if minion.half_damage:
            minion.half_damage = False
            amount += 1
        else:
            minion.half_damage = True
            events.append(
                Event(
                    "minion_half",
                    f"{minion.title} takes 1/2 damage (a dagger clip).",
                    data={"minion": minion.id},
                )
            )
    if amount <= 0:
        return False
    minion.damage += amount
    # Destroying Minions: 1 damage kills at 1-4 players, 2 at 5-8.
    if minion.damage >= minion_health(players(state)):
        state.field.minions.remove(minion)
        events.append(Event("minion_killed", f"{minion.title} is destroyed.", data={"minion": minion.id}))
        if minion.catapult_pos is not None:
            # Catapult: the catapult disappears if you destroy the unit pushing it (it stands
            # on the board only as its pusher's catapult_pos, so it went with the minion).
            events.append(
                Event(
                    "catapult_gone",
                    f"{minion.title}'s catapult at {square_name(minion.catapult_pos)} disappears with it.",
                    data={"minion": minion.id},
                )
            )
        return True
    events.append(
        Event("minion_damaged", f"{minion.title} takes {amount} damage.", data={"minion": minion.id})
    )
    return False


# reading: catapult-as-target
def damage_catapult(
    state: IgniteState, carrier: Minion, amount: int, events: list[Event], half: bool = False
) -> bool:
    """Damage the catapult `carrier` pushes; True when it is destroyed.

    Reading taken (the rulebook lets the catapult be destroyed "rather than the enemy" but
    gives it no health): it takes as much damage as a minion does (1, or 2 at 5-8 players),
    and a dagger deals it 1/2 like any enemy.
    """
    carrier.catapult_halves += 1 if half else 2 * amount
    where = square_name(carrier.catapult_pos) if carrier.catapult_pos else "?"
    if carrier.catapult_halves < 2 * minion_health(players(state)):
        events.append(
            Event(
                "catapult_damaged",
                f"{carrier.title}'s catapult at {where} takes {carrier.catapult_halves / 2:g} damage.",
                data={"minion": carrier.id},
            )
        )
        return False
    # Catapult: if the catapult is destroyed rather than the enemy, the enemy regains its
    # former weapon/ability.
    carrier.catapult, carrier.catapult_pos, carrier.catapult_halves = False, None, 0
    events.append(
        Event(
            "catapult_destroyed",
            f"{carrier.title}'s catapult at {where} is destroyed; "
            f"{carrier.name} takes up its own {carrier.colour} weapon again.",
            data={"minion": carrier.id},
        )
    )
    return True


def damage_dragon(state: IgniteState, amount: int, events: list[Event], half: bool = False) -> bool:
    """Damage the elder dragon; True when he dies, which wins the game at once."""
    dragon = state.field.dragon
    if dragon is None:
        return False
    if half:
        amount = 0  # a dagger's hit is a half, whatever the card's printed damage
        if state.dragon_half:
            state.dragon_half = False
            amount += 1
        else:
            state.dragon_half = True
            events.append(Event("dragon_half", "The elder dragon takes 1/2 damage."))
    if amount <= 0:
        return False
    dragon.health -= amount
    events.append(
        Event("dragon_damaged", f"The elder dragon takes {amount} damage; {max(dragon.health, 0)} left.")
    )
    if dragon.health <= 0:
        state.field.dragon = None
        # The Boss Battle: once the elder dragon is killed the players immediately win.
        state.outcome = {
            "winners": list(state.seats),
            "losers": [],
            "reason": "The elder dragon is slain: Oshos is saved.",
        }
        state.phase = "over"
        state.pending = None
        events.append(Event("dragon_killed", "The elder dragon falls! The players win."))
        return True
    return False


def respawn_square(field: Battlefield, side: str) -> Pos:
    """Loss note: the bottom-left or bottom-right corner, else the next free space toward the middle."""
    cols = range(0, 18) if side == "left" else range(17, -1, -1)
    for col in cols:
        pos = (col, BOTTOM_ROW)
        if not field.occupied(pos):
            return pos
    # reading: respawn-row-full
    # Reading: a full bottom row continues on the row above, from the same side.
    for row in range(BOTTOM_ROW - 1, -1, -1):
        for col in cols:
            pos = (col, row)
            if not field.occupied(pos) and field.terrain_at(pos) not in ("rock", "lava", "scorched"):
                return pos
    raise RuntimeError("no free space on the board to respawn")
