"""The round structure of Ignite's co-op game: free turns, Player Phase, the automated Enemy Phase,
the Elder Dragon cycle of round 20, divine favor pauses, respawns and the round 11 upgrade.

The Enemy Phase is a small state machine (state.ep["step"]) so it can pause for a decision the
rules hand to the players (a divine favor token, a tie) and resume exactly where it stopped.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.game import Event
from engine.words import count
from games.ignite import enemies, enemy_stats
from games.ignite.board import Battlefield, Pos, Unit, parse_square, square_name
from games.ignite.cards import ability, end_turn, finish_machines, gain_hex
from games.ignite.content import COLOURS, Content, EffectCard, RoundCard
from games.ignite.enemy_attacks import EnemyResult
from games.ignite.enemy_cards import stats_for
from games.ignite.placement import is_bazaar_guardian, place_catapult, place_dragon, place_minions
from games.ignite.rules import DIFFICULTY, minion_health, round_set
from games.ignite.state import Action, IgniteState, last_actor
from games.ignite.texts import round_name
from games.ignite.units import BOTTOM_ROW, kill_unit, respawn_square
from games.ignite.views import face_text, phase_event, round_card_text, round_card_view

# Box Contents: 40 coloured token bases, read as 5 per colour; a colour out of bases is
# replaced by the next level down the Round card (Step 2a note, spawn_list).
BASES_PER_COLOUR = 5



def difficulty(state: IgniteState) -> Any:
    return DIFFICULTY[state.options["difficulty"]]


# ---- player side of the round --------------------------------------------------------------------

def start_turn(state: IgniteState, content: Content, events: list[Event]) -> None:
    """The seat at state.turn begins: its war machine frames are finished, its shields lapse,
    mendfolk regrow, Honor starts at 0."""
    seat = state.seats[state.turn]
    state.honor = 0
    finish_machines(state, seat, events)
    for u in state.field.units:
        if u.seat == seat:
            u.shield = 0
            if ability(content, seat) == "regrowth" and u.health < u.max_health:
                u.health += 1
                events.append(Event("heal", f"{u.id} regrows 1 health (mendfolk)."))


def begin_play(state: IgniteState, content: Content, events: list[Event]) -> None:
    """After setup (and any unit placing): the free turns, else round 1 at once."""
    if state.free_left:
        # How to Play: before round 1, each player in turn order takes the free turns.
        state.phase = "free"
        state.turn = 0
        start_turn(state, content, events)
    else:
        state.round = 1
        start_player_phase(state, content, events)


def bottom_village(state: IgniteState) -> list[Pos]:
    """Reading taken: "the bottom village" is the bottom row of the village ring, corners
    included (the row the units start on and respawn to)."""
    return [(col, BOTTOM_ROW) for col in range(18)]


def placements(state: IgniteState, seat: str) -> list[Action]:
    """Race Selection: units can be placed anywhere in the bottom village (a free space)."""
    free = [p for p in bottom_village(state) if not state.field.occupied(p)]
    return [Action("place", unit=u.id, square=square_name(p))
            for u in state.field.units if u.seat == seat for p in free]


def place_unit(state: IgniteState, unit_id: str, pos: Pos, events: list[Event]) -> None:
    unit = state.field.unit(unit_id)
    unit.pos = pos
    events.append(Event("place", f"{unit.id} is placed on {square_name(pos)}.", data={"unit": unit.id}))


def end_placement(state: IgniteState, content: Content, events: list[Event]) -> None:
    seat = state.seats[state.turn]
    state.turn += 1
    if state.turn < len(state.seats):
        events.append(Event("turn_end", f"{seat} has placed; {state.seats[state.turn]} places next."))
        return
    events.append(phase_event(state, "phase", "Every unit is placed."))
    begin_play(state, content, events)


def start_player_phase(state: IgniteState, content: Content, events: list[Event]) -> None:
    state.phase = "player"
    state.turn = 0
    if state.round >= 11 and not state.upgraded and not difficulty(state).no_upgrade:
        # Rule 11: at the beginning of round 11 all existing enemies are upgraded to level 2.
        state.upgraded = True
        enemy_stats.upgrade_all(state.field)
        events.append(Event("upgrade", "Round 11: every Enemy card flips to level 2; all minions upgrade."))
    # How to Win note: a player whose units are all defeated respawns one at the start of the
    # next Player Phase (only while the loss condition has not been met).
    for seat in state.seats:
        alive = any(u.seat == seat for u in state.field.units)
        queued = any(q.split(":")[0] == seat for q in state.respawn_queue)
        if not alive and not queued:
            state.respawn_queue.append(seat)
    label = round_name(state.round) if state.round else "Free turn"
    events.append(Event("phase", f"{label}: Player Phase. {state.seats[0]} plays first."))
    next_respawn(state, events)
    start_turn(state, content, events)


def next_respawn(state: IgniteState, events: list[Event]) -> None:
    if state.respawn_queue and state.pending is None:
        seat = state.respawn_queue[0].split(":")[0]
        state.pending = {
            "kind": "respawn", "seat": seat,
            "prompt": f"{seat}: respawn a unit at the bottom-left or bottom-right corner?",
            "default": "respawn left",
        }


def do_respawn(state: IgniteState, content: Content, side: str, events: list[Event]) -> None:
    entry = state.respawn_queue.pop(0)
    seat, _, unit_id = entry.partition(":")
    dead = [d for d in state.dead if d.seat == seat]
    record = next((d for d in dead if d.id == unit_id), dead[-1] if dead else None)
    state.pending = None
    if record is not None:
        pos = respawn_square(state.field, side)
        state.dead.remove(record)
        full = record.max_health
        state.field.units.append(Unit(record.id, seat, record.race, pos, full, full))
        events.append(Event("respawn", f"{record.id} respawns at {square_name(pos)} with full health.",
                            data={"unit": record.id}))
    next_respawn(state, events)


def end_player_turn(state: IgniteState, content: Content, events: list[Event]) -> None:
    seat = state.seats[state.turn]
    end_turn(state, content, seat)
    state.turn += 1
    # A picture after each player's turn (the board as that seat left it).
    turn_end = phase_event(state, "turn_end", f"{seat} ends the turn and draws back up.")
    events.append(Event(turn_end.kind, turn_end.text, data=turn_end.data, random=True,
                        phase_end=True))
    if state.turn < len(state.seats):
        start_turn(state, content, events)
        return
    state.bazaar_closed = False
    if state.phase == "free":
        state.free_left -= 1
        if state.free_left > 0:
            state.turn = 0
            events.append(Event("phase", f"Free turns: {count(state.free_left, 'cycle')} left."))
            start_turn(state, content, events)
            return
        state.round = 1
        events.append(Event("phase", "The free turns are over; round 1 begins."))
        start_player_phase(state, content, events)
        return
    start_enemy_phase(state, content, events)


# ---- the enemy phase -------------------------------------------------------------------------------

def start_enemy_phase(state: IgniteState, content: Content, events: list[Event]) -> None:
    state.phase = "enemy"
    state.ep = {"step": "start"}
    run_enemy_phase(state, content, events)


def run_enemy_phase(state: IgniteState, content: Content, events: list[Event]) -> None:
    """Advance the Enemy Phase until it ends, the game ends, or the players owe a decision.

    Once the phase is over (or the game ends in it) an "enemy_summary" event gives the whole
    phase in one line (data: hit, died, minions), which Ignite.apply puts first in the post.
    The phase's first part opens with a header."""
    first = len(events)
    round_no = state.round
    announced = bool(state.ep.get("announced"))
    while state.outcome is None and state.pending is None and state.phase == "enemy":
        STEPS[state.ep["step"]](state, content, events)
    if not announced:
        events.insert(first, Event("phase", f"{round_name(round_no)}: Enemy Phase."))
        if state.phase == "enemy":
            state.ep["announced"] = True  # paused: the part after the pause needs no header
    if state.outcome is not None and not any(e.kind == "enemy_summary" for e in events[first:]):
        events.insert(first, _summary(state, round_no))  # the game ended inside the phase


