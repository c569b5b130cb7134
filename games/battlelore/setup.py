"""Setup: scenario cards, the neutral-unit draft, mustering with lore customisation, face-down
deployment with decoys and its reveal (hoard tiles, neutral markers), and the opening hands.

Every private card has an id whose link to its name is drawn at random ("cmd7" might be any
command card), so a move naming an id (a swap, a face-down placement) tells the opponent nothing.
"""

from __future__ import annotations

from engine.dice import Dice
from engine.game import Event, rules_of
from engine.words import count
from games.battlelore.board import CENTRE_ROW, SECTIONS, all_hexes, mirror, row_of, section_for
from games.battlelore.content import Content, load_content
from games.battlelore.state import DRAGON, JSON, SEATS, Action, State, other

DECOY = "decoy"


def new_cards(state: State, prefix: str, names: list[str]) -> list[str]:
    """Card instances for `names`, their ids in order but the names shuffled onto them."""
    names = list(names)
    state.dice.shuffle(names)
    start = sum(1 for k in state.cards if k.startswith(prefix) and k[len(prefix) :].isdigit()) + 1
    # Fixed-width numbers: no id is the beginning of another, so "x#cmd002" never hides in "x#cmd0021".
    ids = [f"{prefix}{start + i:03d}" for i in range(len(names))]
    state.cards.update(zip(ids, names, strict=True))
    return ids


def new_unit(state: State, kind: str, owner: str, hex_name: str, neutral: bool = False) -> JSON:
    uid = f"u{state.next_unit}"
    state.next_unit += 1
    u = {
        "id": uid,
        "kind": kind,
        "owner": owner,
        "hex": hex_name,
        "damage": 0,
        "marker": None,
        "neutral": neutral,
        "ordered": False,
        "moved": False,
        "attacked": False,
        "returned": False,
    }
    state.units[uid] = u
    return u


def new_state(options: dict[str, str], seed: int) -> State:
    c = load_content()
    state = State(options=dict(options), dice=Dice(seed))
    fire = state.fire
    points = muster_budget(state)
    for seat in SEATS:
        state.muster[seat] = {"points": points, "units": [], "tents": 0, "swaps": 0, "done": False}
        deck = [n for n, k in c.decks[seat].deck.items() for _ in range(k)]
        unused = [n for n, k in c.decks[seat].unused.items() for _ in range(k)]
        state.piles[seat] = {
            "command": new_cards(state, "cmd", [n for n, cc in c.commands.items() for _ in range(cc.copies)]),
            "hand": [],
            "discard": [],
            "lore_deck": new_cards(state, "lore", deck),
            "lore_pool": new_cards(state, "lore", unused),
            "lore_hand": [],
            "lore_discard": [],
            "lore_box": [],
            # Cards discarded face down from the opening hand: out of the opponent's sight, where
            # the discard piles hold cards played face up; both go back into the deck together.
            "facedown": [],
            "lore_facedown": [],
            "scenario": [],
            "deploy": [],
        }
    if fire:
        _setup_fire(state, c)
        state.phase = "muster"
    else:
        for seat in SEATS:
            state.deploy_hexes[seat] = [h for h in all_hexes() if _deploy_row(h, seat, c.deploy_rows)]
        names = list(c.scenarios)
        ids = new_cards(state, "scn", names)
        for i, seat in enumerate(SEATS):
            state.piles[seat]["scenario"] = ids[i * c.scenario_draws : (i + 1) * c.scenario_draws]
        state.phase = "scenario"
    return state


def _deploy_row(h: str, seat: str, rows: int) -> bool:
    r = row_of(h)
    return r <= rows if seat == "daqan" else r >= 10 - rows


def _setup_fire(state: State, c: Content) -> None:
    """Into the Fire: the map's terrain, blue (Daqan) and red (Uthuk) deployment hexes, and the hoard
    tile and the Great Dragon on yellow hex 1. The dragon belongs to neither player."""
    m = c.fire
    state.terrain = {p.hex: p.kind for p in m.terrain if p.kind != "clear"}
    state.banners = {h: ("daqan" if row_of(h) < CENTRE_ROW else "uthuk") for h in m.banners}
    state.deploy_hexes = {"daqan": list(m.blue), "uthuk": list(m.red)}
    state.yellow = list(m.yellow)
    state.hoards = [m.yellow[0]]
    dragon = new_unit(state, "great-dragon", DRAGON, m.yellow[0], neutral=True)
    state.dragon = {"id": dragon["id"], "damage": {s: 0 for s in SEATS}, "overpowered": [], "gone": False}


