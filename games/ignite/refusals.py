"""Why an Ignite move is refused, in the player's terms, and the legal moves close to what was
typed (not the whole list): the same card and unit first, then the same card, then the same verb.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.refusals import close_listing
from engine.refusals import close_moves as nearest
from games.ignite.board import BLOCKING, distance, parse_square, square_name
from games.ignite.cards import (
    attack_range,
    can_shop,
    card_in_hand,
    cost_of,
    move_points,
    own_units,
)
from games.ignite.content import Content
from games.ignite.state import Action, IgniteState


def close_moves(action: Action, legal: list[Action]) -> list[Action]:
    """The legal moves nearest to `action`: the same card played by the same unit; else the
    same card in any way (`honor dagger` for a dagger with nothing in range); else, for a move
    naming no card, the same verb; else none (other cards' moves are not close)."""
    tests: list[Callable[[Action], bool]] = [
        lambda a: a.verb == action.verb and a.card == action.card and a.unit == action.unit,
        lambda a: a.card == action.card,
    ]
    if not action.card:
        tests.append(lambda a: a.verb == action.verb)
    return nearest(legal, *tests)


def explain(state: IgniteState, content: Content, seat: str, action: Action, legal: list[Action]) -> str:
    return _reason(state, content, seat, action) + close_listing(close_moves(action, legal))


def _reason(state: IgniteState, content: Content, seat: str, action: Action) -> str:
    """Why, in one sentence (the most specific reason that applies)."""
    card = content.cards.get(action.card)
    if state.pending is not None:
        return f"`{action}` is not a move now: first, {state.pending['prompt']}"
    if state.phase not in ("free", "player", "placement"):
        return f"`{action}` is not a move now."
    if action.verb == "quick":
        return (
            "The quick start takes only a seat's setup before round 1: placing its units and its "
            "free turns. From round 1 on your turns are your own."
        )
    if action.verb in ("play", "honor") and card is not None:
        if card_in_hand(state, seat, card.name) is None:
            return f"You hold no {card.name} card; /game hand shows your hand."
        if card.effect == "dead":
            return "A Hex card cannot be played, for its effect or for Honor."
    if action.verb == "buy":
        if card is None or action.card not in state.market:
            return f"{action.card} is not in the market; /game market lists it."
        if not can_shop(state, seat):
            return "You can buy only while one of your units stands on a village space (or the open bazaar)."
        if state.market[action.card] <= 0:
            return f"The {action.card} deck is sold out."
        price = cost_of(state, content, action.card)
        if price > state.honor:
            return (
                f"Not enough Honor: {action.card} costs {price}, you have {state.honor} this "
                "turn (`honor <card>` plays a card for its Honor)."
            )
    if action.verb != "play" or card is None:
        return f"`{action}` is not legal now."
    return _play_reason(state, content, seat, action)


def _play_reason(state: IgniteState, content: Content, seat: str, action: Action) -> str:
    card = content.cards[action.card]
    machine = state.field.machine(action.unit) if action.unit else None
    if machine is not None:
        if not machine.built:
            return (
                f"{machine.id} is still a frame; it is finished at the start of {machine.owner}'s next turn."
            )
        if not any(distance(u.pos, machine.pos) == 1 for u in own_units(state, seat)):
            return (
                f"To use or move {machine.id} at {square_name(machine.pos)} one of your units "
                "must stand next to it."
            )
        return f"{machine.id} cannot do that with {card.name}."
    mine = [u.id for u in own_units(state, seat)]
    if card.effect in ("draw", "honor"):
        return f"{card.name} is played on its own: `play {card.name}`."
    if not action.unit:
        return f"{card.name} is played by one of your units: `play {card.name} <unit> ...`."
    if action.unit not in mine:
        return f"`{action.unit}` is not one of your units; yours: {', '.join(mine) or 'none'}."
    unit = state.field.unit(action.unit)
    if card.effect in ("shield", "ring"):
        return f"{card.name} names no square: `play {card.name} {unit.id}`."
    if not action.square:
        return f"{card.name} needs a square: `play {card.name} {unit.id} <square>`."
    target = parse_square(action.square)
    far = distance(unit.pos, target)
    if card.effect == "move":
        points = move_points(state, content, seat, card)
        if state.field.terrain_at(target) in BLOCKING:
            # Rock is no figure: "occupied" read as if someone stood there (issue 39).
            what = state.field.terrain_at(target)
            return f"{action.square} is {what}, an immovable object: no figure can walk onto it."
        if state.field.occupied(target):
            return f"{action.square} is occupied; a move ends on a free space."
        return (
            f"{action.square} is out of reach for {unit.id} ({far} away; {card.name} moves "
            f"up to {points}, snow costs 2, minions and rock block the way)."
        )
    lo, hi = attack_range(content, seat, card)
    if card.effect in ("attack", "immobilize", "afflict", "heal"):
        if card.effect == "heal":
            return f"{card.name} heals a wounded unit next to {unit.id} (range 1)."
        if not lo <= far <= hi:
            return (
                f"No target in range: {action.square} is {far} away from {unit.id}; "
                f"{card.name} reaches {lo}-{hi}."
            )
        if state.field.terrain_at(target) == "forest" and not card.fire:
            return (
                f"{action.square} is in a forest: only fire reaches a figure there, and "
                f"{card.name} is no fire."
            )
        return f"There is no enemy on {action.square} for {card.name}."
    if card.effect == "build":
        return f"{card.name} builds on a free space next to {unit.id} (not lava, scorched earth or rock)."
    return f"`{action}` is not legal now."
