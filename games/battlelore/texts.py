"""What BattleLore says in words: /game help, a seat's join line, any card's whole text, what a
legal move does (for the mover's private menu), and a seat's own cards for /game hand.

Every text a player sees that stands in for a printed card or the absent core rulebook says so.
"""

from __future__ import annotations

from collections import Counter

from engine.board_text import Group, Piece
from engine.errors import IllegalAction
from engine.game import rules_of
from engine.teaching import Teaching
from engine.words import article, count
from games.battlelore.board import distance, is_hex, section_for
from games.battlelore.content import Content, UnitDef, load_content
from games.battlelore.rules import card, dice_count
from games.battlelore.setup import DECOY, must_spend, purchases
from games.battlelore.state import JSON, SEATS, Action, State
from games.battlelore.turn import section_words
from games.battlelore.views import build_view

BLURB = (
    "Daqan Lords against Uthuk Y'llan on a hex board, with the Great Dragon: the scenario Into the "
    "Fire, or a standard game with drafted dragons. Stand-in core rules and cards."
)


def teaching() -> Teaching:
    """`/game help game:battlelore`: win and turn first, then moves, the setup, readings, stand-ins."""
    c = load_content()
    dragon = c.units["great-dragon"]
    r = c.rules
    return Teaching(
        win=(
            "Daqan Lords (bottom) against Uthuk Y'llan (top) on a hex board; each unit is a block "
            "of figures that falls when its last figure does.",
            "Standard game: first to 16 victory points (VP), from banners held at the end of your "
            "turn and hoards plundered, or destroy the enemy army.",
            "Into the Fire: overpower the dragon, then hold its hoard at the start of your turn "
            "(or overpower it while it sits on its hoard).",
        ),
        turn=(
            "Play lore cards first if you like (they cost lore tokens).",
            "Play one command card: it says in which part of the board, and how many units, you may order.",
            "Ordered units move, then ordered units attack: dice faces (strike, cleave, pierce, "
            "morale, lore, heroic) wound, make the target retreat, or give lore, by the unit.",
            "End by gaining lore tokens or drawing a lore card; you draw a command card back.",
        ),
        commands=(
            "Setup: `quick` (offered first) takes the suggested setup for the rest of yours, each "
            "step told with its reason. Or choose: `scenario <card>` (standard game), `draft "
            "great-dragon` or `pass`, then `army <name>` or `muster <unit>`, lore swaps `swap <deck "
            "card>` then `swap <deck card> <available card>`, `done`; `deploy <card>` then `deploy "
            "<card> <hex>` (`flank <left|centre|right>` shows another flank's hexes) or `deploy "
            "auto`, `done`; `discard <card>` down to your hand size.",
            "Your turn: `lore <card> [hex]`, `command <card>`, `order <hex>`…, `done`, "
            "`return <dragon hex> <hoard hex>`, `move <from> <to>`…, `done`, `attack <from> <to>` "
            "(or `attack <from> <to> nowhere-to-run <supporting hex>`), `done`, then `gain lore` "
            "or `draw lore`. A step with nothing left but `done` ends by itself.",
            "Decisions: `target <hex>`, `reroll` (one Mighty result at a time) or `keep`, `breath <hex>`, "
            "`redeploy <hex>`; the default is taken when nobody answers in time.",
            "Hexes are named by column letter and row number (`e5`; row 1 is the Daqan edge); "
            "`/game card name:<card or word>` explains "
            "any unit, card, scenario, terrain or marker (`/game card name:hoard`).",
        ),
        more=(
            (
                "The Great Dragon",
                "Up to five lore cards may be swapped in secretly before the battle (two copies of a "
                "name at most). Standard games draft neutral units: the first player one, the "
                "opponent up to two, then one each; two passes in a row end the draft. Into the "
                "Fire's dragon is nobody's: the opponent of the unit it fights plays it, it breathes "
                "fire, and in each VP step it moves to the next free yellow hex (1–4) and must "
                "attack. Every eliminated unit there comes back at once on a free deployment hex.",
            ),
        ),
        readings={
            "mustering-open": "Mustering is open (the log shows `muster` and `draft` moves); what stays "
            "hidden is "
            "the drawn scenario cards, which deployment card lies where (decoys included), hands, "
            "and lore swaps.",
            "retreat-not-a-move": "A retreat is not a move: a unit retreating into an inferno marker takes "
            "no damage from it. "
            "A Flying unit retreats on through hoard hexes and inferno markers.",
            "flame-breath-must": "Flame Breath cannot be declined: each heroic result deals its 1 damage "
            "next to the target "
            "(`flame_breath=must`, the default); with `flame_breath=may` its player may pass.",
            "weak-cleave": "Cleave does not count against a weak target (`weak_cleave=target`, the "
            "default) or for "
            "a weak attacker (`weak_cleave=attacker`).",
            "great-dragon-card": dragon.reading,
            "lone-figure-never-weak": "A unit of one large figure, like the Great Dragon, is never weak: "
            "only a unit that started with more figures can be down to one.",
            "forest-cap-either-side": "The forest's limit of 2 dice applies when either the attacker or its "
            "target stands in the forest (a Flying unit ignores the hex it is in).",
            "sight-along-edge": "A line of sight running exactly along the edge between a blocking hex and "
            "an open one is not blocked.",
            "draft-pass": 'In the draft, taking only one unit on an "up to two" turn is not a pass; only two '
            "passes in a row end the draft.",
            "unspent-points": "A standard army spends its muster points: `done` waits until no unit fits "
            "what is left; with `unspent=keep` points may go unspent.",
            "dragon-lore-results": "Into the Fire: lore results the uncontrolled dragon rolls give nobody "
            "lore tokens.",
            "nowhere-to-run-all-flags": "Nowhere to Run: every flag result deals 1 damage to both the target "
            "and the supporting unit.",
            "setup-daqan-first": "Setup goes one player at a time, Daqan first (as Into the Fire has Daqan "
            "set up first); what is chosen stays face down, so going second tells you nothing.",
            "mighty-die-by-die": "Mighty rerolls die by die: its player rerolls one result at a time, "
            "seeing each new face before deciding on the next, or keeps the rest.",
            "flying-melee-only": "Flying's lost die is a melee unit's: a ranged unit attacking or "
            "countering a Flying unit from the next hex rolls all its dice.",
        },
        stand_ins=(
            " ".join(
                [
                    "The BattleLore core rulebook is not ours; the core rules here keep the public",
                    f"facts (16 VP wins, {r.muster_points}-point armies deployed face down with decoys,",
                    f"hands of {r.command_draw} command + {r.lore_draw} lore cards keeping",
                    f"{r.command_keep} + {r.lore_keep}, the six-face die of strike, cleave, pierce,",
                    "morale, lore and heroic, forests and hills).",
                ]
            ),
            "Written fresh for this bot: the board (9 rows of 12 and 11 hexes, Daqan at the bottom, "
            "flanks of 4 hexes a row), river and building, unit numbers beyond the public ones and "
            "their abilities, the command deck, the lore decks, the scenario cards, banner VP, "
            "retreat (straight back, nearer the middle first), support (a unit with two adjacent "
            "friends ignores one flag), at least one die per roll, and setup one player at a time, "
            "Daqan first.",
        ),
    )