# ---- scenario cards --------------------------------------------------------------------------------


def named(state: State, ids: list[str]) -> list[str]:
    """The names of cards, each once, in the order first met: what a player reads and types.
    Copies of a name are the same card to play, so a move names the card, never its id."""
    return list(dict.fromkeys(state.cards[cid] for cid in ids))


def card_named(state: State, ids: list[str], name: str) -> str:
    """The first card of `ids` with that name (the move names a card; the piles hold ids)."""
    return next(cid for cid in ids if state.cards[cid] == name)


def scenario_actions(state: State, seat: str) -> list[Action]:
    if seat in state.scenario_pick:
        return []
    return [Action("scenario", (name,)) for name in named(state, state.piles[seat]["scenario"])]


def pick_scenario(state: State, seat: str, name: str, events: list[Event]) -> None:
    state.scenario_pick[seat] = card_named(state, state.piles[seat]["scenario"], name)
    if len(state.scenario_pick) < 2:
        return
    c = load_content()
    for s in SEATS:
        scen = c.scenarios[state.cards[state.scenario_pick[s]]]
        place = (lambda h: h) if s == "daqan" else mirror
        for p in scen.terrain:
            if p.kind != "clear":
                state.terrain[place(p.hex)] = p.kind
        for b in scen.banners:
            state.banners[place(b)] = s
        events.append(
            Event(
                "scenario",
                f"{s.title()} reveals {scen.title} (stand-in scenario card) for its half: {scen.text}",
                reveals=True,
            )
        )
    for s in SEATS:
        state.piles[s]["scenario"] = [state.scenario_pick[s]]
    pool = list(c.rules.neutral_pool) if state.options.get("dragon") == "on" else []
    if pool:
        # Drafting Units: the first player starts by choosing one neutral unit.
        state.draft = {"pool": pool, "turn": "daqan", "allow": 1, "picked": 0, "last_pass": False}
        state.phase = "draft"
        events.append(
            Event("phase", "The draft of neutral units begins: Daqan chooses first.", phase_end=True)
        )
    else:
        state.phase = "muster"


# ---- the draft --------------------------------------------------------------------------------------


def draft_actions(state: State, seat: str) -> list[Action]:
    if state.draft.get("turn") != seat:
        return []
    c = load_content()
    left = state.muster[seat]["points"]
    names = sorted({n for n in state.draft["pool"] if c.units[n].cost <= left})
    return [*(Action("draft", (n,)) for n in names), Action("pass")]


def draft(state: State, seat: str, name: str, events: list[Event]) -> None:
    c = load_content()
    d = state.draft
    d["pool"].remove(name)
    m = state.muster[seat]
    m["points"] -= c.units[name].cost
    m["units"].append(name)
    # A drafted unit belongs to its drafter's faction, and its lore cards become available to him.
    state.piles[seat]["lore_pool"] += new_cards(state, "lore", list(c.units[name].lore))
    # The move itself ("plays `draft great-dragon`") already names the unit: the line says what
    # follows from it, not the draft a second time.
    lore = ", ".join(c.lore[n].title for n in dict.fromkeys(c.units[name].lore))
    events.append(
        Event(
            "draft",
            f"{count(c.units[name].cost, 'point')} spent, {m['points']} left; {lore} may now be "
            f"swapped into {seat.title()}'s lore deck.",
        )
    )
    d["picked"] += 1
    d["last_pass"] = False
    if d["picked"] >= d["allow"] or not d["pool"]:
        _next_drafter(state, seat, events)


def draft_pass(state: State, seat: str, events: list[Event]) -> None:
    d = state.draft
    if d["picked"] == 0:
        # A pass right after the opponent's pass ends the draft.
        if d["last_pass"]:
            _end_draft(state, events, "Both players passed in a row")
            return
        d["last_pass"] = True
        events.append(Event("draft", f"{seat.title()} passes."))
    else:
        # reading: draft-pass
        # Reading: stopping after one unit of an "up to two" turn is not a pass.
        events.append(Event("draft", f"{seat.title()} takes only one."))
    _next_drafter(state, seat, events)


