"""Raid Mode as people see it: who acts, each seat's view (its own hand only), the text status.

Face-down cards in an action row and every hand are hidden from the other seats; the villain
deck's order from everyone.
"""

from __future__ import annotations

import copy

from engine import rules_of
from engine.board_text import Group, Piece, group_line
from engine.dice import Dice
from engine.game import ToAct
from engine.hidden import Zone
from engine.words import count
from games.dire_alliance import notation, raid_cards, raid_combat, raid_core, raid_villain, rules
from games.dire_alliance.card_texts import held_card_text
from games.dire_alliance.content import Content, load_content
from games.dire_alliance.rules import area_groups, area_name
from games.dire_alliance.state import JSON, Hero, RaidState, card_name


def to_act(state: RaidState) -> ToAct:
    seats = frozenset(raid_core.to_act(state))
    p = state.pending
    if p is not None and p["kind"] == "tie":
        # A tie the rules hand the players: any hero may answer; the first option when none does,
        # named as the options are (`choose Shambler #7`), never by the minion's id.
        default = notation.raid_words(load_content(), state, f"choose {p['default']}")
        return ToAct(seats, decision="tie", prompt=p["prompt"], default=default)
    if p is not None:
        # A hero's own pause (boost before the dice, which card to lose): its answers name the
        # hand, so they stay on the hero's private menu, but the channel reads what is asked, and
        # what happens if nobody answers in time: no boost; the card the search finds first.
        default = f"lose {p['default']}" if p["kind"] == "lose" else str(p["default"])
        return ToAct(seats, prompt=p["prompt"], default=default, default_text=p.get("default_text", ""))
    if state.gains:
        # reading: gain-unanswered
        # Gaining Cards is the hero's own choice, asked with a deadline like a hero's other pauses
        # (reading: nobody answering gains nothing, as nobody answering a boost boosts nothing;
        # the table is never handed a card the hero did not pick).
        name = raid_core.hero_name(load_content(), state, state.gains[0])
        return ToAct(seats, prompt=GAIN_PROMPT, default="gain none", default_text=f"{name} gains no card")
    return ToAct(seats)


# Gaining Cards, said where it happens (the move menu lists the supply's cards).
GAIN_PROMPT = "An enemy was defeated: its hero gains one card from the hero's supply (or `gain none`)."


def secrets(state: RaidState, seat: str) -> set[str]:
    h = state.heroes.get(seat)
    if h is None:
        return set()
    return set(h.hand) | {r.card for r in h.row if not r.up}


def hidden_zones(state: RaidState) -> list[Zone]:
    """Each hero's hand and face-down action-row cards (its own), its deck (nobody's: cards of
    one pool, since a hero's cards could have traded places for all the others know), and the
    villain deck (nobody's)."""
    zones = [Zone("villain deck", ("villain", "deck"), frozenset(), "villain")]
    for seat, h in state.heroes.items():
        mine = frozenset({seat})
        zones.append(Zone(f"{seat} hand", ("heroes", seat, "hand"), mine, seat))
        zones.append(Zone(f"{seat} deck", ("heroes", seat, "deck"), frozenset(), seat))
        for i, r in enumerate(h.row):
            if not r.up:
                zones.append(Zone(f"{seat} row {i}", ("heroes", seat, "row", i, "card"), mine, seat))
    return zones


# Playing a card face down names it in the notation (`brace down`, `brace move 3`): the table is
# told only that a card went down, and the basic action it buys.
_FACE_DOWN = ("down", "move", "melee", "shoot", "rest", "interact")


def public_text(state: RaidState, seat: str, action: str) -> str:
    """The whole public line of a face-down play, with what it names in the players' words (the
    villain's name, a minion's, the area, the card healed), so the play's own event need not say
    it again."""
    words = action.split()
    if words == ["melee-all"]:
        # The notation is no word the table says; the attack's own event names every target.
        return "attacks every enemy in its area"
    if len(words) < 2 or words[1] not in _FACE_DOWN:
        return action
    verb, rest = words[1], " ".join(words[2:])
    if verb in ("down", "interact"):
        return "plays a card face down" + ("" if verb == "down" else " to interact")
    c = load_content()
    if verb == "move":
        return f"plays a card face down to move to {area_name(c, int(rest))}"
    if verb == "rest":
        return (
            f"plays a card face down to rest, healing {raid_core.card_def(c, state.heroes[seat], rest).name}"
        )
    target = c.raid.villain.name if rest == raid_core.VILLAIN else rest
    return f"plays a card face down to {verb} {target}"


