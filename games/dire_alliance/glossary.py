"""Every word a Dire Alliance player meets, explained for `/game card name:<term>`.

The vocabulary comes from the game's own code and content: fighters, leaders, factions and
their keywords, the statuses a fighter or objective can have, the dice faces, every action verb
of both modes, Raid Mode's heroes, classes, villain, minion ranks and phases. TEXTS explains the
words that are not cards; engine.glossary refuses a word without a text or a text for no word.
"""

from __future__ import annotations

import re
from dataclasses import fields
from functools import cache
from typing import get_args

from engine.glossary import Glossary, Term, from_texts
from games.dire_alliance import notation
from games.dire_alliance.card_texts import card_text
from games.dire_alliance.content import Content, Fighter, HeroStep, StepKind, load_content
from games.dire_alliance.state import Fighter as FighterState

TEXTS = {
    "attack priority": "Whom an enemy attacks when several heroes are in reach: the hero with the "
    "most face-up action-row cards showing damage icons of the attacker's rank; a tie is the "
    "players' to break.",
    # keywords
    "vampire": "A Vampire fighter that damages an enemy with a Melee action becomes sated; while "
    "sated it adds the vampire die to its attack and defence rolls.",
    "resilient": "A Resilient fighter loses no card when it suffers damage in Battle Mode (it is "
    "still stunned).",
    # statuses
    "stunned": "Hit and not yet ready (a grey token on the map). A stunned fighter makes no "
    "opportunity attacks and does not stop an enemy from controlling an objective; it readies "
    "when it is next activated.",
    "sated": "A Vampire that has fed (a dark dot on its token): it rolls the vampire die too, until "
    "it suffers damage.",
    "defeated": "A fighter with no card left to lose is taken off the map; its owner takes two dread cards.",
    "claimed": "An objective taken by the enemy (a crossed square on the map). Claiming three of "
    "the opponent's objectives wins Battle Mode; in Raid Mode, three claimed by the enemies lose it.",
    "consecrated": "Raid Mode: an objective a hero has made safe with Interact; it leaves the map "
    "and can no longer be claimed.",
    "ready": "Not stunned: a ready enemy in your area can attack you as you leave and stops you "
    "controlling its objective.",
    # dice
    "hit": "A die face: an attack hits with at least one hit and no more blocks than hits.",
    "block": "A die face of a defence roll: the attack misses when the blocks outnumber its hits "
    "(as many blocks as hits, and it still hits).",
    "blank": "A die face that does nothing.",
    "drain": "The vampire die's own face: a sated Vampire that damages with it also heals.",
    "vampire die": "The extra die a sated Vampire rolls with its attack and its defence.",
    # Battle Mode actions and steps
    "move": "Go to an adjacent area; each ready enemy in the area you leave may make an "
    "opportunity attack first.",
    "withdraw": "Go to an adjacent area without drawing opportunity attacks.",
    "melee": "Attack an enemy in your own area with your Melee value in dice.",
    "melee all": "A Melee attack against every enemy in your area, one roll for all.",
    "shoot": "Attack an enemy in an area you can see with your Shoot value in dice.",
    "focus": "Gain cards for a fighter: 2 for itself or a friend in its area, 1 for one it can see.",
    "control": "Claim an enemy objective in your area when no ready enemy is there.",
    "interact": "Use the scenario's special feature in your area (Raid Mode: consecrate an objective).",
    "return dread": "Put a dread card from your hand back into the dread pile.",
    "recover": "A stunned Resilient fighter spends its activation getting ready.",
    "idle": "Play a card without activating its fighter (a player may decline an activation); the "
    "card is discarded, and a stunned fighter stays stunned. A card whose fighter is gone goes so too.",
    "heal": "Return one of the fighter's cards from the graveyard to the discard pile.",
    "offering": "Give a card of this fighter from the discard pile to sate a Vampire ally.",
    "push": "Move an enemy into an adjacent area (it draws no opportunity attacks).",
    "skip": "Pass over a step of a special you cannot or will not do.",
    "step": "One part of a card's ➤ special, done in the order the card lists them: each asks for "
    "its own target (an area to move to, an enemy to attack), or `skip` passes over it.",
    "claim": "Battle Mode: the defender discards a played card unresolved to take the initiative "
    "(`claim <card>`). Raid Mode: an enemy claims an objective in its area, by Control when no hero "
    "is there or after damaging a hero there; three claimed lose the game.",
    "oppose": "Answer an enemy's move out of your area with an opportunity attack.",
    "opportunity attack": "A free Melee by a ready enemy against a fighter leaving its area.",
    # Raid Mode actions
    "special": "Play a card face up in the action row for its ➤ special and its modifiers.",
    "down": "Play a card face down in the action row for a basic action: Move, Melee, Shoot, Rest "
    "or Interact.",
    "rest": "A face-down action: heal a card of your choice from the damage pile.",
    "boost": "Put a card from your hand face up into the action row for its modifiers only.",
    "exert": "Once a phase: suffer a damage (the top card of your deck) for an extra Move.",
    "stop": "Heroes React: play no more cards this phase.",
    "gain": "Take a card from your supply into your discard pile when the game offers one.",
    "roll": "When you may boost before dice (an enemy attacking you, or your own attack): roll "
    "without boosting any more.",
    # things on the table
    "dread": "A dead card a player takes when a fighter is defeated; it clogs the hand until returned.",
    "objective": "A square marker in an area. Battle Mode: each side has its own; claim three of the "
    "opponent's to win. Raid Mode: one of each minion colour; the heroes lose when the enemies have "
    "claimed three, and a hero in its area may consecrate one (Interact) to keep it from them.",
    "initiative": "The token that says who is the aggressor this round.",
    "aggressor": "The player holding the initiative: plays first in each half of the round.",
    "defender": "The other player: plays second, and may discard a played card to claim the initiative.",
    "area": "A numbered space of the map; fighters move from area to adjacent area.",
    "black line": "A sight-blocking line on the map: areas on either side of it cannot see each other.",
    "spawn": "Raid Mode: a minion drawn at random from the bag (its colour too) appears in the area "
    "of its colour's objective (the coloured rings on the map).",
    "one hit from death": "Raid Mode: a hero whose next hit of some kind kills: with deck and "
    "discard pile empty, a grudge's hit (it takes the top card of the deck, so a card in hand cannot "
    "save the hero); with no card of a rank's damage icon left in hand, deck or discard pile, a hit "
    "from an enemy of that rank. Flagged in the status, the board and the picture (a red ring).",
    "graveyard": "Where a damaged fighter's cards go; Heal brings them back.",
    "action row": "Raid Mode: the two cards a hero has played this round, face up or face down.",
    "fighter": "One of a faction's figures on the map (its token shows the first letters of its "
    "name); each card in your hand names one of your fighters.",
    "hero": "Raid Mode: one player's figure, a hero of a class; its token shows the first letters "
    "of its name.",
    "sight point": "The dot in each area: sight runs from dot to dot, and a black line between "
    "them blocks it.",
    "attack": "A Melee or Shoot: one attack roll, a defence roll for each target; on the Raid map "
    "a dashed line shows an enemy's attack.",
    "villain": "Raid Mode: the enemy leader. Its villain card each Enemies Act says what the "
    "minions and the villain do; defeat it to win.",
    "minion": "Raid Mode: an enemy figure of a colour and a rank, woken or spawned by villain cards.",
    # the two modes and their parts
    "Battle Mode": "The two-player game: two factions fight over the map's objectives; claiming "
    "three of the opponent's wins.",
    "Raid Mode": "The co-operative game (`mode=raid`): 1 to 4 heroes against the villain and its "
    "minions. Defeat the villain to win; you lose if a hero dies, the enemies claim 3 objectives "
    "or the villain deck runs out.",
    "Aggressor Turn": "Battle Mode: the aggressor's half of the round. In Turn 1 they play 2 cards, "
    "in Turn 2 the rest of their hand, and activate the fighters the cards name.",
    "Defender Turn": "Battle Mode: the defender's half of the round, played like the aggressor's.",
    "round": "Battle Mode: Aggressor Turn 1, Defender Turn 1, Aggressor Turn 2, Defender Turn 2, "
    "then everyone draws a new hand. Raid Mode: Heroes Act, Enemies Act, Heroes React, Enemies "
    "React.",
    "turn": "A player's chance to act: in Battle Mode the Aggressor and Defender Turns; in Raid "
    "Mode each hero plays its cards in the Heroes phases.",
    "phase": "Raid Mode: a part of the round: Heroes Act, Enemies Act, Heroes React, Enemies React.",
    "action": "What an activated fighter does: Move, Withdraw, Melee, Shoot, Focus, Control, "
    "Interact or its card's special; a villain card lists its minions' actions.",
    "activate": "Battle Mode: after playing cards, each fighter named on them takes its activation: "
    "a stunned one gets ready, then it performs one action.",
    "modifiers": "Raid Mode: a face-up card's plus or minus to melee, shoot and defence; every "
    "face-up card in an action row adds its modifiers (a villain card's add to the villain's).",
    "damage icon": "Raid Mode: the numbers [1] [2] [3] on a hero's card. When an enemy of rank 2 "
    "damages a hero, the hero loses a card showing [2].",
    # the villain's answers (stand-in, raid.json)
    "grudge": "Raid Mode (stand-in villain card): each attack a hero makes on the Hollow Warden, hit "
    "or miss, earns that hero a grudge. At its next activation, before its action, it repays each: an "
    "attack of its own on that hero, in melee in its area or shot at a hero it sees; a hit costs the "
    "top card of the hero's deck. A hero it neither reaches nor sees escapes the grudge.",
    "Grave Ward": "Raid Mode (stand-in villain card): the Hollow Warden takes at most as many wounds a "
    "round as there are heroes, whoever lands them (one hero may land two); a hit beyond that is "
    "turned aside (it still earns a grudge). At the standard "
    "difficulty, once it has taken half its wounds it defends with a die more.",
    "difficulty": "Raid Mode: the game option that sets how many wounds a hero the villain holds "
    "(gentle 3, standard 3 and one more for the party, hard and dire 5), whether it defends with a "
    "die more once half are taken (at standard) and, at dire, how many dice its grudges roll.",
    "minion bag": "Raid Mode: where the minions not on the map wait; a spawn draws from it.",
    "enemy phase": "Raid Mode: the enemies' part of the round (Enemies Act or Enemies React); the "
    "game plays it for them.",
    "scenario": "The set-up and the goal of a game: where each side starts, its objectives, and how to win.",
    "faction": "A side's band of fighters with its leader (`/game card name:<faction>`).",
    "leader": "A faction's champion, chosen as a game option; its cards join the faction's deck.",
    # cards and piles
    "hand": "The cards you hold (`/game hand`): a new hand of four is drawn each round.",
    "deck": "Your face-down cards. When you must draw and it is empty, your discard pile is "
    "shuffled into a new deck.",
    "discard pile": "Where played cards go, face up; it becomes your deck again when the deck runs out.",
    "supply": "Spare copies of your fighters' (or hero's) cards beside your deck: Focus and Gain, "
    "and a hero who defeats an enemy, take cards from it into your discard pile.",
    "dread pile": "Battle Mode: the shared pile of dread cards. A defeated fighter's owner takes "
    "two; returning one puts it back here.",
    "damage pile": "Raid Mode: where a hero's lost cards go, like the graveyard of Battle Mode; "
    "Rest heals a card from it.",
    "villain deck": "Raid Mode: the villain's cards, one drawn each time the enemies act. If it runs "
    "out when a card must be drawn, the heroes lose.",
    # fighting
    "damage": "What a successful attack deals: the target loses one card for each (Battle Mode, "
    "to the graveyard; Raid Mode, a card showing the attacker's rank, to the damage pile).",
    "defence": "How many dice a fighter rolls against an attack; more blocks than the attack's hits "
    "make it miss.",
    "rank": "Raid Mode: how strong an enemy is (each minion's and the villain's is on its card); a "
    "hero it damages loses a card showing that rank's damage icon.",
    "wound": "Raid Mode: damage on the villain. It is defeated when its wounds reach its health "
    "(a number times the players).",
    "enemy": "Any fighter of the other side; in Raid Mode the villain and its minions.",
    "sight": "Whether one area can see another: no black line between their sight points. Shoot "
    "needs it; `/game board sight:<area>` shades what an area cannot see.",
    "Heroes Act": "Raid Mode phase: draw 4, then give each hero two cards in its action row.",
    "Enemies Act": "Raid Mode phase: a villain card is drawn; each hero activates the nearest "
    "minion of its colour or spawns one, then the villain acts.",
    "Heroes React": "Raid Mode phase: play the rest of your cards, or stop.",
    "Enemies React": "Raid Mode phase: the enemies act once more.",
}