def _summary(state: IgniteState, round_no: int) -> Event:
    """The Enemy Phase in one line: units hit, who died, minions lost to their own side."""
    t = state.ep.get("tally") or {"hit": [], "died": [], "minions": []}
    hit, died, minions = t["hit"], t["died"], t["minions"]
    parts = [f"{len(hit)} unit{'s' if len(hit) != 1 else ''} hit ({_hits(t)})" if hit else "no unit hit"]
    parts.append(f"{', '.join(died)} died" if died else "nobody died")
    if minions:
        parts.append(f"{len(minions)} minion{'s' if len(minions) != 1 else ''} killed by their own side")
    if t.get("bazaar"):
        parts.append("the bazaar burned down")
    text = f"{round_name(round_no)}, Enemy Phase: {', '.join(parts)}."
    return Event("enemy_summary", text, headline=True,
                 data={"hit": list(hit), "died": list(died), "minions": list(minions)})


def _hits(tally: dict[str, Any]) -> str:
    """Every unit hit this phase and how: "stoneborn1 2 damage, windkin1 shield soaked 1"."""
    damage, soaked, hexed = tally.get("damage", {}), tally.get("soaked", {}), tally.get("hexed", [])
    out = []
    for uid in tally["hit"]:
        how = [f"{damage[uid]} damage"] if damage.get(uid) else []
        how += [f"shield soaked {soaked[uid]}"] if soaked.get(uid) else []
        how += ["hexed"] if uid in hexed else []
        out.append(f"{uid} {', '.join(how) or 'hit'}")
    return ", ".join(out)


