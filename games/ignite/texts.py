"""What Ignite says to players in words: the rules summary, any card's text, the market, the
status from a view, and the card behind a move. One home for each wording (views.py holds data).
"""

from __future__ import annotations

import difflib
from typing import Any

from engine.board_text import Group, Piece
from engine.errors import IllegalAction
from engine.teaching import Teaching
from engine.words import count
from games.ignite.board import COLUMNS, TERRAINS
from games.ignite.content import CardDef, Content, EffectCard, RaceDef
from games.ignite.rules import LOSS_THRESHOLD, units_per_player
from games.ignite.state import IgniteState
from games.ignite.units import lost_of
from games.ignite.views import round_card_text

JSON = dict[str, Any]
LAST_ROUND = 20  # How to Win: survive rounds 1-19, then defeat the boss revealed in round 20


def round_name(round_no: int) -> str:
    return f"Round {min(round_no, LAST_ROUND)} of {LAST_ROUND}"


def round_label(round_no: int, phase: str) -> str:
    """ "Round 3 of 20" everywhere; round 20 repeats until the dragon falls."""
    if round_no == 0:
        return "Setup" if phase == "placement" else f"Free turns, before round 1 of {LAST_ROUND}"
    if round_no >= LAST_ROUND:
        return f"{round_name(round_no)} (the boss round, repeated until the dragon falls)"
    return round_name(round_no)


def _tag(source: str, text: str) -> str:
    """Stand-in content says so wherever a player sees it."""
    return "" if source != "stand-in" or "stand-in" in text.lower() else " (stand-in)"


def card_line(card: CardDef, cost: int | None = None) -> str:
    """A battle card in one line: name, price, Honor, its whole text."""
    price = card.cost if cost is None else cost
    dead = card.effect == "dead"
    costs = "cannot be bought or played" if dead else f"cost {price}, honor {card.honor}"
    return f"**{card.name}** ({costs}): {card.text}{_tag(card.source, card.text)}"


def effect_line(card: EffectCard) -> str:
    icon = ", shuffle icon" if card.shuffle else ""
    return f"**{card.name}** ({card.kind} card{icon}): {card.text}{_tag(card.source, card.text)}"


def race_line(race: RaceDef, players: int | None = None) -> str:
    twice = 2 if race.ability == "ratmen" else 1
    if players:
        seated = f"with {count(players, 'player')} seated now; the count follows the table's size"
        units = f"{count(twice * units_per_player(players), 'unit')} ({seated})"
    else:
        # No table meant (the help): every size, in words.
        units = f"{count(3 * twice, 'unit')} alone, {2 * twice} with two players, {twice} with three or more"
    tag = _tag(race.source, race.text)
    return f"**{race.name}**: {units}, {race.health} health each. {race.text}{tag}"


def card_text(content: Content, name: str) -> str:
    """`/game card`: any battle, Power, Apocalypse or Hex card by name (case and - _ ignored)."""
    key = " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())
    if key in content.cards:
        return card_line(content.cards[key])
    if key in content.powers or key in content.apocalypses:
        return effect_line(content.effect_card(key))
    names = sorted([*content.cards, *content.powers, *content.apocalypses])
    close = difflib.get_close_matches(key, names, n=6, cutoff=0.5)
    close += [n for n in names if key and key in n and n not in close]
    listed = ", ".join(close[:8]) if close else ", ".join(names)
    what = "Cards with a close name" if close else "Cards"
    raise IllegalAction(f"There is no card `{name}`. {what}: {listed}.")


