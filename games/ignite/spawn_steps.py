"""The Enemy Phase's first steps (Steps 1 and 2): the Power and Apocalypse cards, the Round card,
the D6 and the D20, placing the minions (and the catapult and the Elder Dragon), and the divine
favor pauses on each draw and roll. Each step sets the next one in state.ep["step"] (phases.py
runs them).
"""

from __future__ import annotations

from typing import Any

from engine.game import Event, rules_of
from games.ignite.board import square_name
from games.ignite.content import COLOURS, Content, EffectCard, RoundCard
from games.ignite.enemy_lines import placed_line
from games.ignite.placement import is_bazaar_guardian, place_catapult, place_dragon, place_minions
from games.ignite.rules import DIFFICULTY, round_set
from games.ignite.state import IgniteState, last_actor
from games.ignite.units import BOTTOM_ROW
from games.ignite.views import face_text, round_card_text, round_card_view

# ---- effects and difficulty ----------------------------------------------------------------------


# reading: five-bases-per-colour
# Box Contents: 40 coloured token bases, read as 5 per colour; a colour out of bases is
# replaced by the next level down the Round card (Step 2a note, spawn_list).
BASES_PER_COLOUR = 5


def difficulty(state: IgniteState) -> Any:
    return DIFFICULTY[state.options["difficulty"]]


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
                # reading: ambush-last-drawn
                # Reading: with both Ambush cards in play, the one drawn last decides.
                out[key] = value
    return out


# ---- divine favor --------------------------------------------------------------------------------


def favor_pause(state: IgniteState, content: Content, what: str, detail: str) -> None:
    """Divine Favor: right after a card draw or die roll, while tokens remain, the players may
    spend one. Not asked when spending it could not change anything (issue 13)."""
    if state.options.get("favor_prompts") != "on" or state.divine_favor <= 0:
        return
    if not _favor_matters(state, content, what):
        return
    verb = "favor redraw" if what == "draw" else "favor reroll"
    state.pending = {
        "kind": "divine_favor",
        "what": what,
        "detail": detail,
        "prompt": f"{detail} Spend a divine favor token ({state.divine_favor} left)? `{verb}` or `keep`.",
        "default": "keep",
        # No unit is concerned: the player who acted last decides (issue 13).
        "decider": last_actor(state),
    }


def asked_once(state: IgniteState) -> bool:
    """Rules version 3's default (option favor_asks=once): an Enemy Phase stops for divine favor
    once at most, where a token could spare a unit (favor_worth.screen withdraws any other
    question favor_pause asks). Version 2 asked after every draw and roll a token could change;
    kept so games started before it replay unchanged."""
    return rules_of(state.options) >= 3 and state.options.get("favor_asks", "once") == "once"


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


# reading: favor-rule-once
# Option favor_rule: how the group spends divine favor without being asked (stand-in wording),
# so that a game played over days, with no favor prompts, still uses its tokens where it matters.
# Each rule spends a token at once, unasked, whenever its case comes up and a token is left;
# one token per draw or roll: the new result stands (reading: a rule that rerolled until it
# liked the result would spend every token on one roll, and a group could not foresee it).
# RULE_STANDS: nor is the group asked (favor_prompts=on) about a draw or roll its rule has just
# redone. The rulebook lets tokens be spent again on the same roll, but the group chose the rule
# to answer that roll for them, and its option text promises the new result stands; asking
# again costs a pause and a ping about an answer already given.
FAVOR_RULES = {
    "bottom-rows": "reroll a D20 that places minions in the bottom two rows",
    "largest-group": "reroll a D6 that spawns the Round card's largest enemy group",
    "power-card": "redraw a Power card that has an effect",
}
FAVOR_RULE_CHOICES = ("none", *FAVOR_RULES, "all")


def _rule_says(state: IgniteState, rule: str) -> bool:
    """Whether the group's favor rule (option favor_rule) includes `rule`, with a token to spend."""
    chosen = state.options.get("favor_rule", "none")
    return state.divine_favor > 0 and chosen in (rule, "all")


def _spawns_largest_group(state: IgniteState, content: Content) -> bool:
    """Whether the D6 as rolled spawns the most minions of any face of the Round card (and some
    face spawns fewer, so a reroll can help)."""
    sizes = [sum(n for _, n in g.spawn) for g in current_round_card(state, content).groups]
    rolled = sum(n for _, n in current_round_card(state, content).group(state.ep["d6"]).spawn)
    return rolled == max(sizes) > min(sizes)


def _places_in_bottom_rows(state: IgniteState, content: Content) -> bool:
    """Whether the D20 as rolled would place a minion in the battlefield's two bottom rows."""
    card = current_round_card(state, content)
    spawns = spawn_list(state, content, state.ep.get("spawns", []), card, state.ep.get("d6"))
    placed = place_minions(state.field.copy(), spawns, state.ep["d20"], effects(state, content).get("ambush"))
    return any(m.pos[1] >= BOTTOM_ROW - 1 for m in placed.minions)