def board(view: JSON) -> list[Group]:
    """The hex board in words: each side's units, the dragon, face-down deployment cards, markers
    and terrain, each with its hex (columns a-l, rows 1-9 from the Daqan edge)."""
    groups = []
    owners = {u["owner"] for u in view["units"]}
    for owner in (*SEATS, *sorted(owners - set(SEATS))):
        pieces = []
        for u in view["units"]:
            if u["owner"] != owner:
                continue
            marks = [f"{u['figures']} of {count(u['max_figures'], 'figure')}"]
            marks += [f"{u['damage']} damage"] if u["damage"] and u["max_figures"] == 1 else []
            marks += [f"{u['marker']} neutral marker"] if u["marker"] else []
            marks += ["ordered"] if u["ordered"] else []
            pieces.append(Piece(f"{u['title']} ({', '.join(marks)})", u["hex"]))
        side = "Uncontrolled" if owner not in SEATS else owner.title()
        groups.append(Group(f"{side} units", tuple(pieces)))
    if view["facedown"]:
        cards = tuple(Piece(f"{f['owner'].title()} card", f["hex"]) for f in view["facedown"])
        groups.append(Group("Face-down deployment cards", cards))
    banners = tuple(Piece(f"{side.title()} banner", h) for h, side in sorted(view["banners"].items()))
    markers = [
        ("Banners", banners),
        ("Hoard tiles", tuple(Piece("", h) for h in view["hoards"])),
        ("Inferno markers", tuple(Piece("", h) for h in view["infernos"])),
        ("Yellow hexes", tuple(Piece(f"yellow hex {i}", h) for i, h in enumerate(view["yellow"], 1))),
    ]
    groups += [Group(head, pieces) for head, pieces in markers if pieces]
    kinds: dict[str, list[str]] = {}
    for h, kind in sorted(view["terrain"].items(), key=lambda kv: (int(kv[0][1:]), kv[0][0])):
        kinds.setdefault(kind, []).append(h)
    groups += [
        Group(f"{k.capitalize()} hexes", tuple(Piece("", h) for h in hexes)) for k, hexes in kinds.items()
    ]
    return groups