def board(view: JSON) -> list[Group]:
    """The battlefield in words: units, minions, war machines, the dragon, cards in play and
    every square that is not plain grass, by terrain (squares: column a-r, row 1-18 from the top)."""
    units = []
    for u in view["units"]:
        state = [f"{u['seat']}", f"{u['health']}/{u['max_health']} health"]
        state += [f"shield {u['shield']}"] if u["shield"] else []
        state += [w for w in ("knocked down", "immobilized") if u[w.replace(" ", "_")]]
        units.append(Piece(f"{u['id']} ({', '.join(state)})", u["square"]))
    minions = []
    for m in view["minions"]:
        state = [f"level {m['level']}"]
        state += [f"{m['damage']:g} damage taken"] if m["damage"] else []
        state += [f.replace("_", " ") for f in m["flags"]]
        state += [f"pushing a catapult at {m['catapult']}"] if m["catapult"] else []
        minions.append(Piece(f"{m.get('name') or m['label']} ({', '.join(state)})", m["square"]))
    machines = [
        Piece(f"{w['id']} ({w['owner']}'s {w['kind']}{'' if w['built'] else ', being built'})", w["square"])
        for w in view["war_machines"]
    ]
    groups = [Group("Units", tuple(units)), Group("Minions", tuple(minions))]
    if machines:
        groups.append(Group("War machines", tuple(machines)))
    if view["dragon"]:
        d = view["dragon"]
        groups.append(Group("Elder Dragon", (Piece(f"Elder Dragon ({d['health']} health)", d["square"]),)))
    cards = [Piece(f"{c['name']} (Power card)") for c in view["power_cards"]]
    cards += [Piece(f"{c['name']} (Apocalypse card)") for c in view["apocalypse_cards"]]
    if cards:
        groups.append(Group("Cards in play", tuple(cards)))
    by_kind: dict[str, list[tuple[int, int]]] = {}
    for row, line in enumerate(view["terrain"]):
        for col, kind in enumerate(line):
            if kind != "grass":
                by_kind.setdefault(kind, []).append((col, row))
    for kind in TERRAINS:
        if kind in by_kind:
            squares = by_kind[kind]
            runs = tuple(Piece("", run) for run in square_runs(squares))
            groups.append(Group(f"{kind.capitalize()} squares ({len(squares)}) in runs", runs))
    return groups


def square_runs(squares: list[tuple[int, int]]) -> list[str]:
    """Squares as runs, top to bottom (issue 39: the 68 village squares were listed one by one):
    each row's side-by-side squares as one run ("a1-r1"), then the squares left alone in their
    row joined down their column ("a2-a17"); a lone square is itself ("k16")."""
    cells = set(squares)
    runs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    alone: set[tuple[int, int]] = set()
    for col, row in sorted(cells, key=lambda p: (p[1], p[0])):
        if (col - 1, row) in cells:
            continue  # inside a run begun to its left
        end = col
        while (end + 1, row) in cells:
            end += 1
        if end > col:
            runs.append(((col, row), (end, row)))
        else:
            alone.add((col, row))
    for col, row in sorted(alone):
        if (col, row - 1) in alone:
            continue  # inside a run begun above it
        end = row
        while (col, end + 1) in alone:
            end += 1
        runs.append(((col, row), (col, end)))

    def name(p: tuple[int, int]) -> str:
        return f"{COLUMNS[p[0]]}{p[1] + 1}"

    runs.sort(key=lambda r: (r[0][1], r[0][0]))
    return [name(a) if a == b else f"{name(a)}-{name(b)}" for a, b in runs]


def market_text(view: JSON) -> str:
    """`/game market`: each battle deck's top card with its text and price, and how many are left."""
    if not view.get("market"):
        return "The market is empty."
    lines = [
        f"**Market** ({len(view['market'])} battle decks; `buy <card>` while one of your units "
        f"stands on a village space{' or the open bazaar' if view.get('bazaar_open') else ''}):"
    ]
    for d in view["market"]:
        left = f"{d['count']} left" if d["count"] else "sold out"
        tag = _tag(d.get("source", ""), d["text"])
        lines.append(f"- **{d['name']}** (cost {d['cost']}, honor {d['honor']}, {left}): {d['text']}{tag}")
    return "\n".join(lines)


