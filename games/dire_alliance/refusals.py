"""Why a Battle Mode move is refused, in the player's terms (the target is not in the fighter's
area, out of its sight, the area is not next to it...), and the legal moves close to what was
typed: the same fighter doing the same thing, then the same fighter, then the same action."""

from __future__ import annotations

from engine.refusals import close_listing, close_moves
from engine.words import a
from games.dire_alliance import rules
from games.dire_alliance.battle import DREAD
from games.dire_alliance.content import Content, Special
from games.dire_alliance.rules import area_name, title
from games.dire_alliance.state import DAState, Fighter, card_name

PHASE_NEED = {
    "play": "choose two cards from your hand to play",
    "activate": "activate a played card's fighter (or claim initiative as the defender)",
    "special": "choose the next step of the special action, or skip it",
    "opportunity": "make an opportunity attack with a ready fighter, or allow the move",
}


def explain(state: DAState, content: Content, seat: str, action: str, legal: list[str]) -> str:
    """The reason, then the close legal moves (or, if none is close, the phase's moves)."""
    reason = _reason(state, content, seat, action)
    near = _close(state, action, legal)
    if near:
        return reason + close_listing(near)
    sample = ", ".join(legal[:8])
    more = f" … ({len(legal)} in all; /game moves lists them)" if len(legal) > 8 else ""
    return f"{reason} Legal moves: {sample}{more}." if legal else reason


def _close(state: DAState, action: str, legal: list[str]) -> list[str]:
    words = action.split()
    if state.phase == "special" or len(words) < 2:
        # A step of a special action names no fighter: `melee butcher`, `move 6`.
        return close_moves(legal, lambda m: m.split()[0] == words[0])
    return close_moves(
        legal,
        lambda m: m.split()[:2] == words[:2],
        lambda m: m.split()[0] == words[0],
        lambda m: m.split()[1:2] == words[1:2],
    )


def _reason(state: DAState, content: Content, seat: str, action: str) -> str:
    """The most specific reason that applies, in one sentence."""
    fallback = f"`{action}` is not legal now: {PHASE_NEED.get(state.phase, 'the game is over')}."
    words = action.split()
    if seat != state.turn and state.phase != "opportunity":
        return f"`{action}` is not legal now: it is {state.turn}'s turn."
    if state.phase == "special" and state.active is not None and words:
        f = state.fighters[state.active.fighter]
        return _reach(state, content, f, words[0], words[1:]) or fallback
    if state.phase != "activate" or len(words) < 2 or words[0] not in state.fighters:
        return fallback
    name = words[0]
    who = title(content, name)
    played = sorted({card_name(c) for c in state.players[seat].played})
    if name not in played:
        if state.fighters[name].owner != seat:
            return f"{who} is not one of your fighters."
        shown = ", ".join(title(content, n) if n != DREAD else "a dread card" for n in played)
        return f"{who}'s card is not among your played cards (played: {shown or 'none'})."
    f = state.fighters[name]
    special = next((sp for sp in content.fighter(name).specials if sp.id == words[1]), None)
    if special is not None:
        return _special_reason(content, f, special, action)
    return _reach(state, content, f, words[1], words[2:]) or fallback


def _special_reason(content: Content, f: Fighter, special: Special, action: str) -> str:
    """`hypnotist beguile` refused: the special is the fighter's, but what it does cannot be
    done now — a part only a sated fighter does while it is not sated, and none of the rest."""
    who = title(content, f.id)
    said = f"`{action}` is not allowed now: {special.name} is {who}'s special (“{special.text}”)"
    needs_sated = [s for s in special.steps if s.when == "sated"]
    if needs_sated and not f.sated:
        rest = ", and the rest of it cannot be done now" if len(needs_sated) < len(special.steps) else ""
        return f"{said}; {who} is not sated{rest}."
    return f"{said}; none of it can be done now."


def _reach(state: DAState, content: Content, f: Fighter, verb: str, args: list[str]) -> str | None:
    """Why `f` cannot `verb` what `args` name: a target not in its area, out of its sight, an
    area not next to its own; None when the reason is not one of reach."""
    who = title(content, f.id)
    here = area_name(content, f.area)
    if verb in ("move", "withdraw") and args and args[0].isdecimal():
        to = int(args[0])
        nexts = content.neighbours(f.area)
        if to not in nexts:
            options = ", ".join(area_name(content, n) for n in nexts)
            return (
                f"Area {area_name(content, to)} is not next to {who}'s area {here}: {a(verb)} goes "
                f"into an adjacent area ({options})."
            )
        return None
    if verb not in ("melee", "shoot") or not args or args[0] not in state.fighters:
        return None
    target = state.fighters[args[0]]
    them = title(content, target.id)
    there = area_name(content, target.area)
    if target.owner == f.owner:
        return f"{them} is on your side: {who} attacks enemy fighters only."
    if target.defeated:
        return f"{them} is defeated already."
    stats = content.fighter(f.id)
    if verb == "melee":
        if stats.melee <= 0:
            return f"{who} has no melee attack."
        if target.area != f.area:
            return (
                f"{them} is in area {there}, not in {who}'s area {here}: a melee attack reaches "
                "enemies in the attacker's own area only."
            )
        return None
    if stats.shoot <= 0:
        return f"{who} has no ranged attack."
    if target.area == f.area:
        return f"{them} shares {who}'s area {here}: shooting reaches other areas; attack it in melee."
    if not rules.sees(content, f, target.area):
        return (
            f"{them} in area {there} is out of {who}'s sight from area {here}: a black line "
            "crosses the line between the two areas."
        )
    return None