def seat_help(seat: str) -> str:
    c = load_content()
    first = "the first player" if seat == "daqan" else "the second player"
    units = ", ".join(u.title for u in c.units.values() if u.faction == seat)
    return (
        f"{seat.title()} ({first}): units {units} (stand-in stats and abilities; `/game card` shows them).\n"
    )


def unit_line(u: UnitDef) -> str:
    stand = " (stand-in)" if u.stand_in else ""
    reach = f", range {u.range}" if u.kind == "ranged" else ""
    return (
        f"**{u.title}**{stand}: {u.faction}, {u.kind}, cost {u.cost}, move {u.move}, combat {u.combat}, "
        f"health {u.health}{reach}. {u.text}"
    )


def card_text(name: str) -> str:
    c = load_content()
    key = name.strip().lower().replace(" ", "-")
    if key in c.units:
        u = c.units[key]
        return unit_line(u) + (f" Reading: {u.reading}" if u.reading else "")
    if key in c.lore:
        lc = c.lore[key]
        stand = " (stand-in)" if lc.stand_in else ""
        return f"**{lc.title}**{stand}: lore card, {lc.faction}, costs {lc.cost} lore. {lc.text}"
    if key in c.commands:
        cc = c.commands[key]
        return f"**{cc.title}** (stand-in): command card, {cc.copies} in each deck. {cc.text}"
    if key in c.scenarios:
        sc = c.scenarios[key]
        return f"**{sc.title}** (stand-in): scenario card. {sc.text} {_scenario_layout(c, key)}"
    if key in c.terrain:
        t = c.terrain[key]
        return f"**{key.title()}**{' (stand-in)' if t.stand_in else ''}: terrain. {t.text}"
    if key in c.armies:
        a = c.armies[key]
        units = ", ".join(c.units[n].title for n in a.units)
        return (
            f"**{a.name}** (stand-in suggested army): {a.faction}, {c.army_cost(key)} of {a.points} "
            f"points: {units}."
        )
    names = sorted({*c.units, *c.commands, *c.lore, *c.scenarios, *c.terrain, *c.armies})
    close = [n for n in names if key[:3] in n] or names
    raise IllegalAction(f"No card `{name}`. Names close to it: {', '.join(close)}.")


def _scenario_layout(c: Content, key: str) -> str:
    sc = c.scenarios[key]
    terrain = ", ".join(f"{p.kind} {p.hex}" for p in sc.terrain)
    return f"On its player's half (hexes as Daqan writes them): {terrain}; banners {', '.join(sc.banners)}."


