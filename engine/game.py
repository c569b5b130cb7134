"""The contract between the host and a game's rules: metadata, setup, turns, actions, views.

Shaped after python-chess (value types, round-tripping notation) and OpenSpiel (one interface
for every game, chance inside the state, an observer per player). A game never does I/O.
"""

from __future__ import annotations

import contextlib
import json
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine.board_text import Group
from engine.board_text import board_text as render_board
from engine.dice import Dice, tally
from engine.errors import GameError, IllegalAction, NotationError, NotYourTurn, OptionError
from engine.glossary import Glossary, unknown
from engine.hidden import Sight, Zone, peeked, sight
from engine.refusals import Form, form_sentence, forms_legal_now, typo_listing
from engine.teaching import Teaching, teach_parts, teach_text

S = TypeVar("S")  # a game's state type (mutable, owned by the game)
A = TypeVar("A")  # a game's action type (immutable; str(action) is its canonical notation)

JSON = dict[str, Any]

# The option that carries the version of its game's rules a session was opened under (see
# Game.rules_version and docs/ARCHITECTURE.md, "Rules versions").
RULES = "rules"


def rules_of(options: Mapping[str, str]) -> int:
    """The version of the game's rules a session plays under, read from its options. A state
    without the key is version 1: every session stored before versions existed was played under
    version 1, and version 1 is written as the key's absence, so those snapshots still compare
    equal to their replays."""
    return int(options.get(RULES, "1"))


@dataclass(frozen=True)
class OptionSpec:
    """One game option: every legal value is a string, so Discord choices and the console agree."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str
    # The seated players of a co-operative game may change it while the game runs (`/game option`):
    # a standing answer of the group's, such as how divine favor is spent, not a rule of the deal.
    in_play: bool = False
    # What each value does, in players' words (value, meaning): said when the option changes in
    # play. A value with none is told with `help`.
    meanings: tuple[tuple[str, str], ...] = ()
    # The rules version that brought the option: a session of an earlier version has no such option,
    # so its states (and their snapshots) stay as that version wrote them.
    since: int = 1

    def meaning(self, value: str) -> str:
        """What `value` does, in players' words: its own meaning, else the option's help."""
        return dict(self.meanings).get(value, self.help)

    def validate(self, value: str) -> str:
        v = str(value).strip().lower()
        if v not in self.choices:
            raise OptionError(
                f"`{value}` is not a value of option `{self.name}`; choose one of: {', '.join(self.choices)}."
            )
        return v


@dataclass(frozen=True)
class ToAct:
    """Who may act now.

    `seats` holds one seat in a turn-based game, several in a simultaneous co-op phase. When an
    automated phase hands a choice to the players (a divine-favor reroll, a tie to break),
    `decision` names it and `prompt` asks it; `default` is the notation applied for them when
    nobody answers within the session's decision timeout, so an async game never stalls.

    A seat's own question mid-phase (a boost before the dice, which card to lose) has no
    `decision`: its answers name the seat's hand, so they stay on its private menu. It may still
    have a `default`, taken at the same timeout; `default_text` then says it in the table's words
    ("Sir Aldric does not boost"), since the notation could name a card only the seat may see.
    """

    seats: frozenset[str]
    decision: str | None = None
    prompt: str = ""
    default: str | None = None
    default_text: str = ""


@dataclass(frozen=True)
class Limit:
    """A limit that ends the game (a round limit, a loss threshold, points to win), declared so
        that no such rule bites unseen: /game status lists it from the start and the host announces
        it in the turn's post once, when it comes near.

        `now` says where it stands ("Round 10 of 12", "Units lost: 3 of 4"), `rule` what happens at
        its end ("the game ends after round 12: ..."), the same words all game long (the host knows
    the limit by them). `value` counts toward `end` (up or down); it
        is near when at most `warn` steps are left (the last two rounds, one point from the end)."""

    now: str
    rule: str
    value: int
    end: int
    warn: int = 1

    @property
    def left(self) -> int:
        return abs(self.end - self.value)

    @property
    def near(self) -> bool:
        return self.left <= self.warn

    def line(self) -> str:
        return f"{self.now}: {self.rule}"


@dataclass(frozen=True)
class Event:
    """Something an action caused, in the rules' words.

    `to` is None for a public event, else the only seats that may see it. `random` and `reveals`
    are a game's own note that a die was rolled or a hidden thing made known; the engine finds
    both by itself as the action happens (Game.play), so a game that forgets them is still safe.
    `phase_end` asks the host for a fresh picture of the board after this event; when
    an automated run passes several phases in one apply, the game puts the public view of that
    moment in `data["view"]` so each phase gets its own picture. `headline` marks a line that
    stays in the post when a long run's whole trace moves into a file (a phase's summary, a loss).
    `detail` marks a line of reasons the post leaves out: the host attaches the run's whole text
    as a file (events.txt), one tap away, and the post keeps the short lines.
    """

    kind: str
    text: str
    to: frozenset[str] | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    random: bool = False
    reveals: bool = False
    phase_end: bool = False
    headline: bool = False
    detail: bool = False


@dataclass(frozen=True)
class Played:
    """An action as it happened (Game.play): the action, its events, and what the engine saw:
    `rolled` counts the draws the dice made (rolls, shuffles, random picks), `peeked` says a seat
    came to see a card it could not see before (a draw, a reveal; engine.hidden.peeked), and
    `public` is the move as the table is told it (Game.public_text, worked out before it applied)."""

    action: Any
    events: list[Event]
    rolled: int
    peeked: bool
    public: str

    @property
    def takes_back_a_look(self) -> bool:
        """Undoing it would let someone take back a look at hidden cards or future dice."""
        return bool(self.rolled or self.peeked or any(e.random or e.reveals for e in self.events))


@dataclass(frozen=True)
class Outcome:
    """The end of a game. A draw has no winners and no losers; a co-op loss has only losers."""

    winners: frozenset[str]
    losers: frozenset[str]
    reason: str

    @property
    def draw(self) -> bool:
        return not self.winners and not self.losers

    def to_json(self) -> JSON:
        return {"winners": sorted(self.winners), "losers": sorted(self.losers), "reason": self.reason}


class Terms(Protocol):
    """A game's glossary module (games/<name>/glossary.py): every term a player meets, derived from
    the game's rules code and content, and an entry for each."""

    def vocabulary(self) -> dict[str, str]: ...

    def glossary(self) -> Glossary: ...


