"""Every word an Ignite player meets, explained for `/game card name:<term>`.

The vocabulary comes from the game's own code and content: races, battle, Power and Apocalypse
cards, terrain, the minion colours and the Elder Dragon, their attacks and speeds, the war
machines, the phases and tokens. A minion colour's entry is written from its Enemy card (both
levels), so it always says what the data says.
"""

from __future__ import annotations

from functools import cache

from engine.glossary import Glossary, Term, from_texts
from games.ignite.board import TERRAINS
from games.ignite.content import Content, load_content
from games.ignite.enemy_cards import ATTACKS, COLOURS, DRAGON, SPEEDS, EnemyStats, load_enemy_cards
from games.ignite.texts import card_line, effect_line, race_line


# Words for the rules' own names of attacks and speeds (fire_arrow -> "fire arrow").
def _said(name: str) -> str:
    return name.replace("_", " ")


TEXTS = {
    # terrain
    "village": "The ring of spaces round the board's edge: your units start in the bottom village, "
    "the minions enter along the top. A unit standing on a village space can buy battle cards, but "
    "takes 1 more damage from every attack that hits it there (minions take no extra damage).",
    "bazaar": "The four middle squares. Once open, a unit standing on it can buy battle cards.",
    "grass": "Open ground: no effect.",
    "forest": "Cover. The enemies reach a unit in a forest only with fire and lightning attacks "
    "(the rulebook's Rule 3 and 4 notes); your cards reach a minion in a forest only with fire (a "
    "Lightning Bolt card is no fire). Fire sets the whole forest ablaze, hitting every figure in it.",
    "lava": "A unit ending its move here loses 1 health (emberfolk excepted); minions keep off it "
    "unless Hardened.",
    "snow": "Costs 2 movement to enter; minions cross it only when nothing can be reached without it.",
    "water": "Open water (stand-in): no effect on moving or fighting.",
    "scorched": "Scorched earth: a unit ending its move here loses 1 health (emberfolk excepted); "
    "minions keep off it unless Hardened.",
    "acid": "An acid pool (stand-in): a unit ending its move here loses 1 health, emberfolk too; "
    "minions cross it freely.",
    "rock": "An immovable object: no figure can walk into it.",
    # attacks
    "melee": "An attack on an adjacent space.",
    "arrow attack": "A minion's ranged attack; it cannot reach a unit in a forest.",
    "fire arrow attack": "A minion's burning arrow: it reaches into a forest and sets it ablaze.",
    "lightning": "A minion's attack: it strikes the target space and the 8 around it, hitting every "
    "figure there, the attacker too, and it reaches a unit in a forest (Rule 3 note: even at range 1, "
    "where it strikes itself). Your Lightning Bolt card is no fire: it cannot reach into a forest.",
    "spell": "A ranged magical attack; it cannot reach a unit in a forest.",
    "hex attack": "A hex spreads through every unit orthogonally connected to the target; each hexed "
    "unit's player gains a Hex card, a dead card that takes the place of a card of the hand "
    "(discarded at random).",
    "magical fire": "A magical burning attack: it reaches into a forest and sets it ablaze.",
    "bazaar guardian": "The orange level 1 minion: it is placed to guard the bazaar.",
    "dragon fire": "The Elder Dragon's breath: fire, so it reaches into forests.",
    "catapult": "A war machine a minion pushes (the Catapult Power card): it shoots the closest unit "
    "it can target 2 to 7 spaces away for 3 damage; its pusher moves only 2.",
    # speeds
    "fast": "Moves before the normal enemies each Enemy Phase.",
    "normal": "Moves after the fast enemies.",
    "flying": "Flies over figures and terrain.",
    "war machine": "A machine rather than a figure: a catapult moves only as its pusher does.",
    "ballista": "A war machine your units build with the Ballista card and fire with Ballista Bolt "
    "(name it instead of a unit: `play ballista bolt ballista1 h4`).",
    # phases and tokens
    "placement": "Before round 1: each player in turn places their units in the bottom village.",
    "quick start": "`quick`, offered first before round 1: it takes your seat's whole setup, a "
    "placement and the free turns' purchases suggested for your race (said in one line when you "
    "take it); from round 1 on your turns are your own. Leave it out to make every choice yourself.",
    "cycle": "Each player taking one turn, in turn order; the free turns are counted in cycles.",
    "difficulty": "Option `difficulty` (easy, sensible, regular, hard, expert, insanity): how many "
    "divine favor tokens and free turns you start with. Easy and sensible spawn one minion fewer "
    "each time (on easy minions never reach level 2); on expert and insanity level 2 minions move "
    "1 or 2 further.",
    "free turn": "A turn before round 1 with no Enemy Phase; the difficulty says how many.",
    "Player Phase": "Each player in turn plays cards, buys, and ends their turn.",
    "Enemy Phase": "Automatic: a Round card is drawn, a die picks which minions spawn, then every "
    "minion moves and attacks, the fast ones first.",
    "Round card": "Drawn each Enemy Phase: for each face of a six-sided die, which minions spawn "
    "(`3 green` is three green minions; `/game card name:green` says what they do) and which "
    "Power or Apocalypse cards come into play.",
    "minion": "An enemy figure of one colour; its Enemy card (`/game card name:<colour>`) says how it "
    "moves and attacks. From round 11 every minion is level 2.",
    "unit": "One of your race's figures on the battlefield, named by your race's mark and a number (`Ra1`).",
    "divine favor": "A shared token: spend one to reroll the enemies' die or redraw their card.",
    "honor": "Coins: a card played for its Honor adds its Honor value; spend Honor to buy cards.",
    "shield": "Soaks damage to a unit before it is counted; it lapses at the start of your next turn.",
    "upgrade": "At the start of round 11 every Enemy card flips to level 2.",
    "respawn": "After losing every unit, a player brings one back on the bottom row, at the left or "
    "the right corner, at the beginning of the next Player Phase (option `respawn=own-turn`: as "
    "their own turn begins).",
    "level": "Each minion colour has a level 1 and a level 2 side; level 2 from round 11.",
    # marks on the map
    "health left": "The green pips under a unit: its health left.",
    "damage taken": "The red pips under a minion: the damage it has taken.",
    "dagger clip": "A half mark on a minion: a dagger dealt it half a damage; two halves make one.",
    "knocked down": "A knocked-down minion stands up instead of moving in the next Enemy Phase.",
    "immobilized": "An immobilized minion cannot move in the next Enemy Phase (it may still attack).",
    "cannot act yet": "A minion placed this Enemy Phase (a bazaar spawn or guardian): it neither "
    "moves nor attacks until the next one.",
    "moved": "An arrow along the whole path a minion walked in the last Enemy Phase.",
    "attacked": "A burst on a square a minion attacked in the last Enemy Phase.",
    # cards and decks
    "Power card": "An enemy advantage: one is drawn at the start of every Enemy Phase (and more when "
    "the Round card shows the symbol). It stays in effect until the next Enemy Phase; the status "
    "lists it under In effect.",
    "Apocalypse card": "A harsher enemy advantage, drawn only when the Round card's rolled group "
    "shows its symbol; like a Power card it stays in effect until the next Enemy Phase.",
    "shuffle icon": "A mark on some Power cards: at the next Enemy Phase every Power card, used or "
    "not, is shuffled back into one deck.",
    "ambush": "The Ambush Power cards: new minions enter down the left or the right edge of the "
    "board instead of along the top row.",
    "battle card": "Your own cards: you start with a few and buy more from the market. Play one "
    "for its action (move, attack, shield...) or for its Honor.",
    "battle deck": "A stack of copies of one battle card; the market is made of battle decks.",
    "market": "The battle decks you can buy from (`/game market`) while one of your units stands "
    "on the village or an open bazaar.",
    "hand": "The battle cards you hold (`/game hand`). After your turn you discard it and draw a "
    "new hand of 6.",
    "cost": "The Honor you spend to buy a card from the market.",
    "D20": "The twenty-sided die rolled each Enemy Phase for where the new minions enter: 1 to 18 "
    "count along the top row (even: side by side, odd: a space apart), 19 and 20 put them in the "
    "bazaar.",
    # figures and fighting
    "race": "Your people (`/game card name:<race>`): how many units you field, their health and "
    "their special ability.",
    "health": "How much damage a figure can take; a unit at 0 health falls.",
    "damage": "What an attack takes off a figure's health; shields soak it first.",
    "soak": "A shield soaks damage: it takes the damage instead of the unit.",
    "attack": "A minion attacks after moving, whenever a unit is within its range; your attack "
    "cards say their own range and damage.",
    "range": "How far an attack reaches, counted in spaces in any direction, diagonals included: "
    "range 1 is an adjacent space.",
    "reach": "Whether an attack can get to a figure: a unit in a forest is reached only by the "
    "enemies' fire and lightning, a minion in a forest only by your fire cards.",
    "movement": "How many spaces a figure may move; snow costs 2. Your movement cards say how far.",
    "spawn": "New minions entering the board in the Enemy Phase, where the D20 says.",
    "sacrifice": "Each turn the Elder Dragon first sacrifices up to 3 minions (takes them off the "
    "board), and takes one action for each; option `dragon_actions=three` gives him 3 actions "
    "even with fewer minions to sacrifice.",
    "fire": "Fire attacks (fire arrow, magical fire, dragon fire) reach into a forest and set it "
    "ablaze, hitting every figure in it.",
    # rounds
    "round": "A Player Phase then an Enemy Phase. Survive 19 rounds; in round 20 the Elder Dragon comes.",
    "turn": "One player's part of the Player Phase: play cards, buy, then `end`.",
    "phase": "A part of a round: the Player Phase, then the Enemy Phase.",
    "terrain": "What a space of the board is: grass, forest, lava, snow, water, acid, rock, "
    "scorched earth, the village or the bazaar; `/game card name:<terrain>` says what each does.",
    "tie": "When a minion could go two ways at equal cost, the players choose its square (`choose d12`); "
    "the picture rings the minion and dashes its candidates.",
    "defaults": "The answer to a tie that settles it, and every tie left in this Enemy Phase, by "
    "default: each minion takes the square drawn at random for it (`choose defaults`, the button "
    '"settle all ties by default").',
}


