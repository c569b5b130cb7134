"""The Ignite: A New Enemy game for the engine contract: options, setup, turns, notation, views.

Rules of the round live in phases.py (the Enemy Phase's steps in spawn_steps.py and move_steps.py),
the player's cards in cards.py, damage in units.py, the enemies' own rules in enemies.py, the
enemy_*.py beside it and placement.py; this module ties them to engine.game.Game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from engine.board_text import Group
from engine.dice import Dice
from engine.errors import NotationError, OptionError
from engine.game import Event, Game, Limit, OptionSpec, Outcome, Terms, ToAct, rules_of
from engine.hidden import Zone
from engine.refusals import Form, example_forms, starting
from engine.teaching import Teaching
from games.ignite import (
    bot,
    glossary,
    move_steps,
    phases,
    quick_start,
    refusals,
    spawn_steps,
    suggest_why,
    texts,
    units,
    views,
)
from games.ignite.board import (
    Battlefield,
    Unit,
    generate_terrain,
    load_tiles,
    parse_square,
    square_name,
)
from games.ignite.cards import (
    apply_card_action,
    cost_of,
    draw,
    hand_limit,
    legal_card_actions,
    new_card,
)
from games.ignite.content import Content, load_content, use_folder
from games.ignite.enemy_cards import forget_enemy_cards, load_enemy_cards
from games.ignite.rules import DIFFICULTIES, DIFFICULTY, units_per_player
from games.ignite.spawn_steps import FAVOR_RULE_CHOICES, FAVOR_RULES
from games.ignite.state import SCHEMA, Action, IgniteState, SeatCards, last_actor, migrate

JSON = dict[str, Any]


@dataclass(frozen=True)
class MarketOption(OptionSpec):
    """`suggested`, or a comma-separated list of battle decks (names as in data/cards.json)."""

    def validate(self, value: str) -> str:
        v = str(value).strip().lower()
        if v == "suggested":
            return v
        content = load_content()
        names = [n.strip().replace("_", " ").replace("-", " ") for n in v.split(",") if n.strip()]
        # Choosing the Battle Card Market: any battle deck we have may be chosen (the war
        # machine decks too), except the ones the rulebook excludes from co-op play.
        buyable = set(content.buyable())
        for n in names:
            if n in content.market.exclude:
                raise OptionError(
                    f"`{n}` is on the rulebook's list of battle cards to exclude from co-op play."
                )
            if n not in buyable:
                raise OptionError(f"`{n}` is not a battle deck we have; decks: {', '.join(sorted(buyable))}.")
        if not names or len(set(names)) != len(names):
            raise OptionError("A custom market lists different battle decks, separated by commas.")
        return ",".join(names)


def _market_decks(option: str, content: Content) -> list[str]:
    return list(content.market.suggested) if option == "suggested" else option.split(",")


# Choosing the Battle Card Market: "Choose 16 battle decks to form the market."
MARKET_DECKS = 16


def _check_market_size(options: Mapping[str, str]) -> None:
    """A custom market is the rulebook's 16 battle decks; another size only with the house rule
    market_size=any. Checked only when a game is opened (Ignite.session_options): version 1 took
    1 to 16 decks with no option, and a game opened under it keeps its market when its options
    are read again (setup, a replay, /game settings)."""
    if options["market"] == "suggested" or options["market_size"] == "any":
        return
    decks = len(options["market"].split(","))
    if decks != MARKET_DECKS:
        raise OptionError(
            f"The rulebook's market is {MARKET_DECKS} battle decks; this one lists {decks}. "
            f"Name {MARKET_DECKS}, or add `market_size=any` for a market of another size (a house rule)."
        )


# The options pace=async sets (issue 13: an async table is not asked at every tie or roll). With
# no prompts, a standing favor rule spends the tokens where they matter most (minions placed in
# the bottom two rows), else an async game would never use them (issue 23).
# A respawn is asked at the player's own turn, so that the one question and the turn are one
# ping for a table that plays over days (phases.respawn_timing).
PACE_ASYNC = {"favor_prompts": "off", "ties": "auto", "favor_rule": "bottom-rows", "respawn": "own-turn"}
DEFAULTS = "defaults"  # `choose defaults`: every remaining tie of this Enemy Phase takes its default
FORMS = (
    Form("`play march Ra1 c17` (or `march Ra1 c17`)", starting("play")),
    *example_forms(
        "honor dagger",
        "buy arrow",
        "end",
        "favor reroll",
        "keep",
        "choose d12",
        "respawn left",
        "place Ra1 c18",
        "quick",
    ),
)


class Ignite(Game[IgniteState, Action]):
    id = "ignite"
    title = "Ignite: A New Enemy"
    cooperative = True  # the seats win or lose together
    has_hands = True  # each seat's hand is private
    schema_version = SCHEMA
    # Version 2: the respawn, catapult, favor and market fixes and the Hex card's cost, each gated
    # where it is made (rules_of(options) >= 2; docs/rules-gaps.md lists them), so a game opened
    # under version 1 keeps version 1's play.
    # Version 3: an Enemy Phase stops for divine favor once at most, where a token could spare a
    # unit (option favor_asks, spawn_steps.asked_once).
    rules_version = 3
    ai_levels = bot.LEVELS
    terms: ClassVar[Terms] = glossary  # vocabulary() and glossary() read it
    blurb = (
        "Co-op: 1-8 players survive rounds 1-19 of minion waves, then slay the Elder Dragon "
        "in round 20 of 20. Stand-in cards and terrain."
    )
    options = (
        OptionSpec(
            "difficulty",
            DIFFICULTIES,
            "regular",
            "how hard the game is: easy starts with 5 divine favor tokens and 5 free turns, one "
            "minion fewer per spawn and no round-11 upgrade of the minions; each level up gives "
            "less (regular: 3 tokens, 3 free turns); expert and insanity also make minions faster",
        ),
        MarketOption(
            "market",
            ("suggested",),
            "suggested",
            "`suggested` (the first-game market) or a comma-separated list of 16 battle decks",
        ),
        OptionSpec(
            "market_size",
            ("16", "any"),
            "16",
            "16: a custom market lists 16 battle decks, as the rulebook says; any: a house "
            "rule, a custom market of any other number of battle decks",
            since=2,
        ),
        OptionSpec(
            "favor_prompts",
            ("on", "off"),
            "on",
            "on: pause after each enemy-phase draw and roll to offer a divine favor token",
            in_play=True,
            meanings=(
                ("on", "the group is offered a divine favor token after each enemy-phase draw and roll"),
                # change_option: a question already asked stays asked (settling it
                # would run the Enemy Phase on with no post to show it), so say so.
                (
                    "off",
                    "from the next draw or roll on, the group is not asked whether to "
                    "spend divine favor; a question already asked still waits for its "
                    "answer",
                ),
            ),
        ),
        OptionSpec(
            "favor_asks",
            ("once", "every"),
            "once",
            "with favor_prompts=on, once: an Enemy Phase stops for divine favor once at most, at the "
            "first card or D20 that would let the enemies hurt a unit where another might not; "
            "every: after each draw and roll a token could change",
            since=3,
            in_play=True,
            meanings=(
                (
                    "once",
                    "the group is asked about divine favor once an Enemy Phase at most, where a "
                    "token could spare a unit",
                ),
                (
                    "every",
                    "the group is offered a divine favor token after each draw and roll a token could change",
                ),
            ),
        ),
        OptionSpec(
            "favor_rule",
            FAVOR_RULE_CHOICES,
            "none",
            "how the group spends divine favor without being asked, so that a game played over "
            "days still uses its tokens (even with favor_prompts=off): "
            + ", ".join(f"{k} ({v})" for k, v in FAVOR_RULES.items())
            + ", all (each of these) or none (only when asked). A token is spent at once "
            "whenever the rule's case comes up and one is left, one per draw or roll (the new "
            "result stands); the post says so",
            in_play=True,
            meanings=(
                ("none", "divine favor is spent only when the group is asked"),
                *(
                    (k, f"a divine favor token is spent without asking to {v}")
                    for k, v in FAVOR_RULES.items()
                ),
                (
                    "all",
                    "a divine favor token is spent without asking to "
                    + "; or to ".join(FAVOR_RULES.values()),
                ),
            ),
        ),
        OptionSpec(
            "ties",
            ("players", "auto"),
            "players",
            "players: the group breaks each enemy tie; auto: the default "
            "answer is taken at once (fewer pauses in async games)",
            in_play=True,
            meanings=(
                ("players", "the group breaks each enemy tie"),
                ("auto", "each enemy tie takes its default answer at once, with no pause"),
            ),
        ),
        OptionSpec(
            "pace",
            ("live", "async"),
            "live",
            "a preset: live asks the group at each tie and divine favor chance; async asks "
            "neither and takes the defaults (favor_prompts=off, ties=auto, "
            "favor_rule=bottom-rows) and asks a respawn at the player's own turn "
            "(respawn=own-turn), unless those options are given too",
        ),
        OptionSpec(
            "dragon_actions",
            ("sacrificed", "three"),
            "sacrificed",
            "the Elder Dragon with fewer than three minions to sacrifice; sacrificed: one "
            "action per minion sacrificed; three: his 3 actions all the same",
        ),
        OptionSpec(
            "respawn",
            ("phase-start", "own-turn"),
            "phase-start",
            "when a player whose units were all defeated picks the corner their unit comes "
            "back at: phase-start, at the beginning of the next Player Phase, as the rulebook "
            "says; own-turn, as their own turn begins (one question and the turn in one ping, "
            "which pace=async chooses)",
        ),
        OptionSpec(
            "placement",
            ("choose", "auto"),
            "choose",
            "auto: units start spread along the bottom row; choose: each player in turn "
            "order places their units anywhere in the bottom village, as the rulebook says",
        ),
    )

    # ---- metadata -------------------------------------------------------------------------------

    def validate_options(self, raw: Mapping[str, str]) -> dict[str, str]:
        """The engine's checks, then the pace preset: pace=async turns the favor prompts off,
        ties to auto and asks a respawn at the player's own turn, except where the group set
        those options itself."""
        out = super().validate_options(raw)
        given = {k.strip().lower() for k in raw}
        if rules_of(out) < 2 and "respawn" not in given:
            # Version 1 asked a respawn at the player's own turn by default; kept so games
            # started before the rulebook's timing became the default replay unchanged.
            out["respawn"] = "own-turn"
        if out["pace"] == "async":
            for name, value in PACE_ASYNC.items():
                if name not in given:
                    out[name] = value
        return out

    def session_options(self, raw: Mapping[str, str]) -> dict[str, str]:
        """A new session's options (the current rules); its market is the rulebook's 16 decks
        unless the group names the house rule (_check_market_size)."""
        options = super().session_options(raw)
        _check_market_size(options)
        return options

    def change_option(self, state: IgniteState, name: str, value: str) -> str:
        """The group's standing answers (favor_rule, favor_prompts, ties) change from the next
        draw, roll or tie on; one already asked stays asked."""
        before = state.options.get(name, next(o.default for o in self.options if o.name == name))
        state.options[name] = value
        return before

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return list(load_content().races)

    def seat_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        return 1, 8

    def teaching(self) -> Teaching:
        return texts.teaching(load_content())

    def seat_help(self, seat: str, players: int | None = None) -> str:
        """The race a seat is: its units (as many as this table's size gives), health and ability
        (said when a player joins it)."""
        race = load_content().races.get(seat)
        return texts.race_line(race, players) + "\n" if race is not None else ""

    def card_text(self, name: str) -> str:
        return texts.card_text(load_content(), name)

    def market_text(self, view: JSON) -> str:
        return texts.market_text(view)

    def action_text(self, state: IgniteState, seat: str, action: Action) -> str:
        content = load_content()
        if action.verb == quick_start.QUICK:
            return quick_start.offer_text(state, content, seat)
        card = content.cards.get(action.card)
        if card is None:
            return ""
        note = views.move_note(state, content, seat, card) if action.verb == "play" else ""
        return texts.action_text(content, action.verb, action.card, cost_of(state, content, card.name), note)

    def public_text(self, state: IgniteState, seat: str, action: Action) -> str:
        # A card played is told as a player may type it, from the card (`march Ra1 c17`): the
        # post's "plays" already says the verb ("plays `play march …`" said it twice).
        notation = str(action)
        return f"plays `{notation.removeprefix('play ')}`" if action.verb == "play" else notation

    def choice_label(self, state: IgniteState, action: Action) -> str:
        if state.pending is None or state.pending["kind"] != "tie" or action.verb != "choose":
            return ""
        return views.tie_label(state, action.option)

    def check_content(self, folder: str | None = None) -> None:
        """Every content file loads and validates now, so a malformed one stops the bot at start
        with the file, entry and field named, not in the middle of someone's game."""
        use_folder(Path(folder) if folder else None)
        forget_enemy_cards()
        load_content()
        load_enemy_cards()
        load_tiles()

    # ---- setup ------------------------------------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> IgniteState:
        opts = self.validate_options(options)
        content = load_content()
        for s in seats:
            if s not in content.races:
                raise OptionError(f"`{s}` is not a race; races: {', '.join(content.races)}.")
        if not 1 <= len(seats) <= 8 or len(set(seats)) != len(seats):
            raise OptionError("Ignite seats 1 to 8 different races.")
        dice = Dice(seed)
        field = Battlefield(terrain=generate_terrain(dice))
        state = IgniteState(seats=list(seats), options=opts, dice=dice, field=field)
        diff = DIFFICULTY[opts["difficulty"]]
        state.divine_favor = diff.divine_favor
        _place_units(state, content)
        for seat in state.seats:
            cards = SeatCards()
            for name, count in content.starting.items():
                cards.deck += [new_card(state, name) for _ in range(count)]
            dice.shuffle(cards.deck)
            state.cards[seat] = cards
            # Card Setup: each player draws 6 cards when play begins (unless their race says otherwise).
            draw(state, seat, hand_limit(state, content, seat))
        state.market = {n: content.market.copies for n in _market_decks(opts["market"], content)}
        state.power_deck = list(content.powers)
        dice.shuffle(state.power_deck)
        state.apocalypse_deck = list(content.apocalypses)
        dice.shuffle(state.apocalypse_deck)
        state.free_left = diff.free_turns
        if opts["placement"] == "choose":
            # Race Selection: each player in turn places their unit(s) anywhere in the bottom
            # village; whoever placed first takes the first turn every round (Player Phase).
            # reading: placing-order
            # Reading taken: the seat order is that placing order, and the provisional spread
            # stays where a player does not move a unit.
            state.phase = "placement"
            state.turn = 0
        else:
            phases.begin_play(state, content, [])
        return state

    # ---- turns ------------------------------------------------------------------------------------

    def to_act(self, state: IgniteState) -> ToAct:
        return views.to_act(state)

    def legal_actions(self, state: IgniteState, seat: str) -> list[Action]:
        if seat not in self.to_act(state).seats:
            return []
        p = state.pending
        # Issue 39: `quick` first, so a group new to the game sees the one move that sets it up.
        quick = [Action(quick_start.QUICK)] if quick_start.offered(state, seat) else []
        if state.phase == "placement":
            return [*quick, *phases.placements(state, seat), Action("end")]
        if p is not None:
            if p["kind"] == "divine_favor":
                verb = "redraw" if p["what"] == "draw" else "reroll"
                return [Action("favor", option=verb), Action("keep")]
            if p["kind"] == "tie":
                # `choose defaults`: the group answers this and every later tie of this Enemy
                # Phase with its default — still the players' decision, made once (about one tie
                # per minion arises when units stand at equal king distance).
                ties = [Action("choose", option=views.tie_square(o)) for o in p["options"]]
                return [*ties, Action("choose", option=DEFAULTS)]
            return [Action("respawn", option="left"), Action("respawn", option="right")]
        return [*quick, *legal_card_actions(state, load_content(), seat), Action("end")]

    def parse(self, state: IgniteState, text: str) -> Action:
        words = text.strip().lower().replace("_", " ").split()
        if not words:
            raise self.notation_error(text, FORMS)
        verb, rest = words[0], words[1:]
        if verb in ("end", "keep", quick_start.QUICK) and not rest:
            return Action(verb)
        if verb == "favor" and rest in (["redraw"], ["reroll"]):
            return Action("favor", option=rest[0])
        if verb == "respawn" and rest in (["left"], ["right"]):
            return Action("respawn", option=rest[0])
        if verb == "place" and len(rest) == 2:
            unit = views.unit_named(state, rest[0])
            return Action("place", unit=unit, square=square_name(parse_square(rest[1])))
        if verb == "choose" and rest:
            # `choose target:m18`, as ties were once written, is `choose m18`.
            return Action("choose", option=views.tie_square(" ".join(rest)))
        if verb not in ("honor", "buy", "play") and _card_prefix(words)[0] is not None:
            # `march Ra1 h16` is `play march Ra1 h16`: a move that starts with a card.
            verb, rest = "play", words
        if verb in ("honor", "buy", "play") and rest:
            name, rest = _card_prefix(rest)
            if name is None:
                # The engine adds the moves this seat can type now, with the cards it holds.
                raise NotationError(f"`{text}`: no card by that name.")
            if verb != "play":
                if rest:
                    raise self.notation_error(text, FORMS)
                return Action(verb, card=name)
            if len(rest) > 2:
                raise self.notation_error(text, FORMS)
            unit = views.unit_named(state, rest[0]) if rest else ""
            square = ""
            if len(rest) == 2:
                square = square_name(parse_square(rest[1]))
            return Action("play", card=name, unit=unit, square=square)
        raise self.notation_error(text, FORMS)

    def apply(self, state: IgniteState, seat: str, action: Action) -> list[Event]:
        content = load_content()
        events: list[Event] = []
        state.last_actor = seat  # the decider of the next decision no unit is concerned in
        if action.verb in ("favor", "keep", "choose"):
            pending = state.pending
            assert pending is not None
            if action.verb == "favor":
                events.append(Event("favor", f"{seat} spends a divine favor token."))
                spawn_steps.apply_favor(state, content, events)
            elif action.verb == "keep":
                # Told, so that a kept draw reads as an answer (a default's too), not as silence
                # before the rest of the Enemy Phase.
                detail = str(pending.get("detail", "")).strip()
                kept = f": {detail[0].lower()}{detail[1:]}" if detail else "."
                events.append(Event("favor", f"No divine favor token spent{kept}"))
                state.pending = None
            else:
                # The square answered names the option it stands for (`m18`: `target:m18`).
                named = [o for o in pending["options"] if views.tie_square(o) == action.option]
                option = named[0] if named else action.option
                if option == DEFAULTS:
                    state.ep["auto_ties"] = True
                    option = str(pending["default"]).removeprefix("choose ")
                    text = f"{seat} takes the default for every tie this Enemy Phase."
                    events.append(Event("choice", text))
                earlier = state.ep.get("choices", "")
                state.ep["choices"] = f"{earlier};{option}" if earlier else option
                state.pending = None
                events.append(Event("choice", _answered(state, seat, pending["minion"], option)))
            phases.run_enemy_phase(state, content, events)
        elif action.verb == quick_start.QUICK:
            quick_start.take(state, content, seat, events)
        elif action.verb == "respawn":
            phases.do_respawn(state, content, action.option, events)
        elif action.verb == "place":
            phases.place_unit(state, action.unit, parse_square(action.square), events)
        elif action.verb == "end" and state.phase == "placement":
            phases.end_placement(state, content, events)
        elif action.verb == "end":
            phases.end_player_turn(state, content, events)
        else:
            minions = {m.id for m in state.field.minions}
            events += apply_card_action(state, content, seat, action)
            # For the end-of-game summary: minions destroyed by this seat's card.
            gone = minions - {m.id for m in state.field.minions}
            state.kills[seat] = state.kills.get(seat, 0) + len(gone)
        # A free turn now due to a seat that took the quick start is played for it at once.
        quick_start.run(state, content, events)
        if state.outcome is not None and not any(e.kind == "game_over" for e in events):
            events.append(views.phase_event(state, "game_over", state.outcome["reason"]))
        # The post opens with the Enemy Phase's one-line summary (who was hit, who died), so a
        # long trace moved into a file still leaves the outcome in the post itself.
        summary = [e for e in events if e.kind == "enemy_summary"]
        return summary + [e for e in events if e.kind != "enemy_summary"]

    def explain_illegal(self, state: IgniteState, seat: str, action: Action, legal: list[Action]) -> str:
        return refusals.explain(state, load_content(), seat, action, legal)

    # ---- views ------------------------------------------------------------------------------------

    def view(self, state: IgniteState, seat: str | None) -> JSON:
        """What `seat` (None: a spectator) may see. Keys for render/ignite/ and describe():

        game ("ignite"); round (0 during placement and free turns);
        phase (placement|free|player|enemy|over) - placement only with option placement=choose;
        to_act {seats, decision, prompt, default}; turn (seat whose turn it is, or None);
        terrain (18 rows of 18 terrain names, indexed [row][col]);
        round_card {name, faces {"1".."6": group text}, rolled (the D6 face or None)} - the
        Round card of the latest Enemy Phase (kept until the next is drawn), None before;
        units [{id, label, seat, race, square, health, max_health, shield, knocked_down,
        immobilized}] - label: short and unique all game ("r1", "st1"), for the picture;
        minions [{id, label (= id, "m7"), colour, level, square, damage, half_damage,
        catapult (square or None), catapult_damage (damage its catapult has taken, 0.5 steps),
        flags}];
        war_machines [{id, kind, owner, square, built}] - the players' war machines, in clear
        bases (owner is the seat that built it; any seat may use a built one from next to it);
        dragon {square, health} or None;
        power_cards / apocalypse_cards in effect [{name, text, shuffle}]; divine_favor;
        units_lost and loss_threshold (numbers; a ratman counts 1/2);
        market [{name, cost, count, honor, text, source}];
        last_moves [{id, path: [squares, the start first], attacked: [squares]}] of the last
        Enemy Phase;
        honor (gathered this turn); players [{seat, hand_count, deck_count, discard_count}];
        bazaar_open; hand (the viewer's own [{id, name, cost, honor, text, source}]; None for
        others and spectators);
        pending {kind, prompt, options, default, decider (the one seat to ping; anyone may
        answer); for a tie also minion, square, candidates
        [squares]} or None; outcome {winners, losers, reason}.
        """
        return views.build_view(state, seat)

    def board(self, view: JSON) -> list[Group]:
        return texts.board(view)

    def describe(self, view: JSON) -> str:
        return texts.describe(view)

    def outcome(self, state: IgniteState) -> Outcome | None:
        if state.outcome is None:
            return None
        o = state.outcome
        return Outcome(frozenset(o["winners"]), frozenset(o["losers"]), o["reason"])

    def suggestion_why(self, state: IgniteState, seat: str, action: Action) -> str | None:
        return suggest_why.why(state, action, self.legal_actions(state, seat))

    def choose_action(self, state: IgniteState, seat: str, level: str, dice: Dice) -> Action:
        """Ignite's own bot (games/ignite/bot.py): it plays the seat's cards with sense and
        answers decisions; deterministic, so `dice` is not drawn from."""
        if level not in self.ai_levels:
            raise OptionError(f"`{level}` is not a bot level; choose one of: {', '.join(self.ai_levels)}.")
        if seat not in self.to_act(state).seats:
            raise OptionError(f"{seat} has no move to make now.")
        return bot.choose(self, state, seat, level)

    def decider(self, state: IgniteState) -> str | None:
        """Issue 13, one decider per decision: the one seat to ping for a decision the rules
        hand to the group (everyone may still answer). The unit's player for a respawn or a tie
        about one player's units, else the player who acted last; None outside decisions."""
        p = state.pending
        if state.outcome is not None or p is None:
            return None
        if p["kind"] == "respawn":
            return str(p["seat"])
        return str(p.get("decider") or last_actor(state))

    def concerned(self, state: IgniteState) -> frozenset[str]:
        """A respawn is its unit's player's; a tie is about the units it names; a divine-favor
        chance is the group's."""
        p = state.pending
        if state.outcome is not None or p is None:
            return frozenset()
        if p["kind"] == "respawn":
            return frozenset({str(p["seat"])})
        if p["kind"] == "tie":
            return move_steps.tie_seats(state, p["options"])
        return frozenset()

    def result_figures(self, state: IgniteState) -> tuple[int | None, float | None]:
        # Rounds survived is the co-op game's measure of how well the group did.
        return state.round, None

    def setting_up(self, state: IgniteState) -> bool:
        return state.phase in ("placement", "free")  # How to Play: placing units, then the free turns

    def limits(self, state: IgniteState) -> list[Limit]:
        """How to Win's loss count, in halves (a ratman is half a unit): near one unit from it."""
        return [units.loss_limit(state)]

    def summary(self, state: IgniteState) -> dict[str, str]:
        """Issue 13's end-of-game summary, game side: rounds survived, units lost and kills,
        in total and by seat, as label -> text lines."""
        return texts.summary(state)

    def hidden_zones(self, state: IgniteState) -> list[Zone]:
        """Each seat's hand (its own) and deck (nobody's), and the enemy's power and apocalypse
        decks (nobody's): engine.hidden derives the rest."""
        zones = []
        for seat in state.cards:
            zones.append(Zone(f"{seat} hand", ("cards", seat, "hand"), frozenset({seat}), seat))
            zones.append(Zone(f"{seat} deck", ("cards", seat, "deck"), frozenset(), seat))
        for deck in ("power_deck", "apocalypse_deck"):
            zones.append(Zone(deck, (deck,), frozenset(), deck))
        return zones

    def secrets(self, state: IgniteState, seat: str) -> set[str]:
        cards = state.cards.get(seat)
        return set(cards.hand) if cards else set()

    # ---- persistence ------------------------------------------------------------------------------

    def to_json(self, state: IgniteState) -> JSON:
        return {"schema": self.schema_version, **state.to_json()}

    def from_json(self, data: JSON) -> IgniteState:
        return IgniteState.from_json(migrate(data))


def _card_prefix(words: list[str]) -> tuple[str | None, list[str]]:
    """The longest run of leading words that names a card, and the words after it."""
    names = load_content().cards
    for k in range(min(len(words), 4), 0, -1):
        name = " ".join(words[:k]).replace("-", " ")
        if name in names:
            return name, words[k:]
    return None, words


# reading: bottom-village
def _place_units(state: IgniteState, content: Content) -> None:
    """Race Selection: units go in the bottom village. Reading: the engine spreads them evenly
    along the bottom row in seat order (the rulebook lets players choose any bottom village space)."""
    per = units_per_player(len(state.seats))
    tags = views.race_tags()
    roster: list[tuple[str, str, int]] = []
    for seat in state.seats:
        race = content.races[seat]
        # Race Selection: the ratmen get 2 units instead of 1, 4 instead of 2, 6 instead of 3.
        count = per * 2 if race.ability == "ratmen" else per
        # Each unit is named as the map shows it: its race's mark and a number (R1, St1).
        roster += [(seat, f"{tags[seat]}{k + 1}", race.health) for k in range(count)]
    n = len(roster)
    used: set[int] = set()
    for i, (seat, uid, health) in enumerate(roster):
        col = min(17, int((i + 0.5) * 18 / n))
        while col in used:
            col = (col + 1) % 18
        used.add(col)
        state.field.units.append(Unit(uid, seat, seat, (col, 17), health, health))


def _answered(state: IgniteState, seat: str, who: str, option: str) -> str:
    """A tie's answer in words: "ratmen sends green minion #2 toward q18"."""
    kind, _, where = option.partition(":")
    mover = (
        "the Elder Dragon"
        if who == "dragon"
        else next((m.name for m in state.field.minions if m.id == who), "the enemy")
    )
    if kind == "attack":
        return f"{seat} has {mover} attack {where}."
    return f"{seat} sends {mover} toward {where}."