def _rule_spent(state: IgniteState, what: str) -> None:
    """The group's favor rule spent a token unasked: the Enemy Phase's one-line summary says so
    and what it changed (`what`), as it names every unit hit, so no token goes unannounced."""
    tally = state.ep.setdefault("tally", {"hit": [], "died": [], "minions": []})
    tally.setdefault("favor", []).append(what)


def _reroll(state: IgniteState, content: Content, key: str, events: list[Event], why: str = "") -> None:
    """Divine Favor: reroll a die (the D6 or the D20) until a different result is rolled."""
    sides = 6 if key == "d6" else 20
    old = new = state.ep[key]
    while new == old:
        new = state.dice.roll(sides)
    state.ep[key] = new
    if why:
        _rule_spent(state, f"D{sides} rerolled {old} → {new}")
    group = f" ({face_text(current_round_card(state, content).group(new))})" if sides == 6 else ""
    because = f" ({why})" if why else ""
    events.append(
        Event(
            "roll",
            f"Divine favor{because}: the D{sides} is rerolled from {old} to {new}{group}.",
            data={"die": sides, "roll": new},
            random=True,
        )
    )


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
    card = _redraw(state, content, events)
    if card is not None:
        favor_pause(state, content, "draw", f"The {card.kind} card drawn is {card.name}.")


def _redraw(state: IgniteState, content: Content, events: list[Event], why: str = "") -> EffectCard | None:
    """Divine Favor: the card just drawn is discarded and another is drawn in its place."""
    old_name = state.ep["last_draw"]
    old = content.effect_card(old_name)
    state.in_effect.remove(old_name)
    (state.power_discard if old.kind == "power" else state.apocalypse_discard).append(old_name)
    if old.shuffle:
        # Divine Favor: a discarded shuffle icon still shuffles before the next Enemy Phase.
        state.shuffle_pending = True
    card = _draw_effect_card(state, content, old.kind)
    if why:
        _rule_spent(state, f"{old_name} redrawn → {card.name if card else 'no card left'}")
    because = f" ({why})" if why else ""
    events.append(
        Event("favor", f"Divine favor{because}: {old_name} is discarded and another card is drawn.")
    )
    if card is None:
        return None
    state.ep["last_draw"] = card.name
    _reveal(state, card, events)
    return card


# ---- cards and dice ------------------------------------------------------------------------------


def _draw_effect_card(state: IgniteState, content: Content, kind: str) -> EffectCard | None:
    deck = state.power_deck if kind == "power" else state.apocalypse_deck
    discard = state.power_discard if kind == "power" else state.apocalypse_discard
    if not deck:
        # reading: decks-reshuffle
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
    events.append(
        Event(
            "card",
            f"{card.kind.title()} card: {card.name}{icon}. {card.text}",
            data={"card": card.name, "kind": card.kind},
            random=True,
            reveals=True,
        )
    )


def step_start(state: IgniteState, content: Content, events: list[Event]) -> None:
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
        events.append(
            Event("shuffle", "A shuffle icon was drawn: the Power cards are shuffled together.", random=True)
        )
    state.last_moves = []
    state.ep = {"step": "power"}


def step_power(state: IgniteState, content: Content, events: list[Event]) -> None:
    card = _draw_effect_card(state, content, "power")
    state.ep["step"] = "round_card"
    if card is None:
        events.append(Event("card", "No Power card is left to draw."))
        return
    _reveal(state, card, events)
    state.ep["last_draw"] = card.name
    if _redrawn_by_rule(state, content, events):
        return  # the new card stands (RULE_STANDS, above)
    favor_pause(state, content, "draw", f"The Power card drawn is {card.name}.")


def _redrawn_by_rule(state: IgniteState, content: Content, events: list[Event]) -> bool:
    """Option favor_rule=power-card: the group agreed in advance to redraw a Power card with an
    effect (when another card could come: _favor_matters), whether Step 1 drew it or a Round
    card's symbol did; True when a token was spent so."""
    if not (_rule_says(state, "power-card") and _favor_matters(state, content, "draw")):
        return False
    state.divine_favor -= 1
    _redraw(state, content, events, f"the group's rule: {FAVOR_RULES['power-card']}")
    return True


def current_round_card(state: IgniteState, content: Content) -> RoundCard:
    return content.rounds[round_set(len(state.seats))][min(state.round, 20) - 1]