def view(state: RaidState, seat: str | None, turn: ToAct) -> JSON:
    c = load_content()
    data = state.to_json()
    for key in ("dice", "enemy"):
        del data[key]
    for s, h in data["heroes"].items():
        hero = state.heroes[s]
        h["hand_size"], h["deck_size"] = len(hero.hand), len(hero.deck)
        # What counting tells anyone: the names in hand, deck and face-down row together, sorted.
        h["unseen"] = sorted(
            card_name(x) for x in [*hero.hand, *hero.deck, *(r.card for r in hero.row if not r.up)]
        )
        h["hand"] = [card_name(x) for x in hero.hand] if s == seat else None
        del h["deck"]
        for pile in ("discard", "damage"):
            h[pile] = [card_name(x) for x in h[pile]]
        h["supply"] = {k: len(v) for k, v in hero.supply.items()}
        h["row"] = [{"card": card_name(r.card) if r.up or s == seat else None, "up": r.up} for r in hero.row]
        h["stats"] = {st: raid_core.hero_stat(c, hero, st) for st in raid_core.STATS}
        h["name"] = c.hero(hero.hero).name
        h["danger"] = raid_cards.public_danger(state, c, hero)  # one hit from death: why, else None
        h["class_name"] = c.hero_class(hero.klass).name
    v = data["villain"]
    v["deck_size"] = len(state.villain.deck)
    v["unseen"] = sorted(state.villain.deck)  # the cards left are public; their order is not
    del v["deck"]
    v["stats"] = {st: raid_core.villain_stat(c, state, st) for st in raid_core.STATS}
    # What its defence rolls: with the die more from half its wounds (raid_villain.hardened).
    v["stats"]["defence"] = raid_combat.defence_dice(state, c, raid_core.VILLAIN)
    v["hardened"] = raid_villain.hardened(state, c)
    v["ward_left"] = raid_villain.ward_left(state, c)  # Grave Ward: wounds it may take this round
    if c.raid.villain.star is not None:
        v["star_dice"] = raid_villain.star_dice(state, c)  # what its ★ rolls now
    v["name"] = c.raid.villain.name
    if state.active is not None:
        data["active"]["card"] = state.active.card
    data["bag"] = len(state.bag())  # the bag's minions are in `minions` with no area
    data["names"] = {i: raid_core.enemy_name(c, state, i) for i in state.minions} | {
        raid_core.VILLAIN: c.raid.villain.name
    }
    data["names"] |= {s: c.hero(h.hero).name for s, h in state.heroes.items()}
    # Each minion's token on the map: its rank's initial and its number, written as its name
    # writes it ("S#7": Shambler #7). Kept apart from `minions`, whose entries are the state's own.
    words = notation.minion_words(c, state)
    data["labels"] = {i: f"{w[0]}#{w.rpartition('#')[2]}" for i, w in words.items()}
    data["board"] = rules.board_view(c)
    data["mode"] = "raid"
    data["claim_to_lose"] = c.raid.scenario.claim_to_lose  # what ends the game, drawn in the picture
    data["seat"] = seat
    data["to_act"] = sorted(turn.seats)
    if state.pending is not None:
        data["pending"] = {k: state.pending[k] for k in ("kind", "seats", "prompt")}
    return data


def describe(view: JSON) -> str:
    c = load_content()
    v = view["villain"]
    lines = []
    if view["result"]:
        r = view["result"]
        lines.append(f"Game over: {r['reason']}; the heroes {'win' if r['winners'] else 'lose'}.")
    else:
        phase = {"act": "Heroes Act", "react": "Heroes React", "enemy": "enemy phase"}[view["phase"]]
        # The heroes by name, with the seat the players took (what the lobby and pings call them).
        acting = ", ".join(f"{view['names'].get(s, s)} ({s})" for s in view["to_act"])
        lines.append(f"Round {view['round']}, {phase}; to act: {acting or 'nobody'}.")
        # What ends the game, shown from the start.
        claimed = sum(o["claimed"] for o in view["objectives"])
        lines.append(
            f"The heroes win by defeating the villain; they lose if a hero dies, the enemies claim "
            f"{count(c.raid.scenario.claim_to_lose, 'objective')} ({claimed} so far) or the villain deck "
            f"({v['deck_size']} left) runs out."
        )
    if view.get("pending"):
        lines.append(view["pending"]["prompt"])
    lines += [_hero_line(c, seat, h) for seat, h in view["heroes"].items()]
    # The defence shown is what it rolls: said why, next to it, when that is more than printed.
    hardened = v.get("hardened", 0)
    why = {"defence": f" ({count(hardened, 'die')} more since it took half its wounds)"} if hardened else {}
    vs = " ".join(f"{k} {v['stats'][k]}{why.get(k, '')}" for k in raid_core.STATS)
    star = c.raid.villain.star
    if star and "★" in vs:
        vs += f" (★ {star.name}: {count(v['star_dice'], 'die')} now; {star.text})"
    ward = ""
    if v.get("ward_left") is not None and c.raid.villain.wrath is not None:
        through = count(v["ward_left"], "more wound") if v["ward_left"] else "no more wounds"
        ward = f"; {c.raid.villain.wrath.ward}: it takes {through} this round"
    lines.append(
        f"**{v['name']}** in {area_name(c, v['area'])}: wounds {v['wounds']} of {v['health']}{ward}; {vs}; "
        f"villain deck {v['deck_size']}" + (f"; action row: {', '.join(v['row'])}" if v["row"] else "") + "."
    )
    lines += [group_line(g) for g in board(view)]
    lines.append(f"Minion bag: {view['bag']}.")
    lines += _hand_lines(view)
    return "\n".join(lines)