def favor_pause(state: IgniteState, content: Content, what: str, detail: str) -> None:
    """Divine Favor: right after a card draw or die roll, while tokens remain, the players may
    spend one. Not asked when spending it could not change anything (issue 13)."""
    if state.options.get("favor_prompts") != "on" or state.divine_favor <= 0:
        return
    if not _favor_matters(state, content, what):
        return
    verb = "favor redraw" if what == "draw" else "favor reroll"
    state.pending = {
        "kind": "divine_favor", "what": what, "detail": detail,
        "prompt": f"{detail} Spend a divine favor token ({state.divine_favor} left)? "
        f"`{verb}` or `keep`.",
        "default": "keep",
        # No unit is concerned: the player who acted last decides (issue 13).
        "decider": last_actor(state),
    }


def _favor_matters(state: IgniteState, content: Content, what: str) -> bool:
    """Whether a redraw or reroll could give another result: another card to draw, another
    enemy group on the Round card, or minions (or the dragon) for the D20 to place."""
    if what == "draw":
        if not content.effect_card(state.ep["last_draw"]).effects:
            # A card with no effect: a redraw could only bring one that does (never offered).
            return False
        kind = content.effect_card(state.ep["last_draw"]).kind
        deck = state.power_deck if kind == "power" else state.apocalypse_deck
        discard = state.power_discard if kind == "power" else state.apocalypse_discard
        # The card given back is the only one left: the redraw would draw it again.
        return bool(deck or discard)
    card = current_round_card(state, content)
    if state.ep["step"] == "symbols":  # the D6 has just been rolled
        rolled = card.group(state.ep["d6"])
        return any((g.spawn, g.cards) != (rolled.spawn, rolled.cards) for g in card.groups)
    first_dragon = bool(card.boss) and not state.dragon_spawned
    spawns = spawn_list(state, content, state.ep.get("spawns", []), card, state.ep.get("d6"))
    return bool(spawns) or first_dragon


def _draw_effect_card(state: IgniteState, content: Content, kind: str) -> EffectCard | None:
    deck = state.power_deck if kind == "power" else state.apocalypse_deck
    discard = state.power_discard if kind == "power" else state.apocalypse_discard
    if not deck:
        # Reading: an exhausted deck is rebuilt from its discard pile and shuffled.
        deck.extend(discard)
        discard.clear()
        state.dice.shuffle(deck)
    if not deck:
        return None  # every card of this deck is already in effect: nothing more to draw
    card = content.effect_card(deck.pop())
    state.in_effect.append(card.name)
    if card.shuffle:
        # Step 1: a shuffle icon shuffles the Power cards together at the next Enemy Phase.
        state.shuffle_pending = True
    return card


def _reveal(state: IgniteState, card: EffectCard, events: list[Event]) -> None:
    icon = " (shuffle icon)" if card.shuffle else ""
    events.append(Event("card", f"{card.kind.title()} card: {card.name}{icon}. {card.text}",
                        data={"card": card.name, "kind": card.kind}, random=True, reveals=True))