class Game(ABC, Generic[S, A]):
    """One hosted game. Subclasses are stateless; every method takes the state it works on."""

    id: ClassVar[str]
    title: ClassVar[str]
    blurb: ClassVar[str]  # one line for /game help
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    ai_levels: ClassVar[tuple[str, ...]] = ()
    # A two-player game keeps a replay frame of every move; the channel still gets one picture per
    # turn (the host), and others a frame per phase (Event.phase_end).
    picture_every_action: ClassVar[bool] = False
    # Co-operative: the seats win or lose together (a resignation concedes for the group).
    cooperative: ClassVar[bool] = False
    # Seats hold private cards: the host offers a "show my hand" button with each turn notice.
    has_hands: ClassVar[bool] = False
    schema_version: ClassVar[int] = 1
    # The version of the rules and content this code plays. A change that alters play (a rule, a
    # card, a map, a default) bumps it and keeps the old behaviour for sessions opened under an
    # earlier version, found with rules_of(state.options); tests/engine/test_rules_versions.py
    # fails when a stored reference game replays differently without a bump.
    rules_version: ClassVar[int] = 1
    # The game's glossary module, which vocabulary() and glossary() read (none: no terms).
    terms: ClassVar[Terms | None] = None

    # ---- metadata -------------------------------------------------------------------------

    def validate_options(self, raw: Mapping[str, str]) -> dict[str, str]:
        """Defaults filled in; an unknown option or value raises OptionError naming the legal ones."""
        version = next(
            (self._rules_version_in(v) for k, v in raw.items() if k.strip().lower() == RULES),
            self.rules_version,
        )
        specs = {o.name: o for o in self.options if o.since <= version}
        out = {o.name: o.default for o in specs.values()}
        for name, value in raw.items():
            key = name.strip().lower()
            if key == RULES:
                continue
            if key not in specs:
                legal = ", ".join(specs) or "none"
                raise OptionError(f"{self.title} has no option `{name}`; its options are: {legal}.")
            out[key] = specs[key].validate(value)
        if version > 1:  # version 1 is the key's absence (rules_of)
            out[RULES] = str(version)
        return out

    def _rules_version_in(self, value: str) -> int:
        """A stored session's rules version: a whole number this code still plays."""
        text = str(value).strip()
        if not text.isdecimal() or not 1 <= int(text) <= self.rules_version:
            raise OptionError(
                f"This game of {self.title} was opened under rules version {text[:12]}, which this "
                f"copy of the bot does not know (it plays versions 1 to {self.rules_version}); "
                "it needs a newer version of the bot."
            )
        return int(text)

    def session_options(self, raw: Mapping[str, str]) -> dict[str, str]:
        """The options a new session stores: validated, with the rules version always written,
        so that a later bump never reads the session as opened under the newer rules."""
        options = self.validate_options(raw)
        return {**options, RULES: str(rules_of(options))}

    @abstractmethod
    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        """Every seat that can be taken with these options, in turn order."""

    def seat_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        """How many seats must be filled to start: (minimum, maximum)."""
        n = len(self.seat_names(options))
        return n, n

    def teaching(self) -> Teaching:
        """How the game teaches itself in `/game help game:<id>` (engine.teaching says the order)."""
        return Teaching(win=(self.blurb,), turn=(), commands=())

    def rules_help(self) -> str:
        """The whole help text: the teaching in its fixed order, then the options."""
        return teach_text(self)

    def help_posts(self) -> list[str]:
        """The help text as `/game help` sends it: the lesson, then the readings and stand-ins."""
        return teach_parts(self)

    def change_option(self, state: S, name: str, value: str) -> str:
        """Set an option marked `in_play` on a game under way (`value` already validated) and
        return the value it had. A game that marks one keeps its options in its state."""
        raise NotImplementedError(f"{self.title} marks no option that may change in play")

    def is_cooperative(self, options: Mapping[str, str]) -> bool:
        """Whether the seats play together against the game with these options (a concession is
        the group's, a silent seat goes to the bot): a game with co-op and versus modes says per mode."""
        return self.cooperative

    def decider(self, state: S) -> str | None:
        """The one seat to ping for a pending decision the rules hand to "the players" (a tie, a
        shared token): every seat in ToAct.seats may still answer, but only this one is asked and
        bots leave the answer to people. None (the default): no single decider."""
        return None

    def concerned(self, state: S) -> frozenset[str]:
        """The seats whose own pieces a pending decision is about (a tie between one player's
        units); empty when it is the group's (a divine-favor chance) or none is pending. The host
        lets a bot seat answer a decision shared with people only when it concerns that seat
        alone, so after a takeover the people still decide about their own units."""
        return frozenset()

    def setting_up(self, state: S) -> bool:
        """Whether the game is still in its setup, before the first turn of play (placing units,
        drafting, mustering). Where a seat has choices there, the game offers the quick start:
        a legal action `quick` that takes a sensible suggested setup for that seat, so that one
        command per player reaches the first turn (tests/test_quick_start_every_game.py)."""
        return False

    def summary(self, state: S) -> dict[str, str]:
        """Lines for the end-of-game post, label -> text, in order (rounds survived, units lost,
        kills...). The host adds the result, moves, duration and who took longest."""
        return {}

    def limits(self, state: S) -> list[Limit]:
        """Every limit that can end the game from `state` (see Limit), in a fixed order; empty
        for a game that ends only by its position (Ignis)."""
        return []

    def result_figures(self, state: S) -> tuple[int | None, float | None]:
        """(rounds played, score) stored with a finished game's result for /game stats; None
        where the game has no such figure."""
        return None, None

    def seat_help(self, seat: str, players: int | None = None) -> str:
        """What taking `seat` means, said when a player joins it (a race and its abilities, say):
        a line ending in a newline, or empty. `players`: how many seats are taken now (what
        depends on the table's size is said for it), None where that is not known."""
        return ""

    def seat_title(self, options: Mapping[str, str], seat: str) -> str:
        """What posts call a seat: the seat itself, unless the game names who sits there (a Raid
        hero seat is its hero, "Sir Aldric", not `hero1`)."""
        return seat

    def joined_help(self, seat: str, players: int, options: Mapping[str, str]) -> str:
        """seat_help for a table whose options are known (the game opened with them): a game
        whose seats take what the options name (Raid Mode's hero for each seat) says that."""
        return self.seat_help(seat, players)

    def card_text(self, name: str) -> str:
        """`/game card name:<card>`: any card's name, cost and whole text (stand-ins say so).
        An unknown name raises IllegalAction listing the names close to it."""
        raise IllegalAction(f"{self.title} has no cards to look up.")

    def vocabulary(self) -> dict[str, str]:
        """Every term a player meets (name -> kind: status, terrain, marker, keyword, enemy, unit,
        card, phase...), derived from the game's own rules code and content, not typed by hand."""
        return self.terms.vocabulary() if self.terms is not None else {}

    def glossary(self) -> Glossary:
        """An entry for every term of the vocabulary and every card (engine.glossary)."""
        return self.terms.glossary() if self.terms is not None else Glossary([])

    def explain(self, name: str) -> str:
        """`/game card name:<name>`: a card's whole text, else the term's glossary entry; an
        unknown name raises IllegalAction naming the close ones."""
        glossary = self.glossary()
        term = glossary.find(name)
        try:
            return self.card_text(name)
        except IllegalAction:
            if term is None:
                raise unknown(self.title, name, glossary) from None
            return term.entry()

    def board(self, view: JSON) -> list[Group]:
        """Everything in play in a view, grouped (each unit, token, marker, terrain and card in
        play with where it is), for the board in words; [] where the status says it all."""
        return []

    def board_text(self, view: JSON) -> str:
        """`/game board format:text` and the alt text of every picture: the status, then the
        board one group a line (engine.board_text)."""
        return render_board(self.describe(view), self.board(view))

    def market_text(self, view: JSON) -> str:
        """`/game market`: what can be bought now, read from a public view."""
        raise IllegalAction(f"{self.title} has no market.")

    def action_text(self, state: S, seat: str, action: A) -> str:
        """What a legal move of `seat` does, in words, for its private move menu (the whole text
        of the card it plays, say); "" when its notation says it all. May name `seat`'s cards:
        show it only to that seat."""
        return ""

    def choice_label(self, state: S, action: A) -> str:
        """The button of one answer to a decision the rules hand the players, in their words
        ("St2 on j15" where the notation says only the square); "" leaves the notation's words.
        The typed notation stays the same either way."""
        return ""

    def check_content(self, folder: str | None = None) -> None:
        """Load and validate every content file at start (a group's own from `folder`, where it
        has them), raising an error that names the file, the entry and the field."""

    # ---- play -----------------------------------------------------------------------------

    @abstractmethod
    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> S:
        """The initial state for these seats (a subset of seat_names, in its order)."""

    @abstractmethod
    def to_act(self, state: S) -> ToAct:
        """Seats that may act now; empty once the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: str) -> list[A]:
        """Every action `seat` may take now; empty when it may not act."""

    @abstractmethod
    def parse(self, state: S, text: str) -> A:
        """Parse notation (leniently) into an action; NotationError says what the form is."""

    @abstractmethod
    def apply(self, state: S, seat: str, action: A) -> list[Event]:
        """Apply a legal action in place, running any automation it triggers up to the next point
        where people must act. Raises before changing anything if the action is not legal."""

    @abstractmethod
    def view(self, state: S, seat: str | None) -> JSON:
        """What `seat` (None: a spectator) may know, as JSON. The only way state reaches a person."""

    @abstractmethod
    def describe(self, view: JSON) -> str:
        """A short text status from a view: whose turn, scores, what is pending."""

    def describe_hand(self, view: JSON) -> str:
        """`/game hand`: what a seat's own view shows it; the status unless a game says less (a
        table of many heroes, whose whole status would push the hand into a file)."""
        return self.describe(view)

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game is running."""

    # ---- persistence ----------------------------------------------------------------------

    @abstractmethod
    def to_json(self, state: S) -> JSON:
        """The whole state (dice included), with key "schema" = schema_version."""

    @abstractmethod
    def from_json(self, data: JSON) -> S:
        """Load a state written by this or any older schema version."""

    def copy(self, state: S) -> S:
        return self.from_json(json.loads(json.dumps(self.to_json(state))))

    # ---- AI and hidden information ------------------------------------------------------------

    def choose_action(self, state: S, seat: str, level: str, dice: Dice) -> A:
        """The bot's move for `seat` at `level` (one of ai_levels)."""
        raise OptionError(f"{self.title} has no AI player.")

    def suggestion_why(self, state: S, seat: str, action: A) -> str | None:
        """One line of why the bot plays `action` for `seat` at `state`, for the Suggest button,
        in the game's own words ("attack the Shambler: it is the only enemy that can reach Sir
        Aldric"). `state` is a position the seat cannot tell from the real one, so nothing hidden
        may be named as fact. None (the default): engine/suggest.py says what the move threatens,
        stops or does, from the rules alone."""
        return None

    def sample_state(self, view: JSON, seat: str, dice: Dice) -> S | None:
        """A whole state consistent with `seat`'s view, for a search bot (engine.search_bot): every
        thing hidden from the seat (other hands, deck order) drawn at random, with `dice`, from
        what the view leaves possible, and the state's own dice reseeded from `dice` so future
        rolls are not known either. Built from the view alone, so the bot cannot read another
        seat's cards. None (the default): the game hides nothing and the bot may search a copy
        of the real state."""
        return None

    def settled(self, state: S) -> bool:
        """Whether `state` may be scored by `evaluate`: no one is mid-move and no reaction is
        pending (an opportunity attack offered, a special half done). A search bot plays on from
        an unsettled position before it scores it. True (the default): every position is."""
        return True

    def rollout_plies(self, state: S, plies: int) -> int:
        """How many plies of random play a search bot's playout takes before it scores the
        position, given its level's `plies`: a game whose random play says little (a co-op side
        whose random moves squander the heroes) asks for fewer, trusting its estimate sooner."""
        return plies

    def turn_id(self, state: S, seat: str) -> Hashable | None:
        """The same value for every decision of `seat`'s one turn (a round and phase number, say)
        and a new one for its next turn, so a bot spends one time budget on its whole turn; None
        (the default): each decision is a turn of its own."""
        return None

    def turn_goes_on(self, state: S, seat: str) -> bool:
        """Whether `seat`, answering at `state` and asked again straight after (nobody else
        decided in between) in a turn with a new `turn_id`, is still in the same bot turn: the
        other players have been waiting all along (a Dire Alliance defender who claims initiative
        plays the next turn too). False (the default): a new turn id is a new turn, as where an
        automated phase (enemies acting) came between."""
        return False

    def evaluate(self, state: S, seat: str) -> float | None:
        """How well `seat` stands, 0 (lost) to 1 (won), for a search bot that cuts its playouts
        short; None (the default): no estimate, playouts run to the end of the game."""
        return None

    def hidden_zones(self, state: S) -> list[Zone]:
        """Every part of the state some seat may not see, and who may (engine.hidden says how a
        game declares them and what the engine does with them). A game that hides nothing
        returns [] (the default)."""
        return []

    def public_text(self, state: S, seat: str, action: A) -> str:
        """The move as the table is told it, before it is applied: "plays a card face down",
        "swaps a lore card". The default is the notation, for games whose moves name nothing
        hidden; tests/test_hidden_zones.py checks, in every game, that a move that reveals nothing
        has a public form the other seats could not tell from another deal's."""
        return str(action)

    def secrets(self, state: S, seat: str) -> set[str]:
        """Strings only `seat` may know now (its hand's card names, say), for the older substring
        scans in the tests; the guarantee itself comes from hidden_zones."""
        return set()

    # ---- helpers shared by every game ---------------------------------------------------------

    def act(self, state: S, seat: str, text: str) -> tuple[A, list[Event]]:
        """Parse, check turn and legality, apply. The single validating entry point."""
        turn = self.to_act(state)
        if seat not in turn.seats:
            if not turn.seats:
                raise NotYourTurn("The game is over; no more moves can be made.")
            who = ", ".join(sorted(turn.seats))
            raise NotYourTurn(f"It is not {seat}'s turn; waiting for {who}.")
        legal = self.legal_actions(state, seat)
        try:
            action = self.parse(state, text)
        except NotationError as e:
            # Every game's typo answer shows only the forms of moves legal now and ends with what
            # this seat can type now (engine.refusals).
            shown = form_sentence(forms_legal_now(e.forms, legal))
            raise NotationError(e.reason + shown + typo_listing(text, legal)) from e
        if action not in legal:
            raise IllegalAction(self.explain_illegal(state, seat, action, legal))
        return action, self.apply(state, seat, action)

    def play(self, state: S, seat: str, text: str) -> Played:
        """`act`, watched by the engine: the host applies every move this way, so that whether it
        rolled, shuffled, drew or revealed is recorded as it happens, for every game alike."""
        # Who could not see what, taken before the action changes the state (a game's to_json
        # may share its lists with the state).
        before = self._sight(state)
        # The public form is worked out on the position the move is made in; a move act refuses
        # is refused below with act's own message.
        public = ""
        with contextlib.suppress(GameError):
            public = self.public_text(state, seat, self.parse(state, text))
        with tally() as rolled:
            action, events = self.act(state, seat, text)
        looked = peeked(before, self._sight(state), seat)
        return Played(action, events, rolled[0], looked, public or str(action))

    def _sight(self, state: S) -> Sight:
        zones = self.hidden_zones(state)
        return sight(self.to_json(state), zones) if zones else Sight({None: frozenset()})

    def explain_illegal(self, state: S, seat: str, action: A, legal: list[A]) -> str:
        """Why `action` is refused and what is legal instead; games override for a sharper reason."""
        sample = ", ".join(str(a) for a in legal[:8])
        more = f" … ({len(legal)} in all; /game moves lists them)" if len(legal) > 8 else ""
        return f"`{action}` is not legal now. Legal moves: {sample}{more}."

    def notation_error(self, text: str, forms: Sequence[Form]) -> NotationError:
        """`text` read as no move; `forms` are the shapes of move the game reads."""
        return NotationError(f"`{text}` is not a move.", forms)