def _named(state: State, name: str) -> str:
    """A card named in a move, as its title ("Sun Lance", "a decoy")."""
    c = load_content()
    if name == DECOY:
        return "a decoy"
    for table in (c.units, c.commands, c.lore, c.scenarios):
        if name in table:
            return str(table[name].title)
    return name


def action_text(state: State, seat: str, action: Action) -> str:
    """What a legal move does, in words; it may name `seat`'s own cards (its private menu only)."""
    c = load_content()
    v, a = action.verb, action.args
    if v in ("command", "lore", "draft", "muster", "army"):
        return card_text(a[0])
    if v in ("scenario", "discard"):
        return card_text(a[0]) if a[0] != DECOY else ""
    if v == "quick":
        return (
            "Take the suggested setup for the rest of yours: each step is made for you and told in "
            "one line with its reason."
        )
    if v == "swap" and len(a) == 1:
        return f"Take {_named(state, a[0])} out of your lore deck (secretly); the card to put in is next."
    if v == "swap":
        return (
            f"Take {_named(state, a[0])} out of your lore deck and put {_named(state, a[1])} in (secretly)."
        )
    if v == "flank":
        return f"Show the free deployment hexes of {section_words(a[0])}."
    if v == "deploy" and len(a) == 2:
        return f"Place {_named(state, a[0])} face down at {a[1]}."
    if v == "deploy" and a != ("auto",):
        return f"Take up {_named(state, a[0])}; its hex is next, the free hexes of one flank at a time."
    if v == "deploy":
        return "Place the rest of your deployment cards face down, units first, spread over your hexes."
    if v == "attack":
        att, tgt = state.unit_at(a[0]), state.unit_at(a[1])
        if att is None or tgt is None:
            return ""
        melee = distance(a[0], a[1]) == 1
        n = dice_count(state, att, tgt, melee)
        how = "in melee (strike and cleave wound)" if melee else "at range (pierce wounds)"
        extra = f", playing {c.lore[a[2]].title} on the unit at {a[3]}" if len(a) == 4 else ""
        return f"{card(att).title} attacks {card(tgt).title} {how} with {count(n, 'die')}{extra}."
    if v == "return":
        return "The dragon returns to its hoard and neither moves nor attacks this turn."
    if v == "gain":
        return f"Gain {count(c.rules.lore_gain, 'lore token')}."
    if v == "draw":
        return "Draw a lore card."
    return ""


def in_steps(view: JSON) -> bool:
    """Whether this game's setup offers swaps and placements in steps (rules version 3)."""
    return rules_of(view["state"]["options"]) >= 3


def _lore_line(x: JSON) -> str:
    return f"➤ {x['title']}{' (stand-in)' if x['stand_in'] else ''} (`{x['name']}`): {x['text']}"


def _once(cards: list[JSON]) -> list[JSON]:
    """Each card name once: copies are the same card to swap in."""
    return list({x["name"]: x for x in cards}.values())


def muster_line(view: JSON) -> str:
    """Each side's muster points left and what they have bought so far (mustering is open)."""
    parts = []
    for s in SEATS:
        p = view["players"][s]
        units = Counter(p["mustered"])
        bought = [f"{t} ×{n}" if n > 1 else t for t, n in units.items()]
        bought += [count(p["tents"], "command tent")] if p["tents"] else []
        done = "; ready" if p["done"] else ""
        army = ", ".join(bought) or "nothing yet"
        parts.append(f"{s.title()} {p['points_left']} of {p['muster_points']} ({army}{done})")
    return f"Muster points left: {'; '.join(parts)}."


def _priced(move: str) -> str:
    """A purchase with its price: `muster citadel-guard` (6)."""
    c = load_content()
    verb, name = move.split(" ", 1)
    cost = c.army_cost(name) if verb == "army" else c.units[name].cost
    return f"`{move}` ({cost})"


