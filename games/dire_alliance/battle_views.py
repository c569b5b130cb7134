"""Battle Mode as people see it: each seat's view (its own hand only), the map in words, the text
status, the hidden zones, and the bot's hooks (a state drawn from what a seat can know; how good a
position is).
"""

from __future__ import annotations

import math

from engine.board_text import Group, Piece, group_line
from engine.dice import Dice
from engine.game import ToAct
from engine.hidden import Zone
from games.dire_alliance import battle, card_texts, rules
from games.dire_alliance.content import load_content
from games.dire_alliance.rules import area_groups
from games.dire_alliance.state import JSON, DAState, card_name, other


def view(state: DAState, seat: str | None, turn: ToAct) -> JSON:
    """Everything public, and `seat`'s own hand: card names only, never serials or deck order.
    Each player's `unseen` (hand and deck together) is what careful counting tells anyone."""
    data = state.to_json()
    del data["dice"]
    c = load_content()
    for col, p in data["players"].items():
        hidden = p["hand"] + p["deck"]
        p["hand_size"], p["deck_size"] = len(p["hand"]), len(p["deck"])
        p["unseen"] = sorted(card_name(x) for x in hidden)
        p["hand"] = list(p["hand"]) if col == seat else None
        del p["deck"]
        for pile in ("discard", "graveyard", "played"):
            p[pile] = [card_name(x) for x in p[pile]]
        p["supply"] = {fid: len(stack) for fid, stack in p["supply"].items()}
        p["claimed"] = rules.claimed(state, col)
        p["faction_name"] = c.faction(p["faction"]).name
    data["dread_pile"] = len(state.dread_pile)
    for key in ("active", "move"):
        if data[key] and data[key].get("card"):
            data[key]["card"] = card_name(data[key]["card"])
    data["seat"] = seat
    data["to_act"] = sorted(turn.seats)
    data["names"] = {fid: c.fighter(fid).name for fid in state.fighters}
    data["board"] = rules.board_view(c)
    data["mode"] = "battle"
    # The game ends after this round; shown from the start (status, picture, round posts).
    data["round_limit"] = c.scenarios[state.scenario].round_limit
    data["claim_to_win"] = c.scenarios[state.scenario].claim_to_win  # drawn in the picture
    return data


def board(view: JSON) -> list[Group]:
    """The map in words, area by area (the areas a screen reader moves through): who stands
    there and which objective lies there; the defeated and the consecrated after."""
    names: dict[str, str] = view["names"]
    pieces: dict[int, list[Piece]] = {}
    for f in view["fighters"].values():
        if not f["defeated"]:
            marks = [f["owner"]] + [m for m in ("stunned", "sated") if f[m]]
            pieces.setdefault(f["area"], []).append(Piece(f"{names[f['id']]} ({', '.join(marks)})"))
    for o in view["objectives"]:
        claimed = f" (claimed by {o['claimed_by']})" if o["claimed_by"] else ""
        pieces.setdefault(o["area"], []).append(Piece(f"{o['owner']} objective{claimed}"))
    groups = area_groups(load_content(), pieces)
    gone = [Piece(names[f["id"]]) for f in view["fighters"].values() if f["defeated"]]
    return groups + ([Group("Defeated", tuple(gone))] if gone else [])


def describe(view: JSON) -> str:
    c = load_content()
    names: dict[str, str] = view["names"]
    lines = []
    if view["result"]:
        r = view["result"]
        lines.append(
            f"Game over: {r['reason']}; " + (f"{r['winners'][0]} wins." if r["winners"] else "a draw.")
        )
    else:
        role = "Aggressor" if view["step"].startswith("A") else "Defender"
        lines.append(
            f"Round {view['round']} of {view['round_limit']}, {role} Turn {view['step'][1]} "
            f"({view['turn']}); initiative: {view['initiative']}; to act: "
            f"{', '.join(view['to_act'])} ({view['phase']})."
        )
    for col, p in view["players"].items():
        lines.append(
            f"**{col}** ({p['faction_name']}, led by {names[p['leader']]}): objectives claimed "
            f"{p['claimed']}; hand {p['hand_size']}, deck {p['deck_size']}, discard "
            f"{len(p['discard'])}, graveyard {len(p['graveyard'])}"
            + (f"; played: {battle.card_names(c, p['played'])}" if p["played"] else "")
            + "."
        )
    lines += [group_line(g) for g in board(view)]
    if view["move"]:
        m = view["move"]
        lines.append(
            f"{names[m['fighter']]} is leaving; opportunity attacks possible from: "
            f"{', '.join(names[a] for a in m['attackers'])}."
        )
    seat = view.get("seat")
    mine = view["players"].get(seat or "", {}).get("hand") if seat else None
    if mine is not None:
        lines.append("Your hand (stand-in cards):" if mine else "Your hand is empty.")
        lines += [f"- {card_texts.fighter_text(c, card_name(x))}" for x in sorted(mine, key=card_name)]
    return "\n".join(lines)


