"""Every word a BattleLore player meets, explained for `/game card name:<term>`.

The vocabulary comes from the game's own code and content: units and their abilities, command,
lore and scenario cards, terrain, the die faces, the markers on the board, the setup phases and
the steps of a turn. Cards, units, scenarios and terrain keep their texts in `card_text`; TEXTS
explains the rest, and engine.glossary refuses a word without a text or a text for no word.
"""

from __future__ import annotations

from functools import cache
from typing import get_args

from engine.glossary import Glossary, Term, from_texts
from games.battlelore.content import FACES, UnitDef, load_content

PHASES = ("scenario", "draft", "muster", "deploy", "hands")  # State.phase before play
STEPS = ("command", "order", "hoard", "move", "attack", "lore")  # State.step in a turn
MARKERS = (
    "banner",
    "hoard",
    "inferno",
    "neutral marker",
    "decoy",
    "lore token",
    "yellow hex",
    "victory point",
    "face-down card",
    "deployment hex",
    "ordered",
    "figure",
    "centre row",
)
MORE = (
    "section",
    "neutral unit",
    "deployment card",
    "dragon",
    "terrain",
    "army",
    "muster points",
    "redeploy",
    "unit",
    "ability",
    "health",
    "cost",
    "combat",
    "range",
    "melee",
    "ranged",
    "hex",
    "command card",
    "command deck",
    "lore card",
    "lore deck",
    "deck",
    "turn",
    "step",
    "phase",
)
# Other names players meet for a term.
ALSO = {
    "victory point": ("VP", "banner VP"),
    "muster points": ("points",),
    "Into the Fire": ("fire",),
    "morale": ("flag",),
    "overpowered": ("overpower",),
    "neutral marker": ("white marker", "black marker"),
}
TERMS = ("weak", "support", "retreat", "flank", "centre", "overpowered", "legend")