def spend_hint(view: JSON, seat: str, buys: list[str]) -> str:
    """What the points left can buy, and when `done` is legal: for /game hand and a refused `done`."""
    left = view["players"][seat]["points_left"]
    if not buys:
        return f"{count(left, 'muster point')} left: nothing more fits; `done` when your lore swaps are made."
    shown = ", ".join(_priced(b) for b in buys)
    if view["scenario"] == "into-the-fire":
        after = "`done` when you are ready: each point unspent is a lore token (at most 5)."
    elif not view["must_spend"]:
        after = "`done` when you are ready (this game lets points go unspent)."
    else:
        cheapest = min(load_content().units[b.split(" ", 1)[1]].cost for b in buys if b.startswith("muster "))
        after = f"`done` once fewer than {cheapest} are left (a standard army spends its points)."
    return f"{count(left, 'muster point')} left to spend: {shown}. {after}"


def play_refusal(state: State, seat: str, action: Action, legal: list[Action]) -> str | None:
    """Why a move in a turn is refused when the step alone does not say it: a card not in hand, a
    lore card the tokens do not pay for, or a move of the right kind that names what it may not
    (then the moves of that kind that are legal); None when the step says enough."""
    c = load_content()
    v, a = action.verb, action.args
    said = f"`{action}` is not legal now"

    def held(pile: str, name: str) -> bool:
        return any(state.cards[cid] == name for cid in state.piles[seat][pile])

    if v == "command" and a and a[0] in c.commands and not held("hand", a[0]):
        return f"{said}: {c.commands[a[0]].title} is not in your hand (`/game hand` shows it)."
    if v == "lore" and a and a[0] in c.lore:
        lc = c.lore[a[0]]
        if not held("lore_hand", lc.name):
            return f"{said}: {lc.title} is not in your lore hand (`/game hand` shows it)."
        if lc.cost > state.lore_tokens[seat]:
            have = state.lore_tokens[seat]
            return f"{said}: {lc.title} costs {count(lc.cost, 'lore token')} and you have {have}."
    same = [str(x) for x in legal if x.verb == v]
    unit = state.unit_at(a[0]) if v == "order" and a else None
    if unit is not None and unit["owner"] == seat and not unit["ordered"] and state.order.get("card"):
        # The unit is there but out of the card's reach: name both sections, not only the legal list.
        cc = c.commands[state.order["card"]]
        where = " or ".join(section_words(sec) for sec in cc.orders if state.order["left"].get(sec, 0) > 0)
        said += f": {card(unit).title} at {a[0]} is in {section_words(section_for(a[0], seat))}"
        said += f", and {cc.title} has orders left only for {where}" if where else ""
    if not same:
        return None
    more = f" … ({len(same)} in all; `/game moves` lists them)" if len(same) > 10 else ""
    return f"{said}. Your legal `{v}` moves: {', '.join(same[:10])}{more}."


def step_refusal(state: State, seat: str, action: Action, legal: list[Action]) -> str | None:
    """A whole swap or placement typed where its first step is offered (rules version 3): the
    step to take first; None when that is not why it is refused."""
    v, a = action.verb, action.args
    said = f"`{action}` is not legal now"
    if v == "swap" and len(a) == 2 and Action("swap", a[:1]) in legal:
        return f"{said}: choose the card to take out first, `swap {a[0]}`, then `{action}`."
    if v == "deploy" and len(a) == 2 and Action("deploy", a[:1]) in legal:
        return f"{said}: take up the card first, `deploy {a[0]}`, then `{action}`."
    flank = section_for(a[1], seat) if v == "deploy" and len(a) == 2 and is_hex(a[1]) else ""
    if flank and Action("flank", (flank,)) in legal:
        return f"{said}: {a[1]} is in {section_words(flank)}; `flank {flank}` shows its free hexes first."
    return None