def _next_drafter(state: State, seat: str, events: list[Event]) -> None:
    d = state.draft
    if not d["pool"]:
        _end_draft(state, events, "The draft pool is empty")
        return
    # The opponent of the first player chooses up to two on their first turn, then one at a time.
    first_reply = seat == "daqan" and d["allow"] == 1 and d.get("turns", 0) == 0
    d["turns"] = d.get("turns", 0) + 1
    d.update(turn=other(seat), allow=2 if first_reply else 1, picked=0)


def _end_draft(state: State, events: list[Event], why: str) -> None:
    state.draft = {"pool": [], "turn": None, "allow": 0, "picked": 0, "last_pass": False}
    state.phase = "muster"
    events.append(
        Event(
            "phase",
            f"{why}: the draft is over. Both players muster with their remaining points.",
            phase_end=True,
        )
    )


# ---- mustering and lore customisation --------------------------------------------------------------


def muster_actions(state: State, seat: str) -> list[Action]:
    m = state.muster[seat]
    if m["done"]:
        return []
    if in_steps(state) and m.get(PICK) is not None:
        return swap_steps(state, seat)  # the card to put in for the one taken out
    buys = purchases(state, seat)
    out = [*buys, *swap_steps(state, seat)]
    if _has_army(state, seat) and not (buys and must_spend(state)):
        out.append(Action("done"))
    return out


def muster_budget(state: State) -> int:
    c = load_content()
    return c.fire.points if state.fire else c.rules.muster_points


# reading: unspent-points
def must_spend(state: State) -> bool:
    """Reading: the expansion gives unspent muster points a use only in Into the Fire (a lore
    token each, at most 5); for the standard game it says only that after the draft "players may
    purchase units as normal using their remaining muster points", and the core rulebook's
    mustering is not ours to read. A standard army therefore spends its points by default:
    `done` waits until no unit fits what is left, so points are never dropped without a word.
    Groups that read it otherwise choose `unspent=keep`."""
    return not state.fire and state.options.get("unspent", "spend") == "spend"


def _has_army(state: State, seat: str) -> bool:
    c = load_content()
    return any(c.units[n].kind != "tent" for n in state.muster[seat]["units"])


def purchases(state: State, seat: str) -> list[Action]:
    """What `seat` can still buy with the muster points left: a suggested army while nothing but
    drafted units is mustered, and single units (a command tent among them)."""
    c = load_content()
    m = state.muster[seat]
    out: list[Action] = []
    drafted = [n for n in m["units"] if c.units[n].faction == "neutral"]
    if len(drafted) == len(m["units"]) and not m["tents"]:
        for a in c.armies.values():
            cost = c.army_cost(a.name)
            # A suggested army is sized for the game's points; after a draft, one that fits the
            # points the drafted units left (so `army` follows a drafted dragon, as it reads).
            sized = a.points == muster_budget(state) or bool(drafted)
            if a.faction == seat and sized and cost <= m["points"] and _army_ok(state, a.units):
                out.append(Action("army", (a.name,)))
    for u in c.units.values():
        if u.faction in (seat, "any") and u.cost <= m["points"] and _army_ok(state, (u.name,)):
            out.append(Action("muster", (u.name,)))
    return out


def _army_ok(state: State, names: tuple[str, ...]) -> bool:
    c = load_content()
    for n in names:
        u = c.units[n]
        if state.fire and u.legend:
            return False  # Into the Fire: players cannot muster Legend units
        if state.fire and u.kind == "tent":
            return False  # pre-built scenarios: no command tents
    return True


def muster(state: State, seat: str, names: tuple[str, ...], events: list[Event]) -> None:
    c = load_content()
    m = state.muster[seat]
    for n in names:
        m["points"] -= c.units[n].cost
        if c.units[n].kind == "tent":
            m["tents"] += 1
        else:
            m["units"].append(n)
    titles = ", ".join(c.units[n].shown for n in names)
    events.append(Event("muster", f"{seat.title()} musters {titles} ({count(m['points'], 'point')} left)."))