def describe(view: JSON) -> str:
    """`/game status` and `/game hand`: the round, the Round card, what is in effect, whose move,
    and the viewer's hand card by card with its whole text."""
    if view["outcome"]:
        return f"Game over: {view['outcome']['reason']}"
    phase = {"player": ", Player Phase", "enemy": ", Enemy Phase"}.get(view["phase"], "")
    lines = [
        f"{round_label(view['round'], view['phase'])}{phase}. "
        f"Units lost {lost_of(view['units_lost'], view['loss_threshold'])}; "
        f"divine favor tokens {view['divine_favor']}; "
        f"{count(len(view['minions']), 'minion')} on the board."
    ]
    if view.get("round_card"):
        lines.append(round_card_text(view["round_card"]))
    if view["dragon"]:
        dragon = view["dragon"]
        lines.append(f"Elder Dragon at {dragon['square']} with {dragon['health']} health.")
    for c in view["power_cards"] + view["apocalypse_cards"]:
        lines.append(f"In effect: {c['name']}: {c['text']}")
    to_act = view["to_act"]
    if to_act["decision"]:
        pending = view.get("pending") or {}
        who = (
            f" ({pending['decider']} decides; anyone may answer)"
            if pending.get("decider") and len(to_act["seats"]) > 1
            else ""
        )
        prompt = to_act["prompt"]
        if len(to_act["seats"]) == 1:
            # A respawn's question opens with its seat ("windkin: respawn …"): said once, not twice.
            prompt = prompt.removeprefix(f"{to_act['seats'][0]}: ")
        lines.append(f"Waiting for {', '.join(to_act['seats'])}{who}: {prompt}")
    elif view["turn"]:
        lines.append(f"{view['turn']} to play ({view['honor']} Honor this turn).")
    if view["hand"] is not None:
        lines.append(f"Your hand ({len(view['hand'])}):" if view["hand"] else "Your hand is empty.")
        copies: dict[str, int] = {}
        for c in view["hand"]:
            copies[c["name"]] = copies.get(c["name"], 0) + 1
        for c in view["hand"]:
            if copies.pop(c["name"], 0) == 0:
                continue  # told with its first copy
            n = sum(1 for x in view["hand"] if x["name"] == c["name"])
            dead = c["name"] == "hex"
            costs = "a dead card" if dead else f"cost {c['cost']}, honor {c['honor']}"
            times = f" ×{n}" if n > 1 else ""
            tag = _tag(c.get("source", ""), c["text"])
            lines.append(f"- **{c['name']}**{times} ({costs}): {c['text']}{tag}")
    return "\n".join(lines)