def _step_start(state: IgniteState, content: Content, events: list[Event]) -> None:
    # Battle Card Changes: any 1/2 damage is lost at the beginning of the enemy's turn.
    for m in state.field.minions:
        m.lose_half_damage()
    state.dragon_half = False
    # Step 1: discard all Power and Apocalypse cards from the previous Enemy Phase.
    for name in state.in_effect:
        card = content.effect_card(name)
        (state.power_discard if card.kind == "power" else state.apocalypse_discard).append(name)
    state.in_effect = []
    if state.shuffle_pending:
        # Step 1: shuffle the discarded, current and unused Power cards together.
        state.power_deck.extend(state.power_discard)
        state.power_discard.clear()
        state.dice.shuffle(state.power_deck)
        state.shuffle_pending = False
        events.append(Event("shuffle", "A shuffle icon was drawn: the Power cards are shuffled together.",
                            random=True))
    state.last_moves = []
    state.ep = {"step": "power"}


def _step_power(state: IgniteState, content: Content, events: list[Event]) -> None:
    card = _draw_effect_card(state, content, "power")
    state.ep["step"] = "round_card"
    if card is None:
        events.append(Event("card", "No Power card is left to draw."))
        return
    _reveal(state, card, events)
    state.ep["last_draw"] = card.name
    favor_pause(state, content, "draw", f"The Power card drawn is {card.name}.")


def current_round_card(state: IgniteState, content: Content) -> RoundCard:
    return content.rounds[round_set(len(state.seats))][min(state.round, 20) - 1]


def _step_round_card(state: IgniteState, content: Content, events: list[Event]) -> None:
    card = current_round_card(state, content)
    state.ep["queue"] = list(card.top)
    # Step 2a: the Round card shows which enemies might spawn; it is shown whole (every face),
    # in this post, in /game status and on the picture, before anyone weighs a reroll.
    state.ep["round_card"] = card.round
    shown = round_card_view(state, content)
    assert shown is not None
    if card.boss:
        # The Boss Battle: one minion of each colour in order (every Round 20 cycle).
        state.ep["spawns"] = [[c, 1] for c in COLOURS]
        first = "" if state.dragon_spawned else " The Elder Dragon appears!"
        events.append(Event("round_card", f"{round_card_text(shown)}{first}", reveals=True))
        state.ep["step"] = "draw_symbol"
        return
    events.append(Event("round_card", round_card_text(shown), reveals=True))
    state.ep["step"] = "d6"


def _step_d6(state: IgniteState, content: Content, events: list[Event]) -> None:
    roll = state.dice.roll(6)
    state.ep["d6"] = roll
    group = face_text(current_round_card(state, content).group(roll))
    events.append(Event("roll", f"D6 for the enemy group: {roll} ({group}).",
                        data={"die": 6, "roll": roll}, random=True))
    state.ep["step"] = "symbols"
    favor_pause(state, content, "roll", f"The D6 shows {roll}.")


def _step_symbols(state: IgniteState, content: Content, events: list[Event]) -> None:
    card = current_round_card(state, content)
    group = card.group(state.ep["d6"])
    state.ep["spawns"] = [[c, n] for c, n in group.spawn]
    # Step 2c: the card symbols on the selected group, after any symbol at the top.
    state.ep["queue"] = list(card.top) + list(group.cards)
    state.ep["step"] = "draw_symbol"


def _step_draw_symbol(state: IgniteState, content: Content, events: list[Event]) -> None:
    queue: list[str] = state.ep.get("queue", [])
    if not queue:
        state.ep["step"] = "d20"
        return
    kind = queue.pop(0)
    card = _draw_effect_card(state, content, kind)
    if card is None:
        events.append(Event("card", f"No {kind} card is left to draw."))
        return
    _reveal(state, card, events)
    state.ep["last_draw"] = card.name
    favor_pause(state, content, "draw", f"The {kind} card drawn is {card.name}.")


def _step_d20(state: IgniteState, content: Content, events: list[Event]) -> None:
    roll = state.dice.roll(20)
    state.ep["d20"] = roll
    events.append(Event("roll", f"D20 for placement: {roll}.", data={"die": 20, "roll": roll}, random=True))
    state.ep["step"] = "place"
    while (
        state.options.get("favor_rule") == "bottom-rows"
        and state.divine_favor > 0
        and _places_in_bottom_rows(state, content)
    ):
        # Option favor_rule: the group agreed in advance to spend a token on such a roll, so a
        # game played over days (no prompts) still uses its divine favor where it matters.
        state.divine_favor -= 1
        _reroll(state, content, "d20", events, f"the group's rule: {FAVOR_RULES['bottom-rows']}")
    favor_pause(state, content, "roll", f"The D20 shows {state.ep['d20']}.")