def hidden_zones(state: DAState) -> list[Zone]:
    """Each hand (its owner's) and deck (nobody's)."""
    zones = []
    for seat in state.players:
        zones.append(Zone(f"{seat} hand", ("players", seat, "hand"), frozenset({seat}), seat))
        zones.append(Zone(f"{seat} deck", ("players", seat, "deck"), frozenset(), seat))
    return zones


def secrets(state: DAState, seat: str) -> set[str]:
    return set(state.players[seat].hand) if seat in state.players else set()


def sample_state(view: JSON, seat: str, dice: Dice) -> DAState:
    """A state the seat cannot tell from the real one: its own hand as it is, every other hand
    and every deck drawn from the `unseen` cards, fresh serials, and fresh dice."""
    data = {
        k: v
        for k, v in view.items()
        if k not in ("seat", "to_act", "names", "board", "mode", "round_limit", "claim_to_win")
    }
    data["players"] = {}
    serial = 0

    def cards(names: list[str]) -> list[str]:
        nonlocal serial
        out = []
        for n in names:
            serial += 1
            out.append(f"{n}#s{serial}")
        return out

    for col, p in view["players"].items():
        q = {
            k: v
            for k, v in p.items()
            if k not in ("hand_size", "deck_size", "unseen", "claimed", "faction_name")
        }
        unseen = list(p["unseen"])
        if col == seat:
            hand = list(p["hand"])
            for x in hand:
                unseen.remove(card_name(x))
        else:
            dice.shuffle(unseen)
            hand, unseen = cards(unseen[: p["hand_size"]]), unseen[p["hand_size"] :]
        dice.shuffle(unseen)
        q["hand"], q["deck"] = hand, cards(unseen)
        for pile in ("discard", "graveyard", "played"):
            q[pile] = cards(p[pile])
        q["supply"] = {fid: cards([fid] * n) for fid, n in p["supply"].items()}
        data["players"][col] = q
    data["dread_pile"] = cards(["dread"] * view["dread_pile"])
    for key in ("active", "move"):
        if data[key] and data[key].get("card"):
            data[key] = {**data[key], "card": cards([data[key]["card"]])[0]}
    data["dice"] = dice.below(1 << 62)
    return DAState.from_json(data)


# How many points of lead make a position about 73 % won. Against a weak side the lead soon
# passes 30 points (two claims and the fighters alive); the estimate must still tell a third
# claim nearer from one further off there, or every move looks equally won and the search
# wanders until the round limit.
LEAD_SCALE = 20.0

# Two tempting additions measured worse against random play (same seeds, load about 2, playouts
# of 4 random plies then):
# - A fighter with no card of its own in hand counted a step further from its objective. The
#   estimate then rewarded keeping cards unplayed past the playout's horizon; games took longer
#   (rounds 8.3 on average over 24 games, against 7.5 without).
# - Every fighter the needed claims do not take pulled toward the nearest open objective (0.3 a
#   step). It left its own objectives and fights: 3 of 23 games went to the round-12 count,
#   against none of the same seeds without.
# What the round-12 games showed instead: the last objectives' fighters waited rounds for a card
# of their own (a damaged fighter has few), or a ready enemy stood on each objective left.


def evaluate(state: DAState, seat: str) -> float:
    """Objectives claimed weigh most, then fighters standing and their cards, then how near
    fighters stand to the objectives still needed (each by its own fighter: three claims need
    three fighters on their way; a guarded one is further), a claimable one nearly as good as
    claimed."""
    c = load_content()
    goal = c.scenarios[state.scenario].claim_to_win

    def score(col: str) -> float:
        p = state.players[col]
        claims = rules.claimed(state, col)
        s = 12.0 * claims
        alive = rules.living(state, col)
        s += 3.0 * len(alive) - 1.0 * sum(f.stunned for f in alive)
        s += 0.4 * sum(1 for x in p.hand + p.deck + p.discard + p.played if card_name(x) != battle.DREAD)
        targets = [o.area for o in state.objectives if o.owner != col and o.claimed_by is None]
        # A ready enemy on an objective stops its Control: each is one more step on the way there
        # (it must be stunned, defeated or drawn off first), so the road leads to the open ones.
        guards = {
            t: sum(1 for e in rules.living(state, other(col)) if e.area == t and not e.stunned)
            for t in targets
        }
        pairs = sorted((c.steps[(f.area, t)] + guards[t], f.id, t) for f in alive for t in targets)
        used_f: set[str] = set()
        used_t: set[int] = set()
        for d, fid, t in pairs:
            if len(used_t) >= goal - claims:
                break
            if fid in used_f or t in used_t:
                continue
            used_f.add(fid)
            used_t.add(t)
            f = state.fighters[fid]
            s -= 1.5 * d
            if d == 0 and rules.controllable(state, f) is not None:
                s += 3.0  # it may Control there at its next activation
        return s

    return 1.0 / (1.0 + math.exp(-(score(seat) - score(other(seat))) / LEAD_SCALE))