def teaching(content: Content) -> Teaching:
    """`/game help game:ignite`: win and turn first, then moves, races, decisions, readings."""
    races = "\n".join(f"- {race_line(r)}" for r in content.races.values())
    losses = ", ".join(f"{count(n, 'player')}: {count(k, 'unit')}" for n, k in LOSS_THRESHOLD.items())
    return Teaching(
        win=(
            "Everyone plays together against the minions the game sends each round.",
            f"Survive rounds 1 to {LAST_ROUND - 1}; in round {LAST_ROUND} the Elder Dragon comes: kill him "
            "to win (round 20 repeats until he falls).",
            "You all lose when too many of your units have fallen: 2 to 4, by the number of players "
            "(see Losing below).",
        ),
        turn=(
            "Player Phase: each player in turn plays cards from their hand (move, attack, shield, heal…).",
            "A card can instead be played for its Honor (coins); a unit on a village or bazaar can buy "
            "new cards with Honor.",
            "`end` ends your turn; you draw back up to 6 cards.",
            "Enemy Phase (automatic): a Round card is drawn and a die says which coloured minions "
            "spawn; every minion then moves and attacks.",
            "The bot pauses to let the group spend a divine favor token on a bad roll, or break a tie.",
        ),
        commands=(
            "`place <unit> <square>`: set up your units in the bottom village (before round 1).",
            "`play <card> <unit> <square>`: play a card for a unit (`play` may be left out: "
            "`march Ra1 h16`; some cards need only `play <card> <unit>` or `play <card>`).",
            "`honor <card>`: play a card for its Honor instead.",
            "`buy <card>`: buy from the market while a unit stands on a village or bazaar space.",
            "`end`: end your turn.",
            "A built war machine is used or moved by naming it instead of a unit "
            "(`play ballista bolt ballista1 h4`).",
            "`/game hand` shows your cards with their text, `/game market` what can be bought, "
            "`/game card name:<card or word>` any card or term (`/game card name:green` for a "
            "minion colour).",
        ),
        more=(
            ("Losing", f"Units fallen that lose the game: {losses}. A ratman counts half a unit."),
            ("Races (each seat is a race; `/game join seat:<race>` picks one)", races),
            (
                "Enemy Phase decisions",
                "`favor reroll` / `favor redraw` spends a divine favor token, `keep` keeps the roll; "
                "`choose <square>` breaks a tie (`choose defaults` answers every remaining tie of the "
                "phase); after losing every unit: `respawn left` or `respawn right`. One player is "
                "asked (whose unit it is about, else who acted last) but anyone may answer; a decision "
                "whose answers all end the same is not asked; nobody answering in time takes the default. "
                "The option `favor_rule` says ahead of time how the group spends divine favor unasked "
                "(see the options below).",
            ),
            (
                "Playing with the bot",
                "`/seat ai seat:<race> level:easy|medium|hard`: easy attacks what it can, steps out of "
                "reach and buys the cheapest card; medium weighs every card by what it changes (kills, "
                "reach, shields, heals) and buys the dearest; hard also moves in to strike, spends divine "
                "favor on bad rolls and steers ties toward the toughest unit.",
            ),
        ),
        readings={
            "nearest-by-walk": "A minion's nearest unit is the nearest along the way it would walk (round "
            "obstacles, never "
            "onto lava, through other minions; snow only when nothing can be reached without it), since "
            "the rulebook has a minion change targets when a barrier makes another unit closer. Units "
            "at equal distance are the players' choice.",
            "fire-range-to-forest": "Fire measures its range to the nearest square of a unit's forest.",
            "catapult-shoots-closest": "A catapult shoots the closest unit it can target.",
            "catapult-pusher-goes-round": "A catapult's pusher goes round it, never through it, and the "
            "catapult follows into the space the pusher left: on the turn it is placed it moves with its "
            "pusher but does not attack.",
            "favor-power-card-symbols": "`favor_rule=power-card` redraws every Power card that has an "
            "effect, the one drawn first in the Enemy Phase and any a Round card symbol draws.",
            "favor-asked-once": "An Enemy Phase stops for divine favor once at most: at the first Power "
            "or Apocalypse card that lets the enemies hurt a unit more this phase, or the first D20 that "
            "places a minion within reach of a unit when another roll would not; `favor_asks=every` asks "
            "after each draw and roll.",
            "five-bases-per-colour": "Each minion colour has 5 bases (the box's 40 shared out); a colour out "
            "of bases spawns the type on the next level down the Round card.",
            "shields-counted-in-choices": "Shields soak an attack before its damage is counted, for the "
            "enemies' choices too.",
            "random-tie-default": "A tie's default (taken when nobody answers) is drawn at random, not the "
            "first unit listed.",
            "whole-forest-burns": "Fire on a forest burns the whole forest (every forest square joined to it "
            "side by side) and hits everyone standing in it.",
            "enemy-fire-spares-enemies": "Enemy fire never burns the enemies' own catapults, and forest fire "
            "does not hurt the Elder Dragon.",
            "forest-shelters-minions": "A minion in a forest, like a unit, is hit only by fire.",
            "catapult-as-target": "An enemy catapult's square can be attacked like a minion's; it takes "
            "damage as a minion does (a dagger deals it half).",
            "machine-ground": "A war machine is never built or rolled onto lava, scorched earth or an "
            "immovable object.",
            "curse-targets-minions": "A curse card is aimed at a minion; the Elder Dragon cannot be cursed.",
            "bought-card-to-discard": "A card you buy goes with your discarded cards, not into your hand.",
            "built-machine-leaves-cards": "A war machine's card, once built, becomes the machine on the "
            "board and leaves your cards.",
            "hex-card": "A Hex card (stand-in) takes the place of a card of your hand, discarded at random: "
            "it cannot be played, and leaves the game when discarded.",
            "dragon-sacrifice-actions": "The Elder Dragon takes one action for each minion he sacrifices, up "
            "to 3; with `dragon_actions=three` he always takes 3.",
            "dragon-landing": "When the dragon cannot land where he aims, he lands on the free space within "
            "his flight nearest his target, ties to the space nearest where he aimed.",
            "hex-spreads-in-forest": "A hex spreads through every unit joined to its target side by side, in "
            "forests too.",
            "lightning-area": "Lightning hits the target square and the 8 around it: everyone there, the "
            "minion that cast it included.",
            "what-blocks-minions": "A minion walks through other minions (not while pushing a catapult); "
            "units, the Elder Dragon, catapults and war machines block it.",
            "penned-in": "A minion with no way to any space in range moves to the free space within its "
            "movement nearest its target.",
            "catapult-follows": "A catapult follows into the square its minion left last, so the two stay "
            "side by side.",
            "range-bonus-not-melee": "A Power card that adds range lengthens ranged attacks only, not melee "
            "reach.",
            "fast-is-card-speed": "Only minions whose card says fast move with the fast ones; a token that "
            "lets a minion move further does not make it fast.",
            "placing-order": "Whoever places units first also takes the first turn every round; a unit you "
            "do not move in placement stays where the bot put it.",
            "bottom-village": "The bottom village is the whole bottom row, corners included; "
            "`placement=auto` spreads the units evenly along it in seat order.",
            "straight-then-diagonal": "A minion walks straight along the longer way first, then diagonally; "
            "round an obstacle it goes straight, then diagonally to the obstacle's corner, then on.",
            "respawn-timing": "A player whose units have all fallen chooses a respawn corner at the "
            "beginning of the next Player Phase with `respawn=phase-start`, or at the start of their own "
            "turn with `respawn=own-turn`.",
            "lane-continues": "A minion whose row of spawn spaces is full continues on the next row from the "
            "same place.",
            "nearest-free-spawn": "When the space in front of a minion's spawn is taken, it uses the free "
            "space nearest to it.",
            "ambush-last-drawn": "With both Ambush cards in play, the one drawn last decides.",
            "favor-rule-once": "The option `favor_rule` spends one divine favor token per draw or roll, and "
            "the new result stands.",
            "decks-reshuffle": "When no Power or Apocalypse card is left to draw, the used ones are "
            "shuffled to be drawn again.",
            "village-extra-damage": "A unit hit by an attack while on a village square takes 1 more damage.",
            "respawn-row-full": "A unit respawning onto a full bottom row goes to the row above, from the "
            "same side.",
        },
        stand_ins=(
            "Most battle cards, the races' abilities, the terrain tiles and the minion cards were "
            'written fresh for this bot; each says "stand-in" where a player sees it.',
            "The Hex card: a Hex takes the place of a card of its player's hand, discarded at "
            "random, and cannot be played.",
        ),
    )