def muster_refusal(state: State, seat: str, action: Action) -> str | None:
    """Why a mustering move is refused, in the terms of the points left; None when not one."""
    c = load_content()
    if state.phase != "muster" or action.verb not in ("done", "army", "muster"):
        return None
    view = build_view(state, seat)
    buys = [str(a) for a in purchases(state, seat)]
    m = state.muster[seat]
    if action.verb == "done":
        if not any(c.units[n].kind != "tent" for n in m["units"]):
            return f"`done` is not legal yet: your army has no unit. {spend_hint(view, seat, buys)}"
        if buys and must_spend(state):
            return f"`done` is not legal yet: {spend_hint(view, seat, buys)}"
        return None
    name = action.args[0]
    if action.verb == "army" and name in c.armies:
        a = c.armies[name]
        cost = c.army_cost(name)
        hand_mustered = any(c.units[n].faction != "neutral" for n in m["units"]) or m["tents"]
        if a.faction != seat:
            why = f"it is {article(a.faction)} {a.faction.title()} army"
        elif cost > m["points"]:
            why = f"it costs {count(cost, 'point')} and you have {m['points']} left"
        elif hand_mustered:
            why = "a suggested army is taken before any unit is mustered by hand"
        else:
            budget = view["players"][seat]["muster_points"]
            size = f"{a.points}-point"
            why = f"it is {article(size)} {size} army, and this game's armies are {budget} points"
        return f"`army {name}` is not legal: {why}. {spend_hint(view, seat, buys)}"
    if action.verb == "muster" and name in c.units:
        u = c.units[name]
        if u.faction not in (seat, "any"):
            why = (
                "neutral units join an army only through the draft"
                if u.faction == "neutral"
                else (f"it is {article(u.faction)} {u.faction.title()} unit")
            )
        elif u.cost > m["points"]:
            why = f"it costs {count(u.cost, 'point')} and you have {m['points']} left"
        else:
            why = "Into the Fire allows no Legend units or command tents"
        return f"`muster {name}` is not legal: {why}. {spend_hint(view, seat, buys)}"
    return None


def private_lines(view: JSON) -> list[str]:
    """A seat's own cards, each with its whole text, for /game hand (from the seat's view)."""
    mine = view["mine"]
    lines: list[str] = []
    if view["phase"] == "muster" and not view["players"][mine["seat"]]["done"]:
        lines.append(spend_hint(view, mine["seat"], mine["purchases"]))
    if mine["scenario"]:
        lines.append("Your scenario cards (stand-in; choose one with `scenario <name>`):")
        lines += [f"➤ {x['title']} (`{x['name']}`): {x['text']}" for x in mine["scenario"]]
    if view["phase"] == "muster" and mine["lore_pool"]:
        how = (
            "`swap <deck card>`, then `swap <deck card> <available card>`"
            if in_steps(view)
            else ("`swap <deck card> <available card>`")
        )
        lines.append(f"Lore cards you may swap in ({how}):")
        lines += [_lore_line(x) for x in _once(mine["lore_pool"])]
        # During the swaps the deck's cards are what a swap takes out: each with its text.
        lines.append("Your lore deck (its order is unknown):")
        lore = load_content().lore
        lines += [
            f"➤ {lore[name].title} ×{n} (`{name}`): {lore[name].text}" if name in lore else f"➤ {name} ×{n}"
            for name, n in mine["lore_deck"]
        ]
    if mine["deploy"]:
        how = "`deploy <name>`, then `deploy <name> <hex>`" if in_steps(view) else "`deploy <name> <hex>`"
        lines.append(f"Your deployment cards ({how}; `quick` or `deploy auto` places them all):")
        lines += [
            f"➤ {x['title']} (`{x['name']}`)" + (f" face down at {x['hex']}" if x["hex"] else "")
            for x in mine["deploy"]
        ]
    if mine["hand"]:
        lines.append("Your command cards (stand-in):")
        lines += [f"➤ {x['title']} (`{x['name']}`): {x['text']}" for x in mine["hand"]]
    if mine["lore_hand"]:
        lines.append("Your lore cards:")
        lines += [_lore_line(x) for x in mine["lore_hand"]]
    lore = load_content().lore
    deck = ", ".join(f"{lore[name].title if name in lore else name} ×{n}" for name, n in mine["lore_deck"])
    if deck and view["phase"] != "muster":
        lines.append(f"Your lore deck holds: {deck} (its order is unknown).")
    return lines