# Option favor_rule: how the group spends divine favor without being asked (stand-in wording).
FAVOR_RULES = {"bottom-rows": "reroll a D20 that places minions in the bottom two rows"}


def _places_in_bottom_rows(state: IgniteState, content: Content) -> bool:
    """Whether the D20 as rolled would place a minion in the battlefield's two bottom rows."""
    card = current_round_card(state, content)
    spawns = spawn_list(state, content, state.ep.get("spawns", []), card, state.ep.get("d6"))
    placed = place_minions(state.field.copy(), spawns, state.ep["d20"], effects(state, content).get("ambush"))
    return any(m.pos[1] >= BOTTOM_ROW - 1 for m in placed.minions)


def _reroll(state: IgniteState, content: Content, key: str, events: list[Event], why: str = "") -> None:
    """Divine Favor: reroll a die (the D6 or the D20) until a different result is rolled."""
    sides = 6 if key == "d6" else 20
    old = new = state.ep[key]
    while new == old:
        new = state.dice.roll(sides)
    state.ep[key] = new
    group = f" ({face_text(current_round_card(state, content).group(new))})" if sides == 6 else ""
    because = f" ({why})" if why else ""
    events.append(Event("roll", f"Divine favor{because}: the D{sides} is rerolled from {old} to "
                        f"{new}{group}.", data={"die": sides, "roll": new}, random=True))


def effects(state: IgniteState, content: Content) -> dict[str, Any]:
    """The combined effects of the Power/Apocalypse cards in play."""
    out: dict[str, Any] = {"hardened": False, "ambush": None, "catapult": False}
    for name in state.in_effect:
        for key, value in content.effect_card(name).effects.items():
            if isinstance(value, bool):
                out[key] = out.get(key, False) or value
            elif isinstance(value, int):
                out[key] = out.get(key, 0) + value
            else:
                # Reading: with both Ambush cards in play, the one drawn last decides.
                out[key] = value
    return out


def spawn_list(state: IgniteState, content: Content, groups: list[list[Any]],
               card: RoundCard | None = None, face: int | None = None) -> list[tuple[str, int]]:
    """The minions to place, left to right, after the Power effects, the -1 minion token and
    the substitution for colours with no base left: down the Round `card` from the rolled
    `face`, or (no card: the boss round's one of each colour) the next colour in order."""
    level = 2 if state.upgraded else 1
    eff = effects(state, content)
    colours: list[str] = [c for c, n in groups for _ in range(n)]
    if colours and eff.get("extra_spawn", 0):
        # Stand-in Power effect: extra minions of the group's first colour.
        colours += [colours[0]] * eff["extra_spawn"]
    if difficulty(state).minus_one_minion and colours:
        # Game Difficulty (easy, sensible): each time minions are placed, place 1 less.
        colours.pop()
    in_play = {c: 0 for c in COLOURS}
    for m in state.field.minions:
        in_play[m.colour] += 2 if m.catapult else 1
    if card is not None and card.groups and face is not None:
        # Step 2a note: out of bases, "the unit type listed on the next level down the card
        # (moving back to the top if on the bottom level)": the groups of faces face+1, face+2,
        # ... wrapping from 6 to 1, each level's types left to right.
        faces = [(face + k - 1) % 6 + 1 for k in range(1, 6)]
        fallback = [c for f in faces for c, _ in card.group(f).spawn]
    else:
        # The Boss Battle: "replace it with a minion of the next color" of the spawn order.
        fallback = []
    out: list[tuple[str, int]] = []
    for colour in colours:
        chosen = _with_base(colour, fallback, in_play)
        if chosen is not None:
            in_play[chosen] += 1
            out.append((chosen, level))
    return out


def _with_base(colour: str, down_the_card: list[str], in_play: dict[str, int]) -> str | None:
    if in_play[colour] < BASES_PER_COLOUR:
        return colour
    start = COLOURS.index(colour)
    order = down_the_card or [COLOURS[(start + k) % len(COLOURS)] for k in range(1, len(COLOURS))]
    return next((c for c in order if in_play[c] < BASES_PER_COLOUR), None)