TEXTS = {
    # die faces
    "strike": "A die face: in melee, 1 damage.",
    "cleave": "A die face: in melee, 1 damage, unless a weak unit is involved (option `weak_cleave`).",
    "pierce": "A die face: at range, 1 damage.",
    "morale": "A die face (a flag): the target retreats one hex for each, or takes 1 damage if it cannot.",
    "heroic": "A die face: some abilities turn it into damage (Precise, Venom, Flame Breath).",
    "lore": "A die face: the attacker's player gains a lore token. Also the step that ends a turn: "
    "`gain lore` (tokens) or `draw lore` (a card).",
    # abilities
    "rage": "Rolls 1 extra die for each figure the unit has lost.",
    "steadfast": "Ignores the first morale result of each combat roll against it.",
    "precise": "At range, each heroic result causes 1 damage.",
    "venom": "In melee, each heroic result causes 1 damage.",
    "charge": "Rolls 1 extra die in a melee attack after moving this turn.",
    "flying": "Non-Flying melee units roll 1 fewer die against it; it ignores what hexes it moves "
    "into would do (terrain, hoards, infernos).",
    "flame breath": "Each heroic result also causes 1 damage to an enemy unit next to the target.",
    "mighty": "Each combat roll, its player may reroll each pierce result once.",
    # markers
    "banner": "A banner hex: each one your units hold at the end of your turn (the VP step) scores VP.",
    "hoard": "The dragon's treasure tile. A unit on a hoard hex on the opponent's half at the start "
    "of its turn takes it for VP; entering one ends a move. Also the turn step after the order step "
    "when you have ordered your Great Dragon: `return` it to a free hoard hex on your half, or `done`.",
    "return": "The hoard step's move, `return <dragon's hex> <hoard hex>`: your ordered Great Dragon "
    "goes back to a free hoard hex on your half, and neither moves nor attacks this turn.",
    "inferno": "An inferno marker (from the Firestorm lore card): a non-Flying unit moving into it "
    "stops, takes 1 damage and removes it.",
    "neutral marker": "When both players field neutral units, a white marker shows Daqan's and a "
    "black marker Uthuk's.",
    "decoy": "A face-down deployment card with no unit: it leaves the board when the cards are revealed.",
    "lore token": "Pays for lore cards; gained from lore results and at the end of a turn.",
    "yellow hex": "Into the Fire: the numbered hexes 1–4 the uncontrolled dragon flies round; each VP "
    "step it moves to the next free one, then must attack.",
    "victory point": "VP: 16 wins a standard game; from banners held and hoards plundered.",
    "face-down card": "A deployment card lying face down on a deployment hex: a unit or a decoy, "
    "turned over when both players are done deploying.",
    "deployment hex": "A hex where its side may place deployment cards (outlined in the side's colour).",
    "ordered": "A unit ordered by this turn's command card (a gold ring round it): it may move and attack.",
    "figure": "One of a unit's figures; the dots under a unit count them, hollow for each one lost. "
    "A unit falls with its last figure.",
    "centre row": "Row 5, the middle row of the board between the two halves.",
    # terms
    "weak": "A unit down to one figure (see the option `weak_cleave`).",
    "support": "A unit with two adjacent friendly units ignores one morale result.",
    "retreat": "Moving straight back toward its own edge, one hex per morale result (nearer the "
    "middle first); a unit that cannot retreat takes 1 damage instead.",
    "flank": "The left or right section of the board, 4 hexes of each row (in setup, `flank <left|"
    "centre|right>` shows that section's free deployment hexes); command cards order "
    "units in a section.",
    "centre": "The middle section of the board between the two flanks.",
    "overpowered": "Into the Fire: one player has dealt the dragon damage equal to its health; that "
    "player then wins by holding its hoard.",
    "legend": "A Legend unit, like the Great Dragon: it cannot be mustered in Into the Fire.",
    # phases and steps
    "scenario": "Standard game setup: each player picks one of the scenario cards they drew.",
    "draft": "Standard game setup: the players take neutral units in turn (the Great Dragon among them).",
    "muster": "Setup: spend your army points on units, or take a ready-made army, and swap lore cards.",
    "deploy": "Setup: place your deployment cards face down (decoys too) on your deployment hexes.",
    "hands": "Setup: draw your first hand and discard down to its size.",
    "command": "The step where you play one command card.",
    "order": "The step where you pick the units your command card orders.",
    "move": "The step where ordered units move.",
    "attack": "The step where ordered units attack.",
    "VP step": "The step that ends your turn's fighting: score banners you hold (standard game), or the "
    "Great Dragon flies to the next free yellow hex and must attack (Into the Fire).",
    "play": "The battle itself, once setup is done: players take turns.",
    "quick": "A setup move, offered first at each setup choice: the suggested setup is taken for "
    "the rest of yours (scenario card, draft, army, lore swaps, deployment and opening discards), "
    "each step told in one line with its reason. Make the choices one by one to pick them yourself.",
    # the game and its sides
    "Daqan": "One of the two armies: the Daqan Lords, blue on the board.",
    "Uthuk": "One of the two armies: the Uthuk Y'llan, red on the board.",
    "Into the Fire": "The Great Dragon scenario (`scenario=into-the-fire`): the dragon belongs to "
    "nobody and flies between the yellow hexes. Overpower it, then hold its hoard hex at the "
    "start of your turn to win.",
    "army": "The units a player musters with their muster points, or a ready-made one (`army <name>`).",
    "muster points": "What a player spends on units when mustering an army; a unit's card shows its cost.",
    "redeploy": "Into the Fire: every eliminated unit, whatever eliminated it, comes back at once on "
    "a free deployment hex of its side.",
    # units and fighting
    "unit": "A group of figures that moves and fights together; `/game card name:<unit>` shows its numbers.",
    "ability": "A unit's special rule, named on its card (Steadfast, Charge...); each has its own entry.",
    "health": "How much damage a unit takes before it falls; most units lose a figure for each.",
    "cost": "What a unit costs in muster points.",
    "combat": "How many dice a unit rolls when it attacks.",
    "range": "How many hexes away a ranged unit can attack.",
    "melee": "An attack on an adjacent hex; strike and cleave results damage.",
    "ranged": "A ranged unit attacks from 2 hexes up to its range away, where it can see; pierce "
    "results damage. An adjacent enemy it attacks in melee.",
    "dragon": "The Great Dragon: a Legend unit that flies, breathes fire and rerolls pierce results. "
    "A player drafts it in a standard game; in Into the Fire it belongs to nobody.",
    "terrain": "What a hex holds: clear ground, forest, hill, river or building; "
    "`/game card name:<terrain>` says what each does.",
    "section": "One of the board's three parts, the left flank, the centre and the right flank; "
    "command cards order units by section.",
    "neutral unit": "A unit of neither side, the Great Dragon among them: taken in the draft of a "
    "standard game.",
    "deployment card": "A card placed face down on a deployment hex during setup: one of your units, "
    "or a decoy; all are turned over when both sides are done.",
    "hex": "One space of the board, named by column letter and row number (`e5`).",
    "command card": "Played at the start of your turn: it orders units in a flank or the centre.",
    "command deck": "Your command cards; you draw back up to your hand size at the end of a turn.",
    "lore card": "A card drawn from your lore deck and played at the time it says, by paying its "
    "cost in lore tokens.",
    "lore deck": "Your face-down lore cards; `draw lore` at the end of a turn takes the top one.",
    "deck": "A face-down pile of cards: the command deck or the lore deck.",
    "turn": "One player's go: command, order, move, attack, then the VP and lore steps.",
    "step": "A part of a turn: command, order, move, attack, VP, lore.",
    "phase": "A part of the game: scenario, draft, muster, deploy and hands for setup, then play.",
}


def _said(name: str) -> str:
    return name.replace("_", " ")


def vocabulary() -> dict[str, str]:
    abilities = get_args(get_args(UnitDef.model_fields["abilities"].annotation)[0])
    words = {face: "die face" for face in FACES}
    words |= {_said(a): "ability" for a in abilities}
    words |= {m: "marker" for m in MARKERS} | {t: "term" for t in TERMS}
    words |= {p: "setup phase" for p in PHASES} | {s: "turn step" for s in STEPS if s not in words}
    words |= {"VP step": "turn step", "play": "phase", "return": "move", "quick": "setup move"}
    words |= {n: "term" for n in MORE} | {"Daqan": "side", "Uthuk": "side", "Into the Fire": "scenario"}
    return words


@cache
def glossary() -> Glossary:
    from games.battlelore.texts import card_text  # card texts need the content loaded

    c = load_content()
    terms = [Term(u.title, "unit", card_text(key)) for key, u in c.units.items()]
    terms += [Term(x.title, "lore card", card_text(key)) for key, x in c.lore.items()]
    terms += [Term(x.title, "command card", card_text(key)) for key, x in c.commands.items()]
    terms += [Term(x.title, "scenario card", card_text(key)) for key, x in c.scenarios.items()]
    terms += [Term(key, "terrain", card_text(key)) for key in c.terrain]
    terms += from_texts(vocabulary(), TEXTS, "games/battlelore/glossary.py", ALSO)
    return Glossary(terms)