# Other names players meet for a term.
ALSO = {
    "claimed": ("claimed by",),
    "discard pile": ("discard",),
    "Raid Mode": ("raid",),
    "wound": ("wounds",),
    "stop": ("stopped",),
    "activate": ("activation",),
    "initiative": ("initiative token",),
}


def _places(c: Content) -> list[Term]:
    """Every area of the map by its name, with its number and neighbours; the scenarios."""
    stand_in = " (stand-in map)" if c.board.stand_in else ""
    terms = [Term(c.board.name, "map", f"The map both modes are played on{stand_in}: numbered areas.")]
    for area in c.board.areas:
        near = ", ".join(f"{c.area(n).name} ({n})" for n in c.neighbours(area.id))
        terms.append(Term(area.name, "area", f"Area {area.id} of the map{stand_in}. Next to: {near}."))
    for sc in c.scenarios.values():
        terms.append(Term(sc.name, "scenario", sc.text))
    r = c.raid.scenario
    villain = re.sub(r"^The ", "the ", c.raid.villain.name)  # inside a sentence
    terms.append(Term(r.name, "scenario", f"The Raid Mode scenario: defeat {villain} to win."))
    if r.interact is not None:
        terms.append(Term(r.interact.name, "interact", r.interact.text))
    terms += [
        Term(sc.interact.name, "interact", sc.interact.text) for sc in c.scenarios.values() if sc.interact
    ]
    return terms