# Other names players meet for a term: the rules' and the status lines' words for it.
ALSO = {
    "scorched": ("scorched earth",),
    "Power card": ("power",),
    "Apocalypse card": ("apocalypse",),
    "divine favor": ("favor token", "divine favor token"),
    "war machine": ("machine",),
    "soak": ("soaked",),
    "hex attack": ("hexed",),
    "quick start": ("quick",),
    "damage": ("dmg",),
    "shuffle icon": ("shuffle",),
    "sacrifice": ("sacrificed",),
}


def _enemy_text(levels: list[EnemyStats]) -> str:
    parts = []
    for e in levels:
        reach = f"range {e.range_min}" if e.range_min == e.range_max else f"range {e.range_min}–{e.range_max}"
        note = f" {e.notes}" if e.notes else ""
        parts.append(
            f"Level {e.level}: {e.name}, {_said(e.speed)}, moves {e.movement}, {_said(e.attack)} "
            f"attack at {reach} for {e.damage} damage.{note}"
        )
    return " ".join(parts)


def vocabulary(content: Content | None = None) -> dict[str, str]:
    c = content or load_content()
    words: dict[str, str] = {}
    words |= {name: "terrain" for name in TERRAINS}
    # An attack that shares a card's name ("hex") is its own entry: "hex attack".
    words |= {_said(a) + (" attack" if _said(a) in c.cards else ""): "enemy attack" for a in ATTACKS}
    words |= {_said(s): "enemy speed" for s in SPEEDS}
    words |= {card.machine: "war machine" for card in c.cards.values() if card.machine}
    for name in ("placement", "quick start", "free turn", "Player Phase", "Enemy Phase"):
        words[name] = "phase"
    for name in ("Power card", "Apocalypse card", "battle card", "battle deck", "shuffle icon", "D20"):
        words[name] = "card" if name.endswith("card") else "term"
    for name in (
        "ambush",
        "market",
        "hand",
        "cost",
        "race",
        "health",
        "damage",
        "soak",
        "attack",
        "range",
        "reach",
        "movement",
        "spawn",
        "sacrifice",
        "fire",
        "cycle",
        "difficulty",
        "round",
        "turn",
        "phase",
        "terrain",
        "Round card",
        "minion",
        "unit",
        "divine favor",
        "honor",
        "shield",
        "upgrade",
        "respawn",
        "level",
        "health left",
        "damage taken",
        "dagger clip",
        "knocked down",
        "immobilized",
        "cannot act yet",
        "moved",
        "attacked",
        "tie",
        "defaults",
    ):
        words[name] = "term"
    return words


@cache
def glossary() -> Glossary:
    c = load_content()
    stats = load_enemy_cards()
    # A battle card is also read as "<name> card" ("gains a Hex card").
    terms = [
        Term(name, "battle card", card_line(card), also=(f"{name} card",)) for name, card in c.cards.items()
    ]
    terms += [
        Term(name, f"{card.kind} card", effect_line(card))
        for name, card in {**c.powers, **c.apocalypses}.items()
    ]
    terms += [Term(name, "race", race_line(race)) for name, race in c.races.items()]
    for colour in COLOURS:
        levels = [stats[(colour, lv)] for lv in (1, 2)]
        terms.append(Term(colour, "minion colour", _enemy_text(levels)))
    terms.append(
        Term(
            "Elder Dragon",
            "boss",
            also=("dragon",),
            text=_enemy_text([stats[(DRAGON, 1)]]) + " He comes in round 20 and takes 3 damage to kill.",
        )
    )
    terms += from_texts(vocabulary(c), TEXTS, "games/ignite/glossary.py", ALSO)
    return Glossary(terms)
