"""BattleLore Second Edition with the Great Dragon Reinforcement Pack, for the engine contract:
options, setup, whose move, notation, views, secrets, the search bot's hooks.

The core rules are not in our rulebooks: the core here is a documented stand-in (rules_help says
so); the expansion's rules follow the rulesheet. Rules live in setup.py, turn.py and combat.py.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from engine.board_text import Group
from engine.dice import Dice
from engine.errors import NotationError, OptionError
from engine.game import Event, Game, Limit, OptionSpec, Outcome, Terms, ToAct
from engine.hidden import Zone
from engine.refusals import Form, example_forms, starting
from engine.teaching import Teaching
from engine.words import count, listing
from games.battlelore import bot, combat, glossary, quick, setup, suggest_why, texts, turn
from games.battlelore.board import SECTIONS, is_hex, not_a_hex, parse_hex
from games.battlelore.content import Content, load_content, use_folder
from games.battlelore.rules import card
from games.battlelore.setup import DECOY
from games.battlelore.state import JSON, SEATS, Action, State, other
from games.battlelore.views import SETUP_PHASES

# Every verb a seat can type has a form, the setup's steps too, so that a typo's answer always
# shows the shape of the moves legal now (tests/test_typo_refusals.py).
FORMS = example_forms(
    "quick",
    "scenario river-ford",
    "draft great-dragon",
    "pass",
    "army citadel-line",
    "muster citadel-guard",
    "swap frenzy",
    "flank left",
    "deploy citadel-guard c2",
    "discard probe-left",
    "command probe-left",
    "order c2",
    "return a7 b7",
    "move c2 c3",
    "attack c3 c4",
    "target f6",
    "breath f5",
    "reroll",
    "keep",
    "redeploy b2",
    "done",
    "gain lore",
    "draw lore",
    "lore sun-lance f5",
)
_ATTACK_FORMS = (
    *example_forms("attack c3 c4"),
    Form("`attack c3 c4 nowhere-to-run d4`", starting("attack * * *")),
)
_NAMED = ("draft", "muster", "army", "command")  # verbs followed by one content name


def _lore_hex_refused(game: BattleLore, state: State, name: str, word: str) -> str:
    """A lore card named with a word that is no hex: the board's extent, then the hexes the card
    may target now (the seat to act's legal `lore` moves), or that it may target none now."""
    off = not_a_hex(word)
    title = load_content().lore[name].title
    hexes = [
        str(a.args[1])
        for seat in sorted(game.to_act(state).seats)
        for a in game.legal_actions(state, seat)
        if a.verb == "lore" and a.args[:1] == (name,) and len(a.args) > 1
    ]
    if not hexes:
        return f"{off} {title} may target no hex now."
    return f"{off} {title} may target {listing([f'`{h}`' for h in hexes], 'or')} now."


class BattleLore(Game[State, Action]):
    id = "battlelore"
    # 2: Mighty rerolls die by die; Flying's lost die is a melee unit's only.
    # 3: lore swaps and deployment cards are chosen in steps, so no list of moves before the first
    # turn is longer than a page of the move menu (setup.in_steps).
    rules_version: ClassVar[int] = 3
    title = "BattleLore (Second Edition) with the Great Dragon"
    blurb = texts.BLURB
    options = (
        OptionSpec(
            "scenario",
            ("into-the-fire", "standard"),
            "standard",
            "into-the-fire: the expansion's pre-built scenario (an uncontrolled dragon); standard: "
            "scenario cards and the full muster, drafting neutral units",
        ),
        OptionSpec(
            "dragon",
            ("on", "off"),
            "on",
            "standard games: on puts two Great Dragon deployment cards in the draft pool",
        ),
        OptionSpec(
            "unspent",
            ("spend", "keep"),
            "spend",
            "standard games' muster points; spend: `done` waits until no unit fits the points left; "
            "keep: a player may stop with points unspent",
        ),
        OptionSpec(
            "weak_cleave",
            ("target", "attacker"),
            "target",
            "a weak unit is down to one figure; target: cleave results do not count against a weak "
            "unit; attacker: they do not count when a weak unit attacks",
        ),
        OptionSpec(
            "flame_breath",
            ("must", "may"),
            "must",
            "the Great Dragon's Flame Breath; must: each heroic result deals its 1 damage to an enemy "
            "next to the target (the card's words); may: its player may pass instead",
        ),
    )
    ai_levels = ("easy", "medium", "hard")
    picture_every_action = True
    has_hands = True
    terms: ClassVar[Terms] = glossary  # vocabulary() and glossary() read it

    # ---- metadata ------------------------------------------------------------------------------

    def validate_options(self, raw: Mapping[str, str]) -> dict[str, str]:
        opts = super().validate_options(raw)
        if opts["scenario"] == "into-the-fire":
            # Into the Fire's one dragon is uncontrolled and nobody drafts: `dragon` is a
            # standard-game option, refused by name here and left out of the game's options.
            if "dragon" in {k.strip().lower() for k in raw}:
                raise OptionError(
                    "`dragon` is an option of standard games; Into the Fire's dragon is uncontrolled."
                )
            del opts["dragon"]
            # Into the Fire's unspent points become lore tokens, as written: no reading to choose.
            if "unspent" in {k.strip().lower() for k in raw}:
                raise OptionError(
                    "`unspent` is an option of standard games; in Into the Fire each "
                    "unspent point is a lore token (at most 5)."
                )
            del opts["unspent"]
        return opts

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return list(SEATS)

    def teaching(self) -> Teaching:
        return texts.teaching()

    def seat_help(self, seat: str, players: int | None = None) -> str:
        return texts.seat_help(seat)

    def card_text(self, name: str) -> str:
        return texts.card_text(name)

    def action_text(self, state: State, seat: str, action: Action) -> str:
        return texts.action_text(state, seat, action)

    def check_content(self, folder: str | None = None) -> None:
        use_folder(Path(folder) if folder else None)
        load_content()

    # ---- play ---------------------------------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> State:
        # Sessions stored before `dragon` was refused for Into the Fire carry it: they replay still.
        fire = str(options.get("scenario", "")).strip().lower() == "into-the-fire"
        opts = self.validate_options({k: v for k, v in options.items() if not (fire and k == "dragon")})
        if list(seats) != list(SEATS):
            raise OptionError("BattleLore seats two players: daqan and uthuk.")
        return setup.new_state(opts, seed)

    def to_act(self, state: State) -> ToAct:
        if state.outcome is not None:
            return ToAct(frozenset())
        p = state.pending
        if p is not None:
            return ToAct(frozenset({p["seat"]}), decision=p["kind"], prompt=p["prompt"], default=p["default"])
        if state.phase == "draft":
            return ToAct(frozenset({state.draft["turn"]}))
        if state.phase == "play":
            return ToAct(frozenset({state.active}))
        seat = self._setup_seat(state)
        return ToAct(frozenset({seat} if seat else ()))

    # reading: setup-daqan-first
    def _setup_seat(self, state: State) -> str | None:
        """Setup is done one player at a time, the first player (Daqan) first: Into the Fire says
        Daqan performs his scenario setup first, and we read the core's setup steps the same way.
        Whatever is chosen stays face down, so going second tells a player nothing."""
        for seat in SEATS:
            if self._setup_actions(state, seat):
                return seat
        return None

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        if state.outcome is not None:
            return []
        if state.pending is not None:
            if seat != state.pending["seat"]:
                return []
            return [self.parse(state, o) for o in state.pending["options"]]
        if state.phase == "play":
            return turn.actions(state, seat)
        if state.phase == "draft":
            return self._with_quick(state, seat, setup.draft_actions(state, seat))
        if self._setup_seat(state) != seat:
            return []
        return self._with_quick(state, seat, self._setup_actions(state, seat))

    @staticmethod
    def _with_quick(state: State, seat: str, legal: list[Action]) -> list[Action]:
        """A setup decision offers `quick` first: the suggested setup for the rest (quick.py)."""
        return [Action(quick.QUICK), *legal] if legal else []

    def _setup_actions(self, state: State, seat: str) -> list[Action]:
        phase = state.phase
        if phase == "scenario":
            return setup.scenario_actions(state, seat)
        if phase == "muster":
            return setup.muster_actions(state, seat)
        if phase == "deploy":
            return setup.deploy_actions(state, seat)
        if phase == "hands":
            return setup.hands_actions(state, seat)
        return []

    def parse(self, state: State, text: str) -> Action:
        words = text.strip().lower().split()
        if not words:
            raise self.notation_error(text, FORMS)
        verb, rest = words[0], words[1:]
        c = load_content()
        if verb in ("pass", "done", "reroll", "keep", quick.QUICK) and not rest:
            return Action(verb)
        if verb in ("gain", "draw") and rest == ["lore"]:
            return Action(verb, ("lore",))
        if verb in _NAMED and rest:
            name = "-".join(rest)
            tables: dict[str, Mapping[str, Any]] = {
                "draft": c.units,
                "muster": c.units,
                "army": c.armies,
                "command": c.commands,
            }
            table = tables[verb]
            if name not in table:
                # The engine adds what this seat can type now: the whole table would name
                # units of the other army and cards not in hand.
                raise NotationError(f"`{text}`: no {verb} named `{name}`.")
            return Action(verb, (name,))
        if verb == "lore" and rest:
            target = [parse_hex(rest[-1])] if len(rest) > 1 and is_hex(rest[-1]) else []
            name = "-".join(rest[:-1] if target else rest)
            if name not in c.lore and len(rest) > 1 and "-".join(rest[:-1]) in c.lore:
                # `lore sun-lance q7`: the card is named, its hex is off the board.
                raise NotationError(_lore_hex_refused(self, state, "-".join(rest[:-1]), rest[-1]))
            if name not in c.lore:
                raise NotationError(f"`{text}`: no lore card `{name}`.")
            return Action("lore", (name, *target))
        if verb == "flank" and len(rest) == 1 and rest[0] in SECTIONS:
            return Action(verb, (rest[0],))
        if verb in ("order", "target", "breath", "redeploy") and len(rest) == 1:
            return Action(verb, (parse_hex(rest[0]),))
        if verb in ("move", "return") and len(rest) == 2:
            return Action(verb, (parse_hex(rest[0]), parse_hex(rest[1])))
        if verb == "attack" and len(rest) >= 2:
            hexes = (parse_hex(rest[0]), parse_hex(rest[1]))
            if len(rest) == 2:
                return Action("attack", hexes)
            name = "-".join(rest[2:-1])
            if len(rest) >= 4 and name in c.lore:
                return Action("attack", (*hexes, name, parse_hex(rest[-1])))
            raise self.notation_error(text, _ATTACK_FORMS)
        # Cards are named (`discard probe-left`, `deploy citadel-guard c2`); the ids of a log kept
        # from before names were used still read, as the card they stood for.
        if verb in ("scenario", "discard") and rest:
            return Action(verb, (_card_name(state, c, "-".join(rest)),))
        if verb == "swap" and len(rest) in (1, 2):
            return Action("swap", tuple(_card_name(state, c, w) for w in rest))
        if verb == "deploy" and rest == ["auto"]:
            return Action("deploy", ("auto",))
        if verb == "deploy" and len(rest) >= 2 and is_hex(rest[-1]):
            return Action("deploy", (_card_name(state, c, "-".join(rest[:-1])), parse_hex(rest[-1])))
        if verb == "deploy" and rest:  # the card taken up, its hex chosen next
            return Action("deploy", (_card_name(state, c, "-".join(rest)),))
        raise self.notation_error(text, FORMS)

    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        events: list[Event] = []
        if action.verb == quick.QUICK:
            quick.mark(state, seat)
        else:
            self._apply(state, seat, action, events)
        self._quick_steps(state, events)
        if state.outcome is not None:
            state.phase = "over"
            # The reason alone: the host says "Game over" and who won (bot.host.core.result_line).
            events.append(Event("game_over", state.outcome["reason"], phase_end=True))
        return events

    def _quick_steps(self, state: State, events: list[Event]) -> None:
        """Each setup decision of a seat that took the quick start is answered with the suggested
        move, one phase at a time, each phase told in one line (quick.line) in place of the moves'
        own lines (the purchases, a secret swap's or discard's public form)."""
        while state.phase in ("scenario", "draft", "muster", "deploy", "hands") and state.pending is None:
            seats = [s for s in self.to_act(state).seats if quick.is_quick(state, s)]
            if not seats:
                return
            seat, phase = seats[0], state.phase
            moves: list[Action] = []
            told: list[Event] = []
            while state.phase == phase and seat in self.to_act(state).seats:
                move = quick.next_move(state, seat)
                moves.append(move)
                self._apply(state, seat, move, told)
            # A purchase's or a placement's own line is said once for the phase (quick.line);
            # phase ends and what they turn up stay.
            kept = [e for e in told if not (e.kind in ("muster", "deploy") and not e.phase_end)]
            events += quick.line(state, seat, phase, moves) + kept

    def _apply(self, state: State, seat: str, action: Action, events: list[Event]) -> None:
        v, a = action.verb, action.args
        if state.pending is not None:
            combat.answer(state, seat, v, a[0] if a else "", events)
            turn.run(state, events)
        elif state.phase == "scenario":
            setup.pick_scenario(state, seat, a[0], events)
        elif state.phase == "draft":
            if v == "draft":
                setup.draft(state, seat, a[0], events)
            else:
                setup.draft_pass(state, seat, events)
        elif state.phase == "muster":
            if v == "army":
                setup.muster(state, seat, load_content().armies[a[0]].units, events)
            elif v == "muster":
                setup.muster(state, seat, a, events)
            elif v == "swap" and len(a) == 1:
                setup.pick_swap(state, seat, a[0])
            elif v == "swap":
                setup.swap(state, seat, a[0], a[1])
            else:
                setup.muster_done(state, seat, events)
        elif state.phase == "deploy":
            if v == "done":
                setup.deploy_done(state, seat, events)
            elif v == "flank":
                setup.show_flank(state, seat, a[0])
            elif len(a) == 1 and a != ("auto",):
                setup.pick_card(state, seat, a[0])
            else:
                setup.deploy(state, seat, a, events)
        elif state.phase == "hands":
            if setup.discard(state, seat, a[0]):
                turn.begin_play(state, events)
        else:
            turn.apply(state, seat, action, events)

    def explain_illegal(self, state: State, seat: str, action: Action, legal: list[Action]) -> str:
        if state.phase == "play" and state.pending is None:
            sharper = texts.play_refusal(state, seat, action, legal)
            if sharper:
                return sharper
            need = {
                "command": "play a command card (or a lore card)",
                "order": "order units or `done`",
                "hoard": "return a dragon to a hoard or `done`",
                "move": "move ordered units or `done`",
                "attack": "attack with ordered units or `done`",
                "lore": "`gain lore` or `draw lore`",
            }
            reason = f"`{action}` is not legal now: it is the {state.step} step ({need.get(state.step, '')})."
            sample = ", ".join(str(x) for x in legal[:10])
            return f"{reason} Legal: {sample}{' …' if len(legal) > 10 else ''}."
        mustering = texts.muster_refusal(state, seat, action) or texts.step_refusal(
            state, seat, action, legal
        )
        return mustering or super().explain_illegal(state, seat, action, legal)

    # ---- views ----------------------------------------------------------------------------------

    def view(self, state: State, seat: str | None) -> JSON:
        """What `seat` (None: a spectator) may know. Keys for render/battlelore.py and describe():

        game, scenario, phase, step, active, turn, vp, victory_vp, lore_tokens; terrain {hex: kind};
        must_spend (a standard muster's points are spent before `done`);
        banners {hex: side}; hoards, infernos, yellow (Into the Fire's yellow hexes 1-4, in order);
        deploy_hexes {seat: [hex]}; units [{id, name, title, owner, hex, figures, max_figures,
        damage, health, marker, ordered, flying}]; facedown [{card, owner, hex}] (face-down
        deployment cards); dragon {hex, health, damage {seat: n}, overpowered, gone} or None;
        rolls [{attacker, target, side, dice, rerolled, melee, kind}] (the latest, newest last);
        pending {seat, kind, prompt, options, default} or None; players {seat: public counts}; order; outcome;
        mine: the viewer's own private cards, or None; state: the whole state with everything
        the viewer may not know replaced by "?" (what the search bot samples from).
        """
        from games.battlelore.views import build_view  # the view builder is long; kept apart

        return build_view(state, seat)

    def board(self, view: JSON) -> list[Group]:
        return texts.board(view)

    @staticmethod
    def _vp_target(view: JSON) -> str:
        """The limit that ends a standard game, shown from the start (Into the Fire ends by its
        dragon, not by VP)."""
        if view["scenario"] == "into-the-fire":
            return ""
        return f" (first to {load_content().rules.victory_vp} wins)"

    def describe(self, view: JSON) -> str:
        if view["outcome"]:
            return f"Game over: {view['outcome']['reason']}"
        lines = [
            f"{'Into the Fire' if view['scenario'] == 'into-the-fire' else 'Standard game'}, "
            f"{view['phase']} phase. VP{self._vp_target(view)}: Daqan {view['vp']['daqan']}, "
            f"Uthuk {view['vp']['uthuk']}. "
            f"Lore tokens: Daqan {view['lore_tokens']['daqan']}, Uthuk {view['lore_tokens']['uthuk']}."
        ]
        if view["phase"] == "play":
            lines.append(f"Turn {view['turn']}: {view['active'].title()}, {turn.step_words(view['step'])}.")
        if view["phase"] in ("draft", "muster"):
            lines.append(texts.muster_line(view))
        d = view["dragon"]
        if d and not d["gone"]:
            lines.append(
                f"Great Dragon at {d['hex']}: damage Daqan {d['damage']['daqan']}, Uthuk "
                f"{d['damage']['uthuk']} of {d['health']}; overpowered by: "
                f"{', '.join(d['overpowered']) or 'nobody'}."
            )
        if view["pending"]:
            lines.append(f"Waiting for {view['pending']['seat']}: {view['pending']['prompt']}")
        if view["mine"] is not None:
            lines += texts.private_lines(view)
        return "\n".join(lines)

    def setting_up(self, state: State) -> bool:
        return state.phase in (*SETUP_PHASES, "hands")  # the opening hands are dealt and kept before turn 1

    def summary(self, state: State) -> dict[str, str]:
        out = {
            "Scenario": "Into the Fire" if state.fire else "Standard game",
            "Turns": str(state.turn),
            "Units eliminated": ", ".join(f"{s.title()} {state.lost.get(s, 0)}" for s in SEATS),
        }
        if state.fire and state.dragon is not None:
            dmg = state.dragon["damage"]
            out["Damage to the Great Dragon"] = ", ".join(f"{s.title()} {dmg[s]}" for s in SEATS)
        else:
            out["VP"] = ", ".join(f"{s.title()} {state.vp[s]}" for s in SEATS)
        return out

    def limits(self, state: State) -> list[Limit]:
        """Victory points to win and each army's units (the standard game), or Into the Fire's
        dragon: the damage that overpowers it, which wins on its hoard (its eliminated units come
        back, so no army runs out there). Near one hoard's VP, one damage or one unit from the end."""
        if state.fire:
            dragon = state.dragon
            if dragon is None or dragon.get("gone") or dragon["id"] not in state.units:
                return []
            health = card(state.units[dragon["id"]]).health
            return [
                Limit(
                    f"{s.title()} has dealt {dragon['damage'][s]} of {health} damage to the Great Dragon",
                    f"{s.title()} overpowers it on dealing {health}, and wins by doing so while it is "
                    "on its hoard, or by then holding the hoard at the start of a turn",
                    dragon["damage"][s],
                    health,
                )
                for s in SEATS
            ]
        rules = load_content().rules
        target = rules.victory_vp
        points = [
            Limit(
                f"{s.title()} has {state.vp[s]} of {target} VP",
                f"{s.title()} wins on reaching {target} VP",
                state.vp[s],
                target,
                # Near within one plundered hoard: a single turn can score that much at once.
                warn=rules.hoard_vp,
            )
            for s in SEATS
        ]
        if state.phase != "play":
            return points  # no army is on the board to be eliminated yet (combat.check_annihilation)
        # Annihilation: a side whose every unit is eliminated loses at once, whatever the VP.
        left = {s: len(state.units_of(s)) for s in SEATS}
        armies = [
            Limit(
                f"{s.title()} has {count(left[s], 'unit')} left",
                f"{other(s).title()} wins at once when every {s.title()} unit is eliminated",
                left[s],
                0,
            )
            for s in SEATS
        ]
        return points + armies

    def outcome(self, state: State) -> Outcome | None:
        if state.outcome is None:
            return None
        o = state.outcome
        return Outcome(frozenset(o["winners"]), frozenset(o["losers"]), o["reason"])

    def hidden_zones(self, state: State) -> list[Zone]:
        from games.battlelore.views import hidden_zones

        return hidden_zones(state)

    # reading: mustering-open
    def public_text(self, state: State, seat: str, action: Action) -> str:
        """Moves that handle unseen cards are told without their ids: an id followed from pile to
        pile would tell the opponent which card it is."""
        v, a = action.verb, action.args
        if v == "scenario":
            return "chooses a scenario card face down"
        if v == "swap":
            return "swaps a lore card" if len(a) == 2 else "chooses a lore card to swap out"
        if v == "deploy" and len(a) == 1 and a != ("auto",):
            return "takes up a deployment card"
        if v == "deploy" and len(a) == 2:
            return f"places a deployment card face down at {a[1]}"
        if v == "discard":
            return "discards a card face down"
        return str(action)

    def secrets(self, state: State, seat: str) -> set[str]:
        """Each private card as `name#id`: hands, lore deck and the lore cards set aside or sent back
        to the box, scenario cards drawn (until revealed) and face-down deployment cards."""
        p = state.piles.get(seat, {})
        names = ["hand", "lore_hand", "lore_deck", "lore_pool", "lore_box", "deploy"]
        if len(state.scenario_pick) < 2:
            names.append("scenario")
        return {f"{state.cards[cid]}#{cid}" for n in names for cid in p.get(n, [])}

    # ---- persistence ---------------------------------------------------------------------------

    def to_json(self, state: State) -> JSON:
        return state.to_json()

    def from_json(self, data: JSON) -> State:
        return State.from_json(data)

    # ---- the bot -------------------------------------------------------------------------------------

    def suggestion_why(self, state: State, seat: str, action: Action) -> str | None:
        return suggest_why.why(state, action)

    def choose_action(self, state: State, seat: str, level: str, dice: Dice) -> Action:
        """Setup moves are fixed choices (games/battlelore/bot.py): a search that looks a dozen
        plies ahead cannot judge them; so are decisions with one plainly best answer (bot.decide).
        The rest go to the engine's generic search bot, at the level asked."""
        if level not in self.ai_levels:
            raise OptionError(f"`{level}` is not a bot level; choose one of: {', '.join(self.ai_levels)}.")
        legal = self.legal_actions(state, seat)
        if state.pending is None and state.phase != "play":
            return bot.setup_choice(state, seat, legal, dice)
        from engine.search_bot import choose

        # A plain answer (bot.decide) takes no search, but the search's tree follows it, so the
        # moves and attacks after a turn's orders start from what its first search learnt.
        result: Action = choose(self, state, seat, level, dice, plain=bot.decide(state, seat, legal))
        return bot.sensible(state, seat, legal, result)

    def sample_state(self, view: JSON, seat: str, dice: Dice) -> State | None:
        from games.battlelore.views import sample

        return sample(view, dice)

    def settled(self, state: State) -> bool:
        """No combat under way, no decision (Mighty, Flame Breath, a target) or redeployment owed."""
        return state.combat is None and state.pending is None and not state.redeploy

    def turn_id(self, state: State, seat: str) -> Hashable | None:
        return (state.phase, state.turn, state.active)

    def evaluate(self, state: State, seat: str) -> float | None:
        """VP, strength left on the board and (Into the Fire) the race for the dragon: the bot's
        estimate (games/battlelore/bot.py)."""
        return bot.estimate(state, seat)


def _card_name(state: State, c: Content, word: str) -> str:
    """A card named in a move: its name as typed (`probe-left`, `decoy`), or the name behind an
    id of an older log."""
    if word in state.cards:
        return state.cards[word]
    if word in c.commands or word in c.lore or word in c.scenarios or word in c.units or word == DECOY:
        return word
    raise NotationError(f"`{word}` is not a card; `/game hand` lists yours by name.")