def action_text(content: Content, verb: str, card: str, cost: int | None = None, note: str = "") -> str:
    """The card a move plays, honors or buys, in one line ("" for a move with no card); `note`
    says how it differs for the seat (views.move_note)."""
    if verb not in ("play", "honor", "buy") or card not in content.cards:
        return ""
    return card_line(content.cards[card], cost) + note


def summary(state: IgniteState) -> dict[str, str]:
    """The end-of-game summary's game lines: rounds survived, units lost and minions killed, each
    total followed by the seats' shares in turn order. The result is the host's line: a game the
    players ended by their word has no outcome of the rules to state ("still playing" read as a
    contradiction under "Game over")."""
    o = state.outcome
    won = bool(o and o["winners"])
    # A round counts as survived once its Enemy Phase is over; a win survives the boss round too.
    survived = LAST_ROUND if won else max(state.round - 1, 0)
    lost = state.lost_halves / 2
    threshold = LOSS_THRESHOLD[len(state.seats)]
    return {
        "Rounds survived": f"{survived} of {LAST_ROUND}",
        "Units lost": f"{lost_of(lost, threshold)}{_shares(state, state.losses)}",
        "Kills": f"{count(sum(state.kills.values()), 'minion')}{_shares(state, state.kills)}",
        "Divine favor left": str(state.divine_favor),
    }


def _shares(state: IgniteState, counts: dict[str, int]) -> str:
    shares = [f"{seat} {counts[seat]}" for seat in state.seats if counts.get(seat)]
    return f" ({', '.join(shares)})" if shares else ""
