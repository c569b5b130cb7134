"""Dire Alliance: Horror for the engine contract: options, setup, turns; each mode's views and
the bot's hooks are handed to that mode's module.

Battle Mode's round and actions live in battle.py (its views in battle_views.py), Raid Mode's in
raid.py and the raid_*.py modules beside it (its views in raid_views.py), card texts in
card_texts.py, the shared rules in rules.py, content in content.py.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from engine.board_text import Group
from engine.dice import Dice
from engine.errors import IllegalAction, OptionError
from engine.game import Event, Game, Limit, OptionSpec, Outcome, Terms, ToAct
from engine.hidden import Zone
from engine.refusals import forms_text
from engine.search_bot import choose
from engine.teaching import Teaching
from engine.words import plural
from games.dire_alliance import (
    battle,
    battle_views,
    battle_why,
    card_texts,
    glossary,
    limits,
    notation,
    raid,
    raid_heroes,
    raid_refusals,
    raid_views,
    raid_why,
    refusals,
    rules,
)
from games.dire_alliance.content import load_content, use_folder
from games.dire_alliance.state import (
    COLOURS,
    HERO_SEATS,
    DAState,
    Fighter,
    Objective,
    Player,
    RaidState,
    card_name,
    other,
)

JSON = dict[str, Any]
COPIES, IN_DECK = 5, 2  # five copies of each fighter card: two in the starting deck, three in supply


def _ids(fighters: Sequence[Any]) -> tuple[str, ...]:
    return tuple(f.id for f in fighters)


_SHIPPED = load_content()
_FACTIONS = _ids(_SHIPPED.roster.factions)
_LEADERS = _ids(_SHIPPED.roster.leaders)
_HEROES = _ids(_SHIPPED.raid.heroes)
_CLASSES = _ids(_SHIPPED.raid.classes)
_RAID_SCENARIO = _SHIPPED.raid.scenario.id
assert _SHIPPED.raid.villain.wrath is not None, "raid.json: the villain needs its wrath (rules 3)"
_WRATH = _SHIPPED.raid.villain.wrath
_LEVELS = tuple(lv.id for lv in _WRATH.levels)
State = DAState | RaidState


def _hero_options() -> tuple[OptionSpec, ...]:
    out = []
    for i, seat in enumerate(HERO_SEATS):
        out.append(OptionSpec(f"{seat}_hero", _HEROES, _HEROES[i], f"Raid Mode: {seat}'s hero."))
        out.append(OptionSpec(f"{seat}_class", _CLASSES, _CLASSES[i], f"Raid Mode: {seat}'s hero class."))
    return tuple(out)


_BATTLE_ONLY = frozenset(
    {"red_faction", "blue_faction", "red_leader", "blue_leader", "colours", "dread", "deck_search"}
)
_RAID_ONLY = frozenset(
    {
        *(f"{s}_{w}" for s in HERO_SEATS for w in ("hero", "class")),
        "enemy",
        "row_icons",
        "boost_window",
        "difficulty",
        "raid_asks",
    }
)


RAID_ROLLOUT = 4
# Battle Mode: a random side dawdles far from the objectives, so a long random tail mostly measures
# random play; a short one lets the estimate (claims, and each fighter's road to a claim) steer.
# One ply (then on to a settled position): medium against random over seeds 1-40 at a fixed 120
# iterations a decision (what a loaded machine leaves it) won 33 by three claims, round 9.1 on
# average; 4 plies won 28 (round 9.9), none 33 (round 9.7).
BATTLE_ROLLOUT = 1


def _own_picks(opts: dict[str, str], what: str, every: tuple[str, ...], given: set[str]) -> None:
    """Each hero seat's hero (or class), all different: the ones the group named stay, and a seat
    nobody named keeps its default unless a named seat took it, then has the first one left. A
    table of two names only its own seats' heroes, not the seats nobody plays."""
    keys = [f"{seat}_{what}" for seat in HERO_SEATS]
    named = [opts[k] for k in keys if k in given]
    if len(set(named)) != len(named):
        twice = sorted({v for v in named if named.count(v) > 1})
        raise OptionError(f"Each seat needs its own {what}: {', '.join(twice)} is named for two seats.")
    taken = set(named)
    moved = [k for k in keys if k not in given and opts[k] in taken]
    taken |= {opts[k] for k in keys if k not in given and k not in moved}
    for k in moved:
        opts[k] = next(v for v in every if v not in taken)
        taken.add(opts[k])