def hand_text(view: JSON) -> str:
    """`/game hand`: the seat's own hero and its hand, not the whole table (3 or 4 heroes' status
    and the board would push a 4-card hand into a file)."""
    c = load_content()
    seat = str(view.get("seat"))
    if seat not in view["heroes"]:
        return describe(view)
    own = _hero_line(c, seat, view["heroes"][seat]).removeprefix(f"**{seat}** ")  # the host names the seat
    return "\n".join([own, *_hand_lines(view)])


def _hero_line(c: Content, seat: str, h: JSON) -> str:
    st = h["stats"]
    # Cards as printed ("Charge (face up)"); a face-down card is named only to its hero.
    hero = Hero(seat, h["hero"], h["klass"], h["area"])
    row = ", ".join(
        (raid_core.card_def(c, hero, r["card"]).name if r["card"] else "a card")
        + (" (face up)" if r["up"] else " (face down)")
        for r in h["row"]
    )
    stat = " ".join(f"{k} {'—' if st[k] is None else st[k]}" for k in raid_core.STATS)
    return (
        f"**{seat}** {h['name']} ({h['class_name']}) in {area_name(c, h['area'])}"
        f"{' (dead)' if h['defeated'] else ''}: {stat}; hand {h['hand_size']}, deck {h['deck_size']}, "
        f"discard {len(h['discard'])}, damage {len(h['damage'])}"
        + (f"; action row: {row}" if row else "")
        + ("; stopped" if h["stopped"] else "")
        + "."
        + (f" ⚠ One hit from death: {h['danger']}." if h.get("danger") else "")
    )


def _hand_lines(view: JSON) -> list[str]:
    """The seat's own hand, each card with its text; nothing for a view with no hand in it."""
    c = load_content()
    seat = str(view.get("seat"))
    if seat not in view["heroes"] or view["heroes"][seat]["hand"] is None:
        return []
    h = view["heroes"][seat]
    hero = Hero(seat=seat, hero=_hero_id(c, h["name"]), klass=h["klass"], area=h["area"])
    mine = h["hand"]
    return ["Your hand (stand-in cards):" if mine else "Your hand is empty."] + [
        f"- {held_card_text(c, hero, n)}" for n in sorted(mine)
    ]


def board(view: JSON) -> list[Group]:
    """The map in words, area by area: heroes, the villain, minions and objectives."""
    c = load_content()
    names: dict[str, str] = view["names"]
    pieces: dict[int, list[Piece]] = {}
    for seat, h in view["heroes"].items():
        if not h["defeated"]:
            near = ", one hit from death" if h.get("danger") else ""
            pieces.setdefault(h["area"], []).append(Piece(f"{h['name']} ({seat}, {h['class_name']}{near})"))
    v = view["villain"]
    pieces.setdefault(v["area"], []).append(Piece(f"{v['name']} (the villain)"))
    for i, m in view["minions"].items():
        if m["area"] is not None:
            pieces.setdefault(m["area"], []).append(Piece(names[i]))
    for o in view["objectives"]:
        if not o["removed"]:
            claimed = " (claimed)" if o["claimed"] else ""
            pieces.setdefault(o["area"], []).append(Piece(f"{o['colour']} objective{claimed}"))
    groups = area_groups(c, pieces)
    gone = [Piece(f"{o['colour']} objective (consecrated)") for o in view["objectives"] if o["removed"]]
    dead = [Piece(f"{h['name']} ({seat})") for seat, h in view["heroes"].items() if h["defeated"]]
    groups += [Group("Out of play", tuple(gone + dead))] if gone or dead else []
    return groups


def _hero_id(c: Content, name: str) -> str:
    return next(h.id for h in c.raid.heroes if h.name == name)