def swap_actions(state: State, seat: str) -> list[Action]:
    """Lore Customisation: up to five swaps of a deck card for an available one, secretly, keeping
    at most two copies of a name in the deck."""
    c = load_content()
    m = state.muster[seat]
    if m["swaps"] >= c.rules.max_swaps:
        return []
    deck = state.piles[seat]["lore_deck"]
    pool = state.piles[seat]["lore_pool"]
    counts: dict[str, int] = {}
    for cid in deck:
        counts[state.cards[cid]] = counts.get(state.cards[cid], 0) + 1
    out = []
    for name_out in named(state, deck):
        for name_in in named(state, pool):
            if name_in != name_out and counts.get(name_in, 0) + 1 <= c.rules.max_copies:
                out.append(Action("swap", (name_out, name_in)))
    return out


def swap(state: State, seat: str, name_out: str, name_in: str) -> None:
    """A lore swap, secretly: the table is told only the move's public form ("swaps a lore card")."""
    p = state.piles[seat]
    out_id, in_id = card_named(state, p["lore_deck"], name_out), card_named(state, p["lore_pool"], name_in)
    p["lore_deck"][p["lore_deck"].index(out_id)] = in_id
    p["lore_pool"][p["lore_pool"].index(in_id)] = out_id
    state.muster[seat]["swaps"] += 1
    _drop_pick(state, seat)


def muster_done(state: State, seat: str, events: list[Event]) -> None:
    c = load_content()
    m = state.muster[seat]
    m["done"] = True
    _drop_pick(state, seat)
    p = state.piles[seat]
    state.dice.shuffle(p["lore_deck"])
    # Unused lore cards go back to the box without being shown.
    p["lore_box"], p["lore_pool"] = p["lore_box"] + p["lore_pool"], []
    text = f"{seat.title()} has mustered: {', '.join(c.units[n].shown for n in m['units'])}"
    if m["tents"]:
        text += f" and {count(m['tents'], 'command tent')}"
    if state.fire:
        # Into the Fire: 1 lore token per unspent muster point, at most 5.
        gained = min(c.fire.max_lore_tokens, m["points"])
        state.lore_tokens[seat] += gained
        text += f"; {count(gained, 'lore token')} for unspent points"
    events.append(Event("muster", text + "."))
    if all(state.muster[s]["done"] for s in SEATS):
        _begin_deployment(state, c, events)


def _begin_deployment(state: State, c: Content, events: list[Event]) -> None:
    for seat in SEATS:
        names = [*state.muster[seat]["units"], *([DECOY] * c.rules.decoys)]
        state.piles[seat]["deploy"] = new_cards(state, "dep", names)
    state.phase = "deploy"
    events.append(
        Event(
            "phase",
            "Deployment: each player places their deployment cards face down (decoys "
            "included) on their deployment hexes.",
            phase_end=True,
        )
    )


# ---- face-down deployment -----------------------------------------------------------------------------


def free_deploy_hexes(state: State, seat: str) -> list[str]:
    taken = set(state.placed.values()) | set(state.occupied())
    return [h for h in state.deploy_hexes[seat] if h not in taken]


def deploy_actions(state: State, seat: str) -> list[Action]:
    if seat in state.deploy_done:
        return []
    unplaced = [d for d in state.piles[seat]["deploy"] if d not in state.placed]
    free = free_deploy_hexes(state, seat)
    steps = _deploy_steps(state, seat, unplaced, free)
    whole = [Action("deploy", (name, h)) for name in named(state, unplaced) for h in free]
    out = whole if steps is None else steps
    if unplaced and free:
        out.append(Action("deploy", ("auto",)))
    if all(state.cards[d] == DECOY for d in unplaced):
        out.append(Action("done"))
    return out