def _step_place(state: IgniteState, content: Content, events: list[Event]) -> None:
    eff = effects(state, content)
    card = current_round_card(state, content)
    spawns = spawn_list(state, content, state.ep.get("spawns", []), card, state.ep.get("d6"))
    placed = place_minions(state.field, spawns, state.ep["d20"], eff.get("ambush"))
    for line in placed.trace:
        events.append(Event("spawn", line))
    if any(is_bazaar_guardian(m.colour, m.level) for m in placed.minions):
        state.bazaar_closed = True
    if eff.get("catapult") and placed.minions:
        # Catapult: placed in front of the last unit placed.
        last = placed.minions[-1]
        pos = place_catapult(state.field, last.id, eff.get("ambush"))
        if pos is not None:
            events.append(Event("spawn", f"A catapult is placed at {square_name(pos)}, pushed by {last.id}."))
    card = current_round_card(state, content)
    if card.boss and not state.dragon_spawned:
        state.dragon_spawned = True
        anchor = placed.first_pos or (state.ep["d20"] - 1 if state.ep["d20"] <= 18 else 8, 0)
        pos = place_dragon(state.field, anchor, eff.get("ambush"))
        if pos is not None:
            events.append(Event("spawn", f"The Elder Dragon lands at {square_name(pos)}."))
    events.append(Event("spawned", "The enemies are placed."))
    state.ep["step"] = "order"


def modifiers(state: IgniteState, content: Content) -> Any:
    eff = effects(state, content)
    return enemy_stats.PhaseModifiers(
        hardened=bool(eff.get("hardened")), speed_bonus=int(eff.get("speed_bonus", 0)),
        range_bonus=int(eff.get("range_bonus", 0)), ambush=eff.get("ambush"),
        # Expert/Insanity speed tokens on level 2 cards; the +1 HP token at 5-8 players.
        level2_speed=difficulty(state).level2_speed, minion_health=minion_health(len(state.seats)),
        dragon_actions=state.options.get("dragon_actions", "sacrificed"),
    )


def _step_order(state: IgniteState, content: Content, events: list[Event]) -> None:
    order = enemy_stats.movement_order(state.field, stats_for(state), modifiers(state, content))
    if state.field.dragon is not None:
        # The Boss Battle: once spawned, the dragon always moves first.
        order = ["dragon", *order]
    state.ep["order"] = order
    state.ep["step"] = "move"


def _step_move(state: IgniteState, content: Content, events: list[Event]) -> None:
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
    start = (state.field.dragon.pos if mid == "dragon" and state.field.dragon is not None
             else state.field.minion(mid).pos if mid != "dragon" else None)
    result = _enemy_turn(state.field, mid, state, content, choice)
    tie = result.needs_choice
    earlier = state.ep.get("choices", "")
    if tie is not None:
        same = _same_either_way(state, content, mid, earlier, tie.options)
        if same is not None:
            # Issue 13: a decision whose answers would not change the outcome is not asked; the
            # first option is taken silently (every option leaves the same board). Its trial
            # turn, on a copy of this board, is the turn: the board it left becomes the board.
            state.field.take_from(same[0])
            result = same[1]
            tie = None
    if tie is not None:
        # Issue 13: the default is a seeded draw among the options, not the first unit listed
        # (which would always favour the upper left of the board).
        default = tie.options[state.dice.below(len(tie.options))]
        if state.options.get("ties") == "auto" or state.ep.get("auto_ties"):
            # Option ties=auto: the group has agreed in advance to take the default for every
            # tie the rules hand them (equal-distance targets, equal-damage attacks); no pause.
            state.ep["choices"] = _joined(earlier, default)
            head = tie.prompt.split(":")[0]
            why = "ties=auto" if state.options.get("ties") == "auto" else "the group chose defaults"
            events.append(Event("tie", f"{head} — the default {default}, drawn at random, is taken ({why})."))
            return
        state.pending = {
            "kind": "tie", "minion": mid, "tie_kind": tie.kind, "options": list(tie.options),
            "prompt": tie.prompt, "default": f"choose {default}",
            "decider": tie_decider(state, tie.options),
        }
        return
    order.pop(0)
    state.ep.pop("choices", None)
    # The whole path, from the square it started on (the picture draws every step).
    path = ([square_name(start)] if start is not None and result.moved_path else []) + [
        square_name(p) for p in result.moved_path]
    state.last_moves.append({
        "id": mid, "path": path, "attacked": [square_name(p) for p in result.attacked],
    })
    text = " ".join(result.trace) or f"{mid} does nothing."
    _tally(state, result)
    events.append(Event("enemy", text, data={"id": mid}))
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
            # (The enemy's own line has said so.)
            gain_hex(state, unit.seat)


