"""The Enemy Phase's moves (Step 3): the order the enemies move in, each enemy's turn on the board,
the ties the rules hand the players (asked of one decider, or not at all when every answer leaves
the same board), and the tally for the phase's summary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.game import Event, rules_of
from engine.words import listing
from games.ignite import enemies, enemy_lines, enemy_stats
from games.ignite.board import Battlefield, Pos, parse_square, square_name
from games.ignite.cards import gain_hex
from games.ignite.content import Content
from games.ignite.enemy_attacks import Effect, EnemyResult, NeedChoice
from games.ignite.enemy_cards import stats_for
from games.ignite.enemy_movement import MinionWalks, Unsettled
from games.ignite.rules import minion_health
from games.ignite.spawn_steps import difficulty, effects
from games.ignite.state import IgniteState, last_actor
from games.ignite.units import kill_unit

# ---- moves ---------------------------------------------------------------------------------------


def modifiers(state: IgniteState, content: Content) -> enemy_stats.PhaseModifiers:
    eff = effects(state, content)
    return enemy_stats.PhaseModifiers(
        hardened=bool(eff.get("hardened")),
        speed_bonus=int(eff.get("speed_bonus", 0)),
        range_bonus=int(eff.get("range_bonus", 0)),
        ambush=eff.get("ambush"),
        # Expert/Insanity speed tokens on level 2 cards; the +1 HP token at 5-8 players.
        level2_speed=difficulty(state).level2_speed,
        minion_health=minion_health(len(state.seats)),
        dragon_actions=state.options.get("dragon_actions", "sacrificed"),
        # reading: catapult-pusher-goes-round
        pusher_passes_catapult=rules_of(state.options) < 2,
    )


def step_order(state: IgniteState, content: Content, events: list[Event]) -> None:
    order = enemy_stats.movement_order(state.field, stats_for(state), modifiers(state, content))
    if state.field.dragon is not None:
        # The Boss Battle: once spawned, the dragon always moves first.
        order = ["dragon", *order]
    state.ep["order"] = order
    state.ep["step"] = "move"


def step_move(state: IgniteState, content: Content, events: list[Event]) -> None:
    order: list[str] = state.ep["order"]
    if not order:
        state.ep["step"] = "end"
        return
    mid = order[0]
    if mid != "dragon" and all(m.id != mid for m in state.field.minions):
        order.pop(0)
        return
    if mid == "dragon" and state.field.dragon is None:
        order.pop(0)
        return
    # The players' answers to this enemy's ties so far, in order ("target:c5;attack:d7").
    choice = state.ep.get("choices") or None
    before = {u.id: u for u in state.field.units}
    minions_before = list(state.field.minions)
    start = (
        state.field.dragon.pos
        if mid == "dragon" and state.field.dragon is not None
        else state.field.minion(mid).pos
        if mid != "dragon"
        else None
    )
    # One search of a minion's walks on this board serves every plan of its turn below: the
    # turn, and each answer to its tie tried (issue 42).
    walks = (
        None
        if mid == "dragon"
        else MinionWalks(state.field, state.field.minion(mid), modifiers(state, content))
    )
    result = _tried_turn(state, content, mid, choice) or enemy_turn(
        state.field, mid, state, content, choice, walks
    )
    tie = result.needs_choice
    earlier = state.ep.get("choices", "")
    settled = ""
    if tie is not None:
        same = _same_either_way(state, content, mid, earlier, tie.options, walks)
        if same is not None:
            # Issue 13: a decision whose answers would not change the outcome is not asked; the
            # first option is taken (every option leaves the same board). Its trial turn, on a
            # copy of this board, is the turn: the board it left becomes the board.
            state.field.take_from(same[0])
            result = same[1]
            # Issue 39: the trace names one target as "the nearest"; the post says it was a tie
            # and how it was settled, so a reader does not take it for the only nearest unit.
            squares = [o.rpartition(":")[2] for o in tie.options]
            tied = (
                f"attacks on {listing(squares)} do equal damage"
                if tie.kind == "attack"
                else f"the units on {listing(squares)} are equally near"
            )
            settled = (
                f"(A tie: {tied}, and any choice comes to the same, so nobody is asked; it takes "
                f"the first, {squares[0]}.)"
            )
            tie = None
    if tie is not None:
        # reading: random-tie-default
        # Issue 13: the default is a seeded draw among the options, not the first unit listed
        # (which would always favour the upper left of the board).
        default = tie.options[state.dice.below(len(tie.options))]
        if state.options.get("ties") == "auto" or state.ep.get("auto_ties"):
            # Option ties=auto: the group has agreed in advance to take the default for every
            # tie the rules hand them (equal-distance targets, equal-damage attacks); no pause.
            state.ep["choices"] = _joined(earlier, default)
            head = tie.prompt.split(":")[0]
            kind, _, where = default.partition(":")
            verb = "attacks" if kind == "attack" else "heads for"
            why = "as the table settles ties" if state.options.get("ties") == "auto" else "as the group chose"
            told = f"{head}. It {verb} {where}, drawn at random ({why})."
            events.append(Event("tie", told, detail=True))
            return
        state.pending = {
            "kind": "tie",
            "minion": mid,
            "tie_kind": tie.kind,
            "options": list(tie.options),
            "prompt": tie.prompt,
            "default": f"choose {default}",
            "decider": tie_decider(state, tie.options),
        }
        return
    order.pop(0)
    state.ep.pop("choices", None)
    # The whole path, from the square it started on (the picture draws every step).
    path = ([square_name(start)] if start is not None and result.moved_path else []) + [
        square_name(p) for p in result.moved_path
    ]
    state.last_moves.append(
        {
            "id": mid,
            "path": path,
            "attacked": [square_name(p) for p in result.attacked],
        }
    )
    trace = list(result.trace)
    if settled:
        # Said right after the target it names, else (an attack's tie) at the end.
        at = next((k + 1 for k, line in enumerate(trace) if "nearest" in line), len(trace))
        trace.insert(at, settled)
    text = " ".join(trace) or "It does nothing."
    _tally(state, result)
    # The post tells the enemy in a short line (enemy_lines); its whole trace, the reasons, is
    # a detail line the host keeps in the attached trace file.
    mover = None if mid == "dragon" else next((m for m in minions_before if m.id == mid), None)
    name = "Elder Dragon" if mover is None else enemy_lines.short_name(mover)
    names = {m.id: enemy_lines.short_name(m) for m in minions_before if m.id in result.killed_minions}
    line = enemy_lines.hit_line(name, start, result, names)
    if line is None:
        enemy_lines.note_walk(state, name, start, result.moved_path)
    else:
        # A headline: it stays in the post even when the host must cut it to its headlines.
        events.append(Event("enemy", line, data={"id": mid}, headline=True))
    events.append(Event("enemy_reasons", text, data={"id": mid}, detail=True))
    # The enemy module has already dealt the damage, shields first (Unit.take_hit), and taken
    # the fallen off the board; what is left is the game's bookkeeping of each death: the loss
    # count, the ratman respawn, the end of the game.
    for uid in result.killed_units:
        if uid in before:
            kill_unit(state, before[uid], events)
    for uid in result.hexed:
        unit = before.get(uid)
        if unit is not None:
            # Hexing: the target unit's player gains a Hex card (read: into the hand, dead).
            # (The enemy's own line has said so; the card it takes the place of is told here.)
            gain_hex(state, unit.seat, events)


def _joined(earlier: str, option: str) -> str:
    return f"{earlier};{option}" if earlier else option


def enemy_turn(
    field: Battlefield,
    mid: str,
    state: IgniteState,
    content: Content,
    choice: str | None,
    walks: MinionWalks | None = None,
) -> EnemyResult:
    """The enemy's turn on `field`; `walks`, the minion's on this board (enemies.move_and_attack)."""
    stats = stats_for(state)
    mods = modifiers(state, content)
    if mid == "dragon":
        return enemies.dragon_turn(field, stats[("dragon", 1)], mods, choice=choice)
    return enemies.move_and_attack(field, mid, stats, mods, choice, walks)


def _same_either_way(
    state: IgniteState,
    content: Content,
    mid: str,
    earlier: str,
    options: list[str],
    walks: MinionWalks | None,
) -> tuple[Battlefield, EnemyResult] | None:
    """When every answer to a tie leaves the same board (figures, health, damage) and the same
    hexes, nobody is asked: the board after the first answer and that turn's result; else
    None. An answer that leads to a further tie counts as different (what follows it is the
    players' choice too). The turns tried for a tie that is asked are kept (_TRIED) for the
    answer, when it is one of them. After the first, a minion's answers are judged from their
    plans where those settle it (_PlansAlike), without a trial turn."""
    first: tuple[Battlefield, EnemyResult] | None = None
    tried: dict[str, tuple[Battlefield, EnemyResult]] = {}
    _TRIED.clear()
    alike: _PlansAlike | None = None
    for option in options:
        choice = _joined(earlier, option)
        if alike is not None:
            verdict = alike.verdict(choice)
            if verdict == "same":
                continue
            if verdict == "differs":
                break
        trial = state.field.copy()
        result = enemy_turn(trial, mid, state, content, choice, walks)
        if result.needs_choice is not None:
            break
        tried[choice] = (trial, result)
        if first is None:
            first = (trial, result)
            if SHORTCUT and walks is not None:
                alike = _PlansAlike(state, content, mid, result, walks)
        elif trial != first[0] or sorted(result.hexed) != sorted(first[1].hexed):
            break
    else:
        return first
    # The trials ran on copies: the board is still the one every answer starts from.
    _TRIED.append(_Tried(mid, state.field.copy(), modifiers(state, content), tried))
    return None


class _PlansAlike:
    """Issue 42: whether an answer to a minion's tie leaves the same board as the first answer
    did, told from its plan alone (no trial turn on a copy). The turn is its plan played out:
    the same end square (and the square its catapult follows into) and the same attack make
    the same turn; another end square leaves the minion elsewhere (unless its own attack
    destroys it). The walks come from one search out of the minion's square
    (enemy_movement.MinionWalks); where that cannot tell, or the same end comes with another
    attack (two attacks on one forest may burn the same units), the answer is tried in full."""

    def __init__(
        self, state: IgniteState, content: Content, mid: str, first: EnemyResult, walks: MinionWalks
    ) -> None:
        self.state, self.mid = state, mid
        self.mods = modifiers(state, content)
        self.first = self._outcome(first.moved_path, first.attack)
        self.walks = walks

    def _outcome(self, path: list[Pos], attack: Effect | None) -> tuple[list[Pos], Effect | None]:
        # The board after the turn depends on the path only through where it ends and, for a
        # catapult's pusher, the space it left last.
        return (
            path[-2:] if self.state.field.minion(self.mid).catapult_pos is not None else path[-1:]
        ), attack

    def verdict(self, choice: str) -> str | None:
        """Whether this answer leaves the same board ("same"), another ("differs"), or None when
        the plans cannot tell (the answer is then tried in full)."""
        try:
            path, attack = enemies.planned_turn(
                self.state.field, self.mid, stats_for(self.state), self.mods, choice, self.walks
            )
        except (NeedChoice, Unsettled):
            return None
        ends, first_attack = self.first
        if self._outcome(path, attack) == self.first:
            return "same"
        survives = all(a is None or self.mid not in a.minions for a in (attack, first_attack))
        return "differs" if path[-1:] != ends[-1:] and survives else None


SHORTCUT = True  # tests turn it off to compare decisions with every answer tried in full


@dataclass
class _Tried:
    """The turns tried on a copy of the board for the answers to a tie that is then asked (or
    drawn): the answer given is the same turn on the same board, so when the board, the phase's
    modifiers and the enemy are still those, the tried turn is the turn, and is not worked out a
    second time (issue 42: a tie's trials were most of an Enemy Phase's time)."""

    mid: str
    field: Battlefield  # the board the turns were tried on
    mods: enemy_stats.PhaseModifiers
    turns: dict[str, tuple[Battlefield, EnemyResult]]  # by the answers so far, joined


_TRIED: list[_Tried] = []  # the last tie's (one a thread at most): its answer is the next step


def _tried_turn(state: IgniteState, content: Content, mid: str, choice: str | None) -> EnemyResult | None:
    """The turn of `mid` with these answers, if it was tried on this very board for the tie they
    answer (it is then made the board's), else None. Each tried turn is used at most once."""
    if choice is None:
        return None
    try:
        # One pop, not a look then a pop: the host plays moves in threads, and another session's
        # Enemy Phase may take the entry in between (it is then worked out again, no harm).
        tried = _TRIED.pop()
    except IndexError:
        return None
    turn = tried.turns.get(choice)
    if (
        turn is None
        or tried.mid != mid
        or tried.mods != modifiers(state, content)
        or tried.field != state.field
    ):
        return None
    state.field.take_from(turn[0])
    return turn[1]


def tie_seats(state: IgniteState, options: list[str]) -> frozenset[str]:
    """The seats whose units a tie is about. Each option names a square: a unit's, or a forest
    square whose fire reaches the units inside."""
    field = state.field
    seats: set[str] = set()
    for option in options:
        pos = parse_square(option.partition(":")[2])
        area = field.burning_forest(pos) | {pos}
        seats |= {u.seat for u in field.units if u.pos in area}
    return frozenset(seats)


def tie_decider(state: IgniteState, options: list[str]) -> str:
    """Issue 13, one decider per decision: the player whose unit the tie is about (every
    candidate unit is theirs), otherwise the player who acted last."""
    seats = tie_seats(state, options)
    if len(seats) == 1:
        return next(iter(seats))
    return last_actor(state)


def _tally(state: IgniteState, result: Any) -> None:
    """This Enemy Phase's totals, for the one-line summary."""
    t = state.ep.setdefault("tally", {"hit": [], "died": [], "minions": []})
    for uid in [*result.unit_damage, *result.soaked, *result.hexed]:
        if uid not in t["hit"]:
            t["hit"].append(uid)
    # How each unit was hit, so the post names every unit and by how much.
    for key, amounts in (("damage", result.unit_damage), ("soaked", result.soaked)):
        totals = t.setdefault(key, {})
        for uid, n in amounts.items():
            totals[uid] = totals.get(uid, 0) + n
    t.setdefault("hexed", []).extend(u for u in result.hexed if u not in t["hexed"])
    t["died"] += list(result.killed_units)
    t["minions"] += list(result.killed_minions)
    if result.bazaar_destroyed:
        t["bazaar"] = True