def deploy(state: State, seat: str, args: tuple[str, ...], events: list[Event]) -> None:
    if args == ("auto",):
        _drop_pick(state, seat)
        free = free_deploy_hexes(state, seat)
        unplaced = [d for d in state.piles[seat]["deploy"] if d not in state.placed]
        # Spread over the free hexes in a secret random order, so where the decoys lie follows
        # from nothing the opponent sees; units first only when there is not room for every card.
        state.dice.shuffle(unplaced)
        if len(unplaced) > len(free):
            unplaced.sort(key=lambda d: state.cards[d] == DECOY)
        for d, h in zip(unplaced, _spread(free, len(unplaced)), strict=False):
            state.placed[d] = h
        events.append(Event("deploy", f"{seat.title()} places the rest of its deployment cards face down."))
        return
    # Which card lies where is hidden: the table is told only the move's public form, that a card
    # went down there (BattleLore.public_text).
    unplaced = [d for d in state.piles[seat]["deploy"] if d not in state.placed]
    state.placed[card_named(state, unplaced, args[0])] = args[1]
    _drop_pick(state, seat)


# ---- choices in steps (rules version 3) -------------------------------------------------------------
#
# A lore swap names two cards and a deployment a card and a hex: offered whole, a seat's list of
# moves ran to 176 lines, past one page of the move menu. From version 3 each is chosen in steps,
# so no list before the first turn is longer than a page: `swap <deck card>` then
# `swap <deck card> <available card>`; `deploy <card>`, then `deploy <card> <hex>` among the free
# hexes of one flank (the centre first), `flank <left|centre|right>` showing another flank's.
# The card taken up is kept in the seat's muster entry (`pick`, and `flank`): keys written only
# then, so the states of older versions are unchanged.

PICK, FLANK = "pick", "flank"


def in_steps(state: State) -> bool:
    return rules_of(state.options) >= 3


def swap_steps(state: State, seat: str) -> list[Action]:
    """The lore swaps as offered: the deck card first, then what to put in for it."""
    swaps = swap_actions(state, seat)
    if not in_steps(state):
        return swaps
    pick = state.muster[seat].get(PICK)
    if pick is not None:
        return [a for a in swaps if a.args[0] == pick]
    return [Action("swap", (name,)) for name in dict.fromkeys(a.args[0] for a in swaps)]


def pick_swap(state: State, seat: str, name: str) -> None:
    state.muster[seat][PICK] = name


def _flank_hexes(state: State, seat: str, flank: str) -> list[str]:
    return [h for h in free_deploy_hexes(state, seat) if section_for(h, seat) == flank]


def pick_card(state: State, seat: str, name: str) -> None:
    """Take up a deployment card: its hexes are offered next, the centre's first (or the first
    flank with a free hex)."""
    m = state.muster[seat]
    unplaced = [d for d in state.piles[seat]["deploy"] if d not in state.placed]
    m[PICK] = card_named(state, unplaced, name)
    m[FLANK] = next((f for f in ("centre", "left", "right") if _flank_hexes(state, seat, f)), "centre")


def _drop_pick(state: State, seat: str) -> None:
    state.muster[seat].pop(PICK, None)
    state.muster[seat].pop(FLANK, None)


def show_flank(state: State, seat: str, flank: str) -> None:
    state.muster[seat][FLANK] = flank


def _deploy_steps(state: State, seat: str, unplaced: list[str], free: list[str]) -> list[Action] | None:
    """The deployment as offered in steps; None before version 3 (every card at every hex)."""
    if not in_steps(state):
        return None
    m = state.muster[seat]
    pick = m.get(PICK)
    if pick is not None:
        name = state.cards[pick]
        here = [Action("deploy", (name, h)) for h in _flank_hexes(state, seat, m[FLANK])]
        others = [Action("flank", (f,)) for f in SECTIONS if f != m[FLANK] and _flank_hexes(state, seat, f)]
        return here + others
    return [Action("deploy", (name,)) for name in named(state, unplaced)] if free else []


def _spread(free: list[str], n: int) -> list[str]:
    if n >= len(free):
        return free
    step = len(free) / n
    return [free[int(i * step)] for i in range(n)]


def deploy_done(state: State, seat: str, events: list[Event]) -> None:
    state.deploy_done.append(seat)
    events.append(Event("deploy", f"{seat.title()} has deployed."))
    if len(state.deploy_done) == 2:
        _reveal(state, events)