def _joined(earlier: str, option: str) -> str:
    return f"{earlier};{option}" if earlier else option


def _enemy_turn(field: Battlefield, mid: str, state: IgniteState, content: Content,
                choice: str | None) -> EnemyResult:
    stats = stats_for(state)
    mods = modifiers(state, content)
    if mid == "dragon":
        return enemies.dragon_turn(field, stats[("dragon", 1)], mods, choice=choice)
    return enemies.move_and_attack(field, mid, stats, mods, choice=choice)


def _same_either_way(state: IgniteState, content: Content, mid: str, earlier: str,
                     options: list[str]) -> tuple[Battlefield, EnemyResult] | None:
    """When every answer to a tie leaves the same board (figures, health, damage) and the same
    hexes, nobody is asked: the board after the first answer and that turn's result; else
    None. An answer that leads to a further tie counts as different (what follows it is the
    players' choice too)."""
    first: tuple[Battlefield, EnemyResult] | None = None
    for option in options:
        trial = state.field.copy()
        result = _enemy_turn(trial, mid, state, content, _joined(earlier, option))
        if result.needs_choice is not None:
            return None
        if first is None:
            first = (trial, result)
        elif trial != first[0] or sorted(result.hexed) != sorted(first[1].hexed):
            return None
    return first


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


def _step_end(state: IgniteState, content: Content, events: list[Event]) -> None:
    for m in state.field.minions:
        m.can_act = True
        m.can_attack = True
    # The one picture of this Enemy Phase: spawns, every path and every attack.
    events.append(phase_event(state, "phase", f"{round_name(state.round)}: the Enemy Phase ends."))
    events.append(_summary(state, state.round))
    if state.round < 20:
        state.round += 1
    # The Boss Battle: round 20 repeats until the dragon dies or the loss condition is met.
    # The Round card just resolved stays in view (status, picture) until the next one is drawn.
    state.ep = {k: state.ep[k] for k in ("round_card", "d6") if k in state.ep}
    start_player_phase(state, content, events)


STEPS: dict[str, Callable[[IgniteState, Content, list[Event]], None]] = {
    "start": _step_start,
    "power": _step_power,
    "round_card": _step_round_card,
    "d6": _step_d6,
    "symbols": _step_symbols,
    "draw_symbol": _step_draw_symbol,
    "d20": _step_d20,
    "place": _step_place,
    "order": _step_order,
    "move": _step_move,
    "end": _step_end,
}


def apply_favor(state: IgniteState, content: Content, events: list[Event]) -> None:
    """Spend a divine favor token on the draw or roll the pause is about."""
    pending = state.pending
    assert pending is not None
    state.pending = None
    state.divine_favor -= 1
    step = state.ep["step"]
    if pending["what"] == "roll":
        key = "d6" if step == "symbols" else "d20"
        _reroll(state, content, key, events)
        favor_pause(state, content, "roll", f"The D{6 if key == 'd6' else 20} now shows {state.ep[key]}.")
        return
    old_name = state.ep["last_draw"]
    old = content.effect_card(old_name)
    state.in_effect.remove(old_name)
    (state.power_discard if old.kind == "power" else state.apocalypse_discard).append(old_name)
    if old.shuffle:
        # Divine Favor: a discarded shuffle icon still shuffles before the next Enemy Phase.
        state.shuffle_pending = True
    card = _draw_effect_card(state, content, old.kind)
    events.append(Event("favor", f"Divine favor: {old_name} is discarded and another card is drawn."))
    if card is None:
        return
    state.ep["last_draw"] = card.name
    _reveal(state, card, events)
    favor_pause(state, content, "draw", f"The {card.kind} card drawn is {card.name}.")