def sample_state(view: JSON, seat: str, dice: Dice) -> RaidState:
    """A state `seat` cannot tell from the real one (engine.search_bot): its own hand and face-down
    cards as they are; every other hero's hand, face-down cards and deck, and the villain deck's
    order, drawn from what counting leaves; fresh serials and fresh dice."""
    drop = ("seat", "to_act", "names", "labels", "board", "mode", "bag", "pending", "claim_to_lose")
    data = {k: v for k, v in view.items() if k not in drop}
    serial = 0

    def cards(names: list[str]) -> list[str]:
        nonlocal serial
        out = []
        for n in names:
            serial += 1
            out.append(f"{n}#s{serial}")
        return out

    heroes = {}
    for s, h in view["heroes"].items():
        unseen = list(h["unseen"])
        q = {
            k: v
            for k, v in h.items()
            if k not in ("hand_size", "deck_size", "unseen", "stats", "name", "class_name", "danger")
        }
        if s == seat:
            hand = list(h["hand"])
            for x in hand + [r["card"] for r in h["row"] if not r["up"]]:
                unseen.remove(x)
            row = [{"card": cards([r["card"]])[0], "up": r["up"]} for r in h["row"]]
        else:
            dice.shuffle(unseen)
            row = []
            for r in h["row"]:
                name = r["card"] if r["up"] else unseen.pop()
                row.append({"card": cards([name])[0], "up": r["up"]})
            hand, unseen = unseen[: h["hand_size"]], unseen[h["hand_size"] :]
        dice.shuffle(unseen)
        q["hand"], q["deck"], q["row"] = cards(hand), cards(unseen), row
        q["discard"], q["damage"] = cards(h["discard"]), cards(h["damage"])
        q["supply"] = {k: cards([k] * n) for k, n in h["supply"].items()}
        heroes[s] = q
    data["heroes"] = heroes
    drop_v = ("deck_size", "unseen", "stats", "name", "star_dice", "hardened", "ward_left")
    v = {k: x for k, x in view["villain"].items() if k not in drop_v}
    deck = list(view["villain"]["unseen"])
    dice.shuffle(deck)
    v["deck"] = deck
    data["villain"] = v
    data["enemy"] = None
    data["dice"] = dice.below(1 << 62)
    return RaidState.from_json(copy.deepcopy(data))


# How much felling the villain weighs against the rest. Rules version 3's villain holds out for 4
# rounds at least (its Grave Ward) and the deck gives 7 (9 from rules 4 at `standard`): a hero
# who tends objectives and rests instead of wounding it runs out of rounds, so its wounds weigh
# more there. Measured with bench/raid_bench.py at 30 iterations, two search heroes on their own:
# at 0.9 they dealt it 0-2 wounds in 7 rounds; at 1.2 with the way to it weighed too, 2-4 (the
# bench's strong hero also takes every attack on it in reach, and wins 35 %).
WOUND_WEIGHT, WARDED_WOUND_WEIGHT = 0.45, 1.2
# And the way to it: the villain walks to the objectives, a hero who does not follow never wounds it.
NEAR_WEIGHT, WARDED_NEAR_WEIGHT = 0.012, 0.04


def evaluate(state: RaidState) -> float:
    """How the heroes stand, 0 to 1 (every seat shares it), as a good player weighs it: the villain's
    wounds most (focus it), then the objectives the enemies have claimed against those taken out
    of play (consecrate), then the cards the heroes have lost (do not exert without need), the
    minions on the board, and how near the heroes stand to the villain."""
    c = load_content()
    v = state.villain
    goal = c.raid.scenario.claim_to_lose
    claimed = sum(o.claimed for o in state.objectives)
    removed = sum(o.removed for o in state.objectives)
    lost = sum(len(h.damage) for h in state.heroes.values())
    left = min(len(h.hand) + len(h.deck) + len(h.discard) for h in state.heroes.values())
    # A hero dies when it has no card left with the damage icon of the attacker's rank: the
    # villain's, the rarest icon, is what keeps it alive against the villain.
    rank = c.raid.villain.rank
    guard = min(
        sum(1 for x in h.hand + h.deck + h.discard if rank in raid_core.card_def(c, h, card_name(x)).damage)
        for h in state.heroes.values()
    )
    minions = sum(1 for m in state.minions.values() if m.area is not None)
    heroes = [h for h in state.heroes.values() if not h.defeated]
    near = sum(c.steps[(h.area, v.area)] for h in heroes) / max(len(heroes), 1)
    warded = rules_of(state.options) >= 3
    score = (
        0.45
        + (WARDED_WOUND_WEIGHT if warded else WOUND_WEIGHT) * v.wounds / v.health
        - 0.3 * claimed / goal
        + 0.06 * removed
        - 0.04 * lost
        + 0.01 * min(left, 8)
        + 0.04 * min(guard, 3)
        - 0.008 * minions
        - (WARDED_NEAR_WEIGHT if warded else NEAR_WEIGHT) * near
    )
    return min(1.0, max(0.0, score))
