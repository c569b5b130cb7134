"""The Suggest button's line of why in Ignite's words: a card played on the only minion its unit
can reach with it, or on a minion already hurt; a purchase (the race's plan card, or the kind it
owns fewest of), a card turned into Honor (what that Honor is for), a step (out of enemy reach,
onto a village to shop) and the end of a turn. Read from the board, the market and the seat's own
cards, so a re-deal of the hidden cards leaves it unchanged. Any other move keeps the engine's
own why (None)."""

from __future__ import annotations

from engine.errors import NotationError
from engine.words import count
from games.ignite import bot, quick_start
from games.ignite.board import parse_square
from games.ignite.cards import can_shop
from games.ignite.content import Content, load_content
from games.ignite.state import Action, IgniteState


def why(state: IgniteState, action: Action, legal: list[Action]) -> str | None:
    content = load_content()
    seat = state.seats[state.turn] if state.pending is None else ""
    if seat and action.verb == "buy" and action.card in content.cards:
        plan = quick_start.plan_of(content, seat)
        if action.card in plan.cards:
            return f"buy {action.card}: your race's plan card ({plan.purpose})."
        return f"buy {action.card}: of the cards your Honor reaches, the kind you own fewest of."
    if seat and (action.verb == "honor" or _raises_honor(content, action)):
        want = bot.wanted_now(state, content, seat)
        if want is not None:
            return f"{action.verb} {action.card}: its Honor goes toward {want[0]} ({want[1]} Honor)."
    if seat and action.verb == "end" and state.phase == "placement":
        return "end your placement: your units keep the spread along the bottom village's row."
    if seat and action.verb == "end":
        return "end the turn: no card left in hand is worth playing now (the hand is discarded anyway)."
    if seat and action.verb == "play" and action.card in content.cards:
        card = content.cards[action.card]
        if card.effect == "draw":
            return f"play {action.card}: more cards first, one may be the attack or the step this turn needs."
        if card.effect == "move" and action.unit and action.square:
            return _step(state, content, seat, action)
    if action.verb != "play" or not action.square:
        return None
    try:
        minion = state.field.minion_at(parse_square(action.square))
    except NotationError:
        return None
    if minion is None:
        return None
    targets = {a.square for a in legal if (a.verb, a.card, a.unit) == ("play", action.card, action.unit)}
    reached = [s for s in targets if _minion_square(state, s)]
    head = f"play {action.card} with {action.unit} on {minion.name} at {action.square}"
    if len(reached) == 1:
        return f"{head}: it is the only minion {action.unit} can reach with {action.card}."
    if minion.damage:
        return f"{head}: it is hurt already ({minion.damage} damage), so it falls sooner."
    return None


def _minion_square(state: IgniteState, square: str) -> bool:
    try:
        return state.field.minion_at(parse_square(square)) is not None
    except NotationError:
        return False


def _raises_honor(content: Content, action: Action) -> bool:
    return (
        action.verb == "play"
        and action.card in content.cards
        and content.cards[action.card].effect == "honor"
    )


def _step(state: IgniteState, content: Content, seat: str, action: Action) -> str:
    """A unit's step, by what it changes: the enemies that reach it, or the shop it opens."""
    head = f"move {action.unit} to {action.square} ({action.card})"
    to = parse_square(action.square)
    threats = bot.threats_of(state, content)
    where = {u.id: u.pos for u in state.field.units}
    before = bot.exposures(state, where, threats).get(action.unit, 0)
    after = bot.exposures(state, {**where, action.unit: to}, threats).get(action.unit, 0)
    if after < before:
        return f"{head}: it steps out of reach of {count(before - after, 'enemy')}."
    if not can_shop(state, seat) and bot.shop_square(state, to):
        return f"{head}: from there your Honor can buy cards."
    if after == 0:
        return f"{head}: no enemy reaches it there next Enemy Phase."
    return f"{head}: of the squares it can reach, the one fewest enemies reach ({after})."