class DireAlliance(Game[State, str]):
    id = "dire-alliance"
    # 2: a Battle activation may be declined; Raid boosts before a hero's own face-down attack
    # in Heroes Act and before its opportunity attacks; `enemy=hardest` breaks every tie.
    # 3: the Raid villain's grudges and Grave Ward, its health by `difficulty` (raid_villain.py).
    # 4: a Raid enemy phase asks a hero once a round at most, and only where the answer matters
    # (option raid_asks, raid_pause.worth_asking); the villain deck lasts the rounds its Grave Ward
    # needs and 5 more (raid_villain.deck).
    # 5: under `raid_asks=few` a tie spends the question of the player it pings; the boost before
    # an enemy picks its target is asked of one hero at most; a hero's question is kept for the
    # biggest hit coming in the phase (raid_pause.py, raid_enemy_attacks.py).
    rules_version: ClassVar[int] = 5
    title = "Dire Alliance: Horror"
    blurb = (
        "Battle Mode, 2 players: two factions and their leaders fight over the Darkwood; claim three "
        "enemy objectives to win. Raid Mode (mode=raid), 1-4 heroes together against the villain and "
        "its minions. Stand-in map, dice and cards."
    )
    options = (
        OptionSpec(
            "mode", ("battle", "raid"), "battle", "battle: 2 players; raid: 1-4 heroes, co-operative."
        ),
        OptionSpec(
            "scenario",
            (*_SHIPPED.scenarios, _RAID_SCENARIO),
            "beaten-path",
            f"The scenario sheet (Raid Mode plays {_RAID_SCENARIO}).",
        ),
        OptionSpec("red_faction", _FACTIONS, "shroud", "Red's faction (the demo kit gives red the Shroud)."),
        OptionSpec("blue_faction", _FACTIONS, "grievers", "Blue's faction."),
        OptionSpec("red_leader", _LEADERS, "countess", "Red's leader."),
        OptionSpec("blue_leader", _LEADERS, "ellis", "Blue's leader."),
        OptionSpec(
            "colours",
            ("chosen", "flip"),
            "chosen",
            "chosen: each seat plays the faction named for its colour; flip: a seeded flip of "
            "the initiative token decides which side's faction and leader each colour gets.",
        ),
        OptionSpec(
            "dread",
            ("discard", "deck"),
            "discard",
            "Where a defeated fighter's two dread cards go: into your discard pile, or shuffled "
            "into your deck.",
        ),
        OptionSpec(
            "deck_search",
            ("keep", "shuffle"),
            "keep",
            "After damage takes a card out of the deck: keep the deck's order, or shuffle the deck "
            "(as a group that looked through it might).",
        ),
        *_hero_options(),
        OptionSpec(
            "enemy",
            ("ties", "hardest"),
            "ties",
            "Raid Mode: when an enemy could go two ways, the players decide (ties), or it always "
            "takes the way hardest for the heroes (hardest, for added difficulty): it attacks the "
            "hero with the fewest cards left to take its damage, moves the way nearest the heroes "
            "in all, and of equally near minions the highest rank acts.",
        ),
        OptionSpec(
            "difficulty",
            _LEVELS,
            _WRATH.default,
            "Raid Mode: how hard the Hollow Warden is: "
            + "; ".join(f"{lv.id}, {lv.text.rstrip('.')}" for lv in _WRATH.levels)
            + f" ({_WRATH.default} by default). For more still, add `enemy=hardest` (the rulebook's "
            "own added difficulty).",
            since=3,
        ),
        OptionSpec(
            "row_icons",
            ("up", "all"),
            "up",
            "Raid Mode attack priority counts the damage icons the table can see: face-up action-row "
            "cards only (up), or face-down ones too (all).",
        ),
        OptionSpec(
            "boost_window",
            ("ask", "off"),
            "ask",
            "Raid Mode: ask a hero to boost before an enemy picks whom it attacks and before each "
            "enemy's dice, opportunity attacks included, the hero's own on an enemy leaving too "
            "(ask), or boost only on your own turn (off, faster for play by post; a face-down "
            "attack as your second card in Heroes Act still asks before its dice).",
        ),
        OptionSpec(
            "raid_asks",
            ("few", "every"),
            "few",
            "Raid Mode: few, an enemy phase asks each hero once a round at most, and only where the "
            "answer can change the heroes' game (whom an enemy attacks when heroes tie; a boost when "
            "a card in hand adds defence dice, changes whom it picks, or adds your opportunity "
            "attack's dice); other ties take the lowest-numbered minion or area. every: ask at "
            "every tie and before every enemy's dice.",
            since=4,
        ),
    )
    ai_levels = ("easy", "medium", "hard")
    picture_every_action = True
    has_hands = True
    terms: ClassVar[Terms] = glossary  # vocabulary() and glossary() read it

    # ---- metadata ------------------------------------------------------------------------------

    def result_figures(self, state: State) -> tuple[int | None, float | None]:
        return state.round, None

    def limits(self, state: State) -> list[Limit]:
        if isinstance(state, RaidState):
            return limits.raid(state, load_content())
        return limits.battle(state, load_content())

    def is_cooperative(self, options: Mapping[str, str]) -> bool:
        # Raid Mode's heroes play together: a concession is the group's, a silent hero goes to the bot.
        return options.get("mode") == "raid"

    def validate_options(self, raw: Mapping[str, str]) -> dict[str, str]:
        opts = super().validate_options(raw)
        # Each mode keeps only its own options (the lobby lists them); the other mode's are refused.
        given = {k.strip().lower() for k in raw}
        other = _BATTLE_ONLY if opts["mode"] == "raid" else _RAID_ONLY
        stray = sorted(given & other)
        if stray:
            mode = "Battle" if opts["mode"] == "raid" else "Raid"
            raise OptionError(
                f"{', '.join(f'`{s}`' for s in stray)}: {mode} Mode {plural('option', len(stray))}; "
                "set `mode` to match."
            )
        opts = {k: v for k, v in opts.items() if k not in other}
        if opts["mode"] == "raid":
            if "scenario" not in {k.strip().lower() for k in raw}:
                opts["scenario"] = _RAID_SCENARIO
            if opts["scenario"] != _RAID_SCENARIO:
                raise OptionError(f"Raid Mode plays the scenario `{_RAID_SCENARIO}`.")
            for what, every in (("hero", _HEROES), ("class", _CLASSES)):
                _own_picks(opts, what, every, given)
            return opts
        if opts["scenario"] == _RAID_SCENARIO:
            raise OptionError(f"`{_RAID_SCENARIO}` is a Raid Mode scenario: add `mode=raid`.")
        if opts["red_faction"] == opts["blue_faction"]:
            raise OptionError(
                "Both sides chose the same faction; the box holds one of each. Choose "
                f"different ones from: {', '.join(_FACTIONS)}."
            )
        if opts["red_leader"] == opts["blue_leader"]:
            raise OptionError(
                f"Both sides chose the same leader; choose different ones from: {', '.join(_LEADERS)}."
            )
        return opts

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return list(HERO_SEATS) if options.get("mode") == "raid" else list(COLOURS)

    def seat_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        return (1, 4) if options.get("mode") == "raid" else (2, 2)

    def seat_title(self, options: Mapping[str, str], seat: str) -> str:
        """Raid Mode: a hero seat is named by its hero, as the table knows it ("Sir Aldric")."""
        if seat not in HERO_SEATS or options.get("mode") != "raid" or f"{seat}_hero" not in options:
            return seat
        return load_content().hero(options[f"{seat}_hero"]).name

    def joined_help(self, seat: str, players: int, options: Mapping[str, str]) -> str:
        """The hero and class this table's options give the seat, what it brings, and how a group
        opens the game with another (the quick start of Raid Mode is its defaults: heroes and
        classes are chosen when the game is opened, not at the table)."""
        if seat not in HERO_SEATS or options.get("mode") != "raid":
            return ""
        c = load_content()
        hero = next(h for h in c.raid.heroes if h.id == options[f"{seat}_hero"])
        klass = next(k for k in c.raid.classes if k.id == options[f"{seat}_class"])
        # The choices, not this game's own (the seventh play-test read its own hero offered back).
        heroes = "|".join(h.id for h in c.raid.heroes)
        classes = "|".join(k.id for k in c.raid.classes)
        chosen = f"{seat}_hero=<{heroes}> {seat}_class=<{classes}>"
        other = f'`/game new dire-alliance options:"mode=raid {chosen}"`'
        return (
            f"{seat} plays {hero.name} ({klass.name}: {klass.role}), as this game was opened; to "
            f"play another, open a new game with the hero and class you want: {other}.\n"
        )

    def teaching(self) -> Teaching:
        return Teaching(
            win=(
                "Battle Mode (2 players): your faction and its leader fight the other over the Darkwood; "
                "claim three of your opponent's objectives to win.",
                "Raid Mode (`mode=raid`, 1–4 heroes together): defeat the villain; you all lose if a hero "
                "dies, the enemies claim three objectives, or the villain deck runs out.",
            ),
            # One mode's turn a line or more, each line a whole sentence that names its mode.
            turn=(
                "Battle Mode: each card names one of your fighters; played, it lets that fighter take "
                "one action (its special, or Move, Melee, Shoot, Focus, Control or Interact), or none "
                "(`<card> idle`).",
                "Battle Mode round: the aggressor plays 2 cards, the defender 2, then each plays the rest "
                "in the same order; then each draws 4.",
                "Battle Mode: the defender may discard a played card to take the initiative.",
                "Raid Mode round: Heroes Act, Enemies Act, Heroes React, then Enemies React.",
                "Raid Mode, Heroes Act: each hero draws 4 and puts two cards in its action row, face up "
                "for the card's special or face down for Move, Melee, Shoot, Rest or Interact.",
                "Raid Mode, Enemies Act and Enemies React: a villain card is drawn; each hero wakes the "
                "nearest minion of its colour (or spawns one), then the villain acts.",
                "Raid Mode, Heroes React: the heroes play the rest of their cards.",
                "Both modes: an attack rolls dice and hits with at least one hit and no more blocks than "
                "hits; the target loses one of its cards and is stunned.",
            ),
            commands=(
                f"Battle Mode moves: {forms_text(notation.FORMS)} (/game moves lists every legal one).",
                f"Raid Mode moves: {forms_text(notation.RAID_FORMS)} (/game moves lists every legal one).",
                "Areas are numbered on the map; `/game board sight:<area>` shades what an area cannot see.",
                "`/game hand` shows your cards with their text; `/game card name:<card or word>` explains "
                "any card, fighter or term (`/game card name:stunned`).",
            ),
            readings={
                "deck-search-keep": "After damage takes a card out of the deck, the deck keeps its order "
                "unless "
                "`deck_search=shuffle` is set.",
                "dread-to-discard": "A defeated fighter's two dread cards go to the discard pile unless "
                "`dread=deck` is set.",
                "enemy-ties": "Raid Mode: an enemy's ties are the players' to break unless `enemy=hardest` "
                "is set, which picks for the enemy: the hero with the fewest cards left to take its damage, "
                "the move nearest the heroes in all, the highest-ranked of equally near minions.",
                "decline-activation": "Battle Mode: a played card's fighter may be left unactivated "
                "(`<card> idle`): the card is discarded and a stunned fighter stays stunned (the rulebook: "
                "a player *may* activate those fighters).",
                "own-attack-boost": "Raid Mode: in Heroes Act a hero's face-down Melee or Shoot played as "
                "its second card pauses before its dice for a boost (a boost played first would have been "
                "its second card and ended its actions); otherwise a boost may simply be played first.",
                "own-opportunity-boost": "Raid Mode: a hero may boost before its own opportunity attack on "
                "an enemy leaving its area, as before any dice (`boost_window=ask`).",
                "first-hand": "Battle Mode: the first hand is four cards, drawn as at the end of each round.",
                "short-first-turn": "Battle Mode: a player holding 2 cards or fewer plays them all in the "
                "first turn of the round.",
                "opportunity-attack-sates": "Battle Mode: an opportunity attack is a free Melee, so a "
                "vampire that damages with it is sated.",
                "moved-by-effect": "Battle Mode: a fighter moved by an enemy's card is not making a Move, so "
                "it draws no opportunity attacks.",
                "faction-by-colour": "Battle Mode: each colour plays the faction and leader named for it; "
                "with `colours=flip` a flip of the initiative token decides.",
                "raid-empty-deck": "Raid Mode: an empty deck is made again from your shuffled discard pile, "
                "as in Battle Mode, before a draw or a damage that takes its top card.",
                "damage-card-choice": "Raid Mode: when several of your cards carry the damage icon an attack "
                "needs, you choose which to lose; unanswered, the first one found goes.",
                "raid-hand-loss-replaced": "Raid Mode: a card lost from the hand to damage is replaced by a "
                "draw, as in Battle Mode.",
                "zero-dice-not-offered": "Raid Mode: a Melee or Shoot of no dice is not offered; it could "
                "only miss.",
                "card-shoot-keeps-rule": "Raid Mode: a card's Shoot, like the basic Shoot, needs no enemy in "
                "the hero's own area.",
                "hero-move-attack-order": "Raid Mode: when a hero leaves an area, the minions there make "
                "their opportunity attacks in number order, then the villain.",
                "spawned-minions-act": "Raid Mode: a minion spawned during an enemy phase may be activated "
                "by a later hero in that phase.",
                "random-spawn": "Raid Mode: a hero with no minion of the villain card's colour to wake "
                "spawns one drawn at random from the bag, of any colour, at its colour's objective.",
                "row-icons": "Raid Mode: an enemy attacks the hero showing the most damage icons of its rank "
                "on face-up action-row cards; with `row_icons=all` face-down cards count too.",
                "grudge-reach": "Raid Mode: the villain repays a grudge in melee against a hero in its "
                "area and shoots one it sees elsewhere; a grudge against a hero it neither reaches nor "
                "sees is dropped.",
                "grave-ward": "Raid Mode: the Grave Ward lets through one wound a round for each hero, "
                "counted for the party (whoever lands them, an opportunity attack too); a hit it turns "
                "aside still earns its grudge but no wound; the count starts afresh each round.",
                "hero-opportunity-attacks": "Raid Mode: heroes make opportunity attacks on an enemy leaving "
                "their area, as in Battle Mode, always (a free Melee costs nothing).",
                "boost-window": "Raid Mode: a hero may boost before an enemy picks whom it attacks and "
                "before each enemy's dice; with `boost_window=off`, only on its own turn.",
                "villain-deck-clock": "Raid Mode (stand-in): the villain deck lasts the rounds the "
                "Grave Ward needs to let all its wounds through and 5 more (18 cards at `standard`), "
                "announced two rounds before it runs out.",
                "raid-asks": "Raid Mode: an enemy phase asks each hero once a round at most, and only "
                "where the answer matters; a hit that could kill a hero or take their last card of its "
                "icon always lets them boost first, and a question on a hero's own turn never counts; "
                "any other tie takes the lowest-numbered minion or area (`raid_asks=every` asks "
                "everything).",
                "gain-unanswered": "Raid Mode: a hero who does not answer in time when it may gain a card "
                "gains none.",
            },
            stand_ins=(
                "The map, the dice faces, every card and the Raid Mode heroes and villain were "
                "written fresh for this bot.",
            ),
        )

    def card_text(self, name: str) -> str:
        return card_texts.card_text(name)

    def check_content(self, folder: str | None = None) -> None:
        use_folder(Path(folder) if folder else None)
        load_content()

    # ---- play ----------------------------------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> State:
        opts = self.validate_options(options)
        c = load_content()
        dice = Dice(seed)
        if opts["mode"] == "raid":
            raid_state = raid.setup(list(seats), opts, c, dice)
            raid_state.dice = dice.state
            return raid_state
        sides: dict[str, tuple[str, str]] = {
            col: (opts[f"{col}_faction"], opts[f"{col}_leader"]) for col in COLOURS
        }
        # reading: faction-by-colour
        if opts["colours"] == "flip" and dice.below(2):
            sides = {"red": sides["blue"], "blue": sides["red"]}  # the flip gave the other colour
        scenario = c.scenarios[opts["scenario"]]
        players: dict[str, Player] = {}
        fighters: dict[str, Fighter] = {}
        for col in COLOURS:
            faction, leader = sides[col]
            p = Player(colour=col, faction=faction, leader=leader)
            for fid in (*_ids(c.faction(faction).fighters), leader):
                cards = [f"{fid}#{i}" for i in range(1, COPIES + 1)]
                p.deck += cards[:IN_DECK]
                p.supply[fid] = cards[IN_DECK:]
                fighters[fid] = Fighter(id=fid, owner=col, area=scenario.deploy[col])
            dice.shuffle(p.deck)
            players[col] = p
        objectives = [Objective(owner=col, area=a) for col in COLOURS for a in scenario.objectives[col]]
        state = DAState(
            options=opts,
            scenario=scenario.id,
            round=1,
            step="A1",
            initiative=scenario.initiative,
            turn=scenario.initiative,
            phase="play",
            players=players,
            fighters=fighters,
            objectives=objectives,
            dread_pile=[f"dread#{i}" for i in range(1, c.roster.dread.copies + 1)],
            dice=0,
        )
        # reading: first-hand
        # The rulebook draws four at each round's end; the first hand is read as drawn the same way.
        for col in (scenario.initiative, other(scenario.initiative)):
            rules.refill(state, col, dice)
        battle.start_turn(state, c, dice)
        state.dice = dice.state
        return state

    def to_act(self, state: State) -> ToAct:
        if isinstance(state, RaidState):
            turn = raid_views.to_act(state)
            if not turn.prompt and state.active is not None:
                # A special under way, asked nothing else: its step, told to the channel.
                return replace(turn, prompt=raid_heroes.special_step_prompt(state, load_content()))
            return turn
        if state.phase == "over":
            return ToAct(frozenset())
        if state.phase == "opportunity":
            assert state.move is not None
            return ToAct(frozenset({other(state.fighters[state.move.fighter].owner)}))
        return ToAct(frozenset({state.turn}))

    def decider(self, state: State) -> str | None:
        """Raid Mode: a tie the rules hand to the heroes pings the player whose hero acted last
        (as Ignite does), not always the first hero's player; everyone may still answer. None
        for any other decision (a boost or a lost card is its own hero's) and in Battle Mode."""
        if not isinstance(state, RaidState) or state.pending is None or state.pending["kind"] != "tie":
            return None
        return state.last_actor if state.last_actor in state.pending["seats"] else None

    def legal_actions(self, state: State, seat: str) -> list[str]:
        if isinstance(state, RaidState):
            c = load_content()
            # Players read and type a minion's name (`Shambler #7`); the rules keep its id.
            return [notation.raid_words(c, state, a) for a in raid_heroes.legal(state, c, seat)]
        return battle.legal(state, load_content(), seat)

    def parse(self, state: State, text: str) -> str:
        if isinstance(state, RaidState):
            c = load_content()
            move = notation.parse_raid(text, c)
            return notation.raid_words(c, state, notation.raid_ids(c, state, move))
        try:
            return notation.parse(text, load_content())
        except notation.SpecialNamesNoTarget as typed:
            # A special the fighter may not use now is refused for that, not for the target typed.
            legal = battle.legal(state, load_content(), state.turn)
            if typed.move in legal:
                raise
            raise IllegalAction(self.explain_illegal(state, state.turn, typed.move, legal)) from typed

    def apply(self, state: State, seat: str, action: str) -> list[Event]:
        c = load_content()
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"`{action}` is not legal now.")
        dice = Dice(state.dice)
        if isinstance(state, RaidState):
            events = raid.apply(state, c, seat, notation.raid_ids(c, state, action), dice)
        else:
            events = battle.apply(state, c, seat, action, dice)
        state.dice = dice.state
        return events

    def action_text(self, state: State, seat: str, action: str) -> str:
        """The whole text of the card a move plays, for the private move menu."""
        c = load_content()
        words = action.split()
        if isinstance(state, RaidState):
            if seat not in state.heroes:
                return ""
            h = state.heroes[seat]
            name = words[1] if words[0] in ("boost", "gain") else words[0]
            held = {card_name(x) for x in h.hand} | set(h.supply)
            return card_texts.held_card_text(c, h, name) if name in held else ""
        if words[0] == "play":
            return " · ".join(card_texts.fighter_text(c, w) for w in words[1:])
        if state.phase == "activate" and words[0] in {*state.fighters, battle.DREAD}:
            return card_texts.fighter_text(c, words[0])
        return ""

    def choice_label(self, state: State, action: str) -> str:
        """Raid Mode: a tie's button names its option as players know it ("Sir Aldric", "Shambler
        #7", "3 Old Mill"); the typed answer stays `choose <word>`."""
        if not isinstance(state, RaidState) or state.pending is None or state.pending["kind"] != "tie":
            return ""
        verb, _, option = action.partition(" ")
        if verb != "choose":
            return ""
        c = load_content()
        hero = next((h for h in state.heroes.values() if h.hero == option), None)
        if hero is not None:
            return c.hero(hero.hero).name
        if option.isdecimal():
            return rules.area_name(c, int(option))
        return option  # a minion: its name as players read it already (`Shambler #7`)

    def explain_illegal(self, state: State, seat: str, action: str, legal: list[str]) -> str:
        if isinstance(state, RaidState):
            return raid_refusals.explain(state, load_content(), seat, action, legal)
        return refusals.explain(state, load_content(), seat, action, legal)

    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        if isinstance(state, RaidState):
            seats = frozenset(state.heroes)
            won = bool(state.result["winners"])
            return Outcome(
                seats if won else frozenset(), frozenset() if won else seats, state.result["reason"]
            )
        winners = frozenset(state.result["winners"])
        losers = frozenset(COLOURS) - winners if winners else frozenset()
        return Outcome(winners, losers, state.result["reason"])

    # ---- views ---------------------------------------------------------------------------------

    def view(self, state: State, seat: str | None) -> JSON:
        """Everything public, and `seat`'s own hand: card names only, never serials or deck order.
        Each player's `unseen` (hand and deck together) is what careful counting tells anyone."""
        if isinstance(state, RaidState):
            return raid_views.view(state, seat, self.to_act(state))
        return battle_views.view(state, seat, self.to_act(state))

    def board(self, view: JSON) -> list[Group]:
        """The map in words, area by area (the areas a screen reader moves through): who stands
        there and which objective lies there; the defeated and the consecrated after."""
        if view.get("mode") == "raid":
            return raid_views.board(view)
        return battle_views.board(view)

    def board_text(self, view: JSON) -> str:
        return self.describe(view)  # the status already lists the map, area by area

    def describe(self, view: JSON) -> str:
        if view.get("mode") == "raid":
            return raid_views.describe(view)
        return battle_views.describe(view)

    def describe_hand(self, view: JSON) -> str:
        return raid_views.hand_text(view) if view.get("mode") == "raid" else self.describe(view)

    # ---- persistence ---------------------------------------------------------------------------

    def to_json(self, state: State) -> JSON:
        return {"schema": self.schema_version, **state.to_json()}

    def from_json(self, data: JSON) -> State:
        # A snapshot from a newer version of the game must not load as if it were understood.
        if int(data.get("schema", self.schema_version)) > self.schema_version:
            raise ValueError(
                f"Dire Alliance state schema {data['schema']} is newer than this code "
                f"({self.schema_version})."
            )
        if data.get("options", {}).get("mode") == "raid":
            return RaidState.from_json(data)
        return DAState.from_json(data)

    # ---- bot and hidden information ------------------------------------------------------------

    def hidden_zones(self, state: State) -> list[Zone]:
        """Each hand (its owner's) and deck (nobody's); in Raid Mode also each face-down card of an
        action row (its hero's) and the villain deck (nobody's)."""
        if isinstance(state, RaidState):
            return raid_views.hidden_zones(state)
        return battle_views.hidden_zones(state)

    def public_text(self, state: State, seat: str, action: str) -> str:
        if isinstance(state, RaidState):
            return raid_views.public_text(state, seat, action)
        return action

    def secrets(self, state: State, seat: str) -> set[str]:
        if isinstance(state, RaidState):
            return raid_views.secrets(state, seat)
        return battle_views.secrets(state, seat)

    def suggestion_why(self, state: State, seat: str, action: str) -> str | None:
        if isinstance(state, RaidState):
            return raid_why.why(state, load_content(), seat, action, self.legal_actions(state, seat))
        return battle_why.why(state, load_content(), action, self.legal_actions(state, seat))

    def choose_action(self, state: State, seat: str, level: str, dice: Dice) -> str:
        if isinstance(state, RaidState) and state.pending is not None:
            # Mid enemy phase the search would need the phase's start, which the seat never saw
            # whole: a bot hero takes the rules' default for a tie, boosts or rolls (or passes)
            # by a strong player's rule (raid_boosts.py), and loses the card whose loss keeps the
            # icons it is shortest of. Named as the legal moves name it (a minion by its name), so
            # Suggest finds it.
            content = load_content()
            return notation.raid_words(content, state, raid_heroes.pending_answer(state, content, seat))
        move = str(choose(self, state, seat, level, dice))
        if isinstance(state, RaidState):
            # The search weighs what a face-down action does, not which card pays for it.
            content = load_content()
            spent = raid_heroes.thrifty(state, content, seat, notation.raid_ids(content, state, move))
            return notation.raid_words(content, state, spent)
        return move

    def sample_state(self, view: JSON, seat: str, dice: Dice) -> State | None:
        """A state the seat cannot tell from the real one: its own hand as it is, every other hand
        and every deck drawn from the `unseen` cards, fresh serials, and fresh dice."""
        if view.get("mode") == "raid":
            return raid_views.sample_state(view, seat, dice)
        return battle_views.sample_state(view, seat, dice)

    def settled(self, state: State) -> bool:
        """Nobody mid-move (opportunity attacks offered), no special half done, no enemy phase paused."""
        if isinstance(state, RaidState):
            return state.pending is None and state.active is None and state.enemy is None
        return state.move is None and state.phase not in ("special", "opportunity")

    def rollout_plies(self, state: State, plies: int) -> int:
        # Raid Mode: random heroes squander cards and wander, so a playout's random tail says
        # more about random play than about the move searched; the estimate is trusted sooner.
        return min(plies, RAID_ROLLOUT if isinstance(state, RaidState) else BATTLE_ROLLOUT)

    def turn_id(self, state: State, seat: str) -> Hashable | None:
        if isinstance(state, RaidState):
            return (state.round, state.phase)
        return (state.round, state.step, state.turn)

    def turn_goes_on(self, state: State, seat: str) -> bool:
        # Battle Mode: a player asked again straight after their own answer has claimed initiative
        # (or reacted last in the other's turn) and plays on while the other waits. Raid Mode:
        # the enemies acted in between, or the hero is the last one standing; its phases are turns.
        return not isinstance(state, RaidState)

    def evaluate(self, state: State, seat: str) -> float | None:
        """Objectives claimed weigh most, then fighters standing and their cards, then how near
        fighters stand to the objectives still needed (each by its own fighter: three claims need
        three fighters on their way), a claimable one nearly as good as claimed."""
        if isinstance(state, RaidState):
            return raid_views.evaluate(state)
        return battle_views.evaluate(state, seat)