def _specials(c: Content) -> list[Term]:
    """The ➤ specials of every fighter and hero card, and the villain's ★ ability, by name."""
    terms = []
    mark = " (stand-in)" if c.roster.stand_in else ""
    for f in [*(f for fa in c.roster.factions for f in fa.fighters), *c.roster.leaders]:
        terms += [Term(sp.name, "special", f"{f.name}'s special{mark}: {sp.text}") for sp in f.specials]
    r = c.raid
    mark = " (stand-in)" if r.stand_in else ""
    cards = [h.card for h in r.heroes] + [x for k in r.classes for x in k.cards]
    terms += [
        Term(x.special.name, "special", f"On {x.name}{mark}: {x.special.text}") for x in cards if x.special
    ]
    if r.villain.star is not None:
        star = f"{r.villain.name}{mark}: {r.villain.star.text}"
        terms.append(Term(r.villain.star.name, "villain ability", star))
    return terms


def _flags(cls: type) -> list[str]:
    return [f.name for f in fields(cls) if f.type in ("bool", bool)]


def vocabulary(content: Content | None = None) -> dict[str, str]:
    c = content or load_content()
    words: dict[str, str] = {}
    keyword_type = next(f for f in Fighter.model_fields.items() if f[0] == "keywords")[1].annotation
    words |= {k: "keyword" for k in get_args(get_args(keyword_type)[0])}
    words |= {name: "status" for name in _flags(FighterState)} | {"claimed": "status", "ready": "status"}
    words["consecrated"] = "status"
    words |= {face: "die face" for face in (*c.dice.combat, *c.dice.vampire)}
    words["vampire die"] = "die"
    verbs = {*notation.CARD_VERBS, *notation.STEP_VERBS, *get_args(StepKind), *get_args(HeroStep)}
    verbs |= {"claim", "oppose", "special", "down", "rest", "boost", "exert", "stop", "gain", "roll"}
    words |= {v.replace("_", " ").replace("-", " "): "action" for v in verbs}
    words["opportunity attack"] = "action"
    for name in (
        "dread",
        "objective",
        "initiative",
        "aggressor",
        "defender",
        "area",
        "black line",
        "spawn",
        "graveyard",
        "action row",
        "villain",
        "minion",
        "fighter",
        "hero",
        "sight point",
        "attack",
        "attack priority",
        "grudge",
        "one hit from death",
        "Grave Ward",
        "difficulty",
        "step",
    ):
        words[name] = "term"
    for name in ("Heroes Act", "Enemies Act", "Heroes React", "Enemies React", "enemy phase"):
        words[name] = "phase"
    words |= {"Battle Mode": "mode", "Raid Mode": "mode", "Aggressor Turn": "turn", "Defender Turn": "turn"}
    for name in (
        "turn",
        "phase",
        "action",
        "round",
        "scenario",
        "faction",
        "leader",
        "hand",
        "deck",
        "discard pile",
        "supply",
    ):
        words[name] = "term"
    for name in (
        "dread pile",
        "damage pile",
        "villain deck",
        "damage",
        "defence",
        "rank",
        "wound",
        "enemy",
        "sight",
        "activate",
        "modifiers",
        "damage icon",
        "minion bag",
    ):
        words[name] = "term"
    return words