def step_round_card(state: IgniteState, content: Content, events: list[Event]) -> None:
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
        events.append(
            Event("round_card", f"{round_card_text(shown)}{first}", reveals=True, detail=asked_once(state))
        )
        if first and asked_once(state):
            events.append(Event("round_card", first.strip()))
        state.ep["step"] = "draw_symbol"
        return
    # With the favor question asked once (asked_once) the D6 is never asked about: the post tells
    # the face rolled, and the whole card is in the trace file, the picture and /game status.
    events.append(Event("round_card", round_card_text(shown), reveals=True, detail=asked_once(state)))
    state.ep["step"] = "d6"


def step_d6(state: IgniteState, content: Content, events: list[Event]) -> None:
    roll = state.dice.roll(6)
    state.ep["d6"] = roll
    group = face_text(current_round_card(state, content).group(roll))
    events.append(
        Event(
            "roll", f"D6 for the enemy group: {roll} ({group}).", data={"die": 6, "roll": roll}, random=True
        )
    )
    state.ep["step"] = "symbols"
    if _rule_says(state, "largest-group") and _spawns_largest_group(state, content):
        # Option favor_rule: the group agreed in advance to spend a token on such a roll.
        state.divine_favor -= 1
        _reroll(state, content, "d6", events, f"the group's rule: {FAVOR_RULES['largest-group']}")
        return  # the new roll stands (RULE_STANDS, above)
    favor_pause(state, content, "roll", f"The D6 shows {state.ep['d6']}.")


def step_symbols(state: IgniteState, content: Content, events: list[Event]) -> None:
    card = current_round_card(state, content)
    group = card.group(state.ep["d6"])
    state.ep["spawns"] = [[c, n] for c, n in group.spawn]
    # Step 2c: the card symbols on the selected group, after any symbol at the top.
    state.ep["queue"] = list(card.top) + list(group.cards)
    state.ep["step"] = "draw_symbol"


def step_draw_symbol(state: IgniteState, content: Content, events: list[Event]) -> None:
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
    # reading: favor-power-card-symbols
    # Version 1 redrew only the Power card of Step 1, never one drawn for a symbol; kept so
    # games started before it replay unchanged.
    if kind == "power" and rules_of(state.options) >= 2 and _redrawn_by_rule(state, content, events):
        return  # the new card stands (RULE_STANDS, above)
    favor_pause(state, content, "draw", f"The {kind} card drawn is {card.name}.")


def step_d20(state: IgniteState, content: Content, events: list[Event]) -> None:
    roll = state.dice.roll(20)
    state.ep["d20"] = roll
    events.append(Event("roll", f"D20 for placement: {roll}.", data={"die": 20, "roll": roll}, random=True))
    state.ep["step"] = "place"
    if _rule_says(state, "bottom-rows") and _places_in_bottom_rows(state, content):
        # Option favor_rule: the group agreed in advance to spend a token on such a roll.
        state.divine_favor -= 1
        _reroll(state, content, "d20", events, f"the group's rule: {FAVOR_RULES['bottom-rows']}")
        return  # the new roll stands (RULE_STANDS, above)
    favor_pause(state, content, "roll", f"The D20 shows {state.ep['d20']}.")


# ---- placing the minions -------------------------------------------------------------------------


def spawn_list(
    state: IgniteState,
    content: Content,
    groups: list[list[Any]],
    card: RoundCard | None = None,
    face: int | None = None,
) -> list[tuple[str, int]]:
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


def step_place(state: IgniteState, content: Content, events: list[Event]) -> None:
    eff = effects(state, content)
    card = current_round_card(state, content)
    spawns = spawn_list(state, content, state.ep.get("spawns", []), card, state.ep.get("d6"))
    placed = place_minions(state.field, spawns, state.ep["d20"], eff.get("ambush"))
    events.append(placed_line(placed.minions))
    # Why each went where: the reasons, kept in the trace file (enemy_lines).
    for line in placed.trace:
        events.append(Event("spawn", line, detail=True))
    if any(is_bazaar_guardian(m.colour, m.level) for m in placed.minions):
        state.bazaar_closed = True
    if eff.get("catapult") and placed.minions:
        # Catapult: placed in front of the last unit placed.
        last = placed.minions[-1]
        pos = place_catapult(state.field, last.id, eff.get("ambush"))
        if pos is not None:
            placed_at = f"A catapult is placed at {square_name(pos)}, pushed by {last.name}."
            events.append(Event("spawn", placed_at))
    card = current_round_card(state, content)
    if card.boss and not state.dragon_spawned:
        state.dragon_spawned = True
        anchor = placed.first_pos or (state.ep["d20"] - 1 if state.ep["d20"] <= 18 else 8, 0)
        pos = place_dragon(state.field, anchor, eff.get("ambush"))
        if pos is not None:
            events.append(Event("spawn", f"The Elder Dragon lands at {square_name(pos)}."))
    events.append(Event("spawned", "The enemies are placed.", detail=True))
    state.ep["step"] = "order"