def _reveal(state: State, events: list[Event]) -> None:
    """Replace the deployment cards with units (decoys leave), then hoard tiles and neutral markers."""
    c = load_content()
    lines = []
    for seat in SEATS:
        for d in state.piles[seat]["deploy"]:
            name = state.cards[d]
            h = state.placed.get(d)
            if h is None:
                continue
            if name == DECOY:
                lines.append(f"the card at {h} is a decoy")
            else:
                new_unit(state, name, seat, h, neutral=c.units[name].faction == "neutral")
                lines.append(f"the card at {h} is {seat.title()} {c.units[name].shown}")
        state.piles[seat]["deploy"] = []
    state.placed = {}
    events.append(Event("reveal", "Deployment cards are turned up: " + "; ".join(lines) + ".", reveals=True))
    for seat in SEATS:  # starting with the first player
        for u in state.units_of(seat):
            if u["kind"] == "great-dragon":
                # Deployment card: a hoard tile goes in this hex, if it is clear and not on the centre row.
                if state.terrain.get(u["hex"], "clear") == "clear" and row_of(u["hex"]) != CENTRE_ROW:
                    state.hoards.append(u["hex"])
                    events.append(Event("hoard", f"{seat.title()} places a hoard tile at {u['hex']}."))
                else:
                    events.append(
                        Event(
                            "hoard", f"No hoard tile at {u['hex']}: it is not a clear hex off the centre row."
                        )
                    )
    neutral = {s: [u for u in state.units_of(s) if u["neutral"]] for s in SEATS}
    if all(neutral.values()):
        # Neutral markers: white for the first player's neutral units, black for his opponent's.
        for seat, colour in (("daqan", "white"), ("uthuk", "black")):
            for u in neutral[seat]:
                u["marker"] = colour
        events.append(
            Event(
                "markers", "Both players field neutral units: white markers for Daqan's, black for Uthuk's."
            )
        )
    _deal(state, c, events)


def _deal(state: State, c: Content, events: list[Event]) -> None:
    for seat in SEATS:
        draw_command(state, seat, c.rules.command_draw)
        draw_lore(state, seat, c.rules.lore_draw)
    state.phase = "hands"
    # Each seat's own keep: a command tent adds a command card to it, so the two may differ.
    keeps = "; ".join(
        f"{seat.title()} keeps {command_keep(state, seat)} command and {c.rules.lore_keep} lore"
        for seat in SEATS
    )
    events.append(
        Event(
            "phase",
            f"Each player draws {c.rules.command_draw} command and {c.rules.lore_draw} lore cards. {keeps}.",
            phase_end=True,
        )
    )


def command_keep(state: State, seat: str) -> int:
    return load_content().rules.command_keep + int(state.muster[seat]["tents"])


def draw_command(state: State, seat: str, n: int) -> None:
    p = state.piles[seat]
    for _ in range(n):
        if not p["command"]:
            p["command"], p["discard"] = p["discard"] + state.pile(seat, "facedown"), []
            p["facedown"] = []
            state.dice.shuffle(p["command"])
        if not p["command"]:
            return
        p["hand"].append(p["command"].pop())


def draw_lore(state: State, seat: str, n: int) -> None:
    p = state.piles[seat]
    for _ in range(n):
        if not p["lore_deck"]:
            p["lore_deck"], p["lore_discard"] = p["lore_discard"] + state.pile(seat, "lore_facedown"), []
            p["lore_facedown"] = []
            state.dice.shuffle(p["lore_deck"])
        if not p["lore_deck"]:
            return
        p["lore_hand"].append(p["lore_deck"].pop())


def hands_actions(state: State, seat: str) -> list[Action]:
    p = state.piles[seat]
    if len(p["hand"]) > command_keep(state, seat):
        return [Action("discard", (name,)) for name in named(state, p["hand"])]
    if len(p["lore_hand"]) > load_content().rules.lore_keep:
        return [Action("discard", (name,)) for name in named(state, p["lore_hand"])]
    return []


def discard(state: State, seat: str, name: str) -> bool:
    """Discard down to the hand limits, face down (the table is told only the move's public form);
    True once both hands are kept (play begins)."""
    p = state.piles[seat]
    over = len(p["hand"]) > command_keep(state, seat)
    cid = card_named(state, p["hand"] if over else p["lore_hand"], name)
    if cid in p["hand"]:
        p["hand"].remove(cid)
        state.pile(seat, "facedown").append(cid)
    else:
        p["lore_hand"].remove(cid)
        state.pile(seat, "lore_facedown").append(cid)
    return not any(hands_actions(state, s) for s in SEATS)