@cache
def glossary() -> Glossary:
    c = load_content()
    terms: list[Term] = []
    for fa in c.roster.factions:
        who = ", ".join(f.name for f in fa.fighters)
        terms.append(Term(fa.name, "faction", f"Fighters: {who}. Objective: {fa.objective}."))
        terms += [Term(f.name, "fighter", card_text(f.id)) for f in fa.fighters]
    terms += [Term(f.name, "leader", card_text(f.id)) for f in c.roster.leaders]
    r = c.raid
    for h in r.heroes:
        terms.append(Term(h.name, "hero", card_text(h.card.id)))
        terms.append(Term(h.card.name, "hero card", card_text(h.card.id)))
    for k in r.classes:
        terms.append(Term(k.name, "hero class", "Cards: " + ", ".join(x.name for x in k.cards) + "."))
        terms += [Term(x.name, "hero card", card_text(x.id)) for x in k.cards]
    star = f" {r.villain.star.name}: {r.villain.star.text}" if r.villain.star else ""
    stats = f"melee {r.villain.melee}, shoot {r.villain.shoot}, defence {r.villain.defence}"
    terms.append(Term(r.villain.name, "villain", f"The Raid Mode villain: {stats}.{star}"))
    terms += [Term(v.name, "villain card", card_text(v.name)) for v in r.villain.deck]
    for rank in r.minions.ranks:
        stats = f"melee {rank.melee}, shoot {rank.shoot}, defence {rank.defence}"
        terms.append(
            Term(rank.name, f"minion, rank {rank.rank}", f"{stats}; does: {', '.join(rank.actions)}.")
        )
    terms += from_texts(vocabulary(c), TEXTS, "games/dire_alliance/glossary.py", ALSO)
    terms += _places(c) + _specials(c)  # after the words: the action Offering over the special
    return Glossary(terms)
